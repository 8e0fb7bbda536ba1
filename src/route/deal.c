// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The dealing order of destinations (see deal.h).
 */
#include <stdlib.h>

#include "route/deal.h"

static int cmp_key(const void *a, const void *b)
{
	const struct ot_deal_key *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->lid < y->lid ? -1 : x->lid > y->lid;
}

void ot_deal_sort(struct ot_deal_key *keys, uint32_t n)
{
	qsort(keys, n, sizeof(*keys), cmp_key);
}
