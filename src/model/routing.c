// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Routing tables (see routing.h).  Engines fill a routing; the plugin,
 * the tool and the checker read it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/routing.h"

struct ot_routing *ot_routing_new(const struct ot_fabric *f)
{
	struct ot_routing *r;
	uint32_t i;

	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->fabric = f;
	r->max_lid = f->max_lid;
	r->nvls = 1;
	r->lft = calloc(f->nnodes ? f->nnodes : 1, sizeof(*r->lft));
	r->label = calloc(f->nnodes ? f->nnodes : 1, sizeof(*r->label));
	r->sl2vl = calloc(f->nnodes ? f->nnodes : 1, sizeof(*r->sl2vl));
	if (!r->lft || !r->label || !r->sl2vl)
		goto fail;
	for (i = 0; i < f->nnodes; i++) {
		if (f->node[i].type != OT_NODE_SWITCH)
			continue;
		r->lft[i] = malloc((size_t)f->max_lid + 1);
		if (!r->lft[i])
			goto fail;
		memset(r->lft[i], OT_NO_PORT, (size_t)f->max_lid + 1);
	}
	return r;
fail:
	ot_routing_free(r);
	return NULL;
}

void ot_routing_free(struct ot_routing *r)
{
	uint32_t i;

	if (!r)
		return;
	for (i = 0; i < r->fabric->nnodes; i++) {
		if (r->lft)
			free(r->lft[i]);
		if (r->label)
			free(r->label[i]);
		if (r->sl2vl)
			free(r->sl2vl[i]);
	}
	free(r->lft);
	free(r->label);
	free(r->sl2vl);
	if (r->free_priv)
		r->free_priv(r->priv);
	if (r->promise.free_ctx)
		r->promise.free_ctx(r->promise.ctx);
	free(r);
}

uint8_t *ot_routing_sl2vl_new(struct ot_routing *r, uint32_t n)
{
	size_t np = r->fabric->node[n].nports;

	r->sl2vl[n] = calloc((np + 1) * (np + 1), OT_NUM_SLS);
	return r->sl2vl[n];
}

int ot_routing_set_label(struct ot_routing *r, int n, const char *fmt, ...)
{
	char buf[128];
	va_list ap;
	char *s;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	s = strdup(buf);
	if (!s)
		return -1;
	free(r->label[n]);
	r->label[n] = s;
	return 0;
}

uint8_t ot_routing_vl(const struct ot_routing *r, int n, unsigned int in_port,
		      unsigned int out_port, unsigned int sl)
{
	unsigned int np = r->fabric->node[n].nports;

	if (!r->sl2vl[n] || in_port > np || out_port > np ||
	    sl >= OT_NUM_SLS)
		return 0;
	return r->sl2vl[n][ot_sl2vl_index(np, in_port, out_port, sl)];
}

uint8_t ot_routing_path_sl(const struct ot_routing *r, uint16_t slid,
			   uint16_t dlid)
{
	return r->path_sl ? r->path_sl(r, slid, dlid) : 0;
}

double ot_now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

void ot_routing_phase(struct ot_routing *r, const char *name, double start)
{
	if (r->nphases >= OT_MAX_PHASES)
		return;
	r->phase[r->nphases].name = name;
	r->phase[r->nphases].ms = ot_now_ms() - start;
	r->nphases++;
}

/* Flows of w from switch x toward lid, through r's tables, onto load. */
static void uniform_walk(const struct ot_routing *r, const uint32_t *base,
			 int64_t *load, int32_t x, uint32_t lid, int64_t w,
			 bool ca_links)
{
	const struct ot_fabric *f = r->fabric;
	uint32_t hops;

	for (hops = 0; hops < f->nnodes && r->lft[x]; hops++) {
		unsigned int p = r->lft[x][lid];
		int32_t y;

		if (!p || p == OT_NO_PORT || p > f->node[x].nports)
			return;
		y = f->node[x].port[p].peer;
		if (y < 0 || (!ot_is_switch(f, y) && !ca_links))
			return;
		load[base[x] + p - 1] += w;
		if (!ot_is_switch(f, y))
			return;
		x = y;
	}
}

int64_t ot_routing_uniform_busiest(const struct ot_routing *r,
				   unsigned int flags, uint64_t max_pairs)
{
	const struct ot_fabric *f = r->fabric;
	uint32_t *base, *cas, *src, nsrc = 0, n, lid, i;
	uint64_t nports = 0;
	int64_t *load, m = -1;

	base = malloc(((size_t)f->nnodes + 1) * sizeof(*base));
	cas = calloc((size_t)f->nnodes + 1, sizeof(*cas));
	src = malloc(((size_t)f->nnodes + 1) * sizeof(*src));
	if (!base || !cas || !src)
		goto out;
	base[0] = 0;
	for (n = 0; n < f->nnodes; n++) {
		base[n + 1] = base[n] + f->node[n].nports;
		if (ot_is_switch(f, (int)n))
			continue;
		for (unsigned int p = 1; p <= f->node[n].nports; p++) {
			int32_t q = f->node[n].port[p].peer;

			if (q >= 0 && ot_is_switch(f, q)) {
				cas[q]++;
				nports++;
			}
		}
	}
	if (max_pairs && nports * nports > max_pairs)
		goto out;
	for (n = 0; n < f->nnodes; n++)
		if (cas[n])
			src[nsrc++] = n;
	load = calloc((size_t)base[f->nnodes] + 1, sizeof(*load));
	if (!load)
		goto out;
	for (lid = 1; lid <= f->max_lid; lid++) {
		const struct ot_lid_owner *o = &f->lid_owner[lid];
		const struct ot_port *pt;
		int32_t t;

		if (o->node < 0 || ot_is_switch(f, o->node))
			continue;
		pt = &f->node[o->node].port[o->port];
		t = pt->peer;
		if (t < 0 || !ot_is_switch(f, t) ||
		    ((flags & OT_UNIFORM_BASE_LIDS) && lid != pt->lid))
			continue;
		for (i = 0; i < nsrc; i++)
			uniform_walk(r, base, load, (int32_t)src[i], lid,
				     cas[src[i]] - ((int32_t)src[i] == t),
				     flags & OT_UNIFORM_CA_LINKS);
	}
	m = 0;
	for (n = 0; n < base[f->nnodes]; n++)
		m = load[n] > m ? load[n] : m;
	free(load);
out:
	free(base);
	free(cas);
	free(src);
	return m;
}
