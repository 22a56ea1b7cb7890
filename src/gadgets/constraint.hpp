#pragma once
// storage-proofs-core gadgets/constraint.rs: one-constraint relations
// between allocated numbers, used throughout the Filecoin circuits.
#include "gadgets/num.hpp"

namespace cuzk::gadgets {

// a·ONE = b.
inline void enforce_equal(ConstraintSystem& cs, const Name& name, const AllocatedNum& a,
                          const AllocatedNum& b) {
  cs.enforce(name, a.var, Variable::one(), b.var);
}
// (a + b)·ONE = sum.
inline void enforce_sum(ConstraintSystem& cs, const Name& name, const AllocatedNum& a, const AllocatedNum& b,
                        const AllocatedNum& sum) {
  cs.enforce(name, LC(a.var) + b.var, Variable::one(), sum.var);
}
// (difference + b)·ONE = a.
inline void enforce_difference(ConstraintSystem& cs, const Name& name, const AllocatedNum& a,
                               const AllocatedNum& b, const AllocatedNum& difference) {
  cs.enforce(name, LC(difference.var) + b.var, Variable::one(), a.var);
}
// a + b: "add_num" and "sum constraint".
inline AllocatedNum add(ConstraintSystem& cs, const AllocatedNum& a, const AllocatedNum& b) {
  std::optional<Fr> v;
  if (a.value && b.value) v = *a.value + *b.value;
  AllocatedNum res = in_ns(cs, "add_num", [&] { return AllocatedNum::alloc(cs, v); });
  enforce_sum(cs, "sum constraint", a, b, res);
  return res;
}
// a - b: "sub_num" and "subtraction constraint".
inline AllocatedNum sub(ConstraintSystem& cs, const AllocatedNum& a, const AllocatedNum& b) {
  std::optional<Fr> v;
  if (a.value && b.value) v = *a.value - *b.value;
  AllocatedNum res = in_ns(cs, "sub_num", [&] { return AllocatedNum::alloc(cs, v); });
  enforce_difference(cs, "subtraction constraint", a, b, res);
  return res;
}

}  // namespace cuzk::gadgets
