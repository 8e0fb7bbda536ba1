#!/usr/bin/env bash
# Benchmark: how osmtopo's costs grow with the fabric, for FlatFlies of
# about 1K, 4K and 16K CAs (8 CAs per switch).  Prints figures, asserts
# nothing.  Per size and engine:
#   offline   `osmtopo route --lfts-only` (reading, recognizing, routing):
#             wall time and peak RSS (GNU time);
#   OpenSM    one simulated fabric (ibsim), OpenSM as a daemon with the
#             engine, then with minhop on the same ibsim: routing span
#             ("building routing" to "tables configured", log_flags 0x07)
#             and OpenSM's peak RSS (VmHWM) at SUBNET UP;
#   checker   `osmtopo check --live --no-balance --engine E` against the
#             engine's OpenSM (LFTs, SL2VL, sampled path SLs): wall time.
# and the memory of the LFTs: bytes per (switch, LID) entry of r->lft.
#
# Other families at about 16K CAs, each with its engine: kns16k (hdor on
# the 16-ary 3-direct KNS, 4 CAs a router), knsft16k (the same with every
# line 2 leaves and 4 spines, s = 2), sf16k (sf-mms on the Slim Fly
# q = 23, 16 CAs a switch), df16k (df-static on a Dragonfly a=16 h=8,
# 129 groups, 8 CAs a switch), dfp16k (df-static on a Dragonfly+ of 128
# groups of 16 leaves with 8 CAs and 16 spines with 8 global cables).
#
# usage: bench/scale.sh [SIZES]   (from the build dir, or set OSMTOPO;
#        SIZES: any of 1k 4k 16k kns16k knsft16k sf16k df16k dfp16k, default "1k 4k";
#        ENGINES default "ff-dor ff-ador" for the FlatFlies; NO_LIVE=1
#        skips OpenSM and the checker, NO_CHECK=1 the checker)
set -eu
OSMTOPO=${OSMTOPO:-$PWD/osmtopo}
PLUGIN_DIR=${OSMTOPO_PLUGIN_DIR:-$(dirname "$OSMTOPO")/.libs}
ENGINES=${ENGINES:-ff-dor ff-ador}
SIZES=${*:-1k 4k}
[ -x "$OSMTOPO" ] || { echo "no osmtopo at $OSMTOPO" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs GNU time (apt-get install time)" >&2; exit 2; }
# routing_span ENGINE, from the e2e helpers (reads $WORK/opensm.log
# there); sourced first: it empties WORK
# shellcheck source=../tests/e2e/lib.sh
. "$(dirname "$0")/../tests/e2e/lib.sh"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/osmtopo-bench-scale.XXXXXX")
cleanup() {
	"$OSMTOPO" sim stop --dir "$WORK/sim" >/dev/null 2>&1 || true
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
set +e
echo "machine: $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"

gen_args() {
	case $1 in
	1k) echo "flatfly 4x4x8 --cas 8" ;;
	4k) echo "flatfly 8x8x8 --cas 8" ;;
	16k) echo "flatfly 4x8x8x8 --widths 2,1,1,1 --cas 8" ;;
	kns16k) echo "kns 16 3 --cas 4" ;;
	knsft16k) echo "kns 16 3 --cas 4 --down 8,2 --up 1,4" ;;
	sf16k) echo "slimfly 23 --cas 16" ;;
	df16k) echo "dragonfly 16 8 --cas 8 --groups 129" ;;
	dfp16k) echo "dragonfly 16 8 --spines 16 --cas 8 --groups 128" ;;
	*) echo "unknown size $1" >&2; return 1 ;;
	esac
}

# The engines of a size: the family's own, or ENGINES for FlatFlies.
engines_of() {
	case $1 in
	kns16k) echo hdor ;;
	knsft16k) echo hdor ;;
	sf16k) echo sf-mms ;;
	df16k | dfp16k) echo df-static ;;
	*) echo "$ENGINES" ;;
	esac
}

# lmc_of ENGINE: the LMC the engine needs.
lmc_of() { case $1 in *ador) echo 1 ;; *) echo 0 ;; esac; }

offline() {
	local engine=$1 net=$2 lmc
	lmc=$(lmc_of "$engine")
	/usr/bin/time -f "%e %M" -o "$WORK/time" "$OSMTOPO" route --time \
		--lfts-only --lmc "$lmc" "$engine" "$net" >/dev/null 2>"$WORK/err" ||
		{ echo "  $engine offline: failed: $(tail -1 "$WORK/err")"; return; }
	read -r wall rss <"$WORK/time"
	routed=$(sed -n 's/.* routed .* in \([0-9.]*\) s$/\1/p' "$WORK/err")
	printf '  %-10s offline  routing %7s s  wall %7.2f s (with printing the LFTs)  peak RSS %6d MB\n' \
		"$engine" "$routed" "$wall" "$((rss / 1024))"
}

# opensm_run ENGINE: OpenSM up with ENGINE; prints span and VmHWM.
opensm_run() {
	local engine=$1 lmc pid span
	lmc=$(lmc_of "$engine")
	"$OSMTOPO" sim stop --dir "$WORK/sim" --opensm-only >/dev/null 2>&1
	"$OSMTOPO" sim opensm --dir "$WORK/sim" --plugin-dir "$PLUGIN_DIR" \
		--timeout 1800 --option qos=TRUE --option "lmc=$lmc" \
		--option log_flags=0x07 \
		--option "routing_engine=$engine,no_fallback" >"$WORK/osm.out" 2>&1 ||
		{ echo "  $engine OpenSM: no SUBNET UP: $(tail -2 "$WORK/osm.out" | tr '\n' ' ')"; return 1; }
	read -r pid _ <"$WORK/sim/opensm.pid" 2>/dev/null
	span=$(WORK=$WORK/sim routing_span "$engine")
	printf '  %-10s OpenSM   span %7s s  peak RSS %6d MB\n' "$engine" \
		"${span:-?}" "$(($(awk '/VmHWM/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo 0) / 1024))"
}

checker() {
	local engine=$1 rc=0 wall rss
	/usr/bin/time -f "%e %M" -o "$WORK/time" "$OSMTOPO" sim run --dir "$WORK/sim" -- \
		"$OSMTOPO" check --live --no-balance --engine "$engine" \
		>"$WORK/check.out" 2>"$WORK/check.err" || rc=$?
	# GNU time puts "Command exited with non-zero status N" or
	# "Command terminated by signal N" before the figures
	read -r wall rss < <(tail -1 "$WORK/time")
	[ "$rc" -eq 0 ] || echo "  $engine checker exit $rc: $(head -1 "$WORK/time")"
	printf '  %-10s checker  wall %7.2f s  peak RSS %6d MB  %s; %s\n' "$engine" \
		"$wall" "$((rss / 1024))" "$(tail -1 "$WORK/check.out")" \
		"$(grep -o '[0-9]* pairs checked on SLs the SA gave, [0-9]* on sampled' "$WORK/check.err")"
}

for size in $SIZES; do
	args=$(gen_args "$size") || exit 2
	net=$WORK/$size.net
	# shellcheck disable=SC2086
	"$OSMTOPO" gen $args >"$net"
	sw=$(grep -c '^Switch' "$net")
	cas=$(grep -c -E '^(Ca|Hca)' "$net")
	echo "== $size: $sw switches, $cas CAs ($args)"
	echo "  LFT memory: $sw switches x $((sw + cas)) LIDs (lmc 0) = $((sw * (sw + cas) / 1024)) KB at 1 byte per entry"
	for e in $(engines_of "$size"); do
		offline "$e" "$net"
	done
	[ "${NO_LIVE:-0}" = 1 ] && continue
	"$OSMTOPO" sim start --dir "$WORK/sim" --timeout 600 "$net" >/dev/null ||
		{ echo "  ibsim did not start"; continue; }
	for e in $(engines_of "$size"); do
		opensm_run "$e" && { [ "${NO_CHECK:-0}" = 1 ] || checker "$e"; }
		opensm_run minhop
	done
	"$OSMTOPO" sim stop --dir "$WORK/sim" >/dev/null 2>&1
	rm -rf "$WORK/sim"
done
