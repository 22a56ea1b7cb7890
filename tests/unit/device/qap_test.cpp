// device::qap (the QAP step both provers share) on random inputs:
//  - against O(n²) evaluations that use no NTT: interpolation by the plain
//    inverse DFT on the domain's roots (7^t squared down), Horner evaluation on the
//    coset, schoolbook polynomial division by X^n − 1; for both conventions
//    (bellperson's g = 7 / coefficients, snarkjs's odd coset / values) and
//    the two crossed ones;
//  - bit for bit against the formulas the two provers used before they
//    shared it (the NTT pipelines copied here), on NTT sizes that block and
//    thread.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include <tbb/parallel_invoke.h>

#include "device/qap.hpp"
#include "ntt/ntt.hpp"

using namespace cuzk;
using namespace cuzk::device;
using ff::Fr;
using Output = qap::Coset::Output;

namespace {

std::vector<Fr> random_vec(size_t n, std::mt19937_64& rng) {
  std::vector<Fr> v(n);
  for (auto& x : v) x = Fr::random(rng);
  return v;
}

// Coefficients of the polynomial of degree < n with the values ev at ω^i.
std::vector<Fr> interpolate(const std::vector<Fr>& ev, const Fr& omega) {
  const size_t n = ev.size();
  const Fr omega_inv = omega.inverse(), n_inv = Fr::from_u64(n).inverse();
  std::vector<Fr> co(n);
  Fr wk = Fr::one();  // ω^-k
  for (size_t k = 0; k < n; k++, wk *= omega_inv) {
    Fr acc = Fr::zero(), w = Fr::one();
    for (size_t i = 0; i < n; i++, w *= wk) acc += ev[i] * w;
    co[k] = acc * n_inv;
  }
  return co;
}

Fr horner(const std::vector<Fr>& co, const Fr& x) {
  Fr acc = Fr::zero();
  for (size_t k = co.size(); k-- > 0;) acc = acc * x + co[k];
  return acc;
}

// Primitive 2^log_n-th root of unity: 7^t (t = (r-1)/2^32) squared 32 - log_n times.
Fr domain_root_of_unity(unsigned log_n) {
  Fr w = Fr::from_u64(7).pow_vartime(Fr::T_ODD);
  for (unsigned i = log_n; i < Fr::S; i++) w = w.square();
  return w;
}

// snarkjs's odd-coset shift, from ffjavascript's 2^32-th root 5^t.
Fr snarkjs_root() { return Fr::from_u64(5).pow_vartime(Fr::T_ODD); }

// The conventions under test at 2^log_n: bellperson's, snarkjs's, and each
// shift with the other output.
std::vector<qap::Coset> conventions(unsigned log_n) {
  const qap::Coset bp = qap::bellperson_coset(), odd = qap::odd_coset(log_n, snarkjs_root());
  return {bp, odd, {bp.shift, Output::coset_values}, {odd.shift, Output::h_coefficients}};
}

}  // namespace

TEST(Qap, CosetShifts) {
  EXPECT_EQ(qap::bellperson_coset().shift, Fr::from_u64(7));
  EXPECT_EQ(qap::bellperson_coset().output, Output::h_coefficients);
  for (unsigned log_n : {0u, 1u, 5u, 16u, 31u}) {
    const qap::Coset c = qap::odd_coset(log_n, snarkjs_root());
    EXPECT_EQ(c.output, Output::coset_values);
    // inc has order exactly 2n: inc^n = −1, so the coset is {x : x^n = −1}.
    EXPECT_EQ(c.shift.pow_vartime(uint64_t(1) << log_n), -Fr::one()) << log_n;
  }
  EXPECT_THROW(qap::odd_coset(32, snarkjs_root()), std::invalid_argument);
}

TEST(Qap, MatchesNaiveEvaluationOnBothCosets) {
  std::mt19937_64 rng(181);
  for (unsigned log_n : {0u, 1u, 2u, 3u, 6u}) {
    const size_t n = size_t(1) << log_n;
    const Fr omega = domain_root_of_unity(log_n);
    const ntt::Domain d(log_n);
    for (const qap::Coset& cs : conventions(log_n)) {
      // Satisfied (c = a∘b on the domain, as a prover sees it) and not.
      for (bool satisfied : {true, false}) {
        SCOPED_TRACE(testing::Message()
                     << "n=" << n << " output=" << int(cs.output) << " satisfied=" << satisfied);
        auto a = random_vec(n, rng), b = random_vec(n, rng), c = random_vec(n, rng);
        if (satisfied)
          for (size_t i = 0; i < n; i++) c[i] = a[i] * b[i];
        const auto pa = interpolate(a, omega), pb = interpolate(b, omega), pc = interpolate(c, omega);
        qap::compute_h(a, b, c, d, cs);
        const Fr z = cs.shift.pow_vartime(uint64_t(n)) - Fr::one();
        // Values at shift·ω^i; for coefficients, the polynomial of degree < n
        // through (a·b − c)/Z there (n points determine it).
        Fr x = cs.shift;
        for (size_t i = 0; i < n; i++, x *= omega) {
          Fr p = horner(pa, x) * horner(pb, x) - horner(pc, x);
          if (cs.output == Output::coset_values) ASSERT_EQ(a[i], p) << "point " << i;
          else ASSERT_EQ(horner(a, x), p * z.inverse()) << "point " << i;
        }
        if (cs.output == Output::h_coefficients && satisfied) {
          // Then h is the exact quotient (a·b − c)/(X^n − 1), degree <= n − 2.
          std::vector<Fr> p(2 * n - 1, Fr::zero());
          for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++) p[i + j] += pa[i] * pb[j];
          for (size_t i = 0; i < n; i++) p[i] -= pc[i];
          std::vector<Fr> q(n, Fr::zero());
          for (size_t k = p.size(); k-- > n;) {
            q[k - n] = p[k];
            p[k - n] += p[k];
          }
          for (size_t k = 0; k < n; k++) ASSERT_TRUE(p[k].is_zero()) << "remainder " << k;
          for (size_t k = 0; k < n; k++) ASSERT_EQ(a[k], q[k]) << "coefficient " << k;
          EXPECT_TRUE(a[n - 1].is_zero());
        }
      }
    }
  }
}

// The two provers' H steps as they were before device::qap (prover.cpp's
// compute_h and zkey_prove.cpp's zkey_h_scalars, NTT part), on the same inputs.
TEST(Qap, BitIdenticalToThePreviousProverFormulas) {
  std::mt19937_64 rng(182);
  for (unsigned log_n : {4u, 12u, 15u}) {
    SCOPED_TRACE(log_n);
    const size_t n = size_t(1) << log_n;
    const ntt::Domain d(log_n);
    const auto a0 = random_vec(n, rng), b0 = random_vec(n, rng), c0 = random_vec(n, rng);
    auto pointwise = [&](std::vector<Fr>& a, const std::vector<Fr>& b, const std::vector<Fr>& c) {
      for (size_t i = 0; i < n; i++) a[i] = a[i] * b[i] - c[i];
    };
    using ntt::Direction;

    // bellperson: three to-coset transforms in parallel, g = 7, back with 1/(m·Z).
    std::vector<Fr> a = a0, b = b0, c = c0;
    auto to_coset7 = [&](std::vector<Fr>& v) {
      ntt::ntt_nr(v, d, Direction::inverse);
      ntt::scale_bitrev_powers(v, d.size_inv(), d.coset_generator());
      ntt::ntt_rn(v, d, Direction::forward);
    };
    tbb::parallel_invoke([&] { to_coset7(a); }, [&] { to_coset7(b); }, [&] { to_coset7(c); });
    pointwise(a, b, c);
    ntt::ntt_nr(a, d, Direction::inverse);
    ntt::scale_bitrev_powers(a, d.size_inv() * d.vanishing_on_coset().inverse(), d.coset_generator_inv());
    ntt::bit_reverse(a);
    const std::vector<Fr> bellperson_h = a;

    // snarkjs: the odd coset inc·ω^i, values.
    Fr inc = snarkjs_root();
    for (unsigned i = log_n + 1; i < Fr::S; i++) inc = inc.square();
    a = a0, b = b0, c = c0;
    for (std::vector<Fr>* v : {&a, &b, &c}) {
      ntt::ntt_nr(*v, d, Direction::inverse);
      ntt::scale_bitrev_powers(*v, d.size_inv(), inc);
      ntt::ntt_rn(*v, d, Direction::forward);
    }
    pointwise(a, b, c);
    const std::vector<Fr> snarkjs_h = a;

    for (unsigned threads : {0u, 1u}) {
      qap::Options o;
      o.ntt.threads = threads;
      qap::Times t;
      o.times = &t;
      a = a0, b = b0, c = c0;
      qap::compute_h(a, b, c, d, qap::bellperson_coset(), o);
      EXPECT_EQ(a, bellperson_h) << "threads " << threads;
      EXPECT_GT(t.from_coset, 0.0);
      a = a0, b = b0, c = c0;
      qap::compute_h(a, b, c, d, qap::odd_coset(log_n, snarkjs_root()), o);
      EXPECT_EQ(a, snarkjs_h) << "threads " << threads;
    }
  }
}

TEST(Qap, RejectsWrongSizesAndDomainShifts) {
  const ntt::Domain d(3);
  std::vector<Fr> a(8), b(8), c(7);
  EXPECT_THROW(qap::compute_h(a, b, c, d, qap::bellperson_coset()), std::invalid_argument);
  c.resize(8);
  // A shift inside <ω> makes Z zero on the "coset" (it is the domain).
  for (const Fr& s : {Fr::one(), d.omega()})
    for (Output out : {Output::h_coefficients, Output::coset_values})
      EXPECT_THROW(qap::compute_h(a, b, c, d, {s, out}), std::invalid_argument);
}
