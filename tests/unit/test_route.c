// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of what the engines share in src/route/: the escape layer
 * (escape.c) on graphs of every shape an engine may hand it -- rings,
 * random graphs with absent positions, a graph cut in two -- and the
 * dealing order (deal.c).  The escape layer must deliver every connected
 * pair without a forwarding loop, on paths that go up then down in its
 * order (which is what makes it deadlock-free), and say so when a pair
 * is cut apart.
 */
#include <stdlib.h>
#include <string.h>

#include "model/prng.h"
#include "route/deal.h"
#include "route/escape.h"
#include "unit.h"

#define MAXN 64

struct graph {
	uint32_t n;
	uint8_t present[MAXN];
	uint32_t start[MAXN + 1];
	uint32_t adj[MAXN * MAXN];
	uint64_t tiebreak[MAXN];
	uint8_t edge[MAXN][MAXN];
};

/* CSR from the edge matrix, neighbours in index order. */
static void finish(struct graph *g)
{
	uint32_t s, y, k = 0;

	for (s = 0; s < g->n; s++) {
		g->start[s] = k;
		g->tiebreak[s] = s;
		for (y = 0; y < g->n; y++)
			if (g->edge[s][y] && g->present[s] && g->present[y])
				g->adj[k++] = y;
	}
	g->start[g->n] = k;
}

static void edge(struct graph *g, uint32_t a, uint32_t b)
{
	g->edge[a][b] = g->edge[b][a] = 1;
}

/* Connected components, for the pairs that must be cut. */
static void components(const struct graph *g, uint32_t *comp)
{
	uint32_t s, q[MAXN], head, tail, c = 0, j;

	for (s = 0; s < g->n; s++)
		comp[s] = UINT32_MAX;
	for (s = 0; s < g->n; s++) {
		if (!g->present[s] || comp[s] != UINT32_MAX)
			continue;
		head = tail = 0;
		comp[s] = c;
		q[tail++] = s;
		while (head < tail) {
			uint32_t x = q[head++];

			for (j = g->start[x]; j < g->start[x + 1]; j++)
				if (comp[g->adj[j]] == UINT32_MAX) {
					comp[g->adj[j]] = c;
					q[tail++] = g->adj[j];
				}
		}
		c++;
	}
}

/*
 * Every present pair: delivered along up* down* hops when connected, CUT
 * when not; the hops of a destination at one switch do not depend on
 * the source (destination-only tables).  Returns the paths walked.
 */
static unsigned int check_all(struct graph *g, uint32_t seq)
{
	struct ot_escape e;
	struct ot_error err = { 0 };
	uint32_t comp[MAXN], s, t, x, next, steps;
	unsigned int paths = 0;

	components(g, comp);
	ck_assert_msg(!ot_escape_init(&e, g->n, g->present, g->start, g->adj,
				      g->tiebreak, &err), "%s", err.msg);
	for (t = 0; t < g->n; t++) {
		if (!g->present[t])
			continue;
		for (s = 0; s < g->n; s++) {
			bool down = false;

			if (!g->present[s])
				continue;
			if (comp[s] != comp[t]) {
				ck_assert_int_eq(ot_escape_hop(&e, s, t, seq,
							       &next),
						 OT_ESCAPE_CUT);
				continue;
			}
			paths++;
			for (x = s, steps = 0; x != t; steps++) {
				uint32_t y;

				ck_assert_uint_le(steps, g->n);
				ck_assert_int_eq(ot_escape_hop(&e, x, t, seq,
							       &next),
						 OT_ESCAPE_FORWARD);
				ck_assert_uint_ge(next, g->start[x]);
				ck_assert_uint_lt(next, g->start[x + 1]);
				y = g->adj[next];
				/* up (smaller phi) only before any down hop */
				if (e.phi[y] > e.phi[x])
					down = true;
				else
					ck_assert_msg(!down,
						      "%u -> %u: up after down",
						      x, y);
				x = y;
			}
			ck_assert_int_eq(ot_escape_hop(&e, t, t, seq, &next),
					 OT_ESCAPE_DELIVER);
		}
	}
	ot_escape_free(&e);
	return paths;
}

START_TEST(escape_ring)
{
	struct graph *g = calloc(1, sizeof(*g));
	uint32_t i;

	g->n = 12;
	for (i = 0; i < g->n; i++) {
		g->present[i] = 1;
		edge(g, i, (i + 1) % g->n);
	}
	finish(g);
	ck_assert_uint_eq(check_all(g, 0), 144);
	ck_assert_uint_eq(check_all(g, 7), 144);
	free(g);
}
END_TEST

START_TEST(escape_random_graphs)
{
	struct ot_prng r = { 20261123 };
	unsigned int round;

	for (round = 0; round < 40; round++) {
		struct graph *g = calloc(1, sizeof(*g));
		uint32_t i, j;

		g->n = 8 + ot_prng_below(&r, MAXN - 8);
		for (i = 0; i < g->n; i++)
			g->present[i] = ot_prng_below(&r, 10) != 0;
		for (i = 0; i < g->n; i++)
			for (j = i + 1; j < g->n; j++)
				if (ot_prng_below(&r, g->n) < 3)
					edge(g, i, j);
		finish(g);
		check_all(g, round);
		free(g);
	}
}
END_TEST

START_TEST(escape_cut)
{
	struct graph *g = calloc(1, sizeof(*g));
	struct ot_escape e;
	struct ot_error err = { 0 };
	uint32_t next, i;

	/* two triangles, 0-1-2 and 3-4-5, position 6 absent */
	g->n = 7;
	for (i = 0; i < 6; i++)
		g->present[i] = 1;
	edge(g, 0, 1);
	edge(g, 1, 2);
	edge(g, 2, 0);
	edge(g, 3, 4);
	edge(g, 4, 5);
	edge(g, 5, 3);
	finish(g);
	check_all(g, 1);
	ck_assert(!ot_escape_init(&e, g->n, g->present, g->start, g->adj,
				  g->tiebreak, &err));
	ck_assert_int_eq(ot_escape_hop(&e, 0, 4, 0, &next), OT_ESCAPE_CUT);
	ck_assert_int_eq(ot_escape_hop(&e, 0, 2, 0, &next), OT_ESCAPE_FORWARD);
	ck_assert_uint_eq(g->adj[next], 2);
	ot_escape_free(&e);
	free(g);
}
END_TEST

START_TEST(deal_order)
{
	struct ot_deal_key k[5] = {
		{ 7, 9 }, { 3, 4 }, { 7, 2 }, { 1, 8 }, { 3, 1 },
	};
	uint16_t want[5] = { 8, 1, 4, 2, 9 };
	uint8_t lane = 0;
	unsigned int i;

	ot_deal_sort(k, 5);
	for (i = 0; i < 5; i++)
		ck_assert_uint_eq(k[i].lid, want[i]);
	/* three cables: 0, 1, 2, 0, 1 */
	for (i = 0; i < 5; i++)
		ck_assert_uint_eq(ot_deal_next(&lane, 3), i % 3);
	lane = 0;
	ck_assert_uint_eq(ot_deal_next(&lane, 1), 0);
	ck_assert_uint_eq(ot_deal_next(&lane, 1), 0);
}
END_TEST

static Suite *route_suite(void)
{
	Suite *s = suite_create("route");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, escape_ring);
	tcase_add_test(tc, escape_random_graphs);
	tcase_add_test(tc, escape_cut);
	tcase_add_test(tc, deal_order);
	suite_add_tcase(s, tc);
	return s;
}

OT_UNIT_MAIN(route_suite)
