// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ff-ador, ff-mixed-ador and ff-twisted-ador: Adaptive DOR for FlatFlies
 * ("Early evaluation of direct large-scale InfiniBand networks with adaptive
 * routing" (seed 001), section 3.3) as far as plain InfiniBand can express
 * it. They are variants of the FlatFly engine core in core.c (same place in
 * the flow: ot_ff_map() -> engine -> tables -> checker); this file holds
 * what is ADOR's own, the choice of the extra hop (engines.c refuses a
 * fabric without LMC).
 *
 * The seed's ADOR lets a switch pick, per packet, any switch of the
 * current dimension and take a second hop in it.  A switch cannot choose
 * per packet here, but a source can choose among the LIDs of a
 * destination (LMC): LID offset 0 is the minimal DOR route; offset o > 0
 * corrects every dimension i of K_i >= 3 switches through a "via"
 * coordinate v = t_i + 1 + ((o - 1) mod (K_i - 1)) (mod K_i), so the
 * offsets of one destination cross different intermediate switches and
 * MPI/UCX can spread a pair's traffic over them.  The rule is destination
 * only: a switch on the line whose coordinate i is neither v nor t_i
 * sends the packet to v, the switch at v sends it on to t_i, so a
 * dimension takes at most two hops.  VLs are the seed's: a hop from a
 * port of dimension i into a port of dimension i goes on VL 1 (SL2VL),
 * every other hop on VL 0.  Ranking a channel in dimension i on VL b as
 * 2i + b, ranks strictly increase along every path: dimensions in order,
 * and within a dimension VL 0 then VL 1.  So no credit loop.
 *
 * Missing cables: v is chosen per line (the switches that differ from the
 * destination in i and beyond), among the candidates in the order above,
 * so that the switch at v is cabled to t_i and every other switch of the
 * line is cabled to v or to t_i; a switch without the cable to v goes
 * straight to t_i.  When no candidate qualifies the line routes that
 * offset minimally, with ff-dor's in-line detours.  Hypercubes (K = 2)
 * have no via coordinate: ADOR is DOR there, as the seed says.
 *
 * ff-mixed-ador (the seed's Mixed ADOR): the same rule in each of
 * ff-mixed-dor's dimension orders, the order from the destination's CA
 * index as there; VL 2l for hops in order, 2l + 1 for the second hop in
 * a dimension (SL2VL: input and output port in the same dimension), so 4
 * orders fill 8 VLs and the ranking above holds per order.  ff-twisted-
 * ador (Twisted ADOR): ff-twisted-dor's first hop to the twist
 * coordinate in the last dimension L on its own VL, then ADOR with no
 * extra hop in L, which the twist already was.  That keeps the DOR phase
 * at coordinate tau in L until its last hop, which is what makes the
 * twist destination-only (core.c); VLs: the layer's 0 and 1, the first
 * hop's, and the twist detour's when one is needed.  With cables missing
 * both add core.c's escape VL when needed; Mixed ADOR sheds an order
 * for it.  Twisted Mixed ADOR is not provided: 4 orders of 2 VLs leave
 * no VL for the first hop, so it would be Twisted ADOR on 3 orders at
 * best.
 */
#include "route/ff/ff.h"

/* Whether the line of slot in dimension i can cross through via to goal. */
static bool line_can_cross(const struct ff_ctx *c, uint32_t slot,
			   unsigned int i, unsigned int via, unsigned int goal)
{
	uint32_t vslot = ff_move(c, slot, i, via);
	unsigned int x;

	if (c->ff->slot_node[vslot] < 0 || !ff_has(c, vslot, i, goal))
		return false;
	for (x = 0; x < c->ff->size[i]; x++) {
		uint32_t xs = ff_move(c, slot, i, x);

		if (x == via || x == goal || c->ff->slot_node[xs] < 0)
			continue;
		if (!ff_has(c, xs, i, via) && !ff_has(c, xs, i, goal))
			return false;
	}
	return true;
}

unsigned int ff_ador_via(const struct ff_ctx *c, uint32_t slot,
			 const struct ff_dest *t, unsigned int i)
{
	unsigned int K = c->ff->size[i], goal = ff_coords(c, t->tslot)[i];
	unsigned int j, via;

	if (K < 3 || !t->offset || (int)i == c->sfdim)
		return goal; /* the Slim Fly dimension: its own rule (sfdim.c) */
	for (j = 0; j < K - 1; j++) {
		via = (goal + 1 + (t->offset - 1 + j) % (K - 1)) % K;
		if (c->complete || line_can_cross(c, slot, i, via, goal))
			return via;
	}
	return goal;
}
