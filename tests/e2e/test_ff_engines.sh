#!/usr/bin/env bash
# One FlatFly engine end to end: ibsim serves NETFILE, stock OpenSM with the
# plugin runs `-R ENGINE` with QoS on (so SL2VL is programmed) and lmc LMC,
# and what the simulated switches hold is read back over MADs: ENGINE was
# the engine used; the LFTs, the SL2VL tables of the nodes the engine has
# tables for and the path SLs the SA hands out are exactly what `osmtopo
# route --dump ENGINE` computes offline for the discovered fabric (the
# SA must answer, and a changed VL or path SL is shown to be caught); and
# `osmtopo check --live` (SL2VL from the switches, path SLs from the SA)
# finds every pair routed, no forwarding loop and no credit loop.  For the ADOR variants, the LID
# offsets of a CA pair must give it more than one path (counted over every
# pair).  NETFILE may be gen:ARGS, ARGS for `osmtopo gen` with + for
# spaces: a damaged fabric (--drop-links) whose missing cables send some
# destinations to the escape layer -- its path SL, from the SA, and its
# VL must then be programmed as offline.
#
# usage: test_ff_engines.sh ENGINE NETFILE|gen:ARGS [LMC]
. "$(dirname "$0")/lib.sh"

engine=$1
net=$2
lmc=${3:-0}
gen=
case $net in
gen:*)
	gen=${net#gen:}
	gen=${gen//+/ }
	e2e_init "$engine-gen$(printf %s "$gen" | cksum | cut -d' ' -f1)-lmc$lmc"
	net=$WORK/gen.net
	# shellcheck disable=SC2086 # the generator's arguments
	"$OSMTOPO" gen $gen -o "$net" || e2e_fail "osmtopo gen $gen failed"
	e2e_log "fabric: osmtopo gen $gen"
	;;
*)
	e2e_init "$engine-$(basename "$net" .net)-lmc$lmc"
	;;
esac
[ -f "$net" ] || e2e_fail "no net file $net"

ibsim_start "$net"
# ibsim ports have 8 data VLs; let OpenSM use them all.  OpenSM stays up
# (no -o): the live check asks its SA for the path SLs.
OSM_TIMEOUT=${OSM_TIMEOUT:-300} opensm_start --option qos=TRUE \
	--option lmc="$lmc" --option max_op_vls=8 -- -Q -R "$engine"
log_has "$engine tables configured on all switches" ||
	e2e_fail "$engine was not the engine used: $(grep -E 'tables configured|osmtopo|ff-' "$WORK/opensm.log" | tail -3)"

sim "$OSMTOPO" fabric --live -o "$WORK/live.net"
# LFTs, SL2VL tables and path SLs (asked from OpenSM's SA), as programmed.
sim "$OSMTOPO" lfts --live --all -o "$WORK/live.all"

want=$(grep -c -E '^(Hca|Ca)' "$net")
got=$(grep -c -E '^(Hca|Ca)' "$WORK/live.net")
[ "$want" = "$got" ] || e2e_fail "discovered $got CAs, the net file has $want"

# What the engine computes offline for the discovered fabric, in the same
# text: coordinates ('#'), LFTs, "SL2VL GUID in I out O: VLS" for the
# nodes it has tables for, "PathSL DLID[ SLID]: SL".
"$OSMTOPO" route --dump "$engine" "$WORK/live.net" >"$WORK/offline.all" ||
	e2e_fail "offline $engine refused the discovered fabric"

# split_tables FILE: FILE.lfts, FILE.sl2vl and FILE.pathsl (sorted: node
# order may differ between the two readings).
split_tables() {
	grep -v -e '^#' -e '^SL2VL ' -e '^PathSL ' "$1" >"$1.lfts" || true
	grep '^SL2VL ' "$1" | sort >"$1.sl2vl" || true
	grep '^PathSL ' "$1" | sort >"$1.pathsl" || true
}

# tables_agree OFFLINE LIVE: the switches and the SA hold what the engine
# computed: the same LFTs; on every node the engine has SL2VL tables for,
# the same SL2VL entries (an engine without tables of its own leaves
# OpenSM's, which are not compared); the same path SL for every pair, and
# path SLs there must be.  Says what differs on stderr; 0 or 1.
tables_agree() {
	local off=$1 live=$2
	split_tables "$off"
	split_tables "$live"
	if ! diff -u "$off.lfts" "$live.lfts" >"$live.lfts.diff"; then
		e2e_log "live LFTs differ from offline $engine: $(head -20 "$live.lfts.diff")"
		return 1
	fi
	awk '{ print $2 }' "$off.sl2vl" | sort -u >"$off.guids"
	awk 'NR == FNR { g[$1]; next } $2 in g' "$off.guids" "$live.sl2vl" \
		>"$live.sl2vl.ours"
	if ! diff -u "$off.sl2vl" "$live.sl2vl.ours" >"$live.sl2vl.diff"; then
		e2e_log "live SL2VL differs from offline $engine on $(grep -c '^[-+]SL2VL' "$live.sl2vl.diff") lines: $(head -12 "$live.sl2vl.diff")"
		return 1
	fi
	if grep -qx 'PathSL unknown' "$live.pathsl" || ! [ -s "$live.pathsl" ]; then
		e2e_log "no path SLs from the SA: $(cat "$live.pathsl")"
		return 1
	fi
	if ! diff -u "$off.pathsl" "$live.pathsl" >"$live.pathsl.diff"; then
		e2e_log "path SLs from the SA differ from offline $engine: $(head -12 "$live.pathsl.diff")"
		return 1
	fi
}
tables_agree "$WORK/offline.all" "$WORK/live.all" ||
	e2e_fail "the fabric does not hold what offline $engine computes"
nsl2vl=$(wc -l <"$WORK/offline.all.sl2vl")
npathsl=$(wc -l <"$WORK/live.all.pathsl")
e2e_log "LFTs, $nsl2vl SL2VL entries and $npathsl path SL lines equal offline $engine's"
cp "$WORK/live.all.lfts" "$WORK/live.lfts"

# The comparison can fail: one VL of the engine's SL2VL entries, then one
# path SL, changed in a copy of what was read.
doctor() { # SED-SCRIPT NAME: the live reading edited, compared again
	sed -E "$1" "$WORK/live.all" >"$WORK/doctored-$2"
	! cmp -s "$WORK/live.all" "$WORK/doctored-$2" ||
		e2e_fail "doctoring $2 changed nothing"
	! tables_agree "$WORK/offline.all" "$WORK/doctored-$2" 2>/dev/null ||
		e2e_fail "a changed $2 went unnoticed"
}
if [ "$nsl2vl" -gt 0 ]; then
	g=$(head -1 "$WORK/offline.all.sl2vl" | awk '{ print $2 }')
	# the first entry of a node the engine has tables for: VL 0 <-> 7
	doctor "0,/^SL2VL $g /{/^SL2VL $g /{s/: 0/: 7/;t;s/: [1-9a-f]/: 0/}}" sl2vl
fi
# the first path SL: SL s -> 1s
doctor '0,/^PathSL /{s/^(PathSL [^:]*): ([0-9]+)$/\1: 1\2/}' pathsl

# The live fabric: LFTs, SL2VL and path SLs as programmed, held to the
# engine's own promise (stated by the engine run on the discovered fabric:
# dimension orders, the SL of each destination, the VL of each hop).
expect="--engine $engine"
# shellcheck disable=SC2086
if ! sim "$OSMTOPO" check --live --json $expect >"$WORK/check.json" \
	2>"$WORK/check.err"; then
	e2e_fail "live check failed: $(cat "$WORK/check.json" "$WORK/check.err")"
fi
# The same verdict offline, where path SLs come from the engine itself.
"$OSMTOPO" check --json --route "$engine" "$WORK/live.net" \
	>"$WORK/offline-check.json" ||
	e2e_fail "offline check failed: $(cat "$WORK/offline-check.json")"
for f in check offline-check; do
	for key in unreachable forwarding_loops credit_loops; do
		v=$(json_field "$WORK/$f.json" "$key")
		[ "$v" -eq 0 ] || e2e_fail "$f: $key = $v"
	done
done
for f in check offline-check; do
	v=$(json_field "$WORK/$f.json" violations)
	[ "$v" -eq 0 ] || e2e_fail "$f: $v paths break $engine's promise"
done
if grep -q "path SLs not read" "$WORK/check.err"; then
	e2e_fail "the live check ran without path SLs: $(cat "$WORK/check.err")"
fi
pairs=$(json_field "$WORK/check.json" pairs)
lids=$((want << lmc))
[ "$pairs" -eq $((want * (lids - (1 << lmc)))) ] ||
	e2e_fail "checked $pairs pairs, expected $((want * (lids - (1 << lmc))))"

routed=$(grep -o "$engine: routed [^)]*)" "$WORK/opensm.log" | tail -1)
e2e_log "${routed:-no routing summary in the OpenSM log}"
paths=
if [[ $engine == *-ador ]]; then
	# Distinct switch sequences per CA pair over the LID offsets, from
	# the live LFTs: python walks them (the tool has no path printer).
	paths=$(python3 - "$WORK/live.net" "$WORK/live.lfts" "$lmc" <<'EOF'
import re, sys
net, lfts, lmc = sys.argv[1], sys.argv[2], int(sys.argv[3])
peer, lid_of, kind, cur = {}, {}, {}, None
for line in open(net):
    m = re.match(r'^(Switch|Hca|Ca)\s+\d+\s+"([^"]+)"', line)
    if m:
        cur = m.group(2)
        kind[cur] = m.group(1)
        m2 = re.search(r'\blid (\d+)', line)
        if m2 and m.group(1) == 'Switch':
            lid_of[cur] = int(m2.group(1))
        continue
    m = re.match(r'^\[(\d+)\]\s+"([^"]+)"\[(\d+)\]', line)
    if m and cur:
        peer[(cur, int(m.group(1)))] = m.group(2)
        m2 = re.search(r'\blid (\d+)', line)
        if m2 and kind[cur] != 'Switch':
            lid_of[cur] = int(m2.group(1))
lft, sw = {}, None
for line in open(lfts):
    m = re.search(r"Unicast lids .* of switch Lid \d+ guid \S+ \((.*)\):", line)
    if m:
        sw = m.group(1)
        lft[sw] = {}
        continue
    m = re.match(r'^0x([0-9a-f]+)\s+(\d+)', line)
    if m and sw:
        lft[sw][int(m.group(1), 16)] = int(m.group(2))
cas = [n for n in kind if kind[n] != 'Switch' and n in lid_of]
total = multi = 0
for s in cas:
    for t in cas:
        if s == t:
            continue
        seen = set()
        for o in range(1 << lmc):
            d, node, path = lid_of[t] + o, peer[(s, 1)], []
            while kind[node] == 'Switch' and len(path) < 64:
                path.append(node)
                p = lft[node].get(d, 0)
                if p == 0:
                    break
                node = peer[(node, p)]
            seen.add(tuple(path))
        total += 1
        multi += len(seen) > 1
# A line of 3 or more switches (a triangle) is where ADOR has a via
# switch; a hypercube has none, and ADOR is DOR there.
nbrs = {}
for (a, _), b in peer.items():
    if kind.get(a) == 'Switch' and kind.get(b) == 'Switch':
        nbrs.setdefault(a, set()).add(b)
tri = any(c in nbrs.get(b, ()) for a in nbrs for b in nbrs[a] for c in nbrs[a] if b != c)
print(total, multi, int(tri))
EOF
) || e2e_fail "cannot count ADOR paths"
	# shellcheck disable=SC2086 # three numbers
	set -- $paths
	e2e_log "$engine: $2 of $1 CA pairs have more than one path over $((1 << lmc)) LIDs"
	[ "$1" -gt 0 ] || e2e_fail "no pairs counted"
	if [ "$3" = 1 ]; then
		[ "$2" -gt 0 ] || e2e_fail "$engine gave no pair a second path"
	else
		e2e_log "no line of 3 switches (a hypercube): ADOR is DOR here"
	fi
fi
e2e_log "ok: $engine, $want CAs, $pairs pairs, LFTs = offline, no credit loop${paths:+, ADOR pairs, multipath pairs, has lines of 3: $paths}"
