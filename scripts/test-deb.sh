#!/usr/bin/env bash
# Builds the Debian package from a copy of the tree (debian/; the checkout
# stays clean), checks it with lintian (no errors), installs it with apt,
# runs the packaged stock OpenSM setup once against ibsim -- the installed
# osmtopo's `sim` with no plugin directory, so OpenSM must find the
# packaged libosmtopo.so where it looks for event plugins -- with
# routing_engine hdor on topologies/cellia-kns-6x2.net, checks that hdor
# routed every CA pair (OpenSM's log, then `osmtopo check --live`), and
# removes the package.  Needs root (apt).  Ends with "N passed, N failed".
#
# usage: scripts/test-deb.sh [WORK_DIR]    (default: a new temporary one)
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d "${TMPDIR:-/tmp}/osmtopo-deb.XXXXXX")}
net=$src/topologies/cellia-kns-6x2.net
pass=0
fail=0
installed=0
sim=$work/sim

ok() { echo "test-deb: ok: $*"; pass=$((pass + 1)); }
bad() { echo "test-deb: FAIL: $*"; fail=$((fail + 1)); }
finish() {
	[ -d "$sim" ] && /usr/bin/osmtopo sim stop --dir "$sim" 2>/dev/null
	if [ "$installed" = 1 ]; then
		DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq osmtopo >"$work/remove.log" 2>&1 &&
			! dpkg -s osmtopo >/dev/null 2>&1 && ok "package removed" ||
			bad "package removal: $(tail -3 "$work/remove.log")"
	fi
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
	exit
}
trap finish EXIT
trap 'exit 130' INT TERM

[ "$(id -u)" -eq 0 ] || { bad "needs root to install the package"; exit; }
if dpkg -s osmtopo >/dev/null 2>&1; then
	bad "osmtopo is installed already: not touching it"
	exit
fi
# Else OpenSM might load another copy than the package's.
if ldconfig -p | grep -q 'libosmtopo\.so ' ||
	ls /usr/local/lib/libosmtopo.so /usr/lib/libosmtopo.so >/dev/null 2>&1; then
	bad "a libosmtopo.so is on the library search path already"
	exit
fi

# A copy of the tracked and new files (not build trees, not ignored files),
# in place of any from an earlier run.
rm -rf "$work/tree" "$sim" "$work"/osmtopo*_*.deb
mkdir -p "$work/tree"
(cd "$src" && git ls-files -z -co --exclude-standard |
	xargs -0 -I{} sh -c 'test -e "{}" -o -L "{}" && printf "%s\0" "{}"' |
	tar --null -T - -cf -) | tar -C "$work/tree" -xf - ||
	{ bad "cannot copy the tree"; exit; }
# Unit tests run in their own step of test-all.sh: not again here.
if (cd "$work/tree" && DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" \
	dpkg-buildpackage -us -uc -b) >"$work/build.log" 2>&1; then
	ok "dpkg-buildpackage"
else
	bad "dpkg-buildpackage: $(tail -5 "$work/build.log")"
	exit
fi
deb=$(ls "$work"/osmtopo_*.deb)
lintian "$deb" >"$work/lintian.log" 2>&1
if grep -q '^E:' "$work/lintian.log"; then
	bad "lintian errors: $(grep '^E:' "$work/lintian.log" | head -5)"
else
	ok "lintian: no errors ($(grep -c '^W:' "$work/lintian.log") warnings)"
fi
dpkg -c "$deb" >"$work/contents"
for f in ./usr/bin/osmtopo "./usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/libosmtopo.so" \
	./usr/share/man/man1/osmtopo.1.gz ./usr/share/man/man1/osmtopo-check.1.gz \
	./usr/share/doc/osmtopo/examples/opensm-osmtopo.conf; do
	grep -q " $f\$" "$work/contents" || bad "$f not in the package"
done

DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$deb" >"$work/install.log" 2>&1 ||
	{ bad "apt-get install: $(tail -3 "$work/install.log")"; exit; }
installed=1
ok "package installed"
man -w osmtopo-route >/dev/null 2>&1 || bad "no man page osmtopo-route(1)"

# OpenSM from the package, the plugin from its packaged place: no
# LD_LIBRARY_PATH, and the installed tool adds none.
unset LD_LIBRARY_PATH
osm() { /usr/bin/osmtopo sim "$@"; }
if osm start --dir "$sim" "$net" &&
	osm opensm --dir "$sim" --once --timeout 300 -- -R hdor; then
	if grep -q -F "hdor tables configured on all switches" "$sim/opensm.log"; then
		ok "stock OpenSM routed with the packaged hdor"
	else
		bad "hdor did not route: $(grep -E 'osmtopo|ERR' "$sim/opensm.log" | tail -3)"
	fi
	cas=$(grep -c -E '^(Hca|Ca)' "$net")
	osm run --dir "$sim" -- /usr/bin/osmtopo check --json --engine hdor --live \
		>"$work/check.json" 2>"$work/check.err"
	if python3 - "$work/check.json" "$cas" <<'PY'; then
import json, sys
r = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
sys.exit(not (r["pairs"] == n * (n - 1) and r["unreachable"] == 0 and
	      r["forwarding_loops"] == 0 and r["violations"] == 0))
PY
		ok "osmtopo check --live: all $((cas * (cas - 1))) CA pairs on hdor's paths"
	else
		bad "live check: $(head -c 300 "$work/check.json") $(cat "$work/check.err")"
	fi
else
	bad "OpenSM did not run: $(tail -3 "$sim/opensm.out" 2>/dev/null)"
fi
