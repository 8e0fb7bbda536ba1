// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Helpers shared by the osmtopo subcommands (see util.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "io/lftfile.h"
#include "io/netfile.h"
#include "model/routing.h"
#include "route/engine.h"
#include "route/spread.h"
#include "util.h"

double tool_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int tool_write_output(const char *cmd, const char *path,
		      int (*write)(FILE *out, const void *what),
		      const void *what)
{
	FILE *out = path ? fopen(path, "w") : stdout;
	int bad;

	if (!out) {
		fprintf(stderr, "osmtopo %s: %s: %s\n", cmd, path,
			strerror(errno));
		return OT_EXIT_USAGE;
	}
	errno = 0;
	bad = write(out, what);
	if (out == stdout)
		bad |= fflush(out) || ferror(out);
	else
		bad |= fclose(out);
	if (bad) {
		fprintf(stderr, "osmtopo %s: write error: %s\n", cmd,
			errno ? strerror(errno) : "?");
		return OT_EXIT_USAGE;
	}
	return OT_EXIT_OK;
}

int tool_write_net(FILE *out, const void *net)
{
	const struct tool_net *n = net;

	return ot_netfile_write(out, n->f, n->comment);
}

void tool_print_engines(FILE *out)
{
	unsigned int i;

	for (i = 0; ot_engines[i]; i++)
		fprintf(out, "  %-21s %s\n", ot_engines[i]->name,
			ot_engines[i]->needs);
}

/* OpenSM 3.3.23's own engines (osm_ucast_mgr.c's routing_modules). */
static const char *const opensm_engines[] = {
	"minhop", "updn", "dnup", "file", "ftree", "lash",
	"dor",    "torus-2QoS", "dfsssp", "sssp", "nue", NULL,
};

/* Edit distance of a and b, case-insensitive; at most 64 characters. */
static unsigned int edit_distance(const char *a, const char *b)
{
	unsigned int row[65], i, j, prev, cur;
	size_t la = strlen(a), lb = strlen(b);

	if (la > 64 || lb > 64)
		return 1000;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			cur = row[j];
			row[j] = prev + (tolower((unsigned char)a[i - 1]) !=
					 tolower((unsigned char)b[j - 1]));
			if (cur + 1 < row[j])
				row[j] = cur + 1;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			prev = cur;
		}
	}
	return row[lb];
}

/* Appends name to buf (", " between names); tracks the nearest to want. */
static void hint_add(char *buf, size_t len, const char *name,
		     const char *want, const char **best, unsigned int *dist)
{
	size_t used = strlen(buf);
	unsigned int d = edit_distance(want, name);

	snprintf(buf + used, len - used, "%s%s", used ? ", " : "", name);
	if (d < *dist) {
		*dist = d;
		*best = name;
	}
}

void tool_engine_hint(const char *name, bool opensm, char *buf, size_t len)
{
	char list[1024] = "";
	const char *best = NULL;
	unsigned int i, dist = 1000;

	for (i = 0; opensm && opensm_engines[i]; i++)
		hint_add(list, sizeof(list), opensm_engines[i], name, &best,
			 &dist);
	for (i = 0; ot_engines[i]; i++)
		hint_add(list, sizeof(list), ot_engines[i]->name, name, &best,
			 &dist);
	/* A near name: a slip of a few keys, not another word. */
	if (best && dist <= 2 + strlen(name) / 4 && dist < strlen(name))
		snprintf(buf, len, "did you mean %s? engines: %s", best, list);
	else
		snprintf(buf, len, "engines: %s", list);
}

int tool_load_lft_files(const char *netfile, const char *lftfile,
			struct ot_fabric **f, struct ot_routing **r,
			struct ot_error *err)
{
	FILE *in = NULL;
	int error = -1;

	*f = ot_netfile_load(netfile, err);
	if (!*f)
		goto out;
	*r = ot_routing_new(*f);
	if (!*r) {
		ot_error_nomem(err, "check");
		goto out;
	}
	if (!strcmp(lftfile, "-")) {
		if (!strcmp(netfile, "-")) {
			ot_error_set(err, "only one of the files can be '-'");
			goto out;
		}
		in = stdin;
	} else {
		in = fopen(lftfile, "r");
		if (!in) {
			ot_error_set(err, "%s: %s", lftfile, strerror(errno));
			goto out;
		}
	}
	if (ot_lft_read(in, lftfile, *r, err))
		goto out;
	error = 0;
out:
	if (in && in != stdin)
		fclose(in);
	return error;
}

int tool_spread(const char *spec, struct ot_routing *r, struct ot_error *err)
{
	struct ot_spread_opts o;
	unsigned int groups;
	char note[256];

	if (!spec)
		return 0;
	if (ot_spread_parse(spec, &o, err) ||
	    ot_spread_apply(r, &o, OT_SPREAD_DATA_VLS, 0, &groups, note,
			    sizeof(note), err))
		return -1;
	if (note[0])
		fprintf(stderr, "osmtopo: spread: %s\n", note);
	return 0;
}

int tool_run_engine(const struct ot_engine *e, const struct ot_fabric *f,
		    const char *spec, unsigned int max_vls,
		    struct ot_routing **r, struct ot_error *err)
{
	struct ot_engine_budget fit = { .max_vls = max_vls,
					.max_sls = OT_NUM_SLS,
					.why = "--max-vls" };
	struct ot_error ignored = { 0 };
	struct ot_engine_budget b;
	struct ot_spread_opts o;
	char why[64];

	if (spec && ot_spread_parse(spec, &o, err))
		return OT_EXIT_USAGE;
	if (!spec || !e->route_budget ||
	    !ot_spread_budget(&o, OT_SPREAD_DATA_VLS, 0, &b, why,
			      sizeof(why)) ||
	    ot_engine_run_budget(e, f, &b, r, &ignored)) {
		if (ot_engine_run(e, f, r, err))
			return OT_EXIT_FAIL;
	}
	if (max_vls && ot_engine_fit_vls(e, f, &fit, r)) {
		ot_error_set(err, "%s routes this fabric on %u VLs and cannot do with --max-vls %u",
			     e->name, (*r)->nvls, max_vls);
		ot_routing_free(*r);
		*r = NULL;
		return OT_EXIT_FAIL;
	}
	if (tool_spread(spec, *r, err)) {
		ot_routing_free(*r);
		*r = NULL;
		return OT_EXIT_USAGE;
	}
	return OT_EXIT_OK;
}

int tool_route_netfile(const char *engine, const char *netfile, int lmc,
		       const char *spread, unsigned int max_vls,
		       struct ot_fabric **f, struct ot_routing **r,
		       struct ot_error *err)
{
	const struct ot_engine *e = ot_engine_find(engine);

	if (!e) {
		char hint[1024];

		tool_engine_hint(engine, false, hint, sizeof(hint));
		ot_error_set(err, "no engine '%s' (%s)", engine, hint);
		return OT_EXIT_USAGE;
	}
	*f = ot_netfile_load(netfile, err);
	if (!*f)
		return OT_EXIT_USAGE;
	if (lmc >= 0 && ot_fabric_set_ca_lmc(*f, (uint8_t)lmc, err))
		return OT_EXIT_USAGE;
	return tool_run_engine(e, *f, spread, max_vls, r, err);
}

int tool_parse_loads(const char *arg, double *load, unsigned int max,
		     unsigned int *n, struct ot_error *err)
{
	double lo, hi, step, x;
	char *end;

	*n = 0;
	if (sscanf(arg, "%lf:%lf:%lf", &lo, &hi, &step) == 3) {
		if (!(lo > 0 && hi <= 1 && lo <= hi && step > 0))
			return ot_error_set(err, "A:B:S with 0 < A <= B <= 1, S > 0");
		for (x = lo; x <= hi + 1e-9 && *n < max; x += step)
			load[(*n)++] = x > 1 ? 1 : x;
		return 0;
	}
	while (*arg && *n < max) {
		errno = 0;
		x = strtod(arg, &end);
		if (errno || end == arg || !(x > 0 && x <= 1) ||
		    (*end && *end != ','))
			return ot_error_set(err, "loads in (0, 1]: A:B:S or A,B,...");
		load[(*n)++] = x;
		arg = *end ? end + 1 : end;
	}
	return *n ? 0 : ot_error_set(err, "loads in (0, 1]: A:B:S or A,B,...");
}
