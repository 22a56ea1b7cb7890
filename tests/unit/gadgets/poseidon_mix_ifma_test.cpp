// Poseidon's dense mixing on IFMA (gadgets/poseidon_mix_ifma.hpp) against
// the scalar mixing, bit for bit, at every width it takes (2 to 16, blocks
// of eight outputs, a last block of two to seven, a last output alone left
// to the scalar code), with random and extreme elements; and against an
// identity: the mixing is linear. The partial rounds on IFMA lanes
// (PoseidonPartialLanes) against the scalar sparse mixing, round by round.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "gadgets/poseidon_mix_ifma.hpp"
#include "gadgets/poseidon_rounds.hpp"
#include "platform/cpu_features.hpp"

using namespace cuzk;
using namespace cuzk::gadgets;

namespace {

const Fr kMinusOne = -Fr::one();

std::vector<std::vector<Fr>> states(size_t n, std::mt19937_64& rng) {
  std::vector<std::vector<Fr>> out(4, std::vector<Fr>(n));
  for (size_t i = 0; i < n; i++) {
    out[0][i] = Fr::random(rng);
    out[1][i] = kMinusOne;  // the largest sums of products
    out[2][i] = i % 2 ? Fr::zero() : Fr::one();
    out[3][i] = i % 3 ? Fr::random(rng) : kMinusOne;
  }
  return out;
}

}  // namespace

TEST(PoseidonMixIfma, SameAsScalarAtEveryWidth) {
  if (!platform::use_ifma()) GTEST_SKIP() << "this CPU has no AVX-512 IFMA";
  std::mt19937_64 rng(5);
  for (size_t n = 2; n <= PoseidonMixTable::kMaxIfmaMixWidth; n++) {
    SCOPED_TRACE(::testing::Message() << "width " << n);
    FrMatrix m(n), ones(n);
    for (Fr& x : m.a) x = Fr::random(rng);
    for (Fr& x : ones.a) x = kMinusOne;
    for (const FrMatrix* mat : {&m, &ones}) {
      const PoseidonMixTable table = make_poseidon_mix_table(*mat);
      ASSERT_EQ(table.n, n);
      for (std::vector<Fr> s : states(n, rng)) {
        std::vector<Fr> want = s;
        poseidon_mix_dense(*mat, want.data());
        ASSERT_TRUE(poseidon_mix_dense_ifma(table, *mat, s.data()));
        for (size_t j = 0; j < n; j++) ASSERT_EQ(s[j], want[j]) << "output " << j;
      }
    }
  }
}

TEST(PoseidonMixIfma, IsLinear) {
  // mix(k·s + u) = k·mix(s) + mix(u), each side mixed on IFMA.
  if (!platform::use_ifma()) GTEST_SKIP() << "this CPU has no AVX-512 IFMA";
  std::mt19937_64 rng(6);
  for (size_t n : {3, 5, 9, 12, 16}) {
    FrMatrix m(n);
    for (Fr& x : m.a) x = Fr::random(rng);
    const PoseidonMixTable table = make_poseidon_mix_table(m);
    std::vector<Fr> s(n), u(n), combined(n);
    const Fr k = Fr::random(rng);
    for (size_t i = 0; i < n; i++) {
      s[i] = Fr::random(rng);
      u[i] = Fr::random(rng);
      combined[i] = k * s[i] + u[i];
    }
    for (auto* v : {&s, &u, &combined}) ASSERT_TRUE(poseidon_mix_dense_ifma(table, m, v->data()));
    for (size_t j = 0; j < n; j++)
      EXPECT_EQ(combined[j], k * s[j] + u[j]) << "width " << n << ", output " << j;
  }
}

TEST(PoseidonMixIfma, DeclinesWhatItDoesNotTake) {
  std::mt19937_64 rng(7);
  FrMatrix wide(PoseidonMixTable::kMaxIfmaMixWidth + 1);  // (Filecoin's widest: 37, hash_md's)
  EXPECT_TRUE(make_poseidon_mix_table(wide).limbs.empty());
  FrMatrix m(9);
  for (Fr& x : m.a) x = Fr::random(rng);
  std::vector<Fr> s(9, Fr::one());
  const std::vector<Fr> before = s;
  EXPECT_FALSE(poseidon_mix_dense_ifma(PoseidonMixTable{}, m, s.data()));
  EXPECT_FALSE(poseidon_mix_dense_ifma(make_poseidon_mix_table(FrMatrix(8)), m, s.data()));  // another width
  const bool had = platform::use_ifma();
  platform::set_use_ifma(false);
  EXPECT_FALSE(poseidon_mix_dense_ifma(make_poseidon_mix_table(m), m, s.data()));
  platform::set_use_ifma(had);
  EXPECT_EQ(s, before);
}

namespace {

// Constants with random sparse factors for `rounds` partial rounds of width
// t (only what the partial rounds read).
PoseidonConstants random_sparse(size_t t, size_t rounds, std::mt19937_64& rng, bool extreme) {
  PoseidonConstants c;
  c.width = t;
  c.partial_rounds = rounds;
  c.sparse.resize(rounds);
  for (auto& m : c.sparse) {
    m.w_hat.resize(t);
    m.v_rest.resize(t - 1);
    for (Fr& x : m.w_hat) x = extreme ? kMinusOne : Fr::random(rng);
    for (Fr& x : m.v_rest) x = extreme ? kMinusOne : Fr::random(rng);
  }
  c.sparse_ifma = make_poseidon_sparse_table(c.sparse, t);
  return c;
}

}  // namespace

TEST(PoseidonPartialLanes, SameAsScalarRounds) {
  if (!platform::use_ifma()) GTEST_SKIP() << "this CPU has no AVX-512 IFMA";
  std::mt19937_64 rng(8);
  for (size_t t = 5; t <= 9; t++)
    for (const bool extreme : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "width " << t << (extreme ? ", entries -1" : ""));
      const PoseidonConstants c = random_sparse(t, 60, rng, extreme);
      ASSERT_FALSE(c.sparse_ifma.empty());
      std::vector<Fr> want(t), got;
      for (Fr& x : want) x = extreme ? kMinusOne : Fr::random(rng);
      got = want;
      PoseidonPartialLanes lanes;
      ASSERT_TRUE(lanes.begin(c, got.data()));
      for (size_t r = 0; r < c.partial_rounds; r++) {
        want[0] = poseidon_quintic(want[0]);
        poseidon_mix_sparse(c.sparse[r], want.data(), t);
        const Fr dot = lanes.dot(r);
        got[0] = lanes.round(r, poseidon_quintic(got[0]), dot);
        ASSERT_EQ(got[0], want[0]) << "round " << r;
      }
      lanes.end(got.data());
      EXPECT_EQ(got, want);
    }
}

TEST(PoseidonPartialLanes, DeclinesOtherWidths) {
  std::mt19937_64 rng(9);
  for (size_t t : {2, 3, 4, 10, 12}) {
    const PoseidonConstants c = random_sparse(t, 3, rng, false);
    EXPECT_TRUE(c.sparse_ifma.empty()) << "width " << t;
    std::vector<Fr> s(t, Fr::one());
    PoseidonPartialLanes lanes;
    EXPECT_FALSE(lanes.begin(c, s.data())) << "width " << t;
  }
  const PoseidonConstants c = random_sparse(9, 3, rng, false);
  std::vector<Fr> s(9, Fr::one());
  const bool had = platform::use_ifma();
  platform::set_use_ifma(false);
  PoseidonPartialLanes lanes;
  EXPECT_FALSE(lanes.begin(c, s.data()));
  platform::set_use_ifma(had);
}
