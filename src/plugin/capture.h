/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * OpenSM's subnet -> struct ot_fabric (capture.c).  The way back from an
 * OpenSM node to the captured fabric's node is ot_fabric_find_guid()
 * (model/sort.h) with the node's host-order GUID: the nodes are in GUID
 * order.
 */
#ifndef OSMTOPO_PLUGIN_CAPTURE_H
#define OSMTOPO_PLUGIN_CAPTURE_H

#include <stdint.h>

#include "model/sort.h"
#include "plugin/context.h"

/*
 * Copies OpenSM's subnet (nodes, cables, base LIDs and LMCs) into a new
 * fabric, nodes sorted by node GUID so that the result does not depend on
 * discovery order.  The fabric is not indexed yet.  Reads OpenSM's tables
 * only; call with OpenSM's lock held (routing callbacks are).  0 with *out
 * set and owned by the caller, or -1 with err set and *out NULL.
 */
int ot_capture_subnet(osm_subn_t *subn, struct ot_fabric **out,
		      struct ot_error *err);

#endif
