// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * df-static on a Dragonfly+ (route/df_plus.c): the VL rule, the path SLs
 * as the routing and its promise read them, and the rule the promise
 * holds every path to (shape, SL, VL of each hop).  The checker calls it
 * on every path it walks; kept apart from the routing so that what is
 * promised reads on its own.  Why these VLs are free of deadlock: the top
 * of route/df_plus.c.
 */
#include <stdlib.h>
#include <string.h>

#include "route/df_plus_rule.h"

/*
 * Bit l: port p of node n is a global cable down in Valiant layer l's
 * order; bit DFP_DAMAGE_BIT: down in the damage layer's (drank, or
 * NULL).
 */
uint8_t ot_dfp_down_mask(const struct ot_dfp *d, const uint32_t *drank,
			 uint32_t n, unsigned int p)
{
	uint8_t m = 0;
	unsigned int l;
	int32_t far;

	if (ot_dfp_port_class(d, n, p) != OT_DFP_PORT_GLOBAL)
		return 0;
	far = d->fabric->node[n].port[p].peer;
	for (l = 1; l <= OT_VALIANT_LAYERS; l++)
		if (ot_valiant_down(d->ngroups, l, (uint32_t)d->group[n],
				    (uint32_t)d->group[far]))
			m |= 1u << l;
	if (drank && drank[d->group[far]] < drank[d->group[n]])
		m |= 1u << DFP_DAMAGE_BIT;
	return m;
}

/*
 * The VL of a hop (the proof at the top of route/df_plus.c): the escape
 * SL's own VL; on the detour SL VL 1 after a global cable or after a
 * spine, VL 0 else; on Valiant layer l's SL its VL after a global cable,
 * after a spine and onto a global cable down in the layer's order (down:
 * bit l), VL 0 else; SL 0 VL 0.
 */
uint8_t ot_dfp_vl(const struct dfp_vlrule *v, unsigned int sl,
		  enum ot_dfp_port in, enum ot_dfp_port out, uint8_t down)
{
	unsigned int l = sl - DFP_VALIANT_SL0;

	if (v->escape && sl == DFP_ESCAPE_SL)
		return v->esc_vl;
	if (sl > DFP_VALIANT_SL0 && l <= OT_VALIANT_LAYERS && v->lay_vl[l])
		return in == OT_DFP_PORT_GLOBAL || in == OT_DFP_PORT_UP ||
		       (down >> l & 1) ? v->lay_vl[l] : 0;
	if (sl == DFP_DAMAGE_SL && v->dmg_vl)
		return in == OT_DFP_PORT_GLOBAL || in == OT_DFP_PORT_UP ||
		       (down >> DFP_DAMAGE_BIT & 1) ? v->dmg_vl : 0;
	if (v->detour && sl == DFP_DETOUR_SL)
		return in == OT_DFP_PORT_GLOBAL || in == OT_DFP_PORT_UP;
	if (v->turn && sl == DFP_TURN_SL)
		return !(in == OT_DFP_PORT_NONE || in == OT_DFP_PORT_CA ||
			 (in == OT_DFP_PORT_DOWN && out == OT_DFP_PORT_DOWN));
	if (v->land && sl == DFP_LAND_SL)
		return in == OT_DFP_PORT_UP ||
		       (in == OT_DFP_PORT_DOWN && out == OT_DFP_PORT_DOWN);
	return 0;
}

/* How many VLs the rule takes. */
unsigned int ot_dfp_vlrule_vls(const struct dfp_vlrule *v)
{
	bool esc1 = v->escape && v->esc_vl == 1;
	/* the damage layer on the escape layer's own VL: not one more */
	bool dmg_esc = v->escape && v->dmg_vl == v->esc_vl;
	unsigned int n = 1 + (v->detour || v->turn || v->land ||
			      v->dmg_vl == 1 || esc1) +
			 (v->escape && !esc1) + (v->dmg_vl > 1 && !dmg_esc), l;

	for (l = 1; l <= OT_VALIANT_LAYERS; l++)
		n += v->lay_vl[l] != 0;
	return n;
}


void ot_dfp_sls_free(struct dfp_sls *s)
{
	free(s->escape);
	free(s->dsl);
	free(s->srcpos);
}

unsigned int ot_dfp_sls_want(const struct dfp_sls *s, uint16_t slid,
			     uint16_t dlid)
{
	if (dlid > s->max_lid || slid > s->max_lid)
		return 0;
	if (s->escape[dlid])
		return DFP_ESCAPE_SL;
	if (!s->dsl || s->srcpos[slid] < 0)
		return 0;
	return s->dsl[(size_t)dlid * s->nleaves + (uint32_t)s->srcpos[slid]];
}


void ot_dfp_promise_free(void *ctx)
{
	struct dfp_promise *pr = ctx;

	if (!pr)
		return;
	ot_dfp_free(pr->d);
	free(pr->drank);
	ot_dfp_sls_free(&pr->sls);
	free(pr);
}

/* The class of the port node[i] of the path receives on (NONE at i 0). */
static enum ot_dfp_port in_class(const struct ot_dfp *d,
				 const struct ot_path *p, unsigned int i)
{
	const struct ot_port *pt;

	if (!i)
		return OT_DFP_PORT_NONE;
	pt = &d->fabric->node[p->node[i - 1]].port[p->port[i - 1]];
	return ot_dfp_port_class(d, p->node[i], pt->peer_port);
}

/*
 * Valiant layer l (SL 4 + l): up, global, global, down or up, global,
 * down, up, global, down (the turn at a leaf of the intermediate group),
 * the first global hop up in the layer's order, the second down.
 */
static const char *valiant_shape(const struct ot_dfp *d,
				 const uint32_t *drank, const struct ot_path *p,
				 unsigned int sl, unsigned int *at)
{
	static const char *const want[] = { "UGGD", "UGDUGD" };
	unsigned int l = sl == DFP_DAMAGE_SL ? DFP_DAMAGE_BIT :
					       sl - DFP_VALIANT_SL0;
	unsigned int i, w, g = 0;
	char got[8] = "";

	*at = 1;
	if (p->len < 7 || p->len > 9)
		return "not up-global-(down-up-)global-down on a Valiant SL";
	for (i = 1; i + 2 < p->len; i++) {
		enum ot_dfp_port pc = ot_dfp_port_class(d, p->node[i],
							 p->port[i]);

		got[i - 1] = pc == OT_DFP_PORT_UP ? 'U' :
			     pc == OT_DFP_PORT_GLOBAL ? 'G' :
			     pc == OT_DFP_PORT_DOWN ? 'D' : '?';
		if (pc == OT_DFP_PORT_GLOBAL) {
			bool down = ot_dfp_down_mask(d, drank, p->node[i],
						     p->port[i]) >> l & 1;

			*at = i;
			if (!g && down && sl != DFP_DAMAGE_SL)
				return "first global hop down in the layer's order";
			if (g && !down)
				return "second global hop up in the layer's order";
			g++;
		}
	}
	for (w = 0; w < 2; w++)
		if (!strcmp(got, want[w]))
			return NULL;
	return "not up-global-(down-up-)global-down on a Valiant SL";
}

/*
 * up? global? down? (SL 0), up? global global? down? (SL 1), up down
 * up global? down? (SL 3: the turn at a leaf of the source group).
 */
static const char *shape_error(const struct ot_dfp *d, const uint32_t *drank,
			       const struct ot_path *p, unsigned int sl,
			       unsigned int *at)
{
	unsigned int i = 1, last = 0, n[5] = { 0 };
	unsigned int max_global = sl == DFP_DETOUR_SL ? 2 : 1;

	if (sl > DFP_VALIANT_SL0)
		return valiant_shape(d, drank, p, sl, at);
	if (sl == DFP_LAND_SL) {
		static const enum ot_dfp_port want[] = {
			OT_DFP_PORT_UP, OT_DFP_PORT_GLOBAL, OT_DFP_PORT_DOWN,
			OT_DFP_PORT_UP, OT_DFP_PORT_DOWN,
		};

		for (i = 0; i < 5; i++) {
			*at = i + 1;
			if (i + 4 > p->len ||
			    ot_dfp_port_class(d, p->node[i + 1],
					      p->port[i + 1]) != want[i])
				return "not up-global-down-up-down on SL 4";
		}
		return p->len == 8 ? NULL : "a hop too many on SL 4";
	}
	if (sl == DFP_TURN_SL) {
		*at = 1;
		if (p->len < 6 ||
		    ot_dfp_port_class(d, p->node[1], p->port[1]) != OT_DFP_PORT_UP ||
		    ot_dfp_port_class(d, p->node[2], p->port[2]) != OT_DFP_PORT_DOWN)
			return "no up-down turn on SL 3";
		i = 3;
	}
	for (; i + 2 < p->len; i++) {
		enum ot_dfp_port pc = ot_dfp_port_class(d, p->node[i],
							 p->port[i]);
		unsigned int r = pc == OT_DFP_PORT_UP ? 1 :
				 pc == OT_DFP_PORT_GLOBAL ? 2 : 3;

		*at = i;
		if (pc != OT_DFP_PORT_UP && pc != OT_DFP_PORT_GLOBAL &&
		    pc != OT_DFP_PORT_DOWN)
			return "a hop on no leaf, spine or global cable";
		if (r < last)
			return r == 1 ? "up after down or global" :
					"global after down";
		if (++n[r] > (r == 2 ? max_global : 1))
			return r == 2 ? "one global hop too many" :
					"a second hop up or down";
		last = r;
	}
	return NULL;
}

int ot_dfp_rule(const void *ctx, const struct ot_path *p,
		struct ot_error *why)
{
	const struct dfp_promise *pr = ctx;
	const struct ot_dfp *d = pr->d;
	unsigned int i, sl, at = 0;
	const char *bad;

	if (p->dlid > pr->sls.max_lid || p->slid > pr->sls.max_lid)
		return ot_error_set(why, "LID %u or %u beyond the routing",
				    p->slid, p->dlid);
	sl = ot_dfp_sls_want(&pr->sls, p->slid, p->dlid);
	if (p->sl != sl)
		return ot_error_set(why, "path SL %u, the engine gives SL %u toward LID %u",
				    p->sl, sl, p->dlid);
	for (i = 0; i + 1 < p->len; i++) {
		uint8_t want = ot_dfp_vl(&pr->vr, sl, in_class(d, p, i),
					 ot_dfp_port_class(d, p->node[i],
							   p->port[i]),
					 ot_dfp_down_mask(d, pr->drank,
							  p->node[i],
							  p->port[i]));

		if (p->vl[i] != want)
			return ot_error_set(why,
					    "hop %u from \"%s\" on VL %u, the rule gives VL %u",
					    i, d->fabric->node[p->node[i]].desc,
					    p->vl[i], want);
	}
	if (sl == DFP_ESCAPE_SL && pr->vr.escape)
		return 0;
	bad = shape_error(d, pr->drank, p, sl, &at);
	if (!bad)
		return 0;
	return ot_error_set(why, "hop %u from switch \"%s\": %s, not up-global-down",
			    at, d->fabric->node[p->node[at]].desc, bad);
}
