// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * JSON output through jansson (json.h).
 */
#include <stdlib.h>

#include "check/json.h"

json_t *ot_json_fixed(double v, int decimals)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	return json_real(strtod(buf, NULL));
}

json_t *ot_json_str(const char *s)
{
	return s ? json_string_nocheck(s) : json_null();
}

json_t *ot_json_u64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

json_t *ot_json_set(json_t *obj, const char *key, json_t *v)
{
	json_object_set_new_nocheck(obj, key, v);
	return obj;
}

/*
 * 15 significant digits print back the decimals ot_json_fixed() kept
 * (4.832, not 4.8319999999999999) for any figure below 10^8.
 */
#define FLAGS (JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15))

int ot_json_print(FILE *out, json_t *root)
{
	int rc = -1;

	if (root && !json_dumpf(root, out, FLAGS))
		rc = fputc('\n', out) == EOF ? -1 : 0;
	json_decref(root);
	return rc;
}
