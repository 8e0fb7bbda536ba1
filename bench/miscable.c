// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * How many swapped cables the mis-cabling reports pinpoint:
 * bench/miscable [-f FAMILY] [-c] NETFILE... swaps the far ends of 1, 2,
 * 3 random pairs of switch-to-switch cables (KNS: router-switch cables;
 * 50 seeds each), or with -c moves them round one cycle of 3 cables,
 * and counts the fabrics the moves broke (the report is not "no move"),
 * those the report repairs (its moves give the family: the report
 * checks that itself), those where it names exactly the switches whose
 * cables moved, and exactly the ports and the ports they came from.
 * FAMILY: kns (the default), flatfly, hypercube, slimfly, dragonfly.  Prints
 * figures and the time of the reports, asserts nothing.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gen/miscable.h"
#include "io/netfile.h"
#include "topo/miscable.h"

#define SEEDS 50

typedef int (*report_fn)(const struct ot_fabric *f, struct ot_miscabling *out,
			 struct ot_error *err);

static const struct {
	const char *word;
	report_fn fn;
} families[] = {
	{ "kns", ot_kns_miscabling },
	{ "flatfly", ot_ff_miscabling },
	{ "hypercube", ot_hc_miscabling },
	{ "slimfly", ot_sf_miscabling },
	{ "dragonfly", ot_df_miscabling },
};

/* 1 when every moved end is reported (ports: also where it came from). */
static int matches(const struct ot_miscabling *m,
		   const struct ot_gen_swap *mv, unsigned int n, bool ports)
{
	unsigned int i, j;

	if (m->n != n)
		return 0;
	for (i = 0; i < n; i++) {
		bool found = false;

		for (j = 0; j < n && !found; j++)
			found = m->cable[j].node == mv[i].node &&
				(!ports || (m->cable[j].port == mv[i].port &&
					    m->cable[j].should == mv[i].was &&
					    m->cable[j].should_port == mv[i].was_port));
		if (!found)
			return 0;
	}
	return 1;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void run(report_fn fn, const char *path, unsigned int nswaps,
		bool cycle)
{
	unsigned int seed, broken = 0, repaired = 0, routers = 0, exact = 0;
	unsigned int nmoved = cycle ? 3 : 2 * nswaps;
	double ms = 0, worst = 0;

	for (seed = 1; seed <= SEEDS; seed++) {
		struct ot_error err = { 0 };
		struct ot_fabric *f = ot_netfile_load(path, &err);
		struct ot_gen_swap mv[16];
		struct ot_miscabling m = { 0 };
		double t;
		unsigned int j;
		int rc;

		if (!f || (cycle ? ot_gen_cycle_cables(f, seed, mv, &err) :
				   ot_gen_swap_cables(f, nswaps, seed, mv, &err))) {
			fprintf(stderr, "%s: %s\n", path, err.msg);
			ot_fabric_free(f);
			return;
		}
		if (getenv("MISCABLE_SEED") &&
		    seed != (unsigned int)atoi(getenv("MISCABLE_SEED"))) {
			ot_fabric_free(f);
			continue;
		}
		for (j = 0; getenv("MISCABLE_WHY") && j < nmoved; j++)
			fprintf(stderr, "moved %s:%u (was %s:%u)\n",
				f->node[mv[j].node].desc, mv[j].port,
				f->node[mv[j].was].desc, mv[j].was_port);
		t = now_ms();
		rc = fn(f, &m, &err);
		t = now_ms() - t;
		ms += t;
		worst = t > worst ? t : worst;
		if (getenv("MISCABLE_WHY"))
			fprintf(stderr, "seed %u: rc %d, %u moves\n", seed, rc, m.n);
		if (rc || m.n) {
			broken++;
			if (rc && getenv("MISCABLE_WHY"))
				fprintf(stderr, "seed %u: %s\n", seed, err.msg);
			if (!rc) {
				repaired++;
				routers += matches(&m, mv, nmoved, false);
				exact += matches(&m, mv, nmoved, true);
			}
		}
		ot_miscabling_free(&m);
		ot_fabric_free(f);
	}
	printf("%-32s %s %u: broken %2u/%u, repaired %2u, switches exact %2u, ports exact %2u; %.1f ms mean, %.1f max\n",
	       path, cycle ? "3-cycle" : "swaps", cycle ? 1 : nswaps, broken,
	       SEEDS, repaired, routers, exact, ms / SEEDS, worst);
}

int main(int argc, char **argv)
{
	report_fn fn = ot_kns_miscabling;
	bool cycle = false;
	unsigned int k, j;
	int i = 1;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-c")) {
			cycle = true;
			continue;
		}
		if (strcmp(argv[i], "-f") || i + 1 == argc)
			break;
		i++;
		for (j = 0; j < sizeof(families) / sizeof(families[0]); j++)
			if (!strcmp(argv[i], families[j].word))
				fn = families[j].fn;
	}
	for (; i < argc; i++)
		for (k = 1; k <= (cycle ? 1 : 3); k++)
			run(fn, argv[i], k, cycle);
	return 0;
}
