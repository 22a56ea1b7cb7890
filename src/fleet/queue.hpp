#pragma once
// fleet::Queue: the shared job queue of a daemon fleet, on the tables of
// fleet::Schema (docs/FLEET.md). Every daemon enqueues the jobs submitted to
// it; any daemon with free capacity claims queued jobs under a lease, renews
// the lease while it proves, and completes or fails the job; a lease that
// runs out returns the job to the queue (or fails it past max_attempts).
//
// A Queue uses one Database (one connection, one thread at a time). Kinds and
// priorities are plain integers: the engine's ProofKind / Priority values
// (engine/service.hpp), which this layer does not include.
#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "fleet/database.hpp"

namespace cuzk::fleet {

enum class JobState { Queued, Claimed, Done, Failed, Cancelled };
const char* state_name(JobState s);  // "queued", "claimed", ...
JobState parse_state(const std::string& s);

// Errors of the queue's rules (not of the database): AlreadyExists is the
// engine's Curio retry conflict (same job id, different payload).
class QueueError : public std::runtime_error {
 public:
  enum class Code { AlreadyExists, InvalidArgument };
  QueueError(Code c, const std::string& msg) : std::runtime_error(msg), code_(c) {}
  Code code() const { return code_; }

 private:
  Code code_;
};

struct JobSpec {
  std::string job_id;  // the idempotency key (the request id); required
  int kind = 0;        // engine::ProofKind value
  int priority = 2;    // engine::Priority value (4 CRITICAL .. 1 LOW)
  std::string circuit_id;
  std::string payload;  // stored once, as bytea
  int partitions = 1;
  int max_attempts = 3;
};

struct EnqueueResult {
  std::string job_id;
  bool created = false;  // false: an existing job with the same payload was returned
  JobState state = JobState::Queued;
};

struct ClaimRequest {
  std::string daemon_id;
  int free_slots = 0;                     // how many jobs the daemon can start now
  std::vector<std::string> hot_circuits;  // circuit ids whose SRS the daemon holds hot
  std::chrono::milliseconds lease{30000};
  // Reservation: jobs below `urgent_priority` may not take the last
  // `reserved_slots` free slots, so CRITICAL/HIGH work never waits behind
  // them (e.g. reserved_slots = 1: a daemon with one free slot claims only
  // CRITICAL/HIGH jobs).
  int reserved_slots = 0;
  int urgent_priority = 3;  // engine::Priority::High
};

struct ClaimedJob {
  std::string job_id;
  int kind = 0, priority = 0;
  std::string circuit_id;
  std::string payload;
  int partitions = 1;
  int attempt = 0;  // 1 on the first claim
  int max_attempts = 0;
};

struct JobInfo {
  std::string job_id;
  int kind = 0, priority = 0;
  std::string circuit_id;
  JobState state = JobState::Queued;
  std::string claimed_by;  // the daemon holding it (claimed) or that last held it (done, cancelled); else ""
  int attempts = 0, max_attempts = 0;
  std::string last_error;
  std::optional<std::string> result;  // set when done
  std::string payload_digest;         // SHA-256, hex
  double lease_remaining_s = 0;       // claimed jobs: seconds until the lease runs out (<= 0: expired)
};

enum class CompleteOutcome {
  Completed,  // the result is stored
  LeaseLost,  // the caller's lease expired or the job moved on: the result is discarded
  Cancelled,  // the job was cancelled while running: the result is discarded
  NotFound,
};
enum class FailOutcome { Requeued, Failed, LeaseLost, NotFound };
enum class CancelOutcome { Cancelled, WasRunning, AlreadyEnded, NotFound };
const char* outcome_name(CompleteOutcome o);
const char* outcome_name(FailOutcome o);

struct Reclaimed {
  std::string job_id;
  std::string daemon_id;  // whose lease expired
  JobState state;         // Queued again, or Failed past max_attempts
};

struct DepthRow {
  int kind = 0, priority = 0;
  JobState state = JobState::Queued;
  int64_t jobs = 0;
};

class Queue {
 public:
  explicit Queue(Database& db) : db_(db) {}

  // Records a job. Idempotent on job_id: a job with the same id and payload
  // digest is returned as it is (created = false); a different payload is
  // QueueError::AlreadyExists while the job is queued, running or done; a
  // FAILED or CANCELLED job is replaced (a retry under the same id, like the
  // engine's Curio retry semantics).
  EnqueueResult enqueue(const JobSpec& spec);

  // Claims up to free_slots queued jobs for the daemon, ordered by priority
  // (highest first), then jobs whose circuit is hot on this daemon, then age;
  // SELECT ... FOR UPDATE SKIP LOCKED, so concurrent claimers never take the
  // same job. Each claim counts one attempt. Returned in claim order.
  std::vector<ClaimedJob> claim(const ClaimRequest& req);

  // Extends the lease of one job the daemon holds; false when it no longer
  // holds an unexpired lease on it.
  bool renew_lease(const std::string& daemon_id, const std::string& job_id, std::chrono::milliseconds lease);

  // Stores the result only while the caller holds an unexpired lease.
  CompleteOutcome complete(const std::string& daemon_id, const std::string& job_id,
                           const std::string& result);

  // Records `reason`; requeues the job while attempts < max_attempts and
  // `retryable`, else fails it for good.
  FailOutcome fail(const std::string& daemon_id, const std::string& job_id, const std::string& reason,
                   bool retryable = true);

  // Jobs whose lease ran out: back to queued, or failed once attempts reached
  // max_attempts; last_error names the daemon whose lease expired.
  std::vector<Reclaimed> reclaim_expired();

  std::optional<JobInfo> get(const std::string& job_id);
  // The states of many jobs in one statement (awaiting daemons poll with
  // it); ids not in the queue are left out.
  std::vector<std::pair<std::string, JobState>> states(const std::vector<std::string>& job_ids);
  CancelOutcome cancel(const std::string& job_id);

  // Deletes done/failed/cancelled jobs last updated more than `age` ago;
  // returns how many.
  int64_t cleanup(std::chrono::seconds age);

  // Jobs queued and claimed, by kind and priority (metrics).
  std::vector<DepthRow> depth();

  // The daemon registry: upserts the daemon's heartbeat, hot circuits and
  // capacity.
  void heartbeat(const std::string& daemon_id, const std::vector<std::string>& hot_circuits, int capacity);

  // A PostgreSQL text[] literal: {"a","b"} with quotes and backslashes escaped.
  static std::string text_array(const std::vector<std::string>& items);

 private:
  Database& db_;
};

}  // namespace cuzk::fleet
