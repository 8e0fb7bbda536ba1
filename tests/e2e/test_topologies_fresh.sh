#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The bundled fabrics in topologies/ are what `osmtopo gen` makes today:
# regenerates each into a scratch directory and diffs it against the
# committed file.  A difference means the generator or the writer changed
# and the files (and topologies/README.md) must be regenerated.
#
# OSMTOPO: the built osmtopo (default ./osmtopo); srcdir: the source tree
# (default: two levels above this script).
set -u

OSMTOPO=${OSMTOPO:-./osmtopo}
here=$(cd "$(dirname "$0")" && pwd)
srcdir=${srcdir:-$here/../..}
topo=$srcdir/topologies

if [ ! -x "$OSMTOPO" ]; then
	echo "test_topologies_fresh: no osmtopo at $OSMTOPO (set OSMTOPO)" >&2
	exit 99
fi

tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM

status=0
# file  then the arguments of `osmtopo gen` that make it
while read -r file args; do
	[ -n "$file" ] || continue
	# shellcheck disable=SC2086 # args is a word list on purpose
	if ! "$OSMTOPO" gen $args -o "$tmp/$file"; then
		echo "FAIL $file: osmtopo gen $args failed" >&2
		status=1
		continue
	fi
	if diff -u "$topo/$file" "$tmp/$file" > "$tmp/$file.diff"; then
		echo "ok   $file"
	else
		echo "FAIL $file differs from: osmtopo gen $args" >&2
		head -40 "$tmp/$file.diff" >&2
		status=1
	fi
done <<LIST
cellia-kns-6x2.net kns 6 2 --radix 8
kns-4x3.net kns 4 3 --radix 8
kns-8x2-4cas-2links.net kns 8 2 --cas 4 --links 2 --radix 16
sft-36.net fattree --cas 4 --down 3,3 --up 3,1 --parallel 1,2
ulhpc-96.net ulhpc 4 6
ulhpc-512.net ulhpc 16 40
flatfly-3x3x3-w2-2cas.net flatfly 3x3x3 --widths 2 --cas 2
dragonfly-4x2-9g-2cas-random.net dragonfly 4 2 --cas 2 --arrangement random --seed 5 --shuffle-ports 7
hypercube-4d-w2-2cas.net hypercube 4 --width 2 --cas 2
slimfly-q5-3cas.net slimfly 5 --widths 1 --cas 3
slimfly-q4-w2-3cas.net slimfly 4 --widths 2 --cas 3
sfxff-q4x4-w2-2cas.net sfxff 4 4 --widths 2,1 --cas 2
LIST

exit $status
