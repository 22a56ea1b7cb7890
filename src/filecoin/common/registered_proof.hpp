#pragma once
// Registered PoRep proofs (rust-filecoin-proofs-api registry.rs,
// docs/FILECOIN.md §2.1 and §7.1): the sector geometry, tree shapes, layer and
// challenge counts and the porep_id every other part of sealing and proving
// derives from.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cuzk::filecoin {

enum class ApiVersion { V1_0_0, V1_1_0, V1_2_0 };

// Registered seal proof ids 0..19 (StackedDrg<size>{V1, V1_1,
// V1_1_Feat_SyntheticPoRep, V1_2_Feat_NonInteractivePoRep}).
enum class RegisteredSealProof : uint64_t {
  StackedDrg2KiBV1 = 0,
  StackedDrg8MiBV1,
  StackedDrg512MiBV1,
  StackedDrg32GiBV1,
  StackedDrg64GiBV1,
  StackedDrg2KiBV1_1 = 5,
  StackedDrg8MiBV1_1,
  StackedDrg512MiBV1_1,
  StackedDrg32GiBV1_1,
  StackedDrg64GiBV1_1,
  StackedDrg2KiBV1_1_Feat_SyntheticPoRep = 10,
  StackedDrg8MiBV1_1_Feat_SyntheticPoRep,
  StackedDrg512MiBV1_1_Feat_SyntheticPoRep,
  StackedDrg32GiBV1_1_Feat_SyntheticPoRep,
  StackedDrg64GiBV1_1_Feat_SyntheticPoRep,
  StackedDrg2KiBV1_2_Feat_NonInteractivePoRep = 15,
  StackedDrg8MiBV1_2_Feat_NonInteractivePoRep,
  StackedDrg512MiBV1_2_Feat_NonInteractivePoRep,
  StackedDrg32GiBV1_2_Feat_NonInteractivePoRep,
  StackedDrg64GiBV1_2_Feat_NonInteractivePoRep,
};

enum class ChallengeMode { Interactive, Synthetic, NonInteractive };

// Merkle tree shape of TreeR/TreeC: base arity, then optional sub and top
// levels (0 = absent). TreeD is always binary.
struct TreeShape {
  size_t base_arity = 8, sub_arity = 0, top_arity = 0;
  size_t base_tree_count() const { return (sub_arity ? sub_arity : 1) * (top_arity ? top_arity : 1); }
};

using PorepId = std::array<uint8_t, 32>;

// Everything the StackedDRG construction needs about one proof type.
struct PorepConfig {
  RegisteredSealProof id;
  std::string_view name;      // "StackedDrg2KiBV1_1", the serde variant name
  std::string_view size_tag;  // "2KiB", used by VanillaSealProof's "StackedDrg2KiBV1" tag
  uint64_t sector_size = 0;   // bytes
  uint64_t nodes = 0;         // sector_size / 32
  TreeShape shape;            // TreeR / TreeC
  size_t layers = 0;          // SDR layers
  size_t partitions = 0;
  size_t challenges_per_partition = 0;  // interactive / synthetic
  // One partition circuit's rows, constraints + inputs (docs/FILECOIN.md
  // §1.2): what a prover's working set grows with.
  uint64_t partition_rows = 0;
  ApiVersion api = ApiVersion::V1_1_0;
  ChallengeMode mode = ChallengeMode::Interactive;
  // Set by porep_config_with_id: a porep_id other than the registered one.
  std::optional<PorepId> explicit_porep_id;

  // u64_le(id) ‖ u64_le(nonce 0) ‖ 0^16, or explicit_porep_id when set.
  PorepId porep_id() const;
  size_t total_challenges() const { return partitions * challenges_per_partition; }
  // A partition circuit's public inputs: ONE, replica_id, comm_d, comm_r and
  // 18 per challenge (its verifying key has one IC point each).
  size_t partition_inputs() const { return 4 + 18 * challenges_per_partition; }
  // log2(nodes): depth of TreeD.
  size_t tree_d_depth() const;
};

// The config of a registered proof id; nullopt for unknown ids.
std::optional<PorepConfig> porep_config(uint64_t registered_proof_id);
// By serde name ("StackedDrg32GiBV1_1"); nullopt when unknown.
std::optional<PorepConfig> porep_config(std::string_view name);

// Upstream's lower-level PoRepConfig {sector_size, partitions, porep_id,
// api_version, api_features}: the geometry, partitions and challenge mode of
// `proof` with an explicit porep_id and API version, so that proofs of test
// networks (porep_id [127; 32], ...) and of other implementations can be
// checked. The porep_id changes the SDR graph's seeds and replica_id; the
// version changes the graph's parent placement (1.0 against 1.1 and later).
// Throws std::invalid_argument when the porep_id's first 8 bytes name a
// registered proof of another sector size, or when the version is below
// 1.2 for a synthetic or NI-PoRep proof (upstream's ApiFeature minimum).
PorepConfig porep_config_with_id(const PorepConfig& proof, const PorepId& porep_id, ApiVersion api);
// "1.0", "1.1", "1.2" or with the patch ".0"; nullopt otherwise.
std::optional<ApiVersion> parse_api_version(std::string_view text);
std::string_view api_version_text(ApiVersion v);  // "1.0.0", "1.1.0", "1.2.0"
// The default (V1_1) proof for a sector size in bytes; nullopt when none.
std::optional<PorepConfig> porep_config_for_size(uint64_t sector_size);

// Circuit ids of the daemon and CLI: "porep-2k", "porep-8m", "porep-512m",
// "porep-32g", "porep-64g" (one circuit per size, shared by all versions).
std::string porep_circuit_id(const PorepConfig& cfg);
// The V1_1 config of a circuit id; nullopt when unknown.
std::optional<PorepConfig> porep_config_for_circuit_id(std::string_view id);

// "2KiB", "8MiB", "32GiB" ... <-> bytes. parse returns nullopt on bad text.
std::optional<uint64_t> parse_sector_size(std::string_view text);
std::string format_sector_size(uint64_t bytes);

}  // namespace cuzk::filecoin
