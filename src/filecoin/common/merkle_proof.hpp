#pragma once
// A vanilla Merkle inclusion proof as rust-fil-proofs serializes it
// (docs/FILECOIN.md §6): the leaf, the root and the path from leaf to root,
// split into base, sub and top levels for compound trees. Plain data shared by
// the trees that build it (tree/), the formats that carry it (c1.json,
// bincode) and the circuits that open it (PoRep, PoSt, SnapDeals).
#include <cstdint>
#include <vector>

#include "filecoin/common/domain.hpp"

namespace cuzk::filecoin {

// One level of a Merkle path: the arity-1 siblings in tree order with the
// node left out, and the node's position among its arity children.
struct MerklePathElement {
  std::vector<Domain> hashes;
  uint64_t index = 0;
};

// serde's MerkleProof { data: Single | Sub | Top }.
enum class MerkleProofShape { Single, Sub, Top };

struct MerkleProof {
  MerkleProofShape shape = MerkleProofShape::Single;
  Domain root{}, leaf{};
  std::vector<MerklePathElement> base;  // leaf to root
  std::vector<MerklePathElement> sub;   // one element for Sub and Top
  std::vector<MerklePathElement> top;   // one element for Top
};

}  // namespace cuzk::filecoin
