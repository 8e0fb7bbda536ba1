/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The Valiant layers df-static shares between its Dragonfly engines
 * (route/df.c: full-graph groups; route/df_plus.c: Dragonfly+).  A LID
 * above LMC offset 0 is routed directly by one group in every
 * ot_valiant_every() (those are the intermediates), every other group
 * sends it through an intermediate group I that lies above both its own
 * group G and the destination's H in the order of groups of some layer
 * l = 1..OT_VALIANT_LAYERS: the first global hop then goes up in that
 * order, the second down, which SL2VL tells apart by the global cable's
 * ends, so each layer needs one VL of its own beside VL 0.  Private to
 * src/route/.
 */
#ifndef OSMTOPO_ROUTE_VALIANT_H
#define OSMTOPO_ROUTE_VALIANT_H

#include <stdbool.h>
#include <stdint.h>

#define OT_VALIANT_LAYERS 3

/* Group X's place in layer l's order: 1 by number, 2 by number
 * reversed, 3 rotated by half the groups (every pair has some I). */
uint32_t ot_valiant_rank(uint32_t ng, unsigned int l, uint32_t X);

/* The first layer where I lies above both G and H, 0 for none. */
unsigned int ot_valiant_layer(uint32_t ng, uint32_t G, uint32_t H,
			      uint32_t I);

/* Whether a global cable from group own to group far goes down in
 * layer l's order. */
bool ot_valiant_down(uint32_t ng, unsigned int l, uint32_t own,
		     uint32_t far);

/* One group in every this many routes a LID directly (ngroups / 8,
 * within 4 and 16: the more groups, the fewer route directly). */
uint32_t ot_valiant_every(uint32_t ng);

#endif
