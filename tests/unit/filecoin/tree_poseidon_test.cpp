// Poseidon trees of every TreeR/TreeC shape (docs/FILECOIN.md §7.8): the
// filecoin-hashers known answers, the compound root against a hand
// composition (base roots per chunk, sub, top), proofs for every shape
// (round trip, leaf index identity of §2.2, tampering) and shape errors.
#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <string>
#include <vector>

#include "filecoin/common/domain.hpp"
#include "filecoin/hash/poseidon.hpp"
#include "filecoin/tree/poseidon_tree.hpp"
#include "fr_util.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;
using test::fr_limbs;
using test::random_frs;

namespace {

// Reference: root of one plain tree, recursively, straight from poseidon_hash.
Fr plain_root(std::span<const Fr> leaves, size_t arity) {
  if (leaves.size() == 1) return leaves[0];
  std::vector<Fr> children;
  const size_t part = leaves.size() / arity;
  for (size_t k = 0; k < arity; k++) children.push_back(plain_root(leaves.subspan(k * part, part), arity));
  return poseidon_hash(children);
}

// Reference compound root: base root of each chunk, Poseidon_sub of base
// roots in chunk order, Poseidon_top of the sub roots.
Fr composed_root(const std::vector<Fr>& leaves, const TreeShape& s) {
  const size_t count = s.base_tree_count(), per = leaves.size() / count;
  std::vector<Fr> base_roots;
  for (size_t t = 0; t < count; t++)
    base_roots.push_back(plain_root(std::span<const Fr>(leaves).subspan(t * per, per), s.base_arity));
  if (!s.sub_arity) return base_roots[0];
  std::vector<Fr> sub_roots;
  for (size_t g = 0; g < base_roots.size(); g += s.sub_arity)
    sub_roots.push_back(poseidon_hash(std::span<const Fr>(base_roots).subspan(g, s.sub_arity)));
  if (!s.top_arity) return sub_roots[0];
  return poseidon_hash(sub_roots);
}

const TreeShape kShapes[] = {{8, 0, 0}, {8, 8, 0}, {8, 8, 2}, {8, 2, 0}, {8, 4, 0},
                             {8, 4, 2}, {8, 2, 4}, {2, 0, 0}, {4, 0, 0}, {4, 2, 0}};

std::string name(const TreeShape& s) {
  return std::to_string(s.base_arity) + "-" + std::to_string(s.sub_arity) + "-" + std::to_string(s.top_arity);
}

// Base trees of 64 leaves each (two 8-ary levels, six binary, three 4-ary).
size_t leaves_for(const TreeShape& s) { return 64 * s.base_tree_count(); }

TEST(PoseidonTree, FilecoinHashersKnownAnswers) {
  // test_poseidon_hasher: node(1, 0) and the binary tree over [1, 0, 0, 1].
  const Fr node10 = fr_limbs(0xb339ff6079800b5e, 0xec5907b3dc3094af, 0x93c003cc74a24f26, 0x042f94ffbe786bc3);
  const Fr pair[2] = {Fr::one(), Fr::zero()};
  EXPECT_EQ(poseidon_tree_node(pair), node10);
  PoseidonTree t({Fr::one(), Fr::zero(), Fr::zero(), Fr::one()}, TreeShape{2, 0, 0});
  EXPECT_EQ(t.level(1)[0], node10);
  EXPECT_EQ(t.root(),
            fr_limbs(0xefbb8be3e291e671, 0x77cc72b8cb2b5ad2, 0x30eb6385ae6b74ae, 0x1effebb7b26ad9eb));
  // neptune hash_values: MerkleTree arity 8 of [0..7] is the root of an 8-leaf tree.
  std::vector<Fr> iota;
  for (uint64_t i = 0; i < 8; i++) iota.push_back(Fr::from_u64(i));
  EXPECT_EQ(PoseidonTree(iota, TreeShape{8, 0, 0}).root(),
            fr_limbs(0x2a9934f56d38a5e6, 0x4b682e9d9cc4aed9, 0x1201004211677077, 0x2394611da3a5de55));
}

TEST(PoseidonTree, CompoundRootEqualsHandComposition) {
  std::mt19937_64 rng(6);
  for (const TreeShape& s : kShapes) {
    std::vector<Fr> leaves = random_frs(leaves_for(s), rng);
    PoseidonTree t(leaves, s);
    EXPECT_EQ(t.root(), composed_root(leaves, s)) << name(s);
    EXPECT_EQ(t.root_domain(), fr_to_domain(t.root()));
    EXPECT_EQ(t.level(t.base_height()).size(), s.base_tree_count()) << name(s);
  }
  // A bigger 8-8-2 (16 base trees of 512) exercises the parallel levels.
  std::vector<Fr> leaves = random_frs(16 * 512, rng);
  EXPECT_EQ(PoseidonTree(leaves, {8, 8, 2}).root(), composed_root(leaves, {8, 8, 2}));
}

TEST(PoseidonTree, ProofsRoundTripForEveryShape) {
  std::mt19937_64 rng(7);
  for (const TreeShape& s : kShapes) {
    const size_t n = leaves_for(s);
    PoseidonTree t(random_frs(n, rng), s);
    const size_t base_height = s.base_arity == 8 ? 2 : s.base_arity == 4 ? 3 : 6;
    EXPECT_EQ(t.base_height(), base_height);
    const MerkleProofShape want = s.top_arity   ? MerkleProofShape::Top
                                  : s.sub_arity ? MerkleProofShape::Sub
                                                : MerkleProofShape::Single;
    for (uint64_t leaf : {uint64_t(0), uint64_t(n - 1), uint64_t(rng() % n), uint64_t(rng() % n)}) {
      MerkleProof p = t.proof(leaf);
      EXPECT_EQ(p.shape, want) << name(s);
      ASSERT_EQ(p.base.size(), base_height);
      EXPECT_EQ(p.sub.size(), s.sub_arity ? 1u : 0u);
      EXPECT_EQ(p.top.size(), s.top_arity ? 1u : 0u);
      EXPECT_EQ(p.leaf, fr_to_domain(t.level(0)[leaf]));
      EXPECT_TRUE(verify_poseidon_proof(p)) << name(s) << " leaf " << leaf;
      EXPECT_TRUE(verify_poseidon_proof(p, &s)) << name(s) << " leaf " << leaf;
      // §2.2: the LE index bits, base then sub then top, concatenate to the leaf index.
      uint64_t bits = 0;
      unsigned at = 0;
      for (const auto* path : {&p.base, &p.sub, &p.top})
        for (const MerklePathElement& e : *path) {
          const size_t arity = e.hashes.size() + 1;
          bits |= e.index << at;
          at += std::countr_zero(arity);
        }
      EXPECT_EQ(bits, leaf) << name(s);
      EXPECT_EQ(merkle_proof_leaf_index(p), leaf) << name(s);
    }
    EXPECT_THROW(t.proof(n), std::out_of_range);
  }
}

TEST(PoseidonTree, TamperedProofsAreRejected) {
  std::mt19937_64 rng(8);
  const TreeShape s{8, 4, 2};
  PoseidonTree t(random_frs(leaves_for(s), rng), s);
  const MerkleProof good = t.proof(300);
  ASSERT_TRUE(verify_poseidon_proof(good, &s));
  auto bump = [](Domain& d) { d = fr_to_domain(domain_to_fr(d) + Fr::one()); };
  for (auto part : {&MerkleProof::base, &MerkleProof::sub, &MerkleProof::top})
    for (size_t h = 0; h < (good.*part).size(); h++) {
      for (size_t k = 0; k < (good.*part)[h].hashes.size(); k++) {
        MerkleProof p = good;
        bump((p.*part)[h].hashes[k]);
        EXPECT_FALSE(verify_poseidon_proof(p)) << "sibling " << h << "/" << k;
      }
      MerkleProof p = good;
      const size_t arity = (p.*part)[h].hashes.size() + 1;
      (p.*part)[h].index = ((p.*part)[h].index + 1) % arity;
      EXPECT_FALSE(verify_poseidon_proof(p)) << "index " << h;
    }
  MerkleProof p = good;
  bump(p.leaf);
  EXPECT_FALSE(verify_poseidon_proof(p));
  p = good;
  bump(p.root);
  EXPECT_FALSE(verify_poseidon_proof(p));
  // Malformed: non-canonical element, index out of range, wrong shape.
  auto message = [](const MerkleProof& q, const TreeShape* shape) {
    try {
      check_poseidon_proof(q, shape);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  p = good;
  p.base[0].hashes[3].fill(0xff);
  EXPECT_NE(message(p, nullptr).find("not a canonical Fr"), std::string::npos) << message(p, nullptr);
  p = good;
  p.sub[0].index = 4;
  EXPECT_NE(message(p, nullptr).find("index 4 >= arity 4"), std::string::npos) << message(p, nullptr);
  p = good;
  p.top.clear();
  EXPECT_NE(message(p, nullptr).find("do not fit"), std::string::npos) << message(p, nullptr);
  const TreeShape other{8, 8, 2};
  EXPECT_NE(message(good, &other).find("the shape says 8"), std::string::npos) << message(good, &other);
  const TreeShape single{8, 0, 0};
  EXPECT_FALSE(verify_poseidon_proof(good, &single));
  EXPECT_EQ(message(good, &s), "accepted");
}

TEST(PoseidonTree, RejectsBadShapesAndLeafCounts) {
  std::vector<Fr> leaves(64);
  EXPECT_THROW(PoseidonTree(leaves, TreeShape{3, 0, 0}), std::invalid_argument);
  EXPECT_THROW(PoseidonTree(leaves, TreeShape{8, 0, 2}), std::invalid_argument);  // top without sub
  EXPECT_THROW(PoseidonTree(leaves, TreeShape{8, 8, 2}), std::invalid_argument);  // 16 trees of 4
  EXPECT_NO_THROW(PoseidonTree(leaves, TreeShape{8, 8, 0}));                      // 8 trees of 8
  EXPECT_THROW(PoseidonTree(std::vector<Fr>(128), TreeShape{8, 8, 0}), std::invalid_argument);  // 8 of 16
  EXPECT_THROW(PoseidonTree(std::vector<Fr>(100), TreeShape{8, 0, 0}), std::invalid_argument);
  EXPECT_THROW(PoseidonTree(std::vector<Fr>(1), TreeShape{8, 0, 0}), std::invalid_argument);
  EXPECT_THROW(PoseidonTree(std::vector<Fr>{}, TreeShape{2, 0, 0}), std::invalid_argument);
  try {
    validate_tree_shape(TreeShape{8, 0, 0}, 128);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("not a power"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(validate_tree_shape(TreeShape{8, 8, 0}, 512));
  EXPECT_NO_THROW(validate_tree_shape(TreeShape{8, 8, 2}, uint64_t(1) << 31));  // 64GiB geometry
  EXPECT_NO_THROW(validate_tree_shape(TreeShape{8, 8, 0}, uint64_t(1) << 30));  // 32GiB
}

}  // namespace
