// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Forwarding trees, walked once per switch and destination (fwdtree.h).
 */
#include <stdlib.h>
#include <string.h>

#include "model/fwdtree.h"

int ot_fwdtree_init(struct ot_fwdtree *t, const struct ot_fabric *f,
		    const struct ot_routing *r)
{
	size_t nn = f->nnodes ? f->nnodes : 1;

	t->f = f;
	t->r = r;
	t->cur = 0;
	t->norder = 0;
	t->col = NULL;
	t->col_first = 0;
	t->stamp = calloc(nn, sizeof(*t->stamp));
	t->state = calloc(nn, sizeof(*t->state));
	t->info = calloc(nn, sizeof(*t->info));
	t->outp = calloc(nn, sizeof(*t->outp));
	t->next = calloc(nn, sizeof(*t->next));
	t->order = calloc(nn, sizeof(*t->order));
	if (!t->stamp || !t->state || !t->info || !t->outp || !t->next ||
	    !t->order) {
		ot_fwdtree_free(t);
		return -1;
	}
	return 0;
}

void ot_fwdtree_free(struct ot_fwdtree *t)
{
	free(t->stamp);
	free(t->state);
	free(t->info);
	free(t->outp);
	free(t->next);
	free(t->order);
	free(t->col);
	t->col = NULL;
	t->stamp = NULL;
	t->state = NULL;
	t->info = NULL;
	t->outp = NULL;
	t->next = NULL;
	t->order = NULL;
}

void ot_fwdtree_begin(struct ot_fwdtree *t, int32_t dnode, uint8_t dport,
		      uint16_t dlid)
{
	t->dnode = dnode;
	t->dport = dport;
	t->dlid = dlid;
	t->cur++;
	t->norder = 0;
}

int ot_fwdtree_columns(struct ot_fwdtree *t, uint32_t first)
{
	const struct ot_routing *r = t->r;
	uint32_t n, len = 0;

	if (!t->col) {
		t->col = malloc((size_t)(t->f->nnodes ? t->f->nnodes : 1) *
				OT_FWD_BLOCK);
		if (!t->col)
			return -1;
	}
	if (first <= r->max_lid)
		len = r->max_lid + 1 - first;
	if (len > OT_FWD_BLOCK)
		len = OT_FWD_BLOCK;
	for (n = 0; n < t->f->nnodes; n++) {
		uint8_t *row = t->col + (size_t)n * OT_FWD_BLOCK;

		if (!r->lft[n])
			continue;
		memcpy(row, r->lft[n] + first, len);
		memset(row + len, OT_NO_PORT, OT_FWD_BLOCK - len);
	}
	t->col_first = first;
	return 0;
}

/* Switch x's LFT entry for the destination, from the columns if there. */
static uint8_t lft_entry(const struct ot_fwdtree *t, int32_t x)
{
	uint32_t k = (uint32_t)t->dlid - t->col_first;

	if (t->col && t->dlid >= t->col_first && k < OT_FWD_BLOCK)
		return t->col[(size_t)x * OT_FWD_BLOCK + k];
	return ot_fwd_lft(t->r, x, t->dlid);
}

/* One hop out of switch x: its outcome, or 0 to go on to t->next[x]. */
static uint8_t step(struct ot_fwdtree *t, int32_t x)
{
	const struct ot_node *n = &t->f->node[x];
	const struct ot_port *p;
	uint8_t out = lft_entry(t, x);

	t->outp[x] = out;
	t->next[x] = -1;
	if (out == 0 || out > n->nports || n->port[out].peer < 0)
		return OT_FWD_FAIL;
	p = &n->port[out];
	if (p->peer == t->dnode && p->peer_port == t->dport)
		return OT_FWD_REACH;
	if (!ot_is_switch(t->f, p->peer))
		return OT_FWD_FAIL;
	t->next[x] = p->peer;
	return 0;
}

/*
 * Follows the LFTs from s to a switch already resolved for this LID, the
 * destination port, a drop or a switch met twice (a loop).  Every switch
 * on the way gets the outcome, so all switches cost O(switches) together.
 */
uint8_t ot_fwdtree_resolve(struct ot_fwdtree *t, int32_t s)
{
	uint32_t first = t->norder, i;
	uint8_t st;
	int32_t val, x = s;

	for (;;) {
		if (t->stamp[x] == t->cur) {
			if (t->state[x] == OT_FWD_BUSY) {
				st = OT_FWD_LOOP;
				val = x;
			} else {
				st = t->state[x];
				val = t->info[x];
			}
			break;
		}
		t->stamp[x] = t->cur;
		t->state[x] = OT_FWD_BUSY;
		t->order[t->norder++] = x;
		st = step(t, x);
		if (st) {
			val = st == OT_FWD_REACH ? 0 : x;
			break;
		}
		x = t->next[x];
	}
	for (i = t->norder; i > first; i--) {
		x = t->order[i - 1];
		if (st == OT_FWD_REACH)
			val++;
		t->state[x] = st;
		t->info[x] = val;
	}
	return t->state[s];
}
