// TreeD (binary trimmed-SHA-256 tree, comm_d): the CC comm_d values of
// docs/FILECOIN.md §7.8 for every sector size, the general builder against the
// per-level CC shortcut and a hand-composed root, and inclusion proofs.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "filecoin/common/domain.hpp"
#include "filecoin/hash/sha256.hpp"
#include "filecoin/tree/fr32.hpp"
#include "filecoin/tree/poseidon_tree.hpp"
#include "filecoin/tree/tree_d.hpp"
#include "platform/hex.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;

namespace {

Domain domain_hex(const char* hex) { return *domain_from_hex(hex); }

std::vector<Domain> random_leaves(size_t n, std::mt19937_64& rng) {
  std::vector<Domain> v(n);
  for (auto& d : v) {
    for (auto& b : d) b = uint8_t(rng());
    d[31] &= 0x3f;
  }
  return v;
}

TEST(TreeD, CcCommDKnownAnswers) {
  struct Case {
    uint64_t size;
    const char* hex;
  } cases[] = {
      {128, "3731bb99ac689f66eef5973e4a94da188f4ddcae580724fc6f3fd60dfd488333"},
      {2048, "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833"},
      {8ull << 20, "65f29e5d98d246c38b388cfc06db1f6b021303c5a289000bdce832a9c3ec421c"},
      {512ull << 20, "39560e7b13a93b07a243fd2720ffa7cb3e1d2e505ab3629e79f46313512cda06"},
      {32ull << 30, "077e5fde35c50a9303a55009e3498a4ebedff39c42b710b730d8ec7ac7afa63e"},
      {64ull << 30, "e64005a6bfe3777953b8ad6ef93f0fca1049b2041654f2a411f7702799cece02"},
  };
  for (const auto& c : cases) EXPECT_EQ(cc_comm_d(c.size), domain_hex(c.hex)) << c.size;
  EXPECT_EQ(cc_comm_d(32), Domain{});  // a single zero leaf is its own root
  for (uint64_t bad : {0ull, 16ull, 96ull, 100ull, 3ull << 20})
    EXPECT_THROW(cc_comm_d(bad), std::invalid_argument) << bad;
}

TEST(TreeD, GeneralBuilderAgreesWithCcShortcut) {
  // 2KiB from zero data through fr32 padding (2032 data bytes -> 2048).
  std::vector<uint8_t> zeros(fr32_unpadded_capacity(2048), 0);
  TreeD small = TreeD::from_padded(fr32_pad(zeros));
  EXPECT_EQ(small.leaf_count(), 64u);
  EXPECT_EQ(small.height(), 6u);
  EXPECT_EQ(small.root(), cc_comm_d(2048));
  // 8MiB: 2^18 zero leaves.
  TreeD big(std::vector<Domain>(size_t(1) << 18));
  EXPECT_EQ(big.height(), 18u);
  EXPECT_EQ(big.root(), cc_comm_d(8ull << 20));
}

TEST(TreeD, RootOfFourLeavesByHand) {
  std::mt19937_64 rng(3);
  auto leaves = random_leaves(4, rng);
  // trim(SHA256(a ‖ b)) through the incremental hasher, independently of tree_d_node.
  auto node = [](const Domain& a, const Domain& b) {
    Sha256 h;
    h.update(a).update(b);
    Domain d = h.finish();
    d[31] &= 0x3f;
    return d;
  };
  TreeD t(leaves);
  EXPECT_EQ(t.root(), node(node(leaves[0], leaves[1]), node(leaves[2], leaves[3])));
  EXPECT_EQ(t.level(1)[1], node(leaves[2], leaves[3]));
}

TEST(TreeD, ProofsRoundTripAndEncodeTheLeafIndex) {
  std::mt19937_64 rng(4);
  TreeD t(random_leaves(64, rng));
  for (uint64_t i = 0; i < 64; i++) {
    MerkleProof p = t.proof(i);
    EXPECT_EQ(p.shape, MerkleProofShape::Single);
    ASSERT_EQ(p.base.size(), 6u);
    EXPECT_TRUE(p.sub.empty() && p.top.empty());
    EXPECT_EQ(p.leaf, t.level(0)[i]);
    EXPECT_EQ(p.root, t.root());
    uint64_t bits = 0;
    for (size_t h = 0; h < p.base.size(); h++) {
      ASSERT_EQ(p.base[h].hashes.size(), 1u);
      bits |= p.base[h].index << h;
    }
    EXPECT_EQ(bits, i);
    EXPECT_EQ(merkle_proof_leaf_index(p), i);
    EXPECT_TRUE(verify_tree_d_proof(p)) << i;
  }
  EXPECT_THROW(t.proof(64), std::out_of_range);
  // A one-leaf tree: empty path, root = leaf.
  TreeD one(random_leaves(1, rng));
  EXPECT_TRUE(verify_tree_d_proof(one.proof(0)));
}

TEST(TreeD, TamperedProofsAreRejected) {
  std::mt19937_64 rng(5);
  TreeD t(random_leaves(32, rng));
  const MerkleProof good = t.proof(13);
  ASSERT_TRUE(verify_tree_d_proof(good));
  for (size_t h = 0; h < good.base.size(); h++) {
    MerkleProof p = good;
    p.base[h].hashes[0][0] ^= 1;
    EXPECT_FALSE(verify_tree_d_proof(p)) << "sibling " << h;
    p = good;
    p.base[h].index ^= 1;
    EXPECT_FALSE(verify_tree_d_proof(p)) << "index " << h;
  }
  MerkleProof p = good;
  p.leaf[5] ^= 0x10;
  EXPECT_FALSE(verify_tree_d_proof(p));
  p = good;
  p.root[31] ^= 0x01;
  EXPECT_FALSE(verify_tree_d_proof(p));
  p = good;
  p.base.pop_back();
  EXPECT_FALSE(verify_tree_d_proof(p));
  // Malformed proofs: clear messages.
  auto message = [](const MerkleProof& q) {
    try {
      check_tree_d_proof(q);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  p = good;
  p.base[2].index = 2;
  EXPECT_NE(message(p).find("index 2"), std::string::npos) << message(p);
  p = good;
  p.base[1].hashes.push_back(Domain{});
  EXPECT_NE(message(p).find("2 siblings"), std::string::npos) << message(p);
  p = good;
  p.shape = MerkleProofShape::Sub;
  EXPECT_NE(message(p).find("Single"), std::string::npos) << message(p);
  EXPECT_NE(message(t.proof(0)).find("accepted"), std::string::npos);
}

TEST(TreeD, RejectsBadLeafCounts) {
  EXPECT_THROW(TreeD(std::vector<Domain>{}), std::invalid_argument);
  EXPECT_THROW(TreeD(std::vector<Domain>(6)), std::invalid_argument);
  std::vector<uint8_t> odd(100);
  EXPECT_THROW(TreeD::from_padded(odd), std::invalid_argument);
}

}  // namespace
