#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# `osmtopo simulate --live` beyond --path-bound: the path SLs of most
# pairs rest on their source's sample (live/sa.c), and a deadlock found
# on them may not be the fabric's.  Before it is reported, simulate asks
# the SA for the pairs at the heads of the blocked cycle and repeats the
# deadlocked runs (a deadlock whose heads all have the SA's SLs is the
# fabric's), and when the deadlock goes away, reads every pair's SL and
# repeats every run on them (confirm_cycles() in cmd_simulate.c).  Under
# ibsim, OpenSM routes NETFILE with ENGINE (QoS on, 8 VLs); simulate runs
# once with --path-bound 1 (the sample) and once with --all-paths, both
# with one packet of buffer per VL, the same seed and windows:
#  - the sampled run must have sampled, found a deadlock on the sample
#    and asked the SA for its cycle's heads: stderr says so, the JSON's
#    "sl_confirmation" has the pairs that were sampled, the head pairs
#    asked, "deadlock_on_samples" true and "deadlock_confirmed" as EXPECT
#    says (deadlock: the fabric deadlocks, confirmed on the heads alone,
#    "read": "cycle heads"; none: the sample was wrong, every pair read,
#    "read": "every pair");
#  - its figures equal the --all-paths run's: every pattern's saturation,
#    least CA, deadlock and blocked cycle, and its packet-hops more than
#    the --all-paths run's (they count the runs on the sample too); with
#    every pair read, "sl_sampled_pairs" 0;
#  - the exit status is 1 exactly when the deadlock is confirmed.
# minhop on CELLIA (one VL, credit loops) deadlocks whatever the SLs,
# and gives every pair SL 0, so its sampled SLs are right: the figures
# equal the --all-paths run's though most SLs stay sampled, and only the
# confirmation's messages and JSON can be checked.  lash on a 4 x 4
# torus chooses an SL per pair: a source's four sampled destinations
# agree on one SL that others do not have, the sample closes a credit
# loop, and the SA's SLs do not deadlock: this case fails when the runs
# are not repeated, or repeated on the sampled SLs (seen: both variants,
# and the confirmation left out, which fails both cases).
#
# usage: test_simulate_confirm.sh ENGINE NETFILE|torus deadlock|none
. "$(dirname "$0")/lib.sh"
engine=$1 net=$2 expect=$3
e2e_init "simulate-confirm-$engine"
if [ "$net" = torus ]; then
	net=$WORK/torus.net
	torus_4x4 >"$net"
fi
ibsim_start "$net"
OSM_TIMEOUT=${OSM_TIMEOUT:-300} opensm_start --option qos=TRUE \
	--option max_op_vls=8 --option "routing_engine=$engine,no_fallback"
osm_engine | grep -qx "$engine" || e2e_fail "$engine did not route: $(osm_engine)"
opts=(--patterns uniform,transpose,complement --buffer 2048 --warmup 300
	--measure 600 --jobs 1 --json)
for mode in path-bound all-paths; do
	opt=--all-paths
	[ "$mode" = all-paths ] || opt="--path-bound 1"
	st=0
	# shellcheck disable=SC2086
	sim "$OSMTOPO" simulate --live $opt "${opts[@]}" >"$WORK/$mode.json" \
		2>"$WORK/$mode.err" || st=$?
	[ $st -le 1 ] || e2e_fail "$mode: simulate failed: $(cat "$WORK/$mode.err")"
	eval "${mode//-/_}_status=$st"
done
cat "$WORK/path-bound.err" >&2
grep -q "a deadlock on sampled path SLs .*: asking the SA for the [1-9][0-9]* pairs at the heads of the blocked cycle" \
	"$WORK/path-bound.err" || e2e_fail "no confirmation read: $(cat "$WORK/path-bound.err")"
case $expect in
deadlock) said="the deadlock is confirmed: the packets at the heads of its blocked cycle have the SLs the SA gave" want=1 ;;
none) said="no deadlock on the SLs the SA gave for every pair" want=0 ;;
*) e2e_fail "EXPECT is deadlock or none, not $expect" ;;
esac
grep -q "$said" "$WORK/path-bound.err" ||
	e2e_fail "the confirmation does not say \"$said\": $(tail -2 "$WORK/path-bound.err")"
# shellcheck disable=SC2154
[ "$path_bound_status" -eq $want ] && [ "$all_paths_status" -eq $want ] ||
	e2e_fail "exit status $path_bound_status (sampled), $all_paths_status (all paths), expected $want"
python3 - "$WORK/path-bound.json" "$WORK/all-paths.json" "$expect" "$engine" <<'EOF' ||
import json, sys
s, a = (json.load(open(p)) for p in sys.argv[1:3])
expect, engine = sys.argv[3:5]
c = s.get("sl_confirmation")
assert c, "no sl_confirmation in the sampled run's JSON"
assert c["sampled_pairs"] > 0 and c["deadlock_on_samples"] is True, c
assert c["deadlock_confirmed"] is (expect == "deadlock"), c
assert c["cycle_head_pairs_asked"] > 0, c
if expect == "deadlock":
    # the heads settled it: the other pairs stay on the sample
    assert c["read"] == "cycle heads", c
    assert 0 < s["sl_sampled_pairs"] < c["sampled_pairs"], (s["sl_sampled_pairs"], c)
else:
    assert c["read"] == "every pair" and s["sl_sampled_pairs"] == 0, (c, s["sl_sampled_pairs"])
assert a["sl_sampled_pairs"] == 0 and "sl_confirmation" not in a, a.get("sl_confirmation")
dl = False
for p, q in zip(s["patterns"], a["patterns"]):
    assert p["name"] == q["name"], (p["name"], q["name"])
    for k in ("saturation", "saturation_min", "deadlock"):
        assert p[k] == q[k], (p["name"], k, p[k], q[k])
    assert p["saturated"].get("cycle") == q["saturated"].get("cycle"), p["name"]
    dl = dl or p["deadlock"]
    print("%-10s saturation %.3f%s" % (p["name"], p["saturation"],
                                      " DEADLOCK" if p["deadlock"] else ""))
assert dl is (expect == "deadlock"), dl
# the sample's runs and the SA's SLs' runs both counted
assert s["packet_hops"] > a["packet_hops"], (s["packet_hops"], a["packet_hops"])
print("confirmation: %d pairs had rested on samples, %d cycle heads asked, read %s; deadlock on the SA's SLs: %s"
      % (c["sampled_pairs"], c["cycle_head_pairs_asked"], c["read"], c["deadlock_confirmed"]))
EOF
	e2e_fail "confirmation: see above"
e2e_log "PASS: $engine: a deadlock on sampled SLs $([ "$expect" = deadlock ] && echo "confirmed on its cycle's heads" || echo "confirmed away on every pair's SL")"
