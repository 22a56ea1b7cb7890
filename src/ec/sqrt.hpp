#pragma once
// Square roots for point decompression, faster than the generic ones in ff/:
//
//   pow_window   sliding-window (w = 5) exponentiation: ~log2(e) squarings
//                and ~log2(e)/6 + 15 multiplications (square-and-multiply
//                needs ~log2(e)/2 multiplications for a random exponent).
//   sqrt_fp      a^((p+1)/4) with a check (p = 3 mod 4).
//   sqrt_fp2     via the norm: two Fp exponentiations instead of two Fp2
//                exponentiations (derivation at the function).
//
// Which root is returned is unspecified; callers choose the sign.
// Variable time.
#include <array>
#include <optional>

#include "ff/bls12_381.hpp"

namespace cuzk::ec::detail {

template <class F, size_t M>
F pow_window(const F& a, const arith::Limbs<M>& e) {
  constexpr unsigned w = 5;
  std::array<F, size_t(1) << (w - 1)> odd;  // a, a^3, ..., a^31
  odd[0] = a;
  F a2 = a.square();
  for (size_t i = 1; i < odd.size(); i++) odd[i] = odd[i - 1] * a2;
  F r = F::one();
  bool started = false;
  size_t i = arith::bit_length(e);
  while (i > 0) {
    if (!arith::bit(e, i - 1)) {
      if (started) r = r.square();
      i--;
      continue;
    }
    // Longest window [lo, i) of at most w bits ending in a set bit.
    size_t lo = i >= w ? i - w : 0;
    while (!arith::bit(e, lo)) lo++;
    unsigned v = 0;
    for (size_t j = i; j-- > lo;) v = (v << 1) | unsigned(arith::bit(e, j));
    if (started) {
      for (size_t j = lo; j < i; j++) r = r.square();
      r *= odd[v >> 1];
    } else {
      r = odd[v >> 1];
      started = true;
    }
    i = lo;
  }
  return r;
}

inline std::optional<ff::Fp> sqrt_fp(const ff::Fp& a) {
  ff::Fp r = pow_window(a, ff::Fp::P_PLUS_1_QUARTER);
  if (r.square() != a) return std::nullopt;
  return r;
}

// a = a0 + a1 u with u^2 = -1. For a1 = 0 the root is sqrt(a0) or
// sqrt(-a0) u. Otherwise a is a square iff its norm n = a0^2 + a1^2 is; with
// alpha = sqrt(n) and delta = (a0 + alpha)/2, and t = delta^((p-3)/4):
//   t^2 delta = 1  (delta a square):  x = t delta + (a1 t / 2) u
//   t^2 delta = -1 (it is not):       x = -(a1 t / 2) + (t delta) u
// (the second uses delta * (a0 - alpha)/2 = -a1^2/4 and (t delta)^2 = -delta).
inline std::optional<ff::Fp2> sqrt_fp2(const ff::Fp2& a) {
  using ff::Fp;
  using ff::Fp2;
  static constexpr auto P_MINUS_3_QUARTER = Fp::shr(Fp::minus(Fp::MODULUS, 3), 2);
  if (a.c1.is_zero()) {
    if (auto r = sqrt_fp(a.c0)) return Fp2{*r, Fp::zero()};
    if (auto r = sqrt_fp(-a.c0)) return Fp2{Fp::zero(), *r};
    return std::nullopt;
  }
  auto alpha = sqrt_fp(a.c0.square() + a.c1.square());
  if (!alpha) return std::nullopt;
  static const Fp half = Fp::from_u64(2).inverse();
  Fp delta = (a.c0 + *alpha) * half;
  Fp t = pow_window(delta, P_MINUS_3_QUARTER);
  Fp td = t * delta;
  Fp at = a.c1 * t * half;
  Fp2 x;
  if ((td * t).is_one()) {
    x = {td, at};
  } else {
    x = {-at, td};
  }
  if (x.square() != a) return std::nullopt;  // delta = 0 and other impossible cases
  return x;
}

}  // namespace cuzk::ec::detail

namespace cuzk::ec::detail {
inline std::optional<ff::Fp> field_sqrt(const ff::Fp& a) { return sqrt_fp(a); }
inline std::optional<ff::Fp2> field_sqrt(const ff::Fp2& a) { return sqrt_fp2(a); }
}  // namespace cuzk::ec::detail
