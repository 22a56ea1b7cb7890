// The random C1 (porep/random_c1.hpp) has a sealed sector's layout: every
// vector of its vanilla proofs as long as a sealed 2 KiB sector's, path
// indices that spell the challenged node, labeling proofs that hold the
// parents' labels; its circuits synthesize with the counts of the recorded
// blank circuit (witness-only synthesis checks them), and the 32 GiB one
// builds a circuit of the 32 GiB shape.
#include <gtest/gtest.h>

#include <random>

#include "filecoin/porep/c2.hpp"
#include "filecoin/porep/random_c1.hpp"
#include "filecoin/porep/seal.hpp"
#include "filecoin/tree/fr32.hpp"
#include "r1cs/pce.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;

namespace {

// Lengths of every vector of a proof, in one list, for comparing layouts.
void path_lengths(const MerkleProof& p, std::vector<size_t>& out) {
  out.push_back(size_t(p.shape));
  for (const auto* part : {&p.base, &p.sub, &p.top}) {
    out.push_back(part->size());
    for (const auto& e : *part) out.push_back(e.hashes.size());
  }
}
std::vector<size_t> layout_of(const StackedProof& p) {
  std::vector<size_t> out;
  path_lengths(p.comm_d_proofs, out);
  path_lengths(p.comm_r_last_proof, out);
  const ReplicaColumnProof& rc = p.replica_column_proofs;
  out.push_back(rc.drg_parents.size());
  out.push_back(rc.exp_parents.size());
  for (const ColumnProof* c : {&rc.c_x}) {
    out.push_back(c->column.rows.size());
    path_lengths(c->inclusion_proof, out);
  }
  for (const auto* cols : {&rc.drg_parents, &rc.exp_parents})
    for (const ColumnProof& c : *cols) {
      out.push_back(c.column.rows.size());
      path_lengths(c.inclusion_proof, out);
    }
  out.push_back(p.labeling_proofs.size());
  for (const LabelingProof& lp : p.labeling_proofs) {
    out.push_back(lp.parents.size());
    out.push_back(lp.layer_index);
  }
  out.push_back(p.encoding_proof.parents.size());
  out.push_back(p.encoding_proof.layer_index);
  return out;
}

// The leaf index a path's indices spell (mixed radix, base levels first).
uint64_t leaf_of(const MerkleProof& p, size_t base_arity, size_t sub_arity, size_t top_arity) {
  uint64_t leaf = 0, weight = 1;
  for (const auto& e : p.base) leaf += e.index * weight, weight *= base_arity;
  for (const auto& e : p.sub) leaf += e.index * weight, weight *= sub_arity;
  for (const auto& e : p.top) leaf += e.index * weight, weight *= top_arity;
  return leaf;
}

}  // namespace

TEST(RandomC1, HasTheLayoutOfASealedSector) {
  const PorepConfig cfg = *porep_config(5);  // 2 KiB
  SealInputs in;
  in.config = cfg;
  std::mt19937_64 g(1);
  std::vector<uint8_t> raw(cfg.sector_size / 128 * 127);
  for (auto& b : raw) b = uint8_t(g());
  in.padded_data = fr32_pad(raw);
  Domain seed;
  seed.fill(3);
  const SealCommitPhase1Output sealed = seal_commit_phase1(seal_precommit(in), seed);
  const SealCommitPhase1Output rnd = random_c1(cfg, 42);
  ASSERT_EQ(rnd.vanilla_proofs.size(), sealed.vanilla_proofs.size());
  for (size_t k = 0; k < rnd.vanilla_proofs.size(); k++) {
    ASSERT_EQ(rnd.vanilla_proofs[k].size(), sealed.vanilla_proofs[k].size());
    for (size_t i = 0; i < rnd.vanilla_proofs[k].size(); i++) {
      const StackedProof& p = rnd.vanilla_proofs[k][i];
      EXPECT_EQ(layout_of(p), layout_of(sealed.vanilla_proofs[k][i])) << "partition " << k << " proof " << i;
      const uint64_t node = p.replica_column_proofs.c_x.column.index;
      EXPECT_NE(node, 0u);
      EXPECT_EQ(leaf_of(p.comm_d_proofs, 2, 0, 0), node);
      const TreeShape& s = cfg.shape;
      EXPECT_EQ(leaf_of(p.comm_r_last_proof, s.base_arity, s.sub_arity, s.top_arity), node);
      for (const ColumnProof& c : p.replica_column_proofs.drg_parents) EXPECT_LT(c.column.index, node);
      for (const LabelingProof& lp : p.labeling_proofs) EXPECT_EQ(lp.node, node);
      // Layer 2 hashes the first DRG parent's layer-2 label and the first
      // expander parent's layer-1 label.
      EXPECT_EQ(p.labeling_proofs[1].parents[0], p.replica_column_proofs.drg_parents[0].column.rows[1]);
      EXPECT_EQ(p.labeling_proofs[1].parents[6], p.replica_column_proofs.exp_parents[0].column.rows[0]);
    }
  }
}

TEST(RandomC1, SynthesizesWithTheRecordedCounts) {
  const PorepConfig cfg = *porep_config(5);
  const auto pce = r1cs::PrecompiledCircuit::record(porep_blank_circuit(cfg));
  const SealCommitPhase1Output c1 = random_c1(cfg, 7);
  for (size_t k = 0; k < c1.vanilla_proofs.size(); k++) {
    const std::vector<ff::Fr> w = pce.witness(porep_partition_circuit(c1, cfg, k));  // throws on other counts
    EXPECT_EQ(w.size(), pce.num_aux() + pce.num_inputs());
  }
}

TEST(RandomC1, BuildsThe32GiBCircuit) {
  const PorepConfig cfg = *porep_config(8);  // StackedDrg32GiBV1_1
  ASSERT_EQ(cfg.sector_size, uint64_t(32) << 30);
  const SealCommitPhase1Output c1 = random_c1(cfg, 9, 1);
  ASSERT_EQ(c1.vanilla_proofs.size(), 1u);
  EXPECT_EQ(c1.vanilla_proofs[0].size(), cfg.challenges_per_partition);
  // The witnessed circuit checks every path's shape and every value.
  EXPECT_NO_THROW(porep_partition_circuit(c1, cfg, 0));
}
