#!/usr/bin/env bash
# Installs what osmtopo needs on Debian 12 to build, test and run the demo:
# stock OpenSM and its headers, ibsim, infiniband-diags, the MAD libraries,
# autotools, Check, valgrind and xmllint (libxml2-utils: the SVG tests); clang with libFuzzer (scripts/fuzz.sh);
# debhelper, help2man and lintian (debian/, scripts/test-deb.sh).  Needs root (or sudo) only when something
# is missing.
set -eu

packages=(
	build-essential autoconf automake libtool pkg-config
	check valgrind python3 time libxml2-utils
	opensm libopensm-dev ibsim-utils infiniband-diags
	libibnetdisc-dev libibmad-dev libibumad-dev libjansson-dev
	clang libclang-rt-14-dev
	dpkg-dev debhelper fakeroot help2man lintian
)

missing=()
for p in "${packages[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing+=("$p")
	fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

as_root=()
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null 2>&1 || {
		echo "setup: need root to install: ${missing[*]}" >&2
		exit 1
	}
	as_root=(sudo)
fi
echo "setup: installing ${missing[*]}" >&2
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq \
	--no-install-recommends "${missing[@]}" >/dev/null
