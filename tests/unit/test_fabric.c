// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of the fabric model and routing tables (src/model): cables,
 * LID assignment and indexing, and the errors a broken fabric gets.
 */
#include <string.h>

#include "model/fabric.h"
#include "model/routing.h"
#include "route/engine.h"
#include "unit.h"

/* Two switches cabled on ports 1-1, a CA on each (port 2 of the switch). */
static struct ot_fabric *two_switches(void)
{
	struct ot_error err;
	struct ot_fabric *f = ot_fabric_new();
	int s0, s1, c0, c1;

	ck_assert_ptr_nonnull(f);
	s0 = ot_fabric_add_node(f, OT_NODE_SWITCH, 4, 0x20, "s0", &err);
	s1 = ot_fabric_add_node(f, OT_NODE_SWITCH, 4, 0x21, "s1", &err);
	c0 = ot_fabric_add_node(f, OT_NODE_CA, 1, 0x10, "c0", &err);
	c1 = ot_fabric_add_node(f, OT_NODE_CA, 2, 0x12, "c1", &err);
	ck_assert_int_eq(s0, 0);
	ck_assert_int_eq(c1, 3);
	ck_assert_int_eq(ot_fabric_link(f, s0, 1, s1, 1, &err), 0);
	ck_assert_int_eq(ot_fabric_link(f, s0, 2, c0, 1, &err), 0);
	ck_assert_int_eq(ot_fabric_link(f, s1, 2, c1, 1, &err), 0);
	return f;
}

START_TEST(cables_are_symmetric)
{
	struct ot_fabric *f = two_switches();

	ck_assert_int_eq(f->node[0].port[1].peer, 1);
	ck_assert_int_eq(f->node[1].port[1].peer, 0);
	ck_assert_int_eq(f->node[1].port[1].peer_port, 1);
	ck_assert_int_eq(f->node[2].port[1].peer, 0);
	ck_assert_int_eq(f->node[2].port[1].peer_port, 2);
	ck_assert_int_eq(f->node[3].port[2].peer, -1);
	ot_fabric_free(f);
}
END_TEST

START_TEST(cabling_a_port_twice_is_refused)
{
	struct ot_fabric *f = two_switches();
	struct ot_error err;

	ck_assert_int_eq(ot_fabric_link(f, 0, 1, 1, 3, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "\"s0\" port 1 cabled twice"));
	ck_assert_int_eq(ot_fabric_link(f, 0, 5, 1, 3, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "\"s0\" has no port 5"));
	ck_assert_int_eq(ot_fabric_link(f, 0, 3, 0, 3, &err), -1);
	/* the same cable declared from both ends is fine */
	ck_assert_int_eq(ot_fabric_link(f, 1, 1, 0, 1, &err), 0);
	ot_fabric_free(f);
}
END_TEST

START_TEST(lids_are_assigned_in_node_order)
{
	struct ot_fabric *f = two_switches();
	struct ot_error err;

	ot_fabric_assign_lids(f);
	ck_assert_int_eq(ot_fabric_index(f, &err), 0);
	ck_assert_int_eq(f->node[0].port[0].lid, 1);
	ck_assert_int_eq(f->node[1].port[0].lid, 2);
	ck_assert_int_eq(f->node[2].port[1].lid, 3);
	ck_assert_int_eq(f->node[3].port[1].lid, 4);
	/* an uncabled CA port gets no LID */
	ck_assert_int_eq(f->node[3].port[2].lid, 0);
	ck_assert_int_eq(f->max_lid, 4);
	ck_assert_int_eq(f->nswitches, 2);
	ck_assert_int_eq(f->ncas, 2);
	ck_assert_int_eq(ot_fabric_lid_node(f, 3), 2);
	ck_assert_int_eq(ot_fabric_lid_node(f, 5), -1);
	ck_assert_int_eq(ot_fabric_lid_node(f, 0), -1);
	ot_fabric_free(f);
}
END_TEST

START_TEST(lmc_covers_a_range_and_assignment_skips_it)
{
	struct ot_fabric *f = two_switches();
	struct ot_error err;

	ck_assert_int_eq(ot_fabric_set_lid(f, 2, 1, 8, 2, &err), 0);
	ot_fabric_assign_lids(f);
	ck_assert_int_eq(ot_fabric_index(f, &err), 0);
	ck_assert_int_eq(ot_fabric_lid_node(f, 8), 2);
	ck_assert_int_eq(ot_fabric_lid_node(f, 11), 2);
	ck_assert_int_eq(f->lid_owner[11].port, 1);
	/* others are given LIDs after the highest one in use */
	ck_assert_int_eq(f->node[0].port[0].lid, 12);
	ck_assert_int_eq(f->max_lid, 14);
	ot_fabric_free(f);
}
END_TEST

START_TEST(set_ca_lmc_lays_lids_out_as_opensm)
{
	struct ot_fabric *f = two_switches();
	struct ot_error err;

	ot_fabric_assign_lids(f);
	ck_assert_int_eq(ot_fabric_index(f, &err), 0);
	ck_assert_int_eq(ot_fabric_set_ca_lmc(f, 2, &err), 0);
	/* switches keep one LID; CA base LIDs are multiples of 4 */
	ck_assert_int_eq(f->node[0].port[0].lid, 1);
	ck_assert_int_eq(f->node[1].port[0].lid, 2);
	ck_assert_int_eq(f->node[2].port[1].lid, 4);
	ck_assert_int_eq(f->node[2].port[1].lmc, 2);
	ck_assert_int_eq(f->node[3].port[1].lid, 8);
	ck_assert_int_eq(f->max_lid, 11);
	ck_assert_int_eq(ot_fabric_lid_node(f, 7), 2);
	ck_assert_int_eq(ot_fabric_lid_node(f, 3), -1);
	ck_assert_int_eq(ot_fabric_set_ca_lmc(f, 8, &err), -1);
	ot_fabric_free(f);
}
END_TEST

START_TEST(duplicate_lids_are_refused)
{
	struct ot_fabric *f = two_switches();
	struct ot_error err;

	ck_assert_int_eq(ot_fabric_set_lid(f, 0, 0, 5, 0, &err), 0);
	ck_assert_int_eq(ot_fabric_set_lid(f, 2, 1, 4, 1, &err), 0);
	ck_assert_int_eq(ot_fabric_index(f, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "LID 5 used by"));
	ck_assert_int_eq(ot_fabric_set_lid(f, 2, 1, 4, 8, &err), -1);
	ot_fabric_free(f);
}
END_TEST

START_TEST(one_sided_cables_are_found)
{
	struct ot_fabric *f = two_switches();
	struct ot_error err;

	/* what a broken reader could leave behind */
	f->node[1].port[1].peer = -1;
	ot_fabric_assign_lids(f);
	ck_assert_int_eq(ot_fabric_index(f, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "one-sided"));
	ot_fabric_free(f);
}
END_TEST

START_TEST(a_new_routing_routes_nothing)
{
	struct ot_fabric *f = two_switches();
	struct ot_routing *r;
	struct ot_error err;
	unsigned int l;

	ot_fabric_assign_lids(f);
	ck_assert_int_eq(ot_fabric_index(f, &err), 0);
	r = ot_routing_new(f);
	ck_assert_ptr_nonnull(r);
	ck_assert_ptr_nonnull(r->lft[0]);
	ck_assert_ptr_null(r->lft[2]);
	for (l = 0; l <= f->max_lid; l++)
		ck_assert_int_eq(r->lft[1][l], OT_NO_PORT);
	ck_assert_int_eq(ot_routing_vl(r, 0, 1, 2, 3), 0);
	ck_assert_int_eq(ot_routing_path_sl(r, 3, 4), 0);
	ck_assert_int_eq(ot_routing_set_label(r, 2, "CA [%d]", 7), 0);
	ck_assert_str_eq(r->label[2], "CA [7]");
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

START_TEST(engines_are_found_by_name)
{
	ck_assert_ptr_nonnull(ot_engine_find("hdor"));
	ck_assert_str_eq(ot_engine_find("hdor")->name, "hdor");
	ck_assert_ptr_null(ot_engine_find("minhop"));
}
END_TEST

static Suite *fabric_suite(void)
{
	Suite *s = suite_create("fabric");
	TCase *tc = tcase_create("model");

	tcase_add_test(tc, cables_are_symmetric);
	tcase_add_test(tc, cabling_a_port_twice_is_refused);
	tcase_add_test(tc, lids_are_assigned_in_node_order);
	tcase_add_test(tc, lmc_covers_a_range_and_assignment_skips_it);
	tcase_add_test(tc, set_ca_lmc_lays_lids_out_as_opensm);
	tcase_add_test(tc, duplicate_lids_are_refused);
	tcase_add_test(tc, one_sided_cables_are_found);
	tcase_add_test(tc, a_new_routing_routes_nothing);
	tcase_add_test(tc, engines_are_found_by_name);
	suite_add_tcase(s, tc);
	return s;
}

OT_UNIT_MAIN(fabric_suite)
