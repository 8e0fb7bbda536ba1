// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The credit loops of the checker's channel dependency graph, into its
 * report: the graph and its search are the model's (model/cdg.h, shared
 * with the plugin's multicast trees); this file counts the cyclic parts
 * and prints a shortest cycle of the first few by node names.
 */
#include <stdlib.h>

#include "check/checker.h"

static int describe_channel(const struct checker *ck, uint32_t c,
			    struct channel *ch)
{
	int32_t n = ot_cdg_channel_node(&ck->cdg, c);
	unsigned int port = ot_cdg_channel_port(&ck->cdg, c);
	const struct ot_port *p = &ck->f->node[n].port[port];

	ch->from = dupstr(desc(ck, n));
	ch->from_port = port;
	ch->to = dupstr(desc(ck, p->peer));
	ch->to_port = p->peer_port;
	ch->vl = c % NUM_VLS;
	return ch->from && ch->to ? 0 : -1;
}

/* A shortest cycle through channel root, recorded as an example. */
static int record_cycle(struct checker *ck, const struct ot_cdg_sccs *s,
			uint32_t root)
{
	struct ot_check_report *rep = ck->rep;
	struct credit_cycle *cyc = &rep->cycles[rep->ncycles];
	uint32_t *chan = NULL;
	unsigned int len = 0, i;
	int rc = ot_cdg_cycle(&ck->cdg, s, root, &chan, &len);

	if (rc)
		return rc < 0 ? -1 : 0; /* 1: not a cyclic part after all */
	cyc->ch = calloc(len, sizeof(*cyc->ch));
	if (!cyc->ch)
		goto out;
	rep->ncycles++;
	for (i = 0; i < len; i++) {
		if (describe_channel(ck, chan[i], &cyc->ch[i])) {
			rc = -1;
			goto out;
		}
		cyc->len++;
	}
out:
	free(chan);
	return cyc->ch ? rc : -1;
}

/*
 * Each cyclic strongly connected part counts as a credit loop; the first
 * max_examples get a cycle printed.
 */
int ck_find_credit_loops(struct checker *ck)
{
	struct ot_check_report *rep = ck->rep;
	struct ot_cdg_sccs s;
	unsigned int i;
	int rc = -1;

	if (ot_cdg_sccs(&ck->cdg, rep->max_examples, &s))
		return -1;
	rep->c.credit_loops += s.nloops;
	rep->c.credit_loop_channels += s.loop_channels;
	if (s.nroots) {
		rep->cycles = calloc(s.nroots, sizeof(*rep->cycles));
		if (!rep->cycles)
			goto out;
	}
	for (i = 0; i < s.nroots; i++)
		if (record_cycle(ck, &s, s.root[i]))
			goto out;
	if (s.nloops && ck->r->sl_sampled_pairs && !rep->loop_chan) {
		uint64_t c, nchan = ot_cdg_nchannels(&ck->cdg);

		rep->loop_chan = calloc(nchan / 64 + 1, sizeof(uint64_t));
		if (!rep->loop_chan)
			goto out;
		for (c = 0; c < nchan; c++)
			if (s.comp[c] >= 0 && s.cyclic[s.comp[c]])
				rep->loop_chan[c / 64] |= 1ull << (c % 64);
	}
	rc = 0;
out:
	ot_cdg_sccs_free(&s);
	return rc;
}

void ck_count_channels(struct checker *ck)
{
	uint64_t nchan = ot_cdg_nchannels(&ck->cdg), i;

	for (i = 0; i < nchan / 64 + 1; i++)
		ck->rep->c.channels += __builtin_popcountll(ck->cdg.used[i]);
}
