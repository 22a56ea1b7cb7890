// Native hashing: neptune v11 Poseidon (round numbers, Grain constants, the
// optimized constants byte-for-byte against supra_seal's files, known
// answers of docs/FILECOIN.md §3.7) and SHA-256 with Filecoin's trim.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "fr_util.hpp"
#include "filecoin/hash/poseidon.hpp"
#include "filecoin/hash/sha256.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;
using test::fr_limbs;

namespace {

// The 4 little-endian u64 limbs of a canonical value, as the Rust tests write them.
Fr from_hex(const char* hex) {
  std::string s(hex + 2);
  std::array<uint8_t, 32> be{};
  for (size_t i = 0; i < 32; i++) be[i] = uint8_t(std::stoul(s.substr(2 * i, 2), nullptr, 16));
  return *Fr::from_bytes_be(be);
}

std::vector<Fr> iota_frs(size_t n) {
  std::vector<Fr> v;
  for (size_t i = 0; i < n; i++) v.push_back(Fr::from_u64(i));
  return v;
}

// docs/FILECOIN.md §3.1 table (and neptune's test_round_numbers_against_known_values).
TEST(PoseidonConstants, RoundNumbers) {
  struct Case {
    size_t arity, rp, rp_strong;
  } cases[] = {{2, 55, 69}, {4, 56, 70}, {8, 57, 72}, {11, 57, 72}, {16, 59, 74}, {24, 59, 74}, {36, 60, 75}};
  for (auto c : cases) {
    auto [rf, rp] = poseidon_round_numbers(c.arity, PoseidonStrength::Standard);
    EXPECT_EQ(rf, 8u) << c.arity;
    EXPECT_EQ(rp, c.rp) << c.arity;
    EXPECT_EQ(poseidon_round_numbers(c.arity, PoseidonStrength::Strengthened).second, c.rp_strong);
  }
  // round_numbers.rs known values by width t (arity = t - 1).
  const size_t by_t[][2] = {{3, 55},  {5, 56},  {7, 56},  {9, 57}, {13, 57},
                            {15, 57}, {17, 59}, {25, 59}, {37, 60}};
  for (auto& p : by_t) EXPECT_EQ(poseidon_round_numbers(p[0] - 1, PoseidonStrength::Standard).second, p[1]);
}

TEST(PoseidonConstants, GrainRoundConstantsArity2) {
  const auto& c = poseidon_constants(2);
  ASSERT_EQ(c.round_constants.size(), (8u + 55u) * 3u);
  EXPECT_EQ(c.round_constants[0],
            from_hex("0x669f064bfa3ae17a23bd51861dbb4a24501eac92a2758b36a7320a009d6ed3d8"));
  EXPECT_EQ(c.round_constants[1],
            from_hex("0x0a61a8defbacca36e4537ff2c84fa66ceee67c9645ac27346e72ab842b9d3f15"));
  EXPECT_EQ(c.round_constants[2],
            from_hex("0x21e9cefa24b89d09f91b1e8a45df275b17292b4e1aaa49301e234771128165d5"));
}

TEST(PoseidonConstants, MdsIsSymmetricCauchyWithInverse) {
  const auto& c = poseidon_constants(8);
  for (size_t i = 0; i < c.width; i++)
    for (size_t j = 0; j < c.width; j++) {
      EXPECT_EQ(c.mds(i, j), c.mds(j, i));
      EXPECT_EQ(c.mds(i, j) * Fr::from_u64(i + j + c.width), Fr::one());
    }
  FrMatrix id = mat_mul(c.mds, c.mds_inv);
  for (size_t i = 0; i < c.width; i++)
    for (size_t j = 0; j < c.width; j++) EXPECT_EQ(id(i, j), i == j ? Fr::one() : Fr::zero());
}

TEST(PoseidonConstants, SampleOptimizedValues) {
  EXPECT_EQ(poseidon_constants(2).sparse[0].w_hat[0],
            from_hex("0x4d491a377113a8daccd13ab0066be558e27e6d5755543d54aaaaaaaa00000001"));
  EXPECT_EQ(poseidon_constants(2).pre_sparse(0, 0), poseidon_constants(2).sparse[0].w_hat[0]);
  EXPECT_EQ(poseidon_constants(8).compressed_round_constants[0],
            from_hex("0x6ce90d12c4045fe08c3caddb776dd84ac52b4ae7e48cd49443984154f2f4c2f9"));
  EXPECT_EQ(poseidon_constants(11).compressed_round_constants[0],
            from_hex("0x1f6c9576e648b5047399bfc5f38902e0d506f18e0f3ab77de6de096bd089bce4"));
}

// supra_seal poseidon/constants/constants_{2,8,11}, copied to ../shared/testdata.
TEST(PoseidonConstants, OptimizedConstantsMatchSupraSealFiles) {
  const std::pair<size_t, size_t> files[] = {{2, 372}, {8, 1260}, {11, 1752}};
  for (auto [arity, count] : files) {
    std::string path = std::string(CUZK_TEST_VECTORS) + "/../../../shared/testdata/poseidon/constants_" +
                       std::to_string(arity) + ".bin";
    std::ifstream f(path, std::ios::binary);
    ASSERT_TRUE(f) << "missing " << path;
    std::vector<uint8_t> want((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    ASSERT_EQ(want.size(), count * 32);
    std::vector<uint8_t> got = serialize_optimized_constants(poseidon_constants(arity));
    ASSERT_EQ(got.size(), want.size()) << arity;
    EXPECT_TRUE(got == want) << "arity " << arity;
  }
}

// neptune poseidon.rs hash_values: MerkleTree hash of [0, 1, ..., arity-1].
TEST(Poseidon, NeptuneKnownAnswers) {
  struct Case {
    size_t arity;
    Fr standard, strengthened;
  } cases[] = {
      {2, fr_limbs(0x2e203c369a02e7ff, 0xa6fba9339d05a69d, 0x739e0fd902efe161, 0x396508d75e76a56b),
       fr_limbs(0x793dbaf54552cd69, 0x5278ecbf17040ea6, 0xc48b36ecc4cab748, 0x33d28a753baee41b)},
      {4, fr_limbs(0x019814ff6662075d, 0xfb6b4605bf1327ec, 0x00db3c6579229399, 0x58a54b10a9e5848a),
       fr_limbs(0x4650ee190212aa9a, 0xe5113a254d6f5c7e, 0x54013bdaf68ba4c2, 0x09d8207c51ca3f43)},
      {8, fr_limbs(0x2a9934f56d38a5e6, 0x4b682e9d9cc4aed9, 0x1201004211677077, 0x2394611da3a5de55),
       fr_limbs(0x9f0c3c93c3fc894e, 0xe843d4cfba662df1, 0xd69aae8fe1cb63e8, 0x69e61465981ae17e)},
      {11, fr_limbs(0xcee3bbc32b693163, 0x09f3dcd8ccb08fc1, 0x6ca537e232ebe87a, 0x0c0fc1b2e5227f28),
       fr_limbs(0x778af344d8f9e8b7, 0xc94fe2ca3f46d433, 0x07abbcf9b406e8d8, 0x28bb83ff439753c0)},
      {16, fr_limbs(0x1291c74060266d37, 0x5b8dbc6d30680a6f, 0xc1c2fb5a6f871e63, 0x2d3ae2663381ae8a),
       fr_limbs(0x3cc2664c5fd6ae07, 0xd7431eaaa5e43189, 0x43ba5f418c6ef01d, 0x68d7856395aa217e)},
      {24, fr_limbs(0xd7ef3569f585b321, 0xc3e779f6468815b1, 0x066f39bf783f3d9f, 0x63beb8831f11ae15),
       fr_limbs(0x1df1da58827cb39d, 0x0566756b7b80fb10, 0x222eb82c6666be3d, 0x086e4e81a35bfd92)},
      {36, fr_limbs(0x4473606dfa4e8140, 0x75cd368df8a8ac3c, 0x540a30e03c10bbaa, 0x699303082a6e5d5f),
       fr_limbs(0x636401e9371dc311, 0x8f69e35a702ed188, 0x64d73b2ddc03d43b, 0x609f8c6fe45cc054)},
  };
  for (const auto& k : cases) {
    auto in = iota_frs(k.arity);
    Fr tag = poseidon_tag_merkle_tree(k.arity);
    for (auto [strength, want] : {std::pair{PoseidonStrength::Standard, k.standard},
                                  std::pair{PoseidonStrength::Strengthened, k.strengthened}}) {
      const auto& c = poseidon_constants(k.arity, strength);
      EXPECT_EQ(poseidon_hash(c, in, tag), want) << k.arity;
      EXPECT_EQ(poseidon_hash_correct(c, in, tag), want) << k.arity;
    }
  }
  EXPECT_EQ(poseidon_hash(iota_frs(8)), cases[2].standard);
}

TEST(Poseidon, OptimizedEqualsReferenceOnRandomInputs) {
  std::mt19937_64 rng(7);
  for (size_t arity : {2, 8, 11}) {
    const auto& c = poseidon_constants(arity);
    for (int n = 0; n < 5; n++) {
      std::vector<Fr> in;
      for (size_t i = 0; i < arity; i++) in.push_back(Fr::random(rng));
      Fr tag = n % 2 ? poseidon_tag_custom(1) : poseidon_tag_merkle_tree(arity);
      EXPECT_EQ(poseidon_hash(c, in, tag), poseidon_hash_correct(c, in, tag));
    }
  }
}

// filecoin-hashers poseidon.rs test_poseidon_hasher: binary tree over [1,0,0,1].
TEST(Poseidon, FilecoinHasherTree) {
  Fr one = Fr::one(), zero = Fr::zero();
  Fr i1 = poseidon_hash(std::vector<Fr>{one, zero});
  Fr i2 = poseidon_hash(std::vector<Fr>{zero, one});
  EXPECT_EQ(i1, fr_limbs(0xb339ff6079800b5e, 0xec5907b3dc3094af, 0x93c003cc74a24f26, 0x042f94ffbe786bc3));
  EXPECT_EQ(poseidon_hash(std::vector<Fr>{i1, i2}),
            fr_limbs(0xefbb8be3e291e671, 0x77cc72b8cb2b5ad2, 0x30eb6385ae6b74ae, 0x1effebb7b26ad9eb));
}

// filecoin-hashers test_hash_md: 71 × Fr(1).
TEST(Poseidon, HashMd) {
  std::vector<Fr> in(71, Fr::one());
  EXPECT_EQ(poseidon_hash_md(in),
            fr_limbs(0x351c54133b332c90, 0xc26f6d625f4e8195, 0x5fd9623643ed9622, 0x59f42220e09ff6f7));
}

// neptune hash_type.rs test_domain_tags.
TEST(Poseidon, DomainTags) {
  EXPECT_EQ(poseidon_tag_merkle_tree(8), Fr::from_u64(0xff));
  EXPECT_EQ(poseidon_tag_merkle_tree(2), Fr::from_u64(3));
  EXPECT_EQ(poseidon_tag_merkle_tree(11), Fr::from_u64(2047));
  EXPECT_EQ(poseidon_tag_merkle_tree(36), Fr::from_u64((uint64_t(1) << 36) - 1));
  EXPECT_EQ(poseidon_tag_constant_length(4), fr_limbs(0, 4, 0, 0));
  EXPECT_EQ(poseidon_tag_encryption(), Fr::from_u64(uint64_t(1) << 32));
  EXPECT_EQ(poseidon_tag_custom(1), Fr::from_u64(uint64_t(1) << 40));
  EXPECT_EQ(poseidon_tag_custom(3), Fr::from_u64(uint64_t(3) << 40));
  EXPECT_THROW(poseidon_tag_custom(0), std::invalid_argument);
  EXPECT_THROW(poseidon_tag_custom(257), std::invalid_argument);
}

TEST(Sha256, KnownAnswersAndTrim) {
  Digest32 e = sha256({});
  EXPECT_EQ(e[0], 0xe3);
  EXPECT_EQ(e[31], 0x55);
  const uint8_t abc[] = {'a', 'b', 'c'};
  Digest32 d = sha256(abc);  // ba7816bf ... f20015ad
  EXPECT_EQ(d[0], 0xba);
  EXPECT_EQ(d[31], 0xad);
  Digest32 t = sha256_trimmed(abc);
  EXPECT_EQ(t[31], 0xad & 0x3f);
  EXPECT_TRUE(std::equal(t.begin(), t.end() - 1, d.begin()));
  // A trimmed digest is always a canonical Fr (LE, < 2^254).
  EXPECT_TRUE(Fr::from_bytes_le(t).has_value());

  Sha256 h;
  h.update(std::span<const uint8_t>(abc, 1)).update(std::span<const uint8_t>(abc + 1, 2));
  EXPECT_EQ(h.finish(), d);
  h.reset();
  EXPECT_EQ(h.finish(), e);
}

}  // namespace
