// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The FlatFly engines' routing rules (the top of core.c says what they
 * are and why they are deadlock-free): the dimension orders, the
 * switches' bundles, the destinations and their layers (orders) and
 * twist coordinates, and the hops toward one destination from every
 * switch -- the variant's, with detours around missing cables, or the
 * escape layer's.  dealer.c deals the hops into bundles over their
 * cables and writes the tables; core.c drives them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "model/routing.h"
#include "route/deal.h"
#include "route/escape.h"
#include "route/ff/ff.h"
#include "topo/flatfly.h"

static bool is_prime(unsigned int x)
{
	unsigned int q;

	if (x < 2)
		return false;
	for (q = 2; q * q <= x; q++)
		if (x % q == 0)
			return false;
	return true;
}

/*
 * The m dimension orders, a Latin rectangle (see the top of the file):
 * the first m rows of the full one, or for Twisted Mixed when orders are
 * shed, those ending in a dimension with parallel cables first (where
 * its twisted destinations go, see twisted_quotas()), then the others,
 * each group in row order.
 */
void ff_build_orders(struct ff_ctx *c, unsigned int m)
{
	unsigned int n = c->n, full = n < FF_MAX_ORDERS ? n : FF_MAX_ORDERS;
	unsigned int r, p, k = 0, pass;
	bool tm = (c->variant & (FF_MIXED | FF_TWISTED)) ==
		  (FF_MIXED | FF_TWISTED);

	c->norders = m;
	for (pass = 0; pass < 2; pass++)
		for (r = 0; r < full && k < m; r++) {
			unsigned int last = is_prime(n + 1) ?
				((r + 1) * n) % (n + 1) - 1 : (n - 1 + r) % n;
			bool wide = tm && m < full && c->ff->width[last] > 1;

			if (wide != !pass)
				continue;
			for (p = 0; p < n; p++)
				c->order[k][p] = is_prime(n + 1) ?
					((r + 1) * (p + 1)) % (n + 1) - 1 :
					(p + r) % n;
			k++;
		}
}

/* "[c(n-1),...,c0]" of a position. */
void ff_coords_str(const struct ff_ctx *c, uint32_t slot, char *buf,
		   size_t len)
{
	const uint8_t *co = ff_coords(c, slot);
	size_t used;
	unsigned int i;

	used = snprintf(buf, len, "[");
	for (i = c->n; i > 0 && used < len; i--)
		used += snprintf(buf + used, len - used, "%u%s", co[i - 1],
				 i > 1 ? "," : "]");
}

/* Names a position for a refusal: the switch there, or its coordinates. */
static void slot_name(const struct ff_ctx *c, uint32_t slot, char *buf,
		      size_t len)
{
	int32_t node = c->ff->slot_node[slot];
	char co[OT_FF_MAX_DIMS * 4 + 4];

	ff_coords_str(c, slot, co, sizeof(co));
	if (node >= 0)
		snprintf(buf, len, "\"%s\" %s", c->f->node[node].desc, co);
	else
		snprintf(buf, len, "the missing switch %s", co);
}

/* The bundle (index into bcnt) of the cable on port p of switch i, or -1. */
static ssize_t port_bundle(const struct ff_ctx *c, uint32_t i, unsigned int p)
{
	const struct ot_ff *ff = c->ff;
	int dim = ot_ff_port_dim(ff, i, p);
	int32_t peer = c->f->node[i].port[p].peer;

	if (dim < 0 || peer < 0 || ff->sw_slot[peer] < 0)
		return -1;
	return (ssize_t)ff->sw_slot[i] * c->sumk + c->koff[dim] +
	       ff_coords(c, ff->sw_slot[peer])[dim];
}

/* Coordinates of every position; the strides and bundle offsets. */
static int prepare_coords(struct ff_ctx *c)
{
	const struct ot_ff *ff = c->ff;
	uint32_t s, rest;
	unsigned int d;

	c->sumk = 0;
	for (d = 0; d < c->n; d++) {
		c->koff[d] = c->sumk;
		c->sumk += ff->size[d];
		c->stride[d] = d ? c->stride[d - 1] * ff->size[d - 1] : 1;
	}
	c->coords = malloc((size_t)ff->nslots * c->n + 1);
	c->bcnt = calloc((size_t)ff->nslots * c->sumk + 1, 1);
	if (!c->coords || !c->bcnt)
		return ot_error_nomem(c->err, c->name);
	for (s = 0; s < ff->nslots; s++) {
		rest = s;
		for (d = 0; d < c->n; d++) {
			c->coords[(size_t)s * c->n + d] = rest % ff->size[d];
			rest /= ff->size[d];
		}
	}
	return 0;
}

/* Counts the cables of every bundle: the widest sizes the port array. */
static int count_bundles(struct ff_ctx *c)
{
	const struct ot_fabric *f = c->f;
	unsigned int p;
	uint32_t i;

	c->maxw = 1;
	for (i = 0; i < f->nnodes; i++) {
		if (!ot_is_switch(f, i))
			continue;
		if (c->ff->sw_slot[i] < 0)
			return ot_refuse(c->err, OT_ERR_TOPOLOGY,
				"%s: switch \"%s\" has no place in the FlatFly mapping",
				c->name, f->node[i].desc);
		for (p = 1; p <= f->node[i].nports; p++) {
			ssize_t b = port_bundle(c, i, p);

			if (b < 0)
				continue;
			if (c->bcnt[b] == 255)
				return ot_refuse(c->err, OT_ERR_TOPOLOGY,
					"%s: switch \"%s\": too many cables to one switch",
					c->name, f->node[i].desc);
			c->bcnt[b]++;
			if (c->bcnt[b] > c->maxw)
				c->maxw = c->bcnt[b];
		}
	}
	return 0;
}

/* Whether every position is filled and every pair in a line cabled. */
static bool is_complete(const struct ff_ctx *c)
{
	unsigned int d, v;
	uint32_t s;

	for (s = 0; s < c->ff->nslots; s++) {
		if (c->ff->slot_node[s] < 0)
			return false;
		for (d = 0; d < c->n; d++)
			for (v = 0; v < c->ff->size[d]; v++)
				if (v != ff_coords(c, s)[d] && !ff_has(c, s, d, v))
					return false;
	}
	return true;
}

/*
 * Coordinates of every position and the bundles of every switch: the
 * cables to each switch of each line, in port order.
 */
int ff_prepare_switches(struct ff_ctx *c)
{
	const struct ot_fabric *f = c->f;
	unsigned int p;
	uint32_t i;

	if (prepare_coords(c) || count_bundles(c))
		return -1;
	c->bport = malloc((size_t)c->ff->nslots * c->sumk * c->maxw + 1);
	if (!c->bport)
		return ot_error_nomem(c->err, c->name);
	memset(c->bcnt, 0, (size_t)c->ff->nslots * c->sumk);
	for (i = 0; i < f->nnodes; i++) {
		if (!ot_is_switch(f, i))
			continue;
		for (p = 1; p <= f->node[i].nports; p++) {
			ssize_t b = port_bundle(c, i, p);

			if (b >= 0)
				c->bport[b * c->maxw + c->bcnt[b]++] = p;
		}
	}
	c->complete = is_complete(c);
	return 0;
}

/* Classifies every LID and sorts the routable ones into dealing order. */
int ff_prepare_dests(struct ff_ctx *c)
{
	const struct ot_fabric *f = c->f;
	const struct ot_ff *ff = c->ff;
	struct ot_deal_key *keys = NULL;
	uint32_t lid, q;
	int error = 0;

	c->dest = calloc((size_t)f->max_lid + 1, sizeof(*c->dest));
	c->lids = malloc(((size_t)f->max_lid + 1) * sizeof(*c->lids));
	keys = malloc(((size_t)f->max_lid + 1) * sizeof(*keys));
	if (!c->dest || !c->lids || !keys) {
		error = ot_error_nomem(c->err, c->name);
		goto out;
	}
	c->nlids = 0;
	for (lid = 1; lid <= f->max_lid; lid++) {
		const struct ot_lid_owner *o = &f->lid_owner[lid];
		struct ff_dest *t = &c->dest[lid];
		const struct ot_port *pt;
		uint64_t key;

		if (o->node < 0)
			continue;
		pt = &f->node[o->node].port[o->port];
		t->offset = (lid - pt->lid) & 0x7f;
		if (ot_is_switch(f, o->node)) {
			t->kind = FF_DEST_SWITCH;
			t->tslot = ff->sw_slot[o->node];
			t->port = 0;
			key = (1ull << 62) + ((uint64_t)t->offset << 54) +
			      ((uint64_t)t->tslot << 8);
		} else {
			if (pt->peer < 0 || !ot_is_switch(f, pt->peer))
				continue; /* nothing can reach it */
			t->kind = FF_DEST_CA;
			t->tslot = ff->sw_slot[pt->peer];
			t->port = pt->peer_port;
			t->index = ot_fabric_end_port_rank(f, pt->peer,
							   o->node, o->port);
			key = ((uint64_t)t->offset << 54) +
			      ((((uint64_t)t->tslot << 8) + t->index) << 8);
		}
		keys[c->nlids].key = key;
		keys[c->nlids].lid = lid;
		c->nlids++;
	}
	ot_deal_sort(keys, c->nlids);
	for (q = 0; q < c->nlids; q++)
		c->lids[q] = keys[q].lid;
out:
	free(keys);
	return error;
}

/* Why the hop from s toward coordinate v of dimension i cannot be made. */
static int refuse_hop(const struct ff_ctx *c, uint32_t s, unsigned int i,
		      unsigned int v, const struct ff_dest *t, const char *what)
{
	uint32_t to = ff_move(c, s, i, v);
	char a[OT_ERROR_LEN / 4], b[OT_ERROR_LEN / 4], d[OT_ERROR_LEN / 4];

	slot_name(c, s, a, sizeof(a));
	slot_name(c, to, b, sizeof(b));
	slot_name(c, t->tslot, d, sizeof(d));
	if (c->ff->slot_node[to] < 0)
		return ot_refuse(c->err, OT_ERR_DAMAGE,
			"%s: %s must %s through %s (dimension %u) toward %s",
			c->name, a, what, b, i, d);
	return ot_refuse(c->err, OT_ERR_DAMAGE,
		"%s: the cable %s - %s (dimension %u) is missing and no switch of that line is cabled to both; %s toward %s is impossible",
		c->name, a, b, i, what, d);
}

/*
 * A switch m on s's line in dimension i, cabled to s and to coordinate v,
 * other than s, v and skip; the candidates are tried from a place that
 * depends on seq, so the detours of different LIDs spread.
 */
static int find_detour(struct ff_ctx *c, uint32_t s, unsigned int i,
		       unsigned int v, unsigned int skip, uint32_t seq)
{
	unsigned int K = c->ff->size[i], k, m;
	unsigned int own = ff_coords(c, s)[i];

	c->seq_used = true;
	if ((int)i == c->sfdim)
		return ff_sfdim_detour(c, s, v, skip, seq);
	for (k = 0; k < K; k++) {
		m = (seq + k) % K;
		if (m == own || m == v || m == skip)
			continue;
		if (ff_has(c, s, i, m) && ff_has(c, ff_move(c, s, i, m), i, v))
			return m;
	}
	return -1;
}

/* The twist: s_L != tau, s != T; only packets of s's own CAs are here. */
static int twist_hop(struct ff_ctx *c, uint32_t s, const struct ff_dest *t,
		     unsigned int L, uint32_t seq, struct ff_hop *h)
{
	const uint8_t *sc = ff_coords(c, s), *tc = ff_coords(c, t->tslot);
	bool on_line = true;
	unsigned int i;
	int m;

	h->dim = L;
	h->v = t->tau;
	if (ff_has(c, s, L, t->tau))
		return 0;
	for (i = 0; i < c->n; i++)
		if (i != L && sc[i] != tc[i])
			on_line = false;
	if (on_line && (int)L != c->sfdim) {
		/*
		 * A detour would be followed by a third hop in L (into T),
		 * an F2 -> F2 dependency.  Going straight to T (untwisted)
		 * is a single first hop.
		 */
		h->v = tc[L];
		if (ff_has(c, s, L, tc[L]))
			return 0;
		return refuse_hop(c, s, L, t->tau, t, "twist");
	}
	m = find_detour(c, s, L, t->tau, t->tau, seq);
	if (m < 0)
		return refuse_hop(c, s, L, t->tau, t, "twist");
	h->v = m;
	c->twist_detour = true;
	c->detours = true;
	return 0;
}

/*
 * Whether every switch that must twist toward tau for t can: directly,
 * through a detour, or straight into T from T's line.
 */
static bool twist_works(struct ff_ctx *c, struct ff_dest *t, unsigned int L,
			unsigned int tau)
{
	const uint8_t *tc = ff_coords(c, t->tslot);
	struct ff_hop h;
	uint32_t s;
	bool ok = true;

	if (tau != tc[L] && !ff_has(c, ff_move(c, t->tslot, L, tau), L, tc[L]))
		return false;
	if (c->complete)
		return true;
	t->tau = tau;
	for (s = 0; s < c->ff->nslots && ok; s++) {
		if (c->ff->slot_node[s] < 0 || s == (uint32_t)t->tslot ||
		    ff_coords(c, s)[L] == tau)
			continue;
		ok = !twist_hop(c, s, t, L, 0, &h);
	}
	return ok;
}

/*
 * Puts t on a layer and picks its twist coordinate.  tau starts at
 * d mod K_L and moves on to d + 1, ... while the final DOR hop into T
 * (from the switch at tau on T's line) has no cable, so the DOR phase
 * never detours in L, or while some switch cannot make its twist hop.
 */
static void assign_layer(struct ff_ctx *c, struct ff_dest *t,
			 unsigned int layer)
{
	unsigned int L, K, k, tau;

	t->layer = layer;
	if (!(c->variant & FF_TWISTED))
		return;
	L = c->order[t->layer][c->n - 1];
	K = c->ff->size[L];
	tau = ff_coords(c, t->tslot)[L];
	if ((int)L == c->sfdim)
		K = 0; /* the Slim Fly dimension twists to T's own (sfdim.c) */
	for (k = 0; k < K; k++)
		if (twist_works(c, t, L, (t->twist0 + k) % K)) {
			tau = (t->twist0 + k) % K;
			break;
		}
	t->tau = tau;
}

/*
 * Twisted Mixed: the quotas, when some layer's last dimension has
 * parallel cables and the switch has a CA per layer.  A twisted
 * destination's final hop carries nearly all its flows on one cable; on
 * a line of single cables that cable also carries its share of all the
 * other traffic, about 1 when CAs = K x w, so about 2 in all whatever
 * the dealing (Twisted DOR's bound), while in a bundle the dealing can
 * give it a cable with less (doc/ff-balance.md).  So each layer ending
 * in a bundle gets two CAs (rank 0: tau = T_L, the minimal path, L
 * first; rank 1 twists), each layer ending in single cables then one
 * (rank 0) while they last, and the other CAs go in turn to the layers
 * ending in bundles, where ranks 2, 3, ... twist too.  false: the
 * quotas of mixed_layer().
 */
static bool twisted_quotas(const struct ff_ctx *c, unsigned int *quota,
			   unsigned int *rem)
{
	unsigned int l, g, wide = 0;

	if ((c->variant & (FF_MIXED | FF_TWISTED)) != (FF_MIXED | FF_TWISTED))
		return false;
	for (l = 0; l < c->norders; l++)
		wide += c->ff->width[c->order[l][c->n - 1]] > 1;
	if (!wide || *rem < c->norders)
		return false;
	for (l = 0; l < c->norders && *rem > 1; l++)
		if (c->ff->width[c->order[l][c->n - 1]] > 1) {
			quota[l] = 2;
			*rem -= 2;
		}
	for (l = 0; l < c->norders && *rem; l++)
		if (c->ff->width[c->order[l][c->n - 1]] <= 1) {
			quota[l] = 1;
			(*rem)--;
		}
	while (*rem)
		for (l = 0; l < c->norders && *rem; l++) {
			g = c->ff->width[c->order[l][c->n - 1]];
			if (g > 1) {
				quota[l]++;
				(*rem)--;
			}
		}
	return true;
}

/*
 * The seed-like quotas of issue 9: multiples of each layer's last width
 * w_i handed out round by round while they fit, what is left one by
 * one.  With equal widths this is d mod m, the seed's rule.
 */
static void greedy_quotas(const struct ff_ctx *c, unsigned int ncas,
			  unsigned int *quota)
{
	unsigned int rem = ncas, l, g;
	bool more = true;

	while (more) {
		more = false;
		for (l = 0; l < c->norders; l++) {
			g = c->ff->width[c->order[l][c->n - 1]];
			g = g ? g : 1;
			if (g <= rem) {
				quota[l] += g;
				rem -= g;
				more = true;
			}
		}
	}
	for (l = 0; rem; l = (l + 1) % c->norders, rem--)
		quota[l]++;
}

/*
 * The bound of the dealing on a complete FlatFly with ncas CAs on every
 * switch when layer l has quota[l] of them (doc/ff-balance.md): a
 * bundle of dimension i, w_i cables, carries for layer l, with i at
 * position p of its order, n = quota[l] x (the sizes after p) DLIDs,
 * each weighing ncas x (the sizes before p) flows (every destination
 * of the class the same).  The dealer keeps each class within one DLID
 * per cable, so no cable of i carries more than
 * U_i = sum_l ceil(n / w_i) x weight, and for a single class (ff-dor,
 * or Mixed with every CA on one layer) some cable carries exactly that.
 * Returns max_i U_i, *sum the sum over i.
 */
static uint64_t quota_bound(const struct ff_ctx *c, unsigned int ncas,
			    const unsigned int *quota, uint64_t *sum)
{
	uint64_t u[OT_FF_MAX_DIMS] = { 0 }, max = 0, before, after;
	unsigned int l, p, q, i, w;

	for (l = 0; l < c->norders; l++) {
		if (!quota[l])
			continue;
		before = 1;
		for (p = 0; p < c->n; p++) {
			i = c->order[l][p];
			w = c->ff->width[i] ? c->ff->width[i] : 1;
			for (q = p + 1, after = 1; q < c->n; q++)
				after *= c->ff->size[c->order[l][q]];
			u[i] += (quota[l] * after + w - 1) / w * ncas * before;
			before *= c->ff->size[i];
		}
	}
	for (i = 0, *sum = 0; i < c->n; i++) {
		*sum += u[i];
		max = u[i] > max ? u[i] : max;
	}
	return max;
}

struct quota_pick {
	unsigned int q[FF_MAX_ORDERS], best[FF_MAX_ORDERS];
	const unsigned int *greedy;
	uint64_t max, sum;
	unsigned int used, square;
	bool found;
};

/* Whether quota q is better than the best so far (see mixed_quotas()). */
static void quota_try(const struct ff_ctx *c, unsigned int ncas,
		      struct quota_pick *k)
{
	unsigned int l, used = 0, square = 0;
	uint64_t sum, max = quota_bound(c, ncas, k->q, &sum);
	bool greedy = !memcmp(k->q, k->greedy, sizeof(k->q));
	int better;

	for (l = 0; l < c->norders; l++) {
		used += k->q[l] > 0;
		square += k->q[l] * k->q[l];
	}
	if (!k->found)
		better = 1;
	else if (max != k->max)
		better = max < k->max;
	else if (sum != k->sum)
		better = sum < k->sum;
	else if (greedy)
		better = 1;
	else if (!memcmp(k->best, k->greedy, sizeof(k->q)))
		better = 0;
	else if (used != k->used)
		better = used > k->used;
	else
		better = square < k->square;
	if (!better)
		return;
	memcpy(k->best, k->q, sizeof(k->q));
	k->max = max;
	k->sum = sum;
	k->used = used;
	k->square = square;
	k->found = true;
}

/* Every split of rem CAs over layers l .. norders - 1. */
static void quota_walk(const struct ff_ctx *c, unsigned int ncas,
		       struct quota_pick *k, unsigned int l, unsigned int rem)
{
	unsigned int x;

	if (l == c->norders - 1) {
		k->q[l] = rem;
		quota_try(c, ncas, k);
		return;
	}
	for (x = 0; x <= rem; x++) {
		k->q[l] = x;
		quota_walk(c, ncas, k, l + 1, rem - x);
	}
}

/*
 * Mixed: how many of a switch's ncas CAs each layer gets.  A layer's
 * DLIDs weigh the same on a bundle (a complete FlatFly), so the dealer
 * balances a bundle exactly when each layer's count there divides by
 * its width; a count that does not puts one DLID more on some cable.
 * On the final hop of an order that DLID carries a whole hyperplane's
 * flows: issue 9's 4 CAs over 3 orders (2, 1, 1) on a 2-cable final
 * bundle, issue 25's 3x2x3 widths 2,3,2 with 6 CAs, where issue 9's
 * quotas (greedy_quotas()) gave 3, 3, 0: an order ending in a 2-cable
 * dimension with 3 CAs, 2 DLIDs of 36 flows on one cable, 1 on its twin
 * (0.8492 against ff-dor's 0.9907).  So the quotas are chosen among all
 * splits of ncas over the layers by quota_bound(): the least bound on
 * the hottest cable, then the least sum over the dimensions, then the
 * greedy quotas when they are as good (they keep the seed's d mod m
 * with equal widths), then the most layers used, then the most even.
 * Every CA on layer 0, whose order is DOR's, is among the splits and
 * its bound is ff-dor's hottest cable: so Mixed's hottest cable is no
 * hotter than DOR's on a complete FlatFly with equal CAs per switch.
 * Slim Fly products keep the greedy quotas (their dimension 0 is no
 * full graph, the bound does not hold there).
 */
static void mixed_quotas(const struct ff_ctx *c, unsigned int ncas,
			 unsigned int *quota)
{
	unsigned int greedy[FF_MAX_ORDERS] = { 0 };
	struct quota_pick k = { .greedy = greedy };

	greedy_quotas(c, ncas, greedy);
	if (c->sfdim >= 0 || c->norders < 2 || ncas > FF_QUOTA_SEARCH) {
		memcpy(quota, greedy, sizeof(greedy));
		return;
	}
	memset(k.q, 0, sizeof(k.q));
	quota_walk(c, ncas, &k, 0, ncas);
	memcpy(quota, k.best, sizeof(k.best));
}

/*
 * Mixed: the layer of CA index d on a switch with ncas CAs, and its rank
 * within the layer: the indices go round robin over the layers with
 * quota left (mixed_quotas(), twisted_quotas(), or every CA on layer 0
 * for the single-order scheme of Twisted Mixed, see ff_route()).
 */
static unsigned int mixed_layer(const struct ff_ctx *c, unsigned int d,
				unsigned int ncas, unsigned int *rank)
{
	unsigned int quota[FF_MAX_ORDERS] = { 0 }, used[FF_MAX_ORDERS] = { 0 };
	unsigned int rem = ncas, l, k;

	*rank = d / c->norders;
	if (d >= ncas)
		return d % c->norders;
	if (c->tm_scheme == FF_TM_ONE_ORDER) {
		*rank = d;
		return 0;
	}
	if (c->tm_scheme == FF_TM_TWISTED &&
	    (c->variant & (FF_MIXED | FF_TWISTED)) ==
	    (FF_MIXED | FF_TWISTED)) {
		/* issue 9's Twisted Mixed: its own quotas, else the greedy */
		if (!twisted_quotas(c, quota, &rem))
			greedy_quotas(c, ncas, quota);
		goto deal;
	}
	if (ncas < FF_QUOTA_CACHE && c->quota_of[ncas][FF_MAX_ORDERS])
		memcpy(quota, c->quota_of[ncas], sizeof(quota));
	else
		mixed_quotas(c, ncas, quota);
deal:
	for (k = 0, l = 0;; l = (l + 1) % c->norders) {
		if (!quota[l])
			continue;
		if (k++ == d) {
			*rank = used[l];
			return l;
		}
		quota[l]--;
		used[l]++;
	}
}

/*
 * Twisted Mixed: where tau starts.  d mod K_L, as for Twisted DOR, would
 * tie tau to the layer, also picked by d: with 8 CAs, 4 orders and K_L =
 * 8, the CAs of layer l twist to coordinates l and l + 4 only, so a
 * quarter of the switches of each line start the DOR phase of all their
 * line's packets (issue 9: uniform 0.169 on the reference fabric).  So
 * the CA's rank j within its layer, plus T's own coordinate in L: the
 * destinations that share a cable of the DOR phase differ in T_L, so
 * tau takes every coordinate equally often there, and T's CAs of one
 * layer take distinct ones.  The CA with j = 0 twists to T_L itself: its
 * path is minimal, L first (a sum over T's other coordinates instead
 * stays constant over the destinations of a cable late in the order,
 * and measured worse: 0.36 on 2x4x4).  Ranks K_L and beyond take T_L
 * too: the K_L coordinates are used once each, and a second twisted
 * destination of T behind one bundle (a layer with more CAs than K_L,
 * twisted_quotas()) would put a second whole destination on it (4x8x8
 * widths 2,1,1, 8 CAs: 0.4721, 0.5353 without).
 */
static unsigned int twist_start(const struct ff_ctx *c,
				const struct ff_dest *t, unsigned int layer,
				unsigned int rank)
{
	unsigned int L = c->order[layer][c->n - 1];

	if ((c->variant & (FF_MIXED | FF_TWISTED)) !=
	    (FF_MIXED | FF_TWISTED) || c->tm_scheme == FF_TM_ONE_ORDER)
		return t->index;
	if (rank >= c->ff->size[L])
		return ff_coords(c, t->tslot)[L];
	return (rank + ff_coords(c, t->tslot)[L]) % c->ff->size[L];
}

/* Every destination on the layer of its CA index (mixed_layer()). */
int ff_assign_layers(struct ff_ctx *c)
{
	uint16_t *ncas = calloc(c->nslots + 1, sizeof(*ncas));
	uint32_t q;

	if (!ncas)
		return ot_error_nomem(c->err, c->name);
	for (q = 0; q < c->nlids; q++) {
		const struct ff_dest *t = &c->dest[c->lids[q]];

		if (t->kind == FF_DEST_CA && t->index >= ncas[t->tslot])
			ncas[t->tslot] = t->index + 1;
	}
	/* the quotas of each CA count, once per set of orders */
	memset(c->quota_of, 0, sizeof(c->quota_of));
	for (q = 0; q < c->nslots && (c->variant & FF_MIXED); q++) {
		unsigned int *x = c->quota_of[ncas[q]];

		if (ncas[q] >= FF_QUOTA_CACHE || x[FF_MAX_ORDERS])
			continue;
		mixed_quotas(c, ncas[q], x);
		x[FF_MAX_ORDERS] = 1;
	}
	for (q = 0; q < c->nlids; q++) {
		struct ff_dest *t = &c->dest[c->lids[q]];

		unsigned int rank = t->index, layer = 0;

		if (c->variant & FF_MIXED)
			layer = mixed_layer(c, t->index, ncas[t->tslot], &rank);
		t->twist0 = twist_start(c, t, layer, rank);
		assign_layer(c, t, layer);
	}
	free(ncas);
	return 0;
}

/* The hop that corrects dimension i, the first one s differs from t in. */
static int dor_hop(struct ff_ctx *c, uint32_t s, const struct ff_dest *t,
		   unsigned int i, uint32_t seq, struct ff_hop *h)
{
	const uint8_t *sc = ff_coords(c, s);
	unsigned int goal = ff_coords(c, t->tslot)[i], via = goal;
	int m;

	h->dim = i;
	/*
	 * Twisted ADOR: the twist was the extra hop in the last dimension,
	 * the DOR phase takes none there (seed 001, 3.3).
	 */
	if ((c->variant & FF_ADOR) && t->offset &&
	    !((c->variant & FF_TWISTED) &&
	      i == c->order[t->layer][c->n - 1])) {
		via = ff_ador_via(c, s, t, i);
		if (via != goal && sc[i] != via && ff_has(c, s, i, via)) {
			h->v = via;
			c->same_dim_hops = true;
			return 0;
		}
	}
	h->v = goal;
	if (ff_has(c, s, i, goal))
		return 0;
	/*
	 * Under ADOR a switch on a line with a via coordinate would send a
	 * detour's second hop on to the via switch: only the plain rule
	 * (via == goal) may detour.  ff_ador_via() picks via so that this
	 * does not happen.
	 */
	m = via == goal ? find_detour(c, s, i, goal, goal, seq) : -1;
	if (m < 0)
		return refuse_hop(c, s, i, goal, t, "pass");
	h->v = m;
	c->same_dim_hops = true;
	c->detours |= !ff_sfdim_minimal(c, i);
	return 0;
}

/* The neighbours of slot, as hops; nb holds sumk entries. */
static unsigned int neighbours(const struct ff_ctx *c, uint32_t slot,
			       struct ff_hop *nb)
{
	const uint8_t *co = ff_coords(c, slot);
	unsigned int i, v, k = 0;

	for (i = 0; i < c->n; i++)
		for (v = 0; v < c->ff->size[i]; v++)
			if (v != co[i] && ff_has(c, slot, i, v)) {
				nb[k].dim = i;
				nb[k++].v = v;
			}
	return k;
}

/*
 * The switches as the shared escape layer (route/escape.h) sees them,
 * once per fabric, when a first destination needs it: positions, their
 * neighbours in (dimension, coordinate) order with the hop to each, and
 * ties in the up*-down* order broken by the sum of the coordinates, then
 * the position.
 */
static int escape_prepare(struct ff_ctx *c)
{
	const struct ot_ff *ff = c->ff;
	struct ff_escape *x = &c->esc;
	uint64_t *tiebreak = NULL;
	uint32_t s, k = 0;
	unsigned int i, j, deg, sum;
	int error = 0;

	if (x->ready)
		return 0;
	x->present = calloc((size_t)ff->nslots + 1, 1);
	x->start = malloc(((size_t)ff->nslots + 1) * sizeof(*x->start));
	x->adj = malloc(((size_t)ff->nslots * c->sumk + 1) * sizeof(*x->adj));
	x->hop = malloc(((size_t)ff->nslots * c->sumk + 1) * sizeof(*x->hop));
	tiebreak = malloc(((size_t)ff->nslots + 1) * sizeof(*tiebreak));
	if (!x->present || !x->start || !x->adj || !x->hop || !tiebreak) {
		error = ot_error_nomem(c->err, c->name);
		goto out;
	}
	for (s = 0; s < ff->nslots; s++) {
		x->start[s] = k;
		x->present[s] = ff->slot_node[s] >= 0;
		deg = neighbours(c, s, x->hop + k);
		for (j = 0; j < deg; j++, k++)
			x->adj[k] = ff_move(c, s, x->hop[k].dim, x->hop[k].v);
		for (i = 0, sum = 0; i < c->n; i++)
			sum += ff_coords(c, s)[i];
		tiebreak[s] = ((uint64_t)sum << 32) + s;
	}
	x->start[ff->nslots] = k;
	error = ot_escape_init(&x->layer, ff->nslots, x->present, x->start,
			       x->adj, tiebreak, c->err);
	x->ready = !error;
out:
	free(tiebreak);
	return error;
}


int ff_cache_init(struct ff_cache *x, unsigned int n, uint32_t nslots)
{
	unsigned int i;

	x->n = n;
	x->cur = 0;
	x->victim = 0;
	for (i = 0; i < n; i++) {
		struct ff_hops *hp = &x->hp[i];

		hp->next = malloc(((size_t)nslots + 1) * sizeof(*hp->next));
		hp->bundle = malloc(((size_t)nslots + 1) * sizeof(*hp->bundle));
		hp->deliver = malloc(((size_t)nslots + 1) *
				     sizeof(*hp->deliver));
		hp->valid = false;
		hp->gx = FF_NONE;
		hp->run0 = -1;
		if (!hp->next || !hp->bundle || !hp->deliver)
			return -1;
	}
	return 0;
}

void ff_cache_free(struct ff_cache *x)
{
	unsigned int i;

	for (i = 0; i < x->n; i++) {
		free(x->hp[i].next);
		free(x->hp[i].bundle);
		free(x->hp[i].deliver);
	}
}

/* The buffer a new choice of hops goes to (the oldest), made current. */
static struct ff_hops *cache_take(struct ff_ctx *c, struct ff_cache *x)
{
	struct ff_hops *hp = &x->hp[x->victim];

	x->cur = x->victim;
	x->victim = (x->victim + 1) % x->n;
	hp->gen = ++c->hops_gen;
	hp->valid = false;
	hp->gx = FF_NONE;
	hp->run0 = -1;
	hp->ndeliver = 0;
	return hp;
}

static inline void hops_set(const struct ff_ctx *c, struct ff_hops *hp,
			    uint32_t s, const struct ff_hop *h)
{
	if (h->dim < 0) {
		hp->bundle[s] = FF_DELIVER;
		hp->deliver[hp->ndeliver++] = s;
		return;
	}
	hp->next[s] = ff_move(c, s, h->dim, h->v);
	hp->bundle[s] = c->koff[h->dim] + h->v;
}

/*
 * The escape layer's hop at every switch toward t (see the top of the
 * file), or a refusal naming two switches when it has none: missing
 * cables and switches cut the fabric in two.
 */
int ff_escape_hops(struct ff_ctx *c, const struct ff_dest *t, uint32_t seq,
		   struct ff_cache *x)
{
	char a[OT_ERROR_LEN / 3], b[OT_ERROR_LEN / 3];
	const struct ff_hop deliver = { .dim = -1 };
	struct ff_hops *hp = cache_take(c, x);
	uint32_t s, next;

	if (escape_prepare(c))
		return -1;
	for (s = 0; s < c->ff->nslots; s++) {
		if (c->ff->slot_node[s] < 0)
			continue;
		switch (ot_escape_hop(&c->esc.layer, s, t->tslot, seq, &next)) {
		case OT_ESCAPE_DELIVER:
			hops_set(c, hp, s, &deliver);
			break;
		case OT_ESCAPE_FORWARD:
			hops_set(c, hp, s, &c->esc.hop[next]);
			break;
		case OT_ESCAPE_CUT:
			slot_name(c, s, a, sizeof(a));
			slot_name(c, t->tslot, b, sizeof(b));
			return ot_refuse(c->err, OT_ERR_DAMAGE,
				"%s: no path at all from %s to %s: missing cables and switches cut the fabric in two",
				c->name, a, b);
		case OT_ESCAPE_NOMEM:
			return ot_error_nomem(c->err, c->name);
		}
	}
	return 0;
}

/*
 * The variant's hop at every switch toward t (the rule at the top of the
 * file), or -1 (err set) when some switch has none; the flags that size
 * the VLs are then left as they were, since t goes to the escape layer.
 * The usual hop -- deliver, twist, or the first dimension in t's order
 * where the switch differs from t, to ADOR's via coordinate or to t's,
 * over a cable that is there -- is taken here with what depends on t
 * alone worked out once; twist_hop() and dor_hop() decide the rest
 * (detours, refusals) as the rule says.
 */
int ff_variant_hops(struct ff_ctx *c, const struct ff_dest *t, uint32_t seq,
		    struct ff_cache *x)
{
	bool same_dim = c->same_dim_hops, twist = c->twist_detour;
	bool detours = c->detours, via_taken = false;
	const uint8_t *tc = ff_coords(c, t->tslot), *pi = c->order[t->layer];
	const uint8_t *has = c->bcnt, *sc = c->coords;
	const int32_t *node = c->ff->slot_node;
	unsigned int n = c->n, L = pi[n - 1], i, k, v, ador = 0;
	unsigned int tau = t->tau, sumk = c->sumk;
	bool twisted = c->variant & FF_TWISTED;
	uint32_t stride[OT_FF_MAX_DIMS], koff[OT_FF_MAX_DIMS];
	uint32_t s, *next;
	uint16_t *bundle;
	uint8_t via[OT_FF_MAX_DIMS];
	struct ff_hops *hp;
	struct ff_hop h;

	/* a buffer holds t's hops already (the flags were set then) */
	for (i = 0; i < x->n; i++)
		if (x->hp[i].valid && ff_same_rule(c, &x->hp[i].of, t)) {
			x->cur = i;
			return 0;
		}
	hp = cache_take(c, x);
	next = hp->next;
	bundle = hp->bundle;
	c->seq_used = false;
	memcpy(stride, c->stride, sizeof(stride));
	memcpy(koff, c->koff, sizeof(koff));
	/*
	 * ADOR's extra hop (not in the last dimension for Twisted: the
	 * twist was it); its coordinate depends on the line only when
	 * cables are missing.
	 */
	for (i = 0; i < n && (c->variant & FF_ADOR) && t->offset; i++) {
		if (twisted && i == L)
			continue;
		ador |= 1u << i;
		via[i] = ff_ador_via(c, t->tslot, t, i);
	}
	for (s = 0; s < c->ff->nslots; s++, sc += n, has += sumk) {
		if (node[s] < 0)
			continue;
		if (s == (uint32_t)t->tslot) {
			bundle[s] = FF_DELIVER;
			hp->deliver[hp->ndeliver++] = s;
			continue;
		}
		if (twisted && sc[L] != tau) {
			if (has[koff[L] + tau]) {
				next[s] = s + (tau - sc[L]) * stride[L];
				bundle[s] = koff[L] + tau;
				continue;
			}
			if (twist_hop(c, s, t, L, seq, &h))
				goto fail;
			hops_set(c, hp, s, &h);
			continue;
		}
		for (k = 0; k < n - 1 && sc[pi[k]] == tc[pi[k]]; k++)
			;
		i = pi[k];
		v = tc[i];
		if (ador & (1u << i)) {
			unsigned int w = c->complete ? via[i] :
					 ff_ador_via(c, s, t, i);

			if (w != v && sc[i] != w && has[koff[i] + w]) {
				v = w;
				via_taken = true;
			}
		}
		if (has[koff[i] + v]) {
			next[s] = s + (v - sc[i]) * stride[i];
			bundle[s] = koff[i] + v;
			continue;
		}
		if (dor_hop(c, s, t, i, seq, &h))
			goto fail;
		hops_set(c, hp, s, &h);
	}
	c->same_dim_hops |= via_taken;
	hp->valid = !c->seq_used;
	hp->of = *t;
	return 0;
fail:
	c->same_dim_hops = same_dim;
	c->twist_detour = twist;
	c->detours = detours;
	return -1;
}

/*
 * Whether the variant's rules toward a and toward b are the same on
 * every layer ff_fill_lfts() may try (the twist coordinates of the other
 * layers start from twist0).
 */
bool ff_same_rule(const struct ff_ctx *c, const struct ff_dest *a,
		  const struct ff_dest *b)
{
	unsigned int both = FF_MIXED | FF_TWISTED;

	return a->tslot == b->tslot && a->layer == b->layer &&
	       a->tau == b->tau &&
	       (!(c->variant & FF_ADOR) || a->offset == b->offset) &&
	       ((c->variant & both) != both || a->twist0 == b->twist0);
}

/*
 * Where t goes from every switch -- the variant on the destination's
 * layer, or for Mixed the next layer that reaches it from everywhere
 * (its path SL follows, no VL is added), or the escape layer when none
 * does -- as hops, x's current buffer; failed remembers a rule that did
 * not work.
 */
int ff_route_dest(struct ff_ctx *c, struct ff_dest *t, uint32_t q,
		  struct ff_dest *failed, struct ff_cache *x)
{
	struct ff_dest first = *t;
	bool known = failed->kind != FF_DEST_NONE &&
		     ff_same_rule(c, failed, t);
	unsigned int k;
	int error;

	t->escape = 0;
	error = known ? -1 : ff_variant_hops(c, t, q, x);
	for (k = 1; error && !known && (c->variant & FF_MIXED) &&
		    k < c->norders; k++) {
		assign_layer(c, t, (first.layer + k) % c->norders);
		error = ff_variant_hops(c, t, q, x);
	}
	if (!error)
		return 0;
	/* the escape layer ignores layer and tau */
	*t = first;
	*failed = first;
	error = ff_escape_hops(c, t, q, x);
	if (error)
		return error;
	t->escape = 1;
	c->any_escape = true;
	return 0;
}

