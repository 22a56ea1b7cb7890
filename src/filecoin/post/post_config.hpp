#pragma once
// Registered PoSt proofs (rust-filecoin-proofs-api registry.rs, docs/FILECOIN.md
// §5.2, §7.11, §7.12): WinningPoSt and WindowPoSt over the fallback PoSt
// circuit. Ids as Curio sends them in `registered_proof`:
//   0-4   StackedDrgWinning{2KiB,8MiB,512MiB,32GiB,64GiB}V1   (ApiVersion 1.0)
//   5-9   StackedDrgWindow{...}V1                              (ApiVersion 1.0)
//   10-14 StackedDrgWindow{...}V1_1, proved as V1_2            (ApiVersion 1.2: leaf index n)
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "filecoin/common/registered_proof.hpp"

namespace cuzk::filecoin {

enum class PostKind { Winning, Window };

struct PostConfig {
  uint64_t id = 0;
  std::string_view name;  // "StackedDrgWindow2KiBV1_1"
  PostKind kind = PostKind::Winning;
  uint64_t sector_size = 0;    // bytes
  uint64_t nodes = 0;          // sector_size / 32: TreeR leaves
  TreeShape shape;             // TreeR
  size_t challenge_count = 0;  // leaf challenges per sector: Winning 1, Window 10
  size_t sector_count = 0;     // sector slots per partition: Winning 66, Window 2 / 2349 / 2300
  ApiVersion api = ApiVersion::V1_0_0;
  // The partition circuit's rows, constraints + inputs (docs/FILECOIN.md
  // §1.2), for the registered proofs.
  uint64_t partition_rows = 0;

  // Its public inputs: ONE, then comm_r and the challenged leaves of every
  // sector slot.
  size_t partition_inputs() const { return 1 + sector_count * (1 + challenge_count); }
};

// WinningPoSt proves one sector: its 66 challenges fill the 66 one-challenge slots.
inline constexpr size_t kWinningPostChallenges = 66;
inline constexpr size_t kWinningPostSectorCount = 1;

std::optional<PostConfig> post_config(uint64_t registered_proof);
// "winning-post-2k", "window-post-32g": the engine's circuit ids. Window V1
// and V1_1 share a circuit (and parameter file).
std::string post_circuit_id(const PostConfig& c);
std::optional<PostConfig> post_config_for_circuit_id(std::string_view id);

// FallbackPoSt::PublicParams{sector_size: .., challenge_count: .., sector_count: ..}
std::string post_parameter_identifier(const PostConfig& c);
// v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-<shape>-<sha256(identifier)>
std::string post_parameter_stem(const PostConfig& c);

}  // namespace cuzk::filecoin
