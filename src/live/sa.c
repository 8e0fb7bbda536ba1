// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Path SLs of a live fabric, as the subnet administrator hands them out.
 * An engine that breaks credit loops with SLs (lash, dfsssp, nue, hdor's
 * escape classes) tells each source its SL only through the PathRecord
 * the SA answers with; no switch or CA holds it.  So the checker, reading
 * a live fabric (live.c), asks the SA for the PathRecord of every CA-port
 * pair and checks each path on the SL a real application would get.
 *
 * One Get per (source port, destination LID), not one GetTable per
 * source: the answer to a Get is one record in one MAD, while a GetTable
 * answer longer than one MAD needs RMPP, which libibmad does not
 * reassemble and ibsim's libumad2sim does not carry (a client sees the
 * first three records and then garbage).  The Gets go SA_WINDOW at a time
 * (window.c).
 *
 * A 16K-CA fabric has 268 million pairs: more than an SA answers in an
 * hour.  Beyond a bound (OT_LIVE_PATH_BOUND pairs, unless all_paths), the
 * SLs are sampled: for every source port and every LID offset of its LMC
 * range (a class), SA_SAMPLE destination ports spread over the fabric,
 * shifted by the source so that the sources together ask about every
 * destination.  When the answers of a class agree, every destination of
 * that class gets that SL (a "sampled" pair); when they differ, or the SA
 * had no record, the class is asked whole.  So an engine whose SL depends
 * on the source and the LID offset only (minhop, ff-dor, hdor without
 * escape SLs) costs SA_SAMPLE queries per class, and one whose SL depends
 * on the destination costs what all pairs cost, for the sources where it
 * does: never a guess where the sample disagreed.  The counts go to
 * stderr ("N pairs checked on SLs the SA gave, M on sampled ones").
 * Where the sample agreed but the pairs' SLs do not (OpenSM's dfsssp and
 * lash choose an SL per pair), the sample can close a credit loop that is
 * not there: the sampled pairs stay marked (r->sl_sampled), and the
 * checker asks the real SL of those on a loop before it reports it
 * (r->sl_confirm, check/confirm.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include "live/live.h"
#include "live/progress.h"
#include "live/saport.h"
#include "live/window.h"
#include "model/pathsl.h"

/* PathRecord component mask bits (IBA vol. 1, 15.2.5.16). */
#define SA_PR_COMP_DLID (1ull << 4)
#define SA_PR_COMP_SLID (1ull << 5)

/*
 * The SLs, one 4-bit entry per (source port, destination LID): a row per
 * CA port with a LID, max_lid + 1 entries a row.  16K CAs would need
 * 128 MB, far beyond what anybody asks an SA for one pair at a time.
 */
struct sa_sl_table {
	uint16_t max_lid;
	uint32_t nrows;
	size_t stride;     /* bytes per row */
	int32_t *row_of;   /* per LID: the row of the source port, or -1 */
	uint8_t *sl;       /* nrows * stride bytes, two SLs a byte */
	/*
	 * Per (row, destination LID), a bit: the SL is the sample's, not
	 * the SA's for that pair; NULL without a sample.  The options the
	 * table was read with, to ask the SA again (ot_routing's
	 * sl_confirm).
	 */
	uint8_t *sampled;
	uint8_t *asked;    /* the same, while sampling: the SA gave it */
	size_t sstride;    /* bytes per row of sampled and asked */
	uint64_t nsampled;
	struct ot_live_opts opts;
};

static void sa_sl_table_free(void *priv)
{
	struct sa_sl_table *t = priv;

	if (!t)
		return;
	free(t->row_of);
	free(t->sl);
	free(t->sampled);
	free(t->asked);
	free(t);
}

/* Two SLs a byte, as the path-SL dump file packs them (model/pathsl.h). */
static uint8_t sa_sl_get(const struct sa_sl_table *t, uint32_t row,
			 uint16_t dlid)
{
	return ot_pathsl_get(t->sl + row * t->stride, dlid);
}

static void sa_sl_put(struct sa_sl_table *t, uint32_t row, uint16_t dlid,
		      uint8_t sl)
{
	ot_pathsl_put(t->sl + row * t->stride, dlid, sl);
}

static bool sa_was_asked(const struct sa_sl_table *t, uint32_t row,
			 uint16_t dlid)
{
	return t->asked[row * t->sstride + dlid / 8] >> dlid % 8 & 1;
}

/* The SL of a pair the SA was not asked about: the sample's. */
static void sa_sl_sample(struct sa_sl_table *t, uint32_t row, uint16_t dlid,
			 uint8_t sl)
{
	uint8_t *b = &t->sampled[row * t->sstride + dlid / 8];

	sa_sl_put(t, row, dlid, sl);
	if (!(*b & 1u << dlid % 8))
		t->nsampled++;
	*b |= (uint8_t)(1u << dlid % 8);
}

static bool sa_is_sampled(const struct sa_sl_table *t, uint32_t row,
			  uint16_t dlid)
{
	return t->sampled &&
	       t->sampled[row * t->sstride + dlid / 8] >> dlid % 8 & 1;
}

/* r->path_sl: any LID of a source port's LMC range uses its row. */
static uint8_t sa_path_sl(const struct ot_routing *r, uint16_t slid,
			  uint16_t dlid)
{
	const struct sa_sl_table *t = r->priv;
	int32_t row;

	if (!t || slid > t->max_lid || dlid > t->max_lid)
		return 0;
	row = t->row_of[slid];
	if (row < 0)
		return 0;
	return sa_sl_get(t, (uint32_t)row, dlid);
}

/* Is port p of node n a CA port that sends and receives (cabled, LID)? */
static bool sa_endpoint(const struct ot_fabric *f, uint32_t n, unsigned int p)
{
	const struct ot_port *pt = &f->node[n].port[p];

	return f->node[n].type == OT_NODE_CA && pt->lid && pt->peer >= 0;
}

static struct sa_sl_table *sa_sl_table_new(const struct ot_fabric *f)
{
	struct sa_sl_table *t = calloc(1, sizeof(*t));
	uint32_t n, lid;
	unsigned int p;

	if (!t)
		return NULL;
	t->max_lid = f->max_lid;
	t->stride = ((size_t)f->max_lid + 2) / 2;
	t->row_of = malloc(((size_t)f->max_lid + 1) * sizeof(*t->row_of));
	if (!t->row_of)
		goto fail;
	for (lid = 0; lid <= f->max_lid; lid++)
		t->row_of[lid] = -1;
	for (n = 0; n < f->nnodes; n++) {
		for (p = 1; p <= f->node[n].nports; p++) {
			const struct ot_port *pt = &f->node[n].port[p];

			if (!sa_endpoint(f, n, p))
				continue;
			for (lid = pt->lid;
			     lid < pt->lid + ot_port_nlids(pt) &&
			     lid <= f->max_lid;
			     lid++)
				t->row_of[lid] = (int32_t)t->nrows;
			t->nrows++;
		}
	}
	t->sl = calloc(t->nrows ? t->nrows : 1, t->stride);
	if (!t->sl)
		goto fail;
	return t;
fail:
	sa_sl_table_free(t);
	return NULL;
}

/* A CA port that sends and receives: its base LID and how many it has. */
struct sa_port {
	uint16_t lid;
	uint16_t nlids;
};

struct sa_query {
	struct ot_win *win;
	ib_portid_t sa;
	struct sa_sl_table *t;
	struct sa_port *port; /* nports, in row order */
	uint32_t nports;
	unsigned int noffs;   /* LID offsets: the largest LMC range */
	unsigned int ncls;    /* classes per row: OT_NUM_SLS * noffs */
	const struct ot_routing *model; /* the classes' SLs, or NULL */
	uint8_t *cls;         /* per (row, class): SA_CLS_* or the SL seen */
	uint8_t *seen;        /* per class of the row sampled: queries */
	struct ot_error *err;
	struct ot_progress progress;
	uint64_t pairs;   /* every (source port, destination LID) */
	uint64_t planned; /* queries foreseen, for the progress line */
	uint64_t answered, refused;
};

/* cls: no answer yet; answers that differ (the class is queried whole). */
#define SA_CLS_NONE 0xff
#define SA_CLS_MIXED 0xfe
/* Destinations asked per (source, LID offset) class in a sample. */
#define SA_SAMPLE 4
/* SA Gets in flight at once. */
#define SA_WINDOW 64
/* Cookie bit: the answer is part of the sample. */
#define SA_COOKIE_SAMPLE (1ull << 63)

/* The class of (row, destination port i, offset o): model SL, offset. */
static unsigned int sa_class(const struct sa_query *q, uint32_t row,
			     uint32_t i, unsigned int o)
{
	uint8_t sl = 0;

	if (q->model && q->model->path_sl)
		sl = q->model->path_sl(q->model, q->port[row].lid,
				       (uint16_t)(q->port[i].lid + o)) & 0xf;
	return sl * q->noffs + o;
}

/* The window's callback: one PathRecord answer. */
static int sa_done(void *ctx, uint64_t cookie, uint8_t *mad, int status)
{
	struct sa_query *q = ctx;
	uint32_t row = (uint32_t)(cookie >> 16) & 0xffffff;
	uint16_t dlid = (uint16_t)cookie;
	uint8_t *cls, sl;

	if (!mad)
		return ot_error_set(q->err,
				    "the SA (LID %d) stopped answering PathRecord queries (from LID %u to LID %u: %s)",
				    q->sa.lid, q->port[row].lid, dlid,
				    ot_win_failure(status));
	ot_progress_show(&q->progress, q->answered + q->refused + 1,
			 q->planned);
	if (status) {
		/* no path: the pair keeps SL 0 */
		q->refused++;
		sl = SA_CLS_MIXED;
	} else {
		q->answered++;
		sl = mad_get_field(mad + IB_SA_DATA_OFFS, 0, IB_SA_PR_SL_F);
		sa_sl_put(q->t, row, dlid, sl);
		if (q->t->asked)
			q->t->asked[row * q->t->sstride + dlid / 8] |=
				(uint8_t)(1u << dlid % 8);
	}
	if (!(cookie & SA_COOKIE_SAMPLE))
		return 0;
	cls = &q->cls[(size_t)row * q->ncls + (cookie >> 40 & 0xffff)];
	if (*cls == SA_CLS_NONE)
		*cls = sl;
	else if (*cls != sl)
		*cls = SA_CLS_MIXED;
	return 0;
}

static int sa_ask(struct sa_query *q, uint32_t row, uint16_t dlid,
		  uint64_t flags)
{
	uint8_t rec[IB_SA_DATA_SIZE];
	int slid_v = q->port[row].lid, dlid_v = dlid;

	memset(rec, 0, sizeof(rec));
	mad_encode_field(rec, IB_SA_PR_SLID_F, &slid_v);
	mad_encode_field(rec, IB_SA_PR_DLID_F, &dlid_v);
	return ot_win_sa_get(q->win, &q->sa, IB_SA_ATTR_PATHRECORD,
			     SA_PR_COMP_SLID | SA_PR_COMP_DLID, rec,
			     flags | (uint64_t)row << 16 | dlid);
}

/*
 * Every destination LID of class c (all when c < 0) from the source row;
 * with sample, up to SA_SAMPLE destinations of each class, taken from a
 * start shifted by the row, so that the samples of all sources together
 * ask about every destination.
 */
static int sa_ask_row(struct sa_query *q, uint32_t row, int c, bool sample)
{
	uint32_t k, i;
	unsigned int o, cl = 0;

	memset(q->seen, 0, q->ncls);
	for (k = 0; k < q->nports; k++) {
		i = sample ? (k + row * SA_SAMPLE) % q->nports : k;
		for (o = 0; o < q->port[i].nlids; o++) {
			uint64_t flags = 0;

			if (c >= 0 || sample)
				cl = sa_class(q, row, i, o);
			if (c >= 0 && (int)cl != c)
				continue;
			if (sample) {
				if (q->seen[cl] >= SA_SAMPLE)
					continue;
				q->seen[cl]++;
				flags = SA_COOKIE_SAMPLE | (uint64_t)cl << 40;
			}
			if (sa_ask(q, row, q->port[i].lid + o, flags))
				return -1;
		}
	}
	return 0;
}

/*
 * The classes whose sample agreed get its SL for every destination of
 * that offset ("sampled" pairs); the others are asked whole.
 */
static int sa_complete(struct sa_query *q)
{
	uint32_t row, i;
	unsigned int o, c;

	for (row = 0; row < q->nports; row++)
		for (c = 0; c < q->ncls; c++)
			if (q->cls[(size_t)row * q->ncls + c] == SA_CLS_MIXED &&
			    sa_ask_row(q, row, (int)c, false))
				return -1;
	if (ot_win_drain(q->win))
		return -1;
	for (row = 0; row < q->nports; row++)
		for (i = 0; i < q->nports; i++)
			for (o = 0; o < q->port[i].nlids; o++) {
				uint8_t v = q->cls[(size_t)row * q->ncls +
						   sa_class(q, row, i, o)];

				if (v < SA_CLS_MIXED &&
				    !sa_was_asked(q->t, row, q->port[i].lid + o))
					sa_sl_sample(q->t, row,
						     q->port[i].lid + o, v);
			}
	return 0;
}

/* The CA ports in row order, and the pairs all-paths would ask for. */
static int sa_ports(struct sa_query *q, const struct ot_fabric *f)
{
	uint64_t lids = 0;
	uint32_t n;
	unsigned int p;

	q->port = calloc(q->t->nrows ? q->t->nrows : 1, sizeof(*q->port));
	if (!q->port)
		return -1;
	q->noffs = 1;
	for (n = 0; n < f->nnodes; n++)
		for (p = 1; p <= f->node[n].nports; p++) {
			const struct ot_port *pt = &f->node[n].port[p];
			struct sa_port *sp = &q->port[q->nports];

			if (!sa_endpoint(f, n, p))
				continue;
			sp->lid = pt->lid;
			sp->nlids = (uint16_t)ot_port_nlids(pt);
			if (sp->nlids > q->noffs)
				q->noffs = sp->nlids;
			lids += sp->nlids;
			q->nports++;
		}
	q->pairs = lids * q->nports;
	q->planned = q->pairs;
	return 0;
}

/*
 * All pairs, or (beyond the bound, without all_paths) the sample and the
 * classes it could not settle.
 */
static int sa_query_all(struct sa_query *q, bool sample)
{
	uint32_t row;

	q->ncls = OT_NUM_SLS * q->noffs;
	q->seen = calloc(q->ncls, 1);
	if (!q->seen)
		return ot_error_nomem(q->err, "SA");
	if (sample) {
		struct sa_sl_table *t = q->t;

		t->sstride = (size_t)t->max_lid / 8 + 1;
		t->sampled = calloc(t->nrows ? t->nrows : 1, t->sstride);
		t->asked = calloc(t->nrows ? t->nrows : 1, t->sstride);
		q->cls = malloc((size_t)q->nports * q->ncls);
		if (!q->cls || !t->sampled || !t->asked)
			return ot_error_nomem(q->err, "SA");
		memset(q->cls, SA_CLS_NONE, (size_t)q->nports * q->ncls);
		q->planned = (uint64_t)q->nports * SA_SAMPLE * q->noffs;
	}
	ot_progress_start(&q->progress, "path records asked");
	for (row = 0; row < q->nports; row++)
		if (sa_ask_row(q, row, -1, sample))
			return -1;
	if (ot_win_drain(q->win) || (sample && sa_complete(q)))
		return -1;
	ot_progress_end(&q->progress);
	return 0;
}

/* What the SA told, on stderr: how many pairs on SA-given SLs. */
static void sa_note(const struct sa_query *q, bool sample)
{
	uint64_t asked = q->answered + q->refused;
	/* a class asked whole asks its sampled pairs again: count pairs */
	uint64_t sampled = sample ? q->t->nsampled : 0;

	fprintf(stderr,
		"osmtopo: path SLs: %" PRIu64 " pairs checked on SLs the SA gave, %" PRIu64 " on sampled ones%s\n",
		q->pairs - sampled, sampled,
		sample ? " (--all-paths asks for every pair)" : "");
	if (sample && !q->model)
		fprintf(stderr,
			"osmtopo: note: the sample assumes a source's SL depends on the LID offset only; --engine ENGINE samples by that engine's SLs\n");
	if (sample)
		fprintf(stderr,
			"osmtopo: note: a credit loop found on sampled SLs is reported only once the real SLs of the sampled pairs on it confirm it\n");
	if (q->refused)
		fprintf(stderr,
			"osmtopo: note: the SA had no PathRecord for %" PRIu64 " of %" PRIu64 " pairs; those are checked on SL 0\n",
			q->refused, asked);
}

/* r->sl_sampled: the pair's SL is the sample's. */
static bool sa_sl_sampled(const struct ot_routing *r, uint16_t slid,
			  uint16_t dlid)
{
	const struct sa_sl_table *t = r->priv;

	if (!t || slid > t->max_lid || dlid > t->max_lid ||
	    t->row_of[slid] < 0)
		return false;
	return sa_is_sampled(t, (uint32_t)t->row_of[slid], dlid);
}

/* The window's callback for sa_sl_confirm(): the pair's own SL. */
static int sa_confirmed(void *ctx, uint64_t cookie, uint8_t *mad, int status)
{
	struct sa_sl_table *t = ctx;
	uint32_t row = (uint32_t)(cookie >> 16) & 0xffffff;
	uint16_t dlid = (uint16_t)cookie;
	uint8_t *b = &t->sampled[row * t->sstride + dlid / 8];

	if (!mad)
		return -1;
	/* no record: the pair keeps the sample's SL, and stays sampled */
	if (status)
		return 0;
	sa_sl_put(t, row, dlid,
		  mad_get_field(mad + IB_SA_DATA_OFFS, 0, IB_SA_PR_SL_F));
	if (*b >> dlid % 8 & 1) {
		*b &= (uint8_t)~(1u << dlid % 8);
		t->nsampled--;
	}
	return 0;
}

/*
 * r->sl_confirm: the SA asked again, for the pairs whose path crosses a
 * credit loop found on sampled SLs (check/confirm.c).
 */
static int sa_sl_confirm(struct ot_routing *r, const uint32_t *pairs,
			 uint64_t n, struct ot_error *err)
{
	struct sa_sl_table *t = r->priv;
	struct ibmad_port *mad = NULL;
	struct ot_win *win = NULL;
	ib_portid_t sa;
	uint64_t i;
	int error = -1;

	if (ot_live_sa_open(&t->opts, &mad, &sa, "SA queries", err))
		goto out;
	win = ot_win_new(mad, SA_WINDOW, t->opts.timeout_ms, sa_confirmed, t);
	if (!win) {
		ot_error_nomem(err, "SA");
		goto out;
	}
	for (i = 0; i < n; i++) {
		uint16_t slid = (uint16_t)(pairs[i] >> 16);
		uint16_t dlid = (uint16_t)pairs[i];
		uint8_t rec[IB_SA_DATA_SIZE];
		int slid_v = slid, dlid_v = dlid;

		if (slid > t->max_lid || t->row_of[slid] < 0)
			continue;
		memset(rec, 0, sizeof(rec));
		mad_encode_field(rec, IB_SA_PR_SLID_F, &slid_v);
		mad_encode_field(rec, IB_SA_PR_DLID_F, &dlid_v);
		if (ot_win_sa_get(win, &sa, IB_SA_ATTR_PATHRECORD,
				  SA_PR_COMP_SLID | SA_PR_COMP_DLID, rec,
				  (uint64_t)t->row_of[slid] << 16 | dlid))
			goto failed;
	}
	if (ot_win_drain(win))
		goto failed;
	r->sl_sampled_pairs = t->nsampled;
	fprintf(stderr,
		"osmtopo: path SLs: %" PRIu64 " pairs on credit loops found on sampled SLs asked again; %" PRIu64 " pairs left on sampled SLs\n",
		n, t->nsampled);
	error = 0;
	goto out;
failed:
	ot_error_set(err,
		     "the SA (LID %d) stopped answering PathRecord queries while credit loops found on sampled SLs were confirmed",
		     sa.lid);
out:
	ot_win_free(win);
	if (mad)
		mad_rpc_close_port(mad);
	return error;
}

int ot_live_sa_open(const struct ot_live_opts *o, struct ibmad_port **mad,
		    ib_portid_t *sa, const char *what, struct ot_error *err)
{
	int classes[] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS, IB_SA_CLASS };
	char cabuf[UMAD_CA_NAME_LEN];
	char *ca = NULL;
	int port = o ? o->port : 0;

	if (o && o->ca && o->ca[0]) {
		snprintf(cabuf, sizeof(cabuf), "%s", o->ca);
		ca = cabuf;
	}
	*mad = mad_rpc_open_port(ca, port, classes,
				 sizeof(classes) / sizeof(classes[0]));
	if (!*mad)
		return ot_error_set(err, "cannot open MAD port %s port %d for %s",
				    ca ? ca : "(first CA)", port, what);
	if (o && o->timeout_ms > 0)
		mad_rpc_set_timeout(*mad, o->timeout_ms);
	memset(sa, 0, sizeof(*sa));
	if (ib_resolve_smlid_via(sa, 0, *mad) < 0)
		return ot_error_set(err, "no subnet manager known to the local port");
	return 0;
}

int ot_live_read_path_sls(const struct ot_live_opts *o, struct ot_routing *r,
			  struct ot_error *err)
{
	const struct ot_fabric *f = r->fabric;
	struct ibmad_port *mad = NULL;
	struct sa_query q = { .err = err, .model = o ? o->sl_model : NULL };
	bool sample;
	int error = 1;

	if (ot_live_sa_open(o, &mad, &q.sa, "SA queries", err))
		goto out;
	error = -1;
	q.t = sa_sl_table_new(f);
	if (!q.t || sa_ports(&q, f)) {
		ot_error_nomem(err, "SA");
		goto out;
	}
	q.win = ot_win_new(mad, SA_WINDOW, o ? o->timeout_ms : 0, sa_done, &q);
	if (!q.win) {
		ot_error_nomem(err, "SA");
		goto out;
	}
	sample = !(o && o->all_paths) &&
		 q.pairs > (o && o->path_bound ? o->path_bound :
						   OT_LIVE_PATH_BOUND);
	if (sa_query_all(&q, sample)) {
		ot_progress_end(&q.progress);
		/* the SA going silent is "no SA", not a failure */
		error = q.answered ? -1 : 1;
		if (err && !err->msg[0])
			ot_error_set(err, "sending a PathRecord query failed");
		goto out;
	}
	if (!q.answered) {
		error = 1;
		ot_error_set(err,
			     "the SA (LID %d) answered no PathRecord query (%" PRIu64 " refused)",
			     q.sa.lid, q.refused);
		goto out;
	}
	sa_note(&q, sample);
	if (r->free_priv)
		r->free_priv(r->priv);
	r->priv = q.t;
	r->free_priv = sa_sl_table_free;
	r->path_sl = sa_path_sl;
	if (q.t->nsampled) {
		if (o)
			q.t->opts = *o;
		r->sl_sampled_pairs = q.t->nsampled;
		r->sl_sampled = sa_sl_sampled;
		r->sl_confirm = sa_sl_confirm;
	}
	free(q.t->asked);
	q.t->asked = NULL;
	q.t = NULL;
	error = 0;
out:
	ot_win_free(q.win);
	sa_sl_table_free(q.t);
	free(q.port);
	free(q.cls);
	free(q.seen);
	if (mad)
		mad_rpc_close_port(mad);
	return error;
}
