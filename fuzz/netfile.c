// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Fuzzes the net file / ibnetdiscover reader (ot_netfile_read), then
 * writes what it accepted back (ot_netfile_write): a fabric the reader
 * lets through must be one the rest of the tool can handle.
 */
#include "fuzz/fuzz.h"
#include "io/netfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_part all = { data, size };
	struct ot_error err = { 0 };
	struct ot_fabric *f;
	FILE *in = fuzz_open(&all);

	if (!in)
		return 0;
	f = ot_netfile_read(in, "fuzz", &err);
	fclose(in);
	if (f && fuzz_sink())
		ot_netfile_write(fuzz_sink(), f, "fuzz");
	ot_fabric_free(f);
	return 0;
}
