/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Orders for qsort() and bsearch() that several layers share: sorted
 * keys are how osmtopo makes a result independent of the order things
 * were found in (discovery, ports, GUIDs), so the comparisons live in
 * one place.
 */
#ifndef OSMTOPO_MODEL_SORT_H
#define OSMTOPO_MODEL_SORT_H

#include <stdint.h>

#include "model/fabric.h"

/* Ascending uint64_t. */
int ot_cmp_u64(const void *a, const void *b);

/*
 * A GUID and what it names (a node index), sorted by GUID: the look-up
 * of a node by GUID in a fabric in another order (an LFT dump read
 * against a net file's fabric, io/lftfile.c).
 */
struct ot_guid_idx {
	uint64_t guid;
	uint32_t idx;
};

/*
 * The node of f with this node GUID, or -1, for a fabric whose nodes are
 * in GUID order, as the readers of OpenSM's subnet (plugin/capture.c), a
 * live fabric (live/live.c) and OpenSM's dumps (io/osmdump.c) add them,
 * so that node indices do not depend on discovery order.
 */
int ot_fabric_find_guid(const struct ot_fabric *f, uint64_t guid);

/* Sorts v[0..n) by GUID (then index, so equal GUIDs sort the same). */
void ot_guid_idx_sort(struct ot_guid_idx *v, uint32_t n);

/* The index paired with guid in sorted v[0..n), or -1. */
int64_t ot_guid_idx_find(const struct ot_guid_idx *v, uint32_t n,
			 uint64_t guid);

#endif
