// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The Dragonfly mis-cabling report (see miscable.h and miscable_fam.h).
 * The Dragonfly recognizer (topo/dragonfly.h) takes any cable between
 * groups as a global cable and any missing local cable as damage, so a
 * swapped pair of cables is mostly accepted; what counts as mis-cabled is
 * then defined on its map, as cables too many:
 *  - between two switches of a group, more local cables than the
 *    group's switch pairs have (wl);
 *  - at a switch, more global cables than the switches have (h);
 *  - between two groups, more global cables than the group pairs have
 *    (cg);
 * where each "have" is the largest count that at least 1 in 5 of the
 * switch pairs, switches or group pairs has (so damage does not lower
 * it, and a moved cable does not raise it).  The suspects are every cable
 * of such a pair, switch or group pair; a repair re-pairs their ends so
 * that no count is over (local cables first lost, global cables to group
 * pairs and switches below their counts).  Arrangements whose group
 * pairs differ by one cable (fewer groups than a h + 1) let a global
 * cable move between two group pairs below cg unseen.
 */
#include <stdlib.h>

#include "topo/dragonfly.h"
#include "topo/miscable.h"
#include "topo/miscable_fam.h"

struct dfm {
	struct ot_df *df;
	uint32_t wl, h, cg;
	uint32_t *glob;  /* per node: global cables */
	uint32_t *gpair; /* ngroups^2: global cables between two groups */
	uint32_t *local; /* per group, max_size^2: local cables by index */
};

static uint32_t *local_slot(const struct dfm *x, int32_t a, int32_t b)
{
	const struct ot_df *df = x->df;
	uint64_t ms = df->max_size;

	return &x->local[(uint64_t)df->group[a] * ms * ms +
			 (uint64_t)df->index[a] * ms + df->index[b]];
}

static uint32_t *gpair_slot(const struct dfm *x, int32_t a, int32_t b)
{
	return &x->gpair[(uint64_t)x->df->group[a] * x->df->ngroups +
			 x->df->group[b]];
}

/* Counts one cable a-b (both directions of the count arrays). */
static void count(struct dfm *x, int32_t a, int32_t b, int dir)
{
	if (x->df->group[a] == x->df->group[b]) {
		*local_slot(x, a, b) += dir;
		*local_slot(x, b, a) += dir;
		return;
	}
	x->glob[a] += dir;
	x->glob[b] += dir;
	*gpair_slot(x, a, b) += dir;
	*gpair_slot(x, b, a) += dir;
}

static int count_all(struct dfm *x, const struct ot_fabric *f)
{
	const struct ot_df *df = x->df;
	uint64_t ms = df->max_size, ng = df->ngroups;
	uint32_t n;
	unsigned int p;

	x->glob = calloc(f->nnodes + 1, sizeof(*x->glob));
	x->gpair = calloc(ng * ng + 1, sizeof(*x->gpair));
	x->local = calloc(ng * ms * ms + 1, sizeof(*x->local));
	if (!x->glob || !x->gpair || !x->local)
		return -1;
	for (n = 0; n < f->nnodes; n++) {
		if (!ot_is_switch(f, n) || df->group[n] < 0)
			continue;
		for (p = 1; p <= f->node[n].nports; p++) {
			int32_t q = f->node[n].port[p].peer;

			if (q > (int32_t)n && ot_is_switch(f, q) &&
			    df->group[q] >= 0)
				count(x, (int32_t)n, q, 1);
		}
	}
	x->wl = ot_fm_usual(x->local, ng * ms * ms);
	x->h = ot_fm_usual(x->glob, f->nnodes);
	x->cg = ot_fm_usual(x->gpair, ng * ng);
	return 0;
}

static void df_release(void *st)
{
	struct dfm *x = st;

	ot_df_free(x->df);
	free(x->glob);
	free(x->gpair);
	free(x->local);
	free(x);
}

static int df_recognize(const struct ot_fabric *f, void **st,
			struct ot_error *err)
{
	struct dfm *x = calloc(1, sizeof(*x));

	*st = NULL;
	if (!x)
		return ot_error_nomem(err, "mis-cabling report");
	if (ot_df_recognize(f, &x->df, err)) {
		free(x);
		return -1;
	}
	*st = x;
	if (count_all(x, f))
		return ot_error_nomem(err, "mis-cabling report");
	return 0;
}

/* Cables the map wants between two switches: wl in a group, else cg. */
static uint32_t df_allowed(const void *st, int32_t a, int32_t b)
{
	const struct dfm *x = st;

	if (x->df->group[a] < 0 || x->df->group[b] < 0)
		return 0;
	return x->df->group[a] == x->df->group[b] ? x->wl : x->cg;
}

static bool over(const struct dfm *x, int32_t a, int32_t b)
{
	if (x->df->group[a] == x->df->group[b])
		return *local_slot(x, a, b) > x->wl;
	return x->glob[a] > x->h || x->glob[b] > x->h ||
	       *gpair_slot(x, a, b) > x->cg;
}

static void df_odd(struct fm *m, const void *st)
{
	const struct dfm *x = st;
	uint32_t i;

	for (i = 0; i < m->nc; i++) {
		int32_t a = m->c[i].a, b = m->c[i].b;

		if (x->df->group[a] < 0 || x->df->group[b] < 0 || over(x, a, b))
			m->c[i].suspect = true;
	}
}

static bool df_take(void *st, int32_t a, int32_t b, int dir)
{
	struct dfm *x = st;

	if (x->df->group[a] < 0 || x->df->group[b] < 0)
		return false;
	count(x, a, b, dir);
	if (dir > 0 && over(x, a, b)) {
		count(x, a, b, -1);
		return false;
	}
	return true;
}

static const struct ot_fam df_fam = {
	.name = "a Dragonfly",
	.recognize = df_recognize,
	.release = df_release,
	.allowed = df_allowed,
	.odd = df_odd,
	.take = df_take,
};

int ot_df_miscabling(const struct ot_fabric *f, struct ot_miscabling *out,
		     struct ot_error *err)
{
	if (ot_dfp_looks_plus(f))
		return ot_dfp_miscabling(f, out, err);
	return ot_fam_miscabling(&df_fam, f, out, err);
}
