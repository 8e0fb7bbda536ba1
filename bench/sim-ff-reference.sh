#!/usr/bin/env bash
# Seed 001's methodology on its reference FlatFly: every ff-* engine's
# simulated saturation throughput (`osmtopo simulate`: relative
# saturation bandwidth, every CA backlogged, mean over the CAs) beside
# the checker's analytic throughput (1 / the most loaded link) on the six
# patterns of the paper (uniform, complement, reverse, rotation,
# shuffle, transpose), one markdown table, "simulated / analytic" per
# cell, with the least CA's simulated share and whether any run
# deadlocked.  The ADOR engines run with LMC 1, each packet on the next
# LID of its destination (--lid rr); their analytic figure is to the
# base LID.  Prints figures and each engine's CPU and wall time, asserts
# nothing.
#
# usage: bench/sim-ff-reference.sh [SIZES WIDTHS CAS [SIMULATE OPTIONS...]]
#   default: 4x8x8x8 2,1,1,1 8 (16,384 CAs), --warmup 300 --measure 500
#   (from the build dir, or set OSMTOPO; ENGINES to choose engines)
set -eu
OSMTOPO=${OSMTOPO:-$PWD/osmtopo}
[ -x "$OSMTOPO" ] || { echo "no osmtopo at $OSMTOPO" >&2; exit 2; }
sizes=${1:-4x8x8x8}
widths=${2:-2,1,1,1}
cas=${3:-8}
shift $(($# < 3 ? $# : 3))
opts=("$@")
[ ${#opts[@]} -gt 0 ] || opts=(--warmup 300 --measure 500)
ENGINES=${ENGINES:-"ff-dor ff-mixed-dor ff-twisted-dor ff-twisted-mixed-dor ff-ador ff-mixed-ador ff-twisted-ador ff-twisted-mixed-ador"}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/osmtopo-bench-simff.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
patterns=uniform,complement,reverse,rotation,shuffle,transpose
"$OSMTOPO" gen flatfly "$sizes" --widths "$widths" --cas "$cas" \
	-o "$WORK/ff.net"

echo "FlatFly $sizes, widths $widths, $cas CAs per switch" \
	"($(grep -c '^Ca' "$WORK/ff.net") CAs); simulate ${opts[*]}"
echo
echo "| engine | uniform | complement | reverse | rotation | shuffle | transpose | deadlock | CPU s | wall s |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for e in $ENGINES; do
	lmc=()
	case $e in *ador) lmc=(--lmc 1 --lid rr) ;; esac
	start=$(date +%s.%N)
	if ! "$OSMTOPO" simulate --route "$e" "${lmc[@]}" --patterns "$patterns" \
		--json "${opts[@]}" "$WORK/ff.net" >"$WORK/out.json" 2>"$WORK/err"; then
		[ -s "$WORK/out.json" ] || { echo "| $e | $(head -c 200 "$WORK/err" | tr '\n' ' ') |"; continue; }
	fi
	wall=$(echo "$(date +%s.%N) - $start" | bc)
	jq -r --arg e "$e" --arg wall "$wall" '
		def cell(n): (.patterns[] | select(.name == n) |
			"\(.saturation * 1000 | round / 1000) / \(.analytic * 1000 | round / 1000) (min \(.saturation_min * 100 | round / 100))");
		"| \($e) | \(cell("uniform")) | \(cell("complement")) | \(cell("reverse")) | \(cell("rotation")) | \(cell("shuffle")) | \(cell("transpose")) | \([.patterns[].deadlock] | any) | \(.cpu_s | round) | \($wall | tonumber | round) |"' \
		"$WORK/out.json"
	jq -r '"  packet-hops \(.packet_hops), \(.packet_hops_per_cpu_s | round) per CPU second"' "$WORK/out.json" >>"$WORK/hops"
done
echo
cat "$WORK/hops"
