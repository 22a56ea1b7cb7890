// Batch curve checks (ec/curve_check.hpp): the first point off its curve is
// found wherever it sits (every lane of an eight-point group, the tail), on
// both curves, with the IFMA lanes and with the scalar fallback, and agrees
// with Affine::is_on_curve point by point.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "ec/curve_check.hpp"
#include "ec/scalar_mul.hpp"
#include "platform/cpu_features.hpp"

using namespace cuzk;

namespace {

template <class C>
std::vector<ec::Affine<C>> random_points(size_t n, std::mt19937_64& rng) {
  std::vector<ec::Affine<C>> v(n);
  const auto g = ec::Jacobian<C>::from_affine(C::generator());
  for (auto& p : v) p = ec::mul_vartime(g, ff::Fr::random(rng)).to_affine();
  return v;
}

// The paths to try: IFMA (where the CPU has it) and the scalar fallback.
std::vector<bool> paths() {
  std::vector<bool> v{false};
  if (platform::cpu_features().ifma) v.push_back(true);
  return v;
}

template <class C>
void check_curve(uint64_t seed) {
  std::mt19937_64 rng(seed);
  const bool was = platform::use_ifma();
  for (bool ifma : paths()) {
    platform::set_use_ifma(ifma);
    for (size_t n : {0, 1, 7, 8, 9, 23, 40}) {
      auto pts = random_points<C>(n, rng);
      if (n > 3) pts[2] = ec::Affine<C>::identity();  // identities pass
      ASSERT_EQ(ec::first_off_curve(std::span<const ec::Affine<C>>(pts)), n) << "ifma=" << ifma << " n=" << n;
      // One bad point at every position, then two (the first one counts).
      for (size_t bad = 0; bad < n; bad++) {
        auto v = pts;
        if (v[bad].infinity) continue;
        v[bad].y = v[bad].y + C::Base::one();
        ASSERT_FALSE(v[bad].is_on_curve());
        ASSERT_EQ(ec::first_off_curve(std::span<const ec::Affine<C>>(v)), bad)
            << "ifma=" << ifma << " n=" << n << " bad=" << bad;
        if (bad + 3 < n && !v[bad + 3].infinity) {
          v[bad + 3].x = v[bad + 3].x + C::Base::one();
          ASSERT_EQ(ec::first_off_curve(std::span<const ec::Affine<C>>(v)), bad);
        }
      }
    }
    // y = -y stays on the curve; x and y swapped does not.
    auto v = random_points<C>(16, rng);
    for (auto& p : v) p.y = -p.y;
    EXPECT_EQ(ec::first_off_curve(std::span<const ec::Affine<C>>(v)), 16u);
    std::swap(v[11].x, v[11].y);
    EXPECT_EQ(ec::first_off_curve(std::span<const ec::Affine<C>>(v)), 11u);
  }
  platform::set_use_ifma(was);
}

}  // namespace

TEST(CurveCheck, G1FirstOffCurvePoint) { check_curve<ec::G1Curve>(1); }
TEST(CurveCheck, G2FirstOffCurvePoint) { check_curve<ec::G2Curve>(2); }
