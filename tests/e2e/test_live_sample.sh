#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# `osmtopo check --live` beyond its bound of path records: the SLs of a
# sample per (source port, LID offset) class, the classes whose sample
# disagrees asked whole (src/live/sa.c).  Under ibsim, OpenSM routes a
# FlatFly with ENGINE (whose SL depends on the destination) and LMC; the
# check with --path-bound 1 must sample (fewer pairs asked than exist),
# must hold the tables to the engine's promise (which states each
# destination's SL: a wrongly filled SL is a path violation), must print
# the same report as the check that asks the SA for every pair, but for
# the figures that say what rests on the sample (sl_sampled_pairs, ...),
# and must say so: sl_sampled_pairs > 0 and figures_on_samples listed.
#
# ENGINE may be one of OpenSM's own (dfsssp, lash: an SL per pair, which
# a sample misjudges): no promise is checked then, and the sampled check
# must confirm every credit loop it finds on sampled SLs with the real
# SLs before it reports one, so that both checks report the same loops.
#
# dfsssp draws a path's SL anew for every PathRecord query when it has
# VLs to spare: a layer of paths is spread over vl_split_count SLs by
# rand() in get_dfsssp_sl() (OpenSM's osm_ucast_dfsssp.c, seeded with
# the time), each copy a subset of an acyclic layer.  Two reads of one
# unchanged fabric then see other SLs for most pairs (3,645 of 5,184
# PathRecords, 72 CA ports x 72 LIDs, on dragonfly-4x2-9g-2cas-random,
# seen with a debug print of each
# answer's SLID, DLID and SL: the answers match their queries), so the
# channels, dependencies and the VLs and SLs used differ between any two
# reads; credit loops (none) and everything else must not.
#
# Usage: test_live_sample.sh ENGINE NETFILE LMC

. "$(dirname "$0")/lib.sh"
engine=$1 net=$2 lmc=$3
e2e_init "live-sample-$engine"

ibsim_start "$net"
OSM_TIMEOUT=${OSM_TIMEOUT:-300} opensm_start --option qos=TRUE \
	--option "lmc=$lmc" --option "routing_engine=$engine,no_fallback"

promise=(--engine "$engine")
case $engine in
dfsssp | lash | nue | minhop | updn) promise=(--no-promise) ;;
esac
for mode in all-paths path-bound; do
	opt=--all-paths
	[ "$mode" = all-paths ] || opt="--path-bound 1"
	# shellcheck disable=SC2086
	sim "$OSMTOPO" check --live --json --no-balance "${promise[@]}" \
		$opt >"$WORK/$mode.json" 2>"$WORK/$mode.err" ||
		e2e_fail "$mode: check failed: $(cat "$WORK/$mode.err")"
	counts=$(grep -o 'path SLs: [0-9]* pairs checked on SLs the SA gave, [0-9]* on sampled' \
		"$WORK/$mode.err") || e2e_fail "$mode: no path SL counts"
	asked=$(echo "$counts" | awk '{ print $3 }')
	sampled=$(echo "$counts" | awk '{ print $11 }')
	e2e_log "$mode: $asked pairs on SA-given SLs, $sampled sampled"
	for key in unreachable credit_loops violations; do
		v=$(json_field "$WORK/$mode.json" "$key")
		[ "$v" -eq 0 ] || e2e_fail "$mode: $key = $v"
	done
	eval "${mode//-/_}_asked=$asked ${mode//-/_}_sampled=$sampled"
done
# shellcheck disable=SC2154
[ "$all_paths_sampled" -eq 0 ] || e2e_fail "--all-paths sampled"
# shellcheck disable=SC2154
# An engine whose SL depends on the destination (OpenSM's) may leave no
# class whose sample agrees: then every pair is asked, and nothing rests
# on a sample.
if [ "${promise[0]}" != --no-promise ] &&
	{ [ "$path_bound_sampled" -eq 0 ] || [ "$path_bound_asked" -ge "$all_paths_asked" ]; }; then
	e2e_fail "--path-bound 1 did not sample"
fi
# figures that rest on the SA's draw of SLs (dfsssp, above)
varies=
[ "$engine" = dfsssp ] && varies="channels dependencies vls_used sls_used"
# shellcheck disable=SC2016
same=$(python3 -c '
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
on_samples = ("sl_sampled_pairs", "sl_confirmed_pairs", "figures_on_samples")
on_samples += tuple(sys.argv[4].split())
said = (b.get("sl_sampled_pairs", 0) > 0) == \
    ("credit_loops_absent" in b.get("figures_on_samples", []))
# pairs a confirmed credit loop had asked again left the sample
left = b.get("sl_sampled_pairs", 0) + b.get("sl_confirmed_pairs", 0)
print("yes" if said and left == int(sys.argv[3]) and
      a.get("sl_sampled_pairs") == 0 else "no samples said")
for k in on_samples:
    a.pop(k, None); b.pop(k, None)
print("same" if a == b else "differ")' "$WORK/all-paths.json" "$WORK/path-bound.json" \
	"$path_bound_sampled" "$varies")
[ "$(sed -n 1p <<<"$same")" = yes ] ||
	e2e_fail "the sampled report does not say what rests on samples"
[ "$(sed -n 2p <<<"$same")" = same ] ||
	e2e_fail "sampled and full reports differ: $(diff "$WORK/all-paths.json" "$WORK/path-bound.json" | head -5)"
e2e_log "PASS: $engine, lmc $lmc: sample of $path_bound_asked pairs, report equal to all $all_paths_asked"
