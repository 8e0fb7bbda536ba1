// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Throughput and latency against offered load (see plot.h), drawn by
 * hand as SVG: a chart per row, the accepted panel on the left, the
 * latency panel on the right, each series a group of class "curve" (its
 * polylines, point markers and deadlock crosses) and a legend line of
 * class "legend", so that a test or a script can count them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/xml.h"
#include "sim/plot.h"

#define PLOT_W 900
#define PANEL_X0 70
#define PANEL_W 340
#define PANEL_H 220
#define PANEL_GAP 110
#define CHART_TOP 50 /* the chart's title and the panels' titles */
#define AXIS_LABELS 40
#define LEGEND_LINE 16
#define TITLE_H 30

static const char *const colour[] = { "#1f77b4", "#ff7f0e", "#2ca02c",
				      "#d62728", "#9467bd", "#8c564b",
				      "#e377c2", "#7f7f7f", "#bcbd22",
				      "#17becf" };

static double clamp01(double v)
{
	return !(v > 0) ? 0 : v > 1 ? 1 : v;
}

static unsigned int chart_height(const struct ot_plot_chart *c)
{
	return CHART_TOP + PANEL_H + AXIS_LABELS + LEGEND_LINE * c->nseries +
	       10;
}

/* The largest latency of the chart's points that did not deadlock. */
static double chart_lmax(const struct ot_plot_chart *c)
{
	double lmax = 0;
	unsigned int i, j;

	for (i = 0; i < c->nseries; i++)
		for (j = 0; j < c->series[i].npt; j++)
			if (!c->series[i].pt[j].deadlock &&
			    c->series[i].pt[j].lat_mean_ns > lmax)
				lmax = c->series[i].pt[j].lat_mean_ns;
	return lmax > 0 ? lmax : 1;
}

static void panel_frame(FILE *out, double px, double py, int latency,
			double lmax)
{
	fprintf(out,
		"<rect class=\"axes\" x=\"%.0f\" y=\"%.0f\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"black\"/>\n",
		px, py, PANEL_W, PANEL_H);
	fprintf(out, "<text x=\"%.0f\" y=\"%.0f\">%s</text>\n", px, py - 8,
		latency ? "mean latency (ns) against offered load" :
			  "accepted against offered load (fraction of link rate)");
	fprintf(out,
		"<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">0</text>"
		"<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">0.5</text>"
		"<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">1</text>\n",
		px, py + PANEL_H + 14, px + PANEL_W / 2.0, py + PANEL_H + 14,
		px + PANEL_W, py + PANEL_H + 14);
	fprintf(out,
		"<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">0</text>"
		"<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">%.*f</text>\n",
		px - 4, py + PANEL_H, px - 4, py + 10, latency ? 0 : 1,
		latency ? lmax : 1.0);
	fprintf(out,
		"<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">offered load</text>\n",
		px + PANEL_W / 2.0, py + PANEL_H + 30);
}

/* One series in one panel: polylines over runs of live points. */
static void panel_series(FILE *out, const struct ot_plot_series *s,
			 double px, double py, int latency, double lmax)
{
	unsigned int j, run = 0;

	for (j = 0; j <= s->npt; j++) {
		const struct ot_plot_point *x = j < s->npt ? &s->pt[j] : NULL;

		if (!x || x->deadlock) {
			if (run)
				fputs("\"/>\n", out);
			run = 0;
			if (x) /* a cross on the load axis */
				fprintf(out,
					"<path class=\"deadlock\" d=\"M%.1f,%.1f l8,-8 m-8,0 l8,8\" transform=\"translate(-4,4)\"/>\n",
					px + PANEL_W * clamp01(x->offered),
					py + PANEL_H - 4);
			continue;
		}
		if (!run++)
			fputs("<polyline fill=\"none\" points=\"", out);
		fprintf(out, "%.1f,%.1f ", px + PANEL_W * clamp01(x->offered),
			py + PANEL_H -
				PANEL_H * clamp01(latency ? x->lat_mean_ns / lmax :
							    x->accepted));
	}
	for (j = 0; j < s->npt; j++)
		if (!s->pt[j].deadlock)
			fprintf(out, "<circle r=\"2.5\" cx=\"%.1f\" cy=\"%.1f\"/>\n",
				px + PANEL_W * clamp01(s->pt[j].offered),
				py + PANEL_H -
					PANEL_H * clamp01(latency ?
						s->pt[j].lat_mean_ns / lmax :
						s->pt[j].accepted));
}

static void legend(FILE *out, const struct ot_plot_series *s, double x,
		   double y, const char *col)
{
	unsigned int j, ndl = 0;

	fprintf(out, "<text class=\"legend\" x=\"%.0f\" y=\"%.0f\" fill=\"%s\">",
		x, y, col);
	ot_xml_text(out, s->name);
	if (s->saturation_deadlock)
		fputs(" (saturation: DEADLOCK)", out);
	else if (s->saturation >= 0)
		fprintf(out, " (saturation %.3f)", s->saturation);
	for (j = 0; j < s->npt; j++) {
		if (!s->pt[j].deadlock)
			continue;
		fprintf(out, "%s%.2f", ndl++ ? ", " : ": DEADLOCK at offered ",
			s->pt[j].offered);
	}
	if (!s->npt) {
		fputs(": no curve", out);
		if (s->note && *s->note) {
			fputs(" (", out);
			ot_xml_text(out, s->note);
			fputs(")", out);
		}
	}
	fputs("</text>\n", out);
}

static void chart(FILE *out, const struct ot_plot_chart *c, double y)
{
	double lmax = chart_lmax(c), py = y + CHART_TOP;
	unsigned int i;
	int panel;

	fputs("<g class=\"chart\" data-title=\"", out);
	ot_xml_text(out, c->title);
	fputs("\">\n", out);
	fprintf(out, "<text x=\"%d\" y=\"%.0f\" font-weight=\"bold\">", 10,
		y + 18);
	ot_xml_text(out, c->title);
	fputs("</text>\n", out);
	for (panel = 0; panel < 2; panel++)
		panel_frame(out, PANEL_X0 + panel * (PANEL_W + PANEL_GAP), py,
			    panel, lmax);
	for (i = 0; i < c->nseries; i++) {
		const char *col = colour[i % (sizeof(colour) / sizeof(*colour))];

		fputs("<g class=\"curve\" data-name=\"", out);
		ot_xml_text(out, c->series[i].name);
		fprintf(out, "\" stroke=\"%s\" fill=\"%s\">\n", col, col);
		for (panel = 0; panel < 2; panel++)
			panel_series(out, &c->series[i],
				     PANEL_X0 + panel * (PANEL_W + PANEL_GAP),
				     py, panel, lmax);
		fputs("</g>\n", out);
		legend(out, &c->series[i], PANEL_X0,
		       py + PANEL_H + AXIS_LABELS + LEGEND_LINE * (i + 1), col);
	}
	fputs("</g>\n", out);
}

int ot_plot_svg(FILE *out, const char *title,
		const struct ot_plot_chart *c, unsigned int ncharts)
{
	unsigned int i, height = TITLE_H;
	double y = TITLE_H;

	for (i = 0; i < ncharts; i++)
		height += chart_height(&c[i]);
	fprintf(out,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%u\" viewBox=\"0 0 %d %u\" font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		PLOT_W, height, PLOT_W, height);
	fprintf(out, "<text x=\"10\" y=\"20\" font-size=\"15\">");
	ot_xml_text(out, title);
	fputs("</text>\n", out);
	for (i = 0; i < ncharts; i++) {
		chart(out, &c[i], y);
		y += chart_height(&c[i]);
	}
	fputs("</svg>\n", out);
	return ferror(out) ? -1 : 0;
}
