#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# `osmtopo lfts --live` reads what the switches hold: under ibsim, after
# stock OpenSM (minhop) has routed a small torus, its LFTs must equal
# dump_lfts' on every line, and must also hold the highest LID, which
# dump_lfts leaves out when LinearFDBTop is a multiple of 64 (the fabric is
# sized so that it is: 16 switches + 48 CAs = LIDs 1..64).
#
# Its own ibsim, socket and OpenSM directories, through lib.sh (`osmtopo
# sim`).  Exit 0 pass, 1 mismatch, 77 when ibsim/opensm/dump_lfts missing.
#
# Environment: as for lib.sh; K (torus side, default 4), CAS (CAs per
# switch, default 3), TIMEOUT (seconds per reading, default 300).

. "$(dirname "$0")/lib.sh"
e2e_init live-read
K=${K:-4}
CAS=${CAS:-3}
TIMEOUT=${TIMEOUT:-300}
command -v dump_lfts >/dev/null 2>&1 || { e2e_log "SKIP: no dump_lfts"; exit 77; }
log() { e2e_log "$*"; }
fail() { e2e_fail "$*"; }

# A K x K torus of 8-port switches (ports 1..CAS: CAs; 4/5: x+1/x-1;
# 6/7: y+1/y-1), CA records first: ibsim attaches its clients to the first
# port of the file, and the tool should read from a CA as on a real fabric.
gen_torus() {
	local k=$1 cas=$2 x y i
	echo "# $k x $k torus, $cas CAs per switch (test_live_read.sh)"
	for ((y = 0; y < k; y++)); do
		for ((x = 0; x < k; x++)); do
			for ((i = 1; i <= cas; i++)); do
				printf '\nHca 1 "H_%d_%d_%d"\n[1] "S_%d_%d"[%d]\n' \
					"$x" "$y" "$i" "$x" "$y" "$i"
			done
		done
	done
	for ((y = 0; y < k; y++)); do
		for ((x = 0; x < k; x++)); do
			printf '\nSwitch 8 "S_%d_%d"\n' "$x" "$y"
			for ((i = 1; i <= cas; i++)); do
				printf '[%d] "H_%d_%d_%d"[1]\n' "$i" "$x" "$y" "$i"
			done
			printf '[4] "S_%d_%d"[5]\n' $(((x + 1) % k)) "$y"
			printf '[5] "S_%d_%d"[4]\n' $(((x + k - 1) % k)) "$y"
			printf '[6] "S_%d_%d"[7]\n' "$x" $(((y + 1) % k))
			printf '[7] "S_%d_%d"[6]\n' "$x" $(((y + k - 1) % k))
		done
	done
	# ibsim can drop the last record when nothing follows it.
	printf '\n# end\n'
}

if [ "$CAS" -lt 1 ] || [ "$CAS" -gt 3 ]; then
	fail "CAS must be 1..3"
fi
gen_torus "$K" "$CAS" >"$WORK/torus.net"
nswitches=$((K * K))
nnodes=$((nswitches * (CAS + 1)))

# in_scratch CMD...: a libibumad client against our ibsim, bounded.
in_scratch() {
	sim timeout "$TIMEOUT" "$@"
}

ibsim_start "$WORK/torus.net"
# OpenSM's default engine, minhop (the plugin loaded, unused).
opensm_once --option log_flags=0x03
grep -q 'SUBNET UP' "$WORK/opensm.log" ||
	fail "OpenSM did not bring the subnet up (see $WORK/opensm.log)"

in_scratch "$OSMTOPO" lfts --live \
	-o "$WORK/osmtopo.lfts" 2>"$WORK/osmtopo.err" ||
	fail "osmtopo lfts --live failed: $(tail -3 "$WORK/osmtopo.err")"
in_scratch dump_lfts >"$WORK/dump_lfts.out" \
	2>"$WORK/dump_lfts.err" ||
	fail "dump_lfts failed: $(tail -3 "$WORK/dump_lfts.err")"

# Both to "switch-guid lid port", one entry a line: the headers differ (how
# the switch was reached) and so do the destination columns.
normalize() {
	awk '
	function hex(s,    i, v) {
		v = 0
		s = tolower(s)
		for (i = 3; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	/^Unicast lids/ {
		for (i = 1; i <= NF; i++)
			if ($i == "guid")
				guid = $(i + 1)
		next
	}
	/^0x[0-9a-fA-F]+ [0-9]+/ && guid != "" {
		printf "%s %d %d\n", tolower(guid), hex($1), $2
	}' "$1" | sort
}
normalize "$WORK/osmtopo.lfts" >"$WORK/osmtopo.norm"
normalize "$WORK/dump_lfts.out" >"$WORK/dump_lfts.norm"

[ -s "$WORK/osmtopo.norm" ] || fail "osmtopo printed no LFT entries"
nsw=$(cut -d' ' -f1 "$WORK/osmtopo.norm" | sort -u | wc -l)
[ "$nsw" -eq "$nswitches" ] ||
	fail "osmtopo printed $nsw switches, the fabric has $nswitches"
top=$(cut -d' ' -f2 "$WORK/osmtopo.norm" | sort -n | tail -1)
[ "$top" -eq "$nnodes" ] ||
	log "note: highest LID is $top, expected $nnodes"

# Every switch must route the highest LID (dump_lfts may not show it).
have_top=$(awk -v t="$top" '$2 == t' "$WORK/osmtopo.norm" | wc -l)
[ "$have_top" -eq "$nswitches" ] ||
	fail "only $have_top of $nswitches switches have an entry for LID $top"

# All other lines must be identical.
if ! diff -u <(awk -v t="$top" '$2 != t' "$WORK/dump_lfts.norm") \
	<(awk -v t="$top" '$2 != t' "$WORK/osmtopo.norm") >"$WORK/lfts.diff"; then
	fail "LFTs differ from dump_lfts ($(grep -c '^[-+]0x' "$WORK/lfts.diff") lines):
$(head -20 "$WORK/lfts.diff")"
fi
ndump=$(wc -l <"$WORK/dump_lfts.norm")
nours=$(wc -l <"$WORK/osmtopo.norm")
log "PASS: $nswitches switches, LIDs 1..$top: $ndump entries equal to dump_lfts, $((nours - ndump)) more (LID $top)"
exit 0
