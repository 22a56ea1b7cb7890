#pragma once
// A read-only view of affine points stored packed: each point is the
// Montgomery-form limbs of x and then of y (R = 2^384 per Fp coordinate,
// G2 coordinates as (c0, c1)), little-endian, at any alignment, and the
// point at infinity is all zero bytes ((0, 0) is on neither curve). That is
// snarkjs's .zkey layout, and also the bytes of our Base field elements, so
// a key's point sections are used where they lie (mapped from the file):
// no decoded copy (104 or 200 bytes a point), no fresh pages for it.
//
// The view does not check anything: whoever makes one vouches that every
// coordinate is below p and every point is valid (formats::parse_zkey checks
// them while parsing).
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ec/point.hpp"

namespace cuzk::ec {

template <class C>
class PackedAffineSpan {
 public:
  using Base = typename C::Base;
  static_assert(std::endian::native == std::endian::little, "packed limbs are little-endian");
  static_assert(std::is_trivially_copyable_v<Base> && sizeof(Base) % 48 == 0,
                "Base must be whole 48-byte Montgomery coordinates, nothing else");
  static constexpr size_t kPointBytes = 2 * sizeof(Base);

  PackedAffineSpan() = default;
  PackedAffineSpan(const uint8_t* bytes, size_t count) : p_(bytes), n_(count) {}

  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  const uint8_t* data() const { return p_; }
  PackedAffineSpan subspan(size_t offset, size_t count) const { return {p_ + offset * kPointBytes, count}; }

  bool is_identity(size_t i) const {
    const uint8_t* b = p_ + i * kPointBytes;
    uint64_t any = 0;
    for (size_t k = 0; k < kPointBytes; k += 8) {
      uint64_t w;
      std::memcpy(&w, b + k, 8);
      any |= w;
    }
    return any == 0;
  }
  // x and y of point i, which is not the identity.
  void load_xy(size_t i, Base& x, Base& y) const {
    const uint8_t* b = p_ + i * kPointBytes;
    std::memcpy(static_cast<void*>(&x), b, sizeof(Base));
    std::memcpy(static_cast<void*>(&y), b + sizeof(Base), sizeof(Base));
  }
  Affine<C> operator[](size_t i) const {
    if (is_identity(i)) return Affine<C>::identity();
    Affine<C> a = Affine<C>::identity();
    load_xy(i, a.x, a.y);
    a.infinity = false;
    return a;
  }

 private:
  const uint8_t* p_ = nullptr;
  size_t n_ = 0;
};

}  // namespace cuzk::ec
