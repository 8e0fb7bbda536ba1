// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The Valiant layers' orders of groups (see valiant.h).
 */
#include "route/valiant.h"

#define EVERY_MIN 4
#define EVERY_MAX 16

uint32_t ot_valiant_rank(uint32_t ng, unsigned int l, uint32_t X)
{
	if (l == 2)
		return ng - 1 - X;
	if (l == 3)
		return (X + ng / 2) % ng;
	return X;
}

unsigned int ot_valiant_layer(uint32_t ng, uint32_t G, uint32_t H,
			      uint32_t I)
{
	unsigned int l;

	for (l = 1; l <= OT_VALIANT_LAYERS && I != G && I != H; l++)
		if (ot_valiant_rank(ng, l, I) > ot_valiant_rank(ng, l, G) &&
		    ot_valiant_rank(ng, l, I) > ot_valiant_rank(ng, l, H))
			return l;
	return 0;
}

bool ot_valiant_down(uint32_t ng, unsigned int l, uint32_t own,
		     uint32_t far)
{
	return ot_valiant_rank(ng, l, far) < ot_valiant_rank(ng, l, own);
}

uint32_t ot_valiant_every(uint32_t ng)
{
	uint32_t every = ng / 8;

	if (every < EVERY_MIN)
		every = EVERY_MIN;
	if (every > EVERY_MAX)
		every = EVERY_MAX;
	return every;
}
