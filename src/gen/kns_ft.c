// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KNS fabrics whose dimension lines are fat trees (seed 000, "Implementation
 * and testing of a KNS topology in an InfiniBand cluster", section 2.2: when
 * a line of k routers does not fit one switch, it is an indirect network of
 * s stages), behind `osmtopo gen kns K N --down .. --up ..`.  Each line is
 * an extended generalized fat tree, XGFT(s; m_1..m_s; w_1..w_s) (Ohring et
 * al. 1995), whose level-0 nodes are the line's k routers: a level-i node
 * is labelled (x_s..x_{i+1}; y_i..y_1), x_j < m_j, y_j < w_j, and cabled to
 * the w_{i+1} level-(i+1) nodes that share its label except in position
 * i+1.  The router at coordinate t of a line is x = t in mixed radix, x_1
 * least significant.  Names carry the intended coordinates for tests; the
 * recognizer never reads them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/common.h"
#include "gen/gen.h"
#include "model/prng.h"

struct ft_shape {
	unsigned int k, n, s, cas;
	unsigned int m[OT_KNS_MAX_STAGES + 2], w[OT_KNS_MAX_STAGES + 2];
	unsigned int L[OT_KNS_MAX_STAGES + 2]; /* cables, stage i-1 to i */
	uint32_t routers, lines;               /* k^n, n k^(n-1) */
	uint32_t per_stage[OT_KNS_MAX_STAGES + 1]; /* switches per line */
	uint32_t stage_base[OT_KNS_MAX_STAGES + 2]; /* within a line */
	uint32_t per_line, switches, nodes;
	unsigned int radix;
	const bool *present; /* per line switch, after the drops */
};

static uint32_t kpow(unsigned int k, unsigned int e)
{
	uint32_t v = 1;

	while (e--)
		v *= k;
	return v;
}

/* The router at coordinate t of line l of dimension d. */
static uint32_t router_on(const struct ft_shape *s, unsigned int d,
			  uint32_t l, unsigned int t)
{
	uint32_t low = kpow(s->k, d);

	return (l / low) * low * s->k + t * low + l % low;
}

/* Logical node of switch j of stage i of line l of dimension d. */
static uint32_t sw_node(const struct ft_shape *s, unsigned int d, uint32_t l,
			unsigned int i, uint32_t j)
{
	return s->routers + ((uint32_t)d * (s->routers / s->k) + l) *
	       s->per_line + s->stage_base[i] + j;
}

static int check_params(const struct ot_kns_params *p, struct ft_shape *s,
			struct ot_error *err)
{
	uint64_t routers, prod = 1, cnt;
	unsigned int i, j, ports;

	if (p->k < 2 || p->n < 1 || p->cas < 1 || p->links < 1)
		return ot_error_set(err,
				    "kns: need k >= 2, n >= 1, cas >= 1, links >= 1");
	if (p->stages < 1 || p->stages > OT_KNS_MAX_STAGES)
		return ot_error_set(err, "kns: 1 to %u stages per line",
				    OT_KNS_MAX_STAGES);
	memset(s, 0, sizeof(*s));
	s->k = p->k;
	s->n = p->n;
	s->s = p->stages;
	s->cas = p->cas;
	if (gen_kns_routers(p->k, p->n, &routers, err))
		return -1;
	for (i = 1; i <= s->s; i++) {
		s->m[i] = p->line_down[i];
		s->w[i] = p->line_up[i] ? p->line_up[i] : 1;
		s->L[i] = i == 1 ? p->links :
			  (p->line_links[i] ? p->line_links[i] : 1);
		if (!s->m[i])
			return ot_error_set(err,
					    "kns: stage %u: children per switch (--down) must be >= 1",
					    i);
		prod *= s->m[i];
	}
	if (prod != p->k)
		return ot_error_set(err,
				    "kns: the children per switch of the %u stages multiply to %llu, not k = %u",
				    s->s, (unsigned long long)prod, p->k);
	/* per line: stage i has m_{i+1}..m_s x w_1..w_i switches */
	for (i = 1; i <= s->s; i++) {
		cnt = 1;
		for (j = i + 1; j <= s->s; j++)
			cnt *= s->m[j];
		for (j = 1; j <= i; j++)
			cnt *= s->w[j];
		if (cnt > 1u << 16)
			return ot_error_set(err,
					    "kns: %llu switches at stage %u of a line",
					    (unsigned long long)cnt, i);
		s->per_stage[i] = cnt;
	}
	for (i = 2; i <= s->s + 1; i++)
		s->stage_base[i] = s->stage_base[i - 1] + s->per_stage[i - 1];
	s->per_line = s->stage_base[s->s + 1];
	s->routers = routers;
	s->lines = p->n * (uint32_t)(routers / p->k);
	if ((uint64_t)s->lines * s->per_line + routers * (1 + p->cas) >
	    1u << 22)
		return ot_error_set(err, "kns: more nodes than osmtopo generates");
	s->switches = s->lines * s->per_line;
	s->nodes = s->routers + s->switches + s->routers * p->cas;
	ports = p->cas + p->n * s->w[1] * s->L[1];
	s->radix = ports;
	for (i = 1; i <= s->s; i++) {
		ports = s->m[i] * s->L[i] +
			(i < s->s ? s->w[i + 1] * s->L[i + 1] : 0);
		if (ports > s->radix)
			s->radix = ports;
	}
	if (s->radix > OT_MAX_PORTS)
		return ot_error_set(err, "kns: more than %u ports per switch",
				    OT_MAX_PORTS);
	if (p->radix) {
		if (p->radix < s->radix)
			return ot_error_set(err,
					    "kns: radix %u too small: a router or line switch needs %u ports",
					    p->radix, s->radix);
		if (p->radix > OT_MAX_PORTS)
			return ot_error_set(err, "kns: radix %u > %u",
					    p->radix, OT_MAX_PORTS);
		s->radix = p->radix;
	}
	return 0;
}

static bool node_name(const void *ctx, uint32_t ln, char *buf, size_t len)
{
	const struct ft_shape *s = ctx;

	if (ln < s->routers) {
		gen_kns_name(s->k, s->n, ln, -1, buf, len);
	} else if (ln < s->routers + s->switches) {
		uint32_t x = ln - s->routers, line = x / s->per_line;
		uint32_t j = x % s->per_line;
		unsigned int i = 1;

		if (!s->present[x])
			return false;
		while (j >= s->stage_base[i + 1])
			i++;
		snprintf(buf, len, "S[%u,%u,%u,%u]",
			 line / (s->routers / s->k),
			 line % (s->routers / s->k), i, j - s->stage_base[i]);
	} else {
		uint32_t x = ln - s->routers - s->switches;

		gen_kns_name(s->k, s->n, x / s->cas, (int)(x % s->cas), buf,
			     len);
	}
	return true;
}

/*
 * The XGFT index of a level-i node of a line: Y + W_i X, with
 * Y = y_1 + w_1 (y_2 + ...) and X = x_{i+1} + m_{i+1} (x_{i+2} + ...).
 * Its parent with y_{i+1} = y: X / m_{i+1} and Y + W_i y; its x_{i+1}
 * (its place among the parent's children) is X mod m_{i+1}.
 */
struct cable_list {
	struct gen_cable *c;
	uint32_t n, cap;
	bool *droppable;
};

static int push_cable(struct cable_list *cl, uint32_t a, unsigned int pa,
		      uint32_t b, unsigned int pb, bool droppable)
{
	if (cl->n == cl->cap) {
		uint32_t cap = cl->cap ? 2 * cl->cap : 1024;
		struct gen_cable *c = realloc(cl->c, cap * sizeof(*c));
		bool *dr = realloc(cl->droppable, cap * sizeof(*dr));

		if (c)
			cl->c = c;
		if (dr)
			cl->droppable = dr;
		if (!c || !dr)
			return -1;
		cl->cap = cap;
	}
	cl->c[cl->n].a = a;
	cl->c[cl->n].pa = pa;
	cl->c[cl->n].b = b;
	cl->c[cl->n].pb = pb;
	cl->droppable[cl->n] = droppable;
	cl->n++;
	return 0;
}

/* Every cable of line l of dimension d. */
static int line_cables(const struct ft_shape *s, unsigned int d, uint32_t l,
		       struct cable_list *cl)
{
	unsigned int i, y, lane;
	uint32_t W = 1, j, X, Y, t;

	for (i = 0; i < s->s; i++) {
		/* level-i nodes to their level-(i+1) parents */
		uint32_t count = i ? s->per_stage[i] : s->k;
		unsigned int mi1 = s->m[i + 1], wi1 = s->w[i + 1];
		unsigned int Li1 = s->L[i + 1];

		for (j = 0; j < count; j++) {
			uint32_t child, parent;

			if (i == 0) {
				t = j;
				child = router_on(s, d, l, t);
				X = t;
				Y = 0;
			} else {
				child = sw_node(s, d, l, i, j);
				X = j / W;
				Y = j % W;
			}
			for (y = 0; y < wi1; y++) {
				uint32_t pj = Y + W * y + W * wi1 * (X / mi1);

				parent = sw_node(s, d, l, i + 1, pj);
				for (lane = 0; lane < Li1; lane++) {
					unsigned int cp, pp;

					if (i == 0)
						cp = 1 + s->cas +
						     (d * wi1 + y) * Li1 + lane;
					else
						cp = 1 + s->m[i] * s->L[i] +
						     y * Li1 + lane;
					pp = 1 + (X % mi1) * Li1 + lane;
					if (push_cable(cl, child, cp, parent, pp,
						       wi1 > 1))
						return -1;
				}
			}
		}
		W *= wi1;
	}
	return 0;
}

struct ot_fabric *ot_gen_kns_ft(const struct ot_kns_params *p,
				struct ot_error *err)
{
	struct ft_shape s;
	struct gen_layout lay = { 0 };
	struct cable_list cl = { 0 };
	struct ot_prng rng = { .state = p->drop_seed };
	struct ot_fabric *f = NULL;
	bool *present = NULL, *kept = NULL, *slot_ok = NULL;
	uint32_t *slot = NULL, nslots = 0, *cidx = NULL, ncand = 0;
	uint32_t i, l, x;
	unsigned int d, st;
	int error;

	error = check_params(p, &s, err);
	if (error)
		return NULL;
	present = malloc(((size_t)s.switches + 1) * sizeof(*present));
	slot = malloc(((size_t)s.switches + 1) * sizeof(*slot));
	slot_ok = malloc(((size_t)s.switches + 1) * sizeof(*slot_ok));
	f = ot_fabric_new();
	if (!present || !slot || !slot_ok || !f ||
	    gen_layout_init(&lay, s.nodes, s.routers + s.switches, s.radix))
		goto nomem;
	/* switches that may be dropped: stages with siblings (w_i > 1) */
	for (x = 0; x < s.switches; x++) {
		uint32_t j = x % s.per_line;

		present[x] = true;
		for (st = 1; j >= s.stage_base[st + 1]; st++)
			;
		if (s.w[st] > 1)
			slot[nslots++] = x;
	}
	if (nslots && p->drop_switches > 0) {
		if (gen_drop_switches(nslots, p->drop_switches, &rng, slot_ok,
				      err))
			goto fail;
		for (i = 0; i < nslots; i++)
			present[slot[i]] = slot_ok[i];
	}
	s.present = present;
	for (d = 0; d < s.n; d++)
		for (l = 0; l < s.routers / s.k; l++)
			if (line_cables(&s, d, l, &cl))
				goto nomem;
	kept = malloc(((size_t)cl.n + 1) * sizeof(*kept));
	cidx = malloc(((size_t)cl.n + 1) * sizeof(*cidx));
	if (!kept || !cidx)
		goto nomem;
	for (i = 0; i < cl.n; i++) {
		const struct gen_cable *c = &cl.c[i];
		bool a_ok = c->a < s.routers || present[c->a - s.routers];
		bool b_ok = present[c->b - s.routers];

		kept[i] = a_ok && b_ok;
		if (kept[i] && cl.droppable[i])
			cidx[ncand++] = i;
	}
	if (ncand && p->drop_links > 0) {
		bool *ck = NULL;

		if (gen_drop_cables(ncand, p->drop_links, &rng, &ck, err))
			goto fail;
		for (i = 0; i < ncand; i++)
			kept[cidx[i]] = ck[i];
		free(ck);
	}
	/*
	 * A switch no router reaches over the cables kept is gone, with its
	 * cables (no SM sees it): one whose every cable was drawn, and
	 * islands of switches cut off from the routers' side.
	 */
	memset(slot_ok, 0, (size_t)s.switches + 1);
	for (l = 1; l;) {
		l = 0;
		for (i = 0; i < cl.n; i++) {
			const struct gen_cable *c = &cl.c[i];
			bool a_in = c->a < s.routers || slot_ok[c->a - s.routers];

			if (!kept[i] || a_in == slot_ok[c->b - s.routers])
				continue;
			if (a_in)
				slot_ok[c->b - s.routers] = true;
			else
				slot_ok[c->a - s.routers] = true;
			l = 1;
		}
	}
	for (x = 0; x < s.switches; x++)
		present[x] = present[x] && slot_ok[x];
	for (i = 0; i < cl.n; i++)
		kept[i] = kept[i] && slot_ok[cl.c[i].b - s.routers];
	if (p->shuffle)
		gen_layout_shuffle(&lay, p->seed);
	if (gen_add_nodes(f, &lay, node_name, &s, err) ||
	    gen_link_cas(f, &lay, s.routers, s.routers + s.switches, s.cas,
			 err) ||
	    gen_link_cables(f, &lay, cl.c, kept, cl.n, err))
		goto fail;
	goto out;
nomem:
	ot_error_nomem(err, "kns");
fail:
	ot_fabric_free(f);
	f = NULL;
out:
	gen_layout_free(&lay);
	free(present);
	free(slot);
	free(slot_ok);
	free(kept);
	free(cidx);
	free(cl.c);
	free(cl.droppable);
	return f;
}
