// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The k-ary n-direct 1-indirect KNS generator behind `osmtopo gen kns`
 * (seed 000, section 2.2).  It builds the fabric model that
 * ot_netfile_write() hands to ibsim, i.e. the input of the flow (fabric ->
 * recognizer -> coordinates -> engine -> tables -> checker).  Node names
 * carry the coordinates the fabric was built with, so that tests can check
 * the recognizer's answer against them; the recognizer itself never reads
 * them, and --shuffle exists to prove it does not need port order either.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"
#include "model/prng.h"

struct kns_shape {
	unsigned int k, n, cas, links, radix;
	uint32_t routers;  /* k^n */
	uint32_t per_dim;  /* switches per dimension: k^(n-1) */
	uint32_t switches; /* n * k^(n-1) */
	uint32_t nodes;
};

/* Coordinate d of router r (r = sum c_i k^i). */
static unsigned int coord(const struct kns_shape *s, uint32_t r,
			  unsigned int d)
{
	unsigned int i;

	for (i = 0; i < d; i++)
		r /= s->k;
	return r % s->k;
}

/* The router coordinates other than dimension d, as one number. */
static uint32_t line_of(const struct kns_shape *s, uint32_t r, unsigned int d)
{
	uint32_t low = 1, i;

	for (i = 0; i < d; i++)
		low *= s->k;
	return (r / (low * s->k)) * low + r % low;
}

/* "[c(n-1),...,c0]" into buf. */
static void coords_str(const struct kns_shape *s, uint32_t r, char *buf,
		       size_t len)
{
	size_t used = 0;
	unsigned int d;

	used += snprintf(buf, len, "[");
	for (d = s->n; d-- > 0 && used < len;)
		used += snprintf(buf + used, len - used, "%u%s",
				 coord(s, r, d), d ? "," : "]");
}

/*
 * Logical node numbers: routers 0..routers-1, then the switches of
 * dimension 0, 1, ..., then the CAs router by router.
 */
static uint32_t switch_node(const struct kns_shape *s, unsigned int d,
			    uint32_t line)
{
	return s->routers + d * s->per_dim + line;
}

static uint32_t ca_node(const struct kns_shape *s, uint32_t r, unsigned int i)
{
	return s->routers + s->switches + r * s->cas + i;
}

static int check_params(const struct ot_kns_params *p, struct kns_shape *s,
			struct ot_error *err)
{
	unsigned int router_ports, switch_ports, i;
	uint64_t routers = 1;

	if (p->k < 2 || p->n < 1 || p->cas < 1 || p->links < 1)
		return ot_error_set(err,
				    "kns: need k >= 2, n >= 1, cas >= 1, links >= 1");
	for (i = 0; i < p->n; i++) {
		routers *= p->k;
		if (routers > 1u << 20)
			return ot_error_set(err,
					    "kns: %u^%u routers is more than osmtopo generates",
					    p->k, p->n);
	}
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

static void node_name(const struct kns_shape *s, uint32_t lnode, char *buf,
		      size_t len)
{
	char c[96];

	if (lnode < s->routers) {
		coords_str(s, lnode, c, sizeof(c));
		snprintf(buf, len, "R%s", c);
	} else if (lnode < s->routers + s->switches) {
		uint32_t x = lnode - s->routers;

		snprintf(buf, len, "S[%u,%u]", x / s->per_dim, x % s->per_dim);
	} else {
		uint32_t x = lnode - s->routers - s->switches;

		coords_str(s, x / s->cas, c, sizeof(c));
		snprintf(buf, len, "CA%s/%u", c, x % s->cas);
	}
}

struct ot_fabric *ot_gen_kns(const struct ot_kns_params *p,
			     struct ot_error *err)
{
	struct ot_prng rng = { .state = p->seed };
	struct kns_shape s = { 0 };
	struct ot_fabric *f = NULL;
	uint32_t *order = NULL, *index = NULL;
	uint32_t *portmap = NULL; /* node x (radix + 1) -> physical port */
	uint32_t i, r;
	unsigned int d, l, c;
	int error = 0;

	error = check_params(p, &s, err);
	if (error)
		goto out;
	f = ot_fabric_new();
	order = malloc(s.nodes * sizeof(*order));
	index = malloc(s.nodes * sizeof(*index));
	portmap = malloc((size_t)(s.routers + s.switches) * (s.radix + 1) *
			 sizeof(*portmap));
	if (!f || !order || !index || !portmap) {
		error = ot_error_nomem(err, "kns");
		goto out;
	}
	for (i = 0; i < s.nodes; i++)
		order[i] = i;
	for (i = 0; i < s.routers + s.switches; i++) {
		uint32_t *pm = portmap + (size_t)i * (s.radix + 1);

		for (c = 0; c <= s.radix; c++)
			pm[c] = c;
	}
	/*
	 * Ports first, then node order, each from the one stream: the file
	 * for a seed is fixed by this sequence of draws.
	 */
	if (p->shuffle) {
		for (i = 0; i < s.routers + s.switches; i++) {
			uint32_t *pm = portmap + (size_t)i * (s.radix + 1);

			ot_prng_shuffle(&rng, pm + 1, s.radix);
		}
		ot_prng_shuffle(&rng, order, s.nodes);
	}
	for (i = 0; i < s.nodes; i++) {
		uint32_t ln = order[i];
		bool is_ca = ln >= s.routers + s.switches;
		char name[128];
		int n;

		node_name(&s, ln, name, sizeof(name));
		n = ot_fabric_add_node(f, is_ca ? OT_NODE_CA : OT_NODE_SWITCH,
				       is_ca ? 1 : s.radix, 0, name, err);
		if (n < 0) {
			error = -1;
			goto out;
		}
		index[ln] = n;
	}
	for (r = 0; r < s.routers; r++) {
		const uint32_t *rpm = portmap + (size_t)r * (s.radix + 1);

		for (c = 0; c < s.cas; c++) {
			error = ot_fabric_link(f, index[r], rpm[1 + c],
					       index[ca_node(&s, r, c)], 1,
					       err);
			if (error)
				goto out;
		}
		for (d = 0; d < s.n; d++) {
			uint32_t sw = switch_node(&s, d, line_of(&s, r, d));
			const uint32_t *spm =
				portmap + (size_t)sw * (s.radix + 1);

			for (l = 0; l < s.links; l++) {
				unsigned int rp = 1 + s.cas + d * s.links + l;
				unsigned int sp =
					1 + coord(&s, r, d) * s.links + l;

				error = ot_fabric_link(f, index[r], rpm[rp],
						       index[sw], spm[sp],
						       err);
				if (error)
					goto out;
			}
		}
	}
out:
	free(order);
	free(index);
	free(portmap);
	if (error) {
		ot_fabric_free(f);
		return NULL;
	}
	return f;
}
