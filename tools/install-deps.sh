#!/usr/bin/env bash
# Install what warpsim needs to build and test on Debian/Ubuntu, if missing.
# Works as root or through sudo; does nothing when everything is present.
set -euo pipefail
packages="meson ninja-build pkg-config gcc libc6-dev libglib2.0-dev libjansson-dev check python3 libzstd-dev"
packages="$packages clang" # tools/fuzz.sh: libFuzzer and the sanitizers come with Debian's clang
packages="$packages valgrind" # tools/leak-check.sh
packages="$packages chromium" # tests/html: a headless browser loads the HTML report (warpsim run --html)
missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "install-deps: installing$missing"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
