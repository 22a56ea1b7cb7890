// The decompression square roots against ff's generic ones.
#include <gtest/gtest.h>

#include "ec/sqrt.hpp"
#include "unit/ec/ec_test_util.hpp"

using namespace cuzk;
using namespace cuzk::ec;
using namespace cuzk::ec::test;
using ff::Fp;
using ff::Fp2;

TEST(Sqrt, PowWindowMatchesSquareAndMultiply) {
  std::mt19937_64 rng(61);
  for (int i = 0; i < 50; i++) {
    Fp a = Fp::random(rng);
    arith::Limbs<6> e = {rng(), rng(), rng(), rng(), rng(), rng() >> (i % 64)};
    ASSERT_EQ(detail::pow_window(a, e), a.pow_vartime(e));
    arith::Limbs<1> s = {rng() >> (i % 64)};
    ASSERT_EQ(detail::pow_window(a, s), a.pow_vartime(s));
  }
  Fp a = Fp::random(rng);
  for (uint64_t e = 0; e < 200; e++)
    ASSERT_EQ(detail::pow_window(a, arith::Limbs<1>{e}), a.pow_vartime(e)) << e;
  ASSERT_EQ(detail::pow_window(a, Fp::P_PLUS_1_QUARTER), a.pow_vartime(Fp::P_PLUS_1_QUARTER));
  Fp2 b = Fp2::random(rng);
  ASSERT_EQ(detail::pow_window(b, Fp::P_MINUS_1_HALF), b.pow_vartime(Fp::P_MINUS_1_HALF));
}

TEST(Sqrt, Fp) {
  std::mt19937_64 rng(62);
  EXPECT_EQ(detail::sqrt_fp(Fp::zero()), Fp::zero());
  EXPECT_EQ(detail::sqrt_fp(Fp::one())->square(), Fp::one());
  EXPECT_FALSE(detail::sqrt_fp(-Fp::one()));
  int squares = 0;
  for (int i = 0; i < 200; i++) {
    Fp a = Fp::random(rng);
    auto r = detail::sqrt_fp(a);
    ASSERT_EQ(r.has_value(), a.sqrt().has_value());
    ASSERT_EQ(r.has_value(), a.legendre() == 1);
    if (r) {
      squares++;
      ASSERT_EQ(r->square(), a);
    }
    ASSERT_TRUE(detail::sqrt_fp(a.square()));
  }
  EXPECT_GT(squares, 60);
  EXPECT_LT(squares, 140);
}

TEST(Sqrt, Fp2) {
  std::mt19937_64 rng(63);
  EXPECT_EQ(detail::sqrt_fp2(Fp2::zero()), Fp2::zero());
  int squares = 0;
  auto check = [&](const Fp2& a) {
    auto r = detail::sqrt_fp2(a);
    ASSERT_EQ(r.has_value(), a.sqrt().has_value()) << a.c0.to_hex() << " " << a.c1.to_hex();
    if (r) {
      squares++;
      ASSERT_EQ(r->square(), a);
    }
  };
  for (int i = 0; i < 200; i++) {
    Fp2 a = Fp2::random(rng);
    check(a);
    check(a.square());
    check(-a.square());
    check(Fp2{a.c0, Fp::zero()});  // c1 = 0: root in Fp or in Fp*u
    check(Fp2{Fp::zero(), a.c1});  // pure imaginary
    check(Fp2{a.c0.square(), Fp::zero()});
    check(Fp2{-a.c0.square(), Fp::zero()});
    ASSERT_TRUE(detail::sqrt_fp2(a.square()));
  }
  EXPECT_GT(squares, 700);
  // Both branches of the norm method (delta a square or not) occur.
  int branch_sq = 0, branch_nsq = 0;
  const Fp half = Fp::from_u64(2).inverse();
  for (int i = 0; i < 100; i++) {
    Fp2 a = Fp2::random(rng).square();
    if (a.c1.is_zero()) continue;
    Fp alpha = *detail::sqrt_fp(a.c0.square() + a.c1.square());
    ((a.c0 + alpha) * half).legendre() == 1 ? branch_sq++ : branch_nsq++;
    ASSERT_EQ(detail::sqrt_fp2(a)->square(), a);
  }
  EXPECT_GT(branch_sq, 10);
  EXPECT_GT(branch_nsq, 10);
}
