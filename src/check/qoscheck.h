/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The QoS check: a fabric's service classes against its VL arbitration.
 * Given the routing as read back (LFTs, SL2VL, path SLs from the SA), the
 * VLArbitration tables of every port and the osmtopo class table, it
 * finds which classes' flows leave by each port on which VLs, replays the
 * port's arbiter on saturated queues (traffic/arbiter.h) and reports
 * per class and port the share each class is guaranteed and the longest
 * wait between two of its services.  It fails when a VL that carries a
 * class through a port has no arbitration entry there, when two classes
 * share a VL on a port, when a class's share misses its target (among
 * the classes present on the port) by more than 1% of the link, when a
 * class's weight is not split over its VLs in proportion to their flows
 * (within one packet), or when a class's VLs form a credit loop.  A
 * class whose flows reach no port is a warning (a failure when strict).
 */
#ifndef OSMTOPO_CHECK_QOSCHECK_H
#define OSMTOPO_CHECK_QOSCHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "check/check.h"
#include "model/routing.h"
#include "model/vlarb.h"
#include "route/qos/qos.h"

#define OT_QOS_SHARE_TOLERANCE 0.01 /* of the link */

struct ot_qos_check_opts {
	const struct ot_qos_table *table;
	/*
	 * SL layers of the engine (S: class c's layer s is SL c*S + s); 0:
	 * the fewest that hold every path SL found.
	 */
	unsigned int sls;
	const struct ot_vlarb_tables *vlarb;
	unsigned int max_examples; /* of each failure; 0 = 5 */
	/* A class whose flows reach no port fails the check (else a warning). */
	bool strict;
};

struct ot_qos_check_report;

/* 0 with *out set (whatever it found), or -1 on OOM. */
int ot_qos_check_run(const struct ot_routing *r,
		     const struct ot_qos_check_opts *o,
		     struct ot_qos_check_report **out, struct ot_error *err);

bool ot_qos_check_ok(const struct ot_qos_check_report *q);

/*
 * The fewest SL layers a class (S) that hold every path SL of r with
 * nclasses classes, as the check takes them when not told.
 */
unsigned int ot_qos_infer_sls(const struct ot_routing *r,
			      unsigned int nclasses);

/* Failures found, by kind. */
struct ot_qos_check_counts {
	uint64_t ports;       /* output ports that carry flows */
	uint64_t unread;      /* ... of them without tables read */
	uint64_t no_entry;    /* (port, class VL) with flows, never served */
	/*
	 * (port, VL) that the port's SL2VL sends for an SL in use (a path
	 * SL read, a class's SL, SL 0) with no weighted VLArb entry: its
	 * packets would stall there (any port with tables read)
	 */
	uint64_t unserved_vl;
	uint64_t shared_vl;   /* (port, VL) carrying two classes */
	uint64_t share_miss;  /* (port, class) off target by more than 1% */
	uint64_t split_miss;  /* (port, class VL) short of its flows' part */
	unsigned int loop_classes; /* classes whose VLs form a credit loop */
	/*
	 * Classes no flow of which leaves any port: no pair got their SL
	 * (a QoS policy whose port names match no port, say).  A warning,
	 * a failure when strict.
	 */
	unsigned int idle_classes;
	double worst_miss;    /* largest |share - target| */
	/*
	 * Not a failure: ports whose low table is not the one osmtopo
	 * computes from the flows read here (ot_qos_port_vlarb()), as the
	 * plugin writes it when its QoS policy gives the pairs the classes
	 * the SA gave; and ports where that computation refused.
	 */
	uint64_t differs;
	uint64_t uncomputed;
};

const struct ot_qos_check_counts *
ot_qos_check_counts(const struct ot_qos_check_report *q);

/* The class's share on port p of node n (-1 when it has no flow there). */
double ot_qos_check_share(const struct ot_qos_check_report *q, int n,
			  unsigned int p, unsigned int cls);

/*
 * Prints the check report and the QoS report, as text or as one JSON
 * object (the check's, with "qos" added and "ok" covering both).
 */
int ot_qos_check_print(FILE *out, const struct ot_check_report *rep,
		       const struct ot_qos_check_report *q, bool json);

void ot_qos_check_free(struct ot_qos_check_report *q);

#endif
