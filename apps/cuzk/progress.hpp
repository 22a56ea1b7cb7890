#pragma once
// Timestamped progress lines on stderr for the cuzk CLI's long steps.
#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>
#include <string_view>

namespace cuzk::cli {

struct Progress {
  bool quiet = false;
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now(), last = t0;
  std::mutex m;  // stages may report from several threads at once
  void step(const std::string& what) {
    if (quiet) return;
    std::lock_guard lock(m);
    auto now = std::chrono::steady_clock::now();
    std::fprintf(stderr, "[cuzk %8.3fs] %s\n", std::chrono::duration<double>(now - t0).count(), what.c_str());
    last = now;
  }
  void stage(std::string_view st, size_t done, size_t total) {
    if (quiet) return;
    std::lock_guard lock(m);
    auto now = std::chrono::steady_clock::now();
    if (done != 0 && done != total && now - last < std::chrono::seconds(1)) return;  // throttle
    std::fprintf(stderr, "[cuzk %8.3fs]   %.*s %zu/%zu\n", std::chrono::duration<double>(now - t0).count(),
                 int(st.size()), st.data(), done, total);
    last = now;
  }
};

}  // namespace cuzk::cli
