// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The Dragonfly+ recognizer (see dragonfly_plus.h for the rule): roles
 * from the CAs, groups from the leaf-spine cables, numbering by the
 * cabling (df_canon.h).
 */
#include <stdlib.h>
#include <string.h>

#include "model/uf.h"
#include "topo/df_canon.h"
#include "topo/dragonfly_plus.h"

static bool has_ca(const struct ot_fabric *f, uint32_t n)
{
	unsigned int p;

	for (p = 1; p <= f->node[n].nports; p++) {
		int32_t x = f->node[n].port[p].peer;

		if (x >= 0 && !ot_is_switch(f, x))
			return true;
	}
	return false;
}

/*
 * The role switch n takes in this round from the roles known (role[]):
 * a leaf where it carries a CA, or where every switch neighbour is a
 * spine (a spine needs a leaf; so is a switch without any); a spine
 * where it is cabled to a leaf (only spines are).  Stalled (the previous
 * round changed nothing; stall 1): a leaf where no neighbour is known
 * yet and each is cabled to a known spine (a leaf of a group whose leaves
 * all lost their CAs: its spines hold global cables to the spines known);
 * stall 2 (that changed nothing either): where some is.  OT_DFP_NONE:
 * not yet.
 */
static uint8_t role_of(const struct ot_fabric *f, const uint8_t *role,
		       uint32_t n, unsigned int stall)
{
	const struct ot_node *nd = &f->node[n];
	bool spines = true, known = false, all = true, some = false;
	unsigned int p, q;

	if (has_ca(f, n))
		return OT_DFP_LEAF;
	for (p = 1; p <= nd->nports; p++) {
		const struct ot_node *xd;
		int32_t x = nd->port[p].peer;
		bool any = false;

		if (x < 0 || (uint32_t)x == n || !ot_is_switch(f, x))
			continue;
		if (role[x] == OT_DFP_LEAF)
			return OT_DFP_SPINE;
		spines &= role[x] == OT_DFP_SPINE;
		known |= role[x] != OT_DFP_NONE;
		xd = &f->node[x];
		for (q = 1; q <= xd->nports && stall && !any; q++)
			any = xd->port[q].peer >= 0 &&
			      role[xd->port[q].peer] == OT_DFP_SPINE;
		all &= any;
		some |= any;
	}
	if (spines || (stall && !known && (stall == 1 ? all : some)))
		return OT_DFP_LEAF;
	return OT_DFP_NONE;
}

/*
 * Roles from the cabling (leaves on one side of the leaf/spine cables,
 * global cables between spines): rounds of role_of() over every switch
 * at once, from the previous round's roles only, so node order and port
 * numbers never count.  A switch still without a role when two stalled
 * rounds changed nothing is refused by name (the smallest GUID); so is a
 * leaf cabled to a leaf.  (A fabric without a spine is refused later: a
 * single group.)
 */
static int find_roles(struct ot_dfp *d, struct ot_error *err)
{
	const struct ot_fabric *f = d->fabric;
	uint8_t *next = calloc((size_t)f->nnodes + 1, 1);
	uint32_t n, changed, open = 0;
	int32_t worst = -1;
	unsigned int p, stall = 0;

	if (!next)
		return ot_error_nomem(err, "dragonfly+");
	for (n = 0; n < f->nnodes; n++)
		open += ot_is_switch(f, n) && has_ca(f, n);
	if (!open) {
		free(next);
		return ot_refuse(err, OT_ERR_TOPOLOGY,
				 "dragonfly+: no switch with a CA: no leaves");
	}
	for (;;) {
		changed = open = 0;
		for (n = 0; n < f->nnodes; n++) {
			next[n] = d->role[n];
			if (ot_is_switch(f, n) && d->role[n] == OT_DFP_NONE) {
				next[n] = role_of(f, d->role, n, stall);
				changed += next[n] != OT_DFP_NONE;
				open += next[n] == OT_DFP_NONE;
			}
		}
		memcpy(d->role, next, f->nnodes);
		if (!open || (!changed && stall == 2))
			break;
		stall = changed ? 0 : stall + 1;
	}
	free(next);
	for (n = 0; n < f->nnodes; n++)
		if (ot_is_switch(f, n) && d->role[n] == OT_DFP_NONE &&
		    (worst < 0 || f->node[n].guid < f->node[worst].guid))
			worst = (int32_t)n;
	if (worst >= 0)
		return ot_refuse(err, OT_ERR_TOPOLOGY,
				 "dragonfly+: switch \"%s\": neither a leaf (no CA, not all its switch neighbours spines) nor a spine (cabled to no leaf): roles not told apart by the cabling",
				 f->node[worst].desc);
	for (n = 0; n < f->nnodes; n++) {
		if (d->role[n] != OT_DFP_LEAF)
			continue;
		for (p = 1; p <= f->node[n].nports; p++) {
			int32_t x = f->node[n].port[p].peer;

			if (x >= 0 && (uint32_t)x != n &&
			    d->role[x] == OT_DFP_LEAF)
				return ot_refuse(err, OT_ERR_TOPOLOGY,
						 "dragonfly+: switch \"%s\": a leaf cabled to the leaf \"%s\": no leaf/spine fat tree",
						 f->node[n].desc,
						 f->node[x].desc);
		}
	}
	return 0;
}

/* A switch sorted into its group and role by its rank (df_canon.h). */
struct dfp_member {
	uint32_t group;
	uint8_t role;
	uint32_t rank;
	int32_t node;
};

static int cmp_member(const void *a, const void *b)
{
	const struct dfp_member *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->role != y->role)
		return x->role < y->role ? -1 : 1;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

/*
 * Groups renumbered and their leaves and spines numbered by the cabling
 * (df_canon.h), listed.
 */
static int list_members(struct ot_dfp *d, struct ot_error *err)
{
	const struct ot_fabric *f = d->fabric;
	struct dfp_member *m = malloc(((size_t)f->nnodes + 1) * sizeof(*m));
	uint32_t *rank = malloc(((size_t)f->nnodes + 1) * sizeof(*rank));
	uint32_t n, i, k = 0, nl = 0, ns = 0, G;
	int error = !m || !rank ? ot_error_nomem(err, "dragonfly+") : 0;

	if (!error)
		error = ot_df_canon(f, d->group, d->ngroups, d->role, rank,
				    "dragonfly+", err);
	if (error) {
		free(m);
		free(rank);
		return error;
	}
	for (n = 0; n < f->nnodes; n++)
		if (ot_is_switch(f, n))
			m[k++] = (struct dfp_member){ d->group[n], d->role[n],
						      rank[n], n };
	free(rank);
	qsort(m, k, sizeof(*m), cmp_member);
	for (i = 0; i < k; i++) {
		G = m[i].group;
		if (m[i].role == OT_DFP_LEAF) {
			d->index[m[i].node] = nl - d->lstart[G];
			d->leaf[nl++] = m[i].node;
		} else {
			d->index[m[i].node] = ns - d->sstart[G];
			d->spine[ns++] = m[i].node;
		}
		if (i + 1 == k || m[i + 1].group != G) {
			d->lstart[G + 1] = nl;
			d->sstart[G + 1] = ns;
		}
	}
	for (G = 0; G < d->ngroups; G++) {
		uint32_t a = d->lstart[G + 1] - d->lstart[G];
		uint32_t s = d->sstart[G + 1] - d->sstart[G];

		d->max_leaves = a > d->max_leaves ? a : d->max_leaves;
		d->max_spines = s > d->max_spines ? s : d->max_spines;
	}
	free(m);
	return 0;
}

/* Distinct switches of role r cabled to n in its group. */
static uint32_t cabled_in_group(const struct ot_dfp *d, uint32_t n,
				uint8_t r, uint8_t *seen)
{
	const struct ot_node *nd = &d->fabric->node[n];
	uint32_t c = 0;
	unsigned int p;

	for (p = 1; p <= nd->nports; p++) {
		int32_t x = nd->port[p].peer;

		if (x >= 0 && d->role[x] == r && d->group[x] == d->group[n] &&
		    !seen[x]) {
			seen[x] = 1;
			c++;
		}
	}
	for (p = 1; p <= nd->nports; p++)
		if (nd->port[p].peer >= 0)
			seen[nd->port[p].peer] = 0;
	return c;
}

/*
 * Every spine with a leaf, no spine-spine cable in a group, two groups.
 * (How many of its group's spines a leaf reaches is damage's business:
 * the routing is deadlock-free on any cabling of these roles.)
 */
static int check_groups(struct ot_dfp *d, struct ot_error *err)
{
	const struct ot_fabric *f = d->fabric;
	uint8_t *seen = calloc((size_t)f->nnodes + 1, 1);
	uint32_t n, in;
	unsigned int p;
	int error = 0;

	if (!seen)
		return ot_error_nomem(err, "dragonfly+");
	for (n = 0; n < f->nnodes && !error; n++) {
		int32_t G = d->group[n];

		if (!ot_is_switch(f, n) || d->role[n] != OT_DFP_SPINE)
			continue;
		in = cabled_in_group(d, n, OT_DFP_LEAF, seen);
		if (d->role[n] == OT_DFP_SPINE && !in)
			error = ot_refuse(err, OT_ERR_TOPOLOGY,
					  "dragonfly+: switch \"%s\": a spine (no CA) cabled to no leaf: no two-level leaf/spine fat tree",
					  f->node[n].desc);
		for (p = 1; p <= f->node[n].nports && !error; p++) {
			int32_t x = f->node[n].port[p].peer;

			if (x >= 0 && (uint32_t)x != n &&
			    d->role[x] == OT_DFP_SPINE && d->group[x] == G)
				error = ot_refuse(err, OT_ERR_TOPOLOGY,
						  "dragonfly+: switch \"%s\": two spines of one group cabled (\"%s\"): no leaf/spine fat tree",
						  f->node[n].desc,
						  f->node[x].desc);
		}
	}
	free(seen);
	if (!error && d->ngroups < 2)
		error = ot_refuse(err, OT_ERR_TOPOLOGY,
				  "dragonfly+: one leaf/spine fat tree, no second group: a fat tree, no Dragonfly+");
	return error;
}

static int dfp_alloc(const struct ot_fabric *f, struct ot_dfp *d)
{
	size_t N = (size_t)f->nnodes + 2;
	uint32_t n;

	d->fabric = f;
	d->group = malloc(N * sizeof(*d->group));
	d->role = calloc(N, 1);
	d->index = malloc(N * sizeof(*d->index));
	d->lstart = calloc(N, sizeof(*d->lstart));
	d->sstart = calloc(N, sizeof(*d->sstart));
	d->leaf = malloc(N * sizeof(*d->leaf));
	d->spine = malloc(N * sizeof(*d->spine));
	if (!d->group || !d->role || !d->index || !d->lstart || !d->sstart ||
	    !d->leaf || !d->spine)
		return -1;
	for (n = 0; n < f->nnodes; n++)
		d->group[n] = d->index[n] = -1;
	return 0;
}

/* Leaf-spine cables joined; CAs and routers join their switch's group. */
static void join_groups(struct ot_dfp *d, struct ot_uf *uf)
{
	const struct ot_fabric *f = d->fabric;
	uint32_t n;
	unsigned int p;

	for (n = 0; n < f->nnodes; n++)
		for (p = 1; p <= f->node[n].nports &&
			    d->role[n] == OT_DFP_LEAF; p++) {
			int32_t x = f->node[n].port[p].peer;

			if (x >= 0 && d->role[x] == OT_DFP_SPINE)
				ot_uf_union(uf, n, x);
		}
}

static void place_cas(struct ot_dfp *d)
{
	const struct ot_fabric *f = d->fabric;
	uint32_t n;
	unsigned int p;

	for (n = 0; n < f->nnodes; n++)
		for (p = 1; p <= f->node[n].nports && !ot_is_switch(f, n); p++) {
			int32_t x = f->node[n].port[p].peer;

			if (x >= 0 && ot_is_switch(f, x))
				d->group[n] = d->group[x];
		}
}

int ot_dfp_recognize(const struct ot_fabric *f, struct ot_dfp **out,
		     struct ot_error *err)
{
	struct ot_dfp *d = calloc(1, sizeof(*d));
	struct ot_uf *uf = ot_uf_new(f->nnodes ? f->nnodes : 1);
	uint32_t largest;
	int error;

	*out = NULL;
	if (!d || !uf || dfp_alloc(f, d)) {
		error = ot_error_nomem(err, "dragonfly+");
		goto out;
	}
	error = find_roles(d, err);
	if (!error) {
		join_groups(d, uf);
		error = ot_uf_number_switches(f, uf, d->group, &d->ngroups,
					      &largest, "dragonfly+", err);
	}
	if (!error)
		error = list_members(d, err);
	if (!error)
		error = check_groups(d, err);
	if (error)
		goto out;
	place_cas(d);
	*out = d;
	d = NULL;
out:
	ot_uf_free(uf);
	ot_dfp_free(d);
	return error;
}

void ot_dfp_free(struct ot_dfp *d)
{
	if (!d)
		return;
	free(d->group);
	free(d->role);
	free(d->index);
	free(d->lstart);
	free(d->sstart);
	free(d->leaf);
	free(d->spine);
	free(d);
}

enum ot_dfp_port ot_dfp_port_class(const struct ot_dfp *d, uint32_t n,
				   unsigned int p)
{
	const struct ot_fabric *f = d->fabric;
	int32_t x;

	if (!p || p > f->node[n].nports)
		return OT_DFP_PORT_NONE;
	x = f->node[n].port[p].peer;
	if (x < 0)
		return OT_DFP_PORT_NONE;
	if (!ot_is_switch(f, n) || !ot_is_switch(f, x))
		return OT_DFP_PORT_CA;
	if (d->role[n] == OT_DFP_LEAF)
		return OT_DFP_PORT_UP;
	if (d->role[x] == OT_DFP_LEAF)
		return OT_DFP_PORT_DOWN;
	return OT_DFP_PORT_GLOBAL;
}
