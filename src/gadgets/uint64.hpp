#pragma once
// storage-proofs-core uint64.rs: 64 Booleans, least significant first. The
// PoRep circuit allocates each challenge this way (64 constraints) and
// exposes it with pack_into_input (1 input, 1 constraint).
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "gadgets/multipack.hpp"

namespace cuzk::gadgets {

class UInt64 {
 public:
  static UInt64 constant(uint64_t v) {
    UInt64 r;
    for (int i = 0; i < 64; i++) r.bits_.push_back(Boolean::constant((v >> i) & 1));
    r.value_ = v;
    return r;
  }
  // 64 bits in namespaces "allocated bit i".
  static UInt64 alloc(ConstraintSystem& cs, std::optional<uint64_t> v) {
    UInt64 r;
    for (size_t i = 0; i < 64; i++) {
      std::optional<bool> b;
      if (v) b = (*v >> i) & 1;
      r.bits_.push_back(in_ns(
          cs, [&] { return "allocated bit " + std::to_string(i); },
          [&] { return AllocatedBit::alloc(cs, b); }));
    }
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
    std::optional<uint64_t> v = 0;
    for (size_t i = 64; i-- > 0 && v;) {
      auto b = bits[i].value();
      if (!b)
        v.reset();
      else
        v = (*v << 1) | uint64_t(*b);
    }
    r.value_ = v;
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
