#include "filecoin/porep/seal.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "filecoin/common/domain.hpp"
#include "filecoin/sdr/challenges.hpp"
#include "filecoin/sdr/labels.hpp"
#include "filecoin/sdr/parents.hpp"
#include "filecoin/sdr/replica_id.hpp"
#include "filecoin/tree/fr32.hpp"

namespace cuzk::filecoin {
namespace {

std::vector<Domain> data_nodes(const PorepConfig& cfg, const std::vector<uint8_t>& padded) {
  std::vector<Domain> nodes(cfg.nodes, Domain{});
  if (padded.empty()) return nodes;
  if (padded.size() != cfg.sector_size)
    throw std::invalid_argument("sector data has " + std::to_string(padded.size()) + " bytes, a " +
                                format_sector_size(cfg.sector_size) + " sector needs " +
                                std::to_string(cfg.sector_size));
  for (uint64_t i = 0; i < cfg.nodes; i++) {
    std::copy_n(padded.begin() + std::ptrdiff_t(32 * i), 32, nodes[i].begin());
    if (nodes[i][31] & 0xc0)
      throw std::invalid_argument("sector data node " + std::to_string(i) +
                                  " has one of its top two bits set: not fr32-padded");
  }
  return nodes;
}

ColumnProof column_proof(const SealedSector& s, uint64_t node) {
  ColumnProof cp;
  cp.column.index = uint32_t(node);
  for (const auto& layer : s.labels) cp.column.rows.push_back(layer[node]);
  cp.inclusion_proof = s.trees.tree_c.proof(node);
  return cp;
}

}  // namespace

SealedSector seal_precommit(const SealInputs& in) {
  const PorepConfig& cfg = in.config;
  std::vector<Domain> leaves = data_nodes(cfg, in.padded_data);
  TreeD tree_d(leaves);
  Domain prover_id = prover_id_from_actor_id(in.miner_id);
  Domain rid = replica_id(prover_id, in.sector_num, in.ticket, tree_d.root(), cfg.porep_id());
  ParentCache cache = ParentCache::build(SdrGraph(cfg));
  auto labels = generate_labels(cfg, cache, rid);
  std::vector<std::vector<Fr>> layers;
  layers.reserve(labels.size());
  for (const auto& l : labels) layers.push_back(domains_to_frs(l));
  ReplicaTrees trees = build_replica_trees(layers, leaves, cfg.shape);
  layers.clear();
  SealedSector s{cfg,
                 in.sector_num,
                 prover_id,
                 in.ticket,
                 rid,
                 tree_d.root(),
                 fr_to_domain(trees.comm_c()),
                 fr_to_domain(trees.comm_r_last()),
                 fr_to_domain(trees.comm_r()),
                 std::move(cache),
                 std::move(labels),
                 std::move(tree_d),
                 std::move(trees)};
  return s;
}

StackedProof vanilla_proof(const SealedSector& s, uint64_t c) {
  if (c == 0 || c >= s.config.nodes)
    throw std::invalid_argument("challenge " + std::to_string(c) + " outside [1, nodes)");
  StackedProof p;
  p.comm_d_proofs = s.tree_d.proof(c);
  p.comm_r_last_proof = s.trees.tree_r.proof(c);
  p.replica_column_proofs.c_x = column_proof(s, c);
  const uint32_t* parents = s.parents.parents(c);
  for (size_t i = 0; i < kDrgDegree; i++)
    p.replica_column_proofs.drg_parents.push_back(column_proof(s, parents[i]));
  for (size_t i = 0; i < kExpDegree; i++)
    p.replica_column_proofs.exp_parents.push_back(column_proof(s, parents[kDrgDegree + i]));
  const size_t layers = s.labels.size();
  for (size_t l = 1; l <= layers; l++) {
    std::span<const Domain> prev;
    if (l > 1) prev = s.labels[l - 2];
    p.labeling_proofs.push_back(
        {label_parents(uint32_t(l), c, s.parents, s.labels[l - 1], prev), uint32_t(l), c});
  }
  p.encoding_proof = p.labeling_proofs.back();
  return p;
}

SealCommitPhase1Output seal_commit_phase1(const SealedSector& s, const Domain& seed) {
  SealCommitPhase1Output out;
  out.registered_proof = s.config.id;
  out.comm_r = s.comm_r;
  out.comm_d = s.comm_d;
  out.replica_id = s.replica_id;
  out.seed = seed;
  out.ticket = s.ticket;
  for (size_t k = 0; k < s.config.partitions; k++) {
    std::vector<StackedProof> part;
    for (uint64_t c : porep_challenges(s.config, s.replica_id, seed, s.comm_r, k))
      part.push_back(vanilla_proof(s, c));
    out.vanilla_proofs.push_back(std::move(part));
  }
  return out;
}

std::vector<uint8_t> load_sector_data(const PorepConfig& cfg, const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::invalid_argument("cannot open sector data file " + path);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  const uint64_t unpadded = cfg.sector_size / 128 * 127;
  if (bytes.size() == cfg.sector_size) {
    data_nodes(cfg, bytes);  // checks the fr32 top bits
    return bytes;
  }
  if (bytes.size() == unpadded) return fr32_pad(bytes);
  throw std::invalid_argument(path + ": " + std::to_string(bytes.size()) + " bytes; a " +
                              format_sector_size(cfg.sector_size) + " sector takes " +
                              std::to_string(unpadded) + " bytes of data or " +
                              std::to_string(cfg.sector_size) + " fr32-padded bytes");
}

}  // namespace cuzk::filecoin
