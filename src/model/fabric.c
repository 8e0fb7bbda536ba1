// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The fabric model (see fabric.h): nodes, cables and LIDs, with a
 * LID index built once the fabric is complete.  First step of the flow;
 * every other part of osmtopo reads it.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model/fabric.h"

struct ot_fabric *ot_fabric_new(void)
{
	return calloc(1, sizeof(struct ot_fabric));
}

void ot_fabric_free(struct ot_fabric *f)
{
	uint32_t i;

	if (!f)
		return;
	for (i = 0; i < f->nnodes; i++) {
		free(f->node[i].desc);
		free(f->node[i].port);
	}
	free(f->node);
	free(f->lid_owner);
	free(f);
}

const char *ot_node_type_str(enum ot_node_type type)
{
	switch (type) {
	case OT_NODE_SWITCH:
		return "Switch";
	case OT_NODE_CA:
		return "Ca";
	case OT_NODE_ROUTER:
		return "Rt";
	}
	return "?";
}

int ot_fabric_add_node(struct ot_fabric *f, enum ot_node_type type,
		       unsigned int nports, uint64_t guid, const char *desc,
		       struct ot_error *err)
{
	struct ot_node *n;
	unsigned int i;

	if (nports < 1 || nports > OT_MAX_PORTS)
		return ot_error_set(err, "node \"%s\": %u ports (1..%u)",
				    desc ? desc : "", nports, OT_MAX_PORTS);
	if (f->nnodes == f->cap) {
		uint32_t cap = f->cap ? 2 * f->cap : 64;
		struct ot_node *grown;

		grown = realloc(f->node, cap * sizeof(*grown));
		if (!grown)
			return ot_error_nomem(err, "fabric");
		f->node = grown;
		f->cap = cap;
	}
	n = &f->node[f->nnodes];
	memset(n, 0, sizeof(*n));
	n->type = type;
	n->nports = nports;
	n->guid = guid;
	n->desc = strdup(desc ? desc : "");
	n->port = calloc(nports + 1, sizeof(*n->port));
	if (!n->desc || !n->port) {
		free(n->desc);
		free(n->port);
		return ot_error_nomem(err, "fabric");
	}
	for (i = 0; i <= nports; i++)
		n->port[i].peer = -1;
	return f->nnodes++;
}

static int check_port(const struct ot_fabric *f, int n, unsigned int p,
		      struct ot_error *err)
{
	if (n < 0 || (uint32_t)n >= f->nnodes)
		return ot_error_set(err, "no node %d", n);
	if (p < 1 || p > f->node[n].nports)
		return ot_error_set(err, "node \"%s\" has no port %u",
				    f->node[n].desc, p);
	return 0;
}

int ot_fabric_link(struct ot_fabric *f, int a, unsigned int pa, int b,
		   unsigned int pb, struct ot_error *err)
{
	struct ot_port *x, *y;

	if (check_port(f, a, pa, err) || check_port(f, b, pb, err))
		return -1;
	if (a == b && pa == pb)
		return ot_error_set(err, "node \"%s\" port %u cabled to itself",
				    f->node[a].desc, pa);
	x = &f->node[a].port[pa];
	y = &f->node[b].port[pb];
	if (x->peer >= 0 && !(x->peer == b && x->peer_port == pb))
		return ot_error_set(err, "node \"%s\" port %u cabled twice",
				    f->node[a].desc, pa);
	if (y->peer >= 0 && !(y->peer == a && y->peer_port == pa))
		return ot_error_set(err, "node \"%s\" port %u cabled twice",
				    f->node[b].desc, pb);
	x->peer = b;
	x->peer_port = pb;
	y->peer = a;
	y->peer_port = pa;
	return 0;
}

struct ot_fabric *ot_fabric_copy_cables(const struct ot_fabric *f,
					ot_cable_keep_fn keep, const void *ctx,
					struct ot_error *err)
{
	struct ot_fabric *g = ot_fabric_new();
	uint32_t i;
	unsigned int p;

	if (!g)
		return NULL;
	for (i = 0; i < f->nnodes; i++)
		if (ot_fabric_add_node(g, f->node[i].type, f->node[i].nports,
				       f->node[i].guid, f->node[i].desc,
				       err) < 0)
			goto fail;
	for (i = 0; i < f->nnodes; i++) {
		for (p = 0; p <= f->node[i].nports; p++) {
			const struct ot_port *pt = &f->node[i].port[p];
			int32_t q = pt->peer;

			if (pt->lid && ot_fabric_set_lid(g, (int)i, p, pt->lid,
							 pt->lmc, err))
				goto fail;
			if (q < 0 || (uint32_t)q < i ||
			    ((uint32_t)q == i && pt->peer_port < p) ||
			    !keep(f, i, p, (uint32_t)q, pt->peer_port, ctx))
				continue;
			if (ot_fabric_link(g, (int)i, p, q, pt->peer_port, err))
				goto fail;
		}
	}
	return g;
fail:
	ot_fabric_free(g);
	return NULL;
}

struct ot_fabric *ot_fabric_done(struct ot_fabric *g, int error,
				 struct ot_error *err)
{
	if (!error && !ot_fabric_index(g, err))
		return g;
	ot_fabric_free(g);
	return NULL;
}

int ot_fabric_set_lid(struct ot_fabric *f, int node, unsigned int port,
		      uint16_t lid, uint8_t lmc, struct ot_error *err)
{
	if (node < 0 || (uint32_t)node >= f->nnodes ||
	    port > f->node[node].nports)
		return ot_error_set(err, "no port %u on node %d", port, node);
	if (lmc > 7)
		return ot_error_set(err, "node \"%s\" port %u: LMC %u > 7",
				    f->node[node].desc, port, lmc);
	f->node[node].port[port].lid = lid;
	f->node[node].port[port].lmc = lmc;
	return 0;
}

static bool port_needs_lid(const struct ot_node *n, unsigned int p)
{
	if (n->type == OT_NODE_SWITCH)
		return p == 0;
	return p > 0 && n->port[p].peer >= 0;
}

uint32_t ot_fabric_assign_lids(struct ot_fabric *f)
{
	uint32_t next = 1, i, left = 0;
	unsigned int p;

	for (i = 0; i < f->nnodes; i++)
		for (p = 0; p <= f->node[i].nports; p++) {
			const struct ot_port *pt = &f->node[i].port[p];
			uint32_t end = pt->lid + ot_port_nlids(pt);

			if (pt->lid && end > next)
				next = end;
		}
	for (i = 0; i < f->nnodes; i++)
		for (p = 0; p <= f->node[i].nports; p++) {
			struct ot_port *pt = &f->node[i].port[p];

			unsigned int nl = 1u << pt->lmc;

			if (pt->lid || !port_needs_lid(&f->node[i], p))
				continue;
			/* as OpenSM lays them out: base LIDs aligned to 2^lmc */
			next = (next + nl - 1) & ~(nl - 1);
			if (next + nl - 1 > OT_MAX_UCAST_LID) {
				left++;
				continue;
			}
			pt->lid = next;
			next += nl;
		}
	return left;
}

int ot_fabric_set_ca_lmc(struct ot_fabric *f, uint8_t lmc,
			 struct ot_error *err)
{
	uint32_t i;
	unsigned int p;

	if (lmc > 7)
		return ot_error_set(err, "LMC %u > 7", lmc);
	for (i = 0; i < f->nnodes; i++)
		for (p = 0; p <= f->node[i].nports; p++) {
			struct ot_port *pt = &f->node[i].port[p];

			pt->lid = 0;
			pt->lmc = f->node[i].type == OT_NODE_SWITCH ? 0 : lmc;
		}
	if (ot_fabric_assign_lids(f)) {
		uint32_t sw = 0, cas = 0;

		for (i = 0; i < f->nnodes; i++)
			for (p = 0; p <= f->node[i].nports; p++)
				if (port_needs_lid(&f->node[i], p))
					*(f->node[i].type == OT_NODE_SWITCH ?
						  &sw : &cas) += 1;
		return ot_error_set(err,
				    "LMC %u: %u switches and %u CA ports x %u LIDs need %" PRIu64 " LIDs, above the %u unicast LIDs",
				    lmc, sw, cas, 1u << lmc,
				    (uint64_t)sw + ((uint64_t)cas << lmc),
				    OT_MAX_UCAST_LID);
	}
	return ot_fabric_index(f, err);
}

int ot_fabric_index(struct ot_fabric *f, struct ot_error *err)
{
	uint32_t i, max = 0;
	unsigned int p, l;

	f->nswitches = 0;
	f->ncas = 0;
	for (i = 0; i < f->nnodes; i++) {
		const struct ot_node *n = &f->node[i];

		if (n->type == OT_NODE_SWITCH)
			f->nswitches++;
		else if (n->type == OT_NODE_CA)
			f->ncas++;
		for (p = 0; p <= n->nports; p++) {
			const struct ot_port *pt = &n->port[p];
			uint32_t end = pt->lid + ot_port_nlids(pt);

			if (pt->peer >= 0) {
				const struct ot_node *m;

				if ((uint32_t)pt->peer >= f->nnodes)
					return ot_error_set(err,
						"node \"%s\" port %u: bad peer",
						n->desc, p);
				m = &f->node[pt->peer];
				if (pt->peer_port < 1 ||
				    pt->peer_port > m->nports ||
				    m->port[pt->peer_port].peer != (int32_t)i ||
				    m->port[pt->peer_port].peer_port != p)
					return ot_error_set(err,
						"node \"%s\" port %u: cable to \"%s\" port %u is one-sided",
						n->desc, p, m->desc,
						pt->peer_port);
			}
			if (!pt->lid)
				continue;
			if (end - 1 > OT_MAX_UCAST_LID)
				return ot_error_set(err,
					"node \"%s\" port %u: LID %u beyond the unicast range",
					n->desc, p, end - 1);
			if (end - 1 > max)
				max = end - 1;
		}
	}
	free(f->lid_owner);
	f->lid_owner = malloc((max + 1) * sizeof(*f->lid_owner));
	if (!f->lid_owner)
		return ot_error_nomem(err, "fabric");
	for (l = 0; l <= max; l++)
		f->lid_owner[l].node = -1;
	f->max_lid = max;
	for (i = 0; i < f->nnodes; i++) {
		const struct ot_node *n = &f->node[i];

		for (p = 0; p <= n->nports; p++) {
			const struct ot_port *pt = &n->port[p];
			unsigned int nl = ot_port_nlids(pt);

			for (l = pt->lid; l < pt->lid + nl; l++) {
				struct ot_lid_owner *o = &f->lid_owner[l];

				if (o->node >= 0)
					return ot_error_set(err,
						"LID %u used by \"%s\" port %u and \"%s\" port %u",
						l, f->node[o->node].desc,
						o->port, n->desc, p);
				o->node = i;
				o->port = p;
			}
		}
	}
	return 0;
}

uint32_t ot_fabric_end_port_rank(const struct ot_fabric *f, int32_t sw,
				 int32_t ca, unsigned int cport)
{
	const struct ot_node *s = &f->node[sw];
	uint64_t guid = f->node[ca].guid;
	uint32_t rank = 0;
	unsigned int p;

	for (p = 1; p <= s->nports; p++) {
		int32_t x = s->port[p].peer;
		uint64_t g;

		if (x < 0 || ot_is_switch(f, x))
			continue;
		g = f->node[x].guid;
		if (g < guid || (g == guid && x < ca) ||
		    (x == ca && s->port[p].peer_port < cport))
			rank++;
	}
	return rank;
}
