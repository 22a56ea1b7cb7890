#include "platform/cpu_features.hpp"

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
  }
#endif
  return f;
}

const CpuFeatures& cpu_features() {
  static const CpuFeatures f = detect();
  return f;
}

static bool initial_use_adx() {
  const char* env = std::getenv("CUZK_NO_ASM");
  if (env && std::strcmp(env, "0") != 0 && *env) return false;
  const auto& f = cpu_features();
  return f.bmi2 && f.adx;
}

namespace detail {
bool g_use_adx = initial_use_adx();
}

bool use_adx() { return detail::g_use_adx; }

void set_use_adx(bool on) {
  const auto& f = cpu_features();
  detail::g_use_adx = on && f.bmi2 && f.adx;
}

}  // namespace cuzk::platform
