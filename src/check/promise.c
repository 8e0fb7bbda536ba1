// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Holds every reached CA-to-CA path to the promise of the engine
 * (model/routing.h): minimal or not, how many hops, which VL on which hop
 * (below the promising routing's nvls), which SL, and the engine's own
 * rule.  Each source switch's path suffix is built once per destination.
 */
#include <stdio.h>

#include "check/checker.h"

/* What part of a promise a path breaks, first found first. */
enum broken {
	KEPT,
	NOT_MINIMAL,
	TOO_LONG,
	BAD_VL,
	BAD_SL,
	RULE,
};

/*
 * Which part of the promise of the routing by a reached path breaks,
 * with why saying how.  shortest: links on a shortest path.
 */
static enum broken judge_path(const struct checker *ck,
			      const struct ot_routing *by,
			      const struct ot_path *path, unsigned int shortest,
			      unsigned int offset, struct ot_error *why)
{
	const struct ot_promise *p = &by->promise;
	unsigned int i, links = path->len - 1, nvls = by->nvls;

	if ((p->minimal == OT_MINIMAL_ALL ||
	     (p->minimal == OT_MINIMAL_BASE && !offset)) && links > shortest) {
		ot_error_set(why, "not minimal: %u links, the shortest path has %u",
			     links, shortest);
		return NOT_MINIMAL;
	}
	if (p->max_switch_hops && path->len >= 3 &&
	    path->len - 3 > p->max_switch_hops) {
		ot_error_set(why, "%u switch-to-switch hops, at most %u promised",
			     path->len - 3, p->max_switch_hops);
		return TOO_LONG;
	}
	for (i = 0; i < links && nvls; i++) {
		if (path->vl[i] < nvls)
			continue;
		ot_error_set(why,
			     "hop %u (\"%s\" port %u) on VL %u, only VLs 0-%u promised",
			     i + 1, desc(ck, path->node[i]), path->port[i],
			     path->vl[i], nvls - 1);
		return BAD_VL;
	}
	if (p->sls && !(p->sls & (1u << path->sl))) {
		ot_error_set(why,
			     "path SL %u, not one of the promised SLs (mask 0x%x)",
			     path->sl, p->sls);
		return BAD_SL;
	}
	if (p->rule && p->rule(p->ctx, path, why)) {
		if (!why->msg[0])
			ot_error_set(why, "the engine's rule refused it");
		return RULE;
	}
	return KEPT;
}

static void count_broken(struct ot_check_counts *c, enum broken b)
{
	switch (b) {
	case KEPT:
		return;
	case NOT_MINIMAL:
		c->not_minimal++;
		break;
	case TOO_LONG:
		c->too_long++;
		break;
	case BAD_VL:
		c->bad_vl++;
		break;
	case BAD_SL:
		c->bad_sl++;
		break;
	case RULE:
		c->rule_broken++;
		break;
	}
	c->violations++;
}

/*
 * Verdicts of the paths from one source switch, by what can still differ
 * between its CAs: the path SL and the VLs of the first two hops.  A
 * promise whose rule is source_free judges nothing else of the source, so
 * a verdict holds for every CA with the same key.
 */
#define VERDICTS 8

struct verdicts {
	uint16_t key[VERDICTS];
	uint8_t broken[VERDICTS];
	unsigned int n;
};

static bool verdict_find(const struct verdicts *v, uint16_t key,
			 enum broken *b)
{
	unsigned int i;

	for (i = 0; i < v->n; i++)
		if (v->key[i] == key) {
			*b = v->broken[i];
			return true;
		}
	return false;
}

static void verdict_keep(struct verdicts *v, uint16_t key, enum broken b)
{
	if (v->n == VERDICTS)
		return;
	v->key[v->n] = key;
	v->broken[v->n++] = b;
}

/*
 * The VLs of the hops from the second switch on toward the destination,
 * for path SL sl: they depend on nothing else, so they are computed once
 * per SL and source switch (valid where vl_sl_ok has the SL's bit).
 */
static const uint8_t *suffix_vls(struct checker *ck, unsigned int len,
				 unsigned int sl)
{
	uint8_t *v = ck->vl_cache + (size_t)sl * (ck->f->nnodes + 2);
	unsigned int i;

	if (ck->vl_sl_ok & (1u << sl))
		return v;
	for (i = 2; i + 1 < len; i++) {
		const struct ot_port *in =
			&ck->f->node[ck->path[i - 1]].port[ck->pport[i - 1]];

		v[i] = vl_of(ck, ck->path[i], in->peer_port, ck->pport[i], sl);
	}
	ck->vl_sl_ok |= 1u << sl;
	return v;
}

/* The VLs after the first switch into the path, for its SL. */
static void fill_suffix_vls(struct checker *ck, const struct ot_path *path)
{
	const uint8_t *sv = suffix_vls(ck, path->len, path->sl);
	unsigned int h;

	for (h = 2; h + 1 < path->len; h++)
		ck->pvl[h] = sv[h];
}

/*
 * Judges one source's path (its first node, VLs and SL are set) and
 * lists it as an example while there is room.
 */
static int judge_source(struct checker *ck, const struct ot_dest *dd,
			const struct ot_endpoint *e, struct ot_path *path,
			unsigned int shortest, struct verdicts *v)
{
	const struct ot_routing *by = ck->opts->promiser;
	const struct ot_endpoint *d = &ck->eps.ep[dd->ep];
	uint16_t key = path->sl | ck->pvl[0] << 4 | ck->pvl[1] << 8;
	struct ot_error why; /* 512 bytes: set only where a verdict is made */
	struct example *ex;
	enum broken b;
	bool known = by->promise.source_free && verdict_find(v, key, &b);

	why.msg[0] = '\0';
	if (!known || ck->rep->violations.n < ck->rep->max_examples)
		fill_suffix_vls(ck, path);
	if (!known) {
		b = judge_path(ck, by, path, shortest, dd->lid - d->lid, &why);
		verdict_keep(v, key, b);
	}
	count_broken(&ck->rep->c, b);
	if (b == KEPT || ck->rep->violations.n >= ck->rep->max_examples)
		return 0;
	if (known)
		judge_path(ck, by, path, shortest, dd->lid - d->lid, &why);
	ex = ck_example_add(ck, &ck->rep->violations, e, d, dd->lid);
	if (!ex)
		return -1;
	ex->reason = dupstr(why.msg);
	return ex->reason ? 0 : -1;
}

/*
 * Holds every reached pair toward dd to the promise.  The switches from
 * a source switch on, and the VLs after its first switch per SL, are the
 * same for all its CAs: they are listed once, and only the first node,
 * the first two VLs and the SL change per source.
 */
int ck_check_promise(struct checker *ck, const struct ot_dest *dd)
{
	const struct ot_endpoint *d = &ck->eps.ep[dd->ep];
	struct ot_path path = {
		.node = ck->path, .port = ck->pport, .vl = ck->pvl,
		.dlid = dd->lid,
	};
	uint32_t k, i;

	for (k = 0; k < ck->eps.nsrc_switches; k++) {
		int32_t s = ck->eps.src_switches[k], x = s;
		unsigned int len = 1, shortest;
		struct verdicts v = { .n = 0 };

		if (ck->tree.state[s] != OT_FWD_REACH || !ot_sources_at(&ck->eps, s, dd->ep))
			continue;
		for (;;) {
			ck->pport[len] = ck->tree.outp[x];
			ck->path[len++] = x;
			if (ck->tree.info[x] == 1)
				break;
			x = ck->f->node[x].port[ck->tree.outp[x]].peer;
		}
		ck->path[len++] = d->node;
		path.len = len;
		ck->vl_sl_ok = 0;
		shortest = ck->dist[s] == DIST_INF ? 0 : 2 + ck->dist[s];
		for (i = ck->eps.src_start[s]; i < ck->eps.src_start[s + 1]; i++) {
			uint32_t src = ck->eps.src_list[i];
			const struct ot_endpoint *e = &ck->eps.ep[src];

			if (src == dd->ep)
				continue;
			path.slid = e->lid;
			path.sl = ck_path_sl(ck, e->lid, dd->lid);
			ck->path[0] = e->node;
			ck->pport[0] = e->port;
			ck->pvl[0] = vl_of(ck, e->node, 0, e->port, path.sl);
			ck->pvl[1] = vl_of(ck, s, e->sw_port, ck->pport[1],
					   path.sl);
			if (judge_source(ck, dd, e, &path, shortest, &v))
				return -1;
		}
	}
	return 0;
}
