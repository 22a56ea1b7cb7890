#pragma once
// Optimal ate pairing on BLS12-381: e : G1 x G2 -> Gt, Gt the order-r
// subgroup of Fp12^*.
//
//   e(P, Q) = f_{x,Q}(P)^((p^12 - 1)/r)   with x = -0xd201000000010000.
//
// G2 lives on the M-type sextic twist E': y^2 = x^3 + 4(1+u) over Fp2,
// mapped into E(Fp12) by (x, y) -> (x/w^2, y/w^3). The Miller loop keeps the
// G2 point in homogeneous projective coordinates (no inversions) and
// evaluates each line at the affine G1 point; the lines are sparse Fp12
// elements (Fp2 slots 0, 1, 4) multiplied in with Fp12::mul_by_014.
//
// The final exponentiation raises to 3 * (p^12 - 1)/r (hard part via the
// Hayashida-Hayasaka-Teruya decomposition 3(p^4 - p^2 + 1)/r =
// (x-1)^2 (x+p)(x^2+p^2-1) + 3). Since gcd(3, r) = 1 this is the cube of the
// textbook reduced pairing: still bilinear and non-degenerate, and the same
// value zkcrypto/bls12_381 returns (its Gt generator is a known-answer test).
//
// Variable time; for public inputs (verification), not secrets.
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "ec/bls12_381.hpp"
#include "ff/fp12.hpp"

namespace cuzk::pairing {

using Gt = ff::Fp12;

// |x| and the sign of the BLS12-381 parameter x.
inline constexpr uint64_t BLS_X_ABS = 0xd201000000010000ULL;
inline constexpr bool BLS_X_IS_NEGATIVE = true;

// One line function: l(P) = c0 + (cv * xP) v + (cvw * yP) v w.
struct LineCoeffs {
  ff::Fp2 c0, cv, cvw;
};

// Line coefficients of the Miller loop for one fixed G2 point, in loop order
// (per bit: the doubling line, then the addition line if the bit is set).
// Build once for the verifier's fixed points (gamma, delta, ...).
struct PreparedG2 {
  std::vector<LineCoeffs> lines;
  bool infinity = true;

  PreparedG2() = default;
  explicit PreparedG2(const ec::G2Affine& q);
  bool is_identity() const { return infinity; }
};

// Number of line coefficients of a PreparedG2 (doublings + additions).
size_t prepared_line_count();

// Product of the Miller loop values f_{x,Q_i}(P_i) of all given pairs, with
// one shared accumulator (one Fp12 squaring per bit in total). Pairs with an
// identity point contribute 1. The result still needs final_exponentiation.
Gt multi_miller_loop(std::span<const std::pair<ec::G1Affine, ec::G2Affine>> pairs,
                     std::span<const std::pair<ec::G1Affine, const PreparedG2*>> prepared = {});
Gt multi_miller_loop(std::span<const std::pair<ec::G1Affine, const PreparedG2*>> prepared);
Gt miller_loop(const ec::G1Affine& p, const ec::G2Affine& q);
Gt miller_loop(const ec::G1Affine& p, const PreparedG2& q);

// f^(3 (p^12 - 1)/r) (see the header comment).
Gt final_exponentiation(const Gt& f);

// e(P, Q).
Gt pairing(const ec::G1Affine& p, const ec::G2Affine& q);
// prod_i e(P_i, Q_i) with one Miller loop and one final exponentiation.
Gt multi_pairing(std::span<const std::pair<ec::G1Affine, ec::G2Affine>> pairs,
                 std::span<const std::pair<ec::G1Affine, const PreparedG2*>> prepared = {});
Gt multi_pairing(std::span<const std::pair<ec::G1Affine, const PreparedG2*>> prepared);

// x^k in Gt (or anywhere in the cyclotomic subgroup), variable time.
Gt gt_pow_vartime(const Gt& x, const ff::Fr& k);

}  // namespace cuzk::pairing
