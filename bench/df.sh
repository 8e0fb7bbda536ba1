#!/usr/bin/env bash
# Benchmark: df-static against OpenSM's own engines on the balanced
# Dragonfly of issue 11 (a = 8 switches per group, h = 4 global cables
# per switch, p = 4 CAs, g = 33 groups: 264 switches, 1,056 CAs), in one
# `osmtopo compare` run under ibsim: routing time from OpenSM's log, VLs
# used, credit loops, throughput per traffic pattern.  Then df-static
# offline (`osmtopo route -t`, `osmtopo check`).  Prints figures, asserts
# nothing.  Takes several minutes (lash is slow).
#
# usage: bench/df.sh [A H P [G]] [ENGINES...]   (from the build dir)
set -eu
a=${1:-8}
h=${2:-4}
p=${3:-4}
g=${4:-$((a * h + 1))}
shift $(($# < 4 ? $# : 4))
engines=${*:-df-static minhop updn dfsssp lash nue}
OSMTOPO=${OSMTOPO:-$PWD/osmtopo}
[ -x "$OSMTOPO" ] || { echo "no osmtopo at $OSMTOPO" >&2; exit 2; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/osmtopo-bench-df.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
net=$WORK/df.net
"$OSMTOPO" gen dragonfly "$a" "$h" --cas "$p" --groups "$g" -o "$net"
echo "fabric: Dragonfly a=$a h=$h p=$p g=$g: $(grep -c '^Switch' "$net") switches, $(grep -c -E '^(Ca|Hca)' "$net") CAs"
echo "== offline df-static"
"$OSMTOPO" route -t --lfts-only df-static "$net" 2>&1 >/dev/null | tail -1
"$OSMTOPO" check --route df-static "$net" |
	grep -E '^(VLs used|credit loops|path violations|  (uniform|complement|shuffle|reverse|rotation|transpose) )'
echo "== osmtopo compare (stock OpenSM under ibsim): $engines"
# shellcheck disable=SC2086 # the engine list
"$OSMTOPO" compare -t 600 "$net" $engines
