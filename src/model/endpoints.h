/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The ends of unicast traffic in a fabric: every CA port with a LID (a
 * source and a destination), the switch its cable leads to, the sources
 * grouped by that switch, and every destination LID (each LID of an LMC
 * range) grouped by the switch its port hangs off.  Shared by the
 * unicast channel dependencies (model/cdg.h), which the checker and the
 * plugin's multicast trees both build, and by the checker's own counts
 * (src/check): the same sources and destinations for both.
 */
#ifndef OSMTOPO_MODEL_ENDPOINTS_H
#define OSMTOPO_MODEL_ENDPOINTS_H

#include <stdint.h>

#include "model/fabric.h"

/* A CA port with a LID: a source of traffic and a destination. */
struct ot_endpoint {
	int32_t node;
	uint8_t port;
	uint16_t lid;     /* base LID */
	uint32_t nlids;   /* 2^LMC */
	int32_t sw;       /* switch its cable leads to, or -1 */
	uint8_t sw_port;  /* port of sw the cable arrives on */
	uint16_t sl_mask; /* SLs it sends on toward some destination */
};

/* One destination LID, and the switch its port hangs off (-1: none). */
struct ot_dest {
	int32_t attach;
	uint32_t ep;
	uint16_t lid;
};

struct ot_endpoints {
	struct ot_endpoint *ep;
	uint32_t nep;
	/* Destinations sorted by attach, then LID. */
	struct ot_dest *dest;
	uint32_t ndest;
	/* Sources by the switch their cable leads to (CSR over nodes). */
	uint32_t *src_start; /* nnodes + 1 */
	uint32_t *src_list;
	int32_t *src_switches; /* switches with at least one source */
	uint32_t nsrc_switches;
	uint32_t *odd_src; /* sources not cabled to a switch */
	uint32_t nodd;
};

/* 0, or -1 when out of memory (e is then freed). */
int ot_endpoints_init(struct ot_endpoints *e, const struct ot_fabric *f);
void ot_endpoints_free(struct ot_endpoints *e);

/* Sources of switch s other than the destination's own port. */
static inline uint32_t ot_sources_at(const struct ot_endpoints *e, int32_t s,
				     uint32_t dep)
{
	uint32_t n = e->src_start[s + 1] - e->src_start[s];

	if (e->ep[dep].sw == s)
		n--;
	return n;
}

#endif
