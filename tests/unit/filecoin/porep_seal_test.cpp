// Sealing our own 2 KiB sectors end to end: PreCommit (comm_d against the
// published CC value), commit phase 1 (vanilla proofs that fit the config
// and the challenges the seed selects), and the real StackedDRG circuit on
// that witness: satisfied, with the public inputs verify_seal recomputes
// independently from (replica_id, comm_d, comm_r, seed).
#include <gtest/gtest.h>

#include <random>

#include "filecoin/porep/c1_json.hpp"
#include "filecoin/porep/c2.hpp"
#include "filecoin/porep/seal.hpp"
#include "filecoin/tree/fr32.hpp"
#include "filecoin/tree/tree_d.hpp"
#include "platform/hex.hpp"
#include "r1cs/proving_assignment.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;

namespace {

Domain bytes32(uint8_t fill) {
  Domain d;
  d.fill(fill);
  return d;
}

SealInputs inputs_2k(bool random_data) {
  SealInputs in;
  in.config = *porep_config(5);
  in.miner_id = 1000;
  in.sector_num = 7;
  in.ticket = bytes32(3);
  if (random_data) {
    std::mt19937_64 rng(42);
    std::vector<uint8_t> raw(2048 / 128 * 127);
    for (auto& b : raw) b = uint8_t(rng());
    in.padded_data = fr32_pad(raw);
  }
  return in;
}

// a·b = c on every row of the recorded assignment: satisfiability.
std::optional<size_t> first_unsatisfied(const r1cs::ProvingAssignment& pa) {
  for (size_t i = 0; i < pa.num_constraints(); i++)
    if (pa.a[i] * pa.b[i] != pa.c[i]) return i;
  return std::nullopt;
}

r1cs::ProvingAssignment synthesize(const r1cs::Circuit& c) {
  r1cs::ProvingAssignment pa;
  c.synthesize(pa);
  return pa;
}

}  // namespace

TEST(PorepSeal, CommittedCapacity2KiB) {
  SealedSector s = seal_precommit(inputs_2k(false));
  EXPECT_EQ(platform::to_hex(s.comm_d), "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833");
  EXPECT_EQ(s.comm_r, comm_r(s.comm_c, s.comm_r_last));
  EXPECT_EQ(s.labels.size(), 2u);
  EXPECT_EQ(s.labels[0].size(), 64u);
}

TEST(PorepSeal, PrecommitRejectsBadData) {
  SealInputs in = inputs_2k(false);
  in.padded_data.assign(2047, 0);
  EXPECT_THROW(seal_precommit(in), std::invalid_argument);
  in.padded_data.assign(2048, 0);
  in.padded_data[31] = 0x80;  // node 0 is not an fr32 element
  EXPECT_THROW(seal_precommit(in), std::invalid_argument);
}

TEST(PorepSeal, CommitPhase1IsValidAndRoundTrips) {
  SealedSector s = seal_precommit(inputs_2k(true));
  SealCommitPhase1Output c1 = seal_commit_phase1(s, bytes32(9));
  ASSERT_EQ(c1.vanilla_proofs.size(), 1u);
  ASSERT_EQ(c1.vanilla_proofs[0].size(), 2u);
  EXPECT_NO_THROW(validate_c1(c1));
  EXPECT_NO_THROW(check_c1_challenges(c1, s.config));
  std::string json = write_c1(c1);
  EXPECT_EQ(write_c1(parse_c1(json)), json);
  // Another seed selects other challenges: the c1 no longer fits it.
  SealCommitPhase1Output other = c1;
  other.seed = bytes32(10);
  EXPECT_THROW(check_c1_challenges(other, s.config), std::invalid_argument);
}

TEST(PorepSeal, RealCircuitIsSatisfiedWithRecomputedInputs) {
  for (bool random_data : {false, true}) {
    SealedSector s = seal_precommit(inputs_2k(random_data));
    const Domain seed = bytes32(9);
    SealCommitPhase1Output c1 = seal_commit_phase1(s, seed);
    auto pa = synthesize(porep_partition_circuit(c1, s.config, 0));
    // docs/FILECOIN.md §1.2: the 2 KiB partition circuit.
    EXPECT_EQ(pa.num_constraints(), 2687921u);
    EXPECT_EQ(pa.num_inputs(), 40u);
    EXPECT_EQ(pa.num_aux(), 2685673u);
    auto bad = first_unsatisfied(pa);
    EXPECT_FALSE(bad) << "constraint " << *bad << " unsatisfied (random data: " << random_data << ")";
    auto inputs = porep_public_inputs(s.config, s.replica_id, s.comm_d, s.comm_r, seed, 0);
    ASSERT_EQ(inputs.size() + 1, pa.input_assignment.size());
    for (size_t i = 0; i < inputs.size(); i++)
      EXPECT_EQ(inputs[i], pa.input_assignment[i + 1]) << "input " << i + 1;
  }
}

TEST(PorepSeal, TamperedWitnessIsUnsatisfied) {
  SealedSector s = seal_precommit(inputs_2k(true));
  SealCommitPhase1Output c1 = seal_commit_phase1(s, bytes32(9));
  // A label of a parent column changed: the column no longer hashes into comm_c.
  auto bad_col = c1;
  bad_col.vanilla_proofs[0][1].replica_column_proofs.drg_parents[2].column.rows[0][0] ^= 1;
  auto pa = synthesize(porep_partition_circuit(bad_col, s.config, 0));
  EXPECT_TRUE(first_unsatisfied(pa));
  // The data leaf changed: TreeD no longer reaches comm_d.
  auto bad_leaf = c1;
  bad_leaf.vanilla_proofs[0][0].comm_d_proofs.leaf[5] ^= 0x10;
  pa = synthesize(porep_partition_circuit(bad_leaf, s.config, 0));
  EXPECT_TRUE(first_unsatisfied(pa));
  // A TreeR sibling changed: the replica node no longer reaches comm_r_last.
  auto bad_r = c1;
  bad_r.vanilla_proofs[0][1].comm_r_last_proof.base[1].hashes[4][0] ^= 1;
  pa = synthesize(porep_partition_circuit(bad_r, s.config, 0));
  EXPECT_TRUE(first_unsatisfied(pa));
}
