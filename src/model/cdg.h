/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The channel dependency graph (CDG) over (directed link, VL), and its
 * credit loops: a cycle of channels each waiting for the next is a fabric
 * that can deadlock.  A packet that holds channel a and asks for channel
 * b makes a depend on b.
 *
 * Unicast fills it from a routing (ot_unicast_deps: per destination LID
 * and SL, from the forwarding tree toward it), multicast from the MFTs of
 * a group (every turn a tree switch makes between two of its ports).
 * Both the checker (src/check: credit loops of any routing, with the
 * multicast read back from a fabric) and the multicast tree builder
 * (route/mcast.h: does a candidate tree add a loop to the engine's
 * unicast?) use this one graph and this one search.
 *
 * A channel is (link, VL), a link being a node's output port: id =
 * (link_base[node] + port - 1) * OT_CDG_VLS + vl.  A channel's successors
 * all leave the node its link ends at, so they are kept as a bitset over
 * (output port * OT_CDG_VLS + VL) of that node, allocated when the first
 * dependency appears: memory grows with the channels in use, not with the
 * pairs.  Channels into a CA end every chain and are in no cycle, so
 * neither unicast nor multicast adds dependencies on them.
 */
#ifndef OSMTOPO_MODEL_CDG_H
#define OSMTOPO_MODEL_CDG_H

#include <stdbool.h>
#include <stdint.h>

#include "model/endpoints.h"
#include "model/fabric.h"
#include "model/fwdtree.h"
#include "model/routing.h"

#define OT_CDG_VLS 16 /* SL2VL values are 4 bits */
/* (destination, SL) passes whose dependencies are added together */
#define OT_UNICAST_BLOCK 64

struct ot_cdg {
	const struct ot_fabric *f;
	uint32_t *link_base; /* nnodes + 1 entries */
	int32_t *link_node;  /* node owning each link */
	uint32_t nlinks;
	uint64_t **succ;     /* nlinks * OT_CDG_VLS bitsets, NULL when none */
	uint64_t *used;      /* bitset over channels some path uses */
	uint64_t ndeps;      /* dependencies (edges) in the graph */
};

/* An empty graph over f's links.  0, or -1 when out of memory. */
int ot_cdg_init(struct ot_cdg *g, const struct ot_fabric *f);
void ot_cdg_free(struct ot_cdg *g);

static inline uint64_t ot_cdg_nchannels(const struct ot_cdg *g)
{
	return (uint64_t)g->nlinks * OT_CDG_VLS;
}

/* The channel of port (>= 1) of node n on VL vl. */
static inline uint32_t ot_cdg_channel(const struct ot_cdg *g, int32_t n,
				      unsigned int port, unsigned int vl)
{
	return (g->link_base[n] + port - 1) * OT_CDG_VLS + vl;
}

/* The node a channel leaves, and its port there. */
static inline int32_t ot_cdg_channel_node(const struct ot_cdg *g, uint32_t c)
{
	return g->link_node[c / OT_CDG_VLS];
}

static inline unsigned int ot_cdg_channel_port(const struct ot_cdg *g,
					       uint32_t c)
{
	uint32_t link = c / OT_CDG_VLS;

	return link - g->link_base[g->link_node[link]] + 1;
}

/*
 * The dependency from -> (to_node's output to_port, to_vl), to_node being
 * where from's link ends.  1 when it is new, 0 when the graph had it, -1
 * when out of memory.
 */
int ot_cdg_add(struct ot_cdg *g, uint32_t from, int32_t to_node,
	       unsigned int to_port, uint8_t to_vl);
/* Takes a dependency out again (nothing when it is not there). */
void ot_cdg_remove(struct ot_cdg *g, uint32_t from, int32_t to_node,
		   unsigned int to_port, uint8_t to_vl);

/*
 * The next successor of channel c at or after bit *pos of its bitset, as
 * a channel id, or UINT32_MAX when there is none.  Start with *pos = 0.
 */
uint32_t ot_cdg_next(const struct ot_cdg *g, uint32_t c, unsigned int *pos);

/*
 * Strongly connected parts (Tarjan's search, without recursion: a 16K
 * fabric has a million channels).  Parts are numbered in the order the
 * search completes them, so a dependency between two parts always goes
 * from the higher number to the lower: the numbers are a topological
 * order of the graph of parts, read backwards.  A cyclic part (more than
 * one channel, or a channel depending on itself) is a credit loop.
 */
struct ot_cdg_sccs {
	int32_t *comp;     /* per channel its part; -1: in no dependency */
	uint32_t ncomp;
	uint8_t *cyclic;   /* per part: 1 when it is a credit loop */
	unsigned int nloops;    /* cyclic parts */
	uint64_t loop_channels; /* channels in them */
	uint32_t *root;    /* a channel of each of the first nroots loops */
	unsigned int nroots;
};

/* Every part of g; the first max_roots loops get a root.  0 or -1 (OOM). */
int ot_cdg_sccs(const struct ot_cdg *g, unsigned int max_roots,
		struct ot_cdg_sccs *out);
void ot_cdg_sccs_free(struct ot_cdg_sccs *s);

/*
 * A shortest cycle through channel root inside its part of s, found
 * breadth first: *chan (malloc'ed, *len channels) in the order the
 * dependencies go, root first.  0, 1 when root is in no cycle (*chan
 * NULL), -1 when out of memory.
 */
int ot_cdg_cycle(const struct ot_cdg *g, const struct ot_cdg_sccs *s,
		 uint32_t root, uint32_t **chan, unsigned int *len);

/* A dependency from one channel to another. */
struct ot_cdg_edge {
	uint32_t from, to;
};

/*
 * Whether the dependencies edge[0..n), already added to g, close a credit
 * loop that base (the parts of g before they were added) did not have:
 * two of base's parts joined into one, or a channel base had in no loop
 * now in one.  Searches only from the edges that go against base's
 * order of parts (or touch a channel base did not know), and only among
 * the parts between their ends, so a check costs little when the edges
 * follow the order.  The channels of the largest new loop, 0 when there
 * is none, -1 when out of memory.
 */
int64_t ot_cdg_new_loop(const struct ot_cdg *g, const struct ot_cdg_sccs *base,
			const struct ot_cdg_edge *edge, uint32_t n);

/* ot_routing_vl() for ports known to exist, inlined: it runs per pair. */
static inline uint8_t ot_cdg_vl(const struct ot_routing *r, int32_t n,
				unsigned int in, unsigned int out,
				unsigned int sl)
{
	const uint8_t *t = r->sl2vl[n];

	if (!t || sl >= OT_NUM_SLS)
		return 0;
	return t[ot_sl2vl_index(r->fabric->node[n].nports, in, out, sl)] &
	       (OT_CDG_VLS - 1);
}

/*
 * The dependencies of a routing's unicast traffic, added once per
 * (destination LID, SL) from the switches the forwarding tree's sources
 * use: a used switch x forwarding to switch t makes each VL x sends on
 * depend on the VL t gives packets arriving from x.  Every source CA
 * sends to every destination LID on the path SL of the pair.  The
 * checker runs ot_unicast_deps_toward() inside its own walk over the
 * destinations (the tree is resolved there anyway);
 * ot_cdg_build_unicast() does the whole routing at once.
 */
struct ot_unicast_deps {
	const struct ot_routing *r;
	const struct ot_fabric *f;
	struct ot_cdg *g;
	struct ot_endpoints *eps;
	/* Per (destination, SL): switches used and the VLs they send on. */
	uint32_t vcur;
	uint32_t *vstamp;
	uint16_t *vlset;
	int32_t *vused;
	uint32_t nvused;
	uint16_t *sw_sl_mask; /* SLs sent by all sources of a switch */
	/* Seeds per SL: a source switch and the VLs its CAs inject. */
	int32_t *seed_sw;   /* OT_NUM_SLS * nnodes */
	uint16_t *seed_vls; /* OT_NUM_SLS * nnodes */
	uint32_t seed_n[OT_NUM_SLS];
	/* VLs a switch puts its CAs' packets on, per output port and SL */
	uint16_t **ca_vls;
	/*
	 * The dependencies of the last passes (destination, SL), waiting
	 * to be added switch by switch: one pass touches every switch's
	 * bitsets once, in no order that a cache could follow; a block of
	 * passes added switch by switch touches each switch's few bitsets
	 * OT_UNICAST_BLOCK times in a row.  Per switch (swidx[node]), up to
	 * one key (channel, VLs, next hop) per pass.
	 */
	uint32_t *swidx;   /* node -> switch number, UINT32_MAX: none */
	int32_t *swnode;   /* switch number -> node */
	uint32_t nsw;
	uint64_t *pending; /* nsw * OT_UNICAST_BLOCK keys */
	uint8_t *npending; /* per switch number */
	uint32_t npasses;  /* passes since the last flush */
	uint16_t vls_used; /* bit v: some reached path uses VL v */
	uint16_t sls_used; /* bit l: some reached path has path SL l */
};

/* 0, or -1 when out of memory (d is then freed). */
int ot_unicast_deps_init(struct ot_unicast_deps *d, struct ot_cdg *g,
			 struct ot_endpoints *eps, const struct ot_routing *r);
void ot_unicast_deps_free(struct ot_unicast_deps *d);

/*
 * The dependencies toward destination dd, t being the forwarding tree
 * toward dd->lid with every source switch resolved.  Marks the sources'
 * SLs (eps->ep[].sl_mask) and the channels used.  0 or -1 (OOM).
 */
int ot_unicast_deps_toward(struct ot_unicast_deps *d,
			   const struct ot_fwdtree *t, const struct ot_dest *dd);

/*
 * After the last destination: the dependencies still waiting added to the
 * graph, the first hops' VLs and the SLs used.  0 or -1 (OOM).
 */
int ot_unicast_deps_finish(struct ot_unicast_deps *d);

/*
 * The unicast dependencies of r into g (initialised over r's fabric), for
 * every destination LID.  0, or -1 when out of memory.
 */
int ot_cdg_build_unicast(struct ot_cdg *g, const struct ot_routing *r);

#endif
