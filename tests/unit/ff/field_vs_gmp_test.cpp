// Field arithmetic checked against GMP on random and edge-value inputs, on
// both the assembly and the portable Montgomery path.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "ff/batch_inverse.hpp"
#include "ff/bls12_381.hpp"
#include "support/gmp_oracle.hpp"

using namespace cuzk;
using namespace cuzk::ff;
using cuzk::test::from_value;
using cuzk::test::modulus;
using cuzk::test::value;

namespace {

// Inputs biased toward edges: 0, 1, 2, p-1, p-2, (p-1)/2, values near 2^k.
template <class F>
std::vector<mpz_class> edge_values() {
  const mpz_class p = modulus<F>();
  std::vector<mpz_class> v = {0, 1, 2, 3, p - 1, p - 2, (p - 1) / 2, (p + 1) / 2};
  for (unsigned k : {63u, 64u, 127u, 128u, 254u, 255u, 256u, 380u, 381u, 383u}) {
    mpz_class two_k = mpz_class(1) << k;
    for (mpz_class x : {mpz_class(two_k - 1), two_k, mpz_class(two_k + 1)})
      if (x >= 0 && x < p) v.push_back(x);
  }
  return v;
}

template <class F>
std::vector<mpz_class> test_values(size_t randoms, uint64_t seed) {
  auto v = edge_values<F>();
  std::mt19937_64 rng(seed);
  for (size_t i = 0; i < randoms; i++) v.push_back(value(F::random(rng)));
  return v;
}

template <class Pair>
class FieldVsGmp : public ::testing::Test {
 protected:
  void SetUp() override { platform::set_use_adx(Pair::asm_path); }
  void TearDown() override { platform::set_use_adx(true); }
};

template <class F, bool Asm>
struct Cfg {
  using Field = F;
  static constexpr bool asm_path = Asm;
};
using Configs = ::testing::Types<Cfg<Fp, true>, Cfg<Fp, false>, Cfg<Fr, true>, Cfg<Fr, false>>;
TYPED_TEST_SUITE(FieldVsGmp, Configs);

TYPED_TEST(FieldVsGmp, AddSubMulSquareNeg) {
  using F = typename TypeParam::Field;
  const mpz_class p = modulus<F>();
  auto xs = test_values<F>(60, 1);
  for (const auto& a : xs) {
    F fa = from_value<F>(a);
    ASSERT_EQ(value(fa), a);
    ASSERT_EQ(value(-fa), (p - a) % p);
    ASSERT_EQ(value(fa.square()), (a * a) % p);
    for (const auto& b : xs) {
      F fb = from_value<F>(b);
      ASSERT_EQ(value(fa + fb), (a + b) % p);
      mpz_class d = (a - b) % p;
      if (d < 0) d += p;
      ASSERT_EQ(value(fa - fb), d);
      ASSERT_EQ(value(fa * fb), (a * b) % p);
    }
  }
}

TYPED_TEST(FieldVsGmp, InverseAndPow) {
  using F = typename TypeParam::Field;
  const mpz_class p = modulus<F>();
  for (const auto& a : test_values<F>(200, 2)) {
    F fa = from_value<F>(a);
    if (a == 0) {
      EXPECT_TRUE(fa.inverse().is_zero());
      EXPECT_TRUE(fa.inverse_vartime().is_zero());
      continue;
    }
    mpz_class inv;
    mpz_invert(inv.get_mpz_t(), a.get_mpz_t(), p.get_mpz_t());
    ASSERT_EQ(value(fa.inverse()), inv);
    ASSERT_EQ(value(fa.inverse_vartime()), inv) << "divsteps";
    mpz_class e("1234567890abcdef", 16), r;
    mpz_powm(r.get_mpz_t(), a.get_mpz_t(), e.get_mpz_t(), p.get_mpz_t());
    ASSERT_EQ(value(fa.pow_vartime(uint64_t(0x1234567890abcdefULL))), r);
  }
}

TYPED_TEST(FieldVsGmp, SqrtAndLegendre) {
  using F = typename TypeParam::Field;
  const mpz_class p = modulus<F>();
  int squares = 0, non_squares = 0;
  for (const auto& a : test_values<F>(200, 3)) {
    F fa = from_value<F>(a);
    int jac = mpz_jacobi(a.get_mpz_t(), p.get_mpz_t());
    ASSERT_EQ(fa.legendre(), jac);
    auto r = fa.sqrt();
    if (jac >= 0) {
      ASSERT_TRUE(r.has_value());
      ASSERT_EQ(r->square(), fa);
      squares++;
    } else {
      ASSERT_FALSE(r.has_value());
      non_squares++;
    }
  }
  EXPECT_GT(squares, 50);
  EXPECT_GT(non_squares, 50);
}

TYPED_TEST(FieldVsGmp, BytesRoundTripAndCanonicalCheck) {
  using F = typename TypeParam::Field;
  const mpz_class p = modulus<F>();
  for (const auto& a : test_values<F>(100, 4)) {
    F fa = from_value<F>(a);
    std::array<uint8_t, F::BYTES> be{}, le{};
    fa.to_bytes_be(be);
    fa.to_bytes_le(le);
    for (size_t i = 0; i < F::BYTES; i++) ASSERT_EQ(be[i], le[F::BYTES - 1 - i]);
    mpz_class from_be;
    mpz_import(from_be.get_mpz_t(), F::BYTES, 1, 1, 0, 0, be.data());
    ASSERT_EQ(from_be, a);
    ASSERT_EQ(*F::from_bytes_be(be), fa);
    ASSERT_EQ(*F::from_bytes_le(le), fa);
  }
  // p itself and p+1 are not canonical.
  for (mpz_class bad : {p, mpz_class(p + 1)}) {
    std::array<uint8_t, F::BYTES> be{};
    size_t count = 0;
    mpz_export(be.data() + F::BYTES - (mpz_sizeinbase(bad.get_mpz_t(), 256)), &count, 1, 1, 0, 0,
               bad.get_mpz_t());
    EXPECT_FALSE(F::from_bytes_be(be).has_value());
  }
}

TYPED_TEST(FieldVsGmp, BatchInverse) {
  using F = typename TypeParam::Field;
  std::mt19937_64 rng(5);
  std::vector<F> xs(257);
  for (auto& x : xs) x = F::random(rng);
  xs[0] = F::zero();
  xs[100] = F::zero();
  auto ys = xs;
  batch_inverse<F>(std::span<F>(ys));
  for (size_t i = 0; i < xs.size(); i++) ASSERT_TRUE(ys[i] == xs[i].inverse()) << i;
}

}  // namespace

TEST(FieldConstants, FrRootOfUnityMatchesFilecoinSpec) {
  // docs/FILECOIN.md §1.5: ROOT_OF_UNITY = 7^((r-1)/2^32).
  Fr w = Fr::from_u64(7).pow_vartime(Fr::T_ODD);
  EXPECT_EQ(w.to_hex(), "0x16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b");
  Fr x = w;
  for (int i = 0; i < 31; i++) x = x.square();
  EXPECT_EQ(x, -Fr::one());  // exact order 2^32
}

TEST(FieldConstants, MontgomeryConstantsAgainstGmp) {
  auto check = [](auto f) {
    using F = decltype(f);
    mpz_class p = modulus<F>();
    mpz_class R = (mpz_class(1) << (64 * F::N)) % p;
    EXPECT_EQ(cuzk::test::to_mpz<F::N>(F::R1), R);
    EXPECT_EQ(cuzk::test::to_mpz<F::N>(F::R2), (R * R) % p);
  };
  check(Fp{});
  check(Fr{});
}

TEST(Fp2, FieldLawsAndSqrt) {
  std::mt19937_64 rng(6);
  int roots = 0;
  for (int i = 0; i < 100; i++) {
    Fp2 a = Fp2::random(rng), b = Fp2::random(rng), c = Fp2::random(rng);
    ASSERT_EQ(a * (b + c), a * b + a * c);
    ASSERT_EQ(a.square(), a * a);
    ASSERT_EQ(a * a.inverse(), Fp2::one());
    ASSERT_EQ(a.mul_by_nonresidue(), a * (Fp2{Fp::one(), Fp::one()}));
    // u^2 = -1
    Fp2 u{Fp::zero(), Fp::one()};
    ASSERT_EQ(u.square(), -Fp2::one());
    ASSERT_EQ(a.frobenius(), a.pow_vartime(Fp::MODULUS));
    Fp2 sq = a.square();
    auto r = sq.sqrt();
    ASSERT_TRUE(r.has_value());
    ASSERT_TRUE(*r == a || *r == -a);
    if (auto r2 = b.sqrt()) {
      ASSERT_EQ(r2->square(), b);
      roots++;
    }
  }
  EXPECT_GT(roots, 20);
  EXPECT_LT(roots, 80);
}
