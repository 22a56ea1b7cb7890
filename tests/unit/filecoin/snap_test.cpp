// SnapDeals (EmptySectorUpdate): configuration and published parameter
// names, upstream's challenge vectors (storage-proofs-update challenges.rs),
// the gen-randomness hash against the reference Poseidon permutation, the
// circuit's counts for every size and upstream's test shapes (docs/FILECOIN.md
// §1.1, §1.2), and its gadgets' counts and challenge bits against the native
// derivation (gadgets.rs tests).
#include <gtest/gtest.h>

#include "filecoin/hash/poseidon.hpp"
#include "filecoin/snap/challenges.hpp"
#include "filecoin/snap/circuit.hpp"
#include "filecoin/snap/gadgets.hpp"
#include "circuit_counts.hpp"
#include "r1cs/counting_cs.hpp"
#include "r1cs/proving_assignment.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;
using ff::Fr;

namespace {

// rand_xorshift 0.3 XorShiftRng (docs/FILECOIN.md §7.11).
struct XorShift {
  uint32_t x, y, z, w;
  explicit XorShift(const uint8_t (&s)[16]) {
    auto le = [&](int i) {
      return uint32_t(s[i]) | uint32_t(s[i + 1]) << 8 | uint32_t(s[i + 2]) << 16 | uint32_t(s[i + 3]) << 24;
    };
    x = le(0), y = le(4), z = le(8), w = le(12);
  }
  uint32_t next_u32() {
    const uint32_t t = x ^ (x << 11);
    x = y, y = z, z = w;
    w = w ^ (w >> 19) ^ (t ^ (t >> 8));
    return w;
  }
  uint64_t next_u64() {
    const uint64_t lo = next_u32();
    return lo | uint64_t(next_u32()) << 32;
  }
};
constexpr uint8_t kTestSeed[16] = {0x59, 0x62, 0xbe, 0x5d, 0x76, 0x3d, 0x31, 0x8d,
                                   0x17, 0xdb, 0x37, 0x32, 0x54, 0x06, 0xbc, 0xe5};

// blstrs Scalar::random: four LE limbs, top bit cleared, rejected if >= r.
Fr fr_random(XorShift& rng) {
  for (;;) {
    ff::Fr::Repr l;
    for (auto& v : l) v = rng.next_u64();
    l[3] &= ~(uint64_t(1) << 63);
    if (auto f = Fr::from_canonical(l)) return *f;
  }
}

using Count = test::Counts;
Count count(const SnapConfig& c) { return test::counts_of(EmptySectorUpdateCircuit(c)); }

}  // namespace

TEST(SnapConfig, GeometryIdsAndPublishedParameterFiles) {
  const SnapConfig c2 = *snap_config(0), c8 = *snap_config(1), c32 = *snap_config(3);
  EXPECT_EQ(c2.nodes, 64u);
  EXPECT_EQ(c2.partitions, 1u);
  EXPECT_EQ(c2.apex_leaf_count, 8u);
  EXPECT_EQ(c2.h, 1u);
  EXPECT_EQ(c8.partitions, 4u);
  EXPECT_EQ(c8.challenge_count, 10u);
  EXPECT_EQ(c8.h, 10u);
  EXPECT_EQ(c32.partitions, 16u);
  EXPECT_EQ(c32.challenge_count, 86u);
  EXPECT_EQ(c32.apex_leaf_count, 128u);
  EXPECT_EQ(c32.shape.sub_arity, 8u);
  EXPECT_EQ(snap_config(4)->shape.top_arity, 2u);
  EXPECT_FALSE(snap_config(5));
  // k | h_select << partition_bits, h_select = 1 << (first position of h in hs):
  // hs = [1; 6] up to 32 KiB gives 1, h = 10 of [7..12] gives 8.
  EXPECT_EQ(snap_k_and_h_select(c2, 0), 1u);
  EXPECT_EQ(snap_k_and_h_select(c8, 3), 8u << 2 | 3);
  EXPECT_EQ(snap_k_and_h_select(c32, 15), 8u << 4 | 15);
  EXPECT_THROW(snap_k_and_h_select(c8, 4), std::invalid_argument);
  EXPECT_EQ(snap_circuit_id(c8), "snap-8m");
  EXPECT_EQ(snap_config_for_circuit_id("snap-64g")->nodes, 1ull << 31);
  EXPECT_FALSE(snap_config_for_circuit_id("snap-4k"));
  EXPECT_EQ(snap_parameter_identifier(c32), "empty_sector_update::PublicParams{ sector_nodes: 1073741824 }");
  // 32 GiB as listed in rust-fil-proofs parameters.json (docs/FILECOIN.md §7.12).
  const std::string stem = snap_parameter_stem(c32);
  const std::string prefix = "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-";
  ASSERT_EQ(stem.size(), prefix.size() + 64);
  EXPECT_EQ(stem.substr(0, prefix.size()), prefix);
  EXPECT_EQ(stem.substr(prefix.size(), 8), "3b7f44a9");
  EXPECT_EQ(stem.substr(stem.size() - 4), "9d18");
}

TEST(SnapChallenges, UpstreamHardcodedVectors) {
  XorShift rng(kTestSeed);
  const Fr comm_r_new = fr_random(rng);
  EXPECT_EQ(comm_r_new.to_hex(), "0x6c0740d6edb22eb13054f4587d6d2dcbc688f796c303c7044f60429c4bbe1c10");
  // spu/src/challenges.rs test_challenges_against_hardcoded: (log2 nodes, k) -> first 5.
  struct Row {
    int log_nodes;
    size_t k;
    uint32_t first[5];
  } rows[] = {
      {5, 0, {21, 7, 3, 31, 0}},
      {6, 0, {53, 51, 56, 3, 0}},
      {7, 0, {117, 25, 62, 0, 72}},
      {8, 0, {245, 140, 15, 128, 28}},
      {9, 0, {245, 140, 15, 128, 28}},
      {9, 1, {286, 308, 493, 510, 508}},
      {10, 0, {245, 454, 3, 400, 193}},
      {10, 1, {542, 666, 955, 927, 911}},
      {18, 0, {36085, 32783, 44060, 10950, 3731}},
      {18, 1, {78878, 130797, 112892, 93994, 78379}},
      {19, 0, {101621, 16391, 109319, 25944, 41193}},
      {19, 1, {209950, 163702, 175679, 224741, 197410}},
      {24, 0, {1019125, 116736, 706220, 59698, 799498}},
      {24, 1, {2092548, 1213276, 1185483, 1164598, 1095197}},
      {24, 14, {15212432, 15665918, 15015423, 15012912, 15495223}},
      {24, 15, {16388544, 15794686, 16637142, 16319148, 16328348}},
      {30, 0, {1019125, 27985696, 15282860, 11586600, 44651330}},
      {30, 1, {109168525, 127316247, 80331041, 97065716, 72310052}},
      {30, 14, {990420169, 955146989, 968005601, 976863263, 944650706}},
      {30, 15, {1038629497, 1053983614, 1030421316, 1027373887, 1068685433}},
      {31, 0, {1019125, 13992848, 3820715, 18225541, 57316660}},
      {31, 1, {243386253, 197875851, 204632136, 171516766, 247789010}},
      {31, 14, {1997053129, 1920414070, 2003609080, 1900492803, 1963254685}},
      {31, 15, {2045262457, 2036941247, 2136653521, 2091356007, 2147167623}},
  };
  for (const auto& r : rows) {
    const SnapConfig c = *snap_config_for_nodes(1ull << r.log_nodes);
    const auto got = snap_challenges(c, comm_r_new, r.k);
    ASSERT_EQ(got.size(), c.challenge_count);
    EXPECT_EQ(std::vector<uint32_t>(got.begin(), got.begin() + 5),
              std::vector<uint32_t>(r.first, r.first + 5))
        << "2^" << r.log_nodes << " nodes, k = " << r.k;
  }
}

TEST(SnapChallenges, StayInsideTheirPartition) {
  XorShift rng(kTestSeed);
  for (int log_nodes : {5, 6, 7, 8, 9, 10, 18, 19, 24, 30, 31}) {
    const SnapConfig c = *snap_config_for_nodes(1ull << log_nodes);
    const Fr comm_r_new = fr_random(rng);
    for (size_t k = 0; k < c.partitions; k++)
      for (uint32_t ch : snap_challenges(c, comm_r_new, k)) EXPECT_EQ(ch >> c.random_bits(), k) << log_nodes;
  }
}

TEST(SnapRandomness, CustomTagHashMatchesTheReferencePermutation) {
  // Tag 2^40 (neptune Custom(Arbitrary(1))) with the arity-2 constants.
  EXPECT_EQ(poseidon_tag_custom(1), Fr::from_u64(uint64_t(1) << 40));
  const Fr a = Fr::from_u64(12345), b = Fr::from_u64(678);
  const Fr pre[2] = {a, b};
  EXPECT_EQ(snap_randomness_hash(a, b),
            poseidon_hash_correct(poseidon_constants(2), pre, Fr::from_u64(1ull << 40)));
  EXPECT_NE(snap_randomness_hash(a, b), poseidon_hash(pre));  // not the MerkleTree tag
  EXPECT_EQ(snap_phi(a, b), snap_randomness_hash(a, b));
  EXPECT_EQ(snap_rho(a, 7), snap_randomness_hash(a, Fr::from_u64(7)));
}

TEST(SnapCircuit, CountsOfSmallProductionSizes) {
  // docs/FILECOIN.md §1.2 (2 KiB also upstream's test_empty_sector_update_circuit_2kib).
  Count c2 = count(*snap_config(0)), c8 = count(*snap_config(1));
  EXPECT_EQ(c2.constraints, 1705039u);
  EXPECT_EQ(c2.inputs, 5u);
  EXPECT_EQ(c2.aux, 1703569u);
  EXPECT_EQ(c8.constraints, 10007503u);
  EXPECT_EQ(c8.inputs, 5u);
  EXPECT_EQ(c8.aux, 9998039u);
  // What the engine plans memory and checks parameter files with.
  EXPECT_EQ(snap_config(0)->partition_rows, c2.constraints + c2.inputs);
  EXPECT_EQ(snap_config(1)->partition_rows, c8.constraints + c8.inputs);
  EXPECT_EQ(SnapConfig::kPartitionInputs, c2.inputs);
}

// 57 M, 81 M and 85 M constraints: 5-9 s of counting each on 2 cores.
TEST(SnapCircuit, CountsOf512MiB32GiBAnd64GiB) {
  struct Row {
    uint64_t id;
    Count want;
  } rows[] = {{2, {57450479, 5, 57401314}}, {3, {81049499, 5, 80978488}}, {4, {85006101, 5, 84931220}}};
  for (const auto& r : rows) {
    Count got = count(*snap_config(r.id));
    EXPECT_EQ(got.constraints, r.want.constraints) << r.id;
    EXPECT_EQ(got.inputs, r.want.inputs) << r.id;
    EXPECT_EQ(got.aux, r.want.aux) << r.id;
    EXPECT_EQ(snap_config(r.id)->partition_rows, got.constraints + got.inputs) << r.id;
  }
}

TEST(SnapCircuit, CountsOfUpstreamTestShapes) {
  // spu/tests/circuit.rs test_empty_sector_update_circuit_{1,2,4,8,16,32}kib.
  struct Row {
    uint64_t nodes;
    size_t constraints;
  } rows[] = {{1 << 5, 1248389}, {1 << 6, 1705039}, {1 << 7, 2165109},
              {1 << 8, 2620359}, {1 << 9, 6300021}, {1 << 10, 6760091}};
  for (const auto& r : rows) {
    Count got = count(*snap_config_for_nodes(r.nodes));
    EXPECT_EQ(got.constraints, r.constraints) << r.nodes;
    EXPECT_EQ(got.inputs, 5u) << r.nodes;
  }
}

TEST(SnapGadgets, ChallengeBitsMatchTheNativeChallenges) {
  // spu/src/gadgets.rs test_gen_challenge_bits_gadget: 568 per digest.
  XorShift rng(kTestSeed);
  const std::pair<int, size_t> sizes[] = {{5, 568},  {6, 568},  {7, 568},   {8, 568},   {9, 568},  {10, 568},
                                          {18, 568}, {19, 568}, {24, 4544}, {30, 5680}, {31, 5680}};
  for (auto [log_nodes, want] : sizes) {
    const SnapConfig c = *snap_config_for_nodes(1ull << log_nodes);
    const Fr comm_r_new = fr_random(rng);
    for (size_t k : {size_t(0), c.partitions - 1}) {
      r1cs::ProvingAssignment cs;
      auto crn = gadgets::AllocatedNum::alloc(cs, comm_r_new);
      auto part = gadgets::AllocatedNum::alloc(cs, Fr::from_u64(k));
      const size_t before = cs.num_constraints();
      auto bits = snap_gadgets::gen_challenge_bits(cs, crn, part, c.challenge_count, c.random_bits());
      EXPECT_EQ(cs.num_constraints() - before, want) << log_nodes;
      const auto native = snap_challenges(c, comm_r_new, k);
      ASSERT_EQ(bits.size(), native.size());
      for (size_t i = 0; i < bits.size(); i++) {
        uint32_t v = uint32_t(k) << c.random_bits();
        for (size_t b = 0; b < bits[i].size(); b++) v |= uint32_t(*bits[i][b].value) << b;
        EXPECT_EQ(v, native[i]) << log_nodes << " k " << k << " challenge " << i;
      }
      for (size_t i = 0; i < cs.num_constraints(); i++) ASSERT_EQ(cs.a[i] * cs.b[i], cs.c[i]) << i;
    }
  }
}

TEST(SnapGadgets, ApexPorCounts) {
  // spu/src/gadgets.rs test_apex_por_gadget_*: (apex leaves, partitions) -> constraints.
  struct Row {
    size_t leaves, partitions, constraints;
  } rows[] = {{8, 1, 317654}, {128, 2, 5808515}, {16, 4, 771448}, {8, 8, 453797}};
  for (const auto& r : rows) {
    r1cs::CountingCS cs;
    auto comm_d = gadgets::AllocatedNum::alloc(cs, std::nullopt);
    std::vector<gadgets::AllocatedBit> bits;
    std::vector<gadgets::AllocatedNum> leaves, path;
    for (size_t i = 1; i < r.partitions; i *= 2)
      bits.push_back(gadgets::AllocatedBit::alloc(cs, std::nullopt));
    for (size_t i = 0; i < r.leaves; i++) leaves.push_back(gadgets::AllocatedNum::alloc(cs, std::nullopt));
    for (size_t i = 0; i < bits.size(); i++) path.push_back(gadgets::AllocatedNum::alloc(cs, std::nullopt));
    const size_t before = cs.num_constraints();
    snap_gadgets::apex_por(cs, leaves, bits, path, comm_d);
    EXPECT_EQ(cs.num_constraints() - before, r.constraints) << r.leaves << " x " << r.partitions;
  }
}
