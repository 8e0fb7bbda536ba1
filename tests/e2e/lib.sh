# shellcheck shell=bash
# Shared by the ibsim end-to-end tests: each test sources this file and
# calls e2e_init, which gives it a work directory $WORK.  The simulation
# is `osmtopo sim` (the code `osmtopo compare` runs), with its state in
# $WORK: its own ibsim with its own IBSIM_SOCKNAME, OpenSM with its own
# OSM_TMP_DIR and OSM_CACHE_DIR, readiness polled, clients run under
# libumad2sim.  What this file keeps is the test's bookkeeping: the work
# directory, e2e_fail, and a cleanup that stops by PID whatever the
# simulation started (`osmtopo sim stop`), however the test ends.
#
# Environment: OSMTOPO (the built tool), OSMTOPO_PLUGIN_DIR (directory with
# libosmtopo.so), OSMTOPO_SRCDIR (source tree), KEEP=1 keeps the work dir,
# OSM_TIMEOUT (seconds OpenSM may take, default 600).

set -eu

UMAD2SIM=${UMAD2SIM:-/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so}
export UMAD2SIM
OSMTOPO_SRCDIR=${OSMTOPO_SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
OSMTOPO=${OSMTOPO:-$PWD/osmtopo}
OSMTOPO_PLUGIN_DIR=${OSMTOPO_PLUGIN_DIR:-$PWD/.libs}
TOPOLOGIES=$OSMTOPO_SRCDIR/topologies

E2E_NAME=
WORK=

e2e_log() { printf '%s: %s\n' "$E2E_NAME" "$*" >&2; }
e2e_fail() { e2e_log "FAIL: $*"; exit 1; }

e2e_cleanup() {
	local rc=$?
	if [ -n "$WORK" ] && [ -d "$WORK" ]; then
		"$OSMTOPO" sim stop --dir "$WORK" || rc=1
		if [ "$rc" -ne 0 ] || [ "${KEEP:-0}" = 1 ]; then
			e2e_log "work files kept in $WORK"
		else
			rm -rf "$WORK"
		fi
	fi
	exit "$rc"
}

# e2e_init NAME: the work directory, and the cleanup trap.
e2e_init() {
	E2E_NAME=$1
	local t
	for t in ibsim opensm; do
		if ! command -v "$t" >/dev/null 2>&1; then
			echo "$E2E_NAME: SKIP: $t not installed" >&2
			exit 77
		fi
	done
	[ -f "$UMAD2SIM" ] || { echo "$E2E_NAME: SKIP: no $UMAD2SIM" >&2; exit 77; }
	[ -x "$OSMTOPO" ] || e2e_fail "no osmtopo tool at $OSMTOPO"
	[ -f "$OSMTOPO_PLUGIN_DIR/libosmtopo.so" ] ||
		e2e_fail "no libosmtopo.so in $OSMTOPO_PLUGIN_DIR"
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/osmtopo-$E2E_NAME.XXXXXX")
	mkdir "$WORK/scratch" # the current directory of the tools run here
	trap e2e_cleanup EXIT
	trap 'exit 130' INT TERM
}

# ibsim_start NETFILE: ibsim serving NETFILE, ready for clients.  A
# simulation started before in $WORK must have been stopped (sim_stop).
ibsim_start() {
	"$OSMTOPO" sim start --dir "$WORK" "$1" ||
		e2e_fail "ibsim did not start on $(basename "$1")"
}

# sim_stop: stop OpenSM and ibsim (cleanup does it anyway).
sim_stop() {
	"$OSMTOPO" sim stop --dir "$WORK"
}

# opensm_once [--option KEY=VALUE]... [-- OPENSM ARGS]: one sweep (-o)
# against our ibsim, with osmtopo's plugin; log in $WORK/opensm.log.
# Another engine than the first named may route (--allow-fallback): the
# tests say which one they expect (osm_engine, log_has).
opensm_once() {
	"$OSMTOPO" sim opensm --dir "$WORK" --plugin-dir "$OSMTOPO_PLUGIN_DIR" \
		--timeout "${OSM_TIMEOUT:-600}" --once --allow-fallback "$@" ||
		e2e_fail "opensm failed: $(tail -3 "$WORK/opensm.out")"
}

# opensm_start [--option KEY=VALUE]... [--wrap CMD] [-- OPENSM ARGS]:
# OpenSM as a daemon (it answers SA queries), up when this returns.
opensm_start() {
	"$OSMTOPO" sim opensm --dir "$WORK" --plugin-dir "$OSMTOPO_PLUGIN_DIR" \
		--timeout "${OSM_TIMEOUT:-600}" --allow-fallback "$@" ||
		e2e_fail "no SUBNET UP: $(grep -E 'osmtopo|ERR' "$WORK/opensm.log" 2>/dev/null | tail -5)"
}

# sim CMD...: run a libibumad client against our ibsim (from the scratch
# directory, where libumad2sim leaves its sys-<pid>/ trees).
sim() {
	"$OSMTOPO" sim run --dir "$WORK" -- "$@"
}

# Faults, through ibsim's own console (`osmtopo sim cmd`; DESIGN facts,
# checked in ibsim 0.10's sim_cmd.c and on this machine):
# - ibsim reads console commands on its stdin only (no socket command);
#   `osmtopo sim start` gives it the FIFO $WORK/ibsim.cmd as stdin, and
#   `sim cmd` writes lines there and waits for ibsim's echo of a marker.
# - 'Unlink "NODE"[P]' takes the cable at NODE's port P down on both ends
#   (ports Down/Polling); 'Unlink "NODE"' does so for every port of NODE
#   (a switch cut off: its CAs with it).  'ReLink "NODE"[P]' / 'ReLink
#   "NODE"' restore what Unlink took; 'Link "A"[P] "B"[Q]' makes a cable.
#   Errors come back as "# ..." lines (unknown node or port).
# - Each switch end of a changed cable sends trap 128 to the SM (when
#   OpenSM has registered), which starts a heavy sweep; the switch's
#   PortInfo change bit makes a light sweep notice it too.  SIGHUP to
#   OpenSM also forces a heavy sweep (main.c); not needed here.
# - OpenSM logs "SUBNET UP" (INFO) at the end of every heavy sweep, not
#   only the first: with force_heavy_sweep TRUE and sweep_interval 1 it
#   does so every second, routing the fabric each time.
# - When an engine returns an error OpenSM logs its own line at ERROR at
#   every sweep ("ucast_mgr_route: hdor: cannot build fwd tables"); the
#   plugin logs its reason ("cannot route this fabric") once per reason.

# ibsim_cmd LINE...: LINEs to ibsim's console; ibsim's reply appended to
# $WORK/ibsim-cmd.out.
ibsim_cmd() {
	"$OSMTOPO" sim cmd --dir "$WORK" "$@" >>"$WORK/ibsim-cmd.out" ||
		e2e_fail "ibsim refused: $*: $(tail -2 "$WORK/ibsim-cmd.out")"
}

# osm_sweeps: heavy sweeps OpenSM has completed (its SUBNET UP lines).
osm_sweeps() {
	local n
	n=$(grep -c 'SUBNET UP' "$WORK/opensm.log" 2>/dev/null)
	echo "${n:-0}"
}

# osm_resweep [N]: waits until OpenSM has completed N more heavy sweeps
# (default 2: the first may have begun before the change); at most
# OSM_RESWEEP_TIMEOUT seconds (default 60).
osm_resweep() {
	local want waited=0 limit=$((${OSM_RESWEEP_TIMEOUT:-60} * 10))
	want=$(($(osm_sweeps) + ${1:-2}))
	while [ "$(osm_sweeps)" -lt "$want" ]; do
		if [ $((waited % 10)) = 0 ]; then
			"$OSMTOPO" sim status --dir "$WORK" --opensm-only >/dev/null ||
				e2e_fail "opensm died: $(tail -5 "$WORK/opensm.out")"
		fi
		[ "$waited" -lt "$limit" ] ||
			e2e_fail "no resweep of OpenSM in $((limit / 10)) s"
		sleep 0.1
		waited=$((waited + 1))
	done
}

# osm_engine: the engine that routed OpenSM's last sweep.
osm_engine() {
	sed -n 's/.*osm_ucast_mgr_process: \(.*\) tables configured on all switches.*/\1/p' \
		"$WORK/opensm.log" | tail -1
}

# net_cables NET: "NODE PORT PEER PEERPORT KIND" once per cable, from its
# switch end (a switch-to-switch cable from its lower-named end); KIND is
# the peer's (Switch or Ca).
net_cables() {
	python3 - "$1" <<'EOF'
import re, sys
kind, ports, node = {}, [], None
for line in open(sys.argv[1]):
    m = re.match(r'^(Switch|Hca|Ca)\s+\d+\s+"([^"]+)"', line)
    if m:
        node = m.group(2)
        kind[node] = 'Switch' if m.group(1) == 'Switch' else 'Ca'
        continue
    m = re.match(r'^\[(\d+)\]\s+"([^"]+)"\[(\d+)\]', line)
    if m and node:
        ports.append((node, m.group(1), m.group(2), m.group(3)))
for n, p, r, q in ports:
    if kind[n] == 'Switch' and (kind[r] != 'Switch' or n < r):
        print(n, p, r, q, kind[r])
EOF
}

# net_cas NET: "CA SWITCH" for every CA (its one cable), in file order.
net_cas() {
	net_cables "$1" | awk '$5 == "Ca" { print $3, $1 }' |
		awk 'NR == FNR { o[$1] = NR; next } { print o[$1], $0 }' \
			<(grep -E '^(Hca|Ca)' "$1" | sed -E 's/^[^"]*"([^"]*)".*/\1/') - |
		sort -n | cut -d' ' -f2-
}

# log_has PATTERN: the OpenSM log holds PATTERN (fixed string).
log_has() {
	grep -q -F -- "$1" "$WORK/opensm.log"
}

# routing_span ENGINE: seconds OpenSM spent routing with ENGINE, from
# "building routing with 'ENGINE'" (a VERBOSE line: log_flags 0x07) to
# "ENGINE tables configured" in $WORK/opensm.log (microsecond timestamps).
routing_span() {
	awk -v e="$1" '
		function t(line,  a, hms) {
			split(line, a, " "); split(a[3], hms, ":")
			return hms[1] * 3600 + hms[2] * 60 + hms[3] + a[4] / 1e6
		}
		index($0, "building routing with \x27" e "\x27") { s = t($0) }
		index($0, e " tables configured on all switches") && s { printf "%.3f", t($0) - s; exit }
	' "$WORK/opensm.log"
}

# json_field FILE KEY: a number from osmtopo's one-object JSON output.
json_field() {
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"
}

# mcast_join CA MGID: CA joins multicast group MGID (an SA join made as
# that CA: SIM_HOST).
mcast_join() {
	SIM_HOST=$1 sim "$OSMTOPO" fabric --live --join "$2" \
		>>"$WORK/join.out" 2>&1 ||
		e2e_fail "$1 cannot join $2: $(tail -1 "$WORK/join.out")"
}

# mc KEY: a number of the "multicast" object of $WORK/check.json.
mc() {
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["multicast"][sys.argv[2]])' \
		"$WORK/check.json" "$1"
}

# mcast_check MEMBERS: `check --live --json` into $WORK/check.json,
# again every second (OpenSM builds the trees after the joins, in its
# own time) until it counts MEMBERS members and none missed, at most 60
# times; the last run's exit status in MCAST_RC.
mcast_check() {
	local _
	for _ in $(seq 1 60); do
		MCAST_RC=0
		sim "$OSMTOPO" check --live --json --no-balance \
			>"$WORK/check.json" 2>"$WORK/check.err" || MCAST_RC=$?
		if [ -s "$WORK/check.json" ] && [ "$(mc members)" -eq "$1" ] &&
			[ "$(mc not_delivered)" -eq 0 ]; then
			return 0
		fi
		sleep 1
	done
	[ -s "$WORK/check.json" ] ||
		e2e_fail "check printed nothing: $(cat "$WORK/check.err")"
}

# torus_4x4: a 4 x 4 torus of 6-port switches, 2 CAs each (ports 1-2
# CAs, 3/4 x+1/x-1, 5/6 y+1/y-1), as a net file on stdout.  minhop's
# shortest paths close credit loops round its rings; lash breaks them
# with path SLs that depend on the destination.
torus_4x4() {
	local x y i
	echo "# 4 x 4 torus, 2 CAs per switch (tests/e2e/lib.sh)"
	for y in 0 1 2 3; do for x in 0 1 2 3; do for i in 1 2; do
		printf '\nHca 1 "H_%d_%d_%d"\n[1] "S_%d_%d"[%d]\n' $x $y $i $x $y $i
	done; done; done
	for y in 0 1 2 3; do for x in 0 1 2 3; do
		printf '\nSwitch 6 "S_%d_%d"\n' $x $y
		printf '[1] "H_%d_%d_1"[1]\n[2] "H_%d_%d_2"[1]\n' $x $y $x $y
		printf '[3] "S_%d_%d"[4]\n' $(((x + 1) % 4)) $y
		printf '[4] "S_%d_%d"[3]\n' $(((x + 3) % 4)) $y
		printf '[5] "S_%d_%d"[6]\n' $x $(((y + 1) % 4))
		printf '[6] "S_%d_%d"[5]\n' $x $(((y + 3) % 4))
	done; done
	printf '\n# end\n'
}
