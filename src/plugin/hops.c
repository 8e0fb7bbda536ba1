// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The hop matrices OpenSM still needs when an osmtopo engine routes: the
 * plugin's build_lid_matrices callback.
 *
 * Without the callback OpenSM builds a min-hop matrix for every (switch,
 * switch LID, port) before each sweep's routing ("Starting switches' Min Hop
 * Table Assignment"): on a 16,384-CA FlatFly that is about 10 s of an
 * 11.5 s routing span (its rows are these same switch-LID rows, so the
 * memory is about the same: doc/scaling.md).  In OpenSM 3.3.23 the
 * matrices have two readers once routing is done: the default multicast
 * tree builder (osm_mcast_mgr.c: the root switch is chosen, and each
 * switch's upstream port, from the hop counts toward the *switches'*
 * LIDs), and the dump of opensm-lid-matrix.dump; SA PathRecords walk the
 * LFTs, and an engine that falls back to minhop gets its matrices rebuilt
 * by OpenSM (minhop has no callback of its own).
 *
 * So only the rows of switch LIDs are filled: for every switch s, every
 * switch t and every port of s cabled to a switch y, the hops to t
 * through that port are 1 + dist(y, t), and 0 at t's own port 0 -- what
 * OpenSM's own propagation computes, by breadth-first searches from every
 * switch (distances are symmetric: a cable works both ways).  Returning 0
 * tells OpenSM to skip its own matrices.  With a
 * hop_weights_file (weights other than 1) the distances are no longer hop
 * counts (OpenSM sets the weights, 1 by default, only when it builds its
 * own matrices), and the callback returns 1: OpenSM builds them itself.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "plugin/plugin.h"

#include <opensm/osm_node.h>
#include <opensm/osm_port.h>
#include <opensm/osm_switch.h>

struct hop_graph {
	osm_switch_t **sw; /* by node GUID */
	uint64_t *guid;
	uint32_t n;
	uint32_t *start;   /* CSR: switch neighbours of sw[i] through ports */
	uint32_t *nbr;
	uint8_t *port;
	/*
	 * The distance matrix: row t, column col[v] holds v's distance from
	 * t; columns in LID order (order[c]: the switch of column c), rows
	 * stride bytes apart, a cache line more than n rounded up, so that
	 * the rows of a switch's neighbours, read side by side, do not
	 * evict one another from the same cache sets (rows 2 KB apart do).
	 */
	uint32_t *col, *order;
	size_t stride;
};

static int cmp_sw_guid(const void *a, const void *b)
{
	const osm_switch_t *x = *(osm_switch_t *const *)a;
	const osm_switch_t *y = *(osm_switch_t *const *)b;
	uint64_t gx = cl_ntoh64(osm_node_get_node_guid(x->p_node));
	uint64_t gy = cl_ntoh64(osm_node_get_node_guid(y->p_node));

	return gx < gy ? -1 : gx > gy;
}

static int32_t find_sw(const struct hop_graph *g, const osm_node_t *node)
{
	uint64_t guid = cl_ntoh64(osm_node_get_node_guid(node));
	uint32_t lo = 0, hi = g->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (g->guid[mid] == guid)
			return (int32_t)mid;
		if (g->guid[mid] < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* The switch at the far end of port p of switch s, or -1. */
static int32_t far_switch(const struct hop_graph *g, osm_switch_t *s,
			  unsigned int p)
{
	osm_physp_t *physp = osm_node_get_physp_ptr(s->p_node, p);
	osm_node_t *peer;

	if (!physp || !physp->p_remote_physp)
		return -1;
	peer = physp->p_remote_physp->p_node;
	if (!peer || !peer->sw || peer == s->p_node)
		return -1;
	return find_sw(g, peer);
}

/* The switches and their switch-to-switch ports. */
static int build_graph(osm_subn_t *subn, struct hop_graph *g)
{
	cl_qmap_t *tbl = &subn->sw_guid_tbl;
	cl_map_item_t *item;
	uint32_t i = 0, k = 0, cap = 0;
	unsigned int p;

	g->n = (uint32_t)cl_qmap_count(tbl);
	g->sw = calloc(g->n + 1, sizeof(*g->sw));
	g->guid = calloc(g->n + 1, sizeof(*g->guid));
	g->start = calloc(g->n + 1, sizeof(*g->start));
	if (!g->sw || !g->guid || !g->start)
		return -1;
	for (item = cl_qmap_head(tbl); item != cl_qmap_end(tbl);
	     item = cl_qmap_next(item))
		g->sw[i++] = (osm_switch_t *)item;
	qsort(g->sw, g->n, sizeof(*g->sw), cmp_sw_guid);
	for (i = 0; i < g->n; i++) {
		g->guid[i] = cl_ntoh64(osm_node_get_node_guid(g->sw[i]->p_node));
		cap += g->sw[i]->num_ports;
	}
	g->nbr = calloc(cap + 1, sizeof(*g->nbr));
	g->port = calloc(cap + 1, sizeof(*g->port));
	if (!g->nbr || !g->port)
		return -1;
	for (i = 0; i < g->n; i++) {
		g->start[i] = k;
		for (p = 1; p < g->sw[i]->num_ports; p++) {
			int32_t y = far_switch(g, g->sw[i], p);

			if (y < 0)
				continue;
			g->nbr[k] = (uint32_t)y;
			g->port[k++] = (uint8_t)p;
		}
	}
	g->start[g->n] = k;
	return 0;
}

static void free_graph(struct hop_graph *g)
{
	free(g->sw);
	free(g->guid);
	free(g->start);
	free(g->nbr);
	free(g->port);
	free(g->col);
	free(g->order);
}

/*
 * One level of the 64 searches of distances(): the switches the
 * frontier reaches for the first time, at distance level from the
 * search of their bit (rows: the matrix rows of the 64 searches).
 * Returns whether any was reached.
 */
static bool expand(const struct hop_graph *g, uint64_t *seen,
		   uint64_t *front, uint64_t *next, uint8_t *rows,
		   unsigned int level)
{
	uint32_t v, j;
	bool any = false;

	memset(next, 0, (size_t)g->n * sizeof(*next));
	for (v = 0; v < g->n; v++)
		if (front[v])
			for (j = g->start[v]; j < g->start[v + 1]; j++)
				next[g->nbr[j]] |= front[v];
	for (v = 0; v < g->n; v++) {
		uint64_t fresh = next[v] & ~seen[v];

		front[v] = fresh;
		seen[v] |= fresh;
		any |= fresh != 0;
		while (fresh) {
			unsigned int k = (unsigned int)__builtin_ctzll(fresh);

			rows[(size_t)k * g->stride + g->col[v]] =
				(uint8_t)level;
			fresh &= fresh - 1;
		}
	}
	return any;
}

/*
 * The distance matrix by breadth-first searches from 64 switches at once
 * (one bit each): a level's frontier of every switch goes to its
 * neighbours as one word per switch, so the whole matrix takes about
 * n / 64 x diameter passes over the cables instead of n.  A switch
 * farther than a hop count can say (OSM_NO_PATH - 2) is not expanded,
 * as a search from one switch would not; dist[t * n + v] is v's distance
 * from t along the cables, as a search from t finds it.
 */
static int distances(const struct hop_graph *g, uint8_t *dist)
{
	uint64_t *seen = calloc(3 * (size_t)g->n + 1, sizeof(*seen));
	uint64_t *front = seen + g->n, *next = front + g->n;
	uint32_t b, j;
	unsigned int level;

	if (!seen)
		return -1;
	memset(dist, OSM_NO_PATH, (size_t)g->n * g->stride);
	for (b = 0; b < g->n; b += 64) {
		uint32_t m = g->n - b < 64 ? g->n - b : 64;
		bool more = true;

		memset(seen, 0, 2 * (size_t)g->n * sizeof(*seen));
		for (j = 0; j < m; j++) {
			seen[b + j] = front[b + j] = 1ULL << j;
			dist[(size_t)(b + j) * g->stride + g->col[b + j]] = 0;
		}
		for (level = 1; more && level <= OSM_NO_PATH - 2; level++)
			more = expand(g, seen, front, next,
				      dist + (size_t)b * g->stride, level);
	}
	free(seen);
	return 0;
}

/*
 * Switch s's hop row toward switch t's LID: 0 at t's own port 0, 1 +
 * dist(y, t) through each port to a switch y; row[0] is the least, as
 * osm_switch_set_hops() keeps it.  Rows are written directly, which is
 * many times faster than a call per entry on a 2,048-switch fabric.  Each
 * row is a malloc of its own: OpenSM 3.3.23 frees every row by itself
 * (osm_switch_delete(), the unicast cache), so rows cannot share a block;
 * OpenSM's prepare_path_rebuild sized the LID-indexed pointer array, and
 * keeps the rows from one sweep to the next (clearing them), so only the
 * first sweep allocates.
 */
static int set_row(const struct hop_graph *g, uint32_t s, uint32_t c,
		   uint16_t lid, const uint8_t *dist)
{
	uint32_t t = g->order[c];
	osm_switch_t *sw = g->sw[s];
	uint8_t *row = sw->hops[lid];
	uint32_t j;

	if (!row) {
		row = malloc(sw->num_ports);
		if (!row)
			return -1;
		sw->hops[lid] = row;
	}
	memset(row, OSM_NO_PATH, sw->num_ports);
	if (s == t)
		row[0] = 0;
	for (j = g->start[s]; j < g->start[s + 1]; j++) {
		uint8_t d = dist[(size_t)g->nbr[j] * g->stride + c];

		if (d >= OSM_NO_PATH - 1)
			continue;
		row[g->port[j]] = d + 1;
		if (d + 1 < row[0])
			row[0] = d + 1;
	}
	return 0;
}

/*
 * Every switch's rows toward every switch LID, from the distance matrix:
 * switch by switch, so that the matrix rows of its neighbours are read
 * in order (column order would miss the cache on every entry), and in
 * LID order, so that the switch's LID-indexed row pointers are too.  No
 * row is written when some LID lies beyond some switch's table.
 */
static int set_rows(const struct hop_graph *g, const uint16_t *lid,
		    const uint8_t *dist)
{
	uint32_t s, c;

	for (s = 0; s < g->n; s++)
		if (g->n && lid[g->order[g->n - 1]] > g->sw[s]->max_lid_ho)
			return -1;
	for (s = 0; s < g->n; s++)
		for (c = 0; c < g->n; c++)
			if (lid[g->order[c]] &&
			    set_row(g, s, c, lid[g->order[c]], dist))
				return -1;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The matrix columns in LID order (struct hop_graph). */
static int lid_columns(struct hop_graph *g, const uint16_t *lid)
{
	uint32_t c;

	uint64_t *key = calloc(g->n + 1, sizeof(*key));

	g->col = calloc(g->n + 1, sizeof(*g->col));
	g->order = calloc(g->n + 1, sizeof(*g->order));
	if (!key || !g->col || !g->order) {
		free(key);
		return -1;
	}
	for (c = 0; c < g->n; c++)
		key[c] = (uint64_t)lid[c] << 32 | c;
	qsort(key, g->n, sizeof(*key), cmp_u64);
	for (c = 0; c < g->n; c++) {
		g->order[c] = (uint32_t)key[c];
		g->col[g->order[c]] = c;
	}
	free(key);
	g->stride = ((size_t)g->n + 63) / 64 * 64 + 64;
	return 0;
}

int ot_build_lid_matrices(void *context)
{
	struct ot_plugin_engine *ctx = context;
	osm_log_t *log = &ctx->osm->log;
	struct hop_graph g = { 0 };
	uint32_t t;
	uint16_t *lid = NULL;
	uint8_t *dist = NULL;
	double start = ot_now_ms(), mid;
	int rc;

	if (ctx->osm->subn.opt.hop_weights_file) {
		OSM_LOG(log, OSM_LOG_VERBOSE,
			"%s: hop_weights_file set: OpenSM builds its own hop matrices\n",
			ctx->engine->name);
		return 1;
	}
	rc = build_graph(&ctx->osm->subn, &g);
	lid = malloc((g.n + 1) * sizeof(*lid));
	if (rc || !lid)
		goto oom;
	for (t = 0; t < g.n; t++)
		lid[t] = cl_ntoh16(osm_node_get_base_lid(g.sw[t]->p_node, 0));
	/* all pairs: n^2 bytes and a little, 4.3 MB on 2,048 switches */
	if (lid_columns(&g, lid) ||
	    !(dist = malloc((size_t)g.n * g.stride + 1)) || distances(&g, dist))
		goto oom;
	mid = ot_now_ms();
	if (set_rows(&g, lid, dist))
		goto oom;
	OSM_LOG(log, OSM_LOG_VERBOSE,
		"%s: hop rows of %u switch LIDs set in %.3f ms (distances %.3f ms; OpenSM's own matrices skipped)\n",
		ctx->engine->name, g.n, ot_now_ms() - start, mid - start);
	rc = 0;
	goto out;
oom:
	/* OpenSM's own matrices are no worse, only slower. */
	OSM_LOG(log, OSM_LOG_INFO, "%s: cannot set the hop rows (out of memory, or a LID beyond a switch's table): OpenSM builds its own\n",
		ctx->engine->name);
	rc = 1;
out:
	free(dist);
	free(lid);
	free_graph(&g);
	return rc;
}
