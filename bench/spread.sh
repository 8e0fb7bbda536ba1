#!/usr/bin/env bash
# Saturation throughput with and without spread groups (doc/spread.md):
# for each ENGINE:NETFILE[:LMC] and each SPREAD (off, N, auto, with
# :lid, :switch or :coord), one `osmtopo simulate --route ENGINE --spread
# SPREAD --patterns PATTERNS` run; one markdown row per (fabric, engine,
# spread, buffer): the saturation throughput of each pattern (mean over
# the CAs, a fraction of link rate).  BUFFER per VL in bytes; "total"
# divides 16384 * (the VLs without spreading) by the VLs used, so that
# the spread tables get no more buffer per port than the engine alone.
#
# -a prints the checker's analytic throughput beside each simulated
# figure ("simulated / analytic"); -o passes further simulate options
# (for example "--warmup 300 --measure 500" on 16K fabrics).
#
# usage (from the build dir): bench/spread.sh [-p PATTERNS] [-b BUFFER|total]
#        [-s SPREADS] [-a] [-o SIMULATE-OPTIONS] ENGINE:NETFILE[:LMC]...
set -eu
osmtopo=${OSMTOPO:-./osmtopo}
patterns=uniform,complement,reverse,shuffle,transpose,rotation
spreads="off auto"
buffer=16384
analytic=-A
extra=""
while getopts p:b:s:ao: o; do
	case $o in
	p) patterns=$OPTARG ;;
	b) buffer=$OPTARG ;;
	s) spreads=$OPTARG ;;
	a) analytic="" ;;
	o) extra=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
printf '| fabric | engine | spread | VLs | buffer/VL |'
IFS=, read -ra pats <<<"$patterns"
for p in "${pats[@]}"; do printf ' %s |' "$p"; done
printf '\n|---|---|---|---|---|'
for p in "${pats[@]}"; do printf -- '---|'; done
printf '\n'
for spec in "$@"; do
	IFS=: read -r engine net lmc <<<"$spec"
	lmcopt=()
	[ -n "${lmc:-}" ] && lmcopt=(--lmc "$lmc")
	# the engine's own VLs, for -b total
	base_vls=$("$osmtopo" check --route "$engine" "${lmcopt[@]}" --spread off \
		--no-balance "$net" 2>/dev/null |
		awk -F: '/^VLs used/ { n = split($2, a, ","); print n }')
	for s in $spreads; do
		vls=$("$osmtopo" check --route "$engine" "${lmcopt[@]}" --spread "$s" \
			--no-balance "$net" 2>/dev/null |
			awk -F: '/^VLs used/ { n = split($2, a, ","); print n }')
		b=$buffer
		if [ "$buffer" = total ]; then
			b=$((16384 * base_vls / vls / 64 * 64))
			[ "$b" -ge 2048 ] || b=2048
		fi
		# shellcheck disable=SC2086 # $analytic and $extra are option lists
		out=$(nice "$osmtopo" simulate --route "$engine" "${lmcopt[@]}" \
			--spread "$s" --patterns "$patterns" --buffer "$b" $analytic \
			$extra -j 1 "$net" 2>&1) || { echo "| $(basename "$net" .net) | $engine | $s | failed: $(tail -1 <<<"$out") |"; continue; }
		printf '| %s | %s | %s | %s | %s |' "$(basename "$net" .net)" \
			"$engine" "$s" "$vls" "$b"
		for p in "${pats[@]}"; do
			v=$(awk -v p="$p" '$1 == p ":" && $2 == "saturation" {
				v = $3
				for (i = 4; i < NF; i++)
					if ($i == "analytic")
						v = v " / " $(i + 1)
				print v
			}' <<<"$out")
			printf ' %s |' "${v:--}"
		done
		printf '\n'
	done
done
