// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of the hdor engine (src/route/hdor.c), the step from KNS
 * coordinates to forwarding tables: every CA reaches every CA LID along
 * the Hybrid-DOR path, every switch reaches every switch LID, parallel
 * cables share the destinations evenly, the tables do not depend on node
 * order or port numbers, and the channel ranks that prove deadlock freedom
 * strictly increase along every CA-to-CA path (and fail to when a table is
 * broken on purpose).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"
#include "model/routing.h"
#include "route/engine.h"
#include "topo/kns.h"

#include "unit.h"

#define MAX_PATH 64

static uint64_t name_guid(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ull;
	}
	return h;
}

/*
 * LIDs in node order; CA ports get 2^lmc LIDs each, aligned as the
 * subnet manager aligns them.
 */
static void give_lids(struct ot_fabric *f, unsigned int lmc)
{
	struct ot_error err = { 0 };
	ck_assert_msg(!ot_fabric_set_ca_lmc(f, (uint8_t)lmc, &err),
		      "LIDs: %s", err.msg);
}

static struct ot_fabric *gen(unsigned int k, unsigned int n,
			     unsigned int cas, unsigned int links, bool shuffle,
			     uint64_t seed, unsigned int lmc)
{
	struct ot_kns_params p = {
		.k = k, .n = n, .cas = cas, .links = links,
		.shuffle = shuffle, .seed = seed,
	};
	struct ot_error err = { 0 };
	struct ot_fabric *f = ot_gen_kns(&p, &err);
	uint32_t i;

	ck_assert_msg(f, "gen: %s", err.msg);
	for (i = 0; i < f->nnodes; i++)
		f->node[i].guid = name_guid(f->node[i].desc);
	give_lids(f, lmc);
	return f;
}

static struct ot_routing *route(const struct ot_fabric *f)
{
	struct ot_error err = { 0 };
	struct ot_routing *r = NULL;

	ck_assert_msg(!ot_engine_run(ot_engine_find("hdor"), f, &r, &err),
		      "hdor refused: %s", err.msg);
	return r;
}

static struct ot_kns *recognize(const struct ot_fabric *f)
{
	struct ot_error err = { 0 };
	struct ot_kns *kns = NULL;

	ck_assert_msg(!ot_kns_recognize(f, &kns, &err), "kns: %s", err.msg);
	return kns;
}

/*
 * The rank of the channel from node a to node b (see hdor.c): CA ->
 * router 0, router -> switch of dimension d 2d + 1, switch of dimension
 * d -> router 2d + 2, router -> CA 2n + 1.
 */
static int channel_rank(const struct ot_kns *kns, int a, int b)
{
	if (kns->role[a] == OT_KNS_CA)
		return 0;
	if (kns->role[b] == OT_KNS_CA)
		return 2 * kns->n + 1;
	if (kns->role[b] == OT_KNS_SWITCH)
		return 2 * kns->dim[b] + 1;
	return 2 * kns->dim[a] + 2;
}

struct walk_stats {
	unsigned long paths, unreached, rank_violations, not_hdor;
	char first[OT_ERROR_LEN];
};

/*
 * Follows the tables from src (a CA port) to dlid.  Returns the number
 * of nodes in nodes[] when the LID's owner is reached, 0 otherwise.
 */
static unsigned int walk(const struct ot_fabric *f, const struct ot_routing *r,
			 int src, unsigned int sport, uint16_t dlid,
			 int32_t *nodes)
{
	const struct ot_lid_owner *o = &f->lid_owner[dlid];
	int cur = f->node[src].port[sport].peer;
	unsigned int len = 0;

	nodes[len++] = src;
	while (len < MAX_PATH) {
		unsigned int port;
		const struct ot_port *pt;

		nodes[len++] = cur;
		if (f->node[cur].type != OT_NODE_SWITCH)
			return cur == o->node ? len : 0;
		port = r->lft[cur][dlid];
		if (port == 0)
			return cur == o->node ? len : 0;
		if (port == OT_NO_PORT || port > f->node[cur].nports)
			return 0;
		pt = &f->node[cur].port[port];
		if (pt->peer < 0)
			return 0;
		if (f->node[pt->peer].type == OT_NODE_CA &&
		    pt->peer_port != o->port)
			return 0;
		cur = pt->peer;
	}
	return 0;
}

static int find(const struct ot_fabric *f, const char *desc)
{
	uint32_t i;

	for (i = 0; i < f->nnodes; i++)
		if (!strcmp(f->node[i].desc, desc))
			return (int)i;
	ck_abort_msg("no node %s", desc);
	return -1;
}

/* hdor's promise rule on the node list nodes (ports and VLs unused). */
static int rule(const struct ot_routing *r, const int32_t *nodes,
		unsigned int len, struct ot_error *err)
{
	uint8_t zero[16] = { 0 };
	struct ot_path p = {
		.node = nodes, .port = zero, .vl = zero, .len = len,
	};

	return r->promise.rule(r->promise.ctx, &p, err);
}

/*
 * Every CA port to every LID of kind want (OT_KNS_CA or OT_KNS_ROUTER):
 * reached, and channel ranks strictly increasing; CA destinations also on
 * the Hybrid-DOR path (hdor's promise rule).
 */
static void walk_all(const struct ot_fabric *f, const struct ot_routing *r,
		     const struct ot_kns *kns, int want,
		     struct walk_stats *st)
{
	int32_t nodes[MAX_PATH];
	struct ot_error err;
	uint32_t s, lid;
	unsigned int sp, i, len;

	memset(st, 0, sizeof(*st));
	for (s = 0; s < f->nnodes; s++) {
		if (kns->role[s] != OT_KNS_CA)
			continue;
		for (sp = 1; sp <= f->node[s].nports; sp++) {
			if (f->node[s].port[sp].peer < 0)
				continue;
			for (lid = 1; lid <= f->max_lid; lid++) {
				const struct ot_lid_owner *o =
					&f->lid_owner[lid];

				if (o->node < 0 || kns->role[o->node] != want ||
				    (o->node == (int)s && o->port == sp))
					continue;
				st->paths++;
				len = walk(f, r, s, sp, lid, nodes);
				if (!len) {
					st->unreached++;
					continue;
				}
				for (i = 2; i < len; i++)
					if (channel_rank(kns, nodes[i - 1],
							 nodes[i]) <=
					    channel_rank(kns, nodes[i - 2],
							 nodes[i - 1]))
						break;
				if (i < len)
					st->rank_violations++;
				if (want == OT_KNS_CA &&
				    rule(r, nodes, len, &err)) {
					if (!st->not_hdor++)
						memcpy(st->first, err.msg,
						       sizeof(st->first));
				}
			}
		}
	}
}

/*
 * The checks below run over every (switch, LID) pair: they count
 * problems and assert once, since each Check assertion costs a write.
 */

/* Every switch reaches every switch LID, and only its own at port 0. */
static void check_switch_lids(const struct ot_fabric *f,
			      const struct ot_routing *r)
{
	unsigned long bad = 0;
	uint32_t s, lid;

	for (lid = 1; lid <= f->max_lid; lid++) {
		int owner = f->lid_owner[lid].node;

		if (owner < 0 || f->node[owner].type != OT_NODE_SWITCH)
			continue;
		for (s = 0; s < f->nnodes; s++) {
			int cur = s;
			unsigned int hops = 0;

			if (f->node[s].type != OT_NODE_SWITCH)
				continue;
			while (cur >= 0 && hops < MAX_PATH &&
			       f->node[cur].type == OT_NODE_SWITCH &&
			       r->lft[cur][lid] != 0) {
				unsigned int p = r->lft[cur][lid];

				if (p > f->node[cur].nports) {
					cur = -1;
					break;
				}
				cur = f->node[cur].port[p].peer;
				hops++;
			}
			if (cur != owner)
				bad++;
		}
	}
	ck_assert_uint_eq(bad, 0);
}

/* Every LID in use has a port on every switch. */
static void check_complete(const struct ot_fabric *f,
			   const struct ot_routing *r)
{
	unsigned long bad = 0;
	uint32_t s, lid;

	for (s = 0; s < f->nnodes; s++) {
		if (f->node[s].type != OT_NODE_SWITCH)
			continue;
		for (lid = 1; lid <= f->max_lid; lid++) {
			bool used = f->lid_owner[lid].node >= 0;

			if (used != (r->lft[s][lid] != OT_NO_PORT))
				bad++;
		}
	}
	ck_assert_uint_eq(bad, 0);
}

/*
 * Per bundle of parallel cables (the cables from one switch to one other
 * switch), the CA LIDs routed over each cable differ by at most one, and
 * so do the base LIDs alone (with LMC > 0, traffic to base LIDs must be
 * spread too).
 */
static void check_even(const struct ot_fabric *f, const struct ot_routing *r,
		       unsigned int links)
{
	unsigned int cnt[OT_MAX_PORTS + 2], base[OT_MAX_PORTS + 2];
	unsigned long pairs = 0;
	uint32_t s, lid;
	unsigned int p, q;

	for (s = 0; s < f->nnodes; s++) {
		const struct ot_node *nd = &f->node[s];

		if (nd->type != OT_NODE_SWITCH)
			continue;
		memset(cnt, 0, sizeof(cnt));
		memset(base, 0, sizeof(base));
		for (lid = 1; lid <= f->max_lid; lid++) {
			int owner = f->lid_owner[lid].node;

			if (owner < 0 || f->node[owner].type != OT_NODE_CA)
				continue;
			cnt[r->lft[s][lid]]++;
			if (f->node[owner].port[f->lid_owner[lid].port].lid ==
			    lid)
				base[r->lft[s][lid]]++;
		}
		for (p = 1; p <= nd->nports; p++) {
			int peer = nd->port[p].peer;

			if (peer < 0 || f->node[peer].type != OT_NODE_SWITCH)
				continue;
			for (q = p + 1; q <= nd->nports; q++) {
				if (nd->port[q].peer != peer)
					continue;
				pairs++;
				ck_assert_msg(cnt[p] <= cnt[q] + 1 &&
					      cnt[q] <= cnt[p] + 1,
					      "%s ports %u and %u: %u and %u CA LIDs",
					      nd->desc, p, q, cnt[p], cnt[q]);
				ck_assert_msg(base[p] <= base[q] + 1 &&
					      base[q] <= base[p] + 1,
					      "%s ports %u and %u: %u and %u base LIDs",
					      nd->desc, p, q, base[p], base[q]);
			}
		}
	}
	/* parallel cables exist exactly when L > 1 */
	if (links > 1)
		ck_assert_uint_gt(pairs, 0);
	else
		ck_assert_uint_eq(pairs, 0);
}

static void full_check(struct ot_fabric *f)
{
	struct ot_routing *r = route(f);
	struct ot_kns *kns = recognize(f);
	struct walk_stats st;

	check_complete(f, r);
	walk_all(f, r, kns, OT_KNS_CA, &st);
	ck_assert_uint_gt(st.paths, 0);
	ck_assert_uint_eq(st.unreached, 0);
	ck_assert_msg(!st.not_hdor, "not Hybrid-DOR: %s", st.first);
	/* the constructive proof: no dependency goes down in rank */
	ck_assert_uint_eq(st.rank_violations, 0);
	/* CA to router LIDs is covered too */
	walk_all(f, r, kns, OT_KNS_ROUTER, &st);
	ck_assert_uint_eq(st.unreached, 0);
	ck_assert_uint_eq(st.rank_violations, 0);
	check_switch_lids(f, r);
	check_even(f, r, kns->links);
	ot_kns_free(kns);
	ot_routing_free(r);
	ot_fabric_free(f);
}

START_TEST(routes_small)
{
	full_check(gen(2, 1, 1, 1, false, 0, 0));
	full_check(gen(5, 1, 2, 3, true, 1, 0));
	full_check(gen(4, 2, 1, 1, false, 0, 0));
	full_check(gen(2, 3, 1, 1, false, 0, 0));
	full_check(gen(3, 3, 1, 1, true, 2, 0));
}
END_TEST

START_TEST(routes_parallel_and_many_cas)
{
	full_check(gen(4, 2, 4, 2, false, 0, 0));
	full_check(gen(3, 2, 4, 2, true, 5, 0));
	full_check(gen(3, 3, 2, 3, true, 6, 0));
	full_check(gen(2, 4, 4, 2, true, 7, 0));
}
END_TEST

START_TEST(routes_lmc)
{
	full_check(gen(3, 2, 2, 2, true, 8, 2));
	full_check(gen(4, 2, 1, 4, false, 0, 1));
}
END_TEST

START_TEST(routes_larger)
{
	full_check(gen(8, 2, 2, 2, true, 9, 0));
	full_check(gen(6, 3, 1, 1, true, 10, 0));
}
END_TEST

/*
 * A constructive proof must be able to fail: send one packet up the
 * higher dimension first and the rank order breaks.
 */
START_TEST(rank_fails_on_broken_table)
{
	struct ot_fabric *f = gen(3, 2, 1, 1, false, 0, 0);
	struct ot_routing *r = route(f);
	struct ot_kns *kns = recognize(f);
	struct walk_stats st;
	int src = kns->router_at[0], dst = kns->router_at[1 + 3], ca = -1;
	uint32_t i;
	unsigned int p;
	uint16_t lid;

	for (i = 0; i < f->nnodes; i++)
		if (kns->role[i] == OT_KNS_CA && kns->router[i] == dst)
			ca = i;
	ck_assert_int_ge(ca, 0);
	lid = f->node[ca].port[1].lid;
	/* dst differs from src in dimensions 0 and 1: correct 1 first */
	for (p = 1; p <= f->node[src].nports; p++) {
		int peer = f->node[src].port[p].peer;

		if (peer >= 0 && kns->role[peer] == OT_KNS_SWITCH &&
		    kns->dim[peer] == 1)
			r->lft[src][lid] = p;
	}
	walk_all(f, r, kns, OT_KNS_CA, &st);
	ck_assert_uint_eq(st.unreached, 0);
	ck_assert_uint_ge(st.rank_violations, 1);
	ck_assert_uint_ge(st.not_hdor, 1);
	ck_assert(strstr(st.first, "dimension"));
	ot_kns_free(kns);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * A second, independent look at credit loops: build the channel
 * dependency graph of every path between chosen sources and destinations
 * and search it for a cycle.
 */
struct cdg {
	uint32_t nch;   /* channels: cabled ports */
	uint32_t *cid;  /* node * (OT_MAX_PORTS + 1) + port -> channel */
	char *edge;     /* nch x nch */
	char *state;    /* DFS: 0 new, 1 on stack, 2 done */
};

static uint32_t chan_id(const struct cdg *g, int node, unsigned int port)
{
	return g->cid[(size_t)node * (OT_MAX_PORTS + 1) + port];
}

static bool cdg_cycle_from(struct cdg *g, uint32_t u)
{
	uint32_t v;

	g->state[u] = 1;
	for (v = 0; v < g->nch; v++) {
		if (!g->edge[(size_t)u * g->nch + v])
			continue;
		if (g->state[v] == 1)
			return true;
		if (!g->state[v] && cdg_cycle_from(g, v))
			return true;
	}
	g->state[u] = 2;
	return false;
}

/*
 * Sources and destinations are CAs and routers, plus indirect switches
 * when with_switches; true when the graph has a cycle.
 */
static bool cdg_has_cycle(const struct ot_fabric *f, const struct ot_routing *r,
			  const struct ot_kns *kns, bool with_switches)
{
	struct cdg g = { 0 };
	uint32_t s, lid, u;
	unsigned int p;
	bool cycle = false;

	g.cid = calloc((size_t)f->nnodes * (OT_MAX_PORTS + 1),
		       sizeof(*g.cid));
	ck_assert_ptr_nonnull(g.cid);
	for (s = 0; s < f->nnodes; s++)
		for (p = 1; p <= f->node[s].nports; p++)
			if (f->node[s].port[p].peer >= 0)
				g.cid[s * (OT_MAX_PORTS + 1) + p] = g.nch++;
	g.edge = calloc((size_t)g.nch * g.nch, 1);
	g.state = calloc(g.nch, 1);
	ck_assert(g.edge && g.state);
	for (s = 0; s < f->nnodes; s++) {
		if (kns->role[s] == OT_KNS_SWITCH && !with_switches)
			continue;
		for (lid = 1; lid <= f->max_lid; lid++) {
			int o = f->lid_owner[lid].node, cur = s, hops = 0;
			int64_t prev = -1;

			if (o < 0 || o == (int)s ||
			    (kns->role[o] == OT_KNS_SWITCH && !with_switches))
				continue;
			if (kns->role[s] == OT_KNS_CA) {
				prev = chan_id(&g, s, 1);
				cur = f->node[s].port[1].peer;
			}
			while (f->node[cur].type == OT_NODE_SWITCH &&
			       r->lft[cur][lid] && hops++ < MAX_PATH) {
				unsigned int q = r->lft[cur][lid];
				uint32_t c = chan_id(&g, cur, q);

				if (prev >= 0)
					g.edge[(size_t)prev * g.nch + c] = 1;
				prev = c;
				cur = f->node[cur].port[q].peer;
			}
		}
	}
	for (u = 0; u < g.nch && !cycle; u++)
		if (!g.state[u])
			cycle = cdg_cycle_from(&g, u);
	free(g.cid);
	free(g.edge);
	free(g.state);
	return cycle;
}

START_TEST(no_credit_loop)
{
	static const unsigned int shape[][4] = {
		{ 2, 2, 1, 1 }, { 3, 2, 1, 1 }, { 3, 2, 2, 2 }, { 2, 3, 1, 1 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(shape) / sizeof(shape[0]); i++) {
		struct ot_fabric *f = gen(shape[i][0], shape[i][1],
					  shape[i][2], shape[i][3], true, i,
					  0);
		struct ot_routing *r = route(f);
		struct ot_kns *kns = recognize(f);

		ck_assert(!cdg_has_cycle(f, r, kns, false));
		/*
		 * What hdor.c documents as not covered: management traffic
		 * of indirect switches on the data VL does close cycles.
		 */
		ck_assert(cdg_has_cycle(f, r, kns, true));
		ot_kns_free(kns);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
}
END_TEST

/* The same fabric, nodes in another order (same GUIDs, ports, LIDs). */
static struct ot_fabric *permuted(const struct ot_fabric *f, uint64_t seed)
{
	struct ot_error err = { 0 };
	struct ot_fabric *g = ot_fabric_new();
	uint32_t *order = malloc(f->nnodes * sizeof(*order));
	uint32_t *where = malloc(f->nnodes * sizeof(*where));
	uint32_t i, j, t;
	unsigned int p;

	for (i = 0; i < f->nnodes; i++)
		order[i] = i;
	for (i = f->nnodes; i > 1; i--) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		j = (seed >> 33) % i;
		t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
	for (i = 0; i < f->nnodes; i++) {
		const struct ot_node *nd = &f->node[order[i]];

		ck_assert_int_eq(ot_fabric_add_node(g, nd->type, nd->nports,
						    nd->guid, nd->desc, &err),
				 (int)i);
		where[order[i]] = i;
	}
	for (i = 0; i < f->nnodes; i++) {
		const struct ot_node *nd = &f->node[order[i]];

		for (p = 0; p <= nd->nports; p++) {
			const struct ot_port *pt = &nd->port[p];

			if (pt->lid)
				ck_assert(!ot_fabric_set_lid(g, i, p, pt->lid,
							     pt->lmc, &err));
			if (p && pt->peer >= 0)
				ck_assert(!ot_fabric_link(g, i, p,
							  where[pt->peer],
							  pt->peer_port, &err));
		}
	}
	ck_assert(!ot_fabric_index(g, &err));
	free(order);
	free(where);
	return g;
}

static int by_guid(const struct ot_fabric *f, uint64_t guid)
{
	uint32_t i;

	for (i = 0; i < f->nnodes; i++)
		if (f->node[i].guid == guid)
			return i;
	ck_abort_msg("no GUID 0x%" PRIx64, guid);
	return -1;
}

START_TEST(deterministic_node_order)
{
	struct ot_fabric *f = gen(3, 2, 2, 2, true, 12, 1);
	struct ot_routing *r = route(f);
	uint64_t seed;
	uint32_t i;

	for (seed = 1; seed <= 3; seed++) {
		struct ot_fabric *g = permuted(f, seed);
		struct ot_routing *rg = route(g);

		for (i = 0; i < f->nnodes; i++) {
			int j = by_guid(g, f->node[i].guid);

			if (f->node[i].type != OT_NODE_SWITCH)
				continue;
			ck_assert(!memcmp(r->lft[i], rg->lft[j],
					  (size_t)f->max_lid + 1));
			ck_assert_str_eq(r->label[i], rg->label[j]);
		}
		ot_routing_free(rg);
		ot_fabric_free(g);
	}
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * Next hop, as the GUID of the node at the far end, of switch s toward
 * the node owning lid (GUID and LMC offset): independent of port numbers
 * and LIDs.
 */
static uint64_t next_guid(const struct ot_fabric *f,
			  const struct ot_routing *r, int s, uint16_t lid)
{
	unsigned int p = r->lft[s][lid];

	if (p == 0)
		return f->node[s].guid;
	return f->node[f->node[s].port[p].peer].guid;
}

/* LID of the port of node guid with LMC offset off, in fabric f. */
static uint16_t lid_of(const struct ot_fabric *f, uint64_t guid,
		       unsigned int off)
{
	int x = by_guid(f, guid);
	unsigned int p;

	for (p = 0; p <= f->node[x].nports; p++)
		if (f->node[x].port[p].lid)
			return f->node[x].port[p].lid + off;
	return 0;
}

START_TEST(deterministic_wiring)
{
	struct ot_fabric *f = gen(3, 3, 1, 1, false, 0, 1);
	struct ot_routing *r = route(f);
	uint64_t seed;
	uint32_t i, lid;

	for (seed = 20; seed < 23; seed++) {
		struct ot_fabric *g = gen(3, 3, 1, 1, true, seed, 1);
		struct ot_routing *rg = route(g);

		for (i = 0; i < f->nnodes; i++) {
			int j;

			if (f->node[i].type != OT_NODE_SWITCH)
				continue;
			j = by_guid(g, f->node[i].guid);
			ck_assert_str_eq(r->label[i], rg->label[j]);
			for (lid = 1; lid <= f->max_lid; lid++) {
				const struct ot_lid_owner *o =
					&f->lid_owner[lid];
				const struct ot_port *pt;
				uint16_t glid;

				if (o->node < 0)
					continue;
				pt = &f->node[o->node].port[o->port];
				glid = lid_of(g, f->node[o->node].guid,
					      lid - pt->lid);
				ck_assert_uint_eq(next_guid(f, r, i, lid),
						  next_guid(g, rg, j, glid));
			}
		}
		ot_routing_free(rg);
		ot_fabric_free(g);
	}
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

START_TEST(labels)
{
	struct ot_fabric *f = gen(3, 2, 2, 1, false, 0, 0);
	struct ot_routing *r = route(f);
	struct ot_kns *kns = recognize(f);
	uint32_t i;
	char want[64];

	for (i = 0; i < f->nnodes; i++) {
		const int16_t *c = kns->coord + (size_t)i * 2;

		ck_assert_ptr_nonnull(r->label[i]);
		if (kns->role[i] == OT_KNS_ROUTER)
			snprintf(want, sizeof(want), "router [%d,%d]", c[1],
				 c[0]);
		else if (kns->role[i] == OT_KNS_SWITCH && kns->dim[i] == 0)
			snprintf(want, sizeof(want), "switch d=0 [%d,*]",
				 c[1]);
		else if (kns->role[i] == OT_KNS_SWITCH)
			snprintf(want, sizeof(want), "switch d=1 [*,%d]",
				 c[0]);
		else
			snprintf(want, sizeof(want), "CA [%d,%d]/", c[1], c[0]);
		ck_assert_msg(!strncmp(r->label[i], want, strlen(want)),
			      "%s: \"%s\", want \"%s\"", f->node[i].desc,
			      r->label[i], want);
	}
	ck_assert_uint_eq(r->nvls, 1);
	ck_assert(!r->needs_qos);
	ot_kns_free(kns);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

START_TEST(refuses_with_reason)
{
	struct ot_error err = { 0 };
	struct ot_fabric *f = ot_fabric_new();
	struct ot_routing *r = (struct ot_routing *)1;
	int a, b, s;

	/* a ring of two switches with a CA each: router to router */
	a = ot_fabric_add_node(f, OT_NODE_SWITCH, 4, 0x10, "a", &err);
	b = ot_fabric_add_node(f, OT_NODE_SWITCH, 4, 0x11, "b", &err);
	ck_assert(!ot_fabric_link(f, a, 1, b, 1, &err));
	s = ot_fabric_add_node(f, OT_NODE_CA, 1, 0x20, "ca-a", &err);
	ck_assert(!ot_fabric_link(f, a, 2, s, 1, &err));
	s = ot_fabric_add_node(f, OT_NODE_CA, 1, 0x21, "ca-b", &err);
	ck_assert(!ot_fabric_link(f, b, 2, s, 1, &err));
	give_lids(f, 0);
	ck_assert_int_eq(ot_engine_run(ot_engine_find("hdor"), f, &r, &err),
			 -1);
	ck_assert_ptr_null(r);
	ck_assert_msg(strstr(err.msg, "hdor: ") == err.msg, "%s", err.msg);
	ck_assert_msg(strstr(err.msg, "\"a\" (0x0000000000000010) port 1"),
		      "%s", err.msg);
	ot_fabric_free(f);
}
END_TEST

/* The promise hdor states, and its rule accepting and refusing paths. */
START_TEST(promise_rule)
{
	struct ot_fabric *f = gen(3, 2, 1, 1, false, 0, 0);
	struct ot_routing *r = route(f);
	struct ot_error err = { 0 };
	const struct ot_kns *kns = r->promise.ctx;
	int ca0 = find(f, "CA[0,0]/0"), ca1 = find(f, "CA[1,1]/0");
	int r00 = find(f, "R[0,0]"), r01 = find(f, "R[0,1]");
	int r10 = find(f, "R[1,0]"), r11 = find(f, "R[1,1]");
	int32_t good[7], bad[7], ok_same[3];
	int32_t longer[9];
	int d0, d1;

	ck_assert_int_eq(r->promise.minimal, OT_MINIMAL_ALL);
	ck_assert_uint_eq(r->promise.max_switch_hops, 4);
	ck_assert_uint_eq(r->nvls, 1);
	ck_assert_uint_eq(r->promise.sls, 1);
	ck_assert(r->promise.rule && r->promise.text);
	/* which recognized dimension is the generator's dimension 0 */
	d0 = kns->dim[find(f, "S[0,0]")];
	d1 = 1 - d0;
	/* dimension d0 first: R[0,0] -> S[0,0] -> R[0,1] -> S[1,1] -> R[1,1] */
	good[0] = ca0;
	good[1] = r00;
	good[3] = d0 == 0 ? r01 : r10;
	good[2] = find(f, d0 == 0 ? "S[0,0]" : "S[1,0]");
	good[4] = find(f, d0 == 0 ? "S[1,1]" : "S[0,1]");
	good[5] = r11;
	good[6] = ca1;
	ck_assert_msg(!rule(r, good, 7, &err), "%s", err.msg);
	/* the other order corrects the higher dimension first */
	bad[0] = ca0;
	bad[1] = r00;
	bad[3] = d1 == 0 ? r01 : r10;
	bad[2] = find(f, d1 == 0 ? "S[0,0]" : "S[1,0]");
	bad[4] = find(f, d1 == 0 ? "S[1,1]" : "S[0,1]");
	bad[5] = r11;
	bad[6] = ca1;
	ck_assert_int_eq(rule(r, bad, 7, &err), -1);
	ck_assert(strstr(err.msg, "dimension"));
	/* a detour is not minimal */
	memcpy(longer, good, 5 * sizeof(*good));
	longer[5] = r11;
	longer[6] = longer[4];
	longer[7] = r11;
	longer[8] = ca1;
	ck_assert_int_eq(rule(r, longer, 9, &err), -1);
	ck_assert(strstr(err.msg, "hops"));
	ok_same[0] = ca0;
	ok_same[1] = r00;
	ok_same[2] = ca0;
	ck_assert(!rule(r, ok_same, 3, &err));
	ok_same[1] = r11;
	ck_assert_int_eq(rule(r, ok_same, 3, &err), -1);
	/* not CA to CA */
	ck_assert_int_eq(rule(r, good + 1, 6, &err), -1);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

static Suite *hdor_suite(void)
{
	Suite *s = suite_create("hdor");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, routes_small);
	tcase_add_test(tc, routes_parallel_and_many_cas);
	tcase_add_test(tc, routes_lmc);
	tcase_add_test(tc, routes_larger);
	tcase_add_test(tc, rank_fails_on_broken_table);
	tcase_add_test(tc, no_credit_loop);
	tcase_add_test(tc, deterministic_node_order);
	tcase_add_test(tc, deterministic_wiring);
	tcase_add_test(tc, labels);
	tcase_add_test(tc, refuses_with_reason);
	tcase_add_test(tc, promise_rule);
	suite_add_tcase(s, tc);
	return s;
}

OT_UNIT_MAIN(hdor_suite)
