#!/usr/bin/env bash
# `osmtopo check` on LFT files with faults put in by hand, no simulator:
# CELLIA (6-ary 2-direct KNS) is routed offline with hdor, the dump_lfts
# text is edited to drop one entry and to bounce one LID between two
# switches, and check must name the exact pair and switches and exit 1;
# the clean tables must pass with exit 0.  It also holds the balance
# figures of the clean tables to what can be counted by hand, and checks
# that `route --dot` draws every cable once.
#
# A cyclic VL assignment needs SL2VL tables, which LFT files do not carry:
# tests/unit/test_check.c (cyclic_vl_assignment_is_a_credit_loop) puts
# that fault into the routing state directly.
#
# Environment: OSMTOPO (the built tool), OSMTOPO_SRCDIR (source tree).
set -eu
OSMTOPO_SRCDIR=${OSMTOPO_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
OSMTOPO=${OSMTOPO:-$PWD/osmtopo}
net=$OSMTOPO_SRCDIR/topologies/cellia-kns-6x2.net
name=check-faults

fail() { echo "$name: FAIL: $*" >&2; exit 1; }
[ -x "$OSMTOPO" ] || fail "no osmtopo tool at $OSMTOPO"
command -v python3 >/dev/null || { echo "$name: SKIP: no python3" >&2; exit 77; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/osmtopo-$name.XXXXXX")
cleanup() {
	local rc=$?
	if [ "$rc" -ne 0 ] || [ "${KEEP:-0}" = 1 ]; then
		echo "$name: work files kept in $WORK" >&2
	else
		rm -rf "$WORK"
	fi
	exit "$rc"
}
trap cleanup EXIT

# check_status WANT OUT ARGS...: run check, output in OUT, exit status WANT.
check_status() {
	local want=$1 out=$2 rc=0
	shift 2
	"$OSMTOPO" check "$@" >"$out" 2>"$out.err" || rc=$?
	[ "$rc" -eq "$want" ] ||
		fail "check $* exited $rc, not $want: $(tail -3 "$out") $(tail -2 "$out.err")"
}

# has FILE TEXT: FILE holds the fixed string TEXT.
has() {
	grep -q -F -- "$2" "$1" || fail "$(basename "$1") lacks: $2"
}

# edit_lft FILE SWITCH LID PORT: the LFT text with SWITCH's entry for LID
# set to PORT, or removed when PORT is empty.
edit_lft() {
	awk -v sw="($2):" -v lid="$3" -v port="$4" '
		/^Unicast lids/ { inside = index($0, sw) > 0 }
		inside && $1 == lid {
			if (port == "")
				next
			$0 = lid " " sprintf("%03d", port) substr($0, 11)
		}
		{ print }' "$1"
}

# json FILE EXPR: a value from check's JSON (EXPR over d, in Python).
json() {
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

"$OSMTOPO" route --lfts-only hdor "$net" >"$WORK/clean.lfts" ||
	fail "offline routing failed"
# CA[0,1]/0's LID, from the first switch's table
dlid=$(awk '/^Unicast/ { n++ } n == 1 && index($0, "\x27CA[0,1]/0\x27") { print $1; exit }' \
	"$WORK/clean.lfts")
[ -n "$dlid" ] || fail "no LID for CA[0,1]/0 in the tables"
dlid_dec=$((dlid))

# Clean tables: every pair arrives, no loop, exit 0.
check_status 0 "$WORK/clean.txt" "$net" "$WORK/clean.lfts"
has "$WORK/clean.txt" "pairs checked:    1260"
has "$WORK/clean.txt" "unreachable:      0"
tail -1 "$WORK/clean.txt" | grep -qx OK || fail "clean tables not OK"
check_status 0 "$WORK/clean.json" --json "$net" "$WORK/clean.lfts"
[ "$(json "$WORK/clean.json" 'd["pairs"], d["unreachable"], d["forwarding_loops"], d["credit_loops"]')" = \
	"(1260, 0, 0, 0)" ] || fail "clean JSON counts"

# Balance of the clean tables, counted by hand.  36 CAs, one per router.
# Uniform: a router's switch of dimension 0 gets the 30 of its CA's 35
# destinations that differ in coordinate 0: 30/35 on the busiest
# switch-to-switch links; every CA cable carries 1, so throughput 1.
# Complement on 6 bits: i -> 63 - i is below 36 only for i = 28..35.
[ "$(json "$WORK/clean.json" '[(p["name"], p["flows"], p["unrouted"]) for p in d["patterns"]][0]')" = \
	"('uniform', 1260, 0)" ] || fail "uniform flows"
[ "$(json "$WORK/clean.json" '"%.6f %.6f" % (d["patterns"][0]["max_network_load"], d["patterns"][0]["throughput"])')" = \
	"0.857143 1.000000" ] || fail "uniform loads: $(json "$WORK/clean.json" 'd["patterns"][0]')"
[ "$(json "$WORK/clean.json" '[(p["flows"], p["skipped"]) for p in d["patterns"] if p["name"] == "complement"][0]')" = \
	"(8, 28)" ] || fail "complement flows"
[ "$(json "$WORK/clean.json" 'len(d["patterns"])')" = 8 ] || fail "not every pattern"

# A missing entry: R[0,0] forgets CA[0,1]/0.  Only CA[0,0] sends to it
# through R[0,0]: exactly one pair, named with the switch.
edit_lft "$WORK/clean.lfts" 'R[0,0]' "$dlid" "" >"$WORK/missing.lfts"
! cmp -s "$WORK/clean.lfts" "$WORK/missing.lfts" || fail "the entry was not removed"
check_status 1 "$WORK/missing.txt" "$net" "$WORK/missing.lfts"
has "$WORK/missing.txt" "unreachable:      1"
has "$WORK/missing.txt" "unreachable (1 pairs):"
has "$WORK/missing.txt" "    \"CA[0,0]/0\" port 1 (LID 1) -> \"CA[0,1]/0\" port 1 (LID $dlid_dec): no LFT entry at \"R[0,0]\" port 255"
tail -1 "$WORK/missing.txt" | grep -qx FAILED || fail "missing entry not FAILED"
check_status 1 "$WORK/missing.json" --json --patterns uniform "$net" "$WORK/missing.lfts"
[ "$(json "$WORK/missing.json" 'd["unreachable"], d["patterns"][0]["unrouted"]')" = "(1, 1)" ] ||
	fail "missing entry: JSON counts"

# A forwarding loop: S[0,0] sends CA[0,1]/0's packets back to R[0,0]
# (port 1), which sends them to S[0,0] again.  The five CAs of the line
# that reach CA[0,1]/0 through S[0,0] loop.
edit_lft "$WORK/clean.lfts" 'S[0,0]' "$dlid" 1 >"$WORK/loop.lfts"
check_status 1 "$WORK/loop.txt" "$net" "$WORK/loop.lfts"
has "$WORK/loop.txt" "forwarding loops: 5"
has "$WORK/loop.txt" "forwarding loops (5 pairs):"
for src in 0 2 3 4 5; do
	lid=$(awk -v ca="'CA[0,$src]/0'" '/^Unicast/ { n++ } n == 1 && index($0, ca) { print $1; exit }' \
		"$WORK/clean.lfts")
	has "$WORK/loop.txt" "    \"CA[0,$src]/0\" port 1 (LID $((lid))) -> \"CA[0,1]/0\" port 1 (LID $dlid_dec): forwarding loop \"R[0,0]\" -> \"S[0,0]\" -> \"R[0,0]\""
done
check_status 1 "$WORK/loop.json" --json --no-balance "$net" "$WORK/loop.lfts"
[ "$(json "$WORK/loop.json" 'd["forwarding_loops"], d["loop_examples"][0]["cycle"], "patterns" in d')" = \
	"(5, ['R[0,0]', 'S[0,0]'], False)" ] || fail "loop: JSON"

# The picture of the loads, and the topology as hdor mapped it.
check_status 0 "$WORK/plot.txt" --plot "$WORK/loads.svg" "$net" "$WORK/clean.lfts"
python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$WORK/loads.svg" ||
	fail "the SVG is not well-formed XML"
has "$WORK/loads.svg" "uniform: throughput 1.000"
"$OSMTOPO" route --dot hdor "$net" >"$WORK/cellia.dot" || fail "route --dot"
[ "$(grep -c -- ' -- ' "$WORK/cellia.dot")" = 108 ] || fail "not 108 cables in the graph"
has "$WORK/cellia.dot" 'label="R[2,3]\nrouter [2,3]"'
# A promise that does not hold is found: ff-mixed-dor's paths are not all
# in ff-dor's dimension order, ff-dor's are.
ff=$OSMTOPO_SRCDIR/topologies/flatfly-3x3x3-w2-2cas.net
check_status 0 "$WORK/ffdor.json" --json --no-balance --route ff-dor --engine ff-dor "$ff"
check_status 1 "$WORK/ffmixed.json" --json --no-balance --route ff-mixed-dor --engine ff-dor "$ff"
[ "$(json "$WORK/ffmixed.json" 'd["violations"] > 0 and d["unreachable"] == 0')" = True ] ||
	fail "ff-mixed-dor: no order violation found"
echo "$name: OK"
