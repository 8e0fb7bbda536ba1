// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * hdor on fat-tree lines: one level of up-port choices set by an
 * equitable edge colouring (doc/kns-fattree.md, "Spreading by colouring").
 *
 * On an intact line (an XGFT as topo/kns_ft.c recognizes it), a flow
 * from router a to target t goes up through switches whose labels keep
 * the y-digits chosen so far, and comes down on t's side through the
 * switches with the same y-digits: the parent chosen at stage i decides
 * both the up cable on the source side and the down cable into the
 * stage-i switch above t in the same class.  Take one level i whose
 * flows all weigh alike: stage 0 (the routers, one flow per destination)
 * where a router has two stage-1 switches or more, else stage 1 where
 * every router has one (the m_1 flows of its group to a destination meet
 * there: chunks of m_1).  Its choices form a bipartite multigraph: a
 * source node X of the level, a target node X' (the node of the level
 * above t in X's class), one edge per destination X sends up.  A colour
 * is a class of parents.  An equitable colouring, every colour on
 * floor or ceil of a node's edges at every node of both sides, exists
 * for every bipartite multigraph and any number of colours (de Werra
 * 1971); it is found here his way: while some node has a colour h
 * twice more than a colour o, the edges coloured h or o are split again
 * along Euler trails, alternating h and o (at every node of a bipartite
 * graph the two then differ by one at most), which lowers the sum of the
 * squared counts, so it ends.  Each source node then deals its edges of
 * a colour over the parallel cables to that parent in turn.  So every up
 * cable of the level and every down cable into a target node carries
 * its share to one flow chunk, by construction and whatever the
 * labelling; the other choices (parallel cables down, the levels above)
 * are left to the greedy of route/hdor_ft_bal.c.
 *
 * Deterministic: sources and targets in the order of their routers'
 * coordinates, destinations in the line's dealing order, colours by the
 * parents' classes (their top switches' stage positions).  Only
 * candidates of toward() are set, so paths stay minimal, up*-down*, on
 * VL 0.
 */
#include <stdlib.h>
#include <string.h>

#include "route/hdor_ft_int.h"

/* A bipartite multigraph and its colouring: vertices 0..nv-1. */
struct ecol {
	uint32_t nv, ne;
	unsigned int q;
	uint32_t *a, *b;       /* ne: an edge's two ends */
	uint8_t *col;          /* ne */
	uint32_t *cnt;         /* nv * q */
	uint32_t *start, *adj; /* nv + 1, 2 ne: edges at each vertex */
	uint32_t *deg, *ptr;   /* nv: in the subgraph being split */
	uint8_t *used;         /* ne */
};

static uint32_t other(const struct ecol *g, uint32_t e, uint32_t v)
{
	return g->a[e] == v ? g->b[e] : g->a[e];
}

/* One trail from v over unused edges coloured h or o, alternating. */
static void trail(struct ecol *g, uint32_t v, uint8_t h, uint8_t o)
{
	uint8_t now = h;

	for (;;) {
		uint32_t e = UINT32_MAX;

		while (g->ptr[v] < g->start[v + 1]) {
			uint32_t x = g->adj[g->ptr[v]++];

			if (!g->used[x] && (g->col[x] == h || g->col[x] == o)) {
				e = x;
				break;
			}
		}
		if (e == UINT32_MAX)
			return;
		g->used[e] = 1;
		g->deg[g->a[e]]--;
		g->deg[g->b[e]]--;
		g->cnt[(size_t)g->a[e] * g->q + g->col[e]]--;
		g->cnt[(size_t)g->b[e] * g->q + g->col[e]]--;
		g->col[e] = now;
		g->cnt[(size_t)g->a[e] * g->q + now]++;
		g->cnt[(size_t)g->b[e] * g->q + now]++;
		now = now == h ? o : h;
		v = other(g, e, v);
	}
}

/*
 * The edges coloured h or o, split along Euler trails: odd vertices
 * first (each ends one open trail), then closed trails (even length in
 * a bipartite graph).  At every vertex h and o then differ by one at
 * most.
 */
static void split(struct ecol *g, uint8_t h, uint8_t o)
{
	uint32_t v, e;

	memset(g->deg, 0, (size_t)g->nv * sizeof(*g->deg));
	for (e = 0; e < g->ne; e++) {
		g->used[e] = 0;
		if (g->col[e] == h || g->col[e] == o) {
			g->deg[g->a[e]]++;
			g->deg[g->b[e]]++;
		}
	}
	for (v = 0; v < g->nv; v++)
		g->ptr[v] = g->start[v];
	for (v = 0; v < g->nv; v++)
		while (g->deg[v] % 2)
			trail(g, v, h, o);
	for (v = 0; v < g->nv; v++)
		while (g->deg[v])
			trail(g, v, h, o);
}

/* A vertex with colours h, o counted twice apart or more; false: none. */
static bool unequal(const struct ecol *g, uint8_t *h, uint8_t *o)
{
	uint32_t v;
	unsigned int i;

	for (v = 0; v < g->nv; v++) {
		const uint32_t *c = g->cnt + (size_t)v * g->q;
		unsigned int hi = 0, lo = 0;

		for (i = 1; i < g->q; i++) {
			if (c[i] > c[hi])
				hi = i;
			if (c[i] < c[lo])
				lo = i;
		}
		if (c[hi] >= c[lo] + 2) {
			*h = (uint8_t)hi;
			*o = (uint8_t)lo;
			return true;
		}
	}
	return false;
}

/*
 * Colours g's edges with q colours, equitably at every vertex (see the
 * top).  The start: each vertex of the first side deals its edges in
 * turn.  Every split lowers the sum of squared counts; the bound on
 * rounds only guards against a bug.
 */
static int ecol_run(struct ecol *g)
{
	uint32_t v, e, *fill = NULL, rounds;
	uint8_t h, o;

	g->start = calloc((size_t)g->nv + 2, sizeof(*g->start));
	g->adj = malloc(((size_t)g->ne * 2 + 1) * sizeof(*g->adj));
	g->cnt = calloc((size_t)g->nv * g->q + 1, sizeof(*g->cnt));
	g->deg = malloc(((size_t)g->nv + 1) * sizeof(*g->deg));
	g->ptr = malloc(((size_t)g->nv + 1) * sizeof(*g->ptr));
	g->used = malloc((size_t)g->ne + 1);
	fill = calloc((size_t)g->nv + 1, sizeof(*fill));
	if (!g->start || !g->adj || !g->cnt || !g->deg || !g->ptr ||
	    !g->used || !fill) {
		free(fill);
		return -1;
	}
	for (e = 0; e < g->ne; e++) {
		g->start[g->a[e] + 1]++;
		g->start[g->b[e] + 1]++;
	}
	for (v = 0; v < g->nv; v++)
		g->start[v + 1] += g->start[v];
	for (e = 0; e < g->ne; e++) {
		g->adj[g->start[g->a[e]] + fill[g->a[e]]++] = e;
		g->adj[g->start[g->b[e]] + fill[g->b[e]]++] = e;
	}
	memset(fill, 0, (size_t)g->nv * sizeof(*fill));
	for (e = 0; e < g->ne; e++) {
		/* the target's count too, so targets start spread as well */
		g->col[e] = (uint8_t)((fill[g->a[e]]++ + fill[g->b[e]]++) %
				      g->q);
		g->cnt[(size_t)g->a[e] * g->q + g->col[e]]++;
		g->cnt[(size_t)g->b[e] * g->q + g->col[e]]++;
	}
	free(fill);
	for (rounds = 0; rounds < 64u * g->q * g->q + 1024 &&
	     unequal(g, &h, &o); rounds++)
		split(g, h, o);
	return 0;
}

static void ecol_free(struct ecol *g)
{
	free(g->start);
	free(g->adj);
	free(g->cnt);
	free(g->deg);
	free(g->ptr);
	free(g->used);
}

/* A node's parents in the line, and cables to one: at most this many. */
#define MAXPAR 32

struct pe {
	int32_t node;   /* local index */
	uint32_t cls;
	unsigned int nport;
	uint8_t port[MAXPAR];
};

/* The parents of line-local node i (one stage up), by class. */
struct par {
	unsigned int np;
	struct pe e[MAXPAR];
};

static uint8_t stage_of(const struct ft_ctx *c, uint32_t l, uint32_t i)
{
	return i < c->kns->lines[l].nsw ?
	       c->kns->stage[c->kns->lines[l].sw[i]] : 0;
}

/* i's parents, by class; false when not an XGFT's (two in one class). */
static bool parents(const struct ft_ctx *c, uint32_t l, uint32_t i,
		    const uint32_t *cls, struct par *p)
{
	const struct ot_node *nd = &c->f->node[global(c, l, i)];
	uint8_t st = stage_of(c, l, i);
	unsigned int q, j, u;

	p->np = 0;
	for (q = 1; q <= nd->nports; q++) {
		int32_t y = nd->port[q].peer, v;

		if (y < 0 || c->kns->role[y] != OT_KNS_SWITCH)
			continue;
		v = local(c, l, y);
		if (v < 0 || stage_of(c, l, v) != st + 1)
			continue;
		for (j = 0; j < p->np && p->e[j].node != v; j++)
			;
		if (j == p->np) {
			if (p->np == MAXPAR)
				return false;
			p->e[j].node = v;
			p->e[j].cls = cls[v];
			p->e[j].nport = 0;
			p->np++;
		}
		if (p->e[j].nport == MAXPAR)
			return false;
		p->e[j].port[p->e[j].nport++] = (uint8_t)q;
	}
	/* by class (insertion; few), and one parent per class */
	for (j = 1; j < p->np; j++)
		for (u = j; u > 0 && p->e[u - 1].cls > p->e[u].cls; u--) {
			struct pe t = p->e[u];

			p->e[u] = p->e[u - 1];
			p->e[u - 1] = t;
		}
	for (j = 1; j < p->np; j++)
		if (p->e[j].cls == p->e[j - 1].cls)
			return false;
	return p->np > 0;
}

/* Whether port q is among the candidates of i toward tgt. */
static bool is_cand(const struct ft_ctx *c, uint32_t l, uint32_t i,
		    uint32_t tgt, uint8_t q)
{
	unsigned int m, j;
	const uint8_t *cp = cands(c, l, i, tgt, &m);

	for (j = 0; j < m; j++)
		if (cp[j] == q)
			return true;
	return false;
}

struct col_line {
	uint32_t l, nsw, k, nloc;
	unsigned int lev;
	uint32_t *cls;     /* nloc: class, the least top switch above */
	uint32_t *minr;    /* nloc: the least router coordinate below */
	int32_t *src;      /* sources in router-coordinate order */
	uint32_t nsrc;
	struct par *par;   /* per source */
	/* (sibling group, destination) on the right even where uneven */
	bool pairs;
	/* and phantom edges at those pairs (see phantoms()) */
	bool phantoms;
	/* and then a few extra flows swapped so that groups agree (agree()) */
	bool agree;
	uint32_t *wt;      /* nrel * nloc: flows of each destination at each */
	uint32_t *cw;      /* per source, class, cable: weight dealt */
	/* some flows going on up were coloured without pairs (not even) */
	bool uneven;
};

/* Classes: a top switch its own; below, the least of its parents'. */
static void classes(const struct ft_ctx *c, struct col_line *cl)
{
	const struct ft_line *fl = &c->line[cl->l];
	uint32_t i, t;
	unsigned int s = c->kns->lines[cl->l].stages;

	for (i = cl->nsw; i-- > 0;) {
		const struct ot_node *nd = &c->f->node[global(c, cl->l, i)];
		uint8_t st = stage_of(c, cl->l, i);
		unsigned int q;

		cl->cls[i] = st == s ? i : UINT32_MAX;
		for (q = 1; q <= nd->nports; q++) {
			int32_t y = nd->port[q].peer, v;

			if (y < 0 || c->kns->role[y] != OT_KNS_SWITCH)
				continue;
			v = local(c, cl->l, y);
			if (v >= 0 && stage_of(c, cl->l, v) == st + 1 &&
			    cl->cls[v] < cl->cls[i])
				cl->cls[i] = cl->cls[v];
		}
		cl->minr[i] = UINT32_MAX;
		for (t = 0; t < cl->k; t++)
			if (fl->below[(size_t)i * cl->k + t]) {
				cl->minr[i] = t;
				break;
			}
	}
	for (t = 0; t < cl->k; t++) {
		cl->cls[cl->nsw + t] = 0;
		cl->minr[cl->nsw + t] = t;
	}
}

static bool same_classes(const struct par *x, const struct par *y)
{
	unsigned int j;

	if (x->np != y->np)
		return false;
	for (j = 0; j < x->np; j++)
		if (x->e[j].cls != y->e[j].cls)
			return false;
	return true;
}

/* Whether level node x sends destinations at router t up. */
static bool sends_up(const struct ft_ctx *c, const struct col_line *cl,
		     int32_t x, uint32_t t)
{
	if (x >= (int32_t)cl->nsw)
		return (uint32_t)x - cl->nsw != t;
	return !c->line[cl->l].below[(size_t)x * cl->k + t];
}

static int by_minr_ctx_cmp(const struct col_line *cl, int32_t x, int32_t y)
{
	return cl->minr[x] < cl->minr[y] ? -1 : cl->minr[x] > cl->minr[y];
}

/*
 * The sources of level cl->lev, by their least router coordinate; false
 * when the line is not one this colouring knows (see the top).
 */
static bool sources(const struct ft_ctx *c, struct col_line *cl)
{
	uint32_t i, m = 0;
	unsigned int j;

	for (i = 0; i < cl->nloc; i++)
		if (stage_of(c, cl->l, i) == cl->lev &&
		    (cl->lev == 0) == (i >= cl->nsw))
			cl->src[m++] = i;
	/* insertion by the least router below (few nodes) */
	for (i = 1; i < m; i++)
		for (j = i; j > 0 && by_minr_ctx_cmp(cl, cl->src[j - 1],
						     cl->src[j]) > 0; j--) {
			int32_t t = cl->src[j];

			cl->src[j] = cl->src[j - 1];
			cl->src[j - 1] = t;
		}
	cl->nsrc = m;
	for (i = 0; i < m; i++) {
		struct par *p = &cl->par[i];

		if (!parents(c, cl->l, cl->src[i], cl->cls, p))
			return false;
		/* every node of a class sees the same classes of parents */
		for (j = 0; j < i; j++)
			if (cl->cls[cl->src[j]] == cl->cls[cl->src[i]])
				break;
		if (j < i && !same_classes(&cl->par[j], p))
			return false;
	}
	return m > 0;
}

/* The level's node above router t in class k, or -1. */
static int32_t above(const struct ft_ctx *c, const struct col_line *cl,
		     uint32_t t, uint32_t k)
{
	uint32_t i;

	if (cl->lev == 0)
		return cl->nsw + t;
	for (i = 0; i < cl->nsw; i++)
		if (stage_of(c, cl->l, i) == cl->lev && cl->cls[i] == k &&
		    c->line[cl->l].below[(size_t)i * cl->k + t])
			return i;
	return -1;
}

/*
 * Whether t is below i's parents: the flows of level node i to t turn
 * down at the parent (the target's node takes the colour); otherwise
 * they go on up.
 */
static bool turns(const struct ft_ctx *c, const struct col_line *cl,
		  const struct par *p, uint32_t t)
{
	return c->line[cl->l].below[(size_t)p->e[0].node * cl->k + t];
}

/* Whether source i (level node x) has an item toward destination j. */
static bool item(const struct ft_ctx *c, const struct col_line *cl,
		 int32_t x, const uint32_t *tof, uint32_t j)
{
	return tof[j] != UINT32_MAX && sends_up(c, cl, x, tof[j]) &&
	       cl->wt[(size_t)j * cl->nloc + x] > 0;
}

/*
 * Where a sibling group's flows to a destination j do not split evenly
 * over the q classes (its size not a multiple of q), some classes take
 * one flow more: which ones decides how heavy j's items are above, and a
 * parent class that takes the extra flow of j from every group carries
 * j's flows in lumps that cannot be split evenly over parallel cables
 * down (two groups of 3 over 2 classes: j weighs 4 on one class and 2
 * on the other; six such destinations on two cables cannot make 9 and
 * 9).  So each pair node (group, j) gets phantom edges up to a multiple
 * of q, all from one vertex of j's own: the colouring, equitable at the
 * pair node, gives the phantoms the classes without the extra flow, and,
 * equitable at j's vertex, spreads those over the groups, so every class
 * takes j's extra flow from as many groups as the others.  Phantom edges
 * are numbered after the real ones and set no entry.
 */
static void phantoms(struct ecol *g, uint32_t nl, uint32_t ng, uint32_t nrel)
{
	uint32_t e, gr, j, n = g->ne, *cnt;

	cnt = calloc((size_t)ng * nrel + 1, sizeof(*cnt));
	if (!cnt)
		return; /* no phantoms: the colouring stays equitable */
	for (e = 0; e < n; e++)
		if (g->b[e] >= 2 * nl && g->b[e] < 2 * nl + ng * nrel)
			cnt[g->b[e] - 2 * nl]++;
	for (gr = 0; gr < ng; gr++)
		for (j = 0; j < nrel; j++) {
			uint32_t x = cnt[(size_t)gr * nrel + j] % g->q;

			for (; x && x < g->q; x++) {
				g->a[g->ne] = 2 * nl + ng * nrel + j;
				g->b[g->ne] = 2 * nl + gr * nrel + j;
				g->ne++;
			}
		}
	free(cnt);
}

/*
 * With phantom edges every source group gives a destination's extra flow
 * to another class (the phantoms' hub is equitable), so above a target
 * group every destination weighs alike in every class: with q = 2 and
 * groups of 3, nine destinations of weight 3 under one parent, which
 * two parallel cables down cannot split 14 + 13 (one entry per
 * destination: 15 + 12).  So, per target group T, a source node i of a
 * group G whose items toward two destinations j1, j2 of T carry colours
 * h and o, where (G, j1) has an extra flow in h and not in o and (G, j2)
 * the other way round, swaps them: i keeps its counts, each pair node
 * keeps floor or ceil of its edges per colour, and the extra flows of
 * j1 and j2 change class, so that j1 and j2 now weigh one less and one
 * more in h and o than the others (2, 4 and 3s: 14 + 13).  Once per
 * colour at most, destinations on one target node first (so the
 * target's own cables down keep their loads).  rc: the real edges'
 * counts per pair node and colour, then their sum (q + 1 a pair node);
 * pr: the pair node of each edge (or UINT32_MAX); tg, tn: the target
 * group and target node of each destination.
 */
static void agree(struct ecol *g, uint32_t nreal, const uint32_t *pr,
		  uint32_t *rc, const uint32_t *tg, const uint32_t *tn,
		  uint32_t nl, uint32_t ng, uint32_t nrel)
{
	uint32_t t, v, x, y, pass;
	unsigned int q = g->q, left;
	uint8_t *hit = calloc((size_t)q + 1, 1);

	if (!hit)
		return; /* no swap: the colouring stays equitable */
#define EXTRA(pn, h) (rc[(size_t)(pn) * (q + 1) + (h)] * q > \
		      rc[(size_t)(pn) * (q + 1) + q])
	for (t = 0; t < ng; t++) {
		memset(hit, 0, q);
		left = q;
		for (pass = 0; pass < 2 && left >= 2; pass++)
		for (v = 0; v < nl && left >= 2; v++)
		for (x = g->start[v]; x < g->start[v + 1] && left >= 2; x++) {
			uint32_t e1 = g->adj[x], p1, p2, e2;
			uint8_t h = g->col[e1], o;

			p1 = e1 < nreal ? pr[e1] : UINT32_MAX;
			if (p1 == UINT32_MAX || tg[p1 % nrel] != t || hit[h] ||
			    !EXTRA(p1, h))
				continue;
			for (y = g->start[v]; y < g->start[v + 1]; y++) {
				e2 = g->adj[y];
				p2 = e2 < nreal ? pr[e2] : UINT32_MAX;
				o = g->col[e2];
				if (p2 == UINT32_MAX || p2 == p1 || o == h ||
				    hit[o] || tg[p2 % nrel] != t ||
				    (!pass && tn[p1 % nrel] != tn[p2 % nrel]) ||
				    EXTRA(p1, o) || !EXTRA(p2, o) ||
				    EXTRA(p2, h))
					continue;
				g->col[e1] = o;
				g->col[e2] = h;
				rc[(size_t)p1 * (q + 1) + h]--;
				rc[(size_t)p1 * (q + 1) + o]++;
				rc[(size_t)p2 * (q + 1) + o]--;
				rc[(size_t)p2 * (q + 1) + h]++;
				hit[h] = hit[o] = 1;
				left -= 2;
				break;
			}
		}
	}
#undef EXTRA
	free(hit);
}

/*
 * agree() on a colouring with pairs and phantoms: its tables built from
 * the graph (pair nodes at 2 nl .., rt: the target node of each router,
 * vid, grp: the vertex and group of each source); 0, -1 no memory.
 */
static int agree_run(struct ecol *g, uint32_t nreal, uint32_t nl,
		     uint32_t ng, uint32_t nrel, const uint32_t *rt,
		     const uint32_t *vid, const uint32_t *grp, uint32_t nsrc,
		     const uint32_t *tof)
{
	uint32_t e, i, j, *pr, *rc, *tg, *tn, *vg;
	int ret = -1;

	pr = malloc(((size_t)nreal + 1) * sizeof(*pr));
	rc = calloc((size_t)ng * nrel * (g->q + 1) + 1, sizeof(*rc));
	tg = malloc(((size_t)nrel + 1) * sizeof(*tg));
	tn = malloc(((size_t)nrel + 1) * sizeof(*tn));
	vg = malloc(((size_t)nl + 1) * sizeof(*vg));
	if (!pr || !rc || !tg || !tn || !vg)
		goto out;
	for (i = 0; i < nl; i++)
		vg[i] = UINT32_MAX;
	for (i = 0; i < nsrc; i++)
		if (vid[i] < nl)
			vg[vid[i]] = grp[i];
	for (j = 0; j < nrel; j++) {
		tn[j] = tof[j] == UINT32_MAX ? UINT32_MAX : rt[tof[j]];
		tg[j] = tn[j] == UINT32_MAX ? UINT32_MAX : vg[tn[j] - nl];
	}
	for (e = 0; e < nreal; e++) {
		pr[e] = g->b[e] >= 2 * nl && g->b[e] < 2 * nl + ng * nrel ?
			g->b[e] - 2 * nl : UINT32_MAX;
		if (pr[e] == UINT32_MAX)
			continue;
		rc[(size_t)pr[e] * (g->q + 1) + g->col[e]]++;
		rc[(size_t)pr[e] * (g->q + 1) + g->q]++;
	}
	agree(g, nreal, pr, rc, tg, tn, nl, ng, nrel);
	ret = 0;
out:
	free(pr);
	free(rc);
	free(tg);
	free(tn);
	free(vg);
	return ret;
}

/*
 * Colours the items of weight wv of the sources of class k at level
 * cl->lev; 0, -1 no memory, 1 not an XGFT.  Right side: the target's
 * node of the level in the class for flows that turn down at the
 * parents; for those that go on up, with *even (one weight at the level,
 * every sibling group, the sources sharing their parents, as large as a
 * multiple of the colours), the pair (sibling group, destination), so
 * that each destination's flows from one group split exactly over the
 * classes and the next level's flows all weigh alike; *even false: the
 * target's node as well.  Each source deals an item of colour h to the
 * least loaded of its cables to that parent.
 */
static int colour_class(struct ft_ctx *c, struct col_line *cl, uint32_t k,
			uint32_t wv, const uint32_t *tof, uint32_t nrel,
			uint8_t *ent, bool *even)
{
	struct ecol g = { 0 };
	uint32_t i, j, e, nl = 0, ng = 0, *vid = NULL, *rt = NULL;
	uint32_t *grp = NULL, *gsize = NULL, nreal;
	struct par *p0 = NULL;
	bool pairs;
	int ret = 0;

	vid = malloc(((size_t)cl->nsrc + 1) * sizeof(*vid));
	grp = malloc(((size_t)cl->nsrc + 1) * sizeof(*grp));
	gsize = calloc((size_t)cl->nsrc + 1, sizeof(*gsize));
	rt = malloc(((size_t)cl->k + 1) * sizeof(*rt));
	if (!vid || !rt || !grp || !gsize) {
		ret = -1;
		goto out;
	}
	for (i = 0; i < cl->nsrc; i++) {
		uint32_t s;

		vid[i] = UINT32_MAX;
		if (cl->cls[cl->src[i]] != k)
			continue;
		if (!p0)
			p0 = &cl->par[i];
		vid[i] = nl++;
		/* siblings share their parents: the first one tells */
		for (s = 0; s < i; s++)
			if (cl->cls[cl->src[s]] == k &&
			    cl->par[s].e[0].node == cl->par[i].e[0].node)
				break;
		grp[i] = s < i ? grp[s] : ng++;
		gsize[grp[i]]++;
	}
	g.q = p0->np;
	for (i = 0; i < ng; i++)
		*even &= gsize[i] % g.q == 0;
	pairs = *even || cl->pairs;
	/* targets: the level's node above each router, in the class */
	for (j = 0; j < cl->k; j++) {
		int32_t x = above(c, cl, j, k);
		uint32_t s;

		rt[j] = UINT32_MAX;
		for (s = 0; s < cl->nsrc && x >= 0; s++)
			if (cl->src[s] == x)
				rt[j] = nl + vid[s];
		if (rt[j] == UINT32_MAX) {
			ret = 1;
			goto out;
		}
	}
	g.nv = 2 * nl + ng * nrel + nrel;
	g.a = malloc(((size_t)(nl + ng * g.q) * nrel + 1) * sizeof(*g.a));
	g.b = malloc(((size_t)(nl + ng * g.q) * nrel + 1) * sizeof(*g.b));
	g.col = malloc((size_t)(nl + ng * g.q) * nrel + 1);
	if (!g.a || !g.b || !g.col) {
		ret = -1;
		goto out;
	}
	for (i = 0; i < cl->nsrc; i++) {
		int32_t x = cl->src[i];

		if (cl->cls[x] != k)
			continue;
		for (j = 0; j < nrel; j++) {
			if (!item(c, cl, x, tof, j) ||
			    cl->wt[(size_t)j * cl->nloc + x] != wv)
				continue;
			g.a[g.ne] = vid[i];
			g.b[g.ne] = pairs && !turns(c, cl, &cl->par[i], tof[j]) ?
				    2 * nl + grp[i] * nrel + j : rt[tof[j]];
			cl->uneven |= !*even && !turns(c, cl, &cl->par[i],
							tof[j]);
			g.ne++;
		}
	}
	nreal = g.ne;
	if (cl->phantoms && !*even)
		phantoms(&g, nl, ng, nrel);
	if (g.q > 1 && ecol_run(&g)) {
		ret = -1;
		goto out;
	}
	if (g.q > 1 && cl->agree && cl->phantoms && !*even &&
	    agree_run(&g, nreal, nl, ng, nrel, rt, vid, grp, cl->nsrc, tof)) {
		ret = -1;
		goto out;
	}
	/* the entries: colour -> parent, its least loaded cable */
	for (i = 0, e = 0; i < cl->nsrc; i++) {
		int32_t x = cl->src[i];
		const struct par *p = &cl->par[i];

		if (cl->cls[x] != k)
			continue;
		for (j = 0; j < nrel; j++) {
			unsigned int h, u, best = 0;
			uint32_t *cw;
			uint8_t q;

			if (!item(c, cl, x, tof, j) ||
			    cl->wt[(size_t)j * cl->nloc + x] != wv)
				continue;
			h = g.q > 1 ? g.col[e] : 0;
			e++;
			cw = cl->cw + ((size_t)i * MAXPAR + h) * MAXPAR;
			for (u = 1; u < p->e[h].nport; u++)
				if (cw[u] < cw[best])
					best = u;
			cw[best] += wv;
			q = p->e[h].port[best];
			if (!is_cand(c, cl->l, x, cl->nsw + tof[j], q)) {
				ret = 1;
				goto out;
			}
			ent[(size_t)j * cl->nloc + x] = q;
		}
	}
out:
	ecol_free(&g);
	free(g.a);
	free(g.b);
	free(g.col);
	free(vid);
	free(rt);
	free(grp);
	free(gsize);
	return ret;
}

/* The flows of each item of the level, added at the parent it took. */
static void carry(const struct ft_ctx *c, struct col_line *cl,
		  const uint32_t *tof, uint32_t nrel, const uint8_t *ent)
{
	uint32_t i, j;

	for (i = 0; i < cl->nsrc; i++) {
		int32_t x = cl->src[i];
		const struct ot_node *nd = &c->f->node[global(c, cl->l, x)];

		for (j = 0; j < nrel; j++) {
			uint8_t q = ent[(size_t)j * cl->nloc + x];
			int32_t v;

			if (!item(c, cl, x, tof, j) || q == OT_NO_PORT ||
			    q > nd->nports || nd->port[q].peer < 0)
				continue;
			v = local(c, cl->l, nd->port[q].peer);
			if (v >= 0)
				cl->wt[(size_t)j * cl->nloc + v] +=
					cl->wt[(size_t)j * cl->nloc + x];
		}
	}
}

struct witem {
	uint32_t w, j;
};

static int witem_cmp(const void *x, const void *y)
{
	const struct witem *a = x, *b = y;

	if (a->w != b->w)
		return a->w > b->w ? -1 : 1;
	return a->j < b->j ? -1 : a->j > b->j;
}

/*
 * The top switches' cables down, where a child has parallel cables from
 * one: all flows of a destination there take one cable (one entry), so
 * the destinations going down to that child, by their flows (wt, all
 * carried up by now), heaviest first, each to the least loaded cable
 * (the first on a tie): at most one destination above the even share.
 * Entries already set are kept.  0, -1 no memory, 1 not a candidate.
 */
static int down_top(const struct ft_ctx *c, const struct col_line *cl,
		    const uint32_t *tof, uint32_t nrel, uint8_t *ent)
{
	unsigned int s = c->kns->lines[cl->l].stages;
	struct witem *it = malloc(((size_t)nrel + 1) * sizeof(*it));
	uint32_t x, j, n, u, load[MAXPAR];
	struct par ch;
	int ret = 0;

	if (!it)
		return -1;
	for (x = 0; x < cl->nsw && !ret; x++) {
		const struct ot_node *nd = &c->f->node[global(c, cl->l, x)];
		unsigned int q, b;

		if (stage_of(c, cl->l, x) != s)
			continue;
		/* x's children and its cables to each */
		ch.np = 0;
		for (q = 1; q <= nd->nports; q++) {
			int32_t y = nd->port[q].peer, v;

			if (y < 0 || c->kns->role[y] == OT_KNS_CA)
				continue;
			v = local(c, cl->l, y);
			if (v < 0 || stage_of(c, cl->l, v) + 1u != s)
				continue;
			for (b = 0; b < ch.np && ch.e[b].node != v; b++)
				;
			if (b == ch.np) {
				if (ch.np == MAXPAR)
					break;
				ch.e[b].node = v;
				ch.e[b].nport = 0;
				ch.np++;
			}
			if (ch.e[b].nport < MAXPAR)
				ch.e[b].port[ch.e[b].nport++] = (uint8_t)q;
		}
		for (b = 0; b < ch.np && !ret; b++) {
			int32_t v = ch.e[b].node;

			if (ch.e[b].nport < 2)
				continue;
			for (j = 0, n = 0; j < nrel; j++) {
				uint32_t t = tof[j], w;

				if (t == UINT32_MAX ||
				    ent[(size_t)j * cl->nloc + x] != OT_NO_PORT)
					continue;
				if (v >= (int32_t)cl->nsw ?
				    (uint32_t)v - cl->nsw != t :
				    !c->line[cl->l].below[(size_t)v * cl->k + t])
					continue;
				w = cl->wt[(size_t)j * cl->nloc + x];
				if (w) {
					it[n].w = w;
					it[n++].j = j;
				}
			}
			qsort(it, n, sizeof(*it), witem_cmp);
			memset(load, 0, sizeof(load));
			for (j = 0; j < n && !ret; j++) {
				unsigned int best = 0;

				for (u = 1; u < ch.e[b].nport; u++)
					if (load[u] < load[best])
						best = u;
				load[best] += it[j].w;
				q = ch.e[b].port[best];
				if (!is_cand(c, cl->l, x, cl->nsw + tof[it[j].j],
					     (uint8_t)q))
					ret = 1;
				ent[(size_t)it[j].j * cl->nloc + x] = (uint8_t)q;
			}
		}
	}
	free(it);
	return ret;
}

/*
 * Level by level from the routers up (see colour_class), the items of
 * each weight on their own, heaviest first; 0, -1 no memory, 1 not an
 * XGFT.
 */
static int colour_levels(struct ft_ctx *c, struct col_line *cl,
			 const uint32_t *tof, uint32_t nrel, uint8_t *ent,
			 bool *set)
{
	unsigned int s = c->kns->lines[cl->l].stages;
	uint32_t i, j, n, a;
	bool even = true;
	int ret = 0;

	memset(cl->wt, 0, (size_t)nrel * cl->nloc * sizeof(*cl->wt));
	for (j = 0; j < nrel; j++)
		for (a = 0; a < cl->k && tof[j] != UINT32_MAX; a++)
			cl->wt[(size_t)j * cl->nloc + cl->nsw + a] = a != tof[j];
	for (cl->lev = 0; cl->lev < s && !ret; cl->lev++) {
		if (!sources(c, cl))
			return *set ? 0 : 1;
		memset(cl->cw, 0, ((size_t)cl->nsrc * MAXPAR * MAXPAR + 1) *
		       sizeof(*cl->cw));
		for (i = 0; i < cl->nsrc && !ret; i++) {
			uint32_t u, wv, next;
			bool one;

			/* each class once, at its first source */
			for (u = 0; u < i && cl->cls[cl->src[u]] !=
			     cl->cls[cl->src[i]]; u++)
				;
			if (u < i)
				continue;
			/* its items' weights, heaviest first */
			for (wv = UINT32_MAX, one = true; !ret; wv = next) {
				next = 0;
				for (u = 0; u < cl->nsrc; u++)
					for (j = 0; j < nrel; j++) {
						uint32_t w = cl->wt[(size_t)j *
							cl->nloc + cl->src[u]];

						if (cl->cls[cl->src[u]] !=
						    cl->cls[cl->src[i]] ||
						    !item(c, cl, cl->src[u], tof,
							  j) || w >= wv)
							continue;
						if (next && w != next)
							one = false;
						if (w > next)
							next = w;
					}
				if (!next)
					break;
				if (wv != UINT32_MAX)
					one = false;
				even &= one;
				ret = colour_class(c, cl, cl->cls[cl->src[i]],
						   next, tof, nrel, ent, &even);
			}
		}
		for (i = 0, n = 0; i < cl->nsrc; i++)
			n += cl->par[i].np > 1 || cl->par[i].e[0].nport > 1;
		*set |= !ret && n > 0;
		if (!ret)
			carry(c, cl, tof, nrel, ent);
	}
	if (!ret && cl->agree)
		ret = down_top(c, cl, tof, nrel, ent);
	return ret;
}

int ot_hdor_ft_colour(struct ft_ctx *c, uint32_t l, const uint16_t *rel,
		      uint32_t nrel, uint8_t *ent, unsigned int way, bool *set,
		      bool *uneven)
{
	const struct ot_kns_line *ln = &c->kns->lines[l];
	struct col_line cl = { .l = l, .nsw = ln->nsw, .k = c->k,
			       .nloc = c->line[l].nloc, .pairs = way >= 1,
			       .phantoms = way >= 2, .agree = way >= 3 };
	uint32_t j, *tof = NULL;
	unsigned int off;
	bool more;
	int ret = 0;

	*set = false;
	*uneven = false;
	if (!c->line[l].proper || c->line[l].broken)
		return 0;
	cl.cls = malloc(((size_t)cl.nloc + 1) * sizeof(*cl.cls));
	cl.minr = malloc(((size_t)cl.nloc + 1) * sizeof(*cl.minr));
	cl.src = malloc(((size_t)cl.nloc + 1) * sizeof(*cl.src));
	cl.par = malloc(((size_t)cl.nloc + 1) * sizeof(*cl.par));
	tof = malloc(((size_t)nrel + 1) * sizeof(*tof));
	cl.wt = malloc(((size_t)nrel * cl.nloc + 1) * sizeof(*cl.wt));
	cl.cw = malloc(((size_t)cl.nloc * MAXPAR * MAXPAR + 1) *
		       sizeof(*cl.cw));
	if (!cl.cls || !cl.minr || !cl.src || !cl.par || !tof || !cl.wt ||
	    !cl.cw) {
		ret = -1;
		goto out;
	}
	classes(c, &cl);
	/*
	 * The CA destinations' targets (router LIDs carry no load), one
	 * LID offset at a time: each offset's LIDs balanced on their own
	 * (traffic may use the base LIDs only).
	 */
	for (off = 0, more = true; more && ret <= 0 && off < 256; off++) {
		more = false;
		for (j = 0; j < nrel; j++) {
			const struct ft_dest *dst = &c->dest[rel[j]];
			const struct ot_lid_owner *o = &c->f->lid_owner[rel[j]];
			unsigned int at = rel[j] -
				c->f->node[o->node].port[o->port].lid;

			more |= at > off;
			tof[j] = dst->kind == DEST_CA && at == off ?
				 (uint32_t)c->kns->coord[(size_t)dst->node *
							 c->n + ln->dim] :
				 UINT32_MAX;
		}
		ret = colour_levels(c, &cl, tof, nrel, ent, set);
	}
	*uneven = cl.uneven;
	if (ret > 0) {
		/* not the shape the colouring knows: nothing set */
		memset(ent, OT_NO_PORT, (size_t)nrel * cl.nloc);
		*set = false;
		ret = 0;
	}
out:
	free(cl.cls);
	free(cl.minr);
	free(cl.src);
	free(cl.par);
	free(cl.wt);
	free(cl.cw);
	free(tof);
	return ret < 0 ? ot_error_nomem(c->err, "hdor") : 0;
}
