/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Service classes (qos.c).  ot_plugin_qos_apply() runs after the engine,
 * before the checks: with "osmtopo_qos=FILE" in event_plugin_options and
 * QoS on, it reads FILE (a bad one: ERROR naming the line, and routing
 * goes on without classes) and layers r for its classes; -1 with err set
 * when the classes do not fit the VLs or SLs (the engine is refused).
 * The callbacks give the class's path SL and each port's VLArb.
 */
#ifndef OSMTOPO_PLUGIN_QOS_H
#define OSMTOPO_PLUGIN_QOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plugin/context.h"

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

/* Drops the flows counted for the last routing's VLArb tables. */
void ot_plugin_qos_drop(struct ot_plugin_engine *ctx);

#endif
