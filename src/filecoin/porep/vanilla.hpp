#pragma once
// PoRep vanilla proofs as rust-fil-proofs builds them and c1.json carries
// them (docs/FILECOIN.md §6): Merkle inclusion proofs, column proofs, labeling
// and encoding proofs, one StackedProof per challenge, and the
// SealCommitPhase1Output that C2 consumes. Plain data; sealing (sdr/, tree/)
// produces it, c1_json reads and writes it, the circuit consumes it.
#include <cstdint>
#include <vector>

#include "filecoin/hash/sha256.hpp"
#include "filecoin/porep/registered_proof.hpp"

namespace cuzk::filecoin {

// A 32-byte domain element: a trimmed SHA-256 digest (TreeD) or the
// canonical little-endian encoding of an Fr (Poseidon trees, labels).
using Domain = Digest32;

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

struct Column {
  uint32_t index = 0;
  std::vector<Domain> rows;  // one label per layer, layer 1 first
};

struct ColumnProof {
  Column column;
  MerkleProof inclusion_proof;  // in TreeC
};

struct ReplicaColumnProof {
  ColumnProof c_x;
  std::vector<ColumnProof> drg_parents;  // 6
  std::vector<ColumnProof> exp_parents;  // 8
};

// Labeling (and encoding) proof: the 37 parent labels exactly as hashed.
struct LabelingProof {
  std::vector<Domain> parents;
  uint32_t layer_index = 0;
  uint64_t node = 0;
};

struct StackedProof {
  MerkleProof comm_d_proofs;      // TreeD, Single
  MerkleProof comm_r_last_proof;  // TreeR
  ReplicaColumnProof replica_column_proofs;
  std::vector<LabelingProof> labeling_proofs;  // one per layer
  LabelingProof encoding_proof;                // layer_index = layers
};

// rust-filecoin-proofs-api SealCommitPhase1Output.
struct SealCommitPhase1Output {
  RegisteredSealProof registered_proof = RegisteredSealProof::StackedDrg2KiBV1_1;
  std::vector<std::vector<StackedProof>> vanilla_proofs;  // [partition][challenge]
  Domain comm_r{}, comm_d{}, replica_id{}, seed{}, ticket{};
};

// The Curio / lotus-bench wrapper {"SectorNum", "Phase1Out" (base64), "SectorSize"}.
struct C1Wrapper {
  int64_t sector_num = 0;
  uint64_t sector_size = 0;
  SealCommitPhase1Output phase1;
};

}  // namespace cuzk::filecoin
