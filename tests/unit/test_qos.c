// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of the service classes and the DTable methodology
 * (src/route/qos/): the paper's worked examples ("Providing quality of
 * service in Omni-Path networks", Tables 5, 6 and 10) computed from the
 * general methodology, the latency spreading on shuffled class orders,
 * and class tables that must be refused with their line named.
 */
#include <math.h>
#include <string.h>

#include "check/check.h"
#include "gen/gen.h"
#include "route/engine.h"
#include "route/qos/qos.h"
#include "unit.h"

/* Table 9/10: VO, VI, CL, BE, BK; N = 128, GMTU = 16 units, w 8, k 2. */
static const char table10[] =
	"# the paper's Table 9 and 10\n"
	"arbiter entries 128 gmtu 1024 w 8 k 2\n"
	"class VO sl 0 share 0.1 distance 2 mtu 128\n"
	"\n"
	"class VI sl 1 share 30% distance 4 mtu 256\n"
	"class CL sl 2 share 0.5 distance 8 mtu 512\n"
	"class BE sl 3 share 0.05 distance 16 mtu 1024\n"
	"class BK sl 4 share 0.05 latency 4   # = distance 16\n";

static void parse_ok(const char *text, struct ot_qos_table *t)
{
	struct ot_error err = { 0 };

	ck_assert_msg(!ot_qos_parse(text, "t", t, &err), "%s", err.msg);
}

/* Largest distance between consecutive entries of class ci, cyclic. */
static unsigned int max_gap(const struct ot_qos_arb *a, int ci)
{
	unsigned int j, last = a->n, first = a->n, gap = 0;

	for (j = 0; j < a->n; j++) {
		if (a->entry[j].who != ci)
			continue;
		if (first == a->n)
			first = j;
		else if (j - last > gap)
			gap = j - last;
		last = j;
	}
	if (first + a->n - last > gap)
		gap = first + a->n - last;
	return gap;
}

START_TEST(test_table10_exact)
{
	static const unsigned int n[] = { 64, 32, 16, 8, 8 };
	static const unsigned int ew[] = { 7, 39, 128, 26, 26 };
	static const int dw[] = { -32, 0, 32, 0, 0 };
	static const double final[] = { 0.1, 0.3, 0.5, 0.05, 0.05 };
	struct ot_error err = { 0 };
	struct ot_qos_table t;
	struct ot_qos_arb a;
	unsigned int ci, j, sevens = 0, sixes = 0, seen6 = 0;

	parse_ok(table10, &t);
	ck_assert_uint_eq(t.nclasses, 5);
	ck_assert_msg(!ot_qos_dtable(&t, 8, &a, &err), "%s", err.msg);
	ck_assert_uint_eq(a.n, 128);
	ck_assert_uint_eq(a.pool, 4096);
	ck_assert_uint_eq(a.max_weight, 128);
	ck_assert_uint_eq(a.total_before, 4160);
	ck_assert_uint_eq(a.total_after, 4160);
	for (ci = 0; ci < 5; ci++) {
		ck_assert_uint_eq(a.c[ci].n, n[ci]);
		ck_assert_uint_eq(a.c[ci].entry_weight, ew[ci]);
		ck_assert_int_eq(a.c[ci].dweight, dw[ci]);
		ck_assert_int_eq(a.c[ci].unapplied, 0);
		ck_assert(fabs(a.c[ci].share_after - final[ci]) < 1e-12);
		ck_assert_uint_le(max_gap(&a, (int)ci), t.cls[ci].distance);
	}
	/* Before: VO 11%, CL 49% (448 and 2048 of 4160). */
	ck_assert(fabs(a.c[0].share_before - 448.0 / 4160) < 1e-12);
	ck_assert(fabs(a.c[2].share_before - 2048.0 / 4160) < 1e-12);
	/* VO: the first 32 entries keep 7, the last 32 get 6; CL: 130. */
	for (j = 0; j < a.n; j++) {
		if (a.entry[j].who == 2)
			ck_assert_uint_eq(a.entry[j].weight, 130);
		if (a.entry[j].who != 0)
			continue;
		if (a.entry[j].weight == 7) {
			ck_assert_msg(!seen6, "a 7 after a 6 at entry %u", j);
			sevens++;
		} else {
			ck_assert_uint_eq(a.entry[j].weight, 6);
			seen6 = 1;
			sixes++;
		}
	}
	ck_assert_uint_eq(sevens, 32);
	ck_assert_uint_eq(sixes, 32);
}
END_TEST

/*
 * Table 5 in its corrected form: SL0 has 64 entries (448 = 64 x 7; the
 * printed 49 leaves the table 15 short of N = 128) of MTU 1 unit, and
 * real shares divide by the table's weight, 1,216, not the pool 1,152.
 */
START_TEST(test_table5_corrected)
{
	static const char text[] =
		"arbiter entries 128 gmtu 192 w 4 k 3\n"
		"class SL0 sl 0 share 0.33334 distance 2 mtu 64\n"
		"class SL1 sl 1 share 0.33333 distance 4 mtu 128\n"
		"class SL7 sl 7 share 0.33333 distance 4 mtu 192\n";
	static const unsigned int ew[] = { 7, 12, 12 };
	static const unsigned int sum[] = { 448, 384, 384 };
	static const int dw[] = { -43, 21, 21 };
	struct ot_error err = { 0 };
	struct ot_qos_table t;
	struct ot_qos_arb a;
	unsigned int ci;

	parse_ok(text, &t);
	ck_assert_msg(!ot_qos_dtable(&t, 0, &a, &err), "%s", err.msg);
	ck_assert_uint_eq(a.pool, 1152);
	ck_assert_uint_eq(a.total_before, 1216);
	ck_assert_uint_eq(a.total_after, 1215);
	ck_assert(fabs(a.c[0].min_share - 64.0 / 1152) < 1e-12);
	ck_assert(fabs(a.c[0].max_share - 768.0 / 1152) < 1e-12);
	ck_assert(fabs(a.c[2].min_share - 96.0 / 1152) < 1e-12);
	for (ci = 0; ci < 3; ci++) {
		ck_assert_uint_eq(a.c[ci].entry_weight, ew[ci]);
		ck_assert_uint_eq(a.c[ci].sum_before, sum[ci]);
		ck_assert_int_eq(a.c[ci].dweight, dw[ci]);
		ck_assert_uint_eq(a.c[ci].sum_after, 405);
		ck_assert(fabs(a.c[ci].share_after - 1.0 / 3) < 1e-12);
	}
	ck_assert(fabs(a.c[0].share_before - 448.0 / 1216) < 1e-12);
}
END_TEST

/* Table 6: the correction walks back from the table's end, round robin. */
START_TEST(test_table6_order)
{
	static const int who[] = { 0, 1, 0, 2, 0, 1, 0, 2 };
	static const unsigned int before[] = { 4, 2, 4, 3, 4, 2, 4, 3 };
	static const unsigned int after[] = { 4, 2, 3, 4, 3, 3, 3, 4 };
	static const int dw[] = { -3, 1, 2 };
	struct ot_qos_arb a;
	unsigned int j;

	memset(&a, 0, sizeof(a));
	a.n = 8;
	a.nclasses = 3;
	for (j = 0; j < 8; j++) {
		a.entry[j].who = (int16_t)who[j];
		a.entry[j].weight = (uint16_t)before[j];
	}
	for (j = 0; j < 3; j++) {
		a.c[j].mtu_units = 1;
		a.c[j].dweight = dw[j];
	}
	ot_qos_correct(&a);
	for (j = 0; j < 8; j++)
		ck_assert_uint_eq(a.entry[j].weight, after[j]);
	ck_assert_uint_eq(a.total_after, 26);
}
END_TEST

/* A negative correction never takes an entry below one MTU. */
START_TEST(test_correction_keeps_mtu)
{
	struct ot_qos_arb a;
	unsigned int j;

	memset(&a, 0, sizeof(a));
	a.n = 4;
	a.nclasses = 2;
	for (j = 0; j < 4; j++) {
		a.entry[j].who = (int16_t)(j % 2);
		a.entry[j].weight = 9;
	}
	a.c[0].mtu_units = 8;
	a.c[0].dweight = -5; /* only 2 units can go: 9 -> 8 twice */
	a.c[1].mtu_units = 1;
	a.c[1].dweight = 3;
	ot_qos_correct(&a);
	ck_assert_uint_eq(a.entry[0].weight, 8);
	ck_assert_uint_eq(a.entry[2].weight, 8);
	ck_assert_int_eq(a.c[0].unapplied, -3);
	ck_assert_int_eq(a.c[1].unapplied, 0);
	ck_assert_uint_eq(a.c[1].sum_after, 21);
}
END_TEST

/* The spreading does not depend on the order the classes are declared. */
START_TEST(test_spreading_any_order)
{
	static const char *const lines[] = {
		"class A sl 3 share 0.1 distance 2 mtu 256\n",
		"class B sl 5 share 0.4 distance 4\n",
		"class C sl 1 share 0.2 distance 8\n",
		"class D sl 9 share 0.2 distance 16\n",
		"class E sl 0 share 0.1 distance 20\n", /* kept as 16 */
	};
	static const unsigned int perm[][5] = {
		{ 0, 1, 2, 3, 4 }, { 4, 3, 2, 1, 0 }, { 2, 0, 4, 1, 3 },
	};
	unsigned int p, i, ci;

	for (p = 0; p < 3; p++) {
		char text[1024] = "arbiter gmtu 2048 w 8 k 2\n";
		struct ot_error err = { 0 };
		struct ot_qos_table t;
		struct ot_qos_arb a;

		for (i = 0; i < 5; i++)
			strcat(text, lines[perm[p][i]]);
		parse_ok(text, &t);
		ck_assert_msg(!ot_qos_dtable(&t, 64, &a, &err), "%s", err.msg);
		for (ci = 0; ci < 5; ci++) {
			unsigned int d = t.cls[ci].distance == 20 ?
					 16 : t.cls[ci].distance;

			ck_assert_uint_eq(a.c[ci].n, 64 / d);
			ck_assert_uint_le(max_gap(&a, (int)ci), d);
			ck_assert(fabs(a.c[ci].share_after -
				       t.cls[ci].share) < 0.01);
		}
	}
}
END_TEST

/* SBT: one entry a class, the paper's weights 10/30/50/5/5. */
START_TEST(test_sbt_baseline)
{
	static const unsigned int wgt[] = { 10, 30, 50, 5, 5 };
	struct ot_error err = { 0 };
	struct ot_qos_table t;
	struct ot_qos_arb a, d;
	unsigned int ci;

	parse_ok(table10, &t);
	ck_assert(!ot_qos_sbt(&t, &a, &err));
	ck_assert(!ot_qos_dtable(&t, 0, &d, &err));
	ck_assert_uint_eq(a.n, 5);
	ck_assert_uint_eq(a.total_after, 100);
	for (ci = 0; ci < 5; ci++)
		ck_assert_uint_eq(a.entry[ci].weight, wgt[ci]);
	/*
	 * SBT's VO waits for every other class: 30, 50, 5, 5 units sent
	 * as whole packets of 4, 8, 16, 16 units (32 + 56 + 16 + 16).
	 * DTable's VO waits for one entry at most, CL's 130 sent as 17
	 * packets of 8 units.  The most urgent class waits least, the
	 * least urgent most: the separation SBT cannot give.  (VI may wait
	 * longer than CL: one CL entry of 130 units sits in VI's gaps.)
	 */
	ck_assert_uint_eq(a.c[0].worst_bytes, 120 * 64);
	ck_assert_uint_eq(d.c[0].worst_bytes, 136 * 64);
	for (ci = 1; ci < 5; ci++)
		ck_assert_uint_lt(d.c[0].worst_bytes, d.c[ci].worst_bytes);
	for (ci = 0; ci < 3; ci++) {
		ck_assert_uint_lt(d.c[ci].worst_bytes, d.c[3].worst_bytes);
		ck_assert_uint_lt(d.c[ci].worst_bytes, d.c[4].worst_bytes);
	}
}
END_TEST

/* A bad table is refused with its file and line named. */
START_TEST(test_bad_tables)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "class A sl 0 share 0.5 distance 2\nclass B sl 0 share 0.5 distance 2\n",
		  "t:2: class 'B' takes SL 0" },
		{ "\n\nclass A sl 15 share 0.5 distance 2\n", "t:3: expected a number" },
		{ "class A sl 1 share 1.5 distance 2\n", "t:1: expected a share" },
		{ "class A sl 1 share 0.5 distance 2 mtu 100\n", "t:1: expected a multiple of 64" },
		{ "class A sl 1 share 0.5\n", "t:1: class needs sl" },
		{ "klass A\n", "t:1: expected 'class' or 'arbiter'" },
		{ "arbiter w 2 k 3\nclass A sl 1 share 0.5 distance 2\n", "k 3 above w 2" },
		{ "class A sl 1 share 0.7 distance 2\n# x\nclass B sl 2 share 0.4 distance 2\n",
		  "t:3: class 'B' brings the shares to 1.1" },
		{ "# nothing\n", "no class declared" },
		{ "class A sl 1 share 0.5 distance 2 colour red\n", "t:1: class: unknown keyword 'colour'" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ot_error err = { 0 };
		struct ot_qos_table t;

		ck_assert_int_eq(ot_qos_parse(bad[i].text, "t", &t, &err), -1);
		ck_assert_int_eq(err.cls, OT_ERR_CONFIG);
		ck_assert_msg(strstr(err.msg, bad[i].want), "%u: '%s'", i,
			      err.msg);
	}
}
END_TEST

/* Tables that parse but the methodology cannot serve. */
START_TEST(test_methodology_refusals)
{
	struct ot_error err = { 0 };
	struct ot_qos_table t;
	struct ot_qos_arb a;

	/* Two classes each wanting every other entry, and a third. */
	parse_ok("class A sl 0 share 0.3 distance 2\n"
		 "class B sl 1 share 0.3 distance 2\n"
		 "class C sl 2 share 0.3 distance 8\n", &t);
	ck_assert_int_eq(ot_qos_dtable(&t, 8, &a, &err), -1);
	ck_assert_msg(strstr(err.msg, "line 3: class 'C'"), "%s", err.msg);
	/* 1 entry of 8, w 1 k 1: at most 1/8 of the link. */
	parse_ok("arbiter w 1 k 1\n"
		 "class A sl 0 share 0.5 distance 8\n"
		 "class B sl 1 share 0.5 distance 2\n", &t);
	ck_assert_int_eq(ot_qos_dtable(&t, 8, &a, &err), -1);
	ck_assert_msg(strstr(err.msg, "line 2: class 'A' share 0.5 outside"),
		      "%s", err.msg);
}
END_TEST


static const char three_classes[] =
	"arbiter gmtu 2048 w 8 k 2\n"
	"class latency sl 4 share 20% distance 2 mtu 256\n"
	"class compute sl 0 share 60% distance 4\n"
	"class bulk sl 7 share 20% distance 4\n";

/* A 4x3 FlatFly, parallel cables in dimension 0, 2 CAs a switch, shuffled. */
static struct ot_fabric *flatfly(uint64_t seed)
{
	struct ot_flatfly_params p = { 0 };
	struct ot_error err = { 0 };
	struct ot_fabric *f;
	uint32_t i;

	p.ndims = 2;
	p.size[0] = 4;
	p.size[1] = 3;
	p.width[0] = 2;
	p.width[1] = 1;
	p.cas = 2;
	p.shuffle = true;
	p.seed = seed;
	f = ot_gen_flatfly(&p, &err);
	ck_assert_msg(f, "%s", err.msg);
	for (i = 0; i < f->nnodes; i++)
		f->node[i].guid = 0x1000 + i * 7919;
	ck_assert_msg(!ot_fabric_set_ca_lmc(f, 0, &err), "%s", err.msg);
	return f;
}

/*
 * Every (node, in, out) and every SL a class hands out: the VL is the
 * class's copy of the engine's own VL for that layer, so classes sit on
 * disjoint VLs and each is the engine's routing again (credit-loop free
 * as the checker finds class 0).
 */
static void check_layers(const char *engine, uint64_t seed)
{
	struct ot_error err = { 0 };
	struct ot_routing *base = NULL, *r = NULL;
	struct ot_check_opts opts = { 0 };
	struct ot_check_report *rep = NULL;
	struct ot_qos_layers q;
	struct ot_qos_table t;
	struct ot_fabric *f = flatfly(seed);
	unsigned int in, out, sl, nports, c, vl, v0, s0;
	uint32_t n;
	uint16_t s, d;

	parse_ok(three_classes, &t);
	ck_assert_msg(!ot_engine_run(ot_engine_find(engine), f, &base, &err),
		      "%s", err.msg);
	ck_assert(!ot_engine_run(ot_engine_find(engine), f, &r, &err));
	ck_assert_msg(!ot_qos_layer(r, &t, 8, &q, &err), "%s", err.msg);
	ck_assert_uint_eq(q.classes, 3);
	ck_assert_uint_eq(q.vls, base->nvls);
	ck_assert_uint_eq(r->nvls, 3 * base->nvls);
	ck_assert_int_eq(q.class_of_sl[7], 2);
	ck_assert_int_eq(q.class_of_sl[1], -1);
	for (n = 0; n < f->nnodes; n++) {
		nports = f->node[n].nports;
		for (in = 0; in <= nports; in++)
			for (out = 0; out <= nports; out++)
				for (sl = 0; sl < OT_NUM_SLS; sl++) {
					c = sl / q.sls;
					s0 = sl % q.sls;
					if (sl >= 3 * q.sls) {
						/* A policy SL: class layer 0. */
						c = q.class_of_sl[sl] < 0 ? 0 :
						    (unsigned int)q.class_of_sl[sl];
						s0 = q.class_of_sl[sl] < 0 ?
						     sl % q.sls : 0;
					}
					vl = ot_routing_vl(r, (int)n, in, out, sl);
					v0 = ot_routing_vl(base, (int)n, in, out,
							   s0);
					ck_assert_uint_eq(vl, c * q.vls + v0);
					ck_assert_uint_lt(vl, 8);
				}
	}
	/* Path SLs: the engine's layer, in the block of the hint's class. */
	for (s = 1; s <= f->max_lid; s++)
		for (d = 1; d <= f->max_lid; d++) {
			if (ot_fabric_lid_node(f, s) < 0 ||
			    ot_fabric_lid_node(f, d) < 0)
				continue;
			sl = ot_routing_path_sl(base, s, d);
			ck_assert_uint_eq(ot_qos_path_sl(&q, r, 7, s, d),
					  2 * q.sls + sl);
			ck_assert_uint_eq(ot_qos_path_sl(&q, r, 4, s, d), sl);
			ck_assert_uint_eq(ot_qos_path_sl(&q, r, 0, s, d),
					  q.sls + sl);
			ck_assert_uint_eq(ot_qos_path_sl(&q, r, 9, s, d), sl);
		}
	ck_assert_msg(!ot_check_run(f, r, &opts, &rep, &err), "%s", err.msg);
	ck_assert(ot_check_ok(rep));
	ot_check_report_free(rep);
	ot_routing_free(base);
	ot_routing_free(r);
	ot_fabric_free(f);
}

START_TEST(test_layers_twisted)
{
	check_layers("ff-twisted-dor", 3);
	check_layers("ff-twisted-dor", 11);
}
END_TEST

START_TEST(test_layers_mixed)
{
	check_layers("ff-mixed-dor", 5);
}
END_TEST

/* A 3x3x2 FlatFly, parallel cables in dimension 0, 2 CAs a switch. */
static struct ot_fabric *flatfly3(void)
{
	struct ot_flatfly_params p = { 0 };
	struct ot_error err = { 0 };
	struct ot_fabric *f;

	p.ndims = 3;
	p.size[0] = 3;
	p.size[1] = 3;
	p.size[2] = 2;
	p.width[0] = 2;
	p.width[1] = p.width[2] = 1;
	p.cas = 2;
	p.shuffle = true;
	p.seed = 3;
	f = ot_gen_flatfly(&p, &err);
	ck_assert_msg(f, "%s", err.msg);
	ck_assert(!ot_fabric_set_ca_lmc(f, 0, &err));
	return f;
}

/*
 * ff-mixed-dor on 3 dimensions takes 3 orders (3 SLs, 3 VLs): with 3
 * classes in 8 VLs it sheds an order instead of being refused, keeps
 * every class on VLs of its own, and stays free of credit loops; when
 * not even one order fits, it is refused with the numbers.
 */
START_TEST(test_layers_mixed_degrade)
{
	const struct ot_engine *e = ot_engine_find("ff-mixed-dor");
	struct ot_engine_budget b = { 8 / 3, 15 / 3, "3 QoS classes" };
	struct ot_check_opts opts = { 0 };
	struct ot_check_report *rep = NULL;
	struct ot_error err = { 0 };
	struct ot_routing *r = NULL;
	struct ot_fabric *f = flatfly3();
	struct ot_qos_layers q;
	struct ot_qos_table t;

	parse_ok(three_classes, &t);
	ck_assert(!ot_engine_run(e, f, &r, &err));
	ck_assert_uint_eq(r->nvls, 3);
	ck_assert_int_eq(ot_qos_layer(r, &t, 8, &q, &err), -1);
	ck_assert_msg(strstr(err.msg, "3 QoS classes x 3 VLs"), "%s", err.msg);
	ot_routing_free(r);
	ck_assert_msg(!ot_engine_run_budget(e, f, &b, &r, &err), "%s",
		      err.msg);
	ck_assert_uint_eq(r->nvls, 2);
	ck_assert_msg(!ot_qos_layer(r, &t, 8, &q, &err), "%s", err.msg);
	ck_assert_uint_eq(q.classes, 3);
	ck_assert_uint_eq(q.sls, 2);
	ck_assert_uint_eq(q.vls, 2);
	ck_assert(!ot_check_run(f, r, &opts, &rep, &err));
	ck_assert_uint_eq(ot_check_counts(rep)->unreachable, 0);
	ck_assert_uint_eq(ot_check_counts(rep)->credit_loops, 0);
	/*
	 * class 0 (the path SLs as the engine gives them): within VLs 0-1
	 * (with 2 CAs a switch the quotas may put both on one order, the
	 * one whose last dimension has the 2 parallel cables: issue 25)
	 */
	ck_assert_uint_ne(ot_check_counts(rep)->vls_used, 0);
	ck_assert_uint_eq(ot_check_counts(rep)->vls_used & ~0x3u, 0);
	ot_check_report_free(rep);
	ot_routing_free(r);
	/* 9 classes: no VL left for even one order */
	b = (struct ot_engine_budget){ 8 / 9, 15 / 9, "9 QoS classes" };
	ck_assert_int_eq(ot_engine_run_budget(e, f, &b, &r, &err), -1);
	ck_assert_int_eq(err.cls, OT_ERR_BUDGET);
	ck_assert_msg(strstr(err.msg, "1 dimension order needs 1 VLs, 9 QoS classes leave 0"),
		      "%s", err.msg);
	/* SLs short: 8 classes leave 1 SL each, so one order */
	b = (struct ot_engine_budget){ 8, 15 / 8, "8 QoS classes" };
	ck_assert(!ot_engine_run_budget(e, f, &b, &r, &err));
	ck_assert_uint_eq(r->nvls, 1);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * The other Mixed variants shed orders too: 3 classes in 8 VLs fit
 * ff-twisted-mixed-dor and ff-mixed-ador (2 VLs a class); one order of
 * ff-twisted-mixed-ador takes 3 VLs, so 3 classes are refused with the
 * numbers and 2 classes (4 VLs each) fit.
 */
START_TEST(test_layers_mixed_variants_degrade)
{
	static const char *const names[] = {
		"ff-twisted-mixed-dor", "ff-mixed-ador",
	};
	const struct ot_engine *tma = ot_engine_find("ff-twisted-mixed-ador");
	struct ot_engine_budget b2 = { 8 / 2, 15 / 2, "2 QoS classes" };
	struct ot_engine_budget b = { 8 / 3, 15 / 3, "3 QoS classes" };
	struct ot_error err = { 0 };
	struct ot_routing *r = NULL;
	struct ot_fabric *f = flatfly3();
	struct ot_qos_layers q;
	struct ot_qos_table t;
	unsigned int i;

	parse_ok(three_classes, &t);
	ck_assert(!ot_fabric_set_ca_lmc(f, 1, &err));
	for (i = 0; i < 2; i++) {
		const struct ot_engine *e = ot_engine_find(names[i]);

		ck_assert(!ot_engine_run(e, f, &r, &err));
		ck_assert_msg(r->nvls > 2, "%s: %u VLs", names[i], r->nvls);
		ot_routing_free(r);
		ck_assert_msg(!ot_engine_run_budget(e, f, &b, &r, &err),
			      "%s: %s", names[i], err.msg);
		ck_assert_uint_le(r->nvls, 2);
		ck_assert_msg(!ot_qos_layer(r, &t, 8, &q, &err), "%s: %s",
			      names[i], err.msg);
		ck_assert_uint_eq(q.classes, 3);
		ot_routing_free(r);
	}
	ck_assert(!ot_engine_run(tma, f, &r, &err));
	ck_assert_uint_gt(r->nvls, 4);
	ot_routing_free(r);
	ck_assert_int_eq(ot_engine_run_budget(tma, f, &b, &r, &err), -1);
	ck_assert_msg(strstr(err.msg, "1 dimension order needs 3 VLs, 3 QoS classes leave 2"),
		      "%s", err.msg);
	ck_assert(!ot_engine_run_budget(tma, f, &b2, &r, &err));
	ck_assert_uint_le(r->nvls, 4);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/* Classes that do not fit are refused with the numbers, never merged. */
START_TEST(test_layers_refused)
{
	struct ot_error err = { 0 };
	struct ot_routing *r = NULL;
	struct ot_qos_layers q;
	struct ot_qos_table t;
	struct ot_fabric *f = flatfly(1);

	parse_ok(three_classes, &t);
	ck_assert(!ot_engine_run(ot_engine_find("ff-twisted-dor"), f, &r,
				 &err));
	ck_assert_int_eq(ot_qos_layer(r, &t, 4, &q, &err), -1);
	ck_assert_int_eq(err.cls, OT_ERR_BUDGET);
	ck_assert_msg(strstr(err.msg, "3 QoS classes x 2 VLs"), "%s",
		      err.msg);
	ck_assert_msg(strstr(err.msg, "above the 4 data VLs"), "%s", err.msg);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/* A port's VLArb: each class's entries on its own VLs, all of them. */
START_TEST(test_ib_vlarb)
{
	struct ot_error err = { 0 };
	struct ot_qos_entry e[64];
	struct ot_qos_layers q = { .classes = 3, .sls = 1, .vls = 2 };
	struct ot_qos_table t;
	unsigned int n, j, per_vl[8] = { 0 }, per_class[3] = { 0 }, total = 0;

	parse_ok(three_classes, &t);
	ck_assert_msg(!ot_qos_ib_vlarb(&t, &q, 8, e, &n, &err), "%s", err.msg);
	ck_assert_uint_eq(n, 8);
	for (j = 0; j < n; j++) {
		ck_assert_uint_le(e[j].weight, 255);
		if (!e[j].weight)
			continue;
		ck_assert_int_lt(e[j].who, 6);
		per_vl[e[j].who]++;
		per_class[e[j].who / 2] += e[j].weight;
		total += e[j].weight;
	}
	for (j = 0; j < 6; j++)
		ck_assert_uint_ge(per_vl[j], 1);
	ck_assert(fabs((double)per_class[0] / total - 0.2) < 0.01);
	ck_assert(fabs((double)per_class[1] / total - 0.6) < 0.01);
	/* 4 VLs a class: compute's 2 entries cannot serve them all. */
	q.vls = 4;
	ck_assert_int_eq(ot_qos_ib_vlarb(&t, &q, 8, e, &n, &err), -1);
	ck_assert_msg(strstr(err.msg, "line 3: class 'compute' has 2"), "%s",
		      err.msg);
}
END_TEST

static Suite *qos_suite(void)
{
	Suite *s = suite_create("qos");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_table10_exact);
	tcase_add_test(tc, test_table5_corrected);
	tcase_add_test(tc, test_table6_order);
	tcase_add_test(tc, test_correction_keeps_mtu);
	tcase_add_test(tc, test_spreading_any_order);
	tcase_add_test(tc, test_sbt_baseline);
	tcase_add_test(tc, test_bad_tables);
	tcase_add_test(tc, test_methodology_refusals);
	tcase_add_test(tc, test_layers_twisted);
	tcase_add_test(tc, test_layers_mixed);
	tcase_add_test(tc, test_layers_mixed_degrade);
	tcase_add_test(tc, test_layers_mixed_variants_degrade);
	tcase_add_test(tc, test_layers_refused);
	tcase_add_test(tc, test_ib_vlarb);
	suite_add_tcase(s, tc);
	return s;
}

OT_UNIT_MAIN(qos_suite)
