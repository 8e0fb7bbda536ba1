// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Capture: OpenSM's view of the subnet -> struct ot_fabric.  This is the
 * plugin's end of the first step of the flow (fabric -> recognizer ->
 * coordinates -> engine -> tables -> checker): it runs at the start of
 * every routing sweep, inside OpenSM, and hands the engines a fabric that
 * holds no pointer into OpenSM.
 *
 * Nodes are sorted by node GUID, so that two sweeps of the same fabric
 * give the same node indices whatever order OpenSM discovered it in; the
 * engines only break ties by GUID and node order, and identical input
 * must give identical tables.
 */
#include <stdlib.h>

#include "plugin/capture.h"

#include <opensm/osm_node.h>
#include <opensm/osm_port.h>
#include <opensm/osm_subnet.h>

static int cmp_node_guid(const void *a, const void *b)
{
	uint64_t ga = cl_ntoh64(osm_node_get_node_guid(*(osm_node_t *const *)a));
	uint64_t gb = cl_ntoh64(osm_node_get_node_guid(*(osm_node_t *const *)b));

	return ga < gb ? -1 : ga > gb;
}

static int node_type(const osm_node_t *node, enum ot_node_type *type)
{
	switch (osm_node_get_type(node)) {
	case IB_NODE_TYPE_CA:
		*type = OT_NODE_CA;
		return 0;
	case IB_NODE_TYPE_SWITCH:
		*type = OT_NODE_SWITCH;
		return 0;
	case IB_NODE_TYPE_ROUTER:
		*type = OT_NODE_ROUTER;
		return 0;
	}
	return -1;
}

/*
 * Adds the nodes, in GUID order, with their port GUIDs.  sorted[] holds
 * OpenSM's node pointers; they are valid only while OpenSM's lock is held
 * (a later sweep may free the nodes), so they never leave this file.
 */
static int capture_nodes(struct ot_fabric *f, osm_node_t **sorted,
			 uint32_t count, struct ot_error *err)
{
	uint32_t i;

	for (i = 0; i < count; i++) {
		osm_node_t *node = sorted[i];
		unsigned int nports = osm_node_get_num_physp(node) - 1;
		const char *desc = node->print_desc ? node->print_desc : "";
		enum ot_node_type type;
		unsigned int p;
		int n;

		if (node_type(node, &type))
			return ot_error_set(err, "node \"%s\" (GUID 0x%016" PRIx64
					    "): unknown node type %u", desc,
					    cl_ntoh64(osm_node_get_node_guid(node)),
					    osm_node_get_type(node));
		n = ot_fabric_add_node(f, type, nports,
				       cl_ntoh64(osm_node_get_node_guid(node)),
				       desc, err);
		if (n < 0)
			return -1;
		for (p = 0; p <= nports; p++) {
			osm_physp_t *physp = osm_node_get_physp_ptr(node, p);

			if (physp)
				f->node[n].port[p].guid =
					cl_ntoh64(osm_physp_get_port_guid(physp));
		}
	}
	return 0;
}

/*
 * Cables, from both ends: ot_fabric_link() accepts a cable seen twice and
 * refuses one whose two ends disagree, which OpenSM could only show in a
 * broken discovery.
 */
static int capture_links(struct ot_fabric *f, osm_node_t **sorted,
			 uint32_t count, struct ot_error *err)
{
	uint32_t i;

	for (i = 0; i < count; i++) {
		osm_node_t *node = sorted[i];
		unsigned int nports = f->node[i].nports;
		unsigned int p;

		for (p = 1; p <= nports; p++) {
			osm_physp_t *physp = osm_node_get_physp_ptr(node, p);
			osm_physp_t *remote;
			unsigned int rport;
			int peer;

			if (!physp)
				continue;
			remote = osm_physp_get_remote(physp);
			if (!remote || !osm_physp_is_valid(remote) ||
			    remote == physp)
				continue;
			peer = ot_fabric_find_guid(f,
				cl_ntoh64(osm_node_get_node_guid(remote->p_node)));
			rport = osm_physp_get_port_num(remote);
			if (peer < 0 || rport < 1 ||
			    rport > f->node[peer].nports)
				continue;
			if (ot_fabric_link(f, (int)i, p, peer, rport, err))
				return -1;
		}
	}
	return 0;
}

/*
 * LIDs come from OpenSM's ports (osm_port_t, one per port that has a LID:
 * every CA port and each switch's port 0), which are what OpenSM routes
 * to.  Each port keeps its own LMC: a switch's port 0 has LMC 0 unless
 * lmc_esp0 is set.
 */
static int capture_lids(struct ot_fabric *f, osm_subn_t *subn,
			struct ot_error *err)
{
	cl_map_item_t *item;

	for (item = cl_qmap_head(&subn->port_guid_tbl);
	     item != cl_qmap_end(&subn->port_guid_tbl);
	     item = cl_qmap_next(item)) {
		osm_port_t *port = (osm_port_t *)item;
		uint16_t lid;
		int n;

		if (!port->p_physp || !osm_physp_is_valid(port->p_physp) ||
		    !port->p_node)
			continue;
		lid = cl_ntoh16(osm_port_get_base_lid(port));
		if (!lid)
			continue;
		n = ot_fabric_find_guid(f,
			cl_ntoh64(osm_node_get_node_guid(port->p_node)));
		if (n < 0)
			return ot_error_set(err, "port 0x%016" PRIx64
					    " (LID %u): its node is not in the subnet",
					    cl_ntoh64(port->guid), lid);
		if (ot_fabric_set_lid(f, n, osm_physp_get_port_num(port->p_physp),
				      lid, osm_port_get_lmc(port), err))
			return -1;
	}
	return 0;
}

int ot_capture_subnet(osm_subn_t *subn, struct ot_fabric **out,
		      struct ot_error *err)
{
	cl_qmap_t *tbl = &subn->node_guid_tbl;
	osm_node_t **sorted = NULL;
	struct ot_fabric *f = NULL;
	cl_map_item_t *item;
	uint32_t count, i = 0;
	int error = -1;

	*out = NULL;
	count = (uint32_t)cl_qmap_count(tbl);
	sorted = malloc((count ? count : 1) * sizeof(*sorted));
	f = ot_fabric_new();
	if (!sorted || !f) {
		ot_error_nomem(err, "capture");
		goto out;
	}
	for (item = cl_qmap_head(tbl); item != cl_qmap_end(tbl);
	     item = cl_qmap_next(item))
		sorted[i++] = (osm_node_t *)item;
	qsort(sorted, count, sizeof(*sorted), cmp_node_guid);

	if (capture_nodes(f, sorted, count, err) ||
	    capture_links(f, sorted, count, err) ||
	    capture_lids(f, subn, err))
		goto out;
	*out = f;
	f = NULL;
	error = 0;
out:
	ot_fabric_free(f);
	free(sorted);
	return error;
}
