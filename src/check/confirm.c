// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Credit loops found on sampled path SLs, confirmed on real ones.  A live
 * fabric read beyond the bound (live/sa.c) has, for most pairs, the SL
 * its source's sample agreed on; OpenSM's dfsssp, lash and nue choose SLs
 * per pair, so a sample can put a pair on a layer it is not on and close
 * a credit loop that is not there.  So every loop found on a sample is
 * confirmed before it is reported: the sampled pairs whose path crosses a
 * channel of a loop get their real SL from the SA (r->sl_confirm), and
 * the check runs again, until no loop is left or no sampled pair crosses
 * one (the loops then hold on real SLs).  Each round asks only about
 * pairs on loops, and takes them out of the sample, so the rounds end.
 */
#include <stdlib.h>

#include "check/checker.h"

/* Rounds at most; each confirms at least one pair, so a bound only. */
#define MAX_ROUNDS 64

static bool on_loop(const struct ot_check_report *rep, uint32_t c)
{
	return rep->loop_chan[c / 64] >> (c % 64) & 1;
}

/*
 * Whether the path from port sport of CA src to dlid crosses a loop
 * channel on its (sampled) SL: the walk of the LFTs the checker did,
 * with the VL of each hop from SL2VL.
 */
static bool crosses_loop(const struct ot_cdg *g, const struct ot_routing *r,
			 const struct ot_check_report *rep, int32_t src,
			 unsigned int sport, uint16_t slid, uint16_t dlid)
{
	const struct ot_fabric *f = r->fabric;
	unsigned int sl = ot_routing_path_sl(r, slid, dlid) & 0xf;
	unsigned int in = 0, out = sport, hops;
	int32_t n = src;

	for (hops = 0; hops <= f->nnodes; hops++) {
		const struct ot_port *p = &f->node[n].port[out];

		if (on_loop(rep, ot_cdg_channel(g, n, out,
						ot_cdg_vl(r, n, in, out, sl))))
			return true;
		if (p->peer < 0 || !ot_is_switch(f, p->peer) ||
		    !r->lft[p->peer])
			return false;
		in = p->peer_port;
		n = p->peer;
		out = r->lft[n][dlid];
		if (out == 0 || out == OT_NO_PORT || out > f->node[n].nports)
			return false;
	}
	return false;
}

static int push(uint32_t **v, uint64_t *len, uint64_t *cap, uint32_t x)
{
	if (*len == *cap) {
		uint64_t c = *cap ? 2 * *cap : 1024;
		uint32_t *w = realloc(*v, c * sizeof(*w));

		if (!w)
			return -1;
		*v = w;
		*cap = c;
	}
	(*v)[(*len)++] = x;
	return 0;
}

/* The sampled pairs whose path crosses a loop of rep, into *pairs. */
static int pairs_on_loops(const struct ot_routing *r,
			  const struct ot_check_report *rep, uint32_t **pairs,
			  uint64_t *n)
{
	const struct ot_fabric *f = r->fabric;
	struct ot_cdg g;
	uint64_t cap = 0;
	uint32_t s, d;
	unsigned int sp, dp, o;
	int rc = -1;

	*n = 0;
	if (ot_cdg_init(&g, f))
		return -1;
	for (s = 0; s < f->nnodes; s++)
		for (sp = 1; !ot_is_switch(f, s) && sp <= f->node[s].nports;
		     sp++) {
			uint16_t slid = f->node[s].port[sp].lid;

			if (!slid || f->node[s].port[sp].peer < 0)
				continue;
			for (d = 0; d < f->nnodes; d++)
				for (dp = 1; !ot_is_switch(f, d) &&
					     dp <= f->node[d].nports; dp++)
					for (o = 0; o < ot_port_nlids(
						&f->node[d].port[dp]); o++) {
						uint16_t dlid = f->node[d].port[dp].lid + o;

						if (d == s && dp == sp)
							continue;
						if (!r->sl_sampled(r, slid, dlid) ||
						    !crosses_loop(&g, r, rep, s, sp,
								  slid, dlid))
							continue;
						if (push(pairs, n, &cap,
							 (uint32_t)slid << 16 | dlid))
							goto out;
					}
		}
	rc = 0;
out:
	ot_cdg_free(&g);
	return rc;
}

int ot_check_run_confirmed(const struct ot_fabric *f, struct ot_routing *r,
			   const struct ot_check_opts *opts,
			   struct ot_check_report **out, struct ot_error *err)
{
	struct ot_check_report *rep = NULL;
	uint64_t confirmed = 0, n;
	unsigned int round;

	for (round = 1;; round++) {
		uint32_t *pairs = NULL;

		if (ot_check_run(f, r, opts, &rep, err))
			return -1;
		if (!r->sl_sampled_pairs || !r->sl_sampled || !r->sl_confirm ||
		    !rep->loop_chan)
			break;
		if (pairs_on_loops(r, rep, &pairs, &n)) {
			free(pairs);
			ot_check_report_free(rep);
			return ot_error_nomem(err, "check");
		}
		if (!n || round == MAX_ROUNDS) {
			free(pairs);
			break;
		}
		if (r->sl_confirm(r, pairs, n, err)) {
			free(pairs);
			ot_check_report_free(rep);
			return -1;
		}
		free(pairs);
		confirmed += n;
		ot_check_report_free(rep);
		rep = NULL;
	}
	rep->c.sl_sampled = r->sl_sampled_pairs;
	rep->c.sl_confirmed = confirmed;
	rep->c.sl_rounds = round;
	*out = rep;
	return 0;
}
