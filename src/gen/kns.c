// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The k-ary n-direct 1-indirect KNS generator behind `osmtopo gen kns`
 * (seed 000 ("Implementation and testing of a KNS topology in an
 * InfiniBand cluster"), section 2.2).  It builds the fabric model that
 * ot_netfile_write() hands to ibsim, i.e. the input of the flow (fabric ->
 * recognizer -> coordinates -> engine -> tables -> checker).  Node names
 * carry the coordinates the fabric was built with, so that tests can check
 * the recognizer's answer against them; the recognizer itself never reads
 * them, and --shuffle exists to prove it does not need port order either.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/common.h"
#include "gen/gen.h"

struct kns_shape {
	unsigned int k, n, cas, links, radix;
	uint32_t routers;  /* k^n */
	uint32_t per_dim;  /* switches per dimension: k^(n-1) */
	uint32_t switches; /* n * k^(n-1) */
	uint32_t nodes;
};

/* The router coordinates other than dimension d, as one number. */
static uint32_t line_of(const struct kns_shape *s, uint32_t r, unsigned int d)
{
	uint32_t low = 1, i;

	for (i = 0; i < d; i++)
		low *= s->k;
	return (r / (low * s->k)) * low + r % low;
}

/*
 * Logical node numbers: routers 0..routers-1, then the switches of
 * dimension 0, 1, ..., then the CAs router by router (gen_link_cas()).
 */
static uint32_t switch_node(const struct kns_shape *s, unsigned int d,
			    uint32_t line)
{
	return s->routers + d * s->per_dim + line;
}

static int check_params(const struct ot_kns_params *p, struct kns_shape *s,
			struct ot_error *err)
{
	unsigned int router_ports, switch_ports;
	uint64_t routers;

	if (p->k < 2 || p->n < 1 || p->cas < 1 || p->links < 1)
		return ot_error_set(err,
				    "kns: need k >= 2, n >= 1, cas >= 1, links >= 1");
	if (gen_kns_routers(p->k, p->n, &routers, err))
		return -1;
	if ((uint64_t)p->n * p->links + p->cas > OT_MAX_PORTS ||
	    (uint64_t)p->k * p->links > OT_MAX_PORTS)
		return ot_error_set(err, "kns: more than %u ports per switch",
				    OT_MAX_PORTS);
	router_ports = p->n * p->links + p->cas;
	switch_ports = p->k * p->links;
	s->k = p->k;
	s->n = p->n;
	s->cas = p->cas;
	s->links = p->links;
	s->radix = router_ports > switch_ports ? router_ports : switch_ports;
	if (p->radix) {
		if (p->radix < router_ports)
			return ot_error_set(err,
					    "kns: radix %u too small: a router needs %u ports (%u dimensions x %u links + %u CAs)",
					    p->radix, router_ports, p->n,
					    p->links, p->cas);
		if (p->radix < switch_ports)
			return ot_error_set(err,
					    "kns: radix %u too small: a switch needs %u ports (%u routers x %u links)",
					    p->radix, switch_ports, p->k,
					    p->links);
		if (p->radix > OT_MAX_PORTS)
			return ot_error_set(err, "kns: radix %u > %u",
					    p->radix, OT_MAX_PORTS);
		s->radix = p->radix;
	}
	s->routers = routers;
	s->per_dim = routers / p->k;
	s->switches = p->n * s->per_dim;
	s->nodes = s->routers + s->switches + s->routers * p->cas;
	return 0;
}

/* Names as gen.h gives them; every logical node is in the fabric. */
static bool node_name(const void *ctx, uint32_t lnode, char *buf, size_t len)
{
	const struct kns_shape *s = ctx;
	uint32_t x;

	if (lnode < s->routers) {
		gen_kns_name(s->k, s->n, lnode, -1, buf, len);
	} else if (lnode < s->routers + s->switches) {
		x = lnode - s->routers;
		snprintf(buf, len, "S[%u,%u]", x / s->per_dim, x % s->per_dim);
	} else {
		x = lnode - s->routers - s->switches;
		gen_kns_name(s->k, s->n, x / s->cas, (int)(x % s->cas), buf,
			     len);
	}
	return true;
}

/*
 * Router r's cables to its switch of each dimension: L of them, on the
 * router's logical ports after its CAs (dimension by dimension) and on
 * the switch's ports for coordinate c_d of r (router by router).
 */
static int link_router(struct ot_fabric *f, const struct kns_shape *s,
		       const struct gen_layout *l, uint32_t r,
		       struct ot_error *err)
{
	unsigned int d, k;

	for (d = 0; d < s->n; d++) {
		uint32_t sw = switch_node(s, d, line_of(s, r, d));

		for (k = 0; k < s->links; k++) {
			unsigned int rp = 1 + s->cas + d * s->links + k;
			unsigned int sp = 1 + gen_kns_coord(s->k, r, d) * s->links + k;

			if (ot_fabric_link(f, l->index[r], gen_port(l, r, rp),
					   l->index[sw], gen_port(l, sw, sp),
					   err))
				return -1;
		}
	}
	return 0;
}

struct ot_fabric *ot_gen_kns(const struct ot_kns_params *p,
			     struct ot_error *err)
{
	struct kns_shape s = { 0 };
	struct gen_layout l = { 0 };
	struct ot_fabric *f = NULL;
	uint32_t r;
	int error;

	if (p->stages)
		return ot_gen_kns_ft(p, err);
	error = check_params(p, &s, err);
	if (error)
		goto out;
	f = ot_fabric_new();
	if (!f || gen_layout_init(&l, s.nodes, s.routers + s.switches,
				  s.radix)) {
		error = ot_error_nomem(err, "kns");
		goto out;
	}
	if (p->shuffle)
		gen_layout_shuffle(&l, p->seed);
	error = gen_add_nodes(f, &l, node_name, &s, err);
	if (!error)
		error = gen_link_cas(f, &l, s.routers, s.routers + s.switches,
				     s.cas, err);
	for (r = 0; r < s.routers && !error; r++)
		error = link_router(f, &s, &l, r, err);
out:
	gen_layout_free(&l);
	if (error) {
		ot_fabric_free(f);
		return NULL;
	}
	return f;
}
