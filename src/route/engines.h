/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The engines registry.c lists, one definition each in its engine's file.
 * Private to src/route/.
 */
#ifndef OSMTOPO_ROUTE_ENGINES_H
#define OSMTOPO_ROUTE_ENGINES_H

#include "route/engine.h"

extern const struct ot_engine ot_engine_hdor;
extern const struct ot_engine ot_engine_ff_dor;
extern const struct ot_engine ot_engine_ff_mixed_dor;
extern const struct ot_engine ot_engine_ff_twisted_dor;
extern const struct ot_engine ot_engine_ff_twisted_mixed_dor;
extern const struct ot_engine ot_engine_ff_ador;
extern const struct ot_engine ot_engine_ff_mixed_ador;
extern const struct ot_engine ot_engine_ff_twisted_ador;
extern const struct ot_engine ot_engine_sf_mms;
extern const struct ot_engine ot_engine_df_static;
extern const struct ot_engine ot_engine_ff_twisted_mixed_ador;

#endif
