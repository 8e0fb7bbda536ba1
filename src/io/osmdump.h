/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * OpenSM's own dump files as a source of routing state for the checker:
 * what `opensm -D 0x43 --dump_files_dir DIR` writes after each sweep
 * (routing debug logging): opensm-subnet.lst (the cabling, GUIDs, LIDs),
 * opensm-lfts.dump (the LFTs) and, when QoS is on or the engine programs
 * SL2VL, opensm-sl2vl.dump.  OpenSM dumps no path SLs: the routing's
 * path_sl stays NULL (SL 0); only the SA knows them (ot_live_read_path_sls
 * on a running subnet), unless osmtopo's plugin wrote them into
 * osmtopo-path-sl.dump (io/pathslfile.h), which ot_osmdump_load() reads
 * when it is there.
 */
#ifndef OSMTOPO_OSMDUMP_H
#define OSMTOPO_OSMDUMP_H

#include <stdio.h>

#include "model/error.h"
#include "model/fabric.h"
#include "model/routing.h"

/*
 * Loads the fabric (indexed; nodes in GUID order, as the live reader
 * gives them) and its routing from the dump files in dir.  The LMC of a
 * port is taken from the LIDs the LFT dump lists for it.  Without
 * opensm-sl2vl.dump every SL2VL table stays NULL (VL 0).  With
 * osmtopo-path-sl.dump the path SLs are its (a file that does not match
 * the fabric is an error).  0, or -1 with err naming the file and line.
 */
int ot_osmdump_load(const char *dir, struct ot_fabric **fabric,
		    struct ot_routing **routing, struct ot_error *err);

/*
 * ot_osmdump_load() on open streams: the subnet list, the LFT dump (read
 * twice: it must be seekable) and the SL2VL dump (NULL when absent); dir
 * only names the files in error messages.
 */
int ot_osmdump_read(FILE *subnet, FILE *lfts, FILE *sl2vl, const char *dir,
		    struct ot_fabric **fabric, struct ot_routing **routing,
		    struct ot_error *err);

#endif
