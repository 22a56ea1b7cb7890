// wNAF / GLV / GLS scalar multiplication against the double-and-add reference.
#include <gtest/gtest.h>

#include "ec/scalar_mul.hpp"
#include "unit/ec/ec_test_util.hpp"

using namespace cuzk;
using namespace cuzk::ec;
using namespace cuzk::ec::test;
using ff::Fr;

template <size_t M>
void check_wnaf(const arith::Limbs<M>& k, unsigned w) {
  std::vector<int8_t> d(64 * M + 1);
  size_t n = detail::wnaf_digits(k, w, d.data());
  ASSERT_LE(n, 64 * M + 1);
  mpz_class acc = 0;
  for (size_t i = n; i-- > 0;) {
    acc = 2 * acc + d[i];
    if (d[i] != 0) {
      ASSERT_TRUE(d[i] & 1) << "digit " << i << " not odd";
      ASSERT_LT(std::abs(int(d[i])), 1 << (w - 1));
      for (size_t j = i + 1; j < i + w && j < n; j++) ASSERT_EQ(d[j], 0) << "window " << i;
    }
  }
  if (n) {
    ASSERT_NE(d[n - 1], 0) << "leading zero digit";
  }
  ASSERT_EQ(acc, to_mpz(k));
}

TEST(ScalarMul, WnafDigits) {
  std::mt19937_64 rng(41);
  for (unsigned w = 2; w <= 8; w++) {
    check_wnaf(arith::Limbs<4>{}, w);
    check_wnaf(arith::Limbs<4>{1, 0, 0, 0}, w);
    check_wnaf(arith::Limbs<4>{~0ULL, ~0ULL, ~0ULL, ~0ULL}, w);  // carry out of the top limb
    check_wnaf(arith::Limbs<1>{~0ULL}, w);
    check_wnaf(arith::Limbs<2>{0, 1ULL << 63}, w);
    check_wnaf(Fr::minus(Fr::MODULUS, 1), w);
    for (int i = 0; i < 50; i++) check_wnaf(arith::Limbs<4>{rng(), rng(), rng(), rng()}, w);
  }
}

TEST(ScalarMul, UDigitsReconstruct) {
  std::mt19937_64 rng(42);
  std::vector<arith::Limbs<4>> ks = {arith::Limbs<4>{}, arith::Limbs<4>{1, 0, 0, 0},
                                     Fr::minus(Fr::MODULUS, 1)};
  for (int i = 0; i < 100; i++) ks.push_back(Fr::random(rng).to_canonical());
  for (auto& k : ks) {
    auto d = detail::u_digits(k);
    mpz_class u = u_abs_mpz(), acc = 0;
    for (size_t i = 4; i-- > 0;) acc = acc * u + to_mpz(arith::Limbs<1>{d[i]});
    ASSERT_EQ(acc, to_mpz(k));
    for (auto x : d) ASSERT_LT(x, BLS_U_ABS);
  }
}

template <class C>
class ScalarMul : public ::testing::Test {};
using Curves = ::testing::Types<G1Curve, G2Curve>;
TYPED_TEST_SUITE(ScalarMul, Curves);

// Scalars that stress the decompositions.
std::vector<Fr> edge_scalars() {
  mpz_class u = u_abs_mpz(), r = r_mpz();
  std::vector<mpz_class> v = {0,
                              1,
                              2,
                              3,
                              31,
                              32,
                              33,
                              r - 1,
                              r - 2,
                              u,
                              u - 1,
                              u + 1,
                              u * u,
                              u * u - 1,
                              u * u + 1,
                              u * u * u,
                              u * u * u - 1,
                              (r - 1) / 2,
                              mpz_class(1) << 128,
                              (mpz_class(1) << 254) + 1,
                              r - u,
                              r - u * u};
  std::vector<Fr> out;
  for (auto& x : v) out.push_back(*Fr::from_canonical(to_limbs<4>(mpz_class(x % r))));
  return out;
}

TYPED_TEST(ScalarMul, WnafMatchesDoubleAndAdd) {
  using C = TypeParam;
  std::mt19937_64 rng(43);
  // Off-subgroup points too: wNAF is plain integer multiplication.
  for (int i = 0; i < 4; i++) {
    auto p = Jacobian<C>::from_affine(random_curve_point<C>(rng));
    for (unsigned w = 2; w <= 8; w++) {
      auto k = arith::Limbs<4>{rng(), rng(), rng(), rng()};
      ASSERT_EQ(mul_wnaf_vartime(p, k, w), mul_vartime(p, k)) << "w=" << w;
    }
    auto k6 = arith::Limbs<6>{rng(), rng(), rng(), rng(), rng(), rng()};
    ASSERT_EQ(mul_wnaf_vartime(p, k6), mul_vartime(p, k6));
    auto k1 = arith::Limbs<1>{rng()};
    ASSERT_EQ(mul_wnaf_vartime(p, k1, 3), mul_vartime(p, k1));
    ASSERT_TRUE(mul_wnaf_vartime(p, arith::Limbs<4>{}).is_identity());
    ASSERT_EQ(mul_wnaf_vartime(p, arith::Limbs<4>{1, 0, 0, 0}), p);
  }
  auto g = Jacobian<C>::from_affine(C::generator());
  for (const Fr& k : edge_scalars()) ASSERT_EQ(mul_wnaf_vartime(g, k), mul_vartime(g, k)) << k.to_hex();
  ASSERT_TRUE(mul_wnaf_vartime(Jacobian<C>::identity(), Fr::random(rng)).is_identity());
  ASSERT_TRUE(mul_wnaf_vartime(g, Fr::MODULUS).is_identity());
}

TYPED_TEST(ScalarMul, EndomorphismMulMatchesDoubleAndAdd) {
  using C = TypeParam;
  std::mt19937_64 rng(44);
  auto g = Jacobian<C>::from_affine(C::generator());
  std::vector<Jacobian<C>> points = {g, g.neg(), g.dbl()};
  for (int i = 0; i < 5; i++) points.push_back(random_subgroup_point<C>(rng));
  for (auto& p : points) {
    for (const Fr& k : edge_scalars()) ASSERT_EQ(mul_fast_vartime(p, k), mul_vartime(p, k)) << k.to_hex();
    for (int i = 0; i < 10; i++) {
      Fr k = Fr::random(rng);
      ASSERT_EQ(mul_fast_vartime(p, k), mul_vartime(p, k)) << k.to_hex();
    }
  }
  ASSERT_TRUE(mul_fast_vartime(Jacobian<C>::identity(), Fr::random(rng)).is_identity());
  // Linearity through the fast path.
  Fr a = Fr::random(rng), b = Fr::random(rng);
  ASSERT_EQ(mul_fast_vartime(mul_fast_vartime(g, a), b), mul_fast_vartime(g, a * b));
  ASSERT_EQ(mul_fast_vartime(g, a + b), mul_fast_vartime(g, a).add(mul_fast_vartime(g, b)));
}

TEST(ScalarMul, NamedEntryPoints) {
  std::mt19937_64 rng(45);
  auto p1 = random_subgroup_point<G1Curve>(rng);
  auto p2 = random_subgroup_point<G2Curve>(rng);
  Fr k = Fr::random(rng);
  EXPECT_EQ(mul_glv_vartime(p1, k), mul_vartime(p1, k));
  EXPECT_EQ(mul_gls_vartime(p2, k), mul_vartime(p2, k));
}
