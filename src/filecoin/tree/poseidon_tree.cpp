#include "filecoin/tree/poseidon_tree.hpp"

#include <tbb/parallel_for.h>

#include <stdexcept>
#include <string>

#include "filecoin/common/domain.hpp"
#include "filecoin/hash/poseidon.hpp"

namespace cuzk::filecoin {

namespace {

bool tree_arity_ok(size_t a) { return a >= 2 && a <= 16 && !(a & (a - 1)); }

std::string shape_text(const TreeShape& s) {
  return std::to_string(s.base_arity) + "-" + std::to_string(s.sub_arity) + "-" + std::to_string(s.top_arity);
}

// One level up: parents of consecutive groups of `arity`, in parallel.
std::vector<Fr> hash_level(const std::vector<Fr>& below, size_t arity) {
  const auto& c = poseidon_constants(arity);
  const Fr tag = poseidon_tag_merkle_tree(arity);
  std::vector<Fr> up(below.size() / arity);
  tbb::parallel_for(tbb::blocked_range<size_t>(0, up.size(), 64), [&](const tbb::blocked_range<size_t>& r) {
    for (size_t i = r.begin(); i != r.end(); i++)
      up[i] = poseidon_hash(c, std::span<const Fr>(below.data() + i * arity, arity), tag);
  });
  return up;
}

}  // namespace

Fr poseidon_tree_node(std::span<const Fr> children) { return poseidon_hash(children); }

void validate_tree_shape(const TreeShape& s, uint64_t leaves) {
  if (!tree_arity_ok(s.base_arity) || (s.sub_arity && !tree_arity_ok(s.sub_arity)) ||
      (s.top_arity && !tree_arity_ok(s.top_arity)))
    throw std::invalid_argument("tree shape " + shape_text(s) + ": arities must be powers of two in 2..16");
  if (s.top_arity && !s.sub_arity)
    throw std::invalid_argument("tree shape " + shape_text(s) + ": a top level needs a sub level");
  const uint64_t count = s.base_tree_count();
  if (leaves == 0 || leaves % count != 0)
    throw std::invalid_argument("tree shape " + shape_text(s) + ": " + std::to_string(leaves) +
                                " leaves do not split into " + std::to_string(count) + " base trees");
  uint64_t per = leaves / count;
  size_t height = 0;
  while (per % s.base_arity == 0) per /= s.base_arity, height++;
  if (per != 1 || height == 0)
    throw std::invalid_argument("tree shape " + shape_text(s) + ": base trees of " +
                                std::to_string(leaves / count) + " leaves are not a power (>= 1) of " +
                                std::to_string(s.base_arity));
}

PoseidonTree::PoseidonTree(std::vector<Fr> leaves, const TreeShape& shape) : shape_(shape) {
  validate_tree_shape(shape, leaves.size());
  for (uint64_t per = leaves.size() / shape.base_tree_count(); per > 1; per /= shape.base_arity) {
    arity_.push_back(shape.base_arity);
    base_height_++;
  }
  if (shape.sub_arity) arity_.push_back(shape.sub_arity);
  if (shape.top_arity) arity_.push_back(shape.top_arity);
  levels_.push_back(std::move(leaves));
  for (size_t a : arity_) levels_.push_back(hash_level(levels_.back(), a));
}

Domain PoseidonTree::root_domain() const { return fr_to_domain(root()); }

MerkleProof PoseidonTree::proof(uint64_t leaf) const {
  if (leaf >= leaf_count())
    throw std::out_of_range("PoseidonTree::proof: leaf " + std::to_string(leaf) +
                            " >= " + std::to_string(leaf_count()));
  MerkleProof p;
  p.shape = shape_.top_arity   ? MerkleProofShape::Top
            : shape_.sub_arity ? MerkleProofShape::Sub
                               : MerkleProofShape::Single;
  p.leaf = fr_to_domain(levels_[0][leaf]);
  p.root = root_domain();
  uint64_t idx = leaf;
  for (size_t h = 0; h < arity_.size(); h++) {
    const size_t a = arity_[h];
    const uint64_t first = idx / a * a;
    MerklePathElement e;
    e.index = idx % a;
    for (size_t k = 0; k < a; k++)
      if (first + k != idx) e.hashes.push_back(fr_to_domain(levels_[h][first + k]));
    auto& part = h < base_height_ ? p.base : h == base_height_ && shape_.sub_arity ? p.sub : p.top;
    part.push_back(std::move(e));
    idx /= a;
  }
  return p;
}

void check_poseidon_proof(const MerkleProof& p, const TreeShape* shape) {
  const size_t want_sub = p.shape == MerkleProofShape::Single ? 0 : 1;
  const size_t want_top = p.shape == MerkleProofShape::Top ? 1 : 0;
  if (p.sub.size() != want_sub || p.top.size() != want_top)
    throw std::invalid_argument("Poseidon proof: " + std::to_string(p.sub.size()) + " sub and " +
                                std::to_string(p.top.size()) + " top elements do not fit its shape");
  if (p.base.empty()) throw std::invalid_argument("Poseidon proof: empty base path");
  if (shape) {
    if (bool(shape->sub_arity) != bool(want_sub) || bool(shape->top_arity) != bool(want_top))
      throw std::invalid_argument("Poseidon proof: Single/Sub/Top does not match the tree shape " +
                                  shape_text(*shape));
  }
  Fr cur = domain_to_fr(p.leaf);
  auto climb = [&](const std::vector<MerklePathElement>& path, const char* part, size_t want_arity) {
    for (size_t h = 0; h < path.size(); h++) {
      const MerklePathElement& e = path[h];
      const size_t a = e.hashes.size() + 1;
      const std::string where = std::string("Poseidon proof: ") + part + " level " + std::to_string(h);
      if (!tree_arity_ok(a))
        throw std::invalid_argument(where + ": arity " + std::to_string(a) + " unsupported");
      if (want_arity && a != want_arity)
        throw std::invalid_argument(where + ": arity " + std::to_string(a) + ", the shape says " +
                                    std::to_string(want_arity));
      if (e.index >= a)
        throw std::invalid_argument(where + ": index " + std::to_string(e.index) + " >= arity " +
                                    std::to_string(a));
      Fr children[16];
      for (size_t k = 0, s = 0; k < a; k++) children[k] = k == e.index ? cur : domain_to_fr(e.hashes[s++]);
      cur = poseidon_tree_node(std::span<const Fr>(children, a));
    }
  };
  climb(p.base, "base", shape ? shape->base_arity : 0);
  climb(p.sub, "sub", shape ? shape->sub_arity : 0);
  climb(p.top, "top", shape ? shape->top_arity : 0);
  if (cur != domain_to_fr(p.root))
    throw std::invalid_argument("Poseidon proof: the path does not lead to the root");
}

bool verify_poseidon_proof(const MerkleProof& p, const TreeShape* shape) {
  try {
    check_poseidon_proof(p, shape);
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

uint64_t merkle_proof_leaf_index(const MerkleProof& p) {
  uint64_t index = 0, scale = 1;
  for (const auto* path : {&p.base, &p.sub, &p.top})
    for (const MerklePathElement& e : *path) {
      index += e.index * scale;
      scale *= e.hashes.size() + 1;
    }
  return index;
}

}  // namespace cuzk::filecoin
