#pragma once
// Prime-order subgroup membership and cofactor clearing for BLS12-381.
//
// Fast tests (M. Scott, "A note on group membership tests for G1, G2 and GT
// on BLS pairing-friendly curves", ePrint 2021/1130):
//   G1: P in G1  <=>  sigma(P) = [-u^2]P     (~126 doublings)
//   G2: P in G2  <=>  psi(P)   = [u]P        (~63 doublings over Fp2)
// Both assume P is on its curve (check is_on_curve first). The reference
// test multiplies by r and is kept for cross-checking.
//
// Cofactor clearing (maps any curve point into the subgroup):
//   G1: [1 - u]P   (h_eff of RFC 9380 for BLS12-381 G1)
//   G2: [u^2 - u - 1]P + [u - 1]psi(P) + psi^2(2P)  (Budroni-Pintore, RFC 9380 G.3)
//
// All variable time.
#include <optional>

#include "ec/endomorphism.hpp"
#include "ec/sqrt.hpp"

namespace cuzk::ec {

// r*P == O: the slow reference (255-bit double-and-add).
template <class C>
bool is_in_subgroup_reference(const Affine<C>& p) {
  return mul_vartime(Jacobian<C>::from_affine(p), ff::Fr::MODULUS).is_identity();
}
template <class C>
bool is_in_subgroup_reference(const Jacobian<C>& p) {
  return mul_vartime(p, ff::Fr::MODULUS).is_identity();
}

// sigma(P) == [-u^2]P, i.e. -sigma(P) == [u^2]P = [|u|]([|u|]P).
inline bool is_in_subgroup(const G1Affine& p) {
  if (p.infinity) return true;
  G1Jacobian t = mul_by_u_abs(mul_by_u_abs(p));
  return equals(sigma(p).neg(), t);
}
// psi(P) == [u]P, i.e. -psi(P) == [|u|]P.
inline bool is_in_subgroup(const G2Affine& p) {
  if (p.infinity) return true;
  G2Jacobian t = mul_by_u_abs(p);
  return equals(psi(p).neg(), t);
}
// Jacobian inputs: same tests without normalising to affine.
inline bool is_in_subgroup(const G1Jacobian& p) {
  if (p.is_identity()) return true;
  return mul_by_u_abs(mul_by_u_abs(p)) == sigma(p).neg();
}
inline bool is_in_subgroup(const G2Jacobian& p) {
  if (p.is_identity()) return true;
  return mul_by_u_abs(p) == psi(p).neg();
}

// [1 - u]P = P + [|u|]P.
inline G1Jacobian clear_cofactor(const G1Jacobian& p) { return mul_by_u_abs(p).add(p); }

inline G2Jacobian clear_cofactor(const G2Jacobian& p) {
  G2Jacobian t1 = mul_by_u(p);    // [u]P
  G2Jacobian t2 = psi(p);         // psi(P)
  G2Jacobian t3 = psi2(p.dbl());  // psi^2(2P)
  t3 = t3.add(t2.neg());          // psi^2(2P) - psi(P)
  t2 = mul_by_u(t1.add(t2));      // [u^2]P + [u]psi(P)
  t3 = t3.add(t2).add(t1.neg());  // ... - [u]P
  return t3.add(p.neg());         // ... - P
}
template <class C>
Affine<C> clear_cofactor(const Affine<C>& p) {
  return clear_cofactor(Jacobian<C>::from_affine(p)).to_affine();
}

// The point with abscissa x on the curve, choosing the root by `largest`
// (ZCash sort flag); nullopt when x^3 + b is not a square.
template <class C>
std::optional<Affine<C>> point_from_x(const typename C::Base& x, bool largest) {
  auto y = detail::field_sqrt(x.square() * x + C::b());
  if (!y) return std::nullopt;
  if (y->is_lexicographically_largest() != largest) *y = -*y;
  return Affine<C>::from_xy(x, *y);
}

// A uniformly random x with x^3 + b square: a point on E (or E'), outside
// the subgroup with overwhelming probability (the cofactor is > 2^125).
// For tests and benchmarks.
template <class C, class Rng>
Affine<C> random_curve_point(Rng& rng) {
  for (;;) {
    auto x = C::Base::random(rng);
    if (auto p = point_from_x<C>(x, rng() & 1)) return *p;
  }
}

}  // namespace cuzk::ec
