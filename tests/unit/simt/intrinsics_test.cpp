// The integer intrinsics against bit-by-bit definitions, and CUDA's min/max.
#include <cstdint>
#include <random>

#include "simt_test_util.hpp"

namespace cuzk::simt::test {
namespace {

int popc_ref(uint64_t x) {
  int n = 0;
  for (; x; x >>= 1) n += int(x & 1);
  return n;
}
int clz_ref(uint64_t x, int bits) {
  int n = 0;
  for (int b = bits - 1; b >= 0 && !((x >> b) & 1); b--) n++;
  return n;
}
int ffs_ref(uint64_t x, int bits) {
  for (int b = 0; b < bits; b++)
    if ((x >> b) & 1) return b + 1;
  return 0;
}
uint64_t brev_ref(uint64_t x, int bits) {
  uint64_t r = 0;
  for (int b = 0; b < bits; b++) r |= ((x >> b) & 1) << (bits - 1 - b);
  return r;
}
// High halves from 16-bit schoolbook products (no wide integer type).
uint64_t mulhi_ref(uint64_t a, uint64_t b) {
  uint32_t x[4], y[4], z[8] = {};
  for (int i = 0; i < 4; i++) {
    x[i] = uint32_t(a >> (16 * i)) & 0xffff;
    y[i] = uint32_t(b >> (16 * i)) & 0xffff;
  }
  for (int i = 0; i < 4; i++) {
    uint32_t carry = 0;
    for (int j = 0; j < 4; j++) {
      const uint32_t t = x[i] * y[j] + z[i + j] + carry;
      z[i + j] = t & 0xffff;
      carry = t >> 16;
    }
    z[i + 4] = carry;
  }
  return uint64_t(z[4]) | uint64_t(z[5]) << 16 | uint64_t(z[6]) << 32 | uint64_t(z[7]) << 48;
}

TEST(SimtIntrinsics, MatchBitDefinitions) {
  std::mt19937_64 rng(5);
  for (int i = 0; i < 20000; i++) {
    uint64_t x = rng(), y = rng();
    if (i % 4 == 1) x >>= (rng() % 64);  // leading zeros
    if (i % 4 == 2) x <<= (rng() % 64);  // trailing zeros
    if (i == 3) x = 0;
    const uint32_t x32 = uint32_t(x), y32 = uint32_t(y);
    ASSERT_EQ(__popc(x32), popc_ref(x32));
    ASSERT_EQ(__popcll(x), popc_ref(x));
    ASSERT_EQ(__clz(int(x32)), clz_ref(x32, 32));
    ASSERT_EQ(__clzll((long long)x), clz_ref(x, 64));
    ASSERT_EQ(__ffs(int(x32)), ffs_ref(x32, 32));
    ASSERT_EQ(__ffsll((long long)x), ffs_ref(x, 64));
    ASSERT_EQ(__brev(x32), brev_ref(x32, 32));
    ASSERT_EQ(__brevll(x), brev_ref(x, 64));
    ASSERT_EQ(__umulhi(x32, y32), uint32_t((uint64_t(x32) * y32) >> 32));
    ASSERT_EQ(__umul64hi(x, y), mulhi_ref(x, y));
    // Signed: the unsigned high half minus the corrections for negative inputs.
    const uint64_t shi = mulhi_ref(x, y) - ((int64_t(x) < 0) ? y : 0) - ((int64_t(y) < 0) ? x : 0);
    ASSERT_EQ(__mul64hi((long long)x, (long long)y), (long long)shi);
    ASSERT_EQ(__mulhi(int(x32), int(y32)), int((int64_t(int32_t(x32)) * int32_t(y32)) >> 32));
    const unsigned sel = unsigned(rng());
    unsigned perm = 0;
    for (int k = 0; k < 4; k++) {
      const unsigned src = (sel >> (4 * k)) & 7;
      const unsigned byte = src < 4 ? (x32 >> (8 * src)) & 0xff : (y32 >> (8 * (src - 4))) & 0xff;
      perm |= byte << (8 * k);
    }
    ASSERT_EQ(__byte_perm(x32, y32, sel), perm);
    const unsigned sh = unsigned(rng() % 64);
    const uint64_t both = uint64_t(y32) << 32 | x32;
    ASSERT_EQ(__funnelshift_l(x32, y32, sh), uint32_t((both << (sh % 32)) >> 32));
    ASSERT_EQ(__funnelshift_r(x32, y32, sh), uint32_t(both >> (sh % 32)));
  }
}

TEST(SimtIntrinsics, MinMaxAsCuda) {
  EXPECT_EQ(min(3, -4), -4);
  EXPECT_EQ(max(3u, 4u), 4u);
  EXPECT_EQ(min(-1, 1u), 1u);  // mixed signedness compares as unsigned, as CUDA's overloads do
  EXPECT_EQ(max(5ll, 7ull), 7ull);
  EXPECT_EQ(min(2.5f, -1.0f), -1.0f);
  EXPECT_EQ(max(2.5, 3.5), 3.5);
}

}  // namespace
}  // namespace cuzk::simt::test
