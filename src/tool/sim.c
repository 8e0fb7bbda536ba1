// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ibsim, OpenSM and simulated clients, started, watched and stopped (see
 * sim.h).  The PIDs are kept in the work directory with each process's
 * start time from /proc, so that a later `osmtopo sim stop` signals the
 * process that was started and never a stranger that got its PID; a
 * process whose parent is gone is reaped by someone else (or not at all:
 * a zombie counts as stopped).
 */
#define _GNU_SOURCE /* nftw's FTW_DEPTH and FTW_PHYS */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sim.h"
#include "util.h"

#define SIM_POLL_NS 100000000L /* 0.1 s between two looks */

/* ------------------------------------------------------------------ */
/* Signals                                                            */
/* ------------------------------------------------------------------ */

static volatile sig_atomic_t sim_signal;

static void sim_on_signal(int sig)
{
	sim_signal = sig;
}

void sim_catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	unsigned int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sim_on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

int sim_interrupted(void)
{
	return sim_signal;
}

void sim_die_of_signal(void)
{
	int sig = sim_signal;

	if (!sig)
		return;
	signal(sig, SIG_DFL);
	raise(sig);
	_exit(128 + sig);
}

void sim_sleep_poll(void)
{
	struct timespec ts = { 0, SIM_POLL_NS };

	nanosleep(&ts, NULL);
}

/* ------------------------------------------------------------------ */
/* Processes                                                          */
/* ------------------------------------------------------------------ */

/* State and start time of a process from /proc/PID/stat.  0, or -1. */
static int proc_stat(pid_t pid, char *state, unsigned long long *start)
{
	char path[64], buf[1024], *p;
	unsigned int field;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* "PID (COMM) STATE ...": COMM may hold anything, even ") ". */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %c", state) != 1)
		return -1;
	for (field = 2; field < 22 && p; field++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p, " %llu", start) != 1)
		return -1;
	return 0;
}

static unsigned long long proc_start(pid_t pid)
{
	unsigned long long start = 0;
	char state;

	if (proc_stat(pid, &state, &start))
		return 0;
	return start;
}

/* Is p still running?  Reaps it (status set) if it is our child. */
static bool sim_proc_alive(struct sim_proc *p, int *status)
{
	unsigned long long start;
	char state;
	int st = 0;
	pid_t r;

	if (p->pid <= 0)
		return false;
	r = waitpid(p->pid, &st, WNOHANG);
	if (r == p->pid) {
		if (status)
			*status = st;
		return false;
	}
	if (r == 0)
		return true;
	/* Not our child: ask /proc, and check it is the same process. */
	if (proc_stat(p->pid, &state, &start) || state == 'Z' || state == 'X')
		return false;
	return !p->start || start == p->start;
}

void sim_stop_proc(struct sim_proc *p, unsigned int grace)
{
	double until;

	if (!sim_proc_alive(p, NULL)) {
		p->pid = 0;
		return;
	}
	kill(p->pid, SIGTERM);
	until = tool_now() + grace;
	while (sim_proc_alive(p, NULL)) {
		if (tool_now() > until) {
			kill(p->pid, SIGKILL);
			until = tool_now() + 10;
			while (sim_proc_alive(p, NULL) && tool_now() < until)
				sim_sleep_poll();
			break;
		}
		sim_sleep_poll();
	}
	p->pid = 0;
}

int sim_wait(pid_t *pid, unsigned int timeout, int *status)
{
	struct sim_proc p = { *pid, 0 };
	double until = tool_now() + timeout;

	while (sim_proc_alive(&p, status)) {
		if (sim_signal)
			return -1;
		if (tool_now() > until) {
			sim_stop_proc(&p, SIM_STOP_GRACE);
			*pid = 0;
			return -1;
		}
		sim_sleep_poll();
	}
	*pid = 0;
	return 0;
}

/*
 * In a new child: cwd, standard streams (in: NULL for /dev/null, else a
 * FIFO held open for reading and writing, so that it never ends; err the
 * same file as out: one file, both streams) and environment (NAME, VALUE
 * pairs).
 */
static void child_setup(const char *cwd, const char *in, const char *out,
			const char *err, const char *const env[])
{
	unsigned int i;
	int fd;

	if (chdir(cwd))
		_exit(127);
	fd = in ? open(in, O_RDWR) : open("/dev/null", O_RDONLY);
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		close(fd);
	}
	if (out) {
		fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			_exit(127);
		dup2(fd, STDOUT_FILENO);
		close(fd);
	}
	if (err && out && !strcmp(err, out)) {
		dup2(STDOUT_FILENO, STDERR_FILENO);
	} else if (err) {
		fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			_exit(127);
		dup2(fd, STDERR_FILENO);
		close(fd);
	}
	for (i = 0; env[i]; i += 2)
		setenv(env[i], env[i + 1], 1);
}

/*
 * Starts argv (searched in PATH) in cwd, input from in (see child_setup),
 * output to out and err (NULL: inherited), with env added.  The PID, or
 * -1.  (The parent has one thread: stdio and setenv are safe in the
 * child.)
 */
static pid_t spawn(const char *const argv[], const char *cwd, const char *in,
		   const char *out, const char *err, const char *const env[])
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	child_setup(cwd, in, out, err, env);
	/* exec never writes to its arguments; the cast only drops const. */
	execvp(argv[0], (char *const *)argv);
	fprintf(stderr, "osmtopo: cannot run %s: %s\n", argv[0],
		strerror(errno));
	_exit(127);
}

/* ------------------------------------------------------------------ */
/* The work directory                                                 */
/* ------------------------------------------------------------------ */

/* dir/name into buf; buf holds PATH_MAX bytes. */
static char *sim_path(const struct sim *s, const char *name, char *buf)
{
	snprintf(buf, PATH_MAX, "%.*s/%s", PATH_MAX - 32, s->dir, name);
	return buf;
}

static int rm_one(const char *path, const struct stat *sb, int flag,
		  struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

void sim_remove_tree(const char *path)
{
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int make_dir(const char *path, struct ot_error *err)
{
	if (mkdir(path, 0755) && errno != EEXIST)
		return ot_error_set(err, "%s: %s", path, strerror(errno));
	return 0;
}

/* name.pid holds "PID STARTTIME"; no file, no process. */
static void read_pid(const struct sim *s, const char *name,
		     struct sim_proc *p)
{
	char path[PATH_MAX];
	long pid = 0;
	FILE *f = fopen(sim_path(s, name, path), "r");

	p->pid = 0;
	p->start = 0;
	if (!f)
		return;
	if (fscanf(f, "%ld %llu", &pid, &p->start) >= 1 && pid > 0)
		p->pid = (pid_t)pid;
	fclose(f);
}

static void write_pid(const struct sim *s, const char *name,
		      const struct sim_proc *p)
{
	char path[PATH_MAX];
	FILE *f;

	sim_path(s, name, path);
	if (!p->pid) {
		unlink(path);
		return;
	}
	f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "%ld %llu\n", (long)p->pid, p->start);
	fclose(f);
}

static void read_sockname(struct sim *s)
{
	char path[PATH_MAX];
	FILE *f = fopen(sim_path(s, "sockname", path), "r");

	s->sockname[0] = '\0';
	if (!f)
		return;
	if (fgets(s->sockname, sizeof(s->sockname), f))
		s->sockname[strcspn(s->sockname, "\n")] = '\0';
	fclose(f);
}

/* .libs beside this program, when it holds the plugin (a build tree). */
static void find_plugin_dir(struct sim *s, const char *given)
{
	char self[PATH_MAX], probe[PATH_MAX + 32], *slash;
	ssize_t n;

	s->plugin_dir[0] = '\0';
	if (given) {
		if (!realpath(given, s->plugin_dir))
			snprintf(s->plugin_dir, sizeof(s->plugin_dir), "%s",
				 given);
		return;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (!slash)
		return;
	*slash = '\0';
	snprintf(probe, sizeof(probe), "%s/.libs/libosmtopo.so", self);
	if (access(probe, R_OK))
		return; /* installed: OpenSM finds it on the search path */
	snprintf(s->plugin_dir, sizeof(s->plugin_dir), "%.*s/.libs",
		 PATH_MAX - 8, self);
}

int sim_open(struct sim *s, const char *dir, const char *plugin_dir,
	     struct ot_error *err)
{
	const char *umad = getenv("UMAD2SIM");

	memset(s, 0, sizeof(*s));
	if (make_dir(dir, err))
		return -1;
	if (!realpath(dir, s->dir))
		return ot_error_set(err, "%s: %s", dir, strerror(errno));
	snprintf(s->umad2sim, sizeof(s->umad2sim), "%s",
		 umad && umad[0] ? umad : SIM_UMAD2SIM);
	find_plugin_dir(s, plugin_dir);
	read_sockname(s);
	read_pid(s, "ibsim.pid", &s->ibsim);
	read_pid(s, "opensm.pid", &s->opensm);
	return 0;
}

bool sim_proc_running(struct sim_proc *p)
{
	return sim_proc_alive(p, NULL);
}

bool sim_running(struct sim *s)
{
	return s->sockname[0] && sim_proc_alive(&s->ibsim, NULL);
}

/* ------------------------------------------------------------------ */
/* ibsim                                                              */
/* ------------------------------------------------------------------ */

/*
 * Nodes, switches and ports of a net file, for ibsim's -N -S -P (its
 * defaults are 256 switches and 2048 nodes).  Records start with their
 * type and port count: "Switch 36 ...", "Hca 1 ...".
 */
static int count_net(const char *netfile, unsigned long *nodes,
		     unsigned long *switches, unsigned long *ports)
{
	static const char *const types[] = { "Switch", "Hca", "Ca", "Rt" };
	char line[1024];
	FILE *f = fopen(netfile, "r");
	unsigned int t;

	*nodes = *switches = *ports = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		for (t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
			size_t n = strlen(types[t]);

			if (strncmp(line, types[t], n) ||
			    (line[n] != ' ' && line[n] != '\t'))
				continue;
			(*nodes)++;
			*switches += t == 0;
			*ports += strtoul(line + n, NULL, 10) + 1;
		}
	}
	fclose(f);
	return 0;
}

/* A socket name of this directory's own (FNV-1a of its path). */
static void make_sockname(struct sim *s)
{
	unsigned long long h = 0xcbf29ce484222325ull;
	const char *c;

	for (c = s->dir; *c; c++)
		h = (h ^ (unsigned char)*c) * 0x100000001b3ull;
	snprintf(s->sockname, sizeof(s->sockname), "osmtopo-%016llx", h);
}

/* Waits for a line holding text in path; 0, or -1 (timeout, death). */
static int wait_line(struct sim_proc *writer, const char *path,
		     const char *text, unsigned int timeout)
{
	struct osm_tail t = { 0 };
	double until = tool_now() + timeout;
	int error = -1;

	snprintf(t.path, sizeof(t.path), "%s", path);
	for (;;) {
		while (osm_tail_next(&t))
			if (strstr(t.line, text)) {
				error = 0;
				goto out;
			}
		if (sim_signal || tool_now() > until ||
		    !sim_proc_alive(writer, NULL))
			goto out;
		sim_sleep_poll();
	}
out:
	osm_tail_close(&t);
	return error;
}

void sim_last_line(const char *path, char *buf, size_t len)
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

/*
 * Why ibsim did not start, from its log: its first warning or panic
 * ("ibwarn: [PID] connect_ports: can't find remote node ..."), without
 * the "ibwarn: [PID] " before it; else its last line.
 */
static void ibsim_cause(const char *path, char *buf, size_t len)
{
	char line[512], *p;
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "ibwarn: [", 9) &&
		    strncmp(line, "ibpanic: [", 10))
			continue;
		p = strstr(line, "] ");
		snprintf(buf, len, "%.*s", (int)(len - 1), p ? p + 2 : line);
		break;
	}
	if (f)
		fclose(f);
	if (!buf[0])
		sim_last_line(path, buf, len);
}

/*
 * The subdirectories, with fresh OpenSM state for a new fabric: stale
 * guid2lid files break it.
 */
static int reset_osm_state(struct sim *s, struct ot_error *err)
{
	char path[PATH_MAX];

	if (make_dir(sim_path(s, "scratch", path), err))
		return -1;
	sim_remove_tree(sim_path(s, "osm-tmp", path));
	if (make_dir(path, err))
		return -1;
	sim_remove_tree(sim_path(s, "osm-cache", path));
	return make_dir(path, err);
}

/*
 * ibsim reads its console commands (Unlink, ReLink, ...) from its stdin:
 * the FIFO DIR/ibsim.cmd, which it holds open for reading and writing
 * (never at its end), and sim_ibsim_cmd() writes to.  Its switches
 * report LinearFDBCap 0x7800 (30,720) unless told (-L), and OpenSM
 * hands out LIDs only up to the least LinearFDBCap of the fabric
 * (osm_si_rcv.c: "Subnet max unicast lid"): the 16K FlatFly with LMC 1
 * needs 34,817 and OpenSM ran out of LIDs (ERR 0307, issue 25).  So the
 * simulated switches report 0xC000 = 49,152, every unicast LID, as
 * current switches do (doc/scaling.md).
 */
#define SIM_LINEAR_FDB_CAP "49152"
static int spawn_ibsim(struct sim *s, const char *net, struct ot_error *err)
{
	char nodes[24], switches[24], ports[24], log[PATH_MAX];
	char scratch[PATH_MAX], fifo[PATH_MAX];
	unsigned long n, sw, p;
	const char *argv[] = { "ibsim", "-s", "-N", nodes, "-S",
			       switches, "-P", ports, "-L",
			       SIM_LINEAR_FDB_CAP, net, NULL };
	const char *env[] = { "IBSIM_SOCKNAME", s->sockname, NULL };

	if (count_net(net, &n, &sw, &p))
		return ot_error_set(err, "%s: %s", net, strerror(errno));
	if (p < n * 40)
		p = n * 40;
	snprintf(nodes, sizeof(nodes), "%lu", n + 16);
	snprintf(switches, sizeof(switches), "%lu", sw + 16);
	snprintf(ports, sizeof(ports), "%lu", p + 64);
	sim_path(s, "ibsim.cmd", fifo);
	if ((unlink(fifo) && errno != ENOENT) || mkfifo(fifo, 0600))
		return ot_error_set(err, "%s: %s", fifo, strerror(errno));
	/*
	 * A new file, not the last run's truncated by the child: the wait
	 * for "Network simulator ready" could read the old one's.
	 */
	if (unlink(sim_path(s, "ibsim.log", log)) && errno != ENOENT)
		return ot_error_set(err, "%s: %s", log, strerror(errno));
	s->ibsim.pid = spawn(argv, sim_path(s, "scratch", scratch), fifo, log,
			     log, env);
	if (s->ibsim.pid < 0) {
		s->ibsim.pid = 0;
		return ot_error_set(err, "cannot start ibsim: %s",
				    strerror(errno));
	}
	s->ibsim.start = proc_start(s->ibsim.pid);
	return 0;
}

int sim_start_ibsim(struct sim *s, const char *netfile, unsigned int timeout,
		    struct ot_error *err)
{
	char net[PATH_MAX], path[PATH_MAX], last[320];
	FILE *f;

	if (sim_running(s))
		return ot_error_set(err,
				    "%s: a simulation runs there (ibsim PID %ld): stop it first",
				    s->dir, (long)s->ibsim.pid);
	if (access(s->umad2sim, R_OK))
		return ot_error_set(err, "%s: %s (set UMAD2SIM)", s->umad2sim,
				    strerror(errno));
	/* ibsim runs in scratch/: the path must not be relative. */
	if (!realpath(netfile, net))
		return ot_error_set(err, "%s: %s", netfile, strerror(errno));
	if (reset_osm_state(s, err))
		return -1;
	s->opensm.pid = 0;
	write_pid(s, "opensm.pid", &s->opensm);
	make_sockname(s);
	f = fopen(sim_path(s, "sockname", path), "w");
	if (!f || fprintf(f, "%s\n", s->sockname) < 0 || fclose(f))
		return ot_error_set(err, "%s: %s", path, strerror(errno));
	if (spawn_ibsim(s, net, err))
		return -1;
	write_pid(s, "ibsim.pid", &s->ibsim);
	if (wait_line(&s->ibsim, sim_path(s, "ibsim.log", path),
		      "Network simulator ready", timeout)) {
		sim_stop(s, SIM_STOP_GRACE);
		if (sim_signal)
			return ot_error_set(err, "ibsim did not start: interrupted");
		ibsim_cause(path, last, sizeof(last));
		return ot_error_set(err, "ibsim did not start: %s (%s)",
				    last[0] ? last : "no output", path);
	}
	return 0;
}

/*
 * What ibsim wrote to its log from *offset on, up to the marker line (the
 * '#' comment ibsim echoes without a newline), into buf: 1 when the
 * marker is there, 0 not yet, -1 on a read error.  A full buffer without
 * the marker moves *offset on (the reply keeps its end).
 */
static int ibsim_reply(const char *log, long *offset, const char *marker,
		       char *buf, size_t len)
{
	FILE *f = fopen(log, "r");
	size_t n = 0;
	char *at;

	if (!f)
		return -1;
	if (!fseek(f, *offset, SEEK_SET))
		n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	at = strstr(buf, marker);
	if (at) {
		*at = '\0';
		return 1;
	}
	if (n == len - 1)
		*offset += (long)(n - strlen(marker));
	return 0;
}

/*
 * Whether a line of ibsim's reply is an error: Link, Unlink, ReLink and
 * the others say "# ..." (unknown node, bad port, nothing to relink);
 * Dump's own "# Net status", "#  dumped" and "#\t..." lines are not.
 */
static bool ibsim_error_line(const char *line)
{
	if (!strncmp(line, "command '", 9))
		return strstr(line, "unknown - skipped") != NULL;
	return !strncmp(line, "# ", 2) && strncmp(line, "#  ", 3) &&
	       strncmp(line, "# Net status", 12);
}

/*
 * Drops ibsim's "sim> " prompts from a reply, and its "ibwarn: [PID]
 * send_trap: routing failed ..." lines: a switch whose port changed
 * cannot send its trap while no SM has configured the fabric, which is
 * no answer to the command (ibsim.log keeps them).  1 if the reply holds
 * an error.
 */
static int ibsim_reply_clean(char *buf)
{
	static const char prompt[] = "sim> ";
	char *p, *e;

	while ((p = strstr(buf, prompt)))
		memmove(p, p + strlen(prompt), strlen(p + strlen(prompt)) + 1);
	for (p = buf; *p;) {
		e = strchr(p, '\n');
		e = e ? e + 1 : p + strlen(p);
		if (!strncmp(p, "ibwarn: [", 9) &&
		    strstr(p, "] send_trap: ") &&
		    strstr(p, "] send_trap: ") < e)
			memmove(p, e, strlen(e) + 1);
		else
			p = e;
	}
	for (p = buf; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (ibsim_error_line(p))
			return 1;
	return 0;
}

int sim_ibsim_cmd(struct sim *s, const char *const lines[], unsigned int n,
		  unsigned int timeout, FILE *out, struct ot_error *err)
{
	static char reply[65536];
	char fifo[PATH_MAX], log[PATH_MAX], marker[64], text[4096];
	double until = tool_now() + timeout;
	size_t used = 0;
	struct stat st;
	unsigned int i;
	long offset;
	int fd, got;

	for (i = 0; i < n; i++) {
		/* ibsim reads a line into 128 bytes */
		if (strlen(lines[i]) > 120 || strchr(lines[i], '\n'))
			return ot_error_set(err, "not one ibsim line: %s",
					    lines[i]);
		used += snprintf(text + used, sizeof(text) - used, "%s\n",
				 lines[i]);
		if (used >= sizeof(text) - sizeof(marker))
			return ot_error_set(err, "too many ibsim lines");
	}
	snprintf(marker, sizeof(marker), "#osmtopo-sync-%ld-%.0f",
		 (long)getpid(), tool_now() * 1000);
	snprintf(text + used, sizeof(text) - used, "%s\n", marker);
	if (stat(sim_path(s, "ibsim.log", log), &st))
		return ot_error_set(err, "%s: %s", log, strerror(errno));
	offset = (long)st.st_size;
	/* ibsim holds the FIFO open: no reader means no console. */
	fd = open(sim_path(s, "ibsim.cmd", fifo), O_WRONLY | O_NONBLOCK);
	if (fd < 0)
		return ot_error_set(err, "%s: %s (ibsim without console?)",
				    fifo, strerror(errno));
	used = strlen(text);
	got = write(fd, text, used) == (ssize_t)used ? 0 : -1;
	close(fd);
	if (got)
		return ot_error_set(err, "%s: %s", fifo, strerror(errno));
	while (!(got = ibsim_reply(log, &offset, marker, reply,
				   sizeof(reply)))) {
		if (sim_signal || tool_now() > until ||
		    !sim_proc_alive(&s->ibsim, NULL))
			return ot_error_set(err, "ibsim did not answer%s",
					    sim_signal ? " (interrupted)" : "");
		sim_sleep_poll();
	}
	if (got < 0)
		return ot_error_set(err, "%s: %s", log, strerror(errno));
	got = ibsim_reply_clean(reply);
	fputs(reply, out);
	if (reply[0] && reply[strlen(reply) - 1] != '\n')
		fputc('\n', out);
	return got ? ot_error_set(err, "ibsim refused a command") : 0;
}

/* ------------------------------------------------------------------ */
/* OpenSM                                                             */
/* ------------------------------------------------------------------ */

/*
 * A value of words (blanks or commas between them) whose "NAME=FILE"
 * words name existing files, as event_plugin_options's
 * "osmtopo_qos=FILE": those files by absolute path, the rest as is.
 */
static void absolute_values(const char *value, char *out, size_t len)
{
	char word[PATH_MAX], abs[PATH_MAX];
	size_t used = 0, n, sep;
	const char *eq;

	out[0] = '\0';
	while (*value && used < len) {
		sep = strspn(value, " ,\t");
		n = strcspn(value + sep, " ,\t");
		snprintf(word, sizeof(word), "%.*s", (int)n, value + sep);
		eq = strchr(word, '=');
		if (eq && eq[1] && eq[1] != '/' && !access(eq + 1, F_OK) &&
		    realpath(eq + 1, abs))
			used += snprintf(out + used, len - used, "%.*s%.*s%s",
					 (int)sep, value, (int)(eq + 1 - word),
					 word, abs);
		else
			used += snprintf(out + used, len - used, "%.*s%s",
					 (int)sep, value, word);
		value += sep + n;
	}
}

int sim_parse_osm_option(const char *arg, struct sim_osm_option *o,
			 struct ot_error *err)
{
	const char *eq = strchr(arg, '=');
	size_t klen = eq ? (size_t)(eq - arg) : 0;

	if (!klen || klen >= sizeof(o->key) || strcspn(arg, " \t") < klen ||
	    !eq[1] || strlen(eq + 1) >= sizeof(o->value) ||
	    strchr(eq + 1, '\n'))
		return ot_error_set(err, "want KEY=VALUE");
	snprintf(o->key, sizeof(o->key), "%.*s", (int)klen, arg);
	/* OpenSM runs in scratch/: a file must be named by absolute path. */
	if (access(eq + 1, F_OK) || !realpath(eq + 1, o->value))
		absolute_values(eq + 1, o->value, sizeof(o->value));
	return 0;
}

static bool has_key(const struct sim_opensm *o, const char *key)
{
	unsigned int i;

	for (i = 0; i < o->noptions; i++)
		if (!strcmp(o->options[i].key, key))
			return true;
	return false;
}

static int write_conf(const char *path, const struct sim_opensm *o)
{
	/*
	 * The plugin always: without it osmtopo's engines are unknown
	 * names.  The log flushed line by line: it is watched.
	 */
	static const char *const base[][2] = {
		{ "event_plugin_name", "osmtopo" },
		{ "force_log_flush", "TRUE" },
		{ "log_flags", "0x03" },
	};
	FILE *f = fopen(path, "w");
	unsigned int i;

	if (!f)
		return -1;
	for (i = 0; i < sizeof(base) / sizeof(base[0]); i++)
		if (!has_key(o, base[i][0]))
			fprintf(f, "%s %s\n", base[i][0], base[i][1]);
	for (i = 0; i < o->noptions; i++)
		fprintf(f, "%s %s\n", o->options[i].key, o->options[i].value);
	return fclose(f) ? -1 : 0;
}

/* [WRAP...] opensm -F conf -f log [-o] [ARGS...], NULL-terminated. */
static const char **opensm_argv(const struct sim *s,
				const struct sim_opensm *o, char *conf,
				char *log)
{
	const char **argv = calloc(o->nwrap + o->nargs + 8, sizeof(*argv));
	unsigned int n = 0, i;

	if (!argv)
		return NULL;
	for (i = 0; i < o->nwrap; i++)
		argv[n++] = o->wrap[i];
	argv[n++] = "opensm";
	argv[n++] = "-F";
	argv[n++] = sim_path(s, "opensm.conf", conf);
	argv[n++] = "-f";
	argv[n++] = sim_path(s, "opensm.log", log);
	if (o->once)
		argv[n++] = "-o";
	for (i = 0; i < o->nargs; i++)
		argv[n++] = o->args[i];
	return argv;
}

int sim_start_opensm(struct sim *s, const struct sim_opensm *o,
		     struct ot_error *err)
{
	char conf[PATH_MAX], log[PATH_MAX], out[PATH_MAX], scratch[PATH_MAX];
	char tmp[PATH_MAX], cache[PATH_MAX], libpath[2 * PATH_MAX + 2];
	const char *old = getenv("LD_LIBRARY_PATH");
	const char *env[] = {
		"IBSIM_SOCKNAME", s->sockname,
		"OSM_TMP_DIR", sim_path(s, "osm-tmp", tmp),
		"OSM_CACHE_DIR", sim_path(s, "osm-cache", cache),
		"LD_PRELOAD", s->umad2sim,
		s->plugin_dir[0] ? "LD_LIBRARY_PATH" : NULL, libpath,
		NULL,
	};
	const char **argv;

	if (!sim_running(s))
		return ot_error_set(err, "%s: no simulation runs there", s->dir);
	if (sim_proc_alive(&s->opensm, NULL))
		return ot_error_set(err, "%s: OpenSM runs there (PID %ld)",
				    s->dir, (long)s->opensm.pid);
	snprintf(libpath, sizeof(libpath), "%s%s%s", s->plugin_dir,
		 old && old[0] ? ":" : "", old ? old : "");
	if (write_conf(sim_path(s, "opensm.conf", conf), o))
		return ot_error_set(err, "%s: %s", conf, strerror(errno));
	unlink(sim_path(s, "opensm.log", log));
	argv = opensm_argv(s, o, conf, log);
	if (!argv)
		return ot_error_nomem(err, "opensm");
	sim_path(s, "opensm.out", out);
	s->opensm.pid = spawn(argv, sim_path(s, "scratch", scratch), NULL,
			      out, out,
			      env);
	free((void *)argv);
	if (s->opensm.pid < 0) {
		s->opensm.pid = 0;
		return ot_error_set(err, "cannot start opensm: %s",
				    strerror(errno));
	}
	s->opensm.start = proc_start(s->opensm.pid);
	write_pid(s, "opensm.pid", &s->opensm);
	return 0;
}

enum sim_osm_state sim_wait_opensm(struct sim *s, struct osm_watch *w,
				   bool once, unsigned int timeout,
				   int *status)
{
	double until = tool_now() + timeout;

	for (;;) {
		osm_watch_poll(w);
		if (w->failed)
			return SIM_OSM_FAILED;
		if (w->up && !once)
			return SIM_OSM_UP;
		if (!sim_proc_alive(&s->opensm, status)) {
			osm_watch_poll(w); /* what it wrote last */
			s->opensm.pid = 0;
			write_pid(s, "opensm.pid", &s->opensm);
			return SIM_OSM_EXITED;
		}
		if (sim_signal)
			return SIM_OSM_INTERRUPTED;
		if (tool_now() > until)
			return SIM_OSM_TIMEOUT;
		sim_sleep_poll();
	}
}

/* ------------------------------------------------------------------ */
/* Clients and stopping                                               */
/* ------------------------------------------------------------------ */

pid_t sim_spawn_client(const struct sim *s, const char *const argv[],
		       const char *out, const char *errpath)
{
	char scratch[PATH_MAX];
	const char *env[] = {
		"IBSIM_SOCKNAME", s->sockname,
		"LD_PRELOAD", s->umad2sim,
		NULL,
	};

	return spawn(argv, sim_path(s, "scratch", scratch), NULL, out,
		     errpath, env);
}

int sim_exec_client(const struct sim *s, const char *const argv[])
{
	char scratch[PATH_MAX], cwd[PATH_MAX];

	/* For osmtopo, whose relative FILE and DIR mean the caller's. */
	if (getcwd(cwd, sizeof(cwd)) &&
	    (setenv("OSMTOPO_SIM_CWD", cwd, 1) ||
	     setenv("OSMTOPO_SIM_SCRATCH", sim_path(s, "scratch", scratch),
		    1)))
		return -1;
	if (chdir(sim_path(s, "scratch", scratch)) ||
	    setenv("IBSIM_SOCKNAME", s->sockname, 1) ||
	    setenv("LD_PRELOAD", s->umad2sim, 1))
		return -1;
	execvp(argv[0], (char *const *)argv);
	return -1;
}

void sim_stop_opensm(struct sim *s, unsigned int grace)
{
	sim_stop_proc(&s->opensm, grace);
	write_pid(s, "opensm.pid", &s->opensm);
}

void sim_stop(struct sim *s, unsigned int grace)
{
	sim_stop_opensm(s, grace);
	sim_stop_proc(&s->ibsim, grace);
	write_pid(s, "ibsim.pid", &s->ibsim);
}
