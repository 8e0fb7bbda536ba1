#!/usr/bin/env bash
# The mis-cabling report: CELLIA with the switch ends of two router-switch
# cables swapped (R[2,4] port 2 and R[3,2] port 3).  `osmtopo check
# --expect kns` on the file and on the live fabric names both cables and
# where each belongs and exits 1; OpenSM with routing_engine hdor,minhop
# logs the same at INFO when hdor refuses, once, and minhop takes over.
#
# With arguments, the same for a direct family: the far ends of two
# switch-to-switch cables of NETFILE (ports PA of switch A and PB of B)
# swapped, `osmtopo check --expect FAMILY` offline and live, and ENGINE
# (ff-*, sf-mms) refusing in OpenSM with the report at INFO; with
# "routes" (df-static: the recognizer takes the moved cables for damage
# and global cables), ENGINE routes the fabric and logs the report once.
#
# usage: test_miscabling.sh [FAMILY ENGINE NETFILE A PA B PB [routes]]
. "$(dirname "$0")/lib.sh"

if [ $# -ge 7 ]; then
	family=$1 engine=$2 topo=$3 a=$4 pa=$5 b=$6 pb=$7 routes=${8:-}
	e2e_init "miscabling-$family"
	net=$WORK/swapped.net
	# the peers of (A, PA) and (B, PB): "NODE PORT"
	peer() {
		awk -v n="$1" -v p="$2" '
			/^(Switch|Hca|Ca)/ { split($0, q, "\""); node = q[2] }
			node == n && match($0, "^\\[" p "\\]") {
				split($0, q, "\""); r = $0; sub(/^[^"]*"[^"]*"\[/, "", r)
				sub(/\].*/, "", r); print q[2] " " r; exit }' "$topo"
	}
	set -- $(peer "$a" "$pa") $(peer "$b" "$pb")
	[ $# -eq 4 ] || e2e_fail "no cables at $a:$pa and $b:$pb"
	fa=$1 fpa=$2 fb=$3 fpb=$4
	swaps="$a $pa $fb $fpb
$b $pb $fa $fpa
$fb $fpb $a $pa
$fa $fpa $b $pb"
	awk -v swaps="$swaps" '
		BEGIN { n = split(swaps, l, "\n"); for (i = 1; i <= n; i++) { split(l[i], w, " "); to[w[1] " " w[2]] = "\"" w[3] "\"[" w[4] "]" } }
		/^(Switch|Hca|Ca)/ { split($0, q, "\""); node = q[2] }
		match($0, /^\[[0-9]+\]/) { p = substr($0, 2, RLENGTH - 2); k = node " " p
			if (k in to) { print "[" p "]\t" to[k]; next } }
		{ print }' "$topo" >"$net"
	[ "$(diff "$topo" "$net" | grep -c '^>')" -eq 4 ] ||
		e2e_fail "the swap did not change 4 lines"
	q() { printf '%s' "$1" | sed 's/[][]/\\&/g'; }
	report_ok() { # FILE: both cables, where they are and should be
		grep -q -E "\"$(q "$a")\" .* port $pa is cabled to \"$(q "$fb")\" .* port $fpb; it should go to \"$(q "$fa")\" .* port $fpa" "$1" &&
			grep -q -E "\"$(q "$b")\" .* port $pb is cabled to \"$(q "$fa")\" .* port $fpa; it should go to \"$(q "$fb")\" .* port $fpb" "$1" &&
			[ "$(grep -c 'is cabled to' "$1")" -eq 2 ]
	}
	rc=0
	"$OSMTOPO" check --expect "$family" "$net" >"$WORK/file.out" 2>&1 || rc=$?
	[ "$rc" -eq 1 ] && report_ok "$WORK/file.out" ||
		e2e_fail "file report (exit $rc): $(cat "$WORK/file.out")"
	"$OSMTOPO" check --expect "$family" "$topo" >"$WORK/sound.out" ||
		e2e_fail "the sound fabric: $(cat "$WORK/sound.out")"
	ibsim_start "$net"
	if [ -n "$routes" ]; then
		opensm_once -- -Q -R "$engine,minhop"
		log_has "$engine: routed" || e2e_fail "$engine did not route"
	else
		opensm_once -- -R "$engine,minhop"
		log_has "$engine: cannot route this fabric (topology)" ||
			e2e_fail "$engine did not refuse"
	fi
	grep -F "$engine: mis-cabling:" "$WORK/opensm.log" >"$WORK/log.out" ||
		e2e_fail "no mis-cabling report in OpenSM's log"
	report_ok "$WORK/log.out" || e2e_fail "log report: $(cat "$WORK/log.out")"
	rc=0
	sim "$OSMTOPO" check --expect "$family" --live >"$WORK/live.out" 2>&1 || rc=$?
	[ "$rc" -eq 1 ] && report_ok "$WORK/live.out" ||
		e2e_fail "live report (exit $rc): $(cat "$WORK/live.out")"
	e2e_log "ok: $a:$pa and $b:$pb named in the file, live, and in OpenSM's log"
	exit 0
fi

e2e_init miscabling
net=$WORK/cellia-swapped.net
# set_peer NODE PORT PEER PEERPORT: the line of NODE's PORT, re-cabled.
swaps='R[2,4] 2 S[1,2] 4
R[3,2] 3 S[0,2] 5
S[1,2] 4 R[2,4] 2
S[0,2] 5 R[3,2] 3'
awk -v swaps="$swaps" '
	BEGIN { n = split(swaps, l, "\n"); for (i = 1; i <= n; i++) { split(l[i], w, " "); to[w[1] " " w[2]] = "\"" w[3] "\"[" w[4] "]" } }
	/^(Switch|Hca|Ca)/ { split($0, q, "\""); node = q[2] }
	match($0, /^\[[0-9]+\]/) { p = substr($0, 2, RLENGTH - 2); k = node " " p
		if (k in to) { print "[" p "]\t" to[k]; next } }
	{ print }' "$TOPOLOGIES/cellia-kns-6x2.net" >"$net"
[ "$(diff "$TOPOLOGIES/cellia-kns-6x2.net" "$net" | grep -c '^>')" -eq 4 ] ||
	e2e_fail "the swap did not change 4 lines"

expect_report() { # FILE: the report names both cables and their places
	grep -q -F '"R[2,4]"' "$1" && grep -q -F '"R[3,2]"' "$1" &&
		grep -q -E '"R\[2,4\]" .* port 2 is cabled to "S\[1,2\]" .* port 4; it should go to "S\[0,2\]" .* port 5' "$1" &&
		grep -q -E '"R\[3,2\]" .* port 3 is cabled to "S\[0,2\]" .* port 5; it should go to "S\[1,2\]" .* port 4' "$1"
}

rc=0
"$OSMTOPO" check --expect kns "$net" >"$WORK/file.out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || e2e_fail "check --expect kns exited $rc: $(cat "$WORK/file.out")"
expect_report "$WORK/file.out" || e2e_fail "file report: $(cat "$WORK/file.out")"
"$OSMTOPO" check --expect kns "$TOPOLOGIES/cellia-kns-6x2.net" >"$WORK/sound.out" ||
	e2e_fail "the sound CELLIA: $(cat "$WORK/sound.out")"

ibsim_start "$net"
opensm_once -- -R hdor,minhop
log_has "cannot route this fabric (topology)" || e2e_fail "hdor did not refuse"
grep -F 'hdor: mis-cabling:' "$WORK/opensm.log" >"$WORK/log.out" ||
	e2e_fail "no mis-cabling report in OpenSM's log"
expect_report "$WORK/log.out" || e2e_fail "log report: $(cat "$WORK/log.out")"
[ "$(grep -c 'is cabled to' "$WORK/log.out")" -eq 2 ] ||
	e2e_fail "the log names $(grep -c 'is cabled to' "$WORK/log.out") cables, not 2 (once)"
log_has "minhop tables configured on all switches" ||
	log_has "SUBNET UP" || e2e_fail "no fallback routing"

rc=0
sim "$OSMTOPO" check --expect kns --live >"$WORK/live.out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] && expect_report "$WORK/live.out" ||
	e2e_fail "live report (exit $rc): $(cat "$WORK/live.out")"
e2e_log "ok: the swapped cables named in the file, live, and in OpenSM's log"
