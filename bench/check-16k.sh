#!/usr/bin/env bash
# Benchmark: `osmtopo check` with every traffic pattern on 16,384-CA
# fabrics (uniform traffic is all 268M pairs).  Prints figures, asserts
# nothing.  For each fabric, routed offline with its engine:
#   1. check --no-balance: routing in-process, reachability, hops, credit
#      loops; wall time and peak memory (GNU time);
#   2. the same with every pattern (and --plot): the difference is the
#      balance analysis;
#   3. with BENCH_LFT_FILE=1 also routed to an LFT file first (dump_lfts
#      format: about 7.5 GB for the KNS) and checked from the files, as an
#      administrator would check a fabric's dumps.
# Fabrics: the 16-ary 3-direct KNS with 4 CAs per router (hdor), and,
# when `osmtopo gen flatfly` and the ff-dor engine exist, the 4x8x8x8
# FlatFly with 8 CAs per switch.
#
# usage: bench/check-16k.sh   (from the build dir, or set OSMTOPO)
set -eu
OSMTOPO=${OSMTOPO:-$PWD/osmtopo}
[ -x "$OSMTOPO" ] || { echo "no osmtopo at $OSMTOPO" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs GNU time (apt-get install time)" >&2; exit 2; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/osmtopo-bench-check.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.1f GB", $2 / 1048576 }' /proc/meminfo)"

# timed LABEL CMD...: run CMD, print wall time and peak RSS; output in
# $WORK/out, GNU time's figures in $WORK/time.
timed() {
	local label=$1
	shift
	/usr/bin/time -f "%e %M" -o "$WORK/time" "$@" >"$WORK/out" 2>"$WORK/err" ||
		[ $? -eq 1 ] || { echo "  $label: failed: $(tail -2 "$WORK/err")"; return 1; }
	read -r wall rss <"$WORK/time"
	printf '  %-34s wall %6.2f s   peak RSS %6.0f MB\n' "$label" "$wall" "$((rss / 1024))"
}

bench_fabric() {
	local name=$1 engine=$2 net=$3
	echo "== $name: $(grep -c '^Switch' "$net") switches, $(grep -c -E '^(Ca|Hca)' "$net") CAs, engine $engine"
	timed "check --no-balance (routes too)" \
		"$OSMTOPO" check --no-balance --route "$engine" "$net" || return 0
	grep -E '^(pairs checked|credit loops)' "$WORK/out" | sed 's/^/    /'
	timed "check, all patterns, --plot" \
		"$OSMTOPO" check --route "$engine" --plot "$WORK/$name.svg" "$net" || return 0
	sed -n '/^balance:/,/^  most loaded/p' "$WORK/out" | sed '$d' | sed 's/^/  /'
	echo "    SVG: $(wc -c <"$WORK/$name.svg") bytes"
	if [ "${BENCH_LFT_FILE:-0}" = 1 ]; then
		timed "route --lfts-only to a file" \
			"$OSMTOPO" route --lfts-only -o "$WORK/$name.lfts" "$engine" "$net" || return 0
		echo "    LFT file: $(du -h "$WORK/$name.lfts" | cut -f1)"
		timed "check NETFILE LFTFILE, all patterns" \
			"$OSMTOPO" check "$net" "$WORK/$name.lfts" || return 0
		rm -f "$WORK/$name.lfts"
	fi
}

"$OSMTOPO" gen kns 16 3 --cas 4 -o "$WORK/kns16x3.net"
bench_fabric kns16x3 hdor "$WORK/kns16x3.net"

if "$OSMTOPO" gen flatfly 4x8x8x8 --widths 2,1,1,1 --cas 8 \
	-o "$WORK/ff4888.net" 2>/dev/null &&
	"$OSMTOPO" route --help 2>&1 | grep -q 'ff-dor'; then
	bench_fabric ff4x8x8x8 ff-dor "$WORK/ff4888.net"
else
	echo "== FlatFly 4x8x8x8: skipped (no 'gen flatfly' or no ff-dor engine yet)"
fi
