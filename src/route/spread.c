// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Destination groups over the VLs an engine leaves free (spread.h): the
 * engine's routing is copied once per group, SL g*S + s and VL g*V + v.
 * Deadlock freedom: see spread.h (each group a copy of the engine's
 * channel dependency graph on its own VLs).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "route/spread.h"

struct spread {
	/*
	 * The routing as the engine left it (a shallow copy): its path_sl
	 * reads its own priv, its promise rule its own ctx.
	 */
	struct ot_routing inner;
	unsigned int groups, sls, vls; /* G, S, V */
	uint8_t *group;                /* per LID, max_lid + 1 */
	char rule_text[512];
};

static const char *const rule_names[] = {
	[OT_SPREAD_BY_LID] = "lid",
	[OT_SPREAD_BY_SWITCH] = "switch",
	[OT_SPREAD_BY_COORD] = "coord",
};

const char *ot_spread_rule_name(enum ot_spread_rule rule)
{
	return rule_names[rule];
}

int ot_spread_parse(const char *text, struct ot_spread_opts *o,
		    struct ot_error *err)
{
	const char *colon = strchr(text, ':');
	size_t len = colon ? (size_t)(colon - text) : strlen(text);
	unsigned int i;
	char *end;
	long n;

	o->rule = OT_SPREAD_DEFAULT_RULE;
	if (colon) {
		for (i = 0; i < sizeof(rule_names) / sizeof(rule_names[0]); i++)
			if (!strcmp(colon + 1, rule_names[i]))
				break;
		if (i == sizeof(rule_names) / sizeof(rule_names[0]))
			return ot_error_set(err,
					    "spread '%s': the grouping rule is lid, switch or coord",
					    text);
		o->rule = (enum ot_spread_rule)i;
	}
	if (len == 3 && !strncmp(text, "off", 3)) {
		o->groups = OT_SPREAD_OFF;
		return 0;
	}
	if (len == 4 && !strncmp(text, "auto", 4)) {
		o->groups = OT_SPREAD_AUTO;
		return 0;
	}
	n = strtol(text, &end, 10);
	if (end != text + len || len == 0 || n < 1 || n > 15)
		return ot_error_set(err,
				    "spread '%s': auto, off or 1..15 groups, optionally :lid, :switch or :coord",
				    text);
	o->groups = (int)n;
	return 0;
}

bool ot_spread_budget(const struct ot_spread_opts *o, unsigned int data_vls,
		      unsigned int classes, struct ot_engine_budget *b,
		      char *why, size_t why_len)
{
	unsigned int c = classes ? classes : 1, n;

	if (o->groups < 2)
		return false;
	n = (unsigned int)o->groups;
	if (data_vls / (c * n) == 0 || 15 / (c * n) == 0)
		return false;
	if (classes > 1)
		snprintf(why, why_len, "%u QoS classes x %u spread groups",
			 classes, n);
	else
		snprintf(why, why_len, "%u spread groups", n);
	b->max_vls = data_vls / (c * n);
	b->max_sls = 15 / (c * n);
	b->why = why;
	return true;
}

unsigned int ot_routing_sl_layers(const struct ot_routing *r)
{
	unsigned int s = 1, sl;

	if (!r->path_sl)
		return 1;
	for (sl = 0; sl < OT_NUM_SLS; sl++)
		if (r->promise.sls & (1u << sl))
			s = sl + 1;
	return s;
}

/* The switch a CA port is cabled to, or -1. */
static int ca_switch(const struct ot_fabric *f, int n, unsigned int p)
{
	int32_t q = f->node[n].port[p].peer;

	return q >= 0 && ot_is_switch(f, q) ? q : -1;
}

/* Sum of the numbers in a label ("router [2,5]": 7), 0 without one. */
static unsigned int label_sum(const char *label)
{
	unsigned int sum = 0;

	while (label && *label) {
		if (isdigit((unsigned char)*label)) {
			sum += (unsigned int)strtoul(label, (char **)&label,
						      10);
			continue;
		}
		label++;
	}
	return sum;
}

/*
 * Group of every LID: a CA port's LIDs all get its group (so do the flows
 * of one pair, whatever LID offset they take); switch LIDs group 0.
 * Ranks follow LIDs in increasing order, so they do not depend on node
 * order; the coordinates are the engine's.
 */
static int fill_groups(const struct ot_routing *r, enum ot_spread_rule rule,
		       unsigned int g, uint8_t *group)
{
	const struct ot_fabric *f = r->fabric;
	uint32_t *sw_rank, *sw_cas, nsw = 0, by_sl[OT_NUM_SLS] = { 0 };
	unsigned int lid, v, ref = 0;

	sw_rank = calloc(f->nnodes, sizeof(*sw_rank));
	sw_cas = calloc(f->nnodes, sizeof(*sw_cas));
	if (!sw_rank || !sw_cas) {
		free(sw_rank);
		free(sw_cas);
		return -1;
	}
	for (lid = 1; lid <= f->max_lid; lid++) {
		const struct ot_lid_owner *o = &f->lid_owner[lid];
		const struct ot_port *pt;
		int sw;

		if (o->node < 0 || ot_is_switch(f, o->node))
			continue;
		pt = &f->node[o->node].port[o->port];
		if (pt->lid != lid)
			continue; /* not a base LID: its base's group below */
		if (!ref)
			ref = lid;
		sw = ca_switch(f, o->node, o->port);
		if (sw >= 0 && !sw_rank[sw])
			sw_rank[sw] = ++nsw;
		switch (rule) {
		case OT_SPREAD_BY_LID:
			/*
			 * the rank among the destinations on the same engine
			 * SL (from the first CA): engines that pick a layer by
			 * destination (the Mixed orders: CA index mod m) would
			 * otherwise put a layer's destinations in few groups
			 */
			v = by_sl[ot_routing_path_sl(r, (uint16_t)ref,
						     (uint16_t)lid) %
				  OT_NUM_SLS]++;
			break;
		case OT_SPREAD_BY_SWITCH:
			v = sw >= 0 ? sw_rank[sw] - 1 : 0;
			break;
		default:
			v = sw >= 0 ? label_sum(r->label[sw]) + sw_cas[sw] : 0;
			break;
		}
		if (sw >= 0)
			sw_cas[sw]++;
		group[lid] = (uint8_t)(v % g);
	}
	for (lid = 1; lid <= f->max_lid; lid++) {
		const struct ot_lid_owner *o = &f->lid_owner[lid];

		if (o->node >= 0 && !ot_is_switch(f, o->node))
			group[lid] = group[f->node[o->node].port[o->port].lid];
	}
	free(sw_rank);
	free(sw_cas);
	return 0;
}

static uint8_t spread_path_sl(const struct ot_routing *r, uint16_t slid,
			      uint16_t dlid)
{
	const struct spread *sp = r->priv;
	unsigned int g = dlid <= r->max_lid ? sp->group[dlid] : 0;
	unsigned int s = sp->inner.path_sl ?
				 sp->inner.path_sl(&sp->inner, slid, dlid) : 0;

	return (uint8_t)(g * sp->sls + s % sp->sls);
}

static void spread_free(void *priv)
{
	struct spread *sp = priv;

	if (sp->inner.free_priv)
		sp->inner.free_priv(sp->inner.priv);
	if (sp->inner.promise.free_ctx)
		sp->inner.promise.free_ctx(sp->inner.promise.ctx);
	free(sp->group);
	free(sp);
}

/*
 * The promise's rule: every hop on the destination group's VLs, the path
 * SL in its block, and the engine's rule on the path shifted back.
 */
static int spread_rule(const void *ctx, const struct ot_path *path,
		       struct ot_error *why)
{
	const struct spread *sp = ctx;
	unsigned int g = path->dlid <= sp->inner.max_lid ?
				 sp->group[path->dlid] : 0;
	struct ot_path p = *path;
	uint8_t vl[256];
	unsigned int i;
	int ret;

	if (path->sl / sp->sls != g)
		return ot_error_set(why,
				    "path SL %u is not in destination LID %u's spread group %u (SLs %u-%u)",
				    path->sl, path->dlid, g, g * sp->sls,
				    g * sp->sls + sp->sls - 1);
	for (i = 0; i + 1 < path->len && i < sizeof(vl); i++) {
		if (path->vl[i] / sp->vls != g)
			return ot_error_set(why,
					    "hop %u on VL %u, not on destination LID %u's spread group %u (VLs %u-%u)",
					    i + 1, path->vl[i], path->dlid, g,
					    g * sp->vls, g * sp->vls + sp->vls - 1);
		vl[i] = (uint8_t)(path->vl[i] % sp->vls);
	}
	if (!sp->inner.promise.rule)
		return 0;
	p.sl = (uint8_t)(path->sl % sp->sls);
	p.vl = vl;
	ret = sp->inner.promise.rule(sp->inner.promise.ctx, &p, why);
	return ret;
}

/*
 * Node n's table for the groups; NULL on OOM.  SL sl is group
 * (sl / S) mod G's layer sl mod S: SLs beyond G*S (which path_sl never
 * hands out) land on a group's copy too, as the QoS layering maps them
 * (ot_qos_sl_layer()).
 */
static uint8_t *spread_table(const struct spread *sp, int n)
{
	const struct ot_routing *r = &sp->inner;
	unsigned int nports = r->fabric->node[n].nports, in, out, sl, g, s;
	size_t size = (size_t)(nports + 1) * (nports + 1) * OT_NUM_SLS;
	uint8_t *t = malloc(size);

	if (!t)
		return NULL;
	for (in = 0; in <= nports; in++)
		for (out = 0; out <= nports; out++)
			for (sl = 0; sl < OT_NUM_SLS; sl++) {
				g = sl / sp->sls % sp->groups;
				s = sl % sp->sls;
				t[ot_sl2vl_index(nports, in, out, sl)] =
					(uint8_t)(g * sp->vls +
						  ot_routing_vl(r, n, in, out,
								s));
			}
	return t;
}

/* How many groups fit beside classes and the engine's layers. */
static unsigned int groups_fit(unsigned int data_vls, unsigned int c,
			       unsigned int s, unsigned int v)
{
	unsigned int by_vls = data_vls / (c * v), by_sls = 15 / (c * s);

	return by_vls < by_sls ? by_vls : by_sls;
}

int ot_spread_apply(struct ot_routing *r, const struct ot_spread_opts *o,
		    unsigned int data_vls, unsigned int classes,
		    unsigned int *groups, char *note, size_t note_len,
		    struct ot_error *err)
{
	const struct ot_fabric *f = r->fabric;
	unsigned int c = classes ? classes : 1, s = ot_routing_sl_layers(r);
	unsigned int v = r->nvls ? r->nvls : 1, fit, g, i, sl;
	struct spread *sp;
	uint8_t **tables;
	uint32_t n;

	note[0] = '\0';
	*groups = 1;
	if (o->groups == OT_SPREAD_OFF)
		return 0;
	fit = groups_fit(data_vls, c, s, v);
	g = o->groups == OT_SPREAD_AUTO ? fit : (unsigned int)o->groups;
	if (g > fit) {
		snprintf(note, note_len,
			 "%u spread groups asked, %u fit: %u data VLs / (%u class%s x %u VL%s of the engine), %u SLs / (%u x %u SL layer%s)",
			 g, fit ? fit : 1, data_vls, c, c == 1 ? "" : "es", v,
			 v == 1 ? "" : "s", 15, c, s, s == 1 ? "" : "s");
		g = fit ? fit : 1;
	}
	if (g <= 1)
		return 0;
	sp = calloc(1, sizeof(*sp));
	tables = calloc(f->nnodes, sizeof(*tables));
	if (!sp || !tables)
		goto nomem;
	sp->group = calloc((size_t)r->max_lid + 1, 1);
	if (!sp->group || fill_groups(r, o->rule, g, sp->group))
		goto nomem;
	sp->inner = *r;
	sp->groups = g;
	sp->sls = s;
	sp->vls = v;
	for (n = 0; n < f->nnodes; n++) {
		tables[n] = spread_table(sp, (int)n);
		if (!tables[n])
			goto nomem;
	}
	snprintf(sp->rule_text, sizeof(sp->rule_text),
		 "destinations in %u groups by %s, group g on SLs g*%u.. and VLs g*%u..; then %s",
		 g, rule_names[o->rule], s, v,
		 r->promise.rule_text ? r->promise.rule_text :
					"the engine's VLs");
	/* From here on nothing fails: r becomes the spread routing. */
	for (n = 0; n < f->nnodes; n++) {
		free(r->sl2vl[n]);
		r->sl2vl[n] = tables[n];
	}
	free(tables);
	r->priv = sp;
	r->free_priv = spread_free;
	r->path_sl = spread_path_sl;
	if (!sp->inner.path_sl)
		r->path_sl_by_switch = true;
	r->nvls = g * v;
	r->needs_qos = true;
	r->promise.sls = 0;
	for (i = 0; i < g; i++)
		for (sl = 0; sl < s; sl++)
			if (!sp->inner.path_sl ||
			    (sp->inner.promise.sls & (1u << sl)))
				r->promise.sls |= (uint16_t)(1u << (i * s + sl));
	r->promise.rule = spread_rule;
	r->promise.rule_text = sp->rule_text;
	r->promise.ctx = sp;
	r->promise.free_ctx = NULL; /* freed with priv */
	if (!r->promise.text)
		r->promise.text = "every CA pair reached, no credit loop";
	*groups = g;
	return 0;
nomem:
	if (tables)
		for (n = 0; n < f->nnodes; n++)
			free(tables[n]);
	free(tables);
	if (sp)
		free(sp->group);
	free(sp);
	return ot_error_nomem(err, "spread groups");
}

unsigned int ot_spread_groups(const struct ot_routing *r)
{
	return r->free_priv == spread_free ?
		       ((const struct spread *)r->priv)->groups : 1;
}

unsigned int ot_spread_group_of(const struct ot_routing *r, uint16_t lid)
{
	const struct spread *sp = r->priv;

	if (r->free_priv != spread_free || lid > r->max_lid)
		return 0;
	return sp->group[lid];
}
