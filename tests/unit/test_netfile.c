// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Tests of the fabric's text forms and of the KNS generator: net files and
 * ibnetdiscover output read into the model with the GUIDs ibsim serves,
 * written back unchanged, generated KNS fabrics of the right shape, and
 * LFTs in dump_lfts format.  These are the inputs and outputs of the whole
 * flow, so a mistake here shows up as a wrong fabric everywhere else.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"
#include "io/lftfile.h"
#include "io/netfile.h"
#include "io/pathslfile.h"
#include "model/pathsl.h"
#include "model/routing.h"
#include "unit.h"

static char *data_path(const char *file)
{
	const char *dir = getenv("srcdir");
	size_t len;
	char *p;

	if (!dir)
		dir = ".";
	len = strlen(dir) + strlen(file) + 16;
	p = malloc(len);
	ck_assert_ptr_nonnull(p);
	snprintf(p, len, "%s/tests/data/%s", dir, file);
	return p;
}

static struct ot_fabric *load_data(const char *file)
{
	struct ot_error err = { 0 };
	struct ot_fabric *f;
	char *path = data_path(file);

	f = ot_netfile_load(path, &err);
	ck_assert_msg(f, "%s: %s", path, err.msg);
	free(path);
	return f;
}

static struct ot_fabric *read_string(const char *text, struct ot_error *err)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	struct ot_fabric *f;

	ck_assert_ptr_nonnull(in);
	f = ot_netfile_read(in, "t.net", err);
	fclose(in);
	return f;
}

static char *write_string(const struct ot_fabric *f, const char *comment)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(ot_netfile_write(out, f, comment), 0);
	fclose(out);
	return buf;
}

static int find_desc(const struct ot_fabric *f, const char *desc)
{
	uint32_t i;

	for (i = 0; i < f->nnodes; i++)
		if (!strcmp(f->node[i].desc, desc))
			return i;
	ck_abort_msg("no node \"%s\"", desc);
	return -1;
}

static int find_guid(const struct ot_fabric *f, uint64_t guid)
{
	uint32_t i;

	for (i = 0; i < f->nnodes; i++)
		if (f->node[i].guid == guid)
			return i;
	return -1;
}

/*
 * a and b are the same fabric: nodes matched by GUID (the writer may put
 * another node first), same types, descs, ports, cables, port GUIDs and
 * LIDs.
 */
static void assert_same_fabric(const struct ot_fabric *a,
			       const struct ot_fabric *b)
{
	uint32_t i;
	unsigned int p;

	ck_assert_uint_eq(a->nnodes, b->nnodes);
	ck_assert_uint_eq(a->max_lid, b->max_lid);
	for (i = 0; i < a->nnodes; i++) {
		const struct ot_node *x = &a->node[i];
		int j = find_guid(b, x->guid);
		const struct ot_node *y;

		ck_assert_msg(j >= 0, "GUID 0x%" PRIx64 " (%s) lost", x->guid,
			      x->desc);
		y = &b->node[j];
		ck_assert_int_eq(x->type, y->type);
		ck_assert_uint_eq(x->nports, y->nports);
		ck_assert_str_eq(x->desc, y->desc);
		for (p = 0; p <= x->nports; p++) {
			const struct ot_port *xp = &x->port[p];
			const struct ot_port *yp = &y->port[p];

			ck_assert_uint_eq(xp->lid, yp->lid);
			ck_assert_uint_eq(xp->lmc, yp->lmc);
			ck_assert_uint_eq(xp->guid, yp->guid);
			ck_assert_int_eq(xp->peer < 0, yp->peer < 0);
			if (xp->peer < 0)
				continue;
			ck_assert_uint_eq(a->node[xp->peer].guid,
					  b->node[yp->peer].guid);
			ck_assert_uint_eq(xp->peer_port, yp->peer_port);
		}
	}
}

static struct ot_fabric *round_trip(const struct ot_fabric *f)
{
	struct ot_error err = { 0 };
	char *text = write_string(f, "round trip\nsecond line");
	struct ot_fabric *g = read_string(text, &err);

	ck_assert_msg(g, "%s\n%s", err.msg, text);
	free(text);
	return g;
}

/* ---------------------------------------------------------------------- */

START_TEST(test_read_ibsim_style)
{
	struct ot_fabric *f = load_data("net-small.net");
	int h1 = find_desc(f, "host1"), h2 = find_desc(f, "host2");
	int h3 = find_desc(f, "host3"), h4 = find_desc(f, "host4");
	int s1 = find_desc(f, "leaf one"), s2 = find_desc(f, "sw2");
	uint32_t i;

	ck_assert_uint_eq(f->nnodes, 6);
	ck_assert_uint_eq(f->nswitches, 2);
	ck_assert_uint_eq(f->ncas, 4);
	/* GUIDs as ibsim gives them (compare tests/data/ibnd-small.txt) */
	ck_assert_uint_eq(f->node[h1].guid, 0x100000);
	ck_assert_uint_eq(f->node[h1].port[2].guid, 0x100002);
	ck_assert_uint_eq(f->node[h2].guid, 0x100003);
	ck_assert_uint_eq(f->node[h3].guid, 0x200100); /* caguid= line */
	ck_assert_uint_eq(f->node[h4].guid, 0x200102);
	ck_assert_uint_eq(f->node[s1].guid, 0x200000);
	ck_assert_uint_eq(f->node[s1].port[5].guid, 0x200000);
	ck_assert_uint_eq(f->node[s2].guid, 0x200001);
	ck_assert_uint_eq(f->node[s1].nports, 8);
	ck_assert_uint_eq(f->node[h4].nports, 2);
	/* "[5] "host2"" has no remote port: it is 1 */
	ck_assert_int_eq(f->node[s1].port[5].peer, h2);
	ck_assert_uint_eq(f->node[s1].port[5].peer_port, 1);
	ck_assert_int_eq(f->node[s1].port[4].peer, s2);
	ck_assert_int_eq(f->node[h4].port[2].peer, -1);
	/* no LIDs in the file: every switch and cabled CA port gets one */
	for (i = 0; i < f->nnodes; i++) {
		const struct ot_node *n = &f->node[i];

		if (n->type == OT_NODE_SWITCH)
			ck_assert_uint_ne(n->port[0].lid, 0);
		else
			ck_assert_uint_ne(n->port[1].lid, 0);
	}
	ck_assert_uint_eq(f->node[h4].port[2].lid, 0);
	ot_fabric_free(f);
}
END_TEST

START_TEST(test_read_ibnetdiscover)
{
	struct ot_fabric *f = load_data("ibnd-small.txt");
	struct ot_fabric *net = load_data("net-small.net");
	int h1 = find_guid(f, 0x100000), h4 = find_guid(f, 0x200102);
	int s1 = find_guid(f, 0x200000), s2 = find_guid(f, 0x200001);
	uint32_t i;
	unsigned int p;

	ck_assert_int_ge(h1, 0);
	ck_assert_int_ge(h4, 0);
	ck_assert_int_ge(s1, 0);
	ck_assert_int_ge(s2, 0);
	ck_assert_str_eq(f->node[s1].desc, "leaf one");
	ck_assert_str_eq(f->node[h1].desc, "host1");
	ck_assert_uint_eq(f->node[s1].port[0].lid, 4);
	ck_assert_uint_eq(f->node[s2].port[0].lid, 5);
	ck_assert_uint_eq(f->node[h1].port[1].lid, 2);
	ck_assert_uint_eq(f->node[h1].port[1].lmc, 1);
	ck_assert_uint_eq(f->node[h1].port[2].lid, 8);
	ck_assert_uint_eq(f->node[h4].port[1].lid, 10);
	ck_assert_uint_eq(f->node[h4].port[1].guid, 0x200103);
	ck_assert_uint_eq(f->max_lid, 13);
	ck_assert_int_eq(ot_fabric_lid_node(f, 13), find_guid(f, 0x100003));
	ck_assert_int_eq(ot_fabric_lid_node(f, 1), -1);

	/* the net file read offline is the fabric ibsim served */
	ck_assert_uint_eq(f->nnodes, net->nnodes);
	for (i = 0; i < net->nnodes; i++) {
		const struct ot_node *x = &net->node[i];
		int j = find_guid(f, x->guid);

		ck_assert_msg(j >= 0, "%s: GUID 0x%" PRIx64 " not served",
			      x->desc, x->guid);
		ck_assert_str_eq(x->desc, f->node[j].desc);
		ck_assert_int_eq(x->type, f->node[j].type);
		for (p = 1; p <= x->nports; p++) {
			const struct ot_port *xp = &x->port[p];
			const struct ot_port *yp = &f->node[j].port[p];

			ck_assert_uint_eq(xp->guid, yp->guid);
			ck_assert_int_eq(xp->peer < 0, yp->peer < 0);
			if (xp->peer >= 0)
				ck_assert_uint_eq(net->node[xp->peer].guid,
						  f->node[yp->peer].guid);
		}
	}
	ot_fabric_free(f);
	ot_fabric_free(net);
}
END_TEST

START_TEST(test_round_trip_files)
{
	static const char *const files[] = { "net-small.net",
					      "ibnd-small.txt" };
	unsigned int i;

	for (i = 0; i < 2; i++) {
		struct ot_fabric *f = load_data(files[i]);
		struct ot_fabric *g = round_trip(f);

		assert_same_fabric(f, g);
		ot_fabric_free(f);
		ot_fabric_free(g);
	}
}
END_TEST

/* Duplicate descs force "S-<guid>" ids; odd GUIDs force guid lines. */
START_TEST(test_round_trip_hand_made)
{
	struct ot_error err = { 0 };
	struct ot_fabric *f = ot_fabric_new(), *g;
	int sw, sw2, ca, ca2;
	unsigned int p;
	char *text;

	sw = ot_fabric_add_node(f, OT_NODE_SWITCH, 36, 0xabc0000001ull,
				"spine \"A\"", &err);
	sw2 = ot_fabric_add_node(f, OT_NODE_SWITCH, 4, 0x77, "same", &err);
	ca = ot_fabric_add_node(f, OT_NODE_CA, 2, 0x5000, "same", &err);
	ca2 = ot_fabric_add_node(f, OT_NODE_CA, 1, 0, "", &err);
	ck_assert_int_ge(ca2, 0);
	for (p = 0; p <= 36; p++)
		f->node[sw].port[p].guid = 0xabc0000001ull;
	for (p = 0; p <= 4; p++)
		f->node[sw2].port[p].guid = 0x77;
	ck_assert_int_eq(ot_fabric_link(f, sw, 36, ca, 2, &err), 0);
	ck_assert_int_eq(ot_fabric_link(f, sw, 1, sw2, 1, &err), 0);
	ck_assert_int_eq(ot_fabric_link(f, sw, 2, sw2, 2, &err), 0);
	ck_assert_int_eq(ot_fabric_link(f, sw2, 3, ca2, 1, &err), 0);
	ck_assert_int_eq(ot_fabric_link(f, sw2, 4, ca, 1, &err), 0);
	f->node[ca].port[1].guid = 0x9999; /* not node GUID + 1 */
	f->node[ca].port[2].guid = 0x5002;
	ck_assert_int_eq(ot_fabric_set_lid(f, sw, 0, 7, 0, &err), 0);
	ck_assert_int_eq(ot_fabric_set_lid(f, ca, 1, 16, 2, &err), 0);
	ck_assert_int_eq(ot_fabric_set_lid(f, ca, 2, 20, 2, &err), 0);
	ot_fabric_assign_lids(f);
	ck_assert_int_eq(ot_fabric_index(f, &err), 0);

	text = write_string(f, NULL);
	ck_assert_ptr_nonnull(strstr(text, "\"S-0000000000000077\""));
	ck_assert_ptr_nonnull(strstr(text, "switchguid=0xabc0000001\n"));
	ck_assert_ptr_nonnull(strstr(text, "[1](9999)"));
	/* the CA that ibsim attaches OpenSM to comes first */
	ck_assert_ptr_nonnull(strstr(text, "\n\ncaguid=0x5000\nCa\t2 "));
	free(text);

	g = round_trip(f);
	/* a quote cannot live in a quoted desc: it comes back as ' */
	ck_assert_str_eq(g->node[find_guid(g, 0xabc0000001ull)].desc,
			 "spine 'A'");
	free(f->node[sw].desc);
	f->node[sw].desc = strdup("spine 'A'");
	/*
	 * A node without GUID gets the one ibsim gives it: the CA count
	 * goes on from the first CA's caguid= line.  Without desc, it is
	 * named by its id.
	 */
	ck_assert_str_eq(g->node[find_guid(g, 0x5003)].desc,
			 "H-0000000000005003");
	free(f->node[ca2].desc);
	f->node[ca2].desc = strdup("H-0000000000005003");
	f->node[ca2].guid = 0x5003;
	f->node[ca2].port[1].guid = 0x5004;
	assert_same_fabric(f, g);
	ot_fabric_free(f);
	ot_fabric_free(g);
}
END_TEST

/* A generated fabric gets ibsim's GUIDs on first reading, then is stable. */
START_TEST(test_round_trip_generated)
{
	struct ot_kns_params p = { .k = 3, .n = 2, .cas = 2, .links = 2,
				   .shuffle = true, .seed = 5 };
	struct ot_error err = { 0 };
	struct ot_fabric *gen = ot_gen_kns(&p, &err), *f, *g;

	ck_assert_msg(gen, "%s", err.msg);
	f = round_trip(gen);
	ck_assert_uint_eq(f->nnodes, gen->nnodes);
	ck_assert_uint_eq(find_guid(f, 0x100000) >= 0, 1);
	ck_assert_uint_eq(find_guid(f, 0x200000) >= 0, 1);
	g = round_trip(f);
	assert_same_fabric(f, g);
	ot_fabric_free(gen);
	ot_fabric_free(f);
	ot_fabric_free(g);
}
END_TEST

/* ---------------------------------------------------------------------- */

static void assert_read_error(const char *text, const char *expect)
{
	struct ot_error err = { 0 };
	struct ot_fabric *f = read_string(text, &err);

	ck_assert_msg(!f, "accepted:\n%s", text);
	ck_assert_msg(strstr(err.msg, expect), "error \"%s\", expected \"%s\"",
		      err.msg, expect);
}

START_TEST(test_read_errors)
{
	assert_read_error("Switch 4 \"s\"\n"
			  "[5] \"c\"[1]\n"
			  "\n"
			  "Ca 1 \"c\"\n"
			  "[1] \"s\"[5]\n",
			  "t.net:2: port 5 out of range");
	assert_read_error("Switch 4 \"s\"\n"
			  "[1] \"c\"[1]\n"
			  "[2] \"c\"[1]\n"
			  "\n"
			  "Ca 1 \"c\"\n"
			  "[1] \"s\"[1]\n",
			  "t.net:3: ");
	assert_read_error("Switch 4 \"s\"\n"
			  "[1] \"c\"[1]\n"
			  "\n"
			  "Switch 4 \"t\"\n"
			  "[1] \"c\"[1]\n"
			  "\n"
			  "Ca 1 \"c\"\n",
			  "t.net:5: ");
	assert_read_error("Switch 4 \"s\"\n"
			  "[1] \"c\"[1]\n"
			  "\n"
			  "Ca 1 \"c\"\n"
			  "[1] \"t\"[1]\n",
			  "t.net:2: \"s\"[1] cabled to \"c\"[1], but line 5");
	assert_read_error("Switch 4 \"s\"\n"
			  "[1] \"c\"[1]\n"
			  "[2] \"nobody\"[1]\n"
			  "\n"
			  "Ca 1 \"c\"\n",
			  "t.net:3: unknown node \"nobody\"");
	assert_read_error("Switch 4 \"s\"\n"
			  "[1] \"c\"[3]\n"
			  "\n"
			  "Ca 1 \"c\"\n",
			  "t.net:2: \"c\" has no port 3");
	assert_read_error("Switch 4 \"s\"\n"
			  "\n"
			  "Switch 4 \"s\"\n",
			  "t.net:3: node \"s\" declared twice");
	assert_read_error("Switch 4 \"s\"\n"
			  "[1] \"c\" [1]\n"
			  "\n"
			  "Ca 1 \"c\"\n",
			  "t.net:2: space between");
	assert_read_error("\n"
			  "\n"
			  "[1] \"c\"[1]\n",
			  "t.net:3: port line outside");
	/* a node type misspelt: its own line, the word named */
	assert_read_error("Ca 1 \"c\"\n"
			  "[1] \"s\"[1]\n"
			  "\n"
			  "Swtch 4 \"s\"\n"
			  "[1] \"c\"[1]\n",
			  "t.net:4: unknown node type \"Swtch\"");
	/* a line read as nothing, then port lines: that line is named */
	assert_read_error("Ca 1 \"c\"\n"
			  "[1] \"s\"[1]\n"
			  "\n"
			  "Sw \"s\" 4\n"
			  "[1] \"c\"[1]\n",
			  "t.net:5: port line outside a node record (line 4, \"Sw ...\"");
	assert_read_error("switchguid=0x10\n"
			  "Switch 2 \"a\"\n"
			  "switchguid=0x10\n"
			  "Switch 2 \"b\"\n",
			  "t.net:4: node \"b\" has GUID 0x0000000000000010");
	assert_read_error("Switch 0 \"a\"\n",
			  "t.net:1: ");
	assert_read_error("# nothing\n",
			  "no nodes");
}
END_TEST

START_TEST(test_read_one_sided_and_guid_lines)
{
	struct ot_error err = { 0 };
	struct ot_fabric *f;

	/*
	 * A cable declared on one end only is refused, naming the line and
	 * the record without it (ibsim 0.10 refuses it too).
	 */
	assert_read_error("Ca 1 \"c\"\n"
			  "[1] \"s\"[3]\n"
			  "\n"
			  "Switch 4 \"s\"\n",
			  "t.net:2: \"c\"[1] is cabled to \"s\"[3], but the record of \"s\" (line 4) has no port 3 line");
	/* caguid+N is relative */
	f = read_string("caguid=0x1000\n"
			"caguid+0x10\n"
			"Ca 1 \"c\"\n"
			"[1] \"s\"[3]\n"
			"\n"
			"Switch 4 \"s\"  # \"my switch\" enhanced port 0 lid 9 lmc 0\n"
			"[3] \"c\"[1]\n"
			"[4] \"r\"[2]\n"
			"\n"
			"Rt 2 \"r\"\n"
			"[2](abc) \"s\"[4]\t# lid 12 lmc 0 \"my switch\" lid 9 4xSDR\n",
			&err);
	ck_assert_msg(f, "%s", err.msg);
	ck_assert_uint_eq(f->node[0].guid, 0x1010);
	ck_assert_int_eq(f->node[0].port[1].peer, 1);
	ck_assert_uint_eq(f->node[1].port[3].peer_port, 1);
	ck_assert_str_eq(f->node[1].desc, "my switch");
	ck_assert_uint_eq(f->node[1].port[0].lid, 9);
	ck_assert_int_eq(f->node[2].type, OT_NODE_ROUTER);
	ck_assert_uint_eq(f->node[2].guid, 0); /* ibsim's router count */
	ck_assert_uint_eq(f->node[2].port[2].guid, 0xabc);
	ck_assert_uint_eq(f->node[2].port[2].lid, 12);
	ot_fabric_free(f);
}
END_TEST

/* ---------------------------------------------------------------------- */

/* Checks the shape of a KNS and returns the number of cables. */
static unsigned int check_kns_shape(const struct ot_fabric *f,
				    const struct ot_kns_params *p,
				    unsigned int radix)
{
	unsigned int routers = 1, i, cables = 0, nrouters = 0, nsw = 0;
	uint32_t n;

	for (i = 0; i < p->n; i++)
		routers *= p->k;
	ck_assert_uint_eq(f->nnodes, routers + p->n * routers / p->k +
					     routers * p->cas);
	for (n = 0; n < f->nnodes; n++) {
		const struct ot_node *x = &f->node[n];
		unsigned int cas = 0, sw = 0, q;

		for (q = 1; q <= x->nports; q++) {
			const struct ot_port *pt = &x->port[q];

			if (pt->peer < 0)
				continue;
			cables++;
			if (f->node[pt->peer].type == OT_NODE_CA)
				cas++;
			else
				sw++;
		}
		if (x->type == OT_NODE_CA) {
			ck_assert_uint_eq(x->nports, 1);
			ck_assert_uint_eq(sw, 1);
			ck_assert_int_eq(x->desc[0], 'C');
			continue;
		}
		ck_assert_uint_eq(x->nports, radix);
		if (x->desc[0] == 'R') {
			nrouters++;
			ck_assert_uint_eq(cas, p->cas);
			ck_assert_uint_eq(sw, p->n * p->links);
		} else {
			nsw++;
			ck_assert_int_eq(x->desc[0], 'S');
			ck_assert_uint_eq(cas, 0);
			ck_assert_uint_eq(sw, p->k * p->links);
		}
	}
	ck_assert_uint_eq(nrouters, routers);
	ck_assert_uint_eq(nsw, p->n * routers / p->k);
	ck_assert_uint_eq(cables % 2, 0);
	ck_assert_uint_eq(cables / 2,
			  routers * p->cas + routers * p->n * p->links);
	return cables / 2;
}

START_TEST(test_gen_kns_counts)
{
	static const struct {
		unsigned int k, n, cas, links, radix, expect_radix;
	} cases[] = {
		{ 6, 2, 1, 1, 8, 8 },   /* CELLIA */
		{ 6, 2, 1, 1, 0, 6 },   /* default: a switch needs 6 */
		{ 4, 3, 1, 1, 8, 8 },
		{ 3, 3, 2, 1, 0, 5 },   /* a router needs 3 + 2 */
		{ 5, 1, 3, 1, 0, 5 },   /* n = 1: one switch */
		{ 2, 1, 1, 2, 0, 4 },
		{ 8, 2, 4, 2, 16, 16 },
		{ 2, 4, 1, 1, 0, 5 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ot_kns_params p = {
			.k = cases[i].k, .n = cases[i].n, .cas = cases[i].cas,
			.links = cases[i].links, .radix = cases[i].radix,
		};
		struct ot_error err = { 0 };
		struct ot_fabric *f = ot_gen_kns(&p, &err);

		ck_assert_msg(f, "case %u: %s", i, err.msg);
		check_kns_shape(f, &p, cases[i].expect_radix);
		ot_fabric_free(f);
	}
}
END_TEST

static bool cabled(const struct ot_fabric *f, int a, int b)
{
	unsigned int p;

	for (p = 1; p <= f->node[a].nports; p++)
		if (f->node[a].port[p].peer == b)
			return true;
	return false;
}

START_TEST(test_gen_kns_names_and_ports)
{
	struct ot_kns_params p = { .k = 6, .n = 2, .cas = 1, .links = 1,
				   .radix = 8 };
	struct ot_error err = { 0 };
	struct ot_fabric *f = ot_gen_kns(&p, &err);
	int r42, r000;

	ck_assert_ptr_nonnull(f);
	/* the seed's example: R[4,2] hangs off switches [0,4] and [1,2] */
	r42 = find_desc(f, "R[4,2]");
	ck_assert(cabled(f, r42, find_desc(f, "S[0,4]")));
	ck_assert(cabled(f, r42, find_desc(f, "S[1,2]")));
	ck_assert(cabled(f, r42, find_desc(f, "CA[4,2]/0")));
	/* unshuffled: CA on port 1, then dimension 0, then dimension 1 */
	ck_assert_int_eq(f->node[r42].port[1].peer, find_desc(f, "CA[4,2]/0"));
	ck_assert_int_eq(f->node[r42].port[2].peer, find_desc(f, "S[0,4]"));
	ck_assert_int_eq(f->node[r42].port[3].peer, find_desc(f, "S[1,2]"));
	ck_assert_uint_eq(f->node[r42].port[2].peer_port, 3); /* c0 = 2 */
	ck_assert_uint_eq(f->node[r42].port[3].peer_port, 5); /* c1 = 4 */
	ot_fabric_free(f);

	p = (struct ot_kns_params){ .k = 3, .n = 3, .cas = 1, .links = 2 };
	f = ot_gen_kns(&p, &err);
	ck_assert_ptr_nonnull(f);
	r000 = find_desc(f, "R[2,1,0]");
	/* the other coordinates as one number, c(n-1) most significant */
	ck_assert(cabled(f, r000, find_desc(f, "S[0,7]"))); /* [2,1] */
	ck_assert(cabled(f, r000, find_desc(f, "S[1,6]"))); /* [2,0] */
	ck_assert(cabled(f, r000, find_desc(f, "S[2,3]"))); /* [1,0] */
	ot_fabric_free(f);
}
END_TEST

/* neighbour descs of a node, sorted, one string */
static char *neighbourhood(const struct ot_fabric *f, int n)
{
	const char *names[256];
	unsigned int p, cnt = 0, i, j;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	for (p = 1; p <= f->node[n].nports; p++)
		if (f->node[n].port[p].peer >= 0)
			names[cnt++] = f->node[f->node[n].port[p].peer].desc;
	for (i = 1; i < cnt; i++)
		for (j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			const char *t = names[j];

			names[j] = names[j - 1];
			names[j - 1] = t;
		}
	for (i = 0; i < cnt; i++)
		fprintf(out, "%s;", names[i]);
	fclose(out);
	return buf;
}

START_TEST(test_gen_kns_shuffle)
{
	struct ot_kns_params p = { .k = 4, .n = 3, .cas = 2, .links = 2,
				   .radix = 12 };
	struct ot_error err = { 0 };
	struct ot_fabric *plain = ot_gen_kns(&p, &err), *s1, *s2, *s3;
	unsigned int moved = 0, reordered = 0;
	char *t1, *t2, *t3;
	uint32_t i;

	ck_assert_ptr_nonnull(plain);
	p.shuffle = true;
	p.seed = 42;
	s1 = ot_gen_kns(&p, &err);
	s2 = ot_gen_kns(&p, &err);
	p.seed = 43;
	s3 = ot_gen_kns(&p, &err);
	ck_assert(s1 && s2 && s3);
	check_kns_shape(s1, &p, 12);
	/* the same graph: every node has the same neighbours by name */
	for (i = 0; i < plain->nnodes; i++) {
		int j = find_desc(s1, plain->node[i].desc);
		char *a = neighbourhood(plain, i), *b = neighbourhood(s1, j);
		unsigned int q;

		ck_assert_str_eq(a, b);
		free(a);
		free(b);
		if ((uint32_t)j != i)
			reordered++;
		for (q = 1; q <= plain->node[i].nports; q++) {
			int a_peer = plain->node[i].port[q].peer;
			int b_peer = s1->node[j].port[q].peer;

			if (a_peer >= 0 &&
			    (b_peer < 0 || strcmp(plain->node[a_peer].desc,
						  s1->node[b_peer].desc)))
				moved++;
		}
	}
	ck_assert_uint_gt(moved, plain->nnodes / 2);
	ck_assert_uint_gt(reordered, plain->nnodes / 2);
	/* deterministic for a seed, different for another */
	t1 = write_string(s1, NULL);
	t2 = write_string(s2, NULL);
	t3 = write_string(s3, NULL);
	ck_assert_str_eq(t1, t2);
	ck_assert_str_ne(t1, t3);
	free(t1);
	free(t2);
	free(t3);
	ot_fabric_free(plain);
	ot_fabric_free(s1);
	ot_fabric_free(s2);
	ot_fabric_free(s3);
}
END_TEST

START_TEST(test_gen_kns_rejects)
{
	struct ot_kns_params p = { .k = 6, .n = 2, .cas = 1, .links = 1,
				   .radix = 5 };
	struct ot_error err = { 0 };

	ck_assert_ptr_null(ot_gen_kns(&p, &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "radix 5 too small"));
	p.radix = 4;
	p.cas = 3;
	p.k = 2;
	ck_assert_ptr_null(ot_gen_kns(&p, &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "a router needs 5"));
	p = (struct ot_kns_params){ .k = 1, .n = 2, .cas = 1, .links = 1 };
	ck_assert_ptr_null(ot_gen_kns(&p, &err));
	p = (struct ot_kns_params){ .k = 200, .n = 1, .cas = 1, .links = 2 };
	ck_assert_ptr_null(ot_gen_kns(&p, &err));
	p = (struct ot_kns_params){ .k = 4, .n = 2, .cas = 1, .links = 1,
				    .radix = 255 };
	ck_assert_ptr_null(ot_gen_kns(&p, &err));
}
END_TEST

/* ---------------------------------------------------------------------- */

static char *lft_string(const struct ot_routing *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	ck_assert_int_eq(ot_lft_write(out, r), 0);
	fclose(out);
	return buf;
}

static int lft_read_string(const char *text, struct ot_routing *r,
			   struct ot_error *err)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	int rc = ot_lft_read(in, "t.lfts", r, err);

	fclose(in);
	return rc;
}

START_TEST(test_lft_round_trip)
{
	struct ot_fabric *f = load_data("net-small.net");
	struct ot_routing *r = ot_routing_new(f), *back = ot_routing_new(f);
	struct ot_error err = { 0 };
	uint32_t n;
	unsigned int lid;
	char *text;

	ck_assert(r && back);
	for (n = 0; n < f->nnodes; n++) {
		if (!r->lft[n])
			continue;
		for (lid = 1; lid <= f->max_lid; lid++)
			if ((lid + n) % 3)
				r->lft[n][lid] = (lid * 7 + n) % 9;
	}
	ck_assert_int_eq(ot_routing_set_label(r, 0, "router [%d]", 3), 0);
	text = lft_string(r);
	ck_assert_int_eq(lft_read_string(text, back, &err), 0);
	for (n = 0; n < f->nnodes; n++) {
		if (!r->lft[n])
			continue;
		for (lid = 0; lid <= f->max_lid; lid++)
			ck_assert_uint_eq(r->lft[n][lid], back->lft[n][lid]);
	}
	/* every LID up to the highest is written, unlike dump_lfts */
	ck_assert_ptr_nonnull(strstr(text, "of switch Lid "));
	free(text);
	ot_routing_free(r);
	ot_routing_free(back);
	ot_fabric_free(f);
}
END_TEST

/* The lines of the block of switch guid in text, after its header. */
static char *block_of(const char *text, uint64_t guid)
{
	char key[40];
	const char *h, *start, *end;

	snprintf(key, sizeof(key), "guid 0x%016" PRIx64, guid);
	h = strstr(text, key);
	ck_assert_ptr_nonnull(h);
	start = strchr(h, '\n') + 1;
	end = strstr(start, "lids dumped");
	ck_assert_ptr_nonnull(end);
	end = strchr(end, '\n') + 1;
	return strndup(start, end - start);
}

/* What dump_lfts printed under ibsim, read and written again. */
START_TEST(test_lft_matches_dump_lfts)
{
	struct ot_fabric *f = load_data("ibnd-small.txt");
	struct ot_routing *r = ot_routing_new(f);
	struct ot_error err = { 0 };
	char *path = data_path("lfts-small.txt"), *fixture, *ours;
	int s2 = find_guid(f, 0x200001);
	FILE *in = fopen(path, "r");
	size_t len = 0;
	uint32_t n;

	ck_assert_ptr_nonnull(in);
	ck_assert_int_eq(ot_lft_read(in, path, r, &err), 0);
	ck_assert_uint_eq(r->lft[s2][0xa], 6);
	ck_assert_uint_eq(r->lft[s2][5], 0);
	ck_assert_uint_eq(r->lft[s2][1], OT_NO_PORT);
	rewind(in);
	fixture = NULL;
	ck_assert_int_ge(getdelim(&fixture, &len, '\0', in), 0);
	fclose(in);
	ours = lft_string(r);
	for (n = 0; n < f->nnodes; n++) {
		char *a, *b;

		if (!r->lft[n])
			continue;
		a = block_of(fixture, f->node[n].guid);
		b = block_of(ours, f->node[n].guid);
		ck_assert_str_eq(a, b);
		free(a);
		free(b);
	}
	free(fixture);
	free(ours);
	free(path);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

START_TEST(test_lft_read_opensm_dump)
{
	struct ot_fabric *f = load_data("ibnd-small.txt");
	struct ot_routing *r = ot_routing_new(f);
	struct ot_error err = { 0 };
	int s1 = find_guid(f, 0x200000);

	ck_assert_int_eq(lft_read_string(
		"Unicast lids [0-13] of switch Lid 4 guid 0x0000000000200000 ('leaf one'):\n"
		"0x0002 001 # Channel Adapter portguid 0x0000000000100001: 'host1'\n"
		"0x0004 000 # Switch portguid 0x0000000000200000: 'leaf one'\n"
		"13 lids dumped\n", r, &err), 0);
	ck_assert_uint_eq(r->lft[s1][2], 1);
	ck_assert_uint_eq(r->lft[s1][4], 0);
	ck_assert_uint_eq(r->lft[s1][3], OT_NO_PORT);
	ck_assert_int_eq(lft_read_string(
		"Unicast lids [0-13] of switch Lid 4 guid 0x0000000000abcdef ('x'):\n",
		r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "t.lfts:1: no switch"));
	ck_assert_int_eq(lft_read_string(
		"Unicast lids [0-13] of switch Lid 4 guid 0x0000000000200000 ('x'):\n"
		"0x0099 001 # x\n", r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "t.lfts:2: LID 153"));
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

START_TEST(test_labels_write)
{
	struct ot_fabric *f = load_data("ibnd-small.txt");
	struct ot_routing *r = ot_routing_new(f);
	int s1 = find_guid(f, 0x200000);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	ck_assert_int_eq(ot_routing_set_label(r, s1, "switch [0,1]"), 0);
	ck_assert_int_eq(ot_labels_write(out, r), 0);
	fclose(out);
	ck_assert_ptr_nonnull(strstr(buf, "switch [0,1]\tSwitch\t"
					  "0x0000000000200000\tleaf one\n"));
	ck_assert_ptr_null(strstr(buf, "host1"));
	free(buf);
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

/*
 * osmtopo-path-sl.dump: two switches, c0 and c1 on s0, c2 (LMC 1) on s1;
 * CA LIDs 3, 4, 5, 6.  The file is made here byte by byte.
 */
static struct ot_fabric *pathsl_fabric(void)
{
	struct ot_error err;
	struct ot_fabric *f = ot_fabric_new();
	unsigned int n;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(ot_fabric_add_node(f, OT_NODE_SWITCH, 4, 0x100, "s0",
					    &err), 0);
	ck_assert_int_eq(ot_fabric_add_node(f, OT_NODE_SWITCH, 4, 0x101, "s1",
					    &err), 1);
	ck_assert_int_eq(ot_fabric_add_node(f, OT_NODE_CA, 1, 0x200, "c0",
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
	ck_assert_int_eq(ot_fabric_set_lid(f, 4, 1, 5, 1, &err), 0);
	for (n = 2; n <= 4; n++)
		f->node[n].port[1].guid = 0x300 + n;
	ck_assert_int_eq(ot_fabric_index(f, &err), 0);
	return f;
}

/*
 * The SL the test files give (slid, dlid); when same, c1's row is c0's
 * and LID 6's is LID 5's (the rows of a switch's sources agree).
 */
static uint8_t pathsl_sl(unsigned int s, unsigned int d, bool same)
{
	if (same && (s == 4 || s == 6))
		s--;
	return (uint8_t)((s * 7 + d * 3) % 16);
}

/*
 * The file of pathsl_fabric(): lids (with port GUIDs guid) in the list,
 * SLs by pathsl_sl(); cut bytes off its end, tail after it.  Its size.
 */
static size_t pathsl_file(char *buf, size_t size, const unsigned int *lids,
			  const uint64_t *guid, unsigned int n, bool same,
			  size_t cut, const char *tail)
{
	size_t len, stride = ot_pathsl_row_bytes(n);
	unsigned int i, j;

	len = (size_t)snprintf(buf, size,
			       "osmtopo-path-sl 1\n# a comment\nengine lash\nhint 0\nlids %u\n",
			       n);
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, size - len,
					"%u 0x%016" PRIx64 "\n", lids[i],
					guid[i]);
	len += (size_t)snprintf(buf + len, size - len, "data %zu\n", stride);
	for (i = 0; i < n; i++) {
		uint8_t *row = (uint8_t *)buf + len;

		memset(row, 0, stride);
		for (j = 0; j < n; j++)
			ot_pathsl_put(row, j, pathsl_sl(lids[i], lids[j], same));
		len += stride;
	}
	len += (size_t)snprintf(buf + len, size - len, "end\n%s", tail);
	ck_assert_uint_lt(len, size);
	return len - cut;
}

/* Reads buf[0..len) into a fresh routing of f: 0 or -1, err set. */
static int pathsl_try(const struct ot_fabric *f, const char *buf, size_t len,
		      struct ot_routing **r, struct ot_error *err)
{
	FILE *in = fmemopen((void *)buf, len, "r");
	int rc;

	ck_assert_ptr_nonnull(in);
	*r = ot_routing_new(f);
	ck_assert_ptr_nonnull(*r);
	(*r)->path_sl_unknown = true;
	rc = ot_pathsl_read(in, "test.dump", *r, err);
	fclose(in);
	if (rc) {
		/* r unchanged */
		ck_assert_ptr_null((*r)->path_sl);
		ck_assert((*r)->path_sl_unknown);
	}
	return rc;
}

START_TEST(test_pathsl_read)
{
	static const unsigned int lids[] = { 3, 4, 5, 6 };
	static const uint64_t guid[] = { 0x302, 0x303, 0x304, 0x304 };
	struct ot_fabric *f = pathsl_fabric();
	struct ot_routing *r;
	struct ot_error err;
	unsigned int s, d;
	char buf[2048];
	size_t len;
	int same;

	for (same = 0; same <= 1; same++) {
		len = pathsl_file(buf, sizeof(buf), lids, guid, 4, same, 0,
				  "");
		ck_assert_int_eq(pathsl_try(f, buf, len, &r, &err), 0);
		ck_assert(!r->path_sl_unknown);
		for (s = 3; s <= 6; s++)
			for (d = 3; d <= 6; d++)
				ck_assert_uint_eq(ot_routing_path_sl(r, s, d),
						  pathsl_sl(s, d, same));
		/* a switch LID is no pair of the file */
		ck_assert_uint_eq(ot_routing_path_sl(r, 3, 1), 0);
		/* c0 and c1 share s0: by switch when their rows agree */
		ck_assert(r->path_sl_by_switch == (bool)same);
		ck_assert_str_eq(ot_pathsl_source(r),
				 "engine lash, hint SL 0, 4 LIDs");
		ot_routing_free(r);
	}
	ot_fabric_free(f);
}
END_TEST

/* Each bad file is an error naming what is wrong, never SL 0. */
START_TEST(test_pathsl_errors)
{
	static const unsigned int lids[] = { 3, 4, 5, 6 };
	static const unsigned int no6[] = { 3, 4, 5 };
	static const unsigned int sw[] = { 1, 3, 4, 5, 6 };
	static const unsigned int down[] = { 4, 3, 5, 6 };
	static const uint64_t guid[] = { 0x302, 0x303, 0x304, 0x304, 0x304 };
	static const uint64_t other[] = { 0x302, 0x999, 0x304, 0x304 };
	static const uint64_t down_guid[] = { 0x303, 0x302, 0x304, 0x304 };
	struct ot_fabric *f = pathsl_fabric();
	struct ot_routing *r;
	struct ot_error err;
	char buf[2048];
	size_t len;

	/* truncated in the rows */
	len = pathsl_file(buf, sizeof(buf), lids, guid, 4, false, 6, "");
	ck_assert_int_eq(pathsl_try(f, buf, len, &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "truncated: 6 of the 8 bytes"));
	ot_routing_free(r);
	/* the end line cut */
	len = pathsl_file(buf, sizeof(buf), lids, guid, 4, false, 2, "");
	ck_assert_int_eq(pathsl_try(f, buf, len, &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "no \"end\" line"));
	ot_routing_free(r);
	/* truncated in the LID list */
	len = pathsl_file(buf, sizeof(buf), lids, guid, 4, false, 0, "");
	len = (size_t)(strstr(buf, "5 0x") - buf);
	ck_assert_int_eq(pathsl_try(f, buf, len, &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "truncated in its LID list"));
	ot_routing_free(r);
	/* data after the end */
	len = pathsl_file(buf, sizeof(buf), lids, guid, 4, false, 0, "x");
	ck_assert_int_eq(pathsl_try(f, buf, len, &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "data after"));
	ot_routing_free(r);
	/* a CA LID missing */
	len = pathsl_file(buf, sizeof(buf), no6, guid, 3, false, 0, "");
	ck_assert_int_eq(pathsl_try(f, buf, len, &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "LID 6 (\"c2\" port 1) is not in the file"));
	ot_routing_free(r);
	/* a switch's LID */
	len = pathsl_file(buf, sizeof(buf), sw, guid, 5, false, 0, "");
	ck_assert_int_eq(pathsl_try(f, buf, len, &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "LID 1 is no cabled CA port's"));
	ot_routing_free(r);
	/* another port at LID 4 */
	len = pathsl_file(buf, sizeof(buf), lids, other, 4, false, 0, "");
	ck_assert_int_eq(pathsl_try(f, buf, len, &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "LID 4 is port 0x0000000000000999 in the file"));
	ot_routing_free(r);
	/* LIDs out of order */
	len = pathsl_file(buf, sizeof(buf), down, down_guid, 4, false, 0, "");
	ck_assert_int_eq(pathsl_try(f, buf, len, &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "ascending"));
	ot_routing_free(r);
	/* not the format */
	ck_assert_int_eq(pathsl_try(f, "osmtopo-path-sl 2\n", 18, &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "version 2"));
	ot_routing_free(r);
	ck_assert_int_eq(pathsl_try(f, "PathSL 3 4: 1\n", 14, &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "not an osmtopo path SL dump"));
	ot_routing_free(r);
	ot_fabric_free(f);
}
END_TEST

static Suite *netfile_suite(void)
{
	Suite *s = suite_create("netfile");
	TCase *read = tcase_create("read");
	TCase *write = tcase_create("write");
	TCase *gen = tcase_create("gen_kns");
	TCase *lft = tcase_create("lftfile");

	tcase_add_test(read, test_read_ibsim_style);
	tcase_add_test(read, test_read_ibnetdiscover);
	tcase_add_test(read, test_read_errors);
	tcase_add_test(read, test_read_one_sided_and_guid_lines);
	tcase_add_test(write, test_round_trip_files);
	tcase_add_test(write, test_round_trip_hand_made);
	tcase_add_test(write, test_round_trip_generated);
	tcase_add_test(gen, test_gen_kns_counts);
	tcase_add_test(gen, test_gen_kns_names_and_ports);
	tcase_add_test(gen, test_gen_kns_shuffle);
	tcase_add_test(gen, test_gen_kns_rejects);
	tcase_add_test(lft, test_lft_round_trip);
	tcase_add_test(lft, test_lft_matches_dump_lfts);
	tcase_add_test(lft, test_lft_read_opensm_dump);
	tcase_add_test(lft, test_labels_write);
	tcase_add_test(lft, test_pathsl_read);
	tcase_add_test(lft, test_pathsl_errors);
	suite_add_tcase(s, read);
	suite_add_tcase(s, write);
	suite_add_tcase(s, gen);
	suite_add_tcase(s, lft);
	return s;
}

OT_UNIT_MAIN(netfile_suite)
