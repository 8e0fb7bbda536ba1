// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of the packet simulator (src/sim/sim.h) against figures it
 * must reproduce: the head-of-line limit of one switch with FIFO inputs
 * under uniform traffic (Karol, Hluchyj and Morgan 1987, destinations
 * over the other N - 1 CAs: our own Monte Carlo of the slotted model,
 * doc/simulate.md), a permutation on disjoint paths at full rate, never
 * above the checker's analytic bound, a ring routed the short way round
 * deadlocking with one packet of buffer per VL, the project's engines
 * never deadlocking, VL arbitration shares, and determinism.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/traffic.h"
#include "gen/gen.h"
#include "model/fabric.h"
#include "model/routing.h"
#include "model/vlarb.h"
#include "route/engine.h"
#include "sim/plot.h"
#include "sim/sim.h"
#include "traffic/pattern.h"
#include "unit.h"

/* One switch (node 0, n ports) with a CA on each port. */
static struct ot_fabric *star(unsigned int n)
{
	struct ot_error err = { 0 };
	struct ot_fabric *f = ot_fabric_new();
	char name[16];
	unsigned int i;

	ck_assert_int_eq(ot_fabric_add_node(f, OT_NODE_SWITCH, n, 0x100, "sw",
					    &err), 0);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "c%u", i);
		ck_assert_int_eq(ot_fabric_add_node(f, OT_NODE_CA, 1,
						    0x200 + i, name, &err),
				 (int)i + 1);
		ck_assert_int_eq(ot_fabric_link(f, 0, i + 1, (int)i + 1, 1,
						&err), 0);
	}
	ot_fabric_assign_lids(f);
	ck_assert_int_eq(ot_fabric_index(f, &err), 0);
	return f;
}

static struct ot_routing *star_routing(const struct ot_fabric *f)
{
	struct ot_routing *r = ot_routing_new(f);
	unsigned int p;

	ck_assert_ptr_nonnull(r);
	r->lft[0][f->node[0].port[0].lid] = 0;
	for (p = 1; p <= f->node[0].nports; p++)
		r->lft[0][f->node[p].port[1].lid] = (uint8_t)p;
	return r;
}

static struct ot_sim_params params(void)
{
	struct ot_sim_params p;

	ot_sim_params_default(&p);
	p.warmup = 500;
	p.measure = 3000;
	return p;
}

static double saturation(const struct ot_routing *r,
			 const struct ot_sim_params *p,
			 const struct ot_sim_traffic *t,
			 struct ot_sim_result *res)
{
	struct ot_error err = { 0 };
	struct ot_sim *s = ot_sim_new(r, p, &err);

	ck_assert_msg(s, "%s", err.msg);
	ck_assert_int_eq(ot_sim_run(s, t, 0, res, &err), 0);
	ot_sim_free(s);
	return res->accepted;
}

/*
 * The head-of-line limit for destinations over the other N - 1 ports:
 * our Monte Carlo of Karol's slotted model (doc/simulate.md), 10^6
 * slots each; N = 2 is exact.
 */
static const struct {
	unsigned int n;
	double limit;
} hol[] = {
	{ 2, 1.0 }, { 4, 0.690 }, { 8, 0.626 }, { 16, 0.604 }, { 32, 0.594 },
};

START_TEST(hol_limit)
{
	struct ot_fabric *f = star(hol[_i].n);
	struct ot_routing *r = star_routing(f);
	struct ot_sim_params p = params();
	struct ot_sim_traffic t = { .kind = OT_SIM_UNIFORM };
	struct ot_sim_result res;
	double got = saturation(r, &p, &t, &res);

	printf("hol N=%u: saturation %.4f (limit %.3f)\n", hol[_i].n, got,
	       hol[_i].limit);
	ck_assert_msg(fabs(got - hol[_i].limit) <= 0.02,
		      "N=%u: saturation %.4f, HOL limit %.3f", hol[_i].n, got,
		      hol[_i].limit);
	ck_assert(!res.deadlock);
	ck_assert_uint_eq(res.unrouted, 0);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/* Below saturation every offered packet gets through. */
START_TEST(low_load_accepted)
{
	struct ot_fabric *f = star(8);
	struct ot_routing *r = star_routing(f);
	struct ot_sim_params p = params();
	struct ot_sim_traffic t = { .kind = OT_SIM_UNIFORM };
	struct ot_error err = { 0 };
	struct ot_sim *s = ot_sim_new(r, &p, &err);
	struct ot_sim_result res;

	ck_assert_int_eq(ot_sim_run(s, &t, 0.3, &res, &err), 0);
	ck_assert_msg(fabs(res.accepted - 0.3) < 0.02, "accepted %.4f",
		      res.accepted);
	/* the least latency is a cable, a switch, a cable and a packet */
	ck_assert(res.lat_mean_ns > 2 * p.link_ns + p.switch_ns);
	p.arrivals = OT_SIM_EXPONENTIAL;
	ot_sim_free(s);
	s = ot_sim_new(r, &p, &err);
	ck_assert_int_eq(ot_sim_run(s, &t, 0.3, &res, &err), 0);
	ck_assert_msg(fabs(res.accepted - 0.3) < 0.02, "accepted %.4f",
		      res.accepted);
	ot_sim_free(s);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/* A permutation in one switch: every path its own, full rate. */
START_TEST(permutation_full_rate)
{
	struct ot_fabric *f = star(8);
	struct ot_routing *r = star_routing(f);
	struct ot_sim_params p = params();
	uint32_t partner[8], perm[8];
	struct ot_sim_traffic t = { .kind = OT_SIM_PERMUTATION,
				    .partner = partner };
	struct ot_sim_result res;

	ot_pattern_partners(OT_PATTERN_NEIGHBOR, 8, 1, partner, perm);
	ck_assert_msg(saturation(r, &p, &t, &res) > 0.995, "%.4f",
		      res.accepted);
	ck_assert(res.accepted_min > 0.995);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * A ring of k switches with one CA each, every destination reached the
 * short way round (ties clockwise), all on VL 0: the clockwise channels
 * close a credit loop.
 */
static struct ot_fabric *ring(unsigned int k, unsigned int cas)
{
	struct ot_error err = { 0 };
	struct ot_fabric *f = ot_fabric_new();
	char name[16];
	unsigned int i, c;

	for (i = 0; i < k; i++) {
		snprintf(name, sizeof(name), "s%u", i);
		ot_fabric_add_node(f, OT_NODE_SWITCH, 2 + cas, 0x100 + i, name,
				   &err);
	}
	for (i = 0; i < k; i++) {
		ck_assert_int_eq(ot_fabric_link(f, (int)i, 2,
						(int)((i + 1) % k), 1, &err),
				 0);
		for (c = 0; c < cas; c++) {
			int n;

			snprintf(name, sizeof(name), "c%u.%u", i, c);
			n = ot_fabric_add_node(f, OT_NODE_CA, 1,
					       0x200 + i * cas + c, name, &err);
			ck_assert_int_eq(ot_fabric_link(f, (int)i, 3 + c, n, 1,
							&err), 0);
		}
	}
	ot_fabric_assign_lids(f);
	ck_assert_int_eq(ot_fabric_index(f, &err), 0);
	return f;
}

static struct ot_routing *ring_routing(const struct ot_fabric *f,
				       unsigned int k)
{
	struct ot_routing *r = ot_routing_new(f);
	uint32_t n;
	unsigned int i;

	for (n = k; n < f->nnodes; n++) {
		unsigned int home = (unsigned int)f->node[n].port[1].peer;
		uint16_t lid = f->node[n].port[1].lid;

		for (i = 0; i < k; i++) {
			unsigned int cw = (home + k - i) % k;

			if (i == home)
				r->lft[i][lid] = f->node[n].port[1].peer_port;
			else
				r->lft[i][lid] = cw <= k / 2 ? 2 : 1;
		}
	}
	for (i = 0; i < k; i++)
		r->lft[i][f->node[i].port[0].lid] = 0;
	return r;
}

START_TEST(ring_deadlocks)
{
	struct ot_fabric *f = ring(4, 2);
	struct ot_routing *r = ring_routing(f, 4);
	struct ot_sim_params p = params();
	struct ot_sim_traffic t = { .kind = OT_SIM_UNIFORM };
	struct ot_sim_result res;
	unsigned int i;

	p.buffer = p.mtu; /* one packet per VL */
	saturation(r, &p, &t, &res);
	printf("ring: deadlock %d, %u channels, after %.0f ns\n",
	       res.deadlock, res.ncycle, res.sim_ns);
	ck_assert_msg(res.deadlock, "no deadlock, accepted %.3f",
		      res.accepted);
	/* the cycle is the four clockwise cables, on VL 0 */
	ck_assert_uint_eq(res.ncycle, 4);
	for (i = 0; i < res.ncycle; i++) {
		ck_assert_uint_eq(res.cycle[i].from_port, 2);
		ck_assert_uint_eq(res.cycle[i].to_port, 1);
		ck_assert_uint_eq(res.cycle[i].vl, 0);
	}
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/* The same ring routed clockwise only up to the dateline: no loop. */
START_TEST(ring_dateline_no_deadlock)
{
	struct ot_fabric *f = ring(4, 2);
	struct ot_routing *r = ring_routing(f, 4);
	struct ot_sim_params p = params();
	struct ot_sim_traffic t = { .kind = OT_SIM_UNIFORM };
	struct ot_sim_result res;
	uint32_t n;
	unsigned int i;

	/* up*-down*-like: never cross the cable s3 -> s0 (or s0 -> s3) */
	for (n = 4; n < f->nnodes; n++) {
		unsigned int home = (unsigned int)f->node[n].port[1].peer;

		for (i = 0; i < 4; i++)
			if (i != home)
				r->lft[i][f->node[n].port[1].lid] =
					i < home ? 2 : 1;
	}
	p.buffer = p.mtu;
	saturation(r, &p, &t, &res);
	ck_assert(!res.deadlock);
	ck_assert(res.accepted > 0.1);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/* The project's engines at full load with the smallest buffers. */
static struct ot_fabric *indexed(struct ot_fabric *f, unsigned int lmc)
{
	struct ot_error err = { 0 };

	ck_assert_msg(f, "generator failed");
	ck_assert_msg(!ot_fabric_set_ca_lmc(f, (uint8_t)lmc, &err), "%s",
		      err.msg);
	return f;
}

static struct ot_fabric *fam_kns(void)
{
	struct ot_kns_params p = { .k = 4, .n = 2, .cas = 3, .links = 1,
				   .shuffle = true, .seed = 5 };
	struct ot_error err = { 0 };

	return indexed(ot_gen_kns(&p, &err), 0);
}

static struct ot_fabric *fam_ff(void)
{
	struct ot_flatfly_params p = { .ndims = 3, .size = { 3, 4, 2 },
				       .width = { 2, 1, 1 }, .cas = 3,
				       .shuffle = true, .seed = 7 };
	struct ot_error err = { 0 };

	return indexed(ot_gen_flatfly(&p, &err), 0);
}

static struct ot_fabric *fam_ff_lmc(void)
{
	struct ot_flatfly_params p = { .ndims = 2, .size = { 4, 3 },
				       .cas = 2, .shuffle = true, .seed = 9 };
	struct ot_error err = { 0 };

	return indexed(ot_gen_flatfly(&p, &err), 1);
}

static struct ot_fabric *fam_ff_damaged(void)
{
	struct ot_flatfly_params p = { .ndims = 2, .size = { 4, 4 },
				       .cas = 3, .drop_links = 0.15,
				       .drop_seed = 4, .shuffle = true,
				       .seed = 3 };
	struct ot_error err = { 0 };

	return indexed(ot_gen_flatfly(&p, &err), 0);
}

static struct ot_fabric *fam_sf(void)
{
	struct ot_slimfly_params p = { .q = 5, .cas = 3, .shuffle = true,
				       .seed = 2 };
	struct ot_error err = { 0 };

	return indexed(ot_gen_slimfly(&p, &err), 0);
}

static struct ot_fabric *fam_df(void)
{
	struct ot_dragonfly_params p = { .a = 4, .h = 2, .p = 2 };
	struct ot_error err = { 0 };

	return indexed(ot_gen_dragonfly(&p, &err), 0);
}

static const struct {
	const char *engine;
	struct ot_fabric *(*make)(void);
} families[] = {
	{ "hdor", fam_kns },
	{ "ff-dor", fam_ff },
	{ "ff-mixed-dor", fam_ff },
	{ "ff-twisted-dor", fam_ff },
	{ "ff-twisted-mixed-dor", fam_ff },
	{ "ff-dor", fam_ff_damaged },
	{ "ff-ador", fam_ff_lmc },
	{ "ff-twisted-mixed-ador", fam_ff_lmc },
	{ "sf-mms", fam_sf },
	{ "df-static", fam_df },
};

START_TEST(engines_never_deadlock)
{
	struct ot_fabric *f = families[_i].make();
	struct ot_routing *r = NULL;
	struct ot_error err = { 0 };
	struct ot_sim_params p = params();
	struct ot_sim_traffic t = { .kind = OT_SIM_UNIFORM };
	struct ot_sim_result res;
	uint32_t n = 0, *partner, *perm;

	ck_assert_msg(!ot_engine_run(ot_engine_find(families[_i].engine), f,
				     &r, &err),
		      "%s refused: %s", families[_i].engine, err.msg);
	p.buffer = p.mtu; /* one packet per VL */
	p.warmup = 200;
	p.measure = 1500;
	p.deadlock_window = 100;
	p.lid = OT_SIM_LID_RR; /* every LID of an LMC range */
	saturation(r, &p, &t, &res);
	ck_assert_msg(!res.deadlock, "%s deadlocks (uniform)",
		      families[_i].engine);
	ck_assert_uint_eq(res.unrouted, 0);
	ck_assert_uint_eq(res.misdelivered, 0);
	ck_assert_uint_eq(res.stalled, 0);
	ck_assert(res.accepted > 0.05);
	{
		struct ot_error e2 = { 0 };
		struct ot_sim *s = ot_sim_new(r, &p, &e2);

		n = ot_sim_ncas(s);
		ot_sim_free(s);
	}
	partner = calloc(n, sizeof(*partner));
	perm = calloc(n, sizeof(*perm));
	ot_pattern_partners(OT_PATTERN_RANDOM, n, 3, partner, perm);
	t.kind = OT_SIM_PERMUTATION;
	t.partner = partner;
	saturation(r, &p, &t, &res);
	ck_assert_msg(!res.deadlock, "%s deadlocks (random permutation)",
		      families[_i].engine);
	/* and no sending CA starves (arbitration fair to every FIFO) */
	ck_assert_msg(res.accepted_min > 0.02, "%s: a CA starves (%.3f)",
		      families[_i].engine, res.accepted_min);
	free(partner);
	free(perm);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * Simulated saturation never above the checker's analytic throughput
 * (1 / the most loaded link: the rate at which every CA can send at
 * once), on each pattern of the checker: the CA that gets the least
 * gets no more than that, since the flows over the most loaded link
 * share its rate; 0.01 for the packets already in the buffers when the
 * window opens.  The mean may be above it (the other CAs send more).
 */
START_TEST(never_above_analytic)
{
	struct ot_fabric *f = families[_i].make();
	struct ot_routing *r = NULL;
	struct ot_error err = { 0 };
	struct ot_traffic_opts o = { .patterns = OT_PATTERNS_ALL, .seed = 1 };
	struct ot_balance_report *rep = NULL;
	struct ot_sim_params p = params();
	struct ot_sim *s;
	uint32_t *partner, *perm, n;
	unsigned int i;

	ck_assert(!ot_engine_run(ot_engine_find(families[_i].engine), f, &r,
				 &err));
	ck_assert_int_eq(ot_balance_run(f, r, &o, &rep, &err), 0);
	p.warmup = 300;
	p.measure = 1500;
	s = ot_sim_new(r, &p, &err);
	n = ot_sim_ncas(s);
	partner = calloc(n, sizeof(*partner));
	perm = calloc(n, sizeof(*perm));
	for (i = 0; i < ot_balance_npatterns(rep); i++) {
		const struct ot_pattern_load *pl = ot_balance_pattern(rep, i);
		struct ot_sim_traffic t = { .kind = OT_SIM_UNIFORM };
		struct ot_sim_result res;

		if (pl->kind != OT_PATTERN_UNIFORM) {
			ot_pattern_partners(pl->kind, n, pl->seed, partner,
					    perm);
			t.kind = OT_SIM_PERMUTATION;
			t.partner = partner;
		}
		ck_assert_int_eq(ot_sim_run(s, &t, 0, &res, &err), 0);
		ck_assert_msg(res.accepted_min <= pl->base.throughput + 0.01,
			      "%s %s: simulated %.4f above analytic %.4f",
			      families[_i].engine, pl->name, res.accepted_min,
			      pl->base.throughput);
		ck_assert(!res.deadlock);
	}
	free(partner);
	free(perm);
	ot_sim_free(s);
	ot_balance_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * Two CAs send to a third through one switch, on SL 0 and SL 1, the
 * switch mapping SL s to VL s; the output port's low table gives VL 0
 * weight w0 and VL 1 weight w1 (64-byte units, whole packets).
 */
static uint8_t sl_by_source(const struct ot_routing *r, uint16_t slid,
			    uint16_t dlid)
{
	(void)dlid;
	return slid == r->fabric->node[2].port[1].lid ? 1 : 0;
}

static void arb_run(unsigned int w0, unsigned int w1, const int8_t *cls,
		    struct ot_sim_result *res);

static void arb_shares(unsigned int w0, unsigned int w1, double *s0,
		       double *s1)
{
	struct ot_sim_result res;

	arb_run(w0, w1, NULL, &res);
	*s0 = res.sl[0].delivered / (double)res.delivered;
	*s1 = res.sl[1].delivered / (double)res.delivered;
	printf("vlarb weights %u:%u: shares %.4f %.4f\n", w0, w1, *s0, *s1);
	ck_assert_msg(res.accepted > 0.49, "link not saturated: %.3f",
		      res.accepted);
}

static void arb_run(unsigned int w0, unsigned int w1, const int8_t *cls,
		    struct ot_sim_result *res)
{
	struct ot_fabric *f = star(3);
	struct ot_routing *r = star_routing(f);
	struct ot_vlarb_tables *vt = ot_vlarb_new(f);
	struct ot_vlarb_port *vp = ot_vlarb_port(vt, 0, 3);
	struct ot_sim_params p = params();
	struct ot_sim_pair pairs[2] = { { 0, 2, 1 }, { 1, 2, 1 } };
	struct ot_sim_traffic t = { .kind = OT_SIM_PAIRS, .pairs = pairs,
				    .npairs = 2 };
	unsigned int in, out, sl, np = 3;

	r->sl2vl[0] = calloc((np + 1) * (np + 1) * OT_NUM_SLS, 1);
	for (in = 0; in <= np; in++)
		for (out = 0; out <= np; out++)
			for (sl = 0; sl < OT_NUM_SLS; sl++)
				r->sl2vl[0][ot_sl2vl_index(np, in, out, sl)] =
					(uint8_t)(sl < 2 ? sl : 0);
	r->path_sl = sl_by_source;
	vp->read = true;
	vp->high_cap = vp->low_cap = 8;
	vp->op_vls = 8;
	vp->low[0].vl = 0;
	vp->low[0].weight = (uint8_t)w0;
	vp->low[1].vl = 1;
	vp->low[1].weight = (uint8_t)w1;
	p.vlarb = vt;
	p.sl_class = cls;
	saturation(r, &p, &t, res);
	ot_vlarb_free(vt);
	ot_routing_free(r);
	ot_fabric_free(f);
}

START_TEST(vlarb_shares)
{
	double s0, s1;

	/* 2048-byte packets are 32 units: 3 packets to 1 */
	arb_shares(96, 32, &s0, &s1);
	ck_assert_msg(fabs(s0 - 0.75) <= 0.02 && fabs(s1 - 0.25) <= 0.02,
		      "shares %.3f %.3f, table 0.75 0.25", s0, s1);
	/* 1 to 1 */
	arb_shares(32, 32, &s0, &s1);
	ck_assert_msg(fabs(s0 - 0.5) <= 0.02, "shares %.3f %.3f, table 0.5",
		      s0, s1);
	/* a weight of 40 still sends 2 whole packets: 2 to 1 */
	arb_shares(40, 20, &s0, &s1);
	ck_assert_msg(fabs(s0 - 2.0 / 3) <= 0.02,
		      "shares %.3f %.3f, table 2/3 1/3", s0, s1);
}
END_TEST

/*
 * QoS classes over SLs: the arbitration case above with SL 0 and SL 1
 * in classes 1 and 0, and then both (and SL 5, unused) in class 2.  A
 * class's figures are its SLs' (its latency percentile from their
 * samples merged: all of them, the whole run's).
 */
START_TEST(class_figures)
{
	int8_t apart[OT_NUM_SLS], together[OT_NUM_SLS];
	struct ot_sim_result a, b;
	unsigned int sl;

	memset(apart, -1, sizeof(apart));
	memset(together, -1, sizeof(together));
	apart[0] = 1;
	apart[1] = 0;
	together[0] = together[1] = together[5] = 2;
	arb_run(96, 32, apart, &a);
	ck_assert_uint_eq(a.class_mask, 3);
	for (sl = 0; sl < 2; sl++) {
		const struct ot_sim_sl *c = &a.cls[1 - sl], *x = &a.sl[sl];

		ck_assert_uint_eq(c->delivered, x->delivered);
		ck_assert(fabs(c->accepted - x->accepted) < 1e-12);
		ck_assert(fabs(c->lat_mean_ns - x->lat_mean_ns) < 1e-9);
		ck_assert(fabs(c->lat_p99_ns - x->lat_p99_ns) < 1e-9);
	}
	/* the table's 3:1 (whole packets), per class */
	ck_assert_msg(fabs(a.cls[1].accepted / (a.cls[0].accepted +
						  a.cls[1].accepted) - 0.75) <=
			      0.02,
		      "class shares %.3f %.3f", a.cls[1].accepted,
		      a.cls[0].accepted);
	arb_run(96, 32, together, &b);
	ck_assert_uint_eq(b.class_mask, 1u << 2);
	ck_assert_uint_eq(b.cls[2].delivered, b.delivered);
	ck_assert(fabs(b.cls[2].accepted - b.accepted) < 1e-9);
	ck_assert(fabs(b.cls[2].lat_mean_ns - b.lat_mean_ns) < 1e-6);
	ck_assert(fabs(b.cls[2].lat_p99_ns - b.lat_p99_ns) < 1e-9);
	ck_assert(b.cls[2].lat_p99_ns > b.sl[0].lat_p99_ns ||
		  b.cls[2].lat_p99_ns > b.sl[1].lat_p99_ns ||
		  b.sl[0].lat_p99_ns == b.sl[1].lat_p99_ns);
	printf("classes: 3:1 split %.4f / %.4f, p99 %.0f / %.0f ns; merged p99 %.0f ns\n",
	       a.cls[1].accepted, a.cls[0].accepted, a.cls[1].lat_p99_ns,
	       a.cls[0].lat_p99_ns, b.cls[2].lat_p99_ns);
}
END_TEST

/* Same seed, same result; another seed, another sample. */
START_TEST(deterministic)
{
	struct ot_fabric *f = fam_ff();
	struct ot_routing *r = NULL;
	struct ot_error err = { 0 };
	struct ot_sim_params p = params();
	struct ot_sim_traffic t = { .kind = OT_SIM_UNIFORM };
	struct ot_sim_result a, b;
	struct ot_sim *s;

	ck_assert(!ot_engine_run(ot_engine_find("ff-dor"), f, &r, &err));
	p.warmup = 100;
	p.measure = 500;
	s = ot_sim_new(r, &p, &err);
	ck_assert_int_eq(ot_sim_run(s, &t, 0.5, &a, &err), 0);
	ck_assert_int_eq(ot_sim_run(s, &t, 0.5, &b, &err), 0);
	ck_assert_uint_eq(a.delivered, b.delivered);
	ck_assert_uint_eq(a.packet_hops, b.packet_hops);
	ck_assert(a.lat_mean_ns == b.lat_mean_ns);
	ot_sim_free(s);
	p.seed = 2;
	s = ot_sim_new(r, &p, &err);
	ck_assert_int_eq(ot_sim_run(s, &t, 0.5, &b, &err), 0);
	ck_assert(a.packet_hops != b.packet_hops);
	ot_sim_free(s);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * ff-ador with LMC 1 on a 3x3x3 FlatFly, every packet on the next LID of
 * its destination, bit reverse: the heads of an input port's two VLs
 * want the same output VL, and a round-robin over input ports alone
 * (not over their FIFOs) starved the second VL's sources for good.
 */
START_TEST(no_starvation)
{
	struct ot_flatfly_params fp = { .ndims = 3, .size = { 3, 3, 3 },
					.width = { 2, 1, 1 }, .cas = 2 };
	struct ot_error err = { 0 };
	struct ot_fabric *f = indexed(ot_gen_flatfly(&fp, &err), 1);
	struct ot_routing *r = NULL;
	struct ot_sim_params p = params();
	uint32_t partner[54], perm[54];
	struct ot_sim_traffic t = { .kind = OT_SIM_PERMUTATION,
				    .partner = partner };
	struct ot_sim_result res;

	ck_assert(!ot_engine_run(ot_engine_find("ff-ador"), f, &r, &err));
	ot_pattern_partners(OT_PATTERN_REVERSE, 54, 1, partner, perm);
	p.lid = OT_SIM_LID_RR;
	p.warmup = 200;
	p.measure = 1000;
	saturation(r, &p, &t, &res);
	ck_assert_msg(res.accepted_min > 0.1, "a CA starves: least %.3f",
		      res.accepted_min);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/* Hot spot: the hot CA's cable caps what reaches it. */
START_TEST(hotspot)
{
	struct ot_fabric *f = star(8);
	struct ot_routing *r = star_routing(f);
	struct ot_sim_params p = params();
	struct ot_sim_traffic t = { .kind = OT_SIM_HOTSPOT,
				    .hot_fraction = 0.5, .hot = 3 };
	struct ot_sim_result res;

	saturation(r, &p, &t, &res);
	/* 7 sources send half their packets to CA 3, which takes one link */
	ck_assert_msg(res.accepted < 0.35, "accepted %.3f", res.accepted);
	ck_assert(!res.deadlock);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/* Every number pair "X,Y" or cx/cy of the SVG inside one of the rects. */
static unsigned int count(const char *s, const char *what)
{
	unsigned int n = 0;

	for (s = strstr(s, what); s; s = strstr(s + 1, what))
		n++;
	return n;
}

static bool in_some_panel(double x, double y, const double (*rect)[4],
			  unsigned int nrect)
{
	unsigned int i;

	for (i = 0; i < nrect; i++)
		if (x >= rect[i][0] - 1e-9 && x <= rect[i][0] + rect[i][2] + 1e-9 &&
		    y >= rect[i][1] - 1e-9 && y <= rect[i][1] + rect[i][3] + 1e-9)
			return true;
	return false;
}

/*
 * The SVG writer of simulate and compare: one curve group and one legend
 * line per series, per chart; a deadlocked point is a cross, not a
 * vertex (the curve breaks there); a series with no point says its note;
 * every vertex and marker inside a panel; the latency axis ends at the
 * largest figure that did not deadlock.
 */
START_TEST(plot_series)
{
	const struct ot_plot_point a[] = { { 0.2, 0.2, 500, false },
					   { 0.6, 0.58, 900, false },
					   { 1.0, 1.3, 1500, false } };
	const struct ot_plot_point b[] = { { 0.2, 0.2, 700, false },
					   { 0.6, 0, 1e12, true },
					   { 1.0, 0.4, 1200, false } };
	const struct ot_plot_series ser[] = {
		{ "hdor", a, 3, 0.81, false, NULL },
		{ "minhop", b, 3, 0, true, NULL },
		{ "lash", NULL, 0, -1, false, "failed: <cannot route>" },
	};
	const struct ot_plot_chart ch[] = { { "uniform", ser, 3 },
					    { "neighbor & co", ser, 2 } };
	double rect[8][4], x, y;
	unsigned int nrect = 0, npts = 0;
	char *buf = NULL, *p;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(ot_plot_svg(out, "t", ch, 2), 0);
	ck_assert_int_eq(fclose(out), 0);
	ck_assert_uint_eq(count(buf, "<g class=\"chart\""), 2);
	ck_assert_uint_eq(count(buf, "<g class=\"curve\""), 5);
	ck_assert_uint_eq(count(buf, "class=\"legend\""), 5);
	ck_assert_ptr_nonnull(strstr(buf, "data-title=\"neighbor &amp; co\""));
	/* hdor: one polyline per panel; minhop: two (broken at 0.6); lash
	 * none: 2 + 4 in the first chart, 2 + 4 in the second */
	ck_assert_uint_eq(count(buf, "<polyline"), 12);
	/* vertices: hdor 3, minhop 2, per panel, per chart */
	ck_assert_uint_eq(count(buf, "<circle"), 2 * 2 * (3 + 2));
	ck_assert_uint_eq(count(buf, "class=\"deadlock\""), 2 * 2);
	ck_assert_uint_eq(count(buf, "DEADLOCK at offered 0.60<"), 2);
	ck_assert_uint_eq(count(buf, "minhop (saturation: DEADLOCK)"), 2);
	ck_assert_uint_eq(count(buf, "hdor (saturation 0.810)"), 2);
	ck_assert_ptr_nonnull(
		strstr(buf, "lash: no curve (failed: &lt;cannot route&gt;)"));
	/* the latency axis ends at 1500, not at the deadlocked 1e12 */
	ck_assert_uint_eq(count(buf, ">1500</text>"), 2);
	for (p = strstr(buf, "<rect class=\"axes\""); p;
	     p = strstr(p + 1, "<rect class=\"axes\"")) {
		ck_assert_uint_lt(nrect, 8);
		ck_assert_int_eq(sscanf(p, "<rect class=\"axes\" x=\"%lf\" y=\"%lf\" width=\"%lf\" height=\"%lf\"",
					&rect[nrect][0], &rect[nrect][1],
					&rect[nrect][2], &rect[nrect][3]), 4);
		nrect++;
	}
	ck_assert_uint_eq(nrect, 4);
	for (p = strstr(buf, "points=\""); p; p = strstr(p, "points=\"")) {
		int used;

		for (p += 8; sscanf(p, "%lf,%lf %n", &x, &y, &used) == 2; p += used) {
			ck_assert_msg(in_some_panel(x, y, rect, nrect),
				      "vertex %.1f,%.1f outside the panels", x, y);
			npts++;
		}
	}
	ck_assert_uint_eq(npts, 2 * 2 * (3 + 2));
	for (p = strstr(buf, "<circle"); p; p = strstr(p + 1, "<circle")) {
		ck_assert_int_eq(sscanf(p, "<circle r=\"2.5\" cx=\"%lf\" cy=\"%lf\"", &x, &y), 2);
		ck_assert_msg(in_some_panel(x, y, rect, nrect),
			      "marker %.1f,%.1f outside the panels", x, y);
	}
	/* hdor's third point, accepted 1.3, is clamped onto the top edge */
	ck_assert_ptr_nonnull(strstr(buf, "<circle r=\"2.5\" cx=\"410.0\" cy=\"80.0\""));
	free(buf);
}
END_TEST

static Suite *sim_suite(void)
{
	Suite *s = suite_create("sim");
	TCase *tc = tcase_create("model");

	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, hol_limit, 0, sizeof(hol) / sizeof(hol[0]));
	tcase_add_test(tc, low_load_accepted);
	tcase_add_test(tc, permutation_full_rate);
	tcase_add_test(tc, ring_deadlocks);
	tcase_add_test(tc, ring_dateline_no_deadlock);
	tcase_add_test(tc, vlarb_shares);
	tcase_add_test(tc, class_figures);
	tcase_add_test(tc, deterministic);
	tcase_add_test(tc, hotspot);
	tcase_add_test(tc, no_starvation);
	tcase_add_test(tc, plot_series);
	suite_add_tcase(s, tc);
	tc = tcase_create("engines");
	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, engines_never_deadlock, 0,
			    sizeof(families) / sizeof(families[0]));
	tcase_add_loop_test(tc, never_above_analytic, 0,
			    sizeof(families) / sizeof(families[0]));
	suite_add_tcase(s, tc);
	return s;
}

OT_UNIT_MAIN(sim_suite)
