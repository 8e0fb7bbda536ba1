// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * df-static: the static Dragonfly routing of seed 001 ("Early evaluation
 * of direct large-scale InfiniBand networks with adaptive routing"),
 * section 3.5, after the Dragonfly recognizer (src/topo/dragonfly.h) in
 * the flow (fabric -> recognizer -> coordinates -> engine -> tables ->
 * checker).  A packet takes a local hop to a switch of its group that
 * holds a global cable to the destination's group, that global hop, and a
 * local hop to the destination's switch: at most one global hop and three
 * switch-to-switch hops.  It is not minimal (some shortest paths take two
 * global hops).
 *
 * Spreading: the destination LIDs are dealt (route/deal.h) in the order
 * (LMC offset, group, switch in group, CA rank); where a switch has
 * several global cables to the destination's group, or several local
 * neighbours that do (gateways), it hands them out round-robin in the
 * order (switch in group of the far end, port), so each carries the same
 * number of destinations within one.
 *
 * Deadlock freedom on 2 VLs with one SL, by SL2VL keyed on the input
 * port's class: a hop that enters a switch on a global cable leaves on
 * VL 1, every other on VL 0.  So VL 0 carries CA -> switch, the first
 * local hop, the global hop and the last hop of a path within a group;
 * VL 1 the local hop after the global one and the hop to the CA.  On VL 0
 * a local hop is followed only by a global hop or a CA, a global hop
 * leaves VL 0; on VL 1 a local hop is followed by a CA: no cycle in the
 * channel dependencies (Dally and Seitz), so no credit loop.
 *
 * Damage: a destination the rule above cannot reach from every switch (a
 * missing local cable to its switch, a group with no global cable to its
 * group) goes, all its LIDs, to the shared escape layer (route/escape.h):
 * up*-down* on its own SL 1 mapped to VL 2 on every hop, so 3 VLs and 2
 * SLs then.  A fabric cut in two is refused with OT_ERR_DAMAGE.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/routing.h"
#include "route/deal.h"
#include "route/engines.h"
#include "route/escape.h"
#include "topo/dragonfly.h"

#define DF_ESCAPE_SL 1
#define DF_ESCAPE_VL 2

struct df_ctx {
	const struct ot_fabric *f;
	const struct ot_df *df;
	struct ot_error *err;
	uint32_t nlanes;   /* per switch: groups + largest group */
	uint16_t *order;   /* routable LIDs in dealing order */
	uint32_t norder;
	int32_t *tsw;      /* per LID: the switch it sits on, -1 none */
	uint8_t *tport;    /* per LID: that switch's port to it, 0 itself */
	uint8_t *escape;   /* per LID: 1 on the escape layer */
	bool any_escape;
	uint16_t *nglob;   /* [node * ngroups + H]: global cables to H */
	/* [node * ngroups + H]: global cables to switches with one to H */
	uint16_t *ndet;
	uint8_t *gglob;    /* [G * ngroups + H]: group G has a cable to H */
	bool any_detour;   /* some group reaches another through a third */
	uint8_t *lane;     /* [node * nlanes + bundle] */
	uint8_t *hop;      /* per node: port toward the current LID */
	/*
	 * The rule's candidates of switch s for bundle b (a group, or
	 * ngroups + a member of its own group), sorted by (far end's switch
	 * in group, port): cport[cstart[s * nlanes + b] ...].
	 */
	uint32_t *cstart;
	uint8_t *cport;
	/* the escape layer, built when a first destination needs it */
	struct ot_escape esc;
	uint8_t *present;
	uint32_t *estart, *eadj;
	bool esc_ready;
};

/* The dealing key of a LID's owner: offset, group, switch, CA rank. */
static uint64_t lid_key(const struct df_ctx *c, uint32_t lid, int32_t sw)
{
	const struct ot_lid_owner *o = &c->f->lid_owner[lid];
	const struct ot_port *pt = &c->f->node[o->node].port[o->port];
	uint64_t key = ((uint64_t)c->df->group[sw] << 24) +
		       ((uint64_t)c->df->index[sw] << 12);

	if (o->node == sw)
		return key + (1ull << 52) + 0xfff;
	key += ot_fabric_end_port_rank(c->f, sw, o->node, o->port) & 0xfff;
	return key + ((uint64_t)(lid - pt->lid) << 56);
}

static int prepare_dests(struct df_ctx *c)
{
	const struct ot_fabric *f = c->f;
	size_t n = (size_t)f->max_lid + 1;
	struct ot_deal_key *keys = malloc(n * sizeof(*keys));
	uint32_t lid, i;

	c->order = malloc(n * sizeof(*c->order));
	c->tsw = malloc(n * sizeof(*c->tsw));
	c->tport = calloc(n, 1);
	c->escape = calloc(n, 1);
	if (!keys || !c->order || !c->tsw || !c->tport || !c->escape) {
		free(keys);
		return ot_error_nomem(c->err, "df-static");
	}
	c->norder = 0;
	for (lid = 0; lid < n; lid++) {
		const struct ot_lid_owner *o = &f->lid_owner[lid];
		int32_t sw = -1;

		c->tsw[lid] = -1;
		if (lid && o->node >= 0 && ot_is_switch(f, o->node))
			sw = o->node;
		else if (lid && o->node >= 0) {
			const struct ot_port *pt =
				&f->node[o->node].port[o->port];

			if (pt->peer >= 0 && ot_is_switch(f, pt->peer)) {
				sw = pt->peer;
				c->tport[lid] = pt->peer_port;
			}
		}
		if (sw < 0 || c->df->group[sw] < 0)
			continue;
		c->tsw[lid] = sw;
		keys[c->norder].key = lid_key(c, lid, sw);
		keys[c->norder++].lid = lid;
	}
	ot_deal_sort(keys, c->norder);
	for (i = 0; i < c->norder; i++)
		c->order[i] = keys[i].lid;
	free(keys);
	return 0;
}

/* Per switch and group: global cables there, and detour cables. */
static void count_globals(struct df_ctx *c)
{
	const struct ot_fabric *f = c->f;
	const struct ot_df *df = c->df;
	uint32_t n, H, ng = df->ngroups;
	unsigned int p;

	for (n = 0; n < f->nnodes; n++)
		for (p = 1; p <= f->node[n].nports; p++)
			if (ot_df_port_class(df, n, p) == OT_DF_PORT_GLOBAL)
				c->nglob[(size_t)n * ng +
					 df->group[f->node[n].port[p].peer]]++;
	for (n = 0; n < f->nnodes; n++) {
		if (df->group[n] < 0 || !ot_is_switch(f, n))
			continue;
		for (H = 0; H < ng; H++)
			if (c->nglob[(size_t)n * ng + H])
				c->gglob[(size_t)df->group[n] * ng + H] = 1;
		for (p = 1; p <= f->node[n].nports; p++) {
			int32_t x = f->node[n].port[p].peer;

			if (ot_df_port_class(df, n, p) != OT_DF_PORT_GLOBAL)
				continue;
			for (H = 0; H < ng; H++)
				if (c->nglob[(size_t)x * ng + H])
					c->ndet[(size_t)n * ng + H]++;
		}
	}
}

static int prepare_ports(struct df_ctx *c)
{
	const struct ot_fabric *f = c->f;
	const struct ot_df *df = c->df;
	uint32_t ng = df->ngroups;

	c->nlanes = ng + df->max_size;
	c->nglob = calloc((size_t)f->nnodes * ng + 1, sizeof(*c->nglob));
	c->ndet = calloc((size_t)f->nnodes * ng + 1, sizeof(*c->ndet));
	c->gglob = calloc((size_t)ng * ng + 1, 1);
	c->lane = calloc((size_t)f->nnodes * c->nlanes + 1, 1);
	c->hop = calloc((size_t)f->nnodes + 1, 1);
	if (!c->nglob || !c->ndet || !c->gglob || !c->lane || !c->hop)
		return ot_error_nomem(c->err, "df-static");
	count_globals(c);
	return 0;
}

/* Whether port p of s leads where the rule wants a packet of bundle b. */
static bool candidate(const struct df_ctx *c, int32_t s, unsigned int p,
		      uint32_t b)
{
	const struct ot_df *df = c->df;
	int32_t x = c->f->node[s].port[p].peer;
	uint32_t ng = df->ngroups;
	enum ot_df_port cls = ot_df_port_class(df, s, p);

	if (b >= ng)
		return cls == OT_DF_PORT_LOCAL && df->index[x] == (int32_t)(b - ng);
	if ((int32_t)b == df->group[s])
		return false;
	if (!c->gglob[(size_t)df->group[s] * ng + b]) {
		/* no cable to b from the group: through a third group */
		if (c->ndet[(size_t)s * ng + b])
			return cls == OT_DF_PORT_GLOBAL &&
			       c->nglob[(size_t)x * ng + b];
		return cls == OT_DF_PORT_LOCAL && c->ndet[(size_t)x * ng + b];
	}
	if (c->nglob[(size_t)s * ng + b])
		return cls == OT_DF_PORT_GLOBAL && df->group[x] == (int32_t)b;
	return cls == OT_DF_PORT_LOCAL && c->nglob[(size_t)x * ng + b];
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* Every switch's candidates per bundle, once (see struct df_ctx). */
/*
 * A switch's candidates for bundle b into key[] (unsorted): the rule's;
 * failing those, toward another group, its own global cables to switches
 * with a cable to b (a detour that serves only its own CAs: no other
 * switch sends packets for b through it).  How many.
 */
static uint32_t bundle_candidates(struct df_ctx *c, uint32_t n, uint32_t b,
				  uint32_t *key)
{
	const struct ot_node *nd = &c->f->node[n];
	const struct ot_df *df = c->df;
	uint32_t m = 0, ng = df->ngroups;
	unsigned int p;

	for (p = 1; p <= nd->nports; p++)
		if (ot_df_port_class(df, n, p) > OT_DF_PORT_CA &&
		    candidate(c, n, p, b))
			key[m++] = ((uint32_t)df->index[nd->port[p].peer] << 8) | p;
	if (m || b >= ng || (int32_t)b == df->group[n])
		return m;
	for (p = 1; p <= nd->nports; p++)
		if (ot_df_port_class(df, n, p) == OT_DF_PORT_GLOBAL &&
		    c->nglob[(size_t)nd->port[p].peer * ng + b])
			key[m++] = ((uint32_t)df->index[nd->port[p].peer] << 8) | p;
	c->any_detour |= m > 0;
	return m;
}

static int prepare_candidates(struct df_ctx *c)
{
	const struct ot_fabric *f = c->f;
	size_t nb = (size_t)f->nnodes * c->nlanes, k = 0, cap = 0;
	uint32_t n, b, key[OT_MAX_PORTS + 1], m, i;

	for (n = 0; n < f->nnodes; n++)
		if (c->df->group[n] >= 0 && ot_is_switch(f, n))
			cap += (size_t)f->node[n].nports * 2;
	c->cstart = calloc(nb + 1, sizeof(*c->cstart));
	c->cport = malloc(cap * c->nlanes / 2 + 1);
	if (!c->cstart || !c->cport)
		return ot_error_nomem(c->err, "df-static");
	for (n = 0; n < f->nnodes; n++) {
		bool sw = c->df->group[n] >= 0 && ot_is_switch(f, n);

		for (b = 0; b < c->nlanes; b++) {
			c->cstart[(size_t)n * c->nlanes + b] = k;
			m = sw ? bundle_candidates(c, n, b, key) : 0;
			qsort(key, m, sizeof(*key), cmp_u32);
			for (i = 0; i < m; i++)
				c->cport[k++] = key[i] & 0xff;
		}
	}
	c->cstart[nb] = k;
	return 0;
}

/*
 * The rule's port at switch s toward LID lid (on switch t), dealt over
 * the candidates in (far end's switch in group, port) order; 0 for the
 * switch itself, OT_NO_PORT when there is none.
 */
static unsigned int rule_port(struct df_ctx *c, int32_t s, uint32_t lid)
{
	int32_t t = c->tsw[lid];
	uint32_t bundle;
	size_t at;
	unsigned int k;

	if (s == t)
		return c->tport[lid];
	bundle = c->df->group[s] == c->df->group[t] ?
			 c->df->ngroups + c->df->index[t] :
			 (uint32_t)c->df->group[t];
	at = (size_t)s * c->nlanes + bundle;
	k = c->cstart[at + 1] - c->cstart[at];
	if (!k)
		return OT_NO_PORT;
	return c->cport[c->cstart[at] + ot_deal_next(&c->lane[at], k)];
}

/*
 * The escape layer's positions are the switches in (group, switch in
 * group) order, so that its up*-down* root and ties do not depend on node
 * order.
 */
static uint32_t esc_pos(const struct df_ctx *c, int32_t n)
{
	return c->df->gstart[c->df->group[n]] + (uint32_t)c->df->index[n];
}

/* Switch neighbours of switch s as positions, in position order. */
static uint32_t escape_neighbours(const struct df_ctx *c, int32_t s,
				  uint32_t *out)
{
	const struct ot_node *nd = &c->f->node[s];
	uint32_t key[OT_MAX_PORTS + 1], k = 0, w = 0, i;
	unsigned int p;

	for (p = 1; p <= nd->nports; p++) {
		int32_t x = nd->port[p].peer;

		if (x >= 0 && x != s && ot_is_switch(c->f, x) &&
		    c->df->group[x] >= 0)
			key[k++] = esc_pos(c, x);
	}
	qsort(key, k, sizeof(*key), cmp_u32);
	for (i = 0; i < k; i++)
		if (!i || key[i] != key[i - 1])
			out[w++] = key[i];
	return w;
}

static int escape_prepare(struct df_ctx *c)
{
	const struct ot_df *df = c->df;
	uint32_t n = df->gstart[df->ngroups], s, k = 0;
	uint64_t *tiebreak;
	int error;

	if (c->esc_ready)
		return 0;
	c->present = malloc((size_t)n + 1);
	c->estart = malloc(((size_t)n + 1) * sizeof(*c->estart));
	c->eadj = malloc(((size_t)n * OT_MAX_PORTS + 1) * sizeof(*c->eadj));
	tiebreak = malloc(((size_t)n + 1) * sizeof(*tiebreak));
	if (!c->present || !c->estart || !c->eadj || !tiebreak) {
		free(tiebreak);
		return ot_error_nomem(c->err, "df-static");
	}
	for (s = 0; s < n; s++) {
		c->estart[s] = k;
		c->present[s] = 1;
		tiebreak[s] = s;
		k += escape_neighbours(c, df->member[s], c->eadj + k);
	}
	c->estart[n] = k;
	error = ot_escape_init(&c->esc, n, c->present, c->estart, c->eadj,
			       tiebreak, c->err);
	free(tiebreak);
	c->esc_ready = !error;
	return error;
}

/* The escape layer's port at every switch toward lid (number seq). */
static int escape_hops(struct df_ctx *c, uint32_t lid, uint32_t seq)
{
	const struct ot_fabric *f = c->f;
	const struct ot_df *df = c->df;
	int32_t t = c->tsw[lid], x;
	uint32_t s, next;
	unsigned int p;

	if (escape_prepare(c))
		return -1;
	for (s = 0; s < df->gstart[df->ngroups]; s++) {
		int32_t sw = df->member[s];

		switch (ot_escape_hop(&c->esc, s, esc_pos(c, t), seq, &next)) {
		case OT_ESCAPE_DELIVER:
			c->hop[sw] = c->tport[lid];
			break;
		case OT_ESCAPE_FORWARD:
			x = df->member[c->eadj[next]];
			for (p = 1; p <= f->node[sw].nports; p++)
				if (f->node[sw].port[p].peer == x)
					break;
			c->hop[sw] = p;
			break;
		case OT_ESCAPE_CUT:
			return ot_refuse(c->err, OT_ERR_DAMAGE,
					 "df-static: no path at all from switch \"%s\" to switch \"%s\": missing cables and switches cut the fabric in two",
					 f->node[sw].desc, f->node[t].desc);
		case OT_ESCAPE_NOMEM:
			return ot_error_nomem(c->err, "df-static");
		}
	}
	return 0;
}

/* Whether every switch has a candidate toward switch t. */
static bool rule_reaches(const struct df_ctx *c, int32_t t)
{
	const struct ot_df *df = c->df;
	uint32_t k;

	for (k = 0; k < df->gstart[df->ngroups]; k++) {
		int32_t s = df->member[k];
		uint32_t bundle = df->group[s] == df->group[t] ?
					  df->ngroups + df->index[t] :
					  (uint32_t)df->group[t];
		size_t at = (size_t)s * c->nlanes + bundle;

		if (s != t && c->cstart[at + 1] == c->cstart[at])
			return false;
	}
	return true;
}

/* Whether some group reaches switch t's group only through a third. */
static bool detoured(const struct df_ctx *c, int32_t t)
{
	uint32_t G, ng = c->df->ngroups;

	for (G = 0; G < ng; G++)
		if (G != (uint32_t)c->df->group[t] &&
		    !c->gglob[(size_t)G * ng + c->df->group[t]])
			return true;
	return false;
}

/*
 * Destinations some switch cannot reach by the rule go to the escape
 * layer; the others are dealt switch by switch in dealing order (each
 * switch's lanes see the same sequence whatever the node order).
 */
static int fill_lfts(struct df_ctx *c, struct ot_routing *out)
{
	const struct ot_fabric *f = c->f;
	const struct ot_df *df = c->df;
	uint8_t *ok = malloc((size_t)f->nnodes + 1);
	uint32_t i, k, s;

	if (!ok)
		return ot_error_nomem(c->err, "df-static");
	memset(ok, 2, (size_t)f->nnodes + 1);
	for (i = 0; i < c->norder; i++) {
		int32_t t = c->tsw[c->order[i]];

		if (ok[t] == 2)
			ok[t] = rule_reaches(c, t);
		c->escape[c->order[i]] = !ok[t];
		c->any_escape |= !ok[t];
		if (ok[t] && !c->any_detour)
			c->any_detour = detoured(c, t);
	}
	free(ok);
	for (k = 0; k < df->gstart[df->ngroups]; k++) {
		int32_t sw = df->member[k];

		for (i = 0; i < c->norder; i++)
			if (!c->escape[c->order[i]])
				out->lft[sw][c->order[i]] =
					rule_port(c, sw, c->order[i]);
	}
	for (i = 0; i < c->norder && c->any_escape; i++) {
		uint16_t lid = c->order[i];

		if (!c->escape[lid])
			continue;
		if (escape_hops(c, lid, i))
			return -1;
		for (s = 0; s < f->nnodes; s++)
			if (out->lft[s] && df->group[s] >= 0)
				out->lft[s][lid] = c->hop[s];
	}
	return 0;
}

/* The VL of a hop: the escape SL's own VL, else 1 after a global cable. */
static uint8_t df_vl(bool any_escape, unsigned int sl, enum ot_df_port in)
{
	if (any_escape && sl == DF_ESCAPE_SL)
		return DF_ESCAPE_VL;
	return in == OT_DF_PORT_GLOBAL;
}

static int fill_sl2vl(struct df_ctx *c, struct ot_routing *out)
{
	const struct ot_fabric *f = c->f;
	unsigned int in, o, sl, np;
	uint32_t n;

	for (n = 0; n < f->nnodes; n++) {
		uint8_t *t;

		np = f->node[n].nports;
		t = malloc((size_t)(np + 1) * (np + 1) * OT_NUM_SLS);
		if (!t)
			return ot_error_nomem(c->err, "df-static");
		out->sl2vl[n] = t;
		for (in = 0; in <= np; in++) {
			enum ot_df_port cls = ot_df_port_class(c->df, n, in);

			for (o = 0; o <= np; o++)
				for (sl = 0; sl < OT_NUM_SLS; sl++)
					t[ot_sl2vl_index(np, in, o, sl)] =
						df_vl(c->any_escape, sl, cls);
		}
	}
	return 0;
}

static uint8_t df_path_sl(const struct ot_routing *r, uint16_t slid,
			  uint16_t dlid)
{
	const uint8_t *esc = r->priv;

	(void)slid;
	return dlid <= r->max_lid && esc[dlid] ? DF_ESCAPE_SL : 0;
}

/* The promise's context: owns the recognizer's answer the rule reads. */
struct df_promise {
	struct ot_df *df;
	uint8_t *routed; /* per LID: 1 by the rule, 2 on the escape layer */
	uint16_t max_lid;
	bool any_escape;
	unsigned int max_global; /* 2 with detours through a third group */
};

static void df_promise_free(void *ctx)
{
	struct df_promise *pr = ctx;

	if (!pr)
		return;
	ot_df_free(pr->df);
	free(pr->routed);
	free(pr);
}

/* Class of the port node[i] of the path receives on (NONE at the CA). */
static enum ot_df_port in_class(const struct ot_df *df,
				const struct ot_path *p, unsigned int i)
{
	const struct ot_fabric *f = df->fabric;
	const struct ot_port *pt;

	if (!i)
		return OT_DF_PORT_NONE;
	pt = &f->node[p->node[i - 1]].port[p->port[i - 1]];
	return ot_df_port_class(df, p->node[i], pt->peer_port);
}

/*
 * local, global, local: at most one local hop before and after the
 * global hops, which are one, or two in a row (max_global) where a group
 * reaches another only through a third.
 */
static int check_shape(const struct ot_df *df, const struct ot_path *p,
		       unsigned int max_global, struct ot_error *why)
{
	unsigned int i, before = 0, after = 0, global = 0;

	for (i = 1; i + 2 < p->len; i++) {
		enum ot_df_port cls = ot_df_port_class(df, p->node[i],
						       p->port[i]);
		const char *bad = NULL;

		if (cls == OT_DF_PORT_GLOBAL)
			global++;
		else if (global)
			after++;
		else
			before++;
		if (global > max_global)
			bad = "one global hop too many";
		else if (before > 1 || after > 1)
			bad = "a second local hop";
		else if (cls == OT_DF_PORT_GLOBAL && after)
			bad = "a global hop after a local one";
		if (bad)
			return ot_error_set(why,
					    "hop %u from switch \"%s\": %s, not local-global-local",
					    i, df->fabric->node[p->node[i]].desc,
					    bad);
	}
	return 0;
}

static int df_rule(const void *ctx, const struct ot_path *p,
		   struct ot_error *why)
{
	const struct df_promise *pr = ctx;
	unsigned int i, sl;
	bool esc;

	if (p->dlid > pr->max_lid || !pr->routed[p->dlid])
		return ot_error_set(why, "LID %u is no destination the engine routed",
				    p->dlid);
	esc = pr->routed[p->dlid] == 2;
	sl = esc ? DF_ESCAPE_SL : 0;
	if (p->sl != sl)
		return ot_error_set(why, "path SL %u, the engine gives SL %u toward LID %u",
				    p->sl, sl, p->dlid);
	for (i = 0; i + 1 < p->len; i++) {
		uint8_t want = df_vl(pr->any_escape, sl,
				     in_class(pr->df, p, i));

		if (p->vl[i] != want)
			return ot_error_set(why,
					    "hop %u from \"%s\" on VL %u, the rule gives VL %u",
					    i, pr->df->fabric->node[p->node[i]].desc,
					    p->vl[i], want);
	}
	return esc ? 0 : check_shape(pr->df, p, pr->max_global, why);
}

static int set_promise(struct df_ctx *c, struct ot_routing *out,
		       struct ot_df *df)
{
	struct df_promise *pr = calloc(1, sizeof(*pr));
	struct ot_promise *p = &out->promise;
	uint32_t i;

	if (pr)
		pr->routed = calloc((size_t)c->f->max_lid + 1, 1);
	if (!pr || !pr->routed) {
		free(pr);
		ot_df_free(df);
		return ot_error_nomem(c->err, "df-static");
	}
	pr->df = df;
	pr->max_lid = c->f->max_lid;
	pr->any_escape = c->any_escape;
	pr->max_global = c->any_detour ? 2 : 1;
	for (i = 0; i < c->norder; i++)
		pr->routed[c->order[i]] = c->escape[c->order[i]] ? 2 : 1;
	p->text = c->any_escape ?
		"Dragonfly local-global-local (damaged: some destinations on the escape layer, SL 1, VL 2)" :
		c->any_detour ?
		"Dragonfly local-global-local, or local-global-global-local where a group pair lost its cables: at most four switch hops" :
		"Dragonfly local-global-local: at most one global hop and three switch hops";
	p->minimal = OT_MINIMAL_NONE;
	p->max_switch_hops = c->any_escape ? 0 : 2 + pr->max_global;
	p->nvls = out->nvls;
	p->sls = c->any_escape ? 1u | 1u << DF_ESCAPE_SL : 1u;
	p->rule = df_rule;
	p->rule_text = "at most one local hop, one global hop (two in a row on a detour), one local hop; VL 1 after a global cable, VL 0 else (escape: SL 1 on VL 2)";
	p->source_free = true;
	p->ctx = pr;
	p->free_ctx = df_promise_free;
	return 0;
}

static int set_labels(const struct df_ctx *c, struct ot_routing *out)
{
	const struct ot_fabric *f = c->f;
	const struct ot_df *df = c->df;
	uint32_t n;
	int rc = 0;

	for (n = 0; n < f->nnodes && !rc; n++) {
		int32_t sw = n;

		if (df->group[n] < 0)
			continue;
		if (!ot_is_switch(f, n)) {
			sw = f->node[n].port[1].peer;
			if (sw < 0 || !ot_is_switch(f, sw))
				continue;
		}
		rc = ot_routing_set_label(out, n, "%s [%d,%d]",
					  sw == (int32_t)n ? "switch" : "CA",
					  df->group[sw], df->index[sw]);
	}
	return rc ? ot_error_nomem(c->err, "df-static") : 0;
}

static void ctx_free(struct df_ctx *c)
{
	free(c->order);
	free(c->tsw);
	free(c->tport);
	free(c->escape);
	free(c->nglob);
	free(c->ndet);
	free(c->gglob);
	free(c->lane);
	free(c->hop);
	free(c->cstart);
	free(c->cport);
	if (c->esc_ready)
		ot_escape_free(&c->esc);
	free(c->present);
	free(c->estart);
	free(c->eadj);
}

/* SL2VL always (path SLs, when the escape layer is used: df_route). */
static int set_vls(struct df_ctx *c, struct ot_routing *out)
{
	out->nvls = c->any_escape ? 3 : 2;
	out->needs_qos = true;
	if (fill_sl2vl(c, out))
		return -1;
	return 0;
}

static int df_route(const struct ot_engine *self, const struct ot_fabric *f,
		    struct ot_routing *out, struct ot_error *err)
{
	struct df_ctx c = { .f = f, .err = err };
	struct ot_df *df = NULL;
	struct ot_error why = { 0 };
	double t = ot_now_ms();
	int error;

	(void)self;
	if (ot_df_recognize(f, &df, &why))
		return ot_error_wrap(err, &why, OT_ERR_TOPOLOGY, "df-static");
	c.df = df;
	ot_routing_phase(out, "recognize", t);
	t = ot_now_ms();
	error = prepare_dests(&c);
	if (!error)
		error = prepare_ports(&c);
	if (!error)
		error = prepare_candidates(&c);
	if (!error)
		error = fill_lfts(&c, out);
	if (!error)
		ot_routing_phase(out, "route", t);
	if (!error)
		error = set_labels(&c, out);
	if (!error)
		error = set_vls(&c, out);
	if (!error) {
		error = set_promise(&c, out, df);
		df = NULL; /* the promise owns it now (or freed it) */
	}
	if (!error && c.any_escape) {
		out->priv = c.escape;
		out->free_priv = free;
		out->path_sl = df_path_sl;
		c.escape = NULL;
	}
	ctx_free(&c);
	ot_df_free(df);
	return error;
}

const struct ot_engine ot_engine_df_static = {
	.name = "df-static",
	.needs = "a Dragonfly: groups of switches as full graphs joined by global cables",
	.route = df_route,
	.miscabling = ot_df_miscabling,
};
