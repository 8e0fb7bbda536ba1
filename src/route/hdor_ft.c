// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * hdor on a KNS whose dimension lines are fat trees (seed 000, section
 * 2.2: k-ary n-direct s-indirect; the seed routes only s = 1 and says a
 * line of s > 1 "can be built using a Fat-Tree topology").  It takes the
 * coordinates and stages of ot_kns_ft_recognize() and fills every LFT.
 *
 * Across lines: dimension order, as on s = 1.  A router sends a packet
 * into the line of the lowest dimension d where its coordinates differ
 * from the destination's; the line delivers it to its router whose
 * coordinate d is the destination's (the target t).
 *
 * Inside a line: up*-down* on the levels counted from the routers.  A
 * line switch x with t below it (reachable by going down only) sends the
 * packet down to a child with t below it; otherwise up, to a parent from
 * which t is fewest up-then-down hops away.  On an intact fat tree that is
 * up to a lowest common ancestor of source and target and down: minimal.
 * Where the line has lost spines or cables, the same rule routes around
 * them through the remaining ones, on the same VL.
 *
 * Beyond that: the escape layer.  Where a line's damage leaves some
 * router a without an up-then-down path to the line's router t (a leaf
 * cut from every spine, a line split in two), every destination LID the
 * line would carry to t (coordinates below d the line's, coordinate d
 * t's) goes, all of it, to the shared escape layer (route/escape.h:
 * up*-down* over every switch and router of the fabric, its root the one
 * of the trial roots with the least loaded busiest channel, each switch's
 * next hop the least loaded legal one: route/hdor_ft_esc.c), on path SL 1
 * and VL 1 on every hop; so does any LID some switch has no entry for
 * by the rule.  Only those: a fabric whose lines up*-down* can connect
 * keeps one VL, and SL 0 everywhere.  Where the escape layer carries
 * much, further layers (same up*-down*, other roots, each on an SL of
 * its own and VL 2, 3, ...: two by default, 4 data VLs, or as a QoS
 * budget allows) take escaped CA LIDs dealt by load
 * (route/hdor_ft_esc.c); route/hdor.c keeps them only when the busiest
 * channel under uniform traffic carries less.
 *
 * Twists (route/hdor_ft_twist.c).  Before any of those LIDs goes to the
 * escape layer, it is looked at router by router: a router that cannot
 * reach it in dimension order sends its own CAs' packets first across
 * one of its other lines (to a router that can, or that twists on in a
 * higher dimension), on a path SL of their own (2..15) that SL2VL puts
 * on VL 1 for that crossing and on VL 0 after it; the LID leaves the
 * escape layer when every router with CAs has a way, and the channel
 * dependency graph of the tables stays acyclic (the deadlock argument is
 * in that file).  A fabric where twists carry every such LID keeps VL 1
 * for the twists alone.
 *
 * Other dimension orders (route/hdor_ft_mix.c).  On a fabric where some
 * router lost cables into a line, the CA LIDs of chosen routers take
 * another dimension order (one dimension first), each order on an SL
 * and VL of its own on every hop, from the VLs the twists and escape
 * layers leave; kept only where the busiest channel under uniform
 * traffic carries less (the deadlock argument is in that file).  Where
 * the layers leave none, route/hdor.c routes again with fewer layers
 * (ot_hdor_ft_route_layers(): hdor_ft_layers_for_orders()).
 *
 * First lines per source router (route/hdor_ft_first.c).  After the
 * mixing, a router's entry toward a CA LID that no other router's path
 * passes it for may point into the first line of another order, for its
 * own CAs alone, where the walk from there is a path of that order;
 * the pair's packets carry that order's SL and VL on every hop (where the
 * mixing keeps no order, the orders these pairs take get SLs and VLs of
 * their own, as the mixing's would).  Kept only where the busiest
 * channel under uniform traffic carries less.
 *
 * Spreading (route/hdor_ft_bal.c).  Among the candidate cables (parallel
 * cables, several parents, several children above t) the destinations
 * are dealt in a fixed order (per dimension d, first the LIDs this line
 * can carry, by LMC offset, then coordinate d, then the rest, then rank
 * on the router), one flow per source router walked through the line,
 * each entry chosen by the load its way on would meet; where routers
 * have several cables into a line, each destination is then taken off
 * and dealt again against the others' loads (rip-up passes).  Each
 * destination's traffic from one switch stays on one cable.  Candidates
 * are ordered by the far end's stage position (GUID), never by port,
 * so the tables do not depend on port numbers or discovery order.
 *
 * Deadlock freedom on one VL, for CA-to-CA traffic (Dally and Seitz):
 * with S the most stages of any line, rank every channel: CA -> router 0;
 * in dimension d, with base 2Sd: router -> stage 1 base + 1, stage l ->
 * stage l + 1 base + l + 1 (up: at most base + S), stage l + 1 -> stage l
 * base + 2S - l, stage 1 -> router base + 2S (down: above base + S);
 * router -> CA 2Sn + 1.  Inside a line a path goes up (ranks rising with
 * the stage), then down (ranks rising as the stage falls, all above the
 * up ranks), and lines are crossed in increasing dimension, so every
 * path's ranks strictly increase: the channel dependency graph has no
 * cycle.  The unit tests check the ranks on every path and run the
 * checker's own credit-loop search; traffic to and from line switches'
 * own LIDs is outside the promise, as on s = 1 (hdor.c).
 *
 * With an escape layer, two VLs: the destination LIDs left to the rule
 * keep their paths, so their channels (VL 0, SL 0) are a subset of the
 * ranked ones above and form no cycle.  The escaped LIDs' packets carry
 * SL 1 from their source, every node's SL2VL maps SL 1 to VL 1 on every
 * hop, and their tables are the escape layer's up*-down* (ranked in
 * escape.c: ranks rise on every path).  No packet changes VL, so the
 * channel dependency graph is two graphs with no edge between them,
 * each without a cycle.  A further escape layer i is the same argument
 * on VL 1 + i: its LIDs' packets carry its SL from the source, SL2VL
 * maps that SL to VL 1 + i on every hop, its paths are up*-down* from
 * its own root (escape.c's ranking of that order), and no other traffic
 * is on that VL.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/routing.h"
#include "route/deal.h"
#include "route/escape.h"
#include "route/hdor_ft.h"
#include "route/hdor_ft_int.h"

/* Coordinates of x in dimensions below d, as a number. */

static uint64_t coord_key(const struct ft_ctx *c, int32_t x, unsigned int d)
{
	const int16_t *co = c->kns->coord + (size_t)x * c->n;
	uint64_t v = low_part(c, x, d);
	unsigned int e;

	v = v * c->k + (uint64_t)(co[d] < 0 ? 0 : co[d]);
	for (e = c->n; e-- > d + 1;)
		v = v * c->k + (uint64_t)(co[e] < 0 ? 0 : co[e]);
	return v;
}

static int prepare_dests(struct ft_ctx *c)
{
	const struct ot_fabric *f = c->f;
	const struct ot_kns *kns = c->kns;
	struct ot_deal_key *keys = NULL;
	uint64_t ranks = 1;
	uint32_t lid, i, m;
	unsigned int d;

	for (i = 0; i < f->nnodes; i++)
		if (kns->role[i] == OT_KNS_ROUTER &&
		    f->node[i].nports + 1u > ranks)
			ranks = f->node[i].nports + 1u;
	c->dest = calloc((size_t)f->max_lid + 1, sizeof(*c->dest));
	c->order = calloc(c->n + 1, sizeof(*c->order));
	c->low = malloc(((size_t)f->max_lid + 1) * c->n * sizeof(*c->low));
	keys = malloc(((size_t)f->max_lid + 1) * sizeof(*keys));
	if (!c->dest || !c->order || !c->low || !keys)
		goto nomem;
	for (lid = 1; lid <= f->max_lid; lid++) {
		const struct ot_lid_owner *o = &f->lid_owner[lid];
		struct ft_dest *dst = &c->dest[lid];

		if (o->node < 0)
			continue;
		dst->node = o->node;
		if (kns->role[o->node] == OT_KNS_CA) {
			const struct ot_port *pt =
				&f->node[o->node].port[o->port];

			if (pt->peer < 0)
				continue;
			dst->kind = DEST_CA;
			dst->node = pt->peer;
			dst->ca_port = pt->peer_port;
		} else {
			dst->kind = kns->role[o->node] == OT_KNS_ROUTER ?
				    DEST_ROUTER : DEST_SWITCH;
		}
		for (d = 0; d < c->n; d++)
			c->low[(size_t)lid * c->n + d] =
				low_part(c, dst->node, d);
	}
	for (d = 0; d <= c->n; d++) {
		unsigned int dd = d < c->n ? d : 0;

		c->order[d] = malloc(((size_t)f->max_lid + 1) *
				     sizeof(**c->order));
		if (!c->order[d])
			goto nomem;
		m = 0;
		for (lid = 1; lid <= f->max_lid; lid++) {
			const struct ft_dest *dst = &c->dest[lid];
			const struct ot_lid_owner *o = &f->lid_owner[lid];
			uint64_t key;

			if (dst->kind == DEST_NONE)
				continue;
			key = coord_key(c, dst->node, dd);
			if (dst->kind == DEST_CA) {
				const struct ot_port *pt =
					&f->node[o->node].port[o->port];

				key = key * ranks +
				      ot_fabric_end_port_rank(f, pt->peer,
							      o->node,
							      o->port);
				key += (uint64_t)(lid - pt->lid) << 54;
			} else if (dst->kind == DEST_ROUTER) {
				key += 1ull << 62;
			} else {
				key = (2ull << 62) +
				      (uint64_t)kns->line[dst->node] * 65536 +
				      kns->pos[dst->node] +
				      (uint64_t)kns->stage[dst->node] * 4096;
			}
			keys[m].key = key;
			keys[m].lid = lid;
			m++;
		}
		ot_deal_sort(keys, m);
		for (i = 0; i < m; i++)
			c->order[d][i] = keys[i].lid;
		c->norder = m;
	}
	free(keys);
	return 0;
nomem:
	free(keys);
	return ot_error_nomem(c->err, "hdor");
}

/* All-pairs hop counts in line l's graph (its switches and routers). */
static int line_dist(struct ft_ctx *c, uint32_t l, uint32_t *queue)
{
	const struct ot_fabric *f = c->f;
	struct ft_line *fl = &c->line[l];
	uint32_t src, head, tail, nloc = fl->nloc;
	unsigned int p;

	fl->dist = malloc((size_t)nloc * nloc);
	if (!fl->dist)
		return ot_error_nomem(c->err, "hdor");
	memset(fl->dist, INF, (size_t)nloc * nloc);
	for (src = 0; src < nloc; src++) {
		uint8_t *dd = fl->dist + (size_t)src * nloc;

		head = tail = 0;
		dd[src] = 0;
		queue[tail++] = src;
		while (head < tail) {
			uint32_t u = queue[head++];
			int32_t x = global(c, l, u);

			for (p = 1; p <= f->node[x].nports; p++) {
				int32_t y = f->node[x].port[p].peer;
				int32_t v;

				if (y < 0 || c->kns->role[y] == OT_KNS_CA)
					continue;
				v = local(c, l, y);
				if (v < 0 || dd[v] != INF)
					continue;
				dd[v] = dd[u] + 1 < INF ? dd[u] + 1 : INF - 1;
				queue[tail++] = v;
			}
		}
	}
	return 0;
}

/*
 * below[] bottom-up, U[] top-down, then the routers' up*-down* hops to
 * each other (lca) and whether the line is a proper fat tree.
 */
static int line_updown(struct ft_ctx *c, uint32_t l)
{
	const struct ot_fabric *f = c->f;
	const struct ot_kns *kns = c->kns;
	const struct ot_kns_line *ln = &kns->lines[l];
	struct ft_line *fl = &c->line[l];
	unsigned int k = c->k, st, p, t, a;
	uint32_t i, j, nsw = ln->nsw;

	fl->below = calloc((size_t)nsw * k + 1, 1);
	fl->U = malloc((size_t)nsw * k + 1);
	fl->lca = malloc((size_t)k * k);
	fl->tbad = calloc(k, 1);
	if (!fl->below || !fl->U || !fl->lca || !fl->tbad)
		return ot_error_nomem(c->err, "hdor");
	memset(fl->U, INF, (size_t)nsw * k + 1);
	/* ln->sw is by stage: bottom-up for below */
	for (i = 0; i < nsw; i++) {
		int32_t x = ln->sw[i];
		uint8_t *bx = fl->below + (size_t)i * k;

		for (p = 1; p <= f->node[x].nports; p++) {
			int32_t y = f->node[x].port[p].peer;
			int32_t v;

			if (y < 0 || kns->role[y] == OT_KNS_CA)
				continue;
			v = local(c, l, y);
			if (v < 0)
				continue;
			if ((uint32_t)v >= nsw) {
				bx[v - nsw] = 1;
			} else if (kns->stage[y] + 1 == kns->stage[x]) {
				for (t = 0; t < k; t++)
					bx[t] |= fl->below[(size_t)v * k + t];
			}
		}
	}
	for (i = nsw; i-- > 0;) {
		int32_t x = ln->sw[i];
		uint8_t *ux = fl->U + (size_t)i * k;

		st = kns->stage[x];
		for (t = 0; t < k; t++)
			if (fl->below[(size_t)i * k + t])
				ux[t] = st;
		for (p = 1; p <= f->node[x].nports; p++) {
			int32_t y = f->node[x].port[p].peer;
			int32_t v;

			if (y < 0 || kns->role[y] != OT_KNS_SWITCH ||
			    kns->stage[y] != st + 1)
				continue;
			v = local(c, l, y);
			for (t = 0; t < k; t++) {
				uint8_t up = fl->U[(size_t)v * k + t];

				if (up < INF - 1 && up + 1 < ux[t])
					ux[t] = up + 1;
			}
		}
	}
	fl->proper = true;
	for (a = 0; a < k; a++) {
		int32_t r = ln->router[a];

		for (t = 0; t < k; t++) {
			uint8_t best = INF, low = INF;

			if (t == a) {
				fl->lca[a * k + t] = 0;
				continue;
			}
			for (p = 1; p <= f->node[r].nports; p++) {
				int32_t q = f->node[r].port[p].peer;
				uint8_t u;

				if (q < 0 || local(c, l, q) < 0)
					continue;
				u = fl->U[(size_t)c->loc[q] * k + t];
				if (u < best)
					best = u;
			}
			fl->lca[a * k + t] = best;
			if (best == INF) {
				/* to the escape layer (see the top) */
				fl->tbad[t] = 1;
				fl->broken = true;
				fl->proper = false;
				continue;
			}
			/* the lowest switch above both */
			for (j = 0; j < nsw; j++)
				if (fl->below[(size_t)j * k + a] &&
				    fl->below[(size_t)j * k + t] &&
				    kns->stage[ln->sw[j]] < low)
					low = kns->stage[ln->sw[j]];
			/* from stage 1 up to the lowest common stage, down */
			if (low == INF || best != 2 * low - 1)
				fl->proper = false;
		}
	}
	/* intact down-sets: two switches of a stage share all or none */
	for (i = 0; i < nsw && fl->proper; i++)
		for (j = i + 1; j < nsw && fl->proper; j++) {
			const uint8_t *bi = fl->below + (size_t)i * k;
			const uint8_t *bj = fl->below + (size_t)j * k;
			bool meet = false, differ = false;

			if (kns->stage[ln->sw[i]] != kns->stage[ln->sw[j]])
				continue;
			for (t = 0; t < k; t++) {
				meet |= bi[t] && bj[t];
				differ |= bi[t] != bj[t];
			}
			if (meet && differ)
				fl->proper = false;
		}
	return 0;
}

static int prepare_lines(struct ft_ctx *c)
{
	const struct ot_kns *kns = c->kns;
	uint32_t l, i, *queue = NULL, maxloc = 0;
	int error = 0;

	c->loc = malloc(((size_t)c->f->nnodes + 1) * sizeof(*c->loc));
	c->rline = calloc((size_t)c->f->nnodes * c->n + 1,
			  sizeof(*c->rline));
	c->line = calloc(kns->nlines + 1, sizeof(*c->line));
	if (!c->loc || !c->rline || !c->line)
		return ot_error_nomem(c->err, "hdor");
	for (i = 0; i < c->f->nnodes; i++)
		c->loc[i] = -1;
	for (l = 0; l < kns->nlines; l++) {
		const struct ot_kns_line *ln = &kns->lines[l];

		for (i = 0; i < ln->nsw; i++)
			c->loc[ln->sw[i]] = i;
		for (i = 0; i < c->k; i++)
			c->rline[(size_t)ln->router[i] * c->n + ln->dim] = l;
		c->line[l].nloc = ln->nsw + c->k;
		if (c->line[l].nloc > maxloc)
			maxloc = c->line[l].nloc;
	}
	queue = malloc(((size_t)maxloc + 1) * sizeof(*queue));
	if (!queue)
		return ot_error_nomem(c->err, "hdor");
	for (l = 0; l < kns->nlines && !error; l++) {
		error = line_dist(c, l, queue);
		if (!error)
			error = line_updown(c, l);
	}
	free(queue);
	return error;
}

/* A port of a switch to a node of a line, and the order key of that end. */
struct cand {
	uint32_t key;
	uint8_t port;
	int32_t peer;
};

static int cmp_cand(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->port - y->port;
}

/* Node x's ports into line l, by the far end's place (routers by t). */
static unsigned int line_ports(const struct ft_ctx *c, uint32_t l, int32_t x,
			       struct cand *out)
{
	const struct ot_node *nd = &c->f->node[x];
	unsigned int p, m = 0;

	for (p = 1; p <= nd->nports; p++) {
		int32_t y = nd->port[p].peer;
		int32_t v;

		if (y < 0 || c->kns->role[y] == OT_KNS_CA)
			continue;
		v = local(c, l, y);
		if (v < 0)
			continue;
		out[m].key = c->kns->role[y] == OT_KNS_SWITCH ?
			     (uint32_t)c->kns->stage[y] << 16 | c->kns->pos[y] :
			     (uint32_t)v;
		out[m].port = p;
		out[m].peer = y;
		m++;
	}
	qsort(out, m, sizeof(*out), cmp_cand);
	return m;
}

/*
 * The line of dimension d through router r, by coordinates: a router
 * that lost every cable into it (damage) still has it.
 */
static uint32_t line_at(const struct ft_ctx *c, int32_t r, unsigned int d)
{
	return c->rline[(size_t)r * c->n + d];
}

/*
 * The candidate ports of node x (a router or switch of line l) toward
 * line-local target node tgt: routers and switches reached by down-only
 * paths, else up*-down* parents, else (never on a path) the line graph's
 * shortest way.
 */
static unsigned int toward(const struct ft_ctx *c, uint32_t l, int32_t x,
			   const struct cand *ports, unsigned int np,
			   uint32_t tgt, uint8_t *cand)
{
	const struct ot_kns *kns = c->kns;
	const struct ft_line *fl = &c->line[l];
	uint32_t nsw = kns->lines[l].nsw, k = c->k;
	unsigned int i, m = 0;
	uint8_t best = INF;

	if (tgt >= nsw && kns->role[x] == OT_KNS_SWITCH) {
		uint32_t t = tgt - nsw;
		int32_t xi = c->loc[x];
		uint8_t ux = fl->U[(size_t)xi * k + t];

		if (fl->below[(size_t)xi * k + t]) {
			for (i = 0; i < np; i++) {
				int32_t y = ports[i].peer;
				bool ok = kns->role[y] == OT_KNS_SWITCH ?
					  kns->stage[y] + 1 == kns->stage[x] &&
					  fl->below[(size_t)c->loc[y] * k + t] :
					  y == kns->lines[l].router[t];

				if (ok)
					cand[m++] = ports[i].port;
			}
			return m;
		}
		if (ux < INF) {
			for (i = 0; i < np; i++) {
				int32_t y = ports[i].peer;

				if (kns->role[y] == OT_KNS_SWITCH &&
				    kns->stage[y] == kns->stage[x] + 1 &&
				    fl->U[(size_t)c->loc[y] * k + t] + 1 == ux)
					cand[m++] = ports[i].port;
			}
			if (m)
				return m;
		}
	} else if (tgt >= nsw) {
		/* a router of the line: up to its best stage-1 switches */
		uint32_t t = tgt - nsw;

		for (i = 0; i < np; i++)
			if (fl->U[(size_t)c->loc[ports[i].peer] * k + t] < best)
				best = fl->U[(size_t)c->loc[ports[i].peer] * k +
					     t];
		if (best < INF) {
			for (i = 0; i < np; i++)
				if (fl->U[(size_t)c->loc[ports[i].peer] * k +
					  t] == best)
					cand[m++] = ports[i].port;
			return m;
		}
	}
	/* shortest in the line's graph: switch targets, and the rest */
	{
		const uint8_t *dd = fl->dist + (size_t)tgt * fl->nloc;

		best = INF;
		for (i = 0; i < np; i++) {
			uint8_t v = dd[local(c, l, ports[i].peer)];

			if (v < best)
				best = v;
		}
		for (i = 0; i < np && best < INF; i++)
			if (dd[local(c, l, ports[i].peer)] == best)
				cand[m++] = ports[i].port;
	}
	return m;
}

/* Fills line l's candidate cache (c->line[l].cstart, cport). */
static int line_cands(struct ft_ctx *c, uint32_t l, struct cand *ports,
		      uint8_t *cand)
{
	struct ft_line *fl = &c->line[l];
	uint32_t nloc = fl->nloc, i, t, total = 0, cap = nloc * 4 + 16;
	unsigned int np, m;

	fl->cstart = malloc(((size_t)nloc * nloc + 1) * sizeof(*fl->cstart));
	fl->cport = malloc(cap);
	if (!fl->cstart || !fl->cport)
		return ot_error_nomem(c->err, "hdor");
	for (i = 0; i < nloc; i++) {
		int32_t x = global(c, l, i);

		np = line_ports(c, l, x, ports);
		for (t = 0; t < nloc; t++) {
			fl->cstart[(size_t)i * nloc + t] = total;
			m = toward(c, l, x, ports, np, t, cand);
			if (total + m > cap) {
				uint8_t *more;

				cap = 2 * (total + m);
				more = realloc(fl->cport, cap);
				if (!more)
					return ot_error_nomem(c->err, "hdor");
				fl->cport = more;
			}
			memcpy(fl->cport + total, cand, m);
			total += m;
		}
	}
	fl->cstart[(size_t)nloc * nloc] = total;
	return 0;
}

static int prepare_cands(struct ft_ctx *c)
{
	struct cand *ports = malloc((OT_MAX_PORTS + 1) * sizeof(*ports));
	uint8_t cand[OT_MAX_PORTS + 1];
	uint32_t l;
	int error = 0;

	if (!ports)
		return ot_error_nomem(c->err, "hdor");
	for (l = 0; l < c->kns->nlines && !error; l++)
		error = line_cands(c, l, ports, cand);
	free(ports);
	return error;
}

/* The local target of a destination in line l (dimension d). */
static uint32_t target(const struct ft_ctx *c, uint32_t l,
		       const struct ft_dest *dst)
{
	const struct ot_kns *kns = c->kns;
	const struct ot_kns_line *ln = &kns->lines[l];
	int16_t v;

	if (dst->kind == DEST_SWITCH) {
		if (kns->line[dst->node] == (int32_t)l)
			return c->loc[dst->node];
		if (kns->dim[dst->node] == ln->dim)
			return ln->nsw; /* any router does: the one at 0 */
	}
	v = kns->coord[(size_t)dst->node * c->n + ln->dim];
	return ln->nsw + (uint32_t)v;
}

/* Of the candidates (in their fixed order), the fewest destinations. */
static uint8_t pick(uint32_t *cnt, const uint8_t *cand, unsigned int n)
{
	unsigned int i, best = 0;

	for (i = 1; i < n; i++)
		if (cnt[cand[i]] < cnt[cand[best]])
			best = i;
	cnt[cand[best]]++;
	return cand[best];
}

/* The entries no flow of the line set: management LIDs, the others. */
static void fill_switch(struct ft_ctx *c, int32_t x, uint8_t *lft,
			uint32_t *cnt)
{
	const struct ot_kns *kns = c->kns;
	uint32_t l = kns->line[x], i, xi = c->loc[x];
	unsigned int d = kns->dim[x], m;
	const uint16_t *order = c->order[d];
	const uint8_t *cp;

	memset(cnt, 0, (OT_MAX_PORTS + 1) * sizeof(*cnt));
	for (i = 0; i < c->norder; i++) {
		uint16_t lid = order[i];
		const struct ft_dest *dst = &c->dest[lid];

		if (lft[lid] != OT_NO_PORT) {
			cnt[lft[lid]]++;
			continue;
		}
		if (dst->node == x) {
			lft[lid] = 0;
			continue;
		}
		cp = cands(c, l, xi, target(c, l, dst), &m);
		lft[lid] = m ? pick(cnt, cp, m) : OT_NO_PORT;
	}
}

/* The first dimension where router r and the destination differ, or n. */
static unsigned int first_dim(const struct ft_ctx *c, int32_t r,
			      const struct ft_dest *dst)
{
	const int16_t *rc = c->kns->coord + (size_t)r * c->n;
	const int16_t *tc = c->kns->coord + (size_t)dst->node * c->n;
	int skip = dst->kind == DEST_SWITCH ? c->kns->dim[dst->node] : -1;
	unsigned int d;

	for (d = 0; d < c->n; d++)
		if ((int)d != skip && rc[d] != tc[d])
			return d;
	return skip >= 0 ? (unsigned int)skip : c->n;
}

static void fill_router(struct ft_ctx *c, int32_t r, uint8_t *lft,
			uint32_t *cnt)
{
	uint32_t line[64], ri[64], i;
	unsigned int d, m;
	const uint8_t *cp;

	memset(cnt, 0, (OT_MAX_PORTS + 1) * sizeof(*cnt));
	for (i = 0; i < c->norder; i++) {
		uint16_t lid = c->order[c->n][i];

		if (c->dest[lid].node == r)
			lft[lid] = c->dest[lid].kind == DEST_CA ?
				   c->dest[lid].ca_port : 0;
	}
	for (d = 0; d < c->n; d++) {
		line[d] = line_at(c, r, d);
		ri[d] = local(c, line[d], r);
	}
	for (i = 0; i < c->norder; i++) {
		uint16_t lid = c->order[c->n][i];
		const struct ft_dest *dst = &c->dest[lid];

		if (lft[lid] != OT_NO_PORT) {
			cnt[lft[lid]]++;
			continue;
		}
		d = first_dim(c, r, dst);
		cp = cands(c, line[d], ri[d], target(c, line[d], dst), &m);
		lft[lid] = m ? pick(cnt, cp, m) : OT_NO_PORT;
	}
}

/* Minimal when every line is a proper fat tree, alike per dimension. */
static bool all_minimal(const struct ft_ctx *c)
{
	const struct ot_kns *kns = c->kns;
	int32_t first[64];
	uint32_t l;
	unsigned int d;

	if (c->n > 64)
		return false;
	for (d = 0; d < c->n; d++)
		first[d] = -1;
	for (l = 0; l < kns->nlines; l++) {
		d = kns->lines[l].dim;
		if (!c->line[l].proper)
			return false;
		if (first[d] < 0)
			first[d] = l;
		else if (memcmp(c->line[l].lca, c->line[first[d]].lca,
				(size_t)c->k * c->k))
			return false;
	}
	return true;
}

/*
 * The destinations of broken lines (see the top): a LID whose line of
 * dimension d (its coordinates below d) lost the way to its router t
 * there from some router of the line.
 */
static int mark_escapes(struct ft_ctx *c)
{
	const struct ot_kns *kns = c->kns;
	uint32_t l, i, lowl;
	unsigned int d;
	bool any;

	c->escape = calloc((size_t)c->f->max_lid + 1, 1);
	if (c->bounce)
		c->blid = calloc((size_t)c->f->max_lid + 1, 1);
	if (!c->escape || (c->bounce && !c->blid))
		return ot_error_nomem(c->err, "hdor");
	for (l = 0; l < kns->nlines; l++) {
		const struct ot_kns_line *ln = &kns->lines[l];

		if (!c->line[l].broken)
			continue;
		d = ln->dim;
		lowl = low_part(c, ln->router[0], d);
		for (i = 0; i < c->norder; i++) {
			uint16_t lid = c->order[c->n][i];
			const struct ft_dest *dst = &c->dest[lid];

			if (dst->kind == DEST_SWITCH ||
			    c->low[(size_t)lid * c->n + d] != lowl ||
			    !c->line[l].tbad[kns->coord[(size_t)dst->node *
							c->n + d]])
				continue;
			/* the candidate with bounces (route/hdor_ft_bounce.c) */
			if (c->bounce &&
			    ot_hdor_ft_bounceable(c, l,
						  kns->coord[(size_t)dst->node *
							     c->n + d])) {
				c->blid[lid] |= 1;
				continue;
			}
			if (c->blid)
				c->blid[lid] |= 2;
			c->escape[lid] = 1;
			c->any_escape = true;
		}
	}
	if (!c->bounce)
		return 0;
	/* a LID escaped for another line is not bounced */
	for (i = 0, any = false; i <= c->f->max_lid; i++) {
		c->blid[i] = c->blid[i] == 1;
		any |= c->blid[i];
	}
	if (!any)
		return ot_refuse(c->err, OT_ERR_DAMAGE,
				 "hdor: no two-plane pair to bounce");
	return 0;
}

/* What path_sl and the promise's rule read: the escaped LIDs. */
struct ft_esc {
	uint8_t *escape; /* per LID: its escape layer's SL, or NULL: none */
	uint8_t evl[OT_NUM_SLS]; /* an escape layer's SL: its VL */
	bool lay[OT_NUM_SLS];    /* an escape layer's SL (not an order's) */
	uint16_t max_lid;
	struct ot_kns *kns; /* the promise's (NULL for path_sl) */
	/* twisted pairs (route/hdor_ft_twist.c), and each LID's router */
	uint64_t *twist;
	uint32_t ntwist;
	int32_t *router; /* per LID, -1: none (or NULL: no twist) */
	uint8_t *cls;    /* per line: the SL of its twists */
	uint8_t *mix;    /* per LID: its other order's SL (route/hdor_ft_mix.c) */
	uint64_t *hold;  /* routers keeping dimension order toward such LIDs */
	uint32_t nhold;
	/* bounced pairs and the bounce SLs' VL (route/hdor_ft_bounce.c) */
	uint64_t *bkeys;
	uint32_t nbkeys;
	uint8_t bvl[OT_NUM_SLS];
	/* first-line pairs and their order's SL (route/hdor_ft_first.c) */
	uint64_t *fkeys;
	uint32_t nfkeys;
};

static void ft_esc_free(void *ctx)
{
	struct ft_esc *e = ctx;

	if (!e)
		return;
	free(e->escape);
	free(e->twist);
	free(e->router);
	free(e->cls);
	free(e->mix);
	free(e->hold);
	free(e->bkeys);
	free(e->fkeys);
	ot_kns_free(e->kns);
	free(e);
}

const struct ot_kns *ot_hdor_ft_kns(const struct ot_routing *r)
{
	const struct ft_esc *e = r->promise.ctx;

	return r->promise.free_ctx == ft_esc_free && e ? e->kns : NULL;
}

bool ot_hdor_ft_escape_sl(const struct ot_routing *r, uint8_t sl)
{
	const struct ft_esc *e = r->promise.ctx;

	return r->promise.free_ctx == ft_esc_free && e && sl < OT_NUM_SLS &&
	       e->lay[sl];
}

static uint8_t ft_esc_sl(const struct ft_esc *e, uint16_t slid,
			 uint16_t dlid)
{
	if (dlid > e->max_lid)
		return 0;
	if (e->escape && e->escape[dlid])
		return e->escape[dlid];
	if (e->ntwist && slid <= e->max_lid && e->router[slid] >= 0) {
		int32_t l = ot_hdor_ft_twisted(e->twist, e->ntwist,
					       e->router[slid], dlid);

		if (l >= 0)
			return e->cls[l];
	}
	if (e->nbkeys && slid <= e->max_lid && e->router[slid] >= 0) {
		uint8_t sl = ot_hdor_ft_bounced(e->bkeys, e->nbkeys,
						e->router[slid], dlid);

		if (sl)
			return sl;
	}
	if (e->nfkeys && slid <= e->max_lid && e->router[slid] >= 0) {
		/* first-line keys are laid out as the bounced pairs' */
		uint8_t sl = ot_hdor_ft_bounced(e->fkeys, e->nfkeys,
						e->router[slid], dlid);

		if (sl)
			return sl;
	}
	if (e->nhold && slid <= e->max_lid && e->router[slid] >= 0 &&
	    ot_hdor_ft_held(e->hold, e->nhold, e->router[slid], dlid))
		return 0;
	return e->mix ? e->mix[dlid] : 0;
}

static uint8_t ft_path_sl(const struct ot_routing *r, uint16_t slid,
			  uint16_t dlid)
{
	return ft_esc_sl(r->priv, slid, dlid);
}

static struct ft_esc *ft_esc_new(const struct ft_ctx *c)
{
	struct ft_esc *e = calloc(1, sizeof(*e));
	size_t n = (size_t)c->f->max_lid + 1;
	uint32_t lid;

	if (!e)
		return NULL;
	e->max_lid = c->f->max_lid;
	e->evl[ESC_SL] = 1;
	e->lay[ESC_SL] = true;
	for (lid = 1; lid < c->nlay; lid++) {
		e->evl[c->lsl[lid]] = (uint8_t)(1 + lid);
		e->lay[c->lsl[lid]] = true;
	}
	for (lid = 2; lid < OT_NUM_SLS; lid++)
		if (c->mvl[lid])
			e->evl[lid] = c->mvl[lid];
	if (c->any_escape) {
		e->escape = malloc(n);
		if (!e->escape)
			goto nomem;
		for (lid = 0; lid < n; lid++)
			e->escape[lid] = !c->escape[lid] ? 0 :
					 c->elay ? c->lsl[c->elay[lid]] :
					 ESC_SL;
	}
	if (c->mixsl) {
		e->mix = malloc(n);
		if (!e->mix)
			goto nomem;
		memcpy(e->mix, c->mixsl, n);
	}
	if (c->nhold) {
		e->hold = malloc(c->nhold * sizeof(*e->hold));
		if (!e->hold)
			goto nomem;
		memcpy(e->hold, c->hold, c->nhold * sizeof(*e->hold));
		e->nhold = c->nhold;
	}
	if (c->nbkeys) {
		e->bkeys = malloc(c->nbkeys * sizeof(*e->bkeys));
		if (!e->bkeys)
			goto nomem;
		memcpy(e->bkeys, c->bkeys, c->nbkeys * sizeof(*e->bkeys));
		e->nbkeys = c->nbkeys;
		memcpy(e->bvl, c->bvl, sizeof(e->bvl));
	}
	if (c->nfkeys) {
		e->fkeys = malloc(c->nfkeys * sizeof(*e->fkeys));
		if (!e->fkeys)
			goto nomem;
		memcpy(e->fkeys, c->fkeys, c->nfkeys * sizeof(*e->fkeys));
		e->nfkeys = c->nfkeys;
	}
	if (c->ntwist) {
		e->twist = malloc(c->ntwist * sizeof(*e->twist));
		e->cls = malloc((size_t)c->kns->nlines + 1);
		if (!e->twist || !e->cls)
			goto nomem;
		memcpy(e->cls, c->cls, c->kns->nlines);
		memcpy(e->twist, c->twist, c->ntwist * sizeof(*e->twist));
		e->ntwist = c->ntwist;
	}
	if (c->ntwist || c->nbkeys || c->nhold || c->nfkeys) {
		e->router = malloc(n * sizeof(*e->router));
		if (!e->router)
			goto nomem;
		for (lid = 0; lid < n; lid++)
			e->router[lid] = c->dest[lid].kind == DEST_CA ||
					 c->dest[lid].kind == DEST_ROUTER ?
					 c->dest[lid].node : -1;
	}
	return e;
nomem:
	ft_esc_free(e);
	return NULL;
}

/*
 * SL 0 and VL 0 on every hop by the rule; an escaped LID's layer's SL
 * and VL (SL 1 and VL 1 for the first) on every hop, whose path is the
 * escape layer's (not checked here).
 */
static int ft_rule(const void *ctx, const struct ot_path *p,
		   struct ot_error *why)
{
	const struct ft_esc *e = ctx;
	uint8_t sl = ft_esc_sl(e, p->slid, p->dlid), want;
	unsigned int i;

	if (p->sl != sl)
		return ot_error_set(why, "path SL %u, the engine gives SL %u toward LID %u",
				    p->sl, sl, p->dlid);
	if (sl && e->bvl[sl]) {
		/* a bounce: VL 0 up to its valley, its VL from there on */
		bool more;
		unsigned int v = ot_hdor_ft_valley(e->kns, p->node, p->len,
						   &more);

		if (v == p->len || more)
			return ot_error_set(why, "a bounce SL toward LID %u on a path with %s valley",
					    p->dlid, more ? "more than one" : "no");
		for (i = 0; i + 1 < p->len; i++)
			if (p->vl[i] != (i >= v ? e->bvl[sl] : 0))
				return ot_error_set(why, "hop %u from \"%s\" on VL %u, the bounce's rule gives VL %u",
						    i, e->kns->fabric->node[p->node[i]].desc,
						    p->vl[i], i >= v ? e->bvl[sl] : 0);
		return 0;
	}
	for (i = 0; i + 1 < p->len; i++) {
		/*
		 * A twist: VL 0 from the CA, VL 1 from its router on (the
		 * twist's line), then VL 0 for good.
		 */
		if (e->evl[sl] || !sl)
			want = e->evl[sl];
		else if (i < 2)
			want = i;
		else
			want = p->vl[i - 1] && p->vl[i] == 1;
		if (p->vl[i] != want)
			return ot_error_set(why, "hop %u from \"%s\" on VL %u, the rule gives VL %u",
					    i, e->kns->fabric->node[p->node[i]].desc,
					    p->vl[i], want);
	}
	if (sl)
		return 0;
	return ot_hdor_ft_path(e->kns, p->node, p->len, why);
}

/*
 * The deadlock check of route/hdor_ft_twist.c: VL 1 carries twisted
 * paths and the escape layer's, which no ranking orders, so the channel
 * dependency graph of the tables as they stand is searched for a cycle.
 * 1 cycle, 0 none, -1 with c->err set.
 */
static int cyclic_now(struct ft_ctx *c, struct ot_routing *out)
{
	int cyc;

	out->priv = ft_esc_new(c);
	if (!out->priv)
		return ot_error_nomem(c->err, "hdor");
	out->free_priv = ft_esc_free;
	out->path_sl = ft_path_sl;
	out->path_sl_by_switch = true;
	cyc = ot_hdor_ft_twist_cyclic(out);
	ft_esc_free(out->priv);
	out->priv = NULL;
	out->free_priv = NULL;
	out->path_sl = NULL;
	c->checks++;
	if (cyc < 0)
		return ot_error_nomem(c->err, "hdor");
	return cyc;
}

#define TW_MAX_CHECKS 32

/* The SLs in use before other orders (route/hdor_ft_mix.c), as bits. */
static uint32_t used_sls(const struct ft_ctx *c)
{
	uint32_t sls = 1u | (c->any_escape ? 1u << ESC_SL : 0), i;

	for (i = 1; c->any_escape && i < c->nlay; i++)
		sls |= 1u << c->lsl[i];
	for (i = 0; c->ntwist && i < c->kns->nlines; i++)
		sls |= c->cls[i] ? 1u << c->cls[i] : 0;
	for (i = 2; i < OT_NUM_SLS; i++)
		sls |= c->bvl[i] ? 1u << i : 0;
	return sls;
}

/*
 * Twistable LIDs lo..hi-1, on the escape layer now: twisted together
 * where the graph stays acyclic, else halved (and on the escape layer
 * past TW_MAX_CHECKS searches).
 */
static int settle_range(struct ft_ctx *c, struct ot_routing *out,
			uint32_t lo, uint32_t hi)
{
	int cyc;

	if (lo >= hi || c->checks >= TW_MAX_CHECKS)
		return 0;
	if (ot_hdor_ft_twist_set(c, out->lft, lo, hi, true))
		return -1;
	cyc = cyclic_now(c, out);
	if (cyc <= 0)
		return cyc;
	if (ot_hdor_ft_twist_set(c, out->lft, lo, hi, false))
		return -1;
	if (hi - lo == 1)
		return 0;
	if (settle_range(c, out, lo, lo + (hi - lo) / 2))
		return -1;
	return settle_range(c, out, lo + (hi - lo) / 2, hi);
}

/*
 * Every twistable LID twisted when that leaves no cycle; else, from all
 * on the escape layer (acyclic: escape.c's ranking on VL 1, dimension
 * order on VL 0), the ones that leave none, in the base order.
 */
static int settle(struct ft_ctx *c, struct ot_routing *out)
{
	int cyc;

	out->nvls = 1 + (c->nlay > 1 ? c->nlay : 1);
	ot_hdor_ft_twist_keep_escape(c, out->lft);
	if (ot_hdor_ft_twist_set(c, out->lft, 0, c->tw.n, true))
		return -1;
	cyc = cyclic_now(c, out);
	if (cyc <= 0)
		return cyc;
	if (ot_hdor_ft_twist_set(c, out->lft, 0, c->tw.n, false))
		return -1;
	cyc = settle_range(c, out, 0, c->tw.n);
	return cyc;
}

static void free_ctx(struct ft_ctx *c)
{
	uint32_t l;
	unsigned int d;

	free(c->dest);
	if (c->order)
		for (d = 0; d <= c->n; d++)
			free(c->order[d]);
	free(c->order);
	free(c->low);
	free(c->loc);
	free(c->rline);
	free(c->escape);
	free(c->elay);
	free(c->epos);
	free(c->enode);
	free(c->hop);
	free(c->twist);
	free(c->tw.lid);
	free(c->tw.twcol);
	free(c->tw.escol);
	free(c->tw.on);
	free(c->tw.kend);
	free(c->tw.keys);
	free(c->tw.conf);
	free(c->tw.first);
	free(c->tw.par);
	free(c->tw.par0);
	free(c->tw.fl);
	free(c->tw.gi);
	free(c->tw.agg);
	free(c->tw.undo);
	free(c->tw.mark);
	free(c->cls);
	free(c->mixsl);
	free(c->hold);
	free(c->fkeys);
	free(c->fundo);
	free(c->blid);
	free(c->bkeys);
	if (c->esc_ready)
		ot_escape_free(&c->esc);
	if (c->line)
		for (l = 0; l < c->kns->nlines; l++) {
			free(c->line[l].below);
			free(c->line[l].U);
			free(c->line[l].dist);
			free(c->line[l].lca);
			free(c->line[l].tbad);
			free(c->line[l].cstart);
			free(c->line[l].cport);
		}
	free(c->line);
}

static int route_ft(const struct ot_fabric *f, struct ot_kns *kns,
		    const struct ot_engine_budget *b, struct ot_routing *out,
		    struct ot_error *err, bool bounce, bool ca_deal,
		    bool *moved, bool all_orders, unsigned int max_lay)
{
	struct ft_ctx c = { .f = f, .kns = kns, .err = err, .bounce = bounce,
			    .k = kns->k, .n = kns->n, .nlay = 1,
			    .lsl = { ESC_SL }, .ca_deal = ca_deal,
			    .all_orders = all_orders,
			    /* the candidate with bounces keeps one for them */
			    .max_vls = (b ? b->max_vls : ESC_DEFAULT_VLS) -
				       (bounce ? 1 : 0),
			    .max_sls = b ? b->max_sls : OT_NUM_SLS,
			    .max_lay = max_lay };
	struct ot_promise *pr = &out->promise;
	struct ft_esc *pe = NULL;
	uint32_t *w = NULL;
	double t = ot_now_ms();
	uint32_t i;
	bool vl1;
	int error;

	if (kns->n > 64) {
		ot_kns_free(kns);
		return ot_refuse(err, OT_ERR_TOPOLOGY,
				 "a KNS of %u dimensions; hdor routes up to 64",
				 c.n);
	}
	error = prepare_dests(&c);
	if (!error)
		error = prepare_lines(&c);
	if (!error)
		error = mark_escapes(&c);
	if (!error)
		error = ot_hdor_set_labels(kns, out, err);
	if (!error)
		error = prepare_cands(&c);
	if (!error && !(w = malloc((OT_MAX_PORTS + 1) * sizeof(*w))))
		error = ot_error_nomem(err, "hdor");
	if (error)
		goto out;
	ot_routing_phase(out, "lines", t);
	t = ot_now_ms();
	error = ot_hdor_ft_balance(&c, out);
	if (error)
		goto out;
	ot_routing_phase(out, "spread", t);
	t = ot_now_ms();
	for (i = 0; i < f->nnodes; i++) {
		if (kns->role[i] == OT_KNS_ROUTER)
			fill_router(&c, i, out->lft[i], w);
		else if (kns->role[i] == OT_KNS_SWITCH)
			fill_switch(&c, i, out->lft[i], w);
	}
	ot_hdor_ft_mark_unreached(&c, out->lft);
	error = ot_hdor_ft_twist(&c, out->lft);
	if (!error && c.any_escape)
		error = ot_hdor_ft_escape_fill(&c, out->lft);
	if (!error && c.any_escape)
		error = ot_hdor_ft_twist_sl2vl(&c, out);
	if (!error && c.tw.n)
		error = settle(&c, out);
	if (!error && (c.any_escape || c.ntwist))
		error = ot_hdor_ft_fill_holes(&c, out->lft);
	if (error)
		goto out;
	vl1 = c.any_escape || c.ntwist;
	ot_routing_phase(out, "fill", t);
	t = ot_now_ms();
	c.max_vls += c.bounce ? 1 : 0;
	if (c.bounce)
		error = ot_hdor_ft_bounce(&c, out, vl1 ? 1 + c.nlay : 1,
					  used_sls(&c), cyclic_now);
	if (error)
		goto out;
	error = ot_hdor_ft_mix(&c, out, (vl1 ? 1 + c.nlay : 1) + c.nbounce,
			       used_sls(&c), cyclic_now);
	if (error)
		goto out;
	ot_routing_phase(out, "orders", t);
	out->nvls = (vl1 ? 1 + c.nlay : 1) + c.nbounce + c.nmix;
	out->needs_qos = vl1 || c.nmix || c.nbounce;
	if (!(pe = ft_esc_new(&c)) || !(out->priv = ft_esc_new(&c))) {
		error = ot_error_nomem(err, "hdor");
		goto out;
	}
	out->free_priv = ft_esc_free;
	out->path_sl = ft_path_sl;
	out->path_sl_by_switch = true;
	pr->text = vl1 ?
		"Hybrid-DOR over fat-tree lines (damaged: a router that dimension order cannot carry to a destination twists, its CAs' packets cross one of its other lines first, then go on in dimension order, on SL 1 and VL 1; the destinations where some router finds no twist on the escape layer, SL 1 and VL 1): every other CA-to-CA path corrects the differing dimensions in increasing order, up*-down* inside each line, on VL 0 and SL 0" :
		"Hybrid-DOR over fat-tree lines: every CA-to-CA path corrects the differing dimensions in increasing order, up*-down* inside each line, on VL 0 and SL 0";
	if (c.nmix)
		pr->text = c.nhold ?
			"Hybrid-DOR over fat-tree lines, damaged: the CA LIDs of some routers with fewer cables into a line take another dimension order (one dimension first, then the others in increasing order), each order on an SL and VL of its own on every hop, except from a router with no up*-down* way into the order's first line, whose CAs keep dimension order toward them; twisted pairs and escaped destinations on SL 1 and VL 1 or a further escape layer's; every other CA-to-CA path corrects the differing dimensions in increasing order, up*-down* inside each line, on VL 0 and SL 0" :
			"Hybrid-DOR over fat-tree lines, damaged: the CA LIDs of some routers with fewer cables into a line take another dimension order (one dimension first, then the others in increasing order), each order on an SL and VL of its own on every hop; twisted pairs and escaped destinations on SL 1 and VL 1 or a further escape layer's; every other CA-to-CA path corrects the differing dimensions in increasing order, up*-down* inside each line, on VL 0 and SL 0";
	if (c.nfkeys)
		pr->text = "Hybrid-DOR over fat-tree lines, damaged: the CA LIDs of some routers with fewer cables into a line, and some routers' own CAs' packets toward a CA LID no other router's path passes them for, take another dimension order, each order on an SL and VL of its own on every hop (a router with no up*-down* way into a moved LID's first line keeps dimension order toward it); twisted pairs and escaped destinations on SL 1 and VL 1 or a further escape layer's; every other CA-to-CA path corrects the differing dimensions in increasing order, up*-down* inside each line, on VL 0 and SL 0";
	if (c.nbounce)
		pr->text = "Hybrid-DOR over fat-tree lines, damaged with two-plane lines: a pair whose line has no up*-down* way from its entry router to its target bounces through a third router of the line (down there and up again in the other plane), on an SL of its own per dimension, VL 0 up to the bounce and a VL of its own from there on; twisted pairs, escaped destinations and other dimension orders on their SLs and VLs as without the bounce; every other CA-to-CA path corrects the differing dimensions in increasing order, up*-down* inside each line, on VL 0 and SL 0";
	pr->minimal = !vl1 && !c.nbounce && all_minimal(&c) ?
		      OT_MINIMAL_ALL : OT_MINIMAL_NONE;
	pr->max_switch_hops = vl1 || c.nbounce ? 0 :
			      2 * kns->stages * kns->n;
	pr->sls = used_sls(&c);
	for (i = 2; i < OT_NUM_SLS; i++)
		pr->sls |= c.mvl[i] || c.bvl[i] ? 1u << i : 0;
	pr->rule = ft_rule;
	pr->source_free = true;
	pr->rule_text = c.nlay > 1 ?
		"SL 0, VL 0: dimensions in increasing order, each line crossed up then down to the destination's coordinate; twisted pairs and escaped destinations: SL 1 on VL 1 on every hop, or a further escape layer's SL on its VL (2 and up) on every hop" :
		vl1 ?
		"SL 0, VL 0: dimensions in increasing order, each line crossed up then down to the destination's coordinate; twisted pairs and escaped destinations: SL 1 on VL 1 on every hop" :
		"dimensions in increasing order, each line crossed up then down to the destination's coordinate";
	if (c.nbounce)
		pr->rule_text = "SL 0, VL 0: dimensions in increasing order, each line crossed up then down to the destination's coordinate; a bounce SL: one valley (down to a node of a line and up again in it), VL 0 before it and the bounce VL from it on; twisted pairs and escaped destinations on their SLs and VLs as without the bounce";
	pe->kns = kns;
	pr->ctx = pe;
	pr->free_ctx = ft_esc_free;
	pe = NULL;
	kns = NULL;
out:
	if (moved)
		*moved = c.moved;
	ft_esc_free(pe);
	free(w);
	free_ctx(&c);
	ot_kns_free(kns);
	return error;
}

int ot_hdor_ft_route(const struct ot_fabric *f, struct ot_kns *kns,
		     const struct ot_engine_budget *b, struct ot_routing *out,
		     struct ot_error *err)
{
	return route_ft(f, kns, b, out, err, false, false, NULL, false, 0);
}

int ot_hdor_ft_route_orders(const struct ot_fabric *f, struct ot_kns *kns,
			    const struct ot_engine_budget *b,
			    struct ot_routing *out, struct ot_error *err)
{
	return route_ft(f, kns, b, out, err, false, false, NULL, true, 0);
}

int ot_hdor_ft_route_bounce(const struct ot_fabric *f, struct ot_kns *kns,
			    const struct ot_engine_budget *b, bool ca_deal,
			    struct ot_routing *out, struct ot_error *err)
{
	return route_ft(f, kns, b, out, err, true, ca_deal, NULL, false, 0);
}

int ot_hdor_ft_route_ca(const struct ot_fabric *f, struct ot_kns *kns,
			const struct ot_engine_budget *b, bool ca_deal,
			bool *moved, struct ot_routing *out,
			struct ot_error *err)
{
	return route_ft(f, kns, b, out, err, false, ca_deal, moved, false,
			0);
}

int ot_hdor_ft_route_layers(const struct ot_fabric *f, struct ot_kns *kns,
			    const struct ot_engine_budget *b,
			    unsigned int layers, struct ot_routing *out,
			    struct ot_error *err)
{
	return route_ft(f, kns, b, out, err, false, true, NULL, false,
			layers ? layers : 1);
}
