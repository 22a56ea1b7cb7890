// FrSum (the unreduced accumulator of ProvingAssignment and MultiEq) equals
// plain modular Fr arithmetic, including sums whose limbs overflow 2^256.
#include "r1cs/fr_sum.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

using namespace cuzk;
using ff::Fr;
using r1cs::FrSum;

namespace {

std::vector<Fr> samples(std::mt19937_64& rng) {
  // Special values first: products with them take FrSum's shortcuts.
  std::vector<Fr> v = {Fr::zero(), Fr::one(), -Fr::one(), Fr::from_u64(2), -Fr::from_u64(2)};
  for (int i = 0; i < 12; i++) v.push_back(Fr::random(rng));
  return v;
}

}  // namespace

TEST(FrSum, EmptyIsZero) { EXPECT_EQ(FrSum().get(), Fr::zero()); }

TEST(FrSum, LongSumsMatchModularAdditions) {
  std::mt19937_64 rng(11);
  for (size_t n : {1, 2, 3, 7, 100, 5000}) {
    FrSum s;
    Fr ref = Fr::zero();
    for (size_t i = 0; i < n; i++) {
      Fr x = Fr::random(rng);
      s.add(x);
      ref += x;
    }
    EXPECT_EQ(s.get(), ref) << n;
  }
  // Representations close to p overflow 2^256 within three terms.
  auto rep = Fr::MODULUS;
  rep[0] -= 1;
  const Fr big = Fr::from_mont(rep);  // the largest representation, p - 1
  FrSum s;
  Fr ref = Fr::zero();
  for (int i = 0; i < 1000; i++) {
    s.add(-Fr::one());
    s.add(big);
    ref += -Fr::one() + big;
  }
  EXPECT_EQ(s.get(), ref);
}

TEST(FrSum, SubtractionAndProductsMatchFieldArithmetic) {
  std::mt19937_64 rng(12);
  auto v = samples(rng);
  FrSum s;
  Fr ref = Fr::zero();
  for (const Fr& c : v)
    for (const Fr& x : v) {
      s.add_product(c, x);
      ref += c * x;
      s.sub(x);
      ref -= x;
    }
  EXPECT_EQ(s.get(), ref);
  // x - x = 0 term by term.
  FrSum z;
  for (const Fr& x : v) {
    z.add(x);
    z.sub(x);
  }
  EXPECT_EQ(z.get(), Fr::zero());
}

TEST(FrSum, AddIfAddsOnlyWhereKept) {
  std::mt19937_64 rng(13);
  auto v = samples(rng);
  FrSum s;
  Fr ref = Fr::zero();
  for (int round = 0; round < 200; round++)  // enough near-p terms to carry past 2^256
    for (size_t i = 0; i < v.size(); i++) {
      const bool keep = (rng() & 1) != 0;
      s.add_if(v[i], keep);
      if (keep) ref += v[i];
    }
  EXPECT_EQ(s.get(), ref);
}

TEST(FrSum, StoreWritesTheReducedSum) {
  std::mt19937_64 rng(13);
  Fr a = Fr::random(rng), b = Fr::random(rng);
  FrSum s;
  s.add(a);
  s.add(b);
  Fr out = Fr::random(rng);
  s.store(out);
  EXPECT_EQ(out, a + b);
  EXPECT_LT(arith::compare(out.v, Fr::MODULUS), 0);  // canonical representation
}
