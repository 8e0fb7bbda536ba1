/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Helpers shared by the unit tests: a main() that runs one Check suite.
 */
#ifndef OSMTOPO_UNIT_H
#define OSMTOPO_UNIT_H

#include <check.h>
#include <stdlib.h>

#define OT_UNIT_MAIN(suite_fn)                                        \
	int main(void)                                                \
	{                                                             \
		SRunner *sr = srunner_create(suite_fn());             \
		int failed;                                           \
		srunner_run_all(sr, CK_NORMAL);                       \
		failed = srunner_ntests_failed(sr);                   \
		srunner_free(sr);                                     \
		return failed ? EXIT_FAILURE : EXIT_SUCCESS;          \
	}

#endif
