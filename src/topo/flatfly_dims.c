// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The FlatFly recognizer, phases 1 to 3 (topo/flatfly.c describes them):
 * the switches in the order the cabling fixes, the bundles of cables
 * between two switches, the classes seed 001's rules 3 and 4 join them
 * into, and which classes are dimensions.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/refine.h"
#include "topo/flatfly_build.h"

/*
 * sw_node is in node order; re-sorts it by the order the cabling fixes
 * (ot_refine_switch_order(): GUIDs only break the ties refinement leaves,
 * which on a fabric generated whole are its symmetries) so that a
 * switch's index s is its rank, and fills node_sw to match.  Every later
 * tie-break of the recognizer (dimension order, values, where a loose
 * switch goes) follows the ranks, so a damaged fabric maps the same way
 * whatever its GUIDs.
 */
static int rank_switches(struct ff_build *b)
{
	uint32_t *rank;
	uint32_t i;

	rank = malloc((b->f->nnodes + 1) * sizeof(*rank));
	if (!rank)
		return ot_error_nomem(b->err, "flatfly");
	if (ot_refine_switch_order(b->f, rank, NULL, b->err)) {
		free(rank);
		return -1;
	}
	for (i = 0; i < b->f->nnodes; i++) {
		if (rank[i] == OT_REFINE_SKIP)
			continue;
		b->sw_node[rank[i]] = (int32_t)i;
		b->node_sw[i] = (int32_t)rank[i];
	}
	free(rank);
	return 0;
}

/*
 * Switches, their ranks, and refusals of node kinds and cables a
 * FlatFly has no place for.
 */
int ffmap_collect_switches(struct ff_build *b)
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

static int cmp_adj(const void *pa, const void *pb)
{
	const struct ff_adj *x = pa, *y = pb;

	return x->sw < y->sw ? -1 : x->sw > y->sw;
}

/*
 * Port numbers must not matter: each switch's neighbours in rank order,
 * and the bundles renumbered in the order of their ends (lower, then
 * higher), so that a class's first bundle is its lowest.
 */
static int order_bundles(struct ff_build *b, uint32_t total)
{
	struct keyed *key = malloc((b->nbundles + 1) * sizeof(*key));
	uint32_t *newid = malloc((b->nbundles + 1) * sizeof(*newid));
	struct ff_bundle *sorted = malloc((b->nbundles + 1) * sizeof(*sorted));
	uint32_t s, i;

	if (!key || !newid || !sorted) {
		free(key);
		free(newid);
		free(sorted);
		return ot_error_nomem(b->err, "flatfly");
	}
	for (s = 0; s < b->nsw; s++)
		qsort(&b->adj[b->astart[s]], b->astart[s + 1] - b->astart[s],
		      sizeof(*b->adj), cmp_adj);
	for (i = 0; i < b->nbundles; i++) {
		key[i].key = (uint64_t)b->bundle[i].a << 32 | b->bundle[i].b;
		key[i].id = i;
	}
	qsort(key, b->nbundles, sizeof(*key), cmp_keyed);
	for (i = 0; i < b->nbundles; i++) {
		newid[key[i].id] = i;
		sorted[i] = b->bundle[key[i].id];
	}
	for (i = 0; i < total; i++)
		b->adj[i].bundle = newid[b->adj[i].bundle];
	free(b->bundle);
	b->bundle = sorted;
	free(key);
	free(newid);
	return 0;
}

/* Phase 1: bundles and the adjacency lists of switches. */
int ffmap_collect_bundles(struct ff_build *b)
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
	return order_bundles(b, total);
}

/*
 * The working state of ffmap_apply_rules(), per switch x unless said; the five
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
int ffmap_apply_rules(struct ff_build *b)
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
 * numbered in the order of their ends, so the first member of a class is
 * its lowest bundle).
 */
int ffmap_build_classes(struct ff_build *b)
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

int ffmap_refuse_bundle(struct ff_build *b, uint32_t x, const char *why)
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
int ffmap_refuse_structureless(struct ff_build *b)
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
		error = ffmap_refuse_bundle(b, 0,
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
int ffmap_choose_dimensions(struct ff_build *b)
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
			error = ffmap_refuse_bundle(b, class_first(b, c),
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
