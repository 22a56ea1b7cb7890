#include "gadgets/num.hpp"

#include <array>
#include <stdexcept>
#include <string>

namespace cuzk::gadgets {

const Fr* pow2_table() {
  static const std::array<Fr, 256> table = [] {
    std::array<Fr, 256> t;
    t[0] = Fr::one();
    for (size_t k = 1; k < t.size(); k++) t[k] = t[k - 1].dbl();
    return t;
  }();
  return table.data();
}

const Fr& pow2(size_t i) {
  if (i >= 256) throw std::out_of_range("pow2: exponent " + std::to_string(i) + " >= 256");
  return pow2_table()[i];
}

LC merge_scaled(const LC& a, const Fr& s, const LC& b) {
  LC r;
  r.reserve(a.inputs().size() + b.inputs().size(), a.aux().size() + b.aux().size());
  auto merge = [&](const auto& x, const auto& y, Variable::Kind kind) {
    size_t i = 0, j = 0;
    while (i < x.size() || j < y.size()) {
      if (j == y.size() || (i < x.size() && x[i].index < y[j].index)) {
        r.add(x[i].coeff, {kind, x[i].index});
        i++;
      } else if (i == x.size() || y[j].index < x[i].index) {
        r.add(s * y[j].coeff, {kind, y[j].index});
        j++;
      } else {
        r.add(x[i].coeff + s * y[j].coeff, {kind, x[i].index});
        i++;
        j++;
      }
    }
  };
  merge(a.inputs(), b.inputs(), Variable::Kind::Input);
  merge(a.aux(), b.aux(), Variable::Kind::Aux);
  return r;
}

AllocatedNum AllocatedNum::alloc(ConstraintSystem& cs, std::optional<Fr> value) {
  Variable v = cs.alloc("num", [&] { return value_or_missing(value); });
  return {v, value};
}

AllocatedNum AllocatedNum::alloc_input(ConstraintSystem& cs, std::optional<Fr> value) {
  Variable v = cs.alloc_input("input num", [&] { return value_or_missing(value); });
  return {v, value};
}

void AllocatedNum::inputize(ConstraintSystem& cs) const {
  Variable in = cs.alloc_input("input variable", [&] { return value_or_missing(value); });
  cs.enforce("enforce input is correct", in, Variable::one(), var);
}

std::vector<Boolean> AllocatedNum::to_bits_le(ConstraintSystem& cs) const {
  auto bits = field_into_allocated_bits_le(cs, value);
  cs.enforce_with(
      "unpacking constraint", [] { return LC(); }, [] { return LC(); },
      [&] {
        LC lc;
        for (size_t i = 0; i < bits.size(); i++) lc.add(pow2(i), bits[i].var);
        lc -= var;
        return lc;
      });
  return {bits.begin(), bits.end()};
}

AllocatedNum AllocatedNum::add(ConstraintSystem& cs, const AllocatedNum& o) const {
  std::optional<Fr> r;
  if (value && o.value) r = *value + *o.value;
  Variable v = cs.alloc("sum num", [&] { return value_or_missing(r); });
  cs.enforce_with(
      "addition constraint", [&] { return LC(var) + o.var; }, [] { return LC(Variable::one()); },
      [&] { return LC(v); });
  return {v, r};
}

AllocatedNum AllocatedNum::mul(ConstraintSystem& cs, const AllocatedNum& o) const {
  std::optional<Fr> r;
  if (value && o.value) r = *value * *o.value;
  Variable v = cs.alloc("product num", [&] { return value_or_missing(r); });
  cs.enforce_with(
      "multiplication constraint", [&] { return LC(var); }, [&] { return LC(o.var); }, [&] { return LC(v); });
  return {v, r};
}

AllocatedNum AllocatedNum::square(ConstraintSystem& cs) const {
  std::optional<Fr> r;
  if (value) r = value->square();
  Variable v = cs.alloc("squared num", [&] { return value_or_missing(r); });
  cs.enforce_with(
      "squaring constraint", [&] { return LC(var); }, [&] { return LC(var); }, [&] { return LC(v); });
  return {v, r};
}

Num& Num::scale(const Fr& s) {
  LC scaled;
  scaled.add_scaled(s, lc);  // keeps the term layout, zero coefficients included
  lc = std::move(scaled);
  if (value) *value *= s;
  return *this;
}

}  // namespace cuzk::gadgets
