// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Error classes end to end: each class of failure has its own "ERR 5Exx"
 * code (the one an administrator greps OpenSM's log for, README), a
 * class survives the words callers add on its way up, and the engines'
 * real refusals arrive with the class that says why: a fat tree is no
 * KNS (topology, 5E02), a Slim Fly cut in two leaves no route (damage,
 * 5E03), an engine given fewer VLs than it needs says so (budget, 5E04).
 */
#include <string.h>

#include "gen/gen.h"
#include "model/error.h"
#include "model/fabric.h"
#include "model/routing.h"
#include "route/engine.h"
#include "unit.h"

START_TEST(test_class_codes)
{
	static const struct {
		enum ot_error_class cls;
		const char *code;
	} want[] = {
		{ OT_ERR_TOPOLOGY, "ERR 5E02" }, { OT_ERR_DAMAGE, "ERR 5E03" },
		{ OT_ERR_BUDGET, "ERR 5E04" },	 { OT_ERR_CONFIG, "ERR 5E05" },
		{ OT_ERR_OPENSM, "ERR 5E06" },	 { OT_ERR_NOMEM, "ERR 5E07" },
		{ OT_ERR_GENERIC, "ERR 5E08" },
	};
	unsigned int i, j;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		ck_assert_str_eq(ot_error_code(want[i].cls), want[i].code);
		ck_assert_str_ne(ot_error_class_name(want[i].cls), "?");
		for (j = 0; j < i; j++)
			ck_assert_str_ne(ot_error_code(want[i].cls),
					 ot_error_code(want[j].cls));
	}
	ck_assert_str_eq(OT_ERR_CODE_REGISTER, "ERR 5E01");
	ck_assert_str_eq(OT_ERR_CODE_MCAST, "ERR 5E09");
}
END_TEST

START_TEST(test_class_survives)
{
	struct ot_error why = { 0 }, err = { 0 };

	ck_assert_int_eq(ot_error_nomem(&why, "capture"), -1);
	ck_assert_int_eq(why.cls, OT_ERR_NOMEM);
	ck_assert_str_eq(why.msg, "capture: out of memory");
	ck_assert_int_eq(ot_error_wrap(&err, &why, OT_ERR_TOPOLOGY, "hdor"),
			 -1);
	ck_assert_int_eq(err.cls, OT_ERR_NOMEM);
	ck_assert_str_eq(ot_error_code(err.cls), "ERR 5E07");
	ck_assert_str_eq(err.msg, "hdor: capture: out of memory");

	/* a generic reason takes the class of the one who asked */
	ot_error_set(&why, "not a KNS");
	ot_error_wrap(&err, &why, OT_ERR_TOPOLOGY, "hdor");
	ck_assert_int_eq(err.cls, OT_ERR_TOPOLOGY);
	/* wrapping in place keeps the class and the words */
	ot_refuse(&err, OT_ERR_DAMAGE, "cut");
	ot_error_wrap(&err, &err, OT_ERR_TOPOLOGY, "ff-dor");
	ck_assert_int_eq(err.cls, OT_ERR_DAMAGE);
	ck_assert_str_eq(err.msg, "ff-dor: cut");
	/* NULL is allowed everywhere */
	ck_assert_int_eq(ot_error_nomem(NULL, "x"), -1);
	ck_assert_int_eq(ot_refuse(NULL, OT_ERR_BUDGET, "x"), -1);
}
END_TEST

/* The class an engine's refusal of f carries (f indexed here). */
static enum ot_error_class refusal(const char *engine, struct ot_fabric *f,
				   const struct ot_engine_budget *b)
{
	const struct ot_engine *e = ot_engine_find(engine);
	struct ot_routing *r = NULL;
	struct ot_error err = { 0 };

	ck_assert_ptr_nonnull(e);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(ot_fabric_assign_lids(f), 0);
	ck_assert_msg(ot_fabric_index(f, &err) == 0, "%s", err.msg);
	ck_assert_msg(ot_engine_run_budget(e, f, b, &r, &err) == -1,
		      "%s routed a fabric it must refuse", engine);
	ck_assert_ptr_null(r);
	ck_assert_msg(err.msg[0], "%s refused without a reason", engine);
	ot_fabric_free(f);
	return err.cls;
}

START_TEST(test_engine_topology)
{
	struct ot_fattree_params p = { .levels = 2, .cas = 2 };
	struct ot_error err = { 0 };

	p.down[2] = 4;
	p.up[2] = 2;
	ck_assert_str_eq(ot_error_code(refusal("hdor",
					       ot_gen_fattree(&p, &err), NULL)),
			 "ERR 5E02");
}
END_TEST

START_TEST(test_engine_damage_budget)
{
	/* half the cables gone, the rest in two pieces (seen with
	 * `osmtopo gen slimfly 5 --cas 1 --drop-links 0.5 --seed 6`) */
	struct ot_slimfly_params sf = { .q = 5, .cas = 1, .drop_links = 0.5,
					.drop_seed = 6 };
	struct ot_flatfly_params ff = { .ndims = 2, .size = { 4, 4 },
					.cas = 1 };
	struct ot_engine_budget one = { 1, 1, "1 VL" };
	struct ot_error err = { 0 };

	ck_assert_str_eq(ot_error_code(refusal("sf-mms",
					       ot_gen_slimfly(&sf, &err),
					       NULL)),
			 "ERR 5E03");
	/* one order takes 2 VLs (first hop, then DOR): 1 cannot do */
	ck_assert_str_eq(ot_error_code(refusal("ff-twisted-mixed-dor",
					       ot_gen_flatfly(&ff, &err),
					       &one)),
			 "ERR 5E04");
}
END_TEST

static Suite *error_suite(void)
{
	Suite *s = suite_create("error");
	TCase *tc = tcase_create("classes");

	tcase_add_test(tc, test_class_codes);
	tcase_add_test(tc, test_class_survives);
	tcase_add_test(tc, test_engine_topology);
	tcase_add_test(tc, test_engine_damage_budget);
	suite_add_tcase(s, tc);
	return s;
}

OT_UNIT_MAIN(error_suite)
