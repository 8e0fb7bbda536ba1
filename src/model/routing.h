/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What an engine produces: a linear forwarding table for every switch, the
 * SL-to-VL tables and path SLs its deadlock freedom rests on, and a label
 * per node saying where the engine placed it (its coordinates).  The plugin
 * copies these into OpenSM, the tool prints them, the checker reads them.
 *
 * Engines (src/route/) are pure functions from an indexed fabric to a
 * routing, so the same code runs inside OpenSM, offline, in unit tests
 * and in benchmarks.
 */
#ifndef OSMTOPO_ROUTING_H
#define OSMTOPO_ROUTING_H

#include <stdbool.h>
#include <stdint.h>

#include "model/error.h"
#include "model/fabric.h"

#define OT_NUM_SLS 16

/* A CA-to-CA path as the checker walked it, handed to a promise's rule. */
struct ot_path {
	const int32_t *node; /* len nodes: source CA, switches, destination CA */
	const uint8_t *port; /* port[i]: the port node[i] sends on, i < len - 1 */
	const uint8_t *vl;   /* vl[i]: the VL of that hop */
	unsigned int len;
	uint16_t slid, dlid;
	uint8_t sl;          /* the path SL */
};

enum ot_minimality {
	OT_MINIMAL_NONE, /* no promise about path length */
	OT_MINIMAL_ALL,  /* every CA-to-CA path is a shortest path */
	OT_MINIMAL_BASE, /* every path to a base LID (LMC offset 0) is */
};

/*
 * What an engine promises about the paths of its routing, stated by the
 * engine itself with its tables.  The checker holds a routing to it: the
 * engine's own offline (`check --route E`), or a live fabric's tables
 * against the promise of the same engine run on the discovered fabric
 * (`check --live --engine E`).  Every engine promises, and the checker
 * always checks, that every CA pair is reached, without a forwarding or a
 * credit loop; this states the rest.
 */
struct ot_promise {
	const char *text;              /* one line; NULL: no promise made */
	enum ot_minimality minimal;
	unsigned int max_switch_hops;  /* on a CA-to-CA path; 0: no bound */
	/* (every hop on a VL below the routing's nvls: not restated here) */
	uint16_t sls;                  /* the path SLs used: bit per SL */
	/*
	 * The engine's own rule for one path (dimension order, which VL on
	 * which hop, which SL for which destination), or NULL.  0 when the
	 * path keeps it, or -1 with why saying how it does not.
	 */
	int (*rule)(const void *ctx, const struct ot_path *path,
		    struct ot_error *why);
	const char *rule_text;         /* one line saying what rule checks */
	/*
	 * The rule judges a path by its switches, ports, SL and VLs, never
	 * by which CA of the source switch sends it (the CA's description
	 * may appear in why): the checker then judges the CAs of a switch
	 * that share an SL and first VLs once.
	 */
	bool source_free;
	void *ctx;                     /* the rule's, freed with free_ctx */
	void (*free_ctx)(void *ctx);
};

#define OT_MAX_PHASES 8

/* One step of an engine's run and how long it took. */
struct ot_phase {
	const char *name; /* static text: "recognize", "route", ... */
	double ms;
};

struct ot_routing {
	const struct ot_fabric *fabric; /* borrowed: must outlive the routing */
	uint16_t max_lid;               /* = fabric->max_lid */
	/*
	 * lft[n][lid]: output port of switch n for a LID (0 = the switch
	 * itself, OT_NO_PORT = none); max_lid + 1 entries, NULL for non
	 * switches.
	 */
	uint8_t **lft;
	/* label[n]: coordinates, e.g. "router [2,5]", or NULL. */
	char **label;
	/*
	 * sl2vl[n]: NULL means every SL goes to VL 0 on every hop of node n;
	 * otherwise (nports+1)^2 * OT_NUM_SLS bytes, indexed by
	 * ot_sl2vl_index().  For a CA only in_port 0 is used.
	 */
	uint8_t **sl2vl;
	unsigned int nvls; /* data VLs the engine needs (1 = no VL tricks) */
	bool needs_qos;    /* SL2VL must be programmed for deadlock freedom */
	/* SL a source uses toward a destination LID; NULL means SL 0. */
	uint8_t (*path_sl)(const struct ot_routing *r, uint16_t slid,
			   uint16_t dlid);
	/*
	 * True when the path SLs are not known (a live fabric whose SA did
	 * not answer, OpenSM's dump files): path_sl is then NULL, and SL 0
	 * is only a guess.
	 */
	bool path_sl_unknown;
	/*
	 * True when path_sl depends on the source only through the switch
	 * its cable leads to (every engine's: an SL per destination, or
	 * per source switch and destination): whoever needs every source's
	 * SL asks once per switch (model/cdg.h).
	 */
	bool path_sl_by_switch;
	/*
	 * Path SLs that rest on a sample (a live fabric read beyond the
	 * bound, live/sa.c): sl_sampled_pairs pairs have the SL their
	 * source's sample agreed on, not one the SA gave for the pair.
	 * sl_sampled() says whether a pair is one of them; sl_confirm()
	 * asks the real SLs of n pairs (slid << 16 | dlid each), puts them
	 * in the table and takes them out of the sample (0, or -1 with err
	 * set).  NULL and 0 when every SL is the pair's own.
	 */
	uint64_t sl_sampled_pairs;
	bool (*sl_sampled)(const struct ot_routing *r, uint16_t slid,
			   uint16_t dlid);
	int (*sl_confirm)(struct ot_routing *r, const uint32_t *pairs,
			  uint64_t n, struct ot_error *err);
	void *priv; /* engine data that path_sl needs, freed by free_priv */
	void (*free_priv)(void *priv);
	struct ot_promise promise; /* what the engine promises (see above) */
	/* The engine's steps, in order, for logs and `route --time`. */
	struct ot_phase phase[OT_MAX_PHASES];
	unsigned int nphases;
};

static inline unsigned int ot_sl2vl_index(unsigned int nports,
					  unsigned int in_port,
					  unsigned int out_port,
					  unsigned int sl)
{
	return ((in_port * (nports + 1)) + out_port) * OT_NUM_SLS + sl;
}

/* A routing with an LFT per switch, every entry OT_NO_PORT.  NULL on OOM. */
struct ot_routing *ot_routing_new(const struct ot_fabric *f);
void ot_routing_free(struct ot_routing *r);

/*
 * Node n's SL2VL table, allocated (zeroed: every SL on VL 0) and set in
 * r->sl2vl[n] for the caller to fill by ot_sl2vl_index(); NULL on OOM.
 */
uint8_t *ot_routing_sl2vl_new(struct ot_routing *r, uint32_t n);

/* Sets the label of node n (printf style). 0, or -1 on OOM. */
int ot_routing_set_label(struct ot_routing *r, int n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Milliseconds on a monotonic clock, and the time since start recorded
 * as a phase of r (dropped beyond OT_MAX_PHASES).  For engines: `t =
 * ot_now_ms(); ...; ot_routing_phase(r, "route", t);`.
 */
double ot_now_ms(void);
void ot_routing_phase(struct ot_routing *r, const char *name, double start);

/* The VL a packet with SL sl takes from in_port to out_port of node n. */
uint8_t ot_routing_vl(const struct ot_routing *r, int n, unsigned int in_port,
		      unsigned int out_port, unsigned int sl);

/* The path SL from slid to dlid. */
uint8_t ot_routing_path_sl(const struct ot_routing *r, uint16_t slid,
			   uint16_t dlid);

#define OT_UNIFORM_BASE_LIDS 1u /* only to base LIDs (LMC offset 0) */
#define OT_UNIFORM_CA_LINKS 2u  /* count switch-to-CA links too */

/*
 * The engines' yardstick when they weigh two routings of their own (the
 * checker's figures, src/check, go further: VLs, patterns, sampling).
 * Uniform traffic through r's tables: every CA port cabled to a switch
 * sends one flow to every LID of every other CA port (to base LIDs only
 * with OT_UNIFORM_BASE_LIDS), walked from the switch it is cabled to
 * until the tables leave the switches.  Returns the most flows on one
 * switch's output port: switch-to-switch cables only, or also the
 * cables to CAs with OT_UNIFORM_CA_LINKS.  -1 on OOM, or when max_pairs
 * is not 0 and the CA ports squared exceed it.
 */
int64_t ot_routing_uniform_busiest(const struct ot_routing *r,
				   unsigned int flags, uint64_t max_pairs);

#endif
