// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * `osmtopo compare NETFILE ENGINE...`: the whole flow, once per engine, on
 * a simulated fabric, ending in one table.  For each engine it starts
 * ibsim on NETFILE, then stock OpenSM with QoS on, only that engine in
 * routing_engine (with no_fallback, unless --fallback) and osmtopo's
 * plugin loaded (so osmtopo's engines are there too), waits for SUBNET UP,
 * reads from OpenSM's log whether the engine routed and how long it took,
 * and runs `osmtopo check --live --json` against the programmed fabric
 * while OpenSM still answers PathRecord queries.  With no_fallback a
 * failed engine never brings the subnet up (OpenSM re-sweeps for ever), so
 * the failure is read from the log and OpenSM stopped; with --fallback
 * minhop routes instead, and the row says so.
 * Everything runs in its own temporary directory with its own ibsim
 * socket, so several comparisons (and tests) can run side by side, and
 * every process started is stopped by its PID.
 */
#define _GNU_SOURCE /* nftw's FTW_DEPTH and FTW_PHYS */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "io/netfile.h"
#include "options.h"

#define CMP_UMAD2SIM "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so"
#define CMP_MAX_PATTERNS 16
#define CMP_POLL_NS 100000000L /* 0.1 s between looks at a log */

static const struct tool_option cmp_options[] = {
	{ "json", 'j', NULL,
	  "print the rows as one JSON object (with each check report)" },
	{ "plugin-dir", 'd', "DIR",
	  "where libosmtopo.so is (default: .libs next to osmtopo, else"
	  " the library search path)" },
	{ "timeout", 't', "S",
	  "seconds each step may take (default 120)" },
	{ "keep", 'k', NULL,
	  "keep the work directory (logs of ibsim, OpenSM, check)" },
	{ "no-fallback", 'n', NULL,
	  "only the engine asked for: a failure is a \"no\" row (default)" },
	{ "fallback", 'F', NULL,
	  "let OpenSM fall back to minhop and check what that routed" },
	{ "osm-option", 'o', "[ENG:]K=V",
	  "add the line \"K V\" to OpenSM's config (of ENG's run only);"
	  " repeatable" },
	{ "help", 'h', NULL, "this help" },
};

#define NOPTIONS (sizeof(cmp_options) / sizeof(cmp_options[0]))

/* One --osm-option: a line "key value" of OpenSM's config. */
struct cmp_osm_option {
	char engine[64]; /* only this engine's run; "" for every run */
	char key[64];
	char value[PATH_MAX];
};

struct cmp_args {
	bool json, keep;
	bool fallback; /* leave OpenSM's fallback to minhop on */
	const char *plugin_dir;
	unsigned int timeout;
	char netfile[PATH_MAX];
	char **engines;
	int nengines;
	struct cmp_osm_option *osm_opts; /* room for argc of them */
	unsigned int nosm_opts;
};

enum cmp_status {
	CMP_ROUTED,   /* the engine asked for routed the fabric */
	CMP_FALLBACK, /* another engine did */
	CMP_FAILED,   /* no engine did (with no_fallback: the engine failed) */
	CMP_TIMEOUT,  /* no SUBNET UP in time */
	CMP_ERROR,    /* ibsim, OpenSM or the checker would not run */
};

static const char *const cmp_status_name[] = {
	[CMP_ROUTED] = "routed",     [CMP_FALLBACK] = "fallback",
	[CMP_FAILED] = "failed",     [CMP_TIMEOUT] = "timeout",
	[CMP_ERROR] = "error",
};

struct cmp_pattern {
	char name[32];
	double throughput;
};

struct cmp_row {
	const char *engine;
	enum cmp_status status;
	char used[64];  /* the engine OpenSM says routed, "" if none */
	char note[256]; /* why it failed or fell back */
	double route_ms;
	bool have_time;
	bool checked;   /* the checker ran and its numbers below are set */
	bool check_ok;
	uint64_t pairs, unreachable, looping;
	unsigned int vls, credit_loops, max_hops;
	double avg_hops;
	struct cmp_pattern pat[CMP_MAX_PATTERNS];
	unsigned int npat;
	char *check_json; /* the checker's report as it printed it */
};

/* ------------------------------------------------------------------ */
/* Children                                                           */
/* ------------------------------------------------------------------ */

/* PIDs to stop if we are interrupted: ibsim, OpenSM, the checker. */
static volatile pid_t cmp_children[3];

static void cmp_on_signal(int sig)
{
	unsigned int i;

	for (i = 0; i < 3; i++)
		if (cmp_children[i] > 0)
			kill(cmp_children[i], SIGTERM);
	_exit(128 + sig);
}

/*
 * Starts argv[0] (searched in PATH) in dir with output to log and the
 * given NAME=VALUE pairs added to its environment.  The PID, or -1.
 */
static pid_t cmp_spawn(const char *const argv[], const char *dir,
		       const char *log, const char *const env[])
{
	pid_t pid = fork();
	unsigned int i;
	int fd;

	if (pid != 0)
		return pid;
	/* The child (the parent has one thread: stdio and setenv are safe). */
	if (chdir(dir))
		_exit(127);
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		_exit(127);
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	close(fd);
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		close(fd);
	}
	for (i = 0; env && env[i]; i += 2)
		setenv(env[i], env[i + 1], 1);
	/* exec never writes to its arguments; the cast only drops const. */
	execvp(argv[0], (char *const *)argv);
	fprintf(stderr, "osmtopo compare: cannot run %s: %s\n", argv[0],
		strerror(errno));
	_exit(127);
}

static void cmp_sleep_poll(void)
{
	struct timespec ts = { 0, CMP_POLL_NS };

	nanosleep(&ts, NULL);
}

static double cmp_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Has pid exited?  Reaps it and sets *status if so. */
static bool cmp_exited(pid_t pid, int *status)
{
	int st = 0;

	if (waitpid(pid, &st, WNOHANG) != pid)
		return false;
	if (status)
		*status = st;
	return true;
}

/* SIGTERM, up to 5 s to go, then SIGKILL. */
static void cmp_stop(volatile pid_t *slot)
{
	pid_t pid = *slot;
	double until;

	if (pid <= 0)
		return;
	kill(pid, SIGTERM);
	until = cmp_now() + 5;
	while (!cmp_exited(pid, NULL)) {
		if (cmp_now() > until) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			break;
		}
		cmp_sleep_poll();
	}
	*slot = 0;
}

/* Waits until a child exits, up to timeout seconds.  Its wait status,
 * or -1 (then it was killed). */
static int cmp_wait(volatile pid_t *slot, unsigned int timeout)
{
	double until = cmp_now() + timeout;
	int st = 0;

	while (!cmp_exited(*slot, &st)) {
		if (cmp_now() > until) {
			cmp_stop(slot);
			return -1;
		}
		cmp_sleep_poll();
	}
	*slot = 0;
	return st;
}

/* ------------------------------------------------------------------ */
/* Logs                                                               */
/* ------------------------------------------------------------------ */

/*
 * A log another process is writing, read line by line as it grows: a
 * line without its newline yet is left for the next look.
 */
struct cmp_tail {
	FILE *f;
	const char *path;
	char line[4096];
};

/* The next whole line in t->line: 1, or 0 when there is none yet. */
static int cmp_tail_next(struct cmp_tail *t)
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

static void cmp_tail_close(struct cmp_tail *t)
{
	if (t->f)
		fclose(t->f);
	t->f = NULL;
}

/* Waits for a line holding text; 0, or -1 (timeout or the writer died). */
static int cmp_wait_line(struct cmp_tail *t, const char *text, pid_t writer,
			 unsigned int timeout)
{
	double until = cmp_now() + timeout;

	for (;;) {
		while (cmp_tail_next(t))
			if (strstr(t->line, text))
				return 0;
		if (cmp_now() > until || kill(writer, 0))
			return -1;
		cmp_sleep_poll();
	}
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

/* What OpenSM's log says of the sweep, line by line. */
struct osm_watch {
	char building[64]; /* engine of the last "building routing" */
	double build_start;
	bool have_start;
	bool requested_built; /* the requested engine was tried */
	bool no_fallback;     /* the engine's failure is the sweep's */
	bool done, up, failed;
	/*
	 * Why the requested engine failed: engines say it at ERROR (ftree:
	 * "ERR AB09: Different number of upward port groups") or at INFO
	 * (updn: "no root nodes were found"), and OpenSM then adds only
	 * "cannot build lid matrices".
	 */
	char first_err[256], last_info[256];
	bool err_open; /* first_err ended in ':', its lines follow */
};

/* The message of an OpenSM log line at level (" 0x01 -> msg"), or NULL. */
static const char *osm_log_msg(const char *line, const char *level)
{
	const char *p = strstr(line, level);

	return p ? p + strlen(level) : NULL;
}

/* Keeps the engine's own reason in the row, OpenSM's generic one last. */
static void osm_watch_reason(struct osm_watch *w, struct cmp_row *row)
{
	if (row->note[0])
		return;
	if (w->first_err[0])
		snprintf(row->note, sizeof(row->note), "%s", w->first_err);
	else if (w->last_info[0])
		snprintf(row->note, sizeof(row->note), "%s", w->last_info);
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

static void osm_watch_line(struct osm_watch *w, struct cmp_row *row,
			   const char *line)
{
	const char *p;
	double t;

	if (w->err_open) {
		size_t len = strlen(w->first_err);

		if (line[0] == ' ' || line[0] == '\t') {
			line += strspn(line, " \t");
			snprintf(w->first_err + len, sizeof(w->first_err) - len,
				 "%s%.*s",
				 w->first_err[len - 1] == ':' ? " " : "; ",
				 (int)strcspn(line, "\n"), line);
			return;
		}
		w->err_open = false;
	}

	p = strstr(line, "building routing with '");
	if (p) {
		/* The engine before this one gave up: say why. */
		if (w->requested_built)
			osm_watch_reason(w, row);
		p += strlen("building routing with '");
		snprintf(w->building, sizeof(w->building), "%.*s",
			 (int)strcspn(p, "'"), p);
		w->have_start = osm_log_time(line, &w->build_start);
		if (!strcmp(w->building, row->engine))
			w->requested_built = true;
		return;
	}
	if (strstr(line, "tables configured on all switches") && !w->done) {
		w->done = true;
		snprintf(row->used, sizeof(row->used), "%s", w->building);
		if (w->have_start && osm_log_time(line, &t)) {
			/* A sweep across midnight. */
			if (t < w->build_start)
				t += 86400;
			row->route_ms = (t - w->build_start) * 1000;
			row->have_time = true;
		}
		return;
	}
	if (strstr(line, "No routing engine able")) {
		osm_watch_reason(w, row);
		w->failed = true;
		return;
	}
	/*
	 * ucast_mgr_route's own "ENGINE: cannot build lid matrices" (or fwd
	 * tables): with no engine to fall back to, the sweep has failed even
	 * if the summary line above never comes.
	 */
	p = osm_log_msg(line, " 0x01 -> ucast_mgr_route: ");
	if (p && w->no_fallback && w->requested_built &&
	    !strncmp(p, row->engine, strlen(row->engine)) &&
	    !strncmp(p + strlen(row->engine), ": cannot ", 9)) {
		osm_watch_reason(w, row);
		w->failed = true;
		return;
	}
	if (strstr(line, "SUBNET UP")) {
		w->up = true;
		return;
	}
	if (w->done)
		return;
	/*
	 * Before any routing: the engine unknown, the plugin not loaded.
	 * OpenSM 3.3.23 takes no_fallback for an engine name and logs that
	 * it cannot set that one up, which is no reason of the engine's.
	 */
	if (!w->building[0]) {
		p = osm_log_msg(line, " 0x01 -> ");
		if (p && !w->first_err[0] && !strstr(p, "'no_fallback'") &&
		    (strstr(p, row->engine) || strstr(p, "plugin")))
			osm_watch_error(w, p);
		return;
	}
	if (strcmp(w->building, row->engine))
		return;
	p = osm_log_msg(line, " 0x01 -> ");
	if (p && !w->first_err[0] && strncmp(p, "ucast_mgr_route:", 16))
		osm_watch_error(w, p);
	p = osm_log_msg(line, " 0x02 -> ");
	if (p)
		snprintf(w->last_info, sizeof(w->last_info), "%.*s",
			 (int)strcspn(p, "\n"), p);
}

/* ------------------------------------------------------------------ */
/* The checker's JSON                                                 */
/* ------------------------------------------------------------------ */

/* The number after "key": at the top of the object, or false. */
static bool json_number(const char *json, const char *key, double *v)
{
	char pat[64];
	const char *p;
	char *end;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(json, pat);
	if (!p)
		return false;
	p += strlen(pat);
	*v = strtod(p, &end);
	return end != p;
}

/* Elements of the array after "key": (numbers only), or -1. */
static int json_array_len(const char *json, const char *key)
{
	char pat[64];
	const char *p;
	int n = 0;

	snprintf(pat, sizeof(pat), "\"%s\":[", key);
	p = strstr(json, pat);
	if (!p)
		return -1;
	p += strlen(pat);
	while (*p && *p != ']') {
		if (*p >= '0' && *p <= '9') {
			n++;
			while (*p >= '0' && *p <= '9')
				p++;
			continue;
		}
		p++;
	}
	return n;
}

/* "patterns":[{"name":"uniform",...,"throughput":0.5,...},...] */
static void json_patterns(const char *json, struct cmp_row *row)
{
	const char *p = strstr(json, "\"patterns\":[");

	while (p && row->npat < CMP_MAX_PATTERNS) {
		struct cmp_pattern *pt = &row->pat[row->npat];
		const char *name = strstr(p, "{\"name\":\"");
		const char *next, *tp;

		if (!name)
			break;
		name += strlen("{\"name\":\"");
		snprintf(pt->name, sizeof(pt->name), "%.*s",
			 (int)strcspn(name, "\""), name);
		next = strstr(name, "{\"name\":\"");
		tp = strstr(name, "\"throughput\":");
		if (!tp || (next && tp > next)) {
			p = next;
			continue;
		}
		pt->throughput = strtod(tp + strlen("\"throughput\":"), NULL);
		row->npat++;
		p = next;
	}
}

static int read_file(const char *path, char **out)
{
	FILE *f = fopen(path, "r");
	size_t cap = 4096, len = 0, got;
	char *buf;

	*out = NULL;
	if (!f)
		return -1;
	buf = malloc(cap);
	while (buf) {
		got = fread(buf + len, 1, cap - len - 1, f);
		len += got;
		if (len < cap - 1)
			break;
		cap *= 2;
		{
			char *nb = realloc(buf, cap);

			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
		}
	}
	fclose(f);
	if (!buf)
		return -1;
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		len--;
	buf[len] = '\0';
	*out = buf;
	return 0;
}

static void parse_check(struct cmp_row *row, char *json)
{
	double v;
	int n;

	row->check_json = json;
	if (json[0] != '{')
		return;
	row->checked = true;
	row->check_ok = strstr(json, "{\"ok\":true") == json;
	if (json_number(json, "pairs", &v))
		row->pairs = (uint64_t)v;
	if (json_number(json, "unreachable", &v))
		row->unreachable = (uint64_t)v;
	if (json_number(json, "forwarding_loops", &v))
		row->looping = (uint64_t)v;
	if (json_number(json, "credit_loops", &v))
		row->credit_loops = (unsigned int)v;
	if (json_number(json, "avg_hops", &v))
		row->avg_hops = v;
	if (json_number(json, "max_hops", &v))
		row->max_hops = (unsigned int)v;
	n = json_array_len(json, "vls_used");
	row->vls = n > 0 ? (unsigned int)n : 0;
	json_patterns(json, row);
}

/* ------------------------------------------------------------------ */
/* One engine                                                         */
/* ------------------------------------------------------------------ */

struct cmp_ctx {
	const struct cmp_args *a;
	const struct ot_fabric *f;
	char self[PATH_MAX];   /* this program, for the checker */
	char plugin_dir[PATH_MAX];
	const char *umad2sim;
	char work[PATH_MAX];   /* the run's temporary directory */
};

static int cmp_mkdir(char *buf, size_t len, const char *parent,
		     const char *name)
{
	if ((size_t)snprintf(buf, len, "%s/%s", parent, name) >= len)
		return -1;
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -1;
	return 0;
}

static int cmp_write_conf(const char *path, const struct cmp_args *a,
			  const char *engine)
{
	FILE *f = fopen(path, "w");
	unsigned int i;

	if (!f)
		return -1;
	/*
	 * The plugin always: without it osmtopo's engines are unknown
	 * names, and OpenSM only logs an error when it cannot load it.
	 */
	fprintf(f, "event_plugin_name osmtopo\n");
	/*
	 * Log flushed line by line (we watch it), VERBOSE for the
	 * "building routing" line, QoS so that SL2VL is programmed, no
	 * periodic sweep to change anything while the checker reads.
	 */
	fprintf(f,
		"force_log_flush TRUE\n"
		"log_flags 0x07\n"
		"qos TRUE\n"
		"sweep_interval 0\n"
		"routing_engine %s%s\n",
		engine, a->fallback ? "" : ",no_fallback");
	/* Last, so that OpenSM (the last value of a key wins) takes them. */
	for (i = 0; i < a->nosm_opts; i++) {
		const struct cmp_osm_option *o = &a->osm_opts[i];

		if (!o->engine[0] || !strcmp(o->engine, engine))
			fprintf(f, "%s %s\n", o->key, o->value);
	}
	return fclose(f) ? -1 : 0;
}

static void cmp_last_line(const char *path, char *buf, size_t len)
{
	char line[512];
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (line[0] != '\n')
			snprintf(buf, len, "%.*s", (int)strcspn(line, "\n"),
				 line);
	fclose(f);
}

static void cmp_run_engine(const struct cmp_ctx *c, unsigned int idx,
			   struct cmp_row *row)
{
	const struct cmp_args *a = c->a;
	char dir[PATH_MAX], scratch[PATH_MAX], tmp[PATH_MAX], cache[PATH_MAX];
	char log[PATH_MAX + 32], osmlog[PATH_MAX + 32], conf[PATH_MAX + 32];
	char checklog[PATH_MAX + 32], checkerr[PATH_MAX + 32];
	char sock[64], nodes[16], switches[16], ports[16], name[96];
	struct cmp_tail tail = { 0 };
	struct osm_watch w;
	double until;
	int st;

	memset(&w, 0, sizeof(w));
	w.no_fallback = !a->fallback;
	snprintf(name, sizeof(name), "%u-%.64s", idx, row->engine);
	if (cmp_mkdir(dir, sizeof(dir), c->work, name) ||
	    cmp_mkdir(scratch, sizeof(scratch), dir, "scratch") ||
	    cmp_mkdir(tmp, sizeof(tmp), dir, "osm-tmp") ||
	    cmp_mkdir(cache, sizeof(cache), dir, "osm-cache")) {
		row->status = CMP_ERROR;
		snprintf(row->note, sizeof(row->note),
			 "cannot make a work directory in %.200s", c->work);
		return;
	}
	snprintf(sock, sizeof(sock), "osmtopo-compare-%ld-%u", (long)getpid(),
		 idx);
	snprintf(nodes, sizeof(nodes), "%u", c->f->nnodes + 16);
	snprintf(switches, sizeof(switches), "%u", c->f->nswitches + 16);
	snprintf(ports, sizeof(ports), "%u", c->f->nnodes * 40 + 64);

	/* 1. The fabric. */
	{
		const char *argv[] = { "ibsim", "-s", "-n", "-N", nodes, "-S",
				       switches, "-P", ports, a->netfile,
				       NULL };
		const char *env[] = { "IBSIM_SOCKNAME", sock, NULL };

		snprintf(log, sizeof(log), "%s/ibsim.log", dir);
		cmp_children[0] = cmp_spawn(argv, scratch, log, env);
		tail.path = log;
		if (cmp_children[0] < 0 ||
		    cmp_wait_line(&tail, "Network simulator ready",
				  cmp_children[0], a->timeout)) {
			cmp_tail_close(&tail);
			row->status = CMP_ERROR;
			cmp_last_line(log, row->note, sizeof(row->note));
			goto out;
		}
		cmp_tail_close(&tail);
	}

	/* 2. OpenSM with the engine, until the subnet is up. */
	snprintf(conf, sizeof(conf), "%s/opensm.conf", dir);
	snprintf(osmlog, sizeof(osmlog), "%s/opensm.log", dir);
	if (cmp_write_conf(conf, a, row->engine)) {
		row->status = CMP_ERROR;
		snprintf(row->note, sizeof(row->note), "cannot write %.200s",
			 conf);
		goto out;
	}
	{
		const char *argv[] = { "opensm", "-F", conf, "-f", osmlog,
				       NULL };
		const char *env[] = {
			"IBSIM_SOCKNAME", sock,
			"OSM_TMP_DIR", tmp,
			"OSM_CACHE_DIR", cache,
			"LD_PRELOAD", c->umad2sim,
			/* An empty directory adds nothing to the search. */
			"LD_LIBRARY_PATH", c->plugin_dir[0] ? c->plugin_dir :
							      "",
			NULL,
		};

		snprintf(log, sizeof(log), "%s/opensm.out", dir);
		cmp_children[1] = cmp_spawn(argv, scratch, log, env);
	}
	if (cmp_children[1] < 0) {
		row->status = CMP_ERROR;
		snprintf(row->note, sizeof(row->note), "cannot start opensm");
		goto out;
	}
	tail.path = osmlog;
	until = cmp_now() + a->timeout;
	while (!w.up && !w.failed) {
		while (!w.up && !w.failed && cmp_tail_next(&tail))
			osm_watch_line(&w, row, tail.line);
		if (w.up || w.failed)
			break;
		if (cmp_exited(cmp_children[1], &st)) {
			cmp_children[1] = 0;
			row->status = CMP_ERROR;
			cmp_last_line(log, row->note, sizeof(row->note));
			goto out;
		}
		if (cmp_now() > until)
			break;
		cmp_sleep_poll();
	}
	cmp_tail_close(&tail);
	if (w.failed || !w.done) {
		row->status = w.failed ? CMP_FAILED : CMP_TIMEOUT;
		if (!row->note[0])
			snprintf(row->note, sizeof(row->note),
				 w.failed ? "no engine routed the fabric" :
					    "no SUBNET UP within %u s",
				 a->timeout);
		goto out;
	}
	if (!w.up) {
		row->status = CMP_TIMEOUT;
		snprintf(row->note, sizeof(row->note),
			 "tables configured, but no SUBNET UP within %u s",
			 a->timeout);
		goto out;
	}
	if (!strcmp(row->used, row->engine)) {
		row->status = CMP_ROUTED;
		row->note[0] = '\0';
	} else {
		row->status = CMP_FALLBACK;
		osm_watch_reason(&w, row);
		if (!row->note[0])
			snprintf(row->note, sizeof(row->note), "%s",
				 w.requested_built ?
					 "the engine failed" :
					 "OpenSM does not know the engine");
	}

	/* 3. The checker, while OpenSM still answers the SA queries. */
	snprintf(checklog, sizeof(checklog), "%s/check.json", dir);
	snprintf(checkerr, sizeof(checkerr), "%s/check.err", dir);
	{
		const char *argv[] = { c->self, "check", "--live", "--json",
				       NULL };
		const char *env[] = {
			"IBSIM_SOCKNAME", sock,
			"LD_PRELOAD", c->umad2sim,
			NULL,
		};
		pid_t pid = fork();

		if (pid == 0) {
			int fd = open(checkerr, O_WRONLY | O_CREAT | O_TRUNC,
				      0644);

			if (fd >= 0) {
				dup2(fd, STDERR_FILENO);
				close(fd);
			}
			fd = open(checklog, O_WRONLY | O_CREAT | O_TRUNC,
				  0644);
			if (fd < 0 || chdir(scratch))
				_exit(127);
			dup2(fd, STDOUT_FILENO);
			close(fd);
			setenv(env[0], env[1], 1);
			setenv(env[2], env[3], 1);
			execv(argv[0], (char *const *)argv);
			_exit(127);
		}
		cmp_children[2] = pid;
		st = pid < 0 ? -1 : cmp_wait(&cmp_children[2], a->timeout);
	}
	if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) > OT_EXIT_FAIL) {
		char why[200];

		cmp_last_line(checkerr, why, sizeof(why));
		snprintf(row->note, sizeof(row->note), "check failed: %s",
			 st < 0 ? "timeout" : why);
	} else {
		char *json = NULL;

		if (!read_file(checklog, &json))
			parse_check(row, json);
		if (!row->checked) {
			char why[200];

			cmp_last_line(checkerr, why, sizeof(why));
			snprintf(row->note, sizeof(row->note),
				 "check printed no report: %s", why);
		}
	}
out:
	cmp_stop(&cmp_children[2]);
	cmp_stop(&cmp_children[1]);
	cmp_stop(&cmp_children[0]);
}

/* ------------------------------------------------------------------ */
/* Output                                                             */
/* ------------------------------------------------------------------ */

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(out, "\\u%04x", *s);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}

static void print_json(FILE *out, const struct cmp_args *a,
		       const struct cmp_row *rows)
{
	int i;
	unsigned int k;

	fprintf(out, "{\"netfile\":");
	json_string(out, a->netfile);
	fprintf(out, ",\"fallback\":%s,\"engines\":[",
		a->fallback ? "true" : "false");
	for (i = 0; i < a->nengines; i++) {
		const struct cmp_row *r = &rows[i];

		fprintf(out, "%s{\"engine\":", i ? "," : "");
		json_string(out, r->engine);
		fprintf(out, ",\"status\":\"%s\",\"routed\":%s,\"used\":",
			cmp_status_name[r->status],
			r->status == CMP_ROUTED ? "true" : "false");
		json_string(out, r->used);
		if (r->have_time)
			fprintf(out, ",\"routing_ms\":%.3f", r->route_ms);
		fprintf(out, ",\"note\":");
		json_string(out, r->note);
		if (r->checked) {
			fprintf(out,
				",\"ok\":%s,\"vls_used\":%u,\"credit_loops\":%u,\"pairs\":%" PRIu64
				",\"unreachable\":%" PRIu64
				",\"forwarding_loops\":%" PRIu64
				",\"avg_hops\":%.3f,\"max_hops\":%u",
				r->check_ok ? "true" : "false", r->vls,
				r->credit_loops, r->pairs, r->unreachable,
				r->looping, r->avg_hops, r->max_hops);
			fprintf(out, ",\"throughput\":{");
			for (k = 0; k < r->npat; k++) {
				fprintf(out, "%s", k ? "," : "");
				json_string(out, r->pat[k].name);
				fprintf(out, ":%.6f", r->pat[k].throughput);
			}
			fprintf(out, "},\"check\":%s", r->check_json);
		}
		fputc('}', out);
	}
	fprintf(out, "]}\n");
}

static void print_table(FILE *out, const struct cmp_args *a,
			const struct cmp_row *rows)
{
	const struct cmp_row *first = NULL;
	unsigned int k;
	int i;

	for (i = 0; i < a->nengines; i++)
		if (rows[i].checked && rows[i].npat > 0 &&
		    (!first || rows[i].npat > first->npat))
			first = &rows[i];
	fprintf(out, "%-12s %-18s %9s %3s %6s %7s %5s %4s", "engine",
		"routed", "time", "VLs", "loops", "unreach", "hops", "max");
	if (first)
		for (k = 0; k < first->npat; k++)
			fprintf(out, " %9.9s", first->pat[k].name);
	fputc('\n', out);
	for (i = 0; i < a->nengines; i++) {
		const struct cmp_row *r = &rows[i];
		char routed[64], time[24];

		/* Why not: in the note lines below the table. */
		if (r->status == CMP_ROUTED)
			snprintf(routed, sizeof(routed), "yes");
		else if (r->status == CMP_FALLBACK)
			snprintf(routed, sizeof(routed), "no (%s did)",
				 r->used);
		else if (r->status == CMP_FAILED)
			snprintf(routed, sizeof(routed), "no");
		else
			snprintf(routed, sizeof(routed), "no (%s)",
				 cmp_status_name[r->status]);
		if (r->have_time)
			snprintf(time, sizeof(time), "%.1f ms", r->route_ms);
		else
			snprintf(time, sizeof(time), "-");
		fprintf(out, "%-12s %-18s %9s", r->engine, routed, time);
		if (r->checked) {
			fprintf(out, " %3u %6u %7" PRIu64 " %5.2f %4u", r->vls,
				r->credit_loops, r->unreachable + r->looping,
				r->avg_hops, r->max_hops);
			for (k = 0; first && k < first->npat; k++) {
				unsigned int j;

				/* Same pattern by name: rows may differ. */
				for (j = 0; j < r->npat; j++)
					if (!strcmp(r->pat[j].name,
						    first->pat[k].name))
						break;
				if (j < r->npat)
					fprintf(out, " %9.3f",
						r->pat[j].throughput);
				else
					fprintf(out, " %9s", "-");
			}
		} else {
			fprintf(out, " %3s %6s %7s %5s %4s", "-", "-", "-",
				"-", "-");
		}
		fputc('\n', out);
	}
	for (i = 0; i < a->nengines; i++)
		if (rows[i].note[0])
			fprintf(out, "  %s: %s\n", rows[i].engine,
				rows[i].note);
	if (first)
		fprintf(out,
			"(throughput per traffic pattern: 1 / the most loaded link, all CAs sending at once)\n");
}

/* ------------------------------------------------------------------ */
/* The command                                                        */
/* ------------------------------------------------------------------ */

static void cmp_usage(FILE *out)
{
	fprintf(out,
		"usage: osmtopo compare [OPTIONS] NETFILE ENGINE...\n\n"
		"Runs each ENGINE on the fabric of NETFILE under ibsim: stock OpenSM\n"
		"with QoS on, osmtopo's plugin loaded and only that engine\n"
		"(routing_engine ENGINE,no_fallback) routes it, then `osmtopo check\n"
		"--live` reads what the switches hold and asks the SA for the path\n"
		"SLs.  One row per engine: whether it routed (if not, OpenSM's or\n"
		"the engine's reason, and nothing is checked; with --fallback, which\n"
		"engine OpenSM fell back to, and that routing is checked), its\n"
		"routing time from OpenSM's log, VLs used, credit loops, unreachable\n"
		"or looping pairs, average and maximum hops, and throughput per\n"
		"traffic pattern.  ENGINE is any name OpenSM's routing_engine takes:\n"
		"minhop, updn, dnup, ftree, lash, dor, torus-2QoS, dfsssp, sssp, nue,\n"
		"and osmtopo's engines.\n\n"
		"--osm-option lines come after compare's own in OpenSM's config, so\n"
		"they win; a VALUE naming an existing file is given to OpenSM as an\n"
		"absolute path (OpenSM runs in a work directory).\n\n"
		"Needs ibsim, opensm and libumad2sim.so (set UMAD2SIM to its path\n"
		"if it is not %s).\n\noptions:\n",
		CMP_UMAD2SIM);
	tool_print_options(out, cmp_options, NOPTIONS);
	fprintf(out,
		"\nexamples:\n"
		"  osmtopo compare topologies/ulhpc-96.net minhop updn ftree dfsssp nue lash\n"
		"  osmtopo compare --json topologies/cellia-kns-6x2.net hdor minhop > rows.json\n"
		"  osmtopo compare -o root_guid_file=spines.guids topologies/ulhpc-96.net updn ftree\n"
		"  osmtopo compare --fallback -o ftree:root_guid_file=spines.guids NETFILE ftree hdor\n"
		"\nexit status: 0 the table was printed (whatever the engines did),\n"
		"2 usage error or the fabric could not be simulated.\n");
}

/*
 * "[ENGINE:]KEY=VALUE" into the next of a->osm_opts.  An ENGINE prefix
 * must name one of the engines compared: it is checked once they are
 * known.  0, or OT_EXIT_USAGE.
 */
static int cmp_parse_osm_option(struct cmp_args *a, const char *arg)
{
	struct cmp_osm_option *o = &a->osm_opts[a->nosm_opts];
	const char *eq = strchr(arg, '=');
	const char *colon = strchr(arg, ':');
	const char *key = arg;
	size_t klen;

	if (!eq)
		goto bad;
	if (colon && colon < eq) {
		if (colon == arg || (size_t)(colon - arg) >= sizeof(o->engine))
			goto bad;
		snprintf(o->engine, sizeof(o->engine), "%.*s",
			 (int)(colon - arg), arg);
		key = colon + 1;
	}
	klen = (size_t)(eq - key);
	if (!klen || klen >= sizeof(o->key) ||
	    strcspn(key, " \t") < klen || strchr(eq + 1, '\n'))
		goto bad;
	snprintf(o->key, sizeof(o->key), "%.*s", (int)klen, key);
	/* Each run's routing_engine is compare's to set. */
	if (!strcmp(o->key, "routing_engine")) {
		fprintf(stderr,
			"osmtopo compare: routing_engine is set per run: name the engines as arguments\n");
		return OT_EXIT_USAGE;
	}
	if (!eq[1] || strlen(eq + 1) >= sizeof(o->value))
		goto bad;
	/* OpenSM runs elsewhere: a file named relative to here must be
	 * given as an absolute path. */
	if (access(eq + 1, F_OK) || !realpath(eq + 1, o->value))
		snprintf(o->value, sizeof(o->value), "%s", eq + 1);
	a->nosm_opts++;
	return 0;
bad:
	fprintf(stderr,
		"osmtopo compare: bad --osm-option '%s' (want [ENGINE:]KEY=VALUE)\n",
		arg);
	return OT_EXIT_USAGE;
}

static int cmp_parse(int argc, char **argv, struct cmp_args *a)
{
	struct option longopts[NOPTIONS + 1];
	char shortopts[2 * NOPTIONS + 1];
	unsigned int o;
	char *end;
	long v;
	int c;

	tool_getopt_tables(cmp_options, NOPTIONS, longopts, shortopts);
	optind = 1;
	for (;;) {
		c = getopt_long(argc, argv, shortopts, longopts, NULL);
		if (c < 0)
			break;
		switch (c) {
		case 'j':
			a->json = true;
			break;
		case 'k':
			a->keep = true;
			break;
		case 'd':
			a->plugin_dir = optarg;
			break;
		case 'n':
			a->fallback = false;
			break;
		case 'F':
			a->fallback = true;
			break;
		case 'o':
			if (cmp_parse_osm_option(a, optarg))
				return OT_EXIT_USAGE;
			break;
		case 't':
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno || *end || v < 1 || v > 86400) {
				fprintf(stderr,
					"osmtopo compare: bad timeout '%s'\n",
					optarg);
				return OT_EXIT_USAGE;
			}
			a->timeout = (unsigned int)v;
			break;
		case 'h':
			cmp_usage(stdout);
			return -1;
		default:
			cmp_usage(stderr);
			return OT_EXIT_USAGE;
		}
	}
	if (argc - optind < 2) {
		cmp_usage(stderr);
		return OT_EXIT_USAGE;
	}
	/* ibsim runs in another directory: the path must not be relative. */
	if (!realpath(argv[optind], a->netfile)) {
		fprintf(stderr, "osmtopo compare: %s: %s\n", argv[optind],
			strerror(errno));
		return OT_EXIT_USAGE;
	}
	a->engines = argv + optind + 1;
	a->nengines = argc - optind - 1;
	for (c = 0; c < a->nengines; c++)
		if (!a->engines[c][0] || strpbrk(a->engines[c], " \t\n,/")) {
			fprintf(stderr, "osmtopo compare: bad engine name '%s'\n",
				a->engines[c]);
			return OT_EXIT_USAGE;
		}
	/* A misspelt prefix would silently apply to no run. */
	for (o = 0; o < a->nosm_opts; o++) {
		const char *e = a->osm_opts[o].engine;

		if (!e[0])
			continue;
		for (c = 0; c < a->nengines; c++)
			if (!strcmp(a->engines[c], e))
				break;
		if (c == a->nengines) {
			fprintf(stderr,
				"osmtopo compare: --osm-option for %s, which is not compared\n",
				e);
			return OT_EXIT_USAGE;
		}
	}
	return OT_EXIT_OK;
}

/* Where libosmtopo.so is: --plugin-dir, .libs beside us, or "". */
static void cmp_plugin_dir(struct cmp_ctx *c)
{
	char probe[PATH_MAX], *slash;

	c->plugin_dir[0] = '\0';
	if (c->a->plugin_dir) {
		if (!realpath(c->a->plugin_dir, c->plugin_dir))
			snprintf(c->plugin_dir, sizeof(c->plugin_dir), "%s",
				 c->a->plugin_dir);
		return;
	}
	memcpy(probe, c->self, sizeof(probe));
	slash = strrchr(probe, '/');
	if (!slash)
		return;
	/* In a build tree the tool sits beside .libs/libosmtopo.so. */
	if ((size_t)snprintf(slash, sizeof(probe) - (size_t)(slash - probe),
			     "/.libs/libosmtopo.so") >=
	    sizeof(probe) - (size_t)(slash - probe))
		return;
	if (access(probe, R_OK))
		return; /* installed: OpenSM finds it on the search path */
	slash = strrchr(probe, '/');
	*slash = '\0';
	memcpy(c->plugin_dir, probe, sizeof(c->plugin_dir));
}

static int cmp_rm(const char *path, const struct stat *sb, int flag,
		  struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct cmp_args a = { .timeout = 120 };
	struct cmp_ctx c = { .a = &a };
	struct cmp_row *rows = NULL;
	struct ot_fabric *f = NULL;
	struct ot_error err = { 0 };
	struct sigaction sa;
	const char *tmpdir = getenv("TMPDIR");
	ssize_t n;
	int status, i;

	/* Each --osm-option takes at least one argument. */
	a.osm_opts = calloc((size_t)argc, sizeof(*a.osm_opts));
	if (!a.osm_opts) {
		fprintf(stderr, "osmtopo compare: out of memory\n");
		return OT_EXIT_USAGE;
	}
	status = cmp_parse(argc, argv, &a);
	if (status < 0) {
		status = OT_EXIT_OK;
		goto out;
	}
	if (status != OT_EXIT_OK)
		goto out;
	f = ot_netfile_load(a.netfile, &err);
	if (!f) {
		fprintf(stderr, "osmtopo compare: %s\n", err.msg);
		status = OT_EXIT_USAGE;
		goto out;
	}
	c.f = f;
	n = readlink("/proc/self/exe", c.self, sizeof(c.self) - 1);
	if (n <= 0) {
		fprintf(stderr, "osmtopo compare: cannot find myself: %s\n",
			strerror(errno));
		status = OT_EXIT_USAGE;
		goto out;
	}
	c.self[n] = '\0';
	cmp_plugin_dir(&c);
	c.umad2sim = getenv("UMAD2SIM");
	if (!c.umad2sim || !c.umad2sim[0])
		c.umad2sim = CMP_UMAD2SIM;
	if (access(c.umad2sim, R_OK)) {
		fprintf(stderr, "osmtopo compare: %s: %s (set UMAD2SIM)\n",
			c.umad2sim, strerror(errno));
		status = OT_EXIT_USAGE;
		goto out;
	}
	snprintf(c.work, sizeof(c.work), "%s/osmtopo-compare.XXXXXX",
		 tmpdir && tmpdir[0] ? tmpdir : "/tmp");
	if (!mkdtemp(c.work)) {
		fprintf(stderr, "osmtopo compare: %s: %s\n", c.work,
			strerror(errno));
		status = OT_EXIT_USAGE;
		goto out;
	}
	rows = calloc((size_t)a.nengines, sizeof(*rows));
	if (!rows) {
		fprintf(stderr, "osmtopo compare: out of memory\n");
		status = OT_EXIT_USAGE;
		goto out;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = cmp_on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	for (i = 0; i < a.nengines; i++) {
		double t0 = cmp_now();

		rows[i].engine = a.engines[i];
		if (!a.json)
			fprintf(stderr, "osmtopo compare: %s ...", a.engines[i]);
		cmp_run_engine(&c, (unsigned int)i, &rows[i]);
		if (!a.json)
			fprintf(stderr, " %s (%.1f s)\n",
				cmp_status_name[rows[i].status],
				cmp_now() - t0);
	}
	if (a.json)
		print_json(stdout, &a, rows);
	else
		print_table(stdout, &a, rows);
	status = OT_EXIT_OK;
	if (a.keep)
		fprintf(stderr, "osmtopo compare: logs kept in %s\n", c.work);
	else
		nftw(c.work, cmp_rm, 16, FTW_DEPTH | FTW_PHYS);
out:
	for (i = 0; rows && i < a.nengines; i++)
		free(rows[i].check_json);
	free(rows);
	free(a.osm_opts);
	ot_fabric_free(f);
	return status;
}
