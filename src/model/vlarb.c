// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* VL arbitration tables per port (see vlarb.h). */
#include <stdlib.h>

#include "model/vlarb.h"

struct ot_vlarb_tables *ot_vlarb_new(const struct ot_fabric *f)
{
	struct ot_vlarb_tables *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->fabric = f;
	t->port = calloc(f->nnodes ? f->nnodes : 1, sizeof(*t->port));
	if (!t->port) {
		free(t);
		return NULL;
	}
	return t;
}

void ot_vlarb_free(struct ot_vlarb_tables *t)
{
	uint32_t n;

	if (!t)
		return;
	for (n = 0; n < t->fabric->nnodes; n++)
		free(t->port[n]);
	free(t->port);
	free(t);
}

struct ot_vlarb_port *ot_vlarb_port(struct ot_vlarb_tables *t, int n,
				    unsigned int p)
{
	unsigned int np = t->fabric->node[n].nports;

	if (p > np)
		return NULL;
	if (!t->port[n]) {
		t->port[n] = calloc(np + 1u, sizeof(*t->port[n]));
		if (!t->port[n])
			return NULL;
	}
	return &t->port[n][p];
}

const struct ot_vlarb_port *ot_vlarb_get(const struct ot_vlarb_tables *t,
					 int n, unsigned int p)
{
	if (!t || n < 0 || (uint32_t)n >= t->fabric->nnodes || !t->port[n] ||
	    p > t->fabric->node[n].nports || !t->port[n][p].read)
		return NULL;
	return &t->port[n][p];
}
