# Sourced by scripts/test-sanitizers.sh and scripts/fuzz.sh: how the sanitizer
# build folders are configured, in one place.
#   asan_configure DIR   clang, AddressSanitizer + UBSan, libFuzzer-instrumented
#                        (the unit suites and the fuzz targets share the build)
#   tsan_configure DIR   ThreadSanitizer
# Both build without -march=native (CUZK_NATIVE=OFF), so CI also runs the
# portable build a distribution package would ship; -g1 (line tables) keeps
# the reports' file:line while building faster than full debug information.
source scripts/cmake-generator.sh
asan_configure() {
  CC=clang CXX=clang++ cmake -S . -B "$1" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1" -DCUZK_NATIVE=OFF \
    -DCUZK_SANITIZE=address,undefined -DCUZK_FUZZ=ON -DCUZK_BUILD_BENCH=OFF >/dev/null
}
tsan_configure() {
  cmake -S . -B "$1" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1" \
    -DCUZK_NATIVE=OFF -DCUZK_SANITIZE=thread -DCUZK_BUILD_BENCH=OFF >/dev/null
}
