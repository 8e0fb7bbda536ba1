// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * hdor on fat-tree lines under heavy damage: twists instead of the escape
 * layer, per (source router, destination) rather than per destination.
 *
 * Destination-based tables give every destination LID one in-tree; the
 * path SL, though, may depend on the source (OpenSM asks it per pair),
 * and SL2VL gives each hop a VL by (node, in port, out port, SL).
 * route/hdor_ft.c routes every LID in dimension order (F); a LID that some
 * router cannot reach that way (a line it must cross lost the way
 * up*-down* from where it enters, or the router has no cable into it)
 * went, whole, to the escape layer.  Here such a LID is looked at router
 * by router:
 *
 *  - F(z): router z's dimension-order path works.  The routers after z
 *    on it are F themselves (suffixes), so the F routers' entries are the
 *    dimension-order in-tree, untouched.
 *  - A router s with CAs that is not F twists: its entry for the LID
 *    sends the packet into its line of some dimension e, to the router y
 *    of that line at coordinate v, an F router, from where y's dimension
 *    order goes on; y's F path must not cross that line again.  Minimal
 *    first (v the destination's coordinate e: the dimensions taken in
 *    another order), e from the highest down; else any e, v.  The line's
 *    switches keep their entries when v is the destination's coordinate
 *    (every line leads each LID toward it); else the line's entries for
 *    the LID turn toward v, allowed only where no F router (nor another
 *    twist) leads the LID through that line.  No F path passes s (it is
 *    not F), so its entry is read by its own CAs' packets alone.
 *  - A LID where some router with CAs finds no twist stays, whole, on the
 *    escape layer (as before).
 *
 * Deadlock freedom, on two VLs.  The twist lines get path SLs 2..15
 * (classes: a line with a twist is in one class; two lines of a class
 * never have one's twisted packets cross the other after the twist).  A
 * twisted pair carries its line's SL; SL2VL maps it to VL 1 on the
 * twist, that is from a CA port into a line of its class at the router
 * and inside the lines of its class, and to VL 0 everywhere else.  So a
 * twisted packet rides VL 1 inside one line (up*-down*), then VL 0 in
 * dimension order, never back.  VL 0 carries dimension-order paths and
 * suffixes of them only, up*-down* in each line: the ranking of
 * route/hdor_ft.c orders them.  VL 1 without escaped LIDs carries the
 * twists alone, each inside one line, up*-down* there, leaving VL 1 at
 * its end: no cycle either, and no dependency from VL 0 back to VL 1.
 * With escaped LIDs (SL 1, VL 1 on every hop, up*-down* over the whole
 * fabric, ranked in escape.c), the two kinds on VL 1 are not ordered by
 * one ranking: route/hdor_ft.c searches the channel dependency graph of
 * the finished tables and keeps twisted only the LIDs that close no
 * cycle (the others back on the escape layer, where it is acyclic).
 * Nothing here depends on node order, port numbers or GUIDs beyond what
 * the candidates of route/hdor_ft.c already fix (coordinates, stage
 * positions).
 */
#include <stdlib.h>
#include <string.h>

#include "model/cdg.h"
#include "route/hdor_ft_int.h"

/* LIDs times nodes kept for settling twists (two bytes each) */
#define TW_MAX_CELLS (64u << 20)
#define TW_MAX_LINES 2048u /* lines squared bytes for the classes */
#define TW_SL0 2           /* the first twist SL (1: the escape layer) */

struct tw_state {
	uint32_t nr;       /* k^n router positions */
	uint32_t *pw;      /* k^d */
	int8_t *okf;       /* per router position: -1 unknown, 0, 1 */
	uint16_t *lst;     /* per line: 0 free, 1 default target, 2 + v */
	uint8_t *has_ca;   /* per router position */
	/*
	 * Per router position: n when F, the twist's dimension when
	 * twisted (to a router resolved already, of a higher one), 255 not
	 * yet; the F router its path ends its twists at; its twist's line.
	 */
	uint8_t *rdim;
	uint32_t *fs, *tlin;
	uint32_t *ridx;    /* per node: router position (routers) */
	/* this LID's twists: source position, line, coordinate */
	uint32_t *ts, *tl;
	uint16_t *tv;
	uint32_t nt;
};

static unsigned int digit(const struct tw_state *s, uint32_t i,
			  unsigned int d, unsigned int k)
{
	return i / s->pw[d] % k;
}

/* Whether router position zi reaches position ti in dimension order. */
static int okf(struct ft_ctx *c, struct tw_state *s, uint32_t zi, uint32_t ti)
{
	unsigned int d, a, t, k = c->k;
	int32_t z;
	uint32_t l;
	int res;

	if (s->okf[zi] >= 0)
		return s->okf[zi];
	z = c->kns->router_at[zi];
	res = 0;
	if (z >= 0) {
		for (d = 0; d < c->n; d++)
			if (digit(s, zi, d, k) != digit(s, ti, d, k))
				break;
		if (d == c->n) {
			res = 1;
		} else {
			a = digit(s, zi, d, k);
			t = digit(s, ti, d, k);
			l = c->rline[(size_t)z * c->n + d];
			if (c->kns->lines[l].router[t] >= 0 &&
			    c->line[l].lca[a * k + t] != INF)
				res = okf(c, s, zi - a * s->pw[d] +
						  t * s->pw[d], ti);
		}
	}
	s->okf[zi] = (int8_t)res;
	return res;
}

/* The lowest dimension where positions zi and ti differ, or n. */
static unsigned int first_diff(const struct ft_ctx *c,
			       const struct tw_state *s, uint32_t zi,
			       uint32_t ti)
{
	unsigned int d;

	for (d = 0; d < c->n; d++)
		if (digit(s, zi, d, c->k) != digit(s, ti, d, c->k))
			break;
	return d;
}

/* Whether y's F path toward ti crosses line l. */
static bool f_crosses(struct ft_ctx *c, struct tw_state *s, uint32_t yi,
		      uint32_t ti, uint32_t l)
{
	unsigned int d, k = c->k;
	bool hit = false;

	while ((d = first_diff(c, s, yi, ti)) < c->n) {
		int32_t y = c->kns->router_at[yi];
		uint32_t m = c->rline[(size_t)y * c->n + d];

		hit |= m == l;
		yi = yi - digit(s, yi, d, k) * s->pw[d] +
		     digit(s, ti, d, k) * s->pw[d];
	}
	return hit;
}

/*
 * A twist for position si toward position ti, to a router resolved
 * already, F or twisted in a higher dimension: minimal when pass is 0,
 * else any.  Sets the line's state; false when none.
 */
static bool find_twist(struct ft_ctx *c, struct tw_state *s, uint32_t si,
		       uint32_t ti, unsigned int pass)
{
	unsigned int k = c->k, e, v;
	int32_t r = c->kns->router_at[si];

	for (e = c->n; e-- > 0;) {
		unsigned int a = digit(s, si, e, k);
		unsigned int te = digit(s, ti, e, k);
		uint32_t l = c->rline[(size_t)r * c->n + e];

		for (v = 0; v < k; v++) {
			uint32_t yi = si - a * s->pw[e] + v * s->pw[e];
			bool minimal = v == te;
			uint16_t want = minimal ? 1 : (uint16_t)(2 + v);

			if (v == a || minimal != (pass == 0))
				continue;
			if (c->kns->lines[l].router[v] < 0 ||
			    c->line[l].lca[a * k + v] == INF ||
			    s->rdim[yi] == 255 || s->rdim[yi] <= e)
				continue;
			if ((s->lst[l] != 0 && s->lst[l] != want) ||
			    f_crosses(c, s, s->fs[yi], ti, l))
				continue;
			s->lst[l] = want;
			s->rdim[si] = (uint8_t)e;
			s->fs[si] = s->fs[yi];
			s->tlin[si] = l;
			s->ts[s->nt] = si;
			s->tl[s->nt] = l;
			s->tv[s->nt] = (uint16_t)v;
			s->nt++;
			return true;
		}
	}
	return false;
}

/* The router position twist j of this LID leads to. */
static uint32_t after(const struct ft_ctx *c, const struct tw_state *s,
		      uint32_t j)
{
	unsigned int e = c->kns->lines[s->tl[j]].dim;

	return s->ts[j] - digit(s, s->ts[j], e, c->k) * s->pw[e] +
	       (uint32_t)s->tv[j] * s->pw[e];
}

/* The lines y's F path toward ti crosses, by dimension (n entries). */
static void f_lines(struct ft_ctx *c, struct tw_state *s, uint32_t yi,
		    uint32_t ti, uint32_t *by_dim)
{
	unsigned int d, k = c->k;

	while ((d = first_diff(c, s, yi, ti)) < c->n) {
		int32_t y = c->kns->router_at[yi];

		by_dim[d] = c->rline[(size_t)y * c->n + d];
		yi = yi - digit(s, yi, d, k) * s->pw[d] +
		     digit(s, ti, d, k) * s->pw[d];
	}
}

static uint32_t find(uint32_t *par, uint32_t x)
{
	while (par[x] != x)
		x = par[x] = par[par[x]];
	return x;
}

/*
 * The twist lines' SLs (c->cls): lines one twist leads on into are one
 * group; a group whose twists cross one of its own lines after them has
 * none; else, in line order, the lowest class none of whose groups the
 * group's twists cross after them, nor cross the group after theirs.
 * False when some group has no class (more than 16 - TW_SL0 needed).
 */
static bool colorable(struct ft_ctx *c)
{
	struct ft_twists *tw = &c->tw;
	uint32_t nl = c->kns->nlines, l, m, nf = 0, i, j;
	unsigned int sl;

	for (l = 0; l < nl; l++) {
		c->cls[l] = 0;
		if (tw->first[l])
			tw->fl[nf++] = l;
	}
	/* index the groups by their first line's place in fl */
	for (i = 0; i < nf; i++)
		tw->gi[tw->fl[i]] = UINT32_MAX;
	for (i = 0; i < nf; i++) {
		m = find(tw->par, tw->fl[i]);
		if (tw->gi[m] == UINT32_MAX || tw->gi[m] > i)
			tw->gi[m] = i;
	}
	/* agg[gi * nf + gj]: group gi's twists cross group gj after */
	memset(tw->agg, 0, (size_t)nf * nf);
	for (i = 0; i < nf; i++)
		for (j = 0; j < nf; j++)
			if (tw->conf[(size_t)tw->fl[i] * nl + tw->fl[j]])
				tw->agg[(size_t)tw->gi[find(tw->par, tw->fl[i])] *
						nf +
					tw->gi[find(tw->par, tw->fl[j])]] = 1;
	for (i = 0; i < nf; i++) {
		uint32_t g = find(tw->par, tw->fl[i]), gi = tw->gi[g];

		if (gi != i)
			continue; /* a group is coloured at its first line */
		if (tw->agg[(size_t)gi * nf + gi])
			return false;
		for (sl = TW_SL0; sl < OT_NUM_SLS; sl++) {
			for (j = 0; j < i; j++) {
				uint32_t gj = tw->gi[find(tw->par, tw->fl[j])];

				if (c->cls[tw->fl[j]] == sl &&
				    (tw->agg[(size_t)gi * nf + gj] ||
				     tw->agg[(size_t)gj * nf + gi]))
					break;
			}
			if (j == i)
				break;
		}
		if (sl == OT_NUM_SLS)
			return false;
		for (j = i; j < nf; j++)
			if (find(tw->par, tw->fl[j]) == g)
				c->cls[tw->fl[j]] = (uint8_t)sl;
	}
	return true;
}

/*
 * Of line l's candidates from local node i toward router v, one by the
 * LID's place seq in the base order (not by the LID: numbering is not
 * the fabric's).
 */
static uint8_t port_to(const struct ft_ctx *c, uint32_t l, uint32_t i,
		       unsigned int v, uint32_t seq)
{
	unsigned int m;
	const uint8_t *cp = cands(c, l, i, c->kns->lines[l].nsw + v, &m);

	return m ? cp[seq % m] : OT_NO_PORT;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int add_key(struct ft_ctx *c, uint64_t key, uint32_t *cap)
{
	struct ft_twists *tw = &c->tw;

	if (tw->nkeys == *cap) {
		uint64_t *more;

		*cap = *cap ? 2 * *cap : 256;
		more = realloc(tw->keys, *cap * sizeof(*more));
		if (!more)
			return ot_error_nomem(c->err, "hdor");
		tw->keys = more;
	}
	tw->keys[tw->nkeys++] = key;
	return 0;
}

/* LID lid (escaped) by F and twists, if every router with CAs can. */
static int try_lid(struct ft_ctx *c, struct tw_state *s, uint16_t lid,
		   uint32_t seq, uint8_t **lft, uint32_t *cap)
{
	const struct ot_kns *kns = c->kns;
	const struct ft_dest *dst = &c->dest[lid];
	struct ft_twists *tw = &c->tw;
	uint32_t zi, ti = s->ridx[dst->node], j, i, nundo;
	unsigned int d, pass;

	memset(s->okf, -1, s->nr);
	memset(s->lst, 0, kns->nlines * sizeof(*s->lst));
	s->nt = 0;
	/* the lines F routers lead the LID through keep its target */
	for (zi = 0; zi < s->nr; zi++) {
		int32_t z = kns->router_at[zi];

		if (z < 0 || zi == ti || !okf(c, s, zi, ti))
			continue;
		d = first_diff(c, s, zi, ti);
		s->lst[c->rline[(size_t)z * c->n + d]] = 1;
	}
	for (zi = 0; zi < s->nr; zi++) {
		bool f = kns->router_at[zi] >= 0 && okf(c, s, zi, ti);

		s->rdim[zi] = f ? (uint8_t)c->n : 255;
		s->fs[zi] = zi;
	}
	/* rounds: minimal twists while some router finds one, then any */
	for (pass = 0; pass < 2;) {
		bool more = false;

		for (zi = 0; zi < s->nr; zi++)
			if (kns->router_at[zi] >= 0 && s->rdim[zi] == 255)
				more |= find_twist(c, s, zi, ti, pass);
		pass = more ? 0 : pass + 1;
	}
	for (zi = 0; zi < s->nr; zi++)
		if (s->has_ca[zi] && s->rdim[zi] == 255)
			return 0;
	/* the classes with this LID's twists, or the LID stays escaped */
	memcpy(tw->par0, tw->par, kns->nlines * sizeof(*tw->par));
	nundo = 0;
	for (j = 0; j < s->nt; j++) {
		uint32_t l = s->tl[j];
		uint32_t yi = after(c, s, j);
		uint8_t *row = tw->conf + (size_t)l * kns->nlines;
		unsigned int e;

		if (s->rdim[yi] < c->n) /* on into y's twist: one class */
			tw->par[find(tw->par, l)] = find(tw->par, s->tlin[yi]);
		if (!tw->first[l]) {
			tw->first[l] = 1;
			tw->undo[nundo++] = UINT32_MAX - l;
		}
		for (e = 0, yi = s->fs[yi]; e < c->n; e++)
			tw->mark[e] = UINT32_MAX;
		f_lines(c, s, yi, ti, tw->mark);
		for (e = 0; e < c->n; e++)
			if (tw->mark[e] != UINT32_MAX && !row[tw->mark[e]]) {
				row[tw->mark[e]] = 1;
				tw->undo[nundo++] = l * kns->nlines +
						    tw->mark[e];
			}
	}
	if (!colorable(c)) {
		memcpy(tw->par, tw->par0, kns->nlines * sizeof(*tw->par));
		while (nundo--) {
			uint32_t u = tw->undo[nundo];

			if (u > UINT32_MAX - kns->nlines)
				tw->first[UINT32_MAX - u] = 0;
			else
				tw->conf[u] = 0;
		}
		return 0;
	}
	for (j = 0; j < s->nt; j++) {
		uint32_t l = s->tl[j], w;
		int32_t r = kns->router_at[s->ts[j]];
		const struct ot_kns_line *ln = &kns->lines[l];

		lft[r][lid] = port_to(c, l, (uint32_t)local(c, l, r),
				      s->tv[j], seq);
		if (s->lst[l] >= 2)
			for (w = 0; w < ln->nsw; w++)
				lft[ln->sw[w]][lid] =
					port_to(c, l, w, s->tv[j], seq);
		if (add_key(c, ((uint64_t)r << 16 | lid) << 16 | l, cap))
			return -1;
	}
	tw->lid[tw->n] = lid;
	for (i = 0; i < c->f->nnodes; i++)
		if (lft[i])
			tw->twcol[(size_t)tw->n * c->f->nnodes + i] =
				lft[i][lid];
	tw->kend[tw->n++] = tw->nkeys;
	return 0;
}

/*
 * The escaped CA and router LIDs, each by F and twists where every
 * router with CAs finds one (see the top); c->twist sorted.
 */
int ot_hdor_ft_twist(struct ft_ctx *c, uint8_t **lft)
{
	const struct ot_kns *kns = c->kns;
	const struct ot_fabric *f = c->f;
	struct tw_state s = { 0 };
	uint32_t i, m, cap = 0;
	unsigned int d, p;
	int error = 0;

	if (!c->any_escape || c->n > 16)
		return 0;
	s.pw = malloc((c->n + 1) * sizeof(*s.pw));
	if (!s.pw)
		return ot_error_nomem(c->err, "hdor");
	s.pw[0] = 1;
	for (d = 0; d < c->n; d++)
		s.pw[d + 1] = s.pw[d] * c->k;
	s.nr = s.pw[c->n];
	s.okf = malloc(s.nr);
	s.rdim = malloc(s.nr);
	s.fs = malloc(s.nr * sizeof(*s.fs));
	s.tlin = malloc(s.nr * sizeof(*s.tlin));
	s.lst = malloc(((size_t)kns->nlines + 1) * sizeof(*s.lst));
	s.has_ca = calloc(s.nr, 1);
	s.ridx = calloc((size_t)f->nnodes + 1, sizeof(*s.ridx));
	s.ts = malloc(((size_t)s.nr + 1) * sizeof(*s.ts));
	s.tl = malloc(((size_t)s.nr + 1) * sizeof(*s.tl));
	s.tv = malloc(((size_t)s.nr + 1) * sizeof(*s.tv));
	if (!s.okf || !s.rdim || !s.fs || !s.tlin || !s.lst || !s.has_ca ||
	    !s.ridx || !s.ts || !s.tl || !s.tv) {
		error = ot_error_nomem(c->err, "hdor");
		goto out;
	}
	for (i = 0; i < s.nr; i++) {
		int32_t r = kns->router_at[i];

		if (r < 0)
			continue;
		s.ridx[r] = i;
		for (p = 1; p <= f->node[r].nports; p++) {
			int32_t y = f->node[r].port[p].peer;

			if (y >= 0 && kns->role[y] == OT_KNS_CA)
				s.has_ca[i] = 1;
		}
	}
	m = 0;
	for (i = 0; i < c->norder; i++)
		m += c->escape[c->order[c->n][i]];
	if ((uint64_t)m * f->nnodes > TW_MAX_CELLS ||
	    kns->nlines > TW_MAX_LINES)
		goto out; /* too many to settle: the escape layer, as before */
	c->tw.conf = calloc((size_t)kns->nlines * kns->nlines + 1, 1);
	c->tw.first = calloc((size_t)kns->nlines + 1, 1);
	c->cls = calloc((size_t)kns->nlines + 1, 1);
	c->tw.par = malloc(((size_t)kns->nlines + 1) * sizeof(*c->tw.par));
	c->tw.par0 = malloc(((size_t)kns->nlines + 1) * sizeof(*c->tw.par));
	c->tw.fl = malloc(((size_t)kns->nlines + 1) * sizeof(*c->tw.fl));
	c->tw.gi = malloc(((size_t)kns->nlines + 1) * sizeof(*c->tw.gi));
	c->tw.agg = malloc((size_t)kns->nlines * kns->nlines + 1);
	c->tw.undo = malloc(((size_t)s.nr * (c->n + 1) + kns->nlines + 1) *
			    sizeof(*c->tw.undo));
	c->tw.mark = malloc((c->n + 1) * sizeof(*c->tw.mark));
	if (!c->tw.conf || !c->tw.first || !c->cls || !c->tw.par ||
	    !c->tw.par0 || !c->tw.fl || !c->tw.gi || !c->tw.agg ||
	    !c->tw.undo || !c->tw.mark) {
		error = ot_error_nomem(c->err, "hdor");
		goto out;
	}
	c->tw.lid = malloc(((size_t)m + 1) * sizeof(*c->tw.lid));
	c->tw.kend = malloc(((size_t)m + 1) * sizeof(*c->tw.kend));
	c->tw.on = calloc((size_t)m + 1, 1);
	c->tw.twcol = malloc((size_t)m * f->nnodes + 1);
	c->tw.escol = malloc((size_t)m * f->nnodes + 1);
	if (!c->tw.lid || !c->tw.kend || !c->tw.on || !c->tw.twcol ||
	    !c->tw.escol) {
		error = ot_error_nomem(c->err, "hdor");
		goto out;
	}
	for (i = 0; i < kns->nlines; i++)
		c->tw.par[i] = i;
	for (i = 0; i < c->norder && !error; i++) {
		uint16_t lid = c->order[c->n][i];
		const struct ft_dest *dst = &c->dest[lid];

		if (!c->escape[lid] || dst->kind == DEST_SWITCH ||
		    dst->kind == DEST_NONE ||
		    kns->router_at[s.ridx[dst->node]] != dst->node)
			continue;
		error = try_lid(c, &s, lid, i, lft, &cap);
	}
	if (!error)
		colorable(c); /* the last LID's classes, kept */
out:
	free(s.pw);
	free(s.okf);
	free(s.rdim);
	free(s.fs);
	free(s.tlin);
	free(s.lst);
	free(s.has_ca);
	free(s.ridx);
	free(s.ts);
	free(s.tl);
	free(s.tv);
	return error;
}

/* The escape layer's entries of the twistable LIDs, as escape_fill set. */
void ot_hdor_ft_twist_keep_escape(struct ft_ctx *c, uint8_t **lft)
{
	struct ft_twists *tw = &c->tw;
	uint32_t j, i, nn = c->f->nnodes;

	for (j = 0; j < tw->n; j++)
		for (i = 0; i < nn; i++)
			if (lft[i])
				tw->escol[(size_t)j * nn + i] =
					lft[i][tw->lid[j]];
}

/*
 * Twistable LIDs lo..hi-1 twisted (on) or on the escape layer, their
 * entries in lft; then c->twist: the sorted keys of the twisted ones.
 */
int ot_hdor_ft_twist_set(struct ft_ctx *c, uint8_t **lft, uint32_t lo,
			 uint32_t hi, bool on)
{
	struct ft_twists *tw = &c->tw;
	const uint8_t *col;
	uint32_t j, i, nn = c->f->nnodes, m = 0;

	for (j = lo; j < hi; j++) {
		col = (on ? tw->twcol : tw->escol) + (size_t)j * nn;
		for (i = 0; i < nn; i++)
			if (lft[i])
				lft[i][tw->lid[j]] = col[i];
		tw->on[j] = on;
		c->escape[tw->lid[j]] = !on;
	}
	free(c->twist);
	c->twist = NULL;
	c->ntwist = 0;
	for (j = 0; j < tw->n; j++)
		if (tw->on[j])
			m += tw->kend[j] - (j ? tw->kend[j - 1] : 0);
	if (m && !(c->twist = malloc(m * sizeof(*c->twist))))
		return ot_error_nomem(c->err, "hdor");
	for (j = 0; j < tw->n; j++)
		for (i = j ? tw->kend[j - 1] : 0; tw->on[j] && i < tw->kend[j];
		     i++)
			c->twist[c->ntwist++] = tw->keys[i];
	if (c->ntwist)
		qsort(c->twist, c->ntwist, sizeof(*c->twist), cmp_u64);
	c->any_escape = false;
	for (i = 1; i <= c->f->max_lid; i++)
		c->any_escape |= c->escape[i] != 0;
	return 0;
}

int32_t ot_hdor_ft_twisted(const uint64_t *keys, uint32_t n, int32_t router,
			   uint16_t lid)
{
	uint64_t key = (uint64_t)router << 16 | lid;
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (keys[mid] >> 16 == key)
			return (int32_t)(keys[mid] & 0xffff);
		if (keys[mid] >> 16 < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/*
 * SL2VL of every node (see the top): SL 1 (the escape layer) on VL 1
 * everywhere, the SL of escape layer i > 0 (route/hdor_ft_esc.c) on VL
 * 1 + i; a twist SL on VL 1 inside the lines of its class and from a CA
 * port into one of them; everything else on VL 0.
 */
int ot_hdor_ft_twist_sl2vl(struct ft_ctx *c, struct ot_routing *out)
{
	const struct ot_kns *kns = c->kns;
	const struct ot_fabric *f = c->f;
	uint32_t x;
	unsigned int in, o, np, sl;

	for (x = 0; x < f->nnodes; x++) {
		uint8_t *t = ot_routing_sl2vl_new(out, x);
		int32_t own = kns->role[x] == OT_KNS_SWITCH ? kns->line[x] : -1;

		if (!t)
			return ot_error_nomem(c->err, "hdor");
		np = f->node[x].nports;
		for (in = 0; in <= np; in++)
			for (o = 0; o <= np; o++) {
				int32_t l = own, pi, po;

				if (kns->role[x] == OT_KNS_ROUTER) {
					pi = in ? f->node[x].port[in].peer : -1;
					po = o ? f->node[x].port[o].peer : -1;
					l = pi >= 0 && po >= 0 &&
					    kns->role[po] == OT_KNS_SWITCH ?
					    kns->line[po] : -1;
					/* on from a CA, or a line of its class */
					if (l >= 0 && c->cls &&
					    kns->role[pi] == OT_KNS_SWITCH &&
					    c->cls[kns->line[pi]] != c->cls[l])
						l = -1;
				}
				for (sl = 1; sl < OT_NUM_SLS; sl++)
					t[ot_sl2vl_index(np, in, o, sl)] =
						sl == ESC_SL ||
						(c->cls && l >= 0 &&
						 c->cls[l] == sl);
				for (sl = 1; sl < c->nlay; sl++)
					t[ot_sl2vl_index(np, in, o,
							 c->lsl[sl])] =
						(uint8_t)(1 + sl);
			}
	}
	return 0;
}

/* 1 when r's channel dependency graph has a cycle, 0 not, -1 on OOM. */
int ot_hdor_ft_twist_cyclic(const struct ot_routing *r)
{
	struct ot_cdg g;
	struct ot_cdg_sccs sc;
	int res;

	if (ot_cdg_init(&g, r->fabric))
		return -1;
	if (ot_cdg_build_unicast(&g, r) || ot_cdg_sccs(&g, 0, &sc)) {
		ot_cdg_free(&g);
		return -1;
	}
	res = sc.nloops > 0;
	ot_cdg_sccs_free(&sc);
	ot_cdg_free(&g);
	return res;
}
