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
		e = ck_example_add(ck, l, &ck->ep[src], &ck->ep[dd->ep], dd->lid);
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
	if (check_odd_sources(ck, dd) || ck_dependencies_toward(ck, dd))
		return -1;
	if (ck->opts->promise && ck_check_promise(ck, dd))
		return -1;
	return 0;
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
	ck_injection_vls(&ck);
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
