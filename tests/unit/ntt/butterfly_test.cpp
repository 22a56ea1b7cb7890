// The NTT's fused add/sub (inline assembly on x86-64) against Fr's own
// addition and subtraction, on edge values and random elements, including
// aliased outputs as the butterflies use them.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "ntt/butterfly.hpp"

using namespace cuzk;
using ff::Fr;

namespace {

std::vector<Fr> values() {
  std::vector<Fr> v = {Fr::zero(), Fr::one(), -Fr::one(), Fr::from_u64(2), -Fr::from_u64(2)};
  // (p-1)/2 and (p+1)/2: sums straddle p.
  const Fr half = Fr::from_u64(2).inverse();
  v.push_back(half);
  v.push_back(half - Fr::one());
  v.push_back(-half);
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200; i++) v.push_back(Fr::random(rng));
  return v;
}

TEST(NttButterfly, AddSubMatchesFieldOps) {
  const auto v = values();
  for (const Fr& a : v) {
    for (const Fr& b : v) {
      Fr s, d;
      ntt::detail::add_sub(s, d, a, b);
      ASSERT_EQ(s, a + b);
      ASSERT_EQ(d, a - b);
      Fr u = a, w = b;  // outputs aliasing the inputs
      ntt::detail::add_sub(u, w, u, w);
      ASSERT_EQ(u, a + b);
      ASSERT_EQ(w, a - b);
    }
  }
}

TEST(NttButterfly, CtAndGsAreInverse) {
  const auto v = values();
  const Fr two_inv = Fr::from_u64(2).inverse();
  for (size_t i = 0; i + 2 < v.size(); i += 3) {
    const Fr z = v[i + 2].is_zero() ? Fr::one() : v[i + 2];
    Fr u = v[i], w = v[i + 1];
    ntt::detail::ct(u, w, z);
    ASSERT_EQ(u, v[i] + z * v[i + 1]);
    ASSERT_EQ(w, v[i] - z * v[i + 1]);
    ntt::detail::gs(u, w, z.inverse());
    ASSERT_EQ(u * two_inv, v[i]);
    ASSERT_EQ(w * two_inv, v[i + 1]);
  }
}

}  // namespace
