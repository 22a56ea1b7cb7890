#pragma once
// Host-to-device copies through pinned staging memory, overlapped with the
// device's work. A copy from pageable host memory (the prover's vectors)
// goes in chunks: the host copies chunk i into one of two pinned buffers
// (several threads at once) while the DMA engine moves chunk i-1 from the
// other, on a copy stream; an event after the last chunk is what the
// compute stream waits for. Pageable copies run at a fraction of the bus's
// bandwidth; a 32 GiB PoRep partition moves about 17 GB (a, b, c and the
// witness) per device phase. Plain C++ header (cudaStream_t/cudaEvent_t as
// void*).
#include <cstddef>
#include <cstdint>
#include <mutex>

#include "cuda/device.hpp"

CUZK_CUDA_NAMESPACE_BEGIN

// A CUDA stream and an event on the current device, owned (move-only).
class Stream {
 public:
  Stream();  // non-blocking with respect to the legacy default stream
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  void* get() const { return s_; }
  void synchronize() const;

 private:
  void* s_ = nullptr;
};

class Event {
 public:
  Event();  // without timing
  ~Event();
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  void record(void* stream);
  // `stream` waits (on the device) until the last record() has completed.
  void wait_on(void* stream) const;
  void synchronize() const;

 private:
  void* e_ = nullptr;
};

class Stager {
 public:
  // Two pinned buffers of `chunk_bytes` on the current device's context;
  // without pinned memory (cudaMallocHost failing) copies go unstaged.
  explicit Stager(size_t chunk_bytes = size_t(64) << 20);
  ~Stager();
  Stager(const Stager&) = delete;
  Stager& operator=(const Stager&) = delete;

  // Copies `bytes` from host memory to device memory on `stream`, then
  // records `done` on it. Returns when the host memory may be reused (its
  // bytes are in pinned memory or on the device); the device-side copy may
  // still be running. Thread-safe (one copy at a time).
  void upload(void* device_dst, const void* host_src, size_t bytes, void* stream, Event& done);

 private:
  std::mutex mu_;
  size_t chunk_;
  void* pinned_[2] = {nullptr, nullptr};
  Event free_[2];  // buffer k's last DMA finished
};

CUZK_CUDA_NAMESPACE_END
