// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of the FlatFly engines (src/route/ff/), the
 * step from FlatFly coordinates to forwarding tables, SL2VL and path SLs.
 * For every engine on small FlatFlies and hypercubes (parallel cables,
 * shuffled ports, LMC, missing cables): every CA port reaches every LID
 * it should, along the dimension order the variant promises (re-derived
 * here from the seed, not read back from the engine), on the VLs the
 * seed's rules give; channel ranks strictly increase along every path
 * (the constructive deadlock-freedom proof) and the checker finds no
 * credit loop -- but does find one when the VL separation is taken away.
 * The ADOR variants: LID offsets give distinct paths.  Damage (cables and
 * switches missing, hypercubes with a lost cable): every pair is routed,
 * destinations the variant cannot reach from everywhere on the escape
 * layer, whose paths go up then down in an order re-derived here.
 * Non-FlatFlies, a fabric cut in two and ADOR without LMC are refused
 * with a reason.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "check/traffic.h"
#include "gen/gen.h"
#include "model/prng.h"
#include "model/routing.h"
#include "route/engine.h"
#include "route/ff/ff.h"
#include "topo/flatfly.h"
#include "unit.h"

#define MAX_PATH 64

enum { V_MIXED = 1, V_TWISTED = 2, V_ADOR = 4 };

/* The path SL of the escape layer (the first SL after the 4 orders). */
#define ESCAPE_SL 4

static const struct {
	const char *name;
	unsigned int variant;
} engines[] = {
	{ "ff-dor", 0 },
	{ "ff-mixed-dor", V_MIXED },
	{ "ff-twisted-dor", V_TWISTED },
	{ "ff-twisted-mixed-dor", V_TWISTED | V_MIXED },
	{ "ff-ador", V_ADOR },
	{ "ff-mixed-ador", V_MIXED | V_ADOR },
	{ "ff-twisted-ador", V_TWISTED | V_ADOR },
	{ "ff-twisted-mixed-ador", V_TWISTED | V_MIXED | V_ADOR },
};

#define NENGINES (sizeof(engines) / sizeof(engines[0]))

static uint64_t name_guid(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 0x100000001b3ull;
	}
	return h | 1;
}

/* LIDs in node order, CA ports 2^lmc each, aligned as OpenSM does. */
static void give_lids(struct ot_fabric *f, unsigned int lmc)
{
	struct ot_error err = { 0 };
	uint32_t i;

	for (i = 0; i < f->nnodes; i++)
		f->node[i].guid = name_guid(f->node[i].desc);
	ck_assert_msg(!ot_fabric_set_ca_lmc(f, (uint8_t)lmc, &err),
		      "LIDs: %s", err.msg);
}

struct shape {
	const char *size, *width;
	unsigned int cas, lmc;
	double drop_links;
	uint64_t seed;
	int shuffle; /* shuffle seed, -1 none */
	double drop_switches;
};

static struct ot_fabric *gen(const struct shape *sh)
{
	struct ot_flatfly_params p = { 0 };
	struct ot_error err = { 0 };
	struct ot_fabric *f;
	const char *s;
	unsigned int d = 0;
	char *end;

	for (s = sh->size; *s; s = *end ? end + 1 : end) {
		p.size[p.ndims] = strtoul(s, &end, 10);
		p.width[p.ndims++] = 1;
	}
	for (s = sh->width; s && *s; s = *end ? end + 1 : end)
		p.width[d++] = strtoul(s, &end, 10);
	p.cas = sh->cas;
	p.drop_links = sh->drop_links;
	p.drop_switches = sh->drop_switches;
	p.drop_seed = sh->seed;
	if (sh->shuffle >= 0) {
		p.shuffle = true;
		p.seed = sh->shuffle;
	}
	f = ot_gen_flatfly(&p, &err);
	ck_assert_msg(f, "gen %s: %s", sh->size, err.msg);
	give_lids(f, sh->lmc);
	return f;
}

static int run(const char *engine, const struct ot_fabric *f,
	       struct ot_routing **r, struct ot_error *err)
{
	return ot_engine_run(ot_engine_find(engine), f, r, err);
}

static struct ot_routing *route(const char *engine, const struct ot_fabric *f)
{
	struct ot_error err = { 0 };
	struct ot_routing *r = NULL;

	ck_assert_msg(!run(engine, f, &r, &err), "%s refused: %s", engine,
		      err.msg);
	return r;
}

static struct ot_ff *map(const struct ot_fabric *f)
{
	struct ot_error err = { 0 };
	struct ot_ff *ff = NULL;

	ck_assert_msg(!ot_ff_map(f, &ff, &err), "map: %s", err.msg);
	return ff;
}

/*
 * The seed's dimension orders, re-derived: for 4 dimensions (1,2,3,4),
 * (2,4,1,3), (3,1,4,2), (4,3,2,1) = p -> r*p mod 5; in general r*p mod
 * (n+1) when n+1 is prime, cyclic shifts otherwise, min(n, 4) of them.
 */
static unsigned int orders(unsigned int n, unsigned int ord[][OT_FF_MAX_DIMS])
{
	unsigned int m = n < 4 ? n : 4, r, p, q;
	bool prime = n + 1 >= 2;

	for (q = 2; q * q <= n + 1; q++)
		if ((n + 1) % q == 0)
			prime = false;
	for (r = 0; r < m; r++)
		for (p = 0; p < n; p++)
			ord[r][p] = prime ? ((r + 1) * (p + 1)) % (n + 1) - 1 :
					    (p + r) % n;
	return m;
}

struct ctx {
	const struct ot_fabric *f;
	const struct ot_routing *r;
	const struct ot_ff *ff;
	unsigned int variant, n, norders, per;
	unsigned int ord[4][OT_FF_MAX_DIMS];
	/* Twisted Mixed: the scheme tried (0 twisted quotas, 1 Mixed's, 2 one order) */
	unsigned int scheme;
	bool complete, f2, esc;
	/* escape layer: the order of the switches, per node */
	uint32_t *phi;
	/* counts over every pair */
	unsigned long pairs, unreached, bad_order, bad_vl, rank_down, detours;
	unsigned long twists, escaped, not_up_down, moved;
	char first[OT_ERROR_LEN];
};

static unsigned int coord(const struct ctx *c, int node, unsigned int d)
{
	return ot_ff_coord(c->ff, c->ff->sw_slot[node], d);
}

/* d: rank of a CA port by GUID among the CA ports of its switch. */
static unsigned int ca_rank(const struct ot_fabric *f, int sw, int ca)
{
	unsigned int p, rank = 0;

	for (p = 1; p <= f->node[sw].nports; p++) {
		int x = f->node[sw].port[p].peer;

		if (x >= 0 && !ot_is_switch(f, x) &&
		    f->node[x].guid < f->node[ca].guid)
			rank++;
	}
	return rank;
}

/*
 * Twisted Mixed, when some order ends in a dimension with parallel
 * cables and the switch has at least a CA per order: two CAs for each
 * order that ends in parallel cables, then one for each order that ends
 * in single cables while they last, the others in turn to the orders
 * that end in parallel cables (so that the twisted final hops, each
 * carrying a whole destination, land on bundles).
 */
static bool twisted_mixed_quotas(const struct ctx *c, unsigned int *quota,
				 unsigned int *left)
{
	unsigned int l, wide = 0;

	if ((c->variant & (V_MIXED | V_TWISTED)) != (V_MIXED | V_TWISTED))
		return false;
	for (l = 0; l < c->norders; l++)
		wide += c->ff->width[c->ord[l][c->n - 1]] > 1;
	if (!wide || *left < c->norders)
		return false;
	for (l = 0; l < c->norders; l++)
		if (c->ff->width[c->ord[l][c->n - 1]] >= 2 && *left >= 2) {
			quota[l] = 2;
			*left -= 2;
		}
	for (l = 0; l < c->norders; l++)
		if (c->ff->width[c->ord[l][c->n - 1]] < 2 && *left) {
			quota[l] = 1;
			--*left;
		}
	for (l = 0; *left; l = (l + 1) % c->norders)
		if (c->ff->width[c->ord[l][c->n - 1]] > 1) {
			quota[l]++;
			--*left;
		}
	return true;
}

/*
 * Mixed (issue 25): the hottest cable of dimension i on a complete
 * FlatFly when order l has quota[l] of the ncas CAs of every switch:
 * with i at position p of order l, a bundle of i carries q_l x (sizes
 * after p) DLIDs of l, each of ncas x (sizes before p) flows, and a
 * cable at most ceil(DLIDs / width) of them.  Returns the largest over
 * the dimensions, *sum their sum.
 */
static uint64_t bound_of(const struct ctx *c, unsigned int ncas,
			 const unsigned int *quota, uint64_t *sum)
{
	uint64_t u[OT_FF_MAX_DIMS] = { 0 }, max = 0;
	unsigned int l, p, q, d;

	for (l = 0; l < c->norders; l++)
		for (p = 0; p < c->n; p++) {
			uint64_t before = 1, after = 1, dlids;
			unsigned int w;

			for (q = 0; q < c->n; q++) {
				if (q < p)
					before *= c->ff->size[c->ord[l][q]];
				if (q > p)
					after *= c->ff->size[c->ord[l][q]];
			}
			d = c->ord[l][p];
			w = c->ff->width[d] ? c->ff->width[d] : 1;
			dlids = quota[l] * after;
			u[d] += (dlids + w - 1) / w * ncas * before;
		}
	for (d = 0, *sum = 0; d < c->n; d++) {
		*sum += u[d];
		max = u[d] > max ? u[d] : max;
	}
	return max;
}

/*
 * Mixed: the order of CA rank d on switch sw.  Each order gets a quota
 * of the switch's CAs: issue 9's greedy quotas (in rounds, as many CAs
 * as its last dimension has parallel cables, while they fit; the rest
 * one each, orders in turn) unless another split has a smaller
 * bound_of() (then its sum; then the greedy one; then more orders used;
 * then the more even, the first such in counting order); Twisted Mixed
 * its own quotas or every CA on order 0, as c->scheme says.  Then the
 * ranks take the orders in turn, passing over used-up quotas.
 */
static unsigned int want_layer(const struct ctx *c, int sw, unsigned int d)
{
	const struct ot_node *nd = &c->f->node[sw];
	unsigned int quota[4] = { 0 }, best[4] = { 0 }, q[4];
	unsigned int ncas = 0, left, p, l, g, round, a, b, e;
	uint64_t bmax = 0, bsum = 0, max, sum;
	bool found = false, twisted_mixed;

	if (c->scheme == 2)
		return 0;
	for (p = 1; p <= nd->nports; p++)
		ncas += nd->port[p].peer >= 0 &&
			!ot_is_switch(c->f, nd->port[p].peer);
	left = ncas;
	if (c->scheme == 0 && twisted_mixed_quotas(c, quota, &left))
		goto deal;
	twisted_mixed = (c->variant & (V_MIXED | V_TWISTED)) ==
			(V_MIXED | V_TWISTED);
	do {
		round = 0;
		for (l = 0; l < c->norders; l++) {
			g = c->ff->width[c->ord[l][c->n - 1]];
			if (g && g <= left) {
				quota[l] += g;
				left -= g;
				round++;
			}
		}
	} while (round);
	for (l = 0; left; left--, l = (l + 1) % c->norders)
		quota[l]++;
	/* every split (a, b, e, rest) of ncas over up to 4 orders */
	for (a = 0; a <= ncas && c->norders > 1; a++)
		for (b = 0; b <= ncas - a; b++)
			for (e = 0; e <= ncas - a - b; e++) {
				unsigned int used = 0, sq = 0, bused = 0, bsq = 0;
				int better;

				memset(q, 0, sizeof(q));
				q[0] = a;
				q[1] = b;
				q[2] = e;
				q[3] = ncas - a - b - e;
				/* orders beyond norders get nothing */
				if ((c->norders == 2 && (e || q[3])) ||
				    (c->norders == 3 && q[3]))
					continue;
				max = bound_of(c, ncas, q, &sum);
				for (l = 0; l < 4; l++) {
					used += q[l] > 0;
					sq += q[l] * q[l];
					bused += best[l] > 0;
					bsq += best[l] * best[l];
				}
				if (!found)
					better = 1;
				else if (max != bmax)
					better = max < bmax;
				else if (sum != bsum)
					better = sum < bsum;
				else if (!memcmp(q, quota, sizeof(q)))
					better = 1;
				else if (!memcmp(best, quota, sizeof(q)))
					better = 0;
				else if (used != bused)
					better = used > bused;
				else
					better = sq < bsq;
				if (better) {
					memcpy(best, q, sizeof(q));
					bmax = max;
					bsum = sum;
					found = true;
				}
			}
	/* issue 9's Twisted Mixed keeps the greedy quotas (scheme 0) */
	if (found && ncas <= 64 && !(twisted_mixed && c->scheme == 0))
		memcpy(quota, best, sizeof(quota));
deal:
	for (l = 0;; l = (l + 1) % c->norders) {
		if (!quota[l])
			continue;
		if (!d--)
			return l;
		quota[l]--;
	}
}

/*
 * The twist coordinate in L toward CA rank d of switch sw: d mod K_L;
 * Twisted Mixed: the CA's rank among the CAs of its order on sw, plus
 * sw's coordinate in L, mod K_L (issue 9: d mod K_L would tie the twist
 * to the order); ranks K_L and beyond take sw's own coordinate.
 */
static unsigned int twist_tau(const struct ctx *c, int sw, unsigned int d,
			      unsigned int L)
{
	unsigned int l, e, j = 0;

	if (!(c->variant & V_MIXED) || c->scheme == 2)
		return d % c->ff->size[L];
	l = want_layer(c, sw, d);
	for (e = 0; e < d; e++)
		j += want_layer(c, sw, e) == l;
	if (j >= c->ff->size[L])
		return coord(c, sw, L); /* K_L ranks twist at most */
	return (j + coord(c, sw, L)) % c->ff->size[L];
}

/* Position of dimension d in order l. */
static unsigned int pos(const struct ctx *c, unsigned int l, unsigned int d)
{
	unsigned int p;

	for (p = 0; p < c->n; p++)
		if (c->ord[l][p] == d)
			return p;
	return 0;
}

static void note(struct ctx *c, unsigned long *counter, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Counts a problem; the first one is kept for the failure message. */
static void note(struct ctx *c, unsigned long *counter, const char *fmt, ...)
{
	va_list ap;

	if (!c->bad_order && !c->bad_vl && !c->rank_down && !c->unreached &&
	    !c->not_up_down) {
		va_start(ap, fmt);
		vsnprintf(c->first, sizeof(c->first), fmt, ap);
		va_end(ap);
	}
	(*counter)++;
}

/*
 * Rank of the channel leaving over a cable of dimension dim on VL vl:
 * first-hop VLs of the twisted variants lowest, then per layer (its VL
 * pair) position of dim in the layer's order, then the same-dim VL.
 */
static int rank_of(const struct ctx *c, unsigned int dim, unsigned int vl)
{
	unsigned int top = c->norders * c->per;

	if ((c->variant & V_TWISTED) && vl >= top)
		return vl - top;
	return 2 + 3 * (int)pos(c, vl / c->per, dim) + vl % c->per;
}

/* The VL the seed's rules give a hop from dimension din into dout. */
static unsigned int want_vl(const struct ctx *c, unsigned int l, int din,
			    int dout)
{
	unsigned int L = c->ord[l][c->n - 1];

	if (c->r->nvls == 1u + c->esc)
		return 0;
	if (c->variant & V_TWISTED) {
		if (din < 0)
			return c->norders * c->per;
		if (c->f2 && din == dout && dout == (int)L)
			return c->norders * c->per + 1;
	}
	return l * c->per + (c->per == 2 && din == dout);
}

/*
 * The escape layer's order, re-derived from its definition: breadth-first
 * distance over the cabling from the first switch position present, then
 * the sum of the coordinates, then the position.  phi[node] for switches.
 */
static void derive_phi(struct ctx *c)
{
	const struct ot_fabric *f = c->f;
	const struct ot_ff *ff = c->ff;
	uint32_t *dist, *queue, head = 0, tail = 0, s, x;
	uint64_t *key;
	int32_t root = -1;
	unsigned int p, d, sum;

	dist = calloc(f->nnodes, sizeof(*dist));
	queue = calloc(f->nnodes, sizeof(*queue));
	key = calloc(f->nnodes, sizeof(*key));
	c->phi = calloc(f->nnodes, sizeof(*c->phi));
	ck_assert(dist && queue && key && c->phi);
	for (s = 0; s < f->nnodes; s++) {
		dist[s] = UINT32_MAX;
		if (ot_is_switch(f, s) &&
		    (root < 0 || ff->sw_slot[s] < ff->sw_slot[root]))
			root = s;
	}
	ck_assert_int_ge(root, 0);
	dist[root] = 0;
	queue[tail++] = root;
	while (head < tail) {
		s = queue[head++];
		for (p = 1; p <= f->node[s].nports; p++) {
			int32_t y = f->node[s].port[p].peer;

			if (y < 0 || !ot_is_switch(f, y) || dist[y] != UINT32_MAX)
				continue;
			dist[y] = dist[s] + 1;
			queue[tail++] = y;
		}
	}
	for (s = 0; s < f->nnodes; s++) {
		if (!ot_is_switch(f, s))
			continue;
		for (d = 0, sum = 0; d < ff->ndims; d++)
			sum += coord(c, s, d);
		key[s] = ((uint64_t)(dist[s] < 0xffff ? dist[s] : 0xffff) << 48) +
			 ((uint64_t)sum << 32) + (uint64_t)ff->sw_slot[s];
	}
	/* phi: how many switches come before, by key */
	for (s = 0; s < f->nnodes; s++)
		for (x = 0; x < f->nnodes && ot_is_switch(f, s); x++)
			c->phi[s] += ot_is_switch(f, x) && key[x] < key[s];
	free(dist);
	free(queue);
	free(key);
}

/*
 * A pair on the escape layer: every hop on the escape VL (the highest),
 * and up (to a smaller phi) hops only before down hops.
 */
static void check_escape_path(struct ctx *c, const int32_t *nodes,
			      const unsigned int *pin, const unsigned int *pout,
			      unsigned int len, const char *sn, const char *dn)
{
	unsigned int i;
	bool down = false;

	c->escaped++;
	for (i = 0; i + 1 < len; i++) {
		bool up = c->phi[nodes[i + 1]] < c->phi[nodes[i]];

		if (ot_routing_vl(c->r, nodes[i], pin[i], pout[i], ESCAPE_SL) !=
		    c->r->nvls - 1) {
			note(c, &c->bad_vl, "%s -> %s: escape hop not on the escape VL",
			     sn, dn);
			return;
		}
		if (up && down) {
			note(c, &c->not_up_down, "%s -> %s: escape path goes up after down",
			     sn, dn);
			return;
		}
		down = !up;
	}
}

/*
 * Follows the tables from CA port (src, sp) to dlid, checking the
 * variant's promise hop by hop.
 */
static void check_pair(struct ctx *c, int src, unsigned int sp, uint16_t dlid)
{
	const struct ot_fabric *f = c->f;
	const struct ot_lid_owner *o = &f->lid_owner[dlid];
	const char *sn = f->node[src].desc, *dn;
	int32_t nodes[MAX_PATH];
	unsigned int pin[MAX_PATH], pout[MAX_PATH], dims[MAX_PATH];
	unsigned int len = 0, sl, i, d, l = 0, L, k0 = 0, want;
	unsigned int dh[OT_FF_MAX_DIMS] = { 0 };
	unsigned int offset = dlid - f->node[o->node].port[o->port].lid;
	int cur = f->node[src].port[sp].peer, dst = o->node, tsw, rk, last = -1;
	unsigned int in = f->node[src].port[sp].peer_port;

	c->pairs++;
	dn = f->node[dst].desc;
	tsw = f->node[dst].port[o->port].peer;
	while (len < MAX_PATH && ot_is_switch(f, cur)) {
		unsigned int p = c->r->lft[cur][dlid];

		nodes[len] = cur;
		pin[len] = in;
		pout[len++] = p;
		if (p == 0 || p > f->node[cur].nports ||
		    f->node[cur].port[p].peer < 0)
			break;
		in = f->node[cur].port[p].peer_port;
		cur = f->node[cur].port[p].peer;
	}
	if (cur != dst || !len || nodes[len - 1] != tsw) {
		note(c, &c->unreached, "%s -> %s unreached", sn, dn);
		return;
	}
	sl = ot_routing_path_sl(c->r, f->node[src].port[sp].lid, dlid);
	if (sl == ESCAPE_SL) {
		check_escape_path(c, nodes, pin, pout, len, sn, dn);
		return;
	}
	if (c->variant & V_MIXED)
		l = want_layer(c, tsw, ca_rank(f, tsw, dst));
	/*
	 * Damaged, a Mixed destination moves to another order when its own
	 * cannot reach it from everywhere: the path SL says which, and the
	 * path must follow that order.
	 */
	if (sl != l && (c->complete || sl >= c->norders)) {
		note(c, &c->bad_order, "%s -> %s: wrong path SL", sn, dn);
		return;
	}
	if (sl != l)
		c->moved++;
	l = sl;
	L = c->ord[l][c->n - 1];
	for (i = 0; i + 1 < len; i++) {
		int a = nodes[i], b = nodes[i + 1], din;
		unsigned int changed = 0, vl;

		for (d = 0; d < c->n; d++)
			if (coord(c, a, d) != coord(c, b, d)) {
				changed++;
				dims[i] = d;
			}
		if (changed != 1 ||
		    (int)dims[i] != ot_ff_port_dim(c->ff, a, pout[i])) {
			note(c, &c->bad_order, "%s -> %s: hop not in one dimension",
			     sn, dn);
			return;
		}
		din = i ? ot_ff_port_dim(c->ff, a, pin[i]) : -1;
		vl = ot_routing_vl(c->r, a, pin[i], pout[i], sl);
		want = want_vl(c, l, din, dims[i]);
		if (vl != want) {
			note(c, &c->bad_vl, "%s -> %s: VL not as the seed's rule",
			     sn, dn);
			return;
		}
		rk = rank_of(c, dims[i], vl);
		if (rk <= last)
			note(c, &c->rank_down, "%s -> %s: channel rank goes down",
			     sn, dn);
		last = rk;
	}
	if (c->variant & V_TWISTED) {
		/* leading hops in L: the twist (1, 2 with a detour) */
		unsigned int tau = twist_tau(c, tsw, ca_rank(f, tsw, dst), L);

		while (k0 + 1 < len && dims[k0] == L && k0 < 2)
			k0++;
		if (c->complete && len > 1 && coord(c, nodes[0], L) != tau &&
		    (k0 != 1 && !(k0 == 2 && nodes[2] == tsw))) {
			note(c, &c->bad_order, "%s -> %s: not one twist hop",
			     sn, dn);
			return;
		}
		if (c->complete && len > 1 && coord(c, nodes[0], L) != tau &&
		    coord(c, nodes[1], L) != tau) {
			note(c, &c->bad_order, "%s -> %s: twist misses tau",
			     sn, dn);
			return;
		}
		if (k0 && coord(c, nodes[0], L) != coord(c, nodes[k0], L))
			c->twists++;
	}
	/* the DOR phase: the layer's order, each dimension one hop (two) */
	for (i = k0; i + 1 < len; i++) {
		unsigned int dm = dims[i];

		/* Twisted ADOR: the twist was the extra hop in L */
		if ((c->variant & V_TWISTED) && dm == L && dh[dm] &&
		    (c->variant & V_ADOR) && offset) {
			note(c, &c->bad_order, "%s -> %s: extra hop in L", sn, dn);
			return;
		}
		if (dh[dm]++ && dims[i - 1] != dm) {
			note(c, &c->bad_order, "%s -> %s: dimension taken twice",
			     sn, dn);
			return;
		}
		if (i > k0 && pos(c, l, dm) < pos(c, l, dims[i - 1])) {
			note(c, &c->bad_order, "%s -> %s: dimensions out of order",
			     sn, dn);
			return;
		}
		if (dh[dm] > 2) {
			note(c, &c->bad_order, "%s -> %s: three hops in one dimension",
			     sn, dn);
			return;
		}
		if (dh[dm] == 2 && (!(c->variant & V_ADOR) || !offset))
			c->detours++;
	}
	/* minimal for DOR on a complete fabric: one hop per dimension */
	if (c->complete && !(c->variant & V_TWISTED) &&
	    (!(c->variant & V_ADOR) || !offset)) {
		want = 0;
		for (d = 0; d < c->n; d++)
			want += coord(c, nodes[0], d) != coord(c, tsw, d);
		if (len - 1 != want)
			note(c, &c->bad_order, "%s -> %s: not minimal", sn, dn);
	}
}

static bool fabric_complete(const struct ot_ff *ff, const struct ot_fabric *f)
{
	uint32_t s, links = 0, want = 0;
	unsigned int d, p;

	for (s = 0; s < ff->nslots; s++)
		if (ff->slot_node[s] < 0)
			return false;
	for (s = 0; s < f->nnodes; s++)
		if (ot_is_switch(f, s))
			for (p = 1; p <= f->node[s].nports; p++)
				if (ot_ff_port_dim(ff, s, p) >= 0)
					links++;
	for (d = 0; d < ff->ndims; d++)
		want += (ff->size[d] - 1) * ff->width[d];
	return links == want * ff->nslots;
}

/* Every CA port to every other CA LID (all LMC offsets) and switch LID. */
static void walk_all(struct ctx *c)
{
	const struct ot_fabric *f = c->f;
	uint32_t s, lid;
	unsigned int sp;

	for (s = 0; s < f->nnodes; s++) {
		if (ot_is_switch(f, s))
			continue;
		for (sp = 1; sp <= f->node[s].nports; sp++) {
			if (f->node[s].port[sp].peer < 0)
				continue;
			for (lid = 1; lid <= f->max_lid; lid++) {
				const struct ot_lid_owner *o =
					&f->lid_owner[lid];

				if (o->node < 0 || o->node == (int)s ||
				    ot_is_switch(f, o->node))
					continue;
				check_pair(c, s, sp, lid);
			}
		}
	}
}

/* Every switch reaches every LID, and only its own at port 0. */
static void check_complete_lfts(const struct ot_fabric *f,
				const struct ot_routing *r)
{
	unsigned long bad = 0;
	uint32_t s, lid;

	for (s = 0; s < f->nnodes; s++) {
		if (!ot_is_switch(f, s))
			continue;
		for (lid = 1; lid <= f->max_lid; lid++) {
			int owner = f->lid_owner[lid].node;
			int cur = s;
			unsigned int hops = 0;

			if (owner < 0)
				continue;
			if ((owner == (int)s) != (r->lft[s][lid] == 0))
				bad++;
			while (ot_is_switch(f, cur) && r->lft[cur][lid] &&
			       r->lft[cur][lid] <= f->node[cur].nports &&
			       hops++ < MAX_PATH)
				cur = f->node[cur].port[r->lft[cur][lid]].peer;
			if (cur != owner)
				bad++;
		}
	}
	ck_assert_uint_eq(bad, 0);
}

/* The checker: everything reached, no loop, no credit loop. */
static const struct ot_check_counts *check(const struct ot_fabric *f,
					   const struct ot_routing *r,
					   struct ot_check_report **rep)
{
	struct ot_error err = { 0 };

	ck_assert(!ot_check_run(f, r, NULL, rep, &err));
	return ot_check_counts(*rep);
}

/*
 * Twisted Mixed with fewer orders than the full Latin rectangle (full):
 * the orders ending in a dimension with parallel cables are kept first,
 * then the others, each group in row order.
 */
static void keep_wide_orders(struct ctx *c, unsigned int full)
{
	unsigned int all[4][OT_FF_MAX_DIMS], r, k = 0;
	bool wide;
	int pass;

	if ((c->variant & (V_MIXED | V_TWISTED)) != (V_MIXED | V_TWISTED) ||
	    c->norders >= full)
		return;
	memcpy(all, c->ord, sizeof(all));
	for (pass = 1; pass >= 0; pass--)
		for (r = 0; r < full; r++) {
			wide = c->ff->width[all[r][c->n - 1]] > 1;
			if (wide == (bool)pass)
				memcpy(c->ord[k++], all[r], sizeof(all[r]));
		}
}

/*
 * How many orders and VLs per order the engine ended up with: two per
 * order when SL2VL sends a hop within one dimension (not the twist's)
 * on another VL; one more, the highest, when some destination has the
 * escape layer's path SL; the Mixed variants shed orders to stay within
 * 8 VLs.
 */
static void derive_layout(struct ctx *c)
{
	const struct ot_fabric *f = c->f;
	unsigned int m, extra, p, q, nvls;
	uint32_t s, lid;

	m = orders(c->n, c->ord);
	if (!(c->variant & V_MIXED))
		m = 1;
	c->esc = false;
	for (lid = 1; lid <= f->max_lid; lid++)
		if (f->lid_owner[lid].node >= 0 &&
		    ot_routing_path_sl(c->r, 0, lid) == ESCAPE_SL)
			c->esc = true;
	nvls = c->r->nvls - c->esc;
	c->per = 1;
	for (s = 0; s < f->nnodes && c->r->nvls > 1; s++) {
		if (!ot_is_switch(f, s))
			continue;
		for (p = 1; p <= f->node[s].nports; p++)
			for (q = 1; q <= f->node[s].nports; q++) {
				int dp = ot_ff_port_dim(c->ff, s, p);

				if (p == q || dp < 0 ||
				    dp != ot_ff_port_dim(c->ff, s, q) ||
				    ((c->variant & V_TWISTED) &&
				     dp == (int)c->ord[0][c->n - 1]))
					continue;
				if (ot_routing_vl(c->r, s, p, q, 0) == 1)
					c->per = 2;
			}
	}
	for (; m > 1; m--) {
		extra = (c->variant & V_TWISTED) ? 1 : 0;
		if (m * c->per + extra == nvls ||
		    (extra && m * c->per + 2 == nvls))
			break;
	}
	c->norders = m;
	c->f2 = (c->variant & V_TWISTED) && nvls == m * c->per + 2;
	keep_wide_orders(c, orders(c->n, c->ord));
}

/* Checks sh routed by engine e in every way; returns the escaped pairs. */
static unsigned long full_check(const struct shape *shape, unsigned int e)
{
	struct shape lmc1 = *shape;
	const struct shape *sh = &lmc1;
	struct ot_check_report *rep = NULL;
	const struct ot_check_counts *k;
	struct ot_fabric *f;
	struct ot_routing *r;
	struct ctx c = { .variant = engines[e].variant };

	/* ff-ador refuses lmc 0 (tested on its own) */
	if ((engines[e].variant & V_ADOR) && !lmc1.lmc)
		lmc1.lmc = 1;
	f = gen(sh);
	r = route(engines[e].name, f);
	c.f = f;
	c.r = r;

	c.ff = map(f);
	c.n = c.ff->ndims;
	c.complete = fabric_complete(c.ff, f);
	derive_layout(&c);
	derive_phi(&c);
	check_complete_lfts(f, r);
	/*
	 * Twisted Mixed routes with the scheme whose busiest cable carries
	 * least (issue 25): its paths follow one of them, as a whole.
	 */
	for (c.scheme = 0; c.scheme < 3; c.scheme++) {
		c.pairs = c.unreached = c.bad_order = c.bad_vl = 0;
		c.rank_down = c.detours = c.twists = c.escaped = 0;
		c.not_up_down = c.moved = 0;
		c.first[0] = 0;
		walk_all(&c);
		if ((c.variant & (V_MIXED | V_TWISTED)) !=
		    (V_MIXED | V_TWISTED) ||
		    !(c.unreached || c.bad_order || c.bad_vl ||
		      c.not_up_down || c.rank_down))
			break;
	}
	ck_assert_uint_gt(c.pairs, 0);
	ck_assert_msg(!c.unreached && !c.bad_order && !c.bad_vl &&
		      !c.not_up_down,
		      "%s on %s: %lu unreached, %lu off the promised order, %lu on a wrong VL, %lu escape paths not up then down; first: %s",
		      engines[e].name, sh->size, c.unreached, c.bad_order,
		      c.bad_vl, c.not_up_down, c.first);
	/* the escape layer only where the variant fails: never when complete */
	if (c.complete)
		ck_assert_uint_eq(c.escaped, 0);
	ck_assert_msg(!c.rank_down, "%s on %s: %lu paths with rank going down: %s",
		      engines[e].name, sh->size, c.rank_down, c.first);
	if (c.complete && !(c.variant & V_ADOR))
		ck_assert_uint_eq(c.detours, 0);
	ck_assert_uint_le(r->nvls, 8);
	ck_assert(r->needs_qos == (r->nvls > 1));
	k = check(f, r, &rep);
	ck_assert_msg(k->unreachable == 0 && k->looping == 0,
		      "%s: checker: %" PRIu64 " unreachable, %" PRIu64 " looping",
		      engines[e].name, k->unreachable, k->looping);
	ck_assert_msg(k->credit_loops == 0, "%s on %s: %u credit loops",
		      engines[e].name, sh->size, k->credit_loops);
	ot_check_report_free(rep);
	free(c.phi);
	ot_ff_free((struct ot_ff *)c.ff);
	ot_routing_free(r);
	ot_fabric_free(f);
	return c.escaped;
}

static const struct shape small[] = {
	{ "3x3x3", "2,1,1", 2, 0, 0, 0, -1, 0 },
	{ "3x3x3", "2,1,1", 2, 0, 0, 0, 7, 0 },
	{ "4x3", "1,2", 4, 0, 0, 0, 3, 0 },
	{ "2x2x2x2", "2,2,2,2", 2, 0, 0, 0, -1, 0 },
	/* Twisted Mixed ADOR sheds an order: the one ending in width 1 */
	{ "2x3x3x3", "2,1,1,1", 4, 0, 0, 0, 13, 0 },
	{ "2x2x2x2", NULL, 5, 0, 0, 0, 9, 0 },
	{ "5", NULL, 3, 0, 0, 0, -1, 0 },
	{ "3x4x2x3", NULL, 4, 0, 0, 0, 11, 0 },
};

START_TEST(complete_fabrics)
{
	unsigned int i;

	for (i = 0; i < sizeof(small) / sizeof(small[0]); i++)
		full_check(&small[i], _i);
}
END_TEST

static const struct shape with_lmc[] = {
	{ "3x3x3", "2,1,1", 2, 1, 0, 0, -1, 0 },
	{ "4x4", NULL, 2, 2, 0, 0, 5, 0 },
	{ "2x2x2", NULL, 1, 1, 0, 0, -1, 0 },
};

START_TEST(lmc_fabrics)
{
	unsigned int i;

	for (i = 0; i < sizeof(with_lmc) / sizeof(with_lmc[0]); i++)
		full_check(&with_lmc[i], _i);
}
END_TEST

/*
 * 5% of the cables gone, several draws (two of them lose two sides of a
 * triangle, or a switch's whole line in a dimension, where no in-line
 * detour exists): every draw routed, every pair on the promised paths or
 * on the escape layer, no credit loop.
 */
START_TEST(missing_links)
{
	struct shape sh = { "3x3x3", "2,1,1", 2, 0, 0.05, 0, 4, 0 };
	unsigned long escaped = 0;
	uint64_t seed;

	if (engines[_i].variant & V_ADOR)
		sh.lmc = 1;
	for (seed = 1; seed <= 8; seed++) {
		sh.seed = seed;
		escaped += full_check(&sh, _i);
	}
	sh.size = "4x4x3";
	sh.width = NULL;
	for (seed = 1; seed <= 6; seed++) {
		sh.seed = seed;
		escaped += full_check(&sh, _i);
	}
	/* seeds 3 and 6 of 3x3x3 have no in-line detour for some pair */
	ck_assert_uint_gt(escaped, 0);
}
END_TEST

/* 10% of cables and 10% of switches gone: what remains is routed. */
START_TEST(missing_switches)
{
	struct shape sh = { "3x3x3", NULL, 2, 0, 0.1, 0, -1, 0.1 };
	uint64_t seed;

	if (engines[_i].variant & V_ADOR)
		sh.lmc = 1;
	for (seed = 1; seed <= 5; seed++) {
		sh.seed = seed;
		full_check(&sh, _i);
	}
}
END_TEST

/* Width 2 everywhere: a lost cable leaves its twin, no detour needed. */
START_TEST(missing_links_hypercube_w2)
{
	struct shape sh = { "2x2x2x2", "2,2,2,2", 2, 1, 0.05, 3, -1, 0 };

	full_check(&sh, _i);
}
END_TEST

/*
 * A hypercube line has no third switch: a lost cable sends the
 * destinations behind it to the escape layer, one VL more.  (Twisted
 * Mixed (DOR and ADOR) with one CA per switch twists to T's own
 * coordinate, so it is Mixed with each order's last dimension first; on
 * the first shape its orders reach every destination without the escape
 * layer.)
 */
START_TEST(hypercube_lost_cable_escapes)
{
	struct shape sh = { "2x2x2x2", NULL, 1, 1, 0.1, 2, -1, 0 };
	unsigned long escaped = full_check(&sh, _i);

	if ((engines[_i].variant & (V_TWISTED | V_MIXED)) !=
	    (V_TWISTED | V_MIXED))
		ck_assert_uint_gt(escaped, 0);
	sh.size = "2x2x2x2x2x2";
	sh.drop_links = 0.05;
	ck_assert_uint_gt(full_check(&sh, _i), 0);
}
END_TEST

/*
 * Four switches cabled as two separate pairs: no path between them at
 * all, refused with two switches named (the mapping already sees it; the
 * escape layer would refuse it too).  With lmc 1, so that the ADOR
 * variants get as far as the others.
 */
START_TEST(cut_fabric_refused)
{
	struct ot_error err = { 0 };
	struct ot_fabric *f = ot_fabric_new();
	struct ot_routing *r = NULL;
	char name[32], want[OT_ERROR_LEN];
	int i;

	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "L[%d]", i);
		ck_assert_int_eq(ot_fabric_add_node(f, OT_NODE_SWITCH, 4,
						    0x100 + i, name, &err), i);
	}
	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "L[%d]/0", i);
		ck_assert_int_eq(ot_fabric_add_node(f, OT_NODE_CA, 1, 0x200 + i,
						    name, &err), 4 + i);
		ck_assert(!ot_fabric_link(f, i, 4, 4 + i, 1, &err));
	}
	/* 0-1 and 2-3 only: two pieces (mapped as two dimensions) */
	ck_assert(!ot_fabric_link(f, 0, 1, 1, 1, &err));
	ck_assert(!ot_fabric_link(f, 2, 1, 3, 1, &err));
	ck_assert_msg(!ot_fabric_set_ca_lmc(f, 1, &err), "%s", err.msg);
	ck_assert_int_eq(run(engines[_i].name, f, &r, &err), -1);
	ck_assert_ptr_null(r);
	snprintf(want, sizeof(want),
		 "%s: switch \"L[2]\" (0x0000000000000102) has no switch-to-switch path to switch \"L[0]\" (0x0000000000000100): the switches are not one fabric",
		 engines[_i].name);
	ck_assert_str_eq(err.msg, want);
	ot_fabric_free(f);
}
END_TEST

/*
 * A ring of 5 switches is no FlatFly: refused with the mapping's reason,
 * naming the first cable it cannot place, by the switches' names, GUIDs
 * and ports (lmc 1: the ADOR variants get that far too).
 */
START_TEST(refuse_non_flatfly)
{
	struct ot_error err = { 0 };
	struct ot_fabric *f = ot_fabric_new();
	struct ot_routing *r = NULL;
	char name[32], want[OT_ERROR_LEN];
	int i;

	for (i = 0; i < 5; i++) {
		snprintf(name, sizeof(name), "ring%d", i);
		ck_assert_int_eq(ot_fabric_add_node(f, OT_NODE_SWITCH, 3,
						    0x100 + i, name, &err), i);
	}
	for (i = 0; i < 5; i++) {
		snprintf(name, sizeof(name), "ca%d", i);
		ck_assert_int_eq(ot_fabric_add_node(f, OT_NODE_CA, 1, 0x200 + i,
						    name, &err), 5 + i);
		ck_assert(!ot_fabric_link(f, i, 1, (i + 1) % 5, 2, &err));
		ck_assert(!ot_fabric_link(f, i, 3, 5 + i, 1, &err));
	}
	ck_assert_msg(!ot_fabric_set_ca_lmc(f, 1, &err), "%s", err.msg);
	ck_assert_int_eq(run(engines[_i].name, f, &r, &err), -1);
	snprintf(want, sizeof(want),
		 "%s: switch \"ring0\" (0x0000000000000100) port 1 -- switch \"ring1\" (0x0000000000000101) port 2: ",
		 engines[_i].name);
	ck_assert_msg(!strncmp(err.msg, want, strlen(want)),
		      "\"%s\" does not start with \"%s\"", err.msg, want);
	ck_assert_msg(strstr(err.msg, "not a FlatFly"), "%s", err.msg);
	ot_fabric_free(f);
}
END_TEST

/* The ADOR variants refuse lmc 0, saying so. */
START_TEST(ador_needs_lmc)
{
	static const char *const names[] = { "ff-ador", "ff-mixed-ador",
					     "ff-twisted-ador",
					     "ff-twisted-mixed-ador" };
	struct shape sh = { "3x3", NULL, 1, 0, 0, 0, -1, 0 };
	struct ot_fabric *f = gen(&sh);
	struct ot_error err = { 0 };
	struct ot_routing *r = NULL;
	char want[OT_ERROR_LEN];

	ck_assert_int_eq(run(names[_i], f, &r, &err), -1);
	snprintf(want, sizeof(want),
		 "%s: needs lmc >= 1 (LID offsets carry its non-minimal paths); every CA port has a single LID",
		 names[_i]);
	ck_assert_str_eq(err.msg, want);
	ot_fabric_free(f);
}
END_TEST

/* Path (switch sequence) from CA port (s, 1) to dlid, as a hash. */
static uint64_t path_hash(const struct ot_fabric *f, const struct ot_routing *r,
			  int s, uint16_t dlid)
{
	int cur = f->node[s].port[1].peer;
	uint64_t h = 1469598103934665603ull;
	unsigned int hops = 0;

	while (ot_is_switch(f, cur) && r->lft[cur][dlid] && hops++ < MAX_PATH) {
		h = (h ^ (uint64_t)cur) * 1099511628211ull;
		cur = f->node[cur].port[r->lft[cur][dlid]].peer;
	}
	return h;
}

/*
 * The ADOR variants with lmc 2 on 4x4: 4 LIDs per CA; a pair on two
 * switches of one line gets offset 0 direct and the offsets through the
 * two other switches of the line: 3 distinct paths; pairs differing in
 * both dimensions get more.  ff-twisted-ador takes no extra hop in the
 * last dimension (its twist was that hop), so there only pairs that
 * differ in dimension 0 are counted.
 */
START_TEST(ador_distinct_paths)
{
	static const char *const names[] = { "ff-ador", "ff-mixed-ador",
					     "ff-twisted-ador" };
	struct shape sh = { "4x4", NULL, 1, 2, 0, 0, -1, 0 };
	struct ot_fabric *f = gen(&sh);
	struct ot_routing *r = route(names[_i], f);
	struct ot_ff *ff = map(f);
	unsigned long pairs = 0, min_distinct = 99, sum = 0;
	bool twisted = strstr(names[_i], "twisted");
	uint32_t s, t;
	unsigned int o, k;

	/* 2 VLs per order; Mixed: 2 orders for 2 dimensions; twist: 1 */
	ck_assert_uint_eq(r->nvls, _i == 1 ? 4 : _i == 2 ? 3 : 2);
	for (s = 0; s < f->nnodes; s++) {
		if (ot_is_switch(f, s))
			continue;
		for (t = 0; t < f->nnodes; t++) {
			uint64_t h[4];
			unsigned int distinct = 0;
			int a = f->node[s].port[1].peer,
			    b = f->node[t].port[1].peer;

			if (ot_is_switch(f, t) || a == b)
				continue;
			if (twisted && ot_ff_coord(ff, ff->sw_slot[a], 0) ==
					       ot_ff_coord(ff, ff->sw_slot[b], 0))
				continue;
			for (o = 0; o < 4; o++) {
				h[o] = path_hash(f, r, s,
						 f->node[t].port[1].lid + o);
				for (k = 0; k < o; k++)
					if (h[k] == h[o])
						break;
				distinct += k == o;
			}
			pairs++;
			sum += distinct;
			if (distinct < min_distinct)
				min_distinct = distinct;
		}
	}
	ck_assert_uint_gt(pairs, 0);
	/* one line: direct + 2 vias (offset 3 repeats offset 1's via) */
	ck_assert_uint_ge(min_distinct, 3);
	/* two dimensions to cross: more, except after a twist (L has none) */
	if (twisted)
		ck_assert_uint_eq(sum, pairs * 3);
	else
		ck_assert_uint_gt(sum, pairs * 3);
	ot_ff_free(ff);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * Negative controls: the separation onto VLs is what prevents deadlock.
 * Mixed orders, the twist, or ADOR's second hop all on VL 0 close
 * credit loops that the checker finds.
 */
START_TEST(one_vl_has_credit_loops)
{
	static const struct {
		const char *engine;
		struct shape sh;
	} cases[] = {
		{ "ff-mixed-dor", { "3x3x3", NULL, 4, 0, 0, 0, -1, 0 } },
		{ "ff-twisted-dor", { "3x3x3", NULL, 3, 0, 0, 0, -1, 0 } },
		{ "ff-twisted-mixed-dor", { "3x3x3", NULL, 3, 0, 0, 0, -1, 0 } },
		{ "ff-ador", { "4x4", NULL, 2, 2, 0, 0, -1, 0 } },
		{ "ff-mixed-ador", { "3x3x3", NULL, 3, 1, 0, 0, -1, 0 } },
		{ "ff-twisted-ador", { "3x3x3", NULL, 3, 1, 0, 0, -1, 0 } },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ot_fabric *f = gen(&cases[i].sh);
		struct ot_routing *r = route(cases[i].engine, f);
		struct ot_check_report *rep = NULL;
		const struct ot_check_counts *k;
		uint32_t n;

		k = check(f, r, &rep);
		ck_assert_uint_eq(k->credit_loops, 0);
		ck_assert_uint_gt(r->nvls, 1);
		ot_check_report_free(rep);
		for (n = 0; n < f->nnodes; n++) {
			free(r->sl2vl[n]);
			r->sl2vl[n] = NULL;
		}
		k = check(f, r, &rep);
		ck_assert_msg(k->credit_loops > 0,
			      "%s on one VL: no credit loop found",
			      cases[i].engine);
		ot_check_report_free(rep);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
}
END_TEST

/* The orders of ff-mixed-dor for 4 dimensions are the seed's. */
START_TEST(seed_orders)
{
	static const unsigned int seed[4][4] = {
		{ 1, 2, 3, 4 }, { 2, 4, 1, 3 }, { 3, 1, 4, 2 }, { 4, 3, 2, 1 },
	};
	unsigned int ord[4][OT_FF_MAX_DIMS], r, p;

	ck_assert_uint_eq(orders(4, ord), 4);
	for (r = 0; r < 4; r++)
		for (p = 0; p < 4; p++)
			ck_assert_uint_eq(ord[r][p] + 1, seed[r][p]);
}
END_TEST

/* Tables depend on the topology, not on port numbers or node order. */
START_TEST(deterministic)
{
	struct shape a = { "3x3x3", "2,1,1", 2, 1, 0, 0, 1, 0 };
	struct shape b = { "3x3x3", "2,1,1", 2, 1, 0, 0, 2, 0 };
	struct ot_fabric *fa = gen(&a), *fb = gen(&b);
	struct ot_routing *ra = route(engines[_i].name, fa);
	struct ot_routing *rb = route(engines[_i].name, fb);
	unsigned long diff = 0;
	uint32_t i, j, lid;

	/*
	 * Compare next switches per (switch, destination node and offset):
	 * ports differ between the two shuffles, neighbours must not.
	 */
	for (i = 0; i < fa->nnodes; i++) {
		if (!ot_is_switch(fa, i))
			continue;
		for (j = 0; j < fb->nnodes; j++)
			if (fb->node[j].guid == fa->node[i].guid)
				break;
		ck_assert_uint_lt(j, fb->nnodes);
		for (lid = 1; lid <= fa->max_lid; lid++) {
			const struct ot_lid_owner *o = &fa->lid_owner[lid];
			uint32_t lb, x;
			unsigned int pa = ra->lft[i][lid], pb;
			const struct ot_port *pt;

			if (o->node < 0)
				continue;
			for (x = 0; x < fb->nnodes; x++)
				if (fb->node[x].guid == fa->node[o->node].guid)
					break;
			pt = &fb->node[x].port[o->port];
			if (ot_is_switch(fb, x))
				pt = &fb->node[x].port[0];
			else
				for (pb = 1; pb <= fb->node[x].nports; pb++)
					if (fb->node[x].port[pb].lid)
						pt = &fb->node[x].port[pb];
			lb = pt->lid + (lid - fa->node[o->node].port[o->port].lid);
			pb = rb->lft[j][lb];
			if (!pa || !pb) {
				diff += pa != pb;
				continue;
			}
			diff += fa->node[fa->node[i].port[pa].peer].guid !=
				fb->node[fb->node[j].port[pb].peer].guid;
		}
	}
	ck_assert_uint_eq(diff, 0);
	ot_routing_free(ra);
	ot_routing_free(rb);
	ot_fabric_free(fa);
	ot_fabric_free(fb);
}
END_TEST

/*
 * Parallel cables: per bundle the CA LIDs differ by at most one, and so do
 * the base LIDs alone (with LMC > 0 the base LID is the path that traffic
 * to the base LID takes, so it must be spread too).  The Mixed variants
 * deal each of their 3 orders (on 3 dimensions) within one, the balance
 * test below, and the orders' destinations weigh differently, so their
 * totals may differ by up to one per order.
 */
START_TEST(parallel_cables_even)
{
	struct shape sh = { "3x3x3", "2,1,1", 4, 1, 0, 0, 6, 0 };
	struct ot_fabric *f = gen(&sh);
	struct ot_routing *r = route(engines[_i].name, f);
	unsigned int cnt[OT_MAX_PORTS + 2], base[OT_MAX_PORTS + 2];
	unsigned int slack = (engines[_i].variant & V_MIXED) ? 3 : 1;
	unsigned long pairs = 0;
	uint32_t s, lid;
	unsigned int p, q;

	for (s = 0; s < f->nnodes; s++) {
		const struct ot_node *nd = &f->node[s];

		if (!ot_is_switch(f, s))
			continue;
		memset(cnt, 0, sizeof(cnt));
		memset(base, 0, sizeof(base));
		for (lid = 1; lid <= f->max_lid; lid++) {
			int owner = f->lid_owner[lid].node;

			if (owner < 0 || ot_is_switch(f, owner))
				continue;
			cnt[r->lft[s][lid]]++;
			if (f->node[owner].port[f->lid_owner[lid].port].lid == lid)
				base[r->lft[s][lid]]++;
		}
		for (p = 1; p <= nd->nports; p++)
			for (q = p + 1; q <= nd->nports; q++) {
				if (nd->port[p].peer < 0 ||
				    nd->port[q].peer != nd->port[p].peer ||
				    !ot_is_switch(f, nd->port[p].peer))
					continue;
				pairs++;
				ck_assert_msg(cnt[p] <= cnt[q] + slack &&
					      cnt[q] <= cnt[p] + slack,
					      "%s ports %u, %u: %u and %u LIDs",
					      nd->desc, p, q, cnt[p], cnt[q]);
				ck_assert_msg(base[p] <= base[q] + slack &&
					      base[q] <= base[p] + slack,
					      "%s ports %u, %u: %u and %u base LIDs",
					      nd->desc, p, q, base[p], base[q]);
			}
	}
	ck_assert_uint_gt(pairs, 0);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * Balance (issue 9).  An LFT entry is per destination LID, so the unit
 * dealt onto parallel cables is a DLID with all its flows.  Within every
 * class of DLIDs that share the cables the same way -- path SL (the
 * dimension order, or the escape layer) and LID offset -- the DLIDs a
 * switch sends over the parallel cables to one neighbour differ in count
 * by at most one.  Where every class divides evenly over every bundle, a
 * minimal engine's uniform load is the same on every cable of a
 * dimension: none above 1.02 x the dimension's mean.  FlatFlies and
 * hypercubes, widths 1 to 4, 1 to 8 CAs per switch, ports shuffled.
 */
static const struct shape balanced[] = {
	{ "2x4x4", "2,1,1", 4, 1, 0, 0, 3, 0 },
	{ "4x2x4", "1,2,1", 4, 1, 0, 0, 5, 0 },
	{ "2x8x8", "4,1,1", 8, 1, 0, 0, 7, 0 },
	{ "4x4", "3,2", 6, 1, 0, 0, 11, 0 },
	{ "3x5", "2,3", 5, 1, 0, 0, 13, 0 },
	{ "4x4x4", "2,1,1", 7, 1, 0, 0, 17, 0 },
	{ "3x3", "1,1", 2, 1, 0, 0, 19, 0 },
	{ "2x2x2", "2,2,2", 1, 1, 0, 0, 23, 0 },
	{ "2x2x2x2", "4,1,1,1", 8, 1, 0, 0, 29, 0 },
	{ "2x2x2x2", "2,2,2,2", 3, 1, 0, 0, 31, 0 },
};

#define NBALANCED (sizeof(balanced) / sizeof(balanced[0]))
#define BAL_CLASSES (16 * 4) /* path SL x LID offset (LMC <= 2) */

/* Some CA LID other than lid, the source asked for a path SL. */
static uint16_t other_ca_lid(const struct ot_fabric *f, uint16_t lid)
{
	uint32_t l;

	for (l = 1; l <= f->max_lid; l++) {
		int owner = f->lid_owner[l].node;

		if (l != lid && owner >= 0 && !ot_is_switch(f, owner))
			return (uint16_t)l;
	}
	return 0;
}

/* Per port of switch s, the CA DLIDs it forwards, by class. */
static void count_classes(const struct ot_fabric *f,
			  const struct ot_routing *r, uint32_t s,
			  unsigned int (*cnt)[BAL_CLASSES])
{
	uint32_t lid;

	memset(cnt, 0, sizeof(*cnt) * (OT_MAX_PORTS + 1));
	for (lid = 1; lid <= f->max_lid; lid++) {
		int owner = f->lid_owner[lid].node;
		unsigned int off, sl;

		if (owner < 0 || ot_is_switch(f, owner))
			continue;
		off = lid - f->node[owner].port[f->lid_owner[lid].port].lid;
		sl = ot_routing_path_sl(r, other_ca_lid(f, lid), lid);
		ck_assert_uint_lt(off, 4);
		cnt[r->lft[s][lid]][sl * 4 + off]++;
	}
}

/*
 * Checks the counts of every bundle of s (ports to one neighbour);
 * returns whether every class divides evenly over each bundle.
 */
static bool bundles_even(const struct ot_fabric *f, uint32_t s,
			 unsigned int (*cnt)[BAL_CLASSES], unsigned long *nb)
{
	const struct ot_node *nd = &f->node[s];
	bool even = true;
	unsigned int p, q, k;

	for (p = 1; p <= nd->nports; p++) {
		unsigned int lo[BAL_CLASSES], hi[BAL_CLASSES], w = 0;
		int peer = nd->port[p].peer;

		if (peer < 0 || !ot_is_switch(f, peer))
			continue;
		for (q = 1; q < p; q++)
			if (nd->port[q].peer == peer)
				break;
		if (q < p)
			continue; /* bundle seen from its first port */
		memcpy(lo, cnt[p], sizeof(lo));
		memcpy(hi, cnt[p], sizeof(hi));
		for (q = p; q <= nd->nports; q++) {
			if (nd->port[q].peer != peer)
				continue;
			w++;
			for (k = 0; k < BAL_CLASSES; k++) {
				lo[k] = cnt[q][k] < lo[k] ? cnt[q][k] : lo[k];
				hi[k] = cnt[q][k] > hi[k] ? cnt[q][k] : hi[k];
			}
		}
		if (w < 2)
			continue;
		(*nb)++;
		for (k = 0; k < BAL_CLASSES; k++) {
			ck_assert_msg(hi[k] <= lo[k] + 1,
				      "%s to %s (%u cables): SL %u offset %u: "
				      "%u to %u DLIDs per cable", nd->desc,
				      f->node[peer].desc, w, k / 4, k % 4,
				      lo[k], hi[k]);
			even = even && hi[k] == lo[k];
		}
	}
	return even;
}

/* No inter-switch cable above 1.02 x its dimension's mean uniform load. */
static void check_uniform_even(const struct ot_fabric *f,
			       const struct ot_routing *r, const char *name)
{
	struct ot_traffic_opts opts = { .patterns = 1u << OT_PATTERN_UNIFORM };
	struct ot_balance_report *rep = NULL;
	struct ot_error err = { 0 };
	struct ot_ff *ff = map(f);
	const struct ot_pattern_load *pl;
	double sum[OT_FF_MAX_DIMS] = { 0 }, max[OT_FF_MAX_DIMS] = { 0 };
	unsigned long n[OT_FF_MAX_DIMS] = { 0 };
	uint32_t s, link = 0;
	unsigned int p, d;

	ck_assert_int_eq(ot_balance_run(f, r, &opts, &rep, &err), 0);
	pl = ot_balance_pattern(rep, 0);
	for (s = 0; s < f->nnodes; link += f->node[s].nports, s++) {
		if (!ot_is_switch(f, s))
			continue;
		for (p = 1; p <= f->node[s].nports; p++) {
			int dim = ff->port_dim[ff->port_dim_base[s] + p];
			double l = pl->load[link + p - 1];

			if (dim < 0)
				continue;
			sum[dim] += l;
			n[dim]++;
			max[dim] = l > max[dim] ? l : max[dim];
		}
	}
	for (d = 0; d < ff->ndims; d++)
		ck_assert_msg(max[d] <= 1.02 * sum[d] / n[d],
			      "%s: dimension %u: hottest cable %.4f, mean %.4f",
			      name, d, max[d], sum[d] / n[d]);
	ot_balance_report_free(rep);
	ot_ff_free(ff);
}

START_TEST(balance)
{
	unsigned int e = _i % NENGINES;
	const struct shape *sh = &balanced[_i / NENGINES];
	struct ot_fabric *f = gen(sh);
	struct ot_routing *r = route(engines[e].name, f);
	unsigned int(*cnt)[BAL_CLASSES] = calloc(OT_MAX_PORTS + 1,
						  sizeof(*cnt));
	unsigned long nb = 0;
	bool even = true;
	uint32_t s;

	ck_assert_ptr_nonnull(cnt);
	for (s = 0; s < f->nnodes; s++) {
		if (!ot_is_switch(f, s))
			continue;
		count_classes(f, r, s, cnt);
		even = bundles_even(f, s, cnt, &nb) && even;
	}
	ck_assert_msg(nb > 0 || strspn(sh->width, "1,") == strlen(sh->width),
		      "%s: no bundles",
		      sh->size);
	if (even && !(engines[e].variant & (V_TWISTED | V_ADOR)))
		check_uniform_even(f, r, engines[e].name);
	free(cnt);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * Issue 9: Twisted Mixed at least as good as Twisted on uniform traffic,
 * DOR and ADOR alike, on the fabrics and the reference fabric's
 * shape (every dimension with CAs = K x w), ports shuffled, as the
 * checker's analytic model computes it (every CA injecting 1,
 * throughput 1 / the most loaded link): to the base LID, and for ADOR
 * also spread evenly over the LIDs.
 */
static const struct shape twist_fabrics[] = {
	{ "2x4x4", "2,1,1", 4, 1, 0, 0, 37, 0 },
	{ "2x8x8", "4,1,1", 8, 1, 0, 0, 41, 0 },
	{ "4x2x4", "1,2,1", 4, 1, 0, 0, 43, 0 },
	/* the reference fabric's shape at 1/32: as many CAs as orders */
	{ "2x4x4x4", "2,1,1,1", 4, 1, 0, 0, 47, 0 },
};

static const struct ot_pattern_load *uniform_load(const struct ot_fabric *f,
						  const char *engine,
						  struct ot_balance_report **rep)
{
	struct ot_traffic_opts opts = { .patterns = 1u << OT_PATTERN_UNIFORM };
	struct ot_error err = { 0 };
	struct ot_routing *r = route(engine, f);

	ck_assert_int_eq(ot_balance_run(f, r, &opts, rep, &err), 0);
	ot_routing_free(r);
	return ot_balance_pattern(*rep, 0);
}

START_TEST(twisted_mixed_not_worse)
{
	static const char *const pair[2][2] = {
		{ "ff-twisted-dor", "ff-twisted-mixed-dor" },
		{ "ff-twisted-ador", "ff-twisted-mixed-ador" },
	};
	const struct shape *sh = &twist_fabrics[_i / 2];
	struct ot_fabric *f = gen(sh);
	struct ot_balance_report *ra = NULL, *rb = NULL;
	const struct ot_pattern_load *a, *b;

	a = uniform_load(f, pair[_i % 2][0], &ra);
	b = uniform_load(f, pair[_i % 2][1], &rb);
	ck_assert_uint_eq(a->unrouted + b->unrouted, 0);
	ck_assert_msg(b->base.throughput >= a->base.throughput,
		      "%s: %s %.4f below %s %.4f", sh->size, pair[_i % 2][1],
		      b->base.throughput, pair[_i % 2][0], a->base.throughput);
	ck_assert(a->multipath == b->multipath);
	ck_assert_msg(!b->multipath ||
		      b->spread.throughput >= a->spread.throughput,
		      "%s: spread over the LIDs: %s %.4f below %s %.4f",
		      sh->size, pair[_i % 2][1], b->spread.throughput,
		      pair[_i % 2][0], a->spread.throughput);
	ot_balance_report_free(ra);
	ot_balance_report_free(rb);
	ot_fabric_free(f);
}
END_TEST

/*
 * Issue 25: unequal cable counts per dimension.  FlatFlies drawn at
 * random -- 1 to 4 dimensions of 2 to 8 switches, 1 to 4 cables per
 * dimension (drawn per dimension), 1 to 8 CAs per switch, ports shuffled
 * -- with at most RANDOM_MAX_SWITCHES switches (larger draws are drawn
 * again: the analytic model checks every pair), and the 3x2x3
 * widths 2,3,2 with 6 CAs.  On uniform traffic (the checker's model,
 * every CA injecting 1, to the base LID) ff-mixed-dor is no worse than
 * ff-dor and ff-twisted-mixed-dor no worse than ff-twisted-dor; the
 * issue asks 0.98 x and - 0.01, the engines promise more (every CA on
 * order 0 is among Mixed's quotas, whose bound is DOR's hottest cable;
 * Twisted Mixed keeps the least loaded of its schemes, one of which is
 * Twisted DOR's tables), so the test asks for that, to 1e-9.
 */
#define RANDOM_FABRICS 40
#define RANDOM_MAX_SWITCHES 128

static void random_shape(struct ot_prng *g, struct shape *sh, char *size,
			 char *width)
{
	unsigned int n, d, k[4], sw;
	size_t a, b;

	do {
		n = 1 + ot_prng_below(g, 4);
		for (d = 0, sw = 1; d < n; d++) {
			k[d] = 2 + ot_prng_below(g, 7);
			sw *= k[d];
		}
	} while (sw > RANDOM_MAX_SWITCHES);
	for (d = 0, a = 0, b = 0; d < n; d++) {
		a += sprintf(size + a, "%s%u", d ? "x" : "", k[d]);
		b += sprintf(width + b, "%s%u", d ? "," : "",
			     1 + ot_prng_below(g, 4));
	}
	sh->size = size;
	sh->width = width;
	sh->cas = 1 + ot_prng_below(g, 8);
	sh->lmc = 0;
	sh->drop_links = 0;
	sh->seed = 0;
	sh->shuffle = 1 + ot_prng_below(g, 1000);
	sh->drop_switches = 0;
}

static double uniform_of(const struct ot_fabric *f, const char *engine)
{
	struct ot_balance_report *rep = NULL;
	const struct ot_pattern_load *pl = uniform_load(f, engine, &rep);
	double x = pl->base.throughput;

	ck_assert_uint_eq(pl->unrouted, 0);
	ot_balance_report_free(rep);
	return x;
}

START_TEST(unequal_widths)
{
	struct ot_prng g = { .state = 0x2500 + (uint64_t)_i };
	struct shape sh = { "3x2x3", "2,3,2", 6, 0, 0, 0, 53, 0 };
	char size[32], width[32];
	struct ot_fabric *f;
	double dor, mixed, tw, twm;

	if (_i)
		random_shape(&g, &sh, size, width);
	f = gen(&sh);
	dor = uniform_of(f, "ff-dor");
	mixed = uniform_of(f, "ff-mixed-dor");
	tw = uniform_of(f, "ff-twisted-dor");
	twm = uniform_of(f, "ff-twisted-mixed-dor");
	ck_assert_msg(mixed >= dor - 1e-9,
		      "%s widths %s, %u CAs, shuffle %d: ff-mixed-dor %.4f below ff-dor %.4f",
		      sh.size, sh.width, sh.cas, sh.shuffle, mixed, dor);
	ck_assert_msg(twm >= tw - 1e-9,
		      "%s widths %s, %u CAs, shuffle %d: ff-twisted-mixed-dor %.4f below ff-twisted-dor %.4f",
		      sh.size, sh.width, sh.cas, sh.shuffle, twm, tw);
	ot_fabric_free(f);
}
END_TEST

/*
 * The dealing records the hops into bundles of each choice of hops when
 * it is first made (core.c), within a memory budget; past the budget, a
 * destination's hops are chosen and weighed again when its turn to be
 * dealt comes.  Both ways must give the same tables: every LFT entry,
 * SL2VL table and path SL, with parallel cables, LMC, shuffled ports,
 * missing cables and switches (detours, the escape layer).
 */
START_TEST(records_or_not)
{
	static const struct shape shapes[] = {
		{ "3x3x3", "2,1,1", 2, 1, 0.05, 3, 4, 0 },
		{ "4x4x3", "2,2,1", 3, 1, 0.1, 7, 5, 0.05 },
		{ "4x4", "2,2", 3, 2, 0, 0, -1, 0 },
	};
	unsigned int k;

	for (k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++) {
		struct ot_fabric *f = gen(&shapes[k]);
		struct ot_error err = { 0 };
		struct ot_routing *a, *b;
		unsigned long diff = 0;
		uint32_t i, lid;
		size_t n;

		a = route(engines[_i].name, f);
		b = ot_routing_new(f);
		ck_assert_ptr_nonnull(b);
		ck_assert_msg(!ff_route(engines[_i].name, engines[_i].variant,
					f, NULL, 0, b, &err),
			      "%s refused without records: %s",
			      engines[_i].name, err.msg);
		ck_assert_uint_eq(a->nvls, b->nvls);
		for (i = 0; i < f->nnodes; i++) {
			n = f->node[i].nports + 1;
			if (ot_is_switch(f, i))
				for (lid = 1; lid <= f->max_lid; lid++)
					diff += a->lft[i][lid] != b->lft[i][lid];
			ck_assert(!a->sl2vl[i] == !b->sl2vl[i]);
			if (a->sl2vl[i])
				diff += memcmp(a->sl2vl[i], b->sl2vl[i],
					       n * n * OT_NUM_SLS) != 0;
		}
		for (lid = 1; lid <= f->max_lid; lid++)
			diff += ot_routing_path_sl(a, 1, (uint16_t)lid) !=
				ot_routing_path_sl(b, 1, (uint16_t)lid);
		ck_assert_msg(!diff, "%s, %s widths %s: %lu differences",
			      engines[_i].name, shapes[k].size, shapes[k].width,
			      diff);
		ot_routing_free(a);
		ot_routing_free(b);
		ot_fabric_free(f);
	}
}
END_TEST

static Suite *ffroute_suite(void)
{
	Suite *s = suite_create("ffroute");
	TCase *tc = tcase_create("engines");

	/* Twisted Mixed routes up to 4 times (issue 25): room under ASan and load */
	tcase_set_timeout(tc, 360);
	tcase_add_loop_test(tc, complete_fabrics, 0, NENGINES);
	tcase_add_loop_test(tc, lmc_fabrics, 0, NENGINES);
	tcase_add_loop_test(tc, missing_links, 0, NENGINES);
	tcase_add_loop_test(tc, missing_switches, 0, NENGINES);
	tcase_add_loop_test(tc, missing_links_hypercube_w2, 0, NENGINES);
	tcase_add_loop_test(tc, hypercube_lost_cable_escapes, 0, NENGINES);
	tcase_add_loop_test(tc, cut_fabric_refused, 0, NENGINES);
	tcase_add_loop_test(tc, refuse_non_flatfly, 0, NENGINES);
	tcase_add_loop_test(tc, ador_needs_lmc, 0, 4);
	tcase_add_loop_test(tc, ador_distinct_paths, 0, 3);
	tcase_add_test(tc, one_vl_has_credit_loops);
	tcase_add_test(tc, seed_orders);
	tcase_add_loop_test(tc, deterministic, 0, NENGINES);
	tcase_add_loop_test(tc, parallel_cables_even, 0, NENGINES);
	tcase_add_loop_test(tc, records_or_not, 0, NENGINES);
	tcase_add_loop_test(tc, balance, 0, NENGINES * NBALANCED);
	tcase_add_loop_test(tc, unequal_widths, 0, RANDOM_FABRICS + 1);
	tcase_add_loop_test(tc, twisted_mixed_not_worse, 0,
			    2 * sizeof(twist_fabrics) / sizeof(twist_fabrics[0]));
	suite_add_tcase(s, tc);
	return s;
}

OT_UNIT_MAIN(ffroute_suite)
