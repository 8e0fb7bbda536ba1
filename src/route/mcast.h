/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Multicast spanning trees over any engine's routing: what the plugin
 * gives OpenSM through the engines' mcast_build_stree callback, so that
 * OpenSM neither needs its hop matrices (its own tree builder reads them)
 * nor builds trees that ignore the engine's VLs.
 *
 * A group's members are CA (or router) ports, counted at the switch port
 * their cable arrives on, and switches (their port 0).  MFT entries: on
 * every switch of the group's tree its tree ports, its member CA ports
 * and port 0 when it is a member itself; none elsewhere.
 *
 * A tree grown from a root:
 *
 *  - Root: a member switch of least eccentricity (the most switch hops
 *    to another member switch), among those reaching the most member
 *    switches (a damaged fabric may be in pieces); then the least total
 *    distance to the member switches; then the engine's canonical order
 *    of switches: the labels it gave them (its coordinates, compared as
 *    text with numbers by value), then node GUID.
 *  - Shapes, tried in this order from each root: the shortest-path tree,
 *    each switch hanging off its neighbour one hop nearer the root that
 *    comes first in the canonical order, by its lowest-numbered cable to
 *    it; the engine's own unicast paths from the root out to the member
 *    switches (packets going down the tree turn as unicast does); its
 *    unicast paths from the member switches in to the root (packets
 *    going up turn as unicast does).  Branches without a member are cut.
 *
 * No credit loop: multicast packets carry the group's SL, and at each
 * hop their VL is the engine's SL2VL for (in port, out port, SL).  A tree
 * switch u passes packets from each of its tree and member ports to all
 * its others, so the tree adds, for every turn in -> out at u (in from a
 * switch x, out to a switch), a dependency from x's channel to u on each
 * VL x sends on it to u's channel out on SL2VL(u, in, out, SL).  Those
 * dependencies added to the engine's unicast channel dependency graph
 * (model/cdg.h, the checker's) and to those of the trees installed for
 * the other MLIDs (all groups' packets share the channels, and two
 * trees each without a loop against unicast can close one together)
 * must leave it without a new loop.
 *
 * The master tree: the tree of a group of every switch with CAs, grown
 * as above (roots in order, each with every shape, until one adds no
 * loop to unicast alone), once per routing.  A group's tree is, first,
 * the smallest subtree of the master holding its member switches: its
 * turns are among the master's, so the subtrees of all groups together
 * add no loop (with groups rooted each at its own best switch, 17 of 40
 * trees closed one with the others on a 4x4x3 FlatFly with ff-dor:
 * test_mcast.c).  When that subtree adds a loop (no master: every tree
 * of it looped; or a member switch outside it), the group's own trees
 * follow: at most OT_MTREE_TRIES roots, each with the three shapes.  The
 * first tree that adds no loop is taken; when each closes one, the tree
 * whose loop has the fewest channels is returned all the same (a group
 * never goes without a tree), with that loop, and not kept in the graph
 * (the next groups are not blamed for it).
 *
 * The same fabric, members and labels give the same tree whatever the
 * discovery order or the port numbers (beyond parallel cables).  GUIDs
 * enter through the labels only (and where two switches share a label):
 * the recognizers break by GUID the ties the topology leaves open, so
 * on a symmetric fabric other GUIDs may move the coordinates, and the
 * tree moves with them: it is the same tree in coordinates.
 */
#ifndef OSMTOPO_ROUTE_MCAST_H
#define OSMTOPO_ROUTE_MCAST_H

#include <stdbool.h>
#include <stdint.h>

#include "model/error.h"
#include "model/mcast.h"
#include "model/routing.h"

/* Candidate roots tried for a tree that adds no credit loop. */
#define OT_MTREE_TRIES 8

/*
 * What every tree of one routing shares: switch distances, the canonical
 * order, and (on the first tree) the unicast channel dependency graph
 * and its strongly connected parts, the master tree, and the trees
 * installed since.  Built once per routing, freed with it; borrows r,
 * which must outlive it.
 */
struct ot_mtree_net;

/*
 * no_mcast (per node, may be NULL): switches that cannot forward
 * multicast, left out of every tree.  0 with *out set, or -1 with err.
 */
int ot_mtree_net_new(const struct ot_routing *r, const bool *no_mcast,
		     struct ot_mtree_net **out, struct ot_error *err);
void ot_mtree_net_free(struct ot_mtree_net *n);

/*
 * At most roots candidate roots (OT_MTREE_TRIES unless set), and the
 * master tree's subtree after them or not (it is, unless set): 1 root
 * without the master shows the first choice's best tree (tests,
 * diagnosis).  Before the first tree of n, or with master true.
 */
void ot_mtree_net_set_roots(struct ot_mtree_net *n, unsigned int roots,
			    bool master);

/*
 * Milliseconds the unicast dependency graph and the master tree took (0
 * before they exist).
 */
double ot_mtree_net_cdg_ms(const struct ot_mtree_net *n);

struct ot_mtree {
	int32_t root;          /* node; -1: no tree (fewer than 2 members) */
	uint32_t nswitches;    /* switches in the tree */
	uint32_t nmember_sw;   /* switches with members */
	uint32_t unreached;    /* member switches the tree does not reach */
	uint32_t unattached;   /* members cabled to no (usable) switch */
	unsigned int depth;    /* hops from the root to the farthest */
	unsigned int tries;    /* trees tried */
	unsigned int chosen;   /* the root's place among the candidates */
	const char *shape;     /* how the tree hangs from it (static) */
	int64_t loop;          /* channels of the loop it adds; 0: none */
	uint32_t nentries;
	struct ot_mcast_member *entry; /* MFT bits: (switch, port), sorted */
};

/*
 * The tree of the group whose members are m[0..nm) and whose packets
 * carry the SLs of sls (bit per SL), checked against the unicast of n's
 * routing and the trees installed in n.  With an MLID (not 0), the
 * MLID's previous tree is withdrawn first and this one installed: its
 * dependencies stay in n's graph for the next groups' checks, since all
 * groups' packets share the channels (the checker adds them all).  0
 * with *out filled (free it with ot_mtree_free()), or -1 with err set
 * (out of memory, an MLID out of the multicast range).
 */
int ot_mtree_build(struct ot_mtree_net *n, uint16_t mlid,
		   const struct ot_mcast_member *m, uint32_t nm, uint16_t sls,
		   struct ot_mtree *out, struct ot_error *err);
void ot_mtree_free(struct ot_mtree *t);

/*
 * The channels of the credit loop a tree adds to the unicast of n's
 * routing (and n's installed trees) with packets on the SLs of sls; 0
 * when it adds none, -1 with
 * err set (out of memory, an entry on no switch).  The tree may be any
 * MFT bits (t->entry, sorted again here): every turn between two ports a
 * switch lists counts, on the VLs its neighbour sends toward it when the
 * neighbour lists that cable too (the checker floods from the members
 * instead: the same for a tree whose every branch has a member).
 */
int64_t ot_mtree_loop(struct ot_mtree_net *n, struct ot_mtree *t,
		      uint16_t sls, struct ot_error *err);

/* Sets t's entries in mc's MFTs for mlid.  0, or -1 beyond the tables. */
int ot_mtree_apply(const struct ot_mtree *t, struct ot_mcast *mc,
		   uint16_t mlid);

#endif
