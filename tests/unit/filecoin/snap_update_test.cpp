// SnapDeals on sealed test sectors: encoding and decoding, the bincode
// PartitionProof (byte-for-byte round trips, the §7.12 size), the vanilla
// check and its rejections, the circuit satisfied with exactly the public
// inputs recomputed from the commitments, and Groth16 proofs verified and
// rejected (2 KiB here; 8 MiB, four partitions, with CUZK_SLOW_TESTS=1).
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <random>

#include "dev_params.hpp"
#include "filecoin/bincode/bincode.hpp"
#include "filecoin/common/domain.hpp"
#include "filecoin/snap/challenges.hpp"
#include "filecoin/snap/prove.hpp"
#include "filecoin/snap/update.hpp"
#include "filecoin/tree/commitments.hpp"
#include "filecoin/tree/fr32.hpp"
#include "groth16/io.hpp"
#include "groth16/rng.hpp"
#include "groth16/setup.hpp"
#include "platform/hex.hpp"
#include "r1cs/counting_cs.hpp"
#include "r1cs/proving_assignment.hpp"
#include "slow.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;
namespace fs = std::filesystem;

namespace {

// Development parameters of an update circuit, cached under its counts.
groth16::Parameters cached_parameters(const SnapConfig& c) {
  r1cs::CountingCS counts;
  EmptySectorUpdateCircuit(c).synthesize(counts);
  return cuzk_test_params::cached_dev_parameters(
      "snap-" + std::to_string(c.nodes) + "n-" + std::to_string(counts.num_constraints()) + "c-dev.params",
      EmptySectorUpdateCircuit(c));
}

SealedSector sealed_cc(uint64_t sector_size, uint64_t sector_num) {
  SealInputs in;
  in.config = *porep_config_for_size(sector_size);
  in.sector_num = sector_num;
  in.ticket.fill(uint8_t(sector_num));
  return seal_precommit(in);
}

std::vector<uint8_t> fresh_data(uint64_t sector_size, uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<uint8_t> raw(sector_size / 128 * 127);
  for (auto& b : raw) b = uint8_t(g());
  return fr32_pad(raw);
}

std::span<const uint8_t> bytes_of(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

// Satisfied, and with these public inputs (after ONE)?
::testing::AssertionResult satisfies(const r1cs::Circuit& circuit, const std::vector<ff::Fr>& inputs) {
  r1cs::ProvingAssignment pa;
  circuit.synthesize(pa);
  for (size_t i = 0; i < pa.num_constraints(); i++)
    if (pa.a[i] * pa.b[i] != pa.c[i])
      return ::testing::AssertionFailure() << "constraint " << i << " unsatisfied";
  if (std::vector<ff::Fr>(pa.input_assignment.begin() + 1, pa.input_assignment.end()) != inputs)
    return ::testing::AssertionFailure() << "other public inputs";
  return ::testing::AssertionSuccess();
}

struct Fixture2K {
  SnapConfig cfg = *snap_config(0);
  SealedSector sector = sealed_cc(2048, 7);
  std::vector<uint8_t> data = fresh_data(2048, 11);
  SnapUpdate update = encode_sector_update(cfg, sector, data);
};
const Fixture2K& fixture() {
  static const Fixture2K f;
  return f;
}

}  // namespace

TEST(SnapUpdate, EncodeDecodeRoundTripAndZeroData) {
  const auto& f = fixture();
  const SnapUpdate& u = f.update;
  EXPECT_EQ(fr_to_domain(u.comm_r_old), f.sector.comm_r);
  EXPECT_EQ(u.tree_d_new.root(), TreeD::from_padded(f.data).root());
  EXPECT_EQ(u.phi, snap_phi(domain_to_fr(u.tree_d_new.root()), u.comm_r_old));
  EXPECT_NE(u.comm_r_new, u.comm_r_old);
  // Node by node: new = old + data·rho(phi, node >> (6 - h)), h = 1 at 2 KiB.
  const auto& old_leaves = u.tree_r_old.level(0);
  const auto& new_leaves = u.tree_r_new.level(0);
  for (size_t i = 0; i < 64; i++) {
    const Fr d = domain_to_fr(u.tree_d_new.level(0)[i]);
    EXPECT_EQ(new_leaves[i], old_leaves[i] + d * snap_rho(u.phi, i >> 5)) << i;
  }
  // Decoding gives the data back.
  std::vector<Domain> back = snap_decode_replica(f.cfg, old_leaves, new_leaves, u.phi);
  EXPECT_EQ(back, u.tree_d_new.level(0));
  std::vector<uint8_t> bytes;
  for (const auto& d : back) bytes.insert(bytes.end(), d.begin(), d.end());
  EXPECT_EQ(bytes, f.data);
  // All-zero data: the replica does not change, comm_d_new is the CC comm_d.
  SnapUpdate z = encode_sector_update(f.cfg, f.sector, {});
  EXPECT_EQ(z.comm_r_new, z.comm_r_old);
  EXPECT_EQ(z.tree_d_new.root(), cc_comm_d(2048));
  EXPECT_EQ(platform::to_hex(z.tree_d_new.root()).substr(0, 8), "fc7e9282");
  // Data that is not fr32 is refused.
  std::vector<uint8_t> bad = f.data;
  bad[31] |= 0xc0;
  EXPECT_THROW(encode_sector_update(f.cfg, f.sector, bad), std::invalid_argument);
}

TEST(SnapVanilla, BincodeRoundTripsByteForByte) {
  const auto& f = fixture();
  SnapPartitionProof p = snap_partition_proof(f.update, 0);
  const std::string bytes = write_snap_partition_proof(p);
  EXPECT_EQ(bytes.size(), 15064u);  // docs/FILECOIN.md §7.12, 2 KiB
  SnapPartitionProof back = read_snap_partition_proof(bytes_of(bytes), "vanilla_proofs[0]");
  EXPECT_EQ(write_snap_partition_proof(back), bytes);
  EXPECT_EQ(back.apex_leafs, p.apex_leafs);
  for (size_t cut : {size_t(0), size_t(31), size_t(40), size_t(300), size_t(5000), bytes.size() - 1}) {
    try {
      read_snap_partition_proof(bytes_of(bytes).first(cut), "vanilla_proofs[0]");
      ADD_FAILURE() << "truncated at " << cut << " was read";
    } catch (const BincodeError& e) {
      EXPECT_NE(std::string(e.what()).find("vanilla_proofs[0]"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("at byte"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(read_snap_partition_proof(bytes_of(bytes + "x"), "v"), BincodeError);
}

TEST(SnapVanilla, GoodProofPassesTamperedOnesNamePartitionAndField) {
  const auto& f = fixture();
  const SnapPublic pub = f.update.public_inputs();
  const SnapPartitionProof good = snap_partition_proof(f.update, 0);
  EXPECT_NO_THROW(verify_snap_vanilla(f.cfg, pub, good, 0));
  struct Case {
    const char* expect;
    void (*damage)(SnapPartitionProof&, SnapPublic&);
  } cases[] = {
      {"partition 0 apex_leafs", [](auto& p, auto&) { p.apex_leafs[5][3] ^= 1; }},
      {"partition 0 apex_leafs:", [](auto& p, auto&) { p.apex_leafs.pop_back(); }},
      {"partition 0 challenge_proofs:", [](auto& p, auto&) { p.challenge_proofs.pop_back(); }},
      {"partition 0 comm_r_old", [](auto& p, auto&) { p.comm_c[0] ^= 1; }},
      {"challenge_proofs[3].proof_r_old",
       [](auto& p, auto&) { p.challenge_proofs[3].proof_r_old.base[1].hashes[4][2] ^= 1; }},
      {"challenge_proofs[2].proof_d_new",
       [](auto& p, auto&) { p.challenge_proofs[2].proof_d_new.base[0].hashes[0][9] ^= 1; }},
      {"challenge_proofs[4].proof_r_old.root",
       [](auto& p, auto&) {
         std::swap(p.challenge_proofs[4].proof_r_new, p.challenge_proofs[4].proof_r_old);
       }},
      {"the challenge is node",
       [](auto& p, auto&) { std::swap(p.challenge_proofs[0], p.challenge_proofs[1]); }},
      {"partition 0 comm_r_old", [](auto&, auto& pub) { std::swap(pub.comm_r_old, pub.comm_r_new); }},
      {"proof_d_new.root", [](auto&, auto& pub) { pub.comm_d_new[0] ^= 1; }},
      {"partition 0 comm_r_new: not a canonical", [](auto&, auto& pub) { pub.comm_r_new.fill(0xff); }},
  };
  for (const auto& c : cases) {
    SnapPartitionProof p = good;
    SnapPublic q = pub;
    c.damage(p, q);
    try {
      verify_snap_vanilla(f.cfg, q, p, 0);
      ADD_FAILURE() << c.expect << ": accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(c.expect), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(verify_snap_vanilla(f.cfg, pub, good, 1), std::invalid_argument);  // 2 KiB has one partition
  // Consistent trees, but the new replica encoded with another phi.
  SnapUpdate wrong = f.update;
  std::vector<Domain> data = wrong.tree_d_new.level(0);
  wrong.tree_r_new = PoseidonTree(
      snap_encode_replica(f.cfg, wrong.tree_r_old.level(0), data, wrong.phi + Fr::one()), f.cfg.shape);
  wrong.comm_r_new = comm_r(wrong.comm_c, wrong.tree_r_new.root());
  try {
    verify_snap_vanilla(f.cfg, wrong.public_inputs(), snap_partition_proof(wrong, 0), 0);
    ADD_FAILURE() << "a replica encoded with another phi was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("challenge_proofs[0].proof_r_new.leaf: is not the encoding"),
              std::string::npos)
        << e.what();
  }
}

TEST(SnapCircuit, SatisfiedWithTheRecomputedPublicInputs) {
  const auto& f = fixture();
  const SnapPublic pub = f.update.public_inputs();
  const SnapPartitionProof p = snap_partition_proof(f.update, 0);
  const auto inputs = snap_public_inputs(f.cfg, 0, pub);
  ASSERT_EQ(inputs.size(), 4u);
  EXPECT_EQ(inputs[0], ff::Fr::from_u64(1));  // k = 0, h_select = 1 (h = 1 is hs[0] at 2 KiB)
  EXPECT_TRUE(satisfies(EmptySectorUpdateCircuit(f.cfg, 0, pub, p), inputs));
  // A data leaf that is not the one encoded leaves the circuit unsatisfied.
  SnapPartitionProof bad = p;
  bad.challenge_proofs[6].proof_d_new.leaf[0] ^= 1;
  EXPECT_FALSE(satisfies(EmptySectorUpdateCircuit(f.cfg, 0, pub, bad), inputs));
  // Another comm_r_new re-derives other challenges.
  SnapPublic other = pub;
  other.comm_r_new = f.sector.comm_r;
  EXPECT_FALSE(satisfies(EmptySectorUpdateCircuit(f.cfg, 0, other, p), snap_public_inputs(f.cfg, 0, other)));
}

TEST(SnapProve, Update2KiBProvesAndVerifiesTamperingIsRejected) {
  const auto& f = fixture();
  const SnapPublic pub = f.update.public_inputs();
  const SnapPartitionProof p = snap_partition_proof(f.update, 0);
  auto t0 = std::chrono::steady_clock::now();
  auto params = cached_parameters(f.cfg);
  auto t1 = std::chrono::steady_clock::now();
  auto pvk = groth16::prepare_verifying_key(params.vk);
  auto proof = prove_empty_sector_update(f.cfg, pub, std::span<const SnapPartitionProof>(&p, 1), params);
  auto t2 = std::chrono::steady_clock::now();
  std::fprintf(stderr, "2 KiB snap: parameters %.1f s, prove %.1f s\n",
               std::chrono::duration<double>(t1 - t0).count(),
               std::chrono::duration<double>(t2 - t1).count());
  ASSERT_EQ(proof.size(), 192u);
  EXPECT_TRUE(verify_empty_sector_update(f.cfg, pvk, pub, proof));
  SnapPublic q = pub;
  std::swap(q.comm_r_old, q.comm_r_new);
  EXPECT_FALSE(verify_empty_sector_update(f.cfg, pvk, q, proof));
  q = pub;
  q.comm_d_new[4] ^= 1;
  EXPECT_FALSE(verify_empty_sector_update(f.cfg, pvk, q, proof));
  auto flipped = proof;
  flipped[150] ^= 1;
  EXPECT_FALSE(verify_empty_sector_update(f.cfg, pvk, pub, flipped));
  EXPECT_FALSE(verify_empty_sector_update(f.cfg, pvk, pub, std::span<const uint8_t>(proof).first(191)));
}

TEST(SnapProve, Update8MiBFourPartitionsSlow) {
  CUZK_SLOW_TEST("8 MiB: 10 M constraints per partition");
  const SnapConfig cfg = *snap_config(1);
  SealedSector s = sealed_cc(8ull << 20, 3);
  SnapUpdate u = encode_sector_update(cfg, s, fresh_data(8ull << 20, 5));
  const SnapPublic pub = u.public_inputs();
  std::vector<SnapPartitionProof> parts;
  for (size_t k = 0; k < cfg.partitions; k++) {
    parts.push_back(snap_partition_proof(u, k));
    EXPECT_NO_THROW(verify_snap_vanilla(cfg, pub, parts.back(), k));
  }
  // Partition 1's proof offered as partition 2.
  EXPECT_THROW(verify_snap_vanilla(cfg, pub, parts[1], 2), std::invalid_argument);
  auto params = cached_parameters(cfg);
  auto pvk = groth16::prepare_verifying_key(params.vk);
  auto proof = prove_empty_sector_update(cfg, pub, parts, params);
  ASSERT_EQ(proof.size(), 4 * 192u);
  EXPECT_TRUE(verify_empty_sector_update(cfg, pvk, pub, proof));
  auto swapped = proof;  // partitions out of order
  std::swap_ranges(swapped.begin(), swapped.begin() + 192, swapped.begin() + 192);
  EXPECT_FALSE(verify_empty_sector_update(cfg, pvk, pub, swapped));
}
