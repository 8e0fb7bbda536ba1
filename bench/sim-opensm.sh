#!/usr/bin/env bash
# OpenSM's own engines (and osmtopo's) simulated on the tables they
# program, as a markdown table: `osmtopo compare --simulate` (each engine
# alone in stock OpenSM under ibsim, QoS on, here with 8 VLs; `osmtopo
# simulate --live` reads LFTs, SL2VL, VLArb and path SLs back) and one
# row per engine and pattern, the checker's analytic figure beside the
# simulated one.  An engine OpenSM could not run says so.  Asserts
# nothing.
#
# usage: bench/sim-opensm.sh NETFILE [ENGINE...] [-- COMPARE OPTIONS...]
#   default engines: minhop dfsssp lash nue; default options:
#   --sim-patterns random --sim-warmup 500 --sim-measure 1000
#   (from the build dir, or set OSMTOPO and OSMTOPO_PLUGIN_DIR)
set -u
OSMTOPO=${OSMTOPO:-$PWD/osmtopo}
PLUGIN=${OSMTOPO_PLUGIN_DIR:-$PWD/.libs}
net=$(readlink -f "$1")
shift
engines=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do engines+=("$1"); shift; done
[ "${1:-}" = -- ] && shift
opts=("$@")
[ ${#opts[@]} -gt 0 ] || opts=(--sim-patterns random --sim-warmup 500 --sim-measure 1000)
[ ${#engines[@]} -gt 0 ] || engines=(minhop dfsssp lash nue)
out=$(mktemp "${TMPDIR:-/tmp}/osmtopo-bench-simosm.XXXXXX")
trap 'rm -f "$out"' EXIT

"$OSMTOPO" compare --json --simulate --plugin-dir "$PLUGIN" --timeout 600 \
	-o max_op_vls=8 "${opts[@]}" "$net" "${engines[@]}" >"$out" || exit
echo "$(basename "$net"): compare --simulate ${opts[*]}"
echo
echo "| engine | pattern | simulated saturation | least CA | analytic | deadlock |"
echo "|---|---|---|---|---|---|"
jq -r '.engines[] | .engine as $e |
	if .simulated then (.simulated | to_entries[] |
	"| \($e) | \(.key) | \(.value.saturation * 1000 | round / 1000) | \(.value.saturation_min * 1000 | round / 1000) | \(if .value.analytic then (.value.analytic * 1000 | round / 1000) else "-" end) | \(.value.deadlock) |")
	else "| \($e) | \(.status): \(.note[:200]) |" end' "$out"
