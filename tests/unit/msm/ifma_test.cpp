// The eight-lane IFMA kernels (msm/ifma_kernels.hpp) against the scalar
// point arithmetic of ec/: domain conversions, additions with every sign
// combination, doublings, batch tails of every length. Skipped on CPUs
// without AVX-512 IFMA (the MSM then never calls the kernels).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "msm/batch_affine.hpp"
#include "msm/ifma_kernels.hpp"
#include "msm_test_util.hpp"
#include "platform/cpu_features.hpp"

using namespace cuzk;
using msm::detail::Pt;
using G1 = ec::G1Curve;
using Aff = ec::Affine<G1>;
using Jac = ec::Jacobian<G1>;

namespace {

#define SKIP_WITHOUT_IFMA() \
  if (!platform::use_ifma()) GTEST_SKIP() << "CPU without AVX-512 IFMA/VBMI2 (or disabled)"

uint64_t* limbs(Pt<G1>& p) { return p.x.v.data(); }

ff::Fp fp_raw(const arith::Limbs<6>& v) {
  ff::Fp f;
  f.v = v;
  return f;
}

}  // namespace

TEST(IfmaKernels, DomainRoundTripAndScaling) {
  SKIP_WITHOUT_IFMA();
  std::mt19937_64 rng(5);
  const ff::Fp pm1 = -ff::Fp::one();
  // Edge values: 0, 1 (Montgomery form R), p - 1, raw 1, raw p - 1, random.
  std::vector<Pt<G1>> pts;
  pts.push_back({ff::Fp::zero(), ff::Fp::one()});
  pts.push_back({pm1, fp_raw(arith::from_u64<6>(1))});
  pts.push_back({fp_raw(ff::Fp::minus(ff::Fp::MODULUS, 1)), ff::Fp::zero()});
  pts.push_back({ff::Fp::one(), pm1});
  pts.push_back({ff::Fp::zero(), fp_raw(ff::Fp::minus(ff::Fp::MODULUS, 1))});
  for (int i = 0; i < 35; i++) pts.push_back({ff::Fp::random(rng), ff::Fp::random(rng)});
  const auto orig = pts;
  msm::ifma::points_to_domain(limbs(pts[0]), pts.size(), 2);
  // x as it is; Y -> Y * 2^-16 mod p: check against the scalar field.
  const ff::Fp inv16 = ff::Fp::from_u64(uint64_t(1) << 16).inverse();
  for (size_t i = 0; i < pts.size(); i++) {
    EXPECT_EQ(pts[i].x, orig[i].x) << i;
    EXPECT_EQ(pts[i].y, orig[i].y * inv16) << i;
    EXPECT_LT(arith::compare(pts[i].y.v, ff::Fp::MODULUS), 0) << "canonical";
  }
  msm::ifma::points_from_domain(limbs(pts[0]), pts.size(), 2);
  for (size_t i = 0; i < pts.size(); i++) {
    EXPECT_EQ(pts[i].x, orig[i].x) << i;
    EXPECT_EQ(pts[i].y, orig[i].y) << i;
  }
}

// The MSM's form of points in the kernels: x as it is, y times 2^-16 (the
// image on an isomorphic curve; see ifma_kernels.cpp), for G1 and G2 point
// counts that leave a group partly filled, and back.
TEST(IfmaKernels, PointsToDomainScalesYOnly) {
  SKIP_WITHOUT_IFMA();
  std::mt19937_64 rng(6);
  const ff::Fp inv16 = ff::Fp::from_u64(uint64_t(1) << 16).inverse();
  for (size_t per : {2, 4})
    for (size_t n : {1, 3, 4, 5, 9, 17}) {
      std::vector<ff::Fp> e(n * per);
      for (auto& v : e) v = ff::Fp::random(rng);
      e[0] = ff::Fp::zero();
      e[per - 1] = -ff::Fp::one();
      const auto orig = e;
      msm::ifma::points_to_domain(e[0].v.data(), n, per);
      for (size_t i = 0; i < e.size(); i++) {
        const bool y = i % per >= per / 2;
        EXPECT_EQ(e[i], y ? orig[i] * inv16 : orig[i]) << "per " << per << ", n " << n << ", element " << i;
        EXPECT_LT(arith::compare(e[i].v, ff::Fp::MODULUS), 0) << "canonical";
      }
      msm::ifma::points_from_domain(e[0].v.data(), n, per);
      EXPECT_EQ(e, orig) << "per " << per << ", n " << n;
    }
  std::vector<ff::Fp> e(6);
  EXPECT_THROW(msm::ifma::points_to_domain(e[0].v.data(), 2, 3), std::invalid_argument);
}

// GLV entry pairs (P, copy of P) become (P, phi(P)) in the kernels' form:
// the same as converting (P, (beta x, y)) with points_to_domain, for G1
// (2 Fp per point) and G2 (4), odd pair counts included (a partly filled
// last group).
TEST(IfmaKernels, GlvPairsToDomainAppliesBeta) {
  SKIP_WITHOUT_IFMA();
  std::mt19937_64 rng(13);
  const ff::Fp beta = ff::Fp::random(rng);
  for (size_t per : {2, 4})
    for (size_t pairs : {1, 2, 3, 5, 8}) {
      std::vector<ff::Fp> in(pairs * 2 * per), want;
      for (auto& e : in) e = ff::Fp::random(rng);
      for (size_t q = 0; q < pairs; q++)  // P' = copy of P
        for (size_t k = 0; k < per; k++) in[q * 2 * per + per + k] = in[q * 2 * per + k];
      want = in;
      for (size_t q = 0; q < pairs; q++)  // phi(P): its x (the first half) times beta
        for (size_t k = 0; k < per / 2; k++) want[q * 2 * per + per + k] *= beta;
      auto raw = [](std::vector<ff::Fp>& v) { return v[0].v.data(); };
      msm::ifma::glv_pairs_to_domain(raw(in), pairs, per, beta);
      msm::ifma::points_to_domain(raw(want), 2 * pairs, per);
      EXPECT_EQ(in, want) << "fp per point " << per << ", pairs " << pairs;
    }
}

template <class C>
class IfmaAdd : public ::testing::Test {};
using Curves = ::testing::Types<ec::G1Curve, ec::G2Curve>;
TYPED_TEST_SUITE(IfmaAdd, Curves);

TYPED_TEST(IfmaAdd, MatchesScalarPointArithmetic) {
  SKIP_WITHOUT_IFMA();
  using C = TypeParam;
  using A = ec::Affine<C>;
  using J = ec::Jacobian<C>;
  constexpr size_t kFp = sizeof(Pt<C>) / sizeof(ff::Fp);
  auto raw = [](Pt<C>& p) { return reinterpret_cast<uint64_t*>(&p); };
  std::mt19937_64 rng(9);
  std::vector<ff::Fr> dl(64);
  const auto aff = msm_test::points_from<C>(dl, rng);
  // Batch tails of every length mod 8, a long batch; random signs; doublings;
  // B in the kernels' domain, then (a list of raw B) as the field layer keeps it.
  for (const bool raw_b : {false, true})
    for (size_t n : {1, 2, 3, 7, 8, 9, 15, 16, 17, 23, 31, 33, 41, 1000}) {
      std::vector<Pt<C>> a(n), b(n), out(n);
      msm::ifma::JobList jobs;
      jobs.set_raw_b(raw_b);
      std::vector<A> want(n);
      for (size_t i = 0; i < n; i++) {
        const size_t ia = rng() % aff.size();
        size_t ib = rng() % aff.size();
        const bool dbl = rng() % 5 == 0;
        if (!dbl && ib == ia) ib = (ia + 1) % aff.size();
        if (dbl) ib = ia;
        const bool na = rng() & 1;
        const bool nb = dbl ? na : bool(rng() & 1);
        a[i] = {aff[ia].x, aff[ia].y};
        b[i] = {aff[ib].x, aff[ib].y};
        const A pa = na ? aff[ia].neg() : aff[ia];
        const A pb = nb ? aff[ib].neg() : aff[ib];
        want[i] = J::from_affine(pa).add(J::from_affine(pb)).to_affine();
        jobs.push(
            raw(a[i]), raw(b[i]), raw(out[i]),
            uint8_t((na ? msm::ifma::NEG_A : 0) | (nb ? msm::ifma::NEG_B : 0) | (dbl ? msm::ifma::DBL : 0)));
      }
      msm::ifma::points_to_domain(raw(a[0]), n, kFp);
      if (!raw_b) msm::ifma::points_to_domain(raw(b[0]), n, kFp);
      std::vector<uint32_t> special(n);
      jobs.pad();
      size_t ns;
      if constexpr (std::is_same_v<C, ec::G1Curve>) ns = msm::ifma::g1_add_batch(jobs, 0, n, special.data());
      else ns = msm::ifma::g2_add_batch(jobs, 0, n, special.data());
      ASSERT_EQ(ns, 0u) << "no equal x without DBL here";
      msm::ifma::points_from_domain(raw(out[0]), n, kFp);
      for (size_t i = 0; i < n; i++) {
        ASSERT_EQ(A::from_xy(out[i].x, out[i].y), want[i]) << "n=" << n << " i=" << i << " raw b " << raw_b;
      }
    }
}

TEST(IfmaKernels, OutputMayAliasAnInput) {
  SKIP_WITHOUT_IFMA();
  std::mt19937_64 rng(10);
  std::vector<ff::Fr> dl(20);
  const auto aff = msm_test::points_from<G1>(dl, rng);
  std::vector<Pt<G1>> p(20);
  for (size_t i = 0; i < 20; i++) p[i] = {aff[i].x, aff[i].y};
  msm::ifma::points_to_domain(limbs(p[0]), 20, 2);
  // p[2i] = p[2i] + p[2i+1], written over the first operand.
  msm::ifma::JobList jobs;
  for (size_t i = 0; i < 10; i++) jobs.push(limbs(p[2 * i]), limbs(p[2 * i + 1]), limbs(p[2 * i]), 0);
  std::vector<uint32_t> special(jobs.size());
  EXPECT_THROW(msm::ifma::g1_add_batch(jobs, 0, jobs.size(), special.data()), std::logic_error)
      << "not padded";
  jobs.pad();
  EXPECT_THROW(msm::ifma::g1_add_batch(jobs, 3, 4, special.data()), std::logic_error)
      << "first not a multiple of 8";
  ASSERT_EQ(msm::ifma::g1_add_batch(jobs, 0, jobs.size(), special.data()), 0u);
  msm::ifma::points_from_domain(limbs(p[0]), 20, 2);
  for (size_t i = 0; i < 10; i++) {
    const Aff want = Jac::from_affine(aff[2 * i]).add(Jac::from_affine(aff[2 * i + 1])).to_affine();
    EXPECT_EQ(Aff::from_xy(p[2 * i].x, p[2 * i].y), want) << i;
  }
}

// Pairs with equal x and no DBL flag (P + P, P + (-P)) are reported, not
// computed; the other lanes of their groups, the tail copies included, still
// come out right.
TEST(IfmaKernels, EqualXIsReportedAndLeftAlone) {
  SKIP_WITHOUT_IFMA();
  std::mt19937_64 rng(12);
  std::vector<ff::Fr> dl(40);
  const auto aff = msm_test::points_from<G1>(dl, rng);
  for (size_t n : {1, 5, 8, 13, 40}) {
    std::vector<Pt<G1>> a(n), b(n), out(n);
    msm::ifma::JobList jobs;
    std::vector<uint32_t> want_special;
    for (size_t i = 0; i < n; i++) {
      const bool same = i % 3 == 0 || i + 1 == n;  // the last job too: the tail repeats it
      a[i] = {aff[i].x, aff[i].y};
      b[i] = same ? a[i] : Pt<G1>{aff[(i + 1) % 40].x, aff[(i + 1) % 40].y};
      const bool neg = same && i % 2;  // P + P or P + (-P)
      jobs.push(limbs(a[i]), limbs(b[i]), limbs(out[i]), neg ? msm::ifma::NEG_B : 0);
      if (same) want_special.push_back(uint32_t(i));
    }
    const std::vector<Pt<G1>> untouched = out;
    msm::ifma::points_to_domain(limbs(a[0]), n, 2);
    msm::ifma::points_to_domain(limbs(b[0]), n, 2);
    std::vector<uint32_t> special(n);
    jobs.pad();
    const size_t ns = msm::ifma::g1_add_batch(jobs, 0, n, special.data());
    special.resize(ns);
    EXPECT_EQ(special, want_special) << "n=" << n;
    msm::ifma::points_from_domain(limbs(out[0]), n, 2);
    for (size_t i = 0; i < n; i++) {
      if (std::find(want_special.begin(), want_special.end(), i) != want_special.end()) {
        EXPECT_EQ(out[i].x, untouched[i].x) << "special job " << i << " was written";
        continue;
      }
      const Aff want = Jac::from_affine(aff[i]).add(Jac::from_affine(aff[(i + 1) % 40])).to_affine();
      EXPECT_EQ(Aff::from_xy(out[i].x, out[i].y), want) << "n=" << n << " i=" << i;
    }
  }
}
