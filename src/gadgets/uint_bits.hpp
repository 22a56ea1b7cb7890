#pragma once
// What UInt32 (bellperson uint32.rs) and UInt64 (storage-proofs-core
// uint64.rs) share: a word as sizeof(W)·8 Booleans, least significant first.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "gadgets/boolean.hpp"

namespace cuzk::gadgets::uint_bits {

template <class W>
inline constexpr size_t kBits = sizeof(W) * 8;

template <class W>
std::vector<Boolean> constant(W v) {
  std::vector<Boolean> bits;
  bits.reserve(kBits<W>);
  for (size_t i = 0; i < kBits<W>; i++) bits.push_back(Boolean::constant((v >> i) & 1));
  return bits;
}

// One AllocatedBit per bit, in namespaces "allocated bit i".
template <class W>
std::vector<Boolean> alloc(ConstraintSystem& cs, std::optional<W> v) {
  std::vector<Boolean> bits;
  bits.reserve(kBits<W>);
  for (size_t i = 0; i < kBits<W>; i++) {
    std::optional<bool> b;
    if (v) b = (*v >> i) & 1;
    bits.push_back(in_ns(
        cs, [&] { return "allocated bit " + std::to_string(i); },
        [&] { return AllocatedBit::alloc(cs, b); }));
  }
  return bits;
}

// The word of kBits<W> bits, least significant first; nullopt when a bit's
// value is unknown.
template <class W>
std::optional<W> value(const std::vector<Boolean>& lsb_first) {
  W v = 0;
  for (size_t i = kBits<W>; i-- > 0;) {
    auto b = lsb_first[i].value();
    if (!b) return std::nullopt;
    v = W(v << 1) | W(*b);
  }
  return v;
}

}  // namespace cuzk::gadgets::uint_bits
