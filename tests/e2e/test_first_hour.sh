#!/usr/bin/env bash
# A new administrator's first hour (issue 26): one case per item of the
# issue, each run whatever the others did, so that a run on a tree
# without the fixes shows which items fail.  Each case says what it
# asserts; the simulations live in $WORK/s-* and are stopped at the end.
#
#  1 sim opensm: which engine routed and why the others did not, exit 1
#    when the first engine named did not route (unknown, refusing the
#    fabric, QoS off, class table rejected) unless --allow-fallback; the
#    the sim example (doc/tool.md) runs as written, every command exiting 0
#  2 sim start on a net file with a misspelt remote node: ibsim's own
#    cause, the path of its log, osmtopo's reader's line
#  3 the net-file reader: a misspelt node type on its own line, a cable
#    on one end only; the bundled and generated fabrics read cleanly
#  4 doc/qos.md's example, as written, on the fabric it names: QoS check
#    ok with --strict; with port names that match nothing: a warning
#    naming the classes, and --strict fails
#  5 compare: columns fit the longest engine name, pattern names whole,
#    a refusal reason whole (wrapped)
#  6 route with an engine that is none: the engines and the nearest name;
#    README: where the tool is, the man pages from the tree
#  7 sim run: relative FILE options mean the caller's directory
#  8 README's ff-mixed-dor cell: the orders it uses with 2 CAs a switch on
#    a 3-D FlatFly, as the engine routes it
#  9 noise: no libumad2sim attach line, no send_trap line from sim cmd,
#    no "1 groups", no "opensm 0 stopped"
#
# usage: test_first_hour.sh [ITEM...]   (default: all)
. "$(dirname "$0")/lib.sh"

e2e_init first-hour
SRC=$OSMTOPO_SRCDIR
CELLIA=$TOPOLOGIES/cellia-kns-6x2.net
FF=$TOPOLOGIES/flatfly-3x3x3-w2-2cas.net

stop_sims() {
	local d
	for d in "$WORK"/s-*; do
		[ -d "$d" ] && "$OSMTOPO" sim stop --dir "$d" >/dev/null 2>&1
	done
	return 0
}
trap 'rc=$?; stop_sims; (exit $rc); e2e_cleanup' EXIT

# fail MSG: the case fails (its subshell ends).
fail() { e2e_fail "$CASE: $*"; }
# has FILE TEXT: FILE holds TEXT (fixed string), else the case fails.
has() {
	grep -q -F -- "$2" "$1" ||
		fail "no \"$2\" in $(basename "$1"): $(head -c 1500 "$1")"
}
hasnt() {
	! grep -q -F -- "$2" "$1" ||
		fail "\"$2\" in $(basename "$1"): $(grep -F -- "$2" "$1" | head -3)"
}
# rc_is WANT CMD...: CMD's exit status is WANT (its stdout, stderr in
# $WORK/out, $WORK/err).
rc_is() {
	local want=$1 rc=0
	shift
	"$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
	[ "$rc" = "$want" ] ||
		fail "exit $rc, not $want: $*: $(tail -c 1500 "$WORK/err")"
}
osm_sim() {
	if [ "$1" = opensm ]; then
		shift
		"$OSMTOPO" sim opensm --plugin-dir "$OSMTOPO_PLUGIN_DIR" "$@"
	else
		"$OSMTOPO" sim "$@"
	fi
}
start_sim() {
	osm_sim start --dir "$WORK/s-$1" "$2" ||
		fail "ibsim did not start on $2"
}

case_1() {
	local s=$WORK/s-cellia t=$WORK/s-ff
	start_sim cellia "$CELLIA"
	# an engine OpenSM does not know: minhop routes, exit 1
	rc_is 1 osm_sim opensm --dir "$s" --once -- -R hdr
	has "$WORK/err" "hdr did not route the fabric: OpenSM has no routing engine 'hdr'"
	has "$WORK/err" "did you mean hdor?"
	has "$WORK/err" "minhop routed the fabric"
	# an engine that refuses the fabric (the README's old example)
	rc_is 1 osm_sim opensm --dir "$s" --option qos=TRUE --option lmc=1 -- -R ff-ador
	has "$WORK/err" "ff-ador did not route the fabric: ERR 5E02: ff-ador: cannot route this fabric (topology)"
	has "$WORK/err" "ff-ador, the first engine named, did not route the fabric"
	osm_sim status --dir "$s" --opensm-only >/dev/null &&
		fail "OpenSM left running after the failure"
	# asked for: exit 0, and still said
	rc_is 0 osm_sim opensm --dir "$s" --once --allow-fallback -- -R ff-ador,minhop
	has "$WORK/err" "ff-ador did not route the fabric: ERR 5E05: ff-ador"
	has "$WORK/err" "minhop routed the fabric"
	rc_is 0 osm_sim opensm --dir "$s" --once -- -R hdor,minhop
	has "$WORK/err" "hdor routed the fabric"
	osm_sim stop --dir "$s"
	# ff-mixed-dor without QoS, on a FlatFly it routes with QoS
	start_sim ff "$FF"
	rc_is 1 osm_sim opensm --dir "$t" --once -- -R ff-mixed-dor
	has "$WORK/err" "ff-mixed-dor did not route the fabric: ERR 5E05: ff-mixed-dor: cannot route this fabric (configuration)"
	# a class table the plugin rejects: routed without classes, exit 1
	printf 'class a sl 1 share 50%% distance 2\nclass b sl 1 share 50%% distance 2\n' >"$WORK/bad-classes.conf"
	rc_is 1 osm_sim opensm --dir "$t" --once --option qos=TRUE \
		--option event_plugin_options="osmtopo_qos=$WORK/bad-classes.conf" -- -R ff-twisted-dor
	has "$WORK/err" "ff-twisted-dor routed the fabric without service classes"
	has "$WORK/err" "QoS class table: "
	osm_sim stop --dir "$t"
	# the sim example as written (doc/tool.md, where the README points
	# for the tool; its directory moved into $WORK): every command exits 0
	sed -n '/^osmtopo sim start  --dir \/tmp\/s/,/^osmtopo sim stop/p' "$SRC/doc/tool.md" |
		sed 's/ *#.*//; s|/tmp/s|'"$WORK"'/s-readme|g' >"$WORK/readme-sim.sh"
	[ "$(grep -c '^osmtopo sim' "$WORK/readme-sim.sh")" -ge 6 ] ||
		fail "doc/tool.md's sim example not found: $(cat "$WORK/readme-sim.sh")"
	local line
	while read -r line; do
		(cd "$SRC" && PATH=$(dirname "$OSMTOPO"):$PATH eval "$line") \
			>"$WORK/out" 2>"$WORK/err" ||
			fail "doc/tool.md example: exit $?: $line: $(tail -3 "$WORK/err")"
	done <"$WORK/readme-sim.sh"
}

case_2() {
	sed '27s/"S\[1,0\]"\[1\]/"S[0,9]"[1]/' "$CELLIA" >"$WORK/bad2.net"
	rc_is 1 osm_sim start --dir "$WORK/s-bad2" "$WORK/bad2.net"
	has "$WORK/err" "can't find remote node \"S[0,9]\" connected to node \"R[0,0]\" port 3"
	has "$WORK/err" "$WORK/s-bad2/ibsim.log"
	has "$WORK/err" "bad2.net:27: unknown node \"S[0,9]\""
}

case_3() {
	local f rc
	sed '24s/^Switch/Swtch/' "$CELLIA" >"$WORK/bad1.net"
	rc_is 2 "$OSMTOPO" route hdor "$WORK/bad1.net"
	has "$WORK/err" "bad1.net:24: unknown node type \"Swtch\""
	# R[0,0] port 3 listed, S[1,0]'s end of that cable dropped
	grep -v -F '"R[0,0]"[3]' "$CELLIA" >"$WORK/oneend.net"
	rc_is 2 "$OSMTOPO" route hdor "$WORK/oneend.net"
	has "$WORK/err" "oneend.net:27: \"R[0,0]\"[3] is cabled to \"S[1,0]\"[1], but the record of \"S[1,0]\""
	# every bundled fabric, and generated ones, read cleanly
	for f in "$TOPOLOGIES"/*.net; do
		rc=0
		"$OSMTOPO" check --expect kns "$f" >/dev/null 2>"$WORK/err" || rc=$?
		[ "$rc" != 2 ] || fail "$(basename "$f") does not read: $(cat "$WORK/err")"
	done
	for f in "flatfly 4x4x3 --widths 2,1,1 --cas 2 --drop-links 0.1 --seed 7 --shuffle-ports 5" \
		"kns 4 2 --cas 2 --links 2 --shuffle-ports 7" \
		"dragonfly 4 2 --cas 2 --arrangement random --seed 5 --drop-links 0.05" \
		"slimfly 5 --cas 2 --drop-switches 0.1 --drop-links 0.03 --seed 4" \
		"hypercube 4 --cas 2 --drop-links 0.1 --seed 2"; do
		# shellcheck disable=SC2086 # words
		"$OSMTOPO" gen $f -o "$WORK/gen.net" || fail "gen $f"
		rc=0
		"$OSMTOPO" check --expect kns "$WORK/gen.net" >/dev/null 2>"$WORK/err" || rc=$?
		[ "$rc" != 2 ] || fail "gen $f does not read: $(cat "$WORK/err")"
	done
}

# The indented lines of doc/qos.md after the line holding $1, up to the
# next line that is neither indented nor empty.
doc_block() {
	awk -v start="$1" '
		index($0, start) { on = 1; next }
		on && /^    / { sub(/^    /, ""); print; seen = 1; next }
		on && /^$/ { next }
		on && seen { exit }' "$SRC/doc/qos.md"
}

case_4() {
	local q=$WORK/s-qos
	# the policy the doc shows is the example file
	doc_block "(OpenSM's syntax; SLs 12, 13, 14" >"$WORK/doc-policy.conf"
	grep -v '^#' "$SRC/doc/examples/qos-policy.conf" | diff - "$WORK/doc-policy.conf" >/dev/null ||
		fail "doc/qos.md's policy is not doc/examples/qos-policy.conf"
	doc_block "Try it under ibsim" >"$WORK/doc-try.sh"
	[ "$(grep -c '^osmtopo sim' "$WORK/doc-try.sh")" = 4 ] ||
		fail "doc/qos.md's commands not found: $(cat "$WORK/doc-try.sh")"
	sed -i 's|/tmp/q|'"$q"'|g' "$WORK/doc-try.sh"
	local line n=0
	while read -r line; do
		n=$((n + 1))
		(cd "$SRC" && PATH=$(dirname "$OSMTOPO"):$PATH eval "$line") \
			>"$WORK/doc-$n.out" 2>"$WORK/doc-$n.err" ||
			fail "doc/qos.md: exit $?: $line: $(tail -5 "$WORK/doc-$n.err")"
	done <"$WORK/doc-try.sh"
	has "$WORK/doc-2.err" "ff-twisted-dor routed the fabric"
	has "$WORK/doc-3.out" "QoS check: ok"
	hasnt "$WORK/doc-3.out" "reaches no port"
	grep -q '^  latency *12 .* [1-9][0-9]*  ' "$WORK/doc-3.out" ||
		fail "latency reaches no port: $(grep -A4 '^QoS:' "$WORK/doc-3.out")"
	# the old port names: two classes reach no port
	sed 's|"FF\[2,2,2\]/0/P1", "FF\[2,2,2\]/1/P1"|"io01 HCA-1/P1", "io02 HCA-1/P1"|; s|"FF\[0,0,0\]/0/P1"|"head HCA-1/P1"|' \
		"$SRC/doc/examples/qos-policy.conf" >"$WORK/old-policy.conf"
	start_sim qos "$FF"
	rc_is 0 osm_sim opensm --dir "$q" --option qos=TRUE --option max_op_vls=8 \
		--option qos_high_limit=0 --option qos_policy_file="$WORK/old-policy.conf" \
		--option event_plugin_options="osmtopo_qos=$SRC/doc/examples/qos-classes.conf" \
		-- -R ff-twisted-dor
	rc_is 0 osm_sim run --dir "$q" -- "$OSMTOPO" check --live --no-balance \
		--qos "$SRC/doc/examples/qos-classes.conf"
	has "$WORK/out" "WARN class latency (SL 12) reaches no port"
	has "$WORK/out" "WARN class bulk (SL 14) reaches no port"
	has "$WORK/out" "QoS check: ok, but 2 classes reach no port"
	has "$WORK/err" "warning: 2 QoS class(es) reach no port"
	rc_is 1 osm_sim run --dir "$q" -- "$OSMTOPO" check --live --no-balance \
		--qos "$SRC/doc/examples/qos-classes.conf" --strict
	has "$WORK/out" "QoS check: FAILED"
	osm_sim stop --dir "$q"
}

case_5() {
	local long=ff-twisted-mixed-dor
	rc_is 0 "$OSMTOPO" compare --timeout 300 "$CELLIA" minhop "$long"
	cp "$WORK/out" "$WORK/compare.out"
	# patterns named whole
	has "$WORK/compare.out" " complement "
	# every row's "routed" column where the header's is
	python3 - "$WORK/compare.out" <<'EOF' || fail "compare's columns shift: $(cat "$WORK/compare.out")"
import re, sys
lines = open(sys.argv[1]).read().split('\n')
head, rows = lines[0], lines[1:3]
col = head.index('routed')
for l in rows:
    assert len(l.split()[0]) < col and l[col - 1] == ' ' and l[col] != ' ', l
# each pattern name right-aligned over minhop's numbers
for m in list(re.finditer(r'\S+', head))[8:]:
    e = m.end()
    assert rows[0][e - 1] != ' ' and (e == len(rows[0]) or rows[0][e] == ' '), (m.group(), rows[0])
EOF
	# the refusal whole: its useful end ("not a FlatFly") is there
	awk '/^  ff-twisted-mixed-dor:/ { on = 1 } on && /^\(/ { on = 0 } on' "$WORK/compare.out" |
		tr -s ' \n' ' ' >"$WORK/reason"
	has "$WORK/reason" "routers and indirect switches (a KNS), not a FlatFly"
	awk 'length > 80 && !/^(engine|minhop|ff-|\()/' "$WORK/compare.out" | grep -q . &&
		fail "a note line wider than 80 columns: $(cat "$WORK/compare.out")"
	return 0
}

case_6() {
	rc_is 2 "$OSMTOPO" route hdr "$CELLIA"
	has "$WORK/err" "no engine 'hdr' (did you mean hdor? engines: hdor, ff-dor"
	# the README's first lines: where the tool is, PATH, the man pages
	head -30 "$SRC/README.md" >"$WORK/readme-head"
	has "$WORK/readme-head" "build/plain/osmtopo"
	has "$WORK/readme-head" "PATH=\$PWD/build/plain:\$PATH"
	has "$WORK/readme-head" "scripts/man.sh build/plain"
	if command -v help2man >/dev/null && command -v man >/dev/null; then
		mkdir -p "$WORK/build"
		ln -sf "$OSMTOPO" "$WORK/build/osmtopo"
		rc_is 0 "$SRC/scripts/man.sh" "$WORK/build"
		man -l "$WORK/build/man/osmtopo-sim.1" 2>/dev/null | grep -q -- "--allow-fallback" ||
			fail "no osmtopo-sim(1) from scripts/man.sh"
	fi
}

case_7() {
	local s=$WORK/s-rel caller=$WORK/caller
	mkdir -p "$caller/qos"
	cp "$SRC/doc/examples/qos-classes.conf" "$caller/qos/classes.conf"
	start_sim rel "$CELLIA"
	rc_is 0 osm_sim opensm --dir "$s" -- -R hdor
	(cd "$caller" && osm_sim run --dir "$s" -- "$OSMTOPO" lfts --live -o rel.lfts) \
		>"$WORK/out" 2>"$WORK/err" || fail "lfts -o rel.lfts: $(cat "$WORK/err")"
	[ -s "$caller/rel.lfts" ] || fail "rel.lfts not in the caller's directory"
	[ ! -e "$s/scratch/rel.lfts" ] || fail "rel.lfts landed in DIR/scratch"
	# a relative class table: read from the caller's directory
	(cd "$caller" && osm_sim run --dir "$s" -- "$OSMTOPO" check --live --no-balance \
		--qos qos/classes.conf) >"$WORK/out" 2>"$WORK/err"
	hasnt "$WORK/err" "No such file"
	has "$WORK/out" "QoS: 3 classes"
	# a class table that is not there: said before the live read
	(cd "$caller" && osm_sim run --dir "$s" -- "$OSMTOPO" check --live \
		--qos qos/nothing.conf) >"$WORK/out" 2>"$WORK/err" && fail "no error"
	has "$WORK/err" "qos/nothing.conf"
	hasnt "$WORK/err" "path SLs"
	osm_sim stop --dir "$s"
}

case_8() {
	local cell used
	# shellcheck disable=SC2016 # the markdown's backquotes
	cell=$(grep -F '| `ff-mixed-dor` |' "$SRC/README.md")
	used=$("$OSMTOPO" check --route ff-mixed-dor --no-balance "$FF" |
		sed -n 's/^VLs used: *//p' | tr ',' '\n' | grep -c .)
	[ "$used" -ge 1 ] || fail "ff-mixed-dor's VLs not found"
	grep -q -F "($used on a 3-D FlatFly with 2 CAs a switch" <<<"$cell" ||
		fail "README's ff-mixed-dor cell does not say it uses $used orders with 2 CAs a switch: $cell"
	grep -q -F "CA index" <<<"$cell" ||
		fail "README's ff-mixed-dor cell does not say the order follows the CA index: $cell"
}

case_9() {
	local s=$WORK/s-noise
	mkdir -p "$s"
	rc_is 0 osm_sim start --dir "$s" "$CELLIA"
	rc_is 1 osm_sim status --dir "$s"
	hasnt "$WORK/out" "opensm 0 stopped"
	has "$WORK/out" "opensm not running"
	# ibsim's trap warnings, with no SM to take the trap
	rc_is 0 osm_sim cmd --dir "$s" 'Unlink "S[0,0]"[3]'
	hasnt "$WORK/out" "send_trap"
	rc_is 0 osm_sim cmd --dir "$s" 'ReLink "S[0,0]"[3]'
	rc_is 0 osm_sim opensm --dir "$s" -- -R hdor
	rc_is 0 osm_sim run --dir "$s" -- "$OSMTOPO" check --live --no-balance
	hasnt "$WORK/err" "attached as client"
	hasnt "$WORK/out" " 1 groups"
	has "$WORK/out" "multicast:"
	osm_sim stop --dir "$s"
}

items=${*:-1 2 3 4 5 6 7 8 9}
failed=
for i in $items; do
	CASE="item $i"
	if (case_"$i"); then
		e2e_log "PASS: item $i"
	else
		failed="$failed $i"
	fi
done
[ -z "$failed" ] || e2e_fail "items failing:$failed"
e2e_log "PASS: items $items"
