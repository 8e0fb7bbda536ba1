/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Link balance: the load every directed link carries under a traffic
 * pattern, routed through a fabric's tables, and the static throughput
 * each pattern gets (1 / the most loaded channel, every CA injecting at
 * full rate).  Part of the checker, the last step of the flow.
 *
 * Model.  The CAs are the CA ports with a LID, numbered 0..N-1 in the
 * order chosen by enum ot_ca_order.  Every CA injects traffic at rate 1
 * (the rate of its link), split over its destinations; a directed link's
 * load is the sum of the rates of the flows crossing it, the CA's own
 * cable (injection) and the destination's cable (ejection) included.  The
 * throughput of a pattern is 1 / the largest load, capped at 1: the rate
 * every CA can inject at without oversubscribing any link.
 *
 * Patterns: traffic/pattern.h, shared with the packet simulator (uniform:
 * every CA sends 1/(N-1) to each other CA, N(N-1) flows; in the
 * permutations a CA without a partner is counted as skipped).
 *
 * LMC.  Paths are taken to a destination's base LID.  When some CA has
 * more than one LID, two more figures per pattern: "spread", each flow
 * split evenly over the destination's LIDs; and "best", a greedy choice
 * of one LID per flow: flows are taken in a fixed order (permutations:
 * by source; uniform: by destination, and for each destination the
 * sources of one switch together, switches in node order), and each goes
 * on the LID whose switch-to-switch links, with the flow added, have the
 * smallest maximum load (ties: the smaller summed load along the path,
 * then the lower LID).  The CA cables are the same for every LID and do
 * not enter the choice.  Where every flow is routed and the base LIDs
 * alone do better than the greedy, "best" is the base figure.
 */
#ifndef OSMTOPO_TRAFFIC_H
#define OSMTOPO_TRAFFIC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model/error.h"
#include "model/routing.h"
#include "traffic/pattern.h"

struct ot_traffic_opts {
	uint32_t patterns;    /* bit per enum ot_pattern_kind; 0 = all */
	unsigned int nrandom; /* random permutations; 0 = 1 */
	uint64_t seed;        /* of the first; the k-th uses seed + k */
	enum ot_ca_order order;
	unsigned int bisections; /* of ebb; 0 = OT_EBB_DEFAULT_BISECTIONS */
};

/* Where a directed link sits, for the picture. */
enum ot_link_kind {
	OT_LINK_UNUSED,    /* port without a cable */
	OT_LINK_INJECTION, /* CA -> switch */
	OT_LINK_NETWORK,   /* switch -> switch */
	OT_LINK_EJECTION,  /* switch -> CA */
	OT_LINK_OTHER,     /* CA -> CA, to or from a router */
};

/* One figure: the loads under one way of choosing among the LIDs. */
struct ot_load_figure {
	double max_load;         /* largest load of any link */
	double max_network_load; /* largest load of a switch-to-switch link */
	double avg_load;         /* over the links that carry traffic */
	uint64_t links_used;     /* links with load > 0 */
	double throughput;       /* 1 / max_load, at most 1 */
};

struct ot_pattern_load {
	char name[32];  /* "uniform", ..., "random-1" */
	enum ot_pattern_kind kind;
	uint64_t seed;  /* random: the seed of this permutation */
	uint64_t flows; /* (source, destination) pairs that carry traffic */
	uint64_t skipped;  /* permutations: CAs without a partner */
	uint64_t unrouted; /* flows whose base-LID path is dropped or loops */
	struct ot_load_figure base;   /* to the base LID */
	bool multipath;               /* some CA has more than one LID */
	struct ot_load_figure spread; /* multipath: split over the LIDs */
	struct ot_load_figure best;   /* multipath: greedy best LID, or base */
	/*
	 * The first most loaded switch-to-switch link (base), its ends
	 * named by description; NULL when no such link carries traffic.  CA
	 * cables carry at most 1, so above 1 this is the bottleneck.
	 */
	const char *max_from, *max_to;
	unsigned int max_from_port, max_to_port;
	/* Base load of every directed link, ot_balance_nlinks() of them. */
	const double *load;
	/*
	 * ebb (traffic/pattern.h): the effective bisection bandwidth, the
	 * mean over the flows of every bisection of 1 / the largest load on
	 * the flow's path (base LIDs; a flow not routed gets 0), also in
	 * base.throughput; the other figures are of the mean load over the
	 * bisections, flows/skipped/unrouted summed over them.
	 */
	double ebb;
	unsigned int bisections;
};

struct ot_balance_report;

/*
 * Routes every chosen pattern through r.  0 (report in *out) or -1 with
 * err set (out of memory).  Unrouted flows carry nothing; the checker
 * reports the pairs themselves.
 */
int ot_balance_run(const struct ot_fabric *f, const struct ot_routing *r,
		   const struct ot_traffic_opts *opts,
		   struct ot_balance_report **out, struct ot_error *err);

void ot_balance_report_free(struct ot_balance_report *rep);

unsigned int ot_balance_npatterns(const struct ot_balance_report *rep);
/* The i-th pattern's figures; valid as long as rep is. */
const struct ot_pattern_load *
ot_balance_pattern(const struct ot_balance_report *rep, unsigned int i);
/* CAs (CA ports with a LID), and the largest LMC among them. */
uint32_t ot_balance_ncas(const struct ot_balance_report *rep);
unsigned int ot_balance_lmc(const struct ot_balance_report *rep);
enum ot_ca_order ot_balance_ca_order(const struct ot_balance_report *rep);

/*
 * Directed links: output port p of node n is link link_base(n) + p - 1,
 * the same numbering for every fabric with the same nodes and ports.
 */
uint32_t ot_balance_nlinks(const struct ot_balance_report *rep);
enum ot_link_kind ot_balance_link_kind(const struct ot_balance_report *rep,
				       uint32_t link);

/* A table, one pattern a line, under a heading line. */
int ot_balance_print_text(FILE *out, const struct ot_balance_report *rep);

/*
 * Adds the JSON members "balance":{"cas":N,"ca_order":...,"lmc":L} and
 * "patterns":[{...},...] to the caller's jansson object (a json_t: see
 * src/check/json.h).  0, or -1 when out of memory.
 */
struct json_t;
int ot_balance_json_add(struct json_t *obj,
			const struct ot_balance_report *rep);

/*
 * An SVG picture (src/check/plot.c): per pattern, the histogram of the
 * switch-to-switch links' loads, with the full link rate marked.  title
 * may be NULL.  0, or -1 on an I/O error.
 */
int ot_balance_plot_svg(FILE *out, const struct ot_balance_report *rep,
			const char *title);

#endif
