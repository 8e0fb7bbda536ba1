/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The OpenSM side of osmtopo: what plugin.c (registration, the routing
 * engine callbacks, writing tables into OpenSM) and capture.c (OpenSM's
 * subnet -> struct ot_fabric) share.  This is the only part of osmtopo that
 * sees OpenSM's structures; everything after the capture works on the
 * fabric model, and everything the engines produce comes back through
 * plugin.c.
 */
#ifndef OSMTOPO_PLUGIN_H
#define OSMTOPO_PLUGIN_H

/*
 * OSM_LOG() needs a file id before <opensm/osm_log.h> is included; OpenSM
 * uses it only to look up per-file log levels (per_mod_log_tbl[256]).  Its
 * own ids (osm_file_ids.h) stop below 100, so 200 is ours.
 */
#define OT_PLUGIN_FILE_ID 200
#ifndef FILE_ID
#define FILE_ID OT_PLUGIN_FILE_ID
#endif

#include <stdbool.h>
#include <stdint.h>

#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>

#include "model/error.h"
#include "model/fabric.h"
#include "model/routing.h"
#include "route/engine.h"
#include "route/mcast.h"
#include "route/qos/qos.h"

/*
 * Error codes in OpenSM's "ERR XXYY" style, one per class of refusal
 * (enum ot_error_class), so that an administrator can grep for "not this
 * topology" apart from "QoS is off".  The 5E range is not used by OpenSM
 * 3.3.23 (grep "ERR 5E" in its sources finds nothing).  The README lists
 * them.
 */
#define OT_ERR_REGISTER "ERR 5E01" /* an engine could not be registered */
#define OT_ERR_TOPO     "ERR 5E02" /* not the topology the engine routes */
#define OT_ERR_DMG      "ERR 5E03" /* that topology, too damaged to route */
#define OT_ERR_VLS      "ERR 5E04" /* needs more VLs or SLs than allowed */
#define OT_ERR_CONF     "ERR 5E05" /* OpenSM's options: QoS off, lmc, VLs */
#define OT_ERR_STATE    "ERR 5E06" /* OpenSM's state cannot take the tables */
#define OT_ERR_OOM      "ERR 5E07" /* out of memory */
#define OT_ERR_OTHER    "ERR 5E08" /* anything else (a bug: please report) */
#define OT_ERR_MCAST    "ERR 5E09" /* a multicast tree closes a credit loop */

/*
 * One per engine of ot_engines[]: the context OpenSM hands back to every
 * callback of that engine.  Allocated by the plugin's create() and freed
 * by its delete(), which OpenSM calls after it has destroyed its routing
 * engines, so a context outlives every callback made with it.
 */
struct ot_plugin_engine {
	const struct ot_engine *engine;
	osm_opensm_t *osm;
	/*
	 * The fabric and routing of the last sweep this engine routed, NULL
	 * before the first.  Only ucast_build_fwd_tables replaces them, and
	 * OpenSM calls it with its lock held exclusively; path_sl runs in SA
	 * threads that hold the lock shared, update_sl2vl in the sweep
	 * thread after routing.  So the routing these read is never freed
	 * under them.  Both are our own copies: they point into no OpenSM
	 * structure and stay valid however the subnet changes.
	 */
	struct ot_fabric *fabric;
	struct ot_routing *routing;
	/*
	 * The last refusal logged, so that the same reason sweep after
	 * sweep is logged once (then at DEBUG); "" after a success.
	 */
	char last_refusal[OT_ERROR_LEN];
	/*
	 * A digest of the switch-to-switch cabling of the last sweep routed,
	 * so that a fabric the engine routes is checked for mis-cabling
	 * (cables over-full, topo/miscable.h) once, not at every sweep.
	 */
	uint64_t cabling_digest;
	/*
	 * Service classes (qos.c): the class table named by
	 * event_plugin_options, read again at every sweep, and how the last
	 * routing was layered for it; qos_on false when there is none (no
	 * table named, a bad table, QoS off), and then the engine's tables
	 * go to OpenSM as they are.  Replaced with the routing, under the
	 * same lock.  The last class table error, logged once.
	 */
	bool qos_on;
	struct ot_qos_table qos;
	struct ot_qos_layers qos_layers;
	char last_qos_error[OT_ERROR_LEN];
	/* The last spread line ("osmtopo_spread=", route/spread.h), once. */
	char last_spread[OT_ERROR_LEN];
	/*
	 * The flows of the routing by port, class (as the QoS policy gives
	 * it) and VL, counted at the first update_vlarb of a sweep (count
	 * NULL before) and dropped with the routing; qos_flows_none when
	 * the fabric has too many pairs to count (generic tables then).
	 */
	struct ot_qos_flows qos_flows;
	bool qos_flows_none;
	/*
	 * What the multicast trees of the routing share (route/mcast.h:
	 * switch distances, the unicast channel dependency graph): made by
	 * the first mcast_build_stree after a routing, NULL before, dropped
	 * with the routing.  OpenSM calls mcast_build_stree with its lock
	 * held exclusively, as it does ucast_build_fwd_tables.
	 */
	struct ot_mtree_net *mtree;
};

/*
 * Copies OpenSM's subnet (nodes, cables, base LIDs and LMCs) into a new
 * fabric, nodes sorted by node GUID so that the result does not depend on
 * discovery order.  The fabric is not indexed yet.  Reads OpenSM's tables
 * only; call with OpenSM's lock held (routing callbacks are).  0 with *out
 * set and owned by the caller, or -1 with err set and *out NULL.
 */
int ot_capture_subnet(osm_subn_t *subn, struct ot_fabric **out,
		      struct ot_error *err);

/*
 * Multicast (mcast.c): build_lid_matrices returns 0 (OpenSM skips its
 * min-hop matrices, whose last reader was its own multicast tree
 * builder), and mcast_build_stree sets each group's tree (route/mcast.h)
 * in OpenSM's MFTs.
 */
int ot_build_lid_matrices(void *context);
ib_api_status_t ot_mcast_build_stree(void *context, osm_mgrp_box_t *mbox);

/*
 * Service classes (qos.c).  ot_plugin_qos_apply() runs after the engine,
 * before the checks: with "osmtopo_qos=FILE" in event_plugin_options and
 * QoS on, it reads FILE (a bad one: ERROR naming the line, and routing
 * goes on without classes) and layers r for its classes; -1 with err set
 * when the classes do not fit the VLs or SLs (the engine is refused).
 * The callbacks give the class's path SL and each port's VLArb.
 */
/*
 * What the classes of the table named (if any, and readable) leave the
 * engine: the data VLs and SLs over the classes, so that an engine that
 * can degrade (the Mixed variants) fits before it is layered.  NULL
 * without classes; why holds "N QoS classes".
 */
const struct ot_engine_budget *
ot_plugin_qos_budget(struct ot_plugin_engine *ctx, struct ot_engine_budget *b,
		     char *why, size_t len);
/*
 * With "osmtopo_spread=auto|N|off[:RULE]" in event_plugin_options (off
 * when absent) and QoS on: r's destinations spread over the groups that
 * fit beside the classes (route/spread.h), fewer than asked with an INFO
 * line saying so, a bad value or QoS off an ERROR and no spreading.
 * *groups: the groups used.  -1 with err set on OOM.
 */
int ot_plugin_spread_apply(struct ot_plugin_engine *ctx, struct ot_routing *r,
			   unsigned int *groups, struct ot_error *err);
/*
 * With "osmtopo_spread=N" (N >= 2) and QoS on: the budget that leaves
 * room for N groups beside the classes (route/spread.h), for an engine
 * that can degrade; false otherwise.
 */
bool ot_plugin_spread_budget(struct ot_plugin_engine *ctx,
			     struct ot_engine_budget *b, char *why,
			     size_t len);
/* groups > 1 without a class table: one class over every group's VLs. */
int ot_plugin_qos_apply(struct ot_plugin_engine *ctx, struct ot_routing *r,
			unsigned int groups, struct ot_qos_layers *layers,
			bool *on, struct ot_error *err);
uint8_t ot_plugin_qos_path_sl(const struct ot_plugin_engine *ctx,
			      uint8_t hint, uint16_t slid, uint16_t dlid);
void ot_update_vlarb(void *context, osm_physp_t *port, uint8_t port_num,
		     ib_vl_arb_table_t *block, unsigned int block_length,
		     unsigned int block_num);

/*
 * The data VLs every cabled link will run with: the least over links of
 * the smaller VLCap of its two ends, capped by max_op_vls (plugin.c).
 */
unsigned int ot_plugin_data_vls(osm_subn_t *subn);

/* Drops the flows counted for the last routing's VLArb tables. */
void ot_plugin_qos_drop(struct ot_plugin_engine *ctx);

/* The node with this (host order) node GUID in a captured fabric, or -1. */
int ot_capture_find_node(const struct ot_fabric *f, uint64_t guid);

#endif
