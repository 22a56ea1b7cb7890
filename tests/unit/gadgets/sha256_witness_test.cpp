// SHA-256's witness-only compression (gadgets/sha256_witness.hpp) against
// the gadget itself: on a witness-only system sha256_compression_function
// takes the fast path, on TestConstraintSystem the gadget path, and both
// must allocate the same values in the same order, count the same
// constraints and return the same bits (kind, variable, value). Inputs mix
// allocated bits, negated bits and constants (the padding block's and the
// IV's constant cases), over many seeds.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "gadgets/sha256.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/test_cs.hpp"
#include "r1cs/witness_cs.hpp"

using namespace cuzk;
using namespace cuzk::gadgets;

namespace {

// Per bit: a constant with probability p_const, else an allocated bit,
// negated with probability p_not. The same draws on every system.
struct BitMix {
  double p_const, p_not;
};

std::vector<Boolean> mixed_bits(ConstraintSystem& cs, const char* ns, size_t n, const BitMix& mix,
                                std::mt19937_64& rng) {
  Namespace in(cs, ns);  // TestConstraintSystem wants unique names
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<Boolean> bits;
  for (size_t i = 0; i < n; i++) {
    const bool v = rng() & 1;
    if (u(rng) < mix.p_const) {
      bits.push_back(Boolean::constant(v));
      continue;
    }
    const bool negate = u(rng) < mix.p_not;
    const AllocatedBit b = in_ns(
        cs, [&] { return "bit " + std::to_string(i); },
        [&] { return AllocatedBit::alloc(cs, negate ? !v : v); });
    bits.push_back(negate ? Boolean::negated(b) : Boolean(b));
  }
  return bits;
}

struct Run {
  std::vector<UInt32> out;
  std::vector<r1cs::Fr> aux;
  size_t constraints = 0;
};

// Two chained compressions from the IV or from a mixed chaining value.
template <class CS>
std::vector<UInt32> compress_twice(CS& cs, uint64_t seed, const BitMix& msg, const BitMix& chain, bool iv) {
  std::mt19937_64 rng(seed);
  std::vector<UInt32> h = sha256_iv();
  if (!iv) {
    auto bits = mixed_bits(cs, "chain", 256, chain, rng);
    for (size_t i = 0; i < 8; i++) h[i] = UInt32::from_bits(bits.data() + 32 * i);
  }
  for (int block = 0; block < 2; block++) {
    const auto bits = mixed_bits(cs, block ? "message 1" : "message 0", 512, msg, rng);
    h = in_ns(cs, block ? "block 1" : "block 0", [&] { return sha256_compression_function(cs, bits, h); });
  }
  return h;
}

void expect_same(const std::vector<UInt32>& got, const std::vector<UInt32>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t w = 0; w < got.size(); w++) {
    EXPECT_EQ(got[w].value(), want[w].value()) << "word " << w;
    for (size_t i = 0; i < 32; i++) {
      const Boolean &g = got[w].bits()[i], &e = want[w].bits()[i];
      ASSERT_EQ(g.kind(), e.kind()) << "word " << w << " bit " << i;
      ASSERT_EQ(g.value(), e.value()) << "word " << w << " bit " << i;
      if (!g.is_constant()) {
        ASSERT_EQ(g.bit().var, e.bit().var) << "word " << w << " bit " << i;
        ASSERT_EQ(g.bit().value, e.bit().value) << "word " << w << " bit " << i;
      }
    }
  }
}

// The gadget path runs on a ProvingAssignment (it builds the constraints,
// much faster than TestConstraintSystem's named ones; satisfiability is
// checked once, in FullHashWithPadding).
void check(uint64_t seed, const BitMix& msg, const BitMix& chain, bool iv) {
  SCOPED_TRACE(::testing::Message() << "seed " << seed << ", message constants " << msg.p_const
                                    << ", negations " << msg.p_not << (iv ? ", IV" : ", mixed chain"));
  r1cs::ProvingAssignment gadget;
  const auto want = compress_twice(gadget, seed, msg, chain, iv);
  r1cs::WitnessCS witness;
  const auto got = compress_twice(witness, seed, msg, chain, iv);
  EXPECT_EQ(witness.num_constraints(), gadget.num_constraints());
  ASSERT_EQ(witness.aux().size(), gadget.num_aux());
  for (size_t i = 0; i < gadget.num_aux(); i++)
    ASSERT_EQ(witness.aux()[i], gadget.aux_assignment[i]) << "aux " << i;
  expect_same(got, want);
}

TEST(Sha256Witness, AllocatedBitsFromTheIv) {
  for (uint64_t seed = 1; seed <= 4; seed++) check(seed, {0, 0}, {0, 0}, true);
}

TEST(Sha256Witness, NegatedAndConstantBitsEverywhere) {
  for (uint64_t seed = 10; seed <= 17; seed++) {
    check(seed, {0.3, 0.3}, {0.3, 0.3}, false);
    check(seed, {0.5, 0.5}, {0, 0}, true);
  }
}

TEST(Sha256Witness, MostlyConstantWords) {
  // Constant-heavy words reach every constant case of ch and maj.
  for (uint64_t seed = 20; seed <= 27; seed++) {
    check(seed, {0.9, 0.5}, {0.9, 0.5}, false);
    check(seed, {1.0, 0}, {0.8, 0.2}, false);
  }
}

TEST(Sha256Witness, FullHashWithPadding) {
  // sha256() of 100 allocated bytes: the second block is partly padding.
  std::mt19937_64 rng(5);
  std::vector<uint8_t> raw(800);
  for (auto& b : raw) b = rng() & 1;
  auto hash = [&](ConstraintSystem& cs) {
    std::vector<Boolean> bits;
    for (size_t i = 0; i < raw.size(); i++)
      bits.push_back(in_ns(
          cs, [&] { return "bit " + std::to_string(i); },
          [&] { return AllocatedBit::alloc(cs, bool(raw[i])); }));
    return sha256(cs, bits);
  };
  r1cs::TestConstraintSystem gadget;
  const auto want = hash(gadget);
  ASSERT_TRUE(gadget.is_satisfied());
  r1cs::WitnessCS witness;
  const auto got = hash(witness);
  EXPECT_EQ(witness.num_constraints(), gadget.num_constraints());
  EXPECT_EQ(std::vector<r1cs::Fr>(witness.aux().begin(), witness.aux().end()), gadget.aux_values());
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); i++) EXPECT_EQ(got[i].value(), want[i].value()) << i;
}

}  // namespace
