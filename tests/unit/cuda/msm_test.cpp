// The device MSM (cuda/msm.hpp) with resident points against the CPU MSM,
// bit for bit in affine form, G1 and G2: sizes 0..3000, every scalar shape
// (0, 1, r - 1, >= r, Booth carries, equal, Filecoin-like), forced windows,
// long buckets split over many threads and reduction levels, repeated and
// opposite points (doublings and cancellations inside buckets).
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>

#include "msm/digits.hpp"
#include "msm_test_util.hpp"
#include "slow.hpp"

using namespace cuzk;
using cuda::MsmOptions;
using cuda::MsmStats;
using cuda::test::ScalarKind;
using cuda::test::Scalars;

namespace {

template <class C>
class CudaMsm : public ::testing::Test {};
using MsmCurves = ::testing::Types<ec::G1Curve, ec::G2Curve>;
TYPED_TEST_SUITE(CudaMsm, MsmCurves);

constexpr bool is_g2(const ec::G2Curve*) { return true; }
constexpr bool is_g2(const ec::G1Curve*) { return false; }
template <class C>
constexpr bool g2 = is_g2(static_cast<const C*>(nullptr));

template <class C>
ec::Affine<C> device_msm(const std::vector<ec::Affine<C>>& pts, const Scalars& s, const MsmOptions& opt,
                         MsmStats* stats = nullptr) {
  const cuda::DevicePoints<C> dp(pts);
  EXPECT_EQ(dp.device_bytes(), pts.size() * sizeof(ec::Affine<C>));
  const cuda::MsmTerm<C> t{cuda::PointSpan<C>::resident(dp), cuda::ScalarSpan::host(s)};
  return cuda::msm<C>(std::span<const cuda::MsmTerm<C>>(&t, 1), opt, stats).to_affine();
}

template <class C>
void expect_msm(const std::vector<ec::Affine<C>>& pts, const Scalars& s, const MsmOptions& opt,
                const std::string& what, MsmStats* stats = nullptr) {
  ASSERT_EQ(device_msm<C>(pts, s, opt, stats), cuda::test::cpu_msm<C>(pts, s)) << what;
}

// Pairs the sort must produce: one per scalar-1 point, one per non-zero
// Booth digit of the others (msm/digits.hpp, the CPU's recoding).
size_t expected_pairs(const Scalars& s, int c) {
  size_t n = 0;
  const unsigned W = (256 + c - 1) / c;
  for (arith::Limbs<4> k : s) {
    while (arith::compare(k, ff::Fr::MODULUS) >= 0) arith::sub_from(k, ff::Fr::MODULUS);
    if (arith::is_zero(k)) continue;
    if (k == arith::Limbs<4>{1, 0, 0, 0}) {
      n++;
      continue;
    }
    for (unsigned w = 0; w < W; w++) n += msm::detail::booth_digit(k, w, unsigned(c)) != 0;
  }
  return n;
}

}  // namespace

TYPED_TEST(CudaMsm, SizesUniform) {
  CUZK_SKIP_WITHOUT_DEVICE();
  using C = TypeParam;
  std::mt19937_64 rng(1);
  for (size_t n : {0, 1, 2, 17, 256, 1024, 3000}) {
    const auto pts = cuda::test::random_points<C>(n, rng);
    const auto s = cuda::test::make_scalars(ScalarKind::uniform, n, rng);
    MsmStats st;
    expect_msm<C>(pts, s, {}, "n = " + std::to_string(n), &st);
    if (n) {
      EXPECT_EQ(st.pairs, expected_pairs(s, st.window_bits)) << n;
    }
  }
}

TYPED_TEST(CudaMsm, ScalarShapesAndWindows) {
  CUZK_SKIP_WITHOUT_DEVICE();
  using C = TypeParam;
  std::mt19937_64 rng(2);
  const size_t n = g2<C> ? 60 : 150;
  const auto pts = cuda::test::random_points<C>(n, rng);
  for (ScalarKind kind : {ScalarKind::uniform, ScalarKind::zero, ScalarKind::one, ScalarKind::minus_one,
                          ScalarKind::edge, ScalarKind::filecoin, ScalarKind::equal, ScalarKind::small}) {
    const auto s = cuda::test::make_scalars(kind, n, rng);
    for (int c : {0, 1, 2, 5, 8, 13}) {
      if (g2<C> && (c == 1 || c == 13)) continue;
      MsmOptions opt;
      opt.window_bits = c;
      MsmStats st;
      expect_msm<C>(pts, s, opt, std::string(cuda::test::kind_name(kind)) + " c = " + std::to_string(c), &st);
      if (c) {
        EXPECT_EQ(st.window_bits, c);
      }
      EXPECT_EQ(st.pairs, expected_pairs(s, st.window_bits)) << cuda::test::kind_name(kind) << " c = " << c;
    }
  }
}

// Few buckets and tiny work per thread: every bucket spans many threads and
// the partial sums go through several levels.
TYPED_TEST(CudaMsm, LongBucketsSplitOverLevels) {
  CUZK_SKIP_WITHOUT_DEVICE();
  using C = TypeParam;
  std::mt19937_64 rng(3);
  const size_t n = g2<C> ? 400 : 2000;
  const auto pts = cuda::test::random_points<C>(n, rng);
  for (ScalarKind kind : {ScalarKind::uniform, ScalarKind::equal, ScalarKind::filecoin}) {
    const auto s = cuda::test::make_scalars(kind, n, rng);
    for (unsigned per : {1u, 3u}) {
      MsmOptions opt;
      opt.window_bits = 3;
      opt.pairs_per_thread = per;
      opt.partials_per_thread = 4;
      opt.buckets_per_thread = 1;
      MsmStats st;
      expect_msm<C>(pts, s, opt, std::string(cuda::test::kind_name(kind)) + " per = " + std::to_string(per),
                    &st);
      EXPECT_GE(st.max_levels, 4u) << cuda::test::kind_name(kind);
    }
  }
}

// The same point many times (P + P inside a bucket), P beside -P with equal
// scalars (buckets that cancel), scalars on one point that sum to r (the
// identity), identity points among the others.
TYPED_TEST(CudaMsm, RepeatedOppositeAndIdentityPoints) {
  CUZK_SKIP_WITHOUT_DEVICE();
  using C = TypeParam;
  std::mt19937_64 rng(4);
  const size_t n = g2<C> ? 64 : 256;
  const auto base = cuda::test::random_points<C>(4, rng);
  MsmOptions small_work;
  small_work.window_bits = 4;
  small_work.pairs_per_thread = 2;
  small_work.partials_per_thread = 4;

  std::vector<ec::Affine<C>> same(n, base[0]);
  for (ScalarKind kind : {ScalarKind::uniform, ScalarKind::equal, ScalarKind::one, ScalarKind::edge}) {
    const auto s = cuda::test::make_scalars(kind, n, rng);
    expect_msm<C>(same, s, {}, std::string("same point, ") + cuda::test::kind_name(kind));
    expect_msm<C>(same, s, small_work, std::string("same point, small work, ") + cuda::test::kind_name(kind));
  }

  std::vector<ec::Affine<C>> opposite(n);
  Scalars s_opp(n);
  for (size_t i = 0; i < n; i++) {
    opposite[i] = i % 2 ? base[i % 4].neg() : base[i % 4];
    s_opp[i] = i % 4 < 2 ? ff::Fr::random(rng).to_canonical() : s_opp[i - 1];
  }
  expect_msm<C>(opposite, s_opp, {}, "opposite points");
  expect_msm<C>(opposite, Scalars(n, s_opp[1]), small_work, "opposite points, equal scalars");

  // sum_i k_i = r on one point: the identity.
  std::vector<ec::Affine<C>> one_point(3, base[1]);
  const ff::Fr a = ff::Fr::random(rng), b = ff::Fr::random(rng);
  const Scalars to_r = {a.to_canonical(), b.to_canonical(), (-(a + b)).to_canonical()};
  EXPECT_TRUE(device_msm<C>(one_point, to_r, {}).infinity);

  std::vector<ec::Affine<C>> with_identities = cuda::test::random_points<C>(n, rng);
  for (size_t i = 0; i < n; i += 3) with_identities[i] = ec::Affine<C>::identity();
  for (ScalarKind kind : {ScalarKind::uniform, ScalarKind::one, ScalarKind::filecoin})
    expect_msm<C>(with_identities, cuda::test::make_scalars(kind, n, rng), small_work,
                  std::string("identity points, ") + cuda::test::kind_name(kind));
}

// The planner's own choices at a size where buckets hold many points and
// the default work per thread splits them (G1 2^14: c = 10 or so, ~16
// points per bucket and window, 8 pairs per thread).
TYPED_TEST(CudaMsm, PlannerDefaultsAtLargerSize) {
  CUZK_SKIP_WITHOUT_DEVICE();
  using C = TypeParam;
  std::mt19937_64 rng(10);
  const size_t n = g2<C> ? 4096 : 16384;
  const auto pts = cuda::test::random_points<C>(n, rng);
  for (ScalarKind kind : {ScalarKind::uniform, ScalarKind::filecoin}) {
    const auto s = cuda::test::make_scalars(kind, n, rng);
    MsmStats st;
    expect_msm<C>(pts, s, {}, cuda::test::kind_name(kind), &st);
    EXPECT_GE(st.max_levels, 2u) << cuda::test::kind_name(kind);
  }
}

// Windows wide enough that the counting sort's prefix sums take three
// levels of scan tiles (more than 1024 * 1024 keys from c = 17), up to the
// widest (c = 20: 13 windows of 2^19 buckets, what 2^24 points get).
TEST(CudaMsmG1, WideWindowsScanLevels) {
  CUZK_SKIP_WITHOUT_DEVICE();
  std::mt19937_64 rng(11);
  const size_t n = 300;
  const auto pts = cuda::test::random_points<ec::G1Curve>(n, rng);
  for (ScalarKind kind : {ScalarKind::uniform, ScalarKind::edge}) {
    const auto s = cuda::test::make_scalars(kind, n, rng);
    // c = 20 allocates 6.8 M buckets (1.3 GB): once, with the edge scalars.
    for (int c : {17, cuda::kMaxWindowBits}) {
      if (c == cuda::kMaxWindowBits && kind != ScalarKind::edge) continue;
      MsmOptions opt;
      opt.window_bits = c;
      MsmStats st;
      expect_msm<ec::G1Curve>(pts, s, opt,
                              std::string(cuda::test::kind_name(kind)) + " c " + std::to_string(c), &st);
      EXPECT_EQ(st.pairs, expected_pairs(s, c));
    }
  }
}

// Random shapes and options, many rounds: n, window, work per thread, chunks,
// scalar kind, repeated points, G1 and G2 alternately. CUZK_SLOW_TESTS=1
// (300 rounds, ~25 s under the emulator; CUZK_MSM_SOAK_ROUNDS sets them).
TEST(CudaMsmSoak, RandomShapesSlow) {
  CUZK_SLOW_TEST("hundreds of MSMs");
  CUZK_SKIP_WITHOUT_DEVICE();
  const char* r = std::getenv("CUZK_MSM_SOAK_ROUNDS");
  const int rounds = r ? std::atoi(r) : 300;
  std::mt19937_64 rng(12);
  const ScalarKind kinds[] = {ScalarKind::uniform,   ScalarKind::zero, ScalarKind::one,
                              ScalarKind::minus_one, ScalarKind::edge, ScalarKind::filecoin,
                              ScalarKind::equal,     ScalarKind::small};
  for (int round = 0; round < rounds; round++) {
    const bool use_g2 = round % 4 == 3;
    const size_t n = rng() % (use_g2 ? 300 : 1500);
    const ScalarKind kind = kinds[rng() % 8];
    MsmOptions opt;
    opt.window_bits = rng() % 3 ? int(1 + rng() % 14) : 0;
    opt.pairs_per_thread = rng() % 2 ? unsigned(1 + rng() % 9) : 0;
    opt.partials_per_thread = rng() % 2 ? unsigned(4 + rng() % 6) : 0;
    opt.buckets_per_thread = rng() % 2 ? unsigned(1 + rng() % 16) : 0;
    opt.chunk_points = rng() % 3 ? 0 : 1 + rng() % 400;
    const std::string what = "round " + std::to_string(round) + " n " + std::to_string(n) + " " +
                             cuda::test::kind_name(kind) + " c " + std::to_string(opt.window_bits);
    auto run = [&](auto curve) {
      using C = decltype(curve);
      auto pts = cuda::test::random_points<C>(std::min<size_t>(n, 1 + rng() % 64), rng);
      std::vector<ec::Affine<C>> all(n);
      for (size_t i = 0; i < n; i++) all[i] = pts[rng() % pts.size()];  // few distinct points
      if (rng() % 2)
        for (size_t i = 0; i < n; i += 5) all[i] = ec::Affine<C>::identity();
      expect_msm<C>(all, cuda::test::make_scalars(kind, n, rng), opt, what);
    };
    if (use_g2) run(ec::G2Curve{});
    else run(ec::G1Curve{});
    if (HasFatalFailure()) return;
  }
}
