#pragma once
// SDR labeling (docs/FILECOIN.md §7.3): label[l][n] = trim(SHA256(replica_id ‖
// u32_be(l) ‖ u64_be(n) ‖ 0^20 ‖ 37 parent labels)); node 0 hashes the
// 64-byte prefix only. Layer 1 takes its 6 DRG parents from itself (repeated
// 6 times plus the first once more); layer l > 1 takes the 6 DRG parents
// from layer l and the 8 expander parents from layer l-1 (14, 14, then the
// first 9). Layers are numbered from 1 as upstream does.
#include <cstdint>
#include <span>
#include <vector>

#include "filecoin/common/domain.hpp"
#include "filecoin/common/registered_proof.hpp"
#include "filecoin/sdr/parent_cache.hpp"

namespace cuzk::filecoin {

constexpr size_t kLabelParents = 37;  // TOTAL_PARENTS

// labels[l - 1][n] is the label of node n in layer l, l = 1..config.layers.
// The last layer is the key that TreeR adds to the data. Memory is
// layers * nodes * 32 bytes: fine for test sizes, not meant for 32 GiB.
// Throws std::invalid_argument when the cache size differs from config.nodes.
std::vector<std::vector<Domain>> generate_labels(const PorepConfig& config, const ParentCache& cache,
                                                 const Domain& replica_id);

// Labels one layer into `out` (cache.nodes() entries). `prev` is layer
// l - 1 for l > 1 and is not read for l = 1. Sequential by construction.
void generate_layer(uint32_t layer, const ParentCache& cache, const Domain& replica_id,
                    std::span<const Domain> prev, std::span<Domain> out);

// The 37 parent labels of (layer, node) in hashing order, i.e.
// LabelingProof::parents. `cur` is layer l, `prev` layer l - 1 (unused for
// l = 1). Empty for node 0.
std::vector<Domain> label_parents(uint32_t layer, uint64_t node, const ParentCache& cache,
                                  std::span<const Domain> cur, std::span<const Domain> prev);

// trim(SHA256(prefix ‖ parents)) straight from the definition (what
// LabelingProof::verify recomputes); parents may be empty (node 0).
Domain compute_label(const Domain& replica_id, uint32_t layer, uint64_t node,
                     std::span<const Domain> parents);

}  // namespace cuzk::filecoin
