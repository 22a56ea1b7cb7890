#pragma once
// Groth16 keys and proofs over BLS12-381, laid out as bellperson's
// (docs/FILECOIN.md §1.5, §5.1-5.2) so that published Filecoin parameters can be
// used unchanged.
#include <vector>

#include "ec/bls12_381.hpp"

namespace cuzk::groth16 {

using ec::G1Affine;
using ec::G2Affine;
using ff::Fr;

struct VerifyingKey {
  G1Affine alpha_g1, beta_g1;
  G2Affine beta_g2, gamma_g2;
  G1Affine delta_g1;
  G2Affine delta_g2;
  // ic[i] = (β·A_i(τ) + α·B_i(τ) + C_i(τ))/γ · G1 for every input, ONE first.
  std::vector<G1Affine> ic;

  size_t num_inputs() const { return ic.size(); }  // including ONE
  friend bool operator==(const VerifyingKey&, const VerifyingKey&) = default;
};

// Proving key. Queries over variables follow the assignment numbering; the A
// and B queries keep only the variables whose column is non-zero in A
// (resp. B), as the prover's density bitmaps select them:
//   h[i]    = τ^i·Z(τ)/δ, i < m-1 (m the domain size)
//   l[j]    = (β·A_j(τ) + α·B_j(τ) + C_j(τ))/δ for every aux j
//   a       = A_i(τ) for all inputs, then A_j(τ) for aux in A
//   b_g1/g2 = B_v(τ) for inputs in B, then aux in B
struct Parameters {
  VerifyingKey vk;
  std::vector<G1Affine> h, l, a, b_g1;
  std::vector<G2Affine> b_g2;
  friend bool operator==(const Parameters&, const Parameters&) = default;
};

struct Proof {
  G1Affine a;
  G2Affine b;
  G1Affine c;
  friend bool operator==(const Proof&, const Proof&) = default;
};

}  // namespace cuzk::groth16
