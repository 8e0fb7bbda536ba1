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
#include <arpa/inet.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "io/lftfile.h"
#include "io/netfile.h"
#include "live/live.h"
#include "options.h"
#include "util.h"

struct live_args {
	struct ot_live_opts opts;
	bool live, timing, all;
	const char *outpath;
	const char *join; /* fabric --join MGID */
};

#define ARGS struct live_args
static const struct tool_option live_options[] = {
	{ "live", 'l', NULL,
	  "read the fabric over MADs (required; the only source so far)",
	  TOOL_SET(ARGS, live) },
	{ "ca", 'C', "CA",
	  "local CA to send MADs through (default: the first)",
	  TOOL_STRING(ARGS, opts.ca) },
	{ "port", 'P', "PORT",
	  "port of that CA (default: the first active one)",
	  TOOL_INT(ARGS, opts.port, 0, 254) },
	{ "timeout", 't', "MS",
	  "per-MAD timeout in milliseconds (default: libibmad's)",
	  TOOL_INT(ARGS, opts.timeout_ms, 1, INT_MAX) },
	TOOL_OPTION_OUTPUT(ARGS, outpath),
	{ "all", 'a', NULL,
	  "lfts: also read SL2VL tables and path SLs (from the SA), as `route --dump` prints them",
	  TOOL_SET(ARGS, all) },
	{ "join", 'j', "MGID",
	  "fabric: join the local port to multicast group MGID (IPv6 notation, e.g. ff12:e001::1) as a full member, and print nothing else",
	  TOOL_STRING(ARGS, join) },
	{ "time", 'T', NULL,
	  "print discovery and reading times to standard error",
	  TOOL_SET(ARGS, timing) },
	TOOL_OPTION_HELP,
};
#undef ARGS

/* What the --help of each command says besides the options. */
struct live_help {
	const char *what;
	const char *examples;
};

static void live_usage(FILE *out, const struct tool_command *c)
{
	const struct live_help *h = c->help;

	fprintf(out, "usage: osmtopo %s --live [OPTIONS]\n\n%s\n\n", c->name,
		h->what);
	tool_print_options(out, c);
	fprintf(out,
		"\nUnder ibsim, run it as any libibumad client:\n"
		"  LD_PRELOAD=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so \\\n"
		"  IBSIM_SOCKNAME=<the simulator's> osmtopo %s --live\n"
		"or with `osmtopo sim run --dir DIR -- osmtopo %s --live`.\n"
		"\nexamples:\n%s", c->name, c->name, h->examples);
}

/*
 * Parses the options both commands share.  Returns -1 to go on, or the
 * exit status when there is nothing more to do (--help, usage error).
 */
static int parse_live_args(int argc, char **argv,
			   const struct tool_command *c, struct live_args *a)
{
	int status, next;

	memset(a, 0, sizeof(*a));
	status = tool_parse(c, argc, argv, a, &next, NULL);
	if (status >= 0)
		return status;
	if (next != argc) {
		fprintf(stderr, "osmtopo %s: unexpected argument '%s'\n",
			c->name, argv[next]);
		return OT_EXIT_USAGE;
	}
	if (!a->live) {
		fprintf(stderr,
			"osmtopo %s: say where to read from: --live (see --help)\n",
			c->name);
		return OT_EXIT_USAGE;
	}
	return -1;
}

/* Discovers the fabric, saying how long it took with --time. */
static int discover(const char *cmd, const struct live_args *a,
		    struct ot_fabric **f)
{
	struct ot_error err = { 0 };
	double t0 = tool_now();

	if (ot_live_discover(&a->opts, f, &err)) {
		fprintf(stderr, "osmtopo %s: %s\n", cmd, err.msg);
		return -1;
	}
	if (a->timing)
		fprintf(stderr,
			"osmtopo %s: discovered %u switches, %u CAs in %.3f s\n",
			cmd, (*f)->nswitches, (*f)->ncas, tool_now() - t0);
	return 0;
}

/* fabric --join MGID: an SA join of the local port, for tests and demos. */
static int join_group(const struct live_args *a)
{
	struct ot_error err = { 0 };
	uint8_t mgid[16];

	if (inet_pton(AF_INET6, a->join, mgid) != 1 || mgid[0] != 0xff) {
		fprintf(stderr,
			"osmtopo fabric: --join: '%s' is no multicast GID (ff..::..)\n",
			a->join);
		return OT_EXIT_USAGE;
	}
	if (ot_live_mcast_join(&a->opts, mgid, &err)) {
		fprintf(stderr, "osmtopo fabric: --join %s: %s\n", a->join,
			err.msg);
		return OT_EXIT_FAIL;
	}
	printf("joined %s\n", a->join);
	return OT_EXIT_OK;
}

static const struct live_help fabric_help = {
	"Discovers the fabric and prints it as an ibsim net file with\n"
	"node GUIDs, port GUIDs and the LIDs the subnet manager gave.",
	"  osmtopo fabric --live                  # through the first CA\n"
	"  osmtopo fabric --live -C mlx5_0 -P 1 -o fabric.net\n"
	"  osmtopo fabric --live > f.net && osmtopo route hdor f.net\n"
	"  osmtopo fabric --live --join ff12:e001::1   # a multicast group\n",
};

static const struct tool_command fabric_command = {
	"fabric", live_options, TOOL_NOPTIONS(live_options), live_usage,
	&fabric_help,
};

int cmd_fabric(int argc, char **argv)
{
	struct ot_fabric *f = NULL;
	struct live_args a;
	char comment[128];
	struct tool_net net = { NULL, comment };
	int status;

	status = parse_live_args(argc, argv, &fabric_command, &a);
	if (status >= 0)
		return status;
	if (a.all) {
		fprintf(stderr, "osmtopo fabric: --all goes with lfts\n");
		return OT_EXIT_USAGE;
	}
	if (a.join)
		return join_group(&a);
	if (discover("fabric", &a, &f))
		return OT_EXIT_USAGE;
	snprintf(comment, sizeof(comment),
		 "discovered by osmtopo fabric --live: %u switches, %u CAs, highest LID %u",
		 f->nswitches, f->ncas, f->max_lid);
	net.f = f;
	status = tool_write_output("fabric", a.outpath, tool_write_net, &net);
	ot_fabric_free(f);
	return status;
}

static const struct live_help lfts_help = {
	"Discovers the fabric and reads every switch's linear forwarding\n"
	"table block by block up to its LinearFDBTop, and prints them in\n"
	"dump_lfts format with every LID (dump_lfts itself can miss the\n"
	"highest one).",
	"  osmtopo lfts --live > live.lfts\n"
	"  osmtopo lfts --live -C mlx5_0 -P 1 -o live.lfts\n"
	"  osmtopo route --lfts-only hdor f.net | diff - live.lfts\n",
};

static const struct tool_command lfts_command = {
	"lfts", live_options, TOOL_NOPTIONS(live_options), live_usage,
	&lfts_help,
};

/* What lfts prints: LFTs, with --all also SL2VL and path SLs. */
struct lfts_output {
	const struct ot_routing *r;
	bool all;
};

static int write_lfts(FILE *out, const void *what)
{
	const struct lfts_output *o = what;

	if (ot_lft_write(out, o->r))
		return -1;
	return o->all ? ot_tables_write(out, o->r) : 0;
}

int cmd_lfts(int argc, char **argv)
{
	struct ot_error err = { 0 };
	struct ot_routing *r = NULL;
	struct ot_fabric *f = NULL;
	struct lfts_output o;
	struct live_args a;
	double t0;
	int status;

	status = parse_live_args(argc, argv, &lfts_command, &a);
	if (status >= 0)
		return status;
	/* Unless --all, only LFTs: SL2VL would cost most of the MADs. */
	a.opts.skip_sl2vl = !a.all;
	a.opts.skip_path_sl = !a.all; /* and no SA queries either */
	if (discover("lfts", &a, &f))
		return OT_EXIT_USAGE;
	status = OT_EXIT_USAGE;
	t0 = tool_now();
	if (ot_live_read_routing(&a.opts, f, &r, &err)) {
		fprintf(stderr, "osmtopo lfts: %s\n", err.msg);
		goto out;
	}
	if (a.timing)
		fprintf(stderr,
			"osmtopo lfts: read LFTs of %u switches x %u LIDs in %.3f s\n",
			f->nswitches, f->max_lid, tool_now() - t0);
	o.r = r;
	o.all = a.all;
	status = tool_write_output("lfts", a.outpath, write_lfts, &o);
out:
	ot_routing_free(r);
	ot_fabric_free(f);
	return status;
}
