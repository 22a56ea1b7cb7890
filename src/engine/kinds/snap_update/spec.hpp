#pragma once
// SNAP_DEALS_UPDATE: one bincode PartitionProof per partition in
// vanilla_proofs and the three commitments; every partition is one
// EmptySectorUpdate circuit. The handler is kinds/snap_update/handler.cpp
// (docs/FILECOIN.md §7.11-7.12).
#include <memory>
#include <string>

#include "engine/kinds/kind_spec.hpp"

namespace cuzk::engine::kinds {

struct SnapUpdate {
  static constexpr KindSpec spec{
      .value = ProofKind::SnapDealsUpdate,
      .name = "snap-update",
      .wire_name = "SNAP_DEALS_UPDATE",
      .label = "snap",
      .aliases = {"snap-update", "snap-deals", "update"},
      .default_priority = Priority::Normal,
      .reads = {Field::VanillaProofs, Field::CommROld, Field::CommRNew, Field::CommDNew,
                Field::RegisteredProof, Field::SectorSize},
      .required = {},
      .registered_proofs = {true, 0, 4},
  };
  static std::unique_ptr<KindHandler> handler(const std::string& param_dir);
};

}  // namespace cuzk::engine::kinds
