// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Fabric text files (see netfile.h): the reader turns an ibsim net
 * file or ibnetdiscover output into the fabric model, the first step of the
 * flow (fabric -> recognizer -> coordinates -> engine -> tables ->
 * checker), and the writer turns a generated model into a file ibsim can
 * serve.  Both follow ibsim's parser (ibsim/sim_net.c) wherever it decides
 * something the grammar leaves open, GUID assignment above all, so that a
 * fabric routed offline is the very fabric ibsim simulates.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/netfile.h"

/*
 * ibsim's per-type GUID counters start here (sim_net.c: CAs at 0x100000,
 * switches at 0x200000, routers at 0 since ibsim leaves that slot zero).
 */
#define IBSIM_CA_GUID_BASE 0x100000ull
#define IBSIM_SW_GUID_BASE 0x200000ull
#define IBSIM_RT_GUID_BASE 0x0ull

/* ibsim's NODEIDLEN is 65 with the NUL; a longer id is cut there. */
#define IBSIM_MAX_ID_LEN 64

struct guid_counters {
	uint64_t base[3]; /* last absolute base, for "caguid+N" */
	uint64_t next[3];
};

static unsigned int guid_slot(enum ot_node_type type)
{
	switch (type) {
	case OT_NODE_CA:
		return 0;
	case OT_NODE_SWITCH:
		return 1;
	case OT_NODE_ROUTER:
		break;
	}
	return 2;
}

static void guid_counters_init(struct guid_counters *g)
{
	g->base[0] = g->next[0] = IBSIM_CA_GUID_BASE;
	g->base[1] = g->next[1] = IBSIM_SW_GUID_BASE;
	g->base[2] = g->next[2] = IBSIM_RT_GUID_BASE;
}

/*
 * The GUID ibsim gives the next node of this type, and the step past it:
 * a switch reserves one GUID (its ports share it), any other node one per
 * port plus its own.
 */
static uint64_t guid_take(struct guid_counters *g, enum ot_node_type type,
			  unsigned int nports)
{
	unsigned int s = guid_slot(type);
	uint64_t guid = g->next[s];

	g->next[s] += type == OT_NODE_SWITCH ? 1 : nports + 1;
	return guid;
}

/* ---------------------------------------------------------------------- */
/* Reading                                                                 */
/* ---------------------------------------------------------------------- */

/* One "[p] "remote"[rp]" line, kept until every node is known. */
struct port_decl {
	char *remote;      /* NULL: port not declared */
	unsigned int rport;
	unsigned int line;
};

struct node_extra {
	char *id;
	unsigned int line; /* of the header */
	struct port_decl *decl; /* nports + 1 */
};

struct reader {
	const char *name;
	struct ot_error *err;
	struct ot_fabric *f;
	struct node_extra *extra; /* f->cap entries */
	uint32_t extra_cap;
	/* open-addressing hash of node ids, values are node index + 1 */
	uint32_t *ids;
	uint32_t ids_cap;
	struct guid_counters guids;
	int cur;           /* node whose port lines follow, -1 if none */
	unsigned int line;
	/* The last line read as nothing (no keyword known), for a message. */
	unsigned int skipped_line;
	char skipped_word[32];
};

static uint32_t hash_str(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 16777619u;
	}
	return h;
}

static int id_lookup(const struct reader *rd, const char *id)
{
	uint32_t mask = rd->ids_cap - 1, i;

	if (!rd->ids_cap)
		return -1;
	for (i = hash_str(id) & mask; rd->ids[i]; i = (i + 1) & mask)
		if (!strcmp(rd->extra[rd->ids[i] - 1].id, id))
			return rd->ids[i] - 1;
	return -1;
}

static int id_insert(struct reader *rd, uint32_t node)
{
	uint32_t mask, i;

	if (2 * (rd->f->nnodes + 1) > rd->ids_cap) {
		uint32_t cap = rd->ids_cap ? 2 * rd->ids_cap : 256, n;
		uint32_t *grown = calloc(cap, sizeof(*grown));

		if (!grown)
			return -1;
		for (n = 0; n < node; n++) {
			i = hash_str(rd->extra[n].id) & (cap - 1);
			while (grown[i])
				i = (i + 1) & (cap - 1);
			grown[i] = n + 1;
		}
		free(rd->ids);
		rd->ids = grown;
		rd->ids_cap = cap;
	}
	mask = rd->ids_cap - 1;
	for (i = hash_str(rd->extra[node].id) & mask; rd->ids[i];
	     i = (i + 1) & mask)
		;
	rd->ids[i] = node + 1;
	return 0;
}

/* "<file>:<line>: <what>" for the line being read. */
static int rd_error(struct reader *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int rd_error(struct reader *rd, const char *fmt, ...)
{
	char what[OT_ERROR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return ot_error_set(rd->err, "%s:%u: %s", rd->name, rd->line, what);
}

/* "<file>:<line>: out of memory", class OT_ERR_NOMEM. */
static int rd_nomem(struct reader *rd)
{
	char where[OT_ERROR_LEN];

	snprintf(where, sizeof(where), "%s:%u", rd->name, rd->line);
	return ot_error_nomem(rd->err, where);
}

static const char *skip_space(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/*
 * Copies the text between the first pair of quotes at or after s into a
 * new string; *end points past the closing quote.  NULL when there is no
 * such pair (or on OOM, which the caller reports the same way).
 */
static char *quoted(const char *s, const char **end)
{
	const char *a = strchr(s, '"'), *b;

	if (!a)
		return NULL;
	b = strchr(a + 1, '"');
	if (!b)
		return NULL;
	*end = b + 1;
	return strndup(a + 1, b - a - 1);
}

/* "S-0002c90300a1b2c3" and the like: ibnetdiscover names nodes by GUID. */
static bool guid_from_id(const char *id, uint64_t *guid)
{
	unsigned int i;

	if ((id[0] != 'S' && id[0] != 'H' && id[0] != 'R') || id[1] != '-')
		return false;
	for (i = 2; i < 18; i++)
		if (!isxdigit((unsigned char)id[i]))
			return false;
	if (id[18])
		return false;
	*guid = strtoull(id + 2, NULL, 16);
	return true;
}

/* Value of "word N" in s[0..len), if present. */
static bool find_number(const char *s, size_t len, const char *word,
			unsigned long *val)
{
	size_t wl = strlen(word), i;

	for (i = 0; i + wl < len; i++) {
		if (strncmp(s + i, word, wl))
			continue;
		if (i && isalnum((unsigned char)s[i - 1]))
			continue;
		if (!isdigit((unsigned char)s[i + wl]))
			continue;
		*val = strtoul(s + i + wl, NULL, 0);
		return true;
	}
	return false;
}

static int parse_guid_base(struct reader *rd, const char *line,
			   enum ot_node_type type)
{
	unsigned int s = guid_slot(type);
	const char *op = strpbrk(line, "=+");
	char *end;
	uint64_t v;

	if (!op)
		return rd_error(rd, "GUID line without '=' or '+'");
	errno = 0;
	v = strtoull(op + 1, &end, 0);
	if (errno || end == op + 1)
		return rd_error(rd, "bad GUID value");
	if (*op == '=') {
		rd->guids.base[s] = v;
		rd->guids.next[s] = v;
	} else {
		rd->guids.next[s] = rd->guids.base[s] + v;
	}
	return 0;
}

/*
 * The node description and the rest of a header comment, as ibsim reads
 * them: a quoted desc, or the text up to the first keyword it knows.
 */
static char *header_desc(const char *comment, const char **rest)
{
	static const char *const stops[] = {
		" enhanced port ", " base port ", " lid ", " lmc ",
	};
	const char *s = skip_space(comment), *e = NULL;
	unsigned int i;

	*rest = s;
	if (*s == '"')
		return quoted(s, rest);
	for (i = 0; i < sizeof(stops) / sizeof(stops[0]); i++) {
		const char *hit = strstr(s, stops[i]);

		if (hit && (!e || hit < e))
			e = hit;
	}
	if (!e)
		e = s + strlen(s);
	*rest = e;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	return strndup(s, e - s);
}

static int grow_extra(struct reader *rd)
{
	struct node_extra *grown;
	uint32_t cap;

	if (rd->f->nnodes < rd->extra_cap)
		return 0;
	cap = rd->extra_cap ? 2 * rd->extra_cap : 64;
	grown = realloc(rd->extra, cap * sizeof(*grown));
	if (!grown)
		return -1;
	memset(grown + rd->extra_cap, 0,
	       (cap - rd->extra_cap) * sizeof(*grown));
	rd->extra = grown;
	rd->extra_cap = cap;
	return 0;
}

/*
 * "lid N [lmc M]" in s[0..len) into port pt; nothing when s names no LID.
 * 0, or -1 when out of range.
 */
static int read_lid(struct reader *rd, const char *s, size_t len,
		    struct ot_port *pt)
{
	unsigned long lid, lmc = 0;

	if (!find_number(s, len, "lid ", &lid))
		return 0;
	find_number(s, len, "lmc ", &lmc);
	if (lid > OT_MAX_UCAST_LID || lmc > 7)
		return rd_error(rd, "LID or LMC out of range");
	pt->lid = lid;
	pt->lmc = lmc;
	return 0;
}

/*
 * The port count and the quoted id that follow a header's keyword (s):
 * *id is the caller's to free, *rest the text after the id.
 */
static int header_ports_id(struct reader *rd, const char *s,
			   unsigned long *nports, char **id, const char **rest)
{
	char *end;

	s = skip_space(s);
	errno = 0;
	*nports = strtoul(s, &end, 10);
	if (end == s || errno || *nports < 1 || *nports > OT_MAX_PORTS)
		return rd_error(rd, "node header needs a port count (1..254)");
	*id = quoted(end, rest);
	if (!*id || !**id)
		return rd_error(rd, "node header needs a quoted id");
	if (strlen(*id) > IBSIM_MAX_ID_LEN)
		return rd_error(rd,
				"id \"%s\" longer than %u characters (ibsim's limit)",
				*id, IBSIM_MAX_ID_LEN);
	if (id_lookup(rd, *id) >= 0)
		return rd_error(rd, "node \"%s\" declared twice", *id);
	return 0;
}

/*
 * Adds the node a header declares, with the GUIDs ibsim gives it (or the
 * one its id names), and takes *id over.  The node's index, or -1.
 */
static int add_declared_node(struct reader *rd, enum ot_node_type type,
			     unsigned int nports, char **id, const char *desc)
{
	struct ot_error sub;
	uint64_t guid, id_guid;
	unsigned int p;
	int n;

	guid = guid_take(&rd->guids, type, nports);
	if (guid_from_id(*id, &id_guid))
		guid = id_guid;
	if (grow_extra(rd))
		return rd_nomem(rd);
	n = ot_fabric_add_node(rd->f, type, nports, guid,
			       desc && *desc ? desc : *id, &sub);
	if (n < 0)
		return rd_error(rd, "%s", sub.msg);
	for (p = 0; p <= nports; p++)
		rd->f->node[n].port[p].guid =
			type == OT_NODE_SWITCH ? guid : guid + p;
	if (type != OT_NODE_SWITCH)
		rd->f->node[n].port[0].guid = 0;
	rd->extra[n].id = *id;
	*id = NULL;
	rd->extra[n].line = rd->line;
	rd->extra[n].decl = calloc(nports + 1, sizeof(struct port_decl));
	if (!rd->extra[n].decl || id_insert(rd, n))
		return rd_nomem(rd);
	return n;
}

/* "Switch|Ca|Rt <ports> "<id>" [# <desc> ...]": a node record starts. */
static int parse_header(struct reader *rd, const char *line,
			enum ot_node_type type, size_t keyword_len)
{
	const char *rest = NULL, *comment;
	char *id = NULL, *desc = NULL;
	unsigned long nports;
	int error, n;

	error = header_ports_id(rd, line + keyword_len, &nports, &id, &rest);
	if (error)
		goto out;
	comment = strchr(rest, '#');
	if (comment) {
		desc = header_desc(comment + 1, &rest);
		if (!desc) {
			error = rd_nomem(rd);
			goto out;
		}
	}
	n = add_declared_node(rd, type, nports, &id, desc);
	if (n < 0) {
		error = -1;
		goto out;
	}
	/* Only a switch header carries a LID: a CA's are on its port lines. */
	if (type == OT_NODE_SWITCH && comment && rest)
		error = read_lid(rd, rest, strlen(rest),
				 &rd->f->node[n].port[0]);
	if (!error)
		rd->cur = n;
out:
	free(id);
	free(desc);
	return error;
}

/* "(2c9000100d051)" after a port number: a port GUID in hex. */
static const char *port_guid_suffix(const char *s, uint64_t *guid,
				    bool *has)
{
	char *end;

	*has = false;
	if (*s != '(')
		return s;
	*guid = strtoull(s + 1, &end, 16);
	if (end == s + 1 || *end != ')')
		return s;
	*has = true;
	return end + 1;
}

/* "[p]" and an optional "(port guid)": the port, in the node's range. */
static int port_number(struct reader *rd, struct ot_node *node,
		       const char *s, unsigned long *p, const char **after)
{
	uint64_t pguid;
	bool has_guid;
	char *end;

	*p = strtoul(s, &end, 10);
	if (end == s || *end != ']')
		return rd_error(rd, "port line must start with \"[port]\"");
	if (*p < 1 || *p > node->nports)
		return rd_error(rd, "port %lu out of range for \"%s\" (1..%u)",
				*p, rd->extra[rd->cur].id, node->nports);
	*after = port_guid_suffix(end + 1, &pguid, &has_guid);
	if (has_guid && node->type != OT_NODE_SWITCH)
		node->port[*p].guid = pguid;
	return 0;
}

/*
 * ""remote"[rp]": the far end's id (the caller's to free) and port, 1
 * when not given; *after: the text after them.
 */
static int remote_end(struct reader *rd, const char *s, char **remote,
		      unsigned long *rp, const char **after)
{
	char *end;

	*remote = quoted(s, after);
	if (!*remote || !**remote)
		return rd_error(rd, "port line needs a quoted remote id");
	*rp = 1;
	/* ibsim takes "[rp]" only right after the quote, else port 1. */
	if (**after == '[') {
		*rp = strtoul(*after + 1, &end, 10);
		if (end == *after + 1 || *end != ']' || *rp < 1 ||
		    *rp > OT_MAX_PORTS)
			return rd_error(rd, "bad remote port number");
		*after = end + 1;
	} else if (*skip_space(*after) == '[') {
		return rd_error(rd,
				"space between remote id and \"[port]\" (ibsim would read port 1)");
	}
	return 0;
}

/* "[p](guid) "remote"[rp] # ...": one port of the current node. */
static int parse_port_line(struct reader *rd, const char *line)
{
	struct ot_node *node = &rd->f->node[rd->cur];
	const char *s = NULL, *after = NULL, *comment;
	struct port_decl *d;
	unsigned long p = 0, rp = 1;
	char *remote = NULL;
	int error;

	error = port_number(rd, node, line + 1, &p, &s);
	if (!error)
		error = remote_end(rd, s, &remote, &rp, &after);
	if (error)
		goto out;
	d = &rd->extra[rd->cur].decl[p];
	if (d->remote) {
		error = rd_error(rd,
				 "port %lu of \"%s\" already declared at line %u",
				 p, rd->extra[rd->cur].id, d->line);
		goto out;
	}
	d->remote = remote;
	remote = NULL;
	d->rport = rp;
	d->line = rd->line;
	/*
	 * ibnetdiscover writes a CA port's own LID first in the comment
	 * ("# lid 2 lmc 0 "remote desc" lid 1 4xSDR"); on a switch port the
	 * only LID there is the remote's.
	 */
	comment = strchr(after, '#');
	if (comment && node->type != OT_NODE_SWITCH) {
		const char *q = strchr(comment, '"');

		error = read_lid(rd, comment,
				 q ? (size_t)(q - comment) : strlen(comment),
				 &node->port[p]);
	}
out:
	free(remote);
	return error;
}

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/*
 * A line with no keyword the reader knows.  "WORD N "id"" is a node
 * header with its type misspelt ("Swtch"): an error, here and not at the
 * port line after it.  Anything else (vendid=, devid=, sysimgguid=,
 * width=, ...) has nothing to model, and is remembered for a message.
 */
static int skip_line(struct reader *rd, const char *line)
{
	size_t w = strcspn(line, " \t");
	const char *s = skip_space(line + w);
	const char *q = s;

	while (isdigit((unsigned char)*q))
		q++;
	if (!*line)
		return 0;
	if (w && q > s && (*q == ' ' || *q == '\t') && *skip_space(q) == '"')
		return rd_error(rd,
				"unknown node type \"%.*s\" (Switch, Ca, Hca or Rt)",
				(int)(w < 32 ? w : 32), line);
	rd->skipped_line = rd->line;
	snprintf(rd->skipped_word, sizeof(rd->skipped_word), "%.*s",
		 (int)(w < sizeof(rd->skipped_word) - 1 ?
			       w : sizeof(rd->skipped_word) - 1),
		 line);
	return 0;
}

static int parse_line(struct reader *rd, const char *line)
{
	if (*line == '#')
		return 0; /* comments do not end a record */
	if (*line == '[') {
		if (rd->cur >= 0)
			return parse_port_line(rd, line);
		if (rd->skipped_line)
			return rd_error(rd,
					"port line outside a node record (line %u, \"%s ...\", was read as no node header)",
					rd->skipped_line, rd->skipped_word);
		return rd_error(rd, "port line outside a node record");
	}
	rd->cur = -1;
	if (*line == '@')
		return rd_error(rd, "ibsim port aliases are not supported");
	if (starts_with(line, "Switch"))
		return parse_header(rd, line, OT_NODE_SWITCH, 6);
	if (starts_with(line, "Hca"))
		return parse_header(rd, line, OT_NODE_CA, 3);
	if (starts_with(line, "Ca"))
		return parse_header(rd, line, OT_NODE_CA, 2);
	if (starts_with(line, "Rt"))
		return parse_header(rd, line, OT_NODE_ROUTER, 2);
	if (starts_with(line, "switchguid"))
		return parse_guid_base(rd, line, OT_NODE_SWITCH);
	if (starts_with(line, "caguid") || starts_with(line, "hcaguids"))
		return parse_guid_base(rd, line, OT_NODE_CA);
	if (starts_with(line, "rtguid"))
		return parse_guid_base(rd, line, OT_NODE_ROUTER);
	if (starts_with(line, "include") || starts_with(line, "module") ||
	    starts_with(line, "do"))
		return rd_error(rd,
				"ibsim include/module/do lines are not supported");
	return skip_line(rd, line);
}

/*
 * A cable on one end only (*lone, of node i port p, to node r): a cable
 * half taken out, or a typo.  ibsim 0.10 refuses it too ("remote port P
 * in node N is not connected to ...").
 */
static int lone_end(struct reader *rd, const struct port_decl *lone,
		    uint32_t i, unsigned int p, int r)
{
	return ot_error_set(rd->err,
			    "%s:%u: \"%s\"[%u] is cabled to \"%s\"[%u], but the record of \"%s\" (line %u) has no port %u line: a cable is listed on both of its ends",
			    rd->name, lone->line, rd->extra[i].id, p,
			    lone->remote, lone->rport, lone->remote,
			    rd->extra[r].line, lone->rport);
}

static int link_declared(struct reader *rd)
{
	const struct port_decl *lone = NULL;
	struct ot_fabric *f = rd->f;
	struct ot_error sub;
	uint32_t i, lone_i = 0;
	unsigned int p, lone_p = 0;
	int lone_r = 0;

	for (i = 0; i < f->nnodes; i++) {
		const struct node_extra *x = &rd->extra[i];

		for (p = 1; p <= f->node[i].nports; p++) {
			const struct port_decl *d = &x->decl[p];
			const struct port_decl *back;
			int r;

			if (!d->remote)
				continue;
			r = id_lookup(rd, d->remote);
			if (r < 0)
				return ot_error_set(rd->err,
						    "%s:%u: unknown node \"%s\"",
						    rd->name, d->line,
						    d->remote);
			if (d->rport > f->node[r].nports)
				return ot_error_set(rd->err,
						    "%s:%u: \"%s\" has no port %u (1..%u)",
						    rd->name, d->line,
						    d->remote, d->rport,
						    f->node[r].nports);
			back = &rd->extra[r].decl[d->rport];
			/* said after the loop: a port cabled twice first */
			if (!back->remote && !lone) {
				lone = d;
				lone_i = i;
				lone_p = p;
				lone_r = r;
			}
			if (back->remote &&
			    (strcmp(back->remote, x->id) || back->rport != p))
				return ot_error_set(rd->err,
						    "%s:%u: \"%s\"[%u] cabled to \"%s\"[%u], but line %u cables \"%s\"[%u] to \"%s\"[%u]",
						    rd->name, d->line, x->id,
						    p, d->remote, d->rport,
						    back->line, d->remote,
						    d->rport, back->remote,
						    back->rport);
			if (ot_fabric_link(f, i, p, r, d->rport, &sub))
				return ot_error_set(rd->err, "%s:%u: %s",
						    rd->name, d->line,
						    sub.msg);
		}
	}
	return lone ? lone_end(rd, lone, lone_i, lone_p, lone_r) : 0;
}

static int cmp_guid_node(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* ibsim refuses a node whose GUID another node has: so do we. */
static int check_unique_guids(struct reader *rd)
{
	struct ot_fabric *f = rd->f;
	uint64_t *pairs;
	uint32_t i;
	int error = 0;

	if (f->nnodes < 2)
		return 0;
	pairs = malloc(2 * sizeof(*pairs) * f->nnodes);
	if (!pairs)
		return ot_error_nomem(rd->err, rd->name);
	for (i = 0; i < f->nnodes; i++) {
		pairs[2 * i] = f->node[i].guid;
		pairs[2 * i + 1] = i;
	}
	qsort(pairs, f->nnodes, 2 * sizeof(*pairs), cmp_guid_node);
	for (i = 1; i < f->nnodes; i++) {
		uint32_t a = pairs[2 * i - 1], b = pairs[2 * i + 1];

		if (pairs[2 * i] != pairs[2 * i - 2])
			continue;
		error = ot_error_set(rd->err,
				     "%s:%u: node \"%s\" has GUID 0x%016" PRIx64 ", as \"%s\" (line %u)",
				     rd->name, rd->extra[b].line,
				     rd->extra[b].id, f->node[b].guid,
				     rd->extra[a].id, rd->extra[a].line);
		break;
	}
	free(pairs);
	return error;
}

static void strip_newline(char *s, ssize_t *len)
{
	while (*len > 0 && (s[*len - 1] == '\n' || s[*len - 1] == '\r'))
		s[--*len] = '\0';
}

struct ot_fabric *ot_netfile_read(FILE *in, const char *name,
				  struct ot_error *err)
{
	struct reader rd = {
		.name = name,
		.err = err,
		.cur = -1,
	};
	struct ot_error sub;
	char *buf = NULL;
	size_t bufsize = 0;
	ssize_t len;
	uint32_t i, p;
	int error = 0;

	guid_counters_init(&rd.guids);
	rd.f = ot_fabric_new();
	if (!rd.f) {
		error = ot_error_nomem(err, name);
		goto out;
	}
	for (;;) {
		len = getline(&buf, &bufsize, in);
		if (len < 0)
			break;
		rd.line++;
		strip_newline(buf, &len);
		error = parse_line(&rd, skip_space(buf));
		if (error)
			goto out;
	}
	if (ferror(in)) {
		error = ot_error_set(err, "%s: read error", name);
		goto out;
	}
	if (!rd.f->nnodes) {
		error = ot_error_set(err, "%s: no nodes", name);
		goto out;
	}
	error = link_declared(&rd);
	if (error)
		goto out;
	error = check_unique_guids(&rd);
	if (error)
		goto out;
	if (ot_fabric_assign_lids(rd.f)) {
		error = ot_error_set(err,
				     "%s: more ports need LIDs than the %u unicast LIDs hold",
				     name, OT_MAX_UCAST_LID);
		goto out;
	}
	error = ot_fabric_index(rd.f, &sub);
	if (error)
		ot_error_set(err, "%s: %s", name, sub.msg);
out:
	free(buf);
	for (i = 0; i < rd.extra_cap && rd.extra; i++) {
		free(rd.extra[i].id);
		if (rd.extra[i].decl && rd.f)
			for (p = 0; p <= rd.f->node[i].nports; p++)
				free(rd.extra[i].decl[p].remote);
		free(rd.extra[i].decl);
	}
	free(rd.extra);
	free(rd.ids);
	if (error) {
		ot_fabric_free(rd.f);
		return NULL;
	}
	return rd.f;
}

struct ot_fabric *ot_netfile_load(const char *path, struct ot_error *err)
{
	struct ot_fabric *f;
	FILE *in;

	if (!strcmp(path, "-"))
		return ot_netfile_read(stdin, "<stdin>", err);
	in = fopen(path, "r");
	if (!in) {
		ot_error_set(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	f = ot_netfile_read(in, path, err);
	fclose(in);
	return f;
}

/* ---------------------------------------------------------------------- */
/* Writing                                                                 */
/* ---------------------------------------------------------------------- */

static const char grammar[] =
	"# ibsim net file (ibnetdiscover grammar), read by ibsim -n and osmtopo.\n"
	"#\n"
	"# A record per node, ended by a blank line:\n"
	"#   Switch|Ca|Rt  <ports>  \"<id>\"  [# \"<desc>\" [base port 0 lid <lid> lmc <lmc>]]\n"
	"#   [<port>](<port guid>)  \"<remote id>\"[<remote port>]  [# ...]\n"
	"# one port line per cabled port; a cable appears on both of its ends.\n"
	"# \"(<port guid>)\" is optional; a missing \"[<remote port>]\" means 1.\n"
	"# On a CA port line the comment starts with the port's own\n"
	"# \"lid <lid> lmc <lmc>\" (0: none), then the remote's desc and LID.\n"
	"#\n"
	"# GUIDs: ibsim numbers CAs from 0x100000 (nports + 1 GUIDs each, port p\n"
	"# is node GUID + p) and switches from 0x200000 (one each), in file\n"
	"# order; \"caguid=\" and \"switchguid=\" lines restart the count.\n"
	"#\n"
	"# ibsim attaches its clients (OpenSM too) to the first port of the\n"
	"# file, so the first record is a CA.\n"
	"#\n";

static const char *guid_keyword(enum ot_node_type type)
{
	switch (type) {
	case OT_NODE_CA:
		return "caguid";
	case OT_NODE_SWITCH:
		return "switchguid";
	case OT_NODE_ROUTER:
		break;
	}
	return "rtguid";
}

static char id_prefix(enum ot_node_type type)
{
	switch (type) {
	case OT_NODE_CA:
		return 'H';
	case OT_NODE_SWITCH:
		return 'S';
	case OT_NODE_ROUTER:
		break;
	}
	return 'R';
}

static int cmp_str_ptr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A desc can serve as the id when ibsim and our reader keep it as is. */
static bool desc_usable_as_id(const char *d)
{
	uint64_t unused;

	return *d && strlen(d) <= IBSIM_MAX_ID_LEN && !strpbrk(d, "\"#@\n\r") &&
	       d[0] != ' ' && d[0] != '\t' && !guid_from_id(d, &unused);
}

/* Whether every node can be named by its desc.  -1 on OOM. */
static int descs_are_ids(const struct ot_fabric *f)
{
	char **sorted;
	uint32_t i;
	int usable = 1;

	for (i = 0; i < f->nnodes; i++)
		if (!desc_usable_as_id(f->node[i].desc))
			return 0;
	if (f->nnodes < 2)
		return 1;
	sorted = malloc(f->nnodes * sizeof(*sorted));
	if (!sorted)
		return -1;
	for (i = 0; i < f->nnodes; i++)
		sorted[i] = f->node[i].desc;
	qsort(sorted, f->nnodes, sizeof(*sorted), cmp_str_ptr);
	for (i = 1; i < f->nnodes && usable; i++)
		if (!strcmp(sorted[i - 1], sorted[i]))
			usable = 0;
	free(sorted);
	return usable;
}

/*
 * The first CA with port 1 cabled goes first: ibsim attaches its clients
 * to port 1 of the first record.  Falls back to any CA, then to node 0.
 */
static uint32_t first_record(const struct ot_fabric *f)
{
	uint32_t i, any = f->nnodes;

	for (i = 0; i < f->nnodes; i++) {
		if (f->node[i].type != OT_NODE_CA)
			continue;
		if (f->node[i].port[1].peer >= 0)
			return i;
		if (any == f->nnodes)
			any = i;
	}
	return any < f->nnodes ? any : 0;
}

struct writer {
	FILE *out;
	const struct ot_fabric *f;
	bool by_desc;
	uint64_t *guid; /* the GUID each node will have under ibsim */
};

static int write_id(const struct writer *w, uint32_t n)
{
	const struct ot_node *node = &w->f->node[n];

	if (w->by_desc)
		return fprintf(w->out, "\"%s\"", node->desc);
	return fprintf(w->out, "\"%c-%016" PRIx64 "\"", id_prefix(node->type),
		       w->guid[n]);
}

/* A desc as a comment can hold: ibsim stops at the first quote. */
static void write_desc(FILE *out, const char *d)
{
	for (; *d; d++)
		fputc(*d == '"' || *d == '\n' || *d == '\r' ? '\'' : *d, out);
}

static uint16_t peer_lid(const struct ot_fabric *f, const struct ot_port *pt)
{
	const struct ot_node *m = &f->node[pt->peer];

	return m->type == OT_NODE_SWITCH ? m->port[0].lid :
					   m->port[pt->peer_port].lid;
}

static void write_record(const struct writer *w, uint32_t n)
{
	const struct ot_node *node = &w->f->node[n];
	FILE *out = w->out;
	unsigned int p;

	fprintf(out, "%s\t%u ", ot_node_type_str(node->type), node->nports);
	write_id(w, n);
	fputs("\t\t# \"", out);
	write_desc(out, node->desc);
	fputc('"', out);
	/*
	 * Known GUIDs are shown even where ibsim's count makes them implicit
	 * (neither ibsim nor our reader takes them from here).
	 */
	if (node->guid)
		fprintf(out, " guid 0x%016" PRIx64, node->guid);
	if (node->type == OT_NODE_SWITCH && node->port[0].lid)
		fprintf(out, " base port 0 lid %u lmc %u", node->port[0].lid,
			node->port[0].lmc);
	fputc('\n', out);
	for (p = 1; p <= node->nports; p++) {
		const struct ot_port *pt = &node->port[p];

		if (pt->peer < 0)
			continue;
		fprintf(out, "[%u]", p);
		if (node->type != OT_NODE_SWITCH && pt->guid &&
		    pt->guid != w->guid[n] + p)
			fprintf(out, "(%" PRIx64 ")", pt->guid);
		fputc('\t', out);
		write_id(w, pt->peer);
		fprintf(out, "[%u]\t\t# ", pt->peer_port);
		/* ibsim reads "lid N <width>x<speed>": 4xSDR is its default */
		if (node->type != OT_NODE_SWITCH)
			fprintf(out, "lid %u lmc %u ", pt->lid, pt->lmc);
		fputc('"', out);
		write_desc(out, w->f->node[pt->peer].desc);
		fprintf(out, "\" lid %u 4xSDR\n", peer_lid(w->f, pt));
	}
	fputc('\n', out);
}

int ot_netfile_write(FILE *out, const struct ot_fabric *f,
		     const char *comment)
{
	struct writer w = { .out = out, .f = f };
	struct guid_counters g;
	uint32_t *order = NULL, i, first, k = 0;
	int by_desc, error = 0;

	by_desc = descs_are_ids(f);
	w.guid = calloc(f->nnodes ? f->nnodes : 1, sizeof(*w.guid));
	order = calloc(f->nnodes ? f->nnodes : 1, sizeof(*order));
	if (by_desc < 0 || !w.guid || !order) {
		error = -1;
		goto out;
	}
	w.by_desc = by_desc;
	first = first_record(f);
	if (f->nnodes)
		order[k++] = first;
	for (i = 0; i < f->nnodes; i++)
		if (i != first)
			order[k++] = i;

	fputs(grammar, out);
	if (comment) {
		const char *s = comment;

		while (*s) {
			size_t len = strcspn(s, "\n");

			fprintf(out, "# %.*s\n", (int)len, s);
			s += len;
			if (*s == '\n')
				s++;
		}
	}
	fputc('\n', out);

	/*
	 * Two passes: port lines name their peers by GUID, so every node's
	 * GUID under ibsim must be known first.  Where ibsim's count would
	 * give a node another GUID than its own, a GUID line restarts it.
	 */
	guid_counters_init(&g);
	for (i = 0; i < k; i++) {
		const struct ot_node *node = &f->node[order[i]];
		unsigned int s = guid_slot(node->type);

		if (node->guid && node->guid != g.next[s])
			g.base[s] = g.next[s] = node->guid;
		w.guid[order[i]] = guid_take(&g, node->type, node->nports);
	}
	guid_counters_init(&g);
	for (i = 0; i < k; i++) {
		const struct ot_node *node = &f->node[order[i]];
		unsigned int s = guid_slot(node->type);

		if (node->guid && node->guid != g.next[s]) {
			g.base[s] = g.next[s] = node->guid;
			fprintf(out, "%s=0x%" PRIx64 "\n",
				guid_keyword(node->type), node->guid);
		}
		guid_take(&g, node->type, node->nports);
		write_record(&w, order[i]);
	}
	/* ibsim may drop a last record with nothing after it */
	fputs("# end of fabric\n", out);
	if (fflush(out) || ferror(out))
		error = -1;
out:
	free(w.guid);
	free(order);
	return error;
}
