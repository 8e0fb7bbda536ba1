// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * `osmtopo compare NETFILE ENGINE...`: the whole flow, once per engine, on
 * a simulated fabric, ending in one table.  For each engine it starts
 * ibsim on NETFILE, then stock OpenSM with QoS on, only that engine in
 * routing_engine (with no_fallback, unless --fallback) and osmtopo's
 * plugin loaded (so osmtopo's engines are there too), waits for SUBNET UP,
 * reads from OpenSM's log whether the engine routed and how long it took
 * (osmlog.c), and runs `osmtopo check --live --json` against the
 * programmed fabric while OpenSM still answers PathRecord queries, reading
 * its report with jansson.  With no_fallback a failed engine never brings
 * the subnet up (OpenSM re-sweeps for ever), so the failure is read from
 * the log and OpenSM stopped; with --fallback minhop routes instead, and
 * the row says so.
 * Each run has its own work directory and simulation (sim.c), so several
 * comparisons (and tests) can run side by side; every process started is
 * stopped by its PID, also when compare itself is interrupted.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "check/json.h"
#include "commands.h"
#include "io/netfile.h"
#include "options.h"
#include "sim.h"
#include "sim/plot.h"
#include "traffic/pattern.h"
#include "util.h"

#define CMP_MAX_PATTERNS 16
#define CMP_MAX_LOADS 100 /* simulate's MAX_LOADS */

/* One --osm-option: a line "key value" of OpenSM's config. */
struct cmp_osm_option {
	char engine[64]; /* only this engine's run; "" for every run */
	struct sim_osm_option line;
};

struct cmp_args {
	bool json, keep;
	bool fallback; /* leave OpenSM's fallback to minhop on */
	const char *plugin_dir;
	unsigned int timeout;
	char netfile[PATH_MAX];
	char **engines;
	int nengines;
	struct cmp_osm_option *osm_opts; /* room for argc of them */
	unsigned int nosm_opts;
	/* --simulate: `osmtopo simulate --live` after the checker */
	bool simulate;
	const char *sim_patterns; /* uniform and these */
	unsigned int sim_buffer, sim_warmup, sim_measure, sim_jobs;
	const char *sim_loads; /* simulate's --loads */
	const char *svg;       /* the curves of --sim-loads, per engine */
};

/*
 * --osm-option "[ENGINE:]KEY=VALUE" into the next of a->osm_opts.  An
 * ENGINE prefix must name one of the engines compared: it is checked
 * once they are known.
 */
static int add_osm_option(void *args, const char *arg, struct ot_error *err)
{
	struct cmp_args *a = args;
	struct cmp_osm_option *o = &a->osm_opts[a->nosm_opts];
	const char *eq = strchr(arg, '=');
	const char *colon = strchr(arg, ':');

	if (colon && eq && colon < eq) {
		if (colon == arg || (size_t)(colon - arg) >= sizeof(o->engine))
			return ot_error_set(err, "want [ENGINE:]KEY=VALUE");
		snprintf(o->engine, sizeof(o->engine), "%.*s",
			 (int)(colon - arg), arg);
		arg = colon + 1;
	}
	if (sim_parse_osm_option(arg, &o->line, err))
		return ot_error_set(err, "want [ENGINE:]KEY=VALUE");
	/* Each run's routing_engine is compare's to set. */
	if (!strcmp(o->line.key, "routing_engine"))
		return ot_error_set(err,
				    "routing_engine is set per run: name the engines as arguments");
	a->nosm_opts++;
	return 0;
}

#define ARGS struct cmp_args
static const struct tool_option cmp_options[] = {
	{ "json", 'j', NULL,
	  "print the rows as one JSON object (with each check report)",
	  TOOL_SET(ARGS, json) },
	{ "plugin-dir", 'd', "DIR", SIM_PLUGIN_DIR_HELP,
	  TOOL_STRING(ARGS, plugin_dir) },
	{ "timeout", 't', "S",
	  "seconds each step may take (default 120)",
	  TOOL_UINT(ARGS, timeout, 1, 86400) },
	{ "keep", 'k', NULL,
	  "keep the work directory (logs of ibsim, OpenSM, check)",
	  TOOL_SET(ARGS, keep) },
	{ "no-fallback", 'n', NULL,
	  "only the engine asked for: a failure is a \"no\" row (default)",
	  TOOL_CLEAR(ARGS, fallback) },
	{ "fallback", 'F', NULL,
	  "let OpenSM fall back to minhop and check what that routed",
	  TOOL_SET(ARGS, fallback) },
	{ "osm-option", 'o', "[ENG:]K=V",
	  "add the line \"K V\" to OpenSM's config (of ENG's run only);"
	  " repeatable",
	  TOOL_CALL(add_osm_option) },
	{ "simulate", 's', NULL,
	  "also simulate each engine's tables packet by packet (`osmtopo simulate --live`): saturation per pattern beside the analytic figure",
	  TOOL_SET(ARGS, simulate) },
	{ "sim-patterns", 'P', "LIST",
	  "with --simulate: the patterns simulated besides uniform (the checker's names)",
	  TOOL_STRING(ARGS, sim_patterns) },
	{ "sim-buffer", 'B', "BYTES",
	  "with --simulate: input buffer per port and VL (simulate's default 16384)",
	  TOOL_UINT(ARGS, sim_buffer, 64, 1u << 24) },
	{ "sim-warmup", 'W', "N",
	  "with --simulate: warm-up, packet times (simulate's default 1000)",
	  TOOL_UINT(ARGS, sim_warmup, 0, 10000000) },
	{ "sim-measure", 'M', "N",
	  "with --simulate: measurement window, packet times (simulate's default 2000)",
	  TOOL_UINT(ARGS, sim_measure, 1, 10000000) },
	{ "sim-jobs", 'J', "N",
	  "with --simulate: threads of each simulation (default: the CPUs)",
	  TOOL_UINT(ARGS, sim_jobs, 1, 1024) },
	{ "sim-loads", 'L', "A:B:S",
	  "with --simulate: also simulate these offered loads (simulate's --loads: A:B:S or A,B,...) for every pattern",
	  TOOL_STRING(ARGS, sim_loads) },
	{ "svg", 'G', "FILE",
	  "with --simulate --sim-loads: write accepted throughput and latency against offered load to FILE (SVG), a chart per pattern, a curve per engine",
	  TOOL_STRING(ARGS, svg) },
	TOOL_OPTION_HELP,
};
#undef ARGS

enum cmp_status {
	CMP_ROUTED,   /* the engine asked for routed the fabric */
	CMP_FALLBACK, /* another engine did */
	CMP_FAILED,   /* no engine did (with no_fallback: the engine failed) */
	CMP_TIMEOUT,  /* no SUBNET UP in time */
	CMP_ERROR,    /* ibsim, OpenSM or the checker would not run */
};

static const char *const cmp_status_name[] = {
	[CMP_ROUTED] = "routed",     [CMP_FALLBACK] = "fallback",
	[CMP_FAILED] = "failed",     [CMP_TIMEOUT] = "timeout",
	[CMP_ERROR] = "error",
};

struct cmp_pattern {
	char name[32];
	double throughput;
};

/* One pattern `osmtopo simulate` ran: its saturation point. */
struct cmp_sim_pattern {
	char name[32];
	double saturation, saturation_min;
	double analytic; /* simulate's own, < 0 if none */
	bool deadlock;   /* any run of the pattern (saturation, loads) */
	bool sat_deadlock; /* the saturation run */
	/* saturation packets not delivered: no route, a loop, VL 15, elsewhere */
	uint64_t dropped;
	struct ot_plot_point *pt; /* the points of --sim-loads */
	unsigned int npt;
};

struct cmp_row {
	const char *engine;
	enum cmp_status status;
	char used[64];  /* the engine OpenSM says routed, "" if none */
	char note[OSM_REASON_LEN]; /* why it failed or fell back, whole */
	double route_ms;
	bool have_time;
	bool checked;   /* the checker ran and its numbers below are set */
	bool check_ok;
	uint64_t pairs, unreachable, looping;
	unsigned int vls, credit_loops, max_hops;
	double avg_hops;
	struct cmp_pattern pat[CMP_MAX_PATTERNS];
	unsigned int npat;
	json_t *check; /* the checker's report, as it printed it */
	bool simulated; /* simulate ran and sim[] below is set */
	struct cmp_sim_pattern sim[CMP_MAX_PATTERNS];
	unsigned int nsim;
	json_t *simulate; /* simulate's report, as it printed it */
};

/* What every run shares. */
struct cmp_ctx {
	const struct cmp_args *a;
	char self[PATH_MAX]; /* this program, for the checker */
	char work[PATH_MAX]; /* the comparison's temporary directory */
};

/* ------------------------------------------------------------------ */
/* The checker's report                                               */
/* ------------------------------------------------------------------ */

static uint64_t json_u64(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	return json_is_number(v) ? (uint64_t)json_number_value(v) : 0;
}

/* "patterns": [{"name": "uniform", ..., "throughput": 0.5, ...}, ...] */
static void parse_patterns(struct cmp_row *row, json_t *patterns)
{
	json_t *p;
	size_t i;

	json_array_foreach(patterns, i, p) {
		const char *name = json_string_value(json_object_get(p, "name"));
		json_t *tp = json_object_get(p, "throughput");

		if (row->npat == CMP_MAX_PATTERNS)
			break;
		if (!name || !json_is_number(tp))
			continue;
		snprintf(row->pat[row->npat].name,
			 sizeof(row->pat[row->npat].name), "%s", name);
		row->pat[row->npat++].throughput = json_number_value(tp);
	}
}

/* The report `check --json` printed (kept by the row). */
static void parse_check(struct cmp_row *row, const char *text)
{
	json_t *root, *vls;
	json_error_t jerr;

	root = json_loads(text, 0, &jerr);
	if (!json_is_object(root)) {
		json_decref(root);
		return;
	}
	row->check = root;
	row->checked = true;
	row->check_ok = json_is_true(json_object_get(root, "ok"));
	row->pairs = json_u64(root, "pairs");
	row->unreachable = json_u64(root, "unreachable");
	row->looping = json_u64(root, "forwarding_loops");
	row->credit_loops = (unsigned int)json_u64(root, "credit_loops");
	row->avg_hops = json_number_value(json_object_get(root, "avg_hops"));
	row->max_hops = (unsigned int)json_u64(root, "max_hops");
	vls = json_object_get(root, "vls_used");
	row->vls = json_is_array(vls) ? (unsigned int)json_array_size(vls) : 0;
	parse_patterns(row, json_object_get(root, "patterns"));
}

/* A whole file, trailing blanks dropped.  0, or -1. */
static int read_text(const char *path, char **out)
{
	FILE *f = fopen(path, "r");
	size_t cap = 4096, len = 0;
	char *buf = NULL, *nb;

	*out = NULL;
	if (!f)
		return -1;
	for (;;) {
		nb = realloc(buf, cap);
		if (!nb) {
			free(buf);
			fclose(f);
			return -1;
		}
		buf = nb;
		len += fread(buf + len, 1, cap - len - 1, f);
		if (len < cap - 1)
			break;
		cap *= 2;
	}
	fclose(f);
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		len--;
	buf[len] = '\0';
	*out = buf;
	return 0;
}

/* ------------------------------------------------------------------ */
/* One engine                                                         */
/* ------------------------------------------------------------------ */

/*
 * OpenSM's config for the engine's run: the log at VERBOSE (for the
 * "building routing" line), QoS so that SL2VL is programmed, no periodic
 * sweep to change anything while the checker reads, the engine alone
 * unless --fallback; then --osm-option lines for every run or this one
 * (last, so that OpenSM, taking a key's last value, takes them).  The
 * number of lines.
 */
static unsigned int cmp_conf(const struct cmp_args *a, const char *engine,
			     struct sim_osm_option *opts)
{
	static const char *const fixed[][2] = {
		{ "log_flags", "0x07" },
		{ "qos", "TRUE" },
		{ "sweep_interval", "0" },
	};
	unsigned int n, i;

	for (n = 0; n < sizeof(fixed) / sizeof(fixed[0]); n++) {
		snprintf(opts[n].key, sizeof(opts[n].key), "%s", fixed[n][0]);
		snprintf(opts[n].value, sizeof(opts[n].value), "%s",
			 fixed[n][1]);
	}
	snprintf(opts[n].key, sizeof(opts[n].key), "routing_engine");
	snprintf(opts[n].value, sizeof(opts[n].value), "%s%s", engine,
		 a->fallback ? "" : ",no_fallback");
	n++;
	for (i = 0; i < a->nosm_opts; i++)
		if (!a->osm_opts[i].engine[0] ||
		    !strcmp(a->osm_opts[i].engine, engine))
			opts[n++] = a->osm_opts[i].line;
	return n;
}

/* The row from what OpenSM's log said once the wait for it ended. */
static void cmp_routing_outcome(const struct cmp_args *a,
				struct osm_watch *w, enum sim_osm_state st,
				struct cmp_row *row)
{
	snprintf(row->used, sizeof(row->used), "%s", w->used);
	row->route_ms = w->route_ms;
	row->have_time = w->have_time;
	snprintf(row->note, sizeof(row->note), "%s", w->reason);
	if (w->failed || !w->done) {
		row->status = w->failed ? CMP_FAILED : CMP_TIMEOUT;
		if (!row->note[0])
			snprintf(row->note, sizeof(row->note),
				 w->failed ? "no engine routed the fabric" :
					     "no SUBNET UP within %u s",
				 a->timeout);
	} else if (st != SIM_OSM_UP) {
		row->status = CMP_TIMEOUT;
		snprintf(row->note, sizeof(row->note),
			 "tables configured, but no SUBNET UP within %u s",
			 a->timeout);
	} else if (!strcmp(row->used, row->engine)) {
		row->status = CMP_ROUTED;
		row->note[0] = '\0';
	} else {
		row->status = CMP_FALLBACK;
		osm_watch_reason(w);
		snprintf(row->note, sizeof(row->note), "%s",
			 w->reason[0] ? w->reason :
			 w->requested_built ? "the engine failed" :
					      "OpenSM does not know the engine");
	}
}

/* OpenSM with the engine, until the subnet is up.  0 when it is. */
static int cmp_opensm(const struct cmp_args *a, struct sim *s,
		      struct cmp_row *row)
{
	struct sim_osm_option *opts = calloc(a->nosm_opts + 4, sizeof(*opts));
	struct sim_opensm o = { .options = opts };
	struct ot_error err = { 0 };
	char log[PATH_MAX + 16];
	struct osm_watch w;
	enum sim_osm_state st;
	int status = 0;

	if (!opts) {
		row->status = CMP_ERROR;
		snprintf(row->note, sizeof(row->note), "out of memory");
		return -1;
	}
	o.noptions = cmp_conf(a, row->engine, opts);
	if (sim_start_opensm(s, &o, &err)) {
		free(opts);
		row->status = CMP_ERROR;
		snprintf(row->note, sizeof(row->note), "%.250s", err.msg);
		return -1;
	}
	free(opts);
	snprintf(log, sizeof(log), "%s/opensm.log", s->dir);
	osm_watch_init(&w, log, row->engine, !a->fallback);
	st = sim_wait_opensm(s, &w, false, a->timeout, &status);
	osm_watch_close(&w);
	if (st == SIM_OSM_EXITED) {
		row->status = CMP_ERROR;
		snprintf(log, sizeof(log), "%s/opensm.out", s->dir);
		sim_last_line(log, row->note, sizeof(row->note));
		return -1;
	}
	if (st == SIM_OSM_INTERRUPTED)
		return -1;
	cmp_routing_outcome(a, &w, st, row);
	return row->status == CMP_ROUTED || row->status == CMP_FALLBACK ? 0 :
									    -1;
}

/* The row's note, or after it when it has one already. */
static void cmp_note(struct cmp_row *row, const char *name, const char *why)
{
	size_t len = strlen(row->note);

	snprintf(row->note + len, sizeof(row->note) - len, "%s%s failed: %s",
		 len ? "; " : "", name, why);
}

/*
 * `osmtopo ARGV...` against the simulation (a client of ibsim and of
 * OpenSM's SA), its standard output into NAME.json in the run's
 * directory and read back whole into *text; an exit status above
 * max_status, a timeout or a signal is a note "NAME failed: WHY" in the
 * row.  0, or -1.
 */
static int cmp_client(const struct cmp_ctx *c, const struct sim *s,
		      const char *const *argv, const char *name,
		      int max_status, struct cmp_row *row, char **text)
{
	char out[PATH_MAX + 16], errpath[PATH_MAX + 16], why[200];
	pid_t pid;
	int st = 0;

	*text = NULL;
	snprintf(out, sizeof(out), "%s/%s.json", s->dir, name);
	snprintf(errpath, sizeof(errpath), "%s/%s.err", s->dir, name);
	pid = sim_spawn_client(s, argv, out, errpath);
	if (pid < 0) {
		cmp_note(row, name, "cannot start it");
		return -1;
	}
	if (sim_wait(&pid, c->a->timeout, &st)) {
		struct sim_proc p = { pid, 0 }; /* still running if we got a
						 * signal: stop it first */

		sim_stop_proc(&p, SIM_STOP_GRACE);
		cmp_note(row, name,
			 sim_interrupted() ? "interrupted" : "timeout");
		return -1;
	}
	sim_last_line(errpath, why, sizeof(why));
	if (!WIFEXITED(st) || WEXITSTATUS(st) > max_status ||
	    read_text(out, text) || !(*text)[0]) {
		free(*text);
		*text = NULL;
		cmp_note(row, name, why);
		return -1;
	}
	return 0;
}

/* `osmtopo check --live --json` against the simulation, into the row. */
static void cmp_check(const struct cmp_ctx *c, const struct sim *s,
		      struct cmp_row *row)
{
	const char *argv[] = { c->self, "check", "--live", "--json", NULL };
	char *json = NULL;

	if (cmp_client(c, s, argv, "check", OT_EXIT_FAIL, row, &json))
		return;
	parse_check(row, json);
	free(json);
	if (!row->checked)
		cmp_note(row, "check", "no report");
}

/* A pattern's "points": [{"offered", "accepted", "latency_ns", ...}]. */
static void parse_points(struct cmp_sim_pattern *x, json_t *pts)
{
	size_t i, n = json_array_size(pts);
	json_t *p;

	x->pt = n ? calloc(n, sizeof(*x->pt)) : NULL;
	if (!x->pt)
		return;
	json_array_foreach(pts, i, p) {
		json_t *lat = json_object_get(json_object_get(p, "latency_ns"),
					      "mean");

		x->pt[x->npt++] = (struct ot_plot_point){
			json_number_value(json_object_get(p, "offered")),
			json_number_value(json_object_get(p, "accepted")),
			json_number_value(lat),
			json_is_true(json_object_get(p, "deadlock"))
		};
	}
}

/*
 * "patterns": [{"name", "saturation", "saturation_min", "saturated":
 * {"deadlock"}, "points"}]
 */
static void parse_simulate(struct cmp_row *row, const char *text)
{
	json_error_t jerr;
	json_t *root, *p;
	size_t i;

	root = json_loads(text, 0, &jerr);
	if (!json_is_object(root)) {
		json_decref(root);
		return;
	}
	row->simulate = root;
	row->simulated = true;
	json_array_foreach(json_object_get(root, "patterns"), i, p) {
		const char *name = json_string_value(json_object_get(p, "name"));
		json_t *sat = json_object_get(p, "saturation");
		struct cmp_sim_pattern *x = &row->sim[row->nsim];

		if (row->nsim == CMP_MAX_PATTERNS)
			break;
		if (!name || !json_is_number(sat))
			continue;
		snprintf(x->name, sizeof(x->name), "%s", name);
		x->saturation = json_number_value(sat);
		x->saturation_min = json_number_value(
			json_object_get(p, "saturation_min"));
		x->deadlock = json_is_true(json_object_get(p, "deadlock"));
		x->sat_deadlock = json_is_true(json_object_get(
			json_object_get(p, "saturated"), "deadlock"));
		x->dropped = (uint64_t)json_integer_value(json_object_get(
				     json_object_get(p, "saturated"), "unrouted")) +
			     (uint64_t)json_integer_value(json_object_get(
				     json_object_get(p, "saturated"), "misdelivered"));
		parse_points(x, json_object_get(p, "points"));
		x->analytic = json_is_number(json_object_get(p, "analytic")) ?
			json_number_value(json_object_get(p, "analytic")) : -1;
		row->nsim++;
	}
}

/*
 * `osmtopo simulate --live --json` against the simulation: the
 * saturation point of uniform and of --sim-patterns, from the LFTs,
 * SL2VL, VLArb tables and path SLs OpenSM programmed.  Exit status 1 is
 * a deadlock, which the report says.
 */
static void cmp_simulate(const struct cmp_ctx *c, const struct sim *s,
			 struct cmp_row *row)
{
	const struct cmp_args *a = c->a;
	char pat[256], buf[32], warm[32], meas[32], jobs[32], loads[256];
	const char *argv[26];
	char *json = NULL;
	int n = 0;

	snprintf(pat, sizeof(pat), "uniform%s%s",
		 a->sim_patterns ? "," : "",
		 a->sim_patterns ? a->sim_patterns : "");
	argv[n++] = c->self;
	argv[n++] = "simulate";
	argv[n++] = "--live";
	argv[n++] = "--json";
	argv[n++] = "--patterns";
	argv[n++] = pat;
#define CMP_SIM_ARG(cond, opt, str, fmt, val)                   \
	do {                                                    \
		if (cond) {                                     \
			snprintf(str, sizeof(str), fmt, val);   \
			argv[n++] = opt;                        \
			argv[n++] = str;                        \
		}                                               \
	} while (0)
	CMP_SIM_ARG(a->sim_buffer, "--buffer", buf, "%u", a->sim_buffer);
	CMP_SIM_ARG(a->sim_warmup != UINT_MAX, "--warmup", warm, "%u",
		    a->sim_warmup);
	CMP_SIM_ARG(a->sim_measure, "--measure", meas, "%u", a->sim_measure);
	CMP_SIM_ARG(a->sim_jobs, "--jobs", jobs, "%u", a->sim_jobs);
	CMP_SIM_ARG(a->sim_loads, "--loads", loads, "%s", a->sim_loads);
#undef CMP_SIM_ARG
	argv[n] = NULL;
	if (cmp_client(c, s, argv, "simulate", OT_EXIT_FAIL, row, &json))
		return;
	parse_simulate(row, json);
	free(json);
	if (!row->simulated)
		cmp_note(row, "simulate", "no report");
}

/* The whole run of one engine, in its own directory and simulation. */
static void cmp_run_engine(const struct cmp_ctx *c, unsigned int idx,
			   struct cmp_row *row)
{
	struct ot_error err = { 0 };
	char dir[PATH_MAX + 96];
	struct sim s;

	snprintf(dir, sizeof(dir), "%s/%u-%.64s", c->work, idx, row->engine);
	if (sim_open(&s, dir, c->a->plugin_dir, &err) ||
	    sim_start_ibsim(&s, c->a->netfile, c->a->timeout, &err)) {
		row->status = CMP_ERROR;
		snprintf(row->note, sizeof(row->note), "%.250s", err.msg);
		return;
	}
	if (!cmp_opensm(c->a, &s, row)) {
		cmp_check(c, &s, row);
		if (c->a->simulate && !sim_interrupted())
			cmp_simulate(c, &s, row);
	}
	sim_stop(&s, SIM_STOP_GRACE);
}

/* ------------------------------------------------------------------ */
/* Output                                                             */
/* ------------------------------------------------------------------ */

/* What the checker said about one row, in the row's object o. */
static void row_check_json(json_t *o, const struct cmp_row *r)
{
	json_t *tp = json_object();
	unsigned int k;

	ot_json_set(o, "ok", json_boolean(r->check_ok));
	ot_json_set(o, "vls_used", json_integer(r->vls));
	ot_json_set(o, "credit_loops", json_integer(r->credit_loops));
	ot_json_set(o, "pairs", ot_json_u64(r->pairs));
	ot_json_set(o, "unreachable", ot_json_u64(r->unreachable));
	ot_json_set(o, "forwarding_loops", ot_json_u64(r->looping));
	ot_json_set(o, "avg_hops", ot_json_fixed(r->avg_hops, 3));
	ot_json_set(o, "max_hops", json_integer(r->max_hops));
	for (k = 0; k < r->npat; k++)
		ot_json_set(tp, r->pat[k].name,
			    ot_json_fixed(r->pat[k].throughput, 6));
	ot_json_set(o, "throughput", tp);
	ot_json_set(o, "check", json_incref(r->check));
}

/*
 * "simulated": {"uniform": {"saturation": S, "saturation_min": M,
 * "deadlock": B, "analytic": A}, ...} (A: simulate's own checker figure,
 * the same CA numbering and permutations) and simulate's whole report.
 */
static void row_simulate_json(json_t *o, const struct cmp_row *r)
{
	json_t *sim = json_object();
	unsigned int k;

	for (k = 0; k < r->nsim; k++) {
		const struct cmp_sim_pattern *x = &r->sim[k];
		json_t *p = json_object();

		ot_json_set(p, "saturation", ot_json_fixed(x->saturation, 6));
		ot_json_set(p, "saturation_min",
			    ot_json_fixed(x->saturation_min, 6));
		ot_json_set(p, "deadlock", json_boolean(x->deadlock));
		ot_json_set(p, "dropped", json_integer((json_int_t)x->dropped));
		if (x->analytic >= 0)
			ot_json_set(p, "analytic",
				    ot_json_fixed(x->analytic, 6));
		ot_json_set(sim, x->name, p);
	}
	ot_json_set(o, "simulated", sim);
	ot_json_set(o, "simulate", json_incref(r->simulate));
}

static json_t *row_json(const struct cmp_row *r)
{
	json_t *o = json_object();

	ot_json_set(o, "engine", ot_json_str(r->engine));
	ot_json_set(o, "status", ot_json_str(cmp_status_name[r->status]));
	ot_json_set(o, "routed", json_boolean(r->status == CMP_ROUTED));
	ot_json_set(o, "used", ot_json_str(r->used));
	if (r->have_time)
		ot_json_set(o, "routing_ms", ot_json_fixed(r->route_ms, 3));
	ot_json_set(o, "note", ot_json_str(r->note));
	if (r->checked)
		row_check_json(o, r);
	if (r->simulated)
		row_simulate_json(o, r);
	return o;
}

static int print_json(FILE *out, const struct cmp_args *a,
		      const struct cmp_row *rows)
{
	json_t *o = json_object(), *engines = json_array();
	int i;

	ot_json_set(o, "netfile", ot_json_str(a->netfile));
	ot_json_set(o, "fallback", json_boolean(a->fallback));
	for (i = 0; i < a->nengines; i++)
		json_array_append_new(engines, row_json(&rows[i]));
	ot_json_set(o, "engines", engines);
	return ot_json_print(out, o);
}

/* "yes", "no", "no (minhop did)", "no (timeout)". */
static void cmp_routed_text(const struct cmp_row *r, char *buf, size_t len)
{
	/* Why not: in the note lines below the table. */
	if (r->status == CMP_ROUTED)
		snprintf(buf, len, "yes");
	else if (r->status == CMP_FALLBACK)
		snprintf(buf, len, "no (%s did)", r->used);
	else if (r->status == CMP_FAILED)
		snprintf(buf, len, "no");
	else
		snprintf(buf, len, "no (%s)", cmp_status_name[r->status]);
}

/*
 * The pattern columns: the analytic figures of the checked row with the
 * most patterns, each followed by its simulated saturation ("sim") when
 * a row simulated it; then patterns only simulated ("NAME:sim").
 */
struct cmp_col {
	const char *name;
	bool sim;
	char head[40];
	int width;
};

#define CMP_MAX_COLS (2 * CMP_MAX_PATTERNS)

static const struct cmp_sim_pattern *row_sim(const struct cmp_row *r,
					     const char *name)
{
	unsigned int j;

	for (j = 0; r->simulated && j < r->nsim; j++)
		if (!strcmp(r->sim[j].name, name))
			return &r->sim[j];
	return NULL;
}

static const struct cmp_pattern *row_pat(const struct cmp_row *r,
					 const char *name)
{
	unsigned int j;

	for (j = 0; r->checked && j < r->npat; j++)
		if (!strcmp(r->pat[j].name, name))
			return &r->pat[j];
	return NULL;
}

static bool any_sim(const struct cmp_args *a, const struct cmp_row *rows,
		    const char *name)
{
	int i;

	for (i = 0; i < a->nengines; i++)
		if (row_sim(&rows[i], name))
			return true;
	return false;
}

static void add_col(struct cmp_col *cols, unsigned int *n, const char *name,
		    bool sim, bool beside)
{
	struct cmp_col *c = &cols[*n];
	unsigned int k;
	int len;

	for (k = 0; k < *n; k++)
		if (cols[k].sim == sim && !strcmp(cols[k].name, name))
			return;
	if (*n == CMP_MAX_COLS)
		return;
	c->name = name;
	c->sim = sim;
	snprintf(c->head, sizeof(c->head), "%s%s", beside ? "" : name,
		 !sim ? "" : beside ? "sim" : ":sim");
	len = (int)strlen(c->head);
	c->width = len > 9 ? len : 9;
	(*n)++;
}

static unsigned int cmp_columns(const struct cmp_args *a,
				const struct cmp_row *rows,
				struct cmp_col *cols)
{
	const struct cmp_row *first = NULL;
	unsigned int n = 0, k;
	int i;

	for (i = 0; i < a->nengines; i++)
		if (rows[i].checked && rows[i].npat > 0 &&
		    (!first || rows[i].npat > first->npat))
			first = &rows[i];
	for (k = 0; first && k < first->npat; k++) {
		add_col(cols, &n, first->pat[k].name, false, false);
		if (any_sim(a, rows, first->pat[k].name))
			add_col(cols, &n, first->pat[k].name, true, true);
	}
	for (i = 0; i < a->nengines; i++)
		for (k = 0; rows[i].simulated && k < rows[i].nsim; k++)
			add_col(cols, &n, rows[i].sim[k].name, true, false);
	return n;
}

/* Column widths: the longest engine name and "routed" text. */
struct cmp_widths {
	int engine, routed;
};

static void cmp_widths(const struct cmp_args *a, const struct cmp_row *rows,
		       struct cmp_widths *wd)
{
	char routed[96];
	int i, n;

	wd->engine = (int)strlen("engine");
	wd->routed = 18;
	for (i = 0; i < a->nengines; i++) {
		n = (int)strlen(rows[i].engine);
		wd->engine = n > wd->engine ? n : wd->engine;
		cmp_routed_text(&rows[i], routed, sizeof(routed));
		n = (int)strlen(routed);
		wd->routed = n > wd->routed ? n : wd->routed;
	}
}

/* One pattern cell: the analytic figure, or the simulated one. */
static void print_cell(FILE *out, const struct cmp_row *r,
		       const struct cmp_col *col)
{
	const struct cmp_sim_pattern *x;
	const struct cmp_pattern *p;

	if (!col->sim) {
		p = row_pat(r, col->name);
		if (p)
			fprintf(out, " %*.3f", col->width, p->throughput);
		else
			fprintf(out, " %*s", col->width, "-");
		return;
	}
	x = row_sim(r, col->name);
	if (!x)
		fprintf(out, " %*s", col->width, "-");
	else if (x->deadlock)
		fprintf(out, " %*s", col->width, "deadlock");
	else
		fprintf(out, " %*.3f", col->width, x->saturation);
}

static void print_row(FILE *out, const struct cmp_row *r,
		      const struct cmp_col *cols, unsigned int ncols,
		      const struct cmp_widths *wd)
{
	char routed[96], time[24];
	unsigned int k;

	cmp_routed_text(r, routed, sizeof(routed));
	if (r->have_time)
		snprintf(time, sizeof(time), "%.1f ms", r->route_ms);
	else
		snprintf(time, sizeof(time), "-");
	fprintf(out, "%-*s %-*s %9s", wd->engine, r->engine, wd->routed,
		routed, time);
	if (!r->checked)
		fprintf(out, " %3s %6s %7s %5s %4s", "-", "-", "-", "-", "-");
	else
		fprintf(out, " %3u %6u %7" PRIu64 " %5.2f %4u", r->vls,
			r->credit_loops, r->unreachable + r->looping,
			r->avg_hops, r->max_hops);
	for (k = 0; (r->checked || r->simulated) && k < ncols; k++)
		print_cell(out, r, &cols[k]);
	fputc('\n', out);
}

/*
 * "  ENGINE: REASON", the reason whole, wrapped at blanks to lines of at
 * most 78 characters, the next lines indented by 4.
 */
static void print_note(FILE *out, const char *engine, const char *note)
{
	const int width = 78;
	int col, n;

	col = fprintf(out, "  %s:", engine);
	while (*note) {
		note += strspn(note, " ");
		n = (int)strcspn(note, " ");
		if (!n)
			break;
		if (col > 4 && col + 1 + n > width) {
			fputs("\n   ", out);
			col = 3;
		}
		col += fprintf(out, " %.*s", n, note);
		note += n;
	}
	fputc('\n', out);
}

/*
 * A row whose tables did not carry every simulated packet: its "sim"
 * figures count delivered packets only, which a holed table must not
 * pass for a slow one.
 */
static void print_dropped(FILE *out, const struct cmp_row *r)
{
	char text[OSM_REASON_LEN];
	size_t n = 0;
	unsigned int k;

	for (k = 0; r->simulated && k < r->nsim && n < sizeof(text); k++)
		if (r->sim[k].dropped)
			n += (size_t)snprintf(text + n, sizeof(text) - n,
					      "%s%s %llu", n ? ", " : "",
					      r->sim[k].name,
					      (unsigned long long)r->sim[k].dropped);
	if (!n)
		return;
	if (n < sizeof(text))
		snprintf(text + n, sizeof(text) - n,
			 " packets of the saturation runs dropped or misdelivered (no route, a loop or VL 15): the sim figures count delivered packets only");
	print_note(out, r->engine, text);
}

/*
 * A row whose tables leave pairs unreachable or looping: its throughput
 * figures load the links with the reached pairs' traffic alone, which a
 * holed table must not pass for a balanced one.
 */
static void print_unreached(FILE *out, const struct cmp_row *r)
{
	char text[OSM_REASON_LEN];

	if (!r->checked || !(r->unreachable + r->looping))
		return;
	snprintf(text, sizeof(text),
		 "%llu of %llu CA pairs unreachable or looping: the throughput figures count the reached pairs' traffic only",
		 (unsigned long long)(r->unreachable + r->looping),
		 (unsigned long long)r->pairs);
	print_note(out, r->engine, text);
}

static void print_table(FILE *out, const struct cmp_args *a,
			const struct cmp_row *rows)
{
	struct cmp_col cols[CMP_MAX_COLS];
	unsigned int ncols = cmp_columns(a, rows, cols), k;
	struct cmp_widths wd;
	bool sim = false;
	int i;

	cmp_widths(a, rows, &wd);
	fprintf(out, "%-*s %-*s %9s %3s %6s %7s %5s %4s", wd.engine, "engine",
		wd.routed, "routed", "time", "VLs", "loops", "unreach", "hops",
		"max");
	for (k = 0; k < ncols; k++) {
		fprintf(out, " %*s", cols[k].width, cols[k].head);
		sim = sim || cols[k].sim;
	}
	fputc('\n', out);
	for (i = 0; i < a->nengines; i++)
		print_row(out, &rows[i], cols, ncols, &wd);
	for (i = 0; i < a->nengines; i++)
		if (rows[i].note[0])
			print_note(out, rows[i].engine, rows[i].note);
	for (i = 0; i < a->nengines; i++)
		print_unreached(out, &rows[i]);
	for (i = 0; i < a->nengines; i++)
		print_dropped(out, &rows[i]);
	if (ncols)
		fprintf(out,
			"(throughput per traffic pattern: 1 / the most loaded link, all CAs sending at once)\n");
	if (sim)
		fprintf(out,
			"(sim: simulated saturation, every CA backlogged, mean over CAs (osmtopo simulate --live);\n"
			" deadlock: a cycle of full buffers stood still)\n");
}

/*
 * --svg with no engine simulated: no picture (it would hold a title and
 * nothing else); stderr says why, engine by engine.
 */
static void cmp_svg_none(const struct cmp_args *a, const struct cmp_row *rows)
{
	unsigned int e;

	fprintf(stderr,
		"osmtopo compare: %s not written: no engine was simulated, so there is no curve to draw:\n",
		a->svg);
	for (e = 0; e < (unsigned int)a->nengines; e++)
		fprintf(stderr, "  %s: %s\n", rows[e].engine,
			rows[e].note[0] ? rows[e].note :
			!rows[e].simulated ? cmp_status_name[rows[e].status] :
					     "no pattern simulated");
}

/*
 * --svg: a chart per pattern simulated (in the order of the first row
 * that has it), a curve per engine over the loads of --sim-loads; an
 * engine without that pattern's points is a legend line saying why.
 * With no chart at all no file is written (cmp_svg_none()): -1.
 */
static int cmp_write_svg(const struct cmp_args *a, const struct cmp_row *rows)
{
	const char *names[CMP_MAX_PATTERNS];
	struct ot_plot_chart chart[CMP_MAX_PATTERNS];
	struct ot_plot_series *ser;
	unsigned int nch = 0, k, j, e, n = (unsigned int)a->nengines;
	char title[PATH_MAX + 64];
	FILE *out;
	int rc;

	for (e = 0; e < n; e++)
		for (k = 0; k < rows[e].nsim; k++) {
			for (j = 0; j < nch; j++)
				if (!strcmp(names[j], rows[e].sim[k].name))
					break;
			if (j == nch && nch < CMP_MAX_PATTERNS)
				names[nch++] = rows[e].sim[k].name;
		}
	if (!nch) {
		cmp_svg_none(a, rows);
		return -1;
	}
	ser = calloc((size_t)(nch ? nch : 1) * n, sizeof(*ser));
	if (!ser) {
		fprintf(stderr, "osmtopo compare: out of memory\n");
		return -1;
	}
	for (j = 0; j < nch; j++) {
		chart[j] = (struct ot_plot_chart){ names[j], &ser[j * n], n };
		for (e = 0; e < n; e++) {
			const struct cmp_sim_pattern *x = row_sim(&rows[e], names[j]);
			struct ot_plot_series *s = &ser[j * n + e];

			s->name = rows[e].engine;
			s->saturation = -1;
			s->note = rows[e].note[0] ? rows[e].note :
				  !rows[e].simulated ? cmp_status_name[rows[e].status] :
						       "pattern not simulated";
			if (!x)
				continue;
			s->pt = x->pt;
			s->npt = x->npt;
			s->saturation = x->saturation;
			s->saturation_deadlock = x->sat_deadlock;
		}
	}
	snprintf(title, sizeof(title), "osmtopo compare --simulate %s",
		 a->netfile);
	out = fopen(a->svg, "w");
	if (!out) {
		fprintf(stderr, "osmtopo compare: %s: %s\n", a->svg,
			strerror(errno));
		free(ser);
		return -1;
	}
	rc = ot_plot_svg(out, title, chart, nch);
	if (fclose(out) || rc) {
		fprintf(stderr, "osmtopo compare: writing %s failed\n", a->svg);
		rc = -1;
	}
	free(ser);
	return rc;
}

/* ------------------------------------------------------------------ */
/* The command                                                        */
/* ------------------------------------------------------------------ */

static void cmp_usage(FILE *out, const struct tool_command *c)
{
	fprintf(out,
		"usage: osmtopo compare [OPTIONS] NETFILE ENGINE...\n\n"
		"Runs each ENGINE on the fabric of NETFILE under ibsim: stock OpenSM\n"
		"with QoS on, osmtopo's plugin loaded and only that engine\n"
		"(routing_engine ENGINE,no_fallback) routes it, then `osmtopo check\n"
		"--live` reads what the switches hold and asks the SA for the path\n"
		"SLs.  One row per engine: whether it routed (if not, OpenSM's or\n"
		"the engine's reason, and nothing is checked; with --fallback, which\n"
		"engine OpenSM fell back to, and that routing is checked), its\n"
		"routing time from OpenSM's log, VLs used, credit loops, unreachable\n"
		"or looping pairs, average and maximum hops, and throughput per\n"
		"traffic pattern.  ENGINE is any name OpenSM's routing_engine takes:\n"
		"minhop, updn, dnup, ftree, lash, dor, torus-2QoS, dfsssp, sssp, nue,\n"
		"and osmtopo's engines.\n\n"
		"With --simulate, `osmtopo simulate --live` then simulates what the\n"
		"switches hold, packet by packet (LFTs, SL2VL, VLArb, path SLs; model:\n"
		"doc/simulate.md): for uniform traffic and each --sim-patterns\n"
		"pattern, the saturation throughput (every CA backlogged) in a column\n"
		"\"sim\" beside the analytic one, or \"deadlock\" when a cycle of full\n"
		"buffers stood still; with --json each row's \"simulated\" object and\n"
		"simulate's whole report.  --sim-loads A:B:S also simulates each\n"
		"pattern at those offered loads (the JSON's \"points\"), and --svg FILE\n"
		"draws them: a chart per pattern, accepted throughput and mean latency\n"
		"against offered load, a curve per engine (OpenSM's as well as\n"
		"osmtopo's); a load at which an engine deadlocked is a cross on the\n"
		"axis and a \"DEADLOCK at\" in its legend line, never a figure, and\n"
		"an engine that was not simulated is a legend line saying why; when\n"
		"none was, no file is written and stderr says why (exit status 2).\n\n"
		"--osm-option lines come after compare's own in OpenSM's config, so\n"
		"they win; a VALUE naming an existing file is given to OpenSM as an\n"
		"absolute path (OpenSM runs in a work directory).\n\n"
		"Needs ibsim, opensm and libumad2sim.so (set UMAD2SIM to its path\n"
		"if it is not %s).\n\noptions:\n",
		SIM_UMAD2SIM);
	tool_print_options(out, c);
	fprintf(out,
		"\nexamples:\n"
		"  osmtopo compare topologies/ulhpc-96.net minhop updn ftree dfsssp nue lash\n"
		"  osmtopo compare --json topologies/cellia-kns-6x2.net hdor minhop > rows.json\n"
		"  osmtopo compare -o root_guid_file=spines.guids topologies/ulhpc-96.net updn ftree\n"
		"  osmtopo compare --fallback -o ftree:root_guid_file=spines.guids NETFILE ftree hdor\n"
		"  osmtopo compare --simulate --sim-patterns random topologies/cellia-kns-6x2.net minhop dfsssp hdor\n"
		"  osmtopo compare --simulate --sim-loads 0.1:1.0:0.1 --svg cellia.svg topologies/cellia-kns-6x2.net minhop dfsssp hdor\n"
		"\nOn SIGINT, SIGTERM or SIGHUP it stops every process it started\n"
		"(the checker, OpenSM, ibsim), removes its work directory unless\n"
		"--keep, and dies of the signal.\n"
		"\nexit status: 0 the table was printed (whatever the engines did),\n"
		"2 usage error or the fabric could not be simulated.\n");
}

TOOL_COMMAND(cmp_command, "compare", cmp_options, cmp_usage);

/* Engine names, and --osm-option prefixes naming one of them. */
static int cmp_check_engines(const struct cmp_args *a)
{
	unsigned int o;
	int c;

	for (c = 0; c < a->nengines; c++)
		if (!a->engines[c][0] || strpbrk(a->engines[c], " \t\n,/")) {
			fprintf(stderr, "osmtopo compare: bad engine name '%s'\n",
				a->engines[c]);
			return OT_EXIT_USAGE;
		}
	/* A misspelt prefix would silently apply to no run. */
	for (o = 0; o < a->nosm_opts; o++) {
		const char *e = a->osm_opts[o].engine;

		if (!e[0])
			continue;
		for (c = 0; c < a->nengines; c++)
			if (!strcmp(a->engines[c], e))
				break;
		if (c == a->nengines) {
			fprintf(stderr,
				"osmtopo compare: --osm-option for %s, which is not compared\n",
				e);
			return OT_EXIT_USAGE;
		}
	}
	return OT_EXIT_OK;
}

/* The --sim-* options go with --simulate; --sim-patterns are names. */
static int cmp_check_sim(const struct cmp_args *a)
{
	struct ot_error err = { 0 };
	uint32_t mask;

	double load[CMP_MAX_LOADS];
	unsigned int nloads;

	if (!a->simulate &&
	    (a->sim_patterns || a->sim_buffer || a->sim_warmup != UINT_MAX ||
	     a->sim_measure || a->sim_jobs || a->sim_loads || a->svg)) {
		fprintf(stderr, "osmtopo compare: --sim-* options and --svg go with --simulate\n");
		return OT_EXIT_USAGE;
	}
	if (a->svg && !a->sim_loads) {
		fprintf(stderr, "osmtopo compare: --svg draws the points of --sim-loads\n");
		return OT_EXIT_USAGE;
	}
	if (a->sim_loads &&
	    (strlen(a->sim_loads) > 200 ||
	     tool_parse_loads(a->sim_loads, load, CMP_MAX_LOADS, &nloads,
			      &err))) {
		fprintf(stderr, "osmtopo compare: --sim-loads: %s\n",
			err.msg[0] ? err.msg : "too long");
		return OT_EXIT_USAGE;
	}
	if (a->sim_patterns &&
	    (strpbrk(a->sim_patterns, " \t") ||
	     ot_pattern_parse_list(a->sim_patterns, &mask, NULL, &err))) {
		fprintf(stderr, "osmtopo compare: --sim-patterns: %s\n",
			err.msg[0] ? err.msg : "a list of pattern names");
		return OT_EXIT_USAGE;
	}
	return OT_EXIT_OK;
}

/* -1 when a is filled, otherwise the status to exit with. */
static int cmp_parse(int argc, char **argv, struct cmp_args *a)
{
	struct ot_error err = { 0 };
	struct ot_fabric *f;
	int status, next;

	status = tool_parse(&cmp_command, argc, argv, a, &next, NULL);
	if (status >= 0)
		return status;
	if (argc - next < 2) {
		cmp_usage(stderr, &cmp_command);
		return OT_EXIT_USAGE;
	}
	/* ibsim runs in another directory: the path must not be relative. */
	if (!realpath(argv[next], a->netfile)) {
		fprintf(stderr, "osmtopo compare: %s: %s\n", argv[next],
			strerror(errno));
		return OT_EXIT_USAGE;
	}
	a->engines = argv + next + 1;
	a->nengines = argc - next - 1;
	if (cmp_check_engines(a) || cmp_check_sim(a))
		return OT_EXIT_USAGE;
	/* A fabric ibsim would choke on is a usage error, said here. */
	f = ot_netfile_load(a->netfile, &err);
	if (!f) {
		fprintf(stderr, "osmtopo compare: %s\n", err.msg);
		return OT_EXIT_USAGE;
	}
	ot_fabric_free(f);
	return -1;
}

/* This program's path and the comparison's work directory.  0, or -1. */
static int cmp_setup(struct cmp_ctx *c)
{
	const char *tmpdir = getenv("TMPDIR");
	ssize_t n = readlink("/proc/self/exe", c->self, sizeof(c->self) - 1);

	if (n <= 0) {
		fprintf(stderr, "osmtopo compare: cannot find myself: %s\n",
			strerror(errno));
		return -1;
	}
	c->self[n] = '\0';
	snprintf(c->work, sizeof(c->work), "%s/osmtopo-compare.XXXXXX",
		 tmpdir && tmpdir[0] ? tmpdir : "/tmp");
	if (!mkdtemp(c->work)) {
		fprintf(stderr, "osmtopo compare: %s: %s\n", c->work,
			strerror(errno));
		return -1;
	}
	return 0;
}

/* Every engine's run, one after the other, unless a signal comes. */
static void cmp_run_all(const struct cmp_ctx *c, struct cmp_row *rows)
{
	const struct cmp_args *a = c->a;
	int i;

	for (i = 0; i < a->nengines && !sim_interrupted(); i++) {
		double t0 = tool_now();
		const char *how;

		rows[i].engine = a->engines[i];
		if (!a->json)
			fprintf(stderr, "osmtopo compare: %s ...", a->engines[i]);
		cmp_run_engine(c, (unsigned int)i, &rows[i]);
		how = sim_interrupted() ? "interrupted" :
					  cmp_status_name[rows[i].status];
		if (!a->json)
			fprintf(stderr, " %s (%.1f s)\n", how, tool_now() - t0);
	}
}

int cmd_compare(int argc, char **argv)
{
	struct cmp_args a = { .timeout = 120, .sim_warmup = UINT_MAX };
	struct cmp_ctx c = { .a = &a };
	struct cmp_row *rows = NULL;
	int status = OT_EXIT_USAGE, i;
	unsigned int k;

	/* Each --osm-option takes at least one argument. */
	a.osm_opts = calloc((size_t)argc, sizeof(*a.osm_opts));
	if (!a.osm_opts) {
		fprintf(stderr, "osmtopo compare: out of memory\n");
		return OT_EXIT_USAGE;
	}
	status = cmp_parse(argc, argv, &a);
	if (status >= 0)
		goto out;
	status = OT_EXIT_USAGE;
	rows = calloc((size_t)a.nengines, sizeof(*rows));
	if (!rows || cmp_setup(&c))
		goto out;
	sim_catch_signals();
	cmp_run_all(&c, rows);
	if (!sim_interrupted()) {
		if (a.json)
			print_json(stdout, &a, rows);
		else
			print_table(stdout, &a, rows);
		status = a.svg && cmp_write_svg(&a, rows) ? OT_EXIT_USAGE :
							   OT_EXIT_OK;
	}
	if (a.keep)
		fprintf(stderr, "osmtopo compare: logs kept in %s\n", c.work);
	else
		sim_remove_tree(c.work);
out:
	for (i = 0; rows && i < a.nengines; i++) {
		json_decref(rows[i].check);
		json_decref(rows[i].simulate);
		for (k = 0; k < rows[i].nsim; k++)
			free(rows[i].sim[k].pt);
	}
	free(rows);
	free(a.osm_opts);
	sim_die_of_signal();
	return status;
}
