// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of hdor on KNS fabrics whose lines are fat trees
 * (src/gen/kns_ft.c -> src/topo/kns_ft.c -> src/route/hdor_ft.c), on
 * fabrics drawn at random: k, n, stages, children and parents per stage,
 * parallel cables, CAs per router, shuffled ports.  Each is held, through
 * the checker (src/check, model/cdg), to: every pair reached, no
 * forwarding loop, minimal, no credit loop on one VL, the engine's own
 * rule (dimension order, up then down in each line), and uniform
 * throughput within 5% of the bound of dimension-order routing on that
 * fabric; the channel ranks of hdor_ft.c's deadlock argument strictly
 * increase on every path; and the tables do not depend on port numbers or
 * node order.  Damage, twists and the escape layer: test_hdor_ft_damage.c;
 * helpers shared by both: hdor_ft_unit.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "gen/gen.h"
#include "model/prng.h"
#include "model/routing.h"
#include "route/engine.h"
#include "topo/kns.h"
#include "topo/miscable.h"

#include "hdor_ft_unit.h"
#include "unit.h"

/*
 * gen() with another labelling: the GUIDs of all nodes permuted at
 * random (the recognizer's tie-breaks, the stage positions and the
 * coordinates along each line follow them), ports shuffled with seed;
 * rng NULL: the generator's GUIDs, as `osmtopo gen` writes them.
 */
static struct ot_fabric *gen_labelled(const struct ot_kns_params *p,
				      struct ot_prng *rng)
{
	struct ot_error err = { 0 };
	struct ot_fabric *f = ot_gen_kns(p, &err);
	uint32_t i;

	ck_assert_msg(f, "gen: %s", err.msg);
	/* no rng: the generator's own GUIDs (they follow the seed) */
	for (i = 0; i < f->nnodes && rng; i++)
		f->node[i].guid = name_guid(f->node[i].desc);
	for (i = f->nnodes; i > 1 && rng; i--) {
		uint32_t j = ot_prng_below(rng, i);
		uint64_t g = f->node[i - 1].guid;

		f->node[i - 1].guid = f->node[j].guid;
		f->node[j].guid = g;
	}
	ck_assert_msg(!ot_fabric_set_ca_lmc(f, 0, &err), "LIDs: %s", err.msg);
	return f;
}

/*
 * A fabric of the class whose balance depended most on the labelling,
 * drawn more often than draw_some() does: lines of two stages or more
 * whose routers sit on w_1 = 2 leaves that do not divide the m_1 = 3
 * routers under them (k 6, 9 or 12), a single spine per class (w_2 = 1)
 * half of the time, parallel cables (router to leaf, leaf to spine)
 * drawn, 2 or 3 CAs (1 at k = 12), so the lines, not the CAs, bound
 * the throughput.  `kns 9 2 --cas 2 --links 2 --down 3,3 --up 2,1
 * --parallel 2` is one of them, and `--cas 3` (243 CAs, more than
 * draw_some() draws) of the same.
 */
static void draw_hard(struct ot_prng *rng, struct ot_kns_params *p,
		      char *desc, size_t len)
{
	static const unsigned int ks[] = { 6, 9, 9, 12 }, w2[] = { 1, 1, 2, 3 };
	unsigned int i;

	memset(p, 0, sizeof(*p));
	p->k = ks[ot_prng_below(rng, 4)];
	p->n = 2;
	p->cas = p->k == 12 ? 1 : 2 + ot_prng_below(rng, 2);
	p->stages = p->k == 12 ? 2 + ot_prng_below(rng, 2) : 2;
	p->line_down[1] = 3;
	p->line_down[2] = p->k / 3;
	if (p->stages == 3) {
		p->line_down[2] = 2;
		p->line_down[3] = 2;
	}
	p->line_up[1] = 2;
	for (i = 2; i <= p->stages; i++) {
		p->line_up[i] = w2[ot_prng_below(rng, 4)];
		p->line_links[i] = 1 + ot_prng_below(rng, 2);
	}
	p->links = 1 + ot_prng_below(rng, 3);
	p->shuffle = true;
	p->seed = ot_prng_next(rng);
	describe(p, desc, len);
}

/*
 * The uniform throughput bound of dimension-order routing with one port
 * per destination on an intact fabric.  In a line of dimension d every
 * source router sends each destination of the line one indivisible flow
 * of u = c k^d / (N - 1) (the CAs that enter the line there); a stage-i
 * group of g routers (the router itself for i = 0) holds
 * D = g c k^(n-1-d) destinations and has B = w_1..w_(i+1) bundles of
 * L = L_(i+1) cables to the next stage.  Into it: (k - g) flows per
 * destination over B L cables, whole flows; and with B = 1 each
 * destination on one cable of the bundle.  Out of it likewise, g flows to
 * each of (k - g) c k^(n-1-d) destinations.  And in chunks: where
 * w_1..w_j = 1 (a stage-j group of gs routers under a single switch),
 * the gs flows of such a group to one destination meet at that switch
 * and stay on one cable from there on, up and down (one LFT entry per
 * destination at every switch), so every cable out of or into a larger
 * group carries a multiple of gs flows of each destination.  1 / the
 * largest load, at most 1.
 */
static double ceil_div(double a, double b)
{
	double q = a / b;
	double f = (double)(uint64_t)q;

	return f < q - 1e-9 ? f + 1 : f;
}

static double dor_bound(const struct ot_kns_params *p)
{
	double N = p->cas, load = 1, v, kd = 1;
	unsigned int i, d;

	for (i = 0; i < p->n; i++)
		N *= p->k;
	for (d = 0; d < p->n; d++, kd *= p->k) {
		double u = p->cas * kd / (N - 1);
		double per = p->cas * (N / p->cas) / p->k / kd; /* c k^(n-1-d) */
		double g = 1, W = 1, gs = 1;

		for (i = 0; i < p->stages; i++) {
			double L = i ? (p->line_links[i + 1] ?
					p->line_links[i + 1] : 1) : p->links;
			double B = W * p->line_up[i + 1];
			double din = g * per, dout = (p->k - g) * per;

			if (g >= p->k)
				break;
			v = ceil_div(din * (p->k - g) / gs, B * L) * gs * u;
			if (v > load)
				load = v;
			v = ceil_div(dout * g / gs, B * L) * gs * u;
			if (v > load)
				load = v;
			if (B == 1) {
				v = ceil_div(din, L) * (p->k - g) * u;
				if (v > load)
					load = v;
				v = ceil_div(dout, L) * g * u;
				if (v > load)
					load = v;
			}
			g *= p->line_down[i + 1];
			W = B;
			if (W == 1)
				gs = g;
		}
	}
	return 1 / load;
}

/*
 * The share of the bound hdor is held to on every drawn fabric (it was
 * 90% where w_1 >= 2 does not divide m_1 in lines of two stages or more,
 * until the phantom edges of route/hdor_ft_col.c).
 */
#define HELD_TO 0.95

/* hdor's uniform throughput on f (checked OK, minimal, one VL). */
static double uniform_of(const struct ot_fabric *f, const char *desc)
{
	struct ot_check_report *rep = NULL;
	const struct ot_check_counts *cn;
	struct ot_routing *r = route(f);
	double u;

	checked(f, r, &rep);
	cn = ot_check_counts(rep);
	ck_assert_msg(ot_check_ok(rep), "%s: check not OK", desc);
	ck_assert_msg(cn->minimal == cn->reached && cn->reached == cn->pairs &&
		      !cn->credit_loops && cn->vls_used == 1, "%s", desc);
	u = ot_balance_pattern(ot_check_balance(rep), 0)->base.throughput;
	ot_check_report_free(rep);
	ot_routing_free(r);
	return u;
}

/* The whole property on one drawn fabric. */
static void property(struct ot_prng *rng, unsigned int lmc, bool several)
{
	struct ot_kns_params p, q;
	struct ot_check_report *rep = NULL;
	const struct ot_check_counts *cn;
	const struct ot_pattern_load *u;
	struct ot_fabric *f, *g;
	struct ot_routing *r, *rg;
	char desc[256];
	double bound;

	draw_some(rng, &p, desc, sizeof(desc), several);
	f = gen(&p, lmc);
	r = route(f);
	ck_assert_msg(r->promise.minimal == OT_MINIMAL_ALL, "%s", desc);
	ck_assert_uint_eq(r->nvls, 1);
	checked(f, r, &rep);
	cn = ot_check_counts(rep);
	ck_assert_msg(ot_check_ok(rep), "%s: check not OK", desc);
	ck_assert_msg(cn->pairs > 0 && cn->reached == cn->pairs, "%s", desc);
	ck_assert_msg(cn->minimal == cn->reached, "%s: %" PRIu64 " of %" PRIu64
		      " minimal", desc, cn->minimal, cn->reached);
	ck_assert_msg(!cn->credit_loops, "%s: credit loops", desc);
	ck_assert_msg(cn->vls_used == 1, "%s: VLs 0x%x", desc, cn->vls_used);
	ck_assert_msg(!cn->violations, "%s: %" PRIu64 " violations", desc,
		      cn->violations);
	u = ot_balance_pattern(ot_check_balance(rep), 0);
	bound = dor_bound(&p);
	ck_assert_msg(u->base.throughput >= HELD_TO * bound - 1e-9,
		      "%s: uniform %.4f, bound %.4f", desc, u->base.throughput,
		      bound);
	ck_assert_msg(!rank_violations(f, r), "%s: ranks", desc);
	ot_check_report_free(rep);
	/* the same fabric, other ports and node order; and none shuffled */
	q = p;
	q.seed = ot_prng_next(rng);
	g = gen(&q, lmc);
	rg = route(g);
	ck_assert_msg(!differences(f, r, g, rg), "%s: shuffle seed %" PRIu64
		      " routes differently", desc, q.seed);
	ot_routing_free(rg);
	ot_fabric_free(g);
	q.shuffle = false;
	g = gen(&q, lmc);
	rg = route(g);
	ck_assert_msg(!differences(f, r, g, rg), "%s: unshuffled differs",
		      desc);
	ot_routing_free(rg);
	ot_fabric_free(g);
	ot_routing_free(r);
	ot_fabric_free(f);
}

START_TEST(random_fabrics)
{
	struct ot_prng rng = { .state = 0x22 + (uint64_t)_i * 7919 };
	unsigned int i;

	for (i = 0; i < rounds(); i++)
		property(&rng, 0, false);
}
END_TEST

/* Routers with parallel cables into lines of two stages or more. */
START_TEST(random_parallel)
{
	struct ot_prng rng = { .state = 0x2222 + (uint64_t)_i * 104729 };
	unsigned int i;

	for (i = 0; i < rounds(); i++)
		property(&rng, 0, true);
}
END_TEST

START_TEST(random_fabrics_lmc)
{
	struct ot_prng rng = { .state = 0x5e02 };

	property(&rng, 1, false);
	property(&rng, 1, false);
}
END_TEST

/* The issue's fabric: 8x8 routers, 2 CAs, lines of 2 leaves, 4 spines. */
START_TEST(issue_fabric)
{
	struct ot_kns_params p = {
		.k = 8, .n = 2, .cas = 2, .links = 1, .stages = 2,
		.line_down = { 0, 4, 2 }, .line_up = { 0, 1, 4 },
		.shuffle = true, .seed = 22,
	};
	struct ot_fabric *f = gen(&p, 0);
	struct ot_routing *r = route(f);
	struct ot_check_report *rep = NULL;
	const struct ot_pattern_load *u;

	checked(f, r, &rep);
	ck_assert(ot_check_ok(rep));
	u = ot_balance_pattern(ot_check_balance(rep), 0);
	ck_assert_double_ge(u->base.throughput, 0.54);
	ck_assert_double_le(u->base.throughput, 127.0 / 224 + 1e-9);
	ot_check_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * Routers on two leaves of each line, 3 CAs: the greedy alone gave 92.3%
 * of the bound here; with D-mod-K at the routers tried too, the bound.
 */
START_TEST(multi_homed_fabric)
{
	struct ot_kns_params p = {
		.k = 8, .n = 2, .cas = 3, .links = 1, .stages = 2,
		.line_down = { 0, 4, 2 }, .line_up = { 0, 2, 1 },
		.line_links = { 0, 1, 2 }, .shuffle = true, .seed = 7,
	};
	struct ot_fabric *f = gen(&p, 0);
	struct ot_routing *r = route(f);
	struct ot_check_report *rep = NULL;
	const struct ot_pattern_load *u;

	checked(f, r, &rep);
	ck_assert(ot_check_ok(rep));
	u = ot_balance_pattern(ot_check_balance(rep), 0);
	ck_assert_msg(u->base.throughput >= 0.95 * dor_bound(&p) - 1e-9,
		      "uniform %.4f, bound %.4f", u->base.throughput,
		      dor_bound(&p));
	ot_check_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * Routers with parallel cables (--links 2, 3) or two leaves into lines of
 * two stages: fabrics the code before the rip-up passes (and before
 * router LIDs stopped counting as load) left at 85.7%, 85.7% and 90.0%
 * of the bound; held to 95%.
 */
START_TEST(parallel_cables)
{
	static const struct ot_kns_params ps[] = {
		{ .k = 8, .n = 2, .cas = 2, .links = 2, .stages = 2,
		  .line_down = { 0, 2, 4 }, .line_up = { 0, 1, 2 },
		  .line_links = { 0, 1, 1 } },
		{ .k = 8, .n = 2, .cas = 2, .links = 3, .stages = 2,
		  .line_down = { 0, 2, 4 }, .line_up = { 0, 1, 2 },
		  .line_links = { 0, 1, 1 } },
		{ .k = 9, .n = 2, .cas = 1, .links = 1, .stages = 2,
		  .line_down = { 0, 3, 3 }, .line_up = { 0, 2, 1 },
		  .line_links = { 0, 1, 1 } },
	};
	struct ot_kns_params p = ps[_i];
	struct ot_fabric *f;
	struct ot_routing *r;
	struct ot_check_report *rep = NULL;
	const struct ot_pattern_load *u;

	p.shuffle = true;
	p.seed = 5 + _i;
	f = gen(&p, 0);
	r = route(f);
	checked(f, r, &rep);
	ck_assert(ot_check_ok(rep));
	u = ot_balance_pattern(ot_check_balance(rep), 0);
	ck_assert_msg(u->base.throughput >= 0.95 * dor_bound(&p) - 1e-9,
		      "fabric %d: uniform %.4f, bound %.4f", _i,
		      u->base.throughput, dor_bound(&p));
	ot_check_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * Balance whatever the labelling: fabrics whose balance depended on the
 * GUIDs before the colouring (route/hdor_ft_col.c), the first under the
 * generator's 40 labellings of --shuffle-ports 0..39, the others under
 * random GUID permutations and port shuffles, held to 95% of the bound.
 * The spreading before it gave 85.7% on 5 of the 40 of the first, 90.0%
 * on 9 of the 12 of the second and on all 16 of the third; the colouring
 * before the phantom edges 90.0% on 15 of the 16 of the fourth; before
 * the agreeing swaps and the top's cables down set (the fourth colouring
 * way) 93.3% on 3 of the 40 of the fifth and 1 of the 40 of the sixth.
 */
START_TEST(labellings)
{
	static const struct ot_kns_params ps[] = {
		{ .k = 8, .n = 2, .cas = 2, .links = 2, .stages = 2,
		  .line_down = { 0, 2, 4 }, .line_up = { 0, 1, 2 } },
		{ .k = 8, .n = 2, .cas = 3, .links = 2, .stages = 3,
		  .line_down = { 0, 2, 2, 2 }, .line_up = { 0, 2, 2, 2 } },
		{ .k = 9, .n = 2, .cas = 2, .links = 1, .stages = 2,
		  .line_down = { 0, 3, 3 }, .line_up = { 0, 2, 2 } },
		{ .k = 9, .n = 2, .cas = 2, .links = 2, .stages = 2,
		  .line_down = { 0, 3, 3 }, .line_up = { 0, 2, 1 },
		  .line_links = { 0, 1, 2 } },
		{ .k = 9, .n = 2, .cas = 3, .links = 1, .stages = 2,
		  .line_down = { 0, 3, 3 }, .line_up = { 0, 2, 1 },
		  .line_links = { 0, 1, 2 } },
		{ .k = 9, .n = 2, .cas = 3, .links = 2, .stages = 2,
		  .line_down = { 0, 3, 3 }, .line_up = { 0, 2, 1 },
		  .line_links = { 0, 1, 2 } },
	};
	static const unsigned int times[] = { 40, 12, 16, 16, 40, 40 };
	/* the generator's labellings (`--shuffle-ports 0..39`) or random */
	static const bool cli[] = { true, false, false, false, true, true };
	struct ot_prng rng = { .state = 0x1abe1 + (uint64_t)_i };
	struct ot_kns_params p = ps[_i];
	double bound = dor_bound(&p);
	unsigned int i, below = 0;
	char desc[64];

	for (i = 0; i < times[_i]; i++) {
		struct ot_fabric *f;
		double u;

		p.shuffle = true;
		p.seed = cli[_i] ? i : ot_prng_next(&rng);
		f = gen_labelled(&p, cli[_i] ? NULL : &rng);
		snprintf(desc, sizeof(desc), "fabric %d, labelling %u", _i, i);
		u = uniform_of(f, desc);
		if (u < 0.95 * bound - 1e-9) {
			fprintf(stderr, "labellings: %s: uniform %.4f, bound %.4f\n",
				desc, u, bound);
			below++;
		}
		ot_fabric_free(f);
	}
	ck_assert_msg(!below, "fabric %d: %u of %u labellings below 95%% of the bound %.4f",
		      _i, below, times[_i], bound);
}
END_TEST

/*
 * Drawn fabrics (unequal stages, leaves, spines and cables per line, CA
 * counts that do not divide, parallel cables), every other one of the
 * hard class (draw_hard()), each under three random labellings (GUIDs
 * permuted, ports shuffled): held to HELD_TO of the bound under every
 * one; the hard ones also route alike (by GUID) under another port and
 * node shuffle.  The code before the phantom edges fails it (`kns 9 2 --cas 2
 * --down 3,3 --up 2,1` with parallel cables at 90.0%); so does the
 * greedy alone (no colouring).
 */
START_TEST(random_labellings)
{
	struct ot_prng rng = { .state = 0x9e1ab + (uint64_t)_i * 7919 };
	unsigned int i, l;

	for (i = 0; i < rounds(); i++) {
		struct ot_kns_params p;
		char desc[256], what[300];
		double bound;

		if (i % 2)
			draw_hard(&rng, &p, desc, sizeof(desc));
		else
			draw_some(&rng, &p, desc, sizeof(desc), _i % 2);
		bound = dor_bound(&p);
		for (l = 0; l < 3; l++) {
			struct ot_fabric *f;
			double u;

			p.seed = ot_prng_next(&rng);
			f = gen_labelled(&p, &rng);
			snprintf(what, sizeof(what), "%s, labelling %u (ports %" PRIu64 ")",
				 desc, l, p.seed);
			u = uniform_of(f, what);
			ck_assert_msg(u >= HELD_TO * bound - 1e-9,
				      "%s: uniform %.4f, bound %.4f", what, u,
				      bound);
			ot_fabric_free(f);
		}
		if (i % 2) {
			/* the hard class: same GUIDs, other ports, same tables */
			struct ot_kns_params q = p;
			struct ot_fabric *f = gen(&p, 0), *g;
			struct ot_routing *r = route(f), *rg;

			q.seed = p.seed + 1;
			g = gen(&q, 0);
			rg = route(g);
			ck_assert_msg(!differences(f, r, g, rg),
				      "%s: shuffle seed %" PRIu64
				      " routes differently", desc, q.seed);
			ot_routing_free(rg);
			ot_fabric_free(g);
			ot_routing_free(r);
			ot_fabric_free(f);
		}
	}
}
END_TEST

/* The checks can fail: a switch sent back up in a line is caught. */
START_TEST(broken_table_is_caught)
{
	struct ot_kns_params p = {
		.k = 4, .n = 2, .cas = 1, .links = 1, .stages = 2,
		.line_down = { 0, 2, 2 }, .line_up = { 0, 1, 2 },
	};
	struct ot_fabric *f = gen(&p, 0);
	struct ot_routing *r = route(f);
	struct ot_kns *kns = recognized(f);
	struct ot_check_report *rep = NULL;
	uint32_t x, lid;
	unsigned int pt, broken = 0;

	/* every spine sends every CA LID back up... it has no parent, so
	 * down to the wrong leaf instead: not up-then-down any more */
	for (x = 0; x < f->nnodes; x++) {
		if (kns->role[x] != OT_KNS_SWITCH || kns->stage[x] != 2)
			continue;
		for (lid = 1; lid <= f->max_lid; lid++) {
			int o = f->lid_owner[lid].node;

			if (o < 0 || f->node[o].type != OT_NODE_CA)
				continue;
			for (pt = 1; pt <= f->node[x].nports; pt++)
				if (pt != r->lft[x][lid] &&
				    f->node[x].port[pt].peer >= 0) {
					r->lft[x][lid] = pt;
					broken++;
					break;
				}
		}
	}
	ck_assert_uint_gt(broken, 0);
	checked(f, r, &rep);
	ck_assert(!ot_check_ok(rep));
	ck_assert(rank_violations(f, r) > 0);
	ot_check_report_free(rep);
	ot_kns_free(kns);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/* A cable between two switches of one stage is no fat tree: named. */
START_TEST(refuses_same_stage_cable)
{
	struct ot_kns_params p = {
		.k = 4, .n = 2, .cas = 1, .links = 1, .stages = 2,
		.line_down = { 0, 2, 2 }, .line_up = { 0, 1, 2 }, .radix = 8,
	};
	struct ot_fabric *f = gen(&p, 0);
	struct ot_error err = { 0 };
	struct ot_routing *r = NULL;
	int a = -1, b = -1;
	uint32_t i;

	/* join the two leaves of line 0 of dimension 0 on spare ports */
	for (i = 0; i < f->nnodes; i++) {
		if (!strcmp(f->node[i].desc, "S[0,0,1,0]"))
			a = i;
		if (!strcmp(f->node[i].desc, "S[0,0,1,1]"))
			b = i;
	}
	ck_assert(a >= 0 && b >= 0);
	ck_assert(!ot_fabric_link(f, a, 8, b, 8, &err));
	ck_assert(!ot_fabric_index(f, &err));
	ck_assert_int_eq(ot_engine_run(ot_engine_find("hdor"), f, &r, &err),
			 -1);
	ck_assert_msg(strstr(err.msg, "same stage") &&
		      strstr(err.msg, "port 8"), "%s", err.msg);
	ot_fabric_free(f);
}
END_TEST

static int node_named(const struct ot_fabric *f, const char *name)
{
	uint32_t i;

	for (i = 0; i < f->nnodes; i++)
		if (!strcmp(f->node[i].desc, name))
			return i;
	ck_abort_msg("no node %s", name);
	return -1;
}

/* Whether switch x has a CA cabled (a router). */
static bool kns_router(const struct ot_fabric *f, int x)
{
	unsigned int p;

	for (p = 1; p <= f->node[x].nports; p++)
		if (f->node[x].port[p].peer >= 0 &&
		    f->node[f->node[x].port[p].peer].type == OT_NODE_CA)
			return true;
	return false;
}

/* The first free port of node x. */
static unsigned int free_port(const struct ot_fabric *f, int x)
{
	unsigned int p;

	for (p = 1; p <= f->node[x].nports; p++)
		if (f->node[x].port[p].peer < 0)
			return p;
	ck_abort_msg("%s has no free port", f->node[x].desc);
	return 0;
}

/* The port of x cabled to y (the first), or 0. */
static unsigned int port_to(const struct ot_fabric *f, int x, int y)
{
	unsigned int p;

	for (p = 1; p <= f->node[x].nports; p++)
		if (f->node[x].port[p].peer == y)
			return p;
	return 0;
}

/*
 * Moves the far end of stay's cable to what's port pz of z; returns that
 * cable's old far end (its port in *old_port).
 */
static int move_end(struct ot_fabric *f, int stay, unsigned int ps, int z,
		    unsigned int pz, unsigned int *old_port)
{
	struct ot_error err = { 0 };
	int far = f->node[stay].port[ps].peer;

	*old_port = f->node[stay].port[ps].peer_port;
	f->node[far].port[*old_port].peer = -1;
	f->node[stay].port[ps].peer = -1;
	ck_assert(!ot_fabric_link(f, stay, ps, z, pz, &err));
	ck_assert(!ot_fabric_index(f, &err));
	return far;
}

/*
 * check --expect kns inside fat-tree lines: one cable end moved (a leaf
 * to a leaf, a router into another line's leaf, a spine's cable onto
 * another spine) is reported, the end that stays and where the other
 * should go, by switch and port; intact and merely damaged fabrics report
 * nothing.  Several generated shapes, ports shuffled.
 */
START_TEST(miscabling_in_lines)
{
	static const struct {
		unsigned int k, down1, down2, up1, up2;
		const char *stay, *from, *to; /* names */
	} cases[] = {
		/* leaf to leaf: S[0,0,1,0]'s spine cable onto S[0,0,1,1] */
		{ 4, 2, 2, 1, 2, "S[0,0,1,0]", "S[0,0,2,0]", "S[0,0,1,1]" },
		/* a router into a leaf of another line of its dimension */
		{ 4, 2, 2, 1, 2, "R[0,0]", "S[0,0,1,0]", "S[0,1,1,0]" },
		/* a spine's cable onto another spine of the line */
		{ 6, 3, 2, 1, 3, "S[1,2,1,1]", "S[1,2,2,0]", "S[1,2,2,2]" },
		/* the issue's shape: onto a spine the leaf already has */
		{ 8, 4, 2, 1, 4, "S[1,2,1,0]", "S[1,2,2,0]", "S[1,2,2,1]" },
		/* routers on two leaves: one cable onto the other leaf */
		{ 4, 2, 2, 2, 2, "R[1,1]", "S[0,1,1,0]", "S[0,1,1,1]" },
	};
	unsigned int i, seed;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (seed = 0; seed < 2; seed++) {
			struct ot_kns_params p = {
				.k = cases[i].k, .n = 2, .cas = 1, .links = 1,
				.stages = 2,
				.line_down = { 0, cases[i].down1,
					       cases[i].down2 },
				.line_up = { 0, cases[i].up1, cases[i].up2 },
				.radix = 12, .shuffle = seed > 0,
				.seed = 40 + i + seed,
			};
			struct ot_fabric *f = gen(&p, 0);
			struct ot_miscabling m = { 0 };
			struct ot_error err = { 0 };
			int stay, from, to;
			unsigned int ps, pz, old;
			char line[512];

			ck_assert(!ot_kns_miscabling(f, &m, &err));
			ck_assert_uint_eq(m.n, 0);
			stay = node_named(f, cases[i].stay);
			from = node_named(f, cases[i].from);
			to = node_named(f, cases[i].to);
			ps = port_to(f, stay, from);
			ck_assert(ps);
			pz = free_port(f, to);
			ck_assert_int_eq(move_end(f, stay, ps, to, pz, &old),
					 from);
			ck_assert_msg(!ot_kns_miscabling(f, &m, &err),
				      "case %u: %s", i, err.msg);
			ck_assert_msg(m.n == 1, "case %u: %u moves", i, m.n);
			ot_miscable_format(f, &m.cable[0], line, sizeof(line));
			/*
			 * the cable moved (or its parallel twin, the same
			 * move), or, a router into another line, its twin
			 * router's: moving that one is a KNS as well
			 */
			ck_assert_msg((m.cable[0].node == stay ||
				       (kns_router(f, m.cable[0].node) &&
					kns_router(f, stay))) &&
				      m.cable[0].now == to &&

				      m.cable[0].should == from &&
				      f->node[from].port[m.cable[0].should_port]
						      .peer < 0,
				      "case %u: %s", i, line);
			ck_assert(strstr(line, cases[i].from) &&
				  strstr(line, cases[i].to));
			/* the move reported, made: a KNS, nothing to say */
			move_end(f, m.cable[0].node, m.cable[0].port,
				 m.cable[0].should, m.cable[0].should_port,
				 &old);
			ot_miscabling_free(&m);
			ck_assert(!ot_kns_miscabling(f, &m, &err));
			ck_assert_uint_eq(m.n, 0);
			(void)old;
			ot_miscabling_free(&m);
			ot_fabric_free(f);
		}
}
END_TEST

/* Damage (cables missing, nothing moved) is no mis-cabling. */
START_TEST(damage_is_no_miscabling)
{
	unsigned int i, reported = 0, accepted = 0;

	for (i = 0; i < 8; i++) {
		struct ot_kns_params p = {
			.k = 4, .n = 2, .cas = 1, .links = 1, .stages = 2,
			.line_down = { 0, 2, 2 }, .line_up = { 0, 2, 2 },
			.shuffle = true, .seed = i, .drop_links = 0.1,
			.drop_seed = i + 1,
		};
		struct ot_fabric *f = gen(&p, 0);
		struct ot_miscabling m = { 0 };
		struct ot_error err = { 0 };

		if (!ot_kns_miscabling(f, &m, &err)) {
			accepted++;
			reported += m.n;
		}
		ot_miscabling_free(&m);
		ot_fabric_free(f);
	}
	ck_assert_uint_eq(reported, 0);
	ck_assert_uint_gt(accepted, 0);
}
END_TEST

/* One line of routers under switches is a fat tree: refused, named. */
START_TEST(refuses_fat_tree)
{
	struct ot_kns_params p = {
		.k = 4, .n = 1, .cas = 2, .links = 1, .stages = 1,
		.line_down = { 0, 4 }, .line_up = { 0, 2 },
	};
	struct ot_fabric *f = gen(&p, 0);
	struct ot_error err = { 0 };
	struct ot_routing *r = NULL;

	ck_assert_int_eq(ot_engine_run(ot_engine_find("hdor"), f, &r, &err),
			 -1);
	ck_assert_msg(strstr(err.msg, "a fat tree") &&
		      strstr(err.msg, "switch \"R["), "%s", err.msg);
	ot_fabric_free(f);
}
END_TEST

static Suite *hdor_ft_suite(void)
{
	Suite *s = suite_create("hdor_ft");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, random_fabrics, 0, 4);
	tcase_add_loop_test(tc, random_parallel, 0, 3);
	tcase_add_test(tc, random_fabrics_lmc);
	tcase_add_test(tc, issue_fabric);
	tcase_add_test(tc, multi_homed_fabric);
	tcase_add_loop_test(tc, parallel_cables, 0, 3);
	tcase_add_loop_test(tc, labellings, 0, 6);
	tcase_add_test(tc, broken_table_is_caught);
	tcase_add_test(tc, refuses_same_stage_cable);
	tcase_add_test(tc, refuses_fat_tree);
	tcase_add_test(tc, miscabling_in_lines);
	tcase_add_test(tc, damage_is_no_miscabling);
	suite_add_tcase(s, tc);
	/* drawn fabrics under three labellings each: the longest here */
	tc = tcase_create("labellings");
	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, random_labellings, 0, 4);
	suite_add_tcase(s, tc);
	return s;
}

OT_UNIT_MAIN(hdor_ft_suite)
