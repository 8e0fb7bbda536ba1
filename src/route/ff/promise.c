// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What the FlatFly engines promise about their paths (the promise of
 * src/model/routing.h), stated from what the engine core (core.c) did on
 * this fabric, and the VL rule both the SL2VL tables and the promise come
 * from.  The checker holds a routing to it: the engine's own offline, or
 * a live fabric's tables against the engine run on the discovered fabric.
 *
 * The rule of a path toward a destination routed by the variant (not on
 * the escape layer): every switch-to-switch hop crosses one dimension;
 * after the twist (twisted variants: up to one hop in the last dimension
 * of the destination's order, two with a twist detour) the dimensions
 * come in the order of the destination's layer, at most one hop each (two
 * when ADOR or an in-line detour takes a second hop in a dimension); the
 * path SL is the destination's layer (or the escape SL); and every hop,
 * the CA's first one included, is on the VL the rule below gives for its
 * input and output ports.  A destination on the escape layer is promised
 * only what every engine promises: reached, without a credit loop.
 */
#include <stdio.h>
#include <stdlib.h>

#include "route/ff/ff.h"

unsigned int ff_vlrule_vls(const struct ff_vlrule *v)
{
	unsigned int vls = v->norders * (v->same_dim_hops ? 2 : 1);

	if (v->variant & FF_TWISTED)
		vls += v->twist_detour ? 2 : 1;
	return vls + v->any_escape;
}

uint8_t ff_hop_vl(const struct ff_vlrule *v, unsigned int sl, int din,
		  int dout)
{
	unsigned int l = sl < v->norders ? sl : 0;
	unsigned int per = v->same_dim_hops ? 2 : 1;

	/* The escape layer: one VL above the variant's, on every hop. */
	if (sl == FF_ESCAPE_SL && v->any_escape)
		return ff_vlrule_vls(v) - 1;
	if ((v->variant & FF_TWISTED) && dout >= 0) {
		if (din < 0)
			return v->norders * per; /* F1 */
		if (v->twist_detour && din == dout && din == v->last[l])
			return v->norders * per + 1; /* F2 */
	}
	return l * per + (v->same_dim_hops && din >= 0 && din == dout);
}

/* The promise's context: owns the mapping the rule reads coordinates of. */
struct ff_promise {
	struct ot_ff *ff;
	struct ff_vlrule v;
	uint8_t pos[FF_MAX_ORDERS][OT_FF_MAX_DIMS]; /* place of a dimension */
	uint8_t *sl;        /* per LID: the path SL the engine gives */
	uint8_t *routed;    /* per LID: 1 variant, 2 escape layer, 0 none */
	uint16_t max_lid;
	bool own_sl2vl;     /* the engine programs SL2VL: check every VL */
	bool own_sls;       /* the engine hands out path SLs */
	unsigned int per_dim, twist_hops;
};

static void ff_promise_free(void *ctx)
{
	struct ff_promise *p = ctx;

	if (!p)
		return;
	ot_ff_free(p->ff);
	free(p->sl);
	free(p->routed);
	free(p);
}

/* Dimension of the port a packet arrives on at path hop k (-1: a CA's). */
static int in_dim(const struct ff_promise *pr, const struct ot_path *p,
		  unsigned int k)
{
	const struct ot_fabric *f = pr->ff->fabric;
	const struct ot_port *prev;

	if (!k || !ot_is_switch(f, p->node[k]))
		return -1;
	prev = &f->node[p->node[k - 1]].port[p->port[k - 1]];
	return ot_ff_port_dim(pr->ff, p->node[k], prev->peer_port);
}

static int check_vls(const struct ff_promise *pr, const struct ot_path *p,
		     struct ot_error *why)
{
	const struct ot_fabric *f = pr->ff->fabric;
	unsigned int k;

	for (k = 0; k + 1 < p->len; k++) {
		bool sw = ot_is_switch(f, p->node[k]);
		int dout = sw ? ot_ff_port_dim(pr->ff, p->node[k], p->port[k]) :
				-1;
		uint8_t want = ff_hop_vl(&pr->v, p->sl, in_dim(pr, p, k), dout);

		if (p->vl[k] != want)
			return ot_error_set(why,
				"hop %u out of \"%s\" port %u on VL %u, the engine's rule gives VL %u",
				k + 1, f->node[p->node[k]].desc, p->port[k],
				p->vl[k], want);
	}
	return 0;
}

/* The dimensions of the switch-to-switch hops, against the layer's order. */
static int check_order(const struct ff_promise *pr, const struct ot_path *p,
		       unsigned int layer, struct ot_error *why)
{
	const struct ot_fabric *f = pr->ff->fabric;
	unsigned int k = 1, twist = 0, run = 0;
	int prev = -1;

	for (k = 1; k + 2 < p->len; k++) {
		int d = ot_ff_port_dim(pr->ff, p->node[k], p->port[k]);

		if (d < 0)
			return ot_error_set(why,
				"hop %u out of \"%s\" port %u is no FlatFly cable",
				k + 1, f->node[p->node[k]].desc, p->port[k]);
		if (prev < 0 && twist < pr->twist_hops &&
		    d == pr->v.last[layer]) {
			twist++;
			continue;
		}
		if (d == prev && ++run <= pr->per_dim)
			continue;
		if (d == prev)
			return ot_error_set(why,
				"%u hops in a row in dimension %d at \"%s\", at most %u promised",
				run, d, f->node[p->node[k]].desc, pr->per_dim);
		if (prev >= 0 && pr->pos[layer][d] < pr->pos[layer][prev])
			return ot_error_set(why,
				"hop %u out of \"%s\" in dimension %d after dimension %d, against order %u",
				k + 1, f->node[p->node[k]].desc, d, prev,
				layer);
		prev = d;
		run = 1;
	}
	return 0;
}

static int ff_rule(const void *ctx, const struct ot_path *p,
		   struct ot_error *why)
{
	const struct ff_promise *pr = ctx;
	unsigned int want;

	if (p->dlid > pr->max_lid || !pr->routed[p->dlid])
		return ot_error_set(why, "LID %u is no destination the engine routed",
				    p->dlid);
	want = pr->own_sls ? pr->sl[p->dlid] : 0;
	if (pr->own_sls && p->sl != want)
		return ot_error_set(why,
			"path SL %u, the engine gives SL %u toward LID %u",
			p->sl, want, p->dlid);
	if (pr->own_sl2vl && check_vls(pr, p, why))
		return -1;
	if (pr->routed[p->dlid] == 2)
		return 0; /* the escape layer promises no order */
	return check_order(pr, p, want < pr->v.norders ? want : 0, why);
}

/* The promise's numbers, from what the engine core did on this fabric. */
static void set_numbers(const struct ff_ctx *c, struct ot_promise *p,
			const struct ff_promise *pr)
{
	bool ador = c->variant & FF_ADOR, twisted = c->variant & FF_TWISTED;
	unsigned int l;

	p->minimal = OT_MINIMAL_NONE;
	if (!twisted && !c->detours && !c->any_escape)
		p->minimal = ador ? OT_MINIMAL_BASE : OT_MINIMAL_ALL;
	p->max_switch_hops = c->any_escape ? 0 :
			     c->n * pr->per_dim + pr->twist_hops;
	p->sls = 0;
	for (l = 0; l < c->norders; l++)
		p->sls |= 1u << l;
	if (c->any_escape)
		p->sls |= 1u << FF_ESCAPE_SL;
	if (!pr->own_sls)
		p->sls = 1;
	p->text = twisted ? "FlatFly DOR after a twist hop: dimensions in the destination's order, on the SL and VLs of the engine's rule" :
		  p->minimal == OT_MINIMAL_ALL ? "FlatFly DOR: minimal, dimensions in the destination's order, on the SL and VLs of the engine's rule" :
		  "FlatFly DOR: dimensions in the destination's order, on the SL and VLs of the engine's rule";
	p->rule_text = "each hop crosses one dimension, in the order of the destination's SL (after the twist), on the VL the engine's SL2VL rule gives";
}

int ff_set_promise(const struct ff_ctx *c, struct ot_routing *out,
		   struct ot_ff *ff)
{
	struct ff_promise *pr = calloc(1, sizeof(*pr));
	struct ot_promise *p = &out->promise;
	unsigned int l, i;
	uint32_t q;

	if (pr) {
		pr->sl = calloc((size_t)c->f->max_lid + 1, 1);
		pr->routed = calloc((size_t)c->f->max_lid + 1, 1);
	}
	if (!pr || !pr->sl || !pr->routed) {
		if (pr) {
			free(pr->sl);
			free(pr->routed);
		}
		free(pr);
		return ot_error_nomem(c->err, c->name);
	}
	pr->ff = ff;
	pr->v = (struct ff_vlrule){ c->variant, c->norders, { 0 },
				    c->same_dim_hops, c->twist_detour,
				    c->any_escape };
	for (l = 0; l < c->norders; l++) {
		pr->v.last[l] = c->order[l][c->n - 1];
		for (i = 0; i < c->n; i++)
			pr->pos[l][c->order[l][i]] = i;
	}
	pr->max_lid = c->f->max_lid;
	pr->own_sl2vl = out->needs_qos;
	pr->own_sls = out->path_sl != NULL;
	pr->per_dim = c->same_dim_hops ? 2 : 1;
	pr->twist_hops = !(c->variant & FF_TWISTED) ? 0 :
			 c->twist_detour ? 2 : 1;
	for (q = 0; q < c->nlids; q++) {
		const struct ff_dest *t = &c->dest[c->lids[q]];

		pr->routed[c->lids[q]] = t->escape ? 2 : 1;
		pr->sl[c->lids[q]] = t->escape ? FF_ESCAPE_SL : t->layer;
	}
	set_numbers(c, p, pr);
	p->rule = ff_rule;
	p->source_free = true;
	p->ctx = pr;
	p->free_ctx = ff_promise_free;
	return 0;
}
