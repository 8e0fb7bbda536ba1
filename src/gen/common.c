// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The layout the KNS and FlatFly generators share (see common.h): the last
 * step of generating a fabric, between the logical cabling a generator
 * decides and the model that ot_netfile_write() hands to ibsim.
 */
#include <stdio.h>
#include <stdlib.h>

#include "gen/common.h"
#include "model/prng.h"

int gen_layout_init(struct gen_layout *l, uint32_t nodes, uint32_t nswitches,
		    unsigned int radix)
{
	uint32_t i, sw;
	unsigned int p;

	l->nodes = nodes;
	l->nswitches = nswitches;
	l->radix = radix;
	l->order = malloc((nodes ? nodes : 1) * sizeof(*l->order));
	l->index = malloc((nodes ? nodes : 1) * sizeof(*l->index));
	l->port = malloc(((size_t)nswitches * (radix + 1) + 1) *
			 sizeof(*l->port));
	if (!l->order || !l->index || !l->port)
		return -1;
	for (i = 0; i < nodes; i++)
		l->order[i] = i;
	for (sw = 0; sw < nswitches; sw++) {
		uint32_t *pm = l->port + (size_t)sw * (radix + 1);

		for (p = 0; p <= radix; p++)
			pm[p] = p;
	}
	return 0;
}

void gen_layout_free(struct gen_layout *l)
{
	free(l->order);
	free(l->index);
	free(l->port);
}

void gen_layout_shuffle(struct gen_layout *l, uint64_t seed)
{
	struct ot_prng rng = { .state = seed };
	uint32_t sw;

	for (sw = 0; sw < l->nswitches; sw++)
		ot_prng_shuffle(&rng, l->port + (size_t)sw * (l->radix + 1) + 1,
				l->radix);
	ot_prng_shuffle(&rng, l->order, l->nodes);
}

int gen_add_nodes(struct ot_fabric *f, struct gen_layout *l, gen_name_fn name,
		  const void *ctx, struct ot_error *err)
{
	uint32_t i;

	for (i = 0; i < l->nodes; i++) {
		uint32_t ln = l->order[i];
		bool is_ca = ln >= l->nswitches;
		char buf[160];
		int n;

		l->index[ln] = UINT32_MAX;
		if (!name(ctx, ln, buf, sizeof(buf)))
			continue;
		n = ot_fabric_add_node(f, is_ca ? OT_NODE_CA : OT_NODE_SWITCH,
				       is_ca ? 1 : l->radix, 0, buf, err);
		if (n < 0)
			return -1;
		l->index[ln] = n;
	}
	return 0;
}

int gen_link_cas(struct ot_fabric *f, const struct gen_layout *l,
		 uint32_t hosts, uint32_t first_ca, unsigned int cas,
		 struct ot_error *err)
{
	uint32_t x;
	unsigned int c;

	for (x = 0; x < hosts; x++) {
		if (l->index[x] == UINT32_MAX)
			continue;
		for (c = 0; c < cas; c++)
			if (l->index[first_ca + x * cas + c] != UINT32_MAX &&
			    ot_fabric_link(f, l->index[x],
					   gen_port(l, x, 1 + c),
					   l->index[first_ca + x * cas + c], 1,
					   err))
				return -1;
	}
	return 0;
}

/* How many of n to drop for fraction frac: rounded, never all. */
static uint32_t drop_count(double frac, uint32_t n)
{
	uint32_t k = (uint32_t)(frac * n + 0.5);

	return k >= n && n ? n - 1 : k;
}

int gen_drop_switches(uint32_t nslots, double frac, struct ot_prng *rng,
		      bool *present, struct ot_error *err)
{
	uint32_t *perm, i, k;

	perm = malloc((nslots ? nslots : 1) * sizeof(*perm));
	if (!perm)
		return ot_error_nomem(err, "gen");
	for (i = 0; i < nslots; i++) {
		present[i] = true;
		perm[i] = i;
	}
	ot_prng_shuffle(rng, perm, nslots);
	k = drop_count(frac, nslots);
	for (i = 0; i < k; i++)
		present[perm[i]] = false;
	free(perm);
	return 0;
}

int gen_drop_cables(uint32_t ncables, double frac, struct ot_prng *rng,
		    bool **kept, struct ot_error *err)
{
	uint32_t *perm, i, k;

	*kept = malloc((ncables ? ncables : 1) * sizeof(**kept));
	perm = malloc((ncables ? ncables : 1) * sizeof(*perm));
	if (!*kept || !perm) {
		free(perm);
		return ot_error_nomem(err, "gen");
	}
	for (i = 0; i < ncables; i++) {
		(*kept)[i] = true;
		perm[i] = i;
	}
	ot_prng_shuffle(rng, perm, ncables);
	k = drop_count(frac, ncables);
	for (i = 0; i < k; i++)
		(*kept)[perm[i]] = false;
	free(perm);
	return 0;
}

int gen_link_cables(struct ot_fabric *f, const struct gen_layout *l,
		    const struct gen_cable *cable, const bool *kept,
		    uint32_t ncables, struct ot_error *err)
{
	uint32_t i;

	for (i = 0; i < ncables; i++) {
		const struct gen_cable *cb = &cable[i];

		if (!kept[i])
			continue;
		if (ot_fabric_link(f, l->index[cb->a],
				   gen_port(l, cb->a, cb->pa), l->index[cb->b],
				   gen_port(l, cb->b, cb->pb), err))
			return -1;
	}
	return 0;
}

int gen_wire(struct ot_fabric *f, struct gen_layout *l,
	     const struct gen_wiring *w, bool shuffle, uint64_t seed,
	     struct ot_error *err)
{
	if (shuffle)
		gen_layout_shuffle(l, seed);
	if (gen_add_nodes(f, l, w->name, w->ctx, err) ||
	    gen_link_cas(f, l, w->hosts ? w->hosts : w->nsw, w->nsw,
			 w->cas, err))
		return -1;
	return gen_link_cables(f, l, w->cable, w->kept, w->ncables, err);
}

int gen_damage_wire(struct ot_fabric *f, struct gen_layout *l,
		    const struct gen_damage *d, gen_collect_fn collect,
		    const void *shape, bool *present,
		    const struct gen_wiring *w, struct ot_error *err)
{
	struct ot_prng rng = { .state = d->seed };
	struct gen_wiring wired = *w;
	struct gen_cable *cable = NULL;
	bool *kept = NULL;
	uint32_t ncables = 0;
	int error;

	error = gen_drop_switches(w->nsw, d->drop_switches, &rng, present,
				  err);
	if (!error)
		error = collect(shape, present, &cable, &ncables, err);
	if (!error)
		error = gen_drop_cables(ncables, d->drop_links, &rng, &kept,
					err);
	if (!error) {
		wired.cable = cable;
		wired.kept = kept;
		wired.ncables = ncables;
		error = gen_wire(f, l, &wired, d->shuffle, d->shuffle_seed,
				 err);
	}
	free(cable);
	free(kept);
	return error;
}

struct ot_fabric *gen_done(struct ot_fabric *f, struct gen_layout *l,
			   int error)
{
	gen_layout_free(l);
	if (!error)
		return f;
	ot_fabric_free(f);
	return NULL;
}

unsigned int gen_kns_coord(unsigned int k, uint32_t r, unsigned int d)
{
	unsigned int i;

	for (i = 0; i < d; i++)
		r /= k;
	return r % k;
}

int gen_kns_routers(unsigned int k, unsigned int n, uint64_t *routers,
		    struct ot_error *err)
{
	unsigned int i;

	*routers = 1;
	for (i = 0; i < n; i++) {
		*routers *= k;
		if (*routers > 1u << 20)
			return ot_error_set(err,
					    "kns: %u^%u routers is more than osmtopo generates",
					    k, n);
	}
	return 0;
}

void gen_kns_name(unsigned int k, unsigned int n, uint32_t r, int ca,
		  char *buf, size_t len)
{
	char c[96];
	size_t used;
	unsigned int d;

	used = snprintf(c, sizeof(c), "[");
	for (d = n; d-- > 0 && used < sizeof(c);)
		used += snprintf(c + used, sizeof(c) - used, "%u%s",
				 gen_kns_coord(k, r, d), d ? "," : "]");
	if (ca < 0)
		snprintf(buf, len, "R%s", c);
	else
		snprintf(buf, len, "CA%s/%d", c, ca);
}
