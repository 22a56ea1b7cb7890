#pragma once
// In-cache NTT kernels (internal).
//
// A block holds 2^L "elements" of B lanes each: lane b of element e is at
// a[e*B + b]. Lanes are independent transforms sharing every twiddle (the
// column groups of the blocked algorithm); B = 1 for a plain array.
//
// The transform is the radix-2 Cooley-Tukey recursion on x^m - c
// = (x^{m/2} - z)(x^{m/2} + z), z^2 = c: at stage s (0 = first) the block
// splits into 2^s sub-blocks and sub-block k uses the single twiddle
// tw[(off << s) + k], where tw is the bit-reversed power table of the domain
// and `off` the index of this block among the blocks of its size in the whole
// transform (0 for a stand-alone transform).
//
// Radix 2 on purpose: fusing stage pairs (radix 4, half the loads and stores)
// measured 8-10% slower with the MULX/ADX multiplication on this machine,
// because the second pair of butterflies depends on the first and the
// out-of-order window (about three butterflies deep) then finds less
// independent work; the radix-2 inner loops are fully independent.
#include <cstddef>

#include "ntt/butterfly.hpp"

namespace cuzk::ntt::detail {

// Natural order -> bit-reversed order.
void ct_block(Fr* a, unsigned L, size_t B, const Fr* tw, size_t off);
// Bit-reversed order -> natural order; the exact inverse data flow of
// ct_block (Gentleman-Sande butterflies, stages in reverse order).
void gs_block(Fr* a, unsigned L, size_t B, const Fr* tw, size_t off);

}  // namespace cuzk::ntt::detail
