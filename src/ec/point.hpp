#pragma once
// Short Weierstrass points y^2 = x^3 + b (a = 0) in affine, Jacobian and
// XYZZ coordinates, generic over a curve traits struct:
//
//   struct C { using Base = <field>; static Base b(); static Affine<C> generator(); };
//
// Formulas from the Explicit-Formulas Database (EFD), named at each use.
// All of this is variable time (public data: SRS points, proofs).
#include <span>
#include <vector>

#include "arith/limbs.hpp"
#include "ff/batch_inverse.hpp"

namespace cuzk::ec {

template <class C>
struct Affine {
  using Curve = C;
  using Base = typename C::Base;
  Base x{}, y{};
  bool infinity = true;

  static Affine identity() { return {}; }
  static Affine from_xy(const Base& x, const Base& y) { return {x, y, false}; }

  bool is_identity() const { return infinity; }
  bool is_on_curve() const { return infinity || y.square() == x.square() * x + C::b(); }
  Affine neg() const { return infinity ? *this : Affine{x, -y, false}; }
  friend bool operator==(const Affine& a, const Affine& b) {
    if (a.infinity || b.infinity) return a.infinity == b.infinity;
    return a.x == b.x && a.y == b.y;
  }
};

template <class C>
struct Jacobian {
  using Curve = C;
  using Base = typename C::Base;
  // x = X/Z^2, y = Y/Z^3; Z = 0 is the identity.
  Base X{}, Y = Base::one(), Z{};

  static Jacobian identity() { return {}; }
  static Jacobian from_affine(const Affine<C>& p) {
    if (p.infinity) return identity();
    return {p.x, p.y, Base::one()};
  }
  bool is_identity() const { return Z.is_zero(); }

  Affine<C> to_affine() const {
    if (is_identity()) return Affine<C>::identity();
    Base zi = Z.inverse(), zi2 = zi.square();
    return Affine<C>::from_xy(X * zi2, Y * zi2 * zi);
  }

  Jacobian neg() const { return {X, -Y, Z}; }

  // dbl-2009-l: 2M + 5S.
  Jacobian dbl() const {
    if (is_identity()) return *this;
    Base A = X.square(), B = Y.square(), C2 = B.square();
    Base D = ((X + B).square() - A - C2).dbl();
    Base E = A.dbl() + A, F = E.square();
    Jacobian r;
    r.X = F - D.dbl();
    r.Y = E * (D - r.X) - C2.dbl().dbl().dbl();
    r.Z = (Y * Z).dbl();
    return r;
  }

  // add-2007-bl: 11M + 5S; handles equal points and the identity.
  Jacobian add(const Jacobian& q) const {
    if (is_identity()) return q;
    if (q.is_identity()) return *this;
    Base Z1Z1 = Z.square(), Z2Z2 = q.Z.square();
    Base U1 = X * Z2Z2, U2 = q.X * Z1Z1;
    Base S1 = Y * q.Z * Z2Z2, S2 = q.Y * Z * Z1Z1;
    Base H = U2 - U1, rr = (S2 - S1).dbl();
    if (H.is_zero()) return rr.is_zero() ? dbl() : identity();
    Base I = H.dbl().square(), J = H * I, V = U1 * I;
    Jacobian r;
    r.X = rr.square() - J - V.dbl();
    r.Y = rr * (V - r.X) - (S1 * J).dbl();
    r.Z = ((Z + q.Z).square() - Z1Z1 - Z2Z2) * H;
    return r;
  }

  // madd-2007-bl: 7M + 4S; handles equal points and the identity.
  Jacobian add_mixed(const Affine<C>& q) const {
    if (q.infinity) return *this;
    if (is_identity()) return from_affine(q);
    Base Z1Z1 = Z.square();
    Base U2 = q.x * Z1Z1, S2 = q.y * Z * Z1Z1;
    Base H = U2 - X, rr = (S2 - Y).dbl();
    if (H.is_zero()) return rr.is_zero() ? dbl() : identity();
    Base HH = H.square(), I = HH.dbl().dbl(), J = H * I, V = X * I;
    Jacobian r;
    r.X = rr.square() - J - V.dbl();
    r.Y = rr * (V - r.X) - (Y * J).dbl();
    r.Z = (Z + H).square() - Z1Z1 - HH;
    return r;
  }

  // Projective equality without inversion.
  friend bool operator==(const Jacobian& a, const Jacobian& b) {
    if (a.is_identity() || b.is_identity()) return a.is_identity() == b.is_identity();
    Base z1 = a.Z.square(), z2 = b.Z.square();
    return a.X * z2 == b.X * z1 && a.Y * z2 * b.Z == b.Y * z1 * a.Z;
  }
};

template <class C>
struct Xyzz {
  using Curve = C;
  using Base = typename C::Base;
  // x = X/ZZ, y = Y/ZZZ with ZZ^3 = ZZZ^2; ZZ = 0 is the identity.
  Base X{}, Y = Base::one(), ZZ{}, ZZZ{};

  static Xyzz identity() { return {}; }
  bool is_identity() const { return ZZ.is_zero(); }

  // mdbl-2008-s-1 (affine input): 2M + 3S... specialised for Z = 1.
  static Xyzz dbl_affine(const Affine<C>& p) {
    if (p.infinity) return identity();
    Base U = p.y.dbl(), V = U.square(), W = U * V, S = p.x * V;
    Base xx = p.x.square(), M = xx.dbl() + xx;
    Xyzz r;
    r.X = M.square() - S.dbl();
    r.Y = M * (S - r.X) - W * p.y;
    r.ZZ = V;
    r.ZZZ = W;
    return r;
  }

  // dbl-2008-s-1: 6M + 4S.
  Xyzz dbl() const {
    if (is_identity()) return *this;
    Base U = Y.dbl(), V = U.square(), W = U * V, S = X * V;
    Base xx = X.square(), M = xx.dbl() + xx;
    Xyzz r;
    r.X = M.square() - S.dbl();
    r.Y = M * (S - r.X) - W * Y;
    r.ZZ = V * ZZ;
    r.ZZZ = W * ZZZ;
    return r;
  }

  // madd-2008-s: 8M + 2S.
  Xyzz add_mixed(const Affine<C>& q) const {
    if (q.infinity) return *this;
    if (is_identity()) return {q.x, q.y, Base::one(), Base::one()};
    Base P = q.x * ZZ - X, R = q.y * ZZZ - Y;
    if (P.is_zero()) return R.is_zero() ? dbl_affine(q) : identity();
    Base PP = P.square(), PPP = P * PP, Q = X * PP;
    Xyzz r;
    r.X = R.square() - PPP - Q.dbl();
    r.Y = R * (Q - r.X) - Y * PPP;
    r.ZZ = ZZ * PP;
    r.ZZZ = ZZZ * PPP;
    return r;
  }

  // add-2008-s: 12M + 2S.
  Xyzz add(const Xyzz& q) const {
    if (is_identity()) return q;
    if (q.is_identity()) return *this;
    Base U1 = X * q.ZZ, U2 = q.X * ZZ, S1 = Y * q.ZZZ, S2 = q.Y * ZZZ;
    Base P = U2 - U1, R = S2 - S1;
    if (P.is_zero()) return R.is_zero() ? dbl() : identity();
    Base PP = P.square(), PPP = P * PP, Q = U1 * PP;
    Xyzz r;
    r.X = R.square() - PPP - Q.dbl();
    r.Y = R * (Q - r.X) - S1 * PPP;
    r.ZZ = ZZ * q.ZZ * PP;
    r.ZZZ = ZZZ * q.ZZZ * PPP;
    return r;
  }

  // With Z = ZZZ/ZZ: X_J = X*ZZ^2, Y_J = Y*ZZZ^2, Z_J = ZZZ (uses ZZ^3 = ZZZ^2).
  Jacobian<C> to_jacobian() const {
    if (is_identity()) return Jacobian<C>::identity();
    return {X * ZZ.square(), Y * ZZZ.square(), ZZZ};
  }
};

// ---- generic helpers over any point type with add/dbl ----

// k*P for a little-endian scalar, variable time (double-and-add).
template <class C, size_t M>
Jacobian<C> mul_vartime(const Jacobian<C>& p, const arith::Limbs<M>& k) {
  Jacobian<C> r = Jacobian<C>::identity();
  for (size_t i = arith::bit_length(k); i-- > 0;) {
    r = r.dbl();
    if (arith::bit(k, i)) r = r.add(p);
  }
  return r;
}
template <class C, class Scalar>
Jacobian<C> mul_vartime(const Jacobian<C>& p, const Scalar& s) {
  return mul_vartime(p, s.to_canonical());
}

// Converts many points to affine with a single field inversion.
template <class C>
void batch_to_affine(std::span<const Jacobian<C>> in, std::span<Affine<C>> out) {
  using Base = typename C::Base;
  std::vector<Base> z(in.size());
  for (size_t i = 0; i < in.size(); i++) z[i] = in[i].Z;
  ff::batch_inverse<Base>(std::span<Base>(z));
  for (size_t i = 0; i < in.size(); i++) {
    if (in[i].is_identity()) {
      out[i] = Affine<C>::identity();
      continue;
    }
    Base zi2 = z[i].square();
    out[i] = Affine<C>::from_xy(in[i].X * zi2, in[i].Y * zi2 * z[i]);
  }
}

}  // namespace cuzk::ec
