#!/usr/bin/env bash
# Benchmark: every FlatFly engine's static throughput (`osmtopo check
# --route E`, analytic: 1 / the most loaded link, every CA injecting 1)
# on the six patterns of "Early evaluation of direct large-scale
# InfiniBand networks with adaptive routing" (uniform, complement,
# reverse, rotation, shuffle, transpose), one markdown table, with the
# VLs and the path SLs the routing uses (as the checker walked every
# pair of the same fabric).  One `osmtopo check` per engine computes all
# six patterns, and checks reachability, credit loops and the engine's
# promise on the way (a row whose check fails says so).  The ADOR
# engines run with LMC 1 and get two rows: paths to LID offset 0 alone
# ("off 0") and every flow spread evenly over the destination's LIDs
# ("all"), as an MPI library spreading over the offsets would.  Prints
# figures and each engine's CPU time, asserts nothing.
#
# usage: bench/ff-patterns.sh [SIZES WIDTHS CAS]
#   default: 4x8x8x8 2,1,1,1 8 (the paper's reference fabric, 16,384
#   CAs: 1 to 3 minutes of CPU per engine, about 15 in all)
#   (from the build dir, or set OSMTOPO)
set -eu
OSMTOPO=${OSMTOPO:-$PWD/osmtopo}
[ -x "$OSMTOPO" ] || { echo "no osmtopo at $OSMTOPO" >&2; exit 2; }
sizes=${1:-4x8x8x8}
widths=${2:-2,1,1,1}
cas=${3:-8}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/osmtopo-bench-ffpat.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
patterns=uniform,complement,reverse,rotation,shuffle,transpose
"$OSMTOPO" gen flatfly "$sizes" --widths "$widths" --cas "$cas" \
	-o "$WORK/ff.net"

# row ENGINE LMC: one or two table rows from the checker's report.
row() {
	local t0 t1
	t0=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat)
	"$OSMTOPO" check --route "$1" --lmc "$2" --patterns "$patterns" \
		"$WORK/ff.net" >"$WORK/out" 2>&1 || true
	t1=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat)
	echo "$1: $(( (t1 - t0) / $(getconf CLK_TCK) )) s CPU" >>"$WORK/cpu"
	awk -v e="$1" -v lmc="$2" '
		/^VLs used:/ { sub(/^VLs used: */, ""); gsub(/ /, ""); vl = $0 }
		/^SLs used:/ { sub(/^SLs used: */, ""); gsub(/ /, ""); sl = $0 }
		/^credit loops:/ && $3 != 0 { bad = bad " credit loops" }
		/^path violations:/ && $3 != 0 { bad = bad " promise broken" }
		/^  pattern +flows/ { part = 1; next }
		/^  with every LID/ { part = 2; next }
		/^  pattern/ { next }
		/^  most loaded/ { part = 0 }
		part == 1 && NF == 8 { base[$1] = $8 }
		part == 2 && NF == 5 { spread[$1] = $3 }
		END {
			if (!("uniform" in base)) {
				print "| " e " | no result (see osmtopo check) |"
				exit
			}
			n = split("uniform complement reverse rotation shuffle transpose", p, " ")
			line = "| " e (lmc > 0 ? " | off 0" : " | base")
			for (i = 1; i <= n; i++) line = line " | " base[p[i]]
			print line " | " vl " | " sl " |" (bad ? " **" bad " **" : "")
			if (lmc == 0) exit
			line = "| " e " | all"
			for (i = 1; i <= n; i++) line = line " | " spread[p[i]]
			print line " | " vl " | " sl " |"
		}' "$WORK/out"
}

echo "FlatFly $sizes, widths $widths, $cas CAs per switch" \
	"($(grep -c '^Ca' "$WORK/ff.net") CAs)"
echo
echo "| engine | LIDs | uniform | complement | reverse | rotation | shuffle | transpose | VLs | SLs |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for e in ff-dor ff-mixed-dor ff-twisted-dor ff-twisted-mixed-dor; do
	row "$e" 0
done
for e in ff-ador ff-mixed-ador ff-twisted-ador ff-twisted-mixed-ador; do
	row "$e" 1
done
echo
sed 's/^/CPU /' "$WORK/cpu"
