#!/usr/bin/env bash
# Benchmark: the ff-* engines on the seed's reference FlatFly (4x8x8x8,
# link widths 2,1,1,1, 8 CAs per switch: 2,048 switches, 16,384 CAs).
# Prints figures, asserts nothing:
#   1. offline `osmtopo route ENGINE`: routing time (the engine alone) and
#      peak memory of the whole command, per engine;
#   2. static throughput per traffic pattern of each engine's tables, from
#      `osmtopo check --route ENGINE` (CA numbering: net-file order, which
#      for generated FlatFlies is switch coordinates with dimension 0
#      fastest, then the CA's index on its switch);
#   3. unless --offline-only: stock OpenSM routing the same fabric under
#      ibsim with minhop, dfsssp and ff-dor, routing time from the log.
#
# usage: bench/ff-engines.sh [SHAPE WIDTHS CAS] [--offline-only]
#        (from the build dir; default 4x8x8x8 2,1,1,1 8)
set -eu
shape=${1:-4x8x8x8}
widths=${2:-2,1,1,1}
cas=${3:-8}
mode=${4:-}
src=$(cd "$(dirname "$0")/.." && pwd)
export OSMTOPO=${OSMTOPO:-$PWD/osmtopo}
export OSMTOPO_PLUGIN_DIR=${OSMTOPO_PLUGIN_DIR:-$PWD/.libs}
. "$src/tests/e2e/lib.sh"
e2e_init bench-ff
command -v /usr/bin/time >/dev/null || e2e_fail "needs GNU time (apt-get install time)"

net=$WORK/ff.net
"$OSMTOPO" gen flatfly "$shape" --widths "$widths" --cas "$cas" -o "$net"
echo "fabric: FlatFly $shape widths $widths, $cas CAs/switch: $(grep -c '^Switch' "$net") switches, $(grep -c -E '^(Ca|Hca)' "$net") CAs"

engines="ff-dor ff-mixed-dor ff-twisted-dor ff-twisted-mixed-dor ff-ador ff-mixed-ador ff-twisted-ador"
echo "== offline routing (osmtopo route -t; *-ador with --lmc 1)"
for e in $engines; do
	lmc=
	case $e in *-ador) lmc="--lmc 1" ;; esac
	# shellcheck disable=SC2086
	/usr/bin/time -f "%M" "$OSMTOPO" route -t $lmc --lfts-only "$e" "$net" \
		>/dev/null 2>"$WORK/route.err" || { echo "  $e: refused: $(head -1 "$WORK/route.err")"; continue; }
	printf '  %-22s %s, peak RSS %s MB\n' "$e" \
		"$(sed -n 's/.*routed \(.*\)$/\1/p' "$WORK/route.err")" \
		"$(( $(tail -1 "$WORK/route.err") / 1024 ))"
done

echo "== static throughput per pattern (osmtopo check --route ENGINE)"
for e in $engines; do
	lmc=
	case $e in *-ador) lmc="--lmc 1" ;; esac
	# shellcheck disable=SC2086
	"$OSMTOPO" check --json $lmc --route "$e" "$net" >"$WORK/$e.json" 2>/dev/null || true
	python3 - "$e" "$WORK/$e.json" <<'PY'
import json, sys
e, path = sys.argv[1], sys.argv[2]
try:
    j = json.load(open(path))
except Exception as x:
    print(f"  {e:22s} no result ({x})"); sys.exit(0)
pats = j.get("patterns", [])
cells = " ".join(f"{p['name']}={p['throughput']:.3f}" for p in pats)
print(f"  {e:22s} credit_loops={j['credit_loops']} vls={j.get('vls_used')} {cells}")
for kind in ("spread", "best"):
    if any(kind in p for p in pats):
        cells = " ".join(f"{p['name']}={p[kind]['throughput']:.3f}" for p in pats if kind in p)
        print(f"  {'  (' + kind + ' over LIDs)':22s} {cells}")
PY
done

[ "$mode" = --offline-only ] && exit 0

echo "== stock OpenSM under ibsim on the same fabric"
ibsim_start "$net"
for e in ${BENCH_OSM_ENGINES:-minhop dfsssp ff-dor}; do
	rm -rf "${WORK:?}"/osm-cache/*
	# not opensm_once: an engine that runs out of time is a figure too
	rc=0
	"$OSMTOPO" sim opensm --dir "$WORK" --plugin-dir "$OSMTOPO_PLUGIN_DIR" \
		--once --timeout "${BENCH_OSM_TIMEOUT:-1500}" \
		--option log_flags=0x07 --option qos=TRUE \
		-- -Q -R "$e,no_fallback" 2>"$WORK/sim.err" || rc=$?
	t=$(routing_span "$e")
	if [ -z "$t" ] && [ "$rc" != 0 ]; then
		# failed, or ran out of time: osmtopo sim says which
		t="n/a ($(sed 's/^osmtopo sim: //' "$WORK/sim.err" | head -1); last: $(tail -1 "$WORK/opensm.log" | sed 's/.*-> //'))"
	fi
	printf '  OpenSM -R %-8s routing %s s (log: building routing -> tables configured)\n' "$e" "${t:-n/a}"
	grep -E "$e: routed" "$WORK/opensm.log" | sed 's/^.*-> /    /' || true
done
