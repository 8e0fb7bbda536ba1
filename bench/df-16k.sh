#!/usr/bin/env bash
# Benchmark: df-static offline on the 16K Dragonfly of seed 001 (section
# 1.1's reference configuration as a Dragonfly: groups of 16 switches, 8
# global cables per switch, 128 groups -- one global port per group left
# free --, 8 CAs per switch: 2,048 switches, 16,384 CAs, radix 36).  Per
# LMC (default 0 and 1; offsets above 0 take the Valiant layers) and for
# groups as 4x4 FlatFlies: `osmtopo route -t --lfts-only` (the engine's
# phases) under /usr/bin/time -v (peak memory of the whole run), then
# `osmtopo check` with the six patterns (uniform, complement, reverse,
# rotation, shuffle, transpose; bit patterns on ceil(log2 N) bits, a CA
# whose partner is itself or >= N sends nothing, rotation i + N/2 mod N:
# see `osmtopo check --help`).  Prints figures, asserts nothing; each
# check takes minutes (hundreds of millions of pairs).
#
# usage: bench/df-16k.sh [LMC...]   (from the build dir; FLAT=0 skips the
# FlatFly groups)
set -eu
OSMTOPO=${OSMTOPO:-$PWD/osmtopo}
[ -x "$OSMTOPO" ] || { echo "no osmtopo at $OSMTOPO" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "no /usr/bin/time (GNU time)" >&2; exit 2; }
lmcs=${*:-0 1}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/osmtopo-bench-df16k.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
patterns=uniform,complement,reverse,rotation,shuffle,transpose
"$OSMTOPO" gen dragonfly 16 8 --cas 8 --groups 128 --radix 36 -o "$WORK/df.net"
"$OSMTOPO" gen dragonfly 16 8 --cas 8 --groups 128 --radix 36 \
	--flat-groups 4,4 -o "$WORK/flat.net"

# one NET LMC LABEL
one() {
	echo "== $3, lmc $2"
	/usr/bin/time -v "$OSMTOPO" route -t --lmc "$2" --lfts-only df-static "$1" \
		2>"$WORK/time" >/dev/null
	grep -E 'osmtopo route|Maximum resident' "$WORK/time"
	"$OSMTOPO" check --lmc "$2" --patterns "$patterns" --route df-static "$1" |
		grep -E '^(VLs used|credit loops|path violations|hops)|^  (pattern|uniform|complement|reverse|rotation|shuffle|transpose) |with every LID'
}
for l in $lmcs; do
	one "$WORK/df.net" "$l" "groups as full graphs of 16"
done
[ "${FLAT:-1}" = 0 ] || one "$WORK/flat.net" 0 "groups as 4x4 FlatFlies"
