#!/usr/bin/env bash
# hdor end to end on one KNS fabric: ibsim serves NETFILE, stock OpenSM with
# the plugin runs `-R hdor,minhop`, and what the simulated switches hold is
# read back over MADs and checked: hdor was the engine used, every CA
# reaches every CA along the Hybrid-DOR path (dimensions corrected in order,
# minimal hops), no credit loop on the VLs used, and the LFTs are exactly
# what `osmtopo route hdor` computes offline for the discovered fabric.
#
# usage: test_hdor_kns.sh NAME NETFILE
. "$(dirname "$0")/lib.sh"

name=$1
net=$2
e2e_init "hdor-$name"
[ -f "$net" ] || e2e_fail "no net file $net"

ibsim_start "$net"
opensm_once -- -R hdor,minhop
log_has "hdor tables configured on all switches" ||
	e2e_fail "hdor was not the engine used: $(grep -E 'tables configured|hdor' "$WORK/opensm.log" | tail -3)"

sim "$OSMTOPO" fabric --live -o "$WORK/live.net"
sim "$OSMTOPO" lfts --live -o "$WORK/live.lfts"

# The discovered fabric is the one we asked ibsim for.
want=$(grep -c -E '^(Hca|Ca)' "$net")
got=$(grep -c -E '^(Hca|Ca)' "$WORK/live.net")
[ "$want" = "$got" ] || e2e_fail "discovered $got CAs, the net file has $want"

# The switches hold exactly what the engine computes offline.
"$OSMTOPO" route --lfts-only hdor "$WORK/live.net" >"$WORK/offline.lfts"
if ! diff -u "$WORK/offline.lfts" "$WORK/live.lfts" >"$WORK/lfts.diff"; then
	e2e_fail "live LFTs differ from offline hdor: $(head -20 "$WORK/lfts.diff")"
fi

# Every pair routed, Hybrid-DOR paths, no loop, no credit loop.
if ! "$OSMTOPO" check --json --engine hdor "$WORK/live.net" \
	"$WORK/live.lfts" >"$WORK/check.json"; then
	e2e_fail "check failed: $(cat "$WORK/check.json")"
fi
pairs=$(json_field "$WORK/check.json" pairs)
[ "$pairs" -eq $((want * (want - 1))) ] ||
	e2e_fail "checked $pairs pairs, expected $((want * (want - 1)))"
for key in unreachable forwarding_loops credit_loops violations; do
	v=$(json_field "$WORK/check.json" "$key")
	[ "$v" -eq 0 ] || e2e_fail "$key = $v"
done
minimal=$(json_field "$WORK/check.json" minimal)
[ "$minimal" -eq "$pairs" ] || e2e_fail "only $minimal of $pairs paths minimal"
e2e_log "ok: $want CAs, $pairs pairs routed by hdor, LFTs = offline, no credit loop"
