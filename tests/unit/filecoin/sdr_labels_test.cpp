// SDR labels (docs/FILECOIN.md §7.3). The generator (cache rows, reused OpenSSL context, one
// gathered 1248-byte buffer) is checked against labels recomputed here from
// the definition: parents from SdrGraph one node at a time (not the cache),
// the message assembled byte by byte, one-shot SHA-256.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "filecoin/sdr/labels.hpp"
#include "filecoin/sdr/replica_id.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;

namespace {

// label[l][n] per §7.3, from scratch. layers[l-1] must hold layers 1..l-1
// fully and layer l up to n-1.
Domain reference_label(const SdrGraph& g, const Domain& replica_id,
                       const std::vector<std::vector<Domain>>& layers, uint32_t l, uint64_t n) {
  std::vector<uint8_t> msg(replica_id.begin(), replica_id.end());
  for (int s = 24; s >= 0; s -= 8) msg.push_back(uint8_t(l >> s));
  for (int s = 56; s >= 0; s -= 8) msg.push_back(uint8_t(n >> s));
  msg.resize(64, 0);
  if (n > 0) {
    uint32_t p[kParentCount];
    g.parents(n, p);
    std::vector<Domain> P;
    for (size_t i = 0; i < kDrgDegree; i++) P.push_back(layers[l - 1][p[i]]);
    if (l > 1)
      for (size_t i = kDrgDegree; i < kParentCount; i++) P.push_back(layers[l - 2][p[i]]);
    std::vector<Domain> all;
    if (l == 1) {
      for (int r = 0; r < 6; r++) all.insert(all.end(), P.begin(), P.end());
      all.push_back(P[0]);
    } else {
      all.insert(all.end(), P.begin(), P.end());
      all.insert(all.end(), P.begin(), P.end());
      all.insert(all.end(), P.begin(), P.begin() + 9);
    }
    EXPECT_EQ(all.size(), 37u);
    for (auto& d : all) msg.insert(msg.end(), d.begin(), d.end());
    EXPECT_EQ(msg.size(), 1248u);
  }
  return sha256_trimmed(msg);
}

Domain test_replica_id() {
  Domain ticket;
  ticket.fill(0x11);
  return replica_id(prover_id_from_actor_id(1000), 7, ticket, Domain{}, porep_config(5)->porep_id());
}

}  // namespace

// Every label of a 2KiB sector (2 layers), for v1.1 and v1.0 graphs.
TEST(SdrLabels, AllLabels2KiBMatchDefinition) {
  for (uint64_t id : {0, 5}) {
    const auto cfg = *porep_config(id);
    SdrGraph g(cfg);
    auto cache = ParentCache::build(g);
    const Domain rid = test_replica_id();
    auto labels = generate_labels(cfg, cache, rid);
    ASSERT_EQ(labels.size(), cfg.layers);
    for (uint32_t l = 1; l <= cfg.layers; l++) {
      ASSERT_EQ(labels[l - 1].size(), cfg.nodes);
      for (uint64_t n = 0; n < cfg.nodes; n++) {
        EXPECT_EQ(labels[l - 1][n], reference_label(g, rid, labels, l, n))
            << "id " << id << " l " << l << " n " << n;
        EXPECT_LT(labels[l - 1][n][31], 0x40);
      }
    }
    // The two layers differ and labels are not constant.
    EXPECT_NE(labels[0][5], labels[1][5]);
    EXPECT_NE(labels[0][5], labels[0][6]);
  }
}

// label_parents + compute_label (the LabelingProof path) reproduce the labels.
TEST(SdrLabels, LabelingProofParents) {
  const auto cfg = *porep_config(5);
  auto cache = ParentCache::build(SdrGraph(cfg));
  const Domain rid = test_replica_id();
  auto labels = generate_labels(cfg, cache, rid);
  for (uint32_t l = 1; l <= 2; l++)
    for (uint64_t n : {0, 1, 2, 33, 63}) {
      auto parents = label_parents(l, n, cache, labels[l - 1], l > 1 ? labels[l - 2] : std::vector<Domain>{});
      EXPECT_EQ(parents.size(), n == 0 ? 0u : 37u);
      EXPECT_EQ(compute_label(rid, l, n, parents), labels[l - 1][n]) << l << " " << n;
    }
  EXPECT_THROW(label_parents(1, 64, cache, labels[0], {}), std::out_of_range);
  EXPECT_THROW(label_parents(2, 3, cache, labels[1], {}), std::invalid_argument);
}

TEST(SdrLabels, BadInput) {
  const auto cfg = *porep_config(5);
  auto cache = ParentCache::build(SdrGraph(cfg));
  EXPECT_THROW(generate_labels(*porep_config(6), cache, Domain{}), std::invalid_argument);
  std::vector<Domain> out(64), wrong(63);
  EXPECT_THROW(generate_layer(0, cache, Domain{}, {}, out), std::invalid_argument);
  EXPECT_THROW(generate_layer(1, cache, Domain{}, {}, wrong), std::invalid_argument);
  EXPECT_THROW(generate_layer(2, cache, Domain{}, wrong, out), std::invalid_argument);
}

// 8 MiB (2^18 nodes, 2 layers): timing, and sampled labels against the
// definition.
TEST(SdrLabels, Labels8MiB) {
  const auto cfg = *porep_config(6);
  SdrGraph g(cfg);
  auto t0 = std::chrono::steady_clock::now();
  auto cache = ParentCache::build(g);
  auto t1 = std::chrono::steady_clock::now();
  const Domain rid = test_replica_id();
  auto labels = generate_labels(cfg, cache, rid);
  auto t2 = std::chrono::steady_clock::now();
  auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
  std::printf("8MiB: parent cache %.0f ms, labels (2 layers) %.0f ms\n", ms(t0, t1), ms(t1, t2));
  for (uint32_t l = 1; l <= 2; l++)
    for (uint64_t n : {uint64_t(0), uint64_t(1), uint64_t(1000), uint64_t(123456), cfg.nodes - 1})
      EXPECT_EQ(labels[l - 1][n], reference_label(g, rid, labels, l, n)) << l << " " << n;
}
