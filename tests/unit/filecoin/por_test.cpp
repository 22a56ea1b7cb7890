// PoR (Merkle inclusion) circuits against native trees, with the counts of
// storage-proofs-core tests/por_circuit.rs (docs/FILECOIN.md §1.1): Poseidon
// trees of every tested shape with public and private roots, and the binary
// SHA-256 tree. Public inputs are the packed path bits (= the leaf index)
// and the root.
#include "gadgets/por.hpp"

#include <gtest/gtest.h>

#include <random>

#include "filecoin/hash/poseidon.hpp"
#include "filecoin/hash/sha256.hpp"
#include "r1cs/counting_cs.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/test_cs.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;
using namespace cuzk::gadgets;

namespace {

using HashFn = Fr (*)(std::span<const Fr>);

Fr poseidon_node(std::span<const Fr> children) { return filecoin::poseidon_hash(children); }

Fr sha256_node(std::span<const Fr> children) {
  std::vector<uint8_t> bytes;
  for (const Fr& c : children) {
    std::array<uint8_t, 32> le;
    c.to_bytes_le(le);
    bytes.insert(bytes.end(), le.begin(), le.end());
  }
  Digest32 d = sha256_trimmed(bytes);
  return *Fr::from_bytes_le(d);
}

// One level of a native tree: the parents, and the path entry of `idx`.
std::vector<Fr> level_up(const std::vector<Fr>& nodes, size_t arity, size_t& idx, MerklePathLevel* level,
                         HashFn hash) {
  std::vector<Fr> parents;
  for (size_t g = 0; g < nodes.size(); g += arity) parents.push_back(hash({nodes.data() + g, arity}));
  if (level) {
    size_t g = idx / arity * arity;
    level->index = idx % arity;
    level->siblings.clear();
    for (size_t k = 0; k < arity; k++)
      if (g + k != idx) level->siblings.push_back(nodes[g + k]);
  }
  idx /= arity;
  return parents;
}

// A compound tree (base trees of `base` arity, then one sub and one top
// level) over `leaves`; returns the root and fills the path of leaf `challenge`.
Fr native_tree(const std::vector<Fr>& leaves, size_t base, size_t sub, size_t top, size_t challenge,
               MerkleAuthPath& path, HashFn hash) {
  path = MerkleAuthPath{base, sub, top, {}, {}, {}};
  size_t count = (sub ? sub : 1) * (top ? top : 1), per = leaves.size() / count;
  std::vector<Fr> roots;
  for (size_t t = 0; t < count; t++) {
    std::vector<Fr> nodes(leaves.begin() + t * per, leaves.begin() + (t + 1) * per);
    bool mine = challenge / per == t;
    size_t idx = challenge % per;
    while (nodes.size() > 1) {
      MerklePathLevel level;
      nodes = level_up(nodes, base, idx, mine ? &level : nullptr, hash);
      if (mine) path.base.push_back(level);
    }
    roots.push_back(nodes[0]);
  }
  size_t idx = challenge / per;
  if (sub) roots = level_up(roots, sub, idx, &path.sub.emplace_back(), hash);
  if (top) roots = level_up(roots, top, idx, &path.top.emplace_back(), hash);
  return roots.at(0);
}

const gadgets::PoseidonConstants& constants_for(size_t arity) { return filecoin::poseidon_constants(arity); }

struct Shape {
  size_t base, sub, top, constraints, private_constraints;
};

TEST(PorCircuit, PoseidonShapesMatchUpstreamCounts) {
  const Shape shapes[] = {
      {2, 0, 0, 1887, 1886}, {4, 0, 0, 1164, 1163}, {8, 0, 0, 1063, 1062}, {8, 2, 0, 1377, 0},
      {8, 4, 2, 1764, 0},    {8, 8, 0, 1593, 0},    {8, 8, 2, 1907, 0},    {8, 2, 4, 1764, 0},
  };
  std::mt19937_64 rng(15);
  for (const Shape& s : shapes) {
    size_t leaves = 64 * (s.sub ? s.sub : 1) * (s.top ? s.top : 1);
    std::vector<Fr> data;
    for (size_t i = 0; i < leaves; i++) data.push_back(Fr::random(rng));
    for (size_t challenge : {leaves - 1, size_t(rng() % leaves)}) {
      for (bool priv : {false, true}) {
        if (priv && !s.private_constraints) continue;
        MerkleAuthPath path;
        Fr root = native_tree(data, s.base, s.sub, s.top, challenge, path, &poseidon_node);
        r1cs::TestConstraintSystem cs;
        por_poseidon(cs, {std::nullopt, data[challenge]}, path, {std::nullopt, root}, priv, &constants_for);
        SCOPED_TRACE(testing::Message() << s.base << "-" << s.sub << "-" << s.top << " leaf " << challenge);
        EXPECT_TRUE(cs.is_satisfied());
        EXPECT_EQ(cs.num_constraints(), priv ? s.private_constraints : s.constraints);
        EXPECT_EQ(cs.num_inputs(), priv ? 2u : 3u);
        std::vector<Fr> pub = {Fr::from_u64(challenge)};
        if (!priv) pub.push_back(root);
        EXPECT_TRUE(cs.verify(pub));
        // A wrong leaf cannot reach the root.
        cs.set("value/num", data[challenge] + Fr::one());
        EXPECT_FALSE(cs.is_satisfied());
      }
    }
  }
}

// The blank circuit (no witness) has the same shape.
TEST(PorCircuit, BlankCircuitCounts) {
  r1cs::CountingCS cc;
  por_poseidon(cc, {}, MerkleAuthPath::blank(8, 8, 2, 1024), {}, false, &constants_for);
  EXPECT_EQ(cc.num_constraints(), 1907u);
  EXPECT_EQ(cc.num_inputs(), 3u);
}

// test_por_circuit_sha256_base_2: 6 levels × 45,382 + 3.
TEST(PorCircuit, Sha256BinaryTree) {
  std::mt19937_64 rng(16);
  std::vector<Fr> data;
  for (size_t i = 0; i < 64; i++) {
    Fr x = Fr::random(rng);
    std::array<uint8_t, 32> le;
    x.to_bytes_le(le);
    le[31] &= 0x3f;  // Sha256Domain leaves are trimmed
    data.push_back(*Fr::from_bytes_le(le));
  }
  size_t challenge = 37;
  MerkleAuthPath path;
  Fr root = native_tree(data, 2, 0, 0, challenge, path, &sha256_node);
  r1cs::ProvingAssignment pa;
  por_sha256(pa, {std::nullopt, data[challenge]}, path, {std::nullopt, root}, false);
  EXPECT_EQ(pa.num_constraints(), 272295u);
  EXPECT_EQ(pa.input_assignment, (std::vector<Fr>{Fr::one(), Fr::from_u64(challenge), root}));
  bool ok = true;
  for (size_t i = 0; i < pa.num_constraints(); i++) ok &= pa.a[i] * pa.b[i] == pa.c[i];
  EXPECT_TRUE(ok);
}

}  // namespace
