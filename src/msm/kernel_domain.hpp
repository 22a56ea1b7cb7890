#pragma once
// Which kernels run the batch-affine additions, and the moves of points into
// and out of the form the IFMA kernels add (their Montgomery domain, radix
// 2^416, on an isomorphic curve whose x needs no conversion: see
// ifma_kernels.hpp). With the scalar kernels the points stay as they are.
#include <cstddef>
#include <cstdint>

#include "msm/batch_affine.hpp"
#include "msm/ifma_kernels.hpp"

namespace cuzk::msm::detail {

// Scalar: one addition at a time (the field layer's MULX kernels where the
// CPU has them). Ifma: eight at a time on AVX-512 IFMA, with the points in
// the kernels' domain.
enum class Kernels { Scalar, Ifma };

template <class C>
inline constexpr size_t kFpPerPoint = sizeof(Pt<C>) / sizeof(ff::Fp);

// In place.
template <class C>
inline void to_kernel_domain(Kernels k, Pt<C>* p, size_t n) {
  if (k == Kernels::Ifma) ifma::points_to_domain(reinterpret_cast<uint64_t*>(p), n, kFpPerPoint<C>);
}
template <class C>
inline void from_kernel_domain(Kernels k, Pt<C>* p, size_t n) {
  if (k == Kernels::Ifma) ifma::points_from_domain(reinterpret_cast<uint64_t*>(p), n, kFpPerPoint<C>);
}

}  // namespace cuzk::msm::detail
