/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Coordinates for a KNS whose fat-tree lines are damaged inside
 * (topo/kns_dmg.c), the fallback of ot_kns_ft_recognize() when the lines
 * taken as single switches are no KNS of s = 1: a router that lost every
 * cable into one of its lines, a line split in two.  Private to
 * src/topo/.
 */
#ifndef OSMTOPO_TOPO_KNS_DMG_H
#define OSMTOPO_TOPO_KNS_DMG_H

#include <stdbool.h>
#include <stdint.h>

#include "model/error.h"
#include "model/fabric.h"

/*
 * The line parts of a fabric: sets of line switches joined by cables
 * (merged when they share two routers or more), each with the routers
 * cabled to it.
 */
struct ot_kns_parts {
	const struct ot_fabric *f;
	const bool *is_router; /* per node */
	uint32_t nparts;
	const uint32_t *start; /* part p's routers: router[start[p]..start[p + 1]) */
	const int32_t *router; /* nodes, sorted and unique per part */
	const int32_t *rep;    /* per part: its switch with the lowest GUID */
};

/*
 * Finds k, n, every router's coordinates (coord[node * n + d], allocated
 * here; -1 for other nodes) and every part's dimension (pdim, nparts
 * entries) from the parts alone, or refuses naming the switch where the
 * fabric is ambiguous or no damaged KNS.  *by_colour: whether some
 * piece's place was left open by the cabling and taken by colour.  0,
 * or -1 with err set.
 */
int ot_kns_dmg_place(const struct ot_kns_parts *pp, unsigned int *k,
		     unsigned int *n, int16_t **coord, int8_t *pdim,
		     bool *by_colour, struct ot_error *err);

#endif
