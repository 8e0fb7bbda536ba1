// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The OpenSM plugin: OpenSM loads libosmtopo.so as an event plugin
 * ("event_plugin_name osmtopo"), and its create() registers every engine
 * of ot_engines[] as an external routing engine, so that "routing_engine
 * hdor,minhop" or "-R hdor" selects it.
 *
 * On each sweep OpenSM calls ucast_build_fwd_tables(): capture.c copies
 * the subnet into a fabric, the engine routes it (fabric -> recognizer ->
 * coordinates -> engine -> tables), and this file checks that OpenSM can
 * carry the result and writes the tables into OpenSM's switches.  The
 * routing is then kept until the next successful sweep, because OpenSM
 * asks for path SLs (SA PathRecords) and SL2VL tables (QoS setup) from it
 * later.  A refusal changes nothing in OpenSM and returns -1, so OpenSM
 * goes on with the next engine of routing_engine.
 *
 * OpenSM's own min-hop matrices are skipped, and the multicast trees are
 * the plugin's (mcast.c): a tree per group that adds no credit loop to
 * the engine's VLs, in place of OpenSM's default builder, the one reader
 * of those matrices.
 *
 * Logging follows OpenSM's own engines: a refusal at INFO when another
 * engine (or the minhop fallback) takes over, at ERROR when none will,
 * with a code per class of refusal (ot_error_code()), and once per reason rather
 * than at every sweep; the engine's phases and their times at VERBOSE;
 * every node's coordinates at DEBUG.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model/prng.h"
#include "plugin/capture.h"
#include "plugin/context.h"
#include "plugin/mcast.h"
#include "plugin/qos.h"
#include "plugin/slsdump.h"
#include "plugin/vls.h"

#include <opensm/osm_event_plugin.h>
#include <opensm/osm_node.h>
#include <opensm/osm_port.h>
#include <opensm/osm_subnet.h>
#include <opensm/osm_switch.h>
#include <opensm/osm_version.h>

struct ot_plugin {
	osm_opensm_t *osm;
	struct ot_sls_dump sls_dump; /* osmtopo_path_sl_dump (slsdump.c) */
	unsigned int nengines;
	struct ot_plugin_engine engine[];
};

static void drop_routing(struct ot_plugin_engine *ctx)
{
	/* The routing borrows the fabric: free it first. */
	ot_mtree_net_free(ctx->mtree);
	ctx->mtree = NULL;
	ot_plugin_qos_drop(ctx);
	ot_routing_free(ctx->routing);
	ot_fabric_free(ctx->fabric);
	ctx->routing = NULL;
	ctx->fabric = NULL;
}

/* Highest VL the routing sends out of port out of node n, over every input
 * port and SL. */
static unsigned int highest_vl_out(const struct ot_routing *r, int n,
				   unsigned int out)
{
	unsigned int in, sl, nports = r->fabric->node[n].nports, max = 0;

	if (!r->sl2vl[n])
		return 0;
	for (in = 0; in <= nports; in++)
		for (sl = 0; sl < OT_NUM_SLS; sl++)
			if (ot_routing_vl(r, n, in, out, sl) > max)
				max = ot_routing_vl(r, n, in, out, sl);
	return max;
}

/*
 * An engine that can degrade, run without a budget (no QoS classes, no
 * spreading), that uses more VLs than every link offers (hdor's further
 * escape layers, route/hdor_ft_esc.c): run again within the links' data
 * VLs rather than be refused by check_vls(); *r unchanged when that
 * fails too (check_vls() then names the link).  With QoS off OpenSM
 * programs no SL2VL tables: an engine whose 1-VL routing is still its
 * own (fits_one_vl: hdor's other dimension orders only improve on
 * damage) runs within 1 VL, and the log says what QoS would add.
 */
static void fit_link_vls(struct ot_plugin_engine *ctx,
			 const struct ot_fabric *f, struct ot_routing **r)
{
	osm_subn_t *subn = &ctx->osm->subn;
	bool qos_off = !subn->opt.qos && ctx->engine->fits_one_vl;
	struct ot_engine_budget b = {
		.max_vls = qos_off ? 1 : ot_plugin_data_vls(subn),
		.max_sls = OT_NUM_SLS,
		.why = qos_off ? "QoS off" : "the links' data VLs",
	};
	unsigned int wanted = (*r)->nvls;

	if (ot_engine_fit_vls(ctx->engine, f, &b, r) || !qos_off ||
	    wanted <= 1)
		return;
	OSM_LOG(&ctx->osm->log, OSM_LOG_INFO,
		"%s: QoS is off, so OpenSM programs no SL2VL tables: routed on 1 VL; with QoS on (-Q or \"qos TRUE\") it would use %u VLs on this fabric\n",
		ctx->engine->name, wanted);
}

/*
 * An engine that separates traffic onto VLs needs QoS on (otherwise
 * OpenSM never programs SL2VL) and, on every port, the VLs it sends out of
 * it: OpenSM silently masks a VL beyond a port's OperVLs, which would
 * merge the classes the engine kept apart.
 */
static int check_vls(const struct ot_plugin_engine *ctx,
		     const struct ot_routing *r, struct ot_error *err)
{
	osm_subn_t *subn = &ctx->osm->subn;
	cl_map_item_t *item;

	if (r->needs_qos && !subn->opt.qos)
		return ot_refuse(err, OT_ERR_CONFIG,
				    "its deadlock freedom rests on SL2VL tables, which OpenSM programs only with QoS on (-Q or \"qos TRUE\")");
	if (r->nvls <= 1)
		return 0;
	for (item = cl_qmap_head(&subn->node_guid_tbl);
	     item != cl_qmap_end(&subn->node_guid_tbl);
	     item = cl_qmap_next(item)) {
		osm_node_t *node = (osm_node_t *)item;
		unsigned int p, nports = osm_node_get_num_physp(node);
		int n = ot_fabric_find_guid(r->fabric,
				cl_ntoh64(osm_node_get_node_guid(node)));

		if (n < 0)
			continue;
		for (p = 1; p < nports && p <= r->fabric->node[n].nports;
		     p++) {
			osm_physp_t *physp = osm_node_get_physp_ptr(node, p);
			unsigned int vls, vl;

			if (!physp || !osm_physp_get_remote(physp))
				continue;
			vls = ot_plugin_link_vls(subn, physp);
			vl = highest_vl_out(r, n, p);
			if (vl >= vls)
				return ot_refuse(err, OT_ERR_CONFIG,
					"node \"%s\" port %u: the routing sends VL %u out of it, the link has %u data VL%s (VLCap of both ends, max_op_vls %u)",
					r->fabric->node[n].desc, p, vl, vls,
					vls == 1 ? "" : "s",
					subn->opt.max_op_vls);
		}
	}
	return 0;
}

/*
 * Every switch's new_lft was sized by OpenSM for the LIDs it knows
 * (osm_switch_prepare_path_rebuild(): lft_size bytes, max_lid_ho the
 * highest LID it will program); a routing for more LIDs cannot be written.
 * With install, writes LIDs 1..max_lid of every switch once that has been
 * checked for all of them (the entries above max_lid keep the OSM_NO_PATH
 * that osm_switch_prepare_path_rebuild() put there).  The osm_switch_t
 * pointers come from sw_guid_tbl and are valid only during this sweep's
 * ucast_build_fwd_tables(): they are not kept.
 */
static int switch_tables(const struct ot_plugin_engine *ctx,
			 const struct ot_routing *r, bool install,
			 struct ot_error *err)
{
	cl_qmap_t *tbl = &ctx->osm->subn.sw_guid_tbl;
	cl_map_item_t *item;

	for (item = cl_qmap_head(tbl); item != cl_qmap_end(tbl);
	     item = cl_qmap_next(item)) {
		osm_switch_t *sw = (osm_switch_t *)item;
		uint64_t guid = cl_ntoh64(osm_node_get_node_guid(sw->p_node));
		int n = ot_fabric_find_guid(r->fabric, guid);

		if (install) {
			/* OT_NO_PORT is OSM_NO_PATH and port 0 means the
			 * switch itself in both: copied as it is. */
			memcpy(sw->new_lft + 1, r->lft[n] + 1, r->max_lid);
			continue;
		}
		if (n < 0 || !r->lft[n])
			return ot_refuse(err, OT_ERR_OPENSM,
				"switch 0x%016" PRIx64 " is missing from the captured fabric",
				guid);
		if (!sw->new_lft || r->max_lid > sw->max_lid_ho ||
		    r->max_lid >= sw->lft_size)
			return ot_refuse(err, OT_ERR_OPENSM,
				"switch \"%s\": OpenSM prepared an LFT up to LID %u, the routing needs LID %u",
				r->fabric->node[n].desc, sw->max_lid_ho,
				r->max_lid);
	}
	return 0;
}

static unsigned int lids_in_use(const struct ot_fabric *f)
{
	unsigned int l, count = 0;

	for (l = 1; l <= f->max_lid; l++)
		if (f->lid_owner[l].node >= 0)
			count++;
	return count;
}

/* Engines may start their message with their own name; we say it once. */
static const char *without_prefix(const char *msg, const char *name)
{
	size_t len = strlen(name);

	if (!strncmp(msg, name, len) && msg[len] == ':' && msg[len + 1] == ' ')
		return msg + len + 2;
	return msg;
}

/*
 * Whether OpenSM tries another engine when this one refuses: one listed
 * after it in routing_engine, or the minhop fallback (unless no_fallback).
 * The same engine listed twice counts from its first entry.
 */
static bool fallback_follows(const struct ot_plugin_engine *ctx)
{
	const struct osm_routing_engine *re;

	if (!ctx->osm->no_fallback_routing_engine)
		return true;
	for (re = ctx->osm->routing_engine_list; re; re = re->next)
		if (re->context == ctx)
			return re->next != NULL;
	return false;
}

/*
 * A refusal: at INFO when another engine takes over (OpenSM then logs its
 * own error line), at ERROR when none will; the same reason as last sweep
 * only at DEBUG.
 */
static void log_refusal(struct ot_plugin_engine *ctx,
			const struct ot_error *err)
{
	osm_log_t *log = &ctx->osm->log;
	const char *name = ctx->engine->name;
	const char *why = without_prefix(err->msg, name);
	osm_log_level_t level = fallback_follows(ctx) ? OSM_LOG_INFO :
						       OSM_LOG_ERROR;

	if (!ot_plugin_new_message(ctx->last_refusal,
				   sizeof(ctx->last_refusal), why))
		level = OSM_LOG_DEBUG;
	OSM_LOG(log, level, "%s: %s: cannot route this fabric (%s): %s\n",
		ot_error_code(err->cls), name, ot_error_class_name(err->cls), why);
}

/*
 * After a new topology refusal, the cables to move if a few explain it,
 * at INFO, one line each (the engine's family must have a report).
 */
static void log_miscabling(const struct ot_plugin_engine *ctx,
			   const struct ot_fabric *f)
{
	osm_log_t *log = &ctx->osm->log;
	const char *name = ctx->engine->name;
	struct ot_miscabling m = { 0 };
	struct ot_error err = { 0 };
	char line[1024];
	unsigned int i;

	if (!ctx->engine->miscabling || ctx->engine->miscabling(f, &m, &err))
		return;
	if (m.n)
		OSM_LOG(log, OSM_LOG_INFO,
			"%s: mis-cabling: %u cable(s) to move for the fabric to be the engine's topology:\n",
			name, m.n);
	for (i = 0; i < m.n; i++) {
		ot_miscable_format(f, &m.cable[i], line, sizeof(line));
		OSM_LOG(log, OSM_LOG_INFO, "%s: mis-cabling: %s\n", name,
			line);
	}
	ot_miscabling_free(&m);
}

/* The switch-to-switch cables of f, whatever their order, as one number. */
static uint64_t cabling_digest(const struct ot_fabric *f)
{
	uint64_t d = 0;
	uint32_t i;
	unsigned int p;

	for (i = 0; i < f->nnodes; i++)
		for (p = 1; p <= f->node[i].nports; p++) {
			int32_t q = ot_switch_peer(f, i, p);

			if (q >= 0)
				d += ot_mix64(ot_mix64(f->node[i].guid ^ p) ^
					      ot_mix64(f->node[q].guid) ^
					      f->node[i].port[p].peer_port);
		}
	return d | 1;
}

/*
 * A fabric the engine routes may still be mis-cabled (a cable moved onto
 * a pair of neighbours, topo/miscable.h): checked when the cabling
 * changed, logged when cables are to move.
 */
static void check_cabling(struct ot_plugin_engine *ctx,
			  const struct ot_fabric *f)
{
	uint64_t d;

	if (!ctx->engine->miscabling)
		return;
	d = cabling_digest(f);
	if (d == ctx->cabling_digest)
		return;
	ctx->cabling_digest = d;
	log_miscabling(ctx, f);
}

/* The phases and their times, at VERBOSE; the coordinates at DEBUG. */
static void log_routing(const struct ot_plugin_engine *ctx, double capture_ms,
			double install_ms)
{
	const struct ot_routing *r = ctx->routing;
	const struct ot_fabric *f = ctx->fabric;
	osm_log_t *log = &ctx->osm->log;
	char buf[256];
	size_t used;
	unsigned int i;
	uint32_t n;

	if (osm_log_is_active(log, OSM_LOG_VERBOSE)) {
		used = snprintf(buf, sizeof(buf), "capture %.3f ms", capture_ms);
		for (i = 0; i < r->nphases && used < sizeof(buf); i++)
			used += snprintf(buf + used, sizeof(buf) - used,
					 ", %s %.3f ms", r->phase[i].name,
					 r->phase[i].ms);
		OSM_LOG(log, OSM_LOG_VERBOSE, "%s: %s, install %.3f ms\n",
			ctx->engine->name, buf, install_ms);
	}
	if (!osm_log_is_active(log, OSM_LOG_DEBUG))
		return;
	for (n = 0; n < f->nnodes; n++)
		if (r->label[n])
			OSM_LOG(log, OSM_LOG_DEBUG,
				"%s: %s 0x%016" PRIx64 " \"%s\": %s\n",
				ctx->engine->name,
				ot_node_type_str(f->node[n].type),
				f->node[n].guid, f->node[n].desc, r->label[n]);
}

/*
 * The sweep: capture, route, check, then write the tables and keep the
 * new routing.  Nothing in OpenSM changes before every check has passed,
 * so a refusal leaves OpenSM's new_lft as the next engine expects it.
 */
static int ot_build_fwd_tables(void *context)
{
	struct ot_plugin_engine *ctx = context;
	osm_log_t *log = &ctx->osm->log;
	const char *name = ctx->engine->name;
	struct ot_routing *r = NULL;
	struct ot_fabric *f = NULL;
	struct ot_error err = { 0 };
	struct ot_qos_layers layers;
	struct ot_engine_budget budget, spread_budget;
	struct ot_error spread_err = { 0 };
	char why[64], spread_why[64];
	double start, capture_ms, ms;
	unsigned int groups;
	bool qos_on;
	int error = -1;

	start = ot_now_ms();
	if (ot_capture_subnet(&ctx->osm->subn, &f, &err) ||
	    ot_fabric_index(f, &err)) {
		/* what OpenSM holds does not make a fabric (out of memory
		 * stays itself) */
		if (err.cls == OT_ERR_GENERIC)
			err.cls = OT_ERR_OPENSM;
		goto refused;
	}
	capture_ms = ot_now_ms() - start;
	/* room for the spread groups asked for first, if the engine can */
	if (!ot_plugin_spread_budget(ctx, &spread_budget, spread_why,
				     sizeof(spread_why)) ||
	    !ctx->engine->route_budget ||
	    ot_engine_run_budget(ctx->engine, f, &spread_budget, &r,
				 &spread_err)) {
		const struct ot_engine_budget *qb =
			ot_plugin_qos_budget(ctx, &budget, why, sizeof(why));

		if (ot_engine_run_budget(ctx->engine, f, qb, &r, &err))
			goto refused;
		if (!qb)
			fit_link_vls(ctx, f, &r);
	}
	if (ot_plugin_spread_apply(ctx, r, &groups, &err) ||
	    ot_plugin_qos_apply(ctx, r, groups, &layers, &qos_on, &err) ||
	    check_vls(ctx, r, &err) || switch_tables(ctx, r, false, &err))
		goto refused;
	ms = ot_now_ms();
	switch_tables(ctx, r, true, NULL);

	/*
	 * Freeing the old routing is safe here: OpenSM holds its lock
	 * exclusively while it calls us, so no path_sl() is running (see
	 * struct ot_plugin_engine).
	 */
	drop_routing(ctx);
	ctx->fabric = f;
	ctx->routing = r;
	ctx->qos_on = qos_on;
	ctx->qos_layers = layers;
	f = NULL;
	r = NULL;
	ctx->last_refusal[0] = '\0';
	check_cabling(ctx, ctx->fabric);
	log_routing(ctx, capture_ms, ot_now_ms() - ms);
	OSM_LOG(log, OSM_LOG_INFO,
		"%s: routed %u switches, %u LIDs (%u CAs, %u VL%s%s) in %.3f ms\n",
		name, ctx->fabric->nswitches, lids_in_use(ctx->fabric),
		ctx->fabric->ncas, ctx->routing->nvls,
		ctx->routing->nvls == 1 ? "" : "s",
		ctx->routing->needs_qos ? ", SL2VL" : "", ot_now_ms() - start);
	error = 0;
	goto out;
refused:
	if (err.cls == OT_ERR_TOPOLOGY && f &&
	    strcmp(ctx->last_refusal, without_prefix(err.msg, name))) {
		log_miscabling(ctx, f);
		ctx->cabling_digest = 0;
	}
	log_refusal(ctx, &err);
	/*
	 * Another engine routes this sweep: what we kept from an earlier
	 * one describes a fabric that is gone.
	 */
	drop_routing(ctx);
	ctx->qos_on = false;
out:
	ot_routing_free(r);
	ot_fabric_free(f);
	return error;
}

/*
 * SA PathRecords and the SMSL of each port.  LIDs the last routing does
 * not know (a port that came up since, a stale query) get OpenSM's hint,
 * as do all pairs when the engine does not choose SLs.
 */
static uint8_t ot_path_sl(void *context, uint8_t path_sl_hint,
			  const ib_net16_t slid, const ib_net16_t dlid)
{
	const struct ot_plugin_engine *ctx = context;
	const struct ot_routing *r = ctx->routing;
	uint16_t s = cl_ntoh16(slid), d = cl_ntoh16(dlid);

	if (!r || ot_fabric_lid_node(r->fabric, s) < 0 ||
	    ot_fabric_lid_node(r->fabric, d) < 0)
		return path_sl_hint;
	if (ctx->qos_on)
		return ot_plugin_qos_path_sl(ctx, path_sl_hint, s, d);
	if (!r->path_sl)
		return path_sl_hint;
	return ot_routing_path_sl(r, s, d) & 0xf;
}

/*
 * SL2VL of one port (a CA port) or one (input, output) pair of a switch;
 * port is the output port.  The routing stores a CA's table at input port
 * 0.  A node without a table of its own keeps OpenSM's (QoS policy)
 * table, unless the engine's deadlock freedom rests on SL2VL: there a
 * missing table means "all SLs on VL 0", as in the model.
 */
static void ot_update_sl2vl(void *context, osm_physp_t *port,
			    uint8_t in_port_num, uint8_t out_port_num,
			    ib_slvl_table_t *t)
{
	const struct ot_plugin_engine *ctx = context;
	const struct ot_routing *r = ctx->routing;
	const struct ot_node *node;
	unsigned int in, out, sl;
	int n;

	if (!r || !port || !port->p_node)
		return;
	n = ot_fabric_find_guid(r->fabric,
			cl_ntoh64(osm_node_get_node_guid(port->p_node)));
	if (n < 0)
		return;
	node = &r->fabric->node[n];
	if (node->type == OT_NODE_SWITCH) {
		in = in_port_num;
		out = out_port_num;
	} else {
		in = 0;
		out = osm_physp_get_port_num(port);
	}
	if (in > node->nports || out > node->nports)
		return;
	if (!r->sl2vl[n] && !r->needs_qos)
		return;
	for (sl = 0; sl < OT_NUM_SLS; sl++)
		ib_slvl_table_set(t, sl, ot_routing_vl(r, n, in, out, sl) & 0xf);
}

static void ot_destroy(void *context)
{
	/*
	 * The context itself belongs to the plugin (freed by its delete()),
	 * and OpenSM calls destroy once per routing_engine entry, so the same
	 * engine listed twice comes here twice: only drop what we hold.
	 */
	drop_routing(context);
}

static int ot_setup(osm_routing_engine_t *re, osm_opensm_t *osm)
{
	struct ot_plugin_engine *ctx = re->context;

	if (!ctx || ctx->osm != osm)
		return -1;
	re->build_lid_matrices = ot_build_lid_matrices;
	re->ucast_build_fwd_tables = ot_build_fwd_tables;
	re->mcast_build_stree = ot_mcast_build_stree;
	re->path_sl = ot_path_sl;
	re->update_sl2vl = ot_update_sl2vl;
	/*
	 * VLArb: OpenSM's tables (qos_*_vlarb_*) unless a class table is
	 * in use (qos.c).
	 */
	re->update_vlarb = ot_update_vlarb;
	re->destroy = ot_destroy;
	return 0;
}

static void *ot_plugin_create(osm_opensm_t *osm)
{
	struct ot_plugin *p;
	unsigned int i, n = 0;

	while (ot_engines[n])
		n++;
	p = calloc(1, sizeof(*p) + n * sizeof(p->engine[0]));
	if (!p) {
		OSM_LOG(&osm->log, OSM_LOG_ERROR,
			OT_ERR_REGISTER ": osmtopo: out of memory\n");
		return NULL;
	}
	p->osm = osm;
	p->nengines = n;
	/*
	 * From the first registration on, create() must not fail: OpenSM
	 * would dlclose() us while its engine list still points at ot_setup.
	 * An engine whose name is taken is left out, with a message.
	 */
	for (i = 0; i < n; i++) {
		external_routing_engine_module_t module = {
			.name = ot_engines[i]->name,
			.setup = ot_setup,
			.context = &p->engine[i],
		};
		cl_status_t status;

		p->engine[i].engine = ot_engines[i];
		p->engine[i].osm = osm;
		status = osm_register_external_routing_engine(osm, &module,
							      &p->engine[i]);
		if (status != CL_SUCCESS)
			OSM_LOG(&osm->log, OSM_LOG_ERROR,
				OT_ERR_REGISTER ": osmtopo: cannot register routing engine \"%s\" (%s)\n",
				ot_engines[i]->name, CL_STATUS_MSG(status));
		else
			OSM_LOG(&osm->log, OSM_LOG_VERBOSE,
				"osmtopo: routing engine \"%s\" registered\n",
				ot_engines[i]->name);
	}
	return p;
}

static void ot_plugin_delete(void *plugin_data)
{
	struct ot_plugin *p = plugin_data;
	unsigned int i;

	if (!p)
		return;
	for (i = 0; i < p->nengines; i++)
		drop_routing(&p->engine[i]);
	free(p);
}

/*
 * Events are of no use to routing (every sweep captures afresh); after
 * a unicast routing, whichever engine made it, the path SLs may be
 * dumped (slsdump.c).
 */
static void ot_plugin_report(void *plugin_data, osm_epi_event_id_t event_id,
			     void *event_data)
{
	struct ot_plugin *p = plugin_data;

	(void)event_data;
	if (p && event_id == OSM_EVENT_ID_UCAST_ROUTING_DONE)
		ot_plugin_path_sl_dump(p->osm, &p->sls_dump);
}

osm_event_plugin_t osm_event_plugin = {
	.osm_version = OSM_VERSION,
	.create = ot_plugin_create,
	.delete = ot_plugin_delete,
	.report = ot_plugin_report,
};
