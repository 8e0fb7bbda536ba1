// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The MAD window (src/live/window.c) against a scripted peer: umad_send()
 * and umad_recv() are replaced here, so each request's answers (busy,
 * another status, none) are chosen by the test.  A busy answer must be
 * asked again, never handed on: handed on, the SA's "busy" reads as "no
 * path" (a pair on SL 0) or "not a member" of a multicast group.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include "live/window.h"
#include "unit.h"

#define PEER_MAX_TRIES 8
#define PEER_DROP (-1)

/* The peer: the status of its answer to each try, PEER_DROP for none. */
static struct {
	int script[PEER_MAX_TRIES];
	unsigned int nscript;
	unsigned int sent;
	bool pending;        /* a try waits for the answer the script gives */
	uint8_t mad[IB_MAD_SIZE];
} peer;

/* What the window handed on. */
static struct {
	unsigned int calls;
	bool had_mad;
	int status;
	uint64_t cookie;
} seen;

int mad_rpc_portid(struct ibmad_port *port)
{
	(void)port;
	return 3;
}

int mad_rpc_class_agent(struct ibmad_port *port, int cls)
{
	(void)port;
	(void)cls;
	return 7;
}

int umad_send(int portid, int agentid, void *umad, int length,
	      int timeout_ms, int retries)
{
	(void)portid;
	(void)agentid;
	(void)length;
	(void)timeout_ms;
	(void)retries;
	memcpy(peer.mad, umad_get_mad(umad), IB_MAD_SIZE);
	peer.pending = true;
	peer.sent++;
	return 0;
}

int umad_recv(int portid, void *umad, int *length, int timeout_ms)
{
	unsigned int try = peer.sent - 1;
	int status;
	uint8_t *mad;

	(void)portid;
	(void)timeout_ms;
	if (!peer.pending || peer.sent == 0)
		return -1;
	peer.pending = false;
	status = try < peer.nscript ? peer.script[try] : PEER_DROP;
	if (status == PEER_DROP)
		return -1;
	mad = umad_get_mad(umad);
	memcpy(mad, peer.mad, IB_MAD_SIZE);
	mad_set_field(mad, 0, IB_MAD_METHOD_F, IB_MAD_METHOD_GET_RESPONSE);
	mad_set_field(mad, 0, IB_MAD_STATUS_F, (uint32_t)status);
	*length = IB_MAD_SIZE;
	return 0;
}

static int record(void *ctx, uint64_t cookie, uint8_t *mad, int status)
{
	(void)ctx;
	seen.calls++;
	seen.had_mad = mad != NULL;
	seen.status = status;
	seen.cookie = cookie;
	return 0;
}

/* One SA Get through a window, the peer answering as script says. */
static void run(const int *script, unsigned int n)
{
	uint8_t rec[IB_SA_DATA_SIZE];
	ib_portid_t sa;
	struct ot_win *w;

	memset(&peer, 0, sizeof(peer));
	memset(&seen, 0, sizeof(seen));
	memcpy(peer.script, script, n * sizeof(*script));
	peer.nscript = n;
	memset(rec, 0, sizeof(rec));
	memset(&sa, 0, sizeof(sa));
	sa.lid = 1;
	/* a 2 ms timeout: busy answers and lost ones are asked again soon */
	w = ot_win_new((struct ibmad_port *)&peer, 4, 2, record, NULL);
	ck_assert_ptr_nonnull(w);
	ck_assert_int_eq(ot_win_sa_get(w, &sa, IB_SA_ATTR_PATHRECORD, 0, rec,
				       0x1234),
			 0);
	ck_assert_int_eq(ot_win_drain(w), 0);
	ot_win_free(w);
	ck_assert_uint_eq(seen.calls, 1);
	ck_assert_uint_eq(seen.cookie, 0x1234);
}

START_TEST(busy_is_asked_again)
{
	const int script[] = { 1, 1, 0 };

	run(script, 3);
	ck_assert(seen.had_mad);
	ck_assert_int_eq(seen.status, 0);
	ck_assert_uint_eq(peer.sent, 3);
}
END_TEST

START_TEST(busy_every_time_is_no_answer)
{
	const int script[] = { 1, 1, 1, 1, 1, 1, 1, 1 };

	run(script, 8);
	ck_assert(!seen.had_mad);
	ck_assert_int_eq(seen.status, 1);
	ck_assert_str_eq(ot_win_failure(seen.status),
			 "answered busy on its last try");
	/* the first try and WIN_RETRIES (3) more */
	ck_assert_uint_eq(peer.sent, 4);
}
END_TEST

START_TEST(other_status_is_handed_on)
{
	/* the SA's "no records" (class-specific status 3) is an answer */
	const int script[] = { 0x0300 };

	run(script, 1);
	ck_assert(seen.had_mad);
	ck_assert_int_eq(seen.status, 0x0300);
	ck_assert_uint_eq(peer.sent, 1);
}
END_TEST

START_TEST(lost_then_busy_then_answered)
{
	const int script[] = { PEER_DROP, 1, 0 };

	run(script, 3);
	ck_assert(seen.had_mad);
	ck_assert_int_eq(seen.status, 0);
	ck_assert_uint_eq(peer.sent, 3);
}
END_TEST

START_TEST(busy_then_lost_is_no_answer)
{
	const int script[] = { 1, PEER_DROP, PEER_DROP, PEER_DROP };

	run(script, 4);
	ck_assert(!seen.had_mad);
	ck_assert_int_eq(seen.status, -1);
	ck_assert_str_eq(ot_win_failure(seen.status), "no answer");
	ck_assert_uint_eq(peer.sent, 4);
}
END_TEST

static Suite *window_suite(void)
{
	Suite *s = suite_create("window");
	TCase *tc = tcase_create("busy");

	tcase_add_test(tc, busy_is_asked_again);
	tcase_add_test(tc, busy_every_time_is_no_answer);
	tcase_add_test(tc, other_status_is_handed_on);
	tcase_add_test(tc, lost_then_busy_then_answered);
	tcase_add_test(tc, busy_then_lost_is_no_answer);
	suite_add_tcase(s, tc);
	return s;
}

OT_UNIT_MAIN(window_suite)
