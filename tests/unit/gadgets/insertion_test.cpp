// insertion.rs test_select / test_insert: every index for sizes 2..16,
// values, satisfiability and the counts (select: size - 1; insert into
// 2/4/8: 2/8/22, 16: 16·15).
#include "gadgets/insertion.hpp"

#include <gtest/gtest.h>

#include <random>

#include "r1cs/test_cs.hpp"

using namespace cuzk;
using namespace cuzk::gadgets;
using r1cs::TestConstraintSystem;

namespace {

struct Operands {
  std::vector<AllocatedNum> elements;
  std::vector<Boolean> bits;
};

Operands make_operands(TestConstraintSystem& cs, size_t count, size_t log_size, size_t index,
                       std::mt19937_64& rng) {
  Operands s;
  for (size_t i = 0; i < count; i++)
    s.elements.push_back(in_ns(
        cs, [&] { return "element " + std::to_string(i); },
        [&] { return AllocatedNum::alloc(cs, Fr::random(rng)); }));
  for (size_t i = 0; i < log_size; i++)
    s.bits.push_back(in_ns(
        cs, [&] { return "index bit " + std::to_string(i); },
        [&] { return Boolean(AllocatedBit::alloc(cs, bool((index >> i) & 1))); }));
  return s;
}

TEST(Insertion, Select) {
  std::mt19937_64 rng(13);
  for (size_t log_size = 1; log_size < 5; log_size++) {
    size_t size = size_t(1) << log_size;
    for (size_t index = 0; index < size; index++) {
      TestConstraintSystem cs;
      Operands s = make_operands(cs, size, log_size, index, rng);
      size_t before = cs.num_constraints();
      AllocatedNum r = in_ns(cs, "select", [&] { return select(cs, s.elements, s.bits); });
      EXPECT_TRUE(cs.is_satisfied());
      EXPECT_EQ(*r.value, *s.elements[index].value);
      EXPECT_EQ(cs.num_constraints() - before, size - 1);
    }
  }
}

TEST(Insertion, Insert) {
  std::mt19937_64 rng(14);
  const size_t expected[] = {0, 2, 8, 22, 240};
  for (size_t log_size = 1; log_size <= 4; log_size++) {
    size_t size = size_t(1) << log_size;
    for (size_t index = 0; index < size; index++) {
      TestConstraintSystem cs;
      Operands s = make_operands(cs, size - 1, log_size, index, rng);
      AllocatedNum x = in_ns(cs, "x", [&] { return AllocatedNum::alloc(cs, Fr::random(rng)); });
      size_t before = cs.num_constraints();
      auto r = insert(cs, x, s.bits, s.elements);
      EXPECT_TRUE(cs.is_satisfied());
      EXPECT_EQ(cs.num_constraints() - before, expected[log_size]) << size;
      ASSERT_EQ(r.size(), size);
      for (size_t pos = 0; pos < size; pos++) {
        Fr want = pos < index ? *s.elements[pos].value : pos == index ? *x.value : *s.elements[pos - 1].value;
        EXPECT_EQ(*r[pos].value, want) << size << " " << index << " " << pos;
      }
      // A pick result that disagrees with its condition is caught.
      cs.set(size == 8   ? "p7/pick result/num"
             : size == 4 ? "p3/pick result/num"
             : size == 2 ? "binary insert 1/pick result/num"
                         : "choice at 0/pick 0, 0/pick result/num",
             Fr::from_u64(123456789));
      EXPECT_FALSE(cs.is_satisfied());
    }
  }
}

TEST(Insertion, PickNegatedCondition) {
  TestConstraintSystem cs;
  auto a = in_ns(cs, "a", [&] { return AllocatedNum::alloc(cs, Fr::from_u64(1)); });
  auto b = in_ns(cs, "b", [&] { return AllocatedNum::alloc(cs, Fr::from_u64(2)); });
  Boolean c = in_ns(cs, "c", [&] { return Boolean::negated(AllocatedBit::alloc(cs, true)); });  // false
  EXPECT_EQ(*pick(cs, c, a, b).value, Fr::from_u64(2));
  EXPECT_TRUE(cs.is_satisfied());
}

}  // namespace
