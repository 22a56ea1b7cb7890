#pragma once
// Curve-equation checks of many affine points at once (a proving key holds
// hundreds of thousands): eight points per step on AVX-512 IFMA where the
// CPU has it (platform::use_ifma()), one by one otherwise. Subgroup
// membership is a separate, much costlier check (subgroup.hpp).
#include <cstddef>
#include <span>

#include "ec/bls12_381.hpp"

namespace cuzk::ec {

// Index of the first point not on its curve, or pts.size() when all are
// (points at infinity pass). Coordinates must be canonical (below p), as
// every decoder leaves them.
size_t first_off_curve(std::span<const G1Affine> pts);
size_t first_off_curve(std::span<const G2Affine> pts);

}  // namespace cuzk::ec
