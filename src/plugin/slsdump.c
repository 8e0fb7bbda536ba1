// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The path SLs of every CA pair into OpenSM's dump_files_dir, after each
 * unicast routing, whatever routing_engine routed (model/pathsl.h has
 * the format).  Off unless "event_plugin_options osmtopo_path_sl_dump=on":
 * then the only cost is one look at the option string per routing.
 *
 * Each pair's SL is what OpenSM's SA answers to a PathRecord query that
 * names SLID and DLID only (as `osmtopo --live` asks, live/sa.c), as
 * osm_sa_path_record.c (pr_rcv_get_path_parms()) computes it:
 *  - the hint: a QoS level's SL when a QoS policy is in force, else the
 *    SL of the partition of the pkey the two ports share, else SL 0
 *    (OSM_DEFAULT_SL); with QoS on, an SL that some SL2VL table on the
 *    path sends to VL15 is replaced by the lowest one that does not;
 *  - then routing_engine_used->path_sl(context, hint, slid, dlid) when
 *    the engine has one, else the hint.
 * What is not reproduced makes the plugin write no file (and remove the
 * one of an earlier routing), with a message saying why:
 *  - a QoS policy file in force (its levels choose per pair);
 *  - partitions with different SLs (the hint then depends on which pkey
 *    a pair shares);
 *  - with QoS on, an SL2VL table anywhere that sends the hint to VL15
 *    (the SA's choice then depends on each path).
 * Not modelled, and said in the file: a pair that shares no pkey (the
 * SA answers no path; the file has the engine's SL), PathRecord queries
 * that ask for an SL or name a service, router ports (CA ports only).
 * dfsssp with VLs to spare draws a random SL of a range at every query
 * (get_dfsssp_sl()): the file holds one draw per pair.
 *
 * Locking: OpenSM reports UCAST_ROUTING_DONE from its state manager
 * thread after routing, QoS setup and the wait for pending MADs, with
 * no lock held.  We take OpenSM's lock shared, as its SA threads do
 * when they call path_sl, so no sweep changes the subnet or frees the
 * engine's tables under us, and SA queries go on meanwhile (every
 * engine's path_sl only reads).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/pathsl.h"
#include "model/routing.h"
#include "plugin/context.h"
#include "plugin/slsdump.h"

#include <opensm/osm_node.h>
#include <opensm/osm_partition.h>
#include <opensm/osm_port.h>
#include <opensm/osm_subnet.h>

#define SLS_OPTION "osmtopo_path_sl_dump="

struct sls_lid {
	uint16_t lid;
	uint64_t guid;
};

/* Is the option on?  Anything but "on" is off. */
static bool sls_wanted(const osm_subn_t *subn)
{
	char val[16];

	return ot_plugin_option(subn, SLS_OPTION, val, sizeof(val)) &&
	       !strcmp(val, "on");
}

/*
 * Does any SL2VL table OpenSM holds for a cabled port (or a switch's
 * port 0) send sl to VL15?  Every input port's table is looked at: more
 * than any path uses, so a refusal may be one the SA would not need.
 */
static bool drops_sl(osm_subn_t *subn, uint8_t sl, char *why, size_t len)
{
	cl_map_item_t *item;

	for (item = cl_qmap_head(&subn->node_guid_tbl);
	     item != cl_qmap_end(&subn->node_guid_tbl);
	     item = cl_qmap_next(item)) {
		osm_node_t *node = (osm_node_t *)item;
		uint32_t p, nports = osm_node_get_num_physp(node);

		for (p = 0; p < nports; p++) {
			osm_physp_t *physp = osm_node_get_physp_ptr(node, p);
			size_t in, nin;

			if (!physp || (p && !osm_physp_get_remote(physp)))
				continue;
			nin = cl_ptr_vector_get_size(&physp->slvl_by_port);
			for (in = 0; in < nin; in++) {
				ib_slvl_table_t *t =
					osm_physp_get_slvl_tbl(physp,
							       (uint8_t)in);

				if (t && ib_slvl_table_get(t, sl) == IB_DROP_VL) {
					snprintf(why, len,
						 "with QoS on, the SL2VL table of \"%s\" port %u (input port %zu) sends SL %u to VL15: the SA then picks another SL per path, which this file does not reproduce",
						 node->print_desc, p, in, sl);
					return true;
				}
			}
		}
	}
	return false;
}

/*
 * The hint OpenSM's SA gives path_sl for every pair, or -1 with why
 * when it is not one SL for all pairs.
 */
static int sa_hint(osm_subn_t *subn, char *why, size_t len)
{
	cl_map_item_t *item;
	int sl = -1;

	if (subn->opt.qos && subn->p_qos_policy) {
		snprintf(why, len,
			 "a QoS policy is in force (%s): its QoS levels choose the SL of each pair, which this file does not reproduce",
			 subn->opt.qos_policy_file ? subn->opt.qos_policy_file :
						     "qos_policy_file");
		return -1;
	}
	for (item = cl_qmap_head(&subn->prtn_pkey_tbl);
	     item != cl_qmap_end(&subn->prtn_pkey_tbl);
	     item = cl_qmap_next(item)) {
		const osm_prtn_t *prtn = (const osm_prtn_t *)item;

		if (sl < 0) {
			sl = prtn->sl;
		} else if (prtn->sl != sl) {
			snprintf(why, len,
				 "partitions have different SLs (%d, and %u for pkey 0x%04x): the SA's SL then depends on the pkey a pair shares, which this file does not reproduce",
				 sl, prtn->sl, cl_ntoh16(prtn->pkey));
			return -1;
		}
	}
	if (sl < 0)
		sl = OSM_DEFAULT_SL;
	if (subn->opt.qos && drops_sl(subn, (uint8_t)sl, why, len))
		return -1;
	return sl;
}

static int cmp_lid(const void *a, const void *b)
{
	const struct sls_lid *x = a, *y = b;

	return (x->lid > y->lid) - (x->lid < y->lid);
}

/* Every LID of every cabled CA port, ascending; NULL on OOM. */
static struct sls_lid *ca_lids(osm_subn_t *subn, uint32_t *n)
{
	cl_map_item_t *item;
	struct sls_lid *v = NULL;
	size_t count = 0, cap = 0;

	for (item = cl_qmap_head(&subn->port_guid_tbl);
	     item != cl_qmap_end(&subn->port_guid_tbl);
	     item = cl_qmap_next(item)) {
		osm_port_t *port = (osm_port_t *)item;
		uint16_t min, max;
		uint32_t lid;

		if (!port->p_node ||
		    osm_node_get_type(port->p_node) != IB_NODE_TYPE_CA ||
		    !port->p_physp || !osm_physp_get_remote(port->p_physp))
			continue;
		osm_port_get_lid_range_ho(port, &min, &max);
		if (!min)
			continue;
		for (lid = min; lid <= max; lid++) {
			if (count == cap) {
				size_t ncap = cap ? 2 * cap : 1024;
				struct sls_lid *nv = realloc(v, ncap * sizeof(*v));

				if (!nv) {
					free(v);
					return NULL;
				}
				v = nv;
				cap = ncap;
			}
			v[count].lid = (uint16_t)lid;
			v[count].guid = cl_ntoh64(osm_port_get_guid(port));
			count++;
		}
	}
	if (!v)
		v = malloc(sizeof(*v)); /* none: still not NULL */
	if (!v)
		return NULL;
	qsort(v, count, sizeof(*v), cmp_lid);
	*n = (uint32_t)count;
	return v;
}

static void write_header(FILE *out, const char *engine, int hint,
			 const struct sls_lid *lids, uint32_t n)
{
	uint32_t i;

	fprintf(out, "%s %d\n", OT_PATHSL_MAGIC, OT_PATHSL_VERSION);
	fputs("# Path SLs as OpenSM's SA answers a PathRecord query naming SLID and DLID\n"
	      "# only: routing_engine_used->path_sl(hint, slid, dlid), or the hint.\n"
	      "# Not modelled: a pair that shares no pkey (the SA answers no path),\n"
	      "# queries that ask for an SL or name a service, router ports.\n"
	      "# dfsssp with VLs to spare draws an SL of a range per query: one draw.\n"
	      "# Format: osmtopo's src/model/pathsl.h.\n", out);
	fprintf(out, "engine %s\nhint %d\nlids %" PRIu32 "\n", engine, hint, n);
	for (i = 0; i < n; i++)
		fprintf(out, "%u 0x%016" PRIx64 "\n", lids[i].lid,
			lids[i].guid);
	fprintf(out, "data %zu\n", ot_pathsl_row_bytes(n));
}

/*
 * The rows; 0, or -1 with why (out of memory, or OpenSM exiting: 268 M
 * pairs take a minute, so the exit flag is looked at per row).
 */
static int write_rows(FILE *out, const struct osm_routing_engine *re,
		      uint8_t hint, const struct sls_lid *lids, uint32_t n,
		      char *why, size_t len)
{
	size_t bytes = ot_pathsl_row_bytes(n);
	uint8_t *row = malloc(bytes ? bytes : 1);
	uint32_t i, j;

	if (!row) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (osm_exit_flag) {
			snprintf(why, len, "OpenSM is exiting: no file written");
			free(row);
			return -1;
		}
		ib_net16_t slid = cl_hton16(lids[i].lid);

		memset(row, 0, bytes);
		for (j = 0; j < n; j++) {
			uint8_t sl = hint;

			if (re && re->path_sl)
				sl = re->path_sl(re->context, hint, slid,
						 cl_hton16(lids[j].lid));
			ot_pathsl_put(row, j, sl);
		}
		fwrite(row, 1, bytes, out);
	}
	free(row);
	return 0;
}

static void log_once(struct ot_sls_dump *st, osm_log_t *log,
		     osm_log_level_t level, const char *msg)
{
	if (!ot_plugin_new_message(st->last, sizeof(st->last), msg))
		level = OSM_LOG_DEBUG;
	OSM_LOG(log, level, "osmtopo: path SL dump: %s\n", msg);
}

/* Writes dir/OT_PATHSL_FILE through a temporary file; 0 or -1 with why. */
static int write_dump(osm_opensm_t *osm, const char *path, const char *tmp,
		      int hint, char *why, size_t len)
{
	const struct osm_routing_engine *re = osm->routing_engine_used;
	struct sls_lid *lids;
	uint32_t n = 0;
	FILE *out;
	int bad;

	lids = ca_lids(&osm->subn, &n);
	if (!lids) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	out = fopen(tmp, "w");
	if (!out) {
		snprintf(why, len, "%.300s: %s", tmp, strerror(errno));
		free(lids);
		return -1;
	}
	write_header(out, re && re->name ? re->name : "none", hint, lids, n);
	bad = write_rows(out, re, (uint8_t)hint, lids, n, why, len);
	fputs("end\n", out);
	free(lids);
	if (bad) {
		fclose(out);
		unlink(tmp);
		return -1;
	}
	if (fflush(out) || ferror(out)) {
		snprintf(why, len, "%.300s: %s", tmp, strerror(errno));
		fclose(out);
		unlink(tmp);
		return -1;
	}
	if (fclose(out)) {
		snprintf(why, len, "%.300s: %s", tmp, strerror(errno));
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, path)) {
		snprintf(why, len, "%.300s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	snprintf(why, len, "%" PRIu32 " LIDs of CA ports, %" PRIu64
		 " pairs (engine %s, hint SL %d) written to %.300s",
		 n, (uint64_t)n * n, re && re->name ? re->name : "none", hint,
		 path);
	return 0;
}

void ot_plugin_path_sl_dump(osm_opensm_t *osm, struct ot_sls_dump *st)
{
	osm_subn_t *subn = &osm->subn;
	char path[4096], tmp[4200], why[OT_ERROR_LEN];
	const char *dir;
	double start;
	int hint, n;

	if (!sls_wanted(subn))
		return;
	start = ot_now_ms();
	CL_PLOCK_ACQUIRE(&osm->lock);
	dir = subn->opt.dump_files_dir ? subn->opt.dump_files_dir : ".";
	n = snprintf(path, sizeof(path), "%s/%s", dir, OT_PATHSL_FILE);
	if (n < 0 || (size_t)n >= sizeof(path)) {
		CL_PLOCK_RELEASE(&osm->lock);
		log_once(st, &osm->log, OSM_LOG_ERROR,
			 "dump_files_dir is too long: no file written");
		return;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	hint = sa_hint(subn, why, sizeof(why));
	if (hint < 0) {
		CL_PLOCK_RELEASE(&osm->lock);
		/* a file of an earlier routing would be wrong now */
		if (unlink(path) && errno != ENOENT)
			OSM_LOG(&osm->log, OSM_LOG_ERROR,
				"osmtopo: path SL dump: cannot remove %s: %s\n",
				path, strerror(errno));
		snprintf(why + strlen(why), sizeof(why) - strlen(why),
			 "; no %s written", OT_PATHSL_FILE);
		log_once(st, &osm->log, OSM_LOG_ERROR, why);
		return;
	}
	if (write_dump(osm, path, tmp, hint, why, sizeof(why))) {
		CL_PLOCK_RELEASE(&osm->lock);
		unlink(path);
		log_once(st, &osm->log, OSM_LOG_ERROR, why);
		return;
	}
	CL_PLOCK_RELEASE(&osm->lock);
	st->last[0] = '\0';
	OSM_LOG(&osm->log, OSM_LOG_INFO, "osmtopo: path SL dump: %s in %.0f ms\n",
		why, ot_now_ms() - start);
}
