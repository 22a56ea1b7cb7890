// neptune's legacy Poseidon circuit against the native hash: the counts of
// neptune's test_poseidon_hash and rust-fil-proofs' hash tests (docs/FILECOIN.md
// §1.1), aux = constraints, satisfiability, tampering, hash_md (2,770), and
// the structure of the first constraints (§1.4).
#include <gtest/gtest.h>

#include <random>

#include "filecoin/hash/poseidon.hpp"
#include "gadgets/poseidon.hpp"
#include "r1cs/counting_cs.hpp"
#include "r1cs/test_cs.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;
using gadgets::AllocatedNum;
using gadgets::in_ns;
using r1cs::TestConstraintSystem;

namespace {

struct HashRun {
  size_t constraints, aux;
  bool satisfied, matches;
};

HashRun hash_circuit(size_t arity, PoseidonStrength strength, std::mt19937_64& rng) {
  const auto& c = poseidon_constants(arity, strength);
  std::vector<Fr> data;
  TestConstraintSystem cs;
  std::vector<AllocatedNum> pre;
  for (size_t i = 0; i < arity; i++) {
    data.push_back(Fr::random(rng));
    pre.push_back(in_ns(
        cs, [&] { return "data " + std::to_string(i); },
        [&] { return AllocatedNum::alloc(cs, data.back()); }));
  }
  Fr tag = poseidon_tag_merkle_tree(arity);
  AllocatedNum out = gadgets::poseidon_hash(cs, pre, c, tag);
  return {cs.num_constraints(), cs.num_aux() - arity, cs.is_satisfied(),
          *out.value == poseidon_hash_correct(c, data, tag)};
}

size_t formula(size_t arity, PoseidonStrength s) {
  auto [rf, rp] = poseidon_round_numbers(arity, s);
  return 4 * ((arity + 1) * rf + rp) - 3 - arity;
}

// neptune circuit.rs test_poseidon_hash; 598 is rust-fil-proofs'
// test_hash_single_column_circuit (arity 11), 311 test_hash2_circuit.
TEST(PoseidonGadget, NeptuneCounts) {
  std::mt19937_64 rng(11);
  struct Case {
    size_t arity, standard, strengthened;
  } cases[] = {{2, 311, 367},  {4, 377, 433},    {8, 505, 565},   {11, 598, 0},
               {16, 761, 821}, {24, 1009, 1069}, {36, 1385, 1445}};
  for (const auto& k : cases) {
    HashRun r = hash_circuit(k.arity, PoseidonStrength::Standard, rng);
    EXPECT_EQ(r.constraints, k.standard) << k.arity;
    EXPECT_EQ(r.constraints, formula(k.arity, PoseidonStrength::Standard));
    EXPECT_EQ(r.aux, r.constraints);
    EXPECT_TRUE(r.satisfied);
    EXPECT_TRUE(r.matches) << k.arity;
  }
  // Strengthened (unused by Filecoin) only where its constants are cheap.
  for (const auto& k : cases) {
    if (k.arity > 8) continue;
    HashRun r = hash_circuit(k.arity, PoseidonStrength::Strengthened, rng);
    EXPECT_EQ(r.constraints, k.strengthened) << k.arity;
    EXPECT_TRUE(r.satisfied && r.matches);
  }
}

// The §1.4 shapes: first-round S-box on a preimage element, and the
// terminal S-box without a key.
TEST(PoseidonGadget, ConstraintShapes) {
  const auto& c = poseidon_constants(2);
  TestConstraintSystem cs;
  auto a = in_ns(cs, "a", [&] { return AllocatedNum::alloc(cs, Fr::from_u64(1)); });
  auto b = in_ns(cs, "b", [&] { return AllocatedNum::alloc(cs, Fr::from_u64(2)); });
  std::vector<AllocatedNum> pre = {a, b};
  AllocatedNum out = gadgets::poseidon_hash(cs, pre, c, poseidon_tag_merkle_tree(2));
  EXPECT_EQ(*out.value, poseidon_hash(std::vector<Fr>{Fr::from_u64(1), Fr::from_u64(2)}));
  const auto& k = cs.constraints();
  const Fr p = c.compressed_round_constants[1], q = c.compressed_round_constants[3 + 1];
  // (l + p)·(l + p) = l2
  EXPECT_EQ(k[0].path, "first round/quintic s-box 1/(l+rk)^2/squared sum constraint");
  ASSERT_EQ(k[0].a.inputs().size(), 1u);
  EXPECT_EQ(k[0].a.inputs()[0].coeff, p);
  EXPECT_EQ(k[0].a.aux()[0].index, a.var.index);
  EXPECT_EQ(k[1].path, "first round/quintic s-box 1/l^4/squaring constraint");
  // (l + p)·l4 = res - q·ONE
  EXPECT_EQ(k[2].path, "first round/quintic s-box 1/l4 * (l + rk)/mul sum constraint pre-post-add");
  EXPECT_EQ(k[2].c.inputs()[0].coeff, -q);
  // Second round: the S-box input is an LC allocated with one constraint.
  EXPECT_EQ(k[6].path,
            "initial full round 1/quintic s-box 0/S-box input/enforce num allocation preserves lc");
  EXPECT_EQ(k[6].b.inputs()[0].index, 0u);
  EXPECT_EQ(k.back().path, "hash result/enforce num allocation preserves lc");
  EXPECT_EQ(k[k.size() - 2].path, "terminal full round/quintic s-box 2/(l4 * l) + rk)/mul sum constraint");
  EXPECT_TRUE(k[k.size() - 2].c.inputs().empty());
  cs.set("terminal full round/quintic s-box 2/l^2/squared num", Fr::from_u64(5));
  EXPECT_FALSE(cs.is_satisfied());
  // Recorded from this implementation: catches any change of structure.
  EXPECT_EQ(cs.hash(), "658f013f99360e164ad8e7f96290944601cc064f93c153d9ea7ac1275927175f");
}

// filecoin-hashers test_hash_md_circuit: 71 inputs, 2 × 1,385.
TEST(PoseidonGadget, HashMd) {
  const auto& c = poseidon_constants(36);
  TestConstraintSystem cs;
  std::vector<AllocatedNum> in;
  for (size_t i = 0; i < 71; i++)
    in.push_back(in_ns(
        cs, [&] { return "input " + std::to_string(i); },
        [&] { return AllocatedNum::alloc(cs, Fr::one()); }));
  AllocatedNum h = gadgets::poseidon_hash_md(cs, in, c, poseidon_tag_merkle_tree(36));
  EXPECT_EQ(cs.num_constraints(), 2770u);
  EXPECT_TRUE(cs.is_satisfied());
  EXPECT_EQ(*h.value, poseidon_hash_md(std::vector<Fr>(71, Fr::one())));
  // 40 inputs = 1 + 35 + 4: the second step allocates 31 zeros as padding.
  std::mt19937_64 rng(12);
  std::vector<Fr> vals;
  TestConstraintSystem cs2;
  std::vector<AllocatedNum> in2;
  for (size_t i = 0; i < 40; i++) {
    vals.push_back(Fr::random(rng));
    in2.push_back(in_ns(
        cs2, [&] { return "input " + std::to_string(i); },
        [&] { return AllocatedNum::alloc(cs2, vals.back()); }));
  }
  AllocatedNum h2 = gadgets::poseidon_hash_md(cs2, in2, c, poseidon_tag_merkle_tree(36));
  EXPECT_EQ(cs2.num_constraints(), 2770u);
  EXPECT_EQ(cs2.num_aux(), 40u + 31u + 2770u);
  EXPECT_TRUE(cs2.is_satisfied());
  EXPECT_EQ(*h2.value, poseidon_hash_md(vals));
}

TEST(PoseidonGadget, CountingWithoutWitness) {
  r1cs::CountingCS cc;
  std::vector<AllocatedNum> pre;
  for (int i = 0; i < 8; i++) pre.push_back(AllocatedNum::alloc(cc, std::nullopt));
  gadgets::poseidon_hash(cc, pre, poseidon_constants(8), poseidon_tag_merkle_tree(8));
  EXPECT_EQ(cc.num_constraints(), 505u);
  EXPECT_EQ(cc.num_aux(), 8u + 505u);
}

}  // namespace
