// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A window of MADs in flight (see window.h).  Each slot keeps the packet it
 * sent, so a lost answer costs one resend of that packet and nothing else.
 * The low bits of a request's TID name its slot and the rest a generation,
 * so a late answer to a request already resent (with a new TID) is
 * recognised and dropped.  umad_send() gets the timeout too, so that a
 * kernel matches answers to requests; libumad2sim ignores it, so the
 * window keeps its own deadline as well.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <infiniband/umad.h>

#include "live/window.h"

#define WIN_MAX 512
#define WIN_SLOT_BITS 9
#define WIN_DEFAULT_TIMEOUT_MS 1000
#define WIN_RETRIES 3
/* The D bit of a directed-route SMP's status word is not status. */
#define WIN_DR_STATUS_MASK 0x7fff
/*
 * Status bit 0, busy: the responder (an SA in the middle of a sweep, say)
 * did not handle the request and wants it again later.  It is no answer:
 * handed on, it would read as "no path" or "not a member".
 */
#define WIN_STATUS_BUSY 0x1
/*
 * Before the port closes, answers still on their way are read and
 * dropped until none came for WIN_QUIET_MS (WIN_QUIET_MAX_MS at most).
 * libumad2sim's exit handler cancels its receiving thread while holding
 * the lock that thread takes after each packet: a packet arriving as the
 * tool exits hangs it for good (seen with ibsim 0.12).
 */
#define WIN_QUIET_MS 50
#define WIN_QUIET_MAX_MS 2000

struct win_slot {
	bool busy;
	uint32_t tid;      /* low 32 bits of the TID in flight */
	int agent;
	int len;
	unsigned int tries;
	int busy_status;   /* the try in flight's busy answer's status, or -1 */
	uint64_t deadline; /* ms, monotonic */
	uint64_t cookie;
	void *umad;        /* the packet as sent */
};

struct ot_win {
	int portid;
	int timeout_ms;
	unsigned int size, busy;
	uint32_t gen;
	bool stopped;
	uint64_t sent, received;
	ot_win_done done;
	void *ctx;
	void *rbuf;
	struct ibmad_port *port;
	struct win_slot slot[];
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

struct ot_win *ot_win_new(struct ibmad_port *port, unsigned int size,
			  int timeout_ms, ot_win_done done, void *ctx)
{
	size_t bufsz = umad_size() + IB_MAD_SIZE;
	struct ot_win *w;
	unsigned int i;

	if (size < 1 || size > WIN_MAX)
		return NULL;
	w = calloc(1, sizeof(*w) + size * sizeof(w->slot[0]));
	if (!w)
		return NULL;
	w->port = port;
	w->portid = mad_rpc_portid(port);
	w->size = size;
	w->timeout_ms = timeout_ms > 0 ? timeout_ms : WIN_DEFAULT_TIMEOUT_MS;
	w->done = done;
	w->ctx = ctx;
	w->rbuf = calloc(1, bufsz);
	if (!w->rbuf)
		goto fail;
	for (i = 0; i < size; i++) {
		w->slot[i].umad = calloc(1, bufsz);
		if (!w->slot[i].umad)
			goto fail;
	}
	return w;
fail:
	ot_win_free(w);
	return NULL;
}

static void win_settle(struct ot_win *w);

void ot_win_free(struct ot_win *w)
{
	unsigned int i;

	if (!w)
		return;
	if (w->rbuf)
		win_settle(w);
	for (i = 0; i < w->size; i++)
		free(w->slot[i].umad);
	free(w->rbuf);
	free(w);
}

uint64_t ot_win_sent(const struct ot_win *w)
{
	return w->sent;
}

/* (Re)sends the slot's packet under a new TID. */
static int win_send(struct ot_win *w, unsigned int i)
{
	struct win_slot *s = &w->slot[i];
	uint8_t *mad = umad_get_mad(s->umad);
	uint64_t trid = mad_get_field64(mad, 0, IB_MAD_TRID_F);

	w->gen++;
	s->tid = w->gen << WIN_SLOT_BITS | i;
	trid = (trid & ~0xffffffffull) | s->tid;
	mad_set_field64(mad, 0, IB_MAD_TRID_F, trid);
	s->tries++;
	s->busy_status = -1;
	/*
	 * Each resend waits twice as long: a slow peer (ibsim on a loaded
	 * machine) is not fed the same requests again faster than it
	 * answers them.
	 */
	s->deadline = now_ms() +
		      ((2 * (uint64_t)w->timeout_ms) << (s->tries - 1));
	w->sent++;
	if (umad_send(w->portid, s->agent, s->umad, s->len, w->timeout_ms, 0))
		return -1;
	return 0;
}

/* The slot is done: hand the answer (or NULL) to the callback. */
static void win_finish(struct ot_win *w, unsigned int i, uint8_t *mad,
		       int status)
{
	struct win_slot *s = &w->slot[i];

	s->busy = false;
	w->busy--;
	if (!w->stopped && w->done(w->ctx, s->cookie, mad, status))
		w->stopped = true;
}

/*
 * A request without an answer, or answered busy (status then): resend
 * it, or give up on it.
 */
static void win_expire(struct ot_win *w, unsigned int i, int status)
{
	if (!w->stopped && w->slot[i].tries <= WIN_RETRIES &&
	    !win_send(w, i))
		return;
	win_finish(w, i, NULL, status);
}

/*
 * Answered busy: the request is sent again once the timeout (doubled per
 * try) has passed, or given up on, with the busy status, after the last
 * try.  The slot keeps its TID until then: a second answer to it is as
 * good as the first would have been.
 */
static void win_busy(struct ot_win *w, unsigned int i, int status)
{
	struct win_slot *s = &w->slot[i];

	if (w->stopped || s->tries > WIN_RETRIES) {
		win_finish(w, i, NULL, status);
		return;
	}
	s->busy_status = status;
	s->deadline = now_ms() + ((uint64_t)w->timeout_ms << (s->tries - 1));
}

static void win_expire_due(struct ot_win *w)
{
	uint64_t t = now_ms();
	unsigned int i;

	for (i = 0; i < w->size; i++)
		if (w->slot[i].busy && w->slot[i].deadline <= t)
			win_expire(w, i, w->slot[i].busy_status);
}

/* Takes one answer, waiting at most wait_ms for it. */
static void win_receive(struct ot_win *w, int wait_ms)
{
	int len = IB_MAD_SIZE, status;
	uint8_t *mad;
	uint32_t tid;
	unsigned int i;

	if (umad_recv(w->portid, w->rbuf, &len, wait_ms) < 0) {
		win_expire_due(w);
		return;
	}
	mad = umad_get_mad(w->rbuf);
	tid = (uint32_t)mad_get_field64(mad, 0, IB_MAD_TRID_F);
	i = tid & (WIN_MAX - 1);
	if (i >= w->size || !w->slot[i].busy || w->slot[i].tid != tid)
		return; /* an answer to a request already resent */
	if (umad_status(w->rbuf)) {
		/* the kernel says the request timed out */
		win_expire(w, i, w->slot[i].busy_status);
		return;
	}
	w->received++;
	status = mad_get_field(mad, 0, IB_MAD_STATUS_F);
	if (mad_get_field(mad, 0, IB_MAD_MGMTCLASS_F) == IB_SMI_DIRECT_CLASS)
		status &= WIN_DR_STATUS_MASK;
	if (status & WIN_STATUS_BUSY)
		win_busy(w, i, status);
	else
		win_finish(w, i, mad, status);
}

/* Waits for the earliest deadline at most. */
static void win_wait(struct ot_win *w)
{
	uint64_t t = now_ms(), first = UINT64_MAX;
	unsigned int i;

	for (i = 0; i < w->size; i++)
		if (w->slot[i].busy && w->slot[i].deadline < first)
			first = w->slot[i].deadline;
	if (first <= t) {
		win_expire_due(w);
		return;
	}
	win_receive(w, (int)(first - t));
}

/* A free slot, waiting for answers until there is one; -1 when stopped. */
static int win_free_slot(struct ot_win *w)
{
	unsigned int i;

	while (!w->stopped && w->busy == w->size)
		win_wait(w);
	if (w->stopped)
		return -1;
	for (i = 0; i < w->size; i++)
		if (!w->slot[i].busy)
			return (int)i;
	return -1;
}

/* Builds the packet of rpc into a free slot and sends it. */
static int win_submit(struct ot_win *w, ib_rpc_t *rpc, ib_portid_t *id,
		      void *data, uint64_t cookie)
{
	int i = win_free_slot(w), len;
	struct win_slot *s;

	if (i < 0)
		return -1;
	s = &w->slot[i];
	rpc->timeout = w->timeout_ms;
	rpc->trid = mad_trid();
	memset(s->umad, 0, umad_size() + IB_MAD_SIZE);
	len = mad_build_pkt(s->umad, rpc, id, NULL, data);
	if (len < 0)
		return -1;
	s->len = len;
	s->agent = mad_rpc_class_agent(w->port, rpc->mgtclass);
	s->cookie = cookie;
	s->tries = 0;
	s->busy = true;
	w->busy++;
	if (win_send(w, (unsigned int)i)) {
		s->busy = false;
		w->busy--;
		return -1;
	}
	return 0;
}

int ot_win_smp_get(struct ot_win *w, ib_portid_t *id, unsigned int attr,
		   unsigned int mod, uint64_t cookie)
{
	ib_rpc_t rpc;

	memset(&rpc, 0, sizeof(rpc));
	rpc.mgtclass = id->lid > 0 ? IB_SMI_CLASS : IB_SMI_DIRECT_CLASS;
	rpc.method = IB_MAD_METHOD_GET;
	rpc.attr.id = attr;
	rpc.attr.mod = mod;
	rpc.datasz = IB_SMP_DATA_SIZE;
	rpc.dataoffs = IB_SMP_DATA_OFFS;
	id->sl = 0;
	id->qp = 0;
	return win_submit(w, &rpc, id, NULL, cookie);
}

int ot_win_sa_get(struct ot_win *w, ib_portid_t *sa, unsigned int attr,
		  uint64_t comp, void *data, uint64_t cookie)
{
	ib_rpc_t rpc;

	memset(&rpc, 0, sizeof(rpc));
	rpc.mgtclass = IB_SA_CLASS;
	rpc.method = IB_MAD_METHOD_GET;
	rpc.attr.id = attr;
	rpc.mask = comp;
	rpc.datasz = IB_SA_DATA_SIZE;
	rpc.dataoffs = IB_SA_DATA_OFFS;
	sa->qp = 1;
	if (!sa->qkey)
		sa->qkey = IB_DEFAULT_QP1_QKEY;
	return win_submit(w, &rpc, sa, data, cookie);
}

int ot_win_drain(struct ot_win *w)
{
	while (w->busy)
		win_wait(w);
	return w->stopped ? -1 : 0;
}

/*
 * No callback any more; every request in flight answered or expired
 * (none resent), then stray answers read until the port is quiet.
 */
static void win_settle(struct ot_win *w)
{
	uint64_t end = now_ms() + WIN_QUIET_MAX_MS;
	int len;

	w->stopped = true;
	while (w->busy && now_ms() < end)
		win_wait(w);
	do {
		len = IB_MAD_SIZE;
	} while (umad_recv(w->portid, w->rbuf, &len, WIN_QUIET_MS) >= 0 &&
		 now_ms() < end);
}
