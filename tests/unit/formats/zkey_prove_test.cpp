// formats::prove_zkey internals and the .zkey reader's options, on the snarkjs
// fixtures (tests/interop/fixtures): the H scalars against a naive Lagrange
// evaluation on snarkjs's odd coset (defined from ffjavascript's roots, not
// from our NTT domain), folding r·B1 into the C/H MSM against not folding it,
// vk_only reads, the first bad coefficient, and subgroup checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "fixtures.hpp"
#include "ec/subgroup.hpp"
#include "formats/circom.hpp"
#include "formats/snarkjs_json.hpp"
#include "formats/zkey.hpp"
#include "groth16/verifier.hpp"

using namespace cuzk;
using namespace cuzk::formats;
using ff::Fr;
using test::kCircuits;
using test::kDir;
using test::load;
using test::section_offset;

namespace {

// Evaluations f_i at x_i = w^i (i < n) -> f(x) by the barycentric formula
// f(x) = (x^n - 1)/n · Σ f_i x_i / (x - x_i); x is never a domain point here.
Fr lagrange_eval(const std::vector<Fr>& f, const Fr& w, const Fr& x) {
  size_t n = f.size();
  Fr sum = Fr::zero(), xi = Fr::one();
  for (size_t i = 0; i < n; i++) {
    sum += f[i] * xi * (x - xi).inverse();
    xi *= w;
  }
  return (x.pow_vartime(uint64_t(n)) - Fr::one()) * Fr::from_u64(n).inverse() * sum;
}

}  // namespace

TEST(ZkeyProve, HScalarsMatchNaiveEvaluationOnTheOddCoset) {
  for (auto c : kCircuits) {
    SCOPED_TRACE(c);
    Zkey zk = parse_zkey(load(std::string(c) + ".zkey"), c);
    auto w = parse_wtns(load(std::string(c) + ".wtns"), c);
    size_t n = zk.domain_size;
    unsigned log_n = 0;
    while ((size_t(1) << log_n) < n) log_n++;
    // ffjavascript: the 2^32-th root 5^t; snarkjs's ω has order n and its
    // coset shift `inc` order 2n.
    Fr inc = Fr::from_u64(5).pow_vartime(Fr::T_ODD);
    for (unsigned i = log_n + 1; i < 32; i++) inc = inc.square();
    Fr omega = inc.square();
    std::vector<Fr> a(n, Fr::zero()), b(n, Fr::zero()), cc(n);
    for (size_t i = 0; i < zk.coeffs.size(); i++) {
      const ZkeyCoef k = zk.coeffs[i];
      (k.matrix == 0 ? a : b)[k.constraint] += k.value * w[k.signal];
    }
    for (size_t i = 0; i < n; i++) cc[i] = a[i] * b[i];
    auto h = zkey_h_scalars(zk, w);
    ASSERT_EQ(h.size(), n);
    Fr x = inc;
    for (size_t j = 0; j < n; j++) {
      Fr expect = lagrange_eval(a, omega, x) * lagrange_eval(b, omega, x) - lagrange_eval(cc, omega, x);
      ASSERT_EQ(h[j], expect) << "coset point " << j;
      x *= omega;
      if (j == 40) break;  // a prefix suffices: every point goes through the same code
    }
  }
}

TEST(ZkeyProve, FoldingB1AndOverlappingStagesGiveTheSameProof) {
  for (auto c : kCircuits) {
    SCOPED_TRACE(c);
    Zkey zk = parse_zkey(load(std::string(c) + ".zkey"), c);
    auto w = parse_wtns(load(std::string(c) + ".wtns"), c);
    auto pvk = groth16::prepare_verifying_key(zk.vk);
    std::mt19937_64 rng(7);
    Fr r = Fr::random(rng), s = Fr::random(rng);
    using Fold = ZkeyProveOptions::FoldB1;
    // Each fold mode with the stages overlapping (the default) and one
    // after the other.
    groth16::Proof p[6];
    ZkeyProveTimes t[6];
    Fold modes[3] = {Fold::Never, Fold::Always, Fold::Auto};
    for (int i = 0; i < 6; i++) {
      ZkeyProveOptions o;
      o.fold_b1 = modes[i % 3];
      o.overlap_stages = i < 3;
      o.times = &t[i];
      p[i] = prove_zkey(zk, w, r, s, o);
    }
    EXPECT_FALSE(t[0].b1_merged);
    EXPECT_TRUE(t[1].b1_merged);
    EXPECT_FALSE(t[3].b1_merged);
    EXPECT_TRUE(t[4].b1_merged);
    for (int i = 1; i < 6; i++) EXPECT_EQ(p[0], p[i]) << "mode " << i;
    EXPECT_TRUE(groth16::verify_proof(pvk, p[0], zkey_public_signals(zk, w)));
  }
}

TEST(Zkey, VkOnlyReadsTheVerifyingKeyAndCannotProve) {
  auto bytes = load("many_public.zkey");
  Zkey full = parse_zkey(bytes, "full");
  ZkeyReadOptions o;
  o.vk_only = true;
  Zkey vk = parse_zkey(bytes, "vk", o);
  EXPECT_EQ(vk.vk.ic, full.vk.ic);
  EXPECT_EQ(vk.vk.alpha_g1, full.vk.alpha_g1);
  EXPECT_EQ(vk.vk.beta_g2, full.vk.beta_g2);
  EXPECT_EQ(vk.vk.gamma_g2, full.vk.gamma_g2);
  EXPECT_EQ(vk.vk.delta_g2, full.vk.delta_g2);
  EXPECT_EQ(vk.n_vars, full.n_vars);
  EXPECT_TRUE(vk.a.empty() && vk.h.empty() && vk.coeffs.empty());
  auto w = parse_wtns(load("many_public.wtns"), "w");
  std::mt19937_64 rng(1);
  EXPECT_THROW(prove_zkey(vk, w, rng), std::invalid_argument);
}

TEST(Zkey, TheLowestBadCoefficientIsReportedWithItsOffset) {
  auto good = load("chain.zkey");
  size_t coefs = section_offset(good, 4) + 4;
  auto b = good;
  uint32_t big = 0xffffffu;
  std::memcpy(&b[coefs + 9 * 44 + 8], &big, 4);  // coefficient 9: signal out of range
  std::memcpy(&b[coefs + 5 * 44 + 4], &big, 4);  // coefficient 5: constraint outside the domain
  try {
    parse_zkey(b, "co.zkey");
    FAIL() << "no error";
  } catch (const FormatError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("offset " + std::to_string(coefs + 5 * 44 + 4)), std::string::npos) << m;
    EXPECT_NE(m.find("coefficient 5: constraint"), std::string::npos) << m;
  }
  b = good;
  for (int i = 0; i < 32; i++) b[coefs + 3 * 44 + 12 + i] = 0xff;  // coefficient 3: value >= r
  try {
    parse_zkey(b, "v.zkey");
    FAIL() << "no error";
  } catch (const FormatError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("offset " + std::to_string(coefs + 3 * 44 + 12)), std::string::npos) << m;
    EXPECT_NE(m.find("coefficient 3: value is not below the field modulus"), std::string::npos) << m;
  }
}

TEST(Zkey, PointsOutsideTheSubgroupFailFullChecksOnly) {
  auto good = load("cubic.zkey");
  std::mt19937_64 rng(3);
  auto p = ec::random_curve_point<ec::G1Curve>(rng);
  ASSERT_TRUE(p.is_on_curve());
  ASSERT_FALSE(ec::is_in_subgroup_reference(p));
  auto b = good;
  size_t h = section_offset(good, 9);
  std::memcpy(&b[h + 96], p.x.v.data(), 48);  // H[1], Montgomery form as snarkjs writes it
  std::memcpy(&b[h + 96 + 48], p.y.v.data(), 48);
  try {
    parse_zkey(b, "sub.zkey");
    FAIL() << "no error";
  } catch (const FormatError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("offset " + std::to_string(h + 96)), std::string::npos) << m;
    EXPECT_NE(m.find("H[1]: G1 point is not in the prime-order subgroup"), std::string::npos) << m;
  }
  Zkey zk = parse_zkey(b, "sub.zkey", {ec::Check::SkipSubgroup});
  EXPECT_EQ(zk.h[1], p);
  // The same for a G2 point in B2.
  auto q = ec::random_curve_point<ec::G2Curve>(rng);
  ASSERT_FALSE(ec::is_in_subgroup_reference(q));
  b = good;
  size_t b2 = section_offset(good, 7);
  const ff::Fp* coords[4] = {&q.x.c0, &q.x.c1, &q.y.c0, &q.y.c1};
  for (int i = 0; i < 4; i++) std::memcpy(&b[b2 + 48 * i], coords[i]->v.data(), 48);
  try {
    parse_zkey(b, "sub2.zkey");
    FAIL() << "no error";
  } catch (const FormatError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("B2[0]: G2 point is not in the prime-order subgroup"), std::string::npos) << m;
  }
  EXPECT_NO_THROW(parse_zkey(b, "sub2.zkey", {ec::Check::SkipSubgroup}));
}

TEST(Zkey, PointSectionsAreReadInPlace) {
  const auto bytes = load("chain.zkey");
  auto owner = std::make_shared<std::vector<uint8_t>>(bytes);
  Zkey in_place = parse_zkey_in_place(owner, *owner, "in-place.zkey");
  // The views lie in the owner's bytes, at their sections (A at an offset 4
  // past 8-byte alignment in snarkjs's files is read as it is).
  EXPECT_EQ(in_place.a.data(), owner->data() + section_offset(*owner, 5));
  EXPECT_EQ(in_place.b1.data(), owner->data() + section_offset(*owner, 6));
  EXPECT_EQ(in_place.b2.data(), owner->data() + section_offset(*owner, 7));
  EXPECT_EQ(in_place.c.data(), owner->data() + section_offset(*owner, 8));
  EXPECT_EQ(in_place.h.data(), owner->data() + section_offset(*owner, 9));
  EXPECT_EQ(in_place.storage.get(), owner.get());
  // parse_zkey keeps its own copy: the caller's bytes may go.
  Zkey copied;
  {
    auto scratch = bytes;
    copied = parse_zkey(scratch, "copied.zkey");
    std::fill(scratch.begin(), scratch.end(), 0xaa);
  }
  ASSERT_EQ(copied.h.size(), in_place.h.size());
  for (size_t i = 0; i < copied.h.size(); i++) ASSERT_EQ(copied.h[i], in_place.h[i]) << "H[" << i << "]";
  for (size_t i = 0; i < copied.b2.size(); i++) ASSERT_EQ(copied.b2[i], in_place.b2[i]) << "B2[" << i << "]";
  // Every point read is valid: on its curve and in the subgroup.
  for (size_t i = 0; i < in_place.a.size(); i++) {
    const auto p = in_place.a[i];
    ASSERT_TRUE(p.is_identity() || (p.is_on_curve() && ec::is_in_subgroup_reference(p))) << "A[" << i << "]";
  }
  // The owner outlives the caller's handle.
  owner.reset();
  EXPECT_EQ(in_place.storage.use_count(), 1);
  EXPECT_EQ(in_place.c[0], copied.c[0]);
}
