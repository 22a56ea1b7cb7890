// Miller loop of the optimal ate pairing (see pairing.hpp).
//
// Line functions. With psi(x', y') = (x'/w^2, y'/w^3) from the twist, the
// line through T (slope s' on the twist) evaluated at P = (xP, yP), times
// w^3 (which lies in Fp4 and is killed by the final exponentiation), is
//   (s' xT - yT) + (-s' xP) v + yP v w,
// i.e. an Fp12 element with Fp2 coefficients only in slots 0, 1 and 4.
// Scaling by any Fp2 factor is free for the same reason, which removes the
// projective denominators (Costello-Lange-Naehrig; formulas as in Aranha,
// Karabina, Longa, Gebotys, Lopez, "Faster explicit formulas for computing
// pairings over ordinary curves", Eurocrypt 2011, eqs. for homogeneous
// doubling and mixed addition).
#include <bit>

#include "pairing/pairing.hpp"

namespace cuzk::pairing {

using ff::Fp;
using ff::Fp2;

namespace {

// a/2 in Montgomery form: (a or a + p) >> 1. a + p < 2^382 needs no carry limb.
Fp half(const Fp& a) {
  Fp r = a;
  if (r.v[0] & 1) arith::add_to(r.v, Fp::MODULUS);
  arith::shr1(r.v);
  return r;
}
Fp2 half(const Fp2& a) { return {half(a.c0), half(a.c1)}; }

// G2 point in homogeneous projective coordinates: x = X/Z, y = Y/Z.
struct G2Proj {
  Fp2 X, Y, Z;
};

// T <- 2T; returns the tangent line at T (scaled by -2YZ):
//   (3b'Z^2 - Y^2) + 3X^2 xP v - 2YZ yP vw,   b' = 4(1+u).
LineCoeffs doubling_step(G2Proj& T) {
  const Fp2 &X = T.X, &Y = T.Y, &Z = T.Z;
  Fp2 A = half(X * Y);
  Fp2 B = Y.square();
  Fp2 C = Z.square();
  Fp2 C3 = C.dbl() + C;
  Fp2 E = C3.mul_by_nonresidue().dbl().dbl();  // 3 b' C = 12 (1+u) C
  Fp2 F = E.dbl() + E;
  Fp2 G = half(B + F);
  Fp2 H = (Y + Z).square() - B - C;  // 2YZ
  Fp2 XX = X.square();
  Fp2 E2 = E.square();
  LineCoeffs l{E - B, XX.dbl() + XX, -H};
  T.X = A * (B - F);
  T.Y = G.square() - (E2.dbl() + E2);
  T.Z = B * H;
  return l;
}

// T <- T + Q (Q affine, T != +-Q); returns the chord through T and Q, scaled
// by lambda = X1 - x2 Z1:  (theta x2 - lambda y2) - theta xP v + lambda yP vw.
LineCoeffs addition_step(G2Proj& T, const Fp2& qx, const Fp2& qy) {
  Fp2 theta = T.Y - qy * T.Z;
  Fp2 lambda = T.X - qx * T.Z;
  Fp2 C = theta.square();
  Fp2 D = lambda.square();
  Fp2 E = lambda * D;
  Fp2 F = T.Z * C;
  Fp2 G = T.X * D;
  Fp2 H = E + F - G.dbl();
  LineCoeffs l{theta * qx - lambda * qy, -theta, lambda};
  T.X = lambda * H;
  T.Y = theta * (G - H) - T.Y * E;
  T.Z = T.Z * E;
  return l;
}

constexpr int X_BITS = std::bit_width(BLS_X_ABS);  // 64

// One pair of the multi-Miller loop: either reads precomputed lines or
// computes them on the fly from its own projective T.
struct Term {
  Fp xP, yP;
  const LineCoeffs* pre = nullptr;
  G2Proj T;
  Fp2 qx, qy;

  LineCoeffs dbl() { return pre ? *pre++ : doubling_step(T); }
  LineCoeffs add() { return pre ? *pre++ : addition_step(T, qx, qy); }
};

inline void mul_line(Gt& f, const LineCoeffs& l, const Term& t) {
  f = f.mul_by_014(l.c0, l.cv * t.xP, l.cvw * t.yP);
}

Gt miller_loop_terms(std::vector<Term>& terms) {
  Gt f = Gt::one();
  if (terms.empty()) return f;
  for (int i = X_BITS - 2; i >= 0; i--) {
    if (i != X_BITS - 2) f = f.square();
    for (auto& t : terms) mul_line(f, t.dbl(), t);
    if ((BLS_X_ABS >> i) & 1)
      for (auto& t : terms) mul_line(f, t.add(), t);
  }
  // f_{x,Q} = 1/f_{|x|,Q} up to factors killed by the final exponentiation,
  // and after it the inverse is the conjugate.
  if constexpr (BLS_X_IS_NEGATIVE) f = f.conjugate();
  return f;
}

}  // namespace

size_t prepared_line_count() { return size_t(X_BITS - 1) + size_t(std::popcount(BLS_X_ABS) - 1); }

PreparedG2::PreparedG2(const ec::G2Affine& q) : infinity(q.is_identity()) {
  if (infinity) return;
  lines.reserve(prepared_line_count());
  G2Proj T{q.x, q.y, Fp2::one()};
  for (int i = X_BITS - 2; i >= 0; i--) {
    lines.push_back(doubling_step(T));
    if ((BLS_X_ABS >> i) & 1) lines.push_back(addition_step(T, q.x, q.y));
  }
}

Gt multi_miller_loop(std::span<const std::pair<ec::G1Affine, ec::G2Affine>> pairs,
                     std::span<const std::pair<ec::G1Affine, const PreparedG2*>> prepared) {
  std::vector<Term> terms;
  terms.reserve(pairs.size() + prepared.size());
  for (const auto& [p, q] : pairs) {
    if (p.is_identity() || q.is_identity()) continue;
    Term t;
    t.xP = p.x;
    t.yP = p.y;
    t.T = {q.x, q.y, Fp2::one()};
    t.qx = q.x;
    t.qy = q.y;
    terms.push_back(t);
  }
  for (const auto& [p, q] : prepared) {
    if (p.is_identity() || q == nullptr || q->is_identity()) continue;
    Term t;
    t.xP = p.x;
    t.yP = p.y;
    t.pre = q->lines.data();
    terms.push_back(t);
  }
  return miller_loop_terms(terms);
}

Gt multi_miller_loop(std::span<const std::pair<ec::G1Affine, const PreparedG2*>> prepared) {
  return multi_miller_loop(std::span<const std::pair<ec::G1Affine, ec::G2Affine>>{}, prepared);
}

Gt miller_loop(const ec::G1Affine& p, const ec::G2Affine& q) {
  std::pair<ec::G1Affine, ec::G2Affine> pq{p, q};
  return multi_miller_loop(std::span(&pq, 1));
}

Gt miller_loop(const ec::G1Affine& p, const PreparedG2& q) {
  std::pair<ec::G1Affine, const PreparedG2*> pq{p, &q};
  return multi_miller_loop(std::span(&pq, 1));
}

Gt pairing(const ec::G1Affine& p, const ec::G2Affine& q) { return final_exponentiation(miller_loop(p, q)); }

Gt multi_pairing(std::span<const std::pair<ec::G1Affine, ec::G2Affine>> pairs,
                 std::span<const std::pair<ec::G1Affine, const PreparedG2*>> prepared) {
  return final_exponentiation(multi_miller_loop(pairs, prepared));
}

Gt multi_pairing(std::span<const std::pair<ec::G1Affine, const PreparedG2*>> prepared) {
  return final_exponentiation(multi_miller_loop(prepared));
}

}  // namespace cuzk::pairing
