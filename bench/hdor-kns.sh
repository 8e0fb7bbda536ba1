#!/usr/bin/env bash
# Benchmark: hdor on a big KNS (default 16-ary 3-direct: 4,096 routers, 768
# switches, 4,096 CAs).  Prints figures, asserts nothing:
#   1. offline `osmtopo route hdor`: wall time of reading and of routing,
#      and peak memory (GNU time);
#   2. under ibsim, stock OpenSM routing the same fabric with -R hdor and
#      with -R minhop: each engine's routing time from the OpenSM log (from
#      "building routing with" to "tables configured"), so the ratio
#      hdor/minhop is measured in the same run on the same machine.
#
# usage: bench/hdor-kns.sh [K N] [--offline-only]   (from the build dir)
set -eu
k=${1:-16}
n=${2:-3}
offline_only=${3:-}
src=$(cd "$(dirname "$0")/.." && pwd)
export OSMTOPO=${OSMTOPO:-$PWD/osmtopo}
export OSMTOPO_PLUGIN_DIR=${OSMTOPO_PLUGIN_DIR:-$PWD/.libs}
. "$src/tests/e2e/lib.sh"
e2e_init bench-hdor
command -v /usr/bin/time >/dev/null || e2e_fail "needs GNU time (apt-get install time)"

net=$WORK/kns-${k}x${n}.net
"$OSMTOPO" gen kns "$k" "$n" -o "$net"
echo "fabric: $k-ary $n-direct KNS: $(grep -c '^Switch' "$net") switches, $(grep -c -E '^(Ca|Hca)' "$net") CAs"

echo "== offline: osmtopo route hdor (3 runs)"
for i in 1 2 3; do
	/usr/bin/time -f "peak RSS %M kB, wall %e s" \
		"$OSMTOPO" route --time --lfts-only hdor "$net" >/dev/null 2>"$WORK/time.$i"
	sed 's/^osmtopo route: /  /' "$WORK/time.$i"
done

[ "$offline_only" = --offline-only ] && exit 0

ibsim_start "$net"
for e in hdor minhop; do
	rm -rf "${WORK:?}"/osm-cache/*
	start=$(date +%s.%N)
	opensm_once --option log_flags=0x07 -- -R "$e"
	end=$(date +%s.%N)
	printf '== OpenSM -R %s: routing %s s (from the log), whole sweep %.1f s\n' \
		"$e" "$(routing_span "$e")" "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')"
	grep -E "$e: routed" "$WORK/opensm.log" | sed 's/^/  /' || true
done
