// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The hdor engine: Hybrid-DOR for k-ary n-direct 1-indirect KNS fabrics
 * ("Implementation and testing of a KNS topology in an InfiniBand cluster"
 * (Gomez-Lopez et al., seed 000), sections 2.2 and 3.2).  It sits after the
 * KNS recognizer in the flow (fabric -> recognizer -> coordinates -> engine
 * -> tables -> checker): given the coordinates of ot_kns_recognize(), it
 * fills every switch's linear forwarding table for every LID of the fabric.
 *
 * A router sends a packet to its own CA if the destination hangs off it,
 * otherwise to its switch of the lowest dimension in which its coordinates
 * differ from the destination's; an indirect switch of dimension d sends it
 * to its router whose coordinate d is the destination's.
 *
 * Deadlock freedom on one VL, for CA-to-CA traffic.  Give every channel
 * (directed cable) a rank: CA -> router 0, router -> switch of dimension d
 * 2d + 1, switch of dimension d -> router 2d + 2, router -> CA 2n + 1.  A
 * Hybrid-DOR path corrects dimensions in strictly increasing order, so the
 * ranks of its channels strictly increase, and every dependency between
 * consecutive channels of a path goes from a lower to a higher rank.  The
 * channel dependency graph therefore has no cycle and no credit loop can
 * form (Dally and Seitz).  The unit tests check this rank property on
 * every CA-to-CA path of several fabrics.
 *
 * Traffic to switch LIDs is routed too (every switch reaches every switch,
 * loop-free), and the promise extends exactly as far as the ranks do:
 * - from a CA or router to a router LID: a Hybrid-DOR path that ends in
 *   the router's management port; ranks increase, so it is covered;
 * - to the LID of an indirect switch T of dimension d: the other
 *   dimensions are corrected in order, then the last hop goes up into T,
 *   which may follow a higher dimension: a rank decrease.  No minimal
 *   route can avoid it (T is only reachable through dimension d);
 * - from an indirect switch's own port 0: its LFT entry, fixed by transit
 *   traffic, sends the packet down toward the destination's coordinate in
 *   its dimension, after which a lower dimension may follow.
 * Each of the last two kinds, together with CA traffic, makes the
 * dependency graph cyclic on VL 0 (checked by building it for 2-ary and
 * 3-ary 2-direct KNSs).  SMPs travel on VL 15, which has no credits, so
 * the subnet manager's own traffic is not concerned; only GMPs on data
 * VLs to or from indirect switches (PerfMgt queries and their answers,
 * vendor MADs) are, a few packets next to the data.  So, precisely: the
 * promise covers every path whose source and destination are CA ports or
 * routers, and not paths that start or end at an indirect switch's port
 * 0.  Giving those their own SL and VL (path_sl plus SL2VL) would close
 * the gap at the price of requiring QoS; hdor does not.
 *
 * Parallel cables (L per router-switch pair) are used evenly: each bundle
 * hands out its cables, in port order, round-robin over the destination
 * LIDs in a fixed order (CAs by LMC offset, then coordinates, then rank
 * on their router; then routers; then indirect switches).  The offset
 * comes first so that the base LIDs, and each further offset, are spread
 * over a bundle's cables on their own.  The order depends on coordinates
 * and GUIDs only, so a fabric gets the same tables whatever its LIDs and
 * discovery order.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/routing.h"
#include "route/deal.h"
#include "route/engines.h"
#include "route/hdor_ft.h"
#include "topo/kns.h"
#include "topo/miscable.h"

enum dest_kind {
	DEST_NONE,
	DEST_CA,
	DEST_ROUTER,
	DEST_SWITCH,
};

/* What the tables need to know about one destination LID. */
struct hdor_dest {
	uint8_t kind;     /* enum dest_kind */
	int8_t sdim;      /* DEST_SWITCH: the switch's dimension */
	uint8_t ca_port;  /* DEST_CA: the router's port to the CA */
	int32_t node;     /* the node owning the LID (for a CA, its router) */
};

struct hdor_ctx {
	const struct ot_fabric *f;
	const struct ot_kns *kns;
	struct ot_error *err;
	unsigned int k, n, links;
	struct hdor_dest *dest; /* max_lid + 1 entries */
	uint16_t *order;        /* routable LIDs in spreading order */
	uint32_t norder;
	int32_t *slot;          /* per switch node: index into up or down */
	/*
	 * Router slot s, dimension d, lane l: up[(s * n + d) * L + l].
	 * Switch slot s, coordinate v, lane l: down[(s * k + v) * L + l].
	 * Lanes are the parallel cables in port order.
	 */
	uint8_t *up, *down;
};

static uint32_t coord_number(const struct hdor_ctx *c, int32_t x,
			     int skip_dim)
{
	const int16_t *co = c->kns->coord + (size_t)x * c->n;
	uint32_t v = 0;
	unsigned int d;

	for (d = c->n; d > 0; d--)
		if ((int)d - 1 != skip_dim)
			v = v * c->k + (uint32_t)co[d - 1];
	return v;
}

/*
 * Classifies every LID and sorts the routable ones into the order the
 * parallel cables are handed out in.
 */
static int prepare_dests(struct hdor_ctx *c)
{
	const struct ot_fabric *f = c->f;
	const struct ot_kns *kns = c->kns;
	uint64_t nrouters = 1, ranks = 1;
	struct ot_deal_key *keys = NULL;
	uint32_t lid, i;
	int error = 0;

	for (i = 0; i < c->n; i++)
		nrouters *= c->k;
	for (i = 0; i < f->nnodes; i++)
		if (kns->role[i] == OT_KNS_ROUTER &&
		    f->node[i].nports + 1u > ranks)
			ranks = f->node[i].nports + 1u;
	c->dest = calloc((size_t)f->max_lid + 1, sizeof(*c->dest));
	c->order = malloc(((size_t)f->max_lid + 1) * sizeof(*c->order));
	keys = malloc(((size_t)f->max_lid + 1) * sizeof(*keys));
	if (!c->dest || !c->order || !keys) {
		error = ot_error_nomem(c->err, "hdor");
		goto out;
	}
	c->norder = 0;
	for (lid = 1; lid <= f->max_lid; lid++) {
		const struct ot_lid_owner *o = &f->lid_owner[lid];
		struct hdor_dest *dst = &c->dest[lid];
		uint64_t key;

		if (o->node < 0)
			continue;
		dst->node = o->node;
		dst->sdim = -1;
		switch (kns->role[o->node]) {
		case OT_KNS_CA: {
			const struct ot_port *pt =
				&f->node[o->node].port[o->port];

			if (pt->peer < 0)
				continue; /* nothing can reach it */
			dst->kind = DEST_CA;
			dst->node = pt->peer;
			dst->ca_port = pt->peer_port;
			key = coord_number(c, o->node, -1);
			key = key * ranks +
			      ot_fabric_end_port_rank(c->f, pt->peer,
						      o->node, o->port);
			key += (uint64_t)(lid - pt->lid) << 54;
			break;
		}
		case OT_KNS_ROUTER:
			dst->kind = DEST_ROUTER;
			key = (1ull << 62) + coord_number(c, o->node, -1);
			break;
		default:
			dst->kind = DEST_SWITCH;
			dst->sdim = kns->dim[o->node];
			key = (2ull << 62) + dst->sdim * nrouters +
			      coord_number(c, o->node, dst->sdim);
			break;
		}
		keys[c->norder].key = key;
		keys[c->norder].lid = lid;
		c->norder++;
	}
	ot_deal_sort(keys, c->norder);
	for (i = 0; i < c->norder; i++)
		c->order[i] = keys[i].lid;
out:
	free(keys);
	return error;
}

/* Lays out the parallel cables of every bundle in port order. */
static int prepare_ports(struct hdor_ctx *c)
{
	const struct ot_fabric *f = c->f;
	const struct ot_kns *kns = c->kns;
	unsigned int n = c->n, k = c->k, L = c->links, p;
	uint32_t i, nr = 0, ns = 0;
	uint8_t fill[OT_MAX_PORTS + 1];
	int error = 0;

	c->slot = malloc((size_t)f->nnodes * sizeof(*c->slot));
	if (!c->slot)
		return ot_error_nomem(c->err, "hdor");
	for (i = 0; i < f->nnodes; i++) {
		c->slot[i] = -1;
		if (kns->role[i] == OT_KNS_ROUTER)
			c->slot[i] = nr++;
		else if (kns->role[i] == OT_KNS_SWITCH)
			c->slot[i] = ns++;
	}
	c->up = malloc((size_t)nr * n * L + 1);
	c->down = malloc((size_t)ns * k * L + 1);
	if (!c->up || !c->down) {
		error = ot_error_nomem(c->err, "hdor");
		goto out;
	}
	for (i = 0; i < f->nnodes; i++) {
		const struct ot_node *nd = &f->node[i];
		int role = kns->role[i];

		if (role == OT_KNS_CA)
			continue;
		memset(fill, 0, sizeof(fill));
		for (p = 1; p <= nd->nports; p++) {
			int32_t x = nd->port[p].peer;
			size_t at;
			unsigned int b;

			if (x < 0 || kns->role[x] == OT_KNS_CA)
				continue;
			if (role == OT_KNS_ROUTER) {
				b = kns->dim[x];
				at = ((size_t)c->slot[i] * n + b) * L;
				c->up[at + fill[b]++] = p;
			} else {
				b = kns->coord[(size_t)x * n + kns->dim[i]];
				at = ((size_t)c->slot[i] * k + b) * L;
				c->down[at + fill[b]++] = p;
			}
		}
	}
out:
	return error;
}

static void fill_router(const struct hdor_ctx *c, int32_t r, uint8_t *lft)
{
	const int16_t *rc = c->kns->coord + (size_t)r * c->n;
	const uint8_t *up = c->up + (size_t)c->slot[r] * c->n * c->links;
	unsigned int n = c->n, L = c->links, d;
	uint8_t lane[OT_MAX_PORTS + 1] = { 0 };
	uint32_t i;

	for (i = 0; i < c->norder; i++) {
		uint16_t lid = c->order[i];
		const struct hdor_dest *dst = &c->dest[lid];
		const int16_t *tc;

		if (dst->node == r) {
			lft[lid] = dst->kind == DEST_CA ? dst->ca_port : 0;
			continue;
		}
		tc = c->kns->coord + (size_t)dst->node * n;
		for (d = 0; d < n; d++)
			if ((int)d != dst->sdim && rc[d] != tc[d])
				break;
		/* only an indirect switch on this router's line is left */
		if (d == n)
			d = dst->sdim;
		lft[lid] = up[d * L + ot_deal_next(&lane[d], L)];
	}
}

static void fill_switch(const struct hdor_ctx *c, int32_t s, uint8_t *lft)
{
	const uint8_t *down = c->down + (size_t)c->slot[s] * c->k * c->links;
	unsigned int n = c->n, L = c->links, v;
	int d = c->kns->dim[s];
	uint8_t lane[OT_MAX_PORTS + 1] = { 0 };
	uint32_t i;

	for (i = 0; i < c->norder; i++) {
		uint16_t lid = c->order[i];
		const struct hdor_dest *dst = &c->dest[lid];

		if (dst->node == s) {
			lft[lid] = 0;
			continue;
		}
		/*
		 * Another switch of this dimension has no coordinate here:
		 * any router will do, and the one at 0 is as good as any.
		 */
		if (dst->sdim == d)
			v = 0;
		else
			v = c->kns->coord[(size_t)dst->node * n + d];
		lft[lid] = down[v * L + ot_deal_next(&lane[v], L)];
	}
}

static bool is_kns_node(const struct ot_kns *kns, int32_t x,
			enum ot_kns_role role)
{
	return x >= 0 && (uint32_t)x < kns->fabric->nnodes &&
	       kns->role[x] == role;
}

/* A path comes from outside: name its nodes without trusting them. */
static const char *path_node(const struct ot_kns *kns, int32_t x)
{
	if (x < 0 || (uint32_t)x >= kns->fabric->nnodes)
		return "?";
	return kns->fabric->node[x].desc;
}

/*
 * Walks the path against the Hybrid-DOR route between its end points:
 * from the source's router, for each dimension d in increasing order where
 * the coordinates differ, the switch of dimension d on the current router's
 * line and then the router that matches the destination in d.
 */
static int hdor_path(const struct ot_kns *kns, const int32_t *nodes,
		     unsigned int len, struct ot_error *err)
{
	const struct ot_fabric *f = kns->fabric;
	unsigned int n = kns->n, d, e, hop, differ = 0;
	int32_t src, dst, cur;
	const int16_t *dc;

	if (!len || !is_kns_node(kns, nodes[0], OT_KNS_CA) ||
	    !is_kns_node(kns, nodes[len - 1], OT_KNS_CA))
		return ot_error_set(err,
				    "path of %u nodes does not run from CA to CA",
				    len);
	src = nodes[0];
	dst = nodes[len - 1];
	if (len == 1)
		return 0;
	dc = kns->coord + (size_t)dst * n;
	for (d = 0; d < n; d++)
		if (kns->coord[(size_t)src * n + d] != dc[d])
			differ++;
	if (len != 2 * differ + 3)
		return ot_error_set(err,
				    "path from CA \"%s\" to CA \"%s\": %u hops where Hybrid-DOR takes %u",
				    f->node[src].desc, f->node[dst].desc,
				    len - 1, 2 * differ + 2);
	cur = kns->router[src];
	if (nodes[1] != cur)
		return ot_error_set(err,
				    "path from CA \"%s\" to CA \"%s\": hop 1 goes to \"%s\", not to the source's router",
				    f->node[src].desc, f->node[dst].desc,
				    path_node(kns, nodes[1]));
	hop = 1;
	for (d = 0; d < n; d++) {
		const int16_t *cc = kns->coord + (size_t)cur * n;
		const int16_t *sc, *nc;
		int32_t sw, next;

		if (cc[d] == dc[d])
			continue;
		/* len was checked against the number of differing dimensions */
		sw = nodes[hop + 1];
		next = nodes[hop + 2];
		if (!is_kns_node(kns, sw, OT_KNS_SWITCH) ||
		    kns->dim[sw] != (int)d)
			return ot_error_set(err,
					    "path from CA \"%s\" to CA \"%s\": hop %u goes to \"%s\" where Hybrid-DOR takes the switch of dimension %u",
					    f->node[src].desc,
					    f->node[dst].desc, hop + 1,
					    path_node(kns, sw), d);
		sc = kns->coord + (size_t)sw * n;
		if (!is_kns_node(kns, next, OT_KNS_ROUTER))
			return ot_error_set(err,
					    "path from CA \"%s\" to CA \"%s\": hop %u goes to \"%s\", not to a router",
					    f->node[src].desc,
					    f->node[dst].desc, hop + 2,
					    path_node(kns, next));
		nc = kns->coord + (size_t)next * n;
		for (e = 0; e < n; e++) {
			int want = e == d ? dc[e] : cc[e];

			if ((e != d && sc[e] != cc[e]) || nc[e] != want)
				return ot_error_set(err,
						    "path from CA \"%s\" to CA \"%s\": hops %u-%u through \"%s\" to \"%s\" do not correct dimension %u alone",
						    f->node[src].desc,
						    f->node[dst].desc,
						    hop + 1, hop + 2,
						    path_node(kns, sw),
						    path_node(kns, next), d);
		}
		cur = next;
		hop += 2;
	}
	if (cur != kns->router[dst])
		return ot_error_set(err,
				    "path from CA \"%s\" to CA \"%s\": ends at router \"%s\", not the destination's",
				    f->node[src].desc, f->node[dst].desc,
				    f->node[cur].desc);
	return 0;
}

/* The promise's rule (see set_promise()): the path is the Hybrid-DOR one. */
static int hdor_rule(const void *ctx, const struct ot_path *p,
		     struct ot_error *why)
{
	return hdor_path(ctx, p->node, p->len, why);
}

static void hdor_free_kns(void *ctx)
{
	ot_kns_free(ctx);
}

/*
 * hdor's promise: between CAs, the Hybrid-DOR path (differing dimensions
 * corrected in increasing order, each by one indirect switch), so minimal
 * and at most 2n switch-to-switch hops, all on VL 0 and SL 0.  The rule
 * keeps the recognized KNS, which the routing then owns.
 */
static void set_promise(struct ot_routing *out, struct ot_kns *kns)
{
	struct ot_promise *p = &out->promise;

	p->text = "Hybrid-DOR: every CA-to-CA path corrects the differing dimensions in increasing order, minimally, on VL 0 and SL 0";
	p->minimal = OT_MINIMAL_ALL;
	p->max_switch_hops = 2 * kns->n;
	p->sls = 1;
	p->rule = hdor_rule;
	p->source_free = true;
	p->rule_text = "the path is the Hybrid-DOR path between its CAs";
	p->ctx = kns;
	p->free_ctx = hdor_free_kns;
}

/*
 * A routing of fat-tree lines on several escape layers (more than 2
 * VLs) against the same fabric's on one (2 VLs): the layers are dealt
 * by loads that leave the twists' settling out (route/hdor_ft_esc.c),
 * and on a fabric where escaped traffic is light beside dimension
 * order's that guess can lose.  So the one-layer routing is made too
 * and kept in out unless the layers' busiest channel under uniform
 * traffic carries less (VLs only where they gain); the layers where the
 * fabric is too large to walk every pair, or the second routing fails.
 */
static void hdor_ft_fewer_layers(const struct ot_fabric *f,
				 const struct ot_kns_numbering *num,
				 const struct ot_engine_budget *b,
				 struct ot_routing *out)
{
	struct ot_engine_budget two = { .max_vls = 2,
					.max_sls = b ? b->max_sls : OT_NUM_SLS,
					.why = "one escape layer" };
	double many = ot_hdor_ft_uniform_max(out), one_max;
	struct ot_routing *one, tmp;
	struct ot_kns *kns = NULL;
	struct ot_error why = { 0 };
	bool looks_ft = false;
	double t = ot_now_ms();

	if (many < 0 || !(one = ot_routing_new(f)))
		return;
	if (!ot_kns_ft_recognize_as(f, num, &kns, &looks_ft, &why) &&
	    !ot_hdor_ft_route(f, kns, &two, one, &why) &&
	    (one_max = ot_hdor_ft_uniform_max(one)) >= 0 &&
	    one_max < many + 1e-9) {
		tmp = *out;
		*out = *one;
		*one = tmp;
	}
	ot_routing_free(one);
	ot_routing_phase(out, "layers", t);
}

/*
 * Escape layers traded for other dimension orders.  The layers are
 * placed first and may take every VL of the budget, leaving the mixing
 * of route/hdor_ft_mix.c none (issue 22's draw of seed 917: VL 1 to 3
 * escape layers, and a router left one cable into its last line takes
 * 131 of its CA's 143 arrivals over it, 148 flows with the escape
 * layers'; no other order can take them off).  So each numbering is
 * routed again with at most 1, 2, ... escape layers
 * (ot_hdor_ft_route_layers(), the escaped LIDs dealt by CA-to-CA
 * traffic), as long as that leaves a VL of the budget to the orders,
 * and the routing whose busiest channel under uniform traffic carries
 * least is set aside; it replaces the routing kept from the numberings
 * at the end only where it carries strictly fewer flows
 * (hdor_ft_aside_keep()).  Aside, not a candidate of each numbering: one
 * that wins there changes which numbering is kept, and the later steps
 * on another numbering can end lower (a draw of the unit test, seed
 * 896's: 0.5349 to 0.5321).  917: one layer and the orders on VL 2,
 * 146 flows.  Only where out uses more than VL 0 (never on an intact
 * fabric) and the other orders are tried (aside not NULL: the gate of
 * hdor_route_budget(), CAs times switches at most HDOR_ORDER_WORK; on a
 * damaged 8 x 8 x 8 KNS of 2,048 CAs beyond it, the routings with fewer
 * layers took 2.5 x the time and changed nothing).
 */
struct hdor_aside;

/*
 * One routing of fat-tree lines by a recognized KNS: as kept, or a
 * candidate (aside: as hdor_ft_route_kept()'s).
 */
typedef int hdor_ft_router(const struct ot_fabric *f, struct ot_kns *kns,
			   const struct ot_kns_numbering *num,
			   const struct ot_engine_budget *b,
			   struct ot_routing *out, struct ot_error *why,
			   struct hdor_aside *aside);

struct hdor_aside {
	struct ot_routing *r; /* NULL: none yet */
	double max;           /* its busiest channel (HUGE_VAL: none) */
	unsigned int lay;     /* the escape layers of the one being made */
};

static bool hdor_ft_keep_better(const struct ot_fabric *f,
				const struct ot_kns_numbering *num,
				hdor_ft_router *route, bool on_vls,
				const struct ot_engine_budget *b,
				struct ot_routing *out, double *best,
				struct hdor_aside *aside);

/* hdor with at most aside->lay escape layers (num is the caller's). */
static int hdor_ft_route_lay(const struct ot_fabric *f, struct ot_kns *kns,
			     const struct ot_kns_numbering *num,
			     const struct ot_engine_budget *b,
			     struct ot_routing *out, struct ot_error *why,
			     struct hdor_aside *aside)
{
	(void)num;
	return ot_hdor_ft_route_layers(f, kns, b, aside->lay, out, why);
}

static void hdor_ft_layers_for_orders(const struct ot_fabric *f,
				      const struct ot_kns_numbering *num,
				      const struct ot_engine_budget *b,
				      const struct ot_routing *out,
				      struct hdor_aside *aside)
{
	/* ot_hdor_ft_route()'s default budget: 4 data VLs */
	unsigned int max = b ? b->max_vls : 4;
	double t = ot_now_ms();

	if (!aside || out->nvls < 2)
		return;
	if (!aside->r && !(aside->r = ot_routing_new(f)))
		return;
	/* VL 0, the layers, and one VL for the orders at least */
	for (aside->lay = 1; aside->lay + 2 <= max; aside->lay++)
		if (hdor_ft_keep_better(f, num, hdor_ft_route_lay, false, b,
					aside->r, &aside->max, aside))
			ot_routing_phase(aside->r, "layers for orders", t);
}

/* The routing set aside into out where it carries less; freed. */
static void hdor_ft_aside_keep(struct ot_routing *out,
			       struct hdor_aside *aside)
{
	struct ot_routing tmp;
	double cur;

	if (aside->r && aside->max < HUGE_VAL &&
	    (cur = ot_hdor_ft_uniform_max(out)) >= 0 &&
	    aside->max < cur - 1e-9) {
		tmp = *out;
		*out = *aside->r;
		*aside->r = tmp;
	}
	ot_routing_free(aside->r);
	aside->r = NULL;
}

/*
 * Candidates routed again from the fabric, each kept in out only where
 * its busiest channel under uniform traffic carries strictly fewer flows
 * than out's (so no fabric gets worse), or as many on fewer VLs, and
 * only where out uses more than VL 0 (never on an intact fabric):
 *  - HDOR_CAND_CA_DEAL: the escaped destinations dealt to their trees
 *    and layers by CA-to-CA traffic alone (route/hdor_ft_esc.c: struct
 *    ca_deal), where that deal saw other loads than out's did;
 *  - HDOR_CAND_BOUNCE: two-plane pairs bounced through a third router of
 *    their line (route/hdor_ft_bounce.c), the escaped destinations dealt
 *    as above with ca_deal.
 * *cur is out's busiest channel (ot_hdor_ft_uniform_max()), updated
 * when the candidate is kept.  Whether it was kept.
 */
enum hdor_cand { HDOR_CAND_CA_DEAL, HDOR_CAND_BOUNCE };

static bool hdor_ft_candidate(const struct ot_fabric *f,
			      const struct ot_kns_numbering *num,
			      const struct ot_engine_budget *b,
			      enum hdor_cand kind, bool ca_deal,
			      struct ot_routing *out, double *cur)
{
	bool bounce = kind == HDOR_CAND_BOUNCE, looks_ft = false;
	bool moved = bounce, kept = false;
	struct ot_routing *o, tmp;
	struct ot_kns *kns = NULL;
	struct ot_error why = { 0 };
	double m, t = ot_now_ms();
	int error;

	if (out->nvls < 2 || (bounce && b && b->max_vls < 2) ||
	    !(o = ot_routing_new(f)))
		return false;
	error = ot_kns_ft_recognize_as(f, num, &kns, &looks_ft, &why);
	if (!error)
		error = bounce ? ot_hdor_ft_route_bounce(f, kns, b, ca_deal, o,
							 &why) :
				 ot_hdor_ft_route_ca(f, kns, b, true, &moved,
						     o, &why);
	if (!error && moved && (m = ot_hdor_ft_uniform_max(o)) >= 0 &&
	    (m < *cur - 1e-9 || (m < *cur + 1e-9 && o->nvls < out->nvls))) {
		tmp = *out;
		*out = *o;
		*o = tmp;
		*cur = m;
		kept = true;
	}
	ot_routing_free(o);
	ot_routing_phase(out, bounce ? "bounce" : "ca-deal", t);
	return kept;
}

/* The candidates above, in turn, on out (its busiest channel walked once). */
static void hdor_ft_candidates(const struct ot_fabric *f,
			       const struct ot_kns_numbering *num,
			       const struct ot_engine_budget *b,
			       struct ot_routing *out)
{
	double cur;
	bool ca;

	if (out->nvls < 2 || (cur = ot_hdor_ft_uniform_max(out)) < 0)
		return;
	ca = hdor_ft_candidate(f, num, b, HDOR_CAND_CA_DEAL, true, out, &cur);
	hdor_ft_candidate(f, num, b, HDOR_CAND_BOUNCE, ca, out, &cur);
}

/*
 * Whether some line has other switches or cables than another line of
 * its dimension: damage (or lines built unlike each other), where the
 * dimensions' order changes what dimension order loads.
 */
static bool hdor_ft_uneven(const struct ot_fabric *f,
			   const struct ot_kns *kns)
{
	uint32_t *cab = calloc((size_t)kns->nlines + 1, sizeof(*cab)), i;
	bool uneven = !cab;

	for (i = 0; cab && i < f->nnodes; i++) {
		unsigned int p;

		if (kns->role[i] != OT_KNS_SWITCH || kns->line[i] < 0)
			continue;
		for (p = 1; p <= f->node[i].nports; p++)
			cab[kns->line[i]] += f->node[i].port[p].peer >= 0;
	}
	for (i = 1; cab && i < kns->nlines && !uneven; i++) {
		const struct ot_kns_line *a = &kns->lines[i - 1];
		const struct ot_kns_line *c = &kns->lines[i];

		uneven = a->dim == c->dim &&
			 (a->nsw != c->nsw || cab[i - 1] != cab[i]);
	}
	free(cab);
	return uneven;
}

/*
 * hdor on fat-tree lines of kns (recognized as num numbers it, NULL: as
 * found; out owns kns from here), then the routings of
 * fewer layers and the candidates above, each kept where it is better.
 */
static int hdor_ft_route_kept(const struct ot_fabric *f, struct ot_kns *kns,
			      const struct ot_kns_numbering *num,
			      const struct ot_engine_budget *b,
			      struct ot_routing *out, struct ot_error *why,
			      struct hdor_aside *aside)
{
	int error = ot_hdor_ft_route(f, kns, b, out, why);

	if (!error && out->nvls > 2)
		hdor_ft_fewer_layers(f, num, b, out);
	if (!error)
		hdor_ft_candidates(f, num, b, out);
	if (!error)
		hdor_ft_layers_for_orders(f, num, b, out, aside);
	return error;
}

/* The other dimension orders drawn from every order (num is the caller's). */
static int hdor_ft_route_every(const struct ot_fabric *f, struct ot_kns *kns,
			       const struct ot_kns_numbering *num,
			       const struct ot_engine_budget *b,
			       struct ot_routing *out, struct ot_error *why,
			       struct hdor_aside *aside)
{
	(void)num;
	(void)aside;
	return ot_hdor_ft_route_orders(f, kns, b, out, why);
}

/* hdor on fat-tree lines, numbered by num, routed by route. */
static int hdor_ft_order(const struct ot_fabric *f,
			 const struct ot_kns_numbering *num,
			 hdor_ft_router *route,
			 const struct ot_engine_budget *b,
			 struct ot_routing *out, struct ot_error *why,
			 struct hdor_aside *aside)
{
	struct ot_kns *kns = NULL;
	bool looks_ft = false;
	int error;

	error = ot_kns_ft_recognize_as(f, num, &kns, &looks_ft, why);
	if (!error)
		error = route(f, kns, num, b, out, why, aside);
	return error;
}

/*
 * Which dimension Hybrid-DOR corrects first is the recognizer's choice by
 * colour refinement (topo/kns_canon.c), GUIDs deciding the ties: on an
 * intact KNS every order gives the same loads, but damage breaks the
 * symmetry (a router left one cable into a line takes every arrival over
 * it when that line comes last), so one order can carry less than the
 * others.  Where some line is unlike the others of its
 * dimension (hdor_ft_uneven()), the other orders are routed too (n at
 * most HDOR_ORDER_DIMS, CAs times switches at most HDOR_ORDER_WORK: each
 * order is a routing of its own, 6 x the time at n = 3, and beyond that
 * size a heavy sweep would take too long), and one is kept in out where
 * its busiest
 * channel under uniform traffic carries strictly fewer flows (the first
 * in lexical order on a tie: the recognizer's own where it ties), its
 * permutation in kept.  Each is a Hybrid-DOR routing of its own
 * numbering, its promise stating it.
 */
#define HDOR_ORDER_DIMS 3
#define HDOR_ORDER_WORK (1u << 17)

/*
 * hdor numbered by num and routed by route, kept in out where its busiest
 * channel under uniform traffic carries strictly fewer flows than *best
 * (then updated), or, where on_vls, as many on fewer VLs (another
 * numbering can reach out's busiest channel without the VL of another
 * dimension order, say).  Whether it was kept; false too when out of
 * memory.
 */
static bool hdor_ft_keep_better(const struct ot_fabric *f,
				const struct ot_kns_numbering *num,
				hdor_ft_router *route, bool on_vls,
				const struct ot_engine_budget *b,
				struct ot_routing *out, double *best,
				struct hdor_aside *aside)
{
	struct ot_routing *o = ot_routing_new(f), tmp;
	struct ot_error why = { 0 };
	bool kept = false;
	double m;

	if (!o)
		return false;
	if (!hdor_ft_order(f, num, route, b, o, &why, aside) &&
	    (m = ot_hdor_ft_uniform_max(o)) >= 0 &&
	    (m < *best - 1e-9 ||
	     (on_vls && m < *best + 1e-9 && o->nvls < out->nvls))) {
		*best = m;
		tmp = *out;
		*out = *o;
		*o = tmp;
		kept = true;
	}
	ot_routing_free(o);
	return kept;
}

static void hdor_ft_best_order(const struct ot_fabric *f, unsigned int n,
			       const struct ot_engine_budget *b,
			       struct ot_routing *out, uint8_t *kept,
			       struct hdor_aside *aside)
{
	uint8_t perm[HDOR_ORDER_DIMS];
	struct ot_kns_numbering num = { .perm = perm };
	double best;
	unsigned int d;
	double t = ot_now_ms();

	for (d = 0; d < n; d++)
		perm[d] = kept[d] = (uint8_t)d;
	if ((best = ot_hdor_ft_uniform_max(out)) < 0)
		return;
	while (ot_hdor_next_perm(perm, n))
		if (hdor_ft_keep_better(f, &num, hdor_ft_route_kept, true,
					b, out, &best, aside))
			memcpy(kept, perm, n);
	ot_routing_phase(out, "orders", t);
}

/*
 * The numbering's other label-free choices (topo/kns.h: each dimension's
 * values, or each stage's switches, in the reverse order of their
 * colours): on a damaged fabric which router is the origin and which
 * spine comes first change what the escape layers, twists and up*-down*
 * inside the lines load, and the one refinement's order gives is no
 * better than another.  Each flip is routed with the dimensions as kept
 * (perm) and kept in out where its busiest channel carries strictly
 * fewer flows; as the orders, only where some line is uneven, and CAs
 * times switches at most HDOR_FLIP_WORK (3 whole routings more, with
 * their candidates: at 2^16 they ran on the 9 x 9 fabric of
 * doc/kns-fattree.md, 162 CAs and 252 switches, at 4 to 5 x the time of
 * the numbering by GUID, against 2 x without; 2^15 leaves them to
 * fabrics of a few thousand pairs of CAs and switches fewer, where a
 * routing takes well under a second).
 */
#define HDOR_FLIP_WORK (1u << 15)
static unsigned int hdor_ft_best_flip(const struct ot_fabric *f,
				      const uint8_t *perm,
				      const struct ot_engine_budget *b,
				      struct ot_routing *out,
				      struct hdor_aside *aside)
{
	struct ot_kns_numbering num = { .perm = perm };
	unsigned int kept = 0;
	double best;
	double t = ot_now_ms();

	if ((best = ot_hdor_ft_uniform_max(out)) < 0)
		return 0;
	for (num.flip = 1; num.flip < OT_KNS_FLIPS; num.flip++)
		if (hdor_ft_keep_better(f, &num, hdor_ft_route_kept, true,
					b, out, &best, aside))
			kept = num.flip;
	ot_routing_phase(out, "flips", t);
	return kept;
}

/*
 * The other dimension orders of route/hdor_ft_mix.c drawn from all six
 * orders of three dimensions (ot_hdor_ft_route_orders()), numbered as
 * num (the numbering kept above, where a flip is in it) and by every
 * order of the dimensions: each kept in out where its busiest channel
 * carries strictly fewer flows.  Of the "e first" orders only one takes
 * the last dimension off last place, and none puts the first last; on
 * seed 454's draw (issue 22) a router left one cable into its last
 * line takes that line's arrivals under all three.  Routings
 * of their own after the others rather than more orders in theirs: a
 * numbering that is better with more orders can be worse after the
 * flips (seed 316's draw: 0.588 to 0.567), and these never are.
 */
static void hdor_ft_every_order(const struct ot_fabric *f,
				const struct ot_kns_numbering *num,
				const struct ot_engine_budget *b,
				struct ot_routing *out)
{
	const struct ot_kns *k = ot_hdor_ft_kns(out);
	uint8_t perm[3] = { 0, 1, 2 };
	struct ot_kns_numbering each = { .perm = perm };
	double cur, t = ot_now_ms();

	if (!k || k->n != 3 || out->nvls < 2 ||
	    (cur = ot_hdor_ft_uniform_max(out)) < 0)
		return;
	if (num->flip)
		hdor_ft_keep_better(f, num, hdor_ft_route_every, false, b,
				    out, &cur, NULL);
	do
		hdor_ft_keep_better(f, &each, hdor_ft_route_every, false, b,
				    out, &cur, NULL);
	while (ot_hdor_next_perm(perm, 3));
	ot_routing_phase(out, "every order", t);
}

/* hdor within budget b (NULL: none; see ot_hdor_ft_route()). */
static int hdor_route_budget(const struct ot_engine *self,
			     const struct ot_fabric *f,
			     const struct ot_engine_budget *b,
			     struct ot_routing *out, struct ot_error *err)
{
	struct hdor_ctx c = { .f = f, .err = err };
	struct ot_kns *kns = NULL;
	struct ot_error why;
	uint32_t i;
	double t;
	int error = 0;

	(void)self;
	t = ot_now_ms();
	error = ot_kns_recognize(f, &kns, &why);
	if (error) {
		struct ot_error ftwhy;
		bool looks_ft = false;

		/* lines built as fat trees: route/hdor_ft.c */
		if (!ot_kns_ft_recognize(f, &kns, &looks_ft, &ftwhy)) {
			unsigned int n = kns->n;
			bool orders = n <= HDOR_ORDER_DIMS &&
				      (uint64_t)f->ncas * f->nswitches <=
					      HDOR_ORDER_WORK &&
				      hdor_ft_uneven(f, kns);
			uint8_t kept[HDOR_ORDER_DIMS];
			struct hdor_aside aside = { .max = HUGE_VAL };

			ot_routing_phase(out, "recognize", t);
			error = hdor_ft_route_kept(f, kns, NULL, b, out, &why,
						   orders ? &aside : NULL);
			if (!error && orders) {
				struct ot_kns_numbering num = { .perm = kept };

				hdor_ft_best_order(f, n, b, out, kept, &aside);
				if ((uint64_t)f->ncas * f->nswitches <=
				    HDOR_FLIP_WORK)
					num.flip = hdor_ft_best_flip(f, kept,
								     b, out,
								     &aside);
				hdor_ft_every_order(f, &num, b, out);
			}
			if (!error)
				hdor_ft_aside_keep(out, &aside);
			ot_routing_free(aside.r);
			if (error)
				ot_error_wrap(err, &why, OT_ERR_TOPOLOGY,
					      "hdor");
			return error;
		}
		ot_error_wrap(err, looks_ft ? &ftwhy : &why, OT_ERR_TOPOLOGY,
			      "hdor");
		goto out;
	}
	ot_routing_phase(out, "recognize", t);
	t = ot_now_ms();
	c.kns = kns;
	c.k = kns->k;
	c.n = kns->n;
	c.links = kns->links;
	error = prepare_dests(&c);
	if (!error)
		error = prepare_ports(&c);
	if (!error)
		error = ot_hdor_set_labels(kns, out, err);
	if (error)
		goto out;
	for (i = 0; i < f->nnodes; i++) {
		if (kns->role[i] == OT_KNS_ROUTER)
			fill_router(&c, i, out->lft[i]);
		else if (kns->role[i] == OT_KNS_SWITCH)
			fill_switch(&c, i, out->lft[i]);
	}
	out->nvls = 1;
	out->needs_qos = false;
	ot_routing_phase(out, "route", t);
	set_promise(out, kns);
	kns = NULL; /* the promise's now */
out:
	free(c.dest);
	free(c.order);
	free(c.slot);
	free(c.up);
	free(c.down);
	ot_kns_free(kns);
	return error;
}

static int hdor_route(const struct ot_engine *self, const struct ot_fabric *f,
		      struct ot_routing *out, struct ot_error *err)
{
	return hdor_route_budget(self, f, NULL, out, err);
}

const struct ot_engine ot_engine_hdor = {
	.name = "hdor",
	.needs = "KNS (k-ary n-direct s-indirect): routers with CAs, each dimension line one switch, several, or a fat tree of s stages; 1 VL, 2 with damage up*-down* cannot route in a line (QoS on), up to 4 where further escape layers or other dimension orders carry more",
	.route = hdor_route,
	.route_budget = hdor_route_budget,
	.fits_one_vl = true,
	.miscabling = ot_kns_miscabling,
};
