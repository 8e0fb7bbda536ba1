/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The routing engines osmtopo provides, looked up by name in one table
 * (registry.c).  An engine is a pure function from an indexed fabric
 * (src/model/fabric.h) to a routing (src/model/routing.h): the plugin runs
 * it inside OpenSM, the tool offline, the tests and benchmarks directly.
 */
#ifndef OSMTOPO_ROUTE_ENGINE_H
#define OSMTOPO_ROUTE_ENGINE_H

#include "model/error.h"
#include "model/fabric.h"
#include "model/routing.h"
#include "topo/miscable.h"

/*
 * What an engine may use when something else needs room beside it (QoS
 * classes take copies of its SLs and VLs): an engine that can do with
 * fewer layers degrades to fit (the Mixed variants shed dimension
 * orders), and refuses with the numbers and `why` when even its least
 * does not fit.
 */
struct ot_engine_budget {
	unsigned int max_vls; /* data VLs */
	unsigned int max_sls; /* path SLs */
	const char *why;      /* "3 QoS classes", for refusals */
};

struct ot_engine {
	const char *name;
	/* One line for --help and the README: what the fabric must be. */
	const char *needs;
	/*
	 * Fills out (fresh from ot_routing_new()) for fabric f, or returns -1
	 * with one line in err saying why it refuses f, naming the node and
	 * port that break it, and the class of the refusal (model/error.h).
	 * out is then freed by the caller unused.  self is this structure,
	 * so that one function can serve an engine family.
	 */
	int (*route)(const struct ot_engine *self, const struct ot_fabric *f,
		     struct ot_routing *out, struct ot_error *err);
	/* The variant of an engine family that route() serves. */
	unsigned int variant;
	/*
	 * When route() refuses a fabric as not its topology: the cables to
	 * move for it to be one, if a few explain it (topo/miscable.h).
	 * NULL for families without a mis-cabling report.
	 */
	int (*miscabling)(const struct ot_fabric *f, struct ot_miscabling *out,
			  struct ot_error *err);
	/*
	 * route() within a budget, for engines that can degrade; NULL:
	 * route() (the caller then finds whether the result fits).
	 */
	int (*route_budget)(const struct ot_engine *self,
			    const struct ot_fabric *f,
			    const struct ot_engine_budget *b,
			    struct ot_routing *out, struct ot_error *err);
	/*
	 * Its routing within 1 VL is still what it promises, its further
	 * VLs only improve on a damaged fabric (hdor's other dimension
	 * orders): with QoS off, when OpenSM programs no SL2VL tables, the
	 * plugin routes it within 1 VL rather than refuse it.  An engine
	 * whose VLs are what its name asks for (ff-mixed-dor's orders)
	 * leaves it false and is refused.
	 */
	bool fits_one_vl;
};

/* NULL-terminated list of every engine osmtopo provides. */
extern const struct ot_engine *const ot_engines[];

const struct ot_engine *ot_engine_find(const char *name);

/*
 * Runs engine e on f: a new routing in *out, or -1 with err set and *out
 * NULL.  Never leaves a half-filled routing behind.
 */
int ot_engine_run(const struct ot_engine *e, const struct ot_fabric *f,
		  struct ot_routing **out, struct ot_error *err);

/* ot_engine_run() within budget b (NULL: none). */
int ot_engine_run_budget(const struct ot_engine *e, const struct ot_fabric *f,
			 const struct ot_engine_budget *b,
			 struct ot_routing **out, struct ot_error *err);

/*
 * *r, e's routing of f, on more VLs than b->max_vls: e routes f again
 * within b where it can degrade, and the new routing replaces *r.  0 when
 * *r then fits, -1 with *r unchanged when e cannot (no route_budget, or
 * it refuses b: the caller names the VLs).  What the plugin does with
 * what OpenSM offers, and `osmtopo route --max-vls` offline.
 */
int ot_engine_fit_vls(const struct ot_engine *e, const struct ot_fabric *f,
		      const struct ot_engine_budget *b,
		      struct ot_routing **r);

#endif
