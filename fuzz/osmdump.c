// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Fuzzes the OpenSM dump reader (ot_osmdump_read): the input is
 * opensm-subnet.lst FUZZ_SEP opensm-lfts.dump [FUZZ_SEP opensm-sl2vl.dump],
 * and what it accepts is written back (ot_tables_write).
 */
#include "fuzz/fuzz.h"
#include "io/lftfile.h"
#include "io/osmdump.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_part part[3];
	struct ot_error err = { 0 };
	struct ot_fabric *f = NULL;
	struct ot_routing *r = NULL;
	FILE *in[3] = { NULL, NULL, NULL };
	unsigned int n = fuzz_split(data, size, part, 3), i;

	if (n < 2)
		return 0;
	for (i = 0; i < n; i++)
		if (!(in[i] = fuzz_open(&part[i])))
			goto out;
	if (!ot_osmdump_read(in[0], in[1], in[2], "fuzz", &f, &r, &err) &&
	    fuzz_sink())
		ot_tables_write(fuzz_sink(), r);
out:
	for (i = 0; i < n; i++)
		if (in[i])
			fclose(in[i]);
	ot_routing_free(r);
	ot_fabric_free(f);
	return 0;
}
