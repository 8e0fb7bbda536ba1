#!/usr/bin/env bash
# Speed and memory of `osmtopo simulate`: packet-hops per CPU second on
# one core (one run at a time, --jobs 1) on a small and a mid-size
# FlatFly routed by ff-dor, uniform traffic at saturation; then seed
# 001's reference FlatFly (4x8x8x8, widths 2,1,1,1, 8 CAs a switch:
# 16,384 CAs): the wall and CPU time of one pattern's saturation point
# with the default windows (1000 + 2000 packet times) and the peak
# resident memory (GNU time).  Prints the load average too: on a shared
# machine the times are noisy, the packet-hops per CPU second less so.
# Asserts nothing.
#
# usage: bench/sim-speed.sh [--quick]   (--quick: no 16K run)
#   (from the build dir, or set OSMTOPO; OSMTOPO_BASE=OLD-BINARY also
#   runs the small and mid-size cases with OLD-BINARY, alternately, and
#   prints CPU(new) / CPU(old): same results, so the same packet-hops)
set -eu
OSMTOPO=${OSMTOPO:-$PWD/osmtopo}
[ -x "$OSMTOPO" ] || { echo "no osmtopo at $OSMTOPO" >&2; exit 2; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/osmtopo-bench-simspeed.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
echo "load: $(uptime)"

one() { # NAME GENARGS...
	local name=$1
	shift
	"$OSMTOPO" gen flatfly "$@" -o "$WORK/$name.net"
	if [ -n "${OSMTOPO_BASE:-}" ]; then
		for i in 1 2 3; do
			for b in "$OSMTOPO_BASE" "$OSMTOPO"; do
				"$b" simulate --route ff-dor --no-analytic --jobs 1 \
					--json "$WORK/$name.net" | jq -r .cpu_s
			done
		done | paste - - | awk -v n="$name" '{ o += $1; c += $2 }
			END { printf "%s: CPU new / base %.3f (3 runs each, alternating)\n", n, c / o }'
	fi
	"$OSMTOPO" simulate --route ff-dor --no-analytic --jobs 1 --json \
		"$WORK/$name.net" >"$WORK/$name.json"
	jq -r --arg n "$name" '"\($n): \(.cas) CAs, \(.packet_hops) packet-hops in \(.cpu_s * 100 | round / 100) s CPU: \(.packet_hops_per_cpu_s / 1e6 * 100 | round / 100) M per CPU second; saturation \(.patterns[0].saturation * 1000 | round / 1000)"' \
		"$WORK/$name.json"
}
one ff-3x3x3 3x3x3 --widths 2,1,1 --cas 2
one ff-4x4x4 4x4x4 --widths 2,1,1 --cas 4
[ "${1:-}" = --quick ] && exit 0

"$OSMTOPO" gen flatfly 4x8x8x8 --widths 2,1,1,1 --cas 8 -o "$WORK/ff16k.net"
/usr/bin/time -v -o "$WORK/time" "$OSMTOPO" simulate --route ff-dor \
	--no-analytic --jobs 1 --json "$WORK/ff16k.net" >"$WORK/ff16k.json"
jq -r '"ff-4x8x8x8 (seed 001 reference): \(.cas) CAs, uniform saturation \(.patterns[0].saturation * 1000 | round / 1000) (least CA \(.patterns[0].saturation_min * 1000 | round / 1000)); simulation \(.cpu_s | round) s CPU, \(.wall_s | round) s wall, \(.packet_hops) packet-hops, \(.packet_hops_per_cpu_s / 1e6 * 100 | round / 100) M per CPU second"' \
	"$WORK/ff16k.json"
awk -F': ' '/Elapsed/ { print "  whole command (gen excluded; routing included): " $2 " wall" }
	/User time/ { u = $2 } /System time/ { s = $2 }
	/Maximum resident/ { printf "  %.1f s CPU, peak RSS %.0f MB\n", u + s, $2 / 1024 }' "$WORK/time"
echo "load: $(uptime)"
