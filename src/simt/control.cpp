// Settings of the emulated device (simt/control.hpp): environment first, setters after.
#include "simt/control.hpp"

#include <oneapi/tbb/info.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "simt/state.hpp"

namespace cuzk::simt {

namespace {

// "4G", "512M", "65536": bytes; 0 when unreadable.
uint64_t parse_bytes(const char* s) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s, &end, 10);
  if (end == s) return 0;
  uint64_t mult = 1;
  switch (std::toupper(static_cast<unsigned char>(*end))) {
    case 'K': mult = uint64_t(1) << 10; break;
    case 'M': mult = uint64_t(1) << 20; break;
    case 'G': mult = uint64_t(1) << 30; break;
    case 'T': mult = uint64_t(1) << 40; break;
    case '\0': break;
    default: return 0;
  }
  return uint64_t(v) * mult;
}

long env_long(const char* name, long dflt) {
  const char* e = std::getenv(name);
  if (!e || !*e) return dflt;
  char* end = nullptr;
  const long v = std::strtol(e, &end, 10);
  if (end == e || *end) {
    std::fprintf(stderr, "simt: ignoring %s=%s (not a number)\n", name, e);
    return dflt;
  }
  return v;
}

unsigned default_threads() { return unsigned(std::max(1, tbb::info::default_concurrency())); }

size_t clamp_stack(size_t bytes) { return std::max<size_t>(bytes, 16 * 1024); }

}  // namespace

namespace detail {

Settings& settings() {
  static Settings* s = [] {
    auto* r = new Settings;
    uint64_t mem = uint64_t(4) << 30;
    if (const char* e = std::getenv("CUZK_SIMT_DEVICE_MEMORY"); e && *e) {
      if (const uint64_t v = parse_bytes(e)) mem = v;
      else std::fprintf(stderr, "simt: ignoring CUZK_SIMT_DEVICE_MEMORY=%s (want bytes, e.g. 2G)\n", e);
    }
    r->memory_limit = mem;
    r->devices = int(std::clamp(env_long("CUZK_SIMT_DEVICES", 1), 1L, long(kMaxDevices)));
    const long threads = env_long("CUZK_SIMT_THREADS", 0);
    r->host_threads = threads > 0 ? unsigned(threads) : default_threads();
    r->stack_bytes = clamp_stack(size_t(std::max(env_long("CUZK_SIMT_STACK_KIB", 128), 0L)) * 1024);
    SwitchKind kind = assembly_switch_available() ? SwitchKind::assembly : SwitchKind::ucontext;
    if (const char* e = std::getenv("CUZK_SIMT_SWITCH"); e && *e) {
      const std::string v = e;
      if (v == "ucontext") kind = SwitchKind::ucontext;
      else if (v != "asm") std::fprintf(stderr, "simt: ignoring CUZK_SIMT_SWITCH=%s (asm | ucontext)\n", e);
    }
    r->fiber_switch = kind;
    return r;
  }();
  return *s;
}

}  // namespace detail

void set_device_memory_limit(uint64_t bytes) { detail::settings().memory_limit = bytes; }
uint64_t device_memory_limit() { return detail::settings().memory_limit; }

void set_device_count(int n) { detail::settings().devices = std::clamp(n, 1, detail::kMaxDevices); }
int device_count() { return detail::settings().devices; }

void set_host_threads(unsigned n) { detail::settings().host_threads = n ? n : default_threads(); }
unsigned host_threads() { return detail::settings().host_threads; }

void set_thread_stack_bytes(size_t bytes) { detail::settings().stack_bytes = clamp_stack(bytes); }
size_t thread_stack_bytes() { return detail::settings().stack_bytes; }

bool set_fiber_switch(FiberSwitch s) {
  if (s == FiberSwitch::assembly && !detail::assembly_switch_available()) return false;
  detail::settings().fiber_switch =
      s == FiberSwitch::assembly ? detail::SwitchKind::assembly : detail::SwitchKind::ucontext;
  return true;
}
FiberSwitch fiber_switch() {
  return detail::settings().fiber_switch == detail::SwitchKind::assembly ? FiberSwitch::assembly
                                                                         : FiberSwitch::ucontext;
}

}  // namespace cuzk::simt
