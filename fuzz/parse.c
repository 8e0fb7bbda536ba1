// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Fuzzes the command line's number parsers (src/tool/parse.c): the first
 * byte picks the parser and, for lists, the separator; the rest is the
 * argument, cut at its first NUL as argv would be.  What a parser accepts
 * must be in the range it was asked for.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "tool/parse.h"

static void check_list(const char *s, char sep)
{
	unsigned int v[8], n, i;

	if (tool_parse_uint_list(s, sep, 2, 1000, v, 8, &n))
		return;
	if (n < 1 || n > 8)
		abort();
	for (i = 0; i < n; i++)
		if (v[i] < 2 || v[i] > 1000)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned long long u;
	uint64_t seed;
	double d;
	char *s;

	if (size < 1)
		return 0;
	s = malloc(size);
	if (!s)
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	switch (data[0] & 3) {
	case 0:
		if (!tool_parse_uint(s, 1, 254, &u) && (u < 1 || u > 254))
			abort();
		break;
	case 1:
		tool_parse_seed(s, &seed);
		break;
	case 2:
		if (!tool_parse_fraction(s, &d) && !(d >= 0 && d < 1))
			abort();
		break;
	default:
		check_list(s, (data[0] & 4) ? 'x' : ',');
		break;
	}
	free(s);
	return 0;
}
