#!/usr/bin/env bash
# Benchmark: every FlatFly engine's static throughput (`osmtopo check
# --route E`, analytic: 1 / the most loaded link, every CA injecting 1)
# on the six patterns of "Early evaluation of direct large-scale
# InfiniBand networks with adaptive routing" (uniform, complement,
# reverse, rotation, shuffle, transpose), one markdown table, with the
# VLs the routing uses (as the checker walked them) and the path SLs
# (distinct PathSL values of `osmtopo route --dump` on a small fabric of
# the same dimensions and widths: the SLs depend on the number of
# dimensions and on damage, not on the sizes; dumping the LFTs of the
# reference fabric would take gigabytes).  The ADOR engines run with LMC
# 1 and get two rows: paths to LID offset 0 alone ("off 0") and every
# flow spread evenly over the destination's LIDs ("all"), as an MPI
# library spreading over the offsets would.  Prints figures, asserts
# nothing.
#
# usage: bench/ff-patterns.sh [SIZES WIDTHS CAS SMALL]
#   default: 4x8x8x8 2,1,1,1 8 2x2x2x2 (the paper's reference fabric,
#   16,384 CAs: about a minute per engine on one core)
#   (from the build dir, or set OSMTOPO)
set -eu
OSMTOPO=${OSMTOPO:-$PWD/osmtopo}
[ -x "$OSMTOPO" ] || { echo "no osmtopo at $OSMTOPO" >&2; exit 2; }
sizes=${1:-4x8x8x8}
widths=${2:-2,1,1,1}
cas=${3:-8}
small=${4:-2x2x2x2}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/osmtopo-bench-ffpat.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
patterns=uniform,complement,reverse,rotation,shuffle,transpose
"$OSMTOPO" gen flatfly "$sizes" --widths "$widths" --cas "$cas" \
	-o "$WORK/ff.net"
"$OSMTOPO" gen flatfly "$small" --widths "$widths" --cas "$cas" \
	-o "$WORK/small.net"

# sls ENGINE LMC: distinct path SLs on the small fabric.
sls() {
	"$OSMTOPO" route --dump --lmc "$2" "$1" "$WORK/small.net" |
		awk '$1 == "PathSL" { print $3 }' | sort -nu | paste -sd,
}

# row ENGINE LMC: one or two table rows from the checker's report.
row() {
	"$OSMTOPO" check --route "$1" --lmc "$2" --patterns "$patterns" \
		"$WORK/ff.net" >"$WORK/out" 2>&1 || true
	awk -v e="$1" -v lmc="$2" -v sl="$(sls "$1" "$2")" '
		/^VLs used:/ { sub(/^VLs used: */, ""); gsub(/ /, ""); vl = $0 }
		/^  pattern +flows/ { part = 1; next }
		/^  with every LID/ { part = 2; next }
		/^  pattern/ { next }
		/^  most loaded/ { part = 0 }
		part == 1 && NF == 8 { base[$1] = $8 }
		part == 2 && NF == 5 { spread[$1] = $3 }
		END {
			n = split("uniform complement reverse rotation shuffle transpose", p, " ")
			line = "| " e (lmc > 0 ? " | off 0" : " | base")
			for (i = 1; i <= n; i++) line = line " | " base[p[i]]
			print line " | " vl " | " sl " |"
			if (lmc == 0) exit
			line = "| " e " | all"
			for (i = 1; i <= n; i++) line = line " | " spread[p[i]]
			print line " | " vl " | " sl " |"
		}' "$WORK/out"
}

echo "FlatFly $sizes, widths $widths, $cas CAs per switch" \
	"($(grep -c '^Ca' "$WORK/ff.net") CAs); SLs on $small"
echo
echo "| engine | LIDs | uniform | complement | reverse | rotation | shuffle | transpose | VLs | SLs |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for e in ff-dor ff-mixed-dor ff-twisted-dor ff-twisted-mixed-dor; do
	row "$e" 0
done
for e in ff-ador ff-mixed-ador ff-twisted-ador ff-twisted-mixed-ador; do
	row "$e" 1
done
