/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A log-linear histogram of latencies in ticks for the simulator's
 * percentiles: exact below 64, then 64 bins per power of two, so a
 * percentile read from it is within 1/64 (1.6 %) of the sample's.
 */
#ifndef OSMTOPO_SIM_HIST_H
#define OSMTOPO_SIM_HIST_H

#include <stdint.h>

#define OT_HIST_BINS (64 * 28)

static inline unsigned int ot_hist_bin(uint32_t v)
{
	unsigned int e = 0;

	if (v < 128)
		return v;
	while ((v >> e) >= 128)
		e++;
	return 64 * e + (v >> e);
}

/* The smallest value of bin b. */
static inline uint32_t ot_hist_low(unsigned int b)
{
	unsigned int e;

	if (b < 128)
		return b;
	e = (b - 64) / 64;
	return (uint32_t)(b - 64 * e) << e;
}

/* The value under which a fraction q of the n samples lie. */
static inline uint32_t ot_hist_quantile(const uint64_t *h, uint64_t n,
					double q)
{
	uint64_t want = (uint64_t)(q * (double)n), seen = 0;
	unsigned int b;

	if (!n)
		return 0;
	for (b = 0; b < OT_HIST_BINS; b++) {
		seen += h[b];
		if (seen > want)
			return ot_hist_low(b);
	}
	return ot_hist_low(OT_HIST_BINS - 1);
}

#endif
