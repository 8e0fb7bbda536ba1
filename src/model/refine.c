// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Colour refinement (see refine.h).  A round builds each node's key,
 * [its colour, its peers' colours ascending], sorts the nodes by key and
 * numbers the distinct keys in that order: O(cables log cables) a round,
 * at most as many rounds as there are nodes, far fewer in practice (a
 * round that splits no class ends it).
 */
#define _GNU_SOURCE /* qsort_r */
#include <stdlib.h>
#include <string.h>

#include "model/refine.h"

struct refine {
	uint32_t *key;   /* keys, node n's at key[off[n] .. off[n + 1]) */
	size_t *off;
};

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

static int cmp_key(const void *a, const void *b, void *arg)
{
	const struct refine *r = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	size_t lx = r->off[x + 1] - r->off[x], ly = r->off[y + 1] - r->off[y];
	size_t i;

	/* colour first, then the number of peers, then the peers */
	if (r->key[r->off[x]] != r->key[r->off[y]])
		return r->key[r->off[x]] < r->key[r->off[y]] ? -1 : 1;
	if (lx != ly)
		return lx < ly ? -1 : 1;
	for (i = 1; i < lx; i++)
		if (r->key[r->off[x] + i] != r->key[r->off[y] + i])
			return r->key[r->off[x] + i] <
					       r->key[r->off[y] + i] ?
				       -1 :
				       1;
	return 0;
}

static size_t build_keys(const struct ot_fabric *f, const uint32_t *colour,
			 struct refine *r)
{
	size_t k = 0;
	uint32_t n;
	unsigned int p;

	for (n = 0; n < f->nnodes; n++) {
		size_t first;

		r->off[n] = k;
		if (colour[n] == OT_REFINE_SKIP)
			continue;
		r->key[k++] = colour[n];
		first = k;
		for (p = 1; p <= f->node[n].nports; p++) {
			int32_t x = f->node[n].port[p].peer;

			if (x >= 0 && colour[x] != OT_REFINE_SKIP)
				r->key[k++] = colour[x];
		}
		qsort(r->key + first, k - first, sizeof(*r->key), cmp_u32);
	}
	r->off[f->nnodes] = k;
	return k;
}

int ot_refine(const struct ot_fabric *f, uint32_t *colour,
	      unsigned int max_rounds, uint32_t *nclasses,
	      struct ot_error *err)
{
	struct refine r = { 0 };
	uint32_t *order = NULL, n, m = 0, classes = 0, prev = 0;
	size_t slots = 0;
	unsigned int round;
	int error = 0;

	for (n = 0; n < f->nnodes; n++)
		slots += 1 + (size_t)f->node[n].nports;
	r.key = malloc((slots + 1) * sizeof(*r.key));
	r.off = malloc(((size_t)f->nnodes + 1) * sizeof(*r.off));
	order = malloc(((size_t)f->nnodes + 1) * sizeof(*order));
	if (!r.key || !r.off || !order) {
		error = ot_error_nomem(err, "colour refinement");
		goto out;
	}
	for (n = 0; n < f->nnodes; n++)
		if (colour[n] != OT_REFINE_SKIP)
			order[m++] = n;
	for (round = 0; !max_rounds || round <= max_rounds; round++) {
		uint32_t i;

		/*
		 * Round 0 only ranks the initial colours (no peers), so
		 * that refined colours are 0 .. classes - 1 in their order.
		 */
		if (round) {
			build_keys(f, colour, &r);
		} else {
			for (n = 0; n < f->nnodes; n++) {
				r.off[n] = n;
				r.key[n] = colour[n];
			}
			r.off[f->nnodes] = f->nnodes;
		}
		qsort_r(order, m, sizeof(*order), cmp_key, &r);
		classes = 0;
		for (i = 0; i < m; i++) {
			if (i && cmp_key(&order[i - 1], &order[i], &r))
				classes++;
			colour[order[i]] = classes;
		}
		classes += m > 0;
		if (round && classes == prev)
			break;
		prev = classes;
	}
	*nclasses = classes;
out:
	free(r.key);
	free(r.off);
	free(order);
	return error;
}
