// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Mis-cabling reports (see miscable.h), beside the recognizers in the
 * flow (fabric -> recognizer -> coordinates -> engine): when the KNS
 * recognizer refuses a fabric, find the few router-to-switch cables whose
 * switch ends are in the wrong place.
 *
 * In a KNS (seed 000) every router has L cables to each of its n
 * indirect switches, and two indirect switches share at most one router
 * (lines of different dimensions cross in at most one router, lines of
 * one dimension never).  A cable end moved to the wrong switch breaks
 * that at the routers around it.  Each router gets a score: how far its
 * cable counts per switch are off L, plus, for each pair of its
 * switches, the routers of one that are, or share a switch with, a router
 * of the other (in a KNS those differ in two coordinates); the search swaps the switch ends of two cables of
 * scored routers when that lowers the sum the most (a swap changes the
 * scores only of the two routers and those of the two switches), until
 * the sum is 0, and reports the moves only if the KNS recognizer accepts
 * the repaired fabric; else it backtracks to the next best moves (a
 * bounded depth-first search).  Among moves equally good for the
 * topology, the one that puts router ports in line goes first, then the
 * lowest router GUID, then port.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo/kns.h"
#include "topo/miscable.h"

/* Swaps in a repair at most (a few cables are what this is for). */
#define MAX_MOVES 8
/* Moves tried from each state, and states expanded in all. */
#define BRANCH 4
#define SEARCH_BUDGET 64
/*
 * Router scores computed at most: it runs inside OpenSM's sweep, so its
 * time is bounded (deterministically: the same fabric, the same answer).
 */
#define MAX_WORK 8000000ul
/* Cables of scored routers beyond which the fabric is not "almost". */
#define MAX_SUSPECTS 512

/* A router-to-indirect-switch cable; the router end never moves. */
struct rs_cable {
	uint64_t key; /* router GUID, for the order of the report */
	int32_t r, s;
	uint8_t rp, sp;
};

struct mc {
	const struct ot_fabric *f;
	struct rs_cable *c, *orig;
	uint32_t nc;
	uint32_t *rstart, *rlist; /* per node: its cables as a router */
	uint32_t *sstart, *slist; /* per node: its cables as a switch */
	bool *is_router;
	uint32_t *mark, *seen, stamp, seen_stamp;
	unsigned long work; /* router scores computed */
	int32_t *aff; /* routers a move may change the score of */
	uint32_t naff;
	unsigned int links; /* L */
};

static int cmp_cable(const void *x, const void *y)
{
	const struct rs_cable *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->r != b->r)
		return a->r < b->r ? -1 : 1;
	return (int)a->rp - (int)b->rp;
}

/* Routers: switches with a CA cabled. */
static void find_routers(struct mc *m)
{
	const struct ot_fabric *f = m->f;
	uint32_t i;
	unsigned int p;

	for (i = 0; i < f->nnodes; i++) {
		if (f->node[i].type != OT_NODE_CA)
			continue;
		for (p = 1; p <= f->node[i].nports; p++) {
			int32_t peer = f->node[i].port[p].peer;

			if (peer >= 0 && ot_is_switch(f, peer))
				m->is_router[peer] = true;
		}
	}
}

/* The router-switch cables; -1 on a cable no moved switch end explains. */
static int collect_cables(struct mc *m, struct ot_error *err)
{
	const struct ot_fabric *f = m->f;
	uint32_t i;
	unsigned int p;

	for (i = 0; i < f->nnodes; i++) {
		const struct ot_node *nd = &f->node[i];

		for (p = 1; p <= nd->nports; p++) {
			int32_t peer = ot_switch_peer(f, i, p);

			if (peer < 0)
				continue;
			if (m->is_router[i] == m->is_router[peer])
				return ot_refuse(err, OT_ERR_TOPOLOGY,
						 "switch \"%s\" port %u: cabled to \"%s\" port %u, both %s; only moved router-switch cables are diagnosed",
						 nd->desc, p, f->node[peer].desc,
						 nd->port[p].peer_port,
						 m->is_router[i] ? "routers" :
								   "indirect switches");
			if (!m->is_router[i])
				continue;
			m->c[m->nc++] = (struct rs_cable){
				.key = nd->guid, .r = (int32_t)i, .s = peer,
				.rp = (uint8_t)p, .sp = nd->port[p].peer_port,
			};
		}
	}
	if (!m->nc)
		return ot_refuse(err, OT_ERR_TOPOLOGY,
				 "no cable joins a router (a switch with CAs) to a switch without: not a KNS");
	qsort(m->c, m->nc, sizeof(*m->c), cmp_cable);
	memcpy(m->orig, m->c, m->nc * sizeof(*m->c));
	return 0;
}

/* CSR lists of cable indices per router and per switch. */
static void index_cables(struct mc *m)
{
	uint32_t n = m->f->nnodes, i, *rfill = m->mark, *sfill = m->seen;

	for (i = 0; i < m->nc; i++) {
		m->rstart[m->c[i].r + 1]++;
		m->sstart[m->c[i].s + 1]++;
	}
	for (i = 0; i < n; i++) {
		m->rstart[i + 1] += m->rstart[i];
		m->sstart[i + 1] += m->sstart[i];
	}
	memset(rfill, 0, n * sizeof(*rfill));
	memset(sfill, 0, n * sizeof(*sfill));
	for (i = 0; i < m->nc; i++) {
		m->rlist[m->rstart[m->c[i].r] + rfill[m->c[i].r]++] = i;
		m->slist[m->sstart[m->c[i].s] + sfill[m->c[i].s]++] = i;
	}
	memset(m->mark, 0, n * sizeof(*m->mark));
	memset(m->seen, 0, n * sizeof(*m->seen));
}

/*
 * Routers x != r of switch s that are, or share a switch with, a router
 * y != r of switch t.  In a KNS, x and y differ in the coordinates of
 * s's and t's dimensions: never equal, never on one switch.
 */
static unsigned int conflicts(struct mc *m, int32_t s, int32_t t, int32_t r)
{
	unsigned int n = 0;
	uint32_t i, j, k;

	m->stamp++;
	for (i = m->sstart[t]; i < m->sstart[t + 1]; i++) {
		int32_t y = m->c[m->slist[i]].r;

		if (y == r)
			continue;
		m->mark[y] = m->stamp;
		for (j = m->rstart[y]; j < m->rstart[y + 1]; j++) {
			int32_t u = m->c[m->rlist[j]].s;

			if (u == t)
				continue;
			for (k = m->sstart[u]; k < m->sstart[u + 1]; k++)
				m->mark[m->c[m->slist[k]].r] = m->stamp;
		}
	}
	for (i = m->sstart[s]; i < m->sstart[s + 1]; i++) {
		int32_t x = m->c[m->slist[i]].r;

		n += x != r && m->mark[x] == m->stamp;
	}
	return n;
}

/* The router's score: counts off L, and switch pairs sharing another. */
static unsigned int score(struct mc *m, int32_t r)
{
	int32_t sw[OT_MAX_PORTS];
	unsigned int cnt[OT_MAX_PORTS], nsw = 0, a, b, sc = 0;
	uint32_t i;

	m->work++;
	for (i = m->rstart[r]; i < m->rstart[r + 1]; i++) {
		int32_t s = m->c[m->rlist[i]].s;

		for (a = 0; a < nsw && sw[a] != s; a++)
			;
		if (a == nsw) {
			sw[nsw] = s;
			cnt[nsw++] = 0;
		}
		cnt[a]++;
	}
	for (a = 0; a < nsw; a++) {
		sc += cnt[a] > m->links ? cnt[a] - m->links :
					  m->links - cnt[a];
		for (b = a + 1; b < nsw; b++)
			sc += conflicts(m, sw[a], sw[b], r);
	}
	return sc;
}

/* L: the most common number of cables between a router and a switch. */
static void find_links(struct mc *m)
{
	unsigned int hist[OT_MAX_PORTS + 1] = { 0 }, best = 1, l;
	uint32_t i, j;

	for (i = 0; i < m->nc; i++) {
		unsigned int cnt = 0;
		bool first = true;

		for (j = m->rstart[m->c[i].r]; j < m->rstart[m->c[i].r + 1]; j++) {
			const struct rs_cable *o = &m->c[m->rlist[j]];

			if (o->s != m->c[i].s)
				continue;
			first = first && m->rlist[j] >= i;
			cnt++;
		}
		if (first) /* count each (router, switch) pair once */
			hist[cnt]++;
	}
	for (l = 1; l <= OT_MAX_PORTS; l++)
		if (hist[l] > hist[best])
			best = l;
	m->links = best;
}

/* Moves the switch ends of cables i and j (their own inverse). */
static void swap_ends(struct mc *m, uint32_t i, uint32_t j)
{
	struct rs_cable *a = &m->c[i], *b = &m->c[j];
	int32_t s = a->s;
	uint8_t sp = a->sp;
	uint32_t k;

	for (k = m->sstart[a->s]; k < m->sstart[a->s + 1]; k++)
		if (m->slist[k] == i)
			m->slist[k] = j;
	for (k = m->sstart[b->s]; k < m->sstart[b->s + 1]; k++)
		if (m->slist[k] == j)
			m->slist[k] = i;
	a->s = b->s;
	a->sp = b->sp;
	b->s = s;
	b->sp = sp;
}

static void add_router(struct mc *m, int32_t r)
{
	if (m->seen[r] == m->seen_stamp)
		return;
	m->seen[r] = m->seen_stamp;
	m->aff[m->naff++] = r;
}

/* r and every router that shares a switch with r. */
static void add_around(struct mc *m, int32_t r)
{
	uint32_t i, k;

	add_router(m, r);
	for (i = m->rstart[r]; i < m->rstart[r + 1]; i++) {
		int32_t s = m->c[m->rlist[i]].s;

		for (k = m->sstart[s]; k < m->sstart[s + 1]; k++)
			add_router(m, m->c[m->slist[k]].r);
	}
}

/*
 * Adds to aff the routers whose score a move of cables i and j may
 * change: a score looks two switches away, so the routers of the two
 * switches and of their neighbours, and those around them.
 */
static void collect_affected(struct mc *m, uint32_t i, uint32_t j)
{
	int32_t sw[2] = { m->c[i].s, m->c[j].s };
	uint32_t k, first = m->naff, last;
	unsigned int t;

	add_router(m, m->c[i].r);
	add_router(m, m->c[j].r);
	for (t = 0; t < 2; t++)
		for (k = m->sstart[sw[t]]; k < m->sstart[sw[t] + 1]; k++)
			add_router(m, m->c[m->slist[k]].r);
	last = m->naff;
	for (k = first; k < last; k++)
		add_around(m, m->aff[k]);
}

static unsigned long affected_score(struct mc *m)
{
	unsigned long sum = 0;
	uint32_t k;

	for (k = 0; k < m->naff; k++)
		sum += score(m, m->aff[k]);
	return sum;
}

/* What moving the switch ends of cables i and j does to the sum. */
static long move_gain(struct mc *m, uint32_t i, uint32_t j)
{
	long before, after;

	m->seen_stamp++;
	m->naff = 0;
	collect_affected(m, i, j);
	swap_ends(m, i, j);
	collect_affected(m, i, j);
	after = (long)affected_score(m);
	swap_ends(m, i, j);
	before = (long)affected_score(m);
	return after - before;
}

/*
 * Cables of routers with a score, in report order (a router's cables are
 * next to each other there); their count, or -1 when too many.
 */
static int suspects(struct mc *m, uint32_t *out, unsigned long *total)
{
	uint32_t i, n = 0;
	int32_t prev = -1;
	unsigned int sc = 0;

	*total = 0;
	for (i = 0; i < m->nc; i++) {
		if (m->c[i].r != prev) {
			prev = m->c[i].r;
			sc = score(m, prev);
			*total += sc;
		}
		if (!sc)
			continue;
		if (n == MAX_SUSPECTS)
			return -1;
		out[n++] = i;
	}
	return (int)n;
}

/* Cables other than router-switch ones (ot_fabric_copy_cables()). */
static bool not_router_switch(const struct ot_fabric *f, uint32_t a,
			      unsigned int pa, uint32_t b, unsigned int pb,
			      const void *ctx)
{
	const struct mc *m = ctx;

	(void)pa;
	(void)pb;
	return !(ot_is_switch(f, (int)a) && ot_is_switch(f, (int)b) &&
		 m->is_router[a] != m->is_router[b]);
}

/* f with the router-switch cables as m has them now, indexed; or NULL. */
static struct ot_fabric *repaired(const struct mc *m, struct ot_error *err)
{
	struct ot_fabric *g;
	uint32_t i;
	int error = 0;

	g = ot_fabric_copy_cables(m->f, not_router_switch, m, err);
	if (!g)
		return NULL;
	for (i = 0; i < m->nc && !error; i++)
		error = ot_fabric_link(g, m->c[i].r, m->c[i].rp, m->c[i].s,
				       m->c[i].sp, err);
	return ot_fabric_done(g, error, err);
}

/* Whether the KNS recognizer accepts the cabling m has now. */
static bool accepted(const struct mc *m)
{
	struct ot_error err = { 0 };
	struct ot_fabric *g = repaired(m, &err);
	struct ot_kns *kns = NULL;
	bool ok = g && !ot_kns_recognize(g, &kns, &err);

	ot_kns_free(kns);
	ot_fabric_free(g);
	return ok;
}

/* Cables on switch s whose router port is not the one most there use. */
static unsigned int port_penalty(const struct mc *m, int32_t s)
{
	unsigned int hist[OT_MAX_PORTS + 1] = { 0 }, best = 0, p;
	uint32_t i, n = m->sstart[s + 1] - m->sstart[s];

	for (i = m->sstart[s]; i < m->sstart[s + 1]; i++)
		hist[m->c[m->slist[i]].rp]++;
	for (p = 1; p <= OT_MAX_PORTS; p++)
		if (hist[p] > hist[best])
			best = p;
	return n - hist[best];
}

/*
 * What a move does to port agreement: real fabrics cable a dimension on
 * the same router port everywhere, so among moves the topology cannot
 * tell apart, the one that puts ports back in line is the likely fix.
 */
static long port_gain(struct mc *m, uint32_t i, uint32_t j)
{
	int32_t s1 = m->c[i].s, s2 = m->c[j].s;
	long before = port_penalty(m, s1) + port_penalty(m, s2), after;

	swap_ends(m, i, j);
	after = port_penalty(m, s1) + port_penalty(m, s2);
	swap_ends(m, i, j);
	return after - before;
}

struct move {
	uint32_t i, j;
	long gain, port;
};

/* Keeps the BRANCH best moves in best[] (by gain, port gain, order). */
static void keep_move(struct move *best, unsigned int *n, struct move mv)
{
	unsigned int k = *n < BRANCH ? (*n)++ : BRANCH;

	if (k == BRANCH) {
		const struct move *w = &best[BRANCH - 1];

		if (mv.gain > w->gain ||
		    (mv.gain == w->gain && mv.port >= w->port))
			return;
		k = BRANCH - 1;
	}
	while (k > 0 && (best[k - 1].gain > mv.gain ||
			 (best[k - 1].gain == mv.gain &&
			  best[k - 1].port > mv.port))) {
		best[k] = best[k - 1];
		k--;
	}
	best[k] = mv;
}

/* The best moves of two suspect cables that lower the sum; how many. */
static unsigned int best_moves(struct mc *m, const uint32_t *sus, int n,
			       struct move *best)
{
	unsigned int nbest = 0;
	int a, b;

	for (a = 0; a < n; a++) {
		for (b = a + 1; b < n; b++) {
			const struct rs_cable *x = &m->c[sus[a]], *y = &m->c[sus[b]];
			struct move mv = { sus[a], sus[b], 0, 0 };

			if (x->r == y->r || x->s == y->s)
				continue;
			mv.gain = move_gain(m, sus[a], sus[b]);
			if (mv.gain >= 0)
				continue;
			mv.port = port_gain(m, sus[a], sus[b]);
			keep_move(best, &nbest, mv);
		}
	}
	return nbest;
}

/*
 * Depth-first over the best moves: 1 when the cabling m now has is a KNS
 * (the recognizer says so), 0 when no moves within the budget make it
 * one, -1 when too many cables are suspect.
 */
static int search(struct mc *m, unsigned int depth, unsigned int *budget)
{
	uint32_t sus[MAX_SUSPECTS];
	struct move best[BRANCH];
	unsigned long total;
	int n = suspects(m, sus, &total), r;
	unsigned int nbest, k;

	if (n < 0)
		return -1;
	if (!total)
		return accepted(m);
	if (depth == MAX_MOVES || !*budget || m->work > MAX_WORK)
		return 0;
	(*budget)--;
	nbest = best_moves(m, sus, n, best);
	for (k = 0; k < nbest; k++) {
		swap_ends(m, best[k].i, best[k].j);
		r = search(m, depth + 1, budget);
		if (r)
			return r;
		swap_ends(m, best[k].i, best[k].j);
	}
	return 0;
}

/* The moved cable ends, in report order. */
static int report(const struct mc *m, struct ot_miscabling *out)
{
	uint32_t i;

	out->n = 0;
	out->cable = calloc(m->nc, sizeof(*out->cable));
	if (!out->cable)
		return -1;
	for (i = 0; i < m->nc; i++) {
		const struct rs_cable *o = &m->orig[i], *c = &m->c[i];

		if (o->s == c->s && o->sp == c->sp)
			continue;
		out->cable[out->n++] = (struct ot_miscable){
			.node = o->r, .port = o->rp,
			.now = o->s, .now_port = o->sp,
			.should = c->s, .should_port = c->sp,
		};
	}
	return 0;
}

/* Searches for the moves; 0 and the report, or -1 with err. */
static int diagnose(struct mc *m, struct ot_miscabling *out,
		    const char *why, struct ot_error *err)
{
	unsigned int budget = SEARCH_BUDGET;
	int r = search(m, 0, &budget);

	if (r < 0)
		return ot_refuse(err, OT_ERR_TOPOLOGY,
				 "more than %d router-switch cables look misplaced: not a KNS with a few cables wrong (%s)",
				 MAX_SUSPECTS, why);
	if (!r)
		return ot_refuse(err, OT_ERR_TOPOLOGY,
				 "no moves of up to %d router-switch cable ends make it a KNS (%s)",
				 2 * MAX_MOVES, why);
	if (report(m, out))
		return ot_error_nomem(err, "mis-cabling report");
	return 0;
}

static int mc_alloc(struct mc *m, const struct ot_fabric *f)
{
	uint32_t n = f->nnodes, ncables = 0, i;

	for (i = 0; i < n; i++)
		ncables += f->node[i].nports;
	m->f = f;
	m->c = calloc(ncables + 1, sizeof(*m->c));
	m->orig = calloc(ncables + 1, sizeof(*m->orig));
	m->rlist = calloc(ncables + 1, sizeof(*m->rlist));
	m->slist = calloc(ncables + 1, sizeof(*m->slist));
	m->rstart = calloc(n + 1, sizeof(*m->rstart));
	m->sstart = calloc(n + 1, sizeof(*m->sstart));
	m->is_router = calloc(n + 1, sizeof(*m->is_router));
	m->mark = calloc(n + 1, sizeof(*m->mark));
	m->seen = calloc(n + 1, sizeof(*m->seen));
	m->aff = calloc(n + 1, sizeof(*m->aff));
	return m->c && m->orig && m->rlist && m->slist && m->rstart &&
	       m->sstart && m->is_router && m->mark && m->seen && m->aff ?
		       0 : -1;
}

static void mc_free(struct mc *m)
{
	free(m->c);
	free(m->orig);
	free(m->rlist);
	free(m->slist);
	free(m->rstart);
	free(m->sstart);
	free(m->is_router);
	free(m->mark);
	free(m->seen);
	free(m->aff);
}

/* Whether two switches without CAs are cabled (lines of s >= 2). */
static bool line_cables(const struct ot_fabric *f)
{
	uint32_t x;
	unsigned int p, q;

	for (x = 0; x < f->nnodes; x++) {
		const struct ot_node *nd = &f->node[x];
		bool ca = false, sw = false;

		if (nd->type != OT_NODE_SWITCH)
			continue;
		for (p = 1; p <= nd->nports; p++) {
			int32_t y = nd->port[p].peer;
			bool yca = false;

			if (y < 0)
				continue;
			ca |= f->node[y].type == OT_NODE_CA;
			if (f->node[y].type != OT_NODE_SWITCH)
				continue;
			for (q = 1; q <= f->node[y].nports; q++)
				yca |= f->node[y].port[q].peer >= 0 &&
				       f->node[f->node[y].port[q].peer].type ==
					       OT_NODE_CA;
			sw |= !yca;
		}
		if (!ca && sw)
			return true;
	}
	return false;
}

/*
 * Line switches whose cable count differs from the most common one of
 * their dimension and stage in kns (a recognition of f).  Moving one
 * cable end changes two switches' counts, and a regular KNS has one
 * count per dimension and stage: with more than MOVED_MAX such switches
 * no single move makes f regular, and the search of
 * ot_kns_ft_miscabling() (thousands of recognitions of a damaged
 * fabric, seconds inside OpenSM's sweep) would find nothing.
 */
#define MOVED_MAX 4

static unsigned int off_count(const struct ot_fabric *f,
			      const struct ot_kns *kns)
{
	unsigned int ng = kns->n * (kns->stages + 1), g, p, best, off = 0;
	uint32_t *hist = calloc((size_t)ng * (OT_MAX_PORTS + 2), sizeof(*hist));
	uint32_t x;

	if (!hist)
		return 0; /* the search decides */
	for (x = 0; x < f->nnodes; x++) {
		unsigned int deg = 0, st = kns->stage ? kns->stage[x] : 1;

		if (kns->role[x] != OT_KNS_SWITCH || kns->dim[x] < 0 ||
		    st > kns->stages)
			continue;
		for (p = 1; p <= f->node[x].nports; p++)
			deg += f->node[x].port[p].peer >= 0;
		g = (unsigned int)kns->dim[x] * (kns->stages + 1) + st;
		hist[(size_t)g * (OT_MAX_PORTS + 2) + deg]++;
	}
	for (g = 0; g < ng; g++) {
		best = 0;
		for (p = 1; p <= OT_MAX_PORTS + 1; p++)
			if (hist[(size_t)g * (OT_MAX_PORTS + 2) + p] >
			    hist[(size_t)g * (OT_MAX_PORTS + 2) + best])
				best = p;
		for (p = 0; p <= OT_MAX_PORTS + 1; p++)
			if (p != best)
				off += hist[(size_t)g * (OT_MAX_PORTS + 2) + p];
	}
	free(hist);
	return off;
}

/* One moved cable end inside fat-tree lines, as the report (n 0 or 1). */
static int ft_moves(const struct ot_fabric *f, struct ot_miscabling *out,
		    struct ot_error *err)
{
	struct ot_miscable mv;
	int rc = ot_kns_ft_miscabling(f, &mv, err);

	out->n = 0;
	if (rc < 0)
		return -1;
	if (rc == 0)
		return 0;
	out->cable = malloc(sizeof(*out->cable));
	if (!out->cable)
		return ot_error_nomem(err, "mis-cabling report");
	out->cable[0] = mv;
	out->n = 1;
	return 0;
}

int ot_kns_miscabling(const struct ot_fabric *f, struct ot_miscabling *out,
		      struct ot_error *err)
{
	struct ot_error why = { 0 }, ftwhy = { 0 };
	struct ot_kns *kns = NULL;
	struct mc m = { 0 };
	bool looks_ft = false, ft_refused = false;
	int rc = -1;

	out->n = 0;
	out->cable = NULL;
	if (!ot_kns_recognize(f, &kns, &why)) {
		ot_kns_free(kns);
		return 0;
	}
	if (why.cls == OT_ERR_NOMEM)
		return ot_refuse(err, OT_ERR_NOMEM, "%s", why.msg);
	{
		/*
		 * Lines built as fat trees (topo/kns_ft.c) are a KNS too: a
		 * regular one, or one with cables missing and no move that
		 * makes it regular (damage), reports nothing; one cable end
		 * moved inside or between lines is found by
		 * miscable_kft.c: first when lines have switch-to-switch
		 * cables (s >= 2), after the seed's search when they only
		 * look like fat-tree lines (several switches per line, or a
		 * seed KNS with parallel cables, the seed's own case).
		 * Else the seed's search below says why the seed's shape is
		 * not met.
		 */
		bool ft_ok;

		ft_ok = !ot_kns_ft_recognize(f, &kns, &looks_ft, &ftwhy);
		if (ft_ok && (ot_kns_ft_regular(f, kns) ||
			      off_count(f, kns) > MOVED_MAX)) {
			/* regular, or damaged past what one move explains */
			ot_kns_free(kns);
			return 0;
		}
		ot_kns_free(kns);
		kns = NULL;
		if (ft_ok || line_cables(f)) {
			rc = ft_moves(f, out, err);
			if (rc || out->n || ft_ok)
				return rc;
			/*
			 * Lines with switch-to-switch cables that the
			 * fat-tree recognizer refuses, and no single moved
			 * end repairs (two cables swapped, say): the seed's
			 * search below knows lines of one switch only, and
			 * its "nothing to move" must not make them a KNS.
			 */
			ft_refused = ftwhy.cls != OT_ERR_NOMEM;
			if (!ft_refused)
				return ot_refuse(err, OT_ERR_NOMEM, "%s",
						 ftwhy.msg);
		}
	}
	if (mc_alloc(&m, f)) {
		rc = ot_error_nomem(err, "mis-cabling report");
		goto out;
	}
	find_routers(&m);
	if (collect_cables(&m, err)) {
		rc = -1; /* not the rc of ft_moves() above */
		goto out;
	}
	index_cables(&m);
	find_links(&m);
	rc = diagnose(&m, out, why.msg, err);
	if (rc && looks_ft && err->cls != OT_ERR_NOMEM) {
		struct ot_error seed = *err;

		if (ft_moves(f, out, err))
			rc = -1;
		else if (out->n)
			rc = 0;
		else
			*err = seed;
	}
out:
	if (ft_refused && ((rc && err->cls == OT_ERR_TOPOLOGY) ||
			   (!rc && !out->n)))
		rc = ot_refuse(err, OT_ERR_TOPOLOGY,
			       "%s (no single moved cable end makes the lines fat trees; two or more moved ends are not searched there)",
			       ftwhy.msg);
	mc_free(&m);
	return rc;
}

void ot_miscabling_free(struct ot_miscabling *m)
{
	free(m->cable);
	m->cable = NULL;
	m->n = 0;
}

int ot_miscable_format(const struct ot_fabric *f, const struct ot_miscable *m,
		       char *buf, size_t len)
{
	const struct ot_node *a = &f->node[m->node], *b = &f->node[m->now],
			     *c = &f->node[m->should];

	return snprintf(buf, len,
			"\"%s\" (0x%016" PRIx64 ") port %u is cabled to \"%s\" (0x%016" PRIx64 ") port %u; it should go to \"%s\" (0x%016" PRIx64 ") port %u",
			a->desc, a->guid, m->port, b->desc, b->guid,
			m->now_port, c->desc, c->guid, m->should_port);
}
