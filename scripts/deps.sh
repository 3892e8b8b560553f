#!/bin/sh
# Installs the Debian packages gemmtop needs that are missing. Quiet when all are present.
#   scripts/deps.sh build   what building and running needs
#   scripts/deps.sh test    that, plus what the test suite needs
set -eu
what=${1:-build}
pkgs="gcc make pkg-config libncurses-dev libsqlite3-dev libcjson-dev ocl-icd-opencl-dev opencl-c-headers ocl-icd-libopencl1 pocl-opencl-icd libclblast1"
if [ "$what" = test ]; then
   pkgs="$pkgs libcmocka-dev tmux python3 libamdhip64-dev llvm clang openmpi-bin libopenmpi-dev librsvg2-bin python3-jsonschema chromium"
fi
missing=""
for p in $pkgs; do
   if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing="$missing $p"
   fi
done
[ -z "$missing" ] && exit 0
echo "gemmtop: installing missing Debian packages:$missing" >&2
if [ "$(id -u)" -ne 0 ]; then
   if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
      echo "gemmtop: need root to install:$missing (run: apt-get install$missing)" >&2
      exit 1
   fi
else
   SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null || true
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
