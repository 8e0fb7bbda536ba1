// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The eight FlatFly engines (Mixed, Twisted and Adaptive DOR, and their
 * combinations; "Early evaluation of direct large-scale InfiniBand networks
 * with adaptive routing" (seed 001), section 3.3), each the engine core of
 * core.c with a variant's flags.  What each realizes of the seed's
 * algorithm, and how, is written at the top of core.c (DOR, Mixed, Twisted,
 * the escape layer) and ador.c (ADOR).
 */
/*
 * On a Slim Fly x FlatFly product (sfdim.c) every engine takes the Slim
 * Fly factor as dimension 0, routed with sf-mms's minimal rule (up to 2
 * hops in it, the second on the layer's second VL).
 */
#include "route/engines.h"
#include "route/ff/ff.h"

/*
 * The ADOR variants need LMC: the LID offsets carry their non-minimal
 * paths.  Without it each CA port has one LID and ADOR would be DOR.
 */
static bool has_lmc(const struct ot_fabric *f)
{
	unsigned int p;
	uint32_t i;

	for (i = 0; i < f->nnodes; i++) {
		if (ot_is_switch(f, i))
			continue;
		for (p = 1; p <= f->node[i].nports; p++)
			if (f->node[i].port[p].lid && f->node[i].port[p].lmc)
				return true;
	}
	return false;
}

static int ff_engine_budget(const struct ot_engine *self,
			    const struct ot_fabric *f,
			    const struct ot_engine_budget *b,
			    struct ot_routing *out, struct ot_error *err)
{
	if ((self->variant & FF_ADOR) && !has_lmc(f))
		return ot_refuse(err, OT_ERR_CONFIG,
			"%s: needs lmc >= 1 (LID offsets carry its non-minimal paths); every CA port has a single LID",
			self->name);
	return ff_route(self->name, self->variant, f, b, SIZE_MAX, out, err);
}

static int ff_engine_route(const struct ot_engine *self,
			   const struct ot_fabric *f, struct ot_routing *out,
			   struct ot_error *err)
{
	return ff_engine_budget(self, f, NULL, out, err);
}

const struct ot_engine ot_engine_ff_dor = {
	.name = "ff-dor",
	.needs = "FlatFly/HyperX/hypercube, Slim Fly x FlatFly (q <= 11); 1 VL, +1 with in-line detours around missing cables or a Slim Fly factor (QoS on), +1 escape VL for the rest",
	.route = ff_engine_route,
	.miscabling = ot_ff_miscabling,
	.variant = 0,
};

const struct ot_engine ot_engine_ff_mixed_dor = {
	.name = "ff-mixed-dor",
	.needs = "FlatFly/hypercube, Slim Fly x FlatFly, QoS on: one SL and VL per dimension order (up to 4; 2 VLs per order with detours or a Slim Fly factor; fewer orders when the escape VL needs room)",
	.route = ff_engine_route,
	.miscabling = ot_ff_miscabling,
	.variant = FF_MIXED,
	.route_budget = ff_engine_budget,
};

const struct ot_engine ot_engine_ff_twisted_dor = {
	.name = "ff-twisted-dor",
	.needs = "FlatFly, Slim Fly x FlatFly, QoS on: 2 VLs (first hop / DOR), 3 with a Slim Fly factor, up to 5 with detours and the escape VL around missing cables",
	.route = ff_engine_route,
	.miscabling = ot_ff_miscabling,
	.variant = FF_TWISTED,
};

const struct ot_engine ot_engine_ff_twisted_mixed_dor = {
	.name = "ff-twisted-mixed-dor",
	.needs = "FlatFly, Slim Fly x FlatFly, QoS on: one SL per order plus a first-hop VL, an escape VL when cables are missing (at most 8)",
	.route = ff_engine_route,
	.miscabling = ot_ff_miscabling,
	.variant = FF_TWISTED | FF_MIXED,
	.route_budget = ff_engine_budget,
};

const struct ot_engine ot_engine_ff_ador = {
	.name = "ff-ador",
	.needs = "FlatFly or Slim Fly x FlatFly, lmc >= 1, QoS on: LID offset 0 minimal DOR, others via an extra hop per dimension; 2 VLs (+1 escape VL when cables are missing)",
	.route = ff_engine_route,
	.miscabling = ot_ff_miscabling,
	.variant = FF_ADOR,
};

const struct ot_engine ot_engine_ff_mixed_ador = {
	.name = "ff-mixed-ador",
	.needs = "FlatFly or Slim Fly x FlatFly, lmc >= 1, QoS on: ff-ador per dimension order of ff-mixed-dor, 2 VLs per order (4 orders in 8 VLs; fewer with the escape VL)",
	.route = ff_engine_route,
	.miscabling = ot_ff_miscabling,
	.variant = FF_ADOR | FF_MIXED,
	.route_budget = ff_engine_budget,
};

const struct ot_engine ot_engine_ff_twisted_ador = {
	.name = "ff-twisted-ador",
	.needs = "FlatFly or Slim Fly x FlatFly, lmc >= 1, QoS on: the twist, then ff-ador without an extra hop in the last dimension; 3 VLs (up to 5 with damage)",
	.route = ff_engine_route,
	.miscabling = ot_ff_miscabling,
	.variant = FF_ADOR | FF_TWISTED,
};

/*
 * "Twisted Mixed DOR combines Twisted and Mixed DORs, and the same goes
 * for Twisted Mixed ADOR" (seed 001, 3.3): the twist in the last
 * dimension of the destination's order, then ADOR in that order.  Budget:
 * 2 VLs per order plus the first-hop VL, so 3 orders (7 VLs; 8 with a
 * twist detour) where Mixed ADOR has 4; the core sheds orders until the
 * VLs fit in 8 and refuses, with the count, when one order does not.
 */
const struct ot_engine ot_engine_ff_twisted_mixed_ador = {
	.name = "ff-twisted-mixed-ador",
	.needs = "FlatFly or Slim Fly x FlatFly, lmc >= 1, QoS on: the twist in the last dimension of the destination's order, then ff-ador in that order; 2 VLs per order + 1 first-hop VL: 3 orders in 7 VLs (fewer orders with damage)",
	.route = ff_engine_route,
	.miscabling = ot_ff_miscabling,
	.variant = FF_ADOR | FF_TWISTED | FF_MIXED,
	.route_budget = ff_engine_budget,
};
