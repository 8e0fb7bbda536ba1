#!/usr/bin/env bash
# Service classes end to end: ibsim serves a 3x3 FlatFly (parallel cables,
# 2 CAs a switch, shuffled ports); stock OpenSM runs ff-twisted-dor (2 VLs)
# with QoS on, a QoS policy whose qos-levels hand out SLs 4, 0 and 7 by
# destination, and the osmtopo class table naming them (event_plugin_options
# osmtopo_qos=FILE).  Read back over MADs and from the SA: the path SL of
# each pair is the engine's layer in its destination's class block; on every
# SL2VL table class c's SL goes to VL 2c or 2c+1 (disjoint VLs); the VLArb
# low table of a switch port and a CA port is what `osmtopo qos` computes,
# mapped to the class VLs, and the high table is empty; `osmtopo check
# --live` finds every pair routed without a credit loop.  Then a bad class
# table: an ERROR naming its line, and OpenSM still routes (no classes).
#
# usage: test_qos.sh
. "$(dirname "$0")/lib.sh"

e2e_init qos
net=$WORK/ff.net
"$OSMTOPO" gen flatfly 3x3 --widths 2,1 --cas 2 --shuffle-ports 7 -o "$net" ||
	e2e_fail "osmtopo gen failed"

cat >"$WORK/classes.conf" <<'END'
# latency: SL 4, compute: SL 0 (OpenSM's default), bulk: SL 7
arbiter gmtu 2048 w 8 k 2
class latency sl 4 share 20% distance 2 mtu 256
class compute sl 0 share 60% distance 4
class bulk    sl 7 share 20% distance 4
END
cat >"$WORK/qos-policy.conf" <<'END'
port-groups
  port-group
    name: fast
    port-name: "FF[0,0]/0/P1", "FF[1,1]/0/P1"
  end-port-group
  port-group
    name: slow
    port-name: "FF[2,2]/1/P1"
  end-port-group
end-port-groups
qos-levels
  qos-level
    name: default
    sl: 0
  end-qos-level
  qos-level
    name: latency
    sl: 4
  end-qos-level
  qos-level
    name: bulk
    sl: 7
  end-qos-level
end-qos-levels
qos-match-rules
  qos-match-rule
    destination: fast
    qos-level-name: latency
  end-qos-match-rule
  qos-match-rule
    destination: slow
    qos-level-name: bulk
  end-qos-match-rule
end-qos-match-rules
END

ibsim_start "$net"
OSM_TIMEOUT=${OSM_TIMEOUT:-120} opensm_start --option qos=TRUE \
	--option max_op_vls=8 \
	--option qos_policy_file="$WORK/qos-policy.conf" \
	--option event_plugin_options="osmtopo_qos=$WORK/classes.conf" \
	-- -Q -R ff-twisted-dor
log_has "ff-twisted-dor tables configured on all switches" ||
	e2e_fail "ff-twisted-dor was not the engine used"
log_has "ff-twisted-dor: 3 QoS classes from" ||
	e2e_fail "no classes: $(grep -E 'osmtopo|5E0' "$WORK/opensm.log" | tail -3)"

sim "$OSMTOPO" fabric --live -o "$WORK/live.net"
sim "$OSMTOPO" lfts --live --all -o "$WORK/live.all"

# Path SLs: class block of the destination (1 SL layer: SL = class).
python3 - "$WORK/live.net" "$WORK/live.all" <<'END' || e2e_fail "path SLs do not carry the classes"
import re, sys
lid_of = {}
for line in open(sys.argv[1]):
    m = re.match(r'^(?:Ca|Hca)\s.*?"([^"]+)".*', line)
    if m:
        name = m.group(1)
    m = re.match(r'^\[1\].*?# lid (\d+)', line)
    if m and name:
        lid_of[name] = int(m.group(1)); name = None
want = {}
for ca, lid in lid_of.items():
    want[lid] = 0 if ca in ("FF[0,0]/0", "FF[1,1]/0") else 2 if ca == "FF[2,2]/1" else 1
seen = 0
for line in open(sys.argv[2]):
    m = re.match(r'^PathSL (\d+)(?: \d+)?: (\d+)', line)
    if not m:
        continue
    d, sl = int(m.group(1)), int(m.group(2))
    if d in want:
        seen += 1
        if sl != want[d]:
            sys.exit("PathSL to LID %d: SL %d, want class %d" % (d, sl, want[d]))
if seen < len(want) or len(set(want.values())) != 3:
    sys.exit("only %d path SLs read for %d CAs" % (seen, len(want)))
print("path SLs: %d destinations, 3 classes" % seen)
END

# SL2VL: class c's SL on VL 2c or 2c+1, on every node read.
python3 - "$WORK/live.all" <<'END' || e2e_fail "classes share VLs"
import sys
n = 0
for line in open(sys.argv[1]):
    if not line.startswith("SL2VL "):
        continue
    vls = line.split(":", 1)[1].split()
    vls = [int(v, 16) for v in (vls if len(vls) > 1 else list(vls[0]))]
    for c in range(3):
        if vls[c] // 2 != c:
            sys.exit("SL %d on VL %d: %s" % (c, vls[c], line.strip()))
    n += 1
if not n:
    sys.exit("no SL2VL table read")
print("SL2VL: %d tables, classes on disjoint VLs" % n)
END

# VLArb of one switch port and one CA port against `osmtopo qos --vls 2`
# (the engine's 2 VLs a class); each class's weight within 1% of its share.
"$OSMTOPO" qos --vls 2 --json "$WORK/classes.conf" >"$WORK/qos.json" ||
	e2e_fail "osmtopo qos refused the class table"
sw=$(awk '/^Switch/ {g=1} g && /lid/ {match($0, /lid [0-9]+/); print substr($0, RSTART+4, RLENGTH-4); exit}' "$WORK/live.net")
ca=$(awk '/^(Ca|Hca)/ {g=1} g && /lid/ {match($0, /lid [0-9]+/); print substr($0, RSTART+4, RLENGTH-4); exit}' "$WORK/live.net")
sim smpquery vlarb "$sw" 1 >"$WORK/vlarb.sw" || e2e_fail "smpquery vlarb $sw 1 failed"
sim smpquery vlarb "$ca" 1 >"$WORK/vlarb.ca" || e2e_fail "smpquery vlarb $ca 1 failed"
for f in "$WORK/vlarb.sw" "$WORK/vlarb.ca"; do
	python3 - "$WORK/qos.json" "$f" <<'END' || e2e_fail "VLArb of $(basename "$f") differs: $(cat "$f")"
import json, re, sys
q = json.load(open(sys.argv[1]))
want = [(e["vl"], e["weight"]) for e in q["vlarb_low"]]
text = open(sys.argv[2]).read()
def table(name):
    m = re.search(name + r' priority.*?VL\s*:(.*?)\n.*?WEIGHT\s*:(.*?)\n', text, re.S | re.I)
    if not m:
        sys.exit("cannot read the %s table" % name)
    vl = [int(x, 0) for x in m.group(1).replace("|", " ").split()]
    w = [int(x, 0) for x in m.group(2).replace("|", " ").split()]
    return list(zip(vl, w))
got = table("Low")
if got[:len(want)] != want or any(w for _, w in got[len(want):]):
    sys.exit("low table %s, want %s" % (got, want))
if any(w for _, w in table("High")):
    sys.exit("high table not empty: %s" % table("High"))
total = sum(w for _, w in got)
for c, k in enumerate(q["classes"]):
    share = sum(w for vl, w in got if vl // 2 == c) / total
    if abs(share - k["share"]) > 0.01:
        sys.exit("class %s gets %.4f of the weight, wants %.4f" % (k["name"], share, k["share"]))
END
done
e2e_log "VLArb: switch LID $sw and CA LID $ca hold the computed tables"

sim "$OSMTOPO" check --live >"$WORK/check.out" 2>&1 ||
	e2e_fail "live check failed: $(tail -5 "$WORK/check.out")"
sim_stop

# A bad class table: ERROR with its line; OpenSM routes without classes.
printf 'class latency sl 4 share 20%% distance 2\nclass oops sl 4 share 10%% distance 2\n' >"$WORK/classes.conf"
ibsim_start "$net"
OSM_TIMEOUT=${OSM_TIMEOUT:-120} opensm_once --option qos=TRUE \
	--option max_op_vls=8 \
	--option event_plugin_options="osmtopo_qos=$WORK/classes.conf" \
	-- -Q -R ff-twisted-dor
log_has "classes.conf:2: class 'oops' takes SL 4" ||
	e2e_fail "no error naming line 2: $(grep -E '5E0|osmtopo' "$WORK/opensm.log" | tail -3)"
log_has "ff-twisted-dor tables configured on all switches" ||
	e2e_fail "OpenSM did not route on with ff-twisted-dor"
e2e_log "ok: classes on disjoint VLs, tables as computed, bad table refused with its line"
