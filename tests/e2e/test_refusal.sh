#!/usr/bin/env bash
# A fabric hdor cannot route: with `-R hdor,minhop` hdor refuses it with one
# log line naming the offending node (by name and GUID, as the fabric
# knows them), with the code of its class (README: ERR 5E02 topology,
# 5E03 damage, ...) at INFO, since minhop takes over (ERROR is for a
# refusal no engine follows), writes no table, and minhop routes the
# fabric instead (every pair reachable, no forwarding loop).
#
# usage: test_refusal.sh NAME NETFILE CODE NODE...
#   CODE: the refusal's code and class, as "5E02:topology"
#   NODE: the node hdor must name (node description); one of them, when
#   hdor may name either end of a cable.  Its GUID is read from the
#   discovered fabric, and the reason must hold '"NODE" (GUID)'.
. "$(dirname "$0")/lib.sh"

name=$1
net=$2
code=${3%:*}
class=${3#*:}
shift 3
e2e_init "refusal-$name"

ibsim_start "$net"
opensm_once -- -R hdor,minhop
reason=$(grep -E 'hdor: cannot route' "$WORK/opensm.log" | head -1)
[ -n "$reason" ] || e2e_fail "no refusal from hdor in the log"
# OpenSM's log line: "<date> [<thread>] 0x<level> -> <function>: <message>",
# level 0x02 INFO, 0x01 ERROR.
grep -q -E " 0x02 -> [a-z_]+: ERR $code: hdor: cannot route this fabric \($class\): " <<<"$reason" ||
	e2e_fail "not ERR $code ($class) at INFO: $reason"
log_has "minhop tables configured on all switches" ||
	e2e_fail "minhop did not take over: $(grep 'tables configured' "$WORK/opensm.log")"
log_has "hdor tables configured" && e2e_fail "hdor claims to have routed"

sim "$OSMTOPO" fabric --live -o "$WORK/live.net"
sim "$OSMTOPO" lfts --live -o "$WORK/live.lfts"

# The node as hdor names it: "DESC" (0x<16 hex digits of its GUID>).
named=
for node in "$@"; do
	guid=$(awk -v d="\"$node\"" '$1 ~ /^(Switch|Ca|Hca)$/ && $3 == d {
		for (i = 4; i < NF; i++) if ($i == "guid") print $(i + 1) }' \
		"$WORK/live.net")
	[ -n "$guid" ] || e2e_fail "no node \"$node\" in the discovered fabric"
	if grep -q -F -- "\"$node\" ($guid)" <<<"$reason"; then
		named="\"$node\" ($guid)"
		break
	fi
done
[ -n "$named" ] ||
	e2e_fail "the reason names none of $* with its GUID: $reason"

# minhop promises reachability, not deadlock freedom: check only that.
"$OSMTOPO" check --json "$WORK/live.net" "$WORK/live.lfts" >"$WORK/check.json" || true
for key in unreachable forwarding_loops; do
	v=$(json_field "$WORK/check.json" "$key")
	[ "$v" -eq 0 ] || e2e_fail "minhop's tables: $key = $v"
done
[ "$(json_field "$WORK/check.json" pairs)" -gt 0 ] || e2e_fail "no pair checked"
e2e_log "ok: names $named: ${reason#*hdor: }"
