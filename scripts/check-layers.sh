#!/usr/bin/env bash
# Holds src/ to its layers (README, "Architecture"): every #include of a
# project header names it by layer ("model/fabric.h"), and a layer may
# include only itself and the layers it is allowed to use, so data flows
# one way.  Every form of #include counts: "# include", leading blanks,
# and <model/fabric.h> (which -Isrc finds as well).  No two files may
# depend on each other, directly or round a longer cycle: a .c file
# depends on the .c files that define a function or variable it names,
# a header on the headers it includes.  Also compiles every header
# on its own (each must include what it needs).  Prints each offence and
# exits 1 if there is any; `make check` runs it.
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

# FILE:LINE:TEXT of every #include under $1, whatever its spacing.
includes() {
	grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]' "$1" \
		--include='*.[ch]'
}

for dir in "$src"/*/; do
	layer=$(basename "$dir")
	[ -n "${allowed[$layer]+x}" ] || { offend "src/$layer/: not a known layer (add it to scripts/check-layers.sh and the README)"; continue; }
	while IFS=: read -r file line text; do
		inc=${text#*[\"<]}
		inc=${inc%%[\">]*}
		rel=${file#"$src"/}
		case $inc in
		*/*)
			to=${inc%%/*}
			# <opensm/...>, <sys/...>: not ours
			[ -d "$src/$to" ] || continue
			[ "$to" = "$layer" ] && continue
			[[ " ${allowed[$layer]} " == *" $to "* ]] && continue
			offend "src/$rel:$line includes \"$inc\": $layer may use only: ${allowed[$layer]:-nothing}"
			;;
		config.h) ;;
		*)
			[[ $text == *'<'* ]] && continue # <stdio.h>
			[ -f "$(dirname "$file")/$inc" ] ||
				offend "src/$rel:$line includes \"$inc\": name project headers by layer (\"model/fabric.h\")"
			;;
		esac
	done < <(includes "$dir")
done

# Cycles between files.  Edges: from a .c file to the .c files defining
# an external function or variable it names, from a header to the
# headers it includes.  Defined: a line that starts the definition of a
# function that is not static ("type name(" or, kernel style, "name("
# under its type's line), or of an external variable ("type name[] =").
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$src" && find . -name '*.c' | sed 's|^\./||' | sort) >"$tmp/cfiles"
while read -r c; do
	awk -v file="$c" '
		/^[A-Za-z_]/ && !/;[[:space:]]*$/ && !/^(static|typedef|enum|union|extern|#)/ {
			if (match($0, /[A-Za-z_][A-Za-z0-9_]*(\[\])? *[(=]/) &&
			    !(RSTART == 1 && prev ~ /^static/)) {
				name = substr($0, RSTART, RLENGTH)
				sub(/(\[\])? *[(=]$/, "", name)
				print name, file
			}
		}
		{ prev = $0 }' "$src/$c"
done <"$tmp/cfiles" | sort -u >"$tmp/defs"
awk '{ print $1 }' "$tmp/defs" >"$tmp/names"
{
	(cd "$src" && includes . --include='*.h') |
		while IFS=: read -r file _ text; do
			inc=${text#*[\"<]}
			inc=${inc%%[\">]*}
			[[ $file == *.h && $inc == */* ]] &&
				[ -d "$src/${inc%%/*}" ] && echo "${file#./} $inc"
		done
	while read -r c; do
		# code only: comments name functions too
		sed -e 's|/\*.*\*/||g' -e '/^[[:space:]]*\/\{0,1\}\*/d' "$src/$c" |
			grep -owF -f "$tmp/names" | sort -u |
			awk -v file="$c" 'NR == FNR { def[$1] = $2; next }
				def[$1] != "" { print file, def[$1] }' "$tmp/defs" -
	done <"$tmp/cfiles"
} | awk '$1 != $2' | sort -u >"$tmp/edges"
# Depth-first search; a unit met again on the current path closes a
# cycle, printed once per set of units.
cycles=$(awk '
	{ adj[$1] = adj[$1] " " $2; units[$1] = 1; units[$2] = 1 }
	function visit(u,    n, i, v, k, path, key) {
		state[u] = 1
		stack[++depth] = u
		n = split(adj[u], next_, " ")
		for (i = 1; i <= n; i++) {
			v = next_[i]
			if (state[v] == 1) {
				path = v
				for (k = depth; stack[k] != v; k--)
					path = stack[k] " -> " path
				path = v " -> " path
				print path
			} else if (!state[v]) {
				visit(v)
				n = split(adj[u], next_, " ")
			}
		}
		depth--
		state[u] = 2
	}
	END { for (u in units) if (!state[u]) visit(u) }' "$tmp/edges" | sort -u)
while read -r cyc; do
	[ -n "$cyc" ] && offend "files depend on each other: $cyc"
done <<<"$cycles"

# Every header on its own (OpenSM's for the plugin's, libibmad's for live).
for h in $(cd "$src" && find . -name '*.h' | sed 's|^\./||' | sort); do
	printf '#include "%s"\n' "$h" >"$tmp/t.c"
	"$cc" -std=gnu11 -Wall -Wextra -Werror -fsyntax-only -I"$src" \
		-I/usr/include/infiniband "$tmp/t.c" 2>"$tmp/err" ||
		offend "src/$h does not compile on its own: $(head -3 "$tmp/err" | tr '\n' ' ')"
done

[ "$bad" -eq 0 ] && echo "check-layers: every include points down the layers; no cycle between files; every header compiles on its own"
exit "$bad"
