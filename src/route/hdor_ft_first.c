// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * hdor on fat-tree lines: the first line per source router, after the
 * mixing of dimension orders (route/hdor_ft_mix.c).
 *
 * Why.  The mixing gives a destination LID one order for every source.
 * A router that lost cables into its line of dimension d still sends
 * its own CAs' packets over what is left toward every LID whose order
 * crosses d first from there, and its neighbours of lower dimensions
 * reach d through it (issue 22's draw of seed 73: of the 171 flows on
 * the busiest channel, 108 were the damaged router's own sends and 63
 * its two neighbours' of dimension 0, on dimension order toward LIDs
 * the mixing left there because moving them loads the other damaged
 * router of that line).  A router's entry toward a LID that no other
 * router's path to it passes is read by its own CAs' packets alone: it
 * may take another line first for them and move no one else.
 *
 * What.  Only where the mixing keeps some order (never on an intact
 * fabric: its tables stay byte-identical).  A pair (router r with CAs,
 * CA LID) is a candidate where r's packets to the LID go in dimension
 * order (the LID not escaped, twisted from r, bounced or on another
 * order) and no other router's path to the LID passes r.  For each
 * order o the mixing uses, r's entry may point into r's line of o's
 * first dimension where r and the LID's router differ, through one of
 * that line's candidate ports (route/hdor_ft.c's, by the far end's
 * stage position); the packets then follow the tables.  Such a way is
 * taken only where the walk finds an order-o path: the dimensions
 * crossed once each, in o's order, every line crossed up then down
 * (stages rising, then falling), ending at the LID's CA in no more hops
 * than before.  Loads as the mixing counts them (every CA sending to
 * every CA LID along the tables); routers by coordinates, LIDs in the
 * base order, walked twice; a pair takes the way that lowers the sum of
 * load^8 most without raising the busiest channel.  The result is kept
 * only where the busiest channel carries strictly less than before.
 * The pair's packets carry o's SL from the source (c->fkeys).  The
 * routers a new path passes count it as a reader, so none of them
 * moves after it.
 *
 * Deadlock freedom.  o's SL maps to o's VL on every hop (the mixing's
 * SL2VL), and a first-line pair's path is an order-o path, up*-down* in
 * each line: the mixing's ranking of that VL's channels (dimension d's
 * base 2S * pos_o(d)) rises strictly on it as on the moved LIDs' paths.
 * No path on another VL changes: r's entry was read by r's own packets
 * alone (routers without CAs counted as readers too), and they leave VL
 * 0 for o's.  With twisted LIDs the mixing's VLs are not covered by the
 * ranking alone (its top comment): the caller searches the channel
 * dependency graph again and undoes every first-line entry on a cycle.
 */
#include <stdlib.h>
#include <string.h>

#include "model/routing.h"
#include "route/hdor_ft.h"
#include "route/hdor_ft_int.h"

/* Passes over the candidate pairs. */
#define FIRST_PASSES 2
/* The most channels a path walks. */
#define FIRST_HOPS 256

struct first {
	struct ft_ctx *c;
	uint8_t **lft;
	const uint8_t (*ord)[64];
	const uint8_t *osl;
	unsigned int norders;
	int32_t *routers;  /* every router, by coordinates */
	uint32_t nr;
	int32_t *rslot;    /* per node: router slot, or -1 */
	uint32_t *w;       /* per router slot: its CAs */
	uint16_t *lids;    /* the CA LIDs in the base order */
	uint32_t nl;
	uint32_t *lidx;    /* per LID: its index in lids */
	size_t *chan;      /* per node: its first channel */
	uint32_t nch;
	double *load;      /* per channel */
	double *delta;     /* per channel, scratch */
	uint32_t *touched;
	uint32_t ntouched;
	uint16_t *readers; /* per router slot and LID index: other routers */
	uint8_t *sl;       /* per router slot and LID index: 0, or o's SL */
	uint8_t *old;      /* per router slot and LID index: entry before */
};

/*
 * The channels (into ch) of the path from router r toward lid, its
 * first port p (0: r's entry); the routers after r into rt (the LID's
 * own last).  0 when it does not reach the LID's CA.  With o below
 * norders, also 0 unless it is an order-o path up*-down* in each line.
 */
static unsigned int walk(const struct first *s, int32_t r, unsigned int p,
			 uint16_t lid, unsigned int o, size_t *ch,
			 int32_t *rt, unsigned int *nrt)
{
	const struct ft_ctx *c = s->c;
	const struct ot_fabric *f = c->f;
	const struct ot_kns *kns = c->kns;
	const int16_t *prev = kns->coord + (size_t)r * c->n;
	unsigned int n = 0, pos = 0, i, d;
	int32_t x = r;
	bool down = false;
	int st = 0;

	*nrt = 0;
	if (!p)
		p = s->lft[r][lid];
	while (n < FIRST_HOPS) {
		if (p == 0 || p == OT_NO_PORT || p > f->node[x].nports ||
		    f->node[x].port[p].peer < 0)
			return 0;
		ch[n++] = s->chan[x] + p;
		x = f->node[x].port[p].peer;
		if (kns->role[x] == OT_KNS_CA)
			return f->lid_owner[lid].node == x ? n : 0;
		if (kns->role[x] == OT_KNS_SWITCH) {
			int sx = kns->stage[x];

			if (o < s->norders && sx < st)
				down = true;
			else if (o < s->norders && sx > st && down)
				return 0;
			st = sx;
		} else if (kns->role[x] == OT_KNS_ROUTER) {
			const int16_t *co = kns->coord + (size_t)x * c->n;

			rt[(*nrt)++] = x;
			down = false;
			st = 0;
			if (o < s->norders) {
				/* one dimension changed, later in o */
				for (i = 0; i < c->n; i++) {
					d = s->ord[o][i];
					if (co[d] != prev[d])
						break;
				}
				if (i == c->n || i < pos)
					return 0;
				pos = i + 1;
				for (i = 0; i < c->n; i++)
					if (i != d && co[i] != prev[i])
						return 0;
			}
			prev = co;
		} else {
			return 0;
		}
		p = s->lft[x][lid];
	}
	return 0;
}

static void add(struct first *s, const size_t *ch, unsigned int n, double v)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (s->delta[ch[i]] == 0)
			s->touched[s->ntouched++] = (uint32_t)ch[i];
		s->delta[ch[i]] += v;
	}
}

static double pw(double x)
{
	double y = x * x;

	y *= y;
	return y * y;
}

/* What the delta raises the sum of load^8 by; *mx its busiest. */
static double rise(const struct first *s, double *mx)
{
	double r = 0, v;
	uint32_t i;

	*mx = 0;
	for (i = 0; i < s->ntouched; i++) {
		v = s->load[s->touched[i]] + s->delta[s->touched[i]];
		r += pw(v) - pw(s->load[s->touched[i]]);
		*mx = v > *mx ? v : *mx;
	}
	return r;
}

static void clear(struct first *s, bool commit)
{
	uint32_t i;

	for (i = 0; i < s->ntouched; i++) {
		if (commit)
			s->load[s->touched[i]] += s->delta[s->touched[i]];
		s->delta[s->touched[i]] = 0;
	}
	s->ntouched = 0;
}

static double busiest(const struct first *s)
{
	double mx = 0;
	uint32_t i;

	for (i = 0; i < s->nch; i++)
		mx = s->load[i] > mx ? s->load[i] : mx;
	return mx;
}

/* Readers of the routers rt[0..n - 1] but the last, by v, toward j. */
static void read_by(struct first *s, const int32_t *rt, unsigned int n,
		    uint32_t j, int v)
{
	unsigned int i;
	size_t at;

	for (i = 0; i + 1 < n; i++) {
		if (s->rslot[rt[i]] < 0)
			continue;
		at = (size_t)s->rslot[rt[i]] * s->nl + j;
		s->readers[at] = (uint16_t)(s->readers[at] + v);
	}
}

static int setup(struct first *s)
{
	const struct ft_ctx *c = s->c;
	const struct ot_fabric *f = c->f;
	const struct ot_kns *kns = c->kns;
	uint32_t i, x, nr = 1;
	unsigned int d, p;

	for (d = 0; d < c->n; d++)
		nr *= c->k;
	s->routers = malloc(((size_t)nr + 1) * sizeof(*s->routers));
	s->rslot = malloc(((size_t)f->nnodes + 1) * sizeof(*s->rslot));
	s->chan = malloc(((size_t)f->nnodes + 1) * sizeof(*s->chan));
	s->lids = malloc(((size_t)f->max_lid + 1) * sizeof(*s->lids));
	s->lidx = calloc((size_t)f->max_lid + 1, sizeof(*s->lidx));
	if (!s->routers || !s->rslot || !s->chan || !s->lids || !s->lidx)
		return -1;
	for (x = 0; x < f->nnodes; x++) {
		s->rslot[x] = -1;
		s->chan[x] = s->nch;
		s->nch += f->node[x].nports + 1u;
	}
	for (i = 0; i < nr; i++) {
		int32_t r = kns->router_at[i];

		if (r >= 0 && s->rslot[r] < 0) {
			s->rslot[r] = (int32_t)s->nr;
			s->routers[s->nr++] = r;
		}
	}
	for (i = 0; i < c->norder; i++) {
		uint16_t lid = c->order[c->n][i];

		if (c->dest[lid].kind == DEST_CA &&
		    s->rslot[c->dest[lid].node] >= 0) {
			s->lidx[lid] = s->nl;
			s->lids[s->nl++] = lid;
		}
	}
	s->w = calloc((size_t)s->nr + 1, sizeof(*s->w));
	s->load = calloc((size_t)s->nch + 1, sizeof(*s->load));
	s->delta = calloc((size_t)s->nch + 1, sizeof(*s->delta));
	s->touched = malloc(((size_t)s->nch + 1) * sizeof(*s->touched));
	s->readers = calloc((size_t)s->nr * s->nl + 1, sizeof(*s->readers));
	s->sl = calloc((size_t)s->nr * s->nl + 1, 1);
	s->old = malloc((size_t)s->nr * s->nl + 1);
	if (!s->w || !s->load || !s->delta || !s->touched || !s->readers ||
	    !s->sl || !s->old)
		return -1;
	for (i = 0; i < s->nr; i++)
		for (p = 1; p <= f->node[s->routers[i]].nports; p++) {
			int32_t y = f->node[s->routers[i]].port[p].peer;

			s->w[i] += y >= 0 && kns->role[y] == OT_KNS_CA;
		}
	return 0;
}

static void teardown(struct first *s)
{
	free(s->routers);
	free(s->rslot);
	free(s->chan);
	free(s->lids);
	free(s->lidx);
	free(s->w);
	free(s->load);
	free(s->delta);
	free(s->touched);
	free(s->readers);
	free(s->sl);
	free(s->old);
}

/* Whether router slot i's packets toward LID index j may move. */
static bool candidate(const struct first *s, uint32_t i, uint32_t j)
{
	const struct ft_ctx *c = s->c;
	int32_t r = s->routers[i];
	uint16_t lid = s->lids[j];

	return s->w[i] && c->dest[lid].node != r && !c->escape[lid] &&
	       (!c->mixsl || !c->mixsl[lid]) &&
	       s->readers[(size_t)i * s->nl + j] == 0 &&
	       (!c->ntwist ||
		ot_hdor_ft_twisted(c->twist, c->ntwist, r, lid) < 0) &&
	       (!c->nbkeys || !ot_hdor_ft_bounced(c->bkeys, c->nbkeys, r, lid));
}

/*
 * Router slot i's best way toward LID index j (see the top), taken when
 * it lowers the sum of load^8 without raising the busiest channel above
 * top.  Whether it moved.
 */
static bool try_pair(struct first *s, uint32_t i, uint32_t j, double top,
		     size_t *ch, size_t *bch, int32_t *rt)
{
	const struct ft_ctx *c = s->c;
	const struct ot_kns *kns = c->kns;
	int32_t r = s->routers[i], t = c->dest[s->lids[j]].node;
	uint16_t lid = s->lids[j];
	double best = 0, mx, up;
	unsigned int n0, n, nrt, o, q, m, bo = 0, bq = 0, bn = 0, e, a;
	const uint8_t *cp;
	size_t at = (size_t)i * s->nl + j;
	uint32_t l;
	int32_t ri;

	n0 = walk(s, r, 0, lid, s->norders, bch, rt, &nrt);
	if (!n0)
		return false;
	for (o = 1; o < s->norders; o++) {
		if (!s->osl[o])
			continue;
		for (a = 0; a < c->n; a++) {
			e = s->ord[o][a];
			if (kns->coord[(size_t)r * c->n + e] !=
			    kns->coord[(size_t)t * c->n + e])
				break;
		}
		if (a == c->n)
			continue;
		l = c->rline[(size_t)r * c->n + e];
		ri = local(c, l, r);
		if (ri < 0 || kns->coord[(size_t)t * c->n + e] < 0)
			continue;
		cp = cands(c, l, (uint32_t)ri,
			   kns->lines[l].nsw +
			   (uint32_t)kns->coord[(size_t)t * c->n + e], &m);
		for (q = 0; q < m; q++) {
			if (cp[q] == s->lft[r][lid])
				continue;
			n = walk(s, r, cp[q], lid, o, ch, rt, &nrt);
			if (!n || n > n0)
				continue;
			add(s, bch, n0, -(double)s->w[i]);
			add(s, ch, n, (double)s->w[i]);
			up = rise(s, &mx);
			clear(s, false);
			if (up < best && mx <= top) {
				best = up;
				bo = o;
				bq = cp[q];
				bn = n;
			}
		}
	}
	if (!bo)
		return false;
	/* the old path's readers off, the new one's on */
	walk(s, r, 0, lid, s->norders, ch, rt, &nrt);
	read_by(s, rt, nrt, j, -1);
	n = walk(s, r, bq, lid, bo, ch, rt, &nrt);
	read_by(s, rt, nrt, j, 1);
	add(s, bch, n0, -(double)s->w[i]);
	add(s, ch, bn, (double)s->w[i]);
	clear(s, true);
	if (!s->sl[at])
		s->old[at] = s->lft[r][lid];
	s->lft[r][lid] = (uint8_t)bq;
	s->sl[at] = s->osl[bo];
	return true;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int ot_hdor_ft_first(struct ft_ctx *c, uint8_t **lft,
		     const uint8_t (*ord)[64], const uint8_t *osl,
		     unsigned int norders)
{
	struct first s = { .c = c, .lft = lft, .ord = ord, .osl = osl,
			   .norders = norders };
	size_t *ch = NULL, *bch = NULL;
	int32_t *rt = NULL;
	uint32_t i, j, m = 0;
	unsigned int n, nrt, pass;
	double before, top;
	bool any = false;
	int error = 0;

	for (i = 1; i < norders; i++)
		any |= osl[i] != 0;
	if (!any || c->n < 2)
		return 0;
	ch = malloc(FIRST_HOPS * sizeof(*ch));
	bch = malloc(FIRST_HOPS * sizeof(*bch));
	rt = malloc(FIRST_HOPS * sizeof(*rt));
	if (!ch || !bch || !rt || setup(&s)) {
		error = ot_error_nomem(c->err, "hdor");
		goto out;
	}
	/* every router's path toward every CA LID: loads and readers */
	for (i = 0; i < s.nr; i++)
		for (j = 0; j < s.nl; j++) {
			if (c->dest[s.lids[j]].node == s.routers[i] &&
			    !s.w[i])
				continue;
			n = walk(&s, s.routers[i], 0, s.lids[j], norders, ch,
				 rt, &nrt);
			if (s.w[i])
				add(&s, ch, n, (double)s.w[i]);
			clear(&s, true);
			read_by(&s, rt, nrt, j, 1);
		}
	before = busiest(&s);
	for (pass = 0; pass < FIRST_PASSES; pass++)
		for (i = 0; i < s.nr; i++)
			for (j = 0; j < s.nl; j++) {
				if (!candidate(&s, i, j))
					continue;
				top = busiest(&s);
				try_pair(&s, i, j, top, ch, bch, rt);
			}
	for (i = 0; i < s.nr * s.nl; i++)
		m += s.sl[i] != 0;
	if (!m)
		goto out;
	if (!(busiest(&s) < before - 1e-9)) {
		/* not better: every entry back */
		for (i = 0; i < s.nr; i++)
			for (j = 0; j < s.nl; j++)
				if (s.sl[(size_t)i * s.nl + j])
					lft[s.routers[i]][s.lids[j]] =
						s.old[(size_t)i * s.nl + j];
		goto out;
	}
	c->fkeys = malloc(m * sizeof(*c->fkeys));
	c->fundo = malloc(m * sizeof(*c->fundo));
	if (!c->fkeys || !c->fundo) {
		error = ot_error_nomem(c->err, "hdor");
		goto out;
	}
	for (i = 0; i < s.nr; i++)
		for (j = 0; j < s.nl; j++) {
			size_t at = (size_t)i * s.nl + j;
			uint64_t key = (uint64_t)(uint32_t)s.routers[i] << 16 |
				       s.lids[j];

			if (!s.sl[at])
				continue;
			c->fkeys[c->nfkeys] = key << 8 | s.sl[at];
			c->fundo[c->nfkeys++] = key << 8 | s.old[at];
		}
	qsort(c->fkeys, c->nfkeys, sizeof(*c->fkeys), cmp_u64);
out:
	teardown(&s);
	free(ch);
	free(bch);
	free(rt);
	return error;
}

void ot_hdor_ft_first_undo(struct ft_ctx *c, uint8_t **lft)
{
	uint32_t i;

	for (i = 0; i < c->nfkeys; i++)
		lft[c->fundo[i] >> 24][c->fundo[i] >> 8 & 0xffff] =
			(uint8_t)(c->fundo[i] & 0xff);
	free(c->fkeys);
	free(c->fundo);
	c->fkeys = NULL;
	c->fundo = NULL;
	c->nfkeys = 0;
}
