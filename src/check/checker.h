/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The checker's insides, shared by its files (not a public API):
 * check.c walks the forwarding trees and counts pairs, hops and drops;
 * cdg.c builds the channel dependency graph and finds credit loops;
 * promise.c holds each reached path to the engine's promise; examples.c
 * keeps the pairs listed as examples; report.c prints the report as text
 * or JSON (json.c).  fwdtree.c is the forwarding-tree walk they share
 * with the link balance model (traffic.c, printed by balance_out.c).
 */
#ifndef OSMTOPO_CHECK_CHECKER_H
#define OSMTOPO_CHECK_CHECKER_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "check/fwdtree.h"
#include "check/json.h"

#define NUM_VLS 16 /* SL2VL values are 4 bits */
#define DEFAULT_EXAMPLES 5
#define DIST_INF UINT32_MAX

/* A CA port with a LID: a source of traffic and a destination. */
struct endpoint {
	int32_t node;
	uint8_t port;
	uint16_t lid;    /* base LID */
	uint32_t nlids;  /* 2^LMC */
	int32_t sw;      /* switch its cable leads to, or -1 */
	uint8_t sw_port; /* port of sw the cable arrives on */
	uint16_t sl_mask; /* SLs it sends on toward some destination */
};

/* One destination LID, and the switch its port hangs off (-1: none). */
struct dest {
	int32_t attach;
	uint32_t ep;
	uint16_t lid;
};

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
	struct ot_balance_report *balance;
	char *promise;       /* the promise's text, NULL when none */
	char *promise_rule;  /* what its rule checks, NULL when none */
	/* multicast: problems as text, and credit loops with multicast */
	char **mc_examples;
	unsigned int n_mc_examples;
	struct credit_cycle *mc_cycles;
	unsigned int n_mc_cycles;
};

/*
 * The channel dependency graph.  A channel is (link, VL), a link being a
 * node's output port: id = (link_base[node] + port - 1) * NUM_VLS + vl.
 * A channel's successors all leave the node its link ends at, so they are
 * kept as a bitset over (output port * NUM_VLS + VL) of that node,
 * allocated when the first dependency appears: memory grows with the
 * channels in use, not with the pairs.
 */
struct cdg {
	uint32_t *link_base; /* nnodes + 1 entries */
	int32_t *link_node;  /* node owning each link */
	uint32_t nlinks;
	uint64_t **succ;     /* nlinks * NUM_VLS bitsets, NULL when none */
	uint64_t *used;      /* bitset over channels some path uses */
};

struct checker {
	const struct ot_fabric *f;
	const struct ot_routing *r;
	const struct ot_check_opts *opts;
	struct ot_check_report *rep;
	struct ot_error *err;

	struct endpoint *ep;
	uint32_t nep;
	struct dest *dest;
	uint32_t ndest;
	/* Sources by the switch their cable leads to (CSR over nodes). */
	uint32_t *src_start; /* nnodes + 1 */
	uint32_t *src_list;
	int32_t *src_switches; /* switches with at least one source */
	uint32_t nsrc_switches;
	uint32_t *odd_src; /* sources not cabled to a switch */
	uint32_t nodd;

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

	/* Per (destination, SL): switches used and the VLs they send on. */
	uint32_t vcur;
	uint32_t *vstamp;
	uint16_t *vlset;
	int32_t *vused;
	uint32_t nvused;
	uint16_t *sw_sl_mask; /* SLs sent by all sources of a switch */
	/* Seeds per SL: a source switch and the VLs its CAs inject. */
	int32_t *seed_sw;   /* NUM_SLS * nnodes */
	uint16_t *seed_vls; /* NUM_SLS * nnodes */
	uint32_t seed_n[OT_NUM_SLS];
	/* VLs a switch puts its CAs' packets on, per output port and SL */
	uint16_t **ca_vls;

	/* The path a promise is checked on (nnodes + 2 entries each) */
	int32_t *path;
	uint8_t *pport, *pvl;
	uint8_t *vl_cache;  /* OT_NUM_SLS rows of nnodes + 2 */
	uint16_t vl_sl_ok;  /* rows of vl_cache valid for this suffix */
	struct cdg cdg;
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
static inline uint8_t vl_of(const struct checker *ck, int32_t n, unsigned int in,
		     unsigned int out, unsigned int sl)
{
	const uint8_t *t = ck->r->sl2vl[n];
	uint8_t vl;

	if (!t || sl >= OT_NUM_SLS)
		return 0;
	vl = t[ot_sl2vl_index(ck->f->node[n].nports, in, out, sl)];
	return vl & (NUM_VLS - 1);
}

static inline uint8_t ck_path_sl(const struct checker *ck, uint16_t slid,
				 uint16_t dlid)
{
	uint8_t sl = ot_routing_path_sl(ck->r, slid, dlid);

	return sl < OT_NUM_SLS ? sl : 0;
}

static inline int oom(struct checker *ck)
{
	return ot_error_set(ck->err, "check: out of memory");
}

/* Sources of switch s other than the destination's own port. */
static inline uint32_t sources_at(const struct checker *ck, int32_t s, uint32_t dep)
{
	uint32_t n = ck->src_start[s + 1] - ck->src_start[s];

	if (ck->ep[dep].sw == s)
		n--;
	return n;
}

static inline uint32_t link_id(const struct checker *ck, int32_t n, unsigned int port)
{
	return ck->cdg.link_base[n] + port - 1;
}

/* examples.c */
struct example *ck_example_add(struct checker *ck, struct example_list *l,
			       const struct endpoint *src,
			       const struct endpoint *dst, uint16_t dlid);

void ck_example_free(struct example *e);

/* cdg.c: the channel dependency graph and its credit loops */
void ck_injection_vls(struct checker *ck);
int ck_dependencies_toward(struct checker *ck, const struct dest *dd);
/* The edge channel from -> (to_node's output to_port, to_vl), once. */
int ck_add_dependency(struct checker *ck, uint32_t from, int32_t to_node,
		      unsigned int to_port, uint8_t to_vl);

/* mcast.c: the multicast check of opts->mcast, after the unicast one */
int ck_mcast(struct checker *ck);
int ck_find_credit_loops(struct checker *ck);
void ck_count_channels(struct checker *ck);

/* promise.c: each reached path against the engine's promise */
int ck_check_promise(struct checker *ck, const struct dest *dd);

/* The report as a JSON object (report.c), NULL on OOM. */
json_t *ck_report_json(const struct ot_check_report *rep);

#endif
