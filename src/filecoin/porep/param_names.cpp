#include "filecoin/porep/param_names.hpp"

#include "filecoin/hash/sha256.hpp"
#include "platform/hex.hpp"

namespace cuzk::filecoin {
namespace {

std::string shape_text(const TreeShape& s) {
  return std::to_string(s.base_arity) + "-" + std::to_string(s.sub_arity) + "-" + std::to_string(s.top_arity);
}

}  // namespace

std::string porep_parameter_identifier(const PorepConfig& cfg) {
  return "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: 8 base_graph: "
         "drgraph::BucketGraph{size: " +
         std::to_string(cfg.nodes) + "; degree: 6; hasher: poseidon_hasher} }, challenges: LayerChallenges { layers: " +
         std::to_string(cfg.layers) + ", max_count: " + std::to_string(cfg.challenges_per_partition) +
         " }, tree: merkletree-poseidon_hasher-" + shape_text(cfg.shape) + " }";
}

std::string porep_parameter_stem(const PorepConfig& cfg) {
  std::string id = porep_parameter_identifier(cfg);
  Digest32 d = sha256(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(id.data()), id.size()));
  return "v" + std::to_string(kParameterVersion) + "-stacked-proof-of-replication-merkletree-poseidon_hasher-" +
         shape_text(cfg.shape) + "-sha256_hasher-" + platform::to_hex(d);
}

}  // namespace cuzk::filecoin
