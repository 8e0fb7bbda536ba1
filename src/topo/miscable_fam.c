// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Mis-cabling reports for FlatFly and hypercube (topo/flatfly.h), Slim
 * Fly (topo/slimfly.h) and Dragonfly (topo/dragonfly.h), see miscable.h.
 * Their recognizers tolerate missing cables, so the diagnosis leaves out
 * the cables that look wrong and lets the recognizer place the switches
 * from the rest:
 *  1. suspects: when the recognizer refuses the fabric, the
 *     switch-to-switch cables whose neighbourhood breaks the family's
 *     local pattern (miscable_ff.c, miscable_sf.c say how), and every
 *     cable of a switch pair with more parallel cables than the fabric
 *     has elsewhere; when it accepts it, the cables too many on its map
 *     (more parallel cables than the pairs of their kind have; Dragonfly:
 *     miscable_df.c);
 *  2. the recognizer maps the fabric without the suspects (as damage);
 *  3. the suspects its map allows stay (those with the fewest other
 *     suspects at their ends first); the ends of the others are paired
 *     again, each pair a cable the map wants (a bounded depth-first
 *     search, ends in CA count, GUID and port order); then, all suspects
 *     free, a pairing with fewer new cables is looked for (iterative
 *     deepening from the cables the map wants nowhere);
 *  4. the recognizer must accept the fabric so re-cabled, with no cable
 *     too many on its map, or nothing is reported.
 * What counts as mis-cabled: a switch-to-switch cable that joins two
 * switches the family's map says are not neighbours (a FlatFly cable
 * whose ends differ in two or more coordinates, a Slim Fly cable off
 * the MMS graph), or one too many (between neighbours; Dragonfly: at a
 * switch or between two groups too).  A fabric the recognizer accepts
 * with none too many needs no move (n = 0), also when cables are
 * missing: damage is not mis-cabling.
 *
 * The report pairs each moved cable end with where it should go: the
 * current and the wanted cables over the moved ends form cycles; in each
 * the end that stays first is the one with the most CAs, then the lowest
 * GUID and port (as ot_gen_swap_cables() picks the end that stays), and
 * every other end of the cycle stays with it.  Cables are taken in GUID
 * and port order, so the report does not depend on discovery order.
 *
 * Cost: the suspects take sum over cables of deg^2 merges of neighbour
 * lists (deg: switch neighbours), the recognizer runs at most four times,
 * and each pairing search is bounded by FM_MATCH_BUDGET steps (at most
 * FM_MAX_MOVES + 2 searches).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo/miscable.h"
#include "topo/miscable_fam.h"

/* Suspect cables beyond which the fabric is not "almost" the family. */
#define FM_MAX_SUSPECTS 512
/* Steps of the pairing search. */
#define FM_MATCH_BUDGET 2000000ul

static int cmp_i32(const void *x, const void *y)
{
	int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;

	return (a > b) - (a < b);
}

/* Cables by the GUID and port of their first end (a's, the lower). */
static int cmp_cable(const void *x, const void *y)
{
	const struct fm_cable *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->pa != b->pa)
		return (int)a->pa - (int)b->pa;
	return (a->a > b->a) - (a->a < b->a);
}

static bool end_lower(const struct ot_fabric *f, int32_t x, uint8_t px,
		      int32_t y, uint8_t py)
{
	if (f->node[x].guid != f->node[y].guid)
		return f->node[x].guid < f->node[y].guid;
	return x != y ? x < y : px < py;
}

/*
 * The cables in an order of GUIDs and ports (not of node indices: the
 * report must not depend on the order the fabric was discovered in).
 */
static void order_cables(struct fm *m)
{
	uint32_t i;

	for (i = 0; i < m->nc; i++) {
		struct fm_cable *c = &m->c[i];

		if (!end_lower(m->f, c->a, c->pa, c->b, c->pb))
			*c = (struct fm_cable){ .a = c->b, .pa = c->pb,
						.b = c->a, .pb = c->pa };
		c->key = m->f->node[c->a].guid;
	}
	qsort(m->c, m->nc, sizeof(*m->c), cmp_cable);
}

/* The switch-to-switch cables, each once, and the neighbour lists. */
static int fm_read(struct fm *m, struct ot_error *err)
{
	const struct ot_fabric *f = m->f;
	uint32_t n, k = 0, total = 0, i, w;
	unsigned int p;

	for (n = 0; n < f->nnodes; n++)
		total += f->node[n].nports;
	m->c = calloc((size_t)total / 2 + 1, sizeof(*m->c));
	m->start = calloc((size_t)f->nnodes + 1, sizeof(*m->start));
	m->nb = malloc(((size_t)total + 1) * sizeof(*m->nb));
	m->cnt = calloc((size_t)total + 1, sizeof(*m->cnt));
	if (!m->c || !m->start || !m->nb || !m->cnt)
		return ot_error_nomem(err, "mis-cabling report");
	for (n = 0; n < f->nnodes; n++) {
		const struct ot_node *nd = &f->node[n];
		uint32_t first = k;

		m->start[n] = k;
		if (!ot_is_switch(f, n))
			continue;
		for (p = 1; p <= nd->nports; p++) {
			int32_t x = nd->port[p].peer;

			if (x < 0 || !ot_is_switch(f, x))
				continue;
			if ((uint32_t)x == n)
				return ot_refuse(err, OT_ERR_TOPOLOGY,
						 "switch \"%s\" port %u: cabled to itself",
						 nd->desc, p);
			m->nb[k++] = x;
			if ((uint32_t)x > n || ((uint32_t)x == n &&
						nd->port[p].peer_port > p))
				m->c[m->nc++] = (struct fm_cable){
					.a = (int32_t)n, .pa = (uint8_t)p,
					.b = x, .pb = nd->port[p].peer_port,
				};
		}
		qsort(m->nb + first, k - first, sizeof(*m->nb), cmp_i32);
		for (i = w = first; i < k; i++) {
			if (i == first || m->nb[i] != m->nb[w - 1]) {
				m->nb[w] = m->nb[i];
				m->cnt[w++] = 0;
			}
			m->cnt[w - 1]++;
		}
		k = w;
	}
	m->start[f->nnodes] = k;
	order_cables(m);
	return 0;
}

/* The largest count at least 1 in 5 of the n counts v[] (> 0) has. */
uint32_t ot_fm_usual(const uint32_t *v, uint64_t n)
{
	uint32_t hist[OT_MAX_PORTS + 2] = { 0 }, best = 1, k;
	uint64_t i, all = 0;

	for (i = 0; i < n; i++)
		if (v[i]) {
			hist[v[i] <= OT_MAX_PORTS ? v[i] : OT_MAX_PORTS + 1]++;
			all++;
		}
	for (k = 1; k <= OT_MAX_PORTS + 1; k++)
		if (hist[k] && hist[k] * 5 >= all)
			best = k;
	return best;
}

uint32_t ot_fm_cables(const struct fm *m, int32_t x, int32_t y)
{
	uint32_t lo = m->start[x], hi = m->start[x + 1];

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (m->nb[mid] == y)
			return m->cnt[mid];
		if (m->nb[mid] < y)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

uint32_t ot_fm_common(const struct fm *m, int32_t u, int32_t v)
{
	uint32_t i = m->start[u], j = m->start[v], c = 0;

	while (i < m->start[u + 1] && j < m->start[v + 1]) {
		if (m->nb[i] == m->nb[j]) {
			c++;
			i++;
			j++;
		} else if (m->nb[i] < m->nb[j]) {
			i++;
		} else {
			j++;
		}
	}
	return c;
}

/*
 * The width: the most parallel cables a switch pair has, among the
 * counts that at least 1 pair in 5 has (a cable moved onto a pair of
 * neighbours makes a rare count above it).  Cables of pairs above it are
 * suspects; their number.
 */
static uint32_t over_full(struct fm *m)
{
	uint32_t hist[OT_MAX_PORTS + 1] = { 0 }, pairs = 0, i, n = 0;
	unsigned int w;

	for (i = 0; i < m->start[m->f->nnodes]; i++) {
		hist[m->cnt[i] <= OT_MAX_PORTS ? m->cnt[i] : OT_MAX_PORTS]++;
		pairs++;
	}
	m->width = 1;
	for (w = 1; w <= OT_MAX_PORTS; w++)
		if (hist[w] && hist[w] * 5 >= pairs)
			m->width = w;
	for (i = 0; i < m->nc; i++)
		if (ot_fm_cables(m, m->c[i].a, m->c[i].b) > m->width) {
			m->c[i].suspect = true;
			n++;
		}
	return n;
}

/* Cables other than switch-to-switch ones (ot_fabric_copy_cables()). */
static bool not_between_switches(const struct ot_fabric *f, uint32_t a,
				 unsigned int pa, uint32_t b, unsigned int pb,
				 const void *ctx)
{
	(void)pa;
	(void)pb;
	(void)ctx;
	return !(ot_is_switch(f, (int)a) && ot_is_switch(f, (int)b));
}

/*
 * f with its switch-to-switch cables as cab[] (nc of them) has them,
 * indexed; or NULL.
 */
static struct ot_fabric *recabled(const struct ot_fabric *f,
				  const struct fm_cable *cab, uint32_t nc,
				  bool skip_suspects, struct ot_error *err)
{
	struct ot_fabric *g;
	uint32_t i;
	int error = 0;

	g = ot_fabric_copy_cables(f, not_between_switches, NULL, err);
	if (!g)
		return NULL;
	for (i = 0; i < nc && !error; i++)
		if (!(skip_suspects && cab[i].suspect))
			error = ot_fabric_link(g, cab[i].a, cab[i].pa, cab[i].b,
					       cab[i].pb, err);
	return ot_fabric_done(g, error, err);
}

/* A moved cable end: a suspect cable's end, and its pairing. */
struct fm_end {
	int32_t node;
	uint8_t port;
	uint32_t now;    /* index of the other end of its cable now */
	int32_t should;  /* index of the end it should be cabled to, -1 */
	unsigned int cas;
};

struct fm_pair {
	const struct fm *m;
	const struct ot_fam *fam;
	const void *st;
	struct fm_end *e;
	uint32_t ne;
	unsigned long steps;
	/* cables now between two switches: (x, y) -> count, x < y */
	uint64_t *key;
	uint32_t *used, nkeys;
	bool *sus; /* per cable: a suspect */
	uint32_t *at, *order; /* per node: suspects there; suspects */
	unsigned int moves, limit; /* new cables paired, and at most */
};

/* Report order: most CAs, then GUID, then port. */
static bool end_before(const struct ot_fabric *f, const struct fm_end *a,
		       const struct fm_end *b)
{
	if (a->cas != b->cas)
		return a->cas > b->cas;
	if (f->node[a->node].guid != f->node[b->node].guid)
		return f->node[a->node].guid < f->node[b->node].guid;
	if (a->node != b->node)
		return a->node < b->node;
	return a->port < b->port;
}

static uint64_t pair_key(int32_t x, int32_t y)
{
	if (x > y) {
		int32_t t = x;

		x = y;
		y = t;
	}
	return (uint64_t)(uint32_t)x << 32 | (uint32_t)y;
}

/* The count slot of pair (x, y): the cables kept or paired there. */
static uint32_t *pair_used(struct fm_pair *s, int32_t x, int32_t y)
{
	uint64_t k = pair_key(x, y);
	uint32_t i;

	for (i = 0; i < s->nkeys; i++)
		if (s->key[i] == k)
			return &s->used[i];
	s->key[s->nkeys] = k;
	s->used[s->nkeys] = ot_fm_cables(s->m, x, y);
	return &s->used[s->nkeys++];
}

/* Whether one more cable between x and y fits the map; takes its room. */
static bool take_nodes(struct fm_pair *s, int32_t x, int32_t y)
{
	uint32_t *u, allowed;

	if (x == y)
		return false;
	if (s->fam->take)
		return s->fam->take((void *)s->st, x, y, 1);
	allowed = s->fam->allowed(s->st, x, y);
	if (!allowed)
		return false;
	u = pair_used(s, x, y);
	if (*u >= allowed)
		return false;
	(*u)++;
	return true;
}

static bool take(struct fm_pair *s, uint32_t i, uint32_t j)
{
	return take_nodes(s, s->e[i].node, s->e[j].node);
}

static void give_nodes(struct fm_pair *s, int32_t x, int32_t y)
{
	if (s->fam->take)
		s->fam->take((void *)s->st, x, y, -1);
	else
		(*pair_used(s, x, y))--;
}

static void give_back(struct fm_pair *s, uint32_t i, uint32_t j)
{
	give_nodes(s, s->e[i].node, s->e[j].node);
}

/* Pairs the ends from the first unpaired; 1 done, 0 none, -1 budget. */
static int pair_from(struct fm_pair *s, uint32_t i);

/* Pairs ends i and j, then the rest; 1 done, 0 not so, -1 budget. */
static int pair_with(struct fm_pair *s, uint32_t i, uint32_t j)
{
	bool moved = j != s->e[i].now;
	int r;

	if (s->e[j].should >= 0 || j == i || (moved && s->moves == s->limit))
		return 0;
	if (++s->steps > FM_MATCH_BUDGET)
		return -1;
	if (!take(s, i, j))
		return 0;
	s->e[i].should = (int32_t)j;
	s->e[j].should = (int32_t)i;
	s->moves += moved;
	r = pair_from(s, i + 1);
	if (r)
		return r;
	s->moves -= moved;
	s->e[i].should = s->e[j].should = -1;
	give_back(s, i, j);
	return 0;
}

/*
 * Pairs the ends from the first unpaired, its cable's other end first
 * (a cable that stays is no move); 1 done, 0 none fits, -1 budget.
 */
static int pair_from(struct fm_pair *s, uint32_t i)
{
	uint32_t j;
	int r;

	while (i < s->ne && s->e[i].should >= 0)
		i++;
	if (i == s->ne)
		return 1;
	r = pair_with(s, i, s->e[i].now);
	for (j = i + 1; j < s->ne && !r; j++)
		if (j != s->e[i].now)
			r = pair_with(s, i, j);
	return r;
}

static int cmp_ends(const void *x, const void *y, void *f)
{
	const struct fm_end *a = x, *b = y;

	return end_before(f, a, b) ? -1 : end_before(f, b, a) ? 1 : 0;
}

/* Slow and simple: the ends are few (at most 2 FM_MAX_SUSPECTS). */
static void sort_ends(const struct ot_fabric *f, struct fm_end *e,
		      uint32_t n)
{
	uint32_t i, j;

	for (i = 1; i < n; i++) {
		struct fm_end t = e[i];

		for (j = i; j > 0 && cmp_ends(&e[j - 1], &t, (void *)f) > 0;
		     j--)
			e[j] = e[j - 1];
		e[j] = t;
	}
}

/* Suspect cables at the ends of cable c (itself twice). */
static uint32_t suspicion(const struct fm_pair *s, const struct fm_cable *c)
{
	return s->at[c->a] + s->at[c->b];
}

/*
 * Keeps the suspects the map allows (marked not suspect), those whose
 * ends have the fewest other suspects first: a moved cable joins two
 * switches with too many, a right one of them often only one.
 */
static void keep_likely(struct fm_pair *s, struct fm_cable *c, uint32_t nc)
{
	uint32_t i, j, n = 0, *order = s->order;

	for (i = 0; i < nc; i++)
		if (c[i].suspect) {
			s->at[c[i].a]++;
			s->at[c[i].b]++;
		}
	for (i = 0; i < nc; i++) {
		if (!c[i].suspect)
			continue;
		for (j = n++; j > 0 && suspicion(s, &c[order[j - 1]]) >
					       suspicion(s, &c[i]); j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	for (i = 0; i < nc; i++)
		if (c[i].suspect)
			s->at[c[i].a] = s->at[c[i].b] = 0;
	for (j = 0; j < n; j++)
		if (take_nodes(s, c[order[j]].a, c[order[j]].b))
			c[order[j]].suspect = false;
}

/*
 * With keep, the suspects the map allows stay (marked not suspect); the
 * ends of the others go to s->e, sorted, with their cable partners.
 */
static void moved_ends(struct fm_pair *s, struct fm_cable *c, uint32_t nc,
		       bool keep)
{
	const struct ot_fabric *f = s->m->f;
	uint32_t i, k;

	s->ne = s->nkeys = 0;
	for (i = 0; i < nc && !s->fam->take; i++) /* room the suspects leave */
		if (c[i].suspect)
			(*pair_used(s, c[i].a, c[i].b))--;
	if (keep)
		keep_likely(s, c, nc);
	for (i = 0; i < nc; i++) {
		if (!c[i].suspect)
			continue;
		s->e[s->ne++] = (struct fm_end){ c[i].a, c[i].pa, 0, -1,
						 ot_node_ca_count(f, c[i].a) };
		s->e[s->ne++] = (struct fm_end){ c[i].b, c[i].pb, 0, -1,
						 ot_node_ca_count(f, c[i].b) };
	}
	sort_ends(f, s->e, s->ne);
	for (i = 0; i < s->ne; i++)
		for (k = 0; k < s->ne; k++) {
			const struct ot_port *pt =
				&f->node[s->e[i].node].port[s->e[i].port];

			if (pt->peer == s->e[k].node &&
			    pt->peer_port == s->e[k].port)
				s->e[i].now = k;
		}
}

/* Moves the pairing makes: the cables of c[] re-cabled (suspects). */
static void apply(const struct fm_pair *s, struct fm_cable *c, uint32_t nc)
{
	uint32_t i, k = 0;

	for (i = 0; i < nc; i++) {
		if (!c[i].suspect)
			continue;
		while (k < s->ne && (uint32_t)s->e[k].should < k)
			k++;
		c[i].a = s->e[k].node;
		c[i].pa = s->e[k].port;
		c[i].b = s->e[s->e[k].should].node;
		c[i].pb = s->e[s->e[k].should].port;
		k++;
	}
}

static int cmp_report(const void *x, const void *y, void *f)
{
	const struct ot_miscable *a = x, *b = y;
	const struct ot_fabric *fab = f;
	uint64_t ga = fab->node[a->node].guid, gb = fab->node[b->node].guid;

	if (ga != gb)
		return ga < gb ? -1 : 1;
	if (a->node != b->node)
		return a->node < b->node ? -1 : 1;
	return (int)a->port - (int)b->port;
}

/*
 * The report: per cycle of now and should cables over the moved ends,
 * from its first end in report order, every other end stays and its
 * cable's far end moves to where it should be.
 */
static int report(const struct fm_pair *s, struct ot_miscabling *out)
{
	uint32_t i, x;
	bool *done = calloc(s->ne + 1, sizeof(*done));

	out->n = 0;
	out->cable = calloc(s->ne / 2 + 1, sizeof(*out->cable));
	if (!done || !out->cable) {
		free(done);
		return -1;
	}
	for (i = 0; i < s->ne; i++) {
		if (done[i] || s->e[i].should == (int32_t)s->e[i].now)
			continue;
		x = i;
		do {
			const struct fm_end *e = &s->e[x];

			done[x] = done[e->now] = true;
			out->cable[out->n++] = (struct ot_miscable){
				.node = e->node, .port = e->port,
				.now = s->e[e->now].node,
				.now_port = s->e[e->now].port,
				.should = s->e[e->should].node,
				.should_port = s->e[e->should].port,
			};
			x = (uint32_t)s->e[s->e[x].now].should;
		} while (x != i);
	}
	free(done);
	for (i = 1; i < out->n; i++) { /* by GUID, then port */
		struct ot_miscable t = out->cable[i];

		for (x = i; x > 0 &&
			    cmp_report(&out->cable[x - 1], &t, (void *)s->m->f) > 0;
		     x--)
			out->cable[x] = out->cable[x - 1];
		out->cable[x] = t;
	}
	return 0;
}

static void pair_free(struct fm_pair *s)
{
	free(s->e);
	free(s->key);
	free(s->used);
	free(s->sus);
	free(s->at);
	free(s->order);
}

/* Ends to pair again beyond which a repair is not "a few cables". */
#define FM_MAX_ENDS 64
/* New cables a repair of kept suspects makes at most. */
#define FM_MAX_MOVES 12

/*
 * New cables a pairing makes at least: one per suspect between switches
 * the map wants no cable between (both its ends get a new partner); 1 at
 * least.
 */
static unsigned int must_move(const struct fm_pair *s, const struct fm *m)
{
	unsigned int n = 0;
	uint32_t i;

	for (i = 0; i < m->nc; i++)
		n += m->c[i].suspect &&
		     !s->fam->allowed(s->st, m->c[i].a, m->c[i].b);
	return n ? n : 1;
}

/*
 * Gives back the room the kept suspects and the pairs took (the map's
 * counts are those of the fabric without the suspects again), and makes
 * every suspect one again.
 */
static void release(struct fm_pair *s, struct fm *m)
{
	uint32_t i;

	for (i = 0; i < s->ne; i++)
		if (s->e[i].should > (int32_t)i)
			give_back(s, i, (uint32_t)s->e[i].should);
	for (i = 0; i < m->nc; i++) {
		if (s->sus[i] && !m->c[i].suspect)
			give_nodes(s, m->c[i].a, m->c[i].b);
		m->c[i].suspect = s->sus[i];
	}
	for (i = 0; i < s->ne; i++)
		s->e[i].should = -1;
	s->moves = 0;
}

/*
 * Pairs the suspects' ends again on st's map (the recognizer's map of
 * the fabric without them), into m->c.  0, or -1 with err.
 */
static int pair_again(struct fm *m, const struct ot_fam *fam, const void *st,
		      struct fm_pair *s, struct ot_error *err)
{
	uint32_t nsus = 0, i, first;
	bool *sus = s->sus;
	int r;

	for (i = 0; i < m->nc; i++)
		nsus += m->c[i].suspect;
	s->m = m;
	s->fam = fam;
	s->st = st;
	s->e = calloc(2 * (size_t)nsus + 1, sizeof(*s->e));
	s->sus = sus = calloc(m->nc + 1, sizeof(*s->sus));
	s->at = calloc(m->f->nnodes + 1, sizeof(*s->at));
	s->order = calloc(nsus + 1, sizeof(*s->order));
	s->key = calloc(nsus + FM_MAX_ENDS * FM_MAX_ENDS / 2 + 4,
			sizeof(*s->key));
	s->used = calloc(nsus + FM_MAX_ENDS * FM_MAX_ENDS / 2 + 4,
			 sizeof(*s->used));
	if (!s->e || !s->key || !s->used || !sus || !s->at || !s->order)
		return ot_error_nomem(err, "mis-cabling report");
	for (i = 0; i < m->nc; i++)
		sus[i] = m->c[i].suspect;
	moved_ends(s, m->c, m->nc, true);
	s->limit = FM_MAX_ENDS;
	if (s->ne / 2 > FM_MAX_MOVES) /* the map is not the fabric's */
		return ot_refuse(err, OT_ERR_TOPOLOGY,
				 "%u cables do not fit %s's map of the others: more than a few cables wrong",
				 s->ne / 2, fam->name);
	r = pair_from(s, 0);
	first = r > 0 ? s->ne / 2 : FM_MAX_MOVES + 1;
	/* fewer new cables, if kept suspects move too */
	release(s, m);
	moved_ends(s, m->c, m->nc, false);
	if (s->ne > FM_MAX_ENDS && first > FM_MAX_MOVES)
		return ot_refuse(err, OT_ERR_TOPOLOGY,
				 "%u cables do not fit %s's map: more than a few cables wrong",
				 s->ne / 2, fam->name);
	for (s->limit = must_move(s, m), r = 0;
	     !r && s->limit < first && s->ne <= FM_MAX_ENDS; s->limit++) {
		s->steps = 0;
		r = pair_from(s, 0);
	}
	if (r <= 0 && first <= FM_MAX_MOVES) { /* the first pairing again */
		release(s, m);
		moved_ends(s, m->c, m->nc, true);
		s->limit = FM_MAX_ENDS;
		s->steps = 0;
		r = pair_from(s, 0);
	}
	if (r <= 0)
		return ot_refuse(err, OT_ERR_TOPOLOGY,
				 "no re-cabling of the %u cables that do not fit %s's map fits it%s",
				 s->ne / 2, fam->name,
				 r < 0 ? " (search gave up)" : "");
	apply(s, m->c, m->nc);
	return 0;
}

/* Cables of pairs with more cables than the map st wants are suspects. */
static void over_map(struct fm *m, const struct ot_fam *fam, const void *st)
{
	uint32_t i;

	for (i = 0; i < m->nc; i++)
		if (ot_fm_cables(m, m->c[i].a, m->c[i].b) >
		    fam->allowed(st, m->c[i].a, m->c[i].b))
			m->c[i].suspect = true;
}

/* Marks the cables that are too many on the map; how many. */
static uint32_t mark_odd(struct fm *m, const struct ot_fam *fam,
			 const void *st)
{
	uint32_t i, n = 0;

	if (fam->odd)
		fam->odd(m, st);
	else
		over_map(m, fam, st);
	for (i = 0; i < m->nc; i++)
		n += m->c[i].suspect;
	return n;
}

static void fm_free(struct fm *m);
static int fm_read(struct fm *m, struct ot_error *err);

/*
 * Whether fam's recognizer accepts f with the cables of m->c, and finds
 * no cable too many there.
 */
static int accepted(const struct fm *m, const struct ot_fam *fam,
		    struct ot_error *err)
{
	struct ot_fabric *h = recabled(m->f, m->c, m->nc, false, err);
	struct fm hm = { 0 };
	void *st = NULL;
	int rc;

	if (!h)
		return -1;
	hm.f = h;
	rc = fam->recognize(h, &st, err);
	if (!rc && !fm_read(&hm, err) && mark_odd(&hm, fam, st))
		rc = ot_refuse(err, OT_ERR_TOPOLOGY,
			       "cables too many between some switches");
	if (st)
		fam->release(st);
	fm_free(&hm);
	ot_fabric_free(h);
	return rc;
}

/* Steps 2 to 4 (see the top): the report, or -1 with err. */
static int repair(struct fm *m, const struct ot_fam *fam,
		  struct ot_miscabling *out, const char *why,
		  struct ot_error *err)
{
	struct ot_fabric *g = recabled(m->f, m->c, m->nc, true, err);
	struct fm_pair s = { 0 };
	struct ot_error e2 = { 0 };
	void *st = NULL;
	int rc = -1;

	if (!g)
		return -1;
	if (fam->recognize(g, &st, &e2)) {
		rc = ot_refuse(err, e2.cls == OT_ERR_NOMEM ? OT_ERR_NOMEM :
							      OT_ERR_TOPOLOGY,
			       "not %s with a few cables wrong: %s", fam->name,
			       why);
		goto out;
	}
	mark_odd(m, fam, st);
	if (pair_again(m, fam, st, &s, err))
		goto out;
	if (accepted(m, fam, &e2)) {
		rc = ot_refuse(err, OT_ERR_TOPOLOGY,
			       "not %s with a few cables wrong: re-cabled, it is still refused: %s",
			       fam->name, e2.msg);
		goto out;
	}
	if (report(&s, out)) {
		rc = ot_error_nomem(err, "mis-cabling report");
		goto out;
	}
	rc = 0;
	if (!out->n) {
		ot_miscabling_free(out);
		rc = ot_refuse(err, OT_ERR_TOPOLOGY,
			       "not %s with a few cables wrong: every cable fits the map of the others, yet %s",
			       fam->name, why);
	}
out:
	pair_free(&s);
	if (st)
		fam->release(st);
	ot_fabric_free(g);
	return rc;
}

static void fm_free(struct fm *m)
{
	free(m->c);
	free(m->start);
	free(m->nb);
	free(m->cnt);
}

int ot_fam_miscabling(const struct ot_fam *fam, const struct ot_fabric *f,
		      struct ot_miscabling *out, struct ot_error *err)
{
	struct ot_error why = { 0 };
	struct fm m = { .f = f };
	void *st = NULL;
	uint32_t nsus = 0, i;
	bool ok;
	int rc = -1;

	out->n = 0;
	out->cable = NULL;
	ok = !fam->recognize(f, &st, &why);
	if (!ok && why.cls == OT_ERR_NOMEM) {
		if (st)
			fam->release(st);
		return ot_refuse(err, OT_ERR_NOMEM, "%s", why.msg);
	}
	if (fm_read(&m, err))
		goto out;
	over_full(&m);
	if (ok) { /* cables too many, for the map */
		for (i = 0; i < m.nc; i++)
			m.c[i].suspect = false;
		if (!mark_odd(&m, fam, st)) {
			rc = 0;
			goto out;
		}
		snprintf(why.msg, sizeof(why.msg),
			 "more cables between some switches than the others of their kind have");
	} else if (!fam->suspects) {
		rc = ot_refuse(err, OT_ERR_TOPOLOGY,
			       "not %s with a few cables wrong: %s", fam->name,
			       why.msg);
		goto out;
	} else if (fam->suspects(&m, err)) {
		goto out;
	}
	for (i = 0; i < m.nc; i++)
		nsus += m.c[i].suspect;
	if (!nsus || nsus > FM_MAX_SUSPECTS)
		rc = ot_refuse(err, OT_ERR_TOPOLOGY,
			       "not %s with a few cables wrong (%u cables break its pattern): %s",
			       fam->name, nsus, why.msg);
	else
		rc = repair(&m, fam, out, why.msg, err);
out:
	if (st)
		fam->release(st);
	fm_free(&m);
	return rc;
}
