/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * hdor on KNS fabrics whose lines are fat trees (route/hdor_ft.c), called
 * by the hdor engine (route/hdor.c) when ot_kns_ft_recognize() accepts
 * the fabric.  Private to src/route/.
 */
#ifndef OSMTOPO_ROUTE_HDOR_FT_H
#define OSMTOPO_ROUTE_HDOR_FT_H

#include "model/error.h"
#include "model/fabric.h"
#include "model/routing.h"
#include "route/engine.h"
#include "topo/kns.h"

/*
 * Fills out for f as recognized in kns, which the routing's promise then
 * owns (freed on failure too), escape layers beyond the first only as
 * budget b allows (NULL: 4 data VLs, every SL).  0, or -1 with err set.
 */
int ot_hdor_ft_route(const struct ot_fabric *f, struct ot_kns *kns,
		     const struct ot_engine_budget *b, struct ot_routing *out,
		     struct ot_error *err);

/*
 * The same with the other dimension orders of route/hdor_ft_mix.c drawn
 * from every order of the dimensions, not only "e first, then the
 * others in increasing order" (n at most 3; else ot_hdor_ft_route()'s): a
 * candidate.
 */
int ot_hdor_ft_route_orders(const struct ot_fabric *f, struct ot_kns *kns,
			    const struct ot_engine_budget *b,
			    struct ot_routing *out, struct ot_error *err);

/*
 * The same with at most layers escape layers (at least 1), whatever b
 * leaves: the VLs beyond go to the other dimension orders of
 * route/hdor_ft_mix.c, which the layers may otherwise leave none; the
 * escaped LIDs dealt as ot_hdor_ft_route_ca() with ca_deal deals them:
 * a candidate.
 */
int ot_hdor_ft_route_layers(const struct ot_fabric *f, struct ot_kns *kns,
			    const struct ot_engine_budget *b,
			    unsigned int layers, struct ot_routing *out,
			    struct ot_error *err);

/*
 * The same with two-plane pairs bounced through a third router of their
 * line instead of moved off dimension order (route/hdor_ft_bounce.c), and
 * with ca_deal the escaped LIDs dealt as ot_hdor_ft_route_ca() deals
 * them: a candidate, refused (-1, err set) where nothing bounces or the bounce cannot be
 * made deadlock-free within b.
 */
int ot_hdor_ft_route_bounce(const struct ot_fabric *f, struct ot_kns *kns,
			    const struct ot_engine_budget *b, bool ca_deal,
			    struct ot_routing *out, struct ot_error *err);

/*
 * ot_hdor_ft_route(), with ca_deal the escaped LIDs dealt to their trees
 * and layers by CA-to-CA traffic alone (route/hdor_ft_esc.c: struct
 * ca_deal); *moved (may be NULL): whether that changed what some CA
 * LID's deal saw (if not, the tables are ot_hdor_ft_route()'s).
 */
int ot_hdor_ft_route_ca(const struct ot_fabric *f, struct ot_kns *kns,
			const struct ot_engine_budget *b, bool ca_deal,
			bool *moved, struct ot_routing *out,
			struct ot_error *err);

/*
 * The KNS as numbered for r (its dimensions perhaps in another order
 * than the recognizer's: route/hdor.c), when r is a routing of
 * ot_hdor_ft_route(); else NULL.  Valid as long as r is.
 */
const struct ot_kns *ot_hdor_ft_kns(const struct ot_routing *r);
/*
 * Whether path SL sl is one of r's escape layers' (SL 1 and a further
 * layer's), not another dimension order's, a twist's or a bounce's;
 * false for a routing not made by hdor on fat-tree lines.
 */
bool ot_hdor_ft_escape_sl(const struct ot_routing *r, uint8_t sl);

/* The next permutation of p[0..n) in lexical order; false after the last. */
static inline bool ot_hdor_next_perm(uint8_t *p, unsigned int n)
{
	unsigned int i = n - 1, j = n - 1;
	uint8_t t;

	while (i > 0 && p[i - 1] >= p[i])
		i--;
	if (!i)
		return false;
	while (p[j] <= p[i - 1])
		j--;
	t = p[i - 1];
	p[i - 1] = p[j];
	p[j] = t;
	for (j = n - 1; i < j; i++, j--) {
		t = p[i];
		p[i] = p[j];
		p[j] = t;
	}
	return true;
}

/*
 * The busiest channel's load when every CA sends to every CA LID along
 * r's tables, or -1 past a bound on the pairs (or out of memory): how
 * hdor compares its routing on several escape layers with the one on
 * one (route/hdor.c).
 */
double ot_hdor_ft_uniform_max(const struct ot_routing *r);

/*
 * 0 if the CA-to-CA path nodes[0..len) follows the rule of hdor on
 * fat-tree lines (route/hdor_ft_rule.c), else -1 with err saying where
 * it leaves it.
 */
int ot_hdor_ft_path(const struct ot_kns *kns, const int32_t *nodes,
		    unsigned int len, struct ot_error *err);

/* Every node's label from its coordinates (route/hdor_labels.c). */
int ot_hdor_set_labels(const struct ot_kns *kns, struct ot_routing *out,
		       struct ot_error *err);

#endif
