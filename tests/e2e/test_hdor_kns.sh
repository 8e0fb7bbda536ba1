#!/usr/bin/env bash
# hdor end to end on one KNS fabric: ibsim serves NETFILE, stock OpenSM with
# the plugin runs `-R hdor,minhop`, and what the simulated switches hold is
# read back over MADs and checked: hdor was the engine used, every CA
# reaches every CA along the Hybrid-DOR path (dimensions corrected in order,
# minimal hops), no credit loop on the VLs used, and the LFTs are exactly
# what `osmtopo route hdor` computes offline for the discovered fabric.
#
# NETFILE may be gen:ARGS, ARGS for `osmtopo gen` with + for spaces (KNS
# lines as fat trees: --down/--up); then `osmtopo check --live --engine
# hdor` also reads the live fabric and holds it to hdor's promise (one VL,
# dimension order, up then down in each line) with the uniform pattern's
# throughput at least MIN_UNIFORM when given.
#
# With ESCAPE "escape" (a fabric whose damaged lines up*-down* cannot
# connect), hdor's escape layer is expected: VLs 0 and 1 used (and the
# VLs of further escape layers or of other dimension orders for damaged
# routers' CAs, 2 and 3), paths not all minimal; "escape-all": every
# destination on it, VL 1 alone (a
# router cut off its line of dimension 0 puts every destination there).
# "bounce": as "escape", and hdor's routing of the discovered fabric must
# be the one with in-line bounces (route/hdor_ft_bounce.c: its promise
# says so), on VL 1 after the bounce.
#
# usage: test_hdor_kns.sh NAME NETFILE|gen:ARGS [MIN_UNIFORM [ESCAPE]]
. "$(dirname "$0")/lib.sh"

name=$1
net=$2
min_uniform=${3:-}
escape=${4:-}
bounce=
[ "$escape" = bounce ] && bounce=1 && escape=escape
want_vls="[0]"
[ "$escape" = escape ] && want_vls="[0, 1]" &&
	want_re='^\[0, 1(, 2(, 3)?)?\]$'
[ "$escape" = escape-all ] && want_vls="[1]" && escape=escape
live_check=
e2e_init "hdor-$name"
case $net in
gen:*)
	gen=${net#gen:}
	gen=${gen//+/ }
	net=$WORK/gen.net
	live_check=1
	# shellcheck disable=SC2086 # the generator's arguments
	"$OSMTOPO" gen $gen -o "$net" || e2e_fail "osmtopo gen $gen failed"
	;;
esac
[ -f "$net" ] || e2e_fail "no net file $net"

ibsim_start "$net"
if [ "$escape" = escape ]; then
	# the escape layer's VL rests on SL2VL tables: QoS on; a daemon,
	# so that the live check reads the path SLs from the SA
	opensm_start --option qos=TRUE -- -Q -R hdor,minhop
else
	opensm_once -- -R hdor,minhop
fi
log_has "hdor tables configured on all switches" ||
	e2e_fail "hdor was not the engine used: $(grep -E 'tables configured|hdor' "$WORK/opensm.log" | tail -3)"

sim "$OSMTOPO" fabric --live -o "$WORK/live.net"
sim "$OSMTOPO" lfts --live -o "$WORK/live.lfts"

# The discovered fabric is the one we asked ibsim for.
want=$(grep -c -E '^(Hca|Ca)' "$net")
got=$(grep -c -E '^(Hca|Ca)' "$WORK/live.net")
[ "$want" = "$got" ] || e2e_fail "discovered $got CAs, the net file has $want"

# The switches hold exactly what the engine computes offline (without QoS
# the plugin routes hdor within 1 VL, plugin.c: fit_link_vls; the checks
# below hold it to that routing's promise).
offline_vls=(--max-vls 1)
[ "$escape" = escape ] && offline_vls=()
"$OSMTOPO" route "${offline_vls[@]}" --lfts-only hdor "$WORK/live.net" >"$WORK/offline.lfts"
if ! diff -u "$WORK/offline.lfts" "$WORK/live.lfts" >"$WORK/lfts.diff"; then
	e2e_fail "live LFTs differ from offline hdor: $(head -20 "$WORK/lfts.diff")"
fi
if [ -n "$bounce" ]; then
	"$OSMTOPO" check --route hdor "$WORK/live.net" >"$WORK/bounce.txt" 2>&1 || true
	grep -q "bounces through a third router" "$WORK/bounce.txt" ||
		e2e_fail "hdor did not keep the bounce: $(grep -E '^promise' "$WORK/bounce.txt")"
fi

# Every pair routed, Hybrid-DOR paths, no loop, no credit loop.
# (LFT files hold no SL2VL tables nor path SLs: with the escape layer,
# its SLs and VLs are checked live below, not here.)
offline_keys="unreachable forwarding_loops credit_loops violations"
if ! "$OSMTOPO" check --json --engine hdor "${offline_vls[@]}" "$WORK/live.net" \
	"$WORK/live.lfts" >"$WORK/check.json"; then
	[ "$escape" = escape ] ||
		e2e_fail "check failed: $(cat "$WORK/check.json")"
	offline_keys="unreachable forwarding_loops"
fi
pairs=$(json_field "$WORK/check.json" pairs)
[ "$pairs" -eq $((want * (want - 1))) ] ||
	e2e_fail "checked $pairs pairs, expected $((want * (want - 1)))"
for key in $offline_keys; do
	v=$(json_field "$WORK/check.json" "$key")
	[ "$v" -eq 0 ] || e2e_fail "$key = $v"
done
minimal=$(json_field "$WORK/check.json" minimal)
[ "$minimal" -eq "$pairs" ] || [ "$escape" = escape ] ||
	e2e_fail "only $minimal of $pairs paths minimal"
e2e_log "ok: $want CAs, $pairs pairs routed by hdor, LFTs = offline, no credit loop"

[ -n "$live_check" ] || exit 0
# The live fabric read by the checker itself, held to hdor's promise.
if ! sim "$OSMTOPO" check --live --json --engine hdor "${offline_vls[@]}" --patterns uniform \
	>"$WORK/live-check.json" 2>"$WORK/live-check.err"; then
	e2e_fail "live check failed: $(cat "$WORK/live-check.json" "$WORK/live-check.err")"
fi
for key in unreachable forwarding_loops credit_loops violations; do
	v=$(json_field "$WORK/live-check.json" "$key")
	[ "$v" -eq 0 ] || e2e_fail "live: $key = $v"
done
lpairs=$(json_field "$WORK/live-check.json" pairs)
[ "$lpairs" -eq "$pairs" ] || e2e_fail "live: $lpairs pairs, offline $pairs"
vls=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["vls_used"])' "$WORK/live-check.json")
[ "$vls" = "$want_vls" ] || [[ -n "${want_re:-}" && $vls =~ $want_re ]] ||
	e2e_fail "live: VLs used $vls, expected $want_vls"
if [ -n "$min_uniform" ]; then
	u=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
def find(o):
    if isinstance(o, dict):
        if o.get("name") == "uniform" or o.get("pattern") == "uniform":
            return o
        for v in o.values():
            r = find(v)
            if r: return r
    if isinstance(o, list):
        for v in o:
            r = find(v)
            if r: return r
print(find(d)["throughput"] if find(d) else "")' "$WORK/live-check.json")
	[ -n "$u" ] || e2e_fail "live: no uniform throughput in the report"
	awk -v u="$u" -v m="$min_uniform" 'BEGIN { exit !(u + 0 >= m + 0) }' ||
		e2e_fail "live: uniform throughput $u below $min_uniform"
	e2e_log "live: uniform throughput $u (at least $min_uniform)"
fi
e2e_log "live check: $lpairs pairs, every one reached on hdor's paths, no credit loop, VLs $vls"
