/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The data VLs OpenSM's links will run with (vls.c): what the engine
 * checks (plugin.c) and what the service classes share (qos.c) read the
 * same numbers from here.
 */
#ifndef OSMTOPO_PLUGIN_VLS_H
#define OSMTOPO_PLUGIN_VLS_H

#include "plugin/context.h"

/*
 * Data VLs the link at physp will run with: OpenSM's link manager sets
 * OperVLs to the smaller VLCap of the two ends, capped by max_op_vls,
 * after routing (ports are still in INIT when the engine runs), so the
 * capabilities are what to read.
 */
unsigned int ot_plugin_link_vls(const osm_subn_t *subn,
				const osm_physp_t *physp);

/*
 * The data VLs every cabled link and max_op_vls allow: the least over
 * the links of ot_plugin_link_vls(), and never more than max_op_vls
 * gives (at least 1).
 */
unsigned int ot_plugin_data_vls(osm_subn_t *subn);

#endif
