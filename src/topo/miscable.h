/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Mis-cabling reports: when a fabric almost is a family's topology but a
 * few cables break the pattern -- two cables whose far ends were swapped
 * when the fabric was cabled, or a 3-cycle of them -- say which cables
 * and where each should go, so that an administrator can re-cable before
 * routing.  The diagnosis searches for the fewest moves of cable ends
 * that make the recognizer accept the fabric, and only reports a repair
 * the recognizer accepts (a report never guesses).  The plugin logs it at
 * INFO when an engine refuses; `osmtopo check --expect FAMILY` prints it.
 */
#ifndef OSMTOPO_MISCABLE_H
#define OSMTOPO_MISCABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/error.h"
#include "model/fabric.h"

/* One cable end that is in the wrong place, and the right one. */
struct ot_miscable {
	int32_t node;      /* the end that stays (a KNS router's port) */
	uint8_t port;
	int32_t now;       /* where the cable goes now */
	uint8_t now_port;
	int32_t should;    /* where it should go (a port freed by the fix) */
	uint8_t should_port;
};

struct ot_miscabling {
	unsigned int n;
	struct ot_miscable *cable; /* n entries, by node GUID, then port */
};

/*
 * KNS (seed 000, topo/kns.h): the router-to-indirect-switch cables whose
 * switch ends must move for f to be a KNS.  0 with out->n = 0 when f is a
 * KNS already; 0 with out->n > 0 and the moves when a repair was found
 * and the repaired fabric is a KNS; -1 with err (class OT_ERR_TOPOLOGY)
 * when f is not a KNS that a few moved cable ends explain.  f must be
 * indexed.  Free out with ot_miscabling_free().
 */
int ot_kns_miscabling(const struct ot_fabric *f, struct ot_miscabling *out,
		      struct ot_error *err);

/*
 * Inside the lines of a KNS built as fat trees (topo/miscable_kft.c): one
 * switch-to-switch cable end moved (leaf to leaf, to the wrong spine, a
 * router into another line's leaf).  1 with *out the move when one makes
 * f a regular fat-tree-line KNS, 0 when none does (or the search would
 * cost too much), -1 with err set (out of memory).  ot_kns_miscabling()
 * calls it; ot_kns_ft_regular() says whether a recognized fabric is
 * regular (every stage of every line alike, no cable missing or extra).
 */
struct ot_kns;
int ot_kns_ft_miscabling(const struct ot_fabric *f, struct ot_miscable *out,
			 struct ot_error *err);
bool ot_kns_ft_regular(const struct ot_fabric *f, const struct ot_kns *kns);

/*
 * The same for the direct families (topo/miscable_fam.c tells how, and
 * what counts as mis-cabled): a FlatFly of any shape (topo/flatfly.h), a
 * hypercube (a FlatFly of size 2 in every dimension), a Slim Fly
 * (topo/slimfly.h).  Any switch-to-switch cable may be reported; a
 * fabric the recognizer accepts, cables missing or not, reports nothing
 * unless a switch pair has more parallel cables than the fabric's width.
 */
int ot_ff_miscabling(const struct ot_fabric *f, struct ot_miscabling *out,
		     struct ot_error *err);
int ot_hc_miscabling(const struct ot_fabric *f, struct ot_miscabling *out,
		     struct ot_error *err);
int ot_sf_miscabling(const struct ot_fabric *f, struct ot_miscabling *out,
		     struct ot_error *err);
/*
 * Dragonfly (topo/dragonfly.h, topo/miscable_df.c): cables too many
 * between two switches of a group, at a switch (global cables) or
 * between two groups, on the recognizer's map; nothing when it refuses.
 * A fabric that looks like a Dragonfly+ goes to ot_dfp_miscabling().
 */
int ot_df_miscabling(const struct ot_fabric *f, struct ot_miscabling *out,
		     struct ot_error *err);

/*
 * Dragonfly+ (topo/dragonfly_plus.h, topo/miscable_dfp.c): leaf-leaf
 * cables, spine-spine cables inside a group, leaf-spine cables that join
 * two groups, and cables too many as for the Dragonfly.
 * ot_df_miscabling() calls it on a fabric ot_dfp_looks_plus() says looks
 * like one (switches without CAs, few cables between switches with CAs).
 */
int ot_dfp_miscabling(const struct ot_fabric *f, struct ot_miscabling *out,
		      struct ot_error *err);
bool ot_dfp_looks_plus(const struct ot_fabric *f);

void ot_miscabling_free(struct ot_miscabling *m);

/*
 * One line for m, without a newline:
 *   "R[1,2]" (0x...) port 3 is cabled to "S0[*,2]" (0x...) port 5;
 *   it should go to "S0[*,1]" (0x...) port 4
 * Returns what snprintf() returns.
 */
int ot_miscable_format(const struct ot_fabric *f, const struct ot_miscable *m,
		       char *buf, size_t len);

#endif
