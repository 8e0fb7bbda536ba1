/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The KNS recognizer of seed 000 ("Implementation and testing of a KNS
 * topology in an InfiniBand cluster"), sections 2.2 and 3.2: which
 * switches are routers (a CA attached) and which belong to an indirect
 * network, which dimension each indirect switch serves, and the
 * coordinates of every router, switch and CA -- found from the cabling
 * alone, never from port numbers, node order or GUIDs (GUIDs only break
 * the ties that the topology's symmetry leaves open; on lines as fat
 * trees, colour refinement first breaks those the cabling tells apart,
 * topo/kns_canon.c).  The hdor engine
 * routes on its result; the checker uses it to verify that paths correct
 * dimensions in order.
 */
#ifndef OSMTOPO_KNS_H
#define OSMTOPO_KNS_H

#include <stdbool.h>
#include <stdint.h>

#include "model/error.h"
#include "model/fabric.h"

enum ot_kns_role {
	OT_KNS_CA,
	OT_KNS_ROUTER,
	OT_KNS_SWITCH, /* a switch of the indirect network of one dimension */
};

struct ot_kns {
	const struct ot_fabric *fabric; /* borrowed */
	unsigned int k, n;
	unsigned int links; /* parallel cables per router-switch pair (L) */
	/* Per node (fabric->nnodes entries): */
	uint8_t *role;  /* enum ot_kns_role */
	/*
	 * n coordinates per node, coord[node * n + d].  Routers and CAs: their
	 * position in each dimension.  An indirect switch of dimension d:
	 * the coordinates its routers share, and -1 in dimension d.
	 */
	int16_t *coord;
	int8_t *dim;    /* indirect switch: its dimension; others -1 */
	int32_t *router; /* CA: the router it hangs off; router: itself */
	/* router_at[c]: router node whose coordinates, as a number in base
	 * k with dimension 0 least significant, are c (k^n entries). */
	int32_t *router_at;
	/*
	 * Lines as fat trees (topo/kns_ft.c; NULL and 1 for the seed's
	 * s = 1 of one switch per line).  Per node: a line switch's stage,
	 * 1 for those cabled to routers, one more per level up (levels
	 * counted from the routers); its line, an index into lines; its
	 * position in its stage of its line (by colour, topo/kns_canon.c,
	 * then GUID).  0 / -1 otherwise.
	 */
	unsigned int stages; /* the most stages of any line */
	uint8_t *stage;
	int32_t *line;
	uint16_t *pos;
	uint32_t nlines;
	struct ot_kns_line *lines;
	/*
	 * Damaged lines only (topo/kns_dmg.c): some piece's coordinate was
	 * left open by the cabling and taken by colour, not told by it.
	 */
	bool by_colour;
};

/*
 * One dimension line's indirect network: the switches that connect the
 * k routers agreeing in every coordinate but dim.
 */
struct ot_kns_line {
	int dim;
	unsigned int stages;
	int32_t *router;    /* k: the router at each coordinate of dim */
	int32_t *sw;        /* nsw: its switches, by stage, then position */
	uint32_t nsw;
};

/*
 * Recognizes f as a k-ary n-direct 1-indirect KNS: any n >= 1, k >= 2,
 * one or more CAs per router, one or more parallel cables per router-
 * switch pair (the same number everywhere).  Refuses anything else with
 * one line naming the node and port that break it.  f must be indexed.
 */
int ot_kns_recognize(const struct ot_fabric *f, struct ot_kns **out,
		     struct ot_error *err);
void ot_kns_free(struct ot_kns *kns);

/*
 * Recognizes f as a k-ary n-direct s-indirect KNS whose lines are fat
 * trees (several switches per line at s = 1, or s >= 2 stages): the
 * lines from the cabling alone (switches joined by switch cables, and
 * switches sharing two or more routers, make one line), coordinates as
 * ot_kns_recognize() gives them to the lines taken as single switches,
 * and per line its levels counted from the routers.  Refuses, naming the
 * switch and port, a cable inside a line that does not join consecutive
 * levels; a fabric of one dimension (a fat tree) is refused.  *looks_ft:
 * whether the fabric has what only fat-tree lines
 * have (a cable between two switches without CAs, or two routers sharing
 * two switches), so a caller can tell which refusal to report.
 * Damage inside lines is taken where the coordinates stay unambiguous
 * (topo/kns_dmg.c): a router with no cable into one of its lines, a line
 * fallen into parts; lines then has every line of the KNS, n k^(n-1),
 * some with switches missing or none.
 */
int ot_kns_ft_recognize(const struct ot_fabric *f, struct ot_kns **out,
			bool *looks_ft, struct ot_error *err);

/*
 * The same, the dimensions then numbered otherwise: the recognizer's
 * dimension d (its GUID tie-break, above) is perm[d], perm a permutation
 * of 0..n-1 (NULL: as recognized; n at most OT_KNS_PERM_DIMS, else
 * refused).  The dimensions' order is the one choice among the symmetric
 * ones that changes Hybrid-DOR's paths (route/hdor.c tries them).
 */
#define OT_KNS_PERM_DIMS 8
int ot_kns_ft_recognize_dims(const struct ot_fabric *f, const uint8_t *perm,
			     struct ot_kns **out, bool *looks_ft,
			     struct ot_error *err);

/*
 * What the cabling leaves open (the origin, each dimension's values, the
 * dimensions, each stage's switches in a line) ot_kns_ft_recognize()
 * numbers by colour refinement (topo/kns_canon.c); flip reverses the
 * values' order (OT_KNS_FLIP_VALUES) or the switches' in their stage
 * (OT_KNS_FLIP_POSITIONS), other numberings that no GUID chooses either,
 * for an engine that keeps the one it loads least.
 */
#define OT_KNS_FLIP_VALUES 1u
#define OT_KNS_FLIP_POSITIONS 2u
#define OT_KNS_FLIPS 4u /* flip is below this */
struct ot_kns_numbering {
	const uint8_t *perm; /* dimensions, as for _dims() (NULL: as found) */
	unsigned int flip;
};

int ot_kns_ft_recognize_as(const struct ot_fabric *f,
			   const struct ot_kns_numbering *num,
			   struct ot_kns **out, bool *looks_ft,
			   struct ot_error *err);

#endif
