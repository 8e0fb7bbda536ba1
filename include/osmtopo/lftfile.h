/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Routing tables as text, in the format of infiniband-diags' dump_lfts
 * (which is also OpenSM's opensm-lfts.dump), so that what an engine
 * computes offline can be diffed against what a fabric holds.  Unlike
 * dump_lfts, every LID up to the highest is written (dump_lfts misses the
 * top LID when LinearFDBTop is a multiple of 64), switches come in node
 * order rather than discovery order, and a switch is named by its LID
 * ("of switch Lid 3", as ibroute names a switch it reaches by LID) since
 * offline there is no DR path.  Below each switch header the lines are
 * dump_lfts' own, character for character.
 */
#ifndef OSMTOPO_LFTFILE_H
#define OSMTOPO_LFTFILE_H

#include <stdio.h>

#include <osmtopo/error.h>
#include <osmtopo/routing.h>

/* Writes the LFTs of every switch of r, in node order.  0 or -1. */
int ot_lft_write(FILE *out, const struct ot_routing *r);

/* Writes the node labels ("coordinates") of r, one node a line. */
int ot_labels_write(FILE *out, const struct ot_routing *r);

/*
 * Reads dump_lfts / opensm-lfts.dump text into r (from ot_routing_new() on
 * the same fabric): switches are matched by GUID.  Entries not in the
 * text stay OT_NO_PORT.  0, or -1 with err set ("name:line: ...").
 */
int ot_lft_read(FILE *in, const char *name, struct ot_routing *r,
		struct ot_error *err);

#endif
