// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of the InfiniBand arbiter model (traffic/arbiter.h), the
 * per-port VLArb tables split by flows (ot_qos_port_vlarb()) and the QoS
 * check (check/qoscheck.h): a FlatFly with parallel cables, 2 CAs a
 * switch and shuffled ports, routed by ff-twisted-dor with 3 classes
 * chosen by destination, passes; tables built to break each rule fail
 * it by that rule.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/qoscheck.h"
#include "gen/gen.h"
#include "route/engine.h"
#include "traffic/arbiter.h"
#include "route/qos/qos.h"
#include "unit.h"

static const char classes[] =
	"arbiter gmtu 2048 w 8 k 2\n"
	"class latency sl 4 share 20% distance 2 mtu 256\n"
	"class compute sl 0 share 60% distance 4\n"
	"class bulk    sl 7 share 20% distance 4\n";

static void set_entries(struct ot_vlarb_entry *e, const uint8_t (*vw)[2],
			unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		e[i].vl = vw[i][0];
		e[i].weight = vw[i][1];
	}
}

static struct ot_vlarb_port port_with(const uint8_t (*low)[2], unsigned int nl,
				      const uint8_t (*high)[2], unsigned int nh,
				      uint8_t limit)
{
	struct ot_vlarb_port p;

	memset(&p, 0, sizeof(p));
	p.read = true;
	p.low_cap = 8;
	p.high_cap = 8;
	p.op_vls = 8;
	p.high_limit = limit;
	set_entries(p.low, low, nl);
	set_entries(p.high, high, nh);
	return p;
}

START_TEST(test_arbiter_low_table)
{
	static const uint8_t low[][2] = { { 0, 4 }, { 1, 8 }, { 0, 0 } };
	unsigned int mtu[OT_ARB_VLS] = { 4, 4 };
	struct ot_vlarb_port p = port_with(low, 3, NULL, 0, 0);
	struct ot_arb_trace tr;

	ck_assert(!ot_arb_simulate(&p, mtu, 4, &tr));
	ck_assert_uint_eq(tr.total, 4 * 12);
	ck_assert_uint_eq(ot_arb_served(&tr, 1), 16);
	ck_assert_uint_eq(ot_arb_served(&tr, 2), 32);
	/* VL 0 waits for VL 1's 8 units; VL 1 for VL 0's 4 */
	ck_assert_uint_eq(ot_arb_worst_gap(&tr, 1), 8);
	ck_assert_uint_eq(ot_arb_worst_gap(&tr, 2), 4);
	ck_assert_uint_eq(ot_arb_worst_gap(&tr, 4), OT_ARB_NEVER);
	ot_arb_trace_free(&tr);
}
END_TEST

/* Whole packets: weight 5 with packets of 4 sends 2 packets (8 units). */
START_TEST(test_arbiter_whole_packets)
{
	static const uint8_t low[][2] = { { 0, 5 }, { 1, 4 } };
	unsigned int mtu[OT_ARB_VLS] = { 4, 4 };
	struct ot_vlarb_port p = port_with(low, 2, NULL, 0, 0);
	struct ot_arb_trace tr;

	ck_assert(!ot_arb_simulate(&p, mtu, 1, &tr));
	ck_assert_uint_eq(tr.served[0], 8);
	ck_assert_uint_eq(tr.served[1], 4);
	ot_arb_trace_free(&tr);
	/* an empty VL, a VL above the operational ones: skipped */
	mtu[1] = 0;
	p.low[2] = (struct ot_vlarb_entry){ 9, 50 };
	ck_assert(!ot_arb_simulate(&p, mtu, 1, &tr));
	ck_assert_uint_eq(tr.total, 8);
	ot_arb_trace_free(&tr);
}
END_TEST

/* The high table against the low one under the high limit. */
START_TEST(test_arbiter_high_limit)
{
	static const uint8_t low[][2] = { { 0, 4 } };
	static const uint8_t high[][2] = { { 2, 255 } };
	unsigned int mtu[OT_ARB_VLS] = { 4, 0, 4 };
	struct ot_vlarb_port p = port_with(low, 1, high, 1, 0);
	struct ot_arb_trace tr;

	/* limit 0: one high packet, then a low one */
	ck_assert(!ot_arb_simulate(&p, mtu, 8, &tr));
	/* the run ends on a low cycle: one high packet may lead */
	ck_assert_uint_le(tr.served[2] - tr.served[0], 4);
	ck_assert_uint_eq(ot_arb_worst_gap(&tr, 1), 4);
	ot_arb_trace_free(&tr);
	/* limit 1: 4096 bytes (64 units) of high, then one low packet */
	p.high_limit = 1;
	ck_assert(!ot_arb_simulate(&p, mtu, 8, &tr));
	ck_assert_uint_ge(tr.served[2], 16 * tr.served[0]);
	ck_assert_uint_le(tr.served[2], 16 * tr.served[0] + 64);
	ck_assert_uint_eq(ot_arb_worst_gap(&tr, 1), 64);
	ot_arb_trace_free(&tr);
	/* 255: no limit, the low VL starves */
	p.high_limit = 255;
	ck_assert(!ot_arb_simulate(&p, mtu, 8, &tr));
	ck_assert_uint_eq(tr.served[0], 0);
	ck_assert_uint_eq(ot_arb_worst_gap(&tr, 1), OT_ARB_NEVER);
	ot_arb_trace_free(&tr);
}
END_TEST

static void parse_ok(const char *text, struct ot_qos_table *t)
{
	struct ot_error err = { 0 };

	ck_assert_msg(!ot_qos_parse(text, "t", t, &err), "%s", err.msg);
}

/* Entries follow the flows: only VLs that carry the class, by weight. */
START_TEST(test_port_vlarb_flows)
{
	struct ot_qos_layers q = { .classes = 3, .sls = 1, .vls = 2 };
	uint32_t flows[3 * OT_NUM_SLS] = { 0 };
	struct ot_error err = { 0 };
	struct ot_qos_entry e[64];
	struct ot_qos_table t;
	unsigned int n, j, w[16] = { 0 };

	parse_ok(classes, &t);
	flows[0 * 16 + 1] = 10;          /* latency: VL 1 only */
	flows[1 * 16 + 2] = 30;          /* compute: 3:1 on VLs 2, 3 */
	flows[1 * 16 + 3] = 10;
	flows[2 * 16 + 4] = 5;           /* bulk: both VLs */
	flows[2 * 16 + 5] = 5;
	ck_assert_msg(!ot_qos_port_vlarb(&t, &q, 8, flows, e, &n, &err), "%s",
		      err.msg);
	for (j = 0; j < n; j++) {
		ck_assert_int_ne(e[j].who, 0);
		/* whole packets of the class's MTU */
		ck_assert_uint_eq(e[j].weight % (e[j].who < 2 ? 4 : 32), 0);
		ck_assert_uint_gt(e[j].weight, 0);
		w[e[j].who] += e[j].weight;
	}
	ck_assert_uint_gt(w[2], w[3]);
	ck_assert_uint_gt(w[3], 0);
	ck_assert_uint_eq(w[4], w[5]);
	/* the shares hold under whole packets: weights are multiples */
	j = w[1] + w[2] + w[3] + w[4] + w[5];
	ck_assert(fabs((double)w[1] / j - 0.2) <= 0.01);
	ck_assert(fabs((double)(w[2] + w[3]) / j - 0.6) <= 0.01);
	/* bulk absent here: latency and compute share 1:3 */
	flows[2 * 16 + 4] = flows[2 * 16 + 5] = 0;
	ck_assert(!ot_qos_port_vlarb(&t, &q, 8, flows, e, &n, &err));
	memset(w, 0, sizeof(w));
	for (j = 0; j < n; j++)
		w[e[j].who] += e[j].weight;
	ck_assert(fabs((double)w[1] / (w[1] + w[2] + w[3]) - 0.25) <= 0.01);
	ck_assert_uint_gt(w[4] + w[5], 0); /* bulk keeps its entries */
}
END_TEST

/* ------------------------------------------------------------------ */
/* The QoS check on a routed fabric.                                   */

static struct fixture {
	struct ot_fabric *f;
	struct ot_routing *r, engine;
	struct ot_qos_table t;
	struct ot_qos_layers q;
	struct ot_qos_flows fl;
	struct ot_vlarb_tables *vt;
} fx;

/*
 * The class of a pair: from the destination CA's name (its coordinates
 * and rank on its switch), as a QoS policy names ports; not from node
 * indices or port numbers, which a shuffle changes.
 */
static int class_of_dest(void *ctx, int src, unsigned int sport,
			 uint16_t dlid)
{
	const char *d = fx.f->node[ot_fabric_lid_node(fx.f, dlid)].desc;
	unsigned int h = 0;

	(void)ctx;
	(void)src;
	(void)sport;
	while (*d)
		h = h * 31 + (unsigned char)*d++;
	return (int)(h % 3);
}

/* The path SL the SA would hand out: the class's block. */
static uint8_t class_path_sl(const struct ot_routing *r, uint16_t slid,
			     uint16_t dlid)
{
	int c = class_of_dest(NULL, 0, 0, dlid);

	(void)r;
	return ot_qos_path_sl(&fx.q, &fx.engine, fx.t.cls[c].sl, slid, dlid);
}

/*
 * Every cabled port's low table as the plugin writes it for fx.t (with
 * emit, every VL an SL can leave the port on gets an entry; without, the
 * tables of before issue 21: only the VLs the flows use).
 */
static void build_tables_emit(bool emit)
{
	struct ot_error err = { 0 };
	struct ot_qos_entry e[64];
	unsigned int port, j, n;
	uint32_t i;

	ot_vlarb_free(fx.vt);
	fx.vt = ot_vlarb_new(fx.f);
	for (i = 0; i < fx.f->nnodes; i++)
		for (port = 1; port <= fx.f->node[i].nports; port++) {
			struct ot_vlarb_port *vp;

			if (fx.f->node[i].port[port].peer < 0)
				continue;
			vp = ot_vlarb_port(fx.vt, (int)i, port);
			ck_assert(!ot_qos_port_vlarb_emit(&fx.t, &fx.q, 8,
					ot_qos_port_flows(&fx.fl, (int)i, port),
					emit ? ot_qos_port_emit(fx.r, (int)i,
								port, 0x7fff) : 0,
					e, &n, &err));
			vp->read = true;
			vp->low_cap = vp->high_cap = 8;
			vp->op_vls = 8;
			for (j = 0; j < n; j++) {
				vp->low[j].vl = (uint8_t)e[j].who;
				vp->low[j].weight = (uint8_t)e[j].weight;
			}
		}
}

static void build_tables(void)
{
	build_tables_emit(true);
}

static void fixture_on(struct ot_fabric *f)
{
	struct ot_error err = { 0 };

	memset(&fx, 0, sizeof(fx));
	fx.f = f;
	parse_ok(classes, &fx.t);
	ck_assert(!ot_engine_run(ot_engine_find("ff-twisted-dor"), fx.f,
				 &fx.r, &err));
	ck_assert_msg(!ot_qos_layer(fx.r, &fx.t, 8, &fx.q, &err), "%s",
		      err.msg);
	fx.engine = *fx.r;
	fx.r->path_sl = class_path_sl;
	ck_assert(!ot_qos_flows_count(fx.r, &fx.t, &fx.q, class_of_dest, NULL,
				      &fx.fl, &err));
	ck_assert_uint_eq(fx.fl.lost, 0);
	build_tables();
}

static void fixture_seed(uint64_t seed)
{
	struct ot_flatfly_params p = { 0 };
	struct ot_error err = { 0 };
	struct ot_fabric *f;
	uint32_t i;
	p.ndims = 2;
	p.size[0] = 4;
	p.size[1] = 3;
	p.width[0] = 2;
	p.width[1] = 1;
	p.cas = 2;
	p.shuffle = true;
	p.seed = seed;
	f = ot_gen_flatfly(&p, &err);
	ck_assert_msg(f, "%s", err.msg);
	for (i = 0; i < f->nnodes; i++)
		f->node[i].guid = 0x1000 + i * 7919;
	ck_assert(!ot_fabric_set_ca_lmc(f, 0, &err));
	fixture_on(f);
}

static void fixture_up(void)
{
	fixture_seed(5);
}

static void fixture_down(void)
{
	fx.r->path_sl = fx.engine.path_sl;
	ot_vlarb_free(fx.vt);
	ot_qos_flows_free(&fx.fl);
	ot_routing_free(fx.r);
	ot_fabric_free(fx.f);
}

static struct ot_qos_check_report *run_check(void)
{
	struct ot_qos_check_opts o = { .table = &fx.t, .vlarb = fx.vt };
	struct ot_qos_check_report *q = NULL;
	struct ot_error err = { 0 };

	ck_assert_msg(!ot_qos_check_run(fx.r, &o, &q, &err), "%s", err.msg);
	return q;
}

/* A switch-to-switch port of node n where class c takes two VLs. */
static bool find_port(unsigned int c, int *node, unsigned int *port,
		      unsigned int *va, unsigned int *vb)
{
	uint32_t i;
	unsigned int p, v, k;

	for (i = 0; i < fx.f->nnodes; i++) {
		if (!ot_is_switch(fx.f, (int)i))
			continue;
		for (p = 1; p <= fx.f->node[i].nports; p++) {
			const uint32_t *cnt;

			if (fx.f->node[i].port[p].peer < 0)
				continue;
			cnt = ot_qos_port_flows(&fx.fl, (int)i, p);
			for (k = 0, v = 0; v < 16; v++)
				if (cnt[c * 16 + v])
					(k++ ? vb : va)[0] = v;
			if (k == 2) {
				*node = (int)i;
				*port = p;
				return true;
			}
		}
	}
	return false;
}

START_TEST(test_check_ok)
{
	struct ot_qos_check_report *q;
	const struct ot_qos_check_counts *c;

	q = run_check();
	c = ot_qos_check_counts(q);
	if (!ot_qos_check_ok(q))
		ot_qos_check_print(stderr, NULL, q, false);
	ck_assert_msg(ot_qos_check_ok(q),
		      "unread %lu no_entry %lu shared %lu share %lu split %lu loops %u miss %.4f",
		      (unsigned long)c->unread, (unsigned long)c->no_entry,
		      (unsigned long)c->shared_vl,
		      (unsigned long)c->share_miss,
		      (unsigned long)c->split_miss, c->loop_classes,
		      c->worst_miss);
	ck_assert_uint_gt(c->ports, fx.f->nswitches);
	ck_assert_uint_eq(c->differs, 0);
	ck_assert_uint_eq(c->uncomputed, 0);
	ck_assert(c->worst_miss <= OT_QOS_SHARE_TOLERANCE);
	ot_qos_check_free(q);
}
END_TEST

/* Shares that are no simple ratio, other MTUs: still within 1%. */
START_TEST(test_check_ok_other_shares)
{
	static const char other[] =
		"arbiter gmtu 4096 w 4 k 2\n"
		"class latency sl 4 share 13% distance 2 mtu 512\n"
		"class compute sl 0 share 47% distance 4 mtu 1024\n"
		"class bulk    sl 7 share 40% distance 4\n";
	struct ot_qos_check_report *q;

	parse_ok(other, &fx.t);
	build_tables();
	q = run_check();
	ck_assert(ot_qos_check_ok(q));
	ck_assert(ot_qos_check_counts(q)->worst_miss <= OT_QOS_SHARE_TOLERANCE);
	ck_assert_uint_eq(ot_qos_check_counts(q)->differs, 0);
	ot_qos_check_free(q);
}
END_TEST

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Each switch's tables and shares as text, by node description, its
 * ports in sorted order: what must not depend on port numbering.
 */
static char *fabric_text(void)
{
	struct ot_qos_check_report *q = run_check();
	char *line[4096], *out, buf[256];
	unsigned int p, c, j, n = 0;
	size_t len = 1;
	uint32_t i;

	for (i = 0; i < fx.f->nnodes; i++)
		for (p = 1; p <= fx.f->node[i].nports; p++) {
			const struct ot_vlarb_port *vp =
				ot_vlarb_get(fx.vt, (int)i, p);
			int k;

			if (!vp)
				continue;
			k = snprintf(buf, sizeof(buf), "%s/%u:",
				     fx.f->node[i].desc, p);
			for (j = 0; j < 8; j++)
				k += snprintf(buf + k, sizeof(buf) - k, " %u/%u",
					      vp->low[j].vl, vp->low[j].weight);
			for (c = 0; c < 3; c++)
				k += snprintf(buf + k, sizeof(buf) - k, " %.4f",
					      ot_qos_check_share(q, (int)i, p, c));
			ck_assert_uint_lt(n, 4096);
			line[n] = strdup(buf);
			len += strlen(buf) + 1;
			n++;
		}
	ot_qos_check_free(q);
	qsort(line, n, sizeof(*line), cmp_str);
	out = calloc(1, len);
	for (j = 0; j < n; j++) {
		strcat(out, line[j]);
		strcat(out, "\n");
		free(line[j]);
	}
	return out;
}

/* fx.f with its nodes listed backwards (so other LIDs), same cables. */
static struct ot_fabric *reversed(void)
{
	struct ot_fabric *g = ot_fabric_new();
	struct ot_error err = { 0 };
	uint32_t n = fx.f->nnodes, i;
	unsigned int p;

	for (i = 0; i < n; i++) {
		const struct ot_node *nd = &fx.f->node[n - 1 - i];

		ck_assert_int_eq(ot_fabric_add_node(g, nd->type, nd->nports,
						    nd->guid, nd->desc, &err),
				 (int)i);
	}
	for (i = 0; i < n; i++)
		for (p = 1; p <= g->node[i].nports; p++) {
			const struct ot_port *pt = &fx.f->node[n - 1 - i].port[p];

			if (pt->peer >= 0)
				ck_assert(!ot_fabric_link(g, (int)i, p,
						(int)(n - 1 - (uint32_t)pt->peer),
						pt->peer_port, &err));
		}
	ot_fabric_assign_lids(g);
	ck_assert_msg(!ot_fabric_index(g, &err), "%s", err.msg);
	return g;
}

/* Listed in another order, with other LIDs: the same tables and shares. */
START_TEST(test_tables_node_order_free)
{
	char *a = fabric_text(), *b;
	struct ot_fabric *g = reversed();

	fixture_down();
	fixture_on(g);
	b = fabric_text();
	if (strcmp(a, b)) {
		FILE *fa = fopen("qoscheck-a.txt", "w"), *fb = fopen("qoscheck-b.txt", "w");

		fputs(a, fa);
		fputs(b, fb);
		fclose(fa);
		fclose(fb);
	}
	ck_assert_msg(!strcmp(a, b), "tables differ: see qoscheck-[ab].txt");
	free(a);
	free(b);
}
END_TEST

START_TEST(test_check_no_entry)
{
	struct ot_qos_check_report *q;
	struct ot_vlarb_port *vp;
	unsigned int port, va, vb, j;
	int node;

	ck_assert(find_port(1, &node, &port, &va, &vb));
	vp = ot_vlarb_port(fx.vt, node, port);
	for (j = 0; j < 8; j++)
		if (vp->low[j].vl == vb)
			vp->low[j].weight = 0;
	q = run_check();
	ck_assert(!ot_qos_check_ok(q));
	ck_assert_uint_eq(ot_qos_check_counts(q)->no_entry, 1);
	ck_assert_uint_eq(ot_qos_check_counts(q)->differs, 1);
	ot_qos_check_free(q);
}
END_TEST

/*
 * Issue 21 item 6: tables that serve only the VLs the flows use leave
 * VLs a port's SL2VL sends for an SL in use without an entry; the check
 * fails on them (unserved_vl), and passes on the tables the plugin now
 * writes.
 */
START_TEST(test_check_unserved_vl)
{
	struct ot_qos_check_report *q;

	build_tables_emit(false);
	q = run_check();
	ck_assert(!ot_qos_check_ok(q));
	ck_assert_uint_gt(ot_qos_check_counts(q)->unserved_vl, 0);
	ck_assert_uint_eq(ot_qos_check_counts(q)->no_entry, 0);
	ot_qos_check_free(q);
	build_tables_emit(true);
	q = run_check();
	ck_assert(ot_qos_check_ok(q));
	ck_assert_uint_eq(ot_qos_check_counts(q)->unserved_vl, 0);
	ot_qos_check_free(q);
}
END_TEST

/* A port whose tables were not read cannot be vouched for. */
START_TEST(test_check_unread)
{
	struct ot_qos_check_report *q;
	unsigned int port, va, vb;
	int node;

	ck_assert(find_port(1, &node, &port, &va, &vb));
	ot_vlarb_port(fx.vt, node, port)->read = false;
	q = run_check();
	ck_assert(!ot_qos_check_ok(q));
	ck_assert_uint_eq(ot_qos_check_counts(q)->unread, 1);
	ck_assert_uint_eq(ot_qos_check_counts(q)->share_miss, 0);
	ot_qos_check_free(q);
}
END_TEST

START_TEST(test_check_shared_vl)
{
	struct ot_qos_check_report *q;
	unsigned int port, va, vb, in, out, np, bulk_sl = 2;
	int node;

	/* bulk's SL (layer block 2) onto compute's VLs on one switch */
	ck_assert(find_port(2, &node, &port, &va, &vb));
	np = fx.f->node[node].nports;
	for (in = 0; in <= np; in++)
		for (out = 0; out <= np; out++)
			fx.r->sl2vl[node][ot_sl2vl_index(np, in, out, bulk_sl)] -= 2;
	q = run_check();
	ck_assert(!ot_qos_check_ok(q));
	ck_assert_uint_gt(ot_qos_check_counts(q)->shared_vl, 0);
	ot_qos_check_free(q);
}
END_TEST

START_TEST(test_check_share_miss)
{
	struct ot_qos_check_report *q;
	struct ot_vlarb_port *vp;
	unsigned int port, va, vb, j;
	int node;

	/* latency (4-unit packets) given twice its weight on one port */
	ck_assert(find_port(1, &node, &port, &va, &vb));
	vp = ot_vlarb_port(fx.vt, node, port);
	for (j = 0; j < 8; j++)
		if (vp->low[j].vl < 2)
			vp->low[j].weight = (uint8_t)(vp->low[j].weight * 2);
	q = run_check();
	ck_assert(!ot_qos_check_ok(q));
	ck_assert_uint_ge(ot_qos_check_counts(q)->share_miss, 1);
	ck_assert_uint_eq(ot_qos_check_counts(q)->no_entry, 0);
	ot_qos_check_free(q);
}
END_TEST

START_TEST(test_check_split)
{
	struct ot_qos_check_report *q;
	struct ot_vlarb_port *vp;
	unsigned int port, va, vb, j, x;
	const uint32_t *cnt;
	int node;

	/* compute's VL with more flows gets one packet, the other seven */
	ck_assert(find_port(1, &node, &port, &va, &vb));
	cnt = ot_qos_port_flows(&fx.fl, node, port);
	if (cnt[16 + va] < cnt[16 + vb]) {
		x = va;
		va = vb;
		vb = x;
	}
	vp = ot_vlarb_port(fx.vt, node, port);
	for (j = 0; j < 8; j++) {
		if (vp->low[j].vl == va)
			vp->low[j].weight = 32;
		if (vp->low[j].vl == vb)
			vp->low[j].weight = 224;
	}
	q = run_check();
	ck_assert(!ot_qos_check_ok(q));
	ck_assert_uint_eq(ot_qos_check_counts(q)->split_miss, 1);
	ot_qos_check_free(q);
}
END_TEST

/*
 * Three switches in a ring, a CA each, every path clockwise on VL 0: the
 * class's channels wait on each other around the ring.
 */
START_TEST(test_check_credit_loop)
{
	struct ot_qos_check_opts o = { .table = &fx.t };
	struct ot_qos_check_report *q = NULL;
	struct ot_error err = { 0 };
	struct ot_routing *r;
	struct ot_fabric *f = ot_fabric_new();
	int s[3], c[3], i, k;

	for (i = 0; i < 3; i++) {
		s[i] = ot_fabric_add_node(f, OT_NODE_SWITCH, 3, 0x100 + i,
					  "sw", &err);
		c[i] = ot_fabric_add_node(f, OT_NODE_CA, 1, 0x200 + i, "ca",
					  &err);
		ck_assert(!ot_fabric_link(f, s[i], 1, c[i], 1, &err));
	}
	for (i = 0; i < 3; i++)
		ck_assert(!ot_fabric_link(f, s[i], 2, s[(i + 1) % 3], 3,
					  &err));
	ot_fabric_assign_lids(f);
	ck_assert_msg(!ot_fabric_index(f, &err), "%s", err.msg);
	r = ot_routing_new(f);
	for (i = 0; i < 3; i++)
		for (k = 0; k < 3; k++)
			r->lft[s[i]][f->node[c[k]].port[1].lid] =
				(uint8_t)(k == i ? 1 : 2);
	ck_assert(!ot_qos_check_run(r, &o, &q, &err));
	ck_assert(!ot_qos_check_ok(q));
	ck_assert_uint_eq(ot_qos_check_counts(q)->loop_classes, 1);
	ot_qos_check_free(q);
	/* the same ring routed the short way round: no loop */
	for (i = 0; i < 3; i++)
		r->lft[s[i]][f->node[c[(i + 2) % 3]].port[1].lid] = 3;
	ck_assert(!ot_qos_check_run(r, &o, &q, &err));
	ck_assert_uint_eq(ot_qos_check_counts(q)->loop_classes, 0);
	ot_qos_check_free(q);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST
static Suite *qoscheck_suite(void)
{
	Suite *s = suite_create("qoscheck");
	TCase *tc = tcase_create("arbiter");
	TCase *ck = tcase_create("check");

	tcase_add_test(tc, test_arbiter_low_table);
	tcase_add_test(tc, test_arbiter_whole_packets);
	tcase_add_test(tc, test_arbiter_high_limit);
	tcase_add_test(tc, test_port_vlarb_flows);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(ck, fixture_up, fixture_down);
	tcase_add_test(ck, test_check_ok);
	tcase_add_test(ck, test_check_ok_other_shares);
	tcase_add_test(ck, test_tables_node_order_free);
	tcase_add_test(ck, test_check_no_entry);
	tcase_add_test(ck, test_check_unread);
	tcase_add_test(ck, test_check_unserved_vl);
	tcase_add_test(ck, test_check_shared_vl);
	tcase_add_test(ck, test_check_share_miss);
	tcase_add_test(ck, test_check_split);
	tcase_add_test(ck, test_check_credit_loop);
	suite_add_tcase(s, ck);
	return s;
}

OT_UNIT_MAIN(qoscheck_suite)
