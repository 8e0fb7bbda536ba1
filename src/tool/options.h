/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Command-line options of the osmtopo subcommands, declared once as a
 * table (as infiniband-diags does): each option says its names, its help
 * line, what kind of value it takes and where in the command's own struct
 * it goes.  tool_parse() fills that struct from argv and reports every
 * usage error in the same words and with the same exit status (2); the
 * --help text comes from the same table.
 */
#ifndef OSMTOPO_TOOL_OPTIONS_H
#define OSMTOPO_TOOL_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/error.h"

enum tool_option_kind {
	TOOL_OPT_HELP,     /* print the command's usage on stdout, exit 0 */
	TOOL_OPT_SET,      /* bool: true */
	TOOL_OPT_CLEAR,    /* bool: false */
	TOOL_OPT_STRING,   /* const char *: the argument itself */
	TOOL_OPT_UINT,     /* unsigned int in [min, max] */
	TOOL_OPT_INT,      /* int in [min, max] */
	TOOL_OPT_SEED,     /* uint64_t: any 64-bit number, decimal or 0x hex */
	TOOL_OPT_FRACTION, /* double, 0 <= F < 1 */
	TOOL_OPT_LIST,     /* unsigned int[]: 1 to max_items numbers in
			    * [min, max], comma separated; count at .count */
	TOOL_OPT_CHOICE,   /* int: the index of the argument in .choices */
	TOOL_OPT_CALL,     /* .call() takes it (checks beyond syntax, lists
			    * of strings, repeatable options) */
};

struct tool_option {
	const char *name; /* long name */
	int key;          /* short name, and the key in tool_parse()'s seen */
	const char *arg;  /* argument name in the help; NULL for a flag */
	const char *help;
	enum tool_option_kind kind;
	size_t field;     /* offset of the value in the command's struct */
	size_t given;     /* 1 + offset of a bool set when given; 0: none */
	unsigned long long min, max; /* UINT, INT, LIST elements */
	unsigned int max_items;      /* LIST */
	size_t count;                /* LIST: offset of the unsigned count */
	const char *const *choices;  /* CHOICE: NULL-terminated */
	/* CALL: 0, or -1 with err saying what was wanted */
	int (*call)(void *args, const char *arg, struct ot_error *err);
};

/*
 * The offset of member in type, which must be of type ctype (the unused
 * comparison makes the compiler hold the table to the struct).
 */
#define TOOL_FIELD(type, member, ctype)                                   \
	(offsetof(type, member) +                                          \
	 0 * sizeof(&((type *)0)->member == (ctype *)0))

#define TOOL_HELP .kind = TOOL_OPT_HELP
#define TOOL_SET(type, m)                                                 \
	.kind = TOOL_OPT_SET, .field = TOOL_FIELD(type, m, bool)
#define TOOL_CLEAR(type, m)                                               \
	.kind = TOOL_OPT_CLEAR, .field = TOOL_FIELD(type, m, bool)
#define TOOL_STRING(type, m)                                              \
	.kind = TOOL_OPT_STRING, .field = TOOL_FIELD(type, m, const char *)
#define TOOL_UINT(type, m, lo, hi)                                        \
	.kind = TOOL_OPT_UINT, .field = TOOL_FIELD(type, m, unsigned int), \
	.min = (lo), .max = (hi)
#define TOOL_INT(type, m, lo, hi)                                         \
	.kind = TOOL_OPT_INT, .field = TOOL_FIELD(type, m, int),           \
	.min = (lo), .max = (hi)
#define TOOL_SEED(type, m)                                                \
	.kind = TOOL_OPT_SEED, .field = TOOL_FIELD(type, m, uint64_t)
#define TOOL_FRACTION(type, m)                                            \
	.kind = TOOL_OPT_FRACTION, .field = TOOL_FIELD(type, m, double)
#define TOOL_LIST(type, m, n, items, lo, hi)                              \
	.kind = TOOL_OPT_LIST, .field = TOOL_FIELD(type, m[0], unsigned int), \
	.count = TOOL_FIELD(type, n, unsigned int), .max_items = (items),   \
	.min = (lo), .max = (hi)
#define TOOL_CHOICE(type, m, list)                                        \
	.kind = TOOL_OPT_CHOICE, .field = TOOL_FIELD(type, m, int),        \
	.choices = (list)
#define TOOL_CALL(fn) .kind = TOOL_OPT_CALL, .call = (fn)
/* Also record that the option was given, in bool member m. */
#define TOOL_GIVEN(type, m) .given = TOOL_FIELD(type, m, bool) + 1

/* static const struct tool_command var: name, its option table, usage. */
#define TOOL_COMMAND(var, name, table, usage_fn)                          \
	static const struct tool_command var = {                         \
		name, table, TOOL_NOPTIONS(table), usage_fn, NULL        \
	}

/* Options several commands have, declared once. */
#define TOOL_OPTION_HELP { "help", 'h', NULL, "this help", TOOL_HELP }
#define TOOL_OPTION_OUTPUT(type, m)                                       \
	{ "output", 'o', "FILE", "write to FILE instead of standard output", \
	  TOOL_STRING(type, m) }

struct tool_command {
	const char *name; /* "gen": messages say "osmtopo gen: ..." */
	const struct tool_option *options;
	unsigned int noptions;
	/* The whole --help text (tool_print_options() for the options). */
	void (*usage)(FILE *out, const struct tool_command *c);
	const void *help; /* what usage may need besides; or NULL */
};

#define TOOL_NOPTIONS(table) (sizeof(table) / sizeof((table)[0]))

/*
 * Parses the options of argv (argv[0] is the subcommand; options may come
 * between operands, "--" ends them) into args, the command's struct with
 * its defaults already set.  Returns -1 when the command goes on, with
 * its operands in argv[*next..argc-1]; otherwise the status to exit with:
 * OT_EXIT_OK after --help, OT_EXIT_USAGE after one line on stderr saying
 * what is wrong.  seen, if not NULL, gets the keys of the options given,
 * each once, as a string (room for noptions + 1 characters).
 */
int tool_parse(const struct tool_command *c, int argc, char **argv,
	       void *args, int *next, char *seen);

/* One "  -k, --name ARG   help" line per option of c. */
void tool_print_options(FILE *out, const struct tool_command *c);

#endif
