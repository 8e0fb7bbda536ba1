/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Service classes and the VL arbitration tables that give them their
 * bandwidth and latency, after "Providing quality of service in Omni-Path
 * networks" (Cano-Cano et al.; DTable methodology from "QoS in InfiniBand
 * subnetworks", Alfaro, Sanchez, Duato).  Pure computation: a class table
 * (one line per SL: share, latency need, MTU) is parsed here; from it the
 * DTable methodology spreads arbitration entries by each class's maximum
 * entry distance, sizes their weights from a bandwidth pool and the
 * class's MTU, and removes the rounding error with the paper's bandwidth
 * correction.  SBT (one entry per class) is the simple baseline.  The
 * InfiniBand adaptation (entries name VLs, a weight counts 64-byte units
 * up to 255, a port holds VLArbLowCap entries) is ot_qos_ib_vlarb(); the
 * plugin and `osmtopo qos` call these, the checker may replay them.
 */
#ifndef OSMTOPO_ROUTE_QOS_H
#define OSMTOPO_ROUTE_QOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/error.h"
#include "model/routing.h"

#define OT_QOS_MAX_CLASSES 15   /* SL 15 is VL15's: never a class */
#define OT_QOS_MAX_ENTRIES 256  /* the methodology's N; InfiniBand: <= 64 */
#define OT_QOS_UNIT 64          /* bytes per weight unit (credit) */
#define OT_QOS_MAX_WEIGHT 255   /* an InfiniBand VLArb weight is 8 bits */
#define OT_QOS_NAME_LEN 32

/* One service class: one line of the class table. */
struct ot_qos_class {
	char name[OT_QOS_NAME_LEN];
	uint8_t sl;            /* the SL the QoS policy (qos-level) hands out */
	double share;          /* wanted share of the link, 0 < share <= 1 */
	unsigned int distance; /* max entries between two of its entries */
	unsigned int mtu;      /* bytes, a multiple of 64; 0: the GMTU */
	unsigned int line;     /* where it was declared, for errors */
};

/* A class table and the arbiter parameters of the methodology. */
struct ot_qos_table {
	struct ot_qos_class cls[OT_QOS_MAX_CLASSES];
	unsigned int nclasses;
	unsigned int entries; /* N; 0: the port's capacity */
	unsigned int gmtu;    /* bytes, a multiple of 64 */
	unsigned int w, k;    /* M = GMTU * w, pool = N * GMTU * k, k <= w */
};

/*
 * Parses a class table from text (one statement a line, '#' comments):
 *   arbiter [entries N] [gmtu BYTES] [w W] [k K]
 *   class NAME sl SL share F (distance D | latency R) [mtu BYTES]
 * Latency rank R (1 most urgent) means distance 2^R.  Shares are
 * fractions ("0.1") or percentages ("10%").  Errors name "file:line"
 * (file is only used in messages).  0, or -1 with err set.
 */
int ot_qos_parse(const char *text, const char *file, struct ot_qos_table *t,
		 struct ot_error *err);

/* The same from a file. */
int ot_qos_load(const char *path, struct ot_qos_table *t,
		struct ot_error *err);

/* The class that SL sl belongs to, or -1. */
int ot_qos_class_of_sl(const struct ot_qos_table *t, unsigned int sl);

/* An arbitration entry: a class (or, InfiniBand, a VL) and its weight. */
struct ot_qos_entry {
	int16_t who;     /* class index (methodology) or VL; -1: empty */
	uint16_t weight; /* in 64-byte units */
};

/* What the methodology gives one class. */
struct ot_qos_class_result {
	unsigned int n;          /* entries */
	unsigned int distance;   /* the distance actually kept (power of 2) */
	unsigned int mtu_units;  /* MTU in weight units */
	double min_share, max_share; /* n*MTU/pool, n*M/pool */
	double tweight;          /* pool * share */
	unsigned int entry_weight; /* ceil(tweight / n) */
	unsigned int sum_before; /* n * entry_weight */
	double share_before;     /* sum_before / total_before */
	int dweight;             /* the correction wanted */
	int unapplied;           /* of it, what the MTU/max checks refused */
	unsigned int sum_after;
	double share_after;      /* sum_after / total_after */
	unsigned int worst_bytes; /* most bytes of others between two services */
};

struct ot_qos_arb {
	unsigned int n;                 /* entries */
	struct ot_qos_entry entry[OT_QOS_MAX_ENTRIES];
	unsigned int pool, max_weight;  /* in units */
	unsigned int total_before, total_after;
	unsigned int nclasses;
	struct ot_qos_class_result c[OT_QOS_MAX_CLASSES];
};

/*
 * The DTable methodology for N entries (t->entries when non-zero):
 * spreading, weights, bandwidth correction.  Refuses (OT_ERR_CONFIG,
 * naming the class's line) a share outside [min, max] assignable, or
 * latency needs that do not fit N entries.
 */
int ot_qos_dtable(const struct ot_qos_table *t, unsigned int n,
		  struct ot_qos_arb *out, struct ot_error *err);

/* SBT: one entry per class, weights in proportion to the shares. */
int ot_qos_sbt(const struct ot_qos_table *t, struct ot_qos_arb *out,
	       struct ot_error *err);

/*
 * Applies the bandwidth correction to a table whose entries name
 * classes: adds c[i].dweight to class i's entries one unit at a time,
 * from the end of the table backwards, round robin, never taking an
 * entry below one MTU of its class nor above OT_QOS_MAX_WEIGHT; what
 * cannot be placed is left in c[i].unapplied.  Fills sum/share after.
 * Exposed for the tests.
 */
void ot_qos_correct(struct ot_qos_arb *a);

/*
 * Most bytes the arbiter serves to other entries between two services of
 * class ci, on saturated queues, with InfiniBand's rule that an entry
 * sends whole packets while its weight is not used up (a packet of m
 * units under a remaining weight r > 0 goes, so an entry of weight w
 * sends ceil(w/m) packets of the class's MTU).
 */
unsigned int ot_qos_worst_bytes(const struct ot_qos_arb *a, unsigned int ci);


/*
 * Classes times layers, over any engine's routing.  An engine uses S path
 * SLs (its SL layers: 1 when it has no path_sl) and V data VLs (its hop
 * layers, r->nvls).  With C classes, class c's layer s becomes SL
 * c*S + s and its VL v becomes c*V + v on every hop, so classes never
 * share a VL and each keeps the engine's deadlock freedom on its own VLs.
 */
struct ot_qos_layers {
	unsigned int classes, sls, vls;   /* C, S, V */
	int8_t class_of_sl[OT_NUM_SLS];           /* a policy SL's class, or -1 */
};

/*
 * Rewrites r's SL2VL tables (every node gets one) and nvls for the
 * classes of t; the path SLs of class 0 are the engine's own, so
 * r->path_sl and the promise's rule keep describing class 0.  Refuses
 * (OT_ERR_BUDGET, with the numbers) when C*S > 15 or C*V > max_vls:
 * classes are never merged.  SLs beyond C*S, which path_sl never hands
 * out: a class's policy SL (what MultiPathRecord returns, OpenSM 3.3.23
 * not calling path_sl there) maps to that class's layer 0, any other to
 * class 0's VLs; every SL lands on a data VL.
 */
int ot_qos_layer(struct ot_routing *r, const struct ot_qos_table *t,
		 unsigned int max_vls, struct ot_qos_layers *out,
		 struct ot_error *err);

/*
 * The path SL for a pair whose requester or qos-level asked for hint:
 * the engine's SL for the pair, in the layer block of hint's class
 * (class 0 when hint is no class's SL).
 */
uint8_t ot_qos_path_sl(const struct ot_qos_layers *q,
		       const struct ot_routing *r, uint8_t hint,
		       uint16_t slid, uint16_t dlid);

/*
 * The InfiniBand low-priority VLArb table of a port whose flows are not
 * known: ot_qos_port_vlarb() with every class on each of its VLs
 * (c*V .. c*V+V-1) evenly.  Fills n entries (who = VL); refuses
 * (OT_ERR_BUDGET) a class with fewer entries than VLs, whose VLs could
 * not all be served.
 */
int ot_qos_ib_vlarb(const struct ot_qos_table *t,
		    const struct ot_qos_layers *q, unsigned int cap,
		    struct ot_qos_entry *entry, unsigned int *n,
		    struct ot_error *err);

/*
 * The class and engine layer a layered SL stands for (as
 * ot_qos_layer() maps it): below C*S the block of a class, above it a
 * class's policy SL goes to that class's layer 0, any other SL to class
 * 0's layers.
 */
void ot_qos_sl_layer(const struct ot_qos_layers *q, unsigned int sl,
		     unsigned int *cls, unsigned int *layer);

/*
 * Flows through every output port of a routing, by class and VL: a flow
 * is a CA port and a CA LID (each LID of an LMC range on its own), and
 * it counts once on every port it leaves by, on the VL it takes there.
 * count[(port0[n] + p) * OT_NUM_SLS * classes + c * OT_NUM_SLS + vl].
 */
struct ot_qos_flows {
	const struct ot_fabric *fabric; /* borrowed */
	unsigned int classes;
	uint32_t *port0;  /* per node: index of its port 0 */
	uint32_t *count;
	uint64_t flows;   /* flows walked (a pair counted for every class */
	uint64_t lost;    /* ... of them, not delivered */
	/* With edges: channel dependencies (consecutive hops) per class. */
	bool edges;
	struct ot_qos_edge *edge;
	size_t nedges, edge_cap;
};

/* A dependency of channel (port, VL) a on b, class c: a = port * 16 + vl. */
struct ot_qos_edge {
	uint32_t a, b;
	uint8_t cls;
};

/*
 * The class a pair's flow belongs to, for ot_qos_flows_count(): a class
 * index, or -1 for "any class" (the flow counts once for every class, on
 * that class's SL).
 */
typedef int (*ot_qos_pair_class)(void *ctx, int src, unsigned int sport,
				 uint16_t dlid);

/*
 * Walks every flow of r.  With pick NULL, a flow's SL is r's path SL and
 * its class that SL's (ot_qos_sl_layer(), r as read from a fabric); with
 * pick, its class is pick's and its SL ot_qos_path_sl() of the class's
 * policy SL (r layered by ot_qos_layer()).  out->edges asks for the
 * channel dependencies too (deduplicated).  0, or -1 on OOM.
 */
int ot_qos_flows_count(const struct ot_routing *r,
		       const struct ot_qos_table *t,
		       const struct ot_qos_layers *q, ot_qos_pair_class pick,
		       void *ctx, struct ot_qos_flows *out,
		       struct ot_error *err);
void ot_qos_flows_free(struct ot_qos_flows *fl);

/* The counts of port p of node n: classes * OT_NUM_SLS entries. */
static inline const uint32_t *ot_qos_port_flows(const struct ot_qos_flows *fl,
						int n, unsigned int p)
{
	return fl->count + ((size_t)fl->port0[n] + p) * OT_NUM_SLS *
				   fl->classes;
}

/*
 * The low-priority VLArb table of one port that carries flows[c * 16 +
 * vl] of class c on VL vl (NULL: every class on each of its VLs
 * evenly).  The entries are the DTable's for cap entries; class c's go
 * only to VLs that carry it here (every one of them at least one entry),
 * in proportion to their flows; a class with no flow here keeps its
 * entries on all its VLs.  Weights are whole packets of the class's MTU
 * (the arbiter sends whole packets: a weight between two multiples is
 * served as the larger), as many as bring each class present here
 * closest to its share among the classes present, in the fewest units;
 * within a class, the packets are split over its VLs in proportion to
 * their flows, at least one an entry.  Refuses as ot_qos_ib_vlarb().
 */
int ot_qos_port_vlarb(const struct ot_qos_table *t,
		      const struct ot_qos_layers *q, unsigned int cap,
		      const uint32_t *flows, struct ot_qos_entry *entry,
		      unsigned int *n, struct ot_error *err);

/*
 * The same, where the port can also emit the VLs of mask emit (bit v:
 * VL v; ot_qos_port_emit()): each of them that no flow uses here still
 * gets one entry of one packet of its class (a multicast group's SL, a
 * policy SL, a route changed since the table was written would
 * otherwise stall on it).
 */
int ot_qos_port_vlarb_emit(const struct ot_qos_table *t,
			   const struct ot_qos_layers *q, unsigned int cap,
			   const uint32_t *flows, uint16_t emit,
			   struct ot_qos_entry *entry, unsigned int *n,
			   struct ot_error *err);

/*
 * The data VLs (below 15) that node n's SL2VL tables of r send out of
 * port p for an SL of mask sls, from any input port (0, the node itself,
 * and every cabled port but p).
 */
uint16_t ot_qos_port_emit(const struct ot_routing *r, int n, unsigned int p,
			  uint16_t sls);

#endif
