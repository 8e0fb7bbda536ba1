// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of the checker (src/check/check.c) on fabrics small enough to
 * count by hand: a line of two switches and a ring of four, with tables
 * set entry by entry.  They assert what an administrator reads in the
 * report: how many pairs arrive and how, which pair is broken and where,
 * which switches loop, which channels form a credit loop (also one made
 * by a wrong SL-to-VL table), and that balance figures join the report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "check/check.h"
#include "model/fabric.h"
#include "model/routing.h"
#include "unit.h"

/*
 * s0 - s1: s0 port 1 to s1 port 1; c0 and c1 on s0 ports 2 and 3, c2 on
 * s1 port 2.  Nodes 0..4 are s0, s1, c0, c1, c2; LIDs 1..5 in that order,
 * c2 with LMC lmc (so LIDs 5 .. 5 + 2^lmc - 1).
 */
static struct ot_fabric *line2(const char *c0_desc, unsigned int lmc)
{
	struct ot_error err;
	struct ot_fabric *f = ot_fabric_new();

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(ot_fabric_add_node(f, OT_NODE_SWITCH, 4, 0x100, "s0",
					    &err), 0);
	ck_assert_int_eq(ot_fabric_add_node(f, OT_NODE_SWITCH, 4, 0x101, "s1",
					    &err), 1);
	ck_assert_int_eq(ot_fabric_add_node(f, OT_NODE_CA, 1, 0x200, c0_desc,
					    &err), 2);
	ck_assert_int_eq(ot_fabric_add_node(f, OT_NODE_CA, 1, 0x201, "c1",
					    &err), 3);
	ck_assert_int_eq(ot_fabric_add_node(f, OT_NODE_CA, 1, 0x202, "c2",
					    &err), 4);
	ck_assert_int_eq(ot_fabric_link(f, 0, 1, 1, 1, &err), 0);
	ck_assert_int_eq(ot_fabric_link(f, 0, 2, 2, 1, &err), 0);
	ck_assert_int_eq(ot_fabric_link(f, 0, 3, 3, 1, &err), 0);
	ck_assert_int_eq(ot_fabric_link(f, 1, 2, 4, 1, &err), 0);
	ck_assert_int_eq(ot_fabric_set_lid(f, 0, 0, 1, 0, &err), 0);
	ck_assert_int_eq(ot_fabric_set_lid(f, 1, 0, 2, 0, &err), 0);
	ck_assert_int_eq(ot_fabric_set_lid(f, 2, 1, 3, 0, &err), 0);
	ck_assert_int_eq(ot_fabric_set_lid(f, 3, 1, 4, 0, &err), 0);
	ck_assert_int_eq(ot_fabric_set_lid(f, 4, 1, 5, lmc, &err), 0);
	ck_assert_int_eq(ot_fabric_index(f, &err), 0);
	ck_assert_int_eq(f->node[2].port[1].lid, 3);
	return f;
}

/* Shortest-path tables for line2: every CA LID, every LMC offset. */
static struct ot_routing *line2_routing(const struct ot_fabric *f)
{
	struct ot_routing *r = ot_routing_new(f);
	unsigned int lid;

	ck_assert_ptr_nonnull(r);
	r->lft[0][3] = 2;
	r->lft[0][4] = 3;
	r->lft[1][3] = 1;
	r->lft[1][4] = 1;
	for (lid = 5; lid <= f->max_lid; lid++) {
		r->lft[0][lid] = 1;
		r->lft[1][lid] = 2;
	}
	return r;
}

/*
 * Four switches in a ring: si port 2 to s(i+1) port 1, CA ci on si port
 * 3.  Nodes 0..3 are the switches (LIDs 1..4), 4..7 the CAs (LIDs 5..8).
 */
static struct ot_fabric *ring4(void)
{
	struct ot_error err;
	struct ot_fabric *f = ot_fabric_new();
	char name[8];
	int i;

	ck_assert_ptr_nonnull(f);
	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "s%d", i);
		ck_assert_int_eq(ot_fabric_add_node(f, OT_NODE_SWITCH, 4,
						    0x100 + i, name, &err), i);
	}
	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "c%d", i);
		ck_assert_int_eq(ot_fabric_add_node(f, OT_NODE_CA, 1,
						    0x200 + i, name, &err),
				 4 + i);
	}
	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(ot_fabric_link(f, i, 2, (i + 1) % 4, 1, &err),
				 0);
		ck_assert_int_eq(ot_fabric_link(f, i, 3, 4 + i, 1, &err), 0);
	}
	ot_fabric_assign_lids(f);
	ck_assert_int_eq(ot_fabric_index(f, &err), 0);
	ck_assert_int_eq(f->node[4].port[1].lid, 5);
	return f;
}

static unsigned int ring_lid(unsigned int ca)
{
	return 5 + ca;
}

/* Every packet goes clockwise (port 2) until it reaches its CA. */
static struct ot_routing *ring_clockwise(const struct ot_fabric *f)
{
	struct ot_routing *r = ot_routing_new(f);
	unsigned int s, c;

	ck_assert_ptr_nonnull(r);
	for (s = 0; s < 4; s++)
		for (c = 0; c < 4; c++)
			r->lft[s][ring_lid(c)] = s == c ? 3 : 2;
	return r;
}

static struct ot_check_report *run(const struct ot_fabric *f,
				   const struct ot_routing *r,
				   const struct ot_check_opts *opts)
{
	struct ot_check_report *rep = NULL;
	struct ot_error err = { 0 };

	ck_assert_int_eq(ot_check_run(f, r, opts, &rep, &err), 0);
	ck_assert_ptr_nonnull(rep);
	return rep;
}

/* The report as text (or JSON); the caller frees it. */
static char *printed(const struct ot_check_report *rep, bool json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(ot_check_print(out, rep, json), 0);
	fclose(out);
	return buf;
}

START_TEST(clean_line_passes_with_exact_counts)
{
	struct ot_fabric *f = line2("c0", 0);
	struct ot_routing *r = line2_routing(f);
	struct ot_check_report *rep = run(f, r, NULL);
	const struct ot_check_counts *c = ot_check_counts(rep);
	char *text = printed(rep, false);

	ck_assert(ot_check_ok(rep));
	/* 3 CAs, each sending to the 2 others */
	ck_assert_uint_eq(c->pairs, 6);
	ck_assert_uint_eq(c->reached, 6);
	ck_assert_uint_eq(c->minimal, 6);
	ck_assert_uint_eq(c->unreachable, 0);
	ck_assert_uint_eq(c->looping, 0);
	/* c0 <-> c1 through s0 only: 2 links; the 4 others: 3 links */
	ck_assert_uint_eq(c->hops[2], 2);
	ck_assert_uint_eq(c->hops[3], 4);
	ck_assert_uint_eq(c->total_hops, 16);
	ck_assert_uint_eq(c->max_hops, 3);
	ck_assert_uint_eq(c->extra_hops[0], 6);
	ck_assert_uint_eq(c->vls_used, 1);
	ck_assert_uint_eq(c->sls_used, 1); /* no path SLs: SL 0 */
	ck_assert_uint_eq(c->credit_loops, 0);
	/* s0 -> s1 and s1 -> s0 carry traffic, but nothing goes on from them */
	ck_assert_uint_eq(c->channels, 2);
	ck_assert_uint_eq(c->dependencies, 0);
	ck_assert_ptr_nonnull(strstr(text, "pairs checked:    6\n"));
	ck_assert_ptr_nonnull(strstr(text, "average 2.67, max 3"));
	ck_assert_ptr_nonnull(strstr(text, "\nOK\n"));
	free(text);
	ot_check_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

START_TEST(missing_entry_names_the_pair_and_switch)
{
	struct ot_fabric *f = line2("c0", 0);
	struct ot_routing *r = line2_routing(f);
	struct ot_check_report *rep;
	const struct ot_check_counts *c;
	char *text;

	r->lft[1][3] = OT_NO_PORT; /* s1 does not know c0 */
	rep = run(f, r, NULL);
	c = ot_check_counts(rep);
	text = printed(rep, false);
	ck_assert(!ot_check_ok(rep));
	ck_assert_uint_eq(c->pairs, 6);
	ck_assert_uint_eq(c->unreachable, 1);
	ck_assert_uint_eq(c->reached, 5);
	ck_assert_ptr_nonnull(strstr(text,
		"unreachable (1 pairs):\n"
		"    \"c2\" port 1 (LID 5) -> \"c0\" port 1 (LID 3): "
		"no LFT entry at \"s1\" port 255\n"));
	ck_assert_ptr_nonnull(strstr(text, "\nFAILED\n"));
	free(text);
	ot_check_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

START_TEST(each_lmc_lid_is_a_pair_of_its_own)
{
	struct ot_fabric *f = line2("c0", 1);
	struct ot_routing *r = line2_routing(f);
	struct ot_check_report *rep;
	const struct ot_check_counts *c;
	char *text;

	ck_assert_uint_eq(f->max_lid, 6);
	r->lft[0][6] = 3; /* c2's second LID sent to c1 instead */
	rep = run(f, r, NULL);
	c = ot_check_counts(rep);
	text = printed(rep, false);
	/* destinations: 1 + 1 + 2 LIDs, 2 sources each */
	ck_assert_uint_eq(c->pairs, 8);
	ck_assert_uint_eq(c->unreachable, 2);
	ck_assert_ptr_nonnull(strstr(text,
		"    \"c0\" port 1 (LID 3) -> \"c2\" port 1 (LID 6): "
		"port 3 leads to Ca \"c1\", not the destination at \"s0\" port 3\n"));
	ck_assert_ptr_nonnull(strstr(text,
		"    \"c1\" port 1 (LID 4) -> \"c2\" port 1 (LID 6): "));
	free(text);
	ot_check_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

START_TEST(forwarding_loop_lists_its_switches)
{
	struct ot_fabric *f = line2("c0", 0);
	struct ot_routing *r = line2_routing(f);
	struct ot_check_report *rep;
	const struct ot_check_counts *c;
	char *text;

	r->lft[0][3] = 1; /* s0 sends c0's packets back to s1 */
	rep = run(f, r, NULL);
	c = ot_check_counts(rep);
	text = printed(rep, false);
	ck_assert(!ot_check_ok(rep));
	/* c1 and c2 toward c0 */
	ck_assert_uint_eq(c->looping, 2);
	ck_assert_uint_eq(c->unreachable, 0);
	ck_assert_uint_eq(c->reached, 4);
	ck_assert_ptr_nonnull(strstr(text,
		"    \"c1\" port 1 (LID 4) -> \"c0\" port 1 (LID 3): "
		"forwarding loop \"s0\" -> \"s1\" -> \"s0\"\n"));
	ck_assert_ptr_nonnull(strstr(text,
		"    \"c2\" port 1 (LID 5) -> \"c0\" port 1 (LID 3): "
		"forwarding loop \"s0\" -> \"s1\" -> \"s0\"\n"));
	/* a loop delivers nothing, so it adds no credit dependency */
	ck_assert_uint_eq(c->credit_loops, 0);
	free(text);
	ot_check_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

START_TEST(clockwise_ring_on_one_vl_has_a_credit_loop)
{
	struct ot_fabric *f = ring4();
	struct ot_routing *r = ring_clockwise(f);
	struct ot_check_report *rep = run(f, r, NULL);
	const struct ot_check_counts *c = ot_check_counts(rep);
	char *text = printed(rep, false);
	const char *loop;
	int i;

	ck_assert(!ot_check_ok(rep));
	ck_assert_uint_eq(c->pairs, 12);
	ck_assert_uint_eq(c->reached, 12);
	ck_assert_uint_eq(c->credit_loops, 1);
	ck_assert_uint_eq(c->credit_loop_channels, 4);
	ck_assert_uint_eq(c->channels, 4);
	ck_assert_uint_eq(c->dependencies, 4);
	loop = strstr(text, "credit loop 1 of 1 (4 channels):\n");
	ck_assert_ptr_nonnull(loop);
	for (i = 0; i < 4; i++) {
		char line[64];

		snprintf(line, sizeof(line),
			 "    \"s%d\" port 2 -> \"s%d\" port 1, VL 0\n", i,
			 (i + 1) % 4);
		ck_assert_ptr_nonnull(strstr(loop, line));
	}
	/* the listed cycle is exactly those four lines */
	ck_assert_ptr_nonnull(strstr(loop, " VL 0\nFAILED\n"));
	ck_assert_ptr_nonnull(strstr(text, "\nFAILED\n"));
	free(text);
	ot_check_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/* Ring index of the switch a CA LID hangs off. */
static int ring_switch_of(const struct ot_routing *r, uint16_t lid)
{
	int ca = ot_fabric_lid_node(r->fabric, lid);

	return r->fabric->node[ca].port[1].peer;
}

/* SL 1 for the paths that cross the dateline s3 -> s0. */
static uint8_t dateline_sl(const struct ot_routing *r, uint16_t slid,
			   uint16_t dlid)
{
	return ring_switch_of(r, slid) > ring_switch_of(r, dlid);
}

static void set_vl(struct ot_routing *r, int n, unsigned int in,
		   unsigned int out, unsigned int sl, uint8_t vl)
{
	r->sl2vl[n][ot_sl2vl_index(r->fabric->node[n].nports, in, out, sl)] =
		vl;
}

/*
 * Paths crossing the dateline (SL 1) move to VL 1 on the crossing hop and
 * stay there: at s3 toward s0, and at s0 and s1 when they come from the
 * ring (a packet of SL 1 that entered at s0 or s1 from its CA has not
 * crossed yet).
 */
static struct ot_routing *ring_dateline(const struct ot_fabric *f)
{
	struct ot_routing *r = ring_clockwise(f);
	int s;

	for (s = 0; s < 4; s++) {
		r->sl2vl[s] = calloc(5 * 5 * OT_NUM_SLS, 1);
		ck_assert_ptr_nonnull(r->sl2vl[s]);
	}
	set_vl(r, 3, 1, 2, 1, 1);
	set_vl(r, 3, 3, 2, 1, 1);
	set_vl(r, 0, 1, 2, 1, 1);
	set_vl(r, 1, 1, 2, 1, 1);
	r->nvls = 2;
	r->needs_qos = true;
	r->path_sl = dateline_sl;
	return r;
}

START_TEST(dateline_vl_change_breaks_the_credit_loop)
{
	struct ot_fabric *f = ring4();
	struct ot_routing *r = ring_dateline(f);
	struct ot_check_report *rep = run(f, r, NULL);
	const struct ot_check_counts *c = ot_check_counts(rep);
	char *text = printed(rep, false);

	ck_assert_uint_eq(c->credit_loops, 0);
	ck_assert(ot_check_ok(rep));
	ck_assert_uint_eq(c->pairs, 12);
	ck_assert_uint_eq(c->reached, 12);
	ck_assert_uint_eq(c->vls_used, 3);
	/* SL 1 from a higher switch to a lower one, SL 0 the other way */
	ck_assert_uint_eq(c->sls_used, 3);
	/* VL 0 on s0->s1, s1->s2, s2->s3; VL 1 on s3->s0, s0->s1, s1->s2 */
	ck_assert_uint_eq(c->channels, 6);
	ck_assert_ptr_nonnull(strstr(text, "VLs used:         0, 1\n"));
	ck_assert_ptr_nonnull(strstr(text, "SLs used:         0, 1\n"));
	ck_assert_ptr_nonnull(strstr(text, "credit loops:     0 "));
	free(text);
	ot_check_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * A cyclic VL assignment: the dateline tables with the move to VL 1 undone
 * at s3 and s0, so SL 1 stays on VL 0 across the dateline.  Then c0 -> c2
 * (SL 0) makes s0->s1 wait on s1->s2; c1 -> c0 (SL 1) s1->s2 on s2->s3
 * and s2->s3 on s3->s0; c2 -> c1 (SL 1) s3->s0 on s0->s1, all on VL 0:
 * the four clockwise channels of VL 0 form the cycle.  c3 -> c2 still
 * moves to VL 1 at s1, a channel outside the cycle.
 */
START_TEST(cyclic_vl_assignment_is_a_credit_loop)
{
	struct ot_fabric *f = ring4();
	struct ot_routing *r = ring_dateline(f);
	struct ot_check_report *rep;
	const struct ot_check_counts *c;
	const char *loop;
	char *text;
	int i;

	set_vl(r, 3, 1, 2, 1, 0);
	set_vl(r, 3, 3, 2, 1, 0);
	set_vl(r, 0, 1, 2, 1, 0);
	rep = run(f, r, NULL);
	c = ot_check_counts(rep);
	text = printed(rep, false);
	ck_assert(!ot_check_ok(rep));
	ck_assert_uint_eq(c->reached, 12);
	ck_assert_uint_eq(c->credit_loops, 1);
	ck_assert_uint_eq(c->credit_loop_channels, 4);
	ck_assert_uint_eq(c->vls_used, 3);
	loop = strstr(text, "credit loop 1 of 1 (4 channels):\n");
	ck_assert_ptr_nonnull(loop);
	for (i = 0; i < 4; i++) {
		char line[64];

		snprintf(line, sizeof(line),
			 "    \"s%d\" port 2 -> \"s%d\" port 1, VL 0\n", i,
			 (i + 1) % 4);
		ck_assert_ptr_nonnull(strstr(loop, line));
	}
	ck_assert_ptr_null(strstr(loop, "VL 1"));
	ck_assert_ptr_nonnull(strstr(loop, " VL 0\nFAILED\n"));
	free(text);
	ot_check_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

START_TEST(clockwise_ring_counts_extra_hops)
{
	struct ot_fabric *f = ring4();
	struct ot_routing *r = ring_dateline(f);
	struct ot_check_report *rep = run(f, r, NULL);
	const struct ot_check_counts *c = ot_check_counts(rep);

	/*
	 * Per source: 1, 2 and 3 switches clockwise (3, 4, 5 links); the
	 * 3-switch trip is 1 switch the other way round, so 2 extra.
	 */
	ck_assert_uint_eq(c->minimal, 8);
	ck_assert_uint_eq(c->extra_hops[0], 8);
	ck_assert_uint_eq(c->extra_hops[2], 4);
	ck_assert_uint_eq(c->hops[3], 4);
	ck_assert_uint_eq(c->hops[4], 4);
	ck_assert_uint_eq(c->hops[5], 4);
	ck_assert_uint_eq(c->total_hops, 48);
	ck_assert_uint_eq(c->max_hops, 5);
	ot_check_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

START_TEST(one_detour_is_one_non_minimal_pair)
{
	struct ot_fabric *f = ring4();
	struct ot_routing *r = ot_routing_new(f);
	struct ot_check_report *rep;
	const struct ot_check_counts *c;
	char *text;
	unsigned int s, d;

	/* shortest way round; the tie (2 away) clockwise */
	for (s = 0; s < 4; s++)
		for (d = 0; d < 4; d++) {
			unsigned int k = (d + 4 - s) % 4;

			r->lft[s][ring_lid(d)] = k == 0 ? 3 : k == 3 ? 1 : 2;
		}
	/* s1 sends c0's packets the long way: s1 s2 s3 s0 */
	r->lft[1][ring_lid(0)] = 2;
	rep = run(f, r, NULL);
	c = ot_check_counts(rep);
	text = printed(rep, false);
	ck_assert_uint_eq(c->pairs, 12);
	ck_assert_uint_eq(c->reached, 12);
	ck_assert_uint_eq(c->minimal, 11);
	ck_assert_uint_eq(c->extra_hops[0], 11);
	ck_assert_uint_eq(c->extra_hops[2], 1);
	ck_assert_uint_eq(c->hops[3], 7);
	ck_assert_uint_eq(c->hops[4], 4);
	ck_assert_uint_eq(c->hops[5], 1);
	ck_assert_uint_eq(c->total_hops, 42);
	ck_assert_uint_eq(c->max_hops, 5);
	ck_assert_ptr_nonnull(strstr(text, "extra hops:       +0: 11 +2: 1\n"));
	free(text);
	ot_check_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/* Refuses every path through s1 (node 1) and checks the lists it gets. */
struct path_probe {
	unsigned int calls;
	bool bad_list;
};

static int refuse_s1(const void *ctx, const struct ot_path *p,
		     struct ot_error *err)
{
	/* the probe is the test's own, not const: only the rule type is */
	struct path_probe *probe = (struct path_probe *)ctx;
	const int32_t *nodes = p->node;
	unsigned int i, len = p->len;
	bool via_s1 = false;

	probe->calls++;
	/* CA, switches, CA: c0 -> c2 is exactly 2 0 1 4, out of ports 1 1 2 */
	if (len < 3 || nodes[0] < 2 || nodes[len - 1] < 2)
		probe->bad_list = true;
	if (nodes[0] == 2 && nodes[len - 1] == 4 &&
	    (len != 4 || nodes[1] != 0 || nodes[2] != 1 || p->port[0] != 1 ||
	     p->port[1] != 1 || p->port[2] != 2 || p->slid != 3 ||
	     p->dlid != 5))
		probe->bad_list = true;
	for (i = 1; i + 1 < len; i++)
		if (nodes[i] == 1)
			via_s1 = true;
	if (via_s1)
		return ot_error_set(err, "passes s1");
	return 0;
}

START_TEST(promise_rule_violations_are_counted)
{
	struct ot_fabric *f = line2("c0", 0);
	struct ot_routing *r = line2_routing(f);
	struct path_probe probe = { 0, false };
	/* a promise stated alone: only the promiser's promise and nvls count */
	struct ot_routing promiser = {
		.nvls = 1,
		.promise = {
			.text = "no path through s1",
			.rule = refuse_s1,
			.ctx = &probe,
		},
	};
	struct ot_check_opts opts = {
		.promiser = &promiser,
		.max_examples = 2,
	};
	struct ot_check_report *rep = run(f, r, &opts);
	const struct ot_check_counts *c = ot_check_counts(rep);
	char *text = printed(rep, false);

	ck_assert_uint_eq(probe.calls, 6);
	ck_assert(!probe.bad_list);
	/* every pair but c0 <-> c1 */
	ck_assert_uint_eq(c->violations, 4);
	ck_assert_uint_eq(c->rule_broken, 4);
	ck_assert(!ot_check_ok(rep));
	ck_assert_ptr_nonnull(strstr(text,
		"promise:          no path through s1\n"));
	ck_assert_ptr_nonnull(strstr(text,
		"path violations (4 pairs, the first listed):\n"));
	ck_assert_ptr_nonnull(strstr(text,
		"    \"c2\" port 1 (LID 5) -> \"c0\" port 1 (LID 3): passes s1\n"));
	free(text);
	ot_check_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/* Path SLs from the destination LID: c0 gets SL 2, the rest SL 0. */
static uint8_t sl_to_c0(const struct ot_routing *r, uint16_t slid,
			uint16_t dlid)
{
	(void)r;
	(void)slid;
	return dlid == 5 ? 2 : 0;
}

/*
 * The parts of a promise other than the rule, each broken on purpose on
 * the ring, each counted under its own kind and only the first broken.
 */
START_TEST(promise_parts_are_checked)
{
	struct ot_fabric *f = ring4();
	struct ot_routing *r = ring_clockwise(f);
	/* nvls 0: no VL bound until it is set below */
	struct ot_routing promiser = { .promise = { .text = "test" } };
	struct ot_promise *promise = &promiser.promise;
	struct ot_check_opts opts = { .promiser = &promiser };
	const struct ot_check_counts *c;
	struct ot_check_report *rep;
	unsigned int in, out, sl, np = 4;

	/* clockwise paths are 3, 4, 5 links long: 3 pairs of each length */
	promise->minimal = OT_MINIMAL_ALL;
	rep = run(f, r, &opts);
	c = ot_check_counts(rep);
	/* shortest on a ring of 4: 3 links (neighbours, 2 directions) or 4 */
	ck_assert_uint_eq(c->not_minimal, 4);
	ck_assert_uint_eq(c->violations, 4);
	ot_check_report_free(rep);

	promise->minimal = OT_MINIMAL_NONE;
	promise->max_switch_hops = 2;
	rep = run(f, r, &opts);
	c = ot_check_counts(rep);
	ck_assert_uint_eq(c->too_long, 4); /* the 3-hop paths, 4 of them */
	ot_check_report_free(rep);

	/* s2 sends everything it forwards on VL 1 */
	promise->max_switch_hops = 0;
	promiser.nvls = 1;
	r->sl2vl[2] = calloc((np + 1) * (np + 1) * OT_NUM_SLS, 1);
	ck_assert_ptr_nonnull(r->sl2vl[2]);
	for (in = 0; in <= np; in++)
		for (out = 0; out <= np; out++)
			for (sl = 0; sl < OT_NUM_SLS; sl++)
				r->sl2vl[2][ot_sl2vl_index(np, in, out, sl)] =
					out == 2;
	rep = run(f, r, &opts);
	c = ot_check_counts(rep);
	/* every pair that leaves s2 on port 2: 3 + 2 + 1 of them */
	ck_assert_uint_eq(c->bad_vl, 6);
	ck_assert_uint_eq(c->violations, 6);
	ot_check_report_free(rep);

	promiser.nvls = 2;
	promise->sls = 1;
	r->path_sl = sl_to_c0;
	rep = run(f, r, &opts);
	c = ot_check_counts(rep);
	ck_assert_uint_eq(c->bad_vl, 0);
	ck_assert_uint_eq(c->bad_sl, 3); /* c1, c2, c3 to c0 */
	ot_check_report_free(rep);

	promise->sls = 0x5;
	rep = run(f, r, &opts);
	/* (the ring's credit loop stays: a promise is no cure for it) */
	ck_assert_uint_eq(ot_check_counts(rep)->violations, 0);
	ot_check_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

START_TEST(back_to_back_cas_reach_each_other)
{
	struct ot_error err;
	struct ot_fabric *f = ot_fabric_new();
	struct ot_routing *r;
	struct ot_check_report *rep;
	const struct ot_check_counts *c;

	ck_assert_int_eq(ot_fabric_add_node(f, OT_NODE_CA, 1, 1, "a", &err), 0);
	ck_assert_int_eq(ot_fabric_add_node(f, OT_NODE_CA, 2, 2, "b", &err), 1);
	ck_assert_int_eq(ot_fabric_link(f, 0, 1, 1, 1, &err), 0);
	ot_fabric_assign_lids(f);
	/* b port 2 has no cable; give it a LID anyway: it reaches nothing */
	ck_assert_int_eq(ot_fabric_set_lid(f, 1, 2, 9, 0, &err), 0);
	ck_assert_int_eq(ot_fabric_index(f, &err), 0);
	r = ot_routing_new(f);
	rep = run(f, r, NULL);
	c = ot_check_counts(rep);
	ck_assert_uint_eq(c->pairs, 6);
	ck_assert_uint_eq(c->reached, 2);
	ck_assert_uint_eq(c->minimal, 2);
	ck_assert_uint_eq(c->hops[1], 2);
	ck_assert_uint_eq(c->unreachable, 4);
	ot_check_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/* One well-formed JSON object, as jansson reads it (strictly). */
static bool json_valid(const char *text)
{
	json_t *v = json_loads(text, JSON_REJECT_DUPLICATES, NULL);
	bool ok = json_is_object(v);

	json_decref(v);
	return ok;
}

START_TEST(json_is_one_valid_object)
{
	/* a description with every character JSON must escape */
	struct ot_fabric *f = line2("c\"0\\\n\t\x01", 0);
	struct ot_routing *r = line2_routing(f);
	struct ot_check_report *rep;
	char *json;

	r->lft[0][3] = 1; /* a forwarding loop toward the odd name */
	r->lft[1][4] = OT_NO_PORT;
	rep = run(f, r, NULL);
	json = printed(rep, true);
	ck_assert_msg(json_valid(json), "invalid JSON: %s", json);
	ck_assert_ptr_nonnull(strstr(json, "\"ok\":false"));
	ck_assert_ptr_nonnull(strstr(json, "\"pairs\":6"));
	ck_assert_ptr_nonnull(strstr(json, "\"forwarding_loops\":2"));
	ck_assert_ptr_nonnull(strstr(json, "\"unreachable\":1"));
	ck_assert_ptr_nonnull(strstr(json, "\"c\\\"0\\\\\\n\\t\\u0001\""));
	ck_assert_ptr_nonnull(strstr(json, "\"cycle\":[\"s0\",\"s1\"]"));
	ck_assert(!json_valid("{\"a\":1,}"));
	ck_assert(!json_valid("{\"a\":\"\x01\"}"));
	free(json);
	ot_check_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);

	/* and with a credit loop */
	f = ring4();
	r = ring_clockwise(f);
	rep = run(f, r, NULL);
	json = printed(rep, true);
	ck_assert_msg(json_valid(json), "invalid JSON: %s", json);
	ck_assert_ptr_nonnull(strstr(json, "\"credit_loops\":1"));
	ck_assert_ptr_nonnull(strstr(json,
		"{\"from\":\"s0\",\"from_port\":2,\"to\":\"s1\",\"to_port\":1,\"vl\":0}"));
	ck_assert_ptr_nonnull(strstr(json, "\"extra_hops\":[8,0,4]"));
	free(json);
	ot_check_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * With balance figures asked for, the report carries them after the
 * checks, text and JSON, and the checks' own keys are unchanged.  The
 * clockwise ring: each CA sends 1/3 to each of 3 others; the flows 1, 2
 * and 3 switches ahead cross 1 + 2 + 3 ring links, 4 x 6 crossings of
 * 1/3 over 4 links: 2 per link, throughput 1/2.
 */
START_TEST(balance_figures_join_the_report)
{
	struct ot_fabric *f = ring4();
	struct ot_routing *r = ring_clockwise(f);
	struct ot_traffic_opts traffic = {
		.patterns = 1u << OT_PATTERN_UNIFORM |
			    1u << OT_PATTERN_NEIGHBOR,
	};
	struct ot_check_opts opts = { .balance = &traffic };
	struct ot_check_report *rep = run(f, r, &opts);
	const struct ot_balance_report *bal = ot_check_balance(rep);
	char *text = printed(rep, false), *json = printed(rep, true);

	ck_assert_ptr_nonnull(bal);
	ck_assert_uint_eq(ot_balance_npatterns(bal), 2);
	ck_assert_double_eq_tol(ot_balance_pattern(bal, 0)->base.throughput,
				0.5, 1e-9);
	ck_assert_ptr_nonnull(strstr(text, "balance: 4 CAs in file order"));
	ck_assert_ptr_nonnull(strstr(text, "\nFAILED\n"));
	ck_assert_msg(json_valid(json), "invalid JSON: %s", json);
	ck_assert_ptr_nonnull(strstr(json, "\"pairs\":12"));
	ck_assert_ptr_nonnull(strstr(json, "\"credit_loops\":1"));
	ck_assert_ptr_nonnull(strstr(json,
		"\"patterns\":[{\"name\":\"uniform\",\"flows\":12,"));
	ck_assert_ptr_nonnull(strstr(json, "\"throughput\":0.5,"));
	ck_assert_ptr_nonnull(strstr(json, "{\"name\":\"neighbor\""));
	free(text);
	free(json);
	ot_check_report_free(rep);

	/* without, nothing of it */
	rep = run(f, r, NULL);
	ck_assert_ptr_null(ot_check_balance(rep));
	json = printed(rep, true);
	ck_assert_ptr_null(strstr(json, "patterns"));
	free(json);
	ot_check_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

START_TEST(routing_of_another_fabric_is_refused)
{
	struct ot_fabric *f = line2("c0", 0), *g = ring4();
	struct ot_routing *r = line2_routing(f);
	struct ot_check_report *rep = NULL;
	struct ot_error err;

	ck_assert_int_eq(ot_check_run(g, r, NULL, &rep, &err), -1);
	ck_assert_ptr_null(rep);
	ck_assert_ptr_nonnull(strstr(err.msg, "not for this fabric"));
	ot_routing_free(r);
	ot_fabric_free(f);
	ot_fabric_free(g);
}
END_TEST

static Suite *check_suite(void)
{
	Suite *s = suite_create("check");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, clean_line_passes_with_exact_counts);
	tcase_add_test(tc, missing_entry_names_the_pair_and_switch);
	tcase_add_test(tc, each_lmc_lid_is_a_pair_of_its_own);
	tcase_add_test(tc, forwarding_loop_lists_its_switches);
	tcase_add_test(tc, clockwise_ring_on_one_vl_has_a_credit_loop);
	tcase_add_test(tc, dateline_vl_change_breaks_the_credit_loop);
	tcase_add_test(tc, cyclic_vl_assignment_is_a_credit_loop);
	tcase_add_test(tc, clockwise_ring_counts_extra_hops);
	tcase_add_test(tc, one_detour_is_one_non_minimal_pair);
	tcase_add_test(tc, promise_rule_violations_are_counted);
	tcase_add_test(tc, promise_parts_are_checked);
	tcase_add_test(tc, back_to_back_cas_reach_each_other);
	tcase_add_test(tc, json_is_one_valid_object);
	tcase_add_test(tc, balance_figures_join_the_report);
	tcase_add_test(tc, routing_of_another_fabric_is_refused);
	suite_add_tcase(s, tc);
	return s;
}

OT_UNIT_MAIN(check_suite)
