#pragma once
// State shared by the emulator's own files (not for kernels): the settings of
// simt/control.hpp and the runtime's bookkeeping that launches consult.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "simt/fiber.hpp"
#include "simt/runtime.hpp"

namespace cuzk::simt::detail {

constexpr int kMaxDevices = 16;
constexpr size_t kSharedPerBlock = 48 * 1024;        // without opt-in
constexpr size_t kSharedPerBlockOptin = 227 * 1024;  // sm_90
constexpr size_t kSharedPerMultiprocessor = 228 * 1024;
constexpr unsigned kMaxThreadsPerBlock = 1024;

struct Settings {
  std::atomic<uint64_t> memory_limit;
  std::atomic<int> devices;
  std::atomic<unsigned> host_threads;  // resolved: never 0
  std::atomic<size_t> stack_bytes;
  std::atomic<SwitchKind> fiber_switch;
};
Settings& settings();  // the environment is read on the first call

// runtime.cpp
cuda_api::cudaError_t set_last_error(cuda_api::cudaError_t e);  // returns e
// The device a stream belongs to (the current device for the default
// streams); cudaErrorInvalidResourceHandle for an unknown stream.
cuda_api::cudaError_t stream_device(cuda_api::cudaStream_t s, int* device);
cuda_api::cudaError_t sticky_error(int device);
void record_kernel_failure(int device, const std::string& why);
size_t max_dynamic_shared(const void* kernel_key);

}  // namespace cuzk::simt::detail
