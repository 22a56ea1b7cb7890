// Launches that a GPU refuses, and kernels that fail or would hang on one:
// each is reported as an error (naming the kernel and block), never a hang
// or a crash, and a kernel failure stays until cudaDeviceReset.
#include <stdexcept>
#include <string>

#include "simt_test_util.hpp"

namespace cuzk::simt::test {
namespace {

__global__ void store_one(int* p) { p[threadIdx.x] = 1; }

TEST(SimtFailure, LaunchConfigurationErrors) {
  DeviceArray<int> d(1024);
  auto launch = [&](dim3 grid, dim3 block, size_t shared = 0) {
    return LAUNCH(store_one, grid, block, shared, nullptr, d.get());
  };
  EXPECT_EQ(launch(1, 1025), cudaErrorInvalidConfiguration);  // > 1024 threads
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);                            // read and cleared
  EXPECT_EQ(launch(1, dim3(64, 32, 1)), cudaErrorInvalidConfiguration);  // 2048 threads
  EXPECT_EQ(launch(1, dim3(1, 1, 65)), cudaErrorInvalidConfiguration);   // z > 64
  EXPECT_EQ(launch(0, 32), cudaErrorInvalidConfiguration);               // empty grid
  EXPECT_EQ(launch(dim3(1, 65536), 32), cudaErrorInvalidConfiguration);  // y > 65535
  EXPECT_EQ(launch(1, 0), cudaErrorInvalidConfiguration);
  EXPECT_EQ(launch(1, 32, 48 * 1024 + 1), cudaErrorInvalidValue);  // dynamic shared beyond the default
  EXPECT_EQ(cudaPeekAtLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(cudaPeekAtLastError(), cudaErrorInvalidValue);  // peek does not clear
  (void)cudaGetLastError();
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  ASSERT_EQ(cudaStreamDestroy(s), cudaSuccess);
  EXPECT_EQ(LAUNCH(store_one, 1, 32, 0, s, d.get()), cudaErrorInvalidResourceHandle);  // destroyed stream
  (void)cudaGetLastError();
  // None of these is a fault: the device goes on.
  EXPECT_EQ(launch(dim3(2, 3, 4), dim3(8, 8, 16)), cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

// The failing kernels below, each with what its report must say.
__global__ void early_return_before_barrier(int* p) {
  if (threadIdx.x == 5) return;
  p[threadIdx.x] = 1;
  __syncthreads();
}
__global__ void throws_in_block_3(int*) {
  if (blockIdx.x == 3 && threadIdx.x == 7) throw std::runtime_error("boom");
}
__global__ void traps(int*) {
  if (threadIdx.x == 2) __trap();
}
__global__ void lane_waits_at_barrier(int* p) {
  if (threadIdx.x == 3) {
    __syncthreads();
    return;
  }
  p[threadIdx.x] = __shfl_sync(0xffffffffu, int(threadIdx.x), 0);
  __syncthreads();
}
__global__ void mask_mismatch(int* p) {
  const unsigned mask = threadIdx.x < 16 ? 0xffffffffu : 0x0000ffffu | (1u << threadIdx.x);
  p[threadIdx.x] = __shfl_sync(mask, int(threadIdx.x), 0);
}
__global__ void mask_without_self(int* p) { p[threadIdx.x] = __shfl_sync(0x1u, 1, 0); }
__global__ void bad_width(int* p) { p[threadIdx.x] = __shfl_down_sync(0xffffffffu, 1, 1, 12); }
__global__ void launches_a_kernel(int* p) { p[0] = int(LAUNCH(store_one, 1, 1, 0, nullptr, p)); }

struct Case {
  const char* what;
  cudaError_t (*launch)(int*);
  const char* must_say;
};

cudaError_t run_early_return(int* p) { return LAUNCH(early_return_before_barrier, 1, 64, 0, nullptr, p); }
cudaError_t run_throws(int* p) { return LAUNCH(throws_in_block_3, 8, 32, 0, nullptr, p); }
cudaError_t run_traps(int* p) { return LAUNCH(traps, 1, 32, 0, nullptr, p); }
cudaError_t run_lane_at_barrier(int* p) { return LAUNCH(lane_waits_at_barrier, 1, 32, 0, nullptr, p); }
cudaError_t run_mismatch(int* p) { return LAUNCH(mask_mismatch, 1, 32, 0, nullptr, p); }
cudaError_t run_without_self(int* p) { return LAUNCH(mask_without_self, 1, 32, 0, nullptr, p); }
cudaError_t run_bad_width(int* p) { return LAUNCH(bad_width, 1, 32, 0, nullptr, p); }

TEST(SimtFailure, KernelFailuresAreReportedAndSticky) {
  const Case cases[] = {
      {"a thread returns before __syncthreads", run_early_return,
       "kernel 'early_return_before_barrier' block (0,0,0): deadlock: 63 of the block's 64 threads wait at "
       "__syncthreads while 1 have exited (thread (5,0,0) among them)"},
      {"an exception", run_throws,
       "kernel 'throws_in_block_3' block (3,0,0) thread (7,0,0): exception: boom"},
      {"__trap", run_traps, "kernel 'traps' block (0,0,0) thread (2,0,0): __trap()"},
      {"a lane never arrives at a shuffle", run_lane_at_barrier,
       "deadlock: warp 0: lanes 0xfffffff7 wait at __shfl_sync with mask 0xffffffff; lanes 0x00000008 of the "
       "mask "
       "never arrive (lanes 0x00000008 wait at __syncthreads)"},
      {"lanes disagree on the mask", run_mismatch,
       "(the lanes of a mask must make the same call with the same mask)"},
      {"a mask without the caller", run_without_self, "which does not name the caller (lane 1)"},
      {"a shuffle width that is not a power of 2", run_bad_width, "with width 12"},
  };
  for (const Case& c : cases) {
    ResetAfter reset;
    DeviceArray<int> d(64);
    EXPECT_EQ(c.launch(d.get()), cudaErrorLaunchFailure) << c.what;
    EXPECT_NE(last_failure().find(c.must_say), std::string::npos) << c.what << ": " << last_failure();
    // As a GPU fault: every later synchronizing call reports it, with the reason.
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure) << c.what;
    EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure) << c.what;
    const std::string text = cudaGetErrorString(cudaErrorLaunchFailure);
    EXPECT_NE(text.find(c.must_say), std::string::npos) << text;
    void* p = nullptr;
    EXPECT_EQ(cudaMalloc(&p, 16), cudaErrorLaunchFailure);
    EXPECT_EQ(LAUNCH(store_one, 1, 1, 0, nullptr, d.get()), cudaErrorLaunchFailure);
  }
  // After the reset the device works again (and the fibers of the failed
  // blocks were recycled).
  DeviceArray<int> d(64);
  ASSERT_EQ(LAUNCH(store_one, 1, 64, 0, nullptr, d.get()), cudaSuccess);
  for (int v : d.host()) EXPECT_EQ(v, 1);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(last_failure(), "");
}

TEST(SimtFailure, NoLaunchFromAKernel) {
  DeviceArray<int> d(1);
  ASSERT_EQ(LAUNCH(launches_a_kernel, 1, 1, 0, nullptr, d.get()), cudaSuccess);
  EXPECT_EQ(d.host()[0], int(cudaErrorNotSupported));
  (void)cudaGetLastError();
}

}  // namespace
}  // namespace cuzk::simt::test
