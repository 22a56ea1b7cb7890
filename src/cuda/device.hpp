#pragma once
// CUDA devices as plain C++ (no CUDA headers): discovery, names, memory, and
// the error type the cuda layer throws.
//
// device_count() is the one call that must work everywhere: on a machine
// without the driver (libcuda missing: cudaErrorInsufficientDriver) or
// without a GPU (cudaErrorNoDevice) it returns 0 and never throws, so that a
// CUDA-enabled build runs unchanged on CPU-only machines.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/namespace.hpp"

CUZK_CUDA_NAMESPACE_BEGIN

class Error : public std::runtime_error {
 public:
  Error(int code, const std::string& what);
  int code() const { return code_; }

 private:
  int code_;
};

// Throws Error("<what>: <cudaGetErrorString>") unless code == 0 (cudaSuccess).
void check(int code, const char* what);

int device_count() noexcept;

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  uint64_t total_bytes = 0;
  int sm_major = 0, sm_minor = 0;  // compute capability (9.0 = H100/H200)
  int multiprocessors = 0;
};
DeviceInfo device_info(int ordinal);  // throws Error
std::vector<DeviceInfo> devices();    // empty when device_count() == 0

struct MemInfo {
  uint64_t free_bytes = 0, total_bytes = 0;
};
MemInfo mem_info(int ordinal);  // throws Error

// "13.0" style versions; "" when unavailable (no driver).
std::string runtime_version();
std::string driver_version();

// Device memory on the current device, freed on destruction (move-only).
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t bytes);  // throws Error
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& o) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void* get() const { return p_; }
  size_t bytes() const { return bytes_; }
  // Synchronous copies of `bytes` (<= bytes()) from / to host memory.
  void upload(const void* host, size_t bytes);
  void download(void* host, size_t bytes) const;

 private:
  void* p_ = nullptr;
  size_t bytes_ = 0;
};

// cudaDeviceSynchronize on the current device; throws Error on a kernel fault.
void synchronize();
// cudaSetDevice; throws Error.
void set_device(int ordinal);

CUZK_CUDA_NAMESPACE_END
