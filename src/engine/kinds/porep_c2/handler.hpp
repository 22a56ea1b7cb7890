#pragma once
// POREP_SEAL_COMMIT jobs (PoRep C2): the request's vanilla_proof is the C1
// wrapper (or a raw c1.json); each partition is the StackedDRG circuit of
// filecoin/circuit synthesized from its vanilla proofs, proved with the
// split Groth16 prover, and the assembled proof is checked against public
// inputs recomputed from (replica_id, comm_d, comm_r, seed). Every registered
// proof 0-19 is served: interactive, synthetic (challenges selected from the
// synthetic set by the seed) and NI-PoRep (challenges from comm_r; the 13 /
// 126 partition proofs are returned, not upstream's SnarkPack aggregate).
//
// Circuit ids are porep-2k, porep-8m, porep-512m, porep-32g, porep-64g; the
// parameters are the files Filecoin names them by (docs/FILECOIN.md §5.2) in the
// parameter directory: v28-stacked-proof-of-replication-…-<hash>.params,
// whether downloaded or made by `cuzk setup --circuit porep-2k`.
#include <string>

#include "engine/circuit_table.hpp"
#include "engine/kinds/porep_c2/spec.hpp"

namespace cuzk::engine {

class PorepHandler final : public CircuitTableHandler {
 public:
  explicit PorepHandler(std::string param_dir);

  // Parses the C1 output and checks it completely (shapes, challenges, every
  // Merkle path, parent and label) before admission; a request's non-zero
  // registered_proof / sector_size must agree with it.
  std::unique_ptr<PreparedJob> prepare(ProofRequest& req) override;
};

}  // namespace cuzk::engine
