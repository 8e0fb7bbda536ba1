/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Spare VLs against head-of-line blocking (doc/spread.md): any engine's
 * routing, its V deadlock VLs and S path SLs, copied once per spread
 * group of destinations.  A destination of group g takes SL g*S + s for
 * the engine's SL s, and a hop the engine puts on VL v goes on VL
 * g*V + v, so one congested destination blocks only its group's VLs.
 * Like the QoS classes (route/qos), it runs after the engine, without
 * touching it, and before the classes: classes x groups x layers.
 *
 * Deadlock freedom carries over: group g's packets use only the channels
 * (port, VL) with VL in [g*V, g*V + V), and on them depend on each other
 * exactly as the engine's packets to the same destinations do on its
 * channels (same LFT hops, same SL2VL up to the shift g*V).  Each group's
 * channel dependency graph is so a subgraph of a copy of the engine's,
 * acyclic when the engine's is, and the groups share no channel: their
 * union has no cycle.  The checker proves it again on every test fabric.
 */
#ifndef OSMTOPO_ROUTE_SPREAD_H
#define OSMTOPO_ROUTE_SPREAD_H

#include <stddef.h>

#include "model/error.h"
#include "model/routing.h"
#include "route/engine.h"

/* Groups asked for: a number, or these. */
#define OT_SPREAD_OFF 0
#define OT_SPREAD_AUTO (-1)
/* Data VLs offline (ibsim's ports, and max_op_vls 4). */
#define OT_SPREAD_DATA_VLS 8

/* Which group a destination port falls in. */
enum ot_spread_rule {
	/*
	 * its rank by base LID among the CA ports the engine gives the same
	 * path SL (seen from the first CA), mod G
	 */
	OT_SPREAD_BY_LID,
	/* its switch's rank among the switches with CAs (by lowest CA LID) */
	OT_SPREAD_BY_SWITCH,
	/*
	 * the sum of its switch's coordinates (the engine's label) plus its
	 * rank among the switch's CAs (by LID), mod G: the destinations of
	 * one line of a dimension all differ
	 */
	OT_SPREAD_BY_COORD,
};
/* the best of the three on every fabric measured (doc/spread.md) */
#define OT_SPREAD_DEFAULT_RULE OT_SPREAD_BY_COORD

struct ot_spread_opts {
	int groups; /* OT_SPREAD_OFF, OT_SPREAD_AUTO or a number >= 1 */
	enum ot_spread_rule rule;
};

/*
 * "off", "auto" or a number 1..15, optionally ":lid", ":switch" or
 * ":coord".  0, or -1 with err set.
 */
int ot_spread_parse(const char *text, struct ot_spread_opts *o,
		    struct ot_error *err);

const char *ot_spread_rule_name(enum ot_spread_rule rule);

/*
 * The budget an engine that can degrade (the Mixed variants shed
 * dimension orders) routes in to leave room for N groups asked for
 * (explicit N >= 2 only): data_vls / (classes x N) VLs and 15 / (classes
 * x N) SLs, why naming both.  False when no budget applies (off, auto:
 * the engine takes what the classes leave, and groups what is left; or N
 * groups leave no VL): route as without spreading, and
 * ot_spread_apply() makes fewer groups, saying so.  A caller whose engine
 * refuses the budget routes it without and gets fewer groups the same way.
 */
bool ot_spread_budget(const struct ot_spread_opts *o, unsigned int data_vls,
		      unsigned int classes, struct ot_engine_budget *b,
		      char *why, size_t why_len);

/* The engine's SL layers: one past its highest path SL (1 without). */
unsigned int ot_routing_sl_layers(const struct ot_routing *r);

/*
 * Spreads r's destinations over groups: as many as o asks (auto: as many
 * as fit), at most what data_vls / (classes x V) and 15 / (classes x S)
 * allow (classes 0 or 1: none beside).  When fewer fit than asked, note
 * says so with the numbers ("" otherwise), and the fewer are used: the
 * caller logs it, never a silent change.  *groups is the number used (1:
 * r unchanged).  Rewrites every node's SL2VL table, path_sl, nvls and the
 * promise (its rule also checks that a path keeps its group's VLs and
 * SL).  0, or -1 with err set (out of memory; r unchanged).
 */
int ot_spread_apply(struct ot_routing *r, const struct ot_spread_opts *o,
		    unsigned int data_vls, unsigned int classes,
		    unsigned int *groups, char *note, size_t note_len,
		    struct ot_error *err);

/* The spread group of a LID of r (0 when r is not spread). */
unsigned int ot_spread_group_of(const struct ot_routing *r, uint16_t lid);

/* Groups of r (1 when r is not spread). */
unsigned int ot_spread_groups(const struct ot_routing *r);

#endif
