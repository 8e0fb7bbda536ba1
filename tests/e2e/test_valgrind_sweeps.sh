#!/usr/bin/env bash
# OpenSM runs for months: with the plugin loaded and ENGINE routing every
# sweep (force_heavy_sweep, sweep_interval 1), OpenSM under valgrind must
# show no invalid access in the plugin and no block lost by it, however
# many sweeps it makes.  With "faults", the fabric changes under it
# through ibsim's console: a switch-to-switch cable flaps FLAPS times (a
# resweep after each change) and a switch is cut off and comes back, so
# that the engine refuses (its fallback, dfsssp, routes), routes again,
# and OpenSM asks for SL2VL and path SLs (QoS on) in every state; a leak
# per sweep or per refusal would show as blocks lost at exit.  With
# "qos", QoS is on and the plugin reads the class table of
# doc/examples/qos-classes.conf (event_plugin_options osmtopo_qos=FILE)
# again at every sweep, layering the engine's SLs and VLs per class and
# filling VL arbitration tables.  With "slsdump", QoS is on and the
# plugin writes osmtopo-path-sl.dump after every routing
# (event_plugin_options osmtopo_path_sl_dump=on), calling the engine's
# path_sl for every CA pair, as OpenSM's SA threads go on answering.  In every mode four CAs join the IPoIB
# broadcast group, so that every sweep builds its multicast tree
# (mcast_build_stree) and with it the unicast channel dependency graph
# the tree is checked against, freed when the next routing replaces it.
#
# usage: test_valgrind_sweeps.sh NETFILE [SWEEPS [ENGINE [faults|qos|slsdump]]]
. "$(dirname "$0")/lib.sh"

net=$1
sweeps=${2:-5}
engine=${3:-hdor}
mode=${4:-}
faults=
[ "$mode" = faults ] && faults=faults
FLAPS=${FLAPS:-4}
e2e_init "valgrind-$engine${mode:+-$mode}"
command -v valgrind >/dev/null 2>&1 || { e2e_log "SKIP: no valgrind"; exit 77; }

ibsim_start "$net"
engines=$engine
qos=()
if [ -n "$faults" ]; then
	engines=$engine,dfsssp
	qos=(--option qos=TRUE --option max_op_vls=8)
elif [ "$mode" = qos ]; then
	classes=${OSMTOPO_SRCDIR:-$(dirname "$0")/../..}/doc/examples/qos-classes.conf
	qos=(--option qos=TRUE --option max_op_vls=8
		--option "event_plugin_options=osmtopo_qos=$(realpath "$classes")")
elif [ "$mode" = slsdump ]; then
	mkdir "$WORK/dump"
	qos=(--option qos=TRUE --option max_op_vls=8 --option "dump_files_dir=$WORK/dump"
		--option event_plugin_options=osmtopo_path_sl_dump=on)
fi
# OpenSM under valgrind (words split at blanks: $WORK has none).
opensm_start --option sweep_interval=1 --option force_heavy_sweep=TRUE \
	--option log_flags=0x07 "${qos[@]}" \
	--wrap "valgrind --leak-check=full --show-leak-kinds=definite,indirect
	--num-callers=30 --keep-debuginfo=yes --log-file=$WORK/valgrind.log" \
	-- ${qos:+-Q} -R "$engines"

sweeps_done() {
	local n
	n=$(grep -c "$engine tables configured on all switches" "$WORK/opensm.log" 2>/dev/null)
	echo "${n:-0}"
}

mapfile -t cas < <(net_cas "$net" | awk '{ print $1 }' | head -4)
for ca in "${cas[@]}"; do
	mcast_join "$ca" ff12:401b:ffff::ffff:ffff
done

if [ -n "$faults" ]; then
	OSM_RESWEEP_TIMEOUT=300
	read -r sm_ca sm_sw < <(net_cas "$net" | head -1)
	read -r node p peer q _ < <(net_cables "$net" |
		awk -v s="$sm_sw" '$1 != s && $3 != s && $5 == "Switch"' | head -1)
	[ -n "$node" ] || e2e_fail "no switch-to-switch cable away from $sm_ca"
	for ((i = 0; i < FLAPS; i++)); do
		ibsim_cmd "Unlink \"$node\"[$p]"
		osm_resweep 1
		ibsim_cmd "ReLink \"$node\"[$p]"
		osm_resweep 1
	done
	sw=$(net_cables "$net" | awk -v s="$sm_sw" '$1 != s { print $1 }' | tail -1)
	ibsim_cmd "Unlink \"$sw\""
	osm_resweep 2
	ibsim_cmd "ReLink \"$sw\""
	osm_resweep 2
	e2e_log "\"$node\"[$p]-\"$peer\"[$q] flapped $FLAPS times, \"$sw\" down and up: $(grep -c 'cannot route this fabric' "$WORK/opensm.log") refusals, $(grep -c 'dfsssp tables configured' "$WORK/opensm.log") dfsssp sweeps"
	sweeps=$(($(sweeps_done) + sweeps))
fi

trees_built() {
	local n
	n=$(grep -c "$engine: MLID 0xc000: multicast tree of" "$WORK/opensm.log" 2>/dev/null)
	echo "${n:-0}"
}

# Enough sweeps, and two of them after the joins: under valgrind on a
# loaded machine the joins may be answered only after several sweeps.
waited=0
while [ "$(sweeps_done)" -lt "$sweeps" ] || [ "$(trees_built)" -lt 2 ]; do
	"$OSMTOPO" sim status --dir "$WORK" >/dev/null ||
		e2e_fail "opensm died: $(tail -5 "$WORK/opensm.out")"
	[ "$waited" -lt 3000 ] || e2e_fail "fewer than $sweeps $engine sweeps, or than 2 multicast trees ($(trees_built)), in 300 s"
	sleep 0.1
	waited=$((waited + 1))
done
if [ "$mode" = qos ] && ! grep -q "$engine: 3 QoS classes from" "$WORK/opensm.log"; then
	e2e_fail "the class table was not applied: $(grep -E '5E0|QoS' "$WORK/opensm.log" | tail -2)"
fi
if [ "$mode" = slsdump ]; then
	dumps=$(grep -c "path SL dump: .* pairs (engine $engine, hint SL 0) written" "$WORK/opensm.log" || true)
	[ "$dumps" -ge 2 ] && [ -s "$WORK/dump/osmtopo-path-sl.dump" ] ||
		e2e_fail "$dumps path SL dumps: $(grep 'path SL dump' "$WORK/opensm.log" | tail -2)"
fi
trees=$(trees_built)
[ "$trees" -ge 2 ] || e2e_fail "$trees multicast trees built by $engine, not one per sweep"
# SIGTERM, and time for valgrind's leak check before any SIGKILL.
"$OSMTOPO" sim stop --dir "$WORK" --opensm-only --grace 300

n=$(sweeps_done)
grep -q "ERROR SUMMARY" "$WORK/valgrind.log" || e2e_fail "valgrind did not finish: $(tail -5 "$WORK/valgrind.log")"
# Only what the plugin did counts: OpenSM has its own exit-time blocks.
# A record is the lines between two empty "==PID== " lines.
if ! awk '/^==[0-9]+== *$/ {
		if (rec ~ /Invalid|uninitialised|definitely lost|indirectly lost/ &&
		    rec ~ /libosmtopo|\((plugin|slsdump|capture|mcast|cdg|cdg_unicast|endpoints|fwdtree|qos|classes|dtable|layers|fabric|routing|hdor|kns)\.c:|by 0x[0-9A-F]+: ot_/) { printf "%s", rec; bad = 1 }
		rec = ""; next
	}
	{ rec = rec $0 "\n" }
	END { exit bad }' "$WORK/valgrind.log" >"$WORK/ours.txt"; then
	head -60 "$WORK/ours.txt" >&2
	e2e_fail "valgrind reports a problem in libosmtopo after $n sweeps"
fi
e2e_log "ok: $n $engine sweeps ($trees multicast trees) under valgrind, nothing from libosmtopo: $(grep -E 'definitely lost|ERROR SUMMARY' "$WORK/valgrind.log" | tr -s ' ' | tr '\n' ';')"
