// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Shared orders and the GUID look-up (see sort.h).
 */
#include <stdlib.h>

#include "model/sort.h"

int ot_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_guid_idx(const void *a, const void *b)
{
	const struct ot_guid_idx *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

void ot_guid_idx_sort(struct ot_guid_idx *v, uint32_t n)
{
	if (n)
		qsort(v, n, sizeof(*v), cmp_guid_idx);
}

int64_t ot_guid_idx_find(const struct ot_guid_idx *v, uint32_t n,
			 uint64_t guid)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (v[mid].guid < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].guid == guid ? (int64_t)v[lo].idx : -1;
}

int ot_fabric_find_guid(const struct ot_fabric *f, uint64_t guid)
{
	uint32_t lo = 0, hi = f->nnodes;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (f->node[mid].guid < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < f->nnodes && f->node[lo].guid == guid ? (int)lo : -1;
}
