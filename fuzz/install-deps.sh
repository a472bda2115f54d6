#!/bin/sh
# Installs what `make fuzz` needs besides the project's own packages
# (scripts/install-deps.sh): clang 14 and its sanitizer and libFuzzer
# runtimes.  Does nothing when they are present.
set -eu
missing=""
for p in clang-14 libclang-rt-14-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "fuzz/install-deps: installing:$missing"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || {
    echo "fuzz/install-deps: missing and I am not root:$missing" >&2
    exit 1
  }
  SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
