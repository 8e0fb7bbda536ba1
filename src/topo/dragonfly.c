// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The Dragonfly recognizer (see dragonfly.h for the rule and why it holds
 * for every arrangement of the global cables): the step between the
 * fabric and df-static in the flow (fabric -> recognizer -> coordinates
 * -> engine -> tables -> checker).
 */
#include <stdlib.h>
#include <string.h>

#include "model/uf.h"
#include "topo/dragonfly.h"

/* Distinct switch neighbours of every switch, sorted by node index. */
struct df_adj {
	uint32_t *start; /* nnodes + 1 */
	int32_t *adj;
	uint32_t *common; /* per adj entry: common switch neighbours */
	uint32_t *maxc;   /* per node: the largest of its entries */
};

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

static int build_adj(const struct ot_fabric *f, struct df_adj *g)
{
	uint32_t n, k = 0, total = 0;
	unsigned int p;

	for (n = 0; n < f->nnodes; n++)
		total += f->node[n].nports;
	g->start = calloc((size_t)f->nnodes + 1, sizeof(*g->start));
	g->adj = malloc(((size_t)total + 1) * sizeof(*g->adj));
	g->common = calloc((size_t)total + 1, sizeof(*g->common));
	g->maxc = calloc((size_t)f->nnodes + 1, sizeof(*g->maxc));
	if (!g->start || !g->adj || !g->common || !g->maxc)
		return -1;
	for (n = 0; n < f->nnodes; n++) {
		uint32_t first = k, i, w;

		g->start[n] = k;
		if (!ot_is_switch(f, n))
			continue;
		for (p = 1; p <= f->node[n].nports; p++) {
			int32_t x = f->node[n].port[p].peer;

			if (x >= 0 && (uint32_t)x != n && ot_is_switch(f, x))
				g->adj[k++] = x;
		}
		qsort(g->adj + first, k - first, sizeof(*g->adj), cmp_i32);
		for (i = w = first; i < k; i++)
			if (i == first || g->adj[i] != g->adj[w - 1])
				g->adj[w++] = g->adj[i];
		k = w;
	}
	g->start[f->nnodes] = k;
	return 0;
}

static uint32_t count_common(const struct df_adj *g, int32_t u, int32_t v)
{
	uint32_t i = g->start[u], j = g->start[v], c = 0;

	while (i < g->start[u + 1] && j < g->start[v + 1]) {
		if (g->adj[i] == g->adj[j]) {
			c++;
			i++;
			j++;
		} else if (g->adj[i] < g->adj[j]) {
			i++;
		} else {
			j++;
		}
	}
	return c;
}

static void count_triangles(const struct ot_fabric *f, struct df_adj *g)
{
	uint32_t n, k;

	for (n = 0; n < f->nnodes; n++)
		for (k = g->start[n]; k < g->start[n + 1]; k++) {
			g->common[k] = count_common(g, n, g->adj[k]);
			if (g->common[k] > g->maxc[n])
				g->maxc[n] = g->common[k];
		}
}

/* Joins the ends of every strong cable (dragonfly.h). */
static void join_strong(const struct ot_fabric *f, const struct df_adj *g,
			struct ot_uf *uf)
{
	uint32_t n, k;

	for (n = 0; n < f->nnodes; n++)
		for (k = g->start[n]; k < g->start[n + 1]; k++) {
			int32_t v = g->adj[k];
			uint32_t c = g->common[k];

			if (c && 2 * c > g->maxc[n] && 2 * c > g->maxc[v])
				ot_uf_union(uf, n, v);
		}
}

/*
 * Damage can leave a group in pieces (a switch that lost local cables
 * loses triangles too): two parts with more than half of the switch pairs
 * between them cabled, and at least two, are one group.  Two groups of a Dragonfly have
 * about a * h / (g - 1) of a * a pairs cabled, far below half.  Rounds
 * over the parts (roots in node order) until nothing merges.
 *
 * Switches by part: root r's are list[first[r] .. first[r + 1]). */
static void list_parts(const struct ot_fabric *f, struct ot_uf *uf,
		       uint32_t *first, uint32_t *list, uint32_t *root)
{
	uint32_t n, N = f->nnodes;

	memset(first, 0, ((size_t)N + 2) * sizeof(*first));
	for (n = 0; n < N; n++) {
		root[n] = ot_is_switch(f, n) ? ot_uf_find(uf, n) : N;
		if (root[n] < N)
			first[root[n] + 2]++;
	}
	for (n = 0; n < N; n++)
		first[n + 2] += first[n + 1];
	for (n = 0; n < N; n++)
		if (root[n] < N)
			list[first[root[n] + 1]++] = n;
}

/* One round over every part; true when some parts merged. */
static bool merge_round(const struct ot_fabric *f, const struct df_adj *g,
			struct ot_uf *uf, uint32_t *first, uint32_t *list,
			uint32_t *root, uint32_t *cnt)
{
	uint32_t A, i, k, N = f->nnodes;
	bool merged = false;

	list_parts(f, uf, first, list, root);
	for (A = 0; A < N; A++) {
		uint32_t sa = first[A + 1] - first[A];

		for (i = first[A]; i < first[A + 1]; i++)
			for (k = g->start[list[i]]; k < g->start[list[i] + 1]; k++)
				cnt[root[g->adj[k]]]++;
		for (i = first[A]; i < first[A + 1]; i++)
			for (k = g->start[list[i]]; k < g->start[list[i] + 1]; k++) {
				uint32_t B = root[g->adj[k]];
				uint64_t sb = first[B + 1] - first[B];

				if (B != A && cnt[B] >= 2 && 2ull * cnt[B] > sa * sb)
					merged |= ot_uf_union(uf, A, B);
				cnt[B] = 0;
			}
	}
	return merged;
}

static int merge_dense(const struct ot_fabric *f, const struct df_adj *g,
		       struct ot_uf *uf)
{
	size_t N = f->nnodes;
	uint32_t *first = malloc((N + 2) * sizeof(*first));
	uint32_t *list = malloc((N + 1) * sizeof(*list));
	uint32_t *root = malloc((N + 1) * sizeof(*root));
	uint32_t *cnt = calloc(N + 1, sizeof(*cnt));
	int error = 0;

	if (!first || !list || !root || !cnt)
		error = -1;
	while (!error && merge_round(f, g, uf, first, list, root, cnt))
		;
	free(first);
	free(list);
	free(root);
	free(cnt);
	return error;
}

/* A group before numbering: its root, size and smallest (GUID, node). */
struct df_class {
	uint32_t root, size;
	uint64_t guid;
	int32_t first;
};

static int cmp_class(const void *a, const void *b)
{
	const struct df_class *x = a, *y = b;

	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return (x->first > y->first) - (x->first < y->first);
}

/* A switch, sorted into its group by (GUID, node). */
struct df_member {
	uint32_t group;
	uint64_t guid;
	int32_t node;
};

static int cmp_member(const void *a, const void *b)
{
	const struct df_member *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return (x->node > y->node) - (x->node < y->node);
}

/* Groups numbered by size (largest first), then smallest GUID. */
static int number_groups(struct ot_df *df, struct ot_uf *uf,
			 struct ot_error *err)
{
	const struct ot_fabric *f = df->fabric;
	struct df_class *cl = calloc((size_t)f->nnodes + 1, sizeof(*cl));
	int32_t *of = malloc(((size_t)f->nnodes + 1) * sizeof(*of));
	uint32_t n, ncl = 0, G;

	if (!cl || !of) {
		free(cl);
		free(of);
		return ot_error_nomem(err, "dragonfly");
	}
	for (n = 0; n < f->nnodes; n++)
		of[n] = -1;
	for (n = 0; n < f->nnodes; n++) {
		uint32_t r;

		if (!ot_is_switch(f, n))
			continue;
		r = ot_uf_find(uf, n);
		if (of[r] < 0) {
			of[r] = ncl;
			cl[ncl] = (struct df_class){ r, 0, f->node[n].guid, n };
			ncl++;
		}
		cl[of[r]].size++;
		if (f->node[n].guid < cl[of[r]].guid)
			cl[of[r]].guid = f->node[n].guid;
	}
	qsort(cl, ncl, sizeof(*cl), cmp_class);
	for (G = 0; G < ncl; G++)
		of[cl[G].root] = G;
	df->ngroups = ncl;
	df->max_size = ncl ? cl[0].size : 0;
	for (n = 0; n < f->nnodes; n++)
		if (ot_is_switch(f, n))
			df->group[n] = of[ot_uf_find(uf, n)];
	free(cl);
	free(of);
	return 0;
}

/* Members of each group in (GUID, node) order, and their indices. */
static int list_members(struct ot_df *df, struct ot_error *err)
{
	const struct ot_fabric *f = df->fabric;
	struct df_member *m = malloc(((size_t)f->nnodes + 1) * sizeof(*m));
	uint32_t n, i, k = 0;

	if (!m)
		return ot_error_nomem(err, "dragonfly");
	for (n = 0; n < f->nnodes; n++)
		if (ot_is_switch(f, n))
			m[k++] = (struct df_member){ df->group[n],
						     f->node[n].guid, n };
	qsort(m, k, sizeof(*m), cmp_member);
	for (i = 0; i < k; i++) {
		uint32_t G = m[i].group;

		df->member[i] = m[i].node;
		if (!i || m[i - 1].group != G)
			df->gstart[G] = i;
		df->gstart[G + 1] = i + 1;
		df->index[m[i].node] = i - df->gstart[G];
	}
	free(m);
	return 0;
}

/*
 * Each group close to a full graph: every switch cabled to more than half
 * of the others; two groups of at least three switches.
 */
static int check_groups(const struct ot_df *df, const struct df_adj *g,
			struct ot_error *err)
{
	const struct ot_fabric *f = df->fabric;
	uint32_t G, i, k;

	for (G = 0; G < df->ngroups; G++) {
		uint32_t size = df->gstart[G + 1] - df->gstart[G];

		for (i = df->gstart[G]; i < df->gstart[G + 1]; i++) {
			int32_t u = df->member[i];
			uint32_t in = 0;

			for (k = g->start[u]; k < g->start[u + 1]; k++)
				in += df->group[g->adj[k]] == (int32_t)G;
			if (size > 1 && 2 * in <= size - 1)
				return ot_refuse(err, OT_ERR_TOPOLOGY,
						 "dragonfly: switch \"%s\": cabled to %u of the %u other switches of its group: no full graph",
						 f->node[u].desc, in, size - 1);
		}
	}
	if (df->ngroups >= 2 && df->gstart[2] - df->gstart[1] >= 3)
		return 0;
	/* name the first switch (node order) outside the largest group */
	for (k = 0; k < f->nnodes; k++)
		if (df->group[k] > 0 || (df->group[k] == 0 && df->ngroups == 1))
			break;
	return ot_refuse(err, OT_ERR_TOPOLOGY,
			 "dragonfly: switch \"%s\": %u group(s) of full graphs, the largest of %u switches: two of at least 3 needed",
			 k < f->nnodes ? f->node[k].desc : "?", df->ngroups,
			 df->max_size);
}

/* End nodes join their switch's group; every port gets its class. */
static void classify_ports(struct ot_df *df)
{
	const struct ot_fabric *f = df->fabric;
	uint32_t n;
	unsigned int p;

	for (n = 0; n < f->nnodes; n++) {
		const struct ot_node *nd = &f->node[n];

		for (p = 1; p <= nd->nports; p++) {
			int32_t x = nd->port[p].peer;
			uint8_t *c = &df->cls[df->pstart[n] + p];

			if (x < 0)
				continue;
			if (!ot_is_switch(f, n)) {
				if (ot_is_switch(f, x))
					df->group[n] = df->group[x];
				*c = OT_DF_PORT_CA;
			} else if (!ot_is_switch(f, x)) {
				*c = OT_DF_PORT_CA;
			} else {
				*c = df->group[x] == df->group[n] ?
					     OT_DF_PORT_LOCAL :
					     OT_DF_PORT_GLOBAL;
			}
		}
	}
}

static int df_alloc(const struct ot_fabric *f, struct ot_df *df)
{
	uint32_t n, ports = 0;

	df->fabric = f;
	df->group = malloc(((size_t)f->nnodes + 1) * sizeof(*df->group));
	df->index = malloc(((size_t)f->nnodes + 1) * sizeof(*df->index));
	df->gstart = calloc((size_t)f->nnodes + 2, sizeof(*df->gstart));
	df->member = malloc(((size_t)f->nnodes + 1) * sizeof(*df->member));
	df->pstart = malloc(((size_t)f->nnodes + 1) * sizeof(*df->pstart));
	if (!df->group || !df->index || !df->gstart || !df->member ||
	    !df->pstart)
		return -1;
	for (n = 0; n < f->nnodes; n++) {
		df->group[n] = -1;
		df->index[n] = -1;
		df->pstart[n] = ports;
		ports += f->node[n].nports + 1u;
	}
	df->cls = calloc((size_t)ports + 1, 1);
	return df->cls ? 0 : -1;
}

int ot_df_recognize(const struct ot_fabric *f, struct ot_df **out,
		    struct ot_error *err)
{
	struct ot_df *df = calloc(1, sizeof(*df));
	struct df_adj g = { 0 };
	struct ot_uf *uf = ot_uf_new(f->nnodes);
	int error = 0;

	*out = NULL;
	if (!df || !uf || df_alloc(f, df) || build_adj(f, &g)) {
		error = ot_error_nomem(err, "dragonfly");
		goto out;
	}
	count_triangles(f, &g);
	join_strong(f, &g, uf);
	if (merge_dense(f, &g, uf)) {
		error = ot_error_nomem(err, "dragonfly");
		goto out;
	}
	error = number_groups(df, uf, err);
	if (!error)
		error = list_members(df, err);
	if (!error)
		error = check_groups(df, &g, err);
	if (error)
		goto out;
	classify_ports(df);
	*out = df;
	df = NULL;
out:
	ot_uf_free(uf);
	free(g.start);
	free(g.adj);
	free(g.common);
	free(g.maxc);
	ot_df_free(df);
	return error;
}

void ot_df_free(struct ot_df *df)
{
	if (!df)
		return;
	free(df->group);
	free(df->index);
	free(df->gstart);
	free(df->member);
	free(df->pstart);
	free(df->cls);
	free(df);
}
