#include "filecoin/sdr/parents.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string_view>

#include "filecoin/hash/sha256.hpp"
#include "filecoin/sdr/chacha.hpp"
#include "platform/hex.hpp"

namespace cuzk::filecoin {
namespace {

Digest32 domain_seed(std::string_view dst, const PorepId& porep_id) {
  Sha256 h;
  h.update({reinterpret_cast<const uint8_t*>(dst.data()), dst.size()});
  h.update(porep_id);
  return h.finish();
}

uint64_t checked_nodes(uint64_t nodes) {
  if (nodes < 2 || nodes > (uint64_t(1) << 32))
    throw std::invalid_argument("SdrGraph: node count " + std::to_string(nodes) + " outside [2, 2^32]");
  return nodes;
}

}  // namespace

DrgSeed derive_drg_seed(const PorepId& porep_id) {
  Digest32 d = domain_seed("Filecoin_DRSample", porep_id);
  DrgSeed s;
  std::copy_n(d.begin(), s.size(), s.begin());
  return s;
}

FeistelKeys derive_feistel_keys(const PorepId& porep_id) {
  Digest32 d = domain_seed("Filecoin_Feistel", porep_id);
  FeistelKeys k{};
  for (size_t i = 0; i < 4; i++)
    for (size_t b = 0; b < 8; b++) k[i] |= uint64_t(d[8 * i + b]) << (8 * b);
  return k;
}

SdrGraph::SdrGraph(uint64_t nodes, const PorepId& porep_id, ApiVersion api)
    : nodes_(checked_nodes(nodes)),
      api_(api),
      drg_seed_(derive_drg_seed(porep_id)),
      feistel_keys_(derive_feistel_keys(porep_id)),
      feistel_(nodes * kExpDegree, feistel_keys_) {}

SdrGraph::SdrGraph(const PorepConfig& config) : SdrGraph(config.nodes, config.porep_id(), config.api) {}

void SdrGraph::drg_parents(uint64_t node, uint32_t* out) const {
  if (node >= nodes_)
    throw std::out_of_range("SdrGraph: node " + std::to_string(node) + " >= nodes " + std::to_string(nodes_));
  if (node < 2) {
    std::fill_n(out, kDrgDegree, 0u);
    return;
  }
  std::array<uint8_t, 32> seed;
  std::copy(drg_seed_.begin(), drg_seed_.end(), seed.begin());
  for (size_t b = 0; b < 4; b++) seed[28 + b] = uint8_t(node >> (8 * b));
  ChaCha8Rng rng(seed);

  constexpr uint64_t m_prime = kDrgDegree - 1;
  const uint64_t meta = node * m_prime;
  // ceil(log2(meta)) for meta >= 10; upstream computes it in f64, which is
  // exact for these magnitudes (meta < 2^35).
  const uint64_t n_buckets = std::bit_width(meta - 1);

  const bool v1_0 = api_ == ApiVersion::V1_0_0;
  uint32_t* random = v1_0 ? out : out + 1;
  for (size_t i = 0; i < m_prime; i++) {
    uint64_t bucket = rng.next_u64() % n_buckets + 1;
    uint64_t hi = std::min(meta, uint64_t(1) << bucket);
    uint64_t lo = std::max<uint64_t>(2, hi >> 1);
    uint64_t dist = lo + rng.next_u64() % (hi - lo + 1);
    auto p = uint32_t((meta - dist) / m_prime);
    random[i] = p == node ? uint32_t(node - 1) : p;
  }
  out[v1_0 ? m_prime : 0] = uint32_t(node - 1);
}

void SdrGraph::expander_parents(uint64_t node, uint32_t* out) const {
  if (node >= nodes_)
    throw std::out_of_range("SdrGraph: node " + std::to_string(node) + " >= nodes " + std::to_string(nodes_));
  for (size_t i = 0; i < kExpDegree; i++) {
    uint64_t t = feistel_.permute(node * kExpDegree + i);
    out[i] = api_ == ApiVersion::V1_0_0 ? uint32_t(t) / uint32_t(kExpDegree) : uint32_t(t / kExpDegree);
  }
}

void SdrGraph::parents(uint64_t node, uint32_t* out) const {
  drg_parents(node, out);
  expander_parents(node, out + kDrgDegree);
}

std::string SdrGraph::identifier() const {
  return "stacked_graph::StackedGraph{expansion_degree: " + std::to_string(kExpDegree) +
         " base_graph: drgraph::BucketGraph{size: " + std::to_string(nodes_) +
         "; degree: " + std::to_string(kDrgDegree) + "; hasher: poseidon_hasher} }";
}

std::string SdrGraph::parent_cache_id() const {
  // Upstream hashes the tree hasher's name (Poseidon for every registered
  // proof), the identifier, the 4 keys and the u32 entry count.
  constexpr std::string_view hasher = "poseidon_hasher";
  const std::string id = identifier();
  std::array<uint8_t, 36> tail{};
  for (size_t k = 0; k < 4; k++)
    for (size_t b = 0; b < 8; b++) tail[8 * k + b] = uint8_t(feistel_keys_[k] >> (8 * b));
  const auto entries = uint32_t(nodes_);
  for (size_t b = 0; b < 4; b++) tail[32 + b] = uint8_t(entries >> (8 * b));
  Sha256 h;
  h.update({reinterpret_cast<const uint8_t*>(hasher.data()), hasher.size()});
  h.update({reinterpret_cast<const uint8_t*>(id.data()), id.size()});
  h.update(tail);
  return "v28-sdr-parent-" + platform::to_hex(h.finish());
}

}  // namespace cuzk::filecoin
