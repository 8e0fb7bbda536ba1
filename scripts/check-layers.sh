#!/usr/bin/env bash
# Holds src/ to its layers (README, "Architecture"): every #include of a
# project header names it by layer ("model/fabric.h"), and a layer may
# include only itself and the layers it is allowed to use, so data flows
# one way.  Also compiles every header on its own (each must include what
# it needs).  Prints each offence and exits 1 if there is any.
#
# usage: scripts/check-layers.sh [CC]
set -u
src=$(cd "$(dirname "$0")/.." && pwd)/src
cc=${1:-${CC:-cc}}

# What each layer may include besides itself.
declare -A allowed=(
	[model]=""
	[io]="model"
	[live]="model"
	[topo]="model"
	[route]="model topo"
	[traffic]="model"
	[check]="model topo route traffic"
	[sim]="model topo route traffic"
	[gen]="model topo"
	[plugin]="model topo route"
	[tool]="model io live topo route traffic check sim gen"
)

bad=0
offend() { echo "check-layers: $*"; bad=1; }

for dir in "$src"/*/; do
	layer=$(basename "$dir")
	[ -n "${allowed[$layer]+x}" ] || { offend "src/$layer/: not a known layer (add it to scripts/check-layers.sh and the README)"; continue; }
	while IFS=: read -r file line inc; do
		inc=${inc#*\"}
		inc=${inc%%\"*}
		rel=${file#"$src"/}
		case $inc in
		*/*)
			to=${inc%%/*}
			[ "$to" = "$layer" ] && continue
			[[ " ${allowed[$layer]} " == *" $to "* ]] && continue
			offend "src/$rel:$line includes \"$inc\": $layer may use only: ${allowed[$layer]:-nothing}"
			;;
		config.h) ;;
		*)
			[ -f "$(dirname "$file")/$inc" ] ||
				offend "src/$rel:$line includes \"$inc\": name project headers by layer (\"model/fabric.h\")"
			;;
		esac
	done < <(grep -rn '^#include "' "$dir" --include='*.[ch]' | sed 's/:#include/:/')
done

# Every header on its own (OpenSM's for the plugin's, libibmad's for live).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for h in $(cd "$src" && find . -name '*.h' | sed 's|^\./||' | sort); do
	printf '#include "%s"\n' "$h" >"$tmp/t.c"
	"$cc" -std=gnu11 -Wall -Wextra -Werror -fsyntax-only -I"$src" \
		-I/usr/include/infiniband "$tmp/t.c" 2>"$tmp/err" ||
		offend "src/$h does not compile on its own: $(head -3 "$tmp/err" | tr '\n' ' ')"
done

[ "$bad" -eq 0 ] && echo "check-layers: every include points down the layers; every header compiles on its own"
exit "$bad"
