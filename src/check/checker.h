/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The checker's insides, shared by its files (not a public API):
 * check.c walks the forwarding trees and counts pairs, hops and drops,
 * and adds unicast's channel dependencies (model/cdg.h) on the way;
 * cdg.c reports the graph's credit loops;
 * promise.c holds each reached path to the engine's promise; examples.c
 * keeps the pairs listed as examples; report.c prints the report as text
 * or JSON (json.c).  fwdtree.c is the forwarding-tree walk they share
 * with the link balance model (traffic.c, printed by balance_out.c),
 * and the channel dependency graph with the plugin's multicast trees
 * (both in src/model).
 */
#ifndef OSMTOPO_CHECK_CHECKER_H
#define OSMTOPO_CHECK_CHECKER_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "check/json.h"
#include "model/cdg.h"
#include "model/endpoints.h"
#include "model/fwdtree.h"

#define NUM_VLS OT_CDG_VLS
#define DEFAULT_EXAMPLES 5
#define DIST_INF UINT32_MAX

/* A pair that is unreachable, loops or breaks the engine's promise. */
struct example {
	char *src, *dst;
	unsigned int src_port, dst_port;
	uint16_t slid, dlid;
	char *at;            /* node where the packet is dropped, or NULL */
	unsigned int at_port;
	char *reason;
	char **cycle;        /* forwarding loop: switches, in order */
	unsigned int cycle_len;
};

struct example_list {
	struct example *ex;
	unsigned int n;
};

/* One channel of a printed credit loop. */
struct channel {
	char *from, *to;
	unsigned int from_port, to_port;
	uint8_t vl;
};

struct credit_cycle {
	struct channel *ch;
	unsigned int len;
};

struct ot_check_report {
	struct ot_check_counts c;
	unsigned int max_examples;
	struct example_list unreachable, looping, violations;
	struct credit_cycle *cycles;
	unsigned int ncycles;
	/*
	 * With path SLs from a sample: the channels of unicast's credit
	 * loops (a bitset over model/cdg.h's channels), for
	 * ot_check_run_confirmed(); NULL otherwise.
	 */
	uint64_t *loop_chan;
	struct ot_balance_report *balance;
	char *promise;       /* the promise's text, NULL when none */
	char *promise_rule;  /* what its rule checks, NULL when none */
	/* multicast: problems as text, and credit loops with multicast */
	char **mc_examples;
	unsigned int n_mc_examples;
	struct credit_cycle *mc_cycles;
	unsigned int n_mc_cycles;
};

struct checker {
	const struct ot_fabric *f;
	const struct ot_routing *r;
	const struct ot_check_opts *opts;
	struct ot_check_report *rep;
	struct ot_error *err;

	/* The CA ports, sources by switch, destination LIDs. */
	struct ot_endpoints eps;

	/* The forwarding tree toward the current destination LID. */
	struct ot_fwdtree tree;

	/*
	 * Shortest distances (in switch hops) to dist_from, over the
	 * switch-to-switch cables (adj, CSR over nodes); only the switches
	 * the last search queued are not DIST_INF.
	 */
	int32_t dist_from;
	uint32_t *dist;
	int32_t *queue;
	uint32_t nqueued;
	uint32_t *adj_start;
	int32_t *adj;

	/* The path a promise is checked on (nnodes + 2 entries each) */
	int32_t *path;
	uint8_t *pport, *pvl;
	uint8_t *vl_cache;  /* OT_NUM_SLS rows of nnodes + 2 */
	uint16_t vl_sl_ok;  /* rows of vl_cache valid for this suffix */
	/* Unicast's channel dependencies, multicast's added after them. */
	struct ot_cdg cdg;
	struct ot_unicast_deps ud;
};

static inline char *dupstr(const char *s)
{
	return strdup(s ? s : "");
}

static inline const char *desc(const struct checker *ck, int32_t n)
{
	return ck->f->node[n].desc;
}

/* ot_routing_vl() for ports known to exist, inlined: it runs per pair. */
static inline uint8_t vl_of(const struct checker *ck, int32_t n,
			    unsigned int in, unsigned int out, unsigned int sl)
{
	return ot_cdg_vl(ck->r, n, in, out, sl);
}

static inline uint8_t ck_path_sl(const struct checker *ck, uint16_t slid,
				 uint16_t dlid)
{
	uint8_t sl = ot_routing_path_sl(ck->r, slid, dlid);

	return sl < OT_NUM_SLS ? sl : 0;
}

static inline int oom(struct checker *ck)
{
	return ot_error_nomem(ck->err, "check");
}

/* examples.c */
struct example *ck_example_add(struct checker *ck, struct example_list *l,
			       const struct ot_endpoint *src,
			       const struct ot_endpoint *dst, uint16_t dlid);

void ck_example_free(struct example *e);

/* cdg.c: the credit loops of the graph into the report */
int ck_find_credit_loops(struct checker *ck);
void ck_count_channels(struct checker *ck);

/* mcast.c: the multicast check of opts->mcast, after the unicast one */
int ck_mcast(struct checker *ck);

/* promise.c: each reached path against the engine's promise */
int ck_check_promise(struct checker *ck, const struct ot_dest *dd);

/* The report as a JSON object (report.c), NULL on OOM. */
json_t *ck_report_json(const struct ot_check_report *rep);

#endif
