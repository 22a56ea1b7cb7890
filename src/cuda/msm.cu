// Launchers of the MSM kernels (cuda/msm_kernels.cuh) and their
// instantiations for G1 (DevFp) and G2 (DevFp2).
#include "cuda/launch.cuh"
#include "cuda/msm_kernels.cuh"
#include "cuda/msm_launch.hpp"

CUZK_CUDA_NAMESPACE_BEGIN
namespace msm_dev {

using detail::as_stream;
using detail::blocks_for;

int launch_prepare_scalars(const DevScalar* src, uint32_t n_src, uint64_t s0, const uint64_t* density,
                           const uint64_t* prefix, uint64_t p0, DevScalar* dst, void* stream) {
  if (n_src == 0) return cudaSuccess;
  CUZK_LAUNCH(k_prepare_scalars, blocks_for(n_src, kThreads), kThreads, 0, as_stream(stream), src, n_src, s0,
              density, prefix, p0, dst);
  return cudaGetLastError();
}

int launch_count_pairs(const DevScalar* sc, uint32_t n, Windows win, uint32_t* count, void* stream) {
  if (n == 0) return cudaSuccess;
  CUZK_LAUNCH(k_count_pairs, blocks_for(n, kThreads), kThreads, 0, as_stream(stream), sc, n, win, count);
  return cudaGetLastError();
}

int launch_scatter_pairs(const DevScalar* sc, uint32_t n, Windows win, uint32_t* cursor, uint32_t* keys,
                         uint32_t* refs, void* stream) {
  if (n == 0) return cudaSuccess;
  CUZK_LAUNCH(k_scatter_pairs, blocks_for(n, kThreads), kThreads, 0, as_stream(stream), sc, n, win, cursor,
              keys, refs);
  return cudaGetLastError();
}

int launch_scan_tiles(uint32_t* data, uint32_t n, uint32_t* tile_sums, void* stream) {
  if (n == 0) return cudaSuccess;
  CUZK_LAUNCH(k_scan_tiles, blocks_for(n, kScanTile), kThreads, 0, as_stream(stream), data, n, tile_sums);
  return cudaGetLastError();
}

int launch_scan_add(uint32_t* data, uint32_t n, const uint32_t* tile_offsets, void* stream) {
  if (n == 0) return cudaSuccess;
  CUZK_LAUNCH(k_scan_add, blocks_for(n, kThreads), kThreads, 0, as_stream(stream), data, n, tile_offsets);
  return cudaGetLastError();
}

template <class F>
int launch_sum_pairs(const uint32_t* keys, const uint32_t* refs, const DevAffine<F>* points, uint32_t m,
                     uint32_t per, unsigned blocks_per_sm, DevXyzz<F>* out, uint32_t* pkeys,
                     DevXyzz<F>* pvals, void* stream) {
  if (m == 0) return cudaSuccess;
  const PairInput<F> in{refs, points};
  const uint32_t blocks = blocks_for((uint64_t(m) + per - 1) / per, kPointThreads);
  if (blocks_per_sm >= 4)
    CUZK_LAUNCH((k_segmented_sum<F, PairInput<F>, 4>), blocks, kPointThreads, 0, as_stream(stream), keys, in,
                m, per, true, out, pkeys, pvals);
  else
    CUZK_LAUNCH((k_segmented_sum<F, PairInput<F>, 1>), blocks, kPointThreads, 0, as_stream(stream), keys, in,
                m, per, true, out, pkeys, pvals);
  return cudaGetLastError();
}

template <class F>
int launch_sum_partials(const uint32_t* keys, const DevXyzz<F>* vals, uint32_t m, uint32_t per, bool exact,
                        DevXyzz<F>* out, uint32_t* pkeys, DevXyzz<F>* pvals, void* stream) {
  if (m == 0) return cudaSuccess;
  const XyzzInput<F> in{vals};
  CUZK_LAUNCH((k_segmented_sum<F, XyzzInput<F>>), blocks_for((uint64_t(m) + per - 1) / per, kPointThreads),
              kPointThreads, 0, as_stream(stream), keys, in, m, per, exact, out, pkeys, pvals);
  return cudaGetLastError();
}

template <class F>
int launch_window_segments(const DevXyzz<F>* buckets, Windows win, uint32_t per, uint32_t segs,
                           uint32_t* out_keys, DevXyzz<F>* out_vals, void* stream) {
  if (win.W * segs == 0) return cudaSuccess;
  CUZK_LAUNCH(k_window_segments<F>, blocks_for(uint64_t(win.W) * segs, kPointThreads), kPointThreads, 0,
              as_stream(stream), buckets, win, per, segs, out_keys, out_vals);
  return cudaGetLastError();
}

template <class F>
int launch_ec_op(EcOp op, const DevXyzz<F>* a, const DevXyzz<F>* b, const DevAffine<F>* q, const uint32_t* k,
                 DevXyzz<F>* r, uint32_t n, void* stream) {
  if (n == 0) return cudaSuccess;
  CUZK_LAUNCH(k_ec_op<F>, blocks_for(n, kPointThreads), kPointThreads, 0, as_stream(stream), op, a, b, q, k,
              r, n);
  return cudaGetLastError();
}

#define CUZK_MSM_INSTANTIATE(F)                                                                     \
  template int launch_sum_pairs<F>(const uint32_t*, const uint32_t*, const DevAffine<F>*, uint32_t, \
                                   uint32_t, unsigned, DevXyzz<F>*, uint32_t*, DevXyzz<F>*, void*); \
  template int launch_sum_partials<F>(const uint32_t*, const DevXyzz<F>*, uint32_t, uint32_t, bool, \
                                      DevXyzz<F>*, uint32_t*, DevXyzz<F>*, void*);                  \
  template int launch_window_segments<F>(const DevXyzz<F>*, Windows, uint32_t, uint32_t, uint32_t*, \
                                         DevXyzz<F>*, void*);                                       \
  template int launch_ec_op<F>(EcOp, const DevXyzz<F>*, const DevXyzz<F>*, const DevAffine<F>*,     \
                               const uint32_t*, DevXyzz<F>*, uint32_t, void*);
CUZK_MSM_INSTANTIATE(DevFp)
CUZK_MSM_INSTANTIATE(DevFp2)
#undef CUZK_MSM_INSTANTIATE

}  // namespace msm_dev
CUZK_CUDA_NAMESPACE_END
