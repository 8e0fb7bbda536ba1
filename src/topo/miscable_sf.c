// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The Slim Fly mis-cabling report (see miscable.h and miscable_fam.h).
 * A cable u-v is described by its signature: the switches cabled to both
 * ends, and the paths u-w-x-v of three cables.  The MMS graph of the
 * fabric's q has a few signatures on its cables (computed from the
 * graph itself), and another, or the same with other counts, on the
 * switch pairs that are not neighbours; a cable whose signature no MMS
 * cable has is a suspect; but when some cables have more common
 * neighbours than any MMS cable, only those are (q = 4, 5: MMS cables
 * are in no triangle, a cable between non-neighbours is).  For some q a
 * few pairs of non-neighbours share a signature with a cable, q = 7 for
 * one: a cable moved there is missed, and then the report refuses
 * rather than guess.
 */
#include <stdlib.h>

#include "topo/miscable.h"
#include "topo/miscable_fam.h"
#include "topo/slimfly.h"

/* Signatures of MMS cables kept at most (a few per q). */
#define SF_MAX_SIGS 64

struct sig {
	uint32_t common, paths;
};

static struct sig signature(const struct fm *m, int32_t u, int32_t v)
{
	struct sig s = { ot_fm_common(m, u, v), 0 };
	uint32_t i;

	for (i = m->start[u]; i < m->start[u + 1]; i++)
		if (m->nb[i] != v)
			s.paths += ot_fm_common(m, m->nb[i], v) - 1;
	return s;
}

/* The signatures of the MMS graph's cables; their count, -1 if many. */
static int mms_signatures(const struct ot_mms *mms, struct sig *out,
			  struct ot_error *err)
{
	struct fm g = { 0 };
	uint32_t v, k, n = 0, i;
	int rc = -1;

	g.start = calloc(mms->n + 1, sizeof(*g.start));
	g.nb = calloc((size_t)mms->n * mms->deg + 1, sizeof(*g.nb));
	g.cnt = calloc((size_t)mms->n * mms->deg + 1, sizeof(*g.cnt));
	if (!g.start || !g.nb || !g.cnt) {
		rc = ot_error_nomem(err, "mis-cabling report");
		goto out;
	}
	for (v = 0; v <= mms->n; v++)
		g.start[v] = v * mms->deg;
	for (k = 0; k < mms->n * mms->deg; k++) {
		g.nb[k] = (int32_t)mms->nb[k];
		g.cnt[k] = 1;
	}
	for (v = 0; v < mms->n; v++)
		for (k = 0; k < mms->deg; k++) {
			struct sig s = signature(&g, (int32_t)v, g.nb[v * mms->deg + k]);

			for (i = 0; i < n && (out[i].common != s.common ||
					      out[i].paths != s.paths); i++)
				;
			if (i < n)
				continue;
			if (n == SF_MAX_SIGS) {
				rc = ot_refuse(err, OT_ERR_TOPOLOGY,
					       "the MMS graph of q=%u has too many cable signatures",
					       mms->q);
				goto out;
			}
			out[n++] = s;
		}
	rc = (int)n;
out:
	free(g.start);
	free(g.nb);
	free(g.cnt);
	return rc;
}

static int sf_suspects(struct fm *m, struct ot_error *err)
{
	struct sig sigs[SF_MAX_SIGS];
	struct ot_mms mms;
	unsigned int q = ot_mms_q_for(m->f->nswitches);
	uint32_t i, most = 0;
	bool found = false;
	int n, k;

	if (!q)
		return ot_refuse(err, OT_ERR_TOPOLOGY,
				 "not a Slim Fly: %u switches, not 2q^2 for a prime power q",
				 m->f->nswitches);
	if (ot_mms_init(&mms, q, err))
		return -1;
	n = mms_signatures(&mms, sigs, err);
	ot_mms_free(&mms);
	if (n < 0)
		return -1;
	/*
	 * First the cables with more common neighbours than any MMS cable
	 * (in triangles when MMS cables are in none): fewer cables left out
	 * leave the recognizer fewer maps to choose from.
	 */
	for (k = 0; k < n; k++)
		most = sigs[k].common > most ? sigs[k].common : most;
	for (i = 0; i < m->nc; i++)
		if (ot_fm_common(m, m->c[i].a, m->c[i].b) > most)
			m->c[i].suspect = found = true;
	for (i = 0; i < m->nc && !found; i++) {
		struct sig s = signature(m, m->c[i].a, m->c[i].b);

		for (k = 0; k < n && (sigs[k].common != s.common ||
				      sigs[k].paths != s.paths); k++)
			;
		if (k == n)
			m->c[i].suspect = true;
	}
	return 0;
}

static int sf_recognize(const struct ot_fabric *f, void **st,
			struct ot_error *err)
{
	struct ot_sf *sf = NULL;
	int rc = ot_sf_recognize(f, &sf, err);

	*st = sf;
	return rc;
}

static void sf_release(void *st)
{
	ot_sf_free(st);
}

static uint32_t sf_allowed(const void *st, int32_t x, int32_t y)
{
	const struct ot_sf *sf = st;
	int32_t a = sf->sw_pos[x], b = sf->sw_pos[y];

	if (a < 0 || b < 0 || !ot_mms_adjacent(&sf->mms, a, b))
		return 0;
	return sf->width ? sf->width : 1;
}

static const struct ot_fam sf_fam = {
	.name = "a Slim Fly",
	.recognize = sf_recognize,
	.release = sf_release,
	.allowed = sf_allowed,
	.suspects = sf_suspects,
};

int ot_sf_miscabling(const struct ot_fabric *f, struct ot_miscabling *out,
		     struct ot_error *err)
{
	return ot_fam_miscabling(&sf_fam, f, out, err);
}
