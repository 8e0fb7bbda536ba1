// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The ff-* engines on Slim Fly x FlatFly products (seed 001, "Early
 * evaluation of direct large-scale InfiniBand networks with adaptive
 * routing", 3.6: "DOR, ADOR and their Mixed and Twisted variants may be
 * used for SF x FF products, considering Slim Fly as a dimension of a
 * Flat Fly").  What the engine core (core.c) needs to treat a Slim Fly
 * factor as a dimension, as hooks it calls:
 *
 * Mapping.  When the FlatFly recognizer refuses a fabric, the product
 * recognizer (topo/sfff.h) is tried; its answer is a FlatFly mapping
 * whose dimension 0 is the Slim Fly, the coordinate an MMS position.  A
 * Slim Fly without a FlatFly factor is refused: it is sf-mms's, and a
 * routing_engine chain "ff-dor,sf-mms" keeps giving it to sf-mms.
 * To the core that is a dimension whose lines are MMS graphs: full
 * graphs with most cables missing.  Coordinates are bytes in the core,
 * so the Slim Fly factor has at most 256 positions (q <= 11).
 *
 * Routing inside the Slim Fly dimension.  A hop to coordinate v of the
 * Slim Fly dimension is sf-mms's minimal rule: straight to v when cabled
 * (the paper's cases y and t), otherwise through a common MMS neighbour
 * (yy, tt, ty, yt: exactly the common neighbours, as sf-mms takes them),
 * picked by (own position + destination's place in the dealing order)
 * among those cabled on both sides, so the 2-hop paths spread.  That is
 * the core's in-line detour (find_detour()), with the candidates taken
 * from a table of common neighbours instead of the whole line; the
 * intermediate switch's own entry goes straight on to v, so the rule
 * stays destination-only.  The second hop enters the dimension from the
 * same dimension, and SL2VL puts it on the layer's second VL (the core's
 * rule for same-dimension hops: VL 2l + 1 for input and output port in
 * the same dimension), the paper's VL 0 / VL 1 step of sf-mms moved into
 * the layer: ranking a channel of dimension i on VL b as 2 pos(i) + b,
 * ranks strictly increase along every path, so no credit loop.  VL
 * budget per variant, on a complete product (no escape VL):
 *   ff-dor, ff-ador 2;  ff-mixed-dor, ff-mixed-ador 2 per order (4
 *   orders in 8);  ff-twisted-dor, ff-twisted-ador 3 (4 when some twist
 *   takes two hops);  ff-twisted-mixed-dor/-ador 2 per order + 1 or 2,
 *   orders shed until 8 fit (3 orders: 7 or 8).
 * Variants that do not fit refuse with the count (core.c).
 *
 * On a complete product these 2-hop moves are shortest paths (the MMS
 * distance), not detours: the promise stays minimal where it is for a
 * FlatFly.  ADOR takes no extra hop in the Slim Fly dimension (its
 * minimal rule is the dimension's own); a twist in it (Mixed orders that
 * end with it) goes to the destination's own MMS position, directly or
 * through a common neighbour, never to another coordinate: a twist to
 * tau != T's position would need a third hop in the dimension.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "route/ff/ff.h"
#include "topo/sfff.h"

struct ff_sfdim {
	struct ot_sfff *p;  /* the recognizer's answer, ff taken over */
	uint32_t *start;    /* per pair (a, b) of MMS positions */
	uint8_t *via;       /* common neighbours of each pair, ascending */
	bool complete;      /* every MMS cable present in every copy */
};

/* Common neighbours of every pair of MMS positions, as CSR lists. */
static int common_neighbours(struct ff_sfdim *x, struct ot_error *err)
{
	const struct ot_mms *m = &x->p->mms;
	uint64_t n = m->n, a, k, j, total = 0;
	uint32_t *fill;

	x->start = calloc(n * n + 1, sizeof(*x->start));
	fill = calloc(n * n + 1, sizeof(*fill));
	if (!x->start || !fill) {
		free(fill);
		return ot_error_nomem(err, "sfxff");
	}
	for (a = 0; a < n; a++)
		for (k = 0; k < m->deg; k++) {
			uint32_t u = m->nb[a * m->deg + k];

			for (j = 0; j < m->deg; j++)
				x->start[a * n + m->nb[(uint64_t)u * m->deg + j] + 1]++;
		}
	for (a = 0; a < n * n; a++) {
		total += x->start[a + 1];
		x->start[a + 1] = total;
	}
	x->via = malloc(total + 1);
	if (!x->via) {
		free(fill);
		return ot_error_nomem(err, "sfxff");
	}
	for (a = 0; a < n; a++)
		for (k = 0; k < m->deg; k++) {
			uint32_t u = m->nb[a * m->deg + k];

			for (j = 0; j < m->deg; j++) {
				uint64_t pr = a * n + m->nb[(uint64_t)u * m->deg + j];

				x->via[x->start[pr] + fill[pr]++] = u;
			}
		}
	free(fill);
	return 0;
}

void ff_sfdim_free(struct ff_sfdim *x)
{
	if (!x)
		return;
	ot_sfff_free(x->p);
	free(x->start);
	free(x->via);
	free(x);
}

/* Refusal text of both recognizers into err. */
static int refuse_both(const struct ot_error *ffwhy,
		       const struct ot_error *sfwhy, struct ot_error *err)
{
	return ot_refuse(err, OT_ERR_TOPOLOGY,
			 "%.*s; nor a Slim Fly x FlatFly: %.*s",
			 OT_ERROR_LEN / 2 - 32, ffwhy->msg,
			 OT_ERROR_LEN / 2 - 32, sfwhy->msg);
}

int ff_map_fabric(const struct ot_fabric *f, struct ot_ff **ff,
		  struct ff_sfdim **sf, struct ot_error *err)
{
	struct ot_error ffwhy = { 0 }, sfwhy = { 0 };
	struct ff_sfdim *x;

	*sf = NULL;
	if (!ot_ff_map(f, ff, &ffwhy))
		return 0;
	if (ffwhy.cls == OT_ERR_NOMEM)
		return ot_error_wrap(err, &ffwhy, OT_ERR_NOMEM, "flatfly");
	x = calloc(1, sizeof(*x));
	if (!x)
		return ot_error_nomem(err, "sfxff");
	switch (ot_sfff_recognize(f, &x->p, &sfwhy)) {
	case 0:
		break;
	case -2: /* no Slim Fly factor: the FlatFly refusal says it all */
		free(x);
		*err = ffwhy;
		return -1;
	default:
		free(x);
		return refuse_both(&ffwhy, &sfwhy, err);
	}
	if (x->p->ff->ndims < 2) {
		/* a Slim Fly alone is sf-mms's (and stays so in a chain) */
		ot_refuse(err, OT_ERR_TOPOLOGY,
			  "%.*s; a Slim Fly (q=%u) without a FlatFly factor: sf-mms routes it",
			  OT_ERROR_LEN / 2, ffwhy.msg, x->p->mms.q);
		ff_sfdim_free(x);
		return -1;
	}
	if (x->p->mms.n > 256) {
		ot_refuse(err, OT_ERR_TOPOLOGY,
			  "a Slim Fly (q=%u) x FlatFly: %u Slim Fly positions, the ff-* engines hold a coordinate in a byte (q <= 11)",
			  x->p->mms.q, x->p->mms.n);
		ff_sfdim_free(x);
		return -1;
	}
	if (common_neighbours(x, err)) {
		ff_sfdim_free(x);
		return -1;
	}
	*ff = x->p->ff;
	x->p->ff = NULL;
	*sf = x;
	return 0;
}

/* Whether every MMS cable of the Slim Fly dimension is there. */
void ff_sfdim_prepare(struct ff_ctx *c)
{
	const struct ot_mms *m;
	uint32_t s, k;

	c->sfdim = c->sf ? OT_SFFF_SF_DIM : -1;
	if (!c->sf)
		return;
	m = &c->sf->p->mms;
	c->sf->complete = true;
	for (s = 0; s < c->nslots && c->sf->complete; s++) {
		unsigned int own = ff_coords(c, s)[c->sfdim];

		if (c->ff->slot_node[s] < 0)
			c->sf->complete = false;
		for (k = 0; k < m->deg && c->sf->complete; k++)
			c->sf->complete =
				ff_has(c, s, c->sfdim,
				       m->nb[(uint64_t)own * m->deg + k]);
	}
}

bool ff_sfdim_minimal(const struct ff_ctx *c, unsigned int i)
{
	return (int)i == c->sfdim && c->sf->complete;
}

int ff_sfdim_detour(const struct ff_ctx *c, uint32_t s, unsigned int v,
		    unsigned int skip, uint32_t seq)
{
	const struct ff_sfdim *x = c->sf;
	unsigned int i = c->sfdim, own = ff_coords(c, s)[i], n, k, cnt = 0;
	uint64_t pr = (uint64_t)own * c->ff->size[i] + v;
	const uint8_t *via = x->via + x->start[pr];

	n = x->start[pr + 1] - x->start[pr];
	for (k = 0; k < n; k++)
		cnt += via[k] != skip && ff_has(c, s, i, via[k]) &&
		       ff_has(c, ff_move(c, s, i, via[k]), i, v);
	if (!cnt)
		return -1;
	cnt = (own + seq) % cnt;
	for (k = 0;; k++)
		if (via[k] != skip && ff_has(c, s, i, via[k]) &&
		    ff_has(c, ff_move(c, s, i, via[k]), i, v) && !cnt--)
			return via[k];
}
