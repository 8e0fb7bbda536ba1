/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Small things every osmtopo subcommand needs the same way: a clock for
 * --time, the output file of -o, the list of engines in --help.
 */
#ifndef OSMTOPO_TOOL_UTIL_H
#define OSMTOPO_TOOL_UTIL_H

#include <stdbool.h>
#include <stdio.h>

#include "model/fabric.h"

/* Seconds on a monotonic clock. */
double tool_now(void);

/*
 * A command's output (-o): write(out, what) to path, or to standard
 * output when path is NULL; opened, written, flushed and closed, and what
 * failed said on stderr as "osmtopo CMD: ...".  OT_EXIT_OK, or
 * OT_EXIT_USAGE.
 */
int tool_write_output(const char *cmd, const char *path,
		      int (*write)(FILE *out, const void *what),
		      const void *what);

/* A fabric with its comment, for tool_write_output(..., tool_write_net). */
struct tool_net {
	const struct ot_fabric *f;
	const char *comment;
};
int tool_write_net(FILE *out, const void *net);

struct ot_routing;

/*
 * The inputs `check` and `simulate` share.  A net file and the dump_lfts
 * text of the tables programmed into it (either may be "-": standard
 * input): 0, or -1 with err set.
 */
int tool_load_lft_files(const char *netfile, const char *lftfile,
			struct ot_fabric **f, struct ot_routing **r,
			struct ot_error *err);

/*
 * A net file routed offline by engine (LIDs as OpenSM's option lmc
 * gives them when lmc >= 0): OT_EXIT_OK, OT_EXIT_USAGE (no such engine,
 * the file) or OT_EXIT_FAIL (the engine refused), err set.
 */
int tool_route_netfile(const char *engine, const char *netfile, int lmc,
		       const char *spread, unsigned int max_vls,
		       struct ot_fabric **f, struct ot_routing **r,
		       struct ot_error *err);

/*
 * --spread SPEC (route/spread.h: auto, off, N, with :lid, :switch or
 * :coord) on an engine's routing r, with OT_SPREAD_DATA_VLS data VLs and
 * no QoS classes; NULL: nothing.  Says on standard error when fewer
 * groups fit than asked.  0, or -1 with err set.
 */
int tool_spread(const char *spec, struct ot_routing *r, struct ot_error *err);

/*
 * Engine e on f, then --spread SPEC (NULL: none): an engine that can
 * degrade first routes within the budget the groups asked for leave
 * (route/spread.h), else as without.  max_vls (--max-vls; 0: none): a
 * routing on more VLs is routed again within them, as the plugin fits
 * an engine to OpenSM (ot_engine_fit_vls()), and OT_EXIT_FAIL when the
 * engine cannot.  OT_EXIT_OK, OT_EXIT_USAGE (a bad SPEC) or OT_EXIT_FAIL
 * (the engine refused), err set.
 */
struct ot_engine;
int tool_run_engine(const struct ot_engine *e, const struct ot_fabric *f,
		    const char *spec, unsigned int max_vls,
		    struct ot_routing **r, struct ot_error *err);

#define TOOL_OPTION_SPREAD(type, m)                                        \
	{ "spread", 'X', "N",                                              \
	  "spread destinations over N groups of the engine's VLs (auto, off, N[:lid|switch|coord]; doc/spread.md)", \
	  TOOL_STRING(type, m) }

#define TOOL_OPTION_MAX_VLS(type, m)                                       \
	{ "max-vls", 'U', "N",                                             \
	  "at most N VLs, as the plugin fits an engine to OpenSM (hdor with QoS off: 1): one that can degrade routes again within N", \
	  TOOL_UINT(type, m, 1, 15) }

/* "  NAME   what it needs" per engine osmtopo has. */
void tool_print_engines(FILE *out);

/*
 * For a message about an engine name that is not one: "did you mean
 * NEAREST? engines: A, B, ..." (the nearest name only when it is a few
 * keys away), osmtopo's engines, and OpenSM's own first when opensm.
 */
void tool_engine_hint(const char *name, bool opensm, char *buf, size_t len);

/*
 * Offered loads, as simulate's --loads and compare's --sim-loads take
 * them: A:B:S (A, A + S, ... up to B) or A,B,..., each in (0, 1]; at most
 * max of them into load[], their number into *n.  0, or -1 with err set.
 */
int tool_parse_loads(const char *arg, double *load, unsigned int max,
		     unsigned int *n, struct ot_error *err);

#endif
