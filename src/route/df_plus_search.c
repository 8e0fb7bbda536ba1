// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * df-static on a Dragonfly+ (route/df_plus.c): the search among its
 * routings (ot_dfp_route_alt()), each made whole by df_plus.c's own
 * steps (struct dfp_calls) with its flags, and the figure that keeps
 * one of them.
 *
 * Where some group has no usable cable toward a leaf or some leaf takes
 * a detour through a third group (at LMC 0, the first routing done), the
 * other routings too (route/df_plus_alt.c, alt 1 and 2; and where shared
 * detours were taken, the first routing without them: with few groups a
 * detour's spine sends it over its one cable to the one third group,
 * which then carries two shares); where a cable or switch is missing at
 * all (ot_dfp_uneven()), the first routing and alt 1 with each group's
 * usable cables by load (ot_dfp_alt_cables()), and those with the
 * turning flows through third groups (ot_dfp_alt_thru(), where the
 * first routing turns somewhere: SL 3 or 4): each kept in *c and out
 * where it takes no more VLs and its busiest link carries fewer flows
 * than the one kept so far.  After those (so that what main's routings
 * reached is the floor): where the first routing met idle spines
 * (idle_spines() in df_plus.c), every routing again with them sent
 * down; where it shared detours and turned, the routing through third
 * groups without shared detours; on every uneven fabric, the seeded
 * routing by load with each leaf's spine by load (ot_dfp_alt_leaves()).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/routing.h"
#include "route/df_plus_cands.h"
#include "route/df_plus_rule.h"

/* One routing of the search: the flags of struct dfp_ctx it sets. */
struct dfp_variant {
	uint8_t alt, cabload;
	bool noshare, thru, lsplit, idle;
};

static int64_t busiest(struct dfp_ctx *c, const struct ot_routing *out)
{
	int64_t m = ot_routing_uniform_busiest(out, OT_UNIFORM_BASE_LIDS, 0);

	return m < 0 ? ot_error_nomem(c->err, "df-static") : m;
}

/*
 * Variant v routed into a routing of its own, kept in *c and out where
 * it takes no more VLs (or at most 2) and its busiest link carries
 * fewer flows than *m0's, or as many on fewer VLs: 1 kept, 0 not, -1
 * error (*m0 -1).
 */
static int route_try(struct dfp_ctx *c, struct ot_routing *out,
		     const struct dfp_calls *k, const struct dfp_variant *v,
		     bool seeded, int64_t *m0)
{
	struct dfp_ctx a = { .f = c->f, .d = c->d, .err = c->err,
			     .alt = v->alt, .noshare = v->noshare,
			     .cabload = v->cabload, .thru = v->thru,
			     .lsplit = v->lsplit, .idle = v->idle,
			     .prior = seeded ? out : NULL };
	struct ot_routing *o = ot_routing_new(c->f);
	struct dfp_vlrule v0 = ot_dfp_ctx_vlrule(c, false), v1;
	unsigned int vls0, vls1;
	int64_t m1;
	int kept = 0;

	m1 = !o ? ot_error_nomem(c->err, "df-static") :
	     k->tables(&a, o) ? -1 : busiest(&a, o);
	a.prior = NULL; /* out's tables change hands below */

	v1 = ot_dfp_ctx_vlrule(&a, false);
	vls0 = ot_dfp_vlrule_vls(&v0);
	vls1 = ot_dfp_vlrule_vls(&v1);
	if (m1 < 0) {
		*m0 = -1;
		kept = -1;
	} else if ((m1 < *m0 && (vls1 <= vls0 || vls1 <= 2)) ||
		   (m1 == *m0 && vls1 < vls0)) {
		struct dfp_ctx t = *c;
		uint8_t **lft = out->lft;

		*c = a;
		a = t;
		out->lft = o->lft;
		o->lft = lft;
		*m0 = m1;
		kept = 1;
	}
	k->free(&a);
	ot_routing_free(o);
	return kept;
}

/*
 * The seeded passes (where the routing by load was tried): the kept
 * routing's variant with cables by load and turns, its loads seeding
 * the new one's (c->prior); where that is not kept and the other
 * routings ran (damage layer or detours), alt 1 with them (alt 2 where
 * alt 1 was kept): the damage layer's and the detours' cables by the
 * seeded loads too; up to DFP_SEEDED times while one is kept.
 * The routing by load sees only the LIDs routed before the one it
 * routes, so its first choices are made on empty links (draw 568 of
 * issue 23: three LIDs per leaf over two spines, every group sending
 * two of them down the same spine); seeded, each LID sees every other
 * LID's flows, by the kept routing where it is not routed anew yet.
 * The candidates, shapes and SLs are the routing by load's (only which
 * candidate a switch takes changes), VL 1 is searched afterwards as
 * for every routing (df_plus_vl1.c), so the deadlock argument is that
 * routing's; the checker proves each table.
 */
#define DFP_SEEDED 2

/* The seeded passes from the routing kept in *c (lsplit: with each
 * leaf's spine by load, and no try of the damage layer's other alt). */
static void route_seeded(struct dfp_ctx *c, struct ot_routing *out,
			 const struct dfp_calls *k, bool other, bool lsplit,
			 int64_t *m0)
{
	uint32_t x;
	int kept = 1;

	for (x = 0; *m0 >= 0 && kept > 0 && x < DFP_SEEDED; x++) {
		struct dfp_variant v = { c->alt, 2, c->noshare, c->thru,
					 lsplit, c->idle };

		kept = route_try(c, out, k, &v, true, m0);
		if (!kept && other && !lsplit) { /* damage layer by load */
			v.alt = c->alt == 1 ? 2 : 1;
			kept = route_try(c, out, k, &v, true, m0);
		}
	}
}

int ot_dfp_route_alt(struct dfp_ctx *c, struct ot_routing *out,
		     const struct dfp_calls *k)
{
	int64_t m0 = busiest(c, out);
	bool other = c->damage || c->any_detour, uneven = ot_dfp_uneven(c);
	bool shared = !c->damage && c->any_detour, idle = c->any_idle;
	bool turns = uneven && (c->any_turn || c->any_land);
	const struct dfp_variant all[] = {
		{ 1, 0, false, false, false, false },
		{ 2, 0, false, false, false, false },
		{ 0, 0, true, false, false, false },
		{ 0, 1, false, false, false, false },
		{ 0, 2, false, false, false, false },
		{ 1, 2, false, false, false, false },
		{ 0, 1, true, false, false, false },
		{ 0, 2, true, false, false, false },
		{ 0, 2, false, true, false, false },
		{ 1, 2, false, true, false, false },
	};
	const bool use[] = {
		other, other, shared, uneven, uneven, other && uneven,
		shared && uneven, shared && uneven, turns, other && turns,
	};
	uint32_t x;

	for (x = 0; m0 >= 0 && x < sizeof(all) / sizeof(*all); x++)
		if (use[x])
			route_try(c, out, k, &all[x], false, &m0);
	if (uneven)
		route_seeded(c, out, k, other, false, &m0);
	/*
	 * Where the first routing met idle spines, every routing again
	 * with them sent down (its turns then show only now: those with
	 * turns wherever cables or switches are missing).
	 */
	for (x = 0; idle && m0 >= 0 && x < sizeof(all) / sizeof(*all); x++) {
		struct dfp_variant v = all[x];

		v.idle = true;
		if (use[x] || (uneven && v.thru))
			route_try(c, out, k, &v, false, &m0);
	}
	if (uneven && idle)
		route_seeded(c, out, k, other, false, &m0);
	/*
	 * Where the first routing took shared detours and turns, the
	 * routing through third groups without the shared detours too
	 * (issue 23's draw 33: a group's one cable left toward another
	 * lands on a spine two of that group's leaves lost, the shared
	 * detours crowd a third group's cables and the routing without
	 * them had no way around the landing turns).
	 */
	for (x = 0; shared && turns && m0 >= 0 && x < 2; x++) {
		struct dfp_variant v = { (uint8_t)x, 2, true, true, false,
					 c->idle };

		route_try(c, out, k, &v, false, &m0);
	}
	if (uneven) /* and each leaf's spine by load, seeded */
		route_seeded(c, out, k, other, true, &m0);
	return m0 < 0 ? -1 : 0;
}
