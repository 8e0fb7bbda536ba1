// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * `osmtopo route ENGINE NETFILE`: runs an engine offline on a net file or
 * ibnetdiscover output, with the very code OpenSM runs through the plugin,
 * and prints what it decided: the coordinates it assigned and the LFTs in
 * dump_lfts format, so they can be diffed against a live fabric; or, with
 * --dot, the cabling as a Graphviz graph with the engine's coordinates on
 * the nodes, to see the topology as the engine mapped it.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "io/lftfile.h"
#include "io/netfile.h"
#include "model/routing.h"
#include "options.h"
#include "route/engine.h"

static const struct tool_option route_options[] = {
	{ "lfts-only", 'l', NULL,
	  "print only the LFTs (to diff against dump_lfts)" },
	{ "coords-only", 'c', NULL, "print only the coordinates" },
	{ "dump", 'D', NULL,
	  "also print the SL2VL tables and path SLs (what `lfts --live --all` reads back)" },
	{ "output", 'o', "FILE", "write to FILE instead of standard output" },
	{ "time", 't', NULL,
	  "print reading and routing times to standard error" },
	{ "dot", 'd', NULL,
	  "print the cabling as a Graphviz graph, nodes labelled by the engine" },
	{ "lmc", 'm', "N",
	  "renumber LIDs as OpenSM does with option lmc N (CAs get 2^N LIDs)" },
	{ "help", 'h', NULL, "this help" },
};

#define NOPTIONS (sizeof(route_options) / sizeof(route_options[0]))

static void route_usage(FILE *out)
{
	unsigned int i;

	fprintf(out,
		"usage: osmtopo route [OPTIONS] ENGINE NETFILE\n\n"
		"Routes NETFILE (ibsim net file or ibnetdiscover output) with ENGINE\n"
		"and prints the coordinates it assigned (lines starting with '#')\n"
		"and every switch's LFT in dump_lfts format.  LIDs come from the\n"
		"file, or are assigned in file order where it has none (--lmc\n"
		"renumbers them all).\n\n");
	tool_print_options(out, route_options, NOPTIONS);
	fprintf(out, "\nengines:\n");
	for (i = 0; ot_engines[i]; i++)
		fprintf(out, "  %-21s %s\n", ot_engines[i]->name,
			ot_engines[i]->needs);
	fprintf(out,
		"\nexamples:\n"
		"  osmtopo route hdor topologies/cellia-kns-6x2.net\n"
		"  osmtopo route --lfts-only hdor fabric.ibnd > offline.lfts\n"
		"  osmtopo route --lmc 1 --time --lfts-only ff-ador ff.net > /dev/null\n"
		"  osmtopo route --dot hdor kns.net | neato -Tsvg > kns.svg\n");
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

/* Text inside a DOT string: quotes and backslashes escaped, one line. */
static void dot_text(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', out);
		fputc((unsigned char)*s < 0x20 ? ' ' : *s, out);
	}
}

#define DOT_COLORS 8

/*
 * The fill colour of a node: one per first word of the engine's labels
 * ("router", "switch", "CA"), in the order they first appear, so the
 * roles the engine found stand out.
 */
static const char *dot_color(const char *label, char kinds[][16],
			     unsigned int *nkinds)
{
	static const char *const colors[DOT_COLORS] = {
		"#cfe2f3", "#fce5cd", "#d9ead3", "#ead1dc",
		"#fff2cc", "#d0e0e3", "#f4cccc", "#d9d2e9",
	};
	size_t len = strcspn(label, " ");
	unsigned int i;

	if (len >= sizeof(kinds[0]))
		len = sizeof(kinds[0]) - 1;
	for (i = 0; i < *nkinds; i++)
		if (strlen(kinds[i]) == len && !strncmp(kinds[i], label, len))
			return colors[i];
	if (*nkinds == DOT_COLORS)
		return "white";
	memcpy(kinds[*nkinds], label, len);
	kinds[*nkinds][len] = '\0';
	return colors[(*nkinds)++];
}

/*
 * The fabric as an undirected Graphviz graph: a node per switch (box) and
 * CA (ellipse) labelled with its description and the engine's label (its
 * coordinates), an edge per cable with the port numbers at its ends.
 */
static int print_dot(FILE *out, const struct ot_routing *r)
{
	const struct ot_fabric *f = r->fabric;
	char kinds[DOT_COLORS][16];
	unsigned int nkinds = 0, p;
	uint32_t i;

	fprintf(out, "graph fabric {\n"
		     "  graph [overlap=false, outputorder=edgesfirst];\n"
		     "  node [fontsize=10, style=filled, fillcolor=white];\n"
		     "  edge [fontsize=8, color=\"#888888\"];\n");
	for (i = 0; i < f->nnodes; i++) {
		const struct ot_node *n = &f->node[i];

		fprintf(out, "  n%u [shape=%s, label=\"", i,
			n->type == OT_NODE_SWITCH ? "box" : "ellipse");
		dot_text(out, n->desc);
		if (r->label[i]) {
			fputs("\\n", out);
			dot_text(out, r->label[i]);
			fprintf(out, "\", fillcolor=\"%s",
				dot_color(r->label[i], kinds, &nkinds));
		}
		fputs("\"];\n", out);
	}
	for (i = 0; i < f->nnodes; i++) {
		const struct ot_node *n = &f->node[i];

		for (p = 1; p <= n->nports; p++) {
			const struct ot_port *q = &n->port[p];

			/* each cable once, from its lower end */
			if (q->peer < 0 || (uint32_t)q->peer < i ||
			    ((uint32_t)q->peer == i && q->peer_port < p))
				continue;
			fprintf(out,
				"  n%u -- n%d [taillabel=\"%u\", headlabel=\"%u\"];\n",
				i, q->peer, p, q->peer_port);
		}
	}
	fputs("}\n", out);
	return ferror(out) ? -1 : 0;
}

int cmd_route(int argc, char **argv)
{
	bool lfts = true, coords = true, timing = false, dot = false;
	bool dump = false;
	const char *outpath = NULL;
	const struct ot_engine *e;
	struct ot_fabric *f = NULL;
	struct ot_routing *r = NULL;
	struct ot_error err = { 0 };
	struct timespec t0;
	double t_read, t_route;
	FILE *out = stdout;
	int status = OT_EXIT_USAGE;
	struct option longopts[NOPTIONS + 1];
	char shortopts[2 * NOPTIONS + 1];
	int lmc = -1;
	int c;

	tool_getopt_tables(route_options, NOPTIONS, longopts, shortopts);
	optind = 1;
	for (;;) {
		c = getopt_long(argc, argv, shortopts, longopts, NULL);
		if (c < 0)
			break;
		switch (c) {
		case 'l':
			coords = false;
			break;
		case 'c':
			lfts = false;
			break;
		case 'D':
			dump = true;
			break;
		case 'o':
			outpath = optarg;
			break;
		case 't':
			timing = true;
			break;
		case 'd':
			dot = true;
			break;
		case 'm':
			if (optarg[0] < '0' || optarg[0] > '7' || optarg[1]) {
				fprintf(stderr,
					"osmtopo route: --lmc takes 0 to 7\n");
				return OT_EXIT_USAGE;
			}
			lmc = optarg[0] - '0';
			break;
		case 'h':
			route_usage(stdout);
			return OT_EXIT_OK;
		default:
			route_usage(stderr);
			return OT_EXIT_USAGE;
		}
	}
	if (argc - optind != 2 || (!lfts && !coords) ||
	    (dot && (!lfts || !coords || dump))) {
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
	if (!f || (lmc >= 0 && ot_fabric_set_ca_lmc(f, (uint8_t)lmc, &err))) {
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
	if (dot) {
		if (print_dot(out, r) || fflush(out)) {
			fprintf(stderr, "osmtopo route: write error\n");
			goto out;
		}
	} else if ((coords && print_coords(out, r)) ||
		   (lfts && ot_lft_write(out, r)) ||
		   (dump && ot_tables_write(out, r)) || fflush(out)) {
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
