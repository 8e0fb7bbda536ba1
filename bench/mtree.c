// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What the plugin's mcast_build_stree costs (src/plugin/mcast.c, the
 * trees of route/mcast.h), offline on a net file routed by an engine:
 * the first tree after a routing builds the switch distances, the
 * engine's unicast channel dependency graph and the master tree (once
 * per routing); every tree then takes its subtree of the master (or
 * picks its root and grows) and checks itself against that graph.
 * Prints, for groups of every CA, every 8th and every 64th: the time of
 * each step, the tree, and whether it adds a credit loop.  With RANDOM,
 * that many groups of random CAs (each CA in with a probability drawn
 * per group; seed 1) and how their trees came out: which shape, how
 * many needed another root, how many kept a loop.  It asserts nothing.
 *
 * usage: mtree NETFILE ENGINE [LMC [RANDOM]]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/netfile.h"
#include "model/prng.h"
#include "model/routing.h"
#include "route/engine.h"
#include "route/mcast.h"

/* The tree of members m (no MLID: not kept for the next groups). */
static int build(struct ot_mtree_net *net, const struct ot_mcast_member *m,
		 uint32_t nm, struct ot_mtree *t)
{
	struct ot_error err = { 0 };

	if (!ot_mtree_build(net, 0, m, nm, 1, t, &err))
		return 0;
	fprintf(stderr, "mtree: %s\n", err.msg);
	return -1;
}

static int group(struct ot_mtree_net *net, const struct ot_fabric *f,
		 unsigned int every)
{
	struct ot_mcast_member *m = calloc(f->nnodes + 1, sizeof(*m));
	struct ot_mtree t;
	uint32_t i, nm = 0, ca = 0;
	double cdg = ot_mtree_net_cdg_ms(net), start = ot_now_ms(), ms;

	if (!m)
		return -1;
	for (i = 0; i < f->nnodes; i++)
		if (f->node[i].type == OT_NODE_CA && ca++ % every == 0) {
			m[nm].node = (int32_t)i;
			m[nm++].port = 1;
		}
	if (build(net, m, nm, &t)) {
		free(m);
		return -1;
	}
	ms = ot_now_ms() - start;
	cdg = ot_mtree_net_cdg_ms(net) - cdg;
	printf("every %3u CA: %6u members, tree of %5u switches, depth %u, root %u (%s), %u tried, loop %" PRId64 ": %9.1f ms (of which unicast dependencies and master tree %.1f ms)\n",
	       every, nm, t.nswitches, t.depth, t.chosen + 1,
	       t.shape ? t.shape : "-", t.tries, t.loop, ms, cdg);
	ot_mtree_free(&t);
	free(m);
	return 0;
}

/* count groups of random CAs: the trees' shapes, roots and loops. */
static int random_groups(struct ot_mtree_net *net, const struct ot_fabric *f,
			 unsigned int count)
{
	struct ot_mcast_member *m = calloc(f->nnodes + 1, sizeof(*m));
	struct ot_prng rng = { 1 };
	unsigned int g, other = 0, loops = 0, bfs = 0, out = 0, in = 0, sub = 0;

	if (!m)
		return -1;
	for (g = 0; g < count; g++) {
		uint32_t per = 1 + ot_prng_below(&rng, 1000), nm = 0, i;
		struct ot_mtree t;

		for (i = 0; i < f->nnodes; i++)
			if (f->node[i].type == OT_NODE_CA &&
			    ot_prng_below(&rng, 1000) < per) {
				m[nm].node = (int32_t)i;
				m[nm++].port = 1;
			}
		if (build(net, m, nm, &t)) {
			free(m);
			return -1;
		}
		other += t.chosen > 0;
		loops += t.loop > 0;
		if (t.shape && strstr(t.shape, "master"))
			sub++;
		else if (t.shape && strstr(t.shape, "out"))
			out++;
		else if (t.shape && strstr(t.shape, "into"))
			in++;
		else if (t.shape)
			bfs++;
		ot_mtree_free(&t);
	}
	printf("%u random groups: the master's subtree %u, shortest-path trees %u, unicast out of the root %u, unicast into the root %u; another root than the first %u; a credit loop left %u\n",
	       count, sub, bfs, out, in, other, loops);
	free(m);
	return 0;
}

int main(int argc, char **argv)
{
	static const unsigned int every[] = { 64, 8, 1 };
	struct ot_error err = { 0 };
	struct ot_fabric *f;
	struct ot_routing *r = NULL;
	struct ot_mtree_net *net = NULL;
	unsigned int i;
	double start;

	if (argc < 3) {
		fprintf(stderr, "usage: mtree NETFILE ENGINE [LMC [RANDOM]]\n");
		return 2;
	}
	f = ot_netfile_load(argv[1], &err);
	if (!f || (argc > 3 && ot_fabric_set_ca_lmc(f, (uint8_t)atoi(argv[3]),
						    &err)) ||
	    !ot_engine_find(argv[2]) ||
	    ot_engine_run(ot_engine_find(argv[2]), f, &r, &err)) {
		fprintf(stderr, "mtree: %s\n", err.msg[0] ? err.msg :
			"no such engine");
		return 1;
	}
	start = ot_now_ms();
	if (ot_mtree_net_new(r, NULL, &net, &err)) {
		fprintf(stderr, "mtree: %s\n", err.msg);
		return 1;
	}
	printf("%s, %s: %u switches; per-routing state set up in %.1f ms\n",
	       argv[1], argv[2], f->nswitches, ot_now_ms() - start);
	for (i = 0; i < sizeof(every) / sizeof(every[0]); i++)
		if (group(net, f, every[i]))
			return 1;
	if (argc > 4 && random_groups(net, f, (unsigned int)atoi(argv[4])))
		return 1;
	ot_mtree_net_free(net);
	ot_routing_free(r);
	ot_fabric_free(f);
	return 0;
}
