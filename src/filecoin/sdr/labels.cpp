#include "filecoin/sdr/labels.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

namespace cuzk::filecoin {
namespace {

// The 64-byte message prefix: replica_id ‖ u32_be(layer) ‖ u64_be(node) ‖ 0^20.
void write_prefix(uint8_t* p, const Domain& replica_id, uint32_t layer, uint64_t node) {
  std::memcpy(p, replica_id.data(), 32);
  for (int i = 0; i < 4; i++) p[32 + i] = uint8_t(layer >> (24 - 8 * i));
  for (int i = 0; i < 8; i++) p[36 + i] = uint8_t(node >> (56 - 8 * i));
  std::memset(p + 44, 0, 20);
}

// Gathers the 37 parent labels of `node` into dst (32 bytes each).
void gather_parents(uint32_t layer, uint64_t node, const ParentCache& cache, const Domain* cur,
                    const Domain* prev, uint8_t* dst) {
  const uint32_t* p = cache.parents(node);
  if (layer == 1) {
    // DRG parents only: P×6 ‖ P[0].
    for (size_t i = 0; i < kLabelParents; i++) std::memcpy(dst + 32 * i, cur[p[i % kDrgDegree]].data(), 32);
  } else {
    // P = 6 DRG (this layer) ‖ 8 expander (previous layer): P ‖ P ‖ P[0..9].
    for (size_t i = 0; i < kLabelParents; i++) {
      size_t j = i % kParentCount;
      const Domain& src = j < kDrgDegree ? cur[p[j]] : prev[p[j]];
      std::memcpy(dst + 32 * i, src.data(), 32);
    }
  }
}

void check_layer_args(uint32_t layer, const ParentCache& cache, std::span<const Domain> cur_or_out,
                      std::span<const Domain> prev) {
  const uint64_t n = cache.nodes();
  if (layer == 0) throw std::invalid_argument("labels: layers are numbered from 1");
  if (cur_or_out.size() != n)
    throw std::invalid_argument("labels: layer buffer has " + std::to_string(cur_or_out.size()) +
                                " labels, the parent cache " + std::to_string(n) + " nodes");
  if (layer > 1 && prev.size() != n)
    throw std::invalid_argument("labels: previous layer has " + std::to_string(prev.size()) +
                                " labels, need " + std::to_string(n));
}

}  // namespace

void generate_layer(uint32_t layer, const ParentCache& cache, const Domain& replica_id,
                    std::span<const Domain> prev, std::span<Domain> out) {
  check_layer_args(layer, cache, out, prev);
  uint8_t msg[64 + 32 * kLabelParents];
  const uint64_t n = cache.nodes();
  for (uint64_t node = 0; node < n; node++) {
    write_prefix(msg, replica_id, layer, node);
    if (node == 0) {
      out[0] = sha256_trimmed({msg, 64});
      continue;
    }
    // Parents precede node (DRG) or lie in the finished previous layer.
    gather_parents(layer, node, cache, out.data(), prev.data(), msg + 64);
    out[node] = sha256_trimmed(msg);  // a reused per-thread hasher (platform::sha256)
  }
}

std::vector<std::vector<Domain>> generate_labels(const PorepConfig& config, const ParentCache& cache,
                                                 const Domain& replica_id) {
  if (cache.nodes() != config.nodes)
    throw std::invalid_argument("labels: parent cache has " + std::to_string(cache.nodes()) + " nodes, " +
                                std::string(config.name) + " needs " + std::to_string(config.nodes));
  if (config.layers == 0) throw std::invalid_argument("labels: config has no layers");
  std::vector<std::vector<Domain>> labels(config.layers, std::vector<Domain>(config.nodes));
  for (size_t l = 1; l <= config.layers; l++)
    generate_layer(uint32_t(l), cache, replica_id,
                   l > 1 ? std::span<const Domain>(labels[l - 2]) : std::span<const Domain>(), labels[l - 1]);
  return labels;
}

std::vector<Domain> label_parents(uint32_t layer, uint64_t node, const ParentCache& cache,
                                  std::span<const Domain> cur, std::span<const Domain> prev) {
  check_layer_args(layer, cache, cur, prev);
  if (node >= cache.nodes())
    throw std::out_of_range("labels: node " + std::to_string(node) + " >= " + std::to_string(cache.nodes()));
  if (node == 0) return {};
  std::vector<Domain> parents(kLabelParents);
  gather_parents(layer, node, cache, cur.data(), prev.data(), reinterpret_cast<uint8_t*>(parents.data()));
  return parents;
}

Domain compute_label(const Domain& replica_id, uint32_t layer, uint64_t node,
                     std::span<const Domain> parents) {
  uint8_t prefix[64];
  write_prefix(prefix, replica_id, layer, node);
  Sha256 h;
  h.update(prefix);
  for (const Domain& p : parents) h.update(p);
  Domain d = h.finish();
  trim_to_fr32(d);
  return d;
}

}  // namespace cuzk::filecoin
