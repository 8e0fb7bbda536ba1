// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * df-static on a Dragonfly+ (route/df_plus.c): the other routings of a
 * fabric where some group has no usable cable left toward a leaf (the
 * damage layer's fabrics) or some leaf takes a detour through a third
 * group (SL 1), and the figure that picks one of them.
 *
 * The first routing is the engine's as it always was.  The others
 * (c->alt 1 and 2) differ in:
 *
 * - a group G with no usable cable at all toward T's group H takes no
 *   detour through a third group (SL 1, df_plus_cands.c spine_cands()):
 *   such a detour needs a spine of a third group K that holds a cable
 *   to H where G's cable lands, and with one cable per group pair only
 *   one or two K qualify, so all of G's traffic to H crossed one or two
 *   cables (issue 23's 13-group shape, 5 % of the cables missing).  G's
 *   switches are then left without a port, and the damage layer (SL 8,
 *   damage_lid() in df_plus.c) takes the LID through any K above H in
 *   its order, with a turn (down, up) inside K;
 * - the damage layer by load (ot_dfp_alt_spines()): each leaf of G in
 *   turn takes the (spine, cable) pair, among the spines the deal would
 *   have offered it and their cables to groups ot_dfp_damage_via()
 *   takes, whose path on toward the LID (through the columns K's
 *   switches got) has the least busy link, counting the flows that the
 *   damage layer and the detours put on each link so far (a leaf's CAs,
 *   one flow each per LID of a CA); a spine an earlier leaf chose keeps
 *   its cable (one column per LID); the deal's choice on a tie.  Dealt
 *   by the LID's number alone, a leaf's spine and that spine's cable are
 *   both k modulo something, so the two are tied: on issue 23's shape
 *   with 5 % missing (seed 18) group 6 sent all its flows toward group 0
 *   through 2 of its 5 intermediates;
 * - the detours' cables by the same loads (ot_dfp_alt_detours()), among
 *   each spine's candidates, the landing spine keeping the rule;
 * - alt 2 only: an intermediate of the damage layer may be a group some
 *   of whose leaves detour (valiant_groups() in df_plus.c): the landing
 *   spine goes down to a leaf of the rule all the same (rule_down()).
 *
 * None changes an argument: the paths keep their shapes and SLs (up,
 * global, (down, up,) global down in the damage order, down; up,
 * global, global, down), the candidates are those of the first
 * routing, and VL 1 is searched afterwards as for it (df_plus_vl1.c).
 * Each is better on some fabrics and worse on others (a cable toward H
 * that hangs below a single leaf of K draws more traffic), so the
 * engine keeps a routing only where it takes no more VLs and its
 * busiest switch-to-switch link carries fewer flows of uniform traffic
 * than the one kept so far (ot_routing_uniform_busiest() of
 * model/routing.h: each CA one flow to every CA's base LID, through the
 * final tables), which is what the uniform
 * figure of `osmtopo check` (1 / the most loaded link) reads.  Loads,
 * candidates and ties follow the dealing order (groups, indices, LID
 * numbers), not node order or port numbers (up to the order of
 * parallel cables between one pair of switches, as the deal).
 */
#include <stdlib.h>
#include <string.h>

#include "model/routing.h"
#include "model/sort.h"
#include "route/df_plus_cands.h"

bool ot_dfp_damage_via(const struct dfp_ctx *c, uint32_t K, uint32_t H)
{
	return K != H && c->vint[K] && !c->vsrc[K] &&
	       c->drank[K] > c->drank[H];
}

/* Per node its first link, loads per link: the damage layer's flows. */
int ot_dfp_alt_prepare(struct dfp_ctx *c)
{
	const struct ot_fabric *f = c->f;
	uint32_t n;

	c->dlbase = malloc(((size_t)f->nnodes + 1) * sizeof(*c->dlbase));
	if (!c->dlbase)
		return ot_error_nomem(c->err, "df-static");
	c->dlbase[0] = 0;
	for (n = 0; n < f->nnodes; n++)
		c->dlbase[n + 1] = c->dlbase[n] + f->node[n].nports;
	c->dload = calloc((size_t)c->dlbase[f->nnodes] + 1, sizeof(*c->dload));
	if (!c->dload)
		return ot_error_nomem(c->err, "df-static");
	return 0;
}

/* Whether lid's flows count: a CA's base LID. */
static bool counted(const struct dfp_ctx *c, uint32_t lid)
{
	int32_t o = c->f->lid_owner[lid].node;

	return c->tsw[lid] >= 0 && !c->voff[lid] && o >= 0 &&
	       !ot_is_switch(c->f, o);
}

/*
 * Over port p of switch s, then through buf (the columns of the LID) to
 * its switch: the busiest link's load plus w (add: w added to each).
 */
static int64_t walk_buf(struct dfp_ctx *c, uint32_t lid, int32_t s,
			unsigned int p, const uint8_t *buf, int32_t w, bool add)
{
	int64_t m = 0;
	uint32_t hops = 0;

	while (hops++ <= c->nsw) {
		const struct ot_port *pt;
		uint32_t l;

		if (!p || p > c->f->node[s].nports)
			break;
		pt = &c->f->node[s].port[p];
		if (pt->peer < 0 || !ot_is_switch(c->f, pt->peer))
			break;
		l = c->dlbase[s] + p - 1;
		if (add)
			c->dload[l] += w;
		m = (int64_t)c->dload[l] + w > m ? (int64_t)c->dload[l] + w : m;
		s = pt->peer;
		if (s == c->tsw[lid])
			break;
		p = buf[dfp_sw_pos(c, s)];
	}
	return m;
}

/* The flows from G's leaves that go up to spine sp toward lid. */
static int32_t up_flows(const struct dfp_ctx *c, int32_t sp, uint32_t G,
			const uint8_t *buf)
{
	const struct ot_dfp *d = c->d;
	int32_t w = 0;
	uint32_t i;

	for (i = d->lstart[G]; i < d->lstart[G + 1]; i++) {
		int32_t s = d->leaf[i];
		uint32_t pos = dfp_sw_pos(c, s);
		unsigned int p = buf[pos];

		if (p && p <= c->f->node[s].nports &&
		    c->f->node[s].port[p].peer == sp)
			w += (int32_t)c->lcas[pos];
	}
	return w;
}

/* Whether spine sp's column is a damage layer's cable (not to H). */
static bool takes_via(const struct dfp_ctx *c, int32_t sp,
		      enum ot_dfp_port cls, uint32_t H, const uint8_t *buf)
{
	const struct ot_node *nd = &c->f->node[sp];
	unsigned int p = buf[dfp_sw_pos(c, sp)];

	(void)cls;
	return p && p <= nd->nports &&
	       ot_dfp_port_class(c->d, sp, p) == OT_DFP_PORT_GLOBAL &&
	       (uint32_t)c->d->group[nd->port[p].peer] != H;
}

uint32_t ot_dfp_via_keys(const struct dfp_ctx *c, int32_t s,
			 enum ot_dfp_port cls, uint32_t H, const uint8_t *buf,
			 ot_dfp_via_ok ok, uint64_t *key)
{
	const struct ot_node *nd = &c->f->node[s];
	uint32_t m = 0;
	unsigned int p;

	for (p = 1; p <= nd->nports; p++) {
		int32_t x = nd->port[p].peer;

		if (ot_dfp_port_class(c->d, s, p) != cls)
			continue;
		if (cls == OT_DFP_PORT_GLOBAL ?
			    ot_dfp_damage_via(c, (uint32_t)c->d->group[x], H) :
			    ok(c, x, cls, H, buf))
			key[m++] = ((uint64_t)c->d->group[x] << 40) |
				   ((uint64_t)c->d->index[x] << 8) | p;
	}
	qsort(key, m, sizeof(*key), ot_cmp_u64);
	return m;
}

/*
 * Leaf s (w flows) over up port p: the cost of its best cable at the
 * spine (*q; the spine's own where done), the busiest link's load.
 */
static int64_t up_cost(struct dfp_ctx *c, uint32_t lid, int32_t s,
		       unsigned int p, uint32_t H, uint32_t k,
		       const uint8_t *buf, int32_t w, bool done,
		       unsigned int *q)
{
	int32_t sp = c->f->node[s].port[p].peer;
	int64_t up = (int64_t)c->dload[c->dlbase[s] + p - 1] + w, best = -1;
	uint64_t key[OT_MAX_PORTS + 1];
	uint32_t m, j;

	if (done) {
		*q = buf[dfp_sw_pos(c, sp)];
		best = walk_buf(c, lid, sp, *q, buf, w, false);
		return best > up ? best : up;
	}
	*q = buf[dfp_sw_pos(c, sp)];
	m = ot_dfp_via_keys(c, sp, OT_DFP_PORT_GLOBAL, H, buf, takes_via,
			    key);
	for (j = 0; j < m; j++) {
		unsigned int x = key[(k + j) % m] & 0xff;
		int64_t l = walk_buf(c, lid, sp, x, buf, w, false);

		if (best < 0 || l < best) {
			best = l;
			*q = x;
		}
	}
	return best > up ? best : up;
}

void ot_dfp_alt_spines(struct dfp_ctx *c, uint32_t lid, uint32_t H,
		       uint32_t k, uint8_t *buf)
{
	const struct ot_dfp *d = c->d;
	uint64_t key[OT_MAX_PORTS + 1];
	bool done[OT_MAX_PORTS + 1];
	uint32_t G, i, j, m;

	for (G = 0; G < c->ng; G++) {
		if (!c->vsrc[G] || d->sstart[G + 1] - d->sstart[G] > OT_MAX_PORTS)
			continue;
		memset(done, 0, sizeof(done));
		for (i = d->lstart[G]; i < d->lstart[G + 1]; i++) {
			const struct ot_node *nd = &c->f->node[d->leaf[i]];
			uint32_t pos = dfp_sw_pos(c, d->leaf[i]);
			unsigned int bp = 0, bq = 0, q = 0, p;
			int64_t best = -1, l;
			int32_t w, sp;

			w = counted(c, lid) ? (int32_t)c->lcas[pos] : 0;
			m = ot_dfp_via_keys(c, d->leaf[i], OT_DFP_PORT_UP, H, buf,
					    takes_via, key);
			for (j = 0; j < m; j++) {
				p = key[(k + j) % m] & 0xff;
				sp = nd->port[p].peer;
				l = up_cost(c, lid, d->leaf[i], p, H, k, buf, w,
					    done[d->index[sp]], &q);
				if (best < 0 || l < best) {
					best = l;
					bp = p;
					bq = q;
				}
			}
			if (best < 0)
				continue; /* none: keeps the deal's */
			sp = nd->port[bp].peer;
			buf[pos] = (uint8_t)bp;
			buf[dfp_sw_pos(c, sp)] = (uint8_t)bq;
			done[d->index[sp]] = true;
			c->dload[c->dlbase[d->leaf[i]] + bp - 1] += w;
			walk_buf(c, lid, sp, bq, buf, w, true);
		}
	}
}

/*
 * A LID of the rule (not the damage layer's), in the other routings:
 * each spine of a group but H's with a detour through a third group
 * (no usable cable of its own, candidates in plist) takes, among those
 * candidates, the cable whose path on toward the LID has the least busy
 * link (the loads of the damage layer and of the detours so far), the
 * deal's (k / want) on a tie.  The landing spine keeps the rule, so the
 * detour keeps its shape (up, global, global, down on SL 1).
 */
void ot_dfp_alt_detours(struct dfp_ctx *c, uint32_t lid, uint8_t *buf)
{
	const struct ot_dfp *d = c->d;
	uint32_t H = (uint32_t)d->group[c->tleaf[lid]];
	uint32_t k = c->rank[lid] / (c->want ? c->want : 1), i, j;

	if (!counted(c, lid))
		return;
	for (i = 0; i < c->nsw - c->nleaves; i++) {
		int32_t sp = d->spine[i], w;
		uint32_t G = (uint32_t)d->group[sp], m = c->pcnt[sp];
		unsigned int best = buf[dfp_sw_pos(c, sp)];
		int64_t bl = -1;

		if (G == H || c->rcnt[sp] || !m)
			continue;
		w = up_flows(c, sp, G, buf);
		if (!w)
			continue;
		for (j = 0; j < m; j++) {
			unsigned int q = c->plist[c->pbeg[sp] + (k + j) % m];
			int64_t l = walk_buf(c, lid, sp, q, buf, w, false);

			if (bl < 0 || l < bl) {
				bl = l;
				best = q;
			}
		}
		buf[dfp_sw_pos(c, sp)] = (uint8_t)best;
		walk_buf(c, lid, sp, best, buf, w, true);
	}
}
