// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Coordinates for a KNS whose fat-tree lines are damaged inside: the
 * fallback of topo/kns_ft.c when its lines taken as single switches are
 * no KNS of s = 1, because a router lost every cable into one of its
 * lines, or a line fell into two parts (its spines or cables gone).  The
 * input is the line parts (switches joined by cables, each with the
 * routers cabled to it); the answer every router's coordinates and every
 * part's dimension, or a refusal naming the switch where the cabling
 * leaves them open.  Only what the cabling forces is taken:
 *
 * 1. k is the most routers of a part, n the power of k that the routers
 *    number (routers never vanish: they carry the CAs).
 * 2. Dimensions: two parts are parallel when they close a rectangle
 *    (router r on parts A and B, router x on A and B', a router of B and
 *    one of B' sharing a fourth part), as in the seed's recognizer
 *    (topo/kns.c); the n classes with the most routers are the
 *    dimensions, numbered by their lowest switch GUID.  A part of two
 *    routers or more outside them takes the one dimension left once those
 *    are struck out where a part of that dimension shares a router with it
 *    and the two together would hold more than k routers; else it waits
 *    for the coordinates (the one where its routers differ).  A part of
 *    one router (a dead end) takes the lowest dimension its router has no
 *    other part of (or 0): no path between CAs crosses it.
 * 3. Coordinate e of a router is which group it falls in when routers are
 *    joined by the parts of the other dimensions; damage can cut a group
 *    (a hyperplane) into pieces.  A part of dimension e with all k
 *    routers meets every hyperplane once: its pieces are the anchors.
 *    A piece cannot join the hyperplane of a router on the same line of
 *    dimension e -- by a part, or by that router's other coordinates once
 *    known -- nor one that already holds k^(n-1) routers; when one
 *    hyperplane is left it joins it.  Rounds of all dimensions, each
 *    decided before any piece is placed, until nothing changes.
 *    Then a router cabled only into lines of one dimension e (no cable
 *    tells its coordinate e: any place left gives the same fabric up to
 *    which line it is said to have lost) takes, the lowest GUID first,
 *    the place left whose lowest router GUID is lowest, and the rounds go
 *    on; a choice that leaves some router no place is undone and the next
 *    tried (a bounded search).  A piece with cables left with two places
 *    or more is ambiguous: refused, naming its router (so is a router
 *    with no cable into any line: cut off).  Hyperplanes are numbered by
 *    their lowest router GUID, as the seed's.
 * 4. Each coordinate tuple names one router, and each part's routers
 *    agree everywhere but in its dimension, all different there; else
 *    refused ("no KNS, or too damaged to tell": the choices above are
 *    forced only on a KNS).
 *
 * So a router with no cable into its line of dimension d keeps its
 * coordinate from its other lines, and the parts of a split line keep the
 * line's identity through the routers cabled to them.  Nothing depends
 * on port numbers or node order; GUIDs break only the ties the symmetry
 * leaves open.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model/refine.h"
#include "model/uf.h"
#include "topo/kns_dmg.h"

#define NODE_FMT "\"%s\" (0x%016" PRIx64 ")"
#define NODE_ARGS(f, x) (f)->node[x].desc, (f)->node[x].guid

struct dmg {
	const struct ot_kns_parts *pp;
	const struct ot_fabric *f;
	struct ot_error *err;
	unsigned int k, n;
	uint32_t nr;         /* routers */
	int32_t *ri;         /* per node: router index, or -1 */
	int32_t *rnode;      /* per router index: node */
	uint32_t *rstart;    /* router i's parts: rpart[rstart[i]..) */
	uint32_t *rpart;
	int8_t *pdim;
	uint32_t *mark;      /* per part */
	uint32_t stamp;
	int16_t *coord;      /* per router index, n each */
	uint32_t *col;       /* per node: its refined colour, once needed */
};

static uint32_t psize(const struct dmg *g, uint32_t p)
{
	return g->pp->start[p + 1] - g->pp->start[p];
}

static const int32_t *prouters(const struct dmg *g, uint32_t p)
{
	return g->pp->router + g->pp->start[p];
}

/* Routers, k and n, and each router's parts. */
static int setup(struct dmg *g)
{
	const struct ot_kns_parts *pp = g->pp;
	const struct ot_fabric *f = g->f;
	uint32_t i, p, j, big = 0;
	uint64_t pw = 1;

	g->ri = malloc(((size_t)f->nnodes + 1) * sizeof(*g->ri));
	g->rnode = malloc(((size_t)f->nnodes + 1) * sizeof(*g->rnode));
	g->rstart = calloc((size_t)f->nnodes + 2, sizeof(*g->rstart));
	g->rpart = malloc(((size_t)pp->start[pp->nparts] + 1) *
			  sizeof(*g->rpart));
	g->mark = calloc((size_t)pp->nparts + 1, sizeof(*g->mark));
	if (!g->ri || !g->rnode || !g->rstart || !g->rpart || !g->mark)
		return ot_error_nomem(g->err, "kns");
	for (i = 0; i < f->nnodes; i++) {
		g->ri[i] = -1;
		if (pp->is_router[i]) {
			g->ri[i] = g->nr;
			g->rnode[g->nr++] = i;
		}
	}
	for (p = 0; p < pp->nparts; p++) {
		if (psize(g, p) > g->k) {
			g->k = psize(g, p);
			big = p;
		}
		for (j = 0; j < psize(g, p); j++)
			g->rstart[g->ri[prouters(g, p)[j]] + 2]++;
	}
	for (i = 0; i < g->nr; i++)
		g->rstart[i + 2] += g->rstart[i + 1];
	for (p = 0; p < pp->nparts; p++)
		for (j = 0; j < psize(g, p); j++)
			g->rpart[g->rstart[g->ri[prouters(g, p)[j]] + 1]++] = p;
	for (i = 0; i < g->nr; i++)
		if (g->rstart[i + 1] == g->rstart[i])
			return ot_refuse(g->err, OT_ERR_TOPOLOGY,
					 "router " NODE_FMT ": no cable into any line switch; cut off from the fabric",
					 NODE_ARGS(f, g->rnode[i]));
	if (g->k < 2)
		return ot_refuse(g->err, OT_ERR_TOPOLOGY,
				 "switch " NODE_FMT ": no line reaches two routers; no KNS",
				 NODE_ARGS(f, pp->rep[big]));
	while (pw < g->nr) {
		pw *= g->k;
		g->n++;
	}
	if (pw != g->nr)
		return ot_refuse(g->err, OT_ERR_TOPOLOGY,
				 "switch " NODE_FMT ": its line has %u routers, the most of any line, and the fabric %u routers, no power of %u; no KNS",
				 NODE_ARGS(f, pp->rep[big]), g->k, g->nr, g->k);
	if (g->n < 2)
		return ot_refuse(g->err, OT_ERR_TOPOLOGY,
				 "switch " NODE_FMT ": the switches with CAs form one line under switches without: a fat tree, not a KNS of two or more dimensions; hdor leaves fat trees to ftree or updn",
				 NODE_ARGS(f, pp->rep[big]));
	if (g->n > 62)
		return ot_refuse(g->err, OT_ERR_TOPOLOGY,
				 "a KNS of %u dimensions; at most 62", g->n);
	return 0;
}

static uint32_t nparts_of(const struct dmg *g, uint32_t r)
{
	return g->rstart[r + 1] - g->rstart[r];
}

static const uint32_t *parts_of(const struct dmg *g, uint32_t r)
{
	return g->rpart + g->rstart[r];
}

/* A router of b other than r and one of b2 other than x share a part
 * other than a, b and b2. */
static bool rectangle(struct dmg *g, uint32_t a, uint32_t b, int32_t r,
		      uint32_t b2, int32_t x)
{
	uint32_t i, j;

	g->stamp++;
	for (i = 0; i < psize(g, b2); i++) {
		int32_t y = g->ri[prouters(g, b2)[i]];

		if (prouters(g, b2)[i] == x)
			continue;
		for (j = 0; j < nparts_of(g, y); j++)
			g->mark[parts_of(g, y)[j]] = g->stamp;
	}
	for (i = 0; i < psize(g, b); i++) {
		int32_t y = g->ri[prouters(g, b)[i]];

		if (prouters(g, b)[i] == r)
			continue;
		for (j = 0; j < nparts_of(g, y); j++) {
			uint32_t c = parts_of(g, y)[j];

			if (c != a && c != b && c != b2 &&
			    g->mark[c] == g->stamp)
				return true;
		}
	}
	return false;
}

/* Parallel classes of parts, by rectangles. */
static void parallel(struct dmg *g, struct ot_uf *uf)
{
	uint32_t r, i, j, m, q;

	for (r = 0; r < g->nr; r++)
		for (i = 0; i < nparts_of(g, r); i++) {
			uint32_t a = parts_of(g, r)[i];

			for (j = 0; j < psize(g, a); j++) {
				int32_t x = g->ri[prouters(g, a)[j]];

				if ((uint32_t)x == r)
					continue;
				for (m = 0; m < nparts_of(g, r); m++)
					for (q = 0; q < nparts_of(g, x); q++) {
						uint32_t b = parts_of(g, r)[m];
						uint32_t b2 = parts_of(g, x)[q];

						if (b == a || b2 == a ||
						    ot_uf_same(uf, b, b2))
							continue;
						if (rectangle(g, a, b,
							      g->rnode[r], b2,
							      g->rnode[x]))
							ot_uf_union(uf, b, b2);
					}
			}
		}
}

/* Routers in both parts p and q (their lists are sorted). */
static uint32_t common(const struct dmg *g, uint32_t p, uint32_t q)
{
	const int32_t *x = prouters(g, p), *y = prouters(g, q);
	uint32_t i = 0, j = 0, m = 0;

	while (i < psize(g, p) && j < psize(g, q)) {
		if (x[i] == y[j]) {
			m++;
			i++;
			j++;
		} else if (x[i] < y[j]) {
			i++;
		} else {
			j++;
		}
	}
	return m;
}

/*
 * The dimensions of the other parts of p's routers, as a mask: of those
 * with two routers or more (held); or, crowded, of those that would make
 * one line with p of more than k routers (dimensions p cannot serve).
 */
static uint64_t neighbour_dims(const struct dmg *g, uint32_t p, bool crowded)
{
	uint64_t m = 0;
	uint32_t i, j;

	for (i = 0; i < psize(g, p); i++) {
		int32_t y = g->ri[prouters(g, p)[i]];

		for (j = 0; j < nparts_of(g, y); j++) {
			uint32_t c = parts_of(g, y)[j];

			if (c == p || g->pdim[c] < 0)
				continue;
			if (crowded ? psize(g, p) + psize(g, c) -
				      common(g, p, c) > g->k :
				      psize(g, c) > 1)
				m |= 1ull << g->pdim[c];
		}
	}
	return m;
}

/* Per class root: its routers and its lowest rep switch. */
struct cls {
	uint64_t weight;
	int32_t low;
	uint32_t root;
};

static int assign_dims(struct dmg *g)
{
	const struct ot_fabric *f = g->f;
	uint32_t np = g->pp->nparts, p, i, j, ncls = 0;
	struct ot_uf *uf = ot_uf_new(np + 1);
	struct cls *cl = malloc(((size_t)np + 1) * sizeof(*cl));
	int32_t *slot = malloc(((size_t)np + 1) * sizeof(*slot));
	uint64_t all = (1ull << g->n) - 1;
	bool changed = true;
	int error = 0;

	if (!uf || !cl || !slot) {
		error = ot_error_nomem(g->err, "kns");
		goto out;
	}
	parallel(g, uf);
	for (p = 0; p < np; p++)
		slot[p] = -1;
	for (p = 0; p < np; p++) {
		uint32_t root = ot_uf_find(uf, p);

		if (slot[root] < 0) {
			slot[root] = ncls;
			cl[ncls].weight = 0;
			cl[ncls].low = g->pp->rep[p];
			cl[ncls].root = root;
			ncls++;
		}
		cl[slot[root]].weight += psize(g, p);
		if (ot_node_before(f, g->pp->rep[p], cl[slot[root]].low))
			cl[slot[root]].low = g->pp->rep[p];
	}
	/* the n heaviest classes (ties: lowest GUID), by selection */
	for (i = 0; i < g->n && i < ncls; i++)
		for (j = i + 1; j < ncls; j++)
			if (cl[j].weight > cl[i].weight ||
			    (cl[j].weight == cl[i].weight &&
			     ot_node_before(f, cl[j].low, cl[i].low))) {
				struct cls t = cl[i];

				cl[i] = cl[j];
				cl[j] = t;
			}
	if (ncls < g->n) {
		error = ot_refuse(g->err, OT_ERR_TOPOLOGY,
				  "switch " NODE_FMT ": its lines fall into %u classes of parallel lines where a KNS of %u routers per line has %u dimensions",
				  NODE_ARGS(f, cl[0].low), ncls, g->k, g->n);
		goto out;
	}
	/* dimensions in GUID order of their lowest switch */
	for (i = 1; i < g->n; i++)
		for (j = i; j > 0 && ot_node_before(f, cl[j].low,
						    cl[j - 1].low); j--) {
			struct cls t = cl[j];

			cl[j] = cl[j - 1];
			cl[j - 1] = t;
		}
	for (p = 0; p < np; p++) {
		uint32_t root = ot_uf_find(uf, p);

		g->pdim[p] = -1;
		for (i = 0; i < g->n; i++)
			if (cl[i].root == root)
				g->pdim[p] = i;
	}
	/*
	 * The rest of two routers or more: the one dimension left, all of a
	 * round decided before any is set (so no part's order counts).
	 */
	while (changed) {
		changed = false;
		for (p = 0; p < np; p++) {
			uint64_t free_dims;

			slot[p] = -1;
			if (g->pdim[p] >= 0 || psize(g, p) < 2)
				continue;
			free_dims = all & ~neighbour_dims(g, p, true);
			if (free_dims && !(free_dims & (free_dims - 1)))
				slot[p] = __builtin_ctzll(free_dims);
		}
		for (p = 0; p < np; p++)
			if (slot[p] >= 0) {
				g->pdim[p] = slot[p];
				changed = true;
			}
	}
out:
	ot_uf_free(uf);
	free(cl);
	free(slot);
	return error;
}

static int16_t *rc(struct dmg *g, uint32_t r)
{
	return g->coord + (size_t)r * g->n;
}

/*
 * Per dimension e: routers joined by the other dimensions' parts, and
 * each class's hyperplane as an index into the anchor part (-1: not yet).
 */
struct coord_work {
	struct ot_uf **uf;  /* n */
	int32_t *hyper;     /* n * nr: per class root */
	uint32_t *size;     /* n * (nr + k): per class root, then hyperplane */
	uint8_t *excl;      /* nr * k: per class root, hyperplanes it cannot be */
	uint8_t *occ;       /* k^n: a (line, value) taken, for one e */
	int32_t *first;     /* nr + k scratch */
	/* placements, e * nr + root, to undo a tie broken wrong */
	uint32_t *log, nlog;
	uint64_t budget;    /* placements by tie-break the search may try */
	int32_t stuck, stuck_e; /* the first router left ambiguous */
};

/* Class root of dimension e joins hyperplane h. */
static void place(struct dmg *g, struct coord_work *w, unsigned int e,
		  uint32_t root, uint32_t h)
{
	w->hyper[(size_t)e * g->nr + root] = h;
	w->size[(size_t)e * (g->nr + g->k) + g->nr + h] +=
		w->size[(size_t)e * (g->nr + g->k) + root];
	w->log[w->nlog++] = e * g->nr + root;
}

static void undo(struct dmg *g, struct coord_work *w, uint32_t to)
{
	while (w->nlog > to) {
		uint32_t v = w->log[--w->nlog], e = v / g->nr, root = v % g->nr;
		int32_t *hy = w->hyper + (size_t)e * g->nr;
		uint32_t *size = w->size + (size_t)e * (g->nr + g->k);

		size[g->nr + hy[root]] -= size[root];
		hy[root] = -1;
	}
}

static int32_t *hyp(struct dmg *g, struct coord_work *w, unsigned int e)
{
	return w->hyper + (size_t)e * g->nr;
}

static uint32_t *sz(struct dmg *g, struct coord_work *w, unsigned int e)
{
	return w->size + (size_t)e * (g->nr + g->k);
}

/* Router r's hyperplane in dimension e (anchor index), or -1. */
static int32_t prov(struct dmg *g, struct coord_work *w, unsigned int e,
		    uint32_t r)
{
	return hyp(g, w, e)[ot_uf_find(w->uf[e], r)];
}

/* The lowest-GUID router of each class root of uf, into first[]. */
static void firsts(struct dmg *g, struct ot_uf *uf, int32_t *first)
{
	uint32_t r;

	for (r = 0; r < g->nr; r++)
		first[r] = -1;
	for (r = 0; r < g->nr; r++) {
		uint32_t root = ot_uf_find(uf, r);

		if (first[root] < 0 ||
		    ot_node_before(g->f, g->rnode[r], g->rnode[first[root]]))
			first[root] = r;
	}
}

/* Dimension e's classes, checked against its parts, and its anchor. */
static int init_dim(struct dmg *g, struct coord_work *w, unsigned int e)
{
	const struct ot_fabric *f = g->f;
	struct ot_uf *uf = w->uf[e];
	uint32_t r, p, i, k = g->k;
	int32_t anchor = -1, *hy = hyp(g, w, e);
	uint32_t *size = sz(g, w, e);

	for (p = 0; p < g->pp->nparts; p++) {
		if (g->pdim[p] != (int)e) {
			if (g->pdim[p] < 0)
				continue;
			for (i = 1; i < psize(g, p); i++)
				ot_uf_union(uf, g->ri[prouters(g, p)[0]],
					    g->ri[prouters(g, p)[i]]);
			continue;
		}
		if (psize(g, p) == k &&
		    (anchor < 0 || ot_node_before(f, g->pp->rep[p],
						  g->pp->rep[anchor])))
			anchor = p;
	}
	if (anchor < 0)
		return ot_refuse(g->err, OT_ERR_TOPOLOGY,
				 "router " NODE_FMT ": no line of dimension %u keeps all its %u routers; the coordinates there are ambiguous",
				 NODE_ARGS(f, g->rnode[0]), e, k);
	firsts(g, uf, w->first);
	for (p = 0; p < g->pp->nparts; p++) {
		if (g->pdim[p] != (int)e)
			continue;
		g->stamp++;
		for (i = 0; i < psize(g, p); i++) {
			uint32_t root = ot_uf_find(uf, g->ri[prouters(g, p)[i]]);

			if (g->mark[root] == g->stamp)
				return ot_refuse(g->err, OT_ERR_TOPOLOGY,
						 "switch " NODE_FMT ": two of its routers, \"%s\" and \"%s\", are joined by the lines of the other dimensions; no KNS, or too damaged to tell",
						 NODE_ARGS(f, g->pp->rep[p]),
						 f->node[prouters(g, p)[i]].desc,
						 f->node[g->rnode[w->first[root]]].desc);
			g->mark[root] = g->stamp;
		}
	}
	/* size[root]: a class's routers; size[nr + h]: hyperplane h's */
	for (r = 0; r < g->nr; r++)
		hy[r] = -1;
	for (r = 0; r < g->nr; r++)
		size[ot_uf_find(uf, r)]++;
	for (i = 0; i < k; i++) {
		uint32_t root = ot_uf_find(uf, g->ri[prouters(g, anchor)[i]]);

		hy[root] = i;
		size[g->nr + i] += size[root];
	}
	return 0;
}

/* The line of dimension e through r, as a number, if r's other
 * hyperplanes are all known; else -1. */
static int64_t line_of(struct dmg *g, struct coord_work *w, unsigned int e,
		       uint32_t r)
{
	int64_t v = 0;
	unsigned int d;

	for (d = 0; d < g->n; d++) {
		int32_t h;

		if (d == e)
			continue;
		h = prov(g, w, d, r);
		if (h < 0)
			return -1;
		v = v * g->k + h;
	}
	return v;
}

/*
 * One round of dimension e (see the top): every class not placed yet
 * cannot share a hyperplane with a router on the same line of dimension
 * e (by a part, or by its other hyperplanes), nor overfill one; placed
 * when one is left.  1 if some class was placed, 0 if none, -1 refused.
 */
static int round_dim(struct dmg *g, struct coord_work *w, unsigned int e)
{
	const struct ot_fabric *f = g->f;
	struct ot_uf *uf = w->uf[e];
	int32_t *hy = hyp(g, w, e);
	uint32_t *size = sz(g, w, e);
	uint32_t r, p, i, j, k = g->k;
	int64_t ln;
	int placed = 0;

	memset(w->excl, 0, (size_t)g->nr * k);
	memset(w->occ, 0, g->nr);
	for (r = 0; r < g->nr; r++) {
		int32_t h = prov(g, w, e, r);

		ln = line_of(g, w, e, r);
		if (h >= 0 && ln >= 0)
			w->occ[ln * k + h] = 1;
	}
	for (r = 0; r < g->nr; r++) {
		uint32_t root = ot_uf_find(uf, r);
		uint8_t *ex = w->excl + (size_t)root * k;

		if (hy[root] >= 0)
			continue;
		ln = line_of(g, w, e, r);
		if (ln >= 0)
			for (i = 0; i < k; i++)
				ex[i] |= w->occ[ln * k + i];
		for (j = 0; j < nparts_of(g, r); j++) {
			p = parts_of(g, r)[j];
			if (g->pdim[p] != (int)e)
				continue;
			for (i = 0; i < psize(g, p); i++) {
				int32_t h = prov(g, w, e,
						 g->ri[prouters(g, p)[i]]);

				if (h >= 0)
					ex[h] = 1;
			}
		}
	}
	/* decided on the sizes before the round (no class's order counts) */
	for (r = 0; r < g->nr; r++)
		w->first[r] = -1;
	for (r = 0; r < g->nr; r++) {
		uint32_t left = 0, h = 0;

		if (ot_uf_find(uf, r) != r || hy[r] >= 0)
			continue;
		/* a hyperplane holds k^(n-1) routers, no more */
		for (i = 0; i < k; i++)
			if (!w->excl[(size_t)r * k + i] &&
			    size[g->nr + i] + size[r] <= g->nr / k) {
				left++;
				h = i;
			}
		if (!left)
			return ot_refuse(g->err, OT_ERR_TOPOLOGY,
					 "router " NODE_FMT ": no coordinate in dimension %u fits it (no KNS, or too damaged around it to tell)",
					 NODE_ARGS(f, g->rnode[r]), e);
		if (left == 1)
			w->first[r] = h;
	}
	for (r = 0; r < g->nr; r++)
		if (w->first[r] >= 0) {
			place(g, w, e, r, w->first[r]);
			placed = 1;
		}
	return placed;
}

/* Coordinate e of every router: its hyperplane, numbered by GUID. */
static void number_dim(struct dmg *g, struct coord_work *w, unsigned int e)
{
	int32_t *low = w->first; /* per hyperplane, its lowest router */
	uint32_t r, h, v, k = g->k, rank;

	for (h = 0; h < k; h++)
		low[h] = -1;
	for (r = 0; r < g->nr; r++) {
		h = prov(g, w, e, r);
		if (low[h] < 0 || ot_node_before(g->f, g->rnode[r],
						 g->rnode[low[h]]))
			low[h] = r;
	}
	for (r = 0; r < g->nr; r++) {
		h = prov(g, w, e, r);
		for (v = 0, rank = 0; v < k; v++)
			if (ot_node_before(g->f, g->rnode[low[v]],
					   g->rnode[low[h]]))
				rank++;
		rc(g, r)[e] = rank;
	}
}

/* Whether router r has a part of a dimension other than e. */
static bool joined(const struct dmg *g, uint32_t r, unsigned int e)
{
	uint32_t j;

	for (j = 0; j < nparts_of(g, r); j++)
		if (g->pdim[parts_of(g, r)[j]] >= 0 &&
		    g->pdim[parts_of(g, r)[j]] != (int)e)
			return true;
	return false;
}

/*
 * Once every router is placed: each tuple of hyperplanes names one
 * router (as finish() checks), so that a tie broken wrong is undone and
 * the next place tried.  0, or -1 refused naming the two routers.
 */
static int distinct(struct dmg *g, struct coord_work *w)
{
	int32_t *at = w->first; /* nr + k entries */
	uint32_t r;
	uint64_t num;
	unsigned int e;

	for (r = 0; r < g->nr; r++)
		at[r] = -1;
	for (r = 0; r < g->nr; r++) {
		for (e = g->n, num = 0; e-- > 0;)
			num = num * g->k + (uint64_t)prov(g, w, e, r);
		if (at[num] >= 0)
			return ot_refuse(g->err, OT_ERR_TOPOLOGY,
					 "router " NODE_FMT ": gets the same coordinates as router \"%s\"; no KNS, or too damaged to tell",
					 NODE_ARGS(g->f, g->rnode[r]),
					 g->f->node[g->rnode[at[num]]].desc);
		at[num] = r;
	}
	return 0;
}

/*
 * The colours of the fabric's nodes by refinement (model/refine.h), all
 * starting alike: what the cabling tells of each node, whatever its
 * GUID, port numbers or place in the node list.
 */
static int colours(struct dmg *g)
{
	uint32_t i, ncl;

	g->col = malloc(((size_t)g->f->nnodes + 1) * sizeof(*g->col));
	if (!g->col)
		return ot_error_nomem(g->err, "kns");
	for (i = 0; i < g->f->nnodes; i++)
		g->col[i] = 0;
	return ot_refine(g->f, g->col, 0, &ncl, g->err);
}

/* Router r before router s: by colour when asked (then GUID), or GUID. */
static bool rbefore(const struct dmg *g, bool by_col, uint32_t r, uint32_t s)
{
	int32_t a = g->rnode[r], b = g->rnode[s];

	if (by_col && g->col[a] != g->col[b])
		return g->col[a] < g->col[b];
	return ot_node_before(g->f, a, b);
}

/*
 * Once nothing is forced: a router cabled only into lines of dimension e
 * (none of the others) has no cable that tells its coordinate e; any
 * hyperplane left to it makes the same fabric up to which line it is
 * said to have lost.  The lowest-GUID such router not placed tries the
 * hyperplanes left to it, the one whose lowest router GUID is lowest
 * first (as the seed breaks the ties of symmetry), and the next when the
 * rest cannot be placed then (undone by the log).
 *
 * When no such router is left but pieces with cables still have two
 * places or more, the cabling leaves them open: a line cut in two (its
 * spines or their cables gone) whose pieces could each complete either
 * of two hyperplanes, say.  Every place that lets the rest be placed
 * and passes finish() is a KNS the cabling allows, and the routing is
 * as good on one as on another; what must not decide is a GUID, a port
 * or the node order.  So the piece of the router with the lowest colour
 * (model/refine.h: what the cabling tells of it; GUIDs only between
 * equal colours, alike from every distance) tries the hyperplanes in
 * the order of their lowest router colour, the same way.  0: all
 * placed; -1: no KNS that way; -2: something left ambiguous (the
 * search's budget spent); SEARCH_NOMEM: out of memory (err says so),
 * which ends the search rather than counting as a place that fails.
 */
#define SEARCH_NOMEM (-3)
static int search(struct dmg *g, struct coord_work *w)
{
	uint32_t r, i, k = g->k, mark, root;
	int32_t best = -1, *low = NULL, *order = NULL;
	unsigned int e, be = 0;
	int rc_, more = 1, worst = -1;
	bool tried = false, by_col = false;

	while (more) {
		more = 0;
		for (e = 0; e < g->n; e++) {
			while ((rc_ = round_dim(g, w, e)) > 0)
				more = 1;
			if (rc_ < 0)
				return -1;
		}
	}
	for (e = 0; e < g->n && best < 0; e++)
		for (r = 0; r < g->nr; r++)
			if (prov(g, w, e, r) < 0 && !joined(g, r, e) &&
			    (best < 0 || ot_node_before(g->f, g->rnode[r],
							g->rnode[best]))) {
				best = r;
				be = e;
			}
	if (best < 0) {
		for (e = 0; e < g->n; e++)
			for (r = 0; r < g->nr; r++)
				if (prov(g, w, e, r) < 0 &&
				    (best < 0 || rbefore(g, true, r, best))) {
					if (!g->col && colours(g))
						return SEARCH_NOMEM;
					best = r;
					be = e;
				}
		if (best < 0)
			return distinct(g, w);
		if (w->stuck < 0) {
			w->stuck = best;
			w->stuck_e = be;
		}
		by_col = true;
	}
	e = be;
	root = ot_uf_find(w->uf[e], best);
	low = malloc(((size_t)k + 1) * sizeof(*low));
	order = malloc(((size_t)k + 1) * sizeof(*order));
	if (!low || !order) {
		free(low);
		free(order);
		ot_error_nomem(g->err, "kns");
		return SEARCH_NOMEM;
	}
	round_dim(g, w, e); /* nothing to place; excl[] for e */
	for (i = 0; i < k; i++) {
		low[i] = -1;
		order[i] = i;
	}
	for (r = 0; r < g->nr; r++) {
		int32_t h = prov(g, w, e, r);

		if (h >= 0 && (low[h] < 0 || rbefore(g, by_col, r, low[h])))
			low[h] = r;
	}
	for (i = 0; i < k; i++) /* (insertion sort, by lowest router) */
		for (r = i; r > 0 && low[order[r]] >= 0 &&
		     (low[order[r - 1]] < 0 ||
		      rbefore(g, by_col, low[order[r]], low[order[r - 1]]));
		     r--) {
			int32_t t = order[r];

			order[r] = order[r - 1];
			order[r - 1] = t;
		}
	mark = w->nlog;
	for (i = 0; i < k && worst != 0; i++) {
		uint32_t h = order[i];

		if (w->excl[(size_t)root * k + h] || low[h] < 0 ||
		    sz(g, w, e)[g->nr + h] + sz(g, w, e)[root] > g->nr / k)
			continue;
		if (!w->budget) {
			worst = -2;
			break;
		}
		w->budget--;
		tried = true;
		place(g, w, e, root, h);
		rc_ = search(g, w);
		if (rc_ == -2 || !rc_ || rc_ == SEARCH_NOMEM)
			worst = rc_;
		if (rc_)
			undo(g, w, mark);
		if (rc_ == SEARCH_NOMEM)
			break;
		/* round_dim() of the levels below overwrote excl[] */
		if (rc_)
			round_dim(g, w, e);
	}
	free(low);
	free(order);
	if (i == k && worst == -1 && mark == w->nlog && !tried)
		return ot_refuse(g->err, OT_ERR_TOPOLOGY,
				 "router " NODE_FMT ": no coordinate in dimension %u fits it (no KNS, or too damaged around it to tell)",
				 NODE_ARGS(g->f, g->rnode[best]), e);
	return worst;
}

static int coordinates(struct dmg *g, struct coord_work *w)
{
	unsigned int e;
	int rc_;

	for (e = 0; e < g->n; e++) {
		rc_ = init_dim(g, w, e);
		if (rc_)
			return rc_;
	}
	w->stuck = -1;
	w->budget = 64 + 4ull * g->nr;
	rc_ = search(g, w);
	if (rc_ == SEARCH_NOMEM)
		return -1;
	if (rc_ == -2) {
		firsts(g, w->uf[w->stuck_e], w->first);
		return ot_refuse(g->err, OT_ERR_TOPOLOGY,
				 "router " NODE_FMT ": its coordinate in dimension %u is ambiguous (too damaged around it to tell)",
				 NODE_ARGS(g->f, g->rnode[w->first[ot_uf_find(w->uf[w->stuck_e], w->stuck)]]),
				 w->stuck_e);
	}
	if (rc_)
		return rc_;
	for (e = 0; e < g->n; e++)
		number_dim(g, w, e);
	return 0;
}

/* The coordinates where part p's routers differ, as a mask. */
static uint64_t differ(struct dmg *g, uint32_t p)
{
	const int16_t *c0 = rc(g, g->ri[prouters(g, p)[0]]);
	uint64_t diff = 0;
	uint32_t i;
	unsigned int e;

	for (i = 1; i < psize(g, p); i++)
		for (e = 0; e < g->n; e++)
			if (rc(g, g->ri[prouters(g, p)[i]])[e] != c0[e])
				diff |= 1ull << e;
	return diff;
}

/* Parts without a dimension yet; then every part and tuple checked. */
static int finish(struct dmg *g)
{
	const struct ot_fabric *f = g->f;
	uint32_t p, i, r;
	unsigned int e, n = g->n;
	uint64_t num, nr = g->nr;
	int32_t *at = malloc(nr * sizeof(*at));

	if (!at)
		return ot_error_nomem(g->err, "kns");
	for (i = 0; i < nr; i++)
		at[i] = -1;
	for (r = 0; r < g->nr; r++) {
		for (e = n, num = 0; e-- > 0;)
			num = num * g->k + (uint64_t)rc(g, r)[e];
		if (at[num] >= 0) {
			int32_t twin = g->rnode[at[num]];

			free(at);
			return ot_refuse(g->err, OT_ERR_TOPOLOGY,
					 "router " NODE_FMT ": gets the same coordinates as router \"%s\"; no KNS, or too damaged to tell",
					 NODE_ARGS(f, g->rnode[r]),
					 f->node[twin].desc);
		}
		at[num] = r;
	}
	free(at);
	/*
	 * Parts of two routers or more: the coordinate where they differ;
	 * then parts of one router (dead ends): the lowest dimension its
	 * router has no such part of (or 0), each on what the first gave.
	 */
	for (p = 0; p < g->pp->nparts; p++)
		if (g->pdim[p] < 0 && psize(g, p) > 1) {
			uint64_t diff = differ(g, p);

			if (diff && !(diff & (diff - 1)))
				g->pdim[p] = __builtin_ctzll(diff);
		}
	for (p = 0; p < g->pp->nparts; p++)
		if (g->pdim[p] < 0 && psize(g, p) == 1) {
			uint64_t free_dims = ((1ull << n) - 1) & ~neighbour_dims(g, p, false);

			g->pdim[p] = free_dims ? __builtin_ctzll(free_dims) : 0;
		}
	for (p = 0; p < g->pp->nparts; p++) {
		uint64_t diff = differ(g, p);

		if (g->pdim[p] < 0 || (diff & ~(1ull << g->pdim[p])))
			return ot_refuse(g->err, OT_ERR_TOPOLOGY,
					 "switch " NODE_FMT ": its routers differ in more than one coordinate; no line of a KNS, or too damaged to tell",
					 NODE_ARGS(f, g->pp->rep[p]));
		g->stamp++;
		for (i = 0; i < psize(g, p); i++) {
			int16_t v = rc(g, g->ri[prouters(g, p)[i]])[g->pdim[p]];

			if (g->mark[v] == g->stamp)
				return ot_refuse(g->err, OT_ERR_TOPOLOGY,
						 "switch " NODE_FMT ": two of its routers share coordinate %d in dimension %d; no line of a KNS, or too damaged to tell",
						 NODE_ARGS(f, g->pp->rep[p]),
						 v, g->pdim[p]);
			g->mark[v] = g->stamp;
		}
	}
	return 0;
}

int ot_kns_dmg_place(const struct ot_kns_parts *pp, unsigned int *k,
		     unsigned int *n, int16_t **coord, int8_t *pdim,
		     bool *by_colour, struct ot_error *err)
{
	struct dmg g = { .pp = pp, .f = pp->f, .err = err, .pdim = pdim };
	struct coord_work w = { 0 };
	uint32_t i, r;
	unsigned int e;
	int error;

	*coord = NULL;
	error = setup(&g);
	if (!error)
		error = assign_dims(&g);
	if (error)
		goto out;
	g.coord = malloc(((size_t)g.nr * g.n + 1) * sizeof(*g.coord));
	w.uf = calloc(g.n, sizeof(*w.uf));
	w.hyper = malloc(((size_t)g.nr * g.n + 1) * sizeof(*w.hyper));
	w.size = calloc((size_t)(g.nr + g.k) * g.n + 1, sizeof(*w.size));
	w.first = malloc(((size_t)g.nr + g.k + 1) * sizeof(*w.first));
	w.excl = malloc((size_t)g.nr * g.k + 1);
	w.occ = malloc((size_t)g.nr + 1);
	w.log = malloc(((size_t)g.nr * g.n + 1) * sizeof(*w.log));
	/* mark[] also stamps class roots and coordinate values */
	free(g.mark);
	g.mark = calloc((size_t)pp->nparts + g.nr + g.k + 1, sizeof(*g.mark));
	g.stamp = 0;
	if (!g.coord || !w.uf || !w.hyper || !w.size || !w.first ||
	    !w.excl || !w.occ || !w.log || !g.mark) {
		error = ot_error_nomem(err, "kns");
		goto out;
	}
	for (e = 0; e < g.n; e++)
		if (!(w.uf[e] = ot_uf_new(g.nr))) {
			error = ot_error_nomem(err, "kns");
			goto out;
		}
	error = coordinates(&g, &w);
	if (!error)
		error = finish(&g);
	if (error)
		goto out;
	*coord = malloc(((size_t)pp->f->nnodes * g.n + 1) * sizeof(**coord));
	if (!*coord) {
		error = ot_error_nomem(err, "kns");
		goto out;
	}
	for (i = 0; i < pp->f->nnodes * g.n; i++)
		(*coord)[i] = -1;
	for (r = 0; r < g.nr; r++)
		memcpy(*coord + (size_t)g.rnode[r] * g.n, rc(&g, r),
		       g.n * sizeof(**coord));
	*k = g.k;
	*n = g.n;
	*by_colour = g.col != NULL;
out:
	free(g.ri);
	free(g.rnode);
	free(g.rstart);
	free(g.rpart);
	free(g.mark);
	free(g.coord);
	free(g.col);
	if (w.uf)
		for (e = 0; e < g.n; e++)
			ot_uf_free(w.uf[e]);
	free(w.uf);
	free(w.hyper);
	free(w.size);
	free(w.first);
	free(w.excl);
	free(w.occ);
	free(w.log);
	return error;
}
