// The cryptographic half of checking a C1 output (validate_c1 is the shape
// half): every Merkle path hashed up to its root, every parent column the
// one the SDR graph names, every label recomputed from its parents. What
// the circuit would otherwise find only after a full proof (an unsatisfied
// constraint) is found here in milliseconds, naming the partition, the
// challenge and the field.
#include "filecoin/porep/c1_json.hpp"
#include "filecoin/sdr/labels.hpp"
#include "filecoin/sdr/parents.hpp"
#include "filecoin/tree/poseidon_tree.hpp"
#include "filecoin/tree/tree_d.hpp"

namespace cuzk::filecoin {
namespace {

[[noreturn]] void fail(const std::string& at, const std::string& what) {
  throw C1ValidationError(at + ": " + what);
}

void hash_path(const MerkleProof& p, const TreeShape* shape, const std::string& at) {
  try {
    if (shape) check_poseidon_proof(p, shape);
    else check_tree_d_proof(p);
  } catch (const std::exception& e) {
    fail(at, e.what());
  }
}

void verify_challenge(const StackedProof& p, const SealCommitPhase1Output& c1, const PorepConfig& cfg,
                      const SdrGraph& graph, const std::string& at) {
  const ReplicaColumnProof& rcp = p.replica_column_proofs;
  const std::string rat = at + ".replica_column_proofs";
  const uint64_t node = rcp.c_x.column.index;

  hash_path(p.comm_d_proofs, nullptr, at + ".comm_d_proofs");
  hash_path(p.comm_r_last_proof, &cfg.shape, at + ".comm_r_last_proof");
  hash_path(rcp.c_x.inclusion_proof, &cfg.shape, rat + ".c_x.inclusion_proof");

  uint32_t parents[kDrgDegree + kExpDegree];
  graph.parents(node, parents);
  for (size_t i = 0; i < kDrgDegree; i++) {
    const std::string here = rat + ".drg_parents[" + std::to_string(i) + "]";
    if (rcp.drg_parents[i].column.index != parents[i])
      fail(here + ".column.index", std::to_string(rcp.drg_parents[i].column.index) + " is not DRG parent " +
                                       std::to_string(i) + " of node " + std::to_string(node) + " (" +
                                       std::to_string(parents[i]) + ")");
    hash_path(rcp.drg_parents[i].inclusion_proof, &cfg.shape, here + ".inclusion_proof");
  }
  for (size_t i = 0; i < kExpDegree; i++) {
    const std::string here = rat + ".exp_parents[" + std::to_string(i) + "]";
    if (rcp.exp_parents[i].column.index != parents[kDrgDegree + i])
      fail(here + ".column.index",
           std::to_string(rcp.exp_parents[i].column.index) + " is not expander parent " + std::to_string(i) +
               " of node " + std::to_string(node) + " (" + std::to_string(parents[kDrgDegree + i]) + ")");
    hash_path(rcp.exp_parents[i].inclusion_proof, &cfg.shape, here + ".inclusion_proof");
  }

  // Each layer's label of the challenged node is the hash of its parents.
  for (size_t l = 1; l <= cfg.layers; l++) {
    const LabelingProof& lp = p.labeling_proofs[l - 1];
    if (compute_label(c1.replica_id, uint32_t(l), node, lp.parents) != rcp.c_x.column.rows[l - 1])
      fail(at + ".labeling_proofs[" + std::to_string(l - 1) + "]",
           "the label hashed from these parents is not c_x's row " + std::to_string(l - 1));
  }
  if (compute_label(c1.replica_id, uint32_t(cfg.layers), node, p.encoding_proof.parents) !=
      rcp.c_x.column.rows[cfg.layers - 1])
    fail(at + ".encoding_proof", "the key hashed from these parents is not c_x's last row");
}

}  // namespace

void verify_c1_vanilla(const SealCommitPhase1Output& c1, const PorepConfig& cfg) {
  validate_c1(c1, cfg);  // shapes first: the loops below index without checks
  const SdrGraph graph(cfg);
  for (size_t k = 0; k < c1.vanilla_proofs.size(); k++)
    for (size_t i = 0; i < c1.vanilla_proofs[k].size(); i++)
      verify_challenge(c1.vanilla_proofs[k][i], c1, cfg, graph,
                       "vanilla_proofs[" + std::to_string(k) + "][" + std::to_string(i) + "]");
}

}  // namespace cuzk::filecoin
