// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The channel dependencies of unicast traffic (cdg.h): once per
 * (destination LID, SL), from the switches the forwarding tree's sources
 * use.  The checker calls ot_unicast_deps_toward() in its walk over the
 * destinations; ot_cdg_build_unicast() walks them itself, for the
 * multicast tree builder, which needs unicast's graph and nothing else.
 */
#include <stdlib.h>
#include <string.h>

#include "model/cdg.h"
#include "model/sort.h"

int ot_unicast_deps_init(struct ot_unicast_deps *d, struct ot_cdg *g,
			 struct ot_endpoints *eps, const struct ot_routing *r)
{
	size_t nn = r->fabric->nnodes ? r->fabric->nnodes : 1;
	uint32_t n;

	memset(d, 0, sizeof(*d));
	d->r = r;
	d->f = r->fabric;
	d->g = g;
	d->eps = eps;
	d->vstamp = calloc(nn, sizeof(*d->vstamp));
	d->vlset = calloc(nn, sizeof(*d->vlset));
	d->vused = calloc(nn, sizeof(*d->vused));
	d->sw_sl_mask = calloc(nn, sizeof(*d->sw_sl_mask));
	d->seed_sw = calloc(nn * OT_NUM_SLS, sizeof(*d->seed_sw));
	d->seed_vls = calloc(nn * OT_NUM_SLS, sizeof(*d->seed_vls));
	d->ca_vls = calloc(nn, sizeof(*d->ca_vls));
	d->swidx = malloc(nn * sizeof(*d->swidx));
	d->swnode = malloc(nn * sizeof(*d->swnode));
	if (!d->vstamp || !d->vlset || !d->vused || !d->sw_sl_mask ||
	    !d->seed_sw || !d->seed_vls || !d->ca_vls || !d->swidx ||
	    !d->swnode)
		goto oom;
	for (n = 0; n < d->f->nnodes; n++) {
		d->swidx[n] = UINT32_MAX;
		if (ot_is_switch(d->f, n)) {
			d->swidx[n] = d->nsw;
			d->swnode[d->nsw++] = n;
		}
	}
	d->pending = malloc(((size_t)d->nsw * OT_UNICAST_BLOCK + 1) *
			    sizeof(*d->pending));
	d->npending = calloc(d->nsw + 1, 1);
	if (!d->pending || !d->npending)
		goto oom;
	return 0;
oom:
	ot_unicast_deps_free(d);
	return -1;
}

void ot_unicast_deps_free(struct ot_unicast_deps *d)
{
	uint32_t i;

	if (d->ca_vls)
		for (i = 0; i < d->f->nnodes; i++)
			free(d->ca_vls[i]);
	free(d->ca_vls);
	free(d->vstamp);
	free(d->vlset);
	free(d->vused);
	free(d->sw_sl_mask);
	free(d->seed_sw);
	free(d->seed_vls);
	free(d->swidx);
	free(d->swnode);
	free(d->pending);
	free(d->npending);
	memset(d, 0, sizeof(*d));
}

/* VLs the CAs of switch s inject toward output port out on SL sl. */
static uint16_t ca_vls(struct ot_unicast_deps *d, int32_t s, unsigned int out,
		       unsigned int sl)
{
	const struct ot_endpoints *e = d->eps;
	unsigned int np = d->f->node[s].nports;
	uint16_t *cache = d->ca_vls[s];
	uint16_t mask = 0;
	uint32_t i;

	if (!cache) {
		/* 0 means "not computed": a switch with sources has a VL */
		cache = calloc((size_t)(np + 1) * OT_NUM_SLS, sizeof(*cache));
		if (!cache)
			return 0;
		d->ca_vls[s] = cache;
	}
	if (!d->r->sl2vl[s])
		return 1; /* every SL on VL 0 */
	if (cache[out * OT_NUM_SLS + sl])
		return cache[out * OT_NUM_SLS + sl];
	for (i = e->src_start[s]; i < e->src_start[s + 1]; i++)
		mask |= 1u << ot_cdg_vl(d->r, s, e->ep[e->src_list[i]].sw_port,
					out, sl);
	cache[out * OT_NUM_SLS + sl] = mask;
	return mask;
}

static void add_seed(struct ot_unicast_deps *d, unsigned int sl, int32_t s,
		     uint16_t vls)
{
	uint32_t k = sl * d->f->nnodes + d->seed_n[sl]++;

	d->seed_sw[k] = s;
	d->seed_vls[k] = vls;
}

static uint8_t path_sl(const struct ot_routing *r, uint16_t slid,
		       uint16_t dlid)
{
	uint8_t sl = ot_routing_path_sl(r, slid, dlid);

	return sl < OT_NUM_SLS ? sl : 0;
}

/*
 * The path SL of switch s's sources toward dd, s not being the
 * destination's switch, when r->path_sl_by_switch: its first source's.
 */
static uint8_t switch_sl(const struct ot_unicast_deps *d, int32_t s,
			 const struct ot_dest *dd)
{
	const struct ot_endpoints *e = d->eps;

	return path_sl(d->r, e->ep[e->src_list[e->src_start[s]]].lid,
		       dd->lid);
}

/*
 * Seeds for the channel dependencies toward one destination LID: for each
 * SL, the source switches whose CAs send on it and the VLs those CAs'
 * packets leave the switch on.  When every source of a switch has the
 * same SL (the engine has no path_sl: SL 0; or its path SL is by switch)
 * the switch's VLs come from a cache; otherwise the sources are grouped
 * by the SL each gets.
 */
static int make_seeds(struct ot_unicast_deps *d, const struct ot_fwdtree *t,
		      const struct ot_dest *dd)
{
	struct ot_endpoints *e = d->eps;
	const struct ot_endpoint *dst = &e->ep[dd->ep];
	bool uniform = !d->r->path_sl;
	bool by_switch = uniform || d->r->path_sl_by_switch;
	uint32_t k, i;

	memset(d->seed_n, 0, sizeof(d->seed_n));
	for (k = 0; k < e->nsrc_switches; k++) {
		int32_t s = e->src_switches[k];
		uint8_t out = t->outp[s];
		uint16_t vls[OT_NUM_SLS];
		uint16_t sls = 0;
		unsigned int sl;

		if (t->stamp[s] != t->cur || t->state[s] != OT_FWD_REACH ||
		    !ot_sources_at(e, s, dd->ep))
			continue;
		if (by_switch && s != dst->sw) {
			uint16_t m;

			sl = uniform ? 0 : switch_sl(d, s, dd);
			m = ca_vls(d, s, out, sl);
			if (!m)
				return -1;
			d->sw_sl_mask[s] |= 1u << sl;
			add_seed(d, sl, s, m);
			continue;
		}
		memset(vls, 0, sizeof(vls));
		for (i = e->src_start[s]; i < e->src_start[s + 1]; i++) {
			uint32_t src = e->src_list[i];
			struct ot_endpoint *x = &e->ep[src];

			if (src == dd->ep)
				continue;
			sl = uniform ? 0 : path_sl(d->r, x->lid, dd->lid);
			x->sl_mask |= 1u << sl;
			sls |= 1u << sl;
			vls[sl] |= 1u << ot_cdg_vl(d->r, s, x->sw_port, out, sl);
		}
		for (sl = 0; sl < OT_NUM_SLS; sl++)
			if (sls & (1u << sl))
				add_seed(d, sl, s, vls[sl]);
	}
	return 0;
}

/* Marks the switches downstream of a seed and the VLs they send on. */
static void mark_downstream(struct ot_unicast_deps *d,
			    const struct ot_fwdtree *t, int32_t s,
			    uint16_t vls, unsigned int sl)
{
	const struct ot_fabric *f = d->f;
	int32_t x = s;

	for (;;) {
		bool first = d->vstamp[x] != d->vcur;
		const struct ot_port *p;

		if (first) {
			d->vstamp[x] = d->vcur;
			d->vlset[x] = 0;
			d->vused[d->nvused++] = x;
		}
		d->vlset[x] |= vls;
		/* what lies downstream depends on x being used, not on how */
		if (!first || t->info[x] == 1)
			return;
		p = &f->node[x].port[t->outp[x]];
		x = p->peer;
		vls = 1u << ot_cdg_vl(d->r, x, p->peer_port, t->outp[x], sl);
	}
}

/*
 * A pending key: x's output link, the VLs x sends on it, the next
 * switch's output port (OT_NO_PORT when the next hop is the last, into
 * the destination's CA) and the VL it takes there.
 */
static uint64_t pending_key(uint32_t link, uint16_t vls, uint8_t yout,
			    uint8_t yvl)
{
	return (uint64_t)link << 28 | (uint64_t)vls << 12 |
	       (uint64_t)yout << 4 | yvl;
}

/* The dependencies (and used channels) of one pending key of node x. */
static int add_key(struct ot_unicast_deps *d, int32_t x, uint64_t key)
{
	struct ot_cdg *g = d->g;
	uint32_t from = (uint32_t)(key >> 28) * OT_CDG_VLS;
	unsigned int vls = (uint16_t)(key >> 12), vl;
	uint8_t yout = (uint8_t)(key >> 4), yvl = key & 0xf;
	int32_t y = g->f->node[x].port[ot_cdg_channel_port(g, from)].peer;

	for (; vls; vls &= vls - 1) {
		vl = (unsigned int)__builtin_ctz(vls);
		g->used[(from + vl) / 64] |= 1ull << ((from + vl) % 64);
		if (yout != OT_NO_PORT &&
		    ot_cdg_add(g, from + vl, y, yout, yvl) < 0)
			return -1;
	}
	return 0;
}

/* The pending dependencies into the graph, switch by switch. */
static int flush(struct ot_unicast_deps *d)
{
	uint32_t s;
	unsigned int i;

	for (s = 0; s < d->nsw; s++) {
		const uint64_t *k = d->pending + (size_t)s * OT_UNICAST_BLOCK;

		for (i = 0; i < d->npending[s]; i++)
			if ((!i || k[i] != k[i - 1]) &&
			    (i < 2 || k[i] != k[i - 2]) &&
			    add_key(d, d->swnode[s], k[i]))
				return -1;
		d->npending[s] = 0;
	}
	d->npasses = 0;
	return 0;
}

/*
 * One pass (destination LID, SL): a used switch x forwarding to switch y
 * makes each VL x sends on depend on the VL y gives packets arriving from
 * x.  Channels into a CA end every chain and can be in no cycle, so they
 * are left out of the graph.  The dependencies wait in d->pending.
 */
static int add_dependencies(struct ot_unicast_deps *d,
			    const struct ot_fwdtree *t, unsigned int sl)
{
	const struct ot_fabric *f = d->f;
	uint32_t i;

	if (d->npasses == OT_UNICAST_BLOCK && flush(d))
		return -1;
	for (i = 0; i < d->nvused; i++) {
		int32_t x = d->vused[i], y;
		const struct ot_port *p;
		uint8_t out = t->outp[x], yout = OT_NO_PORT, yvl = 0;
		uint32_t s = d->swidx[x];

		d->vls_used |= d->vlset[x];
		if (t->info[x] == 1)
			continue;
		p = &f->node[x].port[out];
		y = p->peer;
		if (t->info[y] != 1) {
			yout = t->outp[y];
			yvl = ot_cdg_vl(d->r, y, p->peer_port, yout, sl);
		}
		d->pending[(size_t)s * OT_UNICAST_BLOCK + d->npending[s]++] =
			pending_key(ot_cdg_channel(d->g, x, out, 0) /
					    OT_CDG_VLS,
				    d->vlset[x], yout, yvl);
	}
	d->npasses++;
	return 0;
}

int ot_unicast_deps_toward(struct ot_unicast_deps *d,
			   const struct ot_fwdtree *t, const struct ot_dest *dd)
{
	unsigned int sl;
	uint32_t k;

	if (make_seeds(d, t, dd))
		return -1;
	for (sl = 0; sl < OT_NUM_SLS; sl++) {
		if (!d->seed_n[sl])
			continue;
		d->vcur++;
		d->nvused = 0;
		for (k = 0; k < d->seed_n[sl]; k++) {
			uint32_t j = sl * d->f->nnodes + k;

			mark_downstream(d, t, d->seed_sw[j], d->seed_vls[j],
					sl);
		}
		if (add_dependencies(d, t, sl))
			return -1;
	}
	return 0;
}

int ot_unicast_deps_finish(struct ot_unicast_deps *d)
{
	const struct ot_endpoints *e = d->eps;
	uint32_t i;
	unsigned int sl;

	if (flush(d))
		return -1;
	for (i = 0; i < e->nep; i++) {
		const struct ot_endpoint *x = &e->ep[i];
		uint16_t sls = x->sl_mask;

		if (x->sw >= 0)
			sls |= d->sw_sl_mask[x->sw];
		d->sls_used |= sls;
		for (sl = 0; sl < OT_NUM_SLS; sl++)
			if (sls & (1u << sl))
				d->vls_used |=
					1u << ot_cdg_vl(d->r, x->node, 0,
							x->port, sl);
	}
	return 0;
}

/* The destinations in LID order (a key: LID << 32 | index). */
static uint32_t *lid_order(const struct ot_endpoints *eps)
{
	uint64_t *key = malloc((eps->ndest + 1) * sizeof(*key));
	uint32_t *order = malloc((eps->ndest + 1) * sizeof(*order)), i;

	if (!key || !order) {
		free(key);
		free(order);
		return NULL;
	}
	for (i = 0; i < eps->ndest; i++)
		key[i] = (uint64_t)eps->dest[i].lid << 32 | i;
	qsort(key, eps->ndest, sizeof(*key), ot_cmp_u64);
	for (i = 0; i < eps->ndest; i++)
		order[i] = (uint32_t)key[i];
	free(key);
	return order;
}

/*
 * What the dependencies toward dd depend on, as 128 bits: the switch its
 * port hangs off, every switch's LFT entry for dd->lid (t's columns;
 * the destination switch's entry toward dd's own port marked, so that
 * the CAs of one switch compare equal), and, with path SLs, every source
 * switch's SL.  Two destinations with the same signature have the same
 * dependencies (up to a hash collision, about 2^-128 per pair): only
 * the first is walked.  Only for path SLs by switch (or none).
 */
static void signature(const struct ot_unicast_deps *d,
		      const struct ot_fwdtree *t, const struct ot_dest *dd,
		      uint64_t sig[2])
{
	const struct ot_endpoints *e = d->eps;
	const struct ot_endpoint *dst = &e->ep[dd->ep];
	uint32_t k = dd->lid - t->col_first, i;
	uint64_t a = 0x9e3779b97f4a7c15ull ^ (uint64_t)dd->attach;
	uint64_t b = 0xc2b2ae3d27d4eb4full + (uint64_t)dd->attach;

	for (i = 0; i < d->nsw; i++) {
		int32_t x = d->swnode[i];
		uint64_t v = t->col[(size_t)x * OT_FWD_BLOCK + k];

		if (x == dst->sw && v == dst->sw_port)
			v = 0x1ee;
		a = (a ^ v) * 0x100000001b3ull;
		b = (b + v) * 0xff51afd7ed558ccdull;
		b ^= b >> 29;
	}
	for (i = 0; d->r->path_sl && i < e->nsrc_switches; i++) {
		int32_t s = e->src_switches[i];
		uint64_t v = s == dst->sw ? 0x1ff : switch_sl(d, s, dd);

		a = (a ^ v) * 0x100000001b3ull;
		b = (b + v) * 0xff51afd7ed558ccdull;
		b ^= b >> 29;
	}
	sig[0] = a;
	sig[1] = b | 1; /* 0: an empty slot */
}

/* Signatures walked (open addressing, 2 words a slot). */
struct sigset {
	uint64_t *slot;
	uint64_t mask;
};

/* Whether sig was in the set; adds it if not. */
static bool sig_seen(struct sigset *ss, const uint64_t sig[2])
{
	uint64_t h = sig[0] & ss->mask;

	while (ss->slot[2 * h + 1]) {
		if (ss->slot[2 * h] == sig[0] && ss->slot[2 * h + 1] == sig[1])
			return true;
		h = (h + 1) & ss->mask;
	}
	ss->slot[2 * h] = sig[0];
	ss->slot[2 * h + 1] = sig[1];
	return false;
}

/* The tree toward dd, resolved from every source switch. */
static void resolve_sources(struct ot_fwdtree *t, const struct ot_endpoints *e,
			    const struct ot_dest *dd)
{
	const struct ot_endpoint *dst = &e->ep[dd->ep];
	uint32_t k;

	ot_fwdtree_begin(t, dst->node, dst->port, dd->lid);
	for (k = 0; k < e->nsrc_switches; k++)
		if (ot_sources_at(e, e->src_switches[k], dd->ep))
			ot_fwdtree_resolve(t, e->src_switches[k]);
}

/*
 * The destinations in LID order, the forwarding trees reading LFT columns
 * a block at a time (the LFT of a 16K fabric is 36 MB: a column read
 * switch by switch misses the cache at every switch), and a destination
 * whose signature was seen skipped: on the 16K FlatFly (8 CAs a switch,
 * 2 cables a link in one dimension) 4,096 of the 16,384 are walked.  Only
 * the graph is filled: the VLs and SLs used (struct ot_unicast_deps) may
 * miss those of skipped destinations.
 */
int ot_cdg_build_unicast(struct ot_cdg *g, const struct ot_routing *r)
{
	struct ot_endpoints eps;
	struct ot_unicast_deps d = { 0 };
	struct ot_fwdtree t = { 0 };
	struct sigset ss = { 0 };
	uint32_t *order = NULL, i, block = UINT32_MAX;
	bool dedupe = !r->path_sl || r->path_sl_by_switch;
	int rc = -1;

	if (ot_endpoints_init(&eps, r->fabric))
		return -1;
	order = lid_order(&eps);
	for (ss.mask = 1; ss.mask < 2 * (uint64_t)eps.ndest; ss.mask *= 2)
		;
	ss.slot = calloc(2 * ss.mask, sizeof(*ss.slot));
	ss.mask--;
	if (!order || !ss.slot || ot_unicast_deps_init(&d, g, &eps, r) ||
	    ot_fwdtree_init(&t, r->fabric, r))
		goto out;
	for (i = 0; i < eps.ndest; i++) {
		const struct ot_dest *dd = &eps.dest[order[i]];
		uint64_t sig[2];

		if (dd->lid / OT_FWD_BLOCK != block) {
			block = dd->lid / OT_FWD_BLOCK;
			if (ot_fwdtree_columns(&t, block * OT_FWD_BLOCK))
				goto out;
		}
		if (dedupe) {
			signature(&d, &t, dd, sig);
			if (sig_seen(&ss, sig))
				continue;
		}
		resolve_sources(&t, &eps, dd);
		if (ot_unicast_deps_toward(&d, &t, dd))
			goto out;
	}
	if (ot_unicast_deps_finish(&d))
		goto out;
	rc = 0;
out:
	free(ss.slot);
	free(order);
	ot_fwdtree_free(&t);
	ot_unicast_deps_free(&d);
	ot_endpoints_free(&eps);
	return rc;
}
