/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * df-static on a Dragonfly+: the engine's state (route/df_plus.c; the
 * search among its routings, route/df_plus_search.c) and the rule
 * toward one leaf T (route/df_plus_cands.c): the usable global cables,
 * every switch's candidate ports, and the port a switch takes toward a
 * LID.  Private to src/route/.
 */
#ifndef OSMTOPO_ROUTE_DF_PLUS_CANDS_H
#define OSMTOPO_ROUTE_DF_PLUS_CANDS_H

#include <stdbool.h>
#include <stdint.h>

#include "model/error.h"
#include "model/fabric.h"
#include "route/df_plus_rule.h"
#include "route/escape.h"
#include "topo/dragonfly_plus.h"

struct ot_routing;

/* A global cable: its spine, port and the spine at the far end. */
struct dfp_cab {
	int32_t sp, far;
	uint8_t port;
};

struct dfp_ctx {
	const struct ot_fabric *f;
	const struct ot_dfp *d;
	struct ot_error *err;
	uint32_t ng, nleaves, nsw;
	/* per LID */
	int32_t *tsw;    /* the switch it is on, -1: not routed */
	uint8_t *tport;  /* that switch's port to it, 0 itself */
	int32_t *tleaf;  /* the leaf routed toward */
	uint32_t *rank;  /* k: its number in its group */
	uint8_t *escape; /* 1 on the escape layer */
	uint16_t *order; /* routed LIDs by (group, offset, leaf, rank) */
	uint32_t norder;
	/* global cables G -> H: gcab[gstart[G * ng + H] ...) */
	uint32_t *gstart;
	struct dfp_cab *gcab;
	uint32_t want;    /* global cables most group pairs have */
	/* per destination leaf T (scratch) */
	/* per node: a spine of H cabled to T (1), or not but with a leaf
	 * below cabled to a spine that is (2) */
	uint8_t *cabled;
	uint8_t *fturn;   /* per group: its usable cables land on 2s */
	uint8_t *gturn;   /* per group, toward T: a leaf of it turns (SL 3) */
	uint32_t *fstart; /* per group: its usable cables flist[...] */
	uint32_t *flist;  /* indices into gcab */
	uint32_t *fdeal;  /* flist per group in the rule's order (deal_order) */
	uint32_t *rbeg, *rcnt; /* per spine: its own in flist */
	uint32_t *pbeg, *pcnt; /* per switch: candidate ports in plist */
	uint32_t *fbeg, *fcnt; /* per spine: its fallback in plist */
	uint8_t *frule;        /* per spine: its fallback's leaves go by SL 0 */
	uint8_t *plist;   /* twice the ports: the home group's beyond ktail */
	uint32_t ktail;
	uint8_t *ldet;    /* per leaf: 0, or the SL of its detour */
	/* per LID */
	uint8_t *hop;     /* per node */
	/* results */
	uint8_t *dsl;     /* [lid * nleaves + leaf pos]: path SL; lazily */
	bool any_detour, any_turn, any_land, any_escape;
	/* Valiant (LMC offsets above 0) */
	uint8_t *voff;    /* per LID: a CA's LID above offset 0 */
	bool valiant;
	uint32_t every;   /* ot_valiant_every */
	uint8_t *gvia;    /* [G * ng + I]: each leaf of G has a spine of G
			   * with a global cable to I */
	uint8_t *vint;    /* per group: may be an intermediate toward T */
	uint8_t *vland;   /* per group: a detour toward T lands there */
	uint32_t *vsrc;   /* per group: its intermediate + 1 for the LID */
	uint32_t *vlist;  /* scratch: candidate intermediates */
	uint32_t *stamp;  /* per node: scratch marks */
	uint8_t layers;   /* bit l: Valiant layer l taken */
	/* the damage layer: groups in its order (those some group has no
	 * usable cable to first), whether taken */
	uint32_t *drank;
	bool damage, any_damage;
	/* VL 1 shared by the damage and escape layers with the detours
	 * (route/df_plus_vl1.c), and the LIDs moved to the escape layer
	 * to keep it acyclic */
	bool v1share;
	uint32_t v1moved;
	/* where the search gave up: the damage layer on VL 1 with the
	 * detours all the same (their graph acyclic), the escape layer not;
	 * else the escape layer there, the damage layer not (esc_share);
	 * else the two on one VL of their own (de_share); each where the
	 * graph of the paths on that VL is acyclic */
	bool dmg_share, esc_share, de_share;
	/* the other routings (route/df_plus_alt.c), alt 1 and 2: no
	 * third-group detour for a group without usable cables, the damage
	 * layer's leaves and spines by load (dload per link, dlbase per
	 * node); 2: intermediates whose leaves detour too; lcas per leaf
	 * pos: its CAs */
	uint8_t alt;
	/*
	 * another routing (route_alt()): no shared detour (share_detour()),
	 * a group that lost some of its cables toward another keeps its
	 * LIDs on the ones left
	 */
	bool noshare;
	/*
	 * another routing (route/df_plus_alt.c ot_dfp_alt_cables()): each
	 * group's usable cable toward a CA LID by load (gpick per group:
	 * the cable's place in its deal, UINT32_MAX: k mod C; ctouch: the
	 * links a try loads)
	 */
	uint8_t cabload; /* 2: and turns below landing spines */
	/*
	 * another routing (route/df_plus_alt.c ot_dfp_alt_thru(), with
	 * cabload): the flows that turn in their group (SL 3) or land on a
	 * turn (SL 4) toward a LID through a third group on the damage
	 * layer's shape (SL 8) where that is less loaded; the groups they
	 * go toward low in the damage order (damage_order()); tbuf: the
	 * LID's columns before
	 */
	bool thru;
	uint8_t *tbuf;
	/*
	 * another routing (route/df_plus_alt.c ot_dfp_alt_leaves(), with
	 * cabload): each leaf on the rule's path toward a CA LID up to the
	 * spine, of those with a usable cable that lands straight above T,
	 * by load, not every leaf of a group to the group's one cable
	 */
	bool lsplit;
	/*
	 * another routing (route_alt()): a spine without a port toward a
	 * LID that no column leads to goes down to a leaf that has one
	 * (idle_spines() in df_plus.c), not the LID through the damage
	 * layer for its whole group; any_idle: such a spine was met
	 */
	bool idle, any_idle;
	/*
	 * the routing by load again, seeded (route_alt()): dload starts
	 * with the flows of the routing kept so far (prior's tables), and
	 * each LID's own leave as it is routed anew (ot_dfp_alt_reload());
	 * landed: alt_land counted the LID's new flows
	 */
	const struct ot_routing *prior;
	bool landed;
	uint32_t *gpick, *ctouch;
	int32_t *ctw;            /* per ctouch: the flows added */
	uint32_t *clog;          /* seeded: links loaded for a LID so far */
	int32_t *clogw;          /* and their flows */
	int64_t *lthru; /* per leaf of T's group: flows through it */
	uint32_t *dlbase, *lcas;
	int32_t *dload;
	/* the escape layer */
	struct ot_escape esc;
	uint8_t *present;
	uint32_t *estart, *eadj;
	int32_t *posnode;
	bool esc_ready;
};

/* Position of a switch: leaves (group, index), then spines. */
static inline uint32_t dfp_sw_pos(const struct dfp_ctx *c, int32_t n)
{
	const struct ot_dfp *d = c->d;

	if (d->role[n] == OT_DFP_LEAF)
		return d->lstart[d->group[n]] + (uint32_t)d->index[n];
	return c->nleaves + d->sstart[d->group[n]] + (uint32_t)d->index[n];
}

/* Toward leaf T: the spines of T's group that reach it (cabled), the
 * usable cables per group (fstart, flist) and per spine (rbeg, rcnt). */
void ot_dfp_usable_cables(struct dfp_ctx *c, int32_t T);

/* Every switch's candidate ports toward leaf T (pbeg, pcnt, plist). */
void ot_dfp_candidates(struct dfp_ctx *c, int32_t T);

/* Toward T after T0: only T's group again where it can; else false. */
bool ot_dfp_home_candidates(struct dfp_ctx *c, int32_t T, int32_t T0);

/* The port of switch s toward lid dealt as number k, or OT_NO_PORT. */
unsigned int ot_dfp_port_at_k(const struct dfp_ctx *c, int32_t s,
			      uint32_t lid, uint32_t k);

/* The port of switch s toward lid (a shared detour, else the rule's). */
unsigned int ot_dfp_port_at(const struct dfp_ctx *c, int32_t s, uint32_t lid);

/* Whether leaf s's CAs take a shared detour toward lid over port. */
bool ot_dfp_shares(const struct dfp_ctx *c, int32_t s, uint32_t lid,
		   uint8_t port);

/* The escape layer's port at every switch toward lid (number seq) into
 * hop (route/df_plus.c).  0, or -1 with err set. */
int ot_dfp_escape_hops(struct dfp_ctx *c, uint32_t lid, uint32_t seq);

/*
 * After the tables: the detours, the damage layer and the escape layer
 * on VL 1 together where that is acyclic, LIDs moved to the escape
 * layer until it is (route/df_plus_vl1.c): v1share, v1moved.  0, or -1
 * with err set (out of memory).
 */
struct ot_routing;
int ot_dfp_settle_vl1(struct dfp_ctx *c, struct ot_routing *out);

/*
 * The VL of each layer (route/df_plus_vl1.c): fewest where the tables
 * are kept (the escape layer then shares a VL where the search gave up),
 * not when routings are weighed against each other.
 */
struct dfp_vlrule ot_dfp_ctx_vlrule(const struct dfp_ctx *c, bool fewest);
/* SL2VL where some path leaves VL 0 (route/df_plus_vl1.c).  0, or -1. */
int ot_dfp_set_vls(struct dfp_ctx *c, struct ot_routing *out);

/* Whether K may be the damage layer's intermediate toward H. */
bool ot_dfp_damage_via(const struct dfp_ctx *c, uint32_t K, uint32_t H);
/* Spine s of an intermediate down to a leaf of the rule, dealt by k
 * (route/df_plus.c); OT_NO_PORT where there is none. */
unsigned int ot_dfp_rule_down(const struct dfp_ctx *c, int32_t s, uint32_t k);
/* Whether a detour through a third group lands on spine x toward H
 * (route/df_plus.c): x keeps the rule. */
bool ot_dfp_detour_lands(const struct dfp_ctx *c, int32_t x, uint32_t H);
/*
 * In the routing through third groups (c->thru, after the deal and the
 * detours): the turning and landing-turn flows toward lid through a
 * third group where less loaded, their leaves' path SL 8 (route/
 * df_plus_alt.c).  0, or -1 with err set.
 */
int ot_dfp_alt_thru(struct dfp_ctx *c, uint32_t lid, uint8_t *buf);
/*
 * Ports of switch s of class cls, sorted by (far end's group, index,
 * port), the order LIDs are dealt in: global ones toward groups
 * ot_dfp_damage_via() takes toward H, the others toward switches x where
 * ok(c, x, cls, H, buf); their count (route/df_plus_alt.c).
 */
typedef bool (*ot_dfp_via_ok)(const struct dfp_ctx *c, int32_t x,
			      enum ot_dfp_port cls, uint32_t H,
			      const uint8_t *buf);
uint32_t ot_dfp_via_keys(const struct dfp_ctx *c, int32_t s,
			 enum ot_dfp_port cls, uint32_t H, const uint8_t *buf,
			 ot_dfp_via_ok ok, uint64_t *key);

/* route/df_plus_alt.c: the load of the damage layer per link (0, or -1
 * with err set); in the second routing, the damage layer's spines in
 * the groups sending lid (number k, toward group H) through an
 * intermediate take their cables by that load. */
int ot_dfp_alt_prepare(struct dfp_ctx *c);
void ot_dfp_alt_spines(struct dfp_ctx *c, uint32_t lid, uint32_t H,
		       uint32_t k, uint8_t *buf);
void ot_dfp_alt_detours(struct dfp_ctx *c, uint32_t lid, uint8_t *buf);
/* Each group's usable cable toward lid by load (c->cabload), buf
 * redone for its switches; every leaf's flows counted in dload. */
void ot_dfp_alt_cables(struct dfp_ctx *c, uint32_t lid, uint8_t *buf);
/* Each leaf on the rule's path toward lid up to a spine with a usable
 * cable by load (c->lsplit), after ot_dfp_alt_cables(). */
void ot_dfp_alt_leaves(struct dfp_ctx *c, uint32_t lid, uint8_t *buf);
/* Where a spine of T's group takes a turn below it instead of going
 * down to T (SL 4), in the routing by load; then every leaf's flows
 * toward lid counted in dload.  0, or -1 with err set. */
int ot_dfp_alt_land(struct dfp_ctx *c, uint32_t lid, uint8_t *buf,
		    bool turns);
/* Seeded routing by load (c->prior): every CA LID's flows through
 * prior's tables into dload (c->lcas set). */
void ot_dfp_alt_preload(struct dfp_ctx *c);
/* lid's flows out of dload through prior's tables (buf NULL), or into
 * it through buf's columns. */
void ot_dfp_alt_reload(struct dfp_ctx *c, uint32_t lid, const uint8_t *buf);
/* The path SL from leaf s's CAs toward lid.  0, or -1 with err set. */
int ot_dfp_set_dsl(struct dfp_ctx *c, uint32_t lid, int32_t s, uint8_t sl);
/*
 * Whether a switch, a leaf's cable up or a global cable is missing (a
 * group with fewer leaves or spines than the largest, leaves with
 * unequal cables up, groups with unequal global cables): the fabrics on
 * which the routing by load is tried.  Not a spine's own global cables:
 * with fewer groups than the full count an intact fabric may leave one
 * spine port uncabled (but every group as many).
 */
bool ot_dfp_uneven(const struct dfp_ctx *c);

/*
 * route/df_plus_search.c: the other routings where the first one (in *c
 * and out) met damage, detours or a missing cable or switch, the best
 * kept in *c and out.  Each is made and freed through k, df_plus.c's
 * own steps (so that neither file depends on the other): tables(), the
 * tables into out (c: f, d, err and the routing's flags set; 0, or -1
 * with c->err set); free(), what that allocated in c.  0, or -1 with
 * c->err set.
 */
struct dfp_calls {
	int (*tables)(struct dfp_ctx *c, struct ot_routing *out);
	void (*free)(struct dfp_ctx *c);
};
int ot_dfp_route_alt(struct dfp_ctx *c, struct ot_routing *out,
		     const struct dfp_calls *k);

#endif
