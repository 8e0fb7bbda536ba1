// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The Slim Fly recognizer (see slimfly.h): the MMS graph of a q, built
 * from GF(q) and the generator sets, and the match of a fabric's switch
 * graph onto it.  The match maps one switch at a time, always the one
 * with the most neighbours already placed, to a position adjacent to
 * exactly the placed neighbours' positions and sharing as many
 * neighbours with every placed switch's position as the two switches
 * share; the first switch goes to (0,0,0) or (1,0,0), the two searches
 * taking turns (see place_all()).  That leaves one candidate almost
 * always, so the search rarely backtracks (and gives up after a budget,
 * 64 steps per cable end plus 100,000, on graphs that are not MMS: a
 * complete shuffled MMS graph of q <= 23 took at most 7 steps per
 * switch, the fabrics of test_slimfly's recognize_sweep).  Switches are
 * visited in the order the cabling fixes (ot_refine_switch_order():
 * colour refinement, GUIDs breaking only the ties it leaves), so the
 * answer depends on neither node order, port numbers nor, on a damaged
 * fabric, GUIDs: the origin is the switch refinement puts first (the best
 * connected), and the positions the graph's symmetry leaves open are
 * decided by that order.  With switches missing the switches left are
 * matched onto part of the MMS graph (positions may stay empty), as with
 * cables missing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/refine.h"
#include "topo/slimfly.h"

/* Exponents of xi in X_0 (t = 0) or X_1 (t = 1), per slimfly.h. */
static bool in_gen_set(unsigned int q, int delta, unsigned int t,
		       unsigned int k)
{
	unsigned int w = (q - delta) / 4;

	if (delta == 1)
		return k % 2 == t;
	if (delta == 0) /* xi^(q-1) = xi^0 belongs to X_1 too */
		return k % 2 == t || (t == 1 && k == 0);
	/* delta == -1: exponents mod q - 1 = 4w - 2 */
	if (t == 0)
		return (k % 2 == 0 && k <= 2 * w - 2) ||
		       (k % 2 == 1 && k >= 2 * w - 1 && k <= 4 * w - 3);
	return (k % 2 == 1 && k <= 2 * w - 1) ||
	       (k % 2 == 0 && (k >= 2 * w || k == 0));
}

static void add_edge(struct ot_mms *m, uint32_t a, uint32_t b)
{
	m->adj[(uint64_t)a * m->n + b] = 1;
	m->adj[(uint64_t)b * m->n + a] = 1;
}

static void build_edges(struct ot_mms *m)
{
	const struct ot_gf *g = &m->gf;
	unsigned int q = m->q, t, x, y, e, mm, c;
	uint32_t a, k;

	for (t = 0; t < 2; t++)
		for (x = 0; x < q; x++)
			for (y = 0; y < q; y++)
				for (e = 1; e < q; e++)
					if (m->in_x[t][e])
						add_edge(m, ot_mms_pos(m, t, x, y),
							 ot_mms_pos(m, t, x,
								    ot_gf_add(g, y, e)));
	for (x = 0; x < q; x++)
		for (mm = 0; mm < q; mm++)
			for (c = 0; c < q; c++)
				add_edge(m, ot_mms_pos(m, 0, x,
						       ot_gf_add(g, ot_gf_mul(g, mm, x), c)),
					 ot_mms_pos(m, 1, mm, c));
	for (a = 0; a < m->n; a++) {
		uint32_t *nb = m->nb + (uint64_t)a * m->deg, d = 0;

		for (k = 0; k < m->n && d < m->deg; k++)
			if (ot_mms_adjacent(m, a, k))
				nb[d++] = k;
	}
}

int ot_mms_init(struct ot_mms *m, unsigned int q, struct ot_error *err)
{
	unsigned int t, k;

	memset(m, 0, sizeof(*m));
	if (q < 3)
		return ot_error_set(err, "slimfly: q = %u, at least 3", q);
	if (ot_gf_init(&m->gf, q, err))
		return -1;
	m->q = q;
	m->delta = q % 4 == 3 ? -1 : (int)(q % 4);
	m->deg = (3 * q - m->delta) / 2;
	m->n = 2 * q * q;
	m->in_x[0] = calloc(q, 1);
	m->in_x[1] = calloc(q, 1);
	m->nb = malloc((uint64_t)m->n * m->deg * sizeof(*m->nb));
	m->adj = calloc((uint64_t)m->n * m->n, 1);
	if (!m->in_x[0] || !m->in_x[1] || !m->nb || !m->adj) {
		ot_mms_free(m);
		return ot_error_nomem(err, "slimfly");
	}
	for (t = 0; t < 2; t++)
		for (k = 0; k < q - 1; k++)
			if (in_gen_set(q, m->delta, t, k))
				m->in_x[t][m->gf.pow[k]] = 1;
	build_edges(m);
	return 0;
}

void ot_mms_free(struct ot_mms *m)
{
	ot_gf_free(&m->gf);
	free(m->in_x[0]);
	free(m->in_x[1]);
	free(m->nb);
	free(m->adj);
	memset(m, 0, sizeof(*m));
}

unsigned int ot_mms_q_for(uint32_t switches)
{
	unsigned int q, p, e;

	for (q = 3; 2 * q * q <= switches; q++)
		if (2 * q * q == switches && ot_gf_prime_power(q, &p, &e))
			return q;
	return 0;
}

void ot_sf_pos_str(const struct ot_mms *m, uint32_t pos, char *buf,
		   unsigned int len)
{
	unsigned int q2 = m->q * m->q;

	snprintf(buf, len, "(%u,%u,%u)", pos / q2, pos % q2 / m->q,
		 pos % m->q);
}

/* The match of the switch graph (local indices, GUID order) to MMS. */
struct sf_match {
	const struct ot_fabric *f;
	const struct ot_mms *m;
	uint32_t n;
	int32_t *node;    /* local -> fabric node */
	uint32_t *nb;     /* local adjacency, deg slots per switch */
	uint32_t *nbc;    /* neighbours of a switch (deg unless damaged) */
	bool damaged;     /* cables missing: match a subgraph of MMS */
	int32_t *map;     /* local -> position, -1 */
	int32_t *inv;     /* position -> local, -1 */
	uint32_t *cnt_a;  /* placed neighbours of a switch */
	uint32_t *cnt_r;  /* placed neighbours of a position */
	uint32_t *order;  /* the placed switches, in placing order */
	uint32_t nplaced;
	uint8_t *lam_a;   /* n * n: common neighbours of two switches */
	uint8_t *lam_r;   /* m->n * m->n: of two positions (both capped) */
	uint64_t budget;
	uint32_t first;   /* the first switch's position */
	uint32_t deepest; /* the switch that failed furthest in */
	uint32_t depth_max;
};

static void place(struct sf_match *s, uint32_t v, uint32_t c, int sign)
{
	const struct ot_mms *m = s->m;
	unsigned int k;

	s->map[v] = sign > 0 ? (int32_t)c : -1;
	if (sign > 0)
		s->order[s->nplaced++] = v;
	else
		s->nplaced--; /* undone in reverse order */
	s->inv[c] = sign > 0 ? (int32_t)v : -1;
	for (k = 0; k < s->nbc[v]; k++)
		s->cnt_a[s->nb[(uint64_t)v * m->deg + k]] += sign;
	for (k = 0; k < m->deg; k++)
		s->cnt_r[m->nb[(uint64_t)c * m->deg + k]] += sign;
}

/* The unplaced switch with the most placed neighbours (first in order). */
static uint32_t choose(const struct sf_match *s)
{
	uint32_t v, best = UINT32_MAX;

	for (v = 0; v < s->n; v++)
		if (s->map[v] < 0 &&
		    (best == UINT32_MAX || s->cnt_a[v] > s->cnt_a[best]))
			best = v;
	return best;
}

/*
 * Whether every placed switch shares as many neighbours with v as its
 * position shares with c (at most as many with cables missing).
 */
static bool common_fit(const struct sf_match *s, uint32_t v, uint32_t c)
{
	const uint8_t *la = s->lam_a + (uint64_t)v * s->n;
	const uint8_t *lr = s->lam_r + (uint64_t)c * s->m->n;
	uint32_t k;

	for (k = 0; k < s->nplaced; k++) {
		uint32_t w = s->order[k];
		int32_t u = s->map[w];

		if (la[w] == lr[u])
			continue;
		if (!s->damaged || la[w] > lr[u])
			return false;
	}
	return true;
}

/* Whether position c fits switch v given what is placed. */
static bool fits(const struct sf_match *s, uint32_t v, uint32_t c)
{
	const struct ot_mms *m = s->m;
	unsigned int k;

	if (s->inv[c] >= 0 || s->cnt_r[c] < s->cnt_a[v] ||
	    (!s->damaged && s->cnt_r[c] != s->cnt_a[v]))
		return false;
	for (k = 0; k < s->nbc[v]; k++) {
		int32_t u = s->map[s->nb[(uint64_t)v * m->deg + k]];

		if (u >= 0 && !ot_mms_adjacent(m, c, u))
			return false;
	}
	return common_fit(s, v, c);
}

static int cmp_pos(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* 1 when all is placed, 0 when no placement extends this one, -1 budget. */
static int extend(struct sf_match *s, uint32_t depth)
{
	const struct ot_mms *m = s->m;
	uint32_t v, c, k, ncand, *cand;
	int r = 0;

	if (depth == s->n)
		return 1;
	v = choose(s);
	if (depth > s->depth_max) {
		s->depth_max = depth;
		s->deepest = v;
	}
	if (!s->cnt_a[v]) {
		/* the first switch at s->first; a new part: anywhere free */
		for (c = depth ? 0 : s->first; c < m->n && r == 0; c++) {
			if ((!depth && c != s->first) || !fits(s, v, c))
				continue;
			if (!s->budget--)
				return -1;
			place(s, v, c, 1);
			r = extend(s, depth + 1);
			if (r <= 0)
				place(s, v, c, -1);
		}
		return r;
	}
	/* candidates: free neighbours of a placed neighbour's position */
	for (k = 0; k < s->nbc[v]; k++)
		if (s->map[s->nb[(uint64_t)v * m->deg + k]] >= 0)
			break;
	cand = malloc(m->deg * sizeof(*cand));
	if (!cand)
		return -1;
	c = s->map[s->nb[(uint64_t)v * m->deg + k]];
	for (k = 0, ncand = 0; k < m->deg; k++)
		if (fits(s, v, m->nb[(uint64_t)c * m->deg + k]))
			cand[ncand++] = m->nb[(uint64_t)c * m->deg + k];
	/*
	 * Which placed neighbour lent its position is a matter of port
	 * numbers; the candidates (adjacent to every placed neighbour's
	 * position) are not: try them in position order.
	 */
	qsort(cand, ncand, sizeof(*cand), cmp_pos);
	for (k = 0; k < ncand && r == 0; k++) {
		if (!s->budget--) {
			r = -1;
			break;
		}
		place(s, v, cand[k], 1);
		r = extend(s, depth + 1);
		if (r <= 0)
			place(s, v, cand[k], -1);
	}
	free(cand);
	return r;
}

static const char *desc(const struct ot_fabric *f, int32_t n)
{
	return f->node[n].desc ? f->node[n].desc : "?";
}

/*
 * The switch graph: switches in GUID order, each with at most deg
 * distinct switch neighbours.  Fills s->nb, s->nbc, *width (the most
 * parallel cables between two switches) and s->damaged (a switch with
 * fewer neighbours, or a pair with fewer cables), or refuses naming the
 * first switch with too many neighbours.
 */
static int switch_graph(struct sf_match *s, int32_t *local,
			unsigned int *width, struct ot_error *err)
{
	const struct ot_fabric *f = s->f;
	const struct ot_mms *m = s->m;
	uint8_t *cables = calloc(s->n, 1);
	unsigned int minw = 255, maxw = 0;
	uint32_t v, i, k;
	int error = 0;

	if (!cables)
		return ot_error_nomem(err, "slimfly");
	*width = 0;
	for (v = 0; v < s->n && !error; v++) {
		const struct ot_node *nd = &f->node[s->node[v]];
		unsigned int p, d = 0;

		for (p = 1; p <= nd->nports; p++) {
			int32_t peer = nd->port[p].peer;

			if (peer < 0 || !ot_is_switch(f, peer))
				continue;
			if (peer == s->node[v]) {
				error = ot_refuse(err, OT_ERR_TOPOLOGY,
						  "switch \"%s\" port %u: cabled to itself",
						  desc(f, peer), p);
				break;
			}
			if (!cables[local[peer]]++) {
				if (d == m->deg) {
					error = ot_refuse(err, OT_ERR_TOPOLOGY,
							  "switch \"%s\" port %u: more than %u switch neighbours (Slim Fly q=%u)",
							  nd->desc, p, m->deg, m->q);
					break;
				}
				s->nb[(uint64_t)v * m->deg + d++] = local[peer];
			}
		}
		for (k = 0; k < d; k++) {
			i = s->nb[(uint64_t)v * m->deg + k];
			minw = cables[i] < minw ? cables[i] : minw;
			maxw = cables[i] > maxw ? cables[i] : maxw;
			cables[i] = 0;
		}
		s->nbc[v] = d;
		s->damaged |= d < m->deg;
	}
	*width = maxw;
	s->damaged |= minw < maxw;
	free(cables);
	return error;
}

/* Every switch-to-switch cable joins adjacent MMS positions. */
static int verify_cables(const struct sf_match *s, struct ot_error *err)
{
	const struct ot_fabric *f = s->f;
	uint32_t v;

	for (v = 0; v < s->n; v++) {
		const struct ot_node *nd = &f->node[s->node[v]];
		unsigned int p;

		for (p = 1; p <= nd->nports; p++) {
			int32_t peer = nd->port[p].peer;
			char a[32], b[32];
			uint32_t k;

			if (peer < 0 || !ot_is_switch(f, peer))
				continue;
			for (k = 0; s->node[k] != peer; k++)
				;
			if (ot_mms_adjacent(s->m, s->map[v], s->map[k]))
				continue;
			ot_sf_pos_str(s->m, s->map[v], a, sizeof(a));
			ot_sf_pos_str(s->m, s->map[k], b, sizeof(b));
			return ot_refuse(err, OT_ERR_TOPOLOGY,
					 "switch \"%s\" port %u: cable %s -- %s breaks the MMS rule",
					 nd->desc, p, a, b);
		}
	}
	return 0;
}

static int match_alloc(struct sf_match *s, int32_t **local)
{
	const struct ot_fabric *f = s->f;
	uint32_t *rank;
	uint32_t i, v;

	*local = malloc(f->nnodes * sizeof(**local));
	s->node = malloc(s->n * sizeof(*s->node));
	s->nb = malloc((uint64_t)s->n * s->m->deg * sizeof(*s->nb));
	s->nbc = calloc(s->n, sizeof(*s->nbc));
	s->map = malloc(s->n * sizeof(*s->map));
	s->inv = malloc(s->m->n * sizeof(*s->inv));
	s->cnt_a = calloc(s->n, sizeof(*s->cnt_a));
	s->cnt_r = calloc(s->m->n, sizeof(*s->cnt_r));
	s->order = malloc(s->n * sizeof(*s->order));
	if (!*local || !s->node || !s->nb || !s->nbc || !s->map || !s->inv ||
	    !s->cnt_a || !s->cnt_r || !s->order)
		return -1;
	rank = malloc(f->nnodes * sizeof(*rank));
	if (!rank || ot_refine_switch_order(f, rank, NULL, NULL)) {
		free(rank);
		return -1;
	}
	for (i = 0; i < f->nnodes; i++)
		if (rank[i] != OT_REFINE_SKIP)
			s->node[rank[i]] = i;
	free(rank);
	for (i = 0; i < f->nnodes; i++)
		(*local)[i] = -1;
	for (v = 0; v < s->n; v++) {
		(*local)[s->node[v]] = v;
		s->map[v] = -1;
	}
	for (v = 0; v < s->m->n; v++)
		s->inv[v] = -1;
	return 0;
}

/*
 * lam[a * n + b]: the common neighbours of a and b (capped at 255), from
 * nb (stride slots per vertex, cnt[a] of them, or all when cnt is NULL).
 */
static uint8_t *common_counts(const uint32_t *nb, const uint32_t *cnt,
			      unsigned int stride, uint32_t n)
{
	uint8_t *lam = calloc((uint64_t)n * n, 1);
	uint32_t a, i, j;

	if (!lam)
		return NULL;
	for (a = 0; a < n; a++) {
		const uint32_t *x = nb + (uint64_t)a * stride;
		uint32_t d = cnt ? cnt[a] : stride;

		for (i = 0; i < d; i++)
			for (j = 0; j < d; j++) {
				uint8_t *l = lam + (uint64_t)x[i] * n + x[j];

				if (i != j && *l < 255)
					(*l)++;
			}
	}
	return lam;
}

static void match_free(struct sf_match *s)
{
	free(s->lam_a);
	free(s->lam_r);
	free(s->node);
	free(s->nb);
	free(s->nbc);
	free(s->map);
	free(s->inv);
	free(s->cnt_a);
	free(s->cnt_r);
	free(s->order);
}

/*
 * Places every switch, or refuses naming the one that fits nowhere.
 * Every (t,x,y) is (t,0,0) under an automorphism (y + c; x + a with
 * c - m a), so the first switch goes to (0,0,0) or (1,0,0) only.  The
 * two sides need not be alike (for q = 7, 8, 11, 16, 19 and 23 the
 * search proves one side wrong for some switches, so no automorphism
 * swaps them), and proving the wrong side wrong can take far longer than
 * placing everything on the right one (278,000 steps against 5,900 on a
 * shuffled q = 23): the two searches take turns with budgets growing
 * fourfold, so the right side's short search ends first.  A side proven
 * wrong drops out.
 */
static int place_all(struct sf_match *s, struct ot_error *err)
{
	/* a damaged graph constrains less: let it search longer */
	uint64_t left = (s->damaged ? 1024ull : 64ull) * s->n * s->m->deg +
			100000, turn = 4ull * s->n, used;
	int r = -1, side[2] = { -1, -1 }; /* 0: proven wrong */
	unsigned int t;

	while (left && (side[0] || side[1]) && r <= 0) {
		for (t = 0; t < 2 && r <= 0 && left; t++) {
			if (!side[t])
				continue;
			s->first = t * s->m->q * s->m->q;
			s->budget = turn < left ? turn : left;
			used = s->budget;
			r = side[t] = extend(s, 0);
			left -= used - (r < 0 ? 0 : s->budget);
		}
		turn *= 4;
	}
	if (r > 0)
		return 0;
	r = side[0] || side[1] ? -1 : 0;
	return ot_refuse(err, s->damaged ? OT_ERR_DAMAGE : OT_ERR_TOPOLOGY,
			 "switch \"%s\": no MMS position (q=%u) fits its cables%s%s",
			 desc(s->f, s->node[s->deepest]), s->m->q,
			 r < 0 ? " (search gave up)" : "",
			 s->n < s->m->n ? " (switches are missing)" :
			 s->damaged ? " (cables are missing)" : "");
}

static int recognize(struct ot_sf *sf, const struct ot_fabric *f,
		     struct ot_error *err)
{
	struct sf_match s = { .f = f, .m = &sf->mms, .n = f->nswitches,
			      .damaged = sf->missing > 0 };
	int32_t *local = NULL;
	uint32_t v;
	int error;

	if (match_alloc(&s, &local)) {
		error = ot_error_nomem(err, "slimfly");
		goto out;
	}
	error = switch_graph(&s, local, &sf->width, err);
	if (!error) {
		s.lam_a = common_counts(s.nb, s.nbc, s.m->deg, s.n);
		s.lam_r = common_counts(s.m->nb, NULL, s.m->deg, s.m->n);
		if (!s.lam_a || !s.lam_r)
			error = ot_error_nomem(err, "slimfly");
	}
	if (!error)
		error = place_all(&s, err);
	if (!error)
		error = verify_cables(&s, err);
	if (error)
		goto out;
	sf->damaged = s.damaged || sf->missing;
	for (v = 0; v < s.n; v++) {
		sf->sw_pos[s.node[v]] = s.map[v];
		sf->pos_sw[s.map[v]] = s.node[v];
	}
out:
	free(local);
	match_free(&s);
	return error;
}

/*
 * The q of a Slim Fly with `switches` switches, some perhaps missing: the
 * smallest prime power q with 2q^2 >= switches, if at most half of its
 * switches are missing; 0 otherwise.
 */
unsigned int ot_mms_q_covering(uint32_t switches)
{
	unsigned int q, p, e;

	for (q = 3; 2 * q * q < switches || !ot_gf_prime_power(q, &p, &e);
	     q++)
		;
	return q * q < switches ? q : 0;
}

/* A refusal of a fabric with switches missing says how many. */
static void say_missing(const struct ot_fabric *f, const struct ot_sf *sf,
			struct ot_error *err)
{
	size_t len;

	if (!err || !sf->missing)
		return;
	len = strlen(err->msg);
	if (len + 1 < sizeof(err->msg))
		snprintf(err->msg + len, sizeof(err->msg) - len,
			 " (%u switches: %u short of Slim Fly q=%u)",
			 f->nswitches, sf->missing, sf->mms.q);
}

static int recognize_q(const struct ot_fabric *f, unsigned int q,
		       struct ot_sf **out, struct ot_error *err)
{
	struct ot_sf *sf;
	uint32_t i;

	sf = calloc(1, sizeof(*sf));
	if (!sf)
		return ot_error_nomem(err, "slimfly");
	if (ot_mms_init(&sf->mms, q, err)) {
		free(sf);
		return -1;
	}
	sf->sw_pos = malloc(f->nnodes * sizeof(*sf->sw_pos));
	sf->pos_sw = malloc(sf->mms.n * sizeof(*sf->pos_sw));
	if (!sf->sw_pos || !sf->pos_sw) {
		ot_sf_free(sf);
		return ot_error_nomem(err, "slimfly");
	}
	for (i = 0; i < f->nnodes; i++)
		sf->sw_pos[i] = -1;
	for (i = 0; i < sf->mms.n; i++)
		sf->pos_sw[i] = -1;
	sf->missing = sf->mms.n - f->nswitches;
	if (recognize(sf, f, err)) {
		say_missing(f, sf, err);
		ot_sf_free(sf);
		return -1;
	}
	*out = sf;
	return 0;
}

/* The most distinct switch neighbours a switch of f has. */
static unsigned int max_switch_degree(const struct ot_fabric *f)
{
	int32_t *mark = malloc(f->nnodes * sizeof(*mark));
	unsigned int best = 0, d, p;
	uint32_t n;

	if (!mark)
		return UINT32_MAX;
	for (n = 0; n < f->nnodes; n++)
		mark[n] = -1;
	for (n = 0; n < f->nnodes; n++) {
		if (!ot_is_switch(f, n))
			continue;
		for (p = 1, d = 0; p <= f->node[n].nports; p++) {
			int32_t peer = f->node[n].port[p].peer;

			if (peer >= 0 && ot_is_switch(f, peer) &&
			    mark[peer] != (int32_t)n) {
				mark[peer] = (int32_t)n;
				d++;
			}
		}
		best = d > best ? d : best;
	}
	free(mark);
	return best;
}

/* The network degree (3q - d)/2 of the MMS graph of q. */
static unsigned int mms_degree(unsigned int q)
{
	return q % 4 == 3 ? (3 * q + 1) / 2 : (3 * q - q % 4) / 2;
}

/*
 * The q: 2q^2 switches exactly, or else each prime power q with q^2 <
 * switches < 2q^2 (at most half of the positions empty) whose degree
 * holds the fabric's most connected switch, smallest first (a Slim Fly
 * with switches missing may fit a smaller q's count): the first that
 * recognizes f, or the first one's refusal.
 */
int ot_sf_recognize(const struct ot_fabric *f, struct ot_sf **out,
		    struct ot_error *err)
{
	unsigned int q = ot_mms_q_for(f->nswitches), p, e, deg, tried = 0;
	struct ot_error first = { 0 }, again = { 0 };

	*out = NULL;
	if (q)
		return recognize_q(f, q, out, err);
	deg = max_switch_degree(f);
	for (q = ot_mms_q_covering(f->nswitches); q && q * q < f->nswitches;
	     q++) {
		if (!ot_gf_prime_power(q, &p, &e) || mms_degree(q) < deg)
			continue;
		if (!recognize_q(f, q, out, tried++ ? &again : &first))
			return 0;
		if (again.cls == OT_ERR_NOMEM)
			break;
	}
	if (!tried)
		return ot_refuse(err, OT_ERR_TOPOLOGY,
				 "%u switches, at most %u switch neighbours: a Slim Fly has 2q^2 switches for a prime power q (at most half of them missing), each with (3q - d)/2 switch neighbours",
				 f->nswitches, deg);
	if (err)
		*err = first;
	return -1;
}

void ot_sf_free(struct ot_sf *sf)
{
	if (!sf)
		return;
	ot_mms_free(&sf->mms);
	free(sf->sw_pos);
	free(sf->pos_sw);
	free(sf);
}
