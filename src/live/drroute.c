// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Directed routes from the local MAD port (drroute.h): the tables of
 * live.c and the MFTs of mcast.c are read along them.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "live/drroute.h"

/* A directed route has at most 63 hops (the hop count field is 6 bits). */
#define DR_MAX_HOPS (IB_SUBNET_PATH_HOPS_MAX - 1)

/*
 * Breadth-first search from the local node over the cabling.  Only
 * switches forward directed-route SMPs, so CAs and routers are leaves;
 * a local CA sends only through the port the MAD port was opened on.
 */
static void plan(struct ot_drroutes *d, int32_t *queue)
{
	const struct ot_fabric *f = d->f;
	uint32_t head = 0, tail = 0;

	d->hop[d->local].parent = -1;
	d->hop[d->local].reached = true;
	queue[tail++] = d->local;
	while (head < tail) {
		int32_t u = queue[head++];
		const struct ot_node *nu = &f->node[u];
		unsigned int p;

		if (u != d->local && nu->type != OT_NODE_SWITCH)
			continue;
		if (d->hop[u].hops >= DR_MAX_HOPS)
			continue;
		for (p = 1; p <= nu->nports; p++) {
			int32_t w = nu->port[p].peer;

			if (w < 0 || d->hop[w].reached)
				continue;
			if (u == d->local && nu->type != OT_NODE_SWITCH &&
			    p != d->local_port)
				continue;
			d->hop[w].reached = true;
			d->hop[w].parent = u;
			d->hop[w].out = p;
			d->hop[w].hops = d->hop[u].hops + 1;
			queue[tail++] = w;
		}
	}
}

/* The directed route to node n (to the port the BFS entered it by). */
void ot_drroutes_portid(const struct ot_drroutes *d, int32_t n,
			ib_portid_t *id)
{
	int32_t u = n;

	memset(id, 0, sizeof(*id));
	id->drpath.cnt = d->hop[n].hops;
	while (d->hop[u].parent >= 0) {
		id->drpath.p[d->hop[u].hops] = d->hop[u].out;
		u = d->hop[u].parent;
	}
}

/*
 * The directed route to port p of a CA or router n: the SMP must enter n
 * by p, since a CA answers SL2VL and PortInfo for the port it arrived on.
 * False when no switch (or the local port) leads to p.
 */
bool ot_drroutes_portid_to_port(const struct ot_drroutes *d, int32_t n,
				unsigned int p, ib_portid_t *id)
{
	const struct ot_port *pt = &d->f->node[n].port[p];
	int32_t peer = pt->peer;

	if (n == d->local && p == d->local_port) {
		ot_drroutes_portid(d, n, id);
		return true;
	}
	if (peer < 0 || !d->hop[peer].reached)
		return false;
	if (d->f->node[peer].type == OT_NODE_SWITCH) {
		if (d->hop[peer].hops >= DR_MAX_HOPS)
			return false;
	} else if (peer != d->local || pt->peer_port != d->local_port) {
		return false;
	}
	ot_drroutes_portid(d, peer, id);
	id->drpath.cnt++;
	id->drpath.p[id->drpath.cnt] = pt->peer_port;
	return true;
}

/* Which node and port the MAD port sits on: NodeInfo over a 0-hop route. */
static int find_local(struct ot_drroutes *d, struct ibmad_port *mad,
		      struct ot_error *err)
{
	uint8_t buf[IB_SMP_DATA_SIZE];
	ib_portid_t self;
	uint64_t guid;
	int status = 0;
	uint32_t i;

	memset(&self, 0, sizeof(self));
	memset(buf, 0, sizeof(buf));
	if (!smp_query_status_via(buf, &self, IB_ATTR_NODE_INFO, 0, 0, &status,
				  mad))
		return ot_error_set(err,
				    "SubnGet(NodeInfo) of the local port failed: MAD status 0x%x",
				    status);
	guid = mad_get_field64(buf, 0, IB_NODE_GUID_F);
	d->local_port = mad_get_field(buf, 0, IB_NODE_LOCAL_PORT_F);
	for (i = 0; i < d->f->nnodes; i++)
		if (d->f->node[i].guid == guid)
			break;
	if (i == d->f->nnodes)
		return ot_error_set(err,
				    "the local node 0x%016" PRIx64 " is not in the fabric",
				    guid);
	d->local = i;
	return 0;
}

int ot_drroutes_plan(struct ot_drroutes *d, const struct ot_fabric *f,
		     struct ibmad_port *mad, struct ot_error *err)
{
	int32_t *queue;

	memset(d, 0, sizeof(*d));
	d->f = f;
	d->hop = calloc(f->nnodes ? f->nnodes : 1, sizeof(*d->hop));
	queue = calloc(f->nnodes ? f->nnodes : 1, sizeof(*queue));
	if (!d->hop || !queue) {
		free(queue);
		return ot_error_nomem(err, "directed routes");
	}
	if (find_local(d, mad, err)) {
		free(queue);
		return -1;
	}
	plan(d, queue);
	free(queue);
	return 0;
}

void ot_drroutes_free(struct ot_drroutes *d)
{
	free(d->hop);
	d->hop = NULL;
}
