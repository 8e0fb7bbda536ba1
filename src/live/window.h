/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Many MADs in flight over one libibmad port (internal to src/live).
 * libibmad's RPC calls send one MAD and wait for its answer; reading the
 * LFTs of 2,048 switches that way costs a round trip per block.  A window
 * sends up to `size` requests, matches answers to requests by transaction
 * ID (the low 32 bits: the kernel and libumad2sim both own the high ones),
 * resends a request whose answer does not come within the timeout, and
 * hands each answer (or failure) to a callback.
 */
#ifndef OSMTOPO_LIVE_WINDOW_H
#define OSMTOPO_LIVE_WINDOW_H

#include <stdint.h>

#include <infiniband/mad.h>

/*
 * Called once per request: mad is the whole answer MAD, or NULL when no
 * answer came after all retries; status is the MAD status (the D bit of
 * directed-route SMPs masked off).  An answer with the busy bit set is
 * not handed on but asked again, like a lost one; mad is NULL and status
 * that busy status when the last try was answered busy, -1 when it was
 * not answered (ot_win_failure() words it).  Returns 0, or non-zero to
 * stop the window (ot_win_submit() and ot_win_drain() then return -1).
 */
typedef int (*ot_win_done)(void *ctx, uint64_t cookie, uint8_t *mad,
			   int status);

struct ot_win;

/* What a NULL mad's status says: "no answer" or a busy responder. */
static inline const char *ot_win_failure(int status)
{
	return status > 0 ? "answered busy on its last try" : "no answer";
}

/* A window over an open port; size 1..512; timeout_ms 0 = libibmad's. */
struct ot_win *ot_win_new(struct ibmad_port *port, unsigned int size,
			  int timeout_ms, ot_win_done done, void *ctx);
void ot_win_free(struct ot_win *w);

/*
 * Sends an SMP Get (directed route when id->lid is 0, else LID routed),
 * waiting for room in the window first.  0, or -1 when the window was
 * stopped or the send failed.
 */
int ot_win_smp_get(struct ot_win *w, ib_portid_t *id, unsigned int attr,
		   unsigned int mod, uint64_t cookie);

/*
 * Sends an SA Get of attribute attr with the record in data (IB_SA_DATA_SIZE
 * bytes) and component mask comp to the SA at sa.
 */
int ot_win_sa_get(struct ot_win *w, ib_portid_t *sa, unsigned int attr,
		  uint64_t comp, void *data, uint64_t cookie);

/* Waits for every answer.  0, or -1 when the window was stopped. */
int ot_win_drain(struct ot_win *w);

/* MADs sent (resends included) and answers received so far. */
uint64_t ot_win_sent(const struct ot_win *w);

#endif
