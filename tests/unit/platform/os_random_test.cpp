// platform::os_random: the kernel CSPRNG behind the prover's r and s.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "platform/os_random.hpp"

using cuzk::platform::os_random;

TEST(OsRandom, FillsLargeRequestsWithUniformBytes) {
  // 64 KiB: far over getrandom's 256-byte unsplit limit, so short reads are
  // continued. Each byte value is expected 256 times; a chi-square over the
  // 256 counts (255 degrees of freedom) lies below 400 except with
  // probability ~1e-8.
  std::vector<uint8_t> buf(1 << 16);
  os_random(buf);
  std::array<double, 256> count{};
  for (uint8_t b : buf) count[b]++;
  const double expected = double(buf.size()) / 256;
  double chi2 = 0;
  for (double c : count) chi2 += (c - expected) * (c - expected) / expected;
  EXPECT_LT(chi2, 400.0);
  EXPECT_GT(chi2, 150.0);  // nor suspiciously even (also p ~ 1e-8)
}

TEST(OsRandom, TwoDrawsDifferAndEmptyIsFine) {
  std::array<uint8_t, 32> a{}, b{};
  os_random(a);
  os_random(b);
  EXPECT_NE(a, b);
  os_random(std::span<uint8_t>{});
}
