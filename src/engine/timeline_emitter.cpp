#include "engine/timeline_emitter.hpp"

namespace cuzk::engine {

TimelineEmitter::TimelineEmitter() : TimelineEmitter(Sink{}) {}

TimelineEmitter::TimelineEmitter(Sink sink)
    : start_(std::chrono::steady_clock::now()), sink_(std::move(sink)) {}

uint64_t TimelineEmitter::now_ms() const {
  return uint64_t(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start_)
          .count());
}

void TimelineEmitter::emit(std::string_view event, std::string_view job_id, std::string_view detail) {
  std::string line = "TIMELINE,";
  line += std::to_string(now_ms());
  line += ',';
  line += event;
  line += ',';
  line += job_id;
  line += ',';
  line += detail;
  std::lock_guard lk(mu_);
  if (sink_) {
    sink_(line);
  } else {
    line += '\n';
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fflush(stderr);
  }
}

}  // namespace cuzk::engine
