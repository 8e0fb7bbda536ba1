// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The option tables of the osmtopo subcommands (see options.h): one
 * declaration per option gives both getopt_long's tables and --help.
 */
#include <string.h>

#include "options.h"

void tool_getopt_tables(const struct tool_option *o, unsigned int n,
			struct option *longopts, char *shortopts)
{
	unsigned int i, k = 0;

	for (i = 0; i < n; i++) {
		longopts[i].name = o[i].name;
		longopts[i].has_arg = o[i].arg ? required_argument :
						 no_argument;
		longopts[i].flag = NULL;
		longopts[i].val = o[i].key;
		shortopts[k++] = (char)o[i].key;
		if (o[i].arg)
			shortopts[k++] = ':';
	}
	memset(&longopts[n], 0, sizeof(longopts[n]));
	shortopts[k] = '\0';
}

void tool_print_options(FILE *out, const struct tool_option *o,
			unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		char left[48];

		snprintf(left, sizeof(left), "-%c, --%s%s%s", o[i].key,
			 o[i].name, o[i].arg ? " " : "",
			 o[i].arg ? o[i].arg : "");
		fprintf(out, "  %-26s %s\n", left, o[i].help);
	}
}
