// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * `osmtopo route ENGINE NETFILE`: runs an engine offline on a net file or
 * ibnetdiscover output, with the very code OpenSM runs through the plugin,
 * and prints what it decided: the coordinates it assigned and the LFTs in
 * dump_lfts format, so they can be diffed against a live fabric.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <osmtopo/lftfile.h>
#include <osmtopo/netfile.h>
#include <osmtopo/routing.h>
#include "commands.h"

static const struct option route_options[] = {
	{ "lfts-only", no_argument, NULL, 'l' },
	{ "coords-only", no_argument, NULL, 'c' },
	{ "output", required_argument, NULL, 'o' },
	{ "time", no_argument, NULL, 't' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const char *const route_help[] = {
	"print only the LFTs (to diff against dump_lfts)",
	"print only the coordinates",
	"write to FILE instead of standard output",
	"print reading and routing times to standard error",
	"this help",
};

static void route_usage(FILE *out)
{
	unsigned int i;

	fprintf(out,
		"usage: osmtopo route [OPTIONS] ENGINE NETFILE\n\n"
		"Routes NETFILE (ibsim net file or ibnetdiscover output) with ENGINE\n"
		"and prints the coordinates it assigned (lines starting with '#')\n"
		"and every switch's LFT in dump_lfts format.  LIDs come from the\n"
		"file, or are assigned in file order where it has none.\n\n");
	for (i = 0; route_options[i].name; i++)
		fprintf(out, "  -%c, --%-12s %s\n", route_options[i].val,
			route_options[i].name, route_help[i]);
	fprintf(out, "\nengines:\n");
	for (i = 0; ot_engines[i]; i++)
		fprintf(out, "  %-8s %s\n", ot_engines[i]->name,
			ot_engines[i]->needs);
	fprintf(out,
		"\nexamples:\n"
		"  osmtopo route hdor topologies/cellia-kns-6x2.net\n"
		"  osmtopo route --lfts-only hdor fabric.ibnd > offline.lfts\n");
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0->tv_sec) + (t1.tv_nsec - t0->tv_nsec) / 1e9;
}

static int print_coords(FILE *out, const struct ot_routing *r)
{
	uint32_t i;

	for (i = 0; i < r->fabric->nnodes; i++) {
		const struct ot_node *n = &r->fabric->node[i];

		if (!r->label[i])
			continue;
		if (fprintf(out, "# %-24s %-6s 0x%016llx \"%s\"\n",
			    r->label[i], ot_node_type_str(n->type),
			    (unsigned long long)n->guid, n->desc) < 0)
			return -1;
	}
	return 0;
}

int cmd_route(int argc, char **argv)
{
	bool lfts = true, coords = true, timing = false;
	const char *outpath = NULL;
	const struct ot_engine *e;
	struct ot_fabric *f = NULL;
	struct ot_routing *r = NULL;
	struct ot_error err = { "" };
	struct timespec t0;
	double t_read, t_route;
	FILE *out = stdout;
	int status = OT_EXIT_USAGE;
	int c;

	optind = 1;
	for (;;) {
		c = getopt_long(argc, argv, "lco:th", route_options, NULL);
		if (c < 0)
			break;
		switch (c) {
		case 'l':
			coords = false;
			break;
		case 'c':
			lfts = false;
			break;
		case 'o':
			outpath = optarg;
			break;
		case 't':
			timing = true;
			break;
		case 'h':
			route_usage(stdout);
			return OT_EXIT_OK;
		default:
			route_usage(stderr);
			return OT_EXIT_USAGE;
		}
	}
	if (argc - optind != 2 || (!lfts && !coords)) {
		route_usage(stderr);
		return OT_EXIT_USAGE;
	}
	e = ot_engine_find(argv[optind]);
	if (!e) {
		fprintf(stderr, "osmtopo route: no engine '%s'\n",
			argv[optind]);
		return OT_EXIT_USAGE;
	}

	clock_gettime(CLOCK_MONOTONIC, &t0);
	f = ot_netfile_load(argv[optind + 1], &err);
	if (!f) {
		fprintf(stderr, "osmtopo route: %s\n", err.msg);
		goto out;
	}
	t_read = seconds_since(&t0);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (ot_engine_run(e, f, &r, &err)) {
		fprintf(stderr, "osmtopo route: %s refuses %s: %s\n", e->name,
			argv[optind + 1], err.msg);
		status = OT_EXIT_FAIL;
		goto out;
	}
	t_route = seconds_since(&t0);
	if (timing)
		fprintf(stderr,
			"osmtopo route: %s: read %.3f s, routed %u switches x %u LIDs in %.3f s\n",
			e->name, t_read, f->nswitches, f->max_lid, t_route);

	if (outpath) {
		out = fopen(outpath, "w");
		if (!out) {
			perror(outpath);
			goto out;
		}
	}
	if ((coords && print_coords(out, r)) ||
	    (lfts && ot_lft_write(out, r)) || fflush(out)) {
		fprintf(stderr, "osmtopo route: write error\n");
		goto out;
	}
	status = OT_EXIT_OK;
out:
	if (out && out != stdout && fclose(out) && status == OT_EXIT_OK)
		status = OT_EXIT_USAGE;
	ot_routing_free(r);
	ot_fabric_free(f);
	return status;
}
