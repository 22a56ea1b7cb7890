// UInt64 (alloc: 64 constraints; pack_into_input: 1 input, 1 constraint) and
// the constraint.rs helpers (add/sub/equal: one constraint each).
#include <gtest/gtest.h>

#include <random>

#include "gadgets/constraint.hpp"
#include "gadgets/uint64.hpp"
#include "r1cs/test_cs.hpp"

using namespace cuzk;
using namespace cuzk::gadgets;
using r1cs::TestConstraintSystem;

namespace {

TEST(UInt64, AllocPackAndBitOrders) {
  const uint64_t v = 0x8123456789abcdefull;
  TestConstraintSystem cs;
  UInt64 x = in_ns(cs, "challenge", [&] { return UInt64::alloc(cs, v); });
  EXPECT_EQ(cs.num_constraints(), 64u);
  EXPECT_EQ(cs.num_aux(), 64u);
  in_ns(cs, "challenge input", [&] { x.pack_into_input(cs); });
  EXPECT_EQ(cs.num_constraints(), 65u);
  EXPECT_TRUE(cs.is_satisfied());
  EXPECT_TRUE(cs.verify({Fr::from_u64(v)}));
  EXPECT_EQ(*UInt64::from_bits_be(x.to_bits_be()).value(), v);
  EXPECT_EQ(*UInt64::from_bits(x.to_bits_le()).value(), v);
  EXPECT_EQ(*UInt64::constant(v).value(), v);
  EXPECT_EQ(cs.get("challenge/allocated bit 63/boolean"), Fr::one());
}

TEST(Constraint, AddSubEqual) {
  std::mt19937_64 rng(17);
  for (int i = 0; i < 10; i++) {
    TestConstraintSystem cs;
    Fr x = Fr::random(rng), y = Fr::random(rng);
    auto a = in_ns(cs, "a", [&] { return AllocatedNum::alloc(cs, x); });
    auto b = in_ns(cs, "b", [&] { return AllocatedNum::alloc(cs, y); });
    auto s = in_ns(cs, "a+b", [&] { return add(cs, a, b); });
    auto d = in_ns(cs, "a-b", [&] { return sub(cs, a, b); });
    EXPECT_EQ(*s.value, x + y);
    EXPECT_EQ(*d.value, x - y);
    auto s2 = in_ns(cs, "s2", [&] { return AllocatedNum::alloc(cs, x + y); });
    enforce_equal(cs, "equal", s, s2);
    EXPECT_EQ(cs.num_constraints(), 3u);
    EXPECT_TRUE(cs.is_satisfied());
    cs.set("a-b/sub_num/num", x);
    EXPECT_EQ(cs.which_is_unsatisfied(), "a-b/subtraction constraint");
  }
}

}  // namespace
