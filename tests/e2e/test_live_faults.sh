#!/usr/bin/env bash
# Live faults: for every engine family of the table below, OpenSM runs
# with the engine (QoS on, so SL2VL and path SLs are in force; a heavy
# sweep every second) while ibsim's own console takes cables and a whole
# switch down and up again:
#   - 5% of the cables (rounded up), one by one: down, check, up, check;
#   - a switch cut off (every port), check; back, check;
#   - one switch-to-switch cable flapping 20 times, then check.
# After each step OpenSM resweeps (two heavy sweeps begun after the
# change) and the switches are read live (`osmtopo check --live`, path
# SLs from OpenSM's SA): every pair of CAs still cabled to OpenSM's CA is
# reached (the count of pairs is worked out from the net file, not from
# what was discovered), no forwarding loop, no credit loop; the engine
# that routed is the family's engine (then held to its own promise,
# --engine) or its documented fallback, and on a whole fabric it is the
# engine again.  The plugin's refusal reason ("cannot route this fabric")
# is logged at most once per step and per flap, not once per sweep.
#
# The fabrics are small, with parallel cables, several CAs per switch
# and shuffled port numbers.  The SM's own CA and its switch are never
# taken down (OpenSM would lose the fabric, not route around a fault).
#
# usage: test_live_faults.sh [PATTERN]  (of the engine or the fabric's gen arguments)
. "$(dirname "$0")/lib.sh"

# engine|fallback engines|osmtopo gen arguments of the fabric
# (add a family with one line: its engine, its fallback, its fabric)
families=(
	"hdor|dfsssp|kns 4 2 --cas 2 --links 2 --shuffle-ports 7"
	"hdor|dfsssp|kns 4 2 --cas 2 --down 2,2 --up 1,2 --parallel 2 --shuffle-ports 8"
	"ff-dor|dfsssp|flatfly 3x3 --widths 2,1 --cas 2 --shuffle-ports 5"
	"ff-twisted-dor|dfsssp|hypercube 3 --width 2 --cas 2 --shuffle-ports 3"
	"sf-mms|dfsssp|slimfly 3 --widths 2 --cas 2 --shuffle-ports 9"
	"df-static|dfsssp|dragonfly 3 1 --cas 2 --shuffle-ports 4"
	"df-static|dfsssp|dragonfly 2 2 --spines 2 --cas 2 --widths 2 --groups 3 --shuffle-ports 6"
)
pattern=${1:-}
SEED=${SEED:-20261123}
FLAPS=${FLAPS:-20}

e2e_init live-faults
command -v python3 >/dev/null 2>&1 || { e2e_log "SKIP: no python3"; exit 77; }

# Per family, the state of the fabric: which cables (NODE PORT) and
# which switch are down; CAs still cabled to the SM's CA then.
down_cables=()
down_switch=
connected_cas() {
	python3 - "$net" "$down_switch" "${down_cables[@]}" <<'EOF'
import re, sys
net, down_sw, down = sys.argv[1], sys.argv[2], set(sys.argv[3:])
adj, node, first = {}, None, None
for line in open(net):
    m = re.match(r'^(Switch|Hca|Ca)\s+\d+\s+"([^"]+)"', line)
    if m:
        node = m.group(2)
        first = first or node
        adj.setdefault(node, set())
        continue
    m = re.match(r'^\[(\d+)\]\s+"([^"]+)"\[(\d+)\]', line)
    if m and node:
        peer, p, q = m.group(2), m.group(1), m.group(3)
        if f'{node} {p}' in down or f'{peer} {q}' in down:
            continue
        if down_sw in (node, peer):
            continue
        adj[node].add(peer)
        adj.setdefault(peer, set()).add(node)
seen, todo = {first}, [first]
while todo:
    for n in adj[todo.pop()]:
        if n not in seen:
            seen.add(n)
            todo.append(n)
kinds = {m.group(2): m.group(1) for m in re.finditer(r'^(Switch|Hca|Ca)\s+\d+\s+"([^"]+)"', open(net).read(), re.M)}
print(sum(1 for n in seen if kinds[n] != 'Switch'))
EOF
}

# check_step LABEL: after a resweep, the live switches hold a routing
# that reaches every connected pair, without forwarding or credit loop,
# from the engine or its fallback; the refusal logged at most once.
check_step() {
	local label=$1 used n want promise="" key v refusals
	osm_resweep 2
	used=$(osm_engine)
	case " $engine $fallback " in
	*" $used "*) ;;
	*) e2e_fail "$engine, $label: routed by '$used', not $engine or $fallback" ;;
	esac
	if [ ${#down_cables[@]} = 0 ] && [ -z "$down_switch" ] && [ "$used" != "$engine" ]; then
		e2e_fail "$engine, $label: the fabric is whole again but $used routes it: $(grep 'cannot route' "$WORK/opensm.log" | tail -1)"
	fi
	[ "$used" = "$engine" ] && promise="--engine $engine"
	# shellcheck disable=SC2086 # the promise's two words
	sim "$OSMTOPO" check --live --json --no-balance $promise \
		>"$WORK/check.json" 2>"$WORK/check.err" || true
	[ -s "$WORK/check.json" ] ||
		e2e_fail "$engine, $label: no live check: $(tail -3 "$WORK/check.err")"
	for key in unreachable forwarding_loops credit_loops violations; do
		v=$(json_field "$WORK/check.json" "$key")
		[ "$v" = 0 ] || {
			cp "$WORK/check.json" "$WORK/failed-$engine.json"
			e2e_fail "$engine, $label ($used): $key = $v"
		}
	done
	! grep -q "path SLs not read" "$WORK/check.err" ||
		e2e_fail "$engine, $label: checked without path SLs"
	n=$(connected_cas)
	want=$((n * (n - 1)))
	v=$(json_field "$WORK/check.json" pairs)
	[ "$v" = "$want" ] ||
		e2e_fail "$engine, $label: $v pairs checked, $n CAs connected make $want"
	refusals=$(grep -c 'cannot route this fabric' "$WORK/opensm.log" || true)
	[ $((refusals - step_refusals)) -le 1 ] ||
		e2e_fail "$engine, $label: the refusal was logged $((refusals - step_refusals)) times: $(grep 'cannot route this fabric' "$WORK/opensm.log" | tail -3)"
	step_refusals=$refusals
	steps=$((steps + 1))
	[ "$used" = "$engine" ] || fallbacks=$((fallbacks + 1))
	e2e_log "$engine, $label: $used, $want pairs, no loop"
}

# down NODE PORT / up NODE PORT: one cable.
down() {
	ibsim_cmd "Unlink \"$1\"[$2]"
	down_cables+=("$1 $2")
}
up() {
	ibsim_cmd "ReLink \"$1\"[$2]"
	down_cables=()
}

run_family() {
	local total k i sw line node p peer q sm_ca sm_sw
	e2e_log "$engine (fallback $fallback) on: osmtopo gen $gen"
	# shellcheck disable=SC2086 # the generator's arguments
	"$OSMTOPO" gen $gen -o "$net" || e2e_fail "osmtopo gen $gen failed"
	ibsim_start "$net"
	OSM_TIMEOUT=${OSM_TIMEOUT:-120} opensm_start --option qos=TRUE \
		--option max_op_vls=8 --option sweep_interval=1 \
		--option force_heavy_sweep=TRUE -- -Q -R "$engine,$fallback"
	step_refusals=$(grep -c 'cannot route this fabric' "$WORK/opensm.log" || true)
	steps=0 fallbacks=0
	down_cables=()
	down_switch=
	check_step "whole fabric"
	# ibsim's refusal reaches the script: a node it does not know.
	! "$OSMTOPO" sim cmd --dir "$WORK" 'Unlink "no such node"[1]' \
		>"$WORK/bad-cmd.out" 2>&1 ||
		e2e_fail "sim cmd took a node ibsim does not know: $(cat "$WORK/bad-cmd.out")"
	grep -q 'not found' "$WORK/bad-cmd.out" ||
		e2e_fail "no ibsim reply for an unknown node: $(cat "$WORK/bad-cmd.out")"
	# ... and Dump's own "# ..." lines are no refusal.
	ibsim_cmd Dump
	grep -q '# Net status' "$WORK/ibsim-cmd.out" || e2e_fail "no reply to Dump"

	# The SM's CA (the first record) and its switch stay up.
	read -r sm_ca sm_sw < <(net_cas "$net" | head -1)
	net_cables "$net" | awk -v c="$sm_ca" '$3 != c' >"$WORK/cables"
	total=$(wc -l <"$WORK/cables")
	k=$(((total + 19) / 20))
	awk -v seed="$SEED" 'BEGIN { srand(seed) } { print rand(), $0 }' "$WORK/cables" |
		sort -n | cut -d' ' -f2- | head -"$k" >"$WORK/victims"
	i=0
	while read -r node p peer q _; do
		i=$((i + 1))
		down "$node" "$p"
		check_step "cable $i/$k \"$node\"[$p]-\"$peer\"[$q] down"
		up "$node" "$p"
		check_step "cable $i/$k up"
	done <"$WORK/victims"

	# A switch cut off: the first in seeded order that is not the SM's.
	sw=$(awk '/^Switch/ { match($0, /"[^"]*"/); print substr($0, RSTART + 1, RLENGTH - 2) }' "$net" |
		awk -v s="$sm_sw" -v seed="$SEED" 'BEGIN { srand(seed) } $0 != s { print rand(), $0 }' |
		sort -n | head -1 | cut -d' ' -f2-)
	ibsim_cmd "Unlink \"$sw\""
	down_switch=$sw
	check_step "switch \"$sw\" down"
	ibsim_cmd "ReLink \"$sw\""
	down_switch=
	check_step "switch \"$sw\" up"

	# A switch-to-switch cable flapping; the refusal at most once a flap.
	line=$(awk -v s="$sm_sw" '$1 != s && $3 != s && $5 == "Switch"' \
		"$WORK/victims" "$WORK/cables" | head -1)
	read -r node p peer q _ <<<"$line"
	[ -n "$node" ] || e2e_fail "$engine: no switch-to-switch cable to flap"
	for ((i = 0; i < FLAPS; i++)); do
		ibsim_cmd "Unlink \"$node\"[$p]"
		sleep 0.3
		ibsim_cmd "ReLink \"$node\"[$p]"
		sleep 0.3
	done
	step_refusals=$((step_refusals + FLAPS - 1)) # at most one a flap
	check_step "cable \"$node\"[$p]-\"$peer\"[$q] flapped $FLAPS times"
	e2e_log "$engine: $steps checks passed, $fallbacks routed by $fallback; $(grep -c 'cannot route this fabric' "$WORK/opensm.log" || true) refusal lines in $(osm_sweeps) sweeps"
	sim_stop
}

net=$WORK/fabric.net
ran=0
for fam in "${families[@]}"; do
	IFS='|' read -r engine fallback gen <<<"$fam"
	[ -z "$pattern" ] || [[ "$engine $gen" == *$pattern* ]] || continue
	run_family
	cp "$WORK/opensm.log" "$WORK/opensm-$engine-$ran.log"
	ran=$((ran + 1))
done
[ "$ran" -gt 0 ] || e2e_fail "no engine matches '$pattern'"
e2e_log "ok: $ran engine families"
