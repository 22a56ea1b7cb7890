#pragma once
// Circuit pieces shared by the Filecoin circuits that open Poseidon trees
// (StackedDRG PoRep, fallback PoSt; SnapDeals takes the constants): vanilla
// Merkle proofs as circuit auth paths, the Poseidon inclusion gadget with a
// private allocated root, and comm_r = Poseidon2(comm_c, comm_r_last).
#include <string>

#include "filecoin/common/merkle_proof.hpp"
#include "gadgets/por.hpp"
#include "gadgets/poseidon_constants.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::filecoin::circuit {

// Filecoin's Poseidon constants for a MerkleTree hash of `arity` children.
const gadgets::PoseidonConstants& constants_for(size_t arity);
// The MerkleTree domain tag 2^arity - 1.
ff::Fr merkle_tag(size_t arity);

// A vanilla Merkle proof as an auth path of the expected shape (same levels
// as `expected`, a MerkleAuthPath::blank of the tree). Throws
// std::invalid_argument starting with `what` when it does not fit.
gadgets::MerkleAuthPath merkle_auth_path(const MerkleProof& p, const gadgets::MerkleAuthPath& expected,
                                         const std::string& what);

// PoRCircuit over a Poseidon tree with an allocated leaf and a private
// allocated root (index bits packed into one public input).
void inclusion_poseidon(r1cs::ConstraintSystem& cs, const gadgets::MerkleAuthPath& path,
                        const gadgets::AllocatedNum& root, const gadgets::AllocatedNum& leaf);

// Poseidon2(comm_c, comm_r_last) == comm_r (311 + 1 constraints).
void enforce_comm_r(r1cs::ConstraintSystem& cs, const gadgets::AllocatedNum& comm_r,
                    const gadgets::AllocatedNum& comm_c, const gadgets::AllocatedNum& comm_r_last);

}  // namespace cuzk::filecoin::circuit
