#include "platform/cpu_features.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace cuzk::platform {

static CpuFeatures detect() {
  CpuFeatures f;
#if defined(__x86_64__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
    f.avx2 = (b >> 5) & 1;
    f.bmi2 = (b >> 8) & 1;
    f.adx = (b >> 19) & 1;
    f.sha = (b >> 29) & 1;
    const bool avx512 = ((b >> 16) & 1) && ((b >> 17) & 1) && ((b >> 30) & 1) && ((b >> 31) & 1);
    const bool ifma = (b >> 21) & 1, vbmi2 = (c >> 6) & 1;
    unsigned a1 = 0, b1 = 0, c1 = 0, d1 = 0;
    const bool osxsave = __get_cpuid(1, &a1, &b1, &c1, &d1) && ((c1 >> 27) & 1);
    if (avx512 && ifma && vbmi2 && osxsave) {
      unsigned lo = 0, hi = 0;
      __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
      f.ifma = (lo & 0xe6) == 0xe6;  // SSE, AVX, opmask, ZMM_Hi256, Hi16_ZMM state
    }
  }
#endif
  return f;
}

const CpuFeatures& cpu_features() {
  static const CpuFeatures f = detect();
  return f;
}

bool env_flag(const char* name) {
  const char* env = std::getenv(name);
  return env && *env && std::strcmp(env, "0") != 0;
}

static bool initial_use_adx() {
  if (env_flag("CUZK_NO_ASM")) return false;
  const auto& f = cpu_features();
  return f.bmi2 && f.adx;
}

namespace detail {
bool g_use_adx = initial_use_adx();
}

bool use_adx() { return detail::g_use_adx; }

namespace {
// -1: not decided yet (decided on first use, not during static initialisation).
std::atomic<int> g_use_ifma{-1};
}  // namespace

bool use_ifma() {
  int s = g_use_ifma.load(std::memory_order_relaxed);
  if (s < 0) {
    s = cpu_features().ifma && !env_flag("CUZK_NO_ASM") && !env_flag("CUZK_NO_IFMA");
    g_use_ifma.store(s, std::memory_order_relaxed);
  }
  return s;
}

void set_use_ifma(bool on) { g_use_ifma.store(on && cpu_features().ifma, std::memory_order_relaxed); }

void set_use_adx(bool on) {
  const auto& f = cpu_features();
  detail::g_use_adx = on && f.bmi2 && f.adx;
}

size_t l2_cache_bytes() {
  static const size_t bytes = [] {
    const long b = ::sysconf(_SC_LEVEL2_CACHE_SIZE);
    return b > 0 ? size_t(b) : size_t(1) << 20;
  }();
  return bytes;
}

}  // namespace cuzk::platform
