#include "engine/cpu_device.hpp"

#include <unistd.h>

#include <thread>

#include "engine/memory_budget.hpp"

namespace cuzk::engine {

unsigned resolve_threads(unsigned t) {
  unsigned hw = std::thread::hardware_concurrency();
  return t ? t : (hw ? hw : 1);
}

CpuDevice::CpuDevice(uint32_t ordinal, unsigned threads)
    : ordinal_(ordinal),
      name_("cpu" + std::to_string(ordinal) + " (" + std::to_string(resolve_threads(threads)) + " threads)"),
      arena_(int(resolve_threads(threads))) {}

uint64_t CpuDevice::memory_total_bytes() const { return usable_memory_bytes(); }

uint64_t CpuDevice::memory_free_bytes() const {
  long pages = ::sysconf(_SC_AVPHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : 0;
}

}  // namespace cuzk::engine
