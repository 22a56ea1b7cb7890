#!/usr/bin/env bash
# Installs the Debian packages cuzk builds and tests with (as root, via apt-get),
# skipping the update/install when everything is already present.
set -euo pipefail
pkgs=(build-essential cmake ninja-build pkg-config git
      libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
      libtbb-dev nlohmann-json3-dev libtomlplusplus-dev libcli11-dev libspdlog-dev libfmt-dev
      libssl-dev libgmp-dev libgtest-dev libbenchmark-dev
      libpq-dev postgresql  # the fleet queue (src/fleet) and its tests' throwaway server
      clang libclang-rt-dev  # clang + libFuzzer: the sanitizer and fuzz builds
      clang-format clang-tidy  # scripts/format.sh (checked by the tests), scripts/tidy.sh
      systemd)  # systemd-analyze for the packaging test (nothing is started; ~18 MB with its libraries)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all packages present"
fi
