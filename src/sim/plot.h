/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The simulator's picture: accepted throughput and mean latency against
 * offered load, as a standalone SVG file.  One chart per row (a pattern
 * of `osmtopo compare`, or all of `osmtopo simulate`'s patterns), two
 * panels each (accepted, latency), one curve per series (an engine, or a
 * pattern), a legend entry per series.  A point the simulation found
 * deadlocked is not drawn as a figure: the curve stops there, the load is
 * marked with a cross on the axis and the legend says "deadlock at ...".
 * A series with no point at all (an engine that did not route, or whose
 * simulation failed) is a legend entry with its note and no curve.
 */
#ifndef OSMTOPO_SIM_PLOT_H
#define OSMTOPO_SIM_PLOT_H

#include <stdbool.h>
#include <stdio.h>

struct ot_plot_point {
	double offered;     /* fraction of the link rate, (0, 1] */
	double accepted;    /* mean accepted throughput, same unit */
	double lat_mean_ns; /* mean latency, generation to delivery */
	bool deadlock;      /* the run deadlocked: no figure */
};

struct ot_plot_series {
	const char *name;
	const struct ot_plot_point *pt; /* in increasing offered load */
	unsigned int npt;
	double saturation; /* < 0: none; else shown in the legend */
	bool saturation_deadlock; /* the saturation run deadlocked */
	const char *note;  /* shown in the legend when there is no point */
};

struct ot_plot_chart {
	const char *title; /* a pattern's name */
	const struct ot_plot_series *series;
	unsigned int nseries;
};

/*
 * The charts one under the other, titled title; 0, or -1 when writing
 * failed.  Every drawn point lies in its panel: accepted is clamped to
 * [0, 1], latency scaled to its chart's largest non-deadlocked figure.
 */
int ot_plot_svg(FILE *out, const char *title,
		const struct ot_plot_chart *chart, unsigned int ncharts);

#endif
