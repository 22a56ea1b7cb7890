// UInt32 and MultiEq (bellperson uint32.rs tests): constants, bit orders,
// rotations, shifts, xor, and addmany against native arithmetic, including
// constant operands and the MultiEq packing of several sums.
#include "gadgets/uint32.hpp"

#include <gtest/gtest.h>

#include <random>

#include "r1cs/test_cs.hpp"

using namespace cuzk;
using namespace cuzk::gadgets;
using r1cs::TestConstraintSystem;

namespace {

uint32_t value_of(const UInt32& x) {
  uint32_t v = 0;
  for (size_t i = 0; i < 32; i++) v |= uint32_t(*x.bits()[i].value()) << i;
  return v;
}

TEST(UInt32, ConstantBitsAndOrders) {
  std::mt19937 rng(1);
  for (int n = 0; n < 20; n++) {
    uint32_t v = rng();
    UInt32 c = UInt32::constant(v);
    EXPECT_EQ(*c.value(), v);
    EXPECT_EQ(value_of(c), v);
    auto be = c.into_bits_be();
    EXPECT_EQ(*UInt32::from_bits_be(be.data()).value(), v);
    EXPECT_EQ(*UInt32::from_bits(c.bits().data()).value(), v);
    for (size_t r : {0u, 1u, 7u, 31u, 32u, 45u}) {
      uint32_t rr = r % 32;
      uint32_t want = rr ? (v >> rr) | (v << (32 - rr)) : v;
      EXPECT_EQ(value_of(c.rotr(r)), want);
      EXPECT_EQ(*c.rotr(r).value(), want);
      EXPECT_EQ(value_of(c.shr(r)), v >> rr);
    }
  }
}

TEST(UInt32, XorMixedConstantAndAllocated) {
  std::mt19937 rng(2);
  for (int n = 0; n < 10; n++) {
    TestConstraintSystem cs;
    uint32_t a = rng(), b = rng(), c = rng();
    UInt32 x = in_ns(cs, "a", [&] { return UInt32::alloc(cs, a); });
    UInt32 y = in_ns(cs, "b", [&] { return UInt32::alloc(cs, b); });
    UInt32 z = UInt32::constant(c);
    UInt32 r = in_ns(cs, "xor1", [&] { return x.xor_(cs, y); });
    r = in_ns(cs, "xor2", [&] { return r.xor_(cs, z); });
    EXPECT_EQ(*r.value(), a ^ b ^ c);
    EXPECT_EQ(value_of(r), a ^ b ^ c);
    EXPECT_TRUE(cs.is_satisfied());
    EXPECT_EQ(cs.num_constraints(), 64u + 32u);  // xor with a constant is free
  }
}

TEST(UInt32, AddmanyConstantsFold) {
  TestConstraintSystem cs;
  MultiEq eq(cs);
  UInt32 r = UInt32::addmany(eq, {UInt32::constant(0xffffffff), UInt32::constant(3), UInt32::constant(7)});
  eq.finish();
  EXPECT_TRUE(r.bits()[0].is_constant());
  EXPECT_EQ(*r.value(), 9u);
  EXPECT_EQ(cs.num_constraints(), 0u);
}

TEST(UInt32, AddmanyAgainstNative) {
  std::mt19937 rng(3);
  for (size_t n = 2; n <= 10; n++) {
    TestConstraintSystem cs;
    std::vector<UInt32> ops;
    uint32_t want = 0;
    for (size_t i = 0; i < n; i++) {
      uint32_t v = rng();
      want += v;
      if (i % 3 == 2) ops.push_back(UInt32::constant(v));
      else
        ops.push_back(in_ns(
            cs, [&] { return "op " + std::to_string(i); }, [&] { return UInt32::alloc(cs, v); }));
    }
    size_t before = cs.num_constraints();
    MultiEq eq(cs);
    UInt32 r = in_ns(cs, "sum", [&] { return UInt32::addmany(eq, ops); });
    eq.finish();
    EXPECT_EQ(*r.value(), want);
    EXPECT_EQ(value_of(r), want);
    EXPECT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
    // bitlen(n·(2^32-1)) result bits plus one MultiEq constraint.
    size_t k = 64 - __builtin_clzll(uint64_t(n) * 0xffffffffull);
    EXPECT_EQ(cs.num_constraints() - before, k + 1);
    // A wrong carry bit breaks the equality.
    std::string carry = "sum/result bit " + std::to_string(k - 1) + "/boolean";
    cs.set(carry, cs.get(carry) == Fr::one() ? Fr::zero() : Fr::one());
    EXPECT_FALSE(cs.is_satisfied());
  }
}

// Several additions share one MultiEq constraint until 254 bits would overflow.
TEST(MultiEq, PacksUntilCapacity) {
  TestConstraintSystem cs;
  MultiEq eq(cs);
  std::mt19937 rng(4);
  uint32_t a = rng(), b = rng();
  UInt32 x = in_ns(cs, "a", [&] { return UInt32::alloc(cs, a); });
  UInt32 y = in_ns(cs, "b", [&] { return UInt32::alloc(cs, b); });
  size_t before = cs.num_constraints();
  for (int i = 0; i < 8; i++)  // 8 × 33 bits = 264 > 253: one flush inside, one at finish
    in_ns(
        cs, [&] { return "add " + std::to_string(i); },
        [&] {
          return UInt32::addmany(eq, {x, y});
        });
  eq.finish();
  EXPECT_EQ(cs.num_constraints() - before, 8u * 33u + 2u);
  EXPECT_TRUE(cs.is_satisfied());
  // The flush happens when the 8th sum reports its equality, after its bits.
  EXPECT_EQ(cs.constraints()[before + 8 * 33].path, "add 7/multieq 0");
  EXPECT_EQ(cs.constraints().back().path, "multieq 1");
}

}  // namespace
