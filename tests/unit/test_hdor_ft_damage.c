// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of hdor on fat-tree-line KNSs under damage (cables and
 * switches of the lines missing): routed around inside the lines on one
 * VL where up*-down* allows, twists (src/route/hdor_ft_twist.c) for the
 * routers dimension order cannot carry, the escape layer
 * (src/route/escape.c) for what is left.  Each fabric is held, through the
 * checker, to every pair reached, no loop, no credit loop, no rule
 * violation, the channel ranks of hdor_ft.c off the escape layer, the
 * same tables under another port shuffle; and the escape layer to a
 * share of the CA pairs.  The intact fabrics: test_hdor_ft.c.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "route/engine.h"
#include "route/escape.h"
#include "route/hdor_ft.h"

#include "hdor_ft_unit.h"
#include "unit.h"

/*
 * The generator's damage inside lines: routed around on one VL (or the
 * escape layer), or refused by name by the recognizer (a line split in
 * two, a router cut from a line).
 */
START_TEST(damaged_lines)
{
	struct ot_prng rng = { .state = 0xda };
	unsigned int i, routed = 0, refused = 0;

	for (i = 0; i < 12; i++) {
		struct ot_kns_params p = {
			.k = 8, .n = 2, .cas = 2, .links = 1, .stages = 2,
			.line_down = { 0, 4, 2 }, .line_up = { 0, 1, 4 },
			.shuffle = true, .seed = i,
			.drop_switches = 0.1 * (i % 3),
			.drop_links = 0.05 * (i % 4), .drop_seed = i,
		};
		struct ot_fabric *f = gen(&p, 0);
		struct ot_error err = { 0 };
		struct ot_routing *r = NULL;
		struct ot_check_report *rep = NULL;
		const struct ot_check_counts *cn;

		(void)rng;
		if (ot_engine_run(ot_engine_find("hdor"), f, &r, &err)) {
			ck_assert_msg(strstr(err.msg, "hdor: ") == err.msg,
				      "%s", err.msg);
			refused++;
			ot_fabric_free(f);
			continue;
		}
		routed++;
		checked(f, r, &rep);
		cn = ot_check_counts(rep);
		ck_assert_msg(ot_check_ok(rep), "damage %u not OK", i);
		ck_assert(!cn->credit_loops &&
			  (cn->vls_used == 1 || r->nvls >= 2));
		ck_assert(!rank_violations(f, r));
		ot_check_report_free(rep);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
	ck_assert_uint_gt(routed, 6);
	(void)refused;
}
END_TEST

/*
 * Whether line l of the intact fabric is still one line as the recognizer
 * finds them: its switches joined by switch cables into parts, parts
 * sharing two routers or more merged, one part in the end.
 */
static bool line_joined(const struct ot_fabric *f, const struct ot_kns *kns,
			int32_t l)
{
	const struct ot_kns_line *ln = &kns->lines[l];
	uint32_t n = ln->nsw, i, j, a, changed = 1;
	int32_t *part = malloc((n + 1) * sizeof(*part));
	unsigned int *share = calloc((size_t)n * n + 1, sizeof(*share));
	unsigned int p, q;
	bool one = true;

	ck_assert(part && share);
	for (i = 0; i < n; i++)
		part[i] = i;
	/* switch cables: relax to the least index reachable */
	while (changed) {
		changed = 0;
		for (i = 0; i < n; i++) {
			int32_t x = ln->sw[i];

			for (p = 1; p <= f->node[x].nports; p++) {
				int32_t y = f->node[x].port[p].peer;

				if (y < 0 || kns->role[y] != OT_KNS_SWITCH)
					continue;
				for (j = 0; j < n && ln->sw[j] != y; j++)
					;
				if (j < n && part[j] != part[i]) {
					int32_t m = part[i] < part[j] ? part[i] :
								     part[j];

					changed |= part[i] != m || part[j] != m;
					part[i] = part[j] = m;
				}
			}
		}
	}
	/* then parts sharing two routers, until nothing changes */
	for (changed = 1; changed;) {
		changed = 0;
		memset(share, 0, (size_t)n * n * sizeof(*share));
		for (a = 0; a < kns->k; a++) {
			int32_t r = ln->router[a];
			int32_t seen[OT_MAX_PORTS + 1];
			unsigned int m = 0;

			for (p = 1; p <= f->node[r].nports; p++) {
				int32_t y = f->node[r].port[p].peer;

				if (y < 0 || kns->role[y] != OT_KNS_SWITCH ||
				    kns->line[y] != l)
					continue;
				for (j = 0; j < n && ln->sw[j] != y; j++)
					;
				for (q = 0; q < m && seen[q] != part[j]; q++)
					;
				if (q == m)
					seen[m++] = part[j];
			}
			for (p = 0; p < m; p++)
				for (q = 0; q < m; q++)
					if (p != q)
						share[seen[p] * n + seen[q]]++;
		}
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				if (share[i * n + j] >= 2 && i != j) {
					uint32_t lo = i < j ? i : j, hi = i ^ j ^ lo;

					for (a = 0; a < n; a++)
						if (part[a] == (int32_t)hi) {
							part[a] = lo;
							changed = 1;
						}
				}
	}
	for (i = 0; i < n; i++)
		one &= part[i] == part[0];
	free(part);
	free(share);
	return one;
}

/*
 * Heavier damage, drawn here: cables inside lines (between line switches,
 * and from routers to stage 1 where the router keeps another) removed with
 * probability q, each only if its line's switches stay joined by cables
 * and every router keeps a cable into every line, so the recognizer still
 * sees the KNS; what is left of a line may then not connect its routers
 * up*-down*.  kns: the intact fabric's answer.
 */
static unsigned int damage(struct ot_fabric *f, const struct ot_kns *kns,
			   struct ot_prng *rng, double q)
{
	uint32_t x;
	unsigned int p, cut = 0;

	for (x = 0; x < f->nnodes; x++) {
		for (p = 1; p <= f->node[x].nports; p++) {
			struct ot_port *a = &f->node[x].port[p], *b;
			int32_t y = a->peer, r = -1, l;
			uint32_t i;
			unsigned int pp, left = 0;
			bool ok = true;

			if (y < 0 || (int32_t)x > y ||
			    kns->role[x] == OT_KNS_CA ||
			    kns->role[y] == OT_KNS_CA ||
			    ot_prng_below(rng, 1000) >= q * 1000)
				continue;
			if (kns->role[x] == OT_KNS_ROUTER)
				r = x;
			if (kns->role[y] == OT_KNS_ROUTER)
				r = y;
			l = kns->line[r == (int32_t)x ? y : (int32_t)x];
			b = &f->node[y].port[a->peer_port];
			pp = a->peer_port;
			a->peer = -1;
			b->peer = -1;
			/* the router keeps a cable into the line */
			for (i = 1; r >= 0 && i <= f->node[r].nports; i++) {
				int32_t z = f->node[r].port[i].peer;

				left += z >= 0 && kns->role[z] == OT_KNS_SWITCH &&
					kns->line[z] == l;
			}
			ok = r < 0 || left > 0;
			/* the line stays one line for the recognizer */
			ok = ok && line_joined(f, kns, l);
			if (ok) {
				cut++;
				continue;
			}
			a->peer = y;
			b->peer = x;
			(void)pp;
		}
	}
	return cut;
}

/*
 * Whether router a reaches router t of line l going up then down, by a
 * search of its own over (switch, going down) states and the stages of
 * the recognizer.
 */
static bool updown(const struct ot_fabric *f, const struct ot_kns *kns,
		   uint32_t l, int32_t a, int32_t t)
{
	uint32_t *queue = malloc(2 * (f->nnodes + 1) * sizeof(*queue));
	uint8_t *seen = calloc(2 * (f->nnodes + 1), 1);
	uint32_t head = 0, tail = 0, i;
	bool found = false;

	ck_assert(queue && seen);
	for (i = 1; i <= f->node[a].nports; i++) {
		int32_t z = f->node[a].port[i].peer;

		if (z >= 0 && kns->role[z] == OT_KNS_SWITCH &&
		    kns->line[z] == (int32_t)l && !seen[2 * z]) {
			seen[2 * z] = 1;
			queue[tail++] = 2 * z;
		}
	}
	while (head < tail && !found) {
		uint32_t st = queue[head++], u = st / 2, down = st % 2;

		for (i = 1; i <= f->node[u].nports; i++) {
			int32_t z = f->node[u].port[i].peer;
			uint32_t nx;

			if (z < 0)
				continue;
			if (z == t && kns->stage[u] == 1) {
				found = true;
				break;
			}
			if (kns->role[z] != OT_KNS_SWITCH ||
			    kns->line[z] != (int32_t)l)
				continue;
			if (kns->stage[z] == kns->stage[u] + 1 && !down)
				nx = 2 * z;
			else if (kns->stage[z] + 1 == kns->stage[u])
				nx = 2 * z + 1;
			else
				continue;
			if (!seen[nx]) {
				seen[nx] = 1;
				queue[tail++] = nx;
			}
		}
	}
	free(queue);
	free(seen);
	return found;
}

/*
 * Whether path SL sl is an escape layer's: SL 1, or a further layer's
 * (route/hdor_ft_esc.c), as the routing itself says.  Not another
 * dimension order's (route/hdor_ft_mix.c, hdor_ft_first.c), though it
 * too rides one VL above 0: with first lines per source the orders
 * carry many pairs, and counted as escaped they went past the guards
 * below (heavy_damage's first draw: 75,308 of 154,530 pairs, against
 * 44,083 before first lines), which are about the escape layers.
 */
static bool escape_sl(const struct ot_routing *r, uint8_t sl)
{
	return ot_hdor_ft_escape_sl(r, sl);
}

/*
 * Whether SL2VL puts path SL sl on one VL above 0 on every hop of every
 * node (an escape layer's, or another dimension order's:
 * route/hdor_ft_mix.c); twists' SLs change VL on the way.
 */
static bool one_vl(const struct ot_routing *r, uint8_t sl)
{
	const struct ot_fabric *f = r->fabric;
	unsigned int in, o, vl = 0;
	uint32_t x;

	for (x = 0; x < f->nnodes; x++) {
		if (!r->sl2vl[x])
			return false;
		for (in = 0; in <= f->node[x].nports; in++)
			for (o = 0; o <= f->node[x].nports; o++) {
				unsigned int v = ot_routing_vl(r, x, in, o, sl);

				if (!v || (vl && v != vl))
					return false;
				vl = v;
			}
	}
	return vl > 0;
}

/*
 * Whether some CA's packets to lid go on another dimension order's SL
 * (order_sl[sl]) of their own: the first line per source router
 * (route/hdor_ft_first.c) moves single routers' CAs, not the LID.
 */
static bool first_line(const struct ot_fabric *f, const struct ot_routing *r,
		       uint32_t lid, const bool *order_sl)
{
	uint32_t s;

	for (s = 0; s < f->nnodes; s++) {
		uint8_t sl;

		if (f->node[s].type != OT_NODE_CA ||
		    f->node[s].port[1].peer < 0)
			continue;
		sl = ot_routing_path_sl(r, f->node[s].port[1].lid,
					(uint16_t)lid);
		if (sl < OT_NUM_SLS && order_sl[sl])
			return true;
	}
	return false;
}

/*
 * The escape layer on damaged lines (several seeds, heavier damage): every
 * pair reached, no credit loop, the rule on SL 0 / VL 0 elsewhere; and
 * exactly the CA LIDs some line cannot carry up*-down* on an escape
 * layer (SL 1 / VL 1, or a further layer's SL on VL 2 or 3), so one VL
 * wherever up*-down* suffices and more only where it does not, or where
 * a damaged router's CA LIDs take another dimension order
 * (route/hdor_ft_mix.c: an SL on one VL on every hop, never SL 1).
 */
START_TEST(escape_layer)
{
	struct ot_prng rng = { .state = 0xe5c + (uint64_t)_i * 104729 };
	unsigned int round, one = 0, two = 0;

	for (round = 0; round < 4 + rounds() / 2; round++) {
		struct ot_kns_params p;
		struct ot_check_report *rep = NULL;
		const struct ot_check_counts *cn;
		struct ot_error err = { 0 };
		struct ot_kns *kns, *dk;
		struct ot_fabric *f;
		struct ot_routing *r;
		char desc[256];
		double q = 0.1 + 0.1 * ot_prng_below(&rng, 4);
		unsigned int cut, needed = 0, escaped = 0, rounds_left = 16;
		unsigned int calids = 0, mixed = 0;
		bool order_sl[OT_NUM_SLS];
		uint32_t lid, l, a;
		uint8_t sl;

		do {
			draw(&rng, &p, desc, sizeof(desc));
		} while (p.stages < 2 && p.line_up[1] < 2 && rounds_left--);
		f = gen(&p, round % 3 == 2);
		kns = recognized(f);
		cut = damage(f, kns, &rng, q);
		ot_kns_free(kns);
		ck_assert(!ot_fabric_index(f, &err));
		ck_assert_msg(!ot_engine_run(ot_engine_find("hdor"), f, &r, &err),
			      "%s, %u cables cut: %s", desc, cut, err.msg);
		dk = recognized(f);
		for (sl = 0; sl < OT_NUM_SLS; sl++)
			order_sl[sl] = sl > 1 && !escape_sl(r, sl) &&
				       one_vl(r, sl);
		checked(f, r, &rep);
		cn = ot_check_counts(rep);
		ck_assert_msg(ot_check_ok(rep), "%s, %u cut: check not OK", desc,
			      cut);
		ck_assert_msg(cn->pairs > 0 && cn->reached == cn->pairs, "%s",
			      desc);
		ck_assert_msg(!cn->credit_loops && !cn->violations, "%s", desc);
		ck_assert_msg(!rank_violations(f, r), "%s: ranks", desc);
		/* which CA LIDs need the escape layer, found here */
		for (lid = 1; lid <= f->max_lid; lid++) {
			int o = f->lid_owner[lid].node;
			int32_t tr;
			bool need = false;

			if (o < 0 || f->node[o].type != OT_NODE_CA)
				continue;
			tr = dk->router[o];
			for (l = 0; l < dk->nlines && !need; l++) {
				const struct ot_kns_line *ln = &dk->lines[l];
				int d = ln->dim, e;
				int32_t t;

				for (e = 0; e < d; e++)
					if (dk->coord[(size_t)ln->router[0] *
						      dk->n + e] !=
					    dk->coord[(size_t)tr * dk->n + e])
						break;
				if (e < d)
					continue;
				t = ln->router[dk->coord[(size_t)tr * dk->n + d]];
				for (a = 0; a < dk->k && !need; a++)
					need = ln->router[a] != t &&
					       !updown(f, dk, l, ln->router[a], t);
			}
			needed += need;
			calids++;
			/*
			 * escaped whole (SL 1 from a source the engine does
			 * not know, as from every one) only where needed;
			 * else twists (route/hdor_ft_twist.c) may carry it
			 */
			escaped += escape_sl(r, ot_routing_path_sl(r, 0, lid));
			sl = ot_routing_path_sl(r, 0, lid);
			mixed += !need && ((sl > 1 && one_vl(r, sl)) ||
					   first_line(f, r, lid, order_sl));
			ck_assert_msg(need || sl == 0 || (sl > 1 && one_vl(r, sl)),
				      "%s, %u cut: LID %u on SL %u, no line keeps it from dimension order",
				      desc, cut, lid, sl);
		}
		ck_assert_msg(needed || mixed ? r->nvls >= 2 && r->nvls <= 4 :
						r->nvls == 1,
			      "%s: %u VLs, %u LIDs escaped, %u on other orders",
			      desc, r->nvls, needed, mixed);
		/* VLs above 0 where some LID needs them, VL 0 where some not */
		ck_assert_msg(!!(cn->vls_used & ~1u) == !!(needed || mixed) &&
			      !(cn->vls_used >> r->nvls) &&
			      (needed == calids || (cn->vls_used & 1)),
			      "%s: VLs 0x%x, %u of %u LIDs escaped", desc,
			      cn->vls_used, needed, calids);
		one += !needed;
		two += needed > 0;
		fprintf(stderr, "escape_layer: %s, q %.1f: %u cut, %u of %u CA LIDs escaped\n",
			desc, q, cut, escaped, calids);
		ot_check_report_free(rep);
		ot_kns_free(dk);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
	/* both kinds seen over the rounds of the loops (asserted per loop
	 * only where each is likely: two seen, one VL seen) */
	ck_assert_msg(two > 0, "no fabric needed the escape layer");
	(void)one;
}
END_TEST

/* Whether every node of f is reached from node 0 over cables. */
static bool connected(const struct ot_fabric *f)
{
	int32_t *queue = malloc((f->nnodes + 1) * sizeof(*queue));
	bool *seen = calloc(f->nnodes + 1, sizeof(*seen));
	uint32_t head = 0, tail = 0;
	unsigned int p;

	ck_assert(queue && seen);
	seen[0] = true;
	queue[tail++] = 0;
	while (head < tail) {
		int32_t x = queue[head++];

		for (p = 1; p <= f->node[x].nports; p++) {
			int32_t y = f->node[x].port[p].peer;

			if (y >= 0 && !seen[y]) {
				seen[y] = true;
				queue[tail++] = y;
			}
		}
	}
	free(queue);
	free(seen);
	return tail == f->nnodes;
}

/*
 * Routers of kns with no cable into one of their lines, and lines whose
 * switches fall into two parts or more (or none): the damage the seed's
 * recognition of the lines as single switches cannot take.
 */
static unsigned int heavy(const struct ot_fabric *f, const struct ot_kns *kns)
{
	unsigned int cut = 0, t, p;
	uint32_t l;

	for (l = 0; l < kns->nlines; l++) {
		const struct ot_kns_line *ln = &kns->lines[l];

		for (t = 0; t < kns->k; t++) {
			const struct ot_node *nd = &f->node[ln->router[t]];

			for (p = 1; p <= nd->nports; p++) {
				int32_t y = nd->port[p].peer;

				if (y >= 0 && kns->role[y] == OT_KNS_SWITCH &&
				    kns->line[y] == (int32_t)l)
					break;
			}
			cut += p > nd->nports;
		}
		cut += !ln->nsw || !line_joined(f, kns, l);
	}
	return cut;
}

#define MAX_HOLE_PATH 256

/*
 * (switch, CA LID) pairs whose entries do not lead to the LID: the SM's
 * answers from such a switch to that CA (LID-routed) would be dropped,
 * whether or not a CA-to-CA path passes there.
 */
static unsigned long holes(const struct ot_fabric *f,
			   const struct ot_routing *r)
{
	unsigned long bad = 0;
	uint32_t x, lid;

	for (x = 0; x < f->nnodes; x++) {
		if (f->node[x].type != OT_NODE_SWITCH)
			continue;
		for (lid = 1; lid <= f->max_lid; lid++) {
			int o = f->lid_owner[lid].node, cur = x, h = 0;

			if (o < 0 || f->node[o].type != OT_NODE_CA)
				continue;
			while (cur >= 0 && cur != o && h++ < MAX_HOLE_PATH) {
				unsigned int p = r->lft[cur][lid];

				if (p == 0 || p == OT_NO_PORT ||
				    p > f->node[cur].nports)
					break;
				cur = f->node[cur].port[p].peer;
			}
			bad += cur != o;
		}
	}
	return bad;
}

/* at most this share of heavy_damage's CA pairs on the escape layer */
#define ESC_PAIRS_PCT 45
/*
 * On the fabrics whose coordinates the recognizer took by colour, at
 * most this share of dor_bound()'s pairs (see heavy_damage)
 */
#define ESC_OPEN_PCT 75

/*
 * CA-to-CA pairs of r on the escape layers (escape_sl()); *all: every
 * one.
 */
static uint64_t escaped_pairs(const struct ot_fabric *f,
			      const struct ot_routing *r, uint64_t *all)
{
	uint64_t esc = 0;
	uint32_t s, lid;

	for (s = 0; s < f->nnodes; s++) {
		uint16_t slid = f->node[s].port[1].lid;

		if (f->node[s].type != OT_NODE_CA || f->node[s].port[1].peer < 0)
			continue;
		for (lid = 1; lid <= f->max_lid; lid++) {
			int o = f->lid_owner[lid].node;

			if (o < 0 || o == (int)s || f->node[o].type != OT_NODE_CA)
				continue;
			(*all)++;
			esc += escape_sl(r, ot_routing_path_sl(r, slid, lid));
		}
	}
	return esc;
}

/*
 * Up*-down* inside each line (up the stages, then down), from the
 * cabling and kns's stages alone: ud[(l * k + a) * k + t] whether line l
 * takes its router at coordinate a to its router at t.
 */
static uint8_t *line_reach(const struct ot_fabric *f,
			   const struct ot_kns *kns)
{
	unsigned int k = kns->k, n = kns->n, a, p;
	uint8_t *ud = calloc((size_t)kns->nlines * k * k + 1, 1);
	uint32_t *seen = calloc((size_t)f->nnodes + 1, sizeof(*seen));
	int32_t *queue = malloc(((size_t)f->nnodes + 1) * sizeof(*queue));
	uint32_t l, stamp = 0, head, tail;

	ck_assert(ud && seen && queue);
	for (l = 0; l < kns->nlines; l++) {
		const struct ot_kns_line *ln = &kns->lines[l];

		for (a = 0; a < k; a++) {
			uint8_t *row = ud + ((size_t)l * k + a) * k;

			if (ln->router[a] < 0)
				continue;
			stamp++;
			queue[0] = ln->router[a];
			/* up: the router's switches, then the stages above */
			for (head = 0, tail = 1; head < tail; head++) {
				int32_t x = queue[head];

				for (p = 1; p <= f->node[x].nports; p++) {
					int32_t y = f->node[x].port[p].peer;

					if (y < 0 || seen[y] == stamp ||
					    kns->role[y] != OT_KNS_SWITCH ||
					    kns->line[y] != (int32_t)l ||
					    (x != ln->router[a] &&
					     kns->stage[y] <= kns->stage[x]))
						continue;
					seen[y] = stamp;
					queue[tail++] = y;
				}
			}
			/* down from every switch reached, to the routers */
			for (head = 1; head < tail; head++) {
				int32_t x = queue[head];

				for (p = 1; p <= f->node[x].nports; p++) {
					int32_t y = f->node[x].port[p].peer;
					int16_t t;

					if (y < 0 || seen[y] == stamp)
						continue;
					t = kns->coord[(size_t)y * n + ln->dim];
					if (kns->role[y] == OT_KNS_ROUTER) {
						if (t >= 0 && ln->router[t] == y)
							row[t] = 1;
						continue;
					}
					if (kns->role[y] != OT_KNS_SWITCH ||
					    kns->line[y] != (int32_t)l ||
					    kns->stage[y] >= kns->stage[x])
						continue;
					seen[y] = stamp;
					queue[tail++] = y;
				}
			}
		}
	}
	free(seen);
	free(queue);
	return ud;
}

/* The routers of kns by position (coordinates as a number), and lines. */
struct line_paths {
	const struct ot_kns *kns;
	uint8_t *ud;    /* line_reach() */
	int32_t *rline; /* per position and dimension: its line, or -1 */
	uint32_t pw[OT_KNS_PERM_DIMS + 1]; /* k^d */
};

static uint32_t position(const struct line_paths *lp, int32_t x)
{
	uint32_t c = 0;
	unsigned int d;

	for (d = 0; d < lp->kns->n; d++)
		c += (uint32_t)lp->kns->coord[(size_t)x * lp->kns->n + d] *
		     lp->pw[d];
	return c;
}

/* Position c to t in dimension order, each line crossed up*-down*. */
static bool in_order(const struct line_paths *lp, uint32_t c, uint32_t t)
{
	unsigned int d, k = lp->kns->k;

	for (d = 0; d < lp->kns->n; d++) {
		unsigned int a = c / lp->pw[d] % k, v = t / lp->pw[d] % k;
		int32_t l = lp->rline[(size_t)c * lp->kns->n + d];

		if (a == v)
			continue;
		if (l < 0 || !lp->ud[((size_t)l * k + a) * k + v])
			return false;
		c += (v - a) * lp->pw[d];
	}
	return true;
}

/*
 * CA-to-CA pairs whose destination's router some router with CAs
 * cannot reach in dimension order (line_reach()): what hdor without
 * twists puts on the escape layer, each such destination whole
 * (route/hdor_ft.c), counted from the cabling and the recognizer's
 * coordinates alone.
 */
static uint64_t dor_bound(const struct ot_fabric *f, const struct ot_kns *kns)
{
	struct line_paths lp = { .kns = kns };
	unsigned int n = kns->n, d, t;
	uint32_t l, s, c, nr, lid;
	uint8_t *has_ca, *cut;
	uint64_t pairs = 0, cas = 0;

	ck_assert(n <= OT_KNS_PERM_DIMS);
	for (d = 0, lp.pw[0] = 1; d < n; d++)
		lp.pw[d + 1] = lp.pw[d] * kns->k;
	nr = lp.pw[n];
	lp.ud = line_reach(f, kns);
	lp.rline = malloc(((size_t)nr * n + 1) * sizeof(*lp.rline));
	has_ca = calloc(nr + 1, 1);
	cut = calloc(nr + 1, 1);
	ck_assert(lp.rline && has_ca && cut);
	for (c = 0; c < nr * n; c++)
		lp.rline[c] = -1;
	for (l = 0; l < kns->nlines; l++)
		for (t = 0; t < kns->k; t++)
			if (kns->lines[l].router[t] >= 0)
				lp.rline[(size_t)position(&lp,
					 kns->lines[l].router[t]) * n +
					 kns->lines[l].dim] = (int32_t)l;
	for (s = 0; s < f->nnodes; s++)
		if (f->node[s].type == OT_NODE_CA && kns->router[s] >= 0 &&
		    f->node[s].port[1].peer >= 0) {
			has_ca[position(&lp, kns->router[s])] = 1;
			cas++;
		}
	for (s = 0; s < nr; s++)
		for (c = 0; c < nr; c++)
			cut[c] |= has_ca[s] && has_ca[c] &&
				  !in_order(&lp, s, c);
	for (lid = 1; lid <= f->max_lid; lid++) {
		int o = f->lid_owner[lid].node;

		if (o >= 0 && f->node[o].type == OT_NODE_CA &&
		    kns->router[o] >= 0 && cut[position(&lp, kns->router[o])])
			pairs += cas - 1;
	}
	free(cut);
	free(has_ca);
	free(lp.rline);
	free(lp.ud);
	return pairs;
}

/*
 * Heavy damage from the generator (cables and switches of the lines
 * dropped, 10-35 %, ports and node order shuffled) on random fat-tree
 * line KNSs: routers lose every cable into a line, lines fall apart.
 * When the fabric is connected hdor must route it: every pair, no
 * loop, no credit loop, no rule violation, ranks rising off the escape
 * layer, every switch's entry for every CA LID leading there (the SM's
 * answers; twisted LIDs left holes before route/hdor_ft.c's fill_holes),
 * and the same next hops (as GUIDs) under another shuffle of the same
 * damage.  A fabric cut in two may be refused, by name.
 */
START_TEST(heavy_damage)
{
	struct ot_prng rng = { .state = 0xd3a9 + (uint64_t)_i * 7919 };
	unsigned int round, accepted = 0, beyond = 0, cut_off = 0, untold = 0;
	uint64_t esc = 0, all = 0, esc_open = 0, all_open = 0, bound = 0;

	for (round = 0; round < 6 + rounds(); round++) {
		struct ot_kns_params p, q;
		struct ot_check_report *rep = NULL;
		const struct ot_check_counts *cn;
		struct ot_error err = { 0 };
		struct ot_fabric *f, *g;
		struct ot_routing *r = NULL, *rg;
		struct ot_kns *kns;
		char desc[320];
		size_t used;
		bool open;

		draw(&rng, &p, desc, sizeof(desc));
		p.drop_links = 0.1 + 0.05 * ot_prng_below(&rng, 4);
		p.drop_switches = 0.05 * ot_prng_below(&rng, 4);
		p.drop_seed = ot_prng_next(&rng);
		used = strlen(desc);
		snprintf(desc + used, sizeof(desc) - used,
			 " --drop-links %.2f --drop-switches %.2f --seed %" PRIu64,
			 p.drop_links, p.drop_switches, p.drop_seed);
		f = gen(&p, round % 4 == 3);
		if (ot_engine_run(ot_engine_find("hdor"), f, &r, &err)) {
			bool in_two = !connected(f);

			/* connected: refused only where too damaged to tell */
			ck_assert_msg(in_two || strstr(err.msg, "to tell"),
				      "%s: connected, refused: %s", desc, err.msg);
			ck_assert_msg(strstr(err.msg, "hdor: ") == err.msg &&
				      strstr(err.msg, "\""), "%s", err.msg);
			cut_off += in_two;
			untold += !in_two;
			fprintf(stderr, "heavy_damage: %s: refused: %.160s\n",
				desc, err.msg);
			ot_fabric_free(f);
			continue;
		}
		accepted++;
		kns = recognized(f);
		beyond += heavy(f, kns) > 0;
		open = kns->by_colour;
		if (open)
			bound += dor_bound(f, kns);
		ot_kns_free(kns);
		checked(f, r, &rep);
		cn = ot_check_counts(rep);
		if (connected(f)) {
			ck_assert_msg(ot_check_ok(rep), "%s: check not OK", desc);
			ck_assert_msg(cn->pairs > 0 && cn->reached == cn->pairs,
				      "%s: %" PRIu64 " of %" PRIu64 " pairs",
				      desc, cn->reached, cn->pairs);
		}
		ck_assert_msg(!cn->looping && !cn->credit_loops && !cn->violations,
			      "%s: loops, credit loops or violations", desc);
		ck_assert_msg(!rank_violations(f, r), "%s: ranks", desc);
		ck_assert_msg(!connected(f) || !holes(f, r),
			      "%s: %lu switch entries do not reach their CA LID",
			      desc, holes(f, r));
		if (open)
			esc_open += escaped_pairs(f, r, &all_open);
		else
			esc += escaped_pairs(f, r, &all);
		ot_check_report_free(rep);
		q = p;
		q.seed = ot_prng_next(&rng);
		g = gen(&q, round % 4 == 3);
		ck_assert_msg(!ot_engine_run(ot_engine_find("hdor"), g, &rg, &err),
			      "%s: shuffle seed %" PRIu64 " refused: %s", desc,
			      q.seed, err.msg);
		ck_assert_msg(!differences(f, r, g, rg), "%s: shuffle seed %"
			      PRIu64 " routes differently", desc, q.seed);
		ot_routing_free(rg);
		ot_fabric_free(g);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
	fprintf(stderr, "heavy_damage: %u accepted (%u with a router cut off a line or a line apart), %u refused cut in two, %u connected but too damaged to tell\n",
		accepted, beyond, cut_off, untold);
	ck_assert_msg(beyond > 0, "no fabric was damaged past the lines as single switches");
	/*
	 * Quality: the escape layer (one up*-down* over the whole fabric)
	 * carries few pairs; twists keep the rest in dimension order.
	 * Without twists (every destination some router cannot reach in
	 * dimension order on the layer, whole) it carried 47-81 % here.
	 */
	fprintf(stderr, "heavy_damage: %" PRIu64 " of %" PRIu64 " CA pairs on the escape layer\n",
		esc, all);
	ck_assert_msg(esc * 100 <= all * ESC_PAIRS_PCT,
		      "%" PRIu64 " of %" PRIu64 " CA pairs on the escape layer, more than %u %%",
		      esc, all, ESC_PAIRS_PCT);
	/*
	 * The fabrics the recognizer placed by colour (topo/kns_dmg.c: a
	 * piece the cabling left two places or more) are among the most
	 * damaged here, and on them the escape layer carries more: 20, 39
	 * and 68 % of the CA pairs on the three the loops meet.  Not for
	 * want of paths: every pair of them has one of line crossings, most
	 * a dimension-order one, and one crossing then dimension order
	 * would serve every destination from every router; what leaves
	 * them on the layer is the twists' own limits (a line's entries
	 * turned only where no dimension-order path uses them, no cycle),
	 * as on the heaviest fabrics routed before (kns 12 2 --down 12:
	 * 64 %).  So those are held apart, against what hdor without
	 * twists escapes (dor_bound(): each destination some router with
	 * CAs cannot reach in dimension order, whole): twists took 80, 61
	 * and 32 % of those pairs off the layer (47 % in all); without
	 * twists, none.
	 */
	fprintf(stderr, "heavy_damage: placed by colour: %" PRIu64 " of %" PRIu64 " CA pairs on the escape layer, %" PRIu64 " without twists\n",
		esc_open, all_open, bound);
	ck_assert_msg(esc_open * 100 <= bound * ESC_OPEN_PCT,
		      "placed by colour: %" PRIu64 " CA pairs on the escape layer, more than %u %% of the %" PRIu64 " no dimension order carries",
		      esc_open, ESC_OPEN_PCT, bound);
	/* too damaged to tell: seen on 1 to 3 of 12 (k = 3, 35 % cut) */
	ck_assert_msg(untold * 4 <= accepted + untold,
		      "%u of %u connected fabrics refused as too damaged to tell",
		      untold, accepted + untold);
}
END_TEST

/*
 * Lines of several single-stage switches (each router cabled to each),
 * 15-25 % of the cables dropped, ports shuffled: a router that lost its
 * cables to some switches cannot reach some routers of its line up*-down*
 * (through one switch), and twists (route/hdor_ft_twist.c) carry most of
 * those destinations off the escape layer.  Checked as heavy_damage,
 * and the share of CA pairs on the escape layer over the loop at most
 * SEVERAL_ESC_PCT: with twists 20, 52, 38 % in the three loops; without
 * (whole destinations on the layer) 79, 93, 77 %.
 */
#define SEVERAL_ESC_PCT 60

START_TEST(heavy_damage_several)
{
	static const unsigned int ks[] = { 4, 6, 8 };
	struct ot_prng rng = { .state = 0x5e7e + (uint64_t)_i * 6361 };
	unsigned int round;
	uint64_t esc = 0, all = 0;

	for (round = 0; round < 6 + rounds(); round++) {
		struct ot_kns_params p = { 0 };
		struct ot_check_report *rep = NULL;
		const struct ot_check_counts *cn;
		struct ot_error err = { 0 };
		struct ot_routing *r = NULL;
		struct ot_fabric *f;

		p.k = ks[ot_prng_below(&rng, 3)];
		p.n = 2;
		p.cas = 2;
		p.links = 1;
		p.stages = 1;
		p.line_down[1] = p.k;
		p.line_up[1] = 2 + ot_prng_below(&rng, 2);
		p.line_links[1] = 1;
		p.shuffle = true;
		p.seed = ot_prng_next(&rng);
		p.drop_links = 0.15 + 0.05 * ot_prng_below(&rng, 3);
		p.drop_seed = ot_prng_next(&rng);
		f = gen(&p, 0);
		if (ot_engine_run(ot_engine_find("hdor"), f, &r, &err)) {
			/* cut in two, or too damaged to tell: named */
			ck_assert_msg(strstr(err.msg, "\""), "%s", err.msg);
			ot_fabric_free(f);
			continue;
		}
		checked(f, r, &rep);
		cn = ot_check_counts(rep);
		ck_assert_msg(!cn->looping && !cn->credit_loops &&
			      !cn->violations, "kns %u 2 --up %u --drop-links %.2f: loops, credit loops or violations",
			      p.k, p.line_up[1], p.drop_links);
		ck_assert_msg(!rank_violations(f, r), "ranks");
		esc += escaped_pairs(f, r, &all);
		ot_check_report_free(rep);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
	fprintf(stderr, "heavy_damage_several: %" PRIu64 " of %" PRIu64 " CA pairs on the escape layer\n",
		esc, all);
	ck_assert_msg(all > 0, "nothing routed");
	ck_assert_msg(esc * 100 <= all * SEVERAL_ESC_PCT,
		      "%" PRIu64 " of %" PRIu64 " CA pairs on the escape layer, more than %u %%",
		      esc, all, SEVERAL_ESC_PCT);
}
END_TEST

/*
 * The reference for escape_beats_updown: plain up*-down* over every
 * switch of f (route/escape.c from the switch of the lowest GUID, the
 * choice among legal next hops by seq, as before escape_root()), every
 * CA LID on it, one VL.  Its uniform throughput.
 */
static double updown_uniform(const struct ot_fabric *f)
{
	struct ot_routing *r = ot_routing_new(f);
	struct ot_check_report *rep = NULL;
	struct ot_escape e;
	struct ot_error err = { 0 };
	int32_t *node_of = malloc((f->nnodes + 1) * sizeof(*node_of));
	int32_t *pos_of = malloc((f->nnodes + 1) * sizeof(*pos_of));
	uint8_t *hop = malloc(f->nnodes + 1);
	uint32_t i, j, n = 0, lid;
	double u;

	ck_assert(r && node_of && pos_of && hop);
	for (i = 0; i < f->nnodes; i++)
		if (f->node[i].type == OT_NODE_SWITCH)
			node_of[n++] = i;
	/* by GUID: insertion sort, small fabrics */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && f->node[node_of[j - 1]].guid >
					     f->node[node_of[j]].guid; j--) {
			int32_t x = node_of[j];

			node_of[j] = node_of[j - 1];
			node_of[j - 1] = x;
		}
	for (i = 0; i < f->nnodes; i++)
		pos_of[i] = -1;
	for (i = 0; i < n; i++)
		pos_of[node_of[i]] = i;
	ck_assert(!ot_escape_init_nodes(&e, f, n, node_of, pos_of, &err));
	for (lid = 1, j = 0; lid <= f->max_lid; lid++) {
		int o = f->lid_owner[lid].node;
		const struct ot_port *pt;

		if (o < 0 || f->node[o].type != OT_NODE_CA)
			continue;
		pt = &f->node[o].port[f->lid_owner[lid].port];
		ck_assert_msg(!ot_escape_ports(&e, f, node_of,
					       pos_of[pt->peer], j++,
					       pt->peer_port, hop, "updown",
					       &err), "%s", err.msg);
		for (i = 0; i < n; i++)
			r->lft[node_of[i]][lid] = hop[node_of[i]];
	}
	r->nvls = 1;
	checked(f, r, &rep);
	ck_assert_msg(ot_check_counts(rep)->reached ==
		      ot_check_counts(rep)->pairs, "up*-down* reference");
	u = ot_balance_pattern(ot_check_balance(rep), 0)->base.throughput;
	ot_check_report_free(rep);
	ot_escape_free(&e);
	ot_routing_free(r);
	free(node_of);
	free(pos_of);
	free(hop);
	return u;
}

/*
 * A fabric for escape_beats_updown and escape_layers_gain (into *p):
 * lines of 2-3 stages as in doc/kns-fattree.md's damage classes A-C (and
 * k 6 with 3-way leaves), 1-3 CAs per router, 10-20 % of the cables and
 * 5-15 % of the line switches dropped, ports shuffled.
 */
static struct ot_fabric *draw_escaping(struct ot_prng *rng,
				       struct ot_kns_params *p)
{
	static const struct ot_kns_params shapes[] = {
		{ .k = 8, .n = 2, .stages = 2, .line_down = { 0, 4, 2 },
		  .line_up = { 0, 2, 4 } },
		{ .k = 4, .n = 3, .stages = 2, .line_down = { 0, 2, 2 },
		  .line_up = { 0, 2, 2 } },
		{ .k = 8, .n = 2, .stages = 3, .line_down = { 0, 2, 2, 2 },
		  .line_up = { 0, 2, 2, 2 } },
		{ .k = 6, .n = 2, .stages = 2, .line_down = { 0, 3, 2 },
		  .line_up = { 0, 2, 3 } },
	};

	*p = shapes[ot_prng_below(rng, 4)];
	p->cas = 1 + ot_prng_below(rng, 3);
	p->links = 1;
	p->shuffle = true;
	p->seed = ot_prng_next(rng);
	p->drop_links = 0.1 + 0.05 * ot_prng_below(rng, 3);
	p->drop_switches = 0.05 + 0.05 * ot_prng_below(rng, 3);
	p->drop_seed = ot_prng_next(rng);
	return gen(p, 0);
}

/*
 * hdor where the escape layer carries much of the traffic (a third of
 * the CA pairs or more) against plain up*-down* on the same fabric: with
 * the layer's root and next hops chosen by load (escape_root() in
 * route/hdor_ft.c) hdor's uniform throughput, summed over such fabrics,
 * is at least ESC_OVER_UPDOWN times the reference's (1.72, 2.30, 2.09 in
 * the three loops with one layer; 2.42, 3.92, 3.16 with the further
 * layers of escape_layers_gain, which also count as escaped; main's code
 * before the root choice, the first router as the root and next hops by
 * sequence number: 1.20, 1.43, 1.19).  Fabrics: draw_escaping().
 */
#define ESC_OVER_UPDOWN 1.5

START_TEST(escape_beats_updown)
{
	struct ot_prng rng = { .state = 0xe5ca9e + (uint64_t)_i * 7919 };
	unsigned int round, used = 0;
	double sum_h = 0, sum_u = 0;

	for (round = 0; round < 5; round++) {
		struct ot_kns_params p;
		struct ot_check_report *rep = NULL;
		struct ot_error err = { 0 };
		struct ot_routing *r = NULL;
		struct ot_fabric *f;
		uint64_t esc, all = 0;
		double h, u;

		f = draw_escaping(&rng, &p);
		if (ot_engine_run(ot_engine_find("hdor"), f, &r, &err)) {
			ot_fabric_free(f);
			continue;
		}
		esc = escaped_pairs(f, r, &all);
		if (esc * 3 < all) {
			ot_routing_free(r);
			ot_fabric_free(f);
			continue;
		}
		checked(f, r, &rep);
		ck_assert_msg(ot_check_ok(rep) &&
			      !ot_check_counts(rep)->credit_loops,
			      "kns %u %u --cas %u, drop seed %" PRIu64 ": not OK",
			      p.k, p.n, p.cas, p.drop_seed);
		h = ot_balance_pattern(ot_check_balance(rep), 0)->base.throughput;
		ot_check_report_free(rep);
		u = updown_uniform(f);
		fprintf(stderr, "escape_beats_updown: kns %u %u --cas %u, %u stages, --drop-links %.2f --drop-switches %.2f: %" PRIu64 " of %" PRIu64 " pairs escaped, hdor %.4f, up*-down* %.4f\n",
			p.k, p.n, p.cas, p.stages, p.drop_links,
			p.drop_switches, esc, all, h, u);
		sum_h += h;
		sum_u += u;
		used++;
		ot_routing_free(r);
		ot_fabric_free(f);
	}
	fprintf(stderr, "escape_beats_updown: %u fabrics, hdor / up*-down* %.3f\n",
		used, sum_u > 0 ? sum_h / sum_u : 0);
	ck_assert_msg(used >= 2, "only %u fabrics much on the escape layer", used);
	ck_assert_msg(sum_h >= ESC_OVER_UPDOWN * sum_u,
		      "hdor %.4f against up*-down* %.4f (sums over %u fabrics), below %.2f times",
		      sum_h, sum_u, used, ESC_OVER_UPDOWN);
}
END_TEST

/*
 * Several escape layers (route/hdor_ft_esc.c: escape_layers) where the
 * escape layer carries much (a third of the CA pairs or more): hdor as
 * it routes by default (up to 4 VLs) against hdor within a budget of 2
 * data VLs (one escape layer, as before the layers), on the same drawn
 * fabrics as escape_beats_updown.  Each routing checked (every pair, no
 * credit loop, no rule violation), within its VLs; the budget's
 * routing on 2 VLs at most; and the default's uniform throughput,
 * summed, at least LAYERS_GAIN times the budget's (1.66, 2.03, 1.54 in the
 * three loops; main's code, which has no budget and routes the same
 * either way: 1.00, so it fails).
 */
#define LAYERS_GAIN 1.3

START_TEST(escape_layers_gain)
{
	const struct ot_engine_budget two = { .max_vls = 2, .max_sls = 16,
					      .why = "a test" };
	struct ot_prng rng = { .state = 0x1a7e5 + (uint64_t)_i * 7919 };
	unsigned int round, used = 0;
	double sum_d = 0, sum_b = 0;

	for (round = 0; round < 5; round++) {
		struct ot_kns_params p;
		struct ot_routing *r = NULL, *rb = NULL, *rs[2];
		struct ot_error err = { 0 };
		struct ot_fabric *f;
		uint64_t esc, all = 0;
		double u[2];
		unsigned int i;

		f = draw_escaping(&rng, &p);
		if (ot_engine_run(ot_engine_find("hdor"), f, &r, &err)) {
			ot_fabric_free(f);
			continue;
		}
		esc = escaped_pairs(f, r, &all);
		if (esc * 3 < all) {
			ot_routing_free(r);
			ot_fabric_free(f);
			continue;
		}
		ck_assert_msg(!ot_engine_run_budget(ot_engine_find("hdor"), f,
						    &two, &rb, &err),
			      "within 2 VLs: %s", err.msg);
		ck_assert_msg(rb->nvls <= 2 && r->nvls <= 4,
			      "%u VLs within 2, %u by default", rb->nvls,
			      r->nvls);
		rs[0] = r;
		rs[1] = rb;
		for (i = 0; i < 2; i++) {
			struct ot_check_report *rep = NULL;

			checked(f, rs[i], &rep);
			ck_assert_msg(ot_check_ok(rep) &&
				      !ot_check_counts(rep)->credit_loops &&
				      !(ot_check_counts(rep)->vls_used >>
					rs[i]->nvls),
				      "kns %u %u --cas %u, drop seed %" PRIu64 "%s: not OK",
				      p.k, p.n, p.cas, p.drop_seed,
				      i ? " within 2 VLs" : "");
			u[i] = ot_balance_pattern(ot_check_balance(rep), 0)
				       ->base.throughput;
			ot_check_report_free(rep);
		}
		fprintf(stderr, "escape_layers_gain: kns %u %u --cas %u, %u stages, --drop-links %.2f --drop-switches %.2f: %" PRIu64 " of %" PRIu64 " pairs escaped, %u VLs %.4f, 2 VLs %.4f\n",
			p.k, p.n, p.cas, p.stages, p.drop_links,
			p.drop_switches, esc, all, r->nvls, u[0], u[1]);
		sum_d += u[0];
		sum_b += u[1];
		used++;
		ot_routing_free(r);
		ot_routing_free(rb);
		ot_fabric_free(f);
	}
	fprintf(stderr, "escape_layers_gain: %u fabrics, default / 2 VLs %.3f\n",
		used, sum_b > 0 ? sum_d / sum_b : 0);
	ck_assert_msg(used >= 2, "only %u fabrics much on the escape layer", used);
	ck_assert_msg(sum_d >= LAYERS_GAIN * sum_b,
		      "default %.4f against %.4f within 2 VLs (sums over %u fabrics), below %.2f times",
		      sum_d, sum_b, used, LAYERS_GAIN);
}
END_TEST

/*
 * A lightly damaged fat-tree-line KNS (into *p): lines of one stage of 2
 * or 3 switches (each router cabled to each, the brief's 3x3x3 and D-1
 * shapes among them), 1-3 CAs per router, 2-5 % of the cables dropped,
 * ports shuffled.
 */
static struct ot_fabric *draw_light(struct ot_prng *rng,
				    struct ot_kns_params *p)
{
	static const struct ot_kns_params shapes[] = {
		{ .k = 3, .n = 3, .stages = 1, .line_down = { 0, 3 },
		  .line_up = { 0, 2 } },
		{ .k = 4, .n = 3, .stages = 1, .line_down = { 0, 4 },
		  .line_up = { 0, 2 } },
		{ .k = 4, .n = 2, .stages = 1, .line_down = { 0, 4 },
		  .line_up = { 0, 2 } },
		{ .k = 6, .n = 2, .stages = 1, .line_down = { 0, 6 },
		  .line_up = { 0, 3 } },
		{ .k = 2, .n = 3, .stages = 1, .line_down = { 0, 2 },
		  .line_up = { 0, 2 } },
	};

	*p = shapes[ot_prng_below(rng, 5)];
	p->cas = 1 + ot_prng_below(rng, 3);
	p->links = 1;
	p->shuffle = true;
	p->seed = ot_prng_next(rng);
	p->drop_links = 0.02 + 0.03 * ot_prng_below(rng, 2);
	p->drop_seed = ot_prng_next(rng);
	return gen(p, 0);
}

/* CA-to-CA pairs of r on SL 1 (the escape layer, or twists). */
static uint64_t sl1_pairs(const struct ot_fabric *f, const struct ot_routing *r)
{
	uint64_t n = 0;
	uint32_t s, lid;

	for (s = 0; s < f->nnodes; s++) {
		if (f->node[s].type != OT_NODE_CA || f->node[s].port[1].peer < 0)
			continue;
		for (lid = 1; lid <= f->max_lid; lid++)
			n += f->lid_owner[lid].node >= 0 &&
			     f->node[f->lid_owner[lid].node].type ==
				     OT_NODE_CA &&
			     ot_routing_path_sl(r, f->node[s].port[1].lid,
						lid) == 1;
	}
	return n;
}

/*
 * Other dimension orders for damaged routers (route/hdor_ft_mix.c) on
 * lightly damaged fabrics drawn at random (draw_light()): hdor by default
 * (up to 4 VLs) against hdor within a budget of 1 data VL, which leaves
 * the orders no VL (twists and one escape layer still route; fabrics
 * with an escape layer are left out, where the budget also takes the
 * further layers away).  Each default routing checked: every pair, no
 * credit loop, no rule violation, within 4 VLs and its own count, the
 * same next hops under another shuffle of the ports; never below the
 * budget's uniform throughput; and summed at least MIX_GAIN times it,
 * with MIX_MIN_BETTER fabrics strictly better.  Three seeds of MIX_ROUNDS
 * draws each, summed together: alone the orders gained 1.016, 1.037,
 * 1.051 (1, 2, 2 of 7 better); since the search over the dimensions'
 * order (route/hdor.c), which the 1-VL routing has too, 1.016, 1.074,
 * 1.000 (1, 4, 0 better); main's code routes the same either way: 1.000
 * and 0 better, so it fails.
 */
#define MIX_GAIN 1.01
#define MIX_MIN_BETTER 1
#define MIX_ROUNDS 8
#define MIX_SEEDS 3

START_TEST(mixed_orders_gain)
{
	const struct ot_engine_budget one = { .max_vls = 1, .max_sls = 16,
					      .why = "a test" };
	struct ot_prng rng = { 0 };
	unsigned int round, used = 0, better = 0;
	double sum_d = 0, sum_b = 0;

	for (round = 0; round < MIX_SEEDS * MIX_ROUNDS; round++) {
		struct ot_kns_params p, q;
		struct ot_routing *r = NULL, *rb = NULL, *rg = NULL;
		struct ot_check_report *rep = NULL;
		struct ot_error err = { 0 };
		struct ot_fabric *f, *g;
		char desc[256];
		double u, ub;

		if (round % MIX_ROUNDS == 0)
			rng.state = 0x313d0 + (uint64_t)(round / MIX_ROUNDS) *
						      7919;
		f = draw_light(&rng, &p);
		describe(&p, desc, sizeof(desc));
		snprintf(desc + strlen(desc), sizeof(desc) - strlen(desc),
			 " --drop-links %.2f --seed %" PRIu64, p.drop_links,
			 p.drop_seed);
		if (ot_engine_run(ot_engine_find("hdor"), f, &r, &err)) {
			/* cut off by the damage: refused by name */
			ck_assert_msg(strstr(err.msg, "hdor: ") == err.msg,
				      "%s: %s", desc, err.msg);
			ot_fabric_free(f);
			continue;
		}
		ck_assert_msg(!ot_engine_run_budget(ot_engine_find("hdor"), f,
						    &one, &rb, &err),
			      "%s within 1 VL: %s", desc, err.msg);
		if (sl1_pairs(f, rb)) {
			ot_routing_free(r);
			ot_routing_free(rb);
			ot_fabric_free(f);
			continue;
		}
		u = checked_all(f, r, desc);
		checked(f, rb, &rep);
		ub = ot_balance_pattern(ot_check_balance(rep), 0)->base.throughput;
		ot_check_report_free(rep);
		ck_assert_msg(u >= ub - 1e-9, "%s: %.4f, within 1 VL %.4f", desc,
			      u, ub);
		q = p;
		q.seed = ot_prng_next(&rng);
		g = gen(&q, 0);
		ck_assert_msg(!ot_engine_run(ot_engine_find("hdor"), g, &rg, &err),
			      "%s: shuffle seed %" PRIu64 " refused: %s", desc,
			      q.seed, err.msg);
		ck_assert_msg(!differences(f, r, g, rg), "%s: shuffle seed %"
			      PRIu64 " routes differently", desc, q.seed);
		fprintf(stderr, "mixed_orders_gain: %s: %u VLs %.4f, within 1 VL %u VLs %.4f\n",
			desc, r->nvls, u, rb->nvls, ub);
		sum_d += u;
		sum_b += ub;
		better += u > ub + 1e-9;
		used++;
		ot_routing_free(rg);
		ot_fabric_free(g);
		ot_routing_free(r);
		ot_routing_free(rb);
		ot_fabric_free(f);
	}
	fprintf(stderr, "mixed_orders_gain: %u fabrics, %u better, default / 1 VL %.3f\n",
		used, better, sum_b > 0 ? sum_d / sum_b : 0);
	ck_assert_msg(used >= 4, "only %u fabrics", used);
	ck_assert_msg(better >= MIX_MIN_BETTER && sum_d >= MIX_GAIN * sum_b,
		      "default %.4f against %.4f within 1 VL (sums over %u fabrics, %u better)",
		      sum_d, sum_b, used, better);
}
END_TEST

/*
 * Cables lost between a line's switches (not a router's): the line is
 * no longer a proper fat tree, and the order in which the greedy deals
 * the destinations leaves flows on a top switch that the damage already
 * loads with every flow it cannot avoid.  Drawn three-stage lines
 * (`gen kns 8 2 --down 2,2,2 --up 1,2,1 --parallel 2,1`, 2 or 3 CAs,
 * 8 % of the cables lost): each routing checked, and the uniform
 * throughput summed over the draws at least RIPUP_SUM (0.4196 a draw
 * on average with the rip-up passes on such lines; 0.4066 without, 5 of
 * the 12 draws lower: it fails).
 */
#define RIPUP_DRAWS 12
#define RIPUP_SUM (RIPUP_DRAWS * 0.414)

START_TEST(ripup_damaged_lines)
{
	struct ot_prng rng = { .state = 0x71b };
	unsigned int i, routed = 0;
	double sum = 0;

	for (i = 0; i < RIPUP_DRAWS; i++) {
		struct ot_kns_params p = {
			.k = 8, .n = 2, .links = 1, .stages = 3,
			.line_down = { 0, 2, 2, 2 }, .line_up = { 0, 1, 2, 1 },
			.line_links = { 0, 0, 2, 1 }, .shuffle = true,
			.drop_links = 0.08,
		};
		struct ot_check_report *rep = NULL;
		struct ot_error err = { 0 };
		struct ot_routing *r = NULL;
		struct ot_fabric *f;
		double u;

		p.cas = 2 + (unsigned int)ot_prng_below(&rng, 2);
		p.seed = ot_prng_below(&rng, 1000);
		p.drop_seed = ot_prng_below(&rng, 1000);
		f = gen(&p, 0);
		ck_assert_msg(!ot_engine_run(ot_engine_find("hdor"), f, &r,
					     &err),
			      "drop seed %" PRIu64 ": %s", p.drop_seed, err.msg);
		checked(f, r, &rep);
		ck_assert_msg(ot_check_ok(rep) &&
			      !ot_check_counts(rep)->credit_loops,
			      "drop seed %" PRIu64 ": not OK", p.drop_seed);
		u = ot_balance_pattern(ot_check_balance(rep), 0)
			    ->base.throughput;
		fprintf(stderr, "ripup_damaged_lines: --cas %u --shuffle-ports %" PRIu64 " --seed %" PRIu64 ": %u VLs, uniform %.4f\n",
			p.cas, p.seed, p.drop_seed, r->nvls, u);
		sum += u;
		routed++;
		ot_check_report_free(rep);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
	fprintf(stderr, "ripup_damaged_lines: mean %.4f\n", sum / routed);
	ck_assert_msg(sum >= RIPUP_SUM, "uniform %.4f a draw, below %.4f",
		      sum / routed, RIPUP_SUM / RIPUP_DRAWS);
}
END_TEST

/* The checked uniform throughput of r on f (the checker must say OK). */
static double checked_uniform(const struct ot_fabric *f,
			      const struct ot_routing *r, const char *what)
{
	struct ot_check_report *rep = NULL;
	double u;

	checked(f, r, &rep);
	ck_assert_msg(ot_check_ok(rep) && !ot_check_counts(rep)->credit_loops,
		      "%s: not OK", what);
	u = ot_balance_pattern(ot_check_balance(rep), 0)->base.throughput;
	ot_check_report_free(rep);
	return u;
}

/*
 * Which dimension comes first is the recognizer's choice by GUID; with
 * damage it changes the loads (route/hdor.c, hdor_ft_best_order()).  On
 * drawn lightly damaged fabrics, hdor's uniform throughput is at least
 * that of the fat-tree routing under every numbering of the dimensions
 * (ot_kns_ft_recognize_dims()), and some draws gain over the GUID's
 * numbering (main's code, which routes that one only, fails on them).
 */
START_TEST(best_dimension_order)
{
	static const struct ot_kns_params shapes[] = {
		{ .k = 3, .n = 3, .stages = 1, .line_down = { 0, 3 },
		  .line_up = { 0, 2 } },
		{ .k = 8, .n = 2, .stages = 3, .line_down = { 0, 2, 2, 2 },
		  .line_up = { 0, 1, 2, 1 }, .line_links = { 0, 0, 2, 1 } },
		{ .k = 6, .n = 2, .stages = 2, .line_down = { 0, 2, 3 },
		  .line_up = { 0, 2, 2 } },
		{ .k = 4, .n = 3, .stages = 2, .line_down = { 0, 2, 2 },
		  .line_up = { 0, 2, 2 } },
	};
	struct ot_prng rng = { .state = 0x0d1e5 };
	unsigned int i, gained = 0;

	for (i = 0; i < 8; i++) {
		struct ot_kns_params p = shapes[i % 4];
		uint8_t q[3];
		struct ot_error err = { 0 };
		struct ot_routing *r = NULL;
		struct ot_fabric *f;
		double u, first = -1;
		unsigned int a, b, c, nperm = 0;
		char what[200];

		p.cas = 1 + ot_prng_below(&rng, 3);
		p.links = 1;
		p.shuffle = true;
		p.seed = ot_prng_below(&rng, 1000);
		p.drop_links = 0.02 + 0.03 * ot_prng_below(&rng, 3);
		p.drop_seed = ot_prng_below(&rng, 1000);
		describe(&p, what, sizeof(what));
		snprintf(what + strlen(what), sizeof(what) - strlen(what),
			 " --drop-links %.2f --seed %" PRIu64, p.drop_links,
			 p.drop_seed);
		f = gen(&p, 0);
		if (ot_engine_run(ot_engine_find("hdor"), f, &r, &err)) {
			ot_fabric_free(f);
			continue;
		}
		u = checked_uniform(f, r, what);
		ot_routing_free(r);
		/* every permutation of 0..n-1 (n = 2 or 3) */
		for (a = 0; a < p.n; a++)
			for (b = 0; b < p.n; b++)
				for (c = 0; c < (p.n > 2 ? p.n : 1); c++) {
					struct ot_routing *o;
					struct ot_kns *kns = NULL;
					bool looks = false;
					double v;

					if (a == b || (p.n > 2 && (c == a ||
								   c == b)))
						continue;
					q[0] = (uint8_t)a;
					q[1] = (uint8_t)b;
					q[2] = (uint8_t)c;
					o = ot_routing_new(f);
					ck_assert_ptr_nonnull(o);
					ck_assert_msg(!ot_kns_ft_recognize_dims(
							      f, q, &kns, &looks,
							      &err) &&
							      !ot_hdor_ft_route(
								      f, kns, NULL,
								      o, &err),
						      "%s: %s", what, err.msg);
					v = checked_uniform(f, o, what);
					ck_assert_msg(u >= v - 1e-9,
						      "%s: hdor %.4f, dimensions as %u,%u,%u %.4f",
						      what, u, a, b, c, v);
					if (first < 0)
						first = v;
					nperm++;
					ot_routing_free(o);
				}
		ck_assert_uint_eq(nperm, p.n > 2 ? 6 : 2);
		fprintf(stderr, "best_dimension_order: %s: %.4f, GUID's order %.4f\n",
			what, u, first);
		gained += u > first + 1e-9;
		ot_fabric_free(f);
	}
	ck_assert_uint_gt(gained, 0);
}
END_TEST

/*
 * The final deal of the escaped destinations by CA-to-CA traffic alone
 * (route/hdor_ft_esc.c: struct ca_deal; route/hdor.c keeps it where the
 * busiest channel falls), on drawn fabrics of the shapes where the lead's
 * samples found hdor's escape layers piling whole destinations onto one
 * router's cable: single-stage lines of two switches (`kns 8 2 --down 8
 * --up 2`, so routers that lose a cable sit in one plane), 1-2 CAs, 10 %
 * of the cables and 0 or 5 % of the switches dropped, ports shuffled.
 * Each routing: every pair reached, no loop, no credit loop, no rule
 * violation, within 4 VLs and its own count, the same next hops (by
 * GUID) under another shuffle; the deal alone (ot_hdor_ft_route_ca())
 * checked the same way; hdor never below the recognizer's routing
 * without it; and hdor's uniform throughput summed over the draws at
 * least CA_DEAL_SUM (CA_DEAL_DRAWS draws).  Measured:
 * 0.6920 a draw with the deal (the deal alone above the recognizer's
 * routing without it on 8 of 10); 0.6181 with the CA-deal candidate off,
 * where the engine routes as main's code does: it fails.
 */
#define CA_DEAL_DRAWS 10
#define CA_DEAL_SUM (CA_DEAL_DRAWS * 0.66)

START_TEST(ca_deal_gain)
{
	struct ot_prng rng = { .state = 0xcadea1 };
	unsigned int i, used = 0, better = 0;
	double sum = 0, sum0 = 0;

	for (i = 0; i < CA_DEAL_DRAWS; i++) {
		struct ot_kns_params p = { .n = 2, .links = 1, .stages = 1,
					   .shuffle = true };
		struct ot_routing *r = NULL, *rg = NULL, *r0, *rc;
		struct ot_error err = { 0 };
		struct ot_fabric *f, *g;
		struct ot_kns *kns;
		struct ot_kns_params q;
		char what[256];
		bool moved = false;
		double u, u0, uc;

		p.k = 8;
		p.line_down[1] = p.k;
		p.line_up[1] = 2;
		p.cas = 1;
		p.seed = ot_prng_below(&rng, 1000);
		p.drop_links = 0.1;
		p.drop_switches = ot_prng_below(&rng, 2) ? 0.05 : 0;
		p.drop_seed = ot_prng_below(&rng, 1000);
		describe(&p, what, sizeof(what));
		snprintf(what + strlen(what), sizeof(what) - strlen(what),
			 " --drop-links %.2f --drop-switches %.2f --seed %" PRIu64,
			 p.drop_links, p.drop_switches, p.drop_seed);
		f = gen(&p, 0);
		if (ot_engine_run(ot_engine_find("hdor"), f, &r, &err)) {
			/* cut off by the damage: refused by name */
			ck_assert_msg(strstr(err.msg, "hdor: ") == err.msg,
				      "%s: %s", what, err.msg);
			ot_fabric_free(f);
			continue;
		}
		u = checked_all(f, r, what);
		/* the recognizer's routing without the deal, and with it */
		r0 = ot_routing_new(f);
		rc = ot_routing_new(f);
		ck_assert(r0 && rc);
		kns = recognized(f);
		ck_assert_msg(!ot_hdor_ft_route(f, kns, NULL, r0, &err), "%s: %s",
			      what, err.msg);
		kns = recognized(f);
		ck_assert_msg(!ot_hdor_ft_route_ca(f, kns, NULL, true, &moved, rc,
						   &err),
			      "%s: %s", what, err.msg);
		u0 = checked_uniform(f, r0, what);
		uc = checked_all(f, rc, what);
		ck_assert_msg(u >= u0 - 1e-9, "%s: hdor %.4f below %.4f", what,
			      u, u0);
		/* the same next hops under another shuffle of the ports */
		q = p;
		q.seed = ot_prng_next(&rng);
		g = gen(&q, 0);
		ck_assert_msg(!ot_engine_run(ot_engine_find("hdor"), g, &rg, &err),
			      "%s: shuffle seed %" PRIu64 " refused: %s", what,
			      q.seed, err.msg);
		ck_assert_msg(!differences(f, r, g, rg), "%s: shuffle seed %"
			      PRIu64 " routes differently", what, q.seed);
		fprintf(stderr, "ca_deal_gain: %s: hdor %u VLs %.4f; recognizer's numbering %.4f, with the deal by CA traffic %.4f (%s)\n",
			what, r->nvls, u, u0, uc, moved ? "moved" : "same");
		sum += u;
		sum0 += u0;
		better += uc > u0 + 1e-9;
		used++;
		ot_routing_free(rg);
		ot_fabric_free(g);
		ot_routing_free(r0);
		ot_routing_free(rc);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
	fprintf(stderr, "ca_deal_gain: %u fabrics, hdor %.4f a draw (recognizer's numbering without the deal %.4f), the deal better on %u\n",
		used, used ? sum / used : 0, used ? sum0 / used : 0, better);
	ck_assert_msg(used >= CA_DEAL_DRAWS / 2, "only %u fabrics", used);
	ck_assert_msg(sum >= CA_DEAL_SUM, "hdor %.4f summed over %u fabrics, below %.4f",
		      sum, used, CA_DEAL_SUM);
}
END_TEST

/*
 * Lines cut apart where the cabling leaves a coordinate open (issue 22,
 * seed 731): 9 x 9 routers, each line two stages of 3 leaves under 2
 * spines, 10 % of the spines and of the cables into them dropped, so
 * that a leaf often loses both ways up and its three routers could
 * complete the hyperplane of either of two lines cut alike.
 * topo/kns_dmg.c refused those ("ambiguous", 9 of 40 such draws); now
 * the tie is broken by colour refinement, so every connected draw is
 * routed: every pair, no loop, no credit loop, no violation, within 4
 * VLs (checked_all()).  Then the same damage under another shuffle of
 * ports and node order gives the same next hops, and under other GUIDs
 * (the names' hashes inverted, so that every GUID order turns round)
 * the same throughput and VLs: no GUID, port or node order chose.
 */
START_TEST(open_coordinates)
{
	struct ot_prng rng = { .state = 0x731 };
	unsigned int round, i, used = 0;

	for (round = 0; round < 6; round++) {
		struct ot_kns_params p = {
			.k = 9, .n = 2, .stages = 2,
			.line_down = { 0, 3, 3 }, .line_up = { 0, 1, 2 },
			.line_links = { 0, 0, 1 },
			.shuffle = true,
			.drop_links = 0.1, .drop_switches = 0.1,
		}, q;
		struct ot_fabric *f, *g;
		struct ot_routing *r, *rg;
		char desc[320];
		size_t len;
		double u, ug;

		p.cas = 1;
		p.links = 1 + ot_prng_below(&rng, 2);
		p.seed = ot_prng_next(&rng);
		p.drop_seed = ot_prng_next(&rng);
		describe(&p, desc, sizeof(desc));
		len = strlen(desc);
		snprintf(desc + len, sizeof(desc) - len,
			 " --drop-links 0.1 --drop-switches 0.1 --seed %" PRIu64,
			 p.drop_seed);
		f = gen(&p, 0);
		if (!connected(f)) {
			ot_fabric_free(f);
			continue;
		}
		used++;
		r = route(f);
		u = checked_all(f, r, desc);
		q = p;
		q.seed = ot_prng_next(&rng);
		g = gen(&q, 0);
		rg = route(g);
		ck_assert_msg(!differences(f, r, g, rg), "%s: shuffle seed %"
			      PRIu64 " routes differently", desc, q.seed);
		ot_routing_free(rg);
		for (i = 0; i < g->nnodes; i++)
			g->node[i].guid = ~g->node[i].guid;
		rg = route(g);
		ug = checked_all(g, rg, desc);
		ck_assert_msg(fabs(u - ug) < 1e-9 && r->nvls == rg->nvls,
			      "%s: other GUIDs: uniform %.4f on %u VLs, not %.4f on %u",
			      desc, ug, rg->nvls, u, r->nvls);
		ot_routing_free(rg);
		ot_fabric_free(g);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
	ck_assert_msg(used >= 4, "only %u connected fabrics", used);
}
END_TEST

/*
 * One source, three programs (Makefile.am: test_hdor_ft_damage_1 to _3,
 * OT_DAMAGE_PART 1 to 3), so that make -j runs its cases side by side:
 * in series they took 9 minutes plain and half an hour under the
 * sanitizers.  The parts take about as long each, 3 to 4 minutes
 * plain; heavy_damage's first draw is the largest case (90 to 140 s).
 */
#ifndef OT_DAMAGE_PART
#define OT_DAMAGE_PART 0 /* every case */
#endif
#define PART(n) (OT_DAMAGE_PART == 0 || OT_DAMAGE_PART == (n))

static Suite *hdor_ft_damage_suite(void)
{
	Suite *s = suite_create("hdor_ft_damage");
	TCase *tc = tcase_create("core");

	/*
	 * 600: hdor routes the damaged fabrics with escaped destinations
	 * twice (route/hdor.c: hdor_ft_candidate()); under the sanitizers on a
	 * loaded machine (load 7-8) heavy_damage took more than 300 s.
	 */
	tcase_set_timeout(tc, 600);
	if (PART(1)) {
		tcase_add_test(tc, damaged_lines);
		tcase_add_loop_test(tc, heavy_damage, 0, 1);
		tcase_add_loop_test(tc, heavy_damage_several, 0, 3);
		tcase_add_loop_test(tc, escape_beats_updown, 0, 1);
	}
	if (PART(2)) {
		tcase_add_loop_test(tc, escape_layer, 0, 3);
		tcase_add_loop_test(tc, heavy_damage, 1, 3);
		tcase_add_loop_test(tc, escape_beats_updown, 1, 3);
	}
	if (PART(3)) {
		tcase_add_loop_test(tc, escape_layers_gain, 0, 3);
		tcase_add_test(tc, mixed_orders_gain);
		tcase_add_test(tc, ripup_damaged_lines);
		tcase_add_test(tc, best_dimension_order);
		tcase_add_test(tc, ca_deal_gain);
	}
	suite_add_tcase(s, tc);
	/* its own case, to be run alone: CK_RUN_CASE=open */
	if (PART(2)) {
		tc = tcase_create("open");
		tcase_set_timeout(tc, 600);
		tcase_add_test(tc, open_coordinates);
		suite_add_tcase(s, tc);
	}
	return s;
}

OT_UNIT_MAIN(hdor_ft_damage_suite)
