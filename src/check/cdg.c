// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The channel dependency graph over (directed link, VL) and its credit
 * loops (cycles: the fabric can deadlock).  Dependencies are added once
 * per (destination, SL) from the switches the forwarding tree's sources
 * use; the cycles are found with an iterative Tarjan search.
 */
#include <stdlib.h>

#include "check/checker.h"

/* VLs the CAs of switch s inject toward output port out on SL sl. */
static uint16_t ca_vls(struct checker *ck, int32_t s, unsigned int out,
		       unsigned int sl)
{
	unsigned int np = ck->f->node[s].nports;
	uint16_t *cache = ck->ca_vls[s];
	uint16_t mask = 0;
	uint32_t i;

	if (!cache) {
		/* 0 means "not computed": a switch with sources has a VL */
		cache = calloc((size_t)(np + 1) * OT_NUM_SLS, sizeof(*cache));
		if (!cache)
			return 0;
		ck->ca_vls[s] = cache;
	}
	if (cache[out * OT_NUM_SLS + sl])
		return cache[out * OT_NUM_SLS + sl];
	for (i = ck->src_start[s]; i < ck->src_start[s + 1]; i++)
		mask |= 1u << vl_of(ck, s, ck->ep[ck->src_list[i]].sw_port,
				    out, sl);
	cache[out * OT_NUM_SLS + sl] = mask;
	return mask;
}

static void add_seed(struct checker *ck, unsigned int sl, int32_t s,
		     uint16_t vls)
{
	uint32_t k = sl * ck->f->nnodes + ck->seed_n[sl]++;

	ck->seed_sw[k] = s;
	ck->seed_vls[k] = vls;
}

/*
 * Seeds for the channel dependencies toward one destination LID: for each
 * SL, the source switches whose CAs send on it and the VLs those CAs'
 * packets leave the switch on.  When the engine has no path_sl every
 * source uses SL 0 and a switch's VLs come from a cache; otherwise the
 * sources are grouped by the SL each gets.
 */
static int make_seeds(struct checker *ck, const struct dest *dd)
{
	const struct endpoint *d = &ck->ep[dd->ep];
	bool uniform = !ck->r->path_sl;
	uint32_t k, i;

	memset(ck->seed_n, 0, sizeof(ck->seed_n));
	for (k = 0; k < ck->nsrc_switches; k++) {
		int32_t s = ck->src_switches[k];
		uint8_t out = ck->tree.outp[s];
		uint16_t vls[OT_NUM_SLS] = { 0 };
		uint16_t sls = 0;
		unsigned int sl;

		if (ck->tree.state[s] != OT_FWD_REACH || !sources_at(ck, s, dd->ep))
			continue;
		if (uniform && s != d->sw) {
			uint16_t m = ca_vls(ck, s, out, 0);

			if (!m)
				return -1;
			ck->sw_sl_mask[s] |= 1;
			add_seed(ck, 0, s, m);
			continue;
		}
		for (i = ck->src_start[s]; i < ck->src_start[s + 1]; i++) {
			uint32_t src = ck->src_list[i];
			struct endpoint *e = &ck->ep[src];

			if (src == dd->ep)
				continue;
			sl = uniform ? 0 : ck_path_sl(ck, e->lid, dd->lid);
			e->sl_mask |= 1u << sl;
			sls |= 1u << sl;
			vls[sl] |= 1u << vl_of(ck, s, e->sw_port, out, sl);
		}
		for (sl = 0; sl < OT_NUM_SLS; sl++)
			if (sls & (1u << sl))
				add_seed(ck, sl, s, vls[sl]);
	}
	return 0;
}

/* Marks the switches downstream of a seed and the VLs they send on. */
static void mark_downstream(struct checker *ck, int32_t s, uint16_t vls,
			    unsigned int sl)
{
	const struct ot_fabric *f = ck->f;
	int32_t x = s;

	for (;;) {
		bool first = ck->vstamp[x] != ck->vcur;
		const struct ot_port *p;

		if (first) {
			ck->vstamp[x] = ck->vcur;
			ck->vlset[x] = 0;
			ck->vused[ck->nvused++] = x;
		}
		ck->vlset[x] |= vls;
		/* what lies downstream depends on x being used, not on how */
		if (!first || ck->tree.info[x] == 1)
			return;
		p = &f->node[x].port[ck->tree.outp[x]];
		x = p->peer;
		vls = 1u << vl_of(ck, x, p->peer_port, ck->tree.outp[x], sl);
	}
}

int ck_add_dependency(struct checker *ck, uint32_t from, int32_t to_node,
		      unsigned int to_port, uint8_t to_vl)
{
	struct cdg *g = &ck->cdg;
	unsigned int bit = to_port * NUM_VLS + to_vl;
	uint64_t *b = g->succ[from];

	if (!b) {
		unsigned int bits = (ck->f->node[to_node].nports + 1) * NUM_VLS;

		b = calloc((bits + 63) / 64, sizeof(*b));
		if (!b)
			return -1;
		g->succ[from] = b;
	}
	if (b[bit / 64] & (1ull << (bit % 64)))
		return 0;
	b[bit / 64] |= 1ull << (bit % 64);
	ck->rep->c.dependencies++;
	return 0;
}

/*
 * Adds the dependencies of one (destination LID, SL): a used switch x
 * forwarding to switch t makes each VL x sends on depend on the VL t
 * gives packets arriving from x.  Channels into a CA end every chain and
 * can be in no cycle, so they are left out of the graph.
 */
static int add_dependencies(struct checker *ck, unsigned int sl)
{
	const struct ot_fabric *f = ck->f;
	uint32_t i;
	unsigned int vl;

	for (i = 0; i < ck->nvused; i++) {
		int32_t x = ck->vused[i], t;
		const struct ot_port *p;
		uint8_t out = ck->tree.outp[x], tout, tvl;
		uint32_t from;

		ck->rep->c.vls_used |= ck->vlset[x];
		if (ck->tree.info[x] == 1)
			continue;
		p = &f->node[x].port[out];
		t = p->peer;
		from = link_id(ck, x, out) * NUM_VLS;
		for (vl = 0; vl < NUM_VLS; vl++)
			if (ck->vlset[x] & (1u << vl))
				ck->cdg.used[(from + vl) / 64] |=
					1ull << ((from + vl) % 64);
		if (ck->tree.info[t] == 1)
			continue;
		tout = ck->tree.outp[t];
		tvl = vl_of(ck, t, p->peer_port, tout, sl);
		for (vl = 0; vl < NUM_VLS; vl++) {
			if (!(ck->vlset[x] & (1u << vl)))
				continue;
			if (ck_add_dependency(ck, from + vl, t, tout, tvl))
				return -1;
		}
	}
	return 0;
}

int ck_dependencies_toward(struct checker *ck, const struct dest *dd)
{
	unsigned int sl;
	uint32_t k;

	if (make_seeds(ck, dd))
		return -1;
	for (sl = 0; sl < OT_NUM_SLS; sl++) {
		if (!ck->seed_n[sl])
			continue;
		ck->vcur++;
		ck->nvused = 0;
		for (k = 0; k < ck->seed_n[sl]; k++) {
			uint32_t j = sl * ck->f->nnodes + k;

			mark_downstream(ck, ck->seed_sw[j], ck->seed_vls[j],
					sl);
		}
		if (add_dependencies(ck, sl))
			return -1;
	}
	return 0;
}

/* VLs of the first hop, from the SLs each source was seen sending on. */
void ck_injection_vls(struct checker *ck)
{
	uint32_t i;
	unsigned int sl;

	for (i = 0; i < ck->nep; i++) {
		const struct endpoint *e = &ck->ep[i];
		uint16_t sls = e->sl_mask;

		if (e->sw >= 0)
			sls |= ck->sw_sl_mask[e->sw];
		ck->rep->c.sls_used |= sls;
		for (sl = 0; sl < OT_NUM_SLS; sl++)
			if (sls & (1u << sl))
				ck->rep->c.vls_used |=
					1u << vl_of(ck, e->node, 0, e->port, sl);
	}
}

/* ------------------------------------------------------------------ */
/* Credit loops: strongly connected parts of the dependency graph.     */

/* Where a channel's link ends: (node, the channel id base of its ports). */
static int32_t channel_head(const struct checker *ck, uint32_t c)
{
	uint32_t link = c / NUM_VLS;
	int32_t n = ck->cdg.link_node[link];
	unsigned int port = link - ck->cdg.link_base[n] + 1;

	return ck->f->node[n].port[port].peer;
}

/*
 * The next successor of channel c at or after bit *pos of its bitset, as
 * a channel id, or UINT32_MAX when there is none.
 */
static uint32_t next_successor(const struct checker *ck, uint32_t c,
			       unsigned int *pos)
{
	const uint64_t *b = ck->cdg.succ[c];
	int32_t t;
	unsigned int bits;

	if (!b)
		return UINT32_MAX;
	t = channel_head(ck, c);
	bits = (ck->f->node[t].nports + 1) * NUM_VLS;
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
		return link_id(ck, t, i / NUM_VLS) * NUM_VLS + i % NUM_VLS;
	}
	return UINT32_MAX;
}

static int describe_channel(const struct checker *ck, uint32_t c,
			    struct channel *ch)
{
	uint32_t link = c / NUM_VLS;
	int32_t n = ck->cdg.link_node[link];
	unsigned int port = link - ck->cdg.link_base[n] + 1;
	const struct ot_port *p = &ck->f->node[n].port[port];

	ch->from = dupstr(desc(ck, n));
	ch->from_port = port;
	ch->to = dupstr(desc(ck, p->peer));
	ch->to_port = p->peer_port;
	ch->vl = c % NUM_VLS;
	return ch->from && ch->to ? 0 : -1;
}

/*
 * A shortest cycle through channel root inside its strongly connected
 * part (comp), found breadth first, recorded as an example.  parent must
 * be all -1 and is left so; queue has room for every channel.
 */
static int record_cycle(struct checker *ck, uint32_t root, const int32_t *comp,
			int32_t *parent, uint32_t *queue)
{
	struct ot_check_report *rep = ck->rep;
	struct credit_cycle *cyc = &rep->cycles[rep->ncycles];
	uint32_t head = 0, tail = 0, last = UINT32_MAX, x, i;
	unsigned int len = 1;
	int error = -1;

	parent[root] = (int32_t)root;
	queue[tail++] = root;
	while (head < tail && last == UINT32_MAX) {
		unsigned int pos = 0;
		uint32_t y;

		x = queue[head++];
		for (y = next_successor(ck, x, &pos); y != UINT32_MAX;
		     y = next_successor(ck, x, &pos)) {
			if (comp[y] != comp[root])
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
	if (last == UINT32_MAX) /* not a cyclic part after all */
		goto out;
	for (x = last; x != root; x = (uint32_t)parent[x])
		len++;
	cyc->ch = calloc(len, sizeof(*cyc->ch));
	if (!cyc->ch)
		goto out;
	rep->ncycles++;
	/* the parents lead from last back to root: fill from the end */
	for (i = len, x = last; i > 0; x = (uint32_t)parent[x]) {
		if (describe_channel(ck, x, &cyc->ch[--i]))
			goto out;
		cyc->len++;
	}
	error = 0;
out:
	for (i = 0; i < tail; i++)
		parent[queue[i]] = -1;
	return error;
}

static bool depends_on_itself(const struct checker *ck, uint32_t c)
{
	unsigned int pos = 0;
	uint32_t y;

	for (y = next_successor(ck, c, &pos); y != UINT32_MAX;
	     y = next_successor(ck, c, &pos))
		if (y == c)
			return true;
	return false;
}

/* Tarjan's search state, one entry per channel (tstack: Tarjan's own). */
struct tarjan {
	int32_t *index, *low, *comp, *tstack;
	uint32_t *fstack, *roots; /* frames; roots of the printed loops */
	unsigned int *fpos;       /* where each frame's successor scan is */
	uint32_t next_index, ncomp, tsp, nroots;
};

/*
 * v is the root of a strongly connected part: pops it off Tarjan's stack
 * and counts it when it is cyclic (more than one channel, or a channel
 * depending on itself).
 */
static void pop_component(struct checker *ck, struct tarjan *t, uint32_t v)
{
	struct ot_check_report *rep = ck->rep;
	uint32_t size = 0, x;

	do {
		x = (uint32_t)t->tstack[--t->tsp];
		t->comp[x] = (int32_t)t->ncomp;
		size++;
	} while (x != v);
	t->ncomp++;
	if (size == 1 && !depends_on_itself(ck, v))
		return;
	if (rep->c.credit_loops < rep->max_examples)
		t->roots[t->nroots++] = v;
	rep->c.credit_loops++;
	rep->c.credit_loop_channels += size;
}

static void visit(struct tarjan *t, uint32_t *fsp, uint32_t w)
{
	t->index[w] = t->low[w] = (int32_t)t->next_index++;
	t->tstack[t->tsp++] = (int32_t)w;
	t->fstack[*fsp] = w;
	t->fpos[(*fsp)++] = 0;
}

/* The depth-first search from channel c, frames on t->fstack. */
static void search_from(struct checker *ck, struct tarjan *t, uint32_t c)
{
	uint32_t fsp = 0;

	visit(t, &fsp, c);
	while (fsp) {
		uint32_t v = t->fstack[fsp - 1];
		uint32_t w = next_successor(ck, v, &t->fpos[fsp - 1]);

		if (w != UINT32_MAX) {
			if (t->index[w] < 0)
				visit(t, &fsp, w);
			else if (t->comp[w] < 0 && t->index[w] < t->low[v])
				/* w is still on the Tarjan stack */
				t->low[v] = t->index[w];
			continue;
		}
		fsp--;
		if (fsp) {
			uint32_t u = t->fstack[fsp - 1];

			if (t->low[v] < t->low[u])
				t->low[u] = t->low[v];
		}
		if (t->low[v] == t->index[v])
			pop_component(ck, t, v);
	}
}

/*
 * Tarjan's algorithm without recursion (a fabric has 100k channels, too
 * many frames for the C stack): frames hold the channel and where its
 * successor scan stands.  Each cyclic part counts as a credit loop; the
 * first max_examples get a cycle printed.
 */
int ck_find_credit_loops(struct checker *ck)
{
	struct ot_check_report *rep = ck->rep;
	uint64_t nchan = (uint64_t)ck->cdg.nlinks * NUM_VLS;
	struct tarjan t = { 0 };
	uint32_t c;
	int error = -1;

	t.index = malloc(nchan * sizeof(*t.index) + 1);
	t.low = malloc(nchan * sizeof(*t.low) + 1);
	t.comp = malloc(nchan * sizeof(*t.comp) + 1);
	t.tstack = malloc(nchan * sizeof(*t.tstack) + 1);
	t.fstack = malloc(nchan * sizeof(*t.fstack) + 1);
	t.fpos = malloc(nchan * sizeof(*t.fpos) + 1);
	t.roots = calloc(rep->max_examples, sizeof(*t.roots));
	if (!t.index || !t.low || !t.comp || !t.tstack || !t.fstack ||
	    !t.fpos || !t.roots)
		goto out;
	for (c = 0; c < nchan; c++) {
		t.index[c] = -1;
		t.comp[c] = -1;
	}
	for (c = 0; c < nchan; c++)
		if (ck->cdg.succ[c] && t.index[c] < 0)
			search_from(ck, &t, c);
	/* index is no longer needed: it becomes the BFS parent array */
	for (c = 0; c < nchan; c++)
		t.index[c] = -1;
	if (t.nroots) {
		rep->cycles = calloc(t.nroots, sizeof(*rep->cycles));
		if (!rep->cycles)
			goto out;
	}
	for (c = 0; c < t.nroots; c++)
		if (record_cycle(ck, t.roots[c], t.comp, t.index, t.fstack))
			goto out;
	error = 0;
out:
	free(t.index);
	free(t.low);
	free(t.comp);
	free(t.tstack);
	free(t.fstack);
	free(t.fpos);
	free(t.roots);
	return error;
}

void ck_count_channels(struct checker *ck)
{
	uint64_t nchan = (uint64_t)ck->cdg.nlinks * NUM_VLS, i;

	for (i = 0; i < nchan / 64 + 1; i++)
		ck->rep->c.channels += __builtin_popcountll(ck->cdg.used[i]);
}
