#pragma once
// bellperson's MultiEq: batches equalities lhs = rhs of small bit-width into
// one constraint Σ 2^offset·lhs · ONE = Σ 2^offset·rhs, packing up to 253 bits
// (Fr::CAPACITY - 1) per constraint. Addition gadgets (UInt32::addmany)
// report their equalities here instead of enforcing them one by one.
//
// Upstream flushes the pending constraint when the MultiEq is dropped; here
// the owner calls finish() at that point (end of the SHA-256 compression).
#include <cstddef>

#include "gadgets/num.hpp"

namespace cuzk::gadgets {

class MultiEq {
 public:
  static constexpr size_t kCapacity = 254;  // Fr::CAPACITY

  explicit MultiEq(ConstraintSystem& cs) : cs_(cs) {}
  MultiEq(const MultiEq&) = delete;
  MultiEq& operator=(const MultiEq&) = delete;

  ConstraintSystem& cs() { return cs_; }

  // Flushes first when num_bits would not fit ("multieq N", in the
  // namespace current at that moment).
  void enforce_equal(size_t num_bits, const LC& lhs, const LC& rhs) {
    if (kCapacity <= bits_used_ + num_bits) accumulate();
    if (kCapacity <= bits_used_ + num_bits) throw r1cs::SynthesisError("MultiEq: equality too wide");
    const Fr& coeff = pow2(bits_used_);
    lhs_.add_scaled(coeff, lhs);
    rhs_.add_scaled(coeff, rhs);
    bits_used_ += num_bits;
  }

  void finish() {
    if (bits_used_ > 0) accumulate();
  }

 private:
  void accumulate() {
    size_t n = ops_;
    cs_.enforce([&] { return "multieq " + std::to_string(n); }, std::move(lhs_), Variable::one(),
                std::move(rhs_));
    lhs_ = LC();
    rhs_ = LC();
    bits_used_ = 0;
    ops_++;
  }

  ConstraintSystem& cs_;
  size_t ops_ = 0, bits_used_ = 0;
  LC lhs_, rhs_;
};

}  // namespace cuzk::gadgets
