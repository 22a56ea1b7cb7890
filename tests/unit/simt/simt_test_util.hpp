#pragma once
// Helpers of the emulator's tests: kernels are written as in CUDA (the
// emulator's CUDA names via the using-directive) and launched with LAUNCH,
// the emulator's spelling of kernel<<<grid, block, shared, stream>>>(args).
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "simt/cuda_shim.hpp"

namespace cuzk::simt::test {

using namespace ::cuzk::simt::cuda_api;

#define LAUNCH(kernel, grid, block, shared, stream, ...)                                                  \
  ::cuzk::simt::launch_kernel(#kernel, kernel, ::cuzk::simt::dim3_of(grid), ::cuzk::simt::dim3_of(block), \
                              (shared), (stream)__VA_OPT__(, ) __VA_ARGS__)

// Device memory holding n values of T, copied back with host().
template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(size_t n) : n_(n) { EXPECT_EQ(cudaMalloc(&p_, n * sizeof(T)), cudaSuccess); }
  explicit DeviceArray(const std::vector<T>& v) : DeviceArray(v.size()) {
    EXPECT_EQ(cudaMemcpy(p_, v.data(), n_ * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  }
  ~DeviceArray() { (void)cudaFree(p_); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  T* get() const { return p_; }
  std::vector<T> host() const {
    std::vector<T> v(n_);
    EXPECT_EQ(cudaMemcpy(v.data(), p_, n_ * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return v;
  }

 private:
  T* p_ = nullptr;
  size_t n_;
};

// A kernel failure is sticky (as a GPU fault): tests that provoke one reset
// the device afterwards so that the next test starts clean.
struct ResetAfter {
  ~ResetAfter() { (void)cudaDeviceReset(); }
};

}  // namespace cuzk::simt::test
