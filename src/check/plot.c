// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The picture of link balance (see src/check/traffic.h): one panel per
 * traffic pattern, the histogram of what the switch-to-switch links carry
 * under it, as a standalone SVG file that any browser shows.  It is the
 * checker's output for eyes: a well-balanced routing is a narrow spike,
 * a hot spot is a long tail, and links that carry nothing pile up at 0.
 * CA cables are left out: every CA's cable carries at most its own rate.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check/traffic.h"
#include "model/xml.h"

#define PLOT_WIDTH 720
#define PANEL_HEIGHT 170
#define MARGIN_LEFT 70
#define MARGIN_RIGHT 20
#define PANEL_TOP 34    /* room for the panel's title */
#define PANEL_BOTTOM 36 /* room for the x axis labels */
#define TITLE_HEIGHT 40
#define NBINS 40

/* Bins over [0, top]: bin k holds loads in [k, k+1) * top / NBINS. */
static uint64_t histogram(const struct ot_balance_report *rep,
			  const struct ot_pattern_load *p, double top,
			  uint64_t *bins)
{
	uint32_t l, n = ot_balance_nlinks(rep);
	uint64_t links = 0, most = 0;
	unsigned int k;

	memset(bins, 0, NBINS * sizeof(*bins));
	for (l = 0; l < n; l++) {
		if (ot_balance_link_kind(rep, l) != OT_LINK_NETWORK)
			continue;
		k = top > 0 ? (unsigned int)(p->load[l] / top * NBINS) : 0;
		if (k >= NBINS)
			k = NBINS - 1;
		bins[k]++;
		links++;
	}
	for (k = 0; k < NBINS; k++)
		if (bins[k] > most)
			most = bins[k];
	return links ? most : 0;
}

static void panel(FILE *out, const struct ot_balance_report *rep,
		  const struct ot_pattern_load *p, int y0)
{
	const int w = PLOT_WIDTH - MARGIN_LEFT - MARGIN_RIGHT;
	const int h = PANEL_HEIGHT - PANEL_TOP - PANEL_BOTTOM;
	const int base = y0 + PANEL_TOP + h;
	uint64_t bins[NBINS], most;
	/* the axis reaches the full link rate, so 1 is always in view */
	double top = p->base.max_network_load > 1 ? p->base.max_network_load :
						     1;
	unsigned int k;

	most = histogram(rep, p, top, bins);
	fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"h\">", MARGIN_LEFT,
		y0 + 20);
	ot_xml_text(out, p->name);
	fprintf(out,
		": throughput %.3f, max load %.3f (switch links %.3f), avg %.3f</text>\n",
		p->base.throughput, p->base.max_load,
		p->base.max_network_load, p->base.avg_load);
	fprintf(out,
		"<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"frame\"/>\n",
		MARGIN_LEFT, y0 + PANEL_TOP, w, h);
	for (k = 0; most && k < NBINS; k++) {
		double bh = (double)bins[k] / (double)most * h;

		if (!bins[k])
			continue;
		fprintf(out,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"bar\"><title>%.3f-%.3f: %" PRIu64
			" links</title></rect>\n",
			MARGIN_LEFT + (double)k * w / NBINS, base - bh,
			(double)w / NBINS - 1, bh, k * top / NBINS,
			(k + 1) * top / NBINS, bins[k]);
	}
	/* full link rate: beyond it a link is oversubscribed */
	fprintf(out,
		"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"rate\"/>\n",
		MARGIN_LEFT + w / top, y0 + PANEL_TOP, MARGIN_LEFT + w / top,
		base);
	fprintf(out,
		"<text x=\"%d\" y=\"%d\" class=\"t\" text-anchor=\"end\">%" PRIu64
		" links</text>\n",
		MARGIN_LEFT - 6, y0 + PANEL_TOP + 10, most);
	fprintf(out,
		"<text x=\"%d\" y=\"%d\" class=\"t\" text-anchor=\"end\">0</text>\n",
		MARGIN_LEFT - 6, base);
	for (k = 0; k <= 4; k++)
		fprintf(out,
			"<text x=\"%.1f\" y=\"%d\" class=\"t\" text-anchor=\"middle\">%.2f</text>\n",
			MARGIN_LEFT + k * w / 4.0, base + 16, k * top / 4);
	fprintf(out,
		"<text x=\"%d\" y=\"%d\" class=\"t\" text-anchor=\"middle\">load per switch-to-switch link (1 = full rate)</text>\n",
		MARGIN_LEFT + w / 2, base + 31);
}

int ot_balance_plot_svg(FILE *out, const struct ot_balance_report *rep,
			const char *title)
{
	unsigned int i, n = ot_balance_npatterns(rep);
	int height = TITLE_HEIGHT + (int)n * PANEL_HEIGHT + 10;

	fprintf(out,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n"
		"<style>\n"
		"text { font-family: sans-serif; }\n"
		".h { font-size: 13px; font-weight: bold; }\n"
		".t { font-size: 11px; }\n"
		".frame { fill: none; stroke: #888; }\n"
		".bar { fill: #3a6ea5; }\n"
		".rate { stroke: #c0392b; stroke-dasharray: 4 3; }\n"
		"</style>\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		PLOT_WIDTH, height, PLOT_WIDTH, height);
	fprintf(out, "<text x=\"%d\" y=\"24\" class=\"h\">", MARGIN_LEFT);
	if (title) {
		ot_xml_text(out, title);
		fputs(": ", out);
	}
	fprintf(out, "link loads, %" PRIu32 " CAs (%s order) injecting 1</text>\n",
		ot_balance_ncas(rep),
		ot_ca_order_name(ot_balance_ca_order(rep)));
	for (i = 0; i < n; i++)
		panel(out, rep, ot_balance_pattern(rep, i),
		      TITLE_HEIGHT + (int)i * PANEL_HEIGHT);
	fprintf(out, "</svg>\n");
	return ferror(out) ? -1 : 0;
}
