# shellcheck shell=bash
# Shared by the ibsim end-to-end tests: each test sources this file, calls
# e2e_init, starts its own ibsim with its own IBSIM_SOCKNAME, OSM_TMP_DIR
# and OSM_CACHE_DIR, polls for readiness, and everything it started is
# stopped by PID when it exits, whatever happens.
#
# Environment: OSMTOPO (the built tool), OSMTOPO_PLUGIN_DIR (directory with
# libosmtopo.so), OSMTOPO_SRCDIR (source tree), KEEP=1 keeps the work dir.

set -eu

UMAD2SIM=${UMAD2SIM:-/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so}
OSMTOPO_SRCDIR=${OSMTOPO_SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
OSMTOPO=${OSMTOPO:-$PWD/osmtopo}
OSMTOPO_PLUGIN_DIR=${OSMTOPO_PLUGIN_DIR:-$PWD/.libs}
TOPOLOGIES=$OSMTOPO_SRCDIR/topologies

E2E_NAME=
WORK=
IBSIM_PID=
OSM_PID=

e2e_log() { printf '%s: %s\n' "$E2E_NAME" "$*" >&2; }
e2e_fail() { e2e_log "FAIL: $*"; exit 1; }

e2e_cleanup() {
	local rc=$?
	if [ -n "$OSM_PID" ] && kill -0 "$OSM_PID" 2>/dev/null; then
		kill "$OSM_PID" 2>/dev/null || true
		wait "$OSM_PID" 2>/dev/null || true
	fi
	if [ -n "$IBSIM_PID" ] && kill -0 "$IBSIM_PID" 2>/dev/null; then
		kill "$IBSIM_PID" 2>/dev/null || true
		wait "$IBSIM_PID" 2>/dev/null || true
	fi
	if [ -n "$WORK" ] && [ -d "$WORK" ]; then
		if [ "$rc" -ne 0 ] || [ "${KEEP:-0}" = 1 ]; then
			e2e_log "work files kept in $WORK"
		else
			rm -rf "$WORK"
		fi
	fi
	exit "$rc"
}

# e2e_init NAME: work directory, private socket and OpenSM directories.
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
	export IBSIM_SOCKNAME="osmtopo-$E2E_NAME-$$"
	export OSM_TMP_DIR=$WORK/osm-tmp
	export OSM_CACHE_DIR=$WORK/osm-cache
	mkdir -p "$OSM_TMP_DIR" "$OSM_CACHE_DIR" "$WORK/scratch"
	trap e2e_cleanup EXIT
	trap 'exit 130' INT TERM
}

# wait_for SECONDS FILE PATTERN: poll FILE until it holds PATTERN.
wait_for() {
	local limit=$1 file=$2 pattern=$3 waited=0
	while ! grep -q -- "$pattern" "$file" 2>/dev/null; do
		[ "$waited" -lt $((limit * 10)) ] || return 1
		sleep 0.1
		waited=$((waited + 1))
	done
}

# ibsim_start NETFILE: start the simulator, wait until it serves clients.
ibsim_start() {
	local net=$1 nodes switches
	nodes=$(grep -c -E '^(Hca|Ca|Switch|Rt)' "$net")
	switches=$(grep -c -E '^Switch' "$net")
	# room for big fabrics: the defaults are 256 switches / 2048 nodes
	(cd "$WORK/scratch" && exec ibsim -s -n \
		-N $((nodes + 16)) -S $((switches + 16)) \
		-P $((nodes * 40 + 64)) "$net" >"$WORK/ibsim.log" 2>&1) &
	IBSIM_PID=$!
	wait_for 120 "$WORK/ibsim.log" "Network simulator ready" ||
		e2e_fail "ibsim did not start: $(tail -3 "$WORK/ibsim.log")"
	kill -0 "$IBSIM_PID" 2>/dev/null || e2e_fail "ibsim exited"
}

# sim CMD...: run a libibumad client against our ibsim, from the scratch
# directory (umad2sim leaves a sys-<pid>/ tree in the current directory).
sim() {
	(cd "$WORK/scratch" && LD_PRELOAD=$UMAD2SIM "$@")
}

# osm_conf [KEY VALUE]...: write an OpenSM config that loads osmtopo.
osm_conf() {
	local conf=$WORK/opensm.conf
	{
		echo "event_plugin_name osmtopo"
		echo "force_log_flush TRUE"
		echo "log_flags 0x03"
		while [ $# -ge 2 ]; do
			echo "$1 $2"
			shift 2
		done
	} >"$conf"
	echo "$conf"
}

# opensm_once CONF [OPENSM ARGS]: one sweep (-o) against our ibsim, log in
# $WORK/opensm.log.  Bounded: with no_fallback OpenSM never exits by itself.
opensm_once() {
	local conf=$1
	shift
	(cd "$WORK/scratch" &&
		LD_LIBRARY_PATH=$OSMTOPO_PLUGIN_DIR LD_PRELOAD=$UMAD2SIM \
		timeout "${OSM_TIMEOUT:-600}" opensm -o -F "$conf" \
		-f "$WORK/opensm.log" "$@" >"$WORK/opensm.out" 2>&1) ||
		e2e_fail "opensm failed ($?): $(tail -5 "$WORK/opensm.out")"
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
