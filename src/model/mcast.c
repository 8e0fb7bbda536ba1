// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Multicast groups and forwarding tables (see mcast.h).
 */
#include <stdlib.h>
#include <string.h>

#include "model/mcast.h"

struct ot_mcast *ot_mcast_new(const struct ot_fabric *f, uint32_t nmlids)
{
	struct ot_mcast *mc = calloc(1, sizeof(*mc));
	uint32_t n;

	if (!mc)
		return NULL;
	mc->fabric = f;
	mc->nmlids = nmlids;
	mc->mft = calloc(f->nnodes ? f->nnodes : 1, sizeof(*mc->mft));
	if (!mc->mft)
		goto oom;
	for (n = 0; n < f->nnodes; n++) {
		if (f->node[n].type != OT_NODE_SWITCH)
			continue;
		mc->mft[n] = calloc((size_t)(nmlids ? nmlids : 1) *
				    ot_mcast_words(f->node[n].nports),
				    sizeof(**mc->mft));
		if (!mc->mft[n])
			goto oom;
	}
	return mc;
oom:
	ot_mcast_free(mc);
	return NULL;
}

void ot_mcast_free(struct ot_mcast *mc)
{
	uint32_t i;

	if (!mc)
		return;
	for (i = 0; mc->mft && i < mc->fabric->nnodes; i++)
		free(mc->mft[i]);
	free(mc->mft);
	for (i = 0; i < mc->ngroups; i++)
		free(mc->group[i].member);
	free(mc->group);
	free(mc);
}

struct ot_mcast_group *ot_mcast_add_group(struct ot_mcast *mc, uint16_t mlid,
					  const uint8_t mgid[16], uint8_t sl)
{
	struct ot_mcast_group *v, *g;

	v = realloc(mc->group, (mc->ngroups + 1) * sizeof(*v));
	if (!v)
		return NULL;
	mc->group = v;
	g = &v[mc->ngroups++];
	memset(g, 0, sizeof(*g));
	g->mlid = mlid;
	memcpy(g->mgid, mgid, sizeof(g->mgid));
	g->sl = sl;
	return g;
}

int ot_mcast_add_member(struct ot_mcast_group *g, int32_t node, uint8_t port)
{
	struct ot_mcast_member *v;

	v = realloc(g->member, (g->nmembers + 1) * sizeof(*v));
	if (!v)
		return -1;
	g->member = v;
	v[g->nmembers].node = node;
	v[g->nmembers++].port = port;
	return 0;
}

static uint16_t *mft_word(const struct ot_mcast *mc, int32_t n, uint16_t mlid,
			  unsigned int p)
{
	const struct ot_fabric *f = mc->fabric;
	unsigned int words;

	if (n < 0 || (uint32_t)n >= f->nnodes || !mc->mft[n] ||
	    mlid < OT_MLID_BASE || mlid - OT_MLID_BASE >= mc->nmlids ||
	    p > f->node[n].nports)
		return NULL;
	words = ot_mcast_words(f->node[n].nports);
	return &mc->mft[n][(size_t)(mlid - OT_MLID_BASE) * words + p / 16];
}

bool ot_mcast_forwards(const struct ot_mcast *mc, int32_t n, uint16_t mlid,
		       unsigned int p)
{
	const uint16_t *w = mft_word(mc, n, mlid, p);

	return w && (*w >> (p % 16) & 1);
}

int ot_mcast_set(struct ot_mcast *mc, int32_t n, uint16_t mlid, unsigned int p,
		 bool on)
{
	uint16_t *w = mft_word(mc, n, mlid, p);

	if (!w)
		return -1;
	if (on)
		*w |= (uint16_t)(1u << (p % 16));
	else
		*w &= (uint16_t)~(1u << (p % 16));
	return 0;
}
