#include "gadgets/multieq.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <string>

namespace cuzk::gadgets {

const Fr* neg_pow2_table() {
  static const std::array<Fr, 256> table = [] {
    std::array<Fr, 256> t;
    for (size_t k = 0; k < t.size(); k++) t[k] = -pow2_table()[k];
    return t;
  }();
  return table.data();
}

void MultiEq::add_lhs(const Fr& coeff, const Boolean& b) {
  if (!records_) return;
  switch (b.kind()) {
    case Boolean::Kind::Constant:
      if (b.constant_value()) add_lhs(coeff, Variable::one());
      break;
    case Boolean::Kind::Is: add_lhs(coeff, b.bit().var); break;
    case Boolean::Kind::Not:  // coeff·(ONE - b)
      add_lhs(coeff, Variable::one());
      add_lhs(-coeff, b.bit().var);
      break;
  }
}

void MultiEq::add_lhs_pow2(unsigned e, const Boolean& b) {
  if (!records_) return;
  switch (b.kind()) {
    case Boolean::Kind::Constant:
      if (b.constant_value()) lhs_.add_pow2(e, false, Variable::one());
      break;
    case Boolean::Kind::Is: lhs_.add_pow2(e, false, b.bit().var); break;
    case Boolean::Kind::Not:
      lhs_.add_pow2(e, false, Variable::one());
      lhs_.add_pow2(e, true, b.bit().var);
      break;
  }
}

void MultiEq::enforce_equal(size_t num_bits, const LC& lhs, const LC& rhs) {
  const Fr& k = pow2(reserve(num_bits));
  if (!records_) return;
  for (const auto& e : lhs.inputs()) add_lhs(k * e.coeff, Variable::input(e.index));
  for (const auto& e : lhs.aux()) add_lhs(k * e.coeff, Variable::aux(e.index));
  for (const auto& e : rhs.inputs()) add_rhs(k * e.coeff, Variable::input(e.index));
  for (const auto& e : rhs.aux()) add_rhs(k * e.coeff, Variable::aux(e.index));
}

// Merges terms of equal variables (summing coefficients; the order of a
// field sum does not matter) into a sorted LC. Inputs other than ONE are
// rare and sorted directly; aux terms are radix-sorted on their offset from
// the smallest index, packed above the term's position: ~1000 terms per
// constraint made a comparison sort the bulk of this gadget's cost.
LC MultiEq::build(Side& side) {
  using Term = Side::Term;
  constexpr uint64_t kAux = Side::kAuxKey;
  const size_t n = side.terms.size();
  const Term* t = side.terms.data();
  uint64_t lo = ~uint64_t(0), hi = 0, in_hi = 0;
  size_t n_inputs = 0;
  for (size_t i = 0; i < n; i++) {
    if (!(t[i].key & kAux)) {
      n_inputs++;
      in_hi = std::max(in_hi, t[i].key);
      continue;
    }
    uint64_t idx = t[i].key & ~kAux;
    lo = std::min(lo, idx);
    hi = std::max(hi, idx);
  }
  const size_t n_aux = n - n_inputs;
  const unsigned span_bits = n_aux ? unsigned(std::bit_width(hi - lo)) : 0;
  order_.clear();
  if (n >= (size_t(1) << 16) || span_bits > 47 || in_hi >= (uint64_t(1) << 47)) {  // cannot pack
    order_.resize(n);
    for (size_t i = 0; i < n; i++) order_[i] = i;
    std::sort(order_.begin(), order_.end(), [&](uint64_t x, uint64_t y) { return t[x].key < t[y].key; });
  } else {
    for (size_t i = 0; i < n; i++)
      if (!(t[i].key & kAux)) order_.push_back((t[i].key << 16) | i);
    std::sort(order_.begin(), order_.end());
    const size_t aux_at = order_.size();
    for (size_t i = 0; i < n; i++)
      if (t[i].key & kAux) order_.push_back((((t[i].key & ~kAux) - lo) << 16) | i);
    radix_sort(aux_at, span_bits);
    for (uint64_t& o : order_) o &= 0xffff;  // positions, in variable order
  }

  LC lc;
  lc.reserve(n_inputs + side.has_one, n_aux);
  if (side.has_one) lc.add(side.one.get(), Variable::one());
  for (size_t i = 0; i < n;) {
    const Term& first = t[order_[i]];
    size_t j = i + 1;
    while (j < n && t[order_[j]].key == first.key) j++;
    const Variable v = first.key & kAux ? Variable::aux(first.key & ~kAux) : Variable::input(first.key);
    if (j == i + 1) {
      lc.add(side.coeff(first.code), v);  // appends: variables arrive sorted
    } else {
      r1cs::FrSum sum;
      for (size_t k = i; k < j; k++) sum.add(side.coeff(t[order_[k]].code));
      lc.add(sum.get(), v);
    }
    i = j;
  }
  side.clear();
  return lc;
}

// LSD radix sort of order_[from..] on bits [16, 16 + bits), 8 at a time.
void MultiEq::radix_sort(size_t from, unsigned bits) {
  const size_t m = order_.size() - from;
  tmp_.resize(m);
  uint64_t* src = order_.data() + from;
  uint64_t* dst = tmp_.data();
  for (unsigned shift = 16; shift < 16 + bits; shift += 8) {
    size_t count[257] = {};
    for (size_t i = 0; i < m; i++) count[((src[i] >> shift) & 255) + 1]++;
    for (size_t d = 1; d < 257; d++) count[d] += count[d - 1];
    for (size_t i = 0; i < m; i++) dst[count[(src[i] >> shift) & 255]++] = src[i];
    std::swap(src, dst);
  }
  if (src != order_.data() + from) std::copy(src, src + m, order_.data() + from);
}

void MultiEq::accumulate() {
  size_t n = ops_;
  if (!records_) cs_.skip_constraint();
  else cs_.enforce([&] { return "multieq " + std::to_string(n); }, build(lhs_), Variable::one(), build(rhs_));
  bits_used_ = 0;
  ops_++;
}

}  // namespace cuzk::gadgets
