/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Private to the FlatFly engines (src/route/ff/): the shared engine core
 * in three parts -- rules.c the routing rules and the hops they choose,
 * dealer.c the dealing of parallel cables and the LFTs, core.c the VL
 * rule, SL2VL, path SLs, the budget and the driver -- ador.c ADOR's
 * choice of the extra hop, engines.c the eight engines built on them.
 * Nothing outside src/route/ff/ uses it (but the unit tests).
 */
#ifndef OSMTOPO_ROUTE_FF_H
#define OSMTOPO_ROUTE_FF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/routing.h"
#include "route/engine.h"
#include "route/escape.h"
#include "topo/flatfly.h"

#define FF_MAX_VLS 8    /* data VLs the engines allow themselves */
#define FF_MAX_ORDERS 4 /* dimension orders of the Mixed variants */
/* Path SL of the destinations routed on the escape layer (core.c). */
#define FF_ESCAPE_SL FF_MAX_ORDERS

enum ff_variant {
	FF_MIXED = 1,   /* dimension order from the destination's CA index */
	FF_TWISTED = 2, /* first hop to the twist coordinate, then DOR */
	FF_ADOR = 4,    /* LMC offsets > 0 take an extra hop per dimension */
};

/*
 * Mixed quotas (rules.c): CA counts up to FF_QUOTA_SEARCH are split over
 * the orders by search, larger ones greedily; FF_QUOTA_CACHE counts are
 * kept per routing.
 */
#define FF_QUOTA_SEARCH 64
#define FF_QUOTA_CACHE (FF_QUOTA_SEARCH + 1)

/*
 * Twisted Mixed's ways of dealing a switch's CAs to the orders; ff_route()
 * routes each and keeps the one whose busiest cable carries the fewest
 * uniform flows (ff_uniform_peak()).
 */
enum ff_tm_scheme {
	FF_TM_TWISTED,   /* issue 9's: twisted_quotas(), else greedy_quotas() */
	FF_TM_MIXED,     /* Mixed's quotas, ranks twisting as twist_start() */
	FF_TM_ONE_ORDER, /* every CA on order 0, tau = d mod K: Twisted DOR */
	FF_TM_SCHEMES,
};

enum ff_dest_kind {
	FF_DEST_NONE,
	FF_DEST_CA,     /* a CA (or router) port: reached through its switch */
	FF_DEST_SWITCH, /* a switch's own LID */
};

/* What the tables need to know about one destination LID. */
struct ff_dest {
	uint8_t kind;    /* enum ff_dest_kind */
	uint8_t port;    /* port of the destination switch toward the LID */
	uint8_t layer;   /* dimension order, = path SL */
	uint8_t tau;     /* twisted: coordinate of the twist */
	uint8_t offset;  /* LID - base LID (LMC offset) */
	uint8_t escape;  /* routed on the escape layer, not by the variant */
	uint16_t index;  /* d: rank of the CA port on its switch */
	uint16_t twist0; /* twisted: first coordinate tau may take */
	int32_t tslot;   /* position of the destination switch */
};

/* A next hop: deliver (dim < 0) or the bundle to coordinate v of dim. */
struct ff_hop {
	int dim;
	unsigned int v;
};

/*
 * The switches as the shared escape layer sees them (core.c fills it when
 * a first destination needs the layer): neighbours of each position in
 * (dimension, coordinate) order, and the hop to each.
 */
struct ff_escape {
	bool ready;
	uint8_t *present;
	uint32_t *start, *adj;
	struct ff_hop *hop;
	struct ot_escape layer;
};

struct ff_ctx {
	const char *name; /* engine name, prefix of every refusal */
	unsigned int variant;
	const struct ot_fabric *f;
	const struct ot_ff *ff;
	struct ot_error *err;
	unsigned int n;
	unsigned int norders;
	uint8_t order[FF_MAX_ORDERS][OT_FF_MAX_DIMS];
	uint32_t stride[OT_FF_MAX_DIMS]; /* slot distance of one step in i */
	uint32_t nslots;                 /* = ff->nslots */
	uint8_t *coords;                 /* nslots x n coordinates */
	/*
	 * Bundles: the cables from a switch to the switch at coordinate v of
	 * dimension i, bundle (slot, koff[i] + v), ports in port order.
	 */
	unsigned int koff[OT_FF_MAX_DIMS];
	unsigned int sumk, maxw;
	uint8_t *bcnt;
	uint8_t *bport;
	bool complete; /* every position filled, every pair cabled */
	struct ff_dest *dest; /* max_lid + 1 entries */
	uint16_t *lids;       /* routable LIDs in the order cables are dealt */
	uint32_t nlids;
	bool same_dim_hops;   /* some DOR phase takes two hops in a dimension */
	bool detours;         /* some hop detours around a missing cable */
	bool twist_detour;    /* some twist takes two hops */
	bool any_escape;      /* some destination is on the escape layer */
	/*
	 * hops_gen numbers the choices of hops toward a destination made so
	 * far (core.c keeps the last few, struct ff_cache, for the next
	 * destinations with the same rule); seq_used: a hop of the last one
	 * depended on the LID's sequence number (a detour), so it holds for
	 * that LID only.
	 */
	uint32_t hops_gen;
	bool seq_used;
	struct ff_escape esc; /* the shared escape layer, when needed */
	struct ff_sfdim *sf;  /* Slim Fly x FlatFly: the Slim Fly dimension */
	int sfdim;            /* its index, -1 for a plain FlatFly */
	/*
	 * Bytes the dealing may keep of recorded hops per dealing group
	 * (dealer.c); SIZE_MAX, its own budget.  The unit tests give 0 to
	 * have every hop chosen again when dealt, which must give the same
	 * tables.
	 */
	size_t record_limit;
	/*
	 * Mixed: the CAs per layer of a switch with k CAs, quota_of[k]
	 * (entry FF_MAX_ORDERS: set), for k < FF_QUOTA_CACHE (rules.c).
	 * Twisted Mixed: which of its schemes (enum ff_tm_scheme) deals the
	 * CAs to the layers.
	 */
	unsigned int quota_of[FF_QUOTA_CACHE][FF_MAX_ORDERS + 1];
	unsigned int tm_scheme;
};

/*
 * What decides the VL of a hop (seed 001, 3.3, as realized at the top of
 * core.c): the variant, the orders' last dimensions, and whether any
 * detour, twist detour or escape destination made their VLs necessary.
 * core.c fills SL2VL with it and the promise's rule (promise.c) checks
 * each hop with the very same function.
 */
struct ff_vlrule {
	unsigned int variant, norders;
	uint8_t last[FF_MAX_ORDERS]; /* last dimension of each order */
	bool same_dim_hops, twist_detour, any_escape;
};

/* Data VLs the rule uses. */
unsigned int ff_vlrule_vls(const struct ff_vlrule *v);

/*
 * The VL of a hop with SL sl from a port of dimension din into one of
 * dimension dout (-1: a CA port or a switch's port 0).
 */
uint8_t ff_hop_vl(const struct ff_vlrule *v, unsigned int sl, int din,
		  int dout);

static inline const uint8_t *ff_coords(const struct ff_ctx *c, uint32_t slot)
{
	return c->coords + (size_t)slot * c->n;
}

/* Whether the switch at slot has a cable to coordinate v of dimension i. */
static inline bool ff_has(const struct ff_ctx *c, uint32_t slot,
			  unsigned int i, unsigned int v)
{
	return c->bcnt[(size_t)slot * c->sumk + c->koff[i] + v] != 0;
}

/* The position that differs from slot only in dimension i, there v. */
static inline uint32_t ff_move(const struct ff_ctx *c, uint32_t slot,
			       unsigned int i, unsigned int v)
{
	return slot - ff_coords(c, slot)[i] * c->stride[i] +
	       v * c->stride[i];
}

/*
 * States the routing's promise (promise.c) from what the core did; the
 * promise takes ff, the mapping, over.  0, or -1 (out of memory, err set,
 * ff still the caller's).
 */
int ff_set_promise(const struct ff_ctx *c, struct ot_routing *out,
		   struct ot_ff *ff);

/*
 * Slim Fly x FlatFly products (sfdim.c): the mapping, the FlatFly's or
 * else the product's with *sf set (dimension 0 the Slim Fly); 0, or -1
 * with err naming why neither recognizer took f.
 */
struct ff_sfdim;
int ff_map_fabric(const struct ot_fabric *f, struct ot_ff **ff,
		  struct ff_sfdim **sf, struct ot_error *err);
void ff_sfdim_free(struct ff_sfdim *x);
/* Sets c->sfdim, and whether every Slim Fly cable is there. */
void ff_sfdim_prepare(struct ff_ctx *c);
/* Whether two hops in dimension i are a shortest path, not a detour. */
bool ff_sfdim_minimal(const struct ff_ctx *c, unsigned int i);
/*
 * The Slim Fly dimension's find_detour(): a common MMS neighbour of s's
 * position and v, cabled on both sides, other than skip, picked by seq;
 * -1 when there is none.
 */
int ff_sfdim_detour(const struct ff_ctx *c, uint32_t s, unsigned int v,
		    unsigned int skip, uint32_t seq);

/*
 * Routes f with the FlatFly engine core (core.c); the Mixed variants shed
 * orders to fit budget b (NULL: 8 VLs).  record_limit: see struct ff_ctx
 * (SIZE_MAX for the engines).
 */
int ff_route(const char *name, unsigned int variant,
	     const struct ot_fabric *f, const struct ot_engine_budget *b,
	     size_t record_limit, struct ot_routing *out,
	     struct ot_error *err);

/*
 * The routing rules (rules.c): the orders, the switches' bundles, the
 * destinations in dealing order with their layers and twists.
 */
void ff_build_orders(struct ff_ctx *c, unsigned int m);
/* "[c(n-1),...,c0]" of a position. */
void ff_coords_str(const struct ff_ctx *c, uint32_t slot, char *buf,
		   size_t len);
int ff_prepare_switches(struct ff_ctx *c);
int ff_prepare_dests(struct ff_ctx *c);
int ff_assign_layers(struct ff_ctx *c);

/*
 * The hops toward one destination, from every switch present: where each
 * leads and the bundle it takes (koff[dim] + v; FF_DELIVER at the
 * switches that deliver, which deliver also lists).  When valid, they
 * are the variant's toward every destination with of's rule (not when a
 * hop depended on the LID's sequence number).  gx and run0 are the
 * dealer's (fill_lfts()).
 */
#define FF_DELIVER UINT16_MAX
#define FF_NONE UINT32_MAX

struct ff_hops {
	uint32_t *next;
	uint16_t *bundle;
	uint32_t *deliver, ndeliver;
	uint32_t gen; /* the hops_gen that chose them */
	bool valid;
	struct ff_dest of;
	uint32_t gx; /* their generation in the dealing group, or FF_NONE */
	int run0;    /* a batch column with them, or -1 */
};

/*
 * The last choices of hops: the Mixed variants' CAs of a switch take
 * turns through the orders (FF_MAX_ORDERS), so a rule comes back after
 * a few others.  cur: the buffer of the last destination routed.
 */
#define FF_CACHE FF_MAX_ORDERS

struct ff_cache {
	struct ff_hops hp[FF_CACHE];
	unsigned int n, cur, victim;
};

int ff_cache_init(struct ff_cache *x, unsigned int n, uint32_t nslots);
void ff_cache_free(struct ff_cache *x);

/*
 * The hops toward t from every switch into x's current buffer (rules.c):
 * the escape layer's, the variant's (-1 when some switch has none), and
 * route_dest's choice among them.
 */
int ff_escape_hops(struct ff_ctx *c, const struct ff_dest *t, uint32_t seq,
		   struct ff_cache *x);
int ff_variant_hops(struct ff_ctx *c, const struct ff_dest *t, uint32_t seq,
		    struct ff_cache *x);
int ff_route_dest(struct ff_ctx *c, struct ff_dest *t, uint32_t q,
		  struct ff_dest *failed, struct ff_cache *x);
bool ff_same_rule(const struct ff_ctx *c, const struct ff_dest *a,
		  const struct ff_dest *b);

/* The dealing group of t: its LID offset, switch LIDs apart. */
static inline int ff_deal_group(const struct ff_dest *t)
{
	return t->offset + (t->kind == FF_DEST_SWITCH ? 256 : 0);
}

/*
 * Every LFT entry (dealer.c): destination by destination the hops, the
 * hops into bundles dealt over their cables per dealing group.
 */
int ff_fill_lfts(struct ff_ctx *c, struct ot_routing *out);

/*
 * Uniform traffic on the tables just filled (dealer.c): every CA sending
 * to every other CA's base LID, the flows on the busiest cable between
 * two switches; UINT64_MAX when out of memory.
 */
uint64_t ff_uniform_peak(const struct ff_ctx *c, const struct ot_routing *out);

/*
 * ADOR (ador.c): the coordinate of dimension i that packets for t cross
 * through on the line of slot, t's own coordinate when there is none.
 */
unsigned int ff_ador_via(const struct ff_ctx *c, uint32_t slot,
			 const struct ff_dest *t, unsigned int i);

#endif
