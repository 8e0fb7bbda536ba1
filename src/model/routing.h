/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What an engine produces: a linear forwarding table for every switch, the
 * SL-to-VL tables and path SLs its deadlock freedom rests on, and a label
 * per node saying where the engine placed it (its coordinates).  The plugin
 * copies these into OpenSM, the tool prints them, the checker reads them.
 *
 * Engines (src/route/) are pure functions from an indexed fabric to a
 * routing, so the same code runs inside OpenSM, offline, in unit tests
 * and in benchmarks.
 */
#ifndef OSMTOPO_ROUTING_H
#define OSMTOPO_ROUTING_H

#include <stdbool.h>
#include <stdint.h>

#include "model/error.h"
#include "model/fabric.h"

#define OT_NUM_SLS 16

struct ot_routing {
	const struct ot_fabric *fabric; /* borrowed: must outlive the routing */
	uint16_t max_lid;               /* = fabric->max_lid */
	/*
	 * lft[n][lid]: output port of switch n for a LID (0 = the switch
	 * itself, OT_NO_PORT = none); max_lid + 1 entries, NULL for non
	 * switches.
	 */
	uint8_t **lft;
	/* label[n]: coordinates, e.g. "router [2,5]", or NULL. */
	char **label;
	/*
	 * sl2vl[n]: NULL means every SL goes to VL 0 on every hop of node n;
	 * otherwise (nports+1)^2 * OT_NUM_SLS bytes, indexed by
	 * ot_sl2vl_index().  For a CA only in_port 0 is used.
	 */
	uint8_t **sl2vl;
	unsigned int nvls; /* data VLs the engine needs (1 = no VL tricks) */
	bool needs_qos;    /* SL2VL must be programmed for deadlock freedom */
	/* SL a source uses toward a destination LID; NULL means SL 0. */
	uint8_t (*path_sl)(const struct ot_routing *r, uint16_t slid,
			   uint16_t dlid);
	/*
	 * True when the path SLs are not known (a live fabric whose SA did
	 * not answer, OpenSM's dump files): path_sl is then NULL, and SL 0
	 * is only a guess.
	 */
	bool path_sl_unknown;
	void *priv; /* engine data that path_sl needs, freed by free_priv */
	void (*free_priv)(void *priv);
};

static inline unsigned int ot_sl2vl_index(unsigned int nports,
					  unsigned int in_port,
					  unsigned int out_port,
					  unsigned int sl)
{
	return ((in_port * (nports + 1)) + out_port) * OT_NUM_SLS + sl;
}

/* A routing with an LFT per switch, every entry OT_NO_PORT.  NULL on OOM. */
struct ot_routing *ot_routing_new(const struct ot_fabric *f);
void ot_routing_free(struct ot_routing *r);

/* Sets the label of node n (printf style). 0, or -1 on OOM. */
int ot_routing_set_label(struct ot_routing *r, int n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The VL a packet with SL sl takes from in_port to out_port of node n. */
uint8_t ot_routing_vl(const struct ot_routing *r, int n, unsigned int in_port,
		      unsigned int out_port, unsigned int sl);

/* The path SL from slid to dlid. */
uint8_t ot_routing_path_sl(const struct ot_routing *r, uint16_t slid,
			   uint16_t dlid);

#endif
