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
 * Missing cables and switches (the recognizer leaves the positions of
 * missing switches empty): a destination that every switch still reaches
 * in at most two hops over the cables left keeps those paths (a 2-hop
 * path through any switch cabled to both: still VL 0 then VL 1).  For
 * any other destination t, every switch forwards on a fixed shortest
 * path of the cables left (breadth-first from t); a switch 3 or more
 * hops away (a detour source) rides a detour SL, on which every hop
 * after the first goes on the detour VL.  Detours have an order R of
 * the positions; a source's path p0 p1 p2 ... t must run R monotone from
 * p2 to t, up (detour SL, first VL) or down (next SL and VL): on a
 * detour VL two channels follow each other only at p2 or later, where
 * the head's rank then strictly rises (falls), so no cycle; the tree is
 * built to prefer next hops that keep R monotone.  Paths stay shortest.
 * Climbing detours only (one SL and VL) unless allowing descending ones
 * too sends fewer destinations to the escape layer.
 * A destination some switch cannot reach so goes whole to the shared
 * escape layer (route/escape.h) on path SL 1 and VL 2 on every hop after
 * the CA's.  A fabric cut in two is refused (OT_ERR_DAMAGE).
 *
 * LMC offsets above 0 (non-minimal layers; offset 0 stays minimal): a
 * LID at offset o toward position t gets an intermediate switch I and a
 * phase-2 route I -> t (I cabled to t) or I -> b -> t.  Every switch
 * forwards the LID toward I on a shortest path (at most 2 hops), I
 * forwards to b (or t), b to t: at most 4 switch hops, and one LFT entry
 * per LID.  Each offset has an order of the positions R (a hash of
 * position and offset); the phase-2 route must climb it (layer dir 0:
 * R(I) < R(b) < R(t)) or descend it (dir 1), and the LID then rides
 * layer l = 2 (o - 1) + dir on its own path SL (2 + l) and, on every hop
 * entered from a switch, its own VL (2 + l, after the escape layer's and
 * the detours' VLs when there are some);
 * the hop leaving the source switch is on VL 0 as in the minimal rule.
 * Among the candidate (I, b) the one whose busiest phase-2 link and then
 * whose I carry the fewest LIDs so far is taken, in dealing order, ties
 * broken from a start given by t and the CA's rank: deterministic, and
 * spread.
 *
 * Why a layer has no credit loop: VL 0 channels are entered only from
 * CAs and lead only to other VLs, so a cycle stays on one layer VL.  Two
 * channels x -> y, y -> z on that VL follow each other only where y was
 * entered from a switch that was itself entered from a switch, i.e. y is
 * at least 2 hops from the source.  On a LID's tree the switches at 2 or
 * more hops that forward to a switch are only I and b (switches forward
 * toward I on shortest paths, so hop 2 is I, or b or t where that path
 * meets phase 2), and their hops I -> b, I -> t, b -> t climb R (dir 0)
 * or descend it (dir 1).  So along every dependency on the layer's VL the
 * rank of the channel's head strictly rises (falls): no cycle.  With
 * damage, I is a position every switch still reaches in 2 hops and the
 * phase-2 cables are there; a destination with no such route keeps the
 * offset-0 routing (SL 0, or the detour SLs for detour sources).  2^LMC - 1 offsets need 2 (2^LMC - 1) layer
 * VLs: LMC 1 needs 4 VLs, LMC 2 needs 8.  Where damage needs VLs too and
 * two layers per offset would pass SF_MAX_VLS, each offset keeps only its
 * climbing layer (LMC 2 on a damaged fabric); LMC 3 (9 VLs even so) is
 * refused, OT_ERR_BUDGET, with the numbers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/prng.h"
#include "model/sort.h"
#include "route/deal.h"
#include "route/engines.h"
#include "route/escape.h"
#include "topo/slimfly.h"

/* A destination LID: its switch, and the port there for a CA. */
struct sf_dest {
	int32_t sw;      /* -1: unreachable, not routed */
	uint8_t port;    /* 0: the switch itself */
	uint8_t offset;  /* LMC offset: 0 minimal, above: its layer */
	uint32_t seq;    /* CA rank and LMC offset, to spread paths */
	uint32_t mid;    /* layer: the intermediate I, SF_NONE: minimal */
	uint32_t mid2;   /* layer: the switch between I and t, or SF_NONE */
	uint8_t layer;   /* with mid: its non-minimal layer (SF_LAYER_SL) */
};

#define SF_NONE UINT32_MAX

/* The escape layer's SL and VL, for destinations damage cuts off. */
#define SF_ESCAPE_SL 1
#define SF_ESCAPE_VL 2
/*
 * Non-minimal layer l = layer_dirs (offset - 1) + dir (LMC offset >= 1,
 * dir 0 climbing the offset's rank, 1 descending it) rides SL
 * SF_LAYER_SL + l and, after a switch, VL 2 + l after the escape
 * layer's and the detours' VLs; the detour SLs follow the layers'.
 */
#define SF_LAYER_SL (SF_ESCAPE_SL + 1)
#define SF_MAX_VLS 8

/*
 * What path_sl and the promise's rule need, kept with the routing: the
 * path SL of every LID, and the VL plan.
 */
struct sf_plan {
	const struct ot_fabric *f;
	bool any_escape;
	bool any_detour;
	unsigned int ndetour; /* detour SLs and VLs: 1 climbing, 2 both */
	unsigned int detour_hops;
	unsigned int nlayers; /* 2^LMC: layer 0 minimal, the others not */
	unsigned int nl;      /* non-minimal layers: layer_dirs (2^LMC - 1) */
	uint32_t max_lid;
	uint32_t n;           /* positions */
	uint8_t *sl;          /* per LID, the source aside */
	int32_t *pos;         /* per LID: its switch's position, -1 */
	uint8_t *dsrc;        /* per (t, s): s detours to t (SL 0 LIDs) */
	char text[640];       /* the promise */
};

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
	unsigned int nlayers; /* 2^LMC */
	unsigned int layer_dirs; /* layers per offset: 2, or 1 to fit VLs */
	unsigned int max_vls, max_sls; /* SF_MAX_VLS, or a QoS budget's */
	const char *budget_why;        /* the budget's reason, or NULL */
	uint32_t *rank;       /* per layer (0: detours) and position: rank */
	uint8_t *detour;      /* per position: some switches detour to it */
	bool any_detour;
	unsigned int detour_dirs; /* bit per direction detours use */
	unsigned int detour_hops; /* the longest detour, switch hops */
	uint32_t *nx;         /* per (t, s): s's fixed next hop, SF_NONE */
	uint8_t *ddir;        /* per (t, s): s's detour direction + 1, 0 */
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
	c->nlayers = 1;
	for (lid = 0; lid <= f->max_lid; lid++) {
		const struct ot_lid_owner *o = &f->lid_owner[lid];
		struct sf_dest *d = &c->dest[lid];
		uint64_t key;

		d->sw = -1;
		d->mid = SF_NONE;
		d->mid2 = SF_NONE;
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
			d->offset = (uint8_t)(lid - pt->lid);
			if (ot_port_nlids(pt) > c->nlayers)
				c->nlayers = ot_port_nlids(pt);
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

/* Whether a switch holds position p (not missing). */
static bool present(const struct sf_ctx *c, uint32_t p)
{
	return c->sf->pos_sw[p] >= 0;
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
 * Non-minimal layers (LMC offsets o >= 1).  Each layer has its own order
 * of the positions, rank R_o (a hash of position and layer, so layers
 * differ).  A LID of layer o toward position t gets an intermediate I and
 * a phase-2 route that climbs R_o: I -- t cabled with R(I) < R(t), or
 * I -- b -- t with R(I) < R(b) < R(t).  Every switch forwards toward I on
 * a shortest path (at most 2 hops), I forwards to b (or t), b to t: at
 * most 4 switch hops.  I must be reached by every switch in 2 hops over
 * the cables left (a position with neither escape nor detours).  Rank
 * block 0 is the detours' order (see mark_escapes).
 */
static uint64_t layer_hash(uint32_t pos, unsigned int layer)
{
	struct ot_prng r = { .state = ((uint64_t)layer << 32) ^ pos };

	return ot_prng_next(&r);
}

static int prepare_ranks(struct sf_ctx *c)
{
	uint32_t n = c->sf->mms.n, p;
	unsigned int o;
	uint64_t *key = malloc(n * sizeof(*key));

	c->rank = malloc((uint64_t)c->nlayers * n * sizeof(*c->rank));
	if (!key || !c->rank) {
		free(key);
		return ot_error_nomem(c->err, "sf-mms");
	}
	for (o = 0; o < c->nlayers; o++) {
		uint32_t *r = c->rank + (uint64_t)o * n;

		for (p = 0; p < n; p++)
			key[p] = (layer_hash(p, o) >> 20 << 20) | p;
		qsort(key, n, sizeof(*key), ot_cmp_u64);
		for (p = 0; p < n; p++)
			r[key[p] & 0xfffff] = p;
	}
	free(key);
	return 0;
}

/* Whether position a comes below position b in layer direction dir. */
static bool below(const uint32_t *r, unsigned int dir, uint32_t a, uint32_t b)
{
	return dir ? r[a] > r[b] : r[a] < r[b];
}

/* Whether position s reaches t in at most 2 hops over the cables left. */
static bool two_hops(const struct sf_ctx *c, uint32_t s, uint32_t t)
{
	return cables(c, s, t) || via(c, s, t, 0) != SF_NONE;
}

/* Per destination, the breadth-first tree over the cables left. */
struct sf_bfs {
	uint32_t *dist;  /* hops to t, UINT32_MAX: cut off */
	uint32_t *queue; /* in breadth-first order, count of them */
	uint32_t count;
	uint8_t *mono;   /* bit 0: R climbs from here to t; bit 1: falls */
	uint8_t dirs;    /* the directions allowed: 1 up only, 3 both */
};

static void bfs_dist(const struct sf_ctx *c, struct sf_bfs *w, uint32_t t)
{
	const struct ot_mms *m = &c->sf->mms;
	uint32_t head = 0, tail = 0, x, k;

	for (x = 0; x < m->n; x++)
		w->dist[x] = UINT32_MAX;
	w->dist[t] = 0;
	w->queue[tail++] = t;
	while (head < tail) {
		x = w->queue[head++];
		for (k = 0; k < m->deg; k++) {
			uint32_t y = m->nb[(uint64_t)x * m->deg + k];

			if (cables(c, x, y) && w->dist[y] == UINT32_MAX) {
				w->dist[y] = w->dist[x] + 1;
				w->queue[tail++] = y;
			}
		}
	}
	w->count = tail;
}

/*
 * The fixed next hop of x (2 or more hops from t, nx[] known for the
 * closer ones): a neighbour y one hop closer, preferring, in this order,
 * one after which R runs monotone to t (x, 3 or more hops away, needs it
 * for its own detour), one that keeps R monotone from x on (so that x
 * can be the third switch of a detour), one monotone itself; sets x's
 * mono bits.
 */
static uint32_t bfs_next(const struct sf_ctx *c, struct sf_bfs *w,
			 const uint32_t *nx, uint32_t t, uint32_t x)
{
	const struct ot_mms *m = &c->sf->mms;
	const uint32_t *r = c->rank;
	uint32_t k, best = SF_NONE, score = 0;

	for (k = 0; k < m->deg; k++) {
		uint32_t y = m->nb[(uint64_t)x * m->deg + k], sc, p2;
		uint8_t mono;

		if (!cables(c, x, y) || w->dist[y] + 1 != w->dist[x])
			continue;
		p2 = w->dist[y] == 1 ? t : nx[y];
		mono = (uint8_t)(((w->mono[y] & 1) && r[x] < r[y]) |
				 ((w->mono[y] & 2) && r[x] > r[y]) << 1);
		sc = 1 + (w->dist[x] < 3 || w->mono[p2]) * 4 + !!mono * 2 +
		     !!w->mono[y];
		if (sc > score) {
			score = sc;
			best = y;
			w->mono[x] = mono;
		}
	}
	return best;
}

/*
 * Destination t, which some switch cannot reach in 2 hops: every switch
 * 2 or more hops away forwards on a fixed shortest path (bfs_next), and
 * a switch 3 or more hops away rides the detour SL of the direction in
 * which R runs monotone from its path's third switch to t (ddir 1 up, 2
 * down).  False when some switch has no such path, or none at all.
 */
static bool plan_detours(struct sf_ctx *c, struct sf_bfs *w, uint32_t t)
{
	const struct ot_mms *m = &c->sf->mms;
	uint32_t *nx = c->nx + (uint64_t)t * m->n, i, x;
	uint8_t *dd = c->ddir + (uint64_t)t * m->n;

	bfs_dist(c, w, t);
	for (x = 0; x < m->n; x++) {
		w->mono[x] = 0;
		if (present(c, x) && w->dist[x] == UINT32_MAX)
			return false;
	}
	w->mono[t] = w->dirs;
	for (i = 1; i < w->count; i++) {
		x = w->queue[i];
		if (w->dist[x] == 1)
			w->mono[x] = (c->rank[x] < c->rank[t] ? 1 : 2) & w->dirs;
		else
			nx[x] = bfs_next(c, w, nx, t, x);
	}
	for (x = 0; x < m->n; x++) {
		uint32_t p2;

		if (!present(c, x) || w->dist[x] < 3)
			continue;
		p2 = nx[nx[x]];
		if (!w->mono[p2])
			return false;
		dd[x] = w->mono[p2] & 1 ? 1 : 2;
		c->detour_dirs |= dd[x];
		if (w->dist[x] > c->detour_hops)
			c->detour_hops = w->dist[x];
	}
	return true;
}

/*
 * One pass over the destinations with the detour directions w->dirs.
 * A destination some switch cannot reach in two hops over the cables
 * left gets detours (plan_detours: c->detour) or, where some switch has
 * none, goes whole to the escape layer (route/escape.h, c->escape), as
 * in ff-*.  Returns how many escape.
 */
static uint32_t detour_pass(struct sf_ctx *c, struct sf_bfs *w)
{
	const struct ot_mms *m = &c->sf->mms;
	uint64_t nn = (uint64_t)m->n * m->n, i;
	uint32_t s, t, escapes = 0;

	for (i = 0; i < nn; i++) {
		c->nx[i] = SF_NONE;
		c->ddir[i] = 0;
	}
	memset(c->escape, 0, m->n);
	memset(c->detour, 0, m->n);
	c->detour_dirs = 0;
	c->detour_hops = 0;
	for (t = 0; t < m->n; t++) {
		for (s = 0; s < m->n && present(c, t); s++)
			if (s != t && present(c, s) && !two_hops(c, s, t))
				break;
		if (s == m->n || !present(c, t))
			continue;
		if (plan_detours(c, w, t))
			c->detour[t] = 1;
		else
			c->escape[t] = 1;
		escapes += c->escape[t];
	}
	return escapes;
}

/*
 * Detours climbing R only (one detour SL and VL) unless descending ones
 * too leave fewer destinations to the escape layer.
 */
static int mark_escapes(struct sf_ctx *c)
{
	const struct ot_mms *m = &c->sf->mms;
	uint64_t nn = (uint64_t)m->n * m->n;
	struct sf_bfs w = { 0 };
	uint32_t t, up;
	int error = 0;

	c->escape = calloc(m->n, 1);
	c->detour = calloc(m->n, 1);
	if (!c->escape || !c->detour)
		return ot_error_nomem(c->err, "sf-mms");
	if (!c->sf->damaged)
		return 0;
	c->nx = malloc(nn * sizeof(*c->nx));
	c->ddir = malloc(nn);
	w.dist = malloc(m->n * sizeof(*w.dist));
	w.queue = malloc(m->n * sizeof(*w.queue));
	w.mono = malloc(m->n);
	if (!c->nx || !c->ddir || !w.dist || !w.queue || !w.mono) {
		error = ot_error_nomem(c->err, "sf-mms");
		goto out;
	}
	w.dirs = 1;
	up = detour_pass(c, &w);
	w.dirs = 3;
	if (up && detour_pass(c, &w) >= up) {
		w.dirs = 1;
		detour_pass(c, &w);
	}
	for (t = 0; t < m->n; t++) {
		c->any_escape |= c->escape[t];
		c->any_detour |= c->detour[t];
	}
out:
	free(w.dist);
	free(w.queue);
	free(w.mono);
	return error;
}

/* Whether position i can be an intermediate: every switch reaches it. */
static bool mid_ok(const struct sf_ctx *c, uint32_t i)
{
	return present(c, i) && !c->escape[i] && !c->detour[i];
}

/* A phase-2 route into a destination: I, the switch after it, the layer. */
struct sf_cand {
	uint32_t mid, mid2;
	uint8_t dir;
};

/*
 * The climbing phase-2 routes into t under rank r, upward (dir 0) and
 * downward (dir 1), in neighbour order, into cand[] (room for 2 deg^2:
 * deg per neighbour b of t, b itself and its other neighbours);
 * returns how many.
 */
static uint32_t layer_routes(const struct sf_ctx *c, uint32_t t,
			     const uint32_t *r, struct sf_cand *cand)
{
	const struct ot_mms *m = &c->sf->mms;
	const uint32_t *nt = m->nb + (uint64_t)t * m->deg;
	uint32_t count = 0, a, j;
	unsigned int dir;

	for (dir = 0; dir < c->layer_dirs; dir++)
		for (a = 0; a < m->deg; a++) {
			uint32_t b = nt[a];
			const uint32_t *nbb = m->nb + (uint64_t)b * m->deg;

			if (!cables(c, b, t) || !below(r, dir, b, t))
				continue;
			if (mid_ok(c, b))
				cand[count++] = (struct sf_cand){ b, SF_NONE,
								  dir };
			for (j = 0; j < m->deg; j++) {
				uint32_t i = nbb[j];

				if (i == t || !cables(c, i, b) ||
				    !below(r, dir, i, b) || !mid_ok(c, i))
					continue;
				cand[count++] = (struct sf_cand){ i, b, dir };
			}
		}
	return count;
}

/* What a layer LID's choice adds to: intermediates and phase-2 links. */
struct sf_usage {
	uint32_t *mid;  /* per position: LIDs it is the intermediate of */
	uint32_t *link; /* per (position, position): phase-2 LIDs on it */
};

/* The busiest phase-2 link of a candidate first, then its I's use. */
static uint64_t usage_cost(const struct sf_ctx *c, const struct sf_usage *u,
			   uint32_t t, const struct sf_cand *k)
{
	uint64_t n = c->sf->mms.n;
	uint32_t l1, l2;

	if (k->mid2 == SF_NONE)
		return (uint64_t)u->link[k->mid * n + t] << 32 | u->mid[k->mid];
	l1 = u->link[k->mid * n + k->mid2];
	l2 = u->link[k->mid2 * n + t];
	return (uint64_t)(l1 > l2 ? l1 : l2) << 32 | u->mid[k->mid];
}

/*
 * The least used of the candidates, scanning from a start that the
 * destination and the CA's rank give, so ties spread too; counts it.
 */
static void layer_pick(const struct sf_ctx *c, struct sf_usage *u,
		       struct sf_dest *d, uint32_t t,
		       const struct sf_cand *cand, uint32_t count)
{
	uint64_t n = c->sf->mms.n, cost, best_cost = UINT64_MAX;
	uint32_t k, best = 0,
		 start = (uint32_t)((layer_hash(t, d->offset) +
				     (uint64_t)d->seq * 7919) % count);

	for (k = 0; k < count; k++) {
		uint32_t j = (start + k) % count;

		cost = usage_cost(c, u, t, &cand[j]);
		if (cost < best_cost) {
			best_cost = cost;
			best = j;
		}
	}
	d->mid = cand[best].mid;
	d->mid2 = cand[best].mid2;
	d->layer = (uint8_t)(c->layer_dirs * (d->offset - 1) + cand[best].dir);
	u->mid[d->mid]++;
	if (d->mid2 == SF_NONE) {
		u->link[d->mid * n + t]++;
	} else {
		u->link[d->mid * n + d->mid2]++;
		u->link[d->mid2 * n + t]++;
	}
}

/*
 * Two layers (climbing and descending) per LMC offset above 0, or one
 * (climbing) when two would not fit in SF_MAX_VLS beside what damage
 * needs (LMC 2 on a damaged fabric).
 */
static void layer_budget(struct sf_ctx *c)
{
	unsigned int ndet = c->any_detour ? (c->detour_dirs == 3 ? 2 : 1) : 0,
		     nl = 2 * (c->nlayers - 1);
	unsigned int sls = ndet ? SF_LAYER_SL + nl + ndet :
			   nl ? SF_LAYER_SL + nl : 1;

	c->layer_dirs = 2;
	if (2 + c->any_escape + ndet + nl > c->max_vls || sls > c->max_sls)
		c->layer_dirs = 1;
}

/*
 * Every layer LID's intermediate, in dealing order, the least used so
 * far among the climbing routes into its destination.
 */
static int prepare_layers(struct sf_ctx *c)
{
	const struct ot_mms *m = &c->sf->mms;
	uint32_t i, room = 2 * m->deg * (m->deg + 1);
	struct sf_cand *cand;
	struct sf_usage u;
	int error = 0;

	if (c->nlayers < 2)
		return 0;
	cand = malloc(room * sizeof(*cand));
	u.mid = calloc(m->n, sizeof(*u.mid));
	u.link = calloc((uint64_t)m->n * m->n, sizeof(*u.link));
	if (!cand || !u.mid || !u.link) {
		error = ot_error_nomem(c->err, "sf-mms");
		goto out;
	}
	for (i = 0; i < c->norder; i++) {
		struct sf_dest *d = &c->dest[c->order[i]];
		uint32_t t = c->sf->sw_pos[d->sw], count;

		if (!d->offset || c->escape[t])
			continue;
		count = layer_routes(c, t, c->rank + (uint64_t)d->offset * m->n,
				     cand);
		if (count) /* else no cable left into t climbs: minimal */
			layer_pick(c, &u, d, t, cand, count);
	}
out:
	free(cand);
	free(u.mid);
	free(u.link);
	return error;
}

/* The next position from s toward a layer LID's destination t. */
static uint32_t layer_next(const struct sf_ctx *c, uint32_t s, uint32_t t,
			   const struct sf_dest *d)
{
	if (s == d->mid2)
		return t;
	if (s == d->mid)
		return d->mid2 != SF_NONE ? d->mid2 : t;
	if (cables(c, s, d->mid))
		return d->mid;
	return via(c, s, d->mid, d->seq);
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
		c->present[s] = present(c, s);
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
		else if (d->mid != SF_NONE)
			next = layer_next(c, s, t, d);
		else if (c->detour[t] && c->nx[(uint64_t)t * m->n + s] !=
						 SF_NONE)
			next = c->nx[(uint64_t)t * m->n + s];
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

/* Data VLs the plan uses: 0, 1, the escape's, the detours', the layers'. */
static unsigned int plan_vls(const struct sf_plan *p)
{
	return 2 + p->any_escape + p->ndetour + p->nl;
}

/* The detour SL: after the layers'. */
static unsigned int detour_sl(const struct sf_plan *p)
{
	return SF_LAYER_SL + p->nl;
}

/* Path SLs the plan numbers: 0 to the highest it uses. */
static unsigned int plan_sls(const struct sf_plan *p)
{
	if (p->ndetour)
		return detour_sl(p) + p->ndetour;
	if (p->nl)
		return SF_LAYER_SL + p->nl;
	return p->any_escape ? SF_ESCAPE_SL + 1 : 1;
}

/*
 * The VL of a hop, by path SL and whether the packet entered the switch
 * from another switch: the escape SL rides its VL everywhere; otherwise
 * a hop entered from a CA (or sent by the switch) goes on VL 0, one
 * entered from a switch on VL 1 (SL 0, minimal) or on its layer's VL.
 */
static uint8_t plan_vl(const struct sf_plan *p, unsigned int sl,
		       bool from_switch)
{
	if (p->any_escape && sl == SF_ESCAPE_SL)
		return SF_ESCAPE_VL;
	if (!from_switch)
		return 0;
	if (sl >= SF_LAYER_SL && sl < SF_LAYER_SL + p->nl)
		return (uint8_t)(2 + p->any_escape + p->ndetour +
				 (sl - SF_LAYER_SL));
	if (sl >= detour_sl(p) && sl < detour_sl(p) + p->ndetour)
		return (uint8_t)(2 + p->any_escape + (sl - detour_sl(p)));
	return 1;
}

static int fill_sl2vl(struct sf_ctx *c, const struct sf_plan *plan,
		      struct ot_routing *out)
{
	const struct ot_fabric *f = c->f;
	uint8_t vl[2][OT_NUM_SLS];
	uint32_t n;
	unsigned int in, o, sl;

	for (sl = 0; sl < OT_NUM_SLS; sl++) {
		vl[0][sl] = plan_vl(plan, sl, false);
		vl[1][sl] = plan_vl(plan, sl, true);
	}
	for (n = 0; n < f->nnodes; n++) {
		unsigned int np = f->node[n].nports;
		uint8_t *t;

		if (c->sf->sw_pos[n] < 0)
			continue;
		t = ot_routing_sl2vl_new(out, n);
		if (!t)
			return ot_error_nomem(c->err, "sf-mms");
		for (in = 0; in <= np; in++) {
			int32_t from = in ? f->node[n].port[in].peer : -1;
			bool sw = from >= 0 && ot_is_switch(f, from);

			for (o = 0; o <= np; o++)
				for (sl = 0; sl < OT_NUM_SLS; sl++)
					t[ot_sl2vl_index(np, in, o, sl)] =
						vl[sw][sl];
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

/* The promise's rule: every hop on the VL the plan gives. */
static int sf_rule(const void *ctx, const struct ot_path *p,
		   struct ot_error *why)
{
	const struct sf_plan *plan = ctx;
	const struct ot_fabric *f = plan->f;
	unsigned int k;

	for (k = 0; k + 1 < p->len; k++) {
		uint8_t want;

		if (!k) /* the CA's own hop */
			want = 0;
		else
			want = plan_vl(plan, p->sl,
				       ot_is_switch(f, p->node[k - 1]));
		if (p->vl[k] != want)
			return ot_error_set(why,
					    "hop %u (from \"%s\" port %u) on VL %u, the rule gives VL %u",
					    k, f->node[p->node[k]].desc,
					    p->port[k], p->vl[k], want);
	}
	return 0;
}

static void set_promise(struct ot_routing *out, struct sf_plan *plan)
{
	struct ot_promise *p = &out->promise;
	bool damage = plan->any_escape || plan->any_detour;
	unsigned int sl, vl = 2;

	snprintf(plan->text, sizeof(plan->text),
		 "Slim Fly MMS: %s on SL 0, VL 0 after a CA and VL 1 after a switch",
		 damage ? "where every switch reaches the destination in 2 hops, minimal" :
		 plan->nlayers > 1 ? "LID offset 0 minimal" :
		 "every CA-to-CA path minimal, at most 2 switch-to-switch hops");
	if (plan->any_escape)
		snprintf(plan->text + strlen(plan->text),
			 sizeof(plan->text) - strlen(plan->text),
			 "; destinations without such paths on the escape layer, SL 1, VL %u", vl++);
	if (plan->ndetour)
		snprintf(plan->text + strlen(plan->text),
			 sizeof(plan->text) - strlen(plan->text),
			 "; a switch with no 2-hop path takes a shortest path (%u switch hops at most) on SL %u%s, VL %u%s after a switch",
			 plan->detour_hops, detour_sl(plan), plan->ndetour == 2 ? " or the next" : "",
			 vl, plan->ndetour == 2 ? " or the next" : "");
	vl += plan->ndetour;
	if (plan->nlayers > 1)
		snprintf(plan->text + strlen(plan->text),
			 sizeof(plan->text) - strlen(plan->text),
			 "; offsets above 0 through an intermediate, at most 4 switch hops, layer l on SL %u+l, VL %u+l after a switch",
			 SF_LAYER_SL, vl);
	p->text = plan->text;
	/* a detour is a shortest path: its source has no 2-hop one */
	p->minimal = plan->any_escape ? OT_MINIMAL_NONE :
		     plan->nlayers > 1 ? OT_MINIMAL_BASE : OT_MINIMAL_ALL;
	p->max_switch_hops = plan->any_escape ? 0 :
			     plan->nlayers > 1 ? 4 : 2;
	if (p->max_switch_hops && plan->detour_hops > p->max_switch_hops)
		p->max_switch_hops = plan->detour_hops;
	p->sls = 1;
	if (plan->any_escape)
		p->sls |= 1u << SF_ESCAPE_SL;
	for (sl = 0; sl < plan->ndetour; sl++)
		p->sls |= 1u << (detour_sl(plan) + sl);
	for (sl = 0; sl < plan->nl; sl++)
		p->sls |= 1u << (SF_LAYER_SL + sl);
	p->rule = sf_rule;
	p->rule_text = "each hop on VL 0 when it enters from a CA; from a switch VL 1 on SL 0, the detour's or layer's own VL on its SL; escape SL 1: its VL after the CA's hop";
	p->source_free = true;
	p->ctx = (void *)plan;
}

/*
 * Path SL: the escape layer's, a layer's, the detour's for a source
 * switch that detours to the destination's, or 0 (priv: the plan).
 */
static uint8_t sf_path_sl(const struct ot_routing *r, uint16_t slid,
			  uint16_t dlid)
{
	const struct sf_plan *plan = r->priv;
	int32_t s, t;

	if (dlid > plan->max_lid)
		return 0;
	if (plan->sl[dlid] || !plan->any_detour || slid > plan->max_lid)
		return plan->sl[dlid];
	s = plan->pos[slid];
	t = plan->pos[dlid];
	return s >= 0 && t >= 0 && plan->dsrc[(uint64_t)t * plan->n + s] ?
		       (uint8_t)(detour_sl(plan) +
				 plan->dsrc[(uint64_t)t * plan->n + s] - 1) : 0;
}

static void plan_free(void *priv)
{
	struct sf_plan *plan = priv;

	free(plan->sl);
	free(plan->pos);
	free(plan->dsrc);
	free(plan);
}

/* Per LID its position, per (t, s) whether s detours to t. */
static int plan_detours_map(const struct sf_ctx *c, struct sf_plan *plan)
{
	uint64_t nn = (uint64_t)plan->n * plan->n, i;
	uint32_t lid;

	for (lid = 0; lid <= plan->max_lid; lid++)
		plan->pos[lid] = c->dest[lid].sw >= 0 ?
					 c->sf->sw_pos[c->dest[lid].sw] : -1;
	if (!plan->any_detour)
		return 0;
	plan->dsrc = malloc(nn);
	if (!plan->dsrc)
		return ot_error_nomem(c->err, "sf-mms");
	for (i = 0; i < nn; i++) {
		uint32_t t = (uint32_t)(i / plan->n);

		/* 1: climbing; 2: descending, its own SL when both are used */
		plan->dsrc[i] = 0;
		if (c->ddir[i] && c->detour[t])
			plan->dsrc[i] = plan->ndetour == 2 ? c->ddir[i] : 1;
	}
	return 0;
}

static int refuse_budget(const struct sf_ctx *c, const struct sf_plan *plan)
{
	char left[96];

	if (c->budget_why)
		snprintf(left, sizeof(left), "%s leave %u VLs and %u SLs",
			 c->budget_why, c->max_vls, c->max_sls);
	else
		snprintf(left, sizeof(left), "more than %u", c->max_vls);
	return ot_refuse(c->err, OT_ERR_BUDGET,
			 "sf-mms: LMC %u gives %u non-minimal layers (%u per LID offset above 0), each on its own SL and VL: %u data VLs with VLs 0 and 1%s%s, %u SLs: %s",
			 __builtin_ctz(c->nlayers), plan->nl, c->layer_dirs,
			 plan_vls(plan),
			 c->any_escape ? ", the escape layer's" : "",
			 c->any_detour ? ", the detours'" : "",
			 plan_sls(plan), left);
}

/*
 * The plan (path SL per LID), kept in out->priv; refuses past the VLs
 * or SLs allowed.
 */
static int set_plan(struct sf_ctx *c, struct ot_routing *out,
		    struct sf_plan **planp)
{
	struct sf_plan *plan;
	uint32_t lid;

	plan = calloc(1, sizeof(*plan));
	if (!plan)
		return ot_error_nomem(c->err, "sf-mms");
	out->priv = plan;
	out->free_priv = plan_free;
	*planp = plan;
	plan->f = c->f;
	plan->any_escape = c->any_escape;
	plan->any_detour = c->any_detour;
	plan->ndetour = c->any_detour ? (c->detour_dirs == 3 ? 2 : 1) : 0;
	plan->detour_hops = c->detour_hops;
	plan->nlayers = c->nlayers;
	plan->nl = c->layer_dirs * (c->nlayers - 1);
	plan->max_lid = c->f->max_lid;
	plan->n = c->sf->mms.n;
	plan->sl = calloc((size_t)plan->max_lid + 1, 1);
	plan->pos = malloc(((size_t)plan->max_lid + 1) * sizeof(*plan->pos));
	if (!plan->sl || !plan->pos || plan_detours_map(c, plan))
		return ot_error_nomem(c->err, "sf-mms");
	if (plan_vls(plan) > c->max_vls || plan_sls(plan) > c->max_sls)
		return refuse_budget(c, plan);
	for (lid = 0; lid <= c->f->max_lid; lid++) {
		const struct sf_dest *d = &c->dest[lid];

		if (d->sw < 0)
			continue;
		if (c->escape[c->sf->sw_pos[d->sw]])
			plan->sl[lid] = SF_ESCAPE_SL;
		else if (d->mid != SF_NONE)
			plan->sl[lid] = SF_LAYER_SL + d->layer;
	}
	if (c->any_escape || c->any_detour || c->nlayers > 1) {
		out->path_sl = sf_path_sl;
		out->path_sl_by_switch = true;
	}
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
	free(c->rank);
	free(c->detour);
	free(c->nx);
	free(c->ddir);
	ot_escape_free(&c->esc);
	free(c->present);
	free(c->start);
	free(c->adj);
}

static int sf_tables(struct sf_ctx *c, struct ot_routing *out)
{
	struct sf_plan *plan = NULL;
	uint32_t n;
	int error;

	error = prepare_dests(c);
	if (!error)
		error = prepare_bundles(c);
	if (!error)
		error = prepare_ranks(c);
	if (!error)
		error = mark_escapes(c);
	if (!error && c->any_escape)
		error = escape_prepare(c);
	if (!error)
		layer_budget(c);
	if (!error)
		error = prepare_layers(c);
	if (!error)
		error = set_labels(c, out);
	if (!error)
		error = set_plan(c, out, &plan);
	if (!error)
		error = fill_sl2vl(c, plan, out);
	for (n = 0; n < c->f->nnodes && !error; n++)
		if (c->sf->sw_pos[n] >= 0)
			error = fill_switch(c, n, out->lft[n]);
	if (error)
		return error;
	out->nvls = plan_vls(plan);
	out->needs_qos = true;
	set_promise(out, plan);
	return 0;
}

/* sf-mms within budget b (NULL: SF_MAX_VLS, every SL). */
static int sf_route_budget(const struct ot_engine *self,
			   const struct ot_fabric *f,
			   const struct ot_engine_budget *b,
			   struct ot_routing *out, struct ot_error *err)
{
	struct sf_ctx c = { .f = f, .err = err, .max_vls = SF_MAX_VLS,
			    .max_sls = OT_NUM_SLS };
	struct ot_sf *sf = NULL;
	struct ot_error why;
	double t;
	int error;

	(void)self;
	if (b) {
		c.max_vls = b->max_vls < SF_MAX_VLS ? b->max_vls : SF_MAX_VLS;
		c.max_sls = b->max_sls < OT_NUM_SLS ? b->max_sls : OT_NUM_SLS;
		c.budget_why = b->why;
	}
	t = ot_now_ms();
	error = ot_sf_recognize(f, &sf, &why);
	if (error) {
		ot_error_wrap(err, &why, OT_ERR_TOPOLOGY, "sf-mms");
		goto out;
	}
	ot_routing_phase(out, "recognize", t);
	t = ot_now_ms();
	c.sf = sf;
	error = sf_tables(&c, out);
	if (!error)
		ot_routing_phase(out, "route", t);
out:
	free_ctx(&c);
	ot_sf_free(sf);
	return error;
}

static int sf_route(const struct ot_engine *self, const struct ot_fabric *f,
		    struct ot_routing *out, struct ot_error *err)
{
	return sf_route_budget(self, f, NULL, out, err);
}

const struct ot_engine ot_engine_sf_mms = {
	.name = "sf-mms",
	.needs = "Slim Fly (MMS graph, any prime power q; cables and switches may be missing), parallel cables; 2 VLs (QoS on), 1 SL; damage: +1 or 2 VLs and SLs for detours, +1 for the escape layer; LMC: +2 VLs and SLs per LID offset above 0 (non-minimal layers; 1 when short of VLs)",
	.route = sf_route,
	.route_budget = sf_route_budget,
	.miscabling = ot_sf_miscabling,
};
