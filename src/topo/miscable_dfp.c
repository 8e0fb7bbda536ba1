// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The Dragonfly+ mis-cabling report (see miscable.h and miscable_fam.h;
 * recognizer: topo/dragonfly_plus.h).  ot_df_miscabling() hands a fabric
 * here when it looks like one: some switches without CAs, and few cables
 * between two switches with CAs (a Dragonfly's switches all carry CAs).
 *
 * The recognizer refuses a leaf cabled to a leaf and a spine cabled to a
 * spine of its own group; it takes a leaf cabled to a spine of another
 * group as joining the two groups, and any global cable as one.  So on
 * its map what counts as mis-cabled is:
 *  - a leaf-leaf cable, a spine-spine cable inside a group (on a map:
 *    the cable the recognizer refused; without one: inside a connected
 *    part of the leaf-spine cables, leaves being the switches with CAs);
 *  - a leaf-spine cable that bridges two groups: in a group (or part)
 *    with more leaves or spines than the groups usually have, a cable
 *    whose leaf and spine each have another neighbour of the other role
 *    but close no 4-cycle leaf-spine-leaf-spine (in a group every leaf
 *    meets every spine, so a cable inside one closes many);
 *  - cables too many, as for the Dragonfly (miscable_df.c): between a
 *    leaf and a spine more than the leaf-spine pairs have (wl), at a
 *    spine more global cables than the spines have (h), between two
 *    groups more than the group pairs have (cg), each the largest count
 *    at least 1 in 5 of its kind has (ot_fm_usual).
 * A repair pairs the ends again as leaf-spine cables inside a group and
 * spine-spine cables between groups, below those counts.  As for the
 * Dragonfly, a global cable moved between two group pairs below cg goes
 * unseen, and so does a merge of groups when merged groups are the most
 * frequent size (the usual group size is then theirs).
 */
#include <stdlib.h>
#include <string.h>

#include "model/uf.h"
#include "topo/dragonfly_plus.h"
#include "topo/miscable.h"
#include "topo/miscable_fam.h"

struct dfpm {
	struct ot_dfp *d;
	uint32_t wl, h, cg, nl, ns; /* usual counts; leaves, spines a group */
	uint32_t *glob;  /* per node: global cables */
	uint32_t *gpair; /* ngroups^2: global cables between two groups */
	uint32_t *local; /* per group, max_leaves x max_spines */
};

/*
 * The most frequent of the n counts v[] (> 0), the smaller on a tie: a
 * group's usual size (moved cables that join two groups make a few
 * groups larger; damage does not change which switches a group has).
 */
static uint32_t most_common(const uint32_t *v, uint64_t n)
{
	uint32_t hist[OT_MAX_PORTS + 2] = { 0 }, best = 1, k;
	uint64_t i;

	for (i = 0; i < n; i++)
		if (v[i])
			hist[v[i] <= OT_MAX_PORTS ? v[i] : OT_MAX_PORTS + 1]++;
	for (k = 1; k <= OT_MAX_PORTS + 1; k++)
		if (hist[k] > hist[best])
			best = k;
	return best;
}

static bool is_leaf(const struct dfpm *x, int32_t a)
{
	return x->d->role[a] == OT_DFP_LEAF;
}

/* Whether the map wants a cable kind between a and b (leaf-spine in a
 * group, spine-spine between groups). */
static bool kind_ok(const struct dfpm *x, int32_t a, int32_t b)
{
	const struct ot_dfp *d = x->d;

	if (d->group[a] < 0 || d->group[b] < 0)
		return false;
	if (d->group[a] == d->group[b])
		return is_leaf(x, a) != is_leaf(x, b);
	return !is_leaf(x, a) && !is_leaf(x, b);
}

static uint32_t *local_slot(const struct dfpm *x, int32_t a, int32_t b)
{
	const struct ot_dfp *d = x->d;
	int32_t l = is_leaf(x, a) ? a : b, s = l == a ? b : a;

	return &x->local[((uint64_t)d->group[l] * d->max_leaves +
			  (uint64_t)d->index[l]) * d->max_spines +
			 (uint64_t)d->index[s]];
}

static uint32_t *gpair_slot(const struct dfpm *x, int32_t a, int32_t b)
{
	return &x->gpair[(uint64_t)x->d->group[a] * x->d->ngroups +
			 x->d->group[b]];
}

/* Counts one cable a-b of a kind the map wants (dir 1 or -1). */
static void count(struct dfpm *x, int32_t a, int32_t b, int dir)
{
	if (x->d->group[a] == x->d->group[b]) {
		*local_slot(x, a, b) += dir;
		return;
	}
	x->glob[a] += dir;
	x->glob[b] += dir;
	*gpair_slot(x, a, b) += dir;
	*gpair_slot(x, b, a) += dir;
}

static int count_all(struct dfpm *x, const struct ot_fabric *f)
{
	const struct ot_dfp *d = x->d;
	uint64_t ng = d->ngroups;
	uint64_t nloc = ng * d->max_leaves * d->max_spines;
	uint32_t n, *sz = calloc(2 * ng + 1, sizeof(*sz));
	unsigned int p;

	x->glob = calloc(f->nnodes + 1, sizeof(*x->glob));
	x->gpair = calloc(ng * ng + 1, sizeof(*x->gpair));
	x->local = calloc(nloc + 1, sizeof(*x->local));
	if (!x->glob || !x->gpair || !x->local || !sz) {
		free(sz);
		return -1;
	}
	for (n = 0; n < f->nnodes; n++) {
		if (!ot_is_switch(f, n) || d->group[n] < 0)
			continue;
		sz[2 * d->group[n] + !is_leaf(x, n)]++;
		for (p = 1; p <= f->node[n].nports; p++) {
			int32_t q = f->node[n].port[p].peer;

			if (q > (int32_t)n && ot_is_switch(f, q) &&
			    kind_ok(x, (int32_t)n, q))
				count(x, (int32_t)n, q, 1);
		}
	}
	x->wl = ot_fm_usual(x->local, nloc);
	x->h = ot_fm_usual(x->glob, f->nnodes);
	x->cg = ot_fm_usual(x->gpair, ng * ng);
	for (n = 0; n < ng; n++) { /* leaves, spines: every other count */
		sz[n] = sz[2 * n];
		sz[ng + n] = sz[2 * n + 1];
	}
	x->nl = most_common(sz, ng);
	x->ns = most_common(sz + ng, ng);
	free(sz);
	return 0;
}

static void dfp_release(void *st)
{
	struct dfpm *x = st;

	ot_dfp_free(x->d);
	free(x->glob);
	free(x->gpair);
	free(x->local);
	free(x);
}

static int dfp_recognize(const struct ot_fabric *f, void **st,
			 struct ot_error *err)
{
	struct dfpm *x = calloc(1, sizeof(*x));

	*st = NULL;
	if (!x)
		return ot_error_nomem(err, "mis-cabling report");
	if (ot_dfp_recognize(f, &x->d, err)) {
		free(x);
		return -1;
	}
	*st = x;
	if (count_all(x, f))
		return ot_error_nomem(err, "mis-cabling report");
	return 0;
}

static uint32_t dfp_allowed(const void *st, int32_t a, int32_t b)
{
	const struct dfpm *x = st;

	if (!kind_ok(x, a, b))
		return 0;
	return x->d->group[a] == x->d->group[b] ? x->wl : x->cg;
}

static bool over(const struct dfpm *x, int32_t a, int32_t b)
{
	if (!kind_ok(x, a, b))
		return true;
	if (x->d->group[a] == x->d->group[b])
		return *local_slot(x, a, b) > x->wl;
	return x->glob[a] > x->h || x->glob[b] > x->h ||
	       *gpair_slot(x, a, b) > x->cg;
}

/*
 * Whether leaf-spine cable (l, s) closes no 4-cycle l-s-l'-s' while l has
 * another spine and s another leaf (leaf[]: the roles); part[] the
 * group (or part) of each switch.
 */
static bool bridge(const struct fm *m, const uint8_t *leaf,
		   const int32_t *part, int32_t l, int32_t s)
{
	bool s_other = false, l_other = false;
	uint32_t i, j;

	for (j = m->start[s]; j < m->start[s + 1] && !s_other; j++)
		s_other = m->nb[j] != l && leaf[m->nb[j]] &&
			  part[m->nb[j]] == part[s];
	if (!s_other)
		return false;
	for (i = m->start[l]; i < m->start[l + 1]; i++) {
		int32_t s2 = m->nb[i];

		if (s2 == s || leaf[s2] || part[s2] != part[l])
			continue;
		l_other = true;
		for (j = m->start[s]; j < m->start[s + 1]; j++) {
			int32_t l2 = m->nb[j];

			if (l2 != l && leaf[l2] && ot_fm_cables(m, l2, s2))
				return false;
		}
	}
	return l_other;
}

/*
 * Marks the bridges (above) inside the oversize parts: big[part] set,
 * part[] per switch, leaf[] the roles.
 */
static void mark_bridges(struct fm *m, const uint8_t *leaf,
			 const int32_t *part, const uint8_t *big)
{
	uint32_t i;

	for (i = 0; i < m->nc; i++) {
		int32_t a = m->c[i].a, b = m->c[i].b;
		int32_t l = leaf[a] ? a : b, s = l == a ? b : a;

		if (part[a] < 0 || part[a] != part[b] || !big[part[a]] ||
		    leaf[a] == leaf[b])
			continue;
		if (bridge(m, leaf, part, l, s))
			m->c[i].suspect = true;
	}
}

static void dfp_odd(struct fm *m, const void *st)
{
	const struct dfpm *x = st;
	const struct ot_dfp *d = x->d;
	const struct ot_fabric *f = m->f;
	uint8_t *leaf = calloc((size_t)f->nnodes + 1, 1);
	uint32_t *nl = calloc(2 * (size_t)d->ngroups + 1, sizeof(*nl));
	uint8_t *big = calloc((size_t)d->ngroups + 1, 1);
	uint32_t i, n;

	for (i = 0; i < m->nc; i++) {
		int32_t a = m->c[i].a, b = m->c[i].b;

		if (d->group[a] < 0 || d->group[b] < 0 || over(x, a, b))
			m->c[i].suspect = true;
	}
	if (!leaf || !nl || !big)
		goto out; /* no bridges then: fewer suspects, never wrong ones */
	for (n = 0; n < f->nnodes; n++)
		if (ot_is_switch(f, n) && d->group[n] >= 0) {
			leaf[n] = is_leaf(x, n);
			nl[2 * d->group[n] + !leaf[n]]++;
		}
	for (n = 0; n < d->ngroups; n++)
		big[n] = nl[2 * n] > x->nl || nl[2 * n + 1] > x->ns;
	mark_bridges(m, leaf, d->group, big);
out:
	free(leaf);
	free(nl);
	free(big);
}

static bool dfp_take(void *st, int32_t a, int32_t b, int dir)
{
	struct dfpm *x = st;

	if (!kind_ok(x, a, b))
		return false;
	count(x, a, b, dir);
	if (dir > 0 && over(x, a, b)) {
		count(x, a, b, -1);
		return false;
	}
	return true;
}

/*
 * Without the recognizer's map (it refused): leaves are the switches with
 * CAs, parts the connected parts of the leaf-spine cables; leaf-leaf
 * cables, spine-spine cables inside a part, the global cables of a spine
 * with more than the spines usually have (the map of the rest must not
 * count them) and the bridges of the oversize parts are suspects.
 */
static int dfp_suspects(struct fm *m, struct ot_error *err)
{
	const struct ot_fabric *f = m->f;
	uint32_t N = f->nnodes, i, n, np = 0, usual, *sz = NULL;
	uint8_t *leaf = calloc((size_t)N + 1, 1), *big = NULL;
	int32_t *part = malloc(((size_t)N + 1) * sizeof(*part));
	struct ot_uf *uf = ot_uf_new(N);
	unsigned int p;
	int rc = -1;

	if (!leaf || !part || !uf)
		goto out;
	for (n = 0; n < N; n++)
		for (p = 1; ot_is_switch(f, n) && p <= f->node[n].nports; p++)
			if (f->node[n].port[p].peer >= 0 &&
			    !ot_is_switch(f, f->node[n].port[p].peer))
				leaf[n] = 1;
	for (i = 0; i < m->nc; i++)
		if (leaf[m->c[i].a] != leaf[m->c[i].b])
			ot_uf_union(uf, m->c[i].a, m->c[i].b);
	for (n = 0; n < N; n++)
		part[n] = ot_is_switch(f, n) ? (int32_t)ot_uf_find(uf, n) : -1;
	sz = calloc(3 * (size_t)N + 1, sizeof(*sz));
	big = calloc((size_t)N + 1, 1);
	if (!sz || !big)
		goto out;
	for (n = 0; n < N; n++)
		if (part[n] >= 0)
			sz[2 * part[n] + !leaf[n]]++;
	for (n = 0; n < N; n++) /* leaves of each part that has some */
		if (sz[2 * n])
			sz[2 * (size_t)N + np++] = sz[2 * n];
	usual = most_common(sz + 2 * (size_t)N, np);
	for (n = 0; n < N; n++)
		big[n] = part[n] >= 0 && sz[2 * part[n]] > usual;
	/* global cables a spine: more than usual are all suspects */
	memset(sz, 0, (size_t)N * sizeof(*sz));
	for (i = 0; i < m->nc; i++) {
		int32_t a = m->c[i].a, b = m->c[i].b;

		if (!leaf[a] && !leaf[b] && part[a] != part[b]) {
			sz[a]++;
			sz[b]++;
		}
	}
	usual = ot_fm_usual(sz, N);
	for (i = 0; i < m->nc; i++) {
		int32_t a = m->c[i].a, b = m->c[i].b;

		if ((leaf[a] && leaf[b]) ||
		    (!leaf[a] && !leaf[b] &&
		     (part[a] == part[b] || sz[a] > usual || sz[b] > usual)))
			m->c[i].suspect = true;
	}
	mark_bridges(m, leaf, part, big);
	rc = 0;
out:
	if (rc)
		ot_error_nomem(err, "mis-cabling report");
	ot_uf_free(uf);
	free(leaf);
	free(part);
	free(sz);
	free(big);
	return rc;
}

static const struct ot_fam dfp_fam = {
	.name = "a Dragonfly+",
	.recognize = dfp_recognize,
	.release = dfp_release,
	.allowed = dfp_allowed,
	.suspects = dfp_suspects,
	.odd = dfp_odd,
	.take = dfp_take,
};

bool ot_dfp_looks_plus(const struct ot_fabric *f)
{
	uint32_t n, bare = 0, cables = 0, between = 0;
	unsigned int p, q;
	bool ca[2];

	for (n = 0; n < f->nnodes; n++) {
		const struct ot_node *nd = &f->node[n];

		if (!ot_is_switch(f, n))
			continue;
		ca[0] = false;
		for (p = 1; p <= nd->nports; p++)
			ca[0] |= nd->port[p].peer >= 0 &&
				 !ot_is_switch(f, nd->port[p].peer);
		bare += !ca[0];
		for (p = 1; p <= nd->nports && ca[0]; p++) {
			int32_t x = nd->port[p].peer;

			if (x < 0 || !ot_is_switch(f, x) || x == (int32_t)n)
				continue;
			ca[1] = false;
			for (q = 1; q <= f->node[x].nports; q++)
				ca[1] |= f->node[x].port[q].peer >= 0 &&
					 !ot_is_switch(f, f->node[x].port[q].peer);
			cables++;
			between += ca[1];
		}
	}
	return bare && between * 10 < cables;
}

int ot_dfp_miscabling(const struct ot_fabric *f, struct ot_miscabling *out,
		      struct ot_error *err)
{
	return ot_fam_miscabling(&dfp_fam, f, out, err);
}
