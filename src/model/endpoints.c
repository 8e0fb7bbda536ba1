// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * CA ports, sources by switch and destination LIDs (endpoints.h).
 */
#include <stdlib.h>
#include <string.h>

#include "model/endpoints.h"

static int dest_cmp(const void *a, const void *b)
{
	const struct ot_dest *x = a, *y = b;

	if (x->attach != y->attach)
		return x->attach < y->attach ? -1 : 1;
	return (int)x->lid - (int)y->lid;
}

/* The CA ports with a LID, and the count of sources per switch. */
static void list_endpoints(struct ot_endpoints *e, const struct ot_fabric *f,
			   uint32_t *ndest)
{
	uint32_t n, i = 0;
	unsigned int p;

	for (n = 0; n < f->nnodes; n++) {
		if (f->node[n].type != OT_NODE_CA)
			continue;
		for (p = 1; p <= f->node[n].nports; p++) {
			const struct ot_port *pt = &f->node[n].port[p];
			struct ot_endpoint *x;

			if (!pt->lid)
				continue;
			x = &e->ep[i++];
			x->node = n;
			x->port = p;
			x->lid = pt->lid;
			x->nlids = ot_port_nlids(pt);
			x->sw = -1;
			*ndest += x->nlids;
			if (pt->peer >= 0 && ot_is_switch(f, pt->peer)) {
				x->sw = pt->peer;
				x->sw_port = pt->peer_port;
				e->src_start[x->sw + 1]++;
			}
		}
	}
}

/* The sources by switch (CSR), from the counts list_endpoints() made. */
static void group_sources(struct ot_endpoints *e, const struct ot_fabric *f)
{
	uint32_t n, i;

	for (n = 0; n < f->nnodes; n++) {
		if (e->src_start[n + 1])
			e->src_switches[e->nsrc_switches++] = n;
		e->src_start[n + 1] += e->src_start[n];
	}
	/* fill the CSR; src_start[sw] is restored by the final shift */
	for (i = 0; i < e->nep; i++) {
		if (e->ep[i].sw < 0)
			e->odd_src[e->nodd++] = i;
		else
			e->src_list[e->src_start[e->ep[i].sw]++] = i;
	}
	for (n = f->nnodes; n > 0; n--)
		e->src_start[n] = e->src_start[n - 1];
	e->src_start[0] = 0;
}

int ot_endpoints_init(struct ot_endpoints *e, const struct ot_fabric *f)
{
	uint32_t n, i, ndest = 0;
	unsigned int p;

	memset(e, 0, sizeof(*e));
	for (n = 0; n < f->nnodes; n++) {
		if (f->node[n].type != OT_NODE_CA)
			continue;
		for (p = 1; p <= f->node[n].nports; p++)
			if (f->node[n].port[p].lid)
				e->nep++;
	}
	e->ep = calloc(e->nep ? e->nep : 1, sizeof(*e->ep));
	e->src_start = calloc(f->nnodes + 1, sizeof(*e->src_start));
	e->src_list = calloc(e->nep ? e->nep : 1, sizeof(*e->src_list));
	e->src_switches = calloc(f->nnodes ? f->nnodes : 1,
				 sizeof(*e->src_switches));
	e->odd_src = calloc(e->nep ? e->nep : 1, sizeof(*e->odd_src));
	if (!e->ep || !e->src_start || !e->src_list || !e->src_switches ||
	    !e->odd_src)
		goto oom;
	list_endpoints(e, f, &ndest);
	group_sources(e, f);

	e->dest = calloc(ndest ? ndest : 1, sizeof(*e->dest));
	if (!e->dest)
		goto oom;
	for (i = 0; i < e->nep; i++) {
		uint32_t l;

		for (l = 0; l < e->ep[i].nlids; l++) {
			struct ot_dest *dd = &e->dest[e->ndest++];

			dd->attach = e->ep[i].sw;
			dd->ep = i;
			dd->lid = e->ep[i].lid + l;
		}
	}
	qsort(e->dest, e->ndest, sizeof(*e->dest), dest_cmp);
	return 0;
oom:
	ot_endpoints_free(e);
	return -1;
}

void ot_endpoints_free(struct ot_endpoints *e)
{
	free(e->ep);
	free(e->dest);
	free(e->src_start);
	free(e->src_list);
	free(e->src_switches);
	free(e->odd_src);
	memset(e, 0, sizeof(*e));
}
