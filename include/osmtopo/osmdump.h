/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * OpenSM's own dump files as a source of routing state for the checker:
 * what `opensm -D 0x43 --dump_files_dir DIR` (or routing debug logging)
 * writes: the subnet, the LFTs, the SL2VL tables and the path SLs.
 */
#ifndef OSMTOPO_OSMDUMP_H
#define OSMTOPO_OSMDUMP_H

#include <osmtopo/error.h>
#include <osmtopo/fabric.h>
#include <osmtopo/routing.h>

/*
 * Loads the fabric (indexed) and its routing from the dump files in dir.
 * 0, or -1 with err naming the file and line.
 */
int ot_osmdump_load(const char *dir, struct ot_fabric **fabric,
		    struct ot_routing **routing, struct ot_error *err);

#endif
