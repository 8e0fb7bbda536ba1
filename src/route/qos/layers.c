// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Service classes over any engine's routing, without touching the engine:
 * the engine's SL layers and VLs are copied once per class (SL c*S + s,
 * VL c*V + v), its path SL is moved into the block of the class the QoS
 * policy chose, and each port's VL arbitration names the VLs of each
 * class.  The engine routes as if alone; this runs after it, in the
 * plugin and in `osmtopo qos`, so every engine gets QoS the same way.
 */
#include <stdlib.h>
#include <string.h>

#include "model/routing.h"
#include "route/qos/qos.h"
#include "route/spread.h"

/*
 * The class and engine layer SL sl stands for.  Below C*S: the block of
 * a class.  Above: a policy SL handed out without path_sl (MultiPathRecord
 * takes the qos-level's SL as it is) goes to its class's layer 0; any
 * other SL to class 0's layers.
 */
void ot_qos_sl_layer(const struct ot_qos_layers *q, unsigned int sl,
		     unsigned int *c, unsigned int *s)
{
	if (sl < q->classes * q->sls) {
		*c = sl / q->sls;
		*s = sl % q->sls;
	} else if (q->class_of_sl[sl] >= 0) {
		*c = (unsigned int)q->class_of_sl[sl];
		*s = 0;
	} else {
		*c = 0;
		*s = sl % q->sls;
	}
}

/* Node n's table rewritten for the classes; NULL on OOM. */
static uint8_t *layered_table(const struct ot_routing *r, int n,
			      const struct ot_qos_layers *q)
{
	unsigned int nports = r->fabric->node[n].nports, in, out, sl, c, s;
	size_t size = (size_t)(nports + 1) * (nports + 1) * OT_NUM_SLS;
	uint8_t *t = malloc(size), v;

	if (!t)
		return NULL;
	for (in = 0; in <= nports; in++)
		for (out = 0; out <= nports; out++)
			for (sl = 0; sl < OT_NUM_SLS; sl++) {
				ot_qos_sl_layer(q, sl, &c, &s);
				v = ot_routing_vl(r, n, in, out, s);
				t[ot_sl2vl_index(nports, in, out, sl)] =
					(uint8_t)(c * q->vls + v);
			}
	return t;
}

int ot_qos_layer(struct ot_routing *r, const struct ot_qos_table *t,
		 unsigned int max_vls, struct ot_qos_layers *out,
		 struct ot_error *err)
{
	const struct ot_fabric *f = r->fabric;
	uint8_t **tables;
	unsigned int i;
	uint32_t n;

	memset(out, 0, sizeof(*out));
	out->classes = t->nclasses;
	out->sls = ot_routing_sl_layers(r);
	out->vls = r->nvls ? r->nvls : 1;
	if (out->classes * out->sls > 15)
		return ot_refuse(err, OT_ERR_BUDGET,
				 "%u QoS classes x %u SL layers of the engine = %u SLs, above 15",
				 out->classes, out->sls,
				 out->classes * out->sls);
	if (out->classes * out->vls > max_vls)
		return ot_refuse(err, OT_ERR_BUDGET,
				 "%u QoS classes x %u VLs of the engine = %u VLs, above the %u data VLs allowed",
				 out->classes, out->vls,
				 out->classes * out->vls, max_vls);
	for (i = 0; i < OT_NUM_SLS; i++)
		out->class_of_sl[i] = (int8_t)ot_qos_class_of_sl(t, i);
	tables = calloc(f->nnodes, sizeof(*tables));
	if (!tables)
		return ot_error_nomem(err, "qos layers");
	for (n = 0; n < f->nnodes; n++) {
		tables[n] = layered_table(r, (int)n, out);
		if (!tables[n]) {
			while (n--)
				free(tables[n]);
			free(tables);
			return ot_error_nomem(err, "qos layers");
		}
	}
	for (n = 0; n < f->nnodes; n++) {
		free(r->sl2vl[n]);
		r->sl2vl[n] = tables[n];
	}
	free(tables);
	r->nvls = out->classes * out->vls;
	r->needs_qos = true;
	return 0;
}

uint8_t ot_qos_path_sl(const struct ot_qos_layers *q,
		       const struct ot_routing *r, uint8_t hint,
		       uint16_t slid, uint16_t dlid)
{
	int c = hint < OT_NUM_SLS ? q->class_of_sl[hint] : -1;
	unsigned int s = ot_routing_path_sl(r, slid, dlid) % q->sls;

	return (uint8_t)((c < 0 ? 0 : (unsigned int)c) * q->sls + s);
}
