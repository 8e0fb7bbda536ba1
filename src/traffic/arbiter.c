// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The InfiniBand VL arbiter on saturated queues (see arbiter.h): one
 * packet at a time, high table against low table under the high limit,
 * each table walked entry by entry with whole packets.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "traffic/arbiter.h"

/* Stop a run that never completes its cycles (a huge high table). */
#define ARB_MAX_PACKETS (1u << 20)
/* 4096 bytes, the unit of the high limit, in 64-byte units. */
#define ARB_LIMIT_UNITS 64

struct arb_ctx {
	const struct ot_vlarb_port *p;
	uint16_t ready;
	unsigned int op_vls;
};

static bool eligible(const struct arb_ctx *c, const struct ot_vlarb_entry *e)
{
	return e->weight && e->vl != 15 && e->vl < c->op_vls &&
	       e->vl < OT_ARB_VLS && (c->ready & (1u << e->vl));
}

static unsigned int table_len(unsigned int cap)
{
	return cap && cap <= OT_VLARB_MAX ? cap : OT_VLARB_MAX;
}

static bool table_live(const struct arb_ctx *c, const struct ot_vlarb_entry *e,
		       unsigned int n)
{
	unsigned int j;

	for (j = 0; j < n; j++)
		if (eligible(c, &e[j]))
			return true;
	return false;
}

/* One packet from table e (which has an eligible entry): its VL. */
static uint8_t serve(const struct arb_ctx *c, struct ot_arb_table_state *t,
		     const struct ot_vlarb_entry *e, unsigned int n,
		     const unsigned int *units)
{
	uint8_t vl;

	while (t->rem <= 0 || !eligible(c, &e[t->idx])) {
		if (t->started) {
			t->idx = (t->idx + 1) % n;
			if (!t->idx)
				t->wraps++;
		}
		t->started = 1;
		t->rem = e[t->idx].weight;
	}
	vl = e[t->idx].vl;
	t->rem -= (int)units[vl];
	return vl;
}

/* May the high table send now, with hsent units sent since a low packet? */
static bool high_turn(const struct ot_vlarb_port *p, bool low, uint64_t hsent)
{
	if (!low || p->high_limit == OT_VLARB_UNLIMITED || !hsent)
		return true;
	return hsent < (uint64_t)p->high_limit * ARB_LIMIT_UNITS;
}

void ot_arb_reset(struct ot_arb_state *s)
{
	memset(s, 0, sizeof(*s));
}

int ot_arb_pick(struct ot_arb_state *s, const struct ot_vlarb_port *p,
		uint16_t ready, const unsigned int units[OT_ARB_VLS])
{
	struct arb_ctx c = { p, ready, p->op_vls ? p->op_vls : 15 };
	unsigned int nh = table_len(p->high_cap), nl = table_len(p->low_cap);
	bool high = table_live(&c, p->high, nh);
	bool low = table_live(&c, p->low, nl);
	uint8_t vl;

	if (high && high_turn(p, low, s->hsent)) {
		vl = serve(&c, &s->hi, p->high, nh, units);
		s->hsent += units[vl];
		return vl;
	}
	if (!low)
		return -1;
	s->hsent = 0;
	return serve(&c, &s->lo, p->low, nl, units);
}

static int record(struct ot_arb_trace *out, size_t *cap, uint8_t vl,
		  unsigned int units)
{
	struct ot_arb_packet *p;

	if (out->n == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		p = realloc(out->pkt, *cap * sizeof(*p));
		if (!p)
			return -1;
		out->pkt = p;
	}
	out->pkt[out->n].vl = vl;
	out->pkt[out->n].units = (uint16_t)units;
	out->n++;
	out->served[vl] += units;
	out->total += units;
	return 0;
}

int ot_arb_simulate(const struct ot_vlarb_port *p,
		    const unsigned int mtu_units[OT_ARB_VLS],
		    unsigned int cycles, struct ot_arb_trace *out)
{
	struct ot_arb_state s;
	struct arb_ctx c = { p, 0, p->op_vls ? p->op_vls : 15 };
	bool low;
	unsigned int vl;
	int picked;
	size_t cap = 0;

	memset(out, 0, sizeof(*out));
	ot_arb_reset(&s);
	for (vl = 0; vl < OT_ARB_VLS; vl++)
		if (mtu_units[vl])
			c.ready |= (uint16_t)(1u << vl);
	low = table_live(&c, p->low, table_len(p->low_cap));
	while (out->n < ARB_MAX_PACKETS &&
	       (low ? s.lo.wraps : s.hi.wraps) < cycles) {
		picked = ot_arb_pick(&s, p, c.ready, mtu_units);
		if (picked < 0)
			break;
		/* the packet that starts cycle `cycles` + 1 is not counted */
		if ((low ? s.lo.wraps : s.hi.wraps) >= cycles)
			break;
		if (record(out, &cap, (uint8_t)picked, mtu_units[picked])) {
			ot_arb_trace_free(out);
			return -1;
		}
	}
	return 0;
}

void ot_arb_trace_free(struct ot_arb_trace *t)
{
	free(t->pkt);
	memset(t, 0, sizeof(*t));
}

uint64_t ot_arb_served(const struct ot_arb_trace *t, uint16_t mask)
{
	uint64_t sum = 0;
	unsigned int vl;

	for (vl = 0; vl < OT_ARB_VLS; vl++)
		if (mask & (1u << vl))
			sum += t->served[vl];
	return sum;
}

uint64_t ot_arb_worst_gap(const struct ot_arb_trace *t, uint16_t mask)
{
	uint64_t gap = 0, lead = 0, worst = 0, seen = 0;
	size_t i;

	for (i = 0; i < t->n; i++) {
		if (mask & (1u << t->pkt[i].vl)) {
			if (seen && gap > worst)
				worst = gap;
			if (!seen)
				lead = gap;
			seen++;
			gap = 0;
		} else {
			gap += t->pkt[i].units;
		}
	}
	if (!seen)
		return OT_ARB_NEVER;
	/*
	 * Over several cycles the gaps inside the trace are every gap of
	 * the schedule; with one service only, the wait is the rest.
	 */
	return seen == 1 ? gap + lead : worst;
}
