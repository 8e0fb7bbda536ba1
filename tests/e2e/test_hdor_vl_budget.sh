#!/usr/bin/env bash
# hdor's further escape layers need VLs 2 and 3 (route/hdor_ft_esc.c);
# on links with 2 data VLs (max_op_vls 2) and no QoS class table the
# plugin runs hdor again within the links' VLs (plugin.c: fit_link_vls)
# instead of refusing it: hdor routes the heavily damaged KNS on VLs 0
# and 1 (one escape layer, as before the layers), and with the default
# max_op_vls on more.
#
# usage: test_hdor_vl_budget.sh GEN_ARGS (osmtopo gen's, + for spaces)
. "$(dirname "$0")/lib.sh"

gen=${1//+/ }
e2e_init "hdor-vl-budget"
net=$WORK/gen.net
# shellcheck disable=SC2086 # the generator's arguments
"$OSMTOPO" gen $gen -o "$net" || e2e_fail "osmtopo gen $gen failed"
ibsim_start "$net"
opensm_once --option qos=TRUE --option max_op_vls=2 -- -Q -R hdor,minhop
log_has "hdor tables configured on all switches" ||
	e2e_fail "hdor did not route within 2 data VLs: $(grep -E 'cannot route|tables configured' "$WORK/opensm.log" | head -3)"
grep -q -E 'hdor: routed .* 2 VLs, SL2VL\)' "$WORK/opensm.log" ||
	e2e_fail "hdor not on 2 VLs: $(grep -E 'hdor: routed' "$WORK/opensm.log" | head -1)"
sim_stop
mv "$WORK/opensm.log" "$WORK/opensm-2vls.log"
ibsim_start "$net"
opensm_once --option qos=TRUE -- -Q -R hdor,minhop
grep -q -E 'hdor: routed .* [34] VLs, SL2VL\)' "$WORK/opensm.log" ||
	e2e_fail "hdor without a VL limit not on 3 or 4 VLs: $(grep -E 'hdor: routed|cannot route' "$WORK/opensm.log" | head -1)"
echo "ok: hdor routed within 2 data VLs (one escape layer) and on $(grep -o -E '[34] VLs' "$WORK/opensm.log" | head -1) by default"
