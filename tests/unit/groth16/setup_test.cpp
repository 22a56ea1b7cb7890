// Development setup, checked against the toxic waste directly.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <random>

#include "groth16/domain.hpp"
#include "groth16/fixed_base.hpp"
#include "groth16/setup.hpp"
#include "r1cs/shape.hpp"
#include "unit/r1cs/test_circuits.hpp"

using namespace cuzk;
using namespace cuzk::groth16;
using cuzk::test::CubicCircuit;

namespace {

G1Affine g1_times(const Fr& k) {
  return ec::mul_vartime(ec::G1Jacobian::from_affine(ec::G1Curve::generator()), k).to_affine();
}
G2Affine g2_times(const Fr& k) {
  return ec::mul_vartime(ec::G2Jacobian::from_affine(ec::G2Curve::generator()), k).to_affine();
}

}  // namespace

TEST(Domain, RootOfUnity) {
  // docs/FILECOIN.md §1.5: ROOT_OF_UNITY = 7^((r-1)/2^32).
  EXPECT_EQ(domain_root_of_unity(32).to_hex(),
            "0x16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b");
  for (unsigned k : {1u, 5u, 20u}) {
    Fr w = domain_root_of_unity(k);
    EXPECT_TRUE(w.pow_vartime(uint64_t(1) << k).is_one());
    EXPECT_FALSE(w.pow_vartime(uint64_t(1) << (k - 1)).is_one());
  }
  EXPECT_EQ(domain_log_size(1), 0u);
  EXPECT_EQ(domain_log_size(5), 3u);
  EXPECT_EQ(domain_log_size(8), 3u);
}

TEST(Setup, QueriesMatchToxicWaste) {
  std::mt19937_64 rng(1);
  auto tw = ToxicWaste::random(rng);
  CubicCircuit c;
  std::vector<std::string> stages;
  SetupOptions opts;
  opts.threads = 2;
  opts.progress = [&](std::string_view st, size_t done, size_t total) {
    if (done == total) stages.emplace_back(st);
  };
  Parameters p = generate_parameters(c, tw, opts);
  // 3 constraints + 2 input constraints -> m = 8.
  ASSERT_EQ(p.h.size(), 7u);
  ASSERT_EQ(p.l.size(), 3u);
  ASSERT_EQ(p.vk.ic.size(), 2u);
  ASSERT_EQ(p.a.size(), 2u + 3u);  // inputs + {x, x2, x3}
  ASSERT_EQ(p.b_g1.size(), 2u);    // ONE and x
  ASSERT_EQ(p.b_g2.size(), 2u);
  EXPECT_EQ(p.vk.alpha_g1, g1_times(tw.alpha));
  EXPECT_EQ(p.vk.beta_g1, g1_times(tw.beta));
  EXPECT_EQ(p.vk.beta_g2, g2_times(tw.beta));
  EXPECT_EQ(p.vk.gamma_g2, g2_times(tw.gamma));
  EXPECT_EQ(p.vk.delta_g1, g1_times(tw.delta));
  EXPECT_EQ(p.vk.delta_g2, g2_times(tw.delta));
  const Fr z = tw.tau.pow_vartime(uint64_t(8)) - Fr::one();
  EXPECT_EQ(p.h[0], g1_times(z * tw.delta.inverse()));
  EXPECT_EQ(p.h[6], g1_times(tw.tau.pow_vartime(uint64_t(6)) * z * tw.delta.inverse()));

  // A-query of aux x (column 2): x occurs in A of rows 0 and 2 with
  // coefficient 1. Lagrange polynomials by their product formula.
  const Fr w = domain_root_of_unity(3);
  auto lag = [&](size_t i) {
    Fr num = Fr::one(), den = Fr::one();
    for (size_t k = 0; k < 8; k++) {
      if (k == i) continue;
      num *= tw.tau - w.pow_vartime(uint64_t(k));
      den *= w.pow_vartime(uint64_t(i)) - w.pow_vartime(uint64_t(k));
    }
    return num * den.inverse();
  };
  EXPECT_EQ(p.a[2], g1_times(lag(0) + lag(2)));
  // B-query of x: rows 0 and 1.
  EXPECT_EQ(p.b_g2[1], g2_times(lag(0) + lag(1)));
  // IC of input y (only in C of row 2, and in A of its input constraint, row 4).
  EXPECT_EQ(p.vk.ic[1], g1_times((tw.beta * lag(4) + lag(2)) * tw.gamma.inverse()));
  for (const char* st : {"h", "l", "a", "b_g1", "b_g2", "ic"})
    EXPECT_NE(std::find(stages.begin(), stages.end(), st), stages.end()) << st;
}

TEST(Setup, RejectsUnconstrainedVariable) {
  struct Loose : r1cs::Circuit {
    void synthesize(r1cs::ConstraintSystem& cs) const override {
      auto a = cs.alloc("a", [] { return Fr::one(); });
      cs.alloc("unused", [] { return Fr::one(); });
      cs.enforce("a", a, cs.one(), a);
    }
  };
  std::mt19937_64 rng(2);
  EXPECT_THROW(generate_parameters(Loose(), ToxicWaste::random(rng)), r1cs::SynthesisError);
}

// Every window size the setup picks, against plain scalar multiplication, on
// random scalars and the edge digits (0, 1, r - 1, all-ones windows).
TEST(FixedBase, EveryWindowMatchesScalarMultiplication) {
  std::mt19937_64 rng(99);
  std::vector<Fr> ks = {Fr::zero(), Fr::one(), -Fr::one(), Fr::from_u64(0xffff), Fr::from_u64(0x10000)};
  for (int i = 0; i < 12; i++) ks.push_back(Fr::random(rng));
  for (size_t count : {size_t(100), size_t(1) << 16, size_t(1) << 18, size_t(1) << 20}) {
    const unsigned w = fixed_base_window(count);
    FixedBaseTable<ec::G1Curve> t1(ec::G1Curve::generator(), w);
    for (const Fr& k : ks) EXPECT_EQ(t1.mul(k).to_affine(), g1_times(k)) << "G1, window " << w;
    // The batched (affine) path, one chunk of scalars and its accumulators.
    std::vector<G1Affine> b1(ks.size());
    fixed_base_mul_batch<ec::G1Curve>(t1, ks, b1, {});
    for (size_t i = 0; i < ks.size(); i++) EXPECT_EQ(b1[i], g1_times(ks[i])) << "G1 batch, window " << w;
    if (w > 12) continue;  // the 2^16-entry G2 table adds seconds and no new code path
    FixedBaseTable<ec::G2Curve> t2(ec::G2Curve::generator(), w);
    for (const Fr& k : ks) EXPECT_EQ(t2.mul(k).to_affine(), g2_times(k)) << "G2, window " << w;
    std::vector<ec::G2Affine> b2(ks.size());
    fixed_base_mul_batch<ec::G2Curve>(t2, ks, b2, {});
    for (size_t i = 0; i < ks.size(); i++) EXPECT_EQ(b2[i], g2_times(ks[i])) << "G2 batch, window " << w;
  }
  EXPECT_EQ(fixed_base_window(100), 4u);
  EXPECT_EQ(fixed_base_window(size_t(1) << 20), 16u);
}

// Many chunks in parallel, with zeros and repeated scalars among them: every
// point against the one-at-a-time Jacobian path.
TEST(FixedBase, BatchedChunksMatchThePointwisePath) {
  std::mt19937_64 rng(7);
  std::vector<Fr> ks(3000);
  for (size_t i = 0; i < ks.size(); i++)
    ks[i] = i % 7 == 0 ? Fr::zero() : i % 11 == 0 ? ks[i - 1] : Fr::random(rng);
  FixedBaseTable<ec::G1Curve> t(ec::G1Curve::generator(), 8);
  std::vector<G1Affine> out(ks.size());
  std::atomic<size_t> ticked{0};  // chunks end on several threads
  fixed_base_mul_batch<ec::G1Curve>(t, ks, out, [&](size_t n) { ticked += n; });
  EXPECT_EQ(ticked, ks.size());
  for (size_t i = 0; i < ks.size(); i++) ASSERT_EQ(out[i], t.mul(ks[i]).to_affine()) << i;
  EXPECT_TRUE(out[0].is_identity());
}
