// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * hdor's node labels ("router [2,1]", "switch d=0 [2,*] stage 1 pos 3",
 * "CA [2,1]/0"), from the KNS coordinates: used by hdor on single-switch
 * lines (route/hdor.c) and on fat-tree lines (route/hdor_ft.c).
 */
#include <stdio.h>

#include "model/routing.h"
#include "route/hdor_ft.h"
#include "topo/kns.h"

/* "[c(n-1),...,c0]", with "*" in dimension skip. */
static void coords_str(const struct ot_kns *kns, int32_t x, int skip,
		       char *buf, size_t len)
{
	const int16_t *co = kns->coord + (size_t)x * kns->n;
	size_t used;
	unsigned int i, d;

	used = snprintf(buf, len, "[");
	for (i = 0; i < kns->n && used < len; i++) {
		/* highest dimension first, as in the seed's figures */
		d = kns->n - 1 - i;
		if ((int)d == skip)
			used += snprintf(buf + used, len - used, "*%s",
					 d ? "," : "]");
		else
			used += snprintf(buf + used, len - used, "%d%s",
					 co[d], d ? "," : "]");
	}
}

/*
 * Every node's label from its coordinates; line switches of fat-tree
 * lines (topo/kns_ft.c) also carry their stage and position.  Shared with
 * route/hdor_ft.c.
 */
int ot_hdor_set_labels(const struct ot_kns *kns, struct ot_routing *out,
		       struct ot_error *err)
{
	const struct ot_fabric *f = kns->fabric;
	char buf[OT_MAX_PORTS * 4 + 8];
	unsigned int p;
	uint32_t i, rank;
	int rc;

	for (i = 0; i < f->nnodes; i++) {
		switch (kns->role[i]) {
		case OT_KNS_ROUTER:
			coords_str(kns, i, -1, buf, sizeof(buf));
			rc = ot_routing_set_label(out, i, "router %s", buf);
			break;
		case OT_KNS_SWITCH:
			coords_str(kns, i, kns->dim[i], buf, sizeof(buf));
			if (kns->stage)
				rc = ot_routing_set_label(out, i,
							  "switch d=%d %s stage %u pos %u",
							  kns->dim[i], buf,
							  kns->stage[i],
							  kns->pos[i]);
			else
				rc = ot_routing_set_label(out, i,
							  "switch d=%d %s",
							  kns->dim[i], buf);
			break;
		default:
			for (p = 1; p <= f->node[i].nports; p++)
				if (f->node[i].port[p].peer >= 0)
					break;
			coords_str(kns, i, -1, buf, sizeof(buf));
			rank = ot_fabric_end_port_rank(f, kns->router[i], i, p);
			rc = ot_routing_set_label(out, i, "CA %s/%u", buf,
						  rank);
			break;
		}
		if (rc)
			return ot_error_nomem(err, "hdor");
	}
	return 0;
}
