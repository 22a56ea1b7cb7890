#include "filecoin/tree/tree_d.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "filecoin/hash/sha256.hpp"

namespace cuzk::filecoin {

namespace {
bool is_pow2(uint64_t x) { return x && !(x & (x - 1)); }
}  // namespace

Domain tree_d_node(const Domain& left, const Domain& right) {
  uint8_t buf[64];
  std::copy(left.begin(), left.end(), buf);
  std::copy(right.begin(), right.end(), buf + 32);
  return sha256_trimmed(buf);
}

TreeD::TreeD(std::vector<Domain> leaves) {
  if (!is_pow2(leaves.size()))
    throw std::invalid_argument("TreeD: leaf count " + std::to_string(leaves.size()) +
                                " is not a power of two");
  levels_.push_back(std::move(leaves));
  while (levels_.back().size() > 1) {
    const std::vector<Domain>& below = levels_.back();
    std::vector<Domain> up(below.size() / 2);
    auto hash_range = [&](const tbb::blocked_range<size_t>& r) {
      for (size_t i = r.begin(); i != r.end(); i++) up[i] = tree_d_node(below[2 * i], below[2 * i + 1]);
    };
    tbb::parallel_for(tbb::blocked_range<size_t>(0, up.size(), 1024), hash_range);
    levels_.push_back(std::move(up));
  }
}

TreeD TreeD::from_padded(std::span<const uint8_t> padded) {
  if (padded.size() % 32 != 0)
    throw std::invalid_argument("TreeD: padded data size " + std::to_string(padded.size()) +
                                " is not a multiple of 32");
  std::vector<Domain> leaves(padded.size() / 32);
  for (size_t i = 0; i < leaves.size(); i++) std::copy_n(padded.data() + 32 * i, 32, leaves[i].begin());
  return TreeD(std::move(leaves));
}

MerkleProof TreeD::proof(uint64_t leaf) const {
  if (leaf >= leaf_count())
    throw std::out_of_range("TreeD::proof: leaf " + std::to_string(leaf) +
                            " >= " + std::to_string(leaf_count()));
  MerkleProof p;
  p.shape = MerkleProofShape::Single;
  p.leaf = levels_[0][leaf];
  p.root = root();
  uint64_t idx = leaf;
  for (size_t h = 0; h + 1 < levels_.size(); h++, idx /= 2)
    p.base.push_back(MerklePathElement{{levels_[h][idx ^ 1]}, idx & 1});
  return p;
}

void check_tree_d_proof(const MerkleProof& p) {
  if (p.shape != MerkleProofShape::Single || !p.sub.empty() || !p.top.empty())
    throw std::invalid_argument("TreeD proof: not a Single-shape proof");
  Domain cur = p.leaf;
  for (size_t h = 0; h < p.base.size(); h++) {
    const MerklePathElement& e = p.base[h];
    if (e.hashes.size() != 1)
      throw std::invalid_argument("TreeD proof: level " + std::to_string(h) + " has " +
                                  std::to_string(e.hashes.size()) + " siblings, expected 1");
    if (e.index > 1)
      throw std::invalid_argument("TreeD proof: level " + std::to_string(h) + " index " +
                                  std::to_string(e.index) + " is not 0 or 1");
    cur = e.index == 0 ? tree_d_node(cur, e.hashes[0]) : tree_d_node(e.hashes[0], cur);
  }
  if (cur != p.root) throw std::invalid_argument("TreeD proof: the path does not lead to the root");
}

bool verify_tree_d_proof(const MerkleProof& p) {
  try {
    check_tree_d_proof(p);
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

Domain cc_comm_d(uint64_t sector_size) {
  if (sector_size < 32 || sector_size % 32 != 0 || !is_pow2(sector_size / 32))
    throw std::invalid_argument("cc_comm_d: sector size " + std::to_string(sector_size) +
                                " is not 32·2^k bytes");
  Domain node{};  // fr32 padding of zeros is zeros
  for (uint64_t n = sector_size / 32; n > 1; n /= 2) node = tree_d_node(node, node);
  return node;
}

}  // namespace cuzk::filecoin
