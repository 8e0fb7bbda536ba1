/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Colour refinement (one-dimensional Weisfeiler-Leman), for the
 * recognizers and engines that must number things the topology leaves
 * interchangeable (a damaged group's spines, a dimension's values, a
 * Dragonfly's groups) without letting GUIDs, port numbers or node order
 * decide: two vertices that end with the same colour look alike from
 * every distance; vertices with different colours are told apart by the
 * cabling, and the order of their colours is the same under any
 * labelling.
 *
 * Each round a vertex's colour becomes the rank of the pair (its colour,
 * the sorted colours of its neighbours, one entry per edge: parallel
 * cables count) among all vertices' pairs, until a round splits no
 * class.  The ranks come from sorting those pairs, never from the order
 * vertices are met, so the result is a function of the graph and the
 * initial colours alone.  What refinement cannot do is split a class the
 * graph leaves symmetric to it: ot_refine_discrete() then individualizes
 * (gives one member of the first such class a colour of its own and
 * refines again), the member chosen by the caller's tie-break key
 * (GUIDs, say): where the tied members are images of each other under a
 * symmetry of the graph, as in every fabric generated whole, the
 * choice changes the numbering but not what it describes.
 */
#ifndef OSMTOPO_MODEL_REFINE_H
#define OSMTOPO_MODEL_REFINE_H

#include <stddef.h>
#include <stdint.h>

#include "model/error.h"
#include "model/fabric.h"

/* An initial colour: the vertex takes no part (not refined, no peer). */
#define OT_REFINE_SKIP UINT32_MAX

/*
 * An undirected graph in compressed rows: vertex v's neighbours are
 * adj[off[v] .. off[v + 1]), each edge listed from both ends (an edge
 * listed twice is two parallel edges).
 */
struct ot_refine_graph {
	uint32_t n;
	const size_t *off;
	const uint32_t *adj;
};

/*
 * Refines colour[0 .. g->n) in place (initial colours in, refined out;
 * skipped vertices keep OT_REFINE_SKIP).  Refined colours are
 * 0 .. *nclasses - 1, ordered first by initial colour.  At most
 * max_rounds rounds (0: until stable).  -1 with err set when out of
 * memory.
 */
int ot_refine_graph(const struct ot_refine_graph *g, uint32_t *colour,
		    unsigned int max_rounds, uint32_t *nclasses,
		    struct ot_error *err);

/*
 * The same on f's nodes and cables (port numbers never count).  f must
 * be indexed.
 */
int ot_refine(const struct ot_fabric *f, uint32_t *colour,
	      unsigned int max_rounds, uint32_t *nclasses,
	      struct ot_error *err);

/*
 * Refines, then while a class has several members individualizes the
 * member of the lowest such class with the lowest tie[] (then index) and
 * refines again: every vertex not skipped ends with a colour of its own,
 * 0 .. *nclasses - 1, a numbering.  *ties (may be NULL) is set to how
 * many individualizations the tie-break decided.  Each one costs a
 * refinement: for graphs of groups or lines, not of a large fabric's
 * switches.
 */
int ot_refine_discrete(const struct ot_refine_graph *g, uint32_t *colour,
		       const uint64_t *tie, uint32_t *nclasses,
		       uint32_t *ties, struct ot_error *err);

/*
 * A numbering of f's switches the cabling fixes, for recognizers that
 * visit switches in an order and let the first one found decide: in this
 * order, two labellings of one fabric decide alike up to a symmetry of
 * it.  Refinement on the graph of switch-to-switch cables (parallel
 * cables count), each switch's initial colour the number of its cables
 * to CAs and routers; the classes turned round, so that the switches
 * with the most CAs come first, among them those with the most switch
 * cables, and so on; then ot_refine_discrete() with GUIDs (then node
 * index) breaking the ties left, the lowest first.  rank[n] (nnodes
 * entries) is switch n's place, 0 .. nswitches - 1, OT_REFINE_SKIP for
 * other nodes; *ties as ot_refine_discrete()'s.  f must be indexed.
 */
int ot_refine_switch_order(const struct ot_fabric *f, uint32_t *rank,
			   uint32_t *ties, struct ot_error *err);

#endif
