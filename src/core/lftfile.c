// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Routing tables as text (see osmtopo/lftfile.h), the "tables" step of
 * the flow (fabric -> recognizer -> coordinates -> engine -> tables ->
 * checker) made visible.  The writer prints what an engine computed in the
 * layout of infiniband-diags' dump_lfts, so a table routed offline can be
 * diffed against a live fabric's; the reader takes dump_lfts output or
 * OpenSM's opensm-lfts.dump back into a routing for the checker.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <osmtopo/lftfile.h>

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
 * dump_lfts names a LID's owner once and, for the further LIDs of a port
 * with LMC > 0, only counts paths; this is its state between lines.
 */
struct lid_state {
	unsigned int base, last;
	uint64_t guid;
};

static void write_destination(FILE *out, const struct ot_fabric *f,
			      unsigned int lid, struct lid_state *st)
{
	const struct ot_port *pt;
	const struct ot_node *node;
	int n;

	if (lid <= st->last) {
		if (st->guid)
			fprintf(out,
				": (path #%u out of %u: portguid 0x%016" PRIx64
				")",
				lid - st->base + 1, st->last - st->base + 1,
				st->guid);
		else
			fprintf(out, ": (path #%u out of %u)",
				lid - st->base + 1, st->last - st->base + 1);
		return;
	}
	st->guid = 0;
	n = ot_fabric_lid_node(f, lid);
	if (n < 0) {
		fputs(": (node info not available fabric scan)", out);
		return;
	}
	node = &f->node[n];
	pt = &node->port[f->lid_owner[lid].port];
	st->guid = pt->guid ? pt->guid : node->guid;
	if (pt->lmc > 0) {
		st->base = pt->lid;
		st->last = pt->lid + (1u << pt->lmc) - 1;
	}
	fprintf(out, ": (%s portguid 0x%016" PRIx64 ": '%s')",
		mad_type_str(node->type), st->guid, node->desc);
}

int ot_lft_write(FILE *out, const struct ot_routing *r)
{
	const struct ot_fabric *f = r->fabric;
	uint32_t n;
	unsigned int lid;

	for (n = 0; n < f->nnodes; n++) {
		const struct ot_node *sw = &f->node[n];
		struct lid_state st = { 0, 0, 0 };
		unsigned int count = 0;

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

			if (port > sw->nports)
				continue;
			fprintf(out, "0x%04x %03u ", lid, port);
			write_destination(out, f, lid, &st);
			fputc('\n', out);
			count++;
		}
		fprintf(out, "%u valid lids dumped \n", count);
	}
	if (fflush(out) || ferror(out))
		return -1;
	return 0;
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

static int cmp_guid_index(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* Switch GUID -> node index, by binary search over sorted pairs. */
static int find_switch(const uint64_t *pairs, uint32_t count, uint64_t guid)
{
	uint32_t lo = 0, hi = count;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (pairs[2 * mid] == guid)
			return pairs[2 * mid + 1];
		if (pairs[2 * mid] < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
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
	uint64_t *pairs = NULL;
	uint32_t nsw = 0, n;
	unsigned int line = 0;
	unsigned long lid, port;
	char *buf = NULL;
	size_t size = 0;
	int cur = -1, error = 0;

	pairs = malloc(2 * sizeof(*pairs) * (f->nnodes ? f->nnodes : 1));
	if (!pairs) {
		error = ot_error_set(err, "%s: out of memory", name);
		goto out;
	}
	for (n = 0; n < f->nnodes; n++) {
		if (f->node[n].type != OT_NODE_SWITCH)
			continue;
		pairs[2 * nsw] = f->node[n].guid;
		pairs[2 * nsw + 1] = n;
		nsw++;
	}
	qsort(pairs, nsw, 2 * sizeof(*pairs), cmp_guid_index);
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
			cur = find_switch(pairs, nsw, guid);
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
