// Replica commitments (docs/FILECOIN.md §7.8): column hashes against neptune's
// known answers, TreeR leaves as label + data, comm_r = Poseidon2(comm_c,
// comm_r_last), the ReplicaTrees bundle, and the 8MiB build time.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "fr_util.hpp"
#include "filecoin/hash/poseidon.hpp"
#include "filecoin/tree/commitments.hpp"
#include "slow.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;
using test::fr_limbs;
using test::random_frs;

namespace {

// Layers whose column i is [0, 1, ..., L-1] for every i.
std::vector<std::vector<Fr>> iota_layers(size_t L, size_t n) {
  std::vector<std::vector<Fr>> layers;
  for (size_t l = 0; l < L; l++) layers.emplace_back(n, Fr::from_u64(l));
  return layers;
}

TEST(TreeCommitments, ColumnHashesMatchNeptune) {
  // neptune hash_values, MerkleTree tag: arity 2 of [0, 1] and arity 11 of [0..10].
  const Fr h2 = fr_limbs(0x2e203c369a02e7ff, 0xa6fba9339d05a69d, 0x739e0fd902efe161, 0x396508d75e76a56b);
  const Fr h11 = fr_limbs(0xcee3bbc32b693163, 0x09f3dcd8ccb08fc1, 0x6ca537e232ebe87a, 0x0c0fc1b2e5227f28);
  for (const Fr& leaf : tree_c_leaves(iota_layers(2, 600))) EXPECT_EQ(leaf, h2);
  for (const Fr& leaf : tree_c_leaves(iota_layers(11, 300))) EXPECT_EQ(leaf, h11);
  // Column i mixes layers at node i only.
  std::mt19937_64 rng(9);
  std::vector<std::vector<Fr>> layers = {random_frs(64, rng), random_frs(64, rng)};
  std::vector<Fr> leaves = tree_c_leaves(layers);
  for (size_t i = 0; i < 64; i++) {
    const Fr col[2] = {layers[0][i], layers[1][i]};
    EXPECT_EQ(leaves[i], column_hash(col));
  }
  // The Domain overload agrees.
  std::vector<std::vector<Domain>> dl = {frs_to_domains(layers[0]), frs_to_domains(layers[1])};
  EXPECT_EQ(tree_c_leaves(std::span<const std::vector<Domain>>(dl)), leaves);
}

TEST(TreeCommitments, BadLayersAreRejected) {
  std::vector<std::vector<Fr>> none;
  EXPECT_THROW(tree_c_leaves(none), std::invalid_argument);
  std::vector<std::vector<Fr>> ragged = {std::vector<Fr>(8), std::vector<Fr>(7)};
  EXPECT_THROW(tree_c_leaves(ragged), std::invalid_argument);
  std::vector<Fr> labels(4);
  std::vector<Domain> data(3);
  EXPECT_THROW(tree_r_leaves(labels, data), std::invalid_argument);
  data.resize(4);
  data[2].fill(0xff);  // not an Fr
  EXPECT_THROW(tree_r_leaves(labels, data), std::invalid_argument);
}

TEST(TreeCommitments, TreeRLeavesAreLabelPlusData) {
  std::mt19937_64 rng(10);
  std::vector<Fr> labels = random_frs(16, rng);
  std::vector<Domain> data(16);
  data[3][0] = 5;                      // data node = 5
  data[7] = fr_to_domain(-labels[7]);  // replica node = 0
  std::vector<Fr> r = tree_r_leaves(labels, data);
  EXPECT_EQ(r[0], labels[0]);  // zero data: replica = key
  EXPECT_EQ(r[3], labels[3] + Fr::from_u64(5));
  EXPECT_TRUE(r[7].is_zero());
}

TEST(TreeCommitments, CommRIsPoseidon2OfCommCAndCommRLast) {
  const Fr h2 = fr_limbs(0x2e203c369a02e7ff, 0xa6fba9339d05a69d, 0x739e0fd902efe161, 0x396508d75e76a56b);
  EXPECT_EQ(comm_r(Fr::zero(), Fr::one()), h2);
  EXPECT_NE(comm_r(Fr::one(), Fr::zero()), h2);  // order matters: comm_c first
  EXPECT_EQ(comm_r(fr_to_domain(Fr::zero()), fr_to_domain(Fr::one())), fr_to_domain(h2));
  Domain bad;
  bad.fill(0xff);
  EXPECT_THROW(comm_r(bad, Domain{}), std::invalid_argument);
}

TEST(TreeCommitments, ReplicaTreesFor2KiB) {
  std::mt19937_64 rng(11);
  const size_t n = 64;  // 2KiB, 8-0-0, 2 layers
  std::vector<std::vector<Fr>> layers = {random_frs(n, rng), random_frs(n, rng)};
  std::vector<Domain> data(n);
  for (auto& d : data) {
    for (auto& b : d) b = uint8_t(rng());
    d[31] &= 0x3f;  // fr32-padded nodes
  }
  ReplicaTrees t = build_replica_trees(layers, data, TreeShape{8, 0, 0});
  EXPECT_EQ(t.comm_c(), PoseidonTree(tree_c_leaves(layers), {8, 0, 0}).root());
  EXPECT_EQ(t.comm_r_last(), PoseidonTree(tree_r_leaves(layers[1], data), {8, 0, 0}).root());
  const Fr pair[2] = {t.comm_c(), t.comm_r_last()};
  EXPECT_EQ(t.comm_r(), poseidon_hash(pair));
  for (uint64_t leaf : {0, 17, 63}) {
    EXPECT_TRUE(verify_poseidon_proof(t.tree_c.proof(leaf)));
    EXPECT_TRUE(verify_poseidon_proof(t.tree_r.proof(leaf)));
  }
}

// Builds TreeC (arity-2 columns of two layers) and TreeR over n nodes,
// shape 8-0-0, and prints the times. TreeC from constant layers has
// identical nodes per level, so its root follows from one hash per level.
void build_trees_and_time(size_t log8_nodes, const char* label) {
  const size_t n = size_t(1) << (3 * log8_nodes);
  std::mt19937_64 rng(12);
  const Fr a = Fr::random(rng), b = Fr::random(rng);
  std::vector<std::vector<Fr>> layers = {std::vector<Fr>(n, a), std::vector<Fr>(n, b)};
  std::vector<Domain> data(n);
  for (auto& d : data) {
    for (auto& x : d) x = uint8_t(rng());
    d[31] &= 0x3f;
  }
  auto t0 = std::chrono::steady_clock::now();
  std::vector<Fr> c_leaves = tree_c_leaves(layers);
  auto t1 = std::chrono::steady_clock::now();
  PoseidonTree tree_c(std::move(c_leaves), {8, 0, 0});
  auto t2 = std::chrono::steady_clock::now();
  PoseidonTree tree_r(tree_r_leaves(layers[1], data), {8, 0, 0});
  auto t3 = std::chrono::steady_clock::now();
  auto ms = [](auto d) { return std::chrono::duration<double, std::milli>(d).count(); };
  std::printf("%s: %zu column hashes (arity 2) %.0f ms, TreeC build %.0f ms, TreeR build %.0f ms\n", label, n,
              ms(t1 - t0), ms(t2 - t1), ms(t3 - t2));

  const Fr ab[2] = {a, b};
  Fr node = poseidon_hash(ab);
  for (size_t h = 0; h < log8_nodes; h++) {
    std::vector<Fr> same(8, node);
    node = poseidon_hash(same);
  }
  EXPECT_EQ(tree_c.root(), node);
  for (uint64_t leaf : {uint64_t(0), uint64_t(n - 1), uint64_t(rng() % n)}) {
    MerkleProof p = tree_r.proof(leaf);
    EXPECT_EQ(p.base.size(), log8_nodes);
    EXPECT_TRUE(verify_poseidon_proof(p));
    EXPECT_EQ(domain_to_fr(p.leaf), b + domain_to_fr(data[leaf]));
  }
}

TEST(TreeCommitments, Build1MiBTrees) { build_trees_and_time(5, "1MiB"); }

// 8MiB (2^18 nodes): about 7 s of CPU, so only with CUZK_SLOW_TESTS.
TEST(TreeCommitments, TreeBuildTime8MiBSlow) {
  CUZK_SLOW_TEST("about 7 s of CPU");
  build_trees_and_time(6, "8MiB");
}

}  // namespace
