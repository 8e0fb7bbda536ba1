// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * How many swapped cables the KNS mis-cabling report pinpoints:
 * bench/miscable NETFILE... swaps the far ends of 1, 2, 3 random pairs of
 * router-switch cables (50 seeds each) and counts the fabrics the swaps
 * broke, those the report repairs (its moves give a KNS), those where it
 * names exactly the routers whose cables moved, and exactly the ports and
 * the switch ports they came from.  Prints figures, asserts nothing.
 */
#include <stdbool.h>
#include <stdio.h>

#include "gen/miscable.h"
#include "io/netfile.h"
#include "topo/kns.h"
#include "topo/miscable.h"

#define SEEDS 50

static bool is_kns(const struct ot_fabric *f)
{
	struct ot_error err = { 0 };
	struct ot_kns *k = NULL;
	int rc = ot_kns_recognize(f, &k, &err);

	ot_kns_free(k);
	return rc == 0;
}

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

static void run(const char *path, unsigned int nswaps)
{
	unsigned int seed, broken = 0, repaired = 0, routers = 0, exact = 0;

	for (seed = 1; seed <= SEEDS; seed++) {
		struct ot_error err = { 0 };
		struct ot_fabric *f = ot_netfile_load(path, &err);
		struct ot_gen_swap mv[16];
		struct ot_miscabling m = { 0 };

		if (!f || ot_gen_swap_cables(f, nswaps, seed, mv, &err)) {
			fprintf(stderr, "%s: %s\n", path, err.msg);
			ot_fabric_free(f);
			return;
		}
		if (!is_kns(f)) {
			broken++;
			if (!ot_kns_miscabling(f, &m, &err)) {
				repaired++;
				routers += matches(&m, mv, 2 * nswaps, false);
				exact += matches(&m, mv, 2 * nswaps, true);
			}
			ot_miscabling_free(&m);
		}
		ot_fabric_free(f);
	}
	printf("%-32s swaps %u: broken %2u/%u, repaired %2u, routers exact %2u, ports exact %2u\n",
	       path, nswaps, broken, SEEDS, repaired, routers, exact);
}

int main(int argc, char **argv)
{
	unsigned int k;
	int i;

	for (i = 1; i < argc; i++)
		for (k = 1; k <= 3; k++)
			run(argv[i], k);
	return 0;
}
