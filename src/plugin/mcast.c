// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Multicast spanning trees for OpenSM: the engines' mcast_build_stree
 * callback.  OpenSM 3.3.23 calls it per MLID from osm_mcast_mgr.c
 * (mcast_mgr_process_mlid(), "re->mcast_build_stree(re->context,
 * mbox)") after clearing that MLID from every switch's MFT, at every
 * heavy sweep and whenever a group changes (a join, a leave), with its
 * lock held exclusively; afterwards it sends the MFT blocks that changed.
 * So the callback only sets the bits of its tree (osm_mcast_tbl_set()).
 *
 * The tree is route/mcast.h's: the same for every engine, rooted at a
 * member switch of least eccentricity, and checked for credit loops
 * against the engine's unicast channel dependencies and the trees of
 * the other MLIDs (each MLID's tree replaces its previous one).  Since every osmtopo
 * engine builds its own trees, OpenSM's default tree builder, and with it
 * OpenSM's hop matrices, are not needed (build_lid_matrices below).
 *
 * What the trees of one routing share (switch distances, the unicast
 * dependency graph) is built on the first tree after a routing and kept
 * with it in struct ot_plugin_engine; drop_routing() frees it.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "plugin/capture.h"
#include "plugin/context.h"
#include "plugin/mcast.h"
#include "route/mcast.h"

#include <opensm/osm_mcm_port.h>
#include <opensm/osm_multicast.h>
#include <opensm/osm_node.h>
#include <opensm/osm_port.h>
#include <opensm/osm_subnet.h>
#include <opensm/osm_switch.h>

/*
 * build_lid_matrices: 0, so OpenSM skips its min-hop matrices (about 10 s
 * and 570 MB of a 16K fabric's sweep).  In OpenSM 3.3.23 their readers
 * once an engine has routed are: the default multicast tree builder
 * (osm_mcast_mgr.c; not used, our mcast_build_stree replaces it),
 * osm_switch_recommend_path() for an engine without
 * ucast_build_fwd_tables (ours have it), and the debug dumps of
 * osm_dump.c (opensm-lid-matrix.dump, opensm.fdbs: with the ROUTING log
 * flag), which then print no hop counts.  SA PathRecords walk the LFTs.
 * An engine that refuses leaves the next one (minhop at the end) to
 * build its matrices itself (ucast_mgr_route() calls its own
 * build_lid_matrices).
 */
int ot_build_lid_matrices(void *context)
{
	(void)context;
	return 0;
}

/* The switches of the fabric that cannot forward multicast. */
static bool *no_mcast_switches(const struct ot_plugin_engine *ctx)
{
	const struct ot_fabric *f = ctx->fabric;
	cl_qmap_t *tbl = &ctx->osm->subn.sw_guid_tbl;
	bool *no = calloc(f->nnodes + 1, sizeof(*no));
	cl_map_item_t *item;

	if (!no)
		return NULL;
	for (item = cl_qmap_head(tbl); item != cl_qmap_end(tbl);
	     item = cl_qmap_next(item)) {
		osm_switch_t *sw = (osm_switch_t *)item;
		int n = ot_fabric_find_guid(f,
			cl_ntoh64(osm_node_get_node_guid(sw->p_node)));

		if (n >= 0 && !osm_switch_supports_mcast(sw))
			no[n] = true;
	}
	return no;
}

/*
 * The SL the loop check uses for a group's SL: with service classes the
 * routing's path SLs are class 0's, and class c's SLs and VLs are a copy
 * of class 0's on its own VLs (route/qos): a group of class c turns like
 * one of class 0 on the same layer, against class 0's unicast.
 */
static unsigned int check_sl(const struct ot_plugin_engine *ctx,
			     unsigned int sl)
{
	unsigned int c, s;

	if (!ctx->qos_on)
		return sl;
	ot_qos_sl_layer(&ctx->qos_layers, sl, &c, &s);
	return s;
}

/*
 * The members of every group of the MLID, as nodes and ports of the
 * routed fabric, and the SLs they send on.  A port the fabric does not
 * know (it came up after the last routing) is left out: the sweep it
 * starts routes it and builds the trees again.
 */
static int collect_members(const struct ot_plugin_engine *ctx,
			   osm_mgrp_box_t *mbox, struct ot_mcast_member **out,
			   uint32_t *count, uint16_t *sls, uint32_t *unknown)
{
	const struct ot_fabric *f = ctx->fabric;
	struct ot_mcast_member *m = NULL;
	uint32_t n = 0, cap = 0;
	cl_list_item_t *li;

	*sls = 0;
	*unknown = 0;
	for (li = cl_qlist_head(&mbox->mgrp_list);
	     li != cl_qlist_end(&mbox->mgrp_list); li = cl_qlist_next(li)) {
		osm_mgrp_t *g = cl_item_obj(li, g, list_item);
		cl_map_item_t *mi;
		uint8_t sl, hop;
		uint32_t flow;

		ib_member_get_sl_flow_hop(g->mcmember_rec.sl_flow_hop, &sl,
					  &flow, &hop);
		*sls |= (uint16_t)(1u << check_sl(ctx, sl & 0xf));
		for (mi = cl_qmap_head(&g->mcm_port_tbl);
		     mi != cl_qmap_end(&g->mcm_port_tbl);
		     mi = cl_qmap_next(mi)) {
			osm_mcm_port_t *mp = (osm_mcm_port_t *)mi;
			osm_port_t *port = mp->port;
			int node;

			if (!port || !port->p_node || !port->p_physp) {
				(*unknown)++;
				continue;
			}
			node = ot_fabric_find_guid(f,
				cl_ntoh64(osm_node_get_node_guid(port->p_node)));
			if (node < 0) {
				(*unknown)++;
				continue;
			}
			if (n == cap) {
				uint32_t c = cap ? 2 * cap : 64;
				struct ot_mcast_member *v =
					realloc(m, c * sizeof(*v));

				if (!v) {
					free(m);
					return -1;
				}
				m = v;
				cap = c;
			}
			m[n].node = node;
			m[n++].port = ot_is_switch(f, node) ? 0 :
				osm_physp_get_port_num(port->p_physp);
		}
	}
	*out = m;
	*count = n;
	return 0;
}

/* The tree's bits into OpenSM's MFTs (cleared for the MLID before us). */
static void set_mfts(struct ot_plugin_engine *ctx, const struct ot_mtree *t,
		     uint16_t mlid)
{
	const struct ot_fabric *f = ctx->fabric;
	osm_switch_t *sw = NULL;
	int32_t last = -1;
	uint32_t i;

	for (i = 0; i < t->nentries; i++) {
		const struct ot_mcast_member *e = &t->entry[i];

		if (e->node != last) {
			last = e->node;
			sw = osm_get_switch_by_guid(&ctx->osm->subn,
				cl_hton64(f->node[e->node].guid));
		}
		if (sw && osm_switch_supports_mcast(sw))
			osm_mcast_tbl_set(osm_switch_get_mcast_tbl_ptr(sw),
					  mlid, e->port);
	}
}

static void log_tree(struct ot_plugin_engine *ctx, uint16_t mlid,
		     const struct ot_mtree *t, uint32_t nmembers,
		     uint16_t sls, double ms, double cdg_ms)
{
	osm_log_t *log = &ctx->osm->log;
	const char *name = ctx->engine->name;
	const struct ot_fabric *f = ctx->fabric;

	if (t->root < 0) {
		OSM_LOG(log, OSM_LOG_VERBOSE,
			"%s: MLID 0x%04x: %u member port(s): no multicast tree needed\n",
			name, mlid, nmembers);
		return;
	}
	OSM_LOG(log, OSM_LOG_VERBOSE,
		"%s: MLID 0x%04x: multicast tree of %u switch(es) from \"%s\" for %u member port(s) on %u switch(es), depth %u, SLs 0x%04x, %s, %u tried, %s in %.3f ms (unicast dependencies and master tree %.3f ms)\n",
		name, mlid, t->nswitches, f->node[t->root].desc, nmembers,
		t->nmember_sw, t->depth, sls, t->shape, t->tries,
		t->loop ? "CREDIT LOOP" : "no credit loop", ms, cdg_ms);
	if (t->loop)
		OSM_LOG(log, OSM_LOG_ERROR,
			OT_ERR_MCAST ": %s: MLID 0x%04x: each of the %u tree(s) tried closes a credit loop with unicast traffic and the other groups' trees; installed the tree from \"%s\", whose loop has %" PRId64 " channels\n",
			name, mlid, t->tries, f->node[t->root].desc, t->loop);
	if (t->unreached || t->unattached)
		OSM_LOG(log, OSM_LOG_INFO,
			"%s: MLID 0x%04x: %u member switch(es) out of the tree's reach, %u member port(s) on no switch that forwards multicast\n",
			name, mlid, t->unreached, t->unattached);
}

ib_api_status_t ot_mcast_build_stree(void *context, osm_mgrp_box_t *mbox)
{
	struct ot_plugin_engine *ctx = context;
	osm_log_t *log = &ctx->osm->log;
	struct ot_mcast_member *m = NULL;
	struct ot_mtree t = { .root = -1 };
	struct ot_error err = { 0 };
	uint32_t n = 0, unknown = 0;
	uint16_t sls;
	double start = ot_now_ms(), cdg_ms = 0;
	ib_api_status_t status = IB_ERROR;

	if (!ctx->routing) {
		/* not the engine of this routing: OpenSM would not call */
		OSM_LOG(log, OSM_LOG_ERROR,
			OT_ERR_MCAST ": %s: MLID 0x%04x: no routing to build a multicast tree on\n",
			ctx->engine->name, mbox->mlid);
		return IB_ERROR;
	}
	if (collect_members(ctx, mbox, &m, &n, &sls, &unknown)) {
		ot_error_nomem(&err, "multicast members");
		goto failed;
	}
	if (!ctx->mtree) {
		bool *no = no_mcast_switches(ctx);

		if (!no)
			ot_error_nomem(&err, "multicast switches");
		if (!no || ot_mtree_net_new(ctx->routing, no, &ctx->mtree,
					    &err)) {
			free(no);
			goto failed;
		}
		free(no);
	}
	cdg_ms = ot_mtree_net_cdg_ms(ctx->mtree);
	if (ot_mtree_build(ctx->mtree, mbox->mlid, m, n, sls, &t, &err))
		goto failed;
	cdg_ms = ot_mtree_net_cdg_ms(ctx->mtree) - cdg_ms;
	set_mfts(ctx, &t, mbox->mlid);
	log_tree(ctx, mbox->mlid, &t, n, sls, ot_now_ms() - start, cdg_ms);
	if (unknown)
		OSM_LOG(log, OSM_LOG_VERBOSE,
			"%s: MLID 0x%04x: %u member port(s) not in the routed fabric, left out until the next routing\n",
			ctx->engine->name, mbox->mlid, unknown);
	status = IB_SUCCESS;
	goto out;
failed:
	/* the reason, with the code of its class */
	OSM_LOG(log, OSM_LOG_ERROR,
		"%s: %s: MLID 0x%04x: no multicast tree (%s): %s\n",
		ot_error_code(err.cls), ctx->engine->name, mbox->mlid,
		ot_error_class_name(err.cls), err.msg);
out:
	ot_mtree_free(&t);
	free(m);
	return status;
}
