// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Group and switch numbering by the cabling (see df_canon.h): the graph
 * of switches in compressed rows, refined, individualized where groups
 * or non-twin switches stay tied, refined again from the colours reached
 * (refinement of a finer start ends where the coarser one with the same
 * individualizations would: colours stay ranks, functions of the graph).
 */
#define _GNU_SOURCE /* qsort_r */
#include <stdlib.h>
#include <string.h>

#include "model/refine.h"
#include "topo/df_canon.h"

struct canon {
	const struct ot_fabric *f;
	const int32_t *group;
	uint32_t ns, ngroups;
	int32_t *node;     /* per vertex: its switch */
	uint32_t *vid;     /* per node: its vertex */
	size_t *off;       /* the graph, rows sorted */
	uint32_t *adj;
	uint32_t *colour;  /* per vertex */
	uint32_t *byg;     /* vertices by (group, colour) */
	uint32_t *gstart;  /* group G's at byg[gstart[G] .. gstart[G + 1]) */
	uint32_t *gorder;  /* groups by (size, colours) */
	uint32_t *order;   /* vertices by (colour, GUID, node) */
};

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

static int cmp_colour(const void *a, const void *b, void *arg)
{
	const struct canon *c = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (c->colour[x] > c->colour[y]) - (c->colour[x] < c->colour[y]);
}

/* Larger first, then by the members' colours, ascending. */
static int cmp_group(const void *a, const void *b, void *arg)
{
	const struct canon *c = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint32_t lx = c->gstart[x + 1] - c->gstart[x];
	uint32_t ly = c->gstart[y + 1] - c->gstart[y];
	uint32_t i;

	if (lx != ly)
		return lx > ly ? -1 : 1;
	for (i = 0; i < lx; i++) {
		uint32_t u = c->colour[c->byg[c->gstart[x] + i]];
		uint32_t v = c->colour[c->byg[c->gstart[y] + i]];

		if (u != v)
			return u < v ? -1 : 1;
	}
	return 0;
}

static uint64_t guid_of(const struct canon *c, uint32_t v)
{
	return c->f->node[c->node[v]].guid;
}

/* By colour, then GUID, then node: the last word only among ties. */
static int cmp_vertex(const void *a, const void *b, void *arg)
{
	const struct canon *c = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (c->colour[x] != c->colour[y])
		return c->colour[x] < c->colour[y] ? -1 : 1;
	if (guid_of(c, x) != guid_of(c, y))
		return guid_of(c, x) < guid_of(c, y) ? -1 : 1;
	return (c->node[x] > c->node[y]) - (c->node[x] < c->node[y]);
}

static void build(struct canon *c, const uint8_t *role)
{
	const struct ot_fabric *f = c->f;
	size_t e = 0;
	uint32_t n, v;
	unsigned int p;

	for (n = 0; n < f->nnodes; n++)
		if (ot_is_switch(f, n) && c->group[n] >= 0) {
			c->vid[n] = c->ns;
			c->node[c->ns++] = (int32_t)n;
		}
	for (v = 0; v < c->ns; v++) {
		const struct ot_node *nd = &f->node[c->node[v]];
		unsigned int cas = 0;

		c->off[v] = e;
		for (p = 1; p <= nd->nports; p++) {
			int32_t x = nd->port[p].peer;

			if (x < 0 || x == c->node[v])
				continue;
			if (!ot_is_switch(f, x) || c->group[x] < 0)
				cas++;
			else
				c->adj[e++] = c->vid[x];
		}
		qsort(c->adj + c->off[v], e - c->off[v], sizeof(*c->adj),
		      cmp_u32);
		c->colour[v] = 4 * cas + (role ? role[c->node[v]] % 4 : 0);
	}
	c->off[c->ns] = e;
}

/* Lists each group's vertices by colour and sorts the groups. */
static void sort_groups(struct canon *c)
{
	uint32_t v, G;

	memset(c->gstart, 0, ((size_t)c->ngroups + 1) * sizeof(*c->gstart));
	for (v = 0; v < c->ns; v++)
		c->gstart[c->group[c->node[v]] + 1]++;
	for (G = 0; G < c->ngroups; G++) {
		c->gstart[G + 1] += c->gstart[G];
		c->gorder[G] = c->gstart[G]; /* a cursor, for now */
	}
	for (v = 0; v < c->ns; v++)
		c->byg[c->gorder[c->group[c->node[v]]]++] = v;
	for (G = 0; G < c->ngroups; G++) {
		qsort_r(c->byg + c->gstart[G], c->gstart[G + 1] - c->gstart[G],
			sizeof(*c->byg), cmp_colour, c);
		c->gorder[G] = G;
	}
	qsort_r(c->gorder, c->ngroups, sizeof(*c->gorder), cmp_group, c);
}

/*
 * Gives group *pick_group's switches, or vertex pick_vertex, colours of
 * their own, ahead of those they shared theirs with.
 */
static void individualize(struct canon *c, const int32_t *pick_group,
			  int64_t pick_vertex)
{
	uint32_t v;

	for (v = 0; v < c->ns; v++) {
		bool in = pick_group ?
			  c->group[c->node[v]] == *pick_group :
			  (int64_t)v == pick_vertex;

		c->colour[v] = 2 * c->colour[v] + !in;
	}
}

/* The tied groups' one with the smallest GUID, -1 for no tie. */
static int32_t tied_group(struct canon *c)
{
	uint32_t i, j, k;
	int32_t best = -1;
	uint64_t bg = 0;

	for (i = 0; i + 1 < c->ngroups; i = j) {
		for (j = i + 1; j < c->ngroups &&
			    !cmp_group(&c->gorder[i], &c->gorder[j], c); j++)
			;
		for (k = i; j > i + 1 && k < j; k++) {
			uint32_t G = c->gorder[k], m;

			for (m = c->gstart[G]; m < c->gstart[G + 1]; m++)
				if (best < 0 || guid_of(c, c->byg[m]) < bg) {
					best = (int32_t)G;
					bg = guid_of(c, c->byg[m]);
				}
		}
		if (best >= 0)
			return best;
	}
	return -1;
}

static bool twins(const struct canon *c, uint32_t u, uint32_t v)
{
	size_t lu = c->off[u + 1] - c->off[u], lv = c->off[v + 1] - c->off[v];

	return lu == lv && !memcmp(c->adj + c->off[u], c->adj + c->off[v],
				   lu * sizeof(*c->adj));
}

/* In the first class with switches not twins, its smallest GUID; -1. */
static int64_t tied_switch(struct canon *c)
{
	uint32_t i, j;

	for (i = 0; i < c->ns; i++)
		c->order[i] = i;
	qsort_r(c->order, c->ns, sizeof(*c->order), cmp_vertex, c);
	for (i = 0; i < c->ns; i = j) {
		bool all = true;

		for (j = i + 1; j < c->ns &&
			    c->colour[c->order[j]] == c->colour[c->order[i]];
		     j++)
			all &= twins(c, c->order[i], c->order[j]);
		if (!all)
			return c->order[i];
	}
	return -1;
}

static int canon_run(struct canon *c, uint32_t *rank, struct ot_error *err)
{
	struct ot_refine_graph g = { c->ns, c->off, c->adj };
	uint32_t ncl, v, G;
	int32_t tied;
	int64_t one;

	for (;;) {
		if (ot_refine_graph(&g, c->colour, 0, &ncl, err))
			return -1;
		sort_groups(c);
		tied = tied_group(c);
		if (tied >= 0) {
			individualize(c, &tied, -1);
			continue;
		}
		one = tied_switch(c);
		if (one < 0)
			break;
		individualize(c, NULL, one);
	}
	for (G = 0; G < c->ngroups; G++)
		c->byg[c->gorder[G]] = G;
	for (v = 0; v < c->ns; v++)
		rank[c->node[c->order[v]]] = v;
	return 0;
}

int ot_df_canon(const struct ot_fabric *f, int32_t *group, uint32_t ngroups,
		const uint8_t *role, uint32_t *rank, const char *who,
		struct ot_error *err)
{
	struct canon c = { .f = f, .group = group, .ngroups = ngroups };
	size_t N = (size_t)f->nnodes + 1, ports = 0;
	uint32_t n;
	int error = 0;

	for (n = 0; n < f->nnodes; n++)
		ports += f->node[n].nports;
	c.node = malloc(N * sizeof(*c.node));
	c.vid = malloc(N * sizeof(*c.vid));
	c.off = malloc((N + 1) * sizeof(*c.off));
	c.adj = malloc((ports + 1) * sizeof(*c.adj));
	c.colour = malloc(N * sizeof(*c.colour));
	c.byg = malloc((N + ngroups) * sizeof(*c.byg));
	c.gstart = malloc(((size_t)ngroups + 2) * sizeof(*c.gstart));
	c.gorder = malloc(((size_t)ngroups + 1) * sizeof(*c.gorder));
	c.order = calloc(N + ngroups, sizeof(*c.order));
	if (!c.node || !c.vid || !c.off || !c.adj || !c.colour || !c.byg ||
	    !c.gstart || !c.gorder || !c.order)
		error = ot_error_nomem(err, who);
	if (!error)
		build(&c, role);
	if (!error)
		error = canon_run(&c, rank, err);
	for (n = 0; !error && n < f->nnodes; n++)
		if (ot_is_switch(f, n) && group[n] >= 0)
			group[n] = (int32_t)c.byg[group[n]];
	free(c.node);
	free(c.vid);
	free(c.off);
	free(c.adj);
	free(c.colour);
	free(c.byg);
	free(c.gstart);
	free(c.gorder);
	free(c.order);
	return error;
}
