/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A simulated fabric and the programs run against it, written once for
 * `osmtopo compare` and for the shell tests (through `osmtopo sim`):
 * ibsim serving a net file, stock OpenSM with osmtopo's plugin, and any
 * libibumad client under libumad2sim.  Each simulation has its own
 * IBSIM_SOCKNAME, OSM_TMP_DIR and OSM_CACHE_DIR, so several run side by
 * side; readiness is polled (ibsim's "Network simulator ready", OpenSM's
 * SUBNET UP), never slept for; everything is stopped by its PID, SIGTERM
 * first and SIGKILL after a bound, OpenSM before the ibsim it talks to
 * (OpenSM left without its simulator may never exit).
 *
 * Everything of one simulation lives in its work directory, so that one
 * `osmtopo sim` command can stop what another started:
 *   sockname                the IBSIM_SOCKNAME of its ibsim
 *   ibsim.pid, opensm.pid   "PID STARTTIME" of the running processes
 *   ibsim.log               ibsim's output
 *   ibsim.cmd               a FIFO: ibsim's console input (sim_ibsim_cmd)
 *   opensm.conf, opensm.log, opensm.out   OpenSM's config, log, output
 *   scratch/                the current directory of every program
 *                           (libumad2sim leaves a sys-PID/ tree there)
 *   osm-tmp/, osm-cache/    OpenSM's OSM_TMP_DIR and OSM_CACHE_DIR
 */
#ifndef OSMTOPO_TOOL_SIM_H
#define OSMTOPO_TOOL_SIM_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

#include "model/error.h"
#include "osmlog.h"

#define SIM_UMAD2SIM "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so"
#define SIM_STOP_GRACE 10 /* seconds from SIGTERM to SIGKILL */
/* --plugin-dir's help, for the commands that start OpenSM */
#define SIM_PLUGIN_DIR_HELP                                               \
	"where libosmtopo.so is (default: .libs beside osmtopo, else the" \
	" library search path)"

/* A process of a simulation; start tells it from a later one, same PID. */
struct sim_proc {
	pid_t pid; /* 0: none */
	unsigned long long start; /* /proc/PID/stat starttime; 0 unknown */
};

struct sim {
	char dir[PATH_MAX];      /* absolute */
	char sockname[64];       /* "" until ibsim is started */
	struct sim_proc ibsim, opensm;
	char umad2sim[PATH_MAX]; /* $UMAD2SIM, or SIM_UMAD2SIM */
	char plugin_dir[PATH_MAX]; /* for LD_LIBRARY_PATH; "": search path */
};

/* One line "KEY VALUE" of OpenSM's config. */
struct sim_osm_option {
	char key[64];
	char value[PATH_MAX];
};

/*
 * "KEY=VALUE" into o: a key without blanks, a value on one line; a value
 * naming an existing file becomes its absolute path (OpenSM runs in
 * scratch/).  0, or -1 with err saying what was wanted.
 */
int sim_parse_osm_option(const char *arg, struct sim_osm_option *o,
			 struct ot_error *err);

/* How to run OpenSM. */
struct sim_opensm {
	const struct sim_osm_option *options; /* after sim's own lines */
	unsigned int noptions;
	const char *const *wrap; /* a command to run OpenSM under */
	const char *const *args; /* more arguments for OpenSM */
	unsigned int nwrap, nargs;
	bool once;         /* -o: one sweep, then exit */
};

/* What the wait for OpenSM ended with. */
enum sim_osm_state {
	SIM_OSM_UP,          /* SUBNET UP (a daemon) */
	SIM_OSM_EXITED,      /* it exited (the status says how) */
	SIM_OSM_FAILED,      /* the log says no engine routed the fabric */
	SIM_OSM_TIMEOUT,
	SIM_OSM_INTERRUPTED, /* we got a signal (sim_interrupted()) */
};

/*
 * Makes dir if needed and reads the state of a simulation in it, if
 * any.  The plugin directory is plugin_dir if not NULL, else .libs beside
 * this program when it holds libosmtopo.so (a build tree), else the
 * library search path.  0, or -1 with err set.
 */
int sim_open(struct sim *s, const char *dir, const char *plugin_dir,
	     struct ot_error *err);

/*
 * Starts ibsim on netfile, with room for its nodes and ports, and waits
 * up to timeout seconds for it to serve clients.  A simulation already
 * running in the directory is an error; a stopped one's OpenSM state
 * (osm-tmp, osm-cache) is removed.  0, or -1 with err set (ibsim is
 * stopped then).
 */
int sim_start_ibsim(struct sim *s, const char *netfile, unsigned int timeout,
		    struct ot_error *err);

/*
 * Sends lines (n of them) to ibsim's console, as typed there ("Unlink
 * \"S[0,0]\"[3]", "ReLink \"S[0,0]\"", ...), and waits up to timeout
 * seconds until ibsim has run them all; ibsim's reply, prompts dropped,
 * goes to out.  0, or -1 with err set (ibsim gone, or its reply holds an
 * error: a node or port it does not know, an unknown command).
 */
int sim_ibsim_cmd(struct sim *s, const char *const lines[], unsigned int n,
		  unsigned int timeout, FILE *out, struct ot_error *err);

/*
 * Writes opensm.conf (event_plugin_name osmtopo, force_log_flush TRUE and
 * log_flags 0x03 unless the options set them; then the options, whose
 * last value of a key OpenSM takes) and starts OpenSM against the
 * simulation, logging to opensm.log (emptied first).  0, or -1 with err.
 */
int sim_start_opensm(struct sim *s, const struct sim_opensm *o,
		     struct ot_error *err);

/*
 * Watches OpenSM (started by this process) through w until the subnet is
 * up (unless once), OpenSM exits (*status: its wait status), the log says
 * the sweep failed, timeout seconds pass, or a signal comes.  OpenSM is
 * left running.
 */
enum sim_osm_state sim_wait_opensm(struct sim *s, struct osm_watch *w,
				   bool once, unsigned int timeout,
				   int *status);

/*
 * Starts argv (searched in PATH) as a client of the simulation: in
 * scratch/, with IBSIM_SOCKNAME and LD_PRELOAD set, stdin from /dev/null,
 * stdout and stderr to the files out and errpath (NULL: inherited).  The
 * PID, or -1.
 */
pid_t sim_spawn_client(const struct sim *s, const char *const argv[],
		       const char *out, const char *errpath);

/* Becomes argv as a client of the simulation (see above).  -1 on failure. */
int sim_exec_client(const struct sim *s, const char *const argv[]);

/*
 * Waits up to timeout seconds for our child *pid to exit: 0 with its
 * wait status in *status, and *pid = 0; -1 on timeout (the child is then
 * stopped) or on a signal (sim_interrupted(); the child runs on).
 */
int sim_wait(pid_t *pid, unsigned int timeout, int *status);

/* Stops a process: SIGTERM, up to grace seconds, then SIGKILL. */
void sim_stop_proc(struct sim_proc *p, unsigned int grace);

/* Stops OpenSM, then ibsim, and updates the state in the directory. */
void sim_stop_opensm(struct sim *s, unsigned int grace);
void sim_stop(struct sim *s, unsigned int grace);

/* Whether ibsim of this simulation runs; whether a process runs. */
bool sim_running(struct sim *s);
bool sim_proc_running(struct sim_proc *p);

/*
 * From now on SIGINT, SIGTERM and SIGHUP only note the signal: the waits
 * above return, and the caller stops what it started and exits.
 */
void sim_catch_signals(void);
/* The signal that came, or 0. */
int sim_interrupted(void);
/* Dies of the signal that came (after cleaning up), as if not caught. */
void sim_die_of_signal(void);

/* The last non-empty line of a file ("" if none), for a message. */
void sim_last_line(const char *path, char *buf, size_t len);

/* Removes a directory tree (best effort). */
void sim_remove_tree(const char *path);

/* Seconds to sleep between two looks at a process or a log. */
void sim_sleep_poll(void);

#endif
