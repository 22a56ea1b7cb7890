// GLV scalar splitting, the endomorphism constant and signed window digits.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "msm/cost_model.hpp"
#include "msm/window_plan.hpp"
#include "msm/digits.hpp"
#include "msm/glv.hpp"
#include "msm/scalars.hpp"
#include "msm_test_util.hpp"

using namespace cuzk;
using namespace cuzk::msm;
using u128 = unsigned __int128;

namespace {

ff::Fr fr_from_u128(u128 v) {
  return *ff::Fr::from_canonical(arith::Limbs<4>{uint64_t(v), uint64_t(v >> 64), 0, 0});
}
const ff::Fr& lambda_fr() {
  static const ff::Fr l = fr_from_u128(glv::LAMBDA);
  return l;
}

void check_split(const arith::Limbs<4>& k) {
  glv::Split s = glv::split(k);
  const u128 bound = u128(1) << 127;
  ASSERT_LT(s.k1, bound);
  ASSERT_LT(s.k2, bound);
  ff::Fr a = fr_from_u128(s.k1), b = fr_from_u128(s.k2);
  if (s.neg1) a = -a;
  if (s.neg2) b = -b;
  ASSERT_EQ(a + b * lambda_fr(), *ff::Fr::from_canonical(k))
      << std::hex << uint64_t(k[3]) << " " << uint64_t(k[0]);
}

}  // namespace

TEST(Glv, LambdaIsCubeRootOfUnityModR) {
  const ff::Fr& l = lambda_fr();
  EXPECT_EQ(l.square() + l + ff::Fr::one(), ff::Fr::zero());
}

TEST(Glv, SplitEdgeCases) {
  using L = arith::Limbs<4>;
  const L r = ff::Fr::MODULUS;
  auto minus = [](L a, uint64_t v) { return ff::Fr::minus(a, v); };
  const L lam{uint64_t(glv::LAMBDA), uint64_t(glv::LAMBDA >> 64), 0, 0};
  const L x{uint64_t(glv::X), uint64_t(glv::X >> 64), 0, 0};
  std::vector<L> ks = {L{0, 0, 0, 0},
                       L{1, 0, 0, 0},
                       L{2, 0, 0, 0},
                       minus(r, 1),
                       minus(r, 2),
                       L{~0ull, ~0ull >> 1, 0, 0},
                       L{0, 1ull << 63, 0, 0},
                       L{~0ull, ~0ull, 0, 0},
                       L{0, 0, 1, 0},
                       lam,
                       minus(lam, 1),
                       x,
                       minus(x, 1),
                       L{0, 0, 0, 1ull << 62}};
  // lambda/2 +- 1, x/2 +- 1, multiples of lambda near r
  for (u128 v : {glv::LAMBDA / 2, glv::LAMBDA / 2 + 1, glv::X / 2, glv::X / 2 + 1})
    ks.push_back(L{uint64_t(v), uint64_t(v >> 64), 0, 0});
  for (const L& k : ks) check_split(k);
  // k = q*lambda + rem around the centring thresholds
  std::mt19937_64 rng(5);
  for (int t = 0; t < 200; t++) {
    u128 q = (u128(rng()) << 64 | rng()) % (glv::X + 1);
    u128 rem = t % 4 == 0 ? glv::LAMBDA / 2 + (t % 3) - 1 : (u128(rng()) << 64 | rng()) % glv::LAMBDA;
    if (t % 5 == 0) q = glv::X / 2 + (t % 3);
    L k = glv::detail::mul_128x128(q, glv::LAMBDA);
    L rl{uint64_t(rem), uint64_t(rem >> 64), 0, 0};
    arith::add_to(k, rl);
    if (arith::compare(k, r) >= 0) continue;
    check_split(k);
  }
}

TEST(Glv, SplitRandom) {
  std::mt19937_64 rng(6);
  for (int i = 0; i < 5000; i++) check_split(ff::Fr::random(rng).to_canonical());
}

template <class C>
void check_beta() {
  const ff::Fp& b = glv::beta<C>();
  ASSERT_FALSE(b.is_zero());
  ASSERT_TRUE((b * b * b).is_one());
  std::mt19937_64 rng(7);
  auto p = ec::mul_vartime(ec::Jacobian<C>::from_affine(C::generator()), ff::Fr::random(rng)).to_affine();
  auto lp = ec::mul_vartime(ec::Jacobian<C>::from_affine(p), lambda_fr()).to_affine();
  EXPECT_TRUE(lp == ec::Affine<C>::from_xy(p.x * b, p.y));
}
TEST(Glv, BetaG1) { check_beta<ec::G1Curve>(); }
TEST(Glv, BetaG2) { check_beta<ec::G2Curve>(); }

TEST(Booth, DigitsReconstructScalar) {
  std::mt19937_64 rng(8);
  for (unsigned c = 1; c <= 16; c++) {
    for (int t = 0; t < 40; t++) {
      arith::Limbs<4> k = t == 0 ? ff::Fr::minus(ff::Fr::MODULUS, 1) : ff::Fr::random(rng).to_canonical();
      if (t == 1) k = {~0ull, ~0ull, ~0ull, 0x7fffffffffffffffull};  // 2^255 - 1
      unsigned bits = unsigned(arith::bit_length(k));
      int W = msm::detail::windows_for(bits, int(c));
      ff::Fr acc = ff::Fr::zero(), pw = ff::Fr::one(), two_c = ff::Fr::from_u64(uint64_t(1) << c);
      for (int w = 0; w < W; w++) {
        int32_t d = msm::detail::booth_digit(k, unsigned(w), c);
        ASSERT_LE(std::abs(d), 1 << (c - 1));
        if (w == W - 1) {
          ASSERT_GE(d, 0);
          ASSERT_LE(d, int32_t(msm::detail::top_buckets(bits, int(c))));
        }
        acc += (d < 0 ? -ff::Fr::from_u64(uint64_t(-d)) : ff::Fr::from_u64(uint64_t(d))) * pw;
        pw *= two_c;
      }
      // k may be >= r only for the 2^255-1 case; compare mod r.
      arith::Limbs<4> kr = k;
      msm::detail::reduce_mod_r(kr);
      ASSERT_EQ(acc, *ff::Fr::from_canonical(kr)) << "c=" << c;
    }
  }
}

TEST(WindowLayout, UniformAndBalancedCoverTheBits) {
  using namespace msm::detail;
  for (unsigned bits : {1u, 2u, 10u, 64u, 127u, 128u, 200u, 255u}) {
    for (int c = 1; c <= 16; c++) {
      const WindowLayout l = uniform_layout(bits, c);
      ASSERT_EQ(l.windows(), windows_for(bits, c));
      // The top window holds what the others leave: shift + its buckets' bits.
      ASSERT_EQ(l.shift(l.windows() - 1) + l.lg.back(), bits) << "c=" << c;
      ASSERT_EQ(std::ldexp(1.0, l.lg.back()), top_buckets(bits, c));
    }
    int layouts = 0;
    for (int W = 1; W <= int(bits) + 1; W++) {
      const WindowLayout l = balanced_layout(bits, W);
      if (l.lg.empty()) continue;
      layouts++;
      ASSERT_EQ(l.windows(), W);
      ASSERT_EQ(l.shift(W - 1) + l.lg.back(), bits) << "W=" << W;
      const auto [lo, hi] = std::minmax_element(l.lg.begin(), l.lg.end());
      ASSERT_LE(*hi - *lo, 1);  // bucket counts within a factor of two
      ASSERT_GE(*lo, 1);
      ASSERT_LE(*hi, 15);
      ASSERT_TRUE(std::is_sorted(l.lg.rbegin(), l.lg.rend()));  // the wider windows at the bottom
    }
    ASSERT_GT(layouts, 0) << bits;
  }
  // 127-bit GLV halves in nine windows: two of 15 bits, seven of 14 (the top
  // one 13 bits and the carry), where uniform 14-bit windows need ten.
  const WindowLayout nine = balanced_layout(127, 9);
  EXPECT_EQ(nine.widths(), (std::vector<uint8_t>{15, 15, 14, 14, 14, 14, 14, 14, 14}));
  EXPECT_EQ(uniform_layout(127, 14).windows(), 10);
  EXPECT_TRUE(balanced_layout(127, 7).lg.empty());  // would need 17-bit windows
}

TEST(Booth, DigitsOfMixedWidthsReconstructScalar) {
  using namespace msm::detail;
  std::mt19937_64 rng(9);
  for (int t = 0; t < 60; t++) {
    arith::Limbs<4> k = t == 0 ? ff::Fr::minus(ff::Fr::MODULUS, 1) : ff::Fr::random(rng).to_canonical();
    const unsigned bits = unsigned(arith::bit_length(k));
    for (int W = 1; W <= int(bits) + 1; W += 1 + t % 3) {
      const WindowLayout l = balanced_layout(bits, W);
      if (l.lg.empty()) continue;
      ff::Fr acc = ff::Fr::zero();
      for (int w = 0; w < W; w++) {
        const int32_t d = booth_digit_at(k, l.shift(w), l.width(w));
        ASSERT_LE(std::abs(d), 1 << l.lg[size_t(w)]) << "W=" << W << " w=" << w;
        if (w == W - 1) {
          ASSERT_GE(d, 0);
        }
        const ff::Fr dv = d < 0 ? -ff::Fr::from_u64(uint64_t(-d)) : ff::Fr::from_u64(uint64_t(d));
        acc += dv * ff::Fr::from_u64(2).pow_vartime(uint64_t(l.shift(w)));
      }
      ASSERT_EQ(acc, *ff::Fr::from_canonical(k)) << "W=" << W;
    }
  }
}

TEST(GlvDigits, ReconstructHalvesForEveryLayout) {
  using namespace msm::detail;
  std::mt19937_64 rng(10);
  std::vector<u128> ks = {0, 1, (u128(1) << 127) - 1, u128(1) << 126, ((u128(1) << 127) - 1) / 3};
  for (int t = 0; t < 200; t++) ks.push_back((u128(rng()) << 64 | rng()) >> (1 + t % 64));
  std::vector<WindowLayout> layouts;
  for (int c = 2; c <= 16; c++) layouts.push_back(uniform_layout(127, c));
  for (int W = 8; W <= 64; W++) layouts.push_back(balanced_layout(127, W));
  for (const WindowLayout& l : layouts) {
    ASSERT_FALSE(l.lg.empty());
    const int W = l.windows();
    const std::vector<uint8_t> width = l.widths();
    std::vector<int32_t> out(static_cast<size_t>(W));
    for (u128 k : ks)
      for (bool neg : {false, true}) {
        signed_digits(k, width.data(), W, neg, out.data(), 1);
        ff::Fr acc = ff::Fr::zero();
        for (int w = 0; w < W; w++) {
          int32_t d = neg ? -out[size_t(w)] : out[size_t(w)];
          // Bucket |d| - 1 lies in the window's buckets; the top digit is not negative.
          ASSERT_LE(std::abs(d), 1 << l.lg[size_t(w)]);
          if (w == W - 1) {
            ASSERT_GE(d, 0);
          }
          const ff::Fr dv = d < 0 ? -ff::Fr::from_u64(uint64_t(-d)) : ff::Fr::from_u64(uint64_t(d));
          acc += dv * ff::Fr::from_u64(2).pow_vartime(uint64_t(l.shift(w)));
        }
        ASSERT_EQ(acc, fr_from_u128(k)) << "W=" << W;
      }
  }
}

TEST(CostModel, PicksSensibleWindows) {
  using namespace msm::detail;
  // Large inputs: batch-affine with wide windows; tiny inputs: XYZZ.
  auto big = choose_window(G1_COSTS, double(1 << 19), 127, 0, 0, 2048, 1);
  EXPECT_TRUE(big.batch_affine);
  EXPECT_GE(big.c, 14);
  auto tiny = choose_window(G1_COSTS, 8, 127, 0, 0, 2048, 1);
  EXPECT_FALSE(tiny.batch_affine);
  EXPECT_LE(tiny.c, 6);
  auto forced = choose_window(G1_COSTS, 1000, 127, 9, 0, 2048, 1);
  EXPECT_EQ(forced.c, 9);
  EXPECT_EQ(forced.windows, 15);  // ceil(128 / 9)
}

TEST(TaskPlan, SuperChunksFollowTheScratchBound) {
  using namespace msm::detail;
  const Tuning tu;
  const auto wp = plan_windows<ec::G1Curve>(229378, 255, tu, msm::Options{.window_bits = 14}, 4096, 2);
  ASSERT_EQ(wp.windows, 10);
  const size_t per_scalar = 2 * (96 + 4 * 10);  // GLV: two entries, ten int32 digits each
  EXPECT_EQ(plan_tasks(wp, 96, 229378, tu, 2).super_chunk, 229378u);  // 64 MiB: one pass
  EXPECT_EQ(plan_tasks(wp, 96, 229378, tu, 2, size_t(32) << 20).super_chunk, (size_t(32) << 20) / per_scalar);
  EXPECT_EQ(plan_tasks(wp, 96, 229378, tu, 2, 1).super_chunk, 1024u);  // the floor
}

TEST(TaskPlan, LeftoverWindowsAreSplitOverTheirOwnBuckets) {
  using namespace msm::detail;
  const Tuning tu;
  // 2^18 points, two threads: nine windows (15, 15, 14 x 7 bits). Eight whole
  // windows, the top one among them (its digits crowd its lower buckets, so
  // halves of its range would be unequal), then window 7 (8192 buckets) in
  // two halves of its own buckets.
  const auto wp = plan_windows<ec::G1Curve>(size_t(1) << 18, 255, tu, msm::Options{}, 4096, 2);
  ASSERT_EQ(wp.windows, 9);
  ASSERT_EQ(wp.buckets[7], 8192u);
  const TaskPlan tp = plan_tasks(wp, 96, size_t(1) << 18, tu, 2);
  ASSERT_EQ(tp.tasks.size(), 10u);
  for (int t = 0; t < 8; t++) {
    const int w = t < 7 ? t : 8;
    EXPECT_EQ(tp.tasks[size_t(t)].w0, w) << t;
    EXPECT_EQ(tp.tasks[size_t(t)].b0, 0u) << t;
    EXPECT_GE(tp.tasks[size_t(t)].b1, wp.buckets[size_t(w)]) << t;
  }
  EXPECT_EQ(tp.tasks[8].w0, 7);
  EXPECT_EQ(tp.tasks[8].b0, 0u);
  EXPECT_EQ(tp.tasks[8].b1, 4096u);
  EXPECT_EQ(tp.tasks[9].w0, 7);
  EXPECT_EQ(tp.tasks[9].b0, 4096u);
  EXPECT_EQ(tp.tasks[9].b1, 8192u);
  // Ten windows share out evenly: whole windows only.
  const auto w10 =
      plan_windows<ec::G1Curve>(size_t(1) << 18, 255, tu, msm::Options{.window_bits = 13}, 4096, 2);
  ASSERT_EQ(w10.windows, 10);
  const TaskPlan tp10 = plan_tasks(w10, 96, size_t(1) << 18, tu, 2);
  EXPECT_EQ(tp10.tasks.size(), 10u);
}

TEST(TaskPlan, NarrowWindowsStayWholeWhereScheduled) {
  using namespace msm::detail;
  const Tuning tu;
  // A 2^16 Filecoin-like MSM's 6,554 big scalars: windows of at most 1,024
  // buckets, too narrow for direct scheduling of a range of them.
  const size_t nbig = 6554;
  const auto wp = plan_windows<ec::G1Curve>(nbig, 255, tu, msm::Options{}, 4096, 2);
  ASSERT_LT(wp.max_buckets(), kMinScheduledSpan);
  // Scheduled: whole window groups only, as many tasks as groups.
  const TaskPlan whole = plan_tasks(wp, 96, nbig, tu, 2, 0, true);
  ASSERT_GE(whole.groups, 2);
  EXPECT_EQ(whole.tasks.size(), size_t(whole.groups));
  for (const AccumulationTask& t : whole.tasks) {
    EXPECT_EQ(t.b0, 0u);
    for (int w = t.w0; w < t.w1; w++) EXPECT_GE(t.b1, wp.buckets[size_t(w)]) << w;
  }
  // Sorted trees (not scheduled): the groups are cut into bucket ranges, four
  // tasks or more a thread.
  const TaskPlan ranges = plan_tasks(wp, 96, nbig, tu, 2, 0, false);
  EXPECT_GE(ranges.tasks.size(), 8u);
  EXPECT_TRUE(std::any_of(ranges.tasks.begin(), ranges.tasks.end(),
                          [](const AccumulationTask& t) { return t.b0 > 0; }));
}

TEST(TaskPlan, ANarrowTopWindowStaysWholeAndAFullOneIsSplit) {
  using namespace msm::detail;
  const Tuning tu;
  // 2^16 points, uniform 12-bit windows over 127-bit halves: eleven windows,
  // the top one of 8 bits (128 buckets, too few for two ranges of >= 256).
  const auto wp =
      plan_windows<ec::G1Curve>(size_t(1) << 16, 255, tu, msm::Options{.window_bits = 12}, 4096, 2);
  ASSERT_EQ(wp.windows, 11);
  ASSERT_EQ(wp.buckets[10], 128u);
  const TaskPlan tp = plan_tasks(wp, 96, size_t(1) << 16, tu, 2);
  ASSERT_EQ(tp.tasks.size(), 12u);
  // Windows 0-8 and 10 whole, then window 9 in two halves of its 2048 buckets.
  for (size_t t = 0; t < 10; t++) {
    EXPECT_EQ(tp.tasks[t].w0, t < 9 ? int(t) : 10) << t;
    EXPECT_EQ(tp.tasks[t].b0, 0u) << t;
  }
  EXPECT_EQ(tp.tasks[10].w0, 9);
  EXPECT_EQ(tp.tasks[10].b0, 0u);
  EXPECT_EQ(tp.tasks[10].b1, 1024u);
  EXPECT_EQ(tp.tasks[11].w0, 9);
  EXPECT_EQ(tp.tasks[11].b0, 1024u);
  EXPECT_EQ(tp.tasks[11].b1, 2048u);
}

TEST(CostModel, BucketsBeyondL2CostMore) {
  using namespace msm::detail;
  const BucketMemory mem{96, double(1 << 20)};  // G1 buckets, 1 MiB L2
  EXPECT_FALSE(mem.out_of_l2(10922));           // 1,048,512 bytes
  EXPECT_TRUE(mem.out_of_l2(10923));
  EXPECT_EQ(model_cost(G1_COSTS, 1e5, 127, 13, true, 4096, 2, mem),
            model_cost(G1_COSTS, 1e5, 127, 13, true, 4096, 2));  // 4096 buckets fit
  EXPECT_GT(model_cost(G1_COSTS, 1e5, 127, 16, true, 4096, 2, mem),
            model_cost(G1_COSTS, 1e5, 127, 16, true, 4096, 2));
  // ~2^18 points after GLV: 16-bit windows (3 MiB of buckets each) no longer
  // win; nine windows, two of 15 bits (1.5 MiB), seven of 14, do. 2^20
  // points take eight 16-bit windows again.
  EXPECT_EQ(choose_window(G1_COSTS, 458756, 127, 0, 0, 4096, 2).c, 16);
  const WindowChoice at18 = choose_window(G1_COSTS, 458756, 127, 0, 0, 4096, 2, mem);
  EXPECT_EQ(at18.layout.widths(), balanced_layout(127, 9).widths());
  EXPECT_LT(at18.cost, model_cost(G1_COSTS, 458756, 127, 14, true, 4096, 2, mem));
  EXPECT_EQ(choose_window(G1_COSTS, double(1 << 21), 127, 0, 0, 4096, 2, mem).layout.widths(),
            uniform_layout(127, 16).widths());
}
