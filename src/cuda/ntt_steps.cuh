#pragma once
// Per-index steps of the CUDA NTT (src/cuda/ntt.cu, h_kernels.cu), written
// once for both sides: kernels call them for one index each, and unit tests
// run them on the host. Forward transform, natural order in and out (as
// ntt::forward): the bit-reverse permutation, then the radix-2 DIT stages
// in passes (cuda/h_kernels.hpp) with twiddles tw[i] = omega^i, i < n/2.
// Inverse: the same with omega^-1, then a[i] *= 1/n. Coset variants scale by
// g^i before (forward) or by g^-i / n after (inverse), g = 7.
#include "cuda/fp_device.cuh"

CUZK_CUDA_NAMESPACE_BEGIN
namespace steps {

// i with its low log_n bits reversed (log_n <= 32).
CUZK_HD uint32_t bit_reverse(uint32_t i, unsigned log_n) {
  if (log_n == 0) return 0;
#if defined(__CUDA_ARCH__)
  return __brev(i) >> (32 - log_n);
#else
  uint32_t r = 0;
  for (unsigned b = 0; b < log_n; b++) r |= ((i >> b) & 1u) << (log_n - 1 - b);
  return r;
#endif
}

// Thread i < n: swaps a[i] and a[brev(i)] once (the smaller index does it).
CUZK_HD void bitrev_swap(DevFr* a, unsigned log_n, uint32_t i) {
  const uint32_t j = bit_reverse(i, log_n);
  if (i < j) {
    const DevFr t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}

// pw[b] = g^(2^b): g^e for e < 2^32 is the product over the set bits of e.
struct PowTable {
  DevFr pw[32];
};

CUZK_HD DevFr pow_from_table(const PowTable& t, uint32_t e) {
  DevFr r = DevFr::one();
  for (int b = 0; e != 0; b++, e >>= 1)
    if (e & 1u) r = r * t.pw[b];
  return r;
}

// Elements per thread of the power kernels: one table exponentiation (up to
// 32 products) then one product per element.
constexpr uint32_t kPowChunk = 32;

// Chunk c: out[i] = c0 * g^i for i in [c*kPowChunk, min(n, (c+1)*kPowChunk)).
// With `scale` the values multiply a[i] in place instead of being stored.
CUZK_HD void powers_chunk(DevFr* a, uint32_t n, const PowTable& t, const DevFr& c0, bool scale,
                          uint32_t chunk) {
  const uint32_t begin = chunk * kPowChunk;
  if (begin >= n) return;
  const uint32_t end = n - begin < kPowChunk ? n : begin + kPowChunk;
  DevFr x = c0 * pow_from_table(t, begin);
  const DevFr g = t.pw[0];
  for (uint32_t i = begin; i < end; i++) {
    a[i] = scale ? a[i] * x : x;
    x = x * g;
  }
}

}  // namespace steps
CUZK_CUDA_NAMESPACE_END
