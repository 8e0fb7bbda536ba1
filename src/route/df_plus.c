// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * df-static on a Dragonfly+ (Shpiner et al. 2017; recognizer:
 * src/topo/dragonfly_plus.h): groups as two-level fat trees, global
 * cables between spines.  In the flow (fabric -> recognizer -> roles and
 * groups -> engine -> tables -> checker) this is the engine step.
 *
 * The rule toward a LID on leaf T of group H: a leaf of another group G
 * goes up to a spine of G with a global cable to H, that spine takes
 * such a cable, the spine it lands on goes down to T; a leaf of H goes
 * up to a spine cabled to T, which goes down: up, global, down, at most
 * 4 switches.  Only global cables that land on a spine cabled to T count
 * (damage may take that cable).
 *
 * Spreading, chosen by the destination: the LIDs of group H are numbered
 * k = 0, 1, ... in the order (CA before switch LIDs, LMC offset, leaf in
 * group, CA rank on the leaf); the global cables from G to H are listed
 * with the spines of H they land on in turn (the first cable landing on
 * each spine of H in spine order, then the second, ...; a spine's own
 * in (spine in G, spine in H, port) order) and LID k takes cable k mod C
 * (C of them), from every leaf of G alike: each global cable carries
 * the same number of H's destinations within one, and so each spine in
 * proportion to its cables, and the CAs of one leaf (consecutive k)
 * land on different spines of H, which share the hops down to it.  A
 * leaf takes the (k / C mod n)-th of its n parallel cables to that
 * spine; a leaf's cables to the spines cabled to T inside the group are
 * dealt by k mod their number (in the order spine in group, port).  A
 * spine's parallel cables down to T are dealt last (balance_down()):
 * T's LIDs weighed by the CAs whose paths reach them through that spine,
 * heaviest first to the cable carrying least.  So whatever the GUIDs,
 * port numbers and discovery order, the same destinations take the same
 * cables (up to the order of parallel cables between one pair of
 * switches).
 *
 * Deadlock freedom on 1 VL: every path is up (leaf -> spine), global
 * (spine -> spine), down (spine -> leaf), each at most once and in that
 * order, after the CA's injection and before the hop to the CA.  Number
 * the channels injection < up < global < down < to a CA: every
 * dependency a path makes goes from a channel to one of a higher number,
 * so the channel dependency graph has no cycle (Dally and Seitz) and no
 * credit loop can form.  No down-to-up turn and no global-to-global turn
 * is ever taken on VL 0.
 *
 * Damage: where a switch on the rule's path has no candidate, a detour
 * through a third group: a spine without a usable global cable to H (or
 * of H without a cable to T) takes a global cable to a spine x of
 * another group K != H that has a usable cable to H, x takes it (x's own
 * rule), and the landing spine goes down; a leaf whose spines have no
 * usable cable goes up to a spine with such a detour.  Paths up, global,
 * global, down, on their own path SL 1 (per source leaf and LID): on SL
 * 1 a hop after a global cable or after a spine (the hop into the
 * destination's CA) takes VL 1, every other VL 0.  VL 0 then still sees
 * injection < up < global < down alone (the first global hop of a
 * detour on VL 0 is followed by a VL 1 hop); VL 1 carries the second
 * global hop, the down hop and the hop to the CA, each only followed by
 * a later one of these: no cycle on either VL, and hops go from VL 0 to
 * VL 1, never back.  A LID that some switch cannot reach even so (a leaf
 * with no spine that leads anywhere) goes, all its paths, to the escape
 * layer on SL 2: a tree grown on VL 1 around the other paths there, else
 * up*-down* (route/escape.h), below ("VL 1 shared").  A fabric cut in
 * two is refused with OT_ERR_DAMAGE.
 *
 * Valiant (LMC offsets above 0; the layers and orders of groups are
 * df.c's, route/valiant.h): a LID of T's group H numbered k is routed
 * directly (the rule above, dealt by k / every) by the groups X = k mod
 * every, where a spine of such an X without a usable cable to H goes
 * down to a leaf of the rule (X may be an intermediate: its leaves go by
 * the rule, its cables land on spines cabled to T); every other group G
 * but H, unless a detour through a third group lands there (such a
 * landing spine must keep the rule), takes one of those X as
 * intermediate I (dealt by k and G) that lies above both G and H in the
 * order of groups of some layer l and over whose cables every leaf of G
 * reaches a spine with a cable to I: G's leaves go up to such a spine,
 * it takes a cable to I, and I routes the LID directly: up, global,
 * (down, up,) global, down, on path SL 4 + l.  The first global hop goes
 * up in the layer's order, the second down (SL2VL tells them apart by
 * the groups at the cable's ends).  On SL 4 + l a hop after a global
 * cable, after a spine (into a leaf) or onto a global cable down in the
 * layer's order takes the layer's own VL, every other VL 0.  VL 0 then
 * sees injection < up < global as on SL 0.  On the layer's VL every
 * global hop goes down in one order of groups, and between two of them a
 * path stays in one group (down, up); inside a group the VL carries down
 * -> up -> global and down -> CA only (the leaf's up hop leads to the
 * spine's global one): a cycle would pass global hops that all go down
 * in the order, so there is none.  One VL per layer taken (at most 3).
 *
 * LIDs of a spine (management traffic) go as toward the first leaf
 * cabled to it, which, like every leaf cabled to it, goes up to it;
 * where damage leaves that without a path, along the escape layer's
 * hops but on SL 0: no CA's path ends there, and the checker (CA to CA)
 * and the argument above leave such traffic out.  They leave out as
 * well the entry of a spine that has no port toward a CA's LID and that
 * no column leads to (damage took its usable cables and the leaves of
 * the rule below it): in the other routings it goes down to a leaf that
 * has one (idle_spines()), not its group through the damage layer.
 *
 * Shared detours: where a group G has fewer usable cables toward T's
 * group than most group pairs have (a cable lost), the LIDs the lost
 * cable would have carried (k mod want >= C) go from G's leaves up to
 * spines with a detour through a third group, on SL 1 as above (LMC
 * offset 0, fabrics without the damage layer).  Not in a group where a
 * leaf turns toward T (SL 3): the turn lands on another leaf of G and
 * goes on by that leaf's entry for the LID, and a shared detour there
 * would make the path up, down, up, global, global, down, six hops, a
 * shape no SL's rule names (seen on 272-switch fabrics with 5 % of the
 * cables missing).
 *
 * The damage layer, before the escape layer: where a group G has no
 * usable cable toward T's group H left (and the switches without a port
 * are all outside H), G sends T's LIDs through intermediate groups K
 * that route them by the rule (as Valiant's intermediates), each spine
 * of G over one of its own cables to such a K, on path SL 8: up, global,
 * (down, up,) global, down.  One order of groups serves every such pair
 * (damage_order: the groups some group has no usable cable to first),
 * and K must lie above H in it, so the second global hop goes down in
 * it; the first may go either way.  On SL 8 a hop after a global cable,
 * after a spine (into a leaf) or onto a global cable down in that order
 * takes the damage layer's VL, every other VL 0: VL 0 sees injection <
 * up < global (up in the order) as on SL 0, and on the damage VL every
 * global hop goes down in the one order with the path inside one group
 * between two of them (down, up), as on a Valiant layer's VL: no cycle.
 * Hops go from VL 0 to that VL, never back.  It shares VL 1 with the
 * detours (SL 1, 3, 4) and the escape layer, below.  In the routing
 * through third groups (route/df_plus_alt.c ot_dfp_alt_thru()) flows
 * that would turn (SL 3, SL 4) toward a group H whose cables are short
 * take the same shape on SL 8 through a K above H (H low in the
 * order, damage_order()), checked on every path, so the argument is
 * this one.  A spine of such a
 * G where another group's detour through a third group lands (SL 1)
 * keeps the rule (its usable cable to H), and G's leaves do not go up to
 * it: a detour never turns in G, and no SL 8 path takes its cable.
 *
 * VL 1 shared (2 VLs at LMC 0 on every damaged fabric: issue 23): SL 8
 * keeps its shape and its VL 0 hops, its hops on its own VL go to VL 1
 * instead, beside the detours', and the escape layer's LIDs (SL 2) take
 * VL 1 on every hop.  VL 0 is then as above (nothing moves onto it), and
 * no path goes from VL 1 back to VL 0.  VL 1 alone has no structural
 * order: the detours' paths on it go (global,) down, up, global, down,
 * the damage layer's global, down, up, global, down, and where one's
 * down hop into a leaf is another's last hop down after a turn, a cycle
 * can close (it does on some fabrics with 15 % of the cables missing);
 * up*-down* closes others with both.  So after the tables,
 * route/df_plus_vl1.c walks every path on VL 1 through them into a
 * channel dependency graph (model/cdg.h), moves LIDs whose paths close
 * cycles to the escape layer, and grows the escape layer's LIDs as
 * trees on VL 1 that close none, until the graph is acyclic (the
 * argument and the bounds are there).  Then VL 0 is acyclic by the
 * argument above, VL 1 by the search, and no dependency goes from VL 1
 * to VL 0: the whole graph is acyclic (Dally and Seitz).  Where that
 * search gives up (its bounds: about half the small fabrics with 10 % of
 * the cables missing), the engine's tables come back, the detours on
 * VL 1, the damage layer or else the escape layer with them where the
 * graph of the two is acyclic, else the damage and escape layers on one
 * VL where theirs is, else each on one of its own (route/df_plus_vl1.c
 * share_given_up()), each acyclic as above.  The checker proves each.
 *
 * The other routings (damage, detours, a missing cable or switch:
 * route/df_plus_alt.c) and the search that keeps the best of them are
 * route/df_plus_search.c's (its top comment).
 */
#define _GNU_SOURCE /* qsort_r */
#include <stdlib.h>
#include <string.h>

#include "model/cdg.h"
#include "model/sort.h"
#include "route/deal.h"
#include "route/df_plus.h"
#include "route/df_plus_cands.h"
#include "route/df_plus_rule.h"
#include "route/escape.h"
#include "route/valiant.h"

/* The first leaf (by index) cabled to spine w, -1 none. */
static int32_t first_leaf(const struct dfp_ctx *c, int32_t w)
{
	const struct ot_node *nd = &c->f->node[w];
	int32_t best = -1;
	unsigned int p;

	for (p = 1; p <= nd->nports; p++) {
		int32_t x = nd->port[p].peer;

		if (x >= 0 && c->d->role[x] == OT_DFP_LEAF &&
		    c->d->group[x] == c->d->group[w] &&
		    (best < 0 || c->d->index[x] < c->d->index[best]))
			best = x;
	}
	return best;
}

/* Where each LID is, its key, the dealing order and ranks in groups. */
static int prepare_dests(struct dfp_ctx *c)
{
	const struct ot_fabric *f = c->f;
	const struct ot_dfp *d = c->d;
	size_t n = (size_t)f->max_lid + 1;
	struct ot_deal_key *keys = malloc(n * sizeof(*keys));
	uint32_t lid, i, k = 0;

	c->order = malloc(n * sizeof(*c->order));
	c->tsw = malloc(n * sizeof(*c->tsw));
	c->tleaf = malloc(n * sizeof(*c->tleaf));
	c->tport = calloc(n, 1);
	c->rank = calloc(n, sizeof(*c->rank));
	c->escape = calloc(n, 1);
	c->voff = calloc(n, 1);
	if (!keys || !c->order || !c->tsw || !c->tleaf || !c->tport ||
	    !c->rank || !c->escape || !c->voff) {
		free(keys);
		return ot_error_nomem(c->err, "df-static");
	}
	for (lid = 0; lid < n; lid++) {
		const struct ot_lid_owner *o = &f->lid_owner[lid];
		const struct ot_port *pt;
		int32_t sw = -1, t;
		uint64_t key, rk;

		c->tsw[lid] = c->tleaf[lid] = -1;
		if (!lid || o->node < 0)
			continue;
		pt = &f->node[o->node].port[o->port];
		if (ot_is_switch(f, o->node)) {
			sw = o->node;
		} else if (pt->peer >= 0 && ot_is_switch(f, pt->peer)) {
			sw = pt->peer;
			c->tport[lid] = pt->peer_port;
		}
		if (sw < 0 || d->group[sw] < 0)
			continue;
		t = d->role[sw] == OT_DFP_LEAF ? sw : first_leaf(c, sw);
		if (t < 0)
			continue;
		c->tsw[lid] = sw;
		c->tleaf[lid] = t;
		c->voff[lid] = sw == t && lid > pt->lid;
		c->valiant |= c->voff[lid];
		rk = sw == o->node ? 0xfff :
			ot_fabric_end_port_rank(f, sw, o->node, o->port) & 0xfff;
		key = ((uint64_t)d->group[t] << 44) |
		      ((uint64_t)(sw == o->node) << 43) |
		      ((uint64_t)((lid - pt->lid) & 0x7f) << 36) |
		      ((uint64_t)d->index[t] << 20) |
		      ((uint64_t)(sw != t) << 19) |
		      (sw != t ? (uint64_t)d->index[sw] : rk);
		keys[k].key = key;
		keys[k++].lid = lid;
	}
	ot_deal_sort(keys, k);
	c->norder = k;
	for (i = 0; i < k; i++) {
		c->order[i] = keys[i].lid;
		c->rank[keys[i].lid] = i && keys[i].key >> 44 ==
						   keys[i - 1].key >> 44 ?
			c->rank[keys[i - 1].lid] + 1 : 0;
	}
	free(keys);
	return 0;
}

static int cmp_cab(const void *a, const void *b, void *ctx)
{
	const struct dfp_cab *x = a, *y = b;
	const struct ot_dfp *d = ctx;

	if (x->sp != y->sp)
		return d->index[x->sp] < d->index[y->sp] ? -1 : 1;
	if (x->far != y->far)
		return d->index[x->far] < d->index[y->far] ? -1 : 1;
	return (x->port > y->port) - (x->port < y->port);
}

/*
 * want: the most frequent number of global cables between two groups
 * (the smaller on a tie; a pair that lost cables has fewer).
 */
static int usual_pair(struct dfp_ctx *c)
{
	uint32_t *hist = calloc(OT_MAX_PORTS + 2, sizeof(*hist));
	uint32_t G, H, n;

	if (!hist)
		return ot_error_nomem(c->err, "df-static");
	c->want = 1;
	for (G = 0; G < c->ng; G++)
		for (H = 0; H < c->ng; H++) {
			size_t at = (size_t)G * c->ng + H;

			n = c->gstart[at + 1] - c->gstart[at];
			if (G != H && n)
				hist[n <= OT_MAX_PORTS ? n : OT_MAX_PORTS + 1]++;
		}
	for (n = 1; n <= OT_MAX_PORTS + 1; n++)
		if (hist[n] > hist[c->want])
			c->want = n;
	free(hist);
	return 0;
}

/* The global cables per group pair, in (spine, far spine, port) order. */
static int prepare_cables(struct dfp_ctx *c)
{
	const struct ot_fabric *f = c->f;
	const struct ot_dfp *d = c->d;
	size_t np = (size_t)c->ng * c->ng;
	uint32_t n, k, total = 0;
	unsigned int p;

	c->gstart = calloc(np + 1, sizeof(*c->gstart));
	for (n = 0; c->gstart && n < f->nnodes; n++)
		for (p = 1; p <= f->node[n].nports; p++)
			if (d->role[n] == OT_DFP_SPINE &&
			    ot_dfp_port_class(d, n, p) == OT_DFP_PORT_GLOBAL) {
				int32_t x = f->node[n].port[p].peer;

				c->gstart[(size_t)d->group[n] * c->ng +
					  d->group[x] + 1]++;
				total++;
			}
	c->gcab = malloc(((size_t)total + 1) * sizeof(*c->gcab));
	if (!c->gstart || !c->gcab)
		return ot_error_nomem(c->err, "df-static");
	for (k = 0; k < np; k++)
		c->gstart[k + 1] += c->gstart[k];
	for (n = 0; n < f->nnodes; n++)
		for (p = 1; p <= f->node[n].nports; p++)
			if (d->role[n] == OT_DFP_SPINE &&
			    ot_dfp_port_class(d, n, p) == OT_DFP_PORT_GLOBAL) {
				int32_t x = f->node[n].port[p].peer;
				size_t at = (size_t)d->group[n] * c->ng +
					    d->group[x];

				c->gcab[c->gstart[at]++] =
					(struct dfp_cab){ .sp = n, .far = x, .port = p };
			}
	for (k = np; k > 0; k--)
		c->gstart[k] = c->gstart[k - 1];
	c->gstart[0] = 0;
	for (k = 0; k < np; k++)
		qsort_r(c->gcab + c->gstart[k], c->gstart[k + 1] - c->gstart[k],
			sizeof(*c->gcab), cmp_cab, (void *)d);
	return usual_pair(c);
}

static int prepare_scratch(struct dfp_ctx *c)
{
	const struct ot_fabric *f = c->f;
	size_t N = (size_t)f->nnodes + 1, ports = 0;
	uint32_t n;

	for (n = 0; n < f->nnodes; n++)
		ports += f->node[n].nports;
	c->cabled = calloc(N, 1);
	c->fstart = calloc((size_t)c->ng + 1, sizeof(*c->fstart));
	c->fturn = calloc((size_t)c->ng + 1, 1);
	c->gturn = calloc((size_t)c->ng + 1, 1);
	c->flist = malloc((c->gstart[(size_t)c->ng * c->ng] + 1) *
			  sizeof(*c->flist));
	c->fdeal = malloc((c->gstart[(size_t)c->ng * c->ng] + 1) *
			  sizeof(*c->fdeal));
	c->rbeg = calloc(N, sizeof(*c->rbeg));
	c->rcnt = calloc(N, sizeof(*c->rcnt));
	c->pbeg = calloc(N, sizeof(*c->pbeg));
	c->pcnt = calloc(N, sizeof(*c->pcnt));
	c->fbeg = calloc(N, sizeof(*c->fbeg));
	c->fcnt = calloc(N, sizeof(*c->fcnt));
	c->frule = calloc(N, 1);
	c->plist = malloc(2 * ports + 1);
	c->ldet = calloc(N, 1);
	c->hop = calloc(N, 1);
	c->posnode = malloc(((size_t)c->nsw + 1) * sizeof(*c->posnode));
	for (n = 0; c->posnode && n < c->nsw; n++)
		c->posnode[n] = n < c->nleaves ? c->d->leaf[n] :
			c->d->spine[n - c->nleaves];
	if (!c->posnode || !c->cabled || !c->fstart || !c->fturn ||
	    !c->gturn || !c->flist || !c->fdeal || !c->rbeg || !c->rcnt ||
	    !c->pbeg || !c->pcnt || !c->fbeg || !c->fcnt || !c->frule ||
	    !c->plist || !c->ldet || !c->hop)
		return ot_error_nomem(c->err, "df-static");
	return 0;
}


/*
 * Valiant (LMC offsets above 0; route/valiant.h): per pair of groups
 * (G, I), whether every leaf of G has a spine of G with a global cable
 * to I (gvia).
 */
static int prepare_valiant(struct dfp_ctx *c)
{
	const struct ot_fabric *f = c->f;
	const struct ot_dfp *d = c->d;
	uint32_t ng = c->ng, G, I, i, mark = 0;
	unsigned int p;

	if (!c->valiant && !c->damage && !c->thru)
		return 0;
	c->every = ot_valiant_every(ng);
	c->gvia = calloc((size_t)ng * ng + 1, 1);
	c->vint = calloc((size_t)ng + 1, 1);
	c->vland = calloc((size_t)ng + 1, 1);
	c->vsrc = calloc((size_t)ng + 1, sizeof(*c->vsrc));
	c->vlist = malloc(((size_t)ng + 1) * sizeof(*c->vlist));
	c->stamp = calloc((size_t)f->nnodes + 1, sizeof(*c->stamp));
	if (!c->gvia || !c->vint || !c->vland || !c->vsrc || !c->vlist ||
	    !c->stamp)
		return ot_error_nomem(c->err, "df-static");
	for (G = 0; G < ng; G++)
		for (I = 0; I < ng; I++) {
			size_t at = (size_t)G * ng + I;
			bool ok = c->gstart[at + 1] > c->gstart[at];

			mark++;
			for (i = c->gstart[at]; i < c->gstart[at + 1]; i++)
				c->stamp[c->gcab[i].sp] = mark;
			for (i = d->lstart[G]; ok && i < d->lstart[G + 1]; i++) {
				const struct ot_node *nd = &f->node[d->leaf[i]];
				bool has = false;

				for (p = 1; p <= nd->nports && !has; p++)
					has = nd->port[p].peer >= 0 &&
					      c->stamp[nd->port[p].peer] == mark &&
					      ot_dfp_port_class(d, d->leaf[i], p) ==
						      OT_DFP_PORT_UP;
				ok = has;
			}
			c->gvia[at] = ok;
		}
	return 0;
}

/*
 * Toward leaf T (after ot_dfp_candidates()): which groups may be a Valiant
 * path's intermediate (vint: its leaves go by the rule, its spines
 * either take a usable cable to T's group or go down to such a leaf,
 * its usable cables land on spines cabled to T), and which groups a
 * detour through a third group lands in (vland: those must keep the
 * rule, so they send nothing through an intermediate).
 */
static void valiant_groups(struct dfp_ctx *c, int32_t T)
{
	const struct ot_dfp *d = c->d;
	const struct ot_fabric *f = c->f;
	uint32_t H = (uint32_t)d->group[T], I, i;

	if (!c->valiant && !c->damage && !c->thru)
		return;
	memset(c->vland, 0, c->ng);
	for (I = 0; I < c->ng; I++) {
		bool ok = I != H && c->fstart[I + 1] > c->fstart[I] &&
			  !c->fturn[I];

		for (i = d->lstart[I]; ok && c->alt < 2 && i < d->lstart[I + 1]; i++)
			ok = c->pcnt[d->leaf[i]] &&
			     c->ldet[d->leaf[i]] != DFP_DETOUR_SL;
		for (i = d->sstart[I]; ok && i < d->sstart[I + 1]; i++) {
			int32_t s = d->spine[i];

			if (c->rcnt[s])
				continue;
			ok = ot_dfp_rule_down(c, s, 0) != OT_NO_PORT;
		}
		c->vint[I] = ok;
	}
	/* a leaf's detour: up to spines whose detours land elsewhere */
	for (i = 0; i < c->nleaves; i++) {
		int32_t s = d->leaf[i];
		uint32_t j, q;

		if (c->ldet[s] != DFP_DETOUR_SL)
			continue;
		for (j = c->pbeg[s]; j < c->pbeg[s] + c->pcnt[s]; j++) {
			int32_t w = f->node[s].port[c->plist[j]].peer;

			for (q = c->pbeg[w]; q < c->pbeg[w] + c->pcnt[w]; q++)
				c->vland[d->group[f->node[w].port[c->plist[q]].peer]] = 1;
		}
	}
}

/* Leaf s of G toward intermediate I: up to the spine of the dealt cable
 * (G's cables to I in (spine, far spine, port) order), else to any
 * spine with a cable to I, in (spine, port) order. */
static unsigned int valiant_up(const struct dfp_ctx *c, int32_t s,
			       uint32_t G, uint32_t I, uint32_t q)
{
	const struct ot_node *nd = &c->f->node[s];
	size_t at = (size_t)G * c->ng + I;
	uint32_t C = c->gstart[at + 1] - c->gstart[at];
	int32_t sp = c->gcab[c->gstart[at] + q % C].sp;
	uint64_t key[OT_MAX_PORTS + 1];
	uint32_t m = 0, n = 0, i;
	unsigned int p;

	for (p = 1; p <= nd->nports; p++)
		if (nd->port[p].peer == sp &&
		    ot_dfp_port_class(c->d, s, p) == OT_DFP_PORT_UP)
			key[n++] = p;
	if (n)
		return key[(q / C) % n];
	for (p = 1; p <= nd->nports; p++) {
		int32_t x = nd->port[p].peer;

		if (ot_dfp_port_class(c->d, s, p) != OT_DFP_PORT_UP)
			continue;
		for (i = c->gstart[at]; i < c->gstart[at + 1]; i++)
			if (c->gcab[i].sp == x) {
				key[m++] = ((uint64_t)c->d->index[x] << 8) | p;
				break;
			}
	}
	qsort(key, m, sizeof(*key), ot_cmp_u64);
	return m ? key[q % m] & 0xff : OT_NO_PORT;
}

/* Spine s of G toward intermediate I: the dealt cable where it is s's,
 * else s's own cables to I dealt by q; OT_NO_PORT where it has none. */
static unsigned int valiant_global(const struct dfp_ctx *c, int32_t s,
				   uint32_t G, uint32_t I, uint32_t q)
{
	size_t at = (size_t)G * c->ng + I;
	uint32_t C = c->gstart[at + 1] - c->gstart[at];
	uint32_t i, first = 0, n = 0;

	if (c->gcab[c->gstart[at] + q % C].sp == s)
		return c->gcab[c->gstart[at] + q % C].port;
	for (i = c->gstart[at]; i < c->gstart[at + 1]; i++)
		if (c->gcab[i].sp == s && !n++)
			first = i;
	return n ? c->gcab[first + q % n].port : OT_NO_PORT;
}

/*
 * A LID above offset 0 (rank k in T's group H): the groups X = k mod
 * every route it directly (buf as it is; their spines without a usable
 * cable go down to a leaf of the rule where X may be an intermediate);
 * every other group G but H that is no detour's landing sends it
 * through one of those intermediates I that lies above G and H in some
 * layer l's order (dealt by k and G), over its own cables to I, on path
 * SL 4 + l.  vsrc[G]: I + 1, or 0 where G keeps the rule.
 */
static int valiant_lid(struct dfp_ctx *c, uint32_t lid, uint8_t *buf)
{
	const struct ot_dfp *d = c->d;
	uint32_t H = (uint32_t)d->group[c->tleaf[lid]], k = c->rank[lid];
	uint32_t r = k % c->every, q = k / c->every, G, I, i, m;
	unsigned int l;

	for (I = r; I < c->ng; I += c->every) {
		for (i = d->lstart[I]; c->vint[I] && i < d->lstart[I + 1]; i++)
			buf[dfp_sw_pos(c, d->leaf[i])] = (uint8_t)
				ot_dfp_port_at_k(c, d->leaf[i], lid, q);
		for (i = d->sstart[I]; c->vint[I] && i < d->sstart[I + 1]; i++)
			buf[dfp_sw_pos(c, d->spine[i])] = (uint8_t)(
				c->rcnt[d->spine[i]] ?
				ot_dfp_port_at_k(c, d->spine[i], lid, q) :
				ot_dfp_rule_down(c, d->spine[i], q));
	}
	for (G = 0; G < c->ng; G++) {
		c->vsrc[G] = 0;
		if (G == H || G % c->every == r || c->vland[G])
			continue;
		for (I = r, m = 0; I < c->ng; I += c->every)
			if (c->vint[I] && c->gvia[(size_t)G * c->ng + I] &&
			    ot_valiant_layer(c->ng, G, H, I))
				c->vlist[m++] = I;
		if (!m)
			continue;
		I = c->vlist[(q + G) % m];
		l = ot_valiant_layer(c->ng, G, H, I);
		c->vsrc[G] = I + 1;
		c->layers |= 1u << l;
		for (i = d->lstart[G]; i < d->lstart[G + 1]; i++) {
			int32_t s = d->leaf[i];

			buf[dfp_sw_pos(c, s)] = (uint8_t)valiant_up(c, s, G, I, q / m);
			if (ot_dfp_set_dsl(c, lid, s, DFP_VALIANT_SL0 + l))
				return -1;
		}
		for (i = d->sstart[G]; i < d->sstart[G + 1]; i++) {
			unsigned int p = valiant_global(c, d->spine[i], G, I,
							q / m);

			if (p != OT_NO_PORT)
				buf[dfp_sw_pos(c, d->spine[i])] = (uint8_t)p;
		}
	}
	return 0;
}

/*
 * Whether some leaf of a group but H's has no spine with a usable cable
 * toward T, or some group's usable cables land on a turn (after
 * ot_dfp_usable_cables(c, T)): the flows that turn (SL 3, SL 4), which
 * the routing through third groups may send through one.
 */
static bool short_pair(const struct dfp_ctx *c, uint32_t H)
{
	const struct ot_dfp *d = c->d;
	const struct ot_fabric *f = c->f;
	uint32_t G, i;
	unsigned int p;

	for (G = 0; G < c->ng; G++)
		if (G != H && c->fturn[G])
			return true;
	for (i = 0; i < c->nleaves; i++) {
		int32_t s = d->leaf[i];
		bool has = false;

		if ((uint32_t)d->group[s] == H)
			continue;
		for (p = 1; p <= f->node[s].nports && !has; p++)
			has = ot_dfp_port_class(d, s, p) == OT_DFP_PORT_UP &&
			      c->rcnt[f->node[s].port[p].peer];
		if (!has)
			return true;
	}
	return false;
}

/*
 * The damage layer's order of groups: those that some group has no
 * usable cable to (toward some leaf: ot_dfp_usable_cables()) first, by number,
 * then (in the routing through third groups, c->thru) those toward
 * which some flows turn (short_pair()), then the others.  A path through
 * an intermediate group K toward group H takes its second global hop
 * down in this order (K above H), so every group below which such a
 * pair breaks has the others above it.
 */
static int damage_order(struct dfp_ctx *c)
{
	const struct ot_dfp *d = c->d;
	uint8_t *bad = calloc((size_t)c->ng + 1, 1);
	uint32_t i, G, H, r = 0;
	uint8_t tier;

	c->drank = calloc((size_t)c->ng + 1, sizeof(*c->drank));
	if (!bad || !c->drank) {
		free(bad);
		return ot_error_nomem(c->err, "df-static");
	}
	for (i = 0; i < c->nleaves; i++) {
		H = (uint32_t)d->group[d->leaf[i]];
		if (bad[H] == 2)
			continue;
		ot_dfp_usable_cables(c, d->leaf[i]);
		for (G = 0; G < c->ng; G++)
			if (G != H && c->fstart[G + 1] == c->fstart[G])
				bad[H] = 2;
		if (!bad[H] && c->thru && short_pair(c, H))
			bad[H] = 1;
	}
	for (G = 0; G < c->ng; G++)
		c->damage |= bad[G] == 2;
	for (tier = 3; tier-- > 0;)
		for (G = 0; G < c->ng; G++)
			if (bad[G] == tier)
				c->drank[G] = r++;
	free(bad);
	return 0;
}

/* deal_port()'s switches toward the LID, up not where a detour lands. */
static bool deal_ok(const struct dfp_ctx *c, int32_t x, enum ot_dfp_port cls,
		    uint32_t H, const uint8_t *buf)
{
	return buf[dfp_sw_pos(c, x)] != OT_NO_PORT &&
	       (cls != OT_DFP_PORT_UP || !ot_dfp_detour_lands(c, x, H));
}

/*
 * The port of class cls over which switch s sends LID number k, dealt by
 * k among the candidates in (far end's group, index, port) order;
 * OT_NO_PORT where there is none.  Up or down (a switch without a port
 * toward the LID, buf OT_NO_PORT there): toward a switch of its group
 * that has one (up: not to a spine where a detour lands,
 * ot_dfp_detour_lands()).  Global (a spine of a group that sends the
 * LID through an intermediate): toward a group ot_dfp_damage_via()
 * takes toward H.
 */
static unsigned int deal_port(const struct dfp_ctx *c, int32_t s,
			      enum ot_dfp_port cls, const uint8_t *buf,
			      uint32_t H, uint32_t k)
{
	uint64_t key[OT_MAX_PORTS + 1];
	uint32_t m = ot_dfp_via_keys(c, s, cls, H, buf, deal_ok, key);

	return m ? key[k % m] & 0xff : OT_NO_PORT;
}

/*
 * A LID some switch has no port toward (buf: OT_NO_PORT there), all of
 * them outside T's group H: each group G with such a switch (vsrc[G] =
 * 1) sends the LID through intermediate groups K that may be one (vint,
 * not such a G themselves) and lie above H in the damage order: each
 * spine of G with a global cable to such a K takes one (deal_port),
 * G's leaves go up to those spines, its other spines down to a leaf of G
 * (an entry no CA's path uses) but for where a detour lands
 * (ot_dfp_detour_lands: those keep the rule), and K routes the LID by
 * the rule (its spines without a usable cable down to a leaf of the
 * rule), on path SL DFP_DAMAGE_SL.  False (the escape layer takes the
 * LID) where a switch of H has no port or some switch of G none even
 * so.
 */
static bool damage_lid(struct dfp_ctx *c, uint32_t lid, uint8_t *buf)
{
	const struct ot_dfp *d = c->d;
	uint32_t H = (uint32_t)d->group[c->tleaf[lid]], k = c->rank[lid];
	uint32_t G, i;

	if (!c->damage || c->tsw[lid] != c->tleaf[lid])
		return false;
	for (G = 0; G < c->ng; G++)
		c->vsrc[G] = 0;
	for (i = 0; i < c->nsw; i++)
		if (buf[i] == OT_NO_PORT) {
			G = (uint32_t)d->group[c->posnode[i]];
			if (G == H)
				return false;
			c->vsrc[G] = 1;
		}
	for (G = 0; G < c->ng; G++)
		for (i = d->sstart[G]; c->vsrc[G] && i < d->sstart[G + 1]; i++)
			if (!ot_dfp_detour_lands(c, d->spine[i], H))
				buf[dfp_sw_pos(c, d->spine[i])] = (uint8_t)
					deal_port(c, d->spine[i],
						  OT_DFP_PORT_GLOBAL, NULL, H, k);
	for (G = 0; G < c->ng; G++)
		for (i = d->lstart[G]; c->vsrc[G] && i < d->lstart[G + 1]; i++)
			buf[dfp_sw_pos(c, d->leaf[i])] =
				(uint8_t)deal_port(c, d->leaf[i],
						   OT_DFP_PORT_UP, buf, H, k);
	for (G = 0; G < c->ng; G++)
		for (i = d->sstart[G]; c->vsrc[G] && i < d->sstart[G + 1]; i++)
			if (buf[dfp_sw_pos(c, d->spine[i])] == OT_NO_PORT)
				buf[dfp_sw_pos(c, d->spine[i])] = (uint8_t)
					deal_port(c, d->spine[i], OT_DFP_PORT_DOWN,
						  buf, H, k);
	for (G = 0; G < c->ng; G++) /* the intermediates route it */
		for (i = d->sstart[G]; ot_dfp_damage_via(c, G, H) &&
				       i < d->sstart[G + 1]; i++)
			if (!c->rcnt[d->spine[i]])
				buf[dfp_sw_pos(c, d->spine[i])] = (uint8_t)
					ot_dfp_rule_down(c, d->spine[i], k);
	for (i = 0; i < c->nsw; i++)
		if (buf[i] == OT_NO_PORT)
			return false;
	if (c->alt) /* the spines' cables by load (route/df_plus_alt.c) */
		ot_dfp_alt_spines(c, lid, H, k, buf);
	return true;
}

/*
 * Whether every switch without a port toward lid (buf: OT_NO_PORT) is a
 * spine that no switch's column leads to and that has a leaf below it
 * with one; then, where set, each such spine goes down to one of those
 * leaves, dealt by k in (index, port) order.  A group's spine can be
 * left so by damage alone (issue 23's draw 671: a spine that lost its
 * global cable and its cable to the one leaf that goes by the rule,
 * the other leaf below it turning), and damage_lid() then sends the
 * whole group through intermediates, the leaves that have the rule's
 * path too.  Such an entry is one no CA's path takes (no column leads
 * to the spine, the LID's other columns unchanged): like a spine's
 * own LIDs it carries only management traffic from the spine, which
 * the checker (CA to CA) and the deadlock argument leave out, and it
 * ends at the LID, down to a leaf that then goes by its own column,
 * which never leads back to such a spine.
 */
static bool idle_spines(struct dfp_ctx *c, uint32_t lid, uint8_t *buf,
			bool set)
{
	const struct ot_dfp *d = c->d;
	uint32_t H = (uint32_t)d->group[c->tleaf[lid]], i;

	for (i = 0; i < c->nsw; i++) {
		int32_t s = c->posnode[i], x;
		unsigned int p = buf[i];

		if (p == OT_NO_PORT) {
			if (d->role[s] != OT_DFP_SPINE ||
			    deal_port(c, s, OT_DFP_PORT_DOWN, buf, H, 0) ==
				    OT_NO_PORT)
				return false;
			continue;
		}
		x = p <= c->f->node[s].nports ? c->f->node[s].port[p].peer : -1;
		if (x >= 0 && ot_is_switch(c->f, x) && d->group[x] >= 0 &&
		    buf[dfp_sw_pos(c, x)] == OT_NO_PORT)
			return false;
	}
	for (i = c->nleaves; set && i < c->nsw; i++)
		if (buf[i] == OT_NO_PORT)
			buf[i] = (uint8_t)deal_port(c, c->posnode[i],
						    OT_DFP_PORT_DOWN, buf, H,
						    c->rank[lid]);
	return true;
}

/* Marks leaf s's detour toward lid (path SL 1 from its CAs). */
static int mark_detour(struct dfp_ctx *c, uint32_t lid, int32_t s,
		       uint8_t sl)
{
	if (ot_dfp_set_dsl(c, lid, s, sl))
		return -1;
	c->any_detour |= sl == DFP_DETOUR_SL;
	c->any_turn |= sl == DFP_TURN_SL;
	c->any_land |= sl == DFP_LAND_SL;
	return 0;
}

/*
 * Leaf s's path SL toward a LID of the damage layer, s in a group that
 * sends it no way of its own (buf: every switch's port).  In an
 * intermediate group whose leaves detour (alt 2), ot_dfp_rule_down()
 * turns the spines without a usable cable down to a leaf of the rule,
 * the spines such a leaf's detour goes up to among them: its path is
 * then up, down, then that leaf's up, global, down, the turn of SL 3,
 * not a detour through a third group (SL 1 would promise up, global,
 * global, down and the turn broke it).
 */
static uint8_t damage_ldet(const struct dfp_ctx *c, int32_t s,
			   const uint8_t *buf)
{
	int32_t x = c->f->node[s].port[buf[dfp_sw_pos(c, s)]].peer;

	if (c->ldet[s] == DFP_DETOUR_SL && x >= 0 &&
	    c->d->role[x] == OT_DFP_SPINE &&
	    ot_dfp_port_class(c->d, x, buf[dfp_sw_pos(c, x)]) ==
		    OT_DFP_PORT_DOWN)
		return DFP_TURN_SL;
	return c->ldet[s];
}

static int cmp_pos(const void *a, const void *b, void *ctx)
{
	const struct dfp_ctx *c = ctx;
	uint16_t x = *(const uint16_t *)a, y = *(const uint16_t *)b;
	uint32_t px = dfp_sw_pos(c, c->tleaf[x]), py = dfp_sw_pos(c, c->tleaf[y]);

	if (px != py)
		return px < py ? -1 : 1;
	return (c->rank[x] > c->rank[y]) - (c->rank[x] < c->rank[y]);
}

/* One LID: every switch's port, or the escape layer's where one lacks. */
static int route_lid_at(struct dfp_ctx *c, uint32_t lid, uint32_t seq,
			uint8_t *buf)
{
	uint32_t i;
	bool none = false;

	if (c->gpick) /* the deal's cables, until ot_dfp_alt_cables() */
		memset(c->gpick, 0xff, (size_t)c->ng * sizeof(*c->gpick));
	for (i = 0; i < c->nsw; i++) {
		buf[i] = (uint8_t)ot_dfp_port_at(c, c->posnode[i], lid);
		none |= buf[i] == OT_NO_PORT;
	}
	if (none && c->tsw[lid] == c->tleaf[lid] &&
	    idle_spines(c, lid, buf, c->idle)) {
		c->any_idle = true;
		none = !c->idle;
	}
	if (none && damage_lid(c, lid, buf)) {
		c->any_damage = true;
		for (i = 0; i < c->nleaves; i++) {
			int32_t s = c->posnode[i];

			if (c->vsrc[c->d->group[s]] &&
			    ot_dfp_set_dsl(c, lid, s, DFP_DAMAGE_SL))
				return -1;
		}
		none = false;
		for (i = 0; i < c->nleaves; i++) {
			int32_t s = c->posnode[i];

			if (!c->vsrc[c->d->group[s]] && c->ldet[s] &&
			    mark_detour(c, lid, s, damage_ldet(c, s, buf)))
				return -1;
		}
		return 0;
	}
	if (none) {
		/* a spine's LID (management traffic, no CA path) keeps SL 0 */
		c->escape[lid] = c->tsw[lid] == c->tleaf[lid];
		c->any_escape |= c->escape[lid];
		if (ot_dfp_escape_hops(c, lid, seq))
			return -1;
		for (i = 0; i < c->nsw; i++)
			buf[i] = c->hop[c->posnode[i]];
		return 0;
	}
	if (c->cabload) /* cables by load (route/df_plus_alt.c) */
		ot_dfp_alt_cables(c, lid, buf);
	if (c->lsplit) /* and each leaf's spine */
		ot_dfp_alt_leaves(c, lid, buf);
	if (c->valiant && c->voff[lid] && valiant_lid(c, lid, buf))
		return -1;
	for (i = 0; i < c->nleaves; i++) {
		int32_t s = c->posnode[i];

		if (c->valiant && c->voff[lid] && c->vsrc[c->d->group[s]])
			continue; /* through an intermediate */
		if (c->ldet[s] && c->tsw[lid] == c->tleaf[lid] &&
		    mark_detour(c, lid, s, c->ldet[s]))
			return -1;
		if (ot_dfp_shares(c, s, lid, buf[i])) {
			if (ot_dfp_set_dsl(c, lid, s, DFP_DETOUR_SL))
				return -1;
			c->any_detour = true;
		}
	}
	if (c->alt) /* the detours' cables by load (route/df_plus_alt.c) */
		ot_dfp_alt_detours(c, lid, buf);
	if (c->thru && ot_dfp_alt_thru(c, lid, buf))
		return -1;
	if (c->cabload) /* a turn below a landing spine by load */
		return ot_dfp_alt_land(c, lid, buf, c->cabload > 1);
	return 0;
}

/*
 * route_lid_at(); in the seeded routing by load (c->prior) the LID's
 * flows by the kept routing leave the loads first, and its new ones
 * (those alt_land did not count: the damage and escape layers') enter
 * them after.
 */
static int route_lid(struct dfp_ctx *c, uint32_t lid, uint32_t seq,
		     uint8_t *buf)
{
	int error;

	if (c->prior)
		ot_dfp_alt_reload(c, lid, NULL);
	c->landed = false;
	error = route_lid_at(c, lid, seq, buf);
	if (!error && c->prior && !c->landed)
		ot_dfp_alt_reload(c, lid, buf);
	return error;
}

/* A leaf's CAs: its ports cabled to other than switches. */
static uint32_t *leaf_cas(const struct dfp_ctx *c)
{
	uint32_t *n = calloc((size_t)c->nleaves + 1, sizeof(*n)), i;
	unsigned int p;

	for (i = 0; n && i < c->nleaves; i++) {
		const struct ot_node *nd = &c->f->node[c->posnode[i]];

		for (p = 1; p <= nd->nports; p++)
			n[i] += nd->port[p].peer >= 0 &&
				!ot_is_switch(c->f, nd->port[p].peer);
	}
	return n;
}

/* A LID's flows through one spine: CAs sending, rank, place in the batch. */
struct dfp_flow {
	uint32_t w, rank, x;
};

static int cmp_flow(const void *a, const void *b)
{
	const struct dfp_flow *x = a, *y = b;

	if (x->w != y->w)
		return x->w > y->w ? -1 : 1;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

/*
 * Parallel cables from a spine down to T (the last hop of every path to
 * T's CAs through that spine): the rule deals T's LIDs over them by
 * number, but the LIDs that arrive at one spine are those other groups
 * deal to its global cables, numbers of one residue, so one of the
 * cables may take them all.  Instead, per spine, every leaf's path to
 * each CA LID of T is walked through the batch's entries and weighed by
 * the leaf's CAs, and the LIDs are dealt heaviest first to the cable
 * carrying least so far (ties: rank, then port).  Only the choice among
 * cables between the same two switches changes: the paths' shapes, SLs
 * and VLs, and the deadlock argument, are the rule's.
 */
static int balance_down(struct dfp_ctx *c, const uint16_t *by, uint32_t n,
			uint8_t *buf, const uint32_t *lcas)
{
	const struct ot_fabric *f = c->f;
	const struct ot_dfp *d = c->d;
	int32_t T = c->tleaf[by[0]], H = d->group[T];
	uint32_t ns = d->sstart[H + 1] - d->sstart[H], i, j, x, m;
	uint32_t *w = NULL, load[OT_MAX_PORTS + 1];
	struct dfp_flow *fl = NULL;
	uint8_t par[OT_MAX_PORTS + 1];
	bool any = false;
	unsigned int p;

	for (i = 0; i < ns && !any; i++) {
		int32_t s = d->spine[d->sstart[H] + i];

		for (p = 1, m = 0; p <= f->node[s].nports; p++)
			m += f->node[s].port[p].peer == T;
		any = m > 1;
	}
	if (!any)
		return 0;
	w = calloc((size_t)n * ns + 1, sizeof(*w));
	fl = malloc(((size_t)n + 1) * sizeof(*fl));
	if (!w || !fl) {
		free(w);
		free(fl);
		return ot_error_nomem(c->err, "df-static");
	}
	for (x = 0; x < n; x++) {
		if (c->tsw[by[x]] != T)
			continue;
		for (i = 0; i < c->nleaves; i++) {
			int32_t at = c->posnode[i], prev = -1, hops;

			if (!lcas[i] || at == T)
				continue;
			for (hops = 0; at >= 0 && at != T && hops < 8; hops++) {
				uint8_t q = buf[(size_t)x * c->nsw +
						dfp_sw_pos(c, at)];

				if (!q || q > f->node[at].nports)
					break;
				prev = at;
				at = f->node[at].port[q].peer;
				if (at >= 0 && !ot_is_switch(f, at))
					at = -1;
			}
			if (at == T && prev >= 0 &&
			    d->role[prev] == OT_DFP_SPINE && d->group[prev] == H)
				w[(size_t)x * ns + (uint32_t)d->index[prev]] +=
					lcas[i];
		}
	}
	for (i = 0; i < ns; i++) {
		int32_t s = d->spine[d->sstart[H] + i];
		uint32_t pos = dfp_sw_pos(c, s), np = 0, nf = 0;

		for (p = 1; p <= f->node[s].nports; p++)
			if (f->node[s].port[p].peer == T)
				par[np++] = (uint8_t)p;
		if (np < 2)
			continue;
		for (x = 0; x < n; x++) {
			uint8_t q = buf[(size_t)x * c->nsw + pos];

			if (c->tsw[by[x]] != T || !q ||
			    f->node[s].port[q].peer != T)
				continue;
			fl[nf++] = (struct dfp_flow){
				.w = w[(size_t)x * ns + (uint32_t)d->index[s]],
				.rank = c->rank[by[x]], .x = x };
		}
		qsort(fl, nf, sizeof(*fl), cmp_flow);
		memset(load, 0, sizeof(load));
		for (j = 0; j < nf; j++) {
			uint32_t best = 0, q;

			for (q = 1; q < np; q++)
				if (load[q] < load[best])
					best = q;
			load[best] += fl[j].w;
			buf[(size_t)fl[j].x * c->nsw + pos] = par[best];
		}
	}
	free(w);
	free(fl);
	return 0;
}

/*
 * The LIDs by[0 .. n) routed toward leaf T: each LID's ports into buf,
 * then written switch by switch (a switch's entries for T's LIDs lie
 * close together).
 */
static int route_batch(struct dfp_ctx *c, struct ot_routing *out,
		       const uint16_t *by, uint32_t n, uint8_t *buf,
		       const uint32_t *lcas)
{
	uint32_t x, i;

	for (x = 0; x < n; x++)
		if (route_lid(c, by[x], c->rank[by[x]], buf + (size_t)x * c->nsw))
			return -1;
	if (balance_down(c, by, n, buf, lcas))
		return -1;
	for (i = 0; i < c->nsw; i++) {
		uint8_t *row = out->lft[c->posnode[i]];

		for (x = 0; x < n; x++)
			row[by[x]] = buf[(size_t)x * c->nsw + i];
	}
	return 0;
}

/* Every LID, grouped by the leaf it is routed toward. */
static int fill_lfts(struct dfp_ctx *c, struct ot_routing *out)
{
	uint16_t *by = malloc(((size_t)c->norder + 1) * sizeof(*by));
	uint32_t *lcas = c->lcas = leaf_cas(c);
	uint8_t *buf = NULL, *nb;
	uint32_t i, j, cap = 0;
	int32_t T = -1;
	int error = 0;

	if (!by || !lcas) {
		free(by);
		return ot_error_nomem(c->err, "df-static");
	}
	memcpy(by, c->order, (size_t)c->norder * sizeof(*by));
	qsort_r(by, c->norder, sizeof(*by), cmp_pos, c);
	if (c->prior)
		ot_dfp_alt_preload(c);
	for (i = 0; i < c->norder && !error; i = j) {
		int32_t T0 = T;

		T = c->tleaf[by[i]];
		for (j = i; j < c->norder && c->tleaf[by[j]] == T; j++)
			;
		if (j - i > cap) {
			nb = realloc(buf, (size_t)(j - i) * c->nsw + 1);
			if (!nb) {
				error = ot_error_nomem(c->err, "df-static");
				break;
			}
			buf = nb;
			cap = j - i;
		}
		if (!ot_dfp_home_candidates(c, T, T0)) {
			ot_dfp_candidates(c, T);
			valiant_groups(c, T); /* reads no switch of T's group */
		}
		error = route_batch(c, out, by + i, j - i, buf, lcas);
	}
	free(buf);
	free(by);
	return error;
}


/* A copy of the SL data (the routing's and the promise's each own one). */
static int sls_copy(const struct dfp_ctx *c, struct dfp_sls *s)
{
	size_t n = (size_t)c->f->max_lid + 1;
	size_t nb = n * c->nleaves + 1;
	uint32_t lid;

	s->max_lid = c->f->max_lid;
	s->nleaves = c->nleaves;
	s->escape = malloc(n);
	s->srcpos = malloc(n * sizeof(*s->srcpos));
	s->dsl = c->dsl ? malloc(nb) : NULL;
	if (!s->escape || !s->srcpos || (c->dsl && !s->dsl))
		return -1;
	memcpy(s->escape, c->escape, n);
	if (c->dsl)
		memcpy(s->dsl, c->dsl, nb);
	for (lid = 0; lid < n; lid++)
		s->srcpos[lid] = c->tsw[lid] >= 0 && c->tsw[lid] == c->tleaf[lid] ?
			(int32_t)dfp_sw_pos(c, c->tsw[lid]) : -1;
	return 0;
}

static void priv_free(void *ctx)
{
	if (!ctx)
		return;
	ot_dfp_sls_free(ctx);
	free(ctx);
}

static uint8_t dfp_path_sl(const struct ot_routing *r, uint16_t slid,
			   uint16_t dlid)
{
	return (uint8_t)ot_dfp_sls_want(r->priv, slid, dlid);
}

static int set_path_sls(struct dfp_ctx *c, struct ot_routing *out)
{
	struct dfp_sls *s;

	if (!c->any_detour && !c->any_turn && !c->any_land && !c->any_escape &&
	    !c->layers && !c->any_damage)
		return 0;
	s = calloc(1, sizeof(*s));
	if (!s || sls_copy(c, s)) {
		priv_free(s);
		return ot_error_nomem(c->err, "df-static");
	}
	out->priv = s;
	out->free_priv = priv_free;
	out->path_sl = dfp_path_sl;
	out->path_sl_by_switch = true;
	return 0;
}


static int set_promise(struct dfp_ctx *c, struct ot_routing *out,
		       struct ot_dfp *d)
{
	struct dfp_promise *pr = calloc(1, sizeof(*pr));
	struct ot_promise *p = &out->promise;

	if (!pr || sls_copy(c, &pr->sls)) {
		if (pr)
			ot_dfp_sls_free(&pr->sls);
		free(pr);
		ot_dfp_free(d);
		return ot_error_nomem(c->err, "df-static");
	}
	pr->d = d;
	pr->vr = ot_dfp_ctx_vlrule(c, true);
	if (c->drank) {
		pr->drank = malloc(((size_t)c->ng + 1) * sizeof(*pr->drank));
		if (!pr->drank) {
			ot_dfp_promise_free(pr);
			return ot_error_nomem(c->err, "df-static");
		}
		memcpy(pr->drank, c->drank, (size_t)c->ng * sizeof(*pr->drank));
	}
	p->text = c->layers ?
		"Dragonfly+ up-global-down at LMC offset 0, up-global-(down-up-)global-down above (Valiant through an intermediate group, on SL 5, 6 or 7)" :
		c->any_damage ?
		"Dragonfly+ up-global-down; where a group lost its cables to another (or its flows would turn toward a group whose cables are short), through an intermediate group on SL 8 (damage layer)" :
		c->any_escape ?
		"Dragonfly+ up-global-down (damaged: detours through a third group on SL 1, some destinations on the escape layer)" :
		c->any_detour || c->any_turn || c->any_land ?
		"Dragonfly+ up-global-down, where damage took the cables up-global-global-down on SL 1, up-down-up-global-down on SL 3 or up-global-down-up-down on SL 4" :
		"Dragonfly+ up-global-down: at most one global hop, 4 switches, 1 VL";
	p->minimal = OT_MINIMAL_NONE;
	p->max_switch_hops = c->any_escape ? 0 :
			     c->layers || c->any_damage ? 6 :
			     c->any_turn || c->any_land ? 5 :
			     c->any_detour ? 4 : 3;
	p->sls = 1u | (c->any_detour ? 1u << DFP_DETOUR_SL : 0) |
		 (c->any_turn ? 1u << DFP_TURN_SL : 0) |
		 (c->any_land ? 1u << DFP_LAND_SL : 0) |
		 (c->any_escape ? 1u << DFP_ESCAPE_SL : 0) |
		 ((uint32_t)c->layers << DFP_VALIANT_SL0) |
		 (c->any_damage ? 1u << DFP_DAMAGE_SL : 0);
	p->rule = ot_dfp_rule;
	p->rule_text =
		"SL 0: up (leaf to spine), global, down, each at most once in that order, VL 0; SL 1 (detour): up, two global hops, down, VL 1 after a global cable or a spine; SL 3 (turn): up, down, then as SL 0, VL 0 up to the turn, VL 1 from it; SL 4 (landing turn): up, global, down, up, down, VL 1 from the turn; escape: SL 2, any shape, on VL 1 with the detours (a credit loop-free search) or on its own VL; SL 4 + l (Valiant layer l): up, global up in the layer's order, (down, up,) global down, down, on the layer's VL after a global cable or a spine and onto the global hop down, VL 0 else; SL 8 (damage layer): up, global, (down, up,) global down in the damage order, down, on its VL (VL 1 where it shares that with the detours) as a Valiant layer's";
	p->source_free = true;
	p->ctx = pr;
	p->free_ctx = ot_dfp_promise_free;
	return 0;
}

static int set_labels(const struct dfp_ctx *c, struct ot_routing *out)
{
	const struct ot_fabric *f = c->f;
	const struct ot_dfp *d = c->d;
	uint32_t n;
	int rc = 0;

	for (n = 0; n < f->nnodes && !rc; n++) {
		int32_t sw = ot_home_switch(f, n);

		if (d->group[n] < 0 || sw < 0)
			continue;
		rc = ot_routing_set_label(out, n, "%s [%d,%d]",
					  sw != (int32_t)n ? "CA" :
					  d->role[n] == OT_DFP_LEAF ? "leaf" :
								      "spine",
					  d->group[sw], d->index[sw]);
	}
	return rc ? ot_error_nomem(c->err, "df-static") : 0;
}

static void ctx_free(struct dfp_ctx *c)
{
	free(c->tsw);
	free(c->tport);
	free(c->tleaf);
	free(c->rank);
	free(c->escape);
	free(c->order);
	free(c->gstart);
	free(c->gcab);
	free(c->cabled);
	free(c->fstart);
	free(c->fturn);
	free(c->gturn);
	free(c->flist);
	free(c->fdeal);
	free(c->rbeg);
	free(c->rcnt);
	free(c->pbeg);
	free(c->pcnt);
	free(c->fbeg);
	free(c->fcnt);
	free(c->frule);
	free(c->plist);
	free(c->ldet);
	free(c->hop);
	free(c->dsl);
	free(c->voff);
	free(c->gvia);
	free(c->vint);
	free(c->vland);
	free(c->vsrc);
	free(c->vlist);
	free(c->stamp);
	free(c->drank);
	if (c->esc_ready)
		ot_escape_free(&c->esc);
	free(c->present);
	free(c->estart);
	free(c->eadj);
	free(c->posnode);
	free(c->lcas);
	free(c->dlbase);
	free(c->dload);
	free(c->gpick);
	free(c->ctouch);
	free(c->ctw);
	free(c->clog);
	free(c->clogw);
	free(c->lthru);
	free(c->tbuf);
}

/* The tables into out (c: f, d, err and alt set). */
static int route_tables(struct dfp_ctx *c, struct ot_routing *out)
{
	int error;

	c->ng = c->d->ngroups;
	c->nleaves = c->d->lstart[c->d->ngroups];
	c->nsw = c->nleaves + c->d->sstart[c->d->ngroups];
	error = prepare_dests(c);
	if (!error)
		error = prepare_cables(c);
	if (!error)
		error = prepare_scratch(c);
	if (!error)
		error = damage_order(c);
	if (!error)
		error = prepare_valiant(c);
	if (!error && (c->alt || c->cabload))
		error = ot_dfp_alt_prepare(c);
	if (!error)
		error = fill_lfts(c, out);
	if (!error)
		error = ot_dfp_settle_vl1(c, out);
	return error;
}


int ot_dfp_route(const struct ot_fabric *f, struct ot_dfp *d,
		 struct ot_routing *out, struct ot_error *err)
{
	struct dfp_ctx c = { .f = f, .d = d, .err = err };
	const struct dfp_calls k = { route_tables, ctx_free };
	double t = ot_now_ms();
	int error;

	error = route_tables(&c, out);
	if (!error && !c.valiant &&
	    (c.damage || c.any_detour || ot_dfp_uneven(&c)))
		error = ot_dfp_route_alt(&c, out, &k);
	if (!error)
		ot_routing_phase(out, "route", t);
	if (!error)
		error = set_labels(&c, out);
	if (!error)
		error = ot_dfp_set_vls(&c, out);
	if (!error) {
		error = set_promise(&c, out, d);
		d = NULL; /* the promise owns it now (or freed it) */
	}
	if (!error)
		error = set_path_sls(&c, out);
	ctx_free(&c);
	ot_dfp_free(d);
	return error;
}
