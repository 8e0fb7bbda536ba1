#!/usr/bin/env bash
# OpenSM's min-hop matrices with osmtopo's engines (src/plugin/mcast.c):
#
#   routes:   ENGINE routes NETFILE; its build_lid_matrices returns 0, so
#             OpenSM builds no matrix ("Min Hop Table Assignment" absent,
#             opensm-lid-matrix.dump with -D 0x47 holds no hop row), and
#             the default group's tree, as every group's, is the plugin's
#             (mcast_build_stree; CAs join it so that it has members).
#   fallback: ENGINE refuses NETFILE; minhop, next in routing_engine, gets
#             OpenSM's own matrices as before (the dump's rows toward
#             every switch LID on every switch) and OpenSM's own
#             multicast trees, which
#             `osmtopo check --live` reads back: every member reached,
#             no loop.
#
# usage: test_lid_matrices.sh routes|fallback ENGINE NETFILE
. "$(dirname "$0")/lib.sh"

mode=$1 engine=$2 net=$3
e2e_init "lid-matrices-$mode-$engine"
ibsim_start "$net"
mkdir -p "$WORK/dump"
engines=$engine
[ "$mode" = fallback ] && engines=$engine,minhop
opensm_start --option qos=TRUE \
	--option "routing_engine=$engines" --option log_flags=0x47 \
	--option "dump_files_dir=$WORK/dump"

# Every third CA joins the IPoIB broadcast group (MLID 0xc000).
bcast=ff12:401b:ffff::ffff:ffff
mapfile -t cas < <(grep -E '^(Hca|Ca)' "$net" | sed -E 's/^[^"]*"([^"]*)".*/\1/')
nb=0
for ((i = 0; i < ${#cas[@]}; i += 3)); do
	mcast_join "${cas[$i]}" "$bcast"
	nb=$((nb + 1))
done
mcast_check "$nb"
[ "$(mc members)" -eq "$nb" ] || e2e_fail "$(mc members) members, $nb joined"
[ "$(mc not_delivered)" -eq 0 ] || e2e_fail "$(mc not_delivered) member pairs not delivered"
[ "$(mc looping_groups)" -eq 0 ] || e2e_fail "the MFTs forward in a loop"

nsw=$(grep -c '^Switch' "$net")
# Rows of the matrix dump: "0xLLLL: hops... # portguid" under a switch.
rows=$(grep -c '^0x[0-9a-f]*:' "$WORK/dump/opensm-lid-matrix.dump" || true)
case $mode in
routes)
	log_has "$engine tables configured on all switches" ||
		e2e_fail "$engine did not route: $(grep -E '5E0|ERR' "$WORK/opensm.log" | head -3)"
	log_has "Min Hop Table Assignment" &&
		e2e_fail "OpenSM built its min-hop matrices"
	[ "$rows" -eq 0 ] || e2e_fail "$rows hop rows in opensm-lid-matrix.dump"
	grep -q "$engine: MLID 0xc000: multicast tree of" "$WORK/opensm.log" ||
		e2e_fail "no tree of the plugin for MLID 0xc000"
	e2e_log "ok: $engine routed, no min-hop matrix, the plugin's tree for the default group ($nb members, all reached)"
	;;
fallback)
	grep -q "$engine: cannot route this fabric" "$WORK/opensm.log" ||
		e2e_fail "$engine did not refuse"
	log_has "minhop tables configured on all switches" ||
		e2e_fail "minhop did not take over"
	log_has "Starting switches' Min Hop Table Assignment" ||
		e2e_fail "OpenSM did not build minhop's matrices"
	# (the dump lists the rows toward switch LIDs: n x n)
	[ "$rows" -ge $((nsw * nsw)) ] ||
		e2e_fail "$rows hop rows in opensm-lid-matrix.dump, $nsw switches"
	grep -q "multicast tree of" "$WORK/opensm.log" &&
		e2e_fail "the plugin built a tree for minhop's routing"
	e2e_log "ok: $engine refused, minhop routed on OpenSM's matrices ($rows hop rows), OpenSM's own tree for the default group ($nb members, all reached)"
	;;
*) e2e_fail "mode $mode" ;;
esac
