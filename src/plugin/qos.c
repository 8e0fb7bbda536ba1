// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Service classes in the plugin: OpenSM's QoS policy picks an SL per
 * pair (its qos-levels), and the osmtopo class table named by
 * "event_plugin_options osmtopo_qos=FILE" says what each of those SLs is
 * worth (route/qos).  After the engine routed, the routing is layered so
 * that each class has its own copy of the engine's SLs and VLs; path_sl
 * moves the engine's SL into the block of the class the policy chose;
 * update_vlarb writes each port's low-priority table by the DTable
 * methodology and empties the high one.  A bad class table is an ERROR
 * naming its line, and OpenSM routes on without classes.
 */
#include <stdlib.h>
#include <string.h>

#include "plugin/capture.h"
#include "plugin/context.h"
#include "plugin/qos.h"
#include "plugin/vls.h"
#include "route/spread.h"

#include <opensm/osm_port.h>
#include <opensm/osm_qos_policy.h>
#include <opensm/osm_subnet.h>

#define OPTION "osmtopo_qos="
#define SPREAD_OPTION "osmtopo_spread="
/* Beyond this many CA pairs, flows are not counted: generic tables. */
#define FLOW_PAIRS_MAX 1000000ull

bool ot_plugin_option(const osm_subn_t *subn, const char *name, char *path,
		      size_t size)
{
	const char *opt = subn->opt.event_plugin_options, *p;
	size_t len;

	if (!opt)
		return false;
	p = strstr(opt, name);
	if (!p || (p != opt && p[-1] != ' ' && p[-1] != ','))
		return false;
	p += strlen(name);
	len = strcspn(p, " ,\t");
	if (!len || len >= size)
		return false;
	memcpy(path, p, len);
	path[len] = '\0';
	return true;
}

/* FILE of "... osmtopo_qos=FILE ..." into path; false when absent. */
static bool class_file(const osm_subn_t *subn, char *path, size_t size)
{
	return ot_plugin_option(subn, OPTION, path, size);
}

static void log_table_error(struct ot_plugin_engine *ctx,
			    const struct ot_error *why)
{
	const char *msg = why->msg;
	osm_log_t *log = &ctx->osm->log;

	if (!strcmp(ctx->last_qos_error, msg)) {
		OSM_LOG(log, OSM_LOG_DEBUG, "%s: %s\n", ctx->engine->name,
			msg);
		return;
	}
	snprintf(ctx->last_qos_error, sizeof(ctx->last_qos_error), "%s", msg);
	OSM_LOG(log, OSM_LOG_ERROR,
		"%s: %s: QoS class table: %s; routing without service classes\n",
		ot_error_code(why->cls), ctx->engine->name, msg);
}

const struct ot_engine_budget *
ot_plugin_qos_budget(struct ot_plugin_engine *ctx, struct ot_engine_budget *b,
		     char *why, size_t len)
{
	osm_subn_t *subn = &ctx->osm->subn;
	struct ot_error ignored = { 0 };
	struct ot_qos_table t;
	char path[4096];

	/* a bad table is reported by ot_plugin_qos_apply() */
	if (!class_file(subn, path, sizeof(path)) || !subn->opt.qos ||
	    ot_qos_load(path, &t, &ignored) || !t.nclasses)
		return NULL;
	snprintf(why, len, "%u QoS classes", t.nclasses);
	b->max_vls = ot_plugin_data_vls(subn) / t.nclasses;
	b->max_sls = 15 / t.nclasses;
	b->why = why;
	return b;
}

/* Logged once per text (then at DEBUG), as the refusals. */
static void log_spread(struct ot_plugin_engine *ctx, osm_log_level_t level,
		       const char *msg)
{
	if (!strcmp(ctx->last_spread, msg))
		level = OSM_LOG_DEBUG;
	snprintf(ctx->last_spread, sizeof(ctx->last_spread), "%s", msg);
	OSM_LOG(&ctx->osm->log, level, "%s%s%s: %s\n",
		level == OSM_LOG_ERROR ? ot_error_code(OT_ERR_CONFIG) : "",
		level == OSM_LOG_ERROR ? ": " : "",
		ctx->engine->name, msg);
}

/* The classes of the class table named, if it reads; 0 otherwise. */
static unsigned int table_classes(const osm_subn_t *subn)
{
	struct ot_error ignored = { 0 };
	struct ot_qos_table t;
	char path[4096];

	if (class_file(subn, path, sizeof(path)) &&
	    !ot_qos_load(path, &t, &ignored))
		return t.nclasses;
	return 0;
}

bool ot_plugin_spread_budget(struct ot_plugin_engine *ctx,
			     struct ot_engine_budget *b, char *why,
			     size_t len)
{
	osm_subn_t *subn = &ctx->osm->subn;
	struct ot_error ignored = { 0 };
	struct ot_spread_opts o;
	char val[64];

	if (!subn->opt.qos ||
	    !ot_plugin_option(subn, SPREAD_OPTION, val, sizeof(val)) ||
	    ot_spread_parse(val, &o, &ignored))
		return false;
	return ot_spread_budget(&o, ot_plugin_data_vls(subn), table_classes(subn),
				b, why, len);
}

int ot_plugin_spread_apply(struct ot_plugin_engine *ctx, struct ot_routing *r,
			   unsigned int *groups, struct ot_error *err)
{
	osm_subn_t *subn = &ctx->osm->subn;
	struct ot_error why = { 0 };
	struct ot_spread_opts o;
	unsigned int classes = table_classes(subn), vls = ot_plugin_data_vls(subn);
	char val[64], note[256], msg[OT_ERROR_LEN];

	*groups = 1;
	if (!ot_plugin_option(subn, SPREAD_OPTION, val, sizeof(val)))
		return 0;
	if (ot_spread_parse(val, &o, &why)) {
		log_spread(ctx, OSM_LOG_ERROR, why.msg);
		return 0;
	}
	if (o.groups == OT_SPREAD_OFF)
		return 0;
	if (!subn->opt.qos) {
		log_spread(ctx, OSM_LOG_ERROR,
			   "osmtopo_spread needs QoS on (-Q or \"qos TRUE\"): OpenSM programs SL2VL only then; not spreading");
		return 0;
	}
	if (ot_spread_apply(r, &o, vls, classes, groups, note, sizeof(note),
			    err))
		return -1;
	snprintf(msg, sizeof(msg),
		 "%s%sdestinations spread over %u group%s by %s: %u VLs a class (%u data VLs, %u QoS class%s)",
		 note, note[0] ? "; " : "", *groups, *groups == 1 ? "" : "s",
		 ot_spread_rule_name(o.rule), r->nvls, vls, classes,
		 classes == 1 ? "" : "es");
	log_spread(ctx, OSM_LOG_INFO, msg);
	return 0;
}

/*
 * Spread groups without a class table: one class of every SL, so that
 * update_vlarb serves every group's VLs (equally) and every VL a port
 * can emit.
 */
static const char spread_class[] = "class spread sl 0 share 100% distance 1\n";

int ot_plugin_qos_apply(struct ot_plugin_engine *ctx, struct ot_routing *r,
			unsigned int groups, struct ot_qos_layers *layers,
			bool *on, struct ot_error *err)
{
	osm_subn_t *subn = &ctx->osm->subn;
	struct ot_error why = { 0 };
	char path[4096];
	bool table;

	*on = false;
	table = class_file(subn, path, sizeof(path));
	if (table && !subn->opt.qos) {
		struct ot_error off = { "QoS is off (-Q or \"qos TRUE\")",
					OT_ERR_CONFIG };

		log_table_error(ctx, &off);
		return 0;
	}
	if (table && ot_qos_load(path, &ctx->qos, &why)) {
		/* a table that does not parse is a configuration error */
		if (why.cls == OT_ERR_GENERIC)
			why.cls = OT_ERR_CONFIG;
		log_table_error(ctx, &why);
		table = false;
	}
	if (!table && groups <= 1)
		return 0;
	if (!table && ot_qos_parse(spread_class, "spread", &ctx->qos, err))
		return -1;
	if (ot_qos_layer(r, &ctx->qos, ot_plugin_data_vls(subn), layers, err))
		return -1;
	if (table)
		ctx->last_qos_error[0] = '\0';
	*on = true;
	if (table)
		OSM_LOG(&ctx->osm->log, OSM_LOG_INFO,
			"%s: %u QoS classes from %s: %u SLs and %u VLs each\n",
			ctx->engine->name, layers->classes, path, layers->sls,
			layers->vls);
	return 0;
}

uint8_t ot_plugin_qos_path_sl(const struct ot_plugin_engine *ctx,
			      uint8_t hint, uint16_t slid, uint16_t dlid)
{
	return ot_qos_path_sl(&ctx->qos_layers, ctx->routing, hint, slid,
			      dlid) & 0xf;
}

/*
 * The class OpenSM's QoS policy gives a pair, as the SA does for a
 * PathRecord that names no service, QoS class or P_Key: the qos-level
 * matched by source and destination port, else the default one, else SL
 * 0; a policy SL that is no class's is class 0's (ot_qos_path_sl()).
 */
static int policy_class(void *arg, int src, unsigned int sport,
			uint16_t dlid)
{
	const struct ot_plugin_engine *ctx = arg;
	osm_subn_t *subn = &ctx->osm->subn;
	uint16_t slid = ctx->fabric->node[src].port[sport].lid;
	osm_port_t *sp = osm_get_port_by_lid_ho(subn, slid);
	osm_port_t *dp = osm_get_port_by_lid_ho(subn, dlid);
	osm_qos_level_t *lvl = NULL;
	ib_path_rec_t pr;
	int c;

	memset(&pr, 0, sizeof(pr));
	if (subn->p_qos_policy && sp && dp)
		lvl = osm_qos_policy_get_qos_level_by_pr(subn->p_qos_policy, &pr,
							 sp->p_physp,
							 dp->p_physp, 0);
	c = ot_qos_class_of_sl(&ctx->qos,
			       lvl && lvl->sl_set ? lvl->sl : 0);
	return c < 0 ? 0 : c;
}

void ot_plugin_qos_drop(struct ot_plugin_engine *ctx)
{
	ot_qos_flows_free(&ctx->qos_flows);
	ctx->qos_flows_none = false;
}

/* The flows of port p of node n; NULL when not counted (generic table). */
static const uint32_t *port_flows(struct ot_plugin_engine *ctx, int n,
				  unsigned int p)
{
	const struct ot_fabric *f = ctx->fabric;
	struct ot_error err = { 0 };

	if (n < 0 || p > f->node[n].nports)
		return NULL;
	if (!ctx->qos_flows.count && !ctx->qos_flows_none) {
		ctx->qos_flows_none = (uint64_t)f->ncas * f->ncas >
				      FLOW_PAIRS_MAX;
		if (!ctx->qos_flows_none &&
		    ot_qos_flows_count(ctx->routing, &ctx->qos,
				       &ctx->qos_layers, policy_class, ctx,
				       &ctx->qos_flows, &err)) {
			log_table_error(ctx, &err);
			ctx->qos_flows_none = true;
		}
	}
	if (ctx->qos_flows_none)
		return NULL;
	return ot_qos_port_flows(&ctx->qos_flows, n, p);
}

/*
 * Blocks 0 and 1 are the low-priority table (32 entries each), 2 and 3
 * the high one.  The DTable entries go to the low table, sized by the
 * port's VLArbLowCap; the high table is emptied (weight 0), so the high
 * limit does not matter (doc/qos.md).  A table the port cannot hold
 * leaves OpenSM's block as it was, with an ERROR.
 */
void ot_update_vlarb(void *context, osm_physp_t *port, uint8_t port_num,
		     ib_vl_arb_table_t *block, unsigned int block_length,
		     unsigned int block_num)
{
	struct ot_plugin_engine *ctx = context;
	struct ot_qos_entry e[OT_QOS_MAX_ENTRIES];
	struct ot_error err = { 0 };
	unsigned int i, n, first = block_num * IB_NUM_VL_ARB_ELEMENTS_IN_BLOCK;
	uint16_t emit = 0;
	int node;

	/* OpenSM passes 0 for a CA's port: the physical port says which */
	(void)port_num;
	if (!ctx->routing || !ctx->qos_on || !port)
		return;
	if (block_num >= 2) {
		for (i = 0; i < block_length; i++)
			block->vl_entry[i].weight = 0;
		return;
	}
	node = ot_fabric_find_guid(ctx->fabric,
				    cl_ntoh64(osm_node_get_node_guid(port->p_node)));
	/* every VL an SL can take out of this port gets an entry */
	if (node >= 0 &&
	    osm_physp_get_port_num(port) <= ctx->fabric->node[node].nports)
		emit = ot_qos_port_emit(ctx->routing, node,
					osm_physp_get_port_num(port), 0x7fff);
	if (ot_qos_port_vlarb_emit(&ctx->qos, &ctx->qos_layers,
				   port->port_info.vl_arb_low_cap,
				   port_flows(ctx, node,
					      osm_physp_get_port_num(port)),
				   emit, e, &n, &err)) {
		log_table_error(ctx, &err);
		return;
	}
	for (i = 0; i < block_length; i++) {
		block->vl_entry[i].vl = 0;
		block->vl_entry[i].weight = 0;
		if (first + i >= n)
			continue;
		block->vl_entry[i].vl = (uint8_t)e[first + i].who;
		block->vl_entry[i].weight = (uint8_t)e[first + i].weight;
	}
}
