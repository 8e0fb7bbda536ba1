/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Directed routes from the local MAD port to every node of a discovered
 * fabric, planned breadth-first over its cabling.  A directed-route SMP
 * goes where the cabling goes, whatever the LFTs hold, so a fabric whose
 * tables are broken, or whose LID-routed paths are long, can still be
 * read (ibsim forwards LID-routed MADs over at most 16 switches).
 */
#ifndef OSMTOPO_LIVE_DRROUTE_H
#define OSMTOPO_LIVE_DRROUTE_H

#include <stdbool.h>
#include <stdint.h>

#include <infiniband/mad.h>

#include "model/error.h"
#include "model/fabric.h"

/* How the local port reaches a node. */
struct ot_drhop {
	int32_t parent; /* previous node on the path, -1 for the local node */
	uint8_t out;    /* port of parent the path leaves by */
	uint8_t hops;
	bool reached;
};

struct ot_drroutes {
	const struct ot_fabric *f;
	int32_t local;       /* node index of the local port's node */
	uint8_t local_port;
	struct ot_drhop *hop; /* per node */
};

/*
 * Finds the local port's node in f (NodeInfo over a 0-hop route on mad)
 * and plans a route to every node it reaches.  0, or -1 with err set;
 * ot_drroutes_free() either way.
 */
int ot_drroutes_plan(struct ot_drroutes *d, const struct ot_fabric *f,
		     struct ibmad_port *mad, struct ot_error *err);
void ot_drroutes_free(struct ot_drroutes *d);

static inline bool ot_drroutes_reached(const struct ot_drroutes *d, int32_t n)
{
	return d->hop[n].reached;
}

/* The route to node n (entering it by the port the search reached it by). */
void ot_drroutes_portid(const struct ot_drroutes *d, int32_t n,
			ib_portid_t *id);

/*
 * The route to port p of a CA or router n: the SMP must enter n by p,
 * since a CA answers SL2VL and PortInfo for the port it arrived on.
 * False when no switch (or the local port) leads to p.
 */
bool ot_drroutes_portid_to_port(const struct ot_drroutes *d, int32_t n,
				unsigned int p, ib_portid_t *id);

#endif
