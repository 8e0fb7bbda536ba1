// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The option tables of the osmtopo subcommands (see options.h): one
 * declaration per option gives getopt_long's tables, the parsing and
 * checking of its value, its usage errors and its --help line.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "options.h"
#include "parse.h"

/* The value an option writes, inside the command's struct. */
static void *field(void *args, size_t offset)
{
	return (char *)args + offset;
}

/* getopt_long's tables: ':' first, so a missing argument returns ':'. */
static void getopt_tables(const struct tool_option *o, unsigned int n,
			  struct option *longopts, char *shortopts)
{
	unsigned int i, k = 0;

	shortopts[k++] = ':';
	for (i = 0; i < n; i++) {
		longopts[i].name = o[i].name;
		longopts[i].has_arg = o[i].arg ? required_argument :
						 no_argument;
		longopts[i].flag = NULL;
		longopts[i].val = o[i].key;
		shortopts[k++] = (char)o[i].key;
		if (o[i].arg)
			shortopts[k++] = ':';
	}
	memset(&longopts[n], 0, sizeof(longopts[n]));
	shortopts[k] = '\0';
}

/* What a value of this kind looks like, for a usage error. */
static void describe(const struct tool_option *o, char *buf, size_t len)
{
	unsigned int i;
	size_t used;

	switch (o->kind) {
	case TOOL_OPT_UINT:
	case TOOL_OPT_INT:
		snprintf(buf, len, "a whole number from %llu to %llu", o->min,
			 o->max);
		return;
	case TOOL_OPT_SEED:
		snprintf(buf, len, "a 64-bit number, decimal or 0x hex");
		return;
	case TOOL_OPT_FRACTION:
		snprintf(buf, len, "a fraction, 0 <= F < 1");
		return;
	case TOOL_OPT_LIST:
		snprintf(buf, len,
			 "1 to %u numbers from %llu to %llu, comma separated",
			 o->max_items, o->min, o->max);
		return;
	case TOOL_OPT_CHOICE:
		used = (size_t)snprintf(buf, len, "one of");
		for (i = 0; o->choices[i] && used < len; i++)
			used += (size_t)snprintf(buf + used, len - used, "%s %s",
						 i ? "," : "", o->choices[i]);
		return;
	default:
		snprintf(buf, len, "see --help");
		return;
	}
}

static int parse_choice(const struct tool_option *o, const char *arg,
			int *v)
{
	int i;

	for (i = 0; o->choices[i]; i++)
		if (!strcmp(arg, o->choices[i])) {
			*v = i;
			return 0;
		}
	return -1;
}

/* Stores a number option's value.  0, or -1 when arg is not one. */
static int store_number(const struct tool_option *o, const char *arg,
			void *to)
{
	unsigned long long v;

	if (tool_parse_uint(arg, o->min, o->max, &v))
		return -1;
	if (o->kind == TOOL_OPT_UINT)
		*(unsigned int *)to = (unsigned int)v;
	else
		*(int *)to = (int)v;
	return 0;
}


/*
 * Under `osmtopo sim run` a program runs in the simulation's scratch
 * directory (where libumad2sim leaves its sys-PID tree), and sim run says
 * so: OSMTOPO_SIM_SCRATCH is that directory, OSMTOPO_SIM_CWD the one the
 * caller was in.  A relative FILE or DIR given there means the caller's
 * (`-o rel.lfts`, `--qos qos/classes.conf`): it is taken from there.  The
 * strings made live as long as the program (kept[] holds them).
 */
static const char *caller_path(const struct tool_option *o, const char *arg)
{
	static char *kept[16];
	static unsigned int nkept;
	const char *cwd = getenv("OSMTOPO_SIM_CWD");
	const char *scratch = getenv("OSMTOPO_SIM_SCRATCH");
	char here[PATH_MAX], *p;
	size_t len;

	if (!cwd || cwd[0] != '/' || !scratch || !arg[0] || arg[0] == '/' ||
	    !strcmp(arg, "-") || !o->arg ||
	    (strcmp(o->arg, "FILE") && strcmp(o->arg, "DIR")) ||
	    nkept == sizeof(kept) / sizeof(kept[0]) ||
	    !getcwd(here, sizeof(here)) || strcmp(here, scratch))
		return arg;
	len = strlen(cwd) + strlen(arg) + 2;
	p = malloc(len);
	if (!p)
		return arg;
	snprintf(p, len, "%s/%s", cwd, arg);
	kept[nkept++] = p;
	return p;
}

/* Stores one option's value.  0, or -1 with err saying what was wanted. */
static int store(const struct tool_option *o, const char *arg, void *args,
		 struct ot_error *err)
{
	void *to = field(args, o->field);
	int bad = 0;

	switch (o->kind) {
	case TOOL_OPT_HELP:
		break;
	case TOOL_OPT_SET:
	case TOOL_OPT_CLEAR:
		*(bool *)to = o->kind == TOOL_OPT_SET;
		break;
	case TOOL_OPT_STRING:
		*(const char **)to = caller_path(o, arg);
		break;
	case TOOL_OPT_UINT:
	case TOOL_OPT_INT:
		bad = store_number(o, arg, to);
		break;
	case TOOL_OPT_SEED:
		bad = tool_parse_seed(arg, to);
		break;
	case TOOL_OPT_FRACTION:
		bad = tool_parse_fraction(arg, to);
		break;
	case TOOL_OPT_LIST:
		bad = tool_parse_uint_list(arg, ',', (unsigned int)o->min,
					   (unsigned int)o->max, to,
					   o->max_items,
					   field(args, o->count));
		break;
	case TOOL_OPT_CHOICE:
		bad = parse_choice(o, arg, to);
		break;
	case TOOL_OPT_CALL:
		return o->call(args, arg, err);
	}
	if (bad) {
		describe(o, err->msg, sizeof(err->msg));
		return -1;
	}
	if (o->given)
		*(bool *)field(args, o->given - 1) = true;
	return 0;
}

static const struct tool_option *find(const struct tool_command *c, int key)
{
	unsigned int i;

	for (i = 0; i < c->noptions; i++)
		if (c->options[i].key == key)
			return &c->options[i];
	return NULL;
}

/* The usage error for what getopt_long returned as c (':' or '?'). */
static int getopt_error(const struct tool_command *c, int ret, char **argv)
{
	const struct tool_option *o = find(c, optopt);

	if (ret == ':' && o)
		fprintf(stderr, "osmtopo %s: --%s needs an argument", c->name,
			o->name);
	else if (optopt && !o)
		fprintf(stderr, "osmtopo %s: unknown option '-%c'", c->name,
			optopt);
	else
		fprintf(stderr, "osmtopo %s: unknown option '%s'", c->name,
			argv[optind - 1]);
	fprintf(stderr, " (see osmtopo %s --help)\n", c->name);
	return OT_EXIT_USAGE;
}

static void add_seen(char *seen, int key)
{
	size_t n;

	if (!seen || strchr(seen, key))
		return;
	n = strlen(seen);
	seen[n] = (char)key;
	seen[n + 1] = '\0';
}

/*
 * Two options with one short letter: getopt would take the second for the
 * first (a flag read as an option with an argument).  A bug of the
 * command's table, said at every call so that no test can miss it.
 */
static const struct tool_option *shared_key(const struct tool_command *c,
					    const struct tool_option **with)
{
	unsigned int i, j;

	for (i = 0; i < c->noptions; i++)
		for (j = i + 1; j < c->noptions; j++)
			if (c->options[i].key == c->options[j].key) {
				*with = &c->options[j];
				return &c->options[i];
			}
	return NULL;
}

int tool_parse(const struct tool_command *c, int argc, char **argv,
	       void *args, int *next, char *seen)
{
	struct option *longopts = calloc(c->noptions + 1, sizeof(*longopts));
	char *shortopts = malloc(2 * c->noptions + 2);
	struct ot_error err = { 0 };
	const struct tool_option *o;
	int ret, status = -1;

	const struct tool_option *dup, *with = NULL;

	if (!longopts || !shortopts) {
		fprintf(stderr, "osmtopo %s: out of memory\n", c->name);
		status = OT_EXIT_USAGE;
		goto out;
	}
	dup = shared_key(c, &with);
	if (dup) {
		fprintf(stderr,
			"osmtopo %s: bug: --%s and --%s share the short option -%c\n",
			c->name, dup->name, with->name, dup->key);
		status = OT_EXIT_USAGE;
		goto out;
	}
	getopt_tables(c->options, c->noptions, longopts, shortopts);
	if (seen)
		seen[0] = '\0';
	opterr = 0;
	optind = 1;
	while (status < 0) {
		ret = getopt_long(argc, argv, shortopts, longopts, NULL);
		if (ret == -1)
			break;
		o = find(c, ret);
		if (ret == ':' || ret == '?' || !o) {
			status = getopt_error(c, ret, argv);
		} else if (o->kind == TOOL_OPT_HELP) {
			c->usage(stdout, c);
			status = OT_EXIT_OK;
		} else if (store(o, optarg, args, &err)) {
			fprintf(stderr, "osmtopo %s: bad --%s '%s' (%s)\n",
				c->name, o->name, optarg, err.msg);
			status = OT_EXIT_USAGE;
		}
		add_seen(seen, ret);
	}
	*next = optind;
out:
	free(longopts);
	free(shortopts);
	return status;
}

void tool_print_options(FILE *out, const struct tool_command *c)
{
	const struct tool_option *o = c->options;
	unsigned int i;

	for (i = 0; i < c->noptions; i++) {
		char left[48];

		snprintf(left, sizeof(left), "-%c, --%s%s%s", o[i].key,
			 o[i].name, o[i].arg ? " " : "",
			 o[i].arg ? o[i].arg : "");
		fprintf(out, "  %-26s %s\n", left, o[i].help);
	}
}
