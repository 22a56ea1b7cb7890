#pragma once
// 32-bit words as 32 Booleans, least significant first (bellperson
// uint32.rs), with the SHA-256 helpers. Rotations and shifts only re-index
// bits; xor/ch/maj work bit by bit; addmany allocates the sum's bits and
// hands the equality to a MultiEq.
#include <cstdint>
#include <optional>
#include <vector>

#include "gadgets/multieq.hpp"

namespace cuzk::gadgets {

class UInt32 {
 public:
  static UInt32 constant(uint32_t v);
  // 32 bits in namespaces "allocated bit i".
  static UInt32 alloc(ConstraintSystem& cs, std::optional<uint32_t> v);

  // 32 bits, most significant first.
  static UInt32 from_bits_be(const Boolean* bits);
  std::vector<Boolean> into_bits_be() const;
  // 32 bits, least significant first.
  static UInt32 from_bits(const Boolean* bits);
  const std::vector<Boolean>& bits() const { return bits_; }
  std::optional<uint32_t> value() const { return value_; }

  UInt32 rotr(size_t by) const;
  UInt32 shr(size_t by) const;
  UInt32 xor_(ConstraintSystem& cs, const UInt32& other) const;  // "xor of bit i"
  static UInt32 sha256_maj(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c);
  static UInt32 sha256_ch(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c);

  // Sum mod 2^32 of 2..10 operands; a constant when all bits are constant.
  // Allocates bitlen(n·(2^32-1)) result bits ("result bit i") and reports
  // Σ operands = Σ 2^i·result_i to `eq`.
  static UInt32 addmany(MultiEq& eq, const std::vector<UInt32>& operands);

 private:
  std::vector<Boolean> bits_;  // LSB first
  std::optional<uint32_t> value_;
};

}  // namespace cuzk::gadgets
