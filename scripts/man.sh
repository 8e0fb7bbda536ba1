#!/usr/bin/env bash
# Man pages of a build tree's osmtopo, as the Debian package makes them
# (debian/rules: help2man over `osmtopo [COMMAND] --help`): osmtopo(1) and
# osmtopo-COMMAND(1) for every command `osmtopo --help` lists, into
# BUILDDIR/man.  Read one with `man -l BUILDDIR/man/osmtopo-sim.1`.
#
# usage: scripts/man.sh BUILDDIR     (needs help2man: apt-get install help2man)
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:?usage: scripts/man.sh BUILDDIR}" && pwd)
command -v help2man >/dev/null ||
	{ echo "scripts/man.sh: needs help2man (apt-get install help2man)" >&2; exit 2; }
[ -x "$build/osmtopo" ] || { echo "scripts/man.sh: no $build/osmtopo (build first)" >&2; exit 2; }
export OSMTOPO=$build/osmtopo
man=$build/man
mkdir -p "$man/bin"
version=$("$OSMTOPO" --version | awk '{ print $2 }')
cmds=$("$OSMTOPO" --help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }')
for c in "" $cmds; do
	name=osmtopo${c:+-$c}
	ln -sf "$src/debian/osmtopo-help" "$man/bin/$name"
	help2man --no-info --version-string="$version" \
		--name="${c:+osmtopo $c: }topology-aware InfiniBand routing for OpenSM" \
		--output="$man/$name.1" "$man/bin/$name"
done
echo "man pages in $man: man -l $man/osmtopo.1 (osmtopo-COMMAND.1 for each command)"
