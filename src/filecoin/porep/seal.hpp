#pragma once
// Sealing a test sector end to end (docs/FILECOIN.md §7): data → TreeD (comm_d)
// → replica_id → SDR labels → TreeC / TreeR (comm_c, comm_r_last, comm_r),
// then the commit phase 1 output: the challenges of every partition and
// their vanilla proofs (SealCommitPhase1Output, what c1.json carries).
// Everything stays in memory, so this is for test sizes (2 KiB, 8 MiB; any
// size the memory allows: ~(layers + 3) × sector size).
#include <cstdint>
#include <string>
#include <vector>

#include "filecoin/common/registered_proof.hpp"
#include "filecoin/porep/vanilla.hpp"
#include "filecoin/sdr/parent_cache.hpp"
#include "filecoin/tree/commitments.hpp"
#include "filecoin/tree/tree_d.hpp"

namespace cuzk::filecoin {

struct SealInputs {
  PorepConfig config;
  // The sector's fr32-padded bytes (config.sector_size of them); empty means
  // a committed-capacity (all-zero) sector.
  std::vector<uint8_t> padded_data;
  uint64_t miner_id = 1000;  // actor id of f0<miner_id>
  uint64_t sector_num = 1;
  Domain ticket{};
};

// The state after PreCommit: what commit phase 1 reads.
struct SealedSector {
  PorepConfig config;
  uint64_t sector_num = 0;
  Domain prover_id{}, ticket{}, replica_id{};
  Domain comm_d{}, comm_c{}, comm_r_last{}, comm_r{};
  ParentCache parents;
  std::vector<std::vector<Domain>> labels;  // [layer - 1][node]
  TreeD tree_d;
  ReplicaTrees trees;
};

// PreCommit 1 + 2. Throws std::invalid_argument for data of the wrong size
// or with a node that is not a valid fr32 element.
SealedSector seal_precommit(const SealInputs& in);

// The vanilla proof of one challenged node.
StackedProof vanilla_proof(const SealedSector& s, uint64_t challenge);

// Commit phase 1 (rust-fil-proofs seal_commit_phase1): every partition's
// challenges and their vanilla proofs, [partition][challenge], with comm_r,
// comm_d, replica_id, seed and ticket. The challenges follow the config's mode
// (docs/FILECOIN.md §7.4):
// - interactive: from replica_id and the seed;
// - synthetic: upstream proves all min(nodes, 2^18) synthetic challenges once
//   after PreCommit (generate_synth_proofs, kept on disk) and commit phase 1
//   copies out the ones the seed selects; this proves the selected challenges
//   directly, which gives the same proofs (a vanilla proof depends on its node
//   only). The C1 carries the real seed;
// - NI-PoRep: from replica_id and comm_r, 13 / 126 partitions; the seed is
//   carried but selects nothing.
SealCommitPhase1Output seal_commit_phase1(const SealedSector& s, const Domain& seed);

// Reads sector data for `config`: a file of sector_size bytes is taken as
// fr32-padded (checked), one of sector_size·127/128 bytes is padded here.
// Anything else throws std::invalid_argument naming the sizes.
std::vector<uint8_t> load_sector_data(const PorepConfig& config, const std::string& path);

}  // namespace cuzk::filecoin
