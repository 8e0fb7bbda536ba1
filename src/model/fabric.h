/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The fabric model: switches, channel adapters, the cables between their
 * ports and the LIDs the subnet manager gave them.  It is the first step of
 * the flow (fabric -> recognizer -> coordinates -> engine -> tables ->
 * checker) and knows nothing of OpenSM: the plugin fills it from OpenSM's
 * subnet, the tool from a net file or a live fabric, the tests by hand.
 *
 * Node indices are stable for the lifetime of a fabric and are what every
 * later step refers to.  Nothing in the model gives meaning to a port
 * number or a GUID; recognizers use GUIDs only to break ties that the
 * topology leaves open, so that the same fabric always gets the same tables.
 */
#ifndef OSMTOPO_FABRIC_H
#define OSMTOPO_FABRIC_H

#include <stdbool.h>
#include <stdint.h>

#include "model/error.h"

/* LFT value for "no route" (the same value as OpenSM's OSM_NO_PATH). */
#define OT_NO_PORT 0xff
/* Highest unicast LID. */
#define OT_MAX_UCAST_LID 0xbfff
/* Highest port number a switch can have (port 255 is OT_NO_PORT). */
#define OT_MAX_PORTS 254

enum ot_node_type {
	OT_NODE_CA = 1,
	OT_NODE_SWITCH = 2,
	OT_NODE_ROUTER = 3, /* an IB router: carried, never routed through */
};

struct ot_port {
	int32_t peer;      /* node index at the far end of the cable, -1 if none */
	uint8_t peer_port; /* port number at the far end */
	uint8_t lmc;       /* LID mask control of this port's LIDs */
	uint16_t lid;      /* base LID, 0 if none; on a switch only port 0 */
	uint64_t guid;     /* port GUID, 0 if unknown */
};

struct ot_node {
	enum ot_node_type type;
	uint8_t nports; /* physical ports are numbered 1..nports */
	uint64_t guid;  /* node GUID */
	char *desc;     /* node description (ibsim: the node id) */
	/* nports + 1 entries; port[0] is a switch's management port */
	struct ot_port *port;
};

/* Owner of a LID: a node and the port the LID belongs to. */
struct ot_lid_owner {
	int32_t node; /* -1 when the LID is unused */
	uint8_t port;
};

struct ot_fabric {
	uint32_t nnodes;
	uint32_t cap;
	struct ot_node *node;
	/* Filled by ot_fabric_index(): */
	uint16_t max_lid;                /* highest LID in use */
	struct ot_lid_owner *lid_owner;  /* max_lid + 1 entries */
	uint32_t nswitches, ncas;
};

struct ot_fabric *ot_fabric_new(void);
void ot_fabric_free(struct ot_fabric *f);

/*
 * Adds a node with ports 1..nports, all unconnected and without LIDs.
 * Returns its index, or -1 with err set.
 */
int ot_fabric_add_node(struct ot_fabric *f, enum ot_node_type type,
		       unsigned int nports, uint64_t guid, const char *desc,
		       struct ot_error *err);

/* Cables port pa of node a to port pb of node b.  0, or -1 with err set. */
int ot_fabric_link(struct ot_fabric *f, int a, unsigned int pa, int b,
		   unsigned int pb, struct ot_error *err);

/*
 * A copy of f's nodes and LIDs with those of its cables keep() accepts:
 * each cable is offered once, as (a, pa, b, pb) from its end with the
 * lower index (then lower port).  Not indexed, so that the caller can add
 * cables; NULL with err set on failure.
 */
typedef bool (*ot_cable_keep_fn)(const struct ot_fabric *f, uint32_t a,
				 unsigned int pa, uint32_t b, unsigned int pb,
				 const void *ctx);
struct ot_fabric *ot_fabric_copy_cables(const struct ot_fabric *f,
					ot_cable_keep_fn keep, const void *ctx,
					struct ot_error *err);

/*
 * The end of building a fabric (such a copy with cables added): g
 * indexed, or NULL with g freed when error is set (err says why) or
 * indexing fails.
 */
struct ot_fabric *ot_fabric_done(struct ot_fabric *g, int error,
				 struct ot_error *err);

/* Sets the base LID and LMC of a port (port 0 for a switch). */
int ot_fabric_set_lid(struct ot_fabric *f, int node, unsigned int port,
		      uint16_t lid, uint8_t lmc, struct ot_error *err);

/*
 * Gives a LID to every port that needs one and has none: switch port 0 and
 * each cabled CA port, in node order, after the highest LID already used;
 * a port with LMC l gets 2^l LIDs from a multiple of 2^l, as OpenSM does.
 * Returns how many ports found no room below OT_MAX_UCAST_LID (they stay
 * without a LID): 0 when every port got its LIDs.
 */
uint32_t ot_fabric_assign_lids(struct ot_fabric *f);

/*
 * Renumbers every LID for a subnet run with `lmc` (OpenSM's option): each
 * CA port gets 2^lmc LIDs, switches one.  For fabrics read from files that
 * carry no LMC, so offline routing sees what OpenSM would.  Indexes f.
 * Fails, naming the numbers, when the LIDs do not fit the unicast range
 * (16,384 CAs with LMC 2 need 65,536 LIDs of the 49,151).
 */
int ot_fabric_set_ca_lmc(struct ot_fabric *f, uint8_t lmc,
			 struct ot_error *err);

/*
 * Checks the fabric (cables symmetric, no LID used twice, LIDs in range)
 * and builds the LID index.  Call after the last change and before any
 * engine or checker runs.  0, or -1 with err set.
 */
int ot_fabric_index(struct ot_fabric *f, struct ot_error *err);

/* The node owning a LID, or -1 (also for LIDs beyond max_lid). */
static inline int ot_fabric_lid_node(const struct ot_fabric *f, uint32_t lid)
{
	if (lid > f->max_lid)
		return -1;
	return f->lid_owner[lid].node;
}

static inline bool ot_is_switch(const struct ot_fabric *f, int n)
{
	return f->node[n].type == OT_NODE_SWITCH;
}

/*
 * The tie-break a topology leaves between two nodes: GUID, then node
 * index (equal GUIDs in a broken fabric still order the same way), so
 * that a choice never depends on discovery order.
 */
static inline bool ot_node_before(const struct ot_fabric *f, int32_t a,
				  int32_t b)
{
	if (f->node[a].guid != f->node[b].guid)
		return f->node[a].guid < f->node[b].guid;
	return a < b;
}

/*
 * The switch at the other end of port p of node n when n is a switch
 * too, else -1: the switch-to-switch cables, which every recognizer and
 * digest walks.
 */
static inline int32_t ot_switch_peer(const struct ot_fabric *f, uint32_t n,
				     unsigned int p)
{
	int32_t q = f->node[n].port[p].peer;

	return ot_is_switch(f, (int)n) && q >= 0 && ot_is_switch(f, q) ? q :
									 -1;
}

/*
 * The switch node n is (a switch) or hangs off (a CA's port 1 cabled to
 * a switch); -1 otherwise.
 */
static inline int32_t ot_home_switch(const struct ot_fabric *f, uint32_t n)
{
	int32_t q;

	if (ot_is_switch(f, (int)n))
		return (int32_t)n;
	q = f->node[n].nports ? f->node[n].port[1].peer : -1;
	return q >= 0 && ot_is_switch(f, q) ? q : -1;
}

/* The CA ports cabled to node n. */
static inline unsigned int ot_node_ca_count(const struct ot_fabric *f,
					    int32_t n)
{
	unsigned int p, c = 0;

	for (p = 1; p <= f->node[n].nports; p++) {
		int32_t q = f->node[n].port[p].peer;

		c += q >= 0 && f->node[q].type == OT_NODE_CA;
	}
	return c;
}

/* Number of LIDs a port answers to (2^lmc), 0 if it has no LID. */
static inline unsigned int ot_port_nlids(const struct ot_port *p)
{
	return p->lid ? 1u << p->lmc : 0;
}

/*
 * Rank of port cport of end node ca (a CA or router) among the end ports
 * cabled to switch sw, ordered by node GUID, then node index, then port:
 * how engines number the CAs of a switch without trusting port numbers.
 */
uint32_t ot_fabric_end_port_rank(const struct ot_fabric *f, int32_t sw,
				 int32_t ca, unsigned int cport);

/* Printable node type: "Switch", "Ca" or "Rt" as in ibnetdiscover. */
const char *ot_node_type_str(enum ot_node_type type);

#endif
