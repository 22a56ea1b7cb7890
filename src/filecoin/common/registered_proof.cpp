#include "filecoin/common/registered_proof.hpp"

#include <bit>
#include <stdexcept>

namespace cuzk::filecoin {
namespace {

struct SizeRow {
  std::string_view tag;
  std::string_view circuit_id;
  uint64_t bytes;
  TreeShape shape;
  size_t layers, partitions, challenges;
  uint64_t rows;  // of one partition: constraints + inputs (docs/FILECOIN.md §1.2)
};

constexpr uint64_t KiB = 1024, MiB = KiB * 1024, GiB = MiB * 1024;

// docs/FILECOIN.md §2.1 (fp constants.rs: POREP_PARTITIONS, LAYERS, minimum
// challenges split per partition, MAX_CHALLENGES_PER_PARTITION = 18).
constexpr SizeRow kSizes[5] = {
    {"2KiB", "porep-2k", 2 * KiB, {8, 0, 0}, 2, 1, 2, 2'687'961},
    {"8MiB", "porep-8m", 8 * MiB, {8, 0, 0}, 2, 1, 2, 3'844'969},
    {"512MiB", "porep-512m", 512 * MiB, {8, 0, 0}, 2, 1, 2, 4'423'473},
    {"32GiB", "porep-32g", 32 * GiB, {8, 8, 0}, 11, 10, 18, 130'278'869},
    {"64GiB", "porep-64g", 64 * GiB, {8, 8, 2}, 11, 10, 18, 131'186'177},
};

constexpr std::string_view kNames[20] = {
    "StackedDrg2KiBV1",
    "StackedDrg8MiBV1",
    "StackedDrg512MiBV1",
    "StackedDrg32GiBV1",
    "StackedDrg64GiBV1",
    "StackedDrg2KiBV1_1",
    "StackedDrg8MiBV1_1",
    "StackedDrg512MiBV1_1",
    "StackedDrg32GiBV1_1",
    "StackedDrg64GiBV1_1",
    "StackedDrg2KiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg8MiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg512MiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg32GiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg64GiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep",
    "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep",
    "StackedDrg512MiBV1_2_Feat_NonInteractivePoRep",
    "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep",
    "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep",
};

}  // namespace

PorepId PorepConfig::porep_id() const {
  if (explicit_porep_id) return *explicit_porep_id;
  PorepId p{};
  uint64_t v = uint64_t(id);
  for (size_t i = 0; i < 8; i++) p[i] = uint8_t(v >> (8 * i));
  return p;  // nonce 0 and the zero tail
}

size_t PorepConfig::tree_d_depth() const { return size_t(std::countr_zero(nodes)); }

std::optional<PorepConfig> porep_config(uint64_t id) {
  if (id >= 20) return std::nullopt;
  const SizeRow& row = kSizes[id % 5];
  PorepConfig c;
  c.id = RegisteredSealProof(id);
  c.name = kNames[id];
  c.size_tag = row.tag;
  c.sector_size = row.bytes;
  c.nodes = row.bytes / 32;
  c.shape = row.shape;
  c.layers = row.layers;
  c.partitions = row.partitions;
  c.challenges_per_partition = row.challenges;
  c.partition_rows = row.rows;
  switch (id / 5) {
    case 0:
      c.api = ApiVersion::V1_0_0;
      c.mode = ChallengeMode::Interactive;
      break;
    case 1:
      c.api = ApiVersion::V1_1_0;
      c.mode = ChallengeMode::Interactive;
      break;
    case 2:
      c.api = ApiVersion::V1_2_0;
      c.mode = ChallengeMode::Synthetic;
      break;
    default:
      // NI-PoRep (fp constants.rs, parameters.rs select_challenges): at least
      // 26 challenges in 13 partitions for test sizes, 2253 in 126 for 32/64
      // GiB; per partition ceil(26/13) = 2 and ceil(2253/126) = 18, the counts
      // of the interactive circuits, whose parameter files it reuses.
      c.api = ApiVersion::V1_2_0;
      c.mode = ChallengeMode::NonInteractive;
      c.partitions = row.layers == 2 ? 13 : 126;
      break;
  }
  return c;
}

std::optional<PorepConfig> porep_config(std::string_view name) {
  for (uint64_t id = 0; id < 20; id++)
    if (kNames[id] == name) return porep_config(id);
  return std::nullopt;
}

PorepConfig porep_config_with_id(const PorepConfig& proof, const PorepId& porep_id, ApiVersion api) {
  uint64_t named = 0;
  for (size_t i = 0; i < 8; i++) named |= uint64_t(porep_id[i]) << (8 * i);
  // A porep_id that names a registered proof must name one of this size; any
  // other value (test networks use [127; 32], [128; 32], ...) is taken as is.
  if (auto other = porep_config(named); other && other->sector_size != proof.sector_size)
    throw std::invalid_argument("porep_id names registered proof " + std::to_string(named) + " (" +
                                std::string(other->name) + ", " + format_sector_size(other->sector_size) +
                                "), the proof is " + std::string(proof.name) + " (" +
                                format_sector_size(proof.sector_size) + ")");
  if (proof.mode != ChallengeMode::Interactive && api < ApiVersion::V1_2_0)
    throw std::invalid_argument(std::string(proof.name) + " needs API version 1.2.0 or later, got " +
                                std::string(api_version_text(api)));
  PorepConfig c = proof;
  c.explicit_porep_id = porep_id;
  c.api = api;
  return c;
}

std::optional<ApiVersion> parse_api_version(std::string_view text) {
  if (text == "1.0" || text == "1.0.0") return ApiVersion::V1_0_0;
  if (text == "1.1" || text == "1.1.0") return ApiVersion::V1_1_0;
  if (text == "1.2" || text == "1.2.0") return ApiVersion::V1_2_0;
  return std::nullopt;
}

std::string_view api_version_text(ApiVersion v) {
  switch (v) {
    case ApiVersion::V1_0_0: return "1.0.0";
    case ApiVersion::V1_1_0: return "1.1.0";
    case ApiVersion::V1_2_0: return "1.2.0";
  }
  return "?";
}

std::optional<PorepConfig> porep_config_for_size(uint64_t sector_size) {
  for (uint64_t i = 0; i < 5; i++)
    if (kSizes[i].bytes == sector_size) return porep_config(5 + i);
  return std::nullopt;
}

std::string porep_circuit_id(const PorepConfig& cfg) {
  for (const SizeRow& row : kSizes)
    if (row.bytes == cfg.sector_size) return std::string(row.circuit_id);
  return {};
}

std::optional<PorepConfig> porep_config_for_circuit_id(std::string_view id) {
  for (const SizeRow& row : kSizes)
    if (row.circuit_id == id) return porep_config_for_size(row.bytes);
  return std::nullopt;
}

std::optional<uint64_t> parse_sector_size(std::string_view text) {
  for (const SizeRow& row : kSizes)
    if (row.tag == text) return row.bytes;
  uint64_t v = 0;
  size_t i = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; i++) {
    if (v > (UINT64_MAX - 9) / 10) return std::nullopt;
    v = v * 10 + uint64_t(text[i] - '0');
  }
  if (i == 0) return std::nullopt;
  std::string_view unit = text.substr(i);
  uint64_t mul = 0;
  if (unit.empty() || unit == "B") mul = 1;
  else if (unit == "KiB") mul = KiB;
  else if (unit == "MiB") mul = MiB;
  else if (unit == "GiB") mul = GiB;
  else return std::nullopt;
  if (v > UINT64_MAX / mul) return std::nullopt;
  return v * mul;
}

std::string format_sector_size(uint64_t bytes) {
  if (bytes >= GiB && bytes % GiB == 0) return std::to_string(bytes / GiB) + "GiB";
  if (bytes >= MiB && bytes % MiB == 0) return std::to_string(bytes / MiB) + "MiB";
  if (bytes >= KiB && bytes % KiB == 0) return std::to_string(bytes / KiB) + "KiB";
  return std::to_string(bytes) + "B";
}

}  // namespace cuzk::filecoin
