#pragma once
// Bits in a constraint system, as bellpepper-core's boolean.rs: an
// AllocatedBit is a variable constrained to {0, 1}; a Boolean is a constant,
// a bit, or a bit's negation, so NOT is free and operations with a constant
// operand fold away without constraints. Every operation allocates, names
// and constrains exactly as upstream, because Filecoin's parameters fix the
// variable numbering and constraint order.
//
// Witness values are optional: without a witness (shape or counting
// synthesis) they are nullopt and the value callbacks are never invoked.
// `and`, `or`, `xor`, `not` are C++ keywords, hence the trailing underscores.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "r1cs/constraint_system.hpp"

namespace cuzk::gadgets {

using r1cs::ConstraintSystem;
using r1cs::Fr;
using r1cs::LC;
using r1cs::Name;
using r1cs::Namespace;
using r1cs::Variable;

// Runs f() inside namespace `name` (bellpepper's `cs.namespace(|| name)`).
template <class F>
decltype(auto) in_ns(ConstraintSystem& cs, const Name& name, F&& f) {
  Namespace ns(cs, name);
  return f();
}

// The value of a witness bit for an alloc callback.
inline Fr bit_fr(std::optional<bool> b) {
  if (!b) throw r1cs::AssignmentMissing();
  return *b ? Fr::one() : Fr::zero();
}

struct AllocatedBit {
  Variable var;
  std::optional<bool> value;

  // "boolean", with "boolean constraint": (1 - a)·a = 0.
  static AllocatedBit alloc(ConstraintSystem& cs, std::optional<bool> value);
  // (1 - must_be_false - a)·a = 0: a is boolean, and 0 if must_be_false is 1.
  static AllocatedBit alloc_conditionally(ConstraintSystem& cs, std::optional<bool> value,
                                          const AllocatedBit& must_be_false);
  static AllocatedBit xor_(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b);
  static AllocatedBit and_(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b);
  // a AND (NOT b)
  static AllocatedBit and_not(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b);
  // (NOT a) AND (NOT b)
  static AllocatedBit nor(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b);
};

class Boolean {
 public:
  enum class Kind : uint8_t { Constant, Is, Not };

  Boolean() = default;                                          // constant false
  Boolean(const AllocatedBit& b) : kind_(Kind::Is), bit_(b) {}  // NOLINT: implicit like From
  static Boolean constant(bool c) {
    Boolean r;
    r.constant_ = c;
    return r;
  }
  static Boolean negated(const AllocatedBit& b) {
    Boolean r(b);
    r.kind_ = Kind::Not;
    return r;
  }

  Kind kind() const { return kind_; }
  bool is_constant() const { return kind_ == Kind::Constant; }
  bool constant_value() const { return constant_; }  // Constant only
  const AllocatedBit& bit() const { return bit_; }   // Is / Not only
  std::optional<bool> value() const {
    switch (kind_) {
      case Kind::Constant: return constant_;
      case Kind::Is: return bit_.value;
      default: return bit_.value ? std::optional<bool>(!*bit_.value) : std::nullopt;
    }
  }
  Boolean not_() const {
    Boolean r = *this;
    if (kind_ == Kind::Constant) r.constant_ = !constant_;
    else r.kind_ = kind_ == Kind::Is ? Kind::Not : Kind::Is;
    return r;
  }

  // lc += coeff·self, with ONE for constants and coeff·ONE - coeff·b for Not(b).
  void add_to(LC& lc, const Fr& coeff) const {
    switch (kind_) {
      case Kind::Constant:
        if (constant_) lc.add(coeff, Variable::one());
        break;
      case Kind::Is: lc.add(coeff, bit_.var); break;
      case Kind::Not:
        lc.add(coeff, Variable::one());
        lc.sub(coeff, bit_.var);
        break;
    }
  }
  LC lc(const Fr& coeff) const {
    LC r;
    add_to(r, coeff);
    return r;
  }

  static Boolean xor_(ConstraintSystem& cs, const Boolean& a, const Boolean& b);
  static Boolean and_(ConstraintSystem& cs, const Boolean& a, const Boolean& b);
  static Boolean or_(ConstraintSystem& cs, const Boolean& a, const Boolean& b);
  // (a AND b) XOR ((NOT a) AND c)
  static Boolean sha256_ch(ConstraintSystem& cs, const Boolean& a, const Boolean& b, const Boolean& c);
  // (a AND b) XOR (a AND c) XOR (b AND c)
  static Boolean sha256_maj(ConstraintSystem& cs, const Boolean& a, const Boolean& b, const Boolean& c);
  // Throws SynthesisError for two different constants.
  static void enforce_equal(ConstraintSystem& cs, const Boolean& a, const Boolean& b);

 private:
  Kind kind_ = Kind::Constant;
  bool constant_ = false;
  AllocatedBit bit_;
};

// 64 bits, LSB first, each in namespace "bit i".
std::vector<Boolean> u64_into_boolean_vec_le(ConstraintSystem& cs, std::optional<uint64_t> value);
// The 255 bits of a field element, LSB first, each in namespace "bit i".
std::vector<AllocatedBit> field_into_allocated_bits_le(ConstraintSystem& cs, std::optional<Fr> value);
std::vector<Boolean> field_into_boolean_vec_le(ConstraintSystem& cs, std::optional<Fr> value);

}  // namespace cuzk::gadgets
