/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The escape layer every osmtopo engine can fall back on for the
 * destinations its own rule cannot reach on a damaged fabric: up*-down*
 * routing over the switches, destination by destination, expressed in
 * destination-only LFTs.  The engine gives it its own SL and its own VL
 * on every hop (SL2VL maps that SL to the escape VL for every pair of
 * ports), so escape packets never share a VL with the engine's; within
 * the layer no credit loop can form (see escape.c for the ranking).
 *
 * The engine describes its switches as positions 0..n-1 (absent ones
 * allowed: a FlatFly's missing switches) with their neighbours in the
 * order it wants ties broken, and a tie-break key per position for the
 * up*-down* order.  The layer answers, per (position, destination), which
 * neighbour to forward to.
 */
#ifndef OSMTOPO_ROUTE_ESCAPE_H
#define OSMTOPO_ROUTE_ESCAPE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/error.h"

struct ot_escape {
	uint32_t n;            /* positions */
	const uint8_t *present; /* present[s]: a switch is there */
	/* Neighbours of s: adj[start[s]] .. adj[start[s + 1] - 1]. */
	const uint32_t *start;
	const uint32_t *adj;
	/*
	 * phi: the up*-down* order, breadth-first distance from the first
	 * present position (of each connected part), then the tie-break key;
	 * UINT32_MAX where absent.
	 */
	uint32_t *phi;
	uint32_t *by_phi;      /* present positions in phi order */
	uint32_t npresent;
	uint16_t **tree;       /* per destination: legal distances, on demand */
	/*
	 * Per destination, for ot_escape_ports_balanced(), on demand: the
	 * positions farthest first and each one's legal next hops (see
	 * escape.c, struct esc_plan); the port toward each adj[j] of the
	 * node map it was built for.
	 */
	struct esc_plan **plan;
	uint8_t *jport;
	const int32_t *jport_of;
	/* what ot_escape_init_nodes() built for itself (else NULL) */
	uint8_t *own_present;
	uint32_t *own_start, *own_adj;
};

/*
 * Orders the positions (phi).  The arrays are borrowed and must outlive
 * e; tiebreak[s] breaks ties between positions at the same distance.
 * 0, or -1 with err set (out of memory).
 */
int ot_escape_init(struct ot_escape *e, uint32_t n, const uint8_t *present,
		   const uint32_t *start, const uint32_t *adj,
		   const uint64_t *tiebreak, struct ot_error *err);

/*
 * ot_escape_init over the switch-to-switch cables of f: position s is
 * node node_of[s] (n positions, every one present), pos_of[x] the
 * position of node x or -1 (not in the layer: CAs, switches left out);
 * neighbours and ties in position order, so the engine's numbering of
 * positions alone decides the layer.  e owns the arrays it builds
 * (ot_escape_free).  0, or -1 with err set (out of memory).
 */
struct ot_fabric;
int ot_escape_init_nodes(struct ot_escape *e, const struct ot_fabric *f,
			 uint32_t n, const int32_t *node_of,
			 const int32_t *pos_of, struct ot_error *err);

enum ot_escape_step {
	OT_ESCAPE_DELIVER, /* s is the destination's position */
	OT_ESCAPE_FORWARD, /* forward to the neighbour adj[*next] */
	OT_ESCAPE_CUT,     /* no path at all: the fabric is cut in two */
	OT_ESCAPE_NOMEM,
};

/*
 * The escape layer's hop from position s toward position t: one of the
 * neighbours that keep the path legal (up* then down*) and shortest,
 * picked by seq among them so that a destination's LIDs spread.  *next
 * is an index into adj.
 */
enum ot_escape_step ot_escape_hop(struct ot_escape *e, uint32_t s, uint32_t t,
				  uint32_t seq, uint32_t *next);

/*
 * The escape layer's port toward position t (sequence number seq) at
 * each of the n positions, position s being node node_of[s] of f:
 * hop[node_of[s]] set to the port toward the next position, tport at
 * t itself.  0, or -1 with err set: OT_ERR_DAMAGE when f is cut in two
 * (who names the engine in the message), out of memory.
 */
int ot_escape_ports(struct ot_escape *e, const struct ot_fabric *f,
		    const int32_t *node_of, uint32_t t, uint32_t seq,
		    uint8_t tport, uint8_t *hop, const char *who,
		    struct ot_error *err);

/*
 * ot_escape_ports() with the next hop at each position chosen by load
 * instead of by seq: inject[s] is the rate position s's own sources send
 * toward t, load[j] the rate already on the channel adj[j] (updated
 * here).  Positions are taken farthest from t first, so each one's rate
 * (its own and what the ones before it send through it) is known when it
 * picks, among the neighbours that keep the path legal and shortest, the
 * least loaded channel (ties: seq rotates the neighbours).  The same
 * up*-down* paths as ot_escape_ports() may take, so the same ranking.
 */
int ot_escape_ports_balanced(struct ot_escape *e, const struct ot_fabric *f,
			     const int32_t *node_of, uint32_t t, uint32_t seq,
			     const double *inject, double *load, uint8_t tport,
			     uint8_t *hop, const char *who,
			     struct ot_error *err);

void ot_escape_free(struct ot_escape *e);

#endif
