// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of the fabric model and routing tables (src/model): cables,
 * LID assignment and indexing, the errors a broken fabric gets, and the
 * union-find the recognizers group switches and cables with.
 */
#include <string.h>

#include "model/fabric.h"
#include "model/prng.h"
#include "model/refine.h"
#include "model/routing.h"
#include "model/uf.h"
#include "route/engine.h"
#include "unit.h"

/* Two switches cabled on ports 1-1, a CA on each (port 2 of the switch). */
static struct ot_fabric *two_switches(void)
{
	struct ot_error err;
	struct ot_fabric *f = ot_fabric_new();
	int s0, s1, c0, c1;

	ck_assert_ptr_nonnull(f);
	s0 = ot_fabric_add_node(f, OT_NODE_SWITCH, 4, 0x20, "s0", &err);
	s1 = ot_fabric_add_node(f, OT_NODE_SWITCH, 4, 0x21, "s1", &err);
	c0 = ot_fabric_add_node(f, OT_NODE_CA, 1, 0x10, "c0", &err);
	c1 = ot_fabric_add_node(f, OT_NODE_CA, 2, 0x12, "c1", &err);
	ck_assert_int_eq(s0, 0);
	ck_assert_int_eq(c1, 3);
	ck_assert_int_eq(ot_fabric_link(f, s0, 1, s1, 1, &err), 0);
	ck_assert_int_eq(ot_fabric_link(f, s0, 2, c0, 1, &err), 0);
	ck_assert_int_eq(ot_fabric_link(f, s1, 2, c1, 1, &err), 0);
	return f;
}

START_TEST(cables_are_symmetric)
{
	struct ot_fabric *f = two_switches();

	ck_assert_int_eq(f->node[0].port[1].peer, 1);
	ck_assert_int_eq(f->node[1].port[1].peer, 0);
	ck_assert_int_eq(f->node[1].port[1].peer_port, 1);
	ck_assert_int_eq(f->node[2].port[1].peer, 0);
	ck_assert_int_eq(f->node[2].port[1].peer_port, 2);
	ck_assert_int_eq(f->node[3].port[2].peer, -1);
	ot_fabric_free(f);
}
END_TEST

START_TEST(cabling_a_port_twice_is_refused)
{
	struct ot_fabric *f = two_switches();
	struct ot_error err;

	ck_assert_int_eq(ot_fabric_link(f, 0, 1, 1, 3, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "\"s0\" port 1 cabled twice"));
	ck_assert_int_eq(ot_fabric_link(f, 0, 5, 1, 3, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "\"s0\" has no port 5"));
	ck_assert_int_eq(ot_fabric_link(f, 0, 3, 0, 3, &err), -1);
	/* the same cable declared from both ends is fine */
	ck_assert_int_eq(ot_fabric_link(f, 1, 1, 0, 1, &err), 0);
	ot_fabric_free(f);
}
END_TEST

START_TEST(lids_are_assigned_in_node_order)
{
	struct ot_fabric *f = two_switches();
	struct ot_error err;

	ot_fabric_assign_lids(f);
	ck_assert_int_eq(ot_fabric_index(f, &err), 0);
	ck_assert_int_eq(f->node[0].port[0].lid, 1);
	ck_assert_int_eq(f->node[1].port[0].lid, 2);
	ck_assert_int_eq(f->node[2].port[1].lid, 3);
	ck_assert_int_eq(f->node[3].port[1].lid, 4);
	/* an uncabled CA port gets no LID */
	ck_assert_int_eq(f->node[3].port[2].lid, 0);
	ck_assert_int_eq(f->max_lid, 4);
	ck_assert_int_eq(f->nswitches, 2);
	ck_assert_int_eq(f->ncas, 2);
	ck_assert_int_eq(ot_fabric_lid_node(f, 3), 2);
	ck_assert_int_eq(ot_fabric_lid_node(f, 5), -1);
	ck_assert_int_eq(ot_fabric_lid_node(f, 0), -1);
	ot_fabric_free(f);
}
END_TEST

START_TEST(lmc_covers_a_range_and_assignment_skips_it)
{
	struct ot_fabric *f = two_switches();
	struct ot_error err;

	ck_assert_int_eq(ot_fabric_set_lid(f, 2, 1, 8, 2, &err), 0);
	ot_fabric_assign_lids(f);
	ck_assert_int_eq(ot_fabric_index(f, &err), 0);
	ck_assert_int_eq(ot_fabric_lid_node(f, 8), 2);
	ck_assert_int_eq(ot_fabric_lid_node(f, 11), 2);
	ck_assert_int_eq(f->lid_owner[11].port, 1);
	/* others are given LIDs after the highest one in use */
	ck_assert_int_eq(f->node[0].port[0].lid, 12);
	ck_assert_int_eq(f->max_lid, 14);
	ot_fabric_free(f);
}
END_TEST

START_TEST(set_ca_lmc_lays_lids_out_as_opensm)
{
	struct ot_fabric *f = two_switches();
	struct ot_error err;

	ot_fabric_assign_lids(f);
	ck_assert_int_eq(ot_fabric_index(f, &err), 0);
	ck_assert_int_eq(ot_fabric_set_ca_lmc(f, 2, &err), 0);
	/* switches keep one LID; CA base LIDs are multiples of 4 */
	ck_assert_int_eq(f->node[0].port[0].lid, 1);
	ck_assert_int_eq(f->node[1].port[0].lid, 2);
	ck_assert_int_eq(f->node[2].port[1].lid, 4);
	ck_assert_int_eq(f->node[2].port[1].lmc, 2);
	ck_assert_int_eq(f->node[3].port[1].lid, 8);
	ck_assert_int_eq(f->max_lid, 11);
	ck_assert_int_eq(ot_fabric_lid_node(f, 7), 2);
	ck_assert_int_eq(ot_fabric_lid_node(f, 3), -1);
	ck_assert_int_eq(ot_fabric_set_ca_lmc(f, 8, &err), -1);
	ot_fabric_free(f);
}
END_TEST

/*
 * 16,384 CAs with LMC 2 need 65,536 LIDs and the unicast range holds
 * 49,151: the LMC is refused with the numbers, no CA is left without LIDs
 * silently (a check would count only the CAs that got some).  64 switches
 * with 200 CAs each: LMC 1 fits (25,664 LIDs), LMC 2 (51,264) does not.
 */
START_TEST(an_lmc_beyond_the_unicast_range_is_refused)
{
	struct ot_error err = { 0 };
	struct ot_fabric *f = ot_fabric_new();
	unsigned int s, c;
	uint32_t i;

	ck_assert_ptr_nonnull(f);
	for (s = 0; s < 64; s++) {
		int sw = ot_fabric_add_node(f, OT_NODE_SWITCH, 200, 0x1000 + s,
					    "s", &err);

		for (c = 0; c < 200; c++) {
			int ca = ot_fabric_add_node(f, OT_NODE_CA, 1,
						    0x100000 + s * 256 + c, "c",
						    &err);

			ck_assert_int_eq(ot_fabric_link(f, sw, c + 1, ca, 1,
							&err), 0);
		}
	}
	ck_assert_int_eq(ot_fabric_set_ca_lmc(f, 1, &err), 0);
	for (i = 0; i < f->nnodes; i++)
		if (f->node[i].type == OT_NODE_CA)
			ck_assert_uint_ne(f->node[i].port[1].lid, 0);
	ck_assert_int_eq(ot_fabric_set_ca_lmc(f, 2, &err), -1);
	ck_assert_msg(strstr(err.msg, "64 switches and 12800 CA ports x 4 LIDs need 51264 LIDs, above the 49151"),
		      "%s", err.msg);
	ot_fabric_free(f);
}
END_TEST

START_TEST(duplicate_lids_are_refused)
{
	struct ot_fabric *f = two_switches();
	struct ot_error err;

	ck_assert_int_eq(ot_fabric_set_lid(f, 0, 0, 5, 0, &err), 0);
	ck_assert_int_eq(ot_fabric_set_lid(f, 2, 1, 4, 1, &err), 0);
	ck_assert_int_eq(ot_fabric_index(f, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "LID 5 used by"));
	ck_assert_int_eq(ot_fabric_set_lid(f, 2, 1, 4, 8, &err), -1);
	ot_fabric_free(f);
}
END_TEST

START_TEST(one_sided_cables_are_found)
{
	struct ot_fabric *f = two_switches();
	struct ot_error err;

	/* what a broken reader could leave behind */
	f->node[1].port[1].peer = -1;
	ot_fabric_assign_lids(f);
	ck_assert_int_eq(ot_fabric_index(f, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "one-sided"));
	ot_fabric_free(f);
}
END_TEST

START_TEST(a_new_routing_routes_nothing)
{
	struct ot_fabric *f = two_switches();
	struct ot_routing *r;
	struct ot_error err;
	unsigned int l;

	ot_fabric_assign_lids(f);
	ck_assert_int_eq(ot_fabric_index(f, &err), 0);
	r = ot_routing_new(f);
	ck_assert_ptr_nonnull(r);
	ck_assert_ptr_nonnull(r->lft[0]);
	ck_assert_ptr_null(r->lft[2]);
	for (l = 0; l <= f->max_lid; l++)
		ck_assert_int_eq(r->lft[1][l], OT_NO_PORT);
	ck_assert_int_eq(ot_routing_vl(r, 0, 1, 2, 3), 0);
	ck_assert_int_eq(ot_routing_path_sl(r, 3, 4), 0);
	ck_assert_int_eq(ot_routing_set_label(r, 2, "CA [%d]", 7), 0);
	ck_assert_str_eq(r->label[2], "CA [7]");
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * Union-find against a plain labelling: random unions over 1000 elements
 * (with the same seed, the same calls), and after each one, every pair the
 * labels put together is one set and every other pair is not.  Checked on
 * a sample of pairs to stay fast; the labelling is the obvious O(n) merge.
 */
START_TEST(union_find_agrees_with_a_labelling)
{
	enum { N = 1000, UNIONS = 1500 };
	struct ot_prng rng = { .state = 20251121 };
	struct ot_uf *uf = ot_uf_new(N);
	uint32_t label[N], i, j, k;

	ck_assert_ptr_nonnull(uf);
	for (i = 0; i < N; i++)
		label[i] = i;
	for (k = 0; k < UNIONS; k++) {
		uint32_t x = ot_prng_below(&rng, N), y = ot_prng_below(&rng, N);
		uint32_t from = label[y], to = label[x];

		/* union says whether it merged two sets */
		ck_assert(ot_uf_union(uf, x, y) == (from != to));
		for (i = 0; i < N; i++)
			if (label[i] == from)
				label[i] = to;
		for (j = 0; j < 20; j++) {
			uint32_t a = ot_prng_below(&rng, N);
			uint32_t b = ot_prng_below(&rng, N);

			ck_assert(ot_uf_same(uf, a, b) ==
				  (label[a] == label[b]));
		}
	}
	/* a set's members all report the same root, which is a member */
	for (i = 0; i < N; i++) {
		uint32_t r = ot_uf_find(uf, i);

		ck_assert_uint_eq(label[r], label[i]);
		ck_assert_uint_eq(ot_uf_find(uf, r), r);
	}
	/* reset: everything alone again */
	ot_uf_reset(uf);
	for (i = 0; i < N; i++)
		ck_assert_uint_eq(ot_uf_find(uf, i), i);
	ck_assert(!ot_uf_same(uf, 0, 1));
	ck_assert(!ot_uf_union(uf, 5, 5));
	ot_uf_free(uf);
}
END_TEST

/* Long chains stay correct, and the same calls give the same roots. */
START_TEST(union_find_is_deterministic)
{
	enum { N = 5000 };
	struct ot_uf *a = ot_uf_new(N), *b = ot_uf_new(N);
	struct ot_uf *empty = ot_uf_new(0);
	uint32_t i;

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_nonnull(empty);
	for (i = 1; i < N; i++) {
		ck_assert(ot_uf_union(a, i - 1, i));
		ck_assert(ot_uf_union(b, i - 1, i));
	}
	for (i = 0; i < N; i++) {
		ck_assert(ot_uf_same(a, 0, i));
		ck_assert_uint_eq(ot_uf_find(a, i), ot_uf_find(b, i));
	}
	/* equal sizes: the lower root wins; otherwise the larger set */
	ot_uf_reset(a);
	ck_assert(ot_uf_union(a, 7, 3));
	ck_assert_uint_eq(ot_uf_find(a, 7), 3);
	ck_assert(ot_uf_union(a, 1, 7));
	ck_assert_uint_eq(ot_uf_find(a, 1), 3);
	ot_uf_free(a);
	ot_uf_free(b);
	ot_uf_free(empty);
	ot_uf_free(NULL);
}
END_TEST

/*
 * A random switch graph with CAs, built twice: in node order perm[] with
 * ports shuffled and GUIDs drawn anew.  node[i] of the first is node
 * perm[i] of the second.
 */
static struct ot_fabric *random_graph(uint64_t seed, const uint32_t *perm,
				      uint64_t shuffle)
{
	enum { SW = 40, CAS = 30, CABLES = 90, PORTS = 16 };
	struct ot_prng draw = { .state = seed }, mix = { .state = shuffle };
	struct ot_fabric *f = ot_fabric_new();
	struct ot_error err;
	unsigned int used[SW + CAS] = { 0 }, port[SW + CAS][PORTS];
	uint32_t i, j, at[SW + CAS];
	int k;

	ck_assert_ptr_nonnull(f);
	for (i = 0; i < SW + CAS; i++) {
		/* port p of node i is physical port port[i][p] */
		for (j = 0; j < PORTS; j++)
			port[i][j] = j + 1;
		for (j = PORTS - 1; j > 0; j--) {
			uint32_t r = ot_prng_below(&mix, j + 1), t = port[i][j];

			port[i][j] = port[i][r];
			port[i][r] = t;
		}
	}
	for (i = 0; i < SW + CAS; i++) {
		uint32_t n = perm[i];

		k = ot_fabric_add_node(f, n < SW ? OT_NODE_SWITCH : OT_NODE_CA,
				       n < SW ? PORTS : 1,
				       ot_prng_below(&mix, 1u << 30) + 1, "n",
				       &err);
		ck_assert_int_eq(k, (int)i);
		at[n] = i;
	}
	for (i = 0; i < CAS; i++) {
		uint32_t s = ot_prng_below(&draw, SW);

		if (used[s] == PORTS)
			continue;
		ck_assert_int_eq(ot_fabric_link(f, at[s], port[s][used[s]++],
						at[SW + i], 1, &err), 0);
	}
	for (i = 0; i < CABLES; i++) {
		uint32_t a = ot_prng_below(&draw, SW),
			 b = ot_prng_below(&draw, SW);

		if (a == b || used[a] == PORTS || used[b] == PORTS)
			continue;
		ck_assert_int_eq(ot_fabric_link(f, at[a], port[a][used[a]++],
						at[b], port[b][used[b]++],
						&err), 0);
	}
	ot_fabric_assign_lids(f);
	ck_assert_int_eq(ot_fabric_index(f, &err), 0);
	return f;
}

/* Refined colours follow the cabling, not node order, ports or GUIDs. */
START_TEST(refinement_ignores_the_labelling)
{
	enum { N = 70 };
	uint32_t id[N], perm[N], ca[N], cb[N], na, nb, i, seed;
	struct ot_prng rng = { .state = 7 };
	struct ot_error err;

	for (i = 0; i < N; i++)
		id[i] = perm[i] = i;
	for (seed = 1; seed <= 30; seed++) {
		struct ot_fabric *a, *b;
		uint32_t split = 0;

		for (i = N - 1; i > 0; i--) {
			uint32_t r = ot_prng_below(&rng, i + 1), t = perm[i];

			perm[i] = perm[r];
			perm[r] = t;
		}
		a = random_graph(seed, id, 1000 + seed);
		b = random_graph(seed, perm, 2000 + seed);
		for (i = 0; i < N; i++) {
			ca[i] = ot_is_switch(a, i) ? 0 : OT_REFINE_SKIP;
			cb[i] = ot_is_switch(b, i) ? 0 : OT_REFINE_SKIP;
		}
		ck_assert_int_eq(ot_refine(a, ca, 0, &na, &err), 0);
		ck_assert_int_eq(ot_refine(b, cb, 0, &nb, &err), 0);
		ck_assert_uint_eq(na, nb);
		for (i = 0; i < N; i++) {
			ck_assert_uint_eq(ca[perm[i]], cb[i]);
			split += i && ca[i] != ca[0];
		}
		ck_assert_uint_gt(split, 0); /* a random graph is not regular */
		ot_fabric_free(a);
		ot_fabric_free(b);
	}
}
END_TEST

/* Cables from node n to nodes that are no switches. */
static unsigned int other_cables(const struct ot_fabric *f, uint32_t n)
{
	unsigned int p, c = 0;

	for (p = 1; p <= f->node[n].nports; p++)
		c += f->node[n].port[p].peer >= 0 &&
		     !ot_is_switch(f, f->node[n].port[p].peer);
	return c;
}

/*
 * The switch order is a numbering of the switches, most CAs first, the
 * same switch first under any labelling when no tie was left to GUIDs.
 */
START_TEST(switch_order_ignores_the_labelling)
{
	enum { N = 70 };
	uint32_t id[N], perm[N], ra[N], rb[N], ta, tb, i, seed, untied = 0;
	struct ot_prng rng = { .state = 11 };
	struct ot_error err;

	for (i = 0; i < N; i++)
		id[i] = perm[i] = i;
	for (seed = 1; seed <= 30; seed++) {
		struct ot_fabric *a, *b;
		uint32_t seen[N] = { 0 }, nsw = 0;

		for (i = N - 1; i > 0; i--) {
			uint32_t r = ot_prng_below(&rng, i + 1), t = perm[i];

			perm[i] = perm[r];
			perm[r] = t;
		}
		a = random_graph(seed, id, 3000 + seed);
		b = random_graph(seed, perm, 4000 + seed);
		ck_assert_int_eq(ot_refine_switch_order(a, ra, &ta, &err), 0);
		ck_assert_int_eq(ot_refine_switch_order(b, rb, &tb, &err), 0);
		for (i = 0; i < N; i++) {
			if (!ot_is_switch(a, i)) {
				ck_assert_uint_eq(ra[i], OT_REFINE_SKIP);
				continue;
			}
			ck_assert_uint_lt(ra[i], N);
			ck_assert_uint_eq(seen[ra[i]]++, 0);
			nsw++;
		}
		for (i = 0; i < N; i++) {
			uint32_t j;

			for (j = 0; j < N; j++)
				if (ra[i] != OT_REFINE_SKIP &&
				    ra[j] != OT_REFINE_SKIP && ra[i] < ra[j])
					ck_assert_uint_ge(other_cables(a, i),
							  other_cables(a, j));
		}
		for (i = 0; i < nsw; i++)
			ck_assert_uint_eq(seen[i], 1);
		if (!ta && !tb) {
			untied++;
			for (i = 0; i < N; i++)
				ck_assert_uint_eq(ra[perm[i]], rb[i]);
		}
		ot_fabric_free(a);
		ot_fabric_free(b);
	}
	ck_assert_uint_gt(untied, 15);
}
END_TEST

/* A path of switches: ends apart from the middle, mirror images alike. */
START_TEST(refinement_splits_what_the_cabling_tells_apart)
{
	enum { L = 7 };
	struct ot_fabric *f = ot_fabric_new();
	struct ot_error err;
	uint32_t c[L], n, i;

	for (i = 0; i < L; i++)
		ck_assert_int_eq(ot_fabric_add_node(f, OT_NODE_SWITCH, 4,
						    0x100 + i, "s", &err),
				 (int)i);
	for (i = 0; i + 1 < L; i++)
		ck_assert_int_eq(ot_fabric_link(f, i, 1, i + 1, 2, &err), 0);
	ot_fabric_assign_lids(f);
	ck_assert_int_eq(ot_fabric_index(f, &err), 0);
	for (i = 0; i < L; i++)
		c[i] = 0;
	ck_assert_int_eq(ot_refine(f, c, 0, &n, &err), 0);
	ck_assert_uint_eq(n, (L + 1) / 2);
	for (i = 0; i < L; i++)
		ck_assert_uint_eq(c[i], c[L - 1 - i]);
	ck_assert_uint_ne(c[0], c[1]);
	/* one round only tells the ends apart */
	for (i = 0; i < L; i++)
		c[i] = 0;
	ck_assert_int_eq(ot_refine(f, c, 1, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	/* initial colours order the result */
	for (i = 0; i < L; i++)
		c[i] = i == 3 ? 0 : 5;
	ck_assert_int_eq(ot_refine(f, c, 0, &n, &err), 0);
	ck_assert_uint_eq(c[3], 0);
	ck_assert_uint_gt(c[0], 0);
	ot_fabric_free(f);
}
END_TEST

/*
 * A cycle of 8: refinement alone cannot split it; the discrete numbering
 * goes round from the vertex the tie-break picks, the second tie (which
 * way round) decided too, and follows the vertices when they are listed
 * in another order with their keys.
 */
START_TEST(discrete_numbering_follows_the_tie_break)
{
	enum { N = 8 };
	uint32_t c[N], d[N], n, ties, v, at[N];
	size_t off[N + 1];
	uint32_t adj[2 * N], adj2[2 * N];
	uint64_t tie[N], tie2[N];
	struct ot_refine_graph g = { N, off, adj }, h = { N, off, adj2 };
	struct ot_error err;

	for (v = 0; v < N; v++) {
		off[v] = 2 * v;
		adj[2 * v] = (v + 1) % N;
		adj[2 * v + 1] = (v + N - 1) % N;
		tie[v] = 100 - v; /* vertex 7 is picked first */
		c[v] = 0;
	}
	off[N] = 2 * N;
	ck_assert_int_eq(ot_refine_graph(&g, c, 0, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(ot_refine_discrete(&g, c, tie, &n, &ties, &err), 0);
	ck_assert_uint_eq(n, N);
	ck_assert_uint_eq(ties, 2);
	ck_assert_uint_eq(c[7], 0);
	/* listed as v -> 3v mod 8 (a relabelling), keys moved along */
	for (v = 0; v < N; v++)
		at[v] = (3 * v) % N;
	for (v = 0; v < N; v++) {
		adj2[2 * at[v]] = at[(v + 1) % N];
		adj2[2 * at[v] + 1] = at[(v + N - 1) % N];
		tie2[at[v]] = tie[v];
		d[v] = 0;
	}
	ck_assert_int_eq(ot_refine_discrete(&h, d, tie2, &n, &ties, &err),
			 0);
	for (v = 0; v < N; v++)
		ck_assert_uint_eq(d[at[v]], c[v]);
	/* neighbours of the first vertex come next: a numbering round */
	ck_assert(c[0] == 1 || c[6] == 1);
}
END_TEST

/*
 * The refinement by definition, for the test below: every round sorts
 * every vertex's whole key (its colour, its number of neighbours, then
 * their colours ascending, skipped vertices left out) and ranks the
 * distinct keys;
 * rounds until one splits no class (or max rounds, 0: no bound).
 */
static int ref_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

enum { REF_W = 40 }; /* key words: 1 + the most neighbours drawn, spare */

/* Keys in lexical order of their words (UINT32_MAX pads a short key). */
static int ref_cmp_key(const uint32_t *x, const uint32_t *y)
{
	unsigned int i;

	for (i = 0; i + 1 < REF_W; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

static uint32_t ref_refine(const struct ot_refine_graph *g, uint32_t *c,
			   unsigned int max)
{
	enum { W = REF_W };
	static uint32_t key[64][W];
	uint32_t v, u, prev = 0, n = 0;
	unsigned int round;

	for (round = 0; !max || round <= max; round++) {
		for (v = 0; v < g->n; v++) {
			size_t e, at = 1;

			memset(key[v], 0xff, sizeof(key[v]));
			key[v][0] = c[v];
			at = 2;
			for (e = g->off[v]; round && e < g->off[v + 1]; e++)
				if (c[g->adj[e]] != OT_REFINE_SKIP)
					key[v][at++] = c[g->adj[e]];
			key[v][1] = (uint32_t)at - 2;
			qsort(key[v] + 2, at - 2, sizeof(uint32_t),
			      ref_cmp_u32);
		}
		/* a vertex's rank: the distinct keys below its own */
		for (v = 0, n = 0; v < g->n; v++) {
			uint32_t below = 0;

			if (c[v] == OT_REFINE_SKIP)
				continue;
			for (u = 0; u < g->n; u++) {
				uint32_t w;
				bool first = true;

				if (c[u] == OT_REFINE_SKIP ||
				    ref_cmp_key(key[u], key[v]) >= 0)
					continue;
				/* counted once: the lowest u with that key */
				for (w = 0; w < u && first; w++)
					first = c[w] == OT_REFINE_SKIP ||
						ref_cmp_key(key[w], key[u]);
				below += first;
			}
			n = below + 1 > n ? below + 1 : n;
			key[v][W - 1] = below; /* the last word is spare */
		}
		for (v = 0; v < g->n; v++)
			if (c[v] != OT_REFINE_SKIP)
				c[v] = key[v][W - 1];
		if (round && n == prev)
			break;
		prev = n;
	}
	return n;
}

/*
 * Refinement sorts only the classes that can split (model/refine.c):
 * the colours, class counts and individualizations must be those of the
 * refinement by definition above, on random multigraphs (parallel edges,
 * loops-free, some vertices skipped, initial colours drawn from a few),
 * bounded rounds and the discrete numbering included.
 */
START_TEST(refinement_as_defined)
{
	enum { N = 48, E = 60 };
	struct ot_prng rng = { .state = 0x5eed };
	unsigned int t;

	for (t = 0; t < 200; t++) {
		uint32_t a[N], b[N], na, nb, v, x, y, deg[N] = { 0 };
		uint32_t adj[2 * E], fill[N], edges[E][2], ne = 0, ties;
		uint32_t m = 0, classes;
		size_t off[N + 1];
		uint64_t tie[N];
		struct ot_refine_graph g = { N, off, adj };
		struct ot_error err;
		unsigned int max = t % 4, e, ncol = 1 + t % 5;

		while (ne < (unsigned int)(N / 2 + t % (E - N / 2))) {
			x = ot_prng_below(&rng, N);
			y = ot_prng_below(&rng, N);
			if (x == y || deg[x] > 30 || deg[y] > 30)
				continue;
			edges[ne][0] = x;
			edges[ne][1] = y;
			deg[x]++;
			deg[y]++;
			ne++;
		}
		for (off[0] = 0, v = 0; v < N; v++)
			off[v + 1] = off[v] + deg[v];
		for (v = 0; v < N; v++)
			fill[v] = (uint32_t)off[v];
		for (e = 0; e < ne; e++) {
			adj[fill[edges[e][0]]++] = edges[e][1];
			adj[fill[edges[e][1]]++] = edges[e][0];
		}
		for (v = 0; v < N; v++) {
			a[v] = ot_prng_below(&rng, 10) ?
				       7 * ot_prng_below(&rng, ncol) :
				       OT_REFINE_SKIP;
			b[v] = a[v];
			tie[v] = ot_prng_below(&rng, 4); /* ties tie too */
			m += a[v] != OT_REFINE_SKIP;
		}
		ck_assert_int_eq(ot_refine_graph(&g, a, max, &na, &err), 0);
		nb = ref_refine(&g, b, max);
		ck_assert_uint_eq(na, nb);
		for (v = 0; v < N; v++)
			ck_assert_uint_eq(a[v], b[v]);
		/* the discrete numbering: ties by key, then lowest index */
		for (v = 0; v < N; v++)
			b[v] = a[v];
		ck_assert_int_eq(ot_refine_discrete(&g, a, tie, &na, &ties,
						    &err), 0);
		ck_assert_uint_eq(na, m);
		classes = ref_refine(&g, b, 0);
		while (classes < m) {
			uint32_t size[N] = { 0 }, c, pick = UINT32_MAX;

			for (v = 0; v < N; v++)
				if (b[v] != OT_REFINE_SKIP)
					size[b[v]]++;
			for (c = 0; size[c] < 2; c++)
				;
			for (v = 0; v < N; v++)
				if (b[v] == c &&
				    (pick == UINT32_MAX || tie[v] < tie[pick]))
					pick = v;
			for (v = 0; v < N; v++)
				if (b[v] != OT_REFINE_SKIP &&
				    (b[v] > c || (b[v] == c && v != pick)))
					b[v]++;
			classes = ref_refine(&g, b, 0);
		}
		for (v = 0; v < N; v++)
			ck_assert_uint_eq(a[v], b[v]);
	}
}
END_TEST

START_TEST(engines_are_found_by_name)
{
	ck_assert_ptr_nonnull(ot_engine_find("hdor"));
	ck_assert_str_eq(ot_engine_find("hdor")->name, "hdor");
	ck_assert_ptr_null(ot_engine_find("minhop"));
}
END_TEST

static Suite *fabric_suite(void)
{
	Suite *s = suite_create("fabric");
	TCase *tc = tcase_create("model");

	tcase_add_test(tc, cables_are_symmetric);
	tcase_add_test(tc, cabling_a_port_twice_is_refused);
	tcase_add_test(tc, lids_are_assigned_in_node_order);
	tcase_add_test(tc, lmc_covers_a_range_and_assignment_skips_it);
	tcase_add_test(tc, set_ca_lmc_lays_lids_out_as_opensm);
	tcase_add_test(tc, an_lmc_beyond_the_unicast_range_is_refused);
	tcase_add_test(tc, duplicate_lids_are_refused);
	tcase_add_test(tc, one_sided_cables_are_found);
	tcase_add_test(tc, a_new_routing_routes_nothing);
	tcase_add_test(tc, refinement_ignores_the_labelling);
	tcase_add_test(tc, refinement_splits_what_the_cabling_tells_apart);
	tcase_add_test(tc, refinement_as_defined);
	tcase_add_test(tc, switch_order_ignores_the_labelling);
	tcase_add_test(tc, discrete_numbering_follows_the_tie_break);
	tcase_add_test(tc, engines_are_found_by_name);
	tcase_add_test(tc, union_find_agrees_with_a_labelling);
	tcase_add_test(tc, union_find_is_deterministic);
	suite_add_tcase(s, tc);
	return s;
}

OT_UNIT_MAIN(fabric_suite)
