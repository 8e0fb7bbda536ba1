// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Per-port VL arbitration for InfiniBand (see ot_qos_port_vlarb() in
 * qos.h).  The DTable methodology places each class's entries by its
 * latency need; here they are given VLs and weights.  Entries name VLs,
 * so a class's entries go to the VLs that carry it on this port, in
 * proportion to the flows the routing puts on each; and since an entry
 * sends whole packets while its weight lasts, weights are whole packets
 * of the class's MTU, sized so the arbiter's real shares (not the
 * weights' shares) meet the targets.
 */
#include <math.h>
#include <string.h>

#include "route/qos/qos.h"

#define VLS OT_NUM_SLS

/*
 * Splits total into out[0..n-1] in proportion to w[] (w all 0: evenly),
 * each out[i] within [lo[i], hi[i]] (lo summing to at most total), by
 * largest remainders.
 */
static void apportion(unsigned int total, const double *w,
		      const unsigned int *lo, const unsigned int *hi,
		      unsigned int *out, unsigned int n)
{
	double sum = 0, ideal[VLS], best;
	unsigned int i, got = 0, pick;

	for (i = 0; i < n; i++)
		sum += w[i];
	for (i = 0; i < n; i++) {
		ideal[i] = sum > 0 ? total * w[i] / sum : (double)total / n;
		out[i] = (unsigned int)floor(ideal[i]);
		out[i] = out[i] < lo[i] ? lo[i] : out[i] > hi[i] ? hi[i] :
								     out[i];
		got += out[i];
	}
	while (got != total) {
		pick = n;
		best = -INFINITY;
		for (i = 0; i < n; i++) {
			double d = got < total ? ideal[i] - out[i] :
						 out[i] - ideal[i];

			if ((got < total ? out[i] < hi[i] : out[i] > lo[i]) &&
			    d > best) {
				best = d;
				pick = i;
			}
		}
		if (pick == n)
			return;
		out[pick] += got < total ? 1 : -1u;
		got += got < total ? 1 : -1u;
	}
}

struct class_need {
	unsigned int entries; /* n_c */
	unsigned int mtu;     /* units */
	double target;        /* share among the classes present */
	bool present;
};

/* Packets of class c for a table of about t units. */
static unsigned int packets_for(const struct class_need *c, double t)
{
	long k = lround(t * c->target / c->mtu);
	unsigned int max = c->entries * (OT_QOS_MAX_WEIGHT / c->mtu);

	if (k < (long)c->entries)
		return c->entries;
	return (unsigned long)k > max ? max : (unsigned int)k;
}

/* How far the present classes' shares are from their targets. */
static double share_error(const struct class_need *c, unsigned int nc,
			  const unsigned int *k)
{
	double total = 0, err = 0, e;
	unsigned int i;

	for (i = 0; i < nc; i++)
		if (c[i].present)
			total += (double)k[i] * c[i].mtu;
	for (i = 0; i < nc; i++) {
		if (!c[i].present)
			continue;
		e = fabs(k[i] * c[i].mtu / total - c[i].target);
		err = e > err ? e : err;
	}
	return err;
}

/*
 * Packets per class: the smallest table (in units) whose shares are
 * within a quarter of a percent of the targets, else the closest.
 */
static void size_packets(const struct class_need *c, unsigned int nc,
			 unsigned int *k)
{
	unsigned int t, i, cand[OT_QOS_MAX_CLASSES], tmax = 0;
	double best = INFINITY, err;

	for (i = 0; i < nc; i++)
		tmax += c[i].entries * OT_QOS_MAX_WEIGHT;
	for (t = 1; t <= tmax; t++) {
		for (i = 0; i < nc; i++)
			cand[i] = packets_for(&c[i], t);
		err = share_error(c, nc, cand);
		if (err < best - 1e-12) {
			best = err;
			memcpy(k, cand, nc * sizeof(*k));
		}
		if (best <= 0.0025)
			return;
	}
}

/* Remembers the last sizing: every port of a sweep mostly asks the same. */
static _Thread_local struct {
	struct class_need c[OT_QOS_MAX_CLASSES];
	unsigned int nc, k[OT_QOS_MAX_CLASSES];
} memo;

static void size_packets_memo(const struct class_need *c, unsigned int nc,
			      unsigned int *k)
{
	if (memo.nc != nc || memcmp(memo.c, c, nc * sizeof(*c))) {
		size_packets(c, nc, memo.k);
		memset(memo.c, 0, sizeof(memo.c));
		memcpy(memo.c, c, nc * sizeof(*c));
		memo.nc = nc;
	}
	memcpy(k, memo.k, nc * sizeof(*k));
}

/*
 * Class ci's VL weights here: its flows, or its V VLs evenly.  Spread
 * groups (route/spread.h) are VLs of the class like the engine's own: a
 * group's weight follows its flows, so each flow of the class gets the
 * same service (equal among the groups when they carry equal flows).
 */
static bool class_vls(const struct ot_qos_layers *q, const uint32_t *flows,
		      unsigned int ci, double *w)
{
	unsigned int v;
	bool any = false;

	for (v = 0; v < VLS; v++) {
		w[v] = flows ? flows[ci * VLS + v] : 0;
		any |= w[v] > 0;
	}
	if (!any)
		for (v = 0; v < q->vls; v++)
			w[ci * q->vls + v] = 1;
	return any;
}

uint16_t ot_qos_port_emit(const struct ot_routing *r, int n, unsigned int p,
			  uint16_t sls)
{
	const struct ot_node *nd = &r->fabric->node[n];
	unsigned int in, sl, vl;
	uint16_t emit = 0;

	for (in = 0; in <= nd->nports; in++) {
		if (in == p || (in && (nd->port[in].peer < 0 ||
				       nd->type != OT_NODE_SWITCH)))
			continue;
		for (sl = 0; sl < OT_NUM_SLS; sl++) {
			if (!(sls & (1u << sl)))
				continue;
			vl = ot_routing_vl(r, n, in, p, sl);
			if (vl < 15)
				emit |= (uint16_t)(1u << vl);
		}
	}
	return emit;
}

/*
 * Class ci's entries (positions in the DTable a) given VLs and weights:
 * k packets of mtu units over the VLs of weight w.
 */
static void place_class(const struct ot_qos_arb *a, unsigned int ci,
			const double *w, uint16_t emit, unsigned int k,
			unsigned int mtu, struct ot_qos_entry *entry)
{
	unsigned int lo[VLS], hi[VLS], e[VLS], pk[VLS], used[VLS] = { 0 };
	unsigned int v, j, best, slot, per = OT_QOS_MAX_WEIGHT / mtu;
	unsigned int n = a->c[ci].n;

	for (v = 0; v < VLS; v++) {
		lo[v] = w[v] > 0 || (emit & (1u << v));
		hi[v] = lo[v] ? n : 0;
	}
	apportion(n, w, lo, hi, e, VLS);
	for (v = 0; v < VLS; v++) {
		lo[v] = e[v];
		hi[v] = e[v] * per;
		/*
		 * a VL only emitted here: one packet an entry, beside the
		 * k of the VLs with flows (the shares are over those)
		 */
		if (!(w[v] > 0))
			k += e[v];
	}
	apportion(k, w, lo, hi, pk, VLS);
	for (j = 0; j < a->n; j++) {
		if (a->entry[j].who != (int)ci)
			continue;
		/* the VL furthest behind its count of entries goes next */
		best = VLS;
		for (v = 0; v < VLS; v++)
			if (used[v] < e[v] &&
			    (best == VLS ||
			     (double)used[v] / e[v] <
				     (double)used[best] / e[best]))
				best = v;
		if (best == VLS)
			break; /* more VLs than entries: refused before */
		slot = used[best]++;
		entry[j].who = (int16_t)best;
		/* the VL's packets over its entries, the first ones +1 */
		entry[j].weight = (uint16_t)((pk[best] / e[best] +
					      (slot < pk[best] % e[best])) *
					     mtu);
	}
}

int ot_qos_port_vlarb(const struct ot_qos_table *t,
		      const struct ot_qos_layers *q, unsigned int cap,
		      const uint32_t *flows, struct ot_qos_entry *entry,
		      unsigned int *n, struct ot_error *err)
{
	return ot_qos_port_vlarb_emit(t, q, cap, flows, 0, entry, n, err);
}

/* The VLs of class ci's block in mask emit. */
static uint16_t class_emit(const struct ot_qos_layers *q, unsigned int ci,
			   uint16_t emit)
{
	unsigned int lo = ci * q->vls, hi = lo + q->vls;
	uint16_t mask = (uint16_t)((hi >= 16 ? 0xffffu : (1u << hi) - 1) &
				   ~((1u << lo) - 1));

	return emit & mask;
}

int ot_qos_port_vlarb_emit(const struct ot_qos_table *t,
			   const struct ot_qos_layers *q, unsigned int cap,
			   const uint32_t *flows, uint16_t emit,
			   struct ot_qos_entry *entry, unsigned int *n,
			   struct ot_error *err)
{
	struct class_need need[OT_QOS_MAX_CLASSES];
	unsigned int ci, j, k[OT_QOS_MAX_CLASSES];
	double w[OT_QOS_MAX_CLASSES][VLS], sum = 0;
	struct ot_qos_arb a;
	bool any = false;

	if (ot_qos_dtable(t, cap, &a, err))
		return -1;
	if (a.n > cap)
		return ot_refuse(err, OT_ERR_BUDGET,
				 "%u arbitration entries, the port holds %u",
				 a.n, cap);
	memset(need, 0, sizeof(need));
	for (ci = 0; ci < t->nclasses; ci++) {
		if (a.c[ci].n < q->vls)
			return ot_refuse(err, OT_ERR_BUDGET,
					 "line %u: class '%s' has %u arbitration entr%s of %u for the engine's %u VLs: lower its distance",
					 t->cls[ci].line, t->cls[ci].name,
					 a.c[ci].n, a.c[ci].n == 1 ? "y" : "ies",
					 a.n, q->vls);
		need[ci].present = class_vls(q, flows, ci, w[ci]);
		need[ci].entries = a.c[ci].n;
		need[ci].mtu = a.c[ci].mtu_units;
		any |= need[ci].present;
	}
	for (ci = 0; ci < t->nclasses; ci++) {
		need[ci].present |= !any;
		sum += need[ci].present ? t->cls[ci].share : 0;
	}
	for (ci = 0; ci < t->nclasses; ci++)
		need[ci].target = t->cls[ci].share / sum;
	size_packets_memo(need, t->nclasses, k);
	for (j = 0; j < a.n; j++)
		entry[j] = (struct ot_qos_entry){ 0, 0 };
	for (ci = 0; ci < t->nclasses; ci++)
		place_class(&a, ci, w[ci], class_emit(q, ci, emit), k[ci],
			    need[ci].mtu, entry);
	*n = a.n;
	return 0;
}

int ot_qos_ib_vlarb(const struct ot_qos_table *t,
		    const struct ot_qos_layers *q, unsigned int cap,
		    struct ot_qos_entry *entry, unsigned int *n,
		    struct ot_error *err)
{
	return ot_qos_port_vlarb(t, q, cap, NULL, entry, n, err);
}
