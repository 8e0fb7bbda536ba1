// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The multicast check (src/check/mcast.c) on MFTs built here: a spanning
 * tree over the switches passes; a cable added to the tree (a loop), a
 * member's port left out, a tree cable listed at one end only, and a tree
 * whose turns close a credit loop with ff-dor's 1-VL unicast routing all
 * fail, with the counts the damage implies.  Fabrics have parallel cables
 * (widths 2), two CAs per switch and shuffled ports.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "gen/gen.h"
#include "model/mcast.h"
#include "model/routing.h"
#include "route/engine.h"
#include "unit.h"

#define MLID (OT_MLID_BASE + 3)

static uint64_t name_guid(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 0x100000001b3ull;
	}
	return h | 1;
}

/* FlatFly 3x3 (widths 2,1), 2 CAs a switch, ports shuffled, routed. */
static struct ot_fabric *fabric(struct ot_routing **r)
{
	struct ot_flatfly_params p = { .ndims = 2, .size = { 3, 3 },
				       .width = { 2, 1 }, .cas = 2,
				       .shuffle = true, .seed = 5 };
	struct ot_error err = { 0 };
	struct ot_fabric *f = ot_gen_flatfly(&p, &err);
	uint32_t i;

	ck_assert_msg(f, "gen: %s", err.msg);
	for (i = 0; i < f->nnodes; i++)
		f->node[i].guid = name_guid(f->node[i].desc);
	ck_assert_msg(!ot_fabric_set_ca_lmc(f, 0, &err), "LIDs: %s", err.msg);
	ck_assert_msg(!ot_engine_run(ot_engine_find("ff-dor"), f, r, &err),
		      "ff-dor: %s", err.msg);
	return f;
}

static int32_t node(const struct ot_fabric *f, const char *desc)
{
	uint32_t i;

	for (i = 0; i < f->nnodes; i++)
		if (!strcmp(f->node[i].desc, desc))
			return (int32_t)i;
	ck_abort_msg("no node %s", desc);
	return -1;
}

/* The lowest port of u cabled to v (parallel cables: one of them). */
static unsigned int port_to(const struct ot_fabric *f, int32_t u, int32_t v)
{
	unsigned int p;

	for (p = 1; p <= f->node[u].nports; p++)
		if (f->node[u].port[p].peer == v)
			return p;
	ck_abort_msg("%s has no cable to %s", f->node[u].desc,
		     f->node[v].desc);
	return 0;
}

static void edge(struct ot_mcast *mc, const char *a, const char *b, bool on)
{
	const struct ot_fabric *f = mc->fabric;
	int32_t u = node(f, a), v = node(f, b);
	unsigned int p = port_to(f, u, v);

	/* both ends of one cable (of parallel ones, another would loop) */
	ck_assert(!ot_mcast_set(mc, u, MLID, p, on));
	ck_assert(!ot_mcast_set(mc, v, MLID, f->node[u].port[p].peer_port,
				on));
}

static const char *const members[] = {
	"FF[0,0]/0", "FF[0,0]/1", "FF[2,0]/1", "FF[1,1]/0",
	"FF[0,2]/0", "FF[2,2]/1", "FF[1,2]/0",
};
#define NMEMBERS (sizeof(members) / sizeof(members[0]))

/*
 * The group with its members, each CA's port set at its switch, and the
 * tree: with rows_first, row 0 (dimension 1) from FF[0,0], then every
 * column (dimension 0) from row 0; else column 0 first, then the rows.
 */
static struct ot_mcast *group(const struct ot_fabric *f, bool rows_first)
{
	static const uint8_t mgid[16] = { 0xff, 0x12, 0xe0, 0x01 };
	struct ot_mcast *mc = ot_mcast_new(f, 4);
	struct ot_mcast_group *g;
	char a[16], b[16];
	unsigned int i, j;

	ck_assert(mc);
	g = ot_mcast_add_group(mc, MLID, mgid, 0);
	ck_assert(g);
	for (i = 0; i < NMEMBERS; i++) {
		int32_t c = node(f, members[i]);
		const struct ot_port *pt = &f->node[c].port[1];

		ck_assert(!ot_mcast_add_member(g, c, 1));
		ck_assert(!ot_mcast_set(mc, pt->peer, MLID, pt->peer_port,
					true));
	}
	for (i = 1; i < 3; i++) {
		snprintf(a, sizeof(a), rows_first ? "FF[0,%u]" : "FF[%u,0]",
			 i);
		edge(mc, "FF[0,0]", a, true);
		for (j = 1; j < 3; j++) {
			snprintf(b, sizeof(b),
				 rows_first ? "FF[%u,%u]" : "FF[%u,%u]",
				 rows_first ? j : i, rows_first ? i : j);
			edge(mc, a, b, true);
		}
	}
	for (j = 1; j < 3; j++) {
		snprintf(b, sizeof(b), rows_first ? "FF[%u,0]" : "FF[0,%u]",
			 j);
		edge(mc, "FF[0,0]", b, true);
	}
	return mc;
}

static const struct ot_check_counts *run(const struct ot_fabric *f,
					 const struct ot_routing *r,
					 const struct ot_mcast *mc,
					 struct ot_check_report **rep)
{
	struct ot_check_opts o = { .mcast = mc };
	struct ot_error err = { 0 };

	ck_assert_msg(!ot_check_run(f, r, &o, rep, &err), "check: %s",
		      err.msg);
	return ot_check_counts(*rep);
}

/* Whichever tree, on its own it delivers everything without a loop. */
START_TEST(tree_delivers)
{
	struct ot_routing *r = NULL;
	struct ot_fabric *f = fabric(&r);
	struct ot_mcast *mc = group(f, _i);
	struct ot_check_report *rep = NULL;
	const struct ot_check_counts *c = run(f, r, mc, &rep);

	ck_assert(c->mcast_checked);
	ck_assert_uint_eq(c->mcast.groups, 1);
	ck_assert_uint_eq(c->mcast.trees, 1);
	ck_assert_uint_eq(c->mcast.members, NMEMBERS);
	ck_assert_uint_eq(c->mcast.pairs, NMEMBERS * (NMEMBERS - 1));
	ck_assert_uint_eq(c->mcast.missed, 0);
	ck_assert_uint_eq(c->mcast.looping, 0);
	ck_assert_uint_gt(c->mcast.dependencies, 0);
	ck_assert_uint_eq(c->mcast.credit_loops, 0);
	ck_assert(ot_check_ok(rep));
	ot_check_report_free(rep);
	ot_mcast_free(mc);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/* A cable added between two branches of the tree: a loop. */
START_TEST(loop_fails)
{
	struct ot_routing *r = NULL;
	struct ot_fabric *f = fabric(&r);
	struct ot_mcast *mc = group(f, true);
	struct ot_check_report *rep = NULL;
	const struct ot_check_counts *c;

	edge(mc, "FF[1,1]", "FF[1,2]", true);
	c = run(f, r, mc, &rep);
	ck_assert_uint_eq(c->mcast.looping, 1);
	ck_assert(!ot_check_ok(rep));
	ot_check_report_free(rep);
	ot_mcast_free(mc);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/* A member's own port left out of its switch's MFT: it hears nobody. */
START_TEST(missed_member_fails)
{
	struct ot_routing *r = NULL;
	struct ot_fabric *f = fabric(&r);
	struct ot_mcast *mc = group(f, true);
	struct ot_check_report *rep = NULL;
	const struct ot_check_counts *c;
	const struct ot_port *pt = &f->node[node(f, "FF[2,2]/1")].port[1];

	ck_assert(!ot_mcast_set(mc, pt->peer, MLID, pt->peer_port, false));
	c = run(f, r, mc, &rep);
	ck_assert_uint_eq(c->mcast.missed, NMEMBERS - 1);
	ck_assert_uint_eq(c->mcast.looping, 0);
	ck_assert(!ot_check_ok(rep));
	ot_check_report_free(rep);
	ot_mcast_free(mc);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * A tree cable listed at one end only: packets cross it one way.  Column
 * 2 hangs off FF[0,2]; with FF[2,2]'s port back to FF[0,2] cleared, the
 * packets of FF[2,2]/1 reach nobody and the others reach it.
 */
START_TEST(one_way_fails)
{
	struct ot_routing *r = NULL;
	struct ot_fabric *f = fabric(&r);
	struct ot_mcast *mc = group(f, true);
	struct ot_check_report *rep = NULL;
	const struct ot_check_counts *c;
	int32_t u = node(f, "FF[2,2]"), v = node(f, "FF[0,2]");

	ck_assert(!ot_mcast_set(mc, u, MLID, port_to(f, u, v), false));
	c = run(f, r, mc, &rep);
	ck_assert_uint_eq(c->mcast.missed, NMEMBERS - 1);
	ck_assert(!ot_check_ok(rep));
	ot_check_report_free(rep);
	ot_mcast_free(mc);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/* The switch on the other side of one of sw's cables toward v. */
static int32_t hop(const struct ot_fabric *f, const struct ot_routing *r,
		   int32_t sw, int32_t v)
{
	uint8_t p = r->lft[sw][f->node[v].port[0].lid];

	ck_assert(p >= 1 && p <= f->node[sw].nports);
	return f->node[sw].port[p].peer;
}

static void name_flip(const struct ot_fabric *f, int32_t n, unsigned int d,
		      char *buf, size_t len)
{
	uint32_t c[3];

	ck_assert_uint_eq(ot_gen_name_coords(f->node[n].desc, c, 3), 3);
	c[d] ^= 1;
	snprintf(buf, len, "FF[%u,%u,%u]", c[0], c[1], c[2]);
}

static unsigned int dim_of(const struct ot_fabric *f, int32_t u, int32_t v)
{
	uint32_t a[3], b[3];
	unsigned int d;

	ot_gen_name_coords(f->node[u].desc, a, 3);
	ot_gen_name_coords(f->node[v].desc, b, 3);
	for (d = 0; d < 3; d++)
		if (a[d] != b[d])
			return d;
	ck_abort_msg("no cable");
	return 0;
}

/*
 * Credit loops.  On a 2-D FlatFly (above) a tree adds none to ff-dor's
 * single VL: a cycle would need a closed walk in the tree without a
 * U-turn.  On a 3-cube it can: ff-dor routes s -> a -> b -> t over three
 * dimensions; a tree holding s-a and b-t but not a-b, joined the other
 * way round the cube (t -> x -> y -> s), makes the channel b->t lead by
 * the tree back to s->a, which leads to a->b and b->t by unicast.
 */
START_TEST(credit_loop_fails)
{
	struct ot_flatfly_params p = { .ndims = 3, .size = { 2, 2, 2 },
				       .width = { 2, 1, 1 }, .cas = 2,
				       .shuffle = true, .seed = 9 };
	static const uint8_t mgid[16] = { 0xff, 0x12, 0xe0, 0x02 };
	struct ot_error err = { 0 };
	struct ot_routing *r = NULL;
	struct ot_check_report *rep = NULL;
	const struct ot_check_counts *c;
	struct ot_fabric *f = ot_gen_flatfly(&p, &err);
	struct ot_mcast *mc;
	struct ot_mcast_group *g;
	int32_t s, a, b, t;
	unsigned int d1, d2, d3;
	char x[16], y[16], z[16];
	uint32_t i;

	ck_assert_msg(f, "gen: %s", err.msg);
	for (i = 0; i < f->nnodes; i++)
		f->node[i].guid = name_guid(f->node[i].desc);
	ck_assert(!ot_fabric_set_ca_lmc(f, 0, &err));
	ck_assert(!ot_engine_run(ot_engine_find("ff-dor"), f, &r, &err));
	s = node(f, "FF[0,0,0]");
	t = node(f, "FF[1,1,1]");
	a = hop(f, r, s, t);
	b = hop(f, r, a, t);
	ck_assert_int_eq(hop(f, r, b, t), t);
	d1 = dim_of(f, s, a);
	d2 = dim_of(f, a, b);
	d3 = dim_of(f, b, t);
	mc = ot_mcast_new(f, 4);
	g = ot_mcast_add_group(mc, MLID, mgid, 0);
	ck_assert(mc && g);
	for (i = 0; i < f->nnodes; i++) {
		const struct ot_port *pt = &f->node[i].port[1];

		if (f->node[i].type == OT_NODE_SWITCH)
			continue;
		ck_assert(!ot_mcast_add_member(g, (int32_t)i, 1));
		ck_assert(!ot_mcast_set(mc, pt->peer, MLID, pt->peer_port,
					true));
	}
	name_flip(f, t, d1, x, sizeof(x));
	name_flip(f, node(f, x), d2, y, sizeof(y));
	edge(mc, f->node[s].desc, f->node[a].desc, true);
	edge(mc, f->node[b].desc, f->node[t].desc, true);
	edge(mc, f->node[t].desc, x, true);
	edge(mc, x, y, true);
	edge(mc, y, f->node[s].desc, true);
	name_flip(f, a, d3, z, sizeof(z));
	edge(mc, f->node[a].desc, z, true);
	name_flip(f, b, d1, z, sizeof(z));
	edge(mc, f->node[b].desc, z, true);
	c = run(f, r, mc, &rep);
	ck_assert_uint_eq(c->mcast.missed, 0);
	ck_assert_uint_eq(c->mcast.looping, 0);
	ck_assert_uint_eq(c->credit_loops, 0);
	ck_assert_uint_gt(c->mcast.credit_loops, 0);
	ck_assert(!ot_check_ok(rep));
	ot_check_report_free(rep);
	ot_mcast_free(mc);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

static Suite *mcast_suite(void)
{
	Suite *s = suite_create("mcast");
	TCase *tc = tcase_create("check");

	tcase_add_loop_test(tc, tree_delivers, 0, 2);
	tcase_add_test(tc, loop_fails);
	tcase_add_test(tc, missed_member_fails);
	tcase_add_test(tc, one_way_fails);
	tcase_add_test(tc, credit_loop_fails);
	suite_add_tcase(s, tc);
	return s;
}

OT_UNIT_MAIN(mcast_suite)
