/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The MAD port the SA readers (path SLs, multicast groups) open: the SMI
 * classes for the local PortInfo (where the SM is; both, although only the
 * directed one is used: libumad2sim frees only one class of a closed port,
 * so a class an earlier port of this process registered must be registered
 * again to be usable) and the SA class.
 */
#ifndef OSMTOPO_LIVE_SAPORT_H
#define OSMTOPO_LIVE_SAPORT_H

#include <infiniband/mad.h>

#include "live/live.h"
#include "model/error.h"

/*
 * Opens o's CA and port (the first CA when o names none) and finds the
 * master SM's LID in the local PortInfo: the SA's address in *sa.  `what`
 * names the queries in the error ("SA queries").  0, or -1 with err set
 * (*mad may then be open: the caller closes it).
 */
int ot_live_sa_open(const struct ot_live_opts *o, struct ibmad_port **mad,
		    ib_portid_t *sa, const char *what, struct ot_error *err);

#endif
