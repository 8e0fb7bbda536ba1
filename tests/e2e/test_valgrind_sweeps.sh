#!/usr/bin/env bash
# OpenSM runs for months: with the plugin loaded and hdor routing every
# sweep (force_heavy_sweep, sweep_interval 1), OpenSM under valgrind must
# show no invalid access in the plugin and no block lost by it, however
# many sweeps it makes.
#
# usage: test_valgrind_sweeps.sh NETFILE [SWEEPS]
. "$(dirname "$0")/lib.sh"

net=$1
sweeps=${2:-5}
e2e_init valgrind
command -v valgrind >/dev/null 2>&1 || { e2e_log "SKIP: no valgrind"; exit 77; }

ibsim_start "$net"
# OpenSM under valgrind (words split at blanks: $WORK has none).
opensm_start --option sweep_interval=1 --option force_heavy_sweep=TRUE \
	--wrap "valgrind --leak-check=full --show-leak-kinds=definite,indirect
	--num-callers=30 --keep-debuginfo=yes --log-file=$WORK/valgrind.log" \
	-- -R hdor

sweeps_done() {
	local n
	n=$(grep -c 'hdor tables configured on all switches' "$WORK/opensm.log" 2>/dev/null)
	echo "${n:-0}"
}
waited=0
while [ "$(sweeps_done)" -lt "$sweeps" ]; do
	"$OSMTOPO" sim status --dir "$WORK" >/dev/null ||
		e2e_fail "opensm died: $(tail -5 "$WORK/opensm.out")"
	[ "$waited" -lt 3000 ] || e2e_fail "fewer than $sweeps hdor sweeps in 300 s"
	sleep 0.1
	waited=$((waited + 1))
done
# SIGTERM, and time for valgrind's leak check before any SIGKILL.
"$OSMTOPO" sim stop --dir "$WORK" --opensm-only --grace 300

n=$(sweeps_done)
grep -q "ERROR SUMMARY" "$WORK/valgrind.log" || e2e_fail "valgrind did not finish: $(tail -5 "$WORK/valgrind.log")"
# Only what the plugin did counts: OpenSM has its own exit-time blocks.
# A record is the lines between two empty "==PID== " lines.
if ! awk '/^==[0-9]+== *$/ {
		if (rec ~ /Invalid|uninitialised|definitely lost|indirectly lost/ &&
		    rec ~ /libosmtopo|\((plugin|capture|fabric|routing|hdor|kns)\.c:|by 0x[0-9A-F]+: ot_/) { printf "%s", rec; bad = 1 }
		rec = ""; next
	}
	{ rec = rec $0 "\n" }
	END { exit bad }' "$WORK/valgrind.log" >"$WORK/ours.txt"; then
	head -60 "$WORK/ours.txt" >&2
	e2e_fail "valgrind reports a problem in libosmtopo after $n sweeps"
fi
e2e_log "ok: $n hdor sweeps under valgrind, nothing from libosmtopo: $(grep -E 'definitely lost|ERROR SUMMARY' "$WORK/valgrind.log" | tr -s ' ' | tr '\n' ';')"
