#pragma once
// Merkle inclusion proofs (storage-proofs-core gadgets/por.rs PoRCircuit)
// for compound trees: base levels of one arity, then optionally one sub-tree
// level and one top-tree level. Per level: index bits, the siblings, insert,
// then the level hash. Finally the concatenated index bits are packed into
// public inputs and the computed root is equated to the given one (made
// public unless `private_root`). For Poseidon 8-ary levels that is
// 3 + 22 + 505 = 530 constraints per level.
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "gadgets/num.hpp"
#include "gadgets/poseidon_constants.hpp"

namespace cuzk::gadgets {

struct MerklePathLevel {
  std::vector<std::optional<Fr>> siblings;  // arity - 1, in tree order without the node
  std::optional<size_t> index;              // the node's position among its arity siblings
};

struct MerkleAuthPath {
  size_t base_arity = 2, sub_arity = 0, top_arity = 0;  // 0: no such level
  std::vector<MerklePathLevel> base, sub, top;          // sub/top hold one level when present

  // Without witness values, for a tree of `leaves` leaves (circuit shapes).
  static MerkleAuthPath blank(size_t base_arity, size_t sub_arity, size_t top_arity, size_t leaves);
};

// A root or leaf: already allocated (Root::Var) or a value to allocate (Root::Val).
struct PorValue {
  std::optional<AllocatedNum> var;
  std::optional<Fr> val;
};

// Hash of one level's `arity` children, `height` counting from the leaves.
using LevelHash = r1cs::FnRef<AllocatedNum(ConstraintSystem&, std::span<const AllocatedNum>, size_t)>;

// PoRCircuit::synthesize: "value", "base"/"sub"/"top", "path", "root_value",
// "enforce root is correct", and "root" when public.
void por_circuit(ConstraintSystem& cs, const PorValue& value, const MerkleAuthPath& path,
                 const PorValue& root, bool private_root, LevelHash hash);

// The Poseidon level hash (filecoin-hashers hash_multi_leaf_circuit):
// MerkleTree tag, constants for each arity from `constants`.
using PoseidonConstantsFor = const PoseidonConstants& (*)(size_t arity);
void por_poseidon(ConstraintSystem& cs, const PorValue& value, const MerkleAuthPath& path,
                  const PorValue& root, bool private_root, PoseidonConstantsFor constants);

// Binary SHA-256 trees (TreeD): levels hashed by sha256_hash_leaves,
// 1 + 2 + 45,379 = 45,382 constraints per level.
void por_sha256(ConstraintSystem& cs, const PorValue& value, const MerkleAuthPath& path, const PorValue& root,
                bool private_root);

}  // namespace cuzk::gadgets
