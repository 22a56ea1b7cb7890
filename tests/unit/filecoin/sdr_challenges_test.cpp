// replica_id and PoRep challenges (docs/FILECOIN.md §7.2, §7.4). The synthetic vector is
// rust-fil-proofs' test_synth_challenges_against_hardcoded; the replica_id,
// interactive and NI-PoRep vectors were computed from the §7.2/§7.4
// formulas with Python's hashlib and big integers (an implementation
// independent of this one).
#include <gtest/gtest.h>

#include <set>

#include "filecoin/common/domain.hpp"
#include "filecoin/sdr/challenges.hpp"
#include "filecoin/sdr/replica_id.hpp"
#include "platform/hex.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;

namespace {

Domain domain_hex(const char* hex) { return *domain_from_hex(hex); }
Domain filled(uint8_t b) {
  Domain d;
  d.fill(b);
  return d;
}
Domain small(uint8_t v) {
  Domain d{};
  d[0] = v;
  return d;
}

const char* kReplicaId = "5ba3dcfaef13c694b8edb26cd31f72d1dae745424a884a793562e47e687af70e";

}  // namespace

// Unsigned LEB128 of the actor id (f01000 -> e8 07), then zeros.
TEST(SdrReplicaId, ProverIdFromActorId) {
  EXPECT_EQ(platform::to_hex(prover_id_from_actor_id(1000)).substr(0, 6), "e80700");
  EXPECT_EQ(prover_id_from_actor_id(0), Domain{});
  EXPECT_EQ(prover_id_from_actor_id(127)[0], 0x7f);
  EXPECT_EQ(platform::to_hex(prover_id_from_actor_id(128)).substr(0, 6), "800100");
  auto max = prover_id_from_actor_id(~uint64_t(0));  // 10 bytes: 9 × ff, then 01
  EXPECT_EQ(platform::to_hex(max).substr(0, 22), "ffffffffffffffffff0100");
}

TEST(SdrReplicaId, KnownAnswer) {
  Domain ticket;
  for (int i = 0; i < 32; i++) ticket[i] = uint8_t(i + 1);
  const Domain comm_d = domain_hex("fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833");
  Domain r = replica_id(prover_id_from_actor_id(1000), 42, ticket, comm_d, porep_config(5)->porep_id());
  EXPECT_EQ(platform::to_hex(r), kReplicaId);
  EXPECT_LT(r[31], 0x40);
}

TEST(SdrChallenges, InteractiveKnownAnswer) {
  auto c = interactive_challenges(uint64_t(1) << 30, 18, domain_hex(kReplicaId), filled(7), 3);
  EXPECT_EQ(c, (std::vector<uint64_t>{516976334, 810830954, 433052685, 343910453, 918795593, 504089135,
                                      258230760, 1000978140, 358066984, 725102327, 819857952, 599149593,
                                      41241135, 526698707, 405192227, 227955051, 995456765, 655794513}));
  // porep_challenges for an interactive 32GiB config picks the same.
  EXPECT_EQ(porep_challenges(*porep_config(8), domain_hex(kReplicaId), filled(7), Domain{}, 3), c);
  EXPECT_EQ(porep_challenges(*porep_config(5), domain_hex(kReplicaId), filled(7), Domain{}, 0),
            (std::vector<uint64_t>{16, 24}));
}

TEST(SdrChallenges, NonInteractiveKnownAnswer) {
  Domain comm_r = filled(9);
  comm_r[31] = 0x2a;
  auto c = ni_challenges(uint64_t(1) << 30, 18, domain_hex(kReplicaId), comm_r, 125);
  EXPECT_EQ(c, (std::vector<uint64_t>{356183396, 750166963, 442409117, 672337012, 740800121, 817929635,
                                      907547903, 7655502, 541301426, 118560747, 75207056, 900959580,
                                      766502777, 718111985, 282158549, 833634063, 744096814, 237691121}));
  auto cfg = *porep_config(18);  // 32GiB NI-PoRep: 126 partitions
  ASSERT_EQ(cfg.mode, ChallengeMode::NonInteractive);
  ASSERT_EQ(cfg.challenges_per_partition, 18u);
  EXPECT_EQ(porep_challenges(cfg, domain_hex(kReplicaId), filled(1), comm_r, 125), c);
}

// Partition k of size n equals slice k of one partition of size n*K (j is global).
TEST(SdrChallenges, PartitionsAreSlicesOfOneSequence) {
  const Domain rid = domain_hex(kReplicaId), seed = filled(3);
  auto whole = interactive_challenges(1 << 20, 50, rid, seed, 0);
  for (size_t k = 0; k < 5; k++) {
    auto part = interactive_challenges(1 << 20, 10, rid, seed, k);
    EXPECT_TRUE(std::equal(part.begin(), part.end(), whole.begin() + 10 * k)) << k;
  }
}

TEST(SdrChallenges, ChallengeFromBytes) {
  // LE value 2^256 - 1 mod (2^32 - 1) = 0 since 2^32 ≡ 1; so challenge 1.
  EXPECT_EQ(challenge_from_bytes(filled(0xff), uint64_t(1) << 32), 1u);
  // Small values: v mod (nodes - 1) + 1.
  EXPECT_EQ(challenge_from_bytes(small(200), 64), 200 % 63 + 1u);
  // 2^64 mod 63 = (2^6)^10 * 2^4 mod 63 = 16.
  Domain two64{};
  two64[8] = 1;
  EXPECT_EQ(challenge_from_bytes(two64, 64), 17u);
  EXPECT_THROW(challenge_from_bytes(two64, 1), std::invalid_argument);
}

// rust-fil-proofs test_synth_challenges_against_hardcoded.
TEST(SdrChallenges, SyntheticKnownAnswer) {
  SyntheticChallenges s(1 << 10, small(55), small(101), 21);
  const std::vector<uint64_t> synth = {178, 297, 869, 211, 875, 477, 94,  781, 124, 332, 856,
                                       801, 176, 692, 429, 691, 290, 204, 986, 210, 973};
  EXPECT_EQ(s.all(), synth);
  for (uint64_t i = 0; i < 21; i++) EXPECT_EQ(s.challenge(i), synth[i]);
  EXPECT_THROW(s.challenge(21), std::out_of_range);
  const std::vector<uint64_t> porep = {176, 781, 801, 986, 290, 211, 692, 856, 986, 332};
  EXPECT_EQ(s.partition_challenges(10, filled(1), 0), porep);
  // Partition k of 5 = the second half (selection keystream seeks to 4*k*per).
  EXPECT_EQ(s.partition_challenges(5, filled(1), 1), std::vector<uint64_t>(porep.begin() + 5, porep.end()));
}

TEST(SdrChallenges, SyntheticConfigDispatch) {
  auto cfg = *porep_config(10);  // 2KiB synthetic
  ASSERT_EQ(cfg.mode, ChallengeMode::Synthetic);
  SyntheticChallenges s(cfg.nodes, small(55), small(101));
  EXPECT_EQ(s.count(), 64u);  // min(nodes, 2^18)
  auto c = porep_challenges(cfg, small(55), filled(1), small(101), 0);
  EXPECT_EQ(c, s.partition_challenges(cfg.challenges_per_partition, filled(1), 0));
  const auto synth = s.all();
  std::set<uint64_t> all(synth.begin(), synth.end());
  for (auto x : c) {
    EXPECT_TRUE(all.count(x)) << x;
    EXPECT_GE(x, 1u);
    EXPECT_LT(x, 64u);
  }
  EXPECT_THROW(porep_challenges(cfg, small(55), filled(1), small(101), 1), std::invalid_argument);
  EXPECT_EQ(SyntheticChallenges(uint64_t(1) << 30, small(1), small(2)).count(), uint64_t(1) << 18);
}
