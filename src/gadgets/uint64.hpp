#pragma once
// storage-proofs-core uint64.rs: 64 Booleans, least significant first. The
// PoRep circuit allocates each challenge this way (64 constraints) and
// exposes it with pack_into_input (1 input, 1 constraint).
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

#include "gadgets/multipack.hpp"
#include "gadgets/uint_bits.hpp"

namespace cuzk::gadgets {

class UInt64 {
 public:
  static UInt64 constant(uint64_t v) {
    UInt64 r;
    r.bits_ = uint_bits::constant(v);
    r.value_ = v;
    return r;
  }
  // 64 bits in namespaces "allocated bit i".
  static UInt64 alloc(ConstraintSystem& cs, std::optional<uint64_t> v) {
    UInt64 r;
    r.bits_ = uint_bits::alloc(cs, v);
    r.value_ = v;
    return r;
  }
  // Bits most significant first.
  static UInt64 from_bits_be(const std::vector<Boolean>& bits) {
    return from_bits({bits.rbegin(), bits.rend()});
  }
  // Bits least significant first.
  static UInt64 from_bits(const std::vector<Boolean>& bits) {
    if (bits.size() != 64) throw std::invalid_argument("UInt64 needs 64 bits");
    UInt64 r;
    r.bits_ = bits;
    r.value_ = uint_bits::value<uint64_t>(bits);
    return r;
  }

  std::optional<uint64_t> value() const { return value_; }
  const std::vector<Boolean>& to_bits_le() const { return bits_; }
  std::vector<Boolean> to_bits_be() const { return {bits_.rbegin(), bits_.rend()}; }
  void pack_into_input(ConstraintSystem& cs) const { pack_into_inputs(cs, bits_); }

 private:
  std::vector<Boolean> bits_;
  std::optional<uint64_t> value_;
};

}  // namespace cuzk::gadgets
