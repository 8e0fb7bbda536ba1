// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The rule hdor's promise holds every path to on a KNS with fat-tree
 * lines (route/hdor_ft.c): dimension order across lines, up then down
 * inside each.  The checker calls it on every path it walks; kept apart
 * from the routing so that what is promised reads on its own.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "route/hdor_ft.h"

static bool is_role(const struct ot_kns *kns, int32_t x, int role)
{
	return x >= 0 && (uint32_t)x < kns->fabric->nnodes &&
	       kns->role[x] == role;
}

static const char *nm(const struct ot_kns *kns, int32_t x)
{
	if (x < 0 || (uint32_t)x >= kns->fabric->nnodes)
		return "?";
	return kns->fabric->node[x].desc;
}

/*
 * The promise's rule: from the source's router, for each dimension in
 * increasing order where the coordinates differ, a climb through switches
 * of that dimension's line (stages rising), a descent (stages falling),
 * and the router of the line whose coordinate is the destination's.
 */
int ot_hdor_ft_path(const struct ot_kns *kns, const int32_t *nodes,
		    unsigned int len, struct ot_error *err)
{
	const struct ot_fabric *f = kns->fabric;
	unsigned int n = kns->n, hop, d, e;
	int32_t src, dst, cur;
	const int16_t *dc;

	if (len < 1 || !is_role(kns, nodes[0], OT_KNS_CA) ||
	    !is_role(kns, nodes[len - 1], OT_KNS_CA))
		return ot_error_set(err,
				    "path of %u nodes does not run from CA to CA",
				    len);
	if (len == 1)
		return 0;
	src = nodes[0];
	dst = nodes[len - 1];
	dc = kns->coord + (size_t)dst * n;
	cur = kns->router[src];
	if (len < 3 || nodes[1] != cur)
		return ot_error_set(err,
				    "path from CA \"%s\" to CA \"%s\": hop 1 goes to \"%s\", not to the source's router",
				    f->node[src].desc, f->node[dst].desc,
				    nm(kns, len > 1 ? nodes[1] : -1));
	hop = 1;
	for (d = 0; d < n; d++) {
		const int16_t *cc = kns->coord + (size_t)cur * n;
		unsigned int prev = 0;
		bool down = false;
		int32_t next;

		if (cc[d] == dc[d])
			continue;
		hop++;
		while (hop < len - 1 && is_role(kns, nodes[hop], OT_KNS_SWITCH)) {
			int32_t x = nodes[hop];
			const int16_t *xc = kns->coord + (size_t)x * n;
			unsigned int st = kns->stage[x];

			for (e = 0; e < n; e++)
				if (e != d && xc[e] != cc[e])
					break;
			if (kns->dim[x] != (int)d || e < n)
				return ot_error_set(err,
						    "path from CA \"%s\" to CA \"%s\": hop %u goes to \"%s\", not a switch of the line of dimension %u of router \"%s\"",
						    f->node[src].desc,
						    f->node[dst].desc, hop,
						    nm(kns, x), d,
						    f->node[cur].desc);
			if (prev && st == prev + 1 && !down) {
				/* climbing */
			} else if (prev && st + 1 == prev) {
				down = true;
			} else if (prev || st != 1) {
				return ot_error_set(err,
						    "path from CA \"%s\" to CA \"%s\": hop %u to \"%s\" (stage %u after stage %u) is not up-then-down in dimension %u",
						    f->node[src].desc,
						    f->node[dst].desc, hop,
						    nm(kns, x), st, prev, d);
			}
			prev = st;
			hop++;
		}
		next = hop < len ? nodes[hop] : -1;
		if (prev != 1 || !is_role(kns, next, OT_KNS_ROUTER))
			return ot_error_set(err,
					    "path from CA \"%s\" to CA \"%s\": hop %u goes to \"%s\", not down to a router from stage 1",
					    f->node[src].desc,
					    f->node[dst].desc, hop,
					    nm(kns, next));
		for (e = 0; e < n; e++) {
			int want = e == d ? dc[e] : cc[e];

			if (kns->coord[(size_t)next * n + e] != want)
				return ot_error_set(err,
						    "path from CA \"%s\" to CA \"%s\": hop %u to \"%s\" does not correct dimension %u alone",
						    f->node[src].desc,
						    f->node[dst].desc, hop,
						    nm(kns, next), d);
		}
		cur = next;
	}
	if (cur != kns->router[dst] || hop != len - 2)
		return ot_error_set(err,
				    "path from CA \"%s\" to CA \"%s\": ends at \"%s\" after %u hops, not at the destination's router in dimension order",
				    f->node[src].desc, f->node[dst].desc,
				    nm(kns, cur), hop);
	return 0;
}

