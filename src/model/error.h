/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Error reporting shared by every step of osmtopo.  A function that can
 * fail takes a struct ot_error and, when it fails, leaves one line in it
 * saying why: for an engine's refusal, the line names the offending node
 * and port, and the plugin logs it as it is.
 */
#ifndef OSMTOPO_ERROR_H
#define OSMTOPO_ERROR_H

#define OT_ERROR_LEN 512

struct ot_error {
	char msg[OT_ERROR_LEN];
};

/* Sets err (if not NULL) to the formatted message; always returns -1. */
int ot_error_set(struct ot_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
