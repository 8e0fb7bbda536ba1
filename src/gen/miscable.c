// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Swapped cables on purpose (see miscable.h): what the mis-cabling
 * report (topo/miscable.c) is measured against.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "gen/miscable.h"
#include "model/prng.h"

struct end {
	int32_t node;
	uint8_t port;
};

/* Whether (a, pa) is a switch cable's near end. */
static bool near_end(const struct ot_fabric *f, int32_t a, unsigned int pa)
{
	int32_t b = f->node[a].port[pa].peer;
	unsigned int ca = ot_node_ca_count(f, a), cb;

	if (b < 0 || !ot_is_switch(f, a) || !ot_is_switch(f, b) || a == b)
		return false;
	cb = ot_node_ca_count(f, b);
	if (ca != cb)
		return ca > cb;
	return ot_node_before(f, a, b);
}

static void relink(struct ot_fabric *f, struct end a, struct end b)
{
	f->node[a.node].port[a.port].peer = b.node;
	f->node[a.node].port[a.port].peer_port = b.port;
	f->node[b.node].port[b.port].peer = a.node;
	f->node[b.node].port[b.port].peer_port = a.port;
}

static int cmp_swap(const void *x, const void *y)
{
	const struct ot_gen_swap *a = x, *b = y;

	if (a->node != b->node)
		return a->node < b->node ? -1 : 1;
	return (int)a->port - (int)b->port;
}

int ot_gen_swap_cables(struct ot_fabric *f, unsigned int k, uint64_t seed,
		       struct ot_gen_swap *moved, struct ot_error *err)
{
	struct ot_prng rng = { seed };
	struct end *near = calloc(f->nnodes * (OT_MAX_PORTS + 1u), sizeof(*near));
	bool *used = calloc(f->nnodes, sizeof(*used));
	uint32_t n = 0, i, tries = 0;
	unsigned int done = 0, p;

	if (!near || !used) {
		free(near);
		free(used);
		return ot_error_nomem(err, "swap cables");
	}
	for (i = 0; i < f->nnodes; i++)
		for (p = 1; p <= f->node[i].nports; p++)
			if (near_end(f, (int32_t)i, p))
				near[n++] = (struct end){ (int32_t)i, (uint8_t)p };
	while (done < k && n >= 2 && tries++ < 100000) {
		struct end a = near[ot_prng_below(&rng, n)];
		struct end b = near[ot_prng_below(&rng, n)];
		const struct ot_port *pa = &f->node[a.node].port[a.port];
		const struct ot_port *pb = &f->node[b.node].port[b.port];
		struct end fa = { pa->peer, pa->peer_port };
		struct end fb = { pb->peer, pb->peer_port };

		/* four distinct switches, none touched before */
		if (used[a.node] || used[b.node] || used[fa.node] ||
		    used[fb.node] || a.node == b.node || fa.node == fb.node ||
		    a.node == fb.node || b.node == fa.node)
			continue;
		used[a.node] = used[b.node] = used[fa.node] = used[fb.node] = true;
		moved[2 * done] = (struct ot_gen_swap){ a.node, a.port,
							fa.node, fa.port };
		moved[2 * done + 1] = (struct ot_gen_swap){ b.node, b.port,
							    fb.node, fb.port };
		relink(f, a, fb);
		relink(f, b, fa);
		done++;
	}
	free(near);
	free(used);
	if (done < k)
		return ot_error_set(err, "only %u of %u cable swaps fit",
				    done, k);
	qsort(moved, 2 * k, sizeof(*moved), cmp_swap);
	return 0;
}

/* Near ends of switch cables, all of them: their count in *n. */
static struct end *near_ends(const struct ot_fabric *f, uint32_t *n)
{
	struct end *near = calloc(f->nnodes * (OT_MAX_PORTS + 1u) + 1,
				  sizeof(*near));
	uint32_t i;
	unsigned int p;

	*n = 0;
	if (!near)
		return NULL;
	for (i = 0; i < f->nnodes; i++)
		for (p = 1; p <= f->node[i].nports; p++)
			if (near_end(f, (int32_t)i, p))
				near[(*n)++] = (struct end){ (int32_t)i,
							     (uint8_t)p };
	return near;
}

int ot_gen_cycle_cables(struct ot_fabric *f, uint64_t seed,
			struct ot_gen_swap *moved, struct ot_error *err)
{
	struct ot_prng rng = { seed };
	uint32_t n, tries = 0;
	struct end *near = near_ends(f, &n);
	struct end a[3], fa[3];
	unsigned int i, j;
	bool ok = false;

	if (!near)
		return ot_error_nomem(err, "cycle cables");
	while (!ok && n >= 3 && tries++ < 100000) {
		for (i = 0; i < 3; i++) {
			const struct ot_port *pt;

			a[i] = near[ot_prng_below(&rng, n)];
			pt = &f->node[a[i].node].port[a[i].port];
			fa[i] = (struct end){ pt->peer, pt->peer_port };
		}
		ok = true; /* six distinct switches */
		for (i = 0; i < 6; i++)
			for (j = i + 1; j < 6; j++)
				ok = ok && (i < 3 ? a[i] : fa[i - 3]).node !=
						   (j < 3 ? a[j] : fa[j - 3]).node;
	}
	free(near);
	if (!ok)
		return ot_error_set(err, "no 3 cables on 6 switches to cycle");
	for (i = 0; i < 3; i++) {
		moved[i] = (struct ot_gen_swap){ a[i].node, a[i].port,
						 fa[i].node, fa[i].port };
		relink(f, a[i], fa[(i + 1) % 3]);
	}
	qsort(moved, 3, sizeof(*moved), cmp_swap);
	return 0;
}
