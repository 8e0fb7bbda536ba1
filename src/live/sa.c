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
 * first three records and then garbage).  Under ibsim a Get costs about a
 * tenth of a millisecond, so 100 CAs (10,000 pairs) take about a second.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include "live/live.h"

/* PathRecord component mask bits (IBA vol. 1, 15.2.5.16). */
#define SA_PR_COMP_DLID (1ull << 4)
#define SA_PR_COMP_SLID (1ull << 5)

/*
 * After this many queries in a row that got no answer at all (not even an
 * error status), the SA is taken to be gone: each costs the MAD timeout
 * times the retries, and there may be thousands left.
 */
#define SA_MAX_SILENT 3

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
};

static void sa_sl_table_free(void *priv)
{
	struct sa_sl_table *t = priv;

	if (!t)
		return;
	free(t->row_of);
	free(t->sl);
	free(t);
}

static uint8_t sa_sl_get(const struct sa_sl_table *t, uint32_t row,
			 uint16_t dlid)
{
	uint8_t b = t->sl[row * t->stride + dlid / 2];

	return dlid % 2 ? b >> 4 : b & 0xf;
}

static void sa_sl_put(struct sa_sl_table *t, uint32_t row, uint16_t dlid,
		      uint8_t sl)
{
	uint8_t *b = &t->sl[row * t->stride + dlid / 2];

	if (dlid % 2)
		*b = (uint8_t)((*b & 0x0f) | (sl & 0xf) << 4);
	else
		*b = (uint8_t)((*b & 0xf0) | (sl & 0xf));
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

struct sa_query {
	struct ibmad_port *mad;
	ib_portid_t sa;
	unsigned int silent; /* queries in a row without any answer */
	uint64_t answered, refused;
};

/*
 * One PathRecord Get for (slid, dlid).  0 with *sl set; 1 when the SA
 * answered with an error status (no path: the pair keeps SL 0); -1 when
 * nothing answered.
 */
static int sa_query_pair(struct sa_query *q, uint16_t slid, uint16_t dlid,
			 uint8_t *sl)
{
	uint8_t buf[IB_SA_DATA_SIZE];
	ib_sa_call_t call;
	int slid_v = slid, dlid_v = dlid, v = 0;
	uint8_t *rec;

	memset(&call, 0, sizeof(call));
	memset(buf, 0, sizeof(buf));
	call.method = IB_MAD_METHOD_GET;
	call.attrid = IB_SA_ATTR_PATHRECORD;
	call.mask = SA_PR_COMP_SLID | SA_PR_COMP_DLID;
	call.trid = mad_trid();
	mad_encode_field(buf, IB_SA_PR_SLID_F, &slid_v);
	mad_encode_field(buf, IB_SA_PR_DLID_F, &dlid_v);
	errno = 0;
	rec = sa_rpc_call(q->mad, buf, &q->sa, &call, 0);
	if (!rec) {
		/* libibmad says EIO when a reply came with a bad status. */
		if (errno == EIO) {
			q->silent = 0;
			q->refused++;
			return 1;
		}
		q->silent++;
		return -1;
	}
	q->silent = 0;
	q->answered++;
	mad_decode_field(rec, IB_SA_PR_SL_F, &v);
	*sl = (uint8_t)(v & 0xf);
	return 0;
}

/* Every destination LID of every CA port, from the source row's LID. */
static int sa_query_source(struct sa_query *q, const struct ot_fabric *f,
			   struct sa_sl_table *t, uint32_t row, uint16_t slid,
			   struct ot_error *err)
{
	uint32_t n, lid;
	unsigned int p;

	for (n = 0; n < f->nnodes; n++) {
		for (p = 1; p <= f->node[n].nports; p++) {
			const struct ot_port *pt = &f->node[n].port[p];

			if (!sa_endpoint(f, n, p))
				continue;
			for (lid = pt->lid;
			     lid < pt->lid + ot_port_nlids(pt) &&
			     lid <= f->max_lid;
			     lid++) {
				uint8_t sl = 0;
				int rc = sa_query_pair(q, slid, (uint16_t)lid,
						       &sl);

				if (rc == 0)
					sa_sl_put(t, row, (uint16_t)lid, sl);
				if (q->silent >= SA_MAX_SILENT)
					return ot_error_set(err,
							    "the SA (LID %d) stopped answering PathRecord queries (from LID %u to LID %u)",
							    q->sa.lid, slid,
							    lid);
			}
		}
	}
	return 0;
}

int ot_live_read_path_sls(const struct ot_live_opts *o, struct ot_routing *r,
			  struct ot_error *err)
{
	/*
	 * The SMI classes are for the local PortInfo (where the SM is).
	 * Both, although only the directed one is used: libumad2sim frees
	 * only one class of a closed port, so a class an earlier port of
	 * this process registered must be registered again to be usable.
	 */
	int classes[] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS, IB_SA_CLASS };
	const struct ot_fabric *f = r->fabric;
	struct sa_sl_table *t = NULL;
	struct sa_query q = { 0 };
	char cabuf[UMAD_CA_NAME_LEN];
	char *ca = NULL;
	int port = o ? o->port : 0;
	uint32_t n, row = 0;
	unsigned int p;
	int error = 1;

	if (o && o->ca && o->ca[0]) {
		snprintf(cabuf, sizeof(cabuf), "%s", o->ca);
		ca = cabuf;
	}
	q.mad = mad_rpc_open_port(ca, port, classes,
				  sizeof(classes) / sizeof(classes[0]));
	if (!q.mad) {
		ot_error_set(err, "cannot open MAD port %s port %d for SA queries",
			     ca ? ca : "(first CA)", port);
		goto out;
	}
	if (o && o->timeout_ms > 0)
		mad_rpc_set_timeout(q.mad, o->timeout_ms);
	/* Where the SA is: the master SM's LID in the local PortInfo. */
	if (ib_resolve_smlid_via(&q.sa, 0, q.mad) < 0) {
		ot_error_set(err, "no subnet manager known to the local port");
		goto out;
	}
	t = sa_sl_table_new(f);
	if (!t) {
		error = ot_error_set(err, "out of memory");
		goto out;
	}
	for (n = 0; n < f->nnodes; n++) {
		for (p = 1; p <= f->node[n].nports; p++) {
			const struct ot_port *pt = &f->node[n].port[p];

			if (!sa_endpoint(f, n, p))
				continue;
			if (sa_query_source(&q, f, t, row, pt->lid, err))
				goto out;
			row++;
		}
	}
	if (!q.answered) {
		ot_error_set(err,
			     "the SA (LID %d) answered no PathRecord query (%" PRIu64 " refused)",
			     q.sa.lid, q.refused);
		goto out;
	}
	if (q.refused)
		fprintf(stderr,
			"osmtopo: note: the SA had no PathRecord for %" PRIu64 " of %" PRIu64 " pairs; those are checked on SL 0\n",
			q.refused, q.refused + q.answered);
	if (r->free_priv)
		r->free_priv(r->priv);
	r->priv = t;
	r->free_priv = sa_sl_table_free;
	r->path_sl = sa_path_sl;
	t = NULL;
	error = 0;
out:
	sa_sl_table_free(t);
	if (q.mad)
		mad_rpc_close_port(q.mad);
	return error;
}
