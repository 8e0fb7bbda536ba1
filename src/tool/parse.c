// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Numbers and lists on the command line (see parse.h).  Decimal or 0x
 * hex, not C's octal: "010" is ten, as a user typing a port count means.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

int tool_parse_uint(const char *s, unsigned long long min,
		    unsigned long long max, unsigned long long *v)
{
	int base = 10;
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		if (!isxdigit((unsigned char)s[0]))
			return -1;
	}
	errno = 0;
	*v = strtoull(s, &end, base);
	if (errno || *end || *v < min || *v > max)
		return -1;
	return 0;
}

int tool_parse_seed(const char *s, uint64_t *v)
{
	unsigned long long x;

	if (tool_parse_uint(s, 0, UINT64_MAX, &x))
		return -1;
	*v = x;
	return 0;
}

int tool_parse_fraction(const char *s, double *v)
{
	char *end;

	if (!isdigit((unsigned char)s[0]) && s[0] != '.')
		return -1;
	errno = 0;
	*v = strtod(s, &end);
	if (errno || end == s || *end || !(*v >= 0 && *v < 1))
		return -1;
	return 0;
}

int tool_parse_uint_list(const char *s, char sep, unsigned int min,
			 unsigned int max, unsigned int *v, unsigned int cap,
			 unsigned int *n)
{
	char num[32];

	*n = 0;
	for (;;) {
		size_t len = strcspn(s, (char[]){ sep, '\0' });
		unsigned long long x;

		if (*n == cap || !len || len >= sizeof(num))
			return -1;
		memcpy(num, s, len);
		num[len] = '\0';
		if (tool_parse_uint(num, min, max, &x))
			return -1;
		v[(*n)++] = (unsigned int)x;
		if (!s[len])
			return 0;
		s += len + 1;
	}
}
