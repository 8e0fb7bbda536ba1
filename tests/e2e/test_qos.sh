#!/usr/bin/env bash
# Service classes end to end: ibsim serves a 3x3 FlatFly (parallel cables,
# 2 CAs a switch, shuffled ports); stock OpenSM runs ff-twisted-dor (2 VLs)
# with QoS on, a QoS policy whose qos-levels hand out SLs 4, 0 and 7 by
# destination, and the osmtopo class table naming them (event_plugin_options
# osmtopo_qos=FILE).  Read back over MADs and from the SA: the path SL of
# each pair is the engine's layer in its destination's class block; on every
# SL2VL table class c's SL goes to VL 2c or 2c+1 (disjoint VLs); the VLArb
# tables of a switch port and a CA port read with smpquery
# with its high table empty and low weights in whole packets of each
# class; `osmtopo check --live --qos` finds every pair routed without a
# credit loop, every low table as osmtopo computes it from the flows, and
# every class's share within 1% of its target on every port.  Then a bad class
# table: an ERROR naming its line, and OpenSM still routes (no classes).
#
# With ff-mixed-dor (2 dimension orders: 2 SL layers and 2 VLs a class;
# 4 CAs a switch, parallel cables in both dimensions) the same holds with
# class c's layer s on SL 2c + s, both layers in use.
#
# usage: test_qos.sh [ENGINE]   (ff-twisted-dor, default, or ff-mixed-dor)
. "$(dirname "$0")/lib.sh"

engine=${1:-ff-twisted-dor}
# Mixed deals each switch's CAs to the orders in multiples of the last
# dimension's cable width: 4 CAs over widths 2,2 use both orders.
case $engine in
ff-twisted-dor) layers=1 gen="--widths 2,1 --cas 2" ;;
ff-mixed-dor) layers=2 gen="--widths 2,2 --cas 4" ;;
*) echo "test_qos.sh: no expectations for $engine" >&2; exit 2 ;;
esac
e2e_init "qos-$engine"
net=$WORK/ff.net
# shellcheck disable=SC2086 # $gen is words
"$OSMTOPO" gen flatfly 3x3 $gen --shuffle-ports 7 -o "$net" ||
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
	-- -Q -R "$engine"
log_has "$engine tables configured on all switches" ||
	e2e_fail "$engine was not the engine used"
log_has "classes.conf: $layers SLs and 2 VLs each" ||
	e2e_fail "no classes: $(grep -E 'osmtopo|5E0' "$WORK/opensm.log" | tail -3)"

sim "$OSMTOPO" fabric --live -o "$WORK/live.net"
sim "$OSMTOPO" lfts --live --all -o "$WORK/live.all"

# Path SLs: class block of the destination (SL // layers = class), every
# layer in use.
python3 - "$WORK/live.net" "$WORK/live.all" "$layers" <<'END' || e2e_fail "path SLs do not carry the classes"
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
S = int(sys.argv[3])
seen = 0
layers = set()
for line in open(sys.argv[2]):
    m = re.match(r'^PathSL (\d+)(?: \d+)?: (\d+)', line)
    if not m:
        continue
    d, sl = int(m.group(1)), int(m.group(2))
    if d in want:
        seen += 1
        layers.add(sl % S)
        if sl // S != want[d]:
            sys.exit("PathSL to LID %d: SL %d, want class %d" % (d, sl, want[d]))
if seen < len(want) or len(set(want.values())) != 3:
    sys.exit("only %d path SLs read for %d CAs" % (seen, len(want)))
if len(layers) != S:
    sys.exit("layers %s used, want %d" % (sorted(layers), S))
print("path SLs: %d destinations, 3 classes, %d layer(s)" % (seen, S))
END

# SL2VL: class c's SLs (cS .. cS+S-1) on VL 2c or 2c+1, on every node read.
python3 - "$WORK/live.all" "$layers" <<'END' || e2e_fail "classes share VLs"
import sys
S = int(sys.argv[2])
n = 0
for line in open(sys.argv[1]):
    if not line.startswith("SL2VL "):
        continue
    vls = line.split(":", 1)[1].split()
    vls = [int(v, 16) for v in (vls if len(vls) > 1 else list(vls[0]))]
    for sl in range(3 * S):
        if vls[sl] // 2 != sl // S:
            sys.exit("SL %d on VL %d: %s" % (sl, vls[sl], line.strip()))
    n += 1
if not n:
    sys.exit("no SL2VL table read")
print("SL2VL: %d tables, classes on disjoint VLs" % n)
END

# VLArb read with smpquery (not osmtopo's reader) on one switch port and
# one CA port: the high table is empty; each low entry is on a data VL
# of the 6 and weighs whole packets of its class (latency 256 bytes =
# 4 units on VLs 0-1, the others 2048 bytes = 32 units).
sw=$(awk '/^Switch/ {g=1} g && /lid/ {match($0, /lid [0-9]+/); print substr($0, RSTART+4, RLENGTH-4); exit}' "$WORK/live.net")
ca=$(awk '/^(Ca|Hca)/ {g=1} g && /lid/ {match($0, /lid [0-9]+/); print substr($0, RSTART+4, RLENGTH-4); exit}' "$WORK/live.net")
sim smpquery vlarb "$sw" 1 >"$WORK/vlarb.sw" || e2e_fail "smpquery vlarb $sw 1 failed"
sim smpquery vlarb "$ca" 1 >"$WORK/vlarb.ca" || e2e_fail "smpquery vlarb $ca 1 failed"
for f in "$WORK/vlarb.sw" "$WORK/vlarb.ca"; do
	python3 - "$f" <<'END' || e2e_fail "VLArb of $(basename "$f"): $(cat "$f")"
import re, sys
text = open(sys.argv[1]).read()
def table(name):
    m = re.search(name + r' priority.*?VL\s*:(.*?)\n.*?WEIGHT\s*:(.*?)\n', text, re.S | re.I)
    if not m:
        sys.exit("cannot read the %s table" % name)
    vl = [int(x, 0) for x in m.group(1).replace("|", " ").split()]
    w = [int(x, 0) for x in m.group(2).replace("|", " ").split()]
    return list(zip(vl, w))
if any(w for _, w in table("High")):
    sys.exit("high table not empty: %s" % table("High"))
low = [(v, w) for v, w in table("Low") if w]
if not low:
    sys.exit("low table empty")
for v, w in low:
    if v >= 6 or w % (4 if v < 2 else 32):
        sys.exit("entry VL %d weight %d: not whole packets of its class" % (v, w))
END
done
e2e_log "VLArb: switch LID $sw and CA LID $ca: high tables empty, low weights in whole packets"

# The checker's QoS report from the tables read back: no failure, every
# class's share within 1% on every port, every low table the one osmtopo
# computes from the flows the SA's path SLs give, no credit loop.
sim "$OSMTOPO" check --live --qos "$WORK/classes.conf" \
	--qos-layers "$layers" >"$WORK/check.out" 2>&1 ||
	e2e_fail "live check failed: $(grep -E 'FAIL|QoS|shares' "$WORK/check.out" | head -8)"
grep -q "shares within 1%: yes" "$WORK/check.out" ||
	e2e_fail "no 'shares within 1%: yes': $(grep -E 'shares|FAIL' "$WORK/check.out" | head -5)"
sim "$OSMTOPO" check --live --qos "$WORK/classes.conf" --json \
	>"$WORK/check.json" || e2e_fail "live check --json failed"
python3 - "$WORK/check.json" <<'END' || e2e_fail "QoS report: $(head -c 600 "$WORK/check.json")"
import json, sys
r = json.load(open(sys.argv[1]))
q = r["qos"]
if not (r["ok"] and q["ok"] and q["shares_within_1pct"]):
    sys.exit("not ok: %s" % q["examples"])
if q["tables_not_as_computed"] or q["tables_not_computed"] or q["credit_loop_classes"]:
    sys.exit("tables differ %d, not computed %d, loops %d: %s" % (
        q["tables_not_as_computed"], q["tables_not_computed"],
        q["credit_loop_classes"], q["examples"]))
if q["ports_with_flows"] < 30 or len({p["class"] for p in q["ports"]}) != 3:
    sys.exit("only %d ports with flows" % q["ports_with_flows"])
for p in q["ports"]:
    if abs(p["share"] - p["target"]) > 0.01 or p["worst_wait_bytes"] is None:
        sys.exit("port %s" % p)
print("QoS check: %d ports, 3 classes, worst miss %.4f" % (q["ports_with_flows"], q["worst_miss"]))
END
e2e_log "QoS check: $(grep 'shares within' "$WORK/check.out" | sed 's/^ *//')"
sim_stop

# ff-mixed-dor on 3 dimensions takes 3 orders (3 SLs, 3 VLs); 3 classes
# in 8 VLs leave it 2 VLs a class: it sheds an order instead of being
# refused, and the live QoS check still passes (every pair on SL 0's
# class here: no QoS policy file).
if [ "$engine" = ff-mixed-dor ]; then
	"$OSMTOPO" gen flatfly 3x3x2 --widths 2,2,2 --cas 4 --shuffle-ports 7 \
		-o "$WORK/ff3.net" || e2e_fail "osmtopo gen 3x3x2 failed"
	ibsim_start "$WORK/ff3.net"
	OSM_TIMEOUT=${OSM_TIMEOUT:-120} opensm_start --option qos=TRUE \
		--option max_op_vls=8 \
		--option event_plugin_options="osmtopo_qos=$WORK/classes.conf" \
		-- -Q -R "$engine"
	log_has "classes.conf: 2 SLs and 2 VLs each" ||
		e2e_fail "3 orders not shed to 2: $(grep -E 'QoS classes|5E0' "$WORK/opensm.log" | tail -3)"
	sim "$OSMTOPO" check --live --qos "$WORK/classes.conf" --qos-layers 2 \
		>"$WORK/check3.out" 2>&1 ||
		e2e_fail "live check on 3x3x2 failed: $(grep -E 'FAIL|QoS|shares' "$WORK/check3.out" | head -8)"
	grep -q "shares within 1%: yes" "$WORK/check3.out" ||
		e2e_fail "3x3x2: $(grep -E 'shares|FAIL' "$WORK/check3.out" | head -5)"
	sim_stop
	e2e_log "3x3x2: ff-mixed-dor shed to 2 orders for 3 classes; QoS check ok"
fi

# A bad class table: ERROR with its line; OpenSM routes without classes.
printf 'class latency sl 4 share 20%% distance 2\nclass oops sl 4 share 10%% distance 2\n' >"$WORK/classes.conf"
ibsim_start "$net"
OSM_TIMEOUT=${OSM_TIMEOUT:-120} opensm_once --option qos=TRUE \
	--option max_op_vls=8 \
	--option event_plugin_options="osmtopo_qos=$WORK/classes.conf" \
	-- -Q -R "$engine"
log_has "classes.conf:2: class 'oops' takes SL 4" ||
	e2e_fail "no error naming line 2: $(grep -E '5E0|osmtopo' "$WORK/opensm.log" | tail -3)"
log_has "$engine tables configured on all switches" ||
	e2e_fail "OpenSM did not route on with $engine"
e2e_log "ok: classes on disjoint VLs, tables as computed, bad table refused with its line"
