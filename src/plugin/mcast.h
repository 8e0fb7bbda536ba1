/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Multicast (mcast.c): build_lid_matrices returns 0 (OpenSM skips its
 * min-hop matrices, whose last reader was its own multicast tree
 * builder), and mcast_build_stree sets each group's tree (route/mcast.h)
 * in OpenSM's MFTs.
 */
#ifndef OSMTOPO_PLUGIN_MCAST_H
#define OSMTOPO_PLUGIN_MCAST_H

#include "plugin/context.h"

int ot_build_lid_matrices(void *context);
ib_api_status_t ot_mcast_build_stree(void *context, osm_mgrp_box_t *mbox);

#endif
