#pragma once
// bellperson's MultiEq: batches equalities lhs = rhs of small bit-width into
// one constraint Σ 2^offset·lhs · ONE = Σ 2^offset·rhs, packing up to 253 bits
// (Fr::CAPACITY - 1) per constraint. Addition gadgets (UInt32::addmany)
// report their equalities here instead of enforcing them one by one.
//
// Terms are collected unsorted and merged when the constraint is emitted
// (the resulting LCs equal upstream's merged ones; sorting once is cheaper
// than inserting ~1000 terms into a sorted LC one by one). Upstream flushes
// when the MultiEq is dropped; here the owner calls finish() at that point.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gadgets/num.hpp"
#include "r1cs/fr_sum.hpp"

namespace cuzk::gadgets {

class MultiEq {
 public:
  static constexpr size_t kCapacity = 254;  // Fr::CAPACITY

  explicit MultiEq(ConstraintSystem& cs) : cs_(cs) {}
  MultiEq(const MultiEq&) = delete;
  MultiEq& operator=(const MultiEq&) = delete;

  ConstraintSystem& cs() { return cs_; }

  // Makes room for an equality of num_bits, first flushing the pending
  // constraint ("multieq N", in the namespace current at that moment) if it
  // would not fit, and returns the bit offset where the equality goes.
  size_t reserve(size_t num_bits) {
    if (kCapacity <= bits_used_ + num_bits) accumulate();
    if (kCapacity <= bits_used_ + num_bits) throw r1cs::SynthesisError("MultiEq: equality too wide");
    size_t off = bits_used_;
    bits_used_ += num_bits;
    return off;
  }
  // Terms of the reserved equality, already multiplied by 2^offset.
  void add_lhs(const Fr& coeff, Variable v) { lhs_.push_back({key_of(v), coeff}); }
  void add_rhs(const Fr& coeff, Variable v) { rhs_.push_back({key_of(v), coeff}); }
  void add_lhs(const Fr& coeff, const Boolean& b) {
    switch (b.kind()) {
      case Boolean::Kind::Constant:
        if (b.constant_value()) add_lhs(coeff, Variable::one());
        break;
      case Boolean::Kind::Is:
        add_lhs(coeff, b.bit().var);
        break;
      case Boolean::Kind::Not:
        add_lhs(coeff, Variable::one());
        add_lhs(-coeff, b.bit().var);
        break;
    }
  }

  // lhs = rhs over num_bits (upstream's enforce_equal).
  void enforce_equal(size_t num_bits, const LC& lhs, const LC& rhs) {
    const Fr& k = pow2(reserve(num_bits));
    for (const auto& e : lhs.inputs()) add_lhs(k * e.coeff, Variable::input(e.index));
    for (const auto& e : lhs.aux()) add_lhs(k * e.coeff, Variable::aux(e.index));
    for (const auto& e : rhs.inputs()) add_rhs(k * e.coeff, Variable::input(e.index));
    for (const auto& e : rhs.aux()) add_rhs(k * e.coeff, Variable::aux(e.index));
  }

  void finish() {
    if (bits_used_ > 0) accumulate();
  }

 private:
  // Inputs sort before aux: the kind is the key's top bit.
  struct Term {
    uint64_t key;
    Fr coeff;
  };
  static constexpr uint64_t kAuxKey = uint64_t(1) << 63;
  static uint64_t key_of(Variable v) { return (v.is_aux() ? kAuxKey : 0) | uint64_t(v.index); }

  // Merges terms of equal variables (summing coefficients; the order of a
  // field sum does not matter) into a sorted LC. Inputs (in practice only
  // ONE) are sorted directly; aux terms are radix-sorted on their offset
  // from the smallest index, packed above the term's position: ~1000 terms
  // per constraint made a comparison sort the bulk of this gadget's cost.
  LC build(std::vector<Term>& terms) {
    const size_t n = terms.size();
    const Term* t = terms.data();
    uint64_t lo = ~uint64_t(0), hi = 0, in_hi = 0;
    size_t n_inputs = 0;
    for (size_t i = 0; i < n; i++) {
      if (!(t[i].key & kAuxKey)) {
        n_inputs++;
        in_hi = std::max(in_hi, t[i].key);
        continue;
      }
      uint64_t idx = t[i].key & ~kAuxKey;
      lo = std::min(lo, idx);
      hi = std::max(hi, idx);
    }
    const size_t n_aux = n - n_inputs;
    const unsigned span_bits = n_aux ? unsigned(std::bit_width(hi - lo)) : 0;
    order_.clear();
    if (n >= (size_t(1) << 16) || span_bits > 47 || in_hi >= (uint64_t(1) << 47)) {  // cannot pack: compare keys
      order_.resize(n);
      for (size_t i = 0; i < n; i++) order_[i] = i;
      std::sort(order_.begin(), order_.end(), [&](uint64_t x, uint64_t y) { return t[x].key < t[y].key; });
    } else {
      for (size_t i = 0; i < n; i++)
        if (!(t[i].key & kAuxKey)) order_.push_back((t[i].key << 16) | i);
      std::sort(order_.begin(), order_.end());
      const size_t aux_at = order_.size();
      for (size_t i = 0; i < n; i++)
        if (t[i].key & kAuxKey) order_.push_back((((t[i].key & ~kAuxKey) - lo) << 16) | i);
      radix_sort(aux_at, span_bits);
      for (uint64_t& o : order_) o &= 0xffff;  // positions, in variable order
    }
    LC lc;
    lc.reserve(n_inputs, n_aux);
    for (size_t i = 0; i < n;) {
      const uint64_t key = t[order_[i]].key;
      r1cs::FrSum sum;
      size_t j = i;
      for (; j < n && t[order_[j]].key == key; j++) sum.add(t[order_[j]].coeff);
      // appends: variables arrive sorted
      lc.add(sum.get(), key & kAuxKey ? Variable::aux(key & ~kAuxKey) : Variable::input(key));
      i = j;
    }
    terms.clear();
    return lc;
  }

  // LSD radix sort of order_[from..] on bits [16, 16 + bits), 8 at a time.
  void radix_sort(size_t from, unsigned bits) {
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

  void accumulate() {
    size_t n = ops_;
    cs_.enforce([&] { return "multieq " + std::to_string(n); }, build(lhs_), Variable::one(), build(rhs_));
    bits_used_ = 0;
    ops_++;
  }

  ConstraintSystem& cs_;
  size_t ops_ = 0, bits_used_ = 0;
  std::vector<Term> lhs_, rhs_;
  std::vector<uint64_t> order_, tmp_;  // scratch for build()
};

}  // namespace cuzk::gadgets
