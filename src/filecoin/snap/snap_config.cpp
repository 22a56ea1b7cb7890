#include "filecoin/snap/snap_config.hpp"

#include <stdexcept>

#include "filecoin/common/param_names.hpp"

namespace cuzk::filecoin {
namespace {

size_t log2_exact(uint64_t n) { return size_t(__builtin_ctzll(n)); }

struct SizeRow {
  uint64_t nodes;
  TreeShape shape;
  const char* name;  // registered update proof, or nullptr for test sizes
  const char* short_tag;
  uint64_t rows;  // of one partition, constraints + inputs (docs/FILECOIN.md §1.2); 0: not listed
};
// Upstream's ALLOWED_SECTOR_SIZES with their TreeR shapes; the registered
// ones in id order.
constexpr std::array<SizeRow, 11> kSizes{{
    {1ull << 6, {8, 0, 0}, "StackedDrg2KiBV1", "2k", 1'705'044},
    {1ull << 18, {8, 0, 0}, "StackedDrg8MiBV1", "8m", 10'007'508},
    {1ull << 24, {8, 0, 0}, "StackedDrg512MiBV1", "512m", 57'450'484},
    {1ull << 30, {8, 8, 0}, "StackedDrg32GiBV1", "32g", 81'049'504},
    {1ull << 31, {8, 8, 2}, "StackedDrg64GiBV1", "64g", 85'006'106},
    {1ull << 5, {8, 4, 0}, nullptr, nullptr, 0},
    {1ull << 7, {8, 2, 0}, nullptr, nullptr, 0},
    {1ull << 8, {8, 4, 0}, nullptr, nullptr, 0},
    {1ull << 9, {8, 8, 0}, nullptr, nullptr, 0},
    {1ull << 10, {8, 8, 2}, nullptr, nullptr, 0},
    {1ull << 19, {8, 2, 0}, nullptr, nullptr, 0},
}};

constexpr uint64_t k8KiB = 1ull << 8, k32KiB = 1ull << 10, k16MiB = 1ull << 19;

SnapConfig make(const SizeRow& row, uint64_t id) {
  SnapConfig c;
  c.id = id;
  c.name = row.name ? row.name : "";
  c.nodes = row.nodes;
  c.sector_size = row.nodes * 32;
  c.shape = row.shape;
  c.partitions = row.nodes <= k8KiB ? 1 : row.nodes <= k32KiB ? 2 : row.nodes <= k16MiB ? 4 : 16;
  c.challenge_count = row.nodes <= k16MiB ? 10 : 86;
  c.apex_leaf_count = row.nodes <= k8KiB ? 8 : 128;
  c.h = snap_hs(row.nodes)[3];  // h_default
  c.partition_rows = row.rows;
  return c;
}

}  // namespace

size_t SnapConfig::challenge_bits() const { return log2_exact(nodes); }
size_t SnapConfig::partition_bits() const { return log2_exact(partitions); }
size_t SnapConfig::apex_bits() const { return log2_exact(apex_leaf_count); }
size_t SnapConfig::digests_per_partition() const {
  return (challenge_count + challenges_per_digest() - 1) / challenges_per_digest();
}

std::array<size_t, 6> snap_hs(uint64_t nodes) {
  if (nodes <= k32KiB) return {1, 1, 1, 1, 1, 1};
  return {7, 8, 9, 10, 11, 12};
}

uint64_t snap_h_select(const SnapConfig& c) {
  const auto hs = snap_hs(c.nodes);
  for (size_t i = 0; i < hs.size(); i++)
    if (hs[i] == c.h) return uint64_t(1) << i;
  throw std::invalid_argument("h = " + std::to_string(c.h) + " is not allowed for " +
                              std::to_string(c.nodes) + " nodes");
}

uint64_t snap_k_and_h_select(const SnapConfig& c, size_t k) {
  if (k >= c.partitions)
    throw std::invalid_argument("partition " + std::to_string(k) + " of " + std::to_string(c.partitions));
  return uint64_t(k) | (snap_h_select(c) << c.partition_bits());
}

std::optional<SnapConfig> snap_config(uint64_t id) {
  if (id >= 5) return std::nullopt;
  return make(kSizes[id], id);
}

std::optional<SnapConfig> snap_config_for_nodes(uint64_t nodes) {
  for (size_t i = 0; i < kSizes.size(); i++)
    if (kSizes[i].nodes == nodes) return make(kSizes[i], i < 5 ? i : UINT64_MAX);
  return std::nullopt;
}

std::string snap_circuit_id(const SnapConfig& c) {
  for (const auto& row : kSizes)
    if (row.nodes == c.nodes && row.short_tag) return std::string("snap-") + row.short_tag;
  return "snap-test-" + std::to_string(c.nodes);
}

std::optional<SnapConfig> snap_config_for_circuit_id(std::string_view id) {
  for (uint64_t p = 0; p < 5; p++) {
    auto c = snap_config(p);
    if (snap_circuit_id(*c) == id) return c;
  }
  return std::nullopt;
}

std::string snap_parameter_identifier(const SnapConfig& c) {
  return "empty_sector_update::PublicParams{ sector_nodes: " + std::to_string(c.nodes) + " }";
}

std::string snap_parameter_stem(const SnapConfig& c) {
  return parameter_file_stem("empty-sector-update-merkletree-poseidon_hasher-" + tree_shape_text(c.shape),
                             snap_parameter_identifier(c));
}

}  // namespace cuzk::filecoin
