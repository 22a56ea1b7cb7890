#pragma once
// The gadgets of the EmptySectorUpdate circuit (storage-proofs-update
// gadgets.rs, and storage-proofs-core's por_no_challenge_input), allocating
// and constraining in upstream's order so the R1CS is the published one.
// Costs (docs/FILECOIN.md §1.3): gen_challenge_bits 568 per digest, high bits
// 2·6 + 1, label 2, a Poseidon TreeR level 22 + 505, a TreeD level
// 2 + 45,379, an apex tree of n leaves (n - 1)·45,379.
#include <span>
#include <vector>

#include "gadgets/num.hpp"

namespace cuzk::filecoin::snap_gadgets {

using gadgets::AllocatedBit;
using gadgets::AllocatedNum;
using r1cs::ConstraintSystem;

// 255 bits of `num` ("bit i") and "binary decomp": Σ 2^i·b_i · ONE = num.
std::vector<AllocatedBit> num_to_bits(ConstraintSystem& cs, const AllocatedNum& num);

// Tree kinds of por_no_challenge_input: Poseidon TreeR levels (MerkleTree
// tag), or binary SHA-256 TreeD levels.
struct TreeArities {
  size_t base = 2, sub = 0, top = 0;
  bool sha256 = false;
};

// Merkle inclusion with the index given as little-endian bits (consumed
// log2(arity) per level) and siblings already allocated, one vector per level
// (base levels, then the sub and top level when present); ends with
// "calculated root == provided root": computed·ONE = root.
void por_no_challenge_input(ConstraintSystem& cs, const TreeArities& tree, std::span<const AllocatedBit> bits,
                            const AllocatedNum& leaf, const std::vector<std::vector<AllocatedNum>>& path,
                            const AllocatedNum& root);

// The apex tree over this partition's leaves (hash2 pairwise, row by row),
// then its root proved into comm_d at the position given by partition_bits.
void apex_por(ConstraintSystem& cs, std::span<const AllocatedNum> apex_leafs,
              std::span<const AllocatedBit> partition_bits, const std::vector<AllocatedNum>& partition_path,
              const AllocatedNum& comm_d);

// `challenges` groups of `bits_per_challenge` random bits, from the digests
// H(comm_r_new, partition·digests_per_partition + j) (tag 2^40).
std::vector<std::vector<AllocatedBit>> gen_challenge_bits(ConstraintSystem& cs,
                                                          const AllocatedNum& comm_r_new,
                                                          const AllocatedNum& partition, size_t challenges,
                                                          size_t bits_per_challenge);

// The top hs[i] bits of the challenge packed, for the one i whose h_select
// bit is set: Σ_i h_select_i · pack(top hs[i] bits).
AllocatedNum challenge_high_bits(ConstraintSystem& cs, std::span<const AllocatedBit> c_bits,
                                 std::span<const AllocatedBit> h_select_bits, std::span<const size_t> hs);

// label_r_new = label_r_old + label_d_new·rho.
AllocatedNum label_r_new(ConstraintSystem& cs, const AllocatedNum& label_r_old,
                         const AllocatedNum& label_d_new, const AllocatedNum& rho);

// Poseidon arity 2 with the gen-randomness tag 2^40 (311 constraints).
AllocatedNum randomness_hash(ConstraintSystem& cs, const AllocatedNum& a, const AllocatedNum& b);

}  // namespace cuzk::filecoin::snap_gadgets
