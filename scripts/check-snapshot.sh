#!/usr/bin/env bash
# Runs the checker (`osmtopo check --route ENGINE`) on every bundled
# topology and a few generated ones (parallel cables, several CAs,
# shuffled ports, damage) with every engine osmtopo lists, at LMC 0 and
# 1, and writes its JSON report, its text report and its SVG plot, or
# the refusal, one file each, plus a SHA256SUMS over them.  The JSON
# is also kept normalised (keys sorted, numbers as Python spells them)
# so that two builds whose JSON writers differ only in number spelling
# or key order compare equal:
#
#   scripts/check-snapshot.sh build-old/osmtopo /tmp/chk-old
#   scripts/check-snapshot.sh build-new/osmtopo /tmp/chk-new
#   diff -r /tmp/chk-old /tmp/chk-new      (or diff only *.json.norm)
#
# usage: scripts/check-snapshot.sh OSMTOPO OUTDIR
set -eu
osmtopo=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2
src=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out/fabrics"
cp "$src"/topologies/*.net "$out/fabrics/"

gen() {
	local name=$1
	shift
	"$osmtopo" gen "$@" -o "$out/fabrics/$name.net"
}
gen kns-6x2-shuffled kns 6 2 --radix 8 --shuffle-ports 20261121
gen ff-3x3x3-damaged flatfly 3x3x3 --widths 2,1,1 --cas 2 --drop-links 0.05 --seed 3
gen ff-4x4-w2-3cas flatfly 4x4 --widths 2,2 --cas 3
norm() {
	python3 -c 'import json, sys
json.dump(json.load(open(sys.argv[1])), sys.stdout, sort_keys=True, indent=1)
print()' "$1" >"$1.norm"
}
engines=$("$osmtopo" --help | awk '/^engines:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')

cd "$out"
for net in fabrics/*.net; do
	base=$(basename "$net" .net)
	for e in $engines; do
		for lmc in 0 1; do
			f="$base.$e.lmc$lmc"
			# exit status 1 = problems found: the report is the point
			"$osmtopo" check --json --route "$e" --lmc "$lmc" "$net" \
				>"$f.json" 2>"$f.err" || true
			"$osmtopo" check --plot "$f.svg" --route "$e" \
				--lmc "$lmc" "$net" >"$f.txt" 2>>"$f.err" || true
			[ -s "$f.err" ] || rm -f "$f.err"
			if [ -s "$f.json" ]; then
				norm "$f.json"
			else
				rm -f "$f.json" "$f.txt" "$f.svg"
			fi
		done
	done
done
# Tables that do not fit the fabric: the full FlatFly's LFTs (one VL)
# checked on the damaged one, so that drops, loops and credit loops
# show up in the reports, with and without a promise.
"$osmtopo" gen flatfly 4x4x3 --cas 2 -o fabrics/ff-4x4x3.net
"$osmtopo" gen flatfly 4x4x3 --cas 2 --drop-links 0.1 --seed 7 \
	-o fabrics/ff-4x4x3-cut.net
"$osmtopo" route --lfts-only ff-twisted-dor fabrics/ff-4x4x3.net >ff-4x4x3.lfts
for p in "" "--engine ff-dor"; do
	f="mismatch${p:+.promise}"
	"$osmtopo" check --json $p fabrics/ff-4x4x3-cut.net ff-4x4x3.lfts \
		>"$f.json" 2>"$f.err" || true
	"$osmtopo" check $p fabrics/ff-4x4x3-cut.net ff-4x4x3.lfts \
		>"$f.txt" 2>>"$f.err" || true
	[ -s "$f.err" ] || rm -f "$f.err"
	norm "$f.json"
done
find . -type f ! -name SHA256SUMS | LC_ALL=C sort | xargs sha256sum >SHA256SUMS
echo "$(grep -c '\.json$' SHA256SUMS) reports ($(ls fabrics | wc -l) fabrics), $(grep -c '\.err$' SHA256SUMS) with messages in $out"
