// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The Dragonfly generator, recognizer and df-static: groups found as
 * built (names carry [group,switch]) on every arrangement, shuffled,
 * with parallel group pairs and damage; other topologies refused; the
 * engine's tables held to its promise by the checker, and the checker
 * shown to catch a broken VL rule.
 */
#include <string.h>

#include "check/check.h"
#include "gen/gen.h"
#include "model/routing.h"
#include "route/engine.h"
#include "topo/dragonfly.h"
#include "unit.h"

static struct ot_fabric *dragonfly(unsigned int a, unsigned int h,
				   unsigned int p, unsigned int g,
				   enum ot_df_arrangement arr, bool shuffle,
				   double ds, double dl, uint64_t seed)
{
	struct ot_dragonfly_params prm = {
		.a = a, .h = h, .p = p, .g = g, .arrangement = arr,
		.arrange_seed = seed, .drop_switches = ds, .drop_links = dl,
		.drop_seed = seed, .shuffle = shuffle, .seed = seed + 1,
	};
	struct ot_error err = { 0 };
	struct ot_fabric *f = ot_gen_dragonfly(&prm, &err);

	ck_assert_msg(f, "%s", err.msg);
	ck_assert_msg(!ot_fabric_set_ca_lmc(f, 0, &err), "%s", err.msg);
	return f;
}

/* Recognized groups are the built ones, one to one; classes agree. */
static void groups_as_built(const struct ot_fabric *f, unsigned int g)
{
	struct ot_error err = { 0 };
	struct ot_df *df;
	int32_t fwd[256], rev[256];
	uint32_t n, c[2], pc[2];
	unsigned int p;

	ck_assert_msg(!ot_df_recognize(f, &df, &err), "%s", err.msg);
	memset(fwd, -1, sizeof(fwd));
	memset(rev, -1, sizeof(rev));
	ck_assert_uint_le(g, 256);
	for (n = 0; n < f->nnodes; n++) {
		int32_t G = df->group[n];

		if (!ot_is_switch(f, n))
			continue;
		ck_assert_uint_eq(ot_gen_name_coords(f->node[n].desc, c, 2), 2);
		ck_assert_msg(G >= 0 && (fwd[c[0]] < 0 || fwd[c[0]] == G) &&
				      (rev[G] < 0 || rev[G] == (int32_t)c[0]),
			      "switch %s in group %d", f->node[n].desc, G);
		fwd[c[0]] = G;
		rev[G] = c[0];
		for (p = 1; p <= f->node[n].nports; p++) {
			int32_t x = f->node[n].port[p].peer;

			if (x < 0 || !ot_is_switch(f, x))
				continue;
			ot_gen_name_coords(f->node[x].desc, pc, 2);
			ck_assert_int_eq(ot_df_port_class(df, n, p),
					 pc[0] == c[0] ? OT_DF_PORT_LOCAL :
							 OT_DF_PORT_GLOBAL);
		}
	}
	ot_df_free(df);
}

/* df-static's tables: promise kept, no credit loop, every pair reached. */
static const struct ot_check_counts *
route_and_check(const struct ot_fabric *f, struct ot_routing **r,
		struct ot_check_report **rep)
{
	struct ot_check_opts opts = { 0 };
	struct ot_error err = { 0 };

	ck_assert_msg(!ot_engine_run(ot_engine_find("df-static"), f, r, &err),
		      "%s", err.msg);
	opts.promiser = *r;
	ck_assert_int_eq(ot_check_run(f, *r, &opts, rep, &err), 0);
	return ot_check_counts(*rep);
}

static void intact_ok(struct ot_fabric *f)
{
	struct ot_routing *r;
	struct ot_check_report *rep;
	const struct ot_check_counts *k = route_and_check(f, &r, &rep);

	ck_assert_msg(ot_check_ok(rep), "violations %llu unreachable %llu loops %u",
		      (unsigned long long)k->violations,
		      (unsigned long long)k->unreachable, k->credit_loops);
	ck_assert_uint_eq(k->reached, k->pairs);
	ck_assert_uint_eq(k->vls_used, 0x3); /* both VLs, no escape */
	ck_assert_uint_le(k->max_hops, 5);   /* CA, 3 switch hops, CA */
	ck_assert_uint_eq(r->promise.max_switch_hops, 3);
	ck_assert_uint_eq(r->nvls, 2);
	ot_check_report_free(rep);
	ot_routing_free(r);
}

START_TEST(arrangements)
{
	enum ot_df_arrangement arr;
	unsigned int shuffle;

	for (arr = OT_DF_CONSECUTIVE; arr <= OT_DF_RANDOM; arr++)
		for (shuffle = 0; shuffle < 2; shuffle++) {
			struct ot_fabric *f = dragonfly(4, 2, 2, 0, arr,
							shuffle, 0, 0, 7);

			groups_as_built(f, 9);
			intact_ok(f);
			ot_fabric_free(f);
		}
}
END_TEST

/* Fewer groups than a*h+1: several global cables per group pair. */
START_TEST(parallel_group_pairs)
{
	static const unsigned int shape[][4] = {
		{ 4, 2, 3, 2 }, { 4, 2, 5, 1 }, { 6, 3, 7, 1 }, { 8, 4, 9, 1 },
	};
	enum ot_df_arrangement arr;
	unsigned int i;

	for (i = 0; i < sizeof(shape) / sizeof(shape[0]); i++)
		for (arr = OT_DF_CONSECUTIVE; arr <= OT_DF_RANDOM; arr++) {
			struct ot_fabric *f =
				dragonfly(shape[i][0], shape[i][1], shape[i][3],
					  shape[i][2], arr, true, 0, 0, 3 + i);

			groups_as_built(f, shape[i][2]);
			intact_ok(f);
			ot_fabric_free(f);
		}
}
END_TEST

/* Missing cables and switches: groups as built, every pair still reached. */
START_TEST(damaged)
{
	uint64_t seed;

	for (seed = 1; seed <= 6; seed++) {
		struct ot_fabric *f = dragonfly(8, 2, 1, 0, OT_DF_RANDOM, true,
						seed % 2 ? 0.2 : 0, 0.05, seed);
		struct ot_routing *r;
		struct ot_check_report *rep;
		const struct ot_check_counts *k;

		groups_as_built(f, 17);
		k = route_and_check(f, &r, &rep);
		ck_assert_msg(ot_check_ok(rep), "seed %llu: violations %llu unreachable %llu loops %u",
			      (unsigned long long)seed,
			      (unsigned long long)k->violations,
			      (unsigned long long)k->unreachable,
			      k->credit_loops);
		ck_assert_uint_eq(k->reached, k->pairs);
		ck_assert_uint_le(k->vls_used, 0x7);
		ot_check_report_free(rep);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
}
END_TEST

/* A missing global cable sends that group's CAs to the escape layer. */
START_TEST(escape_layer)
{
	struct ot_fabric *f = dragonfly(4, 2, 2, 0, OT_DF_CONSECUTIVE, false,
					0, 0, 1);
	struct ot_error err = { 0 };
	struct ot_routing *r;
	struct ot_check_report *rep;
	const struct ot_check_counts *k;
	uint32_t n;
	unsigned int p;

	/* cut DF[0,0]'s first global cable (its highest port, unshuffled) */
	for (n = 0; n < f->nnodes; n++)
		if (!strcmp(f->node[n].desc, "DF[0,0]"))
			break;
	p = f->node[n].nports;
	f->node[f->node[n].port[p].peer].port[f->node[n].port[p].peer_port]
		.peer = -1;
	f->node[n].port[p].peer = -1;
	ck_assert(!ot_fabric_index(f, &err));
	k = route_and_check(f, &r, &rep);
	ck_assert(ot_check_ok(rep));
	ck_assert_uint_eq(r->nvls, 3);
	ck_assert(r->path_sl);
	ck_assert_uint_eq(k->vls_used, 0x7);
	ot_check_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/* Cuts the cable on the highest cabled port of switch `name`. */
static void cut_last_cable(struct ot_fabric *f, const char *name)
{
	struct ot_error err = { 0 };
	uint32_t n;
	unsigned int p;

	for (n = 0; n < f->nnodes; n++)
		if (!strcmp(f->node[n].desc, name))
			break;
	ck_assert_uint_lt(n, f->nnodes);
	for (p = f->node[n].nports; p > 0; p--)
		if (f->node[n].port[p].peer >= 0)
			break;
	f->node[f->node[n].port[p].peer].port[f->node[n].port[p].peer_port]
		.peer = -1;
	f->node[n].port[p].peer = -1;
	ck_assert(!ot_fabric_index(f, &err));
}

/*
 * A group pair without its global cable: local-global-global-local
 * through a third group on the same 2 VLs (no escape) when the cabling
 * offers it, four switch hops promised and seen; always checked clean.
 */
START_TEST(detour_through_third_group)
{
	unsigned int detours = 0;
	uint64_t seed;

	for (seed = 1; seed <= 8; seed++) {
		struct ot_fabric *f = dragonfly(4, 2, 1, 0, OT_DF_RANDOM,
						false, 0, 0, seed);
		struct ot_routing *r;
		struct ot_check_report *rep;
		const struct ot_check_counts *k;

		cut_last_cable(f, "DF[0,0]"); /* a global port, unshuffled */
		k = route_and_check(f, &r, &rep);
		ck_assert_msg(ot_check_ok(rep), "seed %llu",
			      (unsigned long long)seed);
		if (r->nvls == 2) {
			ck_assert_uint_eq(r->promise.max_switch_hops, 4);
			ck_assert_uint_gt(k->hops[6], 0); /* CA, 4 hops, CA */
			detours++;
		}
		ot_check_report_free(rep);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
	ck_assert_uint_gt(detours, 0);
}
END_TEST

/* The checker catches the VL rule broken: VL 0 after a global cable. */
START_TEST(broken_vl_rule_caught)
{
	struct ot_fabric *f = dragonfly(4, 2, 1, 0, OT_DF_PALMTREE, true, 0,
					0, 2);
	struct ot_routing *r;
	struct ot_check_report *rep;
	const struct ot_check_counts *k;
	uint32_t n;

	route_and_check(f, &r, &rep);
	ot_check_report_free(rep);
	for (n = 0; n < f->nnodes; n++)
		if (r->sl2vl[n])
			memset(r->sl2vl[n], 0,
			       (size_t)(f->node[n].nports + 1) *
				       (f->node[n].nports + 1) * OT_NUM_SLS);
	{
		struct ot_check_opts opts = { .promiser = r };
		struct ot_error err = { 0 };

		ck_assert_int_eq(ot_check_run(f, r, &opts, &rep, &err), 0);
	}
	k = ot_check_counts(rep);
	ck_assert(!ot_check_ok(rep));
	ck_assert_uint_gt(k->violations, 0);
	ot_check_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

static void refused(struct ot_fabric *f)
{
	struct ot_error err = { 0 };
	struct ot_routing *r;

	ck_assert_msg(f, "generator failed");
	ck_assert(!ot_fabric_set_ca_lmc(f, 0, &err));
	ck_assert_int_eq(ot_engine_run(ot_engine_find("df-static"), f, &r,
				       &err), -1);
	ck_assert_int_eq(err.cls, OT_ERR_TOPOLOGY);
	ck_assert_ptr_nonnull(strstr(err.msg, "dragonfly: switch \""));
	ot_fabric_free(f);
}

START_TEST(refuse_others)
{
	struct ot_flatfly_params ff = { .ndims = 2, .size = { 4, 4 },
					.cas = 1, .shuffle = true, .seed = 1 };
	struct ot_flatfly_params ff3 = { .ndims = 3, .size = { 3, 3, 3 },
					 .cas = 1 };
	struct ot_flatfly_params hc = { .ndims = 4,
					.size = { 2, 2, 2, 2 }, .cas = 1 };
	struct ot_kns_params kns = { .k = 3, .n = 2, .cas = 1, .links = 1 };
	struct ot_fattree_params ft = { .levels = 2, .cas = 2,
					.down = { 0, 0, 4 }, .up = { 0, 0, 2 } };
	struct ot_error err = { 0 };

	refused(ot_gen_flatfly(&ff, &err));
	refused(ot_gen_flatfly(&ff3, &err));
	refused(ot_gen_flatfly(&hc, &err));
	refused(ot_gen_kns(&kns, &err));
	refused(ot_gen_fattree(&ft, &err));
}
END_TEST

/* A group far from a full graph is refused, the switch named. */
START_TEST(refuse_sparse_group)
{
	struct ot_fabric *f = dragonfly(6, 2, 1, 0, OT_DF_CONSECUTIVE, false,
					0, 0.45, 9);
	struct ot_error err = { 0 };
	struct ot_routing *r;

	ck_assert_int_eq(ot_engine_run(ot_engine_find("df-static"), f, &r,
				       &err), -1);
	ck_assert_int_eq(err.cls, OT_ERR_TOPOLOGY);
	ck_assert_ptr_nonnull(strstr(err.msg, "switch \"DF["));
	ot_fabric_free(f);
}
END_TEST

/* f0 x f1 FlatFly groups (f1 = 0: full graphs of f0), width cables per
 * local switch pair, shuffled. */
static struct ot_fabric *flat_dragonfly(unsigned int f0, unsigned int f1,
					unsigned int h, unsigned int p,
					unsigned int g,
					enum ot_df_arrangement arr,
					uint64_t seed, unsigned int lmc,
					unsigned int width)
{
	struct ot_dragonfly_params prm = {
		.a = f1 ? f0 * f1 : f0, .h = h, .p = p, .g = g,
		.flat = { f1 ? f0 : 0, f1 }, .width = width,
		.arrangement = arr, .arrange_seed = seed, .shuffle = true,
		.seed = seed + 1,
	};
	struct ot_error err = { 0 };
	struct ot_fabric *f = ot_gen_dragonfly(&prm, &err);

	ck_assert_msg(f, "%s", err.msg);
	ck_assert_msg(!ot_fabric_set_ca_lmc(f, (uint8_t)lmc, &err), "%s",
		      err.msg);
	return f;
}

/*
 * FlatFly groups found as built: groups one to one, every group 2-D with
 * the built sizes, and the built dimension of every local cable (which of
 * x, y its ends' names differ in) maps to one recognized dimension per
 * group, the same for all its cables; global cables between groups.
 */
static void flat_as_built(const struct ot_fabric *f, unsigned int f0,
			  unsigned int f1, bool intact)
{
	struct ot_error err = { 0 };
	struct ot_df *df;
	int32_t fwd[256], rev[256], dmap[256][2];
	uint32_t n, c[3], pc[3];
	unsigned int p;

	ck_assert_msg(!ot_df_recognize(f, &df, &err), "%s", err.msg);
	memset(fwd, -1, sizeof(fwd));
	memset(rev, -1, sizeof(rev));
	memset(dmap, -1, sizeof(dmap));
	for (n = 0; n < f->nnodes; n++) {
		int32_t G = df->group[n];

		if (!ot_is_switch(f, n))
			continue;
		ck_assert_uint_eq(ot_gen_name_coords(f->node[n].desc, c, 3), 3);
		ck_assert_msg(G >= 0 && (fwd[c[0]] < 0 || fwd[c[0]] == G) &&
				      (rev[G] < 0 || rev[G] == (int32_t)c[0]),
			      "switch %s in group %d", f->node[n].desc, G);
		fwd[c[0]] = G;
		rev[G] = c[0];
		ck_assert_uint_eq(df->gdims[G], 2);
		for (p = 1; p <= f->node[n].nports; p++) {
			int32_t x = f->node[n].port[p].peer;
			unsigned int bd, rd;

			if (x < 0 || !ot_is_switch(f, x))
				continue;
			ot_gen_name_coords(f->node[x].desc, pc, 3);
			if (pc[0] != c[0]) {
				ck_assert_int_eq(ot_df_port_class(df, n, p),
						 OT_DF_PORT_GLOBAL);
				continue;
			}
			ck_assert_int_eq(ot_df_port_class(df, n, p),
					 OT_DF_PORT_LOCAL);
			bd = pc[1] == c[1]; /* built: 0 x differs, 1 y */
			rd = ot_df_port_dim(df, n, p);
			ck_assert_msg(dmap[G][bd] < 0 || dmap[G][bd] == (int)rd,
				      "%s port %u: dim %u, %d before",
				      f->node[n].desc, p, rd, dmap[G][bd]);
			dmap[G][bd] = rd;
			if (intact) /* lines of lost switches may be shorter */
				ck_assert_uint_eq(df->gsize[2 * G + rd],
						  bd ? f1 : f0);
		}
	}
	ot_df_free(df);
}

/* FlatFly groups: every pair, 2 VLs, one SL, hops within the promise. */
static void flat_ok(struct ot_fabric *f, unsigned int max_switch_hops,
		    bool seen)
{
	struct ot_routing *r;
	struct ot_check_report *rep;
	const struct ot_check_counts *k = route_and_check(f, &r, &rep);

	ck_assert_msg(ot_check_ok(rep), "violations %llu unreachable %llu loops %u",
		      (unsigned long long)k->violations,
		      (unsigned long long)k->unreachable, k->credit_loops);
	ck_assert_uint_eq(k->reached, k->pairs);
	ck_assert_uint_eq(k->vls_used, 0x3);
	ck_assert_uint_eq(r->nvls, 2);
	ck_assert_ptr_null(r->path_sl); /* SL 0 alone */
	ck_assert_uint_eq(r->promise.max_switch_hops, max_switch_hops);
	ck_assert_uint_le(k->max_hops, max_switch_hops + 2);
	if (seen) /* the longest path the promise allows is taken */
		ck_assert_uint_gt(k->hops[max_switch_hops + 2], 0);
	ot_check_report_free(rep);
	ot_routing_free(r);
}

START_TEST(flat_groups)
{
	static const unsigned int shape[][5] = {
		/* f0, f1, h, cas, groups (0: a*h+1) */
		{ 3, 3, 1, 2, 0 }, { 3, 3, 2, 3, 0 }, { 4, 4, 2, 2, 17 },
		{ 3, 6, 2, 2, 19 }, { 4, 3, 2, 1, 0 }, { 3, 4, 2, 2, 13 },
	};
	enum ot_df_arrangement arr;
	unsigned int i;

	for (i = 0; i < sizeof(shape) / sizeof(shape[0]); i++)
		for (arr = OT_DF_CONSECUTIVE; arr <= OT_DF_RANDOM; arr++) {
			struct ot_fabric *f = flat_dragonfly(
				shape[i][0], shape[i][1], shape[i][2],
				shape[i][3], shape[i][4], arr, 5 + i, 0,
				1 + (i + arr) % 2); /* parallel local cables */

			flat_as_built(f, shape[i][0], shape[i][1], true);
			flat_ok(f, 5, true); /* 2 local, 1 global, 2 local */
			ot_fabric_free(f);
		}
}
END_TEST

/* Full-graph groups with 2 or 3 cables per local switch pair. */
START_TEST(parallel_local_cables)
{
	enum ot_df_arrangement arr;

	for (arr = OT_DF_CONSECUTIVE; arr <= OT_DF_RANDOM; arr++) {
		struct ot_fabric *f = flat_dragonfly(4, 0, 2, 2, 0, arr, 21,
						     0, 2 + arr % 2);

		groups_as_built(f, 9);
		intact_ok(f);
		ot_fabric_free(f);
	}
}
END_TEST

/*
 * FlatFly groups with cables, or cables and switches, missing: groups and
 * dimensions as built, every pair reached, clean (the escape layer takes
 * what the rule cannot reach).
 */
START_TEST(flat_damaged)
{
	static const double drop[][2] = { { 0.05, 0 }, { 0.02, 0.1 } };
	uint64_t seed;
	unsigned int i;

	for (seed = 1; seed <= 3; seed++)
		for (i = 0; i < 2; i++) {
			struct ot_dragonfly_params prm = {
				.a = 16, .h = 2, .p = 1, .flat = { 4, 4 },
				.arrangement = OT_DF_RANDOM,
				.arrange_seed = seed, .drop_links = drop[i][0],
				.drop_switches = drop[i][1], .drop_seed = seed,
				.shuffle = true, .seed = seed,
			};
			struct ot_error err = { 0 };
			struct ot_fabric *f = ot_gen_dragonfly(&prm, &err);
			struct ot_routing *r;
			struct ot_check_report *rep;
			const struct ot_check_counts *k;

			ck_assert_msg(f, "%s", err.msg);
			ck_assert(!ot_fabric_set_ca_lmc(f, 0, &err));
			flat_as_built(f, 4, 4, false);
			k = route_and_check(f, &r, &rep);
			ck_assert_msg(ot_check_ok(rep), "seed %llu drop %u",
				      (unsigned long long)seed, i);
			ck_assert_uint_eq(k->reached, k->pairs);
			ot_check_report_free(rep);
			ot_routing_free(r);
			ot_fabric_free(f);
		}
}
END_TEST

/*
 * Valiant on LMC offsets above 0, full-graph groups: every LID of every
 * pair reached, no credit loop, the rule held (offset 0 and directly
 * routed LIDs at most one global hop, the Valiant layers two, up then
 * down in their order of groups, each on its SL and VL), five switch
 * hops promised and seen, the Valiant SLs (1..3) and their VLs used.
 */
static void updown_ok(struct ot_fabric *f)
{
	struct ot_routing *r;
	struct ot_check_report *rep;
	const struct ot_check_counts *k = route_and_check(f, &r, &rep);

	ck_assert_msg(ot_check_ok(rep), "violations %llu unreachable %llu loops %u",
		      (unsigned long long)k->violations,
		      (unsigned long long)k->unreachable, k->credit_loops);
	ck_assert_uint_eq(k->reached, k->pairs);
	ck_assert_ptr_nonnull(r->path_sl);
	ck_assert_uint_le(r->nvls, 4);
	ck_assert_uint_eq(k->vls_used & ~((1u << r->nvls) - 1), 0);
	ck_assert_uint_gt(k->vls_used & 0xc, 0); /* a layer's own VL */
	ck_assert_uint_eq(r->promise.sls & ~0xfu, 0);
	ck_assert_uint_gt(r->promise.sls & 0xe, 0);
	ck_assert_uint_eq(r->promise.max_switch_hops, 5);
	ck_assert_uint_gt(k->hops[7], 0); /* CA, 5 switch hops, CA */
	ot_check_report_free(rep);
	ot_routing_free(r);
}

START_TEST(valiant_offsets)
{
	unsigned int lmc;

	for (lmc = 1; lmc <= 2; lmc++) {
		struct ot_fabric *f = dragonfly(4, 2, 2, 0, OT_DF_RANDOM, true,
						0, 0, 11);
		struct ot_error err = { 0 };

		ck_assert(!ot_fabric_set_ca_lmc(f, (uint8_t)lmc, &err));
		updown_ok(f);
		ot_fabric_free(f);
		f = dragonfly(6, 2, 3, 7, OT_DF_CONSECUTIVE, true, 0, 0, 12);
		ck_assert(!ot_fabric_set_ca_lmc(f, (uint8_t)lmc, &err));
		updown_ok(f);
		ot_fabric_free(f);
		f = flat_dragonfly(5, 0, 2, 2, 0, OT_DF_RANDOM, 14, lmc, 2);
		updown_ok(f); /* 2 parallel cables per local pair */
		ot_fabric_free(f);
		/* FlatFly groups: the restricted layer on 2 VLs, 1 SL */
		f = flat_dragonfly(3, 3, 2, 2, 0, OT_DF_PALMTREE, 13, lmc, 2);
		flat_ok(f, 6, false); /* 2 local, 2 global, 2 local */
		ot_fabric_free(f);
	}
}
END_TEST

/*
 * The checker catches a Valiant layer's VL rule broken: the second
 * global hop on VL 0 (every layer SL mapped to VL 0 where the input is
 * local).
 */
START_TEST(broken_valiant_vl_caught)
{
	struct ot_fabric *f = dragonfly(4, 2, 2, 0, OT_DF_CONSECUTIVE, true, 0,
					0, 6);
	struct ot_check_opts opts = { 0 };
	struct ot_error err = { 0 };
	struct ot_check_report *rep;
	struct ot_routing *r;
	struct ot_df *df;
	unsigned int in, o, sl, np, changed = 0;
	uint32_t n;

	ck_assert(!ot_fabric_set_ca_lmc(f, 1, &err));
	ck_assert(!ot_df_recognize(f, &df, &err));
	route_and_check(f, &r, &rep);
	ot_check_report_free(rep);
	for (n = 0; n < f->nnodes; n++) {
		np = f->node[n].nports;
		for (in = 0; ot_is_switch(f, n) && in <= np; in++)
			for (o = 1; o <= np; o++)
				for (sl = 1; sl <= 3; sl++) {
					uint8_t *v = &r->sl2vl[n][ot_sl2vl_index(np, in, o, sl)];

					if (ot_df_port_class(df, n, in) != OT_DF_PORT_GLOBAL &&
					    *v) {
						*v = 0;
						changed++;
					}
				}
	}
	ck_assert_uint_gt(changed, 0);
	opts.promiser = r;
	ck_assert_int_eq(ot_check_run(f, r, &opts, &rep, &err), 0);
	ck_assert(!ot_check_ok(rep));
	ck_assert_uint_gt(ot_check_counts(rep)->violations, 0);
	ot_check_report_free(rep);
	ot_routing_free(r);
	ot_df_free(df);
	ot_fabric_free(f);
}
END_TEST

/*
 * Valiant with damage: detours (whose landing switches must route their
 * destinations directly: no Valiant layer there), the escape layer
 * beside the layers; every LID of every pair reached, clean.
 */
START_TEST(valiant_damaged)
{
	uint64_t seed;
	unsigned int lmc, escaped = 0;

	for (seed = 1; seed <= 4; seed++)
		for (lmc = 1; lmc <= 2; lmc++) {
			struct ot_fabric *f = dragonfly(4, 2, 2, 0,
							OT_DF_RANDOM, true, 0,
							0.05 * lmc, seed);
			struct ot_error err = { 0 };
			struct ot_routing *r;
			struct ot_check_report *rep;
			const struct ot_check_counts *k;

			ck_assert(!ot_fabric_set_ca_lmc(f, (uint8_t)lmc, &err));
			k = route_and_check(f, &r, &rep);
			ck_assert_msg(ot_check_ok(rep), "seed %llu lmc %u: violations %llu loops %u",
				      (unsigned long long)seed, lmc,
				      (unsigned long long)k->violations,
				      k->credit_loops);
			ck_assert_uint_eq(k->reached, k->pairs);
			escaped += r->nvls == 5;
			ot_check_report_free(rep);
			ot_routing_free(r);
			ot_fabric_free(f);
		}
	ck_assert_uint_gt(escaped, 0); /* the escape layer's VL 4 taken */
}
END_TEST

/* Offset 0 keeps the static route: the same LFT entries as with LMC 0. */
START_TEST(valiant_keeps_offset_zero)
{
	struct ot_fabric *f0 = dragonfly(4, 2, 2, 0, OT_DF_PALMTREE, true, 0,
					 0, 4);
	struct ot_fabric *f1 = dragonfly(4, 2, 2, 0, OT_DF_PALMTREE, true, 0,
					 0, 4);
	struct ot_routing *r0, *r1;
	struct ot_error err = { 0 };
	unsigned int twice = 0;
	uint32_t n, m;

	ck_assert(!ot_fabric_set_ca_lmc(f1, 1, &err));
	ck_assert(!ot_engine_run(ot_engine_find("df-static"), f0, &r0, &err));
	ck_assert(!ot_engine_run(ot_engine_find("df-static"), f1, &r1, &err));
	for (n = 0; n < f0->nnodes; n++) {
		const struct ot_port *p0, *p1;

		if (ot_is_switch(f0, n))
			continue;
		p0 = &f0->node[n].port[1];
		p1 = &f1->node[n].port[1];
		for (m = 0; m < f0->nnodes; m++) {
			if (!ot_is_switch(f0, m))
				continue;
			ck_assert_uint_eq(r0->lft[m][p0->lid],
					  r1->lft[m][p1->lid]);
			twice += r1->lft[m][p1->lid] != r1->lft[m][p1->lid + 1];
		}
	}
	ck_assert_uint_gt(twice, 0); /* offset 1 goes elsewhere somewhere */
	ot_routing_free(r0);
	ot_routing_free(r1);
	ot_fabric_free(f0);
	ot_fabric_free(f1);
}
END_TEST

/* The checker catches the FlatFly VL rule broken: dim 1 to dim 0 on VL 0. */
START_TEST(broken_flat_vl_caught)
{
	struct ot_fabric *f = flat_dragonfly(3, 3, 2, 1, 0, OT_DF_RANDOM, 3, 0,
					     1);
	struct ot_check_opts opts = { 0 };
	struct ot_error err = { 0 };
	struct ot_check_report *rep;
	struct ot_routing *r;
	struct ot_df *df;
	uint32_t n;
	unsigned int in, o, sl, np, changed = 0;

	ck_assert(!ot_df_recognize(f, &df, &err));
	route_and_check(f, &r, &rep);
	ot_check_report_free(rep);
	for (n = 0; n < f->nnodes; n++) {
		np = f->node[n].nports;
		for (in = 1; ot_is_switch(f, n) && in <= np; in++)
			for (o = 1; o <= np; o++) {
				if (ot_df_port_class(df, n, in) != OT_DF_PORT_LOCAL ||
				    ot_df_port_class(df, n, o) != OT_DF_PORT_LOCAL ||
				    ot_df_port_dim(df, n, in) != 1 ||
				    ot_df_port_dim(df, n, o) != 0)
					continue;
				for (sl = 0; sl < OT_NUM_SLS; sl++)
					r->sl2vl[n][ot_sl2vl_index(np, in, o, sl)] = 0;
				changed++;
			}
	}
	ck_assert_uint_gt(changed, 0);
	opts.promiser = r;
	ck_assert_int_eq(ot_check_run(f, r, &opts, &rep, &err), 0);
	ck_assert(!ot_check_ok(rep));
	ck_assert_uint_gt(ot_check_counts(rep)->violations, 0);
	ot_check_report_free(rep);
	ot_routing_free(r);
	ot_df_free(df);
	ot_fabric_free(f);
}
END_TEST

static Suite *dragonfly_suite(void)
{
	Suite *s = suite_create("dragonfly");
	TCase *tc = tcase_create("dragonfly");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, arrangements);
	tcase_add_test(tc, parallel_group_pairs);
	tcase_add_test(tc, damaged);
	tcase_add_test(tc, escape_layer);
	tcase_add_test(tc, detour_through_third_group);
	tcase_add_test(tc, broken_vl_rule_caught);
	tcase_add_test(tc, refuse_others);
	tcase_add_test(tc, refuse_sparse_group);
	tcase_add_test(tc, flat_groups);
	tcase_add_test(tc, parallel_local_cables);
	tcase_add_test(tc, flat_damaged);
	tcase_add_test(tc, valiant_offsets);
	tcase_add_test(tc, broken_valiant_vl_caught);
	tcase_add_test(tc, valiant_damaged);
	tcase_add_test(tc, valiant_keeps_offset_zero);
	tcase_add_test(tc, broken_flat_vl_caught);
	suite_add_tcase(s, tc);
	return s;
}

OT_UNIT_MAIN(dragonfly_suite)
