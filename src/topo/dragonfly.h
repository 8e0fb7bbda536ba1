/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The Dragonfly recognizer of seed 001 ("Early evaluation of direct
 * large-scale InfiniBand networks with adaptive routing"), sections 1.4,
 * 2.2 and 3.5: which switches form a group (a full graph of local
 * cables), which cables are local and which global, and which switch
 * holds the global cables toward which group -- from the cabling alone,
 * and so are the numbers of groups and of switches within a group
 * (df_canon.h: colour refinement; GUIDs pick only among groups or
 * switches it finds alike).  df-static routes on its result.
 *
 * The rule (the FlatFly rectangle rule merges everything here): a cable
 * between switches u and v is "strong" when u and v have a common switch
 * neighbour and their number of common neighbours c(u, v) is more than
 * half of the largest c(u, w) over u's neighbours w, and of v's.  Within
 * an intact group of a switches every local cable has c >= a - 2 and the
 * largest is about a - 2; a global cable has c only where two switches of
 * one group are cabled to the same switch of another (several cables
 * between a group pair), which stays below half for a >= 4.  Groups are
 * the connected parts of the strong cables (union-find); then every cable
 * inside a group is local, every other one global, so a local cable that
 * lost its triangles to damage is still local.  A group must be close to
 * a full graph (each switch cabled to more than half of the others), and
 * there must be two groups of at least three switches, or the fabric is
 * refused: a FlatFly or KNS, a fat tree, a hypercube.
 *
 * Groups as 2-D FlatFlies (rows and columns full graphs), tried first:
 * a row of an a x b group has c = a - 2 on its cables, a column b - 2,
 * so with rows much shorter than columns only the columns come out
 * strong, and damage splits groups further.  Two parts with at least as
 * many triangle-closing cables between them as the smaller has switches
 * (one fewer for damage, two at least) are one group: rows matched to
 * rows, halves of a group; two groups share far fewer cables, and those
 * rarely close a triangle.  A piece of one or two switches then joins the
 * part it has the most cables to (two at least, more than to any other).
 * A group that is no full graph must be a 2-D FlatFly: at a seed switch
 * (the most cables inside the group first, then the next while one
 * fails) those cables form two connected parts, a row and a column (the
 * longer is dimension 0, x; equal lengths: the one with the smaller
 * switch number in the group); every other switch takes x from its cable
 * into that row and y from its cable into that column, or where damage
 * took those, the value two of its neighbours in the group share, or the
 * one a neighbour that differs in the other coordinate has, or a new one;
 * every cable in the group must join two switches that differ in x or in
 * y alone.  Else the fabric is refused, the switch named.  Where that
 * fails, full graphs alone are tried (the answer where no part matched).
 * Limits: sides of at least 3 (a side of 2 closes no triangle); where
 * every switch of a group has a cable to each of the g - 1 other groups
 * (g - 1 <= h), whole groups may match like rows, and full graphs alone
 * keep them.
 */
#ifndef OSMTOPO_DRAGONFLY_H
#define OSMTOPO_DRAGONFLY_H

#include <stdint.h>

#include "model/error.h"
#include "model/fabric.h"

enum ot_df_port {
	OT_DF_PORT_NONE,   /* uncabled, or a port 0 */
	OT_DF_PORT_CA,     /* to a CA or router */
	OT_DF_PORT_LOCAL,  /* to a switch of the same group */
	OT_DF_PORT_GLOBAL, /* to a switch of another group */
};

struct ot_df {
	const struct ot_fabric *fabric; /* borrowed */
	uint32_t ngroups;
	unsigned int max_size;   /* switches in the largest group */
	/* Per node: switch or end node -> its (switch's) group, else -1. */
	int32_t *group;
	/* Per switch: its number in its group (0..size-1), others -1. */
	int32_t *index;
	/* Group G's switches, by index: member[gstart[G] .. gstart[G+1]). */
	uint32_t *gstart;
	int32_t *member;
	/* Port classes: cls[pstart[n] + p] for p = 0..nports of node n. */
	uint32_t *pstart;
	uint8_t *cls; /* enum ot_df_port */
	/* Per port, like cls: a local cable's dimension in a FlatFly group
	 * (0: x differs, 1: y differs); 0 in full-graph groups. */
	uint8_t *ldim;
	/* Per group: 1 (full graph) or 2 (2-D FlatFly), and its sizes in x
	 * and y (full graphs: size, 1). */
	uint8_t *gdims;
	uint32_t *gsize; /* 2 per group */
	unsigned int max_dims; /* the largest gdims */
	/* Per switch: x, y in its group (full graphs: index, 0); -1 others. */
	int32_t *coord; /* 2 per node */
};

/*
 * Recognizes f as a Dragonfly with groups as full graphs or 2-D FlatFlies
 * (damaged ones too: missing switches and cables).  Refuses anything else with class
 * OT_ERR_TOPOLOGY and one line naming the first switch that breaks it.
 * f must be indexed.
 */
int ot_df_recognize(const struct ot_fabric *f, struct ot_df **out,
		    struct ot_error *err);
void ot_df_free(struct ot_df *df);

static inline enum ot_df_port ot_df_port_class(const struct ot_df *df,
					       uint32_t node, unsigned int port)
{
	return (enum ot_df_port)df->cls[df->pstart[node] + port];
}

static inline unsigned int ot_df_port_dim(const struct ot_df *df,
					  uint32_t node, unsigned int port)
{
	return df->ldim[df->pstart[node] + port];
}

#endif
