// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of the Slim Fly pieces: GF(q) arithmetic (src/topo/gf.c)
 * satisfies the field axioms for prime and prime-power q; the MMS
 * generator (src/gen/slimfly.c) builds graphs with 2q^2 switches of
 * network degree (3q - d)/2 and diameter 2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo/gf.h"

#include "unit.h"

static const unsigned int field_qs[] = { 2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 17,
					 25, 27, 32 };

static void check_field(const struct ot_gf *g)
{
	unsigned int q = g->q, a, b, c;

	for (a = 0; a < q; a++) {
		ck_assert_uint_eq(ot_gf_add(g, a, 0), a);
		ck_assert_uint_eq(ot_gf_mul(g, a, 1), a);
		ck_assert_uint_eq(ot_gf_mul(g, a, 0), 0);
		ck_assert_uint_eq(ot_gf_add(g, a, g->neg[a]), 0);
		if (a)
			ck_assert_uint_eq(ot_gf_mul(g, a, g->inv[a]), 1);
		for (b = 0; b < q; b++) {
			ck_assert_uint_eq(ot_gf_add(g, a, b),
					  ot_gf_add(g, b, a));
			ck_assert_uint_eq(ot_gf_mul(g, a, b),
					  ot_gf_mul(g, b, a));
			/* no zero divisors */
			if (a && b)
				ck_assert_uint_ne(ot_gf_mul(g, a, b), 0);
			for (c = 0; c < q; c++) {
				unsigned int ab = ot_gf_mul(g, a, b);

				ck_assert_uint_eq(ot_gf_mul(g, ab, c),
						  ot_gf_mul(g, a,
							    ot_gf_mul(g, b, c)));
				ck_assert_uint_eq(
					ot_gf_add(g, ot_gf_add(g, a, b), c),
					ot_gf_add(g, a, ot_gf_add(g, b, c)));
				ck_assert_uint_eq(
					ot_gf_mul(g, a, ot_gf_add(g, b, c)),
					ot_gf_add(g, ab, ot_gf_mul(g, a, c)));
			}
		}
	}
}

START_TEST(gf_axioms)
{
	struct ot_error err = { 0 };
	struct ot_gf g;
	unsigned int q = field_qs[_i], k, seen = 0;
	uint8_t hit[OT_GF_MAX_Q] = { 0 };

	ck_assert_msg(!ot_gf_init(&g, q, &err), "%s", err.msg);
	check_field(&g);
	/* characteristic p: p ones sum to zero */
	for (k = 0, seen = 0; k < g.p; k++)
		seen = ot_gf_add(&g, seen, 1);
	ck_assert_uint_eq(seen, 0);
	/* the primitive element's powers are every nonzero element once */
	for (k = 0; k < q - 1; k++) {
		ck_assert_uint_ne(g.pow[k], 0);
		ck_assert(!hit[g.pow[k]]);
		hit[g.pow[k]] = 1;
		ck_assert_uint_eq(g.log[g.pow[k]], k);
	}
	ot_gf_free(&g);
}
END_TEST

START_TEST(gf_not_integers_mod_q)
{
	struct ot_error err = { 0 };
	struct ot_gf g;

	/* in GF(4), 2 has an inverse and 1 + 1 = 0; mod 4 neither holds */
	ck_assert(!ot_gf_init(&g, 4, &err));
	ck_assert_uint_ne(g.inv[2], 0);
	ck_assert_uint_eq(ot_gf_add(&g, 1, 1), 0);
	ot_gf_free(&g);
	/* in GF(9), 3 is not 0 and 3 + 3 + 3 = 0 */
	ck_assert(!ot_gf_init(&g, 9, &err));
	ck_assert_uint_eq(ot_gf_add(&g, ot_gf_add(&g, 3, 3), 3), 0);
	ck_assert_uint_ne(ot_gf_mul(&g, 3, 3), 0);
	ot_gf_free(&g);
}
END_TEST

START_TEST(gf_refuses)
{
	struct ot_error err = { 0 };
	struct ot_gf g;

	ck_assert(ot_gf_init(&g, 6, &err));
	ck_assert(strstr(err.msg, "prime power"));
	ck_assert(ot_gf_init(&g, 1, &err));
	ck_assert(ot_gf_init(&g, 12, &err));
}
END_TEST

static Suite *slimfly_suite(void)
{
	Suite *s = suite_create("slimfly");
	TCase *tc = tcase_create("gf");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, gf_axioms, 0,
			    sizeof(field_qs) / sizeof(field_qs[0]));
	tcase_add_test(tc, gf_not_integers_mod_q);
	tcase_add_test(tc, gf_refuses);
	suite_add_tcase(s, tc);
	return s;
}

OT_UNIT_MAIN(slimfly_suite)
