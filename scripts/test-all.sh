#!/usr/bin/env bash
# Sets up a Debian 12 machine and runs every test: the unit tests (Check)
# in a normal build and again under AddressSanitizer/UBSan, then the ibsim
# end-to-end tests against stock OpenSM with the plugin (valgrind included),
# the fuzzers for a short while (scripts/fuzz.sh) and the Debian package
# (scripts/test-deb.sh, as root).
# Ends with one line "N passed, N failed".
#
# usage: scripts/test-all.sh [BUILD_ROOT]    (default: ./build)
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
root=${1:-$src/build}
"$src/scripts/setup-debian.sh" || exit 2

pass=0
fail=0
step() { printf '\n== %s\n' "$*"; }

# count_line FILE: add a script's closing "N passed, N failed" line (a
# script that said nothing counts as one failure).
count_line() {
	local out p f
	out=$(tail -1 "$1")
	p=$(sed -n 's/^\([0-9][0-9]*\) passed.*/\1/p' <<<"$out")
	f=$(sed -n 's/.* \([0-9][0-9]*\) failed.*/\1/p' <<<"$out")
	pass=$((pass + ${p:-0}))
	fail=$((fail + ${f:-1}))
}

# count_unit DIR: add a build's unit test results to the totals.
count_unit() {
	local log=$1/test-suite.log p f
	p=$(sed -n 's/^# PASS: *//p' "$log" 2>/dev/null | head -1)
	f=$(sed -n 's/^# FAIL: *//p' "$log" 2>/dev/null | head -1)
	e=$(sed -n 's/^# ERROR: *//p' "$log" 2>/dev/null | head -1)
	pass=$((pass + ${p:-0}))
	fail=$((fail + ${f:-0} + ${e:-0}))
}

unit() {
	local dir=$1
	shift
	step "build $dir $*"
	if ! "$src/scripts/build.sh" "$dir" "$@"; then
		echo "build failed"
		fail=$((fail + 1))
		return 1
	fi
	step "unit tests in $dir"
	make -C "$dir" -j"$(nproc)" check >"$dir/check.out" 2>&1
	grep -E '^(PASS|FAIL|ERROR|SKIP|XFAIL|XPASS):' "$dir/check.out"
	grep -E -A40 '^FAIL|^ERROR' "$dir"/tests/unit/*.log 2>/dev/null | head -60
	count_unit "$dir"
}

step "layers"
if "$src/scripts/check-layers.sh"; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
fi

unit "$root/plain"
unit "$root/asan" --enable-sanitizers

step "fuzzing (each reader, 15 s)"
"$src/scripts/fuzz.sh" 15 "$root/fuzz" >"$root/fuzz.out" 2>&1
cat "$root/fuzz.out"
count_line "$root/fuzz.out"

step "Debian package (build, lintian, install, OpenSM from it, remove)"
if [ "$(id -u)" -eq 0 ]; then
	"$src/scripts/test-deb.sh" "$root/deb" >"$root/deb.out" 2>&1
	cat "$root/deb.out"
	count_line "$root/deb.out"
else
	echo "skipped: installing a package needs root"
fi

step "ibsim end-to-end tests"
if [ -x "$root/plain/osmtopo" ]; then
	# (not tee /dev/stderr: reopening a log file there would truncate it)
	(cd "$root/plain" && "$src/tests/e2e/run.sh") >"$root/e2e.out" 2>&1
	cat "$root/e2e.out"
	out=$(tail -1 "$root/e2e.out")
	p=$(sed -n 's/.* \([0-9][0-9]*\) passed.*/\1/p' <<<"$out")
	f=$(sed -n 's/.* \([0-9][0-9]*\) failed.*/\1/p' <<<"$out")
	pass=$((pass + ${p:-0}))
	fail=$((fail + ${f:-1}))
else
	fail=$((fail + 1))
fi

echo
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
