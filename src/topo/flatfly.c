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
 * Switches are ranked by colour refinement of the cabling (a switch's
 * CAs, its neighbours' colours, and so on), GUIDs (node index when GUIDs
 * tie, as in generated fabrics before ibsim numbers them) deciding only
 * among switches the cabling cannot tell apart -- on a fabric generated
 * whole, images of each other under a symmetry of it -- so that a
 * damaged fabric maps the same way whatever its GUIDs.  Only the choices
 * the topology leaves open follow the ranks: dimensions are numbered by
 * size, then width, then the ranks of their lowest cable; the values of
 * a dimension in the order of their lowest switch.  Port numbers and
 * node order never matter.
 *
 * Cost is linear in the number of 2-paths between switches (about
 * nswitches * degree^2): rectangles are found by grouping, per switch, the
 * 2-paths that end at the same switch.
 *
 * Files: phases 1-3 in flatfly_dims.c, 4-5 in flatfly_coords.c, 6 and the
 * driver (ot_ff_map()) here; flatfly_build.h holds the working state.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo/flatfly_build.h"

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
int ffmap_check_lines(struct ff_build *b, const struct ot_ff *ff)
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
			error = ffmap_refuse_bundle(b, first, why);
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
		error = ffmap_check_lines(b, ff);
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

	error = ffmap_collect_switches(b);
	if (!error)
		error = ffmap_collect_bundles(b);
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

	ffmap_peel_pendants(b);
	error = ffmap_apply_rules(b);
	if (error)
		return error;
	if (!b->rule_fired && b->nbundles >= 3)
		return ffmap_refuse_structureless(b);
	error = ffmap_build_classes(b);
	if (!error)
		error = ffmap_choose_dimensions(b);
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

	ffmap_loosen_unclassed(b);
	/*
	 * Strays placed by the coordinates join the hyperplanes they lie
	 * in, which can heal pieces the first reading left: read again
	 * while that places more strays.
	 */
	for (round = 0; round < 4; round++) {
		placed = 0;
		ffmap_assign_coordinates(b);
		error = ffmap_place_strays(b, false, &placed);
		if (error || !placed)
			break;
	}
	if (!error)
		error = ffmap_place_strays(b, true, &placed);
	if (!error)
		error = ffmap_place_loose(b);
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
		error = ffmap_collect_switches(&b);
	if (!error)
		error = ffmap_collect_bundles(&b);
	if (!error)
		error = alloc_bundle_state(&b);
	if (!error)
		error = ffmap_apply_rules(&b);
	if (!error)
		error = ffmap_build_classes(&b);
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
