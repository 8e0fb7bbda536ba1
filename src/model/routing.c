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
