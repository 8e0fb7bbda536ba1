/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The reader of osmtopo-path-sl.dump (model/pathsl.h), the path SLs the
 * plugin writes beside OpenSM's dump files: `--osm-dump DIR` uses them
 * when the file is there.
 */
#ifndef OSMTOPO_PATHSLFILE_H
#define OSMTOPO_PATHSLFILE_H

#include <stdio.h>

#include "model/error.h"
#include "model/routing.h"

/*
 * Reads the file (name for messages) and makes its SLs r's path SLs
 * (r->path_sl, path_sl_unknown false).  The file must match r's fabric:
 * every LID it lists a CA port's with that port GUID, every LID of every
 * cabled CA port listed, every row complete; else -1 with err saying
 * what is wrong, and r unchanged.
 */
int ot_pathsl_read(FILE *in, const char *name, struct ot_routing *r,
		   struct ot_error *err);

/*
 * "engine E, hint SL H, N LIDs" of the file r's path SLs came from, or
 * NULL when they did not come from one.
 */
const char *ot_pathsl_source(const struct ot_routing *r);

#endif
