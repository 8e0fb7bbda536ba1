/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The checker: the last step of the flow.  Given a fabric and the tables
 * it is programmed with (computed offline, read from dump files or from a
 * live fabric), it proves or disproves what administrators care about:
 * every CA pair reaches its destination, no forwarding loop, how many hops
 * against the shortest path, and no credit loop in the channel dependency
 * graph over (directed link, VL); and, when asked, how evenly the links
 * carry traffic patterns (src/check/traffic.h).
 */
#ifndef OSMTOPO_CHECK_H
#define OSMTOPO_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "check/traffic.h"
#include "model/error.h"
#include "model/mcast.h"
#include "model/routing.h"

#define OT_CHECK_MAX_HOPS 64

struct ot_check_opts {
	/*
	 * The routing whose promise every reached CA-to-CA path is held
	 * to: the checked routing itself, or an engine's run on the same
	 * fabric (for tables read from files or a live fabric).  Its
	 * promise and its VL count (every hop on a VL below its nvls; 0:
	 * no bound) are what is held.  NULL: no promise.
	 */
	const struct ot_routing *promiser;
	unsigned int max_examples; /* problems listed by kind; 0 = 5 */
	/* Link balance under traffic patterns; NULL: not computed. */
	const struct ot_traffic_opts *balance;
	/* Multicast groups and MFTs to check (check/mcast.c); NULL: none. */
	const struct ot_mcast *mcast;
};

/* The multicast check's figures (when ot_check_opts.mcast was given). */
struct ot_mcast_counts {
	uint32_t groups;       /* groups the multicast state lists */
	uint32_t trees;        /* groups with members: MFTs followed */
	uint64_t members;      /* over all groups */
	uint64_t pairs;        /* (member, other member of its group) */
	uint64_t missed;       /* pairs the MFTs do not deliver */
	uint32_t looping;      /* groups whose MFTs forward in a loop */
	uint64_t dependencies; /* channel dependencies multicast adds */
	/* credit loops of unicast and multicast together */
	unsigned int credit_loops;
	uint64_t credit_loop_channels;
};

struct ot_check_report;

/*
 * What a check found, in numbers.  A pair is a source CA port and a
 * destination LID (with LMC > 0 each LID of a port counts on its own).
 */
struct ot_check_counts {
	uint64_t pairs;       /* pairs checked */
	uint64_t reached;     /* pairs whose packets arrive */
	uint64_t unreachable; /* dropped: no LFT entry, uncabled port, ... */
	uint64_t looping;     /* caught in a forwarding loop */
	uint64_t minimal;     /* reached on a shortest path of the cabling */
	uint64_t total_hops;  /* links over all reached paths */
	unsigned int max_hops;
	/*
	 * Reached pairs by links on the path, and by links beyond the
	 * shortest path; the last bucket holds that many or more.
	 */
	uint64_t hops[OT_CHECK_MAX_HOPS + 1];
	uint64_t extra_hops[OT_CHECK_MAX_HOPS + 1];
	uint16_t vls_used; /* bit v: some reached path uses VL v */
	uint16_t sls_used; /* bit l: some reached path has path SL l */
	/* Channel dependency graph over switch-to-switch (link, VL): */
	uint64_t channels;     /* channels some reached path uses */
	uint64_t dependencies; /* edges between them */
	unsigned int credit_loops;     /* cyclic strongly connected parts */
	uint64_t credit_loop_channels; /* channels in those parts */
	/*
	 * Path SLs from a sample (ot_routing's sl_sampled_pairs): the pairs
	 * checked on a sampled SL, and those whose real SL was asked
	 * because their path crosses a credit loop found on sampled SLs
	 * (ot_check_run_confirmed()).  The credit loops are then all
	 * confirmed on real SLs; the other figures that depend on SLs (VLs
	 * and SLs used, channels, dependencies, no credit loop) rest on the
	 * sample for the sampled pairs.
	 */
	uint64_t sl_sampled;
	uint64_t sl_confirmed;
	unsigned int sl_rounds; /* checks run until no loop rested on a sample */
	/*
	 * Reached pairs whose path breaks the promise, and of those, by the
	 * first part of it they break (in this order):
	 */
	uint64_t violations;
	uint64_t not_minimal;  /* longer than the shortest path */
	uint64_t too_long;     /* more switch-to-switch hops than promised */
	uint64_t bad_vl;       /* a hop on a VL at or above the promised VLs */
	uint64_t bad_sl;       /* a path SL the promise does not list */
	uint64_t rule_broken;  /* the engine's own rule refused the path */
	bool mcast_checked;
	struct ot_mcast_counts mcast;
};

/* Runs every check.  0 (report in *out, whatever it found) or -1 on OOM. */
int ot_check_run(const struct ot_fabric *f, const struct ot_routing *r,
		 const struct ot_check_opts *opts,
		 struct ot_check_report **out, struct ot_error *err);

/*
 * ot_check_run() for a routing whose path SLs partly rest on a sample
 * (r->sl_sampled_pairs): while a credit loop is found, the real SLs of
 * the sampled pairs whose path crosses one of its channels are asked
 * (r->sl_confirm) and the check runs again, so that every credit loop
 * reported holds on the SLs the pairs really get.  Without a sample, it
 * is ot_check_run().
 */
int ot_check_run_confirmed(const struct ot_fabric *f, struct ot_routing *r,
			   const struct ot_check_opts *opts,
			   struct ot_check_report **out, struct ot_error *err);

/* True when nothing is unreachable, looping, credit-looping or violating. */
bool ot_check_ok(const struct ot_check_report *rep);

/* The numbers behind the report; valid as long as rep is. */
const struct ot_check_counts *ot_check_counts(const struct ot_check_report *rep);

/* The link balance figures, or NULL when opts->balance was NULL. */
const struct ot_balance_report *
ot_check_balance(const struct ot_check_report *rep);

/* Human-readable summary, or JSON when json is true. */
int ot_check_print(FILE *out, const struct ot_check_report *rep, bool json);

void ot_check_report_free(struct ot_check_report *rep);

#endif
