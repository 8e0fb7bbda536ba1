/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What an engine produces: a linear forwarding table for every switch, the
 * SL-to-VL tables and path SLs its deadlock freedom rests on, and a label
 * per node saying where the engine placed it (its coordinates).  The plugin
 * copies these into OpenSM, the tool prints them, the checker reads them.
 *
 * Engines are looked up by name in one table; each is a pure function from
 * an indexed fabric to a routing, so the same code runs inside OpenSM,
 * offline, in unit tests and in benchmarks.
 */
#ifndef OSMTOPO_ROUTING_H
#define OSMTOPO_ROUTING_H

#include <stdbool.h>
#include <stdint.h>

#include <osmtopo/error.h>
#include <osmtopo/fabric.h>

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

struct ot_engine {
	const char *name;
	/* One line for --help and the README: what the fabric must be. */
	const char *needs;
	/*
	 * Fills out (fresh from ot_routing_new()) for fabric f, or returns -1
	 * with one line in err saying why it refuses f, naming the node and
	 * port that break it.  out is then freed by the caller unused.
	 */
	int (*route)(const struct ot_fabric *f, struct ot_routing *out,
		     struct ot_error *err);
};

/* NULL-terminated list of every engine osmtopo provides. */
extern const struct ot_engine *const ot_engines[];

const struct ot_engine *ot_engine_find(const char *name);

/*
 * Runs engine e on f: a new routing in *out, or -1 with err set and *out
 * NULL.  Never leaves a half-filled routing behind.
 */
int ot_engine_run(const struct ot_engine *e, const struct ot_fabric *f,
		  struct ot_routing **out, struct ot_error *err);

#endif
