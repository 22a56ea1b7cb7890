#pragma once
// The one switch for tests too big for the default run (CI, scripts/test.sh):
// CUZK_SLOW_TESTS=1 runs them, anything else skips them. Their names end in
// "Slow"; CTest's `slow` label runs them all (ctest --test-dir build -L slow).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string_view>

namespace cuzk_slow_tests {

inline bool enabled() {
  const char* v = std::getenv("CUZK_SLOW_TESTS");
  return v && std::string_view(v) == "1";
}

}  // namespace cuzk_slow_tests

// First statement of a slow test; `why` says what makes it slow.
#define CUZK_SLOW_TEST(why) \
  if (!::cuzk_slow_tests::enabled()) GTEST_SKIP() << "set CUZK_SLOW_TESTS=1 (" why ")"
