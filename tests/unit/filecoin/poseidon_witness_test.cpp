// Poseidon's witness-only path (gadgets/poseidon_witness.hpp) against the
// circuit: on a witness-only system poseidon_hash takes the fast path, on a
// ProvingAssignment the circuit, and both must allocate the same values in
// the same order, count the same constraints and return the same variable
// and value; the hash itself is checked against the reference permutation.
// Every arity Filecoin's constants exist for, both strengths, and hash_md's
// chaining with padding.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "filecoin/hash/poseidon.hpp"
#include "gadgets/poseidon.hpp"
#include "gadgets/poseidon_rounds.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/witness_cs.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;
using gadgets::AllocatedNum;
using gadgets::in_ns;

namespace {

std::vector<AllocatedNum> alloc_all(r1cs::ConstraintSystem& cs, const std::vector<Fr>& data) {
  std::vector<AllocatedNum> out;
  for (size_t i = 0; i < data.size(); i++)
    out.push_back(in_ns(
        cs, [&] { return "data " + std::to_string(i); }, [&] { return AllocatedNum::alloc(cs, data[i]); }));
  return out;
}

template <class Hash>
void expect_same_allocations(const std::vector<Fr>& data, const Hash& hash) {
  r1cs::ProvingAssignment circuit;
  ASSERT_TRUE(circuit.builds_constraints());
  const AllocatedNum want = hash(circuit, alloc_all(circuit, data));
  r1cs::WitnessCS witness;
  ASSERT_FALSE(witness.builds_constraints());
  const AllocatedNum got = hash(witness, alloc_all(witness, data));
  EXPECT_EQ(witness.num_constraints(), circuit.num_constraints());
  ASSERT_EQ(witness.aux().size(), circuit.num_aux());
  for (size_t i = 0; i < circuit.num_aux(); i++)
    ASSERT_EQ(witness.aux()[i], circuit.aux_assignment[i]) << "aux " << i;
  EXPECT_EQ(got.var, want.var);
  ASSERT_TRUE(got.value && want.value);
  EXPECT_EQ(*got.value, *want.value);
}

TEST(PoseidonWitness, SameAllocationsAsTheCircuit) {
  std::mt19937_64 rng(29);
  for (size_t arity : {2, 4, 8, 11, 16, 24, 36}) {
    for (auto strength : {PoseidonStrength::Standard, PoseidonStrength::Strengthened}) {
      if (arity == 11 && strength == PoseidonStrength::Strengthened) continue;  // no such instance in use
      SCOPED_TRACE(::testing::Message()
                   << "arity " << arity << ", strengthened " << (strength == PoseidonStrength::Strengthened));
      const auto& c = poseidon_constants(arity, strength);
      for (int seed = 0; seed < 2; seed++) {
        std::vector<Fr> data(arity);
        for (auto& x : data) x = Fr::random(rng);
        if (seed == 1) data[0] = Fr::zero();  // a zero input: no special case may differ
        const Fr tag = poseidon_tag_merkle_tree(arity);
        expect_same_allocations(data, [&](r1cs::ConstraintSystem& cs, const std::vector<AllocatedNum>& pre) {
          return gadgets::poseidon_hash(cs, pre, c, tag);
        });
        r1cs::WitnessCS witness;
        const AllocatedNum h = gadgets::poseidon_hash(witness, alloc_all(witness, data), c, tag);
        EXPECT_EQ(*h.value, poseidon_hash_correct(c, data, tag));
      }
    }
  }
}

TEST(PoseidonWitness, HashMdWithPadding) {
  std::mt19937_64 rng(31);
  const auto& c = poseidon_constants(36, PoseidonStrength::Standard);
  const Fr tag = poseidon_tag_merkle_tree(36);
  for (size_t n : {2, 36, 71, 80}) {  // 80: the last step is padded
    SCOPED_TRACE(::testing::Message() << n << " elements");
    std::vector<Fr> data(n);
    for (auto& x : data) x = Fr::random(rng);
    expect_same_allocations(data, [&](r1cs::ConstraintSystem& cs, const std::vector<AllocatedNum>& el) {
      return gadgets::poseidon_hash_md(cs, el, c, tag);
    });
  }
}

TEST(PoseidonWitness, WidthAboveTheWidestThrows) {
  // The mixing keeps its sums in a fixed array: a wider matrix must not run.
  gadgets::FrMatrix m(gadgets::kMaxPoseidonWidth + 1);
  std::vector<Fr> s(m.n, Fr::one());
  EXPECT_THROW(gadgets::poseidon_mix_dense(m, s.data()), std::length_error);
  gadgets::FrMatrix widest(gadgets::kMaxPoseidonWidth);
  widest(0, 0) = Fr::one();
  gadgets::poseidon_mix_dense(widest, s.data());
  EXPECT_EQ(s[0], Fr::one());
  EXPECT_EQ(s[1], Fr::zero());
}

}  // namespace
