#!/usr/bin/env bash
# df-static end to end on one Dragonfly: test_ff_engines.sh's run (ibsim
# serves the fabric, stock OpenSM with the plugin routes it with
# `-R df-static` and QoS on; LFTs, SL2VL and path SLs read back equal
# offline; `osmtopo check --live --engine df-static` finds every pair
# reached, no credit loop and the promise kept), then, on an intact
# fabric, the Dragonfly bound offline on the discovered fabric: at most
# three switch-to-switch hops (five links CA to CA) on VLs 0 and 1 only.
#
# usage: test_df_static.sh NETFILE|gen:ARGS [intact|damaged]
here=$(dirname "$0")
"$here/test_ff_engines.sh" df-static "$1" 0 || exit 1
[ "${2:-intact}" = intact ] || exit 0
. "$here/lib.sh"
net=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/osmtopo-df-static.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if [[ $net == gen:* ]]; then
	gen=${net#gen:}
	net=$tmp/gen.net
	# shellcheck disable=SC2086 # the generator's arguments
	"$OSMTOPO" gen ${gen//+/ } -o "$net" || exit 1
fi
json=$tmp/check.json
"$OSMTOPO" check --json --no-balance --route df-static "$net" >"$json" ||
	{ echo "df-static: offline check failed" >&2; exit 1; }
hops=$(json_field "$json" max_hops)
[ "$hops" -le 5 ] || { echo "df-static: $hops links on a path (> 5)" >&2; exit 1; }
grep -q '"vls_used": *\[ *0, *1 *\]' "$json" ||
	{ echo "df-static: VLs used: $(grep -o '"vls_used[^]]*' "$json")" >&2; exit 1; }
echo "df-static: at most $hops links per path, VLs 0 and 1"
