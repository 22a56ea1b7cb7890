// The SDR label circuit (create_label_circuit) against upstream's
// test_create_label count (docs/FILECOIN.md §1.1: 532,025 with 256 + 37×256
// allocated bits and constant layer 3 / node 22) and against the native
// label trim(SHA256(replica_id ‖ u32be(layer) ‖ u64be(node) ‖ 0^20 ‖ parents)).
#include <gtest/gtest.h>

#include <random>

#include "filecoin/circuit/hashing_cs.hpp"
#include "filecoin/hash/sha256.hpp"
#include "filecoin/porep/create_label.hpp"
#include "gadgets/multipack.hpp"
#include "gadgets/sha256.hpp"
#include "gadgets/sha256_domain.hpp"
#include "r1cs/counting_cs.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/test_cs.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;
using namespace cuzk::gadgets;

namespace {

using Bytes32 = std::array<uint8_t, 32>;

Bytes32 random_node(std::mt19937_64& rng) {
  Bytes32 b;
  Fr::random(rng).to_bytes_le(b);
  return b;
}

// bytes_into_boolean_vec_be: every bit allocated, MSB first per byte, "bit i".
std::vector<Boolean> alloc_bytes_be(r1cs::ConstraintSystem& cs, const Bytes32& bytes) {
  std::vector<Boolean> out;
  std::vector<bool> bits = bytes_to_bits(bytes);
  for (size_t i = 0; i < bits.size(); i++)
    out.push_back(in_ns(
        cs, [&] { return "bit " + std::to_string(i); }, [&] { return AllocatedBit::alloc(cs, bits[i]); }));
  return out;
}

Fr native_label(const Bytes32& id, uint32_t layer, uint64_t node, const std::vector<Bytes32>& parents) {
  std::vector<uint8_t> msg(id.begin(), id.end());
  for (int s = 24; s >= 0; s -= 8) msg.push_back(uint8_t(layer >> s));
  for (int s = 56; s >= 0; s -= 8) msg.push_back(uint8_t(node >> s));
  msg.resize(64, 0);
  for (const auto& p : parents) msg.insert(msg.end(), p.begin(), p.end());
  EXPECT_EQ(msg.size(), 1248u);
  return *Fr::from_bytes_le(sha256_trimmed(msg));
}

// Upstream test_create_label: 14 parents repeated to 37 (14 + 14 + 9), bits
// of parents then id allocated in the test's own namespaces.
TEST(StackedLabelCircuit, MatchesUpstreamCountAndNativeLabel) {
  std::mt19937_64 rng(2201);
  {
    r1cs::TestConstraintSystem cs;
    Bytes32 id = random_node(rng);
    std::vector<Bytes32> raw;
    for (int i = 0; i < 14; i++) raw.push_back(random_node(rng));
    std::vector<Bytes32> parents;
    for (size_t k = 0; k < circuit::kTotalParents; k++) parents.push_back(raw[k % 14]);
    std::vector<std::vector<Boolean>> parent_bits;
    for (size_t i = 0; i < parents.size(); i++)
      parent_bits.push_back(in_ns(
          cs, [&] { return "parents " + std::to_string(i); },
          [&] { return alloc_bytes_be(cs, parents[i]); }));
    std::vector<Boolean> id_bits = in_ns(cs, "id", [&] { return alloc_bytes_be(cs, id); });

    AllocatedNum out = in_ns(cs, "create_label", [&] {
      return circuit::create_label_circuit(cs, id_bits, parent_bits, 3, UInt64::constant(22));
    });
    EXPECT_TRUE(cs.is_satisfied());
    EXPECT_EQ(cs.num_constraints(), 532025u);
    ASSERT_TRUE(out.value.has_value());
    EXPECT_EQ(*out.value, native_label(id, 3, 22, parents));
    EXPECT_EQ(cs.get("create_label/result_num/input/num"), *out.value);

    // A different node number gives a different label: the node bits are hashed.
    r1cs::CountingCS cs2;
    std::vector<std::vector<Boolean>> pb2;
    for (size_t i = 0; i < parents.size(); i++)
      pb2.push_back(in_ns(
          cs2, [&] { return "parents " + std::to_string(i); },
          [&] { return alloc_bytes_be(cs2, parents[i]); }));
    auto id2 = in_ns(cs2, "id", [&] { return alloc_bytes_be(cs2, id); });
    AllocatedNum out2 = circuit::create_label_circuit(cs2, id2, pb2, 3, UInt64::constant(23));
    EXPECT_EQ(*out2.value, native_label(id, 3, 23, parents));
    EXPECT_NE(*out2.value, *out.value);
  }
}

// The production pattern (docs/FILECOIN.md §1.2): parents enter as numbers
// decomposed with to_bits_le (256 each), the node as an allocated UInt64
// (64), the replica id's top bit is a constant. Layer 1 hashes 6 DRG parents
// (523,805 = 6·256 + 522,268 + 1 plus the 64 node bits and the id's 256),
// layer 2 fourteen (525,853 + ...). The label equals the native one.
TEST(StackedLabelCircuit, ProductionBitPatternCounts) {
  std::mt19937_64 rng(2202);
  for (size_t distinct : {6u, 14u}) {
    r1cs::ProvingAssignment cs;
    Bytes32 id = random_node(rng);
    id[31] &= 0x3f;  // replica ids are trimmed
    AllocatedNum id_num = in_ns(cs, "id", [&] { return AllocatedNum::alloc(cs, *Fr::from_bytes_le(id)); });
    auto id_bits = reverse_bit_numbering(in_ns(cs, "id_bits", [&] { return id_num.to_bits_le(cs); }));
    UInt64 node = in_ns(cs, "node", [&] { return UInt64::alloc(cs, uint64_t(1234567)); });
    size_t before = cs.num_constraints();
    EXPECT_EQ(before, 256u + 64u);

    std::vector<Bytes32> raw;
    std::vector<std::vector<Boolean>> bits;
    for (size_t i = 0; i < distinct; i++) {
      Bytes32 b = random_node(rng);
      b[31] &= 0x3f;  // labels are trimmed
      raw.push_back(b);
      AllocatedNum n = in_ns(
          cs, [&] { return "parent " + std::to_string(i); },
          [&] { return AllocatedNum::alloc(cs, *Fr::from_bytes_le(b)); });
      bits.push_back(reverse_bit_numbering(in_ns(
          cs, [&] { return "parent bits " + std::to_string(i); }, [&] { return n.to_bits_le(cs); })));
    }
    std::vector<std::vector<Boolean>> expanded;
    std::vector<Bytes32> expanded_raw;
    for (size_t k = 0; k < circuit::kTotalParents; k++) {
      expanded.push_back(bits[k % distinct]);
      expanded_raw.push_back(raw[k % distinct]);
    }
    uint32_t layer = distinct == 6 ? 1 : 2;
    AllocatedNum out = circuit::create_label_circuit(cs, id_bits, expanded, layer, node);
    EXPECT_EQ(cs.num_constraints() - before, distinct == 6 ? 523805u : 525853u);
    size_t unsatisfied = 0;
    for (size_t i = 0; i < cs.num_constraints(); i++) unsatisfied += cs.a[i] * cs.b[i] != cs.c[i];
    EXPECT_EQ(unsatisfied, 0u);
    EXPECT_EQ(*out.value, native_label(id, layer, 1234567, expanded_raw));
  }
}

TEST(StackedLabelCircuit, RejectsBadSizes) {
  r1cs::CountingCS cs;
  std::vector<Boolean> id(256);
  std::vector<std::vector<Boolean>> parents(36, std::vector<Boolean>(256));
  EXPECT_THROW(circuit::create_label_circuit(cs, id, parents, 1, UInt64::constant(1)), std::invalid_argument);
  parents.resize(37);
  std::vector<Boolean> short_id(16);
  EXPECT_THROW(circuit::create_label_circuit(cs, short_id, parents, 1, UInt64::constant(1)),
               std::invalid_argument);
  parents[3].resize(300);
  EXPECT_THROW(circuit::create_label_circuit(cs, id, parents, 1, UInt64::constant(1)), std::invalid_argument);
}

// The streaming HashingCS equals TestConstraintSystem::hash(), so it can
// stand in for TestCS on circuits too big to store. The circuit mixes inputs,
// aux, constant bits, negated bits and a SHA-256 compression (MultiEq
// constraints, zero coefficients after merging).
TEST(StackedLabelCircuit, HashingCsEqualsTestCsHash) {
  struct Mixed : r1cs::Circuit {
    Bytes32 a{}, b{};
    void synthesize(r1cs::ConstraintSystem& cs) const override {
      AllocatedNum x = in_ns(cs, "x", [&] { return AllocatedNum::alloc(cs, *Fr::from_bytes_le(a)); });
      x.inputize(cs);
      auto bits = reverse_bit_numbering(in_ns(cs, "bits", [&] { return x.to_bits_le(cs); }));
      auto more = in_ns(cs, "more", [&] { return alloc_bytes_be(cs, b); });
      bits.insert(bits.end(), more.begin(), more.end());
      bits[3] = bits[3].not_();
      bits[9] = Boolean::constant(true);
      UInt64 node = in_ns(cs, "node", [&] { return UInt64::alloc(cs, uint64_t(5)); });
      node.pack_into_input(cs);
      in_ns(cs, "block", [&] { return sha256_block_no_padding(cs, bits); });
    }
  } c;
  std::mt19937_64 rng(2203);
  c.a = random_node(rng);
  c.a[31] &= 0x3f;
  c.b = random_node(rng);
  r1cs::TestConstraintSystem cs;
  c.synthesize(cs);
  EXPECT_TRUE(cs.is_satisfied());
  EXPECT_GT(cs.num_constraints(), 25000u);
  EXPECT_EQ(circuit::constraint_system_hash(c), cs.hash());
}

}  // namespace
