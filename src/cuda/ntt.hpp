#pragma once
// NTT/iNTT over Fr on a CUDA device, with ntt::'s conventions (ntt/ntt.hpp):
// natural order in and out, omega of the size-n subgroup derived from
// ntt::root_of_unity_2_32(), the inverse scaled by 1/n, cosets g*H with
// g = 7. Data are ff::Fr as they are in host memory (Montgomery form, R =
// 2^256), which a DevFr reads bit for bit (cuda/fp_device.cuh).
//
// The twiddle tables (omega^i and omega^-i, i < n/2: 16*n bytes) are made on
// the device from 32 host-computed powers omega^(2^b), so a domain costs no
// host work proportional to n and no large copy.
#include <cstdint>
#include <span>

#include "cuda/device.hpp"
#include "cuda/namespace.hpp"
#include "ff/bls12_381.hpp"

CUZK_CUDA_NAMESPACE_BEGIN

class DeviceNttDomain {
 public:
  // 1 <= log_n <= 30 (std::invalid_argument otherwise); allocates and fills
  // the twiddles on `device` (throws Error).
  explicit DeviceNttDomain(unsigned log_n, int device = 0);

  unsigned log_size() const { return log_n_; }
  size_t size() const { return size_t(1) << log_n_; }
  int device() const { return device_; }

  // In place on device memory: `d` points to size() elements in device
  // memory of this domain's device. Asynchronous on `stream` (a cudaStream_t;
  // null = the default stream); throws Error when a launch fails.
  void forward(ff::Fr* d, void* stream = nullptr) const;
  void inverse(ff::Fr* d, void* stream = nullptr) const;
  void coset_forward(ff::Fr* d, void* stream = nullptr) const;
  void coset_inverse(ff::Fr* d, void* stream = nullptr) const;

 private:
  enum class Kind { forward, inverse, coset_forward, coset_inverse };
  void run(Kind k, ff::Fr* d, void* stream) const;

  unsigned log_n_;
  int device_;
  DeviceBuffer tw_fwd_, tw_inv_;
  // 1/n and the coset generator g = 7 and 1/g, from ntt::Domain.
  ff::Fr n_inv_, g_, g_inv_;
};

// Host conveniences (synchronous): copy in, transform, copy out.
// a.size() must be a power of two >= 2 (std::invalid_argument otherwise).
void ntt_forward(std::span<ff::Fr> a, int device = 0);
void ntt_inverse(std::span<ff::Fr> a, int device = 0);
void ntt_coset_forward(std::span<ff::Fr> a, int device = 0);
void ntt_coset_inverse(std::span<ff::Fr> a, int device = 0);

// Milliseconds (CUDA events) of one device-resident transform of size
// 2^log_n, best of `reps` after a warm-up, and of the copies of its data
// (pageable host memory).
struct NttTiming {
  double forward_ms = 0, inverse_ms = 0, coset_forward_ms = 0, h2d_ms = 0, d2h_ms = 0;
};
NttTiming time_ntt(unsigned log_n, int reps, int device = 0);

CUZK_CUDA_NAMESPACE_END
