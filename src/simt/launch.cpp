// Launch checks and the spread of a grid's blocks over host threads.
#include "simt/launch.hpp"

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>
#include <oneapi/tbb/task_arena.h>

#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <string>

#include "simt/block.hpp"
#include "simt/state.hpp"

namespace cuzk::simt {

using namespace cuda_api;

namespace {

// The arena that runs blocks, rebuilt when the number of host threads
// changes. More threads than oneTBB's default (the cores) need its global
// limit raised too, or the arena would get fewer workers than it has slots.
std::shared_ptr<tbb::task_arena> arena(unsigned threads) {
  static std::mutex m;
  static std::shared_ptr<tbb::task_arena> a;
  static std::unique_ptr<tbb::global_control> limit;
  std::lock_guard lock(m);
  if (!a || unsigned(a->max_concurrency()) != threads) {
    if (threads > unsigned(tbb::info::default_concurrency()))
      limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, threads);
    else limit.reset();
    a = std::make_shared<tbb::task_arena>(int(threads));
  }
  return a;
}

cudaError_t check_config(dim3 grid, dim3 block, size_t shared_bytes, const void* key) {
  const uint64_t threads = uint64_t(block.x) * block.y * block.z;
  if (block.x == 0 || block.y == 0 || block.z == 0 || block.x > 1024 || block.y > 1024 || block.z > 64 ||
      threads > detail::kMaxThreadsPerBlock)
    return cudaErrorInvalidConfiguration;
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || grid.x > uint64_t(std::numeric_limits<int32_t>::max()) ||
      grid.y > 65535 || grid.z > 65535)
    return cudaErrorInvalidConfiguration;
  if (shared_bytes > detail::max_dynamic_shared(key)) return cudaErrorInvalidValue;
  return cudaSuccess;
}

}  // namespace

cudaError_t launch_body(const char* name, const void* key, dim3 grid, dim3 block, size_t dynamic_shared_bytes,
                        cudaStream_t stream, KernelBody body) {
  const detail::Settings& s = detail::settings();
  if (detail::in_block()) return detail::set_last_error(cudaErrorNotSupported);  // no dynamic parallelism
  int device = 0;
  if (const cudaError_t e = detail::stream_device(stream, &device); e != cudaSuccess)
    return detail::set_last_error(e);
  if (const cudaError_t e = check_config(grid, block, dynamic_shared_bytes, key); e != cudaSuccess)
    return detail::set_last_error(e);
  if (const cudaError_t e = detail::sticky_error(device); e != cudaSuccess) return detail::set_last_error(e);

  const detail::BlockLaunch launch{name, body, grid, block, dynamic_shared_bytes};
  const uint64_t total = uint64_t(grid.x) * grid.y * grid.z;
  std::atomic<bool> failed{false};
  std::mutex failure_mutex;
  uint64_t failed_block = std::numeric_limits<uint64_t>::max();
  std::string failure;
  auto run = [&](uint64_t lo, uint64_t hi) {
    std::string why;
    for (uint64_t i = lo; i < hi && !failed.load(std::memory_order_relaxed); i++) {
      const uint3 idx{unsigned(i % grid.x), unsigned((i / grid.x) % grid.y),
                      unsigned(i / (uint64_t(grid.x) * grid.y))};
      if (!detail::run_block(launch, idx, &why)) {
        std::lock_guard lock(failure_mutex);
        if (i < failed_block) {
          failed_block = i;
          failure = why;
        }
        failed = true;
        return;
      }
    }
  };
  const unsigned threads = s.host_threads.load();
  if (total == 1 || threads == 1) {
    run(0, total);
  } else {
    const uint64_t grain = std::max<uint64_t>(1, total / (uint64_t(threads) * 8));
    arena(threads)->execute([&] {
      tbb::parallel_for(
          tbb::blocked_range<uint64_t>(0, total, grain),
          [&](const tbb::blocked_range<uint64_t>& r) { run(r.begin(), r.end()); }, tbb::simple_partitioner());
    });
  }
  if (failed) {
    detail::record_kernel_failure(device, failure);
    return detail::set_last_error(cudaErrorLaunchFailure);
  }
  return cudaSuccess;
}

}  // namespace cuzk::simt
