#!/bin/sh
# Installs the Debian packages Loom needs to build and test, when any is
# missing.  Run as root (or with sudo) on a fresh Debian 12 machine.
set -eu

PACKAGES="build-essential pkg-config xz-utils cmake ninja-build gdb python3
  libclang-14-dev clang-14 libisl-dev libcriterion-dev
  libopenmpi-dev openmpi-bin libmetis-dev libscotch-dev libptscotch-dev
  libhdf5-openmpi-dev petsc-dev"

missing=""
for p in $PACKAGES; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done
[ -z "$missing" ] && exit 0

echo "install-deps: installing:$missing"
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "install-deps: these packages are missing and I am not root:$missing" >&2
    exit 1
  fi
else
  SUDO=""
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
