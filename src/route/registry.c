// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The engine table (see engine.h): every engine osmtopo provides, in the
 * order `osmtopo --help` lists them and the plugin registers them.
 */
#include <string.h>

#include "route/engine.h"
#include "route/engines.h"

const struct ot_engine *const ot_engines[] = {
	&ot_engine_hdor,
	&ot_engine_ff_dor,
	&ot_engine_ff_mixed_dor,
	&ot_engine_ff_twisted_dor,
	&ot_engine_ff_twisted_mixed_dor,
	&ot_engine_ff_ador,
	&ot_engine_ff_mixed_ador,
	&ot_engine_ff_twisted_ador,
	&ot_engine_ff_twisted_mixed_ador,
	&ot_engine_sf_mms,
	&ot_engine_df_static,
	NULL,
};

const struct ot_engine *ot_engine_find(const char *name)
{
	unsigned int i;

	for (i = 0; ot_engines[i]; i++)
		if (!strcmp(ot_engines[i]->name, name))
			return ot_engines[i];
	return NULL;
}

int ot_engine_run(const struct ot_engine *e, const struct ot_fabric *f,
		  struct ot_routing **out, struct ot_error *err)
{
	return ot_engine_run_budget(e, f, NULL, out, err);
}

int ot_engine_run_budget(const struct ot_engine *e, const struct ot_fabric *f,
			 const struct ot_engine_budget *b,
			 struct ot_routing **out, struct ot_error *err)
{
	struct ot_routing *r;

	*out = NULL;
	r = ot_routing_new(f);
	if (!r)
		return ot_error_nomem(err, e->name);
	if (b && e->route_budget ? e->route_budget(e, f, b, r, err) :
				   e->route(e, f, r, err)) {
		ot_routing_free(r);
		return -1;
	}
	*out = r;
	return 0;
}

int ot_engine_fit_vls(const struct ot_engine *e, const struct ot_fabric *f,
		      const struct ot_engine_budget *b,
		      struct ot_routing **r)
{
	struct ot_error ignored = { 0 };
	struct ot_routing *fit = NULL;

	if ((*r)->nvls <= b->max_vls)
		return 0;
	if (!e->route_budget || !b->max_vls ||
	    ot_engine_run_budget(e, f, b, &fit, &ignored))
		return -1;
	if (fit->nvls > b->max_vls) {
		ot_routing_free(fit);
		return -1;
	}
	ot_routing_free(*r);
	*r = fit;
	return 0;
}
