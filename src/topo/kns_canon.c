// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The numbering of a recognized KNS that the cabling leaves open, chosen
 * by colour refinement (model/refine.h) instead of GUIDs.  The
 * recognizers (topo/kns.c, topo/kns_dmg.c) fix which routers share a
 * coordinate and which switches serve a dimension, and name the origin,
 * the order of each dimension's values and the order of the dimensions
 * by GUID.  On an intact KNS every such choice is a symmetry of the
 * fabric; on a damaged one it is not, and the routing (which line's
 * missing spine a dimension order meets first, which router roots an
 * escape tree) then rested on GUIDs: other GUIDs, or the ports renumbered
 * so that a generator hands GUIDs out in another order, gave other
 * figures.
 *
 * So the numbering is remade on a graph of the fabric and its structure:
 * every node and cable, and a vertex per line (joined to its switches
 * and routers, once more per cable between them), per value of each
 * dimension (a hyperplane, joined to its routers) and per dimension
 * (joined to its lines and values).  Refinement colours it from the
 * cabling alone; then, on the routers, lines, values and dimensions only,
 * ot_refine_discrete() individualizes until each has a colour of its own,
 * GUIDs choosing only among vertices refinement left alike (the images
 * of each other under a symmetry, on every fabric generated whole).
 * Dimensions and values are numbered in the order of their colours: the
 * origin is the router in the first value of every dimension.  A last
 * refinement, from the new numbering, gives every node a colour for the
 * order of a line's switches in their stage.
 *
 * Those orders are one label-free choice among others, and on a damaged
 * fabric not always the one the routing loads least: the flips (each
 * dimension's values, or each stage's switches, in the reverse order of
 * their colours: another origin, other spines first) are label-free
 * too, and hdor routes them as candidates (route/hdor.c).
 */
#include <stdlib.h>
#include <string.h>

#include "model/refine.h"
#include "model/uf.h"
#include "topo/kns_canon.h"

/* The graph's vertices: nodes, then lines, values, dimensions. */
struct canon {
	const struct ot_kns *kns;
	uint32_t nn, per, nl; /* nodes, lines per dimension, lines */
	size_t *off;
	uint32_t *adj;
	size_t *fill;
	/*
	 * Per node: a switch of a dead end, a line part cabled to one router
	 * only, whose dimension no cable tells (topo/kns_dmg.c gives it the
	 * lowest free one, by GUID's numbering): left out of the lines here
	 * and given a dimension from the new numbering (dead_ends()): the
	 * router of the dead end a switch belongs to, else -1.
	 */
	int32_t *dead;
};

static uint32_t v_line(const struct canon *c, uint32_t l)
{
	return c->nn + l;
}

static uint32_t v_value(const struct canon *c, unsigned int d, int16_t v)
{
	return c->nn + c->nl + d * c->kns->k + (uint32_t)v;
}

static uint32_t v_dim(const struct canon *c, unsigned int d)
{
	return c->nn + c->nl + c->kns->n * c->kns->k + d;
}

/*
 * The line of dimension d through coordinates co (d's ignored), numbered
 * as topo/kns_ft.c numbers lines, or -1 where a coordinate is unknown.
 */
static int64_t line_of(const struct canon *c, unsigned int d,
		       const int16_t *co)
{
	const struct ot_kns *kns = c->kns;
	uint64_t v = 0, mul = 1;
	unsigned int e;

	for (e = 0; e < kns->n; e++) {
		if (e == d)
			continue;
		if (co[e] < 0 || (unsigned int)co[e] >= kns->k)
			return -1;
		v += (uint64_t)co[e] * mul;
		mul *= kns->k;
	}
	return (int64_t)(d * c->per + v);
}

/* Edge v - w, counted (fill NULL) or listed from both ends. */
static void edge(struct canon *c, uint32_t v, uint32_t w)
{
	if (!c->fill) {
		c->off[v + 1]++;
		c->off[w + 1]++;
		return;
	}
	c->adj[c->fill[v]++] = w;
	c->adj[c->fill[w]++] = v;
}

/* Whether node x's coordinates are all known and in range. */
static bool placed(const struct ot_kns *kns, uint32_t x, int skip)
{
	const int16_t *co = kns->coord + (size_t)x * kns->n;
	unsigned int d;

	for (d = 0; d < kns->n; d++)
		if ((int)d != skip &&
		    (co[d] < 0 || (unsigned int)co[d] >= kns->k))
			return false;
	return true;
}

/* Whether node x is a line switch with its line known. */
static bool in_line(const struct canon *c, uint32_t x)
{
	const struct ot_kns *kns = c->kns;

	return kns->role[x] == OT_KNS_SWITCH && kns->dim[x] >= 0 &&
	       c->dead[x] < 0 && placed(kns, x, kns->dim[x]);
}

/* Every edge of the graph, counted or listed (see edge()). */
static void edges(struct canon *c)
{
	const struct ot_kns *kns = c->kns;
	const struct ot_fabric *f = kns->fabric;
	uint32_t x, l;
	unsigned int d, p;

	for (x = 0; x < c->nn; x++) {
		const int16_t *co = kns->coord + (size_t)x * kns->n;

		for (p = 1; p <= f->node[x].nports; p++)
			if (f->node[x].port[p].peer > (int32_t)x)
				edge(c, x, f->node[x].port[p].peer);
		if (in_line(c, x))
			edge(c, x, v_line(c, line_of(c, kns->dim[x], co)));
		if (kns->role[x] != OT_KNS_ROUTER || !placed(kns, x, -1))
			continue;
		for (d = 0; d < kns->n; d++) {
			edge(c, x, v_line(c, line_of(c, d, co)));
			edge(c, x, v_value(c, d, co[d]));
		}
		/* once more per cable into a switch of the line */
		for (p = 1; p <= f->node[x].nports; p++) {
			int32_t y = f->node[x].port[p].peer;

			if (y >= 0 && in_line(c, y))
				edge(c, x, v_line(c, line_of(c, kns->dim[y],
							     co)));
		}
	}
	for (l = 0; l < c->nl; l++)
		edge(c, v_line(c, l), v_dim(c, l / c->per));
	for (d = 0; d < kns->n; d++)
		for (p = 0; p < kns->k; p++)
			edge(c, v_value(c, d, p), v_dim(c, d));
}

static int build_graph(struct canon *c, struct ot_refine_graph *g,
		       struct ot_error *err)
{
	uint32_t nv = v_dim(c, c->kns->n), v;

	c->off = calloc((size_t)nv + 1, sizeof(*c->off));
	c->fill = NULL;
	if (!c->off)
		return ot_error_nomem(err, "kns");
	edges(c);
	for (v = 0; v < nv; v++)
		c->off[v + 1] += c->off[v];
	c->adj = malloc((c->off[nv] + 1) * sizeof(*c->adj));
	c->fill = malloc(((size_t)nv + 1) * sizeof(*c->fill));
	if (!c->adj || !c->fill)
		return ot_error_nomem(err, "kns");
	memcpy(c->fill, c->off, (size_t)nv * sizeof(*c->fill));
	edges(c);
	g->n = nv;
	g->off = c->off;
	g->adj = c->adj;
	return 0;
}

/*
 * Tie-breaks for the routers, lines, values and dimensions: a router's
 * GUID, a line's or dimension's lowest switch GUID, a value's lowest
 * router GUID (UINT64_MAX where there is none).
 */
static void tie_keys(const struct canon *c, uint64_t *tie)
{
	const struct ot_kns *kns = c->kns;
	const struct ot_fabric *f = kns->fabric;
	uint32_t x, v, nv = v_dim(c, kns->n);
	unsigned int d;

	for (v = 0; v < nv; v++)
		tie[v] = UINT64_MAX;
	for (x = 0; x < c->nn; x++) {
		const int16_t *co = kns->coord + (size_t)x * kns->n;
		uint64_t g = f->node[x].guid;
		uint32_t w[2];

		tie[x] = g;
		if (in_line(c, x)) {
			w[0] = v_line(c, line_of(c, kns->dim[x], co));
			w[1] = v_dim(c, kns->dim[x]);
			for (d = 0; d < 2; d++)
				if (g < tie[w[d]])
					tie[w[d]] = g;
		}
		if (kns->role[x] != OT_KNS_ROUTER || !placed(kns, x, -1))
			continue;
		for (d = 0; d < kns->n; d++) {
			v = v_value(c, d, co[d]);
			if (g < tie[v])
				tie[v] = g;
		}
	}
}

/* The rank of colour[v] among colour[first .. first + cnt). */
static int16_t rank_in(const uint32_t *colour, uint32_t first, uint32_t cnt,
		       uint32_t v)
{
	uint32_t i;
	int16_t r = 0;

	for (i = 0; i < cnt; i++)
		r += colour[first + i] < colour[v];
	return r;
}

/*
 * New coordinates and dimensions: dimension d is dmap[d], its value v
 * vmap[d * k + v].
 */
static int apply(struct ot_kns *kns, const uint8_t *dmap,
		 const int16_t *vmap, struct ot_error *err)
{
	const struct ot_fabric *f = kns->fabric;
	unsigned int n = kns->n, k = kns->k, d;
	int16_t *tmp = malloc((size_t)n * sizeof(*tmp));
	uint32_t x, num;

	if (!tmp)
		return ot_error_nomem(err, "kns");
	for (x = 0; x < f->nnodes; x++) {
		int16_t *co = kns->coord + (size_t)x * n;

		for (d = 0; d < n; d++)
			tmp[dmap[d]] = co[d] >= 0 && (unsigned int)co[d] < k ?
				       vmap[d * k + co[d]] : co[d];
		memcpy(co, tmp, n * sizeof(*co));
		if (kns->dim[x] >= 0 && (unsigned int)kns->dim[x] < n)
			kns->dim[x] = (int8_t)dmap[kns->dim[x]];
		if (kns->role[x] != OT_KNS_ROUTER || !placed(kns, x, -1))
			continue;
		for (d = n, num = 0; d-- > 0;)
			num = num * k + (uint32_t)co[d];
		kns->router_at[num] = (int32_t)x;
	}
	free(tmp);
	return 0;
}

/*
 * The dead ends (see struct canon): parts of line switches joined by
 * cables whose routers are one.  Out of memory: -1.
 */
static int find_dead(struct canon *c, struct ot_error *err)
{
	const struct ot_kns *kns = c->kns;
	const struct ot_fabric *f = kns->fabric;
	struct ot_uf *uf = ot_uf_new(c->nn + 1);
	int32_t *one = malloc(((size_t)c->nn + 1) * sizeof(*one));
	uint32_t x, r;
	unsigned int p;

	c->dead = malloc(((size_t)c->nn + 1) * sizeof(*c->dead));
	if (!uf || !one || !c->dead) {
		ot_uf_free(uf);
		free(one);
		return ot_error_nomem(err, "kns");
	}
	for (x = 0; x < c->nn; x++) {
		one[x] = -1;
		for (p = 1; kns->role[x] == OT_KNS_SWITCH &&
			    p <= f->node[x].nports; p++) {
			int32_t y = f->node[x].port[p].peer;

			if (y >= 0 && kns->role[y] == OT_KNS_SWITCH)
				ot_uf_union(uf, x, y);
		}
	}
	/* one[root]: the part's router, -2 once it has two */
	for (x = 0; x < c->nn; x++) {
		if (kns->role[x] != OT_KNS_SWITCH)
			continue;
		r = ot_uf_find(uf, x);
		for (p = 1; p <= f->node[x].nports; p++) {
			int32_t y = f->node[x].port[p].peer;

			if (y < 0 || kns->role[y] != OT_KNS_ROUTER ||
			    one[r] == y)
				continue;
			one[r] = one[r] == -1 ? y : -2;
		}
	}
	for (x = 0; x < c->nn; x++)
		c->dead[x] = kns->role[x] == OT_KNS_SWITCH ?
			     one[ot_uf_find(uf, x)] : -1;
	ot_uf_free(uf);
	free(one);
	return 0;
}

/*
 * A dead end's dimension, from the new numbering: the lowest its router
 * has no other line switch of (else 0), as topo/kns_dmg.c gives it, its
 * coordinates the router's with -1 there.
 */
static void dead_ends(struct canon *c, struct ot_kns *kns)
{
	const struct ot_fabric *f = kns->fabric;
	unsigned int n = kns->n, d, q;
	uint32_t x;

	for (x = 0; x < c->nn; x++) {
		int32_t r = c->dead[x];
		uint64_t used = 0;

		if (r < 0)
			continue;
		for (q = 1; q <= f->node[r].nports; q++) {
			int32_t y = f->node[r].port[q].peer;

			if (y >= 0 && in_line(c, y) && kns->dim[y] < 64)
				used |= 1ull << kns->dim[y];
		}
		for (d = 0; d < n && d < 64 && (used >> d & 1); d++)
			;
		kns->dim[x] = (int8_t)(d < n ? d : 0);
		memcpy(kns->coord + (size_t)x * n,
		       kns->coord + (size_t)r * n, n * sizeof(*kns->coord));
		kns->coord[(size_t)x * n + kns->dim[x]] = -1;
	}
}

/* Initial colours: dimensions, values, lines, then nodes by role. */
static void kinds(const struct canon *c, uint32_t *colour)
{
	uint32_t v, nv = v_dim(c, c->kns->n);

	for (v = 0; v < nv; v++)
		colour[v] = v < c->nn ? 3u + c->kns->role[v] :
			    v < v_line(c, c->nl) ? 2 :
			    v < v_dim(c, 0) ? 1 : 0;
}

int ot_kns_canon(struct ot_kns *kns, unsigned int flip, uint32_t *colour,
		 struct ot_error *err)
{
	struct canon c = { .kns = kns, .nn = kns->fabric->nnodes, .per = 1 };
	struct ot_refine_graph g;
	uint32_t *col = NULL, ncls, v, nv;
	uint64_t *tie = NULL;
	uint8_t *dmap = NULL;
	int16_t *vmap = NULL;
	unsigned int d, n = kns->n, k = kns->k;
	int error;

	for (d = 1; d < n; d++)
		c.per *= k;
	c.nl = c.per * n;
	error = find_dead(&c, err);
	if (!error)
		error = build_graph(&c, &g, err);
	if (error)
		goto out;
	nv = g.n;
	col = malloc(((size_t)nv + 1) * sizeof(*col));
	tie = malloc(((size_t)nv + 1) * sizeof(*tie));
	dmap = malloc((size_t)n + 1);
	vmap = malloc(((size_t)n * k + 1) * sizeof(*vmap));
	if (!col || !tie || !dmap || !vmap) {
		error = ot_error_nomem(err, "kns");
		goto out;
	}
	/*
	 * The whole graph's colours, then individualize all but switches and
	 * CAs (refined, their colours stay in the routers' and lines').
	 */
	kinds(&c, col);
	error = ot_refine_graph(&g, col, 0, &ncls, err);
	for (v = 0; v < c.nn && !error; v++)
		if (kns->role[v] != OT_KNS_ROUTER)
			col[v] = OT_REFINE_SKIP;
	tie_keys(&c, tie);
	if (!error)
		error = ot_refine_discrete(&g, col, tie, &ncls, NULL, err);
	if (error)
		goto out;
	for (d = 0; d < n; d++) {
		int16_t x;

		dmap[d] = (uint8_t)rank_in(col, v_dim(&c, 0), n,
					   v_dim(&c, d));
		for (x = 0; x < (int16_t)k; x++)
			vmap[d * k + x] = rank_in(col, v_value(&c, d, 0), k,
						  v_value(&c, d, x));
		for (x = 0; (flip & OT_KNS_FLIP_VALUES) && x < (int16_t)k; x++)
			vmap[d * k + x] = (int16_t)k - 1 - vmap[d * k + x];
	}
	error = apply(kns, dmap, vmap, err);
	if (error)
		goto out;
	dead_ends(&c, kns);
	if (!colour)
		goto out;
	/* every node's colour, from the numbering just made */
	kinds(&c, col);
	for (d = 0; d < n; d++) {
		int16_t x;

		col[v_dim(&c, d)] = dmap[d];
		for (x = 0; x < (int16_t)k; x++)
			col[v_value(&c, d, x)] = n + dmap[d] * k +
						 (uint32_t)vmap[d * k + x];
	}
	for (v = 0; v < v_value(&c, 0, 0); v++)
		col[v] += n + n * k;
	error = ot_refine_graph(&g, col, 0, &ncls, err);
	for (v = 0; v < c.nn && !error; v++)
		if (kns->role[v] == OT_KNS_CA)
			col[v] = OT_REFINE_SKIP;
	if (!error)
		error = ot_refine_discrete(&g, col, tie, &ncls, NULL, err);
	if (!error)
		memcpy(colour, col, (size_t)c.nn * sizeof(*colour));
	if (!error && (flip & OT_KNS_FLIP_POSITIONS))
		for (v = 0; v < c.nn; v++)
			if (colour[v] != OT_REFINE_SKIP)
				colour[v] = ncls - 1 - colour[v];
out:
	free(c.off);
	free(c.adj);
	free(c.fill);
	free(c.dead);
	free(col);
	free(tie);
	free(dmap);
	free(vmap);
	return error;
}
