// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The shared escape layer (see escape.h): up*-down* routing on an order
 * phi of the switches, one destination at a time.
 *
 * phi: breadth-first distance from the first present position (in a
 * fabric cut in parts, from each part's first), then the engine's
 * tie-break key.  A hop toward a smaller phi goes up, toward a
 * larger one down, and every path is some up hops then some down hops.
 * Destination-only tables express it: toward T, a switch with an
 * all-down path takes it (to a neighbour that also has one), any other
 * switch goes up to a neighbour with the shortest legal path, so each
 * switch's path -- which is also the tail of every path through it -- is
 * up* down*; the lengths strictly decrease along a path, so there is no
 * forwarding loop.  Every switch has a neighbour nearer the first switch,
 * which reaches every switch going down, so everything connected is
 * reached.
 *
 * Deadlock freedom: rank an up channel x -> y by -phi(y) and a down
 * channel by N + phi(y); along every path of the layer ranks strictly
 * increase (no down hop is ever followed by an up hop), so its channels
 * form no cycle (Dally and Seitz), and the engine keeps them on a VL of
 * their own.
 */
#include <stdlib.h>

#include "model/fabric.h"
#include "model/sort.h"
#include "route/escape.h"

#define ESC_FAR 0x7fff  /* no legal path */
#define ESC_DOWN 0x8000 /* the path goes down only */

/*
 * Breadth-first distances from the first present position, and in each
 * part of the fabric it does not reach, from that part's first position:
 * every switch but a root then has a neighbour one step nearer its root,
 * which is what lets it go up.
 */
static void distances(const struct ot_escape *e, uint32_t *dist,
		      uint32_t *queue)
{
	uint32_t head = 0, tail = 0, root, s, j;

	for (s = 0; s < e->n; s++)
		dist[s] = UINT32_MAX;
	for (root = 0; root < e->n; root++) {
		if (!e->present[root] || dist[root] != UINT32_MAX)
			continue;
		dist[root] = 0;
		queue[tail++] = root;
		while (head < tail) {
			s = queue[head++];
			for (j = e->start[s]; j < e->start[s + 1]; j++) {
				uint32_t y = e->adj[j];

				if (dist[y] != UINT32_MAX)
					continue;
				dist[y] = dist[s] + 1;
				queue[tail++] = y;
			}
		}
	}
}

int ot_escape_init(struct ot_escape *e, uint32_t n, const uint8_t *present,
		   const uint32_t *start, const uint32_t *adj,
		   const uint64_t *tiebreak, struct ot_error *err)
{
	uint32_t *dist = NULL, *queue = NULL, s, k;
	uint64_t *keys = NULL;
	int error = 0;

	*e = (struct ot_escape){ .n = n, .present = present, .start = start,
				 .adj = adj };
	dist = malloc(((size_t)n + 1) * sizeof(*dist));
	queue = malloc(((size_t)n + 1) * sizeof(*queue));
	keys = malloc(((size_t)n + 1) * sizeof(*keys));
	e->phi = malloc(((size_t)n + 1) * sizeof(*e->phi));
	e->by_phi = malloc(((size_t)n + 1) * sizeof(*e->by_phi));
	e->tree = calloc((size_t)n + 1, sizeof(*e->tree));
	if (!dist || !queue || !keys || !e->phi || !e->by_phi || !e->tree) {
		error = ot_error_nomem(err, "escape layer");
		goto out;
	}
	distances(e, dist, queue);
	/* positions fit in 32 bits, distances in 16, the key in the rest */
	for (s = 0; s < n; s++) {
		e->phi[s] = UINT32_MAX;
		if (e->present[s])
			keys[e->npresent++] =
				((uint64_t)(dist[s] < 0xffff ? dist[s] : 0xffff)
				 << 48) + tiebreak[s];
	}
	qsort(keys, e->npresent, sizeof(*keys), ot_cmp_u64);
	for (k = 0; k < e->npresent; k++) {
		s = (uint32_t)keys[k];
		e->by_phi[k] = s;
		e->phi[s] = k;
	}
out:
	free(dist);
	free(queue);
	free(keys);
	return error;
}

int ot_escape_init_nodes(struct ot_escape *e, const struct ot_fabric *f,
			 uint32_t n, const int32_t *node_of,
			 const int32_t *pos_of, struct ot_error *err)
{
	uint8_t *present = malloc((size_t)n + 1);
	uint32_t *start = malloc(((size_t)n + 1) * sizeof(*start));
	uint32_t *adj = malloc(((size_t)n * OT_MAX_PORTS + 1) * sizeof(*adj));
	uint64_t *tiebreak = malloc(((size_t)n + 1) * sizeof(*tiebreak));
	uint64_t key[OT_MAX_PORTS + 1];
	uint32_t s, k = 0, i, m;
	unsigned int p;
	int error = -1;

	*e = (struct ot_escape){ 0 };
	if (!present || !start || !adj || !tiebreak) {
		ot_error_nomem(err, "escape layer");
		goto out;
	}
	for (s = 0; s < n; s++) {
		const struct ot_node *nd = &f->node[node_of[s]];

		start[s] = k;
		present[s] = 1;
		tiebreak[s] = s;
		for (p = 1, m = 0; p <= nd->nports; p++) {
			int32_t x = nd->port[p].peer;

			if (x >= 0 && x != node_of[s] && pos_of[x] >= 0)
				key[m++] = (uint64_t)pos_of[x];
		}
		qsort(key, m, sizeof(*key), ot_cmp_u64);
		for (i = 0; i < m; i++)
			if (!i || key[i] != key[i - 1])
				adj[k++] = (uint32_t)key[i];
	}
	start[n] = k;
	error = ot_escape_init(e, n, present, start, adj, tiebreak, err);
out:
	free(tiebreak);
	if (error) {
		ot_escape_free(e);
		free(present);
		free(start);
		free(adj);
		return -1;
	}
	e->own_present = present;
	e->own_start = start;
	e->own_adj = adj;
	return 0;
}

/* All-down paths toward T: backwards from T, each step to a smaller phi. */
static void down_paths(const struct ot_escape *e, uint32_t T, uint16_t *row,
		       uint32_t *queue)
{
	uint32_t head = 0, tail = 0, s, j;
	unsigned int d;

	row[T] = ESC_DOWN;
	queue[tail++] = T;
	while (head < tail) {
		s = queue[head++];
		d = (row[s] & ~ESC_DOWN) + 1;
		for (j = e->start[s]; j < e->start[s + 1] && d < ESC_FAR; j++) {
			uint32_t x = e->adj[j];

			if (row[x] != ESC_FAR || e->phi[x] > e->phi[s])
				continue;
			row[x] = d | ESC_DOWN;
			queue[tail++] = x;
		}
	}
}

/*
 * The layer's distances toward T: for each position the length of its
 * legal path, ESC_DOWN when that path goes down only.
 */
static const uint16_t *escape_tree(struct ot_escape *e, uint32_t T)
{
	uint32_t *queue, s, k, j;
	uint16_t *row;
	unsigned int best, d;

	if (e->tree[T])
		return e->tree[T];
	row = malloc(((size_t)e->n + 1) * sizeof(*row));
	queue = malloc(((size_t)e->n + 1) * sizeof(*queue));
	if (!row || !queue) {
		free(row);
		free(queue);
		return NULL;
	}
	for (s = 0; s < e->n; s++)
		row[s] = ESC_FAR;
	down_paths(e, T, row, queue);
	/* The others go up first: their up neighbours come earlier in phi. */
	for (k = 0; k < e->npresent; k++) {
		s = e->by_phi[k];
		if (row[s] & ESC_DOWN)
			continue;
		best = ESC_FAR;
		for (j = e->start[s]; j < e->start[s + 1]; j++) {
			uint32_t y = e->adj[j];

			d = row[y] & ~ESC_DOWN;
			if (e->phi[y] < e->phi[s] && d + 1 < best)
				best = d + 1;
		}
		row[s] = best;
	}
	free(queue);
	e->tree[T] = row;
	return row;
}

/* Whether neighbour y of s continues a legal shortest path (value val). */
static bool legal_next(const struct ot_escape *e, const uint16_t *row,
		       uint32_t s, uint32_t y, unsigned int val, bool down)
{
	if (down)
		return e->phi[y] > e->phi[s] && (row[y] & ESC_DOWN) &&
		       (row[y] & ~ESC_DOWN) + 1u == val;
	return e->phi[y] < e->phi[s] && (row[y] & ~ESC_DOWN) + 1u == val;
}

enum ot_escape_step ot_escape_hop(struct ot_escape *e, uint32_t s, uint32_t t,
				  uint32_t seq, uint32_t *next)
{
	const uint16_t *row;
	unsigned int val, k = 0, pick;
	uint32_t j;
	bool down;

	if (s == t)
		return OT_ESCAPE_DELIVER;
	row = escape_tree(e, t);
	if (!row)
		return OT_ESCAPE_NOMEM;
	val = row[s] & ~ESC_DOWN;
	down = row[s] & ESC_DOWN;
	if (val == ESC_FAR)
		return OT_ESCAPE_CUT;
	for (j = e->start[s]; j < e->start[s + 1]; j++)
		k += legal_next(e, row, s, e->adj[j], val, down);
	pick = seq % k;
	for (j = e->start[s];; j++)
		if (legal_next(e, row, s, e->adj[j], val, down) && !pick--)
			break;
	*next = j;
	return OT_ESCAPE_FORWARD;
}

void ot_escape_free(struct ot_escape *e)
{
	uint32_t s;

	if (e->tree)
		for (s = 0; s < e->n; s++)
			free(e->tree[s]);
	free(e->tree);
	if (e->plan)
		for (s = 0; s < e->n; s++)
			free(e->plan[s]);
	free(e->plan);
	free(e->jport);
	free(e->phi);
	free(e->by_phi);
	free(e->own_present);
	free(e->own_start);
	free(e->own_adj);
	*e = (struct ot_escape){ 0 };
}

/* Port of node_of[s] toward node_of[adj[j]] (the first). */
static uint8_t port_to(const struct ot_escape *e, const struct ot_fabric *f,
		       const int32_t *node_of, uint32_t s, uint32_t j)
{
	int32_t sw = node_of[s], x = node_of[e->adj[j]];
	unsigned int p;

	for (p = 1; p <= f->node[sw].nports; p++)
		if (f->node[sw].port[p].peer == x)
			break;
	return (uint8_t)p;
}

/* The refusal where t cannot be reached from s at all. */
static int escape_cut(const struct ot_fabric *f, const int32_t *node_of,
		      uint32_t s, uint32_t t, const char *who,
		      struct ot_error *err)
{
	return ot_refuse(err, OT_ERR_DAMAGE,
			 "%s: no path at all from switch \"%s\" to switch \"%s\": missing cables and switches cut the fabric in two",
			 who, f->node[node_of[s]].desc,
			 f->node[node_of[t]].desc);
}

int ot_escape_ports(struct ot_escape *e, const struct ot_fabric *f,
		    const int32_t *node_of, uint32_t t, uint32_t seq,
		    uint8_t tport, uint8_t *hop, const char *who,
		    struct ot_error *err)
{
	uint32_t s, next;
	int32_t sw;

	for (s = 0; s < e->n; s++) {
		if (!e->present[s])
			continue;
		sw = node_of[s];
		switch (ot_escape_hop(e, s, t, seq, &next)) {
		case OT_ESCAPE_DELIVER:
			hop[sw] = tport;
			break;
		case OT_ESCAPE_FORWARD:
			hop[sw] = port_to(e, f, node_of, s, next);
			break;
		case OT_ESCAPE_CUT:
			return escape_cut(f, node_of, s, t, who, err);
		case OT_ESCAPE_NOMEM:
			return ot_error_nomem(err, who);
		}
	}
	return 0;
}

/*
 * What ot_escape_ports_balanced() needs toward T that depends on T
 * alone, built once: the present positions in the order they pick in
 * (farthest from T first, phi order within a distance), and in the same
 * order, per position, the number of its legal next hops and each as
 * j - start[s] (a position has at most OT_MAX_PORTS neighbours),
 * ascending: a stream read front to back.  cut: a position T cannot be
 * reached from (the first in phi order), or UINT32_MAX.
 */
struct esc_plan {
	uint32_t cut;
	uint32_t *order;
	uint8_t *legal;
};

/* Position s's legal next hops toward row's destination, into out. */
static unsigned int legal_hops(const struct ot_escape *e, const uint16_t *row,
			       uint32_t s, uint8_t *out)
{
	unsigned int val = row[s] & ~ESC_DOWN, nl = 0;
	bool down = row[s] & ESC_DOWN;
	uint32_t j;

	for (j = e->start[s]; j < e->start[s + 1]; j++)
		if (legal_next(e, row, s, e->adj[j], val, down)) {
			if (out)
				out[nl] = (uint8_t)(j - e->start[s]);
			nl++;
		}
	return nl;
}

static const struct esc_plan *escape_plan(struct ot_escape *e, uint32_t T)
{
	const uint16_t *row = escape_tree(e, T);
	uint32_t np = e->npresent, *at, k, s, i, top = 0, cut = UINT32_MAX;
	size_t nl = 0;
	struct esc_plan *pl;
	unsigned int val;
	uint8_t *w;

	if (!row)
		return NULL;
	if (!e->plan) {
		e->plan = calloc((size_t)e->n + 1, sizeof(*e->plan));
		if (!e->plan)
			return NULL;
	}
	if (e->plan[T])
		return e->plan[T];
	for (k = 0; k < np && cut == UINT32_MAX; k++) {
		s = e->by_phi[k];
		if ((row[s] & ~ESC_DOWN) == ESC_FAR)
			cut = s;
		else if (s != T)
			nl += legal_hops(e, row, s, NULL);
	}
	if (cut != UINT32_MAX)
		np = nl = 0;
	at = calloc((size_t)np + 2, sizeof(*at));
	pl = malloc(sizeof(*pl) + (size_t)np * sizeof(uint32_t) + np + nl + 1);
	if (!at || !pl) {
		free(at);
		free(pl);
		return NULL;
	}
	pl->cut = cut;
	pl->order = (uint32_t *)(pl + 1);
	pl->legal = (uint8_t *)(pl->order + np);
	for (k = 0; k < np; k++) {
		val = row[e->by_phi[k]] & ~ESC_DOWN;
		/* a legal path visits each position once: val < npresent */
		at[val]++;
		if (val > top)
			top = val;
	}
	for (i = 0, val = top + 1; np && val-- > 0;) {
		k = at[val];
		at[val] = i;
		i += k;
	}
	for (k = 0; k < np; k++) {
		s = e->by_phi[k];
		pl->order[at[row[s] & ~ESC_DOWN]++] = s;
	}
	for (w = pl->legal, i = 0; i < np; i++) {
		s = pl->order[i];
		*w = s == T ? 0 : (uint8_t)legal_hops(e, row, s, w + 1);
		w += 1u + *w;
	}
	free(at);
	e->plan[T] = pl;
	return pl;
}

/* The port toward each adj[j] under node map node_of, built once. */
static const uint8_t *escape_jports(struct ot_escape *e,
				    const struct ot_fabric *f,
				    const int32_t *node_of)
{
	uint32_t s, j;

	if (e->jport && e->jport_of == node_of)
		return e->jport;
	free(e->jport);
	e->jport = malloc((size_t)e->start[e->n] + 1);
	e->jport_of = node_of;
	if (!e->jport)
		return NULL;
	for (s = 0; s < e->n; s++)
		for (j = e->start[s]; j < e->start[s + 1]; j++)
			if (e->present[s])
				e->jport[j] = port_to(e, f, node_of, s, j);
	return e->jport;
}

int ot_escape_ports_balanced(struct ot_escape *e, const struct ot_fabric *f,
			     const int32_t *node_of, uint32_t t, uint32_t seq,
			     const double *inject, double *load, uint8_t tport,
			     uint8_t *hop, const char *who,
			     struct ot_error *err)
{
	const struct esc_plan *pl = escape_plan(e, t);
	const uint8_t *jport = escape_jports(e, f, node_of);
	double *rate = malloc(((size_t)e->n + 1) * sizeof(*rate));
	uint32_t k, s, i, a, nl, deg, r0, best, j;
	const uint8_t *lg;
	int error = 0;

	if (!pl || !jport || !rate) {
		error = ot_error_nomem(err, who);
		goto out;
	}
	if (pl->cut != UINT32_MAX) {
		error = escape_cut(f, node_of, pl->cut, t, who, err);
		goto out;
	}
	for (k = 0; k < e->npresent; k++)
		rate[e->by_phi[k]] = inject[e->by_phi[k]];
	/*
	 * Each position's legal next hops in the order the neighbours are
	 * tried, starting at seq % deg and wrapping: the least loaded wins,
	 * the first tried on a tie.
	 */
	for (lg = pl->legal, i = 0; i < e->npresent; i++, lg += 1u + nl) {
		s = pl->order[i];
		nl = lg[0];
		if (s == t) {
			hop[node_of[s]] = tport;
			continue;
		}
		if (!nl) { /* cannot happen: val < ESC_FAR has a next hop */
			error = escape_cut(f, node_of, s, t, who, err);
			goto out;
		}
		deg = e->start[s + 1] - e->start[s];
		r0 = seq % deg;
		for (a = 0; a < nl && lg[1 + a] < r0; a++)
			;
		best = UINT32_MAX;
		for (k = 0; k < nl; k++, a++) {
			if (a == nl)
				a = 0;
			j = e->start[s] + lg[1 + a];
			if (best == UINT32_MAX || load[j] < load[best] - 1e-12)
				best = j;
		}
		load[best] += rate[s];
		rate[e->adj[best]] += rate[s];
		hop[node_of[s]] = jport[best];
	}
out:
	free(rate);
	return error;
}
