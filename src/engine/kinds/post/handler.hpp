#pragma once
// WINNING_POST and WINDOW_POST_PARTITION jobs (docs/FILECOIN.md §7.11-7.12): the
// request carries one bincode FallbackPoStSectorProof per sector
// (WinningPoSt: the one challenged sector with its 66 openings; WindowPoSt:
// the sectors of partition `partition_index`), the 32-byte randomness (byte
// 31 masked) and the registered PoSt proof (0-4 Winning, 5-14 Window). Each
// request is one partition: one fallback PoSt circuit, one 192-byte proof,
// self-checked against public inputs recomputed from (randomness, sector
// ids, comm_r).
//
// Circuit ids winning-post-<size> and window-post-<size> (2k, 8m, 512m,
// 32g, 64g); parameters under their published names
// (v28-proof-of-spacetime-fallback-…), or made by `cuzk setup`.
#include <string>

#include "engine/circuit_table.hpp"
#include "engine/kinds/post/spec.hpp"

namespace cuzk::engine {

class PostHandler final : public CircuitTableHandler {
 public:
  // kind: ProofKind::WinningPost or ProofKind::WindowPostPartition (its spec:
  // the registered proofs it serves, kinds/post/spec.hpp).
  PostHandler(ProofKind kind, std::string param_dir);

  // Parses every vanilla proof and checks it completely (counts, shapes,
  // paths hashed to comm_r_last, comm_r, the challenged leaves), naming the
  // sector and field of whatever is wrong.
  std::unique_ptr<PreparedJob> prepare(ProofRequest& req) override;
};

}  // namespace cuzk::engine
