#!/usr/bin/env bash
# Benchmark: sf-mms on a Slim Fly (default q = 13: 338 switches, 7 CAs
# each, 2,366 CAs) against OpenSM's minhop, dfsssp and lash.  Prints
# figures, asserts nothing:
#   1. offline `osmtopo route sf-mms`: routing time (the engine's
#      phases) and peak memory (GNU time), 3 runs;
#   2. --dumps (the default): one ibsim, stock OpenSM once per engine with
#      QoS on and its dump files: each engine's routing time from
#      OpenSM's log (VERBOSE "building routing with" to "tables
#      configured"), its own log line about VLs/SLs, then `osmtopo check
#      --osm-dump` on the LFTs it programmed: hops and static throughput
#      per traffic pattern (uniform, complement, reverse, shuffle,
#      transpose, rotation, ...; the bit patterns on ceil(log2 N) bits, a
#      CA whose partner is >= N sends nothing: see `osmtopo check --help`).
#      Dump files carry no path SLs, so VLs and credit loops there are
#      for SL 0 only;
#   3. --compare: one `osmtopo compare` run instead (the live check with
#      path SLs from the SA; about 10 minutes per engine on q = 13 under
#      ibsim on a shared 2-core machine).
#
# usage: bench/sf.sh [Q [CAS]] [--offline-only|--dumps|--compare]
#        (from the build dir)
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

engines="sf-mms minhop dfsssp lash"
if [ "$offline_only" = --compare ]; then
	echo "== osmtopo compare (ibsim, stock OpenSM, QoS on)"
	# shellcheck disable=SC2086 # engine list
	"$OSMTOPO" compare --timeout 1200 "$net" $engines
	exit 0
fi

ibsim_start "$net"
for e in $engines; do
	rm -rf "${WORK:?}"/osm-cache/* "$WORK/dump"
	mkdir -p "$WORK/dump"
	opensm_once --option qos=TRUE \
		--option max_op_vls=8 -- -Q -R "$e" -D 0x47 \
		--dump_files_dir "$WORK/dump"
	printf '== OpenSM -R %s: routing %s s (from the log)\n' "$e" \
		"$(routing_span "$e")"
	grep -E "$e: routed|[Uu]sing [0-9]+ (VLs|SLs)|VLs? (used|needed)|lash.*(layers|SL)|dfsssp.*(VL|SL)" \
		"$WORK/opensm.log" | sed 's/^/  /' | head -4 || true
	"$OSMTOPO" check --osm-dump "$WORK/dump" >"$WORK/check-$e.txt" 2>&1 || true
	grep -E "^(reached|minimal|hops|VLs used|credit loops)|^  (pattern|uniform|complement|reverse|shuffle|transpose|rotation|neighbor|random)" \
		"$WORK/check-$e.txt" | sed 's/^/  /'
done
