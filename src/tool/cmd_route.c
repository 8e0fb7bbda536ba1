// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * `osmtopo route ENGINE NETFILE`: runs an engine offline on a net file or
 * ibnetdiscover output, with the very code OpenSM runs through the plugin,
 * and prints what it decided: the coordinates it assigned and the LFTs in
 * dump_lfts format, so they can be diffed against a live fabric; or, with
 * --dot, the cabling as a Graphviz graph with the engine's coordinates on
 * the nodes, to see the topology as the engine mapped it.  --time adds
 * how long reading and routing took, and each phase of the engine.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "io/lftfile.h"
#include "io/netfile.h"
#include "model/routing.h"
#include "options.h"
#include "route/engine.h"
#include "util.h"

struct route_args {
	bool lfts_only, coords_only, dump, timing, dot;
	const char *outpath;
	unsigned int lmc, max_vls;
	bool lmc_given;
	const char *spread;
	const char *engine, *netfile;
};

#define ARGS struct route_args
static const struct tool_option route_options[] = {
	{ "lfts-only", 'l', NULL,
	  "print only the LFTs (to diff against dump_lfts)",
	  TOOL_SET(ARGS, lfts_only) },
	{ "coords-only", 'c', NULL, "print only the coordinates",
	  TOOL_SET(ARGS, coords_only) },
	{ "dump", 'D', NULL,
	  "also print the SL2VL tables and path SLs (what `lfts --live --all` reads back)",
	  TOOL_SET(ARGS, dump) },
	TOOL_OPTION_OUTPUT(ARGS, outpath),
	{ "time", 't', NULL,
	  "print reading and routing times, and the engine's phases, to standard error",
	  TOOL_SET(ARGS, timing) },
	{ "dot", 'd', NULL,
	  "print the cabling as a Graphviz graph, nodes labelled by the engine",
	  TOOL_SET(ARGS, dot) },
	{ "lmc", 'm', "N",
	  "renumber LIDs as OpenSM does with option lmc N (CAs get 2^N LIDs)",
	  TOOL_UINT(ARGS, lmc, 0, 7), TOOL_GIVEN(ARGS, lmc_given) },
	TOOL_OPTION_SPREAD(ARGS, spread),
	TOOL_OPTION_MAX_VLS(ARGS, max_vls),
	TOOL_OPTION_HELP,
};
#undef ARGS

static void route_usage(FILE *out, const struct tool_command *c)
{
	fprintf(out,
		"usage: osmtopo route [OPTIONS] ENGINE NETFILE\n\n"
		"Routes NETFILE (ibsim net file or ibnetdiscover output) with ENGINE\n"
		"and prints the coordinates it assigned (lines starting with '#')\n"
		"and every switch's LFT in dump_lfts format.  LIDs come from the\n"
		"file, or are assigned in file order where it has none (--lmc\n"
		"renumbers them all).\n\n");
	tool_print_options(out, c);
	fprintf(out, "\nengines:\n");
	tool_print_engines(out);
	fprintf(out,
		"\nexamples:\n"
		"  osmtopo route hdor topologies/cellia-kns-6x2.net\n"
		"  osmtopo route --lfts-only hdor fabric.ibnd > offline.lfts\n"
		"  osmtopo route --lmc 1 --time --lfts-only ff-ador ff.net > /dev/null\n"
		"  osmtopo route --max-vls 1 --lfts-only hdor kns.net  # OpenSM without QoS\n"
		"  osmtopo route --dot hdor kns.net | neato -Tsvg > kns.svg\n");
}

TOOL_COMMAND(route_command, "route", route_options, route_usage);

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

/*
 * -1 when args is filled, otherwise the status to exit with (0 after
 * --help).
 */
static int parse_args(int argc, char **argv, struct route_args *a)
{
	int status, next;

	status = tool_parse(&route_command, argc, argv, a, &next, NULL);
	if (status >= 0)
		return status;
	if (argc - next != 2 || (a->lfts_only && a->coords_only) ||
	    (a->dot && (a->lfts_only || a->coords_only || a->dump))) {
		route_usage(stderr, &route_command);
		return OT_EXIT_USAGE;
	}
	a->engine = argv[next];
	a->netfile = argv[next + 1];
	return -1;
}

/* "osmtopo route: E: read ..., routed ...", then the engine's phases. */
static void print_times(const struct ot_routing *r, const char *engine,
			double t_read, double t_route)
{
	const struct ot_fabric *f = r->fabric;
	unsigned int i;

	fprintf(stderr,
		"osmtopo route: %s: read %.3f s, routed %u switches x %u LIDs in %.3f s\n",
		engine, t_read, f->nswitches, f->max_lid, t_route);
	if (!r->nphases)
		return;
	fprintf(stderr, "osmtopo route: %s: phases:", engine);
	for (i = 0; i < r->nphases; i++)
		fprintf(stderr, "%s %s %.3f ms", i ? "," : "",
			r->phase[i].name, r->phase[i].ms);
	fputc('\n', stderr);
}

/* What a route command prints. */
struct route_output {
	const struct route_args *a;
	const struct ot_routing *r;
};

/* What --dot, --lfts-only, --coords-only and --dump ask for, to out. */
static int print_routing(FILE *out, const void *what)
{
	const struct route_output *o = what;
	const struct route_args *a = o->a;
	const struct ot_routing *r = o->r;

	if (a->dot)
		return print_dot(out, r);
	if (!a->lfts_only && print_coords(out, r))
		return -1;
	if (!a->coords_only && ot_lft_write(out, r))
		return -1;
	if (a->dump && ot_tables_write(out, r))
		return -1;
	return 0;
}

int cmd_route(int argc, char **argv)
{
	struct route_args a = { 0 };
	const struct ot_engine *e;
	struct ot_fabric *f = NULL;
	struct ot_routing *r = NULL;
	struct ot_error err = { 0 };
	double t0, t_read, t_route;
	struct route_output o = { &a, NULL };
	int status;

	status = parse_args(argc, argv, &a);
	if (status >= 0)
		return status;
	e = ot_engine_find(a.engine);
	if (!e) {
		char hint[1024];

		tool_engine_hint(a.engine, false, hint, sizeof(hint));
		fprintf(stderr, "osmtopo route: no engine '%s' (%s)\n",
			a.engine, hint);
		return OT_EXIT_USAGE;
	}
	status = OT_EXIT_USAGE;
	t0 = tool_now();
	f = ot_netfile_load(a.netfile, &err);
	if (!f ||
	    (a.lmc_given && ot_fabric_set_ca_lmc(f, (uint8_t)a.lmc, &err))) {
		fprintf(stderr, "osmtopo route: %s\n", err.msg);
		goto out;
	}
	t_read = tool_now() - t0;
	t0 = tool_now();
	status = tool_run_engine(e, f, a.spread, a.max_vls, &r, &err);
	if (status == OT_EXIT_FAIL) {
		fprintf(stderr, "osmtopo route: %s refuses %s: %s\n", e->name,
			a.netfile, err.msg);
		goto out;
	}
	if (status != OT_EXIT_OK) {
		fprintf(stderr, "osmtopo route: %s\n", err.msg);
		goto out;
	}
	t_route = tool_now() - t0;
	if (a.timing)
		print_times(r, e->name, t_read, t_route);
	o.r = r;
	status = tool_write_output("route", a.outpath, print_routing, &o);
out:
	ot_routing_free(r);
	ot_fabric_free(f);
	return status;
}
