// The runtime API of the emulated device: memory and its limit, copies,
// streams and events, device queries, constant symbols, error texts.
#include <cstring>
#include <string>
#include <vector>

#include "simt_test_util.hpp"

namespace cuzk::simt::test {
namespace {

TEST(SimtRuntime, DeviceMemoryLimit) {
  const uint64_t before = device_memory_limit();
  set_device_memory_limit(1 << 20);
  size_t free_b = 0, total_b = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_b, &total_b), cudaSuccess);
  EXPECT_EQ(total_b, size_t(1) << 20);
  const size_t used0 = total_b - free_b;
  void *a = nullptr, *b = nullptr, *c = nullptr;
  ASSERT_EQ(cudaMalloc(&a, 600 << 10), cudaSuccess);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 256, 0u);
  ASSERT_EQ(cudaMemGetInfo(&free_b, &total_b), cudaSuccess);
  EXPECT_EQ(total_b - free_b, used0 + (600 << 10));
  // What does not fit fails, as on a full GPU, and is not sticky.
  EXPECT_EQ(cudaMalloc(&b, 600 << 10), cudaErrorMemoryAllocation);
  EXPECT_EQ(b, nullptr);
  EXPECT_EQ(cudaGetLastError(), cudaErrorMemoryAllocation);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&c, 300 << 10), cudaSuccess);  // what still fits
  ASSERT_EQ(cudaFree(a), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&b, 600 << 10), cudaSuccess);
  EXPECT_EQ(cudaFree(b), cudaSuccess);
  EXPECT_EQ(cudaFree(c), cudaSuccess);
  EXPECT_EQ(cudaFree(c), cudaErrorInvalidValue);  // twice
  (void)cudaGetLastError();
  EXPECT_EQ(device_memory_used(), used0);
  cudaDeviceProp p;
  ASSERT_EQ(cudaGetDeviceProperties(&p, 0), cudaSuccess);
  EXPECT_EQ(p.totalGlobalMem, size_t(1) << 20);
  set_device_memory_limit(before);
}

TEST(SimtRuntime, CopiesCheckTheirDirection) {
  std::vector<uint8_t> h(4096), back(4096);
  for (size_t i = 0; i < h.size(); i++) h[i] = uint8_t(i * 13 + 1);
  void *d1 = nullptr, *d2 = nullptr, *pinned = nullptr;
  ASSERT_EQ(cudaMalloc(&d1, h.size()), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d2, h.size()), cudaSuccess);
  ASSERT_EQ(cudaMallocHost(&pinned, h.size()), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(d1, h.data(), h.size(), cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(d2, d1, h.size(), cudaMemcpyDeviceToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemcpyAsync(pinned, d2, h.size(), cudaMemcpyDeviceToHost), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(back.data(), pinned, h.size(), cudaMemcpyDefault), cudaSuccess);
  EXPECT_EQ(back, h);
  // Wrong sides, overruns and unknown directions are refused.
  EXPECT_EQ(cudaMemcpy(h.data(), back.data(), 16, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(d1, h.data(), 16, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(d1, d2, h.size() + 1, cudaMemcpyDeviceToDevice), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(static_cast<char*>(d1) + 8, h.data(), h.size(), cudaMemcpyHostToDevice),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(d1, d2, 16, cudaMemcpyKind(7)), cudaErrorInvalidMemcpyDirection);
  EXPECT_EQ(cudaMemset(h.data(), 0, 16), cudaErrorInvalidValue);
  (void)cudaGetLastError();
  // memset: a byte pattern over part of an allocation.
  ASSERT_EQ(cudaMemsetAsync(static_cast<char*>(d1) + 100, 0xab, 50), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(back.data(), d1, h.size(), cudaMemcpyDeviceToHost), cudaSuccess);
  for (size_t i = 0; i < h.size(); i++) ASSERT_EQ(back[i], i >= 100 && i < 150 ? 0xab : h[i]) << i;
  EXPECT_EQ(cudaFree(pinned), cudaErrorInvalidValue);  // pinned memory goes back with cudaFreeHost
  (void)cudaGetLastError();
  EXPECT_EQ(cudaFreeHost(pinned), cudaSuccess);
  EXPECT_EQ(cudaFree(d1), cudaSuccess);
  EXPECT_EQ(cudaFree(d2), cudaSuccess);
}

TEST(SimtRuntime, HostRegistration) {
  std::vector<uint8_t> h(8192);
  void* dev = nullptr;
  EXPECT_EQ(cudaHostGetDevicePointer(&dev, h.data(), 0), cudaErrorInvalidValue);
  ASSERT_EQ(cudaHostRegister(h.data(), h.size(), cudaHostRegisterDefault), cudaSuccess);
  EXPECT_EQ(cudaHostRegister(h.data() + 100, 10, cudaHostRegisterDefault),
            cudaErrorHostMemoryAlreadyRegistered);
  ASSERT_EQ(cudaHostGetDevicePointer(&dev, h.data() + 5, 0), cudaSuccess);
  EXPECT_EQ(dev, h.data() + 5);
  EXPECT_EQ(cudaHostUnregister(h.data()), cudaSuccess);
  EXPECT_EQ(cudaHostUnregister(h.data()), cudaErrorHostMemoryNotRegistered);
  (void)cudaGetLastError();
}

__global__ void add_to(int* p, int v) { p[threadIdx.x] += v; }
__global__ void scale(int* p, int by) { p[threadIdx.x] *= by; }

void host_append(void* user) {
  auto* log = static_cast<std::vector<int>*>(user);
  log->push_back(int(log->size()));
}

TEST(SimtRuntime, StreamsAndEventsKeepOrder) {
  cudaStream_t s1, s2;
  ASSERT_EQ(cudaStreamCreate(&s1), cudaSuccess);
  ASSERT_EQ(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), cudaSuccess);
  cudaEvent_t e0, e1, e2, untimed;
  ASSERT_EQ(cudaEventCreate(&e0), cudaSuccess);
  ASSERT_EQ(cudaEventCreate(&e1), cudaSuccess);
  ASSERT_EQ(cudaEventCreateWithFlags(&e2, cudaEventBlockingSync), cudaSuccess);
  ASSERT_EQ(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming), cudaSuccess);
  DeviceArray<int> d(std::vector<int>(32, 1));
  std::vector<int> log;
  // (1 + 2) * 3 + 4, the steps split over two streams joined by events.
  ASSERT_EQ(cudaEventRecord(e0, s1), cudaSuccess);
  ASSERT_EQ(LAUNCH(add_to, 1, 32, 0, s1, d.get(), 2), cudaSuccess);
  ASSERT_EQ(cudaLaunchHostFunc(s1, host_append, &log), cudaSuccess);
  ASSERT_EQ(cudaEventRecord(e1, s1), cudaSuccess);
  ASSERT_EQ(cudaStreamWaitEvent(s2, e1, 0), cudaSuccess);
  ASSERT_EQ(LAUNCH(scale, 1, 32, 0, s2, d.get(), 3), cudaSuccess);
  ASSERT_EQ(cudaLaunchHostFunc(s2, host_append, &log), cudaSuccess);
  ASSERT_EQ(cudaEventRecord(e2, s2), cudaSuccess);
  ASSERT_EQ(cudaStreamWaitEvent(s1, e2, 0), cudaSuccess);
  ASSERT_EQ(LAUNCH(add_to, 1, 32, 0, s1, d.get(), 4), cudaSuccess);
  ASSERT_EQ(cudaEventRecord(untimed, s1), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(s1), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(s2), cudaSuccess);
  EXPECT_EQ(cudaStreamQuery(s1), cudaSuccess);
  EXPECT_EQ(cudaEventQuery(e2), cudaSuccess);
  EXPECT_EQ(cudaEventSynchronize(e2), cudaSuccess);
  for (int v : d.host()) EXPECT_EQ(v, 13);
  EXPECT_EQ(log, (std::vector<int>{0, 1}));
  float a = -1, b = -1, c = -1;
  ASSERT_EQ(cudaEventElapsedTime(&a, e0, e1), cudaSuccess);
  ASSERT_EQ(cudaEventElapsedTime(&b, e0, e2), cudaSuccess);
  ASSERT_EQ(cudaEventElapsedTime(&c, e1, e2), cudaSuccess);
  EXPECT_GE(a, 0.0f);
  EXPECT_GE(b, a);
  EXPECT_FLOAT_EQ(a + c, b);
  EXPECT_EQ(cudaEventElapsedTime(&a, e0, untimed), cudaErrorInvalidResourceHandle);
  cudaEvent_t never;
  ASSERT_EQ(cudaEventCreate(&never), cudaSuccess);
  EXPECT_EQ(cudaEventElapsedTime(&a, e0, never), cudaErrorInvalidResourceHandle);
  (void)cudaGetLastError();
  for (cudaEvent_t e : {e0, e1, e2, untimed, never}) EXPECT_EQ(cudaEventDestroy(e), cudaSuccess);
  EXPECT_EQ(cudaEventDestroy(e0), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(cudaStreamDestroy(s1), cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(s2), cudaSuccess);
  EXPECT_EQ(cudaStreamSynchronize(s2), cudaErrorInvalidResourceHandle);
  (void)cudaGetLastError();
  EXPECT_EQ(cudaStreamSynchronize(cudaStreamPerThread), cudaSuccess);
}

TEST(SimtRuntime, DeviceQueries) {
  int n = 0, dev = -1, v = 0, drv = 0, rt = 0;
  ASSERT_EQ(cudaGetDeviceCount(&n), cudaSuccess);
  EXPECT_EQ(n, device_count());
  ASSERT_EQ(cudaGetDevice(&dev), cudaSuccess);
  EXPECT_EQ(dev, 0);
  EXPECT_EQ(cudaSetDevice(n), cudaErrorInvalidDevice);
  (void)cudaGetLastError();
  cudaDeviceProp p;
  ASSERT_EQ(cudaGetDeviceProperties(&p, 0), cudaSuccess);
  EXPECT_EQ(std::string(p.name),
            "cuda-emulated (SIMT on " + std::to_string(host_threads()) + " host threads)");
  EXPECT_EQ(p.warpSize, 32);
  EXPECT_EQ(p.maxThreadsPerBlock, 1024);
  EXPECT_EQ(p.sharedMemPerBlock, 48u * 1024);
  EXPECT_EQ(p.sharedMemPerBlockOptin, 227u * 1024);
  EXPECT_EQ(p.major, 9);
  EXPECT_EQ(p.minor, 0);
  EXPECT_EQ(p.multiProcessorCount, int(host_threads()));
  const std::pair<cudaDeviceAttr, int> attrs[] = {
      {cudaDevAttrMaxThreadsPerBlock, p.maxThreadsPerBlock},
      {cudaDevAttrWarpSize, 32},
      {cudaDevAttrMaxBlockDimZ, 64},
      {cudaDevAttrMaxGridDimY, 65535},
      {cudaDevAttrMultiProcessorCount, p.multiProcessorCount},
      {cudaDevAttrComputeCapabilityMajor, 9},
      {cudaDevAttrMaxSharedMemoryPerBlockOptin, 227 * 1024},
  };
  for (const auto& [attr, want] : attrs) {
    ASSERT_EQ(cudaDeviceGetAttribute(&v, attr, 0), cudaSuccess);
    EXPECT_EQ(v, want) << int(attr);
  }
  ASSERT_EQ(cudaDriverGetVersion(&drv), cudaSuccess);
  ASSERT_EQ(cudaRuntimeGetVersion(&rt), cudaSuccess);
  EXPECT_GE(rt, 13000);
  EXPECT_EQ(std::string(cudaGetErrorName(cudaErrorMemoryAllocation)), "cudaErrorMemoryAllocation");
  EXPECT_EQ(std::string(cudaGetErrorString(cudaErrorInvalidConfiguration)), "invalid configuration argument");
  int blocks = 0;
  ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, add_to, 256, 0), cudaSuccess);
  EXPECT_EQ(blocks, 8);
}

TEST(SimtRuntime, SeveralDevices) {
  set_device_count(2);
  int n = 0;
  ASSERT_EQ(cudaGetDeviceCount(&n), cudaSuccess);
  ASSERT_EQ(n, 2);
  ASSERT_EQ(cudaSetDevice(1), cudaSuccess);
  void* p = nullptr;
  ASSERT_EQ(cudaMalloc(&p, 1000), cudaSuccess);
  EXPECT_EQ(device_memory_used(1), 1000u);
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);  // a stream of device 1
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
  EXPECT_EQ(device_memory_used(1), 1000u);
  ASSERT_EQ(LAUNCH(add_to, 1, 32, 0, s, static_cast<int*>(p), 1), cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(s), cudaSuccess);
  EXPECT_EQ(cudaFree(p), cudaSuccess);
  EXPECT_EQ(device_memory_used(1), 0u);
  set_device_count(1);
}

__constant__ int kTable[8];
__device__ int g_counter;

__global__ void use_table(int* out) {
  out[threadIdx.x] = kTable[threadIdx.x % 8] * 10;
  if (threadIdx.x == 0) atomicAdd(&g_counter, 5);
}

TEST(SimtRuntime, ConstantAndDeviceSymbols) {
  const int table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  ASSERT_EQ(cudaMemcpyToSymbol(kTable, table, sizeof table), cudaSuccess);
  const int zero = 0;
  ASSERT_EQ(cudaMemcpyToSymbol(g_counter, &zero, sizeof zero), cudaSuccess);
  const int nine = 9;
  ASSERT_EQ(cudaMemcpyToSymbol(kTable, &nine, sizeof nine, 7 * sizeof(int)), cudaSuccess);  // offset
  EXPECT_EQ(cudaMemcpyToSymbol(kTable, table, sizeof table, 4), cudaErrorInvalidValue);     // overrun
  (void)cudaGetLastError();
  DeviceArray<int> d(16);
  ASSERT_EQ(LAUNCH(use_table, 1, 16, 0, nullptr, d.get()), cudaSuccess);
  const auto out = d.host();
  for (int t = 0; t < 16; t++) EXPECT_EQ(out[t], (t % 8 == 7 ? 9 : t % 8 + 1) * 10);
  int counter = 0;
  ASSERT_EQ(cudaMemcpyFromSymbol(&counter, g_counter, sizeof counter), cudaSuccess);
  EXPECT_EQ(counter, 5);
}

}  // namespace
}  // namespace cuzk::simt::test
