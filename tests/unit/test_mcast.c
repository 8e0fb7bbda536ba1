// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The multicast check (src/check/mcast.c) on MFTs built here: a spanning
 * tree over the switches passes; a cable added to the tree (a loop), a
 * member's port left out, a tree cable listed at one end only, and a tree
 * whose turns close a credit loop with ff-dor's 1-VL unicast routing all
 * fail, with the counts the damage implies.  Fabrics have parallel cables
 * (widths 2), two CAs per switch and shuffled ports.
 *
 * Then the tree builder (route/mcast.h) the plugin's mcast_build_stree
 * uses: its credit-loop test agrees with the checker's (a known loop,
 * random trees); on every engine's fabrics (damaged too) its trees reach
 * every member without a loop or a credit loop; the same tree whatever
 * the port numbers and node order; another root when the first closes a
 * credit loop with the engine's VLs; no tree for one member port.
 */
#define _GNU_SOURCE /* asprintf */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "gen/gen.h"
#include "model/mcast.h"
#include "model/prng.h"
#include "model/routing.h"
#include "route/engine.h"
#include "route/mcast.h"
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
/* Every CA a member of g, its port set in its switch's MFT. */
static void every_ca_joins(struct ot_mcast *mc, struct ot_mcast_group *g)
{
	const struct ot_fabric *f = mc->fabric;
	uint32_t i;

	for (i = 0; i < f->nnodes; i++) {
		const struct ot_port *pt = &f->node[i].port[1];

		if (f->node[i].type == OT_NODE_SWITCH)
			continue;
		ck_assert(!ot_mcast_add_member(g, (int32_t)i, 1));
		ck_assert(!ot_mcast_set(mc, pt->peer, MLID, pt->peer_port,
					true));
	}
}

/*
 * The 3-cube (widths 2,1,1, 2 CAs a switch, ports shuffled) routed by
 * ff-dor, every CA a member, and a tree holding s-a and b-t but not a-b,
 * joined the other way round the cube (t -> x -> y -> s): with ff-dor's
 * s -> a -> b -> t, the channel b->t leads by the tree back to s->a,
 * which leads to a->b and b->t by unicast.
 */
static struct ot_mcast *cube_loop_tree(struct ot_fabric **fp,
				       struct ot_routing **rp)
{
	struct ot_flatfly_params p = { .ndims = 3, .size = { 2, 2, 2 },
				       .width = { 2, 1, 1 }, .cas = 2,
				       .shuffle = true, .seed = 9 };
	static const uint8_t mgid[16] = { 0xff, 0x12, 0xe0, 0x02 };
	struct ot_error err = { 0 };
	struct ot_routing *r = NULL;
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
	every_ca_joins(mc, g);
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
	*fp = f;
	*rp = r;
	return mc;
}

START_TEST(credit_loop_fails)
{
	struct ot_routing *r = NULL;
	struct ot_fabric *f = NULL;
	struct ot_check_report *rep = NULL;
	const struct ot_check_counts *c;
	struct ot_mcast *mc = cube_loop_tree(&f, &r);

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

/* ------------------------------------------------------------------ */
/* The multicast tree builder (route/mcast.h).                         */

/* The MFT bits of mlid in mc, as a tree for ot_mtree_loop(). */
static void tree_of(const struct ot_mcast *mc, uint16_t mlid,
		    struct ot_mtree *t)
{
	const struct ot_fabric *f = mc->fabric;
	uint32_t n;
	unsigned int p;

	memset(t, 0, sizeof(*t));
	t->entry = calloc(f->nnodes * 8 + 1, sizeof(*t->entry));
	ck_assert(t->entry);
	for (n = 0; n < f->nnodes; n++)
		for (p = 0; p <= f->node[n].nports; p++)
			if (ot_mcast_forwards(mc, (int32_t)n, mlid, p)) {
				t->entry[t->nentries].node = (int32_t)n;
				t->entry[t->nentries++].port = (uint8_t)p;
			}
}

static struct ot_mtree_net *tree_net(const struct ot_routing *r)
{
	struct ot_mtree_net *net = NULL;
	struct ot_error err = { 0 };

	ck_assert_msg(!ot_mtree_net_new(r, NULL, &net, &err), "net: %s",
		      err.msg);
	return net;
}

/*
 * The builder's credit-loop test agrees with the checker's: the cube
 * tree above closes a loop for both, the 2-D trees of group() for
 * neither.
 */
START_TEST(loop_test_agrees)
{
	struct ot_routing *r = NULL;
	struct ot_fabric *f = NULL;
	struct ot_mcast *mc = cube_loop_tree(&f, &r);
	struct ot_mtree_net *net = tree_net(r);
	struct ot_error err = { 0 };
	struct ot_mtree t;
	int64_t loop;
	unsigned int i;

	tree_of(mc, MLID, &t);
	loop = ot_mtree_loop(net, &t, 1, &err);
	ck_assert_msg(loop > 0, "the cube tree: loop %lld (%s)",
		      (long long)loop, err.msg);
	ot_mtree_free(&t);
	ot_mtree_net_free(net);
	ot_mcast_free(mc);
	ot_routing_free(r);
	ot_fabric_free(f);

	f = fabric(&r);
	net = tree_net(r);
	for (i = 0; i < 2; i++) {
		mc = group(f, i);
		tree_of(mc, MLID, &t);
		ck_assert_int_eq(ot_mtree_loop(net, &t, 1, &err), 0);
		ot_mtree_free(&t);
		ot_mcast_free(mc);
	}
	ot_mtree_net_free(net);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * A random spanning tree of the switches (random-order depth-first
 * search from a random switch), every CA a member, as MFT bits.
 */
static struct ot_mcast *random_tree(const struct ot_fabric *f,
				    struct ot_prng *rng)
{
	static const uint8_t mgid[16] = { 0xff, 0x12, 0xe0, 0x03 };
	struct ot_mcast *mc = ot_mcast_new(f, 4);
	struct ot_mcast_group *g = ot_mcast_add_group(mc, MLID, mgid, 0);
	int32_t *stack = calloc(f->nnodes, sizeof(*stack));
	bool *in = calloc(f->nnodes, sizeof(*in));
	uint32_t sp = 0, start;

	ck_assert(mc && g && stack && in);
	every_ca_joins(mc, g);
	do
		start = ot_prng_below(rng, f->nnodes);
	while (f->node[start].type != OT_NODE_SWITCH);
	in[start] = true;
	stack[sp++] = (int32_t)start;
	while (sp) {
		int32_t u = stack[sp - 1];
		uint32_t opts[64], k = 0;
		unsigned int p;

		for (p = 1; p <= f->node[u].nports; p++) {
			int32_t v = f->node[u].port[p].peer;

			if (v >= 0 && ot_is_switch(f, v) && !in[v] && k < 64)
				opts[k++] = p;
		}
		if (!k) {
			sp--;
			continue;
		}
		p = opts[ot_prng_below(rng, k)];
		in[f->node[u].port[p].peer] = true;
		stack[sp++] = f->node[u].port[p].peer;
		ck_assert(!ot_mcast_set(mc, u, MLID, p, true));
		ck_assert(!ot_mcast_set(mc, f->node[u].port[p].peer, MLID,
					f->node[u].port[p].peer_port, true));
	}
	free(stack);
	free(in);
	return mc;
}

/*
 * On random trees of the 3-cube and of a 3x3x3 FlatFly (ff-dor) the
 * builder's test and the checker's say the same, and both verdicts
 * occur (on the 3-cube; every random tree of the 3x3x3 loops).
 */
START_TEST(loop_test_agrees_random)
{
	struct ot_flatfly_params p = { .ndims = 3, .size = { 2, 2, 2 },
				       .width = { 2, 1, 1 }, .cas = 2,
				       .shuffle = true, .seed = 9 };
	struct ot_prng rng = { 77 };
	struct ot_error err = { 0 };
	struct ot_routing *r = NULL;
	struct ot_fabric *f;
	struct ot_mtree_net *net;
	unsigned int i, loops = 0, clean = 0;

	if (_i)
		p.size[0] = p.size[1] = p.size[2] = 3;
	f = ot_gen_flatfly(&p, &err);
	ck_assert(f && !ot_fabric_set_ca_lmc(f, 0, &err));
	ck_assert(!ot_engine_run(ot_engine_find("ff-dor"), f, &r, &err));
	net = tree_net(r);
	for (i = 0; i < 60; i++) {
		struct ot_mcast *mc = random_tree(f, &rng);
		struct ot_check_report *rep = NULL;
		const struct ot_check_counts *c = run(f, r, mc, &rep);
		struct ot_mtree t;
		int64_t loop;
		bool checker = c->mcast.credit_loops > c->credit_loops;

		ck_assert_uint_eq(c->mcast.looping, 0);
		tree_of(mc, MLID, &t);
		loop = ot_mtree_loop(net, &t, 1, &err);
		ck_assert_msg((loop > 0) == checker,
			      "tree %u: builder %lld, checker %u loops", i,
			      (long long)loop, c->mcast.credit_loops);
		loops += checker;
		clean += !checker;
		ot_mtree_free(&t);
		ot_check_report_free(rep);
		ot_mcast_free(mc);
	}
	/* random trees of the 3x3x3 all loop: the builder's do not */
	ck_assert_uint_gt(loops, 0);
	if (!_i)
		ck_assert_uint_gt(clean, 0);
	ot_mtree_net_free(net);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/* A fabric the tree tests build on, routed by engine (LMC 0). */
struct tree_case {
	const char *what, *engine;
	/* the fabric with ports and node order shuffled by seed */
	struct ot_fabric *(*make)(uint64_t seed, struct ot_error *err);
};

/* The damage of ff_damaged(): the cables dropped. */
static uint64_t drop_seed = 3;
static double drop_links = 0.1;

static struct ot_fabric *ff_damaged(uint64_t seed, struct ot_error *err)
{
	struct ot_flatfly_params p = { .ndims = 3, .size = { 4, 4, 3 },
				       .width = { 2, 1, 1 }, .cas = 2,
				       .drop_links = drop_links,
				       .drop_seed = drop_seed,
				       .shuffle = true, .seed = seed };

	return ot_gen_flatfly(&p, err);
}

static struct ot_fabric *ff_3cas(uint64_t seed, struct ot_error *err)
{
	struct ot_flatfly_params p = { .ndims = 3, .size = { 3, 3, 2 },
				       .width = { 2, 1, 1 }, .cas = 3,
				       .shuffle = true, .seed = seed };

	return ot_gen_flatfly(&p, err);
}

static struct ot_fabric *kns_2links(uint64_t seed, struct ot_error *err)
{
	struct ot_kns_params p = { .k = 4, .n = 2, .cas = 2, .links = 2,
				   .shuffle = true, .seed = seed };

	return ot_gen_kns(&p, err);
}

static struct ot_fabric *slimfly(uint64_t seed, struct ot_error *err)
{
	struct ot_slimfly_params p = { .q = 5, .cas = 2, .shuffle = true,
				       .seed = seed };

	return ot_gen_slimfly(&p, err);
}

static struct ot_fabric *dragonfly(uint64_t seed, struct ot_error *err)
{
	struct ot_dragonfly_params p = { .a = 4, .h = 2, .p = 2,
					 .arrangement = OT_DF_RANDOM,
					 .arrange_seed = 3, .shuffle = true,
					 .seed = seed };

	return ot_gen_dragonfly(&p, err);
}

static const struct tree_case cases[] = {
	{ "FlatFly 3x3x2, 3 CAs, parallel cables", "ff-dor", ff_3cas },
	{ "FlatFly 3x3x2, 3 CAs, parallel cables", "ff-twisted-dor",
	  ff_3cas },
	{ "FlatFly 4x4x3 damaged", "ff-dor", ff_damaged },
	{ "FlatFly 4x4x3 damaged", "ff-twisted-dor", ff_damaged },
	{ "FlatFly 4x4x3 damaged", "ff-mixed-dor", ff_damaged },
	{ "KNS 4x2, 2 cables a link", "hdor", kns_2links },
	{ "Slim Fly q=5", "sf-mms", slimfly },
	{ "Dragonfly a=4 h=2", "df-static", dragonfly },
};

static bool keep_guids;

/* The case's fabric routed by its engine; NULL where it refuses and may. */
static struct ot_fabric *try_case(const struct tree_case *tc, uint64_t seed,
				  struct ot_routing **r, bool may_refuse)
{
	struct ot_error err = { 0 };
	struct ot_fabric *f = tc->make(seed, &err);
	uint32_t i;

	ck_assert_msg(f, "%s: %s", tc->what, err.msg);
	for (i = 0; i < f->nnodes && !keep_guids; i++)
		f->node[i].guid = name_guid(f->node[i].desc);
	ck_assert(!ot_fabric_set_ca_lmc(f, 0, &err));
	if (ot_engine_run(ot_engine_find(tc->engine), f, r, &err)) {
		ck_assert_msg(may_refuse, "%s, %s: %s", tc->what, tc->engine,
			      err.msg);
		ot_fabric_free(f);
		return NULL;
	}
	return f;
}

static struct ot_fabric *make_case(const struct tree_case *tc, uint64_t seed,
				   struct ot_routing **r)
{
	return try_case(tc, seed, r, false);
}

/* Members: every k-th CA from the first, and the k-th switch itself. */
static uint32_t pick_members(const struct ot_fabric *f, unsigned int k,
			     struct ot_mcast_member *m)
{
	uint32_t i, nm = 0, ca = 0, sw = 0;

	for (i = 0; i < f->nnodes; i++) {
		if (f->node[i].type == OT_NODE_SWITCH) {
			if (sw++ == k) {
				m[nm].node = (int32_t)i;
				m[nm++].port = 0;
			}
			continue;
		}
		if (ca++ % k == 0) {
			m[nm].node = (int32_t)i;
			m[nm++].port = 1;
		}
	}
	return nm;
}

/* The tree built for m, applied to a group of its own. */
static struct ot_mcast *built_group(const struct ot_fabric *f,
				    struct ot_mtree_net *net,
				    const struct ot_mcast_member *m,
				    uint32_t nm, struct ot_mtree *t)
{
	static const uint8_t mgid[16] = { 0xff, 0x12, 0xe0, 0x04 };
	struct ot_mcast *mc = ot_mcast_new(f, 4);
	struct ot_mcast_group *g = ot_mcast_add_group(mc, MLID, mgid, 0);
	struct ot_error err = { 0 };
	uint32_t i;

	ck_assert(mc && g);
	for (i = 0; i < nm; i++)
		ck_assert(!ot_mcast_add_member(g, m[i].node, m[i].port));
	ck_assert_msg(!ot_mtree_build(net, 0, m, nm, 1, t, &err), "%s",
		      err.msg);
	ck_assert(!ot_mtree_apply(t, mc, MLID));
	return mc;
}

/* MFT bits that lead from a switch to a switch: two per tree cable. */
static uint32_t tree_cables(const struct ot_fabric *f,
			    const struct ot_mtree *t)
{
	uint32_t i, n = 0;

	for (i = 0; i < t->nentries; i++) {
		const struct ot_mcast_member *e = &t->entry[i];
		int32_t y = e->port ? f->node[e->node].port[e->port].peer : -1;

		n += y >= 0 && ot_is_switch(f, y);
	}
	return n;
}

/*
 * On every engine's fabric (parallel cables, several CAs a switch,
 * shuffled ports, damage), for groups of every CA, every third and every
 * seventh (with a switch member): every member reached from every other,
 * no switch reached twice (the checker's flood), a tree (as many cables
 * as switches less one), and no credit loop added to unicast's.
 */
START_TEST(tree_reaches_all)
{
	const struct tree_case *tc = &cases[_i];
	struct ot_routing *r = NULL;
	struct ot_fabric *f = make_case(tc, 7, &r);
	struct ot_mtree_net *net = tree_net(r);
	struct ot_mcast_member *m = calloc(f->nnodes + 1, sizeof(*m));
	static const unsigned int every[] = { 1, 3, 7 };
	unsigned int k;

	ck_assert(m);
	for (k = 0; k < 3; k++) {
		uint32_t nm = pick_members(f, every[k], m);
		struct ot_check_report *rep = NULL;
		const struct ot_check_counts *c;
		struct ot_mtree t;
		struct ot_mcast *mc = built_group(f, net, m, nm, &t);

		c = run(f, r, mc, &rep);
		ck_assert_msg(t.root >= 0, "%s, %s: no tree", tc->what,
			      tc->engine);
		ck_assert_uint_eq(c->mcast.members, nm);
		ck_assert_msg(c->mcast.missed == 0 && c->mcast.looping == 0,
			      "%s, %s, every %u: %llu missed, %u looping",
			      tc->what, tc->engine, every[k],
			      (unsigned long long)c->mcast.missed,
			      c->mcast.looping);
		ck_assert_uint_eq(tree_cables(f, &t), 2 * (t.nswitches - 1));
		ck_assert_msg(t.loop == 0 &&
			      c->mcast.credit_loops == c->credit_loops,
			      "%s, %s, every %u: loop %lld, checker %u with multicast, %u without",
			      tc->what, tc->engine, every[k], (long long)t.loop,
			      c->mcast.credit_loops, c->credit_loops);
		ot_check_report_free(rep);
		ot_mcast_free(mc);
		ot_mtree_free(&t);
	}
	free(m);
	ot_mtree_net_free(net);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * A tree by node names: "switch>peer" for a cable (whichever of parallel
 * ones), "switch>CA" for a member port, "switch>" for port 0; sorted,
 * joined.  Caller frees.
 */
static char *tree_text(const struct ot_fabric *f, const struct ot_mtree *t)
{
	char **line = calloc(t->nentries + 1, sizeof(*line)), *out;
	size_t len = 1;
	uint32_t i;

	ck_assert(line);
	for (i = 0; i < t->nentries; i++) {
		const struct ot_mcast_member *e = &t->entry[i];
		const char *to = e->port ?
			f->node[f->node[e->node].port[e->port].peer].desc : "";

		ck_assert(asprintf(&line[i], "%s>%s", f->node[e->node].desc,
				   to) > 0);
		len += strlen(line[i]) + 1;
	}
	qsort(line, t->nentries, sizeof(*line), cmp_str);
	out = calloc(len + 64, 1);
	ck_assert(out);
	snprintf(out, 64, "root %s: ", f->node[t->root].desc);
	for (i = 0; i < t->nentries; i++) {
		strcat(out, line[i]);
		strcat(out, " ");
		free(line[i]);
	}
	free(line);
	return out;
}

/* The members of pick_members(), by name, in f's node order. */
static uint32_t members_by_name(const struct ot_fabric *f,
				const struct ot_fabric *ref,
				const struct ot_mcast_member *m, uint32_t nm,
				struct ot_mcast_member *out)
{
	uint32_t i;

	for (i = 0; i < nm; i++) {
		out[i].node = node(f, ref->node[m[i].node].desc);
		out[i].port = m[i].port;
	}
	return nm;
}

/*
 * The same fabric with its ports and node order shuffled otherwise (and
 * so its GUIDs given in another order: GUIDs come from names here, the
 * routing's labels from the cabling) gives the same tree by names.
 */
START_TEST(tree_same_under_shuffles)
{
	const struct tree_case *tc = &cases[_i];
	struct ot_routing *r0 = NULL;
	struct ot_fabric *f0 = make_case(tc, 1, &r0);
	struct ot_mcast_member *m0 = calloc(f0->nnodes + 1, sizeof(*m0));
	struct ot_mcast_member *m = calloc(f0->nnodes + 1, sizeof(*m));
	struct ot_mtree_net *net = tree_net(r0);
	struct ot_error err = { 0 };
	struct ot_mtree t;
	uint32_t nm = pick_members(f0, 3, m0);
	char *want;
	uint64_t seed;
	size_t at;

	ck_assert(m0 && m);
	ck_assert(!ot_mtree_build(net, 0, m0, nm, 1, &t, &err));
	want = tree_text(f0, &t);
	ot_mtree_free(&t);
	ot_mtree_net_free(net);
	for (seed = 2; seed < 5; seed++) {
		struct ot_routing *r = NULL;
		struct ot_fabric *f = make_case(tc, seed, &r);
		char *got;

		net = tree_net(r);
		members_by_name(f, f0, m0, nm, m);
		ck_assert(!ot_mtree_build(net, 0, m, nm, 1, &t, &err));
		got = tree_text(f, &t);
		for (at = 0; got[at] && got[at] == want[at]; at++)
			;
		at = at > 40 ? at - 40 : 0;
		ck_assert_msg(!strcmp(got, want),
			      "%s, %s, shuffle %llu: ...%.120s\nnot ...%.120s",
			      tc->what, tc->engine, (unsigned long long)seed,
			      got + at, want + at);
		free(got);
		ot_mtree_free(&t);
		ot_mtree_net_free(net);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
	free(want);
	free(m0);
	free(m);
	ot_routing_free(r0);
	ot_fabric_free(f0);
}
END_TEST

/* The lines of text, sorted and joined again (malloc'ed). */
static char *sorted_lines(char *text)
{
	char **line = NULL, *p, *save = NULL, *out;
	size_t n = 0, len = strlen(text) + 1, i;

	for (p = strtok_r(text, "\n", &save); p;
	     p = strtok_r(NULL, "\n", &save)) {
		line = realloc(line, (n + 1) * sizeof(*line));
		ck_assert(line);
		line[n++] = p;
	}
	qsort(line, n, sizeof(*line), cmp_str);
	out = calloc(len + 1, 1);
	ck_assert(out);
	for (i = 0; i < n; i++) {
		strcat(out, line[i]);
		strcat(out, " ");
	}
	free(line);
	return out;
}

static int cmp_label(const void *a, const void *b, void *arg)
{
	const struct ot_routing *r = arg;

	return strverscmp(r->label[*(const int32_t *)a],
			  r->label[*(const int32_t *)b]);
}

/*
 * The same fabric with other GUIDs: the engine's coordinates (its labels)
 * may move, as the recognizers break the ties the topology leaves open by
 * GUID, and the tree with them.  In coordinates it stays the same: every
 * third switch (by label) a member, the tree by labels, for the GUIDs of
 * four salts.  Only where the coordinates are the cabling's up to a
 * symmetry: not on the damaged FlatFly (other GUIDs put the missing
 * cables at other coordinates), nor with df-static (its group numbers
 * and switch indices follow GUIDs beyond the symmetries).
 */
START_TEST(tree_same_in_coordinates)
{
	const struct tree_case *tc = &cases[_i];
	char *want = NULL;
	uint64_t salt;

	if (!strcmp(tc->engine, "df-static") || tc->make == ff_damaged)
		return;
	for (salt = 0; salt < 4; salt++) {
		struct ot_routing *r = NULL;
		struct ot_fabric *f = make_case(tc, 1, &r);
		struct ot_mcast_member *m = calloc(f->nnodes + 1, sizeof(*m));
		int32_t *sw = calloc(f->nnodes + 1, sizeof(*sw));
		struct ot_mtree_net *net;
		struct ot_error err = { 0 };
		struct ot_mtree t;
		uint32_t i, nsw = 0, nm = 0;
		char *got = NULL, *line;
		size_t len = 0;
		FILE *out;

		ot_routing_free(r);
		for (i = 0; i < f->nnodes; i++)
			f->node[i].guid = name_guid(f->node[i].desc) ^
					  salt * 0x9e3779b97f4a7c15ull;
		ck_assert(!ot_engine_run(ot_engine_find(tc->engine), f, &r,
					 &err));
		ck_assert(m && sw);
		for (i = 0; i < f->nnodes; i++)
			if (ot_is_switch(f, i) && r->label[i])
				sw[nsw++] = (int32_t)i;
		qsort_r(sw, nsw, sizeof(*sw), cmp_label, r);
		for (i = 0; i < nsw; i += 3) {
			m[nm].node = sw[i];
			m[nm++].port = 0;
		}
		net = tree_net(r);
		ck_assert(!ot_mtree_build(net, 0, m, nm, 1, &t, &err));
		out = open_memstream(&got, &len);
		ck_assert(out);
		for (i = 0; i < t.nentries; i++) {
			const struct ot_mcast_member *e = &t.entry[i];
			int32_t y = f->node[e->node].port[e->port].peer;

			/* entries sort by node: print, then sort the lines */
			fprintf(out, "%s>%s\n", r->label[e->node],
				e->port ? r->label[y] : "");
		}
		fclose(out);
		line = sorted_lines(got);
		if (!want)
			want = line;
		else
			ck_assert_msg(!strcmp(line, want),
				      "%s, %s, GUID salt %llu: another tree in coordinates",
				      tc->what, tc->engine,
				      (unsigned long long)salt);
		if (line != want)
			free(line);
		free(got);
		ot_mtree_free(&t);
		ot_mtree_net_free(net);
		free(m);
		free(sw);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
	free(want);
}
END_TEST

/*
 * A damaged FlatFly whose first-choice root closes a credit loop with
 * the engine's VLs, whatever the tree's shape: ff-twisted-dor (first-hop
 * and DOR VLs, detours) with 15 % and with 10 % of the cables missing.
 * The first drop seed (and member stride) where the best tree of that
 * root loops (the checker agrees: the MFTs add a credit loop; with the
 * generator's GUIDs, drop seed 128 at 15 %, 155 at 10 %; drop seeds the
 * engine refuses are passed over); without the master tree the builder
 * then takes another root, and with it the master's subtree, and neither
 * tree adds a loop (the checker agrees).  ff-dor was the 15 % case until
 * the FlatFly recognizer ranked switches by the cabling (best connected
 * first, model/refine.h): its first-choice root has closed no loop on
 * this fabric since, at 5, 10, 12, 15 or 20 %, drop seeds 1 to 1,000.
 */
START_TEST(tree_avoids_credit_loop)
{
	struct tree_case tc = { "FlatFly 4x4x3 damaged",
				"ff-twisted-dor", ff_damaged };
	unsigned int every;
	bool found = false;

	keep_guids = true;
	drop_links = _i ? 0.1 : 0.15;
	for (drop_seed = 1; drop_seed <= 1000 && !found; drop_seed++)
		for (every = 1; every <= 3 && !found; every++) {
			struct ot_routing *r = NULL;
			struct ot_fabric *f = try_case(&tc, 5, &r, true);
			struct ot_mcast_member *m;
			uint32_t nm;
			struct ot_mtree_net *net;
			struct ot_check_report *rep = NULL;
			const struct ot_check_counts *c;
			struct ot_mcast *mc;
			struct ot_mtree t;
			unsigned int k;

			if (!f)
				break; /* too damaged: the next drop seed */
			m = calloc(f->nnodes + 1, sizeof(*m));
			nm = pick_members(f, every, m);
			net = tree_net(r);
			ot_mtree_net_set_roots(net, 1, false);
			mc = built_group(f, net, m, nm, &t);
			if (t.loop) {
				found = true;
				c = run(f, r, mc, &rep);
				ck_assert_uint_eq(t.tries, 3);
				ck_assert_msg(c->mcast.credit_loops >
						      c->credit_loops,
					      "drop seed %llu: the builder sees a loop of %lld channels, the checker none",
					      (unsigned long long)drop_seed,
					      (long long)t.loop);
				ot_check_report_free(rep);
				for (k = 0; k < 2; k++) {
					/* other roots; then the master's */
					ot_mcast_free(mc);
					ot_mtree_free(&t);
					ot_mtree_net_free(net);
					net = tree_net(r);
					ot_mtree_net_set_roots(net,
							       OT_MTREE_TRIES,
							       k);
					mc = built_group(f, net, m, nm, &t);
					c = run(f, r, mc, &rep);
					ck_assert_msg(t.loop == 0 &&
						      (k || t.chosen > 0),
						      "drop seed %llu, master %u: loop %lld, root %u",
						      (unsigned long long)drop_seed,
						      k, (long long)t.loop,
						      t.chosen);
					ck_assert_uint_eq(c->mcast.missed, 0);
					ck_assert_uint_eq(c->mcast.credit_loops,
							  c->credit_loops);
					ot_check_report_free(rep);
				}
			}
			ot_mcast_free(mc);
			ot_mtree_free(&t);
			ot_mtree_net_free(net);
			free(m);
			ot_routing_free(r);
			ot_fabric_free(f);
		}
	drop_seed = 3;
	drop_links = 0.1;
	keep_guids = false;
	ck_assert_msg(found, "%s: no drop seed up to 1000 where the first root closes a loop",
		      tc.engine);
}
END_TEST

/* Members of a group: the CAs i with i % every == first. */
static uint32_t stride_members(const struct ot_fabric *f, unsigned int every,
			       unsigned int first, struct ot_mcast_member *m)
{
	uint32_t i, nm = 0, ca = 0;

	for (i = 0; i < f->nnodes; i++)
		if (f->node[i].type != OT_NODE_SWITCH &&
		    ca++ % every == first) {
			m[nm].node = (int32_t)i;
			m[nm++].port = 1;
		}
	return nm;
}

/*
 * Two groups (every third CA; every fifth from the second) of a damaged
 * FlatFly, their trees built for MLIDs 0xc000 and 0xc001 into one MFT
 * state: the checker counts both groups' dependencies together.  The
 * groups' own trees (no master tree), built each on its own (MLID 0:
 * checked against unicast alone), close a credit loop between them on
 * some drop seed (searched over 300, ff-twisted-dor, 10 % of the cables
 * missing, as e2e's damaged FlatFly; drop seed 2); built with their
 * MLIDs (the second checked against unicast and the first) they do not;
 * nor do the master tree's subtrees, even each on its own.
 */
START_TEST(trees_of_groups_together)
{
	struct tree_case tc = { "FlatFly 4x4x3 damaged", "ff-twisted-dor",
				ff_damaged };
	static const uint8_t mgid[2][16] = { { 0xff, 0x12, 0xe0, 0x05 },
					     { 0xff, 0x12, 0xe0, 0x06 } };
	bool found = false;

	keep_guids = true;
	for (drop_seed = 1; drop_seed <= 300 && !found; drop_seed++) {
		struct ot_routing *r = NULL;
		struct ot_fabric *f = make_case(&tc, 5, &r);
		struct ot_mcast_member *m = calloc(f->nnodes + 1, sizeof(*m));
		unsigned int mode;

		ck_assert(m);
		for (mode = 0; mode < 3; mode++) {
			struct ot_mtree_net *net = tree_net(r);
			struct ot_mcast *mc = ot_mcast_new(f, 4);
			struct ot_check_report *rep = NULL;
			const struct ot_check_counts *c;
			struct ot_error err = { 0 };
			unsigned int k;

			ck_assert(mc);
			/* modes 0, 1: the groups' own trees; 2: the master's */
			ot_mtree_net_set_roots(net, OT_MTREE_TRIES, mode == 2);
			for (k = 0; k < 2; k++) {
				struct ot_mcast_group *g = ot_mcast_add_group(
					mc, OT_MLID_BASE + k, mgid[k], 0);
				uint32_t nm = stride_members(f, k ? 5 : 3, k, m),
					 i;
				struct ot_mtree t;

				ck_assert(g);
				for (i = 0; i < nm; i++)
					ck_assert(!ot_mcast_add_member(
						g, m[i].node, m[i].port));
				ck_assert(!ot_mtree_build(net,
					mode == 1 ? OT_MLID_BASE + k : 0, m, nm,
					1, &t, &err));
				ck_assert_int_eq(t.loop, 0);
				ck_assert(!ot_mtree_apply(&t, mc,
							  OT_MLID_BASE + k));
				ot_mtree_free(&t);
			}
			c = run(f, r, mc, &rep);
			ck_assert_uint_eq(c->mcast.missed, 0);
			if (!mode && c->mcast.credit_loops > c->credit_loops)
				found = true;
			if (mode && found)
				ck_assert_msg(c->mcast.credit_loops ==
						      c->credit_loops,
					      "drop seed %llu: the trees of two groups close %u credit loops together",
					      (unsigned long long)drop_seed,
					      c->mcast.credit_loops);
			ot_check_report_free(rep);
			ot_mcast_free(mc);
			ot_mtree_net_free(net);
			if (!found)
				break;
		}
		free(m);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
	drop_seed = 3;
	keep_guids = false;
	ck_assert_msg(found, "no drop seed up to 300 where two groups' own trees close a loop together");
}
END_TEST

/*
 * Groups joined and left at random, as OpenSM rebuilds a group's tree at
 * every change: 40 builds over 6 MLIDs of a FlatFly 4x4x3 (damaged:
 * drop seed 2, 10 % of the cables missing; and intact), with ff-dor and
 * ff-twisted-dor, each MLID's latest tree kept in one MFT state.  After
 * every build the checker agrees with the builder: no credit loop added
 * while every tree that stays was built without one (whatever the trees
 * withdrawn before them held: a withdrawal gives back exactly its own
 * dependencies).  No tree keeps a loop: they are the master tree's
 * subtrees (with the groups' own trees first, 16 of the 40 kept one with
 * ff-dor damaged, 17 intact; 6 and 7 with ff-twisted-dor).
 */
START_TEST(trees_rebuilt_at_random)
{
	struct tree_case tc = { "FlatFly 4x4x3",
				_i % 2 ? "ff-twisted-dor" : "ff-dor",
				ff_damaged };
	struct ot_routing *r = NULL;
	struct ot_fabric *f;
	struct ot_mtree_net *net;
	struct ot_mcast *mc;
	struct ot_mcast_member *m;
	struct ot_check_report *rep = NULL;
	const struct ot_check_counts *c;
	struct ot_prng rng = { 11 };
	struct ot_error err = { 0 };
	int64_t loop[6] = { 0 };
	unsigned int b, k, errors = 0;
	bool any;
	uint32_t n;

	drop_seed = 2;
	if (_i >= 2)
		drop_links = 0; /* intact */
	f = make_case(&tc, 5, &r);
	drop_links = 0.1;
	drop_seed = 3;
	net = tree_net(r);
	mc = ot_mcast_new(f, 8);
	m = calloc(f->nnodes + 1, sizeof(*m));
	ck_assert(mc && m);
	for (k = 0; k < 6; k++) {
		uint8_t mgid[16] = { 0xff, 0x12, 0xe0, 0x10, (uint8_t)k };

		ck_assert(ot_mcast_add_group(mc, OT_MLID_BASE + k, mgid, 0));
	}
	for (b = 0; b < 40; b++) {
		uint32_t per = 1 + ot_prng_below(&rng, 400), nm = 0, i;
		uint16_t mlid = OT_MLID_BASE + ot_prng_below(&rng, 6);
		struct ot_mcast_group *g = &mc->group[mlid - OT_MLID_BASE];
		struct ot_mtree t;
		unsigned int p;

		for (i = 0; i < f->nnodes; i++)
			if (f->node[i].type != OT_NODE_SWITCH &&
			    ot_prng_below(&rng, 1000) < per) {
				m[nm].node = (int32_t)i;
				m[nm++].port = 1;
			}
		ck_assert(!ot_mtree_build(net, mlid, m, nm, 1, &t, &err));
		for (n = 0; n < f->nnodes; n++)
			for (p = 0; p <= f->node[n].nports; p++)
				ot_mcast_set(mc, (int32_t)n, mlid, p, false);
		ck_assert(!ot_mtree_apply(&t, mc, mlid));
		g->nmembers = 0;
		for (i = 0; i < nm; i++)
			ck_assert(!ot_mcast_add_member(g, m[i].node,
						       m[i].port));
		loop[mlid - OT_MLID_BASE] = t.loop;
		errors += t.loop > 0;
		for (k = 0, any = false; k < 6; k++)
			any |= loop[k] > 0;
		c = run(f, r, mc, &rep);
		ck_assert_uint_eq(c->mcast.missed, 0);
		ck_assert_uint_eq(c->mcast.looping, 0);
		ck_assert_msg(any || c->mcast.credit_loops == c->credit_loops,
			      "%s, build %u: the trees that stayed close %u credit loops together",
			      tc.engine, b, c->mcast.credit_loops);
		ot_check_report_free(rep);
		rep = NULL;
		ot_mtree_free(&t);
	}
	ck_assert_msg(!errors, "%s, %s: %u of 40 trees kept a loop",
		      tc.engine, _i >= 2 ? "intact" : "damaged", errors);
	free(m);
	ot_mcast_free(mc);
	ot_mtree_net_free(net);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/* One member port: no tree; all on one switch: that switch alone. */
START_TEST(tree_small_groups)
{
	struct ot_routing *r = NULL;
	struct ot_fabric *f = fabric(&r);
	struct ot_mtree_net *net = tree_net(r);
	struct ot_mcast_member m[3];
	struct ot_error err = { 0 };
	struct ot_mtree t;
	int32_t a = node(f, "FF[1,1]/0"), b = node(f, "FF[1,1]/1");

	m[0].node = a;
	m[0].port = 1;
	m[1] = m[0];
	ck_assert(!ot_mtree_build(net, 0, m, 2, 1, &t, &err));
	ck_assert_int_eq(t.root, -1);
	ck_assert_uint_eq(t.nentries, 0);
	ot_mtree_free(&t);
	m[1].node = b;
	m[1].port = 1;
	m[2].node = f->node[a].port[1].peer;
	m[2].port = 0;
	ck_assert(!ot_mtree_build(net, 0, m, 3, 1, &t, &err));
	ck_assert_int_eq(t.root, f->node[a].port[1].peer);
	ck_assert_uint_eq(t.nswitches, 1);
	ck_assert_uint_eq(t.nentries, 3); /* two CA ports and port 0 */
	ck_assert_int_eq(t.loop, 0);
	ot_mtree_free(&t);
	ot_mtree_net_free(net);
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
	tc = tcase_create("tree");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, loop_test_agrees);
	tcase_add_loop_test(tc, loop_test_agrees_random, 0, 2);
	tcase_add_loop_test(tc, tree_reaches_all, 0,
			    sizeof(cases) / sizeof(cases[0]));
	tcase_add_loop_test(tc, tree_same_under_shuffles, 0,
			    sizeof(cases) / sizeof(cases[0]));
	tcase_add_loop_test(tc, tree_same_in_coordinates, 0,
			    sizeof(cases) / sizeof(cases[0]));
	tcase_add_loop_test(tc, tree_avoids_credit_loop, 0, 2);
	tcase_add_test(tc, tree_small_groups);
	tcase_add_test(tc, trees_of_groups_together);
	tcase_add_loop_test(tc, trees_rebuilt_at_random, 0, 4);
	suite_add_tcase(s, tc);
	return s;
}

OT_UNIT_MAIN(mcast_suite)
