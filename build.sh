#!/usr/bin/env bash
# build.sh -- make a fresh Debian 12 machine able to build mvm, then build it.
# Installs the missing Debian packages (with sudo unless run as root; always
# refreshes the package lists when CI=true), configures and builds into
# ./build (or $BUILD_DIR).  Extra arguments go to the cmake configure step.
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(build-essential cmake pkg-config check libedit-dev libffi-dev
          llvm-19-dev lua5.4 liblua5.4-dev
          lua-lpeg lua-cjson lua-filesystem)   # stock C modules for tests/embed

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ] || [ "${CI:-}" = true ]; then
  SUDO=
  [ "$(id -u)" = 0 ] || SUDO=sudo
  echo "build.sh: installing ${missing[*]:-(refresh only)}"
  $SUDO apt-get update
  if [ ${#missing[@]} -gt 0 ]; then
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
  fi
fi

BUILD_DIR=${BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" "$@"
cmake --build "$BUILD_DIR" -j"$(nproc)"
