// TreeSummer: batch-affine segment sums against Jacobian sums, including
// doublings (P + P), cancellations (P + -P), identities and long segments.
#include <gtest/gtest.h>

#include <random>

#include "msm/batch_affine.hpp"
#include "msm/ifma_kernels.hpp"
#include "msm_test_util.hpp"
#include "platform/cpu_features.hpp"

using namespace cuzk;
using namespace cuzk::msm::detail;

template <class C>
class TreeSum : public ::testing::Test {};
using Curves = ::testing::Types<ec::G1Curve, ec::G2Curve>;
TYPED_TEST_SUITE(TreeSum, Curves);

TYPED_TEST(TreeSum, SegmentsMatchJacobianSums) {
  using C = TypeParam;
  std::mt19937_64 rng(21);
  std::vector<ff::Fr> dl(40);
  auto aff = msm_test::points_from<C>(dl, rng);
  std::vector<Pt<C>> orig(aff.size());
  for (size_t i = 0; i < aff.size(); i++) orig[i] = {aff[i].x, aff[i].y};
  // Also with the IFMA kernels (points in their domain), where the CPU has them.
  constexpr size_t kFp = sizeof(Pt<C>) / sizeof(ff::Fp);
  for (int mode = 0; mode < (platform::use_ifma() ? 2 : 1); mode++)
    for (size_t batch : {1, 3, 64, 4096}) {
      std::vector<Pt<C>> pts = orig;
      TreeSummer<C> ts;
      ts.ifma = mode == 1;
      // Point i of `pts` as the scalar code sees it (converted back if needed).
      auto plain = [&](Ref r) {
        if (!r) return ec::Affine<C>::identity();
        Pt<C> q = *ref_ptr<C>(r);
        if (mode == 1) msm::ifma::points_from_domain(reinterpret_cast<uint64_t*>(&q), 1, kFp);
        return ec::Affine<C>::from_xy(q.x, ref_neg(r) ? -q.y : q.y);
      };
      if (mode == 1) msm::ifma::points_to_domain(reinterpret_cast<uint64_t*>(pts.data()), pts.size(), kFp);
      std::vector<ec::Jacobian<C>> want;
      // Segment kinds: random, all equal (doublings), P,-P pairs, with nulls, length 1, long.
      for (int s = 0; s < 40; s++) {
        uint32_t begin = uint32_t(ts.refs.size());
        size_t len = s == 0 ? 1 : s == 1 ? 300 : 1 + rng() % 9;
        auto acc = ec::Jacobian<C>::identity();
        for (size_t t = 0; t < len; t++) {
          size_t i = rng() % pts.size();
          bool neg = rng() & 1;
          if (s % 5 == 2) i = 7;        // equal points: doublings
          if (s % 5 == 3) neg = t % 2;  // P, -P, P, -P ...: cancellations
          if (s % 5 == 3) i = 11;
          Ref r = make_ref<C>(&pts[i], neg);
          if (s % 7 == 4 && t % 3 == 0) r = 0;  // identities inside a segment
          ts.refs.push_back(r);
          if (r) acc = acc.add(ec::Jacobian<C>::from_affine(plain(r)));
        }
        ts.segs.push_back({uint32_t(s), begin, uint32_t(ts.refs.size())});
        want.push_back(acc);
      }
      std::vector<int> seen(want.size(), 0);
      ts.run(
          [&](uint32_t id, Ref r) {
            seen[id]++;
            EXPECT_EQ(ec::Jacobian<C>::from_affine(plain(r)), want[id])
                << "segment " << id << " mode " << mode;
          },
          batch);
      for (int s : seen) EXPECT_EQ(s, 1);
    }
}

// Sums written straight into their destination, which may also be an input
// (a bucket's previous value), including negated and cancelling inputs.
TYPED_TEST(TreeSum, DirectDestinations) {
  using C = TypeParam;
  std::mt19937_64 rng(22);
  std::vector<ff::Fr> dl(16);
  auto aff = msm_test::points_from<C>(dl, rng);
  std::vector<Pt<C>> pts(aff.size());
  for (size_t i = 0; i < aff.size(); i++) pts[i] = {aff[i].x, aff[i].y};
  const size_t S = 60;
  std::vector<Pt<C>> dst(S);
  std::vector<uint8_t> has(S);
  std::vector<ec::Jacobian<C>> want(S);
  TreeSummer<C> ts;
  for (size_t s = 0; s < S; s++) {
    uint32_t begin = uint32_t(ts.refs.size());
    auto acc = ec::Jacobian<C>::identity();
    if (s % 3 != 0) {  // a previous value in the destination
      size_t i = rng() % pts.size();
      dst[s] = pts[i];
      ts.refs.push_back(make_ref<C>(&dst[s], false));
      acc = ec::Jacobian<C>::from_affine(to_affine<C>(ts.refs.back()));
    }
    size_t len = 1 + s % 4;
    for (size_t t = 0; t < len; t++) {
      size_t i = rng() % pts.size();
      bool neg = rng() & 1;
      if (s % 5 == 1) neg = true;                // both operands negated
      if (s % 7 == 2 && t == 0 && s % 3 != 0) {  // cancels the previous value
        ts.refs.push_back(make_ref<C>(&dst[s], true));
      } else {
        ts.refs.push_back(make_ref<C>(&pts[i], neg));
      }
      if (!(s % 7 == 2 && t == 0 && s % 3 != 0))
        acc = acc.add(ec::Jacobian<C>::from_affine(to_affine<C>(ts.refs.back())));
      else acc = acc.add(ec::Jacobian<C>::from_affine(ec::Affine<C>::from_xy(dst[s].x, -dst[s].y)));
    }
    ts.segs.push_back({uint32_t(s), begin, uint32_t(ts.refs.size())});
    want[s] = acc;
  }
  ts.run(
      [&](uint32_t id, Ref r) {
        has[id] = r != 0;
        if (!r) return;
        const Pt<C>* q = ref_ptr<C>(r);
        if (q != &dst[id]) {
          dst[id] = *q;
          if (ref_neg(r)) dst[id].y = -dst[id].y;
        } else if (ref_neg(r)) {
          dst[id].y = -dst[id].y;
        }
      },
      7, [&](uint32_t id) { return &dst[id]; });
  for (size_t s = 0; s < S; s++) {
    auto got = has[s] ? ec::Jacobian<C>::from_affine(ec::Affine<C>::from_xy(dst[s].x, dst[s].y))
                      : ec::Jacobian<C>::identity();
    EXPECT_EQ(got, want[s]) << "segment " << s;
  }
}
