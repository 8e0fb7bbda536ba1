// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The FlatFly / HyperX / generalized-hypercube recognizer of seed 001
 * ("Early evaluation of direct large-scale InfiniBand networks with
 * adaptive routing"), section 2.1, the step between the fabric and the
 * ff-* engines in the flow (fabric -> recognizer -> coordinates -> engine
 * -> tables -> checker).  It finds the dimensions and every switch's
 * coordinates from the cabling alone, on complete and on damaged fabrics,
 * and refuses anything else with one line naming the switches or the cable
 * that break the shape.
 *
 * The phases:
 *
 *  1. Bundles.  The cables between two switches are one bundle: seed
 *     001's rules 1 (two directions of a cable) and 2 (parallel cables)
 *     hold by construction.
 *  2. Classes.  Union-find over bundles with rule 3 (the sides of a
 *     triangle) and rule 4 (opposite sides of a 4-cycle).  In a FlatFly
 *     every triangle lies in one dimension and every 4-cycle either lies
 *     in one dimension or alternates between two, so the rules never join
 *     two dimensions; missing cables only make them join less, which
 *     splits a dimension into a large class and a few small "stray" ones.
 *  3. Dimensions.  Classes are taken largest first; one becomes a
 *     dimension when none of its bundles joins two switches already
 *     connected by the dimensions taken before it (a real dimension is the
 *     only way to change its coordinate).  A stray class fails that test
 *     because the rest of its dimension already connects its ends.
 *  4. Coordinates.  Coordinate d of a switch is its connected component
 *     once every dimension-d bundle is removed (seed 001's relation
 *     epsilon_d).  A missing switch can cut a hyperplane in two; a small
 *     piece cut off that way is merged into the one value it can belong
 *     to (no dimension-d cable to it, no position taken twice).
 *  5. Strays.  Each bundle of a stray class gets the one dimension in
 *     which its ends differ; ends that differ in no or in several
 *     dimensions refuse the fabric.
 *  6. Checks.  No two switches share a position; a dimension of three or
 *     more values must look like full graphs (triangles, more than two
 *     thirds of the cables of its lines present), which keeps fat trees,
 *     rings and stray diagonals out; the positions must be at least a
 *     quarter occupied.
 *
 * Switches whose cables close no triangle or 4-cycle of a dimension (a
 * switch left with one neighbour, or whose other neighbours are all
 * missing) carry no information about the dimensions; they are placed
 * last at the first free position one step from each of their
 * neighbours.  Where missing switches leave several such positions, or
 * several values for a piece of a hyperplane, the result is a consistent
 * FlatFly but not necessarily the one that was built: nothing in the
 * cabling tells them apart.
 *
 * Only the choices the topology leaves open are made by GUID (node index
 * when GUIDs tie, as in generated fabrics before ibsim numbers them):
 * dimensions are numbered by size, then width, then the GUIDs of their
 * lowest cable; the values of a dimension in the order of their lowest
 * switch GUID.  Port numbers and node order never matter.
 *
 * Cost is linear in the number of 2-paths between switches (about
 * nswitches * degree^2): rectangles are found by grouping, per switch, the
 * 2-paths that end at the same switch.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	int32_t *sw_node;  /* switch index -> node, in (GUID, node) order */
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

/* Switch s's working coordinates, OT_FF_MAX_DIMS of them. */
static uint32_t *sw_coords(const struct ff_build *b, uint32_t s)
{
	return &b->coord[s * OT_FF_MAX_DIMS];
}

#define SW_FMT "switch \"%s\" (0x%016" PRIx64 ")"
#define SW_ARGS(b, s) (b)->f->node[(b)->sw_node[s]].desc, \
		(b)->f->node[(b)->sw_node[s]].guid

/*
 * The sort keys below carry everything their comparison needs: qsort()
 * passes no context, and no state lives at file scope.
 */

/*
 * An index with a 64-bit key, sorted by key, then index: switch nodes by
 * GUID (their ranks), switches by the hash of their other coordinates
 * (merge_one_piece()).
 */
struct keyed {
	uint64_t key;
	uint32_t id;
};

static int cmp_keyed(const void *pa, const void *pb)
{
	const struct keyed *x = pa, *y = pb;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Bundles in tie-break order: by the ranks (GUID order) of their ends. */
static int cmp_bundle_ends(uint32_t xa, uint32_t xb, uint32_t ya, uint32_t yb)
{
	if (xa != ya)
		return xa < ya ? -1 : 1;
	return xb < yb ? -1 : xb > yb;
}

/*
 * sw_node is in node order; re-sorts it by (GUID, node) so that a
 * switch's index s is its rank, and fills node_sw to match.
 */
static int rank_switches(struct ff_build *b)
{
	struct keyed *key;
	uint32_t s;

	key = malloc(b->nsw * sizeof(*key));
	if (!key)
		return ot_error_nomem(b->err, "flatfly");
	for (s = 0; s < b->nsw; s++) {
		key[s].key = b->f->node[b->sw_node[s]].guid;
		key[s].id = b->sw_node[s];
	}
	qsort(key, b->nsw, sizeof(*key), cmp_keyed);
	for (s = 0; s < b->nsw; s++) {
		b->sw_node[s] = key[s].id;
		b->node_sw[key[s].id] = s;
	}
	free(key);
	return 0;
}

/*
 * Switches, their ranks by GUID, and refusals of node kinds and cables a
 * FlatFly has no place for.
 */
static int collect_switches(struct ff_build *b)
{
	const struct ot_fabric *f = b->f;
	uint32_t i, s;
	unsigned int p;
	int error;

	for (i = 0; i < f->nnodes; i++) {
		if (f->node[i].type == OT_NODE_ROUTER)
			return ot_refuse(b->err, OT_ERR_TOPOLOGY,
					 "IB router \"%s\" (0x%016" PRIx64 "): a FlatFly has no IB routers",
					 f->node[i].desc, f->node[i].guid);
		b->node_sw[i] = -1;
		if (f->node[i].type == OT_NODE_SWITCH)
			b->sw_node[b->nsw++] = i;
	}
	if (b->nsw < 2) {
		if (!b->nsw)
			return ot_refuse(b->err, OT_ERR_TOPOLOGY,
					 "flatfly: the fabric has no switches");
		return ot_refuse(b->err, OT_ERR_TOPOLOGY,
				 SW_FMT " is the only switch: a FlatFly needs two or more",
				 SW_ARGS(b, 0));
	}
	error = rank_switches(b);
	if (error)
		return error;
	for (s = 0; s < b->nsw; s++) {
		const struct ot_node *nd = &f->node[b->sw_node[s]];

		for (p = 1; p <= nd->nports; p++) {
			int32_t peer = nd->port[p].peer;

			if (peer == b->sw_node[s])
				return ot_refuse(b->err, OT_ERR_TOPOLOGY,
						 SW_FMT " port %u: cabled to its own port %u",
						 SW_ARGS(b, s), p,
						 nd->port[p].peer_port);
		}
	}
	return 0;
}

/*
 * Counts the distinct neighbour switches of every switch: astart[] (the
 * adjacency offsets).  Returns their total, twice the number of bundles.
 */
static uint32_t count_neighbours(struct ff_build *b)
{
	uint32_t *mark = b->scratch;
	uint32_t s, total = 0;
	unsigned int p;

	for (s = 0; s < b->nsw; s++)
		mark[s] = NONE;
	b->astart[0] = 0;
	for (s = 0; s < b->nsw; s++) {
		const struct ot_node *nd = &b->f->node[b->sw_node[s]];

		for (p = 1; p <= nd->nports; p++) {
			int32_t peer = nd->port[p].peer;
			int32_t u;

			if (peer < 0)
				continue;
			u = b->node_sw[peer];
			if (u < 0 || mark[u] == s)
				continue;
			mark[u] = s;
			total++;
		}
		b->astart[s + 1] = total;
	}
	return total;
}

/* The bundle between switches lower < s, found in lower's list; or NONE. */
static uint32_t find_bundle(const struct ff_build *b, uint32_t lower,
			    uint32_t s)
{
	uint32_t k, id = NONE;

	for (k = b->astart[lower]; k < b->astart[lower + 1]; k++)
		if (b->adj[k].sw == s)
			id = b->adj[k].bundle;
	return id;
}

/*
 * Fills switch s's adjacency list, creating the bundles to its higher
 * neighbours (s is their lower end) and finding those to its lower ones
 * (filled before it; degrees are small).  mark[u] == s: u seen from s
 * already, at adj[slot[u]].
 */
static void fill_adjacency(struct ff_build *b, uint32_t s)
{
	const struct ot_node *nd = &b->f->node[b->sw_node[s]];
	uint32_t *mark = b->scratch, *slot = b->scratch2;
	uint32_t fill = b->astart[s];
	unsigned int p;

	for (p = 1; p <= nd->nports; p++) {
		int32_t peer = nd->port[p].peer;
		struct ff_bundle *bd;
		int32_t u;

		if (peer < 0)
			continue;
		u = b->node_sw[peer];
		if (u < 0)
			continue;
		if (mark[u] == s) {
			/* another cable of a bundle seen already */
			if ((uint32_t)u > s)
				b->bundle[b->adj[slot[u]].bundle].cables++;
			continue;
		}
		mark[u] = s;
		slot[u] = fill;
		b->adj[fill].sw = u;
		if ((uint32_t)u > s) {
			bd = &b->bundle[b->nbundles];
			bd->a = s;
			bd->b = u;
			bd->cables = 1;
			bd->pa = p;
			bd->pb = nd->port[p].peer_port;
			b->adj[fill].bundle = b->nbundles++;
		} else {
			b->adj[fill].bundle = find_bundle(b, u, s);
		}
		fill++;
	}
}

/* Phase 1: bundles and the adjacency lists of switches. */
static int collect_bundles(struct ff_build *b)
{
	uint32_t s, j, total;

	total = count_neighbours(b);
	b->adj = malloc((total ? total : 1) * sizeof(*b->adj));
	b->bundle = malloc((total / 2 + 1) * sizeof(*b->bundle));
	if (!b->adj || !b->bundle)
		return ot_error_nomem(b->err, "flatfly");
	for (s = 0; s < b->nsw; s++)
		b->scratch[s] = NONE;
	for (s = 0; s < b->nsw; s++)
		fill_adjacency(b, s);
	/* ot_fabric_index() guarantees symmetric cables; stay safe anyway. */
	for (j = 0; j < total; j++)
		if (b->adj[j].bundle == NONE)
			return ot_error_set(b->err,
					    "flatfly: asymmetric cable table");
	return 0;
}

/*
 * The working state of apply_rules(), per switch x unless said; the five
 * per-switch arrays share one allocation, at nb_stamp.
 */
struct rule_scratch {
	uint32_t *nb_stamp;  /* == v: x is a neighbour of v */
	uint32_t *nb_bundle; /* then: the bundle v - x */
	uint32_t *head;      /* first 2-path from v to x, or NONE */
	uint32_t *count;     /* 2-paths from v to x */
	uint32_t *touched;   /* the x with count[x] > 0, ntouched of them */
	uint32_t ntouched;
	struct ff_path *path; /* the 2-paths from v, npaths of them */
	uint32_t npaths;
};

static void rule_scratch_free(struct rule_scratch *rs)
{
	free(rs->nb_stamp);
	free(rs->path);
}

static bool rule_scratch_alloc(struct rule_scratch *rs, uint32_t nsw,
			       uint32_t nbundles)
{
	uint32_t v;

	rs->nb_stamp = malloc(5 * ((size_t)nsw + 1) * sizeof(*rs->nb_stamp));
	rs->path = malloc((2 * (size_t)nbundles + 1) * sizeof(*rs->path));
	if (!rs->nb_stamp || !rs->path)
		return false;
	rs->nb_bundle = rs->nb_stamp + nsw + 1;
	rs->head = rs->nb_bundle + nsw + 1;
	rs->count = rs->head + nsw + 1;
	rs->touched = rs->count + nsw + 1;
	for (v = 0; v < nsw; v++) {
		rs->nb_stamp[v] = NONE;
		rs->head[v] = NONE;
		rs->count[v] = 0;
	}
	return true;
}

/*
 * Rule 3, and the filing for rule 4: every 2-path v - u - x is filed
 * under x; x adjacent to v closes a triangle, whose three sides are
 * joined at once.
 */
static void file_two_paths(struct ff_build *b, struct rule_scratch *rs,
			   uint32_t v)
{
	uint32_t i, j;

	rs->npaths = 0;
	rs->ntouched = 0;
	for (i = b->astart[v]; i < b->astart[v + 1]; i++) {
		rs->nb_stamp[b->adj[i].sw] = v;
		rs->nb_bundle[b->adj[i].sw] = b->adj[i].bundle;
	}
	for (i = b->astart[v]; i < b->astart[v + 1]; i++) {
		uint32_t u = b->adj[i].sw, b1 = b->adj[i].bundle;

		for (j = b->astart[u]; j < b->astart[u + 1]; j++) {
			uint32_t x = b->adj[j].sw, b2 = b->adj[j].bundle;
			struct ff_path *pt = &rs->path[rs->npaths];

			if (x == v)
				continue;
			if (rs->nb_stamp[x] == v) {
				ot_uf_union(b->bundle_sets, b1, b2);
				ot_uf_union(b->bundle_sets, b1,
					    rs->nb_bundle[x]);
				b->in_triangle[b1] = true;
				b->in_triangle[b2] = true;
				b->in_triangle[rs->nb_bundle[x]] = true;
				b->rule_fired = true;
			}
			if (!rs->count[x])
				rs->touched[rs->ntouched++] = x;
			pt->b1 = b1;
			pt->b2 = b2;
			pt->next = rs->head[x];
			rs->head[x] = rs->npaths++;
			rs->count[x]++;
		}
	}
}

/*
 * Rule 4 over the 2-paths filed from one switch: two paths to the same x
 * close a 4-cycle whose opposite sides pair up; three or more pair up so
 * that all their sides end in one class, joined directly.  Clears the
 * filing for the next switch.
 */
static void join_four_cycles(struct ff_build *b, struct rule_scratch *rs)
{
	struct ot_uf *sets = b->bundle_sets;
	const struct ff_path *path = rs->path;
	uint32_t k;

	for (k = 0; k < rs->ntouched; k++) {
		uint32_t x = rs->touched[k], p1 = rs->head[x], p2;

		if (rs->count[x] == 2) {
			p2 = path[p1].next;
			ot_uf_union(sets, path[p1].b1, path[p2].b2);
			ot_uf_union(sets, path[p1].b2, path[p2].b1);
			b->rule_fired = true;
		} else if (rs->count[x] > 2) {
			for (p2 = path[p1].next; p2 != NONE;
			     p2 = path[p2].next) {
				ot_uf_union(sets, path[p1].b1, path[p2].b1);
				ot_uf_union(sets, path[p1].b1, path[p2].b2);
			}
			ot_uf_union(sets, path[p1].b1, path[p1].b2);
			b->rule_fired = true;
		}
		rs->head[x] = NONE;
		rs->count[x] = 0;
	}
}

/*
 * Phase 2, rules 3 and 4.  For each switch v, every 2-path v - u - x is
 * filed under x.  x adjacent to v closes a triangle; two or more 2-paths
 * to the same x close 4-cycles.  With two paths (v-u-x, v-w-x) the
 * opposite sides pair up; with three or more, the pairings together join
 * all of them, which is done directly so that dense fabrics stay linear.
 */
static int apply_rules(struct ff_build *b)
{
	struct rule_scratch rs = { 0 };
	uint32_t v;
	int error = 0;

	if (!rule_scratch_alloc(&rs, b->nsw, b->nbundles)) {
		error = ot_error_nomem(b->err, "flatfly");
		goto out;
	}
	for (v = 0; v < b->nsw; v++) {
		file_two_paths(b, &rs, v);
		join_four_cycles(b, &rs);
	}
out:
	rule_scratch_free(&rs);
	return error;
}

/* Bundle order for tie-breaks: the ranks (GUID order) of its two ends. */
static bool bundle_before(const struct ff_build *b, uint32_t x, uint32_t y)
{
	const struct ff_bundle *bx = &b->bundle[x], *by = &b->bundle[y];

	return cmp_bundle_ends(bx->a, bx->b, by->a, by->b) < 0;
}

/* A class in the order dimensions are tried: larger first, then by the
 * ends of its first (lowest) bundle.  No two classes share a bundle. */
struct class_key {
	uint32_t size;
	uint32_t first_a, first_b;
	uint32_t cls;
};

static int cmp_class_key(const void *pa, const void *pb)
{
	const struct class_key *x = pa, *y = pb;

	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return cmp_bundle_ends(x->first_a, x->first_b, y->first_a,
			       y->first_b);
}

/*
 * Dense class ids, members grouped per class in bundle order (bundles are
 * created in GUID order of their lower end, so the first member of a class
 * is its lowest bundle).
 */
static int build_classes(struct ff_build *b)
{
	uint32_t *root_class = NULL;
	uint32_t i, c;
	int error = 0;

	root_class = malloc((b->nbundles + 1) * sizeof(*root_class));
	b->bclass = malloc((b->nbundles + 1) * sizeof(*b->bclass));
	b->cmember = malloc((b->nbundles + 1) * sizeof(*b->cmember));
	b->cstart = calloc(b->nbundles + 2, sizeof(*b->cstart));
	if (!root_class || !b->bclass || !b->cmember || !b->cstart) {
		error = ot_error_nomem(b->err, "flatfly");
		goto out;
	}
	for (i = 0; i < b->nbundles; i++)
		root_class[i] = NONE;
	b->nclasses = 0;
	for (i = 0; i < b->nbundles; i++) {
		uint32_t r = ot_uf_find(b->bundle_sets, i);

		if (root_class[r] == NONE)
			root_class[r] = b->nclasses++;
		b->bclass[i] = root_class[r];
		b->cstart[b->bclass[i] + 1]++;
	}
	for (c = 0; c < b->nclasses; c++)
		b->cstart[c + 1] += b->cstart[c];
	/* root_class is free now: reuse it as fill pointers. */
	for (c = 0; c < b->nclasses; c++)
		root_class[c] = b->cstart[c];
	for (i = 0; i < b->nbundles; i++)
		b->cmember[root_class[b->bclass[i]]++] = i;
	b->cdim = malloc((b->nclasses + 1) * sizeof(*b->cdim));
	if (!b->cdim) {
		error = ot_error_nomem(b->err, "flatfly");
		goto out;
	}
	for (c = 0; c < b->nclasses; c++)
		b->cdim[c] = -1;
out:
	free(root_class);
	return error;
}

static int refuse_bundle(struct ff_build *b, uint32_t x, const char *why)
{
	const struct ff_bundle *bd = &b->bundle[x];

	return ot_refuse(b->err, OT_ERR_TOPOLOGY,
			 SW_FMT " port %u -- " SW_FMT " port %u: %s",
			 SW_ARGS(b, bd->a), bd->pa, SW_ARGS(b, bd->b), bd->pb,
			 why);
}

/*
 * Nothing at all joined: a tree, a ring of five or more, a KNS (routers
 * cabled only to indirect switches), ...  Say which when it is a KNS, the
 * likely mix-up.
 */
static int refuse_structureless(struct ff_build *b)
{
	const struct ot_fabric *f = b->f;
	bool *has_ca = NULL;
	bool kns = true, some_bare = false;
	uint32_t s, i;
	unsigned int p;
	int error;

	has_ca = calloc(b->nsw, sizeof(*has_ca));
	if (!has_ca)
		return ot_error_nomem(b->err, "flatfly");
	for (s = 0; s < b->nsw; s++) {
		const struct ot_node *nd = &f->node[b->sw_node[s]];

		for (p = 1; p <= nd->nports; p++)
			if (nd->port[p].peer >= 0 &&
			    f->node[nd->port[p].peer].type == OT_NODE_CA)
				has_ca[s] = true;
		if (!has_ca[s])
			some_bare = true;
	}
	for (i = 0; i < b->nbundles; i++)
		if (has_ca[b->bundle[i].a] == has_ca[b->bundle[i].b])
			kns = false;
	if (kns && some_bare) {
		const struct ff_bundle *bd = &b->bundle[0];
		uint32_t r = has_ca[bd->a] ? bd->a : bd->b;
		uint32_t x = has_ca[bd->a] ? bd->b : bd->a;

		error = ot_refuse(b->err, OT_ERR_TOPOLOGY,
				  SW_FMT " (with CAs) is cabled only to switches without CAs such as " SW_FMT ", in no triangle or 4-cycle: routers and indirect switches (a KNS), not a FlatFly",
				  SW_ARGS(b, r), SW_ARGS(b, x));
	} else {
		error = refuse_bundle(b, 0,
				      "no two switch-to-switch cables share a triangle or a 4-cycle: not a FlatFly (a tree, or a ring of 5 or more?)");
	}
	free(has_ca);
	return error;
}

/* Joins the two ends of every bundle of class c in sw_sets. */
static void join_class(struct ff_build *b, uint32_t c)
{
	uint32_t i;

	for (i = b->cstart[c]; i < b->cstart[c + 1]; i++) {
		const struct ff_bundle *bd = &b->bundle[b->cmember[i]];

		ot_uf_union(b->sw_sets, bd->a, bd->b);
	}
}

/* True when no bundle of class c joins two switches sw_sets holds together. */
static bool class_ends_apart(struct ff_build *b, uint32_t c)
{
	uint32_t i;

	for (i = b->cstart[c]; i < b->cstart[c + 1]; i++) {
		const struct ff_bundle *bd = &b->bundle[b->cmember[i]];

		if (ot_uf_same(b->sw_sets, bd->a, bd->b))
			return false;
	}
	return true;
}

/*
 * True when no bundle of class c joins two switches that the links of the
 * working dimensions other than skip already connect.
 */
static bool class_separates(struct ff_build *b, uint32_t c, int skip)
{
	unsigned int d;

	ot_uf_reset(b->sw_sets);
	for (d = 0; d < b->ndims; d++)
		if ((int)d != skip)
			join_class(b, b->dclass[d]);
	return class_ends_apart(b, c);
}

static void drop_dim(struct ff_build *b, unsigned int d)
{
	b->cdim[b->dclass[d]] = -1;
	memmove(&b->dclass[d], &b->dclass[d + 1],
		(b->ndims - d - 1) * sizeof(b->dclass[0]));
	b->ndims--;
	for (d = 0; d < b->ndims; d++)
		b->cdim[b->dclass[d]] = d;
}

/* The first (lowest) bundle of class c. */
static uint32_t class_first(const struct ff_build *b, uint32_t c)
{
	return b->cmember[b->cstart[c]];
}

/* The classes in the order they are tried as dimensions; NULL on OOM. */
static struct class_key *sorted_classes(const struct ff_build *b)
{
	struct class_key *order;
	uint32_t c;

	order = malloc((b->nclasses + 1) * sizeof(*order));
	if (!order)
		return NULL;
	for (c = 0; c < b->nclasses; c++) {
		const struct ff_bundle *bd = &b->bundle[class_first(b, c)];

		order[c].size = b->cstart[c + 1] - b->cstart[c];
		order[c].first_a = bd->a;
		order[c].first_b = bd->b;
		order[c].cls = c;
	}
	qsort(order, b->nclasses, sizeof(*order), cmp_class_key);
	return order;
}

/*
 * Whether class c can be a dimension besides those taken so far (held
 * in sw_sets): not a pendant cable's class (placed later), not a stray
 * much smaller than a dimension, and no bundle between switches the
 * dimensions taken already connect (the incremental class_separates()).
 */
static bool class_is_dimension(struct ff_build *b, uint32_t c)
{
	const struct ff_bundle *first = &b->bundle[class_first(b, c)];
	uint32_t size = b->cstart[c + 1] - b->cstart[c];

	if (!b->active[first->a] || !b->active[first->b])
		return false;
	/*
	 * A dimension of K values has nslots * (K - 1) / 2 bundles, at least
	 * half a bundle per switch, and keeps a good part of them under
	 * heavy damage.  A class much smaller than that (a single cable, or
	 * a few held together by one 4-cycle) is a stray, unless nothing
	 * else is there.
	 */
	if (b->ndims && (size == 1 || 8 * size < b->nsw))
		return false;
	return class_ends_apart(b, c);
}

/*
 * A class taken early can stop separating once later dimensions are in
 * (its ends joined another way): it was a stray.  Drops the smallest such
 * class and looks again.
 */
static void drop_stray_dims(struct ff_build *b)
{
	bool changed;
	unsigned int k;

	do {
		changed = false;
		for (k = b->ndims; k-- > 0;) {
			if (class_separates(b, b->dclass[k], k))
				continue;
			drop_dim(b, k);
			changed = true;
			break;
		}
	} while (changed);
}

/* Phase 3: which classes are dimensions; the others are strays. */
static int choose_dimensions(struct ff_build *b)
{
	struct class_key *order;
	uint32_t k;
	int error = 0;

	order = sorted_classes(b);
	if (!order)
		return ot_error_nomem(b->err, "flatfly");
	ot_uf_reset(b->sw_sets);
	b->ndims = 0;
	for (k = 0; k < b->nclasses; k++) {
		uint32_t c = order[k].cls;

		if (!class_is_dimension(b, c))
			continue;
		if (b->ndims == OT_FF_MAX_DIMS) {
			error = refuse_bundle(b, class_first(b, c),
					      "shares no triangle or 4-cycle with the cables of the 16 dimensions found before it: more than 16 dimensions, not a FlatFly");
			goto out;
		}
		b->cdim[c] = b->ndims;
		b->dclass[b->ndims++] = c;
		join_class(b, c);
	}
	drop_stray_dims(b);
out:
	free(order);
	return error;
}

/* A bundle's dimension: its class's, or the one a stray was given. */
static int bundle_dim(const struct ff_build *b, uint32_t i)
{
	int cd = b->cdim[b->bclass[i]];

	return cd >= 0 ? cd : b->bdim[i];
}

/*
 * Phase 4 for dimension d: values are the components of the switch graph
 * without dimension d (strays not placed yet left out: they could be in
 * d), numbered by their lowest switch in GUID order.
 */
static void component_values(struct ff_build *b, unsigned int d)
{
	uint32_t *value_of_root = b->scratch;
	uint32_t i, s, nv = 0;

	ot_uf_reset(b->sw_sets);
	for (i = 0; i < b->nbundles; i++) {
		int cd = bundle_dim(b, i);

		if (cd >= 0 && cd != (int)d)
			ot_uf_union(b->sw_sets, b->bundle[i].a, b->bundle[i].b);
	}
	for (s = 0; s < b->nsw; s++)
		value_of_root[s] = NONE;
	for (s = 0; s < b->nsw; s++) {
		uint32_t r = ot_uf_find(b->sw_sets, s);

		if (!b->active[s])
			continue;

		if (value_of_root[r] == NONE)
			value_of_root[r] = nv++;
		b->coord[s * OT_FF_MAX_DIMS + d] = value_of_root[r];
	}
	b->nvalues[d] = nv;
}

/* Renumbers the values of dimension d by their lowest switch GUID. */
static void renumber_values(struct ff_build *b, unsigned int d)
{
	uint32_t *newval = b->scratch;
	uint32_t s, nv = 0;

	for (s = 0; s < b->nvalues[d]; s++)
		newval[s] = NONE;
	for (s = 0; s < b->nsw; s++) {
		uint32_t *c = &b->coord[s * OT_FF_MAX_DIMS + d];

		if (!b->active[s])
			continue;
		if (newval[*c] == NONE)
			newval[*c] = nv++;
		*c = newval[*c];
	}
	b->nvalues[d] = nv;
}

/* A hash of a switch's coordinates other than dimension d. */
static uint64_t others_hash(const struct ff_build *b, uint32_t s,
			    unsigned int d)
{
	uint64_t h = 0x243f6a8885a308d3ull;
	unsigned int e;

	for (e = 0; e < b->ndims; e++) {
		if (e == d)
			continue;
		h ^= b->coord[s * OT_FF_MAX_DIMS + e] + 0x9e3779b97f4a7c15ull +
		     (h << 6) + (h >> 2);
	}
	return h;
}

/* Exact test behind the hash: s and t agree outside dimension d. */
static bool same_elsewhere(const struct ff_build *b, uint32_t s, uint32_t t,
			   unsigned int d)
{
	unsigned int e;

	for (e = 0; e < b->ndims; e++)
		if (e != d && b->coord[s * OT_FF_MAX_DIMS + e] !=
				      b->coord[t * OT_FF_MAX_DIMS + e])
			return false;
	return true;
}

/*
 * How many cables not in any dimension yet, from the switches of piece v
 * (n of them) to switches outside it, would join switches that differ in
 * one coordinate if the piece took value w of dimension d: the cables the
 * rules could not classify still tell where the piece belongs.
 */
static uint32_t stray_fit(const struct ff_build *b, unsigned int d,
			  const uint32_t *members, uint32_t n, uint32_t v,
			  uint32_t w)
{
	uint32_t c[OT_FF_MAX_DIMS], i, j, score = 0;

	for (i = 0; i < n; i++) {
		uint32_t m = members[i];

		memcpy(c, &b->coord[m * OT_FF_MAX_DIMS], sizeof(c));
		c[d] = w;
		for (j = b->astart[m]; j < b->astart[m + 1]; j++) {
			uint32_t u = b->adj[j].sw;
			const uint32_t *cu = &b->coord[u * OT_FF_MAX_DIMS];

			if (!b->active[u] || cu[d] == v ||
			    bundle_dim(b, b->adj[j].bundle) >= 0)
				continue;
			if (ot_ff_one_diff(c, cu, b->ndims) >= 0)
				score++;
		}
	}
	return score;
}

/*
 * The values of one dimension d as pieces to merge: the working state of
 * merge_one_piece().  The four per-value arrays share one zeroed
 * allocation, at vsize.
 */
struct pieces {
	uint32_t nv;       /* values of d */
	uint32_t *vsize;   /* per value: its (active) switches */
	uint32_t *mstart;  /* value v's switches: members[mstart[v]..[v + 1]) */
	uint32_t *members;
	uint32_t *order;   /* the values, smallest first */
	uint32_t *blocked; /* per value: cannot take the piece being merged */
	struct keyed *hs;  /* active switches by others_hash(), then index */
	uint32_t nact;     /* entries of hs */
};

static void pieces_free(struct pieces *pc)
{
	free(pc->vsize);
	free(pc->members);
	free(pc->hs);
}

static bool pieces_alloc(struct pieces *pc, uint32_t nv, uint32_t nsw)
{
	pc->nv = nv;
	pc->vsize = calloc(4 * ((size_t)nv + 1), sizeof(*pc->vsize));
	pc->members = malloc(nsw * sizeof(*pc->members));
	pc->hs = malloc(nsw * sizeof(*pc->hs));
	if (!pc->vsize || !pc->members || !pc->hs)
		return false;
	pc->blocked = pc->vsize + nv + 1;
	pc->mstart = pc->blocked + nv + 1;
	pc->order = pc->mstart + nv + 1;
	return true;
}

/*
 * Groups the active switches by their value of dimension d (members, in
 * GUID order within a value), orders the values smallest first (stable:
 * ties keep value order) and sorts the switches by others_hash() so that
 * those sharing a line of d can be found by binary search.
 */
static void group_values(const struct ff_build *b, unsigned int d,
			 struct pieces *pc)
{
	uint32_t *fill = pc->blocked; /* free until block_values() */
	uint32_t s, v, w, k;

	pc->nact = 0;
	for (s = 0; s < b->nsw; s++) {
		if (!b->active[s])
			continue;
		pc->vsize[sw_coords(b, s)[d]]++;
		pc->hs[pc->nact].key = others_hash(b, s, d);
		pc->hs[pc->nact++].id = s;
	}
	qsort(pc->hs, pc->nact, sizeof(*pc->hs), cmp_keyed);
	for (v = 0; v < pc->nv; v++)
		pc->mstart[v + 1] = pc->mstart[v] + pc->vsize[v];
	for (v = 0; v < pc->nv; v++)
		fill[v] = pc->mstart[v];
	for (s = 0; s < b->nsw; s++)
		if (b->active[s])
			pc->members[fill[sw_coords(b, s)[d]]++] = s;
	for (v = 0, k = 0; k <= b->nsw && v < pc->nv; k++)
		for (w = 0; w < pc->nv; w++)
			if (pc->vsize[w] == k)
				pc->order[v++] = w;
}

/* The first entry of hs[0..n) with key h or more. */
static uint32_t keyed_lower_bound(const struct keyed *hs, uint32_t n,
				  uint64_t h)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (hs[mid].key < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The values piece v cannot be merged into: those no larger than it, and
 * for each of its switches m the values cabled to m in dimension d and
 * the values holding m's position (its coordinates outside d) already.
 */
static void block_values(const struct ff_build *b, unsigned int d,
			 struct pieces *pc, uint32_t v)
{
	uint32_t w, i, j;

	for (w = 0; w < pc->nv; w++)
		pc->blocked[w] = pc->vsize[w] <= pc->vsize[v];
	for (i = pc->mstart[v]; i < pc->mstart[v + 1]; i++) {
		uint32_t m = pc->members[i];
		uint64_t h = others_hash(b, m, d);

		for (j = b->astart[m]; j < b->astart[m + 1]; j++) {
			uint32_t u = b->adj[j].sw;

			if (bundle_dim(b, b->adj[j].bundle) != (int)d ||
			    !b->active[u])
				continue;
			pc->blocked[sw_coords(b, u)[d]] = 1;
		}
		for (j = keyed_lower_bound(pc->hs, pc->nact, h);
		     j < pc->nact && pc->hs[j].key == h; j++)
			if (pc->hs[j].id != m &&
			    same_elsewhere(b, m, pc->hs[j].id, d))
				pc->blocked[sw_coords(b, pc->hs[j].id)[d]] = 1;
	}
}

/*
 * Of the values piece v fits (not blocked), the one its unclassified
 * cables fit best (stray_fit()), the larger on a tie; NONE when it fits
 * none.  *ncand: how many it fits.
 */
static uint32_t best_fit(const struct ff_build *b, unsigned int d,
			 const struct pieces *pc, uint32_t v, uint32_t *ncand)
{
	uint32_t cand = NONE, best_score = 0, w, score;

	*ncand = 0;
	for (w = 0; w < pc->nv; w++) {
		if (pc->blocked[w])
			continue;
		(*ncand)++;
		score = stray_fit(b, d, pc->members + pc->mstart[v],
				  pc->vsize[v], v, w);
		if (cand == NONE || score > best_score ||
		    (score == best_score && pc->vsize[w] > pc->vsize[cand])) {
			cand = w;
			best_score = score;
		}
	}
	return cand;
}

/*
 * Tries to merge one small value of dimension d into a larger value it
 * fits: not cabled to it in dimension d and no position taken twice.  A
 * piece cut off its hyperplane by missing switches or cables usually has
 * exactly one such value (in a hypercube, the value it is not cabled to);
 * a real value of a dimension of more than two values is cabled to nearly
 * every other one, so it fits none.  Returns true when something was
 * merged.
 */
static bool merge_one_piece(struct ff_build *b, unsigned int d)
{
	struct pieces pc = { 0 };
	uint32_t v, i, k, cand, ncand, largest;
	bool merged = false;

	/* merging only improves a result; skip it on OOM */
	if (!pieces_alloc(&pc, b->nvalues[d], b->nsw))
		goto out;
	group_values(b, d, &pc);
	largest = pc.vsize[pc.order[pc.nv - 1]];
	for (k = 0; k < pc.nv; k++) {
		v = pc.order[k];
		if (pc.vsize[v] >= largest)
			break; /* nothing larger left to merge into */
		block_values(b, d, &pc, v);
		cand = best_fit(b, d, &pc, v, &ncand);
		/*
		 * Several fits: the piece's position in its line is not told
		 * by the cabling (the switches that would tell are missing).
		 * A piece much smaller than a hyperplane is still a piece:
		 * put it in the largest fitting value, any of which gives a
		 * consistent FlatFly.
		 */
		if (!ncand || (ncand > 1 && 2 * pc.vsize[v] > largest))
			continue;
		for (i = pc.mstart[v]; i < pc.mstart[v + 1]; i++)
			sw_coords(b, pc.members[i])[d] = cand;
		merged = true;
		/* value v is empty now: renumber to keep values dense */
		renumber_values(b, d);
		break;
	}
out:
	pieces_free(&pc);
	return merged;
}

static void assign_coordinates(struct ff_build *b)
{
	unsigned int d, merges;

	/* Merging a piece compares the other coordinates: all first. */
	for (d = 0; d < b->ndims; d++)
		component_values(b, d);
	for (d = 0; d < b->ndims; d++) {
		/*
		 * Each merge empties a value.  Dimensions of hundreds of
		 * values are not FlatFly dimensions with a few pieces
		 * (check_lines() refuses them): bounded to keep them cheap.
		 */
		merges = 0;
		while (b->nvalues[d] > 2 && b->nvalues[d] <= 1024 &&
		       merges++ < 64 && merge_one_piece(b, d))
			;
		renumber_values(b, d);
	}
}

/* Phase 5: each stray bundle takes the one dimension its ends differ in. */
static int place_strays(struct ff_build *b, bool strict, uint32_t *placed)
{
	int *class_seen = NULL;
	uint32_t *class_first = NULL;
	uint32_t i;
	int error = 0;

	class_seen = malloc((b->nclasses + 1) * sizeof(*class_seen));
	class_first = malloc((b->nclasses + 1) * sizeof(*class_first));
	if (!class_seen || !class_first) {
		error = ot_error_nomem(b->err, "flatfly");
		goto out;
	}
	for (i = 0; i < b->nclasses; i++)
		class_seen[i] = -1;
	for (i = 0; i < b->nbundles; i++) {
		const struct ff_bundle *bd = &b->bundle[i];
		uint32_t c = b->bclass[i];
		unsigned int d, ndiff = 0, diff = 0;
		char why[160];

		if (b->cdim[c] >= 0) {
			b->bdim[i] = b->cdim[c];
			continue;
		}
		if (!strict && b->bdim[i] >= 0)
			continue;
		if (!b->active[bd->a] || !b->active[bd->b])
			continue; /* a loose switch's cable: place_loose() */
		for (d = 0; d < b->ndims; d++)
			if (b->coord[bd->a * OT_FF_MAX_DIMS + d] !=
			    b->coord[bd->b * OT_FF_MAX_DIMS + d]) {
				ndiff++;
				diff = d;
			}
		if (!strict && ndiff != 1)
			continue;
		if (!ndiff) {
			error = refuse_bundle(b, i,
					      "a cable inside one FlatFly position (its switches get the same coordinates)");
			goto out;
		}
		if (ndiff > 1) {
			snprintf(why, sizeof(why),
				 "joins switches that differ in %u of %u dimensions: not a FlatFly cable",
				 ndiff, b->ndims);
			error = refuse_bundle(b, i, why);
			goto out;
		}
		if (class_seen[c] >= 0 && class_seen[c] != (int)diff) {
			const struct ff_bundle *o = &b->bundle[class_first[c]];

			error = ot_refuse(b->err, OT_ERR_TOPOLOGY,
					  SW_FMT " port %u -- " SW_FMT " port %u: in a triangle or 4-cycle chain with the cable " SW_FMT " port %u -- " SW_FMT " port %u, but in another dimension",
					  SW_ARGS(b, bd->a), bd->pa,
					  SW_ARGS(b, bd->b), bd->pb,
					  SW_ARGS(b, o->a), o->pa,
					  SW_ARGS(b, o->b), o->pb);
			goto out;
		}
		class_seen[c] = diff;
		class_first[c] = i;
		if (b->bdim[i] != (int)diff)
			(*placed)++;
		b->bdim[i] = diff;
	}
out:
	free(class_seen);
	free(class_first);
	return error;
}

/*
 * Peels switches with a single neighbour switch, repeatedly.  When that
 * would leave no cycle at all (the switches form a tree), nothing is
 * peeled: the tree is then read as it is (a path of three is a 2x2
 * missing a corner) or refused.
 */
static void peel_pendants(struct ff_build *b)
{
	uint32_t *deg = b->scratch;
	uint32_t s, head = 0, j, left = b->nsw;

	b->npeeled = 0;
	for (s = 0; s < b->nsw; s++) {
		b->active[s] = true;
		deg[s] = b->astart[s + 1] - b->astart[s];
		if (deg[s] == 1)
			b->peel[b->npeeled++] = s;
	}
	while (head < b->npeeled) {
		uint32_t x = b->peel[head++];

		b->active[x] = false;
		left--;
		for (j = b->astart[x]; j < b->astart[x + 1]; j++) {
			uint32_t u = b->adj[j].sw;

			if (!b->active[u] || !deg[u])
				continue;
			deg[x]--;
			if (--deg[u] == 1)
				b->peel[b->npeeled++] = u;
		}
	}
	if (left < 3) {
		for (s = 0; s < b->nsw; s++)
			b->active[s] = true;
		b->npeeled = 0;
	}
}

/* Open-addressing index of the positions taken, for place_pendants(). */
struct position_index {
	uint32_t mask;
	uint32_t *sw; /* NONE = empty */
};

static uint64_t coords_hash(const uint32_t *c, unsigned int n)
{
	uint64_t h = 0x243f6a8885a308d3ull;
	unsigned int d;

	for (d = 0; d < n; d++) {
		h ^= c[d] + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
		h *= 0xff51afd7ed558ccdull;
	}
	return h ^ (h >> 33);
}

static bool position_taken(const struct ff_build *b,
			   const struct position_index *pi, const uint32_t *c)
{
	uint32_t i = coords_hash(c, b->ndims) & pi->mask;

	for (; pi->sw[i] != NONE; i = (i + 1) & pi->mask)
		if (!memcmp(&b->coord[pi->sw[i] * OT_FF_MAX_DIMS], c,
			    b->ndims * sizeof(*c)))
			return true;
	return false;
}

static void position_add(const struct ff_build *b, struct position_index *pi,
			 uint32_t s)
{
	uint32_t i = coords_hash(&b->coord[s * OT_FF_MAX_DIMS], b->ndims) &
		     pi->mask;

	while (pi->sw[i] != NONE)
		i = (i + 1) & pi->mask;
	pi->sw[i] = s;
}

/*
 * Switches of the core none of whose cables is in a dimension's class
 * (every triangle and 4-cycle through them lost a cable) say nothing
 * about the dimensions either: they join the peeled ones.
 */
static void loosen_unclassed(struct ff_build *b)
{
	uint32_t s, j;

	for (s = 0; s < b->nsw; s++) {
		bool classed = false;

		if (!b->active[s])
			continue;
		for (j = b->astart[s]; j < b->astart[s + 1]; j++)
			if (b->cdim[b->bclass[b->adj[j].bundle]] >= 0)
				classed = true;
		if (classed)
			continue;
		b->active[s] = false;
		b->peel[b->npeeled++] = s;
	}
}

/*
 * Places loose switch x if it has a placed neighbour: the first free
 * position (dimensions in working order, values in GUID order) that
 * differs from each placed neighbour in exactly one coordinate.  The
 * cabling does not say which is right; any such position gives a
 * consistent FlatFly, and the choice is the same for the same fabric.
 * Returns 1 when placed, 0 when it has no placed neighbour yet, -1 when
 * no position fits.
 */
static int place_one(struct ff_build *b, struct position_index *pi,
		     uint32_t x)
{
	uint32_t c[OT_FF_MAX_DIMS], v = NONE, j;
	unsigned int d;
	bool fits = false;

	for (j = b->astart[x]; j < b->astart[x + 1] && v == NONE; j++)
		if (b->active[b->adj[j].sw])
			v = b->adj[j].sw;
	if (v == NONE)
		return 0;
	memcpy(c, &b->coord[v * OT_FF_MAX_DIMS], sizeof(c));
	for (d = 0; d < b->ndims && !fits; d++) {
		uint32_t own = c[d], val;

		for (val = 0; val < b->nvalues[d] && !fits; val++) {
			if (val == own)
				continue;
			c[d] = val;
			if (position_taken(b, pi, c))
				continue;
			fits = true;
			for (j = b->astart[x]; j < b->astart[x + 1]; j++) {
				uint32_t u = b->adj[j].sw;

				if (b->active[u] &&
				    ot_ff_one_diff(c, sw_coords(b, u),
						   b->ndims) < 0)
					fits = false;
			}
		}
		if (!fits)
			c[d] = own;
	}
	if (!fits)
		return -1;
	memcpy(&b->coord[x * OT_FF_MAX_DIMS], c, sizeof(c));
	for (j = b->astart[x]; j < b->astart[x + 1]; j++) {
		uint32_t u = b->adj[j].sw;

		if (b->active[u])
			b->bdim[b->adj[j].bundle] =
				ot_ff_one_diff(c, sw_coords(b, u), b->ndims);
	}
	b->active[x] = true;
	position_add(b, pi, x);
	return 1;
}

/*
 * Places the peeled and loose switches, nearest to the core first, in
 * passes until none is left.
 */
static int place_loose(struct ff_build *b)
{
	struct position_index pi = { 0 };
	uint32_t size = 1, s, k, left = b->npeeled;
	bool progress = true;
	int error = 0, r;

	if (!b->npeeled)
		return 0;
	if (!b->ndims)
		return ot_refuse(b->err, OT_ERR_TOPOLOGY,
				 SW_FMT ": no cable of the fabric is in a triangle or 4-cycle: not a FlatFly",
				 SW_ARGS(b, b->peel[0]));
	while (size < 2 * b->nsw)
		size <<= 1;
	pi.mask = size - 1;
	pi.sw = malloc(size * sizeof(*pi.sw));
	if (!pi.sw)
		return ot_error_nomem(b->err, "flatfly");
	memset(pi.sw, 0xff, size * sizeof(*pi.sw));
	for (s = 0; s < b->nsw; s++)
		if (b->active[s])
			position_add(b, &pi, s);
	while (left && progress) {
		progress = false;
		for (k = b->npeeled; k-- > 0;) {
			uint32_t x = b->peel[k];

			if (b->active[x])
				continue;
			r = place_one(b, &pi, x);
			if (r < 0) {
				error = ot_refuse(b->err, OT_ERR_TOPOLOGY,
						  SW_FMT ": no free FlatFly position one step from each of its neighbour switches",
						  SW_ARGS(b, x));
				goto out;
			}
			if (r) {
				left--;
				progress = true;
			}
		}
	}
	if (left)
		error = ot_refuse(b->err, OT_ERR_TOPOLOGY,
				  "flatfly: %u switches could not be placed", left);
out:
	free(pi.sw);
	return error;
}

/*
 * Dimension order: size, then width (wider first), then the ends of its
 * lowest bundle (first_a, first_b, filled in once first is known; no two
 * dimensions share a bundle).
 */
struct dim_key {
	unsigned int dim;
	uint32_t size, width, first;
	uint32_t first_a, first_b;
};

static int cmp_dim(const void *pa, const void *pb)
{
	const struct dim_key *x = pa, *y = pb;

	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	if (x->width != y->width)
		return x->width > y->width ? -1 : 1;
	return cmp_bundle_ends(x->first_a, x->first_b, y->first_a,
			       y->first_b);
}

static int order_dimensions(struct ff_build *b, unsigned int *width)
{
	struct dim_key key[OT_FF_MAX_DIMS];
	unsigned int newdim[OT_FF_MAX_DIMS], d;
	uint32_t tmp[OT_FF_MAX_DIMS], nv[OT_FF_MAX_DIMS];
	uint32_t i, s;

	for (d = 0; d < b->ndims; d++) {
		key[d].dim = d;
		key[d].size = b->nvalues[d];
		key[d].width = 0;
		key[d].first = NONE;
	}
	for (i = 0; i < b->nbundles; i++) {
		struct dim_key *k = &key[b->bdim[i]];

		if (b->bundle[i].cables > k->width)
			k->width = b->bundle[i].cables;
		if (k->first == NONE || bundle_before(b, i, k->first))
			k->first = i;
	}
	for (d = 0; d < b->ndims; d++) {
		key[d].first_a = b->bundle[key[d].first].a;
		key[d].first_b = b->bundle[key[d].first].b;
	}
	qsort(key, b->ndims, sizeof(key[0]), cmp_dim);
	for (d = 0; d < b->ndims; d++) {
		newdim[key[d].dim] = d;
		width[d] = key[d].width;
		nv[d] = key[d].size;
	}
	for (d = 0; d < b->ndims; d++)
		b->nvalues[d] = nv[d];
	for (s = 0; s < b->nsw; s++) {
		uint32_t *c = &b->coord[s * OT_FF_MAX_DIMS];

		for (d = 0; d < b->ndims; d++)
			tmp[newdim[d]] = c[d];
		memcpy(c, tmp, b->ndims * sizeof(*c));
	}
	for (i = 0; i < b->nbundles; i++)
		b->bdim[i] = newdim[(unsigned int)b->bdim[i]];
	return 0;
}

static int32_t slot_of(const struct ot_ff *ff, const uint32_t *c)
{
	uint32_t slot = 0;
	unsigned int d;

	for (d = ff->ndims; d-- > 0;)
		slot = slot * ff->size[d] + c[d];
	return slot;
}

/*
 * Phase 6, the shape of each dimension of three or more values: lines
 * (switches that agree everywhere else) are full graphs, so some of its
 * cables close triangles and more than two thirds of the pairs of present
 * switches in its lines are cabled.  A fat tree, a long ring, or two
 * dimensions run together by a stray diagonal cable (a K x L plane has at
 * most 2/3 of its pairs cabled) slip through the earlier phases as one
 * wide dimension and fail here.
 */
static int check_lines(struct ff_build *b, const struct ot_ff *ff)
{
	uint32_t *line_count = NULL;
	uint32_t s, i;
	unsigned int d;
	int error = 0;

	line_count = calloc(ff->nslots, sizeof(*line_count));
	if (!line_count)
		return ot_error_nomem(b->err, "flatfly");
	for (d = 0; d < ff->ndims; d++) {
		uint64_t pairs = 0, cabled = 0;
		bool triangle = false;
		uint32_t stride = 1, e, first = NONE;

		if (ff->size[d] < 3)
			continue;
		for (e = 0; e < d; e++)
			stride *= ff->size[e];
		memset(line_count, 0, ff->nslots * sizeof(*line_count));
		for (s = 0; s < b->nsw; s++) {
			uint32_t slot = ff->sw_slot[b->sw_node[s]];
			uint32_t c = ot_ff_coord(ff, slot, d);

			line_count[slot - c * stride]++;
		}
		for (s = 0; s < ff->nslots; s++)
			pairs += (uint64_t)line_count[s] *
				 (line_count[s] - (line_count[s] > 0)) / 2;
		for (i = 0; i < b->nbundles; i++) {
			if (b->bdim[i] != (int)d)
				continue;
			cabled++;
			if (first == NONE)
				first = i;
			if (b->in_triangle[i])
				triangle = true;
		}
		if (!triangle || 3 * cabled <= 2 * pairs) {
			char why[200];

			snprintf(why, sizeof(why),
				 "dimension %u of %u values %s (%" PRIu64 " of %" PRIu64 " switch pairs of its lines cabled): its lines are not full graphs, not a FlatFly (a fat tree or a ring?)",
				 d, ff->size[d],
				 triangle ? "is sparse" : "has no triangle",
				 cabled, pairs);
			error = refuse_bundle(b, first, why);
			goto out;
		}
	}
out:
	free(line_count);
	return error;
}

/*
 * Positions: the product of the sizes, which the switches must fill to a
 * quarter at least (a guard, too, against sizes whose product overflows).
 */
static int size_positions(struct ff_build *b, struct ot_ff *ff)
{
	uint64_t nslots = 1;
	unsigned int d;

	for (d = 0; d < b->ndims; d++) {
		ff->size[d] = b->nvalues[d];
		nslots *= ff->size[d];
		if (nslots > 4 * (uint64_t)b->nsw + 16)
			break;
	}
	if (nslots > 4 * (uint64_t)b->nsw + 16)
		return ot_refuse(b->err, OT_ERR_TOPOLOGY,
				 "flatfly: %u switches would fill fewer than a quarter of the positions of %u dimensions (first " SW_FMT "): not a FlatFly",
				 b->nsw, b->ndims, SW_ARGS(b, 0));
	ff->nslots = nslots;
	return 0;
}

/* ff's tables, every position empty and no port with a dimension. */
static int alloc_tables(struct ff_build *b, struct ot_ff *ff)
{
	const struct ot_fabric *f = b->f;
	uint32_t base = 0, i;

	ff->sw_slot = malloc(f->nnodes * sizeof(*ff->sw_slot));
	ff->slot_node = malloc(ff->nslots * sizeof(*ff->slot_node));
	ff->port_dim_base = malloc((f->nnodes + 1) *
				   sizeof(*ff->port_dim_base));
	if (!ff->sw_slot || !ff->slot_node || !ff->port_dim_base)
		return ot_error_nomem(b->err, "flatfly");
	for (i = 0; i < ff->nslots; i++)
		ff->slot_node[i] = -1;
	for (i = 0; i < f->nnodes; i++) {
		ff->sw_slot[i] = -1;
		ff->port_dim_base[i] = base;
		base += f->node[i].nports + 1;
	}
	ff->port_dim_base[f->nnodes] = base;
	ff->port_dim = malloc((base ? base : 1) * sizeof(*ff->port_dim));
	if (!ff->port_dim)
		return ot_error_nomem(b->err, "flatfly");
	memset(ff->port_dim, -1, base * sizeof(*ff->port_dim));
	return 0;
}

/* Every switch at the position of its coordinates, each its own. */
static int place_switches(struct ff_build *b, struct ot_ff *ff)
{
	uint32_t s;

	for (s = 0; s < b->nsw; s++) {
		int32_t slot = slot_of(ff, sw_coords(b, s));
		int32_t other = ff->slot_node[slot];

		if (other >= 0)
			return ot_refuse(b->err, OT_ERR_TOPOLOGY,
					 SW_FMT " and " SW_FMT " get the same FlatFly coordinates: not a FlatFly",
					 SW_ARGS(b, b->node_sw[other]),
					 SW_ARGS(b, s));
		ff->slot_node[slot] = b->sw_node[s];
		ff->sw_slot[b->sw_node[s]] = slot;
	}
	return 0;
}

/* The dimension of every switch-to-switch cable, port by port. */
static void fill_port_dims(const struct ff_build *b, struct ot_ff *ff)
{
	uint32_t s, j;
	unsigned int p;

	for (s = 0; s < b->nsw; s++) {
		int32_t n = b->sw_node[s];
		const struct ot_node *nd = &b->f->node[n];

		for (p = 1; p <= nd->nports; p++) {
			int32_t peer = nd->port[p].peer;

			if (peer < 0 || b->node_sw[peer] < 0)
				continue;
			for (j = b->astart[s]; j < b->astart[s + 1]; j++)
				if (b->adj[j].sw == (uint32_t)b->node_sw[peer])
					ff->port_dim[ff->port_dim_base[n] + p] =
						b->bdim[b->adj[j].bundle];
		}
	}
}

/* Phase 6: the result, and the last checks that need positions. */
static int build_result(struct ff_build *b, struct ot_ff **out)
{
	struct ot_ff *ff;
	int error;

	ff = calloc(1, sizeof(*ff));
	if (!ff)
		return ot_error_nomem(b->err, "flatfly");
	ff->fabric = b->f;
	ff->ndims = b->ndims;
	error = order_dimensions(b, ff->width);
	if (!error)
		error = size_positions(b, ff);
	if (!error)
		error = alloc_tables(b, ff);
	if (!error)
		error = place_switches(b, ff);
	if (!error) {
		fill_port_dims(b, ff);
		error = check_lines(b, ff);
	}
	if (error) {
		ot_ff_free(ff);
		return error;
	}
	*out = ff;
	return 0;
}

/* One switch graph: OpenSM discovers only what the SM can reach. */
static int check_connected(struct ff_build *b)
{
	uint32_t i, s;

	ot_uf_reset(b->sw_sets);
	for (i = 0; i < b->nbundles; i++)
		ot_uf_union(b->sw_sets, b->bundle[i].a, b->bundle[i].b);
	for (s = 1; s < b->nsw; s++)
		if (!ot_uf_same(b->sw_sets, s, 0))
			return ot_refuse(b->err, OT_ERR_TOPOLOGY,
					 SW_FMT " has no switch-to-switch path to " SW_FMT ": the switches are not one fabric",
					 SW_ARGS(b, s), SW_ARGS(b, 0));
	return 0;
}

static int alloc_build(struct ff_build *b)
{
	const struct ot_fabric *f = b->f;
	uint32_t n = f->nnodes + 1;

	b->sw_node = malloc(n * sizeof(*b->sw_node));
	b->node_sw = malloc(n * sizeof(*b->node_sw));
	b->astart = calloc(n + 1, sizeof(*b->astart));
	b->scratch = malloc(n * sizeof(*b->scratch));
	b->scratch2 = malloc(n * sizeof(*b->scratch2));
	b->active = malloc(n * sizeof(*b->active));
	b->peel = malloc(n * sizeof(*b->peel));
	if (!b->active || !b->peel)
		return ot_error_nomem(b->err, "flatfly");
	if (!b->sw_node || !b->node_sw || !b->astart || !b->scratch ||
	    !b->scratch2)
		return ot_error_nomem(b->err, "flatfly");
	return 0;
}

static int alloc_bundle_state(struct ff_build *b)
{
	uint32_t n = b->nbundles + 1;

	b->bundle_sets = ot_uf_new(b->nbundles);
	b->sw_sets = ot_uf_new(b->nsw);
	b->in_triangle = calloc(n, sizeof(*b->in_triangle));
	b->bdim = malloc(n * sizeof(*b->bdim));
	b->coord = calloc((size_t)b->nsw * OT_FF_MAX_DIMS, sizeof(*b->coord));
	if (!b->bundle_sets || !b->sw_sets || !b->in_triangle || !b->bdim ||
	    !b->coord)
		return ot_error_nomem(b->err, "flatfly");
	memset(b->bdim, -1, n * sizeof(*b->bdim));
	return 0;
}

static void free_build(struct ff_build *b)
{
	free(b->sw_node);
	free(b->node_sw);
	free(b->astart);
	free(b->adj);
	free(b->bundle);
	ot_uf_free(b->bundle_sets);
	free(b->in_triangle);
	free(b->bclass);
	free(b->cstart);
	free(b->cmember);
	free(b->cdim);
	free(b->bdim);
	free(b->coord);
	ot_uf_free(b->sw_sets);
	free(b->scratch);
	free(b->scratch2);
	free(b->active);
	free(b->peel);
}

/* Phase 1: switches and bundles, one switch graph. */
static int read_cabling(struct ff_build *b)
{
	int error;

	error = collect_switches(b);
	if (!error)
		error = collect_bundles(b);
	if (!error)
		error = alloc_bundle_state(b);
	if (!error)
		error = check_connected(b);
	return error;
}

/* Phases 2 and 3: classes of bundles, and which of them are dimensions. */
static int find_dimensions(struct ff_build *b)
{
	int error;

	peel_pendants(b);
	error = apply_rules(b);
	if (error)
		return error;
	if (!b->rule_fired && b->nbundles >= 3)
		return refuse_structureless(b);
	error = build_classes(b);
	if (!error)
		error = choose_dimensions(b);
	return error;
}

/*
 * Phases 4 and 5, then the loose switches: the coordinates of every
 * switch and the dimension of every bundle.
 */
static int find_coordinates(struct ff_build *b)
{
	uint32_t placed = 0;
	unsigned int round;
	int error = 0;

	loosen_unclassed(b);
	/*
	 * Strays placed by the coordinates join the hyperplanes they lie
	 * in, which can heal pieces the first reading left: read again
	 * while that places more strays.
	 */
	for (round = 0; round < 4; round++) {
		placed = 0;
		assign_coordinates(b);
		error = place_strays(b, false, &placed);
		if (error || !placed)
			break;
	}
	if (!error)
		error = place_strays(b, true, &placed);
	if (!error)
		error = place_loose(b);
	return error;
}

int ot_ff_map(const struct ot_fabric *f, struct ot_ff **out,
	      struct ot_error *err)
{
	struct ff_build b = { .f = f, .err = err };
	int error;

	*out = NULL;
	error = alloc_build(&b);
	if (!error)
		error = read_cabling(&b);
	if (!error)
		error = find_dimensions(&b);
	if (!error)
		error = find_coordinates(&b);
	if (!error)
		error = build_result(&b, out);
	free_build(&b);
	return error;
}

int ot_ff_one_diff(const uint32_t *x, const uint32_t *y, unsigned int n)
{
	unsigned int d;
	int diff = -1;

	for (d = 0; d < n; d++) {
		if (x[d] == y[d])
			continue;
		if (diff >= 0)
			return -1;
		diff = d;
	}
	return diff;
}

void ot_ff_free(struct ot_ff *ff)
{
	if (!ff)
		return;
	free(ff->sw_slot);
	free(ff->slot_node);
	free(ff->port_dim);
	free(ff->port_dim_base);
	free(ff);
}

int ot_ff_verify(const struct ot_ff *ff, struct ot_error *err)
{
	const struct ot_fabric *f = ff->fabric;
	uint32_t n;
	unsigned int p, d;

	for (n = 0; n < f->nnodes; n++) {
		const struct ot_node *nd = &f->node[n];
		int32_t slot = ff->sw_slot[n];

		if (nd->type != OT_NODE_SWITCH)
			continue;
		if (slot < 0 || (uint32_t)slot >= ff->nslots ||
		    ff->slot_node[slot] != (int32_t)n)
			return ot_error_set(err,
					    "switch \"%s\" (0x%016" PRIx64 "): no consistent position",
					    nd->desc, nd->guid);
		for (p = 1; p <= nd->nports; p++) {
			int32_t peer = nd->port[p].peer;
			int pd = ot_ff_port_dim(ff, n, p);
			unsigned int ndiff = 0;
			int diff = -1;

			if (peer < 0 || f->node[peer].type != OT_NODE_SWITCH)
				continue;
			for (d = 0; d < ff->ndims; d++)
				if (ot_ff_coord(ff, slot, d) !=
				    ot_ff_coord(ff, ff->sw_slot[peer], d)) {
					ndiff++;
					diff = d;
				}
			if (ndiff != 1 || diff != pd)
				return ot_error_set(err,
						    "switch \"%s\" (0x%016" PRIx64 ") port %u: cable of dimension %d joins coordinates that differ in %u dimensions",
						    nd->desc, nd->guid, p, pd,
						    ndiff);
		}
	}
	return 0;
}

/*
 * Phases 1 and 2 alone, for recognizers of products with a factor that
 * is no full graph (topo/sfff.c): the bundles and their classes under
 * rules 3 and 4, nothing peeled, no dimension chosen.
 */
int ot_ff_link_classes(const struct ot_fabric *f, struct ot_ff_links *out,
		       struct ot_error *err)
{
	struct ff_build b = { .f = f, .err = err };
	uint32_t i;
	int error;

	memset(out, 0, sizeof(*out));
	error = alloc_build(&b);
	if (!error)
		error = collect_switches(&b);
	if (!error)
		error = collect_bundles(&b);
	if (!error)
		error = alloc_bundle_state(&b);
	if (!error)
		error = apply_rules(&b);
	if (!error)
		error = build_classes(&b);
	if (error)
		goto out;
	out->a = malloc((b.nbundles + 1) * sizeof(*out->a));
	out->b = malloc((b.nbundles + 1) * sizeof(*out->b));
	out->cables = malloc((b.nbundles + 1) * sizeof(*out->cables));
	out->cls = malloc((b.nbundles + 1) * sizeof(*out->cls));
	out->rank = malloc((f->nnodes + 1) * sizeof(*out->rank));
	if (!out->a || !out->b || !out->cables || !out->cls || !out->rank) {
		ot_ff_links_free(out);
		error = ot_error_nomem(err, "flatfly");
		goto out;
	}
	for (i = 0; i < b.nbundles; i++) {
		out->a[i] = b.sw_node[b.bundle[i].a];
		out->b[i] = b.sw_node[b.bundle[i].b];
		out->cables[i] = b.bundle[i].cables;
		out->cls[i] = b.bclass[i];
	}
	for (i = 0; i < f->nnodes; i++)
		out->rank[i] = b.node_sw[i];
	out->nbundles = b.nbundles;
	out->nclasses = b.nclasses;
	out->nsw = b.nsw;
out:
	free_build(&b);
	return error;
}

void ot_ff_links_free(struct ot_ff_links *l)
{
	free(l->a);
	free(l->b);
	free(l->cables);
	free(l->cls);
	free(l->rank);
	memset(l, 0, sizeof(*l));
}
