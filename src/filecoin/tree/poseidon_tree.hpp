#pragma once
// Poseidon Merkle trees of TreeC / TreeR (docs/FILECOIN.md §7.8): base trees of
// `base_arity` over contiguous chunks of the leaves, then optionally one sub
// level (sub_arity base roots per node) and one top level (top_arity sub
// roots). Every node is Poseidon with the MerkleTree tag of its arity.
//
// Because the base trees are equal contiguous chunks, level h of all base
// trees side by side is one flat vector whose parents are consecutive
// groups; the sub and top levels continue the same way. So the whole
// compound tree is stored as flat per-level vectors with a per-level arity.
#include <cstdint>
#include <span>
#include <vector>

#include "ff/bls12_381.hpp"
#include "filecoin/common/merkle_proof.hpp"
#include "filecoin/common/registered_proof.hpp"

namespace cuzk::filecoin {

using ff::Fr;

// Poseidon MerkleTree hash of children.size() elements.
Fr poseidon_tree_node(std::span<const Fr> children);

// Throws std::invalid_argument unless arities are powers of two in 2..16
// (top only with sub) and `leaves` splits into base_tree_count() base trees of
// base_arity^k leaves each, k >= 1.
void validate_tree_shape(const TreeShape& shape, uint64_t leaves);

class PoseidonTree {
 public:
  // Builds all levels (multi-threaded with oneTBB).
  PoseidonTree(std::vector<Fr> leaves, const TreeShape& shape);

  const Fr& root() const { return levels_.back()[0]; }
  Domain root_domain() const;
  const TreeShape& shape() const { return shape_; }
  size_t leaf_count() const { return levels_[0].size(); }
  size_t base_height() const { return base_height_; }  // base path length
  // Level h, all base trees side by side (h = base_height(): the base roots;
  // then the sub roots, then the top root).
  const std::vector<Fr>& level(size_t h) const { return levels_.at(h); }
  size_t level_count() const { return levels_.size(); }

  // Single (no sub), Sub (sub, no top) or Top proof of `leaf`; base path
  // from the leaf up, then one sub element, then one top element. Throws
  // std::out_of_range for leaf >= leaf_count().
  MerkleProof proof(uint64_t leaf) const;

 private:
  TreeShape shape_;
  size_t base_height_ = 0;
  std::vector<size_t> arity_;            // arity_[h]: children per node of level h+1
  std::vector<std::vector<Fr>> levels_;  // [0] = leaves, back() = {root}
};

// Recomputes the root from proof.leaf and its path and compares it with
// proof.root. With `shape`, also requires its arities (and presence of the
// sub/top elements). check_ throws std::invalid_argument naming the problem
// (including non-canonical domain elements); verify_ returns false instead.
void check_poseidon_proof(const MerkleProof& proof, const TreeShape* shape = nullptr);
bool verify_poseidon_proof(const MerkleProof& proof, const TreeShape* shape = nullptr);

// The leaf index the path encodes: the indices read as mixed-radix digits,
// base levels first, then sub, then top (for power-of-two arities, the
// concatenated little-endian index bits of §2.2).
uint64_t merkle_proof_leaf_index(const MerkleProof& proof);

}  // namespace cuzk::filecoin
