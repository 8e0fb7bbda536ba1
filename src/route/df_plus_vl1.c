// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * df-static on a Dragonfly+ (route/df_plus.c): everything that leaves the
 * rule on VL 1, so that a damaged fabric takes 2 VLs at LMC 0 (issue 23:
 * "with 5 % of cables missing, no credit loop on at most 2 VLs").
 *
 * VL 1 carries the detours' hops (SL 1, 3, 4: VL 1 from where they leave
 * up-global-down), the damage layer's (SL 8: after a global cable, after
 * a spine, onto a global cable down in its order) and every hop of the
 * LIDs on the escape layer (SL 2).  VL 0 carries SL 0 and the detours'
 * and the damage layer's hops before they leave the rule, in the order
 * injection < up < global < down (the argument at the top of df_plus.c);
 * no path goes from VL 1 back to VL 0.  The detours and the damage layer
 * are each acyclic on VL 1 by their orders, but not together (a detour's
 * down hop into a leaf can be the damage layer's down hop into the leaf
 * where it turns), nor with an escape layer's paths.  So VL 1 has no
 * structural order; it is searched per fabric, on the channel dependency
 * graph (model/cdg.h, the checker's) of every path on VL 1, walked
 * through the tables themselves (each switch's port toward the LID): on
 * SL 1, 3, 4 and 8 from every leaf (a CA's LID and the leaf's own: a CA
 * querying a switch), on SL 2 from every switch (a spine's traffic to
 * such a LID is on SL 2 too).
 *
 * 1. The LIDs the engine put on the escape layer (a switch without a
 *    port toward them) start pending, out of the graph.
 * 2. A round: the graph of every other path on VL 1.  A LID of the rule
 *    whose path goes back from VL 1 to VL 0 or does not arrive goes
 *    pending; else, where the graph has credit loops (Tarjan), the LID
 *    with the most dependencies inside each loop goes pending (the first
 *    in the dealing order on a tie); else (acyclic) each pending LID is
 *    grown a tree on VL 1 around the graph (grow_tree: from its leaf,
 *    layer by layer, each switch taking a hop to the nearest switches of
 *    the tree whose dependency closes no cycle; its dependencies join the
 *    graph), on SL 2 from every source; where no tree grows (the tries
 *    below), up*-down* (route/escape.h), which the next round looks at
 *    again.
 * 3. Rounds until the graph is acyclic with nothing pending: then VL 0
 *    is acyclic by the argument, VL 1 by the search, and no dependency
 *    goes from VL 1 to VL 0: the whole graph is acyclic (Dally and
 *    Seitz), on 2 VLs.
 *
 * Which nearest switch a tree's hop goes to decides the balance: every
 * CA's traffic to such a LID follows the tree.  The search runs twice.
 * The first time a tree's first try takes, among the nearest switches,
 * the hop whose link, or the busiest link of the tree's path on from
 * there, carries the fewest flows of uniform traffic (each CA one to
 * every CA's base LID, through the tables, the pending LIDs' left out;
 * the tree's own added as it grows, taken out again where it does not
 * grow), the dealing order on a tie; its further tries and every try of
 * the second search deal the nearest switches by the LID's number alone
 * (4 deals).  Kept: the search that ended with VL 1 acyclic; where both
 * did, the one whose busiest switch-to-switch link carries fewer flows
 * (the second's on a tie).  Dealt alone, the 4 LIDs of a leaf that lost
 * two of its four spine cables put 320 of the 560 flows into it on one
 * of its two cables (issue 23's shape, 5 % missing, seed 13).
 *
 * It ends: past DFP_ROUNDS rounds, DFP_FAILS trees that did not grow or
 * DFP_WORK channels searched, a search gives up (restore()): every
 * column and escape mark goes back to what the engine set.  Where both
 * give up, the detours keep VL 1 (acyclic by their order), and of the
 * damage layer and the escape layer (up*-down*) the first that makes
 * an acyclic graph with them shares it (share_given_up(): the damage
 * layer where the first round found the graph of those tables without
 * the escape layer's LIDs acyclic, the same tables, restored), the
 * other takes a VL of its own: 3 VLs; else the two share one where
 * their graph is acyclic (3), else each takes one (4), each acyclic by
 * its own order as in df_plus.c.  The graphs are walked as the search
 * walks VL 1, so a VL shared this way is acyclic by the graph, and no
 * path goes from one of those VLs to another or back to VL 0.
 * Putting every LID with a path on VL 1 on up*-down* at once would keep
 * 2 VLs, but cost most of the throughput (uniform 0.04-0.12 against
 * 0.11-0.26 with 10 % of the cables missing; doc/dragonfly-plus.md).
 * With 5 % missing no drawn fabric got that far.  Where the graph has no
 * loop nothing moves and the tables are the rule's.  Which LIDs move,
 * the trees and the loads depend on the graph and the dealing order
 * (groups, leaves, ranks as the recognizer numbers them), not on node
 * order or port numbers.
 */
#include <stdlib.h>
#include <string.h>

#include "model/cdg.h"
#include "model/sort.h"
#include "route/df_plus_cands.h"
#include "route/df_plus_rule.h"

/* The VL rule with the damage and escape layers on VL 1. */
static const struct dfp_vlrule shared = {
	.detour = true, .turn = true, .land = true, .escape = true,
	.esc_vl = 1, .dmg_vl = 1,
};

/* What a LID's column is. */
enum {
	V1_RULE,    /* the engine's: SL 0 and the SLs its leaves got */
	V1_UPDOWN,  /* the escape layer's up*-down* on SL 2 */
	V1_TREE,    /* a tree grown on VL 1 around the others, SL 2 */
	V1_PENDING, /* out of the graph, to be grown a tree */
};

struct v1 {
	struct dfp_ctx *c;
	struct ot_routing *out;
	uint8_t *st;       /* per LID */
	uint32_t *seen;    /* per channel: the search's mark */
	uint32_t *stack;   /* per channel */
	uint32_t mark;
	uint32_t *dist;    /* per node: the tree's hops to the LID, + 1 */
	uint32_t *nfrom;   /* the dependencies the tree added: from */
	int32_t *nto;      /* ... to this node's hop */
	uint32_t nnew;
	uint32_t turn;     /* the tree's deal: the LID's number + try */
	bool by_load;      /* this try: the least loaded first (tree_hop) */
	bool mode_load;    /* this search: a first try by load per tree */
	uint64_t work;     /* channels the cycle searches visited */
	uint32_t fails;    /* trees that did not grow */
	/*
	 * The tables as the engine left them, to go back to where the
	 * search gives up: per LID its switches' column before the first
	 * change (NULL: unchanged), the escape marks and their count.
	 */
	uint8_t **saved;
	uint8_t *escape0;
	bool any_escape0;
	uint32_t v1moved0;
	/*
	 * Link loads that steer the trees (tree_hop): per link, the flows of
	 * uniform traffic over it (each CA sending one to every CA's base
	 * LID but the pending ones), the tree's own added as it grows.
	 */
	uint32_t *lbase;   /* per node: its first link */
	int32_t *load;     /* per link */
	uint32_t *wt;      /* per node: the CAs cabled to it */
	int32_t *joined;   /* the tree's switches with CAs so far */
	uint32_t njoined;
	bool loaded;
	/* the first round's graph (the engine's tables, the escape layer's
	 * LIDs out): 1 acyclic, 0 not, -1 not seen */
	int first;
};

/* Whether lid's flows count in the loads: a CA's base LID. */
static bool counted(const struct v1 *v, uint32_t lid)
{
	const struct dfp_ctx *c = v->c;
	int32_t o = c->f->lid_owner[lid].node;

	return c->tsw[lid] >= 0 && !c->voff[lid] && o >= 0 &&
	       !ot_is_switch(c->f, o);
}

/*
 * Adds w to every link of the path toward lid from switch n: through
 * the tables, or (grown) through the hops of the tree being grown.
 */
static void add_path(struct v1 *v, uint32_t lid, int32_t n, int32_t w,
		     bool grown)
{
	const struct dfp_ctx *c = v->c;
	uint32_t hops = 0;

	while (n != c->tsw[lid] && hops++ <= c->nsw) {
		unsigned int p = grown ? c->hop[n] : v->out->lft[n][lid];
		const struct ot_port *pt;

		if (!p || p > c->f->node[n].nports)
			return;
		pt = &c->f->node[n].port[p];
		if (pt->peer < 0 || !ot_is_switch(c->f, pt->peer))
			return;
		v->load[v->lbase[n] + p - 1] += w;
		n = pt->peer;
	}
}

/* lid's flows (counted()) in or out of the loads: sign 1 or -1. */
static void add_lid(struct v1 *v, uint32_t lid, int32_t sign)
{
	const struct dfp_ctx *c = v->c;
	uint32_t i;

	if (!v->loaded || !counted(v, lid))
		return;
	for (i = 0; i < c->nleaves; i++) {
		int32_t s = c->posnode[i];

		if (v->wt[s])
			add_path(v, lid, s, sign * (int32_t)v->wt[s], false);
	}
}

/* The loads of every LID not pending, through the tables. */
static void load_all(struct v1 *v)
{
	const struct dfp_ctx *c = v->c;
	uint32_t x;

	if (v->loaded)
		return;
	v->loaded = true;
	for (x = 0; x < c->norder; x++)
		if (v->st[c->order[x]] != V1_PENDING)
			add_lid(v, c->order[x], 1);
}

/* lid goes pending: its flows out of the loads (its column as it is). */
static void pend(struct v1 *v, uint32_t lid)
{
	add_lid(v, lid, -1);
	v->st[lid] = V1_PENDING;
}

/* The most loaded link on the tree's path from switch y toward lid. */
static int32_t path_max(const struct v1 *v, uint32_t lid, int32_t y)
{
	const struct dfp_ctx *c = v->c;
	uint32_t hops = 0;
	int32_t m = 0;

	while (y != c->tsw[lid] && hops++ <= c->nsw) {
		unsigned int p = c->hop[y];

		if (v->load[v->lbase[y] + p - 1] > m)
			m = v->load[v->lbase[y] + p - 1];
		y = c->f->node[y].port[p].peer;
	}
	return m;
}

/* lid's column, kept before its first change.  0, or -1 (OOM). */
static int save_col(struct v1 *v, uint32_t lid)
{
	const struct dfp_ctx *c = v->c;
	uint32_t i;

	if (v->saved[lid])
		return 0;
	v->saved[lid] = malloc(c->nsw);
	if (!v->saved[lid])
		return ot_error_nomem(c->err, "df-static");
	for (i = 0; i < c->nsw; i++)
		v->saved[lid][i] = v->out->lft[c->posnode[i]][lid];
	return 0;
}

/*
 * The search gave up: every column and escape mark back as the engine
 * left them, the damage and escape layers on VLs of their own (v1share
 * false): each acyclic by its own order (df_plus.c), as before there was
 * a search; 3 or 4 VLs instead of 2, the rule's throughput kept.
 */
static void restore(struct v1 *v)
{
	struct dfp_ctx *c = v->c;
	uint32_t lid, i;

	for (lid = 0; lid <= c->f->max_lid; lid++) {
		if (!v->saved[lid])
			continue;
		for (i = 0; i < c->nsw; i++)
			v->out->lft[c->posnode[i]][lid] = v->saved[lid][i];
	}
	memcpy(c->escape, v->escape0, (size_t)c->f->max_lid + 1);
	c->any_escape = v->any_escape0;
	c->v1moved = v->v1moved0;
}

/* The SL of lid's paths from switch position i that VL 1 sees, 0 none. */
static unsigned int walk_sl(const struct v1 *v, uint32_t lid, uint32_t i)
{
	const struct dfp_ctx *c = v->c;
	uint8_t sl;

	if (c->tsw[lid] < 0 || c->tsw[lid] != c->tleaf[lid] ||
	    v->st[lid] == V1_PENDING)
		return 0; /* a spine's LID: SL 0 */
	if (c->escape[lid])
		return DFP_ESCAPE_SL;
	if (i >= c->nleaves || !c->dsl)
		return 0;
	sl = c->dsl[(size_t)lid * c->nleaves + i];
	return sl == DFP_DETOUR_SL || sl == DFP_TURN_SL ||
	       sl == DFP_LAND_SL || sl == DFP_DAMAGE_SL ? sl : 0;
}

/* Per cyclic part of the graph, the LID with the most dependencies in it. */
struct v1loops {
	const struct ot_cdg_sccs *sc;
	uint32_t *cnt;   /* per part: the current LID's dependencies in it */
	uint32_t *best;  /* per part: the most of one LID */
	uint32_t *blid;  /* per part: that LID */
	uint32_t *touch; /* the parts cnt holds */
	uint32_t ntouch;
};

/*
 * The path toward lid from switch position i on SL sl through the
 * tables: each dependency between two hops on VL 1 added to g (lp NULL),
 * or, with lp, counted in lp->cnt where it lies inside a credit loop.  1
 * where the path goes from VL 1 back to VL 0 or does not arrive, 0 else,
 * -1 out of memory.
 */
static int walk(const struct v1 *v, struct ot_cdg *g, struct v1loops *lp,
		uint32_t lid, uint32_t i, unsigned int sl)
{
	const struct dfp_ctx *c = v->c;
	const struct ot_dfp *d = c->d;
	enum ot_dfp_port in = OT_DFP_PORT_NONE;
	int32_t n = c->posnode[i];
	uint32_t last = 0, hops = 0;
	uint8_t pvl = 0;

	while (n != c->tsw[lid]) {
		unsigned int p = v->out->lft[n][lid];
		const struct ot_port *pt;
		uint8_t vl;

		if (!p || p > c->f->node[n].nports)
			return 1;
		pt = &c->f->node[n].port[p];
		if (pt->peer < 0 || !ot_is_switch(c->f, pt->peer) ||
		    d->group[pt->peer] < 0 || ++hops > c->nsw)
			return 1;
		vl = ot_dfp_vl(&shared, sl, in,
			       ot_dfp_port_class(d, (uint32_t)n, p),
			       ot_dfp_down_mask(d, c->drank, (uint32_t)n, p));
		if (pvl && !vl)
			return 1;
		if (pvl && !lp && ot_cdg_add(g, last, n, p, 1) < 0)
			return -1;
		if (pvl && lp) {
			int32_t a = lp->sc->comp[last];

			if (a >= 0 && lp->sc->cyclic[a] &&
			    a == lp->sc->comp[ot_cdg_channel(g, n, p, 1)] &&
			    !lp->cnt[a]++)
				lp->touch[lp->ntouch++] = (uint32_t)a;
		}
		pvl = vl;
		last = ot_cdg_channel(g, n, p, 1);
		in = ot_dfp_port_class(d, (uint32_t)pt->peer, pt->peer_port);
		n = pt->peer;
	}
	return 0;
}

/*
 * Every path on VL 1 walked but the pending LIDs', into g (lp NULL) or
 * against lp's loops.  Into g: a LID of the rule whose paths leave VL 1
 * or do not arrive goes pending; against lp: the LID with the most
 * dependencies inside each credit loop (the first in the dealing order
 * on a tie), up*-down* ones left out (they cannot move).  The LIDs that
 * went pending, or -1 (out of memory); *stuck where an escape LID's path
 * does not arrive (it cannot).
 */
static int64_t walk_all(struct v1 *v, struct ot_cdg *g, struct v1loops *lp,
			bool *stuck)
{
	const struct dfp_ctx *c = v->c;
	int64_t marked = 0;
	uint32_t x, i, a;

	for (x = 0; x < c->norder; x++) {
		uint32_t lid = c->order[x];

		for (i = 0; i < c->nsw && !(lp && v->st[lid] == V1_UPDOWN);
		     i++) {
			unsigned int sl = walk_sl(v, lid, i);
			int r;

			if (!sl)
				continue;
			r = walk(v, g, lp, lid, i, sl);
			if (r < 0)
				return -1;
			if (!r || lp)
				continue;
			if (c->escape[lid])
				*stuck = true;
			else
				marked++, pend(v, lid);
			break;
		}
		for (i = 0; lp && i < lp->ntouch; i++) {
			a = lp->touch[i];
			if (lp->cnt[a] > lp->best[a]) {
				lp->best[a] = lp->cnt[a];
				lp->blid[a] = lid;
			}
			lp->cnt[a] = 0;
		}
		if (lp)
			lp->ntouch = 0;
	}
	for (a = 0; lp && a < lp->sc->ncomp; a++)
		if (lp->best[a] && v->st[lp->blid[a]] != V1_PENDING)
			marked++, pend(v, lp->blid[a]);
	return marked;
}

/*
 * The graph g of every path on VL 1 but the pending LIDs': the LIDs that
 * go pending this round (0: g is acyclic), -1 out of memory, -2 stuck.
 */
static int64_t to_move(struct v1 *v, struct ot_cdg *g)
{
	struct ot_cdg_sccs sc;
	struct v1loops lp = { .sc = &sc };
	bool stuck = false;
	int64_t m = walk_all(v, g, NULL, &stuck);

	if (m || stuck)
		return stuck ? -2 : m;
	if (ot_cdg_sccs(g, 0, &sc))
		return -1;
	if (sc.nloops) {
		size_t n = (size_t)sc.ncomp + 1;

		lp.cnt = calloc(n, sizeof(*lp.cnt));
		lp.best = calloc(n, sizeof(*lp.best));
		lp.blid = calloc(n, sizeof(*lp.blid));
		lp.touch = malloc(n * sizeof(*lp.touch));
		m = lp.cnt && lp.best && lp.blid && lp.touch ?
			walk_all(v, g, &lp, &stuck) : -1;
		if (!m)
			m = -2; /* a loop of up*-down* alone: cannot be */
		free(lp.cnt);
		free(lp.best);
		free(lp.blid);
		free(lp.touch);
	}
	ot_cdg_sccs_free(&sc);
	return m;
}

/*
 * Bounds on the search: channels the cycle searches may visit in all,
 * rounds and trees that do not grow before it gives up (restore()).
 */
#define DFP_WORK (64ull << 20)
#define DFP_ROUNDS 12
#define DFP_FAILS 4

/* Whether channel to is reached from channel from in g. */
static bool reaches(struct v1 *v, const struct ot_cdg *g, uint32_t from,
		    uint32_t to)
{
	uint32_t sp = 0, x, y;
	unsigned int pos;

	v->mark++;
	v->seen[from] = v->mark;
	v->stack[sp++] = from;
	while (sp) {
		x = v->stack[--sp];
		v->work++;
		if (x == to)
			return true;
		for (pos = 0; (y = ot_cdg_next(g, x, &pos)) != UINT32_MAX;)
			if (v->seen[y] != v->mark) {
				v->seen[y] = v->mark;
				v->stack[sp++] = y;
			}
	}
	return false;
}

/*
 * Switch x of the tree toward lid: a port to a switch y of the tree
 * (nearest to the LID first; among those the least loaded, by the most
 * loaded link of x -> y and y's path on, then dealt by the LID's number,
 * in position and port order) whose dependency (x -> y) -> (y's hop)
 * closes no cycle in g; added to g.  0, or 1 where there is none, -1 out
 * of memory.
 */
static int tree_hop(struct v1 *v, struct ot_cdg *g, uint32_t lid, int32_t x,
		    uint32_t layer)
{
	const struct dfp_ctx *c = v->c;
	const struct ot_node *nd = &c->f->node[x];
	uint64_t key[OT_MAX_PORTS + 1], ord[OT_MAX_PORTS + 1];
	uint32_t m = 0, near = 0, j;
	unsigned int p;

	for (p = 1; p <= nd->nports; p++) {
		int32_t y = nd->port[p].peer;

		if (y >= 0 && ot_is_switch(c->f, y) && c->d->group[y] >= 0 &&
		    v->dist[y] && v->dist[y] < layer)
			key[m++] = ((uint64_t)v->dist[y] << 40) |
				   ((uint64_t)dfp_sw_pos(c, y) << 8) | p;
	}
	qsort(key, m, sizeof(*key), ot_cmp_u64);
	while (near < m && key[near] >> 40 == key[0] >> 40)
		near++;
	for (j = 0; j < near; j++) { /* the nearest: least loaded, then dealt */
		uint32_t at = (v->turn + j) % near;
		int32_t y = nd->port[key[at] & 0xff].peer;
		int32_t l = v->load[v->lbase[x] + (key[at] & 0xff) - 1];
		int32_t b = path_max(v, lid, y);

		l = l > b ? l : b;
		ord[j] = ((uint64_t)(l > 0 && v->by_load ? l : 0) << 16) | j;
	}
	qsort(ord, near, sizeof(*ord), ot_cmp_u64);
	for (j = 0; j < m; j++) {
		uint32_t at = j < near ? (v->turn + (ord[j] & 0xffff)) % near :
					 j;
		int32_t y;
		uint32_t a, b;
		int added;

		p = key[at] & 0xff;
		y = nd->port[p].peer;
		a = ot_cdg_channel(g, x, p, 1);
		if (v->work > DFP_WORK)
			return 1;
		if (y != c->tsw[lid]) {
			b = ot_cdg_channel(g, y, c->hop[y], 1);
			if (reaches(v, g, b, a))
				continue;
			added = ot_cdg_add(g, a, y, c->hop[y], 1);
			if (added < 0)
				return -1;
			if (added) {
				v->nfrom[v->nnew] = a;
				v->nto[v->nnew++] = y;
			}
		}
		c->hop[x] = (uint8_t)p;
		return 0;
	}
	return 1;
}

/*
 * lid's column as a tree on VL 1 around the dependencies in g (acyclic):
 * grown from its leaf layer by layer, each switch taking a hop that
 * closes no cycle (tree_hop), its dependencies added to g as it goes.
 * 0, 1 where some switch finds no such hop (g then holds dependencies of
 * a tree not taken: more, never fewer), -1 out of memory.
 */
static int grow_tree(struct v1 *v, struct ot_cdg *g, uint32_t lid)
{
	struct dfp_ctx *c = v->c;
	uint32_t i, layer, left = c->nsw - 1;
	bool grew = true;
	int rc;

	v->nnew = 0;
	v->njoined = 0;
	for (i = 0; i < c->nsw; i++)
		v->dist[c->posnode[i]] = 0;
	v->dist[c->tsw[lid]] = 1;
	c->hop[c->tsw[lid]] = c->tport[lid];
	for (layer = 2; left && grew; layer++) {
		grew = false;
		for (i = 0; i < c->nsw; i++) {
			int32_t x = c->posnode[i];

			if (v->dist[x])
				continue;
			rc = tree_hop(v, g, lid, x, layer);
			if (rc < 0)
				return -1;
			if (rc)
				continue;
			v->dist[x] = layer;
			left--;
			grew = true;
			if (v->wt[x] && counted(v, lid)) {
				add_path(v, lid, x, (int32_t)v->wt[x], true);
				v->joined[v->njoined++] = x;
			}
		}
	}
	if (left) { /* not taken: its dependencies and loads out again */
		for (i = 0; i < v->nnew; i++)
			ot_cdg_remove(g, v->nfrom[i], v->nto[i],
				      c->hop[v->nto[i]], 1);
		for (i = 0; i < v->njoined; i++)
			add_path(v, lid, v->joined[i],
				 -(int32_t)v->wt[v->joined[i]], true);
		return 1;
	}
	if (save_col(v, lid))
		return -1;
	for (i = 0; i < c->nsw; i++)
		v->out->lft[c->posnode[i]][lid] = c->hop[c->posnode[i]];
	return 0;
}

/* A LID's column from the escape layer (up*-down*). */
static int updown(struct v1 *v, uint32_t lid)
{
	struct dfp_ctx *c = v->c;
	uint32_t i;

	if (ot_dfp_escape_hops(c, lid, c->rank[lid]) || save_col(v, lid))
		return -1;
	for (i = 0; i < c->nsw; i++)
		v->out->lft[c->posnode[i]][lid] = c->hop[c->posnode[i]];
	add_lid(v, lid, 1);
	return 0;
}

#define DFP_TRIES 4 /* deals of a tree tried after the one by load */

/*
 * The pending LIDs, g holding every other path on VL 1 (acyclic): each
 * grown a tree on VL 1 around them (SL 2), or, where none grows, put on
 * up*-down* (the next round looks again).  0, or -1 (err set).
 */
static int place_pending(struct v1 *v, struct ot_cdg *g)
{
	struct dfp_ctx *c = v->c;
	uint32_t x, t;
	int rc;

	load_all(v);
	for (x = 0; x < c->norder; x++) {
		uint32_t lid = c->order[x];

		if (v->st[lid] != V1_PENDING)
			continue;
		if (!c->escape[lid])
			c->v1moved++;
		c->escape[lid] = 1;
		c->any_escape = true;
		for (t = !v->mode_load, rc = 1; rc > 0 && t <= DFP_TRIES; t++) {
			v->by_load = !t;
			v->turn = c->rank[lid] + (t ? t - 1 : 0);
			rc = grow_tree(v, g, lid);
		}
		if (rc < 0)
			return ot_error_nomem(c->err, "df-static");
		v->st[lid] = rc ? V1_UPDOWN : V1_TREE;
		v->fails += rc > 0;
		if (rc && updown(v, lid))
			return -1;
		if (v->fails > DFP_FAILS)
			return 0; /* search() gives up before another round */
	}
	return 0;
}

/* One round: 1 VL 1 acyclic with nothing pending, 0 go on, -1 out of
 * memory (err set), -2 stuck. */
static int round_vl1(struct v1 *v)
{
	struct ot_cdg g;
	int64_t m;
	int rc = 0;

	if (ot_cdg_init(&g, v->c->f))
		return ot_error_nomem(v->c->err, "df-static");
	m = to_move(v, &g);
	if (v->first < 0 && m >= 0)
		v->first = !m;
	if (m == -1)
		rc = ot_error_nomem(v->c->err, "df-static");
	else if (m < 0)
		rc = -2;
	else if (!m) {
		uint32_t x;

		for (x = 0; x < v->c->norder && !rc; x++)
			rc = v->st[v->c->order[x]] == V1_PENDING;
		rc = rc ? place_pending(v, &g) : 1;
	}
	ot_cdg_free(&g);
	return rc;
}

/*
 * One search from the engine's tables (restored), trees by load first
 * (by_load) or by the deal alone: 1 VL 1 acyclic with nothing pending,
 * -2 gave up, -1 out of memory (err set).
 */
static int search(struct v1 *v, bool by_load)
{
	const struct dfp_ctx *c = v->c;
	uint32_t lid, rounds = 0;
	int rc = 0;

	v->mode_load = by_load;
	v->fails = 0;
	v->work = 0;
	v->loaded = false;
	memset(v->load, 0, (size_t)v->lbase[c->f->nnodes] * sizeof(*v->load));
	for (lid = 0; lid <= c->f->max_lid; lid++)
		v->st[lid] = c->escape[lid] ? V1_PENDING : V1_RULE;
	while (!rc) {
		if (++rounds > DFP_ROUNDS || v->fails > DFP_FAILS)
			return -2;
		rc = round_vl1(v);
	}
	return rc;
}

/* The most flows on one switch-to-switch link, through the tables. */
static int32_t busiest(struct v1 *v)
{
	const struct dfp_ctx *c = v->c;
	uint32_t i, n = v->lbase[c->f->nnodes];
	int32_t m = 0;

	v->loaded = false;
	memset(v->load, 0, (size_t)n * sizeof(*v->load));
	for (i = 0; i <= c->f->max_lid; i++)
		v->st[i] = V1_RULE;
	load_all(v);
	for (i = 0; i < n; i++)
		m = v->load[i] > m ? v->load[i] : m;
	return m;
}

/*
 * The first search's result (trees by load) kept aside while the
 * second runs: the changed columns, the escape marks.  0 or -1 (OOM).
 */
static int keep(struct v1 *v, uint8_t **cols, uint8_t *esc, bool *any,
		uint32_t *moved)
{
	const struct dfp_ctx *c = v->c;
	uint32_t lid, i;

	for (lid = 0; lid <= c->f->max_lid; lid++) {
		if (!v->saved[lid])
			continue;
		cols[lid] = malloc(c->nsw);
		if (!cols[lid])
			return ot_error_nomem(c->err, "df-static");
		for (i = 0; i < c->nsw; i++)
			cols[lid][i] = v->out->lft[c->posnode[i]][lid];
	}
	memcpy(esc, c->escape, (size_t)c->f->max_lid + 1);
	*any = c->any_escape;
	*moved = c->v1moved;
	return 0;
}

/* The kept result back in the tables (after restore()). */
static void put_back(struct v1 *v, uint8_t **cols, const uint8_t *esc,
		     bool any, uint32_t moved)
{
	struct dfp_ctx *c = v->c;
	uint32_t lid, i;

	for (lid = 0; lid <= c->f->max_lid; lid++)
		for (i = 0; cols[lid] && i < c->nsw; i++)
			v->out->lft[c->posnode[i]][lid] = cols[lid][i];
	memcpy(c->escape, esc, (size_t)c->f->max_lid + 1);
	c->any_escape = any;
	c->v1moved = moved;
}

/*
 * The search twice: trees by load, then by the deal alone (the trees as
 * they were before there were loads).  Kept: the one that ended with VL
 * 1 acyclic, where both did the one whose busiest link carries fewer
 * flows (the deal's on a tie).  1, -2 both gave up (the engine's tables
 * restored), -1 out of memory.
 */
static int search_both(struct v1 *v)
{
	struct dfp_ctx *c = v->c;
	size_t n = (size_t)c->f->max_lid + 1;
	uint8_t **cols = calloc(n, sizeof(*cols)), *esc = malloc(n);
	int32_t ma = 0, mb;
	bool any = false;
	uint32_t moved = 0, lid;
	int a, b;

	if (!cols || !esc) {
		free(cols);
		free(esc);
		return ot_error_nomem(c->err, "df-static");
	}
	a = search(v, true);
	if (a == 1) {
		ma = busiest(v);
		if (keep(v, cols, esc, &any, &moved))
			a = -1;
	}
	if (a != -1) {
		restore(v);
		b = search(v, false);
		if (b == 1 && a == 1 && busiest(v) >= ma)
			b = -2; /* the first is better */
		if (b == -2) {
			restore(v);
			if (a == 1)
				put_back(v, cols, esc, any, moved);
		}
		mb = b == -2 ? a : b;
	} else {
		mb = -1;
	}
	for (lid = 0; lid < n; lid++)
		free(cols[lid]);
	free(cols);
	free(esc);
	return mb;
}

/*
 * Whether the paths on the SLs in mask (bit sl) alone, walked through
 * the tables as on VL 1 (each on its layer's VL), make an acyclic graph
 * and each stays on that VL once on it: 1, 0 not, -1 out of memory.
 */
static int layers_acyclic(struct v1 *v, uint32_t mask)
{
	const struct dfp_ctx *c = v->c;
	struct ot_cdg g;
	struct ot_cdg_sccs sc;
	uint32_t x, i;
	int rc = 1;

	if (ot_cdg_init(&g, c->f))
		return ot_error_nomem(c->err, "df-static");
	for (i = 0; i <= c->f->max_lid; i++)
		v->st[i] = V1_RULE;
	for (x = 0; x < c->norder && rc > 0; x++)
		for (i = 0; i < c->nsw && rc > 0; i++) {
			uint32_t lid = c->order[x];
			unsigned int sl = walk_sl(v, lid, i);
			int r;

			if (!sl || !(mask >> sl & 1))
				continue;
			r = walk(v, &g, NULL, lid, i, sl);
			rc = r < 0 ? ot_error_nomem(c->err, "df-static") :
				     !r;
		}
	if (rc > 0) {
		if (ot_cdg_sccs(&g, 0, &sc))
			rc = ot_error_nomem(c->err, "df-static");
		else
			rc = !sc.nloops;
		if (rc >= 0)
			ot_cdg_sccs_free(&sc);
	}
	ot_cdg_free(&g);
	return rc;
}

#define V1_DETOURS (1u << DFP_DETOUR_SL | 1u << DFP_TURN_SL | \
		    1u << DFP_LAND_SL)

/*
 * Gave up: the damage layer on VL 1 with the detours where the first
 * round found their graph acyclic (v->first), else the escape layer
 * there where that graph is, else the two on one VL where theirs is:
 * 3 VLs at LMC 0 where one holds, 4 where none does.  0, or -1 (OOM).
 */
static int share_given_up(struct v1 *v)
{
	struct dfp_ctx *c = v->c;
	int rc;

	c->dmg_share = v->first == 1;
	if (c->dmg_share || !c->any_damage || !c->any_escape)
		return 0;
	rc = layers_acyclic(v, V1_DETOURS | 1u << DFP_ESCAPE_SL);
	c->esc_share = rc > 0;
	if (!rc)
		rc = layers_acyclic(v, 1u << DFP_DAMAGE_SL |
					       1u << DFP_ESCAPE_SL);
	c->de_share = !c->esc_share && rc > 0;
	return rc < 0 ? -1 : 0;
}

int ot_dfp_settle_vl1(struct dfp_ctx *c, struct ot_routing *out)
{
	struct v1 v = { .c = c, .out = out, .first = -1 };
	struct ot_cdg g;
	uint32_t lid;
	int rc = 0;

	c->v1share = false;
	c->dmg_share = false;
	c->esc_share = false;
	c->de_share = false;
	if (!c->any_damage && !c->any_escape)
		return 0;
	if (ot_cdg_init(&g, c->f))
		return ot_error_nomem(c->err, "df-static");
	v.seen = calloc(ot_cdg_nchannels(&g) + 1, sizeof(*v.seen));
	v.stack = malloc((ot_cdg_nchannels(&g) + 1) * sizeof(*v.stack));
	ot_cdg_free(&g);
	v.st = malloc((size_t)c->f->max_lid + 1);
	v.dist = calloc((size_t)c->f->nnodes + 1, sizeof(*v.dist));
	v.nfrom = malloc(((size_t)c->nsw + 1) * sizeof(*v.nfrom));
	v.nto = malloc(((size_t)c->nsw + 1) * sizeof(*v.nto));
	v.saved = calloc((size_t)c->f->max_lid + 1, sizeof(*v.saved));
	v.escape0 = malloc((size_t)c->f->max_lid + 1);
	v.lbase = malloc(((size_t)c->f->nnodes + 1) * sizeof(*v.lbase));
	v.wt = calloc((size_t)c->f->nnodes + 1, sizeof(*v.wt));
	v.joined = malloc(((size_t)c->nsw + 1) * sizeof(*v.joined));
	if (!v.st || !v.dist || !v.seen || !v.stack || !v.nfrom || !v.nto ||
	    !v.saved || !v.escape0 || !v.lbase || !v.wt || !v.joined)
		rc = ot_error_nomem(c->err, "df-static");
	for (lid = 0; !rc && lid < c->f->nnodes; lid++) { /* per node */
		const struct ot_node *nd = &c->f->node[lid];
		unsigned int p;

		v.lbase[0] = 0;
		v.lbase[lid + 1] = v.lbase[lid] + nd->nports;
		for (p = 1; p <= nd->nports; p++)
			v.wt[lid] += nd->port[p].peer >= 0 &&
				     !ot_is_switch(c->f, nd->port[p].peer);
	}
	if (!rc) {
		v.load = calloc((size_t)v.lbase[c->f->nnodes] + 1,
				sizeof(*v.load));
		if (!v.load)
			rc = ot_error_nomem(c->err, "df-static");
	}
	if (!rc) {
		memcpy(v.escape0, c->escape, (size_t)c->f->max_lid + 1);
		v.any_escape0 = c->any_escape;
		v.v1moved0 = c->v1moved;
		rc = search_both(&v);
	}
	if (rc == -2 && share_given_up(&v))
		rc = -1;
	for (lid = 0; v.saved && lid <= c->f->max_lid; lid++)
		free(v.saved[lid]);
	free(v.saved);
	free(v.escape0);
	free(v.st);
	free(v.dist);
	free(v.nfrom);
	free(v.nto);
	free(v.seen);
	free(v.stack);
	free(v.load);
	free(v.lbase);
	free(v.wt);
	free(v.joined);
	if (rc == -1)
		return -1;
	/* gave up (-2): the engine's tables, the layers as share_given_up()
	 * put them */
	c->v1share = rc == 1;
	return 0;
}

/*
 * The VLs: VL 1 for detours (and the damage or escape layers where they
 * share it: below), else the escape layer's, the damage
 * layer's (the escape layer's where the two share one); then the Valiant
 * layers'.  The escape layer shares a VL where the search gave up only
 * with fewest (the tables kept): the routings are weighed against each
 * other on the VLs they took before, so that which one is kept, and
 * which the seeded passes start from, does not change (route_alt()).
 */
struct dfp_vlrule ot_dfp_ctx_vlrule(const struct dfp_ctx *c, bool fewest)
{
	bool share = c->v1share, dshare = !share && c->dmg_share;
	bool eshare = fewest && !share && !dshare && c->esc_share;
	bool deshare = fewest && !share && !dshare && !eshare &&
		       c->de_share;
	bool two = c->any_detour || c->any_turn || c->any_land ||
		   (share && (c->any_damage || c->any_escape)) ||
		   (dshare && c->any_damage) || (eshare && c->any_escape);
	struct dfp_vlrule v = { c->any_detour, c->any_turn, c->any_land,
				c->any_escape, share || eshare || !two ? 1 : 2,
				{ 0 }, 0 };
	uint8_t next = 1 + two + (c->any_escape && !share && !eshare);
	unsigned int l;

	if (c->any_damage)
		v.dmg_vl = share || dshare ? 1 : deshare ? v.esc_vl : next++;
	for (l = 1; l <= OT_VALIANT_LAYERS; l++)
		if (c->layers >> l & 1)
			v.lay_vl[l] = next++;
	return v;
}


/* SL2VL where some path leaves VL 0 (intact fabrics: none, 1 VL). */
int ot_dfp_set_vls(struct dfp_ctx *c, struct ot_routing *out)
{
	const struct ot_fabric *f = c->f;
	struct dfp_vlrule v = ot_dfp_ctx_vlrule(c, true);
	unsigned int in, o, sl, np;
	uint32_t n;

	out->nvls = ot_dfp_vlrule_vls(&v);
	if (out->nvls == 1)
		return 0;
	out->needs_qos = true;
	for (n = 0; n < f->nnodes; n++) {
		uint8_t *t;

		np = f->node[n].nports;
		t = ot_routing_sl2vl_new(out, n);
		if (!t)
			return ot_error_nomem(c->err, "df-static");
		for (in = 0; in <= np; in++) {
			enum ot_dfp_port pc = ot_dfp_port_class(c->d, n, in);

			for (o = 0; o <= np; o++) {
				enum ot_dfp_port oc = ot_dfp_port_class(c->d,
									n, o);
				uint8_t down = ot_dfp_down_mask(c->d, c->drank,
								n, o);

				for (sl = 0; sl < OT_NUM_SLS; sl++)
					t[ot_sl2vl_index(np, in, o, sl)] =
						ot_dfp_vl(&v, sl, pc, oc, down);
			}
		}
	}
	return 0;
}
