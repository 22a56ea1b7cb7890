// Domain constants against docs/FILECOIN.md §1.5 (checked independently with GMP)
// and the structure of the twiddle tables.
#include <gtest/gtest.h>

#include "ntt/ntt.hpp"
#include "ntt_test_util.hpp"
#include "support/gmp_oracle.hpp"

using namespace cuzk;
using namespace cuzk::ntt;
using cuzk::test::modulus;
using cuzk::test::value;

namespace {

TEST(NttDomain, RootOfUnityMatchesSpec) {
  // docs/FILECOIN.md §1.5: ROOT_OF_UNITY = 7^((r-1)/2^32).
  const mpz_class spec("16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b", 16);
  const mpz_class r = modulus<Fr>();
  mpz_class w;
  const mpz_class e = (r - 1) >> 32;
  mpz_powm(w.get_mpz_t(), mpz_class(7).get_mpz_t(), e.get_mpz_t(), r.get_mpz_t());
  EXPECT_EQ(w, spec);
  EXPECT_EQ(value(root_of_unity_2_32()), spec);
  // Domain(k).omega() = w^(2^(32-k)).
  Fr w20 = root_of_unity_2_32();
  for (int i = 0; i < 12; i++) w20 = w20.square();
  EXPECT_EQ(Domain(20).omega(), w20);
}

TEST(NttDomain, RootOfUnityHasOrder2To32) {
  Fr x = root_of_unity_2_32();
  for (unsigned i = 0; i < 31; i++) x = x.square();
  EXPECT_EQ(x, -Fr::one());
  EXPECT_TRUE(x.square().is_one());
}

TEST(NttDomain, OmegaHasExactOrder) {
  for (unsigned k : {0u, 1u, 2u, 5u, 10u, 13u, 20u, 24u}) {
    Domain d(k, DomainConfig{0});  // short tables keep the large domains cheap
    Fr x = d.omega();
    for (unsigned i = 0; i < k; i++) {
      EXPECT_FALSE(x.is_one()) << "order divides 2^" << i << " for k = " << k;
      x = x.square();
    }
    EXPECT_TRUE(x.is_one()) << "k = " << k;
    if (k >= 1) {
      Fr half = d.omega();
      for (unsigned i = 0; i + 1 < k; i++) half = half.square();
      EXPECT_EQ(half, -Fr::one());
    }
    EXPECT_TRUE((d.omega() * d.omega_inv()).is_one());
    EXPECT_TRUE((d.size_inv() * Fr::from_u64(d.size())).is_one());
    EXPECT_EQ(d.coset_generator(), Fr::from_u64(7));
    Fr gn = Fr::from_u64(7).pow_vartime(uint64_t(d.size()));
    EXPECT_EQ(d.vanishing_on_coset(), gn - Fr::one());
  }
}

TEST(NttDomain, RejectsTooLarge) { EXPECT_THROW(Domain(33), std::invalid_argument); }

TEST(NttDomain, TwiddleTablesAreBitReversedPowers) {
  for (unsigned k : {1u, 2u, 3u, 9u, 13u}) {
    Domain d(k);
    ASSERT_TRUE(d.full_twiddles());
    auto fw = d.twiddles(Direction::forward), iv = d.twiddles(Direction::inverse);
    ASSERT_EQ(fw.size(), d.size() / 2);
    for (size_t j = 0; j < fw.size(); j++) {
      const uint64_t e = cuzk::ntt::test::brev(j, k - 1);
      ASSERT_EQ(fw[j], d.omega().pow_vartime(e)) << "k = " << k << " j = " << j;
      ASSERT_EQ(iv[j], d.omega_inv().pow_vartime(e)) << "k = " << k << " j = " << j;
    }
  }
  // A domain over budget keeps a prefix of the same table.
  Domain full(16), part(16, DomainConfig{0});
  EXPECT_FALSE(part.full_twiddles());
  auto a = full.twiddles(Direction::forward), b = part.twiddles(Direction::forward);
  ASSERT_LT(b.size(), a.size());
  for (size_t j = 0; j < b.size(); j++) ASSERT_EQ(a[j], b[j]);
}

}  // namespace
