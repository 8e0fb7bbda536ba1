// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * `osmtopo simulate`: the packet-level simulator (src/sim/sim.h) on the
 * tables `osmtopo check` reads (a net file and its LFTs, an engine's
 * routing offline, OpenSM's dump files, a live fabric), driven by the
 * checker's traffic patterns, with the checker's analytic throughput of
 * each pattern beside the simulated one.  Independent runs (a pattern's
 * saturation, each load of the sweep) go to threads, one simulator each.
 */
#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "check/qoscheck.h"
#include "check/traffic.h"
#include "commands.h"
#include "io/osmdump.h"
#include "io/pathslfile.h"
#include "live/live.h"
#include "model/routing.h"
#include "options.h"
#include "route/engine.h"
#include "route/qos/qos.h"
#include "sim/plot.h"
#include "sim/sim.h"
#include "traffic/pattern.h"
#include "util.h"

#define MAX_LOADS 100

struct simulate_args {
	const char *engine, *osmdump, *netfile, *lftfile;
	unsigned int lmc;
	bool lmc_given, live, live_opts_given;
	const char *spread; /* --spread */
	unsigned int max_vls; /* --max-vls; 0: none */
	struct ot_live_opts live_opts;
	unsigned int path_bound; /* --path-bound */
	uint64_t sl_sampled;     /* pairs whose path SL rests on a sample */
	/*
	 * A deadlock on sampled SLs was confirmed (confirm_cycles()): that
	 * many pairs had rested on the sample; confirm_asked pairs at the
	 * heads of blocked cycles were asked from the SA, and when that did
	 * not settle it, every pair's SL (confirm_every_pair); the runs
	 * repeated on the SA's SLs deadlocked or not.
	 */
	uint64_t confirm_sampled, confirm_asked;
	bool confirm_every_pair;
	bool confirmed;
	uint32_t patterns;
	unsigned int nrandom;
	unsigned int bisections; /* ebb:K */
	double ebb_analytic;     /* the checker's ebb; < 0: none */
	uint64_t seed;
	int ca_order;
	double hot_fraction;
	bool hot_given;
	unsigned int hot_ca;
	const char *pairs;
	const char *loads;
	double load[MAX_LOADS];
	unsigned int nloads;
	bool no_saturation, no_analytic, json;
	const char *svg;
	unsigned int jobs;
	int arrivals, lid;
	int vlarb_rule; /* --vl-arbitration: 0 the tables read, 1 round-robin */
	struct ot_sim_params p;
	unsigned int mtu, buffer, warmup, measure, window;
	const char *rate, *link_ns, *switch_ns;
	const char *qos;       /* --qos: the class table */
	unsigned int qos_sls;  /* --qos-layers */
	struct ot_qos_table qos_table;
	int8_t sl_class[OT_NUM_SLS];
};

static const char *const ca_orders[] = { "file", "guid", NULL };
static const char *const arrivals[] = { "bernoulli", "exponential", NULL };
static const char *const lid_choices[] = { "base", "hash", "rr", NULL };
static const char *const vlarb_rules[] = { "tables", "rr", NULL };

static int set_patterns(void *args, const char *arg, struct ot_error *err)
{
	struct simulate_args *a = args;

	if (!strcmp(arg, "none")) {
		a->patterns = 0;
		a->nrandom = UINT32_MAX; /* none given on purpose */
		return 0;
	}
	return ot_pattern_parse_list(arg, &a->patterns, &a->bisections, err);
}

static int set_hotspot(void *args, const char *arg, struct ot_error *err)
{
	struct simulate_args *a = args;
	char *end;

	errno = 0;
	a->hot_fraction = strtod(arg, &end);
	if (errno || *end || !(a->hot_fraction > 0 && a->hot_fraction <= 1))
		return ot_error_set(err, "a fraction in (0, 1]");
	a->hot_given = true;
	return 0;
}

/* --loads A:B:S or a comma-separated list, each in (0, 1]. */
static int set_loads(void *args, const char *arg, struct ot_error *err)
{
	struct simulate_args *a = args;

	return tool_parse_loads(arg, a->load, MAX_LOADS, &a->nloads, err);
}

#define ARGS struct simulate_args
static const struct tool_option simulate_options[] = {
	{ "route", 'r', "ENGINE",
	  "route NETFILE offline with ENGINE and simulate its tables",
	  TOOL_STRING(ARGS, engine) },
	{ "osm-dump", 'D', "DIR",
	  "simulate OpenSM's dump files in DIR (opensm -D 0x43 --dump_files_dir DIR)",
	  TOOL_STRING(ARGS, osmdump) },
	TOOL_OPTION_SPREAD(ARGS, spread),
	TOOL_OPTION_MAX_VLS(ARGS, max_vls),
	{ "lmc", 'm', "N",
	  "with --route: number LIDs as OpenSM does with option lmc N",
	  TOOL_UINT(ARGS, lmc, 0, 7), TOOL_GIVEN(ARGS, lmc_given) },
	{ "live", 'L', NULL,
	  "simulate the tables of the fabric this host is cabled to (LFTs, SL2VL, VLArb, path SLs)",
	  TOOL_SET(ARGS, live) },
	{ "Ca", 'C', "CA", "local CA for --live (default: the first)",
	  TOOL_STRING(ARGS, live_opts.ca), TOOL_GIVEN(ARGS, live_opts_given) },
	{ "Port", 'P', "PORT",
	  "local port for --live (default: the first active)",
	  TOOL_INT(ARGS, live_opts.port, 1, 254),
	  TOOL_GIVEN(ARGS, live_opts_given) },
	{ "all-paths", 'E', NULL,
	  "with --live: read every pair's path SL from the SA, however many",
	  TOOL_SET(ARGS, live_opts.all_paths),
	  TOOL_GIVEN(ARGS, live_opts_given) },
	{ "path-bound", 'B', "N",
	  "with --live: read path SLs whole up to N pairs, sample beyond (default 1200000; a deadlock on sampled SLs is confirmed on every SL)",
	  TOOL_UINT(ARGS, path_bound, 1, 4000000000u),
	  TOOL_GIVEN(ARGS, live_opts_given) },
	{ "patterns", 'p', "LIST",
	  "the checker's traffic patterns (default uniform; 'all'; 'ebb:K' K random bisections; 'none' with --hotspot or --pairs)",
	  TOOL_CALL(set_patterns) },
	{ "random", 'R', "N", "random permutations among the patterns (default 1)",
	  TOOL_UINT(ARGS, nrandom, 1, 100000) },
	{ "seed", 'S', "SEED",
	  "seed of the simulation and of the first random permutation (default 1)",
	  TOOL_SEED(ARGS, seed) },
	{ "ca-order", 'O', "ORDER",
	  "number the CAs for the patterns by 'file' order or 'guid'",
	  TOOL_CHOICE(ARGS, ca_order, ca_orders) },
	{ "hotspot", 'H', "F",
	  "also a hot-spot pattern: fraction F of every CA's packets to one CA, the rest uniform",
	  TOOL_CALL(set_hotspot) },
	{ "hot-ca", 'K', "N", "the hot CA's number in the pattern order (default 0)",
	  TOOL_UINT(ARGS, hot_ca, 0, 1u << 30) },
	{ "pairs", 'f', "FILE",
	  "also a pattern from FILE: lines 'SRC DST RATE' (CA numbers or node descriptions; RATE a fraction of SRC's load)",
	  TOOL_STRING(ARGS, pairs) },
	{ "loads", 'l', "A:B:S",
	  "offered loads to sweep, fractions of link rate (or A,B,...); default: saturation only",
	  TOOL_CALL(set_loads) },
	{ "no-saturation", 'N', NULL, "skip the saturation run of each pattern",
	  TOOL_SET(ARGS, no_saturation) },
	{ "no-analytic", 'A', NULL, "skip the checker's analytic throughput",
	  TOOL_SET(ARGS, no_analytic) },
	{ "mtu", 'u', "BYTES", "packet size (default 2048)",
	  TOOL_UINT(ARGS, mtu, 64, 4096) },
	{ "buffer", 'b', "BYTES",
	  "input buffer per port and VL (default 16384; at least one packet)",
	  TOOL_UINT(ARGS, buffer, 64, 1u << 24) },
	{ "rate", 'g', "GBPS", "data rate of every link (default 200)",
	  TOOL_STRING(ARGS, rate) },
	{ "link-latency", 'c', "NS", "cable latency (default 20)",
	  TOOL_STRING(ARGS, link_ns) },
	{ "switch-latency", 'w', "NS", "switch traversal (default 100)",
	  TOOL_STRING(ARGS, switch_ns) },
	{ "arrivals", 'a', "KIND",
	  "'bernoulli' (default) or 'exponential' packet arrivals",
	  TOOL_CHOICE(ARGS, arrivals, arrivals) },
	{ "lid", 'i', "RULE",
	  "LID of a destination with LMC: 'base' (default), 'hash' per flow, 'rr' per packet",
	  TOOL_CHOICE(ARGS, lid, lid_choices) },
	{ "vl-arbitration", 'V', "RULE",
	  "with --live: tables (each port's programmed VL arbitration, default) or rr (round-robin over the VLs, as offline)",
	  TOOL_CHOICE(ARGS, vlarb_rule, vlarb_rules) },
	{ "warmup", 'W', "N", "warm-up, packet times (default 1000)",
	  TOOL_UINT(ARGS, warmup, 0, 10000000) },
	{ "measure", 'M', "N", "measurement window, packet times (default 2000)",
	  TOOL_UINT(ARGS, measure, 1, 10000000) },
	{ "deadlock-window", 'd', "N",
	  "packet times a blocked cycle must stand still to be a deadlock (default 200)",
	  TOOL_UINT(ARGS, window, 1, 10000000) },
	{ "jobs", 'j', "N", "runs at once, one thread each (default: the CPUs)",
	  TOOL_UINT(ARGS, jobs, 1, 1024) },
	{ "qos", 'q', "FILE",
	  "figures per QoS class of this osmtopo class table (doc/qos.md): class c's layer s is SL c*S + s",
	  TOOL_STRING(ARGS, qos) },
	{ "qos-layers", 'y', "S",
	  "with --qos: the engine's SL layers per class (default: the fewest that hold the path SLs)",
	  TOOL_UINT(ARGS, qos_sls, 1, 15) },
	{ "json", 'J', NULL, "print the results as one JSON object",
	  TOOL_SET(ARGS, json) },
	{ "svg", 'G', "FILE",
	  "write throughput and latency against offered load to FILE (SVG)",
	  TOOL_STRING(ARGS, svg) },
	TOOL_OPTION_HELP,
};
#undef ARGS

static void simulate_usage(FILE *out, const struct tool_command *c)
{
	fprintf(out,
		"usage: osmtopo simulate [OPTIONS] NETFILE LFTFILE\n"
		"       osmtopo simulate [OPTIONS] --route ENGINE [--lmc N] NETFILE\n"
		"       osmtopo simulate [OPTIONS] --osm-dump DIR\n"
		"       osmtopo simulate [OPTIONS] --live [-C CA] [-P PORT]\n\n"
		"Simulates, packet by packet, the tables a fabric is programmed\n"
		"with: LFTs, SL2VL, path SLs and VL arbitration, with credit flow\n"
		"control per VL, one FIFO per input port and VL (head-of-line\n"
		"blocking), virtual cut-through and output arbitration (model and\n"
		"defaults: doc/simulate.md).  For each traffic pattern: the\n"
		"saturation throughput (every CA backlogged: seed 001's relative\n"
		"saturation bandwidth), beside the checker's analytic throughput\n"
		"(1 / the most loaded link), and for each offered load of --loads\n"
		"the accepted throughput (mean and least over the sending CAs, as\n"
		"a fraction of link rate) and latency (mean, 99th percentile).  A\n"
		"blocked cycle of buffers is reported as a deadlock with its\n"
		"channels.  The same seed gives the same result.\n\n"
		"options:\n");
	tool_print_options(out, c);
	fprintf(out,
		"\nexamples:\n"
		"  osmtopo simulate --route ff-dor --patterns all ff.net\n"
		"  osmtopo simulate --route hdor --loads 0.1:1.0:0.1 --svg kns.svg kns.net\n"
		"  osmtopo simulate --hotspot 0.2 --json fabric.net fabric.lfts\n"
		"  osmtopo simulate --live --qos osmtopo-qos.conf --patterns uniform  # per QoS class\n"
		"\nexit status: 0 no deadlock, 1 a deadlock (or the fabric refused),\n"
		"2 usage or I/O error.\n");
}

TOOL_COMMAND(simulate_command, "simulate", simulate_options, simulate_usage);

/* ------------------------------------------------------------------ */
/* Patterns and runs.                                                  */

struct pattern {
	char name[40];
	struct ot_sim_traffic t;
	uint32_t *partner;
	struct ot_sim_pair *pairs;
	double analytic; /* < 0: not computed */
	struct ot_sim_result sat;
	struct ot_sim_result *pt; /* nloads */
};

struct job {
	struct pattern *pat;
	double load; /* <= 0: saturation */
	struct ot_sim_result *out;
};

struct pool {
	const struct ot_routing *r;
	const struct ot_sim_params *p;
	struct job *job;
	unsigned int njobs, next, done;
	pthread_mutex_t lock;
	bool progress, failed;
	struct ot_error err;
};

static void *worker(void *arg)
{
	struct pool *pl = arg;
	struct ot_error err = { 0 };
	struct ot_sim *s = ot_sim_new(pl->r, pl->p, &err);
	unsigned int j;

	for (;;) {
		pthread_mutex_lock(&pl->lock);
		if (!s && !pl->failed) {
			pl->failed = true;
			pl->err = err;
		}
		j = pl->failed ? pl->njobs : pl->next++;
		pthread_mutex_unlock(&pl->lock);
		if (j >= pl->njobs)
			break;
		if (ot_sim_run(s, &pl->job[j].pat->t, pl->job[j].load,
			       pl->job[j].out, &err)) {
			pthread_mutex_lock(&pl->lock);
			pl->failed = true;
			pl->err = err;
			pthread_mutex_unlock(&pl->lock);
			break;
		}
		pthread_mutex_lock(&pl->lock);
		pl->done++;
		if (pl->progress)
			fprintf(stderr, "\rosmtopo simulate: %u/%u runs",
				pl->done, pl->njobs);
		pthread_mutex_unlock(&pl->lock);
	}
	ot_sim_free(s);
	return NULL;
}

static int run_jobs(struct pool *pl, unsigned int nthreads)
{
	pthread_t th[64];
	unsigned int i, started = 0;

	if (nthreads > 64)
		nthreads = 64;
	if (nthreads > pl->njobs)
		nthreads = pl->njobs ? pl->njobs : 1;
	pthread_mutex_init(&pl->lock, NULL);
	for (i = 1; i < nthreads; i++)
		if (!pthread_create(&th[started], NULL, worker, pl))
			started++;
	worker(pl);
	for (i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	pthread_mutex_destroy(&pl->lock);
	if (pl->progress)
		fprintf(stderr, "\n");
	return pl->failed ? -1 : 0;
}

/* CA number of a word: a number, or a CA's node description. */
static long ca_number(const struct ot_fabric *f, const struct ot_sim *s,
		      const char *w)
{
	uint32_t i, n = ot_sim_ncas(s);
	int32_t node;
	uint8_t port;
	char *end;
	long x;

	x = strtol(w, &end, 10);
	if (!*end && end != w)
		return x >= 0 && (uint32_t)x < n ? x : -1;
	for (i = 0; i < n; i++) {
		ot_sim_ca(s, i, &node, &port);
		if (f->node[node].desc && !strcmp(f->node[node].desc, w))
			return i;
	}
	return -1;
}

static int read_pairs(const char *path, const struct ot_fabric *f,
		      const struct ot_sim *s, struct pattern *pat,
		      struct ot_error *err)
{
	FILE *in = fopen(path, "r");
	char line[1024], a[256], b[256];
	unsigned int lineno = 0, cap = 0;
	double rate;
	long x, y;

	if (!in)
		return ot_error_set(err, "%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), in)) {
		struct ot_sim_pair *np;

		lineno++;
		if (line[strspn(line, " \t")] == '#' ||
		    line[strspn(line, " \t\r\n")] == 0)
			continue;
		if (sscanf(line, "%255s %255s %lf", a, b, &rate) != 3 ||
		    !(rate > 0 && rate <= 1) ||
		    (x = ca_number(f, s, a)) < 0 ||
		    (y = ca_number(f, s, b)) < 0 || x == y) {
			fclose(in);
			return ot_error_set(err,
					    "%s:%u: expected 'SRC DST RATE' (two different CAs, 0 < RATE <= 1)",
					    path, lineno);
		}
		if (pat->t.npairs == cap) {
			cap = cap ? cap * 2 : 64;
			np = realloc(pat->pairs, cap * sizeof(*np));
			if (!np) {
				fclose(in);
				return ot_error_nomem(err, "simulate");
			}
			pat->pairs = np;
		}
		pat->pairs[pat->t.npairs].src = (uint32_t)x;
		pat->pairs[pat->t.npairs].dst = (uint32_t)y;
		pat->pairs[pat->t.npairs].rate = rate;
		pat->t.npairs++;
	}
	fclose(in);
	pat->t.kind = OT_SIM_PAIRS;
	pat->t.pairs = pat->pairs;
	snprintf(pat->name, sizeof(pat->name), "pairs");
	return 0;
}

/* The patterns asked for; the analytic figure of the checker's. */
static int make_patterns(struct simulate_args *a,
			 const struct ot_fabric *f, const struct ot_routing *r,
			 struct pattern **out, unsigned int *npat,
			 struct ot_error *err)
{
	struct ot_traffic_opts o = { .patterns = a->patterns,
				     .nrandom = a->nrandom, .seed = a->seed,
				     .order = a->ca_order ? OT_CA_ORDER_GUID :
							    OT_CA_ORDER_FILE,
				     .bisections = a->bisections };
	struct ot_balance_report *rep = NULL;
	struct ot_sim *s;
	struct pattern *pat;
	uint32_t n, *perm;
	unsigned int i, np = 0, k, nrand = a->nrandom ? a->nrandom : 1;
	unsigned int nbis = a->bisections;

	s = ot_sim_new(r, &a->p, err);
	if (!s)
		return -1;
	n = ot_sim_ncas(s);
	pat = calloc(OT_PATTERN_COUNT + nrand + nbis + 2, sizeof(*pat));
	perm = calloc(n, sizeof(*perm));
	if (!pat || !perm)
		goto oom;
	if (a->patterns && !a->no_analytic &&
	    ot_balance_run(f, r, &o, &rep, err))
		goto fail;
	for (k = 0; k < OT_PATTERN_COUNT; k++) {
		unsigned int m = k == OT_PATTERN_RANDOM ? nrand :
				 k == OT_PATTERN_EBB ? nbis : 1, j;

		if (!(a->patterns & (1u << k)))
			continue;
		for (j = 0; j < m; j++) {
			struct pattern *x = &pat[np++];

			x->analytic = -1;
			if (k == OT_PATTERN_RANDOM || k == OT_PATTERN_EBB)
				snprintf(x->name, sizeof(x->name), "%s-%u",
					 ot_pattern_name(k), j + 1);
			else
				snprintf(x->name, sizeof(x->name), "%s",
					 ot_pattern_name(k));
			if (k == OT_PATTERN_UNIFORM) {
				x->t.kind = OT_SIM_UNIFORM;
				continue;
			}
			x->partner = calloc(n ? n : 1, sizeof(*x->partner));
			if (!x->partner)
				goto oom;
			/*
			 * the checker's j-th random permutation: seed + j;
			 * its j-th bisection
			 */
			ot_pattern_partners(k, n,
					    k == OT_PATTERN_EBB ?
						ot_pattern_bisection_seed(
							a->seed, j) :
						a->seed + j,
					    x->partner, perm);
			x->t.kind = OT_SIM_PERMUTATION;
			x->t.partner = x->partner;
		}
	}
	for (i = 0; rep && i < ot_balance_npatterns(rep); i++) {
		const struct ot_pattern_load *pl = ot_balance_pattern(rep, i);

		for (k = 0; k < np; k++)
			if (!strcmp(pat[k].name, pl->name))
				pat[k].analytic = pl->base.throughput;
		if (pl->kind == OT_PATTERN_EBB)
			a->ebb_analytic = pl->ebb;
	}
	if (a->hot_given) {
		struct pattern *x = &pat[np++];

		if (a->hot_ca >= n) {
			ot_error_set(err, "--hot-ca %u: there are %u CAs",
				     a->hot_ca, n);
			goto fail;
		}
		x->analytic = -1;
		snprintf(x->name, sizeof(x->name), "hotspot-%g", a->hot_fraction);
		x->t.kind = OT_SIM_HOTSPOT;
		x->t.hot_fraction = a->hot_fraction;
		x->t.hot = a->hot_ca;
	}
	if (a->pairs) {
		pat[np].analytic = -1;
		if (read_pairs(a->pairs, f, s, &pat[np++], err))
			goto fail;
	}
	ot_balance_report_free(rep);
	ot_sim_free(s);
	free(perm);
	*out = pat;
	*npat = np;
	return 0;
oom:
	ot_error_nomem(err, "simulate");
fail:
	ot_balance_report_free(rep);
	ot_sim_free(s);
	free(perm);
	*out = pat;
	*npat = np;
	return -1;
}

static void free_patterns(struct pattern *pat, unsigned int n)
{
	unsigned int i;

	for (i = 0; pat && i < n; i++) {
		free(pat[i].partner);
		free(pat[i].pairs);
		free(pat[i].pt);
	}
	free(pat);
}

/* ------------------------------------------------------------------ */
/* Output.                                                             */

/*
 * ebb simulated: the mean over the bisections of their saturation (each
 * the mean over the CAs, one flow each), their least CA, and whether any
 * deadlocked.  The number of bisections (0: no ebb).
 */
static unsigned int ebb_summary(const struct pattern *pat, unsigned int npat,
				double *mean, double *least, bool *deadlock)
{
	unsigned int i, n = 0;
	double sum = 0;

	*least = 1;
	*deadlock = false;
	for (i = 0; i < npat; i++) {
		if (strncmp(pat[i].name, "ebb-", 4))
			continue;
		sum += pat[i].sat.accepted;
		if (pat[i].sat.accepted_min < *least)
			*least = pat[i].sat.accepted_min;
		*deadlock = *deadlock || pat[i].sat.deadlock;
		n++;
	}
	*mean = n ? sum / n : 0;
	return n;
}

static void cycle_text(const struct ot_fabric *f, const struct ot_sim_result *x,
		       FILE *out)
{
	unsigned int i;

	for (i = 0; i < x->ncycle; i++) {
		const struct ot_sim_channel *c = &x->cycle[i];

		fprintf(out, "    \"%s\" port %u -> \"%s\" port %u, VL %u\n",
			f->node[c->from].desc ? f->node[c->from].desc : "?",
			c->from_port,
			f->node[c->to].desc ? f->node[c->to].desc : "?",
			c->to_port, c->vl);
	}
}

/*
 * --qos: each class's SLs (class c's layer s is SL c*S + s; SLs above
 * C*S as the plugin's SL2VL rewrite maps them, route/qos/layers.c).
 */
static int qos_classes(struct simulate_args *a, const struct ot_routing *r,
		       struct ot_error *err)
{
	struct ot_qos_layers l = { 0 };
	unsigned int sl, c, s;

	if (ot_qos_load(a->qos, &a->qos_table, err))
		return -1;
	l.classes = a->qos_table.nclasses;
	l.sls = a->qos_sls ? a->qos_sls : ot_qos_infer_sls(r, l.classes);
	l.vls = 1;
	a->qos_sls = l.sls;
	for (sl = 0; sl < OT_NUM_SLS; sl++)
		l.class_of_sl[sl] = (int8_t)ot_qos_class_of_sl(&a->qos_table, sl);
	for (sl = 0; sl < OT_NUM_SLS; sl++) {
		ot_qos_sl_layer(&l, sl, &c, &s);
		a->sl_class[sl] = (int8_t)c;
	}
	a->p.sl_class = a->sl_class;
	return 0;
}

/* "0,1" for the SLs of class c that carried packets in x. */
static void class_sls(const struct simulate_args *a,
		      const struct ot_sim_result *x, unsigned int c,
		      char *buf, size_t len)
{
	unsigned int sl;
	size_t n = 0;

	buf[0] = '\0';
	for (sl = 0; sl < OT_NUM_SLS && n < len; sl++)
		if (a->sl_class[sl] == (int8_t)c && (x->sl_mask & (1u << sl)))
			n += (size_t)snprintf(buf + n, len - n, "%s%u",
					      n ? "," : "", sl);
}

static void print_point(const struct simulate_args *a, const char *label,
			const struct ot_sim_result *x)
{
	unsigned int c;
	char sls[64];

	printf("  %-10s %8.3f %8.3f %8.3f %10.0f %10.0f %8.1f %8.1f%s\n",
	       label, x->offered, x->accepted, x->accepted_min,
	       x->lat_mean_ns, x->lat_p99_ns, x->lat_mean_pkt,
	       x->lat_p99_pkt, x->deadlock ? "  DEADLOCK" :
			       x->stalled ? "  stalled" : "");
	for (c = 0; a->qos && c < a->qos_table.nclasses; c++) {
		const struct ot_sim_sl *k = &x->cls[c];

		if (!(x->class_mask & (1u << c)))
			continue;
		class_sls(a, x, c, sls, sizeof(sls));
		printf("    class %-10s %8.3f %7.1f%% %10.0f %10.0f  SL %s\n",
		       a->qos_table.cls[c].name, k->accepted,
		       x->accepted > 0 ? 100 * k->accepted / x->accepted : 0,
		       k->lat_mean_ns, k->lat_p99_ns, sls);
	}
}

/* The label of load j of the sweep. */
static const char *label_of(const struct simulate_args *a, unsigned int j,
			    char *buf, size_t len)
{
	snprintf(buf, len, "%.3g", a->load[j]);
	return buf;
}

/*
 * Packets the tables did not carry to their destination: the figures
 * above count delivered packets only, so a table with holes must not
 * read as a table that is merely slow.
 */
static void print_dropped(const char *load, const struct ot_sim_result *x)
{
	if (!x->unrouted && !x->misdelivered)
		return;
	printf("  %s%s: %llu packets had no route (no port, a loop or VL 15) and were dropped, %llu reached another CA; the throughput counts delivered packets only\n",
	       load ? "at load " : "saturated", load ? load : "",
	       (unsigned long long)x->unrouted,
	       (unsigned long long)x->misdelivered);
}

static void print_text(const struct simulate_args *a,
		       const struct ot_fabric *f, const struct pattern *pat,
		       unsigned int npat, uint32_t ncas, unsigned int nvls,
		       double pkt_ns)
{
	unsigned int i, j, nbis;
	double mean, least;
	char label[32];
	bool dl;

	printf("%u CAs, %u VL(s), %u-byte packets (%.1f ns), buffer %u bytes per VL, seed %llu\n",
	       ncas, nvls, a->p.mtu, pkt_ns, a->p.buffer,
	       (unsigned long long)a->p.seed);
	printf("  %-10s %8s %8s %8s %10s %10s %8s %8s\n", "load", "offered",
	       "accepted", "min", "lat ns", "p99 ns", "lat pkt", "p99 pkt");
	if (a->qos)
		printf("    %-16s %8s %8s %10s %10s  (per QoS class of %s, %u SL layer%s a class)\n",
		       "class", "accepted", "share", "lat ns", "p99 ns", a->qos,
		       a->qos_sls, a->qos_sls == 1 ? "" : "s");
	for (i = 0; i < npat; i++) {
		const struct pattern *x = &pat[i];

		printf("%s", x->name);
		if (!a->no_saturation)
			printf(": saturation %.3f (least CA %.3f)",
			       x->sat.accepted, x->sat.accepted_min);
		if (x->analytic >= 0)
			printf(", analytic %.3f", x->analytic);
		printf("\n");
		if (!a->no_saturation)
			print_point(a, "saturated", &x->sat);
		for (j = 0; j < a->nloads; j++)
			print_point(a, label_of(a, j, label, sizeof(label)),
				    &x->pt[j]);
		if (!a->no_saturation)
			print_dropped(NULL, &x->sat);
		for (j = 0; j < a->nloads; j++)
			print_dropped(label_of(a, j, label, sizeof(label)),
				      &x->pt[j]);
		if (!a->no_saturation && x->sat.deadlock) {
			printf("  deadlock: a cycle of %u full buffers:\n",
			       x->sat.ncycle);
			cycle_text(f, &x->sat, stdout);
		}
		for (j = 0; j < a->nloads; j++)
			if (x->pt[j].deadlock) {
				printf("  deadlock at load %.3g: a cycle of %u full buffers:\n",
				       a->load[j], x->pt[j].ncycle);
				cycle_text(f, &x->pt[j], stdout);
				break;
			}
	}
	if (a->sl_sampled)
		printf("path SLs: %llu pairs' taken from their source's sample, not from the SA: the figures rest on samples (--all-paths reads every one)\n",
		       (unsigned long long)a->sl_sampled);
	if (a->confirm_sampled && a->confirm_every_pair)
		printf("path SLs: a deadlock on SLs of which %llu pairs' rested on samples, %s; every pair's SL read from the SA and every run repeated on them\n",
		       (unsigned long long)a->confirm_sampled,
		       a->confirmed ? "confirmed" : "NOT confirmed (the figures are the SA's SLs')");
	else if (a->confirm_sampled)
		printf("path SLs: a deadlock on SLs of which %llu pairs' rested on samples, confirmed: the %llu pairs at the heads of its blocked cycle asked from the SA, the deadlocked runs repeated on their SLs\n",
		       (unsigned long long)a->confirm_sampled,
		       (unsigned long long)a->confirm_asked);
	nbis = a->no_saturation ? 0 : ebb_summary(pat, npat, &mean, &least, &dl);
	if (nbis) {
		printf("ebb: %.3f simulated (mean saturation over %u random bisections, least CA %.3f%s)",
		       mean, nbis, least, dl ? ", DEADLOCK" : "");
		if (a->ebb_analytic >= 0)
			printf(", analytic %.3f (ORCS/Netgauge: each flow 1 / its most loaded cable)",
			       a->ebb_analytic);
		printf("\n");
	}
}

/* "per_class": {"NAME": {"sls", "accepted", "share", latency}} */
static json_t *json_classes(const struct simulate_args *a,
			    const struct ot_sim_result *x)
{
	json_t *o = json_object(), *sls;
	unsigned int c, sl;

	for (c = 0; c < a->qos_table.nclasses; c++) {
		const struct ot_sim_sl *k = &x->cls[c];

		if (!(x->class_mask & (1u << c)))
			continue;
		sls = json_array();
		for (sl = 0; sl < OT_NUM_SLS; sl++)
			if (a->sl_class[sl] == (int8_t)c &&
			    (x->sl_mask & (1u << sl)))
				json_array_append_new(sls, json_integer(sl));
		json_object_set_new(
			o, a->qos_table.cls[c].name,
			json_pack("{s:o,s:I,s:f,s:f,s:f,s:f,s:f}", "sls", sls,
				  "delivered", (json_int_t)k->delivered,
				  "accepted", k->accepted, "share",
				  x->accepted > 0 ? k->accepted / x->accepted :
						    0.0,
				  "target", a->qos_table.cls[c].share,
				  "latency_ns_mean", k->lat_mean_ns,
				  "latency_ns_p99", k->lat_p99_ns));
	}
	return o;
}

static json_t *json_point(const struct simulate_args *a,
			  const struct ot_fabric *f,
			  const struct ot_sim_result *x)
{
	json_t *o = json_object(), *sls, *cyc;
	unsigned int sl, i;

	json_object_set_new(o, "offered", json_real(x->offered));
	json_object_set_new(o, "accepted", json_real(x->accepted));
	json_object_set_new(o, "accepted_min", json_real(x->accepted_min));
	json_object_set_new(o, "latency_ns", json_pack("{s:f,s:f}", "mean",
						       x->lat_mean_ns, "p99",
						       x->lat_p99_ns));
	json_object_set_new(o, "latency_packets",
			    json_pack("{s:f,s:f}", "mean", x->lat_mean_pkt,
				      "p99", x->lat_p99_pkt));
	json_object_set_new(o, "delivered", json_integer((json_int_t)x->delivered));
	json_object_set_new(o, "unrouted", json_integer((json_int_t)x->unrouted));
	json_object_set_new(o, "misdelivered",
			    json_integer((json_int_t)x->misdelivered));
	json_object_set_new(o, "stalled", json_integer((json_int_t)x->stalled));
	json_object_set_new(o, "deadlock", json_boolean(x->deadlock));
	if (x->deadlock) {
		cyc = json_array();
		for (i = 0; i < x->ncycle; i++) {
			const struct ot_sim_channel *c = &x->cycle[i];

			json_array_append_new(
				cyc, json_pack("{s:s,s:i,s:s,s:i,s:i}", "from",
					       f->node[c->from].desc ?
						       f->node[c->from].desc : "",
					       "from_port", c->from_port, "to",
					       f->node[c->to].desc ?
						       f->node[c->to].desc : "",
					       "to_port", c->to_port, "vl",
					       c->vl));
		}
		json_object_set_new(o, "cycle", cyc);
	}
	if (x->sl_mask & (x->sl_mask - 1)) {
		sls = json_object();
		for (sl = 0; sl < OT_NUM_SLS; sl++) {
			char key[8];

			if (!(x->sl_mask & (1u << sl)))
				continue;
			snprintf(key, sizeof(key), "%u", sl);
			json_object_set_new(
				sls, key,
				json_pack("{s:f,s:f,s:f}", "accepted",
					  x->sl[sl].accepted, "latency_ns_mean",
					  x->sl[sl].lat_mean_ns,
					  "latency_ns_p99", x->sl[sl].lat_p99_ns));
		}
		json_object_set_new(o, "per_sl", sls);
	}
	if (a->qos)
		json_object_set_new(o, "per_class", json_classes(a, x));
	return o;
}

static int print_json(const struct simulate_args *a,
		      const struct ot_fabric *f, const struct pattern *pat,
		      unsigned int npat, uint32_t ncas, unsigned int nvls,
		      uint64_t hops, double wall, double cpu)
{
	json_t *root = json_object(), *arr = json_array(), *pts;
	unsigned int i, j;
	int rc;

	for (i = 0; i < npat; i++) {
		const struct pattern *x = &pat[i];
		json_t *po = json_object();
		bool dl = false;

		json_object_set_new(po, "name", json_string(x->name));
		if (!a->no_saturation) {
			json_object_set_new(po, "saturation",
					    json_real(x->sat.accepted));
			json_object_set_new(po, "saturation_min",
					    json_real(x->sat.accepted_min));
			json_object_set_new(po, "saturated",
					    json_point(a, f, &x->sat));
			dl = x->sat.deadlock;
		}
		if (x->analytic >= 0)
			json_object_set_new(po, "analytic",
					    json_real(x->analytic));
		pts = json_array();
		for (j = 0; j < a->nloads; j++) {
			json_array_append_new(pts, json_point(a, f, &x->pt[j]));
			dl = dl || x->pt[j].deadlock;
		}
		json_object_set_new(po, "points", pts);
		json_object_set_new(po, "deadlock", json_boolean(dl));
		json_array_append_new(arr, po);
	}
	json_object_set_new(root, "patterns", arr);
	json_object_set_new(root, "cas", json_integer(ncas));
	json_object_set_new(root, "vls", json_integer(nvls));
	json_object_set_new(
		root, "model",
		json_pack("{s:i,s:i,s:f,s:f,s:f,s:s,s:s,s:s,s:i,s:i,s:i,s:I}",
			  "mtu", a->p.mtu, "buffer", a->p.buffer, "rate_gbps",
			  a->p.rate_gbps, "link_ns", a->p.link_ns, "switch_ns",
			  a->p.switch_ns, "arrivals", arrivals[a->arrivals],
			  "lid", lid_choices[a->lid], "vl_arbitration",
			  a->p.vlarb ? "tables" : "rr", "warmup", a->p.warmup,
			  "measure", a->p.measure, "deadlock_window",
			  a->p.deadlock_window, "seed", (json_int_t)a->p.seed));
	{
		double mean, least;
		bool dl;
		unsigned int nbis = a->no_saturation ? 0 :
			ebb_summary(pat, npat, &mean, &least, &dl);
		json_t *e;

		if (nbis) {
			e = json_pack("{s:i,s:f,s:f,s:b}", "bisections", nbis,
				      "saturation", mean, "saturation_min",
				      least, "deadlock", dl);
			if (a->ebb_analytic >= 0)
				json_object_set_new(e, "analytic",
						    json_real(a->ebb_analytic));
			json_object_set_new(root, "ebb", e);
		}
	}
	if (a->qos)
		json_object_set_new(root, "qos",
				    json_pack("{s:s,s:i,s:i}", "classes_file",
					      a->qos, "classes",
					      a->qos_table.nclasses,
					      "sl_layers", a->qos_sls));
	/* 0: every path SL the pair's own; else that many pairs' SLs rest
	 * on their source's sample and so do the figures */
	json_object_set_new(root, "sl_sampled_pairs",
			    json_integer((json_int_t)a->sl_sampled));
	/* present when a deadlock on sampled SLs was checked on every SL */
	if (a->confirm_sampled)
		json_object_set_new(
			root, "sl_confirmation",
			json_pack("{s:I,s:b,s:b,s:I,s:s}", "sampled_pairs",
				  (json_int_t)a->confirm_sampled,
				  "deadlock_on_samples", 1,
				  "deadlock_confirmed", a->confirmed,
				  "cycle_head_pairs_asked",
				  (json_int_t)a->confirm_asked,
				  "read", a->confirm_every_pair ?
				  "every pair" : "cycle heads"));
	json_object_set_new(root, "packet_hops", json_integer((json_int_t)hops));
	json_object_set_new(root, "wall_s", json_real(wall));
	json_object_set_new(root, "cpu_s", json_real(cpu));
	json_object_set_new(root, "packet_hops_per_cpu_s",
			    json_real(cpu > 0 ? hops / cpu : 0));
	rc = json_dumpf(root, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	printf("\n");
	json_decref(root);
	return rc;
}

/* Throughput and latency against offered load, a curve per pattern. */
static int write_svg(const struct simulate_args *a, const struct pattern *pat,
		     unsigned int npat)
{
	struct ot_plot_series *ser = calloc(npat, sizeof(*ser));
	struct ot_plot_point *pts = calloc((size_t)npat * a->nloads + 1,
					   sizeof(*pts));
	struct ot_plot_chart chart = { "every pattern", ser, npat };
	char title[PATH_MAX + 64];
	FILE *out = NULL;
	unsigned int i, j;
	int rc = -1;

	if (!ser || !pts) {
		fprintf(stderr, "osmtopo simulate: out of memory\n");
		goto out;
	}
	for (i = 0; i < npat; i++) {
		struct ot_plot_point *p = &pts[(size_t)i * a->nloads];

		for (j = 0; j < a->nloads; j++)
			p[j] = (struct ot_plot_point){
				pat[i].pt[j].offered, pat[i].pt[j].accepted,
				pat[i].pt[j].lat_mean_ns, pat[i].pt[j].deadlock
			};
		ser[i] = (struct ot_plot_series){
			.name = pat[i].name, .pt = p, .npt = a->nloads,
			.saturation = a->no_saturation ? -1 : pat[i].sat.accepted,
			.saturation_deadlock = !a->no_saturation &&
					       pat[i].sat.deadlock
		};
	}
	snprintf(title, sizeof(title), "osmtopo simulate %s%s%s",
		 a->engine ? a->engine : a->live ? "--live" :
			     a->osmdump ? "--osm-dump" : "",
		 a->netfile ? " " : "", a->netfile ? a->netfile : "");
	out = fopen(a->svg, "w");
	if (!out) {
		fprintf(stderr, "osmtopo simulate: %s: %s\n", a->svg,
			strerror(errno));
		goto out;
	}
	rc = ot_plot_svg(out, title, &chart, 1);
	if (fclose(out) || rc) {
		fprintf(stderr, "osmtopo simulate: writing %s failed\n", a->svg);
		rc = -1;
	}
out:
	free(ser);
	free(pts);
	return rc;
}

/* ------------------------------------------------------------------ */

static int parse_double(const char *opt, const char *s, double *out)
{
	char *end;

	if (!s)
		return 0;
	errno = 0;
	*out = strtod(s, &end);
	if (errno || *end || !(*out >= 0) || (!strcmp(opt, "rate") && !(*out > 0))) {
		fprintf(stderr, "osmtopo simulate: --%s: a number%s, got '%s'\n",
			opt, strcmp(opt, "rate") ? " >= 0" : " > 0", s);
		return -1;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct simulate_args *a)
{
	int status, next, nargs;
	const char *why = NULL;

	status = tool_parse(&simulate_command, argc, argv, a, &next, NULL);
	if (status >= 0)
		return status;
	if (!!a->live + !!a->engine + !!a->osmdump > 1)
		why = "one source: --live, --route or --osm-dump";
	else if (a->lmc_given && !a->engine)
		why = "--lmc goes with --route";
	else if (a->spread && !a->engine)
		why = "--spread goes with --route";
	else if (a->max_vls && !a->engine)
		why = "--max-vls goes with --route";
	else if (a->live_opts_given && !a->live)
		why = "-C, -P, --all-paths and --path-bound need --live";
	else if (a->no_saturation && !a->nloads)
		why = "--no-saturation needs --loads";
	else if (a->svg && !a->nloads)
		why = "--svg draws the points of --loads";
	else if (!a->patterns && !a->hot_given && !a->pairs)
		why = "no pattern: --patterns, --hotspot or --pairs";
	else if (a->qos_sls && !a->qos)
		why = "--qos-layers goes with --qos";
	else if (a->vlarb_rule && !a->live)
		why = "--vl-arbitration goes with --live (tables are read from a live fabric only)";
	if (why) {
		fprintf(stderr, "osmtopo simulate: %s\n", why);
		return OT_EXIT_USAGE;
	}
	if (a->nrandom == UINT32_MAX)
		a->nrandom = 1;
	if ((a->patterns & (1u << OT_PATTERN_EBB)) && !a->bisections)
		a->bisections = OT_EBB_DEFAULT_BISECTIONS;
	nargs = argc - next;
	if (nargs != (a->live || a->osmdump ? 0 : a->engine ? 1 : 2)) {
		simulate_usage(stderr, &simulate_command);
		return OT_EXIT_USAGE;
	}
	if (nargs > 0)
		a->netfile = argv[next];
	if (nargs > 1)
		a->lftfile = argv[next + 1];
	if (parse_double("rate", a->rate, &a->p.rate_gbps) ||
	    parse_double("link-latency", a->link_ns, &a->p.link_ns) ||
	    parse_double("switch-latency", a->switch_ns, &a->p.switch_ns))
		return OT_EXIT_USAGE;
	if (a->mtu)
		a->p.mtu = a->mtu;
	if (a->buffer)
		a->p.buffer = a->buffer;
	if (a->warmup != UINT32_MAX)
		a->p.warmup = a->warmup;
	if (a->measure)
		a->p.measure = a->measure;
	if (a->window)
		a->p.deadlock_window = a->window;
	a->p.seed = a->seed;
	a->p.arrivals = a->arrivals ? OT_SIM_EXPONENTIAL : OT_SIM_BERNOULLI;
	a->p.lid = (enum ot_sim_lid_choice)a->lid;
	a->p.order = a->ca_order ? OT_CA_ORDER_GUID : OT_CA_ORDER_FILE;
	return -1;
}

static int load_routing(struct simulate_args *a, struct ot_fabric **f,
			struct ot_routing **r, struct ot_vlarb_tables **vt,
			struct ot_error *err)
{
	struct ot_live_opts o = a->live_opts;

	if (a->engine)
		return tool_route_netfile(a->engine, a->netfile,
					  a->lmc_given ? (int)a->lmc : -1,
					  a->spread, a->max_vls, f, r, err);
	if (a->osmdump)
		return ot_osmdump_load(a->osmdump, f, r, err) ? OT_EXIT_USAGE :
								OT_EXIT_OK;
	if (!a->live)
		return tool_load_lft_files(a->netfile, a->lftfile, f, r, err) ?
			       OT_EXIT_USAGE : OT_EXIT_OK;
	o.path_bound = a->path_bound;
	if (ot_live_discover(&o, f, err))
		return OT_EXIT_USAGE;
	*vt = ot_vlarb_new(*f);
	if (!*vt) {
		ot_error_nomem(err, "simulate");
		return OT_EXIT_USAGE;
	}
	o.vlarb = *vt;
	/* read either way: --vl-arbitration rr sets them aside */
	a->p.vlarb = a->vlarb_rule ? NULL : *vt;
	return ot_live_read_routing(&o, *f, r, err) ? OT_EXIT_USAGE :
						      OT_EXIT_OK;
}

static double cpu_seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/*
 * Beyond --path-bound pairs the live read asks the SA for a sample of
 * the path SLs and takes the rest by rule (live/sa.c): right for
 * osmtopo's engines, wrong for OpenSM's, which choose SLs per pair
 * (dfsssp, lash).  A deadlock simulated on such SLs may be one the
 * fabric does not have.  confirm_cycles() asks for its cycle's heads
 * first; when that does not settle it, this reads every pair's SL and
 * repeats every run on them (the caller says why).  0 when the runs
 * were repeated; -1 with err set.
 */
static int confirm_on_all_sls(struct simulate_args *a, struct ot_routing *r,
			      struct pool *pl, unsigned int nthreads,
			      struct ot_error *err)
{
	struct ot_live_opts o = a->live_opts;
	unsigned int i;
	int rc;

	o.all_paths = true;
	r->sl_sampled_pairs = 0;
	r->sl_sampled = NULL;
	r->sl_confirm = NULL;
	rc = ot_live_read_path_sls(&o, r, err);
	if (rc) /* err says why; the line above said what was being read */
		return -1;
	pl->next = 0;
	pl->done = 0;
	for (i = 0; i < pl->njobs; i++)
		memset(pl->job[i].out, 0, sizeof(*pl->job[i].out));
	if (run_jobs(pl, nthreads)) {
		*err = pl->err;
		return -1;
	}
	return 0;
}

/* Rounds of asking the SA about the heads of blocked cycles. */
#define CONFIRM_ROUNDS 8

/*
 * The sampled pairs at the heads of the blocked cycles of the deadlocked
 * runs, into pairs[] (slid << 16 | dlid; at most cap).  Their count, or
 * -1 when a cycle was longer than the channels a result keeps: its
 * other heads are unknown.
 */
static long cycle_heads(const struct ot_routing *r, const struct pool *pl,
			uint32_t *pairs, unsigned int cap)
{
	unsigned int i, k, j, n = 0;

	for (i = 0; i < pl->njobs; i++) {
		const struct ot_sim_result *x = pl->job[i].out;

		if (!x->deadlock)
			continue;
		if (x->cycle_len > x->ncycle)
			return -1;
		for (k = 0; k < x->ncycle; k++) {
			const struct ot_sim_channel *c = &x->cycle[k];
			uint32_t pr = (uint32_t)c->head_slid << 16 | c->head_dlid;

			if (!r->sl_sampled(r, c->head_slid, c->head_dlid))
				continue;
			for (j = 0; j < n && pairs[j] != pr; j++)
				;
			if (j == n && n < cap)
				pairs[n++] = pr;
		}
	}
	return n;
}

/* Runs again the jobs that deadlocked; their packet-hops added to hops. */
static int rerun_deadlocked(struct pool *pl, unsigned int nthreads,
			    uint64_t *hops)
{
	struct pool sub = *pl;
	unsigned int i, n = 0;
	int rc;

	sub.job = calloc(pl->njobs, sizeof(*sub.job));
	if (!sub.job) {
		ot_error_nomem(&pl->err, "simulate");
		return -1;
	}
	for (i = 0; i < pl->njobs; i++)
		if (pl->job[i].out->deadlock) {
			sub.job[n] = pl->job[i];
			memset(sub.job[n].out, 0, sizeof(*sub.job[n].out));
			n++;
		}
	sub.njobs = n;
	sub.next = 0;
	sub.done = 0;
	sub.failed = false;
	rc = run_jobs(&sub, nthreads);
	if (rc)
		pl->err = sub.err;
	for (i = 0; i < n; i++)
		*hops += sub.job[i].out->packet_hops;
	free(sub.job);
	return rc;
}

/*
 * A deadlock simulated on sampled SLs is decided by the packets at the
 * heads of its blocked cycle: each waits for the next buffer of the
 * cycle, on the VL its SL gives.  Those pairs are asked from the SA
 * (r->sl_confirm) and the deadlocked runs repeated, until the heads of
 * every cycle have the SLs the SA gave (then the cycle's dependencies
 * are in the fabric's own tables: the deadlock is confirmed) or no run
 * deadlocks.  A cycle longer than the channels a result keeps, or more
 * than CONFIRM_ROUNDS rounds, falls back to reading every pair's SL
 * (confirm_on_all_sls()).  0, or -1 with err set.
 */
static int confirm_cycles(struct simulate_args *a, struct ot_routing *r,
			  struct pool *pl, unsigned int nthreads,
			  uint64_t *hops, struct ot_error *err)
{
	uint32_t pairs[4 * OT_SIM_MAX_CYCLE];
	const unsigned int cap = sizeof(pairs) / sizeof(pairs[0]);
	unsigned int round, i;
	uint64_t asked = 0;
	bool deadlock = true;
	long n;

	for (round = 0; deadlock && round < CONFIRM_ROUNDS; round++) {
		n = r->sl_sampled && r->sl_confirm ?
			    cycle_heads(r, pl, pairs, cap) : -1;
		if (n < 0 || n == (long)cap)
			break;
		if (n == 0) {
			a->confirm_asked = asked;
			fprintf(stderr,
				"osmtopo simulate: the deadlock is confirmed: the packets at the heads of its blocked cycle have the SLs the SA gave (%llu pairs asked again)\n",
				(unsigned long long)asked);
			return 0;
		}
		fprintf(stderr,
			"osmtopo simulate: a deadlock on sampled path SLs (%llu pairs' SLs taken from their source's sample, not from the SA): asking the SA for the %ld pairs at the heads of the blocked cycle, and simulating again\n",
			(unsigned long long)r->sl_sampled_pairs, n);
		if (r->sl_confirm(r, pairs, (uint64_t)n, err))
			return -1;
		asked += (uint64_t)n;
		if (rerun_deadlocked(pl, nthreads, hops)) {
			*err = pl->err;
			return -1;
		}
		deadlock = false;
		for (i = 0; i < pl->njobs; i++)
			deadlock = deadlock || pl->job[i].out->deadlock;
	}
	a->confirm_asked = asked;
	/*
	 * No deadlock left once the heads had their own SLs: the sample was
	 * wrong for some pair, so the figures are not trusted to it either;
	 * or the heads could not be told: every pair's SL is read.
	 */
	fprintf(stderr,
		deadlock ? "osmtopo simulate: a deadlock on sampled path SLs whose blocked cycle could not be settled on its heads (%llu pairs asked): reading every pair's SL (%llu still sampled) to confirm it\n" :
			   "osmtopo simulate: no deadlock once the SA's SLs of the blocked cycles' %llu head pairs were used: the sample was wrong, reading every pair's SL (%llu still sampled)\n",
		(unsigned long long)asked,
		(unsigned long long)r->sl_sampled_pairs);
	a->confirm_every_pair = true;
	if (confirm_on_all_sls(a, r, pl, nthreads, err))
		return -1;
	for (i = 0; i < pl->njobs; i++)
		*hops += pl->job[i].out->packet_hops;
	return 0;
}

int cmd_simulate(int argc, char **argv)
{
	struct simulate_args a = { .patterns = 1u << OT_PATTERN_UNIFORM,
				   .seed = 1, .warmup = UINT32_MAX,
				   .ebb_analytic = -1 };
	struct ot_fabric *f = NULL;
	struct ot_routing *r = NULL;
	struct ot_vlarb_tables *vt = NULL;
	struct ot_error err = { 0 };
	struct pattern *pat = NULL;
	struct pool pl = { 0 };
	unsigned int npat = 0, i, j, nj = 0, nvls = 0, nthreads;
	uint32_t ncas = 0;
	double wall, cpu, pkt_ns = 0;
	uint64_t hops = 0;
	bool deadlock = false;
	int status;
	long ncpu;

	ot_sim_params_default(&a.p);
	status = parse_args(argc, argv, &a);
	if (status >= 0)
		return status;
	status = load_routing(&a, &f, &r, &vt, &err);
	if (status != OT_EXIT_OK) {
		fprintf(stderr, "osmtopo simulate: %s\n", err.msg);
		goto out;
	}
	if (a.qos && qos_classes(&a, r, &err)) {
		fprintf(stderr, "osmtopo simulate: %s\n", err.msg);
		status = OT_EXIT_USAGE;
		goto out;
	}
	if (a.lftfile)
		fprintf(stderr,
			"osmtopo simulate: note: LFT files hold no SL2VL tables or path SLs: every packet on SL 0, VL 0\n");
	else if (a.osmdump && !r->path_sl)
		fprintf(stderr,
			"osmtopo simulate: note: OpenSM's dump files hold no path SLs: every packet on SL 0\n");
	else if (a.osmdump && ot_pathsl_source(r))
		fprintf(stderr,
			"osmtopo simulate: path SLs from %s/osmtopo-path-sl.dump (%s)\n",
			a.osmdump, ot_pathsl_source(r));
	status = OT_EXIT_USAGE;
	if (make_patterns(&a, f, r, &pat, &npat, &err)) {
		fprintf(stderr, "osmtopo simulate: %s\n", err.msg);
		goto out;
	}
	pl.job = calloc((size_t)npat * (a.nloads + 1) + 1, sizeof(*pl.job));
	if (!pl.job)
		goto oom;
	for (i = 0; i < npat; i++) {
		pat[i].pt = calloc(a.nloads + 1, sizeof(*pat[i].pt));
		if (!pat[i].pt)
			goto oom;
		if (!a.no_saturation)
			pl.job[nj++] = (struct job){ &pat[i], 0, &pat[i].sat };
		for (j = 0; j < a.nloads; j++)
			pl.job[nj++] = (struct job){ &pat[i], a.load[j],
						     &pat[i].pt[j] };
	}
	pl.njobs = nj;
	pl.r = r;
	pl.p = &a.p;
	pl.progress = isatty(STDERR_FILENO);
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	wall = tool_now();
	cpu = cpu_seconds();
	nthreads = a.jobs ? a.jobs : ncpu > 0 ? (unsigned int)ncpu : 1;
	if (run_jobs(&pl, nthreads)) {
		fprintf(stderr, "osmtopo simulate: %s\n", pl.err.msg);
		goto out;
	}
	for (i = 0; i < nj; i++) {
		hops += pl.job[i].out->packet_hops;
		deadlock = deadlock || pl.job[i].out->deadlock;
	}
	if (deadlock && a.live && r->sl_sampled_pairs) {
		a.confirm_sampled = r->sl_sampled_pairs;
		if (confirm_cycles(&a, r, &pl, nthreads, &hops, &err)) {
			fprintf(stderr, "osmtopo simulate: %s\n", err.msg);
			goto out;
		}
		deadlock = false;
		for (i = 0; i < nj; i++)
			deadlock = deadlock || pl.job[i].out->deadlock;
		a.confirmed = deadlock;
		if (a.confirm_every_pair)
			fprintf(stderr,
				deadlock ? "osmtopo simulate: the deadlock is confirmed on the SLs the SA gave for every pair\n" :
					   "osmtopo simulate: no deadlock on the SLs the SA gave for every pair: the sampled SLs were wrong, the figures below are on the SA's SLs\n");
	}
	wall = tool_now() - wall;
	cpu = cpu_seconds() - cpu;
	{
		struct ot_sim *s = ot_sim_new(r, &a.p, &err);

		if (!s)
			goto oom;
		ncas = ot_sim_ncas(s);
		nvls = ot_sim_nvls(s);
		pkt_ns = ot_sim_packet_ns(s);
		ot_sim_free(s);
	}
	a.sl_sampled = r->sl_sampled_pairs;
	if (a.json) {
		if (print_json(&a, f, pat, npat, ncas, nvls, hops, wall, cpu))
			goto out;
	} else {
		print_text(&a, f, pat, npat, ncas, nvls, pkt_ns);
		printf("%llu packet-hops in %.2f s CPU (%.3g per CPU second), %.2f s wall\n",
		       (unsigned long long)hops, cpu,
		       cpu > 0 ? hops / cpu : 0, wall);
	}
	if (fflush(stdout)) {
		fprintf(stderr, "osmtopo simulate: writing the report: %s\n",
			strerror(errno));
		goto out;
	}
	if (a.svg && write_svg(&a, pat, npat))
		goto out;
	status = deadlock ? OT_EXIT_FAIL : OT_EXIT_OK;
	goto out;
oom:
	fprintf(stderr, "osmtopo simulate: out of memory\n");
out:
	free(pl.job);
	free_patterns(pat, npat);
	ot_vlarb_free(vt);
	ot_routing_free(r);
	ot_fabric_free(f);
	return status;
}
