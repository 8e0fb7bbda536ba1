// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Colour refinement (see refine.h).  A round builds each vertex's key,
 * [its colour, its neighbours' colours ascending], sorts the vertices by
 * key and numbers the distinct keys in that order: O(edges log edges) a
 * round, at most as many rounds as there are vertices, far fewer in
 * practice (a round that splits no class ends it).
 */
#define _GNU_SOURCE /* qsort_r */
#include <stdlib.h>
#include <string.h>

#include "model/refine.h"

struct keys {
	uint32_t *key; /* vertex v's key at key[off[v] .. off[v + 1]) */
	size_t *off;
};

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* By colour, then number of neighbours, then neighbours' colours. */
static int cmp_key(const void *a, const void *b, void *arg)
{
	const struct keys *k = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const uint32_t *kx = k->key + k->off[x], *ky = k->key + k->off[y];
	size_t lx = k->off[x + 1] - k->off[x], ly = k->off[y + 1] - k->off[y];
	size_t i;

	if (kx[0] != ky[0])
		return kx[0] < ky[0] ? -1 : 1;
	if (lx != ly)
		return lx < ly ? -1 : 1;
	for (i = 1; i < lx; i++)
		if (kx[i] != ky[i])
			return kx[i] < ky[i] ? -1 : 1;
	return 0;
}

/*
 * Sorts a vertex's neighbour colours: insertion sort for the short lists
 * of switch graphs (qsort()'s calls cost more there), qsort() beyond.
 */
static void sort_colours(uint32_t *c, size_t n)
{
	size_t i, j;

	if (n > 64) {
		qsort(c, n, sizeof(*c), cmp_u32);
		return;
	}
	for (i = 1; i < n; i++) {
		uint32_t x = c[i];

		for (j = i; j > 0 && c[j - 1] > x; j--)
			c[j] = c[j - 1];
		c[j] = x;
	}
}

static void build_keys(const struct ot_refine_graph *g,
		       const uint32_t *colour, bool peers, struct keys *k)
{
	size_t at = 0, e;
	uint32_t v;

	for (v = 0; v < g->n; v++) {
		size_t first;

		k->off[v] = at;
		if (colour[v] == OT_REFINE_SKIP)
			continue;
		k->key[at++] = colour[v];
		first = at;
		for (e = g->off[v]; peers && e < g->off[v + 1]; e++)
			if (colour[g->adj[e]] != OT_REFINE_SKIP)
				k->key[at++] = colour[g->adj[e]];
		sort_colours(k->key + first, at - first);
	}
	k->off[g->n] = at;
}

/* The refinement proper, on buffers the caller owns. */
static uint32_t refine(const struct ot_refine_graph *g, uint32_t *colour,
		       unsigned int max_rounds, struct keys *k,
		       uint32_t *order)
{
	uint32_t v, m = 0, classes = 0, prev = 0;
	unsigned int round;

	for (v = 0; v < g->n; v++)
		if (colour[v] != OT_REFINE_SKIP)
			order[m++] = v;
	/*
	 * Round 0 only ranks the initial colours, so that refined colours
	 * are 0 .. classes - 1 in their order.  A later round only splits
	 * classes (the old colour leads the key): equal counts, stable.
	 */
	for (round = 0; !max_rounds || round <= max_rounds; round++) {
		uint32_t i;

		build_keys(g, colour, round > 0, k);
		qsort_r(order, m, sizeof(*order), cmp_key, k);
		classes = 0;
		for (i = 0; i < m; i++) {
			if (i && cmp_key(&order[i - 1], &order[i], k))
				classes++;
			colour[order[i]] = classes;
		}
		classes += m > 0;
		if (round && classes == prev)
			break;
		prev = classes;
	}
	return classes;
}

static int alloc_keys(const struct ot_refine_graph *g, struct keys *k,
		      uint32_t **order, struct ot_error *err)
{
	size_t slots = g->off[g->n] + g->n + 1;

	k->key = malloc(slots * sizeof(*k->key));
	k->off = malloc(((size_t)g->n + 1) * sizeof(*k->off));
	*order = malloc(((size_t)g->n + 1) * sizeof(**order));
	if (k->key && k->off && *order)
		return 0;
	free(k->key);
	free(k->off);
	free(*order);
	return ot_error_nomem(err, "colour refinement");
}

int ot_refine_graph(const struct ot_refine_graph *g, uint32_t *colour,
		    unsigned int max_rounds, uint32_t *nclasses,
		    struct ot_error *err)
{
	struct keys k;
	uint32_t *order;

	if (alloc_keys(g, &k, &order, err))
		return -1;
	*nclasses = refine(g, colour, max_rounds, &k, order);
	free(k.key);
	free(k.off);
	free(order);
	return 0;
}

/*
 * f's cables in compressed rows (g->off and g->adj allocated here).  With
 * switch_rows set, only cables between two switches, and each switch's
 * cables to other nodes counted in extra[] (from 0; other nodes get
 * OT_REFINE_SKIP).
 */
static int fabric_rows(const struct ot_fabric *f, bool switch_rows,
		       struct ot_refine_graph *g, uint32_t *extra,
		       struct ot_error *err)
{
	size_t *off = malloc(((size_t)f->nnodes + 1) * sizeof(*off));
	uint32_t *adj, n;
	size_t e = 0;
	unsigned int p;

	for (n = 0; n < f->nnodes; n++)
		e += f->node[n].nports;
	adj = malloc((e + 1) * sizeof(*adj));
	if (!off || !adj) {
		free(off);
		free(adj);
		return ot_error_nomem(err, "colour refinement");
	}
	for (e = 0, n = 0; n < f->nnodes; n++) {
		const struct ot_node *nd = &f->node[n];
		bool sw = ot_is_switch(f, (int)n);

		off[n] = e;
		if (switch_rows)
			extra[n] = sw ? 0 : OT_REFINE_SKIP;
		for (p = 1; p <= nd->nports && (sw || !switch_rows); p++) {
			int32_t peer = nd->port[p].peer;

			if (peer < 0)
				continue;
			if (!switch_rows || ot_is_switch(f, peer))
				adj[e++] = (uint32_t)peer;
			else
				extra[n]++;
		}
	}
	off[f->nnodes] = e;
	g->n = f->nnodes;
	g->off = off;
	g->adj = adj;
	return 0;
}

int ot_refine(const struct ot_fabric *f, uint32_t *colour,
	      unsigned int max_rounds, uint32_t *nclasses,
	      struct ot_error *err)
{
	struct ot_refine_graph g;
	int error;

	if (fabric_rows(f, false, &g, NULL, err))
		return -1;
	error = ot_refine_graph(&g, colour, max_rounds, nclasses, err);
	free((void *)g.off);
	free((void *)g.adj);
	return error;
}

int ot_refine_discrete(const struct ot_refine_graph *g, uint32_t *colour,
		       const uint64_t *tie, uint32_t *nclasses,
		       uint32_t *ties, struct ot_error *err)
{
	struct keys k;
	uint32_t *order, *size, classes, v, m = 0, decided = 0;

	for (v = 0; v < g->n; v++)
		m += colour[v] != OT_REFINE_SKIP;
	if (alloc_keys(g, &k, &order, err))
		return -1;
	size = malloc(((size_t)g->n + 1) * sizeof(*size));
	if (!size) {
		free(k.key);
		free(k.off);
		free(order);
		return ot_error_nomem(err, "colour refinement");
	}
	classes = refine(g, colour, 0, &k, order);
	while (classes < m) {
		uint32_t c, pick = UINT32_MAX;

		memset(size, 0, ((size_t)g->n + 1) * sizeof(*size));
		for (v = 0; v < g->n; v++)
			if (colour[v] != OT_REFINE_SKIP)
				size[colour[v]]++;
		for (c = 0; size[c] < 2; c++)
			;
		for (v = 0; v < g->n; v++)
			if (colour[v] == c &&
			    (pick == UINT32_MAX || tie[v] < tie[pick]))
				pick = v;
		/*
		 * The pick goes first in its class: every colour above
		 * moves up by one, so the pick keeps c and the rest c + 1.
		 */
		for (v = 0; v < g->n; v++)
			if (colour[v] != OT_REFINE_SKIP &&
			    (colour[v] > c || (colour[v] == c && v != pick)))
				colour[v]++;
		decided++;
		classes = refine(g, colour, 0, &k, order);
	}
	*nclasses = classes;
	if (ties)
		*ties = decided;
	free(size);
	free(k.key);
	free(k.off);
	free(order);
	return 0;
}

int ot_refine_switch_order(const struct ot_fabric *f, uint32_t *rank,
			   uint32_t *ties, struct ot_error *err)
{
	uint64_t *tie = malloc(((size_t)f->nnodes + 1) * sizeof(*tie));
	struct ot_refine_graph g;
	uint32_t n, nclasses;
	int error;

	if (!tie)
		return ot_error_nomem(err, "colour refinement");
	if (fabric_rows(f, true, &g, rank, err)) {
		free(tie);
		return -1;
	}
	for (n = 0; n < f->nnodes; n++)
		tie[n] = f->node[n].guid;
	/*
	 * Refined colours put fewer CAs, then fewer cables first: turned
	 * round, the best connected switches come first, so that what a
	 * recognizer or engine does first or at its lowest numbers (an
	 * origin, a dimension's value 0, a detour's turn) lands on the
	 * intact part of a damaged fabric.  The classes are turned round
	 * before the ties are broken, so that among switches the cabling
	 * cannot tell apart the lowest GUID still comes first.
	 */
	error = ot_refine_graph(&g, rank, 0, &nclasses, err);
	for (n = 0; !error && n < f->nnodes; n++)
		if (rank[n] != OT_REFINE_SKIP)
			rank[n] = nclasses - 1 - rank[n];
	if (!error)
		error = ot_refine_discrete(&g, rank, tie, &nclasses, ties,
					   err);
	free((void *)g.off);
	free((void *)g.adj);
	free(tie);
	return error;
}
