#pragma once
// AVX-512 IFMA kernels for the MSM's batch-affine additions over G1 and G2
// (src/msm/ifma_kernels.cpp; arithmetic in src/arith/ifma52.hpp).
//
// Eight additions run side by side, one per vector lane, so the field
// multiplications that dominate an affine addition cost about 2.3x less than
// with the scalar MULX kernel. The kernels work in their own Montgomery domain
// (radix 2^416, the natural one for eight 52-bit limbs); points enter and
// leave it through fp_to_domain / fp_from_domain, so the MSM converts its
// entries once, keeps its buckets in that domain, and converts the few sums
// it hands to the scalar code. Points keep the usual layout (x then y, six
// 64-bit limbs each, canonical), so references, copies, comparisons and
// negations work unchanged.
//
// Only call these when platform::use_ifma() says so (the CPU has AVX-512
// IFMA and VBMI2, and neither CUZK_NO_ASM nor CUZK_NO_IFMA is set).
#include <cstddef>
#include <cstdint>

namespace cuzk::msm::ifma {

inline constexpr uint32_t NEG_A = 1, NEG_B = 2, DBL = 4;

// *out = A' + B' with A' = (flags & NEG_A ? -A : A), B' likewise; A, B and
// out are affine points (x then y: 12 limbs for G1, 24 for G2) in the kernel
// domain. With DBL set, A' == B' with y != 0 and out = 2A'. out may alias A
// or B: every input is read before any output is written.
struct AddJob {
  const uint64_t* a;
  const uint64_t* b;
  uint64_t* out;
  uint32_t flags;
};

// All additions of `jobs` with one shared inversion (Montgomery's trick;
// for G2 over the Fp norms of the denominators). Jobs without DBL whose
// points share x (A' = B' or A' = -B', rare) are not computed: their
// indices go to special[] (room for n) and their count is returned, for the
// caller to resubmit as doublings or to record as the identity.
size_t g1_add_batch(const AddJob* jobs, size_t n, uint32_t* special);
size_t g2_add_batch(const AddJob* jobs, size_t n, uint32_t* special);

// In place, n contiguous Fp elements (6 limbs each; a G1 point is 2, a G2
// point 4): from the scalar field layer's Montgomery domain (2^384) into
// the kernels' (2^416), and back. Fp2 products work component-wise, so one
// conversion serves both curves.
void fp_to_domain(uint64_t* elems, size_t n);
void fp_from_domain(uint64_t* elems, size_t n);

}  // namespace cuzk::msm::ifma
