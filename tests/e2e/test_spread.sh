#!/usr/bin/env bash
# Spread groups end to end (issue 21, doc/spread.md): ibsim serves NETFILE,
# stock OpenSM with the plugin runs `-R ENGINE` with QoS on, lmc LMC, 8
# data VLs and "event_plugin_options osmtopo_spread=SPREAD".  The plugin
# says how many groups it made; read back over MADs and from the SA, the
# LFTs, the SL2VL tables and the path SLs are exactly what `osmtopo route
# --dump --spread SPREAD ENGINE` computes offline for the discovered
# fabric; `osmtopo check --live --engine ENGINE --spread SPREAD` finds
# every pair routed, no forwarding or credit loop, the promise kept (each
# hop on its destination group's VLs), and groups x the engine's VLs in
# use.  With "qos" (a 2-class table and QoS policy, issue 21 item 6):
# `check --live --qos` passes, including that every VL a port's SL2VL
# sends for an SL in use has a VLArb entry (unserved_vl 0).
#
# usage: test_spread.sh ENGINE NETFILE|gen:ARGS LMC SPREAD [qos]
. "$(dirname "$0")/lib.sh"

engine=$1
net=$2
lmc=$3
spread=$4
qos=${5:-}
gen=
case $net in
gen:*)
	gen=${net#gen:}
	gen=${gen//+/ }
	e2e_init "spread-$engine-gen$(printf %s "$gen" | cksum | cut -d' ' -f1)-$spread$qos"
	net=$WORK/gen.net
	# shellcheck disable=SC2086 # the generator's arguments
	"$OSMTOPO" gen $gen -o "$net" || e2e_fail "osmtopo gen $gen failed"
	;;
*)
	e2e_init "spread-$engine-$(basename "$net" .net)-$spread$qos"
	;;
esac

opts="osmtopo_spread=$spread"
policy=()
if [ -n "$qos" ]; then
	# the classes of issue 21 item 6: SLs 12 and 13, CAs of switch
	# coordinates summing to an even number on 12
	cat >"$WORK/classes.conf" <<'END'
class lat sl 12 share 30% distance 2 mtu 256
class rest sl 13 share 70% distance 2
END
	lat=$(grep -E '^(Hca|Ca)' "$net" | sed -E 's/.*"([^"]*)".*/\1/' |
		awk 'NR % 3 == 1 { printf "%s\"%s/P1\"", n++ ? ", " : "", $0 }')
	cat >"$WORK/qos-policy.conf" <<END
port-groups
  port-group
    name: fast
    port-name: $lat
  end-port-group
end-port-groups
qos-levels
  qos-level
    name: default
    sl: 13
  end-qos-level
  qos-level
    name: latency
    sl: 12
  end-qos-level
end-qos-levels
qos-match-rules
  qos-match-rule
    destination: fast
    qos-level-name: latency
  end-qos-match-rule
end-qos-match-rules
END
	opts="osmtopo_qos=$WORK/classes.conf,$opts"
	policy=(--option qos_policy_file="$WORK/qos-policy.conf")
fi

ibsim_start "$net"
OSM_TIMEOUT=${OSM_TIMEOUT:-300} opensm_start --option qos=TRUE \
	--option lmc="$lmc" --option max_op_vls=8 "${policy[@]}" \
	--option event_plugin_options="$opts" -- -Q -R "$engine"
log_has "$engine tables configured on all switches" ||
	e2e_fail "$engine was not the engine used: $(grep -E 'osmtopo|5E0|spread' "$WORK/opensm.log" | tail -3)"
groups=1
if [ "$spread" != off ]; then
	line=$(grep -o "$engine: .*destinations spread over [0-9]* group.*" "$WORK/opensm.log" | tail -1)
	[ -n "$line" ] || e2e_fail "no spread line in the log: $(grep -E "$engine" "$WORK/opensm.log" | tail -3)"
	e2e_log "log: $line"
	groups=$(sed -E 's/.*spread over ([0-9]+) group.*/\1/' <<<"$line")
	[ "$groups" -gt 1 ] || e2e_fail "no spreading"
fi

sim "$OSMTOPO" fabric --live -o "$WORK/live.net"
sim "$OSMTOPO" lfts --live --all -o "$WORK/live.all"

if [ -z "$qos" ]; then
	# LFTs, SL2VL and path SLs as offline with the same spread
	"$OSMTOPO" route --dump --spread "$spread" "$engine" "$WORK/live.net" \
		>"$WORK/offline.all" 2>"$WORK/offline.err" ||
		e2e_fail "offline $engine refused: $(cat "$WORK/offline.err")"
	for f in offline live; do
		grep -v -e '^#' -e '^SL2VL ' -e '^PathSL ' "$WORK/$f.all" >"$WORK/$f.lfts" || true
		grep '^SL2VL ' "$WORK/$f.all" | sort >"$WORK/$f.sl2vl" || true
		grep '^PathSL ' "$WORK/$f.all" | sort >"$WORK/$f.pathsl" || true
	done
	diff -u "$WORK/offline.lfts" "$WORK/live.lfts" >/dev/null ||
		e2e_fail "live LFTs differ from offline"
	awk '{ print $2 }' "$WORK/offline.sl2vl" | sort -u >"$WORK/guids"
	awk 'NR == FNR { g[$1]; next } $2 in g' "$WORK/guids" "$WORK/live.sl2vl" \
		>"$WORK/live.sl2vl.ours"
	[ -s "$WORK/offline.sl2vl" ] || e2e_fail "offline has no SL2VL tables"
	diff -u "$WORK/offline.sl2vl" "$WORK/live.sl2vl.ours" >"$WORK/sl2vl.diff" ||
		e2e_fail "live SL2VL differs from offline: $(head -8 "$WORK/sl2vl.diff")"
	[ -s "$WORK/live.pathsl" ] && ! grep -qx 'PathSL unknown' "$WORK/live.pathsl" ||
		e2e_fail "no path SLs from the SA"
	diff -u "$WORK/offline.pathsl" "$WORK/live.pathsl" >"$WORK/pathsl.diff" ||
		e2e_fail "path SLs from the SA differ from offline: $(head -8 "$WORK/pathsl.diff")"
	# and the comparison can fail: one path SL moved to another group
	sed -E '0,/^PathSL /{s/^(PathSL [^:]*): ([0-9]+)$/\1: 1\2/}' \
		"$WORK/live.pathsl" >"$WORK/doctored.pathsl"
	! diff -q "$WORK/offline.pathsl" "$WORK/doctored.pathsl" >/dev/null ||
		e2e_fail "a changed path SL went unnoticed"
	e2e_log "LFTs, $(wc -l <"$WORK/offline.sl2vl") SL2VL lines and $(wc -l <"$WORK/live.pathsl") path SLs equal offline --spread $spread"

	sim "$OSMTOPO" check --live --json --engine "$engine" --spread "$spread" \
		>"$WORK/check.json" 2>"$WORK/check.err" ||
		e2e_fail "live check failed: $(head -c 2000 "$WORK/check.json") $(cat "$WORK/check.err")"
	for key in unreachable forwarding_loops credit_loops violations; do
		v=$(json_field "$WORK/check.json" "$key")
		[ "$v" -eq 0 ] || e2e_fail "live check: $key = $v"
	done
	# VLs used: groups x the engine's layers, every group the same ones
	# in its own block of VLs ("N VLs a class" in the log line)
	vls=$(sed -E 's/.*: ([0-9]+) VLs a class.*/\1/' <<<"$line")
	[ "$spread" != off ] || vls=$(python3 -c 'import json,sys; print(max(json.load(open(sys.argv[1]))["vls_used"]) + 1)' "$WORK/check.json")
	nb=$(python3 - "$WORK/check.json" "$groups" "$vls" <<'END'
import json, sys
used = json.load(open(sys.argv[1]))["vls_used"]
g, v = int(sys.argv[2]), int(sys.argv[3])
per = v // g
blocks = [sorted(u % per for u in used if u // per == i) for i in range(g)]
if any(b != blocks[0] for b in blocks) or not blocks[0]:
    sys.exit("VLs used %s: the %d groups of %d VLs differ: %s" % (used, g, per, blocks))
print(len(blocks[0]))
END
) || e2e_fail "VLs used are not groups x layers"
	nv=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["vls_used"]))' "$WORK/check.json")
	[ "$nv" -eq $((groups * nb)) ] || e2e_fail "VLs used $nv, want $groups x $nb"
	e2e_log "ok: $engine, $groups groups x $nb VLs = $nv VLs used, no credit loop, promise kept"
else
	# Without groups the whole QoS check passes.  With them, a class has
	# as many VLs as arbitration entries here (4 of 8 a class), and an
	# entry's 8-bit weight (7 packets of 2 KiB) cannot follow uneven
	# flows: split_miss is a known limit (doc/spread.md), the rest holds.
	rc=0
	sim "$OSMTOPO" check --live --json --no-balance --qos "$WORK/classes.conf" \
		>"$WORK/check.json" 2>"$WORK/check.err" || rc=$?
	[ "$groups" -gt 1 ] || [ "$rc" -eq 0 ] ||
		e2e_fail "live QoS check failed: $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["qos"]["examples"], d["credit_loops"])' "$WORK/check.json" 2>&1 | head -c 3000)"
	python3 - "$WORK/check.json" <<'END' || e2e_fail "QoS check"
import json, sys
d = json.load(open(sys.argv[1]))
q = d["qos"]
for k in ("unread", "unserved_vl", "no_entry", "shared_vl", "share_miss",
          "credit_loop_classes"):
    if q[k]:
        sys.exit("%s = %s: %s" % (k, q[k], q["examples"]))
print("qos: %d ports with flows, unserved_vl 0, no VL shared by classes, shares within 1%%, split_miss %d"
      % (q["ports_with_flows"], q["split_miss"]))
END
	[ "$(json_field "$WORK/check.json" credit_loops)" -eq 0 ] ||
		e2e_fail "credit loops"
	e2e_log "ok: $engine with 2 classes, $groups group(s): every VL a port emits has a VLArb entry"
fi
