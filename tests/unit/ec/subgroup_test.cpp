// Endomorphism constants, fast subgroup checks against r*P = O, cofactor
// clearing, on-curve checks.
#include <gtest/gtest.h>

#include "ec/endomorphism.hpp"
#include "ec/subgroup.hpp"
#include "unit/ec/ec_test_util.hpp"

using namespace cuzk;
using namespace cuzk::ec;
using namespace cuzk::ec::test;
using ff::Fp;
using ff::Fp2;

// ---- the hard-coded constants, re-derived from their definitions ----

TEST(Endomorphism, BetaIsTheCubeRootMatchingMinusUSquared) {
  const Fp& b = endo::g1_beta();
  EXPECT_FALSE(b.is_one());
  EXPECT_TRUE((b.square() * b).is_one());
  EXPECT_EQ(endo::g1_beta2(), b.square());
  // beta is c^((p-1)/3) for some c; it must equal one of the two values
  // obtained from the first non-cube, and act as -u^2 on G1.
  auto e3 = to_limbs<6>((p_mpz() - 1) / 3);
  Fp w;
  for (uint64_t c = 2;; c++) {
    w = Fp::from_u64(c).pow_vartime(e3);
    if (!w.is_one()) break;
  }
  EXPECT_TRUE(b == w || b == w.square());

  auto g = G1Jacobian::from_affine(G1Curve::generator());
  mpz_class u2 = u_abs_mpz() * u_abs_mpz();
  auto lambda = to_limbs<4>(r_mpz() - u2);  // -u^2 mod r
  EXPECT_EQ(sigma(g), mul_vartime(g, lambda));
  EXPECT_EQ(sigma(G1Curve::generator()), mul_vartime(g, lambda).to_affine());
  // lambda^2 + lambda + 1 = 0 mod r
  mpz_class l = r_mpz() - u2;
  EXPECT_EQ(mpz_class((l * l + l + 1) % r_mpz()), 0);
  // The other root u^2 - 1 goes with beta^2.
  G1Jacobian s2 = {g.X * endo::g1_beta2(), g.Y, g.Z};
  EXPECT_EQ(s2, mul_vartime(g, to_limbs<4>(u2 - 1)));
}

TEST(Endomorphism, PsiConstantsAndEigenvalue) {
  const Fp2 xi = {Fp::one(), Fp::one()};
  auto e3 = to_limbs<6>((p_mpz() - 1) / 3), e2 = to_limbs<6>((p_mpz() - 1) / 2);
  EXPECT_EQ(endo::g2_psi_cx(), xi.pow_vartime(e3).inverse());
  EXPECT_EQ(endo::g2_psi_cy(), xi.pow_vartime(e2).inverse());
  // psi acts as [u] = [p mod r] on G2.
  EXPECT_EQ(mpz_class(p_mpz() % r_mpz()), mpz_class(r_mpz() - u_abs_mpz()));
  auto h = G2Jacobian::from_affine(G2Curve::generator());
  EXPECT_EQ(psi(h), mul_vartime(h, to_limbs<4>(r_mpz() - u_abs_mpz())));
  EXPECT_EQ(psi(h), mul_by_u(h));
  EXPECT_EQ(psi(G2Curve::generator()), mul_by_u(G2Curve::generator()).to_affine());
}

TEST(Endomorphism, PsiIsAnEndomorphismOfTheWholeTwist) {
  std::mt19937_64 rng(21);
  for (int i = 0; i < 10; i++) {
    auto a = random_curve_point<G2Curve>(rng), b = random_curve_point<G2Curve>(rng);
    auto pa = psi(a);
    ASSERT_TRUE(pa.is_on_curve());
    auto ja = G2Jacobian::from_affine(a), jb = G2Jacobian::from_affine(b);
    ASSERT_EQ(psi(ja.add(jb)), psi(ja).add(psi(jb)));
    ASSERT_EQ(psi(ja.dbl()).to_affine(), psi(ja.dbl().to_affine())) << "Jacobian psi must match affine psi";
    ASSERT_EQ(psi(ja.dbl()), psi(ja).dbl());
    ASSERT_EQ(psi2(a), psi(psi(a)));
    ASSERT_EQ(psi2(ja.dbl()), psi(psi(ja.dbl())));
    // psi satisfies the Frobenius relation psi^2 - t psi + p = 0 on all of
    // E'(Fp2), with t = u + 1 the trace of Frobenius of E(Fp).
    auto t_psi = mul_by_u(psi(ja)).add(psi(ja));   // [t]psi(P)
    auto p_ja = mul_vartime(ja, ff::Fp::MODULUS);  // [p]P
    ASSERT_TRUE(psi2(ja).add(t_psi.neg()).add(p_ja).is_identity());
  }
}

TEST(Endomorphism, SigmaIsAnEndomorphismOfTheWholeCurve) {
  std::mt19937_64 rng(22);
  for (int i = 0; i < 10; i++) {
    auto a = random_curve_point<G1Curve>(rng), b = random_curve_point<G1Curve>(rng);
    ASSERT_TRUE(sigma(a).is_on_curve());
    auto ja = G1Jacobian::from_affine(a), jb = G1Jacobian::from_affine(b);
    ASSERT_EQ(sigma(ja.add(jb)), sigma(ja).add(sigma(jb)));
    ASSERT_EQ(sigma(ja.dbl()).to_affine(), sigma(ja.dbl().to_affine()));
    // sigma^3 = id, sigma^2 + sigma + 1 = 0 on the whole curve.
    ASSERT_EQ(sigma(sigma(sigma(a))), a);
    ASSERT_TRUE(sigma(sigma(ja)).add(sigma(ja)).add(ja).is_identity());
  }
}

TEST(Endomorphism, MulByU) {
  std::mt19937_64 rng(23);
  auto ua = arith::Limbs<1>{BLS_U_ABS};
  for (int i = 0; i < 5; i++) {
    auto p1 = random_curve_point<G1Curve>(rng);
    auto p2 = random_curve_point<G2Curve>(rng);
    auto j1 = G1Jacobian::from_affine(p1);
    auto j2 = G2Jacobian::from_affine(p2);
    ASSERT_EQ(mul_by_u_abs(p1), mul_vartime(j1, ua));
    ASSERT_EQ(mul_by_u_abs(j1.dbl()), mul_vartime(j1.dbl(), ua));
    ASSERT_EQ(mul_by_u_abs(p2), mul_vartime(j2, ua));
    ASSERT_EQ(mul_by_u(j2.dbl()), mul_vartime(j2.dbl(), ua).neg());
  }
  EXPECT_TRUE(mul_by_u_abs(G1Affine::identity()).is_identity());
  EXPECT_TRUE(mul_by_u_abs(G2Jacobian::identity()).is_identity());
}

TEST(Endomorphism, EqualsAffineJacobian) {
  std::mt19937_64 rng(24);
  auto p = test::random_subgroup_point<G1Curve>(rng);
  EXPECT_TRUE(equals(p.to_affine(), p));
  EXPECT_FALSE(equals(p.to_affine(), p.neg()));
  EXPECT_FALSE(equals(p.to_affine(), p.dbl()));
  EXPECT_FALSE(equals(G1Affine::identity(), p));
  EXPECT_FALSE(equals(p.to_affine(), G1Jacobian::identity()));
  EXPECT_TRUE(equals(G1Affine::identity(), G1Jacobian::identity()));
}

// ---- subgroup checks: fast == slow ----

template <class C>
class Subgroup : public ::testing::Test {};
using Curves = ::testing::Types<G1Curve, G2Curve>;
TYPED_TEST_SUITE(Subgroup, Curves);

TYPED_TEST(Subgroup, IdentityAndGenerator) {
  using C = TypeParam;
  EXPECT_TRUE(is_in_subgroup(Affine<C>::identity()));
  EXPECT_TRUE(is_in_subgroup(Jacobian<C>::identity()));
  EXPECT_TRUE(is_in_subgroup(C::generator()));
  EXPECT_TRUE(is_in_subgroup_reference(C::generator()));
}

TYPED_TEST(Subgroup, FastEqualsSlowOnSubgroupPoints) {
  using C = TypeParam;
  std::mt19937_64 rng(31);
  for (int i = 0; i < 25; i++) {
    auto j = random_subgroup_point<C>(rng);
    auto a = j.to_affine();
    ASSERT_TRUE(a.is_on_curve());
    ASSERT_TRUE(is_in_subgroup_reference(a)) << a;
    ASSERT_TRUE(is_in_subgroup(a)) << a;
    ASSERT_TRUE(is_in_subgroup(j)) << a;
    ASSERT_TRUE(is_in_subgroup(a.neg())) << a;
  }
}

TYPED_TEST(Subgroup, FastEqualsSlowOffSubgroup) {
  using C = TypeParam;
  std::mt19937_64 rng(32);
  auto g = Jacobian<C>::from_affine(C::generator());
  for (int i = 0; i < 25; i++) {
    auto a = random_curve_point<C>(rng);
    ASSERT_TRUE(a.is_on_curve());
    auto j = Jacobian<C>::from_affine(a);
    ASSERT_FALSE(is_in_subgroup_reference(a)) << a;
    ASSERT_FALSE(is_in_subgroup(a)) << a;
    ASSERT_FALSE(is_in_subgroup(j.dbl())) << a;
    // Pure torsion: [r]P has order dividing the cofactor, != O w.h.p.
    auto t = mul_vartime(j, ff::Fr::MODULUS);
    ASSERT_FALSE(t.is_identity());
    ASSERT_EQ(is_in_subgroup(t.to_affine()), is_in_subgroup_reference(t)) << t;
    ASSERT_FALSE(is_in_subgroup(t.to_affine())) << t;
    // Subgroup point plus torsion.
    auto m = g.add(t);
    ASSERT_FALSE(is_in_subgroup_reference(m));
    ASSERT_FALSE(is_in_subgroup(m.to_affine()));
    ASSERT_FALSE(is_in_subgroup(m));
    // Cleared cofactor lands in the subgroup.
    auto c = clear_cofactor(j);
    ASSERT_TRUE(is_in_subgroup_reference(c)) << a;
    ASSERT_TRUE(is_in_subgroup(c.to_affine())) << a;
    ASSERT_FALSE(c.is_identity());
  }
}

// Small-order points in the cofactor part: torsion of every prime order
// dividing the cofactor that we can construct cheaply.
TYPED_TEST(Subgroup, SmallTorsionPointsRejected) {
  using C = TypeParam;
  using Base = typename C::Base;
  // x = 0: y^2 = b. When b is a square the points (0, +-sqrt b) have order 3.
  if (auto y = C::b().sqrt()) {
    auto t = Affine<C>::from_xy(Base::zero(), *y);
    ASSERT_TRUE(t.is_on_curve());
    auto j = Jacobian<C>::from_affine(t);
    EXPECT_TRUE(j.dbl().add(j).is_identity()) << "order 3";
    EXPECT_FALSE(is_in_subgroup(t));
    EXPECT_FALSE(is_in_subgroup(t.neg()));
    EXPECT_FALSE(is_in_subgroup_reference(t));
  }
}

// Points of prime order q for every prime q dividing the cofactor: with m
// the exponent of the cofactor part of the group, t = [r * m / q]P is either
// O or of order exactly q.
template <class C>
void check_torsion_points(const mpz_class& m, const std::vector<mpz_class>& primes, uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (auto& q : primes) {
    ASSERT_EQ(mpz_class(m % q), 0) << q.get_str();
    int found = 0;
    for (int tries = 0; tries < 6 && found < 2; tries++) {
      auto a = Jacobian<C>::from_affine(random_curve_point<C>(rng));
      auto t = mul_vartime(a, to_limbs<12>(r_mpz() * (m / q)));
      if (t.is_identity()) continue;
      found++;
      ASSERT_TRUE(mul_vartime(t, to_limbs<12>(q)).is_identity()) << "order " << q.get_str();
      auto ta = t.to_affine();
      ASSERT_TRUE(ta.is_on_curve());
      ASSERT_FALSE(is_in_subgroup_reference(ta)) << q.get_str();
      ASSERT_FALSE(is_in_subgroup(ta)) << q.get_str();
      ASSERT_FALSE(is_in_subgroup(t)) << q.get_str();
      // and shifted by a subgroup point
      auto m = t.add(mul_vartime(Jacobian<C>::from_affine(C::generator()), ff::Fr::random(rng)));
      ASSERT_FALSE(is_in_subgroup(m.to_affine())) << q.get_str();
    }
    EXPECT_GT(found, 0) << "no point of order " << q.get_str();
  }
}

TEST(Subgroup, G1TorsionOfEachCofactorPrime) {
  mpz_class h1 = (u_abs_mpz() + 1) * (u_abs_mpz() + 1) / 3;  // (u - 1)^2 / 3
  std::vector<mpz_class> q = {3, 11, 10177, 859267, 52437899};
  EXPECT_EQ(h1, mpz_class(3) * 11 * 11 * 10177 * 10177 * 859267 * 859267 * mpz_class(52437899) * 52437899);
  // E(Fp) = Z_{|u-1|/3} + Z_{|u-1| r}: the cofactor part has exponent |u - 1|.
  EXPECT_EQ(u_abs_mpz() + 1, mpz_class(3) * 11 * 10177 * 859267 * mpz_class(52437899));
  check_torsion_points<G1Curve>(u_abs_mpz() + 1, q, 37);
}

TEST(Subgroup, G2TorsionOfEachCofactorPrime) {
  // h2 = (u^8 - 4u^7 + 5u^6 - 4u^4 + 6u^3 - 4u^2 - 4u + 13) / 9
  mpz_class u = -u_abs_mpz();
  mpz_class u2 = u * u, u3 = u2 * u, u4 = u2 * u2;
  mpz_class h2 = (u4 * u4 - 4 * u4 * u3 + 5 * u4 * u2 - 4 * u4 + 6 * u3 - 4 * u2 - 4 * u + 13) / 9;
  EXPECT_EQ(h2, mpz_class("0x5d543a95414e7f1091d50792876a202cd91de4547085abaa68a205b2e5a7ddfa628f1cb4d9e82ef2"
                          "1537e293a6691ae1616ec6e786f0c70cf1c38e31c7238e5"));
  mpz_class big = h2 / (mpz_class(13 * 13 * 23 * 23) * 2713 * 11953 * 262069);
  EXPECT_EQ(mpz_class(13 * 13 * 23 * 23) * 2713 * 11953 * 262069 * big, h2);
  EXPECT_NE(mpz_probab_prime_p(big.get_mpz_t(), 30), 0);
  std::vector<mpz_class> q = {13, 23, 2713, 11953, 262069, big};
  // 13 and 23 appear squared; the exponent of the cofactor part takes them once.
  check_torsion_points<G2Curve>(h2 / (13 * 23), q, 38);
}

TEST(Subgroup, G1CofactorClearingIsOneMinusU) {
  std::mt19937_64 rng(34);
  auto h_eff = to_limbs<2>(u_abs_mpz() + 1);  // 1 - u
  for (int i = 0; i < 5; i++) {
    auto a = G1Jacobian::from_affine(random_curve_point<G1Curve>(rng));
    ASSERT_EQ(clear_cofactor(a), mul_vartime(a, h_eff));
  }
}

TEST(Subgroup, G2CofactorClearingMatchesRfc9380Heff) {
  // h_eff for BLS12-381 G2 from RFC 9380, section 8.8.2.
  mpz_class h_eff(
      "0xbc69f08f2ee75b3584c6a0ea91b352888e2a8e9145ad7689986ff031508ffe1329c2f178731db956d82bf015d1212b02ec0e"
      "c69d"
      "7477c1ae954cbc06689f6a359894c0adebbf6b4e8020005aaa95551");
  std::mt19937_64 rng(35);
  for (int i = 0; i < 3; i++) {
    auto a = G2Jacobian::from_affine(random_curve_point<G2Curve>(rng));
    auto c = clear_cofactor(a);
    ASSERT_EQ(c, mul_vartime(a, to_limbs<10>(h_eff)));
    ASSERT_EQ(clear_cofactor(a.to_affine()), c.to_affine());
  }
}

TYPED_TEST(Subgroup, OnCurveChecks) {
  using C = TypeParam;
  using Base = typename C::Base;
  std::mt19937_64 rng(36);
  EXPECT_TRUE(Affine<C>::identity().is_on_curve());
  for (int i = 0; i < 10; i++) {
    auto a = random_curve_point<C>(rng);
    ASSERT_TRUE(a.is_on_curve());
    ASSERT_TRUE(a.neg().is_on_curve());
    auto bad = Affine<C>::from_xy(a.x, a.y + Base::one());
    ASSERT_FALSE(bad.is_on_curve());
    auto bad2 = Affine<C>::from_xy(a.x + Base::one(), a.y);
    // x+1 may be on the curve only with y^2 coinciding: probability ~0.
    ASSERT_FALSE(bad2.is_on_curve());
  }
  // point_from_x picks the requested root.
  for (int i = 0; i < 10; i++) {
    auto x = Base::random(rng);
    auto hi = point_from_x<C>(x, true), lo = point_from_x<C>(x, false);
    ASSERT_EQ(hi.has_value(), lo.has_value());
    if (!hi) continue;
    ASSERT_TRUE(hi->y.is_lexicographically_largest());
    ASSERT_FALSE(lo->y.is_lexicographically_largest());
    ASSERT_EQ(hi->neg(), *lo);
  }
}
