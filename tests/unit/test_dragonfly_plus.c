// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Dragonfly+ (groups as leaf/spine fat trees): the generator, the
 * recognizer (groups and roles as built, whatever the ports and node
 * order) and df-static on it, on fabrics drawn at random (groups, leaves,
 * spines, CAs per leaf, cables per leaf-spine pair, global cables per
 * spine, arrangement, shuffled ports): every pair reached, at most 4
 * switches, 1 VL and no credit loop (the checker's channel dependency
 * graph), each global cable at the dealing's bound under uniform traffic
 * (the same tables under another node order, the same figures under
 * other port numbers: test_determinism); damaged fabrics
 * without credit loops; broken tables caught.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "check/traffic.h"
#include "gen/gen.h"
#include "io/netfile.h"
#include "model/prng.h"
#include "model/routing.h"
#include "route/engine.h"
#include "route/valiant.h"
#include "topo/dragonfly_plus.h"
#include "unit.h"

struct shape {
	unsigned int a, s, h, p, w, g;
	enum ot_df_arrangement arr;
	double dl, ds;
	uint64_t seed;
};

static struct ot_fabric *dfplus(const struct shape *sh, bool shuffle,
				uint64_t shuffle_seed)
{
	struct ot_dragonfly_params prm = {
		.a = sh->a, .h = sh->h, .p = sh->p, .g = sh->g,
		.spines = sh->s, .width = sh->w, .arrangement = sh->arr,
		.arrange_seed = sh->seed, .drop_links = sh->dl,
		.drop_switches = sh->ds, .drop_seed = sh->seed,
		.shuffle = shuffle, .seed = shuffle_seed,
	};
	struct ot_error err = { 0 };
	struct ot_fabric *f = ot_gen_dragonfly(&prm, &err);

	ck_assert_msg(f, "%s", err.msg);
	ck_assert_msg(!ot_fabric_set_ca_lmc(f, 0, &err), "%s", err.msg);
	return f;
}

/* A shape drawn at random: 2..S*h+1 groups, every arrangement. */
static struct shape draw(struct ot_prng *rng)
{
	struct shape sh = { 0 };
	unsigned int max;

	sh.a = 2 + ot_prng_below(rng, 5);
	sh.s = 1 + ot_prng_below(rng, 5);
	sh.h = 1 + ot_prng_below(rng, 3);
	sh.p = 1 + ot_prng_below(rng, 4);
	sh.w = 1 + ot_prng_below(rng, 2);
	max = sh.s * sh.h + 1;
	sh.g = 2 + ot_prng_below(rng, max - 1);
	if (sh.g > 12)
		sh.g = 12;
	sh.arr = (enum ot_df_arrangement)ot_prng_below(rng, 3);
	sh.seed = ot_prng_next(rng);
	return sh;
}

static void describe(const struct shape *sh, char *buf, size_t len)
{
	snprintf(buf, len,
		 "gen dragonfly %u %u --spines %u --cas %u --widths %u --groups %u --arrangement %u --seed %llu --drop-links %g",
		 sh->a, sh->h, sh->s, sh->p, sh->w, sh->g, sh->arr,
		 (unsigned long long)sh->seed, sh->dl);
}

/* Groups and roles as built (names DFL/DFS[G,i]), one to one. */
static void roles_as_built(const struct ot_fabric *f, unsigned int g,
			   const char *what)
{
	struct ot_error err = { 0 };
	struct ot_dfp *d;
	int32_t fwd[64], rev[64];
	uint32_t n, c[2];

	ck_assert_msg(!ot_dfp_recognize(f, &d, &err), "%s: %s", what,
		      err.msg);
	ck_assert_uint_le(g, 64);
	memset(fwd, -1, sizeof(fwd));
	memset(rev, -1, sizeof(rev));
	for (n = 0; n < f->nnodes; n++) {
		int32_t G = d->group[n];
		bool leaf = !strncmp(f->node[n].desc, "DFL[", 4);

		if (!ot_is_switch(f, n))
			continue;
		ck_assert_uint_eq(ot_gen_name_coords(f->node[n].desc, c, 2), 2);
		ck_assert_msg(d->role[n] == (leaf ? OT_DFP_LEAF : OT_DFP_SPINE),
			      "%s: switch %s", what, f->node[n].desc);
		ck_assert_msg(G >= 0 && (fwd[c[0]] < 0 || fwd[c[0]] == G) &&
				      (rev[G] < 0 || rev[G] == (int32_t)c[0]),
			      "%s: switch %s in group %d", what,
			      f->node[n].desc, G);
		fwd[c[0]] = G;
		rev[G] = c[0];
	}
	ck_assert_uint_eq(d->ngroups, g);
	ot_dfp_free(d);
}

static struct ot_routing *route(const struct ot_fabric *f, const char *what)
{
	struct ot_error err = { 0 };
	struct ot_routing *r;

	ck_assert_msg(!ot_engine_run(ot_engine_find("df-static"), f, &r,
				     &err),
		      "%s: %s", what, err.msg);
	return r;
}

/* df-static's routing of f, or NULL where it refuses as cut in two by
 * damage (or, topology_too, as no Dragonfly+ left). */
static struct ot_routing *route_or_cut(const struct ot_fabric *f,
				       const char *what, bool topology_too)
{
	struct ot_error err = { 0 };
	struct ot_routing *r;

	if (!ot_engine_run(ot_engine_find("df-static"), f, &r, &err))
		return r;
	ck_assert_msg(err.cls == OT_ERR_DAMAGE ||
			      (topology_too && err.cls == OT_ERR_TOPOLOGY),
		      "%s: %s", what, err.msg);
	return NULL;
}

/* The checker: promise kept, every pair, no credit loop. */
static const struct ot_check_counts *checked(const struct ot_fabric *f,
					     const struct ot_routing *r,
					     struct ot_check_report **rep,
					     const char *what)
{
	struct ot_check_opts opts = { .promiser = r };
	struct ot_error err = { 0 };
	const struct ot_check_counts *k;

	ck_assert_int_eq(ot_check_run(f, r, &opts, rep, &err), 0);
	k = ot_check_counts(*rep);
	ck_assert_msg(ot_check_ok(*rep),
		      "%s: violations %llu unreachable %llu loops %u", what,
		      (unsigned long long)k->violations,
		      (unsigned long long)k->unreachable, k->credit_loops);
	ck_assert_uint_eq(k->reached, k->pairs);
	ck_assert_uint_eq(k->credit_loops, 0);
	return k;
}

/* The group of a switch or CA by its name. */
static uint32_t name_group(const struct ot_fabric *f, uint32_t n)
{
	uint32_t c[3];

	ck_assert_uint_ge(ot_gen_name_coords(f->node[n].desc, c, 3), 2);
	return c[0];
}

/*
 * Uniform traffic: each global cable from G to H carries at most
 * |CAs of G| * ceil(|CAs of H| / C) / (N - 1), C the cables from G to H
 * (each destination on one cable, dealt evenly), and the largest such
 * bound is reached.  No cable inside a group carries more than 1.6
 * times the largest of that bound, a leaf's share, c (N - c) / (N - 1)
 * over its u cables to spines (c CAs), and 1 (a CA's rate: below it
 * uniform traffic loses nothing).  The hops down to a leaf are not left
 * to the residues the global dealing gives one spine: before the fix,
 * with 2 or 3 groups, up to 2.5 times.  What stays above 1 is the
 * dealing's integrality: a leaf's 4 CAs over 3 spines, whole
 * destinations on one cable down, 2 of them on one spine (1.5 times);
 * and arrangements that land several groups' only cables on one spine
 * (2.3 times the leaf's share on gen dragonfly 2 3 --spines 3 --cas 5
 * --groups 7 --arrangement palm-tree: the rule has no choice there; not
 * among these draws).
 */
static void uniform_at_bound(const struct ot_fabric *f,
			     const struct ot_routing *r, unsigned int g,
			     const char *what)
{
	struct ot_traffic_opts opts = { .patterns = 1u << OT_PATTERN_UNIFORM };
	struct ot_balance_report *rep = NULL;
	struct ot_error err = { 0 };
	const struct ot_pattern_load *pl;
	uint32_t cas[64] = { 0 }, cab[64][64], n, link = 0, N = 0;
	double worst = 0, seen = 0, share = 0, inside = 0;
	unsigned int p;

	memset(cab, 0, sizeof(cab));
	for (n = 0; n < f->nnodes; n++) {
		if (!ot_is_switch(f, n)) {
			cas[name_group(f, n)]++;
			N++;
			continue;
		}
		for (p = 1; p <= f->node[n].nports; p++) {
			int32_t x = f->node[n].port[p].peer;

			if (x >= 0 && ot_is_switch(f, x) &&
			    name_group(f, x) != name_group(f, n))
				cab[name_group(f, n)][name_group(f, x)]++;
		}
	}
	for (n = 0; n < f->nnodes; n++) {
		uint32_t ca = 0, up = 0;

		for (p = 1; p <= f->node[n].nports && ot_is_switch(f, n); p++) {
			int32_t x = f->node[n].port[p].peer;

			if (x >= 0 && !ot_is_switch(f, x))
				ca++;
			else if (x >= 0 && name_group(f, x) == name_group(f, n))
				up++;
		}
		if (ca && up && (double)ca * (N - ca) / (N - 1) / up > share)
			share = (double)ca * (N - ca) / (N - 1) / up;
	}
	ck_assert_int_eq(ot_balance_run(f, r, &opts, &rep, &err), 0);
	pl = ot_balance_pattern(rep, 0);
	for (n = 0; n < f->nnodes; link += f->node[n].nports, n++) {
		for (p = 1; p <= f->node[n].nports && ot_is_switch(f, n); p++) {
			int32_t x = f->node[n].port[p].peer;
			uint32_t G = name_group(f, n), H;
			double bound, load = pl->load[link + p - 1];

			if (x >= 0 && ot_is_switch(f, x) &&
			    name_group(f, x) == G && load > inside)
				inside = load;
			if (x < 0 || !ot_is_switch(f, x) ||
			    (H = name_group(f, x)) == G)
				continue;
			bound = (double)cas[G] *
				((cas[H] + cab[G][H] - 1) / cab[G][H]) / (N - 1);
			ck_assert_msg(load <= bound + 1e-9,
				      "%s: cable %s -> %s carries %g, bound %g",
				      what, f->node[n].desc, f->node[x].desc,
				      load, bound);
			worst = bound > worst ? bound : worst;
			seen = load > seen ? load : seen;
		}
	}
	ck_assert_msg(seen >= worst - 1e-9, "%s: largest %g, bound %g", what,
		      seen, worst);
	/* loads up to 1 (a CA's rate) cost no throughput */
	share = share > worst ? share : worst;
	share = share > 1 ? share : 1;
	inside = inside > 1 ? inside : 1;
	ck_assert_msg(inside <= 1.6 * share + 1e-9,
		      "%s: a cable inside a group carries %g, %.2f times the bound %g",
		      what, inside, inside / share, share);
	(void)g;
	ot_balance_report_free(rep);
}

/*
 * Intact fabrics drawn from seed: groups and roles as built, every pair
 * on at most 4 switches, 1 VL, no credit loop, uniform at the bound.
 * few: 2 or 3 groups (many parallel global cables per group pair) and 1
 * to 3 cables per leaf-spine pair, where the global dealing's residues
 * meet the hops down to a leaf.
 */
static void intact_draws(uint64_t seed, unsigned int count, bool few)
{
	struct ot_prng rng = { .state = seed };
	unsigned int i;
	char what[200];

	for (i = 0; i < count; i++) {
		struct shape sh = draw(&rng);
		struct ot_fabric *f;
		struct ot_routing *r;
		struct ot_check_report *rep;
		const struct ot_check_counts *k;

		if (few) {
			sh.g = 2 + (sh.s * sh.h > 1 ? ot_prng_below(&rng, 2) : 0);
			sh.w = 1 + ot_prng_below(&rng, 3);
		}
		f = dfplus(&sh, true, sh.seed + 1);
		describe(&sh, what, sizeof(what));
		roles_as_built(f, sh.g, what);
		r = route(f, what);
		k = checked(f, r, &rep, what);
		ck_assert_msg(k->max_hops <= 5, "%s: %u links", what,
			      k->max_hops);
		ck_assert_uint_le(k->vls_used, 1);
		ck_assert_uint_eq(r->nvls, 1);
		ck_assert_uint_eq(r->promise.max_switch_hops, 3);
		ot_check_report_free(rep);
		uniform_at_bound(f, r, sh.g, what);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
}

START_TEST(random_intact)
{
	intact_draws(20261126, 40, false);
}
END_TEST

/*
 * Fewer groups than the full count (150 draws): fails on main before the
 * fix (a spine's cable down to a leaf at 1.7 times the bound) and with
 * the rule's cables in (spine, far spine, port) order instead of far
 * spines in turn (2.0 times: 5 leaves x 3 CAs, 5 spines, 2 groups, one
 * cable per leaf-spine pair).
 */
START_TEST(fewer_groups)
{
	intact_draws(20261127, 150, true);
}
END_TEST

/*
 * Random damaged fabrics (5 % of the cables, some switches): no credit
 * loop, every pair, the promise kept, at most 2 VLs; the detours are
 * taken somewhere.
 */
START_TEST(random_damaged)
{
	struct ot_prng rng = { .state = 7 };
	unsigned int i, detours = 0, two = 0, cut = 0;
	char what[200];

	for (i = 0; i < 40; i++) {
		struct shape sh = draw(&rng);
		struct ot_fabric *f;
		struct ot_routing *r;
		struct ot_check_report *rep;
		struct ot_error err = { 0 };
		const struct ot_check_counts *k;

		if (sh.s < 2 || sh.a < 3) /* damage would cut them apart */
			sh.s = 2, sh.a = 3, sh.g = sh.g > 2 * sh.h + 1 ?
							 2 * sh.h + 1 : sh.g;
		sh.dl = 0.05;
		sh.ds = i % 4 ? 0 : 0.05;
		f = dfplus(&sh, true, sh.seed + 1);
		describe(&sh, what, sizeof(what));
		if (ot_engine_run(ot_engine_find("df-static"), f, &r, &err)) {
			ck_assert_msg(err.cls == OT_ERR_DAMAGE ||
					      err.cls == OT_ERR_TOPOLOGY,
				      "%s: %s", what, err.msg);
			cut++;
			ot_fabric_free(f);
			continue;
		}
		k = checked(f, r, &rep, what);
		detours += !!(k->sls_used & 0x11a);
		ck_assert_msg(r->nvls <= 2, "%s: %u VLs", what, r->nvls);
		two++;
		ot_check_report_free(rep);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
	ck_assert_uint_gt(detours, 0);
	ck_assert_uint_gt(two, 20);
	ck_assert_uint_lt(cut, 10);
}
END_TEST

/*
 * Heavy damage (15 % of the cables) on several shapes and seeds, LMC 0
 * and 1: no credit loop and the promise kept wherever df-static routes.
 * Guards the damage layer against a group that sends a LID through an
 * intermediate while a third-group detour (SL 1) of another group lands
 * on one of its spines: that spine keeps the rule (gen dragonfly 4 2
 * --spines 4 --cas 3 --groups 9 --drop-links 0.15 --seed 6 turned such
 * a detour at a leaf and made a credit loop).
 */
START_TEST(heavy_damage)
{
	static const struct shape shapes[] = {
		{ .a = 4, .s = 4, .h = 2, .p = 3, .w = 1, .g = 9 },
		{ .a = 4, .s = 3, .h = 2, .p = 2, .w = 1, .g = 7,
		  .arr = OT_DF_RANDOM },
		{ .a = 3, .s = 4, .h = 3, .p = 3, .w = 2, .g = 13,
		  .arr = OT_DF_RANDOM },
		{ .a = 5, .s = 4, .h = 1, .p = 2, .w = 1, .g = 5 },
	};
	unsigned int i, seed, lmc, routed = 0, layer = 0;
	char what[240];

	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		for (seed = 1; seed <= 10; seed++)
			for (lmc = 0; lmc < 2; lmc++) {
				struct shape sh = shapes[i];
				struct ot_error err = { 0 };
				struct ot_check_report *rep;
				const struct ot_check_counts *k;
				struct ot_fabric *f;
				struct ot_routing *r;
				size_t n;

				sh.dl = 0.15;
				sh.seed = seed;
				f = dfplus(&sh, false, 0);
				ck_assert(!ot_fabric_set_ca_lmc(f, lmc, &err));
				describe(&sh, what, sizeof(what));
				n = strlen(what);
				snprintf(what + n, sizeof(what) - n, " --lmc %u",
					 lmc);
				r = route_or_cut(f, what, true);
				if (!r) {
					ot_fabric_free(f);
					continue;
				}
				k = checked(f, r, &rep, what);
				ck_assert_msg(!k->violations, "%s", what);
				routed++;
				layer += !!(k->sls_used & 0x100);
				ot_check_report_free(rep);
				ot_routing_free(r);
				ot_fabric_free(f);
			}
	ck_assert_uint_gt(routed, 40);
	ck_assert_uint_gt(layer, 5); /* the damage layer is exercised */
}
END_TEST

/*
 * The shape with one global cable per group pair (9 groups of 4
 * leaves x 4 CAs, 4 spines x 2 global cables), 5 % of the cables
 * missing, 10 draws: a group pair that lost its only cable goes through
 * an intermediate group on the damage layer (SL 8, one VL) instead of
 * the escape layer: no credit loop, the promise kept, at most 3 VLs and
 * uniform traffic at 0.25 or more on most draws (the escape layer's
 * up*-down* gave 0.05 to 0.2).
 */
START_TEST(damage_layer)
{
	unsigned int seed, layer = 0, good = 0;
	char what[200];

	for (seed = 1; seed <= 10; seed++) {
		struct shape sh = { .a = 4, .s = 4, .h = 2, .p = 4, .w = 1,
				    .g = 9, .dl = 0.05, .seed = seed };
		struct ot_fabric *f = dfplus(&sh, true, seed);
		struct ot_traffic_opts opts = {
			.patterns = 1u << OT_PATTERN_UNIFORM,
		};
		struct ot_balance_report *bal = NULL;
		struct ot_check_report *rep;
		struct ot_error err = { 0 };
		const struct ot_check_counts *k;
		struct ot_routing *r;

		describe(&sh, what, sizeof(what));
		r = route(f, what);
		k = checked(f, r, &rep, what);
		if (k->sls_used & 0x100 && !(k->sls_used & 0x4)) {
			layer++;
			ck_assert_msg(r->nvls <= 3, "%s: %u VLs", what,
				      r->nvls);
			ck_assert_int_eq(ot_balance_run(f, r, &opts, &bal,
							&err), 0);
			good += ot_balance_pattern(bal, 0)->base.throughput >=
				0.25;
			ot_balance_report_free(bal);
		}
		ot_check_report_free(rep);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
	ck_assert_msg(layer >= 5, "damage layer alone on %u of 10", layer);
	ck_assert_msg(good + 1 >= layer, "uniform >= 0.25 on %u of %u", good,
		      layer);
}
END_TEST

/* Uniform traffic's throughput under r (1 / the most loaded link). */
static double uniform_of(const struct ot_fabric *f, const struct ot_routing *r)
{
	struct ot_traffic_opts opts = { .patterns = 1u << OT_PATTERN_UNIFORM };
	struct ot_balance_report *bal = NULL;
	struct ot_error err = { 0 };
	double u;

	ck_assert_int_eq(ot_balance_run(f, r, &opts, &bal, &err), 0);
	u = ot_balance_pattern(bal, 0)->base.throughput;
	ot_balance_report_free(bal);
	return u;
}

/*
 * Every connected damaged fabric on at most 2 VLs at LMC 0 (issue 23:
 * "with 5 % of cables missing, no credit loop on at most 2 VLs"), the
 * detours, the damage layer and the escape layer's trees together on VL
 * 1 (route/df_plus_vl1.c).  Drawn: four shapes (the 9 groups of
 * 4 leaves x 4 CAs with 4 spines x 2 global cables; a palm-tree and a
 * random arrangement with one cable per group pair; 17 groups of 8
 * leaves, 2 cables per pair, 272 switches) and 12 shapes drawn at random
 * per damage level (draw(): 2 to 12 groups, 1 to 4 CAs a leaf, 1 to 5
 * spines), shuffled ports, 2, 5 and
 * 10 % of the cables missing: the checker finds every pair reached, no
 * credit loop, the promise kept, and VLs 0 and 1 alone.  The damage
 * layer (SL 8) and LIDs on VL 1 from every source (SL 2) are taken
 * somewhere.  On the shape with 5 % missing, seeds 1..24,
 * uniform traffic at 0.25 or more on every draw (up*-down* for the LIDs
 * a switch has no port toward gave 0.13 to 0.24 on 4 of them, on a
 * third VL); on 8 draws of the shape and the 13-group one
 * (floors[]) at least dfsssp's figure on the same fabric, on 2 VLs
 * (seed 13: 0.441 while the trees were dealt without regard to the
 * links' loads; the others below it before the other routings of
 * route/df_plus_alt.c).  With 10 % missing, at most 3 VLs: where the
 * search gives up, the damage layer shares VL 1 with the detours when
 * the engine's tables let it (4 VLs on 5 of the 12 draws before).
 */
START_TEST(two_vls_damaged)
{
	static const struct shape shapes[] = {
		{ .a = 4, .s = 4, .h = 2, .p = 4, .w = 1, .g = 9 },
		{ .a = 4, .s = 3, .h = 2, .p = 3, .w = 1, .g = 7,
		  .arr = OT_DF_PALMTREE },
		{ .a = 4, .s = 4, .h = 3, .p = 2, .w = 1, .g = 13,
		  .arr = OT_DF_RANDOM },
		{ .a = 8, .s = 8, .h = 4, .p = 7, .w = 1, .g = 17,
		  .arr = OT_DF_RANDOM },
	};
	static const double drops[] = { 0.02, 0.05, 0.1 };
	/*
	 * dfsssp's uniform on draws at 5 % (shape in shapes[], seed) where
	 * df-static was below it or near: `osmtopo compare -t 300 NET
	 * df-static minhop dfsssp lash nue`, NET = `osmtopo gen dragonfly
	 * SHAPE --shuffle-ports 2 --drop-links 0.05 --seed S` (the shuffle
	 * seed 2 below); doc/dragonfly-plus.md, "The damage layer by load".
	 * df-static before: 0.365, 0.441, 0.263; 0.678, 0.888, 0.715,
	 * 0.725, 0.757.  Seed 8 holds 0.792, under dfsssp's 0.817: that
	 * was reached on the shuffle 2 only, by the GUIDs' numbering
	 * (0.792 under shuffles 1, 4 and 5); numbered by the cabling
	 * (topo/df_canon.h), 0.792 under every shuffle.
	 */
	static const struct {
		unsigned int shape, seed;
		double dfsssp;
	} floors[] = {
		{ 0, 11, 0.389 }, { 0, 13, 0.447 }, { 0, 18, 0.311 },
		{ 2, 2, 0.715 },  { 2, 3, 0.920 },  { 2, 5, 0.757 },
		{ 2, 6, 0.805 },  { 2, 8, 0.792 },
	};
	struct ot_prng rng = { .state = 2311 };
	unsigned int i, j, seed, routed = 0, layer = 0, esc = 0, low = 0;
	char what[240];

	for (i = 0; i < 4 + 12; i++)
		for (j = 0; j < 3; j++)
			for (seed = 1; seed <= (i == 3 ? 1u : i < 3 ? 6u : 1u);
			     seed++) {
				struct shape sh = i < 4 ? shapes[i] : draw(&rng);
				struct ot_check_report *rep;
				const struct ot_check_counts *k;
				struct ot_fabric *f;
				struct ot_routing *r;

				if (i >= 4 && (sh.s < 2 || sh.a < 3))
					sh.s = 2, sh.a = 3,
					sh.g = sh.g > 2 * sh.h + 1 ?
						       2 * sh.h + 1 : sh.g;
				sh.dl = drops[j];
				sh.seed = i < 4 ? seed + 10 * j : sh.seed;
				f = dfplus(&sh, true, sh.seed + 100);
				describe(&sh, what, sizeof(what));
				r = route_or_cut(f, what, true);
				if (!r) {
					ot_fabric_free(f);
					continue;
				}
				k = checked(f, r, &rep, what);
				ck_assert_msg(!k->violations, "%s", what);
				/* 10 %: where the search gives up, 3 */
				ck_assert_msg(drops[j] > 0.06 ?
						      r->nvls <= 3 :
						      r->nvls <= 2 &&
						      !(k->vls_used & ~3u),
					      "%s: %u VLs (used %#x, SLs %#x)",
					      what, r->nvls, k->vls_used,
					      k->sls_used);
				routed++;
				layer += !!(k->sls_used & 0x100);
				esc += !!(k->sls_used & 0x4);
				ot_check_report_free(rep);
				ot_routing_free(r);
				ot_fabric_free(f);
			}
	ck_assert_uint_gt(routed, 60);
	ck_assert_msg(layer >= 10 && esc >= 3,
		      "damage layer on %u, SL 2 on %u of %u", layer, esc,
		      routed);
	for (seed = 1; seed <= 24; seed++) {
		struct shape sh = shapes[0];
		struct ot_fabric *f;
		struct ot_routing *r;
		double u;

		sh.dl = 0.05;
		sh.seed = seed;
		f = dfplus(&sh, true, 2);
		describe(&sh, what, sizeof(what));
		r = route(f, what);
		ck_assert_uint_le(r->nvls, 2);
		u = uniform_of(f, r);
		if (u < 0.25)
			fprintf(stderr, "%s: uniform %.4f\n", what, u);
		low += u < 0.25;
		ot_routing_free(r);
		ot_fabric_free(f);
	}
	ck_assert_msg(!low, "uniform below 0.25 on %u of 24", low);
	for (j = 0; j < sizeof(floors) / sizeof(floors[0]); j++) {
		struct shape sh = shapes[floors[j].shape];
		struct ot_fabric *f;
		struct ot_routing *r;
		double u;

		sh.dl = 0.05;
		sh.seed = floors[j].seed;
		f = dfplus(&sh, true, 2);
		describe(&sh, what, sizeof(what));
		r = route(f, what);
		u = uniform_of(f, r);
		ck_assert_msg(r->nvls <= 2 && u >= floors[j].dfsssp,
			      "%s: %u VLs, uniform %.4f, dfsssp's %.3f", what,
			      r->nvls, u, floors[j].dfsssp);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
	/*
	 * Few groups at 5 %, drawn by bench/vs-stock.py (dragonfly 30 5):
	 * a group that lost a cable toward another sent that cable's share
	 * of LIDs over shared detours from a spine whose one other cable,
	 * to the one third group, then carried two shares (0.296, 0.321,
	 * 0.960 before the routing without shared detours); dfsssp's
	 * uniform from one `osmtopo compare -t 300 NET df-static minhop
	 * dfsssp nue` each, NET = `osmtopo gen dragonfly A H --spines S
	 * --cas P --groups G --arrangement ARR --shuffle-ports X --seed X
	 * --drop-links 0.05`.
	 */
	{
		static const struct {
			struct shape sh;
			double dfsssp;
		} few[] = {
			{ { .a = 6, .s = 5, .h = 2, .p = 4, .w = 1, .g = 3,
			    .arr = OT_DF_PALMTREE, .seed = 725 }, 0.423 },
			{ { .a = 6, .s = 2, .h = 3, .p = 3, .w = 1, .g = 3,
			    .arr = OT_DF_PALMTREE, .seed = 839 }, 0.346 },
			{ { .a = 5, .s = 3, .h = 3, .p = 1, .w = 1, .g = 5,
			    .arr = OT_DF_CONSECUTIVE, .seed = 481 }, 1.0 },
			/*
			 * Each group's usable cable by load
			 * (ot_dfp_alt_cables()): the deal sent a damaged
			 * leaf's LIDs, or a damaged leaf's CAs, onto one
			 * cable of the pair and did not make it up with the
			 * other LIDs (0.253 on 1 VL, 0.319, 0.417 before;
			 * `bench/vs-stock.py dragonfly 40 7` and `30 5`).
			 */
			{ { .a = 6, .s = 3, .h = 2, .p = 4, .w = 1, .g = 4,
			    .arr = OT_DF_RANDOM, .seed = 585 }, 0.293 },
			{ { .a = 6, .s = 4, .h = 2, .p = 3, .w = 1, .g = 5,
			    .arr = OT_DF_CONSECUTIVE, .seed = 105 }, 0.322 },
			{ { .a = 6, .s = 5, .h = 1, .p = 2, .w = 1, .g = 3,
			    .arr = OT_DF_CONSECUTIVE, .seed = 793 }, 0.438 },
			/*
			 * A turn below a landing spine (ot_dfp_alt_land()):
			 * a leaf that lost one of its two cables to a spine
			 * where three groups' only cables land took all their
			 * flows down the one left (0.821 on 1 VL before; with
			 * the turn alone 0.885, the next link the cable up of
			 * a leaf of another group that lost one of its two;
			 * with H's leaves up by load too, dfsssp's 0.958).
			 */
			{ { .a = 2, .s = 2, .h = 3, .p = 2, .w = 2, .g = 6,
			    .arr = OT_DF_RANDOM, .seed = 438 }, 0.958 },
			/*
			 * The routing by load where only a global cable is
			 * lost (ot_dfp_uneven(): groups with unequal global
			 * cables; not tried there before: 0.236), and seeded
			 * by the kept routing's loads (route_alt(): 0.506 and
			 * 0.548 before; on the third, intact or not, three
			 * LIDs per leaf over two spines, each group sending
			 * the same two down one).  dfsssp's from
			 * `bench/vs-stock.py dragonfly 40 13` and `30 11`.
			 */
			{ { .a = 2, .s = 2, .h = 2, .p = 5, .w = 1, .g = 4,
			    .arr = OT_DF_RANDOM, .seed = 922 }, 0.260 },
			{ { .a = 3, .s = 5, .h = 3, .p = 5, .w = 1, .g = 9,
			    .arr = OT_DF_RANDOM, .seed = 910 }, 0.525 },
			{ { .a = 2, .s = 2, .h = 3, .p = 3, .w = 1, .g = 4,
			    .arr = OT_DF_PALMTREE, .seed = 568 }, 0.590 },
			/*
			 * Seeded, the damage layer's and detours' cables by
			 * load too (alt 1 where the first routing was kept:
			 * 0.792 before; a spine that lost a leaf takes three
			 * groups' only cables and their turns).
			 */
			{ { .a = 2, .s = 5, .h = 3, .p = 3, .w = 1, .g = 16,
			    .arr = OT_DF_CONSECUTIVE, .seed = 328 }, 0.880 },
		};

		for (j = 0; j < sizeof(few) / sizeof(few[0]); j++) {
			struct shape sh = few[j].sh;
			struct ot_fabric *f;
			struct ot_routing *r;
			double u;

			struct ot_check_report *rep;

			sh.dl = 0.05;
			f = dfplus(&sh, true, sh.seed);
			describe(&sh, what, sizeof(what));
			r = route(f, what);
			checked(f, r, &rep, what);
			ot_check_report_free(rep);
			u = uniform_of(f, r);
			ck_assert_msg(r->nvls <= 2 && u >= few[j].dfsssp - 1e-3,
				      "%s: %u VLs, uniform %.4f, dfsssp's %.3f",
				      what, r->nvls, u, few[j].dfsssp);
			ot_routing_free(r);
			ot_fabric_free(f);
		}
	}
	/*
	 * 10 %: where the search gives up, the engine's own tables on VLs
	 * of their own, not every VL 1 LID on up*-down* (that kept 2 VLs at
	 * uniform 0.048-0.081 on seeds 1, 6, 8, 9 and 12; now 0.11 or more,
	 * main's figures).  Some draw must take that way.
	 */
	for (seed = 1, low = 0, j = 0; seed <= 16; seed++) {
		struct shape sh = shapes[0];
		struct ot_check_report *rep;
		struct ot_fabric *f;
		struct ot_routing *r;
		double u;

		sh.dl = 0.1;
		sh.seed = seed;
		f = dfplus(&sh, true, 2);
		describe(&sh, what, sizeof(what));
		r = route_or_cut(f, what, false);
		if (!r) {
			ot_fabric_free(f);
			continue;
		}
		checked(f, r, &rep, what);
		ot_check_report_free(rep);
		u = uniform_of(f, r);
		if (u < 0.11)
			fprintf(stderr, "%s: uniform %.4f on %u VLs\n", what, u,
				r->nvls);
		low += u < 0.11;
		j += r->nvls > 2;
		ck_assert_msg(r->nvls <= 3, "%s: %u VLs", what, r->nvls);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
	ck_assert_msg(!low, "10 %%: uniform below 0.11 on %u of 14", low);
	ck_assert_msg(j > 0, "10 %%: the search never gave up");
}
END_TEST

/*
 * Where the VL 1 search gives up (more than 2 VLs at LMC 0), the tables
 * the engine keeps must still hold its rule and be free of credit loops:
 * 10 % of the cables lost on three shapes, 30 draws of the first (issue
 * 23's), 10 of the others, each under shuffled ports.  Seeds 2, 12 and
 * 20 of the first broke it (alt 2: an intermediate of the damage layer
 * whose leaf detoured went up to a spine rule_down() had turned down,
 * up, down, up, global, down promised as a detour, SL 1; 96 and 112
 * pairs, 4 VLs); doc/dragonfly-plus.md.  At most 3 VLs where it gives
 * up: the damage or the escape layer on VL 1 with the detours, or the
 * two on one VL, whichever graph is acyclic.
 */
START_TEST(given_up_keeps_rule)
{
	static const struct shape shapes[] = {
		{ .a = 4, .s = 4, .h = 2, .p = 4, .w = 1, .g = 9 },
		{ .a = 4, .s = 3, .h = 2, .p = 3, .w = 1, .g = 7,
		  .arr = OT_DF_PALMTREE },
		{ .a = 5, .s = 3, .h = 2, .p = 2, .w = 1, .g = 7,
		  .arr = OT_DF_RANDOM },
	};
	unsigned int i, seed, routed = 0, gave_up = 0, bad = 0, vls = 0;
	char what[240], first[400] = "";

	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		for (seed = 1; seed <= (i ? 10u : 30u); seed++) {
			struct shape sh = shapes[i];
			struct ot_check_opts opts = { 0 };
			struct ot_check_report *rep;
			const struct ot_check_counts *k;
			struct ot_error err = { 0 };
			struct ot_fabric *f;
			struct ot_routing *r;
			bool broke;

			sh.dl = 0.1;
			sh.seed = seed;
			f = dfplus(&sh, true, 2);
			describe(&sh, what, sizeof(what));
			r = route_or_cut(f, what, false);
			if (!r) {
				ot_fabric_free(f);
				continue;
			}
			opts.promiser = r;
			ck_assert_int_eq(ot_check_run(f, r, &opts, &rep, &err),
					 0);
			k = ot_check_counts(rep);
			broke = !ot_check_ok(rep) || k->credit_loops ||
				k->reached != k->pairs;
			if (broke && !bad++)
				snprintf(first, sizeof(first),
					 "%s: %llu violations, %u loops", what,
					 (unsigned long long)k->violations,
					 k->credit_loops);
			routed++;
			gave_up += r->nvls > 2;
			vls += r->nvls > 3;
			ot_check_report_free(rep);
			ot_routing_free(r);
			ot_fabric_free(f);
		}
	ck_assert_msg(!bad, "off the rule or looping on %u of %u (%u gave "
		      "up), the first: %s", bad, routed, gave_up, first);
	ck_assert_msg(!vls, "more than 3 VLs on %u of %u gave up", vls,
		      gave_up);
	ck_assert_uint_gt(routed, 40);
	ck_assert_uint_gt(gave_up, 2);
}
END_TEST

/*
 * A leaf that turns (SL 3: up, down to another leaf of its group, then
 * that leaf's path) in a group that also shares a detour (SL 1) toward
 * the same destination: the landing leaf must keep the rule, or the path
 * is up, down, up, global, global, down, longer than the promise.  The
 * 272-switch shape with 5 % of the cables missing, the two draws of
 * seeds 1 to 24 where that happened (21 and 28 pairs one hop too long).
 */
START_TEST(turn_onto_shared_detour)
{
	static const uint64_t seeds[] = { 8, 12 };
	unsigned int i;
	char what[240];

	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		struct shape sh = { .a = 8, .s = 8, .h = 4, .p = 7, .w = 1,
				    .g = 17, .arr = OT_DF_RANDOM, .dl = 0.05,
				    .seed = seeds[i] };
		struct ot_fabric *f = dfplus(&sh, true, 2);
		struct ot_check_report *rep;
		struct ot_routing *r;

		describe(&sh, what, sizeof(what));
		r = route(f, what);
		ck_assert_msg(!checked(f, r, &rep, what)->violations, "%s",
			      what);
		ot_check_report_free(rep);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
}
END_TEST

/*
 * A pair of groups that lost one of its two global cables (9 groups of 4
 * leaves, 4 spines x 4 global cables: 2 per pair, random arrangement,
 * shuffled ports; one cable of group 0's pairs removed, for 4 pairs in
 * turn): the LIDs the lost cable carried take detours through third
 * groups (SL 1, still 2 VLs), so the remaining cable carries no more
 * than 1.25 x what the most loaded other global cable carries under
 * uniform traffic (on minimal paths alone it carries twice its share).
 */
START_TEST(shared_detours)
{
	struct shape sh = { .a = 4, .s = 4, .h = 4, .p = 3, .w = 1, .g = 9,
			    .arr = OT_DF_RANDOM, .seed = 1 };
	unsigned int cut;

	for (cut = 0; cut < 4; cut++) {
		struct ot_fabric *f = dfplus(&sh, true, 7 + cut);
		struct ot_traffic_opts opts = {
			.patterns = 1u << OT_PATTERN_UNIFORM,
		};
		struct ot_balance_report *bal = NULL;
		struct ot_check_report *rep;
		struct ot_error err = { 0 };
		const struct ot_pattern_load *pl;
		const struct ot_check_counts *k;
		struct ot_routing *r;
		int32_t a = -1, b = -1, rest = -1;
		unsigned int pa = 0, pb = 0, seen = 0, p, rp = 0, sls;
		double other = 0, left = 0;
		uint32_t n, link;

		/* the cut-th cable from group 0 to a group it has 2 with */
		for (n = 0; n < f->nnodes && a < 0; n++)
			for (p = 1; p <= f->node[n].nports && a < 0; p++) {
				int32_t x = f->node[n].port[p].peer;

				if (x < 0 || !ot_is_switch(f, n) ||
				    !ot_is_switch(f, x) ||
				    name_group(f, n) != 0 ||
				    name_group(f, x) == 0 || seen++ != cut)
					continue;
				a = n, pa = p, b = x;
				pb = f->node[n].port[p].peer_port;
			}
		ck_assert(a >= 0);
		f->node[a].port[pa].peer = -1;
		f->node[b].port[pb].peer = -1;
		ck_assert(!ot_fabric_index(f, &err));
		r = route(f, "one cable cut");
		k = checked(f, r, &rep, "one cable cut");
		ck_assert_uint_le(r->nvls, 2);
		sls = k->sls_used;
		ot_check_report_free(rep);
		ck_assert_int_eq(ot_balance_run(f, r, &opts, &bal, &err), 0);
		pl = ot_balance_pattern(bal, 0);
		for (n = 0, link = 0; n < f->nnodes;
		     link += f->node[n].nports, n++)
			for (p = 1; p <= f->node[n].nports; p++) {
				int32_t x = f->node[n].port[p].peer;
				double load = pl->load[link + p - 1];

				if (x < 0 || !ot_is_switch(f, n) ||
				    !ot_is_switch(f, x) ||
				    name_group(f, n) == name_group(f, x))
					continue;
				if (name_group(f, n) == 0 &&
				    name_group(f, x) == name_group(f, b)) {
					rest = x, rp = p;
					left = load;
				} else if (name_group(f, n) == name_group(f, b) &&
					   name_group(f, x) == 0) {
					continue; /* the same pair back */
				} else if (load > other) {
					other = load;
				}
			}
		ck_assert_msg(rest >= 0, "group 0 lost both cables");
		ck_assert_msg(left <= 1.25 * other,
			      "cut %u: the remaining cable (port %u) carries %g, the others at most %g",
			      cut, rp, left, other);
		ck_assert_uint_ne(sls & 0x2, 0); /* taken as detours */
		ot_balance_report_free(bal);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
}
END_TEST

/*
 * LMC 2: every LID routed, the promise kept (offset 0 up-global-down on
 * SL 0, the offsets above it Valiant on SL 5..7 with a VL per layer), no
 * credit loop, and Valiant taken.
 */
START_TEST(lmc_offsets)
{
	struct shape sh = { .a = 4, .s = 4, .h = 2, .p = 2, .w = 1, .g = 9,
			    .arr = OT_DF_RANDOM, .seed = 5 };
	struct ot_fabric *f = dfplus(&sh, true, 3);
	struct ot_error err = { 0 };
	struct ot_routing *r;
	struct ot_check_report *rep;
	const struct ot_check_counts *k;

	ck_assert(!ot_fabric_set_ca_lmc(f, 2, &err));
	r = route(f, "lmc 2");
	k = checked(f, r, &rep, "lmc 2");
	ck_assert_uint_ne(k->sls_used & 0xe0, 0);
	ck_assert_uint_eq(k->sls_used & 0x1e, 0);
	ck_assert_uint_le(r->nvls, 1 + OT_VALIANT_LAYERS);
	ck_assert_uint_le(k->max_hops, 8);
	ot_check_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * Random fabrics at LMC 1 or 2, a third of them damaged: every LID
 * reached, the promise kept (Valiant paths up-global-(down-up-)global-
 * down, the first global hop up and the second down in the layer's
 * order, on the layer's VL), no credit loop; Valiant taken on most.
 */
START_TEST(random_valiant)
{
	struct ot_prng rng = { .state = 424242 };
	unsigned int i, taken = 0, routed = 0;
	char what[200];

	for (i = 0; i < 30; i++) {
		struct shape sh = draw(&rng);
		struct ot_fabric *f;
		struct ot_routing *r;
		struct ot_check_report *rep;
		struct ot_error err = { 0 };
		const struct ot_check_counts *k;

		if (sh.g < 5 && sh.s * sh.h >= 4)
			sh.g = 5;
		if (i % 3 == 0 && sh.s >= 2 && sh.a >= 3)
			sh.dl = 0.05;
		f = dfplus(&sh, true, sh.seed + 2);
		ck_assert(!ot_fabric_set_ca_lmc(f, 1 + i % 2, &err));
		describe(&sh, what, sizeof(what));
		if (ot_engine_run(ot_engine_find("df-static"), f, &r, &err)) {
			ck_assert_msg(sh.dl > 0 && err.cls == OT_ERR_DAMAGE,
				      "%s: %s", what, err.msg);
			ot_fabric_free(f);
			continue;
		}
		k = checked(f, r, &rep, what);
		routed++;
		taken += !!(k->sls_used & 0xe0);
		ck_assert_msg(r->nvls <= 3 + OT_VALIANT_LAYERS, "%s: %u VLs",
			      what, r->nvls);
		ot_check_report_free(rep);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
	ck_assert_uint_gt(routed, 25);
	ck_assert_uint_gt(taken, routed / 2);
}
END_TEST

/*
 * Group-to-group permutations (CAs in file order, group by group, so
 * that rotation and complement send whole groups to other groups):
 * with LMC 1 and the best LID per flow the Valiant paths carry more
 * than the minimal ones (the base LID) alone, by at least 10 %.
 */
START_TEST(valiant_permutations)
{
	static const struct shape shapes[] = {
		{ .a = 4, .s = 4, .h = 2, .p = 4, .w = 1, .g = 9 },
		{ .a = 3, .s = 4, .h = 3, .p = 3, .w = 1, .g = 13,
		  .arr = OT_DF_RANDOM, .seed = 7 },
	};
	struct ot_traffic_opts opts = {
		.patterns = 1u << OT_PATTERN_ROTATION |
			    1u << OT_PATTERN_COMPLEMENT,
	};
	unsigned int i, j;

	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		struct ot_fabric *f = dfplus(&shapes[i], false, 0);
		struct ot_balance_report *rep = NULL;
		struct ot_check_report *crep;
		struct ot_error err = { 0 };
		struct ot_routing *r;
		char what[200];

		describe(&shapes[i], what, sizeof(what));
		ck_assert(!ot_fabric_set_ca_lmc(f, 1, &err));
		r = route(f, what);
		checked(f, r, &crep, what);
		ot_check_report_free(crep);
		ck_assert_int_eq(ot_balance_run(f, r, &opts, &rep, &err), 0);
		for (j = 0; j < ot_balance_npatterns(rep); j++) {
			const struct ot_pattern_load *pl =
				ot_balance_pattern(rep, j);

			ck_assert(pl->multipath);
			ck_assert_msg(pl->best.throughput >=
					      1.1 * pl->base.throughput,
				      "%s: %s best LID %g, minimal %g", what,
				      pl->name, pl->best.throughput,
				      pl->base.throughput);
		}
		ot_balance_report_free(rep);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
}
END_TEST

/*
 * The checker's "best LID per flow" is a greedy choice; a choice is only
 * best if it does no worse than every flow on its base LID.  Few-group
 * Dragonfly+ fabrics at LMC 1, where the greedy alone fell below the
 * base LIDs on rotation and uniform.
 */
START_TEST(best_lid_not_below_base)
{
	struct ot_prng rng = { .state = 5150 };
	struct ot_traffic_opts opts = {
		.patterns = 1u << OT_PATTERN_UNIFORM |
			    1u << OT_PATTERN_ROTATION |
			    1u << OT_PATTERN_COMPLEMENT |
			    1u << OT_PATTERN_SHUFFLE,
	};
	unsigned int i, j, cells = 0;
	char what[200];

	for (i = 0; i < 40; i++) {
		struct shape sh = draw(&rng);
		struct ot_balance_report *rep = NULL;
		struct ot_error err = { 0 };
		struct ot_fabric *f;
		struct ot_routing *r;

		sh.g = 2 + i % 3;
		if (sh.g > sh.s * sh.h + 1)
			sh.g = sh.s * sh.h + 1;
		sh.w = 1 + i % 2;
		f = dfplus(&sh, true, sh.seed + 1);
		describe(&sh, what, sizeof(what));
		ck_assert(!ot_fabric_set_ca_lmc(f, 1, &err));
		r = route(f, what);
		ck_assert_int_eq(ot_balance_run(f, r, &opts, &rep, &err), 0);
		for (j = 0; j < ot_balance_npatterns(rep); j++) {
			const struct ot_pattern_load *pl =
				ot_balance_pattern(rep, j);

			if (pl->unrouted)
				continue;
			cells++;
			ck_assert_msg(pl->best.throughput >=
					      pl->base.throughput - 1e-9,
				      "%s: %s best LID %g, base %g", what,
				      pl->name, pl->best.throughput,
				      pl->base.throughput);
		}
		ot_balance_report_free(rep);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
	ck_assert_uint_ge(cells, 120);
}
END_TEST

/* Leaves that lose their CAs: every leaf of the groups in mask, and leaf
 * i of group G where (5 G + i) mod mod is 0 (mod 0: no other). */
struct strip {
	uint64_t mask;
	unsigned int mod;
};

static bool keep_ca(const struct ot_fabric *f, uint32_t a, unsigned int pa,
		    uint32_t b, unsigned int pb, const void *ctx)
{
	const struct strip *st = ctx;
	uint32_t sw = ot_is_switch(f, a) ? a : b, c[2];

	(void)pa;
	(void)pb;
	if (ot_is_switch(f, a) == ot_is_switch(f, b) ||
	    strncmp(f->node[sw].desc, "DFL[", 4))
		return true;
	ck_assert_uint_eq(ot_gen_name_coords(f->node[sw].desc, c, 2), 2);
	if (st->mask >> c[0] & 1)
		return false;
	return !st->mod || (5 * c[0] + c[1]) % st->mod;
}

/* f without those CAs' cables, and without the CAs (written and read
 * back as a net file, which leaves uncabled CAs out). */
static struct ot_fabric *stripped(struct ot_fabric *f, const struct strip *st)
{
	struct ot_error err = { 0 };
	struct ot_fabric *g = ot_fabric_copy_cables(f, keep_ca, st, &err);
	char *text = NULL;
	size_t len = 0;
	FILE *io;

	ck_assert_msg(g, "%s", err.msg);
	g = ot_fabric_done(g, 0, &err);
	ck_assert_msg(g, "%s", err.msg);
	ot_fabric_free(f);
	io = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(io);
	ck_assert_int_eq(ot_netfile_write(io, g, NULL), 0);
	ck_assert_int_eq(fclose(io), 0);
	ot_fabric_free(g);
	io = fmemopen(text, len, "r");
	ck_assert_ptr_nonnull(io);
	f = ot_netfile_read(io, "stripped", &err);
	ck_assert_msg(f, "%s", err.msg);
	fclose(io);
	free(text);
	ck_assert_msg(!ot_fabric_set_ca_lmc(f, 0, &err), "%s", err.msg);
	return f;
}

/* The same role for every switch (found by name) and the same groups
 * (numbers and indices may differ: GUIDs break ties). */
static void same_recognition(const struct ot_fabric *a,
			     const struct ot_fabric *b, const char *what)
{
	struct ot_error err = { 0 };
	struct ot_dfp *da, *db;
	int32_t *to = malloc(a->nnodes * sizeof(*to));
	uint32_t n, m;

	ck_assert_ptr_nonnull(to);
	ck_assert_msg(!ot_dfp_recognize(a, &da, &err), "%s: %s", what,
		      err.msg);
	ck_assert_msg(!ot_dfp_recognize(b, &db, &err), "%s: %s", what,
		      err.msg);
	ck_assert_uint_eq(da->ngroups, db->ngroups);
	for (n = 0; n < a->nnodes; n++) {
		if (!ot_is_switch(a, n))
			continue;
		for (m = 0; m < b->nnodes &&
			    strcmp(a->node[n].desc, b->node[m].desc); m++)
			;
		ck_assert_uint_lt(m, b->nnodes);
		to[n] = (int32_t)m;
		ck_assert_msg(da->role[n] == db->role[m],
			      "%s: switch %s in another role", what,
			      a->node[n].desc);
	}
	for (n = 0; n < a->nnodes; n++)
		for (m = 0; m < a->nnodes && ot_is_switch(a, n); m++)
			ck_assert_msg(!ot_is_switch(a, m) ||
					      (da->group[n] == da->group[m]) ==
						      (db->group[to[n]] ==
						       db->group[to[m]]),
				      "%s: switches %s, %s grouped otherwise",
				      what, a->node[n].desc, a->node[m].desc);
	free(to);
	ot_dfp_free(da);
	ot_dfp_free(db);
}

/*
 * Leaves without CAs: whole groups whose leaves all lost their CAs (one
 * or two), and single leaves, on 30 fabrics drawn at random (shuffled,
 * a third damaged): roles and groups as built, from the cabling (a
 * spine of such a group is cabled to leaves only spines are cabled to,
 * its leaves to spines only), the same under other port numbers, and
 * df-static routes every pair without a credit loop, the promise kept.
 */
START_TEST(caless_leaves)
{
	struct ot_prng rng = { .state = 23 };
	unsigned int i, whole = 0;
	char what[240];

	for (i = 0; i < 30; i++) {
		struct shape sh = draw(&rng);
		struct strip st = { 0 };
		struct ot_fabric *f, *g;
		struct ot_routing *r;
		struct ot_check_report *rep;
		uint32_t x;
		size_t n;

		if (sh.g < 3) {
			sh.s = sh.s < 2 ? 2 : sh.s;
			sh.g = 3;
		}
		sh.dl = i % 3 ? 0 : 0.05;
		x = ot_prng_below(&rng, sh.g);
		st.mask = 1ull << x;
		if (i % 3 == 1)
			st.mask |= 1ull << (x + 1) % sh.g;
		st.mod = i % 2 ? 0 : 3 + ot_prng_below(&rng, 4);
		describe(&sh, what, sizeof(what));
		n = strlen(what);
		snprintf(what + n, sizeof(what) - n, ", CAs off groups %#llx, leaves mod %u",
			 (unsigned long long)st.mask, st.mod);
		f = stripped(dfplus(&sh, true, sh.seed + 1), &st);
		g = stripped(dfplus(&sh, true, sh.seed + 2), &st);
		roles_as_built(f, sh.g, what);
		same_recognition(f, g, what);
		whole++;
		r = route_or_cut(f, what, false);
		ck_assert_msg(r || sh.dl, "%s: refused", what);
		if (r) {
			ck_assert_msg(!checked(f, r, &rep, what)->violations,
				      "%s", what);
			ot_check_report_free(rep);
			ot_routing_free(r);
		}
		ot_fabric_free(f);
		ot_fabric_free(g);
	}
	ck_assert_uint_eq(whole, 30);
}
END_TEST

static void refused_plus(struct ot_fabric *f, const char *want)
{
	struct ot_error err = { 0 };
	struct ot_routing *r;

	ck_assert(!ot_fabric_set_ca_lmc(f, 0, &err));
	ck_assert_int_eq(ot_engine_run(ot_engine_find("df-static"), f, &r,
				       &err), -1);
	ck_assert_int_eq(err.cls, OT_ERR_TOPOLOGY);
	ck_assert_msg(strstr(err.msg, want), "%s", err.msg);
	ot_fabric_free(f);
}

/* Fat trees (one group, or three levels) and a spine-spine cable
 * inside a group are refused, the switch named. */
START_TEST(refuse_others)
{
	struct ot_fattree_params ft2 = { .levels = 2, .cas = 2,
					 .down = { 0, 0, 4 }, .up = { 0, 0, 2 } };
	struct ot_fattree_params ft3 = { .levels = 3, .cas = 2,
					 .down = { 0, 0, 3, 3 },
					 .up = { 0, 0, 2, 2 } };
	struct shape sh = { .a = 3, .s = 3, .h = 1, .p = 1, .w = 1, .g = 4 };
	struct ot_dragonfly_params prm = {
		.a = 3, .h = 1, .p = 1, .g = 4, .spines = 3, .radix = 8,
	};
	struct ot_error err = { 0 };
	struct ot_fabric *f;
	int32_t s0 = -1, s1 = -1;
	uint32_t n;

	(void)sh;
	refused_plus(ot_gen_fattree(&ft2, &err), "no second group");
	refused_plus(ot_gen_fattree(&ft3, &err), "nor a Dragonfly+");
	f = ot_gen_dragonfly(&prm, &err);
	ck_assert_msg(f, "%s", err.msg);
	for (n = 0; n < f->nnodes; n++) {
		if (!strcmp(f->node[n].desc, "DFS[0,0]"))
			s0 = n;
		if (!strcmp(f->node[n].desc, "DFS[0,1]"))
			s1 = n;
	}
	ck_assert(s0 >= 0 && s1 >= 0);
	ck_assert(!ot_fabric_link(f, s0, 8, s1, 8, &err));
	refused_plus(f, "two spines of one group cabled");
}
END_TEST

/*
 * A broken table is caught: one leaf sends a LID of another group up to
 * a spine with no cable there, whose entry goes down and up again (not
 * up-global-down on SL 0).
 */
START_TEST(broken_table_caught)
{
	struct shape sh = { .a = 4, .s = 4, .h = 2, .p = 2, .w = 1, .g = 9,
			    .seed = 1 };
	struct ot_fabric *f = dfplus(&sh, true, 2);
	struct ot_routing *r = route(f, "broken");
	struct ot_check_opts opts = { .promiser = r };
	struct ot_check_report *rep;
	struct ot_error err = { 0 };
	int32_t leaf = -1, ca = -1;
	unsigned int p, changed = 0;
	uint32_t n;
	uint16_t lid;

	for (n = 0; n < f->nnodes; n++) {
		if (!strcmp(f->node[n].desc, "DFL[0,0]"))
			leaf = n;
		if (!strcmp(f->node[n].desc, "DFL[5,0]/0"))
			ca = n;
	}
	ck_assert(leaf >= 0 && ca >= 0);
	lid = f->node[ca].port[1].lid;
	for (p = 1; p <= f->node[leaf].nports && !changed; p++) {
		int32_t x = f->node[leaf].port[p].peer;

		if (x >= 0 && ot_is_switch(f, x) &&
		    p != r->lft[leaf][lid] &&
		    r->lft[x][lid] != OT_NO_PORT &&
		    ot_is_switch(f, f->node[x].port[r->lft[x][lid]].peer) &&
		    name_group(f, f->node[x].port[r->lft[x][lid]].peer) == 0) {
			r->lft[leaf][lid] = p;
			changed = 1;
		}
	}
	ck_assert_uint_eq(changed, 1);
	ck_assert_int_eq(ot_check_run(f, r, &opts, &rep, &err), 0);
	ck_assert(!ot_check_ok(rep));
	ck_assert_uint_gt(ot_check_counts(rep)->violations, 0);
	ot_check_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/* The generator: counts of switches, CAs and cables as asked. */
START_TEST(gen_shape)
{
	struct shape sh = { .a = 4, .s = 3, .h = 2, .p = 3, .w = 2, .g = 7 };
	struct ot_fabric *f = dfplus(&sh, false, 0);
	uint32_t n, sw = 0, ca = 0, glob = 0, loc = 0;
	unsigned int p;

	for (n = 0; n < f->nnodes; n++) {
		if (!ot_is_switch(f, n)) {
			ca++;
			continue;
		}
		sw++;
		for (p = 1; p <= f->node[n].nports; p++) {
			int32_t x = f->node[n].port[p].peer;

			if (x < 0 || !ot_is_switch(f, x))
				continue;
			if (name_group(f, x) == name_group(f, n))
				loc++;
			else
				glob++;
		}
	}
	ck_assert_uint_eq(sw, 7 * (4 + 3));
	ck_assert_uint_eq(ca, 7 * 4 * 3);
	ck_assert_uint_eq(loc / 2, 7 * 4 * 3 * 2);
	ck_assert_uint_eq(glob / 2, 7 * 3 * 2 / 2);
	roles_as_built(f, 7, "gen_shape");
	ot_fabric_free(f);
}
END_TEST

/*
 * gen dragonfly --caless-groups: the named groups' leaves carry no CAs,
 * every other leaf its --cas; the recognizer finds the groups and roles
 * as built (shuffled ports, cables missing), and df-static routes every
 * pair without a credit loop on at most 2 VLs.  A group out of range,
 * or CA-less groups without --spines, are refused.
 */
START_TEST(gen_caless)
{
	static const unsigned int none[] = { 1, 4 }, bad[] = { 7 };
	struct ot_dragonfly_params prm = {
		.a = 4, .h = 2, .p = 3, .g = 7, .spines = 3, .width = 1,
		.caless = none, .ncaless = 2, .shuffle = true, .seed = 9,
	};
	struct ot_error err = { 0 };
	struct ot_check_report *rep;
	struct ot_routing *r;
	struct ot_fabric *f;
	uint32_t n, ca = 0;
	double dl;

	for (dl = 0; dl < 0.1; dl += 0.05) {
		prm.drop_links = dl;
		prm.drop_seed = 3;
		f = ot_gen_dragonfly(&prm, &err);
		ck_assert_msg(f, "%s", err.msg);
		ck_assert(!ot_fabric_set_ca_lmc(f, 0, &err));
		for (n = 0, ca = 0; n < f->nnodes; n++) {
			if (ot_is_switch(f, n))
				continue;
			ca++;
			ck_assert_uint_ne(name_group(f, n), 1);
			ck_assert_uint_ne(name_group(f, n), 4);
		}
		ck_assert_uint_eq(ca, (7 - 2) * 4 * 3);
		roles_as_built(f, 7, "gen_caless");
		r = route(f, "gen_caless");
		checked(f, r, &rep, "gen_caless");
		ck_assert_uint_le(r->nvls, dl > 0 ? 2 : 1);
		ot_check_report_free(rep);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
	prm.caless = bad;
	prm.ncaless = 1;
	ck_assert_ptr_null(ot_gen_dragonfly(&prm, &err));
	ck_assert_msg(strstr(err.msg, "CA-less group 7"), "%s", err.msg);
	prm.caless = none;
	prm.spines = 0;
	ck_assert_ptr_null(ot_gen_dragonfly(&prm, &err));
	ck_assert_msg(strstr(err.msg, "need --spines"), "%s", err.msg);
}
END_TEST

/*
 * The engines weigh their own routings by ot_routing_uniform_busiest()
 * (model/routing.h); it must read the tables as the checker does.  On
 * drawn Dragonfly+ fabrics, intact and damaged, LMC 0 and 1: its most
 * flows on a switch-to-switch link (base LIDs) is the checker's largest
 * network load times N - 1, and with the CA links at LMC 0 its largest
 * load of any link.
 */
START_TEST(uniform_busiest_as_checker)
{
	struct ot_prng rng = { .state = 6061 };
	struct ot_traffic_opts opts = {
		.patterns = 1u << OT_PATTERN_UNIFORM,
	};
	unsigned int i, damaged = 0;
	char what[200];

	for (i = 0; i < 24; i++) {
		struct shape sh = draw(&rng);
		struct ot_balance_report *rep = NULL;
		const struct ot_pattern_load *pl;
		struct ot_error err = { 0 };
		struct ot_fabric *f;
		struct ot_routing *r;
		unsigned int lmc = i % 3 == 2;
		int64_t ours;
		double n1;

		sh.dl = i % 2 ? 0.05 : 0;
		f = dfplus(&sh, true, sh.seed + 1);
		describe(&sh, what, sizeof(what));
		ck_assert(!ot_fabric_set_ca_lmc(f, lmc, &err));
		if (ot_engine_run(ot_engine_find("df-static"), f, &r, &err)) {
			ot_fabric_free(f);
			continue;
		}
		damaged += sh.dl > 0;
		ck_assert_int_eq(ot_balance_run(f, r, &opts, &rep, &err), 0);
		pl = ot_balance_pattern(rep, 0);
		ck_assert_uint_eq(pl->unrouted, 0);
		n1 = (double)ot_balance_ncas(rep) - 1;
		ours = ot_routing_uniform_busiest(r, OT_UNIFORM_BASE_LIDS, 0);
		ck_assert_msg(ours == llround(pl->base.max_network_load * n1),
			      "%s (LMC %u): %" PRId64 " flows, checker %g", what,
			      lmc, ours, pl->base.max_network_load * n1);
		if (!lmc)
			ck_assert_int_eq(
				ot_routing_uniform_busiest(r, OT_UNIFORM_CA_LINKS,
							   0),
				llround(pl->base.max_load * n1));
		ck_assert_int_eq(ot_routing_uniform_busiest(r, 0, 1), -1);
		ot_balance_report_free(rep);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
	ck_assert_uint_gt(damaged, 6);
}
END_TEST

/*
 * A held-out draw (ports shuffled by its seed) routed on at most 2 VLs
 * with the checker's verdicts and uniform at dfsssp's figure or above;
 * the SLs its paths use.
 */
static uint32_t at_dfsssp(const struct shape *sh, double dfsssp)
{
	struct ot_check_report *rep;
	const struct ot_check_counts *k;
	struct ot_fabric *f;
	struct ot_routing *r;
	char what[240];
	uint32_t sls;
	double u;

	f = dfplus(sh, true, sh->seed);
	describe(sh, what, sizeof(what));
	r = route(f, what);
	k = checked(f, r, &rep, what);
	ck_assert_msg(!k->violations && !(k->vls_used & ~3u),
		      "%s: VLs used %#x", what, k->vls_used);
	sls = k->sls_used;
	ot_check_report_free(rep);
	u = uniform_of(f, r);
	ck_assert_msg(r->nvls <= 2 && u >= dfsssp - 1e-3,
		      "%s: %u VLs, uniform %.4f, dfsssp's %.3f", what, r->nvls,
		      u, dfsssp);
	ot_routing_free(r);
	ot_fabric_free(f);
	return sls;
}

/*
 * Where a group pair's usable cables are short, the flows that would
 * turn take a third group (route/df_plus_alt.c ot_dfp_alt_thru()).
 * Issue 23's held-out draw 635 (7 groups of 4 leaves x 2 CAs, 5 spines
 * with 3 global cables each, consecutive, 5 % missing): the one cable
 * left from group 3 to group 6 took every flow from 3 to 6, those of the
 * leaf that lost the spine holding it through a turn in group 3 (SL 3),
 * and the one back every flow from 6 to 3, those toward a leaf that lost
 * the landing spine through a landing turn (SL 4): 64 flows on each,
 * uniform 0.859 against dfsssp's 1.000.  Through a third group on the
 * damage layer's shape (SL 8) where less loaded, dfsssp's figure on
 * these three draws, each below it before (0.859, 0.654, 0.356 on
 * main; dfsssp's from `osmtopo compare -t 300 NET dfsssp`, NET =
 * `osmtopo gen dragonfly A H --spines S --cas P --groups G
 * --arrangement ARR --shuffle-ports X --seed X --drop-links D`).
 * Drawn: 24 shapes with parallel cables per group pair (consecutive,
 * at most S * h / 2 + 1 groups), 5 % missing, shuffled ports: rule
 * kept, every pair reached, no credit loop, at most 2 VLs, and some
 * draw lost a cable of a pair without losing the pair.
 */
START_TEST(turns_through_third_groups)
{
	static const struct {
		struct shape sh;
		double dfsssp;
	} floors[] = {
		{ { .a = 4, .s = 5, .h = 3, .p = 2, .w = 1, .g = 7,
		    .arr = OT_DF_CONSECUTIVE, .seed = 635, .dl = 0.05 }, 1.0 },
		{ { .a = 3, .s = 5, .h = 2, .p = 3, .w = 1, .g = 6,
		    .arr = OT_DF_CONSECUTIVE, .seed = 40034, .dl = 0.05 },
		  0.841 },
		{ { .a = 6, .s = 5, .h = 3, .p = 4, .w = 1, .g = 9,
		    .arr = OT_DF_PALMTREE, .seed = 30033, .dl = 0.1 }, 0.361 },
	};
	struct ot_prng rng = { .state = 635 };
	unsigned int j, routed = 0, short_pair = 0, thru = 0;
	char what[240];

	for (j = 0; j < sizeof(floors) / sizeof(floors[0]); j++)
		thru += !!(at_dfsssp(&floors[j].sh, floors[j].dfsssp) & 0x100);
	ck_assert_uint_eq(thru, 3);
	for (j = 0; j < 24; j++) {
		struct shape sh = draw(&rng);
		unsigned int cab[12][12] = { { 0 } }, most = 0, G, H, p;
		struct ot_check_report *rep;
		const struct ot_check_counts *k;
		struct ot_fabric *f;
		struct ot_routing *r;
		uint32_t n;

		sh.arr = OT_DF_CONSECUTIVE;
		sh.s = sh.s < 2 ? 2 : sh.s;
		sh.a = sh.a < 3 ? 3 : sh.a;
		sh.g = 3 + sh.g % (sh.s * sh.h / 2 > 1 ? sh.s * sh.h / 2 - 1 : 1);
		sh.dl = 0.05;
		f = dfplus(&sh, true, sh.seed + 1);
		describe(&sh, what, sizeof(what));
		for (n = 0; n < f->nnodes; n++)
			for (p = 1; ot_is_switch(f, n) &&
				    f->node[n].desc[2] == 'S' &&
				    p <= f->node[n].nports; p++) {
				int32_t x = f->node[n].port[p].peer;

				if (x < 0 || !ot_is_switch(f, x))
					continue;
				G = name_group(f, n);
				H = name_group(f, (uint32_t)x);
				if (G != H && G < 12 && H < 12)
					cab[G][H]++;
			}
		for (G = 0; G < sh.g; G++)
			for (H = 0; H < sh.g; H++)
				most = cab[G][H] > most ? cab[G][H] : most;
		for (G = 0, p = 0; G < sh.g; G++)
			for (H = 0; H < sh.g; H++)
				p |= G != H && cab[G][H] && cab[G][H] < most;
		r = route_or_cut(f, what, true);
		if (!r) {
			ot_fabric_free(f);
			continue;
		}
		short_pair += p;
		k = checked(f, r, &rep, what);
		ck_assert_msg(!k->violations && r->nvls <= 2 &&
				      !(k->vls_used & ~3u),
			      "%s: %u VLs (used %#x)", what, r->nvls,
			      k->vls_used);
		routed++;
		ot_check_report_free(rep);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
	ck_assert_msg(routed >= 20 && short_pair >= 5,
		      "%u routed, %u with a pair short of cables", routed,
		      short_pair);
}
END_TEST

/*
 * Issue 23's held-out draws below dfsssp on main (the `vs-dfp-41` and
 * `vs-dfp-53` samples; dfsssp's figure from the same `osmtopo compare`
 * run, on 7 or 8 VLs):
 * - 671 (5 groups of 2 leaves x 2 CAs, 5 spines with one global cable
 *   each, one cable per group pair, consecutive): a spine that lost its
 *   global cable and the one leaf below it that goes by the rule had no
 *   port toward the LIDs of a group its group still reaches, so the
 *   damage layer took that whole group's flows through two third
 *   groups' cables (28 flows each, the direct cable 8): 0.679; with
 *   such idle spines sent down to a leaf (idle_spines() in df_plus.c)
 *   0.864, the bound of that group's three cables left (64 flows);
 * - 470 (3 groups of 5 leaves x 1 CA, 5 spines, 2 cables per pair): a
 *   landing spine's lost leaf forces its LID onto the other cable, and
 *   the group's LID-sized deal put 15 flows on one cable and 10 on the
 *   other: 0.933; each leaf's spine by load (ot_dfp_alt_leaves()) 1.0;
 * - 33 (4 groups of 5 leaves x 5 CAs, 3 spines with 2 global cables, 2
 *   per pair): group 1's one cable left toward group 0 carried all 625
 *   flows, its landing spine lost two leaves (SL 4): 0.158; the routing
 *   through third groups without shared detours 0.222.
 * Each at dfsssp's figure or above on at most 2 VLs, with the checker's
 * verdicts.  Drawn: 30 shapes of their kind (3 to 6 groups, one or two
 * cables per pair, consecutive or palm-tree, 1 to 3 CAs a leaf), 5 % of
 * the cables missing, shuffled ports: rule kept, every pair reached, no
 * credit loop, at most 2 VLs.
 */
START_TEST(idle_spines_and_leaf_split)
{
	static const struct {
		struct shape sh;
		double dfsssp;
	} floors[] = {
		{ { .a = 2, .s = 5, .h = 1, .p = 2, .w = 1, .g = 5,
		    .arr = OT_DF_CONSECUTIVE, .seed = 671, .dl = 0.05 },
		  0.792 },
		{ { .a = 5, .s = 5, .h = 1, .p = 1, .w = 1, .g = 3,
		    .arr = OT_DF_CONSECUTIVE, .seed = 470, .dl = 0.05 }, 1.0 },
		{ { .a = 5, .s = 3, .h = 2, .p = 5, .w = 1, .g = 4,
		    .arr = OT_DF_CONSECUTIVE, .seed = 33, .dl = 0.05 }, 0.180 },
	};
	struct ot_prng rng = { .state = 671 };
	unsigned int j, routed = 0;
	char what[240];

	for (j = 0; j < sizeof(floors) / sizeof(floors[0]); j++)
		at_dfsssp(&floors[j].sh, floors[j].dfsssp);
	for (j = 0; j < 30; j++) {
		struct shape sh = draw(&rng);
		struct ot_check_report *rep;
		const struct ot_check_counts *k;
		struct ot_fabric *f;
		struct ot_routing *r;

		sh.arr = j % 2 ? OT_DF_PALMTREE : OT_DF_CONSECUTIVE;
		sh.s = sh.s < 2 ? 2 : sh.s;
		sh.w = 1;
		sh.p = 1 + sh.p % 3;
		sh.g = 3 + j % 4;
		if (sh.g > sh.s * sh.h + 1)
			sh.g = sh.s * sh.h + 1;
		sh.dl = 0.05;
		f = dfplus(&sh, true, sh.seed + 1);
		describe(&sh, what, sizeof(what));
		r = route_or_cut(f, what, true);
		if (!r) {
			ot_fabric_free(f);
			continue;
		}
		k = checked(f, r, &rep, what);
		ck_assert_msg(!k->violations && r->nvls <= 2 &&
				      !(k->vls_used & ~3u),
			      "%s: %u VLs (used %#x)", what, r->nvls,
			      k->vls_used);
		routed++;
		ot_check_report_free(rep);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
	ck_assert_msg(routed >= 24, "%u routed", routed);
}
END_TEST


static Suite *dragonfly_plus_suite(void)
{
	Suite *s = suite_create("dragonfly_plus");
	TCase *tc = tcase_create("dragonfly_plus");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, gen_shape);
	tcase_add_test(tc, gen_caless);
	tcase_add_test(tc, random_intact);
	tcase_add_test(tc, fewer_groups);
	tcase_add_test(tc, random_damaged);
	tcase_add_test(tc, lmc_offsets);
	tcase_add_test(tc, random_valiant);
	tcase_add_test(tc, damage_layer);
	tcase_add_test(tc, shared_detours);
	tcase_add_test(tc, heavy_damage);
	tcase_add_test(tc, two_vls_damaged);
	tcase_add_test(tc, given_up_keeps_rule);
	tcase_add_test(tc, turn_onto_shared_detour);
	tcase_add_test(tc, caless_leaves);
	tcase_add_test(tc, valiant_permutations);
	tcase_add_test(tc, best_lid_not_below_base);
	tcase_add_test(tc, uniform_busiest_as_checker);
	tcase_add_test(tc, refuse_others);
	tcase_add_test(tc, broken_table_caught);
	suite_add_tcase(s, tc);
	tc = tcase_create("third_groups");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, turns_through_third_groups);
	tcase_add_test(tc, idle_spines_and_leaf_split);
	suite_add_tcase(s, tc);
	return s;
}

OT_UNIT_MAIN(dragonfly_plus_suite)
