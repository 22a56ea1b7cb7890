#!/usr/bin/env bash
# Builds the Debian package: a portable Release build of the three programs
# (CUZK_NATIVE=OFF: no -march=native, the asm kernels are still picked at run
# time; no tests, no benchmarks) in ./build-pkg (or $CUZK_PKG_DIR), then
# `cpack -G DEB`. Prints the path of cuzk_<version>_<arch>.deb on the last line.
# Extra args go to cmake (e.g. -DCUZK_DEB_MAINTAINER="Name <mail>").
#
# Install:  sudo apt-get install ./build-pkg/cuzk_*.deb
# Layout, dependencies and maintainer scripts: contrib/packaging.cmake and
# contrib/debian/; README "Installing (Debian package)".
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${CUZK_PKG_DIR:-build-pkg}
command -v dpkg-shlibdeps >/dev/null ||
  { echo "package-deb: dpkg-shlibdeps is missing (apt-get install dpkg-dev); it finds the library dependencies" >&2; exit 1; }
# Warnings are not errors here (CUZK_WERROR=ON to make them so): the test
# command enforces the warning policy, a package build should not stop at a
# new compiler's new warning.
CUZK_BUILD_DIR=$dir CUZK_BUILD_TARGETS="cuzk-daemon cuzk cuzk-bench" bash scripts/build.sh \
  -DCUZK_NATIVE=OFF -DCUZK_BUILD_TESTS=OFF -DCUZK_BUILD_BENCH=OFF -DCUZK_WERROR="${CUZK_WERROR:-OFF}" "$@"
rm -f "$dir"/cuzk_*.deb
(cd "$dir" && cpack -G DEB > cpack.log 2>&1) ||
  { echo "package-deb: cpack failed; the end of $dir/cpack.log:" >&2; tail -n 30 "$dir/cpack.log" >&2; exit 1; }
deb=$(ls "$dir"/cuzk_*.deb)
echo "package-deb: $(dpkg-deb -f "$deb" Package Version Architecture | paste -sd ' ')"
echo "package-deb: Depends: $(dpkg-deb -f "$deb" Depends)"
echo "$deb"
