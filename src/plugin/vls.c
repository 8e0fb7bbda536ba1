// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The data VLs OpenSM's links will run with (see vls.h), from the VLCap
 * of each end and OpenSM's max_op_vls, decoded by ot_vl_code_vls().
 */
#include "model/vlarb.h"
#include "plugin/vls.h"

#include <opensm/osm_node.h>
#include <opensm/osm_port.h>
#include <opensm/osm_subnet.h>

unsigned int ot_plugin_link_vls(const osm_subn_t *subn,
				const osm_physp_t *physp)
{
	const osm_physp_t *remote = osm_physp_get_remote(physp);
	unsigned int cap = ib_port_info_get_vl_cap(&physp->port_info);

	if (remote && osm_physp_is_valid(remote) &&
	    ib_port_info_get_vl_cap(&remote->port_info) < cap)
		cap = ib_port_info_get_vl_cap(&remote->port_info);
	if (cap > subn->opt.max_op_vls)
		cap = subn->opt.max_op_vls;
	return ot_vl_code_vls(cap ? cap : 1);
}

unsigned int ot_plugin_data_vls(osm_subn_t *subn)
{
	unsigned int op = subn->opt.max_op_vls;
	unsigned int min = ot_vl_code_vls(op ? op : 1), p, nports, vls;
	cl_map_item_t *item;

	for (item = cl_qmap_head(&subn->node_guid_tbl);
	     item != cl_qmap_end(&subn->node_guid_tbl);
	     item = cl_qmap_next(item)) {
		osm_node_t *node = (osm_node_t *)item;

		nports = osm_node_get_num_physp(node);
		for (p = 1; p < nports; p++) {
			osm_physp_t *physp = osm_node_get_physp_ptr(node, p);

			if (!physp || !osm_physp_get_remote(physp))
				continue;
			vls = ot_plugin_link_vls(subn, physp);
			min = vls < min ? vls : min;
		}
	}
	return min;
}
