/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Inside the FlatFly recognizer (topo/flatfly.c, which says what the
 * phases do): the working state of one mapping and the phases, one file
 * each group -- flatfly_dims.c (1-3: bundles, classes, dimensions),
 * flatfly_coords.c (4-5: coordinates, strays, the switches placed last),
 * flatfly.c (6: order, checks, the result).  Not for other files.
 */
#ifndef OSMTOPO_TOPO_FLATFLY_BUILD_H
#define OSMTOPO_TOPO_FLATFLY_BUILD_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>

#include "model/uf.h"
#include "topo/flatfly.h"

/* One neighbour in a switch's adjacency list. */
struct ff_adj {
	uint32_t sw;     /* switch index of the neighbour */
	uint32_t bundle; /* bundle id */
};

/* All the cables between two switches. */
struct ff_bundle {
	uint32_t a, b;   /* switch indices, a < b */
	uint16_t cables;
	uint8_t pa, pb;  /* lowest port at each end, for messages */
};

/* A 2-path v - u - x found while scanning v, chained per end switch x. */
struct ff_path {
	uint32_t b1, b2; /* bundles v-u and u-x */
	uint32_t next;   /* next path to the same x, or UINT32_MAX */
};

#define NONE UINT32_MAX

/* Working state of one mapping; ff is what the caller gets back. */
struct ff_build {
	const struct ot_fabric *f;
	struct ot_error *err;
	uint32_t nsw;
	int32_t *sw_node;  /* switch index -> node, in rank order */
	int32_t *node_sw;  /* node -> switch index, -1 */
	uint32_t *astart;  /* adjacency of switch s: adj[astart[s]..[s+1]) */
	struct ff_adj *adj;
	uint32_t nbundles;
	struct ff_bundle *bundle;
	struct ot_uf *bundle_sets; /* rules 3 and 4 join bundles: classes */
	bool *in_triangle;   /* per bundle */
	bool rule_fired;     /* some triangle or 4-cycle was seen */
	/* Classes: dense ids, bundles grouped by class. */
	uint32_t nclasses;
	uint32_t *bclass;    /* bundle -> class */
	uint32_t *cstart;    /* class c: cmember[cstart[c]..cstart[c+1]) */
	uint32_t *cmember;
	int *cdim;           /* class -> working dimension, -1 stray */
	unsigned int ndims;
	uint32_t dclass[OT_FF_MAX_DIMS]; /* working dimension -> class */
	int8_t *bdim;        /* bundle -> working dimension */
	uint32_t *coord;     /* switch s, dim d: coord[s * OT_FF_MAX_DIMS + d] */
	uint32_t nvalues[OT_FF_MAX_DIMS];
	struct ot_uf *sw_sets; /* union-find over switches (scratch) */
	uint32_t *scratch;   /* nsw entries */
	uint32_t *scratch2;  /* nsw entries */
	/*
	 * Switches hanging off the rest by a single neighbour (and chains
	 * of them) are peeled before the classes are read: their cables
	 * close no cycle, so nothing tells their dimension.  They are
	 * placed last, next to their neighbour (see place_loose()).
	 */
	bool *active;        /* per switch: in the core or placed */
	uint32_t *peel;      /* peeled switches, in peeling order */
	uint32_t npeeled;
};


#define SW_FMT "switch \"%s\" (0x%016" PRIx64 ")"
#define SW_ARGS(b, s) (b)->f->node[(b)->sw_node[s]].desc, \
		(b)->f->node[(b)->sw_node[s]].guid

/*
 * The sort keys below carry everything their comparison needs: qsort()
 * passes no context, and no state lives at file scope.
 */

/*
 * An index with a 64-bit key, sorted by key, then index: bundles by their
 * ends (order_bundles()), switches by the hash of their other coordinates
 * (merge_one_piece()).
 */
struct keyed {
	uint64_t key;
	uint32_t id;
};

/* Switch s's working coordinates, OT_FF_MAX_DIMS of them. */
static inline uint32_t *sw_coords(const struct ff_build *b, uint32_t s)
{
	return &b->coord[s * OT_FF_MAX_DIMS];
}

static inline int cmp_keyed(const void *pa, const void *pb)
{
	const struct keyed *x = pa, *y = pb;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Bundles in tie-break order: by the ranks of their ends. */
static inline int cmp_bundle_ends(uint32_t xa, uint32_t xb, uint32_t ya, uint32_t yb)
{
	if (xa != ya)
		return xa < ya ? -1 : 1;
	return xb < yb ? -1 : xb > yb;
}

/* Bundle order for tie-breaks: the ranks of its two ends. */
static inline bool bundle_before(const struct ff_build *b, uint32_t x, uint32_t y)
{
	const struct ff_bundle *bx = &b->bundle[x], *by = &b->bundle[y];

	return cmp_bundle_ends(bx->a, bx->b, by->a, by->b) < 0;
}

/* The first (lowest) bundle of class c. */
static inline uint32_t class_first(const struct ff_build *b, uint32_t c)
{
	return b->cmember[b->cstart[c]];
}

/* Phases 1-3 (flatfly_dims.c). */
int ffmap_apply_rules(struct ff_build *b);
int ffmap_build_classes(struct ff_build *b);
int ffmap_choose_dimensions(struct ff_build *b);
int ffmap_collect_bundles(struct ff_build *b);
int ffmap_collect_switches(struct ff_build *b);
int ffmap_refuse_bundle(struct ff_build *b, uint32_t x, const char *why);
int ffmap_refuse_structureless(struct ff_build *b);

/* Phases 4 and 5, and the switches placed last (flatfly_coords.c). */
void ffmap_assign_coordinates(struct ff_build *b);
void ffmap_loosen_unclassed(struct ff_build *b);
bool ffmap_merge_one_piece(struct ff_build *b, unsigned int d);
void ffmap_peel_pendants(struct ff_build *b);
int ffmap_place_loose(struct ff_build *b);
int ffmap_place_strays(struct ff_build *b, bool strict, uint32_t *placed);

/* Phase 6 (flatfly.c). */
int ffmap_check_lines(struct ff_build *b, const struct ot_ff *ff);

#endif
