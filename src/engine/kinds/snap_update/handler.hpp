#pragma once
// SNAP_DEALS_UPDATE jobs (docs/FILECOIN.md §7.11-7.12): the request carries one
// bincode PartitionProof per partition in `vanilla_proofs` (1, 4 or 16), the
// raw 32-byte comm_r_old, comm_r_new and comm_d_new, and the registered
// update proof (0-4: 2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB). Each partition
// is one EmptySectorUpdate circuit through the per-partition pipeline; the
// 192-byte proofs are assembled in partition order and self-checked against
// public inputs recomputed from the commitments.
//
// Circuit ids snap-<size> (2k, 8m, 512m, 32g, 64g); parameters under their
// published names (v28-empty-sector-update-…), or made by `cuzk setup`.
#include <string>

#include "engine/circuit_table.hpp"
#include "engine/kinds/snap_update/spec.hpp"

namespace cuzk::engine {

class SnapHandler final : public CircuitTableHandler {
 public:
  explicit SnapHandler(std::string param_dir);

  // Parses every partition proof and checks it completely (counts, shapes,
  // paths, roots against the commitments, challenges, encoding, apex
  // leaves), naming the partition and field of whatever is wrong.
  std::unique_ptr<PreparedJob> prepare(ProofRequest& req) override;
};

}  // namespace cuzk::engine
