// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of the FlatFly recognizer (src/topo/flatfly.c) and its
 * generator (src/gen/flatfly.c), the recognizer step of the flow
 * (fabric -> recognizer -> coordinates -> engine -> tables -> checker).
 * The facts checked are the ones the ff-* engines rest on: every switch
 * gets the coordinates the fabric was built with (up to a permutation of
 * dimensions and a relabelling of values), every cable its dimension, on
 * complete and damaged fabrics, whatever the port numbers and node order;
 * and anything that is not a FlatFly is refused with a line naming a
 * switch.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "gen/gen.h"
#include "topo/flatfly.h"
#include "topo/kns.h"
#include "unit.h"

/* A GUID from the name alone: shuffling node order keeps each GUID. */
static uint64_t name_guid(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 0x100000001b3ull;
	}
	return h | 1;
}

static void give_guids_and_index(struct ot_fabric *f)
{
	struct ot_error err = { 0 };
	uint32_t i;

	for (i = 0; i < f->nnodes; i++)
		f->node[i].guid = name_guid(f->node[i].desc);
	ot_fabric_assign_lids(f);
	ck_assert_msg(!ot_fabric_index(f, &err), "index: %s", err.msg);
}

static struct ot_fabric *gen(const char *shape, const char *widths,
			     unsigned int cas, double drop_sw, double drop_l,
			     uint64_t drop_seed, int shuffle_seed)
{
	struct ot_flatfly_params p = { 0 };
	struct ot_error err = { 0 };
	struct ot_fabric *f;
	const char *s = shape;

	while (*s) {
		char *end;

		p.size[p.ndims] = strtoul(s, &end, 10);
		p.width[p.ndims] = 1;
		p.ndims++;
		s = *end ? end + 1 : end;
	}
	for (s = widths; s && *s;) {
		static unsigned int d;
		char *end;

		if (s == widths)
			d = 0;
		p.width[d++] = strtoul(s, &end, 10);
		s = *end ? end + 1 : end;
	}
	p.cas = cas;
	p.drop_switches = drop_sw;
	p.drop_links = drop_l;
	p.drop_seed = drop_seed;
	if (shuffle_seed >= 0) {
		p.shuffle = true;
		p.seed = shuffle_seed;
	}
	f = ot_gen_flatfly(&p, &err);
	ck_assert_msg(f, "gen %s: %s", shape, err.msg);
	give_guids_and_index(f);
	return f;
}

/* Maps f and checks it against the names; returns the mapping. */
static struct ot_ff *map_ok(const struct ot_fabric *f, const char *what)
{
	struct ot_error err = { 0 };
	struct ot_ff *ff = NULL;

	ck_assert_msg(!ot_ff_map(f, &ff, &err), "%s refused: %s", what,
		      err.msg);
	ck_assert_msg(!ot_gen_flatfly_check_map(f, ff, &err),
		      "%s mapped wrong: %s", what, err.msg);
	return ff;
}

static void check_complete(const char *shape, const char *widths,
			   unsigned int cas)
{
	struct ot_fabric *f = gen(shape, widths, cas, 0, 0, 0, -1);
	struct ot_ff *ff = map_ok(f, shape);
	uint32_t i, mapped = 0;

	/* complete: every position taken, by a switch that says so */
	for (i = 0; i < ff->nslots; i++)
		if (ff->slot_node[i] >= 0) {
			ck_assert_int_eq(ff->sw_slot[ff->slot_node[i]], i);
			mapped++;
		}
	ck_assert_uint_eq(mapped, f->nswitches);
	ck_assert_uint_eq(ff->nslots, f->nswitches);
	for (i = 0; i < f->nnodes; i++)
		if (f->node[i].type == OT_NODE_CA)
			ck_assert_int_eq(ff->sw_slot[i], -1);
	ot_ff_free(ff);
	ot_fabric_free(f);
}

START_TEST(complete_flatflies)
{
	check_complete("2", NULL, 1);
	check_complete("5", NULL, 2);
	check_complete("4x4", NULL, 1);
	check_complete("8x8", NULL, 0);
	check_complete("3x4x2", NULL, 2);
	check_complete("2x3x2x3", NULL, 1);
	check_complete("4x4x4", "2,1,1", 3);
	check_complete("3x3", "2,3", 1);
	check_complete("3x3x3", "2", 2);
}
END_TEST

/* Sizes, widths and dimension order: smaller dimensions first. */
START_TEST(sizes_and_widths)
{
	struct ot_fabric *f = gen("8x4x2", "1,2,3", 1, 0, 0, 0, -1);
	struct ot_ff *ff = map_ok(f, "8x4x2");

	ck_assert_uint_eq(ff->ndims, 3);
	ck_assert_uint_eq(ff->size[0], 2);
	ck_assert_uint_eq(ff->size[1], 4);
	ck_assert_uint_eq(ff->size[2], 8);
	ck_assert_uint_eq(ff->width[0], 3);
	ck_assert_uint_eq(ff->width[1], 2);
	ck_assert_uint_eq(ff->width[2], 1);
	ck_assert_uint_eq(ff->nslots, 64);
	ot_ff_free(ff);
	ot_fabric_free(f);
}
END_TEST

START_TEST(hypercubes)
{
	static const char *const cubes[] = { "2x2x2", "2x2x2x2", "2x2x2x2x2",
					     "2x2x2x2x2x2" };
	unsigned int i;

	for (i = 0; i < 4; i++) {
		check_complete(cubes[i], NULL, 1);
		check_complete(cubes[i], "2,2,2,2,2,2", 2);
	}
}
END_TEST

/* Node GUID -> its coordinates, as a string, for comparing mappings. */
static void coords_by_guid(const struct ot_fabric *f, const struct ot_ff *ff,
			   uint64_t guid, char *buf, size_t len)
{
	uint32_t n;
	unsigned int d;
	size_t used = 0;

	buf[0] = '\0';
	for (n = 0; n < f->nnodes; n++) {
		if (f->node[n].guid != guid)
			continue;
		for (d = 0; d < ff->ndims && used < len; d++)
			used += snprintf(buf + used, len - used, "%u,",
					 ot_ff_coord(ff, ff->sw_slot[n], d));
		return;
	}
}

/* The dimension of the cable between two switches (by GUID), or -1. */
static int dim_by_guids(const struct ot_fabric *f, const struct ot_ff *ff,
			uint64_t a, uint64_t b)
{
	uint32_t n;
	unsigned int p;

	for (n = 0; n < f->nnodes; n++) {
		if (f->node[n].guid != a)
			continue;
		for (p = 1; p <= f->node[n].nports; p++) {
			int32_t peer = f->node[n].port[p].peer;

			if (peer >= 0 && f->node[peer].guid == b)
				return ot_ff_port_dim(ff, n, p);
		}
	}
	return -1;
}

/*
 * Port numbers and node order are the cabling's accidents: with the same
 * GUIDs, a shuffled fabric gets exactly the same coordinates and cable
 * dimensions.
 */
static void check_shuffle_invariant(const char *shape, const char *widths,
				    double drop_sw, double drop_l)
{
	struct ot_fabric *f0 = gen(shape, widths, 2, drop_sw, drop_l, 5, -1);
	struct ot_ff *ff0 = map_ok(f0, shape);
	int seed;

	for (seed = 1; seed <= 3; seed++) {
		struct ot_fabric *f = gen(shape, widths, 2, drop_sw, drop_l, 5,
					  seed);
		struct ot_ff *ff = map_ok(f, shape);
		uint32_t n;
		unsigned int d, p;

		ck_assert_uint_eq(ff->ndims, ff0->ndims);
		for (d = 0; d < ff->ndims; d++) {
			ck_assert_uint_eq(ff->size[d], ff0->size[d]);
			ck_assert_uint_eq(ff->width[d], ff0->width[d]);
		}
		for (n = 0; n < f->nnodes; n++) {
			const struct ot_node *nd = &f->node[n];
			char a[128], b[128];

			if (nd->type != OT_NODE_SWITCH)
				continue;
			coords_by_guid(f, ff, nd->guid, a, sizeof(a));
			coords_by_guid(f0, ff0, nd->guid, b, sizeof(b));
			ck_assert_msg(!strcmp(a, b), "%s: %s vs %s", nd->desc,
				      a, b);
			for (p = 1; p <= nd->nports; p++) {
				int32_t peer = nd->port[p].peer;

				if (peer < 0 || !ot_is_switch(f, peer))
					continue;
				ck_assert_int_eq(ot_ff_port_dim(ff, n, p),
						 dim_by_guids(f0, ff0, nd->guid,
							      f->node[peer].guid));
			}
		}
		ot_ff_free(ff);
		ot_fabric_free(f);
	}
	ot_ff_free(ff0);
	ot_fabric_free(f0);
}

START_TEST(shuffled_ports_and_order)
{
	check_shuffle_invariant("3x4x2", "2", 0, 0);
	check_shuffle_invariant("4x4x4", "2,1,1", 0, 0);
	check_shuffle_invariant("2x2x2x2x2", "2,2,2,2,2", 0, 0);
	check_shuffle_invariant("4x4x4", NULL, 0.1, 0.1);
}
END_TEST

/*
 * Damaged fabrics (seed 001 ("Early evaluation of direct large-scale
 * InfiniBand networks with adaptive routing"): FlatFly still mapped with
 * 20% of switches and 15% of links missing, hypercube with 15% and 10%).
 * The fabric the SM sees is the part it can reach, so seeds that cut the
 * fabric apart are skipped (they must be refused).  Every mapping must be
 * a consistent FlatFly with the dimensions built; the percentage returned
 * is of those that are exactly the built one (missing switches can leave a
 * switch's position undetermined by the cabling).
 */
static unsigned int damaged_ok(const char *shape, const char *widths,
			       double drop_sw, double drop_l,
			       unsigned int seeds)
{
	unsigned int seed, good = 0, tried = 0, ndims = 1;
	const char *x;

	for (x = shape; *x; x++)
		ndims += *x == 'x';

	for (seed = 1; seed <= seeds; seed++) {
		struct ot_fabric *f = gen(shape, widths, 1, drop_sw, drop_l,
					  seed, -1);
		struct ot_error err = { 0 };
		struct ot_ff *ff = NULL;

		if (ot_ff_map(f, &ff, &err)) {
			if (strstr(err.msg, "not one fabric")) {
				ot_fabric_free(f);
				continue;
			}
			ck_abort_msg("%s seed %u refused: %s", shape, seed,
				     err.msg);
		} else {
			ck_assert_msg(!ot_ff_verify(ff, &err),
				      "%s seed %u inconsistent: %s", shape,
				      seed, err.msg);
			ck_assert_uint_eq(ff->ndims, ndims);
			if (!ot_gen_flatfly_check_map(f, ff, &err))
				good++;
		}
		tried++;
		ot_ff_free(ff);
		ot_fabric_free(f);
	}
	return tried ? 100 * good / tried : 100;
}

START_TEST(damaged_flatflies)
{
	ck_assert_uint_ge(damaged_ok("4x4x4", NULL, 0, 0.15, 30), 100);
	ck_assert_uint_ge(damaged_ok("4x4x4", NULL, 0.2, 0, 30), 100);
	ck_assert_uint_ge(damaged_ok("4x4x4", NULL, 0.2, 0.15, 30), 80);
	ck_assert_uint_ge(damaged_ok("8x8", NULL, 0.2, 0.15, 30), 90);
	ck_assert_uint_ge(damaged_ok("4x4x4x4", "2", 0.2, 0.15, 10), 90);
}
END_TEST

START_TEST(damaged_hypercubes)
{
	ck_assert_uint_ge(damaged_ok("2x2x2x2x2x2", NULL, 0, 0.1, 30), 90);
	ck_assert_uint_ge(damaged_ok("2x2x2x2x2x2", NULL, 0.15, 0, 30), 90);
	ck_assert_uint_ge(damaged_ok("2x2x2x2x2x2x2x2", NULL, 0.15, 0.1, 20),
			  90);
}
END_TEST

/* Refusals: one line naming a switch, a topology refusal. */
static void check_refused(struct ot_fabric *f, const char *expect)
{
	struct ot_error err = { 0 };
	struct ot_ff *ff = NULL;

	ck_assert_msg(ot_ff_map(f, &ff, &err), "mapped, expected refusal");
	ck_assert_ptr_null(ff);
	ck_assert_msg(strstr(err.msg, expect), "refusal \"%s\" lacks \"%s\"",
		      err.msg, expect);
	ck_assert_ptr_null(strchr(err.msg, '\n'));
	ck_assert_msg(err.cls == OT_ERR_TOPOLOGY, "class \"%s\": %s",
		      ot_error_class_name(err.cls), err.msg);
	ot_fabric_free(f);
}

static int add_switch(struct ot_fabric *f, const char *name,
		      unsigned int ports)
{
	struct ot_error err = { 0 };
	int n = ot_fabric_add_node(f, OT_NODE_SWITCH, ports, 0, name, &err);

	ck_assert_int_ge(n, 0);
	return n;
}

static void link_next(struct ot_fabric *f, int a, int b)
{
	struct ot_error err = { 0 };
	unsigned int pa = 1, pb = 1;

	while (f->node[a].port[pa].peer >= 0)
		pa++;
	while (f->node[b].port[pb].peer >= 0)
		pb++;
	ck_assert_msg(!ot_fabric_link(f, a, pa, b, pb, &err), "%s", err.msg);
}

START_TEST(refuse_ring_of_five)
{
	struct ot_fabric *f = ot_fabric_new();
	char name[16];
	int sw[5], i;

	for (i = 0; i < 5; i++) {
		snprintf(name, sizeof(name), "ring%d", i);
		sw[i] = add_switch(f, name, 4);
	}
	for (i = 0; i < 5; i++)
		link_next(f, sw[i], sw[(i + 1) % 5]);
	give_guids_and_index(f);
	check_refused(f, "switch \"ring");
}
END_TEST

/* A two-level leaf/spine fat tree, 4 leaves with 2 CAs, 3 spines. */
START_TEST(refuse_fat_tree)
{
	struct ot_fabric *f = ot_fabric_new();
	struct ot_error err = { 0 };
	char name[32];
	int leaf[4], spine[3], i, j;

	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "spine%d", i);
		spine[i] = add_switch(f, name, 8);
	}
	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "leaf%d", i);
		leaf[i] = add_switch(f, name, 8);
		for (j = 0; j < 3; j++)
			link_next(f, leaf[i], spine[j]);
		for (j = 0; j < 2; j++) {
			int ca;

			snprintf(name, sizeof(name), "ca%d-%d", i, j);
			ca = ot_fabric_add_node(f, OT_NODE_CA, 1, 0, name,
						&err);
			link_next(f, ca, leaf[i]);
		}
	}
	give_guids_and_index(f);
	check_refused(f, "switch \"");
}
END_TEST

START_TEST(refuse_kns)
{
	struct ot_kns_params p = { .k = 4, .n = 2, .cas = 1, .links = 1 };
	struct ot_error err = { 0 };
	struct ot_fabric *f = ot_gen_kns(&p, &err);

	ck_assert_msg(f, "%s", err.msg);
	give_guids_and_index(f);
	check_refused(f, "KNS");
}
END_TEST

/* A diagonal cable in a 3x3: in no dimension. */
START_TEST(refuse_extra_cable)
{
	struct ot_flatfly_params p = { .ndims = 2, .size = { 3, 3 },
				       .cas = 1, .radix = 8 };
	struct ot_error err = { 0 };
	struct ot_fabric *f = ot_gen_flatfly(&p, &err);
	int a = -1, b = -1;
	uint32_t n;

	ck_assert_msg(f, "%s", err.msg);
	for (n = 0; n < f->nnodes; n++) {
		if (!strcmp(f->node[n].desc, "FF[0,0]"))
			a = n;
		if (!strcmp(f->node[n].desc, "FF[1,1]"))
			b = n;
	}
	link_next(f, a, b);
	give_guids_and_index(f);
	check_refused(f, "FF[");
}
END_TEST

/* Two switches at the same position: a 2x2 plus a parallel switch. */
START_TEST(refuse_collision)
{
	struct ot_fabric *f = ot_fabric_new();
	int s[5], i;

	for (i = 0; i < 5; i++) {
		char name[16];

		snprintf(name, sizeof(name), "sq%d", i);
		s[i] = add_switch(f, name, 4);
	}
	/* square 0-1-2-3, and 4 cabled like 0 (to 1 and 3) */
	link_next(f, s[0], s[1]);
	link_next(f, s[1], s[2]);
	link_next(f, s[2], s[3]);
	link_next(f, s[3], s[0]);
	link_next(f, s[4], s[1]);
	link_next(f, s[4], s[3]);
	give_guids_and_index(f);
	check_refused(f, "switch \"sq");
}
END_TEST

START_TEST(refuse_torus_5)
{
	struct ot_fabric *f = ot_fabric_new();
	int s[25], x, y;

	for (x = 0; x < 5; x++)
		for (y = 0; y < 5; y++) {
			char name[16];

			snprintf(name, sizeof(name), "T[%d,%d]", x, y);
			s[5 * x + y] = add_switch(f, name, 4);
		}
	for (x = 0; x < 5; x++)
		for (y = 0; y < 5; y++) {
			link_next(f, s[5 * x + y], s[5 * ((x + 1) % 5) + y]);
			link_next(f, s[5 * x + y], s[5 * x + (y + 1) % 5]);
		}
	give_guids_and_index(f);
	check_refused(f, "switch \"T[");
}
END_TEST

/* A torus of 4 per dimension is a hypercube: accepted as 2x2x2x2. */
START_TEST(torus_4_is_hypercube)
{
	struct ot_fabric *f = ot_fabric_new();
	struct ot_error err = { 0 };
	struct ot_ff *ff = NULL;
	int s[16], x, y;

	for (x = 0; x < 4; x++)
		for (y = 0; y < 4; y++) {
			char name[16];

			snprintf(name, sizeof(name), "T[%d,%d]", x, y);
			s[4 * x + y] = add_switch(f, name, 4);
		}
	for (x = 0; x < 4; x++)
		for (y = 0; y < 4; y++) {
			link_next(f, s[4 * x + y], s[4 * ((x + 1) % 4) + y]);
			link_next(f, s[4 * x + y], s[4 * x + (y + 1) % 4]);
		}
	give_guids_and_index(f);
	ck_assert_msg(!ot_ff_map(f, &ff, &err), "%s", err.msg);
	ck_assert_uint_eq(ff->ndims, 4);
	ck_assert_uint_eq(ff->nslots, 16);
	ot_ff_free(ff);
	ot_fabric_free(f);
}
END_TEST

START_TEST(refuse_empty_and_single)
{
	struct ot_fabric *f = ot_fabric_new();
	struct ot_error err = { 0 };
	int sw, ca;

	give_guids_and_index(f);
	check_refused(f, "no switches");

	f = ot_fabric_new();
	sw = add_switch(f, "lonely", 4);
	ca = ot_fabric_add_node(f, OT_NODE_CA, 1, 0, "ca", &err);
	link_next(f, ca, sw);
	give_guids_and_index(f);
	check_refused(f, "switch \"lonely\"");
}
END_TEST

/* Two fabrics in one model: the SM would see only one. */
START_TEST(refuse_disconnected)
{
	struct ot_fabric *f = ot_fabric_new();
	int a = add_switch(f, "a", 4), b = add_switch(f, "b", 4);
	int c = add_switch(f, "c", 4), d = add_switch(f, "d", 4);

	link_next(f, a, b);
	link_next(f, c, d);
	give_guids_and_index(f);
	check_refused(f, "not one fabric");
}
END_TEST

START_TEST(generator_damage_is_deterministic)
{
	struct ot_fabric *f1 = gen("4x4x4", NULL, 2, 0.2, 0.15, 9, -1);
	struct ot_fabric *f2 = gen("4x4x4", NULL, 2, 0.2, 0.15, 9, -1);
	uint32_t n, cables = 0;
	unsigned int p;

	/* 20% of 64 switches (13) removed, with their CAs */
	ck_assert_uint_eq(f1->nswitches, 51);
	ck_assert_uint_eq(f1->ncas, 102);
	ck_assert_uint_eq(f1->nnodes, f2->nnodes);
	for (n = 0; n < f1->nnodes; n++) {
		ck_assert_str_eq(f1->node[n].desc, f2->node[n].desc);
		for (p = 1; p <= f1->node[n].nports; p++) {
			ck_assert_int_eq(f1->node[n].port[p].peer,
					 f2->node[n].port[p].peer);
			if (f1->node[n].port[p].peer >= 0 &&
			    ot_is_switch(f1, n) &&
			    ot_is_switch(f1, f1->node[n].port[p].peer))
				cables++;
		}
	}
	ck_assert_uint_gt(cables, 0);
	ot_fabric_free(f1);
	ot_fabric_free(f2);
}
END_TEST

static Suite *flatfly_suite(void)
{
	Suite *s = suite_create("flatfly");
	TCase *tc = tcase_create("map");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, complete_flatflies);
	tcase_add_test(tc, sizes_and_widths);
	tcase_add_test(tc, hypercubes);
	tcase_add_test(tc, shuffled_ports_and_order);
	tcase_add_test(tc, damaged_flatflies);
	tcase_add_test(tc, damaged_hypercubes);
	tcase_add_test(tc, refuse_ring_of_five);
	tcase_add_test(tc, refuse_fat_tree);
	tcase_add_test(tc, refuse_kns);
	tcase_add_test(tc, refuse_extra_cable);
	tcase_add_test(tc, refuse_collision);
	tcase_add_test(tc, refuse_torus_5);
	tcase_add_test(tc, torus_4_is_hypercube);
	tcase_add_test(tc, refuse_empty_and_single);
	tcase_add_test(tc, refuse_disconnected);
	tcase_add_test(tc, generator_damage_is_deterministic);
	suite_add_tcase(s, tc);
	return s;
}

OT_UNIT_MAIN(flatfly_suite)
