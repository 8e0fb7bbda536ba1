// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * df-static: the static Dragonfly routing of seed 001 ("Early evaluation
 * of direct large-scale InfiniBand networks with adaptive routing"),
 * section 3.5, after the Dragonfly recognizer (src/topo/dragonfly.h) in
 * the flow (fabric -> recognizer -> coordinates -> engine -> tables ->
 * checker).  A packet takes a local hop to a switch of its group that
 * holds a global cable to the destination's group, that global hop, and a
 * local hop to the destination's switch: at most one global hop and three
 * switch-to-switch hops.  It is not minimal (some shortest paths take two
 * global hops).
 *
 * Spreading: the destination LIDs are dealt (route/deal.h) in the order
 * (LMC offset, group, switch in group, CA rank); where a switch has
 * several global cables to the destination's group, or several local
 * neighbours that do (gateways), it hands them out round-robin in the
 * order (far end's group, its switch in group, port), so each carries
 * the same number of destinations within one.
 *
 * Deadlock freedom on 2 VLs with one SL, by SL2VL keyed on the input
 * and output ports' classes: a hop that enters a switch on a global cable
 * leaves on VL 1, every other on VL 0.  So VL 0 carries CA -> switch, the
 * first local hop, the global hop and the last hop of a path within a
 * group; VL 1 the local hop after the global one and the hop to the CA.
 * On VL 0 a local hop is followed only by a global hop or a CA, a global
 * hop leaves VL 0; on VL 1 a local hop is followed by a CA: no cycle in
 * the channel dependencies (Dally and Seitz), so no credit loop.
 *
 * Groups as 2-D FlatFlies: a local move takes up to two hops, dimension
 * order inside the group, dim 0 then dim 1 toward the gateway in the
 * source group, dim 1 then dim 0 in the destination group (and within a
 * group: the LFT cannot tell a packet from its own group from one that
 * came over a global cable).  A local -> local hop in the source group
 * then goes dim 0 -> dim 1 and one in the destination group dim 1 ->
 * dim 0, which SL2VL tells apart by the output port: VL 1 after a global
 * cable and on a dim 1 -> dim 0 hop, VL 0 else.  VL 0 channels are then
 * ordered CA -> switch < dim 0 < dim 1 < global, VL 1 channels global <
 * dim 1 < dim 0, every other hop from one VL to the other goes from 0
 * to 1, and a hop to a CA ends the path (no dependency leaves it):
 * still acyclic on 2 VLs and one SL.
 *
 * Valiant (LMC offsets above 0; offset 0 keeps the route above), groups
 * as full graphs: local-global-local-global-local through an
 * intermediate group I.  An LFT entry serves every packet toward a LID,
 * so a group that is some path's intermediate for a LID must route that
 * LID directly: for the seq-th LID of group H at offset k, the groups X
 * with X = seq + k mod E do (E = ngroups / 8 within 4 to 16: the more
 * groups, the fewer routes direct), and every other group G
 * takes one of them as I (dealt by seq and G) that lies above both G and
 * H in the order of groups of some layer l (ot_valiant_rank: 1 by number, 2 by
 * number reversed, 3 rotated by half the groups, so every pair has
 * some), whose every switch reaches H over I's own cables, and G's every
 * switch I over G's; none: offset 0's route.  Destinations in a group
 * that some group reaches only through a detour take no Valiant layer
 * (the detour's landing switch must route them directly).  The
 * path SL is l (path_sl by source group and LID).  Both global hops of
 * such a path enter from a local port or a CA, so SL2VL cannot tell them
 * apart by ports alone; by the layer's order it can: the first goes up,
 * the second down.  On SL l a hop after a global cable or onto a global
 * cable going down takes VL l, every other VL 0.  VL 0 then carries the
 * source group's local hop and the first global hop (local < global, as
 * on SL 0); on VL l (l = 2, 3: this layer alone; l = 1: shared with SL
 * 0's VL 1) a global hop entered from a VL l local hop goes down in the
 * layer's order (SL 0 enters VL 1's global hops from VL 0 only), and
 * every other hop there leads to a local hop or a CA: a cycle would pass
 * global hops that all go down, so there is none.  4 VLs (0 to 3) and 4
 * SLs, 5 and 5 with the escape layer (SL 4, VL 4).  Groups as FlatFlies
 * (the local hops of an intermediate group would look like a source
 * group's): the restricted layer instead, local-global-global-local on
 * SL 0: toward group H a switch with a cable to H takes it (a landing
 * switch must), one with a cable to a switch of another group that has
 * a cable to H takes that (dealt round-robin), the others move locally
 * toward the latter (or where the group has none, the former): the
 * detour's shape below, on the same 2 VLs; a group where some switch has
 * no such candidate routes H at every offset as at offset 0.
 *
 * Damage: a destination the rule above cannot reach from every switch (a
 * missing local cable to its switch, a group with no global cable to its
 * group) goes, all its LIDs, to the shared escape layer (route/escape.h):
 * up*-down* on its own SL 1 mapped to VL 2 on every hop, so 3 VLs and 2
 * SLs then (beside the Valiant layers SL 4 on VL 4: 5 VLs and 5 SLs).  A
 * fabric cut in two is refused with OT_ERR_DAMAGE.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/routing.h"
#include "model/sort.h"
#include "route/deal.h"
#include "route/df_plus.h"
#include "route/engines.h"
#include "route/escape.h"
#include "route/valiant.h"
#include "topo/dragonfly.h"

#define DF_ESCAPE_SL 1
#define DF_ESCAPE_VL 2
/*
 * The Valiant layers of full-graph groups (see the top): SL l = 1..3 on
 * VLs 0 and l, the intermediate group above both ends in the layer's
 * order of groups (ot_valiant_rank): 1 by number, 2 by number reversed, 3 by
 * number rotated by half the groups.
 */
#define DF_LAYERS OT_VALIANT_LAYERS
#define DF_UPDOWN_ESCAPE 4 /* the escape layer's SL and VL beside them */
/* via[] beyond this many entries: the restricted layer instead */
#define DF_MAX_VIA (1u << 25)
/* Which switches take the global hop on the restricted Valiant layer
 * (takes_global) */
#define DF_VALIANT_GATEWAY 1 /* a cable to one with a cable to H, none to H */
#define DF_VALIANT_ANY 2     /* either */

struct df_ctx {
	const struct ot_fabric *f;
	const struct ot_df *df;
	struct ot_error *err;
	uint32_t nlanes;   /* per switch: groups + largest group */
	uint16_t *order;   /* routable LIDs in dealing order */
	uint32_t norder;
	int32_t *tsw;      /* per LID: the switch it sits on, -1 none */
	uint8_t *tport;    /* per LID: that switch's port to it, 0 itself */
	uint8_t *escape;   /* per LID: 1 on the escape layer */
	uint8_t *voff;     /* per LID: 1 at an LMC offset above 0 */
	bool valiant;      /* some LID has an offset above 0 */
	uint32_t vbase;    /* Valiant bundles: vbase + group */
	/*
	 * The up/down Valiant layer (full-graph groups): per LID and source
	 * group, the intermediate group + 1 (0: routed as at offset 0) and
	 * the path SL.
	 */
	bool updown;
	uint32_t every;     /* one group in every routes a LID directly */
	uint16_t *via;      /* [lid * ngroups + G] */
	uint8_t *vsl;       /* [lid * ngroups + G] */
	uint8_t sls_used;   /* bit per SL of the up/down layer taken */
	uint8_t esc_sl, esc_vl;
	bool any_escape;
	uint16_t *nglob;   /* [node * ngroups + H]: global cables to H */
	/* [node * ngroups + H]: global cables to switches with one to H */
	uint16_t *ndet;
	uint8_t *gglob;    /* [G * ngroups + H]: group G has a cable to H */
	/* [G * ngroups + H]: some switch of G has a DF_VALIANT_GATEWAY */
	uint8_t *vgw;
	/* [G * ngroups + H]: every switch of G has Valiant candidates */
	uint8_t *vok;
	bool any_detour;   /* some group reaches another through a third */
	uint8_t *lane;     /* [node * nlanes + bundle] */
	uint8_t *hop;      /* per node: port toward the current LID */
	/*
	 * The rule's candidates of switch s for bundle b (a group, or
	 * ngroups + a member of its own group, or vbase + a group on the
	 * restricted Valiant layer), sorted by (far end's group, its switch
	 * in group, port): cport[cstart[s * nlanes + b] ...].
	 */
	uint32_t *cstart;
	uint8_t *cport;
	/* [s * nlanes + b]: the candidates are the own-detour fallback */
	uint8_t *cfall;
	/* [G * ngroups + X]: every switch of G has the rule's candidates
	 * toward X over G's own cables to X (the up/down layers' hops) */
	uint8_t *gok;
	/* per group H: some switch reaches H by the own-detour fallback */
	uint8_t *hfall;
	/* the escape layer, built when a first destination needs it */
	struct ot_escape esc;
	uint8_t *present;
	uint32_t *estart, *eadj;
	bool esc_ready;
};

/* The dealing key of a LID's owner: offset, group, switch, CA rank. */
static uint64_t lid_key(const struct df_ctx *c, uint32_t lid, int32_t sw)
{
	const struct ot_lid_owner *o = &c->f->lid_owner[lid];
	const struct ot_port *pt = &c->f->node[o->node].port[o->port];
	uint64_t key = ((uint64_t)c->df->group[sw] << 24) +
		       ((uint64_t)c->df->index[sw] << 12);

	if (o->node == sw)
		return key + (1ull << 52) + 0xfff;
	key += ot_fabric_end_port_rank(c->f, sw, o->node, o->port) & 0xfff;
	return key + ((uint64_t)(lid - pt->lid) << 56);
}

static int prepare_dests(struct df_ctx *c)
{
	const struct ot_fabric *f = c->f;
	size_t n = (size_t)f->max_lid + 1;
	struct ot_deal_key *keys = malloc(n * sizeof(*keys));
	uint32_t lid, i;

	c->order = malloc(n * sizeof(*c->order));
	c->tsw = malloc(n * sizeof(*c->tsw));
	c->tport = calloc(n, 1);
	c->escape = calloc(n, 1);
	c->voff = calloc(n, 1);
	if (!keys || !c->order || !c->tsw || !c->tport || !c->escape ||
	    !c->voff) {
		free(keys);
		return ot_error_nomem(c->err, "df-static");
	}
	c->norder = 0;
	for (lid = 0; lid < n; lid++) {
		const struct ot_lid_owner *o = &f->lid_owner[lid];
		int32_t sw = -1;

		c->tsw[lid] = -1;
		if (lid && o->node >= 0 && ot_is_switch(f, o->node))
			sw = o->node;
		else if (lid && o->node >= 0) {
			const struct ot_port *pt =
				&f->node[o->node].port[o->port];

			if (pt->peer >= 0 && ot_is_switch(f, pt->peer)) {
				sw = pt->peer;
				c->tport[lid] = pt->peer_port;
			}
		}
		if (sw < 0 || c->df->group[sw] < 0)
			continue;
		c->tsw[lid] = sw;
		c->voff[lid] = lid > f->node[o->node].port[o->port].lid;
		c->valiant |= c->voff[lid];
		keys[c->norder].key = lid_key(c, lid, sw);
		keys[c->norder++].lid = lid;
	}
	ot_deal_sort(keys, c->norder);
	for (i = 0; i < c->norder; i++)
		c->order[i] = keys[i].lid;
	free(keys);
	return 0;
}

static bool takes_global(const struct df_ctx *c, int32_t s, uint32_t H,
			 unsigned int mode);

/* Per switch and group: global cables there, and detour cables. */
static void count_globals(struct df_ctx *c)
{
	const struct ot_fabric *f = c->f;
	const struct ot_df *df = c->df;
	uint32_t n, H, ng = df->ngroups;
	unsigned int p;

	for (n = 0; n < f->nnodes; n++)
		for (p = 1; p <= f->node[n].nports; p++)
			if (ot_df_port_class(df, n, p) == OT_DF_PORT_GLOBAL)
				c->nglob[(size_t)n * ng +
					 df->group[f->node[n].port[p].peer]]++;
	for (n = 0; n < f->nnodes; n++) {
		if (df->group[n] < 0 || !ot_is_switch(f, n))
			continue;
		for (H = 0; H < ng; H++)
			if (c->nglob[(size_t)n * ng + H])
				c->gglob[(size_t)df->group[n] * ng + H] = 1;
		for (p = 1; p <= f->node[n].nports; p++) {
			int32_t x = f->node[n].port[p].peer;

			if (ot_df_port_class(df, n, p) != OT_DF_PORT_GLOBAL)
				continue;
			for (H = 0; H < ng; H++)
				if (c->nglob[(size_t)x * ng + H])
					c->ndet[(size_t)n * ng + H]++;
		}
	}
	for (n = 0; n < f->nnodes; n++)
		for (H = 0; df->group[n] >= 0 && ot_is_switch(f, n) && H < ng;
		     H++)
			if (takes_global(c, n, H, DF_VALIANT_GATEWAY))
				c->vgw[(size_t)df->group[n] * ng + H] = 1;
}

static int prepare_ports(struct df_ctx *c)
{
	const struct ot_fabric *f = c->f;
	const struct ot_df *df = c->df;
	uint32_t ng = df->ngroups;

	c->vbase = ng + df->max_size;
	c->nlanes = c->vbase + (c->valiant && !c->updown ? ng : 0);
	c->nglob = calloc((size_t)f->nnodes * ng + 1, sizeof(*c->nglob));
	c->ndet = calloc((size_t)f->nnodes * ng + 1, sizeof(*c->ndet));
	c->gglob = calloc((size_t)ng * ng + 1, 1);
	c->vgw = calloc((size_t)ng * ng + 1, 1);
	c->vok = calloc((size_t)ng * ng + 1, 1);
	c->lane = calloc((size_t)f->nnodes * c->nlanes + 1, 1);
	c->hop = calloc((size_t)f->nnodes + 1, 1);
	if (!c->nglob || !c->ndet || !c->gglob || !c->lane || !c->hop ||
	    !c->vgw || !c->vok)
		return ot_error_nomem(c->err, "df-static");
	count_globals(c);
	return 0;
}

/*
 * Whether switch s takes the next global hop itself toward group H: at
 * offset 0 when it has a cable to H (its group has one), or where its
 * group has none, a cable to a switch that has one; on the Valiant layer
 * either (dragonfly valiant: local-global-global-local).
 */
static bool takes_global(const struct df_ctx *c, int32_t s, uint32_t H,
			 unsigned int mode)
{
	uint32_t ng = c->df->ngroups;
	size_t at = (size_t)s * ng + H;

	if (mode == DF_VALIANT_GATEWAY)
		return c->ndet[at] && !c->nglob[at];
	if (mode == DF_VALIANT_ANY)
		return c->nglob[at] || c->ndet[at];
	if (c->gglob[(size_t)c->df->group[s] * ng + H])
		return c->nglob[at];
	return c->ndet[at];
}

/* The far end of port p of s and whether it is a local cable of dim d. */
static bool local_dim(const struct df_ctx *c, int32_t s, unsigned int p,
		      unsigned int d)
{
	return ot_df_port_class(c->df, s, p) == OT_DF_PORT_LOCAL &&
	       ot_df_port_dim(c->df, s, p) == d;
}

/* Whether switch x has a dim-1 cable to a switch that takes the hop. */
static bool column_takes(const struct df_ctx *c, int32_t x, uint32_t H,
			 unsigned int valiant)
{
	const struct ot_node *nd = &c->f->node[x];
	unsigned int q;

	for (q = 1; q <= nd->nports; q++)
		if (local_dim(c, x, q, 1) &&
		    takes_global(c, nd->port[q].peer, H, valiant))
			return true;
	return false;
}

/*
 * Candidates of a switch s that takes the global hop toward H itself:
 * its cables to H, else its cables to switches with one to H.
 */
static bool global_candidate(const struct df_ctx *c, int32_t s,
			     unsigned int p, uint32_t H)
{
	uint32_t ng = c->df->ngroups;
	int32_t x = c->f->node[s].port[p].peer;

	if (ot_df_port_class(c->df, s, p) != OT_DF_PORT_GLOBAL)
		return false;
	if (c->nglob[(size_t)s * ng + H])
		return c->df->group[x] == (int32_t)H;
	return c->nglob[(size_t)x * ng + H] > 0;
}

/*
 * Local candidates toward the switches that take the global hop, in
 * steps tried in turn: 0, a local cable to one (full-graph groups); in
 * FlatFly groups 0, a dim-1 cable to one, 1, a dim-0 cable to one, 2, a
 * dim-0 cable to a switch with a dim-1 cable to one (dim 0 before dim 1).
 */
static bool local_candidate(const struct df_ctx *c, int32_t s,
			    unsigned int p, uint32_t H, unsigned int valiant,
			    unsigned int step)
{
	int32_t x = c->f->node[s].port[p].peer;

	if (c->df->gdims[c->df->group[s]] == 1)
		return step == 0 && local_dim(c, s, p, 0) &&
		       takes_global(c, x, H, valiant);
	if (step == 0)
		return local_dim(c, s, p, 1) && takes_global(c, x, H, valiant);
	if (step == 1)
		return local_dim(c, s, p, 0) && takes_global(c, x, H, valiant);
	return local_dim(c, s, p, 0) && column_takes(c, x, H, valiant);
}

/*
 * Within the group toward switch t: full graphs, the cable to t; FlatFly
 * groups dim 1 first (to the switch of t's y), then dim 0 (to t).
 */
static bool group_candidate(const struct df_ctx *c, int32_t s,
			    unsigned int p, int32_t t)
{
	const int32_t *xy = c->df->coord;
	int32_t x = c->f->node[s].port[p].peer;

	if (ot_df_port_class(c->df, s, p) != OT_DF_PORT_LOCAL)
		return false;
	if (c->df->gdims[c->df->group[s]] == 1 || xy[2 * s + 1] == xy[2 * t + 1])
		return x == t;
	return local_dim(c, s, p, 1) && xy[2 * x + 1] == xy[2 * t + 1];
}

/* A candidate's sorting key: far end's group, switch in group, port. */
static uint64_t cand_key(const struct df_ctx *c, int32_t s, unsigned int p)
{
	int32_t x = c->f->node[s].port[p].peer;

	return ((uint64_t)c->df->group[x] << 40) |
	       ((uint64_t)c->df->index[x] << 8) | p;
}

/* Candidates toward group H (offset 0 or Valiant) into key[]; how many. */
static uint32_t toward_group(struct df_ctx *c, int32_t n, uint32_t H,
			     unsigned int valiant, uint64_t *key)
{
	const struct ot_node *nd = &c->f->node[n];
	uint32_t m = 0;
	unsigned int p, step;

	if ((int32_t)H == c->df->group[n])
		return 0;
	if (takes_global(c, n, H, valiant ? DF_VALIANT_ANY : 0)) {
		for (p = 1; p <= nd->nports; p++)
			if (global_candidate(c, n, p, H))
				key[m++] = cand_key(c, n, p);
		return m;
	}
	/* Valiant: toward switches without a cable to H, where there are */
	if (valiant)
		valiant = c->vgw[(size_t)c->df->group[n] * c->df->ngroups + H] ?
				  DF_VALIANT_GATEWAY : DF_VALIANT_ANY;
	for (step = 0; step < 3 && !m; step++)
		for (p = 1; p <= nd->nports; p++)
			if (local_candidate(c, n, p, H, valiant, step))
				key[m++] = cand_key(c, n, p);
	return m;
}

/*
 * A switch's candidates for bundle b into key[] (unsorted): the rule's;
 * failing those at offset 0, toward another group, its own global cables
 * to switches with a cable to b (a detour that serves only its own CAs:
 * no other switch sends packets for b through it).  How many.
 */
static uint32_t bundle_candidates(struct df_ctx *c, uint32_t n, uint32_t b,
				  uint64_t *key)
{
	const struct ot_node *nd = &c->f->node[n];
	const struct ot_df *df = c->df;
	uint32_t m = 0, ng = df->ngroups;
	unsigned int p;

	if (b >= c->vbase)
		return toward_group(c, n, b - c->vbase, true, key);
	if (b >= ng) {
		uint32_t at = df->gstart[df->group[n]] + b - ng;
		int32_t t = at < df->gstart[df->group[n] + 1] ? df->member[at] :
								-1;

		for (p = 1; p <= nd->nports && t >= 0; p++)
			if (group_candidate(c, n, p, t))
				key[m++] = cand_key(c, n, p);
		return m;
	}
	m = toward_group(c, n, b, false, key);
	if (m || (int32_t)b == df->group[n])
		return m;
	for (p = 1; p <= nd->nports; p++)
		if (ot_df_port_class(df, n, p) == OT_DF_PORT_GLOBAL &&
		    c->nglob[(size_t)nd->port[p].peer * ng + b])
			key[m++] = cand_key(c, n, p);
	c->any_detour |= m > 0;
	c->cfall[(size_t)n * c->nlanes + b] = m > 0;
	return m;
}

static uint32_t ncand(const struct df_ctx *c, int32_t s, uint32_t b)
{
	size_t at = (size_t)s * c->nlanes + b;

	return c->cstart[at + 1] - c->cstart[at];
}

/* Which groups take the Valiant layer toward which (vok). */
static void valiant_groups(struct df_ctx *c)
{
	const struct ot_fabric *f = c->f;
	uint32_t ng = c->df->ngroups, n, H;

	if (!c->valiant || c->updown)
		return;
	for (H = 0; H < ng; H++)
		memset(c->vok + (size_t)H * ng, 1, ng);
	for (n = 0; n < f->nnodes; n++)
		for (H = 0; c->df->group[n] >= 0 && ot_is_switch(f, n) &&
			    H < ng; H++)
			if (!ncand(c, n, c->vbase + H) &&
			    H != (uint32_t)c->df->group[n])
				c->vok[(size_t)c->df->group[n] * ng + H] = 0;
}

static int prepare_candidates(struct df_ctx *c)
{
	const struct ot_fabric *f = c->f;
	size_t nb = (size_t)f->nnodes * c->nlanes, k = 0, cap = 0;
	uint32_t n, b, m, i;
	uint64_t key[OT_MAX_PORTS + 1];

	for (n = 0; n < f->nnodes; n++)
		if (c->df->group[n] >= 0 && ot_is_switch(f, n))
			cap += (size_t)f->node[n].nports * 2;
	c->cstart = calloc(nb + 1, sizeof(*c->cstart));
	c->cport = malloc(cap * c->nlanes / 2 + 1);
	c->cfall = calloc(nb + 1, 1);
	if (!c->cstart || !c->cport || !c->cfall)
		return ot_error_nomem(c->err, "df-static");
	for (n = 0; n < f->nnodes; n++) {
		bool sw = c->df->group[n] >= 0 && ot_is_switch(f, n);

		for (b = 0; b < c->nlanes; b++) {
			c->cstart[(size_t)n * c->nlanes + b] = k;
			m = sw ? bundle_candidates(c, n, b, key) : 0;
			qsort(key, m, sizeof(*key), ot_cmp_u64);
			for (i = 0; i < m; i++)
				c->cport[k++] = key[i] & 0xff;
		}
	}
	c->cstart[nb] = k;
	valiant_groups(c);
	return 0;
}

/*
 * The bundle switch s (not t) deals LID lid (on switch t) from: within
 * t's group the member's; at offset 0 t's group's; above, its Valiant
 * bundle, or where some switch of its group has no candidate there (the
 * whole group, so that no packet changes layers), the offset-0 one.
 */
static uint32_t bundle_of(const struct df_ctx *c, int32_t s, uint32_t lid)
{
	const struct ot_df *df = c->df;
	int32_t t = c->tsw[lid];
	uint32_t H = (uint32_t)df->group[t];

	if (df->group[s] == df->group[t])
		return df->ngroups + df->index[t];
	if (c->updown && c->voff[lid]) {
		uint16_t v = c->via[(size_t)lid * df->ngroups + df->group[s]];

		return v ? v - 1u : H;
	}
	if (c->voff[lid] && c->vok[(size_t)df->group[s] * df->ngroups + H])
		return c->vbase + H;
	return H;
}

/*
 * The rule's port at switch s toward LID lid (on switch t), dealt over
 * the candidates in (far end's group, switch in group, port) order; 0
 * for the switch itself, OT_NO_PORT when there is none.
 */
static unsigned int rule_port(struct df_ctx *c, int32_t s, uint32_t lid)
{
	int32_t t = c->tsw[lid];
	size_t at;
	unsigned int k;

	if (s == t)
		return c->tport[lid];
	at = (size_t)s * c->nlanes + bundle_of(c, s, lid);
	k = c->cstart[at + 1] - c->cstart[at];
	if (!k)
		return OT_NO_PORT;
	return c->cport[c->cstart[at] + ot_deal_next(&c->lane[at], k)];
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/*
 * The escape layer's positions are the switches in (group, switch in
 * group) order, so that its up*-down* root and ties do not depend on node
 * order.
 */
static uint32_t esc_pos(const struct df_ctx *c, int32_t n)
{
	return c->df->gstart[c->df->group[n]] + (uint32_t)c->df->index[n];
}

/* Switch neighbours of switch s as positions, in position order. */
static uint32_t escape_neighbours(const struct df_ctx *c, int32_t s,
				  uint32_t *out)
{
	const struct ot_node *nd = &c->f->node[s];
	uint32_t key[OT_MAX_PORTS + 1], k = 0, w = 0, i;
	unsigned int p;

	for (p = 1; p <= nd->nports; p++) {
		int32_t x = nd->port[p].peer;

		if (x >= 0 && x != s && ot_is_switch(c->f, x) &&
		    c->df->group[x] >= 0)
			key[k++] = esc_pos(c, x);
	}
	qsort(key, k, sizeof(*key), cmp_u32);
	for (i = 0; i < k; i++)
		if (!i || key[i] != key[i - 1])
			out[w++] = key[i];
	return w;
}

static int escape_prepare(struct df_ctx *c)
{
	const struct ot_df *df = c->df;
	uint32_t n = df->gstart[df->ngroups], s, k = 0;
	uint64_t *tiebreak;
	int error;

	if (c->esc_ready)
		return 0;
	c->present = malloc((size_t)n + 1);
	c->estart = malloc(((size_t)n + 1) * sizeof(*c->estart));
	c->eadj = malloc(((size_t)n * OT_MAX_PORTS + 1) * sizeof(*c->eadj));
	tiebreak = malloc(((size_t)n + 1) * sizeof(*tiebreak));
	if (!c->present || !c->estart || !c->eadj || !tiebreak) {
		free(tiebreak);
		return ot_error_nomem(c->err, "df-static");
	}
	for (s = 0; s < n; s++) {
		c->estart[s] = k;
		c->present[s] = 1;
		tiebreak[s] = s;
		k += escape_neighbours(c, df->member[s], c->eadj + k);
	}
	c->estart[n] = k;
	error = ot_escape_init(&c->esc, n, c->present, c->estart, c->eadj,
			       tiebreak, c->err);
	free(tiebreak);
	c->esc_ready = !error;
	return error;
}

/* The escape layer's port at every switch toward lid (number seq). */
static int escape_hops(struct df_ctx *c, uint32_t lid, uint32_t seq)
{
	if (escape_prepare(c))
		return -1;
	return ot_escape_ports(&c->esc, c->f, c->df->member,
			       esc_pos(c, c->tsw[lid]), seq, c->tport[lid],
			       c->hop, "df-static", c->err);
}

/* Whether every switch has a candidate toward LID lid. */
static bool rule_reaches(const struct df_ctx *c, uint32_t lid)
{
	const struct ot_df *df = c->df;
	uint32_t k;

	for (k = 0; k < df->gstart[df->ngroups]; k++) {
		int32_t s = df->member[k];

		if (s != c->tsw[lid] && !ncand(c, s, bundle_of(c, s, lid)))
			return false;
	}
	return true;
}

/* Whether some group reaches switch t's group only through a third. */
static bool detoured(const struct df_ctx *c, int32_t t)
{
	uint32_t G, ng = c->df->ngroups;

	for (G = 0; G < ng; G++)
		if (G != (uint32_t)c->df->group[t] &&
		    !c->gglob[(size_t)G * ng + c->df->group[t]])
			return true;
	return false;
}

/* gok (struct df_ctx), from the candidates. */
static int groups_ok(struct df_ctx *c)
{
	const struct ot_df *df = c->df;
	uint32_t ng = df->ngroups, k, X;

	c->gok = malloc((size_t)ng * ng + 1);
	c->hfall = calloc((size_t)ng + 1, 1);
	if (!c->gok || !c->hfall)
		return -1;
	memcpy(c->gok, c->gglob, (size_t)ng * ng);
	for (k = 0; k < df->gstart[ng]; k++) {
		int32_t s = df->member[k];
		uint8_t *row = c->gok + (size_t)df->group[s] * ng;

		for (X = 0; X < ng; X++) {
			bool fall = c->cfall[(size_t)s * c->nlanes + X];

			c->hfall[X] |= fall;
			if ((int32_t)X != df->group[s] &&
			    (!ncand(c, s, X) || fall))
				row[X] = 0;
		}
	}
	return 0;
}

/*
 * The up/down layers' candidates for every source group G toward group
 * H, per r: the groups I = r mod c->every (those route a LID
 * directly) that lie above both G and H in some layer's order, whose
 * every switch reaches H over I's own cables (gok), and G's every switch
 * I over G's, into list; start[r * ng + G] .. +1 (none where G itself is
 * among the direct ones).
 */
static void via_lists(const struct df_ctx *c, uint32_t H, uint32_t *start,
		      uint16_t *list)
{
	uint32_t ng = c->df->ngroups, r, G, I, k = 0;

	for (r = 0; r < c->every; r++)
		for (G = 0; G < ng; G++) {
			start[r * ng + G] = k;
			if (G == H || G % c->every == r)
				continue;
			for (I = r; I < ng; I += c->every)
				if (ot_valiant_layer(ng, G, H, I) &&
				    c->gok[(size_t)G * ng + I] &&
				    c->gok[(size_t)I * ng + H])
					list[k++] = (uint16_t)I;
		}
	start[c->every * ng] = k;
}

/*
 * Every LID above offset 0, in dealing order (seq counts the LIDs of a
 * group at one offset; the groups seq + offset mod c->every route
 * it directly): each other source group's intermediate, dealt by seq and
 * G over its candidates, and path SL.
 */
static int assign_via(struct df_ctx *c)
{
	const struct ot_fabric *f = c->f;
	uint32_t ng = c->df->ngroups, i, seq = 0, G;
	size_t n = ((size_t)f->max_lid + 1) * ng;
	uint64_t prev = UINT64_MAX;
	uint32_t *start = malloc(((size_t)c->every * ng + 1) *
				 sizeof(*start));
	uint16_t *list = malloc(((size_t)c->every * ng *
				 (ng / c->every + 1) + 1) *
				sizeof(*list));

	c->via = calloc(n + 1, sizeof(*c->via));
	c->vsl = calloc(n + 1, 1);
	if (!c->via || !c->vsl || !start || !list || groups_ok(c)) {
		free(start);
		free(list);
		return ot_error_nomem(c->err, "df-static");
	}
	for (i = 0; i < c->norder; i++) {
		uint16_t lid = c->order[i];
		const struct ot_lid_owner *o = &f->lid_owner[lid];
		uint32_t H = (uint32_t)c->df->group[c->tsw[lid]];
		uint32_t off = lid - f->node[o->node].port[o->port].lid, r;
		uint64_t cls = ((uint64_t)off << 32) | H;

		/* a detour's landing switch must route H directly: none */
		if (!c->voff[lid] || detoured(c, c->tsw[lid]) || c->hfall[H])
			continue;
		if (cls != prev)
			via_lists(c, H, start, list);
		seq = cls == prev ? seq + 1 : 0;
		prev = cls;
		r = (seq + off) % c->every;
		for (G = 0; G < ng; G++) {
			uint32_t at = start[r * ng + G];
			uint32_t k = start[r * ng + G + 1] - at, I;

			if (!k)
				continue;
			I = list[at + (seq / c->every + G) % k];
			c->via[(size_t)lid * ng + G] = (uint16_t)(I + 1);
			c->vsl[(size_t)lid * ng + G] =
				(uint8_t)ot_valiant_layer(ng, G, H, I);
		}
	}
	free(start);
	free(list);
	return 0;
}

/* Escaped LIDs leave the up/down layer; which of its SLs are taken. */
static void updown_sls(struct df_ctx *c)
{
	uint32_t ng = c->df->ngroups, i, G;

	for (i = 0; i < c->norder; i++) {
		uint16_t lid = c->order[i];
		uint8_t *v = c->vsl + (size_t)lid * ng;

		if (!c->voff[lid])
			continue;
		if (c->escape[lid]) {
			memset(v, 0, ng);
			continue;
		}
		for (G = 0; G < ng; G++)
			if (v[G])
				c->sls_used |= 1u << v[G];
	}
}

/*
 * Destinations some switch cannot reach by the rule go to the escape
 * layer; the others are dealt switch by switch in dealing order (each
 * switch's lanes see the same sequence whatever the node order).
 */
static int fill_lfts(struct df_ctx *c, struct ot_routing *out)
{
	const struct ot_fabric *f = c->f;
	const struct ot_df *df = c->df;
	uint8_t *ok = malloc(2 * ((size_t)f->nnodes + 1));
	uint32_t i, k, s;

	if (!ok)
		return ot_error_nomem(c->err, "df-static");
	memset(ok, 2, 2 * ((size_t)f->nnodes + 1));
	for (i = 0; i < c->norder; i++) {
		uint16_t lid = c->order[i];
		int32_t t = c->tsw[lid];
		uint8_t *o = &ok[2 * t + c->voff[lid]], up = 2;

		if (c->updown && c->voff[lid])
			o = &up; /* the intermediates change from LID to LID */
		if (*o == 2)
			*o = rule_reaches(c, lid);
		c->escape[lid] = !*o;
		c->any_escape |= !*o;
		if (*o && !c->any_detour)
			c->any_detour = detoured(c, t);
	}
	free(ok);
	if (c->updown)
		updown_sls(c);
	for (k = 0; k < df->gstart[df->ngroups]; k++) {
		int32_t sw = df->member[k];

		for (i = 0; i < c->norder; i++)
			if (!c->escape[c->order[i]])
				out->lft[sw][c->order[i]] =
					rule_port(c, sw, c->order[i]);
	}
	for (i = 0; i < c->norder && c->any_escape; i++) {
		uint16_t lid = c->order[i];

		if (!c->escape[lid])
			continue;
		if (escape_hops(c, lid, i))
			return -1;
		for (s = 0; s < f->nnodes; s++)
			if (out->lft[s] && df->group[s] >= 0)
				out->lft[s][lid] = c->hop[s];
	}
	return 0;
}

/*
 * A port as the VL rule sees it: class, for local cables the dim, for
 * global cables the groups at its ends.
 */
struct df_pc {
	enum ot_df_port cls;
	unsigned int dim;
	int32_t own, far;
};

static struct df_pc port_pc(const struct ot_df *df, uint32_t n,
			    unsigned int p)
{
	struct df_pc pc = { ot_df_port_class(df, n, p),
			    ot_df_port_dim(df, n, p), -1, -1 };

	if (pc.cls == OT_DF_PORT_GLOBAL) {
		pc.own = df->group[n];
		pc.far = df->group[df->fabric->node[n].port[p].peer];
	}
	return pc;
}

/* What the VL rule depends on beyond the hop. */
struct df_vlrule {
	bool any_escape, updown;
	uint8_t esc_sl, esc_vl;
	uint32_t ng;
};

/* Whether a global cable goes down in Valiant layer l's order. */
static bool goes_down(const struct df_vlrule *v, unsigned int l,
		      struct df_pc pc)
{
	return pc.cls == OT_DF_PORT_GLOBAL &&
	       ot_valiant_down(v->ng, l, (uint32_t)pc.own, (uint32_t)pc.far);
}

/*
 * The VL of a hop (the proof at the top): the escape SL's own VL; on the
 * Valiant layer l's SL (1..3) VL l after a global cable and on a global
 * hop down in the layer's order (the second), VL 0 else; on SL 0 VL 1
 * after a global cable, and from a dim-1 to a dim-0 local cable (the
 * destination group's order in a FlatFly group), VL 0 else.
 */
static uint8_t df_vl(const struct df_vlrule *v, unsigned int sl,
		     struct df_pc in, struct df_pc out)
{
	if (v->any_escape && sl == v->esc_sl)
		return v->esc_vl;
	if (v->updown && sl >= 1 && sl <= DF_LAYERS) {
		if (in.cls == OT_DF_PORT_GLOBAL || goes_down(v, sl, out))
			return (uint8_t)sl;
		return 0;
	}
	if (in.cls == OT_DF_PORT_GLOBAL)
		return 1;
	return in.cls == OT_DF_PORT_LOCAL && out.cls == OT_DF_PORT_LOCAL &&
	       in.dim == 1 && out.dim == 0;
}

static struct df_vlrule ctx_vlrule(const struct df_ctx *c)
{
	return (struct df_vlrule){ c->any_escape, c->updown, c->esc_sl,
				   c->esc_vl, c->df->ngroups };
}

static int fill_sl2vl(struct df_ctx *c, struct ot_routing *out)
{
	const struct ot_fabric *f = c->f;
	struct df_vlrule v = ctx_vlrule(c);
	struct df_pc pc[OT_MAX_PORTS + 1];
	unsigned int in, o, sl, np;
	uint32_t n;

	for (n = 0; n < f->nnodes; n++) {
		uint8_t *t;

		np = f->node[n].nports;
		t = ot_routing_sl2vl_new(out, n);
		if (!t)
			return ot_error_nomem(c->err, "df-static");
		for (o = 0; o <= np; o++)
			pc[o] = port_pc(c->df, n, o);
		for (in = 0; in <= np; in++)
			for (o = 0; o <= np; o++)
				for (sl = 0; sl < OT_NUM_SLS; sl++)
					t[ot_sl2vl_index(np, in, o, sl)] =
						df_vl(&v, sl, pc[in], pc[o]);
	}
	return 0;
}

/* What path_sl reads: the escaped LIDs, the up/down layer's SLs. */
struct df_priv {
	uint8_t *escape; /* per LID */
	uint8_t *vsl;    /* [dlid * ng + source group], or NULL */
	int32_t *lgroup; /* per LID: its switch's group, -1 */
	uint32_t ng;
	uint8_t esc_sl;
};

static void df_priv_free(void *ctx)
{
	struct df_priv *pv = ctx;

	if (!pv)
		return;
	free(pv->escape);
	free(pv->vsl);
	free(pv->lgroup);
	free(pv);
}

static uint8_t df_path_sl(const struct ot_routing *r, uint16_t slid,
			  uint16_t dlid)
{
	const struct df_priv *pv = r->priv;

	if (dlid > r->max_lid || slid > r->max_lid)
		return 0;
	if (pv->escape[dlid])
		return pv->esc_sl;
	if (pv->vsl && pv->lgroup[slid] >= 0)
		return pv->vsl[(size_t)dlid * pv->ng + pv->lgroup[slid]];
	return 0;
}

/* The promise's context: owns the recognizer's answer the rule reads. */
struct df_promise {
	struct ot_df *df;
	/* per LID: 1 by the rule, 2 on the escape layer, 3 by the rule
	 * on the Valiant layer (two global hops) */
	uint8_t *routed;
	uint16_t max_lid;
	struct df_vlrule vr;
	unsigned int max_global; /* 2 with detours through a third group */
	uint8_t *vsl; /* the up/down layer's path SLs (struct df_ctx), or NULL */
	uint32_t ng;
};

static void df_promise_free(void *ctx)
{
	struct df_promise *pr = ctx;

	if (!pr)
		return;
	ot_df_free(pr->df);
	free(pr->routed);
	free(pr->vsl);
	free(pr);
}

/* The port node[i] of the path receives on (NONE at the CA). */
static struct df_pc in_pc(const struct ot_df *df, const struct ot_path *p,
			  unsigned int i)
{
	const struct ot_fabric *f = df->fabric;
	const struct ot_port *pt;

	if (!i)
		return (struct df_pc){ OT_DF_PORT_NONE, 0, -1, -1 };
	pt = &f->node[p->node[i - 1]].port[p->port[i - 1]];
	return port_pc(df, p->node[i], pt->peer_port);
}

/*
 * local, global, local: at most one local hop (two in FlatFly groups, dim
 * 0 first in the source group, dim 1 first in the destination's) before
 * and after the global hops, which are one, or two in a row (max_global)
 * on a detour or the Valiant layer.
 */
static const char *shape_error(const struct ot_df *df, const struct ot_path *p,
			       unsigned int max_global, unsigned int *at)
{
	unsigned int i, before = 0, after = 0, global = 0, last = 2, all = 0;
	unsigned int src = df->gdims[df->group[p->node[1]]];
	unsigned int dst = df->gdims[df->group[p->node[p->len - 2]]];

	for (i = 1; i + 2 < p->len; i++)
		all += ot_df_port_class(df, p->node[i], p->port[i]) ==
		       OT_DF_PORT_GLOBAL;
	global = !all; /* within a group: the destination group's order */
	for (i = 1; i + 2 < p->len; i++) {
		struct df_pc pc = port_pc(df, p->node[i], p->port[i]);

		*at = i;
		if (pc.cls == OT_DF_PORT_GLOBAL) {
			if (after)
				return "a global hop after a local one";
			if (++global > max_global + !all)
				return "one global hop too many";
			last = 2;
			continue;
		}
		if (global ? ++after > dst : ++before > src)
			return "a local hop too many";
		if (last != 2 && (global ? pc.dim >= last : pc.dim <= last))
			return "local hops out of dimension order";
		last = pc.dim;
	}
	return NULL;
}

/*
 * A Valiant layer (full-graph groups): local? global local? global
 * local?, the first global hop up and the second down in the order of
 * layer sl (ot_valiant_rank).
 */
static const char *updown_error(const struct df_promise *pr,
				const struct ot_path *p, unsigned int sl,
				unsigned int *at)
{
	const struct ot_df *df = pr->df;
	unsigned int i, global = 0, local = 0;

	for (i = 1; i + 2 < p->len; i++) {
		struct df_pc pc = port_pc(df, p->node[i], p->port[i]);

		*at = i;
		if (pc.cls != OT_DF_PORT_GLOBAL) {
			if (++local > 1)
				return "a local hop too many";
			continue;
		}
		local = 0;
		if (++global > 2)
			return "a third global hop";
		if (goes_down(&pr->vr, sl, pc) != (global == 2))
			return "global hops not up, then down in the layer's order of groups";
	}
	return global == 2 ? NULL : "one global hop on a Valiant layer";
}

/* The path SL the engine gives: escape, the up/down layer's, or 0. */
static unsigned int want_sl(const struct df_promise *pr,
			    const struct ot_path *p)
{
	int32_t G = pr->df->group[p->node[0]];

	if (pr->routed[p->dlid] == 2)
		return pr->vr.esc_sl;
	if (pr->vsl && G >= 0)
		return pr->vsl[(size_t)p->dlid * pr->ng + G];
	return 0;
}

static int df_rule(const void *ctx, const struct ot_path *p,
		   struct ot_error *why)
{
	const struct df_promise *pr = ctx;
	unsigned int i, sl, at = 0;
	const char *bad;

	if (p->dlid > pr->max_lid || !pr->routed[p->dlid])
		return ot_error_set(why, "LID %u is no destination the engine routed",
				    p->dlid);
	sl = want_sl(pr, p);
	if (p->sl != sl)
		return ot_error_set(why, "path SL %u, the engine gives SL %u toward LID %u",
				    p->sl, sl, p->dlid);
	for (i = 0; i + 1 < p->len; i++) {
		uint8_t want = df_vl(&pr->vr, sl, in_pc(pr->df, p, i),
				     port_pc(pr->df, p->node[i], p->port[i]));

		if (p->vl[i] != want)
			return ot_error_set(why,
					    "hop %u from \"%s\" on VL %u, the rule gives VL %u",
					    i, pr->df->fabric->node[p->node[i]].desc,
					    p->vl[i], want);
	}
	if (pr->routed[p->dlid] == 2)
		return 0;
	if (pr->vr.updown && sl >= 1 && sl <= DF_LAYERS)
		bad = updown_error(pr, p, sl, &at);
	else
		bad = shape_error(pr->df, p, pr->routed[p->dlid] == 3 ? 2 :
					     pr->max_global, &at);
	if (!bad)
		return 0;
	return ot_error_set(why, "hop %u from switch \"%s\": %s, not local-global-local",
			    at, pr->df->fabric->node[p->node[at]].desc, bad);
}

/* The promise's own copy of the up/down layer's path SLs. */
static int promise_vsl(const struct df_ctx *c, struct df_promise *pr)
{
	size_t n = ((size_t)c->f->max_lid + 1) * c->df->ngroups;

	pr->vsl = malloc(n + 1);
	if (!pr->vsl)
		return -1;
	memcpy(pr->vsl, c->vsl, n);
	return 0;
}

static int set_promise(struct df_ctx *c, struct ot_routing *out,
		       struct ot_df *df)
{
	struct df_promise *pr = calloc(1, sizeof(*pr));
	struct ot_promise *p = &out->promise;
	uint32_t i;

	if (pr)
		pr->routed = calloc((size_t)c->f->max_lid + 1, 1);
	if (!pr || !pr->routed) {
		free(pr);
		ot_df_free(df);
		return ot_error_nomem(c->err, "df-static");
	}
	pr->df = df;
	pr->max_lid = c->f->max_lid;
	pr->vr = ctx_vlrule(c);
	pr->max_global = c->any_detour ? 2 : 1;
	pr->ng = df->ngroups;
	for (i = 0; i < c->norder; i++)
		pr->routed[c->order[i]] = c->escape[c->order[i]] ? 2 :
					  c->voff[c->order[i]] && !c->updown ?
					  3 : 1;
	if (c->updown && promise_vsl(c, pr)) {
		df_promise_free(pr);
		return ot_error_nomem(c->err, "df-static");
	}
	p->text = c->any_escape ?
		"Dragonfly local-global-local (damaged: some destinations on the escape layer, on their own SL and VL)" :
		c->updown ?
		"Dragonfly local-global-local at LMC offset 0 and where a group routes a LID directly, local-global-local-global-local above (Valiant, on SL 1, 2 or 3)" :
		c->valiant ?
		"Dragonfly local-global-local at LMC offset 0, local-global-global-local (Valiant through the landing switch's group) above" :
		c->any_detour ?
		"Dragonfly local-global-local, or local-global-global-local where a group pair lost its cables" :
		"Dragonfly local-global-local: at most one global hop";
	p->minimal = OT_MINIMAL_NONE;
	p->max_switch_hops = c->any_escape ? 0 :
			     c->updown ? 5 :
			     2 * df->max_dims +
				     (c->valiant ? 2 : pr->max_global);
	p->sls = 1u | c->sls_used |
		 (c->any_escape ? 1u << c->esc_sl : 0);
	p->rule = df_rule;
	p->rule_text = c->updown ?
		"SL 0: local, global (two in a row on a detour), local; VL 1 after a global cable. SL l = 1..3 (Valiant): local, global up, local, global down (in the layer's order of groups), local; VL l after a global cable and on a global hop down, VL 0 else (escape: SL 4 on VL 4)" :
		"local hops (one, or two in FlatFly groups: dim 0 then 1 at the source, 1 then 0 at the destination), one global hop (two in a row on a detour or an LMC offset above 0), local hops; VL 1 after a global cable and from dim 1 to dim 0, VL 0 else (escape: SL 1 on VL 2)";
	p->source_free = true;
	p->ctx = pr;
	p->free_ctx = df_promise_free;
	return 0;
}

static int set_labels(const struct df_ctx *c, struct ot_routing *out)
{
	const struct ot_fabric *f = c->f;
	const struct ot_df *df = c->df;
	uint32_t n;
	int rc = 0;

	for (n = 0; n < f->nnodes && !rc; n++) {
		int32_t sw = ot_home_switch(f, n);

		if (df->group[n] < 0 || sw < 0)
			continue;
		if (df->gdims[df->group[sw]] == 2)
			rc = ot_routing_set_label(out, n, "%s [%d,%d,%d]",
						  sw == (int32_t)n ? "switch" : "CA",
						  df->group[sw], df->coord[2 * sw],
						  df->coord[2 * sw + 1]);
		else
			rc = ot_routing_set_label(out, n, "%s [%d,%d]",
						  sw == (int32_t)n ? "switch" : "CA",
						  df->group[sw], df->index[sw]);
	}
	return rc ? ot_error_nomem(c->err, "df-static") : 0;
}

static void ctx_free(struct df_ctx *c)
{
	free(c->order);
	free(c->tsw);
	free(c->tport);
	free(c->escape);
	free(c->voff);
	free(c->nglob);
	free(c->ndet);
	free(c->gglob);
	free(c->vgw);
	free(c->vok);
	free(c->lane);
	free(c->hop);
	free(c->cstart);
	free(c->cport);
	free(c->cfall);
	free(c->gok);
	free(c->hfall);
	free(c->via);
	free(c->vsl);
	if (c->esc_ready)
		ot_escape_free(&c->esc);
	free(c->present);
	free(c->estart);
	free(c->eadj);
}

/* SL2VL always (path SLs: set_path_sls). */
static int set_vls(struct df_ctx *c, struct ot_routing *out)
{
	unsigned int l;

	if (c->updown) {
		out->nvls = 2;
		for (l = 1; l <= DF_LAYERS; l++)
			if (c->sls_used & 1u << l && l + 1 > out->nvls)
				out->nvls = l + 1;
		if (c->any_escape)
			out->nvls = DF_UPDOWN_ESCAPE + 1;
	} else {
		out->nvls = c->any_escape ? 3 : 2;
	}
	out->needs_qos = true;
	if (fill_sl2vl(c, out))
		return -1;
	return 0;
}

/*
 * Path SLs where some path takes another SL than 0: the escape layer,
 * the up/down layer (its SLs move over to the routing).
 */
static int set_path_sls(struct df_ctx *c, struct ot_routing *out)
{
	struct df_priv *pv;
	uint32_t lid;

	if (!c->any_escape && !c->sls_used)
		return 0;
	pv = calloc(1, sizeof(*pv));
	if (!pv)
		return ot_error_nomem(c->err, "df-static");
	pv->escape = c->escape;
	c->escape = NULL;
	pv->esc_sl = c->esc_sl;
	pv->ng = c->df->ngroups;
	if (c->sls_used) {
		pv->vsl = c->vsl;
		c->vsl = NULL;
		pv->lgroup = malloc(((size_t)c->f->max_lid + 1) *
				    sizeof(*pv->lgroup));
		if (!pv->lgroup) {
			df_priv_free(pv);
			return ot_error_nomem(c->err, "df-static");
		}
		for (lid = 0; lid <= c->f->max_lid; lid++)
			pv->lgroup[lid] = c->tsw[lid] >= 0 ?
				c->df->group[c->tsw[lid]] : -1;
	}
	out->priv = pv;
	out->free_priv = df_priv_free;
	out->path_sl = df_path_sl;
	out->path_sl_by_switch = true;
	return 0;
}

/*
 * The up/down Valiant layer where LMC offsets above 0 exist and every
 * group is a full graph (else the restricted one), within DF_MAX_VIA.
 */
static void choose_layers(struct df_ctx *c)
{
	uint64_t n = ((uint64_t)c->f->max_lid + 1) * c->df->ngroups;

	c->updown = c->valiant && c->df->max_dims == 1 &&
		    c->df->ngroups < UINT16_MAX && n <= DF_MAX_VIA;
	c->every = ot_valiant_every(c->df->ngroups);
	c->esc_sl = c->updown ? DF_UPDOWN_ESCAPE : DF_ESCAPE_SL;
	c->esc_vl = c->updown ? DF_UPDOWN_ESCAPE : DF_ESCAPE_VL;
}

/*
 * A Dragonfly+ first (route/df_plus.h: its recognizer refuses every
 * Dragonfly of full-graph or FlatFly groups at once, leaves cabled to
 * leaves), whose refusal joins the Dragonfly recognizer's.
 */
static int df_plus(const struct ot_fabric *f, struct ot_routing *out,
		   struct ot_error *plus, struct ot_error *err)
{
	struct ot_dfp *d;

	if (!ot_dfp_recognize(f, &d, plus))
		return ot_dfp_route(f, d, out, err);
	return plus->cls == OT_ERR_TOPOLOGY ? 1 :
		ot_error_wrap(err, plus, plus->cls, "df-static");
}

static int df_route(const struct ot_engine *self, const struct ot_fabric *f,
		    struct ot_routing *out, struct ot_error *err)
{
	struct df_ctx c = { .f = f, .err = err };
	struct ot_df *df = NULL;
	struct ot_error why = { 0 }, plus = { 0 };
	double t = ot_now_ms();
	int error;

	(void)self;
	error = df_plus(f, out, &plus, err);
	if (error <= 0)
		return error;
	if (ot_df_recognize(f, &df, &why)) {
		snprintf(why.msg + strlen(why.msg),
			 sizeof(why.msg) - strlen(why.msg),
			 "; nor a Dragonfly+ (%s)", plus.msg);
		return ot_error_wrap(err, &why, OT_ERR_TOPOLOGY, "df-static");
	}
	c.df = df;
	ot_routing_phase(out, "recognize", t);
	t = ot_now_ms();
	error = prepare_dests(&c);
	if (!error) {
		choose_layers(&c);
		error = prepare_ports(&c);
	}
	if (!error)
		error = prepare_candidates(&c);
	if (!error && c.updown)
		error = assign_via(&c);
	if (!error)
		error = fill_lfts(&c, out);
	if (!error)
		ot_routing_phase(out, "route", t);
	if (!error)
		error = set_labels(&c, out);
	if (!error)
		error = set_vls(&c, out);
	if (!error) {
		error = set_promise(&c, out, df);
		df = NULL; /* the promise owns it now (or freed it) */
	}
	if (!error)
		error = set_path_sls(&c, out);
	ctx_free(&c);
	ot_df_free(df);
	return error;
}

const struct ot_engine ot_engine_df_static = {
	.name = "df-static",
	.needs = "a Dragonfly: groups of switches as full graphs, 2-D FlatFlies or leaf/spine fat trees (Dragonfly+) joined by global cables",
	.route = df_route,
	.miscabling = ot_df_miscabling,
};
