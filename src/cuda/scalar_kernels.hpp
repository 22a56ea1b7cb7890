#pragma once
// Kernels over a proof's scalars on a device (the CUDA backend's Scalars):
// out of Montgomery form, and compaction by a density bitmap. Launchers as
// in cuda/kernels.hpp: device pointers, `stream` a cudaStream_t or null, the
// launch's cudaError_t as an int.
#include <cstdint>

#include "cuda/fp_device.cuh"

CUZK_CUDA_NAMESPACE_BEGIN
namespace detail {

// x·1/R: a Montgomery-form element to its canonical integer (8 u32 limbs
// little-endian: the bytes of an arith::Limbs<4>).
CUZK_HD DevFr from_montgomery(const DevFr& x) {
  DevFr one_raw = DevFr::zero();
  one_raw.l[0] = 1;
  return x * one_raw;
}

// out[i] = from_montgomery(in[i]), i < n; may be in place.
int launch_to_canonical(DevFr* out, const DevFr* in, uint64_t n, void* stream);

// The scalars in[j], j < bits, whose bit j is set in `words` (device memory,
// bit j of word j / 64), written in order to out[0, count): `before[w]` is
// the number of set bits in words[0, w) (device memory, one per word).
int launch_select(DevFr* out, const DevFr* in, const uint64_t* words, const uint64_t* before, uint64_t bits,
                  void* stream);

}  // namespace detail
CUZK_CUDA_NAMESPACE_END
