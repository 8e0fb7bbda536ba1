/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The checker: the last step of the flow.  Given a fabric and the tables
 * it is programmed with (computed offline, read from dump files or from a
 * live fabric), it proves or disproves what administrators care about:
 * every CA pair reaches its destination, no forwarding loop, how many hops
 * against the shortest path, and no credit loop in the channel dependency
 * graph over (directed link, VL).
 */
#ifndef OSMTOPO_CHECK_H
#define OSMTOPO_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <osmtopo/error.h>
#include <osmtopo/routing.h>

#define OT_CHECK_MAX_HOPS 64

struct ot_check_opts {
	/*
	 * Optional: called for every CA-to-CA path that reaches its
	 * destination, nodes from source CA to destination CA.  Non-zero
	 * counts the path as violating the engine's promise (reason in err).
	 */
	int (*path_cb)(void *ctx, const int32_t *nodes, unsigned int len,
		       struct ot_error *err);
	void *path_ctx;
	unsigned int max_examples; /* problems listed by kind; 0 = 5 */
};

struct ot_check_report;

/* Runs every check.  0 (report in *out, whatever it found) or -1 on OOM. */
int ot_check_run(const struct ot_fabric *f, const struct ot_routing *r,
		 const struct ot_check_opts *opts,
		 struct ot_check_report **out, struct ot_error *err);

/* True when nothing is unreachable, looping, credit-looping or violating. */
bool ot_check_ok(const struct ot_check_report *rep);

/* Human-readable summary, or JSON when json is true. */
int ot_check_print(FILE *out, const struct ot_check_report *rep, bool json);

void ot_check_report_free(struct ot_check_report *rep);

#endif
