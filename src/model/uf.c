// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Union-find (see uf.h): one allocation holding the parent and set-size
 * arrays, so that a recognizer's scratch set can be reset and reused many
 * times per mapping at the cost of one pass.
 */
#include <stdlib.h>

#include "model/uf.h"

struct ot_uf {
	uint32_t n;
	uint32_t *parent; /* parent[x] == x for a root */
	uint32_t *size;   /* for a root: elements in its set */
};

struct ot_uf *ot_uf_new(uint32_t n)
{
	struct ot_uf *uf;

	uf = malloc(sizeof(*uf) + 2 * ((size_t)n + 1) * sizeof(uint32_t));
	if (!uf)
		return NULL;
	uf->n = n;
	uf->parent = (uint32_t *)(uf + 1);
	uf->size = uf->parent + n + 1;
	ot_uf_reset(uf);
	return uf;
}

void ot_uf_free(struct ot_uf *uf)
{
	free(uf);
}

void ot_uf_reset(struct ot_uf *uf)
{
	uint32_t i;

	for (i = 0; i < uf->n; i++) {
		uf->parent[i] = i;
		uf->size[i] = 1;
	}
}

uint32_t ot_uf_find(struct ot_uf *uf, uint32_t x)
{
	/* Path halving: every node on the way skips to its grandparent. */
	while (uf->parent[x] != x) {
		uf->parent[x] = uf->parent[uf->parent[x]];
		x = uf->parent[x];
	}
	return x;
}

bool ot_uf_union(struct ot_uf *uf, uint32_t x, uint32_t y)
{
	uint32_t big, small;

	x = ot_uf_find(uf, x);
	y = ot_uf_find(uf, y);
	if (x == y)
		return false;
	/* The larger set absorbs the smaller; the lower root on a tie. */
	if (uf->size[x] > uf->size[y] ||
	    (uf->size[x] == uf->size[y] && x < y)) {
		big = x;
		small = y;
	} else {
		big = y;
		small = x;
	}
	uf->parent[small] = big;
	uf->size[big] += uf->size[small];
	return true;
}

bool ot_uf_same(struct ot_uf *uf, uint32_t x, uint32_t y)
{
	return ot_uf_find(uf, x) == ot_uf_find(uf, y);
}
