#!/usr/bin/env bash
# df-static end to end on one Dragonfly: test_ff_engines.sh's run (ibsim
# serves the fabric, stock OpenSM with the plugin routes it with
# `-R df-static`, QoS on and lmc LMC; LFTs, SL2VL and path SLs read back
# equal offline; `osmtopo check --live --engine df-static` finds every
# pair reached on every LID offset, no credit loop and the promise kept),
# then, on an intact fabric, the Dragonfly bound offline on the discovered
# fabric: at most three switch-to-switch hops (five links CA to CA) on VLs
# 0 and 1 with full-graph groups ("intact"), five (seven links) with
# FlatFly groups ("flat"); with LMC > 0 full-graph groups take Valiant
# paths local-global-local-global-local (seven links) on SLs 1 to 3 with
# VLs 0 to 3 (some of the layers' VLs must be used), FlatFly groups the
# restricted local-global-global-local (eight links) on VLs 0 and 1.
# A Dragonfly+ ("plus": groups as leaf/spine fat trees): up-global-down,
# at most five links CA to CA, on VL 0 alone; with LMC > 0 Valiant paths
# up-global-(down-up-)global-down (eight links) on SLs 5 to 7 with VLs 0
# to 3 (some of the layers' VLs must be used).  A damaged Dragonfly+
# whose damage layer shares VL 1 with the detours ("plus-damaged", LMC
# 0): VLs 0 and 1 alone, up-global-(down-up-)global-down at most (eight
# links).
#
# usage: test_df_static.sh NETFILE|gen:ARGS
#        [intact|damaged|flat|plus|plus-damaged] [LMC]
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
vls='0, *1'
[ "$kind" = flat ] && max=7
if [ "$kind" = plus-damaged ]; then
	max=8
elif [ "$kind" = plus ] && [ "$lmc" != 0 ]; then
	max=8
	vls='0, *1(, *2)?(, *3)?'
elif [ "$kind" = plus ]; then
	vls='0'
elif [ "$lmc" != 0 ] && [ "$kind" = flat ]; then
	max=8
elif [ "$lmc" != 0 ]; then
	max=7
	vls='0, *1(, *2)?, *[23]'
fi
json=$tmp/check.json
"$OSMTOPO" check --json --no-balance --lmc "$lmc" --route df-static "$net" >"$json" ||
	{ echo "df-static: offline check failed" >&2; exit 1; }
hops=$(json_field "$json" max_hops)
[ "$hops" -le "$max" ] || { echo "df-static: $hops links on a path (> $max)" >&2; exit 1; }
grep -q -E "\"vls_used\": *\[ *$vls *\]" "$json" ||
	{ echo "df-static: VLs used: $(grep -o '"vls_used[^]]*' "$json")" >&2; exit 1; }
echo "df-static: at most $hops links per path (bound $max), $(grep -o '"vls_used[^]]*]' "$json"), lmc $lmc"
