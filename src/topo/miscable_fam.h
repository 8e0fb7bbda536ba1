/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The mis-cabling diagnosis shared by FlatFly, hypercube, Slim Fly and
 * Dragonfly (topo/miscable_fam.c): leave out the cables that
 * look wrong, let the family's recognizer map the rest (it tolerates
 * missing cables), pair the left-out ends again as its map wants, and
 * keep the repair only if the recognizer accepts it.  Internal to
 * topo/: the public calls are in miscable.h.
 */
#ifndef OSMTOPO_MISCABLE_FAM_H
#define OSMTOPO_MISCABLE_FAM_H

#include <stdbool.h>
#include <stdint.h>

#include "model/error.h"
#include "model/fabric.h"

/* A switch-to-switch cable, the end with the lower GUID (a) first. */
struct fm_cable {
	uint64_t key; /* a's GUID */
	int32_t a, b;
	uint8_t pa, pb;
	bool suspect;
};

/* The fabric's switch graph. */
struct fm {
	const struct ot_fabric *f;
	struct fm_cable *c;
	uint32_t nc;
	/* per node: its distinct switch neighbours nb[start[n]..start[n+1])
	 * in index order, and the cables to each (cnt) */
	uint32_t *start, *cnt;
	int32_t *nb;
	unsigned int width; /* parallel cables above which a pair is over-full */
};

/* Cables between switches x and y. */
uint32_t ot_fm_cables(const struct fm *m, int32_t x, int32_t y);
/* The largest count at least 1 in 5 of the n counts v[] (> 0) has: a
 * pattern's count, which damage does not lower nor a moved cable raise. */
uint32_t ot_fm_usual(const uint32_t *v, uint64_t n);
/* Switches that are neighbours of both u and v. */
uint32_t ot_fm_common(const struct fm *m, int32_t u, int32_t v);

struct ot_fam {
	const char *name; /* "a FlatFly" */
	/* The recognizer: 0 and *st, or -1 with err. */
	int (*recognize)(const struct ot_fabric *f, void **st,
			 struct ot_error *err);
	void (*release)(void *st);
	/* Cables the map st wants between switches x and y (0: none). */
	uint32_t (*allowed)(const void *st, int32_t x, int32_t y);
	/*
	 * Marks the cables whose neighbourhood breaks the pattern, when the
	 * recognizer refuses the fabric; NULL: no diagnosis then.
	 */
	int (*suspects)(struct fm *m, struct ot_error *err);
	/*
	 * Marks the cables the map st (of m->f, or of m->f less some
	 * cables) says are too many; NULL: those of switch pairs with more
	 * cables than allowed() says.
	 */
	void (*odd)(struct fm *m, const void *st);
	/*
	 * Room for one more cable between x and y on the map (dir 1: takes
	 * it, false when there is none), or gives it back (dir -1); st counts
	 * the cables of the fabric it was recognized on.  NULL: allowed()
	 * per switch pair.
	 */
	bool (*take)(void *st, int32_t x, int32_t y, int dir);
};

/* The diagnosis for family fam (see ot_kns_miscabling() for the rest). */
struct ot_miscabling;
int ot_fam_miscabling(const struct ot_fam *fam, const struct ot_fabric *f,
		      struct ot_miscabling *out, struct ot_error *err);

#endif
