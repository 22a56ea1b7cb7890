#pragma once
// TIMELINE events (docs/PROTOCOL.md §3) as read back from a log:
//   TIMELINE,<offset_ms>,<EVENT>,<job_id>,<detail>
// One Event per accepted line, interned job ids and event names, and the
// warnings raised while reading. Nothing here interprets the events; that is
// model.hpp (intervals) and analyze.hpp (runs, utilization, verdicts).
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cuzk::timeline {

enum class EventKind : uint8_t {
  kSynthStart,
  kSynthEnd,
  kGpuQueue,  // also the legacy CHAN_SEND
  kGpuPickup,
  kGpuStart,
  kGpuEnd,
  kGpuLock,    // device interlock taken (ours)
  kGpuUnlock,  // device interlock released (ours)
  kOther,      // SRS_LOAD_*, PARSE_*, ASSEMBLE_*, ...: kept for the table only
};

// Kind of an event name as written; unknown names are kOther.
EventKind kind_of(std::string_view name);

struct Event {
  int64_t t = 0;          // ms on the log's continuous axis (epochs laid end to end)
  int64_t offset_ms = 0;  // as written in the line
  int64_t ms = -1;        // synth_ms= / gpu_ms= of the detail, -1 when absent
  uint64_t line = 0;      // 1-based line number in the input
  uint32_t job = 0;       // index into Log::jobs
  uint32_t name = 0;      // index into Log::names
  uint32_t detail_pos = 0;
  uint32_t detail_len = 0;
  int32_t partition = -1;  // -1: whole-job form (or no partition= given)
  int32_t worker = -1;     // -1: no worker= given
  uint16_t epoch = 0;
  EventKind kind = EventKind::kOther;
};

enum class WarnKind : uint8_t {
  kMalformed,  // a TIMELINE line that could not be read (truncated, bad number)
  kDuplicate,  // the same line seen twice in one epoch
  kRestart,    // the offset went back: a new epoch
  kBadDetail,  // a detail value that is not a number, a missing worker=
  kUnpaired,   // START without END or END without START
  kInferred,   // a missing START rebuilt from synth_ms/gpu_ms
  kCount,
};

const char* warn_kind_name(WarnKind k);

// Warnings keep the first kKeepPerKind messages of each kind and count the rest,
// so a log with a million bad lines does not produce a million messages.
class Warnings {
 public:
  static constexpr size_t kKeepPerKind = 40;
  void add(WarnKind k, std::string msg);
  uint64_t count(WarnKind k) const { return counts_[size_t(k)]; }
  uint64_t total() const;
  // Kept messages in arrival order, then "... and N more <kind> warnings".
  std::vector<std::string> lines() const;
  void merge(const Warnings& other);

 private:
  std::array<uint64_t, size_t(WarnKind::kCount)> counts_{};
  std::vector<std::pair<WarnKind, std::string>> kept_;
};

struct JobInfo {
  // As logged; a job id that comes back after its CANCEL (logs from before
  // job ids were numbered, when a retry reused the request id) gets " (2)",
  // " (3)", ...: another job.
  std::string id;
  uint16_t epoch = 0;
  std::string kind;  // kind= of a whole-job SYNTH_START, when given
};

struct Log {
  std::vector<Event> events;  // sorted by (t, line)
  std::vector<JobInfo> jobs;
  std::vector<std::string> names;
  std::string details;              // all detail strings, back to back
  std::vector<int64_t> epoch_base;  // t = epoch_base[epoch] + offset_ms
  uint64_t lines_total = 0;         // every line read
  uint64_t lines_timeline = 0;      // lines with a TIMELINE record
  uint64_t duplicates = 0;
  uint64_t malformed = 0;
  Warnings warnings;

  std::string_view detail(const Event& e) const {
    return std::string_view(details).substr(e.detail_pos, e.detail_len);
  }
  const std::string& name(const Event& e) const { return names[e.name]; }
  size_t epochs() const { return epoch_base.empty() ? 1 : epoch_base.size(); }
  // Epoch whose stretch of the continuous axis holds t.
  uint16_t epoch_at(int64_t t) const;
  // Offset as the daemon wrote it for a point of the continuous axis.
  int64_t offset_at(int64_t t) const;
};

// Job ids are UUIDs in practice; tables show their first 8 characters.
// A job id short enough for a table column. The daemon's ids are
// "<request_id>#<n>" (several jobs may share a request id): the number stays,
// the request id is cut to 12 characters; other ids (UUIDs) to 8.
inline std::string short_id(std::string_view id) {
  const size_t hash = id.rfind('#');
  const bool numbered = hash != std::string_view::npos && hash > 0 && hash + 1 < id.size() &&
                        id.find_first_not_of("0123456789", hash + 1) == std::string_view::npos;
  if (numbered) {
    std::string_view req = id.substr(0, hash);
    return (req.size() > 14 ? std::string(req.substr(0, 12)) + ".." : std::string(req)) +
           std::string(id.substr(hash));
  }
  return std::string(id.size() > 12 ? id.substr(0, 8) : id);
}

}  // namespace cuzk::timeline
