#!/usr/bin/env bash
# The Slim Fly recognizer on intact, shuffled MMS graphs, offline: per
# prime power q and shuffle seed (ports and node order; --cas and
# --widths vary with the seed as in test_slimfly's recognize_sweep),
# whether `osmtopo route --time --lfts-only sf-mms` accepts the fabric,
# and the recognize phase's time (ms, from its "phases:" line) of the
# median of 3 runs.  With BASELINE=path/to/another/osmtopo, the same
# fabrics through that binary too, in the same run, and the ratio of the
# two medians per q (baseline / this; a refusal counts as no time).
# Asserts nothing.
#
# usage: [BASELINE=...] bench/sf-recognize.sh [Q...]
#        (from the build dir; default q = 3 4 5 7 8 9 11 13 16 17 19 23,
#        seeds 1..8)
set -eu
osmtopo=${OSMTOPO:-$PWD/osmtopo}
base=${BASELINE:-}
seeds=${SEEDS:-1 2 3 4 5 6 7 8}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# recognize_ms BIN NET: the median recognize time of 3 runs, or "refused"
recognize_ms() {
	local out ms=()
	for _ in 1 2 3; do
		if ! out=$("$1" route --time --lfts-only sf-mms "$2" 2>&1 >/dev/null); then
			echo refused
			return
		fi
		ms+=("$(sed -n 's/.*phases: recognize \([0-9.]*\) ms.*/\1/p' <<<"$out")")
	done
	printf '%s\n' "${ms[@]}" | sort -g | sed -n 2p
}

printf '%-4s %-9s %-14s %s\n' q accepted "median ms" "${base:+baseline: accepted, median ms, ratio}"
[ $# -gt 0 ] || set -- 3 4 5 7 8 9 11 13 16 17 19 23
for q in "$@"; do
	ok=0 bok=0 all=0
	: >"$tmp/t"
	: >"$tmp/b"
	for s in $seeds; do
		"$osmtopo" gen slimfly "$q" --cas $((1 + s % 3)) \
			--widths $((1 + s % 2)) --shuffle-ports "$s" -o "$tmp/f.net"
		all=$((all + 1))
		t=$(recognize_ms "$osmtopo" "$tmp/f.net")
		[ "$t" = refused ] || { ok=$((ok + 1)); echo "$t" >>"$tmp/t"; }
		if [ -n "$base" ]; then
			t=$(recognize_ms "$base" "$tmp/f.net")
			[ "$t" = refused ] || { bok=$((bok + 1)); echo "$t" >>"$tmp/b"; }
		fi
	done
	med=$(sort -g "$tmp/t" | awk '{a[NR]=$1} END {print NR ? a[int((NR+1)/2)] : "-"}')
	line=$(printf '%-4s %-9s %-14s' "$q" "$ok/$all" "$med")
	if [ -n "$base" ]; then
		bmed=$(sort -g "$tmp/b" | awk '{a[NR]=$1} END {print NR ? a[int((NR+1)/2)] : "-"}')
		ratio=$(awk -v a="$bmed" -v b="$med" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else print "-" }')
		line="$line $bok/$all, $bmed, $ratio"
	fi
	echo "$line"
done
