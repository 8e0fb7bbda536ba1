// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The KNS recognizer of seed 000 ("Implementation and testing of a KNS
 * topology in an InfiniBand cluster"), sections 2.2 and 3.2, the step
 * between the fabric and the hdor engine in the flow (fabric -> recognizer
 * -> coordinates -> engine -> tables -> checker).  It decides from the
 * cabling alone whether a fabric is a k-ary n-direct 1-indirect KNS, gives
 * every router, indirect switch and CA its coordinates, and refuses
 * anything else with one line naming the node and port that break the
 * shape.  The checker also uses it to verify that a path is the one
 * Hybrid-DOR promises.
 *
 * The paper numbers nodes by walking from "the first switch" through its
 * ports in order, so its coordinates follow discovery order and cabling.
 * Here nothing depends on port numbers, node order or LIDs.  A KNS is
 * symmetric: any router can be the origin, the dimensions can be
 * numbered in any order, and the k values of each dimension can be handed
 * out in any order.  Those three choices, and only those, are made by GUID
 * (lowest first; node index only when GUIDs tie, which real fabrics never
 * do): the origin is the router with the lowest GUID, its indirect
 * switches in GUID order serve dimensions 0..n-1, and in each dimension
 * the groups of routers sharing a coordinate are numbered in the order of
 * their lowest router GUID.  The same fabric therefore always gets the
 * same coordinates, whatever order it was discovered in.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "model/uf.h"
#include "topo/kns.h"

/* The cables from one switch to one other switch, seen from the first. */
struct kns_bundle {
	int32_t node;    /* the switch at the far end */
	uint8_t port;    /* lowest local port of the bundle */
	uint16_t cables; /* parallel cables */
};

/* Working state of one recognition; kns is what the caller gets back. */
struct kns_build {
	const struct ot_fabric *f;
	struct ot_kns *kns;
	struct ot_error *err;
	bool *is_router;     /* per node: a switch with a CA cabled */
	/*
	 * Per switch node x, its bundles to other switches are
	 * bundle[bstart[x] .. bstart[x + 1]).  Routers only have bundles to
	 * indirect switches and indirect switches only to routers once the
	 * cable checks have passed.
	 */
	uint32_t *bstart;
	struct kns_bundle *bundle;
	uint32_t *to_router; /* per node: cables to routers */
	uint32_t *to_switch; /* per node: cables to indirect switches */
	int32_t *routers;    /* router nodes, in node order */
	uint32_t nrouters, nindirect;
	int32_t *rindex;     /* per node: index in routers[], or -1 */
	uint32_t *mark;      /* per node scratch for set membership */
	uint32_t stamp;
	unsigned int links;  /* L: parallel cables per router-switch pair */
};

#define NODE_FMT "%s \"%s\" (0x%016" PRIx64 ")"
#define NODE_ARGS(b, x) node_kind(b, x), (b)->f->node[x].desc, \
			(b)->f->node[x].guid

static const char *node_kind(const struct kns_build *b, int32_t x)
{
	switch (b->f->node[x].type) {
	case OT_NODE_CA:
		return "CA";
	case OT_NODE_ROUTER:
		return "IB router";
	case OT_NODE_SWITCH:
		break;
	}
	if (b->is_router && b->is_router[x])
		return "router";
	return "switch";
}

static uint32_t nbundles(const struct kns_build *b, int32_t x)
{
	return b->bstart[x + 1] - b->bstart[x];
}

static const struct kns_bundle *bundles(const struct kns_build *b, int32_t x)
{
	return b->bundle + b->bstart[x];
}

/* CAs: each hangs off exactly one switch, which makes that a router. */
static int classify(struct kns_build *b)
{
	const struct ot_fabric *f = b->f;
	uint32_t i;
	unsigned int p;

	for (i = 0; i < f->nnodes; i++) {
		const struct ot_node *nd = &f->node[i];
		int32_t sw = -1;
		unsigned int swport = 0;

		if (nd->type == OT_NODE_ROUTER)
			return ot_refuse(b->err, OT_ERR_TOPOLOGY,
					 NODE_FMT ": a KNS has no IB routers",
					 NODE_ARGS(b, i));
		if (nd->type != OT_NODE_CA)
			continue;
		for (p = 1; p <= nd->nports; p++) {
			int32_t peer = nd->port[p].peer;

			if (peer < 0)
				continue;
			if (f->node[peer].type == OT_NODE_CA)
				return ot_refuse(b->err, OT_ERR_TOPOLOGY,
						 NODE_FMT " port %u: cabled to " NODE_FMT "; in a KNS every CA hangs off a router",
						 NODE_ARGS(b, i), p,
						 NODE_ARGS(b, peer));
			if (f->node[peer].type != OT_NODE_SWITCH)
				return ot_refuse(b->err, OT_ERR_TOPOLOGY,
						 NODE_FMT " port %u: cabled to " NODE_FMT "; a KNS has no IB routers",
						 NODE_ARGS(b, i), p,
						 NODE_ARGS(b, peer));
			if (sw >= 0 && sw != peer)
				return ot_refuse(b->err, OT_ERR_TOPOLOGY,
						 NODE_FMT " port %u: cabled to switch \"%s\" while port %u goes to switch \"%s\"; a KNS CA hangs off one router",
						 NODE_ARGS(b, i), p,
						 f->node[peer].desc, swport,
						 f->node[sw].desc);
			sw = peer;
			swport = p;
		}
		if (sw < 0)
			return ot_refuse(b->err, OT_ERR_TOPOLOGY,
					 NODE_FMT ": no port is cabled",
					 NODE_ARGS(b, i));
		b->is_router[sw] = true;
	}
	return 0;
}

/*
 * A CA on what should be an indirect switch turns that switch into a
 * "router" whose other cables all go to routers.  Blaming the CA's switch
 * then says what is wrong better than "router-router cable" does.
 */
static int blame_router_cable(struct kns_build *b, int32_t a, unsigned int pa)
{
	const struct ot_fabric *f = b->f;
	int32_t c = f->node[a].port[pa].peer;
	int32_t x = -1;
	uint32_t cab = 0;
	unsigned int p;

	for (p = 1; p <= f->node[a].nports; p++)
		if (f->node[a].port[p].peer == c)
			cab++;
	/*
	 * x looks like an indirect switch with a CA: no cable to an
	 * indirect switch, other routers besides the far end, and the far
	 * end has no router but x.
	 */
	if (!b->to_switch[c] && b->to_router[a] == cab &&
	    b->to_router[c] > cab)
		x = c;
	else if (!b->to_switch[a] && b->to_router[c] == cab &&
		 b->to_router[a] > cab)
		x = a;
	if (x >= 0) {
		for (p = 1; p <= f->node[x].nports; p++) {
			int32_t peer = f->node[x].port[p].peer;

			if (peer >= 0 && f->node[peer].type == OT_NODE_CA)
				return ot_refuse(b->err, OT_ERR_TOPOLOGY,
						 "switch \"%s\" (0x%016" PRIx64 ") port %u: CA \"%s\" cabled to a switch whose other cables all go to routers; KNS indirect switches carry no CAs",
						 f->node[x].desc,
						 f->node[x].guid, p,
						 f->node[peer].desc);
		}
	}
	return ot_refuse(b->err, OT_ERR_TOPOLOGY,
			 NODE_FMT " port %u: cabled to " NODE_FMT " port %u; KNS routers connect only to their CAs and to indirect switches",
			 NODE_ARGS(b, a), pa, NODE_ARGS(b, c),
			 f->node[a].port[pa].peer_port);
}

/*
 * Calls visit(b, x, p, peer, ctx) for every port p of a switch x cabled to
 * another switch, peer, in node and port order (so every cable twice,
 * once from each end); stops at the first nonzero return.
 */
typedef int (*cable_visit)(struct kns_build *b, int32_t x, unsigned int p,
			   int32_t peer, void *ctx);

static int each_switch_cable(struct kns_build *b, cable_visit visit,
			     void *ctx)
{
	const struct ot_fabric *f = b->f;
	uint32_t i;
	unsigned int p;
	int error;

	/* (ot_switch_peer() is -1 unless both ends are switches) */
	for (i = 0; i < f->nnodes; i++) {
		for (p = 1; p <= f->node[i].nports; p++) {
			int32_t peer = ot_switch_peer(f, i, p);

			if (peer < 0)
				continue;
			error = visit(b, i, p, peer, ctx);
			if (error)
				return error;
		}
	}
	return 0;
}

/* x's cables to routers and to indirect switches. */
static int count_cable(struct kns_build *b, int32_t x, unsigned int p,
		       int32_t peer, void *ctx)
{
	(void)p;
	(void)ctx;
	if (b->is_router[peer])
		b->to_router[x]++;
	else
		b->to_switch[x]++;
	return 0;
}

/* A cable joins a router and an indirect switch (counts known). */
static int check_cable(struct kns_build *b, int32_t x, unsigned int p,
		       int32_t peer, void *ctx)
{
	const struct ot_node *nd = &b->f->node[x];

	(void)ctx;
	if (peer == x)
		return ot_refuse(b->err, OT_ERR_TOPOLOGY,
				 NODE_FMT " port %u: cabled to its own port %u",
				 NODE_ARGS(b, x), p, nd->port[p].peer_port);
	if (b->is_router[x] && b->is_router[peer])
		return blame_router_cable(b, x, p);
	if (!b->is_router[x] && !b->is_router[peer])
		return ot_refuse(b->err, OT_ERR_TOPOLOGY,
				 NODE_FMT " port %u: cabled to " NODE_FMT " port %u; KNS indirect networks with s = 1 have no switch-to-switch cables",
				 NODE_ARGS(b, x), p, NODE_ARGS(b, peer),
				 nd->port[p].peer_port);
	return 0;
}

/* Every switch-to-switch cable joins a router and an indirect switch. */
static int check_cables(struct kns_build *b)
{
	each_switch_cable(b, count_cable, NULL);
	return each_switch_cable(b, check_cable, NULL);
}

/* Bundles being filled, switch by switch in node order. */
struct bundle_fill {
	int32_t x;      /* the switch whose bundles are being filled */
	uint32_t total; /* bundles so far */
	int32_t *slot;  /* per node: its bundle from x, valid when marked */
};

/*
 * Adds the cable to x's bundle towards peer, or starts that bundle;
 * bstart[x + 1] counts x's bundles until collect_bundles() sums them up.
 */
static int add_to_bundle(struct kns_build *b, int32_t x, unsigned int p,
			 int32_t peer, void *ctx)
{
	struct bundle_fill *fill = ctx;
	struct kns_bundle *bd;

	if (x != fill->x) {
		fill->x = x;
		b->stamp++;
	}
	if (b->mark[peer] == b->stamp) {
		b->bundle[fill->slot[peer]].cables++;
		return 0;
	}
	b->mark[peer] = b->stamp;
	fill->slot[peer] = fill->total;
	bd = &b->bundle[fill->total++];
	bd->node = peer;
	bd->port = p;
	bd->cables = 1;
	b->bstart[x + 1]++;
	return 0;
}

/* Groups each switch's cables into bundles, one per neighbouring switch. */
static int collect_bundles(struct kns_build *b)
{
	const struct ot_fabric *f = b->f;
	struct bundle_fill fill = { .x = -1 };
	uint32_t i, total = 0;

	for (i = 0; i < f->nnodes; i++)
		total += b->to_router[i] + b->to_switch[i];
	b->bstart = calloc((size_t)f->nnodes + 1, sizeof(*b->bstart));
	b->bundle = malloc(((size_t)total + 1) * sizeof(*b->bundle));
	fill.slot = malloc((size_t)f->nnodes * sizeof(*fill.slot));
	if (!b->bstart || !b->bundle || !fill.slot) {
		free(fill.slot);
		return ot_error_nomem(b->err, "kns");
	}
	each_switch_cable(b, add_to_bundle, &fill);
	for (i = 0; i < f->nnodes; i++)
		b->bstart[i + 1] += b->bstart[i];
	free(fill.slot);
	return 0;
}

/* The most common value of hist[], the larger one on a tie. */
static unsigned int hist_mode(const uint32_t *hist, unsigned int len)
{
	unsigned int v, best = 0;

	for (v = 0; v < len; v++)
		if (hist[v] && hist[v] >= hist[best])
			best = v;
	return best;
}

/* A router with a switch too many: name its cable to a crowded switch. */
static int blame_extra_switch(struct kns_build *b, int32_t r, unsigned int n,
			      unsigned int k)
{
	const struct kns_bundle *bd = bundles(b, r);
	uint32_t j, cnt = nbundles(b, r);

	for (j = 0; j < cnt; j++)
		if (nbundles(b, bd[j].node) > k)
			return ot_refuse(b->err, OT_ERR_TOPOLOGY,
					 NODE_FMT " port %u: cable to " NODE_FMT " is one too many: the router has %u indirect switches and the switch %u routers, where the others have %u and %u",
					 NODE_ARGS(b, r), bd[j].port,
					 NODE_ARGS(b, bd[j].node), cnt,
					 nbundles(b, bd[j].node), n, k);
	return ot_refuse(b->err, OT_ERR_TOPOLOGY,
			 NODE_FMT ": %u indirect switches where most routers have %u (port %u goes to the first)",
			 NODE_ARGS(b, r), cnt, n, bd[0].port);
}

/*
 * The shape most nodes agree on: n, the indirect switches of a router; k,
 * the routers of an indirect switch; l, the cables of a router-switch
 * pair.  Taken by majority so that the one node that differs is the one
 * named.
 */
static void majority_shape(struct kns_build *b, unsigned int *n,
			   unsigned int *k, unsigned int *l)
{
	const struct ot_fabric *f = b->f;
	uint32_t hn[OT_MAX_PORTS + 1] = { 0 }, hk[OT_MAX_PORTS + 1] = { 0 };
	uint32_t hl[OT_MAX_PORTS + 1] = { 0 };
	uint32_t i, j;

	for (i = 0; i < f->nnodes; i++) {
		const struct kns_bundle *bd = bundles(b, i);

		if (f->node[i].type != OT_NODE_SWITCH)
			continue;
		if (b->is_router[i]) {
			hn[nbundles(b, i)]++;
			for (j = 0; j < nbundles(b, i); j++)
				hl[bd[j].cables]++;
		} else {
			hk[nbundles(b, i)]++;
		}
	}
	*n = hist_mode(hn, OT_MAX_PORTS + 1);
	*k = hist_mode(hk, OT_MAX_PORTS + 1);
	*l = hist_mode(hl, OT_MAX_PORTS + 1);
}

/*
 * Every router has n indirect switches and l cables to each.  Routers are
 * checked before indirect switches: a wrong cable then names the router's
 * port.
 */
static int check_routers(struct kns_build *b, unsigned int n, unsigned int k,
			 unsigned int l)
{
	uint32_t i, j;

	for (i = 0; i < b->nrouters; i++) {
		int32_t r = b->routers[i];
		const struct kns_bundle *bd = bundles(b, r);
		uint32_t cnt = nbundles(b, r);

		if (!cnt)
			return ot_refuse(b->err, OT_ERR_TOPOLOGY,
					 NODE_FMT ": no cable to an indirect switch; a KNS router has one per dimension",
					 NODE_ARGS(b, r));
		if (cnt > n)
			return blame_extra_switch(b, r, n, k);
		if (cnt < n)
			return ot_refuse(b->err, OT_ERR_TOPOLOGY,
					 NODE_FMT ": %u indirect switch%s where most routers have %u (a missing cable?)",
					 NODE_ARGS(b, r), cnt,
					 cnt == 1 ? "" : "es", n);
		for (j = 0; j < cnt; j++)
			if (bd[j].cables != l)
				return ot_refuse(b->err, OT_ERR_TOPOLOGY,
						 NODE_FMT " port %u: %u parallel cable%s to " NODE_FMT " where the other router-switch pairs have %u (uneven parallel links)",
						 NODE_ARGS(b, r), bd[j].port,
						 bd[j].cables,
						 bd[j].cables == 1 ? "" : "s",
						 NODE_ARGS(b, bd[j].node),
						 l);
	}
	return 0;
}

/* Every indirect switch has k routers. */
static int check_indirect(struct kns_build *b, unsigned int k)
{
	const struct ot_fabric *f = b->f;
	uint32_t i;

	for (i = 0; i < f->nnodes; i++) {
		const struct kns_bundle *bd = bundles(b, i);
		uint32_t cnt = nbundles(b, i);

		if (f->node[i].type != OT_NODE_SWITCH || b->is_router[i])
			continue;
		if (!cnt)
			return ot_refuse(b->err, OT_ERR_TOPOLOGY,
					 NODE_FMT ": no cable to a router; KNS indirect switches connect k routers",
					 NODE_ARGS(b, i));
		if (cnt != k)
			return ot_refuse(b->err, OT_ERR_TOPOLOGY,
					 NODE_FMT ": %u routers where most indirect switches have %u (port %u goes to the first)",
					 NODE_ARGS(b, i), cnt, k,
					 bd[0].port);
	}
	return 0;
}

/*
 * Every router has n indirect switches, every indirect switch k routers,
 * every pair L cables, and there are k^n routers and n k^(n-1) switches.
 */
static int check_uniform(struct kns_build *b, unsigned int *kp,
			 unsigned int *np)
{
	unsigned int n, k, l, v;
	uint64_t want_routers = 1;
	int error;

	majority_shape(b, &n, &k, &l);
	error = check_routers(b, n, k, l);
	if (!error)
		error = check_indirect(b, k);
	if (error)
		return error;
	if (k < 2)
		return ot_refuse(b->err, OT_ERR_TOPOLOGY,
				 "kns: the indirect switches connect %u router each; a KNS needs k >= 2",
				 k);
	for (v = 0; v < n && want_routers <= b->nrouters; v++)
		want_routers *= k;
	if (want_routers != b->nrouters ||
	    (uint64_t)b->nindirect * k != (uint64_t)b->nrouters * n)
		return ot_refuse(b->err, OT_ERR_TOPOLOGY,
				 NODE_FMT ": with k = %u routers per indirect switch and n = %u indirect switches per router, a KNS has %u^%u routers and %u x %u^%u indirect switches; the fabric has %u and %u",
				 NODE_ARGS(b, b->routers[0]), k, n, k, n, n,
				 k, n - 1, b->nrouters, b->nindirect);
	*kp = k;
	*np = n;
	b->links = l;
	return 0;
}

/* The router with the lowest GUID: the origin, [0,...,0]. */
static int32_t find_origin(const struct kns_build *b)
{
	int32_t best = b->routers[0];
	uint32_t i;

	for (i = 1; i < b->nrouters; i++)
		if (ot_node_before(b->f, b->routers[i], best))
			best = b->routers[i];
	return best;
}

/* Whether routers u and t share a switch other than s1 and s2. */
static bool share_switch(struct kns_build *b, int32_t u, int32_t t,
			 int32_t s1, int32_t s2)
{
	const struct kns_bundle *bu = bundles(b, u), *bt = bundles(b, t);
	uint32_t i, j;

	for (i = 0; i < nbundles(b, u); i++) {
		if (bu[i].node == s1 || bu[i].node == s2)
			continue;
		for (j = 0; j < nbundles(b, t); j++)
			if (bt[j].node == bu[i].node)
				return true;
	}
	return false;
}

/*
 * Router r2 was reached from router r through switch s.  Each other switch
 * u of r2 serves the dimension of the switch t of r that closes a
 * rectangle with it: a router on u (not r2) and a router on t (not r)
 * share a switch other than s and u.  In a KNS exactly one t qualifies
 * (the two routers differ only in s's dimension); anything else is not a
 * KNS.
 */
static int propagate_dims(struct kns_build *b, int32_t r, int32_t s,
			  int32_t r2)
{
	int8_t *dim = b->kns->dim;
	const struct kns_bundle *br = bundles(b, r), *b2 = bundles(b, r2);
	uint32_t i, j, m, nr = nbundles(b, r), n2 = nbundles(b, r2);

	for (i = 0; i < n2; i++) {
		int32_t u = b2[i].node, urouter = -1, match = -1;
		const struct kns_bundle *bu = bundles(b, u);

		if (u == s)
			continue;
		for (j = 0; j < nbundles(b, u) && urouter < 0; j++)
			if (bu[j].node != r2)
				urouter = bu[j].node;
		for (j = 0; j < nr; j++) {
			int32_t t = br[j].node;
			const struct kns_bundle *bt = bundles(b, t);
			bool found = false;

			if (t == s)
				continue;
			for (m = 0; m < nbundles(b, t) && !found; m++)
				if (bt[m].node != r)
					found = share_switch(b, urouter,
							     bt[m].node, s, u);
			if (!found)
				continue;
			if (match >= 0)
				return ot_refuse(b->err, OT_ERR_TOPOLOGY,
						 NODE_FMT " port %u: " NODE_FMT " lines up with both \"%s\" and \"%s\" of router \"%s\"; not a KNS",
						 NODE_ARGS(b, r2),
						 b2[i].port,
						 NODE_ARGS(b, u),
						 b->f->node[match].desc,
						 b->f->node[t].desc,
						 b->f->node[r].desc);
			match = t;
		}
		if (match < 0)
			return ot_refuse(b->err, OT_ERR_TOPOLOGY,
					 NODE_FMT " port %u: " NODE_FMT " lines up with no switch of router \"%s\"; not a KNS",
					 NODE_ARGS(b, r2), b2[i].port,
					 NODE_ARGS(b, u),
					 b->f->node[r].desc);
		if (dim[u] >= 0 && dim[u] != dim[match])
			return ot_refuse(b->err, OT_ERR_TOPOLOGY,
					 NODE_FMT " port %u: " NODE_FMT " would serve dimension %d and dimension %d; not a KNS",
					 NODE_ARGS(b, r2), b2[i].port,
					 NODE_ARGS(b, u), dim[u],
					 dim[match]);
		dim[u] = dim[match];
	}
	return 0;
}

/* The origin's n switches serve dimensions 0..n-1 in GUID order. */
static void number_origin_switches(struct kns_build *b, int32_t origin,
				   unsigned int n, int32_t *sw)
{
	const struct kns_bundle *bo = bundles(b, origin);
	uint32_t i, j;

	/* n is small: insertion sort by GUID */
	for (i = 0; i < n; i++) {
		int32_t x = bo[i].node;

		for (j = i; j > 0 && ot_node_before(b->f, x, sw[j - 1]); j--)
			sw[j] = sw[j - 1];
		sw[j] = x;
	}
	for (i = 0; i < n; i++)
		b->kns->dim[sw[i]] = i;
}

/*
 * Breadth-first over routers from the origin, through indirect switches:
 * each router reached carries dimensions across a rectangle
 * (propagate_dims()).  seen[] marks the routers reached.
 */
static int walk_routers(struct kns_build *b, int32_t origin, bool *seen,
			int32_t *queue)
{
	uint32_t head = 0, tail = 0, i, j;
	int error;

	seen[origin] = true;
	queue[tail++] = origin;
	while (head < tail) {
		int32_t r = queue[head++];
		const struct kns_bundle *br = bundles(b, r);

		for (i = 0; i < nbundles(b, r); i++) {
			int32_t s = br[i].node;
			const struct kns_bundle *bs = bundles(b, s);

			for (j = 0; j < nbundles(b, s); j++) {
				int32_t r2 = bs[j].node;

				if (seen[r2])
					continue;
				error = propagate_dims(b, r, s, r2);
				if (error)
					return error;
				seen[r2] = true;
				queue[tail++] = r2;
			}
		}
	}
	return 0;
}

/* Router r has one switch per dimension (sw: n entries of scratch). */
static int check_router_dims(struct kns_build *b, int32_t r, unsigned int n,
			     int32_t *sw)
{
	const struct kns_bundle *br = bundles(b, r);
	uint32_t j, m;

	for (j = 0; j < n; j++)
		sw[j] = -1;
	for (j = 0; j < n; j++) {
		int d = b->kns->dim[br[j].node];

		if (sw[d] >= 0) {
			for (m = 0; m < n; m++)
				if (br[m].node == sw[d])
					break;
			return ot_refuse(b->err, OT_ERR_TOPOLOGY,
					 NODE_FMT " port %u: " NODE_FMT " serves dimension %d, as does \"%s\" on port %u; a KNS router has one switch per dimension",
					 NODE_ARGS(b, r), br[j].port,
					 NODE_ARGS(b, br[j].node), d,
					 b->f->node[sw[d]].desc, br[m].port);
		}
		sw[d] = br[j].node;
	}
	return 0;
}

/*
 * Gives every indirect switch its dimension: the origin's switches get
 * 0..n-1 in GUID order, and a breadth-first walk over routers carries
 * dimensions across rectangles (propagate_dims).
 */
static int assign_dimensions(struct kns_build *b, int32_t origin,
			     unsigned int n)
{
	const struct ot_fabric *f = b->f;
	int32_t *queue = NULL, *sw = NULL;
	bool *seen = NULL;
	uint32_t i;
	int error = 0;

	queue = malloc((size_t)b->nrouters * sizeof(*queue));
	seen = calloc(f->nnodes, sizeof(*seen));
	sw = malloc((size_t)n * sizeof(*sw));
	if (!queue || !seen || !sw) {
		error = ot_error_nomem(b->err, "kns");
		goto out;
	}
	number_origin_switches(b, origin, n, sw);
	error = walk_routers(b, origin, seen, queue);
	for (i = 0; i < b->nrouters && !error; i++) {
		int32_t r = b->routers[i];

		if (!seen[r])
			error = ot_refuse(b->err, OT_ERR_TOPOLOGY,
					  NODE_FMT ": cannot be reached from router \"%s\" through indirect switches; the fabric is not one KNS",
					  NODE_ARGS(b, r),
					  f->node[origin].desc);
		else
			error = check_router_dims(b, r, n, sw);
	}
out:
	free(queue);
	free(seen);
	free(sw);
	return error;
}

/*
 * The coordinate of a router in dimension d is which group it falls in
 * once the switches of dimension d are taken away: routers joined by the
 * other dimensions' switches share their coordinate d.  Groups are
 * numbered in the order of their lowest router GUID.
 */
static int assign_coordinates(struct kns_build *b, unsigned int k,
			      unsigned int n)
{
	const struct ot_fabric *f = b->f;
	struct ot_kns *kns = b->kns;
	struct ot_uf *router_sets = NULL;
	uint32_t *first = NULL, *roots = NULL, *gval = NULL;
	uint32_t i, j, groups;
	unsigned int d;
	int error = 0;

	router_sets = ot_uf_new(b->nrouters);
	first = malloc((size_t)b->nrouters * sizeof(*first));
	roots = malloc((size_t)b->nrouters * sizeof(*roots));
	gval = malloc((size_t)b->nrouters * sizeof(*gval));
	if (!router_sets || !first || !roots || !gval) {
		error = ot_error_nomem(b->err, "kns");
		goto out;
	}
	for (d = 0; d < n; d++) {
		ot_uf_reset(router_sets);
		for (i = 0; i < f->nnodes; i++) {
			const struct kns_bundle *bs = bundles(b, i);

			if (f->node[i].type != OT_NODE_SWITCH ||
			    b->is_router[i] || kns->dim[i] == (int)d)
				continue;
			for (j = 1; j < nbundles(b, i); j++)
				ot_uf_union(router_sets, b->rindex[bs[0].node],
					    b->rindex[bs[j].node]);
		}
		/* first[root]: the group's router that comes first */
		for (i = 0; i < b->nrouters; i++)
			first[i] = UINT32_MAX;
		for (i = 0; i < b->nrouters; i++) {
			uint32_t root = ot_uf_find(router_sets, i);

			if (first[root] == UINT32_MAX ||
			    ot_node_before(f, b->routers[i],
					b->routers[first[root]]))
				first[root] = i;
		}
		groups = 0;
		for (i = 0; i < b->nrouters; i++)
			if (first[i] != UINT32_MAX)
				roots[groups++] = i;
		if (groups != k) {
			error = ot_refuse(b->err, OT_ERR_TOPOLOGY,
					  NODE_FMT ": without the switches of dimension %u the routers fall into %u groups, where a KNS has k = %u",
					  NODE_ARGS(b, b->routers[0]), d,
					  groups, k);
			goto out;
		}
		/*
		 * A group's value: how many groups' first routers come
		 * before its own (k groups, so k^2 comparisons).
		 */
		for (i = 0; i < groups; i++) {
			uint32_t root = roots[i], v = 0;

			for (j = 0; j < groups; j++)
				if (ot_node_before(f, b->routers[first[roots[j]]],
						b->routers[first[root]]))
					v++;
			gval[root] = v;
		}
		for (i = 0; i < b->nrouters; i++)
			kns->coord[(size_t)b->routers[i] * n + d] =
				gval[ot_uf_find(router_sets, i)];
	}
out:
	ot_uf_free(router_sets);
	free(first);
	free(roots);
	free(gval);
	return error;
}

/* Coordinates as a number in base k, dimension 0 least significant. */
static uint32_t coord_number(const struct ot_kns *kns, int32_t x)
{
	const int16_t *c = kns->coord + (size_t)x * kns->n;
	uint32_t v = 0;
	unsigned int d;

	for (d = kns->n; d > 0; d--)
		v = v * kns->k + (uint32_t)c[d - 1];
	return v;
}

/*
 * Proves the result is a KNS: each coordinate tuple names one router, and
 * each switch of dimension d holds k routers that agree everywhere but in
 * d.  With k^n routers and one switch per dimension on every router, that
 * is exactly the k-ary n-direct 1-indirect shape.
 */
static int validate(struct kns_build *b)
{
	const struct ot_fabric *f = b->f;
	struct ot_kns *kns = b->kns;
	unsigned int n = kns->n, d, e;
	uint32_t i, j;

	for (i = 0; i < b->nrouters; i++) {
		int32_t r = b->routers[i];
		uint32_t c = coord_number(kns, r);

		if (kns->router_at[c] >= 0)
			return ot_refuse(b->err, OT_ERR_TOPOLOGY,
					 NODE_FMT ": gets the same coordinates as router \"%s\"; not a KNS",
					 NODE_ARGS(b, r),
					 f->node[kns->router_at[c]].desc);
		kns->router_at[c] = r;
	}
	for (i = 0; i < f->nnodes; i++) {
		const struct kns_bundle *bs = bundles(b, i);
		int16_t *sc = kns->coord + (size_t)i * n;

		if (f->node[i].type != OT_NODE_SWITCH || b->is_router[i])
			continue;
		d = kns->dim[i];
		memcpy(sc, kns->coord + (size_t)bs[0].node * n,
		       n * sizeof(*sc));
		sc[d] = -1;
		b->stamp++;
		for (j = 0; j < nbundles(b, i); j++) {
			const int16_t *rc =
				kns->coord + (size_t)bs[j].node * n;

			for (e = 0; e < n; e++)
				if (e != d && rc[e] != sc[e])
					break;
			if (e < n || b->mark[rc[d]] == b->stamp)
				return ot_refuse(b->err, OT_ERR_TOPOLOGY,
						 NODE_FMT " port %u: router \"%s\" is not on the line of dimension %u the switch serves; not a KNS",
						 NODE_ARGS(b, i), bs[j].port,
						 f->node[bs[j].node].desc,
						 d);
			b->mark[rc[d]] = b->stamp;
		}
	}
	return 0;
}

static int alloc_kns(struct kns_build *b)
{
	const struct ot_fabric *f = b->f;
	struct ot_kns *kns;
	uint32_t i;

	kns = calloc(1, sizeof(*kns));
	if (!kns)
		return ot_error_nomem(b->err, "kns");
	b->kns = kns;
	kns->fabric = f;
	kns->stages = 1;
	kns->role = calloc(f->nnodes, sizeof(*kns->role));
	kns->dim = malloc(f->nnodes * sizeof(*kns->dim));
	kns->router = malloc(f->nnodes * sizeof(*kns->router));
	if (!kns->role || !kns->dim || !kns->router)
		return ot_error_nomem(b->err, "kns");
	for (i = 0; i < f->nnodes; i++) {
		kns->dim[i] = -1;
		kns->router[i] = -1;
	}
	return 0;
}

static int alloc_build(struct kns_build *b)
{
	const struct ot_fabric *f = b->f;
	uint32_t i;

	b->is_router = calloc(f->nnodes, sizeof(*b->is_router));
	b->to_router = calloc(f->nnodes, sizeof(*b->to_router));
	b->to_switch = calloc(f->nnodes, sizeof(*b->to_switch));
	b->mark = calloc(f->nnodes > OT_MAX_PORTS ? f->nnodes :
			 OT_MAX_PORTS + 1, sizeof(*b->mark));
	b->rindex = malloc(f->nnodes * sizeof(*b->rindex));
	b->routers = malloc(f->nnodes * sizeof(*b->routers));
	if (!b->is_router || !b->to_router || !b->to_switch || !b->mark ||
	    !b->rindex || !b->routers)
		return ot_error_nomem(b->err, "kns");
	for (i = 0; i < f->nnodes; i++)
		b->rindex[i] = -1;
	return 0;
}

/* Counts routers and indirect switches and fills in roles. */
static void index_roles(struct kns_build *b)
{
	const struct ot_fabric *f = b->f;
	uint32_t i;

	for (i = 0; i < f->nnodes; i++) {
		if (f->node[i].type == OT_NODE_CA) {
			b->kns->role[i] = OT_KNS_CA;
		} else if (b->is_router[i]) {
			b->kns->role[i] = OT_KNS_ROUTER;
			b->kns->router[i] = i;
			b->rindex[i] = b->nrouters;
			b->routers[b->nrouters++] = i;
		} else {
			b->kns->role[i] = OT_KNS_SWITCH;
			b->nindirect++;
		}
	}
}

/* CAs take the coordinates of their router. */
static void place_cas(struct kns_build *b)
{
	const struct ot_fabric *f = b->f;
	struct ot_kns *kns = b->kns;
	uint32_t i;
	unsigned int p;

	for (i = 0; i < f->nnodes; i++) {
		const struct ot_node *nd = &f->node[i];

		if (nd->type != OT_NODE_CA)
			continue;
		for (p = 1; p <= nd->nports; p++)
			if (nd->port[p].peer >= 0)
				break;
		kns->router[i] = nd->port[p].peer;
		memcpy(kns->coord + (size_t)i * kns->n,
		       kns->coord + (size_t)kns->router[i] * kns->n,
		       kns->n * sizeof(*kns->coord));
	}
}

int ot_kns_recognize(const struct ot_fabric *f, struct ot_kns **out,
		     struct ot_error *err)
{
	struct kns_build b = { .f = f, .err = err };
	unsigned int k = 0, n = 0;
	uint32_t i;
	int error = 0;

	*out = NULL;
	if (!f->nnodes)
		return ot_refuse(err, OT_ERR_TOPOLOGY,
				 "kns: the fabric is empty");
	error = alloc_kns(&b);
	if (!error)
		error = alloc_build(&b);
	if (!error)
		error = classify(&b);
	if (error)
		goto out;
	index_roles(&b);
	if (!b.nrouters) {
		error = ot_refuse(err, OT_ERR_TOPOLOGY,
				  "kns: no CA in the fabric; KNS routers are the switches CAs hang off");
		goto out;
	}
	error = check_cables(&b);
	if (!error)
		error = collect_bundles(&b);
	if (!error)
		error = check_uniform(&b, &k, &n);
	if (error)
		goto out;
	b.kns->k = k;
	b.kns->n = n;
	b.kns->links = b.links;
	b.kns->coord = malloc((size_t)f->nnodes * n * sizeof(*b.kns->coord));
	b.kns->router_at = malloc((size_t)b.nrouters *
				  sizeof(*b.kns->router_at));
	if (!b.kns->coord || !b.kns->router_at) {
		error = ot_error_nomem(err, "kns");
		goto out;
	}
	for (i = 0; i < f->nnodes * n; i++)
		b.kns->coord[i] = -1;
	for (i = 0; i < b.nrouters; i++)
		b.kns->router_at[i] = -1;
	error = assign_dimensions(&b, find_origin(&b), n);
	if (!error)
		error = assign_coordinates(&b, k, n);
	if (!error)
		error = validate(&b);
	if (error)
		goto out;
	place_cas(&b);
	*out = b.kns;
	b.kns = NULL;
out:
	ot_kns_free(b.kns);
	free(b.is_router);
	free(b.bstart);
	free(b.bundle);
	free(b.to_router);
	free(b.to_switch);
	free(b.routers);
	free(b.rindex);
	free(b.mark);
	return error;
}

void ot_kns_free(struct ot_kns *kns)
{
	uint32_t i;

	if (!kns)
		return;
	free(kns->role);
	free(kns->coord);
	free(kns->dim);
	free(kns->router);
	free(kns->router_at);
	free(kns->stage);
	free(kns->line);
	free(kns->pos);
	for (i = 0; i < kns->nlines; i++) {
		free(kns->lines[i].router);
		free(kns->lines[i].sw);
	}
	free(kns->lines);
	free(kns);
}
