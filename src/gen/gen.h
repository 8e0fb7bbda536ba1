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

#include "model/error.h"
#include "model/fabric.h"

/*
 * k-ary n-direct 1-indirect KNS of seed 000 ("Implementation and testing
 * of a KNS topology in an InfiniBand cluster").
 */
#define OT_KNS_MAX_STAGES 4

struct ot_kns_params {
	unsigned int k;     /* routers per dimension (>= 2) */
	unsigned int n;     /* dimensions (>= 1) */
	unsigned int cas;   /* CAs per router (>= 1) */
	unsigned int links; /* parallel cables per router-switch pair (>= 1) */
	unsigned int radix; /* ports per switch; 0 = the fewest that fit */
	bool shuffle;       /* permute ports and node order with seed */
	uint64_t seed;
	/*
	 * Lines as fat trees (seed 000, 2.2: s-indirect), each line of k
	 * routers an XGFT(s; m_1..m_s; w_1..w_s) whose level-0 nodes are
	 * the routers: a stage-i switch has m_i children (routers for
	 * i = 1) and a stage-(i-1) node w_i stage-i parents.  Indexed by
	 * stage 1..stages.  stages 0: one switch per line (m_1 = k,
	 * w_1 = 1), the seed's s = 1.  s = 1 with w_1 = M: M switches per
	 * line, each router cabled to each; s = 2 with m = (k/A, A) and
	 * w = (1, B): A leaves and B spines per line.  The product of m_i
	 * must be k.  Cables per stage-(i-1)/stage-i pair: links for i = 1,
	 * line_links[i] (0 = 1) above.
	 */
	unsigned int stages;
	unsigned int line_down[OT_KNS_MAX_STAGES + 1];
	unsigned int line_up[OT_KNS_MAX_STAGES + 1];
	unsigned int line_links[OT_KNS_MAX_STAGES + 1];
	/*
	 * Damage inside the lines, from its own stream (drop_seed): this
	 * fraction of the line switches that have a sibling (stages i with
	 * w_i > 1), then this fraction of the cables into stages with
	 * w_i > 1, as ot_gen_flatfly() draws them.
	 */
	double drop_switches, drop_links;
	uint64_t drop_seed;
};

/*
 * Routers are "R[c(n-1),...,c0]", switches "S[d,p]" as in seed 000's
 * figures (with p the router coordinates minus dimension d, as a number),
 * CAs "CA[c...]/i".  Without shuffle, ports are used in order: a router's
 * CAs first, then dimension 0's cables, ...  Not indexed (no LIDs yet).
 * NULL with err set when the parameters do not fit the radix.
 */
struct ot_fabric *ot_gen_kns(const struct ot_kns_params *p,
			     struct ot_error *err);

/*
 * ot_gen_kns() for lines as fat trees (stages >= 1 given): routers
 * "R[c(n-1),...,c0]", line switches "S[d,l,i,j]" (dimension d, line l as
 * the router coordinates minus d, stage i, index j in the stage), CAs as
 * above.  Ports: a router's CAs, then dimension by dimension its w_1
 * stage-1 switches; a stage-i switch's children (in x_i order), then its
 * parents.  ot_gen_kns() calls it when the lines are not single switches.
 */
struct ot_fabric *ot_gen_kns_ft(const struct ot_kns_params *p,
				struct ot_error *err);

/*
 * Fat trees as extended generalized fat trees, XGFT(h; m1..mh; w1..wh)
 * (Ohring et al. 1995), with CAs of one port (w1 = 1) and parallel
 * cables.  Level 0 holds the CAs, level 1 the leaf switches, level h the
 * top.  A level-i node is labelled (x_h..x_{i+1}; y_i..y_1), x_j < m_j,
 * y_j < w_j; it is cabled to the w_{i+1} level-(i+1) nodes that share its
 * label except in position i+1.  So a level-i switch has m_i children and
 * w_{i+1} parents; there are m_{i+1}..m_h x w_1..w_i switches at level i.
 * A two-level leaf/spine tree with L leaves and S spines is h = 2,
 * m2 = L, w2 = S; the 45-node Slimmed Fat-Tree of seed 000 is h = 3,
 * m = (5, 3, 3), w = (1, 3, 1), 2 cables per level 2-3 pair.
 */
#define OT_FT_MAX_LEVELS 8

struct ot_fattree_params {
	unsigned int levels; /* switch levels h, 1..OT_FT_MAX_LEVELS */
	unsigned int cas;    /* CAs per leaf switch (m1 >= 1) */
	/* Indexed by switch level i = 2..levels (0 and 1 unused): */
	unsigned int down[OT_FT_MAX_LEVELS + 1];  /* m_i: children (>= 1) */
	unsigned int up[OT_FT_MAX_LEVELS + 1];    /* w_i: parents of a level
						     i-1 switch (>= 1) */
	unsigned int links[OT_FT_MAX_LEVELS + 1]; /* cables per child-parent
						     pair; 0 = 1 */
	unsigned int radix; /* ports per switch; 0 = the fewest that fit */
};

/*
 * Switches are "L<i>[x_h,..,x_{i+1};y_i,..,y_2]" (y_1 is always 0 and
 * left out), CAs "CA[x_h,..,x_1]".  A switch's ports: children first
 * (child by child, its parallel cables together), then parents.  Node
 * order: CAs, then levels 1..h.  Not indexed.  NULL with err set when the
 * parameters do not fit the radix or make more than 2^20 nodes.
 */
struct ot_fabric *ot_gen_fattree(const struct ot_fattree_params *p,
				 struct ot_error *err);

/*
 * Two 2-level fat-tree islands whose spines are cabled to each other, as
 * the ULHPC merged Iris and Aion of seed 003 ("Aggregating and
 * Consolidating two High Performant Network Topologies: The ULHPC
 * Experience"), section 2: every spine of the second island has `inter`
 * cables to every spine of the first.
 */
struct ot_island_params {
	const char *name; /* node name prefix, e.g. "iris" */
	unsigned int leaves, spines;
	unsigned int cas;   /* per leaf */
	unsigned int links; /* cables per leaf-spine pair */
	unsigned int leaf_radix, spine_radix; /* 0 = the fewest that fit */
};

struct ot_ulhpc_params {
	struct ot_island_params island[2];
	unsigned int inter; /* cables per (island 1 spine, island 0 spine) */
};

/* The paper's shape: Iris 12 leaves x 6 spines x 2 cables, 36-port EDR
 * switches; Aion 8 x 4 x 3, 40-port HDR spines, 80-port (split) leaves;
 * 2 cables per Aion-Iris spine pair.  CAs per leaf are the caller's. */
void ot_ulhpc_defaults(struct ot_ulhpc_params *p, unsigned int iris_cas,
		       unsigned int aion_cas);

/*
 * Names "<name>-leaf-<l>", "<name>-spine-<s>", "<name>-ca-<l>-<c>"; leaf
 * ports: CAs, then spines; spine ports: leaves, then the other island.
 * Node order: island 0's CAs, leaves, spines, then island 1's.  Not
 * indexed.  NULL with err set when a radix is too small.
 */
struct ot_fabric *ot_gen_ulhpc(const struct ot_ulhpc_params *p,
			       struct ot_error *err);

/*
 * FlatFly / HyperX / generalized hypercube of seed 001 ("Early evaluation
 * of direct large-scale InfiniBand networks with adaptive routing"),
 * section 1.2: the Cartesian product of full graphs of
 * size[0] x size[1] x ..., with width[d] parallel cables between two
 * switches that differ in dimension d only.  A hypercube of dimension D
 * is size 2 in D dimensions.
 */
#define OT_GEN_FF_MAX_DIMS 16

struct ot_flatfly_params {
	unsigned int ndims;                      /* 1..OT_GEN_FF_MAX_DIMS */
	unsigned int size[OT_GEN_FF_MAX_DIMS];   /* switches per dimension, >= 2 */
	unsigned int width[OT_GEN_FF_MAX_DIMS];  /* cables per pair; 0 = 1 */
	unsigned int cas;   /* CAs per switch (0 allowed) */
	unsigned int radix; /* ports per switch; 0 = the fewest that fit */
	/*
	 * Damage, for the recognizer's tolerance: first this fraction of
	 * the switches is removed (with their CAs and cables), then this
	 * fraction of the remaining switch-to-switch cables; both drawn
	 * with drop_seed, so a seed gives the same fabric everywhere.
	 */
	double drop_switches, drop_links;
	uint64_t drop_seed;
	bool shuffle;       /* permute ports and node order with seed */
	uint64_t seed;
	const char *prefix; /* switch name prefix; NULL = "FF" */
};

/*
 * Switches are "FF[c0,c1,...]" (dimension 0 first, as in "4x8x8x8"), CAs
 * "FF[c0,c1,...]/i".  Without shuffle, a switch's ports are its CAs, then
 * dimension 0's cables (the other values in increasing order, width
 * cables each), then dimension 1's, ...; node order: switches in
 * mixed-radix order (dimension 0 fastest), then the CAs.  Ports of
 * dropped cables stay uncabled.  Not indexed.  NULL with err set when the
 * parameters do not fit the radix or make more than 2^20 switches.
 */
struct ot_fabric *ot_gen_flatfly(const struct ot_flatfly_params *p,
				 struct ot_error *err);

/*
 * The coordinates a generated switch or CA name carries ("X[3,0,7]" or
 * "X[3,0,7]/1"), dimension 0 first.  Returns how many were read (at most
 * max), 0 when desc carries none.
 */
unsigned int ot_gen_name_coords(const char *desc, uint32_t *coord,
				unsigned int max);

/*
 * Dragonfly of seed 001 ("Early evaluation of direct large-scale
 * InfiniBand networks with adaptive routing"), sections 1.4 and 2.2: g
 * groups of a switches, each group a full graph of local cables, each
 * switch with h global cables to other groups and p CAs.  With g =
 * a * h + 1 every pair of groups has one global cable; with fewer groups,
 * about a * h / (g - 1) each.
 */
enum ot_df_arrangement {
	OT_DF_CONSECUTIVE, /* global j of group G goes to G + 1 + j mod (g-1) */
	OT_DF_PALMTREE,    /* ... to G - 1 - j mod (g-1) */
	OT_DF_RANDOM,      /* consecutive, then each group's global cables
			      dealt to its switches' global ports at random */
};

struct ot_dragonfly_params {
	unsigned int a;     /* switches per group, >= 2 */
	unsigned int h;     /* global cables per switch, >= 1 */
	unsigned int p;     /* CAs per switch (0 allowed) */
	unsigned int g;     /* groups, 2..a*h+1; 0 = a * h + 1 */
	/*
	 * Groups as 2-D FlatFlies of flat[0] x flat[1] switches (flat[0] *
	 * flat[1] = a, each >= 2): a switch is cabled to the others of its
	 * row and of its column only.  0, 0: groups as full graphs.
	 */
	unsigned int flat[2];
	unsigned int width; /* cables per local switch pair; 0 = 1 */
	/*
	 * Dragonfly+ (Shpiner et al. 2017): groups as two-level fat trees
	 * of a leaves (p CAs each) and spines spines (h global cables
	 * each), width cables per leaf-spine pair; g up to spines * h + 1.
	 * 0: groups as above.
	 */
	unsigned int spines;
	/*
	 * Dragonfly+: groups (numbers as in the names, each < g) whose
	 * leaves carry no CAs (a rack of switches not yet populated, say).
	 */
	const unsigned int *caless;
	unsigned int ncaless;
	enum ot_df_arrangement arrangement;
	uint64_t arrange_seed; /* OT_DF_RANDOM's draws */
	unsigned int radix; /* ports per switch; 0 = the fewest (p+a-1+h) */
	/* Damage as for ot_gen_flatfly(): switches, then cables (local and
	 * global alike), drawn with drop_seed. */
	double drop_switches, drop_links;
	uint64_t drop_seed;
	bool shuffle;       /* permute ports and node order with seed */
	uint64_t seed;
};

/*
 * Switches "DF[G,i]" (group, switch in group), CAs "DF[G,i]/c"; with
 * FlatFly groups "DF[G,x,y]" (i = x + flat[0] * y).  Without shuffle a
 * switch's ports are its CAs, its a - 1 local neighbours (other switches
 * in increasing order; FlatFly groups: its row's flat[0] - 1, then its
 * column's flat[1] - 1), width cables each, then its h global ports;
 * node order:
 * switches group by group, then the CAs.  A global port whose partner
 * would lie beyond a group's a * h (when g - 1 does not divide a * h)
 * stays uncabled, as do ports of dropped cables.  Not indexed.  NULL with
 * err set when the parameters do not fit.  Dragonfly+ (spines > 0):
 * leaves "DFL[G,i]", spines "DFS[G,j]", CAs "DFL[G,i]/c"; a leaf's ports
 * its CAs, then the spines (width each), a spine's the leaves (width
 * each), then its h global ports; node order: every leaf, every spine,
 * then the CAs.
 */
struct ot_fabric *ot_gen_dragonfly(const struct ot_dragonfly_params *p,
				   struct ot_error *err);

struct ot_ff;

/*
 * Whether a FlatFly mapping of a generated fabric (f with the names
 * ot_gen_flatfly() gives) is the one it was built with, up to a
 * permutation of the dimensions and a relabelling of the values of each:
 * every switch has a position, every switch-to-switch cable the dimension
 * its ends' names differ in, and values correspond one to one.  0, or -1
 * with err naming the first switch or cable that disagrees.  For tests
 * and the tolerance bench.
 */
int ot_gen_flatfly_check_map(const struct ot_fabric *f,
			     const struct ot_ff *ff, struct ot_error *err);

/*
 * Slim Fly (MMS graph, see topo/slimfly.h) of seed 001, section 1.5:
 * 2q^2 switches for a prime power q, width parallel cables per adjacent
 * pair (the paper's L).
 */
struct ot_slimfly_params {
	unsigned int q;
	unsigned int width; /* cables per switch pair; 0 = 1 */
	unsigned int cas;   /* CAs per switch (0 allowed) */
	unsigned int radix; /* ports per switch; 0 = the fewest that fit */
	double drop_switches, drop_links; /* as for ot_gen_flatfly() */
	uint64_t drop_seed;
	bool shuffle;
	uint64_t seed;
};

/*
 * Switches "SF[t,x,y]" (x, y as GF(q) element numbers), CAs
 * "SF[t,x,y]/i".  Without shuffle, a switch's ports are its CAs, then its
 * neighbours in increasing (t, x, y), width cables each; node order:
 * switches in (t, x, y) order, then CAs.  Not indexed.  NULL with err set
 * when q is not a prime power >= 3 or the ports do not fit the radix.
 */
struct ot_fabric *ot_gen_slimfly(const struct ot_slimfly_params *p,
				 struct ot_error *err);

/* CAs per switch that balance a Slim Fly: ceil(network ports / 2). */
unsigned int ot_gen_slimfly_balanced_cas(unsigned int q, unsigned int width);

/*
 * Slim Fly x FlatFly products of seed 001, section 1.5 (SF x FF-1: q = 4,
 * width 2, times FlatFly 8x8, 8 CAs; SF x FF-2: q = 8, width 1, times
 * FlatFly 16, 8 CAs): a switch is (MMS position, FlatFly position), cabled
 * to the switches that differ in one factor only and are adjacent there.
 */
struct ot_sfff_params {
	unsigned int q;     /* the Slim Fly factor's prime power */
	unsigned int width; /* cables per adjacent MMS pair (L); 0 = 1 */
	unsigned int ndims; /* FlatFly dimensions, 0..OT_GEN_FF_MAX_DIMS */
	unsigned int size[OT_GEN_FF_MAX_DIMS];   /* >= 2 each */
	unsigned int fwidth[OT_GEN_FF_MAX_DIMS]; /* cables per pair; 0 = 1 */
	unsigned int cas;   /* CAs per switch (0 allowed) */
	unsigned int radix; /* ports per switch; 0 = the fewest that fit */
	double drop_switches, drop_links; /* as for ot_gen_flatfly() */
	uint64_t drop_seed;
	bool shuffle;
	uint64_t seed;
};

/*
 * Switches "SFFF[t,x,y,c0,c1,...]" (MMS coordinates, then the FlatFly's,
 * dimension 0 first), CAs "SFFF[...]/i".  Without shuffle a switch's
 * ports are its CAs, its MMS neighbours in increasing (t, x, y), width
 * cables each, then dimension 0's cables, ... as ot_gen_flatfly(); node
 * order: switches with the MMS position fastest, then the CAs.  Not
 * indexed.  NULL with err set when q is not a prime power >= 3, a size
 * is below 2 or the ports do not fit the radix.
 */
struct ot_fabric *ot_gen_sfff(const struct ot_sfff_params *p,
			      struct ot_error *err);

#endif
