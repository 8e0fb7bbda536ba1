/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Forwarding trees: toward one destination LID the
 * LFTs give every switch one next hop, so the switches form a tree (or
 * fall into a loop, or drop).  ot_fwdtree_resolve() follows a source
 * switch's LFT entries once per switch and destination, memoised: every
 * switch met gets the outcome, and the switches are appended to order[] as
 * they are met, so a later walk only ever leads into earlier ones.  Used
 * by the channel dependency graph of unicast (model/cdg.h), and through
 * it by the checker (reachability, hops) and the plugin's multicast
 * trees, and by the link balance model (loads along the tree).
 */
#ifndef OSMTOPO_MODEL_FWDTREE_H
#define OSMTOPO_MODEL_FWDTREE_H

#include <stdint.h>

#include "model/fabric.h"
#include "model/routing.h"

/* State of a switch toward the current destination LID. */
enum ot_fwd_state {
	OT_FWD_REACH = 1, /* info: links from the switch to the destination */
	OT_FWD_FAIL,      /* info: the switch where the packet is dropped */
	OT_FWD_LOOP,      /* info: a switch on the forwarding loop */
	OT_FWD_BUSY,      /* being resolved; meeting it again means a loop */
};

struct ot_fwdtree {
	const struct ot_fabric *f;
	const struct ot_routing *r;
	/* The destination: a CA port and one of its LIDs. */
	int32_t dnode;
	uint8_t dport;
	uint16_t dlid;
	/* Per switch, valid where stamp == cur (one cur per destination). */
	uint32_t cur;
	uint32_t *stamp;
	uint8_t *state;  /* enum ot_fwd_state */
	int32_t *info;   /* see enum ot_fwd_state */
	uint8_t *outp;   /* the LFT entry, read once: LFT columns are cold */
	int32_t *next;   /* next switch; -1 when it is the destination's CA */
	int32_t *order;  /* switches in the order they were met */
	uint32_t norder;
	/*
	 * Optionally (ot_fwdtree_columns()), the LFT entries of the
	 * OT_FWD_BLOCK LIDs from col_first, nnodes rows of OT_FWD_BLOCK
	 * bytes: a walk over the destinations in LID order then reads each
	 * LFT row once a block, not a cache line per switch and LID.
	 */
	uint8_t *col;
	uint32_t col_first;
};

#define OT_FWD_BLOCK 64

/* 0, or -1 when out of memory. */
int ot_fwdtree_init(struct ot_fwdtree *t, const struct ot_fabric *f,
		    const struct ot_routing *r);
void ot_fwdtree_free(struct ot_fwdtree *t);

/* Forgets every switch: the tree toward (dnode, dport) at LID dlid. */
void ot_fwdtree_begin(struct ot_fwdtree *t, int32_t dnode, uint8_t dport,
		      uint16_t dlid);

/*
 * Copies the LFT columns of LIDs first .. first + OT_FWD_BLOCK - 1, which
 * the walks toward those LIDs then read.  0, or -1 when out of memory.
 */
int ot_fwdtree_columns(struct ot_fwdtree *t, uint32_t first);

/* Resolves switch s (and every switch its packets pass); its state. */
uint8_t ot_fwdtree_resolve(struct ot_fwdtree *t, int32_t s);

/* Switch sw's LFT entry for lid, OT_NO_PORT beyond the table. */
static inline uint8_t ot_fwd_lft(const struct ot_routing *r, int32_t sw,
				 uint16_t lid)
{
	const uint8_t *lft = r->lft[sw];

	if (!lft || lid > r->max_lid)
		return OT_NO_PORT;
	return lft[lid];
}

#endif
