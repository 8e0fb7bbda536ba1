// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * How much damage the FlatFly recognizer (src/topo/flatfly.c) tolerates:
 * the recognizer step of the flow (fabric -> recognizer -> coordinates ->
 * engine -> tables -> checker) measured on generated FlatFlies and
 * hypercubes with a fraction of cables or of switches removed at random,
 * over many seeds.  The seed paper reports FlatFly mapped correctly with
 * 20% of switches and 15% of links missing, hypercube with 15% and 10%;
 * this prints the same kind of figure for osmtopo.  It asserts nothing.
 *
 * Outcomes per fabric: "exact" (every switch at the position it was built
 * at, every cable in its dimension, up to a permutation of dimensions and
 * a relabelling of values), "other" (a consistent FlatFly with the same
 * number of dimensions, but not the one built: missing switches left a
 * switch's position undetermined by the cabling), "refused", "wrong"
 * (anything else).  Fabrics that the damage cut in two are not counted
 * (the subnet manager would see one part only).
 *
 * usage: ff_tolerance [SEEDS] [--big]
 *   SEEDS  seeds per cell (default 100)
 *   --big  also the seed's 4x8x8x8 reference FlatFly (slower)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gen/gen.h"
#include "topo/flatfly.h"

struct topo {
	const char *name;
	unsigned int ndims;
	unsigned int size[OT_GEN_FF_MAX_DIMS];
	unsigned int width[OT_GEN_FF_MAX_DIMS];
	bool big;
};

static const struct topo topos[] = {
	{ "FF 8x8", 2, { 8, 8 }, { 1, 1 }, false },
	{ "FF 4x4x4", 3, { 4, 4, 4 }, { 1, 1, 1 }, false },
	{ "FF 4x8x8x8 w2,1,1,1", 4, { 4, 8, 8, 8 }, { 2, 1, 1, 1 }, true },
	{ "HC 6-D", 6, { 2, 2, 2, 2, 2, 2 }, { 1, 1, 1, 1, 1, 1 }, false },
	{ "HC 8-D", 8, { 2, 2, 2, 2, 2, 2, 2, 2 },
	  { 1, 1, 1, 1, 1, 1, 1, 1 }, false },
};

static const unsigned int percents[] = { 0, 5, 10, 15, 20, 25, 30 };
#define NPCT (sizeof(percents) / sizeof(percents[0]))

enum outcome { EXACT, OTHER, REFUSED, WRONG, CUT, NOUTCOMES };

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* GUIDs as ibsim gives them: in node order, switches apart from CAs. */
static void give_guids(struct ot_fabric *f)
{
	uint32_t i;

	for (i = 0; i < f->nnodes; i++)
		f->node[i].guid = (f->node[i].type == OT_NODE_SWITCH ?
					   0x200000ull : 0x100000ull) +
				  2 * i;
}

static struct ot_fabric *build(const struct topo *t, unsigned int cas,
			       double drop_sw, double drop_l, uint64_t seed)
{
	struct ot_flatfly_params p = { .ndims = t->ndims, .cas = cas };
	struct ot_error err = { 0 };
	struct ot_fabric *f;

	memcpy(p.size, t->size, sizeof(p.size));
	memcpy(p.width, t->width, sizeof(p.width));
	p.drop_switches = drop_sw;
	p.drop_links = drop_l;
	p.drop_seed = seed;
	f = ot_gen_flatfly(&p, &err);
	if (!f) {
		fprintf(stderr, "ff_tolerance: %s\n", err.msg);
		exit(1);
	}
	give_guids(f);
	ot_fabric_assign_lids(f);
	if (ot_fabric_index(f, &err)) {
		fprintf(stderr, "ff_tolerance: %s\n", err.msg);
		exit(1);
	}
	return f;
}

static enum outcome try_one(const struct topo *t, double drop_sw,
			    double drop_l, uint64_t seed)
{
	struct ot_fabric *f = build(t, 1, drop_sw, drop_l, seed);
	struct ot_error err = { 0 };
	struct ot_ff *ff = NULL;
	enum outcome o;

	if (ot_ff_map(f, &ff, &err))
		o = strstr(err.msg, "not one fabric") ? CUT : REFUSED;
	else if (ot_ff_verify(ff, &err) || ff->ndims != t->ndims)
		o = WRONG;
	else if (ot_gen_flatfly_check_map(f, ff, &err))
		o = OTHER;
	else
		o = EXACT;
	ot_ff_free(ff);
	ot_fabric_free(f);
	return o;
}

static void row(const struct topo *t, bool switches, unsigned int seeds)
{
	unsigned int count[NPCT][NOUTCOMES] = { { 0 } };
	unsigned int i, s;

	for (i = 0; i < NPCT; i++) {
		double frac = percents[i] / 100.0;

		for (s = 1; s <= seeds; s++)
			count[i][try_one(t, switches ? frac : 0,
					 switches ? 0 : frac, s)]++;
	}
	printf("%-20s %-9s", t->name, switches ? "switches" : "links");
	for (i = 0; i < NPCT; i++) {
		unsigned int n = seeds - count[i][CUT];

		printf(" %5.1f", n ? 100.0 * count[i][EXACT] / n : 0);
	}
	printf("   |");
	for (i = 0; i < NPCT; i++)
		printf(" %u/%u/%u/%u", count[i][OTHER], count[i][REFUSED],
		       count[i][WRONG], count[i][CUT]);
	printf("\n");
	fflush(stdout);
}

/* Mapping time on the seed's reference fabric, 8 CAs a switch. */
static void reference_time(void)
{
	const struct topo *t = &topos[2];
	struct ot_fabric *f = build(t, 8, 0, 0, 0);
	struct ot_error err = { 0 };
	double best = 1e9;
	int i;

	for (i = 0; i < 5; i++) {
		struct ot_ff *ff = NULL;
		double t0 = now(), dt;

		if (ot_ff_map(f, &ff, &err)) {
			fprintf(stderr, "ff_tolerance: reference refused: %s\n",
				err.msg);
			exit(1);
		}
		dt = now() - t0;
		if (dt < best)
			best = dt;
		ot_ff_free(ff);
	}
	printf("mapping the %s reference (%u switches, %u CAs): %.1f ms (best of 5)\n\n",
	       t->name, f->nswitches, f->ncas, best * 1e3);
	ot_fabric_free(f);
}

int main(int argc, char **argv)
{
	unsigned int seeds = 100, i;
	bool big = false;
	double t0 = now();

	for (i = 1; i < (unsigned int)argc; i++) {
		if (!strcmp(argv[i], "--big"))
			big = true;
		else
			seeds = strtoul(argv[i], NULL, 10);
	}
	if (!seeds)
		seeds = 1;
	reference_time();
	printf("%% of fabrics mapped exactly as built (%u seeds a cell; cut fabrics not counted)\n",
	       seeds);
	printf("%-20s %-9s", "topology", "missing");
	for (i = 0; i < NPCT; i++)
		printf(" %4u%%", percents[i]);
	printf("   | other/refused/wrong/cut per column\n");
	for (i = 0; i < sizeof(topos) / sizeof(topos[0]); i++) {
		unsigned int n = topos[i].big ? (seeds + 4) / 5 : seeds;

		if (topos[i].big && !big)
			continue;
		row(&topos[i], false, n);
		row(&topos[i], true, n);
	}
	printf("\n(%s: %u seeds a cell)\n", "4x8x8x8", (seeds + 4) / 5);
	printf("total %.1f s\n", now() - t0);
	return 0;
}
