// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The Dragonfly generator behind `osmtopo gen dragonfly` (seed 001
 * ("Early evaluation of direct large-scale InfiniBand networks with
 * adaptive routing"), sections 1.4 and 2.2): the fabric the Dragonfly
 * recognizer (src/topo/dragonfly.c) and df-static are tried on.  Groups
 * are full graphs or 2-D FlatFlies (rows and columns full graphs); the
 * global cables follow one of three arrangements,
 * the third deliberately "messy" as the paper says real ones are.  With
 * spines, Dragonfly+ (Shpiner et al. 2017): each group a two-level fat
 * tree, CAs on its leaves, every leaf cabled to every spine, the global
 * cables between spines of different groups in the same arrangements,
 * the leaves of some groups without CAs if asked.  Names
 * carry [group,switch] so that tests can check the recognizer's groups;
 * the recognizer never reads them.
 */
#include <stdio.h>
#include <stdlib.h>

#include "gen/common.h"
#include "gen/gen.h"
#include "model/prng.h"

#define MAX_SWITCHES (1u << 20)

struct df_shape {
	unsigned int a, h, p, g, radix;
	unsigned int f0, f1; /* FlatFly groups' rows and columns; 0 none */
	unsigned int w;      /* cables per local switch pair */
	unsigned int nloc;   /* local ports per switch */
	unsigned int sp;     /* Dragonfly+: spines per group (a: leaves); 0 */
	uint32_t per;        /* global cable slots per group */
	uint8_t *caless;     /* per group: its leaves carry no CAs */
	uint32_t nsw;
	uint32_t *slot; /* per group, a*h: global cable j -> a*h port slot */
};

static int check_params(const struct ot_dragonfly_params *p,
			struct df_shape *s, struct ot_error *err)
{
	bool flat = p->flat[0] || p->flat[1];
	unsigned int w = p->width ? p->width : 1;
	uint64_t nloc = (flat ? (uint64_t)p->flat[0] + p->flat[1] - 2 :
				p->a - 1u) * w;
	uint64_t ports = (uint64_t)p->p + nloc + p->h;
	uint64_t maxg = (uint64_t)p->a * p->h + 1;

	if (p->spines) { /* leaves: CAs + spines; spines: leaves + h */
		uint64_t lp = (uint64_t)p->p + (uint64_t)p->spines * w;
		uint64_t sp = (uint64_t)p->a * w + p->h;

		ports = lp > sp ? lp : sp;
		nloc = 0;
		maxg = (uint64_t)p->spines * p->h + 1;
	}
	if (p->a < 2 || p->h < 1)
		return ot_error_set(err, "dragonfly: a >= 2 and h >= 1");
	if (p->spines && flat)
		return ot_error_set(err,
				    "dragonfly: --spines and --flat-groups exclude each other");
	if (flat && (p->flat[0] < 2 || p->flat[1] < 2 ||
		     (uint64_t)p->flat[0] * p->flat[1] != p->a))
		return ot_error_set(err,
				    "dragonfly: FlatFly groups of %u x %u switches: each >= 2, product a = %u",
				    p->flat[0], p->flat[1], p->a);
	s->g = p->g ? p->g : (unsigned int)maxg;
	if (s->g < 2 || s->g > maxg)
		return ot_error_set(err,
				    "dragonfly: %u groups; 2 to a*h+1 = %u",
				    s->g, (unsigned int)maxg);
	if (!(p->drop_links >= 0 && p->drop_links < 1) ||
	    !(p->drop_switches >= 0 && p->drop_switches < 1))
		return ot_error_set(err,
				    "dragonfly: drop fractions must be in [0, 1)");
	if ((uint64_t)s->g * (p->a + p->spines) > MAX_SWITCHES)
		return ot_error_set(err, "dragonfly: more than %u switches",
				    MAX_SWITCHES);
	if (ports > OT_MAX_PORTS || (p->radix && p->radix < ports) ||
	    p->radix > OT_MAX_PORTS)
		return ot_error_set(err,
				    "dragonfly: a switch needs %u ports (radix %u, at most %u)",
				    (unsigned int)ports, p->radix, OT_MAX_PORTS);
	s->a = p->a;
	s->h = p->h;
	s->p = p->p;
	s->f0 = flat ? p->flat[0] : 0;
	s->f1 = flat ? p->flat[1] : 0;
	s->w = w;
	s->nloc = (unsigned int)nloc;
	s->radix = p->radix ? p->radix : (unsigned int)ports;
	s->sp = p->spines;
	s->per = (p->spines ? p->spines : p->a) * p->h;
	s->nsw = s->g * (s->a + s->sp);
	return 0;
}

/* The groups whose leaves carry no CAs (Dragonfly+ only). */
static int caless_groups(const struct ot_dragonfly_params *p,
			 struct df_shape *s, struct ot_error *err)
{
	unsigned int i;

	if (!p->ncaless)
		return 0;
	if (!p->spines)
		return ot_error_set(err,
				    "dragonfly: CA-less groups need --spines (Dragonfly+)");
	s->caless = calloc(s->g, 1);
	if (!s->caless)
		return ot_error_nomem(err, "dragonfly");
	for (i = 0; i < p->ncaless; i++) {
		if (p->caless[i] >= s->g)
			return ot_error_set(err,
					    "dragonfly: CA-less group %u of %u groups (0 to %u)",
					    p->caless[i], s->g, s->g - 1);
		s->caless[p->caless[i]] = 1;
	}
	return 0;
}

/*
 * The arrangement: which port slot (switch i = slot / h, its global port
 * slot % h) of its group holds global cable j.  Consecutive and
 * palm-tree: slot j; random: a permutation per group.
 */
static int arrange(const struct ot_dragonfly_params *p, struct df_shape *s,
		   struct ot_error *err)
{
	struct ot_prng rng = { .state = p->arrange_seed };
	uint32_t per = s->per, G, j;

	s->slot = malloc((size_t)s->g * per * sizeof(*s->slot));
	if (!s->slot)
		return ot_error_nomem(err, "dragonfly");
	for (G = 0; G < s->g; G++) {
		for (j = 0; j < per; j++)
			s->slot[G * per + j] = j;
		if (p->arrangement == OT_DF_RANDOM)
			ot_prng_shuffle(&rng, s->slot + G * per, per);
	}
	return 0;
}

/* The logical port of global slot `slot` (and its switch in *sw). */
static uint16_t global_port(const struct df_shape *s, uint32_t G,
			    uint32_t slot, uint32_t *sw)
{
	if (s->sp) {
		*sw = s->g * s->a + G * s->sp + slot / s->h;
		return s->a * s->w + 1 + slot % s->h;
	}
	*sw = G * s->a + slot / s->h;
	return s->p + s->nloc + 1 + slot % s->h;
}

/*
 * The local cables between switches i < k of group G into c (width of
 * them, on consecutive ports), how many: full graphs, every pair (ports
 * in increasing order of the other switch); FlatFly groups, the pairs of
 * a row (ports after the CAs) or of a column (after the row's); 0 when i
 * and k are not cabled.
 */
static uint32_t local_cables(const struct df_shape *s, uint32_t G,
			     uint32_t i, uint32_t k, struct gen_cable *c)
{
	uint32_t base = G * s->a, qi, qk, t;

	if (!s->f0) { /* k's place among i's neighbours, and i's among k's */
		qi = k - 1;
		qk = i;
	} else if (i / s->f0 == k / s->f0) { /* a row: x differs */
		qi = k % s->f0 - 1;
		qk = i % s->f0;
	} else if (i % s->f0 == k % s->f0) { /* a column: y differs */
		qi = s->f0 - 1 + k / s->f0 - 1;
		qk = s->f0 - 1 + i / s->f0;
	} else {
		return 0;
	}
	for (t = 0; t < s->w; t++)
		c[t] = (struct gen_cable){ base + i, base + k,
					   s->p + 1 + qi * s->w + t,
					   s->p + 1 + qk * s->w + t };
	return s->w;
}

/* Dragonfly+: the cables of group G into c, how many. */
static uint32_t leaf_spine_cables(const struct df_shape *s, uint32_t G,
				  struct gen_cable *c)
{
	uint32_t i, j, t, n = 0;

	for (i = 0; i < s->a; i++)
		for (j = 0; j < s->sp; j++)
			for (t = 0; t < s->w; t++)
				c[n++] = (struct gen_cable){
					G * s->a + i,
					s->g * s->a + G * s->sp + j,
					s->p + 1 + j * s->w + t,
					1 + i * s->w + t };
	return n;
}

/* Global cable j of group G: the other group and its cable index there. */
static void partner(const struct df_shape *s, bool palm, uint32_t G,
		    uint32_t j, uint32_t *H, uint32_t *jp)
{
	uint32_t d = j % (s->g - 1), c = j / (s->g - 1);

	*H = palm ? (G + s->g - 1 - d) % s->g : (G + 1 + d) % s->g;
	*jp = c * (s->g - 1) + (s->g - 2 - d);
}

/* What collect_cables() cables: the parameters and the arrangement. */
struct df_cabling {
	const struct ot_dragonfly_params *p;
	const struct df_shape *s;
};

static int collect_cables(const void *shape, const bool *present,
			  struct gen_cable **out, uint32_t *count,
			  struct ot_error *err)
{
	const struct df_cabling *dc = shape;
	const struct ot_dragonfly_params *p = dc->p;
	const struct df_shape *s = dc->s;
	uint32_t per = s->per, G, H, i, k, j, jp, n = 0;
	uint64_t max = (uint64_t)s->g *
		       ((uint64_t)s->a * (s->a - 1) / 2 * s->w +
			(uint64_t)s->a * s->sp * s->w + per);
	bool palm = p->arrangement == OT_DF_PALMTREE;
	struct gen_cable *c = malloc(max * sizeof(*c));

	if (!c)
		return ot_error_nomem(err, "dragonfly");
	for (G = 0; G < s->g; G++) {
		if (s->sp)
			n += leaf_spine_cables(s, G, &c[n]);
		for (i = 0; i < s->a && !s->sp; i++)
			for (k = i + 1; k < s->a; k++)
				n += local_cables(s, G, i, k, &c[n]);
		for (j = 0; j < per; j++) {
			partner(s, palm, G, j, &H, &jp);
			if (jp >= per || H < G)
				continue;
			c[n].pa = global_port(s, G, s->slot[G * per + j],
					      &c[n].a);
			c[n].pb = global_port(s, H, s->slot[H * per + jp],
					      &c[n].b);
			n++;
		}
	}
	/* cables of dropped switches go, before the cable damage is drawn */
	for (i = k = 0; i < n; i++)
		if (present[c[i].a] && present[c[i].b])
			c[k++] = c[i];
	*out = c;
	*count = k;
	return 0;
}

struct df_names {
	const struct df_shape *s;
	const bool *present;
};

static bool node_name(const void *ctx, uint32_t ln, char *buf, size_t len)
{
	const struct df_names *nm = ctx;
	const struct df_shape *s = nm->s;
	bool is_ca = ln >= s->nsw;
	uint32_t sw = is_ca ? (ln - s->nsw) / s->p : ln;

	if (!nm->present[sw] ||
	    (is_ca && s->caless && s->caless[sw / s->a]))
		return false;
	if (s->sp && sw >= s->g * s->a)
		snprintf(buf, len, "DFS[%u,%u]", (sw - s->g * s->a) / s->sp,
			 (sw - s->g * s->a) % s->sp);
	else if (s->sp && is_ca)
		snprintf(buf, len, "DFL[%u,%u]/%u", sw / s->a, sw % s->a,
			 (ln - s->nsw) % s->p);
	else if (s->sp)
		snprintf(buf, len, "DFL[%u,%u]", sw / s->a, sw % s->a);
	else if (s->f0 && is_ca)
		snprintf(buf, len, "DF[%u,%u,%u]/%u", sw / s->a,
			 sw % s->a % s->f0, sw % s->a / s->f0,
			 (ln - s->nsw) % s->p);
	else if (s->f0)
		snprintf(buf, len, "DF[%u,%u,%u]", sw / s->a,
			 sw % s->a % s->f0, sw % s->a / s->f0);
	else if (is_ca)
		snprintf(buf, len, "DF[%u,%u]/%u", sw / s->a, sw % s->a,
			 (ln - s->nsw) % s->p);
	else
		snprintf(buf, len, "DF[%u,%u]", sw / s->a, sw % s->a);
	return true;
}

struct ot_fabric *ot_gen_dragonfly(const struct ot_dragonfly_params *p,
				   struct ot_error *err)
{
	struct df_shape s = { 0 };
	struct gen_layout l = { 0 };
	struct ot_fabric *f = NULL;
	struct df_names names;
	bool *present = NULL;
	int error;

	error = check_params(p, &s, err);
	if (!error)
		error = caless_groups(p, &s, err);
	if (!error)
		error = arrange(p, &s, err);
	if (error)
		goto out;
	f = ot_fabric_new();
	present = malloc(s.nsw * sizeof(*present));
	if (!f || !present ||
	    gen_layout_init(&l, s.nsw + (s.sp ? s.g * s.a : s.nsw) * s.p,
			    s.nsw, s.radix)) {
		error = ot_error_nomem(err, "dragonfly");
		goto out;
	}
	names.s = &s;
	names.present = present;
	error = gen_damage_wire(f, &l, GEN_DAMAGE_OF(p), collect_cables,
				&(struct df_cabling){ p, &s }, present,
				&(struct gen_wiring){ .name = node_name,
						      .ctx = &names,
						      .nsw = s.nsw,
						      .cas = s.p,
						      .hosts = s.sp ? s.g * s.a : 0 },
				err);
out:
	free(s.slot);
	free(s.caless);
	free(present);
	return gen_done(f, &l, error);
}
