#pragma once
// Shared by the libFuzzer targets (tests/fuzz/*_fuzz.cpp). A parser refusing
// its input with an exception derived from std::exception is the expected
// outcome for most inputs; a finding is anything else: a sanitizer report, a
// crash, a hang, an allocation past libFuzzer's -malloc_limit_mb, an
// exception of another type, or a broken round trip (check()).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <span>
#include <string_view>

#define CUZK_FUZZ_TARGET extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)

namespace cuzk::fuzz {

inline std::span<const uint8_t> bytes(const uint8_t* d, size_t n) { return {d, n}; }
inline std::string_view text(const uint8_t* d, size_t n) { return {reinterpret_cast<const char*>(d), n}; }

// CUZK_FUZZ_VERBOSE=1 prints each refusal (to check that seeds get deep).
inline void note_refusal(const std::exception& e) {
  static const bool verbose = std::getenv("CUZK_FUZZ_VERBOSE") != nullptr;
  if (verbose) std::fprintf(stderr, "refused: %s\n", e.what());
}

// Runs `f`; a std::exception is a refusal of bad input and is dropped.
template <class F>
void refusals_expected(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    note_refusal(e);
  }
}

// An invariant of accepted input (re-encoding reads back the same). A
// failure aborts, so libFuzzer records the input.
inline void check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
  std::abort();
}

// Runs `f`, which must not throw (it re-reads what we wrote ourselves).
template <class F>
void must_succeed(F&& f, const char* what) {
  try {
    f();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz invariant broken: %s threw: %s\n", what, e.what());
    std::abort();
  }
}

}  // namespace cuzk::fuzz
