// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Fat-tree generators behind `osmtopo gen fattree` and `osmtopo gen
 * ulhpc`: the fabrics OpenSM's own engines (ftree, updn, minhop, ...) are
 * made for, so that `osmtopo compare` can set osmtopo's engines beside
 * them, and the two fat trees of the seeds: the Slimmed Fat-Tree CELLIA
 * was compared with (seed 000 ("Implementation and testing of a KNS
 * topology in an InfiniBand cluster"), section 4.2) and the merged ULHPC
 * islands (seed 003 ("Aggregating and Consolidating two High Performant
 * Network Topologies: The ULHPC Experience"), section 2).  They build the
 * model that ot_netfile_write() hands to ibsim, the input of the flow
 * (fabric -> recognizer -> engine -> tables -> checker); node names carry
 * each node's place in the tree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"

/* Generated fabrics stay far below what ibsim or a test can handle. */
#define FT_MAX_NODES (1u << 20)

struct ft_shape {
	unsigned int h;
	unsigned int m[OT_FT_MAX_LEVELS + 1]; /* m[1..h] */
	unsigned int w[OT_FT_MAX_LEVELS + 1]; /* w[1..h], w[1] = 1 */
	unsigned int p[OT_FT_MAX_LEVELS + 1]; /* p[1..h], p[1] = 1 */
	/* Per level 0..h: nodes, the x part's size and the y part's. */
	uint32_t count[OT_FT_MAX_LEVELS + 1];
	uint32_t xs[OT_FT_MAX_LEVELS + 1]; /* m_{i+1} * ... * m_h */
	uint32_t ys[OT_FT_MAX_LEVELS + 1]; /* w_1 * ... * w_i */
	uint32_t first[OT_FT_MAX_LEVELS + 1]; /* index of level i's first */
	unsigned int ports[OT_FT_MAX_LEVELS + 1]; /* per switch of level i */
	unsigned int radix;
};

static int ft_shape(const struct ot_fattree_params *prm, struct ft_shape *s,
		    struct ot_error *err)
{
	uint64_t total = 0;
	unsigned int i, j;

	memset(s, 0, sizeof(*s));
	if (prm->levels < 1 || prm->levels > OT_FT_MAX_LEVELS)
		return ot_error_set(err, "fattree: 1 to %u switch levels",
				    OT_FT_MAX_LEVELS);
	if (prm->cas < 1)
		return ot_error_set(err, "fattree: at least 1 CA per leaf");
	s->h = prm->levels;
	s->m[1] = prm->cas;
	s->w[1] = 1;
	s->p[1] = 1;
	for (i = 2; i <= s->h; i++) {
		if (prm->down[i] < 1 || prm->up[i] < 1)
			return ot_error_set(err,
					    "fattree: level %u needs at least 1 child and 1 parent per switch",
					    i);
		s->m[i] = prm->down[i];
		s->w[i] = prm->up[i];
		s->p[i] = prm->links[i] ? prm->links[i] : 1;
	}
	for (i = 0; i <= s->h; i++) {
		uint64_t xs = 1, ys = 1;

		for (j = i + 1; j <= s->h; j++)
			xs *= s->m[j];
		for (j = 1; j <= i; j++)
			ys *= s->w[j];
		if (xs * ys > FT_MAX_NODES || total + xs * ys > FT_MAX_NODES)
			return ot_error_set(err,
					    "fattree: more than %u nodes",
					    FT_MAX_NODES);
		s->xs[i] = (uint32_t)xs;
		s->ys[i] = (uint32_t)ys;
		s->count[i] = (uint32_t)(xs * ys);
		s->first[i] = (uint32_t)total;
		total += xs * ys;
	}
	for (i = 1; i <= s->h; i++) {
		uint64_t ports = (uint64_t)s->m[i] * s->p[i];

		if (i < s->h)
			ports += (uint64_t)s->w[i + 1] * s->p[i + 1];
		if (ports > OT_MAX_PORTS)
			return ot_error_set(err,
					    "fattree: a level-%u switch needs %llu ports, more than %u",
					    i, (unsigned long long)ports,
					    OT_MAX_PORTS);
		s->ports[i] = (unsigned int)ports;
		if (s->ports[i] > s->radix)
			s->radix = s->ports[i];
	}
	if (prm->radix) {
		if (prm->radix < s->radix)
			return ot_error_set(err,
					    "fattree: radix %u too small: a switch needs %u ports",
					    prm->radix, s->radix);
		s->radix = prm->radix;
	}
	return 0;
}

/*
 * A level-i node's index within its level: x * ys[i] + y, where x is its
 * x digits as a number with x_{i+1} least significant, and y its y digits
 * with y_i most significant.
 */
static void ft_name(const struct ft_shape *s, unsigned int level,
		    uint32_t idx, char *buf, size_t len)
{
	uint32_t x = idx / s->ys[level], y = idx % s->ys[level];
	unsigned int digit[2 * OT_FT_MAX_LEVELS + 2], nd = 0, j;
	size_t used;

	/* x_h first: peel x_{i+1} (least significant) upward, reverse. */
	for (j = level + 1; j <= s->h; j++) {
		digit[nd++] = x % s->m[j];
		x /= s->m[j];
	}
	if (level == 0)
		used = (size_t)snprintf(buf, len, "CA[");
	else
		used = (size_t)snprintf(buf, len, "L%u[", level);
	for (j = nd; j-- > 0 && used < len;)
		used += (size_t)snprintf(buf + used, len - used, "%u%s",
					 digit[j], j ? "," : "");
	if (level < 2) {
		if (used < len)
			snprintf(buf + used, len - used, "]");
		return;
	}
	if (used < len)
		used += (size_t)snprintf(buf + used, len - used, ";");
	/* y_i is most significant: the last divisor is w_i. */
	nd = 0;
	for (j = 1; j <= level; j++) {
		uint32_t below = 1;
		unsigned int k;

		for (k = 1; k < j; k++)
			below *= s->w[k];
		digit[nd++] = (y / below) % s->w[j];
	}
	/* Print y_i .. y_2 (y_1 is always 0). */
	for (j = nd; j-- > 1 && used < len;)
		used += (size_t)snprintf(buf + used, len - used, "%u%s",
					 digit[j], j > 1 ? "," : "]");
}

struct ot_fabric *ot_gen_fattree(const struct ot_fattree_params *prm,
				 struct ot_error *err)
{
	struct ot_fabric *f = NULL;
	struct ft_shape s;
	unsigned int level;
	uint32_t i;
	char name[160];

	if (ft_shape(prm, &s, err))
		return NULL;
	f = ot_fabric_new();
	if (!f) {
		ot_error_nomem(err, "fattree");
		return NULL;
	}
	for (level = 0; level <= s.h; level++) {
		for (i = 0; i < s.count[level]; i++) {
			ft_name(&s, level, i, name, sizeof(name));
			if (ot_fabric_add_node(f,
					       level ? OT_NODE_SWITCH :
						       OT_NODE_CA,
					       level ? s.radix : 1, 0, name,
					       err) < 0)
				goto fail;
		}
	}
	/*
	 * Each level-(i-1) node to its w_i parents: the parent drops x_i
	 * and gains y_i = k; the child sits on the parent's down ports at
	 * x_i, and on its own up ports (after its down ports) at k.
	 */
	for (level = 1; level <= s.h; level++) {
		unsigned int cl = level - 1;
		unsigned int child_down = cl ? s.m[cl] * s.p[cl] : 0;

		for (i = 0; i < s.count[cl]; i++) {
			uint32_t x = i / s.ys[cl], y = i % s.ys[cl];
			uint32_t px = x / s.m[level];
			unsigned int xi = x % s.m[level], k, q;

			for (k = 0; k < s.w[level]; k++) {
				uint32_t parent = px * s.ys[level] + y +
						  k * s.ys[cl];

				for (q = 0; q < s.p[level]; q++) {
					unsigned int cp = child_down +
							  k * s.p[level] + q +
							  1;
					unsigned int pp =
						xi * s.p[level] + q + 1;

					if (ot_fabric_link(f,
							   (int)(s.first[cl] + i),
							   cp,
							   (int)(s.first[level] +
								 parent),
							   pp, err))
						goto fail;
				}
			}
		}
	}
	return f;
fail:
	ot_fabric_free(f);
	return NULL;
}

void ot_ulhpc_defaults(struct ot_ulhpc_params *p, unsigned int iris_cas,
		       unsigned int aion_cas)
{
	memset(p, 0, sizeof(*p));
	p->island[0] = (struct ot_island_params){
		.name = "iris", .leaves = 12, .spines = 6, .cas = iris_cas,
		.links = 2, .leaf_radix = 36, .spine_radix = 36,
	};
	/*
	 * HDR switches have 40 ports; Aion's leaves split theirs into two
	 * HDR100 ports each (Y-cables), which shows as an 80-port switch.
	 * 3 cables per leaf-spine pair is the 2:1 blocking the paper states
	 * for 48 HDR100 nodes a leaf: 12 HDR uplinks.
	 */
	p->island[1] = (struct ot_island_params){
		.name = "aion", .leaves = 8, .spines = 4, .cas = aion_cas,
		.links = 3, .leaf_radix = 80, .spine_radix = 40,
	};
	p->inter = 2;
}

struct island_nodes {
	int first_ca, first_leaf, first_spine;
	unsigned int leaf_ports, spine_ports;
};

static int island_radix(const struct ot_island_params *ip, unsigned int other,
			unsigned int inter, struct island_nodes *in,
			struct ot_error *err)
{
	uint64_t leaf = (uint64_t)ip->cas + (uint64_t)ip->spines * ip->links;
	uint64_t spine = (uint64_t)ip->leaves * ip->links +
			 (uint64_t)other * inter;

	if (!ip->leaves || !ip->spines || !ip->cas || !ip->links)
		return ot_error_set(err,
				    "ulhpc: %s needs leaves, spines, CAs and links",
				    ip->name);
	if (leaf > OT_MAX_PORTS || spine > OT_MAX_PORTS ||
	    (ip->leaf_radix && leaf > ip->leaf_radix) ||
	    (ip->spine_radix && spine > ip->spine_radix))
		return ot_error_set(err,
				    "ulhpc: %s needs %llu ports a leaf and %llu a spine (radix %u and %u)",
				    ip->name, (unsigned long long)leaf,
				    (unsigned long long)spine, ip->leaf_radix,
				    ip->spine_radix);
	in->leaf_ports = ip->leaf_radix ? ip->leaf_radix : (unsigned int)leaf;
	in->spine_ports =
		ip->spine_radix ? ip->spine_radix : (unsigned int)spine;
	return 0;
}

/*
 * count switches "<island>-<kind>-<i>" of nports ports each, in a row of
 * node indices from *first.
 */
static int add_switches(struct ot_fabric *f, const char *island,
			const char *kind, unsigned int count,
			unsigned int nports, int *first, struct ot_error *err)
{
	char name[128];
	unsigned int i;
	int n;

	for (i = 0; i < count; i++) {
		snprintf(name, sizeof(name), "%s-%s-%u", island, kind, i);
		n = ot_fabric_add_node(f, OT_NODE_SWITCH, nports, 0, name, err);
		if (n < 0)
			return -1;
		if (!i)
			*first = n;
	}
	return 0;
}

static int add_island(struct ot_fabric *f, const struct ot_island_params *ip,
		      struct island_nodes *in, struct ot_error *err)
{
	char name[128];
	unsigned int l, c, s, q;
	int n;

	for (l = 0; l < ip->leaves; l++) {
		for (c = 0; c < ip->cas; c++) {
			snprintf(name, sizeof(name), "%s-ca-%u-%u", ip->name, l,
				 c);
			n = ot_fabric_add_node(f, OT_NODE_CA, 1, 0, name, err);
			if (n < 0)
				return -1;
			if (!l && !c)
				in->first_ca = n;
		}
	}
	if (add_switches(f, ip->name, "leaf", ip->leaves, in->leaf_ports,
			 &in->first_leaf, err) ||
	    add_switches(f, ip->name, "spine", ip->spines, in->spine_ports,
			 &in->first_spine, err))
		return -1;
	for (l = 0; l < ip->leaves; l++) {
		int leaf = in->first_leaf + (int)l;

		for (c = 0; c < ip->cas; c++)
			if (ot_fabric_link(f, in->first_ca +
						      (int)(l * ip->cas + c),
					   1, leaf, c + 1, err))
				return -1;
		for (s = 0; s < ip->spines; s++)
			for (q = 0; q < ip->links; q++)
				if (ot_fabric_link(f, leaf,
						   ip->cas + s * ip->links + q +
							   1,
						   in->first_spine + (int)s,
						   l * ip->links + q + 1, err))
					return -1;
	}
	return 0;
}

struct ot_fabric *ot_gen_ulhpc(const struct ot_ulhpc_params *p,
			       struct ot_error *err)
{
	const struct ot_island_params *a = &p->island[0], *b = &p->island[1];
	struct island_nodes in[2];
	struct ot_fabric *f;
	unsigned int s, t, q;

	if (!p->inter) {
		ot_error_set(err, "ulhpc: no interlinks");
		return NULL;
	}
	if (island_radix(a, b->spines, p->inter, &in[0], err) ||
	    island_radix(b, a->spines, p->inter, &in[1], err))
		return NULL;
	f = ot_fabric_new();
	if (!f) {
		ot_error_nomem(err, "fattree");
		return NULL;
	}
	if (add_island(f, a, &in[0], err) || add_island(f, b, &in[1], err))
		goto fail;
	/* Spine ports after the leaves': island 1 spine t, cable q. */
	for (t = 0; t < b->spines; t++)
		for (s = 0; s < a->spines; s++)
			for (q = 0; q < p->inter; q++)
				if (ot_fabric_link(f, in[0].first_spine + (int)s,
						   a->leaves * a->links +
							   t * p->inter + q + 1,
						   in[1].first_spine + (int)t,
						   b->leaves * b->links +
							   s * p->inter + q + 1,
						   err))
					goto fail;
	return f;
fail:
	ot_fabric_free(f);
	return NULL;
}
