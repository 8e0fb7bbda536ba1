/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Colour refinement (one-dimensional Weisfeiler-Leman) of a fabric's
 * nodes over its cables, for the recognizers that must number switches
 * the topology leaves interchangeable (a damaged group's spines, a
 * dimension's values) without letting GUIDs, port numbers or node order
 * decide: two nodes that end with the same colour look alike from every
 * distance; nodes with different colours are told apart by the cabling,
 * and the order of their colours is the same under any labelling.
 *
 * Each round a node's colour becomes the rank of the pair (its colour,
 * the sorted colours of its peers, one entry per cable: parallel cables
 * count) among all nodes' pairs, until a round splits no class.  The
 * ranks come from sorting those pairs, never from the order nodes are
 * met, so the result is a function of the cabling and the initial
 * colours alone.  What it cannot do is split a class the cabling leaves
 * symmetric to this test (regular parts of a graph that are not
 * automorphic); callers break such ties by GUID and say so.
 */
#ifndef OSMTOPO_MODEL_REFINE_H
#define OSMTOPO_MODEL_REFINE_H

#include <stdint.h>

#include "model/error.h"
#include "model/fabric.h"

/* An initial colour: the node takes no part (not refined, no peer). */
#define OT_REFINE_SKIP UINT32_MAX

/*
 * Refines colour[0 .. f->nnodes) in place (initial colours in, refined
 * out; skipped nodes keep OT_REFINE_SKIP).  Refined colours are
 * 0 .. *nclasses - 1, ordered first by initial colour.  At most
 * max_rounds rounds (0: until stable).  f must be indexed; -1 with err
 * set when out of memory.
 */
int ot_refine(const struct ot_fabric *f, uint32_t *colour,
	      unsigned int max_rounds, uint32_t *nclasses,
	      struct ot_error *err);

#endif
