// The per-constraint buffers' allocator (r1cs/vec_growth.hpp): sizing
// without a value leaves rows for the caller to write, but every way of
// adding a value writes it.
#include "r1cs/vec_growth.hpp"

#include <gtest/gtest.h>

#include "r1cs/proving_assignment.hpp"

using namespace cuzk;
using ff::Fr;
using r1cs::FrRows;

TEST(FrRows, ValuesAndNewElementsAreWrittenOverOldContents) {
  FrRows v;
  v.reserve(64);
  const Fr junk = Fr::from_u64(0xdeadbeef), seven = Fr::from_u64(7);
  v.resize(64, junk);  // capacity now holds junk
  for (const Fr& x : v) ASSERT_EQ(x, junk);
  v.clear();
  // emplace_back_large's new element is zero over the junk beneath it.
  for (int i = 0; i < 64; i++) ASSERT_EQ(r1cs::emplace_back_large(v), Fr::zero()) << i;
  v.clear();
  v.resize(32, seven);  // resize with a value fills
  for (const Fr& x : v) ASSERT_EQ(x, seven);
  r1cs::push_back_large(v, junk);
  EXPECT_EQ(v.back(), junk);
  // Growth past the capacity keeps what was there.
  r1cs::reserve_large(v, size_t(1) << 20);
  ASSERT_EQ(v.size(), 33u);
  for (size_t i = 0; i < 32; i++) ASSERT_EQ(v[i], seven);
  EXPECT_EQ(v[32], junk);
}
