// The optimal ate pairing: bilinearity, non-degeneracy, order, identities,
// multi-pairing, prepared G2 points, the final exponentiation against a
// GMP-computed exponent, and the known value e(G1, G2).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "pairing/pairing.hpp"
#include "support/gmp_oracle.hpp"

using namespace cuzk::pairing;
namespace ec = cuzk::ec;
namespace ff = cuzk::ff;
namespace test = cuzk::test;
using ec::G1Affine;
using ec::G2Affine;
using ff::Fp;
using ff::Fr;

namespace {

G1Affine g1_mul(const Fr& k) {
  return ec::mul_vartime(ec::G1Jacobian::from_affine(ec::G1Curve::generator()), k).to_affine();
}
G2Affine g2_mul(const Fr& k) {
  return ec::mul_vartime(ec::G2Jacobian::from_affine(ec::G2Curve::generator()), k).to_affine();
}
G1Affine g1() { return ec::G1Curve::generator(); }
G2Affine g2() { return ec::G2Curve::generator(); }

TEST(Pairing, NonDegenerateAndOrderR) {
  Gt e = pairing(g1(), g2());
  EXPECT_FALSE(e.is_one());
  EXPECT_FALSE(e.is_zero());
  EXPECT_TRUE(e.pow_vartime(Fr::MODULUS).is_one());
  // Unitary (in the cyclotomic subgroup).
  EXPECT_TRUE((e * e.conjugate()).is_one());
}

TEST(Pairing, KnownAnswerGeneratorPair) {
  // e(G1, G2) as published by zkcrypto/bls12_381 (Gt::generator(), src/pairings.rs),
  // given there as Montgomery limbs with R = 2^384, which is also our R.
  auto m = [](std::array<uint64_t, 6> l) { return Fp::from_mont(l); };
  Gt expected{ff::Fp6{{m({0x1972e433a01f85c5, 0x97d32b76fd772538, 0xc8ce546fc96bcdf9, 0xcef63e7366d40614,
                          0xa611342781843780, 0x13f3448a3fc6d825}),
                       m({0xd26331b02e9d6995, 0x9d68a482f7797e7d, 0x9c9b29248d39ea92, 0xf4801ca2e13107aa,
                          0xa16c0732bdbcb066, 0x083ca4afba360478})},
                      {m({0x59e261db0916b641, 0x2716b6f4b23e960d, 0xc8e55b10a0bd9c45, 0x0bdb0bd99c4deda8,
                          0x8cf89ebf57fdaac5, 0x12d6b7929e777a5e}),
                       m({0x5fc85188b0e15f35, 0x34a06e3a8f096365, 0xdb3126a6e02ad62c, 0xfc6f5aa97d9a990b,
                          0xa12f55f5eb89c210, 0x1723703a926f8889})},
                      {m({0x93588f2971828778, 0x43f65b8611ab7585, 0x3183aaf5ec279fdf, 0xfa73d7e18ac99df6,
                          0x64e176a6a64c99b0, 0x179fa78c58388f1f}),
                       m({0x672a0a11ca2aef12, 0x0d11b9b52aa3f16b, 0xa44412d0699d056e, 0xc01d0177221a5ba5,
                          0x66e0cede6c735529, 0x05f5a71e9fddc339})}},
              ff::Fp6{{m({0xd30a88a1b062c679, 0x5ac56a5d35fc8304, 0xd0c834a6a81f290d, 0xcd5430c2da3707c7,
                          0xf0c27ff780500af0, 0x09245da6e2d72eae}),
                       m({0x9f2e0676791b5156, 0xe2d1c8234918fe13, 0x4c9e459f3c561bf4, 0xa3e85e53b9d3e3c1,
                          0x820a121e21a70020, 0x15af618341c59acc})},
                      {m({0x7c95658c24993ab1, 0x73eb38721ca886b9, 0x5256d749477434bc, 0x8ba41902ea504a8b,
                          0x04a3d3f80c86ce6d, 0x18a64a87fb686eaa}),
                       m({0xbb83e71bb920cf26, 0x2a5277ac92a73945, 0xfc0ee59f94f046a0, 0x7158cdf3786058f7,
                          0x7cc1061b82f945f6, 0x03f847aa9fdbe567})},
                      {m({0x8078dba56134e657, 0x1cd7ec9a43998a6e, 0xb1aa599a1a993766, 0xc9a0f62f0842ee44,
                          0x8e159be3b605dffa, 0x0c86ba0d4af13fc2}),
                       m({0xe80ff2a06a52ffb1, 0x7694ca48721a906c, 0x7583183e03b08514, 0xf567afdd40cee4e2,
                          0x9a6d96d2e526a5fc, 0x197e9f49861f2242})}}};
  EXPECT_EQ(pairing(g1(), g2()), expected);
}

TEST(Pairing, FinalExponentiationMatchesPlainPower) {
  // final_exponentiation(f) = f^(3 (p^12 - 1)/r), exponent computed with GMP.
  mpz_class p = test::modulus<Fp>(), r = test::modulus<Fr>();
  mpz_class p12 = p * p;
  p12 = p12 * p12 * p12;
  p12 = p12 * p12;
  ASSERT_EQ((p12 - 1) % r, 0);
  mpz_class e = 3 * ((p12 - 1) / r);
  // The decomposition used by the hard part.
  mpz_class x = -mpz_class("0xd201000000010000");
  mpz_class p2 = p * p, p4 = p2 * p2;
  ASSERT_EQ((p4 - p2 + 1) % r, 0);
  ASSERT_EQ(3 * ((p4 - p2 + 1) / r), (x - 1) * (x - 1) * (x + p) * (x * x + p2 - 1) + 3);
  std::mt19937_64 rng(201);
  for (int i = 0; i < 2; i++) {
    Gt f = Gt::random(rng);
    ASSERT_EQ(final_exponentiation(f), f.pow_vartime(test::from_mpz<72>(e)));
  }
  // Also on a real Miller loop output.
  Gt f = miller_loop(g1(), g2());
  EXPECT_EQ(final_exponentiation(f), f.pow_vartime(test::from_mpz<72>(e)));
}

TEST(Pairing, Bilinearity) {
  std::mt19937_64 rng(202);
  G1Affine P = g1_mul(Fr::random(rng));
  G2Affine Q = g2_mul(Fr::random(rng));
  Gt e = pairing(P, Q);
  for (int i = 0; i < 4; i++) {
    Fr a = Fr::random(rng), b = Fr::random(rng);
    G1Affine aP = ec::mul_vartime(ec::G1Jacobian::from_affine(P), a).to_affine();
    G2Affine bQ = ec::mul_vartime(ec::G2Jacobian::from_affine(Q), b).to_affine();
    G2Affine aQ = ec::mul_vartime(ec::G2Jacobian::from_affine(Q), a).to_affine();
    ASSERT_EQ(pairing(aP, bQ), gt_pow_vartime(e, a * b));
    ASSERT_EQ(pairing(aP, Q), pairing(P, aQ));
    ASSERT_EQ(pairing(aP, Q), gt_pow_vartime(e, a));
  }
  // Additivity in each argument: e(P1 + P2, Q) = e(P1, Q) e(P2, Q).
  G1Affine P2 = g1_mul(Fr::random(rng));
  G1Affine sum = ec::G1Jacobian::from_affine(P).add_mixed(P2).to_affine();
  EXPECT_EQ(pairing(sum, Q), pairing(P, Q) * pairing(P2, Q));
  G2Affine Q2 = g2_mul(Fr::random(rng));
  G2Affine sum2 = ec::G2Jacobian::from_affine(Q).add_mixed(Q2).to_affine();
  EXPECT_EQ(pairing(P, sum2), pairing(P, Q) * pairing(P, Q2));
}

TEST(Pairing, GtPowMatchesPlainPow) {
  std::mt19937_64 rng(203);
  Gt e = pairing(g1(), g2());
  Fr k = Fr::random(rng);
  EXPECT_EQ(gt_pow_vartime(e, k), e.pow_vartime(k.to_canonical()));
  EXPECT_TRUE(gt_pow_vartime(e, Fr::zero()).is_one());
}

TEST(Pairing, IdentityArguments) {
  std::mt19937_64 rng(204);
  G1Affine P = g1_mul(Fr::random(rng));
  G2Affine Q = g2_mul(Fr::random(rng));
  EXPECT_TRUE(pairing(P, G2Affine::identity()).is_one());
  EXPECT_TRUE(pairing(G1Affine::identity(), Q).is_one());
  EXPECT_TRUE(pairing(G1Affine::identity(), G2Affine::identity()).is_one());
  EXPECT_TRUE(multi_pairing(std::span<const std::pair<G1Affine, G2Affine>>{}).is_one());
  PreparedG2 none(G2Affine::identity());
  EXPECT_TRUE(none.is_identity());
  EXPECT_TRUE(final_exponentiation(miller_loop(P, none)).is_one());
}

TEST(Pairing, NegationCancelsInMultiPairing) {
  std::mt19937_64 rng(205);
  for (int i = 0; i < 3; i++) {
    G1Affine P = g1_mul(Fr::random(rng));
    G2Affine Q = g2_mul(Fr::random(rng));
    std::vector<std::pair<G1Affine, G2Affine>> v = {{P, Q}, {P.neg(), Q}};
    ASSERT_TRUE(multi_pairing(v).is_one());
    v = {{P, Q}, {P, Q.neg()}};
    ASSERT_TRUE(multi_pairing(v).is_one());
    ASSERT_FALSE(multi_pairing(std::span(v.data(), 1)).is_one());
  }
}

TEST(Pairing, MultiPairingEqualsProduct) {
  std::mt19937_64 rng(206);
  for (size_t n : {1u, 2u, 3u, 5u}) {
    std::vector<std::pair<G1Affine, G2Affine>> v;
    Gt prod = Gt::one();
    for (size_t i = 0; i < n; i++) {
      v.push_back({g1_mul(Fr::random(rng)), g2_mul(Fr::random(rng))});
      prod *= pairing(v.back().first, v.back().second);
    }
    ASSERT_EQ(multi_pairing(v), prod) << "n=" << n;
    // An identity pair in the middle changes nothing.
    v.insert(v.begin() + 1, {G1Affine::identity(), g2()});
    v.push_back({g1(), G2Affine::identity()});
    ASSERT_EQ(multi_pairing(v), prod) << "n=" << n;
  }
}

TEST(Pairing, PreparedMatchesUnprepared) {
  std::mt19937_64 rng(207);
  G1Affine P = g1_mul(Fr::random(rng)), P2 = g1_mul(Fr::random(rng));
  G2Affine Q = g2_mul(Fr::random(rng)), Q2 = g2_mul(Fr::random(rng));
  PreparedG2 pq(Q), pq2(Q2);
  EXPECT_EQ(pq.lines.size(), prepared_line_count());
  EXPECT_EQ(prepared_line_count(), 68u);  // 63 doublings + 5 additions
  EXPECT_EQ(miller_loop(P, pq), miller_loop(P, Q));
  EXPECT_EQ(final_exponentiation(miller_loop(P, pq)), pairing(P, Q));
  // Mixed: one unprepared pair and two prepared ones.
  std::vector<std::pair<G1Affine, G2Affine>> un = {{P, Q}};
  std::vector<std::pair<G1Affine, const PreparedG2*>> pre = {{P2, &pq}, {P, &pq2}};
  EXPECT_EQ(multi_pairing(un, pre), pairing(P, Q) * pairing(P2, Q) * pairing(P, Q2));
  EXPECT_EQ(multi_pairing(pre), pairing(P2, Q) * pairing(P, Q2));
}

TEST(Pairing, Groth16ShapedCheck) {
  // e(A, B) = e(alpha, beta) e(IC, gamma) e(C, delta) with
  // A = a G1, B = b G2, alpha = s G1, beta = t G2, gamma = g G2, delta = d G2,
  // IC = i G1 and C chosen so that ab = st + ig + c d.
  std::mt19937_64 rng(208);
  Fr a = Fr::random(rng), b = Fr::random(rng), s = Fr::random(rng), t = Fr::random(rng);
  Fr g = Fr::random(rng), d = Fr::random(rng), i = Fr::random(rng);
  Fr c = (a * b - s * t - i * g) * d.inverse();
  G2Affine gamma = g2_mul(g), delta = g2_mul(d);
  PreparedG2 neg_gamma(gamma.neg()), neg_delta(delta.neg());
  Gt alpha_beta = pairing(g1_mul(s), g2_mul(t));
  std::vector<std::pair<G1Affine, G2Affine>> un = {{g1_mul(a), g2_mul(b)}};
  std::vector<std::pair<G1Affine, const PreparedG2*>> pre = {{g1_mul(i), &neg_gamma},
                                                             {g1_mul(c), &neg_delta}};
  EXPECT_EQ(multi_pairing(un, pre), alpha_beta);
  // A wrong C fails.
  pre[1].first = g1_mul(c + Fr::one());
  EXPECT_NE(multi_pairing(un, pre), alpha_beta);
}

}  // namespace
