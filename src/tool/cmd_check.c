// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * `osmtopo check`: the checker (src/check/check.c) on the command line, the
 * last step of the flow fabric -> recognizer -> engine -> tables ->
 * checker.  The fabric and its tables come from files (a net file and
 * dump_lfts output), from an engine run offline, or from a live fabric;
 * the report says whether every CA reaches every CA, by how many hops, and
 * whether the channel dependency graph has a credit loop.  With
 * an engine's promise (--engine E, or --route E's own) it also holds every
 * path to what that engine states it does (src/model/routing.h).
 * Unless --no-balance, it adds how evenly the links carry traffic
 * patterns (src/check/traffic.c), and --plot draws that as an SVG.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "check/qoscheck.h"
#include "check/traffic.h"
#include "commands.h"
#include "io/lftfile.h"
#include "io/netfile.h"
#include "io/osmdump.h"
#include "io/pathslfile.h"
#include "live/live.h"
#include "model/routing.h"
#include "options.h"
#include "route/engine.h"
#include "topo/flatfly.h"
#include "topo/kns.h"
#include "topo/miscable.h"
#include "util.h"

struct check_args {
	const char *engine;   /* --route */
	const char *osmdump;  /* --osm-dump */
	unsigned int lmc;     /* --lmc */
	bool lmc_given;
	bool live;
	struct ot_live_opts live_opts;
	bool live_opts_given;
	unsigned int path_bound; /* --path-bound */
	const char *promise_of; /* --engine */
	const char *spread;     /* --spread */
	unsigned int max_vls;   /* --max-vls; 0: none */
	bool no_promise;
	bool json;
	unsigned int examples;
	bool no_balance;
	bool no_mcast;
	struct ot_traffic_opts traffic;
	int ca_order; /* index in ca_orders[] */
	const char *plot;
	const struct expect_family *expect; /* --expect FAMILY */
	const char *qos;      /* --qos: the class table */
	unsigned int qos_sls; /* --qos-layers */
	bool strict;          /* --strict: a class reaching no port fails */
	struct ot_vlarb_tables *vlarb; /* read with --live --qos */
	const char *netfile, *lftfile;
};

/* --engine: an engine the tool knows. */
static int set_promise_engine(void *args, const char *arg,
			      struct ot_error *err)
{
	struct check_args *a = args;

	if (!ot_engine_find(arg))
		return ot_error_set(err, "no such engine, see --help");
	a->promise_of = arg;
	return 0;
}

/* --patterns: names of traffic patterns. */
static int set_patterns(void *args, const char *arg, struct ot_error *err)
{
	struct check_args *a = args;

	return ot_pattern_parse_list(arg, &a->traffic.patterns,
				     &a->traffic.bisections, err);
}

/* --ca-order's words, in the order of enum ot_ca_order. */
static const char *const ca_orders[] = { "file", "guid", NULL };

/* --expect: the families with a mis-cabling report (topo/miscable.h). */
struct expect_family {
	const char *word, *name; /* "kns", "a KNS" */
	int (*miscabling)(const struct ot_fabric *f, struct ot_miscabling *out,
			  struct ot_error *err);
};

static const struct expect_family expect_families[] = {
	{ "kns", "a KNS", ot_kns_miscabling },
	{ "flatfly", "a FlatFly", ot_ff_miscabling },
	{ "hypercube", "a hypercube", ot_hc_miscabling },
	{ "slimfly", "a Slim Fly", ot_sf_miscabling },
	{ "dragonfly", "a Dragonfly", ot_df_miscabling },
	{ NULL, NULL, NULL },
};

static int set_expect(void *args, const char *arg, struct ot_error *err)
{
	struct check_args *a = args;
	const struct expect_family *e;

	for (e = expect_families; e->word; e++)
		if (!strcmp(arg, e->word)) {
			a->expect = e;
			return 0;
		}
	return ot_error_set(err,
			    "families with a mis-cabling report: kns, flatfly, hypercube, slimfly, dragonfly");
}

#define ARGS struct check_args
static const struct tool_option check_options[] = {
	{ "route", 'r', "ENGINE",
	  "route NETFILE offline with ENGINE and check the result",
	  TOOL_STRING(ARGS, engine) },
	{ "osm-dump", 'D', "DIR",
	  "check OpenSM's dump files in DIR (opensm -D 0x43 --dump_files_dir DIR)",
	  TOOL_STRING(ARGS, osmdump) },
	{ "lmc", 'm', "N",
	  "with --route: number LIDs as OpenSM does with option lmc N",
	  TOOL_UINT(ARGS, lmc, 0, 7), TOOL_GIVEN(ARGS, lmc_given) },
	TOOL_OPTION_SPREAD(ARGS, spread),
	TOOL_OPTION_MAX_VLS(ARGS, max_vls),
	{ "live", 'L', NULL,
	  "check the fabric this host is cabled to, as it is programmed",
	  TOOL_SET(ARGS, live) },
	{ "Ca", 'C', "CA",
	  "local CA for --live (default: the first)",
	  TOOL_STRING(ARGS, live_opts.ca), TOOL_GIVEN(ARGS, live_opts_given) },
	{ "Port", 'P', "PORT",
	  "local port for --live (default: the first active)",
	  TOOL_INT(ARGS, live_opts.port, 1, 254),
	  TOOL_GIVEN(ARGS, live_opts_given) },
	{ "all-paths", 'A', NULL,
	  "with --live: ask the SA for the path SL of every CA pair, however many (default: beyond the bound, a sample)",
	  TOOL_SET(ARGS, live_opts.all_paths),
	  TOOL_GIVEN(ARGS, live_opts_given) },
	{ "path-bound", 'b', "N",
	  "with --live: ask for every pair up to N pairs (default 1200000, half a minute of SA queries), sample beyond and confirm credit loops on real SLs",
	  TOOL_UINT(ARGS, path_bound, 1, 4000000000u),
	  TOOL_GIVEN(ARGS, live_opts_given) },
	{ "engine", 'e', "ENGINE",
	  "hold the tables to what ENGINE promises, routing the fabric with it offline (default with --route: that engine)",
	  TOOL_CALL(set_promise_engine) },
	{ "no-promise", 'N', NULL,
	  "check no engine's promise, only reachability, loops and credit loops",
	  TOOL_SET(ARGS, no_promise) },
	{ "json", 'j', NULL,
	  "print the report as one JSON object",
	  TOOL_SET(ARGS, json) },
	{ "examples", 'n', "N",
	  "list up to N problems of each kind (default 5)",
	  TOOL_UINT(ARGS, examples, 1, 1000000) },
	{ "patterns", 'p', "LIST",
	  "traffic patterns for link balance (default all, see above)",
	  TOOL_CALL(set_patterns) },
	{ "random", 'R', "N",
	  "random permutations among the patterns (default 1)",
	  TOOL_UINT(ARGS, traffic.nrandom, 1, 100000) },
	{ "seed", 'S', "SEED",
	  "seed of the first random permutation (default 1)",
	  TOOL_SEED(ARGS, traffic.seed) },
	{ "ca-order", 'O', "ORDER",
	  "number the CAs for the patterns by 'file' order or 'guid'",
	  TOOL_CHOICE(ARGS, ca_order, ca_orders) },
	{ "no-balance", 'B', NULL,
	  "skip the link balance figures",
	  TOOL_SET(ARGS, no_balance) },
	{ "no-multicast", 'M', NULL,
	  "with --live: skip the multicast check (groups, members and MFTs from the SA and the switches)",
	  TOOL_SET(ARGS, no_mcast), TOOL_GIVEN(ARGS, live_opts_given) },
	{ "expect", 'x', "FAMILY",
	  "only say whether the cabling is FAMILY's (kns, flatfly, hypercube, slimfly, dragonfly), and which cables to move if a few break it",
	  TOOL_CALL(set_expect) },
	{ "qos", 'Q', "FILE",
	  "with --live: also check VL arbitration for the classes of this osmtopo class table (see `osmtopo qos`)",
	  TOOL_STRING(ARGS, qos) },
	{ "qos-layers", 'Y', "S",
	  "with --qos: the engine's SL layers per class (default: the fewest that hold the path SLs found)",
	  TOOL_UINT(ARGS, qos_sls, 1, 15) },
	{ "strict", 'T', NULL,
	  "with --qos: a class that reaches no port (no pair has its SL) fails the check, not only warns",
	  TOOL_SET(ARGS, strict) },
	{ "plot", 'g', "FILE",
	  "write an SVG picture of the link loads per pattern to FILE",
	  TOOL_STRING(ARGS, plot) },
	TOOL_OPTION_HELP,
};
#undef ARGS

static void check_usage(FILE *out, const struct tool_command *c)
{
	fprintf(out,
		"usage: osmtopo check [OPTIONS] NETFILE LFTFILE\n"
		"       osmtopo check [OPTIONS] --route ENGINE [--lmc N] NETFILE\n"
		"       osmtopo check [OPTIONS] --osm-dump DIR\n"
		"       osmtopo check [OPTIONS] --live [-C CA] [-P PORT]\n"
		"       osmtopo check --expect FAMILY NETFILE | --live [-C CA] [-P PORT]\n\n"
		"Checks a fabric's unicast routing: every CA port reaches every CA\n"
		"LID (each LID of an LMC range on its own), without a forwarding\n"
		"loop; path lengths against the shortest path of the cabling; and\n"
		"no credit loop in the channel dependency graph over (link, VL).\n"
		"With --live also multicast: each group the SA knows, its members\n"
		"and every switch's MFT: every member reached from every other\n"
		"without a loop, and no credit loop added to unicast's.\n\n"
		"NETFILE is an ibsim net file or ibnetdiscover output (with the\n"
		"LIDs the fabric uses); LFTFILE is opensm-lfts.dump, `osmtopo\n"
		"route --lfts-only` or dump_lfts output.  dump_lfts leaves out\n"
		"the highest LID, which then shows as unreachable; `osmtopo lfts\n"
		"--live` does not.  Files carry no SL2VL tables: VL 0 is assumed.\n\n"
		"Link balance: every CA injects at rate 1 under each traffic\n"
		"pattern; a directed link's load is the rate it carries (CA cables\n"
		"included) and the throughput 1 / the largest load, at most 1.\n"
		"CAs (CA ports with a LID) are numbered 0..N-1 in --ca-order;\n"
		"bit patterns work on ceil(log2 N) bits, and a CA whose partner\n"
		"is itself or >= N sends nothing.  Patterns:\n"
		"  uniform     1/(N-1) from every CA to every other\n"
		"  complement  i -> ~i            reverse   i -> bits reversed\n"
		"  shuffle     i -> rotl(i, 1)    transpose i -> rotr(i, bits/2)\n"
		"  rotation    i -> i + N/2 mod N neighbor  i -> i + 1 mod N\n"
		"  random      seeded permutations (--random N --seed S)\n"
		"  ebb         effective bisection bandwidth (ORCS, Netgauge): K random\n"
		"              bisections (ebb:K, default 100, --seed S), each CA paired\n"
		"              with one of the other half both ways; a flow gets 1 / the\n"
		"              most loaded cable on its path, averaged; not in 'all'\n"
		"Paths go to the base LID; with LMC > 0 also spread evenly over\n"
		"the LIDs, and the best LID per flow, chosen greedily (the\n"
		"base LIDs when every flow routed does better on them).\n\n"
		"--expect FAMILY (kns, flatfly, hypercube, slimfly, dragonfly)\n"
		"checks the cabling alone: when a few cables break the family's\n"
		"pattern (far ends swapped, or moved round a cycle), it names\n"
		"each cable and the port it should go to, a fix the family's\n"
		"recognizer accepts (when several fixes fit equally, one of\n"
		"them); KNS: router-switch cables, the others: any switch-to-\n"
		"switch cable.  Missing cables are damage, not mis-cabling: a\n"
		"fabric the recognizer accepts with cables missing passes, unless\n"
		"some switch pair (Dragonfly: switch, group pair) has more cables\n"
		"than the others of its kind.\n\n"
		"options:\n");
	tool_print_options(out, c);
	fprintf(out, "\nengines for --route and --engine:\n");
	tool_print_engines(out);
	fprintf(out,
		"\nexamples:\n"
		"  osmtopo check fabric.ibnd /var/log/opensm-lfts.dump\n"
		"  osmtopo check --route hdor kns.net\n"
		"  osmtopo check --engine ff-dor ff.net ff.lfts\n"
		"  osmtopo check --live -C mlx5_0 -P 1 --json > report.json\n"
		"  osmtopo check --patterns uniform,random --random 4 --plot loads.svg \\\n"
		"      kns.net kns.lfts\n"
		"\nexit status: 0 no problem found, 1 a problem found (or the\n"
		"fabric refused), 2 usage or I/O error.\n");
}

TOOL_COMMAND(check_command, "check", check_options, check_usage);

/* Options that exclude or need each other.  0, or OT_EXIT_USAGE. */
static int check_combination(const struct check_args *a)
{
	const char *why = NULL;

	if (!!a->live + !!a->engine + !!a->osmdump > 1)
		why = "one source: --live, --route or --osm-dump";
	else if (a->no_promise && a->promise_of)
		why = "--engine and --no-promise exclude each other";
	else if (a->lmc_given && !a->engine)
		why = "--lmc goes with --route";
	else if (a->spread && !a->engine && !a->promise_of)
		why = "--spread goes with --route or --engine";
	else if (a->max_vls && !a->engine && !a->promise_of)
		why = "--max-vls goes with --route or --engine";
	else if (a->no_balance && a->plot)
		why = "--plot needs the balance figures (no --no-balance)";
	else if (a->live_opts_given && !a->live)
		why = "-C, -P, --all-paths, --path-bound and --no-multicast need --live";
	else if (a->expect && (a->engine || a->osmdump))
		why = "--expect reads a net file or the live fabric";
	else if ((a->qos || a->qos_sls) && !a->live)
		why = "--qos reads the tables of a live fabric: it needs --live";
	else if (a->strict && !a->qos)
		why = "--strict goes with --qos";
	else if (a->qos_sls && !a->qos)
		why = "--qos-layers goes with --qos";
	if (!why)
		return OT_EXIT_OK;
	fprintf(stderr, "osmtopo check: %s\n", why);
	return OT_EXIT_USAGE;
}

/*
 * -1 when args is filled, otherwise the status to exit with (0 after
 * --help).
 */
static int parse_args(int argc, char **argv, struct check_args *a)
{
	int status, next, nargs;

	status = tool_parse(&check_command, argc, argv, a, &next, NULL);
	if (status >= 0)
		return status;
	a->traffic.order = a->ca_order ? OT_CA_ORDER_GUID : OT_CA_ORDER_FILE;
	if (check_combination(a))
		return OT_EXIT_USAGE;
	nargs = argc - next;
	if (nargs != (a->live || a->osmdump ? 0 :
		      a->engine || a->expect ? 1 : 2)) {
		check_usage(stderr, &check_command);
		return OT_EXIT_USAGE;
	}
	if (nargs > 0)
		a->netfile = argv[next];
	if (nargs > 1)
		a->lftfile = argv[next + 1];
	return -1;
}

/*
 * The live fabric and its tables.  With --engine E, E routes the
 * discovered fabric first (*promiser, for find_promise() too): its path
 * SLs are the classes a sample of path records covers (live.h).
 */
static int read_live(struct check_args *a, struct ot_fabric **f,
		     struct ot_routing **r, struct ot_routing **promiser,
		     struct ot_mcast **mc, struct ot_error *err)
{
	struct ot_live_opts o = a->live_opts;
	struct ot_error engine_err = { 0 }, mc_err = { 0 };
	int rc;

	o.path_bound = a->path_bound;
	if (ot_live_discover(&o, f, err))
		return -1;
	/* E refusing the fabric is find_promise()'s finding to report */
	if (a->promise_of && !a->no_promise &&
	    !tool_run_engine(ot_engine_find(a->promise_of), *f, a->spread,
			     a->max_vls, promiser, &engine_err))
		o.sl_model = *promiser;
	if (a->qos) {
		a->vlarb = ot_vlarb_new(*f);
		if (!a->vlarb)
			return ot_error_nomem(err, "vlarb");
		o.vlarb = a->vlarb;
	}
	if (ot_live_read_routing(&o, *f, r, err))
		return -1;
	if (a->no_mcast)
		return 0;
	if ((*r)->path_sl_unknown) {
		/* ot_live_read_routing() said why the SA is silent */
		fprintf(stderr,
			"osmtopo check: note: multicast not checked (no SA answered)\n");
		return 0;
	}
	rc = ot_live_read_mcast(&o, *f, mc, &mc_err);
	if (rc < 0)
		return ot_refuse(err, mc_err.cls, "%s", mc_err.msg);
	if (rc > 0)
		fprintf(stderr,
			"osmtopo check: note: multicast not checked (%s)\n",
			mc_err.msg);
	return 0;
}

/*
 * The routing whose promise to hold the tables to (*by): --engine E's,
 * stated by E routing the same fabric offline (*promiser, freed by the
 * caller), or with --route the engine's own.  E refusing the fabric is a
 * finding.
 */
static int find_promise(const struct check_args *a, const struct ot_fabric *f,
			const struct ot_routing *r,
			struct ot_routing **promiser,
			const struct ot_routing **by)
{
	struct ot_error err = { 0 };

	*by = NULL;
	if (a->promise_of && *promiser) {
		/* read_live() ran it already */
		if ((*promiser)->promise.text)
			*by = *promiser;
		else
			fprintf(stderr, "osmtopo check: note: %s promises nothing to check\n",
				a->promise_of);
		return OT_EXIT_OK;
	}
	if (!a->promise_of) {
		if (a->engine && r->promise.text)
			*by = r;
		return OT_EXIT_OK;
	}
	if (tool_run_engine(ot_engine_find(a->promise_of), f, a->spread,
			    a->max_vls, promiser, &err)) {
		fprintf(stderr,
			"osmtopo check: the fabric is not what %s routes: %s\n",
			a->promise_of, err.msg);
		return OT_EXIT_FAIL;
	}
	if ((*promiser)->promise.text)
		*by = *promiser;
	else
		fprintf(stderr, "osmtopo check: note: %s promises nothing to check\n",
			a->promise_of);
	return OT_EXIT_OK;
}

/* Says on stderr what the credit loop check could not know. */
static void note_assumptions(const struct check_args *a,
			     const struct ot_routing *r)
{
	if (a->lftfile)
		fprintf(stderr,
			"osmtopo check: note: LFT files hold no SL2VL tables; credit loops are checked on VL 0\n");
	else if (a->osmdump && !r->path_sl)
		fprintf(stderr,
			"osmtopo check: note: OpenSM's dump files hold no path SLs; every path is checked on SL 0\n");
	else if (a->osmdump && ot_pathsl_source(r))
		fprintf(stderr,
			"osmtopo check: path SLs from %s/osmtopo-path-sl.dump (%s)\n",
			a->osmdump, ot_pathsl_source(r));
	/* --live without path SLs: ot_live_read_routing() says why */
}

/* The SVG picture of the link loads, titled with the fabric's name. */
static int write_plot(const struct check_args *a,
		      const struct ot_check_report *rep)
{
	const char *title = "live fabric";
	FILE *out = fopen(a->plot, "w");
	int error;

	if (a->netfile) {
		/* the file's name, not where it lies */
		title = strrchr(a->netfile, '/');
		title = title ? title + 1 : a->netfile;
	}

	if (!out) {
		fprintf(stderr, "osmtopo check: %s: %s\n", a->plot,
			strerror(errno));
		return -1;
	}
	error = ot_balance_plot_svg(out, ot_check_balance(rep), title);
	if (fclose(out))
		error = -1;
	if (error)
		fprintf(stderr, "osmtopo check: writing %s failed\n",
			a->plot);
	return error;
}

/*
 * --expect FAMILY: the cabling against the family, and the cables to move
 * when a few break it.  OT_EXIT_OK when it is one, OT_EXIT_FAIL with
 * the report (or why it is none) otherwise.
 */
static int check_expect(const struct check_args *a)
{
	struct ot_miscabling m = { 0 };
	struct ot_fabric *f = NULL;
	struct ot_error err = { 0 };
	char line[1024];
	unsigned int i;
	int status = OT_EXIT_USAGE;

	if (a->live ? ot_live_discover(&a->live_opts, &f, &err) :
		      !(f = ot_netfile_load(a->netfile, &err))) {
		fprintf(stderr, "osmtopo check: %s\n", err.msg);
		goto out;
	}
	status = OT_EXIT_FAIL;
	if (a->expect->miscabling(f, &m, &err)) {
		printf("not %s: %s\n", a->expect->name, err.msg);
	} else if (!m.n) {
		printf("the cabling is %s\n", a->expect->name);
		status = OT_EXIT_OK;
	} else {
		printf("not %s: %u cable(s) to move, then it is one:\n",
		       a->expect->name, m.n);
		for (i = 0; i < m.n; i++) {
			ot_miscable_format(f, &m.cable[i], line, sizeof(line));
			printf("  %s\n", line);
		}
	}
out:
	ot_miscabling_free(&m);
	ot_fabric_free(f);
	return status;
}

/*
 * --qos: the VL arbitration read back against the class table, printed
 * with the check's report.  The exit status covers both.
 */
static int check_qos(const struct check_args *a, const struct ot_routing *r,
		     const struct ot_check_report *rep)
{
	struct ot_qos_check_opts o = { .sls = a->qos_sls,
				       .strict = a->strict,
				       .vlarb = a->vlarb,
				       .max_examples = a->examples };
	struct ot_qos_check_report *q = NULL;
	struct ot_error err = { 0 };
	struct ot_qos_table t;
	int status = OT_EXIT_USAGE;

	if (ot_qos_load(a->qos, &t, &err)) {
		fprintf(stderr, "osmtopo check: %s\n", err.msg);
		return OT_EXIT_USAGE;
	}
	o.table = &t;
	if (ot_qos_check_run(r, &o, &q, &err)) {
		fprintf(stderr, "osmtopo check: %s\n", err.msg);
		return OT_EXIT_USAGE;
	}
	if (ot_qos_check_counts(q)->idle_classes)
		fprintf(stderr,
			"osmtopo check: %s: %u QoS class(es) reach no port: no pair's path SL is theirs (see the report)%s\n",
			a->strict ? "failing" : "warning",
			ot_qos_check_counts(q)->idle_classes,
			a->strict ? "" : "; --strict fails on it");
	if (ot_qos_check_print(stdout, rep, q, a->json) || fflush(stdout))
		fprintf(stderr, "osmtopo check: writing the report: %s\n",
			strerror(errno));
	else
		status = ot_check_ok(rep) && ot_qos_check_ok(q) ?
				 OT_EXIT_OK : OT_EXIT_FAIL;
	ot_qos_check_free(q);
	return status;
}

int cmd_check(int argc, char **argv)
{
	struct check_args a = { .traffic = { .seed = 1 } };
	struct ot_fabric *f = NULL;
	struct ot_routing *r = NULL;
	struct ot_check_report *rep = NULL;
	struct ot_check_opts opts = { 0 };
	struct ot_error err = { 0 };
	struct ot_routing *promiser = NULL;
	struct ot_mcast *mc = NULL;
	int status;

	status = parse_args(argc, argv, &a);
	if (status >= 0)
		return status;
	if (a.expect)
		return check_expect(&a);

	/* A class table that does not load fails now, not after the read. */
	if (a.qos) {
		struct ot_qos_table t;

		if (ot_qos_load(a.qos, &t, &err)) {
			fprintf(stderr, "osmtopo check: %s\n", err.msg);
			return OT_EXIT_USAGE;
		}
	}
	if (a.live) {
		status = read_live(&a, &f, &r, &promiser, &mc, &err) ?
				 OT_EXIT_USAGE :
						       OT_EXIT_OK;
	} else if (a.engine) {
		status = tool_route_netfile(a.engine, a.netfile,
					    a.lmc_given ? (int)a.lmc : -1,
					    a.spread, a.max_vls, &f, &r, &err);
	} else if (a.osmdump) {
		status = ot_osmdump_load(a.osmdump, &f, &r, &err) ?
				 OT_EXIT_USAGE : OT_EXIT_OK;
	} else {
		status = tool_load_lft_files(a.netfile, a.lftfile, &f, &r,
					     &err) ? OT_EXIT_USAGE : OT_EXIT_OK;
	}
	if (status != OT_EXIT_OK) {
		fprintf(stderr, "osmtopo check: %s\n", err.msg);
		goto out;
	}

	if (!a.no_promise) {
		status = find_promise(&a, f, r, &promiser, &opts.promiser);
		if (status != OT_EXIT_OK)
			goto out;
	}
	opts.max_examples = a.examples;
	opts.mcast = mc;
	if (!a.no_balance)
		opts.balance = &a.traffic;

	note_assumptions(&a, r);
	if (ot_check_run_confirmed(f, r, &opts, &rep, &err)) {
		fprintf(stderr, "osmtopo check: %s\n", err.msg);
		status = OT_EXIT_USAGE;
		goto out;
	}
	if (a.qos) {
		status = check_qos(&a, r, rep);
	} else if (ot_check_print(stdout, rep, a.json) || fflush(stdout)) {
		fprintf(stderr, "osmtopo check: writing the report: %s\n",
			strerror(errno));
		status = OT_EXIT_USAGE;
	} else {
		status = ot_check_ok(rep) ? OT_EXIT_OK : OT_EXIT_FAIL;
	}
	if (status != OT_EXIT_USAGE && a.plot && write_plot(&a, rep))
		status = OT_EXIT_USAGE;
out:
	ot_check_report_free(rep);
	ot_vlarb_free(a.vlarb);
	ot_routing_free(promiser);
	ot_mcast_free(mc);
	ot_routing_free(r);
	ot_fabric_free(f);
	return status;
}
