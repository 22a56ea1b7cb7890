// The CUDA runtime API of the emulator (simt/runtime.hpp): errors, devices,
// streams, events and kernel attributes; the memory calls are in
// runtime_memory.cpp, the bookkeeping both share (one mutex) in
// runtime_state.hpp. Streams run synchronously.
#include "simt/runtime.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <string>

#include "simt/control.hpp"
#include "simt/runtime_state.hpp"

namespace cuzk::simt {

using namespace cuda_api;

namespace bookkeeping {

Runtime& rt() {
  static Runtime* r = new Runtime;
  return *r;
}

constinit thread_local int tl_device = 0;

}  // namespace bookkeeping

using namespace bookkeeping;

namespace {

constinit thread_local cudaError_t tl_last_error = cudaSuccess;

bool default_stream(cudaStream_t s) {
  return s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread;
}

// A synchronizing call: the device's sticky error, if any.
cudaError_t sync_result(int device) {
  const cudaError_t e = detail::sticky_error(device);
  return e == cudaSuccess ? e : fail(e);
}

struct ErrorText {
  cudaError_t code;
  const char* name;
  const char* text;
};
// Names and descriptions as the CUDA runtime words them.
constexpr ErrorText kErrors[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {cudaErrorInsufficientDriver, "cudaErrorInsufficientDriver",
     "CUDA driver version is insufficient for CUDA runtime version"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorUnsupportedLimit, "cudaErrorUnsupportedLimit", "limit is not supported on this architecture"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources",
     "too many resources requested for launch"},
    {cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {cudaErrorHostMemoryAlreadyRegistered, "cudaErrorHostMemoryAlreadyRegistered",
     "part or all of the requested memory range is already mapped"},
    {cudaErrorHostMemoryNotRegistered, "cudaErrorHostMemoryNotRegistered",
     "pointer does not correspond to a registered memory region"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorNotPermitted, "cudaErrorNotPermitted", "operation not permitted"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};
const ErrorText* error_text(cudaError_t e) {
  for (const ErrorText& t : kErrors)
    if (t.code == e) return &t;
  return nullptr;
}

template <class T>
cudaError_t check_handle(const std::set<T*>& set, T* h) {
  return set.count(h) ? cudaSuccess : cudaErrorInvalidResourceHandle;
}

}  // namespace

// ---- what launches use (simt/state.hpp) ------------------------------------------
namespace detail {

cudaError_t set_last_error(cudaError_t e) {
  if (e != cudaSuccess) tl_last_error = e;
  return e;
}

cudaError_t stream_device(cudaStream_t s, int* device) {
  if (default_stream(s)) {
    *device = tl_device;
    return cudaSuccess;
  }
  Runtime& r = rt();
  std::lock_guard lock(r.m);
  if (!r.streams.count(s)) return cudaErrorInvalidResourceHandle;
  *device = s->device;
  return cudaSuccess;
}

cudaError_t sticky_error(int device) {
  Runtime& r = rt();
  std::lock_guard lock(r.m);
  return r.devices[device].sticky;
}

void record_kernel_failure(int device, const std::string& why) {
  Runtime& r = rt();
  std::lock_guard lock(r.m);
  r.devices[device].sticky = cudaErrorLaunchFailure;
  r.last_failure = why;
}

size_t max_dynamic_shared(const void* key) {
  Runtime& r = rt();
  std::lock_guard lock(r.m);
  const auto it = r.max_dynamic_shared.find(key);
  return it == r.max_dynamic_shared.end() ? kSharedPerBlock : it->second;
}

}  // namespace detail

std::string last_failure() {
  Runtime& r = rt();
  std::lock_guard lock(r.m);
  return r.last_failure;
}

namespace cuda_api {

// ---- errors -----------------------------------------------------------------------
cudaError_t cudaGetLastError() {
  const cudaError_t sticky = detail::sticky_error(tl_device);
  if (sticky != cudaSuccess) return sticky;  // a fault stays until cudaDeviceReset
  const cudaError_t e = tl_last_error;
  tl_last_error = cudaSuccess;
  return e;
}

cudaError_t cudaPeekAtLastError() {
  const cudaError_t sticky = detail::sticky_error(tl_device);
  return sticky != cudaSuccess ? sticky : tl_last_error;
}

const char* cudaGetErrorString(cudaError_t error) {
  const ErrorText* t = error_text(error);
  if (!t) return "unrecognized error code";
  if (error != cudaErrorLaunchFailure) return t->text;
  Runtime& r = rt();
  std::lock_guard lock(r.m);
  if (r.last_failure.empty()) return t->text;
  const std::string text = std::string(t->text) + " (emulated: " + r.last_failure + ")";
  if (r.failure_texts.empty() || r.failure_texts.back() != text) r.failure_texts.push_back(text);
  return r.failure_texts.back().c_str();
}

const char* cudaGetErrorName(cudaError_t error) {
  const ErrorText* t = error_text(error);
  return t ? t->name : "cudaErrorUnknown";
}

// ---- devices --------------------------------------------------------------------
cudaError_t cudaGetDeviceCount(int* count) {
  if (!count) return fail(cudaErrorInvalidValue);
  *count = device_count();
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
  if (device < 0 || device >= device_count()) return fail(cudaErrorInvalidDevice);
  tl_device = device;
  return cudaSuccess;
}

cudaError_t cudaGetDevice(int* device) {
  if (!device) return fail(cudaErrorInvalidValue);
  *device = tl_device;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int device) {
  if (!p) return fail(cudaErrorInvalidValue);
  if (device < 0 || device >= device_count()) return fail(cudaErrorInvalidDevice);
  *p = cudaDeviceProp{};
  std::snprintf(p->name, sizeof p->name, "cuda-emulated (SIMT on %u host threads)", host_threads());
  p->totalGlobalMem = device_memory_limit();
  p->sharedMemPerBlock = detail::kSharedPerBlock;
  p->regsPerBlock = 65536;
  p->warpSize = 32;
  p->memPitch = size_t(1) << 31;
  p->maxThreadsPerBlock = int(detail::kMaxThreadsPerBlock);
  p->maxThreadsDim[0] = 1024;
  p->maxThreadsDim[1] = 1024;
  p->maxThreadsDim[2] = 64;
  p->maxGridSize[0] = 0x7fffffff;
  p->maxGridSize[1] = 65535;
  p->maxGridSize[2] = 65535;
  p->totalConstMem = 65536;
  p->major = 9;
  p->minor = 0;
  p->textureAlignment = 512;
  p->multiProcessorCount = int(host_threads());
  p->canMapHostMemory = 1;
  p->pciBusID = device;
  p->asyncEngineCount = 0;  // copies do not overlap kernels: every stream is synchronous
  p->unifiedAddressing = 1;
  p->memoryBusWidth = 5120;
  p->l2CacheSize = 50 << 20;
  p->maxThreadsPerMultiProcessor = 2048;
  p->sharedMemPerMultiprocessor = detail::kSharedPerMultiprocessor;
  p->regsPerMultiprocessor = 65536;
  p->sharedMemPerBlockOptin = detail::kSharedPerBlockOptin;
  p->maxBlocksPerMultiProcessor = 32;
  p->reservedSharedMemPerBlock = 1024;
  p->hostRegisterSupported = 1;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  if (!value) return fail(cudaErrorInvalidValue);
  cudaDeviceProp p;
  if (const cudaError_t e = cudaGetDeviceProperties(&p, device); e != cudaSuccess) return e;
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = int(p.sharedMemPerBlock); break;
    case cudaDevAttrTotalConstantMemory: *value = int(p.totalConstMem); break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrCanMapHostMemory: *value = p.canMapHostMemory; break;
    case cudaDevAttrConcurrentKernels: *value = p.concurrentKernels; break;
    case cudaDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrAsyncEngineCount: *value = p.asyncEngineCount; break;
    case cudaDevAttrUnifiedAddressing: *value = p.unifiedAddressing; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = int(p.sharedMemPerMultiprocessor); break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; break;
    case cudaDevAttrManagedMemory: *value = p.managedMemory; break;
    case cudaDevAttrCooperativeLaunch: *value = p.cooperativeLaunch; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = int(p.sharedMemPerBlockOptin); break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
    default: return fail(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize() { return sync_result(tl_device); }

cudaError_t cudaDeviceReset() {
  const int device = tl_device;
  Runtime& r = rt();
  std::lock_guard lock(r.m);
  for (auto it = r.allocs.begin(); it != r.allocs.end();) {
    if (it->second.device == device && it->second.kind == AllocKind::device) {
      std::free(reinterpret_cast<void*>(it->first));
      it = r.allocs.erase(it);
    } else {
      ++it;
    }
  }
  for (auto it = r.streams.begin(); it != r.streams.end();) {
    if ((*it)->device == device) {
      delete *it;
      it = r.streams.erase(it);
    } else {
      ++it;
    }
  }
  for (auto it = r.events.begin(); it != r.events.end();) {
    if ((*it)->device == device) {
      delete *it;
      it = r.events.erase(it);
    } else {
      ++it;
    }
  }
  r.devices[device] = DeviceState{};
  r.max_dynamic_shared.clear();
  r.last_failure.clear();
  tl_last_error = cudaSuccess;
  return cudaSuccess;
}

cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value) {
  switch (limit) {
    case cudaLimitStackSize: set_thread_stack_bytes(value); return cudaSuccess;
    case cudaLimitPrintfFifoSize:
    case cudaLimitMallocHeapSize: return cudaSuccess;  // host printf and malloc: no fixed buffers
  }
  return fail(cudaErrorUnsupportedLimit);
}

cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit) {
  if (!value) return fail(cudaErrorInvalidValue);
  switch (limit) {
    case cudaLimitStackSize: *value = thread_stack_bytes(); return cudaSuccess;
    case cudaLimitPrintfFifoSize:
    case cudaLimitMallocHeapSize: *value = size_t(8) << 20; return cudaSuccess;
  }
  return fail(cudaErrorUnsupportedLimit);
}

cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
  if (least) *least = 0;
  if (greatest) *greatest = 0;
  return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  if (!free_bytes || !total_bytes) return fail(cudaErrorInvalidValue);
  const uint64_t limit = device_memory_limit(), used = device_memory_used(tl_device);
  *total_bytes = size_t(limit);
  *free_bytes = size_t(used < limit ? limit - used : 0);
  return cudaSuccess;
}

// The CUDA API level the emulator follows (13.0).
cudaError_t cudaDriverGetVersion(int* version) {
  if (!version) return fail(cudaErrorInvalidValue);
  *version = 13000;
  return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int* version) {
  if (!version) return fail(cudaErrorInvalidValue);
  *version = 13000;
  return cudaSuccess;
}

// ---- streams and events ----------------------------------------------------------------
cudaError_t cudaStreamCreate(cudaStream_t* s) { return cudaStreamCreateWithFlags(s, cudaStreamDefault); }

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned flags) {
  if (!s) return fail(cudaErrorInvalidValue);
  Runtime& r = rt();
  std::lock_guard lock(r.m);
  *s = new Stream{tl_device, flags};
  r.streams.insert(*s);
  return cudaSuccess;
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t* s, unsigned flags, int) {
  return cudaStreamCreateWithFlags(s, flags);
}

cudaError_t cudaStreamDestroy(cudaStream_t s) {
  Runtime& r = rt();
  std::lock_guard lock(r.m);
  if (!r.streams.erase(s)) return fail(cudaErrorInvalidResourceHandle);
  delete s;
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t s) {
  int device = 0;
  if (const cudaError_t e = detail::stream_device(s, &device); e != cudaSuccess) return fail(e);
  return sync_result(device);
}

cudaError_t cudaStreamQuery(cudaStream_t s) { return cudaStreamSynchronize(s); }

cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned) {
  int device = 0;
  if (const cudaError_t err = detail::stream_device(s, &device); err != cudaSuccess) return fail(err);
  Runtime& r = rt();
  std::lock_guard lock(r.m);
  return check_handle(r.events, e) == cudaSuccess ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void* user_data) {
  int device = 0;
  if (const cudaError_t e = detail::stream_device(s, &device); e != cudaSuccess) return fail(e);
  if (!fn) return fail(cudaErrorInvalidValue);
  if (const cudaError_t e = detail::sticky_error(device); e != cudaSuccess) return fail(e);
  fn(user_data);
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* e) { return cudaEventCreateWithFlags(e, cudaEventDefault); }

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned flags) {
  if (!e) return fail(cudaErrorInvalidValue);
  Runtime& r = rt();
  std::lock_guard lock(r.m);
  *e = new Event{tl_device, flags};
  r.events.insert(*e);
  return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t e) {
  Runtime& r = rt();
  std::lock_guard lock(r.m);
  if (!r.events.erase(e)) return fail(cudaErrorInvalidResourceHandle);
  delete e;
  return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) {
  int device = 0;
  if (const cudaError_t err = detail::stream_device(s, &device); err != cudaSuccess) return fail(err);
  Runtime& r = rt();
  std::lock_guard lock(r.m);
  if (check_handle(r.events, e) != cudaSuccess) return fail(cudaErrorInvalidResourceHandle);
  // The stream's earlier work has completed (synchronous streams): the time is now.
  e->recorded = true;
  e->at = std::chrono::steady_clock::now();
  return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t e) {
  int device = 0;
  {
    Runtime& r = rt();
    std::lock_guard lock(r.m);
    if (check_handle(r.events, e) != cudaSuccess) return fail(cudaErrorInvalidResourceHandle);
    device = e->device;
  }
  return sync_result(device);
}

cudaError_t cudaEventQuery(cudaEvent_t e) { return cudaEventSynchronize(e); }

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (!ms) return fail(cudaErrorInvalidValue);
  Runtime& r = rt();
  std::lock_guard lock(r.m);
  if (check_handle(r.events, start) != cudaSuccess || check_handle(r.events, end) != cudaSuccess)
    return fail(cudaErrorInvalidResourceHandle);
  if (!start->recorded || !end->recorded || ((start->flags | end->flags) & cudaEventDisableTiming))
    return fail(cudaErrorInvalidResourceHandle);
  *ms = std::chrono::duration<float, std::milli>(end->at - start->at).count();
  return cudaSuccess;
}

// ---- kernels ----------------------------------------------------------------------------
cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value) {
  if (!func) return fail(cudaErrorInvalidDeviceFunction);
  switch (attr) {
    case cudaFuncAttributeMaxDynamicSharedMemorySize: {
      if (value < 0 || size_t(value) > detail::kSharedPerBlockOptin) return fail(cudaErrorInvalidValue);
      Runtime& r = rt();
      std::lock_guard lock(r.m);
      r.max_dynamic_shared[func] = size_t(value);
      return cudaSuccess;
    }
    case cudaFuncAttributePreferredSharedMemoryCarveout:
      return value >= -1 && value <= 100 ? cudaSuccess : fail(cudaErrorInvalidValue);
  }
  return fail(cudaErrorInvalidValue);
}

cudaError_t cudaFuncSetCacheConfig(const void* func, cudaFuncCache) {
  return func ? cudaSuccess : fail(cudaErrorInvalidDeviceFunction);
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* func, int block_size,
                                                          size_t dynamic_shared_bytes) {
  if (!blocks || block_size <= 0 || block_size > int(detail::kMaxThreadsPerBlock))
    return fail(cudaErrorInvalidValue);
  if (!func) return fail(cudaErrorInvalidDeviceFunction);
  // Threads and shared memory per SM as on sm_90; registers are not modelled.
  size_t b = std::min<size_t>(32, 2048 / size_t(block_size));
  if (dynamic_shared_bytes) b = std::min(b, detail::kSharedPerMultiprocessor / (dynamic_shared_bytes + 1024));
  *blocks = int(b);
  return cudaSuccess;
}

}  // namespace cuda_api
}  // namespace cuzk::simt
