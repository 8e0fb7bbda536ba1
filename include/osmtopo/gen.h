/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Fabric generators behind `osmtopo gen`: they build the model of a
 * textbook topology, which ot_netfile_write() turns into an ibsim net file.
 * Node descriptions carry the intended coordinates (for people and tests;
 * engines never read them).
 */
#ifndef OSMTOPO_GEN_H
#define OSMTOPO_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include <osmtopo/error.h>
#include <osmtopo/fabric.h>

/* k-ary n-direct 1-indirect KNS (seed 000). */
struct ot_kns_params {
	unsigned int k;     /* routers per dimension (>= 2) */
	unsigned int n;     /* dimensions (>= 1) */
	unsigned int cas;   /* CAs per router (>= 1) */
	unsigned int links; /* parallel cables per router-switch pair (>= 1) */
	unsigned int radix; /* ports per switch; 0 = the fewest that fit */
	bool shuffle;       /* permute ports and node order with seed */
	uint64_t seed;
};

/*
 * Routers are "R[c(n-1),...,c0]", switches "S[d,p]" as in the seed's
 * figures (with p the router coordinates minus dimension d, as a number),
 * CAs "CA[c...]/i".  Without shuffle, ports are used in order: a router's
 * CAs first, then dimension 0's cables, ...  Not indexed (no LIDs yet).
 * NULL with err set when the parameters do not fit the radix.
 */
struct ot_fabric *ot_gen_kns(const struct ot_kns_params *p,
			     struct ot_error *err);

#endif
