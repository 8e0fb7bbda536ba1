#!/usr/bin/env bash
# Builds osmtopo out of tree: scripts/build.sh DIR [CONFIGURE ARGS...]
# (the tool, the plugin and the unit tests; -Werror always).  MAKE_TARGETS
# in the environment builds those targets instead of all ("fuzz").
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
dir=$1
shift
if [ ! -x "$src/configure" ] || [ "$src/configure.ac" -nt "$src/configure" ] ||
	[ "$src/Makefile.am" -nt "$src/Makefile.in" ]; then
	(cd "$src" && autoreconf -fi >/dev/null 2>&1) ||
		(cd "$src" && autoreconf -fi)
fi
mkdir -p "$dir"
cd "$dir"
if [ ! -f Makefile ] || [ "$src/configure" -nt Makefile ]; then
	"$src/configure" --enable-werror "$@" >configure.out 2>&1 ||
		{ tail -20 configure.out >&2; exit 1; }
fi
make -j"$(nproc)" ${MAKE_TARGETS:-} >make.out 2>&1 || { grep -E -A3 'error|Error' make.out | head -40 >&2; exit 1; }
