// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Credit loops on sampled path SLs (check/confirm.c).  Beyond its bound,
 * the live reader (live/sa.c) asks the SA for SA_SAMPLE (4) destinations
 * per source port and, when their SLs agree, gives that SL to every
 * destination of the source.  OpenSM's lash and dfsssp choose an SL per
 * pair, so the sample misjudges pairs, and on the misjudged SLs the
 * checker finds credit loops that are not there.  Here: rings of switches
 * (minimal routing, which closes a loop on one VL) whose pairs get their
 * SLs as lash does (each pair on the first layer where it closes no loop)
 * and as dfsssp does (everything on layer 0, then the pairs over an edge
 * of a loop moved up a layer until none is left); the sampled view of
 * those SLs as sa.c builds it; and the assertion that the check with
 * confirmation reports the credit loops of the full read (none), while
 * the check on the sample alone reports loops (so the fabric does
 * exercise the sample's error).  And a routing with a real loop keeps it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "model/cdg.h"
#include "model/fabric.h"
#include "model/routing.h"
#include "unit.h"

#define SAMPLE 4
#define MAX_SLS 8

/* The per-pair SLs: the real ones, and the view a sample gives. */
struct sl_table {
	uint16_t max_lid;
	uint8_t *real;    /* [slid][dlid] */
	uint8_t *view;    /* what path_sl answers */
	uint8_t *sampled; /* 1: view holds the sample's SL */
	uint64_t nsampled;
	unsigned int confirms;
};

static size_t at(const struct sl_table *t, uint16_t s, uint16_t d)
{
	return (size_t)s * (t->max_lid + 1) + d;
}

static uint8_t table_sl(const struct ot_routing *r, uint16_t s, uint16_t d)
{
	const struct sl_table *t = r->priv;

	return t->view[at(t, s, d)];
}

static bool table_sampled(const struct ot_routing *r, uint16_t s, uint16_t d)
{
	const struct sl_table *t = r->priv;

	return t->sampled[at(t, s, d)];
}

static int table_confirm(struct ot_routing *r, const uint32_t *pairs,
			 uint64_t n, struct ot_error *err)
{
	struct sl_table *t = r->priv;
	uint64_t i;

	(void)err;
	for (i = 0; i < n; i++) {
		size_t k = at(t, pairs[i] >> 16, pairs[i] & 0xffff);

		ck_assert_msg(t->sampled[k], "asked about a pair not sampled");
		t->view[k] = t->real[k];
		t->sampled[k] = 0;
		t->nsampled--;
	}
	t->confirms++;
	r->sl_sampled_pairs = t->nsampled;
	return 0;
}

static void table_free(void *priv)
{
	struct sl_table *t = priv;

	free(t->real);
	free(t->view);
	free(t->sampled);
	free(t);
}

/*
 * A ring of n switches, cas[i] CAs on switch i (port 1, 2 the ring, CAs
 * from 3), LIDs assigned.
 */
static struct ot_fabric *ring(unsigned int n, const unsigned int *cas)
{
	struct ot_fabric *f = ot_fabric_new();
	struct ot_error err = { 0 };
	unsigned int i, c;
	char name[32];

	ck_assert_ptr_nonnull(f);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "S%u", i);
		ck_assert_int_ge(ot_fabric_add_node(f, OT_NODE_SWITCH,
						    2 + cas[i], 0x100 + i,
						    name, &err),
				 0);
	}
	for (i = 0; i < n; i++)
		ck_assert_int_eq(ot_fabric_link(f, (int)i, 2,
						(int)((i + 1) % n), 1, &err),
				 0);
	for (i = 0; i < n; i++)
		for (c = 0; c < cas[i]; c++) {
			int ca;

			snprintf(name, sizeof(name), "S%u/%u", i, c);
			ca = ot_fabric_add_node(f, OT_NODE_CA, 1,
						0x1000 + 16 * i + c, name, &err);
			ck_assert_int_ge(ca, 0);
			ck_assert_int_eq(ot_fabric_link(f, (int)i, 3 + c, ca, 1,
							&err),
					 0);
		}
	ck_assert_int_eq(ot_fabric_assign_lids(f), 0);
	ck_assert_msg(!ot_fabric_index(f, &err), "%s", err.msg);
	return f;
}

/* Minimal routing on the ring (ties clockwise), SL -> VL the identity. */
static struct ot_routing *ring_routing(const struct ot_fabric *f,
				       unsigned int n)
{
	struct ot_routing *r = ot_routing_new(f);
	uint32_t x, lid;
	unsigned int in, out, sl;

	ck_assert_ptr_nonnull(r);
	for (x = 0; x < n; x++) {
		unsigned int np = f->node[x].nports;

		for (lid = 1; lid <= f->max_lid; lid++) {
			int32_t d = ot_fabric_lid_node(f, lid);
			uint32_t dsw;
			unsigned int cw;

			if (d < 0)
				continue;
			dsw = ot_is_switch(f, d) ? (uint32_t)d :
				(uint32_t)f->node[d].port[1].peer;
			if (dsw == x) {
				r->lft[x][lid] = ot_is_switch(f, d) ? 0 :
					f->node[d].port[1].peer_port;
				continue;
			}
			cw = (dsw + n - x) % n;
			r->lft[x][lid] = cw <= n / 2 ? 2 : 1;
		}
		r->sl2vl[x] = calloc((size_t)(np + 1) * (np + 1), OT_NUM_SLS);
		ck_assert_ptr_nonnull(r->sl2vl[x]);
		for (in = 0; in <= np; in++)
			for (out = 0; out <= np; out++)
				for (sl = 0; sl < OT_NUM_SLS; sl++)
					r->sl2vl[x][ot_sl2vl_index(np, in, out,
								   sl)] =
						(uint8_t)(sl < MAX_SLS ? sl : 0);
	}
	r->nvls = MAX_SLS;
	r->needs_qos = true;
	return r;
}

/* The CA ports (one each), in node order: the sources and destinations. */
struct cas {
	int32_t node[64];
	uint16_t lid[64];
	unsigned int n;
};

static void list_cas(const struct ot_fabric *f, struct cas *c)
{
	uint32_t i;

	c->n = 0;
	for (i = 0; i < f->nnodes; i++)
		if (f->node[i].type == OT_NODE_CA) {
			c->node[c->n] = (int32_t)i;
			c->lid[c->n++] = f->node[i].port[1].lid;
		}
}

/* The channels of the path s -> d (VL = sl), into ch; their number. */
static unsigned int path_channels(const struct ot_cdg *g,
				  const struct ot_routing *r,
				  const struct cas *c, unsigned int s,
				  unsigned int d, unsigned int sl,
				  uint32_t *ch, int32_t *node, uint8_t *port)
{
	const struct ot_fabric *f = r->fabric;
	int32_t x = c->node[s];
	unsigned int out = 1, k = 0;

	for (;;) {
		ch[k] = ot_cdg_channel(g, x, out, sl);
		node[k] = x;
		port[k++] = (uint8_t)out;
		x = f->node[x].port[out].peer;
		if (!ot_is_switch(f, x))
			return k;
		out = r->lft[x][c->lid[d]];
	}
}

/* Adds (add) or removes the dependencies of a path; the new ones' count. */
static unsigned int path_deps(struct ot_cdg *g, const struct ot_routing *r,
			      const struct cas *c, unsigned int s,
			      unsigned int d, unsigned int sl, bool add,
			      bool *isnew)
{
	uint32_t ch[64];
	int32_t node[64];
	uint8_t port[64];
	unsigned int k = path_channels(g, r, c, s, d, sl, ch, node, port);
	unsigned int i, added = 0;

	for (i = 0; i + 1 < k; i++) {
		if (add) {
			int rc = ot_cdg_add(g, ch[i], node[i + 1], port[i + 1],
					    (uint8_t)sl);

			ck_assert_int_ge(rc, 0);
			isnew[i] = rc == 1;
			added += isnew[i];
		} else if (isnew[i]) {
			ot_cdg_remove(g, ch[i], node[i + 1], port[i + 1],
				      (uint8_t)sl);
		}
	}
	return added;
}

static unsigned int loops(const struct ot_cdg *g)
{
	struct ot_cdg_sccs s;
	unsigned int n;

	ck_assert_int_eq(ot_cdg_sccs(g, 0, &s), 0);
	n = s.nloops;
	ot_cdg_sccs_free(&s);
	return n;
}

/* lash: each pair, in order, on the first layer where it closes no loop. */
static void lash(const struct ot_routing *r, const struct cas *c,
		 struct sl_table *t)
{
	struct ot_cdg g;
	unsigned int s, d, sl;
	bool isnew[64];

	ck_assert_int_eq(ot_cdg_init(&g, r->fabric), 0);
	for (s = 0; s < c->n; s++)
		for (d = 0; d < c->n; d++) {
			if (s == d)
				continue;
			for (sl = 0; sl < MAX_SLS; sl++) {
				path_deps(&g, r, c, s, d, sl, true, isnew);
				if (!loops(&g))
					break;
				path_deps(&g, r, c, s, d, sl, false, isnew);
			}
			ck_assert_uint_lt(sl, MAX_SLS);
			t->real[at(t, c->lid[s], c->lid[d])] = (uint8_t)sl;
		}
	ot_cdg_free(&g);
}

/* The dependencies of every pair on its SL in t->real. */
static void build_all(struct ot_cdg *g, const struct ot_routing *r,
		      const struct cas *c, const struct sl_table *t)
{
	unsigned int s, d;
	bool isnew[64];

	for (s = 0; s < c->n; s++)
		for (d = 0; d < c->n; d++)
			if (s != d)
				path_deps(g, r, c, s, d,
					  t->real[at(t, c->lid[s], c->lid[d])],
					  true, isnew);
}

/*
 * dfsssp: every pair on layer 0; while a layer has a loop, the pairs over
 * the first dependency of a shortest cycle move one layer up.
 */
static void dfsssp(const struct ot_routing *r, const struct cas *c,
		   struct sl_table *t)
{
	unsigned int rounds, s, d, k, i;

	for (rounds = 0; rounds < 1000; rounds++) {
		struct ot_cdg g;
		struct ot_cdg_sccs sc;
		uint32_t *cyc = NULL, ch[64];
		int32_t node[64];
		uint8_t port[64];
		unsigned int len = 0;

		ck_assert_int_eq(ot_cdg_init(&g, r->fabric), 0);
		build_all(&g, r, c, t);
		ck_assert_int_eq(ot_cdg_sccs(&g, 1, &sc), 0);
		if (!sc.nloops) {
			ot_cdg_sccs_free(&sc);
			ot_cdg_free(&g);
			return;
		}
		ck_assert_int_eq(ot_cdg_cycle(&g, &sc, sc.root[0], &cyc, &len),
				 0);
		for (s = 0; s < c->n; s++)
			for (d = 0; d < c->n; d++) {
				uint8_t *sl = &t->real[at(t, c->lid[s],
							  c->lid[d])];

				if (s == d)
					continue;
				k = path_channels(&g, r, c, s, d, *sl, ch,
						  node, port);
				for (i = 0; i + 1 < k; i++)
					if (ch[i] == cyc[0] &&
					    ch[i + 1] == cyc[1 % len]) {
						ck_assert_uint_lt(*sl + 1,
								  MAX_SLS);
						(*sl)++;
						break;
					}
			}
		free(cyc);
		ot_cdg_sccs_free(&sc);
		ot_cdg_free(&g);
	}
	ck_abort_msg("dfsssp did not converge");
}

/*
 * The sample live/sa.c takes beyond its bound (one class per source at
 * LMC 0): SAMPLE destinations from a start shifted by the source; when
 * their SLs agree, every other destination gets that SL, sampled.
 */
static void sample(const struct cas *c, struct sl_table *t)
{
	unsigned int s, d, k, got;

	for (s = 0; s < c->n; s++) {
		bool asked[64] = { false };
		int sl = -1;
		bool agree = true;

		for (k = got = 0; k < c->n && got < SAMPLE; k++) {
			d = (k + s * SAMPLE) % c->n;
			if (d == s)
				continue;
			asked[d] = true;
			got++;
			if (sl >= 0 && t->real[at(t, c->lid[s], c->lid[d])] != sl)
				agree = false;
			sl = t->real[at(t, c->lid[s], c->lid[d])];
		}
		for (d = 0; d < c->n; d++) {
			size_t i = at(t, c->lid[s], c->lid[d]);

			t->view[i] = t->real[i];
			if (d == s || asked[d] || !agree)
				continue;
			t->view[i] = (uint8_t)sl;
			t->sampled[i] = 1;
			t->nsampled++;
		}
	}
}

enum assign { LASH, DFSSSP, LAYER0 };

/* A ring routing with per-pair SLs assigned the given way, sampled. */
static struct ot_routing *sampled_ring(struct ot_fabric *f, unsigned int n,
				       enum assign how)
{
	struct ot_routing *r = ring_routing(f, n);
	struct sl_table *t = calloc(1, sizeof(*t));
	size_t cells = ((size_t)f->max_lid + 1) * (f->max_lid + 1);
	struct cas c;

	ck_assert_ptr_nonnull(t);
	t->max_lid = f->max_lid;
	t->real = calloc(cells, 1);
	t->view = calloc(cells, 1);
	t->sampled = calloc(cells, 1);
	ck_assert(t->real && t->view && t->sampled);
	list_cas(f, &c);
	if (how == LASH)
		lash(r, &c, t);
	else if (how == DFSSSP)
		dfsssp(r, &c, t);
	sample(&c, t);
	r->priv = t;
	r->free_priv = table_free;
	r->path_sl = table_sl;
	r->sl_sampled_pairs = t->nsampled;
	r->sl_sampled = table_sampled;
	r->sl_confirm = table_confirm;
	return r;
}

/* Credit loops of a check of r on its SLs as they stand. */
static unsigned int check_loops(struct ot_fabric *f, struct ot_routing *r,
				bool confirm, struct ot_check_counts *out)
{
	struct ot_check_report *rep = NULL;
	struct ot_error err = { 0 };
	unsigned int n;

	if (confirm)
		ck_assert_msg(!ot_check_run_confirmed(f, r, NULL, &rep, &err),
			      "%s", err.msg);
	else
		ck_assert_msg(!ot_check_run(f, r, NULL, &rep, &err), "%s",
			      err.msg);
	n = ot_check_counts(rep)->credit_loops;
	if (out)
		*out = *ot_check_counts(rep);
	ot_check_report_free(rep);
	return n;
}

/* The rings: switches and CAs per switch (unequal counts). */
static const struct {
	unsigned int n, cas[8];
} rings[] = {
	{ 6, { 2, 2, 2, 2, 2, 2 } },
	{ 7, { 1, 3, 2, 1, 2, 3, 1 } },
	{ 8, { 2, 1, 1, 3, 1, 2, 2, 1 } },
};

#define NRINGS (sizeof(rings) / sizeof(rings[0]))

/* Sampled and full agree on credit loops for lash and dfsssp SLs. */
START_TEST(sampled_and_full_agree)
{
	enum assign how = _i % 2 ? DFSSSP : LASH;
	unsigned int k = (unsigned int)_i / 2;
	struct ot_fabric *f = ring(rings[k].n, rings[k].cas);
	struct ot_routing *r = sampled_ring(f, rings[k].n, how);
	struct sl_table *t = r->priv;
	struct ot_check_counts c;
	uint64_t sampled = t->nsampled, misjudged = 0;
	size_t i, cells = ((size_t)f->max_lid + 1) * (f->max_lid + 1);
	unsigned int on_sample, full;

	for (i = 0; i < cells; i++)
		misjudged += t->view[i] != t->real[i];
	ck_assert_msg(misjudged > 0, "the sample misjudges no pair");
	/* the sample alone: loops that are not there */
	on_sample = check_loops(f, r, false, NULL);
	ck_assert_msg(on_sample > 0,
		      "no credit loop on the sample: the ring does not exercise it");
	/* confirmed: the loops of the full read, none */
	ck_assert_uint_eq(check_loops(f, r, true, &c), 0);
	ck_assert_uint_gt(c.sl_confirmed, 0);
	ck_assert_uint_eq(c.sl_sampled + c.sl_confirmed, sampled);
	ck_assert_uint_gt(t->confirms, 0);
	/* the full read */
	memcpy(t->view, t->real, cells);
	memset(t->sampled, 0, cells);
	t->nsampled = 0;
	r->sl_sampled_pairs = 0;
	full = check_loops(f, r, false, NULL);
	ck_assert_uint_eq(full, 0);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/* A loop that is there (every pair on SL 0) is reported, sample or not. */
START_TEST(a_real_loop_stays)
{
	struct ot_fabric *f = ring(rings[_i].n, rings[_i].cas);
	struct ot_routing *r = sampled_ring(f, rings[_i].n, LAYER0);
	unsigned int confirmed;

	confirmed = check_loops(f, r, true, NULL);
	ck_assert_uint_gt(confirmed, 0);
	r->sl_sampled_pairs = 0;
	ck_assert_uint_eq(check_loops(f, r, false, NULL), confirmed);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

static Suite *confirm_suite(void)
{
	Suite *s = suite_create("confirm");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, sampled_and_full_agree, 0, 2 * NRINGS);
	tcase_add_loop_test(tc, a_real_loop_stays, 0, NRINGS);
	suite_add_tcase(s, tc);
	return s;
}

OT_UNIT_MAIN(confirm_suite)
