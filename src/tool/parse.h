/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The syntax of numbers and lists on osmtopo's command line, in one place
 * for every subcommand (options.c applies it to options, the commands to
 * their operands): whole numbers in decimal or 0x hex, never signed;
 * 64-bit seeds; fractions 0 <= F < 1; lists of whole numbers with one
 * separator ("2,1,1", "4x8x8x8").  Each parser takes the whole string or
 * nothing, and returns 0, or -1 leaving its output unspecified.
 */
#ifndef OSMTOPO_TOOL_PARSE_H
#define OSMTOPO_TOOL_PARSE_H

#include <stdint.h>

/* A whole number in [min, max]: "12", "0x1f" (no sign, no blanks). */
int tool_parse_uint(const char *s, unsigned long long min,
		    unsigned long long max, unsigned long long *v);

/* A seed: any 64-bit number, decimal or 0x hex. */
int tool_parse_seed(const char *s, uint64_t *v);

/* A fraction: a decimal number with 0 <= F < 1. */
int tool_parse_fraction(const char *s, double *v);

/*
 * "A,B,C" with sep ',': 1 to cap numbers in [min, max] into v[], their
 * count into *n.  An empty list or an empty element is an error.
 */
int tool_parse_uint_list(const char *s, char sep, unsigned int min,
			 unsigned int max, unsigned int *v, unsigned int cap,
			 unsigned int *n);

#endif
