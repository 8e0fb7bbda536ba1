/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The one hash map of osmtopo: 64-bit keys to 32-bit values, open
 * addressing with linear probing, keys spread by ot_mix64() (prng.h),
 * removal by backward shift (no tombstones), at most half full.  For the
 * sparse numberings the channel dependency graph's searches need
 * (model/cdg.c: channel -> local number) and the multicast trees'
 * dependency counts (route/mcast.c: edge -> trees holding it).  Nothing
 * iterates over it, so no result depends on where a key lands.
 */
#ifndef OSMTOPO_MODEL_HASHMAP_H
#define OSMTOPO_MODEL_HASHMAP_H

#include <stdbool.h>
#include <stdint.h>

struct ot_hashmap {
	uint64_t *key; /* key + 1; 0: an empty slot */
	uint32_t *val;
	uint64_t mask; /* slots - 1 (a power of two); 0 before the first put */
	uint64_t n;    /* keys held */
};

/* Empty: "struct ot_hashmap m = { 0 };".  Frees the slots. */
void ot_hashmap_free(struct ot_hashmap *m);

/* The value of key (any but UINT64_MAX), or NULL when absent. */
uint32_t *ot_hashmap_get(const struct ot_hashmap *m, uint64_t key);

/*
 * The value of key, added with value val when absent (*added says
 * which, when not NULL); NULL when out of memory.  The pointer holds
 * until the next put or delete.
 */
uint32_t *ot_hashmap_put(struct ot_hashmap *m, uint64_t key, uint32_t val,
			 bool *added);

/* Removes key; false when it was absent. */
bool ot_hashmap_del(struct ot_hashmap *m, uint64_t key);

#endif
