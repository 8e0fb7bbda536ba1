// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Helpers shared by the osmtopo subcommands (see util.h).
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "io/netfile.h"
#include "route/engine.h"
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
