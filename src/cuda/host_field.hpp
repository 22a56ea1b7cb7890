#pragma once
// Host-side helpers of the CUDA layer's C++ files: field elements as the
// device reads them (the same bits: cuda/params_check.cpp) and power tables
// for the kernels that compute g^i.
#include <cstring>

#include "cuda/ntt_steps.cuh"
#include "ff/bls12_381.hpp"

CUZK_CUDA_NAMESPACE_BEGIN
namespace detail {

inline DevFr to_dev(const ff::Fr& x) {
  DevFr d;
  std::memcpy(d.l, x.v.data(), sizeof d.l);
  return d;
}
inline DevFr* dev_ptr(void* p) { return static_cast<DevFr*>(p); }
inline DevFr* dev_ptr(ff::Fr* p) { return reinterpret_cast<DevFr*>(p); }
inline const DevFr* dev_ptr(const ff::Fr* p) { return reinterpret_cast<const DevFr*>(p); }

// pw[b] = g^(2^b).
inline steps::PowTable pow_table(const ff::Fr& g) {
  steps::PowTable t;
  ff::Fr x = g;
  for (int b = 0; b < 32; b++) {
    t.pw[b] = to_dev(x);
    x = x.square();
  }
  return t;
}

}  // namespace detail
CUZK_CUDA_NAMESPACE_END
