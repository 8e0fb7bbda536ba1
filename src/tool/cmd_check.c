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
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "check/traffic.h"
#include "commands.h"
#include "io/lftfile.h"
#include "io/netfile.h"
#include "io/osmdump.h"
#include "live/live.h"
#include "model/routing.h"
#include "options.h"
#include "route/engine.h"
#include "topo/flatfly.h"
#include "topo/kns.h"

static const struct tool_option check_options[] = {
	{ "route", 'r', "ENGINE",
	  "route NETFILE offline with ENGINE and check the result" },
	{ "osm-dump", 'D', "DIR",
	  "check OpenSM's dump files in DIR (opensm -D 0x43 --dump_files_dir DIR)" },
	{ "lmc", 'm', "N",
	  "with --route: number LIDs as OpenSM does with option lmc N" },
	{ "live", 'L', NULL,
	  "check the fabric this host is cabled to, as it is programmed" },
	{ "Ca", 'C', "CA",
	  "local CA for --live (default: the first)" },
	{ "Port", 'P', "PORT",
	  "local port for --live (default: the first active)" },
	{ "engine", 'e', "ENGINE",
	  "hold the tables to what ENGINE promises, routing the fabric with it offline (default with --route: that engine)" },
	{ "no-promise", 'N', NULL,
	  "check no engine's promise, only reachability, loops and credit loops" },
	{ "json", 'j', NULL,
	  "print the report as one JSON object" },
	{ "examples", 'n', "N",
	  "list up to N problems of each kind (default 5)" },
	{ "patterns", 'p', "LIST",
	  "traffic patterns for link balance (default all, see above)" },
	{ "random", 'R', "N",
	  "random permutations among the patterns (default 1)" },
	{ "seed", 'S', "SEED",
	  "seed of the first random permutation (default 1)" },
	{ "ca-order", 'O', "ORDER",
	  "number the CAs for the patterns by 'file' order or 'guid'" },
	{ "no-balance", 'B', NULL,
	  "skip the link balance figures" },
	{ "plot", 'g', "FILE",
	  "write an SVG picture of the link loads per pattern to FILE" },
	{ "help", 'h', NULL, "this help" },
};

#define NOPTIONS (sizeof(check_options) / sizeof(check_options[0]))

static void check_usage(FILE *out)
{
	unsigned int i;

	fprintf(out,
		"usage: osmtopo check [OPTIONS] NETFILE LFTFILE\n"
		"       osmtopo check [OPTIONS] --route ENGINE [--lmc N] NETFILE\n"
		"       osmtopo check [OPTIONS] --osm-dump DIR\n"
		"       osmtopo check [OPTIONS] --live [-C CA] [-P PORT]\n\n"
		"Checks a fabric's unicast routing: every CA port reaches every CA\n"
		"LID (each LID of an LMC range on its own), without a forwarding\n"
		"loop; path lengths against the shortest path of the cabling; and\n"
		"no credit loop in the channel dependency graph over (link, VL).\n\n"
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
		"Paths go to the base LID; with LMC > 0 also spread evenly over\n"
		"the LIDs, and the best LID per flow, chosen greedily.\n\n"
		"options:\n");
	tool_print_options(out, check_options, NOPTIONS);
	fprintf(out, "\nengines for --route and --engine:\n");
	for (i = 0; ot_engines[i]; i++)
		fprintf(out, "  %-20s %s\n", ot_engines[i]->name,
			ot_engines[i]->needs);
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

/* A whole number in [min, max], or -1. */
static long parse_number(const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	return v;
}

/* A seed: any 64-bit number, decimal or 0x hex. */
static int parse_seed(const char *s, uint64_t *seed)
{
	char *end;

	errno = 0;
	if (*s == '-')
		return -1;
	*seed = strtoull(s, &end, 0);
	return errno || end == s || *end ? -1 : 0;
}

struct check_args {
	const char *engine;   /* --route */
	const char *osmdump;  /* --osm-dump */
	int lmc;              /* --lmc, -1 if not given */
	bool live;
	struct ot_live_opts live_opts;
	bool live_opts_given;
	const char *promise_of; /* --engine */
	bool no_promise;
	bool json;
	unsigned int examples;
	bool no_balance;
	struct ot_traffic_opts traffic;
	const char *plot;
	const char *netfile, *lftfile;
};

/*
 * OT_EXIT_OK when args is filled, -1 when --help was answered, otherwise
 * the status to exit with.
 */
static int parse_args(int argc, char **argv, struct check_args *a)
{
	struct option longopts[NOPTIONS + 1];
	char shortopts[2 * NOPTIONS + 1];
	struct ot_error err;
	long v;
	int c;

	tool_getopt_tables(check_options, NOPTIONS, longopts, shortopts);

	optind = 1;
	for (;;) {
		c = getopt_long(argc, argv, shortopts, longopts, NULL);
		if (c < 0)
			break;
		switch (c) {
		case 'r':
			a->engine = optarg;
			break;
		case 'D':
			a->osmdump = optarg;
			break;
		case 'm':
			v = parse_number(optarg, 0, 7);
			if (v < 0) {
				fprintf(stderr,
					"osmtopo check: --lmc takes 0 to 7\n");
				return OT_EXIT_USAGE;
			}
			a->lmc = (int)v;
			break;
		case 'L':
			a->live = true;
			break;
		case 'C':
			a->live_opts.ca = optarg;
			a->live_opts_given = true;
			break;
		case 'P':
			v = parse_number(optarg, 1, 254);
			if (v < 0) {
				fprintf(stderr,
					"osmtopo check: bad port '%s'\n",
					optarg);
				return OT_EXIT_USAGE;
			}
			a->live_opts.port = (int)v;
			a->live_opts_given = true;
			break;
		case 'e':
			if (!ot_engine_find(optarg)) {
				fprintf(stderr,
					"osmtopo check: no engine '%s' (see --help)\n",
					optarg);
				return OT_EXIT_USAGE;
			}
			a->promise_of = optarg;
			break;
		case 'N':
			a->no_promise = true;
			break;
		case 'j':
			a->json = true;
			break;
		case 'n':
			v = parse_number(optarg, 1, 1000000);
			if (v < 0) {
				fprintf(stderr,
					"osmtopo check: bad number of examples '%s'\n",
					optarg);
				return OT_EXIT_USAGE;
			}
			a->examples = (unsigned int)v;
			break;
		case 'p':
			if (ot_pattern_parse_list(optarg, &a->traffic.patterns,
						  &err)) {
				fprintf(stderr, "osmtopo check: %s\n",
					err.msg);
				return OT_EXIT_USAGE;
			}
			break;
		case 'R':
			v = parse_number(optarg, 1, 100000);
			if (v < 0) {
				fprintf(stderr,
					"osmtopo check: bad number of permutations '%s'\n",
					optarg);
				return OT_EXIT_USAGE;
			}
			a->traffic.nrandom = (unsigned int)v;
			break;
		case 'S':
			if (parse_seed(optarg, &a->traffic.seed)) {
				fprintf(stderr, "osmtopo check: bad seed '%s'\n",
					optarg);
				return OT_EXIT_USAGE;
			}
			break;
		case 'O':
			if (!strcmp(optarg, "file")) {
				a->traffic.order = OT_CA_ORDER_FILE;
			} else if (!strcmp(optarg, "guid")) {
				a->traffic.order = OT_CA_ORDER_GUID;
			} else {
				fprintf(stderr,
					"osmtopo check: CA order is 'file' or 'guid', not '%s'\n",
					optarg);
				return OT_EXIT_USAGE;
			}
			break;
		case 'B':
			a->no_balance = true;
			break;
		case 'g':
			a->plot = optarg;
			break;
		case 'h':
			check_usage(stdout);
			return -1;
		default:
			check_usage(stderr);
			return OT_EXIT_USAGE;
		}
	}
	argc -= optind;
	argv += optind;
	if (!!a->live + !!a->engine + !!a->osmdump > 1) {
		fprintf(stderr,
			"osmtopo check: one source: --live, --route or --osm-dump\n");
		return OT_EXIT_USAGE;
	}
	if (a->no_promise && a->promise_of) {
		fprintf(stderr,
			"osmtopo check: --engine and --no-promise exclude each other\n");
		return OT_EXIT_USAGE;
	}
	if (a->lmc >= 0 && !a->engine) {
		fprintf(stderr, "osmtopo check: --lmc goes with --route\n");
		return OT_EXIT_USAGE;
	}
	if (a->no_balance && a->plot) {
		fprintf(stderr,
			"osmtopo check: --plot needs the balance figures (no --no-balance)\n");
		return OT_EXIT_USAGE;
	}
	if (a->live_opts_given && !a->live) {
		fprintf(stderr, "osmtopo check: -C and -P need --live\n");
		return OT_EXIT_USAGE;
	}
	if (argc != (a->live || a->osmdump ? 0 : a->engine ? 1 : 2)) {
		check_usage(stderr);
		return OT_EXIT_USAGE;
	}
	if (argc > 0)
		a->netfile = argv[0];
	if (argc > 1)
		a->lftfile = argv[1];
	return OT_EXIT_OK;
}

/* A net file and the dump_lfts text of the tables programmed into it. */
static int load_files(const struct check_args *a, struct ot_fabric **f,
		      struct ot_routing **r, struct ot_error *err)
{
	FILE *in = NULL;
	int error = -1;

	*f = ot_netfile_load(a->netfile, err);
	if (!*f)
		goto out;
	*r = ot_routing_new(*f);
	if (!*r) {
		ot_error_set(err, "out of memory");
		goto out;
	}
	if (!strcmp(a->lftfile, "-")) {
		if (!strcmp(a->netfile, "-")) {
			ot_error_set(err, "only one of the files can be '-'");
			goto out;
		}
		in = stdin;
	} else {
		in = fopen(a->lftfile, "r");
		if (!in) {
			ot_error_set(err, "%s: %s", a->lftfile,
				     strerror(errno));
			goto out;
		}
	}
	if (ot_lft_read(in, a->lftfile, *r, err))
		goto out;
	error = 0;
out:
	if (in && in != stdin)
		fclose(in);
	return error;
}

/* A net file routed by an engine here and now.  Refusal is a finding. */
static int route_file(const struct check_args *a, struct ot_fabric **f,
		      struct ot_routing **r, struct ot_error *err)
{
	const struct ot_engine *e = ot_engine_find(a->engine);

	if (!e) {
		ot_error_set(err, "no engine '%s' (see --help)", a->engine);
		return OT_EXIT_USAGE;
	}
	*f = ot_netfile_load(a->netfile, err);
	if (!*f)
		return OT_EXIT_USAGE;
	if (a->lmc >= 0 && ot_fabric_set_ca_lmc(*f, (uint8_t)a->lmc, err))
		return OT_EXIT_USAGE;
	if (ot_engine_run(e, *f, r, err))
		return OT_EXIT_FAIL;
	return OT_EXIT_OK;
}

static int read_live(const struct check_args *a, struct ot_fabric **f,
		     struct ot_routing **r, struct ot_error *err)
{
	if (ot_live_discover(&a->live_opts, f, err) ||
	    ot_live_read_routing(&a->live_opts, *f, r, err))
		return -1;
	return 0;
}

/*
 * The promise to hold the tables to: --engine E's, stated by E routing
 * the same fabric offline (*promiser, freed by the caller), or with
 * --route the engine's own.  E refusing the fabric is a finding.
 */
static int find_promise(const struct check_args *a, const struct ot_fabric *f,
			const struct ot_routing *r,
			struct ot_routing **promiser,
			const struct ot_promise **promise)
{
	struct ot_error err = { 0 };

	*promise = NULL;
	if (!a->promise_of) {
		if (a->engine && r->promise.text)
			*promise = &r->promise;
		return OT_EXIT_OK;
	}
	if (ot_engine_run(ot_engine_find(a->promise_of), f, promiser, &err)) {
		fprintf(stderr,
			"osmtopo check: the fabric is not what %s routes: %s\n",
			a->promise_of, err.msg);
		return OT_EXIT_FAIL;
	}
	if ((*promiser)->promise.text)
		*promise = &(*promiser)->promise;
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

int cmd_check(int argc, char **argv)
{
	struct check_args a = { .lmc = -1, .traffic = { .seed = 1 } };
	struct ot_fabric *f = NULL;
	struct ot_routing *r = NULL;
	struct ot_check_report *rep = NULL;
	struct ot_check_opts opts = { 0 };
	struct ot_error err = { 0 };
	struct ot_routing *promiser = NULL;
	int status;

	status = parse_args(argc, argv, &a);
	if (status < 0)
		return OT_EXIT_OK; /* --help */
	if (status != OT_EXIT_OK)
		return status;

	if (a.live) {
		status = read_live(&a, &f, &r, &err) ? OT_EXIT_USAGE :
						       OT_EXIT_OK;
	} else if (a.engine) {
		status = route_file(&a, &f, &r, &err);
	} else if (a.osmdump) {
		status = ot_osmdump_load(a.osmdump, &f, &r, &err) ?
				 OT_EXIT_USAGE : OT_EXIT_OK;
	} else {
		status = load_files(&a, &f, &r, &err) ? OT_EXIT_USAGE :
							OT_EXIT_OK;
	}
	if (status != OT_EXIT_OK) {
		fprintf(stderr, "osmtopo check: %s\n", err.msg);
		goto out;
	}

	if (!a.no_promise) {
		status = find_promise(&a, f, r, &promiser, &opts.promise);
		if (status != OT_EXIT_OK)
			goto out;
	}
	opts.max_examples = a.examples;
	if (!a.no_balance)
		opts.balance = &a.traffic;

	note_assumptions(&a, r);
	if (ot_check_run(f, r, &opts, &rep, &err)) {
		fprintf(stderr, "osmtopo check: %s\n", err.msg);
		status = OT_EXIT_USAGE;
		goto out;
	}
	if (ot_check_print(stdout, rep, a.json) || fflush(stdout)) {
		fprintf(stderr, "osmtopo check: writing the report: %s\n",
			strerror(errno));
		status = OT_EXIT_USAGE;
		goto out;
	}
	if (a.plot && write_plot(&a, rep)) {
		status = OT_EXIT_USAGE;
		goto out;
	}
	status = ot_check_ok(rep) ? OT_EXIT_OK : OT_EXIT_FAIL;
out:
	ot_check_report_free(rep);
	ot_routing_free(promiser);
	ot_routing_free(r);
	ot_fabric_free(f);
	return status;
}
