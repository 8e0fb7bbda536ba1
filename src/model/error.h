/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Error reporting shared by every layer of osmtopo.  A function that can
 * fail takes a struct ot_error and, when it fails, leaves one line in it
 * saying why, and a class saying what kind of failure it is.  For an
 * engine's refusal the line names the offending node and port, and the
 * class picks the code the plugin logs it with (ot_error_code(): ERR
 * 5E02..5E08, listed in the README), so an administrator can tell "not
 * this topology" from "this topology, too damaged" from "QoS is off" at
 * a glance.  A failure keeps its class on its way up: a caller that adds
 * words to a callee's message uses ot_error_wrap(), and an allocation
 * failure is ot_error_nomem() wherever it happens.
 */
#ifndef OSMTOPO_MODEL_ERROR_H
#define OSMTOPO_MODEL_ERROR_H

#define OT_ERROR_LEN 512

enum ot_error_class {
	OT_ERR_GENERIC,  /* usage, I/O, malformed input, anything else */
	OT_ERR_NOMEM,    /* out of memory */
	OT_ERR_TOPOLOGY, /* the fabric is not the topology the engine routes */
	OT_ERR_DAMAGE,   /* it is, but missing parts leave no deadlock-free route */
	OT_ERR_BUDGET,   /* routing it needs more VLs or SLs than allowed */
	OT_ERR_CONFIG,   /* OpenSM's options: QoS off, lmc 0, too few VLs */
	OT_ERR_OPENSM,   /* OpenSM's state cannot take the tables */
};

struct ot_error {
	char msg[OT_ERROR_LEN];
	enum ot_error_class cls; /* after msg: "{ "" }" initializes both */
};

/* Sets err (if not NULL) to the message, class OT_ERR_GENERIC; returns -1. */
int ot_error_set(struct ot_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The same with a class; returns -1. */
int ot_refuse(struct ot_error *err, enum ot_error_class cls,
	      const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* "<who>: out of memory", class OT_ERR_NOMEM; returns -1. */
int ot_error_nomem(struct ot_error *err, const char *who);

/*
 * err = "<prefix>: <why's message>", keeping why's class, or taking cls
 * when why's is OT_ERR_GENERIC (a recognizer's refusal is a topology
 * refusal to the engine that asked).  err and why may be the same.
 * Returns -1.
 */
int ot_error_wrap(struct ot_error *err, const struct ot_error *why,
		  enum ot_error_class cls, const char *prefix);

/* "topology", "damage", ... for logs and JSON. */
const char *ot_error_class_name(enum ot_error_class cls);

/*
 * The code OpenSM's log shows for a failure of this class, in OpenSM's
 * "ERR XXYY" style: "ERR 5E02" (topology) .. "ERR 5E07" (out of memory),
 * "ERR 5E08" for OT_ERR_GENERIC (a bug: please report).  The 5E range is
 * not used by OpenSM 3.3.23.  The codes that are no class's: 5E01 (an
 * engine could not be registered) and 5E09 (a multicast tree closes a
 * credit loop), OT_ERR_CODE_REGISTER and OT_ERR_CODE_MCAST.
 */
const char *ot_error_code(enum ot_error_class cls);

#define OT_ERR_CODE_REGISTER "ERR 5E01"
#define OT_ERR_CODE_MCAST    "ERR 5E09"

#endif
