// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Routing tables as text (see lftfile.h), the "tables" step of
 * the flow (fabric -> recognizer -> coordinates -> engine -> tables ->
 * checker) made visible.  The writer prints what an engine computed in the
 * layout of infiniband-diags' dump_lfts, so a table routed offline can be
 * diffed against a live fabric's; the reader takes dump_lfts output or
 * OpenSM's opensm-lfts.dump back into a routing for the checker.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "io/lftfile.h"
#include "model/sort.h"

/* Node type as mad_dump_val(IB_NODE_TYPE_F) prints it. */
static const char *mad_type_str(enum ot_node_type type)
{
	switch (type) {
	case OT_NODE_CA:
		return "Channel Adapter";
	case OT_NODE_SWITCH:
		return "Switch";
	case OT_NODE_ROUTER:
		return "Router";
	}
	return "???";
}

/*
 * What dump_lfts prints after "0x%04x %03u " for a LID.  It names a LID's
 * owner once and, for the further LIDs of a port with LMC > 0 that follow
 * in the same table, only counts paths: so each LID has a full text and,
 * inside an LMC range, a short one.  The texts are the same for every
 * switch, so they are made once (the tables of a 16K-CA fabric are tens of
 * millions of lines).
 */
struct lid_texts {
	char *buf;
	size_t *full, *path; /* offsets into buf; path == full: none */
	unsigned int *range_base; /* first LID of the LID's LMC range */
};

static void lid_texts_free(struct lid_texts *t)
{
	free(t->buf);
	free(t->full);
	free(t->path);
	free(t->range_base);
}

/* Appends a formatted string (with its NUL) to a growing buffer. */
static int append(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int append(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(*buf + *len, *cap - *len, fmt, ap);
		va_end(ap);
		if (n < 0)
			return -1;
		if ((size_t)n < *cap - *len)
			break;
		{
			size_t ncap = 2 * *cap + (size_t)n + 1;
			char *grown = realloc(*buf, ncap);

			if (!grown)
				return -1;
			*buf = grown;
			*cap = ncap;
		}
	}
	*len += (size_t)n + 1;
	return 0;
}

static int lid_texts_make(struct lid_texts *t, const struct ot_fabric *f,
			  unsigned int max_lid)
{
	size_t len = 0, cap = 4096;
	unsigned int lid;

	t->buf = malloc(cap);
	t->full = calloc(max_lid + 1, sizeof(*t->full));
	t->path = calloc(max_lid + 1, sizeof(*t->path));
	t->range_base = calloc(max_lid + 1, sizeof(*t->range_base));
	if (!t->buf || !t->full || !t->path || !t->range_base)
		return -1;
	for (lid = 0; lid <= max_lid; lid++) {
		const struct ot_node *node;
		const struct ot_port *pt;
		uint64_t guid;
		unsigned int nl;
		int n = ot_fabric_lid_node(f, lid);

		t->range_base[lid] = lid;
		t->full[lid] = len;
		t->path[lid] = len;
		if (n < 0) {
			if (append(&t->buf, &len, &cap, "%s",
				   ": (node info not available fabric scan)"))
				return -1;
			continue;
		}
		node = &f->node[n];
		pt = &node->port[f->lid_owner[lid].port];
		guid = pt->guid ? pt->guid : node->guid;
		nl = ot_port_nlids(pt);
		if (append(&t->buf, &len, &cap,
			   ": (%s portguid 0x%016" PRIx64 ": '%s')",
			   mad_type_str(node->type), guid, node->desc))
			return -1;
		if (nl <= 1)
			continue;
		t->range_base[lid] = pt->lid;
		t->path[lid] = len;
		if (append(&t->buf, &len, &cap,
			   ": (path #%u out of %u: portguid 0x%016" PRIx64 ")",
			   lid - pt->lid + 1, nl, guid))
			return -1;
	}
	return 0;
}

/* "0x%04x %03u " without printf: this is the hot loop of the writer. */
static void put_entry(FILE *out, unsigned int lid, unsigned int port)
{
	static const char hex[] = "0123456789abcdef";
	char s[12];

	s[0] = '0';
	s[1] = 'x';
	s[2] = hex[(lid >> 12) & 0xf];
	s[3] = hex[(lid >> 8) & 0xf];
	s[4] = hex[(lid >> 4) & 0xf];
	s[5] = hex[lid & 0xf];
	s[6] = ' ';
	s[7] = (char)('0' + port / 100);
	s[8] = (char)('0' + port / 10 % 10);
	s[9] = (char)('0' + port % 10);
	s[10] = ' ';
	fwrite(s, 1, 11, out);
}

int ot_lft_write(FILE *out, const struct ot_routing *r)
{
	const struct ot_fabric *f = r->fabric;
	struct lid_texts t = { NULL, NULL, NULL, NULL };
	int error = -1;
	uint32_t n;
	unsigned int lid;

	if (lid_texts_make(&t, f, r->max_lid))
		goto out;
	for (n = 0; n < f->nnodes; n++) {
		const struct ot_node *sw = &f->node[n];
		unsigned int count = 0;
		/* LMC range whose owner this table has named already */
		unsigned int named_base = 0, named = 0;

		if (sw->type != OT_NODE_SWITCH || !r->lft[n])
			continue;
		/*
		 * dump_lfts names the switch by the DR path it was discovered
		 * on; offline there is none, so this is what ibroute prints
		 * for a switch addressed by LID.
		 */
		fprintf(out,
			"Unicast lids [0x0-0x%x] of switch Lid %u guid 0x%016" PRIx64 " (%s):\n",
			r->max_lid, sw->port[0].lid, sw->guid, sw->desc);
		fputs("  Lid  Out   Destination\n", out);
		fputs("       Port     Info \n", out);
		for (lid = 0; lid <= r->max_lid; lid++) {
			unsigned int port = r->lft[n][lid];
			unsigned int base = t.range_base[lid];
			size_t text = t.full[lid];

			if (port > sw->nports)
				continue;
			if (named && named_base == base && t.path[lid] != text)
				text = t.path[lid];
			named = 1;
			named_base = base;
			put_entry(out, lid, port);
			fputs(t.buf + text, out);
			fputc('\n', out);
			count++;
		}
		fprintf(out, "%u valid lids dumped \n", count);
	}
	if (fflush(out) || ferror(out))
		goto out;
	error = 0;
out:
	lid_texts_free(&t);
	return error;
}

int ot_labels_write(FILE *out, const struct ot_routing *r)
{
	const struct ot_fabric *f = r->fabric;
	uint32_t n;

	fputs("# label\ttype\tnode guid\tdescription\n", out);
	for (n = 0; n < f->nnodes; n++) {
		if (!r->label[n])
			continue;
		fprintf(out, "%s\t%s\t0x%016" PRIx64 "\t%s\n", r->label[n],
			ot_node_type_str(f->node[n].type), f->node[n].guid,
			f->node[n].desc);
	}
	if (fflush(out) || ferror(out))
		return -1;
	return 0;
}

/*
 * "0x0004 002 ..." in both dump_lfts and opensm-lfts.dump; anything else
 * (headers, count lines, dump_lfts' trailing warning) is not an entry.
 */
static bool parse_entry(const char *s, unsigned long *lid, unsigned long *port)
{
	char *end;

	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') ||
	    !isxdigit((unsigned char)s[2]))
		return false;
	*lid = strtoul(s, &end, 16);
	if (*end != ' ')
		return false;
	s = end + 1;
	if (!isdigit((unsigned char)*s))
		return false;
	*port = strtoul(s, &end, 10);
	return *end == ' ' || *end == '\0';
}

int ot_lft_read(FILE *in, const char *name, struct ot_routing *r,
		struct ot_error *err)
{
	const struct ot_fabric *f = r->fabric;
	struct ot_guid_idx *pairs = NULL;
	uint32_t nsw = 0, n;
	unsigned int line = 0;
	unsigned long lid, port;
	char *buf = NULL;
	size_t size = 0;
	int cur = -1, error = 0;

	pairs = malloc(sizeof(*pairs) * (f->nnodes ? f->nnodes : 1));
	if (!pairs) {
		error = ot_error_nomem(err, name);
		goto out;
	}
	for (n = 0; n < f->nnodes; n++) {
		if (f->node[n].type != OT_NODE_SWITCH)
			continue;
		pairs[nsw].guid = f->node[n].guid;
		pairs[nsw++].idx = n;
	}
	ot_guid_idx_sort(pairs, nsw);
	while (getline(&buf, &size, in) >= 0) {
		line++;
		if (!strncmp(buf, "Unicast lids", 12)) {
			const char *g = strstr(buf, " guid 0x");
			uint64_t guid;

			if (!g) {
				error = ot_error_set(err,
						     "%s:%u: switch header without a GUID",
						     name, line);
				goto out;
			}
			guid = strtoull(g + 6, NULL, 16);
			cur = (int)ot_guid_idx_find(pairs, nsw, guid);
			if (cur < 0) {
				error = ot_error_set(err,
						     "%s:%u: no switch with GUID 0x%016" PRIx64 " in the fabric",
						     name, line, guid);
				goto out;
			}
			continue;
		}
		if (!parse_entry(buf, &lid, &port))
			continue;
		if (cur < 0) {
			error = ot_error_set(err,
					     "%s:%u: LFT entry before any switch header",
					     name, line);
			goto out;
		}
		if (lid > r->max_lid) {
			error = ot_error_set(err,
					     "%s:%u: LID %lu beyond the fabric's highest LID %u",
					     name, line, lid, r->max_lid);
			goto out;
		}
		if (port > f->node[cur].nports) {
			error = ot_error_set(err,
					     "%s:%u: port %lu beyond the %u ports of \"%s\"",
					     name, line, port,
					     f->node[cur].nports,
					     f->node[cur].desc);
			goto out;
		}
		r->lft[cur][lid] = port;
	}
	if (ferror(in))
		error = ot_error_set(err, "%s: read error", name);
out:
	free(buf);
	free(pairs);
	return error;
}

/* "SL2VL ..." lines of node n (see ot_tables_write()). */
static void write_node_sl2vl(FILE *out, const struct ot_routing *r, int n)
{
	static const char hex[] = "0123456789abcdef";
	const struct ot_node *nd = &r->fabric->node[n];
	bool sw = nd->type == OT_NODE_SWITCH;
	unsigned int in, o, sl;
	char vls[OT_NUM_SLS + 1];

	for (in = 0; in <= (sw ? nd->nports : 0); in++) {
		if (in && nd->port[in].peer < 0)
			continue;
		for (o = 1; o <= nd->nports; o++) {
			if (o == in || nd->port[o].peer < 0)
				continue;
			for (sl = 0; sl < OT_NUM_SLS; sl++)
				vls[sl] = hex[ot_routing_vl(r, n, in, o, sl) &
					      0xf];
			vls[OT_NUM_SLS] = '\0';
			fprintf(out, "SL2VL 0x%016" PRIx64 " in %u out %u: %s\n",
				nd->guid, in, o, vls);
		}
	}
}

/* "PathSL ..." lines of one destination LID (see ot_tables_write()). */
static void write_dlid_path_sls(FILE *out, const struct ot_routing *r,
				int dnode, unsigned int dport, uint16_t dlid)
{
	const struct ot_fabric *f = r->fabric;
	bool first = true, same = true;
	uint8_t sl0 = 0;
	unsigned int pass, p;
	uint32_t n;

	for (pass = 0; pass < 2; pass++) {
		for (n = 0; n < f->nnodes; n++) {
			if (f->node[n].type != OT_NODE_CA)
				continue;
			for (p = 1; p <= f->node[n].nports; p++) {
				uint16_t slid = f->node[n].port[p].lid;
				uint8_t sl;

				if (!slid || ((int)n == dnode && p == dport))
					continue;
				sl = ot_routing_path_sl(r, slid, dlid);
				if (pass)
					fprintf(out, "PathSL %u %u: %u\n", dlid,
						slid, sl);
				else if (first)
					sl0 = sl;
				else if (sl != sl0)
					same = false;
				first = false;
			}
		}
		if (!pass && same) {
			if (!first)
				fprintf(out, "PathSL %u: %u\n", dlid, sl0);
			return;
		}
	}
}

int ot_tables_write(FILE *out, const struct ot_routing *r)
{
	const struct ot_fabric *f = r->fabric;
	unsigned int lid;
	uint32_t n;

	for (n = 0; n < f->nnodes; n++)
		if (r->sl2vl[n])
			write_node_sl2vl(out, r, n);
	if (r->path_sl_unknown) {
		fputs("PathSL unknown\n", out);
	} else {
		for (lid = 1; lid <= f->max_lid; lid++) {
			int dn = ot_fabric_lid_node(f, lid);

			if (dn < 0 || f->node[dn].type != OT_NODE_CA)
				continue;
			write_dlid_path_sls(out, r, dn,
					    f->lid_owner[lid].port, lid);
		}
	}
	if (fflush(out) || ferror(out))
		return -1;
	return 0;
}
