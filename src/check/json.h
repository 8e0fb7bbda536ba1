/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * JSON output through jansson, for the checker's reports and the tools
 * above it: values built as jansson objects (keys kept in the order they
 * are set) and printed compact on one line.  Not in src/model: the OpenSM
 * plugin is built from model, topo and route and does not link jansson.
 */
#ifndef OSMTOPO_CHECK_JSON_H
#define OSMTOPO_CHECK_JSON_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

/*
 * A real with the value printf("%.*f", decimals, v) spells: the reports
 * give their figures to a fixed number of decimals.
 */
json_t *ot_json_fixed(double v, int decimals);

/* A string (node descriptions are not checked to be UTF-8); NULL: null. */
json_t *ot_json_str(const char *s);

/* An unsigned integer (jansson's integers are signed 64-bit). */
json_t *ot_json_u64(uint64_t v);

/* Sets obj[key] to v, taking v's reference (a NULL v is dropped). */
json_t *ot_json_set(json_t *obj, const char *key, json_t *v);

/* Prints root compact, keys in order, and a newline; drops root. -1 on error. */
int ot_json_print(FILE *out, json_t *root);

#endif
