// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The FlatFly engines' dealer: the hops into bundles of parallel cables
 * (rules.c chooses them) are dealt over the bundle's cables, and every
 * LFT entry is written.  What it guarantees and why: doc/ff-balance.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/routing.h"
#include "route/deal.h"
#include "route/ff/ff.h"
#include "topo/flatfly.h"

/*
 * Parallel cables are dealt per class of destinations that share them:
 * the dimension order (layer) or the escape layer, and the LID offset.
 * A round robin shared by the layers deals them in step with the CA
 * index that also picks the layer (issue 9: with 2 cables and 4 layers,
 * all of a layer's destinations went on one cable).  And the layers'
 * destinations do not weigh the same: a layer whose first dimension is
 * i sends one switch's flows per destination over a cable of i, a
 * layer whose last is i a whole line's.  So a bundle gives each
 * destination a cable where its class has the fewest so far (the
 * class's destinations differ by at most one per cable), among those
 * the one with the fewest destinations of any class, then the least
 * weight so far, then the first in port order;
 * the weight of a destination at a switch is the number of CAs whose
 * packets for it pass there, counted along the hops just chosen.  The
 * class counts start again with each LID offset (contiguous in the
 * dealing order), the totals and weights do not.
 */
#define FF_CLASSES (FF_ESCAPE_SL + 1)

#define FF_BATCH 64
#define FF_KEEP 0xff

/*
 * The dealing stages (deal_stages()): 1, the final hops into the
 * destination's switch; 2, every hop farther out.
 */
#define FF_STAGES 2

static inline unsigned int ff_stage(uint32_t dist)
{
	return dist < FF_STAGES ? dist : FF_STAGES;
}

/*
 * A hop into a bundle of parallel cables, to deal: switch slot's bundle
 * k (index slot * sumk + k), where the destination weighs w.
 */
struct ff_deal {
	uint32_t slot;
	uint16_t k;
	uint16_t w;
};

/*
 * One choice of hops (hops_gen) toward a destination, and what it means
 * for the tables: weighed, the hops to deal per stage and the keys of
 * the stages (the hops over single cables need no dealing: their ports
 * go to the batch at once).
 */
struct ff_sheet {
	uint32_t gen;      /* the hops_gen it was made from */
	uint32_t *dist;    /* per slot: hops to t's switch (nslots: never) */
	uint32_t *through; /* per slot: CAs whose packets for t pass there */
	struct ff_deal *deal[FF_STAGES + 1]; /* per stage 1, 2 */
	uint32_t ndeal[FF_STAGES + 1];
	/* per stage: 0 without hops there, else 1 + their largest weight */
	uint32_t key[FF_STAGES + 1];
	uint32_t wmax; /* the largest weight of a hop to deal */
};

/*
 * The destinations of a dealing group that took one choice of hops (one
 * rule, see ff_same_rule()): the keys of their stages and the hops they
 * deal per stage, recorded (at: stage s in store[at[s - 1] .. at[s]]):
 * always for stage 1 (a few final hops), for stage 2 when the memory
 * allows, else chosen again when their turn comes.
 */
struct ff_gen {
	uint32_t key[FF_STAGES + 1];
	uint32_t ndeal[FF_STAGES + 1];
	bool recorded[FF_STAGES + 1];
	size_t at[FF_STAGES + 1];
};

/*
 * The records of stage 2 of a dealing group may take this many bytes per
 * LFT entry of the routing (FF_RECORD_MIN at least); beyond, hops are
 * chosen again.  The routing's record_limit (ff_route()), when not
 * SIZE_MAX, overrides it (unit tests: 0, which records no stage at all).
 */
#define FF_RECORD_PER_ENTRY 1
#define FF_RECORD_MIN ((size_t)1 << 22)

struct ff_dealer {
	uint16_t *count;  /* per bundle, class and cable */
	uint32_t *total;  /* per bundle and cable: destinations */
	uint64_t *weight; /* per bundle and cable */
	uint32_t *cas;    /* per slot: CAs of the switch */
	uint32_t *stack;  /* nslots: walks */
	uint32_t *popped; /* nslots: switches as their distance is known */
	uint32_t *dist0;  /* per slot: unknown, nslots for missing switches */
	struct ff_cache cache; /* the hops ff_route_dest() chooses */
	struct ff_sheet sh;
	/*
	 * The entries of the last FF_BATCH destinations, per slot (FF_KEEP:
	 * not written), written to the LFT rows a batch at a time: a
	 * destination's entries lie in every switch's row, 18 KB apart at
	 * 16K, a TLB miss each.
	 */
	uint8_t *col;
	uint16_t col_lid[FF_BATCH];
	unsigned int ncol;
	/* the dealing group's generations, each destination's, the records */
	struct ff_gen *gen;
	uint32_t ngen, capgen, *gx;
	struct ff_deal *store;
	size_t nstore, capstore, budget;
	struct ot_deal_key *order;
};

static int sheet_init(const struct ff_ctx *c, struct ff_sheet *sh)
{
	size_t n = (size_t)c->ff->nslots + 1;
	unsigned int i;

	sh->gen = c->hops_gen;
	sh->dist = malloc(n * sizeof(*sh->dist));
	sh->through = malloc(n * sizeof(*sh->through));
	if (!sh->dist || !sh->through)
		return -1;
	for (i = 1; i <= FF_STAGES; i++) {
		sh->deal[i] = malloc(n * sizeof(*sh->deal[i]));
		if (!sh->deal[i])
			return -1;
	}
	return 0;
}

static void sheet_free(struct ff_sheet *sh)
{
	unsigned int i;

	free(sh->dist);
	free(sh->through);
	for (i = 1; i <= FF_STAGES; i++)
		free(sh->deal[i]);
}

static int dealer_init(const struct ff_ctx *c, struct ff_dealer *d)
{
	size_t nb = (size_t)c->ff->nslots * c->sumk + 1;
	uint32_t s;

	d->count = calloc(nb * FF_CLASSES * c->maxw, sizeof(*d->count));
	d->total = calloc(nb * c->maxw, sizeof(*d->total));
	d->weight = calloc(nb * c->maxw, sizeof(*d->weight));
	d->cas = calloc(c->ff->nslots + 1, sizeof(*d->cas));
	d->stack = calloc(c->ff->nslots + 1, sizeof(*d->stack));
	d->popped = calloc(c->ff->nslots + 1, sizeof(*d->popped));
	d->dist0 = calloc(c->ff->nslots + 1, sizeof(*d->dist0));
	d->col = malloc(((size_t)c->ff->nslots + 1) * FF_BATCH);
	d->gx = malloc(((size_t)c->nlids + 1) * sizeof(*d->gx));
	d->order = malloc(((size_t)c->nlids + 1) * sizeof(*d->order));
	if (ff_cache_init(&d->cache, FF_CACHE, c->ff->nslots) ||
	    sheet_init(c, &d->sh) || !d->count || !d->total || !d->weight ||
	    !d->cas || !d->stack || !d->popped || !d->dist0 || !d->col ||
	    !d->gx || !d->order)
		return -1;
	memset(d->col, FF_KEEP, ((size_t)c->ff->nslots + 1) * FF_BATCH);
	for (s = 0; s < c->ff->nslots; s++) {
		int32_t node = c->ff->slot_node[s];
		unsigned int p;

		d->dist0[s] = node < 0 ? c->ff->nslots : UINT32_MAX;
		for (p = 1; node >= 0 && p <= c->f->node[node].nports; p++) {
			int32_t x = c->f->node[node].port[p].peer;

			d->cas[s] += x >= 0 && !ot_is_switch(c->f, x);
		}
	}
	return 0;
}

static void dealer_free(struct ff_dealer *d)
{
	ff_cache_free(&d->cache);
	sheet_free(&d->sh);
	free(d->col);
	free(d->count);
	free(d->total);
	free(d->weight);
	free(d->cas);
	free(d->stack);
	free(d->popped);
	free(d->dist0);
	free(d->gen);
	free(d->gx);
	free(d->store);
	free(d->order);
}

/*
 * The deliveries of hp into batch column col: its destination's port
 * (its CA's port, or 0 for a switch's LID).
 */
static void hops_deliver(const struct ff_ctx *c, struct ff_dealer *d,
			 const struct ff_hops *hp, uint8_t *col)
{
	uint8_t port = c->dest[d->col_lid[col - d->col]].port;
	uint32_t i;

	for (i = 0; i < hp->ndeliver; i++)
		col[(size_t)hp->deliver[i] * FF_BATCH] = port;
}

/*
 * The deliveries and the ports of the hops over single cables of hp
 * into batch column col.
 */
static void hops_write(const struct ff_ctx *c, struct ff_dealer *d,
		       const struct ff_hops *hp, uint8_t *col)
{
	uint32_t s;

	for (s = 0; s < c->ff->nslots; s++) {
		size_t b;

		if (c->ff->slot_node[s] < 0 || hp->bundle[s] == FF_DELIVER)
			continue;
		b = (size_t)s * c->sumk + hp->bundle[s];
		if (c->bcnt[b] <= 1)
			col[(size_t)s * FF_BATCH] = c->bport[b * c->maxw];
	}
	hops_deliver(c, d, hp, col);
}

/*
 * Batch column `from` into column `to`: the entries of a destination
 * with the same hops before its deliveries (FF_KEEP where hops are dealt
 * later).
 */
static void column_copy(const struct ff_ctx *c, struct ff_dealer *d,
			unsigned int from, unsigned int to)
{
	uint8_t *col = d->col;
	uint32_t s;

	for (s = 0; s < c->ff->nslots; s++, col += FF_BATCH)
		col[to] = col[from];
}

/*
 * The sheet of hp (see struct ff_sheet), and, unless col is NULL, hp's
 * deliveries and ports of the hops over single cables into batch column
 * col.  With parallel cables: each switch's distance to t's switch
 * along its hops, remembered on the way (the hops form a tree into t's
 * switch; a walk that does not end there within nslots hops counts as
 * nslots).  A switch's distance is known before those of the switches
 * whose hops lead to it, so that order, backwards, adds up the weights
 * of t (the CAs whose packets for t pass a switch) from the farthest
 * switches in, each switch's weight complete when its turn comes: its
 * stage key and, for a hop into a bundle, its entry to deal.
 */
static void sheet_make(const struct ff_ctx *c, struct ff_dealer *d,
		       const struct ff_hops *hp, uint8_t *col)
{
	struct ff_sheet *sh = &d->sh;
	const uint32_t n = c->ff->nslots, sumk = c->sumk, maxw = c->maxw;
	const uint32_t *next = hp->next;
	const uint16_t *bundle = hp->bundle;
	const uint8_t *bcnt = c->bcnt, *bport = c->bport;
	uint32_t *dist = sh->dist, *through = sh->through;
	uint32_t *stack = d->stack, *popped = d->popped;
	uint32_t s, x, top, k, npop = 0, wmax = 0;
	uint32_t key[FF_STAGES + 1] = { 0 }, nd[FF_STAGES + 1] = { 0 };

	sh->gen = hp->gen;
	if (maxw == 1) {
		/* nothing to deal: neither weights nor keys matter */
		if (col)
			hops_write(c, d, hp, col);
		goto out;
	}
	/* missing switches count as known: no walk starts or ends there */
	memcpy(dist, d->dist0, n * sizeof(*dist));
	for (k = 0; k < hp->ndeliver; k++)
		dist[hp->deliver[k]] = 0;
	for (s = 0; s < n; s++) {
		if (dist[s] != UINT32_MAX)
			continue;
		x = s;
		top = 0;
		do {
			stack[top++] = x;
			x = next[x];
		} while (dist[x] == UINT32_MAX && top < n);
		k = dist[x] == UINT32_MAX ? n : dist[x];
		do {
			x = stack[--top];
			k += k < n;
			dist[x] = k;
			popped[npop++] = x;
		} while (top);
	}
	memcpy(through, d->cas, n * sizeof(*through));
	while (npop) {
		uint32_t w, st;
		size_t b;

		x = popped[--npop];
		w = through[x];
		st = ff_stage(dist[x]);
		key[st] = w >= key[st] ? w + 1 : key[st];
		if (dist[x] < n)
			through[next[x]] += w;
		b = (size_t)x * sumk + bundle[x];
		if (bcnt[b] > 1) {
			struct ff_deal *e = &sh->deal[st][nd[st]++];

			e->slot = x;
			e->k = bundle[x];
			wmax = w > wmax ? w : wmax;
		} else if (col) {
			col[(size_t)x * FF_BATCH] = bport[b * maxw];
		}
	}
	if (col)
		hops_deliver(c, d, hp, col);
out:
	sh->wmax = wmax;
	memcpy(sh->key, key, sizeof(key));
	memcpy(sh->ndeal, nd, sizeof(nd));
}

/*
 * The cable of bundle b for a destination of class k (layer or escape
 * layer) that weighs `through` there (see above).  Inlined: a call per
 * LFT entry costs more than the pick itself.
 */
static inline __attribute__((always_inline)) unsigned int
dealer_pick(const struct ff_ctx *c, struct ff_dealer *d, unsigned int k,
	    size_t b, uint32_t through)
{
	uint16_t *cnt = d->count + (b * FF_CLASSES + k) * c->maxw;
	uint32_t *all = d->total + b * c->maxw;
	uint64_t *w = d->weight + b * c->maxw;
	unsigned int n = c->bcnt[b], l, best = 0;

	/* two cables (the usual parallel pair): the loop below, unrolled */
	if (n == 2)
		best = cnt[1] != cnt[0] ? cnt[1] < cnt[0] :
		       all[1] != all[0] ? all[1] < all[0] : w[1] < w[0];
	for (l = 1; n > 2 && l < n; l++)
		if (cnt[l] != cnt[best] ? cnt[l] < cnt[best] :
		    all[l] != all[best] ? all[l] < all[best] : w[l] < w[best])
			best = l;
	cnt[best]++;
	all[best]++;
	w[best] += through;
	return best;
}

/*
 * dealer_pick() len times on a bundle of two cables for one class (cnt:
 * its counts, all, w), the counters held in registers meanwhile.
 */
static void deal_pair(uint16_t *cnt, uint32_t *all, uint64_t *w,
		      uint32_t through, const uint8_t *port, uint8_t *dst,
		      unsigned int len)
{
	uint16_t c0 = cnt[0], c1 = cnt[1];
	uint32_t a0 = all[0], a1 = all[1];
	uint64_t w0 = w[0], w1 = w[1];
	unsigned int j;

	for (j = 0; j < len; j++) {
		bool one = c1 != c0 ? c1 < c0 : a1 != a0 ? a1 < a0 : w1 < w0;

		if (one) {
			c1++;
			a1++;
			w1 += through;
		} else {
			c0++;
			a0++;
			w0 += through;
		}
		dst[j] = port[one];
	}
	cnt[0] = c0;
	cnt[1] = c1;
	all[0] = a0;
	all[1] = a1;
	w[0] = w0;
	w[1] = w1;
}

/* 0x80 in each byte of x that is not FF_KEEP (an entry), 0 elsewhere. */
static inline uint64_t written(uint64_t x)
{
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;

	x = ~x; /* FF_KEEP bytes -> 0 */
	return (((x & low7) + low7) | x) & ~low7;
}

/*
 * The batch's entries into the switches' LFT rows.  When the batch's
 * LIDs are consecutive (they follow the dealing order, and so usually
 * do), 8 entries go at once.
 */
static void dealer_flush(const struct ff_ctx *c, struct ff_dealer *d,
			 struct ot_routing *out)
{
	const uint64_t all = 0x8080808080808080ull;
	const uint16_t *lid = d->col_lid;
	unsigned int j, w, nw = d->ncol / 8;
	bool run = true;
	uint32_t s;

	for (j = 1; j < d->ncol && run; j++)
		run = lid[j] == lid[0] + j;
	for (s = 0; s < c->ff->nslots; s++) {
		int32_t node = c->ff->slot_node[s];
		uint8_t *src = d->col + (size_t)s * FF_BATCH, *row;
		bool any = false;

		if (node < 0)
			continue;
		row = out->lft[node];
		for (w = 0; w < nw; w++) {
			uint64_t x, m;

			memcpy(&x, src + 8 * w, 8);
			if (x == UINT64_MAX)
				continue;
			any = true;
			m = written(x);
			if (run && m == all) {
				memcpy(row + lid[0] + 8 * w, &x, 8);
				continue;
			}
			for (; m; m &= m - 1) {
				j = 8 * w + __builtin_ctzll(m) / 8;
				row[lid[j]] = src[j];
			}
		}
		for (j = 8 * nw; j < d->ncol; j++)
			if (src[j] != FF_KEEP) {
				row[lid[j]] = src[j];
				any = true;
			}
		if (any)
			memset(src, FF_KEEP, d->ncol);
	}
	d->ncol = 0;
	for (s = 0; s < d->cache.n; s++)
		d->cache.hp[s].run0 = -1;
}

/*
 * Deals the hops e[0 .. ne - 1] to the destinations lids[0 .. len - 1],
 * which took the same hops, one after the other, into the next columns
 * of the batch.  A bundle's cables depend only on what was dealt from
 * that bundle before, so the destinations can be taken together hop by
 * hop.  The weights are the entries' own, or through's when not NULL.
 */
static void deal_run(const struct ff_ctx *c, struct ff_dealer *d,
		     const struct ff_deal *e, uint32_t ne,
		     const uint32_t *through, const uint16_t *lids,
		     unsigned int len)
{
	uint8_t cls[FF_BATCH], *col = d->col + d->ncol;
	bool one = true; /* one class: the usual run, one rule */
	unsigned int j;
	uint32_t i;

	for (j = 0; j < len; j++) {
		const struct ff_dest *t = &c->dest[lids[j]];

		cls[j] = t->escape ? FF_ESCAPE_SL : t->layer;
		one = one && cls[j] == cls[0];
		d->col_lid[d->ncol + j] = lids[j];
	}
	for (i = 0; i < ne; i++) {
		size_t b = (size_t)e[i].slot * c->sumk + e[i].k;
		uint32_t w = through ? through[e[i].slot] : e[i].w;
		const uint8_t *port = c->bport + b * c->maxw;
		uint8_t *dst = col + (size_t)e[i].slot * FF_BATCH;

		if (one && c->bcnt[b] == 2) {
			deal_pair(d->count + (b * FF_CLASSES + cls[0]) * c->maxw,
				  d->total + b * c->maxw,
				  d->weight + b * c->maxw, w, port, dst, len);
			continue;
		}
		for (j = 0; j < len; j++)
			dst[j] = port[dealer_pick(c, d, cls[j], b, w)];
	}
	d->ncol += len;
}

/* The variant's or the escape layer's hops toward t, as chosen before. */
static int rehop(struct ff_ctx *c, struct ff_dest *t, uint32_t seq,
		 struct ff_cache *x)
{
	return t->escape ? ff_escape_hops(c, t, seq, x) :
			   ff_variant_hops(c, t, seq, x);
}

/*
 * A new generation in the group, from the sheet; its hops to deal
 * recorded when they fit the budget.  Its index, or FF_NONE when out of
 * memory.
 */
static uint32_t gen_new(struct ff_dealer *d)
{
	const struct ff_sheet *sh = &d->sh;
	size_t need = sh->ndeal[1] + sh->ndeal[2];
	bool fits = sh->wmax <= UINT16_MAX;
	struct ff_gen *g;
	unsigned int st;

	if (d->ngen == d->capgen) {
		uint32_t cap = d->capgen * 2 + 64;
		struct ff_gen *x = realloc(d->gen, cap * sizeof(*x));

		if (!x)
			return FF_NONE;
		d->gen = x;
		d->capgen = cap;
	}
	g = &d->gen[d->ngen];
	memcpy(g->key, sh->key, sizeof(g->key));
	memcpy(g->ndeal, sh->ndeal, sizeof(g->ndeal));
	/* stage 1 within any budget but none (the unit tests' 0) */
	g->recorded[1] = fits && d->budget;
	g->recorded[2] = fits && (d->nstore + need) * sizeof(*d->store) <=
					d->budget;
	need = (g->recorded[1] ? sh->ndeal[1] : 0) +
	       (g->recorded[2] ? sh->ndeal[2] : 0);
	if (d->nstore + need > d->capstore) {
		size_t cap = (d->nstore + need) * 2 + 256;
		struct ff_deal *x;

		x = realloc(d->store, cap * sizeof(*x));
		if (!x)
			return FF_NONE;
		d->store = x;
		d->capstore = cap;
	}
	g->at[0] = d->nstore;
	for (st = 1; st <= FF_STAGES; st++) {
		struct ff_deal *e = d->store + d->nstore;
		uint32_t i;

		if (g->recorded[st] && sh->ndeal[st]) {
			memcpy(e, sh->deal[st], sh->ndeal[st] * sizeof(*e));
			for (i = 0; i < sh->ndeal[st]; i++)
				e[i].w = (uint16_t)sh->through[e[i].slot];
			d->nstore += sh->ndeal[st];
		}
		g->at[st] = d->nstore;
	}
	return d->ngen++;
}

/* A new dealing group: no generation yet, no batch column of pass 1. */
static void group_start(struct ff_dealer *d)
{
	unsigned int i;

	d->ngen = 0;
	d->nstore = 0;
	for (i = 0; i < d->cache.n; i++) {
		d->cache.hp[i].gx = FF_NONE;
		d->cache.hp[i].run0 = -1;
	}
}

/*
 * Deals the cables toward the destinations of the group (positions g ..
 * q of the dealing order): first every final hop into a destination's
 * switch, then the hops farther out, and within each stage the
 * destinations whose hops there weigh most first.  The final hop of a
 * twisted destination carries nearly all its flows on one cable, and
 * the hops near a destination more of them than those far out: dealt in
 * LID order, two heavy entries of different classes could be forced
 * onto one cable by the class counts (issue 9, 2x4x4 widths 2,1,1:
 * 0.976 + 0.504 on one dimension-0 cable); a bundle that sees its heavy
 * entries first spreads them, and the light ones, which the class counts
 * force, follow.  Consecutive destinations of one generation are dealt
 * together (deal_run()).
 */
static int deal_stages(struct ff_ctx *c, struct ff_dealer *d, uint32_t g,
		       uint32_t q, struct ot_routing *out)
{
	uint16_t lids[FF_BATCH];
	unsigned int stage, len;
	uint32_t x, y, n, gi;

	/* the class counts start again with each dealing group */
	memset(d->count, 0, ((size_t)c->ff->nslots * c->sumk + 1) *
				    FF_CLASSES * c->maxw * sizeof(*d->count));
	for (stage = 1; stage <= FF_STAGES; stage++) {
		for (x = g, n = 0; x <= q; x++) {
			const struct ff_gen *ge = &d->gen[d->gx[x - g]];

			if (!ge->ndeal[stage])
				continue;
			d->order[n].key = ((uint64_t)(UINT32_MAX -
						      ge->key[stage]) << 32) +
					  x;
			d->order[n++].lid = c->lids[x];
		}
		ot_deal_sort(d->order, n);
		for (x = 0; x < n; x = y) {
			const struct ff_deal *e = d->store;
			const uint32_t *through = NULL;
			const struct ff_gen *ge;

			if (d->ncol == FF_BATCH)
				dealer_flush(c, d, out);
			gi = d->gx[(uint32_t)d->order[x].key - g];
			ge = &d->gen[gi];
			for (y = x, len = 0; y < n && len < FF_BATCH - d->ncol &&
				     d->gx[(uint32_t)d->order[y].key - g] == gi;
			     y++)
				lids[len++] = d->order[y].lid;
			if (ge->recorded[stage]) {
				e += ge->at[stage - 1];
			} else {
				struct ff_hops *hp;

				if (rehop(c, &c->dest[d->order[x].lid],
					  (uint32_t)d->order[x].key, &d->cache))
					return -1;
				hp = &d->cache.hp[d->cache.cur];
				if (d->sh.gen != hp->gen)
					sheet_make(c, d, hp, NULL);
				e = d->sh.deal[stage];
				through = d->sh.through;
			}
			deal_run(c, d, e, ge->ndeal[stage], through, lids, len);
		}
	}
	group_start(d);
	return 0;
}

/* The budget of a group's records: see FF_RECORD_PER_ENTRY. */
static size_t record_budget(const struct ff_ctx *c)
{
	size_t b = (size_t)c->nlids * c->ff->nslots * FF_RECORD_PER_ENTRY;

	if (c->record_limit != SIZE_MAX)
		return c->record_limit;
	return b > FF_RECORD_MIN ? b : FF_RECORD_MIN;
}

/*
 * Destination by destination (in dealing order) the hops: the entries
 * that need no dealing (deliveries, single cables) go to the tables at
 * once, the hops into bundles are recorded per choice of hops; then per
 * dealing group (LID offset) the cables of each bundle (deal_stages()).
 */
int ff_fill_lfts(struct ff_ctx *c, struct ot_routing *out)
{
	struct ff_dest failed = { .kind = FF_DEST_NONE };
	struct ff_dealer d = { 0 };
	uint32_t q, g = 0;
	int error = 0;

	if (dealer_init(c, &d)) {
		error = ot_error_nomem(c->err, c->name);
		goto out;
	}
	c->same_dim_hops = false;
	c->twist_detour = false;
	c->detours = false;
	c->any_escape = false;
	d.budget = record_budget(c);
	group_start(&d);
	for (q = 0; q < c->nlids; q++) {
		struct ff_dest *t = &c->dest[c->lids[q]];
		struct ff_hops *hp;
		uint8_t *col;

		error = ff_route_dest(c, t, q, &failed, &d.cache);
		if (error)
			goto out;
		hp = &d.cache.hp[d.cache.cur];
		if (d.ncol == FF_BATCH)
			dealer_flush(c, &d, out);
		col = d.col + d.ncol;
		d.col_lid[d.ncol] = c->lids[q];
		if (hp->gx == FF_NONE) {
			if (d.sh.gen != hp->gen)
				sheet_make(c, &d, hp, col);
			else
				hops_write(c, &d, hp, col);
			hp->gx = gen_new(&d);
			if (hp->gx == FF_NONE) {
				error = ot_error_nomem(c->err, c->name);
				goto out;
			}
		} else if (hp->run0 >= 0) {
			column_copy(c, &d, hp->run0, d.ncol);
			hops_deliver(c, &d, hp, col);
		} else {
			hops_write(c, &d, hp, col);
		}
		if (hp->run0 < 0)
			hp->run0 = d.ncol;
		d.ncol++;
		d.gx[q - g] = hp->gx;
		if (q + 1 < c->nlids &&
		    ff_deal_group(&c->dest[c->lids[q + 1]]) == ff_deal_group(t))
			continue;
		error = deal_stages(c, &d, g, q, out);
		if (error)
			goto out;
		g = q + 1;
	}
	dealer_flush(c, &d, out);
out:
	dealer_free(&d);
	return error;
}


/*
 * The next position from each switch toward lid by the tables (nslots
 * where the switch delivers, has no entry or is missing), and the hops
 * from each switch to the one that delivers.
 */
static void peak_tree(const struct ff_ctx *c, const struct ot_routing *out,
		      uint16_t lid, uint32_t *next, uint32_t *dist,
		      uint32_t *stack)
{
	const struct ot_fabric *f = c->f;
	uint32_t n = c->ff->nslots, s, x, top, k;

	for (s = 0; s < n; s++) {
		int32_t node = c->ff->slot_node[s], peer;
		uint8_t p;

		next[s] = n;
		dist[s] = UINT32_MAX;
		if (node < 0)
			continue;
		p = out->lft[node][lid];
		if (!p || p > f->node[node].nports)
			continue;
		peer = f->node[node].port[p].peer;
		if (peer >= 0 && c->ff->sw_slot[peer] >= 0)
			next[s] = c->ff->sw_slot[peer];
	}
	for (s = 0; s < n; s++) {
		if (dist[s] != UINT32_MAX)
			continue;
		for (x = s, top = 0; x < n && dist[x] == UINT32_MAX;
		     x = next[x]) {
			stack[top++] = x;
			dist[x] = UINT32_MAX - 1; /* on this walk */
		}
		k = x < n && dist[x] < UINT32_MAX - 1 ? dist[x] : 0;
		while (top) {
			x = stack[--top];
			k = next[x] < n ? k + 1 : 0;
			dist[x] = k;
		}
	}
}

uint64_t ff_uniform_peak(const struct ff_ctx *c, const struct ot_routing *out)
{
	uint32_t n = c->ff->nslots, s, q, d, *next, *dist, *stack, *cas;
	uint32_t *through, *byd, *at;
	unsigned int np = 0, p;
	uint64_t *load, peak = UINT64_MAX;

	for (s = 0; s < n; s++)
		if (c->ff->slot_node[s] >= 0 &&
		    c->f->node[c->ff->slot_node[s]].nports > np)
			np = c->f->node[c->ff->slot_node[s]].nports;
	next = malloc(((size_t)n + 1) * sizeof(*next));
	dist = malloc(((size_t)n + 1) * sizeof(*dist));
	stack = malloc(((size_t)n + 1) * sizeof(*stack));
	cas = calloc((size_t)n + 1, sizeof(*cas));
	through = malloc(((size_t)n + 1) * sizeof(*through));
	byd = malloc(((size_t)n + 1) * sizeof(*byd));
	at = malloc(((size_t)n + 2) * sizeof(*at));
	load = calloc((size_t)n * (np + 1) + 1, sizeof(*load));
	if (!next || !dist || !stack || !cas || !through || !byd || !at ||
	    !load)
		goto out;
	for (q = 0; q < c->nlids; q++) {
		const struct ff_dest *t = &c->dest[c->lids[q]];

		if (t->kind == FF_DEST_CA && !t->offset)
			cas[t->tslot]++;
	}
	for (q = 0; q < c->nlids; q++) {
		uint16_t lid = c->lids[q];
		const struct ff_dest *t = &c->dest[lid];
		uint32_t nf = 0;

		if (t->kind != FF_DEST_CA || t->offset)
			continue;
		peak_tree(c, out, lid, next, dist, stack);
		/* the forwarding switches, farthest from t's first */
		memset(at, 0, ((size_t)n + 2) * sizeof(*at));
		for (s = 0; s < n; s++)
			if (next[s] < n && dist[s] <= n) {
				at[n - dist[s]]++;
				nf++;
			}
		for (d = 0; d <= n; d++)
			at[d + 1] += at[d];
		for (s = n; s-- > 0;)
			if (next[s] < n && dist[s] <= n)
				byd[--at[n - dist[s]]] = s;
		/* the CAs whose packets for t pass each switch */
		memcpy(through, cas, (size_t)n * sizeof(*through));
		for (s = 0; s < nf; s++) {
			uint32_t x = byd[s];

			through[next[x]] += through[x];
			load[(size_t)x * (np + 1) +
			     out->lft[c->ff->slot_node[x]][lid]] += through[x];
		}
	}
	peak = 0;
	for (s = 0; s < n; s++)
		for (p = 1; p <= np; p++)
			if (load[(size_t)s * (np + 1) + p] > peak)
				peak = load[(size_t)s * (np + 1) + p];
out:
	free(next);
	free(dist);
	free(stack);
	free(cas);
	free(through);
	free(byd);
	free(at);
	free(load);
	return peak;
}
