// Shape and consistency checks of a SealCommitPhase1Output against its
// registered proof (docs/FILECOIN.md §2.1, §6, §7.3, §7.8). Cheap next to C2:
// no Merkle path is hashed, only a few Poseidon/Fr operations per challenge.
#include <optional>

#include "filecoin/hash/poseidon.hpp"
#include "filecoin/porep/c1_json.hpp"

namespace cuzk::filecoin {
namespace {

constexpr size_t kDrgParents = 6, kExpParents = 8, kTotalParents = 37;

[[noreturn]] void fail(const std::string& at, const std::string& what) {
  throw C1ValidationError(at + ": " + what);
}

const char* shape_name(MerkleProofShape s) {
  return s == MerkleProofShape::Single ? "Single" : s == MerkleProofShape::Sub ? "Sub" : "Top";
}

bool same(const Domain& a, const Domain& b) { return a == b; }

Fr to_fr(const Domain& d, const std::string& at) {
  auto f = Fr::from_bytes_le(d);
  if (!f) fail(at, "not a canonical field element");
  return *f;
}

// The expected geometry of one tree: levels of base_arity, then at most one
// sub level and one top level.
struct TreeGeometry {
  const char* name;
  MerkleProofShape shape;
  size_t base_arity, base_levels, sub_arity, top_arity;
};

TreeGeometry tree_d(const PorepConfig& cfg) {
  return {"TreeD", MerkleProofShape::Single, 2, cfg.tree_d_depth(), 0, 0};
}

TreeGeometry tree_rc(const PorepConfig& cfg, const char* name) {
  const TreeShape& s = cfg.shape;
  size_t levels = 0;
  for (uint64_t leaves = cfg.nodes / s.base_tree_count(); leaves > 1; leaves /= s.base_arity) levels++;
  MerkleProofShape shape = s.top_arity   ? MerkleProofShape::Top
                           : s.sub_arity ? MerkleProofShape::Sub
                                         : MerkleProofShape::Single;
  return {name, shape, s.base_arity, levels, s.sub_arity, s.top_arity};
}

// Checks one path's levels and folds its indices into the leaf index: the
// digits of the leaf index in mixed radix (base levels, then sub, then top).
void check_levels(const std::vector<MerklePathElement>& path, size_t levels, size_t arity,
                  const std::string& at, uint64_t& leaf, uint64_t& weight) {
  if (path.size() != levels)
    fail(at, "expected " + std::to_string(levels) + " path level" + (levels == 1 ? "" : "s") + ", got " +
                 std::to_string(path.size()));
  for (size_t j = 0; j < path.size(); j++) {
    const MerklePathElement& e = path[j];
    std::string here = at + ".path[" + std::to_string(j) + "]";
    if (e.hashes.size() != arity - 1)
      fail(here, "expected " + std::to_string(arity - 1) + " hashes (arity " + std::to_string(arity) +
                     "), got " + std::to_string(e.hashes.size()));
    if (e.index >= arity)
      fail(here + ".index", std::to_string(e.index) + " is not below the arity " + std::to_string(arity));
    leaf += e.index * weight;
    weight *= arity;
  }
}

// Shape of a Merkle proof; returns the leaf index its path encodes.
uint64_t check_merkle(const MerkleProof& p, const TreeGeometry& g, const std::string& at) {
  if (p.shape != g.shape)
    fail(at, std::string("expected a ") + shape_name(g.shape) + " proof for " + g.name + ", got " +
                 shape_name(p.shape));
  uint64_t leaf = 0, weight = 1;
  bool compound = g.shape != MerkleProofShape::Single;
  check_levels(p.base, g.base_levels, g.base_arity, compound ? at + ".base_proof" : at, leaf, weight);
  if (g.shape != MerkleProofShape::Single)
    check_levels(p.sub, 1, g.sub_arity, at + ".sub_proof", leaf, weight);
  else if (!p.sub.empty()) fail(at, "a Single proof with sub levels");
  if (g.shape == MerkleProofShape::Top) check_levels(p.top, 1, g.top_arity, at + ".top_proof", leaf, weight);
  else if (!p.top.empty()) fail(at, "a proof with top levels that is not a Top proof");
  return leaf;
}

// Every proof of one tree must carry the same root.
void check_root(std::optional<std::pair<Domain, std::string>>& first, const Domain& root,
                const std::string& at, const char* commitment) {
  if (!first) {
    first.emplace(root, at);
    return;
  }
  if (!same(first->first, root))
    fail(at, std::string("differs from ") + first->second + " (all share " + commitment + ")");
}

struct Roots {
  std::optional<std::pair<Domain, std::string>> comm_c, comm_r_last;
};

void check_column(const ColumnProof& cp, const PorepConfig& cfg, const TreeGeometry& tc, Roots& roots,
                  const std::string& at) {
  if (cp.column.rows.size() != cfg.layers)
    fail(at + ".column.rows", "expected " + std::to_string(cfg.layers) + " rows (layers), got " +
                                  std::to_string(cp.column.rows.size()));
  if (cp.column.index >= cfg.nodes)
    fail(at + ".column.index",
         std::to_string(cp.column.index) + " is not below nodes " + std::to_string(cfg.nodes));
  uint64_t leaf = check_merkle(cp.inclusion_proof, tc, at + ".inclusion_proof");
  if (leaf != cp.column.index)
    fail(at + ".inclusion_proof", "path indices give leaf " + std::to_string(leaf) + ", column index is " +
                                      std::to_string(cp.column.index));
  check_root(roots.comm_c, cp.inclusion_proof.root, at + ".inclusion_proof.root", "comm_c");
  // TreeC leaf = Poseidon_{layers}(column), docs/FILECOIN.md §7.8.
  std::vector<Fr> rows;
  for (size_t l = 0; l < cfg.layers; l++)
    rows.push_back(to_fr(cp.column.rows[l], at + ".column.rows[" + std::to_string(l) + "]"));
  if (poseidon_hash(rows) != to_fr(cp.inclusion_proof.leaf, at + ".inclusion_proof.leaf"))
    fail(at + ".inclusion_proof.leaf", "is not the Poseidon hash of the column");
}

// Labeling parents of layer l (1-based): the 6 DRG parents' labels of layer
// l, then (l > 1) the 8 expander parents' of layer l-1, repeated to 37.
void check_labeling(const LabelingProof& lp, const ReplicaColumnProof& rcp, uint32_t layer,
                    uint64_t challenge, const std::string& at) {
  if (lp.layer_index != layer)
    fail(at + ".layer_index",
         "expected " + std::to_string(layer) + ", got " + std::to_string(lp.layer_index));
  if (lp.node != challenge)
    fail(at + ".node",
         "expected the challenge " + std::to_string(challenge) + ", got " + std::to_string(lp.node));
  if (lp.parents.size() != kTotalParents)
    fail(at + ".parents", "expected 37 parents, got " + std::to_string(lp.parents.size()));
  size_t n = layer == 1 ? kDrgParents : kDrgParents + kExpParents;
  for (size_t j = 0; j < kTotalParents; j++) {
    size_t p = j % n;
    const Domain& want = p < kDrgParents ? rcp.drg_parents[p].column.rows[layer - 1]
                                         : rcp.exp_parents[p - kDrgParents].column.rows[layer - 2];
    if (!same(lp.parents[j], want))
      fail(at + ".parents[" + std::to_string(j) + "]",
           std::string("is not the label of ") + (p < kDrgParents ? "drg_parents[" : "exp_parents[") +
               std::to_string(p < kDrgParents ? p : p - kDrgParents) + "] at layer " +
               std::to_string(p < kDrgParents ? layer : layer - 1));
  }
}

void check_proof(const StackedProof& p, const SealCommitPhase1Output& c1, const PorepConfig& cfg,
                 Roots& roots, const std::string& at) {
  const ReplicaColumnProof& rcp = p.replica_column_proofs;
  const TreeGeometry td = tree_d(cfg), tr = tree_rc(cfg, "TreeR"), tc = tree_rc(cfg, "TreeC");
  std::string rat = at + ".replica_column_proofs";

  // The challenged node: c_x's column index (never node 0, docs/FILECOIN.md §7.4).
  uint64_t challenge = rcp.c_x.column.index;
  if (challenge == 0) fail(rat + ".c_x.column.index", "challenge 0 (node 0 is never challenged)");
  check_column(rcp.c_x, cfg, tc, roots, rat + ".c_x");
  if (rcp.drg_parents.size() != kDrgParents)
    fail(rat + ".drg_parents", "expected 6 columns, got " + std::to_string(rcp.drg_parents.size()));
  if (rcp.exp_parents.size() != kExpParents)
    fail(rat + ".exp_parents", "expected 8 columns, got " + std::to_string(rcp.exp_parents.size()));
  for (size_t i = 0; i < kDrgParents; i++) {
    std::string here = rat + ".drg_parents[" + std::to_string(i) + "]";
    check_column(rcp.drg_parents[i], cfg, tc, roots, here);
    if (rcp.drg_parents[i].column.index >= challenge)  // DRG parents precede their node (§7.5)
      fail(here + ".column.index", std::to_string(rcp.drg_parents[i].column.index) +
                                       " is not below the challenge " + std::to_string(challenge));
  }
  for (size_t i = 0; i < kExpParents; i++)
    check_column(rcp.exp_parents[i], cfg, tc, roots, rat + ".exp_parents[" + std::to_string(i) + "]");

  uint64_t d_leaf = check_merkle(p.comm_d_proofs, td, at + ".comm_d_proofs");
  if (d_leaf != challenge)
    fail(at + ".comm_d_proofs", "path indices give leaf " + std::to_string(d_leaf) + ", the challenge is " +
                                    std::to_string(challenge));
  if (!same(p.comm_d_proofs.root, c1.comm_d)) fail(at + ".comm_d_proofs.root", "is not comm_d");

  uint64_t r_leaf = check_merkle(p.comm_r_last_proof, tr, at + ".comm_r_last_proof");
  if (r_leaf != challenge)
    fail(at + ".comm_r_last_proof", "path indices give leaf " + std::to_string(r_leaf) +
                                        ", the challenge is " + std::to_string(challenge));
  check_root(roots.comm_r_last, p.comm_r_last_proof.root, at + ".comm_r_last_proof.root", "comm_r_last");
  // Replica node = key (last layer's label) + data node (§7.8 TreeR).
  Fr key = to_fr(rcp.c_x.column.rows[cfg.layers - 1],
                 rat + ".c_x.column.rows[" + std::to_string(cfg.layers - 1) + "]");
  Fr data = to_fr(p.comm_d_proofs.leaf, at + ".comm_d_proofs.leaf");
  if (key + data != to_fr(p.comm_r_last_proof.leaf, at + ".comm_r_last_proof.leaf"))
    fail(at + ".comm_r_last_proof.leaf", "is not the last layer's label plus the data leaf");

  if (p.labeling_proofs.size() != cfg.layers)
    fail(at + ".labeling_proofs", "expected " + std::to_string(cfg.layers) + " proofs (layers), got " +
                                      std::to_string(p.labeling_proofs.size()));
  for (size_t l = 0; l < cfg.layers; l++)
    check_labeling(p.labeling_proofs[l], rcp, uint32_t(l + 1), challenge,
                   at + ".labeling_proofs[" + std::to_string(l) + "]");
  check_labeling(p.encoding_proof, rcp, uint32_t(cfg.layers), challenge, at + ".encoding_proof");
}

}  // namespace

void validate_c1(const SealCommitPhase1Output& c1, const PorepConfig& cfg) {
  auto own = porep_config(uint64_t(c1.registered_proof));
  if (!own) fail("registered_proof", "unknown id " + std::to_string(uint64_t(c1.registered_proof)));
  if (own->id != cfg.id)
    fail("registered_proof",
         std::string(own->name) + " does not match the expected " + std::string(cfg.name));

  if (c1.vanilla_proofs.size() != cfg.partitions)
    fail("vanilla_proofs", "expected " + std::to_string(cfg.partitions) + " partitions, got " +
                               std::to_string(c1.vanilla_proofs.size()));
  Roots roots;
  for (size_t k = 0; k < c1.vanilla_proofs.size(); k++) {
    std::string pat = "vanilla_proofs[" + std::to_string(k) + "]";
    if (c1.vanilla_proofs[k].size() != cfg.challenges_per_partition)
      fail(pat, "expected " + std::to_string(cfg.challenges_per_partition) + " challenges, got " +
                    std::to_string(c1.vanilla_proofs[k].size()));
    for (size_t i = 0; i < c1.vanilla_proofs[k].size(); i++)
      check_proof(c1.vanilla_proofs[k][i], c1, cfg, roots, pat + "[" + std::to_string(i) + "]");
  }
  // replica_id is a Poseidon domain (its top two bits cleared, §7.2).
  to_fr(c1.replica_id, "replica_id");
  // comm_r = Poseidon2(comm_c, comm_r_last) (§7.8).
  if (roots.comm_c && roots.comm_r_last) {
    Fr pre[2] = {to_fr(roots.comm_c->first, roots.comm_c->second),
                 to_fr(roots.comm_r_last->first, roots.comm_r_last->second)};
    if (poseidon_hash(pre) != to_fr(c1.comm_r, "comm_r"))
      fail("comm_r", "is not Poseidon2(comm_c, comm_r_last) of the proofs' roots");
  }
}

void validate_c1(const SealCommitPhase1Output& c1) {
  auto cfg = porep_config(uint64_t(c1.registered_proof));
  if (!cfg) fail("registered_proof", "unknown id " + std::to_string(uint64_t(c1.registered_proof)));
  validate_c1(c1, *cfg);
}

void validate_c1_wrapper(const C1Wrapper& w) {
  auto cfg = porep_config(uint64_t(w.phase1.registered_proof));
  if (!cfg)
    fail("Phase1Out.registered_proof", "unknown id " + std::to_string(uint64_t(w.phase1.registered_proof)));
  if (w.sector_size != cfg->sector_size)
    fail("SectorSize", std::to_string(w.sector_size) + " does not match " + std::string(cfg->name) + " (" +
                           std::to_string(cfg->sector_size) + ")");
  try {
    validate_c1(w.phase1, *cfg);
  } catch (const C1ValidationError& e) {
    throw C1ValidationError(std::string("Phase1Out.") + e.what());
  }
}

}  // namespace cuzk::filecoin
