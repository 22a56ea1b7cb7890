#pragma once
// Groth16 verification: e(A, B) = e(α, β) · e(Σ x_i·IC_i, γ) · e(C, δ),
// with x_0 = 1 (docs/FILECOIN.md §5.3), as one multi-Miller loop against the
// prepared (negated) γ and δ and one final exponentiation.
//
// Proof points are taken as valid group elements: proofs read from bytes are
// checked (on curve, subgroup, not identity) by the decoder.
#include <span>
#include <vector>

#include "groth16/params.hpp"
#include "pairing/pairing.hpp"

namespace cuzk::groth16 {

struct PreparedVerifyingKey {
  pairing::Gt alpha_g1_beta_g2;
  pairing::PreparedG2 neg_gamma_g2, neg_delta_g2;
  std::vector<G1Affine> ic;
};

PreparedVerifyingKey prepare_verifying_key(const VerifyingKey& vk);

// `public_inputs` excludes ONE; throws std::invalid_argument if the count
// does not match the key.
bool verify_proof(const PreparedVerifyingKey& pvk, const Proof& proof, std::span<const Fr> public_inputs);

// All proofs valid, checked together with random 128-bit weights r_j:
//   Π e(r_j·A_j, B_j) = e(α, β)^Σr_j · e(Σ r_j·acc_j, γ) · e(Σ r_j·C_j, δ).
// A false "true" has probability about 2^-128. `rng` yields uint64_t.
template <class Rng>
bool verify_proofs_batch(const PreparedVerifyingKey& pvk, std::span<const Proof> proofs,
                         std::span<const std::vector<Fr>> public_inputs, Rng& rng);

// ---- implementation detail of the template above
bool verify_proofs_batch_weighted(const PreparedVerifyingKey& pvk, std::span<const Proof> proofs,
                                  std::span<const std::vector<Fr>> public_inputs,
                                  std::span<const Fr> weights);

template <class Rng>
bool verify_proofs_batch(const PreparedVerifyingKey& pvk, std::span<const Proof> proofs,
                         std::span<const std::vector<Fr>> public_inputs, Rng& rng) {
  std::vector<Fr> w(proofs.size());
  for (auto& x : w) {
    arith::Limbs<4> k{rng(), rng(), 0, 0};
    if (arith::is_zero(k)) k[0] = 1;
    x = Fr::from_canonical_unchecked(k);
  }
  return verify_proofs_batch_weighted(pvk, proofs, public_inputs, w);
}

}  // namespace cuzk::groth16
