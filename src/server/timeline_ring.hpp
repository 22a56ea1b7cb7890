#pragma once
// The daemon's recent TIMELINE lines in memory, for the status listener's
// live views (GET /live, /timeline, the device busy gauge of /metrics). The
// daemon's TIMELINE sink writes every line to stderr as before and adds it
// here. Bounded twice: at most `max_lines` lines and nothing older than
// `max_age` behind the newest line; the oldest go first.
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>

namespace cuzk::server {

class TimelineRing {
 public:
  // The daemon's TIMELINE clock (ms since the engine started), read for "now".
  using Clock = std::function<int64_t()>;

  explicit TimelineRing(size_t max_lines = 50000,
                        std::chrono::milliseconds max_age = std::chrono::minutes(15));

  // One line as the emitter wrote it ("TIMELINE,<offset_ms>,..."), without
  // the newline; lines whose offset cannot be read are ignored.
  void add(std::string_view line);

  // The lines with an offset >= since_ms, oldest first, one per line.
  std::string lines_since(int64_t since_ms) const;
  size_t size() const;
  // Lines dropped for the bounds since the start.
  uint64_t dropped() const;

  void set_clock(Clock c);
  // The clock's reading; without a clock, the newest line's offset (0 when empty).
  int64_t now_ms() const;

 private:
  struct Entry {
    int64_t offset;
    std::string line;
  };
  const size_t max_lines_;
  const int64_t max_age_ms_;
  mutable std::mutex mu_;
  std::deque<Entry> lines_;
  int64_t newest_ = 0;
  uint64_t dropped_ = 0;
  Clock clock_;
};

}  // namespace cuzk::server
