// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * hdor on fat-tree lines: other dimension orders per destination router
 * (seed 001's Mixed-DOR idea), on damaged fabrics.
 *
 * Why.  A router R that kept only some of its cables into its line of
 * dimension d receives, in dimension order, every packet from a source
 * that differs from it in d and in no later dimension over those few
 * cables: with d late in the order, most of the fabric's traffic to R's
 * CAs.  With d first, a source crosses d in its own line of dimension d,
 * and R's damaged line carries only the packets of sources that differ
 * from R in d alone; the others come in over R's intact lines.  The same
 * holds on the sending side: a router's CAs send over its damaged line
 * to fewer destinations when those put another dimension first.
 *
 * The same holds for a thin line (thin_lines()): one that lost a switch,
 * or a cable between two of its switches, carries every packet between
 * its two sides over what is left, and only packets of sources outside
 * it that cross its dimension elsewhere first stay off it.
 *
 * What.  Only where some router has fewer cables into a line than the
 * most any router has into a line of that dimension, or some line is
 * thin (never on an intact fabric: its tables stay byte-identical).  The
 * orders: dimension order (order 0) and, for each dimension e > 0, "e
 * first, then the others in increasing order" (order e); with
 * c->all_orders at n = 3 (ot_hdor_ft_route_orders(), a candidate of
 * route/hdor.c) also the other two orders, the greedy then run with the
 * first n orders and again with all of them, the least busiest kept.
 * Every router with CAs is a candidate: those short of cables first,
 * then those in a thin line, then the rest, each by coordinates; all its
 * CA LIDs move together; escaped LIDs (on an escape layer) never.  Each order other
 * than 0 in use takes an SL and a VL of its own: the VLs left by VL 0,
 * the twists and the escape layers within the budget (c->max_vls; the
 * layers are placed first), the SLs none of those use below c->max_sls.
 * Under order o every router's entry for the LID goes into the line of
 * the first dimension in o where it differs from the LID's router, to a
 * candidate port of route/hdor_ft.c's toward() (parallel cables by the
 * LIDs each port already carries), where the router has an up*-down* way
 * to the target inside that line (lca below INF).  A router without one
 * (a router cut from the line, a leaf cut from the spines) keeps
 * dimension order's entry, its own CAs' packets to the LID on SL 0,
 * where that path is dimension order's all along (holds()); otherwise
 * the LID cannot take order o (without holds(), one router cut from a
 * line kept every LID of the fabric from order o: issue 22's draws of
 * seeds 401 and 920).  The line switches' entries toward a LID do not
 * depend on where it entered the line (toward the LID's coordinate in
 * the line's dimension), so they stay.  A twisted LID
 * (route/hdor_ft_twist.c) keeps dimension order's entry at the routers
 * that twist toward it and every router their twisted packets pass after
 * the twist, since those go on in dimension order from there; its
 * twisted pairs keep their SLs.
 *
 * Which.  With every CA sending to every CA LID along the tables (as
 * ot_hdor_ft_uniform_max() counts), the candidates are walked twice;
 * each takes the order that leaves the busiest channel lowest, ties by
 * the sum of load^8 over the channels, when that beats its current one
 * and every source still reaches the LIDs.  That greedy runs up to three
 * times: with each router's port toward a moved LID chosen by the loads
 * its way through the line meets (order_ports(); with LID counts alone
 * the relays of a destination's line put its LIDs on the same switch,
 * and issue 22's draw of seed 918 kept nothing), then so and with the
 * busiest channel free to rise up to MIX_SLACK above dimension order's
 * on the way (on seed 450's draw every single move raised it, 108 to
 * 110 flows, and the moves together lowered it to 84), then by LID
 * counts; the one whose busiest channel carries least stays.  The
 * result is kept only when its busiest channel carries strictly less
 * than dimension order's (so no fabric gets worse); otherwise every
 * entry goes back.  Either way route/hdor_ft_first.c then moves single
 * routers' own CAs to another order toward a LID (first_alone() where
 * no order was kept).
 *
 * Deadlock freedom.  A moved LID's packets carry its order's SL from the
 * source (path_sl follows the destination, except twisted pairs, which
 * keep their twist's SL, and held ones, SL 0), and every node's SL2VL
 * maps that SL to the order's VL on every hop; no other SL maps there,
 * so VL v carries only packets toward LIDs of one order o.  Without
 * twisted LIDs each such path corrects the differing dimensions in o's
 * order, each line crossed up*-down* (toward() from a router with an
 * up*-down* way, and the switches' entries toward a target below them or
 * up to a parent nearer it).  Rank the channels as in route/hdor_ft.c's
 * top comment with dimension d's base 2S * pos_o(d) instead of 2S * d:
 * ranks rise strictly on every path, so VL v's channel dependency graph
 * has no cycle.  The LIDs that left VL 0 only take paths off it, and
 * every other LID's paths and VLs are unchanged.  A router that keeps
 * dimension order toward a moved LID (holds()) sends its CAs' packets on
 * SL 0 and VL 0, along a dimension order path up*-down* in each line: VL
 * 0's ranking covers it.  No packet changes VL.  With twisted LIDs a
 * path of order o may reach a router that keeps dimension order and go
 * on in dimension order on VL v, which no such ranking covers; so the
 * tables' channel dependency graph is searched (route/hdor_ft.c's cycle
 * search, as the twists' settling does) and, if it has a cycle, the
 * whole mixing is made again without twisted LIDs, which the ranking
 * covers (and searched once more all the same).
 */
#define _GNU_SOURCE /* qsort_r */
#include <stdlib.h>
#include <string.h>

#include "model/routing.h"
#include "route/hdor_ft.h"
#include "route/hdor_ft_int.h"

/* Bound on the CA pairs walked (as ot_hdor_ft_uniform_max()'s). */
#define MIX_PAIRS 4000000ull
/* Passes over the candidate routers. */
#define MIX_PASSES 2
/* The most dimensions the ports are chosen by load for (see wsum). */
#define MIX_LOAD_DIMS 8
/* How far above dimension order's the greedy's busiest may rise (see ceil). */
#define MIX_SLACK 0.1
/* The most dimensions every order of them is tried for (n! orders). */
#define MIX_ALL_DIMS 3

struct mix {
	struct ft_ctx *c;
	uint8_t **lft;
	uint32_t nch;
	size_t *chan;      /* per node: its first channel (port p at + p) */
	double *load;      /* per channel */
	double *delta;     /* per channel, scratch */
	uint32_t *touched; /* channels delta touched */
	uint32_t ntouched;
	uint32_t *w;       /* per node: CAs on it (routers) */
	int32_t *routers;  /* every router, by coordinates */
	uint32_t nrouters;
	uint32_t *cnt;     /* per router slot x port: LIDs sent there */
	int32_t *rslot;    /* per node: router slot, or -1 */
	uint8_t *moved;    /* per LID: excluded (escaped; twisted, see twisted) */
	uint8_t *thin;     /* per line: fewer switches or cables than most */
	uint8_t *twl;      /* per LID: some router twists toward it */
	uint8_t *fixed;    /* per LID and router slot: keeps its entry */
	bool twisted;      /* twisted LIDs may move too */
	uint8_t *next;     /* per LID and router slot: the tried entries */
	uint8_t *bnext;    /* the same, best_order()'s choice's */
	bool byload;       /* order_ports() by the loads its paths meet */
	/*
	 * Per order o, position i in it and router slot: the CAs whose
	 * packets, under o, enter that router's line of o's i-th dimension
	 * there (those agreeing with it from position i on), at
	 * (o * n + i) * nrouters + slot.
	 */
	uint32_t *wsum;
	double *extra;     /* per channel: order_ports()'s own, scratch */
	uint32_t *etouched; /* channels extra touched */
	uint32_t netouched;
	uint8_t orders[64][64]; /* order o: its dimensions in turn */
	unsigned int norders;
	unsigned int ntry;      /* the greedy tries orders 0 to ntry - 1 */
	double sumsq;      /* the score's second part (see pw()) */
	/*
	 * A move that lowers the score's second part may raise the busiest
	 * channel up to this (0: never): on a plateau every single move
	 * raises it a little (seed 450's draw: 108 to 110 flows), while the
	 * moves together lower it (to 84).
	 */
	double ceil;
};

/*
 * Every other order of the dimensions after the first m->norders, in
 * lexical order (n at most MIX_ALL_DIMS).
 */
static void all_orders(struct mix *m)
{
	unsigned int n = m->c->n, i, o;
	uint8_t p[MIX_ALL_DIMS];

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)i;
	while (ot_hdor_next_perm(p, n)) {
		for (o = 0; o < m->norders &&
			    memcmp(m->orders[o], p, n) != 0; o++)
			;
		if (o == m->norders)
			memcpy(m->orders[m->norders++], p, n);
	}
}

/* Router r's first dimension in order o where it and router t differ. */
static int first_in(const struct mix *m, unsigned int o, int32_t r,
		    int32_t t)
{
	const struct ft_ctx *c = m->c;
	const int16_t *rc = c->kns->coord + (size_t)r * c->n;
	const int16_t *tc = c->kns->coord + (size_t)t * c->n;
	unsigned int i;

	for (i = 0; i < c->n; i++)
		if (rc[m->orders[o][i]] != tc[m->orders[o][i]])
			return m->orders[o][i];
	return -1;
}

/*
 * The routers that keep LID lid's dimension order entry (saved, by
 * slot) under another order, into fixed (by slot): those that twist toward it
 * and every router their twisted packets pass after the twist (they go
 * on in dimension order: route/hdor_ft_twist.c).
 */
static void twist_fixed(struct mix *m, uint16_t lid, int32_t t,
			const uint8_t *saved, uint8_t *fixed)
{
	const struct ot_fabric *f = m->c->f;
	uint32_t i, hops;

	memset(fixed, 0, m->nrouters);
	if (!m->twl[lid])
		return;
	for (i = 0; i < m->nrouters; i++) {
		int32_t x = m->routers[i];

		if (ot_hdor_ft_twisted(m->c->twist, m->c->ntwist, x, lid) < 0)
			continue;
		for (hops = 0; x != t && hops <= f->nnodes; hops++) {
			unsigned int p = m->rslot[x] >= 0 ?
					 saved[m->rslot[x]] : m->lft[x][lid];

			if (m->rslot[x] >= 0)
				fixed[m->rslot[x]] = 1;
			if (p == 0 || p == OT_NO_PORT || p > f->node[x].nports ||
			    f->node[x].port[p].peer < 0)
				break;
			x = f->node[x].port[p].peer;
		}
	}
}

/* Whether router r has an up*-down* way to t's value in its line of d. */
static bool has_way(const struct ft_ctx *c, int32_t r, unsigned int d,
		    int32_t t)
{
	uint32_t l = c->rline[(size_t)r * c->n + d];
	int32_t ri = local(c, l, r);
	int16_t v = c->kns->coord[(size_t)t * c->n + d];

	return ri >= 0 && v >= 0 &&
	       c->line[l].lca[(uint32_t)(ri - c->kns->lines[l].nsw) * c->k +
			      (uint32_t)v] != INF;
}

/*
 * Whether router r, with no up*-down* way into the line of order o's
 * first dimension e toward router t, keeps dimension order's entry for
 * t's LIDs (its CAs' packets to them on SL 0 and VL 0: c->hold) rather
 * than keeping t's LIDs from order o: where e is o's first dimension,
 * r's first differing dimension d0 has a way, the dimensions the router
 * r' it reaches there still differs in come in increasing order in o
 * (for "e first" orders: none between d0 and e differs), and r' has a
 * way into its line of e.  From r' on, order o's entries take e, then
 * the others in increasing order, so the path from r is a dimension
 * order one, up*-down* in each line, and VL 0's ranking
 * (route/hdor_ft.c) covers it.  No packet of order o passes r (they
 * reach routers of t's value in e first), so the entry is r's own CAs'.
 */
static bool holds(const struct mix *m, unsigned int o, int32_t r, int32_t t)
{
	const struct ft_ctx *c = m->c;
	const int16_t *rc = c->kns->coord + (size_t)r * c->n;
	const int16_t *tc = c->kns->coord + (size_t)t * c->n;
	int e = first_in(m, o, r, t), d0 = first_in(m, 0, r, t), d, prev;
	unsigned int i;
	int32_t r2;

	if (e < 0 || e != m->orders[o][0] || d0 >= e || has_way(c, r, e, t) ||
	    !has_way(c, r, d0, t))
		return false;
	for (i = 0, prev = d0; i < c->n; i++) {
		d = m->orders[o][i];
		if (d == d0 || rc[d] == tc[d])
			continue;
		if (d < prev)
			return false;
		prev = d;
	}
	if (tc[d0] < 0)
		return false;
	r2 = c->kns->lines[c->rline[(size_t)r * c->n + d0]].router[tc[d0]];
	return r2 >= 0 && has_way(c, r2, e, t);
}

static double pw(double x);

/*
 * The busiest channel (m->load, m->delta and m->extra) from router r out
 * of port p along LID lid's entries until a router, with add more on
 * each, and into *rise what add raises the sum of load^8 (pw()) by;
 * with commit, add goes into m->extra.
 */
static double path_max(struct mix *m, int32_t r, unsigned int p,
		       uint16_t lid, double add, bool commit, double *rise)
{
	const struct ot_fabric *f = m->c->f;
	double mx = 0, v;
	uint32_t hops;
	size_t ch;
	int32_t x = r;

	for (hops = 0; hops <= f->nnodes; hops++) {
		if (p == 0 || p == OT_NO_PORT || p > f->node[x].nports ||
		    f->node[x].port[p].peer < 0)
			break;
		ch = m->chan[x] + p;
		v = m->load[ch] + m->delta[ch] + m->extra[ch];
		*rise += pw(v + add) - pw(v);
		mx = v + add > mx ? v + add : mx;
		if (commit) {
			if (m->extra[ch] == 0)
				m->etouched[m->netouched++] = (uint32_t)ch;
			m->extra[ch] += add;
		}
		x = f->node[x].port[p].peer;
		if (m->c->kns->role[x] == OT_KNS_ROUTER)
			break;
		p = m->lft[x][lid];
	}
	return mx;
}

/*
 * The position of dimension d in order o (n when absent).
 */
static unsigned int pos_in(const struct mix *m, unsigned int o, int d)
{
	unsigned int i;

	for (i = 0; i < m->c->n && m->orders[o][i] != d; i++)
		;
	return i;
}

/*
 * Among router r's (slot i) nc candidate ports cp toward LID lid, entering
 * its line of dimension d under order o: the index of the one whose way
 * to the line's router meets the least busy busiest channel, the LIDs
 * r sends there (cnt) breaking ties, then cp's order; its way then
 * carries the CAs entering there (m->wsum) in m->extra.
 */
static unsigned int load_port(struct mix *m, unsigned int o, uint32_t i,
			      int32_t r, int d, const uint8_t *cp,
			      unsigned int nc, uint16_t lid,
			      const uint32_t *cnt)
{
	unsigned int q, best = 0, at = pos_in(m, o, d);
	double w, v, bv = 0, rise, brise = 0;

	w = at < m->c->n ? m->wsum[((size_t)o * m->c->n + at) *
				   m->nrouters + i] : 0;
	for (q = 0; q < nc; q++) {
		rise = 0;
		v = path_max(m, r, cp[q], lid, w, false, &rise);
		if (!q || v < bv - 1e-9 ||
		    (v < bv + 1e-9 && (rise < brise * (1 - 1e-12) ||
				       (rise <= brise * (1 + 1e-12) &&
					cnt[cp[q]] < cnt[cp[best]])))) {
			bv = v;
			brise = rise;
			best = q;
		}
	}
	if (w > 0)
		path_max(m, r, cp[best], lid, w, true, &rise);
	return best;
}

/*
 * Every router's port toward router t's nl LIDs under order o, into
 * m->next (LID j's at j * nrouters + router slot; 0: none), parallel
 * cables dealt by the LIDs each router sends there, or with m->byload
 * to the candidate whose way through the line to its router meets the
 * least busy busiest channel (the loads without t's LIDs' own, m->delta
 * holding them taken off, and the CAs each router's entry carries, by
 * m->wsum, added as chosen), the LIDs counts breaking ties; false when
 * some router has no up*-down* way in the line it would enter.  Order 0
 * is dimension order's own entries, saved.
 */
static bool order_ports(struct mix *m, unsigned int o, int32_t t,
			const uint16_t *lids, uint32_t nl, const uint8_t *saved)
{
	struct ft_ctx *c = m->c;
	const struct ot_kns *kns = c->kns;
	uint32_t i, j, *cnt, nr = m->nrouters;

	memcpy(m->next, saved, (size_t)nl * nr);
	if (!o)
		return true;
	for (j = 0; j < nl; j++)
		twist_fixed(m, lids[j], t, saved + (size_t)j * nr,
			    m->fixed + (size_t)j * nr);
	for (i = 0; i < nr; i++) {
		int32_t r = m->routers[i];
		int d = first_in(m, o, r, t);
		uint32_t l, tgt, best;
		const uint8_t *cp;
		unsigned int nc, q;
		int32_t ri;
		bool hold;

		if (d < 0)
			continue;
		cnt = m->cnt + (size_t)i * (OT_MAX_PORTS + 1);
		l = c->rline[(size_t)r * c->n + d];
		ri = local(c, l, r);
		tgt = kns->coord[(size_t)t * c->n + d];
		cp = NULL;
		nc = 0;
		if (ri >= 0 && c->line[l].lca[(uint32_t)(ri - kns->lines[l].nsw) *
					      c->k + tgt] != INF)
			cp = cands(c, l, ri, kns->lines[l].nsw + tgt, &nc);
		hold = !nc && holds(m, o, r, t);
		for (j = 0; j < nl; j++) {
			if (m->fixed[(size_t)j * nr + i] || hold)
				continue;
			if (!nc)
				break;
			best = 0;
			if (m->byload && nc > 1)
				best = load_port(m, o, i, r, d, cp, nc,
						 lids[j], cnt);
			else
				for (q = 1; q < nc; q++)
					if (cnt[cp[q]] < cnt[cp[best]])
						best = q;
			m->next[(size_t)j * nr + i] = cp[best];
			cnt[cp[best]]++;
		}
		/* the counts back: only set_entry() changes them */
		while (j-- > 0)
			if (!m->fixed[(size_t)j * nr + i] && !hold)
				cnt[m->next[(size_t)j * nr + i]]--;
		for (j = 0; j < nl; j++)
			if (!m->fixed[(size_t)j * nr + i] && !hold && !nc)
				break;
		if (j < nl)
			break;
	}
	while (m->netouched)
		m->extra[m->etouched[--m->netouched]] = 0;
	return i == nr;
}

/*
 * Adds sign times LID lid's uniform load into m->delta, routers taking
 * next (by slot) when next is set, else their tables.  False when some
 * source's walk does not reach the LID's router.
 */
static bool walk(struct mix *m, uint16_t lid, int32_t t, const uint8_t *next,
		 double sign)
{
	const struct ot_fabric *f = m->c->f;
	uint32_t i, hops;

	for (i = 0; i < m->nrouters; i++) {
		int32_t x = m->routers[i];
		double wt = sign * m->w[x];

		if (x == t)
			continue; /* every router: reached (w 0: no load) */
		for (hops = 0; x != t; hops++) {
			unsigned int p = next && m->rslot[x] >= 0 ?
					 next[m->rslot[x]] : m->lft[x][lid];
			size_t ch;

			if (hops > f->nnodes || p == 0 || p == OT_NO_PORT ||
			    p > f->node[x].nports || f->node[x].port[p].peer < 0)
				return false;
			ch = m->chan[x] + p;
			if (m->delta[ch] == 0)
				m->touched[m->ntouched++] = (uint32_t)ch;
			m->delta[ch] += wt;
			if (m->delta[ch] == 0)
				m->delta[ch] = 1e-300; /* stays touched */
			x = f->node[x].port[p].peer;
		}
	}
	return true;
}

static void clear_delta(struct mix *m)
{
	uint32_t i;

	for (i = 0; i < m->ntouched; i++)
		m->delta[m->touched[i]] = 0;
	m->ntouched = 0;
}

/*
 * A channel's share of the score's second part: load^8, so that among
 * equally busy busiest channels the busier others weigh most (with
 * squares the greedy stopped at 0.736 on doc/kns-mix.md's 3x3x3, with
 * load^8 at 0.946).
 */
static double pw(double x)
{
	double y = x * x;

	y *= y;
	return y * y;
}

/* (busiest channel, sum of load^8) with m->delta added. */
static void score(const struct mix *m, double *s)
{
	uint32_t i;
	double mx = 0, sq = m->sumsq;

	for (i = 0; i < m->ntouched; i++) {
		double a = m->load[m->touched[i]];
		double b = a + m->delta[m->touched[i]];

		sq += pw(b) - pw(a);
	}
	for (i = 0; i < m->nch; i++) {
		double v = m->load[i] + m->delta[i];

		mx = v > mx ? v : mx;
	}
	s[0] = mx;
	s[1] = sq;
}

static void commit_delta(struct mix *m)
{
	uint32_t i;

	for (i = 0; i < m->ntouched; i++) {
		double a = m->load[m->touched[i]];
		double b = a + m->delta[m->touched[i]];

		if (b < 1e-9)
			b = 0;
		m->sumsq += pw(b) - pw(a);
		m->load[m->touched[i]] = b;
	}
	clear_delta(m);
}

/* Router slot i's LID count on port p, and the new entry set. */
static void set_entry(struct mix *m, uint32_t i, uint16_t lid, uint8_t p)
{
	uint8_t *e = &m->lft[m->routers[i]][lid];

	if (*e <= OT_MAX_PORTS)
		m->cnt[(size_t)i * (OT_MAX_PORTS + 1) + *e]--;
	*e = p;
	m->cnt[(size_t)i * (OT_MAX_PORTS + 1) + p]++;
}

/* Routers by their coordinates, the last dimension most significant. */
static int cmp_router(const void *a, const void *b, void *arg)
{
	const struct ft_ctx *c = arg;
	const int16_t *x = c->kns->coord + (size_t)*(const int32_t *)a * c->n;
	const int16_t *y = c->kns->coord + (size_t)*(const int32_t *)b * c->n;
	unsigned int d;

	for (d = c->n; d-- > 0;)
		if (x[d] != y[d])
			return x[d] < y[d] ? -1 : 1;
	return 0;
}

/*
 * Router r's cables into a line, per dimension, into have (64 of them);
 * whether one of those lines is thin (by thin, NULL: none is).
 */
static bool line_cables(const struct ft_ctx *c, int32_t r,
			const uint8_t *thin, uint8_t *have)
{
	const struct ot_node *nd = &c->f->node[r];
	unsigned int p;
	bool any = false;

	memset(have, 0, 64);
	for (p = 1; p <= nd->nports; p++) {
		int32_t y = nd->port[p].peer;

		if (y < 0 || c->kns->role[y] != OT_KNS_SWITCH)
			continue;
		have[c->kns->dim[y]]++;
		any |= thin && c->kns->line[y] >= 0 && thin[c->kns->line[y]];
	}
	return any;
}

/*
 * How router r is damaged: 2 where it has fewer cables into a line than
 * its dimension's most, 1 where only one of its lines is thin (m->thin),
 * 0 where neither.
 */
static unsigned int damaged(const struct mix *m, int32_t r,
			    const uint8_t *most)
{
	uint8_t have[64];
	bool thin = line_cables(m->c, r, m->thin, have);
	unsigned int d;

	for (d = 0; d < m->c->n; d++)
		if (have[d] < most[d])
			return 2;
	return thin;
}

/*
 * The thin lines: fewer switches, or fewer cables between two of its
 * switches, than the most any line of its dimension has (a spine or a
 * leaf's cable up lost: every packet between the line's halves crosses
 * what is left, in whatever order its dimensions come).
 */
static int thin_lines(struct mix *m)
{
	const struct ft_ctx *c = m->c;
	const struct ot_kns *kns = c->kns;
	uint32_t *cab = calloc((size_t)kns->nlines + 1, sizeof(*cab));
	uint32_t mostcab[64] = { 0 }, mostsw[64] = { 0 }, l, i;

	m->thin = calloc((size_t)kns->nlines + 1, 1);
	if (!cab || !m->thin) {
		free(cab);
		return -1;
	}
	for (i = 0; i < c->f->nnodes; i++) {
		const struct ot_node *nd = &c->f->node[i];
		unsigned int p;

		if (kns->role[i] != OT_KNS_SWITCH || kns->line[i] < 0)
			continue;
		for (p = 1; p <= nd->nports; p++) {
			int32_t y = nd->port[p].peer;

			cab[kns->line[i]] += y >= 0 &&
					     kns->role[y] == OT_KNS_SWITCH;
		}
	}
	for (l = 0; l < kns->nlines; l++) {
		int d = kns->lines[l].dim;

		if (d < 0 || d >= 64)
			continue;
		mostcab[d] = cab[l] > mostcab[d] ? cab[l] : mostcab[d];
		mostsw[d] = kns->lines[l].nsw > mostsw[d] ? kns->lines[l].nsw :
							    mostsw[d];
	}
	for (l = 0; l < kns->nlines; l++) {
		int d = kns->lines[l].dim;

		m->thin[l] = d >= 0 && d < 64 &&
			     (cab[l] < mostcab[d] ||
			      kns->lines[l].nsw < mostsw[d]);
	}
	free(cab);
	return 0;
}

static int setup(struct mix *m)
{
	struct ft_ctx *c = m->c;
	const struct ot_fabric *f = c->f;
	const struct ot_kns *kns = c->kns;
	uint32_t x, i, lid;
	size_t at = 0;

	m->chan = malloc(((size_t)f->nnodes + 1) * sizeof(*m->chan));
	m->w = calloc((size_t)f->nnodes + 1, sizeof(*m->w));
	m->rslot = malloc(((size_t)f->nnodes + 1) * sizeof(*m->rslot));
	m->routers = malloc(((size_t)f->nnodes + 1) * sizeof(*m->routers));
	m->moved = calloc((size_t)f->max_lid + 1, 1);
	if (!m->chan || !m->w || !m->rslot || !m->routers || !m->moved)
		return -1;
	for (x = 0; x < f->nnodes; x++) {
		int32_t r = f->node[x].nports ? f->node[x].port[1].peer : -1;

		m->chan[x] = at;
		at += f->node[x].nports + 1u;
		if (kns->role[x] == OT_KNS_ROUTER)
			m->routers[m->nrouters++] = (int32_t)x;
		if (f->node[x].type == OT_NODE_CA && r >= 0)
			m->w[r]++;
	}
	m->nch = (uint32_t)at;
	qsort_r(m->routers, m->nrouters, sizeof(*m->routers), cmp_router, c);
	for (x = 0; x < f->nnodes; x++)
		m->rslot[x] = -1;
	for (i = 0; i < m->nrouters; i++)
		m->rslot[m->routers[i]] = (int32_t)i;
	m->load = calloc(at + 1, sizeof(*m->load));
	m->delta = calloc(at + 1, sizeof(*m->delta));
	m->touched = malloc((at + 1) * sizeof(*m->touched));
	m->cnt = calloc((size_t)m->nrouters * (OT_MAX_PORTS + 1) + 1,
			sizeof(*m->cnt));
	if (!m->load || !m->delta || !m->touched || !m->cnt)
		return -1;
	for (i = 0; i < m->nrouters; i++)
		for (lid = 1; lid <= f->max_lid; lid++) {
			uint8_t p = m->lft[m->routers[i]][lid];

			if (p <= OT_MAX_PORTS)
				m->cnt[(size_t)i * (OT_MAX_PORTS + 1) + p]++;
		}
	m->twl = calloc((size_t)f->max_lid + 1, 1);
	if (!m->twl)
		return -1;
	for (i = 0; i < c->ntwist; i++)
		m->twl[c->twist[i] >> 16 & 0xffff] = 1;
	for (lid = 1; lid <= f->max_lid; lid++)
		m->moved[lid] = (c->escape && c->escape[lid]) ||
				(m->twl[lid] && !m->twisted) ||
				(c->blid && c->blid[lid]);
	return 0;
}

struct wkey {
	uint64_t key;
	uint32_t slot;
};

static int cmp_wkey(const void *a, const void *b)
{
	const struct wkey *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->slot < y->slot ? -1 : x->slot > y->slot;
}

/*
 * m->wsum (see struct mix) and the scratch of order_ports() by load;
 * m->byload stays false where n is above MIX_LOAD_DIMS, or k^n does not
 * fit a key.  0, or -1 out of memory.
 */
static int wsum_setup(struct mix *m)
{
	const struct ft_ctx *c = m->c;
	uint32_t nr = m->nrouters, a, b;
	unsigned int o, i, e;
	struct wkey *kv;
	uint64_t span = 1;

	for (e = 0; e < c->n; e++) {
		if (c->n > MIX_LOAD_DIMS || span > UINT64_MAX / (c->k + 1u))
			return 0;
		span *= c->k + 1u;
	}
	m->wsum = calloc((size_t)m->norders * c->n * nr + 1,
			 sizeof(*m->wsum));
	m->extra = calloc(m->nch + 1, sizeof(*m->extra));
	m->etouched = malloc((m->nch + 1) * sizeof(*m->etouched));
	kv = malloc((nr + 1) * sizeof(*kv));
	if (!m->wsum || !m->extra || !m->etouched || !kv) {
		free(kv);
		return -1;
	}
	for (o = 0; o < m->norders; o++)
		for (i = 0; i < c->n; i++) {
			uint32_t *ws = m->wsum + ((size_t)o * c->n + i) * nr;

			for (a = 0; a < nr; a++) {
				const int16_t *co = c->kns->coord +
					(size_t)m->routers[a] * c->n;
				uint64_t key = 0;

				for (e = i; e < c->n; e++) {
					int16_t v = co[m->orders[o][e]];

					key = key * (c->k + 1u) +
					      (uint64_t)(v + 1);
				}
				kv[a].key = key;
				kv[a].slot = a;
			}
			qsort(kv, nr, sizeof(*kv), cmp_wkey);
			for (a = 0; a < nr; a = b) {
				uint32_t sum = 0, z;

				for (b = a; b < nr && kv[b].key == kv[a].key;
				     b++)
					sum += m->w[m->routers[kv[b].slot]];
				for (z = a; z < b; z++)
					ws[kv[z].slot] = sum;
			}
		}
	free(kv);
	m->byload = true;
	return 0;
}

static void teardown(struct mix *m)
{
	free(m->chan);
	free(m->w);
	free(m->rslot);
	free(m->routers);
	free(m->moved);
	free(m->thin);
	free(m->twl);
	free(m->fixed);
	free(m->load);
	free(m->delta);
	free(m->touched);
	free(m->cnt);
	free(m->next);
	free(m->bnext);
	free(m->wsum);
	free(m->extra);
	free(m->etouched);
}

/* The CA LIDs of router t, into lids (at most max); 0 when one is excluded. */
static uint32_t router_lids(const struct mix *m, int32_t t, uint16_t *lids,
			    uint32_t max)
{
	const struct ft_ctx *c = m->c;
	uint32_t i, nl = 0;

	for (i = 0; i < c->norder; i++) {
		uint16_t lid = c->order[c->n][i];

		if (c->dest[lid].kind != DEST_CA || c->dest[lid].node != t)
			continue;
		if (m->moved[lid] || nl == max)
			return 0;
		lids[nl++] = lid;
	}
	return nl;
}

/*
 * Router t's nl LIDs onto the entries in m->next (see order_ports()),
 * their loads moved from the tables' paths to those.
 */
static void move(struct mix *m, int32_t t, const uint16_t *lids,
		 uint32_t nl)
{
	uint32_t j, a;

	for (j = 0; j < nl; j++) {
		const uint8_t *nx = m->next + (size_t)j * m->nrouters;

		walk(m, lids[j], t, NULL, -1);
		walk(m, lids[j], t, nx, 1);
		commit_delta(m);
		for (a = 0; a < m->nrouters; a++)
			if (nx[a])
				set_entry(m, a, lids[j], nx[a]);
	}
}

/*
 * Every candidate's LIDs back to dimension order's saved entries (save:
 * maxl LIDs x routers per candidate), cur[] to 0.
 */
static void back(struct mix *m, const int32_t *cand, uint8_t *cur,
		 uint32_t ncand, uint16_t *lids, uint32_t maxl,
		 const uint8_t *save)
{
	uint32_t i, nl;

	for (i = 0; i < ncand; i++) {
		if (!cur[i])
			continue;
		nl = router_lids(m, cand[i], lids, maxl);
		order_ports(m, 0, cand[i], lids, nl,
			    save + (size_t)i * maxl * m->nrouters);
		move(m, cand[i], lids, nl);
		cur[i] = 0;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

bool ot_hdor_ft_held(const uint64_t *keys, uint32_t n, int32_t router,
		     uint16_t lid)
{
	uint64_t key = (uint64_t)(uint32_t)router << 16 | lid;

	return bsearch(&key, keys, n, sizeof(*keys), cmp_u64) != NULL;
}

/*
 * The routers that keep dimension order toward the moved LIDs (holds()),
 * into c->hold, sorted.  0, or -1 out of memory.
 */
static int hold_keys(struct mix *m, const int32_t *cand, const uint8_t *cur,
		     uint32_t ncand, uint16_t *lids, uint32_t maxl)
{
	struct ft_ctx *c = m->c;
	uint32_t i, j, a, nl;
	size_t n = 0, cap = 0;
	uint64_t *keys = NULL, *more, key;

	for (i = 0; i < ncand; i++) {
		if (!cur[i])
			continue;
		nl = router_lids(m, cand[i], lids, maxl);
		for (a = 0; a < m->nrouters; a++) {
			if (!holds(m, cur[i], m->routers[a], cand[i]))
				continue;
			key = (uint64_t)(uint32_t)m->routers[a] << 16;
			if (n + nl > cap) {
				cap = 2 * (n + nl);
				more = realloc(keys, cap * sizeof(*keys));
				if (!more) {
					free(keys);
					return -1;
				}
				keys = more;
			}
			for (j = 0; j < nl; j++)
				keys[n++] = key | lids[j];
		}
	}
	if (n)
		qsort(keys, n, sizeof(*keys), cmp_u64);
	c->hold = keys;
	c->nhold = (uint32_t)n;
	return 0;
}

/* The nl LIDs' entries at every router, into k (LID j's at j * routers). */
static void entries(const struct mix *m, const uint16_t *lids, uint32_t nl,
		    uint8_t *k)
{
	uint32_t j, a;

	for (j = 0; j < nl; j++)
		for (a = 0; a < m->nrouters; a++)
			k[(size_t)j * m->nrouters + a] =
				m->lft[m->routers[a]][lids[j]];
}

/*
 * Every candidate's order (cur) and its LIDs' entries at every router
 * (as save), into kcur and keep.
 */
static void snapshot(const struct mix *m, const int32_t *cand,
		     const uint8_t *cur, uint32_t ncand, uint16_t *lids,
		     uint32_t maxl, uint8_t *keep, uint8_t *kcur)
{
	uint32_t i, nl;

	for (i = 0; i < ncand; i++) {
		kcur[i] = cur[i];
		if (!cur[i])
			continue;
		nl = router_lids(m, cand[i], lids, maxl);
		entries(m, lids, nl, keep + (size_t)i * maxl * m->nrouters);
	}
}

/* The kept candidates' entries and orders (snapshot()) back in place. */
static void restore(struct mix *m, const int32_t *cand, uint8_t *cur,
		    uint32_t ncand, uint16_t *lids, uint32_t maxl,
		    const uint8_t *keep, const uint8_t *kcur)
{
	uint32_t i, nl;

	for (i = 0; i < ncand; i++) {
		if (!kcur[i])
			continue;
		nl = router_lids(m, cand[i], lids, maxl);
		memcpy(m->next, keep + (size_t)i * maxl * m->nrouters,
		       (size_t)nl * m->nrouters);
		move(m, cand[i], lids, nl);
		cur[i] = kcur[i];
	}
}

/* The orders other than 0 that candidates other than skip use, as bits. */
static uint64_t orders_used(const uint8_t *cur, uint32_t ncand, uint32_t skip)
{
	uint64_t set = 0;
	uint32_t j;

	for (j = 0; j < ncand; j++)
		if (j != skip && cur[j])
			set |= 1ull << cur[j];
	return set;
}

/*
 * Candidate i's best order (see the top) from the current loads: its
 * current one unless another leaves a lower score, whose entries are
 * then in m->bnext.
 */
static unsigned int best_order(struct mix *m, const uint8_t *cur,
			       uint32_t ncand, uint32_t i, int32_t t,
			       const uint16_t *lids, uint32_t nl,
			       const uint8_t *saved, unsigned int free_vls)
{
	uint64_t in_use = orders_used(cur, ncand, i);
	unsigned int o, bo = cur[i];
	double best[2], s[2];
	uint32_t j;

	score(m, best);
	for (o = 0; o < m->ntry; o++) {
		bool ok = true;

		if (o == cur[i] ||
		    (o && !(in_use >> o & 1) &&
		     (unsigned int)__builtin_popcountll(in_use) >= free_vls))
			continue;
		/* by load: t's LIDs' own taken off first (see order_ports()) */
		for (j = 0; j < nl && ok && m->byload; j++)
			ok = walk(m, lids[j], t, NULL, -1);
		if (!ok || !order_ports(m, o, t, lids, nl, saved)) {
			clear_delta(m);
			continue;
		}
		for (j = 0; j < nl && ok; j++)
			ok = (m->byload || walk(m, lids[j], t, NULL, -1)) &&
			     walk(m, lids[j], t,
				  m->next + (size_t)j * m->nrouters, 1);
		if (ok) {
			score(m, s);
			double top = best[0] > m->ceil ? best[0] : m->ceil;

			if (s[0] < best[0] - 1e-9 ||
			    (s[0] < top + 1e-9 &&
			     s[1] < best[1] * (1 - 1e-12))) {
				best[0] = s[0];
				best[1] = s[1];
				bo = o;
				memcpy(m->bnext, m->next,
				       (size_t)nl * m->nrouters);
			}
		}
		clear_delta(m);
	}
	return bo;
}

/*
 * The greedy passes over the candidates (see the top), from cur[] (their
 * orders) on, each moved onto the entries best_order() chose (with
 * m->byload, from the loads without its LIDs' own).
 */
static void greedy(struct mix *m, const int32_t *cand, uint8_t *cur,
		   uint32_t ncand, uint16_t *lids, uint32_t maxl,
		   const uint8_t *save, unsigned int free_vls)
{
	unsigned int pass, o;
	const uint8_t *saved;
	uint32_t i, nl;

	for (pass = 0; pass < MIX_PASSES; pass++)
		for (i = 0; i < ncand; i++) {
			nl = router_lids(m, cand[i], lids, maxl);
			saved = save + (size_t)i * maxl * m->nrouters;
			if (!nl)
				continue;
			o = best_order(m, cur, ncand, i, cand[i], lids, nl,
				       saved, free_vls);
			if (o == cur[i])
				continue;
			/*
			 * best_order()'s entries for o: order_ports() made
			 * them from these same loads, counts and tables
			 */
			memcpy(m->next, m->bnext, (size_t)nl * m->nrouters);
			move(m, cand[i], lids, nl);
			cur[i] = (uint8_t)o;
		}
}

/*
 * Every node's SL2VL: a mixed order's SL on its VL on every hop (on:
 * else back on VL 0, where it was), the other SLs as they were.  0, or
 * -1 with c->err set.
 */
static int mix_sl2vl(struct ft_ctx *c, struct ot_routing *out, bool on)
{
	const struct ot_fabric *f = c->f;
	unsigned int in, o, np, sl;
	uint32_t x;

	for (x = 0; x < f->nnodes; x++) {
		uint8_t *t = out->sl2vl[x];

		if (!t && !(t = ot_routing_sl2vl_new(out, x)))
			return ot_error_nomem(c->err, "hdor");
		np = f->node[x].nports;
		for (in = 0; in <= np; in++)
			for (o = 0; o <= np; o++)
				for (sl = 2; sl < OT_NUM_SLS; sl++)
					if (c->mvl[sl])
						t[ot_sl2vl_index(np, in, o,
								 sl)] =
							on ? c->mvl[sl] : 0;
	}
	return 0;
}

/*
 * Where the mixing keeps no order: the first line per source router
 * alone (route/hdor_ft_first.c), offered the first free_vls orders after
 * dimension order; those it uses take SLs and VLs as the mixing's would
 * (c->mvl, c->nmix), and with twisted LIDs or bounces the channel
 * dependency graph is searched (every entry back on a cycle).  0, or -1
 * with c->err set.
 */
static int first_alone(struct ft_ctx *c, struct ot_routing *out,
		       struct mix *m, unsigned int used_vls,
		       uint32_t used_sls, unsigned int free_vls,
		       int (*cyclic)(struct ft_ctx *c, struct ot_routing *out))
{
	uint8_t osl[64] = { 0 }, map[OT_NUM_SLS] = { 0 };
	unsigned int o, sl, e, k;
	uint32_t i;
	int cyc;

	for (o = 1, sl = 2, k = 0; o < m->norders && k < free_vls; o++, k++) {
		while (used_sls >> sl & 1)
			sl++;
		osl[o] = (uint8_t)sl++;
	}
	if (ot_hdor_ft_first(c, out->lft, (const uint8_t (*)[64])m->orders,
			     osl, m->norders))
		return -1;
	if (!c->nfkeys)
		return 0;
	/* the SLs in use renumbered in order, each with a VL */
	for (i = 0; i < c->nfkeys; i++)
		map[c->fkeys[i] & 0xff] = 1;
	for (o = 1, sl = 2, e = used_vls; o < m->norders; o++) {
		if (!osl[o] || !map[osl[o]])
			continue;
		while (used_sls >> sl & 1)
			sl++;
		map[osl[o]] = (uint8_t)sl;
		c->mvl[sl++] = (uint8_t)e++;
	}
	for (i = 0; i < c->nfkeys; i++)
		c->fkeys[i] = (c->fkeys[i] & ~0xffull) |
			      map[c->fkeys[i] & 0xff];
	c->nmix = e - used_vls;
	if (mix_sl2vl(c, out, true))
		return -1;
	if (!c->ntwist && !c->nbkeys)
		return 0;
	cyc = cyclic(c, out);
	if (cyc > 0) {
		ot_hdor_ft_first_undo(c, out->lft);
		if (mix_sl2vl(c, out, false))
			return -1;
		memset(c->mvl, 0, sizeof(c->mvl));
		c->nmix = 0;
	}
	return cyc < 0 ? -1 : 0;
}

/*
 * The mixing (see the top): c->mixsl, c->mvl and c->nmix set, the
 * routers' entries in out's tables changed and every SL2VL set when it
 * is kept; also only when cyclic(), the channel dependency graph's
 * search, finds no cycle (1 cycle, 0 none, -1 with c->err set).
 * used_vls: the data VLs in use; used_sls: the SLs in use, as bits.
 * 0, or -1 with c->err set.
 */
static int mix_run(struct ft_ctx *c, struct ot_routing *out,
		   unsigned int used_vls, uint32_t used_sls,
		   int (*cyclic)(struct ft_ctx *c, struct ot_routing *out),
		   bool twisted, bool all, bool *cycle)
{
	const struct ot_fabric *f = c->f;
	struct mix m = { .c = c, .lft = out->lft, .twisted = twisted };
	bool any = false;
	uint8_t most[64] = { 0 }, have[64];
	int32_t *cand = NULL;
	uint8_t *cur = NULL, *save = NULL;
	uint16_t *lids = NULL;
	uint32_t ncand = 0, i, j, nl, x, maxl = 0, lid;
	uint64_t ncas = 0;
	unsigned int o, d, e, free_vls, free_sls = 0, sl;
	uint8_t osl[64] = { 0 }, ovl[64] = { 0 };
	double base[2], s[2], best = 0;
	unsigned int v, nvar, nbase, bv = 0;
	uint8_t *keep = NULL, *kcur = NULL;
	int error = 0, cyc;

	if (c->nfkeys) {
		/*
		 * a run before kept no order but first lines (first_alone())
		 * and left *cycle set: its entries and VLs back
		 */
		ot_hdor_ft_first_undo(c, out->lft);
		if (mix_sl2vl(c, out, false))
			return -1;
		memset(c->mvl, 0, sizeof(c->mvl));
		c->nmix = 0;
	}
	if (c->n < 2 || c->n > 64 || used_vls >= c->max_vls)
		return 0;
	for (x = 0; x < f->nnodes; x++)
		ncas += f->node[x].type == OT_NODE_CA;
	if (ncas * ncas > MIX_PAIRS)
		return 0;
	free_vls = c->max_vls - used_vls;
	for (sl = 2; sl < OT_NUM_SLS && sl < c->max_sls; sl++)
		free_sls += !(used_sls >> sl & 1);
	if (free_sls < free_vls)
		free_vls = free_sls;
	if (!free_vls)
		return 0;
	/* the most cables a router has into a line, per dimension */
	for (x = 0; x < f->nnodes; x++) {
		if (c->kns->role[x] != OT_KNS_ROUTER)
			continue;
		line_cables(c, (int32_t)x, NULL, have);
		for (d = 0; d < c->n; d++)
			most[d] = have[d] > most[d] ? have[d] : most[d];
	}
	if (setup(&m) || thin_lines(&m)) {
		error = ot_error_nomem(c->err, "hdor");
		goto out;
	}
	for (i = 0; i < m.nrouters; i++)
		any |= damaged(&m, m.routers[i], most) > 0;
	for (i = 0; i < m.nrouters && any; i++)
		ncand += m.w[m.routers[i]] > 0;
	if (!ncand)
		goto out;
	/* the orders: dimension order, then e first for every e > 0 */
	for (e = 0; e < c->n; e++) {
		m.orders[e][0] = (uint8_t)e;
		for (d = 0, j = 1; d < c->n; d++)
			if (d != e)
				m.orders[e][j++] = (uint8_t)d;
	}
	m.norders = c->n;
	if (all && c->n <= MIX_ALL_DIMS)
		all_orders(&m);
	cand = malloc(ncand * sizeof(*cand));
	cur = calloc(ncand, 1);
	lids = malloc(((size_t)f->max_lid + 1) * sizeof(*lids));
	if (!cand || !cur || !lids) {
		error = ot_error_nomem(c->err, "hdor");
		goto out;
	}
	/*
	 * the routers short of cables first, then those in a thin line,
	 * then the others, each by coordinates
	 */
	for (j = 0, d = 3; d-- > 0;)
		for (i = 0; i < m.nrouters; i++)
			if (m.w[m.routers[i]] &&
			    damaged(&m, m.routers[i], most) == d)
				cand[j++] = m.routers[i];
	for (i = 0; i < ncand; i++) {
		nl = router_lids(&m, cand[i], lids, f->max_lid + 1);
		maxl = nl > maxl ? nl : maxl;
	}
	/* every candidate LID's dimension order entries, to go back to */
	save = malloc((size_t)ncand * maxl * m.nrouters + 1);
	m.next = malloc((size_t)maxl * m.nrouters + 1);
	m.bnext = malloc((size_t)maxl * m.nrouters + 1);
	m.fixed = malloc((size_t)maxl * m.nrouters + 1);
	if (!save || !m.next || !m.bnext || !m.fixed) {
		error = ot_error_nomem(c->err, "hdor");
		goto out;
	}
	for (i = 0; i < ncand; i++) {
		nl = router_lids(&m, cand[i], lids, maxl);
		entries(&m, lids, nl, save + (size_t)i * maxl * m.nrouters);
	}
	/* dimension order's uniform loads, the CAs' own cables too */
	for (lid = 1; lid <= f->max_lid; lid++) {
		const struct ft_dest *dst = &c->dest[lid];
		double own = (double)ncas - 1;

		if (dst->kind != DEST_CA)
			continue;
		walk(&m, (uint16_t)lid, dst->node, NULL, 1);
		commit_delta(&m);
		m.load[m.chan[dst->node] + dst->ca_port] += own;
		m.sumsq += pw(own);
	}
	score(&m, base);
	if (wsum_setup(&m)) {
		error = ot_error_nomem(c->err, "hdor");
		goto out;
	}
	/*
	 * where it can (wsum_setup()), the greedy with ports by load, then
	 * by load with the busiest channel free to rise up to MIX_SLACK
	 * above dimension order's on the way (m.ceil); then, and alone
	 * elsewhere, by LID counts.  The first whose busiest channel
	 * carries least is kept, its entries put back as they were: no
	 * fabric gets worse than by LID counts alone.
	 */
	nbase = m.byload ? 3 : 1;
	nvar = m.norders > c->n ? 2 * nbase : nbase;
	keep = malloc((size_t)ncand * maxl * m.nrouters + 1);
	kcur = calloc(ncand + 1, 1);
	if (!keep || !kcur) {
		error = ot_error_nomem(c->err, "hdor");
		goto out;
	}
	for (v = 0; v < nvar; v++) {
		m.ntry = v < nbase ? c->n : m.norders;
		m.byload = nbase > 1 && v % nbase < 2;
		m.ceil = nbase > 1 && v % nbase == 1 ?
				 base[0] * (1 + MIX_SLACK) : 0;
		greedy(&m, cand, cur, ncand, lids, maxl, save, free_vls);
		score(&m, s);
		if (!v || s[0] < best - 1e-9) {
			best = s[0];
			bv = v;
			snapshot(&m, cand, cur, ncand, lids, maxl, keep, kcur);
		}
		if (v + 1 < nvar || bv != v)
			back(&m, cand, cur, ncand, lids, maxl, save);
	}
	if (bv != nvar - 1) /* the best one's entries back, as they were */
		restore(&m, cand, cur, ncand, lids, maxl, keep, kcur);
	score(&m, s);
	if (!(s[0] < base[0] - 1e-9)) {
		/* not better: every entry back to dimension order */
		back(&m, cand, cur, ncand, lids, maxl, save);
		error = first_alone(c, out, &m, used_vls, used_sls, free_vls,
				    cyclic);
		goto out;
	}
	/* SLs and VLs for the orders in use, in order number */
	for (o = 1, sl = 2, e = used_vls; o < m.norders; o++) {
		if (!(orders_used(cur, ncand, ncand) >> o & 1))
			continue;
		while (used_sls >> sl & 1)
			sl++;
		osl[o] = (uint8_t)sl++;
		ovl[o] = (uint8_t)e++;
	}
	c->mixsl = calloc((size_t)f->max_lid + 1, 1);
	if (!c->mixsl) {
		error = ot_error_nomem(c->err, "hdor");
		goto out;
	}
	c->nmix = e - used_vls;
	if (hold_keys(&m, cand, cur, ncand, lids, maxl)) {
		error = ot_error_nomem(c->err, "hdor");
		goto out;
	}
	for (i = 0; i < ncand; i++) {
		if (!cur[i])
			continue;
		nl = router_lids(&m, cand[i], lids, maxl);
		for (j = 0; j < nl; j++)
			c->mixsl[lids[j]] = osl[cur[i]];
		c->mvl[osl[cur[i]]] = ovl[cur[i]];
	}
	error = mix_sl2vl(c, out, true);
	cyc = error ? -1 : cyclic(c, out);
	*cycle = cyc > 0;
	if (cyc > 0) {
		/* twisted LIDs moved (see the top): dimension order */
		back(&m, cand, cur, ncand, lids, maxl, save);
		error = mix_sl2vl(c, out, false);
		memset(c->mvl, 0, sizeof(c->mvl));
		free(c->mixsl);
		c->mixsl = NULL;
		c->nmix = 0;
		free(c->hold);
		c->hold = NULL;
		c->nhold = 0;
	}
	if (!cyc && !error)
		error = ot_hdor_ft_first(c, out->lft,
					 (const uint8_t (*)[64])m.orders, osl,
					 m.norders);
	if (!cyc && !error && c->nfkeys && (c->ntwist || c->nbkeys)) {
		/* twisted LIDs: searched again (route/hdor_ft_first.c) */
		cyc = cyclic(c, out);
		if (cyc > 0)
			ot_hdor_ft_first_undo(c, out->lft);
		cyc = cyc > 0 ? 0 : cyc;
	}
	if (cyc < 0)
		error = -1;
out:
	teardown(&m);
	free(keep);
	free(kcur);
	free(cand);
	free(cur);
	free(lids);
	free(save);
	return error;
}

int ot_hdor_ft_mix(struct ft_ctx *c, struct ot_routing *out,
		   unsigned int used_vls, uint32_t used_sls,
		   int (*cyclic)(struct ft_ctx *c, struct ot_routing *out))
{
	bool cycle = false;

	if (mix_run(c, out, used_vls, used_sls, cyclic, true, c->all_orders,
		    &cycle))
		return -1;
	if (cycle && c->all_orders && c->n > 2 && c->n <= MIX_ALL_DIMS &&
	    mix_run(c, out, used_vls, used_sls, cyclic, true, false, &cycle))
		return -1;
	if (!cycle || !c->ntwist)
		return 0;
	return mix_run(c, out, used_vls, used_sls, cyclic, false, false,
		       &cycle);
}
