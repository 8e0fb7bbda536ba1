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
 * node order.
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

#include "unit.h"

#define MAX_PATH 64

static uint64_t name_guid(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ull;
	}
	return h;
}

static struct ot_fabric *gen(const struct ot_kns_params *p, unsigned int lmc)
{
	struct ot_error err = { 0 };
	struct ot_fabric *f = ot_gen_kns(p, &err);
	uint32_t i;

	ck_assert_msg(f, "gen: %s", err.msg);
	for (i = 0; i < f->nnodes; i++)
		f->node[i].guid = name_guid(f->node[i].desc);
	ck_assert_msg(!ot_fabric_set_ca_lmc(f, (uint8_t)lmc, &err), "LIDs: %s",
		      err.msg);
	return f;
}

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

static struct ot_routing *route(const struct ot_fabric *f)
{
	struct ot_error err = { 0 };
	struct ot_routing *r = NULL;

	ck_assert_msg(!ot_engine_run(ot_engine_find("hdor"), f, &r, &err),
		      "hdor refused: %s", err.msg);
	return r;
}

/*
 * A random fat-tree-line KNS of n >= 2, at most about 200 CAs; with
 * several true, lines of two stages or more whose routers have 2 or 3
 * parallel cables into them.
 */
static void describe(const struct ot_kns_params *p, char *desc, size_t len);

static void draw_some(struct ot_prng *rng, struct ot_kns_params *p,
		      char *desc, size_t len, bool several)
{
	static const unsigned int ks[] = { 2, 3, 4, 4, 6, 6, 8, 8, 9, 12 };
	unsigned int i, rest, routers;

	memset(p, 0, sizeof(*p));
	do {
		p->k = ks[ot_prng_below(rng, sizeof(ks) / sizeof(ks[0]))];
		p->n = 2 + ot_prng_below(rng, 2);
		for (routers = 1, i = 0; i < p->n; i++)
			routers *= p->k;
	} while (routers > 144 || routers < 4);
	p->cas = 1 + ot_prng_below(rng, 3);
	while (p->cas > 1 && routers * p->cas > 200)
		p->cas--;
	p->stages = 1 + ot_prng_below(rng, 3);
	rest = p->k;
	for (i = 1; i <= p->stages; i++) {
		unsigned int m = rest, d;

		if (i < p->stages) {
			/*
			 * a random divisor of what is left, at least 2 and
			 * leaving at least 2: every switch has two children
			 * or more (see doc/kns-fattree.md for stages of one)
			 */
			for (d = 0; d < 16; d++) {
				m = 2 + ot_prng_below(rng, rest);
				if (rest % m == 0 && rest / m >= 2)
					break;
			}
			if (rest % m || rest / m < 2) {
				p->stages = i;
				m = rest;
			}
		}
		p->line_down[i] = m;
		rest /= m;
		p->line_up[i] = i == 1 ? 1 + ot_prng_below(rng, 2) :
					 1 + ot_prng_below(rng, 3);
		p->line_links[i] = 1 + ot_prng_below(rng, 2);
	}
	if (p->stages == 1 && p->line_up[1] == 1)
		p->line_up[1] = 2; /* several switches per line */
	p->links = 1 + ot_prng_below(rng, 3);
	if (several && p->stages < 2)
		return draw_some(rng, p, desc, len, several);
	if (several)
		p->links = 2 + ot_prng_below(rng, 2);
	p->shuffle = true;
	p->seed = ot_prng_next(rng);
	describe(p, desc, len);
}

/* p as the `osmtopo gen` arguments that build it. */
static void describe(const struct ot_kns_params *p, char *desc, size_t len)
{
	unsigned int i, used;

	used = snprintf(desc, len, "kns %u %u --cas %u --links %u --down",
			p->k, p->n, p->cas, p->links);
	for (i = 1; i <= p->stages; i++)
		used += snprintf(desc + used, len - used, "%s%u", i > 1 ? "," : " ",
				 p->line_down[i]);
	used += snprintf(desc + used, len - used, " --up");
	for (i = 1; i <= p->stages; i++)
		used += snprintf(desc + used, len - used, "%s%u", i > 1 ? "," : " ",
				 p->line_up[i]);
	for (i = 2; i <= p->stages; i++)
		used += snprintf(desc + used, len - used, "%s%u",
				 i > 2 ? "," : " --parallel ", p->line_links[i]);
	snprintf(desc + used, len - used, " --shuffle-ports %" PRIu64,
		 p->seed);
}

/*
 * A fabric of the class whose balance depended most on the labelling,
 * drawn more often than draw_some() does: lines of two stages or more
 * whose routers sit on w_1 = 2 leaves that do not divide the m_1 = 3
 * routers under them (k 6, 9 or 12), a single spine per class (w_2 = 1)
 * half of the time, parallel cables (router to leaf, leaf to spine)
 * drawn, as many CAs as the size allows (2 or 3; 1 at k = 12), so the
 * lines, not the CAs, bound the throughput.  `kns 9 2 --cas 2 --links 2
 * --down 3,3 --up 2,1 --parallel 2` is one of them.
 */
static void draw_hard(struct ot_prng *rng, struct ot_kns_params *p,
		      char *desc, size_t len)
{
	static const unsigned int ks[] = { 6, 9, 9, 12 }, w2[] = { 1, 1, 2, 3 };
	unsigned int i;

	memset(p, 0, sizeof(*p));
	p->k = ks[ot_prng_below(rng, 4)];
	p->n = 2;
	p->cas = p->k == 6 ? 2 + ot_prng_below(rng, 2) : p->k == 9 ? 2 : 1;
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

static void draw(struct ot_prng *rng, struct ot_kns_params *p, char *desc,
		 size_t len)
{
	draw_some(rng, p, desc, len, false);
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

static const struct ot_check_report *checked(const struct ot_fabric *f,
					     const struct ot_routing *r,
					     struct ot_check_report **rep)
{
	struct ot_traffic_opts t = {
		.patterns = 1u << OT_PATTERN_UNIFORM,
	};
	struct ot_check_opts o = { .promiser = r, .balance = &t };
	struct ot_error err = { 0 };

	ck_assert_msg(!ot_check_run(f, r, &o, rep, &err), "check: %s",
		      err.msg);
	return *rep;
}

/*
 * Channel ranks of hdor_ft.c's argument, S the most stages: CA -> router
 * 0; in dimension d, base 2Sd: router -> stage 1 base + 1, stage l ->
 * l + 1 base + l + 1, stage l + 1 -> l base + 2S - l, stage 1 -> router
 * base + 2S; router -> CA 2Sn + 1.
 */
static int rank(const struct ot_kns *kns, int a, int b)
{
	unsigned int S = kns->stages;
	int base;

	if (kns->role[a] == OT_KNS_CA)
		return 0;
	if (kns->role[b] == OT_KNS_CA)
		return 2 * S * kns->n + 1;
	if (kns->role[a] == OT_KNS_ROUTER)
		return 2 * S * kns->dim[b] + 1;
	base = 2 * S * kns->dim[a];
	if (kns->role[b] == OT_KNS_ROUTER)
		return base + 2 * S;
	if (kns->stage[b] > kns->stage[a])
		return base + kns->stage[a] + 1;
	return base + 2 * S - kns->stage[b];
}

/* The fat-tree KNS recognizer's answer for f (the engine's input). */
static struct ot_kns *recognized(const struct ot_fabric *f)
{
	struct ot_error err = { 0 };
	struct ot_kns *kns = NULL;
	bool looks = false;

	ck_assert_msg(!ot_kns_ft_recognize(f, &kns, &looks, &err), "%s",
		      err.msg);
	return kns;
}

/*
 * Paths CA -> CA LID with a rank that does not rise; 0 when none.  LIDs
 * on the escape layer (path SL 1) are left out: their order is the
 * layer's own (route/escape.c).
 */
static unsigned long rank_violations(const struct ot_fabric *f,
				     const struct ot_routing *r)
{
	struct ot_kns *kns = recognized(f);
	unsigned long bad = 0;
	uint32_t s, lid;

	for (s = 0; s < f->nnodes; s++) {
		if (f->node[s].type != OT_NODE_CA || f->node[s].port[1].peer < 0)
			continue;
		for (lid = 1; lid <= f->max_lid; lid++) {
			int o = f->lid_owner[lid].node, prev = s;
			int cur = f->node[s].port[1].peer, last = -1, hops = 0;

			if (o < 0 || o == (int)s ||
			    f->node[o].type != OT_NODE_CA ||
			    ot_routing_path_sl(r, f->node[s].port[1].lid, lid))
				continue;
			while (cur != o && hops++ < MAX_PATH) {
				unsigned int p = r->lft[cur][lid];
				int nx = rank(kns, prev, cur);

				if (nx <= last && last >= 0) {
					bad++;
					break;
				}
				last = nx;
				if (p == OT_NO_PORT || p == 0)
					break;
				prev = cur;
				cur = f->node[cur].port[p].peer;
			}
			if (cur == o && rank(kns, prev, cur) <= last)
				bad++;
		}
	}
	ot_kns_free(kns);
	return bad;
}

static int by_guid(const struct ot_fabric *f, uint64_t guid)
{
	uint32_t i;

	for (i = 0; i < f->nnodes; i++)
		if (f->node[i].guid == guid)
			return i;
	ck_abort_msg("no GUID 0x%" PRIx64, guid);
	return -1;
}

static uint64_t next_guid(const struct ot_fabric *f,
			  const struct ot_routing *r, int s, uint16_t lid)
{
	unsigned int p = r->lft[s][lid];

	if (p == 0 || p == OT_NO_PORT)
		return p == 0 ? f->node[s].guid : 0;
	return f->node[f->node[s].port[p].peer].guid;
}

static uint16_t lid_of(const struct ot_fabric *f, uint64_t guid,
		       unsigned int off)
{
	int x = by_guid(f, guid);
	unsigned int p;

	for (p = 0; p <= f->node[x].nports; p++)
		if (f->node[x].port[p].lid)
			return f->node[x].port[p].lid + off;
	return 0;
}

/* Next hops as GUIDs agree for every switch and LID of f and g. */
static unsigned long differences(const struct ot_fabric *f,
				 const struct ot_routing *rf,
				 const struct ot_fabric *g,
				 const struct ot_routing *rg)
{
	unsigned long diff = 0;
	uint32_t i, lid;

	for (i = 0; i < f->nnodes; i++) {
		int j;

		if (f->node[i].type != OT_NODE_SWITCH)
			continue;
		j = by_guid(g, f->node[i].guid);
		for (lid = 1; lid <= f->max_lid; lid++) {
			const struct ot_lid_owner *o = &f->lid_owner[lid];
			const struct ot_port *pt;

			if (o->node < 0)
				continue;
			pt = &f->node[o->node].port[o->port];
			if (next_guid(f, rf, i, lid) !=
			    next_guid(g, rg, j, lid_of(g, f->node[o->node].guid,
							lid - pt->lid)))
				diff++;
		}
	}
	return diff;
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

/* Fabrics per loop of random_fabrics: OT_HDOR_FT_ROUNDS, default 6. */
static unsigned int rounds(void)
{
	const char *v = getenv("OT_HDOR_FT_ROUNDS");

	return v && atoi(v) > 0 ? (unsigned int)atoi(v) : 6;
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
 * before the phantom edges 90.0% on 15 of the 16 of the fourth.
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
	};
	static const unsigned int times[] = { 40, 12, 16, 16 };
	struct ot_prng rng = { .state = 0x1abe1 + (uint64_t)_i };
	struct ot_kns_params p = ps[_i];
	double bound = dor_bound(&p);
	unsigned int i, below = 0;
	char desc[64];

	for (i = 0; i < times[_i]; i++) {
		struct ot_fabric *f;
		double u;

		/* the first: `osmtopo gen ... --shuffle-ports 0..39` */
		p.shuffle = true;
		p.seed = _i ? ot_prng_next(&rng) : i;
		f = gen_labelled(&p, _i ? &rng : NULL);
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

/*
 * The generator's damage inside lines: routed around on one VL (or the
 * escape layer), or refused by name by the recognizer (a line split in
 * two, a router cut from a line).
 */
START_TEST(damaged_lines)
{
	struct ot_prng rng = { .state = 0xda };
	unsigned int i, routed = 0, refused = 0;

	for (i = 0; i < 12; i++) {
		struct ot_kns_params p = {
			.k = 8, .n = 2, .cas = 2, .links = 1, .stages = 2,
			.line_down = { 0, 4, 2 }, .line_up = { 0, 1, 4 },
			.shuffle = true, .seed = i,
			.drop_switches = 0.1 * (i % 3),
			.drop_links = 0.05 * (i % 4), .drop_seed = i,
		};
		struct ot_fabric *f = gen(&p, 0);
		struct ot_error err = { 0 };
		struct ot_routing *r = NULL;
		struct ot_check_report *rep = NULL;
		const struct ot_check_counts *cn;

		(void)rng;
		if (ot_engine_run(ot_engine_find("hdor"), f, &r, &err)) {
			ck_assert_msg(strstr(err.msg, "hdor: ") == err.msg,
				      "%s", err.msg);
			refused++;
			ot_fabric_free(f);
			continue;
		}
		routed++;
		checked(f, r, &rep);
		cn = ot_check_counts(rep);
		ck_assert_msg(ot_check_ok(rep), "damage %u not OK", i);
		ck_assert(!cn->credit_loops &&
			  (cn->vls_used == 1 || r->nvls == 2));
		ck_assert(!rank_violations(f, r));
		ot_check_report_free(rep);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
	ck_assert_uint_gt(routed, 6);
	(void)refused;
}
END_TEST

/*
 * Whether line l of the intact fabric is still one line as the recognizer
 * finds them: its switches joined by switch cables into parts, parts
 * sharing two routers or more merged, one part in the end.
 */
static bool line_joined(const struct ot_fabric *f, const struct ot_kns *kns,
			int32_t l)
{
	const struct ot_kns_line *ln = &kns->lines[l];
	uint32_t n = ln->nsw, i, j, a, changed = 1;
	int32_t *part = malloc((n + 1) * sizeof(*part));
	unsigned int *share = calloc((size_t)n * n + 1, sizeof(*share));
	unsigned int p, q;
	bool one = true;

	ck_assert(part && share);
	for (i = 0; i < n; i++)
		part[i] = i;
	/* switch cables: relax to the least index reachable */
	while (changed) {
		changed = 0;
		for (i = 0; i < n; i++) {
			int32_t x = ln->sw[i];

			for (p = 1; p <= f->node[x].nports; p++) {
				int32_t y = f->node[x].port[p].peer;

				if (y < 0 || kns->role[y] != OT_KNS_SWITCH)
					continue;
				for (j = 0; j < n && ln->sw[j] != y; j++)
					;
				if (j < n && part[j] != part[i]) {
					int32_t m = part[i] < part[j] ? part[i] :
								     part[j];

					changed |= part[i] != m || part[j] != m;
					part[i] = part[j] = m;
				}
			}
		}
	}
	/* then parts sharing two routers, until nothing changes */
	for (changed = 1; changed;) {
		changed = 0;
		memset(share, 0, (size_t)n * n * sizeof(*share));
		for (a = 0; a < kns->k; a++) {
			int32_t r = ln->router[a];
			int32_t seen[OT_MAX_PORTS + 1];
			unsigned int m = 0;

			for (p = 1; p <= f->node[r].nports; p++) {
				int32_t y = f->node[r].port[p].peer;

				if (y < 0 || kns->role[y] != OT_KNS_SWITCH ||
				    kns->line[y] != l)
					continue;
				for (j = 0; j < n && ln->sw[j] != y; j++)
					;
				for (q = 0; q < m && seen[q] != part[j]; q++)
					;
				if (q == m)
					seen[m++] = part[j];
			}
			for (p = 0; p < m; p++)
				for (q = 0; q < m; q++)
					if (p != q)
						share[seen[p] * n + seen[q]]++;
		}
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				if (share[i * n + j] >= 2 && i != j) {
					uint32_t lo = i < j ? i : j, hi = i ^ j ^ lo;

					for (a = 0; a < n; a++)
						if (part[a] == (int32_t)hi) {
							part[a] = lo;
							changed = 1;
						}
				}
	}
	for (i = 0; i < n; i++)
		one &= part[i] == part[0];
	free(part);
	free(share);
	return one;
}

/*
 * Heavier damage, drawn here: cables inside lines (between line switches,
 * and from routers to stage 1 where the router keeps another) removed with
 * probability q, each only if its line's switches stay joined by cables
 * and every router keeps a cable into every line, so the recognizer still
 * sees the KNS; what is left of a line may then not connect its routers
 * up*-down*.  kns: the intact fabric's answer.
 */
static unsigned int damage(struct ot_fabric *f, const struct ot_kns *kns,
			   struct ot_prng *rng, double q)
{
	uint32_t x;
	unsigned int p, cut = 0;

	for (x = 0; x < f->nnodes; x++) {
		for (p = 1; p <= f->node[x].nports; p++) {
			struct ot_port *a = &f->node[x].port[p], *b;
			int32_t y = a->peer, r = -1, l;
			uint32_t i;
			unsigned int pp, left = 0;
			bool ok = true;

			if (y < 0 || (int32_t)x > y ||
			    kns->role[x] == OT_KNS_CA ||
			    kns->role[y] == OT_KNS_CA ||
			    ot_prng_below(rng, 1000) >= q * 1000)
				continue;
			if (kns->role[x] == OT_KNS_ROUTER)
				r = x;
			if (kns->role[y] == OT_KNS_ROUTER)
				r = y;
			l = kns->line[r == (int32_t)x ? y : (int32_t)x];
			b = &f->node[y].port[a->peer_port];
			pp = a->peer_port;
			a->peer = -1;
			b->peer = -1;
			/* the router keeps a cable into the line */
			for (i = 1; r >= 0 && i <= f->node[r].nports; i++) {
				int32_t z = f->node[r].port[i].peer;

				left += z >= 0 && kns->role[z] == OT_KNS_SWITCH &&
					kns->line[z] == l;
			}
			ok = r < 0 || left > 0;
			/* the line stays one line for the recognizer */
			ok = ok && line_joined(f, kns, l);
			if (ok) {
				cut++;
				continue;
			}
			a->peer = y;
			b->peer = x;
			(void)pp;
		}
	}
	return cut;
}

/*
 * Whether router a reaches router t of line l going up then down, by a
 * search of its own over (switch, going down) states and the stages of
 * the recognizer.
 */
static bool updown(const struct ot_fabric *f, const struct ot_kns *kns,
		   uint32_t l, int32_t a, int32_t t)
{
	uint32_t *queue = malloc(2 * (f->nnodes + 1) * sizeof(*queue));
	uint8_t *seen = calloc(2 * (f->nnodes + 1), 1);
	uint32_t head = 0, tail = 0, i;
	bool found = false;

	ck_assert(queue && seen);
	for (i = 1; i <= f->node[a].nports; i++) {
		int32_t z = f->node[a].port[i].peer;

		if (z >= 0 && kns->role[z] == OT_KNS_SWITCH &&
		    kns->line[z] == (int32_t)l && !seen[2 * z]) {
			seen[2 * z] = 1;
			queue[tail++] = 2 * z;
		}
	}
	while (head < tail && !found) {
		uint32_t st = queue[head++], u = st / 2, down = st % 2;

		for (i = 1; i <= f->node[u].nports; i++) {
			int32_t z = f->node[u].port[i].peer;
			uint32_t nx;

			if (z < 0)
				continue;
			if (z == t && kns->stage[u] == 1) {
				found = true;
				break;
			}
			if (kns->role[z] != OT_KNS_SWITCH ||
			    kns->line[z] != (int32_t)l)
				continue;
			if (kns->stage[z] == kns->stage[u] + 1 && !down)
				nx = 2 * z;
			else if (kns->stage[z] + 1 == kns->stage[u])
				nx = 2 * z + 1;
			else
				continue;
			if (!seen[nx]) {
				seen[nx] = 1;
				queue[tail++] = nx;
			}
		}
	}
	free(queue);
	free(seen);
	return found;
}

/*
 * The escape layer on damaged lines (several seeds, heavier damage): every
 * pair reached, no credit loop, the rule on SL 0 / VL 0 elsewhere; and
 * exactly the CA LIDs some line cannot carry up*-down* on SL 1 / VL 1, so
 * one VL wherever up*-down* suffices and two only where it does not.
 */
START_TEST(escape_layer)
{
	struct ot_prng rng = { .state = 0xe5c + (uint64_t)_i * 104729 };
	unsigned int round, one = 0, two = 0;

	for (round = 0; round < 4 + rounds() / 2; round++) {
		struct ot_kns_params p;
		struct ot_check_report *rep = NULL;
		const struct ot_check_counts *cn;
		struct ot_error err = { 0 };
		struct ot_kns *kns, *dk;
		struct ot_fabric *f;
		struct ot_routing *r;
		char desc[256];
		double q = 0.1 + 0.1 * ot_prng_below(&rng, 4);
		unsigned int cut, needed = 0, escaped = 0, rounds_left = 16;
		unsigned int calids = 0;
		uint32_t lid, l, a;

		do {
			draw(&rng, &p, desc, sizeof(desc));
		} while (p.stages < 2 && p.line_up[1] < 2 && rounds_left--);
		f = gen(&p, round % 3 == 2);
		kns = recognized(f);
		cut = damage(f, kns, &rng, q);
		ot_kns_free(kns);
		ck_assert(!ot_fabric_index(f, &err));
		ck_assert_msg(!ot_engine_run(ot_engine_find("hdor"), f, &r, &err),
			      "%s, %u cables cut: %s", desc, cut, err.msg);
		dk = recognized(f);
		checked(f, r, &rep);
		cn = ot_check_counts(rep);
		ck_assert_msg(ot_check_ok(rep), "%s, %u cut: check not OK", desc,
			      cut);
		ck_assert_msg(cn->pairs > 0 && cn->reached == cn->pairs, "%s",
			      desc);
		ck_assert_msg(!cn->credit_loops && !cn->violations, "%s", desc);
		ck_assert_msg(!rank_violations(f, r), "%s: ranks", desc);
		/* which CA LIDs need the escape layer, found here */
		for (lid = 1; lid <= f->max_lid; lid++) {
			int o = f->lid_owner[lid].node;
			int32_t tr;
			bool need = false;

			if (o < 0 || f->node[o].type != OT_NODE_CA)
				continue;
			tr = dk->router[o];
			for (l = 0; l < dk->nlines && !need; l++) {
				const struct ot_kns_line *ln = &dk->lines[l];
				int d = ln->dim, e;
				int32_t t;

				for (e = 0; e < d; e++)
					if (dk->coord[(size_t)ln->router[0] *
						      dk->n + e] !=
					    dk->coord[(size_t)tr * dk->n + e])
						break;
				if (e < d)
					continue;
				t = ln->router[dk->coord[(size_t)tr * dk->n + d]];
				for (a = 0; a < dk->k && !need; a++)
					need = ln->router[a] != t &&
					       !updown(f, dk, l, ln->router[a], t);
			}
			needed += need;
			calids++;
			/*
			 * escaped whole (SL 1 from a source the engine does
			 * not know, as from every one) only where needed;
			 * else twists (route/hdor_ft_twist.c) may carry it
			 */
			escaped += ot_routing_path_sl(r, 0, lid) == 1;
			ck_assert_msg(need || ot_routing_path_sl(r, 0, lid) == 0,
				      "%s, %u cut: LID %u on SL %u, no line keeps it from dimension order",
				      desc, cut, lid, ot_routing_path_sl(r, 0, lid));
		}
		ck_assert_msg(r->nvls == (needed ? 2u : 1u), "%s: %u VLs, %u LIDs escaped",
			      desc, r->nvls, needed);
		/* VL 1 where some LID needs it, VL 0 where some not */
		ck_assert_msg((cn->vls_used & 2) == (needed ? 2 : 0) &&
			      (needed == calids || (cn->vls_used & 1)),
			      "%s: VLs 0x%x, %u of %u LIDs escaped", desc,
			      cn->vls_used, needed, calids);
		one += !needed;
		two += needed > 0;
		fprintf(stderr, "escape_layer: %s, q %.1f: %u cut, %u of %u CA LIDs escaped\n",
			desc, q, cut, escaped, calids);
		ot_check_report_free(rep);
		ot_kns_free(dk);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
	/* both kinds seen over the rounds of the loops (asserted per loop
	 * only where each is likely: two seen, one VL seen) */
	ck_assert_msg(two > 0, "no fabric needed the escape layer");
	(void)one;
}
END_TEST

/* Whether every node of f is reached from node 0 over cables. */
static bool connected(const struct ot_fabric *f)
{
	int32_t *queue = malloc((f->nnodes + 1) * sizeof(*queue));
	bool *seen = calloc(f->nnodes + 1, sizeof(*seen));
	uint32_t head = 0, tail = 0;
	unsigned int p;

	ck_assert(queue && seen);
	seen[0] = true;
	queue[tail++] = 0;
	while (head < tail) {
		int32_t x = queue[head++];

		for (p = 1; p <= f->node[x].nports; p++) {
			int32_t y = f->node[x].port[p].peer;

			if (y >= 0 && !seen[y]) {
				seen[y] = true;
				queue[tail++] = y;
			}
		}
	}
	free(queue);
	free(seen);
	return tail == f->nnodes;
}

/*
 * Routers of kns with no cable into one of their lines, and lines whose
 * switches fall into two parts or more (or none): the damage the seed's
 * recognition of the lines as single switches cannot take.
 */
static unsigned int heavy(const struct ot_fabric *f, const struct ot_kns *kns)
{
	unsigned int cut = 0, t, p;
	uint32_t l;

	for (l = 0; l < kns->nlines; l++) {
		const struct ot_kns_line *ln = &kns->lines[l];

		for (t = 0; t < kns->k; t++) {
			const struct ot_node *nd = &f->node[ln->router[t]];

			for (p = 1; p <= nd->nports; p++) {
				int32_t y = nd->port[p].peer;

				if (y >= 0 && kns->role[y] == OT_KNS_SWITCH &&
				    kns->line[y] == (int32_t)l)
					break;
			}
			cut += p > nd->nports;
		}
		cut += !ln->nsw || !line_joined(f, kns, l);
	}
	return cut;
}

/* at most this share of heavy_damage's CA pairs on the escape layer */
#define ESC_PAIRS_PCT 45

/* CA-to-CA pairs of r on the escape layer (path SL 1); *all: every one. */
static uint64_t escaped_pairs(const struct ot_fabric *f,
			      const struct ot_routing *r, uint64_t *all)
{
	uint64_t esc = 0;
	uint32_t s, lid;

	for (s = 0; s < f->nnodes; s++) {
		uint16_t slid = f->node[s].port[1].lid;

		if (f->node[s].type != OT_NODE_CA || f->node[s].port[1].peer < 0)
			continue;
		for (lid = 1; lid <= f->max_lid; lid++) {
			int o = f->lid_owner[lid].node;

			if (o < 0 || o == (int)s || f->node[o].type != OT_NODE_CA)
				continue;
			(*all)++;
			esc += ot_routing_path_sl(r, slid, lid) == 1;
		}
	}
	return esc;
}

/*
 * Heavy damage from the generator (cables and switches of the lines
 * dropped, 10-35 %, ports and node order shuffled) on random fat-tree
 * line KNSs: routers lose every cable into a line, lines fall apart.
 * When the fabric is connected hdor must route it: every pair, no
 * loop, no credit loop, no rule violation, ranks rising off the escape
 * layer, and the same next hops (as GUIDs) under another shuffle of the
 * same damage.  A fabric cut in two may be refused, by name.
 */
START_TEST(heavy_damage)
{
	struct ot_prng rng = { .state = 0xd3a9 + (uint64_t)_i * 7919 };
	unsigned int round, accepted = 0, beyond = 0, cut_off = 0, untold = 0;
	uint64_t esc = 0, all = 0;

	for (round = 0; round < 6 + rounds(); round++) {
		struct ot_kns_params p, q;
		struct ot_check_report *rep = NULL;
		const struct ot_check_counts *cn;
		struct ot_error err = { 0 };
		struct ot_fabric *f, *g;
		struct ot_routing *r = NULL, *rg;
		struct ot_kns *kns;
		char desc[320];
		size_t used;

		draw(&rng, &p, desc, sizeof(desc));
		p.drop_links = 0.1 + 0.05 * ot_prng_below(&rng, 4);
		p.drop_switches = 0.05 * ot_prng_below(&rng, 4);
		p.drop_seed = ot_prng_next(&rng);
		used = strlen(desc);
		snprintf(desc + used, sizeof(desc) - used,
			 " --drop-links %.2f --drop-switches %.2f --seed %" PRIu64,
			 p.drop_links, p.drop_switches, p.drop_seed);
		f = gen(&p, round % 4 == 3);
		if (ot_engine_run(ot_engine_find("hdor"), f, &r, &err)) {
			bool in_two = !connected(f);

			/* connected: refused only where too damaged to tell */
			ck_assert_msg(in_two || strstr(err.msg, "to tell"),
				      "%s: connected, refused: %s", desc, err.msg);
			ck_assert_msg(strstr(err.msg, "hdor: ") == err.msg &&
				      strstr(err.msg, "\""), "%s", err.msg);
			cut_off += in_two;
			untold += !in_two;
			fprintf(stderr, "heavy_damage: %s: refused: %.160s\n",
				desc, err.msg);
			ot_fabric_free(f);
			continue;
		}
		accepted++;
		kns = recognized(f);
		beyond += heavy(f, kns) > 0;
		ot_kns_free(kns);
		checked(f, r, &rep);
		cn = ot_check_counts(rep);
		if (connected(f)) {
			ck_assert_msg(ot_check_ok(rep), "%s: check not OK", desc);
			ck_assert_msg(cn->pairs > 0 && cn->reached == cn->pairs,
				      "%s: %" PRIu64 " of %" PRIu64 " pairs",
				      desc, cn->reached, cn->pairs);
		}
		ck_assert_msg(!cn->looping && !cn->credit_loops && !cn->violations,
			      "%s: loops, credit loops or violations", desc);
		ck_assert_msg(!rank_violations(f, r), "%s: ranks", desc);
		esc += escaped_pairs(f, r, &all);
		ot_check_report_free(rep);
		q = p;
		q.seed = ot_prng_next(&rng);
		g = gen(&q, round % 4 == 3);
		ck_assert_msg(!ot_engine_run(ot_engine_find("hdor"), g, &rg, &err),
			      "%s: shuffle seed %" PRIu64 " refused: %s", desc,
			      q.seed, err.msg);
		ck_assert_msg(!differences(f, r, g, rg), "%s: shuffle seed %"
			      PRIu64 " routes differently", desc, q.seed);
		ot_routing_free(rg);
		ot_fabric_free(g);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
	fprintf(stderr, "heavy_damage: %u accepted (%u with a router cut off a line or a line apart), %u refused cut in two, %u connected but too damaged to tell\n",
		accepted, beyond, cut_off, untold);
	ck_assert_msg(beyond > 0, "no fabric was damaged past the lines as single switches");
	/*
	 * Quality: the escape layer (one up*-down* over the whole fabric)
	 * carries few pairs; twists keep the rest in dimension order.
	 * Without twists (every destination some router cannot reach in
	 * dimension order on the layer, whole) it carried 47-81 % here.
	 */
	fprintf(stderr, "heavy_damage: %" PRIu64 " of %" PRIu64 " CA pairs on the escape layer\n",
		esc, all);
	ck_assert_msg(esc * 100 <= all * ESC_PAIRS_PCT,
		      "%" PRIu64 " of %" PRIu64 " CA pairs on the escape layer, more than %u %%",
		      esc, all, ESC_PAIRS_PCT);
	/* too damaged to tell: seen on 1 to 3 of 12 (k = 3, 35 % cut) */
	ck_assert_msg(untold * 4 <= accepted + untold,
		      "%u of %u connected fabrics refused as too damaged to tell",
		      untold, accepted + untold);
}
END_TEST

/*
 * Lines of several single-stage switches (each router cabled to each),
 * 15-25 % of the cables dropped, ports shuffled: a router that lost its
 * cables to some switches cannot reach some routers of its line up*-down*
 * (through one switch), and twists (route/hdor_ft_twist.c) carry most of
 * those destinations off the escape layer.  Checked as heavy_damage,
 * and the share of CA pairs on the escape layer over the loop at most
 * SEVERAL_ESC_PCT: with twists 20, 52, 38 % in the three loops; without
 * (whole destinations on the layer) 79, 93, 77 %.
 */
#define SEVERAL_ESC_PCT 60

START_TEST(heavy_damage_several)
{
	static const unsigned int ks[] = { 4, 6, 8 };
	struct ot_prng rng = { .state = 0x5e7e + (uint64_t)_i * 6361 };
	unsigned int round;
	uint64_t esc = 0, all = 0;

	for (round = 0; round < 6 + rounds(); round++) {
		struct ot_kns_params p = { 0 };
		struct ot_check_report *rep = NULL;
		const struct ot_check_counts *cn;
		struct ot_error err = { 0 };
		struct ot_routing *r = NULL;
		struct ot_fabric *f;

		p.k = ks[ot_prng_below(&rng, 3)];
		p.n = 2;
		p.cas = 2;
		p.links = 1;
		p.stages = 1;
		p.line_down[1] = p.k;
		p.line_up[1] = 2 + ot_prng_below(&rng, 2);
		p.line_links[1] = 1;
		p.shuffle = true;
		p.seed = ot_prng_next(&rng);
		p.drop_links = 0.15 + 0.05 * ot_prng_below(&rng, 3);
		p.drop_seed = ot_prng_next(&rng);
		f = gen(&p, 0);
		if (ot_engine_run(ot_engine_find("hdor"), f, &r, &err)) {
			/* cut in two, or too damaged to tell: named */
			ck_assert_msg(strstr(err.msg, "\""), "%s", err.msg);
			ot_fabric_free(f);
			continue;
		}
		checked(f, r, &rep);
		cn = ot_check_counts(rep);
		ck_assert_msg(!cn->looping && !cn->credit_loops &&
			      !cn->violations, "kns %u 2 --up %u --drop-links %.2f: loops, credit loops or violations",
			      p.k, p.line_up[1], p.drop_links);
		ck_assert_msg(!rank_violations(f, r), "ranks");
		esc += escaped_pairs(f, r, &all);
		ot_check_report_free(rep);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
	fprintf(stderr, "heavy_damage_several: %" PRIu64 " of %" PRIu64 " CA pairs on the escape layer\n",
		esc, all);
	ck_assert_msg(all > 0, "nothing routed");
	ck_assert_msg(esc * 100 <= all * SEVERAL_ESC_PCT,
		      "%" PRIu64 " of %" PRIu64 " CA pairs on the escape layer, more than %u %%",
		      esc, all, SEVERAL_ESC_PCT);
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
	tcase_add_loop_test(tc, labellings, 0, 4);
	tcase_add_test(tc, broken_table_is_caught);
	tcase_add_test(tc, damaged_lines);
	tcase_add_loop_test(tc, escape_layer, 0, 3);
	tcase_add_loop_test(tc, heavy_damage, 0, 3);
	tcase_add_loop_test(tc, heavy_damage_several, 0, 3);
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
