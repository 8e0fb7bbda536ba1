// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Reading a live fabric (see live.h).  This is where the tool's
 * `fabric --live` and `lfts --live` get their input, and where the checker
 * gets the tables a fabric really holds rather than the ones an engine
 * meant it to hold.  Discovery uses libibnetdisc; the tables are read with
 * libibmad over one MAD port, by directed route along paths computed from
 * the discovered cabling, so a fabric whose LFTs are broken can still be
 * read.  Under ibsim this runs through libumad2sim exactly as on hardware.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/ibnetdisc.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include "live/drroute.h"
#include "live/live.h"
#include "live/progress.h"
#include "live/window.h"
#include "model/sort.h"

/* PortInfo:CapabilityMask.IsSLMappingSupported (IBA vol. 1, 14.2.5.6). */
#define LIVE_CAP_SL_MAP (1u << 6)
/* LFT entries per LinearForwardingTable block. */
#define LIVE_LFT_BLOCK IB_SMP_DATA_SIZE
/*
 * SMPs in flight at once.  Under ibsim one at a time spends most of each
 * round trip waiting on the other process; 64 keep it busy and stay well
 * inside a kernel MAD agent's send queue.  More (256) was no faster at
 * 4K CAs and, on a loaded machine, let resent requests fill ibsim's
 * socket until both sides blocked writing to each other.
 */
#define LIVE_WINDOW 64

/* ------------------------------------------------------------------ */
/* Discovery                                                          */
/* ------------------------------------------------------------------ */

struct disc_node {
	uint64_t guid;
	ibnd_node_t *nd;
};

static int disc_node_cmp(const void *a, const void *b)
{
	const struct disc_node *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return 0;
}

static enum ot_node_type live_node_type(int ibnd_type)
{
	switch (ibnd_type) {
	case IB_NODE_SWITCH:
		return OT_NODE_SWITCH;
	case IB_NODE_ROUTER:
		return OT_NODE_ROUTER;
	default:
		/* RNICs and anything newer end traffic like a CA does. */
		return OT_NODE_CA;
	}
}

/*
 * The CA name as libibnetdisc and libibmad want it: a writable string, or
 * NULL for "the first one".
 */
static char *ca_arg(const struct ot_live_opts *o, char buf[UMAD_CA_NAME_LEN])
{
	if (!o || !o->ca || !o->ca[0])
		return NULL;
	snprintf(buf, UMAD_CA_NAME_LEN, "%s", o->ca);
	return buf;
}

static int add_disc_node(struct ot_fabric *f, const ibnd_node_t *nd,
			 struct ot_error *err)
{
	enum ot_node_type type = live_node_type(nd->type);
	int idx, p;

	if (nd->numports < 1 || nd->numports > OT_MAX_PORTS)
		return ot_error_set(err,
				    "node 0x%016" PRIx64 " (\"%s\") reports %d ports",
				    nd->guid, nd->nodedesc, nd->numports);
	idx = ot_fabric_add_node(f, type, nd->numports, nd->guid,
				 nd->nodedesc, err);
	if (idx < 0)
		return -1;
	for (p = 0; p <= nd->numports; p++) {
		const ibnd_port_t *ip = nd->ports[p];
		struct ot_port *op = &f->node[idx].port[p];

		if (!ip)
			continue;
		op->guid = ip->guid;
		/*
		 * A switch answers to the LID of its management port 0 only;
		 * a CA or router port to its own, and only a cabled one is
		 * reachable (a dead port may keep a stale LID that another
		 * port now uses).
		 */
		if (type == OT_NODE_SWITCH ? p != 0 : !ip->remoteport)
			continue;
		if (ot_fabric_set_lid(f, idx, p, ip->base_lid, ip->lmc, err))
			return -1;
	}
	return 0;
}

/* Node idx's cables; every node has been added, in GUID order. */
static int link_disc_node(struct ot_fabric *f, const ibnd_node_t *nd,
			  uint32_t idx, struct ot_error *err)
{
	int p;

	for (p = 1; p <= nd->numports; p++) {
		const ibnd_port_t *ip = nd->ports[p];
		const ibnd_port_t *rp;
		int peer;

		if (!ip || !ip->remoteport)
			continue;
		rp = ip->remoteport;
		peer = ot_fabric_find_guid(f, rp->node->guid);
		if (peer < 0)
			return ot_error_set(err,
					    "\"%s\" port %d: peer 0x%016" PRIx64 " not discovered",
					    nd->nodedesc, p, rp->node->guid);
		/* Each cable is seen from both ends; linking twice is a no-op. */
		if (ot_fabric_link(f, idx, p, peer, rp->portnum, err))
			return -1;
	}
	return 0;
}

int ot_live_discover(const struct ot_live_opts *o, struct ot_fabric **out,
		     struct ot_error *err)
{
	struct ibnd_config cfg = { 0 };
	char cabuf[UMAD_CA_NAME_LEN];
	ibnd_fabric_t *ibf = NULL;
	struct disc_node *v = NULL;
	struct ot_fabric *f = NULL;
	ibnd_node_t *nd;
	uint32_t n = 0, i;
	char *ca = ca_arg(o, cabuf);
	int port = o ? o->port : 0;
	int error = -1;

	*out = NULL;
	if (o && o->timeout_ms > 0)
		cfg.timeout_ms = o->timeout_ms;
	ibf = ibnd_discover_fabric(ca, port, NULL, &cfg);
	if (!ibf) {
		ot_error_set(err, "cannot discover the fabric through %s port %d",
			     ca ? ca : "the first CA", port);
		goto out;
	}
	for (nd = ibf->nodes; nd; nd = nd->next)
		n++;
	v = calloc(n ? n : 1, sizeof(*v));
	f = ot_fabric_new();
	if (!v || !f) {
		ot_error_nomem(err, "live");
		goto out;
	}
	i = 0;
	for (nd = ibf->nodes; nd; nd = nd->next) {
		v[i].guid = nd->guid;
		v[i].nd = nd;
		i++;
	}
	/* Discovery order depends on timing; GUID order does not. */
	qsort(v, n, sizeof(*v), disc_node_cmp);
	for (i = 0; i < n; i++)
		if (add_disc_node(f, v[i].nd, err))
			goto out;
	for (i = 0; i < n; i++)
		if (link_disc_node(f, v[i].nd, i, err))
			goto out;
	if (ot_fabric_index(f, err))
		goto out;
	*out = f;
	f = NULL;
	error = 0;
out:
	ot_fabric_free(f);
	free(v);
	ibnd_destroy_fabric(ibf);
	return error;
}

/* ------------------------------------------------------------------ */
/* Reading tables                                                     */
/* ------------------------------------------------------------------ */

struct live_reader {
	struct ibmad_port *mad;
	struct ot_win *win;
	const struct ot_fabric *f;
	struct ot_routing *r;
	struct ot_error *err;
	bool skip_sl2vl;
	struct ot_drroutes drr; /* from the local port to every node */
	uint32_t *top;     /* per switch: LinearFDBTop */
	uint8_t *flags;    /* per node: LIVE_F_* */
	uint32_t *port0;   /* per node: index of its port 0 in portcap */
	bool *portcap;     /* per (node, port): SL2VL supported */
	uint32_t *pending; /* per switch: table MADs not yet answered */
	uint32_t nswitches, switches_done;
	struct ot_progress progress;
	unsigned int max_vl;
	struct ot_vlarb_tables *vlarb; /* NULL: VLArb not read */
};

/* LIVE_F_*: what a switch's SwitchInfo and PortInfo said. */
#define LIVE_F_ENH0 1u
#define LIVE_F_SLMAP 2u

/* What a request in the window asked for: the cookie's top byte. */
enum live_req {
	LIVE_REQ_SWINFO = 1,
	LIVE_REQ_PORTINFO,
	LIVE_REQ_LFT,
	LIVE_REQ_SL2VL,
	LIVE_REQ_CA_SL2VL,
	LIVE_REQ_VLARB,
};

static uint64_t live_cookie(enum live_req kind, uint32_t node, uint32_t mod)
{
	return (uint64_t)kind << 56 | (uint64_t)(node & 0xffffff) << 32 | mod;
}

static const char *const live_req_name[] = {
	[LIVE_REQ_SWINFO] = "SwitchInfo",
	[LIVE_REQ_PORTINFO] = "PortInfo",
	[LIVE_REQ_LFT] = "LinearForwardingTable",
	[LIVE_REQ_SL2VL] = "SLtoVLMappingTable",
	[LIVE_REQ_CA_SL2VL] = "SLtoVLMappingTable",
	[LIVE_REQ_VLARB] = "VLArbitrationTable",
};

/* The LFT block's entries up to min(LinearFDBTop, the fabric's LIDs). */
static void got_lft(struct live_reader *lr, uint32_t n, uint32_t block,
		    const uint8_t *data)
{
	uint32_t top = lr->top[n], limit, i;

	/* Entries beyond the fabric's LIDs have no slot in r->lft. */
	limit = top < lr->r->max_lid ? top : lr->r->max_lid;
	for (i = 0; i < LIVE_LFT_BLOCK; i++) {
		uint32_t lid = block * LIVE_LFT_BLOCK + i;

		if (lid > limit)
			break;
		lr->r->lft[n][lid] = data[i];
	}
}

/* One SLtoVLMappingTable at (in, out): 16 4-bit VLs, SL 0 high. */
static void got_sl2vl(struct live_reader *lr, uint32_t n, unsigned int in,
		      unsigned int out, const uint8_t *data)
{
	unsigned int np = lr->f->node[n].nports, sl;
	uint8_t *tbl = lr->r->sl2vl[n];

	for (sl = 0; sl < OT_NUM_SLS; sl++) {
		uint8_t vl = sl % 2 ? data[sl / 2] & 0xf : data[sl / 2] >> 4;

		tbl[ot_sl2vl_index(np, in, out, sl)] = vl;
		/* VL 15 is management: not a data VL a route can use. */
		if (vl != 15 && vl > lr->max_vl)
			lr->max_vl = vl;
	}
}

/* Data rate of an SDR/DDR/QDR link in Mb/s (8b/10b), 0 otherwise. */
static uint32_t link_rate(uint8_t *data)
{
	static const unsigned int lanes[17] = {
		[1] = 1, [2] = 4, [4] = 8, [8] = 12, [16] = 2,
	};
	unsigned int w = mad_get_field(data, 0, IB_PORT_LINK_WIDTH_ACTIVE_F);
	unsigned int sp = mad_get_field(data, 0, IB_PORT_LINK_SPEED_ACTIVE_F);

	if (w > 16 || !lanes[w] || (sp != 1 && sp != 2 && sp != 4))
		return 0;
	return lanes[w] * sp * 2500u * 8 / 10;
}

/* The arbitration fields of PortInfo, for the VLArb tables. */
static void got_vlarb_caps(struct live_reader *lr, uint32_t n, uint32_t p,
			   uint8_t *data)
{
	struct ot_vlarb_port *vp = ot_vlarb_port(lr->vlarb, (int)n, p);

	if (!vp)
		return;
	vp->high_cap = mad_get_field(data, 0,
				     IB_PORT_VL_ARBITRATION_HIGH_CAP_F);
	vp->low_cap = mad_get_field(data, 0, IB_PORT_VL_ARBITRATION_LOW_CAP_F);
	vp->high_limit = mad_get_field(data, 0, IB_PORT_VL_HIGH_LIMIT_F);
	vp->op_vls = (uint8_t)ot_vl_code_vls(
		mad_get_field(data, 0, IB_PORT_OPER_VLS_F));
	vp->rate_mbps = link_rate(data);
}

/* One VLArbitrationTable block: 32 entries of (VL, weight). */
static void got_vlarb(struct live_reader *lr, uint32_t n, uint32_t mod,
		      const uint8_t *data)
{
	struct ot_vlarb_port *vp = ot_vlarb_port(lr->vlarb, (int)n,
						 mod & 0xff);
	unsigned int block = mod >> 16, i, first = (block - 1) % 2 * 32;
	struct ot_vlarb_entry *e;

	if (!vp)
		return;
	e = block <= 2 ? vp->low : vp->high;
	for (i = 0; i < 32; i++) {
		e[first + i].vl = data[2 * i] & 0xf;
		e[first + i].weight = data[2 * i + 1];
	}
	vp->read = true;
}

static void got_portinfo(struct live_reader *lr, uint32_t n, uint32_t p,
			 uint8_t *data)
{
	bool cap = mad_get_field(data, 0, IB_PORT_CAPMASK_F) & LIVE_CAP_SL_MAP;

	if (lr->vlarb && p)
		got_vlarb_caps(lr, n, p, data);

	lr->portcap[lr->port0[n] + p] = cap;
	if (cap && lr->f->node[n].type == OT_NODE_SWITCH)
		lr->flags[n] |= LIVE_F_SLMAP;
}

/* A switch's table MAD answered: one step closer to "switch read". */
static void switch_step(struct live_reader *lr, uint32_t n)
{
	if (lr->pending[n] && !--lr->pending[n])
		lr->switches_done++;
	ot_progress_show(&lr->progress, lr->switches_done, lr->nswitches);
}

/* The window's callback: decode an answer into the routing. */
static int live_done(void *ctx, uint64_t cookie, uint8_t *mad, int status)
{
	struct live_reader *lr = ctx;
	enum live_req kind = (enum live_req)(cookie >> 56);
	uint32_t n = (uint32_t)(cookie >> 32) & 0xffffff;
	uint32_t mod = (uint32_t)cookie;
	const struct ot_node *nd = &lr->f->node[n];
	uint8_t *data = mad ? mad + IB_SMP_DATA_OFFS : NULL;

	if (!mad || status)
		return ot_error_set(lr->err,
				    "SubnGet(%s) modifier 0x%x failed on \"%s\" (GUID 0x%016" PRIx64 "): %s 0x%x",
				    live_req_name[kind], mod, nd->desc,
				    nd->guid,
				    mad ? "MAD status" : ot_win_failure(status),
				    (unsigned int)(status > 0 ? status : 0));
	switch (kind) {
	case LIVE_REQ_SWINFO:
		lr->top[n] = mad_get_field(data, 0, IB_SW_LINEAR_FDB_TOP_F);
		if (mad_get_field(data, 0, IB_SW_ENHANCED_PORT0_F))
			lr->flags[n] |= LIVE_F_ENH0;
		break;
	case LIVE_REQ_PORTINFO:
		got_portinfo(lr, n, mod, data);
		break;
	case LIVE_REQ_LFT:
		got_lft(lr, n, mod, data);
		switch_step(lr, n);
		break;
	case LIVE_REQ_SL2VL:
		got_sl2vl(lr, n, mod >> 8, mod & 0xff, data);
		switch_step(lr, n);
		break;
	case LIVE_REQ_CA_SL2VL:
		got_sl2vl(lr, n, 0, mod, data);
		break;
	case LIVE_REQ_VLARB:
		got_vlarb(lr, n, mod, data);
		break;
	}
	return 0;
}

static int alloc_sl2vl(struct live_reader *lr, int n, struct ot_error *err)
{
	unsigned int np = lr->f->node[n].nports;

	if (lr->r->sl2vl[n])
		return 0;
	lr->r->sl2vl[n] = calloc((size_t)(np + 1) * (np + 1), OT_NUM_SLS);
	if (!lr->r->sl2vl[n])
		return ot_error_nomem(err, "live");
	return 0;
}

/*
 * The (input, output) pairs of a switch that can carry traffic: input
 * port 0 (the switch's own packets) or a cabled port, output to a cabled
 * port (or to port 0 when it is an enhanced port 0).  A port without a
 * cable carries no packet, and every pair costs a MAD: a 36-port switch
 * with 18 cables needs 342 instead of 1332.  The pairs not read stay VL 0.
 */
static bool sl2vl_pair(const struct ot_node *nd, bool enh0, unsigned int in,
		       unsigned int out)
{
	if (in && nd->port[in].peer < 0)
		return false;
	if (!out)
		return enh0;
	return nd->port[out].peer >= 0;
}

/* With VLArb: PortInfo of every cabled port of switch n. */
static int submit_switch_ports(struct live_reader *lr, uint32_t n)
{
	ib_portid_t id;
	unsigned int p;

	for (p = 1; lr->vlarb && p <= lr->f->node[n].nports; p++) {
		if (lr->f->node[n].port[p].peer < 0)
			continue;
		ot_drroutes_portid(&lr->drr, n, &id);
		if (ot_win_smp_get(lr->win, &id, IB_ATTR_PORT_INFO, p,
				   live_cookie(LIVE_REQ_PORTINFO, n, p)))
			return -1;
	}
	return 0;
}

/* The VLArb blocks of port p of node n (reached by id). */
static int submit_port_vlarb(struct live_reader *lr, uint32_t n,
			     unsigned int p, ib_portid_t *id)
{
	const struct ot_vlarb_port *vp = ot_vlarb_port(lr->vlarb, (int)n, p);
	unsigned int block, mod;
	ib_portid_t copy;

	if (!vp)
		return ot_error_nomem(lr->err, "live");
	for (block = 1; block <= 4; block++) {
		unsigned int cap = block <= 2 ? vp->low_cap : vp->high_cap;

		if (cap <= (block - 1) % 2 * 32)
			continue;
		mod = block << 16 | p;
		copy = *id;
		if (ot_win_smp_get(lr->win, &copy, IB_ATTR_VL_ARBITRATION, mod,
				   live_cookie(LIVE_REQ_VLARB, n, mod)))
			return -1;
	}
	return 0;
}

/* Phase 3 with VLArb: the tables of every cabled port. */
static int submit_vlarb(struct live_reader *lr)
{
	const struct ot_fabric *f = lr->f;
	ib_portid_t id;
	unsigned int p;
	uint32_t n;

	for (n = 0; lr->vlarb && n < f->nnodes; n++) {
		if (!ot_drroutes_reached(&lr->drr, n) && f->node[n].type == OT_NODE_SWITCH)
			continue;
		for (p = 1; p <= f->node[n].nports; p++) {
			if (f->node[n].port[p].peer < 0)
				continue;
			if (f->node[n].type == OT_NODE_SWITCH)
				ot_drroutes_portid(&lr->drr, (int)n, &id);
			else if (!ot_drroutes_portid_to_port(&lr->drr, (int)n, p, &id))
				continue;
			if (submit_port_vlarb(lr, n, p, &id))
				return -1;
		}
	}
	return 0;
}

/* Phase 1: every switch's SwitchInfo (and PortInfo of port 0). */
static int submit_switch_info(struct live_reader *lr)
{
	ib_portid_t id;
	uint32_t n;

	for (n = 0; n < lr->f->nnodes; n++) {
		if (lr->f->node[n].type != OT_NODE_SWITCH)
			continue;
		ot_drroutes_portid(&lr->drr, n, &id);
		if (ot_win_smp_get(lr->win, &id, IB_ATTR_SWITCH_INFO, 0,
				   live_cookie(LIVE_REQ_SWINFO, n, 0)))
			return -1;
		if (lr->skip_sl2vl)
			continue;
		ot_drroutes_portid(&lr->drr, n, &id);
		if (ot_win_smp_get(lr->win, &id, IB_ATTR_PORT_INFO, 0,
				   live_cookie(LIVE_REQ_PORTINFO, n, 0)) ||
		    submit_switch_ports(lr, n))
			return -1;
	}
	return ot_win_drain(lr->win);
}

/* How many table MADs switch n costs: LFT blocks and SL2VL pairs. */
static uint32_t switch_mads(const struct live_reader *lr, uint32_t n)
{
	const struct ot_node *nd = &lr->f->node[n];
	uint32_t top = lr->top[n], count, in, out;

	top = top < lr->r->max_lid ? top : lr->r->max_lid;
	count = top / LIVE_LFT_BLOCK + 1;
	if (lr->skip_sl2vl || !(lr->flags[n] & LIVE_F_SLMAP))
		return count;
	for (in = 0; in <= nd->nports; in++)
		for (out = 0; out <= nd->nports; out++)
			count += sl2vl_pair(nd, lr->flags[n] & LIVE_F_ENH0,
					    in, out);
	return count;
}

/* Phase 2: LFT blocks 0..LinearFDBTop/64 and the SL2VL pairs. */
static int submit_switch_tables(struct live_reader *lr, uint32_t n)
{
	const struct ot_node *nd = &lr->f->node[n];
	bool enh0 = lr->flags[n] & LIVE_F_ENH0;
	uint32_t blocks = lr->pending[n], block, in, out;
	ib_portid_t id;

	if (!lr->skip_sl2vl && (lr->flags[n] & LIVE_F_SLMAP)) {
		if (alloc_sl2vl(lr, n, lr->err))
			return -1;
		for (in = 0; in <= nd->nports; in++)
			for (out = 0; out <= nd->nports; out++)
				blocks -= sl2vl_pair(nd, enh0, in, out);
	}
	for (block = 0; block < blocks; block++) {
		ot_drroutes_portid(&lr->drr, n, &id);
		if (ot_win_smp_get(lr->win, &id, IB_ATTR_LINEARFORWTBL, block,
				   live_cookie(LIVE_REQ_LFT, n, block)))
			return -1;
	}
	if (!lr->r->sl2vl[n])
		return 0;
	for (in = 0; in <= nd->nports; in++)
		for (out = 0; out <= nd->nports; out++) {
			if (!sl2vl_pair(nd, enh0, in, out))
				continue;
			ot_drroutes_portid(&lr->drr, n, &id);
			if (ot_win_smp_get(lr->win, &id, IB_ATTR_SLVL_TABLE,
					   in << 8 | out,
					   live_cookie(LIVE_REQ_SL2VL, n,
						       in << 8 | out)))
				return -1;
		}
	return 0;
}

/*
 * A CA's (or router's) SL2VL table per port, stored as (in 0, out port):
 * PortInfo of every cabled port (phase 1), then the table of each port
 * with the capability (phase 3).  A port without it keeps VL 0 (the
 * table is NULL when no port of the node has it).
 */
static int submit_endports(struct live_reader *lr, bool tables)
{
	const struct ot_fabric *f = lr->f;
	ib_portid_t id;
	uint32_t n;
	unsigned int p;

	for (n = 0; n < f->nnodes; n++) {
		if (f->node[n].type == OT_NODE_SWITCH || !ot_drroutes_reached(&lr->drr, n))
			continue;
		for (p = 1; p <= f->node[n].nports; p++) {
			if (f->node[n].port[p].peer < 0 ||
			    !ot_drroutes_portid_to_port(&lr->drr, n, p, &id))
				continue;
			if (!tables) {
				if (ot_win_smp_get(lr->win, &id,
						   IB_ATTR_PORT_INFO, p,
						   live_cookie(LIVE_REQ_PORTINFO,
							       n, p)))
					return -1;
				continue;
			}
			if (!lr->portcap[lr->port0[n] + p])
				continue;
			if (alloc_sl2vl(lr, n, lr->err) ||
			    ot_win_smp_get(lr->win, &id, IB_ATTR_SLVL_TABLE, 0,
					   live_cookie(LIVE_REQ_CA_SL2VL, n, p)))
				return -1;
		}
	}
	return 0;
}

/* Every switch reachable, else an error naming the first that is not. */
static int check_reached(struct live_reader *lr)
{
	uint32_t i;

	for (i = 0; i < lr->f->nnodes; i++) {
		const struct ot_node *nd = &lr->f->node[i];

		if (nd->type == OT_NODE_SWITCH && !ot_drroutes_reached(&lr->drr, i))
			return ot_error_set(lr->err,
					    "switch \"%s\" (GUID 0x%016" PRIx64 ") is not reachable by directed route",
					    nd->desc, nd->guid);
	}
	return 0;
}

static int alloc_reader(struct live_reader *lr)
{
	const struct ot_fabric *f = lr->f;
	size_t nn = f->nnodes ? f->nnodes : 1, nports = 0;
	uint32_t i;

	lr->port0 = calloc(nn, sizeof(*lr->port0));
	if (!lr->port0)
		return -1;
	for (i = 0; i < f->nnodes; i++) {
		lr->port0[i] = (uint32_t)nports;
		nports += f->node[i].nports + 1u;
	}
	lr->r = ot_routing_new(f);
	lr->top = calloc(nn, sizeof(*lr->top));
	lr->flags = calloc(nn, sizeof(*lr->flags));
	lr->pending = calloc(nn, sizeof(*lr->pending));
	lr->portcap = calloc(nports ? nports : 1, sizeof(*lr->portcap));
	if (!lr->r || !lr->top || !lr->flags ||
	    !lr->pending || !lr->portcap)
		return -1;
	return 0;
}

static void free_reader(struct live_reader *lr)
{
	ot_win_free(lr->win);
	if (lr->mad)
		mad_rpc_close_port(lr->mad);
	if (lr->r)
		ot_routing_free(lr->r);
	ot_drroutes_free(&lr->drr);
	free(lr->top);
	free(lr->flags);
	free(lr->pending);
	free(lr->portcap);
	free(lr->port0);
}

/*
 * Reads the tables with the window: switch and port information first
 * (what to read depends on it), then every table, switch by switch.
 */
static int read_tables(struct live_reader *lr)
{
	uint32_t n;

	if (check_reached(lr))
		return -1;
	if (submit_switch_info(lr) ||
	    (!lr->skip_sl2vl && (submit_endports(lr, false) ||
				 ot_win_drain(lr->win))))
		return -1;
	for (n = 0; n < lr->f->nnodes; n++)
		if (lr->f->node[n].type == OT_NODE_SWITCH) {
			lr->pending[n] = switch_mads(lr, n);
			lr->nswitches++;
		}
	ot_progress_start(&lr->progress, "switches read");
	for (n = 0; n < lr->f->nnodes; n++)
		if (lr->f->node[n].type == OT_NODE_SWITCH &&
		    submit_switch_tables(lr, n))
			return -1;
	if (!lr->skip_sl2vl && submit_endports(lr, true))
		return -1;
	if (!lr->skip_sl2vl && submit_vlarb(lr))
		return -1;
	if (ot_win_drain(lr->win))
		return -1;
	ot_progress_end(&lr->progress);
	return 0;
}

/*
 * Path SLs come from the SA (PathRecord), not from any node.  A fabric
 * without a running SM still has tables worth checking, so a silent SA is
 * a note, not an error.
 */
static int read_path_sls(const struct ot_live_opts *o, struct live_reader *lr)
{
	struct ot_error sa_err = { 0 };
	int rc;

	lr->r->path_sl_unknown = true;
	if (o && o->skip_path_sl)
		return 0;
	/* The SA port is opened after ours is closed: one at a time. */
	ot_win_free(lr->win);
	lr->win = NULL;
	mad_rpc_close_port(lr->mad);
	lr->mad = NULL;
	rc = ot_live_read_path_sls(o, lr->r, &sa_err);
	if (rc < 0)
		return ot_refuse(lr->err, sa_err.cls, "%s", sa_err.msg);
	if (rc == 0)
		lr->r->path_sl_unknown = false;
	if (rc > 0)
		fprintf(stderr,
			"osmtopo: note: path SLs not read (%s); every path counts as SL 0\n",
			sa_err.msg);
	return 0;
}

int ot_live_read_routing(const struct ot_live_opts *o,
			 const struct ot_fabric *f, struct ot_routing **out,
			 struct ot_error *err)
{
	int classes[] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS };
	struct live_reader lr = {
		.f = f,
		.err = err,
		.skip_sl2vl = o && o->skip_sl2vl,
		.vlarb = o ? o->vlarb : NULL,
	};
	char cabuf[UMAD_CA_NAME_LEN];
	char *ca = ca_arg(o, cabuf);
	int port = o ? o->port : 0;
	int error = -1;

	*out = NULL;
	if (alloc_reader(&lr)) {
		ot_error_nomem(err, "live");
		goto out;
	}
	/* One MAD port for every query: opening one costs more than a MAD. */
	lr.mad = mad_rpc_open_port(ca, port, classes,
				   sizeof(classes) / sizeof(classes[0]));
	if (!lr.mad) {
		ot_error_set(err, "cannot open MAD port %s port %d",
			     ca ? ca : "(first CA)", port);
		goto out;
	}
	if (o && o->timeout_ms > 0)
		mad_rpc_set_timeout(lr.mad, o->timeout_ms);
	lr.win = ot_win_new(lr.mad, LIVE_WINDOW, o ? o->timeout_ms : 0,
			    live_done, &lr);
	if (!lr.win) {
		ot_error_nomem(err, "live");
		goto out;
	}
	if (ot_drroutes_plan(&lr.drr, f, lr.mad, err))
		goto out;
	if (read_tables(&lr)) {
		ot_progress_end(&lr.progress);
		if (err && !err->msg[0])
			ot_error_set(err, "sending a MAD failed");
		goto out;
	}
	lr.r->nvls = lr.max_vl + 1;
	if (read_path_sls(o, &lr))
		goto out;
	*out = lr.r;
	lr.r = NULL;
	error = 0;
out:
	free_reader(&lr);
	return error;
}
