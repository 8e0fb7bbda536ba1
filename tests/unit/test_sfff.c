// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of Slim Fly x FlatFly products: the generator
 * (src/gen/sfff.c) builds the product the names say (every cable inside
 * one factor, between neighbours there; the paper's SF x FF-1 and
 * SF x FF-2 counts); the recognizer (src/topo/sfff.c) maps shuffled
 * products with parallel cables and several CAs per switch so that the
 * FlatFly dimensions and the Slim Fly positions agree with the names
 * (up to a relabelling), and refuses other fabrics and a mis-cabled
 * product naming a switch; the ff-* engines on products (route/ff/sfdim.c)
 * reach every pair minimally in every dimension, keep their promise and
 * leave no credit loop with their SL2VL and path SLs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "gen/gen.h"
#include "route/engine.h"
#include "topo/sfff.h"

#include "unit.h"

struct shape {
	unsigned int q, width, ndims, size[3], fwidth[3], cas;
};

static struct ot_fabric *gen(const struct shape *s, bool shuffle,
			     uint64_t seed, double drop_links)
{
	struct ot_sfff_params p = { .q = s->q, .width = s->width,
				    .ndims = s->ndims, .cas = s->cas,
				    .shuffle = shuffle, .seed = seed,
				    .drop_links = drop_links, .drop_seed = seed };
	struct ot_error err = { 0 };
	struct ot_fabric *f;
	unsigned int d;

	for (d = 0; d < s->ndims; d++) {
		p.size[d] = s->size[d];
		p.fwidth[d] = s->fwidth[d];
	}
	f = ot_gen_sfff(&p, &err);
	ck_assert_msg(f, "gen: %s", err.msg);
	ot_fabric_assign_lids(f);
	ck_assert_msg(!ot_fabric_index(f, &err), "index: %s", err.msg);
	return f;
}

/* The coordinates a name carries: t, x, y, then the FlatFly's. */
static void name_coords(const struct ot_fabric *f, int32_t n, uint32_t *c,
			unsigned int want)
{
	ck_assert_uint_eq(ot_gen_name_coords(f->node[n].desc, c, 8), want);
}

/* The generator: cables inside one factor, MMS or one FlatFly dimension. */
START_TEST(gen_product_rule)
{
	const struct shape s = { 4, 2, 2, { 3, 2 }, { 1, 2 }, 3 };
	struct ot_fabric *f = gen(&s, true, 11, 0);
	struct ot_mms m;
	struct ot_error err = { 0 };
	uint32_t n, a[8], b[8];
	unsigned int p, sf = 0, ff[2] = { 0 };

	ck_assert(!ot_mms_init(&m, 4, &err));
	ck_assert_uint_eq(f->nswitches, 32 * 6);
	ck_assert_uint_eq(f->ncas, 32 * 6 * 3);
	for (n = 0; n < f->nnodes; n++) {
		if (!ot_is_switch(f, n))
			continue;
		name_coords(f, n, a, 5);
		for (p = 1; p <= f->node[n].nports; p++) {
			int32_t peer = f->node[n].port[p].peer;
			uint32_t pa, pb;

			if (peer < 0 || !ot_is_switch(f, peer))
				continue;
			name_coords(f, peer, b, 5);
			pa = ot_mms_pos(&m, a[0], a[1], a[2]);
			pb = ot_mms_pos(&m, b[0], b[1], b[2]);
			if (pa != pb) {
				ck_assert(ot_mms_adjacent(&m, pa, pb));
				ck_assert(a[3] == b[3] && a[4] == b[4]);
				sf++;
			} else {
				ck_assert((a[3] != b[3]) + (a[4] != b[4]) == 1);
				ff[a[3] != b[3] ? 0 : 1]++;
			}
		}
	}
	/* cable ends: 2 per cable */
	ck_assert_uint_eq(sf, 6 * 32 * m.deg * 2);
	ck_assert_uint_eq(ff[0], 32 * 2 * 3 * 2 * 1);
	ck_assert_uint_eq(ff[1], 32 * 3 * 1 * 2 * 2);
	ot_mms_free(&m);
	ot_fabric_free(f);
}
END_TEST

/* The paper's SF x FF-1 and SF x FF-2: 2,048 switches, 16,384 CAs. */
START_TEST(gen_paper_products)
{
	static const struct shape s[] = {
		{ 4, 2, 2, { 8, 8 }, { 1, 1 }, 8 },
		{ 8, 1, 1, { 16 }, { 1 }, 8 },
	};
	static const unsigned int radix[] = { 34, 35 };
	struct ot_fabric *f = gen(&s[_i], false, 0, 0);
	uint32_t n;

	ck_assert_uint_eq(f->nswitches, 2048);
	ck_assert_uint_eq(f->ncas, 16384);
	for (n = 0; n < f->nnodes; n++)
		if (ot_is_switch(f, n))
			ck_assert_uint_eq(f->node[n].nports, radix[_i]);
	ot_fabric_free(f);
}
END_TEST

/* A built value b of built dimension k maps to mapped value v, 1:1. */
static void one_to_one(int32_t *fwd, int32_t *rev, uint32_t b, uint32_t v)
{
	ck_assert(fwd[b] < 0 || fwd[b] == (int32_t)v);
	ck_assert(rev[v] < 0 || rev[v] == (int32_t)b);
	fwd[b] = v;
	rev[v] = b;
}

/* The mapped dimension of built dimension k (0: the Slim Fly). */
static void check_cables(const struct ot_fabric *f, const struct shape *s,
			 const struct ot_sfff *p, int *to_mapped)
{
	const struct ot_ff *ff = p->ff;
	uint32_t n, a[8], b[8];
	unsigned int q, k;

	for (n = 0; n < f->nnodes; n++) {
		if (!ot_is_switch(f, n))
			continue;
		name_coords(f, n, a, 3 + s->ndims);
		for (q = 1; q <= f->node[n].nports; q++) {
			int32_t peer = f->node[n].port[q].peer;
			int d = ot_ff_port_dim(ff, n, q);

			if (peer < 0 || !ot_is_switch(f, peer))
				continue;
			name_coords(f, peer, b, 3 + s->ndims);
			k = a[0] != b[0] || a[1] != b[1] || a[2] != b[2] ? 0 :
			    1 + ot_ff_one_diff(a + 3, b + 3, s->ndims);
			ck_assert(to_mapped[k] < 0 || to_mapped[k] == d);
			to_mapped[k] = d;
			if (d == OT_SFFF_SF_DIM)
				ck_assert(ot_mms_adjacent(&p->mms,
					ot_ff_coord(ff, ff->sw_slot[n], 0),
					ot_ff_coord(ff, ff->sw_slot[peer], 0)));
		}
	}
}

/*
 * The mapping agrees with the names: one mapped dimension per built one
 * (the Slim Fly is mapped 0), values and MMS positions one to one, the
 * same labelling in every copy.
 */
static void check_mapping(const struct ot_fabric *f, const struct shape *s,
			  const struct ot_sfff *p)
{
	const struct ot_ff *ff = p->ff;
	unsigned int nd = 1 + s->ndims, k;
	int to_mapped[4] = { -1, -1, -1, -1 };
	int32_t fwd[4][512], rev[4][512];
	uint32_t n, c[8];

	ck_assert_uint_eq(ff->ndims, nd);
	ck_assert_uint_eq(p->mms.q, s->q);
	ck_assert_uint_eq(ff->size[0], 2 * s->q * s->q);
	ck_assert_uint_eq(ff->width[0], s->width);
	ck_assert_msg(!ot_ff_verify(ff, &(struct ot_error){ 0 }), "verify");
	check_cables(f, s, p, to_mapped);
	ck_assert_int_eq(to_mapped[0], OT_SFFF_SF_DIM);
	memset(fwd, -1, sizeof(fwd));
	memset(rev, -1, sizeof(rev));
	for (n = 0; n < f->nnodes; n++) {
		if (!ot_is_switch(f, n))
			continue;
		name_coords(f, n, c, 3 + s->ndims);
		c[2] = (c[0] * s->q + c[1]) * s->q + c[2];
		for (k = 0; k < nd; k++) {
			int d = to_mapped[k];

			ck_assert_int_ge(d, 0);
			one_to_one(fwd[k], rev[d], c[2 + k],
				   ot_ff_coord(ff, ff->sw_slot[n], d));
		}
	}
}

static const struct shape shapes[] = {
	{ 4, 2, 1, { 4 }, { 1 }, 3 },
	{ 5, 1, 2, { 3, 2 }, { 2, 1 }, 2 },
	{ 3, 1, 2, { 2, 4 }, { 1, 1 }, 1 },
	{ 4, 1, 0, { 0 }, { 0 }, 2 },
	{ 8, 1, 1, { 3 }, { 2 }, 1 },
	{ 7, 2, 1, { 2 }, { 1 }, 1 },
};

START_TEST(recognize_shuffled)
{
	const struct shape *s = &shapes[_i];
	struct ot_fabric *f = gen(s, true, 31 + _i, 0);
	struct ot_error err = { 0 };
	struct ot_sfff *p;

	ck_assert_msg(!ot_sfff_recognize(f, &p, &err), "shape %d: %s", _i,
		      err.msg);
	check_mapping(f, s, p);
	ot_sfff_free(p);
	ot_fabric_free(f);
}
END_TEST

/* Whether switches a and b share their FlatFly coordinates (names). */
static bool same_copy(const struct ot_fabric *f, int32_t a, int32_t b)
{
	const char *x = strchr(f->node[a].desc, ','), *y;

	x = strchr(strchr(x + 1, ',') + 1, ',');
	y = strchr(f->node[b].desc, ',');
	y = strchr(strchr(y + 1, ',') + 1, ',');
	return !strcmp(x, y);
}

static bool cabled(const struct ot_fabric *f, int32_t a, int32_t b)
{
	unsigned int p;

	for (p = 1; p <= f->node[a].nports; p++)
		if (f->node[a].port[p].peer == b)
			return true;
	return false;
}

static void relink(struct ot_fabric *f, int32_t a, unsigned int pa,
		   int32_t d, unsigned int pd)
{
	f->node[a].port[pa].peer = d;
	f->node[a].port[pa].peer_port = pd;
	f->node[d].port[pd].peer = a;
	f->node[d].port[pd].peer_port = pa;
}

/* Whether switches a and b share their Slim Fly coordinates (names). */
static bool same_sf(const struct ot_fabric *f, int32_t a, int32_t b)
{
	uint32_t x[8], y[8];

	ot_gen_name_coords(f->node[a].desc, x, 8);
	ot_gen_name_coords(f->node[b].desc, y, 8);
	return x[0] == y[0] && x[1] == y[1] && x[2] == y[2];
}

/*
 * Two cables a-b, c-d that pass keep() become a-d, c-b (a and c in one
 * copy when sf, at one Slim Fly position otherwise).
 */
static void swap_cables(struct ot_fabric *f, bool sf)
{
	int32_t a, b, c, d;
	unsigned int pa, pb, pc, pd;

	for (a = 0; ot_is_switch(f, a); a++)
		for (pa = 1; pa <= f->node[a].nports; pa++) {
			b = f->node[a].port[pa].peer;
			if (b < 0 || !ot_is_switch(f, b) ||
			    same_copy(f, a, b) != sf)
				continue;
			for (c = a + 1; ot_is_switch(f, c); c++)
				for (pc = 1; pc <= f->node[c].nports; pc++) {
					d = f->node[c].port[pc].peer;
					if (d < 0 || !ot_is_switch(f, d) ||
					    (sf ? !same_copy(f, a, c) ||
						  !same_copy(f, c, d) :
						  same_sf(f, a, c) ||
						  same_copy(f, c, d) ||
						  !same_copy(f, a, c)) ||
					    d == a ||
					    d == b || c == b ||
					    cabled(f, a, d) || cabled(f, c, b))
						continue;
					pb = f->node[a].port[pa].peer_port;
					pd = f->node[c].port[pc].peer_port;
					relink(f, a, pa, d, pd);
					relink(f, c, pc, b, pb);
					return;
				}
		}
	ck_abort_msg("no two cables to swap");
}

/*
 * Not a product, or a product with two Slim Fly cables of a copy or two
 * FlatFly cables swapped: refused, naming a switch.
 */
START_TEST(recognize_refuses)
{
	struct ot_flatfly_params fp = { .ndims = 2, .size = { 4, 4 },
					.cas = 1 };
	const struct shape s = { 4, 1, 1, { 4 }, { 1 }, 1 };
	struct ot_error err = { 0 };
	struct ot_fabric *f;
	struct ot_sfff *p;
	unsigned int k;

	f = ot_gen_flatfly(&fp, &err);
	ot_fabric_assign_lids(f);
	ck_assert(!ot_fabric_index(f, &err));
	ck_assert(ot_sfff_recognize(f, &p, &err));
	ck_assert_int_eq(err.cls, OT_ERR_TOPOLOGY);
	ot_fabric_free(f);
	for (k = 0; k < 2; k++) {
		/* Slim Fly cables inside a copy, then FlatFly ones */
		f = gen(&s, false, 0, 0);
		swap_cables(f, !k);
		ck_assert(!ot_fabric_index(f, &err));
		ck_assert(ot_sfff_recognize(f, &p, &err));
		ck_assert_msg(strstr(err.msg, "switch \"SFFF["), "%s", err.msg);
		ck_assert_msg(err.cls == OT_ERR_TOPOLOGY, "%u: %s", k, err.msg);
		ot_fabric_free(f);
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* The ff-* engines on products.                                        */

static const struct {
	const char *name;
	unsigned int lmc;
	unsigned int vls;  /* on the engine shape below (2 dimensions) */
	bool twisted;
} engines[] = {
	/* 1 order x 2 (first / second hop in a dimension) */
	{ "ff-dor", 0, 2, false },
	/* 2 orders x 2 */
	{ "ff-mixed-dor", 0, 4, false },
	/* 2 + the first-hop VL (twist in dimension 1, a FlatFly one) */
	{ "ff-twisted-dor", 0, 3, true },
	/* 2 x 2 + first hop + second twist hop (order ending in the SF) */
	{ "ff-twisted-mixed-dor", 0, 6, true },
	{ "ff-ador", 1, 2, false },
	{ "ff-mixed-ador", 1, 4, false },
	{ "ff-twisted-ador", 1, 3, true },
	{ "ff-twisted-mixed-ador", 1, 6, true },
};

#define NENGINES (sizeof(engines) / sizeof(engines[0]))

/* q = 4, 2 cables per pair, times FlatFly 3 (2 cables), 4 CAs: Mixed
 * gives each order 2 (a multiple of the widths, core.c mixed_layer()). */
static const struct shape eshape = { 4, 2, 1, { 3 }, { 2 }, 4 };

static struct ot_fabric *gen_lmc(const struct shape *s, uint64_t seed,
				 unsigned int lmc)
{
	struct ot_fabric *f = gen(s, true, seed, 0);
	struct ot_error err = { 0 };

	if (lmc)
		ck_assert_msg(!ot_fabric_set_ca_lmc(f, lmc, &err), "%s",
			      err.msg);
	return f;
}

/* Links between the positions of two switches in dimension d. */
static unsigned int dim_dist(const struct ot_sfff *p, int32_t a, int32_t b,
			     unsigned int d)
{
	const struct ot_ff *ff = p->ff;
	unsigned int x = ot_ff_coord(ff, ff->sw_slot[a], d);
	unsigned int y = ot_ff_coord(ff, ff->sw_slot[b], d);

	if (x == y)
		return 0;
	if (d != OT_SFFF_SF_DIM)
		return 1;
	return ot_mms_adjacent(&p->mms, x, y) ? 1 : 2;
}

/*
 * Walks every CA pair toward the destination's base LID and counts the
 * hops in each dimension: the distance in that dimension (1 in a
 * FlatFly one, 1 or 2 in the Slim Fly's), except, for the twisted
 * variants, up to 2 in one FlatFly dimension (the twist); the Slim Fly
 * dimension is always minimal.
 */
static void check_minimal_in_dimension(const struct ot_fabric *f,
				       const struct ot_routing *r,
				       const struct ot_sfff *p, bool twisted)
{
	uint32_t a, b;

	for (a = 0; a < f->nnodes; a++) {
		int32_t sa = f->node[a].port[1].peer;

		if (ot_is_switch(f, a))
			continue;
		for (b = 0; b < f->nnodes; b++) {
			int32_t sb = f->node[b].port[1].peer, x = sa;
			uint16_t lid = f->node[b].port[1].lid;
			unsigned int hops[4] = { 0 }, k, d, extra = 0;

			if (ot_is_switch(f, b) || a == b)
				continue;
			for (k = 0; x != sb; k++) {
				uint8_t out = r->lft[x][lid];

				ck_assert_uint_lt(k, 16);
				ck_assert_uint_ne(out, OT_NO_PORT);
				hops[ot_ff_port_dim(p->ff, x, out)]++;
				x = f->node[x].port[out].peer;
			}
			ck_assert_uint_eq(f->node[x].port[r->lft[x][lid]].peer,
					  b);
			for (d = 0; d < p->ff->ndims; d++) {
				unsigned int want = dim_dist(p, sa, sb, d);

				if (hops[d] == want)
					continue;
				ck_assert_msg(twisted && d != OT_SFFF_SF_DIM &&
					      hops[d] <= 2 && !extra++,
					      "\"%s\" -> \"%s\": %u hops in dimension %u, distance %u",
					      f->node[a].desc, f->node[b].desc,
					      hops[d], d, want);
			}
		}
	}
}

/* The checker with the engine's promise, path SLs and SL2VL. */
static void check_kept(const struct ot_fabric *f, const struct ot_routing *r,
		       bool minimal)
{
	struct ot_check_opts o = { .promiser = r };
	struct ot_check_report *rep;
	const struct ot_check_counts *k;
	struct ot_error err = { 0 };

	ck_assert(!ot_check_run(f, r, &o, &rep, &err));
	k = ot_check_counts(rep);
	ck_assert_uint_gt(k->pairs, 0);
	ck_assert_uint_eq(k->reached, k->pairs);
	if (minimal)
		ck_assert_uint_eq(k->minimal, k->reached);
	ck_assert_uint_eq(k->credit_loops, 0);
	ck_assert_uint_eq(k->violations, 0);
	/* within the budget; VL 1, the Slim Fly's second hop, in use */
	ck_assert_uint_eq(k->vls_used & ~((1u << r->nvls) - 1), 0);
	ck_assert(k->vls_used & 2);
	ck_assert(ot_check_ok(rep));
	ot_check_report_free(rep);
}

START_TEST(engines_route_products)
{
	struct ot_fabric *f = gen_lmc(&eshape, 5 + _i, engines[_i].lmc);
	struct ot_error err = { 0 };
	struct ot_routing *r;
	struct ot_sfff *p;

	ck_assert_msg(!ot_engine_run(ot_engine_find(engines[_i].name), f,
				     &r, &err),
		      "%s: %s", engines[_i].name, err.msg);
	ck_assert_msg(!ot_sfff_recognize(f, &p, &err), "%s", err.msg);
	ck_assert_uint_eq(r->nvls, engines[_i].vls);
	ck_assert(r->needs_qos);
	check_minimal_in_dimension(f, r, p, engines[_i].twisted);
	check_kept(f, r, !engines[_i].twisted && !engines[_i].lmc);
	ot_sfff_free(p);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * The VL step is needed: ff-dor's tables with every hop on VL 0 have a
 * credit loop (2-hop moves inside MMS graphs close cycles), and the
 * promise's rule names the wrong VL.
 */
START_TEST(one_vl_has_credit_loops)
{
	struct ot_fabric *f = gen_lmc(&eshape, 3, 0);
	struct ot_check_opts o = { 0 };
	struct ot_check_report *rep;
	struct ot_error err = { 0 };
	struct ot_routing *r;
	uint32_t n;

	ck_assert(!ot_engine_run(ot_engine_find("ff-dor"), f, &r, &err));
	for (n = 0; n < f->nnodes; n++) {
		unsigned int np = f->node[n].nports;

		if (r->sl2vl[n])
			memset(r->sl2vl[n], 0,
			       (size_t)(np + 1) * (np + 1) * OT_NUM_SLS);
	}
	o.promiser = r;
	ck_assert(!ot_check_run(f, r, &o, &rep, &err));
	ck_assert_uint_gt(ot_check_counts(rep)->credit_loops, 0);
	ck_assert_uint_gt(ot_check_counts(rep)->rule_broken, 0);
	ot_check_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * Cables missing (Slim Fly and FlatFly ones, 2% at random): still
 * recognized, every pair reached, no credit loop, the promise kept; with
 * 30% the Slim Fly copies are no longer recognizable: refused.
 */
START_TEST(engines_damaged)
{
	static const char *const names[] = { "ff-dor", "ff-twisted-mixed-dor",
					     "ff-mixed-ador" };
	struct ot_fabric *f = gen(&eshape, true, 3, 0.02);
	struct ot_error err = { 0 };
	struct ot_routing *r;
	struct ot_sfff *p;
	unsigned int k;

	ck_assert_msg(!ot_sfff_recognize(f, &p, &err), "%s", err.msg);
	ot_sfff_free(p);
	for (k = 0; k < 3; k++) {
		if (k == 2)
			ck_assert(!ot_fabric_set_ca_lmc(f, 1, &err));
		ck_assert_msg(!ot_engine_run(ot_engine_find(names[k]), f, &r,
					     &err), "%s: %s", names[k], err.msg);
		check_kept(f, r, false);
		ot_routing_free(r);
	}
	ot_fabric_free(f);
	f = gen(&eshape, true, 3, 0.3);
	ck_assert(ot_engine_run(ot_engine_find("ff-dor"), f, &r, &err));
	ck_assert_int_eq(err.cls, OT_ERR_TOPOLOGY);
	ot_fabric_free(f);
}
END_TEST

/* A Slim Fly alone is sf-mms's: the ff-* engines refuse it, saying so. */
START_TEST(engines_leave_slim_fly_alone)
{
	const struct shape s = { 5, 1, 0, { 0 }, { 0 }, 2 };
	struct ot_fabric *f = gen(&s, true, 4, 0);
	struct ot_error err = { 0 };
	struct ot_routing *r = NULL;

	ck_assert(ot_engine_run(ot_engine_find("ff-dor"), f, &r, &err));
	ck_assert_int_eq(err.cls, OT_ERR_TOPOLOGY);
	ck_assert_msg(strstr(err.msg, "sf-mms routes it"), "%s", err.msg);
	ck_assert(!ot_engine_run(ot_engine_find("sf-mms"), f, &r, &err));
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/* Beyond q = 11 a Slim Fly coordinate does not fit the core's byte. */
START_TEST(engines_refuse_big_q)
{
	const struct shape s = { 13, 1, 1, { 2 }, { 1 }, 1 };
	struct ot_fabric *f = gen(&s, false, 0, 0);
	struct ot_error err = { 0 };
	struct ot_routing *r = NULL;

	ck_assert(ot_engine_run(ot_engine_find("ff-dor"), f, &r, &err));
	ck_assert_int_eq(err.cls, OT_ERR_TOPOLOGY);
	ck_assert_msg(strstr(err.msg, "q=13") && strstr(err.msg, "338"),
		      "%s", err.msg);
	ot_fabric_free(f);
}
END_TEST

static Suite *sfff_suite(void)
{
	Suite *s = suite_create("sfff");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, gen_product_rule);
	tcase_add_loop_test(tc, gen_paper_products, 0, 2);
	tcase_add_loop_test(tc, recognize_shuffled, 0,
			    sizeof(shapes) / sizeof(shapes[0]));
	tcase_add_test(tc, recognize_refuses);
	tcase_add_loop_test(tc, engines_route_products, 0, NENGINES);
	tcase_add_test(tc, one_vl_has_credit_loops);
	tcase_add_test(tc, engines_damaged);
	tcase_add_test(tc, engines_leave_slim_fly_alone);
	tcase_add_test(tc, engines_refuse_big_q);
	suite_add_tcase(s, tc);
	return s;
}

OT_UNIT_MAIN(sfff_suite)
