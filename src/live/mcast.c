// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Multicast state of a live fabric (live.h): the groups and their members
 * as the SA knows them, and every switch's multicast forwarding table.
 *
 * Groups: an SA GetTable of MCMemberRecords longer than one MAD needs
 * RMPP, which libumad2sim does not carry (see sa.c), so the groups are
 * found by Gets: MCMemberRecord with the MLID in the component mask, one
 * Get per MLID from 0xC000 up, MCAST_PROBE at a time, until a run of
 * MCAST_PROBE MLIDs without a group (OpenSM gives a new group the lowest
 * free MLID, so a fabric's groups sit at the bottom of the range).  The
 * answer names the group's MGID and SL.  Members: one Get per (group, CA
 * or router port) with the MGID and the PortGID in the mask; the SA
 * answers with a record when the port is a member, with an error status
 * when it is not.  Switch ports (port 0) are not asked.
 *
 * MFTs: MulticastForwardingTable blocks (32 MLIDs x 16 ports a block)
 * up to the highest MLID of a group, every port position of every
 * switch, by directed route as live.c reads the LFTs (drroute.h): a
 * LID-routed SMP depends on the LFTs toward the switch and back, and
 * ibsim drops one after 16 switches, which long escape paths exceed.
 * The MADs go through the window of window.c, MCAST_WINDOW at a time.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include "live/drroute.h"
#include "live/live.h"
#include "live/progress.h"
#include "live/saport.h"
#include "live/window.h"
#include "model/sort.h"

/* MCMemberRecord component mask bits (IBA vol. 1, 15.2.5.17). */
#define MCR_COMP_MGID (1ull << 0)
#define MCR_COMP_PORT_GID (1ull << 1)
#define MCR_COMP_QKEY (1ull << 2)
#define MCR_COMP_MLID (1ull << 3)
#define MCR_COMP_TCLASS (1ull << 6)
#define MCR_COMP_PKEY (1ull << 7)
#define MCR_COMP_SL (1ull << 12)
#define MCR_COMP_FLOW (1ull << 13)
#define MCR_COMP_JOIN_STATE (1ull << 16)

/* MLIDs probed at a time, and the run without a group that ends it. */
#define MCAST_PROBE 256
/* Multicast LIDs: 0xC000..0xFFFE. */
#define MCAST_MAX_MLIDS 0x3fff
#define MCAST_WINDOW 64
/* MulticastForwardingTable: MLIDs per block, ports per position. */
#define MFT_BLOCK 32
#define MFT_POS 16

enum mc_req { MC_REQ_MLID = 1, MC_REQ_MEMBER, MC_REQ_MFT };

struct mc_reader {
	const struct ot_fabric *f;
	struct ot_mcast *mc;
	struct ot_win *win;
	ib_portid_t sa;
	struct ot_drroutes drr; /* to every switch, for the MFTs */
	struct ot_error *err;
	/* groups found by MLID (index: MLID - OT_MLID_BASE), a round's worth */
	uint8_t (*mgid)[16];
	uint8_t *sl;
	bool *found;
	uint32_t nfound, nprobed; /* groups found, probes answered */
	/* CA and router ports with a LID and a cable: the candidates */
	struct ot_mcast_member *port;
	uint32_t nports;
	/* members as they are answered: (group, port) */
	uint32_t *hit_group, *hit_port;
	uint64_t nhits, hit_cap, asked, answered;
	struct ot_progress progress;
};

static uint64_t mc_cookie(enum mc_req kind, uint32_t a, uint32_t b)
{
	return (uint64_t)kind << 56 | (uint64_t)(a & 0xffffff) << 32 | b;
}

static int got_mlid(struct mc_reader *m, uint32_t idx, uint8_t *mad,
		    int status)
{
	uint8_t *rec = mad + IB_SA_DATA_OFFS;

	m->nprobed++;
	if (status)
		return 0; /* no group on this MLID */
	mad_decode_field(rec, IB_SA_MCM_MGID_F, m->mgid[idx]);
	m->sl[idx] = (uint8_t)mad_get_field(rec, 0, IB_SA_MCM_SL_F);
	m->found[idx] = true;
	m->nfound++;
	return 0;
}

static int got_member(struct mc_reader *m, uint32_t g, uint32_t p, int status)
{
	ot_progress_show(&m->progress, ++m->answered, m->asked);
	if (status)
		return 0; /* not a member */
	if (m->nhits == m->hit_cap) {
		uint64_t cap = m->hit_cap ? 2 * m->hit_cap : 256;
		uint32_t *a = realloc(m->hit_group, cap * sizeof(*a));
		uint32_t *b;

		if (!a)
			return ot_error_nomem(m->err, "multicast read");
		m->hit_group = a;
		b = realloc(m->hit_port, cap * sizeof(*b));
		if (!b)
			return ot_error_nomem(m->err, "multicast read");
		m->hit_port = b;
		m->hit_cap = cap;
	}
	m->hit_group[m->nhits] = g;
	m->hit_port[m->nhits++] = p;
	return 0;
}

/* One MFT block at one port position: 32 16-bit port masks. */
static void got_mft(struct mc_reader *m, uint32_t n, uint32_t mod,
		    const uint8_t *data)
{
	uint32_t block = mod & 0x1ff, pos = mod >> 28, i;
	unsigned int words = ot_mcast_words(m->f->node[n].nports);

	for (i = 0; i < MFT_BLOCK; i++) {
		uint32_t idx = block * MFT_BLOCK + i;

		if (idx >= m->mc->nmlids)
			break;
		m->mc->mft[n][(size_t)idx * words + pos] =
			(uint16_t)(data[2 * i] << 8 | data[2 * i + 1]);
	}
}

static int mc_done(void *ctx, uint64_t cookie, uint8_t *mad, int status)
{
	struct mc_reader *m = ctx;
	enum mc_req kind = (enum mc_req)(cookie >> 56);
	uint32_t a = (uint32_t)(cookie >> 32) & 0xffffff, b = (uint32_t)cookie;

	if (!mad)
		return ot_error_set(m->err,
				    kind == MC_REQ_MFT ?
				    "SubnGet(MulticastForwardingTable) to \"%s\": %s" :
				    "the SA stopped answering MCMemberRecord queries%s: %s",
				    kind == MC_REQ_MFT ? m->f->node[a].desc : "",
				    ot_win_failure(status));
	switch (kind) {
	case MC_REQ_MLID:
		return got_mlid(m, b, mad, status);
	case MC_REQ_MEMBER:
		return got_member(m, a, b, status);
	case MC_REQ_MFT:
		if (status)
			return ot_error_set(m->err,
					    "SubnGet(MulticastForwardingTable) modifier 0x%x failed on \"%s\": MAD status 0x%x",
					    b, m->f->node[a].desc, status);
		got_mft(m, a, b, mad + IB_SMP_DATA_OFFS);
		return 0;
	}
	return 0;
}

static int ask_mcmr(struct mc_reader *m, const uint8_t mgid[16],
		    const struct ot_port *port, uint16_t mlid, uint64_t cookie)
{
	uint8_t rec[IB_SA_DATA_SIZE], gid[16] = { 0xfe, 0x80 };
	uint64_t comp = 0;
	int v;

	memset(rec, 0, sizeof(rec));
	if (mgid) {
		mad_encode_field(rec, IB_SA_MCM_MGID_F, (void *)mgid);
		comp |= MCR_COMP_MGID;
	}
	if (port) {
		mad_set_field64(gid, 0, IB_GID_GUID_F, port->guid);
		mad_encode_field(rec, IB_SA_MCM_PORTGID_F, gid);
		comp |= MCR_COMP_PORT_GID;
	}
	if (mlid) {
		v = mlid;
		mad_encode_field(rec, IB_SA_MCM_MLID_F, &v);
		comp |= MCR_COMP_MLID;
	}
	return ot_win_sa_get(m->win, &m->sa, IB_SA_ATTR_MCRECORD, comp, rec,
			     cookie);
}

/*
 * The groups: MLIDs probed a round at a time; the groups become
 * m->mc's, in MLID order.
 */
static int find_groups(struct mc_reader *m)
{
	uint32_t lo = 0, hi, i, top = 0;

	m->mgid = calloc(MCAST_MAX_MLIDS, sizeof(*m->mgid));
	m->sl = calloc(MCAST_MAX_MLIDS, 1);
	m->found = calloc(MCAST_MAX_MLIDS, sizeof(*m->found));
	if (!m->mgid || !m->sl || !m->found)
		return ot_error_nomem(m->err, "multicast read");
	do {
		uint32_t before = m->nfound;

		hi = lo + MCAST_PROBE < MCAST_MAX_MLIDS ? lo + MCAST_PROBE :
							  MCAST_MAX_MLIDS;
		for (i = lo; i < hi; i++)
			if (ask_mcmr(m, NULL, NULL,
				     (uint16_t)(OT_MLID_BASE + i),
				     mc_cookie(MC_REQ_MLID, 0, i)))
				return -1;
		if (ot_win_drain(m->win))
			return -1;
		lo = hi;
		if (m->nfound == before)
			break;
	} while (lo < MCAST_MAX_MLIDS);
	for (i = 0; i < lo; i++)
		if (m->found[i])
			top = i + 1;
	m->mc = ot_mcast_new(m->f, top);
	if (!m->mc)
		return ot_error_nomem(m->err, "multicast read");
	for (i = 0; i < top; i++)
		if (m->found[i] &&
		    !ot_mcast_add_group(m->mc, (uint16_t)(OT_MLID_BASE + i),
					m->mgid[i], m->sl[i]))
			return ot_error_nomem(m->err, "multicast read");
	return 0;
}

static int collect_ports(struct mc_reader *m)
{
	const struct ot_fabric *f = m->f;
	uint32_t n;
	unsigned int p;

	for (n = 0; n < f->nnodes; n++) {
		if (f->node[n].type == OT_NODE_SWITCH)
			continue;
		for (p = 1; p <= f->node[n].nports; p++) {
			const struct ot_port *pt = &f->node[n].port[p];
			struct ot_mcast_member *v;

			if (!pt->lid || pt->peer < 0 || !pt->guid)
				continue;
			v = realloc(m->port, (m->nports + 1) * sizeof(*v));
			if (!v)
				return -1;
			m->port = v;
			v[m->nports].node = (int32_t)n;
			v[m->nports++].port = (uint8_t)p;
		}
	}
	return 0;
}

/* Every (group, port) asked; members added in port order, whatever came first. */
static int find_members(struct mc_reader *m)
{
	uint64_t *key = NULL, i;
	uint32_t g, p;

	if (collect_ports(m))
		return ot_error_nomem(m->err, "multicast read");
	m->asked = (uint64_t)m->mc->ngroups * m->nports;
	ot_progress_start(&m->progress, "multicast members asked");
	for (g = 0; g < m->mc->ngroups; g++)
		for (p = 0; p < m->nports; p++) {
			const struct ot_mcast_member *c = &m->port[p];

			if (ask_mcmr(m, m->mc->group[g].mgid,
				     &m->f->node[c->node].port[c->port], 0,
				     mc_cookie(MC_REQ_MEMBER, g, p)))
				goto fail;
		}
	if (ot_win_drain(m->win))
		goto fail;
	ot_progress_end(&m->progress);
	key = malloc((m->nhits + 1) * sizeof(*key));
	if (!key)
		return ot_error_nomem(m->err, "multicast read");
	for (i = 0; i < m->nhits; i++)
		key[i] = (uint64_t)m->hit_group[i] << 32 | m->hit_port[i];
	qsort(key, m->nhits, sizeof(*key), ot_cmp_u64);
	for (i = 0; i < m->nhits; i++) {
		const struct ot_mcast_member *c = &m->port[(uint32_t)key[i]];

		if (ot_mcast_add_member(&m->mc->group[key[i] >> 32], c->node,
					c->port)) {
			free(key);
			return ot_error_nomem(m->err, "multicast read");
		}
	}
	free(key);
	return 0;
fail:
	ot_progress_end(&m->progress);
	return -1;
}

/* MFT blocks up to the highest group MLID, every port position. */
static int read_mfts(struct mc_reader *m)
{
	const struct ot_fabric *f = m->f;
	uint32_t blocks = (m->mc->nmlids + MFT_BLOCK - 1) / MFT_BLOCK;
	uint32_t n, b, pos;
	ib_portid_t id;

	for (n = 0; n < f->nnodes; n++) {
		const struct ot_node *nd = &f->node[n];

		if (nd->type != OT_NODE_SWITCH)
			continue;
		if (!ot_drroutes_reached(&m->drr, (int32_t)n))
			return ot_error_set(m->err,
					    "switch \"%s\" is not reachable by directed route",
					    nd->desc);
		for (b = 0; b < blocks; b++)
			for (pos = 0; pos < ot_mcast_words(nd->nports); pos++) {
				ot_drroutes_portid(&m->drr, (int32_t)n, &id);
				if (ot_win_smp_get(m->win, &id,
						   IB_ATTR_MULTICASTFORWTBL,
						   pos << 28 | b,
						   mc_cookie(MC_REQ_MFT, n,
							     pos << 28 | b)))
					return -1;
			}
	}
	return ot_win_drain(m->win);
}

static void mc_reader_free(struct mc_reader *m)
{
	ot_win_free(m->win);
	ot_drroutes_free(&m->drr);
	free(m->mgid);
	free(m->sl);
	free(m->found);
	free(m->port);
	free(m->hit_group);
	free(m->hit_port);
	ot_mcast_free(m->mc);
}

int ot_live_read_mcast(const struct ot_live_opts *o, const struct ot_fabric *f,
		       struct ot_mcast **out, struct ot_error *err)
{
	struct mc_reader m = { .f = f, .err = err };
	struct ibmad_port *mad = NULL;
	int error = 1;

	*out = NULL;
	if (ot_live_sa_open(o, &mad, &m.sa, "multicast queries", err))
		goto out;
	error = -1;
	m.win = ot_win_new(mad, MCAST_WINDOW, o ? o->timeout_ms : 0, mc_done,
			   &m);
	if (!m.win) {
		ot_error_nomem(err, "multicast read");
		goto out;
	}
	if (find_groups(&m) || find_members(&m) ||
	    ot_drroutes_plan(&m.drr, f, mad, err) || read_mfts(&m)) {
		if (err && !err->msg[0])
			ot_error_set(err, "sending a multicast query failed");
		/* the SA going silent from the start is "no SA" */
		if (!m.nprobed)
			error = 1;
		goto out;
	}
	*out = m.mc;
	m.mc = NULL;
	error = 0;
out:
	mc_reader_free(&m);
	if (mad)
		mad_rpc_close_port(mad);
	return error;
}

/* The local port's GUID: NodeInfo over a 0-hop directed route. */
static int local_port_guid(struct ibmad_port *mad, uint64_t *guid,
			   struct ot_error *err)
{
	uint8_t buf[IB_SMP_DATA_SIZE] = { 0 };
	ib_portid_t self;

	memset(&self, 0, sizeof(self));
	if (!smp_query_via(buf, &self, IB_ATTR_NODE_INFO, 0, 0, mad))
		return ot_error_set(err, "SubnGet(NodeInfo) of the local port failed");
	*guid = mad_get_field64(buf, 0, IB_NODE_PORT_GUID_F);
	return 0;
}

/*
 * One Set of MCMemberRecord: with create, the fields a new group needs
 * (OpenSM checks given fields against an existing group's, so a join of
 * an existing group gives only the MGID, the PortGID and the JoinState).
 */
static bool join_set(struct ibmad_port *mad, ib_portid_t *sa,
		     const uint8_t mgid[16], uint64_t guid, bool create)
{
	uint8_t rec[IB_SA_DATA_SIZE] = { 0 }, gid[16] = { 0xfe, 0x80 };
	ib_sa_call_t call = { 0 };
	int v;

	mad_set_field64(gid, 0, IB_GID_GUID_F, guid);
	mad_encode_field(rec, IB_SA_MCM_MGID_F, (void *)mgid);
	mad_encode_field(rec, IB_SA_MCM_PORTGID_F, gid);
	v = 1; /* full member */
	mad_encode_field(rec, IB_SA_MCM_JOIN_STATE_F, &v);
	call.method = IB_MAD_METHOD_SET;
	call.attrid = IB_SA_ATTR_MCRECORD;
	call.mask = MCR_COMP_MGID | MCR_COMP_PORT_GID | MCR_COMP_JOIN_STATE;
	if (create) {
		v = 0xffff;
		mad_encode_field(rec, IB_SA_MCM_PKEY_F, &v);
		call.mask |= MCR_COMP_QKEY | MCR_COMP_TCLASS | MCR_COMP_PKEY |
			     MCR_COMP_SL | MCR_COMP_FLOW;
	}
	return sa_rpc_call(mad, rec, sa, &call, 0) != NULL;
}

int ot_live_mcast_join(const struct ot_live_opts *o, const uint8_t mgid[16],
		       struct ot_error *err)
{
	struct ibmad_port *mad = NULL;
	ib_portid_t sa;
	uint64_t guid = 0;
	int error = -1;

	if (ot_live_sa_open(o, &mad, &sa, "multicast queries", err) ||
	    local_port_guid(mad, &guid, err))
		goto out;
	sa.qp = 1;
	sa.qkey = IB_DEFAULT_QP1_QKEY;
	if (!join_set(mad, &sa, mgid, guid, false) &&
	    !join_set(mad, &sa, mgid, guid, true)) {
		ot_error_set(err, "the SA (LID %d) refused the join or did not answer",
			     sa.lid);
		goto out;
	}
	error = 0;
out:
	if (mad)
		mad_rpc_close_port(mad);
	return error;
}
