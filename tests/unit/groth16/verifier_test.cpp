// Verifier and batch verifier on proofs of the slow reference prover.
#include <gtest/gtest.h>

#include <random>

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

std::vector<Fr> public_inputs(const r1cs::ProvingAssignment& pa) {
  return {pa.input_assignment.begin() + 1, pa.input_assignment.end()};
}

}  // namespace

TEST(Verifier, ReferenceProofsVerifyAndTamperingIsRejected) {
  std::mt19937_64 rng(3);
  ChainCircuit chain;
  chain.len = 9;
  chain.x0 = Fr::from_u64(3);
  CubicCircuit cubic;
  cubic.x = Fr::from_u64(5);
  ManyInputsCircuit many;
  many.n = 12;
  const r1cs::Circuit* circuits[] = {&chain, &cubic, &many};
  for (const r1cs::Circuit* c : circuits) {
    Parameters p = generate_parameters(*c, ToxicWaste::random(rng));
    auto pvk = prepare_verifying_key(p.vk);
    auto pa = test::reference_synthesize(*c);
    Proof proof = test::reference_prove(p, pa, Fr::random(rng), Fr::random(rng));
    auto in = public_inputs(pa);
    ASSERT_TRUE(verify_proof(pvk, proof, in));

    Proof bad = proof;
    bad.a = bad.a.neg();
    EXPECT_FALSE(verify_proof(pvk, bad, in));
    bad = proof;
    bad.c = p.vk.alpha_g1;
    EXPECT_FALSE(verify_proof(pvk, bad, in));
    bad = proof;
    bad.b = p.vk.beta_g2;
    EXPECT_FALSE(verify_proof(pvk, bad, in));
    auto wrong = in;
    wrong.back() += Fr::one();
    EXPECT_FALSE(verify_proof(pvk, proof, wrong));
    wrong.pop_back();
    EXPECT_THROW(verify_proof(pvk, proof, wrong), std::invalid_argument);
  }
}

TEST(Verifier, BatchVerification) {
  std::mt19937_64 rng(4);
  Parameters p = generate_parameters(CubicCircuit(), ToxicWaste::random(rng));
  auto pvk = prepare_verifying_key(p.vk);
  std::vector<Proof> proofs;
  std::vector<std::vector<Fr>> inputs;
  for (uint64_t x : {2, 3, 7}) {
    CubicCircuit c;
    c.x = Fr::from_u64(x);
    auto pa = test::reference_synthesize(c);
    proofs.push_back(test::reference_prove(p, pa, Fr::random(rng), Fr::random(rng)));
    inputs.push_back(public_inputs(pa));
  }
  EXPECT_TRUE(verify_proofs_batch(pvk, std::span<const Proof>(proofs), inputs, rng));
  EXPECT_TRUE(verify_proofs_batch(pvk, std::span<const Proof>(), {}, rng));
  auto swapped = inputs;
  std::swap(swapped[0], swapped[1]);
  EXPECT_FALSE(verify_proofs_batch(pvk, std::span<const Proof>(proofs), swapped, rng));
  auto bad = proofs;
  bad[2].c = bad[1].c;
  EXPECT_FALSE(verify_proofs_batch(pvk, std::span<const Proof>(bad), inputs, rng));
}
