#!/usr/bin/env bash
# Fuzzes every reader of outside input (fuzz/README.md): builds the
# harnesses with clang for libFuzzer, ASan and UBSan in BUILD_DIR (default
# ./build/fuzz), replays the saved crashes (fuzz/regress/NAME/), then runs
# each harness for SECONDS on a corpus kept in BUILD_DIR/corpus/NAME,
# seeded from fuzz/seeds/NAME, with the words of fuzz/dict/NAME.dict.  A crash leaves its input in
# BUILD_DIR/crashes/ and fails the run: fix it, then keep the input in
# fuzz/regress/NAME/ (make check replays it from then on).
# Ends with one line "N passed, N failed" (one test per harness).
#
# usage: scripts/fuzz.sh SECONDS [BUILD_DIR]
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:?usage: scripts/fuzz.sh SECONDS [BUILD_DIR]}
dir=${2:-$src/build/fuzz}
names="netfile lftfile osmdump parse"

command -v clang >/dev/null || { echo "fuzz: no clang (scripts/setup-debian.sh)"; exit 2; }
MAKE_TARGETS=fuzz "$src/scripts/build.sh" "$dir" CC=clang --enable-fuzzing ||
	{ echo "fuzz: build failed"; echo "0 passed, 1 failed"; exit 1; }
dir=$(cd "$dir" && pwd)
mkdir -p "$dir/crashes"
pass=0
fail=0
for name in $names; do
	bin=$dir/fuzz/fuzz_$name
	corpus=$dir/corpus/$name
	log=$dir/fuzz-$name.log
	mkdir -p "$corpus"
	cp -L "$src/fuzz/seeds/$name"/* "$corpus/"
	regress=()
	if [ -d "$src/fuzz/regress/$name" ]; then
		mapfile -t regress < <(find "$src/fuzz/regress/$name" -type f | sort)
	fi
	# Saved crashes first: each one runs once and must not crash any more.
	if [ ${#regress[@]} -gt 0 ] && ! "$bin" "${regress[@]}" >"$log" 2>&1; then
		echo "fuzz: $name: a saved crash crashes again (see $log)"
		fail=$((fail + 1))
		continue
	fi
	if "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$dir/crashes/$name-" \
		-dict="$src/fuzz/dict/$name.dict" \
		"$corpus" >>"$log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
		echo "fuzz: $name: ok, ${runs:-?} runs in ${secs}s, corpus $(ls "$corpus" | wc -l), ${#regress[@]} saved crashes replayed"
		pass=$((pass + 1))
	else
		echo "fuzz: $name: FAILED, input kept in $(grep -o "$dir/crashes/[^ ]*" "$log" | tail -1)"
		grep -E 'ERROR|SUMMARY|runtime error' "$log" | head -5
		fail=$((fail + 1))
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
