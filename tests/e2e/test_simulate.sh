#!/usr/bin/env bash
# `osmtopo simulate` end to end.  Offline: ENGINE routes NETFILE and the
# simulator's JSON must hold every pattern asked for, with no deadlock, a
# saturation in (0, 1] whose least CA is no better than the checker's
# analytic throughput, every low load accepted as offered and the
# packet-hops counted.  Live: ibsim serves NETFILE, stock OpenSM runs
# ENGINE with QoS on, and `osmtopo simulate --live` reads the LFTs,
# SL2VL and VLArb tables and path SLs back.  With `--vl-arbitration rr`
# (the VLArb tables set aside: offline has none) the same routing gives
# the same result as offline, bit for bit: every saturation, every load
# point and the packet-hops (CAs numbered by GUID in both).  With the
# VLArb tables OpenSM programs under QoS (its defaults), the arbitration
# differs and so may the figures: within 0.02.
#
# usage: test_simulate.sh ENGINE NETFILE | test_simulate.sh qos NETFILE
. "$(dirname "$0")/lib.sh"

# qos: doc/qos.md's example (ff-twisted-dor, its QoS policy and class
# table, under ibsim), simulated live with --qos: figures per class.
# Uniform traffic: the three classes each on their own SL (class c's
# layer 0 is SL c: the engine has one SL layer), the class figures add
# up to the whole (packets, accepted rate, shares), their latencies are
# set and the p99 is no smaller than the mean.  Two flows that meet at
# one output port of FF[2,2,1] (the twisted first hop), one bulk and one
# compute, split that link: compute, with the larger weight, gets more.
if [ "$1" = qos ]; then
	net=$2
	e2e_init simulate-qos
	ibsim_start "$net"
	opensm_start --option qos=TRUE --option max_op_vls=8 \
		--option qos_high_limit=0 \
		--option qos_policy_file="$OSMTOPO_SRCDIR/doc/examples/qos-policy.conf" \
		--option event_plugin_options="osmtopo_qos=$OSMTOPO_SRCDIR/doc/examples/qos-classes.conf" \
		-- -R ff-twisted-dor
	log_has "ff-twisted-dor tables configured on all switches" ||
		e2e_fail "ff-twisted-dor did not route"
	classes=$OSMTOPO_SRCDIR/doc/examples/qos-classes.conf
	printf 'FF[2,2,1]/0 FF[2,2,2]/0 1\nFF[2,2,1]/1 FF[2,0,2]/0 1\n' >"$WORK/pairs"
	sim "$OSMTOPO" simulate --live --qos "$classes" --patterns uniform \
		--pairs "$WORK/pairs" --loads 0.3 --warmup 500 --measure 1500 \
		--jobs 1 --json >"$WORK/qos.json" 2>"$WORK/qos.err" ||
		e2e_fail "simulate --live --qos failed: $(cat "$WORK/qos.err")"
	sim "$OSMTOPO" simulate --live --qos "$classes" --patterns uniform \
		--warmup 200 --measure 300 --jobs 1 >"$WORK/qos.txt" 2>&1 ||
		e2e_fail "simulate --live --qos (text) failed: $(cat "$WORK/qos.txt")"
	grep -Eq '^    class compute +0\.[0-9]{3} +[0-9.]+% .* SL 1$' "$WORK/qos.txt" ||
		e2e_fail "no class line in the table: $(cat "$WORK/qos.txt")"
	python3 - "$WORK/qos.json" <<'PY' || e2e_fail "per-class figures: see above"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["qos"]["classes"] == 3 and r["qos"]["sl_layers"] == 1, r["qos"]
uni, pairs = r["patterns"]
assert uni["name"] == "uniform" and pairs["name"] == "pairs"
for pt in [uni["saturated"]] + uni["points"]:
    pc = pt["per_class"]
    assert sorted(pc) == ["bulk", "compute", "latency"], pc
    assert [pc[c]["sls"] for c in ("latency", "compute", "bulk")] == [[0], [1], [2]], pc
    assert sum(c["delivered"] for c in pc.values()) == pt["delivered"], pt
    assert abs(sum(c["accepted"] for c in pc.values()) - pt["accepted"]) < 1e-6, pt
    assert abs(sum(c["share"] for c in pc.values()) - 1) < 1e-6, pc
    m = r["model"]
    # a latency is measured for packets made in the window: at most the window
    window_ns = m["measure"] * m["mtu"] * 8 / m["rate_gbps"]
    for name, c in pc.items():
        assert c["latency_ns_mean"] > 0 and c["latency_ns_p99"] >= 0.9 * c["latency_ns_mean"], (name, c)
        assert c["latency_ns_p99"] <= window_ns, (name, c, window_ns)
        print("uniform %-9s %-8s accepted %.3f share %.3f (target %.2f) latency %.0f ns p99 %.0f ns"
              % ("saturated" if pt["offered"] == 1 else pt["offered"], name,
                 c["accepted"], c["share"], c["target"], c["latency_ns_mean"],
                 c["latency_ns_p99"]))
pc = pairs["saturated"]["per_class"]
assert sorted(pc) == ["bulk", "compute"], pc
print("pairs: compute %.3f bulk %.3f of the shared link" % (
    2 * pc["compute"]["accepted"], 2 * pc["bulk"]["accepted"]))
assert abs(2 * (pc["compute"]["accepted"] + pc["bulk"]["accepted"]) - 1) < 0.02, pc
assert pc["compute"]["accepted"] > pc["bulk"]["accepted"], pc
PY
	e2e_log "ok: per-class figures of doc/qos.md's example"
	exit 0
fi

engine=$1
net=$2
e2e_init "simulate-$engine"
opts=(--patterns uniform,neighbor,random --loads 0.2,0.5 --warmup 300
	--measure 600 --ca-order guid --seed 3 --json)

"$OSMTOPO" simulate --route "$engine" "${opts[@]}" --svg "$WORK/offline.svg" \
	"$net" >"$WORK/offline.json" 2>"$WORK/offline.err" ||
	e2e_fail "simulate --route failed: $(cat "$WORK/offline.err")"
# the SVG (src/sim/plot.c, shared with compare --svg): well-formed, one
# chart, a curve per pattern, two vertices per pattern and panel
python3 - "$WORK/offline.json" "$WORK/offline.svg" <<'PY' || e2e_fail "offline JSON: see above"
import json, sys
import xml.etree.ElementTree as ET
r = json.load(open(sys.argv[1]))
names = [p["name"] for p in r["patterns"]]
assert names == ["uniform", "neighbor", "random-1"], names
ns = {"s": "http://www.w3.org/2000/svg"}
charts = ET.parse(sys.argv[2]).getroot().findall("s:g[@class='chart']", ns)
assert len(charts) == 1, len(charts)
curves = charts[0].findall("s:g[@class='curve']", ns)
assert [g.get("data-name") for g in curves] == names, [g.get("data-name") for g in curves]
assert all(len(g.findall("s:circle", ns)) == 4 for g in curves)
assert r["packet_hops"] > 0 and r["cpu_s"] > 0
for p in r["patterns"]:
    assert p["deadlock"] is False, p["name"]
    assert 0 < p["saturation"] <= 1.0 + 1e-9, p
    assert p["saturation_min"] <= p["analytic"] + 0.01, p
    assert len(p["points"]) == 2, p
    low = p["points"][0]
    assert abs(low["offered"] - 0.2) < 1e-9, low
    assert abs(low["accepted"] - 0.2) < 0.02, (p["name"], low)
    assert low["latency_ns"]["mean"] > 0, low
    assert low["unrouted"] == 0 and low["misdelivered"] == 0, low
    print("%s: saturation %.3f (least %.3f), analytic %.3f, at 0.2: %.3f"
          % (p["name"], p["saturation"], p["saturation_min"],
             p["analytic"], low["accepted"]))
PY

# ebb:3: three random bisections simulated at saturation, their mean
# beside the checker's ebb of the same bisections (same seed)
"$OSMTOPO" simulate --route "$engine" --patterns ebb:3 --warmup 200 \
	--measure 400 --seed 3 --json "$net" >"$WORK/ebb.json" 2>"$WORK/ebb.err" ||
	e2e_fail "simulate --patterns ebb:3 failed: $(cat "$WORK/ebb.err")"
"$OSMTOPO" check --route "$engine" --patterns ebb:3 --seed 3 --json "$net" \
	>"$WORK/ebb-check.json" 2>/dev/null ||
	e2e_fail "check --patterns ebb:3 failed"
python3 - "$WORK/ebb.json" "$WORK/ebb-check.json" <<'PY' || e2e_fail "simulated ebb: see above"
import json, sys
r = json.load(open(sys.argv[1]))
c = [p for p in json.load(open(sys.argv[2]))["patterns"] if p["name"] == "ebb"][0]
names = [p["name"] for p in r["patterns"]]
assert names == ["ebb-1", "ebb-2", "ebb-3"], names
e = r["ebb"]
mean = sum(p["saturation"] for p in r["patterns"]) / 3
assert e["bisections"] == 3 and abs(e["saturation"] - mean) < 1e-9, e
assert abs(e["analytic"] - c["ebb"]) < 1e-6 and c["bisections"] == 3, (e, c)
assert 0 < e["saturation"] <= 1 and not e["deadlock"], e
print("ebb:3 simulated %.3f (least CA %.3f), analytic %.3f" % (
    e["saturation"], e["saturation_min"], e["analytic"]))
PY

# tables with a hole: one CA's LID taken out of every switch's LFT.  The
# packets to it are dropped; the table says so beside the figures (they
# count delivered packets only) and the JSON counts them.
"$OSMTOPO" route --lfts-only "$engine" "$net" >"$WORK/full.lfts" 2>/dev/null ||
	e2e_fail "route --lfts-only failed"
hole=$(awk '/Channel Adapter/ { print $1; exit }' "$WORK/full.lfts")
grep -v "^$hole " "$WORK/full.lfts" >"$WORK/hole.lfts"
# LFT files have no SL2VL: an engine that needs 2 VLs may deadlock on
# VL 0 alone (exit 1), which is not what this part checks
st=0
"$OSMTOPO" simulate --patterns uniform --warmup 200 --measure 400 --jobs 1 \
	"$net" "$WORK/hole.lfts" >"$WORK/hole.txt" 2>&1 || st=$?
[ $st -le 1 ] ||
	e2e_fail "simulate of tables with a hole failed: $(cat "$WORK/hole.txt")"
grep -Eq '^  saturated: [1-9][0-9]* packets had no route .* were dropped' "$WORK/hole.txt" ||
	e2e_fail "dropped packets not reported: $(cat "$WORK/hole.txt")"
"$OSMTOPO" simulate --patterns uniform --warmup 200 --measure 400 --jobs 1 \
	--json "$net" "$WORK/hole.lfts" 2>/dev/null |
	python3 -c 'import json, sys; p = json.load(sys.stdin)["patterns"][0]; assert p["saturated"]["unrouted"] > 0, p' ||
	e2e_fail "JSON without the dropped packets"
e2e_log "ok: LID $hole taken out of the LFTs: $(grep -o '[0-9]* packets had no route' "$WORK/hole.txt")"

ibsim_start "$net"
OSM_TIMEOUT=${OSM_TIMEOUT:-300} opensm_start --option qos=TRUE -- -R "$engine"
log_has "$engine tables configured on all switches" ||
	e2e_fail "$engine did not route"
sim "$OSMTOPO" simulate --live "${opts[@]}" --no-analytic \
	>"$WORK/live.json" 2>"$WORK/live.err" ||
	e2e_fail "simulate --live failed: $(cat "$WORK/live.err")"
sim "$OSMTOPO" simulate --live --vl-arbitration rr "${opts[@]}" --no-analytic \
	>"$WORK/live-rr.json" 2>"$WORK/live-rr.err" ||
	e2e_fail "simulate --live --vl-arbitration rr failed: $(cat "$WORK/live-rr.err")"
python3 - "$WORK/offline.json" "$WORK/live.json" "$WORK/live-rr.json" <<'PY' || e2e_fail "live and offline differ"
import json, sys
off = json.load(open(sys.argv[1]))
live = json.load(open(sys.argv[2]))
rr = json.load(open(sys.argv[3]))
# VLs may differ: OpenSM programs its default SL2VL where the engine has none
assert live["cas"] == off["cas"] == rr["cas"], (live["cas"], off["cas"])
assert off["model"]["vl_arbitration"] == "rr", off["model"]
assert live["model"]["vl_arbitration"] == "tables", live["model"]
assert rr["model"]["vl_arbitration"] == "rr", rr["model"]
assert len(off["patterns"]) == len(live["patterns"]) == len(rr["patterns"])
for a, b, c in zip(off["patterns"], live["patterns"], rr["patterns"]):
    assert a["name"] == b["name"] == c["name"]
    assert b["deadlock"] is False
    d = abs(a["saturation"] - b["saturation"])
    print("%s: offline %.4f live %.4f (VLArb set aside %.4f)"
          % (a["name"], a["saturation"], b["saturation"], c["saturation"]))
    assert d <= 0.02, (a["name"], a["saturation"], b["saturation"])
    # the same tables: the same run, bit for bit
    assert c["saturation"] == a["saturation"], (a["name"], a, c)
    assert c["saturated"] == a["saturated"], (a["name"], a["saturated"], c["saturated"])
    assert c["points"] == a["points"], (a["name"], a["points"], c["points"])
assert rr["packet_hops"] == off["packet_hops"], (rr["packet_hops"], off["packet_hops"])
print("packet-hops: offline %d, live with VLArb set aside %d, live %d"
      % (off["packet_hops"], rr["packet_hops"], live["packet_hops"]))
PY
e2e_log "ok: $engine simulated offline and live alike"
