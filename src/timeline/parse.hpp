#pragma once
// Reading TIMELINE lines out of a daemon's stderr. Tolerant by design: lines
// that are not TIMELINE records are skipped, damaged ones become warnings, and
// nothing in the input can make the parser throw.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "timeline/event.hpp"

namespace cuzk::timeline {

struct ParseOptions {
  // An offset this much below the epoch's largest so far means the daemon
  // restarted (its clock starts at zero again); smaller steps back are
  // threads printing out of order.
  int64_t restart_tolerance_ms = 1000;
  // Space left between epochs on the continuous axis (pictures show it).
  int64_t epoch_separation_ms = 10000;
};

// Incremental: feed() accepts any split of the input (lines may be cut
// anywhere), so `analyze --follow` can read a growing file.
class Parser {
 public:
  explicit Parser(ParseOptions opts = {});
  void feed(std::string_view chunk);
  // Optional: sizes the tables for an input of about this many bytes.
  void reserve_for(size_t bytes);
  // Reads a last line that has no newline (a truncated tail).
  void finish();
  // The events so far, sorted. snapshot() keeps the parser going.
  Log snapshot() const;
  Log take();

 private:
  struct StrHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  using InternMap = std::unordered_map<std::string, uint32_t, StrHash, std::equal_to<>>;

  void line(std::string_view l);
  void record(std::string_view rec, bool cut_short);
  bool seen_before(uint64_t h);  // dedupe set of the current epoch
  void new_epoch(int64_t offset);
  void parse_detail(Event& e, std::string_view detail);

  ParseOptions opts_;
  Log log_;
  std::string partial_;
  InternMap jobs_;  // ids of the current epoch
  // Per Log::jobs entry: whether it was cancelled, and which appearance of
  // its id it is (1 = the first).
  std::vector<uint8_t> cancelled_;
  std::vector<uint16_t> appearance_;
  std::vector<EventKind> name_kinds_;  // kind of each Log::names entry
  std::vector<uint64_t> seen_;         // open-addressing set of line hashes
  size_t seen_count_ = 0;
  int64_t epoch_max_ = -1;  // largest offset of the current epoch
  uint16_t epoch_ = 0;
};

Log parse_text(std::string_view text, const ParseOptions& opts = {});
// Reads a whole file ("-" is standard input). Throws std::runtime_error naming
// the path when it cannot be opened.
Log parse_file(const std::string& path, const ParseOptions& opts = {});

}  // namespace cuzk::timeline
