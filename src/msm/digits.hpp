#pragma once
// Signed window digits of the scalars: Booth recoding of whole scalars, and
// a carry-based recoding of the GLV halves (cheaper per window).
#include <cstddef>
#include <cstdint>

#include "arith/limbs.hpp"

namespace cuzk::msm::detail {

template <size_t K>
inline uint64_t bits_at(const arith::Limbs<K>& k, unsigned pos, unsigned len) {
  unsigned limb = pos / 64, sh = pos % 64;
  if (limb >= K) return 0;
  uint64_t x = k[limb] >> sh;
  if (sh + len > 64 && limb + 1 < K) x |= k[limb + 1] << (64 - sh);
  return x & ((uint64_t(1) << len) - 1);
}

// Signed window digit (Booth recoding): d_w = v_w + b_{cw-1} - 2^c * b_{cw+c-1},
// in [-2^(c-1), 2^(c-1)]; sum_w d_w 2^(cw) = k when k < 2^(cW - 1).
// The digit of the c-bit window at bit pos (windows of any widths, each
// from where the one below ends).
template <size_t K>
inline int32_t booth_digit_at(const arith::Limbs<K>& k, unsigned pos, unsigned c) {
  uint64_t v = bits_at(k, pos, c);
  uint64_t low = pos ? (k[(pos - 1) / 64] >> ((pos - 1) % 64)) & 1 : 0;
  return int32_t(v + low) - int32_t((v >> (c - 1)) << c);
}
template <size_t K>
inline int32_t booth_digit(const arith::Limbs<K>& k, unsigned w, unsigned c) {
  return booth_digit_at(k, w * c, c);
}

// The same digits' job for a GLV half (< 2^127), window w width[w] bits
// wide: d_w in [1 - 2^(width-1), 2^(width-1)] by a running carry, the top
// window (no carry out) in [0, 2^(its bits)]; sum_w d_w 2^shift(w) = k.
// Written negated when neg, to out[w * stride]. Cheaper than booth_digit
// per window.
inline void signed_digits(unsigned __int128 k, const uint8_t* width, int W, bool neg, int32_t* out,
                          size_t stride) {
  uint32_t carry = 0;
  for (int w = 0; w < W; w++) {
    const unsigned c = width[w];
    const uint32_t half = uint32_t(1) << (c - 1), mask = (uint32_t(1) << c) - 1;
    int32_t d = int32_t((uint32_t(k) & mask) + carry);
    k >>= c;
    carry = w + 1 < W && d > int32_t(half);
    d -= int32_t(carry << c);
    out[size_t(w) * stride] = neg ? -d : d;
  }
}

}  // namespace cuzk::msm::detail
