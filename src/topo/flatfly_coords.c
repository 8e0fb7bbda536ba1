// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The FlatFly recognizer, phases 4 and 5 (topo/flatfly.c describes them):
 * each switch's coordinates from the components of the switch graph
 * without a dimension, the pieces a missing switch cut off merged back,
 * each stray bundle given its dimension, and the switches that close no
 * triangle or 4-cycle placed last, one step from their neighbours.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo/flatfly_build.h"

/* (topo/flatfly.h; here since the placing of switches is its first user) */
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

/* A bundle's dimension: its class's, or the one a stray was given. */
static int bundle_dim(const struct ff_build *b, uint32_t i)
{
	int cd = b->cdim[b->bclass[i]];

	return cd >= 0 ? cd : b->bdim[i];
}

/*
 * Phase 4 for dimension d: values are the components of the switch graph
 * without dimension d (strays not placed yet left out: they could be in
 * d), numbered by their lowest switch in rank order.
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

/* Renumbers the values of dimension d by their lowest switch's rank. */
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
 * ffmap_merge_one_piece().  The four per-value arrays share one zeroed
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
 * rank order within a value), orders the values smallest first (stable:
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
bool ffmap_merge_one_piece(struct ff_build *b, unsigned int d)
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

void ffmap_assign_coordinates(struct ff_build *b)
{
	unsigned int d, merges;

	/* Merging a piece compares the other coordinates: all first. */
	for (d = 0; d < b->ndims; d++)
		component_values(b, d);
	for (d = 0; d < b->ndims; d++) {
		/*
		 * Each merge empties a value.  Dimensions of hundreds of
		 * values are not FlatFly dimensions with a few pieces
		 * (ffmap_check_lines() refuses them): bounded to keep them cheap.
		 */
		merges = 0;
		while (b->nvalues[d] > 2 && b->nvalues[d] <= 1024 &&
		       merges++ < 64 && ffmap_merge_one_piece(b, d))
			;
		renumber_values(b, d);
	}
}

/* Phase 5: each stray bundle takes the one dimension its ends differ in. */
int ffmap_place_strays(struct ff_build *b, bool strict, uint32_t *placed)
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
			continue; /* a loose switch's cable: ffmap_place_loose() */
		for (d = 0; d < b->ndims; d++)
			if (b->coord[bd->a * OT_FF_MAX_DIMS + d] !=
			    b->coord[bd->b * OT_FF_MAX_DIMS + d]) {
				ndiff++;
				diff = d;
			}
		if (!strict && ndiff != 1)
			continue;
		if (!ndiff) {
			error = ffmap_refuse_bundle(b, i,
					      "a cable inside one FlatFly position (its switches get the same coordinates)");
			goto out;
		}
		if (ndiff > 1) {
			snprintf(why, sizeof(why),
				 "joins switches that differ in %u of %u dimensions: not a FlatFly cable",
				 ndiff, b->ndims);
			error = ffmap_refuse_bundle(b, i, why);
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
void ffmap_peel_pendants(struct ff_build *b)
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
void ffmap_loosen_unclassed(struct ff_build *b)
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
 * position (dimensions in working order, values in rank order) that
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
int ffmap_place_loose(struct ff_build *b)
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
