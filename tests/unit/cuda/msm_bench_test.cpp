// GPU timings of the device MSM as JSON lines for scripts/gpu-check.sh
// (cuda::time_msm: resident points, scalars in device memory, best of 3):
// G1 2^20..2^CUZK_CUDA_BENCH_MSM_G1_MAX_LOG (default 26) and G2
// 2^22..2^CUZK_CUDA_BENCH_MSM_G2_MAX_LOG (default 24), uniform and
// Filecoin-like scalars. Runs only with CUZK_CUDA_BENCH=1 on a GPU (never
// under the emulator: it would take hours). CudaBench.MsmSweep (with
// CUZK_CUDA_BENCH_MSM_SWEEP_LOG=K) times G1 2^K with uniform scalars over
// the windows in CUZK_CUDA_BENCH_MSM_WINDOWS and the pairs per thread in
// CUZK_CUDA_BENCH_MSM_PAIRS and the bucket-sum kernel's blocks per SM in
// CUZK_CUDA_BENCH_MSM_BLOCKS (comma lists, 0 = the default choice).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "cuda/device.hpp"
#include "cuda/msm.hpp"

using namespace cuzk;

#if !defined(CUZK_SIMT)
namespace {

unsigned env_log(const char* name, unsigned dflt) {
  const char* e = std::getenv(name);
  return e ? unsigned(std::strtoul(e, nullptr, 10)) : dflt;
}

template <class C>
void bench(unsigned lo, unsigned hi) {
  for (unsigned log_n = lo; log_n <= hi; log_n++)
    for (const char* kind : {"uniform", "filecoin"}) {
      const double ms = cuda::time_msm<C>(log_n, kind, 3);
      std::printf("{\"bench\":\"cuda_msm\",\"group\":\"%s\",\"log_n\":%u,\"scalars\":\"%s\",\"ms\":%.3f}\n",
                  C::name, log_n, kind, ms);
      std::fflush(stdout);
    }
}

std::vector<unsigned> env_list(const char* name, const char* dflt) {
  const char* e = std::getenv(name);
  std::stringstream in(e ? e : dflt);
  std::vector<unsigned> v;
  for (std::string item; std::getline(in, item, ',');) v.push_back(unsigned(std::stoul(item)));
  return v;
}

}  // namespace
#endif

TEST(CudaBench, Msm) {
#if defined(CUZK_SIMT)
  GTEST_SKIP() << "timings need a GPU, not the emulator";
#else
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  const char* on = std::getenv("CUZK_CUDA_BENCH");
  if (!on || std::string(on) != "1") GTEST_SKIP() << "set CUZK_CUDA_BENCH=1";
  bench<ec::G1Curve>(env_log("CUZK_CUDA_BENCH_MSM_G1_MIN_LOG", 20),
                     env_log("CUZK_CUDA_BENCH_MSM_G1_MAX_LOG", 26));
  bench<ec::G2Curve>(env_log("CUZK_CUDA_BENCH_MSM_G2_MIN_LOG", 22),
                     env_log("CUZK_CUDA_BENCH_MSM_G2_MAX_LOG", 24));
#endif
}

TEST(CudaBench, MsmSweep) {
#if defined(CUZK_SIMT)
  GTEST_SKIP() << "timings need a GPU, not the emulator";
#else
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  const char* log = std::getenv("CUZK_CUDA_BENCH_MSM_SWEEP_LOG");
  if (!log) GTEST_SKIP() << "set CUZK_CUDA_BENCH_MSM_SWEEP_LOG";
  const unsigned log_n = unsigned(std::strtoul(log, nullptr, 10));
  for (unsigned blocks : env_list("CUZK_CUDA_BENCH_MSM_BLOCKS", "0"))
    for (unsigned c : env_list("CUZK_CUDA_BENCH_MSM_WINDOWS", "0"))
      for (unsigned per : env_list("CUZK_CUDA_BENCH_MSM_PAIRS", "0")) {
        cuda::MsmOptions opt;
        opt.window_bits = int(c);
        opt.pairs_per_thread = per;
        opt.blocks_per_sm = blocks;
        cuda::MsmStats st;
        const double ms = cuda::time_msm<ec::G1Curve>(log_n, "uniform", 3, 0, opt, &st);
        std::printf(
            "{\"bench\":\"cuda_msm_sweep\",\"group\":\"G1\",\"log_n\":%u,\"window_bits\":%d,\"pairs_per_"
            "thread\":%u,"
            "\"blocks_per_sm\":%u,\"chunks\":%zu,\"max_levels\":%u,\"scratch_mib\":%zu,\"ms\":%.3f}\n",
            log_n, st.window_bits, per, blocks, st.chunks, st.max_levels, st.scratch_bytes >> 20, ms);
        std::fflush(stdout);
      }
#endif
}
