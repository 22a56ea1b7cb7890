// Group laws of the Jacobian and XYZZ formulas, typed over G1 and G2.
#include <gtest/gtest.h>

#include <random>

#include "ec/bls12_381.hpp"

using namespace cuzk;
using namespace cuzk::ec;

template <class C>
class PointFormulas : public ::testing::Test {};
using Curves = ::testing::Types<G1Curve, G2Curve>;
TYPED_TEST_SUITE(PointFormulas, Curves);

template <class C>
Jacobian<C> random_point(std::mt19937_64& rng) {
  return mul_vartime(Jacobian<C>::from_affine(C::generator()), ff::Fr::random(rng));
}

TYPED_TEST(PointFormulas, GeneratorOnCurveAndOrderR) {
  using C = TypeParam;
  auto g = Jacobian<C>::from_affine(C::generator());
  EXPECT_TRUE(C::generator().is_on_curve());
  EXPECT_TRUE(mul_vartime(g, ff::Fr::MODULUS).is_identity());
  EXPECT_FALSE(mul_vartime(g, ff::Fr::minus(ff::Fr::MODULUS, 1)).is_identity());
}

TYPED_TEST(PointFormulas, AddDoubleMixedXyzzAgree) {
  using C = TypeParam;
  std::mt19937_64 rng(11);
  for (int i = 0; i < 20; i++) {
    auto p = random_point<C>(rng), q = random_point<C>(rng);
    auto pa = p.to_affine(), qa = q.to_affine();
    ASSERT_TRUE(pa.is_on_curve());
    auto sum = p.add(q);
    ASSERT_EQ(sum, q.add(p));
    ASSERT_EQ(sum, p.add_mixed(qa));
    ASSERT_EQ(p.add(p), p.dbl());
    ASSERT_EQ(p.add_mixed(pa), p.dbl());
    ASSERT_TRUE(p.add(p.neg()).is_identity());
    ASSERT_TRUE(p.add_mixed(pa.neg()).is_identity());
    // XYZZ
    Xyzz<C> x = Xyzz<C>::identity().add_mixed(pa);
    ASSERT_EQ(x.to_jacobian(), p);
    ASSERT_EQ(x.add_mixed(qa).to_jacobian(), sum);
    ASSERT_EQ(x.add_mixed(pa).to_jacobian(), p.dbl());
    ASSERT_EQ(x.dbl().to_jacobian(), p.dbl());
    ASSERT_EQ(Xyzz<C>::dbl_affine(pa).to_jacobian(), p.dbl());
    Xyzz<C> y = Xyzz<C>::identity().add_mixed(qa).dbl();
    ASSERT_EQ(x.add(y).to_jacobian(), p.add(q.dbl()));
    ASSERT_TRUE(x.add_mixed(pa.neg()).is_identity());
    ASSERT_EQ(x.add(x).to_jacobian(), p.dbl());
    ASSERT_EQ(sum.to_affine(), Jacobian<C>::from_affine(sum.to_affine()).to_affine());
  }
}

TYPED_TEST(PointFormulas, ScalarMulDistributes) {
  using C = TypeParam;
  std::mt19937_64 rng(12);
  auto g = Jacobian<C>::from_affine(C::generator());
  for (int i = 0; i < 5; i++) {
    ff::Fr a = ff::Fr::random(rng), b = ff::Fr::random(rng);
    ASSERT_EQ(mul_vartime(g, a + b), mul_vartime(g, a).add(mul_vartime(g, b)));
    ASSERT_EQ(mul_vartime(mul_vartime(g, a), b), mul_vartime(g, a * b));
  }
}

TYPED_TEST(PointFormulas, BatchToAffine) {
  using C = TypeParam;
  std::mt19937_64 rng(13);
  std::vector<Jacobian<C>> ps(9);
  for (auto& p : ps) p = random_point<C>(rng);
  ps[3] = Jacobian<C>::identity();
  std::vector<Affine<C>> out(ps.size());
  batch_to_affine<C>(ps, out);
  for (size_t i = 0; i < ps.size(); i++) ASSERT_TRUE(out[i] == ps[i].to_affine()) << i;
}
