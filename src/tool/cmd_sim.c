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
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "options.h"
#include "sim.h"

#define SIM_MAX_WRAP 32

struct sim_args {
	const char *dir;
	unsigned int timeout; /* 0: the action's default */
	bool once, opensm_only;
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
		"       osmtopo sim opensm --dir DIR [--once] [--option KEY=VALUE]...\n"
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
		"          runs on.  When the log says no engine routed the fabric (an\n"
		"          engine alone with no_fallback, or none left), OpenSM is stopped\n"
		"          and the reason printed.\n"
		"  run     CMD as a libibumad client of the simulation: in DIR/scratch\n"
		"          (where libumad2sim leaves its sys-PID/ trees), with\n"
		"          IBSIM_SOCKNAME and LD_PRELOAD=libumad2sim.so; name files by\n"
		"          absolute path.  Its exit status is CMD's.\n"
		"  cmd     each LINE to ibsim's console, as typed there, e.g.\n"
		"          'Unlink \"S[0,0]\"[3]' (a cable down, both ends), 'ReLink\n"
		"          \"S[0,0]\"[3]' (up again), 'Unlink \"S[0,0]\"' (a switch\n"
		"          cut off), 'ReLink \"S[0,0]\"'; returns once ibsim has run\n"
		"          them (default timeout 30 s), with its reply on stdout.  A\n"
		"          switch whose port changes sends trap 128 to OpenSM.  Exit\n"
		"          1 when ibsim refuses a line (unknown node, port, command).\n"
		"  stop    OpenSM, then ibsim, by PID: SIGTERM, then SIGKILL after\n"
		"          --grace seconds.  Nothing running is not an error.\n"
		"  status  \"ibsim PID running\", \"opensm PID stopped\", ...; exit 0\n"
		"          when ibsim and OpenSM run (--opensm-only: OpenSM), else 1.\n\n"
		"Needs ibsim, opensm and libumad2sim.so (set UMAD2SIM to its path if\n"
		"it is not %s).\n\noptions:\n",
		SIM_UMAD2SIM);
	tool_print_options(out, c);
	fprintf(out,
		"\nexamples:\n"
		"  osmtopo sim start --dir /tmp/s topologies/cellia-kns-6x2.net\n"
		"  osmtopo sim opensm --dir /tmp/s --once -- -R hdor,minhop\n"
		"  osmtopo sim opensm --dir /tmp/s --option qos=TRUE --option lmc=1 -- -R ff-ador\n"
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
	[SIM_OPENSM] = { "opensm", "dht1owp", 0, -1 },
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

/* What the wait for OpenSM ended with, as the exit status. */
static int opensm_outcome(struct sim *s, struct osm_watch *w,
			  enum sim_osm_state st, int status, bool once,
			  unsigned int timeout)
{
	char last[256], path[PATH_MAX + 16];

	if (st == SIM_OSM_UP ||
	    (st == SIM_OSM_EXITED && once && WIFEXITED(status) &&
	     !WEXITSTATUS(status)))
		return OT_EXIT_OK;
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
	return opensm_outcome(s, &w, st, status, a->once, timeout);
}

/* sim status: a line per process; 0 when what is asked about runs. */
static int print_status(struct sim *s, bool opensm_only)
{
	bool ibsim = sim_running(s);
	bool opensm = sim_proc_running(&s->opensm);

	printf("ibsim %ld %s\nopensm %ld %s\n", (long)s->ibsim.pid,
	       ibsim ? "running" : "stopped", (long)s->opensm.pid,
	       opensm ? "running" : "stopped");
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
		if (!sim_start_ibsim(&s, argv[0],
				     a->timeout ? a->timeout : 120, &err))
			return OT_EXIT_OK;
		sim_die_of_signal();
		fprintf(stderr, "osmtopo sim: %s\n", err.msg);
		return OT_EXIT_FAIL;
	case SIM_OPENSM:
		if (!sim_running(&s))
			break;
		return do_opensm(&s, a, argc, argv);
	case SIM_RUN:
		if (!sim_running(&s))
			break;
		sim_exec_client(&s, (const char *const *)argv);
		fprintf(stderr, "osmtopo sim: cannot run %s: %s\n", argv[0],
			strerror(errno));
		return 127;
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
