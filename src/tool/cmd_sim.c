// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * `osmtopo sim ACTION --dir DIR ...`: a simulated fabric for shell
 * scripts, the end-to-end tests first (tests/e2e/lib.sh): start ibsim on
 * a net file, start stock OpenSM against it (one sweep, or a daemon that
 * is up when the command returns), run any libibumad client against it,
 * send ibsim console commands (cables and switches down and up), and stop
 * what was started.  One command starts and a later one stops:
 * the state (socket name, PIDs) is kept in DIR (see sim.h); the code is
 * the one `osmtopo compare` runs.
 */
#define _GNU_SOURCE /* memmem */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "io/netfile.h"
#include "options.h"
#include "sim.h"

#define SIM_MAX_WRAP 32

struct sim_args {
	const char *dir;
	unsigned int timeout; /* 0: the action's default */
	bool once, opensm_only;
	bool allow_fallback; /* opensm: another engine than the first may route */
	unsigned int grace;
	const char *wrap;
	const char *plugin_dir;
	struct sim_osm_option *options; /* room for argc of them */
	unsigned int noptions;
};

/* --option KEY=VALUE, repeatable. */
static int add_option(void *args, const char *arg, struct ot_error *err)
{
	struct sim_args *a = args;

	if (sim_parse_osm_option(arg, &a->options[a->noptions], err))
		return -1;
	a->noptions++;
	return 0;
}

#define ARGS struct sim_args
static const struct tool_option sim_options[] = {
	{ "dir", 'd', "DIR",
	  "the simulation's work directory (made if needed; required)",
	  TOOL_STRING(ARGS, dir) },
	{ "timeout", 't', "S",
	  "start, opensm, cmd: seconds to wait (default 120, 600, 30)",
	  TOOL_UINT(ARGS, timeout, 1, 86400) },
	{ "once", '1', NULL,
	  "opensm: one sweep (opensm -o); wait until OpenSM exits",
	  TOOL_SET(ARGS, once) },
	{ "option", 'o', "KEY=VALUE",
	  "opensm: add the line \"KEY VALUE\" to OpenSM's config; repeatable",
	  TOOL_CALL(add_option) },
	{ "allow-fallback", 'a', NULL,
	  "opensm: accept that an engine after the first named routes (or the"
	  " first without its class table)",
	  TOOL_SET(ARGS, allow_fallback) },
	{ "wrap", 'w', "CMD",
	  "opensm: run OpenSM under CMD (words split at blanks), e.g. valgrind",
	  TOOL_STRING(ARGS, wrap) },
	{ "plugin-dir", 'p', "DIR", "opensm: " SIM_PLUGIN_DIR_HELP,
	  TOOL_STRING(ARGS, plugin_dir) },
	{ "opensm-only", 'O', NULL,
	  "stop: stop OpenSM only, leave ibsim; status: ask of OpenSM only",
	  TOOL_SET(ARGS, opensm_only) },
	{ "grace", 'g', "S",
	  "stop: seconds from SIGTERM to SIGKILL (default 10)",
	  TOOL_UINT(ARGS, grace, 1, 86400) },
	TOOL_OPTION_HELP,
};
#undef ARGS

static void sim_usage(FILE *out, const struct tool_command *c)
{
	fprintf(out,
		"usage: osmtopo sim start  --dir DIR [--timeout S] NETFILE\n"
		"       osmtopo sim opensm --dir DIR [--once] [--allow-fallback]\n"
		"                          [--option KEY=VALUE]...\n"
		"                          [--wrap CMD] [--plugin-dir DIR] [--timeout S]\n"
		"                          [-- OPENSM ARGS...]\n"
		"       osmtopo sim run    --dir DIR -- CMD [ARGS...]\n"
		"       osmtopo sim cmd    --dir DIR [--timeout S] LINE...\n"
		"       osmtopo sim stop   --dir DIR [--opensm-only] [--grace S]\n"
		"       osmtopo sim status --dir DIR [--opensm-only]\n\n"
		"A simulated fabric for scripts and tests, kept in DIR so that one\n"
		"command can stop what another started:\n"
		"  start   ibsim serves NETFILE on a socket of its own (IBSIM_SOCKNAME,\n"
		"          in DIR/sockname); returns once it serves clients.  Fresh\n"
		"          OSM_TMP_DIR and OSM_CACHE_DIR for OpenSM (DIR/osm-tmp,\n"
		"          DIR/osm-cache).\n"
		"  opensm  stock OpenSM against it, with osmtopo's plugin: config\n"
		"          DIR/opensm.conf (event_plugin_name osmtopo, force_log_flush\n"
		"          TRUE, log_flags 0x03, then the --option lines: the last value\n"
		"          of a key wins), log DIR/opensm.log, output DIR/opensm.out.\n"
		"          With --once it sweeps once (opensm -o) and the command waits\n"
		"          for it to exit; otherwise it returns at SUBNET UP and OpenSM\n"
		"          runs on.  It says on stderr which engine routed, and why\n"
		"          each engine before it did not (from OpenSM's log); when the\n"
		"          first engine named (-R or routing_engine) did not route, or\n"
		"          routed without the class table it was given, it stops OpenSM\n"
		"          and exits 1, unless --allow-fallback.  When no engine routed\n"
		"          the fabric (an engine alone with no_fallback, or none left),\n"
		"          OpenSM is stopped and the reason printed.\n"
		"  run     CMD as a libibumad client of the simulation: in DIR/scratch\n"
		"          (where libumad2sim leaves its sys-PID/ trees), with\n"
		"          IBSIM_SOCKNAME and LD_PRELOAD=libumad2sim.so.  osmtopo takes\n"
		"          a relative FILE or DIR option from the directory sim run was\n"
		"          called in (OSMTOPO_SIM_CWD); other programs' files: name them\n"
		"          by absolute path.  libumad2sim's \"attached as client\" line\n"
		"          is dropped from CMD's stderr.  Its exit status is CMD's.\n"
		"  cmd     each LINE to ibsim's console, as typed there, e.g.\n"
		"          'Unlink \"S[0,0]\"[3]' (a cable down, both ends), 'ReLink\n"
		"          \"S[0,0]\"[3]' (up again), 'Unlink \"S[0,0]\"' (a switch\n"
		"          cut off), 'ReLink \"S[0,0]\"'; returns once ibsim has run\n"
		"          them (default timeout 30 s), with its reply on stdout.  A\n"
		"          switch whose port changes sends trap 128 to OpenSM.  Exit\n"
		"          1 when ibsim refuses a line (unknown node, port, command).\n"
		"  stop    OpenSM, then ibsim, by PID: SIGTERM, then SIGKILL after\n"
		"          --grace seconds.  Nothing running is not an error.\n"
		"  status  \"ibsim PID running\", \"opensm not running\", ...; exit 0\n"
		"          when ibsim and OpenSM run (--opensm-only: OpenSM), else 1.\n\n"
		"Needs ibsim, opensm and libumad2sim.so (set UMAD2SIM to its path if\n"
		"it is not %s).\n\noptions:\n",
		SIM_UMAD2SIM);
	tool_print_options(out, c);
	fprintf(out,
		"\nexamples:\n"
		"  osmtopo sim start --dir /tmp/s topologies/cellia-kns-6x2.net\n"
		"  osmtopo sim opensm --dir /tmp/s --once -- -R hdor,minhop\n"
		"  osmtopo sim opensm --dir /tmp/s --option qos=TRUE -- -R hdor\n"
		"  osmtopo sim opensm --dir /tmp/s --allow-fallback -- -R ff-dor,minhop\n"
		"  osmtopo sim run --dir /tmp/s -- osmtopo lfts --live -o /tmp/s/live.lfts\n"
		"  osmtopo sim cmd --dir /tmp/s 'Unlink \"S[0,0]\"[7]'\n"
		"  osmtopo sim stop --dir /tmp/s\n"
		"\nexit status: 0 done; 1 ibsim or OpenSM failed (why on stderr);\n"
		"2 usage error; run: CMD's.\n");
}

TOOL_COMMAND(sim_command, "sim", sim_options, sim_usage);

enum sim_action {
	SIM_START,
	SIM_OPENSM,
	SIM_RUN,
	SIM_CMD,
	SIM_STOP,
	SIM_STATUS
};

/* The actions, with the option keys and operands each takes. */
static const struct {
	const char *name;
	const char *options;
	int min_args, max_args; /* operands after the action; -1: any */
} sim_actions[] = {
	[SIM_START] = { "start", "dht", 1, 1 },
	[SIM_OPENSM] = { "opensm", "dht1owpa", 0, -1 },
	[SIM_RUN] = { "run", "dh", 1, -1 },
	[SIM_CMD] = { "cmd", "dht", 1, -1 },
	[SIM_STOP] = { "stop", "dhOg", 0, 0 },
	[SIM_STATUS] = { "status", "dhO", 0, 0 },
};

#define NACTIONS (sizeof(sim_actions) / sizeof(sim_actions[0]))

/* The engine OpenSM is asked for, and whether it runs alone. */
static void requested_engine(const struct sim_args *a, int argc,
			     char **argv, char *engine, size_t len,
			     bool *no_fallback)
{
	const char *list = NULL;
	unsigned int i;
	int k;

	for (i = 0; i < a->noptions; i++)
		if (!strcmp(a->options[i].key, "routing_engine"))
			list = a->options[i].value;
	for (k = 0; k + 1 < argc; k++)
		if (!strcmp(argv[k], "-R") ||
		    !strcmp(argv[k], "--routing_engine"))
			list = argv[k + 1];
	engine[0] = '\0';
	*no_fallback = false;
	if (!list)
		return;
	snprintf(engine, len, "%.*s", (int)strcspn(list, ","), list);
	/* "E,no_fallback": E alone; "E,F,no_fallback": F takes over. */
	*no_fallback = !strncmp(list + strlen(engine), ",no_fallback", 12);
}

/*
 * OpenSM came up (or swept once): which engine routed, and why those
 * before it did not, on stderr.  Without --allow-fallback, the first
 * engine named must have routed, with its class table if it has one.
 */
static int opensm_routed(struct sim *s, struct osm_watch *w,
			 const char *engine, const struct sim_args *a)
{
	const char *who = "osmtopo sim opensm";

	osm_watch_report(w, stderr, who);
	if (a->allow_fallback || !engine[0] ||
	    (w->done && !strcmp(w->used, engine) && !w->classes_off[0]))
		return OT_EXIT_OK;
	fprintf(stderr,
		"%s: %s, the first engine named, %s: failing%s (--allow-fallback accepts it)\n",
		who, engine,
		w->done && !strcmp(w->used, engine) ?
			"routed without its service classes" :
			"did not route the fabric",
		a->once ? "" : ", OpenSM stopped");
	sim_stop_opensm(s, SIM_STOP_GRACE);
	return OT_EXIT_FAIL;
}

/* What the wait for OpenSM ended with, as the exit status. */
static int opensm_outcome(struct sim *s, struct osm_watch *w,
			  enum sim_osm_state st, int status,
			  const char *engine, const struct sim_args *a,
			  unsigned int timeout)
{
	char last[256], path[PATH_MAX + 16];
	bool once = a->once;

	if (st == SIM_OSM_UP ||
	    (st == SIM_OSM_EXITED && once && WIFEXITED(status) &&
	     !WEXITSTATUS(status)))
		return opensm_routed(s, w, engine, a);
	/* opensm -o waits for SUBNET UP deaf to SIGTERM: less grace. */
	sim_stop_opensm(s, once ? 2 : SIM_STOP_GRACE);
	if (st == SIM_OSM_INTERRUPTED)
		sim_die_of_signal();
	if (st == SIM_OSM_FAILED) {
		fprintf(stderr, "osmtopo sim: opensm: no engine routed the fabric%s%s\n",
			w->reason[0] ? ": " : "", w->reason);
	} else if (st == SIM_OSM_TIMEOUT) {
		fprintf(stderr, "osmtopo sim: opensm: %s within %u s (stopped)\n",
			once ? "no end of the sweep" : "no SUBNET UP", timeout);
	} else {
		snprintf(path, sizeof(path), "%s/opensm.out", s->dir);
		sim_last_line(path, last, sizeof(last));
		fprintf(stderr, "osmtopo sim: opensm %s %d: %s\n",
			WIFEXITED(status) ? "exited with status" :
					    "was killed by signal",
			WIFEXITED(status) ? WEXITSTATUS(status) :
					    WTERMSIG(status),
			last[0] ? last : "(no output)");
	}
	return OT_EXIT_FAIL;
}

/* Words of --wrap, at most SIM_MAX_WRAP of them, in buf. */
static unsigned int split_words(char *buf, const char **words)
{
	unsigned int n = 0;
	char *save = NULL, *w;

	for (w = strtok_r(buf, " \t\n", &save); w && n < SIM_MAX_WRAP;
	     w = strtok_r(NULL, " \t\n", &save))
		words[n++] = w;
	return n;
}

static int do_opensm(struct sim *s, const struct sim_args *a, int argc,
		     char **argv)
{
	unsigned int timeout = a->timeout ? a->timeout : 600;
	struct sim_opensm o = { a->options, a->noptions, NULL, NULL, 0, 0,
				a->once };
	const char *wrap[SIM_MAX_WRAP];
	struct ot_error err = { 0 };
	struct osm_watch w;
	char engine[64], log[PATH_MAX + 16], *words = NULL;
	enum sim_osm_state st;
	bool no_fallback;
	int status = 0;

	if (a->wrap) {
		words = strdup(a->wrap);
		if (!words)
			return OT_EXIT_USAGE;
		o.nwrap = split_words(words, wrap);
		o.wrap = wrap;
	}
	o.args = (const char *const *)argv;
	o.nargs = (unsigned int)argc;
	if (sim_start_opensm(s, &o, &err)) {
		free(words);
		fprintf(stderr, "osmtopo sim: %s\n", err.msg);
		return OT_EXIT_FAIL;
	}
	free(words);
	requested_engine(a, argc, argv, engine, sizeof(engine), &no_fallback);
	snprintf(log, sizeof(log), "%s/opensm.log", s->dir);
	osm_watch_init(&w, log, engine, no_fallback);
	st = sim_wait_opensm(s, &w, a->once, timeout, &status);
	osm_watch_close(&w);
	return opensm_outcome(s, &w, st, status, engine, a, timeout);
}

/*
 * libumad2sim says "ibwarn: [PID] sim_connect: attached as client N at
 * node "X"" on every client's stderr: noise, dropped.  A line is held
 * only while it may still be that one (it starts "ibwarn: ["), so that
 * progress lines ("\r" without "\n") pass at once.
 */
struct noise_filter {
	char line[4096];
	size_t len;
	bool passing; /* inside a line that is not the noise: pass it */
};

/* The line held: written unless it is the noise. */
static void noise_flush(struct noise_filter *nf)
{
	static const char attached[] = "] sim_connect: attached as client ";

	if (nf->len && !(nf->line[nf->len - 1] == '\n' &&
			 memmem(nf->line, nf->len, attached,
				sizeof(attached) - 1)))
		fwrite(nf->line, 1, nf->len, stderr);
	nf->len = 0;
}

static void noise_filter(struct noise_filter *nf, const char *buf, size_t n)
{
	static const char start[] = "ibwarn: [";
	size_t i;

	for (i = 0; i < n; i++) {
		if (nf->passing) {
			fputc(buf[i], stderr);
			nf->passing = buf[i] != '\n';
			continue;
		}
		nf->line[nf->len++] = buf[i];
		if (buf[i] == '\n') {
			noise_flush(nf);
		} else if ((nf->len < sizeof(start) &&
			    strncmp(nf->line, start, nf->len)) ||
			   nf->len == sizeof(nf->line)) {
			fwrite(nf->line, 1, nf->len, stderr);
			nf->len = 0;
			nf->passing = true;
		}
	}
	fflush(stderr);
}

/*
 * sim run: CMD as a client, its stderr through noise_filter(); CMD's exit
 * status, or its signal raised again.  A signal sent to this process
 * alone (SIGTERM from a timeout) is passed on to CMD.
 */
static int run_client(struct sim *s, char **argv)
{
	struct noise_filter nf = { .len = 0 };
	char buf[4096];
	int pfd[2], st = 0, sig = 0;
	bool tty = isatty(STDERR_FILENO);
	ssize_t n;
	pid_t pid;

	if (pipe(pfd)) {
		fprintf(stderr, "osmtopo sim: pipe: %s\n", strerror(errno));
		return OT_EXIT_FAIL;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		dup2(pfd[1], STDERR_FILENO);
		close(pfd[1]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		/* progress lines still go to the terminal behind the pipe */
		if (tty)
			setenv("OSMTOPO_STDERR_TTY", "1", 1);
		sim_exec_client(s, (const char *const *)argv);
		fprintf(stderr, "osmtopo sim: cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	if (pid < 0) {
		close(pfd[0]);
		fprintf(stderr, "osmtopo sim: fork: %s\n", strerror(errno));
		return OT_EXIT_FAIL;
	}
	for (;;) {
		n = read(pfd[0], buf, sizeof(buf));
		if (n > 0) {
			noise_filter(&nf, buf, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EINTR) {
			if (sim_interrupted() && !sig) {
				sig = sim_interrupted();
				kill(pid, sig);
			}
			continue;
		}
		break;
	}
	close(pfd[0]);
	noise_flush(&nf);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(st)) {
		signal(WTERMSIG(st), SIG_DFL);
		raise(WTERMSIG(st));
		return 128 + WTERMSIG(st);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : OT_EXIT_FAIL;
}

/*
 * sim start.  osmtopo's reader reads the net file too: ibsim accepts
 * some files it refuses (a cable listed on one end: ibsim adds the
 * other), and when ibsim fails the reader's line and token say more.
 */
static int start_ibsim(struct sim *s, const struct sim_args *a,
		       const char *netfile)
{
	struct ot_error err = { 0 }, rerr = { 0 };
	struct ot_fabric *f = ot_netfile_load(netfile, &rerr);

	ot_fabric_free(f);
	if (!sim_start_ibsim(s, netfile, a->timeout ? a->timeout : 120,
			     &err)) {
		if (!f)
			fprintf(stderr,
				"osmtopo sim: warning: ibsim serves it, but osmtopo's reader (route, check, compare) refuses it: %s\n",
				rerr.msg);
		return OT_EXIT_OK;
	}
	sim_die_of_signal();
	fprintf(stderr, "osmtopo sim: %s\n", err.msg);
	if (!f && !strstr(rerr.msg, strerror(ENOENT)))
		fprintf(stderr, "osmtopo sim: osmtopo's reader: %s\n",
			rerr.msg);
	return OT_EXIT_FAIL;
}

/* sim status: a line per process; 0 when what is asked about runs. */
static int print_status(struct sim *s, bool opensm_only)
{
	bool ibsim = sim_running(s);
	bool opensm = sim_proc_running(&s->opensm);

	/* A PID only for what runs: "opensm 0 stopped" said nothing. */
	if (ibsim)
		printf("ibsim %ld running\n", (long)s->ibsim.pid);
	else
		printf("ibsim not running\n");
	if (opensm)
		printf("opensm %ld running\n", (long)s->opensm.pid);
	else
		printf("opensm not running\n");
	return opensm && (ibsim || opensm_only) ? OT_EXIT_OK : OT_EXIT_FAIL;
}

static int do_action(enum sim_action act, const struct sim_args *a,
		     int argc, char **argv)
{
	struct ot_error err = { 0 };
	struct sim s;

	/* Nothing was ever started there: do not make the directory. */
	if ((act == SIM_STOP || act == SIM_STATUS) && access(a->dir, F_OK))
		return act == SIM_STOP ? OT_EXIT_OK : OT_EXIT_FAIL;
	if (sim_open(&s, a->dir, a->plugin_dir, &err)) {
		fprintf(stderr, "osmtopo sim: %s\n", err.msg);
		return OT_EXIT_USAGE;
	}
	switch (act) {
	case SIM_START:
		return start_ibsim(&s, a, argv[0]);
	case SIM_OPENSM:
		if (!sim_running(&s))
			break;
		return do_opensm(&s, a, argc, argv);
	case SIM_RUN:
		if (!sim_running(&s))
			break;
		return run_client(&s, argv);
	case SIM_CMD:
		if (!sim_running(&s))
			break;
		if (!sim_ibsim_cmd(&s, (const char *const *)argv,
				   (unsigned int)argc,
				   a->timeout ? a->timeout : 30, stdout, &err))
			return OT_EXIT_OK;
		sim_die_of_signal();
		fprintf(stderr, "osmtopo sim cmd: %s\n", err.msg);
		return OT_EXIT_FAIL;
	case SIM_STOP:
		if (a->opensm_only)
			sim_stop_opensm(&s, a->grace);
		else
			sim_stop(&s, a->grace);
		return OT_EXIT_OK;
	case SIM_STATUS:
		return print_status(&s, a->opensm_only);
	}
	fprintf(stderr, "osmtopo sim: no simulation runs in %s (sim start first)\n",
		s.dir);
	return OT_EXIT_FAIL;
}

/* The action named in argv[0], its options and operands checked; or -1. */
static int find_action(int argc, char **argv, const struct sim_args *a,
		       const char *seen)
{
	unsigned int i, k;

	for (i = 0; argc > 0 && i < NACTIONS; i++)
		if (!strcmp(argv[0], sim_actions[i].name))
			break;
	if (argc < 1 || i == NACTIONS) {
		fprintf(stderr, "osmtopo sim: %s (see osmtopo sim --help)\n",
			argc < 1 ? "which action? start, opensm, run, cmd, stop or"
				   " status" :
				   "unknown action");
		return -1;
	}
	for (k = 0; seen[k]; k++)
		if (!strchr(sim_actions[i].options, seen[k])) {
			fprintf(stderr, "osmtopo sim %s: option -%c does not apply\n",
				sim_actions[i].name, seen[k]);
			return -1;
		}
	if (!a->dir) {
		fprintf(stderr, "osmtopo sim %s: needs --dir DIR\n",
			sim_actions[i].name);
		return -1;
	}
	if (argc - 1 < sim_actions[i].min_args ||
	    (sim_actions[i].max_args >= 0 &&
	     argc - 1 > sim_actions[i].max_args)) {
		fprintf(stderr, "osmtopo sim %s: %s (see osmtopo sim --help)\n",
			sim_actions[i].name,
			i == SIM_START ? "needs NETFILE" :
			i == SIM_RUN ? "needs -- CMD" :
			i == SIM_CMD ? "needs a LINE for ibsim" :
				       "too many arguments");
		return -1;
	}
	return (int)i;
}

int cmd_sim(int argc, char **argv)
{
	struct sim_args a = { .grace = SIM_STOP_GRACE };
	char seen[TOOL_NOPTIONS(sim_options) + 1];
	int status, next, act;

	a.options = calloc((size_t)argc, sizeof(*a.options));
	if (!a.options) {
		fprintf(stderr, "osmtopo sim: out of memory\n");
		return OT_EXIT_USAGE;
	}
	status = tool_parse(&sim_command, argc, argv, &a, &next, seen);
	if (status < 0) {
		act = find_action(argc - next, argv + next, &a, seen);
		if (act < 0) {
			status = OT_EXIT_USAGE;
		} else {
			sim_catch_signals();
			status = do_action((enum sim_action)act, &a,
					   argc - next - 1, argv + next + 1);
		}
	}
	free(a.options);
	return status;
}
