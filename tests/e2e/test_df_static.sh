#!/usr/bin/env bash
# df-static end to end on one Dragonfly: test_ff_engines.sh's run (ibsim
# serves the fabric, stock OpenSM with the plugin routes it with
# `-R df-static`, QoS on and lmc LMC; LFTs, SL2VL and path SLs read back
# equal offline; `osmtopo check --live --engine df-static` finds every
# pair reached on every LID offset, no credit loop and the promise kept),
# then, on an intact fabric, the Dragonfly bound offline on the discovered
# fabric, on VLs 0 and 1 only: at most three switch-to-switch hops (five
# links CA to CA) with full-graph groups ("intact"), five (seven links)
# with FlatFly groups ("flat"); with LMC > 0 the Valiant layer adds one
# global hop (six and eight links).
#
# usage: test_df_static.sh NETFILE|gen:ARGS [intact|damaged|flat] [LMC]
here=$(dirname "$0")
kind=${2:-intact}
lmc=${3:-0}
"$here/test_ff_engines.sh" df-static "$1" "$lmc" || exit 1
[ "$kind" != damaged ] || exit 0
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
max=5
[ "$kind" = flat ] && max=7
[ "$lmc" = 0 ] || max=$((max + 1))
json=$tmp/check.json
"$OSMTOPO" check --json --no-balance --lmc "$lmc" --route df-static "$net" >"$json" ||
	{ echo "df-static: offline check failed" >&2; exit 1; }
hops=$(json_field "$json" max_hops)
[ "$hops" -le "$max" ] || { echo "df-static: $hops links on a path (> $max)" >&2; exit 1; }
grep -q '"vls_used": *\[ *0, *1 *\]' "$json" ||
	{ echo "df-static: VLs used: $(grep -o '"vls_used[^]]*' "$json")" >&2; exit 1; }
echo "df-static: at most $hops links per path (bound $max), VLs 0 and 1, lmc $lmc"
