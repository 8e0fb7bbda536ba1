// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of the KNS recognizer (src/topo/kns.c), the step between the
 * fabric and the hdor engine: coordinates found on generated KNS fabrics
 * (plain and shuffled) are a relabelling of the generator's, do not
 * depend on node order or port numbers, and every kind of non-KNS is
 * refused with a line naming the node and port at fault.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"
#include "topo/kns.h"

#include "unit.h"

/* GUIDs from the node names, so that shuffled copies keep them. */
static uint64_t name_guid(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ull;
	}
	return h;
}

static struct ot_fabric *gen(unsigned int k, unsigned int n,
			     unsigned int cas, unsigned int links,
			     unsigned int radix, bool shuffle, uint64_t seed)
{
	struct ot_kns_params p = {
		.k = k, .n = n, .cas = cas, .links = links, .radix = radix,
		.shuffle = shuffle, .seed = seed,
	};
	struct ot_error err = { 0 };
	struct ot_fabric *f = ot_gen_kns(&p, &err);
	uint32_t i;

	ck_assert_msg(f, "gen: %s", err.msg);
	for (i = 0; i < f->nnodes; i++)
		f->node[i].guid = name_guid(f->node[i].desc);
	return f;
}

static void index_fabric(struct ot_fabric *f)
{
	struct ot_error err = { 0 };

	ot_fabric_assign_lids(f);
	ck_assert_msg(!ot_fabric_index(f, &err), "index: %s", err.msg);
}

static int find(const struct ot_fabric *f, const char *desc)
{
	uint32_t i;

	for (i = 0; i < f->nnodes; i++)
		if (!strcmp(f->node[i].desc, desc))
			return i;
	ck_abort_msg("no node %s", desc);
	return -1;
}

static unsigned int free_port(const struct ot_fabric *f, int x)
{
	unsigned int p;

	for (p = 1; p <= f->node[x].nports; p++)
		if (f->node[x].port[p].peer < 0)
			return p;
	ck_abort_msg("no free port on %s", f->node[x].desc);
	return 0;
}

static void unlink_port(struct ot_fabric *f, int x, unsigned int p)
{
	struct ot_port *a = &f->node[x].port[p];

	f->node[a->peer].port[a->peer_port].peer = -1;
	a->peer = -1;
}

/* The port of x cabled to y (the lowest). */
static unsigned int port_to(const struct ot_fabric *f, int x, int y)
{
	unsigned int p;

	for (p = 1; p <= f->node[x].nports; p++)
		if (f->node[x].port[p].peer == y)
			return p;
	ck_abort_msg("%s not cabled to %s", f->node[x].desc, f->node[y].desc);
	return 0;
}

static void cable(struct ot_fabric *f, int a, int b)
{
	struct ot_error err = { 0 };

	ck_assert_msg(!ot_fabric_link(f, a, free_port(f, a), b,
				      free_port(f, b), &err),
		      "link: %s", err.msg);
}

/* Generator coordinates from "R[c(n-1),...,c0]" or "CA[...]/i". */
static void gen_coords(const char *desc, unsigned int n, int *c)
{
	const char *s = strchr(desc, '[');
	unsigned int d;

	ck_assert_ptr_nonnull(s);
	for (d = n; d > 0; d--) {
		c[d - 1] = strtol(s + 1, NULL, 10);
		s = strpbrk(s + 1, ",]");
	}
}

/*
 * The recognized coordinates must be the generator's up to the KNS's
 * symmetry: a permutation of dimensions and, per dimension, a bijection
 * of values.  Also checks roles, switch dimensions and CA placement.
 */
static void check_relabelling(const struct ot_fabric *f,
			      const struct ot_kns *kns, unsigned int k,
			      unsigned int n)
{
	int gdim_of[16], map[16][16], used[16][16];
	int gc[16], gc2[16];
	uint32_t i;
	unsigned int d, e, p;

	ck_assert_uint_eq(kns->k, k);
	ck_assert_uint_eq(kns->n, n);
	for (d = 0; d < n; d++)
		gdim_of[d] = -1;
	memset(map, -1, sizeof(map));
	memset(used, 0, sizeof(used));
	/* a switch's routers differ in exactly one generator dimension */
	for (i = 0; i < f->nnodes; i++) {
		int g = -1, first = -1, differ;

		if (kns->role[i] != OT_KNS_SWITCH)
			continue;
		ck_assert_int_eq(f->node[i].desc[0], 'S');
		for (p = 1; p <= f->node[i].nports; p++) {
			int r = f->node[i].port[p].peer;

			if (r < 0)
				continue;
			ck_assert_int_eq(kns->role[r], OT_KNS_ROUTER);
			if (first < 0) {
				first = r;
				continue;
			}
			gen_coords(f->node[first].desc, n, gc);
			gen_coords(f->node[r].desc, n, gc2);
			differ = 0;
			for (e = 0; e < n; e++)
				if (gc[e] != gc2[e]) {
					g = e;
					differ++;
				}
			ck_assert_int_le(differ, 1);
		}
		/* "S[d,p]": d is the generator's dimension */
		ck_assert_int_eq(g, atoi(f->node[i].desc + 2));
		d = kns->dim[i];
		ck_assert_int_ge(kns->dim[i], 0);
		if (gdim_of[d] < 0)
			gdim_of[d] = g;
		ck_assert_int_eq(gdim_of[d], g);
		ck_assert_int_eq(kns->coord[i * n + d], -1);
	}
	for (i = 0; i < f->nnodes; i++) {
		const int16_t *c = kns->coord + (size_t)i * n;

		if (kns->role[i] == OT_KNS_SWITCH)
			continue;
		ck_assert_int_eq(f->node[i].desc[0],
				 kns->role[i] == OT_KNS_ROUTER ? 'R' : 'C');
		gen_coords(f->node[i].desc, n, gc);
		for (d = 0; d < n; d++) {
			int g = gdim_of[d], v = gc[g];

			ck_assert_int_ge(c[d], 0);
			ck_assert_int_lt(c[d], k);
			if (map[d][v] < 0) {
				ck_assert_msg(!used[d][c[d]],
					      "two values map to %d", c[d]);
				map[d][v] = c[d];
				used[d][c[d]] = 1;
			}
			ck_assert_int_eq(map[d][v], c[d]);
		}
		if (kns->role[i] == OT_KNS_CA)
			ck_assert(!memcmp(c, kns->coord +
					  (size_t)kns->router[i] * n,
					  n * sizeof(*c)));
	}
}

/*
 * What an accepted fabric must satisfy whatever its names: unique router
 * coordinates, and each switch's routers on one line of its dimension.
 */
static void check_consistent(const struct ot_fabric *f,
			     const struct ot_kns *kns)
{
	unsigned int n = kns->n, k = kns->k, d, e, p;
	uint32_t i, c, nr = 1;
	int *seen;

	for (d = 0; d < n; d++)
		nr *= k;
	seen = calloc(nr > k ? nr : k, sizeof(*seen));
	for (i = 0; i < f->nnodes; i++) {
		const int16_t *rc = kns->coord + (size_t)i * n;

		if (kns->role[i] != OT_KNS_ROUTER)
			continue;
		c = 0;
		for (d = n; d > 0; d--)
			c = c * k + rc[d - 1];
		ck_assert(!seen[c]);
		seen[c] = 1;
		ck_assert_int_eq(kns->router_at[c], i);
	}
	for (i = 0; i < f->nnodes; i++) {
		const int16_t *sc = kns->coord + (size_t)i * n;

		if (kns->role[i] != OT_KNS_SWITCH)
			continue;
		d = kns->dim[i];
		memset(seen, 0, k * sizeof(*seen));
		for (p = 1; p <= f->node[i].nports; p++) {
			int r = f->node[i].port[p].peer;
			const int16_t *rc = kns->coord + (size_t)r * n;

			if (r < 0)
				continue;
			for (e = 0; e < n; e++)
				if (e != d)
					ck_assert_int_eq(rc[e], sc[e]);
			/* parallel cables lead to the same router */
			ck_assert(!seen[rc[d]] || seen[rc[d]] == r + 1);
			seen[rc[d]] = r + 1;
		}
	}
	free(seen);
}

static struct ot_kns *recognize_ok(const struct ot_fabric *f)
{
	struct ot_error err = { 0 };
	struct ot_kns *kns = NULL;

	ck_assert_msg(!ot_kns_recognize(f, &kns, &err), "refused: %s",
		      err.msg);
	ck_assert_ptr_nonnull(kns);
	return kns;
}

static void coords_case(unsigned int k, unsigned int n, unsigned int cas,
			unsigned int links, bool shuffle, uint64_t seed)
{
	struct ot_fabric *f = gen(k, n, cas, links, 0, shuffle, seed);
	struct ot_kns *kns;
	int32_t origin = -1;
	uint32_t i;
	unsigned int d;

	index_fabric(f);
	kns = recognize_ok(f);
	ck_assert_uint_eq(kns->links, links);
	check_relabelling(f, kns, k, n);
	check_consistent(f, kns);
	/* the lowest router GUID is the origin */
	for (i = 0; i < f->nnodes; i++)
		if (kns->role[i] == OT_KNS_ROUTER &&
		    (origin < 0 || f->node[i].guid < f->node[origin].guid))
			origin = i;
	for (d = 0; d < n; d++)
		ck_assert_int_eq(kns->coord[origin * n + d], 0);
	ck_assert_int_eq(kns->router_at[0], origin);
	ot_kns_free(kns);
	ot_fabric_free(f);
}

START_TEST(coords_complete)
{
	coords_case(4, 1, 1, 1, false, 0);
	coords_case(2, 1, 3, 1, false, 0);
	coords_case(4, 2, 1, 1, false, 0);
	coords_case(2, 2, 1, 1, false, 0);
	coords_case(3, 3, 2, 1, false, 0);
	coords_case(2, 3, 1, 1, false, 0);
	coords_case(2, 4, 1, 2, false, 0);
	coords_case(3, 2, 4, 2, false, 0);
}
END_TEST

START_TEST(coords_shuffled)
{
	uint64_t seed;

	for (seed = 1; seed <= 4; seed++) {
		coords_case(4, 2, 2, 1, true, seed);
		coords_case(3, 3, 1, 2, true, seed);
		coords_case(2, 3, 4, 1, true, seed);
		coords_case(5, 1, 1, 3, true, seed);
	}
}
END_TEST

/* Node GUID -> coordinates, for comparing fabrics with other orders. */
static void coords_by_guid(const struct ot_fabric *f, const struct ot_kns *kns,
			   uint64_t *guid, int16_t *coord)
{
	uint32_t i, j, m = 0, n = kns->n;

	for (i = 0; i < f->nnodes; i++) {
		for (j = m; j > 0 && guid[j - 1] > f->node[i].guid; j--) {
			guid[j] = guid[j - 1];
			memcpy(coord + j * n, coord + (j - 1) * n,
			       n * sizeof(*coord));
		}
		guid[j] = f->node[i].guid;
		memcpy(coord + j * n, kns->coord + (size_t)i * n,
		       n * sizeof(*coord));
		m++;
	}
}

/*
 * The same fabric with other node order and port numbers (the generator
 * with other seeds, GUIDs from names) gets the very same coordinates.
 */
START_TEST(coords_independent_of_order)
{
	uint64_t *g0, *g1;
	int16_t *c0, *c1;
	uint64_t seed;
	struct ot_fabric *f = gen(3, 3, 2, 2, 0, false, 0);
	struct ot_kns *kns;
	size_t nn = f->nnodes;

	index_fabric(f);
	kns = recognize_ok(f);
	g0 = malloc(nn * sizeof(*g0));
	g1 = malloc(nn * sizeof(*g1));
	c0 = malloc(nn * 3 * sizeof(*c0));
	c1 = malloc(nn * 3 * sizeof(*c1));
	coords_by_guid(f, kns, g0, c0);
	ot_kns_free(kns);
	ot_fabric_free(f);
	for (seed = 11; seed < 16; seed++) {
		f = gen(3, 3, 2, 2, 0, true, seed);
		index_fabric(f);
		kns = recognize_ok(f);
		coords_by_guid(f, kns, g1, c1);
		ck_assert(!memcmp(g0, g1, nn * sizeof(*g0)));
		ck_assert(!memcmp(c0, c1, nn * 3 * sizeof(*c0)));
		ot_kns_free(kns);
		ot_fabric_free(f);
	}
	free(g0);
	free(g1);
	free(c0);
	free(c1);
}
END_TEST

/*
 * Recognition must fail, with a message holding every string given, as a
 * topology refusal (the class the plugin picks its ERR code by).
 */
static void refused(const struct ot_fabric *f, const char *const *want)
{
	struct ot_error err = { 0 };
	struct ot_kns *kns = (struct ot_kns *)1;

	ck_assert_int_eq(ot_kns_recognize(f, &kns, &err), -1);
	ck_assert_ptr_null(kns);
	ck_assert_msg(strlen(err.msg) > 0, "empty message");
	ck_assert_msg(!strchr(err.msg, '\n'), "not one line: %s", err.msg);
	ck_assert_msg(err.cls == OT_ERR_TOPOLOGY, "class \"%s\": %s",
		      ot_error_class_name(err.cls), err.msg);
	for (; *want; want++)
		ck_assert_msg(strstr(err.msg, *want), "\"%s\" not in: %s",
			      *want, err.msg);
}

/* "port N" of node x's port p, and its GUID, as the message gives them. */
static const char *port_str(char *buf, size_t len, unsigned int p)
{
	snprintf(buf, len, "port %u:", p);
	return buf;
}

static const char *guid_str(char *buf, size_t len, const struct ot_fabric *f,
			    int x)
{
	snprintf(buf, len, "(0x%016" PRIx64 ")", f->node[x].guid);
	return buf;
}

START_TEST(refuse_missing_cable)
{
	struct ot_fabric *f = gen(3, 2, 1, 1, 0, false, 0);
	int r = find(f, "R[1,2]"), s = find(f, "S[1,2]");
	char g[32];
	const char *want[] = { "router \"R[1,2]\"", NULL, "missing", NULL };

	unlink_port(f, r, port_to(f, r, s));
	index_fabric(f);
	want[1] = guid_str(g, sizeof(g), f, r);
	refused(f, want);
	ot_fabric_free(f);
}
END_TEST

START_TEST(refuse_extra_cable)
{
	struct ot_fabric *f = gen(3, 2, 1, 1, 8, true, 3);
	int r = find(f, "R[0,0]"), s = find(f, "S[0,2]");
	unsigned int p = free_port(f, r);
	char b[32], g[32];
	const char *want[] = { "router \"R[0,0]\"", NULL, NULL, "\"S[0,2]\"",
			       "one too many", NULL };

	cable(f, r, s);
	index_fabric(f);
	want[1] = guid_str(g, sizeof(g), f, r);
	want[2] = port_str(b, sizeof(b), p);
	refused(f, want);
	ot_fabric_free(f);
}
END_TEST

START_TEST(refuse_router_router_cable)
{
	struct ot_fabric *f = gen(3, 2, 1, 1, 8, false, 0);
	int r = find(f, "R[0,0]"), r2 = find(f, "R[1,1]");
	unsigned int p = free_port(f, r);
	char b[32], g[32];
	const char *want[] = { "router \"R[0,0]\"", NULL, NULL,
			       "router \"R[1,1]\"", NULL };

	cable(f, r, r2);
	index_fabric(f);
	want[1] = guid_str(g, sizeof(g), f, r);
	want[2] = port_str(b, sizeof(b), p);
	refused(f, want);
	ot_fabric_free(f);
}
END_TEST

START_TEST(refuse_switch_switch_cable)
{
	struct ot_fabric *f = gen(3, 2, 1, 1, 8, false, 0);
	int s = find(f, "S[0,1]"), s2 = find(f, "S[1,2]");
	unsigned int p = free_port(f, s);
	char b[32], g[32];
	const char *want[] = { "switch \"S[0,1]\"", NULL, NULL,
			       "switch \"S[1,2]\"", "switch-to-switch", NULL };

	cable(f, s, s2);
	index_fabric(f);
	want[1] = guid_str(g, sizeof(g), f, s);
	want[2] = port_str(b, sizeof(b), p);
	refused(f, want);
	ot_fabric_free(f);
}
END_TEST

START_TEST(refuse_uneven_links)
{
	struct ot_fabric *f = gen(3, 2, 2, 2, 0, false, 0);
	int r = find(f, "R[1,0]"), s = find(f, "S[0,1]");
	unsigned int p;
	char b[32], g[32];
	const char *want[] = { "router \"R[1,0]\"", NULL, NULL, "\"S[0,1]\"",
			       "uneven", NULL };

	unlink_port(f, r, port_to(f, r, s));
	p = port_to(f, r, s);
	index_fabric(f);
	want[1] = guid_str(g, sizeof(g), f, r);
	want[2] = port_str(b, sizeof(b), p);
	refused(f, want);
	ot_fabric_free(f);
}
END_TEST

START_TEST(refuse_ca_on_indirect_switch)
{
	struct ot_error err = { 0 };
	unsigned int n;

	/* n = 1 (every router sees only one "router") and n = 2 */
	for (n = 1; n <= 2; n++) {
		struct ot_fabric *f = gen(3, n, 1, 1, 8, false, 0);
		int s = find(f, n == 1 ? "S[0,0]" : "S[1,1]"), ca;
		unsigned int p = free_port(f, s);
		char b[32], g[32];
		const char *want[] = { NULL, NULL, NULL, "CA \"extra\"",
				       "carry no CAs", NULL };

		ca = ot_fabric_add_node(f, OT_NODE_CA, 1, 42, "extra", &err);
		ck_assert_int_ge(ca, 0);
		ck_assert(!ot_fabric_link(f, s, p, ca, 1, &err));
		index_fabric(f);
		want[0] = n == 1 ? "switch \"S[0,0]\"" : "switch \"S[1,1]\"";
		want[1] = guid_str(g, sizeof(g), f, s);
		want[2] = port_str(b, sizeof(b), p);
		refused(f, want);
		ot_fabric_free(f);
	}
}
END_TEST

/* A fabric of switches; cas[i] CAs on switch i; edges as pairs. */
static struct ot_fabric *build(unsigned int nsw, const unsigned int *cas,
			       const int (*edge)[2], unsigned int nedges)
{
	struct ot_error err = { 0 };
	struct ot_fabric *f = ot_fabric_new();
	unsigned int i, c;
	char name[32];

	for (i = 0; i < nsw; i++) {
		snprintf(name, sizeof(name), "sw%u", i);
		ck_assert_int_eq(ot_fabric_add_node(f, OT_NODE_SWITCH, 16,
						    0x100 + i, name, &err),
				 (int)i);
	}
	for (i = 0; i < nedges; i++)
		cable(f, edge[i][0], edge[i][1]);
	for (i = 0; i < nsw; i++)
		for (c = 0; cas && c < cas[i]; c++) {
			int x;

			snprintf(name, sizeof(name), "ca%u.%u", i, c);
			x = ot_fabric_add_node(f, OT_NODE_CA, 1,
					       0x1000 + i * 16 + c, name,
					       &err);
			cable(f, i, x);
		}
	index_fabric(f);
	return f;
}

START_TEST(refuse_fat_tree)
{
	/* 4 leaves with 2 CAs each, 2 spines: k = 4, n = 2 would need 16 */
	static const int e[][2] = { { 0, 4 }, { 1, 4 }, { 2, 4 }, { 3, 4 },
				    { 0, 5 }, { 1, 5 }, { 2, 5 }, { 3, 5 } };
	static const unsigned int cas[] = { 2, 2, 2, 2, 0, 0 };
	/* three levels: leaves 0-1, aggregation 2-3, spine 4 */
	static const int e3[][2] = { { 0, 2 }, { 1, 3 }, { 2, 4 }, { 3, 4 } };
	static const unsigned int cas3[] = { 1, 1, 0, 0, 0 };
	const char *want[] = { "4^2 routers", NULL };
	const char *want3[] = { "switch \"sw2\" (0x0000000000000102) port 2:",
				"\"sw4\"", "switch-to-switch", NULL };
	struct ot_fabric *f = build(6, cas, e, 8);

	refused(f, want);
	ot_fabric_free(f);
	f = build(5, cas3, e3, 4);
	refused(f, want3);
	ot_fabric_free(f);
}
END_TEST

START_TEST(refuse_ring_torus_mesh)
{
	static const int ring[][2] = { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 3, 0 } };
	static const unsigned int cas[] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	/* 3x3 mesh */
	static const int mesh[][2] = { { 0, 1 }, { 1, 2 }, { 3, 4 }, { 4, 5 },
				       { 6, 7 }, { 7, 8 }, { 0, 3 }, { 3, 6 },
				       { 1, 4 }, { 4, 7 }, { 2, 5 }, { 5, 8 } };
	const char *want_nca[] = { "no CA", NULL };
	const char *want_rr[] = { "router \"sw0\" (0x0000000000000100) port 1:",
				  "router \"sw1\"", NULL };
	struct ot_fabric *f;

	f = build(4, NULL, ring, 4);
	refused(f, want_nca);
	ot_fabric_free(f);
	f = build(4, cas, ring, 4);
	refused(f, want_rr);
	ot_fabric_free(f);
	f = build(9, cas, mesh, 12);
	refused(f, want_rr);
	ot_fabric_free(f);
}
END_TEST

/* Adds a copy of f's nodes and cables, GUIDs shifted by delta. */
static void append_copy(struct ot_fabric *f, uint64_t delta)
{
	struct ot_error err = { 0 };
	uint32_t base = f->nnodes, i;
	unsigned int p;

	for (i = 0; i < base; i++)
		ck_assert_int_ge(ot_fabric_add_node(f, f->node[i].type,
						    f->node[i].nports,
						    f->node[i].guid + delta,
						    f->node[i].desc, &err),
				 0);
	for (i = 0; i < base; i++) {
		for (p = 1; p <= f->node[i].nports; p++) {
			const struct ot_port *pt = &f->node[i].port[p];

			if (pt->peer < 0)
				continue;
			ck_assert(!ot_fabric_link(f, base + i, p,
						  base + pt->peer,
						  pt->peer_port, &err));
		}
	}
}

START_TEST(refuse_degenerate)
{
	struct ot_error err = { 0 };
	struct ot_fabric *f = ot_fabric_new();
	static const unsigned int one[] = { 2 };
	/* two 2x2 "squares": counts of a 2-ary 2-direct KNS, not one */
	static const int sq[][2] = { { 0, 4 }, { 1, 4 }, { 0, 5 }, { 1, 5 },
				     { 2, 6 }, { 3, 6 }, { 2, 7 }, { 3, 7 } };
	static const unsigned int sqcas[] = { 1, 1, 1, 1, 0, 0, 0, 0 };
	const char *want_empty[] = { "empty", NULL };
	const char *want_one[] = { "router \"sw0\"", "no cable", NULL };
	const char *want_sq[] = { "not a KNS", NULL };
	const char *want_two[] = { "the fabric has 8 and 8", NULL };
	const char *want_cc[] = { "CA \"a\"", "port 1:", "CA \"b\"", NULL };
	const char *want_nc[] = { "CA \"a\"", "no port", NULL };
	int a, b;

	index_fabric(f);
	refused(f, want_empty);
	a = ot_fabric_add_node(f, OT_NODE_CA, 1, 1, "a", &err);
	index_fabric(f);
	refused(f, want_nc);
	b = ot_fabric_add_node(f, OT_NODE_CA, 1, 2, "b", &err);
	cable(f, a, b);
	index_fabric(f);
	refused(f, want_cc);
	ot_fabric_free(f);
	f = build(1, one, NULL, 0);
	refused(f, want_one);
	ot_fabric_free(f);
	f = build(8, sqcas, sq, 8);
	refused(f, want_sq);
	ot_fabric_free(f);
	/* two whole KNSs side by side */
	f = gen(2, 2, 1, 1, 0, false, 0);
	append_copy(f, 1);
	index_fabric(f);
	refused(f, want_two);
	ot_fabric_free(f);
}
END_TEST

START_TEST(refuse_ca_two_routers)
{
	struct ot_error err = { 0 };
	struct ot_fabric *f = gen(2, 2, 1, 1, 8, false, 0);
	int ca = ot_fabric_add_node(f, OT_NODE_CA, 2, 7, "dual", &err);
	const char *want[] = { "CA \"dual\"", "port 2:", "one router", NULL };

	ck_assert(!ot_fabric_link(f, ca, 1, find(f, "R[0,0]"),
				  free_port(f, find(f, "R[0,0]")), &err));
	ck_assert(!ot_fabric_link(f, ca, 2, find(f, "R[1,1]"),
				  free_port(f, find(f, "R[1,1]")), &err));
	index_fabric(f);
	refused(f, want);
	ot_fabric_free(f);
}
END_TEST

/*
 * Random rewiring of a KNS (swapping the far ends of two router-switch
 * cables) gives fabrics that are KNSs or not: either way, no crash, and
 * whatever is accepted is consistent.
 */
START_TEST(rewired_never_crash)
{
	uint64_t x = 12345;
	int round;

	for (round = 0; round < 300; round++) {
		struct ot_fabric *f = gen(3, 2, 1, 1, 0, false, 0);
		struct ot_error err = { 0 };
		struct ot_kns *kns = NULL;
		int swaps = 1 + round % 3, i;

		for (i = 0; i < swaps; i++) {
			int a, b, sa, sb;
			unsigned int pa, pb, qa, qb;

			x = x * 6364136223846793005ull + 1442695040888963407ull;
			a = (x >> 33) % 9;
			b = (x >> 45) % 9;
			pa = 2 + (x >> 20) % 2;
			pb = 2 + (x >> 25) % 2;
			if (a == b)
				continue;
			sa = f->node[a].port[pa].peer;
			sb = f->node[b].port[pb].peer;
			qa = f->node[a].port[pa].peer_port;
			qb = f->node[b].port[pb].peer_port;
			unlink_port(f, a, pa);
			unlink_port(f, b, pb);
			ck_assert(!ot_fabric_link(f, a, pa, sb, qb, &err));
			ck_assert(!ot_fabric_link(f, b, pb, sa, qa, &err));
		}
		index_fabric(f);
		if (!ot_kns_recognize(f, &kns, &err)) {
			check_consistent(f, kns);
			ot_kns_free(kns);
		} else {
			ck_assert(strlen(err.msg) > 0);
			ck_assert_int_eq(err.cls, OT_ERR_TOPOLOGY);
		}
		ot_fabric_free(f);
	}
}
END_TEST

static Suite *kns_suite(void)
{
	Suite *s = suite_create("kns");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, coords_complete);
	tcase_add_test(tc, coords_shuffled);
	tcase_add_test(tc, coords_independent_of_order);
	tcase_add_test(tc, refuse_missing_cable);
	tcase_add_test(tc, refuse_extra_cable);
	tcase_add_test(tc, refuse_router_router_cable);
	tcase_add_test(tc, refuse_switch_switch_cable);
	tcase_add_test(tc, refuse_uneven_links);
	tcase_add_test(tc, refuse_ca_on_indirect_switch);
	tcase_add_test(tc, refuse_fat_tree);
	tcase_add_test(tc, refuse_ring_torus_mesh);
	tcase_add_test(tc, refuse_degenerate);
	tcase_add_test(tc, refuse_ca_two_routers);
	tcase_add_test(tc, rewired_never_crash);
	suite_add_tcase(s, tc);
	return s;
}

OT_UNIT_MAIN(kns_suite)
