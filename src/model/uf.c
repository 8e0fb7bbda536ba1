// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Union-find (see uf.h): one allocation holding the parent and set-size
 * arrays, so that a recognizer's scratch set can be reset and reused many
 * times per mapping at the cost of one pass.
 */
#include <stdlib.h>

#include "model/error.h"
#include "model/fabric.h"
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

/* A set before numbering: its root, size and smallest (GUID, node). */
struct uf_class {
	uint32_t root, size;
	uint64_t guid;
	int32_t first;
};

static int cmp_class(const void *a, const void *b)
{
	const struct uf_class *x = a, *y = b;

	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return (x->first > y->first) - (x->first < y->first);
}

int ot_uf_number_switches(const struct ot_fabric *f, struct ot_uf *uf,
			  int32_t *group, uint32_t *nsets, uint32_t *largest,
			  const char *who, struct ot_error *err)
{
	struct uf_class *cl = calloc((size_t)f->nnodes + 1, sizeof(*cl));
	int32_t *of = malloc(((size_t)f->nnodes + 1) * sizeof(*of));
	uint32_t n, ncl = 0, G;

	if (!cl || !of) {
		free(cl);
		free(of);
		return ot_error_nomem(err, who);
	}
	for (n = 0; n < f->nnodes; n++)
		of[n] = -1;
	for (n = 0; n < f->nnodes; n++) {
		uint32_t r;

		if (!ot_is_switch(f, n))
			continue;
		r = ot_uf_find(uf, n);
		if (of[r] < 0) {
			of[r] = ncl;
			cl[ncl++] = (struct uf_class){ r, 0, f->node[n].guid,
						       (int32_t)n };
		}
		cl[of[r]].size++;
		if (f->node[n].guid < cl[of[r]].guid)
			cl[of[r]].guid = f->node[n].guid;
	}
	qsort(cl, ncl, sizeof(*cl), cmp_class);
	for (G = 0; G < ncl; G++)
		of[cl[G].root] = G;
	*nsets = ncl;
	*largest = ncl ? cl[0].size : 0;
	for (n = 0; n < f->nnodes; n++)
		if (ot_is_switch(f, n))
			group[n] = of[ot_uf_find(uf, n)];
	free(cl);
	free(of);
	return 0;
}
