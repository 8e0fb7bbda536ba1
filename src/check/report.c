// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The checker's report: freeing it, and printing it as text or JSON.
 */
#include <inttypes.h>
#include <stdio.h>

#include "check/checker.h"

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

static void channel_free(struct channel *ch)
{
	free(ch->from);
	free(ch->to);
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
	for (i = 0; i < rep->ncycles; i++) {
		for (j = 0; j < rep->cycles[i].len; j++)
			channel_free(&rep->cycles[i].ch[j]);
		free(rep->cycles[i].ch);
	}
	free(rep->cycles);
	free(rep->promise);
	free(rep->promise_rule);
	ot_balance_report_free(rep->balance);
	free(rep);
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

static void print_text(FILE *out, const struct ot_check_report *rep)
{
	const struct ot_check_counts *c = &rep->c;
	unsigned int i, j;

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
	fprintf(out, "credit loops:     %u", c->credit_loops);
	if (c->credit_loops)
		fprintf(out, " over %" PRIu64 " channels",
			c->credit_loop_channels);
	fprintf(out, " (%" PRIu64 " channels, %" PRIu64 " dependencies)\n",
		c->channels, c->dependencies);
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
	for (i = 0; i < rep->ncycles; i++) {
		const struct credit_cycle *cyc = &rep->cycles[i];

		fprintf(out, "credit loop %u of %u (%u channels):\n", i + 1,
			c->credit_loops, cyc->len);
		for (j = 0; j < cyc->len; j++)
			fprintf(out, "    \"%s\" port %u -> \"%s\" port %u, VL %u\n",
				cyc->ch[j].from, cyc->ch[j].from_port,
				cyc->ch[j].to, cyc->ch[j].to_port,
				cyc->ch[j].vl);
	}
	print_examples(out, "path violations", c->violations,
		       &rep->violations);
	if (rep->balance)
		ot_balance_print_text(out, rep->balance);
	fprintf(out, "%s\n", ot_check_ok(rep) ? "OK" : "FAILED");
}

static void json_key_str(FILE *out, const char *key, const char *val)
{
	fprintf(out, "\"%s\":", key);
	ot_json_string(out, val);
}

static void json_examples(FILE *out, const char *key,
			  const struct example_list *l)
{
	unsigned int i, j;

	fprintf(out, ",\"%s\":[", key);
	for (i = 0; i < l->n; i++) {
		const struct example *e = &l->ex[i];

		fprintf(out, "%s{", i ? "," : "");
		json_key_str(out, "src", e->src);
		fprintf(out, ",\"src_port\":%u,\"slid\":%u,", e->src_port,
			e->slid);
		json_key_str(out, "dst", e->dst);
		fprintf(out, ",\"dst_port\":%u,\"dlid\":%u,", e->dst_port,
			e->dlid);
		json_key_str(out, "reason", e->reason);
		if (e->at) {
			fputc(',', out);
			json_key_str(out, "at", e->at);
			fprintf(out, ",\"at_port\":%u", e->at_port);
		}
		if (e->cycle_len) {
			fprintf(out, ",\"cycle\":[");
			for (j = 0; j < e->cycle_len; j++) {
				if (j)
					fputc(',', out);
				ot_json_string(out, e->cycle[j]);
			}
			fputc(']', out);
		}
		fputc('}', out);
	}
	fputc(']', out);
}

static void print_json(FILE *out, const struct ot_check_report *rep)
{
	const struct ot_check_counts *c = &rep->c;
	unsigned int i, j, last = 0;

	fprintf(out, "{\"ok\":%s", ot_check_ok(rep) ? "true" : "false");
	fprintf(out, ",\"pairs\":%" PRIu64 ",\"reached\":%" PRIu64
		",\"unreachable\":%" PRIu64 ",\"forwarding_loops\":%" PRIu64,
		c->pairs, c->reached, c->unreachable, c->looping);
	fprintf(out, ",\"minimal\":%" PRIu64 ",\"minimal_percent\":%.2f",
		c->minimal, percent(c->minimal, c->reached));
	/* histograms end at their last non-zero bucket */
	for (i = 0; i <= OT_CHECK_MAX_HOPS; i++)
		if (c->extra_hops[i])
			last = i + 1;
	fprintf(out, ",\"extra_hops\":[");
	for (i = 0; i < last; i++)
		fprintf(out, "%s%" PRIu64, i ? "," : "", c->extra_hops[i]);
	for (i = 0, last = 0; i <= OT_CHECK_MAX_HOPS; i++)
		if (c->hops[i])
			last = i + 1;
	fprintf(out, "],\"hops\":[");
	for (i = 0; i < last; i++)
		fprintf(out, "%s%" PRIu64, i ? "," : "", c->hops[i]);
	fprintf(out, "],\"avg_hops\":%.3f,\"max_hops\":%u", average_hops(c),
		c->max_hops);
	fprintf(out, ",\"vls_used\":[");
	print_vls(out, c->vls_used, ",");
	fprintf(out, "],\"channels\":%" PRIu64 ",\"dependencies\":%" PRIu64,
		c->channels, c->dependencies);
	fprintf(out, ",\"credit_loops\":%u,\"credit_loop_channels\":%" PRIu64,
		c->credit_loops, c->credit_loop_channels);
	fprintf(out, ",\"credit_loop_examples\":[");
	for (i = 0; i < rep->ncycles; i++) {
		fprintf(out, "%s[", i ? "," : "");
		for (j = 0; j < rep->cycles[i].len; j++) {
			const struct channel *ch = &rep->cycles[i].ch[j];

			fprintf(out, "%s{", j ? "," : "");
			json_key_str(out, "from", ch->from);
			fprintf(out, ",\"from_port\":%u,", ch->from_port);
			json_key_str(out, "to", ch->to);
			fprintf(out, ",\"to_port\":%u,\"vl\":%u}", ch->to_port,
				ch->vl);
		}
		fputc(']', out);
	}
	fprintf(out, "],\"promise\":");
	if (rep->promise)
		ot_json_string(out, rep->promise);
	else
		fputs("null", out);
	fprintf(out, ",\"violations\":%" PRIu64, c->violations);
	fprintf(out, ",\"violation_kinds\":{\"not_minimal\":%" PRIu64
		",\"too_long\":%" PRIu64 ",\"vl\":%" PRIu64 ",\"sl\":%" PRIu64
		",\"rule\":%" PRIu64 "}", c->not_minimal, c->too_long,
		c->bad_vl, c->bad_sl, c->rule_broken);
	json_examples(out, "unreachable_examples", &rep->unreachable);
	json_examples(out, "loop_examples", &rep->looping);
	json_examples(out, "violation_examples", &rep->violations);
	if (rep->balance) {
		fputc(',', out);
		ot_balance_print_json(out, rep->balance);
	}
	fprintf(out, "}\n");
}

int ot_check_print(FILE *out, const struct ot_check_report *rep, bool json)
{
	if (json)
		print_json(out, rep);
	else
		print_text(out, rep);
	return ferror(out) ? -1 : 0;
}
