// The memory half of the emulator's runtime API (simt/runtime.hpp):
// cudaMalloc and friends (device memory is host memory, counted against the
// device's limit), pinned and registered host memory, copies and memsets
// checked against the allocations they touch, and symbol copies.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "simt/control.hpp"
#include "simt/runtime_state.hpp"

namespace cuzk::simt {

using namespace cuda_api;
using namespace bookkeeping;

namespace {

// The allocation holding [p, p + n), or null.
const Alloc* find(const Runtime& r, const void* p, size_t n) {
  const auto a = reinterpret_cast<uintptr_t>(p);
  auto it = r.allocs.upper_bound(a);
  if (it == r.allocs.begin()) return nullptr;
  --it;
  if (a - it->first >= std::max<size_t>(it->second.bytes, 1)) return nullptr;
  if (n > it->second.bytes - (a - it->first)) return nullptr;
  return &it->second;
}
bool is_device(const Runtime& r, const void* p, size_t n) {
  const Alloc* a = find(r, p, n);
  return a && a->kind == AllocKind::device;
}
bool in_device(const Runtime& r, const void* p) {
  const Alloc* a = find(r, p, 1);
  return a && a->kind == AllocKind::device;
}

// Each side of a copy where `kind` says it is.
bool copy_sides_ok(const Runtime& r, void* dst, const void* src, size_t n, cudaMemcpyKind kind) {
  switch (kind) {
    case cudaMemcpyHostToHost: return !in_device(r, dst) && !in_device(r, src);
    case cudaMemcpyHostToDevice: return is_device(r, dst, n) && !in_device(r, src);
    case cudaMemcpyDeviceToHost: return !in_device(r, dst) && is_device(r, src, n);
    case cudaMemcpyDeviceToDevice: return is_device(r, dst, n) && is_device(r, src, n);
    case cudaMemcpyDefault:
      return (!in_device(r, dst) || is_device(r, dst, n)) && (!in_device(r, src) || is_device(r, src, n));
  }
  return false;
}

bool valid_kind(cudaMemcpyKind kind) { return kind >= cudaMemcpyHostToHost && kind <= cudaMemcpyDefault; }

cudaError_t host_alloc(void** ptr, size_t bytes, AllocKind kind) {
  if (!ptr) return fail(cudaErrorInvalidValue);
  *ptr = nullptr;
  if (bytes == 0) return cudaSuccess;
  void* p = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
  if (!p) return fail(cudaErrorMemoryAllocation);
  Runtime& r = rt();
  std::lock_guard lock(r.m);
  r.allocs[reinterpret_cast<uintptr_t>(p)] = {bytes, tl_device, kind};
  *ptr = p;
  return cudaSuccess;
}

cudaError_t copy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, cudaStream_t stream) {
  if (!valid_kind(kind)) return fail(cudaErrorInvalidMemcpyDirection);
  int device = tl_device;
  if (const cudaError_t e = detail::stream_device(stream, &device); e != cudaSuccess) return fail(e);
  if (const cudaError_t e = detail::sticky_error(device); e != cudaSuccess) return fail(e);
  if (bytes == 0) return cudaSuccess;
  if (!dst || !src) return fail(cudaErrorInvalidValue);
  {
    Runtime& r = rt();
    std::lock_guard lock(r.m);
    if (!copy_sides_ok(r, dst, src, bytes, kind)) return fail(cudaErrorInvalidValue);
  }
  std::memmove(dst, src, bytes);
  return cudaSuccess;
}

cudaError_t set(void* dst, int value, size_t bytes, cudaStream_t stream) {
  int device = tl_device;
  if (const cudaError_t e = detail::stream_device(stream, &device); e != cudaSuccess) return fail(e);
  if (const cudaError_t e = detail::sticky_error(device); e != cudaSuccess) return fail(e);
  if (bytes == 0) return cudaSuccess;
  {
    Runtime& r = rt();
    std::lock_guard lock(r.m);
    if (!is_device(r, dst, bytes)) return fail(cudaErrorInvalidValue);
  }
  std::memset(dst, value, bytes);
  return cudaSuccess;
}

}  // namespace

uint64_t device_memory_used(int device) {
  if (device < 0 || device >= detail::kMaxDevices) return 0;
  Runtime& r = rt();
  std::lock_guard lock(r.m);
  return r.devices[device].used;
}

namespace cuda_api {

// ---- memory ---------------------------------------------------------------------------
cudaError_t cudaMalloc(void** ptr, size_t bytes) {
  if (!ptr) return fail(cudaErrorInvalidValue);
  *ptr = nullptr;
  const int device = tl_device;
  if (const cudaError_t e = detail::sticky_error(device); e != cudaSuccess) return fail(e);
  if (bytes == 0) return cudaSuccess;
  Runtime& r = rt();
  std::lock_guard lock(r.m);
  DeviceState& d = r.devices[device];
  const uint64_t limit = device_memory_limit();
  if (bytes > limit || d.used > limit - bytes) return fail(cudaErrorMemoryAllocation);
  // 256-byte aligned, as cudaMalloc guarantees.
  void* p = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (!p) return fail(cudaErrorMemoryAllocation);
  r.allocs[reinterpret_cast<uintptr_t>(p)] = {bytes, device, AllocKind::device};
  d.used += bytes;
  *ptr = p;
  return cudaSuccess;
}

cudaError_t cudaFree(void* ptr) {
  if (!ptr) return cudaSuccess;
  Runtime& r = rt();
  cudaError_t sticky = cudaSuccess;
  {
    std::lock_guard lock(r.m);
    const auto it = r.allocs.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == r.allocs.end() || it->second.kind != AllocKind::device) return fail(cudaErrorInvalidValue);
    DeviceState& d = r.devices[it->second.device];
    d.used -= it->second.bytes;
    sticky = d.sticky;
    r.allocs.erase(it);
  }
  std::free(ptr);
  return sticky == cudaSuccess ? cudaSuccess : fail(sticky);
}

cudaError_t cudaMallocHost(void** ptr, size_t bytes) { return host_alloc(ptr, bytes, AllocKind::pinned); }
cudaError_t cudaMallocHost(void** ptr, size_t bytes, unsigned) {
  return host_alloc(ptr, bytes, AllocKind::pinned);
}
cudaError_t cudaHostAlloc(void** ptr, size_t bytes, unsigned) {
  return host_alloc(ptr, bytes, AllocKind::pinned);
}

cudaError_t cudaFreeHost(void* ptr) {
  if (!ptr) return cudaSuccess;
  Runtime& r = rt();
  {
    std::lock_guard lock(r.m);
    const auto it = r.allocs.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == r.allocs.end() || it->second.kind != AllocKind::pinned) return fail(cudaErrorInvalidValue);
    r.allocs.erase(it);
  }
  std::free(ptr);
  return cudaSuccess;
}

cudaError_t cudaHostRegister(void* ptr, size_t bytes, unsigned) {
  if (!ptr || bytes == 0) return fail(cudaErrorInvalidValue);
  Runtime& r = rt();
  std::lock_guard lock(r.m);
  const auto a = reinterpret_cast<uintptr_t>(ptr);
  // Any overlap with a registered or pinned range is refused.
  auto it = r.allocs.lower_bound(a);
  if (it != r.allocs.end() && it->first < a + bytes) return fail(cudaErrorHostMemoryAlreadyRegistered);
  if (it != r.allocs.begin() && find(r, ptr, 1)) return fail(cudaErrorHostMemoryAlreadyRegistered);
  r.allocs[a] = {bytes, tl_device, AllocKind::registered};
  return cudaSuccess;
}

cudaError_t cudaHostUnregister(void* ptr) {
  Runtime& r = rt();
  std::lock_guard lock(r.m);
  const auto it = r.allocs.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == r.allocs.end() || it->second.kind != AllocKind::registered)
    return fail(cudaErrorHostMemoryNotRegistered);
  r.allocs.erase(it);
  return cudaSuccess;
}

cudaError_t cudaHostGetDevicePointer(void** device_ptr, void* host_ptr, unsigned) {
  if (!device_ptr) return fail(cudaErrorInvalidValue);
  Runtime& r = rt();
  std::lock_guard lock(r.m);
  const Alloc* a = find(r, host_ptr, 1);
  if (!a || a->kind == AllocKind::device) return fail(cudaErrorInvalidValue);
  *device_ptr = host_ptr;
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  return copy(dst, src, bytes, kind, nullptr);
}
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, cudaStream_t s) {
  return copy(dst, src, bytes, kind, s);
}
cudaError_t cudaMemset(void* dst, int value, size_t bytes) { return set(dst, value, bytes, nullptr); }
cudaError_t cudaMemsetAsync(void* dst, int value, size_t bytes, cudaStream_t s) {
  return set(dst, value, bytes, s);
}

cudaError_t memcpy_symbol(void* symbol, size_t symbol_bytes, size_t offset, void* dst, const void* src,
                          size_t bytes, cudaMemcpyKind kind, bool to_symbol, cudaStream_t stream) {
  if (offset > symbol_bytes || bytes > symbol_bytes - offset) return fail(cudaErrorInvalidValue);
  char* sym = static_cast<char*>(symbol) + offset;
  if (to_symbol) {
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
      return fail(cudaErrorInvalidMemcpyDirection);
    return copy(sym, src, bytes, kind == cudaMemcpyHostToDevice ? cudaMemcpyHostToHost : cudaMemcpyDefault,
                stream);
  }
  if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
    return fail(cudaErrorInvalidMemcpyDirection);
  return copy(dst, sym, bytes, kind == cudaMemcpyDeviceToHost ? cudaMemcpyHostToHost : cudaMemcpyDefault,
              stream);
}

}  // namespace cuda_api
}  // namespace cuzk::simt
