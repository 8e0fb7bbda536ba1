#!/usr/bin/env bash
# Benchmark: how the ff-* engines cope with missing cables.  For each
# fabric and fraction of switch-to-switch cables dropped at random, and
# for each engine, SEEDS damaged fabrics (`osmtopo gen ... --drop-links F
# --seed S`) are routed and checked offline (`osmtopo check --no-balance
# --route ENGINE`); the table counts, per engine:
#   routed   every pair reached, no forwarding loop, no credit loop
#   refused  the engine declined the fabric (its reason is kept in the log)
#   broken   routed, but the checker found an unreachable pair, a loop or
#            a credit loop -- must always be 0
#   vls      the most VLs any routed fabric needed
#   min%     pairs on a shortest path, averaged over the routed fabrics
# The ADOR variants run with --lmc 1.  Prints figures; exits non-zero
# only when some fabric is broken.
#
# usage: bench/ff-damage.sh [-j JOBS] [-s SEEDS] [-b BIG_SEEDS] [FRACTION...]
#        (from the build dir; default fractions 0.05 0.10, 100 seeds,
#        20 for the 4x8x8x8 FlatFly)
set -eu
jobs=$(nproc)
seeds=100
big_seeds=20
while getopts j:s:b: opt; do
	case $opt in
	j) jobs=$OPTARG ;;
	s) seeds=$OPTARG ;;
	b) big_seeds=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
fractions=${*:-0.05 0.10}
OSMTOPO=${OSMTOPO:-$PWD/osmtopo}
[ -x "$OSMTOPO" ] || { echo "no $OSMTOPO: run from the build directory or set OSMTOPO" >&2; exit 2; }
export OSMTOPO
work=$(mktemp -d "${TMPDIR:-/tmp}/ff-damage.XXXXXX")
trap 'rm -rf "$work"' EXIT

engines="ff-dor ff-mixed-dor ff-twisted-dor ff-twisted-mixed-dor ff-ador ff-mixed-ador ff-twisted-ador"
# name|gen arguments|seeds
fabrics=(
	"flatfly 3x3x3 w2,1,1|flatfly 3x3x3 --widths 2,1,1 --cas 4|$seeds"
	"flatfly 4x4x3|flatfly 4x4x3 --cas 4|$seeds"
	"flatfly 4x8x8x8 w2,1,1,1|flatfly 4x8x8x8 --widths 2,1,1,1 --cas 2|$big_seeds"
	"hypercube 4-D|hypercube 4 --cas 4|$seeds"
	"hypercube 6-D|hypercube 6 --cas 2|$seeds"
)

# One job: fabric index, fraction, seed -> one line per engine in a file.
one() {
	local fi=$1 frac=$2 seed=$3 gen=${4//+/ } net e lmc rc
	net=$work/f$fi-$frac-$seed.net
	# shellcheck disable=SC2086 # gen arguments
	"$OSMTOPO" gen $gen --drop-links "$frac" --seed "$seed" -o "$net" 2>/dev/null ||
		{ echo "$fi $frac $seed - gen-failed" >"$net.res"; return; }
	: >"$net.res"
	for e in $engines; do
		lmc=
		case $e in *ador) lmc="--lmc 1" ;; esac
		rc=0
		# shellcheck disable=SC2086
		"$OSMTOPO" check --no-balance --json $lmc --route "$e" "$net" \
			>"$net.$e.json" 2>"$net.$e.err" || rc=$?
		echo "$fi $frac $seed $e $rc $net.$e.json $net.$e.err" >>"$net.res"
	done
	rm -f "$net"
}
export -f one
export work engines

{
	for fi in "${!fabrics[@]}"; do
		IFS='|' read -r _ gen n <<<"${fabrics[$fi]}"
		for frac in $fractions; do
			for seed in $(seq 1 "$n"); do
				echo "$fi $frac $seed ${gen// /+}"
			done
		done
	done
} | xargs -P "$jobs" -n 4 bash -c 'one "$@"' one

names=$(printf '%s\n' "${fabrics[@]}" | cut -d'|' -f1)
cat "$work"/*.res >"$work/all"
python3 - "$work/all" "$names" "$engines" "$fractions" <<'PY'
import collections
import json
import sys

names = sys.argv[2].split("\n")
engines = sys.argv[3].split()
fractions = sys.argv[4].split()
stats = collections.defaultdict(lambda: dict(n=0, routed=0, refused=0, broken=0,
                                             vls=0, minimal=0.0,
                                             reasons=collections.Counter()))
bad = 0
for line in open(sys.argv[1]):
    f = line.split()
    fi, frac, seed, e = int(f[0]), f[1], f[2], f[3]
    if e == "-":
        continue
    jpath, epath = f[5], f[6]
    s = stats[(fi, frac, e)]
    s["n"] += 1
    try:
        j = json.load(open(jpath))
    except (OSError, ValueError):
        j = None
    if j is None:
        s["refused"] += 1
        why = open(epath).read().strip().split(": ", 3)[-1][:70]
        s["reasons"][why] += 1
        continue
    if j["unreachable"] or j["forwarding_loops"] or j["credit_loops"]:
        s["broken"] += 1
        bad += 1
        print("BROKEN: %s drop %s seed %s %s: unreachable %d, loops %d, credit loops %d"
              % (names[fi], frac, seed, e, j["unreachable"],
                 j["forwarding_loops"], j["credit_loops"]))
        continue
    s["routed"] += 1
    s["vls"] = max(s["vls"], len(j.get("vls_used", [])))
    s["minimal"] += j["minimal_percent"]
print("%-26s %5s %-21s %5s %6s %7s %6s %3s %6s"
      % ("fabric", "drop", "engine", "seeds", "routed", "refused", "broken",
         "vls", "min%"))
for fi, name in enumerate(names):
    for frac in fractions:
        for e in engines:
            s = stats.get((fi, frac, e))
            if not s:
                continue
            m = s["minimal"] / s["routed"] if s["routed"] else 0
            print("%-26s %5s %-21s %5d %6d %7d %6d %3d %6.2f"
                  % (name, frac, e, s["n"], s["routed"], s["refused"],
                     s["broken"], s["vls"], m))
            for why, k in s["reasons"].most_common(2):
                print("%33s refused %dx: %s" % ("", k, why))
sys.exit(1 if bad else 0)
PY
