#!/usr/bin/env bash
# Benchmark: sf-mms on a Slim Fly (default q = 13: 338 switches, 7 CAs
# each, 2,366 CAs) against OpenSM's minhop, dfsssp and lash.  Prints
# figures, asserts nothing:
#   1. offline `osmtopo route sf-mms`: routing time (the engine's
#      phases) and peak memory (GNU time), 3 runs;
#   2. one `osmtopo compare` run under ibsim, stock OpenSM with QoS on:
#      each engine's routing time from OpenSM's log, VLs used, credit
#      loops, hops and static throughput per traffic pattern (uniform,
#      complement, reverse, shuffle, transpose, rotation, ...; the bit
#      patterns on ceil(log2 N) bits, a CA whose partner is >= N sends
#      nothing: see `osmtopo check --help`).
#
# usage: bench/sf.sh [Q [CAS]] [--offline-only]   (from the build dir)
set -eu
q=${1:-13}
cas=${2:-7}
offline_only=${3:-}
src=$(cd "$(dirname "$0")/.." && pwd)
export OSMTOPO=${OSMTOPO:-$PWD/osmtopo}
export OSMTOPO_PLUGIN_DIR=${OSMTOPO_PLUGIN_DIR:-$PWD/.libs}
. "$src/tests/e2e/lib.sh"
e2e_init bench-sf
command -v /usr/bin/time >/dev/null || e2e_fail "needs GNU time (apt-get install time)"

net=$WORK/slimfly-q$q.net
"$OSMTOPO" gen slimfly "$q" --cas "$cas" -o "$net"
echo "fabric: Slim Fly q=$q: $(grep -c '^Switch' "$net") switches, $(grep -c -E '^(Ca|Hca)' "$net") CAs"

echo "== offline: osmtopo route sf-mms (3 runs)"
for i in 1 2 3; do
	/usr/bin/time -f "peak RSS %M kB, wall %e s" \
		"$OSMTOPO" route --time --lfts-only sf-mms "$net" >/dev/null 2>"$WORK/time.$i"
	sed 's/^osmtopo route: /  /' "$WORK/time.$i"
done

[ "$offline_only" = --offline-only ] && exit 0

echo "== osmtopo compare (ibsim, stock OpenSM, QoS on)"
"$OSMTOPO" compare --timeout 600 "$net" sf-mms minhop dfsssp lash
