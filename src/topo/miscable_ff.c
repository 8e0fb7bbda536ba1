// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The FlatFly and hypercube mis-cabling reports (see miscable.h and
 * miscable_fam.h).  In a FlatFly (a product of full graphs) a cable u-v
 * of dimension d has, for every other neighbour w of u, either w in the
 * same line (w is cabled to v, and to every other switch cabled to both
 * u and v: the line is a full graph) or w in another dimension (then w
 * and v differ in two coordinates and have exactly two common
 * neighbours, u and the fourth corner of their square).  A cable whose
 * ends differ in two or more coordinates fails that for most w: a cable
 * is a suspect when fewer than half of the other neighbours of one of
 * its ends fit it (a missing cable costs a few, not half).
 */
#include <stdlib.h>

#include "topo/flatfly.h"
#include "topo/miscable.h"
#include "topo/miscable_fam.h"

/* Whether w, cabled to u and v, is cabled to every z cabled to both. */
static bool in_line(const struct fm *m, int32_t u, int32_t v, int32_t w)
{
	uint32_t i;

	for (i = m->start[u]; i < m->start[u + 1]; i++) {
		int32_t z = m->nb[i];

		if (z != v && z != w && ot_fm_cables(m, z, v) &&
		    !ot_fm_cables(m, w, z))
			return false;
	}
	return true;
}

/* Whether at least half of u's other neighbours fit a FlatFly cable u-v. */
static bool fits(const struct fm *m, int32_t u, int32_t v)
{
	uint32_t i, good = 0, all = 0;

	for (i = m->start[u]; i < m->start[u + 1]; i++) {
		int32_t w = m->nb[i];

		if (w == v)
			continue;
		all++;
		if (ot_fm_cables(m, w, v))
			good += in_line(m, u, v, w);
		else
			good += ot_fm_common(m, w, v) == 2;
	}
	return 2 * good >= all;
}

static int ff_suspects(struct fm *m, struct ot_error *err)
{
	uint32_t i;

	(void)err;
	for (i = 0; i < m->nc; i++)
		if (!fits(m, m->c[i].a, m->c[i].b) ||
		    !fits(m, m->c[i].b, m->c[i].a))
			m->c[i].suspect = true;
	return 0;
}

/* The map, and the width per dimension the fabric mostly has. */
struct ffm {
	struct ot_ff *ff;
	uint32_t width[OT_FF_MAX_DIMS];
};

/*
 * Per dimension, the most parallel cables among the counts that at
 * least 1 switch pair in 5 of the dimension has (the recognizer's
 * width is the most seen, a cable moved onto neighbours included).
 */
static int mode_widths(struct ffm *x, const struct ot_fabric *f)
{
	uint32_t hist[OT_FF_MAX_DIMS][OT_MAX_PORTS + 1] = { { 0 } };
	uint32_t pairs[OT_FF_MAX_DIMS] = { 0 }, n;
	uint8_t *cnt = calloc(f->nnodes + 1, 1);
	unsigned int p, d, w;

	if (!cnt)
		return -1;
	for (n = 0; n < f->nnodes; n++) {
		const struct ot_node *nd = &f->node[n];

		for (p = 1; p <= nd->nports; p++)
			if (ot_ff_port_dim(x->ff, n, p) >= 0)
				cnt[nd->port[p].peer]++;
		for (p = 1; p <= nd->nports; p++) {
			int dim = ot_ff_port_dim(x->ff, n, p);
			int32_t q = nd->port[p].peer;

			if (dim < 0 || !cnt[q])
				continue;
			hist[dim][cnt[q]]++;
			pairs[dim]++;
			cnt[q] = 0;
		}
	}
	free(cnt);
	for (d = 0; d < x->ff->ndims; d++) {
		x->width[d] = 1;
		for (w = 1; w <= OT_MAX_PORTS; w++)
			if (hist[d][w] && hist[d][w] * 5 >= pairs[d])
				x->width[d] = w;
	}
	return 0;
}

static int ff_recognize(const struct ot_fabric *f, void **st,
			struct ot_error *err)
{
	struct ffm *x = calloc(1, sizeof(*x));

	*st = NULL;
	if (!x)
		return ot_error_nomem(err, "mis-cabling report");
	if (ot_ff_map(f, &x->ff, err)) {
		free(x);
		return -1;
	}
	*st = x;
	if (mode_widths(x, f))
		return ot_error_nomem(err, "mis-cabling report");
	return 0;
}

static int hc_recognize(const struct ot_fabric *f, void **st,
			struct ot_error *err)
{
	struct ffm *x;
	unsigned int d;

	if (ff_recognize(f, st, err))
		return -1;
	x = *st;
	for (d = 0; d < x->ff->ndims; d++)
		if (x->ff->size[d] != 2)
			return ot_refuse(err, OT_ERR_TOPOLOGY,
					 "a FlatFly with %u switches in a dimension, not a hypercube",
					 x->ff->size[d]);
	return 0;
}

static void ff_release(void *st)
{
	struct ffm *x = st;

	ot_ff_free(x->ff);
	free(x);
}

/* The width of d when x and y differ in dimension d only, else 0. */
static uint32_t ff_allowed(const void *st, int32_t x, int32_t y)
{
	const struct ffm *m = st;
	const struct ot_ff *ff = m->ff;
	int32_t sx = ff->sw_slot[x], sy = ff->sw_slot[y];
	unsigned int d;
	int diff = -1;

	if (sx < 0 || sy < 0)
		return 0;
	for (d = 0; d < ff->ndims; d++) {
		if (ot_ff_coord(ff, sx, d) == ot_ff_coord(ff, sy, d))
			continue;
		if (diff >= 0)
			return 0;
		diff = (int)d;
	}
	return diff < 0 ? 0 : m->width[diff];
}

/*
 * The FlatFly suspects; when there are none (a swap that made a K4 of
 * two squares' switches fits a FlatFly line), the cables in a triangle:
 * a hypercube has none.
 */
static int hc_suspects(struct fm *m, struct ot_error *err)
{
	uint32_t i;
	bool any = false;

	if (ff_suspects(m, err))
		return -1;
	for (i = 0; i < m->nc; i++)
		any = any || m->c[i].suspect;
	for (i = 0; i < m->nc && !any; i++)
		if (ot_fm_common(m, m->c[i].a, m->c[i].b))
			m->c[i].suspect = true;
	return 0;
}

static const struct ot_fam ff_fam = {
	.name = "a FlatFly",
	.recognize = ff_recognize,
	.release = ff_release,
	.allowed = ff_allowed,
	.suspects = ff_suspects,
};

static const struct ot_fam hc_fam = {
	.name = "a hypercube",
	.recognize = hc_recognize,
	.release = ff_release,
	.allowed = ff_allowed,
	.suspects = hc_suspects,
};

int ot_ff_miscabling(const struct ot_fabric *f, struct ot_miscabling *out,
		     struct ot_error *err)
{
	return ot_fam_miscabling(&ff_fam, f, out, err);
}

int ot_hc_miscabling(const struct ot_fabric *f, struct ot_miscabling *out,
		     struct ot_error *err)
{
	return ot_fam_miscabling(&hc_fam, f, out, err);
}
