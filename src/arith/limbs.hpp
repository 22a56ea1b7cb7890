#pragma once
// Fixed-width multi-limb integers (little-endian 64-bit limbs) and the
// compile-time helpers used to derive Montgomery constants from a modulus.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace cuzk::arith {

template <size_t N>
using Limbs = std::array<uint64_t, N>;

using u128 = unsigned __int128;

// (carry, out) = a + b + carry
constexpr inline uint64_t adc(uint64_t a, uint64_t b, uint64_t& carry) {
  u128 t = (u128)a + b + carry;
  carry = (uint64_t)(t >> 64);
  return (uint64_t)t;
}
// (borrow, out) = a - b - borrow
constexpr inline uint64_t sbb(uint64_t a, uint64_t b, uint64_t& borrow) {
  u128 t = (u128)a - b - borrow;
  borrow = (uint64_t)(t >> 64) & 1;
  return (uint64_t)t;
}
// (hi, lo) = a + b*c + carry; never overflows 128 bits.
constexpr inline uint64_t mac(uint64_t a, uint64_t b, uint64_t c, uint64_t& carry) {
  u128 t = (u128)b * c + a + carry;
  carry = (uint64_t)(t >> 64);
  return (uint64_t)t;
}

template <size_t N>
constexpr bool is_zero(const Limbs<N>& a) {
  uint64_t acc = 0;
  for (auto x : a) acc |= x;
  return acc == 0;
}

// -1, 0, 1 like memcmp, most significant limb first.
template <size_t N>
constexpr int compare(const Limbs<N>& a, const Limbs<N>& b) {
  for (size_t i = N; i-- > 0;) {
    if (a[i] < b[i]) return -1;
    if (a[i] > b[i]) return 1;
  }
  return 0;
}

template <size_t N>
constexpr uint64_t add_to(Limbs<N>& a, const Limbs<N>& b) {
  uint64_t c = 0;
  for (size_t i = 0; i < N; i++) a[i] = adc(a[i], b[i], c);
  return c;
}
template <size_t N>
constexpr uint64_t sub_from(Limbs<N>& a, const Limbs<N>& b) {
  uint64_t br = 0;
  for (size_t i = 0; i < N; i++) a[i] = sbb(a[i], b[i], br);
  return br;
}
template <size_t N>
constexpr void shr1(Limbs<N>& a) {
  for (size_t i = 0; i < N; i++) a[i] = (a[i] >> 1) | (i + 1 < N ? a[i + 1] << 63 : 0);
}
template <size_t N>
constexpr bool bit(const Limbs<N>& a, size_t i) {
  return i < 64 * N && ((a[i / 64] >> (i % 64)) & 1);
}
template <size_t N>
constexpr size_t bit_length(const Limbs<N>& a) {
  for (size_t i = N; i-- > 0;)
    if (a[i]) return 64 * i + 64 - __builtin_clzll(a[i]);
  return 0;
}
template <size_t N>
constexpr Limbs<N> from_u64(uint64_t x) {
  Limbs<N> r{};
  r[0] = x;
  return r;
}

// Parses "0x..." (or plain hex) into N limbs at compile time; rejects overflow.
template <size_t N>
consteval Limbs<N> parse_hex(std::string_view s) {
  if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  Limbs<N> r{};
  size_t nibble = 0;
  for (size_t i = s.size(); i-- > 0;) {
    char ch = s[i];
    uint64_t v = ch >= '0' && ch <= '9'   ? uint64_t(ch - '0')
                 : ch >= 'a' && ch <= 'f' ? uint64_t(ch - 'a' + 10)
                 : ch >= 'A' && ch <= 'F' ? uint64_t(ch - 'A' + 10)
                                          : throw "bad hex digit";
    if (nibble >= 16 * N) {
      if (v) throw "hex literal too large";
      continue;
    }
    r[nibble / 16] |= v << (4 * (nibble % 16));
    nibble++;
  }
  return r;
}

// -m^{-1} mod 2^64 by Newton iteration (m odd).
constexpr uint64_t neg_inv64(uint64_t m) {
  uint64_t x = 1;
  for (int i = 0; i < 7; i++) x *= 2 - m * x;
  return ~x + 1;
}

// 2^k mod m by repeated doubling (m < 2^(64N-1)); compile-time helper.
template <size_t N>
constexpr Limbs<N> pow2_mod(size_t k, const Limbs<N>& m) {
  Limbs<N> r = from_u64<N>(1);
  for (size_t i = 0; i < k; i++) {
    uint64_t c = add_to(r, r);
    if (c || compare(r, m) >= 0) sub_from(r, m);
  }
  return r;
}

}  // namespace cuzk::arith
