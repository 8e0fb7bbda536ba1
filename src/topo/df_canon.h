/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Numbers a Dragonfly's or Dragonfly+'s groups, and the switches within
 * each, by the cabling: colour refinement (model/refine.h) on the graph
 * of switches and their cables, each switch's initial colour its role
 * and its number of CA ports.  While two groups end alike, the one
 * holding the smaller GUID is individualized (its switches given colours
 * of their own) and refinement runs again; then, the same way, the
 * smallest GUID of a colour class whose switches are not all twins
 * (twins: cabled to the same switches).  What is left tied is twins
 * (leaves of one group on the same spines: interchangeable), which GUIDs
 * order.  GUIDs also chose which tied group or switch was
 * individualized: on a fabric generated whole those are images of each
 * other under a symmetry, so the numbering changes with the GUIDs but
 * not what it describes.  Port numbers and node order never count.
 */
#ifndef OSMTOPO_DF_CANON_H
#define OSMTOPO_DF_CANON_H

#include <stdint.h>

#include "model/error.h"
#include "model/fabric.h"

/*
 * group[] numbers f's switches' groups 0 .. ngroups - 1 (any order; -1
 * for other nodes), role[] gives each switch a role (what the recognizer
 * tells apart; NULL: all alike).  Renumbers group[] in place: groups by
 * size, largest first, then by their switches' refined colours.  Sets
 * rank[n] for every switch n: its place in an order of all switches by
 * refined colour, then GUID, then node (only twins and ties past
 * refinement reach the GUID).  -1 with err set when out of memory.
 */
int ot_df_canon(const struct ot_fabric *f, int32_t *group, uint32_t ngroups,
		const uint8_t *role, uint32_t *rank, const char *who,
		struct ot_error *err);

#endif
