#pragma once
// TIMELINE events (docs/PROTOCOL.md §3): one line per event,
//   TIMELINE,<offset_ms>,<EVENT>,<job_id>,<detail>
// written unbuffered to stderr (or a test sink), independent of log level.
#include <chrono>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>

namespace cuzk::engine {

class TimelineEmitter {
 public:
  using Sink = std::function<void(const std::string& line)>;

  // Default sink: stderr. Offsets count from construction (monotonic clock).
  TimelineEmitter();
  explicit TimelineEmitter(Sink sink);

  void emit(std::string_view event, std::string_view job_id, std::string_view detail);
  uint64_t now_ms() const;
  std::chrono::steady_clock::time_point start() const { return start_; }

 private:
  std::chrono::steady_clock::time_point start_;
  Sink sink_;
  std::mutex mu_;
};

}  // namespace cuzk::engine
