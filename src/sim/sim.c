// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The packet simulator (see sim.h).  Event driven on a timing wheel of
 * ticks (one 64-byte block time); all state in flat arrays indexed by
 * directed link (output port p of node n is link link_base[n] + p - 1,
 * as in the checker), FIFO (link << vs | VL), packet (a pool with a free
 * list) and CA; nothing is allocated per packet.  Events at one tick are
 * applied first, then every output port they touched arbitrates once, so
 * the order of same-tick events does not pick winners.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/endpoints.h"
#include "model/prng.h"
#include "sim/hist.h"
#include "sim/sim.h"
#include "traffic/arbiter.h"

#define NONE UINT32_MAX
#define MAX_HOPS 64 /* a packet past this many hops loops: dropped */
#define FIFO(s, link, vl) ((link) << (s)->vs | (vl))
#define VMASK(s) ((1u << (s)->vs) - 1)

enum ev_type {
	EV_ARRIVE,   /* a: link, b: packet: head at the switch, routed */
	EV_DELIVER,  /* a: link, b: packet: tail at the CA */
	EV_OUT_FREE, /* a: link: its sender is free */
	EV_IN_FREE,  /* a: FIFO: it reads its next packet */
	EV_CREDIT,   /* a: link, b: VL: a packet's blocks come back */
	EV_GEN,      /* a: CA: a packet joins the send queue */
};

struct ev {
	uint32_t t, a, b;
	uint8_t type;
};

/* One tick of the wheel: its events in order, contiguous. */
struct bucket {
	struct ev *ev;
	uint32_t n, cap;
};

struct pkt {
	uint32_t src, dst;   /* CAs */
	uint32_t t_gen;
	uint32_t out;        /* link it waits for at its switch */
	uint16_t dlid;
	uint8_t sl, vl, out_vl, hops;
};

/* A FIFO (input port and VL) as the arbitration sees it. */
struct fifo {
	uint32_t next;    /* the next FIFO asking for the same output */
	uint32_t in_busy; /* sending a packet until then */
	uint32_t since;   /* its head got there then */
	uint32_t out;     /* the link its head packet wants */
	uint16_t head, cnt;
	uint8_t vl;       /* and its VL there */
};

struct ca {
	int32_t node;
	uint8_t port;
	uint16_t lid;
	uint32_t nlids;
	uint32_t link;     /* its cable, as a link from the CA */
	/* the send queue: generation times, a ring */
	uint32_t *q;
	uint32_t qhead, qcount, qcap;
	/* the packet at the head, once its destination is drawn */
	bool head;
	uint32_t head_t, head_dst;
	uint16_t head_dlid;
	uint8_t head_sl, head_vl;
	double next_gen;
	uint32_t rr;       /* LID round-robin */
	uint64_t sent_win; /* delivered in the window, sent by it */
	bool active;
	/* PAIRS: its pairs, cumulative rates */
	uint32_t pair0, npairs;
	double rate;
};

struct ot_sim {
	const struct ot_fabric *f;
	const struct ot_routing *r;
	struct ot_sim_params p;
	struct ot_endpoints eps;
	uint32_t nvl;   /* VLs simulated */
	uint32_t vs;    /* FIFO f = link << vs | VL: 2^vs >= nvl */
	uint32_t P;     /* ticks per packet */
	uint32_t lat;   /* cable latency, ticks */
	uint32_t swl;   /* switch latency, ticks */
	uint32_t cap;   /* packets per FIFO */
	int32_t credit0; /* blocks per FIFO */
	double tick_ns;

	/* links */
	uint32_t nlinks;
	uint32_t *link_base;
	int32_t *l_from, *l_to;
	uint8_t *l_fport, *l_tport;
	uint8_t *l_to_sw;   /* the receiver is a switch */
	uint8_t *l_from_sw; /* the sender is a switch */
	uint32_t *l_ca;     /* CA number of a CA's cable (from or to), NONE */
	const struct ot_vlarb_port **l_arb; /* the sender's tables, or NULL */

	/* CAs */
	uint32_t nca;
	struct ca *ca;
	uint32_t *ca_of_ep; /* endpoint index -> CA number */

	/* run state, per link (as output, then as input) */
	uint32_t *out_busy;
	int32_t *credits;   /* per FIFO index (link << vs | VL) */
	uint32_t *req;      /* head of the FIFOs whose head wants the link */
	uint8_t *rr_vl;
	uint16_t *rr_in;    /* per output and VL: the last (port << vs | VL) */
	struct ot_arb_state *arb;
	uint8_t *dirty;
	uint32_t *dstack, ndirty;
	/* FIFOs */
	uint32_t nfifo;
	uint32_t *fbuf;
	/* what the arbitration reads of a FIFO, in one place (one miss) */
	struct fifo *fi;
	uint8_t *nports;    /* per node */
	/* packets */
	struct pkt *pk;
	uint32_t npk, pkfree;
	/* events */
	struct bucket *wheel;
	uint32_t wmask;
	/* scratch for deadlock search */
	uint32_t *wait;
	uint8_t *color;

	/* traffic of the run */
	const struct ot_sim_traffic *t;
	uint32_t *pair_dst;
	double *pair_cum;
	struct ot_prng rng;
	double load;
	bool sat;
	uint32_t now, win_start, end, last_move;
	uint64_t in_net;
	struct ot_sim_result *res;
	uint64_t *hist, *sl_hist; /* OT_HIST_BINS, and per SL */
	double lat_sum, sl_lat_sum[OT_NUM_SLS];
	uint64_t lat_n, sl_lat_n[OT_NUM_SLS];
	bool oom;
};

void ot_sim_params_default(struct ot_sim_params *p)
{
	memset(p, 0, sizeof(*p));
	p->mtu = 2048;
	p->buffer = 16384;
	p->rate_gbps = 200;
	p->link_ns = 20;
	p->switch_ns = 100;
	p->arrivals = OT_SIM_BERNOULLI;
	p->lid = OT_SIM_LID_BASE;
	p->warmup = 1000;
	p->measure = 2000;
	p->deadlock_window = 200;
	p->seed = 1;
	p->order = OT_CA_ORDER_FILE;
}

/* ------------------------------------------------------------------ */
/* Set-up.                                                             */

static uint32_t link_of(const struct ot_sim *s, int32_t n, unsigned int p)
{
	return s->link_base[n] + p - 1;
}

static unsigned int max_vl(const struct ot_routing *r)
{
	const struct ot_fabric *f = r->fabric;
	unsigned int vl = 0;
	uint32_t n;
	size_t i, len;

	for (n = 0; n < f->nnodes; n++) {
		if (!r->sl2vl[n])
			continue;
		len = (size_t)(f->node[n].nports + 1) *
		      (f->node[n].nports + 1) * OT_NUM_SLS;
		for (i = 0; i < len; i++)
			if (r->sl2vl[n][i] != 15 && r->sl2vl[n][i] > vl)
				vl = r->sl2vl[n][i];
	}
	return vl > 14 ? 14 : vl;
}

#define ALLOC(ptr, n) ((ptr) = calloc((n) ? (n) : 1, sizeof(*(ptr))))

static int setup_links(struct ot_sim *s)
{
	const struct ot_fabric *f = s->f;
	uint32_t n, l;
	unsigned int p;

	if (!ALLOC(s->link_base, f->nnodes + 1) || !ALLOC(s->nports, f->nnodes))
		return -1;
	for (n = 0; n < f->nnodes; n++) {
		s->link_base[n + 1] = s->link_base[n] + f->node[n].nports;
		s->nports[n] = f->node[n].nports;
	}
	s->nlinks = l = s->link_base[f->nnodes];
	if (!ALLOC(s->l_from, l) || !ALLOC(s->l_to, l) ||
	    !ALLOC(s->l_fport, l) || !ALLOC(s->l_tport, l) ||
	    !ALLOC(s->l_to_sw, l) || !ALLOC(s->l_ca, l) ||
	    !ALLOC(s->l_from_sw, l) ||
	    !ALLOC(s->l_arb, l))
		return -1;
	for (n = 0; n < f->nnodes; n++) {
		for (p = 1; p <= f->node[n].nports; p++) {
			const struct ot_port *pt = &f->node[n].port[p];

			l = link_of(s, n, p);
			s->l_from[l] = n;
			s->l_fport[l] = p;
			s->l_to[l] = pt->peer;
			s->l_tport[l] = pt->peer_port;
			s->l_to_sw[l] = pt->peer >= 0 &&
					ot_is_switch(f, pt->peer);
			s->l_from_sw[l] = ot_is_switch(f, n);
			s->l_ca[l] = NONE;
			s->l_arb[l] = ot_vlarb_get(s->p.vlarb, n, p);
		}
	}
	return 0;
}

static int setup_cas(struct ot_sim *s)
{
	uint32_t *order, i;

	if (ot_endpoints_init(&s->eps, s->f))
		return -1;
	s->nca = s->eps.nep;
	if (!ALLOC(s->ca, s->nca) || !ALLOC(s->ca_of_ep, s->nca) ||
	    !ALLOC(order, s->nca))
		return -1;
	ot_ca_order_list(s->f, &s->eps, s->p.order, order);
	for (i = 0; i < s->nca; i++) {
		const struct ot_endpoint *e = &s->eps.ep[order[i]];
		struct ca *c = &s->ca[i];
		uint32_t l = link_of(s, e->node, e->port);

		c->node = e->node;
		c->port = e->port;
		c->lid = e->lid;
		c->nlids = e->nlids;
		c->link = l;
		s->ca_of_ep[order[i]] = i;
		s->l_ca[l] = i;
		if (s->f->node[e->node].port[e->port].peer >= 0) {
			int32_t peer = s->f->node[e->node].port[e->port].peer;
			uint8_t pp = s->f->node[e->node].port[e->port].peer_port;

			s->l_ca[link_of(s, peer, pp)] = i;
		}
		c->qcap = 16;
		if (!ALLOC(c->q, c->qcap)) {
			free(order);
			return -1;
		}
	}
	free(order);
	return 0;
}

struct ot_sim *ot_sim_new(const struct ot_routing *r,
			  const struct ot_sim_params *p, struct ot_error *err)
{
	struct ot_sim *s = calloc(1, sizeof(*s));
	uint32_t span, w;

	if (!s) {
		ot_error_nomem(err, "simulate");
		return NULL;
	}
	s->f = r->fabric;
	s->r = r;
	s->p = *p;
	if (!s->p.mtu)
		s->p.mtu = 2048;
	if (s->p.rate_gbps <= 0)
		s->p.rate_gbps = 200;
	s->nvl = max_vl(r) + 1;
	while ((1u << s->vs) < s->nvl)
		s->vs++;
	s->P = (s->p.mtu + 63) / 64;
	s->tick_ns = 512.0 / s->p.rate_gbps;
	s->lat = (uint32_t)lround(s->p.link_ns / s->tick_ns);
	if (!s->lat)
		s->lat = 1;
	s->swl = (uint32_t)lround(s->p.switch_ns / s->tick_ns);
	s->cap = s->p.buffer / (s->P * 64);
	if (!s->cap)
		s->cap = 1; /* a FIFO holds at least one packet */
	s->credit0 = (int32_t)(s->cap * s->P);
	if (setup_links(s) || setup_cas(s))
		goto oom;
	if (!s->nca) {
		ot_error_set(err, "no CA port with a LID to send from");
		ot_sim_free(s);
		return NULL;
	}
	s->nfifo = s->nlinks << s->vs;
	if (!ALLOC(s->out_busy, s->nlinks) || !ALLOC(s->fi, s->nfifo) ||
	    !ALLOC(s->credits, s->nfifo) || !ALLOC(s->req, s->nlinks) ||
	    !ALLOC(s->rr_vl, s->nlinks) || !ALLOC(s->rr_in, s->nfifo) ||
	    !ALLOC(s->arb, s->nlinks) || !ALLOC(s->dirty, s->nlinks) ||
	    !ALLOC(s->dstack, s->nlinks) ||
	    !(s->fbuf = calloc((size_t)s->nfifo * s->cap, sizeof(*s->fbuf))) ||
	    !ALLOC(s->wait, s->nfifo) || !ALLOC(s->color, s->nfifo) ||
	    !ALLOC(s->hist, OT_HIST_BINS) ||
	    !ALLOC(s->sl_hist, (size_t)OT_HIST_BINS * OT_NUM_SLS))
		goto oom;
	/* the wheel spans the longest delay but a far arrival's */
	span = s->P + s->lat + s->swl + 2;
	for (w = 64; w < 2 * span; w <<= 1)
		;
	s->wmask = w - 1;
	if (!ALLOC(s->wheel, w))
		goto oom;
	return s;
oom:
	ot_error_nomem(err, "simulate");
	ot_sim_free(s);
	return NULL;
}

void ot_sim_free(struct ot_sim *s)
{
	uint32_t i;

	if (!s)
		return;
	for (i = 0; s->ca && i < s->nca; i++)
		free(s->ca[i].q);
	ot_endpoints_free(&s->eps);
	free(s->link_base);
	free(s->l_from);
	free(s->l_to);
	free(s->l_fport);
	free(s->l_tport);
	free(s->l_to_sw);
	free(s->l_from_sw);
	free(s->l_ca);
	free(s->l_arb);
	free(s->ca);
	free(s->ca_of_ep);
	free(s->out_busy);
	free(s->fi);
	free(s->credits);
	free(s->req);
	free(s->rr_vl);
	free(s->rr_in);
	free(s->arb);
	free(s->dirty);
	free(s->dstack);
	free(s->fbuf);
	free(s->nports);
	free(s->pk);
	for (i = 0; s->wheel && i <= s->wmask; i++)
		free(s->wheel[i].ev);
	free(s->wheel);
	free(s->wait);
	free(s->color);
	free(s->hist);
	free(s->sl_hist);
	free(s->pair_dst);
	free(s->pair_cum);
	free(s);
}

uint32_t ot_sim_ncas(const struct ot_sim *s)
{
	return s->nca;
}

void ot_sim_ca(const struct ot_sim *s, uint32_t i, int32_t *node,
	       uint8_t *port)
{
	*node = s->ca[i].node;
	*port = s->ca[i].port;
}

unsigned int ot_sim_nvls(const struct ot_sim *s)
{
	return s->nvl;
}

double ot_sim_packet_ns(const struct ot_sim *s)
{
	return s->P * s->tick_ns;
}

/* ------------------------------------------------------------------ */
/* Pools and the wheel.                                                */

static uint32_t pkt_new(struct ot_sim *s)
{
	uint32_t i;

	if (s->pkfree == NONE) {
		uint32_t n = s->npk ? s->npk * 2 : 1024, k;
		struct pkt *pk = realloc(s->pk, n * sizeof(*pk));

		if (!pk) {
			s->oom = true;
			return NONE;
		}
		s->pk = pk;
		for (k = s->npk; k < n; k++)
			s->pk[k].out = k + 1 < n ? k + 1 : NONE;
		s->pkfree = s->npk;
		s->npk = n;
	}
	i = s->pkfree;
	s->pkfree = s->pk[i].out;
	return i;
}

static void pkt_free(struct ot_sim *s, uint32_t i)
{
	s->pk[i].out = s->pkfree;
	s->pkfree = i;
}

static void schedule(struct ot_sim *s, uint32_t t, enum ev_type type,
		     uint32_t a, uint32_t b)
{
	struct bucket *k = &s->wheel[t & s->wmask];
	struct ev *e;

	if (k->n == k->cap) {
		uint32_t n = k->cap ? k->cap * 2 : 64;

		e = realloc(k->ev, n * sizeof(*e));
		if (!e) {
			s->oom = true;
			return;
		}
		k->ev = e;
		k->cap = n;
	}
	e = &k->ev[k->n++];
	e->t = t;
	e->a = a;
	e->b = b;
	e->type = (uint8_t)type;
}

static void mark(struct ot_sim *s, uint32_t link)
{
	if (s->dirty[link])
		return;
	s->dirty[link] = 1;
	s->dstack[s->ndirty++] = link;
}

/* ------------------------------------------------------------------ */
/* Traffic.                                                            */

static double uniform01(struct ot_sim *s)
{
	return (double)(ot_prng_next(&s->rng) >> 11) * (1.0 / 9007199254740992.0);
}

static uint32_t uniform_dest(struct ot_sim *s, uint32_t src)
{
	uint32_t d;

	if (s->nca < 2)
		return NONE;
	d = ot_prng_below(&s->rng, s->nca - 1);
	return d >= src ? d + 1 : d;
}

static uint32_t draw_dest(struct ot_sim *s, uint32_t src)
{
	const struct ot_sim_traffic *t = s->t;
	struct ca *c = &s->ca[src];
	double x;
	uint32_t lo, hi;

	switch (t->kind) {
	case OT_SIM_PERMUTATION:
		return t->partner[src];
	case OT_SIM_HOTSPOT:
		if (src != t->hot && uniform01(s) < t->hot_fraction)
			return t->hot;
		return uniform_dest(s, src);
	case OT_SIM_PAIRS:
		if (!c->npairs)
			return NONE;
		x = uniform01(s) * c->rate;
		lo = c->pair0;
		hi = c->pair0 + c->npairs - 1;
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (s->pair_cum[mid] > x)
				hi = mid;
			else
				lo = mid + 1;
		}
		return s->pair_dst[lo];
	default:
		return uniform_dest(s, src);
	}
}

static uint16_t pick_lid(struct ot_sim *s, uint32_t src, uint32_t dst)
{
	const struct ca *d = &s->ca[dst];
	struct ot_prng h;

	if (d->nlids < 2)
		return d->lid;
	switch (s->p.lid) {
	case OT_SIM_LID_HASH:
		h.state = ((uint64_t)src << 32 | dst) ^ s->p.seed;
		return (uint16_t)(d->lid + ot_prng_next(&h) % d->nlids);
	case OT_SIM_LID_RR:
		return (uint16_t)(d->lid + s->ca[src].rr++ % d->nlids);
	default:
		return d->lid;
	}
}

/* The gap to CA c's next packet, in ticks (fractional). */
static double next_gap(struct ot_sim *s, struct ca *c)
{
	double load = s->load * (s->t->kind == OT_SIM_PAIRS ? c->rate : 1);
	double u = uniform01(s);

	if (load >= 1)
		return s->P;
	if (s->p.arrivals == OT_SIM_EXPONENTIAL)
		return -log(1 - u) * s->P / load;
	/* Bernoulli per packet time: a geometric number of slots */
	return s->P * (1 + floor(log(1 - u) / log(1 - load)));
}

static int queue_push(struct ot_sim *s, struct ca *c, uint32_t t)
{
	if (c->qcount == c->qcap) {
		uint32_t n = c->qcap * 2, k;
		uint32_t *q = malloc(n * sizeof(*q));

		if (!q) {
			s->oom = true;
			return -1;
		}
		for (k = 0; k < c->qcount; k++)
			q[k] = c->q[(c->qhead + k) % c->qcap];
		free(c->q);
		c->q = q;
		c->qhead = 0;
		c->qcap = n;
	}
	c->q[(c->qhead + c->qcount) % c->qcap] = t;
	c->qcount++;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Moving packets.                                                     */

static uint32_t fifo_head(const struct ot_sim *s, uint32_t f)
{
	return s->fbuf[(size_t)f * s->cap + s->fi[f].head];
}

/* FIFO f has a new head: it asks for its output. */
static void request(struct ot_sim *s, uint32_t f)
{
	const struct pkt *k = &s->pk[fifo_head(s, f)];

	s->fi[f].since = s->now;
	s->fi[f].out = k->out;
	s->fi[f].vl = k->out_vl;
	s->fi[f].next = s->req[k->out];
	s->req[k->out] = f;
	mark(s, k->out);
}

/* Sends packet k on link o, on VL vl. */
static void transmit(struct ot_sim *s, uint32_t k, uint32_t o, uint8_t vl)
{
	struct pkt *x = &s->pk[k];

	s->res->packet_hops++;
	s->last_move = s->now;
	s->out_busy[o] = s->now + s->P;
	schedule(s, s->now + s->P, EV_OUT_FREE, o, 0);
	x->vl = vl;
	if (s->l_to_sw[o]) {
		s->credits[FIFO(s, o, vl)] -= (int32_t)s->P;
		schedule(s, s->now + s->lat + s->swl, EV_ARRIVE, o, k);
	} else {
		schedule(s, s->now + s->lat + s->P, EV_DELIVER, o, k);
	}
}

/* A CA's cable: its send queue's head, if it may go. */
static void arbitrate_ca(struct ot_sim *s, uint32_t o)
{
	uint32_t i = s->l_ca[o], k;
	struct ca *c = &s->ca[i];

	if (!c->head) {
		uint32_t t;

		if (c->qcount) {
			t = c->q[c->qhead];
			c->qhead = (c->qhead + 1) % c->qcap;
			c->qcount--;
		} else if (s->sat && c->active) {
			t = s->now;
		} else {
			return;
		}
		c->head_dst = draw_dest(s, i);
		if (c->head_dst == NONE)
			return;
		c->head = true;
		c->head_t = t;
		c->head_dlid = pick_lid(s, i, c->head_dst);
		c->head_sl = ot_routing_path_sl(s->r, c->lid, c->head_dlid) &
			     (OT_NUM_SLS - 1);
		c->head_vl = ot_routing_vl(s->r, c->node, 0, c->port,
					   c->head_sl);
	}
	if (c->head_vl >= s->nvl) {
		/* VL 15 or beyond: never sent */
		s->res->unrouted++;
		c->head = false;
		return;
	}
	if (s->l_to_sw[o] &&
	    s->credits[FIFO(s, o, c->head_vl)] < (int32_t)s->P)
		return;
	k = pkt_new(s);
	if (k == NONE)
		return;
	s->pk[k].src = i;
	s->pk[k].dst = c->head_dst;
	s->pk[k].t_gen = c->head_t;
	s->pk[k].dlid = c->head_dlid;
	s->pk[k].sl = c->head_sl;
	s->pk[k].hops = 0;
	c->head = false;
	s->in_net++;
	transmit(s, k, o, c->head_vl);
}

/* A switch's output o: one of the FIFO heads that want it. */
static void arbitrate(struct ot_sim *s, uint32_t o)
{
	unsigned int units[OT_ARB_VLS];
	uint32_t f, prev, best = NONE, best_prev = NONE, best_key = UINT32_MAX;
	uint32_t nk = (s->nports[s->l_from[o]] + 1u) << s->vs;
	uint16_t ready = 0;
	bool credit_check = s->l_to_sw[o];
	int vl = 0;
	unsigned int v;

	for (f = s->req[o]; f != NONE; f = s->fi[f].next) {
		if (s->fi[f].in_busy > s->now)
			continue;
		if (credit_check &&
		    s->credits[FIFO(s, o, s->fi[f].vl)] < (int32_t)s->P)
			continue;
		ready |= (uint16_t)(1u << s->fi[f].vl);
	}
	if (!ready)
		return;
	if (s->l_arb[o]) {
		for (v = 0; v < OT_ARB_VLS; v++)
			units[v] = s->P;
		vl = ot_arb_pick(&s->arb[o], s->l_arb[o], ready, units);
		if (vl < 0)
			return; /* the ready VLs have no entry: never sent */
	} else {
		for (v = 1; v <= s->nvl; v++) {
			vl = (int)((s->rr_vl[o] + v) % s->nvl);
			if (ready & (1u << vl))
				break;
		}
		s->rr_vl[o] = (uint8_t)vl;
	}
	/* round-robin over the input ports, within the VL */
	for (prev = NONE, f = s->req[o]; f != NONE;
	     prev = f, f = s->fi[f].next) {
		uint32_t in = f >> s->vs, key;

		if (s->fi[f].vl != vl || s->fi[f].in_busy > s->now)
			continue;
		key = ((s->l_tport[in] << s->vs | (f & VMASK(s))) + nk -
		       s->rr_in[FIFO(s, o, vl)] - 1) % nk;
		if (key < best_key) {
			best_key = key;
			best = f;
			best_prev = prev;
		}
	}
	if (best == NONE)
		return; /* cannot happen: ready names a VL some head can take */
	{
		uint32_t in = best >> s->vs, k = fifo_head(s, best);

		if (best_prev == NONE)
			s->req[o] = s->fi[best].next;
		else
			s->fi[best_prev].next = s->fi[best].next;
		s->rr_in[FIFO(s, o, vl)] =
			(uint16_t)(s->l_tport[in] << s->vs | (best & VMASK(s)));
		s->fi[best].head = (uint16_t)((s->fi[best].head + 1) % s->cap);
		s->fi[best].cnt--;
		s->fi[best].in_busy = s->now + s->P;
		schedule(s, s->now + s->P, EV_IN_FREE, best, 0);
		schedule(s, s->now + s->P + s->lat, EV_CREDIT, in,
			 best & VMASK(s));
		transmit(s, k, o, (uint8_t)vl);
		if (s->fi[best].cnt)
			request(s, best);
	}
}

/* The head of packet k reached the switch at the end of link l. */
static void arrive(struct ot_sim *s, uint32_t l, uint32_t k)
{
	struct pkt *x = &s->pk[k];
	int32_t n = s->l_to[l];
	unsigned int ip = s->l_tport[l];
	uint8_t op = s->r->lft[n] ? s->r->lft[n][x->dlid] : OT_NO_PORT;
	uint32_t f = FIFO(s, l, x->vl);

	if (op == 0 || op > s->nports[n] || s->l_to[link_of(s, n, op)] < 0 ||
	    ++x->hops > MAX_HOPS ||
	    (x->out_vl = ot_routing_vl(s->r, n, ip, op, x->sl)) >= s->nvl) {
		/* dropped: its blocks go back at once */
		s->res->unrouted++;
		s->in_net--;
		schedule(s, s->now + s->lat, EV_CREDIT, l, x->vl);
		pkt_free(s, k);
		return;
	}
	x->out = link_of(s, n, op);
	s->fbuf[(size_t)f * s->cap +
		(s->fi[f].head + s->fi[f].cnt) % s->cap] = k;
	if (s->fi[f].cnt++ == 0)
		request(s, f);
}

static void deliver(struct ot_sim *s, uint32_t l, uint32_t k)
{
	const struct pkt *x = &s->pk[k];
	uint32_t lat;

	s->in_net--;
	if (s->l_ca[l] != x->dst) {
		s->res->misdelivered++;
	} else if (s->now >= s->win_start) {
		s->ca[x->src].sent_win++;
		s->res->delivered++;
		s->res->sl[x->sl].delivered++;
		s->res->sl_mask |= (uint16_t)(1u << x->sl);
		if (x->t_gen >= s->win_start) {
			lat = s->now - x->t_gen;
			s->lat_sum += lat;
			s->lat_n++;
			s->hist[ot_hist_bin(lat)]++;
			s->sl_lat_sum[x->sl] += lat;
			s->sl_lat_n[x->sl]++;
			s->sl_hist[(size_t)x->sl * OT_HIST_BINS +
				   ot_hist_bin(lat)]++;
		}
	}
	pkt_free(s, k);
}

static void gen(struct ot_sim *s, uint32_t i)
{
	struct ca *c = &s->ca[i];
	uint32_t t;

	queue_push(s, c, s->now);
	c->next_gen += next_gap(s, c);
	/* two packets in one tick: the second one tick later */
	t = (uint32_t)ceil(c->next_gen);
	schedule(s, t > s->now ? t : s->now + 1, EV_GEN, i, 0);
	mark(s, c->link);
}

static void run_event(struct ot_sim *s, const struct ev *e)
{
	switch (e->type) {
	case EV_ARRIVE:
		arrive(s, e->a, e->b);
		break;
	case EV_DELIVER:
		deliver(s, e->a, e->b);
		break;
	case EV_OUT_FREE:
		mark(s, e->a);
		break;
	case EV_IN_FREE:
		if (s->fi[e->a].cnt)
			mark(s, s->fi[e->a].out);
		break;
	case EV_CREDIT:
		s->credits[FIFO(s, e->a, e->b)] += (int32_t)s->P;
		mark(s, e->a);
		break;
	case EV_GEN:
		gen(s, e->a);
		break;
	}
}

/* ------------------------------------------------------------------ */
/* Deadlock.                                                           */

/*
 * FIFOs whose head has waited a window for credits of a FIFO that waits
 * too, in a cycle: a deadlock, its channels in res.  True when found.
 */
static bool find_deadlock(struct ot_sim *s)
{
	uint32_t window = s->p.deadlock_window * s->P, f, g, start;
	struct ot_sim_result *res = s->res;

	for (f = 0; f < s->nfifo; f++) {
		s->wait[f] = NONE;
		s->color[f] = 0;
		if (!s->fi[f].cnt || s->now - s->fi[f].since < window)
			continue;
		g = FIFO(s, s->fi[f].out, s->fi[f].vl);
		if (s->l_to_sw[s->fi[f].out] && s->credits[g] < (int32_t)s->P)
			s->wait[f] = g;
	}
	/* each FIFO waits for at most one: follow the chains */
	for (start = 0; start < s->nfifo; start++) {
		if (s->color[start] || s->wait[start] == NONE)
			continue;
		for (f = start; f != NONE && !s->color[f]; f = s->wait[f])
			s->color[f] = 1; /* on the current chain */
		if (f != NONE && s->color[f] == 1) {
			/* f is on a cycle */
			res->deadlock = true;
			res->ncycle = 0;
			res->cycle_len = 0;
			g = f;
			do {
				uint32_t l = g >> s->vs;
				const struct pkt *x = &s->pk[fifo_head(s, g)];
				struct ot_sim_channel *c;

				res->cycle_len++;
				if (res->ncycle < OT_SIM_MAX_CYCLE) {
					c = &res->cycle[res->ncycle++];
					c->from = s->l_from[l];
					c->from_port = s->l_fport[l];
					c->to = s->l_to[l];
					c->to_port = s->l_tport[l];
					c->vl = (uint8_t)(g & VMASK(s));
					c->head_slid = s->ca[x->src].lid;
					c->head_dlid = x->dlid;
				}
				g = s->wait[g];
			} while (g != f);
			return true;
		}
		for (f = start; f != NONE && s->color[f] == 1; f = s->wait[f])
			s->color[f] = 2; /* done */
	}
	return false;
}

/* ------------------------------------------------------------------ */
/* A run.                                                              */

static void reset(struct ot_sim *s)
{
	uint32_t i, l, v;

	s->now = 0;
	s->in_net = 0;
	s->ndirty = 0;
	s->lat_sum = 0;
	s->lat_n = 0;
	memset(s->sl_lat_sum, 0, sizeof(s->sl_lat_sum));
	memset(s->sl_lat_n, 0, sizeof(s->sl_lat_n));
	memset(s->hist, 0, OT_HIST_BINS * sizeof(*s->hist));
	memset(s->sl_hist, 0,
	       (size_t)OT_HIST_BINS * OT_NUM_SLS * sizeof(*s->sl_hist));
	memset(s->out_busy, 0, s->nlinks * sizeof(*s->out_busy));
	memset(s->rr_vl, 0, s->nlinks);
	memset(s->rr_in, 0, s->nfifo * sizeof(*s->rr_in));
	memset(s->dirty, 0, s->nlinks);
	memset(s->fi, 0, s->nfifo * sizeof(*s->fi));
	for (l = 0; l < s->nlinks; l++) {
		s->req[l] = NONE;
		ot_arb_reset(&s->arb[l]);
		for (v = 0; v < s->nvl; v++)
			s->credits[FIFO(s, l, v)] = s->credit0;
	}
	/* every packet and event back to its pool */
	s->pkfree = s->npk ? 0 : NONE;
	for (i = 0; i < s->npk; i++)
		s->pk[i].out = i + 1 < s->npk ? i + 1 : NONE;
	for (i = 0; i <= s->wmask; i++)
		s->wheel[i].n = 0;
	for (i = 0; i < s->nca; i++) {
		struct ca *c = &s->ca[i];

		c->qhead = c->qcount = 0;
		c->head = false;
		c->rr = 0;
		c->sent_win = 0;
		c->next_gen = 0;
	}
}

static int setup_traffic(struct ot_sim *s, const struct ot_sim_traffic *t)
{
	uint32_t i, j;

	for (i = 0; i < s->nca; i++) {
		struct ca *c = &s->ca[i];

		c->npairs = 0;
		c->rate = 0;
		switch (t->kind) {
		case OT_SIM_PERMUTATION:
			c->active = t->partner[i] != OT_NO_PARTNER &&
				    t->partner[i] < s->nca;
			break;
		case OT_SIM_PAIRS:
			c->active = false;
			break;
		default:
			c->active = s->nca > 1;
			break;
		}
	}
	if (t->kind != OT_SIM_PAIRS)
		return 0;
	free(s->pair_dst);
	free(s->pair_cum);
	s->pair_dst = calloc(t->npairs ? t->npairs : 1, sizeof(*s->pair_dst));
	s->pair_cum = calloc(t->npairs ? t->npairs : 1, sizeof(*s->pair_cum));
	if (!s->pair_dst || !s->pair_cum)
		return -1;
	/* counting sort of the pairs by source, in their given order */
	for (i = 0; i < t->npairs; i++)
		if (t->pairs[i].src < s->nca && t->pairs[i].dst < s->nca &&
		    t->pairs[i].rate > 0)
			s->ca[t->pairs[i].src].npairs++;
	for (i = 0, j = 0; i < s->nca; i++) {
		s->ca[i].pair0 = j;
		j += s->ca[i].npairs;
		s->ca[i].npairs = 0;
	}
	for (i = 0; i < t->npairs; i++) {
		const struct ot_sim_pair *x = &t->pairs[i];
		struct ca *c;

		if (x->src >= s->nca || x->dst >= s->nca || x->rate <= 0)
			continue;
		c = &s->ca[x->src];
		c->rate += x->rate;
		s->pair_dst[c->pair0 + c->npairs] = x->dst;
		s->pair_cum[c->pair0 + c->npairs] = c->rate;
		c->npairs++;
		c->active = true;
	}
	return 0;
}

/*
 * Each class's figures over its SLs: packets and accepted rate summed,
 * latency from the SLs' samples merged (s->hist, whose total is read
 * already, is the scratch).
 */
static void summarize_classes(struct ot_sim *s, struct ot_sim_result *res)
{
	unsigned int c, sl, b;

	for (c = 0; c < OT_NUM_SLS; c++) {
		struct ot_sim_sl *x = &res->cls[c];
		double lat_sum = 0;
		uint64_t lat_n = 0;

		memset(s->hist, 0, OT_HIST_BINS * sizeof(*s->hist));
		for (sl = 0; sl < OT_NUM_SLS; sl++) {
			if (s->p.sl_class[sl] != (int8_t)c ||
			    !(res->sl_mask & (1u << sl)))
				continue;
			res->class_mask |= (uint16_t)(1u << c);
			x->delivered += res->sl[sl].delivered;
			x->accepted += res->sl[sl].accepted;
			lat_sum += s->sl_lat_sum[sl];
			lat_n += s->sl_lat_n[sl];
			for (b = 0; b < OT_HIST_BINS; b++)
				s->hist[b] +=
					s->sl_hist[(size_t)sl * OT_HIST_BINS + b];
		}
		if (!lat_n)
			continue;
		x->lat_mean_ns = lat_sum / lat_n * s->tick_ns;
		x->lat_p99_ns = ot_hist_quantile(s->hist, lat_n, 0.99) *
				s->tick_ns;
	}
}

static void summarize(struct ot_sim *s)
{
	struct ot_sim_result *res = s->res;
	double pkt_ns = s->P * s->tick_ns, min = -1, sum = 0;
	uint32_t i, sl;

	for (i = 0; i < s->nca; i++) {
		double a;

		if (!s->ca[i].active)
			continue;
		a = (double)s->ca[i].sent_win / s->p.measure;
		res->active++;
		sum += a;
		if (min < 0 || a < min)
			min = a;
	}
	res->accepted = res->active ? sum / res->active : 0;
	res->accepted_min = min < 0 ? 0 : min;
	if (s->lat_n) {
		res->lat_mean_ns = s->lat_sum / s->lat_n * s->tick_ns;
		res->lat_p99_ns = ot_hist_quantile(s->hist, s->lat_n, 0.99) *
				  s->tick_ns;
	}
	res->lat_mean_pkt = res->lat_mean_ns / pkt_ns;
	res->lat_p99_pkt = res->lat_p99_ns / pkt_ns;
	for (sl = 0; sl < OT_NUM_SLS; sl++) {
		struct ot_sim_sl *x = &res->sl[sl];

		if (!res->active)
			break;
		x->accepted = (double)x->delivered / s->p.measure /
			      res->active;
		if (!s->sl_lat_n[sl])
			continue;
		x->lat_mean_ns = s->sl_lat_sum[sl] / s->sl_lat_n[sl] *
				 s->tick_ns;
		x->lat_p99_ns = ot_hist_quantile(
					s->sl_hist + (size_t)sl * OT_HIST_BINS,
					s->sl_lat_n[sl], 0.99) * s->tick_ns;
	}
	if (s->p.sl_class && res->active)
		summarize_classes(s, res);
	res->sim_ns = s->now * s->tick_ns;
}

int ot_sim_run(struct ot_sim *s, const struct ot_sim_traffic *t, double load,
	       struct ot_sim_result *out, struct ot_error *err)
{
	uint32_t i, window, next_check;

	memset(out, 0, sizeof(*out));
	s->res = out;
	s->t = t;
	s->sat = load <= 0;
	s->load = s->sat ? 1 : (load > 1 ? 1 : load);
	out->saturation = s->sat;
	out->offered = s->load;
	s->rng.state = s->p.seed;
	s->oom = false;
	reset(s);
	if (setup_traffic(s, t))
		return ot_error_nomem(err, "simulate");
	s->win_start = s->p.warmup * s->P;
	s->end = s->win_start + s->p.measure * s->P;
	window = (s->p.deadlock_window ? s->p.deadlock_window : 1) * s->P;
	next_check = window;
	s->last_move = 0;
	for (i = 0; i < s->nca; i++) {
		struct ca *c = &s->ca[i];

		if (!c->active)
			continue;
		if (s->sat) {
			mark(s, c->link);
			continue;
		}
		/* a random phase: the first packet within one gap */
		c->next_gen = uniform01(s) * next_gap(s, c);
		schedule(s, (uint32_t)ceil(c->next_gen), EV_GEN, i, 0);
	}
	for (s->now = 0; s->now < s->end && !s->oom; s->now++) {
		struct bucket *k = &s->wheel[s->now & s->wmask];
		uint32_t j, n0 = k->n, kept = 0;

		/*
		 * The events of this tick, in the order they were scheduled;
		 * a far one (an arrival beyond the wheel) stays for its turn.
		 * Those scheduled meanwhile into this bucket are later ones.
		 */
		for (j = 0; j < n0; j++) {
			struct ev ev = k->ev[j];

			if (ev.t != s->now) {
				k->ev[kept++] = ev;
				continue;
			}
			run_event(s, &ev);
		}
		if (kept < n0) {
			memmove(k->ev + kept, k->ev + n0,
				(k->n - n0) * sizeof(*k->ev));
			k->n -= n0 - kept;
		}
		/*
		 * The outputs arbitrate in a random order: an input with heads
		 * for several outputs would otherwise always go to the same one.
		 */
		if (s->ndirty > 1)
			ot_prng_shuffle(&s->rng, s->dstack, s->ndirty);
		while (s->ndirty) {
			uint32_t o = s->dstack[--s->ndirty];

			s->dirty[o] = 0;
			if (s->out_busy[o] > s->now)
				continue;
			if (s->l_from_sw[o])
				arbitrate(s, o);
			else if (s->l_ca[o] != NONE)
				arbitrate_ca(s, o);
		}
		if (s->now >= next_check) {
			next_check += window;
			if (s->in_net && find_deadlock(s))
				break;
		}
	}
	if (s->oom)
		return ot_error_nomem(err, "simulate");
	if (!out->deadlock && s->in_net && s->now - s->last_move >= window)
		out->stalled = s->in_net;
	summarize(s);
	return 0;
}
