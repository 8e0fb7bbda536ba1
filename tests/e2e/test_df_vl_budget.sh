#!/usr/bin/env bash
# df-static's Valiant layers need more VLs than a link offers: with lmc 1
# on full-graph groups the routing uses VLs 0 to 3, and with max_op_vls 2
# (VL0-1) the plugin refuses it with one log line giving the node, the
# port and the numbers (VL 3 out of it, 2 data VLs), writes no table, and
# minhop (next in -R) routes the fabric.  With lmc 0 (2 VLs) df-static
# routes the same fabric under the same limit.
#
# usage: test_df_vl_budget.sh NETFILE
. "$(dirname "$0")/lib.sh"

net=$1
e2e_init "df-vl-budget-$(basename "$net" .net)"
ibsim_start "$net"
opensm_once --option qos=TRUE --option lmc=1 --option max_op_vls=2 \
	-- -Q -R df-static,minhop
reason=$(grep -E 'df-static: cannot route' "$WORK/opensm.log" | head -1)
[ -n "$reason" ] || e2e_fail "no refusal from df-static in the log"
grep -q -E 'the routing sends VL 3 out of it, the link has 2 data VLs' <<<"$reason" ||
	e2e_fail "refusal without the numbers: $reason"
log_has "minhop tables configured on all switches" ||
	e2e_fail "minhop did not take over: $(grep 'tables configured' "$WORK/opensm.log")"
log_has "df-static tables configured" && e2e_fail "df-static claims to have routed"
e2e_log "refused: ${reason#*: cannot route}"
sim_stop
mv "$WORK/opensm.log" "$WORK/opensm-lmc1.log"
ibsim_start "$net"
opensm_once --option qos=TRUE --option lmc=0 --option max_op_vls=2 \
	-- -Q -R df-static,minhop
log_has "df-static tables configured on all switches" ||
	e2e_fail "df-static did not route with lmc 0: $(grep -E 'cannot route|tables configured' "$WORK/opensm.log" | head -3)"
echo "ok: df-static refused with lmc 1 on 2 data VLs (the numbers named), minhop took over; routed with lmc 0"
