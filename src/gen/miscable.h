/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Mis-cabled fabrics on purpose, for the mis-cabling report's tests and
 * its measurement (topo/miscable.h): the far ends of random pairs of
 * switch-to-switch cables swapped, as a technician swaps two cables.
 */
#ifndef OSMTOPO_GEN_MISCABLE_H
#define OSMTOPO_GEN_MISCABLE_H

#include <stdint.h>

#include "model/error.h"
#include "model/fabric.h"

/* A cable end moved by ot_gen_swap_cables(). */
struct ot_gen_swap {
	int32_t node;    /* the end that stayed */
	uint8_t port;
	int32_t was;     /* where it went before */
	uint8_t was_port;
};

/*
 * Swaps the far ends of k random pairs of switch-to-switch cables of f
 * (seeded; a pair shares no switch, no cable is moved twice).  A cable's
 * near end is the switch with more CAs (a KNS router), GUIDs breaking
 * ties, so a KNS keeps router-to-switch cables.  The 2k moved ends go to
 * moved[] (room for 2k), by node then port.  f must be indexed and stays
 * so.  0, or -1 with err when f has too few such cables.
 */
int ot_gen_swap_cables(struct ot_fabric *f, unsigned int k, uint64_t seed,
		       struct ot_gen_swap *moved, struct ot_error *err);

/*
 * Moves the far ends of 3 random switch-to-switch cables (near ends as
 * above, 6 distinct switches) round a cycle: the first cable's near end
 * gets the second's far end, the second the third's, the third the
 * first's.  The 3 moved ends go to moved[], by node then port.  0, or -1
 * with err.
 */
int ot_gen_cycle_cables(struct ot_fabric *f, uint64_t seed,
			struct ot_gen_swap *moved, struct ot_error *err);

#endif
