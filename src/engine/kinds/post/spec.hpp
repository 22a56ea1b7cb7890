#pragma once
// WINNING_POST and WINDOW_POST_PARTITION: one bincode FallbackPoStSectorProof
// per sector in vanilla_proofs and the randomness; each request is one
// partition, one fallback PoSt circuit. Both handlers are
// kinds/post/handler.cpp (docs/FILECOIN.md §7.11-7.12).
#include <memory>
#include <string>

#include "engine/kinds/kind_spec.hpp"

namespace cuzk::engine::kinds {

struct WindowPost {
  static constexpr KindSpec spec{
      .value = ProofKind::WindowPostPartition,
      .name = "window-post",
      .wire_name = "WINDOW_POST_PARTITION",
      .label = "wpost",
      .aliases = {"window-post", "windowpost"},
      .default_priority = Priority::High,
      .reads = {Field::VanillaProofs, Field::Randomness, Field::PartitionIndex, Field::RegisteredProof,
                Field::SectorSize},
      .required = {},
      .registered_proofs = {true, 5, 14},
  };
  static std::unique_ptr<KindHandler> handler(const std::string& param_dir);
};

struct WinningPost {
  static constexpr KindSpec spec{
      .value = ProofKind::WinningPost,
      .name = "winning-post",
      .wire_name = "WINNING_POST",
      .label = "winning",
      .aliases = {"winning-post", "winningpost"},
      .default_priority = Priority::Critical,
      .reads = {Field::VanillaProofs, Field::Randomness, Field::RegisteredProof, Field::SectorSize},
      .required = {},
      .registered_proofs = {true, 0, 4},
  };
  static std::unique_ptr<KindHandler> handler(const std::string& param_dir);
};

}  // namespace cuzk::engine::kinds
