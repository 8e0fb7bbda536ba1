/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * df-static on a Dragonfly+: the path SLs, the VL rule and the rule its
 * promise holds every path to (route/df_plus_rule.c); the argument that
 * the VLs are free of deadlock is at the top of route/df_plus.c, with the
 * paths it is about.  Private to src/route/.
 */
#ifndef OSMTOPO_ROUTE_DF_PLUS_RULE_H
#define OSMTOPO_ROUTE_DF_PLUS_RULE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/error.h"
#include "model/routing.h"
#include "route/valiant.h"
#include "topo/dragonfly_plus.h"

#define DFP_DETOUR_SL 1 /* through a third group */
#define DFP_ESCAPE_SL 2
#define DFP_TURN_SL 3   /* through another spine and leaf of the group */
#define DFP_LAND_SL 4   /* landing on a spine not cabled to the leaf */
/* Valiant layer l = 1..OT_VALIANT_LAYERS (route/valiant.h): SL 4 + l */
#define DFP_VALIANT_SL0 4
/* through an intermediate group where a group has no cable left toward
 * the destination's (the damage layer, in place of the escape layer) */
#define DFP_DAMAGE_SL 8
#define DFP_DAMAGE_BIT 4 /* its bit in ot_dfp_down_mask() */

/* What the VL rule depends on beyond the hop. */
struct dfp_vlrule {
	bool detour, turn, land, escape;
	uint8_t esc_vl;
	uint8_t lay_vl[OT_VALIANT_LAYERS + 1]; /* Valiant layer l's, 0 none */
	uint8_t dmg_vl; /* the damage layer's, 0 none */
};

/* What the path SL and the promise's rule read. */
struct dfp_sls {
	uint8_t *escape;  /* per LID */
	uint8_t *dsl;     /* path SLs [dlid * nleaves + leaf pos], NULL */
	int32_t *srcpos;  /* per LID: its leaf's position, -1 */
	uint32_t nleaves;
	uint16_t max_lid;
};

/* The promise's context: the recognizer's answer, SLs, the VL rule. */
struct dfp_promise {
	struct ot_dfp *d;
	uint32_t *drank; /* the damage layer's order, or NULL */
	struct dfp_sls sls;
	struct dfp_vlrule vr;
};

/* Bit l: port p of n is a global cable down in Valiant layer l's order;
 * bit DFP_DAMAGE_BIT: down in the damage layer's (drank, or NULL). */
uint8_t ot_dfp_down_mask(const struct ot_dfp *d, const uint32_t *drank,
			 uint32_t n, unsigned int p);

/* The VL of a hop on path SL sl (in, out: the ports' classes). */
uint8_t ot_dfp_vl(const struct dfp_vlrule *v, unsigned int sl,
		  enum ot_dfp_port in, enum ot_dfp_port out, uint8_t down);

/* How many VLs the rule takes. */
unsigned int ot_dfp_vlrule_vls(const struct dfp_vlrule *v);

/* Frees what s holds (not s). */
void ot_dfp_sls_free(struct dfp_sls *s);

/* The path SL from slid toward dlid. */
unsigned int ot_dfp_sls_want(const struct dfp_sls *s, uint16_t slid,
			     uint16_t dlid);

/* Frees a struct dfp_promise (the promise's free_ctx). */
void ot_dfp_promise_free(void *ctx);

/* The promise's rule: path p's SL, VLs and shape (ctx: dfp_promise). */
int ot_dfp_rule(const void *ctx, const struct ot_path *p,
		struct ot_error *why);

#endif
