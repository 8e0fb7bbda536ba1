#!/usr/bin/env bash
# hdor with QoS off: on a KNS where hdor's other dimension orders use a
# second VL (a thin line, route/hdor_ft_mix.c), OpenSM without QoS
# programs no SL2VL tables; the plugin then routes hdor within 1 VL
# (plugin.c: fit_link_vls) rather than refuse it and leave the fabric to
# the next engine, says in the log what QoS would add, and the switches
# hold what `osmtopo route --max-vls 1` computes offline.  With QoS on,
# the same fabric is routed on 2 VLs with SL2VL.
#
# usage: test_hdor_qos_off.sh GEN_ARGS (osmtopo gen's, + for spaces)
. "$(dirname "$0")/lib.sh"

gen=${1//+/ }
e2e_init "hdor-qos-off"
net=$WORK/gen.net
# shellcheck disable=SC2086 # the generator's arguments
"$OSMTOPO" gen $gen -o "$net" || e2e_fail "osmtopo gen $gen failed"
# the fabric must be one where hdor wants more than 1 VL, or this proves
# nothing
if ! "$OSMTOPO" route --lfts-only hdor "$net" >"$WORK/any.lfts" ||
	! "$OSMTOPO" route --max-vls 1 --lfts-only hdor "$net" >"$WORK/one.lfts"; then
	e2e_fail "hdor did not route $gen offline"
fi
cmp -s "$WORK/any.lfts" "$WORK/one.lfts" &&
	e2e_fail "hdor routes $gen on 1 VL anyway: not a fabric for this test"

ibsim_start "$net"
opensm_once -- -R hdor,minhop
log_has "hdor tables configured on all switches" ||
	e2e_fail "hdor did not route without QoS: $(grep -E 'cannot route|tables configured|ERR 5E' "$WORK/opensm.log" | head -3)"
grep -q -E 'hdor: routed .* 1 VL\)' "$WORK/opensm.log" ||
	e2e_fail "hdor not on 1 VL: $(grep -E 'hdor: routed' "$WORK/opensm.log" | head -1)"
log_has "hdor: QoS is off, so OpenSM programs no SL2VL tables: routed on 1 VL; with QoS on (-Q or \"qos TRUE\") it would use 2 VLs on this fabric" ||
	e2e_fail "no notice of what QoS would add: $(grep -E 'hdor:' "$WORK/opensm.log" | head -3)"
sim "$OSMTOPO" fabric --live -o "$WORK/live.net"
sim "$OSMTOPO" lfts --live -o "$WORK/live.lfts"
"$OSMTOPO" route --max-vls 1 --lfts-only hdor "$WORK/live.net" >"$WORK/offline.lfts"
diff -u "$WORK/offline.lfts" "$WORK/live.lfts" >"$WORK/lfts.diff" ||
	e2e_fail "live LFTs differ from offline hdor --max-vls 1: $(head -20 "$WORK/lfts.diff")"
# held to that routing's promise: every pair, no credit loop, no rule broken
"$OSMTOPO" check --json --engine hdor --max-vls 1 "$WORK/live.net" \
	"$WORK/live.lfts" >"$WORK/check.json" ||
	e2e_fail "check failed: $(head -c 600 "$WORK/check.json")"
for key in unreachable forwarding_loops credit_loops violations; do
	v=$(json_field "$WORK/check.json" "$key")
	[ "$v" -eq 0 ] || e2e_fail "$key = $v"
done
sim_stop
mv "$WORK/opensm.log" "$WORK/opensm-qos-off.log"

ibsim_start "$net"
opensm_once --option qos=TRUE -- -Q -R hdor,minhop
grep -q -E 'hdor: routed .* 2 VLs, SL2VL\)' "$WORK/opensm.log" ||
	e2e_fail "hdor with QoS on not on 2 VLs: $(grep -E 'hdor: routed|cannot route' "$WORK/opensm.log" | head -1)"
grep -q "QoS is off" "$WORK/opensm.log" &&
	e2e_fail "the QoS-off notice with QoS on"
echo "ok: hdor without QoS on 1 VL (LFTs = offline --max-vls 1, the log says QoS would use 2), with QoS on 2 VLs"
