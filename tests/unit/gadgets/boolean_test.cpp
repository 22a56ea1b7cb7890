// Boolean gadgets over every operand kind (constant, allocated, negated, each
// true and false), as bellpepper's boolean.rs tests: values, satisfiability,
// the kind of the result, and how many constraints constant folding leaves.
#include "gadgets/boolean.hpp"

#include <gtest/gtest.h>

#include "gadgets/num.hpp"
#include "r1cs/counting_cs.hpp"
#include "r1cs/test_cs.hpp"

using namespace cuzk;
using namespace cuzk::gadgets;
using r1cs::TestConstraintSystem;

namespace {

enum class Op { True, False, AllocTrue, AllocFalse, NegTrue, NegFalse };
constexpr Op kOps[] = {Op::True, Op::False, Op::AllocTrue, Op::AllocFalse, Op::NegTrue, Op::NegFalse};

bool op_value(Op o) { return o == Op::True || o == Op::AllocTrue || o == Op::NegFalse; }
bool op_const(Op o) { return o == Op::True || o == Op::False; }

Boolean make(ConstraintSystem& cs, Op o, const char* name) {
  switch (o) {
    case Op::True: return Boolean::constant(true);
    case Op::False: return Boolean::constant(false);
    case Op::AllocTrue: return in_ns(cs, name, [&] { return Boolean(AllocatedBit::alloc(cs, true)); });
    case Op::AllocFalse: return in_ns(cs, name, [&] { return Boolean(AllocatedBit::alloc(cs, false)); });
    // As upstream's NegatedAllocatedTrue: NOT of a true bit, so false.
    case Op::NegTrue: return in_ns(cs, name, [&] { return Boolean::negated(AllocatedBit::alloc(cs, true)); });
    default: return in_ns(cs, name, [&] { return Boolean::negated(AllocatedBit::alloc(cs, false)); });
  }
}

size_t allocated_operands(std::initializer_list<Op> ops) {
  size_t n = 0;
  for (Op o : ops) n += !op_const(o);
  return n;
}

TEST(AllocatedBit, AllocAndTamper) {
  TestConstraintSystem cs;
  AllocatedBit::alloc(cs, true);
  EXPECT_EQ(cs.get("boolean"), Fr::one());
  EXPECT_TRUE(cs.is_satisfied());
  cs.set("boolean", Fr::zero());
  EXPECT_TRUE(cs.is_satisfied());
  cs.set("boolean", Fr::from_u64(2));
  EXPECT_EQ(cs.which_is_unsatisfied(), "boolean constraint");
}

TEST(AllocatedBit, AllocConditionally) {
  for (bool must_be_false : {false, true})
    for (bool v : {false, true}) {
      TestConstraintSystem cs;
      AllocatedBit z = in_ns(cs, "z", [&] { return AllocatedBit::alloc(cs, must_be_false); });
      in_ns(cs, "x", [&] { return AllocatedBit::alloc_conditionally(cs, v, z); });
      EXPECT_EQ(cs.is_satisfied(), !(must_be_false && v));
    }
}

TEST(AllocatedBit, BinaryOpsTruthTables) {
  using F = AllocatedBit (*)(ConstraintSystem&, const AllocatedBit&, const AllocatedBit&);
  struct Case {
    F f;
    const char* result;
    bool (*want)(bool, bool);
  } cases[] = {
      {&AllocatedBit::xor_, "xor result", [](bool a, bool b) { return a != b; }},
      {&AllocatedBit::and_, "and result", [](bool a, bool b) { return a && b; }},
      {&AllocatedBit::and_not, "and not result", [](bool a, bool b) { return a && !b; }},
      {&AllocatedBit::nor, "nor result", [](bool a, bool b) { return !a && !b; }},
  };
  for (const auto& k : cases)
    for (bool a : {false, true})
      for (bool b : {false, true}) {
        TestConstraintSystem cs;
        auto x = in_ns(cs, "a", [&] { return AllocatedBit::alloc(cs, a); });
        auto y = in_ns(cs, "b", [&] { return AllocatedBit::alloc(cs, b); });
        auto r = k.f(cs, x, y);
        EXPECT_EQ(*r.value, k.want(a, b)) << k.result;
        EXPECT_TRUE(cs.is_satisfied());
        EXPECT_EQ(cs.get(k.result), k.want(a, b) ? Fr::one() : Fr::zero());
        EXPECT_EQ(cs.num_constraints(), 3u);
        cs.set(k.result, k.want(a, b) ? Fr::zero() : Fr::one());
        EXPECT_FALSE(cs.is_satisfied()) << k.result;
      }
}

TEST(Boolean, XorAndOrAllOperandKinds) {
  for (Op oa : kOps)
    for (Op ob : kOps) {
      for (int which = 0; which < 3; which++) {
        TestConstraintSystem cs;
        Boolean a = make(cs, oa, "a"), b = make(cs, ob, "b");
        size_t before = cs.num_constraints();
        Boolean r = which == 0   ? Boolean::xor_(cs, a, b)
                    : which == 1 ? Boolean::and_(cs, a, b)
                                 : Boolean::or_(cs, a, b);
        bool x = op_value(oa), y = op_value(ob);
        bool want = which == 0 ? x != y : which == 1 ? (x && y) : (x || y);
        EXPECT_EQ(r.value(), want);
        EXPECT_TRUE(cs.is_satisfied());
        // One gadget constraint unless an operand is constant.
        bool folds = op_const(oa) || op_const(ob);
        EXPECT_EQ(cs.num_constraints() - before, folds ? 0u : 1u);
        if (folds) continue;
        // xor of Is/Not mixes is a negated fresh bit; and/or are plain bits.
        bool mixed = (oa == Op::NegTrue || oa == Op::NegFalse) != (ob == Op::NegTrue || ob == Op::NegFalse);
        Boolean::Kind want_kind = which == 0   ? (mixed ? Boolean::Kind::Not : Boolean::Kind::Is)
                                  : which == 1 ? Boolean::Kind::Is
                                               : Boolean::Kind::Not;
        EXPECT_EQ(r.kind(), want_kind);
      }
    }
}

// Constraint counts of ch/maj per bellpepper's case tables: 0 for all
// constants or (ch) a false; otherwise one AND when one operand is constant
// (0 if that AND folds too); else ch = 1, maj = 2.
size_t expected_ch(Op a, Op b, Op c) {
  bool ca = op_const(a), cb = op_const(b), cc = op_const(c);
  if (ca && cb && cc) return 0;
  if (a == Op::False) return 0;
  auto and_cost = [](bool c1, bool c2) { return (c1 || c2) ? 0u : 1u; };
  if (b == Op::False) return and_cost(ca, cc);
  if (c == Op::False) return and_cost(ca, cb);
  if (c == Op::True) return and_cost(ca, cb);
  if (b == Op::True) return and_cost(ca, cc);
  return 1;
}
size_t expected_maj(Op a, Op b, Op c) {
  bool ca = op_const(a), cb = op_const(b), cc = op_const(c);
  if (ca && cb && cc) return 0;
  auto and_cost = [](bool c1, bool c2) { return (c1 || c2) ? 0u : 1u; };
  if (ca) return and_cost(cb, cc);
  if (cb) return and_cost(ca, cc);
  if (cc) return and_cost(ca, cb);
  return 2;
}

TEST(Boolean, Sha256ChMajAllOperandKinds) {
  for (Op oa : kOps)
    for (Op ob : kOps)
      for (Op oc : kOps)
        for (bool maj : {false, true}) {
          TestConstraintSystem cs;
          Boolean a = make(cs, oa, "a"), b = make(cs, ob, "b"), c = make(cs, oc, "c");
          size_t before = cs.num_constraints();
          ASSERT_EQ(before, allocated_operands({oa, ob, oc}));
          Boolean r = maj ? Boolean::sha256_maj(cs, a, b, c) : Boolean::sha256_ch(cs, a, b, c);
          bool x = op_value(oa), y = op_value(ob), z = op_value(oc);
          bool want = maj ? (((x && y) != (x && z)) != (y && z)) : ((x && y) != (!x && z));
          EXPECT_EQ(r.value(), want);
          EXPECT_TRUE(cs.is_satisfied());
          EXPECT_EQ(cs.num_constraints() - before, maj ? expected_maj(oa, ob, oc) : expected_ch(oa, ob, oc))
              << int(oa) << int(ob) << int(oc) << " maj=" << maj;
          if (r.kind() == Boolean::Kind::Is && !op_const(oa) && !op_const(ob) && !op_const(oc)) {
            cs.set(maj ? "maj" : "ch", *r.value() ? Fr::zero() : Fr::one());
            EXPECT_FALSE(cs.is_satisfied());
          }
        }
}

TEST(Boolean, EnforceEqual) {
  for (Op oa : kOps)
    for (Op ob : kOps) {
      TestConstraintSystem cs;
      Boolean a = make(cs, oa, "a"), b = make(cs, ob, "b");
      bool equal = op_value(oa) == op_value(ob);
      if (op_const(oa) && op_const(ob)) {
        if (equal) EXPECT_NO_THROW(Boolean::enforce_equal(cs, a, b));
        else EXPECT_THROW(Boolean::enforce_equal(cs, a, b), r1cs::SynthesisError);
        continue;
      }
      Boolean::enforce_equal(cs, a, b);
      EXPECT_EQ(cs.is_satisfied(), equal) << int(oa) << int(ob);
    }
}

TEST(Boolean, U64AndFieldBits) {
  TestConstraintSystem cs;
  auto bits = in_ns(cs, "u64", [&] { return u64_into_boolean_vec_le(cs, 0x8000000000000005ull); });
  ASSERT_EQ(bits.size(), 64u);
  EXPECT_TRUE(*bits[0].value() && !*bits[1].value() && *bits[2].value() && *bits[63].value());
  EXPECT_EQ(cs.num_constraints(), 64u);
  EXPECT_EQ(cs.get("u64/bit 63/boolean"), Fr::one());
  Fr x = -Fr::one();
  auto fb = in_ns(cs, "fr", [&] { return field_into_allocated_bits_le(cs, x); });
  ASSERT_EQ(fb.size(), 255u);
  auto repr = x.to_canonical();
  for (size_t i = 0; i < 255; i++) EXPECT_EQ(*fb[i].value, bool((repr[i / 64] >> (i % 64)) & 1));
  EXPECT_TRUE(cs.is_satisfied());
}

// Shape-only synthesis never needs witness values.
TEST(Boolean, NoWitnessSynthesis) {
  r1cs::CountingCS cs;
  Boolean a = AllocatedBit::alloc(cs, std::nullopt),
          b = Boolean::negated(AllocatedBit::alloc(cs, std::nullopt));
  Boolean c = Boolean::xor_(cs, a, b);
  Boolean::sha256_maj(cs, a, b, c);
  EXPECT_FALSE(c.value().has_value());
  EXPECT_EQ(cs.num_constraints(), 5u);
}

}  // namespace
