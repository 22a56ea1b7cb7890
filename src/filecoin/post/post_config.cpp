#include "filecoin/post/post_config.hpp"

#include <array>

#include "filecoin/common/param_names.hpp"

namespace cuzk::filecoin {
namespace {

struct SizeRow {
  uint64_t bytes;
  const char* tag;        // in the registered names
  const char* short_tag;  // in circuit ids
  size_t window_sectors;  // WINDOW_POST_SECTOR_COUNT
  // The one partition's rows, constraints + inputs (docs/FILECOIN.md §1.2).
  uint64_t winning_rows, window_rows;
};
constexpr std::array<SizeRow, 5> kSizes{{
    {2048, "2KiB", "2k", 2, 90'883, 21'889},
    {8ull << 20, "8MiB", "8m", 2, 230'803, 64'289},
    {512ull << 20, "512MiB", "512m", 2, 300'763, 85'489},
    {32ull << 30, "32GiB", "32g", 2349, 370'723, 125'305'057},
    {64ull << 30, "64GiB", "64g", 2300, 391'447, 129'913'201},
}};

const char* const kNames[15] = {
    "StackedDrgWinning2KiBV1",    "StackedDrgWinning8MiBV1",   "StackedDrgWinning512MiBV1",
    "StackedDrgWinning32GiBV1",   "StackedDrgWinning64GiBV1",  "StackedDrgWindow2KiBV1",
    "StackedDrgWindow8MiBV1",     "StackedDrgWindow512MiBV1",  "StackedDrgWindow32GiBV1",
    "StackedDrgWindow64GiBV1",    "StackedDrgWindow2KiBV1_1",  "StackedDrgWindow8MiBV1_1",
    "StackedDrgWindow512MiBV1_1", "StackedDrgWindow32GiBV1_1", "StackedDrgWindow64GiBV1_1",
};

}  // namespace

std::optional<PostConfig> post_config(uint64_t id) {
  if (id >= 15) return std::nullopt;
  const SizeRow& row = kSizes[id % 5];
  PostConfig c;
  c.id = id;
  c.name = kNames[id];
  c.kind = id < 5 ? PostKind::Winning : PostKind::Window;
  c.sector_size = row.bytes;
  c.nodes = row.bytes / 32;
  c.shape = porep_config_for_size(row.bytes)->shape;  // TreeR has the sealed sector's shape
  c.challenge_count = c.kind == PostKind::Winning ? 1 : 10;
  c.sector_count = c.kind == PostKind::Winning ? kWinningPostChallenges : row.window_sectors;
  c.api = id >= 10 ? ApiVersion::V1_2_0 : ApiVersion::V1_0_0;
  c.partition_rows = c.kind == PostKind::Winning ? row.winning_rows : row.window_rows;
  return c;
}

std::string post_circuit_id(const PostConfig& c) {
  for (const auto& row : kSizes)
    if (row.bytes == c.sector_size)
      return std::string(c.kind == PostKind::Winning ? "winning-post-" : "window-post-") + row.short_tag;
  return "post-unknown";
}

std::optional<PostConfig> post_config_for_circuit_id(std::string_view id) {
  for (uint64_t p = 0; p < 10; p++) {  // V1_1 window ids share V1's circuits
    auto c = post_config(p);
    if (post_circuit_id(*c) == id) return c;
  }
  return std::nullopt;
}

std::string post_parameter_identifier(const PostConfig& c) {
  return "FallbackPoSt::PublicParams{sector_size: " + std::to_string(c.sector_size) +
         ", challenge_count: " + std::to_string(c.challenge_count) +
         ", sector_count: " + std::to_string(c.sector_count) + "}";
}

std::string post_parameter_stem(const PostConfig& c) {
  return parameter_file_stem(
      "proof-of-spacetime-fallback-merkletree-poseidon_hasher-" + tree_shape_text(c.shape),
      post_parameter_identifier(c));
}

}  // namespace cuzk::filecoin
