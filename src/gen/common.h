/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the KNS and FlatFly generators share, private to src/gen/: the
 * layout of a generated fabric before it becomes nodes (which logical node
 * is added when, which physical port each logical port is), its
 * --shuffle-ports permutation, adding the nodes in that order and cabling
 * each switch's CAs.  The generators decide what is cabled to what in
 * logical terms; the layout decides how that looks in the file.
 */
#ifndef OSMTOPO_GEN_COMMON_H
#define OSMTOPO_GEN_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/error.h"
#include "model/fabric.h"

/*
 * Logical nodes 0..nodes-1: 0..nswitches-1 are switches of radix ports,
 * the rest CAs of one port.  Without shuffling, order and port are the
 * identity (node i of the fabric is logical node i, logical port p is
 * port p).
 */
struct gen_layout {
	uint32_t nodes, nswitches;
	unsigned int radix;
	uint32_t *order; /* order[i]: the logical node added i-th */
	uint32_t *port;  /* per switch, radix + 1 entries: physical port */
	uint32_t *index; /* logical node -> fabric node; UINT32_MAX: left out */
};

/* The identity layout; -1 when out of memory (the caller says who). */
int gen_layout_init(struct gen_layout *l, uint32_t nodes, uint32_t nswitches,
		    unsigned int radix);
void gen_layout_free(struct gen_layout *l);

/*
 * --shuffle-ports: every switch's ports, then the node order, permuted
 * from one stream seeded with seed, in that sequence of draws (the file
 * for a seed is fixed by it).
 */
void gen_layout_shuffle(struct gen_layout *l, uint64_t seed);

/* Physical port of logical port p of logical switch sw. */
static inline unsigned int gen_port(const struct gen_layout *l, uint32_t sw,
				    unsigned int p)
{
	return l->port[(size_t)sw * (l->radix + 1) + p];
}

/*
 * The name of logical node ln into buf; false when the node is left out
 * of the fabric (a dropped switch, or a CA of one).
 */
typedef bool (*gen_name_fn)(const void *ctx, uint32_t ln, char *buf,
			    size_t len);

/* Adds the nodes in layout order and fills l->index.  0 or -1 with err. */
int gen_add_nodes(struct ot_fabric *f, struct gen_layout *l, gen_name_fn name,
		  const void *ctx, struct ot_error *err);

/*
 * Cables CA c of each logical switch x < hosts (logical node first_ca +
 * x * cas + c) to the switch's logical port 1 + c, skipping switches left
 * out.  0 or -1 with err.
 */
int gen_link_cas(struct ot_fabric *f, const struct gen_layout *l,
		 uint32_t hosts, uint32_t first_ca, unsigned int cas,
		 struct ot_error *err);

/* A switch-to-switch cable, by logical switch and logical port at both ends. */
struct gen_cable {
	uint32_t a, b;
	uint16_t pa, pb;
};

struct ot_prng;

/*
 * Damage, from its own stream so that shuffling keeps it: first a
 * fraction of the nslots switches (present[slot] false; rounded, never
 * all), ...
 */
int gen_drop_switches(uint32_t nslots, double frac, struct ot_prng *rng,
		      bool *present, struct ot_error *err);

/* ... then a fraction of the ncables cables left: *kept[i] (allocated). */
int gen_drop_cables(uint32_t ncables, double frac, struct ot_prng *rng,
		    bool **kept, struct ot_error *err);

/* Cables the kept ones of cable[0..ncables-1].  0 or -1 with err. */
int gen_link_cables(struct ot_fabric *f, const struct gen_layout *l,
		    const struct gen_cable *cable, const bool *kept,
		    uint32_t ncables, struct ot_error *err);

/*
 * A direct network once its damage is drawn: nsw switches (logical nodes
 * 0..nsw-1) with cas CAs each, the kept cables of cable[0..ncables-1].
 */
struct gen_wiring {
	gen_name_fn name;
	const void *ctx;
	uint32_t nsw;
	unsigned int cas;
	uint32_t hosts; /* switches 0..hosts-1 have the CAs; 0: all nsw */
	const struct gen_cable *cable;
	const bool *kept;
	uint32_t ncables;
};

/*
 * The layout shuffled from seed (when shuffle), nodes added and named,
 * CAs and kept cables linked.  0 or -1 with err.
 */
int gen_wire(struct ot_fabric *f, struct gen_layout *l,
	     const struct gen_wiring *w, bool shuffle, uint64_t seed,
	     struct ot_error *err);

/* The cables among the switches present[] keeps, for gen_damage_wire(). */
typedef int (*gen_collect_fn)(const void *shape, const bool *present,
			      struct gen_cable **cable, uint32_t *ncables,
			      struct ot_error *err);

/*
 * Damage asked of a generator (fractions, and the seed of its stream),
 * and the shuffle of its ports and nodes.
 */
struct gen_damage {
	double drop_switches, drop_links;
	uint64_t seed;
	bool shuffle;
	uint64_t shuffle_seed;
};

/* The damage and shuffle of generator parameters p (every ot_*_params
 * of a direct network has these fields). */
#define GEN_DAMAGE_OF(p)                                                  \
	(&(struct gen_damage){ (p)->drop_switches, (p)->drop_links,       \
			       (p)->drop_seed, (p)->shuffle, (p)->seed })

/*
 * What every direct-network generator does once its shape is known: the
 * damage drawn from its own stream (switches among w->nsw slots into
 * present[], which the caller allocated and its names may read, then the
 * cables collect() lists among those left), and gen_wire() with w's name,
 * ctx, nsw and cas and those cables, shuffled as d says.  0 or -1 with
 * err.
 */
int gen_damage_wire(struct ot_fabric *f, struct gen_layout *l,
		    const struct gen_damage *d, gen_collect_fn collect,
		    const void *shape, bool *present,
		    const struct gen_wiring *w, struct ot_error *err);

/*
 * The end of a generator: the layout freed, and f, or NULL (f freed)
 * when error is set.
 */
struct ot_fabric *gen_done(struct ot_fabric *f, struct gen_layout *l,
			   int error);

/*
 * The routers of a KNS (kns.c; kns_ft.c, whose lines are fat trees):
 * router r has coordinates c_0..c_(n-1), r = sum c_d k^d, and is named
 * "R[c(n-1),...,c0]", its CAs "CA[c(n-1),...,c0]/i", which tests read
 * the recognizer's answer against.
 */
unsigned int gen_kns_coord(unsigned int k, uint32_t r, unsigned int d);

/* k^n into *routers: 0, or -1 with err set when osmtopo makes no such KNS. */
int gen_kns_routers(unsigned int k, unsigned int n, uint64_t *routers,
		    struct ot_error *err);

/* The name of router r (ca < 0) or of its CA ca, into buf. */
void gen_kns_name(unsigned int k, unsigned int n, uint32_t r, int ca,
		  char *buf, size_t len);

#endif
