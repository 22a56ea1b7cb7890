#pragma once
// The CPU backend: a "device" whose device phase runs on a dedicated oneTBB
// arena (gpus.gpu_threads), isolated from the synthesis pool.
#include <memory>
#include <string>

#include <oneapi/tbb/task_arena.h>

#include "engine/backend.hpp"

namespace cuzk::engine {

// `threads` = 0 means every CPU (std::thread::hardware_concurrency).
unsigned resolve_threads(unsigned threads);

class CpuDevice final : public Device {
 public:
  // threads = 0: all CPUs.
  CpuDevice(uint32_t ordinal, unsigned threads);
  uint32_t ordinal() const override { return ordinal_; }
  std::string name() const override { return name_; }
  uint64_t memory_total_bytes() const override;
  uint64_t memory_free_bytes() const override;
  bool host_memory() const override { return true; }
  tbb::task_arena& arena() override { return arena_; }

 private:
  uint32_t ordinal_;
  std::string name_;
  tbb::task_arena arena_;
};

}  // namespace cuzk::engine
