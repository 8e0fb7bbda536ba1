/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The VL arbitration a port holds: its PortInfo capacities and high
 * limit, and its high- and low-priority VLArbitrationTable entries (a VL
 * and a weight in 64-byte units each).  The live reader fills one per
 * cabled port; the QoS check replays them with a model of the arbiter
 * (route/qos/qos.h).  Indexed like a routing's tables: node, then port.
 */
#ifndef OSMTOPO_MODEL_VLARB_H
#define OSMTOPO_MODEL_VLARB_H

#include <stdbool.h>
#include <stdint.h>

#include "model/fabric.h"

#define OT_VLARB_MAX 64        /* entries of one table (IBA: 64) */
#define OT_VLARB_UNLIMITED 255 /* a high limit of 255: no limit */

struct ot_vlarb_entry {
	uint8_t vl;
	uint8_t weight; /* 64-byte units; 0: the entry is skipped */
};

struct ot_vlarb_port {
	bool read;            /* tables known for this port */
	uint8_t high_cap;     /* PortInfo:VLArbitrationHighCap */
	uint8_t low_cap;      /* PortInfo:VLArbitrationLowCap */
	uint8_t high_limit;   /* PortInfo:VLHighLimit, 4096-byte units */
	uint8_t op_vls;       /* data VLs operational (0..op_vls-1) */
	uint32_t rate_mbps;   /* data rate of the link, 0: unknown */
	struct ot_vlarb_entry high[OT_VLARB_MAX];
	struct ot_vlarb_entry low[OT_VLARB_MAX];
};

/*
 * Data VLs of PortInfo's VL count encoding, as VLCap, OperationalVLs and
 * OpenSM's max_op_vls use it: 1: VL0, 2: VL0-1, 3: VL0-3, 4: VL0-7, 5
 * (and above): VL0-14; 0: none.
 */
static inline unsigned int ot_vl_code_vls(unsigned int code)
{
	return code >= 5 ? 15 : code ? 1u << (code - 1) : 0;
}

/* port[n][p]: NULL for a node none of whose ports was read. */
struct ot_vlarb_tables {
	const struct ot_fabric *fabric; /* borrowed */
	struct ot_vlarb_port **port;
};

/* Empty tables for every node of f; NULL on OOM. */
struct ot_vlarb_tables *ot_vlarb_new(const struct ot_fabric *f);
void ot_vlarb_free(struct ot_vlarb_tables *t);

/* Port p of node n, allocating the node's ports; NULL on OOM. */
struct ot_vlarb_port *ot_vlarb_port(struct ot_vlarb_tables *t, int n,
				    unsigned int p);

/* Port p of node n if it was read, else NULL. */
const struct ot_vlarb_port *ot_vlarb_get(const struct ot_vlarb_tables *t,
					 int n, unsigned int p);

#endif
