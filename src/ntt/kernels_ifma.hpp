#pragma once
// Eight-lane AVX-512 IFMA versions of the in-cache NTT kernels (internal;
// src/ntt/kernels_ifma.cpp, arithmetic in src/arith/ifma52.hpp).
//
// A block is copied into limb-sliced form (eight consecutive elements per
// group of five 52-bit limb vectors), every stage runs there eight butterflies
// at a time, and the block is copied back. Stages whose partners are at least
// eight elements apart pair whole octets; the last stages of a plain (B = 1)
// block, with partners 4, 2 and 1 apart, pair lanes of one octet through
// permutations. Data stay in
// Fr's Montgomery form (radix 2^256): the twiddles are stored multiplied by
// 2^260, the kernels' Montgomery radix, so each product lands back in Fr's
// form and no conversion of the data is needed. Results are bit-identical to
// the scalar kernels' (both are canonical).
//
// Callers check platform::use_ifma() and that the domain built its tables.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ff/bls12_381.hpp"

namespace cuzk::ntt::detail::ifma {

using ff::Fr;

// Twiddle table in the kernels' form: 5 limbs of 52 bits per entry, w * 2^260
// mod r (the same entries, in the same order, as tw).
std::vector<uint64_t> convert_twiddles(std::span<const Fr> tw);

// As ct_block / gs_block (kernels.hpp), over 2^L elements of B lanes, with
// tw52 = convert_twiddles(tw) (tw itself is used only where the kernels are
// not compiled in). Needs 2^L * B >= 8.
void ct_block(Fr* a, unsigned L, size_t B, const Fr* tw, const uint64_t* tw52, size_t off);
void gs_block(Fr* a, unsigned L, size_t B, const Fr* tw, const uint64_t* tw52, size_t off);

// Factors for scale_blocks: t (a multiple of 8 entries) as t * 2^264 mod r,
// eight entries at a time limb-sliced (5 vectors of 8 limbs of 52 bits).
std::vector<uint64_t> factor_table(std::span<const Fr> t);
// x[b * B + i] *= f[b] * t[i] for b < nblocks, i < B (B = the table's size):
// two eight-lane products per eight elements (the scalar loop took two Fr
// products per element).
void scale_blocks(Fr* x, size_t nblocks, size_t B, const Fr* f, const uint64_t* t52);

}  // namespace cuzk::ntt::detail::ifma
