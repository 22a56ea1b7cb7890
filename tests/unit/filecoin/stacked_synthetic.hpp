#pragma once
// A synthetic but genuine StackedDRG witness for small sectors, built with
// the native hashes: random data and labels everywhere except at the
// challenged nodes, whose labels are recomputed from their (arbitrarily
// chosen) parents exactly as SDR does; then TreeD (SHA-256), TreeC (column
// hashes) and TreeR (label + data) and their vanilla proofs. The circuit does
// not check which nodes the parents are, only that their columns are in
// TreeC, so this exercises every constraint without a sealed sector.
#include <array>
#include <functional>
#include <random>
#include <set>
#include <vector>

#include "filecoin/hash/poseidon.hpp"
#include "filecoin/hash/sha256.hpp"
#include "filecoin/porep/circuit.hpp"

namespace cuzk::filecoin::stacked_synth {

using circuit::ChallengeParents;
using circuit::StackedCircuitParams;
using circuit::StackedWitness;

inline Domain fr_domain(const Fr& f) {
  Domain d;
  f.to_bytes_le(d);
  return d;
}
inline Fr domain_fr(const Domain& d) { return *Fr::from_bytes_le(d); }

inline Domain random_trimmed(std::mt19937_64& rng) {
  Domain d = fr_domain(Fr::random(rng));
  d[31] &= 0x3f;
  return d;
}

using NodeHash = std::function<Fr(const std::vector<Fr>&)>;

inline Fr sha_node(const std::vector<Fr>& children) {
  std::vector<uint8_t> bytes;
  for (const Fr& c : children) {
    Domain d = fr_domain(c);
    bytes.insert(bytes.end(), d.begin(), d.end());
  }
  return domain_fr(sha256_trimmed(bytes));
}
inline Fr poseidon_node(const std::vector<Fr>& children) { return poseidon_hash(children); }

// Root of a compound tree (base trees, then one sub and one top level) and,
// if `proof`, the vanilla inclusion proof of `leaf`.
inline Fr native_tree(const std::vector<Fr>& leaves, const TreeShape& s, const NodeHash& hash, size_t leaf,
                      MerkleProof* proof) {
  auto level_up = [&](const std::vector<Fr>& nodes, size_t arity, size_t& idx,
                      std::vector<MerklePathElement>* path) {
    std::vector<Fr> parents;
    for (size_t g = 0; g < nodes.size(); g += arity)
      parents.push_back(hash(std::vector<Fr>(nodes.begin() + g, nodes.begin() + g + arity)));
    if (path) {
      MerklePathElement e;
      size_t g = idx / arity * arity;
      e.index = idx % arity;
      for (size_t k = 0; k < arity; k++)
        if (g + k != idx) e.hashes.push_back(fr_domain(nodes[g + k]));
      path->push_back(e);
    }
    idx /= arity;
    return parents;
  };
  MerkleProof p;
  p.shape = s.top_arity   ? MerkleProofShape::Top
            : s.sub_arity ? MerkleProofShape::Sub
                          : MerkleProofShape::Single;
  size_t count = s.base_tree_count(), per = leaves.size() / count;
  std::vector<Fr> roots;
  for (size_t t = 0; t < count; t++) {
    std::vector<Fr> nodes(leaves.begin() + t * per, leaves.begin() + (t + 1) * per);
    bool mine = leaf / per == t;
    size_t idx = leaf % per;
    while (nodes.size() > 1) nodes = level_up(nodes, s.base_arity, idx, mine ? &p.base : nullptr);
    roots.push_back(nodes[0]);
  }
  size_t idx = leaf / per;
  if (s.sub_arity) roots = level_up(roots, s.sub_arity, idx, &p.sub);
  if (s.top_arity) roots = level_up(roots, s.top_arity, idx, &p.top);
  p.root = fr_domain(roots.at(0));
  p.leaf = fr_domain(leaves[leaf]);
  if (proof) *proof = p;
  return roots[0];
}

inline Domain native_label(const Domain& id, uint32_t layer, uint64_t node,
                           const std::vector<Domain>& parents) {
  std::vector<uint8_t> msg(id.begin(), id.end());
  for (int s = 24; s >= 0; s -= 8) msg.push_back(uint8_t(layer >> s));
  for (int s = 56; s >= 0; s -= 8) msg.push_back(uint8_t(node >> s));
  msg.resize(64, 0);
  for (const auto& p : parents) msg.insert(msg.end(), p.begin(), p.end());
  return sha256_trimmed(msg);
}

struct Synthetic {
  StackedWitness witness;
  std::vector<ChallengeParents> parents;
};

// `challenges`: distinct nodes in 1..nodes-1; parents are drawn from the
// other nodes so the challenged labels can be recomputed independently.
inline Synthetic make_synthetic(const StackedCircuitParams& p, const std::vector<uint64_t>& challenges,
                                uint64_t seed) {
  std::mt19937_64 rng(seed);
  const size_t n = p.nodes, L = p.layers;
  Synthetic out;
  Domain id = random_trimmed(rng);
  std::vector<Domain> data(n);
  for (auto& d : data) d = random_trimmed(rng);
  std::vector<std::vector<Domain>> labels(L, std::vector<Domain>(n));  // [layer-1][node]
  for (auto& layer : labels)
    for (auto& d : layer) d = random_trimmed(rng);

  std::set<uint64_t> chosen(challenges.begin(), challenges.end());
  auto pick = [&] {
    for (;;) {
      uint64_t v = rng() % n;
      if (!chosen.count(v)) return v;
    }
  };
  std::vector<std::vector<std::vector<Domain>>> label_parents;  // [challenge][layer-1] -> 37
  for (uint64_t c : challenges) {
    ChallengeParents cp{c, {}, {}};
    for (int i = 0; i < 6; i++) cp.drg.push_back(pick());
    for (int i = 0; i < 8; i++) cp.exp.push_back(pick());
    std::vector<std::vector<Domain>> per_layer;
    for (size_t l = 1; l <= L; l++) {
      std::vector<Domain> base;
      for (uint64_t d : cp.drg) base.push_back(labels[l - 1][d]);
      if (l > 1)
        for (uint64_t e : cp.exp) base.push_back(labels[l - 2][e]);
      std::vector<Domain> expanded;
      for (size_t k = 0; k < 37; k++) expanded.push_back(base[k % base.size()]);
      labels[l - 1][c] = native_label(id, uint32_t(l), c, expanded);
      per_layer.push_back(expanded);
    }
    label_parents.push_back(per_layer);
    out.parents.push_back(cp);
  }

  std::vector<Fr> d_leaves, c_leaves, r_leaves;
  for (size_t i = 0; i < n; i++) {
    d_leaves.push_back(domain_fr(data[i]));
    std::vector<Fr> col;
    for (size_t l = 0; l < L; l++) col.push_back(domain_fr(labels[l][i]));
    c_leaves.push_back(poseidon_hash(col));
    r_leaves.push_back(domain_fr(labels[L - 1][i]) + domain_fr(data[i]));
  }
  const TreeShape binary{2, 0, 0};
  Fr comm_d = native_tree(d_leaves, binary, sha_node, 0, nullptr);
  Fr comm_c = native_tree(c_leaves, p.shape, poseidon_node, 0, nullptr);
  Fr comm_r_last = native_tree(r_leaves, p.shape, poseidon_node, 0, nullptr);
  Fr comm_r = poseidon_hash(std::vector<Fr>{comm_c, comm_r_last});

  auto column = [&](uint64_t node) {
    ColumnProof cp;
    cp.column.index = uint32_t(node);
    for (size_t l = 0; l < L; l++) cp.column.rows.push_back(labels[l][node]);
    native_tree(c_leaves, p.shape, poseidon_node, node, &cp.inclusion_proof);
    return cp;
  };
  std::vector<StackedProof> proofs;
  for (size_t i = 0; i < challenges.size(); i++) {
    uint64_t c = challenges[i];
    StackedProof sp;
    native_tree(d_leaves, binary, sha_node, c, &sp.comm_d_proofs);
    native_tree(r_leaves, p.shape, poseidon_node, c, &sp.comm_r_last_proof);
    sp.replica_column_proofs.c_x = column(c);
    for (uint64_t d : out.parents[i].drg) sp.replica_column_proofs.drg_parents.push_back(column(d));
    for (uint64_t e : out.parents[i].exp) sp.replica_column_proofs.exp_parents.push_back(column(e));
    for (size_t l = 1; l <= L; l++)
      sp.labeling_proofs.push_back(LabelingProof{label_parents[i][l - 1], uint32_t(l), c});
    sp.encoding_proof = LabelingProof{label_parents[i][L - 1], uint32_t(L), c};
    proofs.push_back(std::move(sp));
  }
  out.witness = StackedWitness::from_proofs(id, fr_domain(comm_d), fr_domain(comm_r), std::move(proofs));
  return out;
}

}  // namespace cuzk::filecoin::stacked_synth
