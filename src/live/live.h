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
#include <stdint.h>

#include "model/error.h"
#include "model/fabric.h"
#include "model/mcast.h"
#include "model/routing.h"
#include "model/vlarb.h"

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
	/* Do not ask the SA for path SLs (r->path_sl stays NULL). */
	bool skip_path_sl;
	/* Ask the SA for every pair, however many (see sa.c). */
	bool all_paths;
	/* Pairs asked whole up to this many, 0 = OT_LIVE_PATH_BOUND. */
	uint64_t path_bound;
	/*
	 * Beyond the bound: an engine's routing of the same fabric, whose
	 * path SLs are the classes the sample covers (with the LID offset);
	 * NULL: the LID offset alone, which assumes the SL does not depend
	 * on the destination (see sa.c).
	 */
	const struct ot_routing *sl_model;
	/*
	 * When not NULL (tables for the discovered fabric): also read, with
	 * the SL2VL tables, every cabled port's PortInfo arbitration fields
	 * and its VLArbitrationTable (the blocks its capacities hold).
	 */
	struct ot_vlarb_tables *vlarb;
};

/*
 * Pairs whose path SLs are all asked for: what the read window (sa.c, 64
 * Gets in flight) gets through in about half a minute.  Measured: a
 * Dragonfly of 33 groups of 8 switches under ibsim, dfsssp, 1,115,136
 * PathRecords in 27 s (about 41,000 a second).  Beyond it the SLs are
 * sampled, and credit loops found on the sample are confirmed on real
 * SLs (check/confirm.c).
 */
#define OT_LIVE_PATH_RATE 40000u    /* PathRecords a second, measured */
#define OT_LIVE_PATH_SECONDS 30u
#define OT_LIVE_PATH_BOUND (OT_LIVE_PATH_RATE * OT_LIVE_PATH_SECONDS)

/* Discovers the fabric; *out is indexed.  0, or -1 with err set. */
int ot_live_discover(const struct ot_live_opts *o, struct ot_fabric **out,
		     struct ot_error *err);

/*
 * Reads every switch's LFT and the SL2VL tables of switches and CAs of f
 * (from ot_live_discover()) into a new routing.  LFT entries beyond a
 * switch's LinearFDBTop stay OT_NO_PORT; other entries are what the switch
 * holds, even a port number it does not have.  sl2vl[n] stays NULL for a
 * node whose ports do not support SL2VL (PortInfo:CapabilityMask); nvls
 * is the highest data VL found plus one.  Path SLs come from the SA
 * (ot_live_read_path_sls()) unless skip_path_sl; when no SA answers,
 * r->path_sl stays NULL (SL 0 everywhere) and a note on stderr says why.
 * 0, or -1 with err set (a failed query is an error, not VL 0).
 */
int ot_live_read_routing(const struct ot_live_opts *o,
			 const struct ot_fabric *f, struct ot_routing **out,
			 struct ot_error *err);

/*
 * Asks the SA for the PathRecord of every pair (CA port, LID of a CA
 * port), sources by their base LID, or beyond o->path_bound pairs a
 * sample that covers every source port and LID offset (sa.c), and makes
 * r->path_sl answer with the SLs it gave (r->priv holds them, freed by r->free_priv).  Pairs the SA
 * has no record for keep SL 0 (a note on stderr counts them).  0 when
 * r->path_sl is set; 1 when no SM or SA answered (err says which; r is
 * unchanged); -1 on out of memory.
 */
int ot_live_read_path_sls(const struct ot_live_opts *o, struct ot_routing *r,
			  struct ot_error *err);

/*
 * The multicast groups the SA knows, their members (CA and router ports)
 * and every switch's MFT entries for them (mcast.c), into a new *out
 * (NULL when there are no groups' MLIDs to read).  0; 1 when no SM or SA
 * answered (err says which); -1 on any other failure.
 */
int ot_live_read_mcast(const struct ot_live_opts *o, const struct ot_fabric *f,
		       struct ot_mcast **out, struct ot_error *err);

/*
 * Joins the local port to the multicast group mgid as a full member
 * (SA MCMemberRecord Set; the SA creates the group if it has none, on
 * P_Key 0xffff, SL 0).  0, or -1 with err set.
 */
int ot_live_mcast_join(const struct ot_live_opts *o, const uint8_t mgid[16],
		       struct ot_error *err);

#endif
