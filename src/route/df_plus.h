/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * df-static on a Dragonfly+ (topo/dragonfly_plus.h): the engine df.c
 * hands a fabric to when its own recognizer refuses it and the Dragonfly+
 * one does not.  Private to src/route/.
 */
#ifndef OSMTOPO_ROUTE_DF_PLUS_H
#define OSMTOPO_ROUTE_DF_PLUS_H

#include "model/error.h"
#include "model/routing.h"
#include "topo/dragonfly_plus.h"

/*
 * Routes f (recognized as d) into out.  Takes d: the routing's promise
 * owns it, or it is freed.  0, or -1 with err set.
 */
int ot_dfp_route(const struct ot_fabric *f, struct ot_dfp *d,
		 struct ot_routing *out, struct ot_error *err);

#endif
