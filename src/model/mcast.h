/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Multicast state of a fabric: the groups the SA knows (MLID, MGID, SL
 * and member ports) and every switch's multicast forwarding table (MFT)
 * as far as the groups need it.  Filled by the live reader
 * (src/live/mcast.c) or by a test; checked by src/check/mcast.c.
 */
#ifndef OSMTOPO_MODEL_MCAST_H
#define OSMTOPO_MODEL_MCAST_H

#include <stdbool.h>
#include <stdint.h>

#include "model/fabric.h"

/* The first multicast LID (IBA vol. 1, 4.1.3). */
#define OT_MLID_BASE 0xC000u

struct ot_mcast_member {
	int32_t node;
	uint8_t port; /* a CA or router port, or 0 for a switch */
};

struct ot_mcast_group {
	uint16_t mlid;
	uint8_t mgid[16];
	uint8_t sl;
	uint32_t nmembers;
	struct ot_mcast_member *member;
};

struct ot_mcast {
	const struct ot_fabric *fabric;
	uint32_t nmlids;  /* MFT columns: MLIDs OT_MLID_BASE .. + nmlids - 1 */
	/*
	 * mft[n]: NULL for a node that is no switch; else nmlids rows of
	 * ot_mcast_words(nports) 16-bit words, bit b of word w = port
	 * 16 w + b (the MulticastForwardingTable's PortMask layout).
	 */
	uint16_t **mft;
	uint32_t ngroups;
	struct ot_mcast_group *group;
};

static inline unsigned int ot_mcast_words(unsigned int nports)
{
	return nports / 16 + 1;
}

/* An empty state with room for nmlids MLIDs; NULL when out of memory. */
struct ot_mcast *ot_mcast_new(const struct ot_fabric *f, uint32_t nmlids);
void ot_mcast_free(struct ot_mcast *mc);

/* Adds a group (no members yet); NULL when out of memory. */
struct ot_mcast_group *ot_mcast_add_group(struct ot_mcast *mc, uint16_t mlid,
					  const uint8_t mgid[16], uint8_t sl);
int ot_mcast_add_member(struct ot_mcast_group *g, int32_t node, uint8_t port);

/* Whether switch n forwards MLID mlid to port p (false beyond the table). */
bool ot_mcast_forwards(const struct ot_mcast *mc, int32_t n, uint16_t mlid,
		       unsigned int p);
/* Sets or clears port p of switch n for mlid; -1 when out of range. */
int ot_mcast_set(struct ot_mcast *mc, int32_t n, uint16_t mlid, unsigned int p,
		 bool on);

#endif
