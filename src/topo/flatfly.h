/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The FlatFly / HyperX / generalized-hypercube recognizer of seed 001
 * ("Early evaluation of direct large-scale InfiniBand networks with
 * adaptive routing"), section 2.1: dimensions from the equivalence classes
 * of switch-to-switch links (bidirectional, parallel, triangle and
 * rectangle rules, closed with union-find), coordinates from the
 * per-dimension relations.  It works on incomplete fabrics (switches and
 * cables missing) and never relies on GUIDs or port numbers except to
 * break ties the topology leaves open.  The ff-* engines route on its
 * result; the checker uses it to verify dimension orders.  Hypercubes are
 * FlatFlies with 2 switches per dimension.
 */
#ifndef OSMTOPO_FLATFLY_H
#define OSMTOPO_FLATFLY_H

#include <stdint.h>

#include "model/error.h"
#include "model/fabric.h"

#define OT_FF_MAX_DIMS 16

struct ot_ff {
	const struct ot_fabric *fabric; /* borrowed */
	unsigned int ndims;
	/* Switches per dimension (K_i), and the most parallel cables seen
	 * between two switches of dimension i (the link width). */
	unsigned int size[OT_FF_MAX_DIMS];
	unsigned int width[OT_FF_MAX_DIMS];
	uint32_t nslots; /* product of size[]: switch positions */
	/*
	 * Per node (fabric->nnodes entries): sw_slot is the position of a
	 * switch, as a mixed-radix number of its coordinates (dimension 0
	 * least significant), or -1 for CAs and switches left unmapped.
	 */
	int32_t *sw_slot;
	/* Per position (nslots entries): the switch node there, -1 missing. */
	int32_t *slot_node;
	/*
	 * Per node: (nports + 1) entries from port_dim_base[node]: the
	 * dimension of the switch-to-switch cable on each port, -1 for CA
	 * ports, uncabled ports and port 0.
	 */
	int8_t *port_dim;
	uint32_t *port_dim_base;
};

/* Coordinate of position slot in dimension d. */
static inline unsigned int ot_ff_coord(const struct ot_ff *ff, uint32_t slot,
				       unsigned int d)
{
	unsigned int i;

	for (i = 0; i < d; i++)
		slot /= ff->size[i];
	return slot % ff->size[d];
}

/* Dimension of the cable on port p of node n, or -1. */
static inline int ot_ff_port_dim(const struct ot_ff *ff, int n, unsigned int p)
{
	return ff->port_dim[ff->port_dim_base[n] + p];
}

/*
 * The one dimension d < n in which coordinate vectors x and y differ (a
 * FlatFly cable joins positions that differ in exactly one), or -1 when
 * they differ in none or in several.
 */
int ot_ff_one_diff(const uint32_t *x, const uint32_t *y, unsigned int n);

/*
 * Maps f as a FlatFly (any number of dimensions, any size per dimension,
 * parallel cables, switches and cables missing) or refuses it with one
 * line naming the switches or cable that break it.  f must be indexed.
 */
int ot_ff_map(const struct ot_fabric *f, struct ot_ff **out,
	      struct ot_error *err);
void ot_ff_free(struct ot_ff *ff);

/*
 * Checks the invariants the engines rely on: every switch has a position
 * of its own, and every switch-to-switch cable joins two positions that
 * differ in exactly the dimension port_dim gives it.  0, or -1 with err
 * naming the switch and port.  ot_ff_map() results always pass; this is
 * for tests, the checker and anyone building a struct ot_ff by hand.
 */
int ot_ff_verify(const struct ot_ff *ff, struct ot_error *err);

/*
 * The link-equivalence classes of ot_ff_map() (phases 1 and 2: bundles,
 * rules 3 and 4), for recognizers of products whose other factor is no
 * full graph (topo/sfff.h).  Bundles are numbered in the rank order of
 * their ends, classes by their lowest bundle.
 */
struct ot_ff_links {
	uint32_t nsw, nbundles, nclasses;
	int32_t *a, *b;   /* per bundle: its two switch nodes */
	uint16_t *cables; /* per bundle: parallel cables */
	uint32_t *cls;    /* per bundle: class */
	int32_t *rank;    /* per node: a switch's rank (flatfly_dims.c), -1 */
};

int ot_ff_link_classes(const struct ot_fabric *f, struct ot_ff_links *out,
		       struct ot_error *err);
void ot_ff_links_free(struct ot_ff_links *l);

#endif
