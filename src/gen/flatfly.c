// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The FlatFly / hypercube generator behind `osmtopo gen flatfly` and
 * `osmtopo gen hypercube` (seed 001 ("Early evaluation of direct
 * large-scale InfiniBand networks with adaptive routing"), sections 1.2
 * and 1.3).  It builds the fabric model that ot_netfile_write() hands to
 * ibsim, i.e. the input of the flow (fabric -> recognizer -> coordinates
 * -> engine -> tables -> checker).  Switch names carry the coordinates the
 * fabric was built with, so that tests and the tolerance bench can check
 * the recognizer's answer; the recognizer never reads them.  Dropping
 * switches and cables at random (with a portable PRNG) makes the damaged
 * fabrics on which seed 001 reports its mapping still works; shuffling
 * ports and node order proves the recognizer needs neither.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/common.h"
#include "gen/gen.h"
#include "topo/flatfly.h"

#define MAX_SWITCHES (1u << 20)

struct ff_shape {
	unsigned int ndims, cas, radix;
	unsigned int size[OT_GEN_FF_MAX_DIMS];
	unsigned int width[OT_GEN_FF_MAX_DIMS];
	unsigned int port_base[OT_GEN_FF_MAX_DIMS]; /* first port of dim d */
	uint32_t nslots;
	const char *prefix;
};

static unsigned int coord(const struct ff_shape *s, uint32_t slot,
			  unsigned int d)
{
	unsigned int i;

	for (i = 0; i < d; i++)
		slot /= s->size[i];
	return slot % s->size[d];
}

/* The slot that differs from slot only in dimension d, with value v. */
static uint32_t with_coord(const struct ff_shape *s, uint32_t slot,
			   unsigned int d, unsigned int v)
{
	uint32_t stride = 1;
	unsigned int i;

	for (i = 0; i < d; i++)
		stride *= s->size[i];
	return slot - coord(s, slot, d) * stride + v * stride;
}

/* Logical port (before shuffling) of cable l towards value v in dim d. */
static unsigned int cable_port(const struct ff_shape *s, uint32_t slot,
			       unsigned int d, unsigned int v, unsigned int l)
{
	unsigned int own = coord(s, slot, d);

	return s->port_base[d] + (v < own ? v : v - 1) * s->width[d] + l;
}

static int check_params(const struct ot_flatfly_params *p, struct ff_shape *s,
			struct ot_error *err)
{
	uint64_t slots = 1, ports;
	unsigned int d;

	if (p->ndims < 1 || p->ndims > OT_GEN_FF_MAX_DIMS)
		return ot_error_set(err, "flatfly: 1 to %u dimensions",
				    OT_GEN_FF_MAX_DIMS);
	if (!(p->drop_links >= 0 && p->drop_links < 1) ||
	    !(p->drop_switches >= 0 && p->drop_switches < 1))
		return ot_error_set(err,
				    "flatfly: drop fractions must be in [0, 1)");
	s->ndims = p->ndims;
	s->cas = p->cas;
	s->prefix = p->prefix ? p->prefix : "FF";
	ports = p->cas;
	for (d = 0; d < p->ndims; d++) {
		if (p->size[d] < 2)
			return ot_error_set(err,
					    "flatfly: dimension %u has size %u (>= 2)",
					    d, p->size[d]);
		s->size[d] = p->size[d];
		s->width[d] = p->width[d] ? p->width[d] : 1;
		s->port_base[d] = 1 + ports;
		ports += (uint64_t)s->width[d] * (p->size[d] - 1);
		slots *= p->size[d];
		if (slots > MAX_SWITCHES)
			return ot_error_set(err,
					    "flatfly: more than %u switches",
					    MAX_SWITCHES);
		if (ports > OT_MAX_PORTS)
			return ot_error_set(err,
					    "flatfly: a switch needs more than %u ports",
					    OT_MAX_PORTS);
	}
	if (!ports)
		ports = 1;
	s->radix = ports;
	if (p->radix) {
		if (p->radix < ports)
			return ot_error_set(err,
					    "flatfly: radix %u too small: a switch needs %u ports",
					    p->radix, (unsigned int)ports);
		if (p->radix > OT_MAX_PORTS)
			return ot_error_set(err, "flatfly: radix %u > %u",
					    p->radix, OT_MAX_PORTS);
		s->radix = p->radix;
	}
	s->nslots = slots;
	return 0;
}

/* "[c0,c1,...]" into buf. */
static void coords_str(const struct ff_shape *s, uint32_t slot, char *buf,
		       size_t len)
{
	size_t used;
	unsigned int d;

	used = snprintf(buf, len, "[");
	for (d = 0; d < s->ndims && used < len; d++)
		used += snprintf(buf + used, len - used, "%u%s",
				 coord(s, slot, d),
				 d + 1 < s->ndims ? "," : "]");
}

static int collect_cables(const void *shape, const bool *present,
			  struct gen_cable **out, uint32_t *count,
			  struct ot_error *err)
{
	const struct ff_shape *s = shape;
	struct gen_cable *c = NULL;
	uint64_t max = 0;
	uint32_t slot, n = 0;
	unsigned int d, v, l;

	for (d = 0; d < s->ndims; d++)
		max += (uint64_t)s->nslots * (s->size[d] - 1) * s->width[d] / 2;
	c = malloc((max ? max : 1) * sizeof(*c));
	if (!c)
		return ot_error_nomem(err, "flatfly");
	for (slot = 0; slot < s->nslots; slot++) {
		if (!present[slot])
			continue;
		for (d = 0; d < s->ndims; d++) {
			unsigned int own = coord(s, slot, d);

			for (v = own + 1; v < s->size[d]; v++) {
				uint32_t other = with_coord(s, slot, d, v);

				if (!present[other])
					continue;
				for (l = 0; l < s->width[d]; l++) {
					c[n].a = slot;
					c[n].b = other;
					c[n].pa = cable_port(s, slot, d, v, l);
					c[n].pb = cable_port(s, other, d, own,
							     l);
					n++;
				}
			}
		}
	}
	*out = c;
	*count = n;
	return 0;
}

/* What node_name() needs: the shape and which switches are left. */
struct ff_names {
	const struct ff_shape *s;
	const bool *present;
};

/*
 * Logical nodes: switches by slot, then the CAs slot by slot; a dropped
 * switch and its CAs are left out.
 */
static bool node_name(const void *ctx, uint32_t ln, char *buf, size_t len)
{
	const struct ff_names *nm = ctx;
	const struct ff_shape *s = nm->s;
	bool is_ca = ln >= s->nslots;
	uint32_t sl = is_ca ? (ln - s->nslots) / s->cas : ln;
	char cs[128];

	if (!nm->present[sl])
		return false;
	coords_str(s, sl, cs, sizeof(cs));
	if (is_ca)
		snprintf(buf, len, "%s%s/%u", s->prefix, cs,
			 (ln - s->nslots) % s->cas);
	else
		snprintf(buf, len, "%s%s", s->prefix, cs);
	return true;
}

struct ot_fabric *ot_gen_flatfly(const struct ot_flatfly_params *p,
				 struct ot_error *err)
{
	struct ff_shape s = { 0 };
	struct gen_layout l = { 0 };
	struct ot_fabric *f = NULL;
	struct ff_names names;
	bool *present = NULL;
	int error = 0;

	error = check_params(p, &s, err);
	if (error)
		goto out;
	f = ot_fabric_new();
	present = malloc(s.nslots * sizeof(*present));
	if (!f || !present ||
	    gen_layout_init(&l, s.nslots * (1 + s.cas), s.nslots, s.radix)) {
		error = ot_error_nomem(err, "flatfly");
		goto out;
	}
	names.s = &s;
	names.present = present;
	error = gen_damage_wire(f, &l, GEN_DAMAGE_OF(p), collect_cables, &s,
				present,
				&(struct gen_wiring){ .name = node_name,
						      .ctx = &names,
						      .nsw = s.nslots,
						      .cas = s.cas }, err);
out:
	free(present);
	return gen_done(f, &l, error);
}

unsigned int ot_gen_name_coords(const char *desc, uint32_t *coord,
				unsigned int max)
{
	const char *p = desc ? strchr(desc, '[') : NULL;
	unsigned int n = 0;

	if (!p)
		return 0;
	p++;
	while (n < max) {
		char *end;
		unsigned long v = strtoul(p, &end, 10);

		if (end == p)
			return 0;
		coord[n++] = v;
		if (*end == ']')
			return n;
		if (*end != ',')
			return 0;
		p = end + 1;
	}
	return 0;
}

/* What ot_gen_flatfly_check_map() has found so far. */
struct map_check {
	const struct ot_fabric *f;
	const struct ot_ff *ff;
	unsigned int tdims; /* dimensions the names carry (built) */
	unsigned int maxv[OT_GEN_FF_MAX_DIMS]; /* values built, per dimension */
	int to_true[OT_FF_MAX_DIMS];       /* mapped dimension -> built, -1 */
	int to_mapped[OT_GEN_FF_MAX_DIMS]; /* built dimension -> mapped, -1 */
};

/*
 * Every switch carries generated coordinates, as many as the others, and
 * has a position; the mapping has as many dimensions as the names.
 */
static int check_switch_names(struct map_check *mc, struct ot_error *err)
{
	const struct ot_fabric *f = mc->f;
	uint32_t tc[OT_GEN_FF_MAX_DIMS];
	unsigned int d, k;
	uint32_t n;

	for (n = 0; n < f->nnodes; n++) {
		if (f->node[n].type != OT_NODE_SWITCH)
			continue;
		k = ot_gen_name_coords(f->node[n].desc, tc, OT_GEN_FF_MAX_DIMS);
		if (!k || (mc->tdims && k != mc->tdims))
			return ot_error_set(err,
					    "switch \"%s\": no generated coordinates",
					    f->node[n].desc);
		mc->tdims = k;
		for (d = 0; d < k; d++)
			if (tc[d] + 1 > mc->maxv[d])
				mc->maxv[d] = tc[d] + 1;
		if (mc->ff->sw_slot[n] < 0)
			return ot_error_set(err, "switch \"%s\": not mapped",
					    f->node[n].desc);
	}
	if (mc->ff->ndims != mc->tdims)
		return ot_error_set(err, "%u dimensions mapped, %u built",
				    mc->ff->ndims, mc->tdims);
	return 0;
}

/*
 * Dimensions, from the cables: each switch-to-switch cable joins names
 * that differ in one dimension, and the mapping gives all the cables of a
 * built dimension one mapped dimension, and no other's.
 */
static int match_dimensions(struct map_check *mc, struct ot_error *err)
{
	const struct ot_fabric *f = mc->f;
	uint32_t tc[OT_GEN_FF_MAX_DIMS], pc[OT_GEN_FF_MAX_DIMS];
	unsigned int p, d;
	uint32_t n;

	for (n = 0; n < f->nnodes; n++) {
		const struct ot_node *nd = &f->node[n];

		if (nd->type != OT_NODE_SWITCH)
			continue;
		ot_gen_name_coords(nd->desc, tc, OT_GEN_FF_MAX_DIMS);
		for (p = 1; p <= nd->nports; p++) {
			int32_t peer = nd->port[p].peer;
			int t, m;

			if (peer < 0 || f->node[peer].type != OT_NODE_SWITCH)
				continue;
			ot_gen_name_coords(f->node[peer].desc, pc,
					   OT_GEN_FF_MAX_DIMS);
			t = ot_ff_one_diff(tc, pc, mc->tdims);
			m = ot_ff_port_dim(mc->ff, n, p);
			if (t < 0 || m < 0 ||
			    (mc->to_true[m] >= 0 && mc->to_true[m] != t) ||
			    (mc->to_mapped[t] >= 0 && mc->to_mapped[t] != m))
				return ot_error_set(err,
						    "switch \"%s\" port %u: cable of dimension %d mapped to dimension %d",
						    nd->desc, p, t, m);
			mc->to_true[m] = t;
			mc->to_mapped[t] = m;
		}
	}
	for (d = 0; d < mc->tdims; d++)
		if (mc->to_mapped[d] < 0)
			return ot_error_set(err,
					    "dimension %u: no cable left to tell",
					    d);
	return 0;
}

/*
 * Values, one to one per dimension: fwd[d] maps built values of built
 * dimension d to mapped ones, rev[m] the other way for mapped dimension m.
 */
static int match_values(const struct map_check *mc, struct ot_error *err)
{
	const struct ot_fabric *f = mc->f;
	const struct ot_ff *ff = mc->ff;
	uint32_t tc[OT_GEN_FF_MAX_DIMS];
	int32_t *fwd[OT_GEN_FF_MAX_DIMS] = { NULL };
	int32_t *rev[OT_FF_MAX_DIMS] = { NULL };
	unsigned int d;
	uint32_t n;
	int error = 0;

	for (d = 0; d < mc->tdims; d++) {
		int m = mc->to_mapped[d];

		fwd[d] = malloc(mc->maxv[d] * sizeof(*fwd[d]));
		rev[m] = malloc(ff->size[m] * sizeof(*rev[m]));
		if (!fwd[d] || !rev[m]) {
			error = ot_error_nomem(err, "flatfly");
			goto out;
		}
		memset(fwd[d], -1, mc->maxv[d] * sizeof(*fwd[d]));
		memset(rev[m], -1, ff->size[m] * sizeof(*rev[m]));
	}
	for (n = 0; n < f->nnodes; n++) {
		if (f->node[n].type != OT_NODE_SWITCH)
			continue;
		ot_gen_name_coords(f->node[n].desc, tc, OT_GEN_FF_MAX_DIMS);
		for (d = 0; d < mc->tdims; d++) {
			int m = mc->to_mapped[d];
			int32_t v = ot_ff_coord(ff, ff->sw_slot[n], m);

			if ((fwd[d][tc[d]] >= 0 && fwd[d][tc[d]] != v) ||
			    (rev[m][v] >= 0 && rev[m][v] != (int32_t)tc[d])) {
				error = ot_error_set(err,
						     "switch \"%s\": value %u of dimension %u mapped to %d, inconsistently",
						     f->node[n].desc, tc[d], d,
						     v);
				goto out;
			}
			fwd[d][tc[d]] = v;
			rev[m][v] = tc[d];
		}
	}
out:
	for (d = 0; d < OT_GEN_FF_MAX_DIMS; d++)
		free(fwd[d]);
	for (d = 0; d < OT_FF_MAX_DIMS; d++)
		free(rev[d]);
	return error;
}

int ot_gen_flatfly_check_map(const struct ot_fabric *f,
			     const struct ot_ff *ff, struct ot_error *err)
{
	struct map_check mc = { .f = f, .ff = ff };
	unsigned int d;

	for (d = 0; d < OT_GEN_FF_MAX_DIMS; d++)
		mc.to_mapped[d] = -1;
	for (d = 0; d < OT_FF_MAX_DIMS; d++)
		mc.to_true[d] = -1;
	if (check_switch_names(&mc, err) || match_dimensions(&mc, err))
		return -1;
	return match_values(&mc, err);
}
