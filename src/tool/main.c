// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * osmtopo, the command-line tool around the plugin: generate fabrics,
 * route them offline with the engines OpenSM runs, read what a live
 * fabric holds and check it, compare engines under ibsim, and run the
 * simulation itself.  This file only dispatches to subcommands.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "util.h"

struct subcommand {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *help;
};

static const struct subcommand subcommands[] = {
	{ "gen", cmd_gen, "write an ibsim net file of a topology" },
	{ "route", cmd_route,
	  "route a net file offline: coordinates and LFTs (dump_lfts format)" },
	{ "check", cmd_check,
	  "check routing state: reachability, loops, hops, credit loops" },
	{ "fabric", cmd_fabric,
	  "discover a live fabric and print it as a net file with LIDs" },
	{ "lfts", cmd_lfts, "read every switch's LFT from a live fabric" },
	{ "compare", cmd_compare,
	  "run engines side by side under ibsim and OpenSM, one row each" },
	{ "qos", cmd_qos,
	  "VL arbitration tables of a QoS class table (DTable, SBT)" },
	{ "simulate", cmd_simulate,
	  "simulate a routing's tables packet by packet: saturation, latency, deadlock" },
	{ "sim", cmd_sim,
	  "start ibsim and OpenSM, run clients against them, stop them" },
};

#define NSUB (sizeof(subcommands) / sizeof(subcommands[0]))

static void usage(FILE *out)
{
	unsigned int i;

	fprintf(out, "usage: osmtopo COMMAND [ARGS]\n\ncommands:\n");
	for (i = 0; i < NSUB; i++)
		fprintf(out, "  %-8s %s\n", subcommands[i].name,
			subcommands[i].help);
	fprintf(out, "\nengines:\n");
	tool_print_engines(out);
	fprintf(out, "\n'osmtopo COMMAND --help' describes a command.\n");
}

int main(int argc, char **argv)
{
	unsigned int i;

	if (argc < 2) {
		usage(stderr);
		return OT_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return OT_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("osmtopo %s\n", PACKAGE_VERSION);
		return OT_EXIT_OK;
	}
	for (i = 0; i < NSUB; i++)
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "osmtopo: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return OT_EXIT_USAGE;
}
