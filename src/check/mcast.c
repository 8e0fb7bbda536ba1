// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The multicast check (opts->mcast): every group's MFTs deliver a packet
 * from each member to every other member, without a forwarding loop, and
 * multicast traffic adds no credit loop to the unicast channel
 * dependencies.
 *
 * A switch forwards a multicast packet to every port its MFT lists for
 * the MLID except the one it arrived by.  So what a packet from a member
 * reaches depends only on the switch it enters (its own port being the
 * only one excluded there): the check floods the MFTs once per switch
 * that has members, breadth first.  A switch reached a second time within
 * one flood is a loop (the packet is duplicated, and around a cycle it
 * circulates for ever).  A member the flood does not reach misses the
 * packets of every member at that switch.
 *
 * Credit loops: a packet of the group's SL that enters switch u by port
 * i and leaves by port o is on VL SL2VL(u, i, o, SL) on the way out; each
 * hop of a flood makes the channel it arrived on depend on the channel it
 * leaves on (between switches: CA channels end or start every chain).
 * These dependencies join the unicast ones in the same graph and its
 * strongly connected parts are counted again; more than unicast alone
 * has is a credit loop multicast adds.
 */
#define _GNU_SOURCE /* qsort_r */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "check/checker.h"
#include "model/mcast.h"

struct mc_flood {
	struct checker *ck;
	const struct ot_mcast *mc;
	const struct ot_mcast_group *g;
	uint32_t gi;
	uint32_t *stamp;      /* per node: flood that reached it */
	uint32_t cur;
	int32_t *qnode;       /* BFS queue */
	uint8_t *qin;         /* port it came in by (0xff: the source switch) */
	uint16_t *qvls;       /* VLs of the channel it came in on */
	uint32_t *port_base;  /* per node: first slot of its ports */
	int32_t *member_at;   /* per port slot: member index in g, or -1 */
	uint32_t *mstamp;     /* per member: flood that delivered to it */
	uint32_t ndelivered;
	bool looped;
	uint32_t *order;      /* members sorted by the switch they enter */
	int32_t *entry_sw;    /* per member: switch its packets enter, or -1 */
	uint8_t *entry_port;
};

static int mc_note(struct checker *ck, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int mc_note(struct checker *ck, const char *fmt, ...)
{
	struct ot_check_report *rep = ck->rep;
	char buf[512], **v;
	va_list ap;

	if (rep->n_mc_examples >= rep->max_examples)
		return 0;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	v = realloc(rep->mc_examples,
		    (rep->n_mc_examples + 1) * sizeof(*v));
	if (!v)
		return -1;
	rep->mc_examples = v;
	v[rep->n_mc_examples] = dupstr(buf);
	if (!v[rep->n_mc_examples])
		return -1;
	rep->n_mc_examples++;
	return 0;
}

static void deliver(struct mc_flood *w, int32_t n, unsigned int p)
{
	int32_t m = w->member_at[w->port_base[n] + p];

	if (m < 0 || w->mstamp[m] == w->cur)
		return;
	w->mstamp[m] = w->cur;
	w->ndelivered++;
}

/* Channel dependencies of one hop: (x's link into u, vls) -> (u, o, vl). */
static int hop_dependencies(struct mc_flood *w, int32_t u, unsigned int in,
			    uint16_t vls, unsigned int o, uint8_t vl)
{
	struct checker *ck = w->ck;
	const struct ot_port *pin = &ck->f->node[u].port[in];
	uint32_t from;
	unsigned int v;

	from = ot_cdg_channel(&ck->cdg, pin->peer, pin->peer_port, 0);
	for (v = 0; v < NUM_VLS; v++)
		if (vls & (1u << v) &&
		    ot_cdg_add(&ck->cdg, from + v, u, o, vl) < 0)
			return -1;
	return 0;
}

/* VLs the members entering switch s put on its output port o. */
static uint16_t source_vls(struct mc_flood *w, uint32_t first, uint32_t last,
			   unsigned int o)
{
	uint16_t vls = 0;
	uint32_t k;

	for (k = first; k < last; k++) {
		uint32_t m = w->order[k];

		if (w->entry_port[m] != o)
			vls |= 1u << vl_of(w->ck, w->entry_sw[m],
					   w->entry_port[m], o, w->g->sl);
	}
	return vls;
}

static int flood_port(struct mc_flood *w, uint32_t *tail, int32_t u,
		      unsigned int in, uint16_t in_vls, unsigned int o,
		      uint16_t out_vls)
{
	const struct ot_fabric *f = w->ck->f;
	const struct ot_port *po = &f->node[u].port[o];
	int32_t y = po->peer;

	if (o == 0) {
		deliver(w, u, 0);
		return 0;
	}
	if (y < 0)
		return 0;
	if (f->node[y].type != OT_NODE_SWITCH) {
		deliver(w, y, po->peer_port);
		return 0;
	}
	if (in != 0xff && in_vls &&
	    hop_dependencies(w, u, in, in_vls, o,
			     vl_of(w->ck, u, in, o, w->g->sl)))
		return -1;
	if (w->stamp[y] == w->cur) {
		if (!w->looped &&
		    mc_note(w->ck, "MLID 0x%04x: \"%s\" forwards to \"%s\" port %u, which the packet has reached already: a loop in the MFTs",
			    w->g->mlid, desc(w->ck, u), desc(w->ck, y),
			    po->peer_port))
			return -1;
		w->looped = true;
		return 0;
	}
	w->stamp[y] = w->cur;
	w->qnode[*tail] = y;
	w->qin[*tail] = po->peer_port;
	w->qvls[(*tail)++] = out_vls;
	return 0;
}

/* Floods the group's MFTs from switch s, members order[first..last). */
static int flood(struct mc_flood *w, int32_t s, uint32_t first, uint32_t last)
{
	const struct ot_fabric *f = w->ck->f;
	uint32_t head = 0, tail = 0;

	w->cur++;
	w->ndelivered = 0;
	w->stamp[s] = w->cur;
	w->qnode[tail] = s;
	w->qin[tail] = 0xff;
	w->qvls[tail++] = 0;
	while (head < tail) {
		int32_t u = w->qnode[head];
		unsigned int in = w->qin[head], o;
		uint16_t in_vls = w->qvls[head++];

		for (o = 0; o <= f->node[u].nports; o++) {
			uint16_t out_vls;

			if (o == in || !ot_mcast_forwards(w->mc, u, w->g->mlid, o))
				continue;
			out_vls = in == 0xff ? source_vls(w, first, last, o) :
				  (uint16_t)(1u << vl_of(w->ck, u, in, o,
							 w->g->sl));
			if (flood_port(w, &tail, u, in, in_vls, o, out_vls))
				return -1;
		}
	}
	return 0;
}

/* Counts and lists the members the flood from order[first..last) missed. */
static int count_missed(struct mc_flood *w, uint32_t first, uint32_t last)
{
	struct ot_mcast_counts *c = &w->ck->rep->c.mcast;
	uint32_t n = w->g->nmembers, k, j;

	for (k = first; k < last; k++) {
		uint32_t m = w->order[k];
		uint32_t got = w->ndelivered - (w->mstamp[m] == w->cur);
		const struct ot_mcast_member *src = &w->g->member[m];

		c->pairs += n - 1;
		if (got == n - 1)
			continue;
		c->missed += n - 1 - got;
		for (j = 0; j < n; j++) {
			const struct ot_mcast_member *dst = &w->g->member[j];

			if (j == m || w->mstamp[j] == w->cur)
				continue;
			if (mc_note(w->ck, "MLID 0x%04x: \"%s\" port %u -> \"%s\" port %u: not delivered",
				    w->g->mlid, desc(w->ck, src->node),
				    src->port, desc(w->ck, dst->node),
				    dst->port))
				return -1;
			break;
		}
	}
	return 0;
}

/* Members by the switch they enter at, then by index. */
static int cmp_entry(const void *a, const void *b, void *arg)
{
	const struct mc_flood *w = arg;
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	int32_t x = w->entry_sw[i], y = w->entry_sw[j];

	if (x != y)
		return x < y ? -1 : 1;
	return (i > j) - (i < j);
}

/* Where each member's packets enter the switches; -1 when nowhere. */
static int entries(struct mc_flood *w)
{
	const struct ot_fabric *f = w->ck->f;
	const struct ot_mcast_group *g = w->g;
	uint32_t m;

	free(w->order);
	free(w->entry_sw);
	free(w->entry_port);
	w->order = calloc(g->nmembers + 1, sizeof(*w->order));
	w->entry_sw = calloc(g->nmembers + 1, sizeof(*w->entry_sw));
	w->entry_port = calloc(g->nmembers + 1, 1);
	if (!w->order || !w->entry_sw || !w->entry_port)
		return -1;
	for (m = 0; m < g->nmembers; m++) {
		const struct ot_mcast_member *x = &g->member[m];
		const struct ot_node *nd = &f->node[x->node];
		int32_t peer = nd->port[x->port].peer;

		w->order[m] = m;
		w->entry_sw[m] = -1;
		if (nd->type == OT_NODE_SWITCH) {
			w->entry_sw[m] = x->node;
		} else if (peer >= 0 &&
			   f->node[peer].type == OT_NODE_SWITCH) {
			w->entry_sw[m] = peer;
			w->entry_port[m] = nd->port[x->port].peer_port;
		}
		w->member_at[w->port_base[x->node] + x->port] = (int32_t)m;
	}
	qsort_r(w->order, g->nmembers, sizeof(*w->order), cmp_entry, w);
	return 0;
}

static int check_group(struct mc_flood *w)
{
	struct ot_mcast_counts *c = &w->ck->rep->c.mcast;
	const struct ot_mcast_group *g = w->g;
	uint32_t k = 0, last, m;
	int rc = -1;

	w->looped = false;
	c->members += g->nmembers;
	if (entries(w))
		goto out;
	while (k < g->nmembers && w->entry_sw[w->order[k]] < 0)
		k++; /* not cabled to a switch: sends nowhere */
	for (; k < g->nmembers; k = last) {
		int32_t s = w->entry_sw[w->order[k]];

		for (last = k; last < g->nmembers &&
			       w->entry_sw[w->order[last]] == s; last++)
			;
		if (flood(w, s, k, last) || count_missed(w, k, last))
			goto out;
	}
	c->looping += w->looped;
	rc = 0;
out:
	for (m = 0; m < g->nmembers; m++)
		w->member_at[w->port_base[g->member[m].node] +
			     g->member[m].port] = -1;
	return rc;
}

static int alloc_flood(struct mc_flood *w)
{
	const struct ot_fabric *f = w->ck->f;
	uint32_t n, nslots = 0, maxm = 1, i;

	w->port_base = calloc(f->nnodes + 1, sizeof(*w->port_base));
	if (!w->port_base)
		return -1;
	for (n = 0; n < f->nnodes; n++) {
		w->port_base[n] = nslots;
		nslots += f->node[n].nports + 1u;
	}
	for (i = 0; i < w->mc->ngroups; i++)
		if (w->mc->group[i].nmembers > maxm)
			maxm = w->mc->group[i].nmembers;
	w->stamp = calloc(f->nnodes + 1, sizeof(*w->stamp));
	w->qnode = calloc(f->nnodes + 1, sizeof(*w->qnode));
	w->qin = calloc(f->nnodes + 1, 1);
	w->qvls = calloc(f->nnodes + 1, sizeof(*w->qvls));
	w->member_at = malloc((nslots + 1) * sizeof(*w->member_at));
	w->mstamp = calloc(maxm, sizeof(*w->mstamp));
	if (!w->stamp || !w->qnode || !w->qin || !w->qvls || !w->member_at ||
	    !w->mstamp)
		return -1;
	for (i = 0; i < nslots; i++)
		w->member_at[i] = -1;
	return 0;
}

static void free_flood(struct mc_flood *w)
{
	free(w->port_base);
	free(w->stamp);
	free(w->qnode);
	free(w->qin);
	free(w->qvls);
	free(w->member_at);
	free(w->mstamp);
	free(w->order);
	free(w->entry_sw);
	free(w->entry_port);
}

/*
 * Credit loops of unicast and multicast together: the search runs again
 * over the graph with the multicast dependencies; the unicast figures
 * and their examples are put back, the new ones kept for multicast.
 */
static int combined_credit_loops(struct checker *ck)
{
	struct ot_check_report *rep = ck->rep;
	struct ot_check_counts saved = rep->c;
	struct credit_cycle *cycles = rep->cycles;
	unsigned int ncycles = rep->ncycles;
	int rc;

	rep->cycles = NULL;
	rep->ncycles = 0;
	rep->c.credit_loops = 0;
	rep->c.credit_loop_channels = 0;
	rc = ck_find_credit_loops(ck);
	rep->mc_cycles = rep->cycles;
	rep->n_mc_cycles = rep->ncycles;
	saved.mcast.credit_loops = rep->c.credit_loops;
	saved.mcast.credit_loop_channels = rep->c.credit_loop_channels;
	rep->c = saved;
	rep->cycles = cycles;
	rep->ncycles = ncycles;
	return rc;
}

int ck_mcast(struct checker *ck)
{
	struct mc_flood w = { .ck = ck, .mc = ck->opts->mcast };
	struct ot_mcast_counts *c = &ck->rep->c.mcast;
	uint64_t deps = ck->cdg.ndeps;
	int rc = -1;

	ck->rep->c.mcast_checked = true;
	c->groups = w.mc->ngroups;
	if (w.mc->fabric != ck->f)
		return ot_error_set(ck->err,
				    "check: the multicast state is not for this fabric");
	if (alloc_flood(&w))
		goto out;
	for (w.gi = 0; w.gi < w.mc->ngroups; w.gi++) {
		w.g = &w.mc->group[w.gi];
		if (!w.g->nmembers)
			continue;
		c->trees++;
		if (check_group(&w))
			goto out;
	}
	c->dependencies = ck->cdg.ndeps - deps;
	rc = combined_credit_loops(ck);
out:
	free_flood(&w);
	return rc;
}
