#pragma once
// What every device backend must do (device/backend.hpp), as one suite that
// each backend's test binary instantiates with its factory:
//
//   INSTANTIATE_TEST_SUITE_P(Cpu, BackendConformance,
//                            testing::Values(BackendCase{"cpu", make_cpu, 300}));
//
// References are independent of the backend under test: MSMs against the
// plain sum of scalar multiplications (ec::mul_vartime) on small inputs and
// against msm::msm_canonical (the CPU Pippenger, tested on its own) on larger
// ones; H against device::qap::compute_h on the CPU. Inputs: random and edge
// scalars (0, 1, r - 1, a scalar ≥ r), repeated and opposite points, points
// at infinity, empty runs, density bitmaps, several terms.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "device/backend.hpp"
#include "ec/scalar_mul.hpp"
#include "msm/msm.hpp"
#include "ntt/ntt.hpp"

namespace cuzk::device::test {

struct BackendCase {
  std::string name;
  std::function<std::unique_ptr<Backend>()> make;
  size_t max_n = 300;  // the largest MSM to try (emulated devices are slow)
  // Why the backend cannot run here ("" when it can): the test is skipped.
  std::function<std::string()> unavailable = [] { return std::string(); };
};

inline void PrintTo(const BackendCase& c, std::ostream* os) { *os << c.name; }

template <class C>
ec::Affine<C> random_point(std::mt19937_64& rng) {
  return ec::mul_vartime(ec::Jacobian<C>::from_affine(C::generator()), ff::Fr::random(rng)).to_affine();
}

// Points with the shapes an MSM must survive: mostly random, some repeated,
// some opposite to another one, a few at infinity.
template <class C>
std::vector<ec::Affine<C>> test_points(size_t n, std::mt19937_64& rng) {
  std::vector<ec::Affine<C>> p(n);
  for (size_t i = 0; i < n; i++) {
    switch (i % 11) {
      case 3:
        p[i] = i >= 3 ? p[i - 3] : random_point<C>(rng);  // repeated
        break;
      case 7:
        p[i] = i >= 1 ? p[i - 1].neg() : random_point<C>(rng);  // opposite
        break;
      case 9: p[i] = ec::Affine<C>::identity(); break;
      default: p[i] = random_point<C>(rng);
    }
  }
  return p;
}

// Scalars as a Filecoin witness has them (mostly 0 and 1) mixed with edge
// values and random ones.
inline std::vector<ff::Fr> test_scalars(size_t n, std::mt19937_64& rng) {
  std::vector<ff::Fr> s(n);
  for (size_t i = 0; i < n; i++) {
    switch (rng() % 8) {
      case 0: s[i] = ff::Fr::zero(); break;
      case 1:
      case 2: s[i] = ff::Fr::one(); break;
      case 3: s[i] = -ff::Fr::one(); break;  // r - 1
      case 4: s[i] = ff::Fr::from_u64(rng() % 5 + 2); break;
      default: s[i] = ff::Fr::random(rng);
    }
  }
  return s;
}

template <class C>
ec::Jacobian<C> naive_msm(std::span<const ec::Affine<C>> p, std::span<const ff::Fr> k) {
  ec::Jacobian<C> acc = ec::Jacobian<C>::identity();
  for (size_t i = 0; i < p.size(); i++) acc = acc.add(ec::mul_vartime(ec::Jacobian<C>::from_affine(p[i]), k[i]));
  return acc;
}

template <class C>
ec::Jacobian<C> reference_msm(std::span<const ec::Affine<C>> p, std::span<const ff::Fr> k) {
  if (p.size() <= 64) return naive_msm<C>(p, k);
  std::vector<arith::Limbs<4>> c(k.size());
  for (size_t i = 0; i < k.size(); i++) c[i] = k[i].to_canonical();
  return msm::msm_canonical<C>(p, c);
}

class BackendConformance : public testing::TestWithParam<BackendCase> {
 protected:
  void SetUp() override {
    if (const std::string why = GetParam().unavailable(); !why.empty()) GTEST_SKIP() << why;
    be = GetParam().make();
  }
  std::unique_ptr<Backend> be;

  template <class C>
  void one_run_matches_reference() {
    std::mt19937_64 rng(1000 + sizeof(typename C::Base));
    for (size_t n : {size_t(0), size_t(1), size_t(2), size_t(17), size_t(64), GetParam().max_n}) {
      SCOPED_TRACE(testing::Message() << "n = " << n);
      auto pts = test_points<C>(n, rng);
      auto ks = test_scalars(n, rng);
      auto bases = be->upload(msm::Points<C>(std::span<const ec::Affine<C>>(pts)));
      EXPECT_EQ(bases->size(), n);
      for (bool view : {false, true}) {
        auto sc = be->load_scalars(ks, view);
        EXPECT_EQ(sc->size(), n);
        EXPECT_EQ(be->msm(*bases, all_of(*sc)).to_affine(), reference_msm<C>(pts, ks).to_affine()) << view;
      }
    }
  }

  template <class C>
  void density_runs_and_terms_match_reference() {
    std::mt19937_64 rng(77);
    const size_t n_in = 5, n_aux = std::min<size_t>(GetParam().max_n, 150);
    auto inputs = test_scalars(n_in, rng), aux = test_scalars(n_aux, rng);
    r1cs::Density din, daux;
    din.resize(n_in);
    daux.resize(n_aux);
    for (size_t i = 0; i < n_in; i++)
      if (i % 2 == 0) din.inc(i);
    for (size_t i = 0; i < n_aux; i++)
      if (rng() % 3) daux.inc(i);
    // The selected scalars, in order, and points for them.
    std::vector<ff::Fr> sel;
    for (size_t i = 0; i < n_in; i++)
      if (din.get(i)) sel.push_back(inputs[i]);
    for (size_t i = 0; i < n_aux; i++)
      if (daux.get(i)) sel.push_back(aux[i]);
    auto pts = test_points<C>(sel.size(), rng);
    auto in_sc = be->load_scalars(inputs), aux_sc = be->load_scalars(aux);
    const device::Run runs[] = {{in_sc.get(), 0, n_in, &din}, {aux_sc.get(), 0, n_aux, &daux}};
    auto bases = be->upload(msm::Points<C>(std::span<const ec::Affine<C>>(pts)));
    const Term<C> term[] = {{bases.get(), runs}};
    const auto want = reference_msm<C>(pts, sel).to_affine();
    EXPECT_EQ(be->msm(std::span<const Term<C>>(term)).to_affine(), want);
    // The same scalars selected into a handle of their own.
    auto picked = be->select(runs);
    EXPECT_EQ(picked->size(), sel.size());
    EXPECT_EQ(be->msm(*bases, all_of(*picked)).to_affine(), want);

    // Three terms: a sub-range of aux, the picked scalars, the inputs.
    const size_t lo = 3, cnt = n_aux / 2;
    auto pts_a = test_points<C>(cnt, rng), pts_c = test_points<C>(n_in, rng);
    auto bases_a = be->upload(msm::Points<C>(std::span<const ec::Affine<C>>(pts_a)));
    auto bases_c = be->upload(msm::Points<C>(std::span<const ec::Affine<C>>(pts_c)));
    const device::Run ra{aux_sc.get(), lo, cnt, nullptr}, rb = all_of(*picked), rc = all_of(*in_sc);
    const Term<C> terms[] = {{bases_a.get(), {&ra, 1}}, {bases.get(), {&rb, 1}}, {bases_c.get(), {&rc, 1}}};
    const auto sum = reference_msm<C>(pts_a, std::span<const ff::Fr>(aux).subspan(lo, cnt))
                         .add(reference_msm<C>(pts, sel))
                         .add(reference_msm<C>(pts_c, inputs));
    EXPECT_EQ(be->msm(std::span<const Term<C>>(terms)).to_affine(), sum.to_affine());
  }
};

TEST_P(BackendConformance, G1MsmOfOneRunMatchesTheReference) { one_run_matches_reference<ec::G1Curve>(); }
TEST_P(BackendConformance, G2MsmOfOneRunMatchesTheReference) { one_run_matches_reference<ec::G2Curve>(); }
TEST_P(BackendConformance, G1DensityRunsSelectionAndSeveralTerms) {
  density_runs_and_terms_match_reference<ec::G1Curve>();
}
TEST_P(BackendConformance, G2DensityRunsSelectionAndSeveralTerms) {
  density_runs_and_terms_match_reference<ec::G2Curve>();
}

TEST_P(BackendConformance, AllZeroAndAllOneScalars) {
  std::mt19937_64 rng(5);
  const size_t n = std::min<size_t>(GetParam().max_n, 100);
  auto pts = test_points<ec::G1Curve>(n, rng);
  auto bases = be->upload(msm::Points<ec::G1Curve>(std::span<const ec::G1Affine>(pts)));
  std::vector<ff::Fr> zeros(n, ff::Fr::zero()), ones(n, ff::Fr::one());
  auto z = be->load_scalars(zeros), o = be->load_scalars(ones);
  EXPECT_TRUE(be->msm(*bases, all_of(*z)).is_identity());
  ec::G1Jacobian sum = ec::G1Jacobian::identity();
  for (const auto& p : pts) sum = sum.add(ec::G1Jacobian::from_affine(p));
  EXPECT_EQ(be->msm(*bases, all_of(*o)).to_affine(), sum.to_affine());
  // A single point doubled inside a bucket: P + P + ... with one scalar.
  std::vector<ec::G1Affine> same(n, pts.empty() ? ec::G1Curve::generator() : random_point<ec::G1Curve>(rng));
  auto bs = be->upload(msm::Points<ec::G1Curve>(std::span<const ec::G1Affine>(same)));
  std::vector<ff::Fr> sevens(n, ff::Fr::from_u64(7));
  auto sv = be->load_scalars(sevens);
  EXPECT_EQ(be->msm(*bs, all_of(*sv)).to_affine(),
            ec::mul_vartime(ec::G1Jacobian::from_affine(same[0]), ff::Fr::from_u64(7 * n)).to_affine());
}

// H on both conventions the provers use, against the CPU's QAP step.
TEST_P(BackendConformance, HOnBothCosetsMatchesTheQapStep) {
  std::mt19937_64 rng(9);
  const ff::Fr ffjs = ff::Fr::from_u64(5).pow_vartime(ff::Fr::T_ODD);
  for (unsigned log_n : {1u, 3u, 8u, 11u}) {
    const size_t n = size_t(1) << log_n;
    if (n > 256 && n > GetParam().max_n) continue;
    for (bool snarkjs : {false, true}) {
      SCOPED_TRACE(testing::Message() << "log_n = " << log_n << (snarkjs ? " snarkjs" : " bellperson"));
      std::vector<ff::Fr> a(n), b(n), c(n);
      for (size_t i = 0; i < n; i++) {
        a[i] = ff::Fr::random(rng);
        b[i] = ff::Fr::random(rng);
        c[i] = a[i] * b[i];  // satisfied on the domain
      }
      const HStep step = snarkjs ? HStep{log_n, ffjs, qap::odd_coset(log_n, ffjs)}
                                 : HStep{log_n, ff::Fr::zero(), qap::bellperson_coset()};
      auto ra = a, rb = b, rc = c;
      const ntt::Domain d(log_n, ntt::DomainConfig{.root_2_32 = step.root_2_32});
      qap::compute_h(ra, rb, rc, d, step.coset);
      auto h = be->compute_h(a, b, c, step);
      const size_t want_n = snarkjs ? n : n - 1;
      ASSERT_EQ(h->size(), want_n);
      // Compared through an MSM with independent points (the handle is opaque).
      auto pts = test_points<ec::G1Curve>(want_n, rng);
      auto bases = be->upload(msm::Points<ec::G1Curve>(std::span<const ec::G1Affine>(pts)));
      EXPECT_EQ(be->msm(*bases, all_of(*h)).to_affine(),
                reference_msm<ec::G1Curve>(pts, std::span<const ff::Fr>(ra).first(want_n)).to_affine());
      if (!snarkjs) {
        EXPECT_TRUE(ra[n - 1].is_zero());  // deg h <= n - 2 when satisfied
      }
    }
  }
}

TEST_P(BackendConformance, MismatchedShapesAreRefused) {
  std::mt19937_64 rng(3);
  auto pts = test_points<ec::G1Curve>(4, rng);
  auto ks = test_scalars(5, rng);
  auto bases = be->upload(msm::Points<ec::G1Curve>(std::span<const ec::G1Affine>(pts)));
  auto sc = be->load_scalars(ks);
  EXPECT_THROW(be->msm(*bases, all_of(*sc)), std::invalid_argument);            // 5 scalars, 4 points
  EXPECT_THROW(be->msm(*bases, device::Run{sc.get(), 3, 4, nullptr}), std::invalid_argument);  // past the end
  r1cs::Density d;
  d.resize(3);
  EXPECT_THROW(be->msm(*bases, device::Run{sc.get(), 0, 5, &d}), std::invalid_argument);  // density of 3 bits
}

}  // namespace cuzk::device::test
