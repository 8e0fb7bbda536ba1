/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * osmtopo-path-sl.dump: the path SL of every (source LID, destination
 * LID) pair of CA ports as OpenSM's SA would answer a PathRecord query
 * for it, written by the plugin after each unicast routing when
 * "event_plugin_options osmtopo_path_sl_dump=on" (plugin/slsdump.c), read
 * by `--osm-dump DIR` (io/osmdump.c).  OpenSM's own dump files hold no
 * path SLs; engines that choose an SL per pair (dfsssp, lash, nue with
 * several VLs) hand them out only through the SA.
 *
 * The file (version 1), text header lines then one binary block:
 *
 *   osmtopo-path-sl 1
 *   # ...                       comments (what the file does not model)
 *   engine NAME                 OpenSM's routing_engine_used, or "none"
 *   hint SL                     the SL OpenSM's SA hands path_sl as hint
 *   lids N                      then N lines, ascending LID:
 *   LID 0xPORTGUID              every LID of every CA port (LMC range)
 *   data ROWBYTES               ROWBYTES = (N + 1) / 2, then N rows of
 *                               ROWBYTES bytes: row i is the source
 *                               LID of line i, nibble j the SL toward
 *                               the LID of line j, even j in the low
 *                               nibble of byte j / 2
 *   end                         right after the rows, the last line
 *
 * 4 bits per pair: 16,384 CAs (268 M pairs) take 134 MB.
 */
#ifndef OSMTOPO_PATHSL_H
#define OSMTOPO_PATHSL_H

#include <stddef.h>
#include <stdint.h>

#define OT_PATHSL_FILE "osmtopo-path-sl.dump"
#define OT_PATHSL_MAGIC "osmtopo-path-sl"
#define OT_PATHSL_VERSION 1

static inline size_t ot_pathsl_row_bytes(uint32_t nlids)
{
	return ((size_t)nlids + 1) / 2;
}

static inline uint8_t ot_pathsl_get(const uint8_t *row, uint32_t j)
{
	return j % 2 ? row[j / 2] >> 4 : row[j / 2] & 0xf;
}

static inline void ot_pathsl_put(uint8_t *row, uint32_t j, uint8_t sl)
{
	uint8_t *b = &row[j / 2];

	if (j % 2)
		*b = (uint8_t)((*b & 0x0f) | (sl & 0xf) << 4);
	else
		*b = (uint8_t)((*b & 0xf0) | (sl & 0xf));
}

#endif
