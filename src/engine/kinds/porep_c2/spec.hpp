#pragma once
// POREP_SEAL_COMMIT (PoRep C2): the C1 output in vanilla_proof; every
// partition is the StackedDRG circuit of filecoin/porep. The handler is
// kinds/porep_c2/handler.cpp (docs/FILECOIN.md §2, §6).
#include <memory>
#include <string>

#include "engine/kinds/kind_spec.hpp"

namespace cuzk::engine::kinds {

struct PorepC2 {
  static constexpr KindSpec spec{
      .value = ProofKind::PorepSealCommit,
      .name = "porep-c2",
      .wire_name = "POREP_SEAL_COMMIT",
      .label = "porep",
      .aliases = {"porep-c2", "seal-commit"},
      .default_priority = Priority::Normal,
      .reads = {Field::VanillaProof, Field::RegisteredProof, Field::SectorSize},
      .required = {},
      .registered_proofs = {true, 0, 19},
  };
  static std::unique_ptr<KindHandler> handler(const std::string& param_dir);
};

}  // namespace cuzk::engine::kinds
