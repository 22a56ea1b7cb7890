#pragma once
// PoRep vanilla proofs as rust-fil-proofs builds them and c1.json carries
// them (docs/FILECOIN.md §6): column proofs (over the Merkle proofs of
// common/merkle_proof.hpp), labeling and encoding proofs, one StackedProof
// per challenge, and the SealCommitPhase1Output that C2 consumes. Plain data;
// sealing (sdr/, tree/) produces it, c1_json reads and writes it, the circuit
// consumes it.
#include <cstdint>
#include <vector>

#include "filecoin/common/merkle_proof.hpp"
#include "filecoin/common/registered_proof.hpp"

namespace cuzk::filecoin {

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
