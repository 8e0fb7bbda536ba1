// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Progress lines on a terminal (see progress.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "live/progress.h"

#define PROGRESS_EVERY_MS 250

static uint64_t progress_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

void ot_progress_start(struct ot_progress *p, const char *what)
{
	/* `osmtopo sim run` pipes stderr to a terminal: it says so */
	p->tty = isatty(STDERR_FILENO) || getenv("OSMTOPO_STDERR_TTY");
	p->shown = false;
	p->start_ms = progress_ms();
	p->last_ms = p->start_ms;
	p->what = what;
}

void ot_progress_show(struct ot_progress *p, uint64_t done, uint64_t total)
{
	uint64_t t, left;

	if (!p->tty || !done || done > total)
		return;
	t = progress_ms();
	if (t - p->last_ms < PROGRESS_EVERY_MS)
		return;
	p->last_ms = t;
	/* the rate so far, applied to what is left */
	left = (t - p->start_ms) * (total - done) / done / 1000;
	fprintf(stderr, "\rosmtopo: %s %" PRIu64 "/%" PRIu64
		", about %" PRIu64 " s left   ", p->what, done, total, left);
	p->shown = true;
}

void ot_progress_end(struct ot_progress *p)
{
	if (p->shown)
		fprintf(stderr, "\r%*s\r", 72, "");
	p->shown = false;
}
