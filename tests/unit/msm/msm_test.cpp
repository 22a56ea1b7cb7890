// MSM = sum k_i P_i on random and adversarial inputs, G1 and G2, 1 and 2
// threads, forced windows, both accumulators, with and without GLV, and with
// tiny chunk sizes so the multi-chunk paths run at small n.
#include <gtest/gtest.h>

#include <random>

#include "msm/ifma_kernels.hpp"
#include "msm_test_util.hpp"
#include "platform/cpu_features.hpp"
#include "unit/ec/pack_points.hpp"

using namespace cuzk;
using msm::Options;
using msm::detail::Accumulator;
using msm::detail::Tuning;
using msm_test::Input;

template <class C>
class Msm : public ::testing::Test {};
using Curves = ::testing::Types<ec::G1Curve, ec::G2Curve>;
TYPED_TEST_SUITE(Msm, Curves);

namespace {

struct Config {
  Options opt;
  Tuning tu;
  std::string name;
};

std::vector<Config> configs() {
  std::vector<Config> v;
  v.push_back({{1, 0}, {}, "auto/1t"});
  v.push_back({{2, 0}, {}, "auto/2t"});
  Tuning aff;
  aff.accumulator = Accumulator::BatchAffine;
  Tuning xz;
  xz.accumulator = Accumulator::Xyzz;
  Tuning small = aff;  // many super-chunks and mini-chunks, tiny batches
  small.super_chunk = 37;
  small.mini_chunk = 50;
  small.batch = 5;
  Tuning noglv = aff;
  noglv.glv = false;
  noglv.split_ones = false;
  v.push_back({{1, 0}, aff, "affine/1t"});
  v.push_back({{2, 5}, aff, "affine/2t/c5"});
  v.push_back({{1, 0}, xz, "xyzz/1t"});
  v.push_back({{2, 3}, xz, "xyzz/2t/c3"});
  v.push_back({{2, 7}, small, "affine-chunked/2t/c7"});
  v.push_back({{1, 2}, small, "affine-chunked/1t/c2"});
  v.push_back({{2, 11}, noglv, "noglv/2t/c11"});
  v.push_back({{1, 1}, noglv, "noglv/1t/c1"});
  // The scalar kernels where the IFMA ones would run (G1 on AVX-512 IFMA CPUs).
  Tuning scalar = aff;
  scalar.ifma = false;
  Tuning small_scalar = small;
  small_scalar.ifma = false;
  v.push_back({{2, 0}, scalar, "affine-scalar/2t"});
  v.push_back({{1, 7}, small_scalar, "affine-chunked-scalar/1t/c7"});
  // Buckets filled by direct scheduling at sizes where the planner would
  // sort: small batches and few buckets make conflicts, deferrals and
  // left-overs (summed by the tree) frequent.
  Tuning sched = aff;
  sched.bucketing = msm::detail::Bucketing::Scheduled;
  Tuning sched_small = sched;
  sched_small.super_chunk = 37;
  sched_small.batch = 3;
  Tuning sorted = aff;
  sorted.bucketing = msm::detail::Bucketing::Sorted;
  v.push_back({{2, 0}, sched, "scheduled/2t"});
  v.push_back({{1, 7}, sched, "scheduled/1t/c7"});
  v.push_back({{2, 5}, sched_small, "scheduled-chunked/2t/c5"});
  v.push_back({{1, 9}, sched_small, "scheduled-chunked/1t/c9"});
  v.push_back({{2, 0}, sorted, "sorted/2t"});
  return v;
}

template <class C>
void check_all(const Input<C>& in, const char* what, bool also_naive = false) {
  const auto want = in.expected();
  if (also_naive) {
    ASSERT_EQ(in.naive(), want) << what << ": oracle self-check";
  }
  const auto can = in.canonical();
  // The public entry points.
  ASSERT_EQ(msm::msm<C>(in.pts, in.k), want) << what << " msm()";
  ASSERT_EQ(msm::msm_canonical<C>(in.pts, can), want) << what << " msm_canonical()";
  {
    // msm_parts: the same input cut in up to four parts (one of them empty).
    const size_t n = in.pts.size(), cut1 = n / 3, cut2 = n / 3, cut3 = n - n / 4;
    std::vector<msm::Part<C>> parts;
    for (auto [lo, hi] :
         {std::pair{size_t(0), cut1}, std::pair{cut1, cut2}, std::pair{cut2, cut3}, std::pair{cut3, n}})
      parts.push_back({std::span(in.pts).subspan(lo, hi - lo), std::span(in.k).subspan(lo, hi - lo)});
    ASSERT_EQ(msm::msm_parts<C>(parts), want) << what << " msm_parts()";
    ASSERT_EQ(msm::msm_parts<C>(parts, {2, 0}), want) << what << " msm_parts() 2 threads";
  }
  {
    // Packed points (a .zkey's layout, read in place) 4 bytes off 8-byte
    // alignment: alone, and as a part beside affine points.
    const auto bytes = ec::test::pack_points<C>(in.pts, 4);
    const ec::PackedAffineSpan<C> packed(bytes.data() + 4, in.pts.size());
    ASSERT_EQ(msm::msm<C>(packed, in.k), want) << what << " msm() packed";
    const size_t cut = in.pts.size() / 2;
    std::vector<msm::Part<C>> parts{{packed.subspan(0, cut), std::span(in.k).first(cut)},
                                    {std::span(in.pts).subspan(cut), std::span(in.k).subspan(cut)}};
    ASSERT_EQ(msm::msm_parts<C>(parts, {2, 0}), want) << what << " msm_parts() packed + affine";
  }
  for (const auto& cf : configs()) {
    // Tiny forced windows (hundreds of windows) only on small inputs.
    if (cf.opt.window_bits > 0 && cf.opt.window_bits <= 3 && in.pts.size() > 70) continue;
    msm::detail::Plan plan;
    auto got = msm::detail::msm_tuned<C>(in.pts, can, cf.opt, cf.tu, &plan);
    ASSERT_EQ(got, want) << what << " n=" << in.pts.size() << " config " << cf.name
                         << " (c=" << plan.window_bits << ", W=" << plan.windows << ", glv=" << plan.glv
                         << ", ifma=" << plan.ifma << ")";
    // The IFMA kernels run exactly where they should: batch-affine buckets,
    // allowed by the tuning, on a CPU that has them.
    const bool want_ifma =
        cf.tu.ifma && platform::use_ifma() && plan.accumulator == Accumulator::BatchAffine && plan.big > 0;
    ASSERT_EQ(plan.ifma, want_ifma) << what << " config " << cf.name;
    // Scheduling needs the IFMA kernels; forced, it runs wherever they do.
    if (cf.tu.bucketing == msm::detail::Bucketing::Scheduled) {
      ASSERT_EQ(plan.scheduled, want_ifma) << what << " config " << cf.name;
    } else if (cf.tu.bucketing == msm::detail::Bucketing::Sorted || !want_ifma) {
      ASSERT_FALSE(plan.scheduled) << what << " config " << cf.name;
    }
  }
}

}  // namespace

TYPED_TEST(Msm, EmptyIsIdentity) {
  using C = TypeParam;
  std::vector<ec::Affine<C>> p;
  std::vector<ff::Fr> k;
  EXPECT_TRUE(msm::msm<C>(p, k).is_identity());
  EXPECT_TRUE(msm::msm<C>(p, k, {2, 0}).is_identity());
}

TYPED_TEST(Msm, InvalidArguments) {
  using C = TypeParam;
  std::vector<ec::Affine<C>> p(2, C::generator());
  std::vector<ff::Fr> k(1, ff::Fr::one());
  EXPECT_THROW(msm::msm<C>(p, k), std::invalid_argument);
  k.push_back(ff::Fr::one());
  EXPECT_THROW(msm::msm<C>(p, k, {1, 17}), std::invalid_argument);
  EXPECT_THROW(msm::msm<C>(p, k, {1, -1}), std::invalid_argument);
  EXPECT_EQ(msm::msm<C>(p, k, {3, 16}), ec::Jacobian<C>::from_affine(C::generator()).dbl());
  std::vector<msm::Part<C>> parts(msm::kMaxParts + 1, msm::Part<C>{p, k});
  EXPECT_THROW(msm::msm_parts<C>(parts), std::invalid_argument);  // too many parts
  parts.resize(1);
  parts[0].scalars = std::span(k).first(1);
  EXPECT_THROW(msm::msm_parts<C>(parts), std::invalid_argument);  // lengths differ
}

TYPED_TEST(Msm, SmallSizesRandom) {
  using C = TypeParam;
  std::mt19937_64 rng(100);
  const bool g2 = std::is_same_v<C, ec::G2Curve>;  // G2 is ~3x slower: fewer sizes
  for (size_t n : {1, 2, 3, 5, 8, 17, 31, 33, 64, 65, 127, 129}) {
    if (g2 && (n == 8 || n == 31 || n == 64 || n == 127)) continue;
    auto in = msm_test::random_input<C>(n, rng);
    check_all(in, "random", n <= 5);
  }
}

// Options::scratch_bytes: a tight bound windows the scalars in passes of
// 1024 (the smallest) over the same buckets; the sum is unchanged.
TYPED_TEST(Msm, ScratchBoundMakesPassesWithTheSameSum) {
  using C = TypeParam;
  std::mt19937_64 rng(104);
  const auto in = msm_test::random_input<C>(std::is_same_v<C, ec::G2Curve> ? 2100 : 3500, rng);
  const auto want = in.expected();
  msm::Options tight;
  tight.scratch_bytes = 1;
  ASSERT_EQ(msm::msm<C>(in.pts, in.k, tight), want);
  tight.threads = 2;
  const std::vector<msm::Part<C>> parts{{in.pts, in.k}};
  ASSERT_EQ(msm::msm_parts<C>(parts, tight), want);
}

TYPED_TEST(Msm, MediumSizesRandom) {
  using C = TypeParam;
  std::mt19937_64 rng(101);
  const bool g2 = std::is_same_v<C, ec::G2Curve>;
  for (size_t n : {255, 257, 511})
    if (!g2 || n == 257) check_all(msm_test::random_input<C>(n, rng), "random");
}

TYPED_TEST(Msm, AdversarialScalars) {
  using C = TypeParam;
  std::mt19937_64 rng(102);
  const size_t n = 150;
  auto base = msm_test::random_input<C>(n, rng);
  {
    auto in = base;
    for (auto& k : in.k) k = ff::Fr::zero();
    check_all(in, "all zero");
    ASSERT_TRUE(msm::msm<C>(in.pts, in.k).is_identity());
  }
  {
    auto in = base;
    for (auto& k : in.k) k = ff::Fr::one();
    check_all(in, "all one");
  }
  {
    auto in = base;
    for (auto& k : in.k) k = -ff::Fr::one();  // r - 1
    check_all(in, "all r-1");
  }
  {
    auto in = base;
    for (size_t i = 0; i < n; i++) in.k[i] = ff::Fr::from_u64(rng() % 20);  // small, with 0/1
    check_all(in, "small < 20");
  }
  {
    auto in = base;
    for (size_t i = 0; i < n; i++) in.k[i] = ff::Fr::from_u64(rng() >> (rng() % 64));
    check_all(in, "64-bit, mixed lengths");
  }
  {
    auto in = base;  // Filecoin-like: 90% in {0,1}
    for (size_t i = 0; i < n; i++) {
      unsigned u = rng() % 10;
      in.k[i] = u < 5 ? ff::Fr::zero() : u < 9 ? ff::Fr::one() : ff::Fr::random(rng);
    }
    check_all(in, "filecoin-like");
  }
  {
    auto in = base;  // all scalars equal: one bucket per window gets everything
    ff::Fr s = ff::Fr::random(rng);
    for (auto& k : in.k) k = s;
    check_all(in, "all equal");
  }
  {
    auto in = base;  // around the GLV thresholds and 2^127
    arith::Limbs<4> t{0, 1ull << 63, 0, 0};
    for (size_t i = 0; i < n; i++) {
      auto v = t;
      v[0] = i;
      in.k[i] = *ff::Fr::from_canonical(v);
      if (i % 3 == 0) in.k[i] = -in.k[i];
    }
    check_all(in, "near 2^127");
  }
}

TYPED_TEST(Msm, AdversarialPoints) {
  using C = TypeParam;
  std::mt19937_64 rng(103);
  const size_t n = 120;
  auto base = msm_test::random_input<C>(n, rng);
  {
    auto in = base;  // the same point everywhere, random scalars
    for (size_t i = 0; i < n; i++) {
      in.pts[i] = in.pts[0];
      in.dlog[i] = in.dlog[0];
    }
    check_all(in, "repeated point");
  }
  {
    auto in = base;  // the same point, scalars summing to r (result: identity)
    ff::Fr sum = ff::Fr::zero();
    for (size_t i = 0; i < n; i++) {
      in.pts[i] = in.pts[3];
      in.dlog[i] = in.dlog[3];
      in.k[i] = i + 1 < n ? ff::Fr::random(rng) : -sum;
      sum += in.k[i];
    }
    check_all(in, "same point, scalars sum to r");
    ASSERT_TRUE(msm::msm<C>(in.pts, in.k).is_identity());
  }
  {
    auto in = base;  // the same point with scalar 1: doublings in the ones tree
    for (size_t i = 0; i < n; i++) {
      in.pts[i] = in.pts[5];
      in.dlog[i] = in.dlog[5];
      in.k[i] = ff::Fr::one();
    }
    check_all(in, "same point, all ones");
  }
  {
    auto in = base;  // P and -P with equal scalars: cancellation in every bucket
    for (size_t i = 0; i + 1 < n; i += 2) {
      in.pts[i + 1] = in.pts[i].neg();
      in.dlog[i + 1] = -in.dlog[i];
      in.k[i + 1] = in.k[i];
    }
    check_all(in, "P and -P");
    ASSERT_TRUE(msm::msm<C>(in.pts, in.k).is_identity());
  }
  {
    auto in = base;  // points at infinity sprinkled in (and all of them)
    for (size_t i = 0; i < n; i += 3) {
      in.pts[i] = ec::Affine<C>::identity();
      in.dlog[i] = ff::Fr::zero();
    }
    check_all(in, "some infinity");
    // Also with scalar 1 (they reach the ones sum, which drops them) beside
    // other points of scalar 1.
    for (size_t i = 0; i < n; i += 2) in.k[i] = ff::Fr::one();
    check_all(in, "some infinity, scalars 1");
    for (size_t i = 0; i < n; i++) {
      in.pts[i] = ec::Affine<C>::identity();
      in.dlog[i] = ff::Fr::zero();
    }
    check_all(in, "all infinity");
  }
  {
    auto in = base;  // few distinct points, repeated with random scalars incl. 0/1
    for (size_t i = 0; i < n; i++) {
      size_t j = rng() % 4;
      in.pts[i] = in.pts[j];
      in.dlog[i] = in.dlog[j];
      if (i % 4 == 1) in.k[i] = ff::Fr::one();
      if (i % 4 == 2) in.pts[i] = in.pts[i].neg(), in.dlog[i] = -in.dlog[i];
    }
    check_all(in, "few distinct points");
  }
}

TYPED_TEST(Msm, OnesThroughRunningSums) {
  // Scalar-1 points go into running sums, point e of a chunk into sum e mod
  // copies (8 with the tests' tiny batches, 2048 for G1 by default): a point
  // equal to the one already in its sum doubles it, its negation empties it,
  // and the next point fills it again. 2,600 points reach past 2048.
  using C = TypeParam;
  std::mt19937_64 rng(104);
  const size_t n = 2600;
  auto in = msm_test::random_input<C>(16, rng);
  const auto base = in;
  in.pts.resize(n);
  in.dlog.resize(n);
  in.k.assign(n, ff::Fr::one());
  for (size_t i = 0; i < n; i++) {
    const size_t j = (i * 7 + i / 2048) % 16;  // few distinct points, in changing order
    const bool neg = (i / 3) % 4 == 1;
    in.pts[i] = neg ? base.pts[j].neg() : base.pts[j];
    in.dlog[i] = neg ? -base.dlog[j] : base.dlog[j];
  }
  for (size_t i = 2048; i < n; i += 5) {  // the point 2048 before, or its negation
    const bool neg = i % 2;
    in.pts[i] = neg ? in.pts[i - 2048].neg() : in.pts[i - 2048];
    in.dlog[i] = neg ? -in.dlog[i - 2048] : in.dlog[i - 2048];
  }
  check_all(in, "ones with repeats and negations");
  // A few big scalars beside them (the big path runs too).
  for (size_t i = 0; i < n; i += 97) in.k[i] = ff::Fr::random(rng);
  check_all(in, "mostly ones");
}

TYPED_TEST(Msm, NonReducedCanonicalScalars) {
  using C = TypeParam;
  std::mt19937_64 rng(104);
  auto in = msm_test::random_input<C>(40, rng);
  auto can = in.canonical();
  for (size_t i = 0; i < can.size(); i += 2) arith::add_to(can[i], ff::Fr::MODULUS);  // k + r < 2^256
  can[1] = ff::Fr::MODULUS;                                                           // r == 0
  in.k[1] = ff::Fr::zero();
  EXPECT_EQ(msm::msm_canonical<C>(in.pts, can), in.expected());
}

// Sizes around powers of two (bucket and chunk boundaries), exact oracle.
TYPED_TEST(Msm, PowerOfTwoSizes) {
  using C = TypeParam;
  std::mt19937_64 rng(105);
  const bool g2 = std::is_same_v<C, ec::G2Curve>;
  for (size_t n : {size_t(1023), size_t(1024), size_t(1025)}) {
    if (g2 && n != 1025) continue;
    auto in = msm_test::random_input<C>(n, rng);
    auto want = in.expected();
    for (unsigned th : {1u, 2u}) ASSERT_EQ(msm::msm<C>(in.pts, in.k, {th, 0}), want) << n;
    Tuning chunk;
    chunk.super_chunk = 300;
    chunk.mini_chunk = 256;
    ASSERT_EQ(msm::detail::msm_tuned<C>(in.pts, in.canonical(), {2, 9}, chunk), want) << n;
  }
}

// A larger input: msm against itself with other windows/threads/accumulators,
// and against the sum of two half-size MSMs.
TYPED_TEST(Msm, LargerSelfConsistency) {
  using C = TypeParam;
  const bool g2 = std::is_same_v<C, ec::G2Curve>;
  const size_t n = g2 ? 2049 : 8193;
  std::mt19937_64 rng(106);
  auto in = msm_test::random_input<C>(n, rng);
  for (size_t i = 0; i < n; i += 7) in.k[i] = ff::Fr::one();
  for (size_t i = 3; i < n; i += 11) in.k[i] = ff::Fr::zero();
  auto can = in.canonical();
  auto ref = msm::msm<C>(in.pts, in.k, {2, 0});
  ASSERT_EQ(ref, in.expected());
  std::span<const ec::Affine<C>> ps(in.pts);
  std::span<const ff::Fr> ks(in.k);
  size_t h = n / 2;
  auto split = msm::msm<C>(ps.subspan(0, h), ks.subspan(0, h), {1, 0})
                   .add(msm::msm<C>(ps.subspan(h), ks.subspan(h), {1, 0}));
  ASSERT_EQ(split, ref);
  ASSERT_EQ(msm::msm<C>(in.pts, in.k, {1, 13}), ref);
  Tuning xz;
  xz.accumulator = Accumulator::Xyzz;
  ASSERT_EQ(msm::detail::msm_tuned<C>(in.pts, can, {2, 8}, xz), ref);
  // Two threads with wide windows split each window's buckets between two
  // tasks (plan_tasks' ranges), so direct scheduling fills part of a window
  // per task (BucketScheduler::run with part = true) — with IFMA kernels.
  Tuning sched;
  sched.bucketing = msm::detail::Bucketing::Scheduled;
  for (int c : {11, 12, 13}) {
    msm::detail::Plan plan;
    ASSERT_EQ(msm::detail::msm_tuned<C>(in.pts, can, {2, c}, sched, &plan), ref) << "c=" << c;
    ASSERT_EQ(plan.scheduled, plan.ifma) << "c=" << c;
  }
  // Balanced layouts: nine windows over two threads run the top window and
  // six others whole and window 7 in two halves of its own buckets; ten and
  // eleven windows.
  for (int W : {9, 10, 11}) {
    Tuning bal = sched;
    bal.windows = W;
    msm::detail::Plan plan;
    ASSERT_EQ(msm::detail::msm_tuned<C>(in.pts, can, {2, 0}, bal, &plan), ref) << "W=" << W;
    ASSERT_EQ(plan.windows, W);
    ASSERT_EQ(msm::detail::msm_tuned<C>(in.pts, can, {1, 0}, bal), ref) << "W=" << W;
  }
}

// Uniform 12-bit windows of 2^14 + 1 GLV halves on two threads: eleven
// windows, one per group, the top one too narrow to split (128 buckets), so
// window 9 runs in two halves and the top window whole (plan_tasks); the
// result against one thread's (no split) and against 13-bit windows.
TEST(MsmPlan, AFullWindowSplitInsteadOfTheNarrowTopOne) {
  using C = ec::G1Curve;
  const size_t n = (size_t(1) << 14) + 1;
  std::mt19937_64 rng(107);
  auto in = msm_test::random_input<C>(n, rng);
  msm::detail::Plan plan;
  const auto two = msm::detail::msm_tuned<C>(in.pts, in.canonical(), {2, 12}, Tuning{}, &plan);
  EXPECT_EQ(plan.windows, 11);
  EXPECT_EQ(two, msm::msm<C>(in.pts, in.k, {1, 12}));
  EXPECT_EQ(two, msm::msm<C>(in.pts, in.k, {2, 13}));
}
