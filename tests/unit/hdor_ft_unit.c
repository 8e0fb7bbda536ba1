// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Helpers shared by the unit tests of hdor on fat-tree-line KNSs
 * (test_hdor_ft.c: intact fabrics, balance, labellings;
 * test_hdor_ft_damage.c: damage, twists, the escape layer): fabrics drawn
 * at random, the checker's report, the channel ranks of hdor_ft.c's
 * deadlock argument, next hops compared by GUID.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "route/engine.h"

#include "route/hdor_ft.h"
#include "hdor_ft_unit.h"

#define MAX_PATH 64

uint64_t name_guid(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ull;
	}
	return h;
}

struct ot_fabric *gen(const struct ot_kns_params *p, unsigned int lmc)
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

struct ot_routing *route(const struct ot_fabric *f)
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
void draw_some(struct ot_prng *rng, struct ot_kns_params *p, char *desc,
	       size_t len, bool several)
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
void describe(const struct ot_kns_params *p, char *desc, size_t len)
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

void draw(struct ot_prng *rng, struct ot_kns_params *p, char *desc, size_t len)
{
	draw_some(rng, p, desc, len, false);
}

const struct ot_check_report *checked(const struct ot_fabric *f,
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
 * The checked uniform throughput of r on f, held to every pair reached,
 * no loop, no credit loop, no rule violation, within 4 VLs and r's own
 * count (desc names the fabric in a failure).
 */
double checked_all(const struct ot_fabric *f, const struct ot_routing *r,
		   const char *desc)
{
	struct ot_check_report *rep = NULL;
	const struct ot_check_counts *cn;
	double u;

	checked(f, r, &rep);
	cn = ot_check_counts(rep);
	ck_assert_msg(ot_check_ok(rep) && cn->reached == cn->pairs &&
		      !cn->looping && !cn->credit_loops && !cn->violations,
		      "%s: not OK, unreached, a credit loop or a violation",
		      desc);
	ck_assert_msg(r->nvls <= 4 && !(cn->vls_used >> r->nvls),
		      "%s: %u VLs, VLs used 0x%x", desc, r->nvls,
		      (unsigned int)cn->vls_used);
	u = ot_balance_pattern(ot_check_balance(rep), 0)->base.throughput;
	ot_check_report_free(rep);
	return u;
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
struct ot_kns *recognized(const struct ot_fabric *f)
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
unsigned long rank_violations(const struct ot_fabric *f,
			      const struct ot_routing *r)
{
	/* the routing's own numbering (hdor may order the dimensions) */
	const struct ot_kns *own = ot_hdor_ft_kns(r);
	struct ot_kns *found = own ? NULL : recognized(f);
	const struct ot_kns *kns = own ? own : found;
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
	ot_kns_free(found);
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
unsigned long differences(const struct ot_fabric *f,
			  const struct ot_routing *rf, const struct ot_fabric *g,
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

/* Fabrics per loop of random_fabrics: OT_HDOR_FT_ROUNDS, default 6. */
unsigned int rounds(void)
{
	const char *v = getenv("OT_HDOR_FT_ROUNDS");

	return v && atoi(v) > 0 ? (unsigned int)atoi(v) : 6;
}
