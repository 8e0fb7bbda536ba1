// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The Slim Fly generator behind `osmtopo gen slimfly` (seed 001 ("Early
 * evaluation of direct large-scale InfiniBand networks with adaptive
 * routing"), section 1.5; generator sets from Besta and Hoefler, "Slim
 * Fly: A Cost Effective Low-Diameter Network Topology").  It builds the
 * fabric model, the input of the flow (fabric -> recognizer ->
 * coordinates -> engine -> tables -> checker), from the same MMS graph
 * the recognizer matches against (topo/slimfly.c); names carry the
 * coordinates for people and tests, never for the recognizer.  Damage
 * and shuffling are gen/common's, as for the FlatFly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/common.h"
#include "gen/gen.h"
#include "topo/slimfly.h"

unsigned int ot_gen_slimfly_balanced_cas(unsigned int q, unsigned int width)
{
	int delta = q % 4 == 3 ? -1 : (int)(q % 4);
	unsigned int net = (3 * q - delta) / 2 * (width ? width : 1);

	return (net + 1) / 2;
}

/* Rank of b among a's neighbours (ascending), so a's port toward b. */
static unsigned int nb_rank(const struct ot_mms *m, uint32_t a, uint32_t b)
{
	const uint32_t *nb = m->nb + (uint64_t)a * m->deg;
	unsigned int k;

	for (k = 0; nb[k] != b; k++)
		;
	return k;
}

/* What collect_cables() cables: the MMS graph, L cables an edge, CAs. */
struct sf_cabling {
	const struct ot_mms *m;
	unsigned int width, cas;
};

static int collect_cables(const void *shape, const bool *present,
			  struct gen_cable **out, uint32_t *count,
			  struct ot_error *err)
{
	const struct sf_cabling *sc = shape;
	const struct ot_mms *m = sc->m;
	unsigned int width = sc->width, cas = sc->cas;
	struct gen_cable *c;
	uint32_t a, n = 0;
	unsigned int k, l;

	c = malloc(((uint64_t)m->n * m->deg * width / 2 + 1) * sizeof(*c));
	if (!c)
		return ot_error_nomem(err, "slimfly");
	for (a = 0; a < m->n; a++) {
		for (k = 0; k < m->deg; k++) {
			uint32_t b = m->nb[(uint64_t)a * m->deg + k];
			unsigned int rb;

			if (b < a || !present[a] || !present[b])
				continue;
			rb = nb_rank(m, b, a);
			for (l = 0; l < width; l++) {
				c[n].a = a;
				c[n].b = b;
				c[n].pa = 1 + cas + k * width + l;
				c[n].pb = 1 + cas + rb * width + l;
				n++;
			}
		}
	}
	*out = c;
	*count = n;
	return 0;
}

struct sf_names {
	const struct ot_mms *m;
	unsigned int cas;
	const bool *present;
};

static bool node_name(const void *ctx, uint32_t ln, char *buf, size_t len)
{
	const struct sf_names *nm = ctx;
	bool is_ca = ln >= nm->m->n;
	uint32_t pos = is_ca ? (ln - nm->m->n) / nm->cas : ln;
	char cs[32];

	if (!nm->present[pos])
		return false;
	ot_sf_pos_str(nm->m, pos, cs, sizeof(cs));
	cs[0] = '[';
	cs[strlen(cs) - 1] = ']';
	if (is_ca)
		snprintf(buf, len, "SF%s/%u", cs, (ln - nm->m->n) % nm->cas);
	else
		snprintf(buf, len, "SF%s", cs);
	return true;
}

static int check_params(const struct ot_slimfly_params *p,
			const struct ot_mms *m, unsigned int *radix,
			struct ot_error *err)
{
	unsigned int width = p->width ? p->width : 1;
	uint64_t ports = p->cas + (uint64_t)m->deg * width;

	if (!(p->drop_links >= 0 && p->drop_links < 1) ||
	    !(p->drop_switches >= 0 && p->drop_switches < 1))
		return ot_error_set(err,
				    "slimfly: drop fractions must be in [0, 1)");
	if (ports > OT_MAX_PORTS || (p->radix && p->radix > OT_MAX_PORTS))
		return ot_error_set(err,
				    "slimfly: a switch needs %u ports, at most %u",
				    (unsigned int)ports, OT_MAX_PORTS);
	if (p->radix && p->radix < ports)
		return ot_error_set(err,
				    "slimfly: radix %u too small: a switch needs %u ports",
				    p->radix, (unsigned int)ports);
	*radix = p->radix ? p->radix : ports;
	return 0;
}

/* Nodes and cables once the MMS graph, damage and layout are decided. */
static int build(struct ot_fabric *f, const struct ot_slimfly_params *p,
		 const struct ot_mms *m, struct gen_layout *l,
		 struct ot_error *err)
{
	struct sf_cabling sc = { m, p->width ? p->width : 1, p->cas };
	struct sf_names names = { .m = m, .cas = p->cas };
	bool *present;
	int error;

	present = malloc(m->n * sizeof(*present));
	if (!present)
		return ot_error_nomem(err, "slimfly");
	names.present = present;
	error = gen_damage_wire(f, l, GEN_DAMAGE_OF(p), collect_cables, &sc,
				present,
				&(struct gen_wiring){ .name = node_name,
						      .ctx = &names,
						      .nsw = m->n,
						      .cas = p->cas }, err);
	free(present);
	return error;
}

struct ot_fabric *ot_gen_slimfly(const struct ot_slimfly_params *p,
				 struct ot_error *err)
{
	struct ot_mms m;
	struct gen_layout l = { 0 };
	struct ot_fabric *f = NULL;
	unsigned int radix = 0;
	int error;

	if (ot_mms_init(&m, p->q, err))
		return NULL;
	error = check_params(p, &m, &radix, err);
	if (error)
		goto out;
	f = ot_fabric_new();
	if (!f || gen_layout_init(&l, m.n * (1 + p->cas), m.n, radix)) {
		error = ot_error_nomem(err, "slimfly");
		goto out;
	}
	error = build(f, p, &m, &l, err);
out:
	ot_mms_free(&m);
	return gen_done(f, &l, error);
}
