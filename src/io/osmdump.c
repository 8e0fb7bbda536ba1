// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * OpenSM's dump files as a source for the checker (see osmdump.h):
 * a fabric and its tables from what OpenSM wrote after a sweep, for a
 * fabric one cannot query (a customer's dump directory, a CI artifact).
 * It sits where the live reader sits in the flow, before the checker.
 *
 * Three files, all written by osm_dump.c after every sweep:
 *   opensm-subnet.lst   one line per cabled port: both ends with type,
 *                       port count, node and port GUID, description, LID
 *                       (a switch's is its port 0 LID) and port number
 *   opensm-lfts.dump    the LFTs, in dump_lfts' format (ot_lft_read())
 *   opensm-sl2vl.dump   SL2VL per (input, output) port, only when QoS is
 *                       on or the engine programs SL2VL
 * The first is written always, the other two only with routing debug
 * logging (-D 0x43).  OpenSM writes neither the LMC nor the path SLs:
 * the LMC is what the LFT dump shows (every LID of a port is listed with
 * the port's GUID), path SLs stay SL 0 unless osmtopo's plugin wrote
 * osmtopo-path-sl.dump beside them ("event_plugin_options
 * osmtopo_path_sl_dump=on", io/pathslfile.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/lftfile.h"
#include "io/osmdump.h"
#include "io/pathslfile.h"
#include "model/pathsl.h"
#include "model/sort.h"

#define DUMP_SUBNET "opensm-subnet.lst"
#define DUMP_LFTS "opensm-lfts.dump"
#define DUMP_SL2VL "opensm-sl2vl.dump"
#define DUMP_LINE 2048

/* One end of a link as opensm-subnet.lst prints it. */
struct dump_end {
	enum ot_node_type type;
	unsigned int nports;
	uint64_t node_guid, port_guid;
	char desc[256];
	unsigned int lid, port;
};

struct dump_node {
	uint64_t guid;
	enum ot_node_type type;
	unsigned int nports;
	int idx; /* in the fabric */
};

struct dump_link {
	uint64_t a, b; /* node GUIDs */
	unsigned int pa, pb;
};

/* A port's LIDs as the LFT dump lists them. */
struct dump_lidspan {
	uint64_t port_guid;
	unsigned int min, max;
};

struct dump_reader {
	const char *dir;
	struct dump_end *ends; /* both ends of every line */
	size_t nends, capends;
	struct dump_node *nodes;
	size_t nnodes;
	struct dump_link *links;
	size_t nlinks, caplinks;
	struct dump_lidspan *spans;
	size_t nspans, capspans;
	char path[4096];
};

static int grow(void **v, size_t *cap, size_t need, size_t size)
{
	size_t ncap = *cap ? *cap : 64;
	void *nv;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	nv = realloc(*v, ncap * size);
	if (!nv)
		return -1;
	*v = nv;
	*cap = ncap;
	return 0;
}


/* The hexadecimal number after key in s, or -1 when missing. */
static int hex_field(const char *s, const char *key, uint64_t *v)
{
	const char *p = strstr(s, key);
	char *end;

	if (!p)
		return -1;
	p += strlen(key);
	errno = 0;
	*v = strtoull(p, &end, 16);
	if (errno || end == p)
		return -1;
	return 0;
}

/*
 * Parses one "{ TYPE Ports:NN ... {desc} LID:XXXX PN:XX }" block starting
 * at s; *next is where the block ends.  0 or -1.
 */
static int parse_end(const char *s, struct dump_end *e, const char **next)
{
	const char *open = strchr(s, '{'), *d, *dend, *close;
	char head[256];
	size_t len;
	uint64_t v;

	if (!open)
		return -1;
	/* The description is the one part that may hold spaces or braces. */
	d = strchr(open + 1, '{');
	if (!d)
		return -1;
	dend = strstr(d, "} LID:");
	if (!dend)
		return -1;
	close = strchr(dend + 1, '}');
	if (!close)
		return -1;
	len = (size_t)(d - open);
	if (len >= sizeof(head))
		return -1;
	memcpy(head, open, len);
	head[len] = '\0';

	if (!strncmp(open, "{ SW", 4))
		e->type = OT_NODE_SWITCH;
	else if (!strncmp(open, "{ Rt", 4))
		e->type = OT_NODE_ROUTER;
	else
		e->type = OT_NODE_CA; /* "CA" and anything unknown ("**") */
	if (hex_field(head, "Ports:", &v) || v < 1 || v > OT_MAX_PORTS)
		return -1;
	e->nports = (unsigned int)v;
	if (hex_field(head, "NodeGUID:", &e->node_guid) ||
	    hex_field(head, "PortGUID:", &e->port_guid))
		return -1;
	len = (size_t)(dend - d - 1);
	if (len >= sizeof(e->desc))
		len = sizeof(e->desc) - 1;
	memcpy(e->desc, d + 1, len);
	e->desc[len] = '\0';
	if (hex_field(dend, "LID:", &v) || v > OT_MAX_UCAST_LID)
		return -1;
	e->lid = (unsigned int)v;
	if (hex_field(dend, "PN:", &v) || v < 1 || v > e->nports)
		return -1;
	e->port = (unsigned int)v;
	*next = close + 1;
	return 0;
}

static int add_end(struct dump_reader *rd, const struct dump_end *e,
		   struct ot_error *err)
{
	if (grow((void **)&rd->ends, &rd->capends, rd->nends + 1,
		 sizeof(*rd->ends)))
		return ot_error_nomem(err, "OpenSM dump");
	rd->ends[rd->nends++] = *e;
	return 0;
}

static int read_subnet(struct dump_reader *rd, FILE *in,
		       struct ot_error *err)
{
	char buf[DUMP_LINE];
	unsigned int line = 0;

	while (fgets(buf, sizeof(buf), in)) {
		struct dump_end a, b;
		const char *p;

		line++;
		if (buf[0] != '{')
			continue;
		if (parse_end(buf, &a, &p) || parse_end(p, &b, &p))
			return ot_error_set(err,
					    "%s:%u: not an opensm-subnet.lst line",
					    rd->path, line);
		if (add_end(rd, &a, err) || add_end(rd, &b, err))
			return -1;
		/* Each cable is listed from both ends: keep one. */
		if (a.node_guid > b.node_guid ||
		    (a.node_guid == b.node_guid && a.port > b.port))
			continue;
		if (grow((void **)&rd->links, &rd->caplinks, rd->nlinks + 1,
			 sizeof(*rd->links)))
			return ot_error_nomem(err, "OpenSM dump");
		rd->links[rd->nlinks++] = (struct dump_link){
			.a = a.node_guid, .pa = a.port,
			.b = b.node_guid, .pb = b.port,
		};
	}
	if (ferror(in))
		return ot_error_set(err, "%s: %s", rd->path, strerror(errno));
	if (!rd->nends)
		return ot_error_set(err, "%s: no links", rd->path);
	return 0;
}

static int cmp_end(const void *x, const void *y)
{
	const struct dump_end *a = x, *b = y;

	if (a->node_guid != b->node_guid)
		return a->node_guid < b->node_guid ? -1 : 1;
	if (a->port != b->port)
		return a->port < b->port ? -1 : 1;
	return 0;
}

static int cmp_span(const void *x, const void *y)
{
	const struct dump_lidspan *a = x, *b = y;

	if (a->port_guid != b->port_guid)
		return a->port_guid < b->port_guid ? -1 : 1;
	return 0;
}

/*
 * The LIDs of every port the LFT dump names ("0x0012 003 # Channel
 * Adapter portguid 0x...: 'desc'"), for the LMC the subnet list lacks.
 */
static int read_lid_spans(struct dump_reader *rd, FILE *in,
			  struct ot_error *err)
{
	char buf[DUMP_LINE];
	size_t i, j;

	while (fgets(buf, sizeof(buf), in)) {
		unsigned long lid;
		uint64_t guid;
		char *end;

		if (strncmp(buf, "0x", 2))
			continue;
		lid = strtoul(buf, &end, 16);
		if (end == buf || hex_field(buf, "portguid 0x", &guid))
			continue;
		if (grow((void **)&rd->spans, &rd->capspans, rd->nspans + 1,
			 sizeof(*rd->spans)))
			return ot_error_nomem(err, "OpenSM dump");
		rd->spans[rd->nspans++] = (struct dump_lidspan){
			.port_guid = guid, .min = (unsigned int)lid,
			.max = (unsigned int)lid,
		};
	}
	if (ferror(in))
		return ot_error_set(err, "%s: %s", rd->path, strerror(errno));
	if (!rd->nspans)
		return 0;
	/* One span per port GUID: sort, then merge neighbours. */
	qsort(rd->spans, rd->nspans, sizeof(*rd->spans), cmp_span);
	for (i = 0, j = 0; i < rd->nspans; i++) {
		struct dump_lidspan *s = &rd->spans[i];

		if (j && rd->spans[j - 1].port_guid == s->port_guid) {
			struct dump_lidspan *t = &rd->spans[j - 1];

			if (s->min < t->min)
				t->min = s->min;
			if (s->max > t->max)
				t->max = s->max;
			continue;
		}
		rd->spans[j++] = *s;
	}
	rd->nspans = j;
	return 0;
}

/* The LMC that covers the LIDs the LFT dump lists for a port at base. */
static uint8_t port_lmc(const struct dump_reader *rd, uint64_t port_guid,
			unsigned int base)
{
	struct dump_lidspan key = { .port_guid = port_guid };
	const struct dump_lidspan *s;
	uint8_t lmc = 0;

	if (!rd->nspans)
		return 0;
	s = bsearch(&key, rd->spans, rd->nspans, sizeof(*rd->spans),
		    cmp_span);
	if (!s || s->max < base)
		return 0;
	while (lmc < 7 && base + (1u << lmc) <= s->max)
		lmc++;
	return lmc;
}

/*
 * The fabric: nodes in GUID order (as the live reader adds them, so both
 * give the same indices), their LIDs and port GUIDs, then the cables.
 */
static int build_fabric(struct dump_reader *rd, struct ot_fabric *f,
			struct ot_error *err)
{
	size_t i;

	qsort(rd->ends, rd->nends, sizeof(*rd->ends), cmp_end);
	rd->nodes = calloc(rd->nends, sizeof(*rd->nodes));
	if (!rd->nodes)
		return ot_error_nomem(err, "OpenSM dump");
	for (i = 0; i < rd->nends; i++) {
		const struct dump_end *e = &rd->ends[i];
		struct dump_node *n = rd->nnodes ?
			&rd->nodes[rd->nnodes - 1] : NULL;
		struct ot_node *nd;
		unsigned int port;

		if (n && n->guid == e->node_guid) {
			if (n->type != e->type || n->nports != e->nports)
				return ot_error_set(err,
						    "%s: node 0x%016" PRIx64 " (\"%s\") is listed with two types or port counts",
						    rd->path, e->node_guid,
						    e->desc);
		} else {
			n = &rd->nodes[rd->nnodes++];
			n->guid = e->node_guid;
			n->type = e->type;
			n->nports = e->nports;
			n->idx = ot_fabric_add_node(f, e->type, e->nports,
						    e->node_guid, e->desc,
						    err);
			if (n->idx < 0)
				return -1;
		}
		nd = &f->node[n->idx];
		port = e->type == OT_NODE_SWITCH ? 0 : e->port;
		nd->port[port].guid = e->port_guid;
		if (!e->lid || nd->port[port].lid)
			continue;
		if (ot_fabric_set_lid(f, n->idx, port, (uint16_t)e->lid,
				      port_lmc(rd, e->port_guid, e->lid), err))
			return -1;
	}
	for (i = 0; i < rd->nlinks; i++) {
		const struct dump_link *l = &rd->links[i];

		/* the nodes went in in GUID order */
		if (ot_fabric_link(f, ot_fabric_find_guid(f, l->a), l->pa,
				   ot_fabric_find_guid(f, l->b), l->pb, err))
			return -1;
	}
	return ot_fabric_index(f, err);
}

/* The node whose port (or switch port 0) has this GUID, and the port. */
static int find_port(const struct ot_fabric *f, uint64_t guid,
		     unsigned int *port)
{
	uint32_t n;
	unsigned int p;

	for (n = 0; n < f->nnodes; n++) {
		const struct ot_node *nd = &f->node[n];

		for (p = 0; p <= nd->nports; p++) {
			if (nd->port[p].guid == guid) {
				*port = p;
				return (int)n;
			}
		}
	}
	return -1;
}

/*
 * opensm-sl2vl.dump: a header per port ("Switch 0x<port guid>, base LID
 * 2, \"desc\""), then "in out : vl0 ... vl15" lines.  A CA's single line
 * "0 0" is its port's table, stored at (in 0, out port) as the live
 * reader does.
 */
static int read_sl2vl(FILE *in, const char *name, struct ot_routing *r,
		      struct ot_error *err)
{
	const struct ot_fabric *f = r->fabric;
	char buf[DUMP_LINE];
	unsigned int line = 0, max_vl = 0, port = 0;
	int node = -1;

	while (fgets(buf, sizeof(buf), in)) {
		unsigned int in_port, out_port, sl, np;
		uint64_t guid;
		char *p, *end;
		uint8_t *tbl;

		line++;
		if (buf[0] == '#' || buf[0] == '\n')
			continue;
		if (buf[0] < '0' || buf[0] > '9') {
			if (hex_field(buf, " 0x", &guid))
				return ot_error_set(err,
						    "%s:%u: expected a port header",
						    name, line);
			node = find_port(f, guid, &port);
			if (node < 0)
				return ot_error_set(err,
						    "%s:%u: port 0x%016" PRIx64 " is not in the subnet list",
						    name, line, guid);
			continue;
		}
		if (node < 0)
			return ot_error_set(err, "%s:%u: table before a header",
					    name, line);
		in_port = (unsigned int)strtoul(buf, &p, 10);
		out_port = (unsigned int)strtoul(p, &end, 10);
		np = f->node[node].nports;
		if (end == p || in_port > np || out_port > np ||
		    !(p = strchr(end, ':')))
			return ot_error_set(err, "%s:%u: bad SL2VL line", name,
					    line);
		if (!ot_is_switch(f, node))
			out_port = port;
		if (!r->sl2vl[node]) {
			r->sl2vl[node] = calloc((size_t)(np + 1) * (np + 1),
						OT_NUM_SLS);
			if (!r->sl2vl[node])
				return ot_error_nomem(err, "OpenSM dump");
		}
		tbl = r->sl2vl[node];
		p++;
		for (sl = 0; sl < OT_NUM_SLS; sl++) {
			unsigned long vl = strtoul(p, &end, 10);

			if (end == p || vl > 15)
				return ot_error_set(err,
						    "%s:%u: bad VL for SL %u",
						    name, line, sl);
			tbl[ot_sl2vl_index(np, in_port, out_port, sl)] =
				(uint8_t)vl;
			/* VL 15 is management, not a VL a route can use. */
			if (vl != 15 && vl > max_vl)
				max_vl = (unsigned int)vl;
			p = end;
		}
	}
	if (ferror(in))
		return ot_error_set(err, "%s: %s", name, strerror(errno));
	r->nvls = max_vl + 1;
	return 0;
}

/* rd->path := dir/file (the name errors give). */
static void dump_name(struct dump_reader *rd, const char *file)
{
	snprintf(rd->path, sizeof(rd->path), "%s/%s", rd->dir, file);
}

/* Builds the fabric and its LFTs from the subnet list and the LFT dump. */
static int read_fabric(struct dump_reader *rd, FILE *subnet, FILE *lfts,
		       struct ot_fabric *f, struct ot_routing **r,
		       struct ot_error *err)
{
	char lfts_path[sizeof(rd->path)];

	dump_name(rd, DUMP_SUBNET);
	if (read_subnet(rd, subnet, err))
		return -1;
	dump_name(rd, DUMP_LFTS);
	snprintf(lfts_path, sizeof(lfts_path), "%s", rd->path);
	if (read_lid_spans(rd, lfts, err))
		return -1;
	dump_name(rd, DUMP_SUBNET);
	if (build_fabric(rd, f, err))
		return -1;
	*r = ot_routing_new(f);
	if (!*r)
		return ot_error_nomem(err, "OpenSM dump");
	(*r)->path_sl_unknown = true; /* OpenSM dumps no path SLs */
	rewind(lfts);
	return ot_lft_read(lfts, lfts_path, *r, err);
}

int ot_osmdump_read(FILE *subnet, FILE *lfts, FILE *sl2vl, const char *dir,
		    struct ot_fabric **fabric, struct ot_routing **routing,
		    struct ot_error *err)
{
	struct dump_reader rd = { .dir = dir };
	struct ot_fabric *f = ot_fabric_new();
	struct ot_routing *r = NULL;
	int error = -1;

	*fabric = NULL;
	*routing = NULL;
	if (!f) {
		ot_error_nomem(err, "OpenSM dump");
		goto out;
	}
	if (read_fabric(&rd, subnet, lfts, f, &r, err))
		goto out;
	dump_name(&rd, DUMP_SL2VL);
	if (sl2vl && read_sl2vl(sl2vl, rd.path, r, err))
		goto out;
	*fabric = f;
	*routing = r;
	f = NULL;
	r = NULL;
	error = 0;
out:
	ot_routing_free(r);
	ot_fabric_free(f);
	free(rd.ends);
	free(rd.nodes);
	free(rd.links);
	free(rd.spans);
	return error;
}

/* Opens dir/file; NULL with errno set (rd->path names the file). */
static FILE *dump_open(struct dump_reader *rd, const char *file)
{
	dump_name(rd, file);
	return fopen(rd->path, "r");
}

/*
 * The plugin's osmtopo-path-sl.dump when it is there: a file that does
 * not match the fabric drops the fabric and routing read (-1).
 */
static int load_path_sls(struct dump_reader *rd, struct ot_fabric **fabric,
			 struct ot_routing **routing, struct ot_error *err)
{
	FILE *in = dump_open(rd, OT_PATHSL_FILE);
	int error;

	if (!in) {
		if (errno == ENOENT)
			return 0;
		error = ot_error_set(err, "%s: %s", rd->path, strerror(errno));
	} else {
		error = ot_pathsl_read(in, rd->path, *routing, err);
		fclose(in);
	}
	if (error) {
		ot_routing_free(*routing);
		ot_fabric_free(*fabric);
		*routing = NULL;
		*fabric = NULL;
	}
	return error;
}

int ot_osmdump_load(const char *dir, struct ot_fabric **fabric,
		    struct ot_routing **routing, struct ot_error *err)
{
	struct dump_reader rd = { .dir = dir };
	FILE *subnet = NULL, *lfts = NULL, *sl2vl = NULL;
	int error = -1;

	*fabric = NULL;
	*routing = NULL;
	subnet = dump_open(&rd, DUMP_SUBNET);
	if (!subnet) {
		ot_error_set(err, "%s: %s", rd.path, strerror(errno));
		goto out;
	}
	lfts = dump_open(&rd, DUMP_LFTS);
	if (!lfts) {
		/* Say how to get it: it is the file people forget. */
		ot_error_set(err,
			     "%s: %s (OpenSM writes it with routing debug logging, -D 0x43)",
			     rd.path, strerror(errno));
		goto out;
	}
	/* Absent when QoS is off: every SL then stays on VL 0. */
	sl2vl = dump_open(&rd, DUMP_SL2VL);
	if (!sl2vl && errno != ENOENT) {
		ot_error_set(err, "%s: %s", rd.path, strerror(errno));
		goto out;
	}
	error = ot_osmdump_read(subnet, lfts, sl2vl, dir, fabric, routing,
				err);
	if (!error)
		error = load_path_sls(&rd, fabric, routing, err);
out:
	if (subnet)
		fclose(subnet);
	if (lfts)
		fclose(lfts);
	if (sl2vl)
		fclose(sl2vl);
	return error;
}
