// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * GF(q) tables (see gf.h).  Addition is digit-wise mod p; multiplication
 * multiplies polynomials over GF(p) and reduces modulo the first monic
 * polynomial of degree m (in the order of its digits) under which every
 * nonzero element has an inverse, which is exactly an irreducible one.
 * Built once per recognizer or generator run: q^2 bytes per table.
 */
#include <stdlib.h>
#include <string.h>

#include "topo/gf.h"

int ot_gf_prime_power(unsigned int q, unsigned int *p, unsigned int *m)
{
	unsigned int d, k = 0;

	if (q < 2)
		return 0;
	for (d = 2; d * d <= q && q % d; d++)
		;
	if (q % d)
		d = q;
	while (q % d == 0) {
		q /= d;
		k++;
	}
	if (q != 1)
		return 0;
	*p = d;
	*m = k;
	return 1;
}

/* a * b as polynomials over GF(p), reduced modulo x^m - poly(x). */
static unsigned int poly_mul(unsigned int p, unsigned int m, uint32_t poly,
			     unsigned int a, unsigned int b)
{
	unsigned int prod[16] = { 0 }, red[8], da[8], db[8];
	unsigned int i, j, out = 0;

	for (i = 0; i < m; i++) {
		da[i] = a % p;
		a /= p;
		db[i] = b % p;
		b /= p;
		red[i] = poly % p; /* x^m = -(poly) */
		poly /= p;
	}
	for (i = 0; i < m; i++)
		for (j = 0; j < m; j++)
			prod[i + j] = (prod[i + j] + da[i] * db[j]) % p;
	for (i = 2 * m - 2; i >= m; i--) {
		unsigned int c = prod[i];

		prod[i] = 0;
		/* c x^i = c x^(i-m) x^m = -c x^(i-m) poly(x) */
		for (j = 0; j < m; j++)
			prod[i - m + j] = (prod[i - m + j] +
					   (p - c) * red[j]) % p;
	}
	for (i = m; i-- > 0;)
		out = out * p + prod[i];
	return out;
}

/* Fills mul and inv for g->poly; 0 when every a != 0 has an inverse. */
static int fill_mul(struct ot_gf *g)
{
	unsigned int q = g->q, a, b;

	memset(g->inv, 0, q);
	for (a = 0; a < q; a++)
		for (b = 0; b < q; b++) {
			unsigned int c = g->m == 1 ? a * b % g->p :
				poly_mul(g->p, g->m, g->poly, a, b);

			g->mul[a * q + b] = c;
			if (c == 1)
				g->inv[a] = b;
		}
	for (a = 1; a < q; a++)
		if (!g->inv[a])
			return -1;
	return 0;
}

static void fill_add(struct ot_gf *g)
{
	unsigned int q = g->q, a, b;

	for (a = 0; a < q; a++)
		for (b = 0; b < q; b++) {
			unsigned int x = a, y = b, s = 0, w = 1, i;

			for (i = 0; i < g->m; i++) {
				s += (x % g->p + y % g->p) % g->p * w;
				x /= g->p;
				y /= g->p;
				w *= g->p;
			}
			g->add[a * q + b] = s;
			if (!s)
				g->neg[a] = b;
		}
}

/* The first element whose powers run through all of GF(q)*. */
static int find_primitive(struct ot_gf *g)
{
	unsigned int c, k, x;

	for (c = 1; c < g->q; c++) {
		x = 1;
		for (k = 0; k < g->q - 1; k++) {
			if (k && x == 1)
				break;
			g->pow[k] = x;
			g->log[x] = k;
			x = ot_gf_mul(g, x, c);
		}
		if (k == g->q - 1) {
			g->prim = c;
			g->log[0] = 0;
			return 0;
		}
	}
	return -1;
}

int ot_gf_init(struct ot_gf *g, unsigned int q, struct ot_error *err)
{
	memset(g, 0, sizeof(*g));
	if (q > OT_GF_MAX_Q || !ot_gf_prime_power(q, &g->p, &g->m))
		return ot_error_set(err,
				    "GF(%u): q must be a prime power up to %u",
				    q, OT_GF_MAX_Q);
	g->q = q;
	g->add = malloc(q * q);
	g->mul = malloc(q * q);
	g->neg = malloc(q);
	g->inv = malloc(q);
	g->pow = malloc(q);
	g->log = malloc(q);
	if (!g->add || !g->mul || !g->neg || !g->inv || !g->pow || !g->log) {
		ot_gf_free(g);
		return ot_error_nomem(err, "GF(q)");
	}
	fill_add(g);
	for (g->poly = 0; g->m > 1 && g->poly < q; g->poly++)
		if ((g->poly % g->p) && !fill_mul(g))
			break;
	if (g->m == 1)
		fill_mul(g);
	if (g->poly >= q || find_primitive(g)) {
		ot_gf_free(g);
		return ot_error_set(err, "GF(%u): no field found", q);
	}
	return 0;
}

void ot_gf_free(struct ot_gf *g)
{
	free(g->add);
	free(g->mul);
	free(g->neg);
	free(g->inv);
	free(g->pow);
	free(g->log);
	memset(g, 0, sizeof(*g));
}
