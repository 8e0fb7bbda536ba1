/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The OpenSM side of osmtopo: the context every routing engine callback
 * gets (struct ot_plugin_engine), which plugin.c (registration, the
 * callbacks, writing tables into OpenSM) owns and qos.c and mcast.c read.
 * The plugin is the only part of osmtopo that sees OpenSM's structures;
 * everything after the capture (capture.h) works on the fabric model.
 * Each file of the plugin has its own header; this one declares no
 * function, so that no file calls back into the one that calls it.
 */
#ifndef OSMTOPO_PLUGIN_CONTEXT_H
#define OSMTOPO_PLUGIN_CONTEXT_H

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
#include <stdio.h>
#include <string.h>

#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>

#include "model/error.h"
#include "model/fabric.h"
#include "model/routing.h"
#include "route/engine.h"
#include "route/mcast.h"
#include "route/qos/qos.h"

/*
 * Error codes in OpenSM's "ERR XXYY" style: one per class of failure
 * (ot_error_code(), model/error.h), and these two, which are no class's.
 * The README lists them.
 */
#define OT_ERR_REGISTER OT_ERR_CODE_REGISTER /* an engine not registered */
#define OT_ERR_MCAST    OT_ERR_CODE_MCAST /* a tree closes a credit loop */

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
 * Log once: true (and msg kept in last) when msg differs from the last
 * one kept, so that a reason repeated sweep after sweep is logged at its
 * level once and then only at DEBUG.  last[0] = '\0' forgets it.
 */
static inline bool ot_plugin_new_message(char *last, size_t size,
					 const char *msg)
{
	if (!strcmp(last, msg))
		return false;
	snprintf(last, size, "%s", msg);
	return true;
}

/*
 * VALUE of "... NAME=VALUE ..." in event_plugin_options into val (NAME
 * ends with '='); false when absent or longer than size - 1 (qos.c).
 */
bool ot_plugin_option(const osm_subn_t *subn, const char *name, char *val,
		      size_t size);

#endif
