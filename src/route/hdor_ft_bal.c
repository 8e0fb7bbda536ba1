// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * hdor on fat-tree lines: spreading each line's destinations over its
 * cables (route/hdor_ft.c has the routing rule, the candidates and the
 * deadlock argument; doc/kns-fattree.md, "Spreading").  Only the choice
 * among the candidate ports of route/hdor_ft.c changes here: paths stay
 * up*-down* inside each line, minimal, on one VL.
 */
#include <stdlib.h>
#include <string.h>

#include "route/hdor_ft_int.h"

/*
 * Uniform traffic inside one line, destination by destination: one flow
 * from each of the line's other routers, walked hop by hop.  A node whose
 * entry for the destination is not set yet picks, among the candidates of
 * toward(), the cable whose way on to the target (set entries, else the
 * cheapest way on) has the least loaded busiest cable, then the least
 * summed load (the sources' up cables and the target's down cables
 * weigh alike), then the fewest destinations, then the fixed order;
 * later flows follow the entries set.  This spreads every up
 * cable and every spine evenly over the flows, stage by stage, as
 * D-mod-K does on an XGFT, and copes with missing spines or cables.
 */
struct line_bal {
	uint32_t l, nsw, k;
	uint32_t turn;      /* destinations spread so far */
	/*
	 * Source routers take their cables in turn (D-mod-K: coordinate
	 * plus turn), not by the greedy cost: tried as well on lines of two
	 * or more stages whose routers have several cables into them.
	 */
	bool rotate;
	uint32_t nloc;
	/*
	 * The line's entries for its destinations, dest-major (rel[j]'s
	 * entries at ent[j * nloc ..]), copied into the LFTs once the line
	 * is done: the LFTs are switch-major, and a destination's entries
	 * across switches would each cost a cache miss.  row: rel[j]'s.
	 */
	uint8_t *ent, *row;
	uint16_t *rel;
	uint32_t *load;     /* nloc * (OT_MAX_PORTS + 1) flows per cable */
	uint32_t *dests;    /* nloc * (OT_MAX_PORTS + 1) destinations */
	int32_t *next;      /* nloc * (OT_MAX_PORTS + 1): far end, local */
	int32_t *gx;        /* nloc: the node of each local index */
};

static int32_t bal_next(const struct line_bal *b, uint32_t i, unsigned int p)
{
	return b->next[(size_t)i * (OT_MAX_PORTS + 1) + p];
}

static uint32_t *bal_load(struct line_bal *b, uint32_t i, unsigned int p)
{
	return b->load + (size_t)i * (OT_MAX_PORTS + 1) + p;
}

static int32_t peer_of(const struct ft_ctx *c, int32_t x, unsigned int p)
{
	return c->f->node[x].port[p].peer;
}

/* A way's cost: its most loaded cable, then its loads summed. */
struct way {
	uint32_t max, sum;
};

static bool way_less(struct way a, struct way b)
{
	return a.max != b.max ? a.max < b.max : a.sum < b.sum;
}

/* Cable p of local node i, then the way on from its far end. */
static struct way way_via(struct ft_ctx *c, struct line_bal *b, uint32_t i,
			  unsigned int p, uint32_t tgt, unsigned int depth);

/*
 * The cheapest way from local node i to the target tgt: along the entries
 * already set, else over the candidates.
 */
static struct way way_from(struct ft_ctx *c, struct line_bal *b, uint32_t i,
			   uint32_t tgt, unsigned int depth)
{
	struct way best = { UINT32_MAX, UINT32_MAX }, zero = { 0, 0 };
	const uint8_t *cp;
	unsigned int m, j;
	uint8_t set;

	if (i == tgt || i >= b->nsw || depth > 2 * FT_DEPTH)
		return zero;
	set = b->row[i];
	if (set != OT_NO_PORT) {
		cp = &set;
		m = 1;
	} else {
		cp = cands(c, b->l, i, tgt, &m);
	}
	for (j = 0; j < m; j++) {
		struct way v = way_via(c, b, i, cp[j], tgt, depth);

		if (way_less(v, best))
			best = v;
	}
	return best.max == UINT32_MAX ? zero : best;
}

static struct way way_via(struct ft_ctx *c, struct line_bal *b, uint32_t i,
			  unsigned int p, uint32_t tgt, unsigned int depth)
{
	struct way w = { 0, 0 };
	uint32_t here = *bal_load(b, i, p) + 1;
	int32_t v = bal_next(b, i, p);

	if (v >= 0)
		w = way_from(c, b, v, tgt, depth + 1);
	if (here > w.max)
		w.max = here;
	w.sum += here;
	return w;
}

static uint8_t bal_pick(struct ft_ctx *c, struct line_bal *b, uint32_t i,
			uint32_t tgt)
{
	const uint8_t *cp;
	unsigned int m, j, best = 0;
	struct way bw = { UINT32_MAX, UINT32_MAX };
	uint32_t bdest = 0, *dests = b->dests + (size_t)i * (OT_MAX_PORTS + 1);

	cp = cands(c, b->l, i, tgt, &m);
	if (!m)
		return OT_NO_PORT;
	if (b->rotate && i >= b->nsw && m > 1) {
		best = (i - b->nsw + b->turn) % m;
		dests[cp[best]]++;
		return cp[best];
	}
	for (j = 0; j < m && m > 1; j++) {
		struct way v = way_via(c, b, i, cp[j], tgt, 0);

		if (way_less(v, bw) ||
		    (!way_less(bw, v) && dests[cp[j]] < bdest)) {
			bw = v;
			bdest = dests[cp[j]];
			best = j;
		}
	}
	dests[cp[best]]++;
	return cp[best];
}

/* The flows of line l to its j-th destination (target router t). */
static void bal_dest(struct ft_ctx *c, struct line_bal *b, uint32_t j,
		     uint32_t t)
{
	uint32_t tgt = b->nsw + t, s, hops;
	/* a router's own LID carries no CA traffic: no load */
	uint32_t w = c->dest[b->rel[j]].kind == DEST_CA;

	b->turn++;
	b->row = b->ent + (size_t)j * b->nloc;
	/* sources in turn from a point that moves with each destination */
	for (s = 0; s < b->k; s++) {
		uint32_t a = (s + b->turn) % b->k, i = b->nsw + a;

		if (a == t)
			continue;
		for (hops = 0; i != tgt && hops < 4 * FT_DEPTH; hops++) {
			uint8_t *e = &b->row[i];
			int32_t v;

			if (*e == OT_NO_PORT)
				*e = bal_pick(c, b, i, tgt);
			if (*e == OT_NO_PORT || *e == 0)
				break;
			*bal_load(b, i, *e) += w;
			v = bal_next(b, i, *e);
			if (v < 0)
				break;
			i = v;
		}
	}
}

/*
 * Adds (sign 1) or takes off (sign -1) the flows of the line's j-th
 * destination along its set entries, and its destinations per cable.
 */
static void bal_walk(struct ft_ctx *c, struct line_bal *b, uint32_t j,
		     int sign)
{
	const struct ft_dest *dst = &c->dest[b->rel[j]];
	const uint8_t *row = b->ent + (size_t)j * b->nloc;
	uint32_t t = c->kns->coord[(size_t)dst->node * c->n +
				   c->kns->lines[b->l].dim];
	uint32_t tgt = b->nsw + t, a, i, hops;
	uint32_t w = dst->kind == DEST_CA ? (uint32_t)sign : 0;

	for (a = 0; a < b->k; a++) {
		for (i = b->nsw + a, hops = 0; a != t && i != tgt &&
		     hops < 4 * FT_DEPTH; hops++) {
			uint8_t e = row[i];

			if (e == OT_NO_PORT || e == 0 || bal_next(b, i, e) < 0)
				break;
			*bal_load(b, i, e) += w;
			i = bal_next(b, i, e);
		}
	}
	for (i = 0; i < b->nloc; i++)
		if (row[i] != OT_NO_PORT)
			b->dests[(size_t)i * (OT_MAX_PORTS + 1) + row[i]] +=
				(uint32_t)sign;
}

/* The line's entries into the LFTs, switch by switch. */
static void bal_store(struct line_bal *b, uint32_t nrel, uint8_t **lft)
{
	uint32_t i, j;

	for (i = 0; i < b->nloc; i++) {
		uint8_t *out = lft[b->gx[i]];
		const uint8_t *e = b->ent + i;

		for (j = 0; j < nrel; j++, e += b->nloc)
			if (*e != OT_NO_PORT)
				out[b->rel[j]] = *e;
	}
}

/* The most flows on one cable of the line, and whether a router has two
 * cables or more into it (where rotate may do better). */
static uint32_t bal_max(const struct line_bal *b, bool *multi)
{
	uint32_t i, most = 0;
	unsigned int p, up;

	*multi = false;
	for (i = 0; i < b->nloc; i++) {
		for (p = 0, up = 0; p <= OT_MAX_PORTS; p++) {
			uint32_t v = b->load[(size_t)i * (OT_MAX_PORTS + 1) + p];

			if (v > most)
				most = v;
			up += b->next[(size_t)i * (OT_MAX_PORTS + 1) + p] >= 0;
		}
		*multi |= i >= b->nsw && up > 1;
	}
	return most;
}

/*
 * Spreads the line's nrel destinations (the rotate rule as b says);
 * preset: the entries already in b->ent are kept (and followed).
 */
static void bal_line(struct ft_ctx *c, struct line_bal *b, uint32_t nrel,
		     uint32_t turn, bool preset)
{
	uint32_t j;
	unsigned int d = c->kns->lines[b->l].dim;

	b->turn = turn;
	memset(b->load, 0, (size_t)b->nloc * (OT_MAX_PORTS + 1) *
	       sizeof(*b->load));
	memset(b->dests, 0, (size_t)b->nloc * (OT_MAX_PORTS + 1) *
	       sizeof(*b->dests));
	if (!preset)
		memset(b->ent, OT_NO_PORT, (size_t)nrel * b->nloc);
	for (j = 0; j < nrel; j++) {
		const struct ft_dest *dst = &c->dest[b->rel[j]];

		bal_dest(c, b, j,
			 c->kns->coord[(size_t)dst->node * c->n + d]);
	}
}

/* The most flows on one cable, then how many cables carry that many. */
static uint64_t bal_score(const struct line_bal *b)
{
	size_t i, n = (size_t)b->nloc * (OT_MAX_PORTS + 1);
	uint32_t most = 0, at = 0;

	for (i = 0; i < n; i++) {
		if (b->load[i] > most) {
			most = b->load[i];
			at = 0;
		}
		at += b->load[i] == most;
	}
	return (uint64_t)most << 32 | at;
}

/* The loads of the entries in b->ent, walked afresh; their score. */
static uint64_t bal_rewalk(struct ft_ctx *c, struct line_bal *b,
			   uint32_t nrel)
{
	uint32_t j;

	memset(b->load, 0, (size_t)b->nloc * (OT_MAX_PORTS + 1) *
	       sizeof(*b->load));
	memset(b->dests, 0, (size_t)b->nloc * (OT_MAX_PORTS + 1) *
	       sizeof(*b->dests));
	for (j = 0; j < nrel; j++)
		bal_walk(c, b, j, 1);
	return bal_score(b);
}

/*
 * Rip-up and re-route: each destination in turn taken off and spread
 * again by the greedy, now against every other destination's load, for
 * up to BAL_PASSES passes (4 in a row without gain end it); the entries
 * whose busiest cable has the fewest flows (most) are kept.
 */
#define BAL_PASSES 8
#define BAL_STALE 4
static void bal_again(struct ft_ctx *c, struct line_bal *b, uint32_t nrel,
		      uint32_t turn, uint8_t *keep)
{
	unsigned int d = c->kns->lines[b->l].dim, pass, stale = 0;
	uint64_t best, now;
	uint32_t j;

	memcpy(keep, b->ent, (size_t)nrel * b->nloc);
	best = bal_rewalk(c, b, nrel);
	b->rotate = false;
	for (pass = 0; pass < BAL_PASSES && stale < BAL_STALE; pass++) {
		for (j = 0; j < nrel; j++) {
			bal_walk(c, b, j, -1);
			memset(b->ent + (size_t)j * b->nloc, OT_NO_PORT, b->nloc);
			b->turn = turn + j;
			bal_dest(c, b, j, c->kns->coord[(size_t)c->dest[
					  b->rel[j]].node * c->n + d]);
		}
		now = bal_score(b);
		stale = now < best ? 0 : stale + 1;
		if (now < best) {
			best = now;
			memcpy(keep, b->ent, (size_t)nrel * b->nloc);
		}
	}
	memcpy(b->ent, keep, (size_t)nrel * b->nloc);
}

/*
 * On intact lines: the up entries set by equitable colourings
 * (route/hdor_ft_col.c), level by level, the rest (cables down) by the
 * greedy; then again with (sibling group, destination) pairs where that
 * colours differently, with phantom edges at the pairs (the extra flows
 * of a destination spread over the classes), and with those then made to
 * agree on a few destinations and the top's parallel cables down dealt
 * heaviest destination first (way 3).  The best of these
 * and the entries in b->ent
 * (the fewest flows on the busiest cable, then the fewest cables that
 * busy; the colouring on a tie) is kept in b->ent.
 */
static int bal_colour(struct ft_ctx *c, struct line_bal *b, uint32_t nrel,
		      uint32_t turn, uint8_t *keep)
{
	size_t sz = (size_t)nrel * b->nloc;
	uint64_t best, now;
	unsigned int way;
	bool set, uneven = true;

	/* the entries so far, walked */
	memcpy(keep, b->ent, sz);
	best = bal_rewalk(c, b, nrel);
	for (way = 0; way < 4 && uneven; way++) {
		memset(b->ent, OT_NO_PORT, sz);
		if (ot_hdor_ft_colour(c, b->l, b->rel, nrel, b->ent, way, &set,
				      &uneven))
			return -1;
		if (!set)
			break;
		b->rotate = false;
		bal_line(c, b, nrel, turn, true);
		now = bal_score(b);
		if (now <= best) {
			best = now;
			memcpy(keep, b->ent, sz);
		}
	}
	memcpy(b->ent, keep, sz);
	return 0;
}

int ot_hdor_ft_balance(struct ft_ctx *c, struct ot_routing *out)
{
	const struct ot_kns *kns = c->kns;
	struct line_bal b = { .k = c->k };
	uint32_t l, i, maxloc = 0, lowl, nrel, turn, most;
	uint8_t *keep = NULL;
	bool multi;
	int error = 0;

	for (l = 0; l < kns->nlines; l++)
		if (c->line[l].nloc > maxloc)
			maxloc = c->line[l].nloc;
	b.load = malloc((size_t)maxloc * (OT_MAX_PORTS + 1) * sizeof(*b.load));
	b.dests = malloc((size_t)maxloc * (OT_MAX_PORTS + 1) *
			 sizeof(*b.dests));
	b.next = malloc((size_t)maxloc * (OT_MAX_PORTS + 1) * sizeof(*b.next));
	b.gx = malloc(((size_t)maxloc + 1) * sizeof(*b.gx));
	b.rel = malloc(((size_t)c->norder + 1) * sizeof(*b.rel));
	b.ent = malloc(((size_t)c->norder + 1) * maxloc);
	keep = malloc(((size_t)c->norder + 1) * maxloc);
	if (!b.load || !b.dests || !b.next || !b.gx || !b.rel || !b.ent ||
	    !keep) {
		error = ot_error_nomem(c->err, "hdor");
		goto out;
	}
	for (l = 0; l < kns->nlines; l++) {
		const struct ot_kns_line *ln = &kns->lines[l];
		unsigned int d = ln->dim;

		b.l = l;
		b.nsw = ln->nsw;
		for (i = 0; i < c->line[l].nloc; i++) {
			int32_t x = global(c, l, i);
			unsigned int p;

			b.gx[i] = x;
			for (p = 0; p <= OT_MAX_PORTS; p++) {
				int32_t y = p && p <= c->f->node[x].nports ?
					    peer_of(c, x, p) : -1;

				b.next[(size_t)i * (OT_MAX_PORTS + 1) + p] =
					y >= 0 && c->kns->role[y] !=
					OT_KNS_CA ? local(c, l, y) : -1;
			}
		}
		lowl = low_part(c, ln->router[0], d);
		b.nloc = c->line[l].nloc;
		nrel = 0;
		for (i = 0; i < c->norder; i++) {
			uint16_t lid = c->order[d][i];

			if (c->dest[lid].kind != DEST_SWITCH &&
			    !c->escape[lid] &&
			    c->low[(size_t)lid * c->n + d] == lowl)
				b.rel[nrel++] = lid;
		}
		/*
		 * The greedy cost; where routers have several cables into a
		 * line of two stages or more, D-mod-K at the routers too,
		 * and the one whose busiest cable has fewer flows (the
		 * greedy on a tie): neither is always best; then, where
		 * routers have several cables into the line, the rip-up
		 * passes (see doc/kns-fattree.md).
		 */
		turn = b.turn;
		b.rotate = false;
		bal_line(c, &b, nrel, turn, false);
		most = bal_max(&b, &multi);
		if (multi && ln->stages >= 2) {
			memcpy(keep, b.ent, (size_t)nrel * b.nloc);
			b.rotate = true;
			bal_line(c, &b, nrel, turn, false);
			if (bal_max(&b, &multi) >= most)
				memcpy(b.ent, keep, (size_t)nrel * b.nloc);
		}
		if (multi || !c->line[l].proper)
			bal_again(c, &b, nrel, turn, keep);
		error = bal_colour(c, &b, nrel, turn, keep);
		if (error)
			goto out;
		b.turn = turn + nrel;
		bal_store(&b, nrel, out->lft);
	}
out:
	free(b.load);
	free(b.dests);
	free(b.next);
	free(b.gx);
	free(b.rel);
	free(b.ent);
	free(keep);
	return error;
}
