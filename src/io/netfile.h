/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Fabric text files: ibsim net files and ibnetdiscover output (the same
 * grammar; ibnetdiscover adds GUIDs and LIDs).  Reading gives the tool and
 * the tests a fabric model without a subnet manager; writing is how
 * `osmtopo gen` hands a fabric to ibsim.
 */
#ifndef OSMTOPO_NETFILE_H
#define OSMTOPO_NETFILE_H

#include <stdio.h>

#include "model/error.h"
#include "model/fabric.h"

/*
 * Reads a net file or ibnetdiscover output.  GUIDs come from the file
 * (switchguid=/caguid= lines, or "S-<hex>"/"H-<hex>" ids); where the file
 * has none they are given as ibsim gives them, so offline results match a
 * simulated fabric.  LIDs come from the file where it has them ("lid N"),
 * otherwise ot_fabric_assign_lids() gives them.  The result is indexed.
 * name is used in error messages ("file:line: ..."), which name the
 * token read wrong: a node type misspelt ("Swtch"), a remote node no
 * record declares, a cable listed on one of its ends only (ibsim 0.10
 * refuses it as well), a port declared twice.
 * NULL with err set on error.
 */
struct ot_fabric *ot_netfile_read(FILE *in, const char *name,
				  struct ot_error *err);

/* ot_netfile_read() on a path ("-" is standard input). */
struct ot_fabric *ot_netfile_load(const char *path, struct ot_error *err);

/*
 * Writes f as an ibsim net file: the grammar in a comment at the top, then
 * comment (may be NULL, may span lines), the first CA first (ibsim attaches
 * its clients, OpenSM included, to the first port of the file), one record
 * per node, and a trailing blank line and comment.  0, or -1 on I/O error.
 */
int ot_netfile_write(FILE *out, const struct ot_fabric *f,
		     const char *comment);

#endif
