// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of the fat-tree generators (src/gen/fattree.c), the
 * first step of the flow for the fabrics `osmtopo compare` runs OpenSM's
 * engines on: the seeds' two fat trees have the switch, CA and cable
 * counts and the port degrees their papers give, every CA reaches every
 * CA over the cabling within 2h links, and parameters that do not fit
 * are refused with a reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"

#include "unit.h"

static int find(const struct ot_fabric *f, const char *desc)
{
	uint32_t i;

	for (i = 0; i < f->nnodes; i++)
		if (!strcmp(f->node[i].desc, desc))
			return (int)i;
	ck_abort_msg("no node \"%s\"", desc);
	return -1;
}

/* Cabled ports of node n. */
static unsigned int degree(const struct ot_fabric *f, int n)
{
	unsigned int p, d = 0;

	for (p = 1; p <= f->node[n].nports; p++)
		if (f->node[n].port[p].peer >= 0)
			d++;
	return d;
}

/* Cables from node a to node b. */
static unsigned int cables(const struct ot_fabric *f, int a, int b)
{
	unsigned int p, c = 0;

	for (p = 1; p <= f->node[a].nports; p++)
		if (f->node[a].port[p].peer == b)
			c++;
	return c;
}

static unsigned int count_type(const struct ot_fabric *f,
			       enum ot_node_type t)
{
	uint32_t i, c = 0;

	for (i = 0; i < f->nnodes; i++)
		if (f->node[i].type == t)
			c++;
	return c;
}

static unsigned int total_cables(const struct ot_fabric *f)
{
	uint32_t i, c = 0;

	for (i = 0; i < f->nnodes; i++)
		c += degree(f, (int)i);
	return c / 2;
}

/*
 * The largest number of links between two CAs on their shortest path
 * (BFS from every CA through switches only).
 */
static unsigned int ca_diameter(const struct ot_fabric *f)
{
	int32_t *dist = malloc(f->nnodes * sizeof(*dist));
	int32_t *queue = malloc(f->nnodes * sizeof(*queue));
	unsigned int worst = 0;
	uint32_t s, i;

	ck_assert(dist && queue);
	for (s = 0; s < f->nnodes; s++) {
		uint32_t head = 0, tail = 0;

		if (f->node[s].type != OT_NODE_CA)
			continue;
		for (i = 0; i < f->nnodes; i++)
			dist[i] = -1;
		dist[s] = 0;
		queue[tail++] = (int32_t)s;
		while (head < tail) {
			int32_t u = queue[head++];
			unsigned int p;

			if (u != (int32_t)s && f->node[u].type == OT_NODE_CA)
				continue;
			for (p = 1; p <= f->node[u].nports; p++) {
				int32_t w = f->node[u].port[p].peer;

				if (w < 0 || dist[w] >= 0)
					continue;
				dist[w] = dist[u] + 1;
				queue[tail++] = w;
			}
		}
		for (i = 0; i < f->nnodes; i++) {
			if (f->node[i].type != OT_NODE_CA)
				continue;
			ck_assert_msg(dist[i] >= 0, "%s does not reach %s",
				      f->node[s].desc, f->node[i].desc);
			if ((unsigned int)dist[i] > worst)
				worst = (unsigned int)dist[i];
		}
	}
	free(dist);
	free(queue);
	return worst;
}

static void index_ok(struct ot_fabric *f)
{
	struct ot_error err = { 0 };

	ot_fabric_assign_lids(f);
	ck_assert_msg(!ot_fabric_index(f, &err), "index: %s", err.msg);
}

static struct ot_fabric *sft(unsigned int cas)
{
	struct ot_fattree_params p = { .levels = 3, .cas = cas };
	struct ot_error err = { 0 };
	struct ot_fabric *f;

	p.down[2] = 3;
	p.up[2] = 3;
	p.down[3] = 3;
	p.up[3] = 1;
	p.links[3] = 2;
	f = ot_gen_fattree(&p, &err);
	ck_assert_msg(f, "gen: %s", err.msg);
	index_ok(f);
	return f;
}

/* Seed 000, 4.2: 45 nodes, 21 switches in 3 stages, 3 groups of 3
 * subgroups, parallel cables in the upper stage. */
START_TEST(sft_45_counts)
{
	struct ot_fabric *f = sft(5);
	int leaf = find(f, "L1[1,2]"), mid = find(f, "L2[1;2]");
	int top = find(f, "L3[;0,2]");

	ck_assert_uint_eq(count_type(f, OT_NODE_CA), 45);
	ck_assert_uint_eq(count_type(f, OT_NODE_SWITCH), 21);
	/* 45 CA cables, 9 leaves x 3, 9 middle switches x 2 */
	ck_assert_uint_eq(total_cables(f), 45 + 27 + 18);
	ck_assert_uint_eq(degree(f, leaf), 5 + 3);
	ck_assert_uint_eq(degree(f, mid), 3 + 2);
	ck_assert_uint_eq(degree(f, top), 6);
	ck_assert_uint_eq(cables(f, leaf, mid), 1);
	ck_assert_uint_eq(cables(f, mid, top), 2);
	/* a group's middle switch y connects to top switch y only */
	ck_assert_uint_eq(cables(f, find(f, "L2[1;1]"), top), 0);
	ck_assert_uint_eq(cables(f, find(f, "CA[1,2,4]"), leaf), 1);
	ck_assert_uint_eq(ca_diameter(f), 6);
	ot_fabric_free(f);
}
END_TEST

/* The paper's variant: one node removed per subgroup, 36 nodes. */
START_TEST(sft_36_counts)
{
	struct ot_fabric *f = sft(4);

	ck_assert_uint_eq(count_type(f, OT_NODE_CA), 36);
	ck_assert_uint_eq(count_type(f, OT_NODE_SWITCH), 21);
	ck_assert_uint_eq(degree(f, find(f, "L1[0,0]")), 4 + 3);
	ck_assert_uint_eq(f->node[find(f, "L1[0,0]")].nports, 7);
	ot_fabric_free(f);
}
END_TEST

START_TEST(two_level_leaf_spine)
{
	struct ot_fattree_params p = { .levels = 2, .cas = 24, .radix = 36 };
	struct ot_error err = { 0 };
	struct ot_fabric *f;
	int l, s;

	p.down[2] = 12;
	p.up[2] = 6;
	p.links[2] = 2;
	f = ot_gen_fattree(&p, &err);
	ck_assert_msg(f, "gen: %s", err.msg);
	index_ok(f);
	ck_assert_uint_eq(count_type(f, OT_NODE_CA), 288);
	ck_assert_uint_eq(count_type(f, OT_NODE_SWITCH), 18);
	for (l = 0; l < 12; l++) {
		char leaf[32];

		snprintf(leaf, sizeof(leaf), "L1[%d]", l);
		ck_assert_uint_eq(degree(f, find(f, leaf)), 24 + 12);
		for (s = 0; s < 6; s++) {
			char spine[32];

			snprintf(spine, sizeof(spine), "L2[;%d]", s);
			ck_assert_uint_eq(cables(f, find(f, leaf),
						 find(f, spine)), 2);
		}
	}
	ck_assert_uint_eq(degree(f, find(f, "L2[;5]")), 24);
	ck_assert_uint_eq(f->node[find(f, "L2[;5]")].nports, 36);
	ck_assert_uint_eq(ca_diameter(f), 4);
	ot_fabric_free(f);
}
END_TEST

START_TEST(fattree_refusals)
{
	struct ot_fattree_params p = { .levels = 2, .cas = 30, .radix = 36 };
	struct ot_error err = { 0 };

	p.down[2] = 4;
	p.up[2] = 4;
	p.links[2] = 2;
	ck_assert(!ot_gen_fattree(&p, &err));
	ck_assert_msg(strstr(err.msg, "radix 36 too small"), "%s", err.msg);
	p.radix = 0;
	p.up[2] = 0;
	ck_assert(!ot_gen_fattree(&p, &err));
	ck_assert_msg(strstr(err.msg, "level 2"), "%s", err.msg);
	p.levels = OT_FT_MAX_LEVELS + 1;
	ck_assert(!ot_gen_fattree(&p, &err));
}
END_TEST

/* Seed 003, section 2: Iris 12 x 6 with 2 cables per pair, Aion 8 x 4,
 * each Aion spine with 12 interlinks, 2 to each Iris spine. */
START_TEST(ulhpc_counts)
{
	struct ot_ulhpc_params p;
	struct ot_error err = { 0 };
	struct ot_fabric *f;
	int is, as;

	ot_ulhpc_defaults(&p, 24, 48);
	f = ot_gen_ulhpc(&p, &err);
	ck_assert_msg(f, "gen: %s", err.msg);
	index_ok(f);
	/* the paper's 12 x 24 + 8 x 48 = 672 end-points */
	ck_assert_uint_eq(count_type(f, OT_NODE_CA), 672);
	ck_assert_uint_eq(count_type(f, OT_NODE_SWITCH), 30);
	is = find(f, "iris-spine-3");
	as = find(f, "aion-spine-1");
	ck_assert_uint_eq(cables(f, find(f, "iris-leaf-7"), is), 2);
	ck_assert_uint_eq(degree(f, find(f, "iris-leaf-7")), 24 + 12);
	ck_assert_uint_eq(cables(f, find(f, "aion-leaf-2"), as), 3);
	ck_assert_uint_eq(cables(f, as, is), 2);
	/* Iris spine: 24 leaf cables + 8 interlinks (of 12 freed ports) */
	ck_assert_uint_eq(degree(f, is), 24 + 8);
	ck_assert_uint_eq(degree(f, as), 24 + 12);
	ck_assert_uint_eq(f->node[is].nports, 36);
	ck_assert_uint_eq(f->node[as].nports, 40);
	ck_assert_uint_eq(total_cables(f),
			  672 + 12 * 6 * 2 + 8 * 4 * 3 + 48);
	/* Iris to Aion: leaf, spine, spine, leaf */
	ck_assert_uint_eq(ca_diameter(f), 5);
	ot_fabric_free(f);
}
END_TEST

START_TEST(ulhpc_radix)
{
	struct ot_ulhpc_params p;
	struct ot_error err = { 0 };

	ot_ulhpc_defaults(&p, 25, 4);
	ck_assert(!ot_gen_ulhpc(&p, &err));
	ck_assert_msg(strstr(err.msg, "iris"), "%s", err.msg);
}
END_TEST

static Suite *gen_suite(void)
{
	Suite *s = suite_create("gen");
	TCase *tc = tcase_create("fattree");

	tcase_add_test(tc, sft_45_counts);
	tcase_add_test(tc, sft_36_counts);
	tcase_add_test(tc, two_level_leaf_spine);
	tcase_add_test(tc, fattree_refusals);
	tcase_add_test(tc, ulhpc_counts);
	tcase_add_test(tc, ulhpc_radix);
	suite_add_tcase(s, tc);
	return s;
}

OT_UNIT_MAIN(gen_suite)
