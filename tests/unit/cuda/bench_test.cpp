// GPU timings as JSON lines for scripts/gpu-check.sh: NTT 2^20..2^CUZK_CUDA_BENCH_MAX_LOG
// (default 27), the H step at 2^CUZK_CUDA_BENCH_H_LOG (default 27) and Fr
// multiplication throughput. Runs only with
// CUZK_CUDA_BENCH=1 (and a GPU); a plain test run skips it.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "cuda/device.hpp"
#include "cuda/field.hpp"
#include "cuda/h_step.hpp"
#include "cuda/ntt.hpp"

using namespace cuzk;

namespace {
bool bench_enabled() {
  const char* e = std::getenv("CUZK_CUDA_BENCH");
  return e && std::string(e) == "1";
}
unsigned env_u(const char* name, unsigned dflt) {
  const char* e = std::getenv(name);
  return e ? unsigned(std::strtoul(e, nullptr, 10)) : dflt;
}
}  // namespace

TEST(CudaBench, FrMulThroughput) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  if (!bench_enabled()) GTEST_SKIP() << "set CUZK_CUDA_BENCH=1";
  const uint64_t n = uint64_t(1) << 22;
  const unsigned rounds = 256;
  const double per_s = cuda::fr_mul_throughput(n, rounds);
  std::printf("{\"bench\":\"cuda_fr_mul\",\"elements\":%llu,\"products\":%llu,\"gmul_per_s\":%.2f}\n",
              (unsigned long long)n, (unsigned long long)(n * 2 * rounds), per_s / 1e9);
  std::fflush(stdout);
}

TEST(CudaBench, Ntt) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  if (!bench_enabled()) GTEST_SKIP() << "set CUZK_CUDA_BENCH=1";
  const unsigned lo = env_u("CUZK_CUDA_BENCH_MIN_LOG", 20), hi = env_u("CUZK_CUDA_BENCH_MAX_LOG", 27);
  for (unsigned log_n = lo; log_n <= hi; log_n++) {
    const auto t = cuda::time_ntt(log_n, 3);
    std::printf(
        "{\"bench\":\"cuda_ntt\",\"log_n\":%u,\"forward_ms\":%.3f,\"inverse_ms\":%.3f,\"coset_forward_ms\":%."
        "3f,"
        "\"h2d_ms\":%.3f,\"d2h_ms\":%.3f}\n",
        log_n, t.forward_ms, t.inverse_ms, t.coset_forward_ms, t.h2d_ms, t.d2h_ms);
    std::fflush(stdout);
  }
}

TEST(CudaBench, HStep) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  if (!bench_enabled()) GTEST_SKIP() << "set CUZK_CUDA_BENCH=1";
  const unsigned log_n = env_u("CUZK_CUDA_BENCH_H_LOG", 27);
  const auto t = cuda::time_h(log_n, 3);
  std::printf("{\"bench\":\"cuda_h\",\"log_n\":%u,\"h_ms\":%.3f,\"upload_abc_ms\":%.3f}\n", log_n, t.h_ms,
              t.upload_ms);
  std::fflush(stdout);
}
