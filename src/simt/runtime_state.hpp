#pragma once
// The runtime's bookkeeping, shared by its two halves: runtime.cpp (errors,
// devices, streams, events, kernel attributes) and runtime_memory.cpp
// (allocations, copies, memsets, symbols). One mutex guards it. Internal to
// those two files; launches reach it through simt/state.hpp.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <string>

#include "simt/runtime.hpp"
#include "simt/state.hpp"

namespace cuzk::simt {

struct Stream {
  int device;
  unsigned flags;
};

struct Event {
  int device;
  unsigned flags;
  bool recorded = false;
  std::chrono::steady_clock::time_point at{};
};

namespace bookkeeping {

enum class AllocKind { device, pinned, registered };

struct Alloc {
  size_t bytes;
  int device;
  AllocKind kind;
};

struct DeviceState {
  uint64_t used = 0;
  cuda_api::cudaError_t sticky = cuda_api::cudaSuccess;
};

struct Runtime {
  std::mutex m;
  std::map<uintptr_t, Alloc> allocs;  // by start address
  DeviceState devices[detail::kMaxDevices];
  std::set<Stream*> streams;
  std::set<Event*> events;
  std::map<const void*, size_t> max_dynamic_shared;
  std::string last_failure;
  std::deque<std::string>
      failure_texts;  // what cudaGetErrorString returned (kept: callers hold the pointers)
};

Runtime& rt();  // never destroyed: used until the process ends

// The calling host thread's current device (cudaSetDevice).
extern constinit thread_local int tl_device;

// Records `e` as the thread's last error (cudaGetLastError) and returns it.
inline cuda_api::cudaError_t fail(cuda_api::cudaError_t e) { return detail::set_last_error(e); }

}  // namespace bookkeeping
}  // namespace cuzk::simt
