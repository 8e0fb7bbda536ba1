// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The KNS recognizer for lines built as fat trees (seed 000, section 2.2:
 * a k-ary n-direct s-indirect network, where a line of k routers that
 * does not fit one switch is an indirect network of s stages), the step
 * between the fabric and hdor's fat-tree routing (route/hdor_ft.c).
 *
 * From the cabling alone:
 * - routers are the switches with a CA, line switches the others;
 * - a line is a set of line switches joined by switch cables (s >= 2),
 *   merged with any other such set that shares two or more routers with
 *   it (s = 1 with several switches per line: each switch is its own set,
 *   and two lines of a KNS share at most one router);
 * - taking each line as one switch gives a KNS of s = 1, which the seed's
 *   recognizer (topo/kns.c) numbers: dimensions and coordinates; what
 *   the cabling leaves open (the origin, the order of each dimension's
 *   values, the order of the dimensions) is then numbered by colour
 *   refinement (topo/kns_canon.c), GUIDs deciding only what refinement
 *   cannot, so the coordinates depend on neither port numbers, discovery
 *   order nor, where the cabling tells, GUIDs;
 * - inside a line, levels are counted from the routers (breadth-first:
 *   stage 1 is cabled to a router, stage l + 1 to stage l), and a cable
 *   between two switches of one level is refused as no fat tree, naming
 *   the switch and port.  Positions in a stage go by colour (the same
 *   refinement, from the coordinates), then GUID.
 * Whether every pair of routers of a line has an up-then-down path is
 * the engine's question (damage), not the recognizer's.  One dimension
 * (a single line of routers) is refused: that is a fat tree whose leaves
 * carry the CAs, which ftree and updn route.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model/sort.h"
#include "model/uf.h"
#include "topo/kns.h"
#include "topo/kns_canon.h"
#include "topo/kns_dmg.h"

#define FT_MAX_STAGES 15

struct ft_build {
	const struct ot_fabric *f;
	struct ot_error *err;
	bool *is_router;
	struct ot_uf *uf;       /* over nodes: line switches joined by cables */
	/* (component root, router) pairs, sorted, deduplicated */
	uint64_t *pairs;
	uint32_t npairs;
	/* per component root: its routers pairs[cstart[c]..cstart[c]+ccnt[c]) */
	uint32_t *cstart, *ccnt;
	struct ot_uf *luf;      /* over nodes (component roots): lines */
	int32_t *lineno;        /* per line root: line index, else -1 */
	uint32_t nlines;
	int32_t *line_rep;      /* per line: its switch with the lowest GUID */
	uint32_t *lstart;       /* line routers: lrouter[lstart[l]..lstart[l+1]) */
	int32_t *lrouter;
	uint32_t *colour;       /* per node: topo/kns_canon.c's colour */
};

#define NODE_FMT "switch \"%s\" (0x%016" PRIx64 ")"
#define NODE_ARGS(f, x) (f)->node[x].desc, (f)->node[x].guid

/* Routers, and the cables that no KNS has. */
static int classify(struct ft_build *b, bool *looks_ft)
{
	const struct ot_fabric *f = b->f;
	uint32_t i;
	unsigned int p;

	for (i = 0; i < f->nnodes; i++) {
		const struct ot_node *nd = &f->node[i];

		if (nd->type == OT_NODE_ROUTER)
			return ot_refuse(b->err, OT_ERR_TOPOLOGY,
					 "\"%s\": a KNS has no IB routers",
					 nd->desc);
		if (nd->type != OT_NODE_CA)
			continue;
		for (p = 1; p <= nd->nports; p++) {
			int32_t peer = nd->port[p].peer;

			if (peer < 0)
				continue;
			if (f->node[peer].type != OT_NODE_SWITCH)
				return ot_refuse(b->err, OT_ERR_TOPOLOGY,
						 "CA \"%s\" port %u: cabled to \"%s\"; in a KNS every CA hangs off a router",
						 nd->desc, p,
						 f->node[peer].desc);
			b->is_router[peer] = true;
		}
	}
	/* (ot_switch_peer() is -1 unless both ends are switches) */
	for (i = 0; i < f->nnodes; i++) {
		for (p = 1; p <= f->node[i].nports; p++) {
			int32_t peer = ot_switch_peer(f, i, p);

			if (peer < 0)
				continue;
			if (b->is_router[i] && b->is_router[peer])
				return ot_refuse(b->err, OT_ERR_TOPOLOGY,
						 "router " NODE_FMT " port %u: cabled to router \"%s\"; KNS routers connect only to their CAs and to line switches",
						 NODE_ARGS(f, i), p,
						 f->node[peer].desc);
			if (!b->is_router[i] && !b->is_router[peer]) {
				*looks_ft = true;
				ot_uf_union(b->uf, i, peer);
			}
		}
	}
	return 0;
}

/* (component, router) pairs, grouped by component. */
static int collect_pairs(struct ft_build *b)
{
	const struct ot_fabric *f = b->f;
	uint32_t i, n = 0, j;
	unsigned int p;

	for (i = 0; i < f->nnodes; i++)
		if (f->node[i].type == OT_NODE_SWITCH && !b->is_router[i])
			n += f->node[i].nports;
	b->pairs = malloc(((size_t)n + 1) * sizeof(*b->pairs));
	b->cstart = calloc(f->nnodes, sizeof(*b->cstart));
	b->ccnt = calloc(f->nnodes, sizeof(*b->ccnt));
	if (!b->pairs || !b->cstart || !b->ccnt)
		return ot_error_nomem(b->err, "kns");
	for (i = 0; i < f->nnodes; i++) {
		const struct ot_node *nd = &f->node[i];
		uint32_t root;
		bool any = false;

		if (nd->type != OT_NODE_SWITCH || b->is_router[i])
			continue;
		root = ot_uf_find(b->uf, i);
		for (p = 1; p <= nd->nports; p++) {
			int32_t peer = nd->port[p].peer;

			if (peer < 0)
				continue;
			any = true;
			if (b->is_router[peer])
				b->pairs[b->npairs++] =
					(uint64_t)root << 32 | (uint32_t)peer;
		}
		if (!any)
			return ot_refuse(b->err, OT_ERR_TOPOLOGY,
					 NODE_FMT ": no port is cabled",
					 NODE_ARGS(f, i));
	}
	qsort(b->pairs, b->npairs, sizeof(*b->pairs), ot_cmp_u64);
	for (i = 0, j = 0; i < b->npairs; i++)
		if (!j || b->pairs[i] != b->pairs[j - 1])
			b->pairs[j++] = b->pairs[i];
	b->npairs = j;
	for (i = b->npairs; i-- > 0;) {
		uint32_t c = b->pairs[i] >> 32;

		b->cstart[c] = i;
		b->ccnt[c]++;
	}
	for (i = 0; i < f->nnodes; i++)
		if (f->node[i].type == OT_NODE_SWITCH && !b->is_router[i] &&
		    ot_uf_find(b->uf, i) == i && !b->ccnt[i])
			return ot_refuse(b->err, OT_ERR_TOPOLOGY,
					 NODE_FMT ": neither it nor the switches cabled to it reach a router; no KNS line",
					 NODE_ARGS(f, i));
	return 0;
}

/* Routers two components share (their lists are sorted). */
static uint32_t shared(const struct ft_build *b, uint32_t c1, uint32_t c2)
{
	const uint64_t *x = b->pairs + b->cstart[c1];
	const uint64_t *y = b->pairs + b->cstart[c2];
	uint32_t i = 0, j = 0, n = 0;

	while (i < b->ccnt[c1] && j < b->ccnt[c2]) {
		uint32_t u = (uint32_t)x[i], v = (uint32_t)y[j];

		if (u == v) {
			n++;
			i++;
			j++;
		} else if (u < v) {
			i++;
		} else {
			j++;
		}
	}
	return n;
}

static int cmp_rc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	/* router in the low half first, component second */
	x = x << 32 | x >> 32;
	y = y << 32 | y >> 32;
	return x < y ? -1 : x > y;
}

/*
 * Components sharing two or more routers are one line (several
 * switches per line at s = 1).  Lines get indices in node order of their
 * first component; the final order comes from the coordinates.
 */
static int merge_lines(struct ft_build *b, bool *looks_ft)
{
	const struct ot_fabric *f = b->f;
	uint64_t *byr = NULL;
	uint32_t i, j, m, start;
	int error = 0;

	byr = malloc(((size_t)b->npairs + 1) * sizeof(*byr));
	b->lineno = malloc(f->nnodes * sizeof(*b->lineno));
	if (!byr || !b->lineno) {
		error = ot_error_nomem(b->err, "kns");
		goto out;
	}
	memcpy(byr, b->pairs, b->npairs * sizeof(*byr));
	qsort(byr, b->npairs, sizeof(*byr), cmp_rc);
	for (start = 0; start < b->npairs; start = i) {
		uint32_t r = (uint32_t)byr[start];

		for (i = start; i < b->npairs && (uint32_t)byr[i] == r; i++)
			;
		for (j = start; j < i; j++)
			for (m = j + 1; m < i; m++) {
				uint32_t c1 = byr[j] >> 32, c2 = byr[m] >> 32;

				if (ot_uf_same(b->luf, c1, c2) ||
				    shared(b, c1, c2) < 2)
					continue;
				*looks_ft = true;
				ot_uf_union(b->luf, c1, c2);
			}
	}
	for (i = 0; i < f->nnodes; i++)
		b->lineno[i] = -1;
	for (i = 0; i < f->nnodes; i++) {
		uint32_t root;

		if (f->node[i].type != OT_NODE_SWITCH || b->is_router[i])
			continue;
		root = ot_uf_find(b->luf, ot_uf_find(b->uf, i));
		if (b->lineno[root] < 0)
			b->lineno[root] = b->nlines++;
	}
out:
	free(byr);
	return error;
}

static int32_t line_index(const struct ft_build *b, int32_t x)
{
	return b->lineno[ot_uf_find(b->luf, ot_uf_find(b->uf, x))];
}

/* Each line's routers (sorted, unique) and its lowest-GUID switch. */
static int line_routers(struct ft_build *b)
{
	const struct ot_fabric *f = b->f;
	uint64_t *lr = NULL;
	uint32_t i, j;

	lr = malloc(((size_t)b->npairs + 1) * sizeof(*lr));
	b->lstart = calloc((size_t)b->nlines + 1, sizeof(*b->lstart));
	b->lrouter = malloc(((size_t)b->npairs + 1) * sizeof(*b->lrouter));
	b->line_rep = malloc(((size_t)b->nlines + 1) * sizeof(*b->line_rep));
	if (!lr || !b->lstart || !b->lrouter || !b->line_rep) {
		free(lr);
		return ot_error_nomem(b->err, "kns");
	}
	for (i = 0; i < b->nlines; i++)
		b->line_rep[i] = -1;
	for (i = 0; i < f->nnodes; i++) {
		int32_t l;

		if (f->node[i].type != OT_NODE_SWITCH || b->is_router[i])
			continue;
		l = line_index(b, i);
		if (b->line_rep[l] < 0 || ot_node_before(f, i, b->line_rep[l]))
			b->line_rep[l] = i;
	}
	for (i = 0; i < b->npairs; i++) {
		uint32_t c = b->pairs[i] >> 32;

		lr[i] = (uint64_t)line_index(b, c) << 32 |
			(uint32_t)b->pairs[i];
	}
	qsort(lr, b->npairs, sizeof(*lr), ot_cmp_u64);
	for (i = 0, j = 0; i < b->npairs; i++) {
		if (j && lr[i] == lr[j - 1])
			continue;
		lr[j++] = lr[i];
	}
	for (i = 0; i < j; i++) {
		b->lrouter[i] = (uint32_t)lr[i];
		b->lstart[(lr[i] >> 32) + 1]++;
	}
	for (i = 0; i < b->nlines; i++)
		b->lstart[i + 1] += b->lstart[i];
	free(lr);
	return 0;
}

/*
 * The KNS with every line as one switch: routers and CAs as in f, one
 * switch per line (its lowest-GUID switch's GUID and name), cabled once
 * to each router of the line.  vnode[i]: f's node i there (-1 for line
 * switches); vline[l]: line l's switch.
 */
static int build_virtual(struct ft_build *b, struct ot_fabric **out,
			 int32_t *vnode, int32_t *vline)
{
	const struct ot_fabric *f = b->f;
	struct ot_fabric *v = ot_fabric_new();
	uint8_t *used = NULL;
	uint32_t i, l, j;
	unsigned int p, nports;
	int error = 0;

	*out = v;
	used = calloc(f->nnodes, sizeof(*used));
	if (!v || !used) {
		free(used);
		return ot_error_nomem(b->err, "kns");
	}
	for (i = 0; i < f->nnodes && !error; i++) {
		const struct ot_node *nd = &f->node[i];

		vnode[i] = -1;
		if (nd->type == OT_NODE_SWITCH && !b->is_router[i])
			continue;
		nports = nd->nports;
		vnode[i] = ot_fabric_add_node(v, nd->type, nports, nd->guid,
					      nd->desc, b->err);
		if (vnode[i] < 0)
			error = -1;
	}
	for (l = 0; l < b->nlines && !error; l++) {
		int32_t rep = b->line_rep[l];
		uint32_t cnt = b->lstart[l + 1] - b->lstart[l];

		if (cnt > OT_MAX_PORTS) {
			error = ot_refuse(b->err, OT_ERR_TOPOLOGY,
					  NODE_FMT ": its line has %u routers, more than a switch's ports",
					  NODE_ARGS(f, rep), cnt);
			break;
		}
		vline[l] = ot_fabric_add_node(v, OT_NODE_SWITCH, cnt ? cnt : 1,
					      f->node[rep].guid,
					      f->node[rep].desc, b->err);
		if (vline[l] < 0)
			error = -1;
	}
	/* CA cables: router ports 1.. in CA port order */
	for (i = 0; i < f->nnodes && !error; i++) {
		const struct ot_node *nd = &f->node[i];

		if (nd->type != OT_NODE_CA)
			continue;
		for (p = 1; p <= nd->nports && !error; p++) {
			int32_t r = nd->port[p].peer;

			if (r < 0)
				continue;
			error = ot_fabric_link(v, vnode[i], p, vnode[r],
					       ++used[r], b->err);
		}
	}
	for (l = 0; l < b->nlines && !error; l++)
		for (j = b->lstart[l]; j < b->lstart[l + 1] && !error; j++) {
			int32_t r = b->lrouter[j];

			if (used[r] >= f->node[r].nports) {
				error = ot_refuse(b->err, OT_ERR_TOPOLOGY,
						  "router " NODE_FMT ": on more lines than it has ports",
						  NODE_ARGS(f, r));
				break;
			}
			error = ot_fabric_link(v, vline[l],
					       j - b->lstart[l] + 1, vnode[r],
					       ++used[r], b->err);
		}
	free(used);
	if (!error)
		error = ot_fabric_index(v, b->err);
	return error;
}

/* Breadth-first from the routers: every line switch's level. */
static int assign_levels(struct ft_build *b, struct ot_kns *kns)
{
	const struct ot_fabric *f = b->f;
	int32_t *queue = NULL;
	uint32_t head = 0, tail = 0, i;
	unsigned int p;
	int error = 0;

	queue = malloc(((size_t)f->nnodes + 1) * sizeof(*queue));
	if (!queue)
		return ot_error_nomem(b->err, "kns");
	for (i = 0; i < f->nnodes; i++) {
		const struct ot_node *nd = &f->node[i];

		if (kns->role[i] != OT_KNS_SWITCH)
			continue;
		for (p = 1; p <= nd->nports; p++)
			if (nd->port[p].peer >= 0 &&
			    b->is_router[nd->port[p].peer])
				break;
		if (p <= nd->nports) {
			kns->stage[i] = 1;
			queue[tail++] = i;
		}
	}
	while (head < tail) {
		int32_t x = queue[head++];
		const struct ot_node *nd = &f->node[x];

		for (p = 1; p <= nd->nports; p++) {
			int32_t y = nd->port[p].peer;

			if (y < 0 || kns->role[y] != OT_KNS_SWITCH)
				continue;
			if (!kns->stage[y]) {
				if (kns->stage[x] >= FT_MAX_STAGES) {
					error = ot_refuse(b->err,
							  OT_ERR_TOPOLOGY,
							  NODE_FMT " port %u: a line deeper than %u stages",
							  NODE_ARGS(f, x), p,
							  FT_MAX_STAGES);
					goto out;
				}
				kns->stage[y] = kns->stage[x] + 1;
				queue[tail++] = y;
			} else if (kns->stage[y] == kns->stage[x]) {
				error = ot_refuse(b->err, OT_ERR_TOPOLOGY,
						  NODE_FMT " port %u: cabled to switch \"%s\" of the same stage %u (counted from the routers) of the line of dimension %d; a line is no fat tree with such a cable",
						  NODE_ARGS(f, x), p,
						  f->node[y].desc, kns->stage[x],
						  kns->dim[x]);
				goto out;
			}
		}
	}
out:
	free(queue);
	return error;
}

/*
 * A line switch's place: stage, then its colour (the cabling's tell from
 * the numbering of the routers), then GUID, then node index.
 */
struct sw_key {
	uint8_t stage;
	uint32_t colour;
	uint64_t guid;
	int32_t node;
};

static int cmp_sw(const void *a, const void *b)
{
	const struct sw_key *x = a, *y = b;

	if (x->stage != y->stage)
		return x->stage < y->stage ? -1 : 1;
	if (x->colour != y->colour)
		return x->colour < y->colour ? -1 : 1;
	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return (x->node > y->node) - (x->node < y->node);
}

/* Line number of a line switch: its dimension, then coordinates. */
static uint64_t line_key(const struct ot_kns *kns, int32_t x)
{
	const int16_t *c = kns->coord + (size_t)x * kns->n;
	uint64_t v = kns->dim[x];
	unsigned int d;

	for (d = kns->n; d-- > 0;)
		if ((int)d != kns->dim[x])
			v = v * kns->k + (uint64_t)c[d];
	return v;
}

/*
 * kns->lines: every line of the KNS, n k^(n-1) of them, in (dimension,
 * coordinates) order (index: line_key()), each with its routers by
 * coordinate and its switches by stage, then GUID; positions.  A line
 * whose every switch is gone (damage) is there with none: its routers
 * reach each other through other lines only.
 */
static int build_lines(struct ft_build *b, struct ot_kns *kns)
{
	const struct ot_fabric *f = b->f;
	uint32_t i, j, per = 1, nl;
	unsigned int d, t;

	for (d = 1; d < kns->n; d++)
		per *= kns->k;
	nl = per * kns->n;
	kns->lines = calloc((size_t)nl + 1, sizeof(*kns->lines));
	if (!kns->lines)
		return ot_error_nomem(b->err, "kns");
	kns->nlines = nl;
	for (i = 0; i < f->nnodes; i++)
		if (kns->role[i] == OT_KNS_SWITCH) {
			kns->line[i] = (int32_t)line_key(kns, i);
			kns->lines[kns->line[i]].nsw++;
		}
	for (i = 0; i < nl; i++) {
		struct ot_kns_line *ln = &kns->lines[i];
		uint32_t rest = i % per, base = 0, mul = 1, step = 1;

		ln->dim = i / per;
		ln->router = malloc(kns->k * sizeof(*ln->router));
		ln->sw = malloc(((size_t)ln->nsw + 1) * sizeof(*ln->sw));
		if (!ln->router || !ln->sw)
			return ot_error_nomem(b->err, "kns");
		/* line_key(): the lowest other dimension least significant */
		for (d = 0; d < kns->n; d++) {
			if ((int)d == ln->dim) {
				step = mul;
			} else {
				base += (rest % kns->k) * mul;
				rest /= kns->k;
			}
			mul *= kns->k;
		}
		for (t = 0; t < kns->k; t++)
			ln->router[t] = kns->router_at[base + t * step];
		ln->nsw = 0;
	}
	for (i = 0; i < f->nnodes; i++)
		if (kns->role[i] == OT_KNS_SWITCH) {
			struct ot_kns_line *ln = &kns->lines[kns->line[i]];

			ln->sw[ln->nsw++] = i;
			if (kns->stage[i] > ln->stages)
				ln->stages = kns->stage[i];
			if (ln->stages > kns->stages)
				kns->stages = ln->stages;
		}
	for (i = 0; i < nl; i++) {
		struct ot_kns_line *ln = &kns->lines[i];
		struct sw_key *sk = malloc((ln->nsw + 1) * sizeof(*sk));
		uint16_t p = 0;

		if (!sk)
			return ot_error_nomem(b->err, "kns");
		for (j = 0; j < ln->nsw; j++) {
			sk[j].stage = kns->stage[ln->sw[j]];
			sk[j].colour = b->colour[ln->sw[j]];
			sk[j].guid = f->node[ln->sw[j]].guid;
			sk[j].node = ln->sw[j];
		}
		qsort(sk, ln->nsw, sizeof(*sk), cmp_sw);
		for (j = 0; j < ln->nsw; j++) {
			ln->sw[j] = sk[j].node;
			if (j && sk[j].stage != sk[j - 1].stage)
				p = 0;
			kns->pos[sk[j].node] = p++;
		}
		free(sk);
	}
	return 0;
}

static int alloc_result(struct ot_kns **out, const struct ot_fabric *f,
			unsigned int k, unsigned int n, struct ot_error *err)
{
	struct ot_kns *kns = calloc(1, sizeof(*kns));
	uint64_t nr = 1;
	uint32_t i;

	*out = kns;
	if (!kns)
		return ot_error_nomem(err, "kns");
	for (i = 0; i < n; i++)
		nr *= k;
	kns->fabric = f;
	kns->k = k;
	kns->n = n;
	kns->links = 1;
	kns->role = calloc(f->nnodes, sizeof(*kns->role));
	kns->coord = malloc((size_t)f->nnodes * n * sizeof(*kns->coord));
	kns->dim = malloc(f->nnodes * sizeof(*kns->dim));
	kns->router = malloc(f->nnodes * sizeof(*kns->router));
	kns->router_at = malloc(nr * sizeof(*kns->router_at));
	kns->stage = calloc(f->nnodes, sizeof(*kns->stage));
	kns->line = malloc(f->nnodes * sizeof(*kns->line));
	kns->pos = calloc(f->nnodes, sizeof(*kns->pos));
	if (!kns->role || !kns->coord || !kns->dim || !kns->router ||
	    !kns->router_at || !kns->stage || !kns->line || !kns->pos)
		return ot_error_nomem(err, "kns");
	for (i = 0; i < f->nnodes; i++) {
		kns->dim[i] = -1;
		kns->router[i] = -1;
		kns->line[i] = -1;
	}
	for (i = 0; i < f->nnodes * n; i++)
		kns->coord[i] = -1;
	return 0;
}

/* Copies the single-switch lines' answer back onto f's nodes. */
static int map_back(struct ft_build *b, const struct ot_kns *vk,
		    const int32_t *vnode, const int32_t *vline,
		    struct ot_kns **out)
{
	const struct ot_fabric *f = b->f;
	struct ot_kns *kns;
	int32_t *real = NULL;
	uint64_t nr = 1;
	uint32_t i, n = vk->n;
	int error;

	error = alloc_result(out, f, vk->k, vk->n, b->err);
	kns = *out;
	if (error)
		return error;
	real = malloc(((size_t)vk->fabric->nnodes + 1) * sizeof(*real));
	if (!real)
		return ot_error_nomem(b->err, "kns");
	for (i = 0; i < f->nnodes; i++)
		if (vnode[i] >= 0)
			real[vnode[i]] = i;
	for (i = 0; i < n; i++)
		nr *= vk->k;
	for (i = 0; i < nr; i++)
		kns->router_at[i] = real[vk->router_at[i]];
	for (i = 0; i < f->nnodes; i++) {
		int32_t v = vnode[i];

		if (v < 0) {
			v = vline[line_index(b, i)];
			kns->role[i] = OT_KNS_SWITCH;
			kns->dim[i] = vk->dim[v];
		} else if (vk->role[v] == OT_KNS_CA) {
			kns->role[i] = OT_KNS_CA;
			kns->router[i] = real[vk->router[v]];
		} else {
			kns->role[i] = OT_KNS_ROUTER;
			kns->router[i] = i;
		}
		memcpy(kns->coord + (size_t)i * n, vk->coord + (size_t)v * n,
		       n * sizeof(*kns->coord));
	}
	free(real);
	return 0;
}

/*
 * The damaged lines' answer (topo/kns_dmg.c) onto f's nodes: a line
 * switch serves its part's dimension, with the coordinates of its part's
 * routers there and -1 in that dimension.
 */
static int map_back_dmg(struct ft_build *b, unsigned int k, unsigned int n,
			const int16_t *coord, const int8_t *pdim,
			struct ot_kns **out)
{
	const struct ot_fabric *f = b->f;
	struct ot_kns *kns;
	uint32_t i, num;
	unsigned int d, p;
	int error;

	error = alloc_result(out, f, k, n, b->err);
	kns = *out;
	if (error)
		return error;
	for (i = 0; i < f->nnodes; i++) {
		int32_t src = i, part;

		if (b->is_router[i]) {
			kns->role[i] = OT_KNS_ROUTER;
			kns->router[i] = i;
			for (d = n, num = 0; d-- > 0;)
				num = num * k + (uint32_t)coord[(size_t)i * n + d];
			kns->router_at[num] = i;
		} else if (f->node[i].type == OT_NODE_CA) {
			kns->role[i] = OT_KNS_CA;
			for (p = 1; p <= f->node[i].nports; p++)
				if (f->node[i].port[p].peer >= 0)
					break;
			src = p <= f->node[i].nports ?
			      f->node[i].port[p].peer : -1;
			kns->router[i] = src;
		} else {
			part = line_index(b, i);
			kns->role[i] = OT_KNS_SWITCH;
			kns->dim[i] = pdim[part];
			src = b->lrouter[b->lstart[part]];
		}
		if (src < 0)
			continue;
		memcpy(kns->coord + (size_t)i * n, coord + (size_t)src * n,
		       n * sizeof(*kns->coord));
		if (kns->role[i] == OT_KNS_SWITCH)
			kns->coord[(size_t)i * n + kns->dim[i]] = -1;
	}
	return 0;
}

/*
 * Lines damaged inside (topo/kns_dmg.c), where the lines taken as single
 * switches are no KNS (seed says why).
 */
static int recognize_damaged(struct ft_build *b, const struct ot_error *seed,
			     struct ot_kns **out)
{
	struct ot_kns_parts pp = {
		.f = b->f, .is_router = b->is_router, .nparts = b->nlines,
		.start = b->lstart, .router = b->lrouter, .rep = b->line_rep,
	};
	struct ot_error why;
	int8_t *pdim = malloc((size_t)b->nlines + 1);
	int16_t *coord = NULL;
	unsigned int k = 0, n = 0;
	bool by_colour = false;
	int error;

	if (!pdim)
		return ot_error_nomem(b->err, "kns");
	error = ot_kns_dmg_place(&pp, &k, &n, &coord, pdim, &by_colour, &why);
	if (error && why.cls == OT_ERR_NOMEM)
		ot_refuse(b->err, OT_ERR_NOMEM, "%s", why.msg);
	else if (error)
		ot_refuse(b->err, OT_ERR_TOPOLOGY,
			  "%s (and with each line's switches taken as one, named by its lowest GUID: %s)",
			  why.msg, seed->msg);
	else
		error = map_back_dmg(b, k, n, coord, pdim, out);
	if (!error)
		(*out)->by_colour = by_colour;
	free(pdim);
	free(coord);
	return error;
}

/*
 * Dimension d numbered perm[d] instead: coordinates, the switches'
 * dimensions and router_at (before build_lines(), which then numbers
 * the lines as it would have had the recognizer numbered them so).
 */
static int permute_dims(struct ot_kns *kns, const uint8_t *perm,
			struct ot_error *err)
{
	const struct ot_fabric *f = kns->fabric;
	unsigned int n = kns->n, d;
	uint32_t i, c, nr = 1;
	int16_t tmp[OT_KNS_PERM_DIMS];
	int32_t *at;

	if (n > OT_KNS_PERM_DIMS)
		return ot_refuse(err, OT_ERR_TOPOLOGY,
				 "%u dimensions: at most %u can be renumbered",
				 n, OT_KNS_PERM_DIMS);

	for (d = 0; d < n; d++)
		nr *= kns->k;
	at = malloc((size_t)nr * sizeof(*at));
	if (!at)
		return ot_error_nomem(err, "kns");
	for (i = 0; i < f->nnodes; i++) {
		int16_t *co = kns->coord + (size_t)i * n;

		for (d = 0; d < n; d++)
			tmp[perm[d]] = co[d];
		memcpy(co, tmp, n * sizeof(*co));
		if (kns->dim[i] >= 0)
			kns->dim[i] = (int8_t)perm[kns->dim[i]];
	}
	for (c = 0; c < nr; c++) {
		uint32_t rest = c, to = 0, mul[OT_KNS_PERM_DIMS], m = 1;

		for (d = 0; d < n; d++, m *= kns->k)
			mul[d] = m;
		for (d = 0; d < n; d++, rest /= kns->k)
			to += (rest % kns->k) * mul[perm[d]];
		at[to] = kns->router_at[c];
	}
	free(kns->router_at);
	kns->router_at = at;
	return 0;
}

int ot_kns_ft_recognize(const struct ot_fabric *f, struct ot_kns **out,
			bool *looks_ft, struct ot_error *err)
{
	return ot_kns_ft_recognize_dims(f, NULL, out, looks_ft, err);
}

int ot_kns_ft_recognize_dims(const struct ot_fabric *f, const uint8_t *perm,
			     struct ot_kns **out, bool *looks_ft,
			     struct ot_error *err)
{
	struct ot_kns_numbering num = { .perm = perm };

	return ot_kns_ft_recognize_as(f, &num, out, looks_ft, err);
}

int ot_kns_ft_recognize_as(const struct ot_fabric *f,
			   const struct ot_kns_numbering *num,
			   struct ot_kns **out, bool *looks_ft,
			   struct ot_error *err)
{
	const uint8_t *perm = num ? num->perm : NULL;
	struct ft_build b = { .f = f, .err = err };
	struct ot_fabric *v = NULL;
	struct ot_kns *vk = NULL, *kns = NULL;
	struct ot_error why;
	int32_t *vnode = NULL, *vline = NULL;
	int error;

	*out = NULL;
	*looks_ft = false;
	b.is_router = calloc(f->nnodes + 1, sizeof(*b.is_router));
	b.uf = ot_uf_new(f->nnodes + 1);
	b.luf = ot_uf_new(f->nnodes + 1);
	vnode = malloc(((size_t)f->nnodes + 1) * sizeof(*vnode));
	b.colour = malloc(((size_t)f->nnodes + 1) * sizeof(*b.colour));
	if (!b.is_router || !b.uf || !b.luf || !vnode || !b.colour) {
		error = ot_error_nomem(err, "kns");
		goto out;
	}
	error = classify(&b, looks_ft);
	if (!error)
		error = collect_pairs(&b);
	if (!error)
		error = merge_lines(&b, looks_ft);
	if (!error)
		error = line_routers(&b);
	if (error)
		goto out;
	vline = malloc(((size_t)b.nlines + 1) * sizeof(*vline));
	if (!vline) {
		error = ot_error_nomem(err, "kns");
		goto out;
	}
	error = build_virtual(&b, &v, vnode, vline);
	if (error)
		goto out;
	error = ot_kns_recognize(v, &vk, &why);
	if (error && why.cls != OT_ERR_NOMEM && *looks_ft) {
		/* damage inside lines: a router cut off a line, a line split */
		error = recognize_damaged(&b, &why, &kns);
		if (error)
			goto out;
	} else if (error) {
		/* out of memory stays that, not a verdict on the fabric */
		ot_refuse(err, why.cls == OT_ERR_NOMEM ? OT_ERR_NOMEM :
							 OT_ERR_TOPOLOGY,
			  "with each line's switches taken as one (named by its lowest GUID): %s",
			  why.msg);
		goto out;
	} else if (vk->n < 2) {
		/* one line of routers under switches: a fat tree, not a KNS */
		int32_t r = vk->router_at[0];

		error = ot_refuse(err, OT_ERR_TOPOLOGY,
				  "switch \"%s\" (0x%016" PRIx64 "): the switches with CAs form one line under switches without: a fat tree, not a KNS of two or more dimensions; hdor leaves fat trees to ftree or updn",
				  v->node[r].desc, v->node[r].guid);
		goto out;
	}
	if (!kns)
		error = map_back(&b, vk, vnode, vline, &kns);
	if (!error)
		error = ot_kns_canon(kns, num ? num->flip : 0, b.colour, err);
	if (!error && perm)
		error = permute_dims(kns, perm, err);
	if (!error)
		error = assign_levels(&b, kns);
	if (!error)
		error = build_lines(&b, kns);
	if (error)
		goto out;
	*out = kns;
	kns = NULL;
out:
	ot_kns_free(kns);
	ot_kns_free(vk);
	ot_fabric_free(v);
	ot_uf_free(b.uf);
	ot_uf_free(b.luf);
	free(b.is_router);
	free(b.pairs);
	free(b.cstart);
	free(b.ccnt);
	free(b.lineno);
	free(b.line_rep);
	free(b.lstart);
	free(b.lrouter);
	free(b.colour);
	free(vnode);
	free(vline);
	return error;
}
