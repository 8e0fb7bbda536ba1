// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * `osmtopo qos CLASSFILE`: what a class table gives on a port, before an
 * administrator hands it to OpenSM.  It runs the DTable methodology
 * (route/qos) for the entries the port holds and prints, per class, the
 * entries and weights, the share it can be assigned at least and at most,
 * the share it gets before and after the bandwidth correction, and the
 * most bytes other classes send between two of its turns; then the
 * arbitration table itself.  --sbt prints the one-entry-a-class baseline
 * instead.  Text, or JSON (jansson) with --json.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "options.h"
#include "traffic/arbiter.h"
#include "route/qos/qos.h"

struct qos_args {
	unsigned int cap[2], ncap, vls;
	bool json, sbt;
};

#define ARGS struct qos_args
static const struct tool_option qos_options[] = {
	{ "port-cap", 'c', "H,L",
	  "the port's VLArbHighCap,VLArbLowCap (default 8,8, as ibsim's; InfiniBand allows 64, the methodology 256)",
	  TOOL_LIST(ARGS, cap, ncap, 2, 0, OT_QOS_MAX_ENTRIES) },
	{ "vls", 'v', "V",
	  "also the port's InfiniBand low table for an engine of V VLs: class c on VLs cV..cV+V-1",
	  TOOL_UINT(ARGS, vls, 1, 15) },
	{ "sbt", 's', NULL,
	  "the SBT baseline (one entry a class) instead of DTable",
	  TOOL_SET(ARGS, sbt) },
	{ "json", 'j', NULL, "print JSON instead of text",
	  TOOL_SET(ARGS, json) },
	TOOL_OPTION_HELP,
};
#undef ARGS

static void qos_usage(FILE *out, const struct tool_command *c)
{
	fprintf(out,
		"usage: osmtopo qos [OPTIONS] CLASSFILE\n\n"
		"The VL arbitration a class table yields on one port (DTable\n"
		"methodology with bandwidth correction; see doc/qos.md).\n"
		"CLASSFILE holds one statement a line:\n"
		"  arbiter [entries N] [gmtu BYTES] [w W] [k K]\n"
		"  class NAME sl SL share F (distance D | latency R) [mtu BYTES]\n"
		"Entries default to the port's low capacity; weights count\n"
		"64-byte units.\n\noptions:\n");
	tool_print_options(out, c);
	fprintf(out,
		"\nexamples:\n"
		"  osmtopo qos /etc/opensm/osmtopo-qos.conf\n"
		"  osmtopo qos --port-cap 8,16 --json classes.conf\n"
		"  osmtopo qos --vls 2 classes.conf   # with ff-twisted-dor\n"
		"\nexit status: 0 tables computed, 1 the table refused,\n"
		"2 usage or I/O error.\n");
}

TOOL_COMMAND(qos_command, "qos", qos_options, qos_usage);

static void print_text(const struct ot_qos_table *t,
		       const struct ot_qos_arb *a, bool sbt)
{
	unsigned int ci, j;

	printf("%s: %u entries, GMTU %u bytes, M %u units, pool %u units\n",
	       sbt ? "SBT" : "DTable", a->n, t->gmtu, a->max_weight, a->pool);
	printf("%-10s %2s %4s %3s %5s %7s %7s %7s %5s %7s %6s %7s %9s\n",
	       "class", "sl", "dist", "n", "mtu", "min%", "max%", "want%",
	       "E.W.", "real%", "Dw", "final%", "worst B");
	for (ci = 0; ci < t->nclasses; ci++) {
		const struct ot_qos_class_result *r = &a->c[ci];

		printf("%-10s %2u %4u %3u %5u %7.3f %7.3f %7.3f %5u %7.3f %6d %7.3f %9u\n",
		       t->cls[ci].name, t->cls[ci].sl, r->distance, r->n,
		       r->mtu_units * OT_QOS_UNIT, 100 * r->min_share,
		       100 * r->max_share, 100 * t->cls[ci].share,
		       r->entry_weight, 100 * r->share_before, r->dweight,
		       100 * r->share_after, r->worst_bytes);
		if (r->unapplied)
			printf("  %s: %d units of the correction could not be placed (MTU or 255 limit)\n",
			       t->cls[ci].name, r->unapplied);
	}
	printf("total weight %u before, %u after correction\nentries:",
	       a->total_before, a->total_after);
	for (j = 0; j < a->n; j++)
		if (a->entry[j].who < 0)
			printf("%s%u:-", j % 8 ? " " : "\n  ", j);
		else
			printf("%s%u:%s/%u", j % 8 ? " " : "\n  ", j,
			       t->cls[a->entry[j].who].name, a->entry[j].weight);
	printf("\n");
}

/*
 * The InfiniBand low table for --vls: n entries, 0 when not asked; and
 * what the arbiter model gives each class on saturated queues of its MTU
 * (traffic/arbiter.h): share of the link, most bytes between two of
 * its packets.
 */
struct ib_table {
	struct ot_qos_entry e[OT_QOS_MAX_ENTRIES];
	unsigned int n, nclasses;
	double share[OT_QOS_MAX_CLASSES];
	uint64_t worst[OT_QOS_MAX_CLASSES];
};

static int ib_model(const struct ot_qos_table *t, unsigned int vls,
		    struct ib_table *ib)
{
	unsigned int mtu[OT_ARB_VLS] = { 0 }, j, c;
	struct ot_vlarb_port p = { .read = true, .op_vls = 15 };
	struct ot_arb_trace tr;
	uint16_t mask;

	p.low_cap = (uint8_t)(ib->n < OT_VLARB_MAX ? ib->n : OT_VLARB_MAX);
	for (j = 0; j < p.low_cap; j++) {
		p.low[j].vl = (uint8_t)ib->e[j].who;
		p.low[j].weight = (uint8_t)ib->e[j].weight;
	}
	for (j = 0; j < t->nclasses * vls && j < OT_ARB_VLS; j++)
		mtu[j] = (t->cls[j / vls].mtu ? t->cls[j / vls].mtu :
						t->gmtu) / OT_QOS_UNIT;
	if (ot_arb_simulate(&p, mtu, 4, &tr))
		return -1;
	ib->nclasses = t->nclasses;
	for (c = 0; c < t->nclasses; c++) {
		mask = (uint16_t)(((1u << vls) - 1) << (c * vls));
		ib->share[c] = tr.total ? (double)ot_arb_served(&tr, mask) /
						  tr.total : 0;
		ib->worst[c] = ot_arb_worst_gap(&tr, mask);
		if (ib->worst[c] != OT_ARB_NEVER)
			ib->worst[c] *= OT_QOS_UNIT;
	}
	ot_arb_trace_free(&tr);
	return 0;
}

static void print_ib_text(const struct ot_qos_table *t,
			  const struct ib_table *ib)
{
	unsigned int j;

	if (!ib->n)
		return;
	printf("InfiniBand low table (VL/weight; high table empty):");
	for (j = 0; j < ib->n; j++)
		printf("%s%u/%u", j % 8 ? " " : "\n  ", ib->e[j].who,
		       ib->e[j].weight);
	printf("\nits arbiter on saturated queues of each class's MTU (share, most bytes between two packets):\n");
	for (j = 0; j < ib->nclasses; j++)
		printf("  %-10s %7.3f%% %8llu B\n", t->cls[j].name,
		       100 * ib->share[j], (unsigned long long)ib->worst[j]);
}

static json_t *ib_json(const struct ib_table *ib)
{
	json_t *a = json_array();
	unsigned int j;

	for (j = 0; j < ib->n; j++)
		json_array_append_new(a, json_pack("{s:i, s:i}", "vl",
						   ib->e[j].who, "weight",
						   ib->e[j].weight));
	return a;
}

static json_t *model_json(const struct ot_qos_table *t,
			  const struct ib_table *ib)
{
	json_t *a = json_array();
	unsigned int c;

	for (c = 0; c < ib->nclasses; c++)
		json_array_append_new(a, json_pack("{s:s, s:f, s:o}", "class",
			t->cls[c].name, "share", ib->share[c],
			"worst_bytes", ib->worst[c] == OT_ARB_NEVER ?
				json_null() : json_integer((json_int_t)ib->worst[c])));
	return a;
}

static json_t *class_json(const struct ot_qos_class *k,
			  const struct ot_qos_class_result *r)
{
	return json_pack("{s:s, s:i, s:i, s:i, s:i, s:f, s:f, s:f, s:i, s:f, s:i, s:i, s:f, s:i}",
			 "name", k->name, "sl", k->sl, "distance", r->distance,
			 "entries", r->n, "mtu", r->mtu_units * OT_QOS_UNIT,
			 "min_share", r->min_share, "max_share", r->max_share,
			 "share", k->share, "entry_weight", r->entry_weight,
			 "share_before", r->share_before, "dweight", r->dweight,
			 "unapplied", r->unapplied, "share_after",
			 r->share_after, "worst_bytes", r->worst_bytes);
}

static int print_json(const struct ot_qos_table *t,
		      const struct ot_qos_arb *a, bool sbt,
		      const struct ib_table *ib)
{
	json_t *root, *classes = json_array(), *entries = json_array();
	unsigned int ci, j;
	int rc;

	for (ci = 0; ci < t->nclasses; ci++)
		json_array_append_new(classes, class_json(&t->cls[ci], &a->c[ci]));
	for (j = 0; j < a->n; j++)
		json_array_append_new(entries, a->entry[j].who < 0 ?
			json_pack("{s:n, s:i}", "class", "weight", 0) :
			json_pack("{s:s, s:i}", "class",
				  t->cls[a->entry[j].who].name, "weight",
				  a->entry[j].weight));
	root = json_pack("{s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:o, s:o}",
			 "method", sbt ? "sbt" : "dtable", "entries", a->n,
			 "gmtu", t->gmtu, "max_weight", a->max_weight, "pool",
			 a->pool, "total_before", a->total_before,
			 "total_after", a->total_after, "classes", classes,
			 "table", entries);
	if (!root)
		return -1;
	if (ib->n) {
		json_object_set_new(root, "vlarb_low", ib_json(ib));
		json_object_set_new(root, "vlarb_model", model_json(t, ib));
	}
	rc = json_dumpf(root, stdout, JSON_INDENT(2));
	printf("\n");
	json_decref(root);
	return rc;
}

int cmd_qos(int argc, char **argv)
{
	struct qos_args a = { .cap = { 8, 8 }, .ncap = 2 };
	struct ot_error err = { 0 };
	struct ot_qos_table t;
	struct ot_qos_arb arb;
	struct ib_table ib = { .n = 0 };
	int status, next, rc;

	status = tool_parse(&qos_command, argc, argv, &a, &next, NULL);
	if (status >= 0)
		return status;
	if (next + 1 != argc || a.ncap != 2) {
		fprintf(stderr, "osmtopo qos: %s (see --help)\n",
			a.ncap != 2 ? "--port-cap takes H,L" :
				      "expected one CLASSFILE");
		return OT_EXIT_USAGE;
	}
	if (ot_qos_load(argv[next], &t, &err)) {
		fprintf(stderr, "osmtopo qos: %s\n", err.msg);
		return OT_EXIT_FAIL;
	}
	if (a.sbt)
		rc = ot_qos_sbt(&t, &arb, &err);
	else
		rc = ot_qos_dtable(&t, a.cap[1], &arb, &err);
	if (!rc && arb.n > a.cap[1])
		rc = ot_refuse(&err, OT_ERR_CONFIG,
			       "%u entries do not fit the port's low table of %u",
			       arb.n, a.cap[1]);
	if (!rc && a.vls && !a.sbt) {
		struct ot_qos_layers q = { .classes = t.nclasses, .sls = 1,
					   .vls = a.vls };

		rc = ot_qos_ib_vlarb(&t, &q, a.cap[1], ib.e, &ib.n, &err);
		if (!rc && ib_model(&t, a.vls, &ib))
			rc = ot_error_nomem(&err, "qos");
	}
	if (rc) {
		fprintf(stderr, "osmtopo qos: %s: %s\n", argv[next], err.msg);
		return OT_EXIT_FAIL;
	}
	if (a.json) {
		rc = print_json(&t, &arb, a.sbt, &ib);
	} else {
		print_text(&t, &arb, a.sbt);
		print_ib_text(&t, &ib);
	}
	if (rc || fflush(stdout)) {
		fprintf(stderr, "osmtopo qos: cannot write the output\n");
		return OT_EXIT_USAGE;
	}
	return OT_EXIT_OK;
}
