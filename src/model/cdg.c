// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The channel dependency graph and its credit loops (cdg.h): the graph,
 * strongly connected parts by an iterative Tarjan search, a shortest
 * cycle through a channel, and whether dependencies added to a graph
 * close a loop it did not have.  The unicast dependencies are in
 * cdg_unicast.c.
 */
#include <stdlib.h>
#include <string.h>

#include "model/cdg.h"
#include "model/hashmap.h"

int ot_cdg_init(struct ot_cdg *g, const struct ot_fabric *f)
{
	uint64_t nchan;
	uint32_t n, l;

	memset(g, 0, sizeof(*g));
	g->f = f;
	g->link_base = calloc(f->nnodes + 1, sizeof(*g->link_base));
	if (!g->link_base)
		goto oom;
	for (n = 0; n < f->nnodes; n++)
		g->link_base[n + 1] = g->link_base[n] + f->node[n].nports;
	g->nlinks = g->link_base[f->nnodes];
	nchan = ot_cdg_nchannels(g);
	g->link_node = calloc(g->nlinks ? g->nlinks : 1, sizeof(*g->link_node));
	g->succ = calloc(nchan ? nchan : 1, sizeof(*g->succ));
	g->used = calloc(nchan / 64 + 1, sizeof(*g->used));
	if (!g->link_node || !g->succ || !g->used)
		goto oom;
	for (n = 0; n < f->nnodes; n++)
		for (l = g->link_base[n]; l < g->link_base[n + 1]; l++)
			g->link_node[l] = n;
	return 0;
oom:
	ot_cdg_free(g);
	return -1;
}

void ot_cdg_free(struct ot_cdg *g)
{
	uint64_t i, nchan = ot_cdg_nchannels(g);

	if (g->succ)
		for (i = 0; i < nchan; i++)
			free(g->succ[i]);
	free(g->succ);
	free(g->used);
	free(g->link_base);
	free(g->link_node);
	memset(g, 0, sizeof(*g));
}

int ot_cdg_add(struct ot_cdg *g, uint32_t from, int32_t to_node,
	       unsigned int to_port, uint8_t to_vl)
{
	unsigned int bit = to_port * OT_CDG_VLS + to_vl;
	uint64_t *b = g->succ[from];

	if (!b) {
		unsigned int bits = (g->f->node[to_node].nports + 1) *
				    OT_CDG_VLS;

		b = calloc((bits + 63) / 64, sizeof(*b));
		if (!b)
			return -1;
		g->succ[from] = b;
	}
	if (b[bit / 64] & (1ull << (bit % 64)))
		return 0;
	b[bit / 64] |= 1ull << (bit % 64);
	g->ndeps++;
	return 1;
}

void ot_cdg_remove(struct ot_cdg *g, uint32_t from, int32_t to_node,
		   unsigned int to_port, uint8_t to_vl)
{
	unsigned int bit = to_port * OT_CDG_VLS + to_vl;
	uint64_t *b = g->succ[from];

	(void)to_node;
	if (!b || !(b[bit / 64] & (1ull << (bit % 64))))
		return;
	b[bit / 64] &= ~(1ull << (bit % 64));
	g->ndeps--;
}

/* Where a channel's link ends. */
static int32_t channel_head(const struct ot_cdg *g, uint32_t c)
{
	int32_t n = ot_cdg_channel_node(g, c);

	return g->f->node[n].port[ot_cdg_channel_port(g, c)].peer;
}

uint32_t ot_cdg_next(const struct ot_cdg *g, uint32_t c, unsigned int *pos)
{
	const uint64_t *b = g->succ[c];
	int32_t t;
	unsigned int bits;

	if (!b)
		return UINT32_MAX;
	t = channel_head(g, c);
	bits = (g->f->node[t].nports + 1) * OT_CDG_VLS;
	while (*pos < bits) {
		unsigned int i = *pos, word = i / 64;
		uint64_t rest = b[word] >> (i % 64);

		if (!rest) {
			*pos = (word + 1) * 64;
			continue;
		}
		i += __builtin_ctzll(rest);
		*pos = i + 1;
		if (i >= bits)
			break;
		return ot_cdg_channel(g, t, i / OT_CDG_VLS, i % OT_CDG_VLS);
	}
	return UINT32_MAX;
}

/* ------------------------------------------------------------------ */
/* Tarjan's search over the channels, or over a region of them.        */

/*
 * The search keeps its state per visited channel under a local number:
 * the channel itself for a search of the whole graph (dense), a number
 * handed out on the first visit for a search of a region (a hash map
 * from channel to number, model/hashmap.h), so that a small search costs
 * memory and time in proportion to what it visits.
 */
struct tarjan {
	const struct ot_cdg *g;
	bool dense;
	bool oom;
	struct ot_hashmap map; /* sparse: channel -> local number */
	uint32_t nlocal, cap; /* numbers handed out, room for them */
	uint32_t *chan;       /* sparse: the channel of each number */
	int32_t *index, *low, *comp;
	uint32_t *tstack, *fstack; /* Tarjan's own stack; the frames */
	unsigned int *fpos;   /* where each frame's successor scan is */
	uint32_t next_index, ncomp, tsp, fsp;
	/* the region: channels base puts between lo and hi, or unknown */
	const struct ot_cdg_sccs *base;
	int32_t lo, hi;
	/*
	 * Called for every part completed, its channels' local numbers in
	 * tstack[first .. first + size); non-zero stops the search.
	 */
	int (*part)(struct tarjan *t, uint32_t first, uint32_t size);
	void *arg;
};

static int grow_local(struct tarjan *t, uint32_t cap)
{
	void *p;

#define GROW(field)                                                       \
	do {                                                              \
		p = realloc(t->field, (size_t)cap * sizeof(*t->field));   \
		if (!p)                                                   \
			return -1;                                        \
		t->field = p;                                             \
	} while (0)
	GROW(chan);
	GROW(index);
	GROW(low);
	GROW(comp);
	GROW(tstack);
	GROW(fstack);
	GROW(fpos);
#undef GROW
	t->cap = cap;
	return 0;
}

/*
 * The local number of channel c, one handed out (its index -1) on the
 * first call; UINT32_MAX (and t->oom) when out of memory.
 */
static uint32_t local(struct tarjan *t, uint32_t c)
{
	uint32_t *v, l;
	bool added;

	if (t->dense)
		return c;
	if (t->nlocal == t->cap && grow_local(t, 2 * t->cap)) {
		t->oom = true;
		return UINT32_MAX;
	}
	v = ot_hashmap_put(&t->map, c, t->nlocal, &added);
	if (!v) {
		t->oom = true;
		return UINT32_MAX;
	}
	if (!added)
		return *v;
	l = t->nlocal++;
	t->chan[l] = c;
	t->index[l] = -1;
	t->comp[l] = -1;
	return l;
}

static uint32_t channel_of(const struct tarjan *t, uint32_t l)
{
	return t->dense ? l : t->chan[l];
}

/* Whether channel c belongs to the region searched. */
static bool inside(const struct tarjan *t, uint32_t c)
{
	int32_t k;

	if (!t->base)
		return true;
	k = t->base->comp[c];
	return k < 0 || (k >= t->lo && k <= t->hi);
}

static void visit(struct tarjan *t, uint32_t l)
{
	t->index[l] = t->low[l] = (int32_t)t->next_index++;
	t->tstack[t->tsp++] = l;
	t->fstack[t->fsp] = l;
	t->fpos[t->fsp++] = 0;
}

/* l is the root of a part: pops it off Tarjan's stack. */
static int pop_part(struct tarjan *t, uint32_t l)
{
	uint32_t end = t->tsp, first = end;

	do {
		first--;
		t->comp[t->tstack[first]] = (int32_t)t->ncomp;
	} while (t->tstack[first] != l);
	t->tsp = first;
	t->ncomp++;
	return t->part(t, first, end - first);
}

/*
 * The depth-first search from channel c, frames on t->fstack.  0, 1 when
 * a part stopped it, -1 when out of memory.
 */
static int search_from(struct tarjan *t, uint32_t c)
{
	uint32_t l = local(t, c);

	if (l == UINT32_MAX)
		return -1;
	if (t->index[l] >= 0)
		return 0;
	visit(t, l);
	while (t->fsp) {
		uint32_t v = t->fstack[t->fsp - 1], w;
		uint32_t x = ot_cdg_next(t->g, channel_of(t, v),
					 &t->fpos[t->fsp - 1]);

		if (x != UINT32_MAX) {
			if (!inside(t, x))
				continue;
			w = local(t, x);
			if (w == UINT32_MAX)
				return -1;
			if (t->index[w] < 0)
				visit(t, w);
			else if (t->comp[w] < 0 && t->index[w] < t->low[v])
				/* w is still on the Tarjan stack */
				t->low[v] = t->index[w];
			continue;
		}
		t->fsp--;
		if (t->fsp) {
			uint32_t u = t->fstack[t->fsp - 1];

			if (t->low[v] < t->low[u])
				t->low[u] = t->low[v];
		}
		if (t->low[v] == t->index[v] && pop_part(t, v))
			return 1;
	}
	return 0;
}

static bool depends_on_itself(const struct ot_cdg *g, uint32_t c)
{
	unsigned int pos = 0;
	uint32_t y;

	for (y = ot_cdg_next(g, c, &pos); y != UINT32_MAX;
	     y = ot_cdg_next(g, c, &pos))
		if (y == c)
			return true;
	return false;
}

static void tarjan_free(struct tarjan *t)
{
	ot_hashmap_free(&t->map);
	free(t->chan);
	free(t->index);
	free(t->low);
	free(t->comp);
	free(t->tstack);
	free(t->fstack);
	free(t->fpos);
}

/* The whole graph: each part into the ot_cdg_sccs being filled. */
struct record {
	struct ot_cdg_sccs *s;
	uint32_t cap;          /* parts cyclic[] has room for */
	unsigned int max_roots;
};

static int record_part(struct tarjan *t, uint32_t first, uint32_t size)
{
	struct record *rec = t->arg;
	struct ot_cdg_sccs *s = rec->s;
	uint32_t k = t->ncomp - 1, c = t->tstack[first];

	if (k >= rec->cap) {
		uint32_t n = rec->cap ? 2 * rec->cap : 1024;
		uint8_t *v = realloc(s->cyclic, n);

		if (!v) {
			t->oom = true;
			return 1;
		}
		memset(v + rec->cap, 0, n - rec->cap);
		s->cyclic = v;
		rec->cap = n;
	}
	if (size == 1 && !depends_on_itself(t->g, c))
		return 0;
	s->cyclic[k] = 1;
	if (s->nroots < rec->max_roots)
		s->root[s->nroots++] = c;
	s->nloops++;
	s->loop_channels += size;
	return 0;
}

int ot_cdg_sccs(const struct ot_cdg *g, unsigned int max_roots,
		struct ot_cdg_sccs *out)
{
	uint64_t nchan = ot_cdg_nchannels(g), c;
	struct record rec = { .s = out, .max_roots = max_roots };
	struct tarjan t = { .g = g, .dense = true, .part = record_part,
			    .arg = &rec };
	int rc = -1;

	memset(out, 0, sizeof(*out));
	t.index = malloc(nchan * sizeof(*t.index) + 1);
	t.low = malloc(nchan * sizeof(*t.low) + 1);
	t.comp = malloc(nchan * sizeof(*t.comp) + 1);
	t.tstack = malloc(nchan * sizeof(*t.tstack) + 1);
	t.fstack = malloc(nchan * sizeof(*t.fstack) + 1);
	t.fpos = malloc(nchan * sizeof(*t.fpos) + 1);
	out->root = calloc(max_roots + 1, sizeof(*out->root));
	if (!t.index || !t.low || !t.comp || !t.tstack || !t.fstack ||
	    !t.fpos || !out->root)
		goto out;
	for (c = 0; c < nchan; c++) {
		t.index[c] = -1;
		t.comp[c] = -1;
	}
	for (c = 0; c < nchan; c++)
		if (g->succ[c] && t.index[c] < 0 &&
		    search_from(&t, (uint32_t)c))
			goto out;
	out->ncomp = t.ncomp;
	out->comp = t.comp;
	t.comp = NULL;
	rc = 0;
out:
	tarjan_free(&t);
	if (rc)
		ot_cdg_sccs_free(out);
	return rc;
}

void ot_cdg_sccs_free(struct ot_cdg_sccs *s)
{
	free(s->comp);
	free(s->cyclic);
	free(s->root);
	memset(s, 0, sizeof(*s));
}

int ot_cdg_cycle(const struct ot_cdg *g, const struct ot_cdg_sccs *s,
		 uint32_t root, uint32_t **chan, unsigned int *len)
{
	uint64_t nchan = ot_cdg_nchannels(g);
	int32_t *parent = malloc(nchan * sizeof(*parent) + 1);
	uint32_t *queue = malloc(nchan * sizeof(*queue) + 1);
	uint32_t head = 0, tail = 0, last = UINT32_MAX, x;
	unsigned int n = 1, i;
	int rc = -1;

	*chan = NULL;
	*len = 0;
	if (!parent || !queue)
		goto out;
	memset(parent, 0xff, nchan * sizeof(*parent));
	parent[root] = (int32_t)root;
	queue[tail++] = root;
	while (head < tail && last == UINT32_MAX) {
		unsigned int pos = 0;
		uint32_t y;

		x = queue[head++];
		for (y = ot_cdg_next(g, x, &pos); y != UINT32_MAX;
		     y = ot_cdg_next(g, x, &pos)) {
			if (s->comp[y] != s->comp[root])
				continue;
			if (y == root) {
				last = x;
				break;
			}
			if (parent[y] >= 0)
				continue;
			parent[y] = (int32_t)x;
			queue[tail++] = y;
		}
	}
	rc = 1;
	if (last == UINT32_MAX) /* root is in no cycle */
		goto out;
	for (x = last; x != root; x = (uint32_t)parent[x])
		n++;
	rc = -1;
	*chan = malloc(n * sizeof(**chan));
	if (!*chan)
		goto out;
	/* the parents lead from last back to root: fill from the end */
	for (i = n, x = last; i > 0; x = (uint32_t)parent[x])
		(*chan)[--i] = x;
	*len = n;
	rc = 0;
out:
	free(parent);
	free(queue);
	return rc;
}

/* ------------------------------------------------------------------ */
/* New loops: a region searched from the edges against base's order.   */

struct new_loop {
	int64_t largest;
};

/* A part of the region: new when it joins parts of base, or is new. */
static int judge_part(struct tarjan *t, uint32_t first, uint32_t size)
{
	struct new_loop *nl = t->arg;
	const int32_t *comp = t->base->comp;
	uint32_t c = t->chan[t->tstack[first]], i;
	bool fresh = false;

	if (size == 1) {
		if (!depends_on_itself(t->g, c))
			return 0;
		fresh = comp[c] < 0 || !t->base->cyclic[comp[c]];
	}
	for (i = 1; i < size && !fresh; i++) {
		uint32_t d = t->chan[t->tstack[first + i]];

		fresh = comp[d] < 0 || comp[d] != comp[c];
	}
	if (size > 1 && comp[c] < 0)
		fresh = true;
	if (fresh && (int64_t)size > nl->largest)
		nl->largest = size;
	return 0;
}

/* Whether edge e goes against base's order (or base does not know it). */
static bool against(const struct ot_cdg_sccs *base,
		    const struct ot_cdg_edge *e)
{
	int32_t a = base->comp[e->from], b = base->comp[e->to];

	return a < 0 || b < 0 || a <= b;
}

int64_t ot_cdg_new_loop(const struct ot_cdg *g, const struct ot_cdg_sccs *base,
			const struct ot_cdg_edge *edge, uint32_t n)
{
	struct new_loop nl = { 0 };
	struct tarjan t = { .g = g, .base = base, .part = judge_part,
			    .arg = &nl, .lo = INT32_MAX, .hi = -1 };
	uint32_t i;
	bool any = false;
	int64_t rc = -1;

	/* the region: every part between the ends of those edges */
	for (i = 0; i < n; i++) {
		int32_t k[2] = { base->comp[edge[i].from],
				 base->comp[edge[i].to] };
		unsigned int j;

		if (!against(base, &edge[i]))
			continue;
		any = true;
		for (j = 0; j < 2; j++) {
			if (k[j] >= 0 && k[j] < t.lo)
				t.lo = k[j];
			if (k[j] > t.hi)
				t.hi = k[j];
		}
	}
	if (!any)
		return 0;
	if (grow_local(&t, 1024))
		goto out;
	for (i = 0; i < n; i++)
		if (against(base, &edge[i]) &&
		    search_from(&t, edge[i].to) < 0)
			goto out;
	rc = t.oom ? -1 : nl.largest;
out:
	tarjan_free(&t);
	return rc;
}
