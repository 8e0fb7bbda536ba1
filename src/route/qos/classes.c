// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The osmtopo class table: a small text file an administrator writes next
 * to OpenSM's QoS policy, one `class` line per SL the policy's qos-levels
 * use, saying the share of each link the class gets, how urgent it is
 * (maximum distance between two of its arbitration entries) and its MTU.
 * An `arbiter` line sets the methodology's parameters.  Every error names
 * the file and line, so the plugin's log points at what to fix.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "route/qos/qos.h"

#define MAX_WORDS 16

struct cursor {
	const char *file;
	unsigned int line;
	struct ot_error *err;
};

static int bad(const struct cursor *c, const char *what, const char *word)
{
	return ot_refuse(c->err, OT_ERR_CONFIG, "%s:%u: %s '%s'", c->file,
			 c->line, what, word);
}

static int parse_uint(const struct cursor *c, const char *word,
		      unsigned long lo, unsigned long hi, unsigned int *v)
{
	char *end;
	unsigned long x;

	errno = 0;
	x = strtoul(word, &end, 10);
	if (word[0] < '0' || word[0] > '9' || *end || errno || x < lo ||
	    x > hi) {
		char what[64];

		snprintf(what, sizeof(what), "expected a number in [%lu, %lu], got",
			 lo, hi);
		return bad(c, what, word);
	}
	*v = (unsigned int)x;
	return 0;
}

/* "0.25" or "25%": 0 < share <= 1. */
static int parse_share(const struct cursor *c, const char *word, double *v)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(word, &end);
	if (end != word && *end == '%' && !end[1]) {
		x /= 100;
		end++;
	}
	if (end == word || *end || errno || !(x > 0 && x <= 1))
		return bad(c, "expected a share in (0, 1] or (0%, 100%], got",
			   word);
	*v = x;
	return 0;
}

static int parse_bytes(const struct cursor *c, const char *word,
		       unsigned int *v)
{
	if (parse_uint(c, word, OT_QOS_UNIT, 255 * OT_QOS_UNIT, v))
		return -1;
	if (*v % OT_QOS_UNIT)
		return bad(c, "expected a multiple of 64 bytes, got", word);
	return 0;
}

static int parse_arbiter(const struct cursor *c, char **w, unsigned int n,
			 struct ot_qos_table *t)
{
	unsigned int i;
	int rc = 0;

	if (n % 2 == 0)
		return bad(c, "arbiter: a keyword without its value:", w[n - 1]);
	for (i = 1; i + 1 < n && !rc; i += 2) {
		if (!strcmp(w[i], "entries"))
			rc = parse_uint(c, w[i + 1], 1, OT_QOS_MAX_ENTRIES,
					&t->entries);
		else if (!strcmp(w[i], "gmtu"))
			rc = parse_bytes(c, w[i + 1], &t->gmtu);
		else if (!strcmp(w[i], "w"))
			rc = parse_uint(c, w[i + 1], 1, 255, &t->w);
		else if (!strcmp(w[i], "k"))
			rc = parse_uint(c, w[i + 1], 1, 255, &t->k);
		else
			rc = bad(c, "arbiter: unknown keyword", w[i]);
	}
	return rc;
}

static int class_keyword(const struct cursor *c, const char *key,
			 const char *val, struct ot_qos_class *k)
{
	unsigned int rank;

	if (!strcmp(key, "sl"))
		return parse_uint(c, val, 0, 14, &rank) ? -1 :
		       (k->sl = (uint8_t)rank, 0);
	if (!strcmp(key, "share"))
		return parse_share(c, val, &k->share);
	if (!strcmp(key, "distance"))
		return parse_uint(c, val, 1, OT_QOS_MAX_ENTRIES, &k->distance);
	if (!strcmp(key, "latency")) {
		if (parse_uint(c, val, 0, 8, &rank))
			return -1;
		k->distance = 1u << rank;
		return 0;
	}
	if (!strcmp(key, "mtu"))
		return parse_bytes(c, val, &k->mtu);
	return bad(c, "class: unknown keyword", key);
}

static int parse_class(const struct cursor *c, char **w, unsigned int n,
		       struct ot_qos_table *t)
{
	struct ot_qos_class *k;
	unsigned int i;

	if (n < 2 || n % 2 == 1)
		return bad(c, "class: expected NAME and keyword value pairs after",
			   w[0]);
	if (t->nclasses == OT_QOS_MAX_CLASSES)
		return bad(c, "more than 15 classes at", w[1]);
	k = &t->cls[t->nclasses];
	memset(k, 0, sizeof(*k));
	k->sl = 0xff;
	k->line = c->line;
	if (strlen(w[1]) >= OT_QOS_NAME_LEN)
		return bad(c, "class name longer than 31 characters:", w[1]);
	strcpy(k->name, w[1]);
	for (i = 2; i + 1 < n; i += 2)
		if (class_keyword(c, w[i], w[i + 1], k))
			return -1;
	if (k->sl == 0xff || k->share == 0 || k->distance == 0)
		return bad(c, "class needs sl, share and distance (or latency):",
			   k->name);
	for (i = 0; i < t->nclasses; i++) {
		if (t->cls[i].sl == k->sl)
			return ot_refuse(c->err, OT_ERR_CONFIG,
					 "%s:%u: class '%s' takes SL %u, already class '%s''s (line %u)",
					 c->file, c->line, k->name, k->sl,
					 t->cls[i].name, t->cls[i].line);
		if (!strcmp(t->cls[i].name, k->name))
			return bad(c, "class declared twice:", k->name);
	}
	t->nclasses++;
	return 0;
}

/* Splits line (modified) into words; drops a '#' comment. */
static unsigned int split(char *line, char **w)
{
	unsigned int n = 0;
	char *save = NULL, *tok;

	line[strcspn(line, "#")] = '\0';
	for (tok = strtok_r(line, " \t\r", &save); tok && n < MAX_WORDS;
	     tok = strtok_r(NULL, " \t\r", &save))
		w[n++] = tok;
	return n;
}

/* What holds for the whole table once every line is read. */
static int check_table(const char *file, const struct ot_qos_table *t,
		       struct ot_error *err)
{
	double sum = 0;
	unsigned int i;

	if (!t->nclasses)
		return ot_refuse(err, OT_ERR_CONFIG, "%s: no class declared",
				 file);
	if (t->k > t->w)
		return ot_refuse(err, OT_ERR_CONFIG,
				 "%s: arbiter k %u above w %u: the pool would exceed what the entries can hold",
				 file, t->k, t->w);
	for (i = 0; i < t->nclasses; i++) {
		sum += t->cls[i].share;
		if (t->cls[i].mtu > t->gmtu)
			return ot_refuse(err, OT_ERR_CONFIG,
					 "%s:%u: class '%s' mtu %u above the gmtu %u",
					 file, t->cls[i].line, t->cls[i].name,
					 t->cls[i].mtu, t->gmtu);
		if (sum > 1 + 1e-9)
			return ot_refuse(err, OT_ERR_CONFIG,
					 "%s:%u: class '%s' brings the shares to %.4g, above 1",
					 file, t->cls[i].line, t->cls[i].name,
					 sum);
	}
	return 0;
}

int ot_qos_parse(const char *text, const char *file, struct ot_qos_table *t,
		 struct ot_error *err)
{
	struct cursor c = { file, 0, err };
	char *copy = strdup(text), *line, *save = NULL, *w[MAX_WORDS];
	const char *p;
	unsigned int n;
	int rc = 0;

	if (!copy)
		return ot_error_nomem(err, "qos class table");
	memset(t, 0, sizeof(*t));
	t->gmtu = 2048;
	t->w = 4;
	t->k = 2;
	/* strtok_r skips empty lines: count them from the text itself. */
	for (line = strtok_r(copy, "\n", &save); line && !rc;
	     line = strtok_r(NULL, "\n", &save)) {
		c.line = 1;
		for (p = text; p < text + (line - copy); p++)
			c.line += *p == '\n';
		n = split(line, w);
		if (!n)
			continue;
		if (!strcmp(w[0], "class"))
			rc = parse_class(&c, w, n, t);
		else if (!strcmp(w[0], "arbiter"))
			rc = parse_arbiter(&c, w, n, t);
		else
			rc = bad(&c, "expected 'class' or 'arbiter', got", w[0]);
	}
	free(copy);
	return rc ? rc : check_table(file, t, err);
}

int ot_qos_load(const char *path, struct ot_qos_table *t,
		struct ot_error *err)
{
	FILE *fp = fopen(path, "r");
	char *text = NULL;
	size_t len = 0;
	long size;
	int rc;

	if (!fp)
		return ot_refuse(err, OT_ERR_CONFIG, "%s: %s", path,
				 strerror(errno));
	size = fseek(fp, 0, SEEK_END) ? -1 : ftell(fp);
	if (size < 0 || fseek(fp, 0, SEEK_SET)) {
		fclose(fp);
		return ot_refuse(err, OT_ERR_CONFIG, "%s: cannot read", path);
	}
	text = malloc((size_t)size + 1);
	if (text)
		len = fread(text, 1, (size_t)size, fp);
	fclose(fp);
	if (!text)
		return ot_error_nomem(err, "qos class table");
	text[len] = '\0';
	rc = ot_qos_parse(text, path, t, err);
	free(text);
	return rc;
}

int ot_qos_class_of_sl(const struct ot_qos_table *t, unsigned int sl)
{
	unsigned int i;

	for (i = 0; i < t->nclasses; i++)
		if (t->cls[i].sl == sl)
			return (int)i;
	return -1;
}
