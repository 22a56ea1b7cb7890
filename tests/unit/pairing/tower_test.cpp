// Field laws of the Fp6 / Fp12 tower, Frobenius maps against plain
// exponentiation (GMP computes p^k), sparse products against dense ones,
// and cyclotomic squaring against ordinary squaring.
#include <gtest/gtest.h>

#include <random>

#include "ff/fp12.hpp"
#include "support/gmp_oracle.hpp"

using namespace cuzk;
using ff::Fp;
using ff::Fp12;
using ff::Fp2;
using ff::Fp6;

namespace {

template <class F>
class TowerLaws : public ::testing::Test {};
using TowerFields = ::testing::Types<Fp6, Fp12>;
TYPED_TEST_SUITE(TowerLaws, TowerFields);

TYPED_TEST(TowerLaws, RingAxioms) {
  using F = TypeParam;
  std::mt19937_64 rng(101);
  for (int i = 0; i < 50; i++) {
    F a = F::random(rng), b = F::random(rng), c = F::random(rng);
    ASSERT_EQ(a * b, b * a);
    ASSERT_EQ((a * b) * c, a * (b * c));
    ASSERT_EQ(a * (b + c), a * b + a * c);
    ASSERT_EQ((a + b) - b, a);
    ASSERT_EQ(a + (-a), F::zero());
    ASSERT_EQ(a * F::one(), a);
    ASSERT_TRUE((a * F::zero()).is_zero());
    ASSERT_EQ(a.square(), a * a);
  }
}

TYPED_TEST(TowerLaws, Inverse) {
  using F = TypeParam;
  std::mt19937_64 rng(102);
  for (int i = 0; i < 20; i++) {
    F a = F::random(rng);
    ASSERT_FALSE(a.is_zero());
    ASSERT_TRUE((a * a.inverse()).is_one());
    ASSERT_EQ(a.inverse().inverse(), a);
  }
  EXPECT_TRUE(F::zero().inverse().is_zero());
  EXPECT_TRUE(F::one().inverse().is_one());
}

TYPED_TEST(TowerLaws, FrobeniusIsPowerOfP) {
  using F = TypeParam;
  constexpr unsigned order = std::is_same_v<F, Fp6> ? 6 : 12;
  std::mt19937_64 rng(103);
  mpz_class p = test::modulus<Fp>();
  for (int i = 0; i < 3; i++) {
    F a = F::random(rng);
    // x^p, x^(p^2), x^(p^3) by plain square-and-multiply.
    mpz_class pk = p;
    for (unsigned k = 1; k <= 3; k++) {
      ASSERT_EQ(a.frobenius_map(k), a.pow_vartime(test::from_mpz<24>(pk))) << "k=" << k;
      pk *= p;
    }
    // Composition: frob(k) = frob(1)^k, and frob(order) = id.
    F b = a;
    for (unsigned k = 1; k <= order; k++) {
      b = b.frobenius_map(1);
      ASSERT_EQ(b, a.frobenius_map(k)) << "k=" << k;
    }
    ASSERT_EQ(b, a);
    // Frobenius is a ring homomorphism.
    F c = F::random(rng);
    ASSERT_EQ((a * c).frobenius_map(1), a.frobenius_map(1) * c.frobenius_map(1));
  }
}

TEST(Tower, NonResidueStructure) {
  // v^3 = xi = 1+u and w^2 = v, checked by multiplication.
  Fp6 v{Fp2::zero(), Fp2::one(), Fp2::zero()};
  Fp2 xi = {Fp::one(), Fp::one()};
  EXPECT_EQ(v * v * v, (Fp6{xi, Fp2::zero(), Fp2::zero()}));
  std::mt19937_64 rng(1);
  Fp6 a = Fp6::random(rng);
  EXPECT_EQ(a.mul_by_nonresidue(), a * v);
  Fp12 w{Fp6::zero(), Fp6::one()};
  EXPECT_EQ(w * w, (Fp12{v, Fp6::zero()}));
  // xi is neither a square nor a cube in Fp2 (so the tower is a field):
  // xi^((p^2-1)/2) != 1 and xi^((p^2-1)/3) != 1.
  mpz_class q = test::modulus<Fp>() * test::modulus<Fp>() - 1;
  EXPECT_FALSE(xi.pow_vartime(test::from_mpz<12>(q / 2)) == Fp2::one());
  EXPECT_FALSE(xi.pow_vartime(test::from_mpz<12>(q / 3)) == Fp2::one());
}

TEST(Tower, FrobeniusCoefficientsMatchDefinition) {
  // gamma_k = xi^((p^k - 1)/3), delta_k = xi^((p^k - 1)/6), by direct
  // exponentiation with GMP-computed exponents.
  Fp2 xi = {Fp::one(), Fp::one()};
  mpz_class p = test::modulus<Fp>(), pk = 1;
  const auto& g = Fp6::frobenius_coeffs();
  const auto& d = Fp12::frobenius_coeffs();
  for (unsigned k = 0; k < 12; k++) {
    mpz_class e3 = (pk - 1) / 3, e6 = (pk - 1) / 6;
    ASSERT_EQ((pk - 1) % 6, 0);
    if (k < 6) {
      ASSERT_EQ(g[k][0], xi.pow_vartime(test::from_mpz<72>(e3))) << k;
      ASSERT_EQ(g[k][1], xi.pow_vartime(test::from_mpz<72>(2 * e3))) << k;
    }
    ASSERT_EQ(d[k], xi.pow_vartime(test::from_mpz<72>(e6))) << k;
    pk *= p;
  }
}

TEST(Tower, SparseProductsMatchDense) {
  std::mt19937_64 rng(104);
  for (int i = 0; i < 20; i++) {
    Fp6 a = Fp6::random(rng);
    Fp2 b0 = Fp2::random(rng), b1 = Fp2::random(rng), b4 = Fp2::random(rng);
    ASSERT_EQ(a.mul_by_01(b0, b1), (a * Fp6{b0, b1, Fp2::zero()}));
    ASSERT_EQ(a.mul_by_1(b1), (a * Fp6{Fp2::zero(), b1, Fp2::zero()}));
    Fp12 f = Fp12::random(rng);
    Fp12 line{Fp6{b0, b1, Fp2::zero()}, Fp6{Fp2::zero(), b4, Fp2::zero()}};
    ASSERT_EQ(f.mul_by_014(b0, b1, b4), f * line);
  }
}

TEST(Tower, ConjugateIsFrobenius6) {
  std::mt19937_64 rng(105);
  Fp12 a = Fp12::random(rng);
  EXPECT_EQ(a.conjugate(), a.frobenius_map(6));
}

// Maps a random element into the cyclotomic subgroup: f^((p^6-1)(p^2+1)).
Fp12 random_cyclotomic(std::mt19937_64& rng) {
  Fp12 f = Fp12::random(rng);
  Fp12 t = f.conjugate() * f.inverse();
  return t.frobenius_map(2) * t;
}

TEST(Tower, CyclotomicSquare) {
  std::mt19937_64 rng(106);
  mpz_class p = test::modulus<Fp>();
  mpz_class phi12 = p * p * p * p - p * p + 1;
  for (int i = 0; i < 20; i++) {
    Fp12 t = random_cyclotomic(rng);
    if (i < 2) {
      ASSERT_TRUE(t.pow_vartime(test::from_mpz<24>(phi12)).is_one());
    }
    ASSERT_TRUE((t * t.conjugate()).is_one());  // unitary
    ASSERT_EQ(t.cyclotomic_square(), t.square());
    ASSERT_EQ(t.cyclotomic_square().cyclotomic_square(), t.square().square());
    uint64_t e = rng();
    ASSERT_EQ(t.cyclotomic_pow_vartime(e), t.pow_vartime(arith::Limbs<1>{e}));
  }
  // Outside the subgroup the shortcut is (generally) wrong: make sure the
  // test above is not vacuous.
  Fp12 f = Fp12::random(rng);
  EXPECT_NE(f.cyclotomic_square(), f.square());
}

}  // namespace
