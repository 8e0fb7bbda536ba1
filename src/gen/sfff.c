// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The Slim Fly x FlatFly generator behind `osmtopo gen sfxff` (seed 001
 * ("Early evaluation of direct large-scale InfiniBand networks with
 * adaptive routing"), section 1.5: "Cartesian products of Slim Fly and
 * FlatFly", the paper's SF x FF-1 and SF x FF-2).  A switch is a pair
 * (MMS position of q, FlatFly position); two switches are cabled when
 * they differ in one factor only and are adjacent there: width (the
 * paper's L) cables when the MMS positions are MMS neighbours, the
 * dimension's width when the FlatFly positions differ in one dimension.
 * It builds the fabric model, the input of the flow (fabric -> recognizer
 * -> coordinates -> engine -> tables -> checker); names carry the
 * coordinates for people and tests, never for the recognizer.  Damage
 * and shuffling are gen/common's, as for the FlatFly and the Slim Fly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/common.h"
#include "gen/gen.h"
#include "topo/slimfly.h"

#define MAX_SWITCHES (1u << 20)

/* The product's shape: slot = ff slot * nsf + MMS position. */
struct sfff_shape {
	const struct ot_mms *m;
	unsigned int ndims, cas, radix, width;
	unsigned int size[OT_GEN_FF_MAX_DIMS];
	unsigned int fwidth[OT_GEN_FF_MAX_DIMS];
	unsigned int port_base[OT_GEN_FF_MAX_DIMS]; /* first port of dim d */
	uint32_t nff, nslots;
};

static unsigned int fcoord(const struct sfff_shape *s, uint32_t fslot,
			   unsigned int d)
{
	unsigned int i;

	for (i = 0; i < d; i++)
		fslot /= s->size[i];
	return fslot % s->size[d];
}

static uint32_t fstride(const struct sfff_shape *s, unsigned int d)
{
	uint32_t st = 1;
	unsigned int i;

	for (i = 0; i < d; i++)
		st *= s->size[i];
	return st;
}

static int check_params(const struct ot_sfff_params *p, struct sfff_shape *s,
			struct ot_error *err)
{
	uint64_t ports, nff = 1;
	unsigned int d;

	if (p->ndims > OT_GEN_FF_MAX_DIMS)
		return ot_error_set(err, "sfxff: at most %u FlatFly dimensions",
				    OT_GEN_FF_MAX_DIMS);
	if (!(p->drop_links >= 0 && p->drop_links < 1) ||
	    !(p->drop_switches >= 0 && p->drop_switches < 1))
		return ot_error_set(err,
				    "sfxff: drop fractions must be in [0, 1)");
	s->ndims = p->ndims;
	s->cas = p->cas;
	s->width = p->width ? p->width : 1;
	ports = p->cas + (uint64_t)s->m->deg * s->width;
	for (d = 0; d < p->ndims; d++) {
		if (p->size[d] < 2)
			return ot_error_set(err,
					    "sfxff: FlatFly dimension %u has size %u (>= 2)",
					    d, p->size[d]);
		s->size[d] = p->size[d];
		s->fwidth[d] = p->fwidth[d] ? p->fwidth[d] : 1;
		s->port_base[d] = 1 + ports;
		ports += (uint64_t)s->fwidth[d] * (p->size[d] - 1);
		nff *= p->size[d];
		if (nff * s->m->n > MAX_SWITCHES)
			return ot_error_set(err, "sfxff: more than %u switches",
					    MAX_SWITCHES);
	}
	if (ports > OT_MAX_PORTS || (p->radix && p->radix > OT_MAX_PORTS))
		return ot_error_set(err,
				    "sfxff: a switch needs %u ports, at most %u",
				    (unsigned int)ports, OT_MAX_PORTS);
	if (p->radix && p->radix < ports)
		return ot_error_set(err,
				    "sfxff: radix %u too small: a switch needs %u ports",
				    p->radix, (unsigned int)ports);
	s->radix = p->radix ? p->radix : ports;
	s->nff = nff;
	s->nslots = nff * s->m->n;
	return 0;
}

/* Rank of b among a's MMS neighbours (ascending). */
static unsigned int nb_rank(const struct ot_mms *m, uint32_t a, uint32_t b)
{
	const uint32_t *nb = m->nb + (uint64_t)a * m->deg;
	unsigned int k;

	for (k = 0; nb[k] != b; k++)
		;
	return k;
}

/* The Slim Fly cables of FlatFly copy fs. */
static uint32_t sf_cables(const struct sfff_shape *s, uint32_t fs,
			  const bool *present, struct gen_cable *c)
{
	const struct ot_mms *m = s->m;
	uint32_t a, n = 0, base = fs * m->n;
	unsigned int k, l;

	for (a = 0; a < m->n; a++)
		for (k = 0; k < m->deg; k++) {
			uint32_t b = m->nb[(uint64_t)a * m->deg + k];
			unsigned int rb;

			if (b < a || !present[base + a] || !present[base + b])
				continue;
			rb = nb_rank(m, b, a);
			for (l = 0; l < s->width; l++, n++) {
				c[n].a = base + a;
				c[n].b = base + b;
				c[n].pa = 1 + s->cas + k * s->width + l;
				c[n].pb = 1 + s->cas + rb * s->width + l;
			}
		}
	return n;
}

/* The FlatFly cables of switch slot toward higher values. */
static uint32_t ff_cables(const struct sfff_shape *s, uint32_t slot,
			  const bool *present, struct gen_cable *c)
{
	uint32_t fs = slot / s->m->n, n = 0;
	unsigned int d, v, l;

	for (d = 0; d < s->ndims && present[slot]; d++) {
		unsigned int own = fcoord(s, fs, d);
		uint32_t st = fstride(s, d) * s->m->n;

		for (v = own + 1; v < s->size[d]; v++) {
			uint32_t other = slot + (v - own) * st;

			if (!present[other])
				continue;
			for (l = 0; l < s->fwidth[d]; l++, n++) {
				c[n].a = slot;
				c[n].b = other;
				c[n].pa = s->port_base[d] +
					  (v - 1) * s->fwidth[d] + l;
				c[n].pb = s->port_base[d] +
					  own * s->fwidth[d] + l;
			}
		}
	}
	return n;
}

static int collect_cables(const void *shape, const bool *present,
			  struct gen_cable **out, uint32_t *count,
			  struct ot_error *err)
{
	const struct sfff_shape *s = shape;
	uint64_t max = (uint64_t)s->nslots * s->m->deg * s->width / 2;
	struct gen_cable *c;
	uint32_t fs, slot, n = 0;
	unsigned int d;

	for (d = 0; d < s->ndims; d++)
		max += (uint64_t)s->nslots * (s->size[d] - 1) * s->fwidth[d] / 2;
	c = malloc((max + 1) * sizeof(*c));
	if (!c)
		return ot_error_nomem(err, "sfxff");
	for (fs = 0; fs < s->nff; fs++)
		n += sf_cables(s, fs, present, c + n);
	for (slot = 0; slot < s->nslots; slot++)
		n += ff_cables(s, slot, present, c + n);
	*out = c;
	*count = n;
	return 0;
}

struct sfff_names {
	const struct sfff_shape *s;
	const bool *present;
};

/* "SFFF[t,x,y,c0,c1,...]", CAs ".../i". */
static bool node_name(const void *ctx, uint32_t ln, char *buf, size_t len)
{
	const struct sfff_names *nm = ctx;
	const struct sfff_shape *s = nm->s;
	const struct ot_mms *m = s->m;
	bool is_ca = ln >= s->nslots;
	uint32_t slot = is_ca ? (ln - s->nslots) / s->cas : ln;
	uint32_t pos = slot % m->n, fs = slot / m->n;
	unsigned int d, q2 = m->q * m->q;
	size_t used;

	if (!nm->present[slot])
		return false;
	used = snprintf(buf, len, "SFFF[%u,%u,%u", pos / q2, pos % q2 / m->q,
			pos % m->q);
	for (d = 0; d < s->ndims && used < len; d++)
		used += snprintf(buf + used, len - used, ",%u",
				 fcoord(s, fs, d));
	if (used < len)
		snprintf(buf + used, len - used, "]");
	if (is_ca && used < len)
		snprintf(buf + used + 1, len - used - 1, "/%u",
			 (ln - s->nslots) % s->cas);
	return true;
}

static int build(struct ot_fabric *f, const struct ot_sfff_params *p,
		 const struct sfff_shape *s, struct gen_layout *l,
		 struct ot_error *err)
{
	struct sfff_names names = { .s = s };
	bool *present;
	int error;

	present = malloc(s->nslots * sizeof(*present));
	if (!present)
		return ot_error_nomem(err, "sfxff");
	names.present = present;
	error = gen_damage_wire(f, l, GEN_DAMAGE_OF(p), collect_cables, s,
				present,
				&(struct gen_wiring){ .name = node_name,
						      .ctx = &names,
						      .nsw = s->nslots,
						      .cas = s->cas }, err);
	free(present);
	return error;
}

struct ot_fabric *ot_gen_sfff(const struct ot_sfff_params *p,
			      struct ot_error *err)
{
	struct ot_mms m;
	struct sfff_shape s = { .m = &m };
	struct gen_layout l = { 0 };
	struct ot_fabric *f = NULL;
	int error;

	if (ot_mms_init(&m, p->q, err))
		return NULL;
	error = check_params(p, &s, err);
	if (error)
		goto out;
	f = ot_fabric_new();
	if (!f || gen_layout_init(&l, s.nslots * (1 + s.cas), s.nslots,
				  s.radix)) {
		error = ot_error_nomem(err, "sfxff");
		goto out;
	}
	error = build(f, p, &s, &l, err);
out:
	ot_mms_free(&m);
	return gen_done(f, &l, error);
}
