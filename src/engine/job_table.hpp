#pragma once
// The engine's jobs: by job id, by request id (several jobs may share one:
// Curio sends every partition of a WindowPoSt deadline under one id), the
// ended ones in the order they ended (what retention drops first), and the
// counts /status and /metrics report. Plain data with no lock of its own:
// JobBoard holds its lock around every call (job_board.hpp).
#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/job.hpp"

namespace cuzk::engine {

// Jobs ended since start: completed and failed, by kind, and the completion
// time histogram (cumulative buckets, as Prometheus exposes them).
struct JobCounts {
  static constexpr std::array<double, 11> kDurationBounds{0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600};
  uint64_t completed = 0, failed = 0;
  std::map<std::string, uint64_t> completed_by_kind, failed_by_kind;
  std::array<uint64_t, kDurationBounds.size()> duration_buckets{};
  double duration_sum_s = 0;

  // A job ended with `status` (a cancellation counts in neither).
  void record(const std::string& kind, JobStatus status, double secs);
};

class JobTable {
 public:
  using JobPtr = std::shared_ptr<Job>;

  // Numbers the jobs in submission order (job_id_for).
  uint64_t take_seq() { return next_seq_++; }
  // Admits a job: by its id and, if it has one, by its request id; live.
  void add(JobPtr job);
  // The job that answers a resubmission under `request_id` with payload
  // digest `d`: the newest that is live or COMPLETED (a FAILED or CANCELLED
  // one is retried by a new job); nullptr when none.
  JobPtr reusable(const std::string& request_id, const PayloadDigest& d) const;
  // The job a job id names, else the newest of a request id; throws
  // ServiceError(NotFound).
  JobPtr resolve(const std::string& id) const;
  // Every job an id names: the one of a job id, or all of a request id
  // (oldest first); empty for an unknown id.
  std::vector<JobPtr> named(const std::string& id) const;
  // The job has ended (JobBoard): no longer live, the newest
  // for retention.
  void ended(const Job& job);
  // Drops ended jobs, oldest first, while more than `keep` are retained or
  // the oldest ended more than `keep_for` before `now`.
  void prune(Clock::time_point now, size_t keep, Clock::duration keep_for);
  // Up to n retained ended jobs, the newest first.
  std::vector<JobPtr> recently_ended(size_t n) const;

  uint32_t live() const { return live_; }
  // Every retained job by job id (live and ended).
  const std::map<std::string, JobPtr>& all() const { return jobs_; }

 private:
  std::map<std::string, JobPtr> jobs_;
  std::map<std::string, std::vector<JobPtr>> by_request_;  // oldest first
  std::deque<JobPtr> ended_order_;
  uint32_t live_ = 0;
  uint64_t next_seq_ = 1;
};

}  // namespace cuzk::engine
