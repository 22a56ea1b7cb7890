#pragma once
// Efficient endomorphisms of the BLS12-381 curves and multiplication by the
// curve parameter u = -0xd201000000010000.
//
//   G1: sigma(x, y) = (beta*x, y), beta a primitive cube root of unity in Fp.
//       With the beta below, sigma acts on G1 as multiplication by
//       lambda = -u^2 (a root of lambda^2 + lambda + 1 = 0 mod r).
//   G2: psi = twist^-1 o Frobenius o twist on E'(Fp2),
//       psi(x, y) = (cx * conj(x), cy * conj(y)) with cx = xi^-((p-1)/3),
//       cy = xi^-((p-1)/2), xi = 1 + u. On G2, psi acts as multiplication by
//       p = u (mod r).  psi^2(x, y) = (beta^2 * x, -y), no conjugation.
//
// The constants are hard-coded; tests/unit/ec/subgroup_test.cpp re-derives
// them from their definitions. All of this is variable time.
#include <cstdint>

#include "ec/bls12_381.hpp"

namespace cuzk::ec {

// |u| for BLS12-381 (u itself is negative).
inline constexpr uint64_t BLS_U_ABS = 0xd201000000010000ULL;
inline constexpr bool BLS_U_IS_NEGATIVE = true;

namespace endo {

// beta with sigma(P) = [-u^2]P on G1.
inline const ff::Fp& g1_beta() {
  static const ff::Fp v = detail::fp_hex(arith::parse_hex<6>(
      "0x5f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffefffe"));
  return v;
}
// beta^2 (the other primitive cube root): (beta^2 x, y) = [u^2 - 1]P on G1.
inline const ff::Fp& g1_beta2() {
  static const ff::Fp v = detail::fp_hex(arith::parse_hex<6>(
      "0x1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd00000000aaac"));
  return v;
}
// psi coefficients.
inline const ff::Fp2& g2_psi_cx() {
  static const ff::Fp2 v = {
      ff::Fp::zero(), detail::fp_hex(arith::parse_hex<6>("0x1a0111ea397fe699ec02408663d4de85aa0d857d89759ad48"
                                                         "97d29650fb85f9b409427eb4f49fffd8bfd00000000aaad"))};
  return v;
}
inline const ff::Fp2& g2_psi_cy() {
  static const ff::Fp2 v = {
      detail::fp_hex(arith::parse_hex<6>("0x135203e60180a68ee2e9c448d77a2cd91c3dedd930b1cf60ef396489f61eb45e3"
                                         "04466cf3e67fa0af1ee7b04121bdea2")),
      detail::fp_hex(arith::parse_hex<6>("0x06af0e0437ff400b6831e36d6bd17ffe48395dabc2d3435e77f76e17009241c5e"
                                         "e67992f72ec05f4c81084fbede3cc09"))};
  return v;
}

}  // namespace endo

// ---- G1: sigma ----
inline G1Affine sigma(const G1Affine& p) {
  if (p.infinity) return p;
  return G1Affine::from_xy(p.x * endo::g1_beta(), p.y);
}
inline G1Jacobian sigma(const G1Jacobian& p) { return {p.X * endo::g1_beta(), p.Y, p.Z}; }

// ---- G2: psi and psi^2 ----
inline G2Affine psi(const G2Affine& p) {
  if (p.infinity) return p;
  return G2Affine::from_xy(p.x.conjugate() * endo::g2_psi_cx(), p.y.conjugate() * endo::g2_psi_cy());
}
// (X, Y, Z) -> (cx conj X, cy conj Y, conj Z): x = X/Z^2 maps to cx conj(X)/conj(Z)^2.
inline G2Jacobian psi(const G2Jacobian& p) {
  return {p.X.conjugate() * endo::g2_psi_cx(), p.Y.conjugate() * endo::g2_psi_cy(), p.Z.conjugate()};
}
inline G2Affine psi2(const G2Affine& p) {
  if (p.infinity) return p;
  const ff::Fp& b2 = endo::g1_beta2();
  return G2Affine::from_xy(p.x * b2, -p.y);
}
inline G2Jacobian psi2(const G2Jacobian& p) {
  const ff::Fp& b2 = endo::g1_beta2();
  return {p.X * b2, -p.Y, p.Z};
}

// ---- multiplication by |u| (63 doublings, 5 additions) ----
template <class C>
Jacobian<C> mul_by_u_abs(const Affine<C>& p) {
  Jacobian<C> r = Jacobian<C>::from_affine(p);
  if (p.infinity) return r;
  for (int i = 62; i >= 0; i--) {
    r = r.dbl();
    if ((BLS_U_ABS >> i) & 1) r = r.add_mixed(p);
  }
  return r;
}
template <class C>
Jacobian<C> mul_by_u_abs(const Jacobian<C>& p) {
  Jacobian<C> r = p;
  if (p.is_identity()) return r;
  for (int i = 62; i >= 0; i--) {
    r = r.dbl();
    if ((BLS_U_ABS >> i) & 1) r = r.add(p);
  }
  return r;
}
// [u]P = -[|u|]P.
template <class P>
auto mul_by_u(const P& p) {
  return mul_by_u_abs(p).neg();
}

// a == j without an inversion (a affine, j Jacobian).
template <class C>
bool equals(const Affine<C>& a, const Jacobian<C>& j) {
  if (a.infinity || j.is_identity()) return a.infinity && j.is_identity();
  auto z2 = j.Z.square();
  return a.x * z2 == j.X && a.y * z2 * j.Z == j.Y;
}

}  // namespace cuzk::ec
