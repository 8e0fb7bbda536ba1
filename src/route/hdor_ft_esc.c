// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * hdor on fat-tree lines (route/hdor_ft.c, whose top comment states the
 * rule and the deadlock argument): the escape layer.  The LIDs no rule
 * or twist carries get up*-down* paths over every switch and router
 * (route/escape.h), its root the trial root whose busiest channel carries
 * least with the loads dimension order and twists already put on the
 * cables, each switch's next hop the least loaded legal one; and the
 * entries a switch still lacks for a CA LID point to a neighbour that
 * reaches it (fill_holes).
 */
#include <stdlib.h>
#include <string.h>

#include "model/routing.h"
#include "route/escape.h"
#include "route/hdor_ft.h"
#include "route/hdor_ft_int.h"

/* Any LID a switch or router has no entry for by the rule: escaped. */
void ot_hdor_ft_mark_unreached(struct ft_ctx *c, uint8_t **lft)
{
	uint32_t x, lid;

	for (x = 0; x < c->f->nnodes; x++) {
		if (c->kns->role[x] != OT_KNS_ROUTER &&
		    c->kns->role[x] != OT_KNS_SWITCH)
			continue;
		for (lid = 1; lid <= c->f->max_lid; lid++)
			if (lft[x][lid] == OT_NO_PORT &&
			    c->dest[lid].kind != DEST_NONE && !c->escape[lid]) {
				c->escape[lid] = 1;
				c->any_escape = true;
			}
	}
}

/*
 * The escape layer's positions: the routers by their coordinates (as a
 * number), then each line's switches in line order, by stage and
 * position: nothing in it depends on node order or port numbers.
 */
static int escape_positions(struct ft_ctx *c)
{
	const struct ot_kns *kns = c->kns;
	const struct ot_fabric *f = c->f;
	uint32_t i, l, nr = 1, m = 0;
	unsigned int d;

	for (d = 0; d < c->n; d++)
		nr *= c->k;
	c->epos = malloc(((size_t)f->nnodes + 1) * sizeof(*c->epos));
	c->enode = malloc(((size_t)f->nnodes + 1) * sizeof(*c->enode));
	c->hop = malloc((size_t)f->nnodes + 1);
	if (!c->epos || !c->enode || !c->hop)
		return ot_error_nomem(c->err, "hdor");
	for (i = 0; i < f->nnodes; i++)
		c->epos[i] = -1;
	for (i = 0; i < nr; i++) {
		int32_t r = kns->router_at[i];

		if (r >= 0 && c->epos[r] < 0) {
			c->epos[r] = m;
			c->enode[m++] = r;
		}
	}
	for (l = 0; l < kns->nlines; l++)
		for (i = 0; i < kns->lines[l].nsw; i++) {
			int32_t x = kns->lines[l].sw[i];

			c->epos[x] = m;
			c->enode[m++] = x;
		}
	c->nepos = m;
	return 0;
}

/* Positions r and 0 swapped: r becomes the layer's root (see escape.c). */
static void swap_root(struct ft_ctx *c, uint32_t r)
{
	int32_t a = c->enode[0], b = c->enode[r];

	c->enode[0] = b;
	c->enode[r] = a;
	c->epos[a] = (int32_t)r;
	c->epos[b] = 0;
}

/*
 * The channel loads of the layer c->esc before any escaped LID: from
 * base, per node and port (NULL: none), each channel the sum over the
 * cables between its two ends.
 */
static void layer_base(const struct ft_ctx *c, const struct ot_escape *esc,
		       const int32_t *enode, const double *base, double *load)
{
	uint32_t s, j;
	unsigned int p;

	for (s = 0; s < c->nepos && base; s++) {
		int32_t x = enode[s];
		const struct ot_node *nd = &c->f->node[x];

		for (j = esc->start[s]; j < esc->start[s + 1]; j++)
			for (p = 1; p <= nd->nports; p++)
				if (nd->port[p].peer == enode[esc->adj[j]])
					load[j] += base[(size_t)x *
							(OT_MAX_PORTS + 1) + p];
	}
}

static void escape_base(const struct ft_ctx *c, const double *base,
			double *load)
{
	layer_base(c, &c->esc, c->enode, base, load);
}

/*
 * Deal only CA-to-CA traffic (c->ca_deal; route/hdor.c tries it and
 * keeps it only where the busiest channel falls).  The final deal, with
 * the tables at hand, fills every escaped LID in the base order, and
 * each tree added its loads to the ones the next LIDs' next hops and
 * layers are chosen by; but a switch's or router's LID carries no
 * CA-to-CA traffic, and a LID a twist may take is counted as twisted in
 * the base loads already.  Their phantom loads (on `gen kns 12 2 --cas 1
 * --links 1 --down 2,2,3 --up 2,3,1 --parallel 2,2 --drop-links 0.1
 * --drop-switches 0.05 --seed 831 --shuffle-ports 36` the busiest
 * channel seen by the deal carried 16,430 against at most 272 of real
 * traffic) made the deal blind: four destinations' trees on one router's
 * cable into a line, 385 of the 500 flows on the busiest channel.  The
 * root trials (lft NULL) already left those LIDs out; with c->ca_deal the
 * final deal does too: such a LID's tree is filled, its loads dropped.
 * The trees are the same up*-down* trees of their layers' orders, so
 * deadlock freedom is as before (the twists' cycle search runs after).
 */
struct ca_deal {
	bool on, held;
	uint32_t nch;
	double *keep; /* the loads before a LID that adds none */
};

static int ca_deal_init(struct ft_ctx *c, struct ca_deal *d, uint32_t nch,
			uint8_t **lft)
{
	memset(d, 0, sizeof(*d));
	if (!c->ca_deal || !lft)
		return 0;
	d->keep = malloc(((size_t)nch + 1) * sizeof(*d->keep));
	if (!d->keep)
		return ot_error_nomem(c->err, "hdor");
	d->on = true;
	d->nch = nch;
	return 0;
}

/* Before LID's deal: kept when it adds no load (free_lid false). */
static void ca_deal_before(struct ft_ctx *c, struct ca_deal *d,
			   const double *load, bool free_lid)
{
	if (!d->on)
		return;
	if (free_lid)
		c->moved |= d->held; /* dealt by other loads than before */
	else
		memcpy(d->keep, load, d->nch * sizeof(*load));
}

static void ca_deal_after(struct ca_deal *d, double *load, bool free_lid)
{
	if (!d->on || free_lid)
		return;
	memcpy(load, d->keep, d->nch * sizeof(*load));
	d->held = true;
}

/*
 * The escaped LIDs' entries on the layer c->esc, in c->order with seq
 * i for the i-th LID, each switch's next hop the least loaded of its
 * legal shortest ones under uniform traffic (inject: each position's
 * CAs; load: per channel, from base's); into lft, or with lft NULL only
 * *worst, the largest channel load with the CA LIDs (the others carry
 * no CA-to-CA traffic) that no twist may take (twj[lid] < 0).
 */
static int escape_layer_fill(struct ft_ctx *c, const double *inject,
			     const double *base, const int32_t *twj,
			     uint8_t **lft, double *worst)
{
	uint32_t i, s, nch = c->esc.start[c->nepos];
	double *load = calloc((size_t)nch + 1, sizeof(*load));
	int error = load ? 0 : ot_error_nomem(c->err, "hdor");
	struct ca_deal cd = { 0 };

	if (!error)
		escape_base(c, base, load);
	if (!error)
		error = ca_deal_init(c, &cd, nch, lft);
	for (i = 0; i < c->norder && !error; i++) {
		uint16_t lid = c->order[c->n][i];
		const struct ft_dest *dst = &c->dest[lid];
		bool free_lid = dst->kind == DEST_CA && twj[lid] < 0;

		if (!c->escape[lid] || (!lft && !free_lid))
			continue;
		ca_deal_before(c, &cd, load, free_lid);
		error = ot_escape_ports_balanced(&c->esc, c->f, c->enode,
						 (uint32_t)c->epos[dst->node],
						 i, inject, load,
						 dst->kind == DEST_CA ?
						 dst->ca_port : 0,
						 c->hop, "hdor", c->err);
		ca_deal_after(&cd, load, free_lid);
		for (s = 0; s < c->nepos && !error && lft; s++)
			lft[c->enode[s]][lid] = c->hop[c->enode[s]];
	}
	for (*worst = 0, i = 0; i < nch && load; i++)
		if (load[i] > *worst)
			*worst = load[i];
	free(cd.keep);
	free(load);
	return error;
}

/* Bound on (routers with CAs) x LIDs for escape_dor_load(). */
#define ESC_BASE_WORK 20000000ull

/*
 * The uniform load, per node and port, of the CA LIDs off the escape
 * layer as the tables stand (dimension order and twists, whose first
 * entry is the source router's own), and of the twistable ones as their
 * twists would take them (twj[lid]: the column in c->tw.twcol): every
 * router with CAs sends inject to each, walked hop by hop.  NULL (no
 * base) on fabrics too large for it, or out of memory.
 */
static double *escape_dor_load(const struct ft_ctx *c, uint8_t **lft,
			       const double *inject, const int32_t *twj)
{
	const struct ot_fabric *f = c->f;
	size_t nn = f->nnodes;
	double *base;
	uint32_t s, i, hops;

	if ((uint64_t)c->nepos * c->norder > ESC_BASE_WORK)
		return NULL;
	base = calloc(nn * (OT_MAX_PORTS + 1), sizeof(*base));
	for (s = 0; s < c->nepos && base; s++) {
		if (!inject[s])
			continue;
		for (i = 0; i < c->norder; i++) {
			uint16_t lid = c->order[c->n][i];
			const uint8_t *col = twj[lid] >= 0 ?
				c->tw.twcol + (size_t)twj[lid] * nn : NULL;
			int32_t x = c->enode[s];

			if ((c->escape[lid] && !col) ||
			    c->dest[lid].kind != DEST_CA)
				continue;
			for (hops = 0; x >= 0 && c->kns->role[x] != OT_KNS_CA &&
				       hops < f->nnodes; hops++) {
				unsigned int p = col ? col[x] : lft[x][lid];

				if (p == 0 || p == OT_NO_PORT ||
				    p > f->node[x].nports)
					break;
				base[(size_t)x * (OT_MAX_PORTS + 1) + p] +=
					inject[s];
				x = f->node[x].port[p].peer;
			}
		}
	}
	return base;
}

/*
 * The trials' work (escaped CA LIDs x channels and positions per root),
 * bounded over all of them: 0.3-0.4 s more route time on the damaged
 * fabrics of doc/kns-fattree.md (load 9); a third of it gave up about a
 * tenth of the gain on classes A-C there.
 */
#define ESC_ROOT_WORK 30000000ull

/*
 * The root of the layer.  Up*-down* sends what crosses the fabric
 * through the region its order puts on top, and which switch is the
 * root decides where that is: on the damaged e2e fabric (`gen kns 8 2
 * --cas 2 --down 4,2 --up 2,4 --drop-links 0.15 --drop-switches 0.1
 * --seed 2`) uniform ranges from 0.03 to 0.18 over the 250 roots, and
 * the most central switches are among the worst.  So the layer is built
 * from each candidate root (every position, or evenly spaced ones where
 * that would take too long) and the one whose busiest channel carries
 * the least escaped traffic kept (ties: the first, in position order).
 * Positions follow the coordinates, so the choice does too.
 */
static int escape_root(struct ft_ctx *c, const double *inject,
		       const double *base, const int32_t *twj, double *found)
{
	uint64_t work = 0, nesc = 0, trials, step;
	uint32_t r, best = 0, i;
	double worst, least = 0;
	int error = 0;

	*found = -1;

	for (i = 0; i < c->norder; i++)
		nesc += c->escape[c->order[c->n][i]] &&
			c->dest[c->order[c->n][i]].kind == DEST_CA &&
			twj[c->order[c->n][i]] < 0;
	if (!nesc) /* twists may take them all: the first position */
		return 0;
	if (ot_escape_init_nodes(&c->esc, c->f, c->nepos, c->enode, c->epos,
				 c->err))
		return -1;
	work = nesc * ((uint64_t)c->esc.start[c->nepos] + c->nepos) + 1;
	ot_escape_free(&c->esc);
	trials = ESC_ROOT_WORK / work;
	if (trials <= 1) /* too large to try: the first position */
		return 0;
	step = (c->nepos + trials - 1) / trials;
	if (step < 1)
		step = 1;
	for (r = 0; r < c->nepos && !error; r += step) {
		swap_root(c, r);
		error = ot_escape_init_nodes(&c->esc, c->f, c->nepos, c->enode,
					     c->epos, c->err);
		if (!error)
			error = escape_layer_fill(c, inject, base, twj, NULL,
						  &worst);
		ot_escape_free(&c->esc);
		swap_root(c, r);
		if (!error && (!r || worst < least - 1e-9)) {
			least = worst;
			best = r;
		}
	}
	if (!error) {
		swap_root(c, best);
		*found = least;
	}
	return error;
}

/*
 * Several escape layers (up to c->max_vls - 1, with SLs to spare): the
 * same up*-down* over the same cables, each from its own root, each on a
 * VL of its own.  A packet never changes layer (its destination LID
 * decides it), and each layer is acyclic on its VL (escape.c's ranking),
 * so together they are still free of deadlock.  An escaped CA LID no
 * twist may take goes, in the base order, to the layer whose channels
 * along its new paths end up least loaded (its busiest one; ties: the
 * lower layer); the others stay on the first layer.
 */
struct esc_lay {
	int32_t *enode, *epos; /* the first layer's, this one's root first */
	struct ot_escape esc;
	bool ready;
	uint32_t *bun;  /* per channel: the first layer's of the same cables */
	double *inject; /* per position: its CAs */
	double *load;   /* per channel: scratch */
};

static void lay_free(struct esc_lay *y)
{
	if (y->ready)
		ot_escape_free(&y->esc);
	free(y->enode);
	free(y->epos);
	free(y->bun);
	free(y->inject);
	free(y->load);
	memset(y, 0, sizeof(*y));
}

/*
 * Layer y from root r (a position of the first layer); y0: the first
 * layer (NULL: y is it).
 */
static int lay_init(struct ft_ctx *c, struct esc_lay *y,
		    const struct esc_lay *y0, uint32_t r,
		    const double *inject)
{
	size_t nn = c->f->nnodes;
	uint32_t s, j, j0, nch;
	int32_t a, b;

	y->enode = malloc(((size_t)c->nepos + 1) * sizeof(*y->enode));
	y->epos = malloc((nn + 1) * sizeof(*y->epos));
	y->inject = malloc(((size_t)c->nepos + 1) * sizeof(*y->inject));
	if (!y->enode || !y->epos || !y->inject)
		return ot_error_nomem(c->err, "hdor");
	memcpy(y->enode, c->enode, (size_t)c->nepos * sizeof(*y->enode));
	memcpy(y->epos, c->epos, nn * sizeof(*y->epos));
	a = y->enode[0];
	b = y->enode[r];
	y->enode[0] = b;
	y->enode[r] = a;
	y->epos[a] = (int32_t)r;
	y->epos[b] = 0;
	if (ot_escape_init_nodes(&y->esc, c->f, c->nepos, y->enode, y->epos,
				 c->err))
		return -1;
	y->ready = true;
	nch = y->esc.start[c->nepos];
	y->bun = malloc(((size_t)nch + 1) * sizeof(*y->bun));
	y->load = malloc(((size_t)nch + 1) * sizeof(*y->load));
	if (!y->bun || !y->load)
		return ot_error_nomem(c->err, "hdor");
	for (s = 0; s < c->nepos; s++) {
		uint32_t s0 = (uint32_t)c->epos[y->enode[s]];

		y->inject[s] = inject[s0];
		for (j = y->esc.start[s]; j < y->esc.start[s + 1]; j++) {
			int32_t t0 = c->epos[y->enode[y->esc.adj[j]]];

			y->bun[j] = j;
			if (!y0)
				continue;
			for (j0 = y0->esc.start[s0];
			     j0 < y0->esc.start[s0 + 1] &&
			     y0->esc.adj[j0] != (uint32_t)t0;
			     j0++)
				;
			y->bun[j] = j0;
		}
	}
	return 0;
}

/*
 * Layer li's entries toward the LID of seq i (its node dst, CA port
 * tport) into c->hop, y->load its channels' loads after (from G, per
 * channel of the first layer).
 */
static int lay_try(struct ft_ctx *c, struct esc_lay *y, const double *G,
		   const struct ft_dest *dst, uint32_t i)
{
	uint32_t j, nch = y->esc.start[c->nepos];

	for (j = 0; j < nch; j++)
		y->load[j] = G[y->bun[j]];
	return ot_escape_ports_balanced(&y->esc, c->f, y->enode,
					(uint32_t)y->epos[dst->node], i,
					y->inject, y->load,
					dst->kind == DEST_CA ? dst->ca_port : 0,
					c->hop, "hdor", c->err);
}

/*
 * The escaped LIDs dealt to nl layers (see above), G the first layer's
 * channel loads (from the base loads on entry); into lft and c->elay,
 * or with lft NULL only the CA LIDs no twist may take; score[0]: the
 * busiest channel's load after, score[1]: the sum of their squares.
 */
static int lay_deal(struct ft_ctx *c, struct esc_lay *lay, unsigned int nl,
		    double *G, const int32_t *twj, uint8_t **lft,
		    double *score)
{
	uint32_t i, j, s, nch = lay[0].esc.start[c->nepos];
	struct ca_deal cd = { 0 };
	int error = ca_deal_init(c, &cd, nch, lft);

	for (i = 0; i < c->norder && !error; i++) {
		uint16_t lid = c->order[c->n][i];
		const struct ft_dest *dst = &c->dest[lid];
		bool free_lid = dst->kind == DEST_CA && twj[lid] < 0;
		unsigned int li, best = 0, m = free_lid ? nl : 1;
		double cost, least = 0;
		struct esc_lay *y;

		if (!c->escape[lid] || (!lft && !free_lid))
			continue;
		ca_deal_before(c, &cd, G, free_lid);
		for (li = 0; li < m && !error; li++) {
			y = &lay[li];
			error = lay_try(c, y, G, dst, i);
			for (cost = 0, j = 0; m > 1 && j < nch; j++)
				cost += y->load[j] * y->load[j] -
					G[y->bun[j]] * G[y->bun[j]];
			if (!li || cost < least - 1e-9) {
				least = cost;
				best = li;
			}
		}
		y = &lay[best];
		if (!error && best != m - 1)
			error = lay_try(c, y, G, dst, i);
		for (j = 0; j < nch && !error; j++)
			G[y->bun[j]] = y->load[j];
		ca_deal_after(&cd, G, free_lid);
		for (s = 0; s < c->nepos && !error && lft; s++)
			lft[y->enode[s]][lid] = c->hop[y->enode[s]];
		if (lft)
			c->elay[lid] = (uint8_t)best;
	}
	free(cd.keep);
	for (score[0] = score[1] = 0, j = 0; j < nch; j++) {
		score[0] = G[j] > score[0] ? G[j] : score[0];
		score[1] += G[j] * G[j];
	}
	return error;
}

/*
 * A layer more is kept when it lowers the busiest channel's load by
 * this much, or leaves that as it is and lowers the sum of the squared
 * loads by this much (the busiest channel alone often cannot move: a
 * router's only cable into a line carries what it must).  A guess: the
 * twists are settled after, so route/hdor.c compares the result with
 * the one-layer routing and keeps the better.
 */
#define ESC_LAY_GAIN 0.02
/* Bound on the trials' work per layer added (see ESC_ROOT_WORK). */
#define ESC_LAY_WORK 30000000ull

/* The SLs left for layers beyond the first: not SL 0, 1, nor a twist's. */
static unsigned int lay_sls(struct ft_ctx *c)
{
	bool used[OT_NUM_SLS] = { true, true };
	unsigned int sl, m = 1;
	uint32_t l;

	for (l = 0; c->cls && l < c->kns->nlines; l++)
		used[c->cls[l]] = true;
	for (sl = 2; sl < OT_NUM_SLS && sl < c->max_sls &&
		     m < ESC_MAX_LAYERS; sl++)
		if (!used[sl])
			c->lsl[m++] = (uint8_t)sl;
	return m;
}

/*
 * Scores a (busiest channel, sum of squares) better than b by the share
 * gain: the busiest lower, or as busy and the sum lower.
 */
static bool better(const double *a, const double *b, double gain)
{
	if (a[0] < b[0] * (1 - gain) - 1e-9)
		return true;
	return a[0] < b[0] + 1e-9 && a[1] < b[1] * (1 - gain) - 1e-9;
}

/* The deal over nl layers from the base loads (see lay_deal). */
static int lay_score(struct ft_ctx *c, struct esc_lay *lay, unsigned int nl,
		     double *G, const double *base, const int32_t *twj,
		     uint8_t **lft, double *score)
{
	memset(G, 0, (size_t)lay[0].esc.start[c->nepos] * sizeof(*G));
	layer_base(c, &lay[0].esc, lay[0].enode, base, G);
	return lay_deal(c, lay, nl, G, twj, lft, score);
}

/*
 * Layers beyond the first (its root c->enode[0]; none where its root
 * was not tried, found < 0): each one added from the trial root whose
 * deal leaves the least sum of squared channel loads, kept while that
 * sum falls by ESC_LAY_GAIN; then, with more than one, every escaped
 * LID's entries (c->nlay: the layers used).
 */
static int escape_layers(struct ft_ctx *c, const double *inject,
			 const double *base, const int32_t *twj,
			 double found, uint8_t **lft)
{
	struct esc_lay lay[ESC_MAX_LAYERS] = { 0 };
	unsigned int maxl = lay_sls(c), nl = 1, li;
	uint64_t nesc = 0, work, trials, step;
	uint32_t i, r, rbest, nch;
	double *G = NULL, score[2], cur[2], bw[2];
	int error = 0;

	c->nlay = 1;
	if (c->max_vls < maxl + 1)
		maxl = c->max_vls > 1 ? c->max_vls - 1 : 1;
	if (c->max_lay && maxl > c->max_lay)
		maxl = c->max_lay;
	if (maxl <= 1 || found < 0)
		return 0;
	error = lay_init(c, &lay[0], NULL, 0, inject);
	nch = error ? 0 : lay[0].esc.start[c->nepos];
	if (!error && !(G = malloc(((size_t)nch + 1) * sizeof(*G))))
		error = ot_error_nomem(c->err, "hdor");
	if (!error)
		error = lay_score(c, lay, 1, G, base, twj, NULL, cur);
	for (i = 0; i < c->norder; i++)
		nesc += c->escape[c->order[c->n][i]] &&
			c->dest[c->order[c->n][i]].kind == DEST_CA &&
			twj[c->order[c->n][i]] < 0;
	while (!error && nl < maxl) {
		work = nesc * (nl + 1) * 2 * ((uint64_t)nch + c->nepos) + 1;
		trials = ESC_LAY_WORK / work;
		if (trials < 1)
			break;
		step = (c->nepos + trials - 1) / trials;
		step = step < 1 ? 1 : step;
		bw[0] = cur[0];
		bw[1] = cur[1];
		rbest = 0;
		for (r = 1; r < c->nepos && !error; r += step) {
			for (li = 1; li < nl && lay[li].enode[0] !=
						     c->enode[r]; li++)
				;
			if (li < nl)
				continue; /* a root already taken */
			error = lay_init(c, &lay[nl], &lay[0], r, inject);
			if (!error)
				error = lay_score(c, lay, nl + 1, G, base, twj,
						  NULL, score);
			lay_free(&lay[nl]);
			if (!error && better(score, bw, 0)) {
				bw[0] = score[0];
				bw[1] = score[1];
				rbest = r;
			}
		}
		if (error || !rbest || !better(bw, cur, ESC_LAY_GAIN))
			break;
		error = lay_init(c, &lay[nl++], &lay[0], rbest, inject);
		cur[0] = bw[0];
		cur[1] = bw[1];
	}
	if (!error && nl > 1) {
		c->elay = calloc((size_t)c->f->max_lid + 1, 1);
		if (!c->elay)
			error = ot_error_nomem(c->err, "hdor");
		if (!error)
			error = lay_score(c, lay, nl, G, base, twj, lft,
					  score);
		for (i = 0; i < c->norder && !error; i++) {
			uint16_t lid = c->order[c->n][i];

			if (c->escape[lid] && c->elay[lid] + 1u > c->nlay)
				c->nlay = c->elay[lid] + 1u;
		}
	}
	for (li = 0; li < ESC_MAX_LAYERS; li++)
		lay_free(&lay[li]);
	free(G);
	return error;
}

/*
 * The escaped LIDs' entries (escape_layer_fill), on the layer from the
 * root escape_root() picks, or dealt to several (escape_layers).
 */
int ot_hdor_ft_escape_fill(struct ft_ctx *c, uint8_t **lft)
{
	double *inject = NULL, *base = NULL, worst, least;
	int32_t *twj = NULL;
	uint32_t s;
	int error = escape_positions(c);

	if (!error && (!(inject = calloc((size_t)c->nepos + 1,
					 sizeof(*inject))) ||
		       !(twj = malloc(((size_t)c->f->max_lid + 1) *
				      sizeof(*twj)))))
		error = ot_error_nomem(c->err, "hdor");
	for (s = 0; s <= c->f->max_lid && !error; s++)
		twj[s] = -1;
	for (s = 0; s < c->tw.n && !error; s++)
		twj[c->tw.lid[s]] = (int32_t)s;
	for (s = 0; s < c->nepos && !error; s++) {
		const struct ot_node *nd = &c->f->node[c->enode[s]];
		unsigned int p;

		for (p = 1; p <= nd->nports; p++)
			inject[s] += nd->port[p].peer >= 0 &&
				     c->f->node[nd->port[p].peer].type ==
					     OT_NODE_CA;
	}
	if (!error)
		base = escape_dor_load(c, lft, inject, twj);
	if (!error)
		error = escape_root(c, inject, base, twj, &least);
	if (!error)
		error = escape_layers(c, inject, base, twj, least, lft);
	if (!error && c->nlay <= 1)
		error = ot_escape_init_nodes(&c->esc, c->f, c->nepos, c->enode,
					     c->epos, c->err);
	if (!error && c->nlay <= 1) {
		c->esc_ready = true;
		error = escape_layer_fill(c, inject, base, twj, lft, &worst);
	}
	free(twj);
	free(inject);
	free(base);
	return error;
}

/*
 * Under damage, switches no CA-to-CA path to a LID passes may be left
 * without an entry for it (twisted LIDs keep only the entries their
 * paths use); the SM's own packets from such a switch (the answer to a
 * query, LID-routed back) would then be dropped.  Each such entry is set
 * toward a neighbour that already reaches the LID, nearest ones first
 * (the least position: coordinates, never ports), so the new entries
 * form trees into the reaching set: no forwarding loop, and no CA-to-CA
 * path changes (none passes there).
 */
int ot_hdor_ft_fill_holes(struct ft_ctx *c, uint8_t **lft)
{
	const struct ot_fabric *f = c->f;
	uint8_t *st = NULL; /* per position: 0 unknown, 1 reaches, 2 not */
	uint32_t *path = NULL, lid, s, n, x;
	bool changed;
	int error = c->epos ? 0 : escape_positions(c);

	if (!error && (!(st = malloc((size_t)c->nepos + 1)) ||
		       !(path = malloc(((size_t)c->nepos + 1) *
				       sizeof(*path)))))
		error = ot_error_nomem(c->err, "hdor");
	for (lid = 1; lid <= f->max_lid && !error; lid++) {
		int32_t o = f->lid_owner[lid].node;

		if (o < 0 || c->dest[lid].kind == DEST_NONE)
			continue;
		for (s = 0; s < c->nepos &&
			    lft[c->enode[s]][lid] != OT_NO_PORT; s++)
			;
		if (s == c->nepos) /* no hole: nothing to do */
			continue;
		memset(st, 0, c->nepos);
		for (s = 0; s < c->nepos; s++) {
			int32_t y = c->enode[s];
			uint8_t v = 0;

			/* walk until known; mark the walk with the answer */
			for (n = 0; !v && n <= c->nepos; n++) {
				unsigned int p = lft[y][lid];

				if (y == o || (p != OT_NO_PORT &&
					       p <= f->node[y].nports &&
					       f->node[y].port[p].peer == o)) {
					v = 1;
					break;
				}
				if (p == 0 || p == OT_NO_PORT ||
				    p > f->node[y].nports ||
				    f->node[y].port[p].peer < 0 ||
				    c->epos[f->node[y].port[p].peer] < 0) {
					v = 2;
					break;
				}
				path[n] = (uint32_t)c->epos[y];
				y = f->node[y].port[p].peer;
				v = st[c->epos[y]];
			}
			v = v ? v : 2;
			st[s] = st[s] ? st[s] : v;
			for (x = 0; x < n; x++)
				st[path[x]] = v;
		}
		do {
			changed = false;
			for (s = 0; s < c->nepos; s++) {
				const struct ot_node *nd = &f->node[c->enode[s]];
				unsigned int p, bp = 0;
				int32_t best = -1;

				if (st[s] == 1 ||
				    lft[c->enode[s]][lid] != OT_NO_PORT)
					continue;
				for (p = 1; p <= nd->nports; p++) {
					int32_t y = nd->port[p].peer;

					if (y >= 0 && c->epos[y] >= 0 &&
					    st[c->epos[y]] == 1 &&
					    (best < 0 || c->epos[y] < best)) {
						best = c->epos[y];
						bp = p;
					}
				}
				if (best < 0)
					continue;
				lft[c->enode[s]][lid] = (uint8_t)bp;
				st[s] = 1;
				changed = true;
			}
		} while (changed);
	}
	free(st);
	free(path);
	return error;
}

/* Bound on the CA pairs ot_hdor_ft_uniform_max() walks. */
#define ESC_UNIFORM_PAIRS 4000000ull

double ot_hdor_ft_uniform_max(const struct ot_routing *r)
{
	return (double)ot_routing_uniform_busiest(r, OT_UNIFORM_CA_LINKS,
						  ESC_UNIFORM_PAIRS);
}
