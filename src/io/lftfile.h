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

#include "model/error.h"
#include "model/routing.h"

/* Writes the LFTs of every switch of r, in node order.  0 or -1. */
int ot_lft_write(FILE *out, const struct ot_routing *r);

/*
 * Writes the rest of what a routing decides, after the LFTs: the SL2VL
 * tables and the path SLs, as lines meant to be diffed (an engine's
 * offline result against what a live fabric holds):
 *   SL2VL 0x<node guid> in <p> out <q>: <16 VLs, SL 0 first, one hex digit each>
 *     for every node with a table of its own, every output port with a
 *     cable and every input port with one (or 0), input != output; a CA's
 *     table is "in 0 out <port>";
 *   PathSL <dlid>: <sl>            every source CA port gets this SL, or
 *   PathSL <dlid> <slid>: <sl>     one line per source when they differ,
 *     for every LID of a CA port, sources by their base LID;
 *   PathSL unknown                 when r->path_sl_unknown (nobody said).
 * 0 or -1 on an I/O error.
 */
int ot_tables_write(FILE *out, const struct ot_routing *r);

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
