// Fallback PoSt (WinningPoSt, WindowPoSt): constraint counts of every size
// and of upstream's test shapes (docs/FILECOIN.md §1.1, §1.2), parameter file
// names (published ones), challenge derivation against values computed with
// an independent SHA-256 (Python hashlib), bincode round trips, vanilla
// proofs of sealed 2 KiB sectors checked and tampered, the circuit satisfied
// with exactly the public inputs the verifier recomputes, and real Groth16
// proofs of both kinds verified and rejected.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

#include "filecoin/bincode/bincode.hpp"
#include "filecoin/post/prove.hpp"
#include "filecoin/sdr/replica_id.hpp"
#include "groth16/rng.hpp"
#include "groth16/setup.hpp"
#include "platform/hex.hpp"
#include "circuit_counts.hpp"
#include "r1cs/test_cs.hpp"
#include "slow.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;

namespace {

Domain hex32(const char* h) {
  Domain d{};
  auto v = *platform::from_hex(h);
  std::copy(v.begin(), v.end(), d.begin());
  return d;
}

using Count = test::Counts;
Count count(const PostConfig& c) { return test::counts_of(FallbackPostCircuit(c)); }

// A sealed 2 KiB sector with its own data and ticket.
SealedSector sealed_2k(uint64_t sector_num) {
  SealInputs in;
  in.config = *porep_config(5);
  in.sector_num = sector_num;
  in.ticket.fill(uint8_t(sector_num));
  std::mt19937_64 g(sector_num);
  in.padded_data.resize(2048);
  for (size_t i = 0; i < in.padded_data.size(); i++) in.padded_data[i] = (i % 32 == 31) ? 0 : uint8_t(g());
  return seal_precommit(in);
}

const Domain kRandomness = hex32("2fb40fd7043336d645cd138963c6f960f649db53a0f532e264598e9f53e2ed23");

}  // namespace

TEST(PostCircuit, CountsOfEveryProductionSize) {
  struct Row {
    uint64_t id;
    Count want;
  } rows[] = {
      {0, {90750, 133, 91674}},   {1, {230670, 133, 233442}}, {2, {300630, 133, 304326}},
      {3, {370590, 133, 375210}}, {4, {391314, 133, 396000}}, {5, {21866, 23, 22128}},
      {6, {64266, 23, 65088}},    {7, {85466, 23, 86568}},    {10, {21866, 23, 22128}},
  };
  for (const auto& r : rows) {
    auto c = *post_config(r.id);
    Count got = count(c);
    EXPECT_EQ(got.constraints, r.want.constraints) << c.name;
    EXPECT_EQ(got.inputs, r.want.inputs) << c.name;
    EXPECT_EQ(got.aux, r.want.aux) << c.name;
    // What the engine plans memory and checks parameter files with.
    EXPECT_EQ(c.partition_rows, got.constraints + got.inputs) << c.name;
    EXPECT_EQ(c.partition_inputs(), got.inputs) << c.name;
  }
}

// 125 M and 130 M constraints: minutes of counting on 2 cores.
TEST(PostCircuit, CountsOfWindow32And64GiBSlow) {
  CUZK_SLOW_TEST("minutes of counting");
  Count a = count(*post_config(8)), b = count(*post_config(9));
  EXPECT_EQ(a.constraints, 125279217u);
  EXPECT_EQ(a.inputs, 25840u);
  EXPECT_EQ(a.aux, 126902376u);
  EXPECT_EQ(b.constraints, 129887900u);
  EXPECT_EQ(b.inputs, 25301u);
  EXPECT_EQ(b.aux, 131500200u);
  EXPECT_EQ(post_config(8)->partition_rows, a.constraints + a.inputs);
  EXPECT_EQ(post_config(9)->partition_rows, b.constraints + b.inputs);
  EXPECT_EQ(post_config(8)->partition_inputs(), a.inputs);
  EXPECT_EQ(post_config(9)->partition_inputs(), b.inputs);
}

TEST(PostCircuit, CountsOfUpstreamTestShapes) {
  // sppost/tests/fallback_circuit.rs: leaves = 64 × base trees, 5 challenges.
  struct Row {
    TreeShape shape;
    size_t sectors, inputs, constraints;
  } rows[] = {{{8, 0, 0}, 3, 19, 16869},
              {{8, 4, 0}, 3, 19, 22674},
              {{8, 4, 2}, 3, 19, 27384},
              {{8, 0, 0}, 2, 13, 11246}};
  for (const auto& r : rows) {
    PostConfig c = *post_config(5);
    c.shape = r.shape;
    c.nodes = 64 * r.shape.base_tree_count();
    c.challenge_count = 5;
    c.sector_count = r.sectors;
    Count got = count(c);
    EXPECT_EQ(got.constraints, r.constraints) << r.shape.sub_arity << "-" << r.shape.top_arity;
    EXPECT_EQ(got.inputs, r.inputs);
  }
}

TEST(PostConfig, IdsNamesAndPublishedParameterFiles) {
  EXPECT_EQ(post_circuit_id(*post_config(0)), "winning-post-2k");
  EXPECT_EQ(post_circuit_id(*post_config(8)), "window-post-32g");
  EXPECT_EQ(post_circuit_id(*post_config(13)), "window-post-32g");  // V1_1 shares V1's circuit
  EXPECT_EQ(post_config(13)->api, ApiVersion::V1_2_0);
  EXPECT_EQ(post_config(9)->shape.top_arity, 2u);
  EXPECT_EQ(post_config(8)->sector_count, 2349u);
  EXPECT_FALSE(post_config(15));
  EXPECT_EQ(post_config_for_circuit_id("window-post-64g")->sector_count, 2300u);
  // Names as in rust-fil-proofs parameters.json.
  const std::string prefix = "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-";
  EXPECT_EQ(post_parameter_stem(*post_config(0)),
            prefix + "8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e");
  EXPECT_EQ(post_parameter_stem(*post_config(5)),
            prefix + "8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0");
  EXPECT_EQ(post_parameter_stem(*post_config(3)),
            prefix + "8-8-0-559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e");
  EXPECT_EQ(post_parameter_stem(*post_config(9)),
            prefix + "8-8-2-2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def");
}

TEST(PostChallenges, MatchAnIndependentSha256) {
  // Expected values computed with Python hashlib from the definitions of §7.11
  // (randomness and prover of rust-filecoin-proofs-api's mainnet vector).
  const uint64_t leaves_2k[10] = {58, 19, 5, 36, 61, 0, 34, 33, 37, 31};
  for (uint64_t n = 0; n < 10; n++)
    EXPECT_EQ(post_leaf_challenge(kRandomness, 132, n, 64), leaves_2k[n]) << n;
  EXPECT_EQ(post_leaf_challenge(kRandomness, 132, 0, 1ull << 30), 396119802u);
  EXPECT_EQ(post_leaf_challenge(kRandomness, 132, 9, 1ull << 30), 332920863u);
  const Domain prover = prover_id_from_actor_id(3751);
  EXPECT_EQ(prover[0], 0xa7);
  EXPECT_EQ(prover[1], 0x1d);
  EXPECT_EQ(post_sector_challenge(kRandomness, 0, 1000, prover), 948u);
  EXPECT_EQ(winning_post_sector_index(kRandomness, 1, prover), 0u);
  // Window V1 (ApiVersion 1.0): the second sector's challenges depend on its index.
  const uint64_t second[10] = {31, 20, 16, 25, 21, 5, 35, 56, 60, 8};
  EXPECT_EQ(post_vanilla_challenges(*post_config(5), kRandomness, 133, 1),
            std::vector<uint64_t>(second, second + 10));
  // V1_2: they do not.
  EXPECT_EQ(post_vanilla_challenges(*post_config(10), kRandomness, 132, 7),
            std::vector<uint64_t>(leaves_2k, leaves_2k + 10));
  // Winning: 66 challenges of the one sector, n = 0..65.
  auto w = post_vanilla_challenges(*post_config(0), kRandomness, 132, 0);
  ASSERT_EQ(w.size(), 66u);
  EXPECT_EQ(w[10], 12u);
  EXPECT_EQ(w[65], 26u);
}

TEST(PostVanilla, BincodeRoundTripsByteForByte) {
  SealedSector s = sealed_2k(132);
  for (uint64_t id : {0ull, 5ull}) {
    auto c = *post_config(id);
    FallbackPoStSectorProof p = post_vanilla_proof(c, s, kRandomness, 0);
    std::string bytes = write_post_sector_proof(p);
    const size_t openings = id == 0 ? 66 : 10;
    // 8 + 32 + 8 (sectors) + 8 (count) + 556 per 2 KiB opening + 64.
    EXPECT_EQ(bytes.size(), 8 + 32 + 8 + 8 + 556 * openings + 64);
    auto span = std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    FallbackPoStSectorProof back = read_post_sector_proof(span, "vanilla_proofs[0]");
    EXPECT_EQ(write_post_sector_proof(back), bytes);
    EXPECT_EQ(back.sector_id, 132u);
    // Every truncation is refused, naming the buffer and an offset.
    for (size_t cut : {size_t(0), size_t(7), size_t(40), size_t(100), bytes.size() - 1}) {
      try {
        read_post_sector_proof(span.first(cut), "vanilla_proofs[0]");
        ADD_FAILURE() << "truncated at " << cut << " was read";
      } catch (const BincodeError& e) {
        EXPECT_NE(std::string(e.what()).find("vanilla_proofs[0]"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("at byte"), std::string::npos) << e.what();
      }
    }
    std::string bad = bytes;
    bad[56] = 7;  // the first MerkleProof's variant
    EXPECT_THROW(read_post_sector_proof(
                     std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(bad.data()), bad.size()), "x"),
                 BincodeError);
  }
}

TEST(PostVanilla, TamperedProofsAreRefusedNamingSectorAndField) {
  SealedSector a = sealed_2k(132), b = sealed_2k(133);
  const auto c = *post_config(5);
  std::vector<FallbackPoStSectorProof> good = {post_vanilla_proof(c, a, kRandomness, 0),
                                               post_vanilla_proof(c, b, kRandomness, 1)};
  EXPECT_NO_THROW(verify_post_vanilla(c, kRandomness, good, 0));
  struct Case {
    const char* expect;
    void (*damage)(std::vector<FallbackPoStSectorProof>&);
  } cases[] = {
      {"sector 133) inclusion_proofs[3]",
       [](auto& v) { v[1].sectors[0].inclusion_proofs[3].base[0].hashes[2][4] ^= 1; }},
      {"sector 132) comm_r", [](auto& v) { v[0].comm_r[0] ^= 1; }},
      {"sector 132) inclusion_proofs[0].root",
       [](auto& v) { v[0].sectors[0].inclusion_proofs[0].root[0] ^= 1; }},
      {"randomness challenges leaf",
       [](auto& v) { std::swap(v[0], v[1]); }},  // sectors in another order (V1)
      {"inclusion_proofs: 9 proofs", [](auto& v) { v[0].sectors[0].inclusion_proofs.pop_back(); }},
      {"sector 999)", [](auto& v) { v[1].sector_id = 999; }},
  };
  for (const auto& cs : cases) {
    auto v = good;
    cs.damage(v);
    try {
      verify_post_vanilla(c, kRandomness, v, 0);
      ADD_FAILURE() << cs.expect << ": accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(cs.expect), std::string::npos) << e.what();
    }
  }
  // Other randomness: the openings are for other leaves.
  Domain other = kRandomness;
  other[0] ^= 1;
  EXPECT_THROW(verify_post_vanilla(c, other, good, 0), std::invalid_argument);
}

TEST(PostCircuit, SatisfiedWithTheVerifiersPublicInputs) {
  SealedSector a = sealed_2k(132), b = sealed_2k(133);
  for (uint64_t id : {0ull, 5ull, 10ull}) {
    const auto c = *post_config(id);
    std::vector<FallbackPoStSectorProof> proofs = {post_vanilla_proof(c, a, kRandomness, 0)};
    std::vector<PostPublicSector> pub = {{a.sector_num, a.comm_r}};
    if (c.kind == PostKind::Window) {
      proofs.push_back(post_vanilla_proof(c, b, kRandomness, 1));
      pub.push_back({b.sector_num, b.comm_r});
    }
    r1cs::TestConstraintSystem cs;
    FallbackPostCircuit(c, proofs).synthesize(cs);
    EXPECT_TRUE(cs.is_satisfied()) << c.name << ": " << cs.which_is_unsatisfied().value_or("");
    EXPECT_TRUE(cs.verify(post_public_inputs(c, kRandomness, pub, 0))) << c.name;
    Domain other = kRandomness;
    other[3] ^= 1;
    EXPECT_FALSE(cs.verify(post_public_inputs(c, other, pub, 0))) << c.name;
  }
  // A partition of one sector is padded by repeating it: still satisfied.
  const auto c = *post_config(5);
  std::vector<FallbackPoStSectorProof> one = {post_vanilla_proof(c, a, kRandomness, 0)};
  std::vector<PostPublicSector> pub = {{a.sector_num, a.comm_r}};
  r1cs::TestConstraintSystem cs;
  FallbackPostCircuit(c, one).synthesize(cs);
  EXPECT_TRUE(cs.is_satisfied());
  EXPECT_TRUE(cs.verify(post_public_inputs(c, kRandomness, pub, 0)));
}

TEST(PostProve, WinningAndWindowProofsVerifyAndTamperingIsRejected) {
  SealedSector a = sealed_2k(132), b = sealed_2k(133);
  groth16::SecureRng rng;
  for (uint64_t id : {0ull, 10ull}) {
    const auto c = *post_config(id);
    auto params = groth16::generate_parameters(FallbackPostCircuit(c), groth16::ToxicWaste::random(rng));
    auto pvk = groth16::prepare_verifying_key(params.vk);
    std::vector<FallbackPoStSectorProof> proofs = {post_vanilla_proof(c, a, kRandomness, 0)};
    std::vector<PostPublicSector> pub = {{a.sector_num, a.comm_r}};
    if (c.kind == PostKind::Window) {
      proofs.push_back(post_vanilla_proof(c, b, kRandomness, 1));
      pub.push_back({b.sector_num, b.comm_r});
    }
    auto proof = prove_post_partition(c, proofs, params);
    ASSERT_EQ(proof.size(), 192u);
    EXPECT_TRUE(verify_post_partition(c, pvk, kRandomness, pub, 0, proof)) << c.name;
    Domain other = kRandomness;
    other[5] ^= 1;
    EXPECT_FALSE(verify_post_partition(c, pvk, other, pub, 0, proof)) << c.name;
    auto wrong = pub;
    wrong[0].sector_id += 1;
    EXPECT_FALSE(verify_post_partition(c, pvk, kRandomness, wrong, 0, proof)) << c.name;
    wrong = pub;
    wrong[0].comm_r = b.comm_r;
    EXPECT_FALSE(verify_post_partition(c, pvk, kRandomness, wrong, 0, proof)) << c.name;
    auto flipped = proof;
    flipped[100] ^= 1;
    EXPECT_FALSE(verify_post_partition(c, pvk, kRandomness, pub, 0, flipped)) << c.name;
  }
}
