// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * df-static on a Dragonfly+ (route/df_plus.c, whose top comment states
 * the rule, its spreading and its detours): toward one leaf T, the
 * usable global cables, every switch's candidate ports (the rule, a
 * detour through a third group, a turn in a group), and the port a
 * switch takes toward a LID of T, dealt by the LID's number; the escape
 * layer's ports (up*-down*, route/escape.h) for a LID the rule leaves
 * without a port somewhere.
 */
#include <stdlib.h>
#include <string.h>

#include "model/sort.h"
#include "route/df_plus_cands.h"
#include "route/df_plus_rule.h"

/* Whether switch n has a cable to switch x. */
static bool cabled_to(const struct ot_fabric *f, int32_t n, int32_t x)
{
	unsigned int p;

	for (p = 1; p <= f->node[n].nports; p++)
		if (f->node[n].port[p].peer == x)
			return true;
	return false;
}

/* Whether spine w has a leaf other than T cabled to a spine cabled to T. */
static bool turn_below(const struct dfp_ctx *c, int32_t w, int32_t T)
{
	const struct ot_node *nd = &c->f->node[w];
	unsigned int p, q;

	for (p = 1; p <= nd->nports; p++) {
		int32_t x = nd->port[p].peer;

		if (ot_dfp_port_class(c->d, w, p) != OT_DFP_PORT_DOWN || x == T)
			continue;
		for (q = 1; q <= c->f->node[x].nports; q++) {
			int32_t y = c->f->node[x].port[q].peer;

			if (ot_dfp_port_class(c->d, x, q) == OT_DFP_PORT_UP &&
			    c->cabled[y] == 1)
				return true;
		}
	}
	return false;
}

/*
 * The usable cables of one group toward T's group, flist[from .. to), in
 * the rule's dealing order into fdeal: the first cable landing on each
 * spine of T's group (in spine order), then the second, ...  Consecutive
 * numbers k (the CAs of one leaf) then land on different spines, which
 * share the hops down to the leaf; flist itself stays in (spine, far
 * spine, port) order, a spine's cables together (rbeg, rcnt).
 */
static void deal_order(struct dfp_ctx *c, uint32_t from, uint32_t to)
{
	uint64_t key[OT_MAX_PORTS + 1];
	uint32_t i, j, round, n = to - from;

	if (n > OT_MAX_PORTS) {
		memcpy(c->fdeal + from, c->flist + from, n * sizeof(*c->flist));
		return;
	}
	for (i = 0; i < n; i++) {
		int32_t far = c->gcab[c->flist[from + i]].far;

		for (j = 0, round = 0; j < i; j++)
			round += c->gcab[c->flist[from + j]].far == far;
		key[i] = ((uint64_t)round << 40) |
			 ((uint64_t)(uint32_t)c->d->index[far] << 16) | i;
	}
	qsort(key, n, sizeof(*key), ot_cmp_u64);
	for (i = 0; i < n; i++)
		c->fdeal[from + i] = c->flist[from + (key[i] & 0xffff)];
}

/*
 * Toward leaf T: which spines of H reach it, the usable cables per
 * group: those landing on a spine cabled to T, or where a group has
 * none, those landing on a spine that reaches T by a turn below it.
 */
void ot_dfp_usable_cables(struct dfp_ctx *c, int32_t T)
{
	const struct ot_dfp *d = c->d;
	uint32_t H = (uint32_t)d->group[T], G, i, k = 0;
	uint8_t want;

	for (i = d->sstart[H]; i < d->sstart[H + 1]; i++)
		c->cabled[d->spine[i]] = cabled_to(c->f, d->spine[i], T);
	for (i = d->sstart[H]; i < d->sstart[H + 1]; i++)
		if (!c->cabled[d->spine[i]] && turn_below(c, d->spine[i], T))
			c->cabled[d->spine[i]] = 2;
	for (G = 0; G < c->ng; G++) {
		size_t at = (size_t)G * c->ng + H;

		c->fstart[G] = k;
		c->fturn[G] = 0;
		for (i = d->sstart[G]; i < d->sstart[G + 1]; i++)
			c->rcnt[d->spine[i]] = 0;
		for (want = 1; want <= 2 && k == c->fstart[G]; want++)
			for (i = c->gstart[at]; G != H && i < c->gstart[at + 1];
			     i++) {
				const struct dfp_cab *cb = &c->gcab[i];

				if (c->cabled[cb->far] != want)
					continue;
				c->fturn[G] = want == 2;
				if (!c->rcnt[cb->sp])
					c->rbeg[cb->sp] = k;
				c->rcnt[cb->sp]++;
				c->flist[k++] = i;
			}
		deal_order(c, c->fstart[G], k);
	}
	c->fstart[c->ng] = k;
}

/* Candidate keys of spine s toward T into key[]: rule, else detour. */
static uint32_t spine_cands(struct dfp_ctx *c, int32_t s, int32_t T,
			    uint64_t *key)
{
	const struct ot_dfp *d = c->d;
	const struct ot_node *nd = &c->f->node[s];
	int32_t H = d->group[T];
	uint32_t m = 0;
	unsigned int p;

	if (d->group[s] == H && c->cabled[s] == 1) {
		for (p = 1; p <= nd->nports; p++)
			if (nd->port[p].peer == T)
				key[m++] = p;
		return m;
	}
	if (d->group[s] == H)
		return 0; /* down to a leaf that reaches T: spine_fallback */
	if (c->rcnt[s])
		return 0; /* its own usable cables, in flist */
	if (c->alt && c->fstart[d->group[s]] == c->fstart[d->group[s] + 1])
		return 0; /* none in its group: the damage layer (df_plus_alt.c) */
	for (p = 1; p <= nd->nports; p++) {
		int32_t x = nd->port[p].peer;

		if (ot_dfp_port_class(d, s, p) == OT_DFP_PORT_GLOBAL &&
		    d->group[x] != H && c->rcnt[x] && !c->fturn[d->group[x]])
			key[m++] = ((uint64_t)d->group[x] << 40) |
				   ((uint64_t)d->index[x] << 8) | p;
	}
	return m;
}

/*
 * Candidate keys of leaf s toward T: up to spines with the rule (a
 * usable cable, or in H a cable to T), else to spines with a detour
 * (*det set).
 */
static uint32_t leaf_cands(struct dfp_ctx *c, int32_t s, int32_t T,
			   uint64_t *key, uint8_t *det)
{
	const struct ot_dfp *d = c->d;
	const struct ot_node *nd = &c->f->node[s];
	bool home = d->group[s] == d->group[T];
	uint32_t m = 0;
	unsigned int p, pass;

	for (pass = 0; pass < 2 && !m; pass++)
		for (p = 1; p <= nd->nports; p++) {
			int32_t x = nd->port[p].peer;
			bool ok;

			if (ot_dfp_port_class(d, s, p) != OT_DFP_PORT_UP)
				continue;
			if (!pass)
				ok = home ? c->cabled[x] == 1 : c->rcnt[x] > 0;
			else
				ok = c->pcnt[x] > 0; /* a detour (spines first) */
			if (ok)
				key[m++] = ((uint64_t)d->index[x] << 8) | p;
		}
	*det = pass == 2 && m ? DFP_DETOUR_SL :
	       m && !home && c->fturn[d->group[s]] ? DFP_LAND_SL : 0;
	return m;
}

/*
 * The fallback of a spine with neither rule nor detour (spine_fallback):
 * its cables down to leaves that go up by the rule (SL 0), in (leaf,
 * port) order, into plist at *k; where there are none, to leaves that
 * go up at all (an entry no CA's path uses: the group's leaves take
 * other spines, and no global hop lands here toward T).
 */
static void fallback_list(struct dfp_ctx *c, int32_t s, uint32_t *k)
{
	const struct ot_node *nd = &c->f->node[s];
	uint64_t key[OT_MAX_PORTS + 1];
	uint32_t m = 0, j, pass;
	unsigned int p;

	c->fcnt[s] = 0;
	c->frule[s] = 0;
	if (c->pcnt[s] || c->rcnt[s])
		return;
	for (pass = 0; pass < 2 && !m; pass++)
		for (p = 1; p <= nd->nports; p++) {
			int32_t x = nd->port[p].peer;

			if (ot_dfp_port_class(c->d, s, p) == OT_DFP_PORT_DOWN &&
			    c->pcnt[x] && (pass || !c->ldet[x]))
				key[m++] = ((uint64_t)c->d->index[x] << 8) | p;
		}
	qsort(key, m, sizeof(*key), ot_cmp_u64);
	c->fbeg[s] = *k;
	c->fcnt[s] = m;
	c->frule[s] = pass == 1 && m;
	for (j = 0; j < m; j++)
		c->plist[(*k)++] = key[j] & 0xff;
}

/*
 * A leaf of another group than T's whose spines have neither rule nor
 * detour: up to a spine whose fallback leads down to a leaf of the rule
 * (path SL 3, the turn at that leaf), in (spine, port) order.
 */
static uint32_t turn_cands(const struct dfp_ctx *c, int32_t s, uint64_t *key)
{
	const struct ot_node *nd = &c->f->node[s];
	uint32_t m = 0;
	unsigned int p;

	for (p = 1; p <= nd->nports; p++) {
		int32_t x = nd->port[p].peer;

		if (ot_dfp_port_class(c->d, s, p) == OT_DFP_PORT_UP &&
		    c->frule[x] && !c->fturn[c->d->group[s]])
			key[m++] = ((uint64_t)c->d->index[x] << 8) | p;
	}
	qsort(key, m, sizeof(*key), ot_cmp_u64);
	return m;
}

/*
 * Every switch's candidate ports toward leaf T, sorted: spines first
 * (a leaf's detour needs its spines' answers), then leaves.
 */
/* Spine s's or leaf s's candidates toward T into plist at *k. */
static void put_cands(struct dfp_ctx *c, int32_t s, int32_t T, uint32_t *k)
{
	uint64_t key[OT_MAX_PORTS + 1];
	uint32_t j, m;

	if (c->d->role[s] == OT_DFP_SPINE) {
		m = spine_cands(c, s, T, key);
	} else {
		c->ldet[s] = 0;
		m = s == T ? 0 : leaf_cands(c, s, T, key, &c->ldet[s]);
	}
	qsort(key, m, sizeof(*key), ot_cmp_u64);
	c->pbeg[s] = *k;
	c->pcnt[s] = m;
	for (j = 0; j < m; j++)
		c->plist[(*k)++] = key[j] & 0xff;
}

void ot_dfp_candidates(struct dfp_ctx *c, int32_t T)
{
	const struct ot_dfp *d = c->d;
	uint64_t key[OT_MAX_PORTS + 1];
	uint32_t i, j, m, k = 0;

	ot_dfp_usable_cables(c, T);
	memset(c->gturn, 0, (size_t)c->ng + 1);
	for (i = 0; i < c->nsw - c->nleaves; i++)
		put_cands(c, d->spine[i], T, &k);
	for (i = 0; i < c->nleaves; i++)
		put_cands(c, d->leaf[i], T, &k);
	for (i = 0; i < c->nsw - c->nleaves; i++)
		fallback_list(c, d->spine[i], &k);
	for (i = 0; i < c->nleaves; i++) {
		int32_t s = d->leaf[i];

		if (s == T || c->pcnt[s] || d->group[s] == d->group[T])
			continue;
		m = turn_cands(c, s, key);
		c->pbeg[s] = k;
		c->pcnt[s] = m;
		c->ldet[s] = m ? DFP_TURN_SL : 0;
		c->gturn[d->group[s]] |= m > 0;
		for (j = 0; j < m; j++)
			c->plist[k++] = key[j] & 0xff;
	}
	c->ktail = k;
}

/*
 * Toward T after T0 of the same group with the same spines reaching
 * them (cabled[]): everything outside T's group is as it was (it reads
 * cabled[] and nothing else of T), so only the group's own switches
 * are done again, into plist beyond the full answer.  False where the
 * spines differ (damage): then the whole again.
 */
bool ot_dfp_home_candidates(struct dfp_ctx *c, int32_t T, int32_t T0)
{
	const struct ot_dfp *d = c->d;
	uint32_t H = (uint32_t)d->group[T], i, k = c->ktail;
	uint8_t old[OT_MAX_PORTS + 1];
	uint32_t n = d->sstart[H + 1] - d->sstart[H];
	bool same = true;

	if (T0 < 0 || d->group[T0] != (int32_t)H || n > OT_MAX_PORTS)
		return false;
	for (i = 0; i < n; i++) {
		int32_t w = d->spine[d->sstart[H] + i];

		old[i] = c->cabled[w];
		c->cabled[w] = cabled_to(c->f, w, T);
	}
	for (i = 0; i < n; i++) {
		int32_t w = d->spine[d->sstart[H] + i];

		if (!c->cabled[w] && turn_below(c, w, T))
			c->cabled[w] = 2;
		same &= c->cabled[w] == old[i];
	}
	if (!same)
		return false;
	for (i = d->sstart[H]; i < d->sstart[H + 1]; i++)
		put_cands(c, d->spine[i], T, &k);
	for (i = d->lstart[H]; i < d->lstart[H + 1]; i++)
		put_cands(c, d->leaf[i], T, &k);
	for (i = d->sstart[H]; i < d->sstart[H + 1]; i++)
		fallback_list(c, d->spine[i], &k);
	return true;
}

/* Ports of leaf s's candidates to spine sp: the first's place, how many. */
static uint32_t ports_to(const struct dfp_ctx *c, int32_t s, int32_t sp,
			 uint32_t *first)
{
	const struct ot_node *nd = &c->f->node[s];
	uint32_t i, n = 0;

	for (i = c->pbeg[s]; i < c->pbeg[s] + c->pcnt[s]; i++)
		if (nd->port[c->plist[i]].peer == sp) {
			if (!n)
				*first = i;
			n++;
		}
	return n;
}

/*
 * A spine with neither rule nor detour toward T (no usable cable, none
 * to a spine with one; in T's group: no cable to T) goes down to a leaf
 * of its group, dealt by k (fallback_list): the turn of SL 3 paths and
 * of SL 4 landings, which only pass spines whose fallback leaves go by
 * the rule; any other spine's entry no CA's path uses.  OT_NO_PORT where
 * no leaf below goes up at all.
 */
static unsigned int spine_fallback(const struct dfp_ctx *c, int32_t s,
				   uint32_t k)
{
	if (!c->fcnt[s])
		return OT_NO_PORT;
	return c->plist[c->fbeg[s] + k % c->fcnt[s]];
}

/*
 * The port of switch s toward LID lid dealt as number k (the top: cable
 * k mod C, or the one gpick[] names in the routing by load, parallel
 * cables k / C mod n, else dealt by k); OT_NO_PORT where there is none.
 */
unsigned int ot_dfp_port_at_k(const struct dfp_ctx *c, int32_t s,
			      uint32_t lid, uint32_t k)
{
	const struct ot_dfp *d = c->d;
	const struct ot_node *nd = &c->f->node[s];
	int32_t t = c->tsw[lid], T = c->tleaf[lid], G = d->group[s];
	uint32_t C, first = 0, n, j;
	unsigned int p;

	if (s == t)
		return c->tport[lid];
	if (t != T && d->role[s] == OT_DFP_LEAF && cabled_to(c->f, s, t)) {
		for (p = 1, n = 0; p <= nd->nports; p++)
			n += nd->port[p].peer == t;
		for (p = 1, n = k % n; p <= nd->nports; p++)
			if (nd->port[p].peer == t && !n--)
				return p;
	}
	C = c->fstart[G + 1] - c->fstart[G];
	j = c->gpick && c->gpick[G] < C ? c->gpick[G] : C ? k % C : 0;
	if (d->role[s] == OT_DFP_SPINE && c->rcnt[s]) {
		const struct dfp_cab *cb = &c->gcab[c->fdeal[c->fstart[G] + j]];

		if (cb->sp == s)
			return cb->port;
		return c->gcab[c->flist[c->rbeg[s] + k % c->rcnt[s]]].port;
	}
	if (!c->pcnt[s])
		return d->role[s] == OT_DFP_SPINE ? spine_fallback(c, s, k) :
						    OT_NO_PORT;
	if (d->role[s] == OT_DFP_LEAF && C &&
	    (!c->ldet[s] || c->ldet[s] == DFP_LAND_SL)) {
		int32_t sp = c->gcab[c->fdeal[c->fstart[G] + j]].sp;

		n = ports_to(c, s, sp, &first);
		if (n)
			return c->plist[first + (k / C) % n];
	}
	if (d->role[s] == OT_DFP_SPINE) /* a detour: k / want, as shared */
		k /= c->want;
	return c->plist[c->pbeg[s] + k % c->pcnt[s]];
}

/*
 * Leaf s of a group G that has fewer usable cables (C) toward T's group
 * than most pairs have (want, cables lost): the LIDs numbered k with k
 * mod want >= C (those a lost cable would have carried) go up to a spine
 * of G with a detour through a third group (up, global, global, down on
 * SL 1, as a detour), dealt by k / want in (spine, port) order; the
 * others keep the rule.  Only at LMC offset 0 and where no group lost
 * all its cables to another (no damage layer: its intermediates route
 * by the rule alone), and not in a group where a leaf turns toward T
 * (gturn: a turn lands on one of G's leaves and takes its entry, which
 * must then be the rule's).  OT_NO_PORT: the rule.
 */
static unsigned int share_detour(const struct dfp_ctx *c, int32_t s,
				 uint32_t lid)
{
	const struct ot_dfp *d = c->d;
	const struct ot_node *nd = &c->f->node[s];
	int32_t G = d->group[s], T = c->tleaf[lid];
	uint32_t C = c->fstart[G + 1] - c->fstart[G], k = c->rank[lid];
	uint64_t key[OT_MAX_PORTS + 1];
	uint32_t m = 0;
	unsigned int p;

	if (c->noshare || c->damage || c->voff[lid] ||
	    d->role[s] != OT_DFP_LEAF ||
	    c->ldet[s] || c->gturn[G] || c->tsw[lid] != T ||
	    G == d->group[T] || !C ||
	    C >= c->want || k % c->want < C)
		return OT_NO_PORT;
	for (p = 1; p <= nd->nports; p++) {
		int32_t x = nd->port[p].peer;

		if (ot_dfp_port_class(d, s, p) == OT_DFP_PORT_UP &&
		    !c->rcnt[x] && c->pcnt[x])
			key[m++] = ((uint64_t)d->index[x] << 8) | p;
	}
	if (!m)
		return OT_NO_PORT;
	qsort(key, m, sizeof(*key), ot_cmp_u64);
	return key[(k / c->want) % m] & 0xff;
}

/* The port of switch s toward LID lid: its number in its group. */
unsigned int ot_dfp_port_at(const struct dfp_ctx *c, int32_t s, uint32_t lid)
{
	unsigned int p = share_detour(c, s, lid);

	return p != OT_NO_PORT ? p : ot_dfp_port_at_k(c, s, lid, c->rank[lid]);
}

/* Whether leaf s's CAs take a shared detour (share_detour) toward lid. */
bool ot_dfp_shares(const struct dfp_ctx *c, int32_t s, uint32_t lid,
		   uint8_t port)
{
	int32_t x = c->f->node[s].port[port].peer;

	return !c->noshare && !c->damage && !c->voff[lid] && !c->ldet[s] &&
	       c->tsw[lid] == c->tleaf[lid] &&
	       c->d->group[s] != c->d->group[c->tleaf[lid]] && x >= 0 &&
	       c->d->role[x] == OT_DFP_SPINE && !c->rcnt[x] && c->pcnt[x];
}

/* The path SL from leaf s's CAs toward lid (dsl made on first use). */
int ot_dfp_set_dsl(struct dfp_ctx *c, uint32_t lid, int32_t s, uint8_t sl)
{
	if (!c->dsl) {
		c->dsl = calloc(((size_t)c->f->max_lid + 1) * c->nleaves + 1,
				1);
		if (!c->dsl)
			return ot_error_nomem(c->err, "df-static");
	}
	c->dsl[(size_t)lid * c->nleaves + dfp_sw_pos(c, s)] = sl;
	return 0;
}

/* The escape layer: positions in sw_pos order, neighbours sorted. */
static int escape_prepare(struct dfp_ctx *c)
{
	const struct ot_fabric *f = c->f;
	const struct ot_dfp *d = c->d;
	uint32_t s, k = 0, i, w;
	uint64_t *tiebreak;
	int error;

	if (c->esc_ready)
		return 0;
	c->present = malloc((size_t)c->nsw + 1);
	c->estart = malloc(((size_t)c->nsw + 1) * sizeof(*c->estart));
	c->eadj = malloc(((size_t)c->nsw * OT_MAX_PORTS + 1) *
			 sizeof(*c->eadj));
	tiebreak = malloc(((size_t)c->nsw + 1) * sizeof(*tiebreak));
	if (!c->present || !c->estart || !c->eadj || !tiebreak) {
		free(tiebreak);
		return ot_error_nomem(c->err, "df-static");
	}
	for (s = 0; s < c->nsw; s++) {
		const struct ot_node *nd = &f->node[c->posnode[s]];
		uint64_t key[OT_MAX_PORTS + 1];
		unsigned int p, m = 0;

		c->estart[s] = k;
		c->present[s] = 1;
		tiebreak[s] = s;
		for (p = 1; p <= nd->nports; p++) {
			int32_t x = nd->port[p].peer;

			if (x >= 0 && x != c->posnode[s] && ot_is_switch(f, x) &&
			    d->group[x] >= 0)
				key[m++] = dfp_sw_pos(c, x);
		}
		qsort(key, m, sizeof(*key), ot_cmp_u64);
		for (i = w = 0; i < m; i++)
			if (!i || key[i] != key[i - 1])
				c->eadj[k + w++] = (uint32_t)key[i];
		k += w;
	}
	c->estart[c->nsw] = k;
	error = ot_escape_init(&c->esc, c->nsw, c->present, c->estart,
			       c->eadj, tiebreak, c->err);
	free(tiebreak);
	c->esc_ready = !error;
	return error;
}

int ot_dfp_escape_hops(struct dfp_ctx *c, uint32_t lid, uint32_t seq)
{
	if (escape_prepare(c))
		return -1;
	return ot_escape_ports(&c->esc, c->f, c->posnode,
			       dfp_sw_pos(c, c->tsw[lid]), seq, c->tport[lid],
			       c->hop, "df-static", c->err);
}
