#pragma once
// TreeD (docs/FILECOIN.md §7.8): the binary SHA-256 tree over the 32-byte
// fr32-padded data nodes, node = trim(SHA256(left ‖ right)); its root is
// comm_d. Kept in memory as one vector per level.
#include <cstdint>
#include <span>
#include <vector>

#include "filecoin/common/merkle_proof.hpp"

namespace cuzk::filecoin {

// trim(SHA256(left ‖ right)).
Domain tree_d_node(const Domain& left, const Domain& right);

class TreeD {
 public:
  // Throws std::invalid_argument unless leaves.size() is a power of two.
  explicit TreeD(std::vector<Domain> leaves);
  // From padded sector bytes (a power-of-two number of 32-byte nodes).
  static TreeD from_padded(std::span<const uint8_t> padded);

  const Domain& root() const { return levels_.back()[0]; }  // comm_d
  size_t leaf_count() const { return levels_[0].size(); }
  size_t height() const { return levels_.size() - 1; }  // path length
  const std::vector<Domain>& level(size_t h) const { return levels_.at(h); }

  // Single-shape proof: one element per level with one sibling and index 0/1.
  // Throws std::out_of_range for leaf >= leaf_count().
  MerkleProof proof(uint64_t leaf) const;

 private:
  std::vector<std::vector<Domain>> levels_;  // [0] = leaves, back() = {root}
};

// Recomputes the root from proof.leaf and the path and compares it with
// proof.root. check_ throws std::invalid_argument naming what is wrong
// (shape, sibling count, index, root mismatch); verify_ returns false instead.
void check_tree_d_proof(const MerkleProof& proof);
bool verify_tree_d_proof(const MerkleProof& proof);

// comm_d of an all-zero (CC) sector, one hash per level: every node of a
// level is the same. sector_size must be 32·2^k bytes (k >= 0).
Domain cc_comm_d(uint64_t sector_size);

}  // namespace cuzk::filecoin
