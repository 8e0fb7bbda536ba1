// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * An open-addressed hash map of 64-bit keys (see hashmap.h).
 */
#include <stdlib.h>

#include "model/hashmap.h"
#include "model/prng.h"

#define FIRST_SIZE 1024

static uint64_t home(const struct ot_hashmap *m, uint64_t stored)
{
	return ot_mix64(stored) & m->mask;
}

/* stored's slot, or the empty slot where it would go. */
static uint64_t find(const struct ot_hashmap *m, uint64_t stored)
{
	uint64_t h = home(m, stored);

	while (m->key[h] && m->key[h] != stored)
		h = (h + 1) & m->mask;
	return h;
}

void ot_hashmap_free(struct ot_hashmap *m)
{
	free(m->key);
	free(m->val);
	m->key = NULL;
	m->val = NULL;
	m->mask = m->n = 0;
}

uint32_t *ot_hashmap_get(const struct ot_hashmap *m, uint64_t key)
{
	uint64_t h;

	if (!m->key)
		return NULL;
	h = find(m, key + 1);
	return m->key[h] ? &m->val[h] : NULL;
}

/* Twice the slots (FIRST_SIZE at first), every key put back. */
static int grow(struct ot_hashmap *m)
{
	uint64_t size = m->key ? 2 * (m->mask + 1) : FIRST_SIZE, i;
	struct ot_hashmap g = { .mask = size - 1, .n = m->n };

	g.key = calloc(size, sizeof(*g.key));
	g.val = malloc(size * sizeof(*g.val));
	if (!g.key || !g.val) {
		free(g.key);
		free(g.val);
		return -1;
	}
	for (i = 0; m->key && i <= m->mask; i++)
		if (m->key[i]) {
			uint64_t h = find(&g, m->key[i]);

			g.key[h] = m->key[i];
			g.val[h] = m->val[i];
		}
	free(m->key);
	free(m->val);
	*m = g;
	return 0;
}

uint32_t *ot_hashmap_put(struct ot_hashmap *m, uint64_t key, uint32_t val,
			 bool *added)
{
	uint64_t h;

	if (added)
		*added = false;
	if (m->key) {
		h = find(m, key + 1);
		if (m->key[h])
			return &m->val[h];
	}
	if ((!m->key || 2 * (m->n + 1) > m->mask + 1) && grow(m))
		return NULL;
	h = find(m, key + 1);
	m->key[h] = key + 1;
	m->val[h] = val;
	m->n++;
	if (added)
		*added = true;
	return &m->val[h];
}

bool ot_hashmap_del(struct ot_hashmap *m, uint64_t key)
{
	uint64_t h, j;

	if (!m->key)
		return false;
	h = find(m, key + 1);
	if (!m->key[h])
		return false;
	/* backward shift: later keys of the run move into the hole */
	m->key[h] = 0;
	m->n--;
	for (j = (h + 1) & m->mask; m->key[j]; j = (j + 1) & m->mask) {
		uint64_t at = home(m, m->key[j]);

		if ((j > h && (at <= h || at > j)) ||
		    (j < h && at <= h && at > j)) {
			m->key[h] = m->key[j];
			m->val[h] = m->val[j];
			m->key[j] = 0;
			h = j;
		}
	}
	return true;
}
