#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# A second opinion, from outside osmtopo, on how evenly a live fabric's
# LFTs spread destinations: infiniband-diags' check_lft_balance.
#
# What check_lft_balance reports (read from its source, infiniband-diags
# 44): for each switch of a dump_lfts file, the number of CA LIDs each
# port forwards to ("Port 005: 112"), over the ports that are up, leaving
# out ports that carry exactly one CA LID (it takes those for a CA's own
# cable: with LMC 0 any Active port with one LID, whatever is cabled to
# it).  A switch is "Unbalanced" when the largest count exceeds the
# smallest by more than one, over all those ports together: it does not
# group ports by the switch they lead to.  It reads the cabling from an
# ibnetdiscover cache, through `iblinkinfo --load-cache`, which itself
# needs a umad port (here: ibsim's).
#
# What of ours corresponds: the same per-port counts, computed here (in
# Python, not by osmtopo's code) from `osmtopo lfts --live`, osmtopo's own
# reading of the switches, with the same rule.  The test asserts that
# check_lft_balance lists the same switches, the same ports with the same
# counts, and the same verdicts.  What osmtopo's engines promise is
# narrower: ports cabled to the same next switch (a bundle of parallel
# cables) get destinations within +-1.  So the test also asserts that
# promise, and reads check_lft_balance's verdicts for what they are:
#
#  1. hdor on kns-8x2-4cas-2links (two cables from each router to each
#     indirect switch): every indirect switch balanced; every router
#     "Unbalanced" (112/112 LIDs towards the first dimension, 14/14
#     towards the second, as DOR sends them), each bundle within +-1.
#  2. ff-dor on flatfly-3x3x3-w2-2cas (two cables between switches of a
#     line): every bundle within +-1, whatever check_lft_balance's verdict
#     over whole switches.
#  3. A fault: hdor's tables with one indirect switch's bundle made
#     lopsided by hand (every LID of one cable moved to its twin),
#     programmed into the live switches with OpenSM's "file" engine
#     (lfts_file).  check_lft_balance now calls that switch Unbalanced,
#     our bundle rule names the same switch, and `osmtopo check --live`
#     sees the consequence: uniform traffic's most loaded link carries
#     more than with hdor's own tables, so its throughput drops.
#
# Usage: test_balance_second_opinion.sh (environment as for lib.sh).

. "$(dirname "$0")/lib.sh"
e2e_init balance-second-opinion
command -v check_lft_balance >/dev/null 2>&1 ||
	{ echo "$E2E_NAME: SKIP: no check_lft_balance (infiniband-diags)" >&2; exit 77; }
for t in dump_lfts ibnetdiscover iblinkinfo python3; do
	command -v $t >/dev/null 2>&1 ||
		{ echo "$E2E_NAME: SKIP: no $t" >&2; exit 77; }
done

# route NETFILE ENGINE [KEY=VALUE]...: route the fabric once with ENGINE
# alone: with no fallback, OpenSM that fails keeps re-sweeping, `osmtopo
# sim` reads the failure in the log and stops it, so an ended sweep is
# ENGINE's.
route() {
	local net=$1 engine=$2 opts=() kv
	shift 2
	for kv in "$@"; do
		opts+=(--option "$kv")
	done
	OSM_TIMEOUT=60 opensm_once --option routing_engine="$engine,no_fallback" \
		--option qos=TRUE "${opts[@]}"
	log_has "SUBNET UP" ||
		e2e_fail "$engine did not route $(basename "$net")"
}

# readings DIR: what check_lft_balance and the test read from the live
# fabric, into DIR.
readings() {
	local dir=$1
	mkdir -p "$dir"
	sim dump_lfts >"$dir/dump.lfts" 2>"$dir/dump.err" ||
		e2e_fail "dump_lfts failed: $(tail -2 "$dir/dump.err")"
	sim ibnetdiscover --cache "$dir/ibnd.cache" >"$dir/ibnd.txt" \
		2>"$dir/ibnd.err" ||
		e2e_fail "ibnetdiscover failed: $(tail -2 "$dir/ibnd.err")"
	sim "$OSMTOPO" lfts --live -o "$dir/live.lfts" 2>"$dir/lfts.err" ||
		e2e_fail "osmtopo lfts failed: $(tail -2 "$dir/lfts.err")"
	# iblinkinfo, which it runs, opens a umad port even with a cache.
	sim check_lft_balance -v -l "$dir/dump.lfts" -i "$dir/ibnd.cache" \
		>"$dir/clb.txt" 2>"$dir/clb.err" ||
		e2e_fail "check_lft_balance failed: $(tail -2 "$dir/clb.err")"
	grep -q 'Switch Port Usage' "$dir/clb.txt" ||
		e2e_fail "check_lft_balance listed no switch: $(tail -3 "$dir/clb.err")"
}

# compare_views NETFILE DIR [WANT]: check_lft_balance's report against the
# counts from osmtopo's reading, and the bundle rule.  WANT: "routers" (the
# KNS case: exactly the switches with CAs are Unbalanced), or a switch name
# that must be the only one with a lopsided bundle; default: no bundle
# lopsided.  Prints a one-line summary.
compare_views() {
	python3 - "$@" <<'EOF'
import re, sys

net, d = sys.argv[1], sys.argv[2]
want = sys.argv[3] if len(sys.argv) > 3 else ""

def fail(msg):
    print(msg)
    sys.exit(1)

# The cabling, from the net file: (switch, port) -> remote node, and
# which nodes are CAs.
cable, kind, node = {}, {}, None
for line in open(net):
    m = re.match(r'(Switch|Ca|Hca|Rt)\s+\d+\s+"([^"]+)"', line)
    if m:
        node = m.group(2)
        kind[node] = m.group(1)
        continue
    m = re.match(r'\[(\d+)\](?:\([^)]*\))?\s+"([^"]+)"', line)
    if m and node:
        cable[(node, int(m.group(1)))] = m.group(2)

def lft_tables(path):
    """{switch: {lid: (port, is_ca)}} from dump_lfts-format text."""
    tabs, sw = {}, None
    for line in open(path):
        m = re.match(r"Unicast lids .* guid (0x[0-9a-f]+) \((.*)\):", line)
        if m:
            sw = m.group(2)
            tabs[sw] = {}
            continue
        m = re.match(r"(0x[0-9a-f]+) (\d+) : \((.*?) portguid", line)
        if m and sw is not None:
            tabs[sw][int(m.group(1), 16)] = (int(m.group(2)),
                                             m.group(3) == "Channel Adapter")
    return tabs

ours = lft_tables(d + "/live.lfts")
theirs = lft_tables(d + "/dump.lfts")
if set(ours) != set(theirs):
    fail("osmtopo lfts and dump_lfts read different switches")

# dump_lfts may leave out the highest LID (see DESIGN.md): count only the
# LIDs it printed, and say how many it missed.
missed = 0
for sw in ours:
    gone = set(ours[sw]) - set(theirs[sw])
    if gone and gone != {max(ours[sw])}:
        fail("dump_lfts misses more than the highest LID on %s: %s" % (sw, sorted(gone)))
    missed += len(gone)
    for lid in gone:
        del ours[sw][lid]
    for lid, entry in theirs[sw].items():
        if ours[sw].get(lid) != entry:
            fail("%s LID %d: osmtopo reads %s, dump_lfts %s" % (sw, lid, ours[sw].get(lid), entry))

# check_lft_balance's report: {switch: (unbalanced, {port: count})}.
report, sw = {}, None
for line in open(d + "/clb.txt"):
    m = re.match(r"(Unbalanced )?Switch Port Usage: (.*), (0x[0-9a-f]+)$", line.rstrip())
    if m:
        sw = m.group(2)
        report[sw] = (bool(m.group(1)), {})
        continue
    m = re.match(r"Port (\d+): (\d+)$", line.strip())
    if m and sw is not None:
        report[sw][1][int(m.group(1))] = int(m.group(2))

# The same rule over osmtopo's reading: CA LIDs per port; up ports (the
# cabled ones) only; a port with exactly one CA LID left out.
unbalanced, lopsided, worst = set(), set(), 0
for sw, tab in ours.items():
    count = {p: 0 for (n, p) in cable if n == sw}
    for lid, (port, is_ca) in tab.items():
        if is_ca and port:
            count[port] = count.get(port, 0) + 1
    shown = {p: c for p, c in count.items() if c != 1}
    # Its "one LID: a CA's cable" is our CA ports, here.
    for p, c in count.items():
        if (c == 1) != (kind.get(cable.get((sw, p))) in ("Ca", "Hca")):
            fail("%s port %d: %d CA LIDs but cabled to %s" % (sw, p, c, cable.get((sw, p))))
    verdict = bool(shown) and max(shown.values()) > min(shown.values()) + 1
    if verdict:
        unbalanced.add(sw)
    if sw not in report:
        fail("check_lft_balance does not list %s" % sw)
    if report[sw][1] != shown:
        fail("%s: check_lft_balance counts %s, osmtopo's reading %s" % (sw, report[sw][1], shown))
    if report[sw][0] != verdict:
        fail("%s: check_lft_balance says %s, the rule over osmtopo's reading %s" % (
            sw, "unbalanced" if report[sw][0] else "balanced",
            "unbalanced" if verdict else "balanced"))
    # osmtopo's promise: the ports of a bundle (same next switch) +-1.
    bundles = {}
    for p, c in count.items():
        peer = cable.get((sw, p))
        if kind.get(peer) == "Switch":
            bundles.setdefault(peer, []).append(c)
    for peer, cs in bundles.items():
        if len(cs) > 1:
            worst = max(worst, max(cs) - min(cs))
            if max(cs) > min(cs) + 1:
                lopsided.add(sw)

routers = {sw for sw in ours if any(kind.get(cable.get((sw, p))) in ("Ca", "Hca")
                                    for (n, p) in cable if n == sw)}
if want == "routers":
    if unbalanced != routers:
        fail("Unbalanced switches %s, not the routers" % sorted(unbalanced ^ routers))
    if lopsided:
        fail("bundles off by more than one at %s" % sorted(lopsided))
elif want:
    if lopsided != {want}:
        fail("lopsided bundles at %s, not only at %s" % (sorted(lopsided), want))
    if want not in unbalanced:
        fail("check_lft_balance does not call %s unbalanced" % want)
elif lopsided:
    fail("bundles off by more than one at %s" % sorted(lopsided))
print("%d switches agree (%d Unbalanced by check_lft_balance's whole-switch rule); "
      "bundles within %d%s%s" % (len(ours), len(unbalanced), worst,
      ", lopsided at " + ",".join(sorted(lopsided)) if lopsided else "",
      "; dump_lfts missed %d entries" % missed if missed else ""))
EOF
}

# uniform_max_load DIR: uniform traffic's most loaded link and throughput,
# by `osmtopo check --live`.  OpenSM (-o) is gone, so no SA answers for
# path SLs: check says so and takes SL 0, which the loads do not depend
# on.
uniform_max_load() {
	local dir=$1 rc=0
	sim "$OSMTOPO" check --live --json --patterns uniform \
		>"$dir/check.json" 2>"$dir/check.err" || rc=$?
	[ "$rc" -le 1 ] || e2e_fail "osmtopo check --live failed: $(tail -2 "$dir/check.err")"
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
p = [p for p in d["patterns"] if p["name"] == "uniform"][0]
print(p["max_load"], p["throughput"])' "$dir/check.json"
}

# 1. hdor on a KNS with two cables per router-switch pair
kns=$TOPOLOGIES/kns-8x2-4cas-2links.net
ibsim_start "$kns"
route "$kns" hdor
readings "$WORK/hdor"
sum_hdor=$(compare_views "$kns" "$WORK/hdor" routers) ||
	e2e_fail "hdor: $sum_hdor"
e2e_log "hdor on $(basename "$kns"): $sum_hdor"
read -r load_hdor tp_hdor < <(uniform_max_load "$WORK/hdor")

# 3. the same fabric, one indirect switch's first bundle made lopsided:
# every LID of its first cable moved to its twin, programmed by hand.
victim=$(awk '/^Unicast/ && /\(S\[/ { sub(/.*\(/, ""); sub(/\):.*/, ""); print; exit }' \
	"$WORK/hdor/live.lfts")
ports=$(awk -v v="\"$victim\"" '$1 == "Switch" && index($0, v) { on = 1; next }
	on && /^$/ { exit }
	on && /^\[/ { p = $1; gsub(/[][]/, "", p); r = $2; sub(/\[[0-9]+\]$/, "", r); print p, r }' "$kns")
read -r p1 p2 < <(awk '{ if (seen[$2]) { print seen[$2], $1; exit } seen[$2] = $1 }' <<<"$ports")
[ -n "$p2" ] || e2e_fail "no pair of parallel cables on $victim"
awk -v sw="($victim):" -v from="$(printf '%03d' "$p1")" -v to="$(printf '%03d' "$p2")" '
	/^Unicast lids/ { inside = index($0, sw) > 0 }
	inside && $2 == from { $0 = $1 " " to substr($0, 11) }
	{ print }' "$WORK/hdor/live.lfts" >"$WORK/lopsided.lfts"
cmp -s "$WORK/lopsided.lfts" "$WORK/hdor/live.lfts" &&
	e2e_fail "editing $victim's table changed nothing"
route "$kns" file lfts_file="$WORK/lopsided.lfts"
readings "$WORK/fault"
cmp -s <(grep -v '^Unicast' "$WORK/fault/live.lfts") \
	<(grep -v '^Unicast' "$WORK/lopsided.lfts") ||
	e2e_fail "the switches do not hold the edited tables"
sum_fault=$(compare_views "$kns" "$WORK/fault" "$victim") ||
	e2e_fail "fault: $sum_fault"
e2e_log "hand-edited $victim ports $p1 -> $p2: $sum_fault"
read -r load_fault tp_fault < <(uniform_max_load "$WORK/fault")
python3 -c 'import sys; a, b = map(float, sys.argv[1:]); sys.exit(0 if b > a else 1)' \
	"$load_hdor" "$load_fault" ||
	e2e_fail "uniform max load $load_fault with $victim lopsided, not above hdor's $load_hdor"
e2e_log "uniform: max load $load_hdor -> $load_fault, throughput $tp_hdor -> $tp_fault"
sim_stop

# 2. ff-dor on a FlatFly with two cables per switch pair (a new fabric:
# ibsim_start gives OpenSM fresh OSM_TMP_DIR and OSM_CACHE_DIR)
ff=$TOPOLOGIES/flatfly-3x3x3-w2-2cas.net
ibsim_start "$ff"
route "$ff" ff-dor
readings "$WORK/ff"
sum_ff=$(compare_views "$ff" "$WORK/ff") || e2e_fail "ff-dor: $sum_ff"
e2e_log "ff-dor on $(basename "$ff"): $sum_ff"

e2e_log "PASS: check_lft_balance agrees with osmtopo's reading on 3 fabrics' tables"
