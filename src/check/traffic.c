// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Link balance (see src/check/traffic.h), part of the checker, the last step
 * of the flow fabric -> recognizer -> engine -> tables -> checker.  It
 * routes traffic patterns through the tables and adds up what every
 * directed link carries, so that an engine's tables can be judged by the
 * throughput they leave, not only by whether they deliver.
 *
 * Uniform traffic on 16K CAs is 268M flows, so it is never routed flow by
 * flow: for each destination LID the tables form one forwarding tree, the
 * switches' next hops are resolved once with memoisation, each switch gets
 * the traffic its own CAs send, and the sums are pushed down the tree,
 * upstream first.  That is O(switches) per destination.  Permutations have
 * one flow per CA and are simply walked.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model/fwdtree.h"
#include "check/traffic.h"
#include "model/endpoints.h"

#define NO_PARTNER OT_NO_PARTNER
#define TIE 1e-9 /* loads closer than this are the same load */

/* How a flow picks among its destination's LIDs (LMC > 0). */
enum lid_choice {
	CHOICE_BASE,
	CHOICE_SPREAD,
	CHOICE_BEST,
};

/* A CA port with a LID: number i of the patterns is ep[i]. */
struct endpoint {
	int32_t node;
	uint8_t port;
	uint16_t lid;   /* base LID */
	uint32_t nlids; /* 2^LMC */
	int32_t sw;     /* switch its cable leads to, or -1 */
	uint32_t inj;   /* its cable, as a link from the CA */
	uint32_t eidx;  /* its index in the model's endpoints */
};

/* Owned storage behind one struct ot_pattern_load. */
struct pattern_store {
	double *load;
	char *from, *to;
};

struct ot_balance_report {
	uint32_t ncas;
	unsigned int lmc;
	enum ot_ca_order order;
	uint32_t nlinks;
	uint8_t *kind; /* enum ot_link_kind per link */
	struct ot_pattern_load *pat;
	struct pattern_store *store;
	unsigned int npat;
};

struct balancer {
	const struct ot_fabric *f;
	const struct ot_routing *r;
	struct ot_balance_report *rep;

	struct endpoint *ep;
	uint32_t nep;
	bool multipath;
	uint32_t *link_base; /* nnodes + 1 */
	int32_t *link_node;  /* node owning each link */
	uint32_t nlinks;

	/* Sources by switch (model/endpoints.h); the rest walked one by one. */
	struct ot_endpoints eps;
	const int32_t *src_switches;
	uint32_t nsrc_switches;
	uint32_t *odd;
	uint32_t nodd;

	/* The forwarding tree toward the current LID, and its loads */
	struct ot_fwdtree tree;
	double *acc;       /* traffic through the switch toward the LID */
	uint32_t *walk; /* where each resolution walk starts in order */
	uint32_t nwalk;

	/* Injected traffic: per switch for all its CAs, corrections per CA. */
	double *sw_inj;
	double *ep_inj;

	uint32_t *path, *trial; /* a path's links (nnodes + 3 each) */
	uint32_t *partner;
	uint32_t *perm;
};

/* ------------------------------------------------------------------ */
/* Report.                                                             */

void ot_balance_report_free(struct ot_balance_report *rep)
{
	unsigned int i;

	if (!rep)
		return;
	for (i = 0; i < rep->npat && rep->store; i++) {
		free(rep->store[i].load);
		free(rep->store[i].from);
		free(rep->store[i].to);
	}
	free(rep->store);
	free(rep->pat);
	free(rep->kind);
	free(rep);
}

unsigned int ot_balance_npatterns(const struct ot_balance_report *rep)
{
	return rep->npat;
}

const struct ot_pattern_load *
ot_balance_pattern(const struct ot_balance_report *rep, unsigned int i)
{
	return i < rep->npat ? &rep->pat[i] : NULL;
}

uint32_t ot_balance_ncas(const struct ot_balance_report *rep)
{
	return rep->ncas;
}

unsigned int ot_balance_lmc(const struct ot_balance_report *rep)
{
	return rep->lmc;
}

enum ot_ca_order ot_balance_ca_order(const struct ot_balance_report *rep)
{
	return rep->order;
}

uint32_t ot_balance_nlinks(const struct ot_balance_report *rep)
{
	return rep->nlinks;
}

enum ot_link_kind ot_balance_link_kind(const struct ot_balance_report *rep,
				       uint32_t link)
{
	return link < rep->nlinks ? rep->kind[link] : OT_LINK_UNUSED;
}

/* ------------------------------------------------------------------ */
/* Set-up.                                                             */

static uint32_t link_id(const struct balancer *b, int32_t n,
			unsigned int port)
{
	return b->link_base[n] + port - 1;
}

static bool is_switch(const struct balancer *b, int32_t n)
{
	return ot_is_switch(b->f, n);
}

static enum ot_link_kind classify_link(const struct ot_fabric *f, int32_t n,
				       unsigned int port)
{
	const struct ot_port *p = &f->node[n].port[port];
	enum ot_node_type a = f->node[n].type, z;

	if (p->peer < 0)
		return OT_LINK_UNUSED;
	z = f->node[p->peer].type;
	if (a == OT_NODE_SWITCH && z == OT_NODE_SWITCH)
		return OT_LINK_NETWORK;
	if (a == OT_NODE_CA && z == OT_NODE_SWITCH)
		return OT_LINK_INJECTION;
	if (a == OT_NODE_SWITCH && z == OT_NODE_CA)
		return OT_LINK_EJECTION;
	return OT_LINK_OTHER;
}

static int build_links(struct balancer *b)
{
	const struct ot_fabric *f = b->f;
	uint32_t n, l;
	unsigned int p;

	b->link_base = calloc(f->nnodes + 1, sizeof(*b->link_base));
	if (!b->link_base)
		return -1;
	for (n = 0; n < f->nnodes; n++)
		b->link_base[n + 1] = b->link_base[n] + f->node[n].nports;
	b->nlinks = b->link_base[f->nnodes];
	b->link_node = calloc(b->nlinks ? b->nlinks : 1,
			      sizeof(*b->link_node));
	b->rep->kind = calloc(b->nlinks ? b->nlinks : 1, sizeof(*b->rep->kind));
	if (!b->link_node || !b->rep->kind)
		return -1;
	b->rep->nlinks = b->nlinks;
	for (n = 0; n < f->nnodes; n++) {
		for (p = 1; p <= f->node[n].nports; p++) {
			l = link_id(b, n, p);
			b->link_node[l] = n;
			b->rep->kind[l] = classify_link(f, n, p);
		}
	}
	return 0;
}

/* The CA ports with a LID (model/endpoints.h), in the chosen order. */
static int collect_endpoints(struct balancer *b,
			     const struct ot_traffic_opts *opts)
{
	const struct ot_fabric *f = b->f;
	uint32_t *order, i;

	if (ot_endpoints_init(&b->eps, f))
		return -1;
	b->nep = b->eps.nep;
	b->src_switches = b->eps.src_switches;
	b->nsrc_switches = b->eps.nsrc_switches;
	b->ep = calloc(b->nep ? b->nep : 1, sizeof(*b->ep));
	order = calloc(b->nep ? b->nep : 1, sizeof(*order));
	if (!b->ep || !order) {
		free(order);
		return -1;
	}
	ot_ca_order_list(f, &b->eps, opts->order, order);
	for (i = 0; i < b->nep; i++) {
		const struct ot_endpoint *x = &b->eps.ep[order[i]];
		struct endpoint *e = &b->ep[i];

		e->node = x->node;
		e->port = x->port;
		e->lid = x->lid;
		e->nlids = x->nlids;
		e->sw = x->sw;
		e->inj = link_id(b, x->node, x->port);
		e->eidx = order[i];
		if (e->nlids > 1)
			b->multipath = true;
		if (f->node[x->node].port[x->port].lmc > b->rep->lmc)
			b->rep->lmc = f->node[x->node].port[x->port].lmc;
	}
	free(order);
	b->rep->ncas = b->nep;
	return 0;
}

static int alloc_work(struct balancer *b)
{
	const struct ot_fabric *f = b->f;
	size_t nn = f->nnodes ? f->nnodes : 1, ne = b->nep ? b->nep : 1;
	uint32_t i;

	b->odd = calloc(ne, sizeof(*b->odd));
	if (ot_fwdtree_init(&b->tree, f, b->r))
		return -1;
	b->acc = calloc(nn, sizeof(*b->acc));
	b->walk = calloc(nn + 1, sizeof(*b->walk));
	b->sw_inj = calloc(nn, sizeof(*b->sw_inj));
	b->ep_inj = calloc(ne, sizeof(*b->ep_inj));
	b->path = calloc(nn + 3, sizeof(*b->path));
	b->trial = calloc(nn + 3, sizeof(*b->trial));
	b->partner = calloc(ne, sizeof(*b->partner));
	b->perm = calloc(ne, sizeof(*b->perm));
	if (!b->odd || !b->acc ||
	    !b->walk || !b->sw_inj || !b->ep_inj || !b->path || !b->trial ||
	    !b->partner || !b->perm)
		return -1;
	for (i = 0; i < b->nep; i++)
		if (b->ep[i].sw < 0)
			b->odd[b->nodd++] = i;
	return 0;
}

static void balancer_free(struct balancer *b)
{
	free(b->ep);
	free(b->link_base);
	free(b->link_node);
	ot_endpoints_free(&b->eps);
	free(b->odd);
	ot_fwdtree_free(&b->tree);
	free(b->acc);
	free(b->walk);
	free(b->sw_inj);
	free(b->ep_inj);
	free(b->path);
	free(b->trial);
	free(b->partner);
	free(b->perm);
}

/* ------------------------------------------------------------------ */
/* Paths.                                                              */

/*
 * The links from switch x to LID dlid of d (the last one into d) in path;
 * their number, or 0 when the packet is dropped or loops.
 */
static unsigned int walk_switch(const struct balancer *b, int32_t x,
				const struct endpoint *d, uint16_t dlid,
				uint32_t *path)
{
	const struct ot_fabric *f = b->f;
	unsigned int len = 0;
	uint32_t hops;

	/* a path through more than every switch has met one twice */
	for (hops = 0; hops <= f->nswitches; hops++) {
		const struct ot_node *n = &f->node[x];
		uint8_t out = ot_fwd_lft(b->r, x, dlid);
		const struct ot_port *p;

		if (out == 0 || out > n->nports || n->port[out].peer < 0)
			return 0;
		p = &n->port[out];
		path[len++] = link_id(b, x, out);
		if (p->peer == d->node && p->peer_port == d->port)
			return len;
		if (!is_switch(b, p->peer))
			return 0;
		x = p->peer;
	}
	return 0;
}

/* The same from a CA: its cable first. */
static unsigned int walk_pair(const struct balancer *b,
			      const struct endpoint *s,
			      const struct endpoint *d, uint16_t dlid,
			      uint32_t *path)
{
	const struct ot_port *p = &b->f->node[s->node].port[s->port];
	unsigned int len;

	if (p->peer < 0)
		return 0;
	path[0] = s->inj;
	if (p->peer == d->node && p->peer_port == d->port)
		return 1; /* back to back */
	if (!is_switch(b, p->peer))
		return 0;
	len = walk_switch(b, p->peer, d, dlid, path + 1);
	return len ? len + 1 : 0;
}

static void add_path(double *load, const uint32_t *path, unsigned int len,
		     double w)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		load[path[i]] += w;
}

/*
 * The best LID of d for traffic w from switch x (the greedy rule of
 * traffic.h); its path in b->path, the path's length returned, 0 when no
 * LID of d is reached from x.
 */
static unsigned int best_path(struct balancer *b, int32_t x,
			      const struct endpoint *d, double w,
			      const double *load)
{
	const uint8_t *kind = b->rep->kind;
	double best_cost = 0, best_sum = 0;
	unsigned int best_len = 0, l, i;

	for (l = 0; l < d->nlids; l++) {
		unsigned int len = walk_switch(b, x, d, d->lid + l, b->trial);
		double cost = 0, sum = 0;

		if (!len)
			continue;
		for (i = 0; i < len; i++) {
			uint32_t k = b->trial[i];

			sum += load[k];
			if (kind[k] == OT_LINK_NETWORK && load[k] + w > cost)
				cost = load[k] + w;
		}
		/* equal on paper is equal, whatever the rounding */
		if (best_len && (cost > best_cost + TIE ||
				 (cost > best_cost - TIE &&
				  sum > best_sum - TIE)))
			continue;
		best_cost = cost;
		best_sum = sum;
		best_len = len;
		memcpy(b->path, b->trial, len * sizeof(*b->path));
	}
	return best_len;
}

/* ------------------------------------------------------------------ */
/* Uniform traffic.                                                    */

/* Sources at switch s other than destination endpoint dep. */
static uint32_t sources_at(const struct balancer *b, int32_t s, uint32_t dep)
{
	return ot_sources_at(&b->eps, s, b->ep[dep].eidx);
}

/* The switch-side share of w sent by s's CAs to endpoint dep. */
static void count_injection(struct balancer *b, int32_t s, uint32_t dep,
			    double w)
{
	b->sw_inj[s] += w;
	if (b->ep[dep].sw == s)
		b->ep_inj[dep] -= w; /* the destination sends not to itself */
}

/*
 * Every switch's CAs send w per CA to LID dlid of endpoint dep, through
 * the forwarding tree.  pl (base LID only) counts the flows.  A later
 * resolution walk only ever leads into earlier ones: walks taken last to
 * first, each front to back, visit every switch before the switches it
 * forwards to.
 */
static void tree_loads(struct balancer *b, uint32_t dep, uint16_t dlid,
		       double w, double *load, struct ot_pattern_load *pl)
{
	const struct endpoint *d = &b->ep[dep];
	struct ot_fwdtree *t = &b->tree;
	uint32_t k, i, wi;
	uint8_t st;

	ot_fwdtree_begin(&b->tree, d->node, d->port, dlid);
	b->nwalk = 0;
	for (k = 0; k < b->nsrc_switches; k++) {
		int32_t s = b->src_switches[k];
		uint32_t n = sources_at(b, s, dep);

		if (!n)
			continue;
		b->walk[b->nwalk++] = t->norder;
		st = ot_fwdtree_resolve(t, s);
		for (i = b->walk[b->nwalk - 1]; i < t->norder; i++)
			b->acc[t->order[i]] = 0;
		if (pl)
			pl->flows += n;
		if (st != OT_FWD_REACH) {
			if (pl)
				pl->unrouted += n;
			continue;
		}
		b->acc[s] += n * w;
		count_injection(b, s, dep, w);
	}
	b->walk[b->nwalk] = t->norder;
	for (wi = b->nwalk; wi > 0; wi--) {
		for (i = b->walk[wi - 1]; i < b->walk[wi]; i++) {
			int32_t x = t->order[i];

			if (t->state[x] != OT_FWD_REACH)
				continue;
			load[link_id(b, x, t->outp[x])] += b->acc[x];
			if (t->next[x] >= 0)
				b->acc[t->next[x]] += b->acc[x];
		}
	}
}

/* Each switch's CAs together on the best LID of endpoint dep. */
static void best_tree_loads(struct balancer *b, uint32_t dep, double w,
			    double *load)
{
	const struct endpoint *d = &b->ep[dep];
	uint32_t k;

	for (k = 0; k < b->nsrc_switches; k++) {
		int32_t s = b->src_switches[k];
		uint32_t n = sources_at(b, s, dep);
		unsigned int len;

		if (!n)
			continue;
		len = best_path(b, s, d, n * w, load);
		if (!len)
			continue;
		add_path(load, b->path, len, n * w);
		count_injection(b, s, dep, w);
	}
}

/* Sources not cabled to a switch, pair by pair (base LID). */
static void odd_loads(struct balancer *b, uint32_t dep, enum lid_choice how,
		      double w, double *load, struct ot_pattern_load *pl)
{
	const struct endpoint *d = &b->ep[dep];
	uint32_t i, l, nl = how == CHOICE_SPREAD ? d->nlids : 1;

	for (i = 0; i < b->nodd; i++) {
		const struct endpoint *s = &b->ep[b->odd[i]];

		if (b->odd[i] == dep)
			continue;
		if (pl)
			pl->flows++;
		for (l = 0; l < nl; l++) {
			unsigned int len = walk_pair(b, s, d, d->lid + l,
						     b->path);

			if (!len && pl)
				pl->unrouted++;
			add_path(load, b->path, len, w / nl);
		}
	}
}

static void uniform_loads(struct balancer *b, enum lid_choice how,
			  double *load, struct ot_pattern_load *pl)
{
	uint32_t d, l, i;
	double w;

	if (b->nep < 2)
		return;
	w = 1.0 / (b->nep - 1);
	memset(b->sw_inj, 0, b->f->nnodes * sizeof(*b->sw_inj));
	memset(b->ep_inj, 0, b->nep * sizeof(*b->ep_inj));
	for (d = 0; d < b->nep; d++) {
		const struct endpoint *e = &b->ep[d];

		switch (how) {
		case CHOICE_BASE:
			tree_loads(b, d, e->lid, w, load, pl);
			break;
		case CHOICE_SPREAD:
			for (l = 0; l < e->nlids; l++)
				tree_loads(b, d, e->lid + l, w / e->nlids,
					   load, NULL);
			break;
		case CHOICE_BEST:
			best_tree_loads(b, d, w, load);
			break;
		}
		odd_loads(b, d, how, w, load, how == CHOICE_BASE ? pl : NULL);
	}
	for (i = 0; i < b->nep; i++)
		if (b->ep[i].sw >= 0)
			load[b->ep[i].inj] += b->sw_inj[b->ep[i].sw] +
					      b->ep_inj[i];
}

/* ------------------------------------------------------------------ */
/* Permutations.                                                       */

/* partner[i] for a deterministic pattern; NO_PARTNER to send nothing. */
static void make_partners(struct balancer *b, enum ot_pattern_kind kind,
			  uint64_t seed)
{
	ot_pattern_partners(kind, b->nep, seed, b->partner, b->perm);
}

static void permutation_loads(struct balancer *b, enum lid_choice how,
			      double *load, struct ot_pattern_load *pl)
{
	uint32_t i, l;

	for (i = 0; i < b->nep; i++) {
		const struct endpoint *s = &b->ep[i], *d;
		unsigned int len;

		if (b->partner[i] == NO_PARTNER) {
			if (pl)
				pl->skipped++;
			continue;
		}
		d = &b->ep[b->partner[i]];
		if (pl)
			pl->flows++;
		switch (how) {
		case CHOICE_BASE:
			len = walk_pair(b, s, d, d->lid, b->path);
			if (!len && pl)
				pl->unrouted++;
			add_path(load, b->path, len, 1.0);
			break;
		case CHOICE_SPREAD:
			for (l = 0; l < d->nlids; l++) {
				len = walk_pair(b, s, d, d->lid + l, b->path);
				add_path(load, b->path, len,
					 1.0 / d->nlids);
			}
			break;
		case CHOICE_BEST:
			if (s->sw < 0) {
				/* one cable, no choice */
				len = walk_pair(b, s, d, d->lid, b->path);
				add_path(load, b->path, len, 1.0);
				break;
			}
			len = best_path(b, s->sw, d, 1.0, load);
			if (!len)
				break;
			load[s->inj] += 1.0;
			add_path(load, b->path, len, 1.0);
			break;
		}
	}
}

/* ------------------------------------------------------------------ */
/* Figures.                                                            */

/*
 * The figures of one load vector; *hot gets the first most loaded network
 * link.  Loads that are equal on paper differ in the last bits after
 * summing in different orders, so "most loaded" allows for rounding:
 * otherwise the link named would depend on the order of the additions.
 */
static void summarize(const struct balancer *b, const double *load,
		      struct ot_load_figure *fig, uint32_t *hot)
{
	const uint8_t *kind = b->rep->kind;
	double sum = 0, near;
	uint32_t l;

	memset(fig, 0, sizeof(*fig));
	*hot = UINT32_MAX;
	for (l = 0; l < b->nlinks; l++) {
		if (load[l] <= 0)
			continue;
		fig->links_used++;
		sum += load[l];
		if (load[l] > fig->max_load)
			fig->max_load = load[l];
		if (kind[l] == OT_LINK_NETWORK &&
		    load[l] > fig->max_network_load)
			fig->max_network_load = load[l];
	}
	near = fig->max_network_load * (1 - 1e-9);
	for (l = 0; l < b->nlinks && fig->max_network_load > 0; l++) {
		if (kind[l] == OT_LINK_NETWORK && load[l] >= near) {
			*hot = l;
			break;
		}
	}
	fig->avg_load = fig->links_used ? sum / fig->links_used : 0;
	fig->throughput = fig->max_load > 1 ? 1 / fig->max_load : 1;
}

static void pattern_loads(struct balancer *b, enum ot_pattern_kind kind,
			  enum lid_choice how, double *load,
			  struct ot_pattern_load *pl)
{
	memset(load, 0, b->nlinks * sizeof(*load));
	if (kind == OT_PATTERN_UNIFORM)
		uniform_loads(b, how, load, pl);
	else
		permutation_loads(b, how, load, pl);
}

static int name_hot_link(struct balancer *b, struct pattern_store *st,
			 struct ot_pattern_load *pl, uint32_t hot)
{
	const struct ot_fabric *f = b->f;
	int32_t n;
	unsigned int port;
	const struct ot_port *p;

	if (hot == UINT32_MAX)
		return 0;
	n = b->link_node[hot];
	port = hot - b->link_base[n] + 1;
	p = &f->node[n].port[port];
	st->from = strdup(f->node[n].desc ? f->node[n].desc : "");
	st->to = strdup(f->node[p->peer].desc ? f->node[p->peer].desc : "");
	if (!st->from || !st->to)
		return -1;
	pl->max_from = st->from;
	pl->max_to = st->to;
	pl->max_from_port = port;
	pl->max_to_port = p->peer_port;
	return 0;
}

/*
 * ebb: each bisection's loads in scratch, then every flow's share, 1 /
 * the largest load on its path; their mean, and the mean loads.
 */
static void ebb_loads(struct balancer *b, struct ot_pattern_load *pl,
		      uint64_t seed, unsigned int nbis, double *load,
		      double *scratch)
{
	double sum = 0;
	uint64_t nflows = 0;
	unsigned int k, len, j;
	uint32_t i, l;

	pl->seed = seed;
	pl->bisections = nbis;
	for (k = 0; k < nbis; k++) {
		ot_pattern_partners(OT_PATTERN_EBB, b->nep,
				    ot_pattern_bisection_seed(seed, k),
				    b->partner, b->perm);
		memset(scratch, 0, b->nlinks * sizeof(*scratch));
		permutation_loads(b, CHOICE_BASE, scratch, pl);
		for (i = 0; i < b->nep; i++) {
			const struct endpoint *d;
			double most = 0;

			if (b->partner[i] == NO_PARTNER)
				continue;
			d = &b->ep[b->partner[i]];
			nflows++;
			len = walk_pair(b, &b->ep[i], d, d->lid, b->path);
			for (j = 0; j < len; j++)
				if (scratch[b->path[j]] > most)
					most = scratch[b->path[j]];
			if (len)
				sum += 1 / most; /* most >= 1: the flow itself */
		}
		for (l = 0; l < b->nlinks; l++)
			load[l] += scratch[l] / nbis;
	}
	pl->ebb = nflows ? sum / nflows : 1;
}

static int run_pattern(struct balancer *b, enum ot_pattern_kind kind,
		       uint64_t seed, unsigned int nth, double *scratch)
{
	struct ot_balance_report *rep = b->rep;
	struct ot_pattern_load *pl = &rep->pat[rep->npat];
	struct pattern_store *st = &rep->store[rep->npat];
	uint32_t hot, unused;

	memset(pl, 0, sizeof(*pl));
	memset(st, 0, sizeof(*st));
	rep->npat++;
	pl->kind = kind;
	if (kind == OT_PATTERN_RANDOM) {
		pl->seed = seed;
		snprintf(pl->name, sizeof(pl->name), "random-%u", nth);
	} else {
		snprintf(pl->name, sizeof(pl->name), "%s",
			 ot_pattern_name(kind));
	}
	st->load = calloc(b->nlinks ? b->nlinks : 1, sizeof(*st->load));
	if (!st->load)
		return -1;
	pl->load = st->load;
	if (kind == OT_PATTERN_EBB) {
		/* base LIDs only: no spread or best figures */
		ebb_loads(b, pl, seed, nth, st->load, scratch);
		summarize(b, st->load, &pl->base, &hot);
		pl->base.throughput = pl->ebb;
		return name_hot_link(b, st, pl, hot);
	}
	if (kind != OT_PATTERN_UNIFORM)
		make_partners(b, kind, seed);
	pattern_loads(b, kind, CHOICE_BASE, st->load, pl);
	summarize(b, st->load, &pl->base, &hot);
	if (name_hot_link(b, st, pl, hot))
		return -1;
	if (!b->multipath)
		return 0;
	pl->multipath = true;
	pattern_loads(b, kind, CHOICE_SPREAD, scratch, NULL);
	summarize(b, scratch, &pl->spread, &unused);
	pattern_loads(b, kind, CHOICE_BEST, scratch, NULL);
	summarize(b, scratch, &pl->best, &unused);
	/*
	 * The greedy is no optimum: where every flow on its base LID does
	 * better, that is the best choice found.  Not with unrouted flows,
	 * whose base figure leaves out traffic the greedy may carry.
	 */
	if (!pl->unrouted && pl->base.max_load < pl->best.max_load - TIE)
		pl->best = pl->base;
	return 0;
}

int ot_balance_run(const struct ot_fabric *f, const struct ot_routing *r,
		   const struct ot_traffic_opts *opts,
		   struct ot_balance_report **out, struct ot_error *err)
{
	static const struct ot_traffic_opts defaults;
	struct balancer b = { 0 };
	double *scratch = NULL;
	uint32_t mask;
	unsigned int k, i, nrandom, total;
	int error = -1;

	*out = NULL;
	if (r->fabric != f || r->max_lid != f->max_lid)
		return ot_error_set(err,
				    "balance: the routing is not for this fabric");
	if (!opts)
		opts = &defaults;
	mask = opts->patterns ? opts->patterns & OT_PATTERNS_ANY :
				OT_PATTERNS_ALL;
	nrandom = opts->nrandom ? opts->nrandom : 1;
	b.f = f;
	b.r = r;
	b.rep = calloc(1, sizeof(*b.rep));
	if (!b.rep)
		goto out;
	b.rep->order = opts->order;
	total = 0;
	for (k = 0; k < OT_PATTERN_COUNT; k++)
		if (mask & (1u << k))
			total += k == OT_PATTERN_RANDOM ? nrandom : 1;
	b.rep->pat = calloc(total ? total : 1, sizeof(*b.rep->pat));
	b.rep->store = calloc(total ? total : 1, sizeof(*b.rep->store));
	if (!b.rep->pat || !b.rep->store)
		goto out;
	if (build_links(&b) || collect_endpoints(&b, opts) || alloc_work(&b))
		goto out;
	scratch = calloc(b.nlinks ? b.nlinks : 1, sizeof(*scratch));
	if (!scratch)
		goto out;
	for (k = 0; k < OT_PATTERN_COUNT; k++) {
		if (!(mask & (1u << k)))
			continue;
		if (k == OT_PATTERN_EBB) {
			if (run_pattern(&b, k, opts->seed,
					opts->bisections ? opts->bisections :
						OT_EBB_DEFAULT_BISECTIONS,
					scratch))
				goto out;
			continue;
		}
		if (k != OT_PATTERN_RANDOM) {
			if (run_pattern(&b, k, 0, 0, scratch))
				goto out;
			continue;
		}
		for (i = 0; i < nrandom; i++)
			if (run_pattern(&b, k, opts->seed + i, i + 1, scratch))
				goto out;
	}
	error = 0;
out:
	if (error) {
		ot_error_nomem(err, "balance");
		ot_balance_report_free(b.rep);
	} else {
		*out = b.rep;
	}
	free(scratch);
	balancer_free(&b);
	return error;
}
