// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * `osmtopo fabric --live` and `osmtopo lfts --live`: what a running fabric
 * is and what its switches hold, in the same text formats the offline
 * commands write (a net file with GUIDs and LIDs; dump_lfts format with
 * every LID), so the two can be diffed or fed to `osmtopo check`.  The
 * reading itself is in live.c; this file parses options and prints.
 * --live names the source explicitly so that other sources (OpenSM dump
 * files, a saved fabric) can be added later without changing the meaning
 * of an existing command line.
 */
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "io/lftfile.h"
#include "io/netfile.h"
#include "live/live.h"
#include "options.h"

static const struct tool_option live_opts[] = {
	{ "live", 'l', NULL,
	  "read the fabric over MADs (required; the only source so far)" },
	{ "ca", 'C', "CA",
	  "local CA to send MADs through (default: the first)" },
	{ "port", 'P', "PORT",
	  "port of that CA (default: the first active one)" },
	{ "timeout", 't', "MS",
	  "per-MAD timeout in milliseconds (default: libibmad's)" },
	{ "output", 'o', "FILE",
	  "write to FILE instead of standard output" },
	{ "all", 'a', NULL,
	  "lfts: also read SL2VL tables and path SLs (from the SA), as `route --dump` prints them" },
	{ "time", 'T', NULL,
	  "print discovery and reading times to standard error" },
	{ "help", 'h', NULL, "this help" },
};

#define NOPTS (sizeof(live_opts) / sizeof(live_opts[0]))

struct live_args {
	struct ot_live_opts opts;
	bool live, timing, all;
	const char *outpath;
};

static void live_usage(FILE *out, const char *cmd, const char *what,
		       const char *const *examples)
{
	unsigned int i;

	fprintf(out, "usage: osmtopo %s --live [OPTIONS]\n\n%s\n\n", cmd,
		what);
	tool_print_options(out, live_opts, NOPTS);
	fprintf(out,
		"\nUnder ibsim, run it as any libibumad client:\n"
		"  LD_PRELOAD=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so \\\n"
		"  IBSIM_SOCKNAME=<the simulator's> osmtopo %s --live\n"
		"\nexamples:\n", cmd);
	for (i = 0; examples[i]; i++)
		fprintf(out, "  %s\n", examples[i]);
}

static int parse_int(const char *s, int min, int max, int *out)
{
	char *end;
	long v;

	v = strtol(s, &end, 0);
	if (end == s || *end || v < min || v > max)
		return -1;
	*out = (int)v;
	return 0;
}

/*
 * Parses the options both commands share.  Returns -1 to go on, or the
 * exit status when there is nothing more to do (--help, usage error).
 */
static int parse_live_args(int argc, char **argv, const char *cmd,
			   const char *what, const char *const *examples,
			   struct live_args *a)
{
	struct option longopts[NOPTS + 1];
	char shortopts[2 * NOPTS + 1];
	int c;

	memset(a, 0, sizeof(*a));
	tool_getopt_tables(live_opts, NOPTS, longopts, shortopts);

	optind = 1;
	for (;;) {
		c = getopt_long(argc, argv, shortopts, longopts, NULL);
		if (c < 0)
			break;
		switch (c) {
		case 'l':
			a->live = true;
			break;
		case 'C':
			a->opts.ca = optarg;
			break;
		case 'P':
			if (parse_int(optarg, 0, 254, &a->opts.port)) {
				fprintf(stderr, "osmtopo %s: bad port '%s'\n",
					cmd, optarg);
				return OT_EXIT_USAGE;
			}
			break;
		case 't':
			if (parse_int(optarg, 1, INT_MAX, &a->opts.timeout_ms)) {
				fprintf(stderr,
					"osmtopo %s: bad timeout '%s'\n", cmd,
					optarg);
				return OT_EXIT_USAGE;
			}
			break;
		case 'o':
			a->outpath = optarg;
			break;
		case 'T':
			a->timing = true;
			break;
		case 'a':
			a->all = true;
			break;
		case 'h':
			live_usage(stdout, cmd, what, examples);
			return OT_EXIT_OK;
		default:
			live_usage(stderr, cmd, what, examples);
			return OT_EXIT_USAGE;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "osmtopo %s: unexpected argument '%s'\n", cmd,
			argv[optind]);
		return OT_EXIT_USAGE;
	}
	if (!a->live) {
		fprintf(stderr,
			"osmtopo %s: say where to read from: --live (see --help)\n",
			cmd);
		return OT_EXIT_USAGE;
	}
	return -1;
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0->tv_sec) + (t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Opens the output; NULL (after saying why) when it cannot. */
static FILE *open_output(const char *cmd, const char *path)
{
	FILE *out;

	if (!path)
		return stdout;
	out = fopen(path, "w");
	if (!out)
		fprintf(stderr, "osmtopo %s: %s: %m\n", cmd, path);
	return out;
}

/* Closes the output; a failed flush or close makes the run fail. */
static int close_output(const char *cmd, FILE *out, int status)
{
	int bad;

	if (!out)
		return status;
	bad = out == stdout ? fflush(out) : fclose(out);
	if (bad && status == OT_EXIT_OK) {
		fprintf(stderr, "osmtopo %s: write error: %m\n", cmd);
		return OT_EXIT_USAGE;
	}
	return status;
}

static const char *const fabric_examples[] = {
	"osmtopo fabric --live                  # through the first CA",
	"osmtopo fabric --live -C mlx5_0 -P 1 -o fabric.net",
	"osmtopo fabric --live > f.net && osmtopo route hdor f.net",
	NULL,
};

int cmd_fabric(int argc, char **argv)
{
	struct ot_error err = { 0 };
	struct ot_fabric *f = NULL;
	struct live_args a;
	struct timespec t0;
	FILE *out = NULL;
	char comment[128];
	int status;

	status = parse_live_args(argc, argv, "fabric",
				 "Discovers the fabric and prints it as an ibsim net file with\n"
				 "node GUIDs, port GUIDs and the LIDs the subnet manager gave.",
				 fabric_examples, &a);
	if (status >= 0)
		return status;
	if (a.all) {
		fprintf(stderr, "osmtopo fabric: --all goes with lfts\n");
		return OT_EXIT_USAGE;
	}
	status = OT_EXIT_USAGE;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (ot_live_discover(&a.opts, &f, &err)) {
		fprintf(stderr, "osmtopo fabric: %s\n", err.msg);
		goto out;
	}
	if (a.timing)
		fprintf(stderr,
			"osmtopo fabric: discovered %u switches, %u CAs in %.3f s\n",
			f->nswitches, f->ncas, seconds_since(&t0));

	out = open_output("fabric", a.outpath);
	if (!out)
		goto out;
	snprintf(comment, sizeof(comment),
		 "discovered by osmtopo fabric --live: %u switches, %u CAs, highest LID %u",
		 f->nswitches, f->ncas, f->max_lid);
	if (ot_netfile_write(out, f, comment)) {
		fprintf(stderr, "osmtopo fabric: write error\n");
		goto out;
	}
	status = OT_EXIT_OK;
out:
	status = close_output("fabric", out, status);
	ot_fabric_free(f);
	return status;
}

static const char *const lfts_examples[] = {
	"osmtopo lfts --live > live.lfts",
	"osmtopo lfts --live -C mlx5_0 -P 1 -o live.lfts",
	"osmtopo route --lfts-only hdor f.net | diff - live.lfts",
	NULL,
};

int cmd_lfts(int argc, char **argv)
{
	struct ot_error err = { 0 };
	struct ot_routing *r = NULL;
	struct ot_fabric *f = NULL;
	struct live_args a;
	struct timespec t0;
	FILE *out = NULL;
	int status;

	status = parse_live_args(argc, argv, "lfts",
				 "Discovers the fabric and reads every switch's linear forwarding\n"
				 "table block by block up to its LinearFDBTop, and prints them in\n"
				 "dump_lfts format with every LID (dump_lfts itself can miss the\n"
				 "highest one).",
				 lfts_examples, &a);
	if (status >= 0)
		return status;
	status = OT_EXIT_USAGE;
	/* Unless --all, only LFTs: SL2VL would cost most of the MADs. */
	a.opts.skip_sl2vl = !a.all;
	a.opts.skip_path_sl = !a.all; /* and no SA queries either */

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (ot_live_discover(&a.opts, &f, &err)) {
		fprintf(stderr, "osmtopo lfts: %s\n", err.msg);
		goto out;
	}
	if (a.timing)
		fprintf(stderr,
			"osmtopo lfts: discovered %u switches, %u CAs in %.3f s\n",
			f->nswitches, f->ncas, seconds_since(&t0));

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (ot_live_read_routing(&a.opts, f, &r, &err)) {
		fprintf(stderr, "osmtopo lfts: %s\n", err.msg);
		goto out;
	}
	if (a.timing)
		fprintf(stderr,
			"osmtopo lfts: read LFTs of %u switches x %u LIDs in %.3f s\n",
			f->nswitches, f->max_lid, seconds_since(&t0));

	out = open_output("lfts", a.outpath);
	if (!out)
		goto out;
	if (ot_lft_write(out, r) || (a.all && ot_tables_write(out, r))) {
		fprintf(stderr, "osmtopo lfts: write error\n");
		goto out;
	}
	status = OT_EXIT_OK;
out:
	status = close_output("lfts", out, status);
	ot_routing_free(r);
	ot_fabric_free(f);
	return status;
}
