// ec::PackedAffineSpan reads snarkjs's packed layout (Montgomery limbs,
// little-endian, zero bytes for infinity) at any alignment; the bytes are
// written independently (GMP, pack_points.hpp).
#include <gtest/gtest.h>

#include <random>

#include "ec/packed_affine.hpp"
#include "unit/ec/ec_test_util.hpp"
#include "unit/ec/pack_points.hpp"

using namespace cuzk;

template <class C>
class PackedAffine : public ::testing::Test {};
using Curves = ::testing::Types<ec::G1Curve, ec::G2Curve>;
TYPED_TEST_SUITE(PackedAffine, Curves);

TYPED_TEST(PackedAffine, ReadsEveryPointAtAnyAlignment) {
  using C = TypeParam;
  std::mt19937_64 rng(7);
  std::vector<ec::Affine<C>> pts;
  for (int i = 0; i < 9; i++) pts.push_back(ec::test::random_subgroup_point<C>(rng).to_affine());
  pts[3] = ec::Affine<C>::identity();
  pts.push_back(ec::Affine<C>::identity());
  pts.push_back(C::generator().neg());
  for (size_t lead : {0, 4, 5}) {
    const auto bytes = ec::test::pack_points<C>(pts, lead);
    ASSERT_EQ(bytes.size(), lead + pts.size() * ec::PackedAffineSpan<C>::kPointBytes);
    const ec::PackedAffineSpan<C> view(bytes.data() + lead, pts.size());
    ASSERT_EQ(view.size(), pts.size());
    for (size_t i = 0; i < pts.size(); i++) {
      EXPECT_EQ(view.is_identity(i), pts[i].is_identity()) << "lead " << lead << " point " << i;
      EXPECT_EQ(view[i], pts[i]) << "lead " << lead << " point " << i;
      if (!pts[i].is_identity()) {
        typename C::Base x, y;
        view.load_xy(i, x, y);
        EXPECT_TRUE(x == pts[i].x && y == pts[i].y) << "lead " << lead << " point " << i;
      }
    }
    const auto tail = view.subspan(9, 2);
    EXPECT_TRUE(tail.is_identity(0));
    EXPECT_EQ(tail[1], pts[10]);
  }
}

TYPED_TEST(PackedAffine, OneNonZeroByteIsNotTheIdentity) {
  using C = TypeParam;
  constexpr size_t kBytes = ec::PackedAffineSpan<C>::kPointBytes;
  for (size_t k : {size_t(0), size_t(7), kBytes / 2, kBytes - 1}) {
    std::vector<uint8_t> b(kBytes + 1, 0);
    b[1 + k] = 0x10;
    EXPECT_FALSE(ec::PackedAffineSpan<C>(b.data() + 1, 1).is_identity(0)) << "byte " << k;
  }
}
