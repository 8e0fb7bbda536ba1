/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Slim Fly: McKay-Miller-Siran (MMS) graphs, as seed 001 ("Early
 * evaluation of direct large-scale InfiniBand networks with adaptive
 * routing", section 1.5) uses them, with the generator sets of Besta and
 * Hoefler ("Slim Fly: A Cost Effective Low-Diameter Network Topology").
 * For a prime power q = 4w + d, d in {-1, 0, 1}, and a primitive element
 * xi of GF(q), the 2q^2 switches are (t, x, y), t in {0, 1}, x, y in
 * GF(q):
 *  - y-cables: (t, x, y) -- (t, x, y') iff y' - y is in X_t, with
 *    d = 1:  X_0 = {xi^0, xi^2, ..., xi^(q-3)}, X_1 = {xi^1, ..., xi^(q-2)}
 *    d = 0:  X_0 = {xi^0, xi^2, ..., xi^(q-2)}, X_1 = {xi^1, ..., xi^(q-1)}
 *            (xi^(q-1) = 1: X_1 holds 1 too)
 *    d = -1: X_0 = {xi^0, xi^2, ..., xi^(2w-2)} + {xi^(2w-1), ..., xi^(4w-3)}
 *            X_1 = {xi^1, ..., xi^(2w-1)} + {xi^(2w), ..., xi^(4w-2)}
 *  - t-cables: (0, x, y) -- (1, m, c) iff y = m x + c.
 * Network degree (3q - d)/2, diameter 2.
 *
 * The recognizer (the second step of the flow: fabric -> recognizer ->
 * coordinates -> engine) finds (t, x, y) for every switch from the
 * cabling alone, by matching the switch graph to the MMS graph of the
 * same size (or, with switches missing, onto part of the MMS graph of a
 * q that leaves room for them), and checks every cable against the rule
 * above.
 */
#ifndef OSMTOPO_TOPO_SLIMFLY_H
#define OSMTOPO_TOPO_SLIMFLY_H

#include <stdbool.h>
#include <stdint.h>

#include "model/error.h"
#include "model/fabric.h"
#include "topo/gf.h"

/* The MMS graph of one q: field, generator sets, adjacency. */
struct ot_mms {
	struct ot_gf gf;
	unsigned int q, deg; /* deg: network neighbours of a switch */
	int delta;
	uint32_t n;          /* 2 q^2 positions, (t, x, y) = t q^2 + x q + y */
	uint8_t *in_x[2];    /* q each: in_x[t][e] iff e is in X_t */
	uint32_t *nb;        /* n * deg: neighbours, ascending */
	uint8_t *adj;        /* n * n: 1 when adjacent */
};

int ot_mms_init(struct ot_mms *m, unsigned int q, struct ot_error *err);
void ot_mms_free(struct ot_mms *m);

static inline uint32_t ot_mms_pos(const struct ot_mms *m, unsigned int t,
				  unsigned int x, unsigned int y)
{
	return (t * m->q + x) * m->q + y;
}

static inline bool ot_mms_adjacent(const struct ot_mms *m, uint32_t a,
				   uint32_t b)
{
	return m->adj[(uint64_t)a * m->n + b];
}

/* The q whose MMS graph has `switches` switches, or 0. */
unsigned int ot_mms_q_for(uint32_t switches);
/* The q of the smallest MMS graph with at least `switches` switches, if
 * at most half of its switches would be missing; 0 otherwise. */
unsigned int ot_mms_q_covering(uint32_t switches);

/* A recognized Slim Fly. */
struct ot_sf {
	struct ot_mms mms;
	unsigned int width;  /* parallel cables per switch pair (L) */
	bool damaged;        /* some cables or switches are missing */
	uint32_t missing;    /* switches missing: positions without one */
	int32_t *sw_pos;     /* per fabric node: position, -1 if not a switch */
	int32_t *pos_sw;     /* per position: fabric node, -1 if missing */
};

/*
 * Recognizes f (indexed) as a Slim Fly, complete or with cables or
 * switches missing (at most half of the 2q^2, q the smallest prime power
 * that leaves room for every switch): *out, or -1 with err naming the
 * first switch or cable that breaks the pattern (class OT_ERR_TOPOLOGY,
 * or OT_ERR_DAMAGE when parts are missing and no MMS labelling fits what
 * is left; with switches missing the message says how many).
 */
int ot_sf_recognize(const struct ot_fabric *f, struct ot_sf **out,
		    struct ot_error *err);
void ot_sf_free(struct ot_sf *sf);

/* "(t,x,y)" of a position into buf. */
void ot_sf_pos_str(const struct ot_mms *m, uint32_t pos, char *buf,
		   unsigned int len);

#endif
