/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the fuzzing harnesses share (see fuzz/README.md): each harness is
 * one LLVMFuzzerTestOneInput() over a reader of outside input, linked
 * either with libFuzzer (scripts/fuzz.sh) or with fuzz/replay.c, which
 * runs saved inputs through it in `make check`.
 */
#ifndef OSMTOPO_FUZZ_H
#define OSMTOPO_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Separates the files of an input that holds several ("net%%lfts"). */
#define FUZZ_SEP "\n%%\n"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One part of an input split at FUZZ_SEP. */
struct fuzz_part {
	const uint8_t *data;
	size_t size;
};

/*
 * Splits data at FUZZ_SEP into at most max parts (the last part keeps any
 * further separators); returns how many there are (at least 1).
 */
static inline unsigned int fuzz_split(const uint8_t *data, size_t size,
				      struct fuzz_part *part, unsigned int max)
{
	const size_t seplen = sizeof(FUZZ_SEP) - 1;
	unsigned int n = 0;
	size_t start = 0, i = 0;

	while (n + 1 < max && i + seplen <= size) {
		if (memcmp(data + i, FUZZ_SEP, seplen)) {
			i++;
			continue;
		}
		part[n].data = data + start;
		part[n++].size = i - start;
		i += seplen;
		start = i;
	}
	part[n].data = data + start;
	part[n++].size = size - start;
	return n;
}

/* A read-only stream over a part (the readers take FILE *). */
static inline FILE *fuzz_open(const struct fuzz_part *p)
{
	static char empty[1];

	return fmemopen(p->size ? (void *)p->data : empty, p->size, "r");
}

/* Where the harnesses let the writers write: nowhere. */
static inline FILE *fuzz_sink(void)
{
	static FILE *sink;

	if (!sink)
		sink = fopen("/dev/null", "w");
	return sink;
}

#endif
