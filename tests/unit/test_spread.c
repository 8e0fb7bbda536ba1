// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Spread groups (route/spread.c) over every registered engine, on fabrics
 * of each family drawn at random (sizes, CA counts, parallel cables,
 * shuffled ports, damage): the checker finds no credit loop and every
 * promise kept (the spread rule included: each hop on its destination
 * group's VLs), the VLs used are the groups times the engine's, and an
 * independent walk of every path finds no VL of a cable carrying two
 * groups -- a walk shown to fail on a table broken to merge two groups.
 * With QoS classes (route/qos): classes x groups x layers, classes and
 * groups on disjoint VLs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "gen/gen.h"
#include "model/prng.h"
#include "route/engine.h"
#include "route/qos/qos.h"
#include "route/spread.h"
#include "unit.h"

#define DRAWS 3

static struct ot_fabric *indexed(struct ot_fabric *f, unsigned int lmc)
{
	struct ot_error err = { 0 };

	if (!f)
		return NULL;
	if (ot_fabric_set_ca_lmc(f, (uint8_t)lmc, &err)) {
		ot_fabric_free(f);
		return NULL;
	}
	return f;
}

static uint32_t pick(struct ot_prng *p, uint32_t lo, uint32_t hi)
{
	return lo + ot_prng_below(p, hi - lo + 1);
}

/* Fabric `draw` of family fam (0 KNS, 1 FlatFly, 2 Slim Fly, 3 Dragonfly). */
static struct ot_fabric *draw_fabric(unsigned int fam, unsigned int draw,
				     unsigned int lmc, char *what, size_t len)
{
	struct ot_prng p = { 0x5eed0000u + fam * 101 + draw * 7 + lmc };
	struct ot_error err = { 0 };

	ot_prng_next(&p);
	switch (fam) {
	case 0: {
		struct ot_kns_params k = { .k = pick(&p, 2, 4), .n = 2,
					   .cas = pick(&p, 1, 3),
					   .links = pick(&p, 1, 2),
					   .shuffle = true,
					   .seed = ot_prng_next(&p) };
		snprintf(what, len, "KNS k %u n 2 cas %u links %u", k.k,
			 k.cas, k.links);
		return indexed(ot_gen_kns(&k, &err), lmc);
	}
	case 1: {
		struct ot_flatfly_params f = { .ndims = pick(&p, 2, 3),
					       .cas = pick(&p, 1, 3),
					       .shuffle = true,
					       .seed = ot_prng_next(&p),
					       .drop_seed = ot_prng_next(&p) };
		unsigned int d;

		for (d = 0; d < f.ndims; d++) {
			f.size[d] = pick(&p, 2, 4);
			f.width[d] = pick(&p, 1, 2);
		}
		f.drop_links = draw == 2 ? 0.08 : 0;
		snprintf(what, len, "FlatFly %u dims %ux%ux%u cas %u drop %.2f",
			 f.ndims, f.size[0], f.size[1],
			 f.ndims > 2 ? f.size[2] : 1, f.cas, f.drop_links);
		return indexed(ot_gen_flatfly(&f, &err), lmc);
	}
	case 2: {
		static const unsigned int qs[] = { 3, 4, 5 };
		struct ot_slimfly_params s = { .q = qs[draw % 3],
					       .width = pick(&p, 1, 2),
					       .cas = pick(&p, 1, 3),
					       .shuffle = true,
					       .seed = ot_prng_next(&p),
					       .drop_seed = ot_prng_next(&p) };

		s.drop_links = draw == 2 ? 0.03 : 0;
		snprintf(what, len, "Slim Fly q %u cas %u drop %.2f", s.q,
			 s.cas, s.drop_links);
		return indexed(ot_gen_slimfly(&s, &err), lmc);
	}
	default: {
		struct ot_dragonfly_params d = { .a = pick(&p, 2, 4),
						 .h = pick(&p, 1, 2),
						 .p = pick(&p, 1, 3),
						 .arrangement = OT_DF_RANDOM,
						 .arrange_seed = ot_prng_next(&p),
						 .shuffle = true,
						 .seed = ot_prng_next(&p),
						 .drop_seed = ot_prng_next(&p) };

		d.drop_links = draw == 2 ? 0.05 : 0;
		snprintf(what, len, "Dragonfly a %u h %u p %u drop %.2f", d.a,
			 d.h, d.p, d.drop_links);
		return indexed(ot_gen_dragonfly(&d, &err), lmc);
	}
	}
}

/*
 * Walks every CA-to-CA path of r (every LID of each destination) and
 * records, per output port and VL, the block (class * G + group) whose
 * packets use it, classes given by the policy SL hint of class c.  Returns
 * the number of (port, VL) channels found carrying two blocks, or a block
 * off its own VLs (VL / (G * V) != block); owner is scratch.
 */
static unsigned int shared_channels(const struct ot_routing *r,
				    const struct ot_qos_layers *q,
				    const struct ot_qos_table *t,
				    unsigned int groups, unsigned int v)
{
	const struct ot_fabric *f = r->fabric;
	unsigned int nclasses = q ? q->classes : 1, c, bad = 0, hops;
	uint32_t s, lid, n;
	int16_t *owner;
	size_t *base = calloc(f->nnodes + 1, sizeof(*base));

	ck_assert_ptr_nonnull(base);
	for (n = 0; n < f->nnodes; n++)
		base[n + 1] = base[n] + (f->node[n].nports + 1u) * OT_NUM_SLS;
	owner = malloc(base[f->nnodes] * sizeof(*owner));
	ck_assert_ptr_nonnull(owner);
	memset(owner, 0xff, base[f->nnodes] * sizeof(*owner));
	for (c = 0; c < nclasses; c++)
		for (s = 0; s < f->nnodes; s++) {
			const struct ot_node *src = &f->node[s];

			if (src->type != OT_NODE_CA || !src->port[1].lid ||
			    src->port[1].peer < 0)
				continue;
			for (lid = 1; lid <= f->max_lid; lid++) {
				int dn = ot_fabric_lid_node(f, lid);
				unsigned int g = ot_spread_group_of(r, (uint16_t)lid);
				unsigned int blk = c * groups + g, in, out;
				uint8_t sl, vl;
				int node;

				if (dn < 0 || dn == (int)s ||
				    ot_is_switch(f, dn))
					continue;
				sl = q ? ot_qos_path_sl(q, r, t->cls[c].sl,
							src->port[1].lid,
							(uint16_t)lid) :
					 ot_routing_path_sl(r, src->port[1].lid,
							    (uint16_t)lid);
				node = (int)s;
				in = 0;
				out = 1;
				for (hops = 0; hops < 64; hops++) {
					size_t k;

					vl = ot_routing_vl(r, node, in, out,
							   sl);
					k = base[node] + out * OT_NUM_SLS + vl;
					if (vl / v != blk)
						bad++;
					else if (owner[k] < 0)
						owner[k] = (int16_t)blk;
					else if (owner[k] != (int16_t)blk)
						bad++;
					in = f->node[node].port[out].peer_port;
					node = f->node[node].port[out].peer;
					if (node < 0 || !ot_is_switch(f, node))
						break;
					out = r->lft[node][lid];
					if (out == OT_NO_PORT || out == 0)
						break;
				}
			}
		}
	free(owner);
	free(base);
	return bad;
}


static unsigned int popcount16(uint16_t x)
{
	unsigned int n = 0;

	for (; x; x &= (uint16_t)(x - 1))
		n++;
	return n;
}

/*
 * Groups that some CA LID of r falls in; units: the CAs (by_switch
 * false) or the switches with CAs.
 */
static unsigned int groups_present(const struct ot_routing *r, bool by_switch,
				   unsigned int *units)
{
	const struct ot_fabric *f = r->fabric;
	uint16_t seen = 0;
	uint8_t *sw = calloc(f->nnodes, 1);
	uint32_t lid;

	ck_assert_ptr_nonnull(sw);
	*units = 0;
	for (lid = 1; lid <= f->max_lid; lid++) {
		int n = ot_fabric_lid_node(f, lid);
		const struct ot_port *pt;

		if (n < 0 || ot_is_switch(f, n))
			continue;
		pt = &f->node[n].port[f->lid_owner[lid].port];
		if (pt->lid != lid || pt->peer < 0)
			continue;
		seen |= (uint16_t)(1u << ot_spread_group_of(r, (uint16_t)lid));
		if (!by_switch)
			(*units)++;
		else if (!sw[pt->peer]++)
			(*units)++;
	}
	free(sw);
	return popcount16(seen);
}

/* Checks r: no credit loop, every promise kept; its VLs used. */
static uint16_t checked_vls(const struct ot_fabric *f,
			    const struct ot_routing *r, const char *what)
{
	struct ot_check_opts o = { .promiser = r };
	struct ot_check_report *rep = NULL;
	struct ot_error err = { 0 };
	const struct ot_check_counts *k;
	uint16_t vls;

	ck_assert_int_eq(ot_check_run(f, r, &o, &rep, &err), 0);
	k = ot_check_counts(rep);
	ck_assert_msg(ot_check_ok(rep),
		      "%s: unreachable %llu, loops %llu, credit loops %u, violations %llu",
		      what, (unsigned long long)k->unreachable,
		      (unsigned long long)k->looping, k->credit_loops,
		      (unsigned long long)k->violations);
	vls = k->vls_used;
	ot_check_report_free(rep);
	return vls;
}

/* The engines that need LMC >= 1 (ADOR) by name. */
static unsigned int engine_lmc(const struct ot_engine *e)
{
	return strstr(e->name, "ador") ? 1 : 0;
}

/*
 * Every registered engine with 2 groups and auto, on DRAWS fabrics of
 * each family: each engine must route at least one of them.
 */
START_TEST(every_engine_spread)
{
	unsigned int i, fam, draw, routed, mode;

	for (i = 0; ot_engines[i]; i++) {
		const struct ot_engine *e = ot_engines[i];

		routed = 0;
		for (fam = 0; fam < 4; fam++)
			for (draw = 0; draw < DRAWS; draw++) {
				char what[256], full[400];
				struct ot_fabric *f = draw_fabric(
					fam, draw, engine_lmc(e), what,
					sizeof(what));
				struct ot_routing *r0 = NULL, *r = NULL;
				struct ot_error err = { 0 };
				uint16_t base_vls;
				unsigned int v;

				if (!f)
					continue;
				if (ot_engine_run(e, f, &r0, &err)) {
					ot_fabric_free(f);
					continue;
				}
				routed++;
				v = r0->nvls ? r0->nvls : 1;
				snprintf(full, sizeof(full), "%s on %s", e->name,
					 what);
				base_vls = checked_vls(f, r0, full);
				for (mode = 0; mode < 3; mode++) {
					static const enum ot_spread_rule rule[] = {
						OT_SPREAD_BY_LID, OT_SPREAD_BY_SWITCH,
						OT_SPREAD_BY_COORD
					};
					struct ot_spread_opts o = {
						mode ? OT_SPREAD_AUTO : 2, rule[mode]
					};
					unsigned int g, fit = OT_SPREAD_DATA_VLS / v;
					uint16_t vls;
					unsigned int present, units;
					char note[256];

					ck_assert_int_eq(ot_engine_run(e, f, &r,
								       &err), 0);
					ck_assert_int_eq(ot_spread_apply(r, &o,
						OT_SPREAD_DATA_VLS, 0, &g, note,
						sizeof(note), &err), 0);
					if (15 / ot_routing_sl_layers(r0) < fit)
						fit = 15 / ot_routing_sl_layers(r0);
					ck_assert_uint_eq(g, mode ? fit :
							  (fit < 2 ? fit : 2));
					ck_assert_uint_eq(ot_spread_groups(r), g);
					ck_assert_uint_eq(r->nvls, g * v);
					vls = checked_vls(f, r, full);
					/*
					 * every group present uses the
					 * engine's VLs; all are present when
					 * there are enough destinations
					 */
					present = groups_present(r, mode == 1,
								 &units);
					ck_assert_msg(popcount16(vls) ==
						      present * popcount16(base_vls),
						      "%s, %u groups (%u present): VLs used 0x%x, the engine's 0x%x",
						      full, g, present, vls, base_vls);
					/* coord: sums of coordinates may miss some */
					ck_assert_msg(mode == 2 ||
						      present == (units < g ? units : g),
						      "%s: %u of %u groups present, %u destinations",
						      full, present, g, units);
					ck_assert_msg(!shared_channels(r, NULL,
								       NULL, g, v),
						      "%s: a VL of a cable carries two groups",
						      full);
					ot_routing_free(r);
					r = NULL;
				}
				ot_routing_free(r0);
				ot_fabric_free(f);
			}
		if (getenv("SPREAD_VERBOSE"))
			fprintf(stderr, "%s: %u fabrics\n", e->name, routed);
		ck_assert_msg(routed > 0, "%s routed none of the fabrics",
			      e->name);
	}
}
END_TEST

/*
 * The walk sees two groups on one VL of a cable: one SL2VL entry of a
 * switch moved onto the other group's VL (as an SL2VL mistake would).
 */
START_TEST(shared_vl_is_seen)
{
	char what[256];
	struct ot_fabric *f = draw_fabric(1, 0, 0, what, sizeof(what));
	const struct ot_engine *e = ot_engine_find("ff-dor");
	struct ot_spread_opts o = { 2, OT_SPREAD_BY_LID };
	struct ot_routing *r = NULL;
	struct ot_error err = { 0 };
	unsigned int g, n, in, out, nports;
	char note[256];
	bool broke = false;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(ot_engine_run(e, f, &r, &err), 0);
	ck_assert_int_eq(ot_spread_apply(r, &o, 8, 0, &g, note, sizeof(note),
					 &err), 0);
	ck_assert_uint_eq(g, 2);
	ck_assert_uint_eq(shared_channels(r, NULL, NULL, g, r->nvls / g), 0);
	/* the first switch: group 1's SL (1) on every hop onto VL 0 */
	for (n = 0; n < f->nnodes && !broke; n++) {
		if (!ot_is_switch(f, (int)n))
			continue;
		nports = f->node[n].nports;
		for (in = 1; in <= nports; in++)
			for (out = 1; out <= nports; out++)
				r->sl2vl[n][ot_sl2vl_index(nports, in, out,
							   1)] = 0;
		broke = true;
	}
	ck_assert_uint_gt(shared_channels(r, NULL, NULL, g, r->nvls / g), 0);
	/* the checker sees it too: the spread rule refuses the paths */
	{
		struct ot_check_opts co = { .promiser = r };
		struct ot_check_report *rep = NULL;

		ck_assert_int_eq(ot_check_run(f, r, &co, &rep, &err), 0);
		ck_assert(!ot_check_ok(rep));
		ck_assert_uint_gt(ot_check_counts(rep)->rule_broken, 0);
		ot_check_report_free(rep);
	}
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/* Asking for more groups than fit: fewer, with the numbers. */
START_TEST(too_many_groups_noted)
{
	char what[256];
	struct ot_fabric *f = draw_fabric(1, 1, 0, what, sizeof(what));
	struct ot_spread_opts o = { 8, OT_SPREAD_BY_LID };
	struct ot_routing *r = NULL;
	struct ot_error err = { 0 };
	unsigned int g;
	char note[256];

	ck_assert_int_eq(ot_engine_run(ot_engine_find("ff-twisted-dor"), f,
				       &r, &err), 0);
	ck_assert_uint_eq(r->nvls, 2);
	ck_assert_int_eq(ot_spread_apply(r, &o, 8, 0, &g, note, sizeof(note),
					 &err), 0);
	ck_assert_uint_eq(g, 4);
	ck_assert_ptr_nonnull(strstr(note, "8 spread groups asked, 4 fit"));
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * Classes x groups x layers: 2 classes and auto groups in 8 VLs for
 * ff-twisted-dor (2 VLs): 2 groups; every class's every group on its own
 * VLs on every cable; the groups shrink first.
 */
START_TEST(classes_times_groups)
{
	static const char table[] =
		"class lat sl 12 share 30% distance 2 mtu 256\n"
		"class rest sl 13 share 70% distance 2\n";
	static const char *const engines[] = { "ff-twisted-dor", "ff-dor",
					       "ff-mixed-dor" };
	unsigned int i, draw;

	for (i = 0; i < 3; i++)
		for (draw = 0; draw < DRAWS; draw++) {
			char what[256];
			struct ot_fabric *f =
				draw_fabric(1, draw, 0, what, sizeof(what));
			const struct ot_engine *e = ot_engine_find(engines[i]);
			struct ot_engine_budget b = { 4, 7, "2 QoS classes" };
			struct ot_spread_opts o = { OT_SPREAD_AUTO,
						    OT_SPREAD_BY_LID };
			struct ot_routing *r = NULL;
			struct ot_error err = { 0 };
			struct ot_qos_table t;
			struct ot_qos_layers q;
			unsigned int g, v, sl, want;
			char note[256];

			ck_assert_int_eq(ot_qos_parse(table, "t", &t, &err), 0);
			ck_assert_int_eq(ot_engine_run_budget(e, f, &b, &r,
							      &err), 0);
			v = r->nvls;
			sl = ot_routing_sl_layers(r);
			ck_assert_int_eq(ot_spread_apply(r, &o, 8, 2, &g, note,
							 sizeof(note), &err),
					 0);
			want = 8 / (2 * v) < 15 / (2 * sl) ? 8 / (2 * v) :
							    15 / (2 * sl);
			ck_assert_uint_eq(g, want ? want : 1);
			ck_assert_int_eq(ot_qos_layer(r, &t, 8, &q, &err), 0);
			ck_assert_uint_eq(r->nvls, 2 * g * v);
			ck_assert_msg(!shared_channels(r, &q, &t, g, v),
				      "%s on %s: classes or groups share a VL",
				      e->name, what);
			ot_routing_free(r);
			ot_fabric_free(f);
		}
}
END_TEST

START_TEST(parse_spread)
{
	struct ot_spread_opts o;
	struct ot_error err = { 0 };

	ck_assert_int_eq(ot_spread_parse("auto", &o, &err), 0);
	ck_assert_int_eq(o.groups, OT_SPREAD_AUTO);
	ck_assert_int_eq(ot_spread_parse("off", &o, &err), 0);
	ck_assert_int_eq(o.groups, OT_SPREAD_OFF);
	ck_assert_int_eq(ot_spread_parse("4:switch", &o, &err), 0);
	ck_assert_int_eq(o.groups, 4);
	ck_assert_int_eq(o.rule, OT_SPREAD_BY_SWITCH);
	ck_assert_int_eq(ot_spread_parse("16", &o, &err), -1);
	ck_assert_int_eq(ot_spread_parse("2:foo", &o, &err), -1);
	ck_assert_int_eq(ot_spread_parse("", &o, &err), -1);
}
END_TEST

static Suite *spread_suite(void)
{
	Suite *s = suite_create("spread");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, parse_spread);
	tcase_add_test(tc, too_many_groups_noted);
	tcase_add_test(tc, shared_vl_is_seen);
	tcase_add_test(tc, classes_times_groups);
	tcase_add_test(tc, every_engine_spread);
	suite_add_tcase(s, tc);
	return s;
}

OT_UNIT_MAIN(spread_suite)
