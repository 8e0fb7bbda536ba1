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
 *
 * The routing by load (c->cabload, where a switch or a leaf's cable up
 * is missing: ot_dfp_uneven()): toward each CA LID every group takes
 * the usable cable whose flows' busiest link is least loaded
 * (ot_dfp_alt_cables(); the deal ignores the damage around the cables:
 * the LIDs of a leaf of H that lost a spine crowd onto the cables that
 * land elsewhere, a leaf of G that lost a spine sends its CAs' flows to
 * another spine's cable), and, in its second variant, a spine of the
 * LID's group where other groups land may turn below itself where that
 * is less loaded than its cable down (SL 4, the landing turn's shape;
 * a leaf that lost one of its cables to that spine takes every landing
 * group's flows down the ones left), and that group's leaves go up by
 * load (ot_dfp_alt_land()).  Loads: every leaf's CAs, one flow each,
 * over the LIDs routed so far.  Kept by the same figure, on at most 2
 * VLs (ot_dfp_route_alt() in df_plus_search.c).
 *
 * The routing through third groups (c->thru, with the routing by load
 * and its turns): the flows that turn in their group (SL 3) or below
 * the spine they land on (SL 4, a group whose usable cables all land on
 * spines that lost T) take the damage layer's path (SL 8) through an
 * intermediate group where that is less loaded (ot_dfp_alt_thru()),
 * the groups such flows go toward low in the damage order.  Kept by the
 * same figure.
 *
 * Leaves by load (c->lsplit, with the routing by load, seeded): each
 * leaf on the rule's path takes the spine of its group whose usable
 * cable toward the LID is least loaded, not the one cable its group
 * takes (ot_dfp_alt_leaves()); the paths keep the rule's shape.  Kept
 * by the same figure.
 */
#include <stdlib.h>
#include <string.h>

#include "model/routing.h"
#include "model/sort.h"
#include "route/df_plus_cands.h"
#include "route/df_plus_rule.h"

/* The hops of a leaf's path counted toward a LID (the rule's take 3,
 * a damage layer's 6). */
#define DFP_TOUCH 8

bool ot_dfp_damage_via(const struct dfp_ctx *c, uint32_t K, uint32_t H)
{
	return K != H && c->vint[K] && !c->vsrc[K] &&
	       c->drank[K] > c->drank[H];
}

/* Whether spine s goes down to a leaf of the rule (ot_dfp_rule_down). */
static bool rule_leaf(const struct dfp_ctx *c, int32_t s, unsigned int p)
{
	int32_t x = c->f->node[s].port[p].peer;

	return ot_dfp_port_class(c->d, s, p) == OT_DFP_PORT_DOWN &&
	       c->pcnt[x] && !c->ldet[x];
}

/*
 * Spine s of an intermediate group without a usable cable toward T:
 * down to a leaf of the rule, dealt by k in (leaf, port) order;
 * OT_NO_PORT where there is none.
 */
unsigned int ot_dfp_rule_down(const struct dfp_ctx *c, int32_t s, uint32_t k)
{
	const struct ot_node *nd = &c->f->node[s];
	uint64_t key[OT_MAX_PORTS + 1];
	uint32_t m = 0;
	unsigned int p;

	for (p = 1; p <= nd->nports; p++)
		if (rule_leaf(c, s, p))
			key[m++] = ((uint64_t)c->d->index[nd->port[p].peer]
				    << 8) | p;
	if (!m)
		return OT_NO_PORT;
	qsort(key, m, sizeof(*key), ot_cmp_u64);
	return key[k % m] & 0xff;
}

/*
 * Whether spine x (of a group that sends the LID through an
 * intermediate) is where a detour through a third group lands (SL 1: a
 * spine w of another such-free group without a usable cable toward H
 * has x, with its usable cables, among its candidates): x must keep the
 * rule (its usable cable to H, then down), else the detour would turn
 * in x's group on SL 1 (down, up), which its VL rule does not allow.
 */
bool ot_dfp_detour_lands(const struct dfp_ctx *c, int32_t x, uint32_t H)
{
	const struct ot_dfp *d = c->d;
	const struct ot_node *nd = &c->f->node[x];
	unsigned int p;

	if (!c->rcnt[x] || c->fturn[d->group[x]])
		return false;
	for (p = 1; p <= nd->nports; p++) {
		int32_t w = nd->port[p].peer;

		if (ot_dfp_port_class(d, x, p) == OT_DFP_PORT_GLOBAL &&
		    (uint32_t)d->group[w] != H && !c->vsrc[d->group[w]] &&
		    !c->rcnt[w] && c->pcnt[w])
			return true;
	}
	return false;
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
	if (!c->cabload)
		return 0;
	c->gpick = malloc(((size_t)c->ng + 1) * sizeof(*c->gpick));
	c->ctouch = malloc((DFP_TOUCH * (size_t)c->nleaves + 1) *
			   sizeof(*c->ctouch));
	c->lthru = malloc(((size_t)c->d->max_leaves + 1) * sizeof(*c->lthru));
	c->ctw = malloc((DFP_TOUCH * (size_t)c->nleaves + 1) * sizeof(*c->ctw));
	if (c->prior || c->thru || c->lsplit) {
		c->clog = malloc((DFP_TOUCH * (size_t)c->nleaves + 1) *
				 sizeof(*c->clog));
		c->clogw = malloc((DFP_TOUCH * (size_t)c->nleaves + 1) *
				  sizeof(*c->clogw));
		if (!c->clog || !c->clogw)
			return ot_error_nomem(c->err, "df-static");
	}
	if (c->thru)
		c->tbuf = malloc((size_t)c->nsw + 1);
	if (!c->gpick || !c->ctouch || !c->lthru || !c->ctw ||
	    (c->thru && !c->tbuf))
		return ot_error_nomem(c->err, "df-static");
	memset(c->gpick, 0xff, ((size_t)c->ng + 1) * sizeof(*c->gpick));
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

/* The switch over port p of switch s, -1 where there is none. */
static int32_t hop_to(const struct ot_fabric *f, int32_t s, unsigned int p)
{
	int32_t x;

	if (!p || p > f->node[s].nports)
		return -1;
	x = f->node[s].port[p].peer;
	return x >= 0 && ot_is_switch(f, x) ? x : -1;
}

/*
 * The flows of group G's leaves (each its CAs) toward lid through buf,
 * times sign, into dload; the links walked into ctouch, their count.
 */
static uint32_t group_walk(struct dfp_ctx *c, uint32_t G, uint32_t lid,
			   const uint8_t *buf, int32_t sign)
{
	const struct ot_fabric *f = c->f;
	const struct ot_dfp *d = c->d;
	uint32_t i, n = 0;

	for (i = d->lstart[G]; i < d->lstart[G + 1]; i++) {
		int32_t s = d->leaf[i], w = (int32_t)c->lcas[dfp_sw_pos(c, s)];
		uint32_t hops = 0;

		while (w && s != c->tsw[lid] && hops++ < DFP_TOUCH) {
			unsigned int p = buf[dfp_sw_pos(c, s)];
			int32_t x = hop_to(f, s, p);

			if (x < 0)
				break;
			c->ctw[n] = sign * w;
			c->ctouch[n++] = c->dlbase[s] + p - 1;
			c->dload[c->dlbase[s] + p - 1] += sign * w;
			s = x;
		}
	}
	return n;
}

/*
 * The busiest link G's flows toward lid would take (loads unchanged);
 * the sum of the squares of the loads of the links they take into *sq.
 */
static int64_t group_cost(struct dfp_ctx *c, uint32_t G, uint32_t lid,
			  const uint8_t *buf, int64_t *sq)
{
	uint32_t n = group_walk(c, G, lid, buf, 1), x;
	int64_t m = 0;

	*sq = 0;
	for (x = 0; x < n; x++) {
		int64_t l = c->dload[c->ctouch[x]];

		m = l > m ? l : m;
		*sq += l * l;
	}
	group_walk(c, G, lid, buf, -1);
	return m;
}

/*
 * Group G's flows toward lid through buf into dload, each link and its
 * flows logged in clog, clogw from n on (each leaf's walk at most
 * DFP_TOUCH links, every leaf once per LID); the log's new length.
 */
static uint32_t group_log(struct dfp_ctx *c, uint32_t G, uint32_t lid,
			  const uint8_t *buf, uint32_t n)
{
	uint32_t m = group_walk(c, G, lid, buf, 1);

	memcpy(c->clog + n, c->ctouch, (size_t)m * sizeof(*c->clog));
	memcpy(c->clogw + n, c->ctw, (size_t)m * sizeof(*c->clogw));
	return n + m;
}

/* Group G's switches' ports toward lid again (after gpick[G] changed). */
static void group_ports(struct dfp_ctx *c, uint32_t G, uint32_t lid,
			uint8_t *buf)
{
	const struct ot_dfp *d = c->d;
	uint32_t i;

	for (i = d->sstart[G]; i < d->sstart[G + 1]; i++)
		buf[dfp_sw_pos(c, d->spine[i])] =
			(uint8_t)ot_dfp_port_at(c, d->spine[i], lid);
	for (i = d->lstart[G]; i < d->lstart[G + 1]; i++)
		buf[dfp_sw_pos(c, d->leaf[i])] =
			(uint8_t)ot_dfp_port_at(c, d->leaf[i], lid);
}

/*
 * A CA's LID of the rule (rank k, toward group H), in the routing by
 * load: the rule deals it to usable cable k mod C of every group G (C
 * of them) alike, whatever the damage around those cables does with it
 * (a leaf of G without a cable to that cable's spine takes another
 * spine's; the cables landing on a spine of H that lost its cable to
 * T are not usable, so T's LIDs crowd onto the others, and the deal
 * does not make that up with the LIDs of H's other leaves).  Here each
 * G with more than one takes, of its usable cables, the one whose
 * flows' busiest link (up, global and down, each leaf of G its CAs,
 * over the loads of the LIDs done so far) is least loaded, from k mod
 * C on (the deal's on a tie), its switches' ports by the rule as ever
 * (ot_dfp_port_at(), gpick[G]: the cable's place in the deal); then its
 * flows count.  Only which usable cable changes: the paths' shapes and
 * SLs are the rule's, and so is the deadlock argument.
 */
void ot_dfp_alt_cables(struct dfp_ctx *c, uint32_t lid, uint8_t *buf)
{
	const struct ot_dfp *d = c->d;
	uint32_t H = (uint32_t)d->group[c->tleaf[lid]], k = c->rank[lid];
	uint32_t G, C, t, best, nlog = 0;

	if (!counted(c, lid))
		return;
	for (G = 0; G < c->ng; G++) {
		int64_t bl = -1, bsq = 0, l, sq;

		C = c->fstart[G + 1] - c->fstart[G];
		if (G == H || C < 2)
			continue;
		for (t = 0, best = k % C; t < C; t++) {
			c->gpick[G] = (k + t) % C;
			group_ports(c, G, lid, buf);
			l = group_cost(c, G, lid, buf, &sq);
			/* seeded: on a tie, the lower sum of squares */
			if (bl < 0 || l < bl ||
			    (c->prior && l == bl && sq < bsq)) {
				bl = l;
				bsq = sq;
				best = c->gpick[G];
			}
		}
		c->gpick[G] = best;
		group_ports(c, G, lid, buf);
		if (c->prior) /* seeded: the next groups see G's choice */
			nlog = group_log(c, G, lid, buf, nlog);
	}
	while (nlog--) /* ot_dfp_alt_land() counts them all */
		c->dload[c->clog[nlog]] -= c->clogw[nlog];
}

/* The load of switch s's link over port p (0: none). */
static int64_t link_load(const struct dfp_ctx *c, int32_t s, unsigned int p)
{
	return p && p <= c->f->node[s].nports ? c->dload[c->dlbase[s] + p - 1] :
						0;
}

/* Whether spine s of T's group goes straight down to T toward the LID. */
static bool direct(const struct dfp_ctx *c, int32_t s, int32_t T,
		   const uint8_t *buf)
{
	unsigned int p = buf[dfp_sw_pos(c, s)];

	return p && p <= c->f->node[s].nports &&
	       c->f->node[s].port[p].peer == T;
}

/*
 * Leaf y of T's group (not T) up to a spine other than w that goes
 * straight down to T: the port whose two links are the least loaded
 * (plus wt flows; on a tie the spine first by index, so port numbers
 * count only among parallel cables), its cost into *cost; 0 where
 * there is none.
 */
static unsigned int up_direct(const struct dfp_ctx *c, int32_t y, int32_t w,
			      int32_t T, const uint8_t *buf, int64_t wt,
			      int64_t *cost)
{
	const struct ot_node *nd = &c->f->node[y];
	unsigned int p, best = 0;

	for (p = 1; p <= nd->nports; p++) {
		int32_t x = nd->port[p].peer;
		int64_t l, l2;

		if (ot_dfp_port_class(c->d, y, p) != OT_DFP_PORT_UP || x == w ||
		    !direct(c, x, T, buf))
			continue;
		l = link_load(c, y, p) + wt;
		l2 = link_load(c, x, buf[dfp_sw_pos(c, x)]) + wt;
		l = l2 > l ? l2 : l;
		if (!best || l < *cost ||
		    (l == *cost &&
		     c->d->index[x] < c->d->index[nd->port[best].peer])) {
			best = p; /* ties: the spine's index, not the port */
			*cost = l;
		}
	}
	return best;
}

/*
 * The flows of the leaves whose path toward lid arrives at spine w of
 * T's group H over a global cable, straight from a spine of their own
 * group on SL 0 (up, global): their CAs; -1 where some other path
 * arrives there (a detour's, the damage layer's, a turn's), or a leaf
 * of H goes up to w and has no other spine straight down to T.
 */
static int64_t landing_flows(const struct dfp_ctx *c, uint32_t lid, int32_t w,
			     const uint8_t *buf)
{
	const struct ot_fabric *f = c->f;
	const struct ot_dfp *d = c->d;
	int32_t T = c->tleaf[lid], H = d->group[T];
	int64_t W = 0, dummy;
	uint32_t i;

	for (i = 0; i < c->nleaves; i++) {
		int32_t s = c->posnode[i], at = s, path[DFP_TOUCH + 1];
		uint32_t hops = 0, j;

		if (s == T)
			continue;
		if (d->group[s] == H) {
			unsigned int p = buf[i];

			if (p && p <= f->node[s].nports &&
			    f->node[s].port[p].peer == w &&
			    !up_direct(c, s, w, T, buf, 0, &dummy))
				return -1;
			continue;
		}
		if (!c->lcas[i])
			continue;
		path[0] = s;
		while (at != T && hops < DFP_TOUCH &&
		       (at = hop_to(f, at, buf[dfp_sw_pos(c, at)])) >= 0)
			path[++hops] = at;
		for (j = 1; j <= hops && path[j] != w; j++)
			;
		if (j > hops)
			continue;
		if (j != 2 || d->group[path[1]] != d->group[s] ||
		    (c->dsl && c->dsl[(size_t)lid * c->nleaves + i]))
			return -1;
		W += c->lcas[i];
	}
	return W;
}

/*
 * The leaves of T's group H (but T) toward lid, each with the flows
 * that pass it (its own CAs', and those a spine of H sends down to it
 * to turn: SL 4), in turn: up to the spine straight down to T (not bw)
 * whose two links are the least loaded; the one it had on a tie.  Their
 * paths keep their shapes (up, down to T).
 */
static void home_up(struct dfp_ctx *c, uint32_t lid, int32_t bw,
		    uint8_t *buf)
{
	const struct ot_fabric *f = c->f;
	const struct ot_dfp *d = c->d;
	int32_t T = c->tleaf[lid], H = d->group[T];
	uint32_t i;

	for (i = d->lstart[H]; i < d->lstart[H + 1]; i++)
		c->lthru[i - d->lstart[H]] = 0;
	for (i = 0; i < c->nleaves; i++) {
		int32_t at = c->posnode[i];
		uint32_t hops = 0;

		while (c->lcas[i] && at >= 0 && at != T &&
		       hops++ < DFP_TOUCH) {
			if (d->role[at] == OT_DFP_LEAF && d->group[at] == H)
				c->lthru[d->index[at]] += c->lcas[i];
			at = hop_to(f, at, buf[dfp_sw_pos(c, at)]);
		}
	}
	for (i = d->lstart[H]; i < d->lstart[H + 1]; i++) {
		int32_t y = d->leaf[i], x;
		uint32_t pos = dfp_sw_pos(c, y);
		int64_t wt = c->lthru[i - d->lstart[H]], now, cost = 0;
		unsigned int p = buf[pos], q;

		if (y == T || !wt || !p || p > f->node[y].nports)
			continue;
		x = f->node[y].port[p].peer;
		if (x == bw || !direct(c, x, T, buf))
			continue;
		now = link_load(c, y, p) + wt;
		cost = link_load(c, x, buf[dfp_sw_pos(c, x)]) + wt;
		now = cost > now ? cost : now;
		q = up_direct(c, y, bw, T, buf, wt, &cost);
		if (q && cost < now)
			buf[pos] = (uint8_t)q;
	}
}

/*
 * Leaf s's rule path toward lid over up port p (p 0: its own), up to a
 * spine of its group that takes a global cable toward H to a spine
 * that goes straight down to T: that spine, -1 where the path is not
 * that (up, global, down).
 */
static int32_t rule_spine(const struct dfp_ctx *c, int32_t s, unsigned int p,
			  uint32_t lid, const uint8_t *buf)
{
	const struct ot_dfp *d = c->d;
	int32_t x = hop_to(c->f, s, p ? p : buf[dfp_sw_pos(c, s)]), z;
	unsigned int q;

	if (x < 0 || d->role[x] != OT_DFP_SPINE || d->group[x] != d->group[s])
		return -1;
	q = buf[dfp_sw_pos(c, x)];
	z = hop_to(c->f, x, q);
	if (z < 0 || ot_dfp_port_class(d, x, q) != OT_DFP_PORT_GLOBAL ||
	    d->group[z] != d->group[c->tleaf[lid]] ||
	    !direct(c, z, c->tleaf[lid], buf))
		return -1;
	return x;
}

/*
 * In the routing by load with leaves by load (c->lsplit, after
 * ot_dfp_alt_cables()): the deal, and the routing by load after it,
 * send every leaf of a group G over the one usable cable the group
 * takes toward a LID, so all of a LID's flows from G cross one cable
 * (issue 23's draw 470: three groups of five leaves, one CA each, two
 * cables from group 0 to group 1; a leaf of group 1 lost one landing
 * spine, so its LID is forced onto the other cable, and the deal's
 * LID-sized shares come to 15 flows on one cable and 10 on the other,
 * where 13 would do).  Here each leaf of G on the rule's path (up,
 * global, down on SL 0) takes in turn, among the spines of G whose
 * column is a global cable toward H that lands on a spine going
 * straight down to T, the one whose path has the least busy link (its
 * CAs added to the loads of the LIDs done so far and of the leaves
 * before it), the one it had on a tie; by spine index, not port, among
 * equal loads.  The paths keep the rule's shape and SL 0 (no column of
 * a spine changes), so the deadlock argument is the rule's (df_plus.c's
 * top comment); a turn (SL 3) that lands on such a leaf goes on by its
 * new entry, up, global, down, as before.  The checker proves each
 * table.
 */
void ot_dfp_alt_leaves(struct dfp_ctx *c, uint32_t lid, uint8_t *buf)
{
	const struct ot_fabric *f = c->f;
	const struct ot_dfp *d = c->d;
	uint32_t H = (uint32_t)d->group[c->tleaf[lid]], i, n = 0;
	unsigned int p;

	if (!counted(c, lid) || c->tsw[lid] != c->tleaf[lid])
		return;
	for (i = 0; i < c->nleaves; i++) {
		int32_t s = c->posnode[i], w = (int32_t)c->lcas[i], x, y;
		unsigned int cur = buf[i], bp = cur;
		int64_t best, l;

		if (!w || (uint32_t)d->group[s] == H || c->ldet[s] ||
		    (c->dsl && c->dsl[(size_t)lid * c->nleaves + i]) ||
		    (x = rule_spine(c, s, 0, lid, buf)) < 0)
			continue;
		best = walk_buf(c, lid, x, buf[dfp_sw_pos(c, x)], buf, w,
				false);
		if (link_load(c, s, cur) + w > best)
			best = link_load(c, s, cur) + w;
		for (p = 1; p <= f->node[s].nports; p++) {
			if (p == cur ||
			    ot_dfp_port_class(d, s, p) != OT_DFP_PORT_UP ||
			    (y = rule_spine(c, s, p, lid, buf)) < 0)
				continue;
			l = walk_buf(c, lid, y, buf[dfp_sw_pos(c, y)], buf, w,
				     false);
			if (link_load(c, s, p) + w > l)
				l = link_load(c, s, p) + w;
			if (l < best ||
			    (l == best && bp != cur &&
			     d->index[y] < d->index[hop_to(f, s, bp)])) {
				best = l;
				bp = p;
			}
		}
		buf[i] = (uint8_t)bp;
		y = s;
		p = bp;
		while (y != c->tsw[lid] && p && p <= f->node[y].nports &&
		       n < DFP_TOUCH * c->nleaves) {
			c->clog[n] = c->dlbase[y] + p - 1;
			c->clogw[n++] = w;
			c->dload[c->dlbase[y] + p - 1] += w;
			y = hop_to(f, y, p);
			if (y < 0)
				break;
			p = buf[dfp_sw_pos(c, y)];
		}
	}
	while (n--) /* ot_dfp_alt_land() counts them all */
		c->dload[c->clog[n]] -= c->clogw[n];
}

/*
 * A CA's LID of the rule toward leaf T of group H, in the routing by
 * load: a spine w of H that goes straight down to T and where flows of
 * other groups land takes, where that is less loaded, a turn below it
 * instead: down to another leaf y of H, up to a spine that goes
 * straight down to T, down to T (up, global, down, up, down: SL 4 from
 * those groups' leaves, as a landing turn).  A leaf that lost some of
 * its cables to w (or w's cables were its only way) otherwise takes
 * every group's flows that land on w down the cables it has left.  Only
 * where every path that arrives at w is up, global on SL 0 (so each
 * becomes SL 4's shape), and H's leaves that went up to w go up to
 * another spine straight down to T (their paths stay up, down); at most
 * one such w per LID, the one that gains most by the loads so far.
 * Then every leaf's flows toward lid count in the loads.
 */
int ot_dfp_alt_land(struct dfp_ctx *c, uint32_t lid, uint8_t *buf,
		    bool turns)
{
	const struct ot_fabric *f = c->f;
	const struct ot_dfp *d = c->d;
	int32_t T = c->tleaf[lid], bw = -1;
	uint32_t H = (uint32_t)d->group[T], i, G;
	unsigned int bq = 0, by = 0, p, q;
	int64_t gain = 0, W = 0;

	if (!counted(c, lid))
		return 0;
	for (i = d->sstart[H]; turns && i < d->sstart[H + 1]; i++) {
		int32_t w = d->spine[i];
		int64_t wt, dir = -1, cost;

		if (!direct(c, w, T, buf))
			continue;
		wt = landing_flows(c, lid, w, buf);
		if (wt <= 0)
			continue;
		for (p = 1; p <= f->node[w].nports; p++)
			if (f->node[w].port[p].peer == T &&
			    (dir < 0 || link_load(c, w, p) + wt < dir))
				dir = link_load(c, w, p) + wt;
		for (p = 1; p <= f->node[w].nports; p++) {
			int32_t y = f->node[w].port[p].peer;
			int64_t l = link_load(c, w, p) + wt;

			if (ot_dfp_port_class(d, w, p) != OT_DFP_PORT_DOWN ||
			    y == T)
				continue;
			q = up_direct(c, y, w, T, buf, wt, &cost);
			if (!q)
				continue;
			l = cost > l ? cost : l;
			if (dir - l > gain ||
			    (dir - l == gain && bw == w &&
			     d->index[y] < d->index[f->node[w].port[bq].peer])) {
				gain = dir - l;
				bw = w;
				bq = p;
				by = q;
				W = wt;
			}
		}
	}
	if (bw >= 0) {
		int32_t y = f->node[bw].port[bq].peer;

		for (i = d->lstart[H]; i < d->lstart[H + 1]; i++) {
			int32_t s = d->leaf[i];
			uint32_t pos = dfp_sw_pos(c, s);
			int64_t cost;

			p = buf[pos];
			if (s != T && p && p <= f->node[s].nports &&
			    f->node[s].port[p].peer == bw)
				buf[pos] = (uint8_t)up_direct(c, s, bw, T, buf,
							      0, &cost);
		}
		for (i = 0; i < c->nleaves; i++) {
			int32_t s = c->posnode[i], x;

			if (d->group[s] == (int32_t)H || !c->lcas[i])
				continue;
			p = buf[i];
			if (!p || p > f->node[s].nports)
				continue;
			x = f->node[s].port[p].peer;
			if (x < 0 || d->role[x] != OT_DFP_SPINE)
				continue;
			q = buf[dfp_sw_pos(c, x)];
			if (q && q <= f->node[x].nports &&
			    f->node[x].port[q].peer == bw) {
				if (ot_dfp_set_dsl(c, lid, s, DFP_LAND_SL))
					return -1;
				c->any_land = true;
			}
		}
		buf[dfp_sw_pos(c, bw)] = (uint8_t)bq;
		buf[dfp_sw_pos(c, y)] = (uint8_t)by;
		(void)W;
	}
	if (turns)
		home_up(c, lid, bw, buf);
	for (G = 0; G < c->ng; G++)
		group_walk(c, G, lid, buf, 1);
	c->landed = true;
	return 0;
}

/*
 * Leaf s's path toward lid through buf into path[] (at most DFP_TOUCH
 * hops): the switches' count, 0 where it does not reach the LID's.
 */
static uint32_t leaf_path(const struct dfp_ctx *c, int32_t s, uint32_t lid,
			  const uint8_t *buf, int32_t *path)
{
	uint32_t n = 0;

	path[n++] = s;
	while (s != c->tsw[lid] && n <= DFP_TOUCH) {
		s = hop_to(c->f, s, buf[dfp_sw_pos(c, s)]);
		if (s < 0)
			return 0;
		path[n++] = s;
	}
	return s == c->tsw[lid] ? n : 0;
}

/*
 * Whether path[0 .. n) through buf has the damage layer's shape (SL 8):
 * up, global, global, down or up, global, down, up, global, down, the
 * second global hop down in the damage order.
 */
static bool thru_shape(const struct dfp_ctx *c, const int32_t *path,
		       uint32_t n, const uint8_t *buf)
{
	const struct ot_dfp *d = c->d;
	char got[DFP_TOUCH + 1];
	uint32_t i, g = 0;

	if (n != 5 && n != 7)
		return false;
	for (i = 0; i + 1 < n; i++) {
		unsigned int p = buf[dfp_sw_pos(c, path[i])];
		enum ot_dfp_port pc = ot_dfp_port_class(d, path[i], p);
		uint32_t from = (uint32_t)d->group[path[i]];
		uint32_t to = (uint32_t)d->group[path[i + 1]];

		got[i] = pc == OT_DFP_PORT_UP ? 'U' :
			 pc == OT_DFP_PORT_GLOBAL ? 'G' :
			 pc == OT_DFP_PORT_DOWN ? 'D' : '?';
		if (pc == OT_DFP_PORT_GLOBAL && g++ &&
		    c->drank[to] >= c->drank[from])
			return false;
	}
	got[n - 1] = 0;
	return !strcmp(got, "UGGD") || !strcmp(got, "UGDUGD");
}

/* Whether leaf pos i's path toward lid differs in buf from tbuf. */
static bool thru_moved(const struct dfp_ctx *c, uint32_t i, uint32_t lid,
		       const uint8_t *buf)
{
	int32_t a[DFP_TOUCH + 1], b[DFP_TOUCH + 1];
	uint32_t na = leaf_path(c, c->posnode[i], lid, c->tbuf, a);
	uint32_t nb = leaf_path(c, c->posnode[i], lid, buf, b);

	return na != nb || memcmp(a, b, na * sizeof(*a));
}

/* Whether leaf s's path toward lid through buf has SL 8's shape. */
static bool thru_leaf(const struct dfp_ctx *c, int32_t s, uint32_t lid,
		      const uint8_t *buf)
{
	int32_t path[DFP_TOUCH + 1];

	return thru_shape(c, path, leaf_path(c, s, lid, buf, path), buf);
}

/*
 * Spine sp of a group but H's that turns toward lid (no usable cable,
 * no detour: down to a leaf of the rule, SL 3) and that only leaves
 * turning there go up to: the global cable, among those to groups the
 * damage layer may take toward H, whose path on through buf has the
 * least busy link plus the w flows, from the deal's (k) on; kept where
 * that is less than the turn's and the first such leaf's path then has
 * SL 8's shape.  Its flows then count in dload (logged in clog, clogw
 * from *n on).
 */
static void thru_turn(struct dfp_ctx *c, uint32_t lid, int32_t sp,
		      uint8_t *buf, uint32_t *n)
{
	const struct ot_dfp *d = c->d;
	uint32_t H = (uint32_t)d->group[c->tleaf[lid]], pos = dfp_sw_pos(c, sp);
	uint32_t G = (uint32_t)d->group[sp], i, j, m, k = c->rank[lid];
	uint8_t old = buf[pos];
	uint64_t key[OT_MAX_PORTS + 1];
	unsigned int best = 0;
	int64_t bl, l;
	int32_t w = 0, s0 = -1;

	if (G == H || c->rcnt[sp] || c->pcnt[sp] || !c->frule[sp])
		return;
	for (i = d->lstart[G]; i < d->lstart[G + 1]; i++) {
		int32_t s = d->leaf[i];

		if (hop_to(c->f, s, buf[dfp_sw_pos(c, s)]) != sp)
			continue;
		if (c->ldet[s] != DFP_TURN_SL)
			return; /* another path takes sp's entry */
		if (s0 < 0)
			s0 = s;
		w += (int32_t)c->lcas[dfp_sw_pos(c, s)];
	}
	if (!w)
		return;
	bl = walk_buf(c, lid, sp, old, buf, w, false);
	m = ot_dfp_via_keys(c, sp, OT_DFP_PORT_GLOBAL, H, buf, takes_via, key);
	for (j = 0; j < m; j++) {
		unsigned int q = key[(k + j) % m] & 0xff;

		l = walk_buf(c, lid, sp, q, buf, w, false);
		if (l >= bl)
			continue;
		buf[pos] = (uint8_t)q;
		if (thru_leaf(c, s0, lid, buf)) {
			bl = l;
			best = q;
		}
		buf[pos] = old;
	}
	if (!best)
		return;
	buf[pos] = (uint8_t)best;
	for (i = d->lstart[G]; i < d->lstart[G + 1]; i++) {
		int32_t s = d->leaf[i], x = s;
		uint32_t hops = 0;

		if (hop_to(c->f, s, buf[dfp_sw_pos(c, s)]) != sp)
			continue;
		w = (int32_t)c->lcas[dfp_sw_pos(c, s)];
		while (w && x != c->tsw[lid] && hops++ < DFP_TOUCH) {
			unsigned int p = buf[dfp_sw_pos(c, x)];
			int32_t y = hop_to(c->f, x, p);

			if (y < 0)
				break;
			c->clog[*n] = c->dlbase[x] + p - 1;
			c->clogw[(*n)++] = w;
			c->dload[c->dlbase[x] + p - 1] += w;
			x = y;
		}
	}
}

/*
 * Group G (not H) whose usable cables toward lid land on a turn (SL 4 by
 * the rule: fturn): its leaves through intermediate groups instead, as
 * the damage layer sends a group without a usable cable (each spine of
 * G not where a detour lands one of its cables to a group the damage
 * layer may take, the leaves and those cables by load:
 * ot_dfp_alt_spines()), kept where the busiest link G's flows take is
 * less loaded than by the rule and every leaf's path then has SL 8's
 * shape; else G's columns as they were (tbuf).
 */
static void thru_land(struct dfp_ctx *c, uint32_t lid, uint32_t G,
		      uint8_t *buf)
{
	const struct ot_dfp *d = c->d;
	uint32_t H = (uint32_t)d->group[c->tleaf[lid]], k = c->rank[lid], i;
	uint64_t key[OT_MAX_PORTS + 1];
	int64_t before, after, sq;
	bool ok = true;

	before = group_cost(c, G, lid, buf, &sq);
	c->vsrc[G] = 1;
	for (i = d->sstart[G]; i < d->sstart[G + 1]; i++) {
		int32_t sp = d->spine[i];
		uint32_t m;

		if (ot_dfp_detour_lands(c, sp, H))
			continue;
		m = ot_dfp_via_keys(c, sp, OT_DFP_PORT_GLOBAL, H, buf, NULL,
				    key);
		if (m)
			buf[dfp_sw_pos(c, sp)] = key[k % m] & 0xff;
	}
	ot_dfp_alt_spines(c, lid, H, k, buf);
	for (i = d->lstart[G]; i < d->lstart[G + 1]; i++) {
		int32_t s = d->leaf[i], sp;
		unsigned int p = buf[dfp_sw_pos(c, s)];

		sp = hop_to(c->f, s, p);
		if (sp >= 0 && takes_via(c, sp, OT_DFP_PORT_GLOBAL, H, buf)) {
			int32_t w = (int32_t)c->lcas[dfp_sw_pos(c, s)];

			/* alt_spines counted it: out again */
			c->dload[c->dlbase[s] + p - 1] -= w;
			walk_buf(c, lid, sp, buf[dfp_sw_pos(c, sp)], buf, -w,
				 true);
		}
		ok &= !c->lcas[dfp_sw_pos(c, s)] || thru_leaf(c, s, lid, buf);
	}
	after = ok ? group_cost(c, G, lid, buf, &sq) : before;
	if (after < before)
		return;
	c->vsrc[G] = 0;
	for (i = d->sstart[G]; i < d->sstart[G + 1]; i++)
		buf[dfp_sw_pos(c, d->spine[i])] =
			c->tbuf[dfp_sw_pos(c, d->spine[i])];
	for (i = d->lstart[G]; i < d->lstart[G + 1]; i++)
		buf[dfp_sw_pos(c, d->leaf[i])] =
			c->tbuf[dfp_sw_pos(c, d->leaf[i])];
}

/*
 * The routing through third groups (c->thru), a CA's LID of the rule
 * toward leaf T of group H, after the deal, the cables by load and the
 * detours: the flows that by the rule turn inside their group (SL 3: a
 * leaf that lost every spine with a usable cable toward H) or below the
 * spine they land on (SL 4: a group whose usable cables land on spines
 * not cabled to T) cross the few cables that reach T and, where those
 * are short, crowd them (issue 23's draw 635: the one cable left from
 * group 3 to group 6 took 64 flows, 16 of them turning).  Where less
 * loaded, they take the damage layer's path instead: through an
 * intermediate group K above H in the damage order that routes the LID
 * by the rule (ot_dfp_damage_via(); its spines without a usable cable
 * down to a leaf of the rule), up, global, (down, up,) global, down on
 * SL 8, as long as the turn, and H low in that order (damage_order()).
 * A turning spine takes a cable to such a K (thru_turn()); a landing
 * group sends its leaves through such Ks (thru_land()).  The columns
 * change only where every leaf's path stays as it was or takes SL 8's
 * shape (checked on the paths, else the LID keeps its columns), so the
 * promise and the VL rule of SL 8 hold: VL 0 sees injection < up <
 * global (up in the order) as on SL 0, the rest of the path is on VL 1
 * with the detours, searched afterwards (df_plus_vl1.c), and the checker
 * proves each table.
 */
int ot_dfp_alt_thru(struct dfp_ctx *c, uint32_t lid, uint8_t *buf)
{
	const struct ot_dfp *d = c->d;
	uint32_t H = (uint32_t)d->group[c->tleaf[lid]], k = c->rank[lid];
	uint32_t G, i, n = 0;
	bool any = false, ok = true;

	if (!counted(c, lid) || c->tsw[lid] != c->tleaf[lid])
		return 0;
	for (i = 0; i < c->nleaves && !any; i++)
		any = (uint32_t)d->group[c->posnode[i]] != H && c->lcas[i] &&
		      (c->ldet[c->posnode[i]] == DFP_TURN_SL ||
		       c->ldet[c->posnode[i]] == DFP_LAND_SL);
	if (!any)
		return 0;
	memcpy(c->tbuf, buf, c->nsw);
	memset(c->vsrc, 0, (size_t)c->ng * sizeof(*c->vsrc));
	for (G = 0; G < c->ng; G++) { /* intermediates: leaves by the rule */
		c->vlist[G] = c->vint[G];
		for (i = d->lstart[G]; i < d->lstart[G + 1] && c->vint[G];
		     i++) {
			int32_t x = hop_to(c->f, d->leaf[i],
					   buf[dfp_sw_pos(c, d->leaf[i])]);

			c->vint[G] = x >= 0 && c->rcnt[x];
		}
	}
	for (G = 0; G < c->ng; G++) /* the intermediates route it */
		for (i = d->sstart[G]; ot_dfp_damage_via(c, G, H) &&
				       i < d->sstart[G + 1]; i++)
			if (!c->rcnt[d->spine[i]] &&
			    (!c->pcnt[d->spine[i]] ||
			     !up_flows(c, d->spine[i], G, buf)))
				buf[dfp_sw_pos(c, d->spine[i])] = (uint8_t)
					ot_dfp_rule_down(c, d->spine[i], k);
	for (i = 0; i < c->nsw - c->nleaves; i++)
		thru_turn(c, lid, d->spine[i], buf, &n);
	for (G = 0; G < c->ng; G++)
		if (G != H && c->fturn[G])
			thru_land(c, lid, G, buf);
	while (n--) /* ot_dfp_alt_land() counts them all */
		c->dload[c->clog[n]] -= c->clogw[n];
	for (i = 0; i < c->nleaves && ok; i++)
		ok = !c->lcas[i] || !thru_moved(c, i, lid, buf) ||
		     thru_leaf(c, c->posnode[i], lid, buf);
	memset(c->vsrc, 0, (size_t)c->ng * sizeof(*c->vsrc));
	for (G = 0; G < c->ng; G++)
		c->vint[G] = (uint8_t)c->vlist[G];
	if (!ok) {
		memcpy(buf, c->tbuf, c->nsw);
		return 0;
	}
	for (i = 0; i < c->nleaves; i++) {
		if (!c->lcas[i] || !thru_moved(c, i, lid, buf))
			continue;
		if (ot_dfp_set_dsl(c, lid, c->posnode[i], DFP_DAMAGE_SL))
			return -1;
		c->any_damage = true;
	}
	return 0;
}

/* Leaf pos i's CAs' flows toward lid through prior's tables, times sign. */
static void prior_walk(struct dfp_ctx *c, uint32_t i, uint32_t lid,
		       int32_t sign)
{
	int32_t s = c->posnode[i], w = (int32_t)c->lcas[i] * sign, x;
	uint32_t hops = 0;

	while (w && s != c->tsw[lid] && hops++ <= c->nsw) {
		unsigned int p = c->prior->lft[s][lid];

		x = hop_to(c->f, s, p);
		if (x < 0)
			break;
		c->dload[c->dlbase[s] + p - 1] += w;
		s = x;
	}
}

void ot_dfp_alt_preload(struct dfp_ctx *c)
{
	uint32_t x, i;

	for (x = 0; x < c->norder; x++)
		for (i = 0; counted(c, c->order[x]) && i < c->nleaves; i++)
			prior_walk(c, i, c->order[x], 1);
}

void ot_dfp_alt_reload(struct dfp_ctx *c, uint32_t lid, const uint8_t *buf)
{
	uint32_t i, G;

	if (!counted(c, lid))
		return;
	for (i = 0; !buf && i < c->nleaves; i++)
		prior_walk(c, i, lid, -1);
	for (G = 0; buf && G < c->ng; G++)
		group_walk(c, G, lid, buf, 1);
}

/* Group G's global cables (its spines' ports cabled to another group). */
static uint32_t group_globals(const struct dfp_ctx *c, uint32_t G)
{
	const struct ot_dfp *d = c->d;
	uint32_t i, n = 0;
	unsigned int p;

	for (i = d->sstart[G]; i < d->sstart[G + 1]; i++)
		for (p = 1; p <= c->f->node[d->spine[i]].nports; p++)
			n += ot_dfp_port_class(d, d->spine[i], p) ==
			     OT_DFP_PORT_GLOBAL;
	return n;
}

/*
 * Whether a switch, a leaf's cable up or a global cable is missing: a
 * group with fewer leaves or spines than the largest, leaves with
 * unequal cables up, or groups with unequal global cables.  Not a
 * spine's own count of global cables: an intact fabric with fewer
 * groups than its spines' ports allow leaves some of them uncabled
 * (unit fewer_groups), but every group the same number (each group's
 * global cable j goes to the group and cable that j alone names, in
 * every arrangement `osmtopo gen` draws), so a lost global cable shows
 * as two groups with one fewer than the others.
 */
bool ot_dfp_uneven(const struct dfp_ctx *c)
{
	const struct ot_fabric *f = c->f;
	const struct ot_dfp *d = c->d;
	uint32_t G, i, up = 0, n;
	unsigned int p;

	for (G = 0; G < c->ng; G++)
		if (d->lstart[G + 1] - d->lstart[G] != d->max_leaves ||
		    d->sstart[G + 1] - d->sstart[G] != d->max_spines ||
		    (G && group_globals(c, G) != group_globals(c, 0)))
			return true;
	for (i = 0; i < c->nleaves; i++) {
		int32_t s = c->posnode[i];

		for (p = 1, n = 0; p <= f->node[s].nports; p++)
			n += ot_dfp_port_class(d, s, p) == OT_DFP_PORT_UP;
		if (i && n != up)
			return true;
		up = n;
	}
	return false;
}
