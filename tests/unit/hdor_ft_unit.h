/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Helpers shared by the unit tests of hdor on fat-tree-line KNSs
 * (hdor_ft_unit.c; used by test_hdor_ft*.c).
 */
#ifndef OSMTOPO_HDOR_FT_UNIT_H
#define OSMTOPO_HDOR_FT_UNIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <check.h>

#include "check/check.h"
#include "gen/gen.h"
#include "model/prng.h"
#include "model/routing.h"
#include "topo/kns.h"

/* A stable GUID from a node's description (FNV-1a). */
uint64_t name_guid(const char *s);
/* The generator's fabric, GUIDs from the names, CA LIDs with lmc. */
struct ot_fabric *gen(const struct ot_kns_params *p, unsigned int lmc);
/* hdor's routing of f; the test fails when hdor refuses. */
struct ot_routing *route(const struct ot_fabric *f);
/*
 * A random fat-tree-line KNS of n >= 2, at most about 200 CAs, ports
 * shuffled, its `osmtopo gen` arguments in desc; several: lines of two
 * stages or more with 2 or 3 parallel cables from each router.
 */
void draw_some(struct ot_prng *rng, struct ot_kns_params *p, char *desc,
	       size_t len, bool several);
void draw(struct ot_prng *rng, struct ot_kns_params *p, char *desc, size_t len);
/* p as the `osmtopo gen` arguments that build it, into desc. */
void describe(const struct ot_kns_params *p, char *desc, size_t len);
/* The checker on (f, r), r as the promiser, uniform balance. */
const struct ot_check_report *checked(const struct ot_fabric *f,
				      const struct ot_routing *r,
				      struct ot_check_report **rep);
/*
 * r's checked uniform throughput on f; the test fails unless every pair
 * is reached, with no loop, no credit loop, no rule violation, within 4
 * VLs and r's own count (desc names the fabric).
 */
double checked_all(const struct ot_fabric *f, const struct ot_routing *r,
		   const char *desc);
/* The fat-tree KNS recognizer's answer for f (the engine's input). */
struct ot_kns *recognized(const struct ot_fabric *f);
/* CA -> CA paths off the escape layer whose channel rank does not rise. */
unsigned long rank_violations(const struct ot_fabric *f,
			      const struct ot_routing *r);
/* Switch LFT entries whose next hop (as a GUID) differs in f and g. */
unsigned long differences(const struct ot_fabric *f,
			  const struct ot_routing *rf, const struct ot_fabric *g,
			  const struct ot_routing *rg);
/* Fabrics per loop of the random tests: OT_HDOR_FT_ROUNDS, default 6. */
unsigned int rounds(void);

#endif
