/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A packet-level simulator of the tables a fabric is programmed with
 * (`osmtopo simulate`, doc/simulate.md): the LFTs, SL2VL tables, path
 * SLs and VL arbitration tables of a routing, driven by the checker's
 * traffic patterns (traffic/pattern.h), so that the analytic throughput
 * of check/traffic.h gets a simulated figure beside it that sees credit
 * flow control, head-of-line blocking and VL arbitration.
 *
 * The model (every default and why: doc/simulate.md).  Time runs in
 * ticks of one 64-byte block on a link (the unit of credits and of VL
 * arbitration weights); every link has the same rate.  Packets are `mtu`
 * bytes on the wire (headers not counted), ceil(mtu / 64) blocks.
 *   - A CA generates packets into one unbounded send queue (Bernoulli:
 *     each packet time with probability `load`; exponential: Poisson at
 *     the same mean), or, for saturation, always has one ready.  The
 *     destination is drawn when a packet reaches the head of the queue;
 *     its SL is the path SL of (source base LID, destination LID); its
 *     VL on the CA's cable the CA's SL2VL.
 *   - Every input port of a switch has one FIFO per VL of `buffer`
 *     bytes; the sender holds credits for it (64-byte blocks) and sends
 *     a packet only when the whole packet fits (virtual cut-through).
 *     The credits come back a cable latency after the packet's tail
 *     leaves the FIFO.  CAs sink everything at link rate.
 *   - A packet's head reaches the next switch a cable latency plus a
 *     switch latency after its first block was sent; it then enters the
 *     FIFO of its input port and VL, and is routed: output port from the
 *     LFT, output VL from the SL2VL table (input port, output port, SL).
 *   - An output port that is free picks among the heads of the FIFOs
 *     that want it, whose FIFO is not still sending its previous packet
 *     (a FIFO reads one packet at a time; the FIFOs of an input port's
 *     VLs may send at once) and whose output VL has credits: the VL by the port's VL arbitration tables when it has
 *     any (traffic/arbiter.h), round-robin over the VLs otherwise; the
 *     input FIFO by round-robin over (input port, input VL) within
 *     that VL.  The
 *     packet occupies the output and its FIFO's read port for its
 *     length.  Outputs free at the same tick arbitrate in a random
 *     order (from the seed).
 *   - A FIFO whose head has not moved for `deadlock_window` packet
 *     times and waits for credits of a FIFO in the same state, in a
 *     cycle, is a deadlock: the run stops and reports the cycle.
 *
 * One run is one traffic pattern at one offered load (or saturation):
 * warm-up, then a measurement window; the same seed gives the same
 * result.  A struct ot_sim is single-threaded; run points in parallel
 * with one ot_sim each.
 */
#ifndef OSMTOPO_SIM_SIM_H
#define OSMTOPO_SIM_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "model/error.h"
#include "model/routing.h"
#include "model/vlarb.h"
#include "traffic/pattern.h"

enum ot_sim_arrivals {
	OT_SIM_BERNOULLI,
	OT_SIM_EXPONENTIAL,
};

/* Which LID of a destination with LMC > 0 a packet goes to. */
enum ot_sim_lid_choice {
	OT_SIM_LID_BASE, /* offset 0: the base LID */
	OT_SIM_LID_HASH, /* per flow: a hash of (source, destination) */
	OT_SIM_LID_RR,   /* per packet: round-robin at each source */
};

struct ot_sim_params {
	unsigned int mtu;          /* bytes per packet; default 2048 */
	unsigned int buffer;       /* bytes per input port and VL; 16384 */
	double rate_gbps;          /* data rate of every link; 200 (4x HDR) */
	double link_ns;            /* cable latency; 20 */
	double switch_ns;          /* switch traversal; 100 */
	enum ot_sim_arrivals arrivals;
	enum ot_sim_lid_choice lid;
	unsigned int warmup;       /* packet times; default 1000 */
	unsigned int measure;      /* packet times; default 2000 */
	unsigned int deadlock_window; /* packet times; default 200 */
	uint64_t seed;             /* default 1 */
	enum ot_ca_order order;    /* CA numbering of the patterns */
	/* Per-port VL arbitration; NULL or a port not read: round-robin. */
	const struct ot_vlarb_tables *vlarb;
	/*
	 * QoS classes: sl_class[sl] is the class (0 .. OT_NUM_SLS - 1) of
	 * packets on SL sl, or -1 for none; NULL: no per-class figures.
	 * Borrowed.
	 */
	const int8_t *sl_class;
};

/* Defaults for every field above. */
void ot_sim_params_default(struct ot_sim_params *p);

/* Who sends to whom in a run. */
enum ot_sim_dest {
	OT_SIM_UNIFORM,     /* each other CA alike */
	OT_SIM_PERMUTATION, /* partner[i], OT_NO_PARTNER: CA i is silent */
	OT_SIM_HOTSPOT,     /* hot_fraction to CA hot, the rest uniform */
	OT_SIM_PAIRS,       /* a list of pairs with relative rates */
};

struct ot_sim_pair {
	uint32_t src, dst; /* CA numbers (pattern order) */
	double rate;       /* fraction of the source's offered load */
};

struct ot_sim_traffic {
	enum ot_sim_dest kind;
	const uint32_t *partner; /* PERMUTATION: ncas entries */
	double hot_fraction;     /* HOTSPOT */
	uint32_t hot;            /* HOTSPOT: the CA */
	const struct ot_sim_pair *pairs; /* PAIRS */
	uint32_t npairs;
};

/* One channel of a deadlock cycle: the input FIFO of a link and a VL. */
struct ot_sim_channel {
	int32_t from, to; /* nodes */
	uint8_t from_port, to_port, vl;
	/*
	 * The packet at the head of the buffer, which waits for the next
	 * channel of the cycle: its source CA's LID and destination LID.
	 */
	uint16_t head_slid, head_dlid;
};

#define OT_SIM_MAX_CYCLE 64

struct ot_sim_sl {
	uint64_t delivered;
	double accepted;     /* per active CA, fraction of link rate */
	double lat_mean_ns, lat_p99_ns;
};

struct ot_sim_result {
	double offered;        /* the load; 1 at saturation */
	bool saturation;
	double accepted;       /* mean over the CAs that send */
	double accepted_min;   /* the least of them */
	double lat_mean_ns, lat_p99_ns;  /* generation to delivery */
	double lat_mean_pkt, lat_p99_pkt; /* the same in packet times */
	uint32_t active;       /* CAs that send */
	uint64_t delivered;    /* packets in the window */
	uint64_t packet_hops;  /* every packet sent on every link, the run */
	uint64_t unrouted;     /* dropped: no port, a loop, VL 15 */
	uint64_t misdelivered; /* reached a CA that is not its destination */
	uint16_t sl_mask;      /* SLs delivered in the window */
	struct ot_sim_sl sl[OT_NUM_SLS];
	/*
	 * With params.sl_class: classes delivered in the window, and each
	 * class's figures over its SLs (latency from their merged samples).
	 */
	uint16_t class_mask;
	struct ot_sim_sl cls[OT_NUM_SLS];
	bool deadlock;
	unsigned int ncycle;   /* channels of the blocked cycle kept */
	unsigned int cycle_len; /* the cycle's channels, ncycle or more */
	struct ot_sim_channel cycle[OT_SIM_MAX_CYCLE];
	uint64_t stalled;      /* packets that never move for another reason */
	double sim_ns;         /* simulated time of the run */
};

struct ot_sim;

/*
 * A simulator of routing r on its fabric (both borrowed: they must
 * outlive it).  NULL with err set (out of memory, no CA).
 */
struct ot_sim *ot_sim_new(const struct ot_routing *r,
			  const struct ot_sim_params *p, struct ot_error *err);
void ot_sim_free(struct ot_sim *s);

/* CAs of the patterns, and the node and port of CA i. */
uint32_t ot_sim_ncas(const struct ot_sim *s);
void ot_sim_ca(const struct ot_sim *s, uint32_t i, int32_t *node,
	       uint8_t *port);
/* Data VLs simulated (the highest VL of the SL2VL tables + 1). */
unsigned int ot_sim_nvls(const struct ot_sim *s);
/* One packet's time in ns. */
double ot_sim_packet_ns(const struct ot_sim *s);

/*
 * One run: traffic t at offered load `load` (fraction of link rate, in
 * (0, 1]), or with every source backlogged when load <= 0.  0, or -1
 * with err set (out of memory).
 */
int ot_sim_run(struct ot_sim *s, const struct ot_sim_traffic *t, double load,
	       struct ot_sim_result *out, struct ot_error *err);

#endif
