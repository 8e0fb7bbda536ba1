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
#include <sys/types.h>

#include "model/routing.h"
#include "route/deal.h"
#include "route/escape.h"
#include "route/ff/ff.h"
#include "topo/flatfly.h"

static bool is_prime(unsigned int x)
{
	unsigned int q;

	if (x < 2)
		return false;
	for (q = 2; q * q <= x; q++)
		if (x % q == 0)
			return false;
	return true;
}

/*
 * The m dimension orders, a Latin rectangle (see the top of the file):
 * the first m rows of the full one, or for Twisted Mixed when orders are
 * shed, those ending in a dimension with parallel cables first (where
 * its twisted destinations go, see twisted_quotas()), then the others,
 * each group in row order.
 */
static void build_orders(struct ff_ctx *c, unsigned int m)
{
	unsigned int n = c->n, full = n < FF_MAX_ORDERS ? n : FF_MAX_ORDERS;
	unsigned int r, p, k = 0, pass;
	bool tm = (c->variant & (FF_MIXED | FF_TWISTED)) ==
		  (FF_MIXED | FF_TWISTED);

	c->norders = m;
	for (pass = 0; pass < 2; pass++)
		for (r = 0; r < full && k < m; r++) {
			unsigned int last = is_prime(n + 1) ?
				((r + 1) * n) % (n + 1) - 1 : (n - 1 + r) % n;
			bool wide = tm && m < full && c->ff->width[last] > 1;

			if (wide != !pass)
				continue;
			for (p = 0; p < n; p++)
				c->order[k][p] = is_prime(n + 1) ?
					((r + 1) * (p + 1)) % (n + 1) - 1 :
					(p + r) % n;
			k++;
		}
}

/* "[c(n-1),...,c0]" of a position. */
static void coords_str(const struct ff_ctx *c, uint32_t slot, char *buf,
		       size_t len)
{
	const uint8_t *co = ff_coords(c, slot);
	size_t used;
	unsigned int i;

	used = snprintf(buf, len, "[");
	for (i = c->n; i > 0 && used < len; i--)
		used += snprintf(buf + used, len - used, "%u%s", co[i - 1],
				 i > 1 ? "," : "]");
}

/* Names a position for a refusal: the switch there, or its coordinates. */
static void slot_name(const struct ff_ctx *c, uint32_t slot, char *buf,
		      size_t len)
{
	int32_t node = c->ff->slot_node[slot];
	char co[OT_FF_MAX_DIMS * 4 + 4];

	coords_str(c, slot, co, sizeof(co));
	if (node >= 0)
		snprintf(buf, len, "\"%s\" %s", c->f->node[node].desc, co);
	else
		snprintf(buf, len, "the missing switch %s", co);
}

/* The bundle (index into bcnt) of the cable on port p of switch i, or -1. */
static ssize_t port_bundle(const struct ff_ctx *c, uint32_t i, unsigned int p)
{
	const struct ot_ff *ff = c->ff;
	int dim = ot_ff_port_dim(ff, i, p);
	int32_t peer = c->f->node[i].port[p].peer;

	if (dim < 0 || peer < 0 || ff->sw_slot[peer] < 0)
		return -1;
	return (ssize_t)ff->sw_slot[i] * c->sumk + c->koff[dim] +
	       ff_coords(c, ff->sw_slot[peer])[dim];
}

/* Coordinates of every position; the strides and bundle offsets. */
static int prepare_coords(struct ff_ctx *c)
{
	const struct ot_ff *ff = c->ff;
	uint32_t s, rest;
	unsigned int d;

	c->sumk = 0;
	for (d = 0; d < c->n; d++) {
		c->koff[d] = c->sumk;
		c->sumk += ff->size[d];
		c->stride[d] = d ? c->stride[d - 1] * ff->size[d - 1] : 1;
	}
	c->coords = malloc((size_t)ff->nslots * c->n + 1);
	c->bcnt = calloc((size_t)ff->nslots * c->sumk + 1, 1);
	if (!c->coords || !c->bcnt)
		return ot_error_nomem(c->err, c->name);
	for (s = 0; s < ff->nslots; s++) {
		rest = s;
		for (d = 0; d < c->n; d++) {
			c->coords[(size_t)s * c->n + d] = rest % ff->size[d];
			rest /= ff->size[d];
		}
	}
	return 0;
}

/* Counts the cables of every bundle: the widest sizes the port array. */
static int count_bundles(struct ff_ctx *c)
{
	const struct ot_fabric *f = c->f;
	unsigned int p;
	uint32_t i;

	c->maxw = 1;
	for (i = 0; i < f->nnodes; i++) {
		if (!ot_is_switch(f, i))
			continue;
		if (c->ff->sw_slot[i] < 0)
			return ot_refuse(c->err, OT_ERR_TOPOLOGY,
				"%s: switch \"%s\" has no place in the FlatFly mapping",
				c->name, f->node[i].desc);
		for (p = 1; p <= f->node[i].nports; p++) {
			ssize_t b = port_bundle(c, i, p);

			if (b < 0)
				continue;
			if (c->bcnt[b] == 255)
				return ot_refuse(c->err, OT_ERR_TOPOLOGY,
					"%s: switch \"%s\": too many cables to one switch",
					c->name, f->node[i].desc);
			c->bcnt[b]++;
			if (c->bcnt[b] > c->maxw)
				c->maxw = c->bcnt[b];
		}
	}
	return 0;
}

/* Whether every position is filled and every pair in a line cabled. */
static bool is_complete(const struct ff_ctx *c)
{
	unsigned int d, v;
	uint32_t s;

	for (s = 0; s < c->ff->nslots; s++) {
		if (c->ff->slot_node[s] < 0)
			return false;
		for (d = 0; d < c->n; d++)
			for (v = 0; v < c->ff->size[d]; v++)
				if (v != ff_coords(c, s)[d] && !ff_has(c, s, d, v))
					return false;
	}
	return true;
}

/*
 * Coordinates of every position and the bundles of every switch: the
 * cables to each switch of each line, in port order.
 */
static int prepare_switches(struct ff_ctx *c)
{
	const struct ot_fabric *f = c->f;
	unsigned int p;
	uint32_t i;

	if (prepare_coords(c) || count_bundles(c))
		return -1;
	c->bport = malloc((size_t)c->ff->nslots * c->sumk * c->maxw + 1);
	if (!c->bport)
		return ot_error_nomem(c->err, c->name);
	memset(c->bcnt, 0, (size_t)c->ff->nslots * c->sumk);
	for (i = 0; i < f->nnodes; i++) {
		if (!ot_is_switch(f, i))
			continue;
		for (p = 1; p <= f->node[i].nports; p++) {
			ssize_t b = port_bundle(c, i, p);

			if (b >= 0)
				c->bport[b * c->maxw + c->bcnt[b]++] = p;
		}
	}
	c->complete = is_complete(c);
	return 0;
}

/* Classifies every LID and sorts the routable ones into dealing order. */
static int prepare_dests(struct ff_ctx *c)
{
	const struct ot_fabric *f = c->f;
	const struct ot_ff *ff = c->ff;
	struct ot_deal_key *keys = NULL;
	uint32_t lid, q;
	int error = 0;

	c->dest = calloc((size_t)f->max_lid + 1, sizeof(*c->dest));
	c->lids = malloc(((size_t)f->max_lid + 1) * sizeof(*c->lids));
	keys = malloc(((size_t)f->max_lid + 1) * sizeof(*keys));
	if (!c->dest || !c->lids || !keys) {
		error = ot_error_nomem(c->err, c->name);
		goto out;
	}
	c->nlids = 0;
	for (lid = 1; lid <= f->max_lid; lid++) {
		const struct ot_lid_owner *o = &f->lid_owner[lid];
		struct ff_dest *t = &c->dest[lid];
		const struct ot_port *pt;
		uint64_t key;

		if (o->node < 0)
			continue;
		pt = &f->node[o->node].port[o->port];
		t->offset = (lid - pt->lid) & 0x7f;
		if (ot_is_switch(f, o->node)) {
			t->kind = FF_DEST_SWITCH;
			t->tslot = ff->sw_slot[o->node];
			t->port = 0;
			key = (1ull << 62) + ((uint64_t)t->offset << 54) +
			      ((uint64_t)t->tslot << 8);
		} else {
			if (pt->peer < 0 || !ot_is_switch(f, pt->peer))
				continue; /* nothing can reach it */
			t->kind = FF_DEST_CA;
			t->tslot = ff->sw_slot[pt->peer];
			t->port = pt->peer_port;
			t->index = ot_fabric_end_port_rank(f, pt->peer,
							   o->node, o->port);
			key = ((uint64_t)t->offset << 54) +
			      ((((uint64_t)t->tslot << 8) + t->index) << 8);
		}
		keys[c->nlids].key = key;
		keys[c->nlids].lid = lid;
		c->nlids++;
	}
	ot_deal_sort(keys, c->nlids);
	for (q = 0; q < c->nlids; q++)
		c->lids[q] = keys[q].lid;
out:
	free(keys);
	return error;
}

/* Why the hop from s toward coordinate v of dimension i cannot be made. */
static int refuse_hop(const struct ff_ctx *c, uint32_t s, unsigned int i,
		      unsigned int v, const struct ff_dest *t, const char *what)
{
	uint32_t to = ff_move(c, s, i, v);
	char a[OT_ERROR_LEN / 4], b[OT_ERROR_LEN / 4], d[OT_ERROR_LEN / 4];

	slot_name(c, s, a, sizeof(a));
	slot_name(c, to, b, sizeof(b));
	slot_name(c, t->tslot, d, sizeof(d));
	if (c->ff->slot_node[to] < 0)
		return ot_refuse(c->err, OT_ERR_DAMAGE,
			"%s: %s must %s through %s (dimension %u) toward %s",
			c->name, a, what, b, i, d);
	return ot_refuse(c->err, OT_ERR_DAMAGE,
		"%s: the cable %s - %s (dimension %u) is missing and no switch of that line is cabled to both; %s toward %s is impossible",
		c->name, a, b, i, what, d);
}

/*
 * A switch m on s's line in dimension i, cabled to s and to coordinate v,
 * other than s, v and skip; the candidates are tried from a place that
 * depends on seq, so the detours of different LIDs spread.
 */
static int find_detour(struct ff_ctx *c, uint32_t s, unsigned int i,
		       unsigned int v, unsigned int skip, uint32_t seq)
{
	unsigned int K = c->ff->size[i], k, m;
	unsigned int own = ff_coords(c, s)[i];

	c->seq_used = true;
	if ((int)i == c->sfdim)
		return ff_sfdim_detour(c, s, v, skip, seq);
	for (k = 0; k < K; k++) {
		m = (seq + k) % K;
		if (m == own || m == v || m == skip)
			continue;
		if (ff_has(c, s, i, m) && ff_has(c, ff_move(c, s, i, m), i, v))
			return m;
	}
	return -1;
}

/* The twist: s_L != tau, s != T; only packets of s's own CAs are here. */
static int twist_hop(struct ff_ctx *c, uint32_t s, const struct ff_dest *t,
		     unsigned int L, uint32_t seq, struct ff_hop *h)
{
	const uint8_t *sc = ff_coords(c, s), *tc = ff_coords(c, t->tslot);
	bool on_line = true;
	unsigned int i;
	int m;

	h->dim = L;
	h->v = t->tau;
	if (ff_has(c, s, L, t->tau))
		return 0;
	for (i = 0; i < c->n; i++)
		if (i != L && sc[i] != tc[i])
			on_line = false;
	if (on_line && (int)L != c->sfdim) {
		/*
		 * A detour would be followed by a third hop in L (into T),
		 * an F2 -> F2 dependency.  Going straight to T (untwisted)
		 * is a single first hop.
		 */
		h->v = tc[L];
		if (ff_has(c, s, L, tc[L]))
			return 0;
		return refuse_hop(c, s, L, t->tau, t, "twist");
	}
	m = find_detour(c, s, L, t->tau, t->tau, seq);
	if (m < 0)
		return refuse_hop(c, s, L, t->tau, t, "twist");
	h->v = m;
	c->twist_detour = true;
	c->detours = true;
	return 0;
}

/*
 * Whether every switch that must twist toward tau for t can: directly,
 * through a detour, or straight into T from T's line.
 */
static bool twist_works(struct ff_ctx *c, struct ff_dest *t, unsigned int L,
			unsigned int tau)
{
	const uint8_t *tc = ff_coords(c, t->tslot);
	struct ff_hop h;
	uint32_t s;
	bool ok = true;

	if (tau != tc[L] && !ff_has(c, ff_move(c, t->tslot, L, tau), L, tc[L]))
		return false;
	if (c->complete)
		return true;
	t->tau = tau;
	for (s = 0; s < c->ff->nslots && ok; s++) {
		if (c->ff->slot_node[s] < 0 || s == (uint32_t)t->tslot ||
		    ff_coords(c, s)[L] == tau)
			continue;
		ok = !twist_hop(c, s, t, L, 0, &h);
	}
	return ok;
}

/*
 * Puts t on a layer and picks its twist coordinate.  tau starts at
 * d mod K_L and moves on to d + 1, ... while the final DOR hop into T
 * (from the switch at tau on T's line) has no cable, so the DOR phase
 * never detours in L, or while some switch cannot make its twist hop.
 */
static void assign_layer(struct ff_ctx *c, struct ff_dest *t,
			 unsigned int layer)
{
	unsigned int L, K, k, tau;

	t->layer = layer;
	if (!(c->variant & FF_TWISTED))
		return;
	L = c->order[t->layer][c->n - 1];
	K = c->ff->size[L];
	tau = ff_coords(c, t->tslot)[L];
	if ((int)L == c->sfdim)
		K = 0; /* the Slim Fly dimension twists to T's own (sfdim.c) */
	for (k = 0; k < K; k++)
		if (twist_works(c, t, L, (t->twist0 + k) % K)) {
			tau = (t->twist0 + k) % K;
			break;
		}
	t->tau = tau;
}

/*
 * Twisted Mixed: the quotas, when some layer's last dimension has
 * parallel cables and the switch has a CA per layer.  A twisted
 * destination's final hop carries nearly all its flows on one cable; on
 * a line of single cables that cable also carries its share of all the
 * other traffic, about 1 when CAs = K x w, so about 2 in all whatever
 * the dealing (Twisted DOR's bound), while in a bundle the dealing can
 * give it a cable with less (doc/ff-balance.md).  So each layer ending
 * in a bundle gets two CAs (rank 0: tau = T_L, the minimal path, L
 * first; rank 1 twists), each layer ending in single cables then one
 * (rank 0) while they last, and the other CAs go in turn to the layers
 * ending in bundles, where ranks 2, 3, ... twist too.  false: the
 * quotas of mixed_layer().
 */
static bool twisted_quotas(const struct ff_ctx *c, unsigned int *quota,
			   unsigned int *rem)
{
	unsigned int l, g, wide = 0;

	if ((c->variant & (FF_MIXED | FF_TWISTED)) != (FF_MIXED | FF_TWISTED))
		return false;
	for (l = 0; l < c->norders; l++)
		wide += c->ff->width[c->order[l][c->n - 1]] > 1;
	if (!wide || *rem < c->norders)
		return false;
	for (l = 0; l < c->norders && *rem > 1; l++)
		if (c->ff->width[c->order[l][c->n - 1]] > 1) {
			quota[l] = 2;
			*rem -= 2;
		}
	for (l = 0; l < c->norders && *rem; l++)
		if (c->ff->width[c->order[l][c->n - 1]] <= 1) {
			quota[l] = 1;
			(*rem)--;
		}
	while (*rem)
		for (l = 0; l < c->norders && *rem; l++) {
			g = c->ff->width[c->order[l][c->n - 1]];
			if (g > 1) {
				quota[l]++;
				(*rem)--;
			}
		}
	return true;
}

/*
 * Mixed: the layer of CA index d on a switch with ncas CAs.  A layer
 * whose last dimension i has w_i parallel cables hands each cable of
 * the final hop into a switch its CAs of that layer: unless their number
 * is a multiple of w_i, one cable carries a whole line's flows more than
 * its twin (issue 9: 4 CAs over 3 orders is 2, 1, 1, and the layer with
 * a single CA ends on a 2-cable bundle).  So each layer gets a quota of
 * CAs, multiples of w_i handed out round by round while they fit, what
 * is left one by one; the indices go round robin over the layers with
 * quota left.  With equal widths this is d mod m, the seed's rule; the
 * uniform load of a cable does not depend on how the CAs are split
 * among the orders, only on its layers dealing evenly.
 */
static unsigned int mixed_layer(const struct ff_ctx *c, unsigned int d,
				unsigned int ncas, unsigned int *rank)
{
	unsigned int quota[FF_MAX_ORDERS] = { 0 }, used[FF_MAX_ORDERS] = { 0 };
	unsigned int rem = ncas, l, k, g;
	bool more = true;

	*rank = d / c->norders;
	if (d >= ncas)
		return d % c->norders;
	if (twisted_quotas(c, quota, &rem))
		goto deal;
	while (more) {
		more = false;
		for (l = 0; l < c->norders; l++) {
			g = c->ff->width[c->order[l][c->n - 1]];
			g = g ? g : 1;
			if (g <= rem) {
				quota[l] += g;
				rem -= g;
				more = true;
			}
		}
	}
	for (l = 0; rem; l = (l + 1) % c->norders, rem--)
		quota[l]++;
deal:
	for (k = 0, l = 0;; l = (l + 1) % c->norders) {
		if (!quota[l])
			continue;
		if (k++ == d) {
			*rank = used[l];
			return l;
		}
		quota[l]--;
		used[l]++;
	}
}

/*
 * Twisted Mixed: where tau starts.  d mod K_L, as for Twisted DOR, would
 * tie tau to the layer, also picked by d: with 8 CAs, 4 orders and K_L =
 * 8, the CAs of layer l twist to coordinates l and l + 4 only, so a
 * quarter of the switches of each line start the DOR phase of all their
 * line's packets (issue 9: uniform 0.169 on the reference fabric).  So
 * the CA's rank j within its layer, plus T's own coordinate in L: the
 * destinations that share a cable of the DOR phase differ in T_L, so
 * tau takes every coordinate equally often there, and T's CAs of one
 * layer take distinct ones.  The CA with j = 0 twists to T_L itself: its
 * path is minimal, L first (a sum over T's other coordinates instead
 * stays constant over the destinations of a cable late in the order,
 * and measured worse: 0.36 on 2x4x4).  Ranks K_L and beyond take T_L
 * too: the K_L coordinates are used once each, and a second twisted
 * destination of T behind one bundle (a layer with more CAs than K_L,
 * twisted_quotas()) would put a second whole destination on it (4x8x8
 * widths 2,1,1, 8 CAs: 0.4721, 0.5353 without).
 */
static unsigned int twist_start(const struct ff_ctx *c,
				const struct ff_dest *t, unsigned int layer,
				unsigned int rank)
{
	unsigned int L = c->order[layer][c->n - 1];

	if ((c->variant & (FF_MIXED | FF_TWISTED)) !=
	    (FF_MIXED | FF_TWISTED))
		return t->index;
	if (rank >= c->ff->size[L])
		return ff_coords(c, t->tslot)[L];
	return (rank + ff_coords(c, t->tslot)[L]) % c->ff->size[L];
}

/* Every destination on the layer of its CA index (mixed_layer()). */
static int assign_layers(struct ff_ctx *c)
{
	uint16_t *ncas = calloc(c->nslots + 1, sizeof(*ncas));
	uint32_t q;

	if (!ncas)
		return ot_error_nomem(c->err, c->name);
	for (q = 0; q < c->nlids; q++) {
		const struct ff_dest *t = &c->dest[c->lids[q]];

		if (t->kind == FF_DEST_CA && t->index >= ncas[t->tslot])
			ncas[t->tslot] = t->index + 1;
	}
	for (q = 0; q < c->nlids; q++) {
		struct ff_dest *t = &c->dest[c->lids[q]];

		unsigned int rank = t->index, layer = 0;

		if (c->variant & FF_MIXED)
			layer = mixed_layer(c, t->index, ncas[t->tslot], &rank);
		t->twist0 = twist_start(c, t, layer, rank);
		assign_layer(c, t, layer);
	}
	free(ncas);
	return 0;
}

/* The hop that corrects dimension i, the first one s differs from t in. */
static int dor_hop(struct ff_ctx *c, uint32_t s, const struct ff_dest *t,
		   unsigned int i, uint32_t seq, struct ff_hop *h)
{
	const uint8_t *sc = ff_coords(c, s);
	unsigned int goal = ff_coords(c, t->tslot)[i], via = goal;
	int m;

	h->dim = i;
	/*
	 * Twisted ADOR: the twist was the extra hop in the last dimension,
	 * the DOR phase takes none there (seed 001, 3.3).
	 */
	if ((c->variant & FF_ADOR) && t->offset &&
	    !((c->variant & FF_TWISTED) &&
	      i == c->order[t->layer][c->n - 1])) {
		via = ff_ador_via(c, s, t, i);
		if (via != goal && sc[i] != via && ff_has(c, s, i, via)) {
			h->v = via;
			c->same_dim_hops = true;
			return 0;
		}
	}
	h->v = goal;
	if (ff_has(c, s, i, goal))
		return 0;
	/*
	 * Under ADOR a switch on a line with a via coordinate would send a
	 * detour's second hop on to the via switch: only the plain rule
	 * (via == goal) may detour.  ff_ador_via() picks via so that this
	 * does not happen.
	 */
	m = via == goal ? find_detour(c, s, i, goal, goal, seq) : -1;
	if (m < 0)
		return refuse_hop(c, s, i, goal, t, "pass");
	h->v = m;
	c->same_dim_hops = true;
	c->detours |= !ff_sfdim_minimal(c, i);
	return 0;
}

/* The neighbours of slot, as hops; nb holds sumk entries. */
static unsigned int neighbours(const struct ff_ctx *c, uint32_t slot,
			       struct ff_hop *nb)
{
	const uint8_t *co = ff_coords(c, slot);
	unsigned int i, v, k = 0;

	for (i = 0; i < c->n; i++)
		for (v = 0; v < c->ff->size[i]; v++)
			if (v != co[i] && ff_has(c, slot, i, v)) {
				nb[k].dim = i;
				nb[k++].v = v;
			}
	return k;
}

/*
 * The switches as the shared escape layer (route/escape.h) sees them,
 * once per fabric, when a first destination needs it: positions, their
 * neighbours in (dimension, coordinate) order with the hop to each, and
 * ties in the up*-down* order broken by the sum of the coordinates, then
 * the position.
 */
static int escape_prepare(struct ff_ctx *c)
{
	const struct ot_ff *ff = c->ff;
	struct ff_escape *x = &c->esc;
	uint64_t *tiebreak = NULL;
	uint32_t s, k = 0;
	unsigned int i, j, deg, sum;
	int error = 0;

	if (x->ready)
		return 0;
	x->present = calloc((size_t)ff->nslots + 1, 1);
	x->start = malloc(((size_t)ff->nslots + 1) * sizeof(*x->start));
	x->adj = malloc(((size_t)ff->nslots * c->sumk + 1) * sizeof(*x->adj));
	x->hop = malloc(((size_t)ff->nslots * c->sumk + 1) * sizeof(*x->hop));
	tiebreak = malloc(((size_t)ff->nslots + 1) * sizeof(*tiebreak));
	if (!x->present || !x->start || !x->adj || !x->hop || !tiebreak) {
		error = ot_error_nomem(c->err, c->name);
		goto out;
	}
	for (s = 0; s < ff->nslots; s++) {
		x->start[s] = k;
		x->present[s] = ff->slot_node[s] >= 0;
		deg = neighbours(c, s, x->hop + k);
		for (j = 0; j < deg; j++, k++)
			x->adj[k] = ff_move(c, s, x->hop[k].dim, x->hop[k].v);
		for (i = 0, sum = 0; i < c->n; i++)
			sum += ff_coords(c, s)[i];
		tiebreak[s] = ((uint64_t)sum << 32) + s;
	}
	x->start[ff->nslots] = k;
	error = ot_escape_init(&x->layer, ff->nslots, x->present, x->start,
			       x->adj, tiebreak, c->err);
	x->ready = !error;
out:
	free(tiebreak);
	return error;
}

/*
 * The hops toward one destination, from every switch present: where each
 * leads and the bundle it takes (koff[dim] + v; FF_DELIVER at the
 * switches that deliver, which deliver also lists).  When valid, they
 * are the variant's toward every destination with of's rule (not when a
 * hop depended on the LID's sequence number).  gx and run0 are the
 * dealer's (fill_lfts()).
 */
#define FF_DELIVER UINT16_MAX
#define FF_NONE UINT32_MAX

struct ff_hops {
	uint32_t *next;
	uint16_t *bundle;
	uint32_t *deliver, ndeliver;
	uint32_t gen; /* the hops_gen that chose them */
	bool valid;
	struct ff_dest of;
	uint32_t gx; /* their generation in the dealing group, or FF_NONE */
	int run0;    /* a batch column with them, or -1 */
};

/*
 * The last choices of hops: the Mixed variants' CAs of a switch take
 * turns through the orders (FF_MAX_ORDERS), so a rule comes back after
 * a few others.  cur: the buffer of the last destination routed.
 */
#define FF_CACHE FF_MAX_ORDERS

struct ff_cache {
	struct ff_hops hp[FF_CACHE];
	unsigned int n, cur, victim;
};

static int cache_init(struct ff_cache *x, unsigned int n, uint32_t nslots)
{
	unsigned int i;

	x->n = n;
	x->cur = 0;
	x->victim = 0;
	for (i = 0; i < n; i++) {
		struct ff_hops *hp = &x->hp[i];

		hp->next = malloc(((size_t)nslots + 1) * sizeof(*hp->next));
		hp->bundle = malloc(((size_t)nslots + 1) * sizeof(*hp->bundle));
		hp->deliver = malloc(((size_t)nslots + 1) *
				     sizeof(*hp->deliver));
		hp->valid = false;
		hp->gx = FF_NONE;
		hp->run0 = -1;
		if (!hp->next || !hp->bundle || !hp->deliver)
			return -1;
	}
	return 0;
}

static void cache_free(struct ff_cache *x)
{
	unsigned int i;

	for (i = 0; i < x->n; i++) {
		free(x->hp[i].next);
		free(x->hp[i].bundle);
		free(x->hp[i].deliver);
	}
}

/* The buffer a new choice of hops goes to (the oldest), made current. */
static struct ff_hops *cache_take(struct ff_ctx *c, struct ff_cache *x)
{
	struct ff_hops *hp = &x->hp[x->victim];

	x->cur = x->victim;
	x->victim = (x->victim + 1) % x->n;
	hp->gen = ++c->hops_gen;
	hp->valid = false;
	hp->gx = FF_NONE;
	hp->run0 = -1;
	hp->ndeliver = 0;
	return hp;
}

static inline void hops_set(const struct ff_ctx *c, struct ff_hops *hp,
			    uint32_t s, const struct ff_hop *h)
{
	if (h->dim < 0) {
		hp->bundle[s] = FF_DELIVER;
		hp->deliver[hp->ndeliver++] = s;
		return;
	}
	hp->next[s] = ff_move(c, s, h->dim, h->v);
	hp->bundle[s] = c->koff[h->dim] + h->v;
}

/*
 * The escape layer's hop at every switch toward t (see the top of the
 * file), or a refusal naming two switches when it has none: missing
 * cables and switches cut the fabric in two.
 */
static int escape_hops(struct ff_ctx *c, const struct ff_dest *t,
		       uint32_t seq, struct ff_cache *x)
{
	char a[OT_ERROR_LEN / 3], b[OT_ERROR_LEN / 3];
	const struct ff_hop deliver = { .dim = -1 };
	struct ff_hops *hp = cache_take(c, x);
	uint32_t s, next;

	if (escape_prepare(c))
		return -1;
	for (s = 0; s < c->ff->nslots; s++) {
		if (c->ff->slot_node[s] < 0)
			continue;
		switch (ot_escape_hop(&c->esc.layer, s, t->tslot, seq, &next)) {
		case OT_ESCAPE_DELIVER:
			hops_set(c, hp, s, &deliver);
			break;
		case OT_ESCAPE_FORWARD:
			hops_set(c, hp, s, &c->esc.hop[next]);
			break;
		case OT_ESCAPE_CUT:
			slot_name(c, s, a, sizeof(a));
			slot_name(c, t->tslot, b, sizeof(b));
			return ot_refuse(c->err, OT_ERR_DAMAGE,
				"%s: no path at all from %s to %s: missing cables and switches cut the fabric in two",
				c->name, a, b);
		case OT_ESCAPE_NOMEM:
			return ot_error_nomem(c->err, c->name);
		}
	}
	return 0;
}

/*
 * The variant's hop at every switch toward t (the rule at the top of the
 * file), or -1 (err set) when some switch has none; the flags that size
 * the VLs are then left as they were, since t goes to the escape layer.
 * The usual hop -- deliver, twist, or the first dimension in t's order
 * where the switch differs from t, to ADOR's via coordinate or to t's,
 * over a cable that is there -- is taken here with what depends on t
 * alone worked out once; twist_hop() and dor_hop() decide the rest
 * (detours, refusals) as the rule says.
 */
static bool same_rule(const struct ff_ctx *c, const struct ff_dest *a,
		      const struct ff_dest *b);

static int variant_hops(struct ff_ctx *c, const struct ff_dest *t,
			uint32_t seq, struct ff_cache *x)
{
	bool same_dim = c->same_dim_hops, twist = c->twist_detour;
	bool detours = c->detours, via_taken = false;
	const uint8_t *tc = ff_coords(c, t->tslot), *pi = c->order[t->layer];
	const uint8_t *has = c->bcnt, *sc = c->coords;
	const int32_t *node = c->ff->slot_node;
	unsigned int n = c->n, L = pi[n - 1], i, k, v, ador = 0;
	unsigned int tau = t->tau, sumk = c->sumk;
	bool twisted = c->variant & FF_TWISTED;
	uint32_t stride[OT_FF_MAX_DIMS], koff[OT_FF_MAX_DIMS];
	uint32_t s, *next;
	uint16_t *bundle;
	uint8_t via[OT_FF_MAX_DIMS];
	struct ff_hops *hp;
	struct ff_hop h;

	/* a buffer holds t's hops already (the flags were set then) */
	for (i = 0; i < x->n; i++)
		if (x->hp[i].valid && same_rule(c, &x->hp[i].of, t)) {
			x->cur = i;
			return 0;
		}
	hp = cache_take(c, x);
	next = hp->next;
	bundle = hp->bundle;
	c->seq_used = false;
	memcpy(stride, c->stride, sizeof(stride));
	memcpy(koff, c->koff, sizeof(koff));
	/*
	 * ADOR's extra hop (not in the last dimension for Twisted: the
	 * twist was it); its coordinate depends on the line only when
	 * cables are missing.
	 */
	for (i = 0; i < n && (c->variant & FF_ADOR) && t->offset; i++) {
		if (twisted && i == L)
			continue;
		ador |= 1u << i;
		via[i] = ff_ador_via(c, t->tslot, t, i);
	}
	for (s = 0; s < c->ff->nslots; s++, sc += n, has += sumk) {
		if (node[s] < 0)
			continue;
		if (s == (uint32_t)t->tslot) {
			bundle[s] = FF_DELIVER;
			hp->deliver[hp->ndeliver++] = s;
			continue;
		}
		if (twisted && sc[L] != tau) {
			if (has[koff[L] + tau]) {
				next[s] = s + (tau - sc[L]) * stride[L];
				bundle[s] = koff[L] + tau;
				continue;
			}
			if (twist_hop(c, s, t, L, seq, &h))
				goto fail;
			hops_set(c, hp, s, &h);
			continue;
		}
		for (k = 0; k < n - 1 && sc[pi[k]] == tc[pi[k]]; k++)
			;
		i = pi[k];
		v = tc[i];
		if (ador & (1u << i)) {
			unsigned int w = c->complete ? via[i] :
					 ff_ador_via(c, s, t, i);

			if (w != v && sc[i] != w && has[koff[i] + w]) {
				v = w;
				via_taken = true;
			}
		}
		if (has[koff[i] + v]) {
			next[s] = s + (v - sc[i]) * stride[i];
			bundle[s] = koff[i] + v;
			continue;
		}
		if (dor_hop(c, s, t, i, seq, &h))
			goto fail;
		hops_set(c, hp, s, &h);
	}
	c->same_dim_hops |= via_taken;
	hp->valid = !c->seq_used;
	hp->of = *t;
	return 0;
fail:
	c->same_dim_hops = same_dim;
	c->twist_detour = twist;
	c->detours = detours;
	return -1;
}

/*
 * Whether the variant's rules toward a and toward b are the same on
 * every layer fill_lfts() may try (the twist coordinates of the other
 * layers start from twist0).
 */
static bool same_rule(const struct ff_ctx *c, const struct ff_dest *a,
		      const struct ff_dest *b)
{
	unsigned int both = FF_MIXED | FF_TWISTED;

	return a->tslot == b->tslot && a->layer == b->layer &&
	       a->tau == b->tau &&
	       (!(c->variant & FF_ADOR) || a->offset == b->offset) &&
	       ((c->variant & both) != both || a->twist0 == b->twist0);
}

/*
 * Parallel cables are dealt per class of destinations that share them:
 * the dimension order (layer) or the escape layer, and the LID offset.
 * A round robin shared by the layers deals them in step with the CA
 * index that also picks the layer (issue 9: with 2 cables and 4 layers,
 * all of a layer's destinations went on one cable).  And the layers'
 * destinations do not weigh the same: a layer whose first dimension is
 * i sends one switch's flows per destination over a cable of i, a
 * layer whose last is i a whole line's.  So a bundle gives each
 * destination a cable where its class has the fewest so far (the
 * class's destinations differ by at most one per cable), among those
 * the one with the fewest destinations of any class, then the least
 * weight so far, then the first in port order;
 * the weight of a destination at a switch is the number of CAs whose
 * packets for it pass there, counted along the hops just chosen.  The
 * class counts start again with each LID offset (contiguous in the
 * dealing order), the totals and weights do not.
 */
#define FF_CLASSES (FF_ESCAPE_SL + 1)

#define FF_BATCH 64
#define FF_KEEP 0xff

/*
 * The dealing stages (deal_stages()): 1, the final hops into the
 * destination's switch; 2, every hop farther out.
 */
#define FF_STAGES 2

static inline unsigned int ff_stage(uint32_t dist)
{
	return dist < FF_STAGES ? dist : FF_STAGES;
}

/* The dealing group of t: its LID offset, switch LIDs apart. */
static int deal_group(const struct ff_dest *t)
{
	return t->offset + (t->kind == FF_DEST_SWITCH ? 256 : 0);
}

/*
 * A hop into a bundle of parallel cables, to deal: switch slot's bundle
 * k (index slot * sumk + k), where the destination weighs w.
 */
struct ff_deal {
	uint32_t slot;
	uint16_t k;
	uint16_t w;
};

/*
 * One choice of hops (hops_gen) toward a destination, and what it means
 * for the tables: weighed, the hops to deal per stage and the keys of
 * the stages (the hops over single cables need no dealing: their ports
 * go to the batch at once).
 */
struct ff_sheet {
	uint32_t gen;      /* the hops_gen it was made from */
	uint32_t *dist;    /* per slot: hops to t's switch (nslots: never) */
	uint32_t *through; /* per slot: CAs whose packets for t pass there */
	struct ff_deal *deal[FF_STAGES + 1]; /* per stage 1, 2 */
	uint32_t ndeal[FF_STAGES + 1];
	/* per stage: 0 without hops there, else 1 + their largest weight */
	uint32_t key[FF_STAGES + 1];
	uint32_t wmax; /* the largest weight of a hop to deal */
};

/*
 * The destinations of a dealing group that took one choice of hops (one
 * rule, see same_rule()): the keys of their stages and the hops they
 * deal per stage, recorded (at: stage s in store[at[s - 1] .. at[s]]):
 * always for stage 1 (a few final hops), for stage 2 when the memory
 * allows, else chosen again when their turn comes.
 */
struct ff_gen {
	uint32_t key[FF_STAGES + 1];
	uint32_t ndeal[FF_STAGES + 1];
	bool recorded[FF_STAGES + 1];
	size_t at[FF_STAGES + 1];
};

/*
 * The records of stage 2 of a dealing group may take this many bytes per
 * LFT entry of the routing (FF_RECORD_MIN at least); beyond, hops are
 * chosen again.  ff_record_limit, when not SIZE_MAX, overrides it (unit
 * tests: 0, which records no stage at all).
 */
#define FF_RECORD_PER_ENTRY 1
#define FF_RECORD_MIN ((size_t)1 << 22)
size_t ff_record_limit = SIZE_MAX;

struct ff_dealer {
	uint16_t *count;  /* per bundle, class and cable */
	uint32_t *total;  /* per bundle and cable: destinations */
	uint64_t *weight; /* per bundle and cable */
	uint32_t *cas;    /* per slot: CAs of the switch */
	uint32_t *stack;  /* nslots: walks */
	uint32_t *popped; /* nslots: switches as their distance is known */
	uint32_t *dist0;  /* per slot: unknown, nslots for missing switches */
	struct ff_cache cache; /* the hops route_dest() chooses */
	struct ff_sheet sh;
	/*
	 * The entries of the last FF_BATCH destinations, per slot (FF_KEEP:
	 * not written), written to the LFT rows a batch at a time: a
	 * destination's entries lie in every switch's row, 18 KB apart at
	 * 16K, a TLB miss each.
	 */
	uint8_t *col;
	uint16_t col_lid[FF_BATCH];
	unsigned int ncol;
	/* the dealing group's generations, each destination's, the records */
	struct ff_gen *gen;
	uint32_t ngen, capgen, *gx;
	struct ff_deal *store;
	size_t nstore, capstore, budget;
	struct ot_deal_key *order;
};

static int sheet_init(const struct ff_ctx *c, struct ff_sheet *sh)
{
	size_t n = (size_t)c->ff->nslots + 1;
	unsigned int i;

	sh->gen = c->hops_gen;
	sh->dist = malloc(n * sizeof(*sh->dist));
	sh->through = malloc(n * sizeof(*sh->through));
	if (!sh->dist || !sh->through)
		return -1;
	for (i = 1; i <= FF_STAGES; i++) {
		sh->deal[i] = malloc(n * sizeof(*sh->deal[i]));
		if (!sh->deal[i])
			return -1;
	}
	return 0;
}

static void sheet_free(struct ff_sheet *sh)
{
	unsigned int i;

	free(sh->dist);
	free(sh->through);
	for (i = 1; i <= FF_STAGES; i++)
		free(sh->deal[i]);
}

static int dealer_init(const struct ff_ctx *c, struct ff_dealer *d)
{
	size_t nb = (size_t)c->ff->nslots * c->sumk + 1;
	uint32_t s;

	d->count = calloc(nb * FF_CLASSES * c->maxw, sizeof(*d->count));
	d->total = calloc(nb * c->maxw, sizeof(*d->total));
	d->weight = calloc(nb * c->maxw, sizeof(*d->weight));
	d->cas = calloc(c->ff->nslots + 1, sizeof(*d->cas));
	d->stack = calloc(c->ff->nslots + 1, sizeof(*d->stack));
	d->popped = calloc(c->ff->nslots + 1, sizeof(*d->popped));
	d->dist0 = calloc(c->ff->nslots + 1, sizeof(*d->dist0));
	d->col = malloc(((size_t)c->ff->nslots + 1) * FF_BATCH);
	d->gx = malloc(((size_t)c->nlids + 1) * sizeof(*d->gx));
	d->order = malloc(((size_t)c->nlids + 1) * sizeof(*d->order));
	if (cache_init(&d->cache, FF_CACHE, c->ff->nslots) ||
	    sheet_init(c, &d->sh) || !d->count || !d->total || !d->weight ||
	    !d->cas || !d->stack || !d->popped || !d->dist0 || !d->col ||
	    !d->gx || !d->order)
		return -1;
	memset(d->col, FF_KEEP, ((size_t)c->ff->nslots + 1) * FF_BATCH);
	for (s = 0; s < c->ff->nslots; s++) {
		int32_t node = c->ff->slot_node[s];
		unsigned int p;

		d->dist0[s] = node < 0 ? c->ff->nslots : UINT32_MAX;
		for (p = 1; node >= 0 && p <= c->f->node[node].nports; p++) {
			int32_t x = c->f->node[node].port[p].peer;

			d->cas[s] += x >= 0 && !ot_is_switch(c->f, x);
		}
	}
	return 0;
}

static void dealer_free(struct ff_dealer *d)
{
	cache_free(&d->cache);
	sheet_free(&d->sh);
	free(d->col);
	free(d->count);
	free(d->total);
	free(d->weight);
	free(d->cas);
	free(d->stack);
	free(d->popped);
	free(d->dist0);
	free(d->gen);
	free(d->gx);
	free(d->store);
	free(d->order);
}

/*
 * The deliveries of hp into batch column col: its destination's port
 * (its CA's port, or 0 for a switch's LID).
 */
static void hops_deliver(const struct ff_ctx *c, struct ff_dealer *d,
			 const struct ff_hops *hp, uint8_t *col)
{
	uint8_t port = c->dest[d->col_lid[col - d->col]].port;
	uint32_t i;

	for (i = 0; i < hp->ndeliver; i++)
		col[(size_t)hp->deliver[i] * FF_BATCH] = port;
}

/*
 * The deliveries and the ports of the hops over single cables of hp
 * into batch column col.
 */
static void hops_write(const struct ff_ctx *c, struct ff_dealer *d,
		       const struct ff_hops *hp, uint8_t *col)
{
	uint32_t s;

	for (s = 0; s < c->ff->nslots; s++) {
		size_t b;

		if (c->ff->slot_node[s] < 0 || hp->bundle[s] == FF_DELIVER)
			continue;
		b = (size_t)s * c->sumk + hp->bundle[s];
		if (c->bcnt[b] <= 1)
			col[(size_t)s * FF_BATCH] = c->bport[b * c->maxw];
	}
	hops_deliver(c, d, hp, col);
}

/*
 * Batch column `from` into column `to`: the entries of a destination
 * with the same hops before its deliveries (FF_KEEP where hops are dealt
 * later).
 */
static void column_copy(const struct ff_ctx *c, struct ff_dealer *d,
			unsigned int from, unsigned int to)
{
	uint8_t *col = d->col;
	uint32_t s;

	for (s = 0; s < c->ff->nslots; s++, col += FF_BATCH)
		col[to] = col[from];
}

/*
 * The sheet of hp (see struct ff_sheet), and, unless col is NULL, hp's
 * deliveries and ports of the hops over single cables into batch column
 * col.  With parallel cables: each switch's distance to t's switch
 * along its hops, remembered on the way (the hops form a tree into t's
 * switch; a walk that does not end there within nslots hops counts as
 * nslots).  A switch's distance is known before those of the switches
 * whose hops lead to it, so that order, backwards, adds up the weights
 * of t (the CAs whose packets for t pass a switch) from the farthest
 * switches in, each switch's weight complete when its turn comes: its
 * stage key and, for a hop into a bundle, its entry to deal.
 */
static void sheet_make(const struct ff_ctx *c, struct ff_dealer *d,
		       const struct ff_hops *hp, uint8_t *col)
{
	struct ff_sheet *sh = &d->sh;
	const uint32_t n = c->ff->nslots, sumk = c->sumk, maxw = c->maxw;
	const uint32_t *next = hp->next;
	const uint16_t *bundle = hp->bundle;
	const uint8_t *bcnt = c->bcnt, *bport = c->bport;
	uint32_t *dist = sh->dist, *through = sh->through;
	uint32_t *stack = d->stack, *popped = d->popped;
	uint32_t s, x, top, k, npop = 0, wmax = 0;
	uint32_t key[FF_STAGES + 1] = { 0 }, nd[FF_STAGES + 1] = { 0 };

	sh->gen = hp->gen;
	if (maxw == 1) {
		/* nothing to deal: neither weights nor keys matter */
		if (col)
			hops_write(c, d, hp, col);
		goto out;
	}
	/* missing switches count as known: no walk starts or ends there */
	memcpy(dist, d->dist0, n * sizeof(*dist));
	for (k = 0; k < hp->ndeliver; k++)
		dist[hp->deliver[k]] = 0;
	for (s = 0; s < n; s++) {
		if (dist[s] != UINT32_MAX)
			continue;
		x = s;
		top = 0;
		do {
			stack[top++] = x;
			x = next[x];
		} while (dist[x] == UINT32_MAX && top < n);
		k = dist[x] == UINT32_MAX ? n : dist[x];
		do {
			x = stack[--top];
			k += k < n;
			dist[x] = k;
			popped[npop++] = x;
		} while (top);
	}
	memcpy(through, d->cas, n * sizeof(*through));
	while (npop) {
		uint32_t w, st;
		size_t b;

		x = popped[--npop];
		w = through[x];
		st = ff_stage(dist[x]);
		key[st] = w >= key[st] ? w + 1 : key[st];
		if (dist[x] < n)
			through[next[x]] += w;
		b = (size_t)x * sumk + bundle[x];
		if (bcnt[b] > 1) {
			struct ff_deal *e = &sh->deal[st][nd[st]++];

			e->slot = x;
			e->k = bundle[x];
			wmax = w > wmax ? w : wmax;
		} else if (col) {
			col[(size_t)x * FF_BATCH] = bport[b * maxw];
		}
	}
	if (col)
		hops_deliver(c, d, hp, col);
out:
	sh->wmax = wmax;
	memcpy(sh->key, key, sizeof(key));
	memcpy(sh->ndeal, nd, sizeof(nd));
}

/*
 * The cable of bundle b for a destination of class k (layer or escape
 * layer) that weighs `through` there (see above).  Inlined: a call per
 * LFT entry costs more than the pick itself.
 */
static inline __attribute__((always_inline)) unsigned int
dealer_pick(const struct ff_ctx *c, struct ff_dealer *d, unsigned int k,
	    size_t b, uint32_t through)
{
	uint16_t *cnt = d->count + (b * FF_CLASSES + k) * c->maxw;
	uint32_t *all = d->total + b * c->maxw;
	uint64_t *w = d->weight + b * c->maxw;
	unsigned int n = c->bcnt[b], l, best = 0;

	/* two cables (the usual parallel pair): the loop below, unrolled */
	if (n == 2)
		best = cnt[1] != cnt[0] ? cnt[1] < cnt[0] :
		       all[1] != all[0] ? all[1] < all[0] : w[1] < w[0];
	for (l = 1; n > 2 && l < n; l++)
		if (cnt[l] != cnt[best] ? cnt[l] < cnt[best] :
		    all[l] != all[best] ? all[l] < all[best] : w[l] < w[best])
			best = l;
	cnt[best]++;
	all[best]++;
	w[best] += through;
	return best;
}

/*
 * dealer_pick() len times on a bundle of two cables for one class (cnt:
 * its counts, all, w), the counters held in registers meanwhile.
 */
static void deal_pair(uint16_t *cnt, uint32_t *all, uint64_t *w,
		      uint32_t through, const uint8_t *port, uint8_t *dst,
		      unsigned int len)
{
	uint16_t c0 = cnt[0], c1 = cnt[1];
	uint32_t a0 = all[0], a1 = all[1];
	uint64_t w0 = w[0], w1 = w[1];
	unsigned int j;

	for (j = 0; j < len; j++) {
		bool one = c1 != c0 ? c1 < c0 : a1 != a0 ? a1 < a0 : w1 < w0;

		if (one) {
			c1++;
			a1++;
			w1 += through;
		} else {
			c0++;
			a0++;
			w0 += through;
		}
		dst[j] = port[one];
	}
	cnt[0] = c0;
	cnt[1] = c1;
	all[0] = a0;
	all[1] = a1;
	w[0] = w0;
	w[1] = w1;
}

/* 0x80 in each byte of x that is not FF_KEEP (an entry), 0 elsewhere. */
static inline uint64_t written(uint64_t x)
{
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;

	x = ~x; /* FF_KEEP bytes -> 0 */
	return (((x & low7) + low7) | x) & ~low7;
}

/*
 * The batch's entries into the switches' LFT rows.  When the batch's
 * LIDs are consecutive (they follow the dealing order, and so usually
 * do), 8 entries go at once.
 */
static void dealer_flush(const struct ff_ctx *c, struct ff_dealer *d,
			 struct ot_routing *out)
{
	const uint64_t all = 0x8080808080808080ull;
	const uint16_t *lid = d->col_lid;
	unsigned int j, w, nw = d->ncol / 8;
	bool run = true;
	uint32_t s;

	for (j = 1; j < d->ncol && run; j++)
		run = lid[j] == lid[0] + j;
	for (s = 0; s < c->ff->nslots; s++) {
		int32_t node = c->ff->slot_node[s];
		uint8_t *src = d->col + (size_t)s * FF_BATCH, *row;
		bool any = false;

		if (node < 0)
			continue;
		row = out->lft[node];
		for (w = 0; w < nw; w++) {
			uint64_t x, m;

			memcpy(&x, src + 8 * w, 8);
			if (x == UINT64_MAX)
				continue;
			any = true;
			m = written(x);
			if (run && m == all) {
				memcpy(row + lid[0] + 8 * w, &x, 8);
				continue;
			}
			for (; m; m &= m - 1) {
				j = 8 * w + __builtin_ctzll(m) / 8;
				row[lid[j]] = src[j];
			}
		}
		for (j = 8 * nw; j < d->ncol; j++)
			if (src[j] != FF_KEEP) {
				row[lid[j]] = src[j];
				any = true;
			}
		if (any)
			memset(src, FF_KEEP, d->ncol);
	}
	d->ncol = 0;
	for (s = 0; s < d->cache.n; s++)
		d->cache.hp[s].run0 = -1;
}

/*
 * Deals the hops e[0 .. ne - 1] to the destinations lids[0 .. len - 1],
 * which took the same hops, one after the other, into the next columns
 * of the batch.  A bundle's cables depend only on what was dealt from
 * that bundle before, so the destinations can be taken together hop by
 * hop.  The weights are the entries' own, or through's when not NULL.
 */
static void deal_run(const struct ff_ctx *c, struct ff_dealer *d,
		     const struct ff_deal *e, uint32_t ne,
		     const uint32_t *through, const uint16_t *lids,
		     unsigned int len)
{
	uint8_t cls[FF_BATCH], *col = d->col + d->ncol;
	bool one = true; /* one class: the usual run, one rule */
	unsigned int j;
	uint32_t i;

	for (j = 0; j < len; j++) {
		const struct ff_dest *t = &c->dest[lids[j]];

		cls[j] = t->escape ? FF_ESCAPE_SL : t->layer;
		one = one && cls[j] == cls[0];
		d->col_lid[d->ncol + j] = lids[j];
	}
	for (i = 0; i < ne; i++) {
		size_t b = (size_t)e[i].slot * c->sumk + e[i].k;
		uint32_t w = through ? through[e[i].slot] : e[i].w;
		const uint8_t *port = c->bport + b * c->maxw;
		uint8_t *dst = col + (size_t)e[i].slot * FF_BATCH;

		if (one && c->bcnt[b] == 2) {
			deal_pair(d->count + (b * FF_CLASSES + cls[0]) * c->maxw,
				  d->total + b * c->maxw,
				  d->weight + b * c->maxw, w, port, dst, len);
			continue;
		}
		for (j = 0; j < len; j++)
			dst[j] = port[dealer_pick(c, d, cls[j], b, w)];
	}
	d->ncol += len;
}

/* The variant's or the escape layer's hops toward t, as chosen before. */
static int rehop(struct ff_ctx *c, struct ff_dest *t, uint32_t seq,
		 struct ff_cache *x)
{
	return t->escape ? escape_hops(c, t, seq, x) :
			   variant_hops(c, t, seq, x);
}

/*
 * A new generation in the group, from the sheet; its hops to deal
 * recorded when they fit the budget.  Its index, or FF_NONE when out of
 * memory.
 */
static uint32_t gen_new(struct ff_dealer *d)
{
	const struct ff_sheet *sh = &d->sh;
	size_t need = sh->ndeal[1] + sh->ndeal[2];
	bool fits = sh->wmax <= UINT16_MAX;
	struct ff_gen *g;
	unsigned int st;

	if (d->ngen == d->capgen) {
		uint32_t cap = d->capgen * 2 + 64;
		struct ff_gen *x = realloc(d->gen, cap * sizeof(*x));

		if (!x)
			return FF_NONE;
		d->gen = x;
		d->capgen = cap;
	}
	g = &d->gen[d->ngen];
	memcpy(g->key, sh->key, sizeof(g->key));
	memcpy(g->ndeal, sh->ndeal, sizeof(g->ndeal));
	/* stage 1 within any budget but none (the unit tests' 0) */
	g->recorded[1] = fits && d->budget;
	g->recorded[2] = fits && (d->nstore + need) * sizeof(*d->store) <=
					d->budget;
	need = (g->recorded[1] ? sh->ndeal[1] : 0) +
	       (g->recorded[2] ? sh->ndeal[2] : 0);
	if (d->nstore + need > d->capstore) {
		size_t cap = (d->nstore + need) * 2 + 256;
		struct ff_deal *x;

		x = realloc(d->store, cap * sizeof(*x));
		if (!x)
			return FF_NONE;
		d->store = x;
		d->capstore = cap;
	}
	g->at[0] = d->nstore;
	for (st = 1; st <= FF_STAGES; st++) {
		struct ff_deal *e = d->store + d->nstore;
		uint32_t i;

		if (g->recorded[st] && sh->ndeal[st]) {
			memcpy(e, sh->deal[st], sh->ndeal[st] * sizeof(*e));
			for (i = 0; i < sh->ndeal[st]; i++)
				e[i].w = (uint16_t)sh->through[e[i].slot];
			d->nstore += sh->ndeal[st];
		}
		g->at[st] = d->nstore;
	}
	return d->ngen++;
}

/* A new dealing group: no generation yet, no batch column of pass 1. */
static void group_start(struct ff_dealer *d)
{
	unsigned int i;

	d->ngen = 0;
	d->nstore = 0;
	for (i = 0; i < d->cache.n; i++) {
		d->cache.hp[i].gx = FF_NONE;
		d->cache.hp[i].run0 = -1;
	}
}

/*
 * Deals the cables toward the destinations of the group (positions g ..
 * q of the dealing order): first every final hop into a destination's
 * switch, then the hops farther out, and within each stage the
 * destinations whose hops there weigh most first.  The final hop of a
 * twisted destination carries nearly all its flows on one cable, and
 * the hops near a destination more of them than those far out: dealt in
 * LID order, two heavy entries of different classes could be forced
 * onto one cable by the class counts (issue 9, 2x4x4 widths 2,1,1:
 * 0.976 + 0.504 on one dimension-0 cable); a bundle that sees its heavy
 * entries first spreads them, and the light ones, which the class counts
 * force, follow.  Consecutive destinations of one generation are dealt
 * together (deal_run()).
 */
static int deal_stages(struct ff_ctx *c, struct ff_dealer *d, uint32_t g,
		       uint32_t q, struct ot_routing *out)
{
	uint16_t lids[FF_BATCH];
	unsigned int stage, len;
	uint32_t x, y, n, gi;

	/* the class counts start again with each dealing group */
	memset(d->count, 0, ((size_t)c->ff->nslots * c->sumk + 1) *
				    FF_CLASSES * c->maxw * sizeof(*d->count));
	for (stage = 1; stage <= FF_STAGES; stage++) {
		for (x = g, n = 0; x <= q; x++) {
			const struct ff_gen *ge = &d->gen[d->gx[x - g]];

			if (!ge->ndeal[stage])
				continue;
			d->order[n].key = ((uint64_t)(UINT32_MAX -
						      ge->key[stage]) << 32) +
					  x;
			d->order[n++].lid = c->lids[x];
		}
		ot_deal_sort(d->order, n);
		for (x = 0; x < n; x = y) {
			const struct ff_deal *e = d->store;
			const uint32_t *through = NULL;
			const struct ff_gen *ge;

			if (d->ncol == FF_BATCH)
				dealer_flush(c, d, out);
			gi = d->gx[(uint32_t)d->order[x].key - g];
			ge = &d->gen[gi];
			for (y = x, len = 0; y < n && len < FF_BATCH - d->ncol &&
				     d->gx[(uint32_t)d->order[y].key - g] == gi;
			     y++)
				lids[len++] = d->order[y].lid;
			if (ge->recorded[stage]) {
				e += ge->at[stage - 1];
			} else {
				struct ff_hops *hp;

				if (rehop(c, &c->dest[d->order[x].lid],
					  (uint32_t)d->order[x].key, &d->cache))
					return -1;
				hp = &d->cache.hp[d->cache.cur];
				if (d->sh.gen != hp->gen)
					sheet_make(c, d, hp, NULL);
				e = d->sh.deal[stage];
				through = d->sh.through;
			}
			deal_run(c, d, e, ge->ndeal[stage], through, lids, len);
		}
	}
	group_start(d);
	return 0;
}

/*
 * Where t goes from every switch -- the variant on the destination's
 * layer, or for Mixed the next layer that reaches it from everywhere
 * (its path SL follows, no VL is added), or the escape layer when none
 * does -- as hops, x's current buffer; failed remembers a rule that did
 * not work.
 */
static int route_dest(struct ff_ctx *c, struct ff_dest *t, uint32_t q,
		      struct ff_dest *failed, struct ff_cache *x)
{
	struct ff_dest first = *t;
	bool known = failed->kind != FF_DEST_NONE && same_rule(c, failed, t);
	unsigned int k;
	int error;

	t->escape = 0;
	error = known ? -1 : variant_hops(c, t, q, x);
	for (k = 1; error && !known && (c->variant & FF_MIXED) &&
		    k < c->norders; k++) {
		assign_layer(c, t, (first.layer + k) % c->norders);
		error = variant_hops(c, t, q, x);
	}
	if (!error)
		return 0;
	/* the escape layer ignores layer and tau */
	*t = first;
	*failed = first;
	error = escape_hops(c, t, q, x);
	if (error)
		return error;
	t->escape = 1;
	c->any_escape = true;
	return 0;
}

/* The budget of a group's records: see FF_RECORD_PER_ENTRY. */
static size_t record_budget(const struct ff_ctx *c)
{
	size_t b = (size_t)c->nlids * c->ff->nslots * FF_RECORD_PER_ENTRY;

	if (ff_record_limit != SIZE_MAX)
		return ff_record_limit;
	return b > FF_RECORD_MIN ? b : FF_RECORD_MIN;
}

/*
 * Destination by destination (in dealing order) the hops: the entries
 * that need no dealing (deliveries, single cables) go to the tables at
 * once, the hops into bundles are recorded per choice of hops; then per
 * dealing group (LID offset) the cables of each bundle (deal_stages()).
 */
static int fill_lfts(struct ff_ctx *c, struct ot_routing *out)
{
	struct ff_dest failed = { .kind = FF_DEST_NONE };
	struct ff_dealer d = { 0 };
	uint32_t q, g = 0;
	int error = 0;

	if (dealer_init(c, &d)) {
		error = ot_error_nomem(c->err, c->name);
		goto out;
	}
	c->same_dim_hops = false;
	c->twist_detour = false;
	c->detours = false;
	c->any_escape = false;
	d.budget = record_budget(c);
	group_start(&d);
	for (q = 0; q < c->nlids; q++) {
		struct ff_dest *t = &c->dest[c->lids[q]];
		struct ff_hops *hp;
		uint8_t *col;

		error = route_dest(c, t, q, &failed, &d.cache);
		if (error)
			goto out;
		hp = &d.cache.hp[d.cache.cur];
		if (d.ncol == FF_BATCH)
			dealer_flush(c, &d, out);
		col = d.col + d.ncol;
		d.col_lid[d.ncol] = c->lids[q];
		if (hp->gx == FF_NONE) {
			if (d.sh.gen != hp->gen)
				sheet_make(c, &d, hp, col);
			else
				hops_write(c, &d, hp, col);
			hp->gx = gen_new(&d);
			if (hp->gx == FF_NONE) {
				error = ot_error_nomem(c->err, c->name);
				goto out;
			}
		} else if (hp->run0 >= 0) {
			column_copy(c, &d, hp->run0, d.ncol);
			hops_deliver(c, &d, hp, col);
		} else {
			hops_write(c, &d, hp, col);
		}
		if (hp->run0 < 0)
			hp->run0 = d.ncol;
		d.ncol++;
		d.gx[q - g] = hp->gx;
		if (q + 1 < c->nlids &&
		    deal_group(&c->dest[c->lids[q + 1]]) == deal_group(t))
			continue;
		error = deal_stages(c, &d, g, q, out);
		if (error)
			goto out;
		g = q + 1;
	}
	dealer_flush(c, &d, out);
out:
	dealer_free(&d);
	return error;
}

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
		t = malloc((size_t)(np + 1) * (np + 1) * OT_NUM_SLS);
		if (!t)
			return ot_error_nomem(c->err, c->name);
		out->sl2vl[i] = t;
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
			coords_str(c, c->ff->sw_slot[i], buf, sizeof(buf));
			rc = ot_routing_set_label(out, i, "switch %s", buf);
			continue;
		}
		for (p = 1; p <= f->node[i].nports && !pt; p++)
			if (f->node[i].port[p].peer >= 0 &&
			    ot_is_switch(f, f->node[i].port[p].peer))
				pt = &f->node[i].port[p];
		if (!pt)
			continue;
		coords_str(c, c->ff->sw_slot[pt->peer], buf, sizeof(buf));
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
 * fill_lfts() (true).
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
	if (!cache_init(&x, 1, c->ff->nslots))
		q = 0; /* out of memory: fill_lfts() says so */
	for (; q < c->nlids && fits; q++) {
		struct ff_dest t = c->dest[c->lids[q]];
		struct ff_dest failed = { .kind = FF_DEST_NONE };

		if (q && deal_group(&c->dest[c->lids[q - 1]]) == deal_group(&t))
			continue;
		x.hp[0].valid = false;
		if (route_dest(c, &t, q, &failed, &x))
			break;
		v = vlrule(c);
		fits = ff_fits(c, &v, b);
	}
	cache_free(&x);
	return fits;
}

int ff_route(const char *name, unsigned int variant,
	     const struct ot_fabric *f, const struct ot_engine_budget *b,
	     struct ot_routing *out, struct ot_error *err)
{
	struct ff_ctx c = { .name = name, .variant = variant, .f = f,
			    .err = err };
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
	error = prepare_switches(&c);
	if (!error)
		ff_sfdim_prepare(&c);
	if (!error)
		error = prepare_dests(&c);
	if (error)
		goto out;
	/*
	 * The Mixed variants start with min(n, 4) orders and give up orders
	 * while detours push the VLs beyond 8, or beyond a budget (QoS
	 * classes); the others have one.
	 */
	m = (variant & FF_MIXED) ? (c.n < FF_MAX_ORDERS ? c.n : FF_MAX_ORDERS) :
				   1;
	for (;;) {
		build_orders(&c, m);
		error = assign_layers(&c);
		if (!error && m > 1 && !may_fit(&c, b)) {
			m--;
			continue;
		}
		if (!error)
			error = fill_lfts(&c, out);
		if (error)
			goto out;
		v = vlrule(&c);
		if (ff_fits(&c, &v, b) || m == 1)
			break;
		m--;
	}
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
