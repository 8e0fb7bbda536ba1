#!/usr/bin/env bash
# The Dragonfly recognizer's tolerance table: on a Dragonfly (default the
# balanced a=8, h=4, g=33, one CA per switch) with a fraction of the
# switches, then of the cables left, removed at random (`osmtopo gen
# dragonfly --drop-switches S --drop-links L --seed N`), per (S, L) over
# SEEDS seeds: how often the recognizer finds the groups as built (every
# switch's group one to one with the [group,switch] its name carries), how
# often df-static refuses, and the share of CA LIDs df-static leaves to
# its escape layer.  Prints the table, asserts nothing.
#
# With FLAT (A1,A2, A = A1*A2) the groups are 2-D FlatFlies
# (--flat-groups), "groups exact" then as for full graphs.
#
# usage: bench/df-tolerance.sh [A H [SEEDS [ARRANGEMENT [FLAT]]]]   (from the build dir)
set -eu
a=${1:-8}
h=${2:-4}
seeds=${3:-5}
arr=${4:-random}
flat=${5:-}
flatopt=${flat:+--flat-groups $flat}
OSMTOPO=${OSMTOPO:-$PWD/osmtopo}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/osmtopo-df-tol.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
echo "Dragonfly a=$a h=$h g=$((a * h + 1))${flat:+ (groups as ${flat/,/x} FlatFlies)}, 1 CA per switch, $arr arrangement, $seeds seeds per cell"
printf '%-10s %-8s %-14s %-9s %s\n' switches cables "groups exact" refused "LIDs on escape (avg)"
for ds in 0 0.1 0.2 0.3 0.4; do
	for dl in 0 0.05 0.1 0.15; do
		exact=0 refused=0 esc=0 lids=0
		for seed in $(seq 1 "$seeds"); do
			# shellcheck disable=SC2086 # $flatopt: none or two words
			"$OSMTOPO" gen dragonfly "$a" "$h" --cas 1 --arrangement "$arr" $flatopt \
				--drop-switches "$ds" --drop-links "$dl" --seed "$seed" \
				-o "$WORK/f.net"
			if ! "$OSMTOPO" route --dump df-static "$WORK/f.net" \
				>"$WORK/out" 2>/dev/null; then
				refused=$((refused + 1))
				continue
			fi
			# "# switch [G,i] ... "DF[g,j]"": recognized G <-> built g
			awk '/^# switch \[/ {
				split($3, r, /[][,]/); match($0, /"DF\[[0-9]+,/);
				b = substr($0, RSTART + 4, RLENGTH - 5);
				if ((r[2] in fw && fw[r[2]] != b) || (b in bw && bw[b] != r[2])) bad = 1;
				fw[r[2]] = b; bw[b] = r[2] }
				END { exit bad }' "$WORK/out" && exact=$((exact + 1))
			esc=$((esc + $(grep -c '^PathSL [0-9]*: 1$' "$WORK/out" || true)))
			lids=$((lids + $(grep -c -E '^(Ca|Hca)' "$WORK/f.net")))
		done
		share=$(awk -v e="$esc" -v l="$lids" 'BEGIN { printf "%.0f%%", l ? 100 * e / l : 0 }')
		printf '%-10s %-8s %-14s %-9s %s\n' "$ds" "$dl" "$exact/$seeds" "$refused/$seeds" "$share"
	done
done
