/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Progress of a long live read on stderr, as one line rewritten in place
 * ("switches read 812/2048, about 40 s left"), and only when stderr is a
 * terminal: in a pipe, a log or a test it prints nothing.
 */
#ifndef OSMTOPO_LIVE_PROGRESS_H
#define OSMTOPO_LIVE_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct ot_progress {
	bool tty;
	bool shown;
	uint64_t start_ms, last_ms;
	const char *what;
};

void ot_progress_start(struct ot_progress *p, const char *what);
/* Redraws at most a few times a second. */
void ot_progress_show(struct ot_progress *p, uint64_t done, uint64_t total);
/* Clears the line. */
void ot_progress_end(struct ot_progress *p);

#endif
