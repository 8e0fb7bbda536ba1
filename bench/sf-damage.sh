#!/usr/bin/env bash
# Damage tolerance of sf-mms, offline: Slim Flies of q = 5, 7, 13 with a
# fraction of switch-to-switch cables removed, or of switches removed
# (seeds 1..5, shuffled ports).  Per (q, what, fraction): how many draws
# the recognizer accepts and sf-mms routes (the rest it refuses: a search
# that gives up, or a fabric cut in two), and over the routed ones the CA
# pairs on a shortest path (detours are shortest paths; the escape
# layer's are not always), the most VLs a draw used, how many draws
# needed the escape layer, and credit loops (always 0 expected).
# Asserts nothing.
#
# usage: bench/sf-damage.sh [Q...]   (from the build dir; default 5 7 13)
set -eu
osmtopo=${OSMTOPO:-$PWD/osmtopo}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
printf '%-4s %-9s %-6s %-8s %-10s %-4s %-7s %s\n' q missing drop routed minimal VLs escape credit-loops
for q in ${*:-5 7 13}; do
	for what in links switches; do
		for drop in 0.01 0.05 0.1 0.2 0.3 0.4; do
			ok=0 min=0 pairs=0 loops=0 vls=0 esc=0
			for seed in 1 2 3 4 5; do
				"$osmtopo" gen slimfly "$q" --cas 2 --drop-$what "$drop" \
					--seed "$seed" --shuffle-ports "$seed" -o "$tmp/f.net"
				if "$osmtopo" check --no-balance --json --route sf-mms \
					"$tmp/f.net" >"$tmp/c.json" 2>/dev/null; then
					ok=$((ok + 1))
					read -r m p l v e < <(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["minimal"], d["reached"], d["credit_loops"], len(d["vls_used"]), int("escape layer" in json.dumps(d["promise"])))' "$tmp/c.json")
					min=$((min + m)) pairs=$((pairs + p)) loops=$((loops + l))
					esc=$((esc + e))
					[ "$v" -le "$vls" ] || vls=$v
				fi
			done
			printf '%-4s %-9s %-6s %-8s %-10s %-4s %-7s %s\n' "$q" "$what" "$drop" "$ok/5" \
				"$(awk -v a="$min" -v b="$pairs" 'BEGIN { if (b) printf "%.1f%%", 100 * a / b; else print "-" }')" \
				"$vls" "$esc/$ok" "$loops"
		done
	done
done
