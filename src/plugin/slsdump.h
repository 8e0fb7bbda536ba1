/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * With "event_plugin_options osmtopo_path_sl_dump=on", the path SL of
 * every CA pair as OpenSM's SA would answer it, into dump_files_dir/
 * osmtopo-path-sl.dump after each unicast routing (model/pathsl.h has
 * the format, slsdump.c what is and is not reproduced).
 */
#ifndef OSMTOPO_PLUGIN_SLSDUMP_H
#define OSMTOPO_PLUGIN_SLSDUMP_H

#include "plugin/context.h"

/* The last message logged, so that a refusal is logged once. */
struct ot_sls_dump {
	char last[OT_ERROR_LEN];
};

/*
 * Called on OSM_EVENT_ID_UCAST_ROUTING_DONE (OpenSM's state manager
 * thread, no lock held): returns at once when the option is off.
 */
void ot_plugin_path_sl_dump(osm_opensm_t *osm, struct ot_sls_dump *st);

#endif
