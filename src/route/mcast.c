// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Multicast spanning trees (mcast.h): for the plugin's mcast_build_stree
 * and for the tests.  Per routing, the switch distances (bit-parallel
 * breadth-first searches, 64 sources a pass) and the canonical order are
 * computed once; the unicast channel dependency graph once, on the first
 * tree that turns at a switch.  Per group: the candidate roots, then for
 * each tried a tree, its dependencies added to the graph, the search for
 * a new loop (model/cdg.h), and the dependencies taken out again.
 */
#define _GNU_SOURCE /* strverscmp */
#include <stdlib.h>
#include <string.h>

#include "model/cdg.h"
#include "model/hashmap.h"
#include "model/sort.h"
#include "route/mcast.h"

#define FAR 0xff /* no path */

struct ot_mtree_net {
	const struct ot_routing *r;
	const struct ot_fabric *f;
	uint32_t nsw;
	int32_t *swnode;   /* switch number -> node */
	uint32_t *swidx;   /* node -> switch number, UINT32_MAX: none */
	uint32_t *rank;    /* switch number -> place in canonical order */
	uint32_t *adj_start, *adj; /* usable switch neighbours, no repeats */
	uint8_t *dist;     /* nsw x nsw hops, FAR: unreachable; lazily */
	bool cdg_ready;
	struct ot_cdg cdg;
	struct ot_cdg_sccs sccs; /* base: the order new loops are judged by */
	double cdg_ms;
	/*
	 * The installed trees (per MLID, what ot_mtree_build() was given):
	 * their dependencies stay in the graph, so that the next group's
	 * tree is checked against unicast and every other group's tree, as
	 * the checker checks them all together.  edges: the dependencies
	 * that trees brought into the graph, with how many trees hold each;
	 * exc: those of them against base's order (where a search for a
	 * loop must start too).  A tree that kept a loop is not installed:
	 * every installed tree closes no loop with unicast and the others,
	 * and the next groups are not blamed for its loop.
	 */
	struct installed **inst;  /* OT_MTREE_MLIDS entries, lazily */
	struct ot_hashmap edges;
	struct ot_cdg_edge *exc;
	uint32_t nexc, cap_exc;
	/*
	 * The master tree: a tree over every switch with CAs, without a loop
	 * against unicast, made once per routing before any tree is
	 * installed.  Its
	 * subtrees cannot close a loop with one another (their turns are
	 * among its turns), so a group whose own trees all loop with the
	 * trees installed tries the smallest subtree of it that holds its
	 * member switches.  master: 0 not made yet, 1 made, -1 none (it
	 * loops itself), 2 being made, -2 not to be made (tests).
	 */
	int master;
	uint32_t mroot;
	uint32_t *mparent;  /* switch number -> parent in it; UINT32_MAX */
	uint8_t *mup;       /* port to the parent */
	uint32_t *mchild, *mlast, *mlist; /* work space of a subtree */
	unsigned int roots; /* candidate roots tried, OT_MTREE_TRIES */
	/* work space of one build */
	uint32_t *stamp, cur;
	uint32_t *parent;  /* switch number of the parent in the tree */
	uint8_t *up_port;  /* port to it */
	uint32_t *first, *count; /* entries of a tree switch */
};

/* MLIDs a net can hold trees for: 0xC000 .. 0xFFFE. */
#define OT_MTREE_MLIDS (0xffffu - OT_MLID_BASE)

/* An installed tree's dependencies, and which of them it counts. */
struct installed {
	struct ot_cdg_edge *edge;
	uint8_t *counted; /* 1: in net->edges (not unicast's own) */
	uint32_t n, cap;
};

/* ------------------------------------------------------------------ */
/* Per routing: switches, canonical order, distances.                  */

/* The engine's labels as text with numbers by value, then node index. */
static int cmp_canonical(const void *a, const void *b, void *arg)
{
	const struct ot_mtree_net *n = arg;
	int32_t x = n->swnode[*(const uint32_t *)a];
	int32_t y = n->swnode[*(const uint32_t *)b];
	const char *lx = n->r->label ? n->r->label[x] : NULL;
	const char *ly = n->r->label ? n->r->label[y] : NULL;
	int c;

	if (lx && !ly)
		return -1;
	if (!lx && ly)
		return 1;
	if (lx && ly) {
		c = strverscmp(lx, ly);
		if (c)
			return c;
	}
	return x < y ? -1 : x > y;
}

static int canonical_order(struct ot_mtree_net *n)
{
	uint32_t *order = malloc((n->nsw + 1) * sizeof(*order)), i;

	if (!order)
		return -1;
	for (i = 0; i < n->nsw; i++)
		order[i] = i;
	qsort_r(order, n->nsw, sizeof(*order), cmp_canonical, n);
	for (i = 0; i < n->nsw; i++)
		n->rank[order[i]] = i;
	free(order);
	return 0;
}

/* A switch's usable switch neighbours (a switch each, sorted). */
static uint32_t neighbours(const struct ot_mtree_net *n, uint32_t s,
			   uint32_t *out)
{
	const struct ot_node *nd = &n->f->node[n->swnode[s]];
	uint32_t k = 0, i, j;
	unsigned int p;

	for (p = 1; p <= nd->nports; p++) {
		int32_t y = nd->port[p].peer;

		if (y < 0 || n->swidx[y] == UINT32_MAX || y == n->swnode[s])
			continue;
		out[k++] = n->swidx[y];
	}
	/* insertion sort, then drop repeats (parallel cables) */
	for (i = 1; i < k; i++)
		for (j = i; j > 0 && out[j - 1] > out[j]; j--) {
			uint32_t t = out[j];

			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	for (i = 0, j = 0; i < k; i++)
		if (!j || out[j - 1] != out[i])
			out[j++] = out[i];
	return j;
}

static int build_adjacency(struct ot_mtree_net *n)
{
	uint32_t s, k = 0, cap = 0;

	for (s = 0; s < n->nsw; s++)
		cap += n->f->node[n->swnode[s]].nports;
	n->adj_start = malloc((n->nsw + 1) * sizeof(*n->adj_start));
	n->adj = malloc((cap + 1) * sizeof(*n->adj));
	if (!n->adj_start || !n->adj)
		return -1;
	for (s = 0; s < n->nsw; s++) {
		n->adj_start[s] = k;
		k += neighbours(n, s, n->adj + k);
	}
	n->adj_start[n->nsw] = k;
	return 0;
}

/*
 * One level of 64 breadth-first searches at once (a bit per search):
 * the switches the frontier reaches first, at distance level from the
 * search of their bit.  Whether any was reached.
 */
static bool expand(struct ot_mtree_net *n, uint64_t *seen, uint64_t *front,
		   uint64_t *next, uint32_t base, unsigned int level)
{
	uint32_t v, j;
	bool any = false;

	memset(next, 0, (size_t)n->nsw * sizeof(*next));
	for (v = 0; v < n->nsw; v++)
		if (front[v])
			for (j = n->adj_start[v]; j < n->adj_start[v + 1]; j++)
				next[n->adj[j]] |= front[v];
	for (v = 0; v < n->nsw; v++) {
		uint64_t fresh = next[v] & ~seen[v];

		front[v] = fresh;
		seen[v] |= fresh;
		any |= fresh != 0;
		for (; fresh; fresh &= fresh - 1) {
			uint32_t k = (uint32_t)__builtin_ctzll(fresh);

			n->dist[(size_t)(base + k) * n->nsw + v] =
				(uint8_t)level;
		}
	}
	return any;
}

/* Every pair's distance, n->nsw / 64 passes over the cables per level. */
static int distances(struct ot_mtree_net *n)
{
	uint64_t *seen;
	uint32_t b, j;
	unsigned int level;

	n->dist = malloc((size_t)n->nsw * n->nsw + 1);
	seen = calloc(3 * (size_t)n->nsw + 1, sizeof(*seen));
	if (!n->dist || !seen) {
		free(seen);
		return -1;
	}
	memset(n->dist, FAR, (size_t)n->nsw * n->nsw);
	for (b = 0; b < n->nsw; b += 64) {
		uint32_t m = n->nsw - b < 64 ? n->nsw - b : 64;
		uint64_t *front = seen + n->nsw, *next = front + n->nsw;
		bool more = true;

		memset(seen, 0, 2 * (size_t)n->nsw * sizeof(*seen));
		for (j = 0; j < m; j++) {
			seen[b + j] = front[b + j] = 1ull << j;
			n->dist[(size_t)(b + j) * n->nsw + b + j] = 0;
		}
		for (level = 1; more && level < FAR; level++)
			more = expand(n, seen, front, next, b, level);
	}
	free(seen);
	return 0;
}

static uint8_t dist(const struct ot_mtree_net *n, uint32_t a, uint32_t b)
{
	return n->dist[(size_t)a * n->nsw + b];
}

int ot_mtree_net_new(const struct ot_routing *r, const bool *no_mcast,
		     struct ot_mtree_net **out, struct ot_error *err)
{
	const struct ot_fabric *f = r->fabric;
	struct ot_mtree_net *n = calloc(1, sizeof(*n));
	size_t nn = f->nnodes ? f->nnodes : 1;
	uint32_t i;

	*out = NULL;
	if (!n)
		return ot_error_nomem(err, "multicast");
	n->r = r;
	n->f = f;
	n->roots = OT_MTREE_TRIES;
	n->swnode = malloc(nn * sizeof(*n->swnode));
	n->swidx = malloc(nn * sizeof(*n->swidx));
	if (!n->swnode || !n->swidx)
		goto oom;
	for (i = 0; i < f->nnodes; i++) {
		n->swidx[i] = UINT32_MAX;
		if (ot_is_switch(f, i) && !(no_mcast && no_mcast[i])) {
			n->swidx[i] = n->nsw;
			n->swnode[n->nsw++] = (int32_t)i;
		}
	}
	n->rank = malloc((n->nsw + 1) * sizeof(*n->rank));
	n->stamp = calloc(n->nsw + 1, sizeof(*n->stamp));
	n->parent = malloc((n->nsw + 1) * sizeof(*n->parent));
	n->up_port = malloc(n->nsw + 1);
	n->first = malloc((n->nsw + 1) * sizeof(*n->first));
	n->count = malloc((n->nsw + 1) * sizeof(*n->count));
	if (!n->rank || !n->stamp || !n->parent || !n->up_port ||
	    !n->first || !n->count || canonical_order(n) ||
	    build_adjacency(n))
		goto oom;
	*out = n;
	return 0;
oom:
	ot_mtree_net_free(n);
	return ot_error_nomem(err, "multicast");
}

static void installed_free(struct installed *t)
{
	if (!t)
		return;
	free(t->edge);
	free(t->counted);
	free(t);
}

void ot_mtree_net_free(struct ot_mtree_net *n)
{
	if (!n)
		return;
	if (n->cdg_ready) {
		ot_cdg_sccs_free(&n->sccs);
		ot_cdg_free(&n->cdg);
	}
	if (n->inst) {
		uint32_t i;

		for (i = 0; i < OT_MTREE_MLIDS; i++)
			installed_free(n->inst[i]);
		free(n->inst);
	}
	ot_hashmap_free(&n->edges);
	free(n->exc);
	free(n->mparent);
	free(n->mup);
	free(n->mchild);
	free(n->mlast);
	free(n->mlist);
	free(n->swnode);
	free(n->swidx);
	free(n->rank);
	free(n->adj_start);
	free(n->adj);
	free(n->dist);
	free(n->stamp);
	free(n->parent);
	free(n->up_port);
	free(n->first);
	free(n->count);
	free(n);
}

double ot_mtree_net_cdg_ms(const struct ot_mtree_net *n)
{
	return n->cdg_ms;
}

void ot_mtree_net_set_roots(struct ot_mtree_net *n, unsigned int roots,
			    bool master)
{
	n->roots = roots ? roots : 1;
	if (!master && n->master >= 0 && n->master != 2)
		n->master = -2; /* not made, not to be made */
	else if (master && n->master == -2)
		n->master = 0;
}

/* The unicast graph and its parts, once per routing. */
static int unicast_graph(struct ot_mtree_net *n)
{
	double start = ot_now_ms();

	if (n->cdg_ready)
		return 0;
	if (ot_cdg_init(&n->cdg, n->f))
		return -1;
	if (ot_cdg_build_unicast(&n->cdg, n->r) ||
	    ot_cdg_sccs(&n->cdg, 0, &n->sccs)) {
		ot_cdg_free(&n->cdg);
		return -1;
	}
	n->cdg_ready = true;
	n->cdg_ms = ot_now_ms() - start;
	return 0;
}

/* ------------------------------------------------------------------ */
/* One group.                                                          */

/* A member where it enters the switches: switch number and port. */
struct entry_pt {
	uint32_t sw;
	uint8_t port;
};

struct build {
	struct ot_mtree_net *n;
	struct entry_pt *pt;    /* per member port, repeats dropped */
	uint32_t npt;
	uint32_t *msw;          /* member switches, no repeats */
	uint32_t nmsw;
	uint32_t *cand;         /* candidate roots, best first */
	uint32_t ncand;
	uint16_t sls;
	struct ot_cdg_edge *edge; /* dependencies new to the graph */
	uint32_t nedge, cap_edge;
	struct installed *install; /* installing: every dependency here */
};

static int cmp_member(const void *a, const void *b)
{
	const struct ot_mcast_member *x = a, *y = b;

	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return (int)x->port - (int)y->port;
}

static int cmp_entry(const void *a, const void *b)
{
	return cmp_member(a, b);
}

/* Switch numbers sorted in canonical order (GUIDs aside). */
static int by_rank(const struct ot_mtree_net *n, uint32_t *sw, uint32_t k)
{
	uint64_t *key = malloc((k + 1) * sizeof(*key));
	uint32_t i;

	if (!key)
		return -1;
	for (i = 0; i < k; i++)
		key[i] = (uint64_t)n->rank[sw[i]] << 32 | sw[i];
	qsort(key, k, sizeof(*key), ot_cmp_u64);
	for (i = 0; i < k; i++)
		sw[i] = (uint32_t)key[i];
	free(key);
	return 0;
}

/* The members' switches and ports; members on no usable switch counted. */
static int place_members(struct build *b, const struct ot_mcast_member *m,
			 uint32_t nm, struct ot_mtree *out)
{
	struct ot_mtree_net *n = b->n;
	const struct ot_fabric *f = n->f;
	struct ot_mcast_member *sorted = malloc((nm + 1) * sizeof(*sorted));
	uint32_t i;

	b->pt = malloc((nm + 1) * sizeof(*b->pt));
	b->msw = malloc((nm + 1) * sizeof(*b->msw));
	if (!sorted || !b->pt || !b->msw) {
		free(sorted);
		return -1;
	}
	memcpy(sorted, m, nm * sizeof(*m));
	qsort(sorted, nm, sizeof(*sorted), cmp_member);
	n->cur++;
	for (i = 0; i < nm; i++) {
		const struct ot_mcast_member *x = &sorted[i];
		uint32_t sw = UINT32_MAX;
		uint8_t port = 0;

		if (i && !cmp_member(&sorted[i - 1], x))
			continue;
		if (x->node < 0 || (uint32_t)x->node >= f->nnodes ||
		    x->port > f->node[x->node].nports) {
			out->unattached++;
			continue;
		}
		if (ot_is_switch(f, x->node)) {
			sw = n->swidx[x->node];
		} else if (x->port) {
			const struct ot_port *p =
				&f->node[x->node].port[x->port];

			if (p->peer >= 0 && ot_is_switch(f, p->peer)) {
				sw = n->swidx[p->peer];
				port = p->peer_port;
			}
		}
		if (sw == UINT32_MAX) {
			out->unattached++;
			continue;
		}
		b->pt[b->npt].sw = sw;
		b->pt[b->npt++].port = port;
		if (n->stamp[sw] != n->cur) {
			n->stamp[sw] = n->cur;
			b->msw[b->nmsw++] = sw;
		}
	}
	free(sorted);
	out->nmember_sw = b->nmsw;
	return by_rank(n, b->msw, b->nmsw);
}

/*
 * Candidate roots: most member switches reached, least eccentricity,
 * least total distance to the member switches, canonical order.
 */
struct cand_key {
	uint32_t sw, reach, ecc, sum, rank;
};

static int cmp_cand(const void *a, const void *b)
{
	const struct cand_key *x = a, *y = b;

	if (x->reach != y->reach)
		return x->reach > y->reach ? -1 : 1;
	if (x->ecc != y->ecc)
		return x->ecc < y->ecc ? -1 : 1;
	if (x->sum != y->sum)
		return x->sum < y->sum ? -1 : 1;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static int candidates(struct build *b)
{
	struct ot_mtree_net *n = b->n;
	struct cand_key *k = malloc((b->nmsw + 1) * sizeof(*k));
	uint32_t i, j;

	b->cand = malloc((b->nmsw + 1) * sizeof(*b->cand));
	if (!k || !b->cand) {
		free(k);
		return -1;
	}
	for (i = 0; i < b->nmsw; i++) {
		const uint8_t *row = n->dist + (size_t)b->msw[i] * n->nsw;

		k[i].sw = b->msw[i];
		k[i].reach = 0;
		k[i].ecc = 0;
		k[i].sum = 0;
		k[i].rank = n->rank[b->msw[i]];
		for (j = 0; j < b->nmsw; j++) {
			uint8_t d = row[b->msw[j]];

			if (d == FAR)
				continue;
			k[i].reach++;
			k[i].sum += d;
			if (d > k[i].ecc)
				k[i].ecc = d;
		}
	}
	qsort(k, b->nmsw, sizeof(*k), cmp_cand);
	for (i = 0; i < b->nmsw; i++)
		b->cand[i] = k[i].sw;
	b->ncand = b->nmsw;
	free(k);
	return 0;
}

/*
 * Switch u's parent in the tree from root: among its neighbours one hop
 * nearer, the first in canonical order; and u's lowest port to it.
 */
static void hang(struct ot_mtree_net *n, uint32_t root, uint32_t u)
{
	const struct ot_node *nd = &n->f->node[n->swnode[u]];
	uint8_t du = dist(n, root, u);
	uint32_t best = UINT32_MAX, j;
	unsigned int p;

	for (j = n->adj_start[u]; j < n->adj_start[u + 1]; j++) {
		uint32_t v = n->adj[j];

		if (dist(n, root, v) + 1 == du &&
		    (best == UINT32_MAX || n->rank[v] < n->rank[best]))
			best = v;
	}
	n->parent[u] = best;
	for (p = 1; p <= nd->nports; p++)
		if (nd->port[p].peer == n->swnode[best])
			break;
	n->up_port[u] = (uint8_t)p;
}

static int add_entry(struct ot_mtree *t, uint32_t *cap, int32_t node,
		     uint8_t port)
{
	if (t->nentries == *cap) {
		uint32_t c = *cap ? 2 * *cap : 64;
		struct ot_mcast_member *v = realloc(t->entry,
						    c * sizeof(*v));

		if (!v)
			return -1;
		t->entry = v;
		*cap = c;
	}
	t->entry[t->nentries].node = node;
	t->entry[t->nentries++].port = port;
	return 0;
}

/*
 * t's entries sorted, repeats dropped, and each switch's run of them
 * (n->first, n->count; the switch stamped n->cur).  -1 when an entry is
 * on no switch of the net.
 */
static int index_entries(struct ot_mtree_net *n, struct ot_mtree *t)
{
	uint32_t i, k = 0;

	n->cur++; /* stamps the switches that have entries */
	qsort(t->entry, t->nentries, sizeof(*t->entry), cmp_entry);
	for (i = 0; i < t->nentries; i++) {
		const struct ot_mcast_member *e = &t->entry[i];
		uint32_t s;

		if (e->node < 0 || (uint32_t)e->node >= n->f->nnodes ||
		    n->swidx[e->node] == UINT32_MAX ||
		    e->port > n->f->node[e->node].nports)
			return -1;
		if (k && !cmp_entry(&t->entry[k - 1], e))
			continue;
		s = n->swidx[e->node];
		if (!k || t->entry[k - 1].node != e->node) {
			n->stamp[s] = n->cur;
			n->first[s] = k;
			n->count[s] = 0;
		}
		n->count[s]++;
		t->entry[k++] = *e;
	}
	t->nentries = k;
	return 0;
}

/*
 * The shapes of tree tried from each root: the shortest-path tree of
 * canonical parents (hang()); the engine's own unicast paths from the
 * root out to the member switches (packets down the tree then go the
 * way unicast goes); the engine's unicast paths from the member switches
 * in to the root (packets up the tree go the way unicast goes).
 */
enum shape { SHAPE_BFS, SHAPE_OUT, SHAPE_IN, NSHAPES };

static const char *const shape_name[NSHAPES] = {
	"shortest paths", "unicast out of the root", "unicast into the root",
};
static const char master_name[] = "subtree of the master tree";

/* The index of the master's subtree among the trees of try_roots(). */
#define MASTER_TRY UINT32_MAX

/*
 * The switch number at the far end of switch x's LFT entry for lid, or
 * UINT32_MAX when it leads to no usable switch; *port: the entry.
 */
static uint32_t lft_next(const struct ot_mtree_net *n, uint32_t x,
			 uint16_t lid, uint8_t *port)
{
	const struct ot_routing *r = n->r;
	int32_t xn = n->swnode[x], y;
	uint8_t p;

	if (!lid || lid > r->max_lid || !r->lft[xn])
		return UINT32_MAX;
	p = r->lft[xn][lid];
	if (p == 0 || p > n->f->node[xn].nports)
		return UINT32_MAX;
	y = n->f->node[xn].port[p].peer;
	if (y < 0 || n->swidx[y] == UINT32_MAX)
		return UINT32_MAX;
	*port = p;
	return n->swidx[y];
}

/* Switch u joins the tree under v, by u's port up (v's: its far end). */
static int join(struct ot_mtree_net *n, struct ot_mtree *t, uint32_t *cap,
		uint32_t u, uint32_t v, uint8_t up)
{
	int32_t x = n->swnode[u];

	n->stamp[u] = n->cur;
	n->parent[u] = v;
	n->up_port[u] = up;
	t->nswitches++;
	if (add_entry(t, cap, x, up) ||
	    add_entry(t, cap, n->swnode[v], n->f->node[x].port[up].peer_port))
		return -1;
	return 0;
}

/*
 * Member switch m into the tree from root, as shape says.  0, 1 when the
 * shape cannot reach m (an LFT entry leads nowhere), -1 (OOM).
 */
static int reach(struct ot_mtree_net *n, struct ot_mtree *t, uint32_t *cap,
		 uint32_t root, uint32_t m, enum shape shape)
{
	const struct ot_fabric *f = n->f;
	int32_t to = n->swnode[shape == SHAPE_OUT ? m : root];
	uint16_t lid = f->node[to].port[0].lid;
	uint32_t u = m, v, steps = 0;
	uint8_t p;

	if (shape == SHAPE_OUT) {
		for (u = root; u != m; u = v, steps++) {
			v = lft_next(n, u, lid, &p);
			if (v == UINT32_MAX || steps > n->nsw)
				return 1;
			if (n->stamp[v] == n->cur)
				continue;
			/* v joins under u, by the far end of u's port p */
			if (join(n, t, cap, v, u,
				 f->node[n->swnode[u]].port[p].peer_port))
				return -1;
		}
		return 0;
	}
	while (n->stamp[u] != n->cur) {
		if (shape == SHAPE_BFS) {
			hang(n, root, u);
			v = n->parent[u];
			p = n->up_port[u];
		} else {
			v = lft_next(n, u, lid, &p);
			if (v == UINT32_MAX || steps++ > n->nsw)
				return 1;
		}
		if (join(n, t, cap, u, v, p))
			return -1;
		u = v;
	}
	return 0;
}

/*
 * The tree from root in a shape: the member switches joined (stamped
 * n->cur), the entries indexed, the depth.  0, 1 when the shape does not
 * fit (unicast that does not lead there), -1 (OOM).
 */
static int grow(struct build *b, uint32_t root, enum shape shape,
		struct ot_mtree *t)
{
	struct ot_mtree_net *n = b->n;
	uint32_t cap = 0, i;
	int rc;

	t->root = n->swnode[root];
	t->nswitches = 1;
	t->nentries = 0;
	t->depth = 0;
	t->unreached = 0;
	n->cur++;
	n->stamp[root] = n->cur;
	n->parent[root] = root;
	for (i = 0; i < b->nmsw; i++) {
		uint32_t m = b->msw[i];

		if (dist(n, root, m) == FAR) {
			t->unreached++;
			continue;
		}
		rc = reach(n, t, &cap, root, m, shape);
		if (rc)
			return rc;
	}
	for (i = 0; i < b->nmsw; i++) {
		uint32_t u = b->msw[i], d = 0;

		if (dist(n, root, u) == FAR)
			continue;
		for (; u != root; u = n->parent[u])
			d++;
		if (d > t->depth)
			t->depth = d;
	}
	for (i = 0; i < b->npt; i++)
		if (n->stamp[b->pt[i].sw] == n->cur &&
		    add_entry(t, &cap, n->swnode[b->pt[i].sw], b->pt[i].port))
			return -1;
	return index_entries(n, t) ? -1 : 0;
}

static int note_edge(struct build *b, uint32_t from, uint32_t to)
{
	if (b->nedge == b->cap_edge) {
		uint32_t c = b->cap_edge ? 2 * b->cap_edge : 256;
		struct ot_cdg_edge *v = realloc(b->edge, c * sizeof(*v));

		if (!v)
			return -1;
		b->edge = v;
		b->cap_edge = c;
	}
	b->edge[b->nedge].from = from;
	b->edge[b->nedge++].to = to;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Installed trees.                                                    */

static uint64_t edge_key(uint32_t from, uint32_t to)
{
	return (uint64_t)from << 32 | to;
}

static uint32_t table_count(const struct ot_hashmap *t, uint64_t key)
{
	const uint32_t *c = ot_hashmap_get(t, key);

	return c ? *c : 0;
}

/* One more tree holds key: its count, or 0 when out of memory. */
static uint32_t table_inc(struct ot_hashmap *t, uint64_t key)
{
	uint32_t *c = ot_hashmap_put(t, key, 0, NULL);

	return c ? ++*c : 0;
}

/* One tree less holds key: its count left (the key gone at 0). */
static uint32_t table_dec(struct ot_hashmap *t, uint64_t key)
{
	uint32_t *c = ot_hashmap_get(t, key);

	if (!c)
		return 0;
	if (--*c)
		return *c;
	ot_hashmap_del(t, key);
	return 0;
}

/* Whether edge from -> to goes against base's order of parts. */
static bool against_base(const struct ot_mtree_net *n, uint32_t from,
			 uint32_t to)
{
	int32_t a = n->sccs.comp[from], b = n->sccs.comp[to];

	return a < 0 || b < 0 || a <= b;
}

static int push_edge(struct ot_cdg_edge **v, uint32_t *len, uint32_t *cap,
		     uint32_t from, uint32_t to)
{
	if (*len == *cap) {
		uint32_t c = *cap ? 2 * *cap : 64;
		struct ot_cdg_edge *w = realloc(*v, c * sizeof(*w));

		if (!w)
			return -1;
		*v = w;
		*cap = c;
	}
	(*v)[*len].from = from;
	(*v)[(*len)++].to = to;
	return 0;
}

/*
 * The tree being installed holds dependency from -> to (fresh: the
 * graph did not have it): counted when it is multicast's (fresh, or
 * already held by another tree), not when unicast has it.
 */
static int hold(struct ot_mtree_net *n, struct installed *t, uint32_t from,
		uint32_t to, bool fresh)
{
	uint64_t key = edge_key(from, to);
	uint8_t counted = fresh || table_count(&n->edges, key) > 0;
	uint32_t c;

	if (t->n == t->cap) {
		uint32_t cap = t->cap ? 2 * t->cap : 64;
		struct ot_cdg_edge *e = realloc(t->edge, cap * sizeof(*e));
		uint8_t *k;

		if (!e)
			return -1;
		t->edge = e;
		k = realloc(t->counted, cap);
		if (!k)
			return -1;
		t->counted = k;
		t->cap = cap;
	}
	t->edge[t->n].from = from;
	t->edge[t->n].to = to;
	t->counted[t->n++] = counted;
	if (!counted)
		return 0;
	c = table_inc(&n->edges, key);
	if (!c)
		return -1;
	if (c == 1 && against_base(n, from, to) &&
	    push_edge(&n->exc, &n->nexc, &n->cap_exc, from, to))
		return -1;
	return 0;
}

/* The tree of mlid, if any, out of the graph. */
static void withdraw(struct ot_mtree_net *n, uint16_t mlid)
{
	struct installed *t;
	uint32_t i;

	if (!n->inst || !n->inst[mlid - OT_MLID_BASE])
		return;
	t = n->inst[mlid - OT_MLID_BASE];
	n->inst[mlid - OT_MLID_BASE] = NULL;
	for (i = 0; i < t->n; i++) {
		uint32_t to = t->edge[i].to;

		if (t->counted[i] &&
		    !table_dec(&n->edges, edge_key(t->edge[i].from, to)))
			ot_cdg_remove(&n->cdg, t->edge[i].from,
				      ot_cdg_channel_node(&n->cdg, to),
				      ot_cdg_channel_port(&n->cdg, to),
				      to % OT_CDG_VLS);
	}
	installed_free(t);
}

/*
 * The exceptions still held by a tree, and the dependencies a candidate
 * brought, into b->edge: where the search for a new loop starts.
 */
static int with_exceptions(struct build *b)
{
	struct ot_mtree_net *n = b->n;
	uint32_t i, k = 0;

	for (i = 0; i < n->nexc; i++)
		if (table_count(&n->edges, edge_key(n->exc[i].from,
						    n->exc[i].to)))
			n->exc[k++] = n->exc[i];
	n->nexc = k;
	for (i = 0; i < n->nexc; i++)
		if (note_edge(b, n->exc[i].from, n->exc[i].to))
			return -1;
	return 0;
}

/* The VLs switch x sends out of port o on SL sl: from its other ports. */
static uint16_t vls_out(const struct build *b, const struct ot_mtree *t,
			uint32_t x, uint8_t o, unsigned int sl)
{
	const struct ot_mtree_net *n = b->n;
	uint16_t vls = 0;
	uint32_t i;

	bool out = false;

	if (n->stamp[x] != n->cur)
		return 0; /* no entry: x forwards nothing (any MFT) */
	for (i = n->first[x]; i < n->first[x] + n->count[x]; i++) {
		uint8_t in = t->entry[i].port;

		if (in == o)
			out = true;
		else
			vls |= 1u << ot_cdg_vl(n->r, n->swnode[x], in, o, sl);
	}
	return out ? vls : 0; /* a tree lists both ends; any MFT may not */
}

/* Whether port p of node u leads to a switch of the net. */
static bool to_switch(const struct ot_mtree_net *n, int32_t u, uint8_t p)
{
	int32_t y;

	if (p == 0)
		return false;
	y = n->f->node[u].port[p].peer;
	return y >= 0 && n->swidx[y] != UINT32_MAX;
}

/*
 * The turns of tree switch u on SL sl, into the graph: packets in by a
 * port from switch x, out by another to a switch.  New dependencies
 * are noted (to be taken out again), or, when installing, every one is
 * held by the tree.
 */
static int turns_at(struct build *b, const struct ot_mtree *t, uint32_t u,
		    unsigned int sl)
{
	struct ot_mtree_net *n = b->n;
	int32_t un = n->swnode[u];
	uint32_t i, j, end = n->first[u] + n->count[u];

	for (i = n->first[u]; i < end; i++) {
		uint8_t in = t->entry[i].port;
		const struct ot_port *pin;
		uint32_t from, to;
		uint16_t vls;

		if (!to_switch(n, un, in))
			continue;
		pin = &n->f->node[un].port[in];
		vls = vls_out(b, t, n->swidx[pin->peer], pin->peer_port, sl);
		from = ot_cdg_channel(&n->cdg, pin->peer, pin->peer_port, 0);
		for (j = n->first[u]; j < end; j++) {
			uint8_t out = t->entry[j].port, vl;
			unsigned int v;

			if (j == i || !to_switch(n, un, out))
				continue;
			vl = ot_cdg_vl(n->r, un, in, out, sl);
			for (v = 0; v < OT_CDG_VLS; v++) {
				int rc;

				if (!(vls & (1u << v)))
					continue;
				rc = ot_cdg_add(&n->cdg, from + v, un, out, vl);
				if (rc < 0)
					return -1;
				to = ot_cdg_channel(&n->cdg, un, out, vl);
				if (b->install ?
					    hold(n, b->install, from + v, to,
						 rc > 0) :
					    rc > 0 && note_edge(b, from + v, to))
					return -1;
			}
		}
	}
	return 0;
}

/* Takes the noted dependencies out of the graph again. */
static void take_out(struct build *b)
{
	struct ot_cdg *g = &b->n->cdg;
	uint32_t i;

	for (i = 0; i < b->nedge; i++) {
		uint32_t to = b->edge[i].to;

		ot_cdg_remove(g, b->edge[i].from, ot_cdg_channel_node(g, to),
			      ot_cdg_channel_port(g, to), to % OT_CDG_VLS);
	}
	b->nedge = 0;
}

/* Whether some entry of t leads from a switch to a switch. */
static bool any_link(const struct ot_mtree_net *n, const struct ot_mtree *t)
{
	uint32_t i;

	for (i = 0; i < t->nentries; i++)
		if (to_switch(n, t->entry[i].node, t->entry[i].port))
			return true;
	return false;
}

/*
 * The channels of the loop tree t (its entries indexed) adds to unicast
 * and the installed trees; 0: none; -1: OOM.
 */
static int all_turns(struct build *b, const struct ot_mtree *t);

static int64_t added_loop(struct build *b, const struct ot_mtree *t)
{
	struct ot_mtree_net *n = b->n;
	uint32_t own;
	int64_t loop;

	if (!any_link(n, t))
		return 0; /* no turn from switch to switch */
	if (unicast_graph(n))
		return -1;
	if (all_turns(b, t)) {
		take_out(b);
		return -1;
	}
	own = b->nedge;
	if (with_exceptions(b)) {
		b->nedge = own;
		take_out(b);
		return -1;
	}
	loop = ot_cdg_new_loop(&n->cdg, &n->sccs, b->edge, b->nedge);
	b->nedge = own; /* the exceptions stay: trees hold them */
	take_out(b);
	return loop;
}

/* Every turn of t (entries indexed) on every SL of b. */
static int all_turns(struct build *b, const struct ot_mtree *t)
{
	struct ot_mtree_net *n = b->n;
	uint32_t i;
	unsigned int sl;

	for (i = 0; i < t->nentries; i++) {
		uint32_t u = n->swidx[t->entry[i].node];

		if (i && t->entry[i - 1].node == t->entry[i].node)
			continue;
		for (sl = 0; sl < OT_NUM_SLS; sl++)
			if (b->sls & (1u << sl) && turns_at(b, t, u, sl))
				return -1;
	}
	return 0;
}

/*
 * Tree t (entries indexed) installed for mlid: its dependencies stay in
 * the graph, held by it.  Not a tree that kept a loop (see net->inst).
 */
static int install(struct build *b, uint16_t mlid, const struct ot_mtree *t)
{
	struct ot_mtree_net *n = b->n;
	struct installed *in;

	if (t->loop || !any_link(n, t))
		return 0;
	if (!n->inst) {
		n->inst = calloc(OT_MTREE_MLIDS, sizeof(*n->inst));
		if (!n->inst)
			return -1;
	}
	in = calloc(1, sizeof(*in));
	if (!in)
		return -1;
	n->inst[mlid - OT_MLID_BASE] = in;
	b->install = in;
	if (all_turns(b, t))
		return -1;
	b->install = NULL;
	return 0;
}

/*
 * The smallest subtree of the master tree that holds the member
 * switches: their paths up to the master's root, less the stem above
 * the first switch where they meet.  0, 1 when the master does not
 * reach a member switch, -1 (OOM).
 */
static int grow_master(struct build *b, struct ot_mtree *t)
{
	struct ot_mtree_net *n = b->n;
	uint32_t cap = 0, i, nl = 0, top, u;

	n->cur++;
	for (i = 0; i < b->nmsw; i++)
		if (n->mparent[b->msw[i]] == UINT32_MAX &&
		    b->msw[i] != n->mroot)
			return 1;
	n->stamp[n->mroot] = n->cur;
	n->mchild[n->mroot] = 0;
	for (i = 0; i < b->nmsw; i++)
		for (u = b->msw[i]; n->stamp[u] != n->cur; u = n->mparent[u]) {
			n->stamp[u] = n->cur;
			n->mchild[u] = 0;
			n->mlist[nl++] = u;
		}
	for (i = 0; i < nl; i++) {
		u = n->mlist[i];
		n->mchild[n->mparent[u]]++;
		n->mlast[n->mparent[u]] = u;
	}
	/* the stem: down from the root while one branch and no member */
	for (top = n->mroot; n->mchild[top] == 1; top = n->mlast[top]) {
		for (i = 0; i < b->nmsw && b->msw[i] != top; i++)
			;
		if (i < b->nmsw)
			break;
		n->mchild[top] = UINT32_MAX; /* above top: out */
	}
	t->root = n->swnode[top];
	t->nswitches = 1;
	t->nentries = 0;
	t->depth = 0;
	t->unreached = 0;
	for (i = 0; i < nl; i++) {
		u = n->mlist[i];
		if (u == top || n->mchild[u] == UINT32_MAX)
			continue;
		if (join(n, t, &cap, u, n->mparent[u], n->mup[u]))
			return -1;
	}
	for (i = 0; i < b->nmsw; i++) {
		uint32_t d = 0;

		for (u = b->msw[i]; u != top; u = n->mparent[u])
			d++;
		if (d > t->depth)
			t->depth = d;
	}
	for (i = 0; i < b->npt; i++)
		if (add_entry(t, &cap, n->swnode[b->pt[i].sw], b->pt[i].port))
			return -1;
	return index_entries(n, t) ? -1 : 0;
}

static int try_roots(struct build *b, struct ot_mtree *out);
static int candidates(struct build *b);

/* Whether switch number s has a CA (or router) cabled to it. */
static bool has_cas(const struct ot_mtree_net *n, uint32_t s)
{
	const struct ot_node *nd = &n->f->node[n->swnode[s]];
	unsigned int p;

	for (p = 1; p <= nd->nports; p++)
		if (nd->port[p].peer >= 0 && !ot_is_switch(n->f, nd->port[p].peer))
			return true;
	return false;
}

/*
 * The master tree, before any tree is installed: every switch with CAs
 * a member (every switch when none has: the transit switches of a KNS
 * are in it only where it passes), the same candidates and shapes as a
 * group's, checked against unicast alone (b's SLs).  0, or -1 (OOM).
 */
static int make_master(struct ot_mtree_net *n, uint16_t sls)
{
	struct build b = { .n = n, .sls = sls };
	struct ot_mtree t = { 0 };
	uint32_t i;
	int rc = -1;

	n->master = 2;
	n->mparent = malloc((n->nsw + 1) * sizeof(*n->mparent));
	n->mup = malloc(n->nsw + 1);
	n->mchild = malloc((n->nsw + 1) * sizeof(*n->mchild));
	n->mlast = malloc((n->nsw + 1) * sizeof(*n->mlast));
	n->mlist = malloc((n->nsw + 1) * sizeof(*n->mlist));
	b.pt = malloc((n->nsw + 1) * sizeof(*b.pt));
	b.msw = malloc((n->nsw + 1) * sizeof(*b.msw));
	if (!n->mparent || !n->mup || !n->mchild || !n->mlast || !n->mlist ||
	    !b.pt || !b.msw)
		goto out;
	for (i = 0; i < n->nsw; i++)
		if (has_cas(n, i)) {
			b.pt[b.npt].sw = i;
			b.pt[b.npt++].port = 0;
			b.msw[b.nmsw++] = i;
		}
	for (i = 0; !b.nmsw && i < n->nsw; i++) {
		b.pt[b.npt].sw = i;
		b.pt[b.npt++].port = 0;
		b.msw[b.nmsw++] = i;
	}
	if (by_rank(n, b.msw, b.nmsw) || candidates(&b) ||
	    try_roots(&b, &t))
		goto out;
	/* its switches: the members' paths up (parent[] of its growth) */
	n->mroot = n->swidx[t.root];
	for (i = 0; i < n->nsw; i++)
		n->mparent[i] = UINT32_MAX;
	for (i = 0; i < b.nmsw; i++) {
		uint32_t u = b.msw[i];

		if (dist(n, n->mroot, u) == FAR)
			continue;
		for (; u != n->mroot && n->mparent[u] == UINT32_MAX;
		     u = n->parent[u])
			n->mparent[u] = n->parent[u];
	}
	memcpy(n->mup, n->up_port, n->nsw);
	n->master = t.loop ? -1 : 1;
	rc = 0;
out:
	if (rc)
		n->master = -1;
	ot_mtree_free(&t);
	free(b.pt);
	free(b.msw);
	free(b.cand);
	free(b.edge);
	return rc;
}

/* Tree number try (a candidate root and a shape, or MASTER_TRY) grown. */
static int grow_try(struct build *b, uint32_t try, struct ot_mtree *out)
{
	if (try == MASTER_TRY)
		return grow_master(b, out);
	return grow(b, b->cand[try / NSHAPES], (enum shape)(try % NSHAPES),
		    out);
}

/*
 * The trees of a group in order until one adds no loop: the subtree of
 * the master tree (all groups' subtrees of it are safe together), then
 * the candidate roots, each with every shape (the master's own trees:
 * no master yet); else the tree with the smallest loop (the first of
 * equals).
 */
static int try_roots(struct build *b, struct ot_mtree *out)
{
	struct ot_mtree_net *n = b->n;
	unsigned int roots = b->ncand < n->roots ? b->ncand : n->roots;
	uint32_t i, try, best = 0, last = 0, ntries = roots * NSHAPES;
	int64_t best_loop = -1, loop = -1;
	int rc;

	if (!n->master && n->nsw > 1) {
		double start;

		if (unicast_graph(n))
			return -1;
		start = ot_now_ms();
		if (make_master(n, b->sls))
			return -1;
		n->cdg_ms += ot_now_ms() - start;
	}
	out->tries = 0;
	for (i = n->master == 1 ? 0 : 1; i <= ntries && loop; i++) {
		try = i ? i - 1 : MASTER_TRY;
		rc = grow_try(b, try, out);
		if (rc < 0)
			return -1;
		if (rc)
			continue;
		last = try;
		loop = added_loop(b, out);
		if (loop < 0)
			return -1;
		out->tries++;
		if (best_loop < 0 || loop < best_loop) {
			best = try;
			best_loop = loop;
		}
	}
	if (best != last && grow_try(b, best, out))
		return -1;
	out->chosen = best == MASTER_TRY ? 0 : best / NSHAPES;
	out->shape = best == MASTER_TRY ? master_name :
					  shape_name[best % NSHAPES];
	out->loop = best_loop;
	return 0;
}

int ot_mtree_build(struct ot_mtree_net *n, uint16_t mlid,
		   const struct ot_mcast_member *m, uint32_t nm, uint16_t sls,
		   struct ot_mtree *out, struct ot_error *err)
{
	struct build b = { .n = n, .sls = sls ? sls : 1 };
	int rc = -1;

	memset(out, 0, sizeof(*out));
	out->root = -1;
	if (mlid && (mlid < OT_MLID_BASE || mlid - OT_MLID_BASE >=
					      OT_MTREE_MLIDS))
		return ot_error_set(err, "multicast: MLID 0x%04x", mlid);
	if (mlid)
		withdraw(n, mlid);
	if (place_members(&b, m, nm, out))
		goto out;
	if (b.npt < 2 || !b.nmsw) {
		rc = 0; /* nobody to send to, as OpenSM's own builder */
		goto out;
	}
	if ((!n->dist && distances(n)) || candidates(&b) ||
	    try_roots(&b, out))
		goto out;
	/* out's entries are indexed (try_roots() grew it last) */
	if (mlid && install(&b, mlid, out))
		goto out;
	rc = 0;
out:
	free(b.pt);
	free(b.msw);
	free(b.cand);
	free(b.edge);
	if (rc) {
		ot_mtree_free(out);
		return ot_error_nomem(err, "multicast");
	}
	return 0;
}

void ot_mtree_free(struct ot_mtree *t)
{
	free(t->entry);
	t->entry = NULL;
	t->nentries = 0;
}

int64_t ot_mtree_loop(struct ot_mtree_net *n, struct ot_mtree *t,
		      uint16_t sls, struct ot_error *err)
{
	struct build b = { .n = n, .sls = sls ? sls : 1 };
	int64_t loop;

	if (index_entries(n, t))
		return ot_error_set(err,
			"multicast: an MFT entry on no switch of the fabric");
	loop = added_loop(&b, t);
	free(b.edge);
	if (loop < 0)
		return ot_error_nomem(err, "multicast");
	return loop;
}

int ot_mtree_apply(const struct ot_mtree *t, struct ot_mcast *mc,
		   uint16_t mlid)
{
	uint32_t i;

	for (i = 0; i < t->nentries; i++)
		if (ot_mcast_set(mc, t->entry[i].node, mlid, t->entry[i].port,
				 true))
			return -1;
	return 0;
}
