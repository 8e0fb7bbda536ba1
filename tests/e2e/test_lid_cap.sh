#!/usr/bin/env bash
# The simulated switches' LinearFDBCap (issue 25): OpenSM hands out
# unicast LIDs only up to the least LinearFDBCap of the fabric
# ("Subnet max unicast lid is ..."), and ibsim's default, 0x7800, made
# the 16K FlatFly with LMC 1 (34,817 LIDs) run out (ERR 0307).
# `osmtopo sim start` starts ibsim with -L 49152: OpenSM's limit stays
# the last unicast LID, 0xBFFF, and it logs no lower one (it logs
# "Subnet max unicast lid is" only when a switch reports less).
#
# usage: test_lid_cap.sh NETFILE
. "$(dirname "$0")/lib.sh"

net=$1
e2e_init "lid-cap"
ibsim_start "$net"
opensm_once --option routing_engine=ff-dor --option log_flags=0x07 \
	--option lmc=1
log_has "ff-dor tables configured on all switches" ||
	e2e_fail "ff-dor did not route: $(grep -E 'ERR' "$WORK/opensm.log" | head -3)"
log_has "Subnet max unicast lid is" &&
	e2e_fail "OpenSM's unicast LID limit lowered: $(grep -m1 'Subnet max unicast lid' "$WORK/opensm.log")"
log_has "ERR 0307" && e2e_fail "OpenSM ran out of LIDs"
exit 0
