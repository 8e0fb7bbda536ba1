/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Traffic patterns, written once for the checker's link loads
 * (check/traffic.h) and the packet simulator (sim/sim.h): the pattern
 * names, the CAs numbered 0..N-1 in a chosen order, and who sends to
 * whom in each permutation.  Below both, so that an analytic figure and
 * a simulated one always mean the same traffic.
 *
 * The CAs are the CA ports with a LID (model/endpoints.h), numbered in
 * the order of enum ot_ca_order.  Patterns, on b = ceil(log2 N) bits
 * where they are bit patterns:
 *   uniform     every CA sends to each other CA alike
 *   complement  i -> ~i (the b bits complemented)
 *   reverse     i -> i with its b bits in reverse order
 *   shuffle     i -> i rotated left by one bit
 *   transpose   i -> i rotated right by b/2 bits (floor)
 *   rotation    i -> (i + floor(N/2)) mod N
 *   neighbor    i -> (i + 1) mod N (nearest-neighbour shift)
 *   random      seeded random permutations, the same on every machine
 *   ebb         effective bisection bandwidth as Hoefler's ORCS and
 *               Netgauge define it: random bisections (the CAs split at
 *               random into two halves of floor(N/2), each CA of one half
 *               paired with one of the other by a random perfect
 *               matching, traffic both ways; with N odd one CA sends
 *               nothing); each flow gets 1 / the load of the most loaded
 *               cable on its path, averaged over the flows and the
 *               bisections ("ebb:K": K bisections, default 100; not in
 *               "all")
 * In the permutations a CA whose partner is itself or not below N sends
 * nothing.
 */
#ifndef OSMTOPO_TRAFFIC_PATTERN_H
#define OSMTOPO_TRAFFIC_PATTERN_H

#include <stdint.h>

#include "model/endpoints.h"
#include "model/error.h"
#include "model/fabric.h"

enum ot_pattern_kind {
	OT_PATTERN_UNIFORM,
	OT_PATTERN_COMPLEMENT,
	OT_PATTERN_REVERSE,
	OT_PATTERN_SHUFFLE,
	OT_PATTERN_TRANSPOSE,
	OT_PATTERN_ROTATION,
	OT_PATTERN_NEIGHBOR,
	OT_PATTERN_RANDOM,
	OT_PATTERN_EBB,
	OT_PATTERN_COUNT
};

/* "all": every pattern but ebb (whose many bisections cost more). */
#define OT_PATTERNS_ALL ((1u << OT_PATTERN_EBB) - 1)
#define OT_PATTERNS_ANY ((1u << OT_PATTERN_COUNT) - 1)
#define OT_EBB_DEFAULT_BISECTIONS 100
#define OT_EBB_MAX_BISECTIONS 1000000
#define OT_NO_PARTNER UINT32_MAX

/* How the CAs are numbered for the patterns. */
enum ot_ca_order {
	/*
	 * Fabric node order, then port number: net file order, which for
	 * generated fabrics follows the coordinates (CA[0,0], CA[0,1], ...).
	 */
	OT_CA_ORDER_FILE,
	/* By port GUID (node GUID + port where a port has none). */
	OT_CA_ORDER_GUID,
};

/*
 * Pattern names, and a comma-separated list of them ("all" for every
 * one but ebb) as a bit set.  "ebb:K" sets *bisections to K when
 * bisections is not NULL (plain "ebb" leaves it); with bisections NULL
 * ebb is refused.  0, or -1 with err naming the unknown word.
 */
const char *ot_pattern_name(enum ot_pattern_kind kind);
int ot_pattern_parse_list(const char *list, uint32_t *mask,
			  unsigned int *bisections, struct ot_error *err);
const char *ot_ca_order_name(enum ot_ca_order order);

/*
 * The CAs of the patterns: order[i] is the index in e->ep of CA i
 * (e->nep entries), by node then port (e's own order) or by port GUID
 * (node GUID + port where the port has none; node index, port on ties).
 */
void ot_ca_order_list(const struct ot_fabric *f, const struct ot_endpoints *e,
		      enum ot_ca_order order, uint32_t *out);

/*
 * partner[i] of CA i in permutation kind over n CAs (OT_NO_PARTNER: i
 * sends nothing); perm is n words of scratch (random, ebb).  For uniform
 * every partner is OT_NO_PARTNER.  For ebb, one bisection: seed from
 * ot_pattern_bisection_seed(), partner[partner[i]] == i.
 */
void ot_pattern_partners(enum ot_pattern_kind kind, uint32_t n, uint64_t seed,
			 uint32_t *partner, uint32_t *perm);

/* The seed of bisection k (0, 1, ...) of ebb with the run's seed. */
uint64_t ot_pattern_bisection_seed(uint64_t seed, unsigned int k);

#endif
