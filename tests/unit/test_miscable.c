// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The mis-cabling report (topo/miscable.h) on KNS fabrics with cables
 * swapped on purpose (gen/miscable.h): it must name exactly the moved
 * cable ends and where each belongs, say nothing on a sound KNS, and
 * refuse a fabric that is no KNS at all.  Shuffled ports, parallel
 * cables and several CAs per router throughout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"
#include "gen/miscable.h"
#include "model/prng.h"
#include "topo/kns.h"
#include "topo/miscable.h"
#include "unit.h"

static struct ot_fabric *kns(unsigned int k, unsigned int n,
			     unsigned int cas, unsigned int links,
			     uint64_t seed)
{
	struct ot_kns_params p = {
		.k = k, .n = n, .cas = cas, .links = links,
		.shuffle = true, .seed = seed,
	};
	struct ot_error err = { 0 };
	struct ot_fabric *f = ot_gen_kns(&p, &err);

	ck_assert_msg(f, "gen: %s", err.msg);
	ot_fabric_assign_lids(f);
	ck_assert_msg(!ot_fabric_index(f, &err), "index: %s", err.msg);
	return f;
}

static bool is_kns(const struct ot_fabric *f)
{
	struct ot_error err = { 0 };
	struct ot_kns *k = NULL;
	int rc = ot_kns_recognize(f, &k, &err);

	ot_kns_free(k);
	return rc == 0;
}

/*
 * Whether the report names exactly the routers whose cables were moved.
 * (A router's port may differ from the one moved: when two of its cables
 * go to one switch, or two routers could trade places, either move is
 * the same fix; and a swap the topology cannot tell needs no move.)
 */
static bool same_routers(const struct ot_miscabling *m,
			 const struct ot_gen_swap *moved, unsigned int n)
{
	unsigned int i, j;

	if (m->n != n)
		return false;
	for (i = 0; i < n; i++) {
		bool found = false;

		for (j = 0; j < n; j++)
			found = found || m->cable[j].node == moved[i].node;
		if (!found)
			return false;
	}
	return true;
}

/*
 * A report is sound when it moves at most the ends that were moved, each
 * end is where the report says it is now, and doing what it says gives a
 * KNS (f is changed so).
 */
static void assert_sound(struct ot_fabric *f, const struct ot_miscabling *m,
			 unsigned int n)
{
	unsigned int i;

	ck_assert_uint_gt(m->n, 0);
	ck_assert_uint_le(m->n, n);
	for (i = 0; i < m->n; i++)
		ck_assert_int_eq(f->node[m->cable[i].node].port[m->cable[i].port].peer,
				 m->cable[i].now);
	for (i = 0; i < m->n; i++) {
		struct ot_port *a = &f->node[m->cable[i].node].port[m->cable[i].port];
		struct ot_port *b = &f->node[m->cable[i].should].port[m->cable[i].should_port];

		a->peer = m->cable[i].should;
		a->peer_port = m->cable[i].should_port;
		b->peer = m->cable[i].node;
		b->peer_port = m->cable[i].port;
	}
	ck_assert_msg(is_kns(f), "the reported moves leave no KNS");
}

START_TEST(sound_kns_reports_nothing)
{
	struct ot_fabric *f = kns(4, 2, 2, 2, 7);
	struct ot_miscabling m;
	struct ot_error err = { 0 };

	ck_assert_msg(!ot_kns_miscabling(f, &m, &err), "%s", err.msg);
	ck_assert_uint_eq(m.n, 0);
	ot_miscabling_free(&m);
	ot_fabric_free(f);
}
END_TEST

/*
 * nswaps swaps, many seeds: every report is sound, at least
 * min_repaired% of the fabrics the swaps broke get one, and at least
 * min_exact% of those name exactly the routers whose cables moved
 * (bench/miscable measures the rates on the bundled fabrics).
 */
static void swaps(unsigned int k, unsigned int n, unsigned int links,
		  unsigned int nswaps, unsigned int min_repaired,
		  unsigned int min_exact)
{
	unsigned int seed, broken = 0, repaired = 0, exact = 0;

	for (seed = 1; seed <= 16; seed++) {
		struct ot_fabric *f = kns(k, n, 2, links, seed);
		struct ot_gen_swap moved[8];
		struct ot_miscabling m;
		struct ot_error err = { 0 };
		char line[1024];

		ck_assert_msg(!ot_gen_swap_cables(f, nswaps, seed, moved, &err),
			      "%s", err.msg);
		if (is_kns(f)) { /* a swap the topology cannot tell */
			ot_fabric_free(f);
			continue;
		}
		broken++;
		if (!ot_kns_miscabling(f, &m, &err)) {
			repaired++;
			exact += same_routers(&m, moved, 2 * nswaps);
			ot_miscable_format(f, &m.cable[0], line, sizeof(line));
			ck_assert_ptr_nonnull(strstr(line, f->node[m.cable[0].should].desc));
			assert_sound(f, &m, 2 * nswaps);
		} else {
			ck_assert_int_eq(err.cls, OT_ERR_TOPOLOGY);
		}
		ot_miscabling_free(&m);
		ot_fabric_free(f);
	}
	ck_assert_uint_ge(broken, 10);
	ck_assert_msg(repaired * 100 >= broken * min_repaired,
		      "%u of %u repaired", repaired, broken);
	ck_assert_msg(exact * 100 >= repaired * min_exact,
		      "%u of %u exact", exact, repaired);
}

START_TEST(one_swap_2d)
{
	swaps(4, 2, 1, 1, 90, 50);
}
END_TEST

START_TEST(one_swap_3d_parallel)
{
	swaps(3, 3, 2, 1, 50, 50);
}
END_TEST

START_TEST(two_swaps_2d)
{
	swaps(6, 2, 1, 2, 50, 25);
}
END_TEST

START_TEST(fat_tree_is_no_kns)
{
	struct ot_fattree_params p = { .levels = 2, .cas = 2 };
	struct ot_error err = { 0 };
	struct ot_fabric *f;
	struct ot_miscabling m;

	p.down[2] = 4;
	p.up[2] = 2;
	p.links[2] = 1;
	f = ot_gen_fattree(&p, &err);
	ck_assert_msg(f, "%s", err.msg);
	ot_fabric_assign_lids(f);
	ck_assert(!ot_fabric_index(f, &err));
	ck_assert_int_eq(ot_kns_miscabling(f, &m, &err), -1);
	ck_assert_int_eq(err.cls, OT_ERR_TOPOLOGY);
	ck_assert_uint_eq(m.n, 0);
	ot_fabric_free(f);
}
END_TEST

/* Whether a KNS recognizer (seed or lines as fat trees) takes f. */
static bool any_kns(const struct ot_fabric *f)
{
	struct ot_error err = { 0 };
	struct ot_kns *k = NULL;
	bool looks_ft = false;
	int rc;

	if (is_kns(f))
		return true;
	rc = ot_kns_ft_recognize(f, &k, &looks_ft, &err);
	ot_kns_free(k);
	return rc == 0;
}

/*
 * Lines built as fat trees (s = 2), cables swapped at random (router to
 * leaf, leaf to spine): the report never calls a fabric no KNS
 * recognizer takes a KNS with nothing to move (two swapped cables used
 * to fall through to the seed's search, which knows lines of one switch
 * only and said "the cabling is a KNS"), and the moves it names repair.
 */
START_TEST(fat_tree_lines_swapped)
{
	static const unsigned int shapes[][5] = {
		/* k, routers per leaf, leaves per spine, up per leaf, up per spine */
		{ 4, 2, 2, 1, 2 }, { 4, 2, 2, 2, 2 },
		{ 6, 3, 2, 1, 3 }, { 8, 4, 2, 1, 4 },
	};
	unsigned int i, seed, nswaps, broken = 0, refusals = 0;

	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		for (nswaps = 1; nswaps <= 2; nswaps++)
			for (seed = 1; seed <= 4; seed++) {
				struct ot_kns_params p = {
					.k = shapes[i][0], .n = 2, .cas = 2,
					.links = 1, .stages = 2,
					.line_down = { 0, shapes[i][1],
						       shapes[i][2] },
					.line_up = { 0, shapes[i][3],
						     shapes[i][4] },
					.radix = 12, .shuffle = true,
					.seed = seed,
				};
				struct ot_error err = { 0 };
				struct ot_fabric *f = ot_gen_kns(&p, &err);
				struct ot_gen_swap moved[4];
				struct ot_miscabling m = { 0 };

				ck_assert_msg(f, "gen: %s", err.msg);
				ot_fabric_assign_lids(f);
				ck_assert(!ot_fabric_index(f, &err));
				ck_assert_msg(!ot_gen_swap_cables(f, nswaps,
								  seed, moved,
								  &err),
					      "%s", err.msg);
				if (any_kns(f)) {
					ot_fabric_free(f);
					continue;
				}
				broken++;
				if (ot_kns_miscabling(f, &m, &err)) {
					ck_assert_int_eq(err.cls,
							 OT_ERR_TOPOLOGY);
					refusals++;
				} else {
					ck_assert_msg(m.n > 0,
						      "shape %u, %u swaps, seed %u: no KNS, yet nothing to move",
						      i, nswaps, seed);
				}
				ot_miscabling_free(&m);
				ot_fabric_free(f);
			}
	ck_assert_uint_ge(broken, 10);
	ck_assert_uint_gt(refusals, 0);
}
END_TEST

/* ---- FlatFly, hypercube, Slim Fly ---- */

typedef int (*report_fn)(const struct ot_fabric *f, struct ot_miscabling *out,
			 struct ot_error *err);
typedef struct ot_fabric *(*make_fn)(uint64_t seed);

/* GUIDs from the names (generators leave them 0), as ibsim's are fixed. */
static void name_guids(struct ot_fabric *f)
{
	uint32_t i;

	for (i = 0; i < f->nnodes; i++) {
		const char *c;
		uint64_t h = 0xcbf29ce484222325ull;

		for (c = f->node[i].desc; *c; c++)
			h = (h ^ (unsigned char)*c) * 0x100000001b3ull;
		f->node[i].guid = h;
	}
}

static struct ot_fabric *indexed(struct ot_fabric *f, struct ot_error *err)
{
	ck_assert_msg(f, "gen: %s", err->msg);
	if (!f->node[0].guid)
		name_guids(f);
	ot_fabric_assign_lids(f);
	ck_assert_msg(!ot_fabric_index(f, err), "index: %s", err->msg);
	return f;
}

/* 4x3x3, 2 cables per pair in dimension 0, 1 elsewhere, 2 CAs a switch. */
static struct ot_fabric *ff433(uint64_t seed)
{
	struct ot_flatfly_params p = {
		.ndims = 3, .size = { 4, 3, 3 }, .width = { 2, 1, 1 },
		.cas = 2, .shuffle = true, .seed = seed,
	};
	struct ot_error err = { 0 };

	return indexed(ot_gen_flatfly(&p, &err), &err);
}

/* 6-D hypercube, 2 cables per pair, 2 CAs a switch. */
static struct ot_fabric *hc6(uint64_t seed)
{
	struct ot_flatfly_params p = {
		.ndims = 6, .size = { 2, 2, 2, 2, 2, 2 },
		.width = { 2, 2, 2, 2, 2, 2 }, .cas = 2,
		.shuffle = true, .seed = seed,
	};
	struct ot_error err = { 0 };

	return indexed(ot_gen_flatfly(&p, &err), &err);
}

/* Slim Fly q = 5, 2 cables per pair, 3 CAs a switch. */
static struct ot_fabric *sf5(uint64_t seed)
{
	struct ot_slimfly_params p = {
		.q = 5, .width = 2, .cas = 3, .shuffle = true, .seed = seed,
	};
	struct ot_error err = { 0 };

	return indexed(ot_gen_slimfly(&p, &err), &err);
}

/* Dragonfly 8 x 4 (33 groups), 2 CAs a switch. */
static struct ot_fabric *df84(uint64_t seed)
{
	struct ot_dragonfly_params p = {
		.a = 8, .h = 4, .p = 2, .shuffle = true, .seed = seed,
	};
	struct ot_error err = { 0 };

	return indexed(ot_gen_dragonfly(&p, &err), &err);
}

/* Dragonfly+ of 9 groups (4 leaves x 3 CAs, 4 spines x 2 global
 * cables), ports shuffled; with damage (5 % of the cables) when
 * dfp_drop is set. */
static double dfp_drop;

static struct ot_fabric *dfp9(uint64_t seed)
{
	struct ot_dragonfly_params p = {
		.a = 4, .h = 2, .p = 3, .spines = 4, .shuffle = true,
		.seed = seed, .drop_links = dfp_drop, .drop_seed = seed,
	};
	struct ot_error err = { 0 };

	return indexed(ot_gen_dragonfly(&p, &err), &err);
}

/* Whether the report moves exactly the moved ends back. */
static bool exact(const struct ot_miscabling *m,
		  const struct ot_gen_swap *mv, unsigned int n)
{
	unsigned int i, j;

	if (m->n != n)
		return false;
	for (i = 0; i < n; i++) {
		bool found = false;

		for (j = 0; j < n; j++)
			found = found || (m->cable[j].node == mv[i].node &&
					  m->cable[j].should == mv[i].was);
		if (!found)
			return false;
	}
	return true;
}

/* Does what m says to f; then fn must find nothing to move. */
static void assert_repairs(report_fn fn, struct ot_fabric *f,
			   const struct ot_miscabling *m)
{
	struct ot_miscabling again;
	struct ot_error err = { 0 };
	struct ot_port *a, *b, *old;
	unsigned int i;

	for (i = 0; i < m->n; i++) {
		a = &f->node[m->cable[i].node].port[m->cable[i].port];
		ck_assert_int_eq(a->peer, m->cable[i].now);
		ck_assert_int_eq(a->peer_port, m->cable[i].now_port);
	}
	for (i = 0; i < m->n; i++) {
		a = &f->node[m->cable[i].node].port[m->cable[i].port];
		b = &f->node[m->cable[i].should].port[m->cable[i].should_port];
		old = &f->node[a->peer].port[a->peer_port];
		if (old->peer == m->cable[i].node &&
		    old->peer_port == m->cable[i].port)
			old->peer = -1; /* freed, until a move takes it */
		a->peer = m->cable[i].should;
		a->peer_port = m->cable[i].should_port;
		b->peer = m->cable[i].node;
		b->peer_port = m->cable[i].port;
	}
	ck_assert_msg(!fn(f, &again, &err), "re-cabled: %s", err.msg);
	ck_assert_uint_eq(again.n, 0);
	ot_miscabling_free(&again);
}

/*
 * 16 seeds of nswaps swaps (0: a 3-cycle): every fabric is broken and
 * repaired, the report sound, and at least min_exact% name exactly the
 * moved ends and where they came from.
 */
static void family_moves(report_fn fn, make_fn make, unsigned int nswaps,
			 unsigned int min_repaired, unsigned int min_exact)
{
	unsigned int seed, broken = 0, repaired = 0, nexact = 0;
	unsigned int n = nswaps ? 2 * nswaps : 3;

	for (seed = 1; seed <= 16; seed++) {
		struct ot_fabric *f = make(seed);
		struct ot_gen_swap mv[8];
		struct ot_miscabling m;
		struct ot_error err = { 0 };
		char line[1024];

		ck_assert_msg(!(nswaps ? ot_gen_swap_cables(f, nswaps, seed, mv, &err) :
				 ot_gen_cycle_cables(f, seed, mv, &err)),
			      "%s", err.msg);
		if (!fn(f, &m, &err) && !m.n) {
			/* moves the family's map cannot tell (FlatFly: within
			 * a line, whose pairs are all neighbours) */
		} else if (!err.msg[0]) {
			broken++;
			ck_assert_uint_le(m.n, n);
			repaired++;
			nexact += exact(&m, mv, n);
			ot_miscable_format(f, &m.cable[0], line, sizeof(line));
			ck_assert_ptr_nonnull(strstr(line, f->node[m.cable[0].should].desc));
			assert_repairs(fn, f, &m);
		} else {
			broken++;
			for (unsigned int q = 0; getenv("MC_DEBUG") && q < n; q++)
				fprintf(stderr, "seed %u: %s port %u now, was %s port %u: %s\n",
					seed, f->node[mv[q].node].desc, mv[q].port,
					f->node[mv[q].was].desc, mv[q].was_port, err.msg);
			ck_assert_int_eq(err.cls, OT_ERR_TOPOLOGY);
		}
		ot_miscabling_free(&m);
		ot_fabric_free(f);
	}
	fprintf(stderr, "%u moves: %u broken, %u repaired, %u exact\n",
		nswaps, broken, repaired, nexact);
	ck_assert_uint_ge(broken, 12);
	ck_assert_msg(repaired * 100 >= broken * min_repaired,
		      "%u of %u repaired", repaired, broken);
	ck_assert_msg(nexact * 100 >= repaired * min_exact,
		      "%u of %u exact", nexact, repaired);
}

static void sound_reports_nothing(report_fn fn, make_fn make)
{
	struct ot_fabric *f = make(3);
	struct ot_miscabling m;
	struct ot_error err = { 0 };

	ck_assert_msg(!fn(f, &m, &err), "%s", err.msg);
	ck_assert_uint_eq(m.n, 0);
	ot_miscabling_free(&m);
	ot_fabric_free(f);
}

static void refused(report_fn fn, struct ot_fabric *f)
{
	struct ot_miscabling m;
	struct ot_error err = { 0 };

	ck_assert_int_eq(fn(f, &m, &err), -1);
	ck_assert_int_eq(err.cls, OT_ERR_TOPOLOGY);
	ck_assert_ptr_nonnull(strstr(err.msg, "not a"));
	ck_assert_uint_eq(m.n, 0);
	ot_fabric_free(f);
}

START_TEST(sound_direct_report_nothing)
{
	sound_reports_nothing(ot_ff_miscabling, ff433);
	sound_reports_nothing(ot_hc_miscabling, hc6);
	sound_reports_nothing(ot_ff_miscabling, hc6);
	sound_reports_nothing(ot_sf_miscabling, sf5);
	sound_reports_nothing(ot_df_miscabling, df84);
}
END_TEST

START_TEST(ff_moves)
{
	family_moves(ot_ff_miscabling, ff433, 1, 100, 90);
	family_moves(ot_ff_miscabling, ff433, 2, 80, 80);
	family_moves(ot_ff_miscabling, ff433, 0, 80, 80);
}
END_TEST

START_TEST(hc_moves)
{
	family_moves(ot_hc_miscabling, hc6, 1, 90, 90);
	family_moves(ot_hc_miscabling, hc6, 2, 80, 80);
	family_moves(ot_hc_miscabling, hc6, 0, 80, 80);
}
END_TEST

START_TEST(sf_moves)
{
	family_moves(ot_sf_miscabling, sf5, 1, 90, 90);
	family_moves(ot_sf_miscabling, sf5, 2, 80, 80);
	family_moves(ot_sf_miscabling, sf5, 0, 80, 80);
}
END_TEST

/*
 * Dragonfly: most moved cables are global, and two global cables
 * between one pair of groups are alike to the topology: the report is
 * sound, and exact for most.
 */
START_TEST(df_moves)
{
	family_moves(ot_df_miscabling, df84, 1, 100, 75);
	family_moves(ot_df_miscabling, df84, 2, 100, 40);
	family_moves(ot_df_miscabling, df84, 0, 100, 60);
}
END_TEST

/*
 * Dragonfly+: one or two swapped pairs of cables, or three moved round
 * a cycle (leaf-spine cables moved to other spines, to other groups,
 * global cables moved), found and repaired so that the recognizer takes
 * the fabric, and exact for most; a sound or damaged one reports nothing.
 */
START_TEST(dfp_moves)
{
	unsigned int seed;

	sound_reports_nothing(ot_df_miscabling, dfp9);
	dfp_drop = 0.05;
	for (seed = 1; seed <= 8; seed++) {
		struct ot_fabric *f = dfp9(seed);
		struct ot_miscabling m;
		struct ot_error err = { 0 };

		ck_assert_msg(!ot_df_miscabling(f, &m, &err), "%s", err.msg);
		ck_assert_uint_eq(m.n, 0);
		ot_miscabling_free(&m);
		ot_fabric_free(f);
	}
	dfp_drop = 0;
	family_moves(ot_df_miscabling, dfp9, 1, 90, 75);
	family_moves(ot_df_miscabling, dfp9, 2, 75, 40);
	family_moves(ot_df_miscabling, dfp9, 0, 75, 40);
}
END_TEST

/* A copy of f with its nodes in another order (same GUIDs and ports). */
static struct ot_fabric *reordered(const struct ot_fabric *f, uint64_t seed)
{
	struct ot_prng r = { seed };
	struct ot_error err = { 0 };
	struct ot_fabric *g = ot_fabric_new();
	uint32_t *perm = malloc(f->nnodes * sizeof(*perm));
	uint32_t *where = malloc(f->nnodes * sizeof(*where));
	uint32_t i;
	unsigned int p;

	ck_assert(g && perm && where);
	for (i = 0; i < f->nnodes; i++)
		perm[i] = i;
	ot_prng_shuffle(&r, perm, f->nnodes);
	for (i = 0; i < f->nnodes; i++) {
		const struct ot_node *nd = &f->node[perm[i]];

		ck_assert_int_eq(ot_fabric_add_node(g, nd->type, nd->nports,
						    nd->guid, nd->desc, &err),
				 (int)i);
		where[perm[i]] = i;
	}
	for (i = 0; i < f->nnodes; i++) {
		const struct ot_node *nd = &f->node[perm[i]];

		for (p = 1; p <= nd->nports; p++) {
			const struct ot_port *pt = &nd->port[p];

			if (pt->peer < 0 || where[pt->peer] < i ||
			    (where[pt->peer] == i && pt->peer_port < p))
				continue;
			ck_assert(!ot_fabric_link(g, i, p, where[pt->peer],
						  pt->peer_port, &err));
		}
	}
	free(perm);
	free(where);
	return indexed(g, &err);
}

/*
 * The same fabric discovered in another order gives the same report
 * (GUIDs and ports), or the same refusal.
 */
static void same_report(report_fn fn, make_fn make, unsigned int nswaps)
{
	unsigned int seed, i;

	for (seed = 1; seed <= 6; seed++) {
		struct ot_fabric *f = make(seed), *g;
		struct ot_gen_swap mv[8];
		struct ot_miscabling a, b;
		struct ot_error ea = { 0 }, eb = { 0 };
		int ra, rb;

		ck_assert(!ot_gen_swap_cables(f, nswaps, seed, mv, &ea));
		g = reordered(f, seed * 7919);
		ra = fn(f, &a, &ea);
		rb = fn(g, &b, &eb);
		ck_assert_int_eq(ra, rb);
		ck_assert_uint_eq(a.n, b.n);
		for (i = 0; getenv("MC_DEBUG") && i < a.n; i++) {
			char l1[512], l2[512];

			ot_miscable_format(f, &a.cable[i], l1, sizeof(l1));
			ot_miscable_format(g, &b.cable[i], l2, sizeof(l2));
			fprintf(stderr, "A %s\nB %s\n", l1, l2);
		}
		for (i = 0; i < a.n; i++) {
			const struct ot_miscable *x = &a.cable[i], *y = &b.cable[i];

			ck_assert_uint_eq(f->node[x->node].guid, g->node[y->node].guid);
			ck_assert_msg(x->port == y->port, "%s: port %u vs %u (seed %u)", f->node[x->node].desc, x->port, y->port, seed);
			ck_assert_uint_eq(f->node[x->now].guid, g->node[y->now].guid);
			ck_assert_uint_eq(x->now_port, y->now_port);
			ck_assert_uint_eq(f->node[x->should].guid,
					  g->node[y->should].guid);
			ck_assert_uint_eq(x->should_port, y->should_port);
		}
		ot_miscabling_free(&a);
		ot_miscabling_free(&b);
		ot_fabric_free(f);
		ot_fabric_free(g);
	}
}

START_TEST(order_independent)
{
	same_report(ot_ff_miscabling, ff433, 2);
	same_report(ot_hc_miscabling, hc6, 2);
	same_report(ot_sf_miscabling, sf5, 2);
	same_report(ot_df_miscabling, df84, 2);
}
END_TEST

START_TEST(other_families_refused)
{
	refused(ot_ff_miscabling, kns(4, 2, 2, 1, 3));
	refused(ot_hc_miscabling, ff433(2));
	refused(ot_sf_miscabling, ff433(2));
	refused(ot_sf_miscabling, hc6(2));
	refused(ot_ff_miscabling, sf5(2));
	refused(ot_df_miscabling, kns(4, 2, 2, 1, 3));
	refused(ot_df_miscabling, hc6(2));
	refused(ot_sf_miscabling, df84(2));
}
END_TEST

static Suite *miscable_suite(void)
{
	Suite *s = suite_create("miscable");
	TCase *tc = tcase_create("kns");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, sound_kns_reports_nothing);
	tcase_add_test(tc, one_swap_2d);
	tcase_add_test(tc, one_swap_3d_parallel);
	tcase_add_test(tc, two_swaps_2d);
	tcase_add_test(tc, fat_tree_is_no_kns);
	suite_add_tcase(s, tc);
	/* each swapped fabric runs the fat-tree move search (4,096 tries) */
	tc = tcase_create("kns-fat-tree-lines");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, fat_tree_lines_swapped);
	suite_add_tcase(s, tc);
	tc = tcase_create("direct");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, sound_direct_report_nothing);
	tcase_add_test(tc, ff_moves);
	tcase_add_test(tc, hc_moves);
	tcase_add_test(tc, sf_moves);
	tcase_add_test(tc, df_moves);
	tcase_add_test(tc, dfp_moves);
	tcase_add_test(tc, order_independent);
	tcase_add_test(tc, other_families_refused);
	suite_add_tcase(s, tc);
	return s;
}

OT_UNIT_MAIN(miscable_suite)
