// Synthetic PoRep (registered proofs 10-14) and NI-PoRep (15-19) commit phase
// 1 outputs of our own sealed 2 KiB sectors (docs/FILECOIN.md §6, §7.4):
// - the replica_id hashes the registered proof's own porep_id (vectors
//   computed with Python's hashlib from §7.1/§7.2, independent of this code);
// - a synthetic C1 carries, per partition, the vanilla proofs of the
//   synthetic challenges the seed selects (rust-fil-proofs
//   read_porep_proofs_from_synth): the set has min(nodes, 2^18) members, the
//   selection is its index keystream (the set and selection functions are
//   checked against upstream's vector in sdr_challenges_test.cpp);
// - an NI-PoRep C1 has 13 partitions of 2 challenges derived from comm_r
//   (fp constants.rs: 26 challenges at least) and does not depend on the seed;
// - both round-trip through the c1 reader and Curio's wrapper with upstream's
//   names, pass every admission check, and satisfy the real circuit with the
//   public inputs verify_seal recomputes.
#include <gtest/gtest.h>

#include <set>

#include "filecoin/porep/c1_json.hpp"
#include "filecoin/porep/c2.hpp"
#include "filecoin/porep/seal.hpp"
#include "filecoin/sdr/challenges.hpp"
#include "platform/hex.hpp"
#include "r1cs/proving_assignment.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;

namespace {

Domain filled32(uint8_t fill) {
  Domain d;
  d.fill(fill);
  return d;
}

// A committed-capacity 2 KiB sector as `cuzk-bench gen-vanilla porep` seals
// it by default: miner f01000, sector 1, ticket [0x11; 32].
SealedSector sealed_2kib_cc(uint64_t registered_proof) {
  SealInputs in;
  in.config = *porep_config(registered_proof);
  in.miner_id = 1000;
  in.sector_num = 1;
  in.ticket = filled32(0x11);
  return seal_precommit(in);
}

// The proofs of `c1` and nothing else, as bytes (StackedProof has no ==).
std::string proofs_text(SealCommitPhase1Output c1) {
  c1.seed = c1.ticket = Domain{};
  return write_c1(c1);
}

r1cs::ProvingAssignment assignment_of(const r1cs::Circuit& c) {
  r1cs::ProvingAssignment pa;
  c.synthesize(pa);
  return pa;
}

// The partition circuit is satisfied and its public inputs are the ones
// verify_seal recomputes from (replica_id, comm_d, comm_r, seed) and the mode.
void expect_partition_satisfied(const SealCommitPhase1Output& c1, const PorepConfig& cfg, size_t k) {
  auto pa = assignment_of(porep_partition_circuit(c1, cfg, k));
  for (size_t i = 0; i < pa.num_constraints(); i++)
    ASSERT_EQ(pa.a[i] * pa.b[i], pa.c[i]) << cfg.name << " partition " << k << " constraint " << i;
  auto inputs = porep_public_inputs(cfg, c1.replica_id, c1.comm_d, c1.comm_r, c1.seed, k);
  ASSERT_EQ(inputs.size() + 1, pa.input_assignment.size());
  for (size_t i = 0; i < inputs.size(); i++) EXPECT_EQ(inputs[i], pa.input_assignment[i + 1]) << i;
}

}  // namespace

// replica_id = trim(SHA256(prover_id ‖ u64_be(1) ‖ ticket ‖ comm_d(CC) ‖ porep_id)),
// porep_id = u64_le(registered proof) ‖ 0^24; computed with Python's hashlib.
TEST(PorepSynthetic, ReplicaIdHashesTheRegisteredPorepId) {
  const std::pair<uint64_t, const char*> cases[] = {
      {5, "a33efb950653e12d18d41a8cbe6e473942a60689e4e892c25a4ea8827498733e"},
      {10, "76bc3bdd71789026294bdf143d13620b74b7be461a76627f56ebddb1c616413c"},
      {15, "b5bf5e383bd41ee92199b8faa3fe110de4ba58cc5520d1f27f09dd1951883c03"},
  };
  for (auto [id, hex] : cases) {
    SealedSector s = sealed_2kib_cc(id);
    EXPECT_EQ(platform::to_hex(s.comm_d), "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833");
    EXPECT_EQ(platform::to_hex(s.replica_id), hex) << "registered proof " << id;
  }
}

TEST(PorepSynthetic, SyntheticC1CarriesTheProofsTheSeedSelects) {
  const PorepConfig cfg = *porep_config(10);
  ASSERT_EQ(cfg.mode, ChallengeMode::Synthetic);
  ASSERT_EQ(cfg.partitions, 1u);  // as the interactive 2 KiB proof: 2 challenges in 1 partition
  ASSERT_EQ(cfg.challenges_per_partition, 2u);
  SealedSector s = sealed_2kib_cc(10);
  const Domain seed = filled32(0x22);
  SealCommitPhase1Output c1 = seal_commit_phase1(s, seed);
  EXPECT_EQ(c1.registered_proof, RegisteredSealProof::StackedDrg2KiBV1_1_Feat_SyntheticPoRep);
  EXPECT_EQ(c1.seed, seed);  // the real seed, not the all-zero one of the synthetic generation step
  EXPECT_EQ(c1.comm_r, s.comm_r);
  EXPECT_EQ(c1.replica_id, s.replica_id);

  // The synthetic set: min(nodes, 2^18) = 64 challenges of [1, 64).
  SyntheticChallenges synth(cfg.nodes, s.replica_id, s.comm_r);
  ASSERT_EQ(synth.count(), 64u);
  EXPECT_EQ(SyntheticChallenges::default_count(porep_config(13)->nodes), uint64_t(1) << 18);
  const std::vector<uint64_t> set = synth.all();
  for (uint64_t c : set) {
    EXPECT_GE(c, 1u);
    EXPECT_LT(c, cfg.nodes);
  }
  // Upstream proves every member after PreCommit and C1 copies out
  // member number index(k, i): the same proofs as proving those nodes.
  SealCommitPhase1Output expected = c1;
  expected.vanilla_proofs.clear();
  for (size_t k = 0; k < cfg.partitions; k++) {
    auto& part = expected.vanilla_proofs.emplace_back();
    for (uint64_t index : synth.partition_indexes(cfg.challenges_per_partition, seed, k)) {
      ASSERT_LT(index, set.size());
      part.push_back(vanilla_proof(s, set[index]));
    }
  }
  EXPECT_EQ(proofs_text(c1), proofs_text(expected));

  // Another seed selects other members of the same set; this C1 no longer fits it.
  const Domain other = filled32(0x23);
  SealCommitPhase1Output c1b = seal_commit_phase1(s, other);
  const std::set<uint64_t> members(set.begin(), set.end());
  for (const auto& p : c1b.vanilla_proofs[0])
    EXPECT_TRUE(members.count(p.replica_column_proofs.c_x.column.index));
  auto moved = c1;
  moved.seed = other;
  if (proofs_text(c1) != proofs_text(c1b)) {
    try {
      check_c1_challenges(moved, cfg);
      ADD_FAILURE() << "a synthetic C1 with another seed was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("partition 0 challenge"), std::string::npos) << e.what();
    }
  }
  EXPECT_NO_THROW(check_c1_challenges(c1, cfg));
  EXPECT_NO_THROW(verify_c1_vanilla(c1, cfg));
  expect_partition_satisfied(c1, cfg, 0);
}

TEST(PorepSynthetic, NonInteractiveC1Has13PartitionsFromCommR) {
  const PorepConfig cfg = *porep_config(15);
  ASSERT_EQ(cfg.mode, ChallengeMode::NonInteractive);
  // fp constants.rs: at least 26 challenges in 13 partitions for test sizes.
  ASSERT_EQ(cfg.partitions, 13u);
  ASSERT_EQ(cfg.challenges_per_partition, 2u);
  EXPECT_GE(cfg.total_challenges(), 26u);
  SealedSector s = sealed_2kib_cc(15);
  SealCommitPhase1Output c1 = seal_commit_phase1(s, filled32(0x22));
  EXPECT_EQ(c1.registered_proof, RegisteredSealProof::StackedDrg2KiBV1_2_Feat_NonInteractivePoRep);
  ASSERT_EQ(c1.vanilla_proofs.size(), 13u);
  // One sequence j = 0..25 of SHA256(tag ‖ replica_id ‖ comm_r ‖ u32_le(j)), cut into partitions.
  const auto all = ni_challenges(cfg.nodes, cfg.total_challenges(), s.replica_id, s.comm_r, 0);
  for (size_t k = 0; k < 13; k++) {
    ASSERT_EQ(c1.vanilla_proofs[k].size(), 2u) << k;
    for (size_t i = 0; i < 2; i++)
      EXPECT_EQ(c1.vanilla_proofs[k][i].replica_column_proofs.c_x.column.index, all[2 * k + i])
          << k << "," << i;
  }
  // The seed is carried but selects nothing.
  SealCommitPhase1Output c1b = seal_commit_phase1(s, filled32(0x77));
  EXPECT_EQ(c1b.seed, filled32(0x77));
  EXPECT_EQ(proofs_text(c1), proofs_text(c1b));
  auto reseeded = c1;
  reseeded.seed = filled32(0x77);
  EXPECT_NO_THROW(check_c1_challenges(reseeded, cfg));
  // ... but comm_r does: the same proofs under another comm_r are refused
  // (first by the challenges check, as the engine runs it).
  auto other_r = c1;
  other_r.comm_r[0] ^= 1;
  EXPECT_THROW(check_c1_challenges(other_r, cfg), std::invalid_argument);
  EXPECT_NO_THROW(verify_c1_vanilla(c1, cfg));
  expect_partition_satisfied(c1, cfg, 12);
}

TEST(PorepSynthetic, C1sRoundTripThroughTheReaderWithUpstreamNames) {
  for (uint64_t id : {10, 15}) {
    SealedSector s = sealed_2kib_cc(id);
    C1Wrapper w;
    w.sector_num = 1;
    w.sector_size = 2048;
    w.phase1 = seal_commit_phase1(s, filled32(0x22));
    const std::string raw = write_c1(w.phase1);
    // rust-filecoin-proofs-api registry.rs spells the variants so; the
    // VanillaSealProof tag names the size only.
    const std::string name =
        id == 10 ? "StackedDrg2KiBV1_1_Feat_SyntheticPoRep" : "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep";
    EXPECT_EQ(
        raw.rfind("{\"registered_proof\":\"" + name + "\",\"vanilla_proofs\":{\"StackedDrg2KiBV1\":[", 0), 0u)
        << raw.substr(0, 120);
    EXPECT_EQ(write_c1(parse_c1(raw)), raw);
    const std::string wrapped = write_c1_wrapper(w);
    C1Wrapper back = parse_c1_any(wrapped);
    EXPECT_EQ(back.sector_num, 1);
    EXPECT_EQ(back.sector_size, 2048u);
    EXPECT_EQ(write_c1(back.phase1), raw);
    EXPECT_NO_THROW(validate_c1_wrapper(back));
    // Relabelled as the interactive 2 KiB proof (5), the C1 no longer checks:
    // another porep_id is another graph (synthetic: other parents), and
    // NI-PoRep has 13 partitions where 5 has one.
    auto renamed = w.phase1;
    renamed.registered_proof = RegisteredSealProof::StackedDrg2KiBV1_1;
    EXPECT_THROW(verify_c1_vanilla(renamed, *porep_config(5)), C1ValidationError) << name;
  }
}

// Upstream's C2 refuses an all-zero seed (seal_commit_phase2_circuit_proofs),
// NI-PoRep included: so do the checks every C2 path here runs.
TEST(PorepSynthetic, AllZeroSeedIsRefused) {
  for (uint64_t id : {5, 10, 15}) {
    SealedSector s = sealed_2kib_cc(id);
    auto c1 = seal_commit_phase1(s, filled32(0x22));
    c1.seed = Domain{};
    try {
      check_c1_challenges(c1, s.config);
      ADD_FAILURE() << "registered proof " << id << ": all-zero seed accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("seed"), std::string::npos) << e.what();
    }
  }
}
