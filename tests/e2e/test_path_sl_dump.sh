#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The plugin's path SL dump ("event_plugin_options
# osmtopo_path_sl_dump=on", src/plugin/slsdump.c) under ibsim: OpenSM
# routes a 4 x 4 torus (2 CAs per switch) with ENGINE (QoS on, 8 VLs
# and for nue nue_max_num_vls 8,
# -D 0x43 dump files), the plugin writes osmtopo-path-sl.dump beside
# OpenSM's dump files, and
#  - exact (lash, nue: one SL per pair, the same at every query): every
#    pair's SL in the file equals the SL OpenSM's SA gives in a
#    PathRecord (`osmtopo lfts --live --all`), pair by pair, and the
#    file holds more than one SL (seen failing: the plugin writing the
#    hint instead of calling path_sl, 472 of 992 pairs differ for lash);
#  - random (dfsssp with VLs to spare draws an SL of a range at every
#    query, get_dfsssp_sl()): no pair-by-pair check; the file's SLs are
#    the SA's set of SLs;
# then, for every engine, `check --osm-dump DIR` on the file's SLs gives
# the live check's verdict (credit loops, pairs), says on stderr that it
# read the file, and without the file (SL 0 for every pair) finds credit
# loops, so the SLs matter on this fabric (seen failing: the reader
# giving SL 0 for every pair of the file: 8 credit loops, exit 1).  For lash, `simulate --osm-dump DIR` deadlocks
# under no pattern, as `simulate --live --all-paths`, and does on SL 0;
# with OpenSM's VLArb tables set aside (`--vl-arbitration rr`: the dump
# files hold none, round-robin then) the live run and the dump's are the
# same run, bit for bit; a truncated file and one of another fabric are errors, not
# SL 0; a QoS policy file makes the plugin write no file (and remove the
# earlier one) and say why; without the option no file is written.
#
# usage: test_path_sl_dump.sh ENGINE exact|random
. "$(dirname "$0")/lib.sh"
engine=$1 mode=$2
e2e_init "path-sl-dump-$engine"
net=$WORK/torus.net
torus_4x4 >"$net"
ibsim_start "$net"
mkdir -p "$WORK/dump"
extra=()
# nue uses one VL unless told more
[ "$engine" != nue ] || extra=(--option nue_max_num_vls=8)
OSM_TIMEOUT=${OSM_TIMEOUT:-300} opensm_start "${extra[@]}" --option qos=TRUE \
	--option max_op_vls=8 --option "routing_engine=$engine,no_fallback" \
	--option log_flags=0x43 --option "dump_files_dir=$WORK/dump" \
	--option event_plugin_options=osmtopo_path_sl_dump=on
osm_engine | grep -qx "$engine" || e2e_fail "$engine did not route: $(osm_engine)"
file=$WORK/dump/osmtopo-path-sl.dump
[ -f "$file" ] || e2e_fail "no $file: $(grep -a 'path SL dump' "$WORK/opensm.log")"
log_has "path SL dump: 32 LIDs of CA ports, 1024 pairs (engine $engine, hint SL 0) written" ||
	e2e_fail "the plugin did not log its dump: $(grep -a 'path SL dump' "$WORK/opensm.log")"

sim "$OSMTOPO" lfts --live --all >"$WORK/live.txt" 2>"$WORK/live.err" ||
	e2e_fail "lfts --live --all failed: $(cat "$WORK/live.err")"
python3 - "$file" "$WORK/live.txt" "$mode" <<'EOF' || e2e_fail "the file and the SA disagree: see above"
import sys
def read_dump(p):
    b = open(p, 'rb').read()
    pos = 0
    def line():
        nonlocal pos
        i = b.index(b'\n', pos)
        s = b[pos:i].decode()
        pos = i + 1
        return s
    assert line() == 'osmtopo-path-sl 1'
    hdr = {}
    while True:
        s = line()
        if s.startswith('#'):
            continue
        k, v = s.split(' ', 1)
        hdr[k] = v
        if k == 'lids':
            break
    n = int(hdr['lids'])
    lids = [int(line().split()[0]) for _ in range(n)]
    k, v = line().split()
    rb = (n + 1) // 2
    assert k == 'data' and int(v) == rb, (k, v)
    data = b[pos:pos + n * rb]
    assert b[pos + n * rb:] == b'end\n', 'no end line right after the rows'
    sl = {}
    for i, s in enumerate(lids):
        for j, d in enumerate(lids):
            x = data[i * rb + j // 2]
            sl[(s, d)] = x >> 4 if j % 2 else x & 15
    return hdr, lids, sl
hdr, lids, dump = read_dump(sys.argv[1])
mode = sys.argv[3]
live = {}
for l in open(sys.argv[2]):
    if not l.startswith('PathSL '):
        continue
    k, v = l[7:].split(':')
    ks = k.split()
    if len(ks) == 2:
        live[(int(ks[1]), int(ks[0]))] = int(v)
    else:
        for s in lids:
            if s != int(ks[0]):
                live[(s, int(ks[0]))] = int(v)
assert len(live) == len(lids) * (len(lids) - 1), ('pairs the SA answered', len(live))
assert set(p for p in dump if p[0] != p[1]) == set(live), 'the file and the SA list other pairs'
sls = sorted(set(live.values()))
assert len(sls) > 1, ('the SA gives one SL: the test cannot tell', sls)
if mode == 'exact':
    bad = [(p, dump[p], v) for p, v in live.items() if dump[p] != v]
    assert not bad, '%d of %d pairs differ (pair, file, SA): %s' % (len(bad), len(live), bad[:5])
    print('%s: all %d pairs have the SA\'s SL (SLs %s)' % (hdr['engine'], len(live), sls))
else:
    fsls = sorted(set(dump[p] for p in live))
    assert fsls == sls, ('SLs in the file', fsls, 'from the SA', sls)
    print('%s: the file and the SA use SLs %s (one random draw each)' % (hdr['engine'], sls))
EOF

# check: the file's SLs give the live verdict; SL 0 does not
"$OSMTOPO" check --json --osm-dump "$WORK/dump" >"$WORK/dump.json" 2>"$WORK/dump.err" ||
	e2e_fail "check --osm-dump failed: $(cat "$WORK/dump.err")"
grep -q "path SLs from $WORK/dump/osmtopo-path-sl.dump (engine $engine, hint SL 0, 32 LIDs)" "$WORK/dump.err" ||
	e2e_fail "check does not say it read the file: $(cat "$WORK/dump.err")"
sim "$OSMTOPO" check --json --live --all-paths >"$WORK/live.json" 2>"$WORK/live-check.err" ||
	e2e_fail "check --live failed: $(cat "$WORK/live-check.err")"
for key in pairs credit_loops unreachable forwarding_loops; do
	a=$(json_field "$WORK/dump.json" $key) b=$(json_field "$WORK/live.json" $key)
	[ "$a" = "$b" ] || e2e_fail "$key: $a from the file, $b from the live fabric"
done
[ "$(json_field "$WORK/dump.json" credit_loops)" -eq 0 ] ||
	e2e_fail "$engine: credit loops on the SA's SLs"
mkdir "$WORK/nosl"
cp "$WORK/dump"/opensm-* "$WORK/nosl/"
st=0
"$OSMTOPO" check --json --osm-dump "$WORK/nosl" >"$WORK/nosl.json" 2>"$WORK/nosl.err" || st=$?
grep -q "hold no path SLs; every path is checked on SL 0" "$WORK/nosl.err" ||
	e2e_fail "no SL 0 note without the file: $(cat "$WORK/nosl.err")"
[ "$st" -eq 1 ] && [ "$(json_field "$WORK/nosl.json" credit_loops)" -gt 0 ] ||
	e2e_fail "on SL 0 $engine has no credit loop here (status $st): the SLs do not matter, the test cannot tell"
e2e_log "check: $(json_field "$WORK/dump.json" credit_loops) credit loops on the file's SLs, as live; $(json_field "$WORK/nosl.json" credit_loops) on SL 0"

if [ "$engine" = lash ]; then
	opts=(--patterns uniform,transpose,complement --buffer 2048 --warmup 300
		--measure 600 --jobs 1 --json --ca-order guid)
	"$OSMTOPO" simulate --osm-dump "$WORK/dump" "${opts[@]}" >"$WORK/sim-dump.json" \
		2>"$WORK/sim-dump.err" || e2e_fail "simulate --osm-dump: $(cat "$WORK/sim-dump.err")"
	grep -q "path SLs from .*osmtopo-path-sl.dump" "$WORK/sim-dump.err" ||
		e2e_fail "simulate does not say it read the file: $(cat "$WORK/sim-dump.err")"
	sim "$OSMTOPO" simulate --live --all-paths "${opts[@]}" >"$WORK/sim-live.json" \
		2>"$WORK/sim-live.err" || e2e_fail "simulate --live: $(cat "$WORK/sim-live.err")"
	# OpenSM's VLArb tables set aside: the dump files' round-robin
	sim "$OSMTOPO" simulate --live --all-paths --vl-arbitration rr "${opts[@]}" \
		>"$WORK/sim-live-rr.json" 2>"$WORK/sim-live-rr.err" ||
		e2e_fail "simulate --live --vl-arbitration rr: $(cat "$WORK/sim-live-rr.err")"
	st=0
	"$OSMTOPO" simulate --osm-dump "$WORK/nosl" "${opts[@]}" >"$WORK/sim-nosl.json" \
		2>"$WORK/sim-nosl.err" || st=$?
	[ $st -le 1 ] || e2e_fail "simulate on SL 0: $(cat "$WORK/sim-nosl.err")"
	python3 - "$WORK/sim-dump.json" "$WORK/sim-live.json" "$WORK/sim-nosl.json" "$WORK/sim-live-rr.json" <<'EOF' || e2e_fail "simulate: see above"
import json, sys
d, l, z, rr = (json.load(open(p)) for p in sys.argv[1:5])
assert len(d["patterns"]) == len(l["patterns"]) == len(rr["patterns"])
for p, q, r in zip(d["patterns"], l["patterns"], rr["patterns"]):
    assert p["name"] == q["name"] == r["name"]
    assert p["deadlock"] is False and q["deadlock"] is False, (p["name"], p["deadlock"], q["deadlock"])
    print("%-10s saturation %.4f from the file, %.4f live with VLArb set aside, %.4f live (OpenSM's VLArb)"
          % (p["name"], p["saturation"], r["saturation"], q["saturation"]))
    # the same tables, SLs and arbitration: the same run, bit for bit
    assert p["saturated"] == r["saturated"], (p["name"], p["saturated"], r["saturated"])
assert d["packet_hops"] == rr["packet_hops"], (d["packet_hops"], rr["packet_hops"])
assert any(p["deadlock"] for p in z["patterns"]), "no deadlock on SL 0: the SLs do not matter here"
print("on SL 0: deadlock under", [p["name"] for p in z["patterns"] if p["deadlock"]])
EOF

	# a short file and one of another fabric are errors
	mkdir "$WORK/bad"
	cp "$WORK/dump"/opensm-* "$WORK/bad/"
	head -c -100 "$file" >"$WORK/bad/osmtopo-path-sl.dump"
	! "$OSMTOPO" check --osm-dump "$WORK/bad" >/dev/null 2>"$WORK/bad.err" ||
		e2e_fail "check accepted a truncated file"
	grep -q "truncated" "$WORK/bad.err" || e2e_fail "truncated: $(cat "$WORK/bad.err")"
	sed 's/^1 0x/999 0x/' "$file" >"$WORK/bad/osmtopo-path-sl.dump"
	! "$OSMTOPO" simulate --osm-dump "$WORK/bad" --patterns uniform >/dev/null 2>"$WORK/bad.err" ||
		e2e_fail "simulate accepted a file of another fabric"
	grep -q "another fabric or sweep" "$WORK/bad.err" || e2e_fail "other fabric: $(cat "$WORK/bad.err")"

	# a QoS policy: no file (the earlier one removed), and why
	sim_stop
	cat >"$WORK/qos-policy.conf" <<'EOF'
qos-levels
    qos-level
        name: DEFAULT
        sl: 0
    end-qos-level
end-qos-levels
EOF
	ibsim_start "$net"
	opensm_once --option qos=TRUE --option max_op_vls=8 \
		--option "routing_engine=$engine,no_fallback" \
		--option "qos_policy_file=$WORK/qos-policy.conf" \
		--option "dump_files_dir=$WORK/dump" \
		--option event_plugin_options=osmtopo_path_sl_dump=on
	log_has "a QoS policy is in force ($WORK/qos-policy.conf): its QoS levels choose the SL of each pair, which this file does not reproduce; no osmtopo-path-sl.dump written" ||
		e2e_fail "no refusal logged: $(grep -a 'path SL dump' "$WORK/opensm.log")"
	[ ! -e "$file" ] || e2e_fail "the file of the earlier routing is still there"
	# off by default
	sim_stop
	mkdir "$WORK/off"
	ibsim_start "$net"
	opensm_once --option qos=TRUE --option "routing_engine=$engine,no_fallback" \
		--option "dump_files_dir=$WORK/off"
	[ -f "$WORK/off/opensm-subnet.lst" ] || e2e_fail "OpenSM wrote no dump files"
	[ ! -e "$WORK/off/osmtopo-path-sl.dump" ] || e2e_fail "a file without the option"
fi
e2e_log "PASS: $engine: the path SL dump matches the SA ($mode)"
