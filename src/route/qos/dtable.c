// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The DTable configuration methodology and its bandwidth correction, as
 * "Providing quality of service in Omni-Path networks" (Cano-Cano et al.)
 * states them, before any InfiniBand limit applies: N entries, weights in
 * 64-byte units, M = GMTU * w the most an entry holds, pool = N * GMTU * k
 * the weight the shares divide.  A class with maximum entry distance d
 * gets N/d entries, evenly spaced; its entries share pool * share,
 * rounded up so each covers at least one of its MTUs; the correction then
 * takes the rounding back, entry by entry.  SBT is the baseline.
 */
#include <math.h>
#include <string.h>

#include "route/qos/qos.h"

#define EPS 1e-9

static unsigned int floor_pow2(unsigned int x)
{
	unsigned int p = 1;

	while (p * 2 <= x)
		p *= 2;
	return p;
}

static unsigned int mtu_units(const struct ot_qos_table *t, unsigned int ci)
{
	unsigned int mtu = t->cls[ci].mtu ? t->cls[ci].mtu : t->gmtu;

	return mtu / OT_QOS_UNIT;
}

/* The class order of the spreading: most urgent first, then as declared. */
static void urgency_order(const struct ot_qos_table *t, unsigned int *order)
{
	unsigned int i, j, x;

	for (i = 0; i < t->nclasses; i++)
		order[i] = i;
	for (i = 1; i < t->nclasses; i++)
		for (j = i; j > 0 && t->cls[order[j - 1]].distance >
				      t->cls[order[j]].distance; j--) {
			x = order[j];
			order[j] = order[j - 1];
			order[j - 1] = x;
		}
}

/*
 * Gives class ci every d-th entry from the first offset where all of
 * them are free.  With power-of-two distances and N, this fits whenever
 * the classes' 1/d add up to at most 1 (the free entries stay unions of
 * residue classes, as in a buddy allocator).
 */
static int spread_class(struct ot_qos_arb *a, unsigned int ci, unsigned int d)
{
	unsigned int o, j;

	for (o = 0; o < d; o++) {
		for (j = o; j < a->n && a->entry[j].who < 0; j += d)
			;
		if (j < a->n)
			continue;
		for (j = o; j < a->n; j += d)
			a->entry[j].who = (int16_t)ci;
		return 0;
	}
	return -1;
}

static int spread(const struct ot_qos_table *t, struct ot_qos_arb *a,
		  struct ot_error *err)
{
	unsigned int order[OT_QOS_MAX_CLASSES], i, ci, d;
	double used = 0;

	urgency_order(t, order);
	for (i = 0; i < t->nclasses; i++) {
		ci = order[i];
		d = floor_pow2(t->cls[ci].distance < a->n ?
				       t->cls[ci].distance : a->n);
		used += 1.0 / d;
		if (used > 1 + EPS || spread_class(a, ci, d))
			return ot_refuse(err, OT_ERR_CONFIG,
					 "line %u: class '%s' needs an entry every %u of %u, but the more urgent classes leave no room (sum of 1/distance %.3g > 1)",
					 t->cls[ci].line, t->cls[ci].name, d,
					 a->n, used);
		a->c[ci].distance = d;
		a->c[ci].n = a->n / d;
	}
	return 0;
}

/* Weights from the pool, rounded up; shares before correction. */
static int size_weights(const struct ot_qos_table *t, struct ot_qos_arb *a,
			struct ot_error *err)
{
	struct ot_qos_class_result *r;
	unsigned int ci, j;

	a->total_before = 0;
	for (ci = 0; ci < t->nclasses; ci++) {
		r = &a->c[ci];
		r->mtu_units = mtu_units(t, ci);
		r->min_share = (double)r->n * r->mtu_units / a->pool;
		r->max_share = (double)r->n * a->max_weight / a->pool;
		if (t->cls[ci].share < r->min_share - EPS ||
		    t->cls[ci].share > r->max_share + EPS)
			return ot_refuse(err, OT_ERR_CONFIG,
					 "line %u: class '%s' share %.4g outside what its %u entries can be given, [%.4g, %.4g] (change its distance or mtu, or w and k)",
					 t->cls[ci].line, t->cls[ci].name,
					 t->cls[ci].share, r->n, r->min_share,
					 r->max_share);
		r->tweight = a->pool * t->cls[ci].share;
		r->entry_weight = (unsigned int)ceil(r->tweight / r->n - EPS);
		if (r->entry_weight < r->mtu_units)
			r->entry_weight = r->mtu_units;
		r->sum_before = r->n * r->entry_weight;
		a->total_before += r->sum_before;
	}
	for (j = 0; j < a->n; j++)
		if (a->entry[j].who >= 0)
			a->entry[j].weight =
				(uint16_t)a->c[a->entry[j].who].entry_weight;
	return 0;
}

/* Target share of class ci, the shares normalized to add up to 1. */
static double target(const struct ot_qos_table *t, unsigned int ci)
{
	double sum = 0;
	unsigned int i;

	for (i = 0; i < t->nclasses; i++)
		sum += t->cls[i].share;
	return t->cls[ci].share / sum;
}

static void finish(const struct ot_qos_table *t, struct ot_qos_arb *a)
{
	unsigned int ci;

	for (ci = 0; ci < t->nclasses; ci++) {
		struct ot_qos_class_result *r = &a->c[ci];

		r->share_before = (double)r->sum_before / a->total_before;
		r->dweight = -(int)lround((r->share_before - target(t, ci)) *
					  a->total_before);
	}
	ot_qos_correct(a);
	for (ci = 0; ci < t->nclasses; ci++)
		a->c[ci].worst_bytes = ot_qos_worst_bytes(a, ci);
}

static void arb_init(const struct ot_qos_table *t, unsigned int n,
		     struct ot_qos_arb *a)
{
	unsigned int j, gmtu = t->gmtu / OT_QOS_UNIT;

	memset(a, 0, sizeof(*a));
	a->n = n;
	a->nclasses = t->nclasses;
	for (j = 0; j < OT_QOS_MAX_ENTRIES; j++)
		a->entry[j].who = -1;
	a->max_weight = gmtu * t->w;
	if (a->max_weight > OT_QOS_MAX_WEIGHT)
		a->max_weight = OT_QOS_MAX_WEIGHT;
	a->pool = n * gmtu * t->k;
}

int ot_qos_dtable(const struct ot_qos_table *t, unsigned int n,
		  struct ot_qos_arb *out, struct ot_error *err)
{
	if (t->entries)
		n = t->entries;
	if (n < 1 || n > OT_QOS_MAX_ENTRIES)
		return ot_refuse(err, OT_ERR_CONFIG,
				 "arbiter entries %u outside [1, %u]", n,
				 OT_QOS_MAX_ENTRIES);
	/* Evenly spaced entries need a power of two: use the largest fit. */
	arb_init(t, floor_pow2(n), out);
	if (spread(t, out, err) || size_weights(t, out, err))
		return -1;
	finish(t, out);
	return 0;
}

int ot_qos_sbt(const struct ot_qos_table *t, struct ot_qos_arb *out,
	       struct ot_error *err)
{
	unsigned int ci;

	if (!t->nclasses)
		return ot_refuse(err, OT_ERR_CONFIG, "no class to arbitrate");
	arb_init(t, t->nclasses, out);
	/* The paper's SBT: one entry per class, weights adding up to 100. */
	out->pool = 100;
	for (ci = 0; ci < t->nclasses; ci++) {
		struct ot_qos_class_result *r = &out->c[ci];
		long wgt = lround(100 * target(t, ci));

		r->n = 1;
		r->distance = t->nclasses;
		r->mtu_units = mtu_units(t, ci);
		r->entry_weight = wgt > 0 ? (unsigned int)wgt : 1;
		r->tweight = 100 * target(t, ci);
		r->min_share = r->max_share = target(t, ci);
		r->sum_before = r->entry_weight;
		out->entry[ci].who = (int16_t)ci;
		out->entry[ci].weight = (uint16_t)r->entry_weight;
		out->total_before += r->sum_before;
	}
	out->max_weight = OT_QOS_MAX_WEIGHT;
	finish(t, out);
	return 0;
}

/* One unit more (step 1) or less (-1) on one of class ci's entries. */
static int correct_step(struct ot_qos_arb *a, unsigned int ci, int step,
			unsigned int *pos)
{
	unsigned int tries, j;

	for (tries = 0; tries < a->n; tries++) {
		j = (*pos + a->n - 1) % a->n;
		*pos = j;
		if (a->entry[j].who != (int)ci)
			continue;
		/*
		 * Every entry must still carry one MTU, and fit the 8 bits
		 * of an InfiniBand weight.  M bounds what the methodology
		 * assigns, not the correction (the paper's Table 5 goes
		 * above it).
		 */
		if (step < 0 && a->entry[j].weight <= a->c[ci].mtu_units)
			continue;
		if (step > 0 && a->entry[j].weight >= OT_QOS_MAX_WEIGHT)
			continue;
		a->entry[j].weight = (uint16_t)(a->entry[j].weight + step);
		return 0;
	}
	return -1;
}

void ot_qos_correct(struct ot_qos_arb *a)
{
	unsigned int ci, j, pos;
	int left, step;

	for (ci = 0; ci < a->nclasses; ci++) {
		left = a->c[ci].dweight;
		step = left < 0 ? -1 : 1;
		pos = a->n; /* from the end of the table, backwards */
		while (left && !correct_step(a, ci, step, &pos))
			left -= step;
		a->c[ci].unapplied = left;
	}
	a->total_after = 0;
	for (ci = 0; ci < a->nclasses; ci++)
		a->c[ci].sum_after = 0;
	for (j = 0; j < a->n; j++)
		if (a->entry[j].who >= 0 && a->entry[j].who < (int)a->nclasses)
			a->c[a->entry[j].who].sum_after += a->entry[j].weight;
	for (ci = 0; ci < a->nclasses; ci++)
		a->total_after += a->c[ci].sum_after;
	for (ci = 0; ci < a->nclasses; ci++)
		a->c[ci].share_after = a->total_after ?
			(double)a->c[ci].sum_after / a->total_after : 0;
}

/* Units an entry sends on saturated queues: whole packets of its MTU. */
static unsigned int served_units(const struct ot_qos_arb *a,
				 const struct ot_qos_entry *e)
{
	unsigned int m;

	if (e->who < 0 || !e->weight)
		return 0;
	m = a->c[e->who].mtu_units;
	return (e->weight + m - 1) / m * m;
}

unsigned int ot_qos_worst_bytes(const struct ot_qos_arb *a, unsigned int ci)
{
	unsigned int j, first = a->n, worst = 0, gap = 0, k;

	for (j = 0; j < a->n; j++)
		if (a->entry[j].who == (int)ci && a->entry[j].weight) {
			first = j;
			break;
		}
	if (first == a->n)
		return 0;
	/* Walk one cycle from the first entry; gaps wrap around. */
	for (k = 1; k <= a->n; k++) {
		const struct ot_qos_entry *e = &a->entry[(first + k) % a->n];

		if (e->who == (int)ci && e->weight) {
			if (gap > worst)
				worst = gap;
			gap = 0;
		} else {
			gap += served_units(a, e);
		}
	}
	return worst * OT_QOS_UNIT;
}
