// AllocatedNum (inputize, to_bits_le, add, mul, square) and multipacking:
// counts of docs/FILECOIN.md §1.3, values, satisfiability, exact LCs.
#include <gtest/gtest.h>

#include <random>

#include "gadgets/multipack.hpp"
#include "r1cs/test_cs.hpp"

using namespace cuzk;
using namespace cuzk::gadgets;
using r1cs::TestConstraintSystem;

namespace {

TEST(AllocatedNum, ArithmeticAndInputize) {
  TestConstraintSystem cs;
  auto a = in_ns(cs, "a", [&] { return AllocatedNum::alloc(cs, Fr::from_u64(12)); });
  auto b = in_ns(cs, "b", [&] { return AllocatedNum::alloc(cs, Fr::from_u64(10)); });
  EXPECT_EQ(*in_ns(cs, "sum", [&] { return a.add(cs, b); }).value, Fr::from_u64(22));
  EXPECT_EQ(*in_ns(cs, "mul", [&] { return a.mul(cs, b); }).value, Fr::from_u64(120));
  EXPECT_EQ(*in_ns(cs, "sq", [&] { return a.square(cs); }).value, Fr::from_u64(144));
  EXPECT_EQ(cs.get("mul/product num"), Fr::from_u64(120));
  in_ns(cs, "pub", [&] { a.inputize(cs); });
  EXPECT_EQ(cs.num_inputs(), 2u);
  EXPECT_EQ(cs.num_constraints(), 4u);
  EXPECT_TRUE(cs.is_satisfied());
  EXPECT_TRUE(cs.verify({Fr::from_u64(12)}));
  cs.set("sq/squared num", Fr::from_u64(145));
  EXPECT_FALSE(cs.is_satisfied());
}

// to_bits_le: 255 aux, 256 constraints, the last one A = B = 0.
TEST(AllocatedNum, ToBitsLe) {
  std::mt19937_64 rng(9);
  Fr x = Fr::random(rng);
  TestConstraintSystem cs;
  auto n = AllocatedNum::alloc(cs, x);
  auto bits = n.to_bits_le(cs);
  ASSERT_EQ(bits.size(), 255u);
  EXPECT_EQ(cs.num_aux(), 256u);
  EXPECT_EQ(cs.num_constraints(), 256u);
  EXPECT_TRUE(cs.is_satisfied());
  const auto& last = cs.constraints().back();
  EXPECT_EQ(last.path, "unpacking constraint");
  EXPECT_TRUE(last.a.empty() && last.b.empty());
  EXPECT_EQ(last.c.aux().size(), 256u);
  auto repr = x.to_canonical();
  for (size_t i = 0; i < 255; i++) EXPECT_EQ(*bits[i].value(), bool((repr[i / 64] >> (i % 64)) & 1));
  cs.set("bit 3/boolean", cs.get("bit 3/boolean") == Fr::one() ? Fr::zero() : Fr::one());
  EXPECT_EQ(cs.which_is_unsatisfied(), "unpacking constraint");
}

TEST(Multipack, PackIntoInputsMatchesComputeMultipacking) {
  std::mt19937 rng(10);
  for (size_t nbits : {0u, 1u, 253u, 254u, 255u, 300u, 508u, 600u}) {
    std::vector<bool> raw(nbits);
    for (size_t i = 0; i < nbits; i++) raw[i] = rng() & 1;
    TestConstraintSystem cs;
    std::vector<Boolean> bits;
    for (size_t i = 0; i < nbits; i++) {
      // A mix of constants, bits and negated bits.
      if (i % 5 == 0) bits.push_back(Boolean::constant(raw[i]));
      else {
        Boolean b = in_ns(
            cs, [&] { return "bit " + std::to_string(i); },
            [&] { return Boolean(AllocatedBit::alloc(cs, i % 5 == 1 ? !raw[i] : bool(raw[i]))); });
        bits.push_back(i % 5 == 1 ? b.not_() : b);
      }
    }
    size_t before = cs.num_constraints();
    pack_into_inputs(cs, bits);
    size_t chunks = (nbits + 253) / 254;
    EXPECT_EQ(cs.num_constraints() - before, chunks);
    EXPECT_EQ(cs.num_inputs(), 1 + chunks);
    EXPECT_TRUE(cs.is_satisfied());
    EXPECT_TRUE(cs.verify(compute_multipacking(raw))) << nbits;
  }
}

TEST(Multipack, PackBitsTakes254) {
  TestConstraintSystem cs;
  std::vector<Boolean> bits;
  for (size_t i = 0; i < 256; i++)
    bits.push_back(in_ns(
        cs, [&] { return "input bit " + std::to_string(i); },
        [&] { return Boolean(AllocatedBit::alloc(cs, true)); }));
  auto n = pack_bits(cs, bits);
  EXPECT_EQ(*n.value, pow2(254) - Fr::one());
  EXPECT_EQ(cs.get("input/num"), *n.value);
  EXPECT_EQ(cs.constraints().back().path, "packing constraint");
  EXPECT_EQ(cs.constraints().back().a.size(), 254u);
  EXPECT_TRUE(cs.is_satisfied());
}

TEST(Multipack, BytesToBits) {
  const uint8_t b[] = {0x81, 0x02};
  auto be = bytes_to_bits(b), le = bytes_to_bits_le(b);
  EXPECT_EQ(be, (std::vector<bool>{1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0}));
  EXPECT_EQ(le, (std::vector<bool>{1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0}));
}

}  // namespace
