#pragma once
// Field elements in a constraint system (bellpepper-core num.rs):
// AllocatedNum is one variable with an optional witness value; Num is an
// unallocated linear combination with its value, used to build sums before
// committing them to a variable with one constraint.
#include <optional>
#include <vector>

#include "gadgets/boolean.hpp"

namespace cuzk::gadgets {

// 2^i in Fr for i < 256 (coefficients of bit packings and MultiEq).
const Fr& pow2(size_t i);
// The same 256 powers as an array, for loops over many bits.
const Fr* pow2_table();

inline Fr value_or_missing(const std::optional<Fr>& v) {
  if (!v) throw r1cs::AssignmentMissing();
  return *v;
}

// a + s·b as one sorted merge (LC::add_scaled inserts term by term, which
// is quadratic when b's variables interleave with a's). Same result:
// coefficients of shared variables summed, zero coefficients kept.
LC merge_scaled(const LC& a, const Fr& s, const LC& b);

struct AllocatedNum {
  Variable var;
  std::optional<Fr> value;

  static AllocatedNum alloc(ConstraintSystem& cs, std::optional<Fr> value);        // "num"
  static AllocatedNum alloc_input(ConstraintSystem& cs, std::optional<Fr> value);  // "input num"

  // A public input equal to this number: "input variable" and
  // "enforce input is correct": input·ONE = self.
  void inputize(ConstraintSystem& cs) const;
  // 255 allocated bits ("bit i") and "unpacking constraint" 0·0 = Σ 2^i·b_i - self.
  // Not strict: a representation of self + r would also satisfy it.
  std::vector<Boolean> to_bits_le(ConstraintSystem& cs) const;
  AllocatedNum add(ConstraintSystem& cs, const AllocatedNum& other) const;  // "sum num"
  AllocatedNum mul(ConstraintSystem& cs, const AllocatedNum& other) const;  // "product num"
  AllocatedNum square(ConstraintSystem& cs) const;                          // "squared num"
};

struct Num {
  std::optional<Fr> value = Fr::zero();
  LC lc;

  static Num zero() { return {}; }
  static Num from(const AllocatedNum& a) { return {a.value, LC(a.var)}; }
  static Num constant(const Fr& c) {  // c·ONE (neptune's num_from_fr)
    Num n;
    n.value = c;
    n.lc.add(c, Variable::one());
    return n;
  }

  Num& add_bool_with_coeff(const Boolean& bit, const Fr& coeff) {
    auto b = bit.value();
    if (value && b) {
      if (*b) *value += coeff;
    } else {
      value.reset();
    }
    bit.add_to(lc, coeff);
    return *this;
  }
  Num& add(const Num& o) {
    if (value && o.value) *value += *o.value;
    else value.reset();
    lc += o.lc;
    return *this;
  }
  Num& scale(const Fr& s);
};

}  // namespace cuzk::gadgets
