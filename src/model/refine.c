// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Colour refinement (see refine.h).  A round builds each vertex's key,
 * [its colour, its neighbours' colours ascending], sorts the vertices by
 * key and numbers the distinct keys in that order: at most as many
 * rounds as there are vertices, far fewer in practice (a round that
 * splits no class ends it).
 *
 * Only the classes that can split are sorted.  Keys lead with the old
 * colour, so a round splits classes and never merges or reorders them;
 * and a class none of whose members has a neighbour in a class the last
 * round split cannot split: its members' neighbour colours all moved by
 * the same increasing renumbering, so equal keys stay equal, and within
 * a class that does split, keys compare as they would have before the
 * renumbering.  So a round sorts the members of such "dirty" classes
 * alone and renumbers every vertex by one pass over the classes in
 * order, with the colours (and the rounds) the whole sort would give;
 * after one member of a stable colouring is individualized
 * (ot_refine_discrete()), only the classes next to its old class are
 * dirty, which makes each individualization cost what it changes, not
 * a sort of the graph.
 */
#define _GNU_SOURCE /* qsort_r */
#include <stdlib.h>
#include <string.h>

#include "model/refine.h"

/* A refinement's buffers (g's vertices and edges). */
struct work {
	const struct ot_refine_graph *g;
	const uint32_t *colour;
	uint32_t *key;    /* vertex v's key at key[g->off[v] + v], len[v] long */
	uint32_t *len;
	uint32_t *order;  /* the refined vertices, by class */
	uint32_t *start;  /* per class: its first place in order (+1 at end) */
	uint32_t *nstart; /* the next round's start */
	uint32_t m;       /* vertices refined (not skipped) */
	uint32_t classes;
	size_t *roff;     /* who lists v as a neighbour: radj[roff[v] ..] */
	uint32_t *radj;
	uint8_t *dirty;   /* per class: may split this round */
	uint8_t *split;   /* per class: split by the last round */
};

static int cmp_colour(const void *a, const void *b, void *arg)
{
	const uint32_t *colour = arg;
	uint32_t x = colour[*(const uint32_t *)a];
	uint32_t y = colour[*(const uint32_t *)b];

	return (x > y) - (x < y);
}

/* By colour, then number of neighbours, then neighbours' colours. */
static int cmp_key(const void *a, const void *b, void *arg)
{
	const struct work *w = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const uint32_t *kx = w->key + w->g->off[x] + x;
	const uint32_t *ky = w->key + w->g->off[y] + y;
	uint32_t i;

	if (kx[0] != ky[0])
		return kx[0] < ky[0] ? -1 : 1;
	if (w->len[x] != w->len[y])
		return w->len[x] < w->len[y] ? -1 : 1;
	for (i = 1; i < w->len[x]; i++)
		if (kx[i] != ky[i])
			return kx[i] < ky[i] ? -1 : 1;
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
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

static void build_key(struct work *w, uint32_t v)
{
	const struct ot_refine_graph *g = w->g;
	uint32_t *k = w->key + g->off[v] + v, at = 0;
	size_t e;

	k[at++] = w->colour[v];
	for (e = g->off[v]; e < g->off[v + 1]; e++)
		if (w->colour[g->adj[e]] != OT_REFINE_SKIP)
			k[at++] = w->colour[g->adj[e]];
	sort_colours(k + 1, at - 1);
	w->len[v] = at;
}

/*
 * Round 0: the initial colours ranked, every class dirty.  order, start
 * and classes set.  A vertex's colour is rewritten only once the next
 * one in order has been compared with it.
 */
static void rank_initial(struct work *w, uint32_t *colour)
{
	const struct ot_refine_graph *g = w->g;
	uint32_t v, i, c = 0;

	w->m = 0;
	for (v = 0; v < g->n; v++)
		if (colour[v] != OT_REFINE_SKIP)
			w->order[w->m++] = v;
	qsort_r(w->order, w->m, sizeof(*w->order), cmp_colour, colour);
	for (i = 0; i < w->m; i++) {
		uint32_t v0 = w->order[i];

		if (i && colour[v0] != colour[w->order[i - 1]]) {
			colour[w->order[i - 1]] = c++;
			w->start[c] = i;
		} else if (i) {
			colour[w->order[i - 1]] = c;
		}
	}
	if (w->m)
		colour[w->order[w->m - 1]] = c++;
	w->start[0] = 0;
	w->start[c] = w->m;
	w->classes = c;
	memset(w->dirty, 1, (size_t)c + 1);
}

/*
 * One round on the dirty classes: each sorted by key and split where
 * keys differ, every vertex renumbered, and the next round's dirty
 * classes marked: those of the vertices that list a member of a class
 * split now.  Whether any class split.
 */
static bool round_once(struct work *w, uint32_t *colour)
{
	uint32_t c, i, next = 0, old = w->classes, *t;
	bool any = false;

	for (c = 0; c < old; c++) {
		uint32_t a = w->start[c], b = w->start[c + 1];

		w->split[c] = 0;
		if (!w->dirty[c] || b - a < 2)
			continue;
		for (i = a; i < b; i++)
			build_key(w, w->order[i]);
		qsort_r(w->order + a, b - a, sizeof(*w->order), cmp_key, w);
		for (i = a + 1; i < b && !w->split[c]; i++)
			w->split[c] = !!cmp_key(&w->order[i - 1], &w->order[i],
						w);
		any |= w->split[c];
	}
	if (!any)
		return false;
	for (c = 0; c < old; c++) {
		uint32_t a = w->start[c], b = w->start[c + 1];

		w->nstart[next] = a;
		for (i = a; i < b; i++) {
			if (w->split[c] && i > a &&
			    cmp_key(&w->order[i - 1], &w->order[i], w))
				w->nstart[++next] = i;
			colour[w->order[i]] = next;
		}
		next++;
	}
	memset(w->dirty, 0, (size_t)next + 1);
	for (c = 0; c < old; c++) {
		if (!w->split[c])
			continue;
		for (i = w->start[c]; i < w->start[c + 1]; i++) {
			uint32_t v = w->order[i];
			size_t e;

			for (e = w->roff[v]; e < w->roff[v + 1]; e++)
				w->dirty[colour[w->radj[e]]] = 1;
		}
	}
	w->nstart[next] = w->m;
	t = w->start;
	w->start = w->nstart;
	w->nstart = t;
	w->classes = next;
	return true;
}

/* The refinement proper, on w's buffers, from w's dirty classes. */
static uint32_t refine_rounds(struct work *w, uint32_t *colour,
			      unsigned int max_rounds)
{
	unsigned int round;

	w->colour = colour;
	for (round = 1; !max_rounds || round <= max_rounds; round++)
		if (!round_once(w, colour))
			break;
	return w->classes;
}

static void work_free(struct work *w)
{
	free(w->key);
	free(w->len);
	free(w->order);
	free(w->start);
	free(w->nstart);
	free(w->roff);
	free(w->radj);
	free(w->dirty);
	free(w->split);
}

/* w's buffers for g, and who lists each vertex (skipped ones never). */
static int work_alloc(const struct ot_refine_graph *g, const uint32_t *colour,
		      struct work *w, struct ot_error *err)
{
	size_t n = (size_t)g->n + 1, edges = g->off[g->n], e;
	uint32_t v;

	memset(w, 0, sizeof(*w));
	w->g = g;
	w->key = malloc((edges + n) * sizeof(*w->key));
	w->len = calloc(n, sizeof(*w->len));
	w->order = malloc(n * sizeof(*w->order));
	w->start = malloc((n + 1) * sizeof(*w->start));
	w->nstart = malloc((n + 1) * sizeof(*w->nstart));
	w->roff = calloc(n + 1, sizeof(*w->roff));
	w->radj = malloc((edges + 1) * sizeof(*w->radj));
	w->dirty = malloc(n + 1);
	w->split = malloc(n + 1);
	if (!w->key || !w->len || !w->order || !w->start || !w->nstart ||
	    !w->roff || !w->radj || !w->dirty || !w->split) {
		work_free(w);
		return ot_error_nomem(err, "colour refinement");
	}
	for (v = 0; v < g->n; v++)
		for (e = g->off[v]; colour[v] != OT_REFINE_SKIP &&
				    e < g->off[v + 1]; e++)
			w->roff[g->adj[e] + 1]++;
	for (v = 0; v < g->n; v++)
		w->roff[v + 1] += w->roff[v];
	for (v = 0; v < g->n; v++)
		for (e = g->off[v]; colour[v] != OT_REFINE_SKIP &&
				    e < g->off[v + 1]; e++)
			w->radj[w->roff[g->adj[e]]++] = v;
	for (v = g->n; v > 0; v--)
		w->roff[v] = w->roff[v - 1];
	w->roff[0] = 0;
	return 0;
}

int ot_refine_graph(const struct ot_refine_graph *g, uint32_t *colour,
		    unsigned int max_rounds, uint32_t *nclasses,
		    struct ot_error *err)
{
	struct work w;

	if (work_alloc(g, colour, &w, err))
		return -1;
	rank_initial(&w, colour);
	*nclasses = refine_rounds(&w, colour, max_rounds);
	work_free(&w);
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

/*
 * Individualizes a member of w's first class of two or more (the least
 * tie, then the lowest index): it goes first and keeps the class's
 * colour, the others take the next, every colour above moves up by one;
 * the classes next to them are the dirty ones.
 */
static void individualize(struct work *w, uint32_t *colour,
			  const uint64_t *tie)
{
	const struct ot_refine_graph *g = w->g;
	uint32_t c, i, v, a, b, pick, at;

	for (c = 0; w->start[c + 1] - w->start[c] < 2; c++)
		;
	a = w->start[c];
	b = w->start[c + 1];
	for (at = a, i = a + 1; i < b; i++) {
		uint32_t x = w->order[i], y = w->order[at];

		if (tie[x] < tie[y] || (tie[x] == tie[y] && x < y))
			at = i;
	}
	pick = w->order[at];
	w->order[at] = w->order[a];
	w->order[a] = pick;
	for (v = 0; v < g->n; v++)
		if (colour[v] != OT_REFINE_SKIP &&
		    (colour[v] > c || (colour[v] == c && v != pick)))
			colour[v]++;
	memmove(w->start + c + 2, w->start + c + 1,
		((size_t)w->classes - c) * sizeof(*w->start));
	w->start[c + 1] = a + 1;
	w->classes++;
	memset(w->dirty, 0, (size_t)w->classes + 1);
	for (i = a; i < b; i++) {
		size_t e;

		v = w->order[i];
		for (e = w->roff[v]; e < w->roff[v + 1]; e++)
			w->dirty[colour[w->radj[e]]] = 1;
	}
}

int ot_refine_discrete(const struct ot_refine_graph *g, uint32_t *colour,
		       const uint64_t *tie, uint32_t *nclasses,
		       uint32_t *ties, struct ot_error *err)
{
	struct work w;
	uint32_t classes, decided = 0;

	if (work_alloc(g, colour, &w, err))
		return -1;
	rank_initial(&w, colour);
	classes = refine_rounds(&w, colour, 0);
	while (classes < w.m) {
		individualize(&w, colour, tie);
		decided++;
		classes = refine_rounds(&w, colour, 0);
	}
	*nclasses = classes;
	if (ties)
		*ties = decided;
	work_free(&w);
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
