#!/usr/bin/env bash
# The main job, end to end on a fresh Debian 12 machine: install what is
# needed, build, start ibsim with the bundled CELLIA KNS (seed 000: 6-ary
# 2-direct 1-indirect, 36 routers, 12 switches, 36 CAs), run stock OpenSM
# with the osmtopo plugin and `-R hdor,minhop`, then read back what the
# simulated switches were programmed with and report on it.
#
# usage: scripts/demo.sh [NETFILE]
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
net=${1:-$src/topologies/cellia-kns-6x2.net}
build=$src/build/plain

"$src/scripts/setup-debian.sh"
echo "== building in $build"
"$src/scripts/build.sh" "$build"

export OSMTOPO=$build/osmtopo OSMTOPO_PLUGIN_DIR=$build/.libs
# shellcheck source=../tests/e2e/lib.sh
. "$src/tests/e2e/lib.sh"
e2e_init demo

echo "== ibsim serving $net"
ibsim_start "$net"
echo "== stock OpenSM $(dpkg-query -W -f='${Version}' opensm 2>/dev/null) with event_plugin_name osmtopo, -R hdor,minhop"
opensm_once -- -R hdor,minhop
grep -E "hdor|tables configured|SUBNET UP" "$WORK/opensm.log" | sed 's/^/  opensm.log: /'
log_has "hdor tables configured on all switches" || e2e_fail "hdor did not route the fabric"

echo "== coordinates hdor assigned (offline run of the same engine; first 8)"
sim "$OSMTOPO" fabric --live -o "$WORK/live.net"
"$OSMTOPO" route --coords-only hdor "$WORK/live.net" | head -8 | sed 's/^# /  /'

echo "== routes read back from the simulated switches over MADs"
sim "$OSMTOPO" lfts --live -o "$WORK/live.lfts"
"$OSMTOPO" route --lfts-only hdor "$WORK/live.net" >"$WORK/offline.lfts"
if cmp -s "$WORK/offline.lfts" "$WORK/live.lfts"; then
	echo "  $(grep -c '^Unicast lids' "$WORK/live.lfts") switch LFTs read; identical to what hdor computes offline"
else
	echo "  live LFTs DIFFER from the offline computation"
fi
"$OSMTOPO" check --engine hdor "$WORK/live.net" "$WORK/live.lfts" | sed 's/^/  /'
