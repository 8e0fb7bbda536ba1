// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Mis-cabling inside the lines of a KNS built as fat trees (topo/kns_ft.c):
 * one cable end moved -- a leaf cabled to a leaf, a spine's cable on the
 * wrong spine, a router cabled into a leaf of another line -- found by
 * trying switch-to-switch cable ends on free switch ports.  A moved end
 * leaves its switch one cable short and gives another one too many, so
 * the search first tries, when there are such switches, only the ends at
 * and the ports of switches whose count of cables few others share (two
 * at most), then the rest; one free port per switch (which port of a
 * switch a cable takes does not matter to the topology: the report names
 * the switch's lowest free port).  A move is reported only when the fat-tree KNS recognizer accepts the
 * fabric it gives and that fabric is regular: in every line the switches
 * of a stage have the same cables down and up, the lines of a dimension
 * the same stages, and every router the same cables into each dimension's
 * line.  A fabric with cables merely missing (damage) has no such move
 * and gets no report; neither does one with two or more moved cables (one
 * move only, deterministic: cables by the GUID and port of the end that
 * stays, free ports by GUID and port).  The work is bounded (MAX_TRIES
 * recognitions), since it may run in OpenSM's sweep.
 */
#include <stdlib.h>
#include <string.h>

#include "topo/kns.h"
#include "topo/miscable.h"

/* Moves tried at most: each one recognizes a fabric. */
#define MAX_TRIES 4096
/* Switches sharing a count of cables beyond which the count is common. */
#define RARE 2

struct kft_end {
	uint64_t guid; /* the node's, for the order */
	int32_t node;
	uint8_t port;
};

struct kft_try {
	const struct ot_fabric *f;
	int32_t a, b;       /* the cable a:pa - b:pb, left out */
	uint8_t pa, pb;
};

static bool keep_cable(const struct ot_fabric *f, uint32_t a, unsigned int pa,
		       uint32_t b, unsigned int pb, const void *ctx)
{
	const struct kft_try *t = ctx;

	(void)f;
	return !(((int32_t)a == t->a && pa == t->pa) ||
		 ((int32_t)b == t->a && pb == t->pa));
}

static int cmp_end(const void *x, const void *y)
{
	const struct kft_end *a = x, *b = y;

	if (a->guid != b->guid)
		return a->guid < b->guid ? -1 : 1;
	if (a->node != b->node)
		return a->node < b->node ? -1 : 1;
	return (int)a->port - (int)b->port;
}

/* Whether the recognized fabric is regular (see the top). */
bool ot_kns_ft_regular(const struct ot_fabric *f, const struct ot_kns *kns)
{
	/*
	 * per dimension and stage: switches, cables down, cables up, and
	 * the switches or routers they go to, down and up
	 */
	unsigned int want[64][16][5], per[16][5], into[128], st, d, i;
	uint8_t have[64][16];
	uint32_t l, x;
	unsigned int p;
	bool router_seen = false;

	if (kns->n > 64)
		return false;
	memset(have, 0, sizeof(have));
	for (l = 0; l < kns->nlines; l++) {
		const struct ot_kns_line *ln = &kns->lines[l];

		d = ln->dim;
		memset(per, 0, sizeof(per));
		for (i = 0; i < ln->nsw; i++) {
			int32_t s = ln->sw[i];
			unsigned int dn = 0, up = 0, ddn = 0, dup = 0, q;

			st = kns->stage[s];
			if (st >= 16)
				return false;
			for (p = 1; p <= f->node[s].nports; p++) {
				int32_t y = f->node[s].port[p].peer;

				if (y < 0 || kns->role[y] == OT_KNS_CA)
					continue;
				/* a far end seen on an earlier port: no new one */
				for (q = 1; q < p; q++)
					if (f->node[s].port[q].peer == y)
						break;
				if (kns->role[y] == OT_KNS_ROUTER ||
				    kns->stage[y] + 1u == st) {
					dn++;
					ddn += q == p;
				} else {
					up++;
					dup += q == p;
				}
			}
			if (per[st][0] && (per[st][1] != dn || per[st][2] != up ||
					   per[st][3] != ddn || per[st][4] != dup))
				return false;
			per[st][0]++;
			per[st][1] = dn;
			per[st][2] = up;
			per[st][3] = ddn;
			per[st][4] = dup;
		}
		for (st = 0; st < 16; st++) {
			if (!have[d][st]) {
				memcpy(want[d][st], per[st], sizeof(per[st]));
				have[d][st] = 1;
			} else if (memcmp(want[d][st], per[st],
					  sizeof(per[st]))) {
				return false;
			}
		}
	}
	for (x = 0; x < f->nnodes; x++) {
		/* per dimension: cables, and switches they go to */
		unsigned int cnt[128] = { 0 }, q;

		if (kns->role[x] != OT_KNS_ROUTER)
			continue;
		for (p = 1; p <= f->node[x].nports; p++) {
			int32_t y = f->node[x].port[p].peer;

			if (y < 0 || kns->role[y] != OT_KNS_SWITCH)
				continue;
			for (q = 1; q < p; q++)
				if (f->node[x].port[q].peer == y)
					break;
			cnt[2 * kns->dim[y]]++;
			cnt[2 * kns->dim[y] + 1] += q == p;
		}
		if (!router_seen)
			memcpy(into, cnt, sizeof(into));
		else if (memcmp(into, cnt, 2 * kns->n * sizeof(*cnt)))
			return false;
		router_seen = true;
	}
	return true;
}

/* The fabric with cable t moved from b:pb to z:pz; NULL on failure. */
static struct ot_fabric *moved(const struct kft_try *t, int32_t z,
			       uint8_t pz)
{
	struct ot_error err = { 0 };
	struct ot_fabric *g = ot_fabric_copy_cables(t->f, keep_cable, t, &err);

	if (!g)
		return NULL;
	if (ot_fabric_link(g, t->a, t->pa, z, pz, &err) ||
	    ot_fabric_index(g, &err)) {
		ot_fabric_free(g);
		return NULL;
	}
	return g;
}

/*
 * 1 with *out set when a move makes f a regular fat-tree-line KNS, 0 when
 * none was found (or the search would cost too much), -1 on no memory.
 */
/*
 * Switch cables of every switch, and whether few switches of its kind
 * (routers: with a CA; line switches) share that count.
 */
static int cable_counts(const struct ot_fabric *f, uint8_t *rare,
			struct ot_error *err)
{
	uint32_t *deg = malloc(((size_t)f->nnodes + 1) * sizeof(*deg));
	uint32_t hist[2][OT_MAX_PORTS + 2] = { { 0 } }, x;
	uint8_t *kind = malloc((size_t)f->nnodes + 1);
	unsigned int p;

	if (!deg || !kind) {
		free(deg);
		free(kind);
		return ot_error_nomem(err, "mis-cabling report");
	}
	for (x = 0; x < f->nnodes; x++) {
		deg[x] = 0;
		kind[x] = 0;
		for (p = 1; p <= f->node[x].nports; p++) {
			int32_t y = f->node[x].port[p].peer;

			if (y < 0)
				continue;
			if (f->node[y].type == OT_NODE_CA)
				kind[x] = 1;
			else
				deg[x]++;
		}
		if (f->node[x].type == OT_NODE_SWITCH)
			hist[kind[x]][deg[x]]++;
	}
	for (x = 0; x < f->nnodes; x++)
		rare[x] = f->node[x].type == OT_NODE_SWITCH &&
			  hist[kind[x]][deg[x]] <= RARE;
	free(kind);
	free(deg);
	return 0;
}

/*
 * One pass: ends whose far end is at a switch with want_rare (or any when
 * !only_rare) tried on the first free port of such switches.  1 found,
 * 0 not, -1 no memory, 2 out of budget.
 */
static int search(const struct ot_fabric *f, const struct kft_end *ends,
		  uint32_t nends, const struct kft_end *fp, uint32_t nfree,
		  const uint8_t *rare, bool only_rare, uint32_t *tries,
		  struct ot_miscable *out, struct ot_error *err)
{
	uint32_t i, j;

	for (i = 0; i < nends; i++) {
		const struct ot_port *pt =
			&f->node[ends[i].node].port[ends[i].port];
		struct kft_try t = { f, ends[i].node, pt->peer, ends[i].port,
				     pt->peer_port };

		if (only_rare && !rare[t.b])
			continue;
		for (j = 0; j < nfree; j++) {
			struct ot_error why = { 0 };
			struct ot_kns *kns = NULL;
			struct ot_fabric *g;
			bool looks = false, ok;

			if (fp[j].node == t.b || fp[j].node == t.a ||
			    (only_rare && !rare[fp[j].node]))
				continue;
			if (++*tries > MAX_TRIES)
				return 2;
			g = moved(&t, fp[j].node, fp[j].port);
			if (!g)
				return ot_error_nomem(err, "mis-cabling report");
			ok = !ot_kns_ft_recognize(g, &kns, &looks, &why) &&
			     ot_kns_ft_regular(g, kns);
			ot_kns_free(kns);
			ot_fabric_free(g);
			if (ok) {
				*out = (struct ot_miscable){
					t.a, t.pa, t.b, t.pb, fp[j].node,
					fp[j].port
				};
				return 1;
			}
		}
	}
	return 0;
}

/*
 * 1 with *out set when a move makes f a regular fat-tree-line KNS, 0 when
 * none was found (or the search would cost too much), -1 on no memory.
 */
int ot_kns_ft_miscabling(const struct ot_fabric *f, struct ot_miscable *out,
			 struct ot_error *err)
{
	struct kft_end *ends = NULL, *fp = NULL;
	uint32_t nends = 0, nfree = 0, x, tries = 0;
	uint8_t *rare = malloc((size_t)f->nnodes + 1);
	unsigned int p;
	bool any_rare = false;
	int rc = -1;

	ends = malloc(((size_t)f->nnodes * OT_MAX_PORTS + 1) * sizeof(*ends));
	fp = malloc(((size_t)f->nnodes + 1) * sizeof(*fp));
	if (!rare || !ends || !fp) {
		ot_error_nomem(err, "mis-cabling report");
		goto out;
	}
	if (cable_counts(f, rare, err))
		goto out;
	for (x = 0; x < f->nnodes; x++) {
		bool has_free = false;

		if (f->node[x].type != OT_NODE_SWITCH)
			continue;
		any_rare |= rare[x];
		for (p = 1; p <= f->node[x].nports; p++) {
			int32_t y = f->node[x].port[p].peer;
			struct kft_end e = { f->node[x].guid, (int32_t)x,
					     (uint8_t)p };

			if (y < 0 && !has_free) {
				fp[nfree++] = e;
				has_free = true;
			} else if (y >= 0 && f->node[y].type == OT_NODE_SWITCH) {
				ends[nends++] = e;
			}
		}
	}
	qsort(ends, nends, sizeof(*ends), cmp_end);
	qsort(fp, nfree, sizeof(*fp), cmp_end);
	rc = 0;
	if (any_rare)
		rc = search(f, ends, nends, fp, nfree, rare, true, &tries, out,
			    err);
	if (!rc)
		rc = search(f, ends, nends, fp, nfree, rare, false, &tries,
			    out, err);
	if (rc == 2)
		rc = 0;
out:
	free(rare);
	free(ends);
	free(fp);
	return rc;
}
