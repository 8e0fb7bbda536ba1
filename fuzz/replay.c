// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Runs saved inputs through a fuzzing harness without libFuzzer, so that
 * `make check` (and its ASan/UBSan build) replays every crash once found
 * and every seed: replay_NAME FILE|DIR...; without arguments,
 * $srcdir/fuzz/seeds/NAME and $srcdir/fuzz/regress/NAME (NAME from the
 * program's name).  Prints how many inputs ran; a crash is the failure
 * (the harnesses check what they can and abort).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz/fuzz.h"

static int run_file(const char *path)
{
	FILE *in = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, got;

	if (!in) {
		perror(path);
		return -1;
	}
	do {
		if (len == cap) {
			uint8_t *nb = realloc(buf, cap = cap ? 2 * cap : 65536);

			if (!nb) {
				fclose(in);
				free(buf);
				return -1;
			}
			buf = nb;
		}
		got = fread(buf + len, 1, cap - len, in);
		len += got;
	} while (got);
	fclose(in);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
}

/* Every regular file in dir, in name order; the count or -1. */
static int run_dir(const char *dir)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort), i, ran = 0;

	if (n < 0) {
		perror(dir);
		return -1;
	}
	for (i = 0; i < n; i++) {
		char path[4096];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
		if (!stat(path, &st) && S_ISREG(st.st_mode)) {
			if (run_file(path))
				ran = -1;
			else if (ran >= 0)
				ran++;
		}
		free(ents[i]);
	}
	free(ents);
	return ran;
}

/* A file or a directory's files; the count or -1. */
static int run_path(const char *path)
{
	struct stat st;

	if (stat(path, &st)) {
		perror(path);
		return -1;
	}
	if (S_ISDIR(st.st_mode))
		return run_dir(path);
	return run_file(path) ? -1 : 1;
}

/* $srcdir/fuzz/seeds/NAME and $srcdir/fuzz/regress/NAME. */
static int run_default(const char *prog)
{
	const char *srcdir = getenv("srcdir"), *name = strrchr(prog, '_');
	static const char *const kinds[] = { "seeds", "regress" };
	int total = 0;
	unsigned int k;

	if (!name) {
		fprintf(stderr, "%s: cannot tell the harness from my name\n",
			prog);
		return -1;
	}
	for (k = 0; k < 2; k++) {
		char dir[4096];
		int n;

		snprintf(dir, sizeof(dir), "%s/fuzz/%s/%s",
			 srcdir ? srcdir : ".", kinds[k], name + 1);
		if (k && access(dir, F_OK))
			continue; /* no crash found yet */
		n = run_path(dir);
		if (n < 0 || (!k && !n)) /* no seeds: nothing tested */
			return -1;
		total += n;
	}
	return total;
}

int main(int argc, char **argv)
{
	int i, total = 0;

	if (argc < 2)
		total = run_default(argv[0]);
	for (i = 1; i < argc && total >= 0; i++) {
		int n = run_path(argv[i]);

		total = n < 0 ? -1 : total + n;
	}
	if (total < 0)
		return 1;
	printf("%s: %d inputs replayed\n", argv[0], total);
	return 0;
}
