#pragma once
// Run-time CPU feature detection. The assembly kernels check `use_adx()`
// so one binary runs (more slowly) on CPUs without BMI2/ADX instead of
// dying with SIGILL.
#include <cstddef>

namespace cuzk::platform {

struct CpuFeatures {
  bool bmi2 = false;
  bool adx = false;
  bool avx2 = false;
  bool sha = false;
  // AVX-512 F/VL/BW/DQ + IFMA + VBMI2 with ZMM state enabled by the OS: what
  // the eight-lane MSM kernels (msm/ifma_kernels.cpp) need.
  bool ifma = false;
};

// True when the environment variable is set to something other than "" or "0".
bool env_flag(const char* name);

// True when the eight-lane AVX-512 IFMA kernels (MSM additions, NTT
// butterflies) are in use: the CPU has them and neither CUZK_NO_ASM nor
// CUZK_NO_IFMA is set. Tests and benchmarks switch them with set_use_ifma
// (requests are ignored where the CPU lacks them).
bool use_ifma();
void set_use_ifma(bool on);

// Detected once at start-up.
const CpuFeatures& cpu_features();

// Bytes of one core's L2 cache (sysconf; 1 MiB where the system does not say).
size_t l2_cache_bytes();

// True when the MULX/ADCX/ADOX kernels are in use. Starts as
// (bmi2 && adx) unless the environment sets CUZK_NO_ASM=1.
bool use_adx();

// Tests and benchmarks switch between the assembly and portable paths.
// Requests for the assembly path are ignored when the CPU lacks it.
void set_use_adx(bool on);

namespace detail {
extern bool g_use_adx;
}

}  // namespace cuzk::platform
