#pragma once
// The engine's view of one CUDA GPU (engine::Device over cuda::). Header-only
// on purpose: src/engine/*.cpp is globbed into cuzk_engine in every build,
// and this adapter must exist only in builds with CUDA (cmake/cuda.cmake
// defines CUZK_HAVE_CUDA and cuzk_cuda). Nothing includes it yet; the engine
// will construct one per selected GPU (issue 20) instead of CpuDevice.
#include <cstdint>
#include <string>

#include <oneapi/tbb/task_arena.h>

#include "cuda/device.hpp"
#include "engine/backend.hpp"

namespace cuzk::engine {

class CudaDevice final : public Device {
 public:
  // `ordinal`: the engine's device number; `cuda_ordinal`: the CUDA device
  // (after CUDA_VISIBLE_DEVICES); `host_threads`: the arena for the CPU work
  // around the GPU phase (gpus.gpu_threads; 0 = oneTBB's default).
  CudaDevice(uint32_t ordinal, int cuda_ordinal, unsigned host_threads)
      : ordinal_(ordinal),
        cuda_ordinal_(cuda_ordinal),
        info_(cuda::device_info(cuda_ordinal)),
        arena_(host_threads == 0 ? tbb::task_arena::automatic : int(host_threads)) {}

  uint32_t ordinal() const override { return ordinal_; }
  int cuda_ordinal() const { return cuda_ordinal_; }
  std::string name() const override { return info_.name; }
  uint64_t memory_total_bytes() const override { return info_.total_bytes; }
  uint64_t memory_free_bytes() const override { return cuda::mem_info(cuda_ordinal_).free_bytes; }
  bool host_memory() const override { return false; }
  tbb::task_arena& arena() override { return arena_; }

 private:
  uint32_t ordinal_;
  int cuda_ordinal_;
  cuda::DeviceInfo info_;
  tbb::task_arena arena_;
};

}  // namespace cuzk::engine
