#include "groth16/verifier.hpp"

#include <stdexcept>
#include <string>

#include "ec/scalar_mul.hpp"

namespace cuzk::groth16 {

namespace {

ec::G1Jacobian input_combination(const PreparedVerifyingKey& pvk, std::span<const Fr> inputs) {
  if (inputs.size() + 1 != pvk.ic.size())
    throw std::invalid_argument("verify: " + std::to_string(inputs.size()) +
                                " public inputs given, the key expects " + std::to_string(pvk.ic.size() - 1));
  ec::G1Jacobian acc = ec::G1Jacobian::from_affine(pvk.ic[0]);
  for (size_t i = 0; i < inputs.size(); i++)
    acc = acc.add(ec::mul_fast_vartime(ec::G1Jacobian::from_affine(pvk.ic[i + 1]), inputs[i]));
  return acc;
}

}  // namespace

PreparedVerifyingKey prepare_verifying_key(const VerifyingKey& vk) {
  PreparedVerifyingKey p;
  p.alpha_g1_beta_g2 = pairing::pairing(vk.alpha_g1, vk.beta_g2);
  p.neg_gamma_g2 = pairing::PreparedG2(vk.gamma_g2.neg());
  p.neg_delta_g2 = pairing::PreparedG2(vk.delta_g2.neg());
  p.ic = vk.ic;
  return p;
}

bool verify_proof(const PreparedVerifyingKey& pvk, const Proof& proof, std::span<const Fr> public_inputs) {
  const G1Affine acc = input_combination(pvk, public_inputs).to_affine();
  const std::pair<G1Affine, G2Affine> ab[] = {{proof.a, proof.b}};
  const std::pair<G1Affine, const pairing::PreparedG2*> rest[] = {{acc, &pvk.neg_gamma_g2},
                                                                  {proof.c, &pvk.neg_delta_g2}};
  return pairing::final_exponentiation(pairing::multi_miller_loop(ab, rest)) == pvk.alpha_g1_beta_g2;
}

bool verify_proofs_batch_weighted(const PreparedVerifyingKey& pvk, std::span<const Proof> proofs,
                                  std::span<const std::vector<Fr>> public_inputs,
                                  std::span<const Fr> weights) {
  if (proofs.size() != public_inputs.size() || proofs.size() != weights.size())
    throw std::invalid_argument("verify batch: proofs, inputs and weights differ in number");
  if (proofs.empty()) return true;
  std::vector<std::pair<G1Affine, G2Affine>> ab;
  ec::G1Jacobian acc_sum = ec::G1Jacobian::identity(), c_sum = ec::G1Jacobian::identity();
  Fr r_sum = Fr::zero();
  for (size_t j = 0; j < proofs.size(); j++) {
    const Fr& r = weights[j];
    ab.emplace_back(ec::mul_fast_vartime(ec::G1Jacobian::from_affine(proofs[j].a), r).to_affine(),
                    proofs[j].b);
    acc_sum = acc_sum.add(ec::mul_fast_vartime(input_combination(pvk, public_inputs[j]), r));
    c_sum = c_sum.add(ec::mul_fast_vartime(ec::G1Jacobian::from_affine(proofs[j].c), r));
    r_sum += r;
  }
  const std::pair<G1Affine, const pairing::PreparedG2*> rest[] = {{acc_sum.to_affine(), &pvk.neg_gamma_g2},
                                                                  {c_sum.to_affine(), &pvk.neg_delta_g2}};
  const pairing::Gt lhs = pairing::final_exponentiation(pairing::multi_miller_loop(ab, rest));
  return lhs == pairing::gt_pow_vartime(pvk.alpha_g1_beta_g2, r_sum);
}

}  // namespace cuzk::groth16
