/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The one pseudo-random generator of osmtopo: splitmix64, tiny, public
 * domain and defined by its arithmetic alone, so a seed gives the same
 * fabric (generators) and the same permutation (traffic patterns) on every
 * machine and C library.
 */
#ifndef OSMTOPO_PRNG_H
#define OSMTOPO_PRNG_H

#include <stdint.h>

struct ot_prng {
	uint64_t state;
};

/*
 * splitmix64's output function: every bit of x stirs every bit of the
 * result.  Also the one hash of osmtopo (hashmap.h, digests).
 */
static inline uint64_t ot_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint64_t ot_prng_next(struct ot_prng *r)
{
	return ot_mix64(r->state += 0x9e3779b97f4a7c15ull);
}

/* Uniform in [0, bound): rejection keeps it unbiased and portable. */
static inline uint32_t ot_prng_below(struct ot_prng *r, uint32_t bound)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
	uint64_t x;

	do {
		x = ot_prng_next(r);
	} while (x >= limit);
	return (uint32_t)(x % bound);
}

/* Fisher-Yates over perm[0..n), which holds a permutation already. */
static inline void ot_prng_shuffle(struct ot_prng *r, uint32_t *perm,
				   uint32_t n)
{
	uint32_t i, j, t;

	for (i = n; i > 1; i--) {
		j = ot_prng_below(r, i);
		t = perm[i - 1];
		perm[i - 1] = perm[j];
		perm[j] = t;
	}
}

#endif
