// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The link balance figures (traffic.h) as a text table and as JSON
 * members of the checker's report.
 */
#include <inttypes.h>
#include <stdbool.h>

#include "check/json.h"
#include "check/traffic.h"

int ot_balance_print_text(FILE *out, const struct ot_balance_report *rep)
{
	unsigned int i, npat = ot_balance_npatterns(rep);
	bool multi = false;

	fprintf(out,
		"balance: %" PRIu32 " CAs in %s order, LMC %u; load = rate on a directed link, every CA injecting 1\n",
		ot_balance_ncas(rep), ot_ca_order_name(ot_balance_ca_order(rep)),
		ot_balance_lmc(rep));
	fprintf(out,
		"  pattern          flows  skipped unrouted  max load  net load  avg load  throughput\n");
	for (i = 0; i < npat; i++) {
		const struct ot_pattern_load *p = ot_balance_pattern(rep, i);

		fprintf(out,
			"  %-12s %9" PRIu64 " %8" PRIu64 " %8" PRIu64
			" %9.4f %9.4f %9.4f %11.4f\n",
			p->name, p->flows, p->skipped, p->unrouted,
			p->base.max_load, p->base.max_network_load,
			p->base.avg_load, p->base.throughput);
		multi |= p->multipath;
	}
	if (multi) {
		fprintf(out,
			"  with every LID (LMC %u): spread evenly / best LID per flow\n"
			"  pattern        max load  throughput   max load  throughput\n",
			ot_balance_lmc(rep));
		for (i = 0; i < npat; i++) {
			const struct ot_pattern_load *p = ot_balance_pattern(rep, i);

			if (!p->multipath)
				continue;
			fprintf(out, "  %-12s %10.4f %11.4f %10.4f %11.4f\n",
				p->name, p->spread.max_load,
				p->spread.throughput, p->best.max_load,
				p->best.throughput);
		}
	}
	for (i = 0; i < npat; i++) {
		const struct ot_pattern_load *p = ot_balance_pattern(rep, i);

		if (p->kind == OT_PATTERN_EBB)
			fprintf(out,
				"  ebb: effective bisection bandwidth %.4f over %u random bisections (seed %" PRIu64
				"): each flow 1 / the most loaded cable on its path, averaged; loads are the mean over the bisections\n",
				p->ebb, p->bisections, p->seed);
	}
	fprintf(out, "  most loaded switch-to-switch link:\n");
	for (i = 0; i < npat; i++) {
		const struct ot_pattern_load *p = ot_balance_pattern(rep, i);

		if (!p->max_from) {
			fprintf(out, "    %-12s -\n", p->name);
			continue;
		}
		fprintf(out,
			"    %-12s \"%s\" port %u -> \"%s\" port %u (%.4f)\n",
			p->name, p->max_from, p->max_from_port, p->max_to,
			p->max_to_port, p->base.max_network_load);
	}
	return ferror(out) ? -1 : 0;
}

static json_t *figure(json_t *obj, const struct ot_load_figure *fig)
{
	ot_json_set(obj, "max_load", ot_json_fixed(fig->max_load, 6));
	ot_json_set(obj, "max_network_load",
		    ot_json_fixed(fig->max_network_load, 6));
	ot_json_set(obj, "avg_load", ot_json_fixed(fig->avg_load, 6));
	ot_json_set(obj, "links_used", ot_json_u64(fig->links_used));
	return ot_json_set(obj, "throughput", ot_json_fixed(fig->throughput, 6));
}

static json_t *hot_link(const struct ot_pattern_load *p)
{
	json_t *o;

	if (!p->max_from)
		return json_null();
	o = json_object();
	ot_json_set(o, "from", ot_json_str(p->max_from));
	ot_json_set(o, "from_port", json_integer(p->max_from_port));
	ot_json_set(o, "to", ot_json_str(p->max_to));
	ot_json_set(o, "to_port", json_integer(p->max_to_port));
	return ot_json_set(o, "load",
			   ot_json_fixed(p->base.max_network_load, 6));
}

static json_t *pattern(const struct ot_pattern_load *p)
{
	json_t *o = json_object();

	ot_json_set(o, "name", ot_json_str(p->name));
	if (p->kind == OT_PATTERN_RANDOM || p->kind == OT_PATTERN_EBB)
		ot_json_set(o, "seed", ot_json_u64(p->seed));
	if (p->kind == OT_PATTERN_EBB) {
		ot_json_set(o, "ebb", ot_json_fixed(p->ebb, 6));
		ot_json_set(o, "bisections", json_integer(p->bisections));
	}
	ot_json_set(o, "flows", ot_json_u64(p->flows));
	ot_json_set(o, "skipped", ot_json_u64(p->skipped));
	ot_json_set(o, "unrouted", ot_json_u64(p->unrouted));
	figure(o, &p->base);
	ot_json_set(o, "hot_link", hot_link(p));
	if (p->multipath) {
		ot_json_set(o, "spread", figure(json_object(), &p->spread));
		ot_json_set(o, "best", figure(json_object(), &p->best));
	}
	return o;
}

int ot_balance_json_add(json_t *obj, const struct ot_balance_report *rep)
{
	json_t *b = json_object(), *pats = json_array();
	unsigned int i;

	if (!b || !pats) {
		json_decref(b);
		json_decref(pats);
		return -1;
	}
	ot_json_set(b, "cas", ot_json_u64(ot_balance_ncas(rep)));
	ot_json_set(b, "ca_order",
		    ot_json_str(ot_ca_order_name(ot_balance_ca_order(rep))));
	ot_json_set(b, "lmc", json_integer(ot_balance_lmc(rep)));
	for (i = 0; i < ot_balance_npatterns(rep); i++)
		json_array_append_new(pats,
				      pattern(ot_balance_pattern(rep, i)));
	ot_json_set(obj, "balance", b);
	ot_json_set(obj, "patterns", pats);
	return 0;
}
