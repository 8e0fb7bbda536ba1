// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The pairs the checker lists as examples (unreachable, looping, breaking
 * the promise): added by check.c and promise.c, freed with the report.
 */
#include "check/checker.h"

/* Room for one more example in l, or NULL when it is full (or on OOM). */
struct example *ck_example_add(struct checker *ck, struct example_list *l,
			       const struct ot_endpoint *src,
			       const struct ot_endpoint *dst, uint16_t dlid)
{
	struct example *e;

	if (l->n >= ck->rep->max_examples)
		return NULL;
	if (!l->ex) {
		l->ex = calloc(ck->rep->max_examples, sizeof(*l->ex));
		if (!l->ex)
			return NULL;
	}
	e = &l->ex[l->n];
	memset(e, 0, sizeof(*e));
	e->src = dupstr(desc(ck, src->node));
	e->dst = dupstr(desc(ck, dst->node));
	e->src_port = src->port;
	e->dst_port = dst->port;
	e->slid = src->lid;
	e->dlid = dlid;
	if (!e->src || !e->dst) {
		ck_example_free(e);
		return NULL;
	}
	l->n++;
	return e;
}

void ck_example_free(struct example *e)
{
	unsigned int i;

	free(e->src);
	free(e->dst);
	free(e->at);
	free(e->reason);
	for (i = 0; i < e->cycle_len; i++)
		free(e->cycle[i]);
	free(e->cycle);
}
