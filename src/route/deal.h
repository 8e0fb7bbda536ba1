/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Dealing destinations over parallel cables, shared by the engines: the
 * destination LIDs are put in an order that depends only on the topology
 * (coordinates, CA rank on their switch, LMC offset) and each bundle of
 * parallel cables hands out its cables round-robin, in port order, to the
 * destinations that take it, in that order.  So every cable of a bundle
 * carries the same number of destinations (within one), and the same
 * fabric gets the same tables whatever its LIDs and discovery order.
 */
#ifndef OSMTOPO_ROUTE_DEAL_H
#define OSMTOPO_ROUTE_DEAL_H

#include <stdint.h>

/* A destination LID and the engine's key for it. */
struct ot_deal_key {
	uint64_t key;
	uint16_t lid;
};

/*
 * Sorts by key, then LID: a total order, so that even keys an engine
 * made equal by mistake give the same tables on every run.
 */
void ot_deal_sort(struct ot_deal_key *keys, uint32_t n);

/*
 * The next cable of a bundle of `cables`: *lane cycles through
 * 0..cables-1.
 */
static inline unsigned int ot_deal_next(uint8_t *lane, unsigned int cables)
{
	unsigned int l = *lane;

	*lane = l + 1 >= cables ? 0 : l + 1;
	return l;
}

#endif
