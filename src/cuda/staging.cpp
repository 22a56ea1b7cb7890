#include "cuda/staging.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>

#include "cuda/compat.cuh"

CUZK_CUDA_NAMESPACE_BEGIN
namespace {

cudaStream_t as_stream(void* s) { return static_cast<cudaStream_t>(s); }
cudaEvent_t as_event(void* e) { return static_cast<cudaEvent_t>(e); }

// memcpy over the calling arena's threads, in 4 MiB pieces.
void parallel_copy(void* dst, const void* src, size_t bytes) {
  constexpr size_t kPiece = size_t(4) << 20;
  const size_t pieces = (bytes + kPiece - 1) / kPiece;
  tbb::parallel_for(tbb::blocked_range<size_t>(0, pieces, 1), [&](const tbb::blocked_range<size_t>& r) {
    for (size_t i = r.begin(); i < r.end(); i++) {
      const size_t off = i * kPiece, len = std::min(kPiece, bytes - off);
      std::memcpy(static_cast<char*>(dst) + off, static_cast<const char*>(src) + off, len);
    }
  });
}

}  // namespace

Stream::Stream() {
  cudaStream_t s = nullptr;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
  s_ = s;
}
Stream::~Stream() {
  if (s_) (void)cudaStreamDestroy(as_stream(s_));
}
void Stream::synchronize() const { check(cudaStreamSynchronize(as_stream(s_)), "cudaStreamSynchronize"); }

Event::Event() {
  cudaEvent_t e = nullptr;
  check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreateWithFlags");
  e_ = e;
}
Event::~Event() {
  if (e_) (void)cudaEventDestroy(as_event(e_));
}
void Event::record(void* stream) {
  check(cudaEventRecord(as_event(e_), as_stream(stream)), "cudaEventRecord");
}
void Event::wait_on(void* stream) const {
  check(cudaStreamWaitEvent(as_stream(stream), as_event(e_), 0), "cudaStreamWaitEvent");
}
void Event::synchronize() const { check(cudaEventSynchronize(as_event(e_)), "cudaEventSynchronize"); }

Stager::Stager(size_t chunk_bytes) : chunk_(chunk_bytes) {
  for (void*& p : pinned_)
    if (cudaMallocHost(&p, chunk_) != cudaSuccess) {
      (void)cudaGetLastError();
      p = nullptr;
    }
}

Stager::~Stager() {
  for (void* p : pinned_)
    if (p) (void)cudaFreeHost(p);
}

void Stager::upload(void* device_dst, const void* host_src, size_t bytes, void* stream, Event& done) {
  std::lock_guard lk(mu_);
  if (!pinned_[0] || !pinned_[1]) {
    check(cudaMemcpyAsync(device_dst, host_src, bytes, cudaMemcpyHostToDevice, as_stream(stream)),
          "cudaMemcpyAsync (unstaged)");
    done.record(stream);
    return;
  }
  for (size_t off = 0, k = 0; off < bytes; off += chunk_, k ^= 1) {
    const size_t len = std::min(chunk_, bytes - off);
    free_[k].synchronize();  // its previous DMA has read it
    parallel_copy(pinned_[k], static_cast<const char*>(host_src) + off, len);
    check(cudaMemcpyAsync(static_cast<char*>(device_dst) + off, pinned_[k], len, cudaMemcpyHostToDevice,
                          as_stream(stream)),
          "cudaMemcpyAsync (staged)");
    free_[k].record(stream);
  }
  done.record(stream);
}

CUZK_CUDA_NAMESPACE_END
