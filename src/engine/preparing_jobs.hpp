#pragma once
// The jobs that are starting their partitions (dispatched, with a partition
// not yet through synthesis's door) and the rule that bounds them: at most
// `limit` at once (pipeline.synthesis_concurrency), except that a job above
// the priority of every one of them starts anyway — a CRITICAL job is never
// held behind NORMAL ones whose partitions wait for memory; its partitions
// then go first in the budget's line. No lock of its own: JobBoard holds
// its lock around every call.
#include <algorithm>
#include <cstdint>
#include <map>

#include "engine/service.hpp"

namespace cuzk::engine {

class PreparingJobs {
 public:
  explicit PreparingJobs(uint32_t limit) : limit_(std::max<uint32_t>(1, limit)) {}

  bool may_start(Priority p) const {
    return count_ < limit_ || by_priority_.empty() || int(p) > by_priority_.rbegin()->first;
  }
  void begin(Priority p) {
    count_++;
    by_priority_[int(p)]++;
  }
  void end(Priority p) {
    count_--;
    if (auto it = by_priority_.find(int(p)); it != by_priority_.end() && !--it->second)
      by_priority_.erase(it);
  }
  uint32_t count() const { return count_; }

 private:
  uint32_t limit_;
  uint32_t count_ = 0;
  std::map<int, uint32_t> by_priority_;  // the same jobs, counted by priority
};

}  // namespace cuzk::engine
