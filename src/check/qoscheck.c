// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The QoS check (see qoscheck.h): flows by class and VL on every output
 * port, the port's arbiter replayed on them, and credit loops class by
 * class over the channel dependencies of each class's own flows.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "check/checker.h"
#include "check/json.h"
#include "check/qoscheck.h"
#include "traffic/arbiter.h"

#define VLS OT_NUM_SLS
/* Low-table rounds the arbiter is replayed for. */
#define CYCLES 4

/* One class on one port. */
struct qrow {
	int32_t node;
	uint8_t port, cls;
	uint16_t vls;        /* the VLs its flows take here */
	uint64_t flows;
	double share, target;
	uint64_t worst;      /* units, OT_ARB_NEVER */
	uint32_t rate_mbps;
};

enum qkind { Q_UNREAD, Q_NO_ENTRY, Q_UNSERVED, Q_SHARED, Q_SHARE, Q_SPLIT,
	     Q_LOOP, Q_DIFFERS, Q_KINDS };

static const char *const qkind_name[Q_KINDS] = {
	"unread", "no_entry", "unserved_vl", "shared_vl", "share_miss",
	"split_miss", "credit_loop", "differs",
};

struct ot_qos_check_report {
	struct ot_qos_check_counts c;
	const struct ot_fabric *f; /* borrowed, for printing */
	unsigned int classes, sls, max_examples;
	struct ot_qos_class cls[OT_QOS_MAX_CLASSES];
	struct ot_qos_layers layers; /* as the check reads the SLs */
	const struct ot_routing *r;  /* borrowed: the tables read */
	double target[OT_QOS_MAX_CLASSES];
	bool loop[OT_QOS_MAX_CLASSES];
	bool idle[OT_QOS_MAX_CLASSES]; /* no row: reaches no port */
	bool strict;
	struct qrow *row;
	size_t nrows, cap;
	char **ex[Q_KINDS];
	unsigned int nex[Q_KINDS];
	bool oom;
};

static void example(struct ot_qos_check_report *q, enum qkind k,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void example(struct ot_qos_check_report *q, enum qkind k,
		    const char *fmt, ...)
{
	char buf[512], **list;
	va_list ap;

	if (q->nex[k] >= q->max_examples)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	list = realloc(q->ex[k], (q->nex[k] + 1) * sizeof(*list));
	if (!list || !(list[q->nex[k]] = strdup(buf))) {
		q->oom = true;
		if (list)
			q->ex[k] = list;
		return;
	}
	q->ex[k] = list;
	q->nex[k]++;
}

static struct qrow *add_row(struct ot_qos_check_report *q)
{
	struct qrow *r;

	if (q->nrows == q->cap) {
		q->cap = q->cap ? q->cap * 2 : 64;
		r = realloc(q->row, q->cap * sizeof(*r));
		if (!r) {
			q->oom = true;
			return NULL;
		}
		q->row = r;
	}
	r = &q->row[q->nrows++];
	memset(r, 0, sizeof(*r));
	return r;
}

/* fn(ctx, sl) for the path SL of every CA port to every CA LID of r. */
static void each_path_sl(const struct ot_routing *r,
			 void (*fn)(void *ctx, unsigned int sl), void *ctx)
{
	const struct ot_fabric *f = r->fabric;
	unsigned int p;
	uint32_t n, d;

	for (n = 0; n < f->nnodes && r->path_sl; n++) {
		if (ot_is_switch(f, (int)n))
			continue;
		for (p = 1; p <= f->node[n].nports; p++) {
			if (!f->node[n].port[p].lid)
				continue;
			for (d = 1; d <= f->max_lid; d++) {
				int dn = ot_fabric_lid_node(f, d);

				if (dn < 0 || ot_is_switch(f, dn))
					continue;
				fn(ctx, ot_routing_path_sl(r,
						f->node[n].port[p].lid,
						(uint16_t)d) & 0xf);
			}
		}
	}
}

struct max_sl {
	unsigned int max, nc;
};

static void note_max(void *ctx, unsigned int sl)
{
	struct max_sl *m = ctx;

	m->max = sl > m->max && sl < m->nc * 15 ? sl : m->max;
}

/* The fewest SL layers a class that hold every path SL of r. */
unsigned int ot_qos_infer_sls(const struct ot_routing *r, unsigned int nc)
{
	struct max_sl m = { 0, nc };
	unsigned int sl;

	each_path_sl(r, note_max, &m);
	sl = (m.max + nc) / nc; /* ceil((max + 1) / nc) */
	return sl ? sl : 1;
}

static const char *qdesc(const struct ot_fabric *f, int n)
{
	return f->node[n].desc ? f->node[n].desc : "?";
}

/* Per VL: the class on it (-1: none, -2: two), flows, MTU in units. */
struct port_vls {
	int cls[VLS];
	uint64_t flows[VLS];
	unsigned int mtu[VLS];
};

static void port_vls(struct ot_qos_check_report *q, const struct ot_fabric *f,
		     const uint32_t *cnt, int n, unsigned int p,
		     struct port_vls *pv)
{
	unsigned int c, v, other;

	memset(pv, 0, sizeof(*pv));
	for (v = 0; v < VLS; v++)
		pv->cls[v] = -1;
	for (c = 0; c < q->classes; c++)
		for (v = 0; v < VLS; v++) {
			if (!cnt[c * VLS + v])
				continue;
			pv->flows[v] += cnt[c * VLS + v];
			if (pv->cls[v] == -1) {
				pv->cls[v] = (int)c;
				pv->mtu[v] = (q->cls[c].mtu ? q->cls[c].mtu :
					      2048) / OT_QOS_UNIT;
				continue;
			}
			other = (unsigned int)pv->cls[v];
			q->c.shared_vl++;
			example(q, Q_SHARED,
				"\"%s\" port %u VL %u: classes %s and %s",
				qdesc(f, n), p, v, q->cls[other].name,
				q->cls[c].name);
		}
}

/* Class c on port p of node n: served share, split, wait. */
static void judge_class(struct ot_qos_check_report *q,
			const struct ot_fabric *f, const uint32_t *cnt,
			const struct ot_arb_trace *tr, struct qrow *row)
{
	unsigned int c = row->cls, v, mtu = 0;
	uint64_t served = ot_arb_served(tr, row->vls);
	double ideal, miss;

	for (v = 0; v < VLS; v++) {
		if (!(row->vls & (1u << v)))
			continue;
		mtu = (q->cls[c].mtu ? q->cls[c].mtu : 2048) / OT_QOS_UNIT;
		if (!tr->served[v]) {
			q->c.no_entry++;
			example(q, Q_NO_ENTRY,
				"\"%s\" port %u: class %s's VL %u carries %u flow(s) but has no arbitration entry",
				qdesc(f, row->node), row->port, q->cls[c].name,
				v, cnt[c * VLS + v]);
			continue;
		}
		ideal = (double)served * cnt[c * VLS + v] / row->flows;
		/* one packet a cycle: entries hold whole packets */
		if (tr->served[v] + (double)mtu * CYCLES + 1e-9 < ideal) {
			q->c.split_miss++;
			example(q, Q_SPLIT,
				"\"%s\" port %u: class %s's VL %u gets %" PRIu64 " of its %" PRIu64 " units, its flows (%u of %" PRIu64 ") ask %.1f",
				qdesc(f, row->node), row->port, q->cls[c].name,
				v, tr->served[v], served, cnt[c * VLS + v],
				row->flows, ideal);
		}
	}
	row->share = tr->total ? (double)served / tr->total : 0;
	row->worst = ot_arb_worst_gap(tr, row->vls);
	miss = fabs(row->share - row->target);
	if (miss > q->c.worst_miss)
		q->c.worst_miss = miss;
	if (miss > OT_QOS_SHARE_TOLERANCE + 1e-12) {
		q->c.share_miss++;
		example(q, Q_SHARE,
			"\"%s\" port %u: class %s gets %.2f%% of the link, its target here is %.2f%%",
			qdesc(f, row->node), row->port, q->cls[c].name,
			100 * row->share, 100 * row->target);
	}
}

/* The low table against the one osmtopo computes from these flows. */
static void compare_table(struct ot_qos_check_report *q,
			  const struct ot_qos_check_opts *o,
			  const struct ot_vlarb_port *vp, const uint32_t *cnt,
			  int n, unsigned int p)
{
	struct ot_qos_entry e[OT_QOS_MAX_ENTRIES];
	struct ot_error err = { 0 };
	unsigned int j, len, cap = vp->low_cap ? vp->low_cap : OT_VLARB_MAX;

	if (ot_qos_port_vlarb_emit(o->table, &q->layers, cap, cnt,
				   ot_qos_port_emit(q->r, n, p, 0x7fff), e,
				   &len, &err)) {
		q->c.uncomputed++;
		return;
	}
	for (j = 0; j < cap && j < OT_VLARB_MAX; j++) {
		unsigned int w = j < len ? e[j].weight : 0;

		if (vp->low[j].weight == w &&
		    (!w || vp->low[j].vl == (unsigned int)e[j].who))
			continue;
		q->c.differs++;
		example(q, Q_DIFFERS,
			"\"%s\" port %u: low entry %u is VL %u weight %u, computed VL %d weight %u",
			qdesc(q->f, n), p, j, vp->low[j].vl,
			vp->low[j].weight, j < len ? e[j].who : 0, w);
		return;
	}
}

static void check_port(struct ot_qos_check_report *q,
		       const struct ot_qos_check_opts *o,
		       const struct ot_qos_flows *fl, int n, unsigned int p)
{
	const struct ot_fabric *f = fl->fabric;
	const uint32_t *cnt = ot_qos_port_flows(fl, n, p);
	const struct ot_vlarb_port *vp = ot_vlarb_get(o->vlarb, n, p);
	struct qrow rows[OT_QOS_MAX_CLASSES], *row;
	struct ot_arb_trace tr;
	struct port_vls pv;
	unsigned int c, v, nrows = 0;
	double sum = 0;

	memset(rows, 0, sizeof(rows));
	for (c = 0; c < q->classes; c++) {
		for (v = 0; v < VLS; v++)
			if (cnt[c * VLS + v]) {
				rows[nrows].vls |= (uint16_t)(1u << v);
				rows[nrows].flows += cnt[c * VLS + v];
			}
		if (!rows[nrows].vls)
			continue;
		rows[nrows].node = n;
		rows[nrows].port = (uint8_t)p;
		rows[nrows].cls = (uint8_t)c;
		sum += q->cls[c].share;
		nrows++;
	}
	if (!nrows)
		return;
	q->c.ports++;
	if (!vp) {
		q->c.unread++;
		example(q, Q_UNREAD, "\"%s\" port %u: VLArb tables not read",
			qdesc(f, n), p);
		return;
	}
	port_vls(q, f, cnt, n, p, &pv);
	compare_table(q, o, vp, cnt, n, p);
	if (ot_arb_simulate(vp, pv.mtu, CYCLES, &tr)) {
		q->oom = true;
		return;
	}
	for (c = 0; c < nrows; c++) {
		rows[c].target = q->cls[rows[c].cls].share / sum;
		rows[c].rate_mbps = vp->rate_mbps;
		judge_class(q, f, cnt, &tr, &rows[c]);
		row = add_row(q);
		if (row)
			*row = rows[c];
	}
	ot_arb_trace_free(&tr);
}

static void note_sl(void *ctx, unsigned int sl)
{
	*(uint16_t *)ctx |= (uint16_t)(1u << sl);
}

/* The SLs in use: every path SL read, the classes' SLs, SL 0. */
static uint16_t sls_in_use(const struct ot_routing *r,
			   const struct ot_qos_table *t)
{
	uint16_t sls = 1;
	unsigned int i;

	for (i = 0; i < t->nclasses; i++)
		sls |= (uint16_t)(1u << t->cls[i].sl);
	each_path_sl(r, note_sl, &sls);
	return sls;
}

/* Weighted entries of a port's tables, by VL. */
static uint16_t served_vls(const struct ot_vlarb_port *vp)
{
	uint16_t vls = 0;
	unsigned int j;

	for (j = 0; j < OT_VLARB_MAX; j++) {
		if (j < vp->low_cap && vp->low[j].weight)
			vls |= (uint16_t)(1u << (vp->low[j].vl & 0xf));
		if (j < vp->high_cap && vp->high[j].weight)
			vls |= (uint16_t)(1u << (vp->high[j].vl & 0xf));
	}
	return vls;
}

/*
 * Every cabled port with tables read: a VL its SL2VL sends for an SL in
 * use must have a weighted entry, whether or not a routed flow uses it.
 */
static void unserved(struct ot_qos_check_report *q,
		     const struct ot_qos_check_opts *o, uint16_t sls)
{
	const struct ot_fabric *f = q->f;
	unsigned int p, v, sl;
	uint32_t n;

	for (n = 0; n < f->nnodes; n++)
		for (p = 1; p <= f->node[n].nports; p++) {
			const struct ot_vlarb_port *vp =
				ot_vlarb_get(o->vlarb, (int)n, p);
			uint16_t miss;

			if (f->node[n].port[p].peer < 0 || !vp || !vp->read)
				continue;
			miss = ot_qos_port_emit(q->r, (int)n, p, sls) &
			       (uint16_t)~served_vls(vp);
			for (v = 0; v < VLS; v++) {
				if (!(miss & (1u << v)))
					continue;
				for (sl = 0; sl < OT_NUM_SLS; sl++)
					if ((sls & (1u << sl)) &&
					    (ot_qos_port_emit(q->r, (int)n, p,
							      (uint16_t)(1u << sl)) &
					     (1u << v)))
						break;
				q->c.unserved_vl++;
				example(q, Q_UNSERVED,
					"\"%s\" port %u: SL %u can leave on VL %u, which its VLArb tables give no weight",
					qdesc(f, (int)n), p, sl, v);
			}
		}
}

/* Kahn's algorithm over class c's channels: true when a cycle is left. */
static bool class_loops(const struct ot_qos_flows *fl, size_t lo, size_t hi,
			uint32_t *indeg, size_t *start, uint32_t *queue)
{
	size_t i, head = 0, tail = 0, left = 0;
	uint32_t a, b;

	for (i = lo; i < hi; i++) {
		a = fl->edge[i].a;
		b = fl->edge[i].b;
		if (!indeg[b]++)
			left++;
		if (start[a] == SIZE_MAX)
			start[a] = i;
	}
	for (i = lo; i < hi; i++) {
		a = fl->edge[i].a;
		if (!indeg[a] && (i == lo || fl->edge[i - 1].a != a))
			queue[tail++] = a;
	}
	while (head < tail) {
		a = queue[head++];
		for (i = start[a]; i != SIZE_MAX && i < hi &&
				   fl->edge[i].a == a; i++) {
			b = fl->edge[i].b;
			if (!--indeg[b]) {
				left--;
				queue[tail++] = b;
			}
		}
	}
	for (i = lo; i < hi; i++) {
		indeg[fl->edge[i].b] = 0;
		start[fl->edge[i].a] = SIZE_MAX;
	}
	return left > 0;
}

static int credit_loops(struct ot_qos_check_report *q,
			const struct ot_qos_flows *fl)
{
	const struct ot_fabric *f = fl->fabric;
	size_t nch = ((size_t)fl->port0[f->nnodes - 1] +
		      f->node[f->nnodes - 1].nports + 1) * VLS;
	uint32_t *indeg = calloc(nch, sizeof(*indeg));
	uint32_t *queue = calloc(nch, sizeof(*queue));
	size_t *start = malloc(nch * sizeof(*start)), lo, hi, i;

	if (!indeg || !queue || !start) {
		free(indeg);
		free(queue);
		free(start);
		return -1;
	}
	for (i = 0; i < nch; i++)
		start[i] = SIZE_MAX;
	for (lo = 0; lo < fl->nedges; lo = hi) {
		for (hi = lo; hi < fl->nedges &&
			      fl->edge[hi].cls == fl->edge[lo].cls; hi++)
			;
		if (!class_loops(fl, lo, hi, indeg, start, queue))
			continue;
		q->loop[fl->edge[lo].cls] = true;
		q->c.loop_classes++;
		example(q, Q_LOOP, "class %s: its VLs form a credit loop",
			q->cls[fl->edge[lo].cls].name);
	}
	free(indeg);
	free(queue);
	free(start);
	return 0;
}

static void setup(struct ot_qos_check_report *q, const struct ot_routing *r,
		  const struct ot_qos_check_opts *o, struct ot_qos_layers *l)
{
	const struct ot_qos_table *t = o->table;
	unsigned int i;
	double sum = 0;

	q->classes = t->nclasses;
	q->max_examples = o->max_examples ? o->max_examples : 5;
	memcpy(q->cls, t->cls, sizeof(q->cls));
	for (i = 0; i < t->nclasses; i++) {
		if (!q->cls[i].mtu)
			q->cls[i].mtu = t->gmtu;
		sum += t->cls[i].share;
	}
	for (i = 0; i < t->nclasses; i++)
		q->target[i] = t->cls[i].share / sum;
	q->sls = o->sls ? o->sls : ot_qos_infer_sls(r, t->nclasses);
	memset(l, 0, sizeof(*l));
	l->classes = t->nclasses;
	l->sls = q->sls;
	l->vls = r->nvls / t->nclasses ? r->nvls / t->nclasses : 1;
	for (i = 0; i < OT_NUM_SLS; i++)
		l->class_of_sl[i] = (int8_t)ot_qos_class_of_sl(t, i);
}

/* The classes that have no row: none of their flows leaves a port. */
static void find_idle(struct ot_qos_check_report *q)
{
	unsigned int c;
	size_t i;

	for (c = 0; c < q->classes; c++)
		q->idle[c] = true;
	for (i = 0; i < q->nrows; i++)
		q->idle[q->row[i].cls] = false;
	for (c = 0; c < q->classes; c++)
		q->c.idle_classes += q->idle[c];
}

int ot_qos_check_run(const struct ot_routing *r,
		     const struct ot_qos_check_opts *o,
		     struct ot_qos_check_report **out, struct ot_error *err)
{
	const struct ot_fabric *f = r->fabric;
	struct ot_qos_check_report *q = calloc(1, sizeof(*q));
	struct ot_qos_flows fl = { .edges = true };
	struct ot_qos_layers l;
	unsigned int p;
	uint32_t n;

	*out = NULL;
	if (!q)
		return ot_error_nomem(err, "qos check");
	setup(q, r, o, &l);
	q->layers = l;
	q->f = f;
	q->r = r;
	unserved(q, o, sls_in_use(r, o->table));
	if (ot_qos_flows_count(r, o->table, &l, NULL, NULL, &fl, err)) {
		ot_qos_check_free(q);
		return -1;
	}
	for (n = 0; n < f->nnodes; n++)
		for (p = 1; p <= f->node[n].nports; p++)
			if (f->node[n].port[p].peer >= 0)
				check_port(q, o, &fl, (int)n, p);
	if ((f->nnodes && credit_loops(q, &fl)) || q->oom) {
		ot_qos_flows_free(&fl);
		ot_qos_check_free(q);
		return ot_error_nomem(err, "qos check");
	}
	ot_qos_flows_free(&fl);
	find_idle(q);
	q->strict = o->strict;
	*out = q;
	return 0;
}

bool ot_qos_check_ok(const struct ot_qos_check_report *q)
{
	const struct ot_qos_check_counts *c = &q->c;

	return !c->unread && !c->no_entry && !c->unserved_vl &&
	       !c->shared_vl && !c->share_miss && !c->split_miss &&
	       !c->loop_classes && !(q->strict && c->idle_classes);
}

const struct ot_qos_check_counts *
ot_qos_check_counts(const struct ot_qos_check_report *q)
{
	return &q->c;
}

double ot_qos_check_share(const struct ot_qos_check_report *q, int n,
			  unsigned int p, unsigned int cls)
{
	size_t i;

	for (i = 0; i < q->nrows; i++)
		if (q->row[i].node == n && q->row[i].port == p &&
		    q->row[i].cls == cls)
			return q->row[i].share;
	return -1;
}

void ot_qos_check_free(struct ot_qos_check_report *q)
{
	unsigned int k, i;

	if (!q)
		return;
	for (k = 0; k < Q_KINDS; k++) {
		for (i = 0; i < q->nex[k]; i++)
			free(q->ex[k][i]);
		free(q->ex[k]);
	}
	free(q->row);
	free(q);
}

/* ------------------------------------------------------------------ */
/* Output.                                                             */

/* Over the ports a class is present on: share - target range, wait. */
struct class_sum {
	double lo, hi;
	uint64_t worst;
	uint64_t ports;
};

static void summarize(const struct ot_qos_check_report *q, unsigned int c,
		      struct class_sum *s)
{
	size_t i;
	double d;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < q->nrows; i++) {
		const struct qrow *r = &q->row[i];

		if (r->cls != c)
			continue;
		d = r->share - r->target;
		s->lo = !s->ports || d < s->lo ? d : s->lo;
		s->hi = !s->ports || d > s->hi ? d : s->hi;
		if (r->worst != OT_ARB_NEVER &&
		    (s->worst == OT_ARB_NEVER || r->worst > s->worst))
			s->worst = r->worst;
		else if (r->worst == OT_ARB_NEVER)
			s->worst = OT_ARB_NEVER;
		s->ports++;
	}
}

/* Nanoseconds for units at rate (0 when the rate is unknown). */
static double wait_ns(uint64_t units, uint32_t rate_mbps)
{
	return rate_mbps ? units * OT_QOS_UNIT * 8000.0 / rate_mbps : 0;
}

static void print_vls(FILE *out, uint16_t vls)
{
	unsigned int v;
	const char *sep = "";

	for (v = 0; v < VLS; v++)
		if (vls & (1u << v)) {
			fprintf(out, "%s%u", sep, v);
			sep = ",";
		}
}

static void text_rows(FILE *out, const struct ot_qos_check_report *q)
{
	size_t i;

	fprintf(out, "  per port (class: share%% / target%%, VLs, longest wait):\n");
	for (i = 0; i < q->nrows; i++) {
		const struct qrow *r = &q->row[i];

		if (!i || r->node != q->row[i - 1].node ||
		    r->port != q->row[i - 1].port)
			fprintf(out, "%s    \"%s\" port %u:", i ? "\n" : "",
				qdesc(q->f, r->node), r->port);
		fprintf(out, "  %s %.2f/%.2f VL ", q->cls[r->cls].name,
			100 * r->share, 100 * r->target);
		print_vls(out, r->vls);
		if (r->worst == OT_ARB_NEVER)
			fprintf(out, " never");
		else
			fprintf(out, " %" PRIu64 " B", r->worst * OT_QOS_UNIT);
	}
	if (q->nrows)
		fprintf(out, "\n");
}

static void print_qos_text(FILE *out, const struct ot_qos_check_report *q)
{
	const struct ot_qos_check_counts *c = &q->c;
	struct class_sum s;
	unsigned int i, k, j;

	fprintf(out, "QoS: %u classes, %u SL layer%s each; %" PRIu64 " output ports carry flows\n",
		q->classes, q->sls, q->sls == 1 ? "" : "s", c->ports);
	fprintf(out, "  class        sl target%%  ports  share-target%% (min, max)  longest wait B  credit loop\n");
	for (i = 0; i < q->classes; i++) {
		summarize(q, i, &s);
		fprintf(out, "  %-12s %2u %7.2f %6" PRIu64 "  %+8.3f %+8.3f       ",
			q->cls[i].name, q->cls[i].sl, 100 * q->target[i],
			s.ports, 100 * s.lo, 100 * s.hi);
		if (s.worst == OT_ARB_NEVER)
			fprintf(out, "%14s", "never");
		else
			fprintf(out, "%14" PRIu64, s.worst * OT_QOS_UNIT);
		fprintf(out, "  %s\n", q->loop[i] ? "YES" : "no");
	}
	for (i = 0; i < q->classes; i++)
		if (q->idle[i])
			fprintf(out, "  %s class %s (SL %u) reaches no port: no pair's path SL is the class's; does the QoS policy name ports that exist (port-name \"NODEDESC/P1\")?\n",
				q->strict ? "FAIL" : "WARN", q->cls[i].name,
				q->cls[i].sl);
	fprintf(out, "  shares within 1%%: %s (worst miss %.3f%%)\n",
		c->share_miss || c->unread ? "NO" : "yes",
		100 * c->worst_miss);
	text_rows(out, q);
	fprintf(out, "  tables as osmtopo computes them from these flows: %" PRIu64 " of %" PRIu64 " ports (%" PRIu64 " not computable)\n",
		c->ports - c->unread - c->differs - c->uncomputed,
		c->ports, c->uncomputed);
	for (k = 0; k < Q_KINDS; k++)
		for (j = 0; j < q->nex[k]; j++)
			fprintf(out, "  %s %s: %s\n",
				k == Q_DIFFERS ? "note" : "FAIL",
				qkind_name[k], q->ex[k][j]);
	if (ot_qos_check_ok(q) && c->idle_classes)
		fprintf(out, "QoS check: ok, but %u class%s reach%s no port\n",
			c->idle_classes, c->idle_classes == 1 ? "" : "es",
			c->idle_classes == 1 ? "es" : "");
	else
		fprintf(out, "QoS check: %s\n",
			ot_qos_check_ok(q) ? "ok" : "FAILED");
}

static json_t *vls_json(uint16_t vls)
{
	json_t *a = json_array();
	unsigned int v;

	for (v = 0; a && v < VLS; v++)
		if (vls & (1u << v))
			json_array_append_new(a, json_integer(v));
	return a;
}

static json_t *wait_json(uint64_t units)
{
	return units == OT_ARB_NEVER ? json_null() :
				       ot_json_u64(units * OT_QOS_UNIT);
}

static json_t *rows_json(const struct ot_qos_check_report *q)
{
	json_t *a = json_array(), *o;
	size_t i;

	for (i = 0; a && i < q->nrows; i++) {
		const struct qrow *r = &q->row[i];

		o = json_object();
		ot_json_set(o, "node", ot_json_str(qdesc(q->f, r->node)));
		ot_json_set(o, "port", json_integer(r->port));
		ot_json_set(o, "class", ot_json_str(q->cls[r->cls].name));
		ot_json_set(o, "vls", vls_json(r->vls));
		ot_json_set(o, "flows", ot_json_u64(r->flows));
		ot_json_set(o, "share", ot_json_fixed(r->share, 5));
		ot_json_set(o, "target", ot_json_fixed(r->target, 5));
		ot_json_set(o, "worst_wait_bytes", wait_json(r->worst));
		if (r->rate_mbps && r->worst != OT_ARB_NEVER)
			ot_json_set(o, "worst_wait_ns",
				    ot_json_fixed(wait_ns(r->worst,
							  r->rate_mbps), 1));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *classes_json(const struct ot_qos_check_report *q)
{
	json_t *a = json_array(), *o;
	struct class_sum s;
	unsigned int i;

	for (i = 0; a && i < q->classes; i++) {
		summarize(q, i, &s);
		o = json_object();
		ot_json_set(o, "name", ot_json_str(q->cls[i].name));
		ot_json_set(o, "sl", json_integer(q->cls[i].sl));
		ot_json_set(o, "target", ot_json_fixed(q->target[i], 5));
		ot_json_set(o, "ports", ot_json_u64(s.ports));
		ot_json_set(o, "min_share_minus_target", ot_json_fixed(s.lo, 5));
		ot_json_set(o, "max_share_minus_target", ot_json_fixed(s.hi, 5));
		ot_json_set(o, "worst_wait_bytes", wait_json(s.worst));
		ot_json_set(o, "credit_loop", json_boolean(q->loop[i]));
		ot_json_set(o, "reaches_no_port", json_boolean(q->idle[i]));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *qos_json(const struct ot_qos_check_report *q)
{
	const struct ot_qos_check_counts *c = &q->c;
	json_t *o = json_object(), *ex = json_object(), *a;
	unsigned int k, j;

	ot_json_set(o, "ok", json_boolean(ot_qos_check_ok(q)));
	ot_json_set(o, "sl_layers", json_integer(q->sls));
	ot_json_set(o, "shares_within_1pct",
		    json_boolean(!c->share_miss && !c->unread));
	ot_json_set(o, "worst_miss", ot_json_fixed(c->worst_miss, 5));
	ot_json_set(o, "ports_with_flows", ot_json_u64(c->ports));
	ot_json_set(o, "unread", ot_json_u64(c->unread));
	ot_json_set(o, "no_entry", ot_json_u64(c->no_entry));
	ot_json_set(o, "unserved_vl", ot_json_u64(c->unserved_vl));
	ot_json_set(o, "shared_vl", ot_json_u64(c->shared_vl));
	ot_json_set(o, "share_miss", ot_json_u64(c->share_miss));
	ot_json_set(o, "split_miss", ot_json_u64(c->split_miss));
	ot_json_set(o, "credit_loop_classes", json_integer(c->loop_classes));
	ot_json_set(o, "idle_classes", json_integer(c->idle_classes));
	ot_json_set(o, "tables_not_as_computed", ot_json_u64(c->differs));
	ot_json_set(o, "tables_not_computed", ot_json_u64(c->uncomputed));
	ot_json_set(o, "classes", classes_json(q));
	ot_json_set(o, "ports", rows_json(q));
	for (k = 0; k < Q_KINDS; k++) {
		a = json_array();
		for (j = 0; a && j < q->nex[k]; j++)
			json_array_append_new(a, ot_json_str(q->ex[k][j]));
		ot_json_set(ex, qkind_name[k], a);
	}
	ot_json_set(o, "examples", ex);
	return o;
}

int ot_qos_check_print(FILE *out, const struct ot_check_report *rep,
		       const struct ot_qos_check_report *q, bool json)
{
	json_t *o;

	if (!json) {
		if (rep && ot_check_print(out, rep, false))
			return -1;
		print_qos_text(out, q);
		return ferror(out) ? -1 : 0;
	}
	o = ck_report_json(rep);
	if (!o)
		return -1;
	ot_json_set(o, "ok", json_boolean(ot_check_ok(rep) &&
					  ot_qos_check_ok(q)));
	ot_json_set(o, "qos", qos_json(q));
	return ot_json_print(out, o) || ferror(out) ? -1 : 0;
}
