/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Command-line options of the osmtopo subcommands, declared once as a
 * table with a help string each (as infiniband-diags does) and turned into
 * getopt_long's tables and the --help text from there.
 */
#ifndef OSMTOPO_OPTIONS_H
#define OSMTOPO_OPTIONS_H

#include <getopt.h>
#include <stdio.h>

struct tool_option {
	const char *name; /* long name */
	int key;          /* short name, and what getopt_long returns */
	const char *arg;  /* argument name in the help; NULL for a flag */
	const char *help;
};

/*
 * getopt_long's tables for n options: longopts has room for n + 1
 * entries, shortopts for 2 * n + 1 characters.
 */
void tool_getopt_tables(const struct tool_option *o, unsigned int n,
			struct option *longopts, char *shortopts);

/* One "  -k, --name ARG   help" line per option. */
void tool_print_options(FILE *out, const struct tool_option *o,
			unsigned int n);

#endif
