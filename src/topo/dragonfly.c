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
#include "topo/df_canon.h"
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

/* The cables from part A (list[a0 .. a1)) to part B that close a triangle. */
static uint32_t tri_cables(const struct df_adj *g, const uint32_t *list,
			   uint32_t a0, uint32_t a1, const uint32_t *root,
			   uint32_t B)
{
	uint32_t i, k, tri = 0;

	for (i = a0; i < a1; i++)
		for (k = g->start[list[i]]; k < g->start[list[i] + 1]; k++)
			tri += root[g->adj[k]] == B && g->common[k] > 0;
	return tri;
}

/*
 * Parts A and B (as listed) are pieces of one FlatFly group: at least as
 * many triangle-closing cables between them as the smaller has switches,
 * one fewer for damage, and two (rows matched to rows, or two halves of
 * a group; two groups share far fewer cables, and those rarely close a
 * triangle).
 */
static bool lines_match(const struct df_adj *g, const uint32_t *first,
			const uint32_t *list, const uint32_t *root,
			uint32_t A, uint32_t B)
{
	uint32_t sa = first[A + 1] - first[A], sb = first[B + 1] - first[B];
	uint32_t need = (sa < sb ? sa : sb) - 1, m;

	if (sa < 2 || sb < 2)
		return false;
	m = tri_cables(g, list, first[A], first[A + 1], root, B);
	return m >= 2 && m >= need;
}

/*
 * A piece of one or two switches (damage took their triangles) joins the
 * part it has the most cables to, two at least, and more than to any
 * other (its global cables go to as many groups, one or two each).
 */
static void attach_piece(const struct df_adj *g, const uint32_t *first,
			 const uint32_t *list, const uint32_t *root,
			 uint32_t A, uint32_t *cnt, struct ot_uf *uf)
{
	uint32_t i, k, best = A, top = 0, second = 0;

	for (i = first[A]; i < first[A + 1]; i++)
		for (k = g->start[list[i]]; k < g->start[list[i] + 1]; k++)
			if (root[g->adj[k]] != A)
				cnt[root[g->adj[k]]]++;
	for (i = first[A]; i < first[A + 1]; i++)
		for (k = g->start[list[i]]; k < g->start[list[i] + 1]; k++) {
			uint32_t B = root[g->adj[k]];

			if (B == A || !cnt[B])
				continue;
			if (cnt[B] > top) {
				second = B == best ? second : top;
				top = cnt[B];
				best = B;
			} else if (B != best && cnt[B] > second) {
				second = cnt[B];
			}
			cnt[B] = 0;
		}
	if (top >= 2 && top > second)
		ot_uf_union(uf, A, best);
}

/*
 * FlatFly groups (dragonfly.h): parts matched by triangle-closing cables
 * (no switch with two cables into the other part, as many such cables
 * as the smaller part has switches, one fewer for damage) are one group;
 * then pieces of one or two switches join their part.  One round each,
 * every pair judged on the parts as they were before it.
 */
static int merge_matched(const struct ot_fabric *f, const struct df_adj *g,
			 struct ot_uf *uf)
{
	size_t N = f->nnodes;
	uint32_t *first = malloc((N + 2) * sizeof(*first));
	uint32_t *list = malloc((N + 1) * sizeof(*list));
	uint32_t *root = malloc((N + 1) * sizeof(*root));
	uint32_t *seen = calloc(N + 1, sizeof(*seen));
	uint32_t A, i, k;
	int error = -1;

	if (!first || !list || !root || !seen)
		goto out;
	list_parts(f, uf, first, list, root);
	for (A = 0; A < N; A++)
		for (i = first[A]; i < first[A + 1]; i++)
			for (k = g->start[list[i]]; k < g->start[list[i] + 1];
			     k++) {
				uint32_t B = root[g->adj[k]];

				if (B > A && seen[B] != A + 1) {
					seen[B] = A + 1;
					if (lines_match(g, first, list, root, A, B))
						ot_uf_union(uf, A, B);
				}
			}
	list_parts(f, uf, first, list, root);
	memset(seen, 0, (N + 1) * sizeof(*seen));
	for (A = 0; A < N; A++)
		if (first[A + 1] > first[A] && first[A + 1] - first[A] <= 2)
			attach_piece(g, first, list, root, A, seen, uf);
	error = 0;
out:
	free(first);
	free(list);
	free(root);
	free(seen);
	return error;
}

/* A switch, sorted into its group by its rank (df_canon.h). */
struct df_member {
	uint32_t group;
	uint32_t rank;
	int32_t node;
};

static int cmp_member(const void *a, const void *b)
{
	const struct df_member *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

/*
 * Groups renumbered and their members numbered by the cabling
 * (df_canon.h), listed with their indices.
 */
static int list_members(struct ot_df *df, struct ot_error *err)
{
	const struct ot_fabric *f = df->fabric;
	struct df_member *m = malloc(((size_t)f->nnodes + 1) * sizeof(*m));
	uint32_t *rank = malloc(((size_t)f->nnodes + 1) * sizeof(*rank));
	uint32_t n, i, k = 0;
	int error = !m || !rank ? ot_error_nomem(err, "dragonfly") : 0;

	if (!error)
		error = ot_df_canon(f, df->group, df->ngroups, NULL, rank,
				    "dragonfly", err);
	if (error) {
		free(m);
		free(rank);
		return error;
	}
	for (n = 0; n < f->nnodes; n++)
		if (ot_is_switch(f, n))
			m[k++] = (struct df_member){ df->group[n], rank[n], n };
	free(rank);
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

static bool is_adj(const struct df_adj *g, int32_t u, int32_t v)
{
	uint32_t lo = g->start[u], hi = g->start[u + 1];

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (g->adj[mid] == v)
			return true;
		if (g->adj[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* The first switch of group G (member order) cabled to too few others. */
static int32_t not_full(const struct ot_df *df, const struct df_adj *g,
			uint32_t G, uint32_t *in_out)
{
	uint32_t size = df->gstart[G + 1] - df->gstart[G], i, k;

	for (i = df->gstart[G]; i < df->gstart[G + 1]; i++) {
		int32_t u = df->member[i];
		uint32_t in = 0;

		for (k = g->start[u]; k < g->start[u + 1]; k++)
			in += df->group[g->adj[k]] == (int32_t)G;
		if (size > 1 && 2 * in <= size - 1) {
			*in_out = in;
			return u;
		}
	}
	return -1;
}

/* A FlatFly group's work space, by member slot (index in the group). */
struct df_flat {
	const struct ot_df *df;
	const struct df_adj *g;
	uint32_t G, base, size;
	int32_t *xy;   /* 2 per slot: x, y; -1 unknown */
	uint32_t *line; /* 2 * size: the seed's row, then its column */
	uint32_t len[2];
};

static uint32_t slot_of(const struct df_flat *w, int32_t n)
{
	return (uint32_t)w->df->index[n];
}

static bool in_group(const struct df_flat *w, int32_t n)
{
	return w->df->group[n] == (int32_t)w->G;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/*
 * The seed switch's cables in the group as two cliques: its row (the
 * longer, or the one with the smaller slot first) and its column, each
 * with the seed, in slot order.  -1 when they are not two cliques.
 */
static uint32_t lab_find(uint32_t *lab, uint32_t i)
{
	while (lab[i] != i)
		i = lab[i] = lab[lab[i]];
	return i;
}

static int seed_lines(struct df_flat *w, int32_t s0)
{
	const struct df_adj *g = w->g;
	uint32_t n = 0, i, j, k, cn[2] = { 0, 0 }, root[2];
	uint32_t *comp[2] = { w->line + 1, w->line + w->size + 1 };
	uint32_t lab[OT_MAX_PORTS + 1];
	int32_t nb[OT_MAX_PORTS + 1];
	unsigned int c;

	for (k = g->start[s0]; k < g->start[s0 + 1] && n <= OT_MAX_PORTS; k++)
		if (in_group(w, g->adj[k]))
			nb[n++] = g->adj[k];
	if (n + 1 >= w->size)
		return -1;
	/* connected parts (a damaged line may miss a cable or two) */
	for (i = 0; i < n; i++)
		lab[i] = i;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (is_adj(g, nb[i], nb[j]))
				lab[lab_find(lab, i)] = lab_find(lab, j);
	for (i = 0; i < n; i++) {
		uint32_t r = lab_find(lab, i);

		for (c = 0; c < 2 && cn[c] && root[c] != r; c++)
			;
		if (c == 2)
			return -1;
		root[c] = r;
		comp[c][cn[c]++] = slot_of(w, nb[i]);
	}
	if (!cn[1])
		return -1;
	for (c = 0; c < 2; c++) {
		comp[c][-1] = slot_of(w, s0);
		w->len[c] = cn[c] + 1;
		qsort(comp[c] - 1, w->len[c], sizeof(uint32_t), cmp_u32);
	}
	for (i = 0; i + 1 < w->len[0] && w->len[0] == w->len[1]; i++)
		if (w->line[i] != w->line[w->size + i])
			break;
	if (w->len[1] > w->len[0] ||
	    (w->len[1] == w->len[0] && w->line[w->size + i] < w->line[i])) {
		for (i = 0; i < w->size; i++) { /* swap row and column */
			uint32_t t = w->line[i];

			w->line[i] = w->line[w->size + i];
			w->line[w->size + i] = t;
		}
		k = w->len[0];
		w->len[0] = w->len[1];
		w->len[1] = k;
	}
	return 0;
}

static uint32_t rank_in(const struct df_flat *w, unsigned int d, uint32_t sl)
{
	uint32_t i;

	for (i = 0; i < w->len[d]; i++)
		if (w->line[d * w->size + i] == sl)
			return i;
	return UINT32_MAX;
}

/*
 * The seed's row holds x = its rank there, the seed's y; its column y =
 * the rank, the seed's x.  Any other switch's x is that of its cable's
 * far end in the row, its y that of its cable's far end in the column.
 */
static void from_lines(struct df_flat *w, int32_t s0)
{
	uint32_t s = slot_of(w, s0), r[2] = { rank_in(w, 0, s),
					      rank_in(w, 1, s) };
	uint32_t d, i, k, m;

	for (d = 0; d < 2; d++)
		for (i = 0; i < w->len[d]; i++) {
			uint32_t sl = w->line[d * w->size + i];

			w->xy[2 * sl + d] = i;
			w->xy[2 * sl + !d] = r[!d];
		}
	for (m = 0; m < w->size; m++) {
		int32_t t = w->df->member[w->base + m];

		for (k = w->g->start[t]; k < w->g->start[t + 1]; k++) {
			int32_t x = w->g->adj[k];

			if (!in_group(w, x))
				continue;
			for (d = 0; d < 2; d++)
				if (w->xy[2 * m + d] < 0 &&
				    rank_in(w, d, slot_of(w, x)) != UINT32_MAX)
					w->xy[2 * m + d] =
						w->xy[2 * slot_of(w, x) + d];
		}
	}
}
/* The value of coordinate d that two of m's neighbours share, or -1. */
static int32_t shared_value(const struct df_flat *w, int32_t m,
			    unsigned int d)
{
	const struct df_adj *g = w->g;
	uint32_t k, j;
	int32_t best = -1;

	for (k = g->start[m]; k < g->start[m + 1]; k++) {
		int32_t v;

		if (!in_group(w, g->adj[k]))
			continue;
		v = w->xy[2 * slot_of(w, g->adj[k]) + d];
		for (j = k + 1; v >= 0 && j < g->start[m + 1]; j++)
			if (in_group(w, g->adj[j]) &&
			    w->xy[2 * slot_of(w, g->adj[j]) + d] == v) {
				if (best >= 0 && best != v)
					return -1;
				best = v;
			}
	}
	return best;
}

/*
 * Coordinate d of m from a neighbour whose other coordinate is known and
 * differs from m's (a cable changes one coordinate only), or -1.
 */
static int32_t cross_value(const struct df_flat *w, int32_t m, unsigned int d)
{
	const int32_t *me = &w->xy[2 * slot_of(w, m)];
	uint32_t k;

	if (me[!d] < 0)
		return -1;
	for (k = w->g->start[m]; k < w->g->start[m + 1]; k++) {
		const int32_t *r;

		if (!in_group(w, w->g->adj[k]))
			continue;
		r = &w->xy[2 * slot_of(w, w->g->adj[k])];
		if (r[!d] >= 0 && r[!d] != me[!d] && r[d] >= 0)
			return r[d];
	}
	return -1;
}

/* Rounds of shared and cross values until nothing more is found. */
static bool settle(struct df_flat *w)
{
	bool more = true, any = false;
	uint32_t m, d;

	while (more) {
		more = false;
		for (m = 0; m < w->size; m++)
			for (d = 0; d < 2; d++) {
				int32_t t = w->df->member[w->base + m], v;

				if (w->xy[2 * m + d] >= 0)
					continue;
				v = shared_value(w, t, d);
				if (v < 0)
					v = cross_value(w, t, d);
				if (v >= 0) {
					w->xy[2 * m + d] = v;
					more = any = true;
				}
			}
	}
	return any;
}

/*
 * Where damage took the cables into the seed's lines (or the seed's line
 * lost a switch): settle, then give the first switch still without a
 * coordinate a new value (a line the seed's does not reach), and again.
 */
static void propagate(struct df_flat *w)
{
	uint32_t m, d;

	for (;;) {
		settle(w);
		for (m = 0; m < w->size; m++)
			for (d = 0; d < 2; d++)
				if (w->xy[2 * m + d] < 0 && w->xy[2 * m + !d] >= 0)
					goto fresh;
		return;
fresh:
		w->xy[2 * m + d] = w->len[d]++;
	}
}

/* Every switch placed, once, inside the sizes; cables along x or y. */
static int32_t flat_verify(const struct df_flat *w, uint8_t *taken)
{
	uint32_t m, k;

	for (m = 0; m < w->size; m++) {
		int32_t t = w->df->member[w->base + m];
		int32_t x = w->xy[2 * m], y = w->xy[2 * m + 1];

		if (x < 0 || y < 0 || (uint32_t)x >= w->len[0] ||
		    (uint32_t)y >= w->len[1] || taken[y * w->len[0] + x]++)
			return t;
		for (k = w->g->start[t]; k < w->g->start[t + 1]; k++) {
			uint32_t o = slot_of(w, w->g->adj[k]);

			if (in_group(w, w->g->adj[k]) &&
			    (w->xy[2 * o] == x) == (w->xy[2 * o + 1] == y))
				return t;
		}
	}
	return -1;
}

/*
 * Coordinates from seed switch s0: the first switch that breaks the
 * FlatFly pattern, -1 when none does, -2 out of memory.
 */
static int32_t try_seed(struct df_flat *w, int32_t s0)
{
	uint8_t *taken;
	int32_t bad;

	memset(w->xy, -1, 2 * (size_t)w->size * sizeof(*w->xy));
	if (seed_lines(w, s0))
		return s0;
	from_lines(w, s0);
	propagate(w);
	taken = calloc((size_t)w->len[0] * w->len[1], 1);
	if (!taken)
		return -2;
	bad = flat_verify(w, taken);
	free(taken);
	return bad;
}

/*
 * Group G as a 2-D FlatFly (dragonfly.h): coordinates, or a refusal
 * naming the switch that breaks the pattern from the best seed.  Seeds
 * in order of cables in the group (most first), then switch in group: a
 * damaged seed's lines may fall apart where another's hold.
 */
static int flat_group(struct ot_df *df, const struct df_adj *g, uint32_t G,
		      struct ot_error *err)
{
	struct df_flat w = { .df = df, .g = g, .G = G, .base = df->gstart[G],
			     .size = df->gstart[G + 1] - df->gstart[G] };
	uint32_t *deg = calloc((size_t)w.size + 1, sizeof(*deg));
	uint32_t m, k, tries;
	int32_t bad = -2, first = -1;

	w.xy = malloc(2 * (size_t)w.size * sizeof(*w.xy));
	w.line = malloc(2 * (size_t)w.size * sizeof(*w.line));
	for (m = 0; deg && m < w.size; m++) {
		int32_t t = df->member[w.base + m];

		for (k = g->start[t]; k < g->start[t + 1]; k++)
			deg[m] += in_group(&w, g->adj[k]) ? 1 : 0;
		deg[m] += 1; /* 0: tried */
	}
	for (tries = 0; deg && w.xy && w.line && tries < w.size; tries++) {
		uint32_t best = 0;

		for (m = 1; m < w.size; m++)
			if (deg[m] > deg[best])
				best = m;
		deg[best] = 0;
		bad = try_seed(&w, df->member[w.base + best]);
		if (first == -1)
			first = bad;
		if (bad < 0)
			break;
	}
	for (m = 0; bad == -1 && m < w.size; m++) {
		df->coord[2 * df->member[w.base + m]] = w.xy[2 * m];
		df->coord[2 * df->member[w.base + m] + 1] = w.xy[2 * m + 1];
	}
	df->gdims[G] = 2;
	df->gsize[2 * G] = w.len[0];
	df->gsize[2 * G + 1] = w.len[1];
	free(w.xy);
	free(w.line);
	free(deg);
	if (bad == -2)
		return ot_error_nomem(err, "dragonfly");
	if (bad == -1)
		return 0;
	return ot_refuse(err, OT_ERR_TOPOLOGY,
			 "dragonfly: switch \"%s\": its group of %u switches is neither a full graph nor a 2-D FlatFly (rows and columns of full graphs)",
			 df->fabric->node[first].desc, w.size);
}

/*
 * Each group close to a full graph (every switch cabled to more than half
 * of the others), or with flat, else a 2-D FlatFly; two groups of at
 * least three switches.
 */
static int check_groups(struct ot_df *df, const struct df_adj *g, bool flat,
			struct ot_error *err)
{
	const struct ot_fabric *f = df->fabric;
	uint32_t G, k, in = 0;

	df->max_dims = 1;
	for (G = 0; G < df->ngroups; G++) {
		uint32_t size = df->gstart[G + 1] - df->gstart[G], i;
		int32_t u = not_full(df, g, G, &in);

		df->gdims[G] = 1;
		df->gsize[2 * G] = size;
		df->gsize[2 * G + 1] = 1;
		for (i = df->gstart[G]; u < 0 && i < df->gstart[G + 1]; i++) {
			df->coord[2 * df->member[i]] = df->index[df->member[i]];
			df->coord[2 * df->member[i] + 1] = 0;
		}
		if (u >= 0 && !flat)
			return ot_refuse(err, OT_ERR_TOPOLOGY,
					 "dragonfly: switch \"%s\": cabled to %u of the %u other switches of its group: no full graph",
					 f->node[u].desc, in, size - 1);
		if (u >= 0 && flat_group(df, g, G, err))
			return -1;
		if (df->gdims[G] > df->max_dims)
			df->max_dims = df->gdims[G];
	}
	if (df->ngroups >= 2 && df->gstart[2] - df->gstart[1] >= 3)
		return 0;
	/* name the first switch (node order) outside the largest group */
	for (k = 0; k < f->nnodes; k++)
		if (df->group[k] > 0 || (df->group[k] == 0 && df->ngroups == 1))
			break;
	return ot_refuse(err, OT_ERR_TOPOLOGY,
			 "dragonfly: switch \"%s\": %u group(s) of full graphs or 2-D FlatFlies, the largest of %u switches: two of at least 3 needed",
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
			} else if (df->group[x] == df->group[n]) {
				*c = OT_DF_PORT_LOCAL;
				df->ldim[df->pstart[n] + p] =
					df->gdims[df->group[n]] == 2 &&
					df->coord[2 * n] == df->coord[2 * x];
			} else {
				*c = OT_DF_PORT_GLOBAL;
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
	df->coord = malloc(((size_t)f->nnodes + 1) * 2 * sizeof(*df->coord));
	df->gdims = calloc((size_t)f->nnodes + 1, 1);
	df->gsize = calloc(((size_t)f->nnodes + 1) * 2, sizeof(*df->gsize));
	if (!df->group || !df->index || !df->gstart || !df->member ||
	    !df->pstart || !df->coord || !df->gdims || !df->gsize)
		return -1;
	for (n = 0; n < f->nnodes; n++) {
		df->group[n] = -1;
		df->index[n] = -1;
		df->coord[2 * n] = df->coord[2 * n + 1] = -1;
		df->pstart[n] = ports;
		ports += f->node[n].nports + 1u;
	}
	df->cls = calloc((size_t)ports + 1, 1);
	df->ldim = calloc((size_t)ports + 1, 1);
	return df->cls && df->ldim ? 0 : -1;
}

/*
 * Groups: strong cables, dense pieces merged, with flat also matched
 * parts (FlatFly groups); numbered, listed and checked.
 */
static int find_groups(struct ot_df *df, const struct df_adj *g, bool flat,
		       struct ot_error *err)
{
	const struct ot_fabric *f = df->fabric;
	struct ot_uf *uf = ot_uf_new(f->nnodes);
	uint32_t largest = 0;
	int error = 0;

	if (!uf)
		return ot_error_nomem(err, "dragonfly");
	join_strong(f, g, uf);
	if (merge_dense(f, g, uf) || (flat && merge_matched(f, g, uf)))
		error = ot_error_nomem(err, "dragonfly");
	if (!error)
		error = ot_uf_number_switches(f, uf, df->group, &df->ngroups,
					      &largest, "dragonfly", err);
	df->max_size = largest;
	if (!error)
		error = list_members(df, err);
	if (!error)
		error = check_groups(df, g, flat, err);
	ot_uf_free(uf);
	return error;
}

/*
 * Groups with FlatFly groups allowed first: where no parts match, the
 * same as full graphs alone.  Failing those, full graphs alone (a fabric
 * where whole groups match, dragonfly.h), whose refusal is the answer
 * unless it found a group too sparse.
 */
int ot_df_recognize(const struct ot_fabric *f, struct ot_df **out,
		    struct ot_error *err)
{
	struct ot_df *df = calloc(1, sizeof(*df));
	struct df_adj g = { 0 };
	struct ot_error first = { 0 };
	int error = 0;

	*out = NULL;
	if (!df || df_alloc(f, df) || build_adj(f, &g)) {
		error = ot_error_nomem(err, "dragonfly");
		goto out;
	}
	count_triangles(f, &g);
	error = find_groups(df, &g, true, &first);
	if (error && first.cls == OT_ERR_TOPOLOGY) {
		error = find_groups(df, &g, false, err);
		if (error && err->cls == OT_ERR_TOPOLOGY &&
		    strstr(err->msg, "no full graph"))
			*err = first;
	} else if (error) {
		*err = first;
	}
	if (error)
		goto out;
	classify_ports(df);
	*out = df;
	df = NULL;
out:
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
	free(df->ldim);
	free(df->gdims);
	free(df->gsize);
	free(df->coord);
	free(df);
}
