// The four constraint systems agree with each other on small circuits, and
// the hash matches an independent reference of docs/FILECOIN.md §1.4.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "platform/large_vector.hpp"
#include "r1cs/counting_cs.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/shape.hpp"
#include "r1cs/test_cs.hpp"
#include "r1cs/witness_cs.hpp"
#include "unit/r1cs/test_circuits.hpp"

using namespace cuzk;
using namespace cuzk::r1cs;
using cuzk::test::ChainCircuit;
using cuzk::test::CubicCircuit;
using cuzk::test::ManyInputsCircuit;
using cuzk::test::MixedCircuit;

namespace {

std::vector<Fr> full_assignment(const ProvingAssignment& pa) {
  std::vector<Fr> z = pa.input_assignment;
  z.insert(z.end(), pa.aux_assignment.begin(), pa.aux_assignment.end());
  return z;
}

R1cs shape_of(const Circuit& c) {
  ShapeRecorder s;
  c.synthesize(s);
  return s.finish();
}

}  // namespace

TEST(LinearCombination, MergesSortsAndKeepsCancelledTerms) {
  LC lc = LC(Variable::aux(3)) + Variable::input(2) + Variable::aux(1) + Variable::aux(3) +
          Fr::from_u64(5) * Variable::input(0);
  ASSERT_EQ(lc.inputs().size(), 2u);
  EXPECT_EQ(lc.inputs()[0].index, 0u);
  EXPECT_EQ(lc.inputs()[0].coeff, Fr::from_u64(5));
  EXPECT_EQ(lc.inputs()[1].index, 2u);
  ASSERT_EQ(lc.aux().size(), 2u);
  EXPECT_EQ(lc.aux()[0].index, 1u);
  EXPECT_EQ(lc.aux()[1].index, 3u);
  EXPECT_EQ(lc.aux()[1].coeff, Fr::from_u64(2));
  lc -= Fr::from_u64(2) * Variable::aux(3);
  ASSERT_EQ(lc.aux().size(), 2u);  // kept, with a zero coefficient
  EXPECT_TRUE(lc.aux()[1].coeff.is_zero());

  LC twice = Fr::from_u64(2) * (LC(Variable::aux(0)) - Variable::input(1));
  EXPECT_EQ(twice.aux()[0].coeff, Fr::from_u64(2));
  EXPECT_EQ(twice.inputs()[0].coeff, -Fr::from_u64(2));
  std::vector<Fr> in{Fr::one(), Fr::from_u64(3)}, aux{Fr::from_u64(10)};
  EXPECT_EQ(twice.eval(in, aux), Fr::from_u64(14));
}

TEST(TestConstraintSystem, CubicSatisfiedAndHash) {
  TestConstraintSystem cs;
  CubicCircuit c;
  c.x = Fr::from_u64(3);
  c.synthesize(cs);
  EXPECT_TRUE(cs.is_satisfied());
  EXPECT_EQ(cs.num_constraints(), 3u);
  EXPECT_EQ(cs.num_inputs(), 2u);
  EXPECT_EQ(cs.num_aux(), 3u);
  EXPECT_EQ(cs.get("y"), Fr::from_u64(35));
  EXPECT_TRUE(cs.verify({Fr::from_u64(35)}));
  EXPECT_FALSE(cs.verify({Fr::from_u64(36)}));
  // Reference values from an independent Python implementation of §1.4.
  EXPECT_EQ(cs.hash(), "8d6da92510454d6e548289644c650d0e4792a80c3912987952620e36b14836ac");
  cs.set("x3", Fr::from_u64(28));
  EXPECT_EQ(cs.which_is_unsatisfied(), std::optional<std::string>("x3 = x2*x"));
}

TEST(TestConstraintSystem, HashVectors) {
  {
    TestConstraintSystem cs;
    EXPECT_EQ(cs.hash(), "958191931feaed50efb8195a7e9084aba2c230e2886c2f11a2cff90a9117095e");
  }
  {
    TestConstraintSystem cs;
    MixedCircuit().synthesize(cs);
    EXPECT_TRUE(cs.is_satisfied());
    EXPECT_EQ(cs.hash(), "3a6e906829d5f1f21d20e56656a59de7925884073218a531ba66137cc983e837");
  }
  {
    TestConstraintSystem cs;
    ManyInputsCircuit().synthesize(cs);
    EXPECT_TRUE(cs.is_satisfied());
    EXPECT_EQ(cs.num_inputs(), 21u);
    EXPECT_EQ(cs.hash(), "2c495e9045b3dc9eee51fa987a315bf8d9ae22d425e71d88b2af38be2994eb7c");
  }
}

TEST(TestConstraintSystem, NamespacesPathsAndErrors) {
  TestConstraintSystem cs;
  ManyInputsCircuit m;
  m.n = 3;
  m.synthesize(cs);
  EXPECT_EQ(cs.get("sq 2/sq"), Fr::from_u64(9));
  EXPECT_EQ(cs.aux_name(0), "sq 0/sq");
  cs.set("sq 1/sq", Fr::from_u64(5));
  EXPECT_EQ(cs.which_is_unsatisfied(), std::optional<std::string>("sq 1/square"));
  EXPECT_THROW(cs.get("nope"), std::out_of_range);
  EXPECT_THROW(cs.get("sq 1/square"), std::out_of_range);                 // a constraint, not a variable
  EXPECT_THROW(cs.alloc("s", [] { return Fr::one(); }), SynthesisError);  // duplicate path
  EXPECT_THROW(cs.alloc("a/b", [] { return Fr::one(); }), SynthesisError);
  {
    Namespace a(cs, "outer");
    Namespace b(cs, "inner");
    cs.alloc("v", [] { return Fr::from_u64(7); });
  }
  EXPECT_EQ(cs.get("outer/inner/v"), Fr::from_u64(7));
}

// alloc_bits: consecutive aux variables holding the bits, named "bit i" on
// a system that keeps names, the same on a witness-only one.
TEST(TestConstraintSystem, AllocBitsNumbersAndNamesThem) {
  const std::vector<uint8_t> bits{1, 0, 0, 1, 1};
  TestConstraintSystem cs;
  cs.alloc("before", [] { return Fr::from_u64(7); });
  Variable first;
  {
    Namespace ns(cs, "word");
    first = cs.alloc_bits(bits);
  }
  EXPECT_EQ(first, Variable::aux(1));
  ASSERT_EQ(cs.num_aux(), 6u);
  for (size_t i = 0; i < bits.size(); i++) {
    EXPECT_EQ(cs.aux_values()[1 + i], bits[i] ? Fr::one() : Fr::zero()) << i;
    EXPECT_EQ(cs.aux_name(1 + i), "word/bit " + std::to_string(i));
  }
  WitnessCS w;
  w.alloc("before", [] { return Fr::from_u64(7); });
  EXPECT_EQ(w.alloc_bits(bits), Variable::aux(1));
  EXPECT_EQ(std::vector<Fr>(w.aux().begin(), w.aux().end()), cs.aux_values());
}

TEST(ProvingAssignment, RecordsEvaluationsAndDensities) {
  ChainCircuit c;
  c.len = 6;
  c.x0 = Fr::from_u64(3);
  ProvingAssignment pa;
  c.synthesize(pa);
  R1cs r = shape_of(c);
  ASSERT_EQ(pa.num_constraints(), r.num_constraints());
  ASSERT_EQ(pa.num_inputs(), r.num_inputs);
  ASSERT_EQ(pa.num_aux(), r.num_aux);
  auto z = full_assignment(pa);
  EXPECT_TRUE(r.is_satisfied(z));
  for (size_t i = 0; i < r.num_constraints(); i++) {
    EXPECT_EQ(pa.a[i], r.a.eval_row(i, z));
    EXPECT_EQ(pa.b[i], r.b.eval_row(i, z));
    EXPECT_EQ(pa.c[i], r.c.eval_row(i, z));
    EXPECT_EQ(pa.a[i] * pa.b[i], pa.c[i]);
  }
  // Densities equal the matrices' column structure.
  Density ad = r.a.column_density(r.num_variables()), bd = r.b.column_density(r.num_variables());
  for (size_t j = 0; j < r.num_aux; j++) {
    EXPECT_EQ(pa.a_aux_density.get(j), ad.get(r.num_inputs + j)) << j;
    EXPECT_EQ(pa.b_aux_density.get(j), bd.get(r.num_inputs + j)) << j;
  }
  for (size_t j = 0; j < r.num_inputs; j++) EXPECT_EQ(pa.b_input_density.get(j), bd.get(j));
  // The last aux (x_len) appears in A and B of the "out" constraint only via A.
  EXPECT_TRUE(pa.a_aux_density.get(c.len));
  EXPECT_FALSE(pa.b_aux_density.get(c.len));
  EXPECT_TRUE(pa.b_input_density.get(0));   // ONE in B of "out"
  EXPECT_FALSE(pa.b_input_density.get(1));  // "out" only in C
}

TEST(ProvingAssignment, ZeroCoefficientsDoNotMarkDensity) {
  struct C : Circuit {
    void synthesize(ConstraintSystem& cs) const override {
      Variable a = cs.alloc("a", [] { return Fr::from_u64(2); });
      Variable b = cs.alloc("b", [] { return Fr::from_u64(3); });
      cs.enforce("k", LC(a) + b - b, LC(a) - a + cs.one(), a);
    }
  };
  ProvingAssignment pa;
  C().synthesize(pa);
  EXPECT_TRUE(pa.a_aux_density.get(0));
  EXPECT_FALSE(pa.a_aux_density.get(1));
  EXPECT_FALSE(pa.b_aux_density.get(0));
  EXPECT_EQ(pa.b_aux_density.total(), 0u);
  EXPECT_EQ(pa.a[0], Fr::from_u64(2));
  EXPECT_EQ(pa.b[0], Fr::one());
  R1cs r = shape_of(C());
  EXPECT_EQ(r.a.nnz(), 1u);
  EXPECT_EQ(r.b.nnz(), 1u);
}

TEST(ProvingAssignment, MissingWitnessThrowsButShapeDoesNot) {
  CubicCircuit c;  // no x
  ProvingAssignment pa;
  EXPECT_THROW(c.synthesize(pa), AssignmentMissing);
  R1cs r = shape_of(c);
  EXPECT_EQ(r.num_constraints(), 3u);
  EXPECT_EQ(r.hash(), "8d6da92510454d6e548289644c650d0e4792a80c3912987952620e36b14836ac");
  CountingCS cc;
  EXPECT_NO_THROW(c.synthesize(cc));
  EXPECT_EQ(cc.num_constraints(), 3u);
}

TEST(ProvingAssignment, ExtendEqualsSequentialSynthesis) {
  ChainCircuit c1, c2;
  c1.len = 4;
  c1.x0 = Fr::from_u64(2);
  c2.len = 3;
  c2.x0 = Fr::from_u64(5);
  ProvingAssignment seq;
  c1.synthesize(seq);
  c2.synthesize(seq);
  ProvingAssignment p1, p2, combined;
  c1.synthesize(p1);
  c2.synthesize(p2);
  combined.extend(p1);
  combined.extend(p2);
  EXPECT_TRUE(combined == seq);
}

// A destroyed assignment's buffers go back for reuse, and an assignment
// built in them (old values still in the memory) is the same as one built
// in fresh memory.
TEST(ProvingAssignment, ReusesTheBuffersOfADestroyedOneWithTheSameResult) {
  ChainCircuit chain;
  chain.len = size_t(3) << 16;  // a/b/c 6 MiB each: above the recycled size
  chain.x0 = Fr::from_u64(3);
  const platform::ScopedRecycleLimit recycling(size_t(1) << 30);
  ProvingAssignment::forget_size_hint();
  platform::drop_recycled<Fr>();
  auto first = std::make_unique<ProvingAssignment>();
  chain.synthesize(*first);
  const ProvingAssignment fresh = *first;  // a copy in other memory
  const Fr* a_data = first->a.data();
  first.reset();
  EXPECT_GT(platform::recycled_bytes(), 0u);
  ProvingAssignment second;
  chain.synthesize(second);
  EXPECT_TRUE(second == fresh);
  // Its vectors were reserved at the remembered sizes: one of them (all four
  // are 8 MiB here) got a's old buffer.
  EXPECT_TRUE(second.a.data() == a_data || second.b.data() == a_data || second.c.data() == a_data ||
              second.aux_assignment.data() == a_data);
  ProvingAssignment::forget_size_hint();
  platform::drop_recycled<Fr>();
}

TEST(ShapeRecorder, CubicMatrices) {
  R1cs r = shape_of(CubicCircuit());
  EXPECT_EQ(r.num_inputs, 2u);
  EXPECT_EQ(r.num_aux, 3u);
  // Row 2: A = 5·ONE + x + x3 (columns 0, 2, 4), B = ONE, C = y.
  ASSERT_EQ(r.a.row_ptr, (std::vector<uint64_t>{0, 1, 2, 5}));
  EXPECT_EQ(r.a.col, (std::vector<uint32_t>{2, 3, 0, 2, 4}));
  EXPECT_EQ(r.a.val[2], Fr::from_u64(5));
  EXPECT_EQ(r.b.col, (std::vector<uint32_t>{2, 2, 0}));
  EXPECT_EQ(r.c.col, (std::vector<uint32_t>{3, 4, 1}));
  r.add_input_constraints();
  EXPECT_EQ(r.num_constraints(), 5u);
  EXPECT_EQ(r.a.col.back(), 1u);
  EXPECT_EQ(r.b.row_ptr.back(), 3u);
}

TEST(ShapeRecorder, HashAgreesWithTestConstraintSystem) {
  ChainCircuit chain;
  chain.x0 = Fr::from_u64(7);
  ManyInputsCircuit many;
  const Circuit* circuits[] = {&chain, &many};
  for (const Circuit* c : circuits) {
    TestConstraintSystem t;
    c->synthesize(t);
    EXPECT_TRUE(t.is_satisfied());
    EXPECT_EQ(shape_of(*c).hash(), t.hash());
  }
}

TEST(CountingCS, MatchesShape) {
  ChainCircuit chain;
  ManyInputsCircuit many;
  many.with_witness = false;
  MixedCircuit mixed;
  const Circuit* circuits[] = {&chain, &many, &mixed};
  for (const Circuit* c : circuits) {
    CountingCS cc;
    c->synthesize(cc);
    R1cs r = shape_of(*c);
    EXPECT_EQ(cc.num_constraints(), r.num_constraints());
    EXPECT_EQ(cc.num_inputs(), r.num_inputs);
    EXPECT_EQ(cc.num_aux(), r.num_aux);
    EXPECT_EQ(cc.nnz_a, r.a.nnz());
    EXPECT_EQ(cc.nnz_b, r.b.nnz());
    EXPECT_EQ(cc.nnz_c, r.c.nnz());
    Density ad = r.a.column_density(r.num_variables()), bd = r.b.column_density(r.num_variables());
    for (size_t j = 0; j < r.num_inputs; j++) {
      EXPECT_EQ(cc.a_input_density.get(j), ad.get(j));
      EXPECT_EQ(cc.b_input_density.get(j), bd.get(j));
    }
    for (size_t j = 0; j < r.num_aux; j++) {
      EXPECT_EQ(cc.a_aux_density.get(j), ad.get(r.num_inputs + j));
      EXPECT_EQ(cc.b_aux_density.get(j), bd.get(r.num_inputs + j));
    }
  }
  CountingCS cc;
  many.synthesize(cc);
  EXPECT_EQ(cc.num_constraints(), 21u);
  EXPECT_EQ(cc.nnz_a, 40u);
  EXPECT_EQ(cc.a_aux_density.total(), 0u);
  EXPECT_EQ(cc.b_input_density.total(), 21u);
}
