#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The multicast check of `osmtopo check --live` (src/check/mcast.c) on
# what OpenSM really programs when an osmtopo engine routes: the engine
# builds every group's spanning tree itself (mcast_build_stree,
# src/plugin/mcast.c, route/mcast.h) and OpenSM builds neither its
# min-hop matrices nor its own trees.  Under
# ibsim, OpenSM routes NETFILE with ENGINE; CAs spread over the fabric
# join OpenSM's default IPoIB broadcast group and a group of their own
# (`osmtopo fabric --live --join`, an SA MCMemberRecord Set from each CA
# through libumad2sim, SIM_HOST naming the CA).  The check reads the
# groups and members from the SA and the MFTs from every switch: every
# group's MFTs must reach every member from every member without a loop,
# and multicast must add no credit loop to the engine's VLs.  OpenSM's
# log (VERBOSE) must show the plugin's tree for both groups' MLIDs, none
# closing a credit loop, and no "Min Hop Table Assignment".
#
# With SPREAD (issue 21, doc/spread.md) the plugin spreads unicast
# destinations over groups of VLs (osmtopo_spread=SPREAD, 8 data VLs):
# the trees stay on the multicast SL's VLs, every member is still
# reached, and the check (which reads every port's SL2VL) must find no
# credit loop that multicast adds to the spread VLs.
#
# Usage: test_live_mcast.sh ENGINE NETFILE LMC [SPREAD]

. "$(dirname "$0")/lib.sh"
engine=$1 net=$2 lmc=$3 spread=${4:-}
spreadopt=()
if [ -n "$spread" ]; then
	e2e_init "live-mcast-$engine-spread-$spread"
	spreadopt=(--option max_op_vls=8
		--option event_plugin_options="osmtopo_spread=$spread")
else
	e2e_init "live-mcast-$engine"
fi

ibsim_start "$net"
OSM_TIMEOUT=${OSM_TIMEOUT:-300} opensm_start --option qos=TRUE \
	--option "lmc=$lmc" --option "routing_engine=$engine,no_fallback" \
	--option log_flags=0x07 "${spreadopt[@]}"
if [ -n "$spread" ]; then
	line=$(grep -o "$engine: .*destinations spread over [0-9]* group.*" "$WORK/opensm.log" | tail -1)
	[ -n "$line" ] || e2e_fail "no spread line in the log"
	groups=$(sed -E 's/.*spread over ([0-9]+) group.*/\1/' <<<"$line")
	[ "$groups" -gt 1 ] || e2e_fail "no spreading: $line"
	e2e_log "spread: $line"
fi

bcast=ff12:401b:ffff::ffff:ffff own=ff12:e001::7
mapfile -t cas < <(grep -E '^(Hca|Ca)' "$net" | sed -E 's/^[^"]*"([^"]*)".*/\1/')
ncas=${#cas[@]}
[ "$ncas" -ge 6 ] || e2e_fail "only $ncas CAs"
# every third CA joins the broadcast group, every fifth the other
nb=0 no=0
for ((i = 0; i < ncas; i++)); do
	groups=()
	[ $((i % 3)) -eq 0 ] && groups+=("$bcast") && nb=$((nb + 1))
	[ $((i % 5)) -eq 1 ] && groups+=("$own") && no=$((no + 1))
	for g in "${groups[@]}"; do
		mcast_join "${cas[$i]}" "$g"
	done
done
e2e_log "$nb CAs joined $bcast, $no joined $own"

mcast_check $((nb + no))
rc=$MCAST_RC
groups_with_members=$(mc groups_with_members)
members=$(mc members)
not_delivered=$(mc not_delivered)
looping_groups=$(mc looping_groups)
credit_loops=$(mc credit_loops)
e2e_log "multicast: $groups_with_members groups with members, $members members, $not_delivered not delivered, $looping_groups looping, $credit_loops credit loops with multicast"
[ "$groups_with_members" -eq 2 ] || e2e_fail "groups with members: $groups_with_members, not 2"
[ "$members" -eq $((nb + no)) ] || e2e_fail "members: $members, not $((nb + no))"
[ "$not_delivered" -eq 0 ] || e2e_fail "$not_delivered member pairs not delivered"
[ "$looping_groups" -eq 0 ] || e2e_fail "$looping_groups groups forward in a loop"
unicast=$(json_field "$WORK/check.json" credit_loops)
[ "$credit_loops" -eq "$unicast" ] ||
	e2e_fail "multicast adds credit loops: $credit_loops with it, $unicast without ($(grep -c . "$WORK/check.json") lines of report in $WORK)"
[ "$rc" -eq 0 ] || e2e_fail "check --live failed (exit $rc)"

# OpenSM's side: the plugin's trees, OpenSM's matrices never built.
log_has "Min Hop Table Assignment" &&
	e2e_fail "OpenSM built its min-hop matrices"
log_has "$engine tables configured on all switches" ||
	e2e_fail "$engine did not route"
trees=$(grep -E "$engine: MLID 0x[0-9a-f]{4}: multicast tree of " "$WORK/opensm.log" |
	sed -E 's/.*MLID (0x[0-9a-f]{4}).*/\1/' | sort -u | wc -l)
[ "$trees" -ge 2 ] ||
	e2e_fail "the plugin's tree message for $trees MLIDs, not the 2 groups'"
grep -E "$engine: MLID .*multicast tree of .*CREDIT LOOP|ERR 5E09" "$WORK/opensm.log" &&
	e2e_fail "a tree closes a credit loop with unicast"
e2e_log "OpenSM: the plugin's trees for $trees MLIDs, no credit loop, no min-hop matrices: $(grep -E "$engine: MLID .*multicast tree of" "$WORK/opensm.log" | tail -1 | sed 's/.*MLID/MLID/')"
e2e_log "PASS: $engine, lmc $lmc${spread:+, spread $spread}: 2 groups, $members members reached from every member, no loop, no credit loop added"
