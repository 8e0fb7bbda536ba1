/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The numbering a KNS leaves open (which router is the origin, the order
 * of each dimension's values, the order of the dimensions), chosen by
 * colour refinement rather than by GUID, for topo/kns_ft.c: see
 * topo/kns_canon.c.
 */
#ifndef OSMTOPO_TOPO_KNS_CANON_H
#define OSMTOPO_TOPO_KNS_CANON_H

#include <stdint.h>

#include "model/error.h"
#include "topo/kns.h"

/*
 * Renumbers the values of every dimension and the dimensions of kns
 * (coordinates, switches' dimensions, router_at; lines and stages not
 * yet built) in an order the cabling fixes, GUIDs deciding only between
 * routers, values or dimensions that colour refinement cannot tell
 * apart.  colour (kns->fabric->nnodes entries, may be NULL) gets each
 * node's colour under the new numbering: nodes of one colour look alike
 * from it, and the colours' order is the same under any labelling (for
 * the order of a line's switches).  flip (OT_KNS_FLIP_*, topo/kns.h)
 * reverses those orders.  -1 with err set when out of memory.
 */
int ot_kns_canon(struct ot_kns *kns, unsigned int flip, uint32_t *colour,
		 struct ot_error *err);

#endif
