// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * sf-mms: minimal routing on a Slim Fly (seed 001, "Early evaluation of
 * direct large-scale InfiniBand networks with adaptive routing", section
 * 3.6), the engine step of the flow (fabric -> recognizer -> coordinates
 * -> engine -> tables + promise -> checker).
 *
 * The recognizer (topo/slimfly.c) gives every switch its MMS position
 * (t, x, y).  A switch forwards to the destination's switch directly when
 * they are cabled (the paper's cases y and t), otherwise through a
 * common neighbour: the paper's two-hop cases yy, tt, ty and yt are
 * exactly the common neighbours of two positions at distance 2 (the
 * formulas (1), (2) and 3(a), 3(b) solve for them), so the engine takes
 * them from the MMS adjacency rather than case by case.  Where several
 * exist (yy, often; ty and yt, sometimes) the one taken is
 * (source position + destination CA rank + LMC offset) modulo their
 * number, in ascending position order: CAs of one switch are spread over
 * the shortest paths, the same way whatever the LIDs or node order.
 * The intermediate switch then forwards directly, so one LFT entry per
 * destination expresses every path.  Parallel cables are dealt with
 * route/deal.h in the order of the destinations' keys.
 *
 * Deadlock freedom on 2 VLs and one SL (the paper's rule): a packet
 * that arrives at a switch from a CA (or starts at the switch itself)
 * goes on VL 0, one that arrives from a switch on VL 1.  Every
 * switch-to-switch channel on VL 0 is a first hop and is followed only
 * by VL 1 channels, and a VL 1 channel is followed only by the delivery:
 * no cycle of dependencies.  The engine writes this into SL2VL (every
 * SL alike), so OpenSM needs QoS on to program it.
 *
 * Missing cables: a destination that every switch still reaches in at
 * most two hops over the cables left keeps those paths (a 2-hop path
 * through any switch cabled to both: still VL 0 then VL 1); any other
 * goes whole to the shared escape layer (route/escape.h) on path SL 1
 * and VL 2 on every hop after the CA's.  A fabric cut in two is refused
 * (OT_ERR_DAMAGE); missing switches are refused by the recognizer.
 */
#include <stdlib.h>
#include <string.h>

#include "route/deal.h"
#include "route/escape.h"
#include "route/engines.h"
#include "topo/slimfly.h"

/* A destination LID: its switch, and the port there for a CA. */
struct sf_dest {
	int32_t sw;      /* -1: unreachable, not routed */
	uint8_t port;    /* 0: the switch itself */
	uint32_t seq;    /* CA rank and LMC offset, to spread paths */
};

/* The escape layer's SL and VL, for destinations damage cuts off. */
#define SF_ESCAPE_SL 1
#define SF_ESCAPE_VL 2

struct sf_ctx {
	const struct ot_fabric *f;
	const struct ot_sf *sf;
	struct ot_error *err;
	struct sf_dest *dest; /* per LID */
	uint16_t *order;      /* routed LIDs in dealing order */
	uint32_t norder;
	/* per switch node: ports toward its k-th MMS neighbour, width each */
	uint8_t **bundle;
	uint8_t *cab;         /* positions n * n: cables between them */
	uint8_t *escape;      /* per position: its LIDs on the escape layer */
	bool any_escape;
	struct ot_escape esc;
	uint8_t *present;     /* escape layer's view: every position */
	uint32_t *start, *adj;
};

/* Index of position b among position a's neighbours (ascending). */
static int nb_index(const struct ot_mms *m, uint32_t a, uint32_t b)
{
	const uint32_t *nb = m->nb + (uint64_t)a * m->deg;
	unsigned int lo = 0, hi = m->deg;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (nb[mid] < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->deg && nb[lo] == b ? (int)lo : -1;
}

static int prepare_dests(struct sf_ctx *c)
{
	const struct ot_fabric *f = c->f;
	struct ot_deal_key *keys;
	uint32_t lid;

	c->dest = calloc((size_t)f->max_lid + 1, sizeof(*c->dest));
	c->order = malloc(((size_t)f->max_lid + 1) * sizeof(*c->order));
	keys = malloc(((size_t)f->max_lid + 1) * sizeof(*keys));
	if (!c->dest || !c->order || !keys) {
		free(keys);
		return ot_error_nomem(c->err, "sf-mms");
	}
	c->norder = 0;
	for (lid = 0; lid <= f->max_lid; lid++) {
		const struct ot_lid_owner *o = &f->lid_owner[lid];
		struct sf_dest *d = &c->dest[lid];
		uint64_t key;

		d->sw = -1;
		if (!lid || o->node < 0)
			continue;
		if (ot_is_switch(f, o->node)) {
			d->sw = o->node;
			key = (1ull << 62) + c->sf->sw_pos[o->node];
		} else {
			const struct ot_port *pt = &f->node[o->node].port[o->port];

			if (pt->peer < 0 || !ot_is_switch(f, pt->peer))
				continue;
			d->sw = pt->peer;
			d->port = pt->peer_port;
			d->seq = ot_fabric_end_port_rank(f, pt->peer, o->node,
							 o->port) +
				 (lid - pt->lid) * (OT_MAX_PORTS + 1);
			key = ((uint64_t)(lid - pt->lid) << 48) +
			      (uint64_t)c->sf->sw_pos[pt->peer] *
				      (OT_MAX_PORTS + 1) +
			      ot_fabric_end_port_rank(f, pt->peer, o->node,
						      o->port);
		}
		keys[c->norder].key = key;
		keys[c->norder++].lid = lid;
	}
	ot_deal_sort(keys, c->norder);
	for (lid = 0; lid < c->norder; lid++)
		c->order[lid] = keys[lid].lid;
	free(keys);
	return 0;
}

/* The ports of every switch toward each MMS neighbour, in port order. */
static int prepare_bundles(struct sf_ctx *c)
{
	const struct ot_fabric *f = c->f;
	const struct ot_mms *m = &c->sf->mms;
	unsigned int w = c->sf->width, p, k;
	uint8_t fill[OT_MAX_PORTS + 1];
	uint32_t n;

	c->bundle = calloc(f->nnodes, sizeof(*c->bundle));
	c->cab = calloc((uint64_t)m->n * m->n, 1);
	if (!c->bundle || !c->cab)
		return ot_error_nomem(c->err, "sf-mms");
	for (n = 0; n < f->nnodes; n++) {
		int32_t pos = c->sf->sw_pos[n];

		if (pos < 0)
			continue;
		c->bundle[n] = calloc(m->deg, w);
		if (!c->bundle[n])
			return ot_error_nomem(c->err, "sf-mms");
		memset(fill, 0, sizeof(fill));
		for (p = 1; p <= f->node[n].nports; p++) {
			int32_t peer = f->node[n].port[p].peer;

			if (peer < 0 || !ot_is_switch(f, peer))
				continue;
			k = nb_index(m, pos, c->sf->sw_pos[peer]);
			c->bundle[n][k * w + fill[k]++] = p;
		}
		for (k = 0; k < m->deg; k++)
			c->cab[(uint64_t)pos * m->n +
			       m->nb[(uint64_t)pos * m->deg + k]] = fill[k];
	}
	return 0;
}

/* Cables from position s to position t (0 when not MMS neighbours). */
static unsigned int cables(const struct sf_ctx *c, uint32_t s, uint32_t t)
{
	return c->cab[(uint64_t)s * c->sf->mms.n + t];
}

/* Whether position i is a working 2-hop intermediate from s to t. */
static bool via_ok(const struct sf_ctx *c, uint32_t s, uint32_t i,
		   uint32_t t)
{
	return i != t && cables(c, s, i) && cables(c, i, t);
}

/*
 * The neighbour of position s toward position t (no cable between
 * them): a common neighbour both cables of which are there, picked by
 * seq; UINT32_MAX when damage leaves none.
 */
static uint32_t via(const struct sf_ctx *c, uint32_t s, uint32_t t,
		    uint32_t seq)
{
	const struct ot_mms *m = &c->sf->mms;
	const uint32_t *nb = m->nb + (uint64_t)s * m->deg;
	unsigned int k, count = 0, pick;

	for (k = 0; k < m->deg; k++)
		count += via_ok(c, s, nb[k], t);
	if (!count)
		return UINT32_MAX;
	pick = (s + seq) % count;
	for (k = 0;; k++)
		if (via_ok(c, s, nb[k], t) && !pick--)
			return nb[k];
}

/*
 * Destinations some switch cannot reach in two hops over the cables
 * left go whole to the escape layer (route/escape.h), as in ff-*.
 */
static int mark_escapes(struct sf_ctx *c)
{
	const struct ot_mms *m = &c->sf->mms;
	uint32_t s, t;

	c->escape = calloc(m->n, 1);
	if (!c->escape)
		return ot_error_nomem(c->err, "sf-mms");
	for (t = 0; t < m->n && c->sf->damaged; t++)
		for (s = 0; s < m->n && !c->escape[t]; s++)
			if (s != t && !cables(c, s, t) &&
			    via(c, s, t, 0) == UINT32_MAX)
				c->escape[t] = 1;
	for (t = 0; t < m->n; t++)
		c->any_escape |= c->escape[t];
	return 0;
}

/* The escape layer over the positions and the cables left. */
static int escape_prepare(struct sf_ctx *c)
{
	const struct ot_mms *m = &c->sf->mms;
	uint64_t *tiebreak;
	uint32_t s, k, e = 0;
	int error;

	c->present = malloc(m->n);
	c->start = malloc((m->n + 1) * sizeof(*c->start));
	c->adj = malloc(((uint64_t)m->n * m->deg + 1) * sizeof(*c->adj));
	tiebreak = malloc(m->n * sizeof(*tiebreak));
	if (!c->present || !c->start || !c->adj || !tiebreak) {
		free(tiebreak);
		return ot_error_nomem(c->err, "sf-mms");
	}
	for (s = 0; s < m->n; s++) {
		c->present[s] = 1;
		c->start[s] = e;
		tiebreak[s] = s;
		for (k = 0; k < m->deg; k++) {
			uint32_t t = m->nb[(uint64_t)s * m->deg + k];

			if (cables(c, s, t))
				c->adj[e++] = t;
		}
	}
	c->start[m->n] = e;
	error = ot_escape_init(&c->esc, m->n, c->present, c->start, c->adj,
			       tiebreak, c->err);
	free(tiebreak);
	return error;
}

/* The escape layer's next position from s toward t, or -1 refused. */
static int64_t escape_next(struct sf_ctx *c, uint32_t s, uint32_t t,
			   uint32_t seq)
{
	const struct ot_fabric *f = c->f;
	uint32_t next;

	switch (ot_escape_hop(&c->esc, s, t, seq, &next)) {
	case OT_ESCAPE_FORWARD:
		return c->adj[next];
	case OT_ESCAPE_CUT:
		return ot_refuse(c->err, OT_ERR_DAMAGE,
				 "sf-mms: no path at all from \"%s\" to \"%s\": missing cables cut the fabric in two",
				 f->node[c->sf->pos_sw[s]].desc,
				 f->node[c->sf->pos_sw[t]].desc);
	case OT_ESCAPE_NOMEM:
		return ot_error_nomem(c->err, "sf-mms");
	default:
		return ot_error_set(c->err, "sf-mms: escape hop to itself");
	}
}

static int fill_switch(struct sf_ctx *c, int32_t n, uint8_t *lft)
{
	const struct ot_mms *m = &c->sf->mms;
	unsigned int w = c->sf->width;
	uint32_t s = c->sf->sw_pos[n], i;
	uint8_t lane[OT_MAX_PORTS] = { 0 };

	for (i = 0; i < c->norder; i++) {
		uint16_t lid = c->order[i];
		const struct sf_dest *d = &c->dest[lid];
		uint32_t t = c->sf->sw_pos[d->sw];
		int64_t next;
		int k;

		if (d->sw == n) {
			lft[lid] = d->port;
			continue;
		}
		if (c->escape[t])
			next = escape_next(c, s, t, d->seq);
		else if (cables(c, s, t))
			next = t;
		else
			next = via(c, s, t, d->seq);
		if (next < 0)
			return -1;
		k = nb_index(m, s, next);
		lft[lid] = c->bundle[n][k * w +
					ot_deal_next(&lane[k],
						     cables(c, s, next))];
	}
	return 0;
}

/* The VL rule: 0 after a CA (or at the source switch), 1 after a switch. */
static uint8_t hop_vl(const struct ot_fabric *f, int32_t from)
{
	return from >= 0 && ot_is_switch(f, from) ? 1 : 0;
}

static int fill_sl2vl(struct sf_ctx *c, struct ot_routing *out)
{
	const struct ot_fabric *f = c->f;
	uint32_t n;
	unsigned int in, o, sl;

	for (n = 0; n < f->nnodes; n++) {
		unsigned int np = f->node[n].nports;
		uint8_t *t;

		if (c->sf->sw_pos[n] < 0)
			continue;
		t = malloc((size_t)(np + 1) * (np + 1) * OT_NUM_SLS);
		if (!t)
			return ot_error_nomem(c->err, "sf-mms");
		out->sl2vl[n] = t;
		for (in = 0; in <= np; in++) {
			uint8_t vl = hop_vl(f, in ? f->node[n].port[in].peer :
						    -1);

			for (o = 0; o <= np; o++)
				for (sl = 0; sl < OT_NUM_SLS; sl++)
					t[ot_sl2vl_index(np, in, o, sl)] =
						c->any_escape &&
						sl == SF_ESCAPE_SL ?
						SF_ESCAPE_VL : vl;
		}
	}
	return 0;
}

static int set_labels(struct sf_ctx *c, struct ot_routing *out)
{
	const struct ot_fabric *f = c->f;
	char buf[32];
	uint32_t n;

	for (n = 0; n < f->nnodes; n++) {
		if (c->sf->sw_pos[n] < 0)
			continue;
		ot_sf_pos_str(&c->sf->mms, c->sf->sw_pos[n], buf, sizeof(buf));
		if (ot_routing_set_label(out, n, "sf (t,x,y) %s", buf))
			return ot_error_nomem(c->err, "sf-mms");
	}
	return 0;
}

/* The promise's rule: every hop on the VL the rule gives. */
static int sf_rule(const void *ctx, const struct ot_path *p,
		   struct ot_error *why)
{
	const struct ot_fabric *f = ctx;
	unsigned int k;

	for (k = 0; k + 1 < p->len; k++) {
		uint8_t want = hop_vl(f, k ? p->node[k - 1] : -1);

		if (p->sl == SF_ESCAPE_SL)
			want = k ? SF_ESCAPE_VL : 0; /* a CA sends on VL 0 */

		if (p->vl[k] != want)
			return ot_error_set(why,
					    "hop %u (from \"%s\" port %u) on VL %u, the rule gives VL %u",
					    k, f->node[p->node[k]].desc,
					    p->port[k], p->vl[k], want);
	}
	return 0;
}

static void set_promise(struct ot_routing *out, const struct ot_fabric *f,
			bool any_escape)
{
	struct ot_promise *p = &out->promise;

	p->text = any_escape ?
		"Slim Fly MMS with damage: destinations every switch reaches in 2 hops on SL 0, VL 0 after a CA and VL 1 after a switch; the others on the escape layer, SL 1, VL 2" :
		"Slim Fly MMS: every CA-to-CA path minimal, at most 2 switch-to-switch hops, VL 0 after a CA and VL 1 after a switch, SL 0";
	p->minimal = any_escape ? OT_MINIMAL_NONE : OT_MINIMAL_ALL;
	p->max_switch_hops = any_escape ? 0 : 2;
	p->nvls = any_escape ? 3 : 2;
	p->sls = any_escape ? 3 : 1;
	p->rule = sf_rule;
	p->rule_text = "each hop on VL 0 when it enters from a CA, VL 1 from a switch (escape SL 1: VL 2 after the CA's hop)";
	p->source_free = true;
	p->ctx = (void *)f;
}

/* Path SL: the escape layer's for its destinations (priv: per LID). */
static uint8_t sf_path_sl(const struct ot_routing *r, uint16_t slid,
			  uint16_t dlid)
{
	const uint8_t *esc = r->priv;

	(void)slid;
	return dlid <= r->max_lid && esc[dlid] ? SF_ESCAPE_SL : 0;
}

static int set_path_sls(struct sf_ctx *c, struct ot_routing *out)
{
	uint8_t *esc;
	uint32_t lid;

	if (!c->any_escape)
		return 0;
	esc = calloc((size_t)c->f->max_lid + 1, 1);
	if (!esc)
		return ot_error_nomem(c->err, "sf-mms");
	for (lid = 0; lid <= c->f->max_lid; lid++)
		esc[lid] = c->dest[lid].sw >= 0 &&
			   c->escape[c->sf->sw_pos[c->dest[lid].sw]];
	out->priv = esc;
	out->free_priv = free;
	out->path_sl = sf_path_sl;
	return 0;
}

static void free_ctx(struct sf_ctx *c)
{
	uint32_t n;

	if (c->bundle)
		for (n = 0; n < c->f->nnodes; n++)
			free(c->bundle[n]);
	free(c->bundle);
	free(c->cab);
	free(c->dest);
	free(c->order);
	free(c->escape);
	ot_escape_free(&c->esc);
	free(c->present);
	free(c->start);
	free(c->adj);
}

static int sf_route(const struct ot_engine *self, const struct ot_fabric *f,
		    struct ot_routing *out, struct ot_error *err)
{
	struct sf_ctx c = { .f = f, .err = err };
	struct ot_sf *sf = NULL;
	struct ot_error why;
	uint32_t n;
	double t;
	int error;

	(void)self;
	t = ot_now_ms();
	error = ot_sf_recognize(f, &sf, &why);
	if (error) {
		ot_error_wrap(err, &why, OT_ERR_TOPOLOGY, "sf-mms");
		goto out;
	}
	ot_routing_phase(out, "recognize", t);
	t = ot_now_ms();
	c.sf = sf;
	error = prepare_dests(&c);
	if (!error)
		error = prepare_bundles(&c);
	if (!error)
		error = mark_escapes(&c);
	if (!error && c.any_escape)
		error = escape_prepare(&c);
	if (!error)
		error = set_labels(&c, out);
	if (!error)
		error = fill_sl2vl(&c, out);
	if (!error)
		error = set_path_sls(&c, out);
	for (n = 0; n < f->nnodes && !error; n++)
		if (sf->sw_pos[n] >= 0)
			error = fill_switch(&c, n, out->lft[n]);
	if (error)
		goto out;
	out->nvls = c.any_escape ? 3 : 2;
	out->needs_qos = true;
	ot_routing_phase(out, "route", t);
	set_promise(out, f, c.any_escape);
out:
	free_ctx(&c);
	ot_sf_free(sf);
	return error;
}

const struct ot_engine ot_engine_sf_mms = {
	.name = "sf-mms",
	.needs = "Slim Fly (MMS graph, any prime power q), parallel cables; 2 VLs (QoS on), 1 SL; +1 VL and SL with cables missing",
	.route = sf_route,
	.miscabling = ot_sf_miscabling,
};
