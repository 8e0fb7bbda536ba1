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

#include "check/checker.h"

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

/* Lists the failing pairs from switch s as examples, as far as room is. */
static int failure_examples(struct checker *ck, int32_t s,
			    const struct ot_dest *dd)
{
	bool loop = ck->tree.state[s] == OT_FWD_LOOP;
	struct example_list *l = loop ? &ck->rep->looping :
					&ck->rep->unreachable;
	uint32_t i;

	for (i = ck->eps.src_start[s]; i < ck->eps.src_start[s + 1]; i++) {
		struct example *e;
		uint32_t src = ck->eps.src_list[i];
		int error;

		if (src == dd->ep)
			continue;
		if (l->n >= ck->rep->max_examples)
			return 0;
		e = ck_example_add(ck, l, &ck->eps.ep[src], &ck->eps.ep[dd->ep], dd->lid);
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
static int check_odd_sources(struct checker *ck, const struct ot_dest *dd)
{
	const struct ot_endpoint *d = &ck->eps.ep[dd->ep];
	uint32_t i;

	for (i = 0; i < ck->eps.nodd; i++) {
		struct ot_endpoint *s = &ck->eps.ep[ck->eps.odd_src[i]];
		const struct ot_port *p = &ck->f->node[s->node].port[s->port];
		struct example *e;
		char buf[OT_ERROR_LEN];

		if (ck->eps.odd_src[i] == dd->ep)
			continue;
		ck->rep->c.pairs++;
		if (p->peer == d->node && p->peer_port == d->port) {
			uint8_t sl = ck_path_sl(ck, s->lid, dd->lid);

			/* back to back: one link, and nothing to depend on */
			s->sl_mask |= 1u << sl;
			count_reached(ck, 1, 1, 1);
			continue;
		}
		ck->rep->c.unreachable++;
		if (ck->rep->unreachable.n >= ck->rep->max_examples)
			continue;
		e = ck_example_add(ck, &ck->rep->unreachable, s, d, dd->lid);
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

/* Everything about one destination LID. */
static int check_destination(struct checker *ck, const struct ot_dest *dd)
{
	struct ot_check_counts *c = &ck->rep->c;
	const struct ot_endpoint *d = &ck->eps.ep[dd->ep];
	uint32_t k;

	if (dd->attach != ck->dist_from)
		shortest_distances(ck, dd->attach);
	ot_fwdtree_begin(&ck->tree, d->node, d->port, dd->lid);
	for (k = 0; k < ck->eps.nsrc_switches; k++) {
		int32_t s = ck->eps.src_switches[k];
		uint32_t n = ot_sources_at(&ck->eps, s, dd->ep);

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
	if (check_odd_sources(ck, dd) ||
	    ot_unicast_deps_toward(&ck->ud, &ck->tree, dd))
		return -1;
	if (ck->opts->promiser && ck_check_promise(ck, dd))
		return -1;
	return 0;
}

static int alloc_work(struct checker *ck)
{
	const struct ot_fabric *f = ck->f;
	size_t nn = f->nnodes ? f->nnodes : 1;

	if (ot_endpoints_init(&ck->eps, f) ||
	    ot_fwdtree_init(&ck->tree, f, ck->r) ||
	    ot_cdg_init(&ck->cdg, f) ||
	    ot_unicast_deps_init(&ck->ud, &ck->cdg, &ck->eps, ck->r))
		return -1;
	ck->dist = calloc(nn, sizeof(*ck->dist));
	ck->queue = calloc(nn, sizeof(*ck->queue));
	ck->path = calloc(nn + 2, sizeof(*ck->path));
	ck->pport = calloc(nn + 2, 1);
	ck->pvl = calloc(nn + 2, 1);
	ck->vl_cache = calloc((nn + 2) * OT_NUM_SLS, 1);
	if (!ck->dist || !ck->queue || !ck->path || !ck->pport ||
	    !ck->pvl || !ck->vl_cache)
		return -1;
	ck->dist_from = -2; /* no distances yet; -1 is "not cabled" */
	return build_adjacency(ck);
}

static void checker_free(struct checker *ck)
{
	ot_unicast_deps_free(&ck->ud);
	ot_cdg_free(&ck->cdg);
	ot_endpoints_free(&ck->eps);
	ot_fwdtree_free(&ck->tree);
	free(ck->dist);
	free(ck->queue);
	free(ck->adj_start);
	free(ck->adj);
	free(ck->path);
	free(ck->pport);
	free(ck->pvl);
	free(ck->vl_cache);
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
	if (ck.opts->promiser && ck.opts->promiser->promise.text) {
		ck.rep->promise = dupstr(ck.opts->promiser->promise.text);
		if (!ck.rep->promise)
			goto out;
	}
	if (ck.opts->promiser && ck.opts->promiser->promise.rule_text) {
		ck.rep->promise_rule =
			dupstr(ck.opts->promiser->promise.rule_text);
		if (!ck.rep->promise_rule)
			goto out;
	}
	if (alloc_work(&ck))
		goto out;
	for (i = 0; i < ck.eps.ndest; i++)
		if (check_destination(&ck, &ck.eps.dest[i]))
			goto out;
	if (ot_unicast_deps_finish(&ck.ud))
		goto out;
	ck.rep->c.vls_used |= ck.ud.vls_used;
	ck.rep->c.sls_used |= ck.ud.sls_used;
	ck.rep->c.dependencies = ck.cdg.ndeps;
	ck_count_channels(&ck);
	if (ck_find_credit_loops(&ck))
		goto out;
	if (ck.opts->mcast && ck_mcast(&ck))
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
