#pragma once
// Prime field F_p in Montgomery form, generic over a parameter struct:
//
//   struct MyParams {
//     static constexpr size_t N = ...;                       // 64-bit limbs
//     static constexpr auto modulus = arith::parse_hex<N>("0x...");
//     static constexpr uint64_t nonresidue = ...;            // a quadratic non-residue
//   };
//
// Every other constant (R, R^2, -p^{-1}, exponents, 2-adicity) is derived at
// compile time. No function here promises constant time: those that branch
// on values (sqrt, legendre, pow_vartime, the zero tests) are variable time
// whether or not their name says _vartime (docs/ARCHITECTURE.md, Conventions).
#include <array>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string>

#include "arith/inverse.hpp"
#include "arith/mont.hpp"

namespace cuzk::ff {

using arith::Limbs;

template <class P>
class Field {
 public:
  static constexpr size_t N = P::N;
  using Repr = Limbs<N>;
  using Params = P;

  // ---- derived constants ----
  static constexpr Repr MODULUS = P::modulus;
  static constexpr uint64_t INV = arith::neg_inv64(P::modulus[0]);
  static constexpr Repr R1 = arith::pow2_mod<N>(64 * N, P::modulus);
  static constexpr Repr R2 = arith::pow2_mod<N>(128 * N, P::modulus);
  static constexpr Repr R3 = arith::pow2_mod<N>(192 * N, P::modulus);
  static constexpr size_t NUM_BITS = arith::bit_length(P::modulus);
  static constexpr size_t BYTES = (NUM_BITS + 7) / 8;
  static_assert(P::modulus[0] & 1, "modulus must be odd");
  static_assert(P::modulus[N - 1] < (uint64_t(1) << 63) - 1,
                "no-carry Montgomery multiplication needs a spare top bit");

  static constexpr Repr minus(Repr a, uint64_t k) {
    Repr b = arith::from_u64<N>(k);
    arith::sub_from(a, b);
    return a;
  }
  static constexpr Repr shr(Repr a, unsigned k) {
    for (unsigned i = 0; i < k; i++) arith::shr1(a);
    return a;
  }
  static constexpr Repr P_MINUS_2 = minus(MODULUS, 2);
  static constexpr Repr P_MINUS_1_HALF = shr(minus(MODULUS, 1), 1);
  static constexpr unsigned two_adicity() {
    Repr t = minus(MODULUS, 1);
    unsigned s = 0;
    while (!(t[0] & 1)) {
      arith::shr1(t);
      s++;
    }
    return s;
  }
  static constexpr unsigned S = two_adicity();
  static constexpr Repr T_ODD = shr(minus(MODULUS, 1), S);         // (p-1)/2^S
  static constexpr Repr T_MINUS_1_HALF = shr(minus(T_ODD, 1), 1);  // (t-1)/2
  // (p+1)/4, used for sqrt when p = 3 mod 4.
  static constexpr Repr P_PLUS_1_QUARTER = [] {
    Repr a = MODULUS;
    Repr one = arith::from_u64<N>(1);
    arith::add_to(a, one);
    return shr(a, 2);
  }();

  Repr v{};  // Montgomery form: v = x*R mod p

  constexpr Field() = default;

  static constexpr Field from_mont(const Repr& m) {
    Field f;
    f.v = m;
    return f;
  }
  static constexpr Field zero() { return Field{}; }
  static constexpr Field one() { return from_mont(R1); }

  // Canonical integer (< p) into the field; nullopt if x >= p.
  static std::optional<Field> from_canonical(const Repr& x) {
    if (arith::compare(x, MODULUS) >= 0) return std::nullopt;
    return from_canonical_unchecked(x);
  }
  static Field from_canonical_unchecked(const Repr& x) {
    Field f;
    arith::mont_mul<N>(f.v.data(), x.data(), R2.data(), MODULUS.data(), INV);
    return f;
  }
  static Field from_u64(uint64_t x) { return from_canonical_unchecked(arith::from_u64<N>(x)); }
  // Small signed constant (e.g. -1, 4).
  static Field from_i64(int64_t x) {
    Field f = from_u64(x < 0 ? uint64_t(-(x + 1)) + 1 : uint64_t(x));
    return x < 0 ? -f : f;
  }

  Repr to_canonical() const {
    Repr one = arith::from_u64<N>(1), r;
    arith::mont_mul<N>(r.data(), v.data(), one.data(), MODULUS.data(), INV);
    return r;
  }

  // ---- byte encodings of the canonical value ----
  // Big-endian over BYTES bytes (48 for Fp, 32 for Fr).
  void to_bytes_be(std::span<uint8_t, BYTES> out) const {
    Repr c = to_canonical();
    for (size_t i = 0; i < BYTES; i++) out[BYTES - 1 - i] = uint8_t(c[i / 8] >> (8 * (i % 8)));
  }
  void to_bytes_le(std::span<uint8_t, BYTES> out) const {
    Repr c = to_canonical();
    for (size_t i = 0; i < BYTES; i++) out[i] = uint8_t(c[i / 8] >> (8 * (i % 8)));
  }
  // nullopt when the value is >= p (non-canonical).
  static std::optional<Field> from_bytes_be(std::span<const uint8_t, BYTES> in) {
    Repr c{};
    for (size_t i = 0; i < BYTES; i++) c[i / 8] |= uint64_t(in[BYTES - 1 - i]) << (8 * (i % 8));
    return from_canonical(c);
  }
  static std::optional<Field> from_bytes_le(std::span<const uint8_t, BYTES> in) {
    Repr c{};
    for (size_t i = 0; i < BYTES; i++) c[i / 8] |= uint64_t(in[i]) << (8 * (i % 8));
    return from_canonical(c);
  }
  std::string to_hex() const {
    static const char* digits = "0123456789abcdef";
    Repr c = to_canonical();
    std::string s = "0x";
    for (size_t i = N; i-- > 0;)
      for (int k = 60; k >= 0; k -= 4) s += digits[(c[i] >> k) & 15];
    return s;
  }

  // Uniform random element (rejection sampling).
  template <class Rng>
  static Field random(Rng& rng) {
    constexpr unsigned top_bits = NUM_BITS - 64 * (N - 1);
    constexpr uint64_t mask = top_bits == 64 ? ~uint64_t(0) : (uint64_t(1) << top_bits) - 1;
    for (;;) {
      Repr c;
      for (auto& x : c) x = rng();
      c[N - 1] &= mask;
      if (arith::compare(c, MODULUS) < 0) return from_mont(c);  // uniform either way
    }
  }

  // ---- arithmetic ----
  constexpr bool is_zero() const { return arith::is_zero(v); }
  bool is_one() const { return v == R1; }
  friend bool operator==(const Field& a, const Field& b) { return a.v == b.v; }
  friend bool operator!=(const Field& a, const Field& b) { return a.v != b.v; }

  friend Field operator+(const Field& a, const Field& b) {
    Field r;
    arith::add_mod<N>(r.v.data(), a.v.data(), b.v.data(), MODULUS.data());
    return r;
  }
  friend Field operator-(const Field& a, const Field& b) {
    Field r;
    arith::sub_mod<N>(r.v.data(), a.v.data(), b.v.data(), MODULUS.data());
    return r;
  }
  friend Field operator*(const Field& a, const Field& b) {
    Field r;
    arith::mont_mul<N>(r.v.data(), a.v.data(), b.v.data(), MODULUS.data(), INV);
    return r;
  }
  Field operator-() const { return zero() - *this; }
  Field& operator+=(const Field& b) { return *this = *this + b; }
  Field& operator-=(const Field& b) { return *this = *this - b; }
  Field& operator*=(const Field& b) { return *this = *this * b; }

  Field square() const {
    Field r;
    arith::mont_sqr<N>(r.v.data(), v.data(), MODULUS.data(), INV);
    return r;
  }
  Field dbl() const { return *this + *this; }

  // this^e for a little-endian exponent (variable time in e).
  template <size_t M>
  Field pow_vartime(const Limbs<M>& e) const {
    Field r = one();
    for (size_t i = arith::bit_length(e); i-- > 0;) {
      r = r.square();
      if (arith::bit(e, i)) r *= *this;
    }
    return r;
  }
  Field pow_vartime(uint64_t e) const { return pow_vartime(Limbs<1>{e}); }

  // Multiplicative inverse (Fermat); inverse of zero is zero.
  Field inverse() const { return pow_vartime(P_MINUS_2); }
  // The same by Bernstein-Yang divsteps (arith/inverse.hpp): about ten times
  // faster for Fp, and its time depends on the value.
  Field inverse_vartime() const {
    if (is_zero()) return Field{};
    // v = a R; the plain inverse is a^-1 R^-1, and mont(that, R^3) = a^-1 R.
    Field plain;
    plain.v = arith::inverse_divsteps<N>(v, MODULUS);
    Field r3;
    r3.v = R3;
    return plain * r3;
  }

  // Euler's criterion: 1 (square), -1 (non-square) or 0.
  int legendre() const {
    if (is_zero()) return 0;
    return pow_vartime(P_MINUS_1_HALF).is_one() ? 1 : -1;
  }

  // Square root, or nullopt for non-squares. Which root is returned is
  // unspecified; callers pick the sign they need.
  std::optional<Field> sqrt() const {
    if (is_zero()) return zero();
    if constexpr ((MODULUS[0] & 3) == 3) {
      Field r = pow_vartime(P_PLUS_1_QUARTER);
      if (r.square() == *this) return r;
      return std::nullopt;
    } else {
      return tonelli_shanks();
    }
  }

  // "Lexicographically largest" in the ZCash sense: x > (p-1)/2.
  bool is_lexicographically_largest() const { return arith::compare(to_canonical(), P_MINUS_1_HALF) > 0; }

 private:
  std::optional<Field> tonelli_shanks() const {
    // Tonelli-Shanks with z = nonresidue^t, a generator of the 2^S subgroup.
    const Field z = from_u64(P::nonresidue).pow_vartime(T_ODD);
    Field w = pow_vartime(T_MINUS_1_HALF);  // a^((t-1)/2)
    Field x = *this * w;                    // a^((t+1)/2)
    Field b = x * w;                        // a^t
    Field c = z;
    unsigned m = S;
    while (!b.is_one()) {
      unsigned k = 0;
      Field b2 = b;
      while (!b2.is_one()) {
        b2 = b2.square();
        if (++k == m) return std::nullopt;
      }
      Field t = c;
      for (unsigned i = 0; i + k + 1 < m; i++) t = t.square();
      c = t.square();
      x *= t;
      b *= c;
      m = k;
    }
    return x;
  }
};

}  // namespace cuzk::ff
