// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Traffic patterns shared by the checker and the simulator (pattern.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "model/prng.h"
#include "traffic/pattern.h"

static const char *const pattern_names[OT_PATTERN_COUNT] = {
	[OT_PATTERN_UNIFORM] = "uniform",
	[OT_PATTERN_COMPLEMENT] = "complement",
	[OT_PATTERN_REVERSE] = "reverse",
	[OT_PATTERN_SHUFFLE] = "shuffle",
	[OT_PATTERN_TRANSPOSE] = "transpose",
	[OT_PATTERN_ROTATION] = "rotation",
	[OT_PATTERN_NEIGHBOR] = "neighbor",
	[OT_PATTERN_RANDOM] = "random",
	[OT_PATTERN_EBB] = "ebb",
};

const char *ot_pattern_name(enum ot_pattern_kind kind)
{
	return kind < OT_PATTERN_COUNT ? pattern_names[kind] : "?";
}

const char *ot_ca_order_name(enum ot_ca_order order)
{
	return order == OT_CA_ORDER_GUID ? "guid" : "file";
}

/* "ebb:K" at p (len characters): K into *bisections.  0, or -1. */
static int parse_bisections(const char *p, size_t len,
			    unsigned int *bisections)
{
	unsigned long k = 0;
	size_t i;

	if (len <= 4 || strncmp(p, "ebb:", 4))
		return -1;
	for (i = 4; i < len; i++) {
		if (p[i] < '0' || p[i] > '9' || k > OT_EBB_MAX_BISECTIONS)
			return -1;
		k = k * 10 + (unsigned long)(p[i] - '0');
	}
	if (k < 1 || k > OT_EBB_MAX_BISECTIONS)
		return -1;
	*bisections = (unsigned int)k;
	return 0;
}

int ot_pattern_parse_list(const char *list, uint32_t *mask,
			  unsigned int *bisections, struct ot_error *err)
{
	const char *p = list;

	*mask = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		unsigned int k;
		bool found = false;

		if (bisections && len > 3 && !strncmp(p, "ebb:", 4)) {
			if (parse_bisections(p, len, bisections))
				return ot_error_set(err,
						    "'%.*s': ebb:K with K bisections, 1 to %u",
						    (int)len, p,
						    OT_EBB_MAX_BISECTIONS);
			*mask |= 1u << OT_PATTERN_EBB;
			found = true;
		}
		if (!bisections && len >= 3 && !strncmp(p, "ebb", 3) &&
		    (len == 3 || p[3] == ':'))
			return ot_error_set(err,
					    "pattern ebb is not taken here (osmtopo check or simulate --patterns ebb:K)");
		if (len == 3 && !strncmp(p, "all", 3)) {
			*mask |= OT_PATTERNS_ALL;
			found = true;
		}
		for (k = 0; k < OT_PATTERN_COUNT && !found; k++) {
			if (strlen(pattern_names[k]) == len &&
			    !strncmp(p, pattern_names[k], len)) {
				*mask |= 1u << k;
				found = true;
			}
		}
		if (!found)
			return ot_error_set(err, "unknown pattern '%.*s'",
					    (int)len, p);
		p += len;
		if (*p == ',')
			p++;
	}
	if (!*mask)
		return ot_error_set(err, "no pattern in '%s'", list);
	return 0;
}

/* qsort has no context argument: the keys are sorted with the index. */
struct ca_key {
	uint64_t guid;
	int32_t node;
	uint8_t port;
	uint32_t ep;
};

static int key_cmp(const void *pa, const void *pb)
{
	const struct ca_key *x = pa, *y = pb;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return (int)x->port - (int)y->port;
}

void ot_ca_order_list(const struct ot_fabric *f, const struct ot_endpoints *e,
		      enum ot_ca_order order, uint32_t *out)
{
	struct ca_key *k;
	uint32_t i;

	for (i = 0; i < e->nep; i++)
		out[i] = i;
	if (order != OT_CA_ORDER_GUID || e->nep < 2)
		return;
	k = malloc(e->nep * sizeof(*k));
	if (!k)
		return; /* file order: callers only lose the GUID order */
	for (i = 0; i < e->nep; i++) {
		const struct ot_endpoint *x = &e->ep[i];
		const struct ot_port *pt = &f->node[x->node].port[x->port];

		k[i].guid = pt->guid ? pt->guid :
				       f->node[x->node].guid + x->port;
		k[i].node = x->node;
		k[i].port = x->port;
		k[i].ep = i;
	}
	qsort(k, e->nep, sizeof(*k), key_cmp);
	for (i = 0; i < e->nep; i++)
		out[i] = k[i].ep;
	free(k);
}

static unsigned int bits_for(uint32_t n)
{
	unsigned int bits = 0;

	while (bits < 32 && (1ull << bits) < n)
		bits++;
	return bits;
}

static uint32_t rotate_left(uint32_t v, unsigned int by, unsigned int bits)
{
	uint32_t mask = (uint32_t)((1ull << bits) - 1);

	if (!bits)
		return 0;
	by %= bits;
	if (!by)
		return v;
	return ((v << by) | (v >> (bits - by))) & mask;
}

static uint32_t reverse_bits(uint32_t v, unsigned int bits)
{
	uint32_t out = 0;
	unsigned int i;

	for (i = 0; i < bits; i++)
		if (v & (1u << i))
			out |= 1u << (bits - 1 - i);
	return out;
}

uint64_t ot_pattern_bisection_seed(uint64_t seed, unsigned int k)
{
	/* apart from the random permutations' seed, seed + 1, ... */
	return (seed ^ 0x6562622062697365ull) + k;
}

/* A random bisection and a random perfect matching across it. */
static void bisection(uint32_t n, uint64_t seed, uint32_t *partner,
		      uint32_t *perm)
{
	struct ot_prng st = { seed };
	uint32_t i, h = n / 2;

	for (i = 0; i < n; i++) {
		perm[i] = i;
		partner[i] = OT_NO_PARTNER;
	}
	ot_prng_shuffle(&st, perm, n);
	/* halves perm[0, h) and perm[h, 2h), paired in order */
	for (i = 0; i < h; i++) {
		partner[perm[i]] = perm[h + i];
		partner[perm[h + i]] = perm[i];
	}
}

void ot_pattern_partners(enum ot_pattern_kind kind, uint32_t n, uint64_t seed,
			 uint32_t *partner, uint32_t *perm)
{
	unsigned int bits = bits_for(n);
	uint32_t mask = (uint32_t)((1ull << bits) - 1);
	uint32_t i, j;

	if (kind == OT_PATTERN_EBB) {
		bisection(n, seed, partner, perm);
		return;
	}
	if (kind == OT_PATTERN_RANDOM) {
		struct ot_prng st = { seed };

		for (i = 0; i < n; i++)
			perm[i] = i;
		ot_prng_shuffle(&st, perm, n);
	}
	for (i = 0; i < n; i++) {
		switch (kind) {
		case OT_PATTERN_COMPLEMENT:
			j = ~i & mask;
			break;
		case OT_PATTERN_REVERSE:
			j = reverse_bits(i, bits);
			break;
		case OT_PATTERN_SHUFFLE:
			j = rotate_left(i, 1, bits);
			break;
		case OT_PATTERN_TRANSPOSE:
			/* right by b/2 is left by b - b/2 */
			j = rotate_left(i, bits - bits / 2, bits);
			break;
		case OT_PATTERN_ROTATION:
			j = (uint32_t)(((uint64_t)i + n / 2) % n);
			break;
		case OT_PATTERN_NEIGHBOR:
			j = (uint32_t)(((uint64_t)i + 1) % n);
			break;
		case OT_PATTERN_RANDOM:
			j = perm[i];
			break;
		default:
			j = i;
			break;
		}
		partner[i] = j >= n || j == i ? OT_NO_PARTNER : j;
	}
}
