// The real prover (NTT + MSM) against the slow reference prover, the split
// API against the one-call API, and setup -> prove -> verify round trips.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "groth16/io.hpp"
#include "groth16/prover.hpp"
#include "groth16/rng.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "unit/groth16/reference_prover.hpp"
#include "unit/r1cs/test_circuits.hpp"

using namespace cuzk;
using namespace cuzk::groth16;
using cuzk::test::ChainCircuit;
using cuzk::test::CubicCircuit;
using cuzk::test::ManyInputsCircuit;

namespace {

std::vector<Fr> public_inputs(const r1cs::Circuit& c) {
  Assignment pa = synthesize(c);
  return {pa.input_assignment.begin() + 1, pa.input_assignment.end()};
}

ChainCircuit chain(size_t len, uint64_t x0) {
  ChainCircuit c;
  c.len = len;
  c.x0 = Fr::from_u64(x0);
  return c;
}

}  // namespace

TEST(Prover, SynthesizeAddsInputConstraints) {
  CubicCircuit c;
  c.x = Fr::from_u64(3);
  Assignment pa = synthesize(c);
  EXPECT_EQ(pa.num_constraints(), 3u + 2u);
  EXPECT_EQ(pa.a[3], Fr::one());
  EXPECT_EQ(pa.a[4], Fr::from_u64(35));
  EXPECT_TRUE(pa.b[4].is_zero());
  EXPECT_EQ(pa.b_input_density.total(), 1u);  // ONE only; inputs are not in B
}

TEST(Prover, ComputeHMatchesReference) {
  // Rows 13, 16 (exactly a power of two) and 17 after the input constraints.
  for (size_t len : {size_t(9), size_t(12), size_t(13)}) {
    auto c = chain(len, 5);
    Assignment pa = synthesize(c);
    auto ref = test::reference_h(pa);
    auto h = compute_h(pa);
    ASSERT_EQ(h.size(), ref.size());
    for (size_t i = 0; i < h.size(); i++) EXPECT_EQ(h[i], ref[i].to_canonical()) << len << " " << i;
  }
}

TEST(Prover, MatchesReferenceProverAndSplitEqualsOneCall) {
  std::mt19937_64 rng(21);
  auto c1 = chain(20, 3);
  ManyInputsCircuit c2;
  c2.n = 9;
  CubicCircuit c3;
  c3.x = Fr::from_u64(4);
  const r1cs::Circuit* circuits[] = {&c1, &c2, &c3};
  for (const r1cs::Circuit* c : circuits) {
    Parameters p = generate_parameters(*c, ToxicWaste::random(rng));
    const Fr r = Fr::random(rng), s = Fr::random(rng);
    Proof ref = test::reference_prove(p, test::reference_synthesize(*c), r, s);
    Pending pending = prove_start(synthesize(*c), p, r, s);
    Proof split = prove_finish(std::move(pending));
    EXPECT_EQ(split, ref);

    std::mt19937_64 g1(99), g2(99);
    Proof one_call = prove(*c, p, g1);
    Proof two_step = prove_finish(prove_start(synthesize(*c), p, g2));
    EXPECT_EQ(one_call, two_step);
  }
}

TEST(Prover, RoundTripTamperAndWrongInputs) {
  std::mt19937_64 rng(22);
  SecureRng srng;
  auto big = chain(3000, 7);  // m = 4096: real NTT and MSM sizes
  ManyInputsCircuit many;
  many.n = 64;
  CubicCircuit cubic;
  cubic.x = Fr::from_u64(10);
  const r1cs::Circuit* circuits[] = {&big, &many, &cubic};
  for (const r1cs::Circuit* c : circuits) {
    Parameters p = generate_parameters(*c, ToxicWaste::random(rng));
    auto pvk = prepare_verifying_key(p.vk);
    auto in = public_inputs(*c);
    Proof proof = prove(*c, p, srng);
    EXPECT_TRUE(verify_proof(pvk, proof, in));
    // Through the 192-byte encoding.
    EXPECT_TRUE(verify_proof(pvk, decode_proof(encode_proof(proof)), in));
    Proof again = prove(*c, p, srng);
    EXPECT_NE(again, proof);  // fresh r, s
    EXPECT_TRUE(verify_proof(pvk, again, in));

    Proof bad = proof;
    bad.c = again.c;
    EXPECT_FALSE(verify_proof(pvk, bad, in));
    bad = proof;
    bad.a = again.a;
    EXPECT_FALSE(verify_proof(pvk, bad, in));
    auto wrong = in;
    wrong[0] += Fr::one();
    EXPECT_FALSE(verify_proof(pvk, proof, wrong));
  }
}

TEST(Prover, BatchProveSharedParameters) {
  std::mt19937_64 rng(23);
  Parameters p = generate_parameters(chain(50, 1), ToxicWaste::random(rng));
  auto pvk = prepare_verifying_key(p.vk);
  std::vector<ChainCircuit> cs = {chain(50, 2), chain(50, 3), chain(50, 4), chain(50, 5)};
  std::vector<const r1cs::Circuit*> ptrs;
  std::vector<std::vector<Fr>> inputs;
  for (auto& c : cs) {
    ptrs.push_back(&c);
    inputs.push_back(public_inputs(c));
  }
  std::vector<Proof> proofs = prove_batch(ptrs, p, rng);
  ASSERT_EQ(proofs.size(), 4u);
  for (size_t i = 0; i < proofs.size(); i++) EXPECT_TRUE(verify_proof(pvk, proofs[i], inputs[i]));
  EXPECT_TRUE(verify_proofs_batch(pvk, std::span<const Proof>(proofs), inputs, rng));
  std::swap(inputs[1], inputs[2]);
  EXPECT_FALSE(verify_proofs_batch(pvk, std::span<const Proof>(proofs), inputs, rng));
}

TEST(Prover, RejectsParametersOfAnotherCircuit) {
  std::mt19937_64 rng(24);
  Parameters p = generate_parameters(chain(10, 1), ToxicWaste::random(rng));
  EXPECT_THROW(prove(chain(11, 1), p, rng), std::invalid_argument);
  CubicCircuit c;
  c.x = Fr::one();
  EXPECT_THROW(prove(c, p, rng), std::invalid_argument);
  CubicCircuit no_witness;
  EXPECT_THROW(prove(no_witness, p, rng), r1cs::AssignmentMissing);
  // An assignment without the input constraints is refused, not mis-proved.
  Assignment raw;
  chain(10, 1).synthesize(raw);
  EXPECT_THROW(prove_start(std::move(raw), p, rng), std::invalid_argument);
}

// r and s come from the kernel CSPRNG: 64 draws, all distinct, every bit set
// in at least one (a stuck bit would survive 64 draws with p = 2^-64).
TEST(SecureRng, GivesDistinctWordsWithEveryBitUsed) {
  SecureRng rng;
  std::vector<uint64_t> w(64);
  for (auto& x : w) x = rng();
  std::sort(w.begin(), w.end());
  EXPECT_EQ(std::adjacent_find(w.begin(), w.end()), w.end());
  uint64_t ored = 0;
  for (uint64_t x : w) ored |= x;
  EXPECT_EQ(ored, ~uint64_t(0));
}
