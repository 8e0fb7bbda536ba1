// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The checker (see check.h), last step of the flow fabric ->
 * recognizer -> coordinates -> engine -> tables -> checker.  It reads only
 * the fabric model and a routing, wherever they came from (an engine run
 * offline, dump files, a live fabric), and says whether every CA port
 * reaches every CA LID, how long the paths are against the cabling's
 * shortest, and whether the channel dependency graph over (directed link,
 * VL) has a cycle, i.e. whether the fabric can deadlock.  Link balance
 * under traffic patterns is src/check/traffic.c's; it is run from here and
 * printed with the report.
 *
 * It has to cope with 16K CAs (268M pairs), so nothing is done per pair
 * that can be done per switch: for each destination LID the LFTs form one
 * forwarding "tree" (a next hop per switch), reachability, loops and hop
 * counts are resolved once per switch with memoisation, and the channel
 * dependencies are added once per (destination, SL) from the switches the
 * tree's sources use.  Only the optional path callback needs every pair's
 * node list; each source switch's suffix is built once for that too.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "check/fwdtree.h"

#define NUM_VLS 16 /* SL2VL values are 4 bits */
#define DEFAULT_EXAMPLES 5
#define DIST_INF UINT32_MAX

/* A CA port with a LID: a source of traffic and a destination. */
struct endpoint {
	int32_t node;
	uint8_t port;
	uint16_t lid;    /* base LID */
	uint32_t nlids;  /* 2^LMC */
	int32_t sw;      /* switch its cable leads to, or -1 */
	uint8_t sw_port; /* port of sw the cable arrives on */
	uint16_t sl_mask; /* SLs it sends on toward some destination */
};

/* One destination LID, and the switch its port hangs off (-1: none). */
struct dest {
	int32_t attach;
	uint32_t ep;
	uint16_t lid;
};

/* A pair that is unreachable, loops or breaks the engine's promise. */
struct example {
	char *src, *dst;
	unsigned int src_port, dst_port;
	uint16_t slid, dlid;
	char *at;            /* node where the packet is dropped, or NULL */
	unsigned int at_port;
	char *reason;
	char **cycle;        /* forwarding loop: switches, in order */
	unsigned int cycle_len;
};

struct example_list {
	struct example *ex;
	unsigned int n;
};

/* One channel of a printed credit loop. */
struct channel {
	char *from, *to;
	unsigned int from_port, to_port;
	uint8_t vl;
};

struct credit_cycle {
	struct channel *ch;
	unsigned int len;
};

struct ot_check_report {
	struct ot_check_counts c;
	unsigned int max_examples;
	struct example_list unreachable, looping, violations;
	struct credit_cycle *cycles;
	unsigned int ncycles;
	struct ot_balance_report *balance;
	char *promise;       /* the promise's text, NULL when none */
	char *promise_rule;  /* what its rule checks, NULL when none */
};

/*
 * The channel dependency graph.  A channel is (link, VL), a link being a
 * node's output port: id = (link_base[node] + port - 1) * NUM_VLS + vl.
 * A channel's successors all leave the node its link ends at, so they are
 * kept as a bitset over (output port * NUM_VLS + VL) of that node,
 * allocated when the first dependency appears: memory grows with the
 * channels in use, not with the pairs.
 */
struct cdg {
	uint32_t *link_base; /* nnodes + 1 entries */
	int32_t *link_node;  /* node owning each link */
	uint32_t nlinks;
	uint64_t **succ;     /* nlinks * NUM_VLS bitsets, NULL when none */
	uint64_t *used;      /* bitset over channels some path uses */
};

struct checker {
	const struct ot_fabric *f;
	const struct ot_routing *r;
	const struct ot_check_opts *opts;
	struct ot_check_report *rep;
	struct ot_error *err;

	struct endpoint *ep;
	uint32_t nep;
	struct dest *dest;
	uint32_t ndest;
	/* Sources by the switch their cable leads to (CSR over nodes). */
	uint32_t *src_start; /* nnodes + 1 */
	uint32_t *src_list;
	int32_t *src_switches; /* switches with at least one source */
	uint32_t nsrc_switches;
	uint32_t *odd_src; /* sources not cabled to a switch */
	uint32_t nodd;

	/* The forwarding tree toward the current destination LID. */
	struct ot_fwdtree tree;

	/*
	 * Shortest distances (in switch hops) to dist_from, over the
	 * switch-to-switch cables (adj, CSR over nodes); only the switches
	 * the last search queued are not DIST_INF.
	 */
	int32_t dist_from;
	uint32_t *dist;
	int32_t *queue;
	uint32_t nqueued;
	uint32_t *adj_start;
	int32_t *adj;

	/* Per (destination, SL): switches used and the VLs they send on. */
	uint32_t vcur;
	uint32_t *vstamp;
	uint16_t *vlset;
	int32_t *vused;
	uint32_t nvused;
	uint16_t *sw_sl_mask; /* SLs sent by all sources of a switch */
	/* Seeds per SL: a source switch and the VLs its CAs inject. */
	int32_t *seed_sw;   /* NUM_SLS * nnodes */
	uint16_t *seed_vls; /* NUM_SLS * nnodes */
	uint32_t seed_n[OT_NUM_SLS];
	/* VLs a switch puts its CAs' packets on, per output port and SL */
	uint16_t **ca_vls;

	/* The path a promise is checked on (nnodes + 2 entries each) */
	int32_t *path;
	uint8_t *pport, *pvl;
	uint8_t *vl_cache;  /* OT_NUM_SLS rows of nnodes + 2 */
	uint16_t vl_sl_ok;  /* rows of vl_cache valid for this suffix */
	struct cdg cdg;
};

static char *dupstr(const char *s)
{
	return strdup(s ? s : "");
}

static const char *desc(const struct checker *ck, int32_t n)
{
	return ck->f->node[n].desc;
}

/* ot_routing_vl() for ports known to exist, inlined: it runs per pair. */
static uint8_t vl_of(const struct checker *ck, int32_t n, unsigned int in,
		     unsigned int out, unsigned int sl)
{
	const uint8_t *t = ck->r->sl2vl[n];
	uint8_t vl;

	if (!t || sl >= OT_NUM_SLS)
		return 0;
	vl = t[ot_sl2vl_index(ck->f->node[n].nports, in, out, sl)];
	return vl & (NUM_VLS - 1);
}

static uint8_t path_sl(const struct checker *ck, uint16_t slid, uint16_t dlid)
{
	uint8_t sl = ot_routing_path_sl(ck->r, slid, dlid);

	return sl < OT_NUM_SLS ? sl : 0;
}

static int oom(struct checker *ck)
{
	return ot_error_set(ck->err, "check: out of memory");
}

static void example_free(struct example *e)
{
	unsigned int i;

	free(e->src);
	free(e->dst);
	free(e->at);
	free(e->reason);
	for (i = 0; i < e->cycle_len; i++)
		free(e->cycle[i]);
	free(e->cycle);
}

static void channel_free(struct channel *ch)
{
	free(ch->from);
	free(ch->to);
}

void ot_check_report_free(struct ot_check_report *rep)
{
	struct example_list *lists[3];
	unsigned int i, j;

	if (!rep)
		return;
	lists[0] = &rep->unreachable;
	lists[1] = &rep->looping;
	lists[2] = &rep->violations;
	for (i = 0; i < 3; i++) {
		for (j = 0; j < lists[i]->n; j++)
			example_free(&lists[i]->ex[j]);
		free(lists[i]->ex);
	}
	for (i = 0; i < rep->ncycles; i++) {
		for (j = 0; j < rep->cycles[i].len; j++)
			channel_free(&rep->cycles[i].ch[j]);
		free(rep->cycles[i].ch);
	}
	free(rep->cycles);
	free(rep->promise);
	free(rep->promise_rule);
	ot_balance_report_free(rep->balance);
	free(rep);
}

/* Room for one more example in l, or NULL when it is full (or on OOM). */
static struct example *example_add(struct checker *ck, struct example_list *l,
				   const struct endpoint *src,
				   const struct endpoint *dst, uint16_t dlid)
{
	struct example *e;

	if (l->n >= ck->rep->max_examples)
		return NULL;
	if (!l->ex) {
		l->ex = calloc(ck->rep->max_examples, sizeof(*l->ex));
		if (!l->ex)
			return NULL;
	}
	e = &l->ex[l->n];
	memset(e, 0, sizeof(*e));
	e->src = dupstr(desc(ck, src->node));
	e->dst = dupstr(desc(ck, dst->node));
	e->src_port = src->port;
	e->dst_port = dst->port;
	e->slid = src->lid;
	e->dlid = dlid;
	if (!e->src || !e->dst) {
		example_free(e);
		return NULL;
	}
	l->n++;
	return e;
}

/* Why switch sw drops packets for dlid (see resolve()). */
static int explain_drop(struct checker *ck, struct example *e, int32_t sw,
			uint16_t dlid)
{
	const struct ot_node *n = &ck->f->node[sw];
	uint8_t out = ot_fwd_lft(ck->r, sw, dlid);
	char buf[OT_ERROR_LEN];

	e->at = dupstr(n->desc);
	e->at_port = out;
	if (out == OT_NO_PORT)
		snprintf(buf, sizeof(buf), "no LFT entry");
	else if (out == 0)
		snprintf(buf, sizeof(buf), "LFT points at the switch itself");
	else if (out > n->nports)
		snprintf(buf, sizeof(buf), "LFT points at port %u of %u",
			 out, n->nports);
	else if (n->port[out].peer < 0)
		snprintf(buf, sizeof(buf), "port %u is not cabled", out);
	else
		snprintf(buf, sizeof(buf),
			 "port %u leads to %s \"%s\", not the destination", out,
			 ot_node_type_str(ck->f->node[n->port[out].peer].type),
			 desc(ck, n->port[out].peer));
	e->reason = dupstr(buf);
	return e->at && e->reason ? 0 : -1;
}

/* The switches of the forwarding loop through sw, starting at sw. */
static int explain_loop(struct checker *ck, struct example *e, int32_t sw,
			uint16_t dlid)
{
	const struct ot_node *n;
	unsigned int len = 0, i;
	int32_t x = sw;

	do {
		n = &ck->f->node[x];
		x = n->port[ot_fwd_lft(ck->r, x, dlid)].peer;
		len++;
	} while (x != sw);
	e->cycle = calloc(len, sizeof(*e->cycle));
	e->reason = dupstr("forwarding loop");
	if (!e->cycle || !e->reason)
		return -1;
	for (i = 0, x = sw; i < len; i++) {
		e->cycle[i] = dupstr(desc(ck, x));
		if (!e->cycle[i])
			return -1;
		e->cycle_len = i + 1;
		x = ck->f->node[x].port[ot_fwd_lft(ck->r, x, dlid)].peer;
	}
	e->at = dupstr(desc(ck, sw));
	e->at_port = ot_fwd_lft(ck->r, sw, dlid);
	return e->at ? 0 : -1;
}

/* Breadth-first switch distances to switch a over the cabling. */
static void shortest_distances(struct checker *ck, int32_t a)
{
	uint32_t head = 0, tail = 0, i;

	for (i = 0; i < ck->nqueued; i++)
		ck->dist[ck->queue[i]] = DIST_INF;
	ck->nqueued = 0;
	ck->dist_from = a;
	if (a < 0)
		return;
	ck->dist[a] = 0;
	ck->queue[tail++] = a;
	while (head < tail) {
		int32_t x = ck->queue[head++];

		for (i = ck->adj_start[x]; i < ck->adj_start[x + 1]; i++) {
			int32_t y = ck->adj[i];

			if (ck->dist[y] != DIST_INF)
				continue;
			ck->dist[y] = ck->dist[x] + 1;
			ck->queue[tail++] = y;
		}
	}
	ck->nqueued = tail;
}

/* The switch-to-switch cables as adjacency lists, for the searches. */
static int build_adjacency(struct checker *ck)
{
	const struct ot_fabric *f = ck->f;
	uint32_t n, k = 0;
	unsigned int p;

	ck->adj_start = calloc(f->nnodes + 1, sizeof(*ck->adj_start));
	if (!ck->adj_start)
		return -1;
	for (n = 0; n < f->nnodes; n++) {
		const struct ot_node *x = &f->node[n];

		ck->adj_start[n] = k;
		if (x->type != OT_NODE_SWITCH)
			continue;
		for (p = 1; p <= x->nports; p++)
			if (x->port[p].peer >= 0 &&
			    ot_is_switch(f, x->port[p].peer))
				k++;
	}
	ck->adj_start[f->nnodes] = k;
	ck->adj = calloc(k ? k : 1, sizeof(*ck->adj));
	if (!ck->adj)
		return -1;
	for (n = 0, k = 0; n < f->nnodes; n++) {
		const struct ot_node *x = &f->node[n];

		if (x->type != OT_NODE_SWITCH)
			continue;
		for (p = 1; p <= x->nports; p++)
			if (x->port[p].peer >= 0 &&
			    ot_is_switch(f, x->port[p].peer))
				ck->adj[k++] = x->port[p].peer;
	}
	for (n = 0; n < f->nnodes; n++)
		ck->dist[n] = DIST_INF;
	return 0;
}

static void count_reached(struct checker *ck, uint64_t npairs,
			  unsigned int links, unsigned int shortest)
{
	struct ot_check_counts *c = &ck->rep->c;
	unsigned int extra = links > shortest ? links - shortest : 0;

	c->reached += npairs;
	c->total_hops += (uint64_t)links * npairs;
	if (links > c->max_hops)
		c->max_hops = links;
	c->hops[links < OT_CHECK_MAX_HOPS ? links : OT_CHECK_MAX_HOPS] +=
		npairs;
	c->extra_hops[extra < OT_CHECK_MAX_HOPS ? extra : OT_CHECK_MAX_HOPS] +=
		npairs;
	if (!extra)
		c->minimal += npairs;
}

/* Sources of switch s other than the destination's own port. */
static uint32_t sources_at(const struct checker *ck, int32_t s, uint32_t dep)
{
	uint32_t n = ck->src_start[s + 1] - ck->src_start[s];

	if (ck->ep[dep].sw == s)
		n--;
	return n;
}

/* Lists the failing pairs from switch s as examples, as far as room is. */
static int failure_examples(struct checker *ck, int32_t s,
			    const struct dest *dd)
{
	bool loop = ck->tree.state[s] == OT_FWD_LOOP;
	struct example_list *l = loop ? &ck->rep->looping :
					&ck->rep->unreachable;
	uint32_t i;

	for (i = ck->src_start[s]; i < ck->src_start[s + 1]; i++) {
		struct example *e;
		uint32_t src = ck->src_list[i];
		int error;

		if (src == dd->ep)
			continue;
		if (l->n >= ck->rep->max_examples)
			return 0;
		e = example_add(ck, l, &ck->ep[src], &ck->ep[dd->ep], dd->lid);
		if (!e)
			return -1;
		if (loop)
			error = explain_loop(ck, e, ck->tree.info[s], dd->lid);
		else
			error = explain_drop(ck, e, ck->tree.info[s], dd->lid);
		if (error)
			return -1;
	}
	return 0;
}

/* Sources cabled to something other than a switch: checked pair by pair. */
static int check_odd_sources(struct checker *ck, const struct dest *dd)
{
	const struct endpoint *d = &ck->ep[dd->ep];
	uint32_t i;

	for (i = 0; i < ck->nodd; i++) {
		struct endpoint *s = &ck->ep[ck->odd_src[i]];
		const struct ot_port *p = &ck->f->node[s->node].port[s->port];
		struct example *e;
		char buf[OT_ERROR_LEN];

		if (ck->odd_src[i] == dd->ep)
			continue;
		ck->rep->c.pairs++;
		if (p->peer == d->node && p->peer_port == d->port) {
			uint8_t sl = path_sl(ck, s->lid, dd->lid);

			/* back to back: one link, and nothing to depend on */
			s->sl_mask |= 1u << sl;
			count_reached(ck, 1, 1, 1);
			continue;
		}
		ck->rep->c.unreachable++;
		if (ck->rep->unreachable.n >= ck->rep->max_examples)
			continue;
		e = example_add(ck, &ck->rep->unreachable, s, d, dd->lid);
		if (!e)
			return -1;
		if (p->peer < 0)
			snprintf(buf, sizeof(buf), "source port is not cabled");
		else
			snprintf(buf, sizeof(buf),
				 "source port leads to %s \"%s\", not a switch",
				 ot_node_type_str(ck->f->node[p->peer].type),
				 desc(ck, p->peer));
		e->at = dupstr(desc(ck, s->node));
		e->at_port = s->port;
		e->reason = dupstr(buf);
		if (!e->at || !e->reason)
			return -1;
	}
	return 0;
}

static uint32_t link_id(const struct checker *ck, int32_t n, unsigned int port)
{
	return ck->cdg.link_base[n] + port - 1;
}

/* VLs the CAs of switch s inject toward output port out on SL sl. */
static uint16_t ca_vls(struct checker *ck, int32_t s, unsigned int out,
		       unsigned int sl)
{
	unsigned int np = ck->f->node[s].nports;
	uint16_t *cache = ck->ca_vls[s];
	uint16_t mask = 0;
	uint32_t i;

	if (!cache) {
		/* 0 means "not computed": a switch with sources has a VL */
		cache = calloc((size_t)(np + 1) * OT_NUM_SLS, sizeof(*cache));
		if (!cache)
			return 0;
		ck->ca_vls[s] = cache;
	}
	if (cache[out * OT_NUM_SLS + sl])
		return cache[out * OT_NUM_SLS + sl];
	for (i = ck->src_start[s]; i < ck->src_start[s + 1]; i++)
		mask |= 1u << vl_of(ck, s, ck->ep[ck->src_list[i]].sw_port,
				    out, sl);
	cache[out * OT_NUM_SLS + sl] = mask;
	return mask;
}

static void add_seed(struct checker *ck, unsigned int sl, int32_t s,
		     uint16_t vls)
{
	uint32_t k = sl * ck->f->nnodes + ck->seed_n[sl]++;

	ck->seed_sw[k] = s;
	ck->seed_vls[k] = vls;
}

/*
 * Seeds for the channel dependencies toward one destination LID: for each
 * SL, the source switches whose CAs send on it and the VLs those CAs'
 * packets leave the switch on.  When the engine has no path_sl every
 * source uses SL 0 and a switch's VLs come from a cache; otherwise the
 * sources are grouped by the SL each gets.
 */
static int make_seeds(struct checker *ck, const struct dest *dd)
{
	const struct endpoint *d = &ck->ep[dd->ep];
	bool uniform = !ck->r->path_sl;
	uint32_t k, i;

	memset(ck->seed_n, 0, sizeof(ck->seed_n));
	for (k = 0; k < ck->nsrc_switches; k++) {
		int32_t s = ck->src_switches[k];
		uint8_t out = ck->tree.outp[s];
		uint16_t vls[OT_NUM_SLS] = { 0 };
		uint16_t sls = 0;
		unsigned int sl;

		if (ck->tree.state[s] != OT_FWD_REACH || !sources_at(ck, s, dd->ep))
			continue;
		if (uniform && s != d->sw) {
			uint16_t m = ca_vls(ck, s, out, 0);

			if (!m)
				return -1;
			ck->sw_sl_mask[s] |= 1;
			add_seed(ck, 0, s, m);
			continue;
		}
		for (i = ck->src_start[s]; i < ck->src_start[s + 1]; i++) {
			uint32_t src = ck->src_list[i];
			struct endpoint *e = &ck->ep[src];

			if (src == dd->ep)
				continue;
			sl = uniform ? 0 : path_sl(ck, e->lid, dd->lid);
			e->sl_mask |= 1u << sl;
			sls |= 1u << sl;
			vls[sl] |= 1u << vl_of(ck, s, e->sw_port, out, sl);
		}
		for (sl = 0; sl < OT_NUM_SLS; sl++)
			if (sls & (1u << sl))
				add_seed(ck, sl, s, vls[sl]);
	}
	return 0;
}

/* Marks the switches downstream of a seed and the VLs they send on. */
static void mark_downstream(struct checker *ck, int32_t s, uint16_t vls,
			    unsigned int sl)
{
	const struct ot_fabric *f = ck->f;
	int32_t x = s;

	for (;;) {
		bool first = ck->vstamp[x] != ck->vcur;
		const struct ot_port *p;

		if (first) {
			ck->vstamp[x] = ck->vcur;
			ck->vlset[x] = 0;
			ck->vused[ck->nvused++] = x;
		}
		ck->vlset[x] |= vls;
		/* what lies downstream depends on x being used, not on how */
		if (!first || ck->tree.info[x] == 1)
			return;
		p = &f->node[x].port[ck->tree.outp[x]];
		x = p->peer;
		vls = 1u << vl_of(ck, x, p->peer_port, ck->tree.outp[x], sl);
	}
}

static int add_dependency(struct checker *ck, uint32_t from, int32_t to_node,
			  unsigned int to_port, uint8_t to_vl)
{
	struct cdg *g = &ck->cdg;
	unsigned int bit = to_port * NUM_VLS + to_vl;
	uint64_t *b = g->succ[from];

	if (!b) {
		unsigned int bits = (ck->f->node[to_node].nports + 1) * NUM_VLS;

		b = calloc((bits + 63) / 64, sizeof(*b));
		if (!b)
			return -1;
		g->succ[from] = b;
	}
	if (b[bit / 64] & (1ull << (bit % 64)))
		return 0;
	b[bit / 64] |= 1ull << (bit % 64);
	ck->rep->c.dependencies++;
	return 0;
}

/*
 * Adds the dependencies of one (destination LID, SL): a used switch x
 * forwarding to switch t makes each VL x sends on depend on the VL t
 * gives packets arriving from x.  Channels into a CA end every chain and
 * can be in no cycle, so they are left out of the graph.
 */
static int add_dependencies(struct checker *ck, unsigned int sl)
{
	const struct ot_fabric *f = ck->f;
	uint32_t i;
	unsigned int vl;

	for (i = 0; i < ck->nvused; i++) {
		int32_t x = ck->vused[i], t;
		const struct ot_port *p;
		uint8_t out = ck->tree.outp[x], tout, tvl;
		uint32_t from;

		ck->rep->c.vls_used |= ck->vlset[x];
		if (ck->tree.info[x] == 1)
			continue;
		p = &f->node[x].port[out];
		t = p->peer;
		from = link_id(ck, x, out) * NUM_VLS;
		for (vl = 0; vl < NUM_VLS; vl++)
			if (ck->vlset[x] & (1u << vl))
				ck->cdg.used[(from + vl) / 64] |=
					1ull << ((from + vl) % 64);
		if (ck->tree.info[t] == 1)
			continue;
		tout = ck->tree.outp[t];
		tvl = vl_of(ck, t, p->peer_port, tout, sl);
		for (vl = 0; vl < NUM_VLS; vl++) {
			if (!(ck->vlset[x] & (1u << vl)))
				continue;
			if (add_dependency(ck, from + vl, t, tout, tvl))
				return -1;
		}
	}
	return 0;
}

static int dependencies_toward(struct checker *ck, const struct dest *dd)
{
	unsigned int sl;
	uint32_t k;

	if (make_seeds(ck, dd))
		return -1;
	for (sl = 0; sl < OT_NUM_SLS; sl++) {
		if (!ck->seed_n[sl])
			continue;
		ck->vcur++;
		ck->nvused = 0;
		for (k = 0; k < ck->seed_n[sl]; k++) {
			uint32_t j = sl * ck->f->nnodes + k;

			mark_downstream(ck, ck->seed_sw[j], ck->seed_vls[j],
					sl);
		}
		if (add_dependencies(ck, sl))
			return -1;
	}
	return 0;
}

/* What part of a promise a path breaks, first found first. */
enum broken {
	KEPT,
	NOT_MINIMAL,
	TOO_LONG,
	BAD_VL,
	BAD_SL,
	RULE,
};

/*
 * Which part of the promise p a reached path breaks, with why saying
 * how.  shortest: links on a shortest path.
 */
static enum broken judge_path(const struct checker *ck,
			      const struct ot_promise *p,
			      const struct ot_path *path, unsigned int shortest,
			      unsigned int offset, struct ot_error *why)
{
	unsigned int i, links = path->len - 1;

	if ((p->minimal == OT_MINIMAL_ALL ||
	     (p->minimal == OT_MINIMAL_BASE && !offset)) && links > shortest) {
		ot_error_set(why, "not minimal: %u links, the shortest path has %u",
			     links, shortest);
		return NOT_MINIMAL;
	}
	if (p->max_switch_hops && path->len >= 3 &&
	    path->len - 3 > p->max_switch_hops) {
		ot_error_set(why, "%u switch-to-switch hops, at most %u promised",
			     path->len - 3, p->max_switch_hops);
		return TOO_LONG;
	}
	for (i = 0; i < links && p->nvls; i++) {
		if (path->vl[i] < p->nvls)
			continue;
		ot_error_set(why,
			     "hop %u (\"%s\" port %u) on VL %u, only VLs 0-%u promised",
			     i + 1, desc(ck, path->node[i]), path->port[i],
			     path->vl[i], p->nvls - 1);
		return BAD_VL;
	}
	if (p->sls && !(p->sls & (1u << path->sl))) {
		ot_error_set(why,
			     "path SL %u, not one of the promised SLs (mask 0x%x)",
			     path->sl, p->sls);
		return BAD_SL;
	}
	if (p->rule && p->rule(p->ctx, path, why)) {
		if (!why->msg[0])
			ot_error_set(why, "the engine's rule refused it");
		return RULE;
	}
	return KEPT;
}

static void count_broken(struct ot_check_counts *c, enum broken b)
{
	switch (b) {
	case KEPT:
		return;
	case NOT_MINIMAL:
		c->not_minimal++;
		break;
	case TOO_LONG:
		c->too_long++;
		break;
	case BAD_VL:
		c->bad_vl++;
		break;
	case BAD_SL:
		c->bad_sl++;
		break;
	case RULE:
		c->rule_broken++;
		break;
	}
	c->violations++;
}

/*
 * Verdicts of the paths from one source switch, by what can still differ
 * between its CAs: the path SL and the VLs of the first two hops.  A
 * promise whose rule is source_free judges nothing else of the source, so
 * a verdict holds for every CA with the same key.
 */
#define VERDICTS 8

struct verdicts {
	uint16_t key[VERDICTS];
	uint8_t broken[VERDICTS];
	unsigned int n;
};

static bool verdict_find(const struct verdicts *v, uint16_t key,
			 enum broken *b)
{
	unsigned int i;

	for (i = 0; i < v->n; i++)
		if (v->key[i] == key) {
			*b = v->broken[i];
			return true;
		}
	return false;
}

static void verdict_keep(struct verdicts *v, uint16_t key, enum broken b)
{
	if (v->n == VERDICTS)
		return;
	v->key[v->n] = key;
	v->broken[v->n++] = b;
}

/*
 * The VLs of the hops from the second switch on toward the destination,
 * for path SL sl: they depend on nothing else, so they are computed once
 * per SL and source switch (valid where vl_sl_ok has the SL's bit).
 */
static const uint8_t *suffix_vls(struct checker *ck, unsigned int len,
				 unsigned int sl)
{
	uint8_t *v = ck->vl_cache + (size_t)sl * (ck->f->nnodes + 2);
	unsigned int i;

	if (ck->vl_sl_ok & (1u << sl))
		return v;
	for (i = 2; i + 1 < len; i++) {
		const struct ot_port *in =
			&ck->f->node[ck->path[i - 1]].port[ck->pport[i - 1]];

		v[i] = vl_of(ck, ck->path[i], in->peer_port, ck->pport[i], sl);
	}
	ck->vl_sl_ok |= 1u << sl;
	return v;
}

/* The VLs after the first switch into the path, for its SL. */
static void fill_suffix_vls(struct checker *ck, const struct ot_path *path)
{
	const uint8_t *sv = suffix_vls(ck, path->len, path->sl);
	unsigned int h;

	for (h = 2; h + 1 < path->len; h++)
		ck->pvl[h] = sv[h];
}

/*
 * Judges one source's path (its first node, VLs and SL are set) and
 * lists it as an example while there is room.
 */
static int judge_source(struct checker *ck, const struct dest *dd,
			const struct endpoint *e, struct ot_path *path,
			unsigned int shortest, struct verdicts *v)
{
	const struct ot_promise *p = ck->opts->promise;
	const struct endpoint *d = &ck->ep[dd->ep];
	uint16_t key = path->sl | ck->pvl[0] << 4 | ck->pvl[1] << 8;
	struct ot_error why; /* 512 bytes: set only where a verdict is made */
	struct example *ex;
	enum broken b;
	bool known = p->source_free && verdict_find(v, key, &b);

	why.msg[0] = '\0';
	if (!known || ck->rep->violations.n < ck->rep->max_examples)
		fill_suffix_vls(ck, path);
	if (!known) {
		b = judge_path(ck, p, path, shortest, dd->lid - d->lid, &why);
		verdict_keep(v, key, b);
	}
	count_broken(&ck->rep->c, b);
	if (b == KEPT || ck->rep->violations.n >= ck->rep->max_examples)
		return 0;
	if (known)
		judge_path(ck, p, path, shortest, dd->lid - d->lid, &why);
	ex = example_add(ck, &ck->rep->violations, e, d, dd->lid);
	if (!ex)
		return -1;
	ex->reason = dupstr(why.msg);
	return ex->reason ? 0 : -1;
}

/*
 * Holds every reached pair toward dd to the promise.  The switches from
 * a source switch on, and the VLs after its first switch per SL, are the
 * same for all its CAs: they are listed once, and only the first node,
 * the first two VLs and the SL change per source.
 */
static int check_promise(struct checker *ck, const struct dest *dd)
{
	const struct endpoint *d = &ck->ep[dd->ep];
	struct ot_path path = {
		.node = ck->path, .port = ck->pport, .vl = ck->pvl,
		.dlid = dd->lid,
	};
	uint32_t k, i;

	for (k = 0; k < ck->nsrc_switches; k++) {
		int32_t s = ck->src_switches[k], x = s;
		unsigned int len = 1, shortest;
		struct verdicts v = { .n = 0 };

		if (ck->tree.state[s] != OT_FWD_REACH || !sources_at(ck, s, dd->ep))
			continue;
		for (;;) {
			ck->pport[len] = ck->tree.outp[x];
			ck->path[len++] = x;
			if (ck->tree.info[x] == 1)
				break;
			x = ck->f->node[x].port[ck->tree.outp[x]].peer;
		}
		ck->path[len++] = d->node;
		path.len = len;
		ck->vl_sl_ok = 0;
		shortest = ck->dist[s] == DIST_INF ? 0 : 2 + ck->dist[s];
		for (i = ck->src_start[s]; i < ck->src_start[s + 1]; i++) {
			uint32_t src = ck->src_list[i];
			const struct endpoint *e = &ck->ep[src];

			if (src == dd->ep)
				continue;
			path.slid = e->lid;
			path.sl = path_sl(ck, e->lid, dd->lid);
			ck->path[0] = e->node;
			ck->pport[0] = e->port;
			ck->pvl[0] = vl_of(ck, e->node, 0, e->port, path.sl);
			ck->pvl[1] = vl_of(ck, s, e->sw_port, ck->pport[1],
					   path.sl);
			if (judge_source(ck, dd, e, &path, shortest, &v))
				return -1;
		}
	}
	return 0;
}

/* Everything about one destination LID. */
static int check_destination(struct checker *ck, const struct dest *dd)
{
	struct ot_check_counts *c = &ck->rep->c;
	const struct endpoint *d = &ck->ep[dd->ep];
	uint32_t k;

	if (dd->attach != ck->dist_from)
		shortest_distances(ck, dd->attach);
	ot_fwdtree_begin(&ck->tree, d->node, d->port, dd->lid);
	for (k = 0; k < ck->nsrc_switches; k++) {
		int32_t s = ck->src_switches[k];
		uint32_t n = sources_at(ck, s, dd->ep);

		if (!n)
			continue;
		c->pairs += n;
		switch (ot_fwdtree_resolve(&ck->tree, s)) {
		case OT_FWD_REACH:
			/* the CA's cable, the switches, the last cable */
			count_reached(ck, n, 1 + ck->tree.info[s],
				      ck->dist[s] == DIST_INF ?
					      0 : 2 + ck->dist[s]);
			break;
		case OT_FWD_LOOP:
			c->looping += n;
			if (failure_examples(ck, s, dd))
				return -1;
			break;
		default:
			c->unreachable += n;
			if (failure_examples(ck, s, dd))
				return -1;
			break;
		}
	}
	if (check_odd_sources(ck, dd) || dependencies_toward(ck, dd))
		return -1;
	if (ck->opts->promise && check_promise(ck, dd))
		return -1;
	return 0;
}

/* VLs of the first hop, from the SLs each source was seen sending on. */
static void injection_vls(struct checker *ck)
{
	uint32_t i;
	unsigned int sl;

	for (i = 0; i < ck->nep; i++) {
		const struct endpoint *e = &ck->ep[i];
		uint16_t sls = e->sl_mask;

		if (e->sw >= 0)
			sls |= ck->sw_sl_mask[e->sw];
		for (sl = 0; sl < OT_NUM_SLS; sl++)
			if (sls & (1u << sl))
				ck->rep->c.vls_used |=
					1u << vl_of(ck, e->node, 0, e->port, sl);
	}
}

static int dest_cmp(const void *a, const void *b)
{
	const struct dest *x = a, *y = b;

	if (x->attach != y->attach)
		return x->attach < y->attach ? -1 : 1;
	return (int)x->lid - (int)y->lid;
}

/*
 * Lists the endpoints, the destination LIDs (grouped by the switch their
 * port hangs off, so the shortest distances are computed once a switch)
 * and the sources by switch.
 */
static int collect_endpoints(struct checker *ck)
{
	const struct ot_fabric *f = ck->f;
	uint32_t n, i, ndest = 0;
	unsigned int p;

	for (n = 0; n < f->nnodes; n++) {
		if (f->node[n].type != OT_NODE_CA)
			continue;
		for (p = 1; p <= f->node[n].nports; p++)
			if (f->node[n].port[p].lid)
				ck->nep++;
	}
	ck->ep = calloc(ck->nep ? ck->nep : 1, sizeof(*ck->ep));
	ck->src_start = calloc(f->nnodes + 1, sizeof(*ck->src_start));
	ck->src_list = calloc(ck->nep ? ck->nep : 1, sizeof(*ck->src_list));
	ck->src_switches = calloc(f->nnodes ? f->nnodes : 1,
				  sizeof(*ck->src_switches));
	ck->odd_src = calloc(ck->nep ? ck->nep : 1, sizeof(*ck->odd_src));
	if (!ck->ep || !ck->src_start || !ck->src_list || !ck->src_switches ||
	    !ck->odd_src)
		return -1;
	i = 0;
	for (n = 0; n < f->nnodes; n++) {
		if (f->node[n].type != OT_NODE_CA)
			continue;
		for (p = 1; p <= f->node[n].nports; p++) {
			const struct ot_port *pt = &f->node[n].port[p];
			struct endpoint *e;

			if (!pt->lid)
				continue;
			e = &ck->ep[i++];
			e->node = n;
			e->port = p;
			e->lid = pt->lid;
			e->nlids = ot_port_nlids(pt);
			e->sw = -1;
			ndest += e->nlids;
			if (pt->peer >= 0 && ot_is_switch(f, pt->peer)) {
				e->sw = pt->peer;
				e->sw_port = pt->peer_port;
				ck->src_start[e->sw + 1]++;
			}
		}
	}
	for (n = 0; n < f->nnodes; n++) {
		if (ck->src_start[n + 1])
			ck->src_switches[ck->nsrc_switches++] = n;
		ck->src_start[n + 1] += ck->src_start[n];
	}
	/* fill the CSR; src_start[sw] is restored by the final shift */
	for (i = 0; i < ck->nep; i++) {
		if (ck->ep[i].sw < 0)
			ck->odd_src[ck->nodd++] = i;
		else
			ck->src_list[ck->src_start[ck->ep[i].sw]++] = i;
	}
	for (n = f->nnodes; n > 0; n--)
		ck->src_start[n] = ck->src_start[n - 1];
	ck->src_start[0] = 0;

	ck->dest = calloc(ndest ? ndest : 1, sizeof(*ck->dest));
	if (!ck->dest)
		return -1;
	for (i = 0; i < ck->nep; i++) {
		uint32_t l;

		for (l = 0; l < ck->ep[i].nlids; l++) {
			struct dest *dd = &ck->dest[ck->ndest++];

			dd->attach = ck->ep[i].sw;
			dd->ep = i;
			dd->lid = ck->ep[i].lid + l;
		}
	}
	qsort(ck->dest, ck->ndest, sizeof(*ck->dest), dest_cmp);
	return 0;
}

static int alloc_work(struct checker *ck)
{
	const struct ot_fabric *f = ck->f;
	size_t nn = f->nnodes ? f->nnodes : 1;
	uint64_t nchan;
	uint32_t n;

	if (ot_fwdtree_init(&ck->tree, f, ck->r))
		return -1;
	ck->dist = calloc(nn, sizeof(*ck->dist));
	ck->queue = calloc(nn, sizeof(*ck->queue));
	ck->vstamp = calloc(nn, sizeof(*ck->vstamp));
	ck->vlset = calloc(nn, sizeof(*ck->vlset));
	ck->vused = calloc(nn, sizeof(*ck->vused));
	ck->sw_sl_mask = calloc(nn, sizeof(*ck->sw_sl_mask));
	ck->seed_sw = calloc(nn * OT_NUM_SLS, sizeof(*ck->seed_sw));
	ck->seed_vls = calloc(nn * OT_NUM_SLS, sizeof(*ck->seed_vls));
	ck->ca_vls = calloc(nn, sizeof(*ck->ca_vls));
	ck->path = calloc(nn + 2, sizeof(*ck->path));
	ck->pport = calloc(nn + 2, 1);
	ck->pvl = calloc(nn + 2, 1);
	ck->vl_cache = calloc((nn + 2) * OT_NUM_SLS, 1);
	ck->cdg.link_base = calloc(nn + 1, sizeof(*ck->cdg.link_base));
	if (!ck->dist || !ck->queue || !ck->vstamp ||
	    !ck->vlset || !ck->vused || !ck->sw_sl_mask || !ck->seed_sw ||
	    !ck->seed_vls || !ck->ca_vls || !ck->path || !ck->pport ||
	    !ck->pvl || !ck->vl_cache || !ck->cdg.link_base)
		return -1;
	ck->dist_from = -2; /* no distances yet; -1 is "not cabled" */
	if (build_adjacency(ck))
		return -1;
	for (n = 0; n < f->nnodes; n++)
		ck->cdg.link_base[n + 1] = ck->cdg.link_base[n] +
					   f->node[n].nports;
	ck->cdg.nlinks = ck->cdg.link_base[f->nnodes];
	nchan = (uint64_t)ck->cdg.nlinks * NUM_VLS;
	ck->cdg.link_node = calloc(ck->cdg.nlinks ? ck->cdg.nlinks : 1,
				   sizeof(*ck->cdg.link_node));
	ck->cdg.succ = calloc(nchan ? nchan : 1, sizeof(*ck->cdg.succ));
	ck->cdg.used = calloc(nchan / 64 + 1, sizeof(*ck->cdg.used));
	if (!ck->cdg.link_node || !ck->cdg.succ || !ck->cdg.used)
		return -1;
	for (n = 0; n < f->nnodes; n++) {
		uint32_t l;

		for (l = ck->cdg.link_base[n]; l < ck->cdg.link_base[n + 1];
		     l++)
			ck->cdg.link_node[l] = n;
	}
	return 0;
}

static void checker_free(struct checker *ck)
{
	uint64_t i, nchan = (uint64_t)ck->cdg.nlinks * NUM_VLS;

	free(ck->ep);
	free(ck->dest);
	free(ck->src_start);
	free(ck->src_list);
	free(ck->src_switches);
	free(ck->odd_src);
	ot_fwdtree_free(&ck->tree);
	free(ck->dist);
	free(ck->queue);
	free(ck->adj_start);
	free(ck->adj);
	free(ck->vstamp);
	free(ck->vlset);
	free(ck->vused);
	free(ck->sw_sl_mask);
	free(ck->seed_sw);
	free(ck->seed_vls);
	if (ck->ca_vls)
		for (i = 0; i < ck->f->nnodes; i++)
			free(ck->ca_vls[i]);
	free(ck->ca_vls);
	free(ck->path);
	free(ck->pport);
	free(ck->pvl);
	free(ck->vl_cache);
	if (ck->cdg.succ)
		for (i = 0; i < nchan; i++)
			free(ck->cdg.succ[i]);
	free(ck->cdg.succ);
	free(ck->cdg.used);
	free(ck->cdg.link_base);
	free(ck->cdg.link_node);
}

/* ------------------------------------------------------------------ */
/* Credit loops: strongly connected parts of the dependency graph.     */

/* Where a channel's link ends: (node, the channel id base of its ports). */
static int32_t channel_head(const struct checker *ck, uint32_t c)
{
	uint32_t link = c / NUM_VLS;
	int32_t n = ck->cdg.link_node[link];
	unsigned int port = link - ck->cdg.link_base[n] + 1;

	return ck->f->node[n].port[port].peer;
}

/*
 * The next successor of channel c at or after bit *pos of its bitset, as
 * a channel id, or UINT32_MAX when there is none.
 */
static uint32_t next_successor(const struct checker *ck, uint32_t c,
			       unsigned int *pos)
{
	const uint64_t *b = ck->cdg.succ[c];
	int32_t t;
	unsigned int bits;

	if (!b)
		return UINT32_MAX;
	t = channel_head(ck, c);
	bits = (ck->f->node[t].nports + 1) * NUM_VLS;
	while (*pos < bits) {
		unsigned int i = *pos, word = i / 64;
		uint64_t rest = b[word] >> (i % 64);

		if (!rest) {
			*pos = (word + 1) * 64;
			continue;
		}
		i += __builtin_ctzll(rest);
		*pos = i + 1;
		if (i >= bits)
			break;
		return link_id(ck, t, i / NUM_VLS) * NUM_VLS + i % NUM_VLS;
	}
	return UINT32_MAX;
}

static int describe_channel(const struct checker *ck, uint32_t c,
			    struct channel *ch)
{
	uint32_t link = c / NUM_VLS;
	int32_t n = ck->cdg.link_node[link];
	unsigned int port = link - ck->cdg.link_base[n] + 1;
	const struct ot_port *p = &ck->f->node[n].port[port];

	ch->from = dupstr(desc(ck, n));
	ch->from_port = port;
	ch->to = dupstr(desc(ck, p->peer));
	ch->to_port = p->peer_port;
	ch->vl = c % NUM_VLS;
	return ch->from && ch->to ? 0 : -1;
}

/*
 * A shortest cycle through channel root inside its strongly connected
 * part (comp), found breadth first, recorded as an example.  parent must
 * be all -1 and is left so; queue has room for every channel.
 */
static int record_cycle(struct checker *ck, uint32_t root, const int32_t *comp,
			int32_t *parent, uint32_t *queue)
{
	struct ot_check_report *rep = ck->rep;
	struct credit_cycle *cyc = &rep->cycles[rep->ncycles];
	uint32_t head = 0, tail = 0, last = UINT32_MAX, x, i;
	unsigned int len = 1;
	int error = -1;

	parent[root] = (int32_t)root;
	queue[tail++] = root;
	while (head < tail && last == UINT32_MAX) {
		unsigned int pos = 0;
		uint32_t y;

		x = queue[head++];
		for (y = next_successor(ck, x, &pos); y != UINT32_MAX;
		     y = next_successor(ck, x, &pos)) {
			if (comp[y] != comp[root])
				continue;
			if (y == root) {
				last = x;
				break;
			}
			if (parent[y] >= 0)
				continue;
			parent[y] = (int32_t)x;
			queue[tail++] = y;
		}
	}
	if (last == UINT32_MAX) /* not a cyclic part after all */
		goto out;
	for (x = last; x != root; x = (uint32_t)parent[x])
		len++;
	cyc->ch = calloc(len, sizeof(*cyc->ch));
	if (!cyc->ch)
		goto out;
	rep->ncycles++;
	/* the parents lead from last back to root: fill from the end */
	for (i = len, x = last; i > 0; x = (uint32_t)parent[x]) {
		if (describe_channel(ck, x, &cyc->ch[--i]))
			goto out;
		cyc->len++;
	}
	error = 0;
out:
	for (i = 0; i < tail; i++)
		parent[queue[i]] = -1;
	return error;
}

static bool depends_on_itself(const struct checker *ck, uint32_t c)
{
	unsigned int pos = 0;
	uint32_t y;

	for (y = next_successor(ck, c, &pos); y != UINT32_MAX;
	     y = next_successor(ck, c, &pos))
		if (y == c)
			return true;
	return false;
}

/*
 * Tarjan's algorithm without recursion (a fabric has 100k channels, too
 * many frames for the C stack): frames hold the channel and where its
 * successor scan stands.  Each cyclic part (more than one channel, or a
 * channel depending on itself) counts as a credit loop; the first
 * max_examples get a cycle printed.
 */
static int find_credit_loops(struct checker *ck)
{
	struct ot_check_report *rep = ck->rep;
	uint64_t nchan = (uint64_t)ck->cdg.nlinks * NUM_VLS;
	int32_t *index = NULL, *low = NULL, *comp = NULL, *tstack = NULL;
	uint32_t *fstack = NULL, *roots = NULL;
	unsigned int *fpos = NULL;
	uint32_t c, next_index = 0, ncomp = 0, tsp = 0, nroots = 0;
	int error = -1;

	index = malloc(nchan * sizeof(*index) + 1);
	low = malloc(nchan * sizeof(*low) + 1);
	comp = malloc(nchan * sizeof(*comp) + 1);
	tstack = malloc(nchan * sizeof(*tstack) + 1);
	fstack = malloc(nchan * sizeof(*fstack) + 1);
	fpos = malloc(nchan * sizeof(*fpos) + 1);
	roots = calloc(rep->max_examples, sizeof(*roots));
	if (!index || !low || !comp || !tstack || !fstack || !fpos || !roots)
		goto out;
	for (c = 0; c < nchan; c++) {
		index[c] = -1;
		comp[c] = -1;
	}
	for (c = 0; c < nchan; c++) {
		uint32_t fsp = 0;

		if (!ck->cdg.succ[c] || index[c] >= 0)
			continue;
		fstack[fsp] = c;
		fpos[fsp++] = 0;
		index[c] = low[c] = (int32_t)next_index++;
		tstack[tsp++] = (int32_t)c;
		while (fsp) {
			uint32_t v = fstack[fsp - 1];
			uint32_t w = next_successor(ck, v, &fpos[fsp - 1]);

			if (w != UINT32_MAX) {
				if (index[w] < 0) {
					index[w] = low[w] = (int32_t)next_index++;
					tstack[tsp++] = (int32_t)w;
					fstack[fsp] = w;
					fpos[fsp++] = 0;
				} else if (comp[w] < 0 && index[w] < low[v]) {
					/* w is still on the Tarjan stack */
					low[v] = index[w];
				}
				continue;
			}
			fsp--;
			if (fsp) {
				uint32_t u = fstack[fsp - 1];

				if (low[v] < low[u])
					low[u] = low[v];
			}
			if (low[v] == index[v]) {
				uint32_t size = 0, x;
				bool self = false;

				do {
					x = (uint32_t)tstack[--tsp];
					comp[x] = (int32_t)ncomp;
					size++;
				} while (x != v);
				ncomp++;
				if (size == 1)
					self = depends_on_itself(ck, v);
				if (size > 1 || self) {
					if (rep->c.credit_loops <
					    rep->max_examples)
						roots[nroots++] = v;
					rep->c.credit_loops++;
					rep->c.credit_loop_channels += size;
				}
			}
		}
	}
	/* index is no longer needed: it becomes the BFS parent array */
	for (c = 0; c < nchan; c++)
		index[c] = -1;
	if (nroots) {
		rep->cycles = calloc(nroots, sizeof(*rep->cycles));
		if (!rep->cycles)
			goto out;
	}
	for (c = 0; c < nroots; c++)
		if (record_cycle(ck, roots[c], comp, index, fstack))
			goto out;
	error = 0;
out:
	free(index);
	free(low);
	free(comp);
	free(tstack);
	free(fstack);
	free(fpos);
	free(roots);
	return error;
}

static void count_channels(struct checker *ck)
{
	uint64_t nchan = (uint64_t)ck->cdg.nlinks * NUM_VLS, i;

	for (i = 0; i < nchan / 64 + 1; i++)
		ck->rep->c.channels += __builtin_popcountll(ck->cdg.used[i]);
}

int ot_check_run(const struct ot_fabric *f, const struct ot_routing *r,
		 const struct ot_check_opts *opts,
		 struct ot_check_report **out, struct ot_error *err)
{
	static const struct ot_check_opts no_opts;
	struct checker ck = { 0 };
	int error = -1;
	uint32_t i;

	*out = NULL;
	if (r->fabric != f || r->max_lid != f->max_lid)
		return ot_error_set(err,
				    "check: the routing is not for this fabric");
	ck.f = f;
	ck.r = r;
	ck.opts = opts ? opts : &no_opts;
	ck.err = err;
	ck.rep = calloc(1, sizeof(*ck.rep));
	if (!ck.rep)
		goto out;
	ck.rep->max_examples = ck.opts->max_examples ? ck.opts->max_examples :
						      DEFAULT_EXAMPLES;
	if (ck.opts->promise && ck.opts->promise->text) {
		ck.rep->promise = dupstr(ck.opts->promise->text);
		if (!ck.rep->promise)
			goto out;
	}
	if (ck.opts->promise && ck.opts->promise->rule_text) {
		ck.rep->promise_rule = dupstr(ck.opts->promise->rule_text);
		if (!ck.rep->promise_rule)
			goto out;
	}
	if (collect_endpoints(&ck) || alloc_work(&ck))
		goto out;
	for (i = 0; i < ck.ndest; i++)
		if (check_destination(&ck, &ck.dest[i]))
			goto out;
	injection_vls(&ck);
	count_channels(&ck);
	if (find_credit_loops(&ck))
		goto out;
	if (ck.opts->balance &&
	    ot_balance_run(f, r, ck.opts->balance, &ck.rep->balance, err))
		goto out;
	error = 0;
out:
	if (error) {
		oom(&ck);
		ot_check_report_free(ck.rep);
	} else {
		*out = ck.rep;
	}
	checker_free(&ck);
	return error;
}

bool ot_check_ok(const struct ot_check_report *rep)
{
	const struct ot_check_counts *c = &rep->c;

	return !c->unreachable && !c->looping && !c->credit_loops &&
	       !c->violations;
}

const struct ot_check_counts *ot_check_counts(const struct ot_check_report *rep)
{
	return &rep->c;
}

const struct ot_balance_report *
ot_check_balance(const struct ot_check_report *rep)
{
	return rep->balance;
}

/* ------------------------------------------------------------------ */
/* Output.                                                             */

static double percent(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 100.0;
}

static double average_hops(const struct ot_check_counts *c)
{
	return c->reached ? (double)c->total_hops / (double)c->reached : 0.0;
}

static void print_pair(FILE *out, const struct example *e)
{
	fprintf(out, "    \"%s\" port %u (LID %u) -> \"%s\" port %u (LID %u): ",
		e->src, e->src_port, e->slid, e->dst, e->dst_port, e->dlid);
}

static void print_examples(FILE *out, const char *title, uint64_t count,
			   const struct example_list *l)
{
	unsigned int i, j;

	if (!count)
		return;
	fprintf(out, "%s (%" PRIu64 " pairs%s):\n", title, count,
		count > l->n ? ", the first listed" : "");
	for (i = 0; i < l->n; i++) {
		const struct example *e = &l->ex[i];

		print_pair(out, e);
		if (e->cycle_len) {
			fprintf(out, "%s", e->reason);
			for (j = 0; j < e->cycle_len; j++)
				fprintf(out, "%s\"%s\"", j ? " -> " : " ",
					e->cycle[j]);
			fprintf(out, " -> \"%s\"\n", e->cycle[0]);
		} else if (e->at) {
			fprintf(out, "%s at \"%s\" port %u\n", e->reason, e->at,
				e->at_port);
		} else {
			fprintf(out, "%s\n", e->reason);
		}
	}
}

static void print_vls(FILE *out, uint16_t vls, const char *sep)
{
	unsigned int vl;
	bool first = true;

	for (vl = 0; vl < NUM_VLS; vl++) {
		if (!(vls & (1u << vl)))
			continue;
		fprintf(out, "%s%u", first ? "" : sep, vl);
		first = false;
	}
}

static void print_text(FILE *out, const struct ot_check_report *rep)
{
	const struct ot_check_counts *c = &rep->c;
	unsigned int i, j;

	fprintf(out, "pairs checked:    %" PRIu64 "\n", c->pairs);
	fprintf(out, "reached:          %" PRIu64 "\n", c->reached);
	fprintf(out, "unreachable:      %" PRIu64 "\n", c->unreachable);
	fprintf(out, "forwarding loops: %" PRIu64 "\n", c->looping);
	fprintf(out, "minimal paths:    %" PRIu64 " (%.1f%% of reached)\n",
		c->minimal, percent(c->minimal, c->reached));
	fprintf(out, "extra hops:      ");
	for (i = 0; i <= OT_CHECK_MAX_HOPS; i++)
		if (c->extra_hops[i])
			fprintf(out, " +%u%s: %" PRIu64, i,
				i == OT_CHECK_MAX_HOPS ? " or more" : "",
				c->extra_hops[i]);
	fprintf(out, "%s\n", c->reached ? "" : " -");
	fprintf(out, "hops:             average %.2f, max %u\n",
		average_hops(c), c->max_hops);
	fprintf(out, "VLs used:         ");
	print_vls(out, c->vls_used, ", ");
	fprintf(out, "%s\n", c->vls_used ? "" : "-");
	fprintf(out, "credit loops:     %u", c->credit_loops);
	if (c->credit_loops)
		fprintf(out, " over %" PRIu64 " channels",
			c->credit_loop_channels);
	fprintf(out, " (%" PRIu64 " channels, %" PRIu64 " dependencies)\n",
		c->channels, c->dependencies);
	fprintf(out, "promise:          %s\n",
		rep->promise ? rep->promise : "none checked");
	if (rep->promise_rule)
		fprintf(out, "  and its rule:   %s\n", rep->promise_rule);
	fprintf(out, "path violations:  %" PRIu64, c->violations);
	if (c->violations)
		fprintf(out, " (not minimal %" PRIu64 ", too long %" PRIu64
			", VL %" PRIu64 ", SL %" PRIu64 ", rule %" PRIu64 ")",
			c->not_minimal, c->too_long, c->bad_vl, c->bad_sl,
			c->rule_broken);
	fputc('\n', out);

	print_examples(out, "unreachable", c->unreachable, &rep->unreachable);
	print_examples(out, "forwarding loops", c->looping, &rep->looping);
	for (i = 0; i < rep->ncycles; i++) {
		const struct credit_cycle *cyc = &rep->cycles[i];

		fprintf(out, "credit loop %u of %u (%u channels):\n", i + 1,
			c->credit_loops, cyc->len);
		for (j = 0; j < cyc->len; j++)
			fprintf(out, "    \"%s\" port %u -> \"%s\" port %u, VL %u\n",
				cyc->ch[j].from, cyc->ch[j].from_port,
				cyc->ch[j].to, cyc->ch[j].to_port,
				cyc->ch[j].vl);
	}
	print_examples(out, "path violations", c->violations,
		       &rep->violations);
	if (rep->balance)
		ot_balance_print_text(out, rep->balance);
	fprintf(out, "%s\n", ot_check_ok(rep) ? "OK" : "FAILED");
}

static void json_key_str(FILE *out, const char *key, const char *val)
{
	fprintf(out, "\"%s\":", key);
	ot_json_string(out, val);
}

static void json_examples(FILE *out, const char *key,
			  const struct example_list *l)
{
	unsigned int i, j;

	fprintf(out, ",\"%s\":[", key);
	for (i = 0; i < l->n; i++) {
		const struct example *e = &l->ex[i];

		fprintf(out, "%s{", i ? "," : "");
		json_key_str(out, "src", e->src);
		fprintf(out, ",\"src_port\":%u,\"slid\":%u,", e->src_port,
			e->slid);
		json_key_str(out, "dst", e->dst);
		fprintf(out, ",\"dst_port\":%u,\"dlid\":%u,", e->dst_port,
			e->dlid);
		json_key_str(out, "reason", e->reason);
		if (e->at) {
			fputc(',', out);
			json_key_str(out, "at", e->at);
			fprintf(out, ",\"at_port\":%u", e->at_port);
		}
		if (e->cycle_len) {
			fprintf(out, ",\"cycle\":[");
			for (j = 0; j < e->cycle_len; j++) {
				if (j)
					fputc(',', out);
				ot_json_string(out, e->cycle[j]);
			}
			fputc(']', out);
		}
		fputc('}', out);
	}
	fputc(']', out);
}

static void print_json(FILE *out, const struct ot_check_report *rep)
{
	const struct ot_check_counts *c = &rep->c;
	unsigned int i, j, last = 0;

	fprintf(out, "{\"ok\":%s", ot_check_ok(rep) ? "true" : "false");
	fprintf(out, ",\"pairs\":%" PRIu64 ",\"reached\":%" PRIu64
		",\"unreachable\":%" PRIu64 ",\"forwarding_loops\":%" PRIu64,
		c->pairs, c->reached, c->unreachable, c->looping);
	fprintf(out, ",\"minimal\":%" PRIu64 ",\"minimal_percent\":%.2f",
		c->minimal, percent(c->minimal, c->reached));
	/* histograms end at their last non-zero bucket */
	for (i = 0; i <= OT_CHECK_MAX_HOPS; i++)
		if (c->extra_hops[i])
			last = i + 1;
	fprintf(out, ",\"extra_hops\":[");
	for (i = 0; i < last; i++)
		fprintf(out, "%s%" PRIu64, i ? "," : "", c->extra_hops[i]);
	for (i = 0, last = 0; i <= OT_CHECK_MAX_HOPS; i++)
		if (c->hops[i])
			last = i + 1;
	fprintf(out, "],\"hops\":[");
	for (i = 0; i < last; i++)
		fprintf(out, "%s%" PRIu64, i ? "," : "", c->hops[i]);
	fprintf(out, "],\"avg_hops\":%.3f,\"max_hops\":%u", average_hops(c),
		c->max_hops);
	fprintf(out, ",\"vls_used\":[");
	print_vls(out, c->vls_used, ",");
	fprintf(out, "],\"channels\":%" PRIu64 ",\"dependencies\":%" PRIu64,
		c->channels, c->dependencies);
	fprintf(out, ",\"credit_loops\":%u,\"credit_loop_channels\":%" PRIu64,
		c->credit_loops, c->credit_loop_channels);
	fprintf(out, ",\"credit_loop_examples\":[");
	for (i = 0; i < rep->ncycles; i++) {
		fprintf(out, "%s[", i ? "," : "");
		for (j = 0; j < rep->cycles[i].len; j++) {
			const struct channel *ch = &rep->cycles[i].ch[j];

			fprintf(out, "%s{", j ? "," : "");
			json_key_str(out, "from", ch->from);
			fprintf(out, ",\"from_port\":%u,", ch->from_port);
			json_key_str(out, "to", ch->to);
			fprintf(out, ",\"to_port\":%u,\"vl\":%u}", ch->to_port,
				ch->vl);
		}
		fputc(']', out);
	}
	fprintf(out, "],\"promise\":");
	if (rep->promise)
		ot_json_string(out, rep->promise);
	else
		fputs("null", out);
	fprintf(out, ",\"violations\":%" PRIu64, c->violations);
	fprintf(out, ",\"violation_kinds\":{\"not_minimal\":%" PRIu64
		",\"too_long\":%" PRIu64 ",\"vl\":%" PRIu64 ",\"sl\":%" PRIu64
		",\"rule\":%" PRIu64 "}", c->not_minimal, c->too_long,
		c->bad_vl, c->bad_sl, c->rule_broken);
	json_examples(out, "unreachable_examples", &rep->unreachable);
	json_examples(out, "loop_examples", &rep->looping);
	json_examples(out, "violation_examples", &rep->violations);
	if (rep->balance) {
		fputc(',', out);
		ot_balance_print_json(out, rep->balance);
	}
	fprintf(out, "}\n");
}

int ot_check_print(FILE *out, const struct ot_check_report *rep, bool json)
{
	if (json)
		print_json(out, rep);
	else
		print_text(out, rep);
	return ferror(out) ? -1 : 0;
}
