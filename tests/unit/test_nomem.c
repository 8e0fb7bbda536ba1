// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Out of memory inside the recognizer of fat-tree-line KNSs: every
 * allocation of a recognition is made to fail in turn (the program is
 * linked with --wrap=malloc, calloc and realloc, Makefile.am), and the
 * answer must be the fabric's coordinates, or an error of class
 * OT_ERR_NOMEM; never a refusal that calls the fabric no KNS, which
 * would send OpenSM to the next engine for a reason that is not true.
 * The fabrics are damaged ones whose coordinates the cabling leaves
 * open (kns->by_colour: topo/kns_dmg.c places them by colour), where the
 * search allocates on its way down.  Then hdor as a whole on such a
 * fabric, allocations failing at points spread over its run: a routing
 * (a candidate that could not be made is left out) or out of memory,
 * never a refusal.  Under the sanitizers the error paths are also held
 * to no leak and no bad access.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/error.h"
#include "route/engine.h"
#include "topo/kns.h"

#include "hdor_ft_unit.h"
#include "unit.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);

static bool armed;          /* counting (and failing) allocations */
static unsigned long calls; /* allocations counted */
static unsigned long fail;  /* the one that fails (0: none) */

static bool fails(void)
{
	return armed && ++calls == fail;
}

void *__wrap_malloc(size_t n)
{
	return fails() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return fails() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
	return fails() ? NULL : __real_realloc(p, n);
}

/* The recognizer on f with allocation `at` failing (0: none). */
static int recognize(const struct ot_fabric *f, unsigned long at,
		     struct ot_kns **kns, struct ot_error *err)
{
	bool looks = false;
	int rc;

	*kns = NULL;
	calls = 0;
	fail = at;
	armed = true;
	rc = ot_kns_ft_recognize(f, kns, &looks, err);
	armed = false;
	return rc;
}

/* A damaged 9 x 9 KNS of 2-stage lines, drawn; NULL unless placed by colour. */
static struct ot_fabric *draw_open(struct ot_prng *rng, char *desc,
				   size_t len)
{
	struct ot_kns_params p = {
		.k = 9, .n = 2, .stages = 2,
		.line_down = { 0, 3, 3 }, .line_up = { 0, 1, 2 },
		.line_links = { 0, 0, 1 },
		.shuffle = true,
		.drop_links = 0.1, .drop_switches = 0.1,
	};
	struct ot_error err = { 0 };
	struct ot_fabric *f;
	struct ot_kns *kns;
	size_t at;

	p.cas = 1;
	p.links = 1 + ot_prng_below(rng, 2);
	p.seed = ot_prng_next(rng);
	p.drop_seed = ot_prng_next(rng);
	describe(&p, desc, len);
	at = strlen(desc);
	snprintf(desc + at, len - at,
		 " --drop-links 0.1 --drop-switches 0.1 --seed %" PRIu64,
		 p.drop_seed);
	f = gen(&p, 0);
	if (!recognize(f, 0, &kns, &err) && kns->by_colour) {
		ot_kns_free(kns);
		return f;
	}
	ot_kns_free(kns);
	ot_fabric_free(f);
	return NULL;
}

/* Whether a and b give every node the same role and coordinates. */
static bool same_kns(const struct ot_fabric *f, const struct ot_kns *a,
		     const struct ot_kns *b)
{
	return a->n == b->n && a->k == b->k &&
	       !memcmp(a->role, b->role, f->nnodes * sizeof(*a->role)) &&
	       !memcmp(a->coord, b->coord,
		       (size_t)f->nnodes * a->n * sizeof(*a->coord));
}

START_TEST(recognizer_out_of_memory)
{
	struct ot_prng rng = { .state = 0x0e7e + (uint64_t)_i * 7919 };
	unsigned int round, used = 0;

	for (round = 0; round < 40 && used < 2; round++) {
		unsigned long total, at, step, failed = 0;
		struct ot_kns *base, *kns;
		struct ot_error err = { 0 };
		struct ot_fabric *f;
		char desc[320];

		if (!(f = draw_open(&rng, desc, sizeof(desc))))
			continue;
		used++;
		ck_assert(!recognize(f, 0, &base, &err));
		total = calls;
		/* every allocation up to 400, then as many spread over all */
		step = total <= 400 ? 1 : total / 400;
		for (at = 1; at <= total; at += step) {
			memset(&err, 0, sizeof(err));
			if (recognize(f, at, &kns, &err)) {
				ck_assert_msg(err.cls == OT_ERR_NOMEM,
					      "%s: allocation %lu of %lu failed, and the recognizer said: %s",
					      desc, at, total, err.msg);
				failed++;
				continue;
			}
			ck_assert_msg(same_kns(f, base, kns),
				      "%s: allocation %lu failed, other coordinates",
				      desc, at);
			ot_kns_free(kns);
		}
		printf("recognizer_out_of_memory: %s: %lu allocations, %lu tried, %lu gave out of memory\n",
		       desc, total, (total + step - 1) / step, failed);
		ck_assert_msg(failed > 0, "%s: no failure seen", desc);
		ot_kns_free(base);
		ot_fabric_free(f);
	}
	ck_assert_msg(used >= 1, "no fabric placed by colour in %u draws",
		      round);
}
END_TEST

/* hdor on f with allocation `at` failing (0: none). */
static int run_hdor(const struct ot_fabric *f, unsigned long at,
		    struct ot_routing **r, struct ot_error *err)
{
	int rc;

	*r = NULL;
	calls = 0;
	fail = at;
	armed = true;
	rc = ot_engine_run(ot_engine_find("hdor"), f, r, err);
	armed = false;
	return rc;
}

START_TEST(hdor_out_of_memory)
{
	struct ot_prng rng = { .state = 0x40e7e };
	unsigned int round, used = 0;

	for (round = 0; round < 40 && !used; round++) {
		unsigned long total, at, step, failed = 0, tried = 0;
		struct ot_error err = { 0 };
		struct ot_routing *r;
		struct ot_fabric *f;
		char desc[320];

		if (!(f = draw_open(&rng, desc, sizeof(desc))))
			continue;
		used++;
		ck_assert_msg(!run_hdor(f, 0, &r, &err), "%s: %s", desc,
			      err.msg);
		ot_routing_free(r);
		total = calls;
		/* the first 10 (recognition) and 20 spread over the rest */
		step = total / 20 + 1;
		for (at = 1; at <= total; at += at < 10 ? 1 : step) {
			tried++;
			memset(&err, 0, sizeof(err));
			if (run_hdor(f, at, &r, &err)) {
				ck_assert_msg(err.cls == OT_ERR_NOMEM,
					      "%s: allocation %lu of %lu failed, and hdor said: %s",
					      desc, at, total, err.msg);
				failed++;
			}
			ot_routing_free(r);
		}
		printf("hdor_out_of_memory: %s: %lu allocations, %lu tried, %lu gave out of memory\n",
		       desc, total, tried, failed);
		ck_assert_msg(failed > 0, "%s: no failure seen", desc);
		ot_fabric_free(f);
	}
	ck_assert_msg(used, "no fabric placed by colour in %u draws", round);
}
END_TEST

static Suite *nomem_suite(void)
{
	Suite *s = suite_create("nomem");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, recognizer_out_of_memory, 0, 2);
	tcase_add_test(tc, hdor_out_of_memory);
	suite_add_tcase(s, tc);
	return s;
}

OT_UNIT_MAIN(nomem_suite)
