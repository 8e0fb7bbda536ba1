// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Fuzzes the LFT dump reader (ot_lft_read) on a fabric read from the same
 * input: "NET FILE" FUZZ_SEP "LFT DUMP", then writes the tables back
 * (ot_lft_write, ot_tables_write).
 */
#include "fuzz/fuzz.h"
#include "io/lftfile.h"
#include "io/netfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_part part[2];
	struct ot_error err = { 0 };
	struct ot_fabric *f = NULL;
	struct ot_routing *r = NULL;
	FILE *in;

	if (fuzz_split(data, size, part, 2) < 2)
		return 0;
	in = fuzz_open(&part[0]);
	if (!in)
		return 0;
	f = ot_netfile_read(in, "fuzz-net", &err);
	fclose(in);
	if (f)
		r = ot_routing_new(f);
	in = r ? fuzz_open(&part[1]) : NULL;
	if (in && !ot_lft_read(in, "fuzz-lft", r, &err) && fuzz_sink()) {
		ot_lft_write(fuzz_sink(), r);
		ot_tables_write(fuzz_sink(), r);
	}
	if (in)
		fclose(in);
	ot_routing_free(r);
	ot_fabric_free(f);
	return 0;
}
