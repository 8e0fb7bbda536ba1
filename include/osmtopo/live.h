/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Reading a live fabric over MADs (libibnetdisc and libibmad; under ibsim
 * through libumad2sim, exactly as on hardware): the topology with the LIDs
 * the subnet manager gave, and what each switch and CA really holds.
 * Linear forwarding tables are read block by block up to each switch's
 * LinearFDBTop (dump_lfts stops one LID short of it).
 */
#ifndef OSMTOPO_LIVE_H
#define OSMTOPO_LIVE_H

#include <osmtopo/error.h>
#include <osmtopo/fabric.h>
#include <osmtopo/routing.h>

struct ot_live_opts {
	const char *ca;   /* local CA name, NULL for the first */
	int port;         /* local port, 0 for the first active */
	int timeout_ms;   /* per MAD, 0 = library default */
};

/* Discovers the fabric; *out is indexed.  0, or -1 with err set. */
int ot_live_discover(const struct ot_live_opts *o, struct ot_fabric **out,
		     struct ot_error *err);

/*
 * Reads every switch's LFT and the SL2VL tables of switches and CAs of f
 * (from ot_live_discover()) into a new routing.  0, or -1 with err set.
 */
int ot_live_read_routing(const struct ot_live_opts *o,
			 const struct ot_fabric *f, struct ot_routing **out,
			 struct ot_error *err);

#endif
