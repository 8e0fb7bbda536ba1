#!/usr/bin/env bash
# A fabric hdor cannot route: with `-R hdor,minhop` hdor refuses it with one
# log line naming the offending node and port, writes no table, and minhop
# routes the fabric instead (every pair reachable, no forwarding loop).
#
# usage: test_refusal.sh NAME NETFILE WORD
#   WORD: an extended regex hdor's reason must match (the offending node)
. "$(dirname "$0")/lib.sh"

name=$1
net=$2
word=$3
e2e_init "refusal-$name"

ibsim_start "$net"
opensm_once -- -R hdor,minhop
reason=$(grep -E 'hdor: cannot route' "$WORK/opensm.log" | head -1)
[ -n "$reason" ] || e2e_fail "no refusal from hdor in the log"
grep -q -E -- "$word" <<<"$reason" || e2e_fail "reason does not name '$word': $reason"
[ "$(grep -c -E 'hdor: cannot route' "$WORK/opensm.log")" -ge 1 ]
log_has "minhop tables configured on all switches" ||
	e2e_fail "minhop did not take over: $(grep 'tables configured' "$WORK/opensm.log")"
log_has "hdor tables configured" && e2e_fail "hdor claims to have routed"

sim "$OSMTOPO" fabric --live -o "$WORK/live.net"
sim "$OSMTOPO" lfts --live -o "$WORK/live.lfts"
# minhop promises reachability, not deadlock freedom: check only that.
"$OSMTOPO" check --json "$WORK/live.net" "$WORK/live.lfts" >"$WORK/check.json" || true
for key in unreachable forwarding_loops; do
	v=$(json_field "$WORK/check.json" "$key")
	[ "$v" -eq 0 ] || e2e_fail "minhop's tables: $key = $v"
done
[ "$(json_field "$WORK/check.json" pairs)" -gt 0 ] || e2e_fail "no pair checked"
e2e_log "ok: ${reason#*hdor: }"
