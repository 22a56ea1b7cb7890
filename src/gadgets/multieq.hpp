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
#include <cstddef>
#include <string>
#include <vector>

#include "gadgets/num.hpp"

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
  void add_lhs(const Fr& coeff, Variable v) { lhs_.push_back({v, coeff}); }
  void add_rhs(const Fr& coeff, Variable v) { rhs_.push_back({v, coeff}); }
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
  struct Term {
    Variable var;
    Fr coeff;
  };

  static LC build(std::vector<Term>& terms) {
    std::sort(terms.begin(), terms.end(), [](const Term& x, const Term& y) {
      return x.var.kind != y.var.kind ? x.var.is_input() : x.var.index < y.var.index;
    });
    LC lc;
    for (size_t i = 0; i < terms.size();) {
      Fr sum = terms[i].coeff;
      size_t j = i + 1;
      for (; j < terms.size() && terms[j].var == terms[i].var; j++) sum += terms[j].coeff;
      lc.add(sum, terms[i].var);  // appends: terms arrive sorted
      i = j;
    }
    terms.clear();
    return lc;
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
};

}  // namespace cuzk::gadgets
