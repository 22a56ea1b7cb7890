# Sourced by the scripts that configure build folders (build.sh,
# sanitizer-builds.sh, gpu-check.sh): new folders use Ninja when it is
# installed (scripts/install-deps.sh installs it). Ninja can start a library's
# compiles before the libraries below it are linked (make waits at every
# layer) and records every file's compile time in <build>/.ninja_log.
# An existing folder keeps the generator it was made with (CMake reads
# CMAKE_GENERATOR only for a new folder); an explicit CMAKE_GENERATOR wins.
if [ -z "${CMAKE_GENERATOR:-}" ] && command -v ninja > /dev/null; then
  export CMAKE_GENERATOR=Ninja
fi
