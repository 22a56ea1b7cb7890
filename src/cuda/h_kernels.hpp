#pragma once
// Kernels of the H step on a device (cuda/h_step.hpp), callable from plain
// C++: pointers are device pointers, `stream` a cudaStream_t (null: the
// default stream); each launcher returns the launch's cudaError_t as an int.
//
// The transforms work in passes: one kernel runs `k` consecutive radix-2
// stages on tiles held in shared memory (2^k elements of a group, 2^gb
// groups per block so that loads of neighbouring groups coalesce), reading
// and writing global memory once per pass instead of once per stage.
//   DIF (Gentleman-Sande): natural order in, bit-reversed out, stages from
//       the largest distance down;
//   DIT (Cooley-Tukey): bit-reversed in, natural order out, stages up.
// A pass over stages [0, k) may run DIF stages, then scale every element by
// c · shift^brev(i) (i its position: the coefficient it holds is brev(i)),
// then DIT stages, all on one tile: the turn of the QAP step from
// coefficients to the coset, without bit reversal and in one memory pass.
#include <cstdint>

#include "cuda/ntt_steps.cuh"
#include "cuda/scalar_kernels.hpp"

CUZK_CUDA_NAMESPACE_BEGIN
namespace detail {

// Kernel limits: k <= kMaxPassStages, gb + k <= kMaxTileLog (the tile is
// 2^(gb+k) elements of shared memory: 32 KiB at 10), log_n <= 31.
inline constexpr unsigned kMaxPassStages = 8;
inline constexpr unsigned kMaxTileLog = 10;

struct NttPass {
  unsigned log_n = 0;
  unsigned lo = 0, k = 0, gb = 0;  // stages [lo, lo + k); 2^gb groups per block
  bool dif = false;                // DIF stages (twiddles tw_dif), descending
  bool scale = false;              // then a[i] *= c * shift^brev(i) (lo == 0 only)
  bool dit = false;                // then DIT stages (twiddles tw_dit), ascending
  DevFr c;
  steps::PowTable shift_pw;        // pw[b] = shift^(2^b)
  const DevFr* shift_tab = nullptr;  // [u] = shift^(u * 2^(log_n - k)), u < 2^k
  const DevFr* tw_dif = nullptr;     // [j] = w^j, j < n/2, of the DIF's root
  const DevFr* tw_dit = nullptr;
};

int launch_ntt_pass(DevFr* a, const NttPass& p, void* stream);
// a[i] = a[i] * b[i] - c[i], i < n.
int launch_combine(DevFr* a, const DevFr* b, const DevFr* c, uint64_t n, void* stream);
// out[j] = a[brev(j)] out of Montgomery form, j < count <= 2^log_n (out and a
// distinct).
int launch_gather_bitrev_canonical(DevFr* out, const DevFr* a, unsigned log_n, uint64_t count, void* stream);

}  // namespace detail
CUZK_CUDA_NAMESPACE_END
