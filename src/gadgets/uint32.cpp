#include "gadgets/uint32.hpp"

#include "gadgets/uint_bits.hpp"

#include <string>

namespace cuzk::gadgets {

UInt32 UInt32::constant(uint32_t v) {
  UInt32 r;
  r.bits_ = uint_bits::constant(v);
  r.value_ = v;
  return r;
}

UInt32 UInt32::alloc(ConstraintSystem& cs, std::optional<uint32_t> v) {
  UInt32 r;
  r.bits_ = uint_bits::alloc(cs, v);
  r.value_ = v;
  return r;
}

UInt32 UInt32::from_bits_be(const Boolean* bits) {
  UInt32 r;
  r.bits_.assign(std::make_reverse_iterator(bits + 32), std::make_reverse_iterator(bits));
  r.value_ = uint_bits::value<uint32_t>(r.bits_);
  return r;
}

UInt32 UInt32::from_bits(const Boolean* bits) {
  UInt32 r;
  r.bits_.assign(bits, bits + 32);
  r.value_ = uint_bits::value<uint32_t>(r.bits_);
  return r;
}

std::vector<Boolean> UInt32::into_bits_be() const { return {bits_.rbegin(), bits_.rend()}; }

UInt32 UInt32::rotr(size_t by) const {
  by %= 32;
  UInt32 r;
  r.bits_.reserve(32);
  for (size_t i = 0; i < 32; i++) r.bits_.push_back(bits_[(i + by) % 32]);
  if (value_) r.value_ = by ? (*value_ >> by) | (*value_ << (32 - by)) : *value_;
  return r;
}

UInt32 UInt32::shr(size_t by) const {
  by %= 32;
  UInt32 r;
  r.bits_.reserve(32);
  for (size_t i = 0; i < 32; i++) r.bits_.push_back(i + by < 32 ? bits_[i + by] : Boolean::constant(false));
  if (value_) r.value_ = *value_ >> by;
  return r;
}

UInt32 UInt32::xor_(ConstraintSystem& cs, const UInt32& o) const {
  UInt32 r;
  r.bits_.reserve(32);
  for (size_t i = 0; i < 32; i++)
    r.bits_.push_back(in_ns(
        cs, [&] { return "xor of bit " + std::to_string(i); },
        [&] { return Boolean::xor_(cs, bits_[i], o.bits_[i]); }));
  if (value_ && o.value_) r.value_ = *value_ ^ *o.value_;
  return r;
}

UInt32 UInt32::sha256_maj(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
  UInt32 r;
  r.bits_.reserve(32);
  for (size_t i = 0; i < 32; i++)
    r.bits_.push_back(in_ns(
        cs, [&] { return "maj " + std::to_string(i); },
        [&] { return Boolean::sha256_maj(cs, a.bits_[i], b.bits_[i], c.bits_[i]); }));
  if (a.value_ && b.value_ && c.value_)
    r.value_ = (*a.value_ & *b.value_) ^ (*a.value_ & *c.value_) ^ (*b.value_ & *c.value_);
  return r;
}

UInt32 UInt32::sha256_ch(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
  UInt32 r;
  r.bits_.reserve(32);
  for (size_t i = 0; i < 32; i++)
    r.bits_.push_back(in_ns(
        cs, [&] { return "ch " + std::to_string(i); },
        [&] { return Boolean::sha256_ch(cs, a.bits_[i], b.bits_[i], c.bits_[i]); }));
  if (a.value_ && b.value_ && c.value_) r.value_ = (*a.value_ & *b.value_) ^ (~*a.value_ & *c.value_);
  return r;
}

UInt32 UInt32::addmany(MultiEq& eq, const std::vector<UInt32>& operands) {
  if (operands.size() < 2 || operands.size() > 10)
    throw std::invalid_argument("UInt32::addmany takes 2..10 operands");
  ConstraintSystem& cs = eq.cs();
  uint64_t max_value = uint64_t(operands.size()) * 0xffffffffull;
  uint64_t sum = 0;
  bool known = true, all_constants = true;
  for (const auto& op : operands) {
    if (op.value_) sum += *op.value_;
    else known = false;
    for (const auto& b : op.bits_) all_constants &= b.is_constant();
  }
  if (all_constants && known) return constant(uint32_t(sum));

  UInt32 r;
  std::vector<Variable> result;
  for (size_t i = 0; max_value != 0; max_value >>= 1, i++) {
    std::optional<bool> b;
    if (known) b = (sum >> i) & 1;
    AllocatedBit bit = in_ns(
        cs, [&] { return "result bit " + std::to_string(i); }, [&] { return AllocatedBit::alloc(cs, b); });
    result.push_back(bit.var);
    if (i < 32) r.bits_.push_back(bit);  // carries are only constrained
  }
  // Σ_ops Σ_i 2^i·bit = Σ_i 2^i·result_i, reported after the result bits
  // exist (a flush it causes comes after their constraints, as upstream).
  const unsigned off = unsigned(eq.reserve(result.size()));  // off + result.size() < 254
  if (eq.records_terms())
    for (const auto& op : operands)
      for (unsigned i = 0; i < 32; i++) eq.add_lhs_pow2(off + i, op.bits_[i]);
  for (unsigned i = 0; i < result.size(); i++) eq.add_rhs_pow2(off + i, result[i]);
  if (known) r.value_ = uint32_t(sum);
  return r;
}

}  // namespace cuzk::gadgets
