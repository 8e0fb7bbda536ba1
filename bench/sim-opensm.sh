#!/usr/bin/env bash
# OpenSM's own engines (and osmtopo's) simulated on the tables they
# program: for each engine, ibsim serves NETFILE, stock OpenSM (QoS on, 8
# VLs, osmtopo's plugin loaded) routes it and stays up so that its SA
# answers path SLs, and `osmtopo simulate --live` reads LFTs, SL2VL,
# VLArb and path SLs back and simulates them (the checker's analytic
# figure of the same tables beside it).  One markdown row per engine;
# an engine OpenSM could not run says so.  Asserts nothing.
#
# usage: bench/sim-opensm.sh NETFILE [ENGINE...] [-- SIMULATE OPTIONS...]
#   default engines: minhop dfsssp lash nue; default options:
#   --patterns uniform,random --warmup 500 --measure 1000
#   (from the build dir, or set OSMTOPO and OSMTOPO_PLUGIN_DIR)
set -u
OSMTOPO=${OSMTOPO:-$PWD/osmtopo}
PLUGIN=${OSMTOPO_PLUGIN_DIR:-$PWD/.libs}
net=$(readlink -f "$1")
shift
engines=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do engines+=("$1"); shift; done
[ "${1:-}" = -- ] && shift
opts=("$@")
[ ${#opts[@]} -gt 0 ] || opts=(--patterns uniform,random --warmup 500 --measure 1000)
[ ${#engines[@]} -gt 0 ] || engines=(minhop dfsssp lash nue)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/osmtopo-bench-simosm.XXXXXX")
trap '"$OSMTOPO" sim stop --dir "$WORK/sim" >/dev/null 2>&1; rm -rf "$WORK"' EXIT

echo "$(basename "$net"): simulate --live ${opts[*]}"
echo
echo "| engine | pattern | simulated saturation | least CA | analytic | deadlock |"
echo "|---|---|---|---|---|---|"
for e in "${engines[@]}"; do
	rm -rf "$WORK/sim"
	"$OSMTOPO" sim start --dir "$WORK/sim" "$net" >/dev/null 2>&1 ||
		{ echo "| $e | ibsim did not start |"; continue; }
	if ! "$OSMTOPO" sim opensm --dir "$WORK/sim" --plugin-dir "$PLUGIN" \
		--timeout 600 --option qos=TRUE --option max_op_vls=8 \
		-- -Q -R "$e,no_fallback" >/dev/null 2>&1; then
		echo "| $e | OpenSM did not route it |"
		"$OSMTOPO" sim stop --dir "$WORK/sim" >/dev/null 2>&1
		continue
	fi
	"$OSMTOPO" sim run --dir "$WORK/sim" -- "$OSMTOPO" simulate --live \
		--json "${opts[@]}" >"$WORK/out.json" 2>"$WORK/err"
	"$OSMTOPO" sim stop --dir "$WORK/sim" >/dev/null 2>&1
	if [ ! -s "$WORK/out.json" ]; then
		echo "| $e | simulate failed: $(head -c 200 "$WORK/err" | tr '\n' ' ') |"
		continue
	fi
	jq -r --arg e "$e" '.patterns[] | "| \($e) | \(.name) | \(.saturation * 1000 | round / 1000) | \(.saturation_min * 1000 | round / 1000) | \(if .analytic then (.analytic * 1000 | round / 1000) else "-" end) | \(.deadlock) |"' "$WORK/out.json"
done
