#!/usr/bin/env bash
# sf-mms's non-minimal LMC layers, offline: Slim Flies of q = 5 and 7
# (the balanced CA count, shuffled ports) routed with --lmc 1 and 2.
# Per (q, LMC) and pattern: the throughput of offset 0 alone (the
# minimal paths, every flow to the base LID), with every flow spread
# evenly over its destination's 2^LMC LIDs (as an MPI library spreading
# over LIDs would), and with the best LID per flow; then the VLs used and
# the credit loops (0 expected).  Asserts nothing.
#
# usage: bench/sf-lmc.sh [Q...]   (from the build dir; default 5 7)
set -eu
osmtopo=${OSMTOPO:-$PWD/osmtopo}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
qs=${*:-5 7}
for q in $qs; do
	"$osmtopo" gen slimfly "$q" --shuffle-ports "$q" -o "$tmp/f.net"
	for lmc in 1 2; do
		"$osmtopo" check --json --lmc "$lmc" --route sf-mms "$tmp/f.net" \
			>"$tmp/c.json" || true
		python3 - "$tmp/c.json" "$q" "$lmc" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
q, lmc = sys.argv[2], sys.argv[3]
print(f"q={q} LMC {lmc}: {d['balance']['cas']} CAs, VLs used {d['vls_used']}, "
      f"credit loops {d['credit_loops']}, minimal {d['minimal_percent']:.1f}% of "
      f"{d['reached']} paths, max {d['max_hops']} hops")
print(f"  {'pattern':<12} {'offset 0':>9} {'spread':>9} {'best LID':>9}")
for p in d['patterns']:
    if p['name'].startswith('random'):
        continue
    print(f"  {p['name']:<12} {p['throughput']:9.4f} "
          f"{p['spread']['throughput']:9.4f} {p['best']['throughput']:9.4f}")
PY
	done
done
