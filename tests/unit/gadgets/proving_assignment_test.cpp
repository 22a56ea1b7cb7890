// ProvingAssignment on the SHA-256 gadget (bits, MultiEq packings with
// ~1000 terms, constants folded into ONE) and a field packing: its a/b/c
// equal the rows of the recorded R1CS evaluated with plain Fr arithmetic,
// and its densities equal the matrices' column structure. This checks the
// evaluation shortcuts (bit values, ±1 coefficients, unreduced sums)
// against an independent path.
#include <gtest/gtest.h>

#include <random>

#include "gadgets/multipack.hpp"
#include "gadgets/sha256.hpp"
#include "r1cs/counting_cs.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/shape.hpp"

using namespace cuzk;
using namespace cuzk::gadgets;

namespace {

struct ShaCircuit : r1cs::Circuit {
  std::vector<bool> msg;  // 2 blocks after padding
  Fr x;
  void synthesize(ConstraintSystem& cs) const override {
    std::vector<Boolean> bits;
    for (size_t i = 0; i < msg.size(); i++) {
      std::optional<bool> b = msg[i];
      if (i % 3 == 0) bits.push_back(Boolean::constant(msg[i]));  // constants fold into ONE terms
      else if (i % 3 == 1) bits.push_back(AllocatedBit::alloc(cs, b));
      else bits.push_back(Boolean(AllocatedBit::alloc(cs, b)).not_());  // ONE - b terms
    }
    auto digest = sha256(cs, bits);
    AllocatedNum n = AllocatedNum::alloc(cs, x);
    auto nbits = n.to_bits_le(cs);  // 255 coefficients 2^i in one LC
    (void)digest;
    (void)nbits;
  }
};

}  // namespace

TEST(ProvingAssignmentGadgets, EvaluationsAndDensitiesMatchTheRecordedR1cs) {
  std::mt19937_64 rng(3);
  ShaCircuit c;
  for (int i = 0; i < 600; i++) c.msg.push_back(rng() & 1);
  c.x = Fr::random(rng);

  r1cs::ProvingAssignment pa;
  c.synthesize(pa);
  r1cs::ShapeRecorder rec;
  c.synthesize(rec);
  r1cs::R1cs r = rec.finish();
  ASSERT_EQ(pa.num_constraints(), r.num_constraints());
  ASSERT_EQ(pa.num_aux(), r.num_aux);
  ASSERT_EQ(pa.num_inputs(), r.num_inputs);

  std::vector<Fr> z = pa.input_assignment;
  z.insert(z.end(), pa.aux_assignment.begin(), pa.aux_assignment.end());
  size_t bad = 0;
  for (size_t i = 0; i < r.num_constraints() && bad < 5; i++) {
    bool ok = pa.a[i] == r.a.eval_row(i, z) && pa.b[i] == r.b.eval_row(i, z) && pa.c[i] == r.c.eval_row(i, z);
    EXPECT_TRUE(ok) << "row " << i;
    bad += !ok;
  }
  EXPECT_TRUE(r.is_satisfied(z));

  r1cs::Density ad = r.a.column_density(r.num_variables()), bd = r.b.column_density(r.num_variables());
  size_t mismatches = 0;
  for (size_t j = 0; j < r.num_aux; j++) {
    mismatches += pa.a_aux_density.get(j) != ad.get(r.num_inputs + j);
    mismatches += pa.b_aux_density.get(j) != bd.get(r.num_inputs + j);
  }
  for (size_t j = 0; j < r.num_inputs; j++) mismatches += pa.b_input_density.get(j) != bd.get(j);
  EXPECT_EQ(mismatches, 0u);
  EXPECT_GT(pa.a_aux_density.total(), 0u);

  // The counting pass sees the same non-zeros.
  r1cs::CountingCS cs;
  c.synthesize(cs);
  EXPECT_EQ(cs.nnz_a, r.a.nnz());
  EXPECT_EQ(cs.nnz_b, r.b.nnz());
  EXPECT_EQ(cs.nnz_c, r.c.nnz());
}
