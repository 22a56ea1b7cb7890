#include "gadgets/boolean.hpp"

namespace cuzk::gadgets {

namespace {

std::optional<bool> op(std::optional<bool> a, std::optional<bool> b, bool (*f)(bool, bool)) {
  if (!a || !b) return std::nullopt;
  return f(*a, *b);
}

std::string bit_name(size_t i) { return "bit " + std::to_string(i); }

// The LCs of the bit gadgets, built in place: the same terms in the same
// order as the operator chains of upstream (LC(a) + b - c merges exactly
// like add(1, a), add(1, b), add(-1, c)), without the intermediate copies.
const Fr& minus_one() {
  static const Fr m = -Fr::one();
  return m;
}
LC one_minus(Variable x) {  // ONE - x
  LC r;
  r.add(Fr::one(), Variable::one());
  r.add(minus_one(), x);
  return r;
}
LC one_minus(Variable x, Variable y) {  // ONE - x - y
  LC r = one_minus(x);
  r.add(minus_one(), y);
  return r;
}
LC twice(Variable x) {  // x + x
  static const Fr two = Fr::one() + Fr::one();
  LC r;
  r.add(two, x);
  return r;
}
LC sum_minus(Variable x, Variable y, Variable z) {  // x + y - z
  LC r;
  r.add(Fr::one(), x);
  r.add(Fr::one(), y);
  r.add(minus_one(), z);
  return r;
}

}  // namespace

AllocatedBit AllocatedBit::alloc(ConstraintSystem& cs, std::optional<bool> value) {
  Variable v = cs.alloc("boolean", [&] { return bit_fr(value); });
  cs.enforce_with(
      "boolean constraint", [&] { return one_minus(v); }, [&] { return LC(v); }, [] { return LC(); });
  return {v, value};
}

AllocatedBit AllocatedBit::alloc_conditionally(ConstraintSystem& cs, std::optional<bool> value,
                                               const AllocatedBit& must_be_false) {
  Variable v = cs.alloc("boolean", [&] { return bit_fr(value); });
  cs.enforce_with(
      "boolean constraint", [&] { return one_minus(must_be_false.var, v); }, [&] { return LC(v); },
      [] { return LC(); });
  return {v, value};
}

AllocatedBit AllocatedBit::xor_(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b) {
  auto r = op(a.value, b.value, [](bool x, bool y) { return x != y; });
  Variable v = cs.alloc("xor result", [&] { return bit_fr(r); });
  // (a + a)·b = a + b - c: c is 1 exactly when a != b.
  cs.enforce_with(
      "xor constraint", [&] { return twice(a.var); }, [&] { return LC(b.var); },
      [&] { return sum_minus(a.var, b.var, v); });
  return {v, r};
}

AllocatedBit AllocatedBit::and_(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b) {
  auto r = op(a.value, b.value, [](bool x, bool y) { return x && y; });
  Variable v = cs.alloc("and result", [&] { return bit_fr(r); });
  cs.enforce_with(
      "and constraint", [&] { return LC(a.var); }, [&] { return LC(b.var); }, [&] { return LC(v); });
  return {v, r};
}

AllocatedBit AllocatedBit::and_not(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b) {
  auto r = op(a.value, b.value, [](bool x, bool y) { return x && !y; });
  Variable v = cs.alloc("and not result", [&] { return bit_fr(r); });
  cs.enforce_with(
      "and not constraint", [&] { return LC(a.var); }, [&] { return one_minus(b.var); },
      [&] { return LC(v); });
  return {v, r};
}

AllocatedBit AllocatedBit::nor(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b) {
  auto r = op(a.value, b.value, [](bool x, bool y) { return !x && !y; });
  Variable v = cs.alloc("nor result", [&] { return bit_fr(r); });
  cs.enforce_with(
      "nor constraint", [&] { return one_minus(a.var); }, [&] { return one_minus(b.var); },
      [&] { return LC(v); });
  return {v, r};
}

// Case order follows bellpepper's match arms: it decides which operand is
// `a` in the allocated gadget, hence the LCs.
Boolean Boolean::xor_(ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
  if (a.is_constant() && !a.constant_) return b;
  if (b.is_constant() && !b.constant_) return a;
  if (a.is_constant()) return b.not_();  // true XOR x
  if (b.is_constant()) return a.not_();
  if (a.kind_ != b.kind_) {
    // a XOR (NOT b) = NOT (a XOR b), with the non-negated operand first.
    const Boolean& is = a.kind_ == Kind::Is ? a : b;
    const Boolean& nt = a.kind_ == Kind::Is ? b : a;
    return Boolean::negated(AllocatedBit::xor_(cs, is.bit_, nt.bit_));
  }
  // a XOR b = (NOT a) XOR (NOT b)
  return AllocatedBit::xor_(cs, a.bit_, b.bit_);
}

Boolean Boolean::and_(ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
  if ((a.is_constant() && !a.constant_) || (b.is_constant() && !b.constant_)) return constant(false);
  if (a.is_constant()) return b;  // true AND x
  if (b.is_constant()) return a;
  if (a.kind_ == Kind::Is && b.kind_ == Kind::Not) return AllocatedBit::and_not(cs, a.bit_, b.bit_);
  if (a.kind_ == Kind::Not && b.kind_ == Kind::Is) return AllocatedBit::and_not(cs, b.bit_, a.bit_);
  if (a.kind_ == Kind::Not) return AllocatedBit::nor(cs, a.bit_, b.bit_);
  return AllocatedBit::and_(cs, a.bit_, b.bit_);
}

Boolean Boolean::or_(ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
  return in_ns(cs, "not and (not a) (not b)", [&] { return and_(cs, a.not_(), b.not_()); }).not_();
}

Boolean Boolean::sha256_ch(ConstraintSystem& cs, const Boolean& a, const Boolean& b, const Boolean& c) {
  std::optional<bool> v;
  if (auto x = a.value(), y = b.value(), z = c.value(); x && y && z) v = (*x && *y) != (!*x && *z);
  auto is_const = [](const Boolean& x, bool val) { return x.is_constant() && x.constant_ == val; };
  if (a.is_constant() && b.is_constant() && c.is_constant()) return constant(*v);
  if (is_const(a, false)) return c;                                   // = c
  if (is_const(b, false)) return and_(cs, a.not_(), c);               // = (NOT a) AND c
  if (is_const(c, false)) return and_(cs, a, b);                      // = a AND b
  if (is_const(c, true)) return and_(cs, a, b.not_()).not_();         // = NOT (a AND (NOT b))
  if (is_const(b, true)) return and_(cs, a.not_(), c.not_()).not_();  // = NOT ((NOT a) AND (NOT c))
  // a true or all allocated: a(b - c) = ch - c
  Variable ch = cs.alloc("ch", [&] { return bit_fr(v); });
  cs.enforce_with(
      "ch computation",
      [&] {
        LC lhs;
        b.add_to(lhs, Fr::one());
        c.add_to(lhs, minus_one());
        return lhs;
      },
      [&] { return a.lc(Fr::one()); },
      [&] {
        LC rhs(ch);
        c.add_to(rhs, minus_one());
        return rhs;
      });
  return AllocatedBit{ch, v};
}

Boolean Boolean::sha256_maj(ConstraintSystem& cs, const Boolean& a, const Boolean& b, const Boolean& c) {
  std::optional<bool> v;
  if (auto x = a.value(), y = b.value(), z = c.value(); x && y && z)
    v = ((*x && *y) != (*x && *z)) != (*y && *z);
  auto is_const = [](const Boolean& x, bool val) { return x.is_constant() && x.constant_ == val; };
  if (a.is_constant() && b.is_constant() && c.is_constant()) return constant(*v);
  if (is_const(a, false)) return and_(cs, b, c);
  if (is_const(b, false)) return and_(cs, a, c);
  if (is_const(c, false)) return and_(cs, a, b);
  if (is_const(c, true)) return and_(cs, a.not_(), b.not_()).not_();
  if (is_const(b, true)) return and_(cs, a.not_(), c.not_()).not_();
  if (is_const(a, true)) return and_(cs, b.not_(), c.not_()).not_();
  Variable maj = cs.alloc("maj", [&] { return bit_fr(v); });
  Boolean bc = in_ns(cs, "b and c", [&] { return and_(cs, b, c); });
  // (2bc - b - c)·a = bc - maj
  cs.enforce_with(
      "maj computation",
      [&] {
        LC lhs;
        bc.add_to(lhs, Fr::one());
        bc.add_to(lhs, Fr::one());
        b.add_to(lhs, minus_one());
        c.add_to(lhs, minus_one());
        return lhs;
      },
      [&] { return a.lc(Fr::one()); },
      [&] {
        LC rhs;
        bc.add_to(rhs, Fr::one());
        rhs.sub(Fr::one(), maj);
        return rhs;
      });
  return AllocatedBit{maj, v};
}

void Boolean::enforce_equal(ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
  if (a.is_constant() && b.is_constant()) {
    if (a.constant_ != b.constant_) throw r1cs::SynthesisError("unsatisfiable: constants differ");
    return;
  }
  const Fr one = Fr::one();
  if ((a.is_constant() && a.constant_) || (b.is_constant() && b.constant_)) {
    const Boolean& x = a.is_constant() ? b : a;
    LC c(Variable::one());
    x.add_to(c, -one);
    cs.enforce("enforce equal to one", LC(), LC(), std::move(c));
  } else if (a.is_constant() || b.is_constant()) {
    const Boolean& x = a.is_constant() ? b : a;
    cs.enforce("enforce equal to zero", LC(), LC(), x.lc(one));
  } else {
    LC c = a.lc(one);
    b.add_to(c, -one);
    cs.enforce("enforce equal", LC(), LC(), std::move(c));
  }
}

std::vector<Boolean> u64_into_boolean_vec_le(ConstraintSystem& cs, std::optional<uint64_t> value) {
  std::vector<Boolean> bits;
  bits.reserve(64);
  for (size_t i = 0; i < 64; i++) {
    std::optional<bool> b;
    if (value) b = (*value >> i) & 1;
    bits.push_back(in_ns(
        cs, [&] { return bit_name(i); }, [&] { return AllocatedBit::alloc(cs, b); }));
  }
  return bits;
}

std::vector<AllocatedBit> field_into_allocated_bits_le(ConstraintSystem& cs, std::optional<Fr> value) {
  std::optional<ff::Fr::Repr> repr;
  if (value) repr = value->to_canonical();
  std::vector<AllocatedBit> bits;
  bits.reserve(Fr::NUM_BITS);
  for (size_t i = 0; i < Fr::NUM_BITS; i++) {
    std::optional<bool> b;
    if (repr) b = ((*repr)[i / 64] >> (i % 64)) & 1;
    bits.push_back(in_ns(
        cs, [&] { return bit_name(i); }, [&] { return AllocatedBit::alloc(cs, b); }));
  }
  return bits;
}

std::vector<Boolean> field_into_boolean_vec_le(ConstraintSystem& cs, std::optional<Fr> value) {
  auto bits = field_into_allocated_bits_le(cs, value);
  return {bits.begin(), bits.end()};
}

}  // namespace cuzk::gadgets
