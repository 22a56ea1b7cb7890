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
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gadgets/num.hpp"
#include "r1cs/fr_sum.hpp"

namespace cuzk::gadgets {

// -2^i in Fr for i < 256.
const Fr* neg_pow2_table();

class MultiEq {
 public:
  static constexpr size_t kCapacity = 254;  // Fr::CAPACITY

  explicit MultiEq(ConstraintSystem& cs) : cs_(cs), records_(cs.builds_constraints()) {}
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
  // False on a witness-only system: the equalities' terms are then not
  // recorded (callers may skip computing them), only their widths, so the
  // flushes fall where they would.
  bool records_terms() const { return records_; }
  // Terms of the reserved equality, already multiplied by 2^offset.
  void add_lhs(const Fr& coeff, Variable v) {
    if (records_) lhs_.add(coeff, v);
  }
  void add_rhs(const Fr& coeff, Variable v) {
    if (records_) rhs_.add(coeff, v);
  }
  void add_lhs(const Fr& coeff, const Boolean& b);
  // The same with the coefficient 2^e (e < 256), as addmany reports them:
  // kept as an exponent rather than a field element until the merge.
  void add_lhs_pow2(unsigned e, const Boolean& b);
  void add_rhs_pow2(unsigned e, Variable v) {
    if (records_) rhs_.add_pow2(e, false, v);
  }

  // lhs = rhs over num_bits (upstream's enforce_equal).
  void enforce_equal(size_t num_bits, const LC& lhs, const LC& rhs);

  void finish() {
    if (bits_used_ > 0) accumulate();
  }

 private:
  // One side of the pending constraint. ONE's coefficients (from constants
  // and negated bits) are summed as they come; other variables are terms
  // whose coefficient is ±2^e or an entry of `coeffs`.
  struct Side {
    struct Term {
      uint64_t key;   // kAuxKey | index for aux, index for inputs
      uint32_t code;  // kGeneral | index into coeffs, or kNeg | e
    };
    static constexpr uint64_t kAuxKey = uint64_t(1) << 63;
    static constexpr uint32_t kGeneral = 1u << 31, kNeg = 1u << 8;

    std::vector<Term> terms;
    std::vector<Fr> coeffs;
    // Cached: each table lookup checks a function-local static's guard.
    const Fr* pow2 = pow2_table();
    const Fr* neg_pow2 = neg_pow2_table();
    r1cs::FrSum one;
    bool has_one = false;

    static uint64_t key_of(Variable v) { return (v.is_aux() ? kAuxKey : 0) | uint64_t(v.index); }
    void add(const Fr& coeff, Variable v) {
      if (v == Variable::one()) {
        one.add(coeff);
        has_one = true;
        return;
      }
      terms.push_back({key_of(v), kGeneral | uint32_t(coeffs.size())});
      coeffs.push_back(coeff);
    }
    void add_pow2(unsigned e, bool neg, Variable v) {
      if (v == Variable::one()) {
        if (neg) one.sub(pow2[e]);
        else one.add(pow2[e]);
        has_one = true;
        return;
      }
      terms.push_back({key_of(v), (neg ? kNeg : 0) | e});
    }
    const Fr& coeff(uint32_t code) const {
      if (code & kGeneral) return coeffs[code & ~kGeneral];
      return (code & kNeg ? neg_pow2 : pow2)[code & 255];
    }
    void clear() {
      terms.clear();
      coeffs.clear();
      one = {};
      has_one = false;
    }
  };

  LC build(Side& side);
  void radix_sort(size_t from, unsigned bits);
  void accumulate();

  ConstraintSystem& cs_;
  bool records_;
  size_t ops_ = 0, bits_used_ = 0;
  Side lhs_, rhs_;
  std::vector<uint64_t> order_, tmp_;  // scratch for build()
};

}  // namespace cuzk::gadgets
