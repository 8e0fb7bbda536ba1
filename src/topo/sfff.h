/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Slim Fly x FlatFly products (seed 001, "Early evaluation of direct
 * large-scale InfiniBand networks with adaptive routing", sections 1.5
 * and 3.6: "DOR, ADOR and their Mixed and Twisted variants may be used
 * for SF x FF products, considering Slim Fly as a dimension of a Flat
 * Fly").  The recognizer finds, from the cabling alone, the FlatFly
 * dimensions with the FlatFly recognizer's link classes (topo/flatfly.h)
 * and the Slim Fly factor as what remains: an MMS graph in every FlatFly
 * copy, recognized in one (topo/slimfly.h) and carried to the others
 * along the FlatFly cables, then every cable checked.  The answer is a
 * FlatFly mapping (struct ot_ff) whose dimension 0 is the Slim Fly, its
 * coordinate the MMS position, so the ff-* engines route it as a
 * dimension whose lines are MMS graphs instead of full graphs.
 */
#ifndef OSMTOPO_TOPO_SFFF_H
#define OSMTOPO_TOPO_SFFF_H

#include "model/error.h"
#include "model/fabric.h"
#include "topo/flatfly.h"
#include "topo/slimfly.h"

/* Dimension of the Slim Fly factor in ot_sfff.ff. */
#define OT_SFFF_SF_DIM 0

struct ot_sfff {
	/*
	 * Dimension 0: the Slim Fly, size 2q^2, coordinate the MMS position
	 * (t q^2 + x q + y), width L; dimensions 1..: the FlatFly's.
	 */
	struct ot_ff *ff;
	struct ot_mms mms;
};

/*
 * Recognizes f (indexed) as a Slim Fly times a FlatFly of zero or more
 * dimensions, all switches present; cables may be missing while every
 * FlatFly line keeps two thirds of its cables, the dimension's removal
 * still cuts the fabric apart, and the MMS recognizer takes the copy.  0
 * and *out, or -1 with err naming the first switch or cable that breaks
 * the pattern (OT_ERR_TOPOLOGY), or -2 (err set too) when the fabric has
 * no Slim Fly factor at all: the switches left per FlatFly position are
 * no 2q^2 (callers trying several recognizers report the others' why).
 */
int ot_sfff_recognize(const struct ot_fabric *f, struct ot_sfff **out,
		      struct ot_error *err);
void ot_sfff_free(struct ot_sfff *p);

#endif
