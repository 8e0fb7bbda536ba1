/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Union-find (disjoint sets) over the integers 0..n-1, for the recognizers
 * that group things by connectivity: the FlatFly recognizer joins cable
 * bundles into dimensions and switches into hyperplanes with it, the KNS
 * recognizer routers into the groups that share a coordinate.
 *
 * Union by size (the larger set's root stays root; on a tie the lower
 * root), finds with path halving: near-constant time per call.  Which
 * element ends up the root depends only on the sequence of calls, so the
 * same calls give the same roots on every run; callers should still rely
 * on "same set or not" only, never on which element is the root.
 */
#ifndef OSMTOPO_MODEL_UF_H
#define OSMTOPO_MODEL_UF_H

#include <stdbool.h>
#include <stdint.h>

struct ot_error;
struct ot_fabric;
struct ot_uf;

/* n singleton sets {0} .. {n-1}; n may be 0.  NULL when out of memory. */
struct ot_uf *ot_uf_new(uint32_t n);
void ot_uf_free(struct ot_uf *uf);

/* Every element back in a set of its own, without reallocating. */
void ot_uf_reset(struct ot_uf *uf);

/* The root of the set holding x (x < n). */
uint32_t ot_uf_find(struct ot_uf *uf, uint32_t x);

/* Merges the sets of x and y; false when they were one set already. */
bool ot_uf_union(struct ot_uf *uf, uint32_t x, uint32_t y);

/* Whether x and y are in the same set. */
bool ot_uf_same(struct ot_uf *uf, uint32_t x, uint32_t y);

/*
 * The sets of f's switches numbered 0, 1, ... by size (largest first),
 * then smallest switch GUID, then lowest node: group[n] for every switch
 * n (other nodes untouched), *nsets and *largest (switches in set 0).
 * The numbering rests on sizes and GUIDs only, not on discovery order
 * beyond the last tie.  0, or -1 with err set (out of memory, who names
 * the caller).
 */
int ot_uf_number_switches(const struct ot_fabric *f, struct ot_uf *uf,
			  int32_t *group, uint32_t *nsets, uint32_t *largest,
			  const char *who, struct ot_error *err);

#endif
