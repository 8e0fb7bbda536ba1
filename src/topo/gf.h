/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Finite fields GF(q), q = p^m a prime power, as full tables: the
 * arithmetic the Slim Fly (MMS graph) generator, recognizer and engine
 * share.  An element is a number 0..q-1, the base-p digits of its
 * polynomial's coefficients (constant term lowest); for m > 1 products
 * are reduced modulo an irreducible polynomial of degree m, so GF(4) is
 * not the integers mod 4.  0 is zero and 1 is one.
 */
#ifndef OSMTOPO_TOPO_GF_H
#define OSMTOPO_TOPO_GF_H

#include <stdint.h>

#include "model/error.h"

/* Largest q supported (elements fit a byte). */
#define OT_GF_MAX_Q 256

struct ot_gf {
	unsigned int q, p, m;
	uint32_t poly;  /* the reduction polynomial's low m digits (m > 1) */
	uint8_t prim;   /* a primitive element: its powers are all of GF(q)* */
	uint8_t *add;   /* q * q: add[a * q + b] = a + b */
	uint8_t *mul;   /* q * q */
	uint8_t *neg;   /* q: -a */
	uint8_t *inv;   /* q: 1 / a, inv[0] = 0 */
	uint8_t *pow;   /* q - 1: pow[k] = prim^k */
	uint8_t *log;   /* q: log[prim^k] = k, log[0] = 0 */
};

/*
 * Builds GF(q).  0, or -1 with err set when q is not a prime power in
 * 2..OT_GF_MAX_Q or memory runs out.
 */
int ot_gf_init(struct ot_gf *g, unsigned int q, struct ot_error *err);
void ot_gf_free(struct ot_gf *g);

/* Whether q is a prime power p^m; fills *p and *m when it is. */
int ot_gf_prime_power(unsigned int q, unsigned int *p, unsigned int *m);

static inline unsigned int ot_gf_add(const struct ot_gf *g, unsigned int a,
				     unsigned int b)
{
	return g->add[a * g->q + b];
}

static inline unsigned int ot_gf_sub(const struct ot_gf *g, unsigned int a,
				     unsigned int b)
{
	return g->add[a * g->q + g->neg[b]];
}

static inline unsigned int ot_gf_mul(const struct ot_gf *g, unsigned int a,
				     unsigned int b)
{
	return g->mul[a * g->q + b];
}

/* a / b for b != 0. */
static inline unsigned int ot_gf_div(const struct ot_gf *g, unsigned int a,
				     unsigned int b)
{
	return g->mul[a * g->q + g->inv[b]];
}

#endif
