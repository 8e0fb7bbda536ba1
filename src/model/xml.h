/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Text inside an XML document (the SVG plots of `check` and `simulate`):
 * the five characters XML gives meaning to, escaped; control characters,
 * which XML 1.0 does not allow, as spaces.  A header only, so the
 * plugin, which writes no XML, carries none of it.
 */
#ifndef OSMTOPO_XML_H
#define OSMTOPO_XML_H

#include <stdio.h>

static inline void ot_xml_text(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&apos;", out);
			break;
		default:
			fputc((unsigned char)*s < 0x20 ? ' ' : *s, out);
		}
	}
}

#endif
