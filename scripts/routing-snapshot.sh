#!/usr/bin/env bash
# Routes every bundled topology (and a few generated ones: shuffled,
# damaged) with every engine osmtopo lists, and writes what each engine
# decided -- coordinates, LFTs, SL2VL tables, path SLs (`osmtopo route
# --dump`), or its refusal -- one file per (fabric, engine, lmc), plus a
# SHA256SUMS over them.  Two snapshots of two builds are byte-identical
# when the change between them left routing alone:
#
#   scripts/routing-snapshot.sh build-old/osmtopo /tmp/snap-old
#   scripts/routing-snapshot.sh build-new/osmtopo /tmp/snap-new
#   diff -r /tmp/snap-old /tmp/snap-new
#
# usage: scripts/routing-snapshot.sh OSMTOPO OUTDIR
set -eu
osmtopo=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2
src=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out/fabrics"
cp "$src"/topologies/*.net "$out/fabrics/"

# Generated fabrics: parallel cables, several CAs, shuffled ports, damage.
gen() {
	local name=$1
	shift
	"$osmtopo" gen "$@" -o "$out/fabrics/$name.net"
}
gen kns-6x2-shuffled kns 6 2 --radix 8 --shuffle-ports 20261121
gen ff-3x3x3-damaged flatfly 3x3x3 --widths 2,1,1 --cas 2 --drop-links 0.05 --seed 3
gen ff-4x4x3-damaged flatfly 4x4x3 --cas 2 --drop-links 0.1 --drop-switches 0.05 --seed 7
gen hc-4-damaged hypercube 4 --cas 2 --drop-links 0.1 --seed 2
gen ff-4x4-w2-3cas flatfly 4x4 --widths 2,2 --cas 3
# KNS with fat-tree lines, Dragonfly+ (intact, shuffled, damaged)
gen kns-s2-shuffled kns 4 2 --cas 2 --down 2,2 --up 1,2 --shuffle-ports 5
gen dfp-9g-shuffled dragonfly 4 2 --spines 4 --cas 3 --groups 9 --shuffle-ports 4
gen dfp-9g-damaged dragonfly 4 2 --spines 4 --cas 3 --groups 9 --drop-links 0.15 --seed 6
gen dfp-5g-random dragonfly 4 2 --spines 4 --cas 2 --groups 5 --arrangement random --seed 2 --drop-links 0.05
engines=$("$osmtopo" --help | awk '/^engines:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')

cd "$out"
for net in fabrics/*.net; do
	base=$(basename "$net" .net)
	for e in $engines; do
		for lmc in 0 1 2; do
			f="$base.$e.lmc$lmc"
			if "$osmtopo" route --dump --lmc "$lmc" "$e" "$net" \
				>"$f" 2>"$f.err"; then
				rm -f "$f.err"
			else
				rm -f "$f"
			fi
		done
	done
done
find . -type f ! -name SHA256SUMS | LC_ALL=C sort | xargs sha256sum >SHA256SUMS
echo "$(grep -vc '\.err$' SHA256SUMS) files ($(ls fabrics | wc -l) fabrics), $(grep -c '\.err$' SHA256SUMS) refusals in $out"
