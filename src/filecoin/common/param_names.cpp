#include "filecoin/common/param_names.hpp"

#include "filecoin/hash/sha256.hpp"
#include "platform/hex.hpp"

namespace cuzk::filecoin {
std::string tree_shape_text(const TreeShape& s) {
  return std::to_string(s.base_arity) + "-" + std::to_string(s.sub_arity) + "-" + std::to_string(s.top_arity);
}

std::string parameter_file_stem(const std::string& cache_prefix, const std::string& identifier) {
  Digest32 d = sha256(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(identifier.data()), identifier.size()));
  // Appended rather than `"v" + ...`: GCC 12 warns (-Wrestrict, a false
  // positive) on a literal + std::string chain here.
  std::string stem = "v";
  stem += std::to_string(kParameterVersion);
  stem += '-';
  stem += cache_prefix;
  stem += '-';
  stem += platform::to_hex(d);
  return stem;
}

std::string porep_parameter_identifier(const PorepConfig& cfg) {
  return "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: 8 base_graph: "
         "drgraph::BucketGraph{size: " +
         std::to_string(cfg.nodes) +
         "; degree: 6; hasher: poseidon_hasher} }, challenges: LayerChallenges { layers: " +
         std::to_string(cfg.layers) + ", max_count: " + std::to_string(cfg.challenges_per_partition) +
         " }, tree: merkletree-poseidon_hasher-" + tree_shape_text(cfg.shape) + " }";
}

std::string porep_parameter_stem(const PorepConfig& cfg) {
  return parameter_file_stem("stacked-proof-of-replication-merkletree-poseidon_hasher-" +
                                 tree_shape_text(cfg.shape) + "-sha256_hasher",
                             porep_parameter_identifier(cfg));
}

}  // namespace cuzk::filecoin
