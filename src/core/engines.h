/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The engines linked into osmtopo; ot_engines[] in routing.c lists them.
 */
#ifndef OSMTOPO_ENGINES_H
#define OSMTOPO_ENGINES_H

#include <osmtopo/routing.h>

extern const struct ot_engine ot_engine_hdor;

#endif
