// NTT correctness: naive O(n^2) evaluation for small n, round trips up to
// 2^16 (and 2^20), coset variants, division by Z, thread-count independence,
// the short-table (four-step twist) path, and the building blocks of the
// bit-reversal-free H pipeline.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "ntt/ntt.hpp"
#include "ntt/plan.hpp"
#include "ntt_test_util.hpp"
#include "platform/cpu_features.hpp"

using namespace cuzk;
using namespace cuzk::ntt;
using namespace cuzk::ntt::test;

namespace {

const Options kOne{1}, kTwo{2};

TEST(Ntt, ForwardMatchesNaiveEvaluation) {
  for (unsigned k = 0; k <= 8; k++) {
    Domain d(k);
    auto a = random_vector(d.size(), 100 + k);
    auto want = naive_eval(a, d.omega(), Fr::one(), d.size());
    auto got = a;
    forward(got, d, kOne);
    ASSERT_EQ(got, want) << "k = " << k;
    inverse(want, d, kOne);
    ASSERT_EQ(want, a) << "k = " << k;
  }
}

TEST(Ntt, CosetMatchesNaiveEvaluation) {
  for (unsigned k = 0; k <= 8; k++) {
    Domain d(k);
    auto a = random_vector(d.size(), 200 + k);
    auto want = naive_eval(a, d.omega(), Fr::from_u64(7), d.size());
    auto got = a;
    coset_forward(got, d, kOne);
    ASSERT_EQ(got, want) << "k = " << k;
    coset_inverse(got, d, kOne);
    ASSERT_EQ(got, a) << "k = " << k;
  }
}

// A domain over another library's root (ffjavascript's 5^t): its omega is
// that root's power, and transforms evaluate there, forward and back,
// through the IFMA and scalar kernels alike.
TEST(Ntt, DomainOverAnotherRootOfUnity) {
  const Fr root5 = Fr::from_u64(5).pow_vartime(Fr::T_ODD);
  for (unsigned k : {1u, 4u, 9u, 12u}) {
    Domain d(k, DomainConfig{.root_2_32 = root5});
    Fr w = root5;
    for (unsigned i = k; i < Fr::S; i++) w = w.square();
    ASSERT_EQ(d.omega(), w) << "k = " << k;
    if (k >= 9) {  // (both are -1 at k = 1)
      ASSERT_NE(d.omega(), Domain(k).omega()) << "k = " << k;
    }
    auto a = random_vector(d.size(), 300 + k);
    const size_t check = std::min<size_t>(d.size(), 64);  // naive evaluation at the first points
    auto want = naive_eval(a, w, Fr::one(), check);
    auto got = a;
    forward(got, d, kTwo);
    ASSERT_TRUE(std::equal(want.begin(), want.end(), got.begin())) << "k = " << k;
    inverse(got, d, kTwo);
    ASSERT_EQ(got, a) << "k = " << k;
  }
  // Not of order 2^32: a square of a primitive root, and 1.
  EXPECT_THROW(Domain(4, DomainConfig{.root_2_32 = root5.square()}), std::invalid_argument);
  EXPECT_THROW(Domain(4, DomainConfig{.root_2_32 = Fr::one()}), std::invalid_argument);
}

TEST(Ntt, RoundTripAllSizesTo2e16) {
  for (unsigned k = 0; k <= 16; k++) {
    Domain d(k);
    auto a = random_vector(d.size(), 300 + k);
    auto b = a;
    forward(b, d);
    if (k >= 2) {
      ASSERT_NE(a, b);
    }
    inverse(b, d);
    ASSERT_EQ(a, b) << "k = " << k;
    coset_forward(b, d);
    coset_inverse(b, d);
    ASSERT_EQ(a, b) << "coset, k = " << k;
  }
}

TEST(Ntt, RoundTrip2e20) {
  Domain d(20);
  auto a = random_vector(d.size(), 20);
  auto b = a;
  forward(b, d);
  inverse(b, d);
  ASSERT_TRUE(a == b);
}

// Spot-check a large transform against direct evaluation at a few points.
TEST(Ntt, LargeTransformSpotChecks) {
  for (unsigned k : {13u, 17u}) {
    Domain d(k);
    auto a = random_vector(d.size(), 400 + k);
    auto e = a, c = a;
    forward(e, d);
    coset_forward(c, d);
    for (size_t i : {size_t(0), size_t(1), size_t(5), d.size() / 2 + 3, d.size() - 1}) {
      const Fr x = d.omega().pow_vartime(uint64_t(i));
      ASSERT_EQ(e[i], eval(a, x)) << "k = " << k << " i = " << i;
      ASSERT_EQ(c[i], eval(a, Fr::from_u64(7) * x)) << "k = " << k << " i = " << i;
    }
  }
}

TEST(Ntt, ThreadCountDoesNotChangeResults) {
  for (unsigned k : {12u, 13u, 15u, 17u}) {
    Domain d(k);
    auto a = random_vector(d.size(), 500 + k);
    auto x1 = a, x2 = a, x0 = a;
    forward(x1, d, kOne);
    forward(x2, d, kTwo);
    forward(x0, d, Options{0});
    ASSERT_TRUE(x1 == x2 && x1 == x0) << "forward k = " << k;
    coset_inverse(x1, d, kOne);
    coset_inverse(x2, d, kTwo);
    ASSERT_TRUE(x1 == x2) << "coset_inverse k = " << k;
  }
}

// Domains over the table budget take the four-step twist path; results must
// be identical to the full-table path.
TEST(Ntt, ShortTablePathMatchesFullTables) {
  for (unsigned k : {13u, 14u, 16u}) {
    Domain full(k), part(k, DomainConfig{0});
    ASSERT_FALSE(part.full_twiddles());
    auto a = random_vector(full.size(), 600 + k);
    for (auto dir : {Direction::forward, Direction::inverse}) {
      for (const Options& o : {kOne, kTwo}) {
        auto x = a, y = a;
        ntt_nr(x, full, dir, o);
        ntt_nr(y, part, dir, o);
        ASSERT_TRUE(x == y) << "ntt_nr k = " << k;
        ntt_rn(x, full, dir, o);
        ntt_rn(y, part, dir, o);
        ASSERT_TRUE(x == y) << "ntt_rn k = " << k;
      }
    }
  }
}

// With a tiny cache plan every size above 2^3 takes the blocked path and
// rows recurse several levels deep (as 2^23+ transforms do with the real
// plan); results must not change.
TEST(Ntt, DeepRecursionMatchesReference) {
  struct Ref {
    std::vector<Fr> nr_fwd, nr_inv, rn_fwd, rn_inv;
  };
  const unsigned ks[] = {4, 7, 9, 12, 14};
  std::vector<Ref> refs;
  for (unsigned k : ks) {
    Domain d(k);
    auto a = random_vector(d.size(), 1400 + k);
    Ref r{a, a, a, a};
    ntt_nr(r.nr_fwd, d, Direction::forward, kOne);
    ntt_nr(r.nr_inv, d, Direction::inverse, kOne);
    ntt_rn(r.rn_fwd, d, Direction::forward, kOne);
    ntt_rn(r.rn_inv, d, Direction::inverse, kOne);
    refs.push_back(std::move(r));
  }
  const detail::Plan saved = detail::plan();
  detail::plan().block_log = 3;
  detail::plan().max_column_log = 2;
  for (size_t t = 0; t < std::size(ks); t++) {
    const unsigned k = ks[t];
    for (uint64_t budget : {uint64_t(1) << 40, uint64_t(0)}) {
      Domain d(k, DomainConfig{budget});
      auto a = random_vector(d.size(), 1400 + k);
      for (const Options& o : {kOne, kTwo}) {
        auto x = a;
        ntt_nr(x, d, Direction::forward, o);
        EXPECT_TRUE(x == refs[t].nr_fwd) << "k = " << k << " budget " << budget;
        x = a;
        ntt_nr(x, d, Direction::inverse, o);
        EXPECT_TRUE(x == refs[t].nr_inv) << "k = " << k << " budget " << budget;
        x = a;
        ntt_rn(x, d, Direction::forward, o);
        EXPECT_TRUE(x == refs[t].rn_fwd) << "k = " << k << " budget " << budget;
        x = a;
        ntt_rn(x, d, Direction::inverse, o);
        EXPECT_TRUE(x == refs[t].rn_inv) << "k = " << k << " budget " << budget;
      }
    }
  }
  detail::plan() = saved;
}

// The eight-lane IFMA blocks (where the CPU has them) against the scalar
// kernels: bit-identical outputs for every size class (plain blocks, column
// groups, rows, short tables, the deep-recursion plan) and both directions.
TEST(Ntt, IfmaKernelsMatchScalarKernels) {
  if (!platform::use_ifma()) GTEST_SKIP() << "CPU without AVX-512 IFMA/VBMI2 (or disabled)";
  auto check = [](unsigned k, uint64_t budget, const char* what) {
    Domain d(k, DomainConfig{budget});  // built with the IFMA tables
    ASSERT_FALSE(d.twiddles52(Direction::forward).empty());
    auto a = random_vector(d.size(), 1700 + k);
    for (auto dir : {Direction::forward, Direction::inverse}) {
      for (const Options& o : {kOne, kTwo}) {
        std::vector<Fr> x[2] = {a, a};
        for (int m = 0; m < 2; m++) {
          platform::set_use_ifma(m == 1);
          ntt_nr(x[m], d, dir, o);
        }
        ASSERT_TRUE(x[0] == x[1]) << what << " ntt_nr k = " << k;
        for (int m = 0; m < 2; m++) {
          platform::set_use_ifma(m == 1);
          ntt_rn(x[m], d, dir, o);
        }
        platform::set_use_ifma(true);
        ASSERT_TRUE(x[0] == x[1]) << what << " ntt_rn k = " << k;
      }
    }
  };
  for (unsigned k : {3u, 4u, 5u, 6u, 9u, 12u, 13u, 15u, 17u}) {
    check(k, uint64_t(1) << 40, "full tables");
    if (k > 12) check(k, 0, "short tables");
  }
  const detail::Plan saved = detail::plan();
  detail::plan().block_log = 5;
  detail::plan().max_column_log = 3;
  for (unsigned k : {6u, 9u, 14u}) check(k, uint64_t(1) << 40, "deep recursion");
  detail::plan() = saved;
  // And against the definition on a small size.
  Domain d(6);
  auto a = random_vector(d.size(), 1799);
  auto want = naive_eval(a, d.omega(), Fr::one(), d.size());
  forward(a, d, kOne);
  EXPECT_TRUE(a == want);
}

TEST(Ntt, BuildingBlocks) {
  for (unsigned k : {0u, 1u, 3u, 8u, 13u}) {
    Domain d(k);
    auto a = random_vector(d.size(), 700 + k);
    auto nat = a;
    forward(nat, d, kOne);
    // ntt_nr = forward in bit-reversed order.
    auto nr = a;
    ntt_nr(nr, d, Direction::forward, kOne);
    ASSERT_EQ(nr, permuted_bitrev(nat)) << "k = " << k;
    // ntt_rn on bit-reversed input = forward.
    auto rn = permuted_bitrev(a);
    ntt_rn(rn, d, Direction::forward, kOne);
    ASSERT_EQ(rn, nat) << "k = " << k;
    // ntt_rn(ntt_nr(a), inverse) = n * a.
    ntt_rn(nr, d, Direction::inverse, kOne);
    scale(nr, d.size_inv(), kOne);
    ASSERT_EQ(nr, a) << "k = " << k;
  }
}

TEST(Ntt, BitReverseMatchesNaive) {
  for (unsigned k = 0; k <= 17; k++) {
    auto a = random_vector(size_t(1) << k, 800 + k);
    auto b = a;
    bit_reverse(b, k % 2 ? kOne : kTwo);
    ASSERT_EQ(b, permuted_bitrev(a)) << "k = " << k;
  }
  std::vector<Fr> bad(3);
  EXPECT_THROW(bit_reverse(bad), std::invalid_argument);
}

TEST(Ntt, Scalings) {
  const Fr c = Fr::from_u64(11), g = Fr::from_u64(7);
  const bool had_ifma = platform::use_ifma();
  // Both paths of scale_bitrev_powers (eight IFMA lanes, scalar) where the
  // CPU has the lanes.
  for (bool lanes : {false, true}) {
    if (lanes && !had_ifma) continue;
    platform::set_use_ifma(lanes);
    for (unsigned k : {0u, 1u, 5u, 6u, 7u, 12u, 13u, 16u}) {
      const size_t n = size_t(1) << k;
      auto a = random_vector(n, 900 + k);
      auto p = a, q = a;
      scale_powers(p, c, g, k % 2 ? kOne : kTwo);
      scale_bitrev_powers(q, c, g, k % 2 ? kTwo : kOne);
      for (size_t i = 0; i < n; i++) {
        ASSERT_EQ(p[i], a[i] * c * g.pow_vartime(uint64_t(i))) << "k = " << k << " i = " << i;
        ASSERT_EQ(q[i], a[i] * c * g.pow_vartime(uint64_t(brev(i, k)))) << "k = " << k << " lanes " << lanes;
      }
    }
  }
  platform::set_use_ifma(had_ifma);
  // Lengths that are not multiples of the internal block.
  auto a = random_vector(1000, 1);
  auto p = a;
  scale_powers(p, c, g, kTwo);
  for (size_t i = 0; i < a.size(); i++) ASSERT_EQ(p[i], a[i] * c * g.pow_vartime(uint64_t(i)));
}

// h of degree < n; p = h * Z = h * (x^n - 1) has degree < 2n. Evaluating p on
// the coset (naively), dividing by Z there and interpolating must give h.
TEST(Ntt, DivideByVanishingOnCosetIsExact) {
  for (unsigned k : {0u, 1u, 4u, 7u}) {
    Domain d(k);
    const size_t n = d.size();
    auto h = random_vector(n, 1000 + k);
    std::vector<Fr> p(2 * n);
    for (size_t j = 0; j < n; j++) {
      p[j] = -h[j];
      p[j + n] = h[j];
    }
    auto v = naive_eval(p, d.omega(), Fr::from_u64(7), n);
    divide_by_vanishing_on_coset(v, d, kOne);
    coset_inverse(v, d, kOne);
    ASSERT_EQ(v, h) << "k = " << k;
  }
}

// The same H computation through the natural-order API and through the
// bit-reversal-free building blocks (one bit reversal at the end).
TEST(Ntt, BitReversalFreeHPipelineMatches) {
  for (unsigned k : {3u, 10u, 14u}) {
    Domain d(k);
    const size_t n = d.size();
    auto a = random_vector(n, 1100 + k), b = random_vector(n, 1200 + k), c = random_vector(n, 1300 + k);
    auto ref = [&] {
      auto A = a, B = b, C = c;
      for (auto* v : {&A, &B, &C}) {
        inverse(*v, d);
        coset_forward(*v, d);
      }
      for (size_t i = 0; i < n; i++) A[i] = A[i] * B[i] - C[i];
      divide_by_vanishing_on_coset(A, d);
      coset_inverse(A, d);
      return A;
    }();
    auto A = a, B = b, C = c;
    for (auto* v : {&A, &B, &C}) {
      ntt_nr(*v, d, Direction::inverse);
      scale_bitrev_powers(*v, d.size_inv(), d.coset_generator());
      ntt_rn(*v, d, Direction::forward);
    }
    for (size_t i = 0; i < n; i++) A[i] = A[i] * B[i] - C[i];
    divide_by_vanishing_on_coset(A, d);
    ntt_nr(A, d, Direction::inverse);
    scale_bitrev_powers(A, d.size_inv(), d.coset_generator_inv());
    bit_reverse(A);
    ASSERT_TRUE(A == ref) << "k = " << k;
  }
}

TEST(Ntt, RejectsWrongSize) {
  Domain d(4);
  std::vector<Fr> v(15);
  EXPECT_THROW(forward(v, d), std::invalid_argument);
  EXPECT_THROW(inverse(v, d), std::invalid_argument);
  EXPECT_THROW(coset_forward(v, d), std::invalid_argument);
  EXPECT_THROW(coset_inverse(v, d), std::invalid_argument);
  EXPECT_THROW(ntt_rn(v, d, Direction::forward), std::invalid_argument);
  EXPECT_THROW(divide_by_vanishing_on_coset(v, d), std::invalid_argument);
}

}  // namespace
