// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The FlatFly engines ff-dor, ff-mixed-dor, ff-twisted-dor and
 * ff-twisted-mixed-dor ("Early evaluation of direct large-scale InfiniBand
 * networks with adaptive routing" (seed 001), section 3.3), and the core
 * they share with the ADOR variants (ador.c).  They sit after the FlatFly
 * mapping in the flow (fabric -> ot_ff_map() -> coordinates -> engine ->
 * tables -> checker) and fill, for every switch, the LFT entry of every LID,
 * plus the SL2VL tables and path SLs their deadlock freedom rests on.
 *
 * Plain InfiniBand forwards on the destination LID alone, picks the VL
 * from (input port, output port, SL), and the SL is fixed per path by the
 * source.  Each variant is therefore written as a rule "switch s, packet
 * for LID t -> next switch" that holds for every packet that can be at s
 * for t, whether it comes from a CA of s or is in transit:
 *
 * DOR.  Correct the dimensions in the order of the destination's layer
 * (dimension 0 first for ff-dor), one hop each: a FlatFly line is a full
 * graph.  One VL.  Rank a channel (cable in dimension i) by the position
 * of i in the order: ranks strictly increase along every path, so the
 * channel dependency graph is acyclic (Dally and Seitz).
 *
 * Mixed DOR.  The order is picked by the destination's CA index d (d mod
 * m; with unequal widths, see mixed_layer()) among m = min(ndims, 4)
 * orders, each on its own SL (= path SL, a function of the destination
 * LID) and its own VL (SL2VL: SL l -> VL l).
 * The orders form a Latin rectangle, each dimension at most once in each
 * position: when ndims + 1 is prime, order r is p -> (r + 1)(p + 1) mod
 * (ndims + 1) - 1, which for 4 dimensions gives exactly the seed's orders
 * (1,2,3,4), (2,4,1,3), (3,1,4,2), (4,3,2,1); otherwise the cyclic shifts
 * of (0, 1, ..., ndims - 1).  A destination-only LFT serves every order,
 * since the order is a function of the destination.  Each VL carries the
 * paths of one order only, each acyclic as for DOR.
 *
 * Twisted DOR.  Let L be the last dimension of the destination's order
 * and tau = d mod K_L the twist coordinate.  The paper's rule ("from a
 * host, hop to coordinate tau in L, then DOR") needs per-input tables, but
 * it is destination-only after all: every packet for t in its DOR phase
 * sits on a switch whose coordinate L is tau (the DOR phase corrects L
 * last, and its final hop lands on t's switch T), so a switch s != T with
 * s_L != tau only ever holds packets of its own CAs, and its single entry
 * "hop to tau in L" is the twist; a switch with s_L = tau does DOR for
 * both its own packets and transit.  What changes: (1) a source on T's
 * own switch delivers locally instead of leaving to twist; (2) for
 * Twisted Mixed DOR the twist is in the last dimension of the
 * destination's order, not always in dimension n-1 (with dimension n-1 in
 * the middle of an order, transit packets would cross switches that must
 * twist); (3) with cables missing tau moves, see below.  VLs, the seed's
 * rule through SL2VL: a hop whose input is a CA port (or the switch's
 * port 0) goes on the "first hop" VL F1 (the twist, or the first DOR hop
 * when s_L = tau), every other hop on the VL of its layer.  Deadlock
 * freedom: F1 channels have no predecessor among switch channels, so none
 * lies on a cycle; the other channels carry DOR phases, acyclic per layer
 * as for DOR.  The hop from L into L after a twist (s on T's line: s ->
 * (tau) -> T) is the DOR phase's last hop, rank highest, nothing after it.
 *
 * Missing cables.  When the DOR hop from s to s' in dimension i has no
 * cable, s sends the packet to a switch m on the same line with cables to
 * both (chosen by the destination's place in the dealing order, so the
 * detours spread), and m's own entry goes on to s'; m's entry is the
 * plain rule anyway, as m differs from s only in i.  The second hop in i
 * goes on VL 2l + 1 instead of 2l (SL2VL: input and output port in the
 * same dimension), the seed's ADOR rule; ranks (position of i, 0 or 1)
 * still increase, so each layer costs two VLs once any detour exists.
 * Mixed variants drop orders (4 -> 3 ...) until the VLs fit in 8.  A
 * twist hop without cable detours the same way (s -> m -> (tau), m's
 * entry is its own twist), or goes straight to T when s is on T's line.
 * Its second hop, from L into L, cannot stay on the layer's VL (the DOR
 * phase after it may go down to dimension 0), so once any twist detours,
 * every hop from L into L goes on a VL F2 of its own: its predecessors
 * are first hops (F1) only -- a third hop in L never happens, since a
 * source on T's line does not detour and the DOR phase never enters L
 * from L -- so F2 channels lie on no cycle either.  tau is moved to the
 * next coordinate d + 1, d + 2, ... until the final hop of the DOR phase
 * into T has a cable, so that phase never detours in L.
 *
 * The escape layer.  Some destinations the variant's rule cannot reach
 * from every switch: a hop with no cable and no in-line detour switch
 * (always so in a hypercube, where a line has two switches; in a FlatFly
 * when two sides of a triangle are gone, or a switch lost its whole line
 * in a dimension), a missing switch on a path, a twist from T's line with
 * neither the twist nor the direct cable.  A Mixed destination first
 * moves to the next of the m orders that reaches it from every switch
 * (its path SL says which; that order's VLs already exist, and its paths
 * are that order's DOR paths, so the argument above is unchanged).  A
 * detour through another
 * dimension j would need a backward turn (j, then i earlier in the
 * order), and SL2VL can mark such a turn only at the switch where it
 * happens: the next hop is an ordinary turn on the layer's VL again, so
 * no ranking of channels by (dimension, VL) survives it.  Instead, such a
 * destination is routed whole -- every switch, every source -- on an
 * escape layer: its own path SL (FF_ESCAPE_SL) and its own VL, on every
 * hop (SL2VL maps that SL to the escape VL for every pair of ports), so
 * its packets never share a VL with the variant's.  The escape layer is
 * up*-down* routing on an order phi of the switches: breadth-first
 * distance from the first switch present, then the sum of the
 * coordinates, then the position.  A hop toward a smaller phi goes up,
 * toward a larger one down, and every path is some up hops then some
 * down hops.  Destination-only tables express it: toward T, a switch with
 * an all-down path takes it (to a neighbour that also has one), any other
 * switch goes up to a neighbour with the shortest legal path, so each
 * switch's path -- which is also the tail of every path through it -- is
 * up* down*; the lengths strictly decrease, so there is no forwarding
 * loop.  Every switch has a neighbour nearer the first switch, which
 * reaches every switch going down, so everything connected is reached.
 * Deadlock freedom: rank an up channel x -> y by -phi(y) and a down
 * channel by N + phi(y); along every path of the layer ranks strictly
 * increase (no down hop is ever followed by an up hop), so its channels
 * form no cycle, and they share no VL with another layer.  On a complete
 * FlatFly the distance is the number of non-zero coordinates and the
 * minimal paths (coordinates to 0 first, then down in value, then up,
 * then from 0) are legal, so the escape paths stay close to minimal on
 * a damaged one.  Cost: one VL, only when some destination needs it.
 * Refused, with the switches named: a fabric cut in two (some switch has
 * no path at all), and VLs beyond 8 once Mixed has shed all its orders.
 *
 * Every LID is routed: CA ports (each LMC offset), switches (as a CA with
 * index 0, so their paths are covered by the same argument; a switch's
 * own packets enter through port 0, which SL2VL treats like a CA port).
 * Parallel cables are dealt out over the LIDs in a fixed order (LMC
 * offset, destination coordinates, CA index), so the same fabric gets the
 * same tables whatever its node order: per class of destinations (order
 * or escape layer, LMC offset) evenly, then by weight (see ff_dealer).
 * The offset comes first so that each offset's LIDs, the base LIDs above
 * all, are spread over the cables of a bundle on their own.  Within an
 * offset the final hops into the destinations' switches are dealt before
 * the others, the heaviest first (deal_stages()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/routing.h"
#include "route/ff/ff.h"
#include "topo/flatfly.h"

/* The VL rule of this routing (promise.c applies it). */
static struct ff_vlrule vlrule(const struct ff_ctx *c)
{
	struct ff_vlrule v = {
		.variant = c->variant,
		.norders = c->norders,
		.same_dim_hops = c->same_dim_hops,
		.twist_detour = c->twist_detour,
		.any_escape = c->any_escape,
	};
	unsigned int l;

	for (l = 0; l < c->norders; l++)
		v.last[l] = c->order[l][c->n - 1];
	return v;
}

static int fill_sl2vl(struct ff_ctx *c, struct ot_routing *out)
{
	const struct ot_fabric *f = c->f;
	struct ff_vlrule v = vlrule(c);
	unsigned int in, o, sl, np, dims = c->n + 1;
	/* the rule's row per (input dimension, output dimension), -1 -> 0 */
	uint8_t rows[OT_FF_MAX_DIMS + 1][OT_FF_MAX_DIMS + 1][OT_NUM_SLS];
	int dim[OT_MAX_PORTS + 1];
	uint32_t i;

	for (in = 0; in < dims; in++)
		for (o = 0; o < dims; o++)
			for (sl = 0; sl < OT_NUM_SLS; sl++)
				rows[in][o][sl] = ff_hop_vl(&v, sl, (int)in - 1,
							    (int)o - 1);
	for (i = 0; i < f->nnodes; i++) {
		bool sw = ot_is_switch(f, i);
		uint8_t *t;

		np = f->node[i].nports;
		t = ot_routing_sl2vl_new(out, i);
		if (!t)
			return ot_error_nomem(c->err, c->name);
		for (in = 0; in <= np; in++)
			dim[in] = sw ? ot_ff_port_dim(c->ff, i, in) : -1;
		for (in = 0; in <= np; in++)
			for (o = 0; o <= np; o++)
				memcpy(t + ot_sl2vl_index(np, in, o, 0),
				       rows[dim[in] + 1][dim[o] + 1],
				       OT_NUM_SLS);
	}
	return 0;
}

static uint8_t ff_path_sl(const struct ot_routing *r, uint16_t slid,
			  uint16_t dlid)
{
	const uint8_t *sl = r->priv;

	(void)slid;
	return dlid <= r->max_lid ? sl[dlid] : 0;
}

/*
 * Path SLs (the layer of the destination, or the escape layer's) when
 * there is more than one layer.
 */
static int set_path_sls(struct ff_ctx *c, struct ot_routing *out)
{
	uint8_t *sl;
	uint32_t q;

	if (c->norders <= 1 && !c->any_escape)
		return 0;
	sl = calloc((size_t)c->f->max_lid + 1, 1);
	if (!sl)
		return ot_error_nomem(c->err, c->name);
	for (q = 0; q < c->nlids; q++)
		sl[c->lids[q]] = c->dest[c->lids[q]].escape ?
				 FF_ESCAPE_SL : c->dest[c->lids[q]].layer;
	out->priv = sl;
	out->free_priv = free;
	out->path_sl = ff_path_sl;
	out->path_sl_by_switch = true;
	return 0;
}

static int set_labels(const struct ff_ctx *c, struct ot_routing *out)
{
	const struct ot_fabric *f = c->f;
	char buf[OT_FF_MAX_DIMS * 4 + 4];
	uint32_t i, rank;
	unsigned int p;
	int rc = 0;

	for (i = 0; i < f->nnodes && !rc; i++) {
		const struct ot_port *pt = NULL;

		if (ot_is_switch(f, i)) {
			ff_coords_str(c, c->ff->sw_slot[i], buf, sizeof(buf));
			rc = ot_routing_set_label(out, i, "switch %s", buf);
			continue;
		}
		for (p = 1; p <= f->node[i].nports && !pt; p++)
			if (f->node[i].port[p].peer >= 0 &&
			    ot_is_switch(f, f->node[i].port[p].peer))
				pt = &f->node[i].port[p];
		if (!pt)
			continue;
		ff_coords_str(c, c->ff->sw_slot[pt->peer], buf, sizeof(buf));
		rank = ot_fabric_end_port_rank(f, pt->peer, i, p - 1);
		rc = ot_routing_set_label(out, i, "CA %s/%u", buf, rank);
	}
	return rc ? ot_error_nomem(c->err, c->name) : 0;
}

/* Path SLs the routing takes: one per order, the escape layer's above. */
static unsigned int ff_sls(const struct ff_ctx *c)
{
	return c->any_escape ? FF_ESCAPE_SL + 1u : c->norders;
}

/* Whether the VLs (and, with a budget, the SLs) fit. */
static bool ff_fits(const struct ff_ctx *c, const struct ff_vlrule *v,
		    const struct ot_engine_budget *b)
{
	unsigned int vls = ff_vlrule_vls(v);

	if (vls > FF_MAX_VLS)
		return false;
	return !b || (vls <= b->max_vls && ff_sls(c) <= b->max_sls);
}

static int ff_refuse_budget(const struct ff_ctx *c, const struct ff_vlrule *v,
			    const struct ot_engine_budget *b)
{
	unsigned int vls = ff_vlrule_vls(v);

	if (vls > FF_MAX_VLS || !b)
		return ot_refuse(c->err, OT_ERR_BUDGET,
				 "%s: needs %u VLs, more than %u", c->name,
				 vls, FF_MAX_VLS);
	if (vls > b->max_vls)
		return ot_refuse(c->err, OT_ERR_BUDGET,
				 "%s: %u dimension order%s need%s %u VLs, %s leave %u",
				 c->name, c->norders,
				 c->norders == 1 ? "" : "s",
				 c->norders == 1 ? "s" : "", vls, b->why,
				 b->max_vls);
	return ot_refuse(c->err, OT_ERR_BUDGET,
			 "%s: %u dimension order%s need%s %u SLs, %s leave %u",
			 c->name, c->norders, c->norders == 1 ? "" : "s",
			 c->norders == 1 ? "s" : "", ff_sls(c), b->why,
			 b->max_sls);
}

/*
 * Whether routing on the current orders may fit the VLs (and budget b).
 * The flags that size the VLs only grow from one destination to the
 * next, so when the first destination of each dealing group, routed on
 * its own, already sets flags that do not fit (ADOR's second hop in a
 * dimension, with 4 orders of Twisted Mixed ADOR), the whole routing
 * would not fit either and need not be made.  Errors are left to
 * ff_fill_lfts() (true).
 */
static bool may_fit(struct ff_ctx *c, const struct ot_engine_budget *b)
{
	struct ff_cache x = { .n = 0 };
	struct ff_vlrule v;
	bool fits = true;
	uint32_t q = c->nlids;

	c->same_dim_hops = false;
	c->twist_detour = false;
	c->detours = false;
	c->any_escape = false;
	if (!ff_cache_init(&x, 1, c->ff->nslots))
		q = 0; /* out of memory: ff_fill_lfts() says so */
	for (; q < c->nlids && fits; q++) {
		struct ff_dest t = c->dest[c->lids[q]];
		struct ff_dest failed = { .kind = FF_DEST_NONE };

		if (q && ff_deal_group(&c->dest[c->lids[q - 1]]) ==
			 ff_deal_group(&t))
			continue;
		x.hp[0].valid = false;
		if (ff_route_dest(c, &t, q, &failed, &x))
			break;
		v = vlrule(c);
		fits = ff_fits(c, &v, b);
	}
	ff_cache_free(&x);
	return fits;
}

/*
 * Routes with m orders at most, fewer while they need more VLs than
 * allowed (may_fit(), ff_fits()); *v the VL rule of the routing made.
 */
static int route_orders(struct ff_ctx *c, const struct ot_engine_budget *b,
			unsigned int m, struct ot_routing *out,
			struct ff_vlrule *v)
{
	int error;

	for (;;) {
		ff_build_orders(c, m);
		error = ff_assign_layers(c);
		if (!error && m > 1 && !may_fit(c, b)) {
			m--;
			continue;
		}
		if (!error)
			error = ff_fill_lfts(c, out);
		if (error)
			return error;
		*v = vlrule(c);
		if (ff_fits(c, v, b) || m == 1)
			return 0;
		m--;
	}
}

int ff_route(const char *name, unsigned int variant,
	     const struct ot_fabric *f, const struct ot_engine_budget *b,
	     size_t record_limit, struct ot_routing *out,
	     struct ot_error *err)
{
	struct ff_ctx c = { .name = name, .variant = variant, .f = f,
			    .err = err, .record_limit = record_limit };
	struct ot_ff *ff = NULL;
	struct ff_vlrule v;
	struct ot_error why;
	unsigned int m;
	int error;

	error = ff_map_fabric(f, &ff, &c.sf, &why);
	if (error) {
		ot_error_wrap(err, &why, OT_ERR_TOPOLOGY, name);
		goto out;
	}
	c.ff = ff;
	c.nslots = ff->nslots;
	c.n = ff->ndims;
	if (c.n < 1 || c.n > OT_FF_MAX_DIMS) {
		error = ot_refuse(err, OT_ERR_TOPOLOGY, "%s: %u dimensions",
				  name, c.n);
		goto out;
	}
	error = ff_prepare_switches(&c);
	if (!error)
		ff_sfdim_prepare(&c);
	if (!error)
		error = ff_prepare_dests(&c);
	if (error)
		goto out;
	/*
	 * The Mixed variants start with min(n, 4) orders and give up orders
	 * while detours push the VLs beyond 8, or beyond a budget (QoS
	 * classes); the others have one.  Twisted Mixed routes with each of
	 * its schemes (enum ff_tm_scheme) and keeps the first whose busiest
	 * cable carries the fewest uniform flows, routed again unless it was
	 * the last: a scheme that refuses, or needs more VLs than allowed,
	 * is passed over (the first one's refusal stands).
	 */
	m = (variant & FF_MIXED) ? (c.n < FF_MAX_ORDERS ? c.n : FF_MAX_ORDERS) :
				   1;
	if ((variant & (FF_MIXED | FF_TWISTED)) == (FF_MIXED | FF_TWISTED)) {
		uint64_t peak, least = UINT64_MAX;
		unsigned int s, best = 0;
		struct ot_error quiet;

		for (s = 0; s < FF_TM_SCHEMES; s++) {
			c.tm_scheme = s;
			c.err = s ? &quiet : err;
			error = route_orders(&c, b, m, out, &v);
			if (error && !s)
				goto out;
			if (error || !ff_fits(&c, &v, b))
				continue;
			peak = ff_uniform_peak(&c, out);
			if (peak < least) {
				least = peak;
				best = s;
			}
		}
		c.err = err;
		if (best != FF_TM_SCHEMES - 1 || c.tm_scheme != best) {
			c.tm_scheme = best;
			error = route_orders(&c, b, m, out, &v);
		}
	} else {
		error = route_orders(&c, b, m, out, &v);
	}
	if (error)
		goto out;
	out->nvls = ff_vlrule_vls(&v);
	if (!ff_fits(&c, &v, b)) {
		error = ff_refuse_budget(&c, &v, b);
		goto out;
	}
	out->needs_qos = out->nvls > 1;
	if (out->needs_qos)
		error = fill_sl2vl(&c, out);
	if (!error)
		error = set_path_sls(&c, out);
	if (!error)
		error = set_labels(&c, out);
	if (!error)
		error = ff_set_promise(&c, out, ff);
	if (!error)
		ff = NULL; /* the promise's now */
out:
	free(c.coords);
	free(c.bcnt);
	free(c.bport);
	free(c.dest);
	free(c.lids);
	ot_escape_free(&c.esc.layer);
	free(c.esc.present);
	free(c.esc.start);
	free(c.esc.adj);
	free(c.esc.hop);
	ot_ff_free(ff);
	ff_sfdim_free(c.sf);
	return error;
}
