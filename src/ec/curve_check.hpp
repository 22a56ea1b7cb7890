#pragma once
// Curve-equation checks of many affine points at once (a proving key holds
// hundreds of thousands): eight points per step on AVX-512 IFMA where the
// CPU has it (platform::use_ifma()), one by one otherwise. Subgroup
// membership is a separate, much costlier check (subgroup.hpp).
#include <cstddef>
#include <span>

#include "ec/bls12_381.hpp"
#include "ec/encoding.hpp"
#include "ec/subgroup.hpp"

namespace cuzk::ec {

// Index of the first point not on its curve, or pts.size() when all are
// (points at infinity pass). Coordinates must be canonical (below p), as
// every decoder leaves them.
size_t first_off_curve(std::span<const G1Affine> pts);
size_t first_off_curve(std::span<const G2Affine> pts);

// Index of the first point failing `check`, or pts.size(): Full tests the
// curve equation (all points at once, above) and then, up to the first
// point off the curve, prime-order-subgroup membership; SkipSubgroup the
// curve equation only; None nothing. The readers of key files decode a
// block of points and hand it here.
template <class P>
size_t first_invalid(std::span<const P> pts, Check check) {
  if (check == Check::None) return pts.size();
  const size_t end = first_off_curve(pts);
  if (check == Check::Full)
    for (size_t i = 0; i < end; i++)
      if (!pts[i].is_identity() && !is_in_subgroup(pts[i])) return i;
  return end;
}

}  // namespace cuzk::ec
