// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * OpenSM's log, read as it grows (see osmlog.h).  The lines it looks for
 * are OpenSM 3.3.23's own: "building routing with 'E'" (osm_ucast_mgr.c),
 * "E tables configured on all switches", "No routing engine able",
 * ucast_mgr_route's "E: cannot build lid matrices", "SUBNET UP".
 */
#define _GNU_SOURCE /* strcasestr */
#include <stdio.h>
#include <string.h>

#include "osmlog.h"
#include "util.h"

int osm_tail_next(struct osm_tail *t)
{
	long pos;

	if (!t->f) {
		t->f = fopen(t->path, "r");
		if (!t->f)
			return 0;
	}
	pos = ftell(t->f);
	if (!fgets(t->line, sizeof(t->line), t->f)) {
		clearerr(t->f);
		return 0;
	}
	if (!strchr(t->line, '\n') && strlen(t->line) < sizeof(t->line) - 1) {
		fseek(t->f, pos, SEEK_SET);
		return 0;
	}
	return 1;
}

void osm_tail_close(struct osm_tail *t)
{
	if (t->f)
		fclose(t->f);
	t->f = NULL;
}

void osm_watch_init(struct osm_watch *w, const char *path, const char *engine,
		    bool no_fallback)
{
	memset(w, 0, sizeof(*w));
	snprintf(w->tail.path, sizeof(w->tail.path), "%s", path);
	snprintf(w->engine, sizeof(w->engine), "%s", engine ? engine : "");
	w->no_fallback = no_fallback;
}

void osm_watch_close(struct osm_watch *w)
{
	osm_tail_close(&w->tail);
}

/* Seconds of the day of an OpenSM log line ("Nov 21 06:46:46 731134 ["). */
static bool osm_log_time(const char *line, double *t)
{
	int h, m, s;
	long us;

	if (sscanf(line, "%*s %*d %d:%d:%d %ld", &h, &m, &s, &us) != 4)
		return false;
	*t = h * 3600.0 + m * 60.0 + s + us / 1e6;
	return true;
}

/* The message of an OpenSM log line at level (" 0x01 -> msg"), or NULL. */
static const char *osm_log_msg(const char *line, const char *level)
{
	const char *p = strstr(line, level);

	return p ? p + strlen(level) : NULL;
}

void osm_watch_reason(struct osm_watch *w)
{
	if (w->reason[0])
		return;
	if (w->first_err[0])
		snprintf(w->reason, sizeof(w->reason), "%s", w->first_err);
	else if (w->last_info[0])
		snprintf(w->reason, sizeof(w->reason), "%s", w->last_info);
}

/*
 * The first error of the engine.  ftree lists the switches it objects to
 * on lines of their own after "...on switches:": those are the reason.
 */
static void osm_watch_error(struct osm_watch *w, const char *msg)
{
	size_t n = strcspn(msg, "\n");

	snprintf(w->first_err, sizeof(w->first_err), "%.*s", (int)n, msg);
	w->err_open = n && msg[n - 1] == ':';
}

/* A line continuing the first error (indented): true if it was one. */
static bool osm_watch_continued(struct osm_watch *w, const char *line)
{
	size_t len = strlen(w->first_err);

	if (!w->err_open)
		return false;
	if (line[0] != ' ' && line[0] != '\t') {
		w->err_open = false;
		return false;
	}
	line += strspn(line, " \t");
	snprintf(w->first_err + len, sizeof(w->first_err) - len, "%s%.*s",
		 w->first_err[len - 1] == ':' ? " " : "; ",
		 (int)strcspn(line, "\n"), line);
	return true;
}

/* "building routing with 'E'": an engine starts. */
static bool osm_watch_building(struct osm_watch *w, const char *line)
{
	static const char key[] = "building routing with '";
	const char *p = strstr(line, key);

	if (!p)
		return false;
	/* The engine before this one gave up: say why. */
	if (w->requested_built)
		osm_watch_reason(w);
	p += strlen(key);
	snprintf(w->building, sizeof(w->building), "%.*s",
		 (int)strcspn(p, "'"), p);
	w->have_start = osm_log_time(line, &w->build_start);
	if (!w->engine[0] || !strcmp(w->building, w->engine))
		w->requested_built = true;
	return true;
}

/* "E tables configured on all switches": E routed, in this time. */
static bool osm_watch_configured(struct osm_watch *w, const char *line)
{
	const char *p, *q;
	double t;

	if (w->done || !strstr(line, "tables configured on all switches"))
		return false;
	w->done = true;
	snprintf(w->used, sizeof(w->used), "%s", w->building);
	/* "osm_ucast_mgr_process: E tables configured ...": at any level */
	p = strstr(line, " tables configured on all switches");
	for (q = p; q && q > line && q[-1] != ' '; q--)
		;
	if (q && q < p)
		snprintf(w->used, sizeof(w->used), "%.*s", (int)(p - q), q);
	if (w->have_start && osm_log_time(line, &t)) {
		/* A sweep across midnight. */
		if (t < w->build_start)
			t += 86400;
		w->route_ms = (t - w->build_start) * 1000;
		w->have_time = true;
	}
	return true;
}

/*
 * The sweep failed: "No routing engine able", or ucast_mgr_route's own
 * "ENGINE: cannot build lid matrices" (or fwd tables), which with no
 * engine to fall back to is the end even if the summary never comes.
 */
static bool osm_watch_failure(struct osm_watch *w, const char *line)
{
	const char *p = osm_log_msg(line, " 0x01 -> ucast_mgr_route: ");
	size_t n = strlen(w->engine);

	if (!strstr(line, "No routing engine able") &&
	    !(p && n && w->no_fallback && w->requested_built &&
	      !strncmp(p, w->engine, n) && !strncmp(p + n, ": cannot ", 9)))
		return false;
	osm_watch_reason(w);
	w->failed = true;
	return true;
}

/* Errors and notes that may be the reason the engine asked for fails. */
static void osm_watch_engine_says(struct osm_watch *w, const char *line)
{
	const char *p;

	/*
	 * Before any routing: the engine unknown, the plugin not loaded.
	 * OpenSM 3.3.23 takes no_fallback for an engine name and logs that
	 * it cannot set that one up, which is no reason of the engine's.
	 */
	if (!w->building[0]) {
		p = osm_log_msg(line, " 0x01 -> ");
		if (p && !w->first_err[0] && !strstr(p, "'no_fallback'") &&
		    ((w->engine[0] && strstr(p, w->engine)) ||
		     strstr(p, "plugin")))
			osm_watch_error(w, p);
		return;
	}
	if (w->engine[0] && strcmp(w->building, w->engine))
		return;
	p = osm_log_msg(line, " 0x01 -> ");
	if (p && !w->first_err[0] && strncmp(p, "ucast_mgr_route:", 16))
		osm_watch_error(w, p);
	p = osm_log_msg(line, " 0x02 -> ");
	if (p)
		snprintf(w->last_info, sizeof(w->last_info), "%.*s",
			 (int)strcspn(p, "\n"), p);
}

/* The engine that gave up, with the best reason its segment of log holds. */
static void osm_tried_push(struct osm_watch *w, const char *engine,
			   size_t len, const char *fallback)
{
	struct osm_tried *t;
	const char *why = w->seg_err[0] ? w->seg_err : NULL;
	unsigned int i;

	/* updn says why at INFO ("disabling UPDN algorithm, no root ..."). */
	for (i = w->nseg_info; !why && i > 0 && w->nseg_info - i < 8; i--) {
		const char *info = w->seg_info[(i - 1) % 8];
		char name[64];

		snprintf(name, sizeof(name), "%.*s", (int)len, engine);
		if (strcasestr(info, name))
			why = info;
	}
	if (w->ntried < OSM_WATCH_TRIED) {
		t = &w->tried[w->ntried++];
		snprintf(t->engine, sizeof(t->engine), "%.*s", (int)len,
			 engine);
		snprintf(t->reason, sizeof(t->reason), "%s",
			 why ? why : fallback);
	}
	w->seg_err[0] = '\0';
	w->seg_refusal = false;
	w->nseg_info = 0;
}

/*
 * The engines OpenSM gives up on in the first sweep, and why: an engine
 * it does not know ("cannot find or setup routing engine 'E'", at
 * setup), or one that fails ("ucast_mgr_route: E: cannot build ...")
 * after saying why -- osmtopo's engines with "ERR 5E0x: E: cannot route
 * this fabric ..." (INFO when another engine takes over), OpenSM's at
 * ERROR or, updn, at INFO.  Also a class table the plugin rejected.
 */
static void osm_watch_tried(struct osm_watch *w, const char *line)
{
	static const char unknown[] = "cannot find or setup routing engine '";
	const char *p, *msg;
	size_t n;
	char why[128];

	p = strstr(line, unknown);
	if (p) {
		p += strlen(unknown);
		n = strcspn(p, "'");
		if (n && strncmp(p, "no_fallback", n)) {
			snprintf(why, sizeof(why),
				 "OpenSM has no routing engine '%.*s'",
				 (int)(n < 64 ? n : 64), p);
			w->seg_err[0] = '\0';
			osm_tried_push(w, p, n, why);
		}
		return;
	}
	p = osm_log_msg(line, " 0x01 -> ucast_mgr_route: ");
	if (p) {
		n = strcspn(p, ":\n");
		if (!strncmp(p + n, ": cannot ", 9)) {
			snprintf(why, sizeof(why), "%.*s", 100,
				 p + n + 2);
			why[strcspn(why, "\n")] = '\0';
			osm_tried_push(w, p, n, why);
		}
		return;
	}
	msg = osm_log_msg(line, " -> ");
	if (!msg)
		return;
	p = strstr(msg, "ERR 5E0");
	if (p && strstr(p, "QoS class table: ")) {
		snprintf(w->classes_off, sizeof(w->classes_off), "%.*s",
			 (int)strcspn(p, "\n"), p);
		return;
	}
	if (p && !w->seg_refusal) {
		snprintf(w->seg_err, sizeof(w->seg_err), "%.*s",
			 (int)strcspn(p, "\n"), p);
		w->seg_refusal = true;
		return;
	}
	if (osm_log_msg(line, " 0x01 -> ") && !w->seg_err[0] &&
	    !strstr(msg, "setup_routing_engines: "))
		snprintf(w->seg_err, sizeof(w->seg_err), "%.*s",
			 (int)strcspn(msg, "\n"), msg);
	else if (osm_log_msg(line, " 0x02 -> "))
		snprintf(w->seg_info[w->nseg_info++ % 8],
			 sizeof(w->seg_info[0]), "%.*s",
			 (int)strcspn(msg, "\n"), msg);
}

void osm_watch_report(const struct osm_watch *w, FILE *out, const char *who)
{
	unsigned int i;
	char hint[1024];

	for (i = 0; i < w->ntried; i++) {
		const struct osm_tried *t = &w->tried[i];

		fprintf(out, "%s: %s did not route the fabric: %s\n", who,
			t->engine, t->reason);
		if (strstr(t->reason, "OpenSM has no routing engine")) {
			tool_engine_hint(t->engine, true, hint, sizeof(hint));
			fprintf(out, "%s:   %s\n", who, hint);
		}
	}
	if (w->done)
		fprintf(out, "%s: %s routed the fabric%s\n", who, w->used,
			w->classes_off[0] ? " without service classes" : "");
	else
		fprintf(out, "%s: no engine routed the fabric\n", who);
	if (w->classes_off[0])
		fprintf(out, "%s:   %s\n", who, w->classes_off);
}

static void osm_watch_line(struct osm_watch *w, const char *line)
{
	if (!w->done)
		osm_watch_tried(w, line);
	if (osm_watch_continued(w, line) || osm_watch_building(w, line) ||
	    osm_watch_configured(w, line) || osm_watch_failure(w, line))
		return;
	if (strstr(line, "SUBNET UP")) {
		w->up = true;
		return;
	}
	if (!w->done)
		osm_watch_engine_says(w, line);
}

void osm_watch_poll(struct osm_watch *w)
{
	while (!w->failed && osm_tail_next(&w->tail))
		osm_watch_line(w, w->tail.line);
}
