/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The Dragonfly+ recognizer (Shpiner et al., "Dragonfly+: Low Cost
 * Topology for Scaling Datacenters", 2017): groups built as two-level
 * fat trees, CAs on leaf switches, every leaf cabled to every spine of
 * its group, global cables between spines of different groups.  From the
 * cabling alone, the numbering of groups and of switches within a group
 * too (df_canon.h: colour refinement; GUIDs pick only among groups or
 * switches it finds alike, on a fabric generated whole images of each
 * other under a symmetry); port numbers and node order never count.
 * df-static routes on its result where the Dragonfly recognizer
 * (dragonfly.h: full-graph or FlatFly groups) refuses.
 *
 * The rule: roles from the cabling, in rounds over every switch at once
 * (dragonfly_plus.c, role_of()): a switch with a CA or router cabled
 * to it is a leaf; a switch cabled to a leaf is a spine (leaves are
 * cabled to spines only); a switch all of whose switch neighbours are
 * spines is a leaf (a spine needs a leaf: a leaf whose CAs are all
 * down); where that stalls, a switch none of whose neighbours has a role
 * yet is a leaf where each of them (then: some) is cabled to a known
 * spine: the leaves of a group whose leaves all lost their CAs, whose
 * spines hold global cables to spines already known; their spines
 * follow.  A switch left without a role is refused by name.  Leaves are
 * never cabled to leaves.  Groups are the connected parts of the
 * leaf-spine cables; every spine must have a leaf (a third fat-tree
 * level has none: refused), a cable between two spines of one group is
 * refused, every other spine-spine cable is global, and there must be
 * two groups (one is a plain fat tree).  Else the fabric is refused, the
 * first switch that breaks the rule named.  How many of its group's
 * spines a leaf reaches is left to damage: df-static's argument holds on
 * any cabling of these roles.
 */
#ifndef OSMTOPO_DRAGONFLY_PLUS_H
#define OSMTOPO_DRAGONFLY_PLUS_H

#include <stdint.h>

#include "model/error.h"
#include "model/fabric.h"

enum ot_dfp_role {
	OT_DFP_NONE,  /* a CA, router or a node of no group */
	OT_DFP_LEAF,
	OT_DFP_SPINE,
};

enum ot_dfp_port {
	OT_DFP_PORT_NONE,   /* uncabled, or a port 0 */
	OT_DFP_PORT_CA,     /* to a CA or router, or a CA's port */
	OT_DFP_PORT_UP,     /* leaf to a spine of its group */
	OT_DFP_PORT_DOWN,   /* spine to a leaf of its group */
	OT_DFP_PORT_GLOBAL, /* spine to a spine of another group */
};

struct ot_dfp {
	const struct ot_fabric *fabric; /* borrowed */
	uint32_t ngroups;
	uint32_t max_leaves, max_spines; /* in the largest group */
	int32_t *group;  /* per node: its (switch's) group, -1 */
	uint8_t *role;   /* per node: enum ot_dfp_role */
	/* per switch: its number among its group's leaves or spines, -1 */
	int32_t *index;
	/*
	 * Group G's leaves leaf[lstart[G] .. lstart[G + 1]) and spines
	 * spine[sstart[G] .. sstart[G + 1]), each by index.
	 */
	uint32_t *lstart, *sstart;
	int32_t *leaf, *spine;
};

/*
 * Recognizes f as a Dragonfly+ (damaged ones too: switches and cables
 * missing).  Refuses anything else with class OT_ERR_TOPOLOGY and one
 * line naming the first switch that breaks it.  f must be indexed.
 */
int ot_dfp_recognize(const struct ot_fabric *f, struct ot_dfp **out,
		     struct ot_error *err);
void ot_dfp_free(struct ot_dfp *d);

/* The class of port p of node n (a switch of some group, or a CA). */
enum ot_dfp_port ot_dfp_port_class(const struct ot_dfp *d, uint32_t n,
				   unsigned int p);

#endif
