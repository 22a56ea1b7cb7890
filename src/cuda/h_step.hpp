#pragma once
// The QAP step on a device: H from the evaluations of A·w, B·w, C·w, as
// device::qap::compute_h does it on the CPU (device/qap.hpp), bit for bit:
//   to the coset, each of a, b, c: DIF inverse transform (natural in,
//     bit-reversed out), · shift^j / n, DIT forward transform (bit-reversed
//     in, natural out) — the middle pass fuses all three;
//   a·b − c pointwise;
//   coset_values: that, out of Montgomery form;
//   h_coefficients: DIF inverse transform with · shift^-j / (n·Z) fused into
//     its last pass, then h_j = a[brev(j)] out of Montgomery form, j < n − 1.
// No bit-reversal pass over a, b or c. Memory: a, b and c (the caller's) and
// twiddle tables of 32·n bytes (both directions), plus the output.
#include <cstdint>
#include <span>

#include "arith/limbs.hpp"
#include "cuda/device.hpp"
#include "device/backend.hpp"

CUZK_CUDA_NAMESPACE_BEGIN

class DeviceHStep {
 public:
  // Tables for `step` on `device` (synchronous). Throws std::invalid_argument
  // for log_n > 30 or a coset shift inside the domain, cuda::Error on CUDA
  // failures.
  DeviceHStep(const device::HStep& step, int device);

  unsigned log_n() const { return log_n_; }
  size_t size() const { return size_t(1) << log_n_; }
  // Scalars written by run(): n - 1 (h_coefficients) or n (coset_values).
  size_t output_size() const;
  uint64_t device_bytes() const {
    return tw_fwd_.bytes() + tw_inv_.bytes() + tab_fwd_.bytes() + tab_back_.bytes();
  }
  bool same_shape(const device::HStep& step) const;

  // a, b, c: size() elements each in device memory (Montgomery form),
  // overwritten; out: output_size() canonical scalars in device memory,
  // apart from a, b, c. Asynchronous on `stream` (a cudaStream_t).
  void run(ff::Fr* a, ff::Fr* b, ff::Fr* c, arith::Limbs<4>* out, void* stream) const;
  // run() in two parts, so that a caller can start each vector's transform
  // as soon as that vector is on the device: to_coset() for each of a, b, c
  // (in place), then finish().
  void to_coset(ff::Fr* v, void* stream) const;
  void finish(ff::Fr* a, const ff::Fr* b, const ff::Fr* c, arith::Limbs<4>* out, void* stream) const;

 private:
  unsigned log_n_;
  int device_;
  ff::Fr root_2_32_, shift_;
  device::qap::Coset::Output output_;
  ff::Fr n_inv_, back_scale_;  // 1/n and 1/(n·Z)
  unsigned k0_ = 0;            // stages of the first pass
  DeviceBuffer tw_fwd_, tw_inv_, tab_fwd_, tab_back_;
};

// Milliseconds (CUDA events) of one H step over 2^log_n (bellperson's coset
// and coefficients) with a, b, c resident, best of `reps` after a warm-up,
// and of copying a, b, c to the device from pageable host memory.
struct HTiming {
  double h_ms = 0, upload_ms = 0;
};
HTiming time_h(unsigned log_n, int reps, int device = 0);

CUZK_CUDA_NAMESPACE_END
