#pragma once
// SnapDeals (EmptySectorUpdate) geometry (storage-proofs-update constants.rs,
// docs/FILECOIN.md §7.11): partitions, challenges and apex leaves per partition,
// the allowed `h` values and the TreeR shape, for the five registered update
// proofs (Curio's `registered_proof` 0-4: StackedDrg{2KiB,8MiB,512MiB,32GiB,
// 64GiB}V1) and for upstream's test sizes (1 KiB .. 32 KiB, 16 MiB).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "filecoin/common/registered_proof.hpp"

namespace cuzk::filecoin {

struct SnapConfig {
  uint64_t id = 0;             // registered update proof 0-4; UINT64_MAX for test sizes
  std::string_view name;       // "StackedDrg2KiBV1", "" for test sizes
  uint64_t sector_size = 0;    // bytes
  uint64_t nodes = 0;          // sector_size / 32, a power of two
  TreeShape shape;             // TreeR (old and new)
  size_t partitions = 0;       // 1, 2, 4 or 16
  size_t challenge_count = 0;  // per partition: 10 or 86
  size_t apex_leaf_count = 0;  // per partition: 8 or 128
  size_t h = 0;                // high bits of a node index that select rho (hs()[3])
  // One partition circuit's rows, constraints + inputs (docs/FILECOIN.md
  // §1.2), for the registered sizes; 0 for test sizes.
  uint64_t partition_rows = 0;
  // ONE, comm_r_old, comm_d_new, comm_r_new and k_and_h_select.
  static constexpr size_t kPartitionInputs = 5;

  size_t challenge_bits() const;  // log2(nodes): TreeD height
  size_t partition_bits() const;  // log2(partitions)
  size_t apex_bits() const;       // log2(apex_leaf_count)
  size_t random_bits() const { return challenge_bits() - partition_bits(); }
  // TreeD level of the apex leaves (counted from the data leaves).
  size_t apex_level() const { return random_bits() - apex_bits(); }
  // Fr::CAPACITY / random_bits challenges come from one digest.
  size_t challenges_per_digest() const { return 254 / random_bits(); }
  size_t digests_per_partition() const;
};

// The six h values a circuit accepts (its h_select bits pick one): [1; 6]
// up to 32 KiB, [7, 8, 9, 10, 11, 12] above.
std::array<size_t, 6> snap_hs(uint64_t nodes);
// 1 << (position of c.h in snap_hs); throws std::invalid_argument if absent.
uint64_t snap_h_select(const SnapConfig& c);
// The first public input: k | (h_select << partition_bits).
uint64_t snap_k_and_h_select(const SnapConfig& c, size_t k);

// Registered update proofs 0-4; nullopt otherwise.
std::optional<SnapConfig> snap_config(uint64_t registered_proof);
// Any size upstream allows (2^5 .. 2^10, 2^18, 2^19, 2^24, 2^30, 2^31 nodes)
// with upstream's TreeR shape for it (validate_tree_r_shape) and h = hs[3].
std::optional<SnapConfig> snap_config_for_nodes(uint64_t nodes);

// "snap-2k", "snap-8m", "snap-512m", "snap-32g", "snap-64g" (registered sizes).
std::string snap_circuit_id(const SnapConfig& c);
std::optional<SnapConfig> snap_config_for_circuit_id(std::string_view id);

// empty_sector_update::PublicParams{ sector_nodes: <n> }
std::string snap_parameter_identifier(const SnapConfig& c);
// v28-empty-sector-update-merkletree-poseidon_hasher-<shape>-<sha256(identifier)>
std::string snap_parameter_stem(const SnapConfig& c);

}  // namespace cuzk::filecoin
