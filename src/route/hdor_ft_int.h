/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The state hdor on fat-tree lines shares between route/hdor_ft.c (lines,
 * candidates, tables, escape layer) and route/hdor_ft_bal.c (spreading
 * the destinations over the lines' cables).  Private to those two.
 */
#ifndef OSMTOPO_ROUTE_HDOR_FT_INT_H
#define OSMTOPO_ROUTE_HDOR_FT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/error.h"
#include "model/fabric.h"
#include "model/routing.h"
#include "route/escape.h"
#include "topo/kns.h"

#define INF 255
#define FT_DEPTH 16 /* stages, at most (topo/kns_ft.c: 15) */
#define ESC_SL 1 /* the escape layer's path SL, and its VL on every hop */
/*
 * Escape layers at most (route/hdor_ft_esc.c): the first on SL 1 and VL
 * 1 (with the twists), layer i > 0 on an SL of its own and VL 1 + i.
 */
#define ESC_MAX_LAYERS 7
/* Data VLs hdor may use without a budget (VL 0, then the layers). */
#define ESC_DEFAULT_VLS 4

enum dest_kind {
	DEST_NONE,
	DEST_CA,
	DEST_ROUTER,
	DEST_SWITCH,
};

struct ft_dest {
	uint8_t kind;
	uint8_t ca_port;
	int32_t node; /* the LID's node; for a CA, its router */
};

/* One line's routing state; local node i: switches, then routers by t. */
struct ft_line {
	uint32_t nloc;   /* nsw + k */
	uint8_t *below;  /* nsw * k: t below switch i */
	uint8_t *U;      /* nsw * k: up*-down* hops from switch i to t */
	uint8_t *dist;   /* nloc * nloc: hops in the line's graph */
	uint8_t *lca;    /* k * k: up*-down* hops between routers, / 2 */
	bool proper;     /* a fat tree: intact down-sets, lca minimal */
	/*
	 * k: tbad[t], some router of the line has no up-then-down path to
	 * router t (its destinations go to the escape layer); broken: any.
	 */
	uint8_t *tbad;
	bool broken;
	/*
	 * toward()'s answer for every (local node, local target), i * nloc +
	 * tgt: ports cport[cstart[..] .. cstart[.. + 1]).
	 */
	uint32_t *cstart;
	uint8_t *cport;
};

/*
 * The LIDs twists can take off the escape layer (route/hdor_ft_twist.c),
 * in the base order: each one's entries twisted and on the escape layer
 * (n * nnodes), its keys keys[kend[j - 1] .. kend[j]), twisted or not.
 */
struct ft_twists {
	uint16_t *lid;
	uint32_t n;
	uint8_t *twcol, *escol, *on;
	uint32_t *kend;
	/* (router node << 16 | LID) << 16 | line of the twist */
	uint64_t *keys;
	uint32_t nkeys;
	/* lines x lines: a twist on the first crosses the second after */
	uint8_t *conf;
	uint8_t *first; /* per line: some twist on it */
	/* lines one twist leads on into: one group, one class */
	uint32_t *par, *par0;
	/* scratch: first lines, their group index, groups x groups */
	uint32_t *fl, *gi, *undo, *mark;
	uint8_t *agg;
};

struct ft_ctx {
	const struct ot_fabric *f;
	const struct ot_kns *kns;
	struct ot_error *err;
	unsigned int k, n;
	struct ft_dest *dest;
	uint16_t **order;  /* per dimension, n + 1 (last: base order) */
	uint32_t norder;
	uint32_t *low;     /* per LID: coordinates below each d, n entries */
	int32_t *loc;      /* per node: local index in its line, or -1 */
	uint32_t *rline;   /* per router node and dimension: its line */
	struct ft_line *line;
	uint8_t *cnt;      /* scratch */
	/* per LID: 1 on the escape layer (SL 1, VL 1) */
	uint8_t *escape;
	bool any_escape;
	/*
	 * Escape layers: elay[lid] the layer of an escaped LID (0: the
	 * first; NULL: all on it), lsl[i] layer i's SL; nlay the layers
	 * used, max_vls and max_sls the budget (data VLs, path SLs);
	 * max_lay, when not 0, the most layers (the VLs beyond left to the
	 * other dimension orders: ot_hdor_ft_route_layers()).
	 */
	uint8_t *elay;
	uint8_t lsl[ESC_MAX_LAYERS];
	unsigned int nlay, max_vls, max_sls, max_lay;
	/*
	 * The final deal of the escaped LIDs weighs only CA-to-CA traffic
	 * (route/hdor_ft_esc.c: struct ca_deal); moved: that changed what
	 * some CA LID's deal saw.
	 */
	bool ca_deal, moved;
	/* the escape layer: routers by coordinates, then line switches */
	struct ot_escape esc;
	bool esc_ready;
	int32_t *epos;     /* per node: its position, or -1 */
	int32_t *enode;    /* per position: its node */
	uint32_t nepos;
	uint8_t *hop;      /* per node: the escape layer's port */
	/*
	 * Twists (route/hdor_ft_twist.c): the sorted keys of the twisted
	 * pairs, (router node << 16 | LID) << 16 | line.
	 */
	uint64_t *twist;
	uint32_t ntwist;
	struct ft_twists tw;
	uint8_t *cls;      /* per line: its twists' SL, 0: none */
	unsigned int checks; /* cycle searches settling the twists */
	/*
	 * Other dimension orders (route/hdor_ft_mix.c): per LID its order's
	 * SL (0: dimension order; NULL: none moved), each such SL's VL,
	 * and the VLs they take.
	 */
	uint8_t *mixsl;
	uint8_t mvl[OT_NUM_SLS];
	unsigned int nmix;
	/*
	 * The routers that keep dimension order's entry toward a moved LID
	 * (no up*-down* way into the line its order takes first), their
	 * CAs' packets to it on SL 0: sorted keys, router node << 16 | LID.
	 */
	uint64_t *hold;
	uint32_t nhold;
	/*
	 * The first line per source router (route/hdor_ft_first.c): sorted
	 * keys ((router node << 16 | LID) << 8 | SL) of the pairs on an
	 * order's SL, and the same with the router's entry before (fundo,
	 * to undo).
	 */
	uint64_t *fkeys, *fundo;
	uint32_t nfkeys;
	/*
	 * The in-line bounce (route/hdor_ft_bounce.c), a candidate routing
	 * made only when bounce is set: blid per LID, 1 when dimension
	 * order keeps it although some router of a line has no up*-down*
	 * path to its target there (two-plane pairs); bkeys the sorted
	 * bounced pairs, ((router node << 16 | LID) << 8 | SL); bvl[sl] the
	 * VL after the bounce of a bounce SL (0: not one); nbounce the VLs
	 * the bounce takes (0 or 1).
	 */
	bool bounce;
	uint8_t *blid;
	uint64_t *bkeys;
	uint32_t nbkeys;
	uint8_t bvl[OT_NUM_SLS];
	unsigned int nbounce;
	/*
	 * The mixing (route/hdor_ft_mix.c) tries every order of the
	 * dimensions, not only "e first" (n at most 3).
	 */
	bool all_orders;
};

/* Coordinates of x in dimensions below d, as a number. */
static inline uint32_t low_part(const struct ft_ctx *c, int32_t x,
				unsigned int d)
{
	const int16_t *co = c->kns->coord + (size_t)x * c->n;
	uint32_t v = 0;

	while (d-- > 0)
		v = v * c->k + (uint32_t)(co[d] < 0 ? 0 : co[d]);
	return v;
}

/* The local index of node x in line l's graph, or -1. */
static inline int32_t local(const struct ft_ctx *c, uint32_t l, int32_t x)
{
	const struct ot_kns *kns = c->kns;
	const struct ot_kns_line *ln = &kns->lines[l];

	if (kns->role[x] == OT_KNS_SWITCH)
		return kns->line[x] == (int32_t)l ? c->loc[x] : -1;
	if (kns->role[x] == OT_KNS_ROUTER &&
	    ln->router[kns->coord[(size_t)x * c->n + ln->dim]] == x)
		return ln->nsw + kns->coord[(size_t)x * c->n + ln->dim];
	return -1;
}

static inline int32_t global(const struct ft_ctx *c, uint32_t l,
			     uint32_t i)
{
	const struct ot_kns_line *ln = &c->kns->lines[l];

	return i < ln->nsw ? ln->sw[i] : ln->router[i - ln->nsw];
}

/* The candidate ports of line l's local node i toward local target tgt. */
static inline const uint8_t *cands(const struct ft_ctx *c, uint32_t l,
				   uint32_t i, uint32_t tgt, unsigned int *m)
{
	const struct ft_line *fl = &c->line[l];
	size_t at = (size_t)i * fl->nloc + tgt;

	*m = fl->cstart[at + 1] - fl->cstart[at];
	return fl->cport + fl->cstart[at];
}

/*
 * Spreads every line's destinations over its cables (route/hdor_ft_bal.c)
 * and writes the entries the flows set into out's LFTs.  0, or -1 with
 * c->err set.
 */
int ot_hdor_ft_balance(struct ft_ctx *c, struct ot_routing *out);

/*
 * On an intact line l, sets the up entries (ent, dest-major as rel, nloc
 * per destination) by equitable colourings, level by level
 * (route/hdor_ft_col.c); way 1: the (sibling group, destination) right
 * side also where groups do not divide evenly, way 2: with phantom edges
 * there as well, way 3: then a few extra flows swapped so that groups
 * agree on some destinations, and the top switches' parallel cables down
 * set too (0: none of these).  *set: whether it set any; *uneven:
 * whether ways 1 to 3 would colour differently.  0, or -1 with c->err
 * set.
 */
int ot_hdor_ft_colour(struct ft_ctx *c, uint32_t l, const uint16_t *rel,
		      uint32_t nrel, uint8_t *ent, unsigned int way, bool *set,
		      bool *uneven);

/*
 * The escaped CA and router LIDs that dimension order and twists can
 * carry, taken off the escape layer, their entries set in lft
 * (route/hdor_ft_twist.c).  0, or -1 with c->err set.
 */
/*
 * The escape layer (route/hdor_ft_esc.c): every LID some switch or
 * router has no entry for by the rule marked escaped; the escaped LIDs'
 * up*-down* entries into lft; entries still missing for a CA LID toward
 * a neighbour that reaches it.  0, or -1 with c's error set.
 */
void ot_hdor_ft_mark_unreached(struct ft_ctx *c, uint8_t **lft);
int ot_hdor_ft_escape_fill(struct ft_ctx *c, uint8_t **lft);
int ot_hdor_ft_fill_holes(struct ft_ctx *c, uint8_t **lft);

int ot_hdor_ft_twist(struct ft_ctx *c, uint8_t **lft);
void ot_hdor_ft_twist_keep_escape(struct ft_ctx *c, uint8_t **lft);
int ot_hdor_ft_twist_set(struct ft_ctx *c, uint8_t **lft, uint32_t lo,
			 uint32_t hi, bool on);
/* The line of the twist of pair (router, lid) among n sorted keys, or -1. */
int32_t ot_hdor_ft_twisted(const uint64_t *keys, uint32_t n, int32_t router,
			   uint16_t lid);
/* SL2VL of every node, escape layer and twists.  0, or -1 (OOM). */
int ot_hdor_ft_twist_sl2vl(struct ft_ctx *c, struct ot_routing *out);
/* 1 when r's channel dependency graph has a cycle, 0 not, -1 OOM. */
int ot_hdor_ft_twist_cyclic(const struct ot_routing *r);

/*
 * Other dimension orders for the CA LIDs of damaged routers where they
 * lower the busiest channel (route/hdor_ft_mix.c), on the VLs and SLs
 * left (used_vls data VLs, the SLs in bits used_sls); cyclic: the
 * channel dependency graph's search (1 cycle, 0 none, -1 error).  0, or
 * -1 with c->err set.
 */
int ot_hdor_ft_mix(struct ft_ctx *c, struct ot_routing *out,
		   unsigned int used_vls, uint32_t used_sls,
		   int (*cyclic)(struct ft_ctx *c, struct ot_routing *out));

/*
 * The first line per source router (route/hdor_ft_first.c), after the
 * mixing: ord[o] the dimensions of order o (norders of them), osl[o] its
 * SL (0: not in use).  Sets c->fkeys; 0, or -1 with c->err set.
 * ot_hdor_ft_first_undo() puts every entry back and drops the keys.
 */
int ot_hdor_ft_first(struct ft_ctx *c, uint8_t **lft,
		     const uint8_t (*ord)[64], const uint8_t *osl,
		     unsigned int norders);
void ot_hdor_ft_first_undo(struct ft_ctx *c, uint8_t **lft);

/*
 * The in-line bounce (route/hdor_ft_bounce.c).  Whether every router of
 * line l without an up*-down* path to its router t reaches t through
 * the line's graph (a two-plane pair a third router can bounce).
 */
bool ot_hdor_ft_bounceable(const struct ft_ctx *c, uint32_t l,
			   unsigned int t);
/*
 * The bounced pairs found on out's tables, their SLs, and the SL2VL
 * that puts each after its bounce on a VL of its own; cyclic as for
 * ot_hdor_ft_mix().  0 with c->nbkeys, c->bvl and c->nbounce set, or -1
 * with c->err set (a refusal where the bounce cannot be made: the
 * caller keeps the routing without it).
 */
int ot_hdor_ft_bounce(struct ft_ctx *c, struct ot_routing *out,
		      unsigned int used_vls, uint32_t used_sls,
		      int (*cyclic)(struct ft_ctx *c, struct ot_routing *out));
/*
 * Whether router's packets to lid keep dimension order (SL 0) though lid
 * takes another order (route/hdor_ft_mix.c), among n sorted keys.
 */
bool ot_hdor_ft_held(const uint64_t *keys, uint32_t n, int32_t router,
		     uint16_t lid);
/* The SL of the bounced pair (router, lid) among n sorted keys, or 0. */
uint8_t ot_hdor_ft_bounced(const uint64_t *keys, uint32_t n, int32_t router,
			   uint16_t lid);
/*
 * Where the path nodes[0..len) bounces: the index of its first valley
 * (a node of a line entered from a switch of the line above it and left
 * to one above it), or len when none; *more set when it has another.
 */
unsigned int ot_hdor_ft_valley(const struct ot_kns *kns, const int32_t *nodes,
			       unsigned int len, bool *more);

#endif
