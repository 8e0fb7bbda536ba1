// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The Slim Fly x FlatFly recognizer (see sfff.h), between the fabric and
 * the ff-* engines in the flow (fabric -> recognizer -> coordinates ->
 * engine -> tables -> checker).
 *
 * In a Cartesian product every triangle lies in one factor and every
 * 4-cycle either lies in one factor or alternates between two, so the
 * FlatFly recognizer's rules 3 and 4 never join a FlatFly cable to a
 * Slim Fly one.  A FlatFly dimension is one class (its lines are full
 * graphs, and the squares with any other dimension, the Slim Fly's
 * included, join its lines across copies); the Slim Fly cables fall into
 * classes of their own (an MMS graph has few or no triangles and
 * 4-cycles: for q = 5 every Slim Fly edge is a class of its own, times
 * the copies).  So:
 *
 *  1. FlatFly dimensions: the classes whose bundles split every switch
 *     into full graphs of one size K >= 2 (the lines of the dimension;
 *     at least two thirds of each line cabled)
 *     and whose removal leaves K hyperplanes of equal size.  A Slim Fly
 *     class can pass the first test (perfect matchings for q = 4,
 *     triangles for q = 3, 4-cliques among the y-cables for q = 8),
 *     none passed the second in the tests (an MMS graph has no
 *     Cartesian factor to cut along); one that did would leave copies
 *     that are no MMS graphs, refused in steps 3 and 4, never a wrong
 *     mapping.
 *  2. Values: coordinate d of a switch is its component once the
 *     dimension's cables are removed (a hyperplane), numbered in GUID
 *     order of the lowest switch; there must be K of equal size.
 *  3. The Slim Fly: the switches of one FlatFly position (a copy) must
 *     number 2q^2 for a prime power q, the same in every copy.  The copy
 *     of the lowest GUID is recognized as an MMS graph over its own
 *     cables (topo/slimfly.c); every other switch takes the MMS position
 *     of the switch of that copy its FlatFly cables lead to (the
 *     components of the FlatFly cables hold one switch of each copy).
 *  4. Checks: no two switches share a position; every cable inside a
 *     copy joins MMS neighbours, every other cable joins the same MMS
 *     position and differs in one FlatFly coordinate: one labelling,
 *     the same across copies.
 *
 * Only GUID order breaks the ties the topology leaves open: dimensions
 * by size, then width, then their lowest cable; values by their lowest
 * switch; MMS positions as the Slim Fly recognizer gives them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/uf.h"
#include "topo/sfff.h"

#define FDIMS (OT_FF_MAX_DIMS - 1)

struct sp_build {
	const struct ot_fabric *f;
	struct ot_error *err;
	struct ot_ff_links lk;
	uint32_t nsw;
	int32_t *rank_node;   /* GUID rank -> node */
	struct ot_uf *uf;     /* over ranks */
	uint32_t *cnt_v, *cnt_b; /* per root: switches, bundles */
	int8_t *cdim;         /* per class: FlatFly dimension, -1 */
	unsigned int nffd;
	uint32_t dcls[FDIMS];
	unsigned int K[FDIMS], W[FDIMS];
	uint32_t *val;        /* rank * FDIMS + d */
	uint32_t *fslot;      /* per rank: FlatFly position */
	int32_t *pos;         /* per rank: MMS position */
	uint32_t nff, nsf;
	unsigned int sfw;
};

static const char *desc(const struct sp_build *b, uint32_t rank)
{
	const char *d = b->f->node[b->rank_node[rank]].desc;

	return d ? d : "?";
}

/* Components of the bundles keep() accepts: counts per root. */
static void components(struct sp_build *b,
		       bool (*keep)(const struct sp_build *, uint32_t,
				    uint32_t), uint32_t arg)
{
	const struct ot_ff_links *lk = &b->lk;
	uint32_t i;

	ot_uf_reset(b->uf);
	memset(b->cnt_v, 0, b->nsw * sizeof(*b->cnt_v));
	memset(b->cnt_b, 0, b->nsw * sizeof(*b->cnt_b));
	for (i = 0; i < lk->nbundles; i++)
		if (keep(b, i, arg))
			ot_uf_union(b->uf, lk->rank[lk->a[i]],
				    lk->rank[lk->b[i]]);
	for (i = 0; i < b->nsw; i++)
		b->cnt_v[ot_uf_find(b->uf, i)]++;
	for (i = 0; i < lk->nbundles; i++)
		if (keep(b, i, arg))
			b->cnt_b[ot_uf_find(b->uf, lk->rank[lk->a[i]])]++;
}

static bool in_class(const struct sp_build *b, uint32_t i, uint32_t c)
{
	return b->lk.cls[i] == c;
}

static bool not_in_class(const struct sp_build *b, uint32_t i, uint32_t c)
{
	return b->lk.cls[i] != c;
}

static bool is_ff(const struct sp_build *b, uint32_t i, uint32_t unused)
{
	(void)unused;
	return b->cdim[b->lk.cls[i]] >= 0;
}

/*
 * Whether class c splits every switch into full graphs of one size K,
 * at least two thirds of each cabled (cables may be missing, as the
 * FlatFly recognizer allows): K, or 0.
 */
static unsigned int full_graph_size(struct sp_build *b, uint32_t c,
				    uint32_t nbundles)
{
	uint32_t r, K;

	if (2 * (uint64_t)nbundles < b->nsw)
		return 0;
	components(b, in_class, c);
	K = b->cnt_v[ot_uf_find(b->uf, 0)];
	if (K < 2)
		return 0;
	for (r = 0; r < b->nsw; r++) {
		if (ot_uf_find(b->uf, r) != r)
			continue;
		if (b->cnt_v[r] != K ||
		    3 * (uint64_t)b->cnt_b[r] < (uint64_t)K * (K - 1))
			return 0;
	}
	return K;
}

/*
 * Whether removing class c leaves K hyperplanes of equal size: a real
 * dimension is the only way to change its coordinate.  Slim Fly classes
 * whose parts happen to be equal full graphs (perfect matchings, the
 * triangles of q = 3, the 4-cliques of q = 8) fail here.
 */
static bool separates(struct sp_build *b, uint32_t c, unsigned int K)
{
	uint32_t r, parts = 0;

	components(b, not_in_class, c);
	for (r = 0; r < b->nsw; r++) {
		if (ot_uf_find(b->uf, r) != r)
			continue;
		if ((uint64_t)b->cnt_v[r] * K != b->nsw)
			return false;
		parts++;
	}
	return parts == K;
}

/* Puts the dimensions in order: size, width, class (lowest cable). */
static void sort_dims(struct sp_build *b)
{
	unsigned int i, j;

	for (i = 1; i < b->nffd; i++)
		for (j = i; j > 0; j--) {
			unsigned int x = j - 1, y = j;
			bool swap = b->K[x] != b->K[y] ? b->K[x] > b->K[y] :
				    b->W[x] != b->W[y] ? b->W[x] > b->W[y] :
				    b->dcls[x] > b->dcls[y];
			uint32_t t;

			if (!swap)
				break;
			t = b->K[x], b->K[x] = b->K[y], b->K[y] = t;
			t = b->W[x], b->W[x] = b->W[y], b->W[y] = t;
			t = b->dcls[x], b->dcls[x] = b->dcls[y], b->dcls[y] = t;
		}
	for (i = 0; i < b->nffd; i++)
		b->cdim[b->dcls[i]] = i;
}

/* Step 1: which classes are FlatFly dimensions. */
static int find_ff_dims(struct sp_build *b)
{
	const struct ot_ff_links *lk = &b->lk;
	uint32_t *size = calloc(lk->nclasses + 1, sizeof(*size));
	uint32_t *wid = calloc(lk->nclasses + 1, sizeof(*wid));
	uint32_t i, c;
	int error = 0;

	if (!size || !wid) {
		error = ot_error_nomem(b->err, "sfxff");
		goto out;
	}
	for (i = 0; i < lk->nbundles; i++) {
		size[lk->cls[i]]++;
		if (lk->cables[i] > wid[lk->cls[i]])
			wid[lk->cls[i]] = lk->cables[i];
	}
	for (c = 0; c < lk->nclasses; c++) {
		unsigned int K = full_graph_size(b, c, size[c]);

		b->cdim[c] = -1;
		if (!K || !separates(b, c, K))
			continue;
		if (b->nffd == FDIMS) {
			error = ot_refuse(b->err, OT_ERR_TOPOLOGY,
					  "sfxff: more than %u FlatFly dimensions",
					  FDIMS);
			goto out;
		}
		b->K[b->nffd] = K;
		b->W[b->nffd] = wid[c];
		b->dcls[b->nffd++] = c;
	}
	sort_dims(b);
out:
	free(size);
	free(wid);
	return error;
}

/* Step 2: values of dimension d, hyperplanes numbered in GUID order. */
static int find_values(struct sp_build *b, unsigned int d)
{
	uint32_t *num = b->cnt_b, r, nv = 0;

	components(b, not_in_class, b->dcls[d]);
	for (r = 0; r < b->nsw; r++)
		num[r] = UINT32_MAX;
	for (r = 0; r < b->nsw; r++) {
		uint32_t root = ot_uf_find(b->uf, r);

		if (num[root] == UINT32_MAX) {
			if (b->cnt_v[root] * b->K[d] != b->nsw || nv == b->K[d])
				return ot_refuse(b->err, OT_ERR_TOPOLOGY,
						 "sfxff: switch \"%s\": its hyperplane of FlatFly dimension %u holds %u of %u switches (%u lines of %u)",
						 desc(b, r), d + 1,
						 b->cnt_v[root], b->nsw,
						 b->nsw / b->K[d], b->K[d]);
			num[root] = nv++;
		}
		b->val[r * FDIMS + d] = num[root];
	}
	return 0;
}

/* Step 3a: FlatFly positions, and the Slim Fly's size. */
static int find_copies(struct sp_build *b)
{
	uint32_t r, *cnt;
	unsigned int d;

	b->nff = 1;
	for (d = 0; d < b->nffd; d++)
		b->nff *= b->K[d];
	b->nsf = b->nsw / b->nff;
	if (!ot_mms_q_for(b->nsf) || b->nsf * b->nff != b->nsw) {
		ot_refuse(b->err, OT_ERR_TOPOLOGY,
			  "sfxff: %u switches over %u FlatFly positions: a Slim Fly has 2q^2 for a prime power q",
			  b->nsw, b->nff);
		return -2;
	}
	cnt = calloc(b->nff, sizeof(*cnt));
	if (!cnt)
		return ot_error_nomem(b->err, "sfxff");
	for (r = 0; r < b->nsw; r++) {
		uint32_t s = 0;

		for (d = b->nffd; d > 0; d--)
			s = s * b->K[d - 1] + b->val[r * FDIMS + d - 1];
		b->fslot[r] = s;
		if (++cnt[s] > b->nsf) {
			free(cnt);
			return ot_refuse(b->err, OT_ERR_TOPOLOGY,
					 "sfxff: switch \"%s\": more than %u switches share its FlatFly position",
					 desc(b, r), b->nsf);
		}
	}
	free(cnt);
	return 0;
}

/* The switches of FlatFly position fs and their cables, as a fabric. */
static struct ot_fabric *copy_fabric(struct sp_build *b, uint32_t fs,
				     int32_t *sub)
{
	const struct ot_fabric *f = b->f;
	struct ot_fabric *g = ot_fabric_new();
	uint32_t r;
	unsigned int p;

	for (r = 0; g && r < b->nsw; r++) {
		const struct ot_node *nd = &f->node[b->rank_node[r]];

		sub[r] = -1;
		if (b->fslot[r] != fs)
			continue;
		sub[r] = ot_fabric_add_node(g, OT_NODE_SWITCH, nd->nports,
					    nd->guid, nd->desc, b->err);
		if (sub[r] < 0)
			goto fail;
	}
	for (r = 0; g && r < b->nsw; r++) {
		const struct ot_node *nd = &f->node[b->rank_node[r]];

		for (p = 1; sub[r] >= 0 && p <= nd->nports; p++) {
			int32_t peer = nd->port[p].peer, u;

			if (peer < 0 || !ot_is_switch(f, peer))
				continue;
			u = b->lk.rank[peer];
			if (sub[u] < 0 || u < (int32_t)r)
				continue;
			if (ot_fabric_link(g, sub[r], p, sub[u],
					   nd->port[p].peer_port, b->err))
				goto fail;
		}
	}
	if (g && !ot_fabric_index(g, b->err))
		return g;
fail:
	ot_fabric_free(g);
	return NULL;
}

/* The MMS positions of the switches of copy fs, or -1 with why set. */
static int recognize_one(struct sp_build *b, uint32_t fs,
			 struct ot_sfff *out, struct ot_error *why)
{
	int32_t *sub = malloc(b->nsw * sizeof(*sub));
	struct ot_fabric *g = NULL;
	struct ot_sf *sf = NULL;
	uint32_t r;
	int error = -1;

	if (!sub)
		return ot_error_nomem(why, "sfxff");
	g = copy_fabric(b, fs, sub);
	if (!g || ot_sf_recognize(g, &sf, why))
		goto out;
	for (r = 0; r < b->nsw; r++)
		b->pos[r] = sub[r] >= 0 ? sf->sw_pos[sub[r]] : -1;
	error = ot_mms_init(&out->mms, sf->mms.q, why);
out:
	ot_sf_free(sf);
	ot_fabric_free(g);
	free(sub);
	return error;
}

/*
 * Step 3b: the MMS positions of one copy, the copy of the lowest GUID
 * (the copies are the same graph, so any one will do; step 3d checks
 * the others).
 */
static int recognize_copy(struct sp_build *b, struct ot_sfff *out)
{
	struct ot_error why = { 0 };

	if (!recognize_one(b, b->fslot[0], out, &why))
		return 0;
	if (why.cls == OT_ERR_NOMEM)
		return ot_error_nomem(b->err, "sfxff");
	if (b->nffd)
		return ot_refuse(b->err, OT_ERR_TOPOLOGY,
				 "sfxff: the Slim Fly copy of the lowest GUID: %s",
				 why.msg);
	return ot_refuse(b->err, OT_ERR_TOPOLOGY,
			 "sfxff: no FlatFly dimension found, the %u switches as one Slim Fly: %s",
			 b->nsw, why.msg);
}

/* Step 3c: every switch the position its FlatFly cables lead to. */
static int carry_positions(struct sp_build *b)
{
	int32_t *at = (int32_t *)b->cnt_b;
	uint32_t r;

	components(b, is_ff, 0);
	for (r = 0; r < b->nsw; r++)
		at[r] = -1;
	for (r = 0; r < b->nsw; r++)
		if (b->pos[r] >= 0)
			at[ot_uf_find(b->uf, r)] = b->pos[r];
	for (r = 0; r < b->nsw; r++) {
		int32_t p = at[ot_uf_find(b->uf, r)];

		if (p < 0)
			return ot_refuse(b->err, OT_ERR_TOPOLOGY,
					 "sfxff: switch \"%s\": no FlatFly cables lead to the Slim Fly copy of the lowest GUID",
					 desc(b, r));
		b->pos[r] = p;
	}
	return 0;
}

/* The FlatFly dimension (1..) a cable between ranks r and u crosses. */
static int cable_dim(const struct sp_build *b, uint32_t r, uint32_t u)
{
	unsigned int d;
	int dim = 0;

	for (d = 0; d < b->nffd; d++) {
		if (b->val[r * FDIMS + d] == b->val[u * FDIMS + d])
			continue;
		if (dim)
			return -1;
		dim = d + 1;
	}
	return dim;
}

/* Step 4 for one switch: its ports' dimensions, every cable checked. */
static int check_ports(struct sp_build *b, struct ot_ff *ff, uint32_t r,
		       const struct ot_mms *m)
{
	const struct ot_fabric *f = b->f;
	int32_t n = b->rank_node[r];
	const struct ot_node *nd = &f->node[n];
	char x[32], y[32];
	unsigned int p;

	for (p = 1; p <= nd->nports; p++) {
		int32_t peer = nd->port[p].peer;
		uint32_t u;
		int dim;

		ff->port_dim[ff->port_dim_base[n] + p] = -1;
		if (peer < 0 || !ot_is_switch(f, peer))
			continue;
		u = b->lk.rank[peer];
		dim = cable_dim(b, r, u);
		ot_sf_pos_str(m, b->pos[r], x, sizeof(x));
		ot_sf_pos_str(m, b->pos[u], y, sizeof(y));
		if (dim < 0)
			return ot_refuse(b->err, OT_ERR_TOPOLOGY,
					 "sfxff: switch \"%s\" port %u: the cable to \"%s\" crosses several FlatFly dimensions",
					 nd->desc, p, desc(b, u));
		if (dim == 0 && !ot_mms_adjacent(m, b->pos[r], b->pos[u]))
			return ot_refuse(b->err, OT_ERR_TOPOLOGY,
					 "sfxff: switch \"%s\" port %u: Slim Fly cable %s -- %s breaks the MMS rule",
					 nd->desc, p, x, y);
		if (dim > 0 && b->pos[r] != b->pos[u])
			return ot_refuse(b->err, OT_ERR_TOPOLOGY,
					 "sfxff: switch \"%s\" port %u: FlatFly cable joins Slim Fly positions %s and %s",
					 nd->desc, p, x, y);
		ff->port_dim[ff->port_dim_base[n] + p] = dim;
	}
	return 0;
}

static int alloc_ff(struct sp_build *b, struct ot_ff **out,
		    const struct ot_mms *m)
{
	const struct ot_fabric *f = b->f;
	struct ot_ff *ff = calloc(1, sizeof(*ff));
	uint32_t n, total = 0, i;
	unsigned int d;

	*out = ff;
	if (!ff)
		return ot_error_nomem(b->err, "sfxff");
	ff->fabric = f;
	ff->ndims = 1 + b->nffd;
	ff->size[0] = m->n;
	for (i = 0; i < b->lk.nbundles; i++)
		if (b->cdim[b->lk.cls[i]] < 0 && b->lk.cables[i] > b->sfw)
			b->sfw = b->lk.cables[i];
	ff->width[0] = b->sfw;
	for (d = 0; d < b->nffd; d++) {
		ff->size[d + 1] = b->K[d];
		ff->width[d + 1] = b->W[d];
	}
	ff->nslots = m->n * b->nff;
	ff->sw_slot = malloc((f->nnodes + 1) * sizeof(*ff->sw_slot));
	ff->slot_node = malloc((ff->nslots + 1) * sizeof(*ff->slot_node));
	ff->port_dim_base = malloc((f->nnodes + 1) *
				   sizeof(*ff->port_dim_base));
	for (n = 0; ff->port_dim_base && n < f->nnodes; n++) {
		ff->port_dim_base[n] = total;
		total += f->node[n].nports + 1;
	}
	ff->port_dim = malloc(total + 1);
	if (!ff->sw_slot || !ff->slot_node || !ff->port_dim_base ||
	    !ff->port_dim)
		return ot_error_nomem(b->err, "sfxff");
	memset(ff->port_dim, -1, total + 1);
	for (n = 0; n < f->nnodes; n++)
		ff->sw_slot[n] = -1;
	for (i = 0; i < ff->nslots; i++)
		ff->slot_node[i] = -1;
	return 0;
}

/* Step 4: the mapping, positions unique, every cable checked. */
static int build_ff(struct sp_build *b, struct ot_sfff *out)
{
	const struct ot_mms *m = &out->mms;
	struct ot_ff *ff;
	uint32_t r;
	int error;

	error = alloc_ff(b, &out->ff, m);
	ff = out->ff;
	for (r = 0; r < b->nsw && !error; r++) {
		uint32_t slot = b->pos[r] + m->n * b->fslot[r];
		int32_t n = b->rank_node[r];

		if (ff->slot_node[slot] >= 0)
			return ot_refuse(b->err, OT_ERR_TOPOLOGY,
					 "sfxff: switches \"%s\" and \"%s\" take one position",
					 b->f->node[ff->slot_node[slot]].desc,
					 desc(b, r));
		ff->slot_node[slot] = n;
		ff->sw_slot[n] = slot;
	}
	for (r = 0; r < b->nsw && !error; r++)
		error = check_ports(b, ff, r, m);
	return error;
}

static int alloc_build(struct sp_build *b)
{
	const struct ot_fabric *f = b->f;
	uint32_t n, nsw = b->lk.nsw;

	b->nsw = nsw;
	b->rank_node = malloc((nsw + 1) * sizeof(*b->rank_node));
	b->uf = ot_uf_new(nsw);
	b->cnt_v = malloc((nsw + 1) * sizeof(*b->cnt_v));
	b->cnt_b = malloc((nsw + 1) * sizeof(*b->cnt_b));
	b->cdim = malloc(b->lk.nclasses + 1);
	b->val = calloc((size_t)nsw * FDIMS + 1, sizeof(*b->val));
	b->fslot = malloc((nsw + 1) * sizeof(*b->fslot));
	b->pos = malloc((nsw + 1) * sizeof(*b->pos));
	if (!b->rank_node || !b->uf || !b->cnt_v || !b->cnt_b || !b->cdim ||
	    !b->val || !b->fslot || !b->pos)
		return ot_error_nomem(b->err, "sfxff");
	for (n = 0; n < f->nnodes; n++)
		if (b->lk.rank[n] >= 0)
			b->rank_node[b->lk.rank[n]] = n;
	return 0;
}

static void free_build(struct sp_build *b)
{
	ot_ff_links_free(&b->lk);
	free(b->rank_node);
	ot_uf_free(b->uf);
	free(b->cnt_v);
	free(b->cnt_b);
	free(b->cdim);
	free(b->val);
	free(b->fslot);
	free(b->pos);
}

int ot_sfff_recognize(const struct ot_fabric *f, struct ot_sfff **out,
		      struct ot_error *err)
{
	struct sp_build b = { .f = f, .err = err };
	struct ot_sfff *p = calloc(1, sizeof(*p));
	bool none = false;
	unsigned int d;
	int error;

	*out = NULL;
	if (!p)
		return ot_error_nomem(err, "sfxff");
	error = ot_ff_link_classes(f, &b.lk, err);
	none = error && err->cls != OT_ERR_NOMEM;
	if (!error)
		error = alloc_build(&b);
	if (!error)
		error = find_ff_dims(&b);
	for (d = 0; d < b.nffd && !error; d++)
		error = find_values(&b, d);
	if (!error)
		error = find_copies(&b);
	if (error == -2)
		none = true;
	if (!error)
		error = recognize_copy(&b, p);
	if (!error)
		error = carry_positions(&b);
	if (!error)
		error = build_ff(&b, p);
	free_build(&b);
	if (error) {
		ot_sfff_free(p);
		return none ? -2 : -1;
	}
	*out = p;
	return 0;
}

void ot_sfff_free(struct ot_sfff *p)
{
	if (!p)
		return;
	ot_ff_free(p->ff);
	ot_mms_free(&p->mms);
	free(p);
}
