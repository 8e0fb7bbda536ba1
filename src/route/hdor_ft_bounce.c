// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * hdor on fat-tree lines: the in-line bounce, for two-plane lines.
 *
 * Why.  Where routers have two (or more) up-cables into a line (two
 * switches per line at s = 1, or `--up 2` at the first stage), a router
 * that lost a cable is in one plane only, and two such routers in
 * opposite planes have no up*-down* path to each other inside their
 * line.  route/hdor_ft.c then moves every destination LID the line
 * carries to the cut-off router off dimension order, whole (the escape
 * layer, twists), and those flows pile onto busy channels elsewhere.
 * minhop and dfsssp instead go down to a third router of the line that
 * kept both cables and up again in the other plane.
 *
 * What.  A candidate routing (route/hdor.c keeps it only where the
 * busiest channel under uniform traffic carries strictly fewer flows
 * than without it, and never on an intact fabric, which has no cut-off
 * router).  route/hdor_ft.c, asked for it, keeps in dimension order the
 * LIDs whose only reason to leave it is a line where every cut-off
 * router reaches the target through the line's graph
 * (ot_hdor_ft_bounceable()); the switches and routers with no up*-down*
 * way to the target take toward()'s shortest way in the line's graph,
 * which goes down to a router (or a switch) that has one and up again:
 * the bounce.  Parallel choices are dealt by the LIDs each port already
 * carries, candidates in the order of their far end's place in the line
 * (routers by coordinate), never by port number.  This file then walks
 * every (source router, LID) pair of those LIDs on the tables, and each
 * pair whose walk has a valley (a node of a line entered from a switch
 * of the line above it and left to one above it: ot_hdor_ft_valley())
 * is a bounced pair, on a path SL of its own: one SL per dimension of
 * the bounce (the pairs twisted or escaped keep theirs).
 *
 * VLs.  A bounced packet is on VL 0 up to the valley and on the bounce
 * VL from the valley on, to its destination.  SL2VL sees only (node, in
 * port, out port, SL), and a line switch can carry on the same ports
 * one pair before its bounce and another after its own (the doc's first
 * hazard).  So the SL2VL entries are taken from the walks themselves:
 * every hop of every bounced pair says (node, in, out, SL) -> VL 0 or
 * the bounce VL; where two walks want different VLs on one entry, the
 * candidate is refused (a split of SLs by plane could save it; not
 * built).  The SL per dimension keeps apart, at a router, a pair that
 * arrives after its bounce in a lower dimension from one that goes on
 * into the line of its bounce.
 *
 * Deadlock freedom.  VL 0 carries, besides dimension order's paths, the
 * bounced pairs up to their valleys: a prefix of a dimension-order path
 * followed by one line's up*-down* to the valley node, so every such
 * path's channels rise in route/hdor_ft.c's ranking.  The bounce VL
 * carries only the bounced pairs from their valleys on: up*-down* in
 * the line of the bounce from the valley node (it has an up*-down* way
 * to the target: the walk found no second valley), then the higher
 * dimensions in dimension order: ranks rise again.  Packets only ever
 * go from VL 0 to the bounce VL, never back.  So neither VL's graph has
 * a cycle and the edges between them all go one way.  Bounces in
 * opposite directions in one line (the doc's second hazard) meet on the
 * bounce VL only after their valleys, where both are up*-down*.  The
 * argument needs the bounce VL to be the bounce's alone, which it is (a
 * VL past the escape layers' and twists', within the budget), and the
 * walks to be what the packets do: they are the tables.  Since twisted
 * pairs (which go on in dimension order on VL 0 after the twist) and
 * escaped LIDs share the tables of those LIDs' other pairs, the
 * channel dependency graph of the final tables is searched all the
 * same, and the candidate refused when it has a cycle.
 */
#include <stdlib.h>
#include <string.h>

#include "model/routing.h"
#include "route/hdor_ft_int.h"

/* Bound on the (router, LID) pairs walked. */
#define BNC_PAIRS 4000000ull

bool ot_hdor_ft_bounceable(const struct ft_ctx *c, uint32_t l,
			   unsigned int t)
{
	const struct ft_line *fl = &c->line[l];
	uint32_t nsw = c->kns->lines[l].nsw, a, k = c->k;
	bool any = false;

	for (a = 0; a < k; a++) {
		if (a == t || fl->lca[a * k + t] != INF)
			continue;
		if (fl->dist[(size_t)(nsw + a) * fl->nloc + nsw + t] == INF)
			return false;
		any = true;
	}
	return any;
}

uint8_t ot_hdor_ft_bounced(const uint64_t *keys, uint32_t n, int32_t router,
			   uint16_t lid)
{
	uint64_t key = (uint64_t)(uint32_t)router << 16 | lid;
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (keys[mid] >> 8 == key)
			return (uint8_t)(keys[mid] & 0xff);
		if (keys[mid] >> 8 < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static bool is_switch(const struct ot_kns *kns, int32_t x)
{
	return x >= 0 && (uint32_t)x < kns->fabric->nnodes &&
	       kns->role[x] == OT_KNS_SWITCH && kns->line[x] >= 0;
}

unsigned int ot_hdor_ft_valley(const struct ot_kns *kns, const int32_t *nodes,
			       unsigned int len, bool *more)
{
	unsigned int j, first = len;

	*more = false;
	for (j = 1; j + 1 < len; j++) {
		int32_t a = nodes[j - 1], x = nodes[j], b = nodes[j + 1];
		bool low;

		if (!is_switch(kns, a) || !is_switch(kns, b) ||
		    kns->line[a] != kns->line[b] || x < 0 ||
		    (uint32_t)x >= kns->fabric->nnodes)
			continue;
		if (kns->role[x] == OT_KNS_ROUTER)
			low = true;
		else
			low = is_switch(kns, x) && kns->line[x] == kns->line[a] &&
			      kns->stage[x] < kns->stage[a] &&
			      kns->stage[x] < kns->stage[b];
		if (!low)
			continue;
		if (first < len) {
			*more = true;
			break;
		}
		first = j;
	}
	return first;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* What the walks collect: bounced pairs, and SL2VL wishes. */
struct bnc {
	uint64_t *pair; /* (router << 16 | LID) << 8 | dimension */
	size_t npair, cpair;
	/* (((node << 8 | in) << 8 | out) << 8 | dimension) << 1 | after */
	uint64_t *wish;
	size_t nwish, cwish;
};

static int push(uint64_t **v, size_t *n, size_t *cap, uint64_t x)
{
	if (*n == *cap) {
		size_t nc = *cap ? 2 * *cap : 1024;
		uint64_t *m = realloc(*v, nc * sizeof(*m));

		if (!m)
			return -1;
		*v = m;
		*cap = nc;
	}
	(*v)[(*n)++] = x;
	return 0;
}

/*
 * Router r's walk to LID lid along lft, nodes and out ports into
 * nodes/ports (the last node's port: to the CA, or 0); its length, or 0
 * when it does not arrive.
 */
static unsigned int walk(const struct ft_ctx *c, uint8_t **lft, int32_t r,
			 uint16_t lid, int32_t *nodes, uint8_t *ports)
{
	const struct ot_fabric *f = c->f;
	const struct ft_dest *dst = &c->dest[lid];
	unsigned int len = 0;
	int32_t x = r;

	while (x != dst->node) {
		unsigned int p = lft[x][lid];

		if (len > f->nnodes || p == 0 || p == OT_NO_PORT ||
		    p > f->node[x].nports || f->node[x].port[p].peer < 0)
			return 0;
		nodes[len] = x;
		ports[len++] = (uint8_t)p;
		x = f->node[x].port[p].peer;
	}
	nodes[len] = x;
	ports[len++] = dst->kind == DEST_CA ? dst->ca_port : 0;
	return len;
}

/* The bounced pairs and wishes of every router toward the bounce LIDs. */
static int collect(struct ft_ctx *c, uint8_t **lft, struct bnc *b)
{
	const struct ot_fabric *f = c->f;
	const struct ot_kns *kns = c->kns;
	int32_t *nodes = malloc(((size_t)f->nnodes + 2) * sizeof(*nodes));
	uint8_t *ports = malloc((size_t)f->nnodes + 2);
	uint32_t x, lid;
	unsigned int len, v, i, d;
	bool more;
	int error = 0;

	if (!nodes || !ports) {
		error = ot_error_nomem(c->err, "hdor");
		goto out;
	}
	for (x = 0; x < f->nnodes && !error; x++) {
		if (kns->role[x] != OT_KNS_ROUTER)
			continue;
		for (lid = 1; lid <= f->max_lid && !error; lid++) {
			const struct ft_dest *dst = &c->dest[lid];

			if (!c->blid[lid] || c->escape[lid] ||
			    dst->node == (int32_t)x ||
			    (dst->kind != DEST_CA && dst->kind != DEST_ROUTER) ||
			    (c->ntwist &&
			     ot_hdor_ft_twisted(c->twist, c->ntwist, x,
						(uint16_t)lid) >= 0))
				continue;
			len = walk(c, lft, x, (uint16_t)lid, nodes, ports);
			if (!len) {
				error = ot_refuse(c->err, OT_ERR_DAMAGE,
						  "hdor: no bounce from \"%s\" to LID %u",
						  f->node[x].desc, lid);
				break;
			}
			v = ot_hdor_ft_valley(kns, nodes, len, &more);
			if (v == len)
				continue;
			if (more) {
				error = ot_refuse(c->err, OT_ERR_DAMAGE,
						  "hdor: two bounces from \"%s\" to LID %u",
						  f->node[x].desc, lid);
				break;
			}
			d = (unsigned int)kns->dim[nodes[v + 1]];
			if (push(&b->pair, &b->npair, &b->cpair,
				 ((uint64_t)x << 16 | lid) << 8 | d)) {
				error = ot_error_nomem(c->err, "hdor");
				break;
			}
			/* hop 0 leaves the source router: VL 0 by default */
			for (i = 1; i < len && !error; i++) {
				const struct ot_port *pp =
					&f->node[nodes[i - 1]].port[ports[i - 1]];
				uint64_t key;

				if (!ports[i])
					break;
				key = (uint64_t)(uint32_t)nodes[i] << 8 |
				      pp->peer_port;
				key = ((key << 8 | ports[i]) << 8 | d) << 1 |
				      (i >= v);
				if (push(&b->wish, &b->nwish, &b->cwish, key))
					error = ot_error_nomem(c->err, "hdor");
			}
		}
	}
out:
	free(nodes);
	free(ports);
	return error;
}

int ot_hdor_ft_bounce(struct ft_ctx *c, struct ot_routing *out,
		      unsigned int used_vls, uint32_t used_sls,
		      int (*cyclic)(struct ft_ctx *c, struct ot_routing *out))
{
	const struct ot_fabric *f = c->f;
	struct bnc b = { 0 };
	uint8_t dsl[64] = { 0 }, vlb = (uint8_t)used_vls;
	uint64_t dims = 0, nr = 0, nl = 0;
	uint32_t x, lid;
	unsigned int sl, d;
	size_t w, i;
	int error = 0, cyc;

	if (c->n > 64 || used_vls >= c->max_vls || used_vls >= 15)
		return ot_refuse(c->err, OT_ERR_BUDGET,
				 "hdor: no VL left for the bounce");
	for (x = 0; x < f->nnodes; x++)
		nr += c->kns->role[x] == OT_KNS_ROUTER;
	for (lid = 1; lid <= f->max_lid; lid++)
		nl += c->blid[lid];
	if (nr * nl > BNC_PAIRS)
		return ot_refuse(c->err, OT_ERR_BUDGET,
				 "hdor: too many pairs to bounce");
	error = collect(c, out->lft, &b);
	if (error)
		goto out;
	if (!b.npair) {
		error = ot_refuse(c->err, OT_ERR_DAMAGE,
				  "hdor: no pair bounces");
		goto out;
	}
	qsort(b.wish, b.nwish, sizeof(*b.wish), cmp_u64);
	for (w = 1; w < b.nwish; w++)
		if (b.wish[w] >> 1 == b.wish[w - 1] >> 1 &&
		    b.wish[w] != b.wish[w - 1]) {
			x = (uint32_t)(b.wish[w] >> 25);
			error = ot_refuse(c->err, OT_ERR_DAMAGE,
					  "hdor: \"%s\" carries a bounce SL before and after a bounce on the same ports",
					  f->node[x].desc);
			goto out;
		}
	for (i = 0; i < b.npair; i++)
		dims |= 1ull << (b.pair[i] & 0xff);
	/* an SL per dimension of a bounce, the free ones in turn */
	for (d = 0, sl = 2; d < c->n; d++) {
		if (!(dims >> d & 1))
			continue;
		while (sl < OT_NUM_SLS && sl < c->max_sls &&
		       (used_sls >> sl & 1))
			sl++;
		if (sl >= OT_NUM_SLS || sl >= c->max_sls) {
			error = ot_refuse(c->err, OT_ERR_BUDGET,
					  "hdor: no SL left for the bounce");
			goto out;
		}
		dsl[d] = (uint8_t)sl++;
	}
	for (i = 0; i < b.npair; i++)
		b.pair[i] = (b.pair[i] & ~0xffull) | dsl[b.pair[i] & 0xff];
	qsort(b.pair, b.npair, sizeof(*b.pair), cmp_u64);
	/* SL2VL: the bounce SLs on VL 0, the bounce VL where a walk is past its valley */
	for (x = 0; x < f->nnodes; x++) {
		unsigned int np = f->node[x].nports, in, o;
		uint8_t *t = out->sl2vl[x];

		if (!t && !(t = ot_routing_sl2vl_new(out, x))) {
			error = ot_error_nomem(c->err, "hdor");
			goto out;
		}
		for (in = 0; in <= np; in++)
			for (o = 0; o <= np; o++)
				for (d = 0; d < c->n; d++)
					if (dsl[d])
						t[ot_sl2vl_index(np, in, o,
								 dsl[d])] = 0;
	}
	for (w = 0; w < b.nwish; w++) {
		uint64_t k = b.wish[w];
		unsigned int in, o;

		if (!(k & 1))
			continue;
		k >>= 1;
		d = k & 0xff;
		o = k >> 8 & 0xff;
		in = k >> 16 & 0xff;
		x = (uint32_t)(k >> 24);
		out->sl2vl[x][ot_sl2vl_index(f->node[x].nports, in, o,
					     dsl[d])] = vlb;
	}
	c->bkeys = b.pair;
	c->nbkeys = (uint32_t)b.npair;
	b.pair = NULL;
	for (d = 0; d < c->n; d++)
		if (dsl[d])
			c->bvl[dsl[d]] = vlb;
	c->nbounce = 1;
	cyc = cyclic(c, out);
	if (cyc > 0)
		error = ot_refuse(c->err, OT_ERR_DAMAGE,
				  "hdor: the bounce closes a cycle");
	else if (cyc < 0)
		error = -1;
out:
	free(b.pair);
	free(b.wish);
	return error;
}
