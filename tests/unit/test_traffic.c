// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of link balance (src/check/traffic.c) against loads computed
 * by hand, written out below: a ring of four switches with two CAs each,
 * routed the short way round or always clockwise; two switches joined by
 * two cables, with LMC 1 so that each LID takes its own cable; and a
 * single switch with six CAs for the patterns' skipping rules.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/json.h"
#include "check/traffic.h"
#include "model/fabric.h"
#include "model/routing.h"
#include "unit.h"

#define EPS 1e-9

#define ck_assert_load(x, want)                                            \
	ck_assert_msg((x) > (want) - EPS && (x) < (want) + EPS,            \
		      "%s is %.12f, not %.12f", #x, (double)(x), (double)(want))

/*
 * The ring: switches s0..s3 (nodes 0..3, 4 ports each), si port 2 to
 * s(i+1) port 1; CAs c0..c7 (nodes 4..11), c(2i) on si port 3 and
 * c(2i+1) on si port 4.  In file order CA number j is cj.  With
 * reversed_guids the GUIDs count down, so GUID order is c7, c6, ..., c0.
 *
 * Links are numbered node by node, port by port: (si, p) is 4i + p - 1,
 * and cj's cable is 16 + j.  Clockwise link Li = (si, 2) and
 * counter-clockwise Ri = (si, 1).
 */
static struct ot_fabric *ring8(bool reversed_guids)
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
	for (i = 0; i < 8; i++) {
		uint64_t guid = reversed_guids ? 0x300 - 0x10 * i : 0x200 + 0x10 * i;

		snprintf(name, sizeof(name), "c%d", i);
		ck_assert_int_eq(ot_fabric_add_node(f, OT_NODE_CA, 1, guid,
						    name, &err), 4 + i);
	}
	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(ot_fabric_link(f, i, 2, (i + 1) % 4, 1, &err),
				 0);
		ck_assert_int_eq(ot_fabric_link(f, i, 3, 4 + 2 * i, 1, &err),
				 0);
		ck_assert_int_eq(ot_fabric_link(f, i, 4, 5 + 2 * i, 1, &err),
				 0);
	}
	ot_fabric_assign_lids(f);
	ck_assert_int_eq(ot_fabric_index(f, &err), 0);
	return f;
}

static uint16_t ca_lid(const struct ot_fabric *f, int j)
{
	return f->node[4 + j].port[1].lid;
}

static uint32_t link_l(int i)
{
	return 4 * i + 1;
}

static uint32_t link_r(int i)
{
	return 4 * i;
}

/*
 * clockwise: every packet goes round clockwise to its CA's switch.
 * Otherwise the short way: 1 or 2 switches ahead clockwise, 3 ahead is 1
 * back (counter-clockwise).
 */
static struct ot_routing *ring8_routing(const struct ot_fabric *f,
					bool clockwise)
{
	struct ot_routing *r = ot_routing_new(f);
	int s, j;

	ck_assert_ptr_nonnull(r);
	for (s = 0; s < 4; s++)
		for (j = 0; j < 8; j++) {
			int ahead = (j / 2 - s + 4) % 4;
			uint8_t port = ahead == 0 ? 3 + j % 2 :
				       ahead == 3 && !clockwise ? 1 : 2;

			r->lft[s][ca_lid(f, j)] = port;
		}
	return r;
}

static struct ot_balance_report *balance(const struct ot_fabric *f,
					 const struct ot_routing *r,
					 uint32_t patterns,
					 enum ot_ca_order order)
{
	struct ot_traffic_opts opts = { .patterns = patterns, .order = order };
	struct ot_balance_report *rep = NULL;
	struct ot_error err = { 0 };

	ck_assert_int_eq(ot_balance_run(f, r, &opts, &rep, &err), 0);
	ck_assert_ptr_nonnull(rep);
	return rep;
}

static const struct ot_pattern_load *
find_pattern(const struct ot_balance_report *rep, const char *name)
{
	unsigned int i;

	for (i = 0; i < ot_balance_npatterns(rep); i++)
		if (!strcmp(ot_balance_pattern(rep, i)->name, name))
			return ot_balance_pattern(rep, i);
	ck_abort_msg("no pattern %s", name);
	return NULL;
}

/* Checks the ring links: want_l[i] on Li, want_r[i] on Ri. */
static void ring_loads(const struct ot_pattern_load *p, const double *want_l,
		       const double *want_r)
{
	int i;

	for (i = 0; i < 4; i++) {
		ck_assert_msg(p->load[link_l(i)] > want_l[i] - EPS &&
			      p->load[link_l(i)] < want_l[i] + EPS,
			      "%s: L%d carries %f, not %f", p->name, i,
			      p->load[link_l(i)], want_l[i]);
		ck_assert_msg(p->load[link_r(i)] > want_r[i] - EPS &&
			      p->load[link_r(i)] < want_r[i] + EPS,
			      "%s: R%d carries %f, not %f", p->name, i,
			      p->load[link_r(i)], want_r[i]);
	}
}

/*
 * Uniform, short way round: each CA sends 1/7 to each of the 7 others.
 * Between two switches go 2 x 2 = 4 flows.  Li carries the flows from si
 * one and two ahead, and from s(i-1) two ahead: 3 switch pairs, 12 flows,
 * 12/7.  Ri carries the flows from si three ahead (one back): 4/7.  Each
 * CA cable carries 1 each way (7 x 1/7).  Most loaded: 12/7, so the
 * throughput is 7/12; 24 links are used, carrying 16 + 4 x 16/7 = 176/7,
 * 22/21 on average.
 */
START_TEST(uniform_on_the_short_ring)
{
	struct ot_fabric *f = ring8(false);
	struct ot_routing *r = ring8_routing(f, false);
	struct ot_balance_report *rep =
		balance(f, r, 1u << OT_PATTERN_UNIFORM, OT_CA_ORDER_FILE);
	const struct ot_pattern_load *p = find_pattern(rep, "uniform");
	const double l[4] = { 12.0 / 7, 12.0 / 7, 12.0 / 7, 12.0 / 7 };
	const double rr[4] = { 4.0 / 7, 4.0 / 7, 4.0 / 7, 4.0 / 7 };
	int j;

	ck_assert_uint_eq(ot_balance_npatterns(rep), 1);
	ck_assert_uint_eq(ot_balance_ncas(rep), 8);
	ck_assert_uint_eq(p->flows, 56);
	ck_assert_uint_eq(p->unrouted, 0);
	ck_assert_uint_eq(p->skipped, 0);
	ring_loads(p, l, rr);
	for (j = 0; j < 8; j++) {
		ck_assert_load(p->load[16 + j], 1.0);                /* c -> s */
		ck_assert_load(p->load[4 * (j / 2) + 2 + j % 2], 1.0); /* s -> c */
	}
	ck_assert_load(p->base.max_load, 12.0 / 7);
	ck_assert_load(p->base.max_network_load, 12.0 / 7);
	ck_assert_load(p->base.throughput, 7.0 / 12);
	ck_assert_load(p->base.avg_load, 22.0 / 21);
	ck_assert_uint_eq(p->base.links_used, 24);
	ck_assert(!p->multipath);
	ck_assert_str_eq(p->max_from, "s0");
	ck_assert_uint_eq(p->max_from_port, 2);
	ck_assert_str_eq(p->max_to, "s1");
	ck_assert_uint_eq(p->max_to_port, 1);
	ot_balance_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * Always clockwise: a flow k switches ahead crosses k ring links, so the
 * 4 x 4 x (1 + 2 + 3) = 96 crossings of 1/7 spread over 4 links: 24/7.
 */
START_TEST(uniform_on_the_clockwise_ring)
{
	struct ot_fabric *f = ring8(false);
	struct ot_routing *r = ring8_routing(f, true);
	struct ot_balance_report *rep =
		balance(f, r, 1u << OT_PATTERN_UNIFORM, OT_CA_ORDER_FILE);
	const struct ot_pattern_load *p = find_pattern(rep, "uniform");
	const double l[4] = { 24.0 / 7, 24.0 / 7, 24.0 / 7, 24.0 / 7 };
	const double rr[4] = { 0, 0, 0, 0 };

	ring_loads(p, l, rr);
	ck_assert_load(p->base.throughput, 7.0 / 24);
	ot_balance_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * The permutations on 8 CAs (3 bits), short way round; CA j on switch
 * j / 2, "a->b" is CA a sending to CA b.
 *
 * complement j -> 7 - j: 0->7 and 1->6 go s0->s3, one back: R0 twice;
 *   2->5, 3->4 take L1; 4->3, 5->2 take R2; 6->1, 7->0 take L3.
 * reverse: 1->4 (L0 L1), 3->6 (L1 L2), 4->1 (L2 L3), 6->3 (L3 L0);
 *   0, 2, 5, 7 are their own reverse and send nothing.
 * shuffle (rotate left): 1->2 (L0), 2->4 (L1), 3->6 (L1 L2),
 *   4->1 (L2 L3), 5->3 (R2), 6->5 (R3); 0 and 7 skipped.
 * transpose (rotate right by 3/2 = 1): 1->4 (L0 L1), 2->1 (R1),
 *   3->5 (L1), 4->2 (R2), 5->6 (L2), 6->3 (L3 L0); 0 and 7 skipped.
 * rotation j -> j + 4: two switches ahead, L(i) and L(i+1) for the two
 *   CAs of each switch: 4 on every Li.
 * neighbor j -> j + 1: the odd CAs cross one link Li, the even stay.
 */
START_TEST(permutations_on_the_short_ring)
{
	struct ot_fabric *f = ring8(false);
	struct ot_routing *r = ring8_routing(f, false);
	struct ot_balance_report *rep =
		balance(f, r, 0, OT_CA_ORDER_FILE);
	static const struct {
		const char *name;
		double l[4], r[4];
		unsigned int flows;
		double max, throughput;
	} want[] = {
		{ "complement", { 0, 2, 0, 2 }, { 2, 0, 2, 0 }, 8, 2, 0.5 },
		{ "reverse", { 2, 2, 2, 2 }, { 0, 0, 0, 0 }, 4, 2, 0.5 },
		{ "shuffle", { 1, 2, 2, 1 }, { 0, 0, 1, 1 }, 6, 2, 0.5 },
		{ "transpose", { 2, 2, 1, 1 }, { 0, 1, 1, 0 }, 6, 2, 0.5 },
		{ "rotation", { 4, 4, 4, 4 }, { 0, 0, 0, 0 }, 8, 4, 0.25 },
		{ "neighbor", { 1, 1, 1, 1 }, { 0, 0, 0, 0 }, 8, 1, 1 },
	};
	const struct ot_pattern_load *p;
	unsigned int i;

	/* every pattern, and one random permutation by default */
	ck_assert_uint_eq(ot_balance_npatterns(rep), OT_PATTERN_EBB);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		p = find_pattern(rep, want[i].name);
		ring_loads(p, want[i].l, want[i].r);
		ck_assert_uint_eq(p->flows, want[i].flows);
		ck_assert_uint_eq(p->skipped, 8 - want[i].flows);
		ck_assert_uint_eq(p->unrouted, 0);
		ck_assert_load(p->base.max_load, want[i].max);
		ck_assert_load(p->base.max_network_load, want[i].max);
		ck_assert_load(p->base.throughput, want[i].throughput);
	}
	/* the first most loaded ring link: R0 = (s0, port 1) comes first */
	p = find_pattern(rep, "complement");
	ck_assert_str_eq(p->max_from, "s0");
	ck_assert_uint_eq(p->max_from_port, 1);
	ck_assert_str_eq(p->max_to, "s3");
	ck_assert_uint_eq(p->max_to_port, 2);
	ot_balance_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * Numbered by GUID (reversed), CA number i is c(7 - i), so the neighbour
 * shift sends cj to c(j - 1): clockwise, the even CAs go three switches
 * round (4 flows x 3 links over 4 links: 3 each) and the odd stay local.
 * In file order the same tables carry 1 per ring link.
 */
START_TEST(guid_order_renumbers_the_cas)
{
	struct ot_fabric *f = ring8(true);
	struct ot_routing *r = ring8_routing(f, true);
	struct ot_balance_report *rep =
		balance(f, r, 1u << OT_PATTERN_NEIGHBOR, OT_CA_ORDER_GUID);
	const struct ot_pattern_load *p = find_pattern(rep, "neighbor");
	const double three[4] = { 3, 3, 3, 3 }, one[4] = { 1, 1, 1, 1 };
	const double none[4] = { 0, 0, 0, 0 };

	ck_assert_int_eq(ot_balance_ca_order(rep), OT_CA_ORDER_GUID);
	ring_loads(p, three, none);
	ck_assert_load(p->base.throughput, 1.0 / 3);
	ot_balance_report_free(rep);

	rep = balance(f, r, 1u << OT_PATTERN_NEIGHBOR, OT_CA_ORDER_FILE);
	p = find_pattern(rep, "neighbor");
	ring_loads(p, one, none);
	ck_assert_load(p->base.throughput, 1.0);
	ot_balance_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * s1 loses its entry for c0: the flows of c2 and c3 to c0 are dropped
 * (in the short ring they would go R1).  They count as unrouted and
 * carry nothing: R1 keeps 2 of its 4 flows, c2 and c3 inject 6/7.
 */
START_TEST(unrouted_flows_carry_nothing)
{
	struct ot_fabric *f = ring8(false);
	struct ot_routing *r = ring8_routing(f, false);
	struct ot_balance_report *rep;
	const struct ot_pattern_load *p;

	r->lft[1][ca_lid(f, 0)] = OT_NO_PORT;
	rep = balance(f, r, 1u << OT_PATTERN_UNIFORM, OT_CA_ORDER_FILE);
	p = find_pattern(rep, "uniform");
	ck_assert_uint_eq(p->flows, 56);
	ck_assert_uint_eq(p->unrouted, 2);
	ck_assert_load(p->load[link_r(1)], 2.0 / 7);
	ck_assert_load(p->load[16 + 2], 6.0 / 7);
	ck_assert_load(p->load[16 + 3], 6.0 / 7);
	ck_assert_load(p->load[16 + 4], 1.0);
	ck_assert_load(p->load[2], 5.0 / 7); /* s0 -> c0 */
	ot_balance_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * Two switches joined by two cables (port 1 to port 1, port 2 to port
 * 2); a0, a1 on s0 ports 3 and 4, b0, b1 on s1 ports 3 and 4; LMC 1.
 * A CA's first LID crosses on cable 1, its second on cable 2.  Nodes:
 * s0 s1 a0 a1 b0 b1; links (s0,1) = 0, (s0,2) = 1, (s1,1) = 4, (s1,2) = 5.
 */
static struct ot_fabric *twin(void)
{
	struct ot_error err;
	struct ot_fabric *f = ot_fabric_new();
	static const char *const names[] = { "a0", "a1", "b0", "b1" };
	int i;

	ck_assert_int_eq(ot_fabric_add_node(f, OT_NODE_SWITCH, 4, 0x100, "s0",
					    &err), 0);
	ck_assert_int_eq(ot_fabric_add_node(f, OT_NODE_SWITCH, 4, 0x101, "s1",
					    &err), 1);
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(ot_fabric_add_node(f, OT_NODE_CA, 1,
						    0x200 + 0x10 * i, names[i],
						    &err), 2 + i);
	ck_assert_int_eq(ot_fabric_link(f, 0, 1, 1, 1, &err), 0);
	ck_assert_int_eq(ot_fabric_link(f, 0, 2, 1, 2, &err), 0);
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(ot_fabric_link(f, i / 2, 3 + i % 2, 2 + i, 1,
						&err), 0);
	ck_assert_int_eq(ot_fabric_set_lid(f, 0, 0, 1, 0, &err), 0);
	ck_assert_int_eq(ot_fabric_set_lid(f, 1, 0, 2, 0, &err), 0);
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(ot_fabric_set_lid(f, 2 + i, 1, 4 + 2 * i, 1,
						   &err), 0);
	ck_assert_int_eq(ot_fabric_index(f, &err), 0);
	return f;
}

static struct ot_routing *twin_routing(const struct ot_fabric *f)
{
	struct ot_routing *r = ot_routing_new(f);
	int s, i, l;

	ck_assert_ptr_nonnull(r);
	for (s = 0; s < 2; s++)
		for (i = 0; i < 4; i++)
			for (l = 0; l < 2; l++)
				r->lft[s][4 + 2 * i + l] =
					i / 2 == s ? 3 + i % 2 : 1 + l;
	return r;
}

/*
 * rotation (i -> i + 2): a0->b0, a1->b1, b0->a0, b1->a1.
 *   base LID: both flows of a side on cable 1: 2, throughput 1/2.
 *   spread: 1/2 of each flow per cable: 1 per cable, throughput 1.
 *   best: a0->b0 first, both cables empty: the lower LID (cable 1);
 *   a1->b1 then finds cable 1 at 1 and takes cable 2: 1 per cable.
 * uniform (1/3 per flow): 4 flows cross each way.
 *   base: all on cable 1, 4/3, throughput 3/4.
 *   spread: 2/3 per cable; the CA cables' 1 is the maximum.
 *   best: toward a0, b0 and b1 together (2/3) take cable 1 of s1;
 *   toward a1 cable 1 would be at 4/3, so cable 2: 2/3 on each cable.
 */
START_TEST(lmc_spread_and_best_of_the_paths)
{
	struct ot_fabric *f = twin();
	struct ot_routing *r = twin_routing(f);
	struct ot_balance_report *rep =
		balance(f, r,
			1u << OT_PATTERN_ROTATION | 1u << OT_PATTERN_UNIFORM,
			OT_CA_ORDER_FILE);
	const struct ot_pattern_load *p;

	ck_assert_uint_eq(ot_balance_lmc(rep), 1);
	p = find_pattern(rep, "rotation");
	ck_assert(p->multipath);
	ck_assert_load(p->load[0], 2);
	ck_assert_load(p->load[1], 0);
	ck_assert_load(p->load[4], 2);
	ck_assert_load(p->base.throughput, 0.5);
	ck_assert_load(p->spread.max_network_load, 1);
	ck_assert_load(p->spread.throughput, 1);
	ck_assert_load(p->best.max_network_load, 1);
	ck_assert_load(p->best.throughput, 1);
	ck_assert_uint_eq(p->best.links_used, 12);

	p = find_pattern(rep, "uniform");
	ck_assert_uint_eq(p->flows, 12);
	ck_assert_load(p->load[0], 4.0 / 3);
	ck_assert_load(p->base.throughput, 0.75);
	ck_assert_load(p->spread.max_network_load, 2.0 / 3);
	ck_assert_load(p->spread.max_load, 1);
	ck_assert_load(p->spread.throughput, 1);
	ck_assert_load(p->best.max_network_load, 2.0 / 3);
	ck_assert_load(p->best.throughput, 1);
	ot_balance_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/* One switch, CAs k0..k5 on ports 1..6: every flow crosses no ring. */
static struct ot_fabric *star6(void)
{
	struct ot_error err;
	struct ot_fabric *f = ot_fabric_new();
	char name[8];
	int i;

	ck_assert_int_eq(ot_fabric_add_node(f, OT_NODE_SWITCH, 6, 0x100, "s",
					    &err), 0);
	for (i = 0; i < 6; i++) {
		snprintf(name, sizeof(name), "k%d", i);
		ck_assert_int_eq(ot_fabric_add_node(f, OT_NODE_CA, 1,
						    0x200 + i, name, &err),
				 1 + i);
		ck_assert_int_eq(ot_fabric_link(f, 0, 1 + i, 1 + i, 1, &err),
				 0);
	}
	ot_fabric_assign_lids(f);
	ck_assert_int_eq(ot_fabric_index(f, &err), 0);
	return f;
}

/* ejected[j]: does kj receive (its switch-to-CA link is link j)? */
static void receivers(const struct ot_pattern_load *p, const char *want)
{
	int j;

	for (j = 0; j < 6; j++)
		ck_assert_msg((p->load[j] > 0.5) == (want[j] == '1'),
			      "%s: k%d receives %f", p->name, j, p->load[j]);
}

/*
 * N = 6, 3 bits.  complement: 2->5 3->4 4->3 5->2 (0 and 1 point past
 * 5).  reverse: 1->4 4->1 (0 2 5 themselves, 3 -> 6).  shuffle: 1->2
 * 2->4 4->1 5->3 (0 itself, 3 -> 6).  transpose: 1->4 2->1 3->5 4->2
 * (0 itself, 5 -> 6).  rotation (+3) and neighbor: all six.
 */
START_TEST(bit_patterns_skip_partners_out_of_range)
{
	struct ot_fabric *f = star6();
	struct ot_routing *r = ot_routing_new(f);
	struct ot_balance_report *rep;
	const struct ot_pattern_load *p;
	int j;

	for (j = 0; j < 6; j++)
		r->lft[0][f->node[1 + j].port[1].lid] = 1 + j;
	rep = balance(f, r, OT_PATTERNS_ALL & ~(1u << OT_PATTERN_RANDOM),
		      OT_CA_ORDER_FILE);
	p = find_pattern(rep, "complement");
	ck_assert_uint_eq(p->flows, 4);
	receivers(p, "001111");
	p = find_pattern(rep, "reverse");
	ck_assert_uint_eq(p->flows, 2);
	ck_assert_uint_eq(p->skipped, 4);
	receivers(p, "010010");
	p = find_pattern(rep, "shuffle");
	ck_assert_uint_eq(p->flows, 4);
	receivers(p, "011110");
	p = find_pattern(rep, "transpose");
	ck_assert_uint_eq(p->flows, 4);
	receivers(p, "011011");
	p = find_pattern(rep, "rotation");
	ck_assert_uint_eq(p->flows, 6);
	receivers(p, "111111");
	p = find_pattern(rep, "uniform");
	ck_assert_uint_eq(p->flows, 30);
	/* no switch-to-switch link at all */
	ck_assert_ptr_null(p->max_from);
	ck_assert_load(p->base.max_network_load, 0);
	ck_assert_load(p->base.throughput, 1);
	ot_balance_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/* A random permutation is one: each CA sends once and receives once. */
START_TEST(random_permutations_are_seeded_and_deterministic)
{
	struct ot_fabric *f = star6();
	struct ot_routing *r = ot_routing_new(f);
	struct ot_traffic_opts opts = {
		.patterns = 1u << OT_PATTERN_RANDOM,
		.nrandom = 3,
		.seed = 42,
	};
	struct ot_balance_report *a = NULL, *b = NULL;
	struct ot_error err;
	unsigned int i;
	int j;

	for (j = 0; j < 6; j++)
		r->lft[0][f->node[1 + j].port[1].lid] = 1 + j;
	ck_assert_int_eq(ot_balance_run(f, r, &opts, &a, &err), 0);
	ck_assert_int_eq(ot_balance_run(f, r, &opts, &b, &err), 0);
	ck_assert_uint_eq(ot_balance_npatterns(a), 3);
	for (i = 0; i < 3; i++) {
		const struct ot_pattern_load *p = ot_balance_pattern(a, i);
		const struct ot_pattern_load *q = ot_balance_pattern(b, i);
		char name[16];
		double in = 0, out = 0;

		snprintf(name, sizeof(name), "random-%u", i + 1);
		ck_assert_str_eq(p->name, name);
		ck_assert_uint_eq(p->seed, 42 + i);
		ck_assert_uint_eq(p->flows + p->skipped, 6);
		for (j = 0; j < 6; j++) {
			/* links 0..5: s -> kj; 6..11: kj -> s */
			ck_assert(p->load[j] == 0 || p->load[j] == 1);
			ck_assert(p->load[6 + j] == 0 || p->load[6 + j] == 1);
			in += p->load[j];
			out += p->load[6 + j];
			ck_assert(p->load[j] == q->load[j]);
		}
		ck_assert_load(in, p->flows);
		ck_assert_load(out, p->flows);
	}
	ot_balance_report_free(a);
	ot_balance_report_free(b);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * The permutations themselves, worked out apart from the code (a few
 * lines of Python): splitmix64 from the seed, Fisher-Yates from the last
 * place down, place i - 1 swapped with a draw below i (draws under
 * 2^64 mod i redrawn).  Seed 1 gives 4 3 2 7 5 6 0 1 (CA 2 stays: 7
 * flows), seed 2 gives 5 2 7 4 1 3 0 6.  On the short ring, seed 1:
 * 0->4 (L0 L1), 1->3 (L0), 3->7 (L1 L2), 5->6 (L2), 6->0 and 7->1 (L3),
 * 4->5 stays on s2.  Seed 2: 0->5 (L0 L1), 1->2 (L0), 2->7 (L1 L2),
 * 3->4 (L1), 4->1 (L2 L3), 5->3 (R2), 6->0 (L3), 7->6 stays.
 */
START_TEST(random_permutations_known_answer)
{
	struct ot_fabric *f = ring8(false);
	struct ot_routing *r = ring8_routing(f, false);
	struct ot_traffic_opts opts = {
		.patterns = 1u << OT_PATTERN_RANDOM,
		.nrandom = 2,
		.seed = 1,
	};
	struct ot_balance_report *rep = NULL;
	struct ot_error err;
	const struct ot_pattern_load *p;
	const double l1[4] = { 2, 2, 2, 2 }, r1[4] = { 0, 0, 0, 0 };
	const double l2[4] = { 2, 3, 2, 2 }, r2[4] = { 0, 0, 1, 0 };

	ck_assert_int_eq(ot_balance_run(f, r, &opts, &rep, &err), 0);
	p = find_pattern(rep, "random-1");
	ck_assert_uint_eq(p->seed, 1);
	ck_assert_uint_eq(p->flows, 7);
	ck_assert_uint_eq(p->skipped, 1);
	ring_loads(p, l1, r1);
	ck_assert_load(p->load[16 + 2], 0); /* c2 sends nothing */
	p = find_pattern(rep, "random-2");
	ck_assert_uint_eq(p->seed, 2);
	ck_assert_uint_eq(p->flows, 8);
	ring_loads(p, l2, r2);
	ck_assert_load(p->base.throughput, 1.0 / 3);
	ck_assert_str_eq(p->max_from, "s1");
	ot_balance_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * Two switches s0, s1 (nodes 0, 1) joined by one cable (port n + 1 of
 * each), n CAs on each (ports 1..n): CA j (node 2 + j) on s(j / n).
 * n = 1 with one switch only: nsw = 1, every CA on s0.
 */
static struct ot_fabric *two_switches(int nsw, int n)
{
	struct ot_error err;
	struct ot_fabric *f = ot_fabric_new();
	char name[16];
	int i;

	ck_assert_ptr_nonnull(f);
	for (i = 0; i < nsw; i++) {
		snprintf(name, sizeof(name), "s%d", i);
		ck_assert_int_eq(ot_fabric_add_node(f, OT_NODE_SWITCH, n + 1,
						    0x100 + i, name, &err), i);
	}
	for (i = 0; i < nsw * n; i++) {
		snprintf(name, sizeof(name), "c%d", i);
		ck_assert_int_eq(ot_fabric_add_node(f, OT_NODE_CA, 1,
						    0x200 + i, name, &err),
				 nsw + i);
		ck_assert_int_eq(ot_fabric_link(f, i / n, 1 + i % n, nsw + i,
						1, &err), 0);
	}
	if (nsw == 2)
		ck_assert_int_eq(ot_fabric_link(f, 0, n + 1, 1, n + 1, &err),
				 0);
	ot_fabric_assign_lids(f);
	ck_assert_int_eq(ot_fabric_index(f, &err), 0);
	return f;
}

static struct ot_routing *two_switches_routing(const struct ot_fabric *f,
					       int nsw, int n)
{
	struct ot_routing *r = ot_routing_new(f);
	int s, j;

	ck_assert_ptr_nonnull(r);
	for (s = 0; s < nsw; s++)
		for (j = 0; j < nsw * n; j++)
			r->lft[s][f->node[nsw + j].port[1].lid] =
				j / n == s ? 1 + j % n : n + 1;
	return r;
}

static const struct ot_pattern_load *ebb_run(const struct ot_fabric *f,
					     const struct ot_routing *r,
					     unsigned int k, uint64_t seed,
					     struct ot_balance_report **rep)
{
	struct ot_traffic_opts opts = { .patterns = 1u << OT_PATTERN_EBB,
					.bisections = k, .seed = seed };
	struct ot_error err = { 0 };

	ck_assert_int_eq(ot_balance_run(f, r, &opts, rep, &err), 0);
	ck_assert_uint_eq(ot_balance_npatterns(*rep), 1);
	return find_pattern(*rep, "ebb");
}

/* One switch: every flow has its two cables to itself, ebb = 1. */
START_TEST(ebb_one_switch_is_one)
{
	struct ot_fabric *f = two_switches(1, 7);
	struct ot_routing *r = two_switches_routing(f, 1, 7);
	struct ot_balance_report *rep = NULL;
	const struct ot_pattern_load *p = ebb_run(f, r, 20, 5, &rep);

	ck_assert_uint_eq(p->bisections, 20);
	ck_assert_uint_eq(p->flows, 20 * 6); /* 7 CAs: one left out */
	ck_assert_uint_eq(p->skipped, 20 * 1);
	ck_assert_uint_eq(p->unrouted, 0);
	ck_assert_load(p->ebb, 1.0);
	ck_assert_load(p->base.throughput, 1.0);
	ot_balance_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * Two switches, one cable, n CAs each.  A bisection whose matching puts
 * c pairs across the cable loads it with c flows each way: those 2c
 * flows get 1/c, the other 2n - 2c get 1, so the bisection's mean is
 * (2n - 2c + 2 [c > 0]) / 2n.  Checked bisection by bisection against
 * the shared matchings, and on average against the expectation over all
 * perfect matchings (a random bisection with a random matching across it
 * is a uniformly random perfect matching): n = 2, the 3 matchings give
 * 1, 1/2, 1/2: 2/3; n = 3, c = 1 in 9 of 15 matchings (ebb 1), c = 3
 * in 6 (ebb 1/3): 11/15; n = 4, c = 0 in 9 of 105 (ebb 1), c = 2 in 72
 * (3/4), c = 4 in 24 (1/4): 69/105.  n = 4 is the case where 1 / the
 * most loaded cable of the whole fabric (not of the flow's path) gives
 * another answer (51/105).
 */
START_TEST(ebb_two_switches_by_hand)
{
	static const struct {
		int n;
		double expect;
	} want[] = { { 2, 2.0 / 3 }, { 3, 11.0 / 15 }, { 4, 69.0 / 105 } };
	uint32_t partner[8], perm[8];
	unsigned int w, k, nbis = 4000;

	for (w = 0; w < 3; w++) {
		int n = want[w].n;
		struct ot_fabric *f = two_switches(2, n);
		struct ot_routing *r = two_switches_routing(f, 2, n);
		struct ot_balance_report *rep = NULL;
		const struct ot_pattern_load *p = ebb_run(f, r, nbis, 9, &rep);
		double sum = 0;
		int i, c;

		for (k = 0; k < nbis; k++) {
			ot_pattern_partners(OT_PATTERN_EBB, 2 * n,
					    ot_pattern_bisection_seed(9, k),
					    partner, perm);
			for (i = 0, c = 0; i < 2 * n; i++) {
				ck_assert_uint_lt(partner[i], 2 * n);
				ck_assert_uint_eq(partner[partner[i]], i);
				if (i < n && partner[i] >= (uint32_t)n)
					c++;
			}
			sum += (2.0 * n - 2 * c + (c ? 2 : 0)) / (2 * n);
		}
		ck_assert_uint_eq(p->flows, 2 * n * nbis);
		ck_assert_uint_eq(p->skipped, 0);
		ck_assert_load(p->ebb, sum / nbis);
		ck_assert_msg(p->ebb > want[w].expect - 0.03 &&
				      p->ebb < want[w].expect + 0.03,
			      "n = %d: ebb %.4f, expected %.4f", n, p->ebb,
			      want[w].expect);
		/* the same seed, the same bisections */
		ot_balance_report_free(rep);
		p = ebb_run(f, r, nbis, 9, &rep);
		ck_assert_load(p->ebb, sum / nbis);
		ot_balance_report_free(rep);
		ot_routing_free(r);
		ot_fabric_free(f);
	}
}
END_TEST

START_TEST(pattern_lists_parse)
{
	struct ot_error err;
	uint32_t mask;

	ck_assert_int_eq(ot_pattern_parse_list("uniform,random", &mask, NULL, &err),
			 0);
	ck_assert_uint_eq(mask, 1u << OT_PATTERN_UNIFORM |
					1u << OT_PATTERN_RANDOM);
	ck_assert_int_eq(ot_pattern_parse_list("all", &mask, NULL, &err), 0);
	ck_assert_uint_eq(mask, OT_PATTERNS_ALL);
	ck_assert_int_eq(ot_pattern_parse_list("uniform,bogus", &mask, NULL, &err),
			 -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "'bogus'"));
	ck_assert_int_eq(ot_pattern_parse_list("", &mask, NULL, &err), -1);
	ck_assert_str_eq(ot_pattern_name(OT_PATTERN_TRANSPOSE), "transpose");
	/* ebb: not in "all", K bisections, refused where not counted */
	{
		unsigned int k = 0;

		ck_assert_int_eq(ot_pattern_parse_list("uniform,ebb:250", &mask,
						       &k, &err), 0);
		ck_assert_uint_eq(mask, 1u << OT_PATTERN_UNIFORM |
						1u << OT_PATTERN_EBB);
		ck_assert_uint_eq(k, 250);
		ck_assert_int_eq(ot_pattern_parse_list("ebb", &mask, &k, &err),
				 0);
		ck_assert_uint_eq(k, 250);
		ck_assert_int_eq(ot_pattern_parse_list("all", &mask, &k, &err),
				 0);
		ck_assert_uint_eq(mask & 1u << OT_PATTERN_EBB, 0);
		ck_assert_int_eq(ot_pattern_parse_list("ebb:0", &mask, &k,
						       &err), -1);
		ck_assert_int_eq(ot_pattern_parse_list("ebb:x", &mask, &k,
						       &err), -1);
		ck_assert_int_eq(ot_pattern_parse_list("ebb", &mask, NULL,
						       &err), -1);
	}
}
END_TEST

/* The balance members in an object of their own, printed. */
static int balance_json(FILE *out, const struct ot_balance_report *rep)
{
	json_t *o = json_object();

	ck_assert_int_eq(ot_balance_json_add(o, rep), 0);
	return ot_json_print(out, o);
}

/* Output as text; the caller frees it. */
static char *printed(const struct ot_balance_report *rep, int how)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(out);
	if (how == 0)
		ck_assert_int_eq(ot_balance_print_text(out, rep), 0);
	else if (how == 1)
		ck_assert_int_eq(balance_json(out, rep), 0);
	else
		ck_assert_int_eq(ot_balance_plot_svg(out, rep, "a<b&c"), 0);
	fclose(out);
	return buf;
}

START_TEST(report_text_json_and_svg)
{
	struct ot_fabric *f = ring8(false);
	struct ot_routing *r = ring8_routing(f, false);
	struct ot_balance_report *rep =
		balance(f, r, 1u << OT_PATTERN_UNIFORM | 1u << OT_PATTERN_ROTATION,
			OT_CA_ORDER_FILE);
	char *text = printed(rep, 0), *json = printed(rep, 1),
	     *svg = printed(rep, 2);

	ck_assert_ptr_nonnull(strstr(text, "balance: 8 CAs in file order"));
	ck_assert_ptr_nonnull(strstr(text,
		"  uniform             56        0        0    1.7143    1.7143    1.0476      0.5833\n"));
	ck_assert_ptr_nonnull(strstr(text,
		"    rotation     \"s0\" port 2 -> \"s1\" port 1 (4.0000)\n"));
	ck_assert_ptr_nonnull(strstr(json,
		"\"balance\":{\"cas\":8,\"ca_order\":\"file\",\"lmc\":0},\"patterns\":[{\"name\":\"uniform\",\"flows\":56,"));
	ck_assert_ptr_nonnull(strstr(json, "\"throughput\":0.583333"));
	ck_assert_ptr_nonnull(strstr(json,
		"\"hot_link\":{\"from\":\"s0\",\"from_port\":2,\"to\":\"s1\",\"to_port\":1,\"load\":4.0}"));
	ck_assert_ptr_nonnull(strstr(svg, "<svg "));
	ck_assert_ptr_nonnull(strstr(svg, "a&lt;b&amp;c"));
	ck_assert_ptr_nonnull(strstr(svg, "rotation: throughput 0.250"));
	ck_assert_ptr_nonnull(strstr(svg, "</svg>\n"));
	free(text);
	free(json);
	free(svg);
	ot_balance_report_free(rep);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

static Suite *traffic_suite(void)
{
	Suite *s = suite_create("traffic");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, uniform_on_the_short_ring);
	tcase_add_test(tc, uniform_on_the_clockwise_ring);
	tcase_add_test(tc, permutations_on_the_short_ring);
	tcase_add_test(tc, guid_order_renumbers_the_cas);
	tcase_add_test(tc, unrouted_flows_carry_nothing);
	tcase_add_test(tc, lmc_spread_and_best_of_the_paths);
	tcase_add_test(tc, bit_patterns_skip_partners_out_of_range);
	tcase_add_test(tc, random_permutations_are_seeded_and_deterministic);
	tcase_add_test(tc, random_permutations_known_answer);
	tcase_add_test(tc, ebb_one_switch_is_one);
	tcase_add_test(tc, ebb_two_switches_by_hand);
	tcase_add_test(tc, pattern_lists_parse);
	tcase_add_test(tc, report_text_json_and_svg);
	suite_add_tcase(s, tc);
	return s;
}

OT_UNIT_MAIN(traffic_suite)
