#pragma once
// SDR graph parents (docs/FILECOIN.md §7.1, §7.5, §7.6): per node 6 DRG base
// parents (bucket sampling with ChaCha8) and 8 expander parents (Feistel),
// exactly as rust-fil-proofs' StackedBucketGraph produces them, and the
// names it derives from the graph (identifier, parent-cache id).
#include <array>
#include <cstdint>
#include <string>

#include "filecoin/common/registered_proof.hpp"
#include "filecoin/sdr/feistel.hpp"

namespace cuzk::filecoin {

constexpr size_t kDrgDegree = 6;     // BASE_DEGREE
constexpr size_t kExpDegree = 8;     // EXP_DEGREE
constexpr size_t kParentCount = 14;  // one parent-cache row: DRG then expander

using DrgSeed = std::array<uint8_t, 28>;
using FeistelKeys = std::array<uint64_t, 4>;

// First 28 bytes of SHA256("Filecoin_DRSample" ‖ porep_id).
DrgSeed derive_drg_seed(const PorepId& porep_id);
// u64_le words of SHA256("Filecoin_Feistel" ‖ porep_id); only keys 0..2 are used.
FeistelKeys derive_feistel_keys(const PorepId& porep_id);

// The stacked graph of one sector: nodes in [2, 2^32], any porep_id, and
// the api version that picks the v1.0 or v1.1+ parent layout.
class SdrGraph {
 public:
  SdrGraph(uint64_t nodes, const PorepId& porep_id, ApiVersion api);
  explicit SdrGraph(const PorepConfig& config);

  uint64_t nodes() const { return nodes_; }
  ApiVersion api() const { return api_; }
  const DrgSeed& drg_seed() const { return drg_seed_; }
  const FeistelKeys& feistel_keys() const { return feistel_keys_; }

  // The 6 DRG parents of `node` (all 0 for nodes 0 and 1). v1.1+: parents[0]
  // = node-1 and the random parents in slots 1..5; v1.0: random in 0..4,
  // parents[5] = node-1. Throws std::out_of_range for node >= nodes().
  void drg_parents(uint64_t node, uint32_t* out) const;
  // The 8 expander parents: permute(nodes*8, node*8+i) / 8 (v1.0 truncates
  // the permuted value to u32 before dividing).
  void expander_parents(uint64_t node, uint32_t* out) const;
  // One parent-cache row: drg_parents then expander_parents (14 values).
  void parents(uint64_t node, uint32_t* out) const;

  // StackedGraph::identifier() for the Poseidon tree hasher, e.g.
  // "stacked_graph::StackedGraph{expansion_degree: 8 base_graph: drgraph::BucketGraph{size: 64; degree: 6; hasher: poseidon_hasher} }".
  std::string identifier() const;
  // "v28-sdr-parent-<hex(SHA256("poseidon_hasher" ‖ identifier ‖ keys u64_le ×4 ‖ u32_le(nodes)))>".
  std::string parent_cache_id() const;
  // parent_cache_id() + ".cache".
  std::string parent_cache_file_name() const { return parent_cache_id() + ".cache"; }

 private:
  uint64_t nodes_;
  ApiVersion api_;
  DrgSeed drg_seed_;
  FeistelKeys feistel_keys_;
  Feistel feistel_;
};

}  // namespace cuzk::filecoin
