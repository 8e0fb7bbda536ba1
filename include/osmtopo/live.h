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

#include <stdbool.h>

#include <osmtopo/error.h>
#include <osmtopo/fabric.h>
#include <osmtopo/routing.h>

struct ot_live_opts {
	const char *ca;   /* local CA name, NULL for the first */
	int port;         /* local port, 0 for the first active */
	int timeout_ms;   /* per MAD, 0 = library default */
	/*
	 * Read LFTs only, leave every r->sl2vl NULL.  SL2VL costs one MAD
	 * per (input, output) port pair: on 36-port switches about five
	 * times the MADs of the LFTs of a 16K-LID fabric.
	 */
	bool skip_sl2vl;
};

/* Discovers the fabric; *out is indexed.  0, or -1 with err set. */
int ot_live_discover(const struct ot_live_opts *o, struct ot_fabric **out,
		     struct ot_error *err);

/*
 * Reads every switch's LFT and the SL2VL tables of switches and CAs of f
 * (from ot_live_discover()) into a new routing.  LFT entries beyond a
 * switch's LinearFDBTop stay OT_NO_PORT; other entries are what the switch
 * holds, even a port number it does not have.  sl2vl[n] stays NULL for a
 * node whose ports do not support SL2VL (PortInfo:CapabilityMask); nvls
 * is the highest data VL found plus one.  Path SLs are not read (SL 0).
 * 0, or -1 with err set (a failed query is an error, not VL 0).
 */
int ot_live_read_routing(const struct ot_live_opts *o,
			 const struct ot_fabric *f, struct ot_routing **out,
			 struct ot_error *err);

#endif
