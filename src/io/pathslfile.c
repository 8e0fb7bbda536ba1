// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * osmtopo-path-sl.dump (model/pathsl.h) into a routing's path SLs.  The
 * file stands beside OpenSM's dump files of the same sweep, so it is
 * checked against the fabric they describe: a LID it does not know, a
 * port GUID that differs, a CA LID it lacks or a short file is an error,
 * never a silent SL 0.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "io/pathslfile.h"
#include "model/pathsl.h"

#define PATHSL_LINE 512

struct pathsl_table {
	uint32_t n;        /* LIDs in the file */
	size_t stride;     /* bytes per row */
	uint16_t max_lid;
	int32_t *idx;      /* per LID: its line, -1 when not listed */
	uint8_t *sl;       /* n rows of stride bytes */
	char source[128];  /* "engine E, hint SL H, N LIDs" */
};

static void table_free(void *priv)
{
	struct pathsl_table *t = priv;

	if (!t)
		return;
	free(t->idx);
	free(t->sl);
	free(t);
}

/* r->path_sl: a LID the file does not list (a switch's) gets SL 0. */
static uint8_t table_path_sl(const struct ot_routing *r, uint16_t slid,
			     uint16_t dlid)
{
	const struct pathsl_table *t = r->priv;
	int32_t i, j;

	if (slid > t->max_lid || dlid > t->max_lid)
		return 0;
	i = t->idx[slid];
	j = t->idx[dlid];
	if (i < 0 || j < 0)
		return 0;
	return ot_pathsl_get(t->sl + (size_t)i * t->stride, (uint32_t)j);
}

const char *ot_pathsl_source(const struct ot_routing *r)
{
	if (!r || r->path_sl != table_path_sl || !r->priv)
		return NULL;
	return ((const struct pathsl_table *)r->priv)->source;
}

/* One line without its newline; -1 at the end of the file or too long. */
static int get_line(FILE *in, char *buf, size_t size, unsigned long *lineno)
{
	size_t len;

	if (!fgets(buf, (int)size, in))
		return -1;
	(*lineno)++;
	len = strlen(buf);
	if (!len || buf[len - 1] != '\n')
		return -1;
	buf[len - 1] = '\0';
	return 0;
}

/* Is LID lid of fabric f a cabled CA port's, and which one? */
static int ca_port_of(const struct ot_fabric *f, unsigned long lid,
		      unsigned int *port)
{
	int n;

	if (!lid || lid > f->max_lid)
		return -1;
	n = ot_fabric_lid_node(f, (uint32_t)lid);
	if (n < 0 || f->node[n].type != OT_NODE_CA)
		return -1;
	*port = f->lid_owner[lid].port;
	if (f->node[n].port[*port].peer < 0)
		return -1;
	return n;
}

/* The header up to and including "lids N". */
static int read_header(FILE *in, const char *name, struct pathsl_table *t,
		       unsigned long *lineno, struct ot_error *err)
{
	char line[PATHSL_LINE], engine[64] = "?";
	unsigned long n;
	int version, hint = -1;

	if (get_line(in, line, sizeof(line), lineno) ||
	    sscanf(line, OT_PATHSL_MAGIC " %d", &version) != 1)
		return ot_error_set(err,
				    "%s: not an osmtopo path SL dump (the first line is not \"%s %d\")",
				    name, OT_PATHSL_MAGIC, OT_PATHSL_VERSION);
	if (version != OT_PATHSL_VERSION)
		return ot_error_set(err, "%s: version %d, this osmtopo reads %d",
				    name, version, OT_PATHSL_VERSION);
	for (;;) {
		if (get_line(in, line, sizeof(line), lineno))
			return ot_error_set(err,
					    "%s: truncated in its header (line %lu)",
					    name, *lineno);
		if (line[0] == '#')
			continue;
		if (sscanf(line, "engine %63s", engine) == 1 ||
		    sscanf(line, "hint %d", &hint) == 1)
			continue;
		if (sscanf(line, "lids %lu", &n) == 1)
			break;
		return ot_error_set(err, "%s:%lu: unknown line \"%.80s\"",
				    name, *lineno, line);
	}
	if (n > UINT16_MAX)
		return ot_error_set(err, "%s:%lu: %lu LIDs", name, *lineno, n);
	t->n = (uint32_t)n;
	t->stride = ot_pathsl_row_bytes(t->n);
	snprintf(t->source, sizeof(t->source), "engine %s, hint SL %d, %lu LIDs",
		 engine, hint, n);
	return 0;
}

/* The "LID 0xGUID" lines, checked against the fabric. */
static int read_lids(FILE *in, const char *name, const struct ot_fabric *f,
		     struct pathsl_table *t, unsigned long *lineno,
		     struct ot_error *err)
{
	char line[PATHSL_LINE];
	unsigned long lid, last = 0;
	uint64_t guid;
	unsigned int port;
	uint32_t i;
	int n;

	for (i = 0; i < t->n; i++) {
		if (get_line(in, line, sizeof(line), lineno))
			return ot_error_set(err,
					    "%s: truncated in its LID list (%" PRIu32 " of %" PRIu32 ")",
					    name, i, t->n);
		if (sscanf(line, "%lu 0x%" SCNx64, &lid, &guid) != 2 ||
		    lid <= last)
			return ot_error_set(err,
					    "%s:%lu: not \"LID 0xPORTGUID\" in ascending LIDs: \"%.80s\"",
					    name, *lineno, line);
		last = lid;
		n = ca_port_of(f, lid, &port);
		if (n < 0)
			return ot_error_set(err,
					    "%s:%lu: LID %lu is no cabled CA port's in the fabric of the dump: the file is of another fabric or sweep",
					    name, *lineno, lid);
		if (f->node[n].port[port].guid && f->node[n].port[port].guid != guid)
			return ot_error_set(err,
					    "%s:%lu: LID %lu is port 0x%016" PRIx64 " in the file, 0x%016" PRIx64 " (\"%s\" port %u) in the dump: the file is of another sweep",
					    name, *lineno, lid, guid,
					    f->node[n].port[port].guid,
					    f->node[n].desc, port);
		t->idx[lid] = (int32_t)i;
	}
	return 0;
}

/* Every LID of every cabled CA port of the fabric must be listed. */
static int check_coverage(const char *name, const struct ot_fabric *f,
			  const struct pathsl_table *t, struct ot_error *err)
{
	uint32_t n, lid;
	unsigned int p;

	for (n = 0; n < f->nnodes; n++) {
		const struct ot_node *nd = &f->node[n];

		if (nd->type != OT_NODE_CA)
			continue;
		for (p = 1; p <= nd->nports; p++) {
			const struct ot_port *pt = &nd->port[p];

			if (!pt->lid || pt->peer < 0)
				continue;
			for (lid = pt->lid; lid < pt->lid + ot_port_nlids(pt) &&
			     lid <= f->max_lid; lid++)
				if (t->idx[lid] < 0)
					return ot_error_set(err,
							    "%s: LID %" PRIu32 " (\"%s\" port %u) is not in the file: it is of another fabric or sweep",
							    name, lid, nd->desc, p);
		}
	}
	return 0;
}

/* The rows and the "end" line right after them, then nothing. */
static int read_rows(FILE *in, const char *name, struct pathsl_table *t,
		     unsigned long *lineno, struct ot_error *err)
{
	char line[PATHSL_LINE];
	size_t stride, total = (size_t)t->n * t->stride, got;

	if (get_line(in, line, sizeof(line), lineno) ||
	    sscanf(line, "data %zu", &stride) != 1 || stride != t->stride)
		return ot_error_set(err,
				    "%s:%lu: expected \"data %zu\" (%" PRIu32 " LIDs, 4 bits per pair)",
				    name, *lineno, t->stride, t->n);
	t->sl = malloc(total ? total : 1);
	if (!t->sl)
		return ot_error_nomem(err, name);
	got = fread(t->sl, 1, total, in);
	if (got != total)
		return ot_error_set(err,
				    "%s: truncated: %zu of the %zu bytes of path SLs (%" PRIu32 " x %" PRIu32 " pairs)",
				    name, got, total, t->n, t->n);
	if (!fgets(line, sizeof(line), in) || strcmp(line, "end\n"))
		return ot_error_set(err,
				    "%s: truncated or damaged: no \"end\" line after the path SLs",
				    name);
	if (fgetc(in) != EOF)
		return ot_error_set(err, "%s: data after the \"end\" line",
				    name);
	return 0;
}

/*
 * Whether every source's row is that of the first source on the same
 * switch (the checker may then ask once per switch, model/routing.h).
 */
static bool rows_by_switch(const struct ot_fabric *f,
			   const struct pathsl_table *t)
{
	int32_t *first = malloc(((size_t)f->nnodes + 1) * sizeof(*first));
	bool same = true;
	uint32_t lid, n;

	if (!first)
		return false;
	for (n = 0; n <= f->nnodes; n++)
		first[n] = -1;
	for (lid = 1; lid <= t->max_lid && same; lid++) {
		int32_t i = t->idx[lid];
		unsigned int port;
		int32_t sw;
		int ca;

		if (i < 0)
			continue;
		ca = ca_port_of(f, lid, &port);
		sw = f->node[ca].port[port].peer;
		if (f->node[sw].type != OT_NODE_SWITCH)
			sw = (int32_t)f->nnodes; /* CA to CA: one class */
		if (first[sw] < 0)
			first[sw] = i;
		else if (memcmp(t->sl + (size_t)i * t->stride,
				t->sl + (size_t)first[sw] * t->stride,
				t->stride))
			same = false;
	}
	free(first);
	return same;
}

int ot_pathsl_read(FILE *in, const char *name, struct ot_routing *r,
		   struct ot_error *err)
{
	const struct ot_fabric *f = r->fabric;
	struct pathsl_table *t = calloc(1, sizeof(*t));
	unsigned long lineno = 0;
	uint32_t lid;

	if (!t)
		return ot_error_nomem(err, name);
	t->max_lid = f->max_lid;
	t->idx = malloc(((size_t)f->max_lid + 1) * sizeof(*t->idx));
	if (!t->idx) {
		table_free(t);
		return ot_error_nomem(err, name);
	}
	for (lid = 0; lid <= f->max_lid; lid++)
		t->idx[lid] = -1;
	if (read_header(in, name, t, &lineno, err) ||
	    read_lids(in, name, f, t, &lineno, err) ||
	    check_coverage(name, f, t, err) ||
	    read_rows(in, name, t, &lineno, err)) {
		table_free(t);
		return -1;
	}
	if (r->free_priv)
		r->free_priv(r->priv);
	r->priv = t;
	r->free_priv = table_free;
	r->path_sl = table_path_sl;
	r->path_sl_unknown = false;
	r->path_sl_by_switch = rows_by_switch(f, t);
	return 0;
}
