/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Reading OpenSM's log while OpenSM writes it: which engine routed the
 * fabric and how long it took ("building routing with" to "tables
 * configured"), whether the subnet came up, and, when the engine asked
 * for failed, its own reason.  `osmtopo sim opensm` waits on it and
 * `osmtopo compare` fills its rows from it.  OpenSM must flush its log
 * line by line (force_log_flush TRUE, as sim.c configures it); the
 * "building routing" line is at VERBOSE (log_flags 0x07).
 */
#ifndef OSMTOPO_TOOL_OSMLOG_H
#define OSMTOPO_TOOL_OSMLOG_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

/*
 * A log another process is writing, read line by line as it grows: a
 * line without its newline yet is left for the next look.
 */
struct osm_tail {
	FILE *f;
	char path[PATH_MAX];
	char line[4096];
};

/* The next whole line in t->line: 1, or 0 when there is none yet. */
int osm_tail_next(struct osm_tail *t);
void osm_tail_close(struct osm_tail *t);

#define OSM_REASON_LEN 1024 /* a reason, whole: refusals run long */
#define OSM_WATCH_TRIED 16

/* An engine of routing_engine that did not route the first sweep. */
struct osm_tried {
	char engine[64];
	char reason[OSM_REASON_LEN]; /* from OpenSM's log */
};

/* What OpenSM's log says of the sweep so far. */
struct osm_watch {
	/* Set by osm_watch_init(): what was asked for. */
	char engine[64];  /* the engine asked for; "" for any */
	bool no_fallback; /* its failure is the sweep's */

	/* What the log said. */
	bool done;            /* an engine's "tables configured" */
	bool up;              /* SUBNET UP */
	bool failed;          /* no engine routed (or the asked one failed
			       * with no_fallback) */
	bool requested_built; /* the engine asked for was tried */
	char used[64];        /* the engine whose tables were configured */
	double route_ms;      /* its routing time, when have_time */
	bool have_time;
	char reason[OSM_REASON_LEN]; /* why the engine asked for failed */
	/*
	 * The engines OpenSM gave up on before one routed (or none did),
	 * in order, with their reasons; read at any log level (0x03 too).
	 */
	struct osm_tried tried[OSM_WATCH_TRIED];
	unsigned int ntried;
	/* The engine routed without osmtopo's classes: the plugin's ERR. */
	char classes_off[OSM_REASON_LEN];

	/* Reading state. */
	char building[64]; /* engine of the last "building routing" */
	double build_start;
	bool have_start;
	/*
	 * Engines say why they fail at ERROR (ftree: "ERR AB09: Different
	 * number of upward port groups") or at INFO (updn: "no root nodes
	 * were found"), and OpenSM then adds only "cannot build lid
	 * matrices".
	 */
	char first_err[OSM_REASON_LEN], last_info[OSM_REASON_LEN];
	bool err_open; /* first_err ended in ':', its lines follow */
	/* Since the last engine gave up: its likely reasons. */
	char seg_err[OSM_REASON_LEN]; /* first error, a refusal first */
	bool seg_refusal;             /* seg_err is an osmtopo ERR 5E0x */
	char seg_info[8][512];        /* the last INFO lines, a ring */
	unsigned int nseg_info;
	struct osm_tail tail;
};

/* Watches the log at path (it may not exist yet). */
void osm_watch_init(struct osm_watch *w, const char *path, const char *engine,
		    bool no_fallback);

/* Takes in the lines written since the last call. */
void osm_watch_poll(struct osm_watch *w);

/*
 * Settles w->reason from the errors seen (the engine's own reason first,
 * OpenSM's generic one last), unless it is already set.
 */
void osm_watch_reason(struct osm_watch *w);

void osm_watch_close(struct osm_watch *w);

/*
 * Says on out, each line after who ("osmtopo sim opensm"), which engines
 * did not route and why, then which one did (or that none did).
 */
void osm_watch_report(const struct osm_watch *w, FILE *out, const char *who);

#endif
