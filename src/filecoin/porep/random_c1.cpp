#include "filecoin/porep/random_c1.hpp"

#include <random>

#include "filecoin/common/domain.hpp"
#include "filecoin/porep/create_label.hpp"
#include "filecoin/sdr/parents.hpp"

namespace cuzk::filecoin {

namespace {

class Gen {
 public:
  Gen(const PorepConfig& cfg, uint64_t seed) : cfg_(cfg), rng_(seed) {}

  Domain value() { return fr_to_domain(ff::Fr::random(rng_)); }
  uint64_t below(uint64_t n) { return std::uniform_int_distribution<uint64_t>(0, n - 1)(rng_); }

  // Levels of `arity` whose indices are the next digits of `leaf` (mixed radix).
  void levels(std::vector<MerklePathElement>& out, size_t count, size_t arity, uint64_t& leaf) {
    for (size_t l = 0; l < count; l++) {
      MerklePathElement e;
      for (size_t k = 0; k + 1 < arity; k++) e.hashes.push_back(value());
      e.index = leaf % arity;
      leaf /= arity;
      out.push_back(std::move(e));
    }
  }
  MerkleProof tree_d_proof(uint64_t node, const Domain& root) {
    MerkleProof p;
    p.shape = MerkleProofShape::Single;
    p.root = root;
    p.leaf = value();
    levels(p.base, cfg_.tree_d_depth(), 2, node);
    return p;
  }
  // TreeR / TreeC: base levels, then one sub and one top level when the shape has them.
  MerkleProof tree_rc_proof(uint64_t node, const Domain& root) {
    const TreeShape& s = cfg_.shape;
    MerkleProof p;
    p.shape = s.top_arity   ? MerkleProofShape::Top
              : s.sub_arity ? MerkleProofShape::Sub
                            : MerkleProofShape::Single;
    p.root = root;
    p.leaf = value();
    size_t base_levels = 0;
    for (uint64_t leaves = cfg_.nodes / s.base_tree_count(); leaves > 1; leaves /= s.base_arity)
      base_levels++;
    levels(p.base, base_levels, s.base_arity, node);
    if (s.sub_arity) levels(p.sub, 1, s.sub_arity, node);
    if (s.top_arity) levels(p.top, 1, s.top_arity, node);
    return p;
  }
  ColumnProof column(uint64_t node, const Domain& comm_c) {
    ColumnProof c;
    c.column.index = uint32_t(node);
    for (size_t l = 0; l < cfg_.layers; l++) c.column.rows.push_back(value());
    c.inclusion_proof = tree_rc_proof(node, comm_c);
    return c;
  }
  StackedProof proof(const Domain& comm_d, const Domain& comm_c, const Domain& comm_r_last) {
    StackedProof p;
    const uint64_t node = 1 + below(cfg_.nodes - 1);  // node 0 is never challenged
    p.comm_d_proofs = tree_d_proof(node, comm_d);
    p.comm_r_last_proof = tree_rc_proof(node, comm_r_last);
    ReplicaColumnProof& rc = p.replica_column_proofs;
    rc.c_x = column(node, comm_c);
    for (size_t i = 0; i < kDrgDegree; i++) rc.drg_parents.push_back(column(below(node), comm_c));
    for (size_t i = 0; i < kExpDegree; i++) rc.exp_parents.push_back(column(below(cfg_.nodes), comm_c));
    // Layer l hashes the DRG parents' labels of layer l and (l > 1) the
    // expander parents' of layer l - 1, repeated to 37.
    for (size_t l = 1; l <= cfg_.layers; l++) {
      LabelingProof lp;
      lp.layer_index = uint32_t(l);
      lp.node = node;
      const size_t n = l == 1 ? kDrgDegree : kDrgDegree + kExpDegree;
      for (size_t j = 0; j < circuit::kTotalParents; j++) {
        const size_t k = j % n;
        lp.parents.push_back(k < kDrgDegree ? rc.drg_parents[k].column.rows[l - 1]
                                            : rc.exp_parents[k - kDrgDegree].column.rows[l - 2]);
      }
      p.labeling_proofs.push_back(std::move(lp));
    }
    p.encoding_proof = p.labeling_proofs.back();
    return p;
  }

 private:
  const PorepConfig& cfg_;
  std::mt19937_64 rng_;
};

}  // namespace

SealCommitPhase1Output random_c1(const PorepConfig& config, uint64_t seed, size_t partitions) {
  Gen g(config, seed);
  SealCommitPhase1Output c1;
  c1.registered_proof = config.id;
  c1.comm_d = g.value();
  c1.comm_r = g.value();
  c1.replica_id = g.value();
  c1.seed = g.value();
  c1.ticket = g.value();
  const Domain comm_c = g.value(), comm_r_last = g.value();
  const size_t parts = partitions ? partitions : config.partitions;
  c1.vanilla_proofs.resize(parts);
  for (auto& part : c1.vanilla_proofs)
    for (size_t i = 0; i < config.challenges_per_partition; i++)
      part.push_back(g.proof(c1.comm_d, comm_c, comm_r_last));
  return c1;
}

}  // namespace cuzk::filecoin
