/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A model of the InfiniBand VL arbiter of one output port on saturated
 * queues (IBA vol. 1, 7.6.9): the high-priority table is served while the
 * high limit allows (high_limit x 4096 bytes since the last low-priority
 * packet; 0: one packet; 255: no limit), the low one otherwise; an entry
 * of weight w on a backlogged VL sends whole packets while its remaining
 * weight is above 0, so it sends ceil(w / m) packets of m units; entries
 * of weight 0, on VL 15, on a VL at or above the operational VLs or on a
 * VL with nothing queued are skipped.  The saturated queues are the VLs
 * given a packet size: every packet of a VL is that many 64-byte units
 * (the MTU of the class on it).  Pure computation, for the QoS check, the
 * packet simulator (sim/sim.h: ot_arb_pick() one packet at a time on
 * the VLs that have a packet ready) and their tests.  Shipped in the
 * tool only: the plugin programs tables, it never replays them.
 */
#ifndef OSMTOPO_TRAFFIC_ARBITER_H
#define OSMTOPO_TRAFFIC_ARBITER_H

#include <stddef.h>
#include <stdint.h>

#include "model/vlarb.h"

#define OT_ARB_VLS 16
#define OT_ARB_NEVER UINT64_MAX /* a gap when the VLs are never served */

struct ot_arb_packet {
	uint8_t vl;
	uint16_t units;
};

/* Where an arbiter is in its two tables, between two packets. */
struct ot_arb_table_state {
	unsigned int idx, wraps;
	int rem;      /* weight left on entry idx; <= 0: move on */
	int started;  /* idx names an entry already served */
};

struct ot_arb_state {
	struct ot_arb_table_state hi, lo;
	uint64_t hsent; /* units sent from the high table since a low packet */
};

/* An arbiter before its first packet. */
void ot_arb_reset(struct ot_arb_state *s);

/*
 * The VL port p's arbiter sends next when the VLs of ready (bit per VL)
 * have a packet, of units[vl] 64-byte units, at the head; -1 when no
 * entry of either table names a ready VL (such a VL is never sent).
 */
int ot_arb_pick(struct ot_arb_state *s, const struct ot_vlarb_port *p,
		uint16_t ready, const unsigned int units[OT_ARB_VLS]);

/* What the arbiter sent, packet by packet, over whole table cycles. */
struct ot_arb_trace {
	struct ot_arb_packet *pkt;
	size_t n;
	uint64_t served[OT_ARB_VLS]; /* units per VL */
	uint64_t total;
};

/*
 * Runs the arbiter of port p for `cycles` rounds of its low table (of
 * the high one when the low table serves nothing), mtu_units[vl] the
 * packet size of VL vl's queue (0: empty).  0, or -1 on OOM.
 */
int ot_arb_simulate(const struct ot_vlarb_port *p,
		    const unsigned int mtu_units[OT_ARB_VLS],
		    unsigned int cycles, struct ot_arb_trace *out);

void ot_arb_trace_free(struct ot_arb_trace *t);

/* Units served to the VLs of mask (bit per VL). */
uint64_t ot_arb_served(const struct ot_arb_trace *t, uint16_t mask);

/*
 * The most units sent on other VLs between two packets of the VLs of
 * mask, the trace taken as periodic; OT_ARB_NEVER when none is sent.
 */
uint64_t ot_arb_worst_gap(const struct ot_arb_trace *t, uint16_t mask);

#endif
