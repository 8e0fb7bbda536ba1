// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The checker's report: freeing it, and printing it as text or JSON.
 */
#include <inttypes.h>
#include <stdio.h>

#include "check/checker.h"
#include "check/json.h"

static void channel_free(struct channel *ch)
{
	free(ch->from);
	free(ch->to);
}

static void cycles_free(struct credit_cycle *cycles, unsigned int n)
{
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < cycles[i].len; j++)
			channel_free(&cycles[i].ch[j]);
		free(cycles[i].ch);
	}
	free(cycles);
}

/* Multicast trees that miss members, loop, or add a credit loop. */
static bool mcast_ok(const struct ot_check_counts *c)
{
	return !c->mcast_checked ||
	       (!c->mcast.missed && !c->mcast.looping &&
		c->mcast.credit_loops == c->credit_loops &&
		c->mcast.credit_loop_channels == c->credit_loop_channels);
}

void ot_check_report_free(struct ot_check_report *rep)
{
	struct example_list *lists[3];
	unsigned int i, j;

	if (!rep)
		return;
	lists[0] = &rep->unreachable;
	lists[1] = &rep->looping;
	lists[2] = &rep->violations;
	for (i = 0; i < 3; i++) {
		for (j = 0; j < lists[i]->n; j++)
			ck_example_free(&lists[i]->ex[j]);
		free(lists[i]->ex);
	}
	cycles_free(rep->cycles, rep->ncycles);
	free(rep->loop_chan);
	cycles_free(rep->mc_cycles, rep->n_mc_cycles);
	for (i = 0; i < rep->n_mc_examples; i++)
		free(rep->mc_examples[i]);
	free(rep->mc_examples);
	free(rep->promise);
	free(rep->promise_rule);
	ot_balance_report_free(rep->balance);
	free(rep);
}

bool ot_check_ok(const struct ot_check_report *rep)
{
	const struct ot_check_counts *c = &rep->c;

	return !c->unreachable && !c->looping && !c->credit_loops &&
	       !c->violations && mcast_ok(c);
}

const struct ot_check_counts *ot_check_counts(const struct ot_check_report *rep)
{
	return &rep->c;
}

const struct ot_balance_report *
ot_check_balance(const struct ot_check_report *rep)
{
	return rep->balance;
}

/* ------------------------------------------------------------------ */
/* Output.                                                             */

static double percent(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 100.0;
}

static double average_hops(const struct ot_check_counts *c)
{
	return c->reached ? (double)c->total_hops / (double)c->reached : 0.0;
}

static void print_pair(FILE *out, const struct example *e)
{
	fprintf(out, "    \"%s\" port %u (LID %u) -> \"%s\" port %u (LID %u): ",
		e->src, e->src_port, e->slid, e->dst, e->dst_port, e->dlid);
}

static void print_examples(FILE *out, const char *title, uint64_t count,
			   const struct example_list *l)
{
	unsigned int i, j;

	if (!count)
		return;
	fprintf(out, "%s (%" PRIu64 " pairs%s):\n", title, count,
		count > l->n ? ", the first listed" : "");
	for (i = 0; i < l->n; i++) {
		const struct example *e = &l->ex[i];

		print_pair(out, e);
		if (e->cycle_len) {
			fprintf(out, "%s", e->reason);
			for (j = 0; j < e->cycle_len; j++)
				fprintf(out, "%s\"%s\"", j ? " -> " : " ",
					e->cycle[j]);
			fprintf(out, " -> \"%s\"\n", e->cycle[0]);
		} else if (e->at) {
			fprintf(out, "%s at \"%s\" port %u\n", e->reason, e->at,
				e->at_port);
		} else {
			fprintf(out, "%s\n", e->reason);
		}
	}
}

static void print_vls(FILE *out, uint16_t vls, const char *sep)
{
	unsigned int vl;
	bool first = true;

	for (vl = 0; vl < NUM_VLS; vl++) {
		if (!(vls & (1u << vl)))
			continue;
		fprintf(out, "%s%u", first ? "" : sep, vl);
		first = false;
	}
}

static void print_cycles(FILE *out, const char *title,
			 const struct credit_cycle *cycles, unsigned int n,
			 unsigned int total)
{
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		const struct credit_cycle *cyc = &cycles[i];

		fprintf(out, "%s %u of %u (%u channels):\n", title, i + 1,
			total, cyc->len);
		for (j = 0; j < cyc->len; j++)
			fprintf(out, "    \"%s\" port %u -> \"%s\" port %u, VL %u\n",
				cyc->ch[j].from, cyc->ch[j].from_port,
				cyc->ch[j].to, cyc->ch[j].to_port,
				cyc->ch[j].vl);
	}
}

/* The multicast check's lines, when it ran. */
static void print_mcast(FILE *out, const struct ot_check_report *rep)
{
	const struct ot_check_counts *c = &rep->c;
	const struct ot_mcast_counts *m = &c->mcast;
	unsigned int i;

	if (!c->mcast_checked)
		return;
	fprintf(out, "multicast:        %u group%s, %u with members (%" PRIu64
		" member%s): %" PRIu64 " member pair%s, %" PRIu64
		" not delivered, %u forwarding in a loop\n",
		m->groups, m->groups == 1 ? "" : "s", m->trees, m->members,
		m->members == 1 ? "" : "s", m->pairs,
		m->pairs == 1 ? "" : "s", m->missed, m->looping);
	fprintf(out, "  credit loops:   %u with multicast (%" PRIu64
		" dependencies added), %u without\n", m->credit_loops,
		m->dependencies, c->credit_loops);
	for (i = 0; i < rep->n_mc_examples; i++)
		fprintf(out, "    %s\n", rep->mc_examples[i]);
	if (m->credit_loops != c->credit_loops ||
	    m->credit_loop_channels != c->credit_loop_channels)
		print_cycles(out, "credit loop with multicast", rep->mc_cycles,
			     rep->n_mc_cycles, m->credit_loops);
}

static void print_text(FILE *out, const struct ot_check_report *rep)
{
	const struct ot_check_counts *c = &rep->c;
	unsigned int i;

	fprintf(out, "pairs checked:    %" PRIu64 "\n", c->pairs);
	fprintf(out, "reached:          %" PRIu64 "\n", c->reached);
	fprintf(out, "unreachable:      %" PRIu64 "\n", c->unreachable);
	fprintf(out, "forwarding loops: %" PRIu64 "\n", c->looping);
	fprintf(out, "minimal paths:    %" PRIu64 " (%.1f%% of reached)\n",
		c->minimal, percent(c->minimal, c->reached));
	fprintf(out, "extra hops:      ");
	for (i = 0; i <= OT_CHECK_MAX_HOPS; i++)
		if (c->extra_hops[i])
			fprintf(out, " +%u%s: %" PRIu64, i,
				i == OT_CHECK_MAX_HOPS ? " or more" : "",
				c->extra_hops[i]);
	fprintf(out, "%s\n", c->reached ? "" : " -");
	fprintf(out, "hops:             average %.2f, max %u\n",
		average_hops(c), c->max_hops);
	fprintf(out, "VLs used:         ");
	print_vls(out, c->vls_used, ", ");
	fprintf(out, "%s\n", c->vls_used ? "" : "-");
	fprintf(out, "SLs used:         ");
	print_vls(out, c->sls_used, ", ");
	fprintf(out, "%s\n", c->sls_used ? "" : "-");
	fprintf(out, "credit loops:     %u", c->credit_loops);
	if (c->credit_loops)
		fprintf(out, " over %" PRIu64 " channels",
			c->credit_loop_channels);
	fprintf(out, " (%" PRIu64 " channels, %" PRIu64 " dependencies)\n",
		c->channels, c->dependencies);
	if (c->sl_sampled || c->sl_confirmed)
		fprintf(out,
			"  on samples:     %" PRIu64 " pairs checked on a sampled path SL (VLs and SLs used, channels, dependencies%s rest on them); %" PRIu64 " pairs on credit loops asked for their real SL%s\n",
			c->sl_sampled,
			c->credit_loops ? "" : " and \"no credit loop\"",
			c->sl_confirmed,
			c->credit_loops ? ": every loop above holds on real SLs" : "");
	fprintf(out, "promise:          %s\n",
		rep->promise ? rep->promise : "none checked");
	if (rep->promise_rule)
		fprintf(out, "  and its rule:   %s\n", rep->promise_rule);
	fprintf(out, "path violations:  %" PRIu64, c->violations);
	if (c->violations)
		fprintf(out, " (not minimal %" PRIu64 ", too long %" PRIu64
			", VL %" PRIu64 ", SL %" PRIu64 ", rule %" PRIu64 ")",
			c->not_minimal, c->too_long, c->bad_vl, c->bad_sl,
			c->rule_broken);
	fputc('\n', out);

	print_examples(out, "unreachable", c->unreachable, &rep->unreachable);
	print_examples(out, "forwarding loops", c->looping, &rep->looping);
	print_cycles(out, "credit loop", rep->cycles, rep->ncycles,
		     c->credit_loops);
	print_examples(out, "path violations", c->violations,
		       &rep->violations);
	print_mcast(out, rep);
	if (rep->balance)
		ot_balance_print_text(out, rep->balance);
	fprintf(out, "%s\n", ot_check_ok(rep) ? "OK" : "FAILED");
}

static json_t *example_json(const struct example *e)
{
	json_t *o = json_object(), *cycle;
	unsigned int j;

	ot_json_set(o, "src", ot_json_str(e->src));
	ot_json_set(o, "src_port", json_integer(e->src_port));
	ot_json_set(o, "slid", json_integer(e->slid));
	ot_json_set(o, "dst", ot_json_str(e->dst));
	ot_json_set(o, "dst_port", json_integer(e->dst_port));
	ot_json_set(o, "dlid", json_integer(e->dlid));
	ot_json_set(o, "reason", ot_json_str(e->reason));
	if (e->at) {
		ot_json_set(o, "at", ot_json_str(e->at));
		ot_json_set(o, "at_port", json_integer(e->at_port));
	}
	if (e->cycle_len) {
		cycle = json_array();
		for (j = 0; j < e->cycle_len; j++)
			json_array_append_new(cycle, ot_json_str(e->cycle[j]));
		ot_json_set(o, "cycle", cycle);
	}
	return o;
}

static void examples_json(json_t *obj, const char *key,
			  const struct example_list *l)
{
	json_t *a = json_array();
	unsigned int i;

	for (i = 0; i < l->n; i++)
		json_array_append_new(a, example_json(&l->ex[i]));
	ot_json_set(obj, key, a);
}

/* A histogram, up to its last non-zero bucket. */
static json_t *histogram_json(const uint64_t *h)
{
	json_t *a = json_array();
	unsigned int i, last = 0;

	for (i = 0; i <= OT_CHECK_MAX_HOPS; i++)
		if (h[i])
			last = i + 1;
	for (i = 0; i < last; i++)
		json_array_append_new(a, ot_json_u64(h[i]));
	return a;
}

static json_t *vls_json(uint16_t vls)
{
	json_t *a = json_array();
	unsigned int vl;

	for (vl = 0; vl < NUM_VLS; vl++)
		if (vls & (1u << vl))
			json_array_append_new(a, json_integer(vl));
	return a;
}

static json_t *credit_loops_json(const struct credit_cycle *cycles,
				 unsigned int n)
{
	json_t *loops = json_array();
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		json_t *cycle = json_array();

		for (j = 0; j < cycles[i].len; j++) {
			const struct channel *ch = &cycles[i].ch[j];
			json_t *o = json_object();

			ot_json_set(o, "from", ot_json_str(ch->from));
			ot_json_set(o, "from_port", json_integer(ch->from_port));
			ot_json_set(o, "to", ot_json_str(ch->to));
			ot_json_set(o, "to_port", json_integer(ch->to_port));
			ot_json_set(o, "vl", json_integer(ch->vl));
			json_array_append_new(cycle, o);
		}
		json_array_append_new(loops, cycle);
	}
	return loops;
}

static json_t *mcast_json(const struct ot_check_report *rep)
{
	const struct ot_mcast_counts *m = &rep->c.mcast;
	json_t *o = json_object(), *ex = json_array();
	unsigned int i;

	ot_json_set(o, "groups", json_integer(m->groups));
	ot_json_set(o, "groups_with_members", json_integer(m->trees));
	ot_json_set(o, "members", ot_json_u64(m->members));
	ot_json_set(o, "member_pairs", ot_json_u64(m->pairs));
	ot_json_set(o, "not_delivered", ot_json_u64(m->missed));
	ot_json_set(o, "looping_groups", json_integer(m->looping));
	ot_json_set(o, "dependencies_added", ot_json_u64(m->dependencies));
	ot_json_set(o, "credit_loops", json_integer(m->credit_loops));
	ot_json_set(o, "credit_loop_channels",
		    ot_json_u64(m->credit_loop_channels));
	ot_json_set(o, "credit_loop_examples",
		    credit_loops_json(rep->mc_cycles, rep->n_mc_cycles));
	for (i = 0; i < rep->n_mc_examples; i++)
		json_array_append_new(ex, ot_json_str(rep->mc_examples[i]));
	ot_json_set(o, "examples", ex);
	return o;
}

/* Pairs, paths and channels: everything up to the promise. */
static void counts_json(json_t *o, const struct ot_check_report *rep)
{
	const struct ot_check_counts *c = &rep->c;

	ot_json_set(o, "ok", json_boolean(ot_check_ok(rep)));
	ot_json_set(o, "pairs", ot_json_u64(c->pairs));
	ot_json_set(o, "reached", ot_json_u64(c->reached));
	ot_json_set(o, "unreachable", ot_json_u64(c->unreachable));
	ot_json_set(o, "forwarding_loops", ot_json_u64(c->looping));
	ot_json_set(o, "minimal", ot_json_u64(c->minimal));
	ot_json_set(o, "minimal_percent",
		    ot_json_fixed(percent(c->minimal, c->reached), 2));
	ot_json_set(o, "extra_hops", histogram_json(c->extra_hops));
	ot_json_set(o, "hops", histogram_json(c->hops));
	ot_json_set(o, "avg_hops", ot_json_fixed(average_hops(c), 3));
	ot_json_set(o, "max_hops", json_integer(c->max_hops));
	ot_json_set(o, "vls_used", vls_json(c->vls_used));
	ot_json_set(o, "sls_used", vls_json(c->sls_used));
	ot_json_set(o, "channels", ot_json_u64(c->channels));
	ot_json_set(o, "dependencies", ot_json_u64(c->dependencies));
	ot_json_set(o, "credit_loops", json_integer(c->credit_loops));
	ot_json_set(o, "credit_loop_channels",
		    ot_json_u64(c->credit_loop_channels));
	ot_json_set(o, "credit_loop_examples",
		    credit_loops_json(rep->cycles, rep->ncycles));
	/*
	 * Which figures rest on sampled path SLs: with pairs on sampled
	 * SLs, the credit loops are confirmed on real SLs; the SL-dependent
	 * figures are not.
	 */
	ot_json_set(o, "sl_sampled_pairs", ot_json_u64(c->sl_sampled));
	ot_json_set(o, "sl_confirmed_pairs", ot_json_u64(c->sl_confirmed));
	if (c->sl_sampled) {
		json_t *on = json_array();

		json_array_append_new(on, json_string("vls_used"));
		json_array_append_new(on, json_string("sls_used"));
		json_array_append_new(on, json_string("channels"));
		json_array_append_new(on, json_string("dependencies"));
		json_array_append_new(on, json_string("credit_loops_absent"));
		ot_json_set(o, "figures_on_samples", on);
	}
}

json_t *ck_report_json(const struct ot_check_report *rep)
{
	const struct ot_check_counts *c = &rep->c;
	json_t *o = json_object(), *kinds = json_object();

	if (!o || !kinds) {
		json_decref(o);
		json_decref(kinds);
		return NULL;
	}
	counts_json(o, rep);
	ot_json_set(o, "promise", ot_json_str(rep->promise));
	ot_json_set(o, "violations", ot_json_u64(c->violations));
	ot_json_set(kinds, "not_minimal", ot_json_u64(c->not_minimal));
	ot_json_set(kinds, "too_long", ot_json_u64(c->too_long));
	ot_json_set(kinds, "vl", ot_json_u64(c->bad_vl));
	ot_json_set(kinds, "sl", ot_json_u64(c->bad_sl));
	ot_json_set(kinds, "rule", ot_json_u64(c->rule_broken));
	ot_json_set(o, "violation_kinds", kinds);
	examples_json(o, "unreachable_examples", &rep->unreachable);
	examples_json(o, "loop_examples", &rep->looping);
	examples_json(o, "violation_examples", &rep->violations);
	if (c->mcast_checked)
		ot_json_set(o, "multicast", mcast_json(rep));
	if (rep->balance && ot_balance_json_add(o, rep->balance)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static int print_json(FILE *out, const struct ot_check_report *rep)
{
	json_t *o = ck_report_json(rep);

	return o ? ot_json_print(out, o) : -1;
}

int ot_check_print(FILE *out, const struct ot_check_report *rep, bool json)
{
	if (json)
		return print_json(out, rep) || ferror(out) ? -1 : 0;
	print_text(out, rep);
	return ferror(out) ? -1 : 0;
}
