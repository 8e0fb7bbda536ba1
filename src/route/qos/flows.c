// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The flows a routing puts on each output port, by class and VL (see
 * ot_qos_flows_count() in qos.h): what per-port VL arbitration splits a
 * class's weight by, and what the QoS check holds the tables read back
 * to.  Every CA port sends to every CA LID; each hop counts on the port
 * it leaves by, on its VL.
 */
#include <stdlib.h>
#include <string.h>

#include "route/qos/qos.h"

#define MAX_HOPS 64

static int sort_edges(const void *x, const void *y)
{
	const struct ot_qos_edge *a = x, *b = y;

	if (a->cls != b->cls)
		return a->cls < b->cls ? -1 : 1;
	if (a->a != b->a)
		return a->a < b->a ? -1 : 1;
	return a->b < b->b ? -1 : a->b > b->b;
}

static void unique_edges(struct ot_qos_flows *fl)
{
	size_t i, m = 0;

	if (!fl->nedges)
		return;
	qsort(fl->edge, fl->nedges, sizeof(*fl->edge), sort_edges);
	for (i = 1; i < fl->nedges; i++)
		if (sort_edges(&fl->edge[m], &fl->edge[i]))
			fl->edge[++m] = fl->edge[i];
	fl->nedges = m + 1;
}

static int add_edge(struct ot_qos_flows *fl, uint32_t a, uint32_t b,
		    unsigned int c)
{
	struct ot_qos_edge *e;

	if (fl->nedges == fl->edge_cap) {
		unique_edges(fl);
		if (fl->nedges >= fl->edge_cap / 2) {
			fl->edge_cap = fl->edge_cap ? fl->edge_cap * 2 : 1024;
			e = realloc(fl->edge, fl->edge_cap * sizeof(*e));
			if (!e)
				return -1;
			fl->edge = e;
		}
	}
	fl->edge[fl->nedges++] = (struct ot_qos_edge){ a, b, (uint8_t)c };
	return 0;
}

/* One flow from port sport of CA src to dlid on SL sl, class c. */
static int walk(const struct ot_routing *r, struct ot_qos_flows *fl,
		int src, unsigned int sport, uint16_t dlid, unsigned int sl,
		unsigned int c)
{
	const struct ot_fabric *f = r->fabric;
	unsigned int in = 0, out = sport, hops = 0, vl;
	int32_t node = src;
	uint32_t ch, prev = UINT32_MAX;

	fl->flows++;
	for (;;) {
		vl = ot_routing_vl(r, node, in, out, sl) & 0xf;
		ch = (fl->port0[node] + out) * OT_NUM_SLS + vl;
		fl->count[((size_t)fl->port0[node] + out) * OT_NUM_SLS *
				  fl->classes + c * OT_NUM_SLS + vl]++;
		if (fl->edges && prev != UINT32_MAX && add_edge(fl, prev, ch, c))
			return -1;
		prev = ch;
		in = f->node[node].port[out].peer_port;
		node = f->node[node].port[out].peer;
		if (node < 0 || !ot_is_switch(f, node) || ++hops > MAX_HOPS)
			break;
		out = r->lft[node][dlid];
		if (out == 0 || out > f->node[node].nports)
			break;
	}
	if (node < 0 || ot_fabric_lid_node(f, dlid) != node)
		fl->lost++;
	return 0;
}

/* The SL and class of one flow, and the walk (every class for -1). */
static int flow(const struct ot_routing *r, const struct ot_qos_table *t,
		const struct ot_qos_layers *q, ot_qos_pair_class pick,
		void *ctx, struct ot_qos_flows *fl, int src,
		unsigned int sport, uint16_t dlid)
{
	uint16_t slid = r->fabric->node[src].port[sport].lid;
	unsigned int c, layer, sl;
	int want;

	if (!pick) {
		sl = ot_routing_path_sl(r, slid, dlid) & 0xf;
		ot_qos_sl_layer(q, sl, &c, &layer);
		return walk(r, fl, src, sport, dlid, sl, c);
	}
	want = pick(ctx, src, sport, dlid);
	for (c = 0; c < t->nclasses; c++) {
		if (want >= 0 && (unsigned int)want != c)
			continue;
		sl = ot_qos_path_sl(q, r, t->cls[c].sl, slid, dlid);
		if (walk(r, fl, src, sport, dlid, sl, c))
			return -1;
	}
	return 0;
}

static int flows_alloc(const struct ot_fabric *f, unsigned int classes,
		       struct ot_qos_flows *fl)
{
	size_t nports = 0;
	uint32_t n;

	fl->port0 = calloc(f->nnodes ? f->nnodes : 1, sizeof(*fl->port0));
	if (!fl->port0)
		return -1;
	for (n = 0; n < f->nnodes; n++) {
		fl->port0[n] = (uint32_t)nports;
		nports += f->node[n].nports + 1u;
	}
	fl->count = calloc((nports ? nports : 1) * OT_NUM_SLS * classes,
			   sizeof(*fl->count));
	return fl->count ? 0 : -1;
}

int ot_qos_flows_count(const struct ot_routing *r,
		       const struct ot_qos_table *t,
		       const struct ot_qos_layers *q, ot_qos_pair_class pick,
		       void *ctx, struct ot_qos_flows *out,
		       struct ot_error *err)
{
	const struct ot_fabric *f = r->fabric;
	bool edges = out->edges;
	unsigned int p;
	uint32_t n, d;

	memset(out, 0, sizeof(*out));
	out->fabric = f;
	out->edges = edges;
	out->classes = t->nclasses ? t->nclasses : 1;
	if (flows_alloc(f, out->classes, out))
		goto nomem;
	for (n = 0; n < f->nnodes; n++) {
		if (ot_is_switch(f, (int)n))
			continue;
		for (p = 1; p <= f->node[n].nports; p++) {
			if (!f->node[n].port[p].lid ||
			    f->node[n].port[p].peer < 0)
				continue;
			for (d = 1; d <= f->max_lid; d++) {
				int dn = ot_fabric_lid_node(f, d);

				if (dn < 0 || ot_is_switch(f, dn) ||
				    (dn == (int)n &&
				     f->lid_owner[d].port == p))
					continue;
				if (flow(r, t, q, pick, ctx, out, (int)n, p,
					 (uint16_t)d))
					goto nomem;
			}
		}
	}
	unique_edges(out);
	return 0;
nomem:
	ot_qos_flows_free(out);
	return ot_error_nomem(err, "qos flows");
}

void ot_qos_flows_free(struct ot_qos_flows *fl)
{
	free(fl->port0);
	free(fl->count);
	free(fl->edge);
	memset(fl, 0, sizeof(*fl));
}
