#!/usr/bin/env bash
# The FlatFly engines' offline speed, two builds against each other
# (issue 13, item 2): on the 16K FlatFly (4x8x8x8, widths 2,1,1,1, 8 CAs a
# switch: 2,048 switches, 16,384 CAs), the "routed in" time of
# `osmtopo route --time --coords-only [--lmc 1] ENGINE`, the old build
# and the new one alternated, PAIRS pairs per engine; per engine the
# per-pair ratios new/old, both medians and the ratio of the medians.
# The machine's load (uptime) before and after.  Asserts nothing.
#
# usage: bench/engine-speed.sh OLD_BUILD_DIR NEW_BUILD_DIR [ENGINE...]
#        (default: ff-dor, and with --lmc 1 ff-ador, ff-mixed-ador,
#        ff-twisted-ador, ff-twisted-mixed-ador; PAIRS=5 in the
#        environment; NET=file to route another fabric)
set -eu
[ $# -ge 2 ] || { sed -n '2,14p' "$0" >&2; exit 2; }
old=$(cd "$1" && pwd)/osmtopo
new=$(cd "$2" && pwd)/osmtopo
shift 2
pairs=${PAIRS:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
net=${NET:-$tmp/ff16k.net}
[ -n "${NET:-}" ] ||
	"$new" gen flatfly 4x8x8x8 --widths 2,1,1,1 --cas 8 --radix 36 -o "$net"
[ $# -gt 0 ] ||
	set -- ff-dor ff-ador ff-mixed-ador ff-twisted-ador ff-twisted-mixed-ador

# routed BIN ENGINE: the seconds of the "routed ... in X s" line
routed() {
	local lmc=()
	[ "${2#*ador}" = "$2" ] || lmc=(--lmc 1)
	"$1" route --time --coords-only "${lmc[@]}" "$2" "$net" 2>&1 >/dev/null |
		sed -n 's/.* in \([0-9.]*\) s$/\1/p'
}

median() {
	sort -g | awk '{ a[NR] = $1 } END { print NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

echo "load before: $(uptime)"
echo "old: $old"
echo "new: $new"
printf '%-22s %-8s %-8s %-6s %s\n' engine old new ratio "per pair (new/old)"
for e in "$@"; do
	: >"$tmp/old"
	: >"$tmp/new"
	per=""
	for _ in $(seq "$pairs"); do
		a=$(routed "$old" "$e")
		b=$(routed "$new" "$e")
		echo "$a" >>"$tmp/old"
		echo "$b" >>"$tmp/new"
		per="$per $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", b / a }')"
	done
	mo=$(median <"$tmp/old")
	mn=$(median <"$tmp/new")
	printf '%-22s %-8s %-8s %-6s%s\n' "$e" "$mo" "$mn" \
		"$(awk -v a="$mo" -v b="$mn" 'BEGIN { printf "%.2f", b / a }')" "$per"
done
echo "load after: $(uptime)"
