// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * hdor's in-line bounce (route/hdor_ft_bounce.c) on drawn two-plane
 * KNS fabrics: lines of two switches at s = 1 (each router cabled to
 * each), or of two stages with two up-cables from each router, cables
 * (and switches) lost at random, ports shuffled.  Every routing is
 * checked (every pair reached, no credit loop, no path off the promise's
 * rule, within hdor's VL budget) and routes alike under another port
 * shuffle; the bounced pairs (a path that goes down to a node of a line
 * and up again in that line) are counted by walking the tables here,
 * independently of the engine's own valley search, and each must be on
 * a path SL other than 0 (an escape layer's up*-down* may go down and
 * up too: a fabric counts as bounced where the promise also says so).
 * The gain: over the draws, some routings must bounce, and the uniform throughput summed over the draws must reach
 * BOUNCE_SUM (main 2231702, which has no bounce, stays below it: see
 * doc/kns-fattree.md, "The in-line bounce").
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "route/engine.h"
#include "route/hdor_ft.h"

#include "hdor_ft_unit.h"
#include "unit.h"

#define BOUNCE_DRAWS 20
#define BOUNCE_MIN_FABRICS 2
#define BOUNCE_MIN_MADE 6
/*
 * The uniform sum over the draws: 15.2491 with the bounce, 15.1994 on
 * main 2231702 (no bounce; 0 candidates, 0 kept).
 */
#define BOUNCE_SUM 15.22

static struct ot_fabric *draw_two_plane(struct ot_prng *rng,
					struct ot_kns_params *p)
{
	static const struct ot_kns_params shapes[] = {
		{ .k = 4, .n = 2, .stages = 1, .line_down = { 0, 4 },
		  .line_up = { 0, 2 } },
		{ .k = 6, .n = 2, .stages = 1, .line_down = { 0, 6 },
		  .line_up = { 0, 2 } },
		{ .k = 8, .n = 2, .stages = 1, .line_down = { 0, 8 },
		  .line_up = { 0, 2 } },
		{ .k = 6, .n = 2, .stages = 2, .line_down = { 0, 2, 3 },
		  .line_up = { 0, 2, 2 } },
	};
	unsigned int s = (unsigned int)ot_prng_below(rng, 4);

	*p = shapes[s];
	p->cas = 1 + (unsigned int)ot_prng_below(rng, 2);
	p->links = 1;
	p->shuffle = true;
	p->seed = ot_prng_next(rng);
	p->drop_links = 0.05 * (double)(1 + ot_prng_below(rng, 2));
	p->drop_switches = s == 3 ? 0.05 : 0;
	p->drop_seed = ot_prng_next(rng);
	return gen(p, 0);
}

static bool line_switch(const struct ot_kns *kns, int32_t x)
{
	return x >= 0 && kns->role[x] == OT_KNS_SWITCH && kns->line[x] >= 0;
}

/*
 * Valleys on the table walk from CA s to LID lid: a router or line
 * switch entered from a switch of a line above it and left to a switch
 * of the same line above it.  -1 when the walk does not arrive.
 */
static int valleys(const struct ot_fabric *f, const struct ot_routing *r,
		   const struct ot_kns *kns, uint32_t s, uint16_t lid)
{
	int32_t prev = (int32_t)s, x = f->node[s].port[1].peer;
	int32_t want = f->lid_owner[lid].node;
	unsigned int hops = 0;
	int v = 0;

	while (x != want) {
		unsigned int p;
		int32_t y;

		if (x < 0 || hops++ > f->nnodes ||
		    f->node[x].type != OT_NODE_SWITCH)
			return -1;
		p = r->lft[x][lid];
		if (!p || p > f->node[x].nports)
			return -1;
		y = f->node[x].port[p].peer;
		if (line_switch(kns, prev) && line_switch(kns, y) &&
		    kns->line[prev] == kns->line[y] &&
		    (kns->role[x] == OT_KNS_ROUTER ||
		     (line_switch(kns, x) && kns->line[x] == kns->line[y] &&
		      kns->stage[x] < kns->stage[prev] &&
		      kns->stage[x] < kns->stage[y])))
			v++;
		prev = x;
		x = y;
	}
	return v;
}

/* CA pairs whose walk bounces; each must be on a path SL other than 0. */
static uint64_t bounced_pairs(const struct ot_fabric *f,
			      const struct ot_routing *r, const char *desc)
{
	const struct ot_kns *kns = ot_hdor_ft_kns(r);
	uint64_t n = 0;
	uint32_t s, lid;

	ck_assert_msg(kns != NULL, "%s: not hdor's fat-tree routing", desc);
	for (s = 0; s < f->nnodes; s++) {
		if (f->node[s].type != OT_NODE_CA || f->node[s].port[1].peer < 0)
			continue;
		for (lid = 1; lid <= f->max_lid; lid++) {
			int32_t o = f->lid_owner[lid].node;
			int v;

			if (o < 0 || o == (int32_t)s ||
			    f->node[o].type != OT_NODE_CA)
				continue;
			v = valleys(f, r, kns, s, (uint16_t)lid);
			ck_assert_msg(v >= 0 && v <= 1,
				      "%s: CA %u to LID %u: %d valleys", desc,
				      s, lid, v);
			if (!v)
				continue;
			ck_assert_msg(ot_routing_path_sl(r,
							 f->node[s].port[1].lid,
							 (uint16_t)lid) != 0,
				      "%s: a bounced pair on SL 0", desc);
			n++;
		}
	}
	return n;
}

/*
 * The bounce candidate itself (ot_hdor_ft_route_bounce(), whether or
 * not route/hdor.c keeps it): where it is made, every pair reached, no
 * credit loop, no path off its rule, within 4 VLs; its bounced pairs.
 * -1 where it is refused (nothing to bounce, or not deadlock-free).
 */
static int64_t candidate(const struct ot_fabric *f, const char *desc,
			 double *u)
{
	struct ot_routing *rc = ot_routing_new(f);
	struct ot_error err = { 0 };
	int64_t nb;

	ck_assert_ptr_nonnull(rc);
	if (ot_hdor_ft_route_bounce(f, recognized(f), NULL, false, rc,
				    &err)) {
		ck_assert_msg(strstr(err.msg, "hdor: ") == err.msg, "%s: %s",
			      desc, err.msg);
		ot_routing_free(rc);
		return -1;
	}
	*u = checked_all(f, rc, desc);
	nb = (int64_t)bounced_pairs(f, rc, desc);
	ck_assert_msg(nb > 0, "%s: a bounce candidate without a bounce", desc);
	ot_routing_free(rc);
	return nb;
}

START_TEST(bounce_two_plane)
{
	struct ot_prng rng = { .state = 0xb0c3 };
	unsigned int i, used = 0, bounced = 0, made = 0;
	double sum = 0;

	for (i = 0; i < BOUNCE_DRAWS; i++) {
		struct ot_kns_params p, q;
		struct ot_routing *r = NULL, *rg = NULL;
		struct ot_error err = { 0 };
		struct ot_fabric *f, *g;
		char desc[256];
		uint64_t nb;
		int64_t cb;
		double u, uc = 0;

		f = draw_two_plane(&rng, &p);
		describe(&p, desc, sizeof(desc));
		snprintf(desc + strlen(desc), sizeof(desc) - strlen(desc),
			 " --drop-links %.2f --seed %" PRIu64 "%s", p.drop_links,
			 p.drop_seed, p.drop_switches > 0 ?
			 " --drop-switches 0.05" : "");
		if (ot_engine_run(ot_engine_find("hdor"), f, &r, &err)) {
			/* cut off by the damage: refused by name */
			ck_assert_msg(strstr(err.msg, "hdor: ") == err.msg,
				      "%s: %s", desc, err.msg);
			ot_fabric_free(f);
			continue;
		}
		u = checked_all(f, r, desc);
		nb = bounced_pairs(f, r, desc);
		cb = candidate(f, desc, &uc);
		made += cb > 0;
		if (cb > 0)
			fprintf(stderr, "bounce_two_plane: %s: the candidate uniform %.4f, %" PRId64 " bounced pairs\n",
				desc, uc, cb);
		q = p;
		q.seed = ot_prng_next(&rng);
		g = gen(&q, 0);
		ck_assert_msg(!ot_engine_run(ot_engine_find("hdor"), g, &rg, &err),
			      "%s: shuffle seed %" PRIu64 " refused: %s", desc,
			      q.seed, err.msg);
		ck_assert_msg(!differences(f, r, g, rg), "%s: shuffle seed %"
			      PRIu64 " routes differently", desc, q.seed);
		fprintf(stderr, "bounce_two_plane: %s: %u VLs, uniform %.4f, %" PRIu64 " bounced pairs\n",
			desc, r->nvls, u, nb);
		sum += u;
		used++;
		/* the engine says it kept the bounce, and the walks agree */
		bounced += nb > 0 && r->promise.text &&
			   strstr(r->promise.text,
				  "bounces through a third router");
		ot_routing_free(rg);
		ot_fabric_free(g);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
	fprintf(stderr, "bounce_two_plane: %u fabrics, %u candidates made, %u with bounces kept, uniform sum %.4f\n",
		used, made, bounced, sum);
	ck_assert_msg(made >= BOUNCE_MIN_MADE, "%u bounce candidates made",
		      made);
	ck_assert_msg(used >= BOUNCE_DRAWS - 2, "only %u fabrics routed", used);
	ck_assert_msg(bounced >= BOUNCE_MIN_FABRICS,
		      "%u fabrics with bounces, want %u", bounced,
		      BOUNCE_MIN_FABRICS);
	ck_assert_msg(sum >= BOUNCE_SUM, "uniform sum %.4f below %.4f", sum,
		      BOUNCE_SUM);
}
END_TEST

static Suite *hdor_ft_bounce_suite(void)
{
	Suite *s = suite_create("hdor_ft_bounce");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, bounce_two_plane);
	suite_add_tcase(s, tc);
	return s;
}

OT_UNIT_MAIN(hdor_ft_bounce_suite)
